"""The base of the project's own exceptions, so a caller can catch "anything Pastor refused" in one clause."""

from __future__ import annotations


class PastorError(Exception):
    """An error the project raises on purpose (bad input, a missing file, a refused build), as opposed
    to a bug; each subclass also keeps the built-in base it always had (ValueError, OSError)."""
