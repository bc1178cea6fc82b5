"""The embedded sandbox workspace, served through the same Composio slugs as the real backend."""

from __future__ import annotations

from toolkits.sandbox.backend import READ_SLUGS, WRITE_SLUGS, SandboxBackend, is_write_call

__all__ = ["READ_SLUGS", "WRITE_SLUGS", "SandboxBackend", "is_write_call"]
