"""What an operator reaches over HTTP beside `/mcp` (DESIGN §11), and the access log.

- `GET /healthz`: the process is alive (always 200 while it answers).
- `GET /readyz`: 200 when the database answers and is migrated and the backend is reachable (the
  sandbox: a read of its workspace; Composio: a read of a tool's schema from Composio's own API,
  no provider call), else 503. Neither needs a token, so neither says more than which check failed.
- `GET /metrics`: Prometheus text. Open to loopback clients (a scraper on the host, or behind a
  same-host proxy that sets X-Forwarded-For, which uvicorn honours from 127.0.0.1); anyone else
  needs `Authorization: Bearer $PLANNER_METRICS_TOKEN`.

Everything else goes on to the MCP app (and its bearer-token check). Every request is logged once
(`planner.access`: method, path, status, latency; probes and scrapes at DEBUG): never a header,
a query string or a body.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import logging
import time
from typing import Any

from server.service import Service
from server.settings import Settings
from toolkits import metrics

__all__ = ["OpsApp", "readiness"]

log = logging.getLogger("planner.access")

BACKEND_CHECK_TIMEOUT_S = 5.0
BACKEND_CHECK_TTL_S = 15.0  # probes come every few seconds; Composio need not hear each one
_PROBE_SLUG = "LINEAR_LIST_LINEAR_TEAMS"
_OPS_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})


class _BackendCheck:
    def __init__(self) -> None:
        self._at = -float("inf")
        self._ok = False
        self._lock = asyncio.Lock()

    async def __call__(self, service: Service) -> bool:
        async with self._lock:
            now = time.monotonic()
            if now - self._at >= BACKEND_CHECK_TTL_S:
                self._ok = await _backend_ok(service)
                self._at = time.monotonic()
            return self._ok


async def _backend_ok(service: Service) -> bool:
    backend = service.backend
    schemas = getattr(backend, "tool_schemas", None)  # the Composio backend (also through pacing)
    try:
        async with asyncio.timeout(BACKEND_CHECK_TIMEOUT_S):
            if schemas is not None:
                await schemas([_PROBE_SLUG])
                return True
            result = await backend.execute(_PROBE_SLUG, {})
            return bool(result.get("successful"))
    except Exception:  # unreachable, refused, timed out: not ready, whatever the cause
        logging.getLogger("planner.service").warning("readiness: the backend did not answer", exc_info=True)
        return False


async def readiness(service: Service, backend_check: Any = None) -> dict[str, bool]:
    """Each check by name: `database` (reachable and migrated) and `backend` (reachable)."""
    database = await service.store.ready()
    backend = await (backend_check or _backend_ok)(service)
    return {"database": database, "backend": backend}


def _is_loopback(host: str | None) -> bool:
    try:
        return host is not None and ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class OpsApp:
    """Wraps the MCP app (already behind its auth check): serves the three operator paths itself."""

    def __init__(self, app: Any, service: Service, settings: Settings) -> None:
        self.app = app
        self.service = service
        self.metrics_token = (settings.metrics_token or "").encode()
        self._backend = _BackendCheck()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500
        path = scope.get("path", "")

        async def sending(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            if path in _OPS_PATHS:
                await self._ops(scope, path, sending)
            else:
                await self.app(scope, receive, sending)
        finally:
            client = (scope.get("client") or (None, None))[0]
            fields = {
                "event": "http",
                "method": scope.get("method", ""),
                "path": path if path in _OPS_PATHS or path.startswith("/mcp") else "(other)",
                "http_status": status,
                "latency_ms": round((time.perf_counter() - start) * 1000, 1),
                "client": client,
            }
            level = logging.DEBUG if path in _OPS_PATHS and status < 500 else logging.INFO
            log.log(level, "%s %s %d", fields["method"], fields["path"], status, extra=fields)

    async def _ops(self, scope: dict[str, Any], path: str, send: Any) -> None:
        if scope.get("method") not in ("GET", "HEAD"):
            await _reply(send, 405, {"error": "method not allowed"}, headers=[(b"allow", b"GET, HEAD")])
            return
        if path == "/healthz":
            await _reply(send, 200, {"status": "ok"})
        elif path == "/readyz":
            checks = await readiness(self.service, self._backend)
            ready = all(checks.values())
            body = {
                "status": "ready" if ready else "not ready",
                "checks": {k: "ok" if v else "down" for k, v in checks.items()},
            }
            await _reply(send, 200 if ready else 503, body)
        else:
            await self._metrics(scope, send)

    async def _metrics(self, scope: dict[str, Any], send: Any) -> None:
        client = (scope.get("client") or (None, None))[0]
        if not _is_loopback(client):
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
            auth = headers.get("authorization", "")
            given = auth[7:].strip().encode() if auth.lower().startswith("bearer ") else b""
            if not self.metrics_token or not given or not hmac.compare_digest(given, self.metrics_token):
                await _reply(
                    send,
                    401,
                    {"error": "metrics are open to loopback only; elsewhere send PLANNER_METRICS_TOKEN"},
                    headers=[(b"www-authenticate", b'Bearer realm="planner-mcp metrics"')],
                )
                return
        try:
            metrics.set_drafts(await self.service.store.draft_counts())
        except Exception:  # the process's own counters are still worth a scrape when the database is down
            logging.getLogger("planner.service").warning(
                "metrics: drafts by state unavailable", exc_info=True
            )
        body = await asyncio.to_thread(metrics.exposition)
        await _raw(send, 200, body, metrics.CONTENT_TYPE.encode())


async def _reply(
    send: Any, status: int, body: dict[str, Any], headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    await _raw(send, status, json.dumps(body).encode(), b"application/json", headers)


async def _raw(
    send: Any, status: int, body: bytes, content_type: bytes, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    head = [
        (b"content-type", content_type),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        *(headers or []),
    ]
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": body})
