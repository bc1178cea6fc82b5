"""Shared helpers for the toolkit modules: operation declarations and deterministic scopes."""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from typing import Any

from toolkits.base import ToolAction

__all__ = ["DRAFT", "Operation", "action", "digest", "scoped_uuid"]

# The last key of a scope that belongs to one draft; the store replaces it with the draft's id
# (toolkits/scopes.py). Never a valid draft id (those are URL-safe base64).
DRAFT = "@draft"


@dataclass(frozen=True)
class Operation:
    toolkit: str
    name: str
    slug: str
    read_only: bool
    destructive: bool = False
    # a value change or a create without a business identity: scoped by its draft (DESIGN §7)
    per_draft: bool = False


def digest(*parts: Any, n: int = 12) -> str:
    h = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).hexdigest()
    return h[:n]


def scoped_uuid(scope: str) -> str:
    """A UUID v4-shaped id derived from an idempotency scope (Linear wants v4 format for `id`)."""
    raw = bytearray(hashlib.sha256(scope.encode("utf-8")).digest()[:16])
    raw[6] = (raw[6] & 0x0F) | 0x40
    raw[8] = (raw[8] & 0x3F) | 0x80
    return str(uuid.UUID(bytes=bytes(raw)))


def action(
    op: Operation, args: dict[str, Any], scope_keys: list[Any], preview: str, depends_on: int | None = None
) -> ToolAction:
    keys = [str(k) for k in scope_keys]
    if op.per_draft and DRAFT not in keys:
        keys.append(DRAFT)
    scope = ":".join([op.toolkit, op.name, *keys])
    return ToolAction(
        toolkit=op.toolkit,
        tool_slug=op.slug,
        operation=op.name,
        args=args,
        read_only=op.read_only,
        idempotency_scope=scope,
        preview=preview,
        depends_on=depends_on,
    )
