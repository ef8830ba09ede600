"""The shared index of several replicas: the object store with its build lease, and releases published whole."""
