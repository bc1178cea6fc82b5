"""Who is asking: the process owner over stdio, the bearer token's principal over HTTP."""

from __future__ import annotations

import hmac
from typing import Any

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from server.settings import Principal

__all__ = ["resolve_user"]


def resolve_user(ctx: Context[Any, Any] | None, user_id: str, principals: tuple[Principal, ...]) -> str:
    """Over stdio the process owner is trusted and `user_id` is honoured. Over HTTP the bearer token
    decides: a delegating principal's users are namespaced by it; any other principal is its own user."""
    headers = ctx.headers if ctx is not None else None
    if headers is None:
        return user_id or "local"
    auth = headers.get("authorization") or headers.get("Authorization") or ""
    token = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
    for p in principals:
        if token and hmac.compare_digest(token.encode(), p.token.encode()):
            if not p.delegating:
                return p.name
            uid = user_id or "local"
            return uid if uid.startswith(p.name + ":") else f"{p.name}:{uid}"
    raise ToolError("Not authorised.")
