"""Test support: fixtures, helpers, loopback servers and the browser driver."""
