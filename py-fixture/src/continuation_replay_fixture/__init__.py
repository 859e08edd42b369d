"""The guarded MCP fixture on the official Python SDK, and its fingerprint implementation."""
