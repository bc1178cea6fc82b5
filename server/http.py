"""Streamable HTTP with bearer-token auth and an Origin check (DESIGN §10)."""

from __future__ import annotations

import hmac
import json
import time
from typing import Any
from urllib.parse import urlparse

from server.settings import Settings

__all__ = ["AuthMiddleware", "SessionBook", "http_app"]

_LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}
SESSION_IDLE_S = 30 * 60.0  # the SDK's DEFAULT_SESSION_IDLE_TIMEOUT: a session silent this long is gone


class AuthMiddleware:
    """Refuses requests without a valid `Authorization: Bearer` token (401), requests whose `Origin`
    is another site (403), bodies over `max_body_bytes` (413, DESIGN §10: no 4 MB title is parsed),
    and a new session beyond `max_sessions` of the same principal (429: one token cannot take the
    SDK's shared session capacity from the others). Pure ASGI, so streaming responses pass through."""

    def __init__(self, app: Any, settings: Settings, *, idle_s: float = SESSION_IDLE_S) -> None:
        self.app = app
        self.principals = [(p.token.encode(), p.name) for p in settings.principals]
        self.origins = set(settings.allowed_origins)
        self.max_body = settings.http_max_body_bytes
        self.sessions = SessionBook(settings.http_max_sessions_per_principal, idle_s)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        origin = headers.get("origin")
        if origin and not self._origin_ok(origin):
            await _deny(send, 403, "origin not allowed")
            return
        auth = headers.get("authorization", "")
        token = auth[7:].strip().encode() if auth.lower().startswith("bearer ") else b""
        who = next((name for t, name in self.principals if token and hmac.compare_digest(token, t)), None)
        if who is None:
            await _deny(send, 401, "missing or invalid bearer token", bearer=True)
            return
        if scope.get("method") == "POST":
            receive = await self._bounded_body(headers, receive, send)
            if receive is None:
                return
        session = headers.get("mcp-session-id")
        if session is None and scope.get("method") == "POST" and not self.sessions.admits(who):
            limit = self.sessions.limit
            await _deny(send, 429, f"too many open sessions for this token ({limit}): close or reuse one")
            return
        await self.app(scope, receive, self.sessions.watch(who, session, scope.get("method"), send))

    async def _bounded_body(self, headers: dict[str, str], receive: Any, send: Any) -> Any:
        """The request body read up front (at most `max_body` bytes), replayed to the app; None after
        refusing a larger one."""
        declared = headers.get("content-length", "")
        if declared.isdecimal() and int(declared) > self.max_body:
            await _deny(send, 413, f"request body over {self.max_body} bytes")
            return None
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return receive  # the client went away: let the app see it
            body += message.get("body", b"")
            more = bool(message.get("more_body"))
            if len(body) > self.max_body:
                await _deny(send, 413, f"request body over {self.max_body} bytes")
                return None
        replay = [{"type": "http.request", "body": body, "more_body": False}]

        async def replayed() -> Any:
            return replay.pop() if replay else await receive()

        return replayed

    def _origin_ok(self, origin: str) -> bool:
        if origin in self.origins:
            return True
        host = urlparse(origin).hostname or ""
        return host in _LOCAL_HOSTS


class SessionBook:
    """The Streamable HTTP sessions each principal holds, as seen at the door: a session opens with
    the `mcp-session-id` of a response, ends with a DELETE, a 404 for its id, or `idle_s` without a
    request (the SDK's own idle timeout)."""

    def __init__(self, limit: int, idle_s: float) -> None:
        self.limit = limit
        self._idle_s = idle_s
        self._open: dict[str, dict[str, float]] = {}

    def admits(self, who: str) -> bool:
        held = self._open.get(who, {})
        now = time.monotonic()
        for sid in [sid for sid, seen in held.items() if now - seen > self._idle_s]:
            del held[sid]
        return len(held) < self.limit

    def watch(self, who: str, session: str | None, method: str | None, send: Any) -> Any:
        held = self._open.setdefault(who, {})
        if session is not None and session in held:
            held[session] = time.monotonic()

        async def watching(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status = int(message.get("status", 500))
                if session is None and status < 400:
                    opened = dict(message.get("headers") or []).get(b"mcp-session-id")
                    if opened:
                        held[opened.decode("latin-1")] = time.monotonic()
                elif session is not None and (status == 404 or (method == "DELETE" and status < 400)):
                    held.pop(session, None)
            await send(message)

        return watching


async def _deny(send: Any, status: int, message: str, bearer: bool = False) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if bearer:
        headers.append((b"www-authenticate", b'Bearer realm="planner-mcp"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def http_app(mcp: Any, settings: Settings, host: str) -> Any:
    from mcp.server.transport_security import TransportSecuritySettings

    security = TransportSecuritySettings(
        allowed_hosts=[f"{h}:*" for h in ("127.0.0.1", "localhost", "[::1]")]
        + ([f"{host}:*"] if host not in _LOCAL_HOSTS else []),
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", *settings.allowed_origins],
    )
    # SSE responses (not json_response): progress notifications reach the client while execute_draft
    # runs, and a handshake-era client keeps its back-channel (elicitation); a 2026 client is stateless.
    app = mcp.streamable_http_app(streamable_http_path="/mcp", transport_security=security, host=host)
    return AuthMiddleware(app, settings)
