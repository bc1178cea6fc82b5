"""Who is asking: the process owner over stdio, the bearer token's principal over HTTP."""

from __future__ import annotations

import hmac
from typing import Any

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from server.settings import Principal, Settings

__all__ = ["Who", "resolve_user"]


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


class Who:
    """`resolve_user` for one server, with a stable user over stdio.

    Over stdio one person owns the process, and a model cannot be relied on to repeat `user_id`: one
    that named a user once and then left it out would otherwise land on "local" and find nothing. So
    an omitted id means the user this process last acted for (the owner, `PLANNER_USER`, until a call
    names another). A client that speaks for several people (a bot that spawned the server, marked by
    `PLANNER_STDIO_DELEGATE=1`) always passes the id, and an omitted one must never inherit the
    previous person's: it is the owner. Over HTTP the token decides, as before.
    """

    def __init__(self, settings: Settings) -> None:
        self._principals = settings.principals
        self._owner = settings.stdio_user
        self._delegating = settings.stdio_delegating
        self._last: str | None = None

    def __call__(self, ctx: Context[Any, Any] | None, user_id: str | None) -> str:
        uid = (user_id or "").strip()
        if ctx is not None and ctx.headers is not None:
            return resolve_user(ctx, uid, self._principals)
        if self._delegating:
            return uid or self._owner
        if uid:
            self._last = uid
        return self._last or self._owner
