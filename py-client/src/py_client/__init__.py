"""The Python SDK client driver (docs/client-drivers.md)."""
