"""The embedded sandbox workspace, served through the same Composio slugs as the real backend."""

from __future__ import annotations

from toolkits.sandbox.backend import READ_SLUGS, WRITE_SLUGS, SandboxBackend, is_write_call
from toolkits.sandbox.faults import Fault, FaultKind, FaultPlan

__all__ = ["READ_SLUGS", "WRITE_SLUGS", "Fault", "FaultKind", "FaultPlan", "SandboxBackend", "is_write_call"]
