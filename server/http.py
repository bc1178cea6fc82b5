"""Streamable HTTP with bearer-token auth and an Origin check (DESIGN §10)."""

from __future__ import annotations

import hmac
import json
from typing import Any
from urllib.parse import urlparse

from server.settings import Settings

__all__ = ["AuthMiddleware", "http_app"]

_LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}


class AuthMiddleware:
    """Refuses requests without a valid `Authorization: Bearer` token (401) and requests whose
    `Origin` is another site (403). Pure ASGI, so streaming responses pass through untouched."""

    def __init__(self, app: Any, settings: Settings) -> None:
        self.app = app
        self.tokens = [p.token.encode() for p in settings.principals]
        self.origins = set(settings.allowed_origins)

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
        if not token or not any(hmac.compare_digest(token, t) for t in self.tokens):
            await _deny(send, 401, "missing or invalid bearer token", bearer=True)
            return
        await self.app(scope, receive, send)

    def _origin_ok(self, origin: str) -> bool:
        if origin in self.origins:
            return True
        host = urlparse(origin).hostname or ""
        return host in _LOCAL_HOSTS


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
