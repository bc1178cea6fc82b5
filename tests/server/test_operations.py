"""Running it for a team: health, readiness, metrics and logs of a real `planner-mcp serve --http`.

The server runs as people start it (a subprocess on a free port, JSON logs); the test talks to it
over HTTP like a load balancer, a Prometheus scraper and an MCP client would, and reads its log
lines as a log shipper would.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sqlite3
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx2
import pytest
from conftest import REF_NOW, free_port
from postgres_support import drop_schema, new_schema_name, require_postgres, with_search_path
from prometheus_client.parser import text_string_to_metric_families
from servers import LONG_WAIT_S, HttpServer, http_client, http_server, reply_from

pytestmark = [pytest.mark.slow, pytest.mark.anyio]

METRICS_TOKEN = "metrics-" + secrets.token_urlsafe(16)


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    env = {"LOG_FORMAT": "json", "LOG_LEVEL": "INFO", "PLANNER_METRICS_TOKEN": METRICS_TOKEN}
    with http_server(tmp_path_factory.mktemp("ops"), env=env) as s:
        yield s


async def get(server: HttpServer, path: str, headers: dict[str, str] | None = None) -> httpx2.Response:
    async with httpx2.AsyncClient(timeout=LONG_WAIT_S) as client:
        return await client.get(server.url.removesuffix("/mcp") + path, headers=headers)


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    found = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            found[(s.name, frozenset(s.labels.items()))] = s.value
    return found


def value(metrics: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str) -> float:
    return metrics.get((name, frozenset(labels.items())), 0.0)


def log_lines(server: HttpServer) -> list[dict[str, Any]]:
    lines = []
    for raw in server.log_text().splitlines():
        if raw.startswith("{"):
            lines.append(json.loads(raw))  # every line the server writes is one JSON object
    return lines


async def test_health_and_readiness_answer_without_a_token_and_carry_no_data(server: HttpServer) -> None:
    health = await get(server, "/healthz")
    ready = await get(server, "/readyz")

    assert health.status_code == 200 and health.json() == {"status": "ok"}
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "checks": {"database": "ok", "backend": "ok"}}
    assert (await get(server, "/mcp")).status_code == 401  # the MCP endpoint still wants its token


async def test_metrics_count_a_plan_confirm_execute_and_a_json_log_line_tells_it_without_text_or_token(
    server: HttpServer,
) -> None:
    before = samples((await get(server, "/metrics")).text)
    marker = "ops" + uuid.uuid4().hex[:8]
    user = "oleg-" + uuid.uuid4().hex[:6]
    async with http_client(server.url, server.token) as client:
        plan = reply_from(
            await client.call_tool(
                "plan", {"text": f"Создай задачу в ENG: {marker}", "user_id": user, "now": REF_NOW}
            )
        )
        assert plan["status"] == "draft_pending", plan
        draft_id = plan["draft"]["id"]
        confirmed = reply_from(
            await client.call_tool("confirm_draft", {"draft_id": draft_id, "user_id": user})
        )
        assert confirmed["status"] == "confirmed", confirmed
        done = reply_from(await client.call_tool("execute_draft", {"draft_id": draft_id, "user_id": user}))
        assert done["status"] == "executed", done

    scrape = await get(server, "/metrics")
    assert scrape.status_code == 200 and scrape.headers["content-type"].startswith("text/plain")
    after = samples(scrape.text)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("planner_replies_total", tool="plan", status="draft_pending") == 1
    assert moved("planner_replies_total", tool="confirm_draft", status="confirmed") == 1
    assert moved("planner_replies_total", tool="execute_draft", status="executed") == 1
    assert moved("planner_tool_duration_seconds_count", tool="execute_draft") == 1
    assert moved("planner_ledger_outcomes_total", outcome="succeeded") == 1
    assert value(after, "planner_drafts", state="executed") >= 1
    assert value(after, "planner_drafts", state="pending") == 0

    lines = log_lines(server)
    executed = [line for line in lines if line.get("event") == "tool" and line.get("draft_id") == draft_id]
    assert [line["tool"] for line in executed] == ["plan", "confirm_draft", "execute_draft"]
    line = executed[-1]
    assert line["status"] == "executed" and line["level"] == "info" and line["logger"] == "planner.tool"
    assert isinstance(line["latency_ms"], float | int) and line["latency_ms"] >= 0
    assert line["plan_id"] == plan["plan"]["plan_id"]
    assert len(line["user"]) == 16 and user not in json.dumps(line)
    assert line["composio_request_ids"] == []  # the sandbox: no Composio calls
    access = [x for x in lines if x.get("event") == "http" and x["method"] == "POST" and x["path"] == "/mcp"]
    assert len(access) >= 3 and all(x["http_status"] in (200, 202) and x["latency_ms"] >= 0 for x in access)
    log = server.log_text()
    assert marker not in log, "the person's words reached the log"
    assert server.token not in log and METRICS_TOKEN not in log


async def test_metrics_are_open_to_loopback_only_and_health_needs_no_token_from_anywhere(
    service: Any, settings: Any
) -> None:
    """The same app in process, reached from a non-loopback address (uvicorn would set it from the
    socket, or from X-Forwarded-For behind a proxy on the host)."""
    import httpx

    from server.ops_http import OpsApp

    async def mcp_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 401, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    settings.metrics_token = METRICS_TOKEN
    app = OpsApp(mcp_app, service, settings)
    far = httpx.ASGITransport(app=app, client=("203.0.113.7", 40000))
    near = httpx.ASGITransport(app=app, client=("127.0.0.1", 40000))
    async with httpx.AsyncClient(transport=far, base_url="http://planner") as stranger:
        assert (await stranger.get("/metrics")).status_code == 401
        wrong = await stranger.get("/metrics", headers={"authorization": "Bearer wrong-" + METRICS_TOKEN})
        assert wrong.status_code == 401
        scraped = await stranger.get("/metrics", headers={"authorization": f"Bearer {METRICS_TOKEN}"})
        assert scraped.status_code == 200 and "planner_drafts" in scraped.text
        assert (await stranger.get("/healthz")).status_code == 200
        assert (await stranger.get("/readyz")).status_code == 200
        assert (await stranger.post("/healthz")).status_code == 405
    async with httpx.AsyncClient(transport=near, base_url="http://planner") as local:
        assert (await local.get("/metrics")).status_code == 200
    settings.metrics_token = None
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=OpsApp(mcp_app, service, settings), client=("203.0.113.7", 1)),
        base_url="http://planner",
    ) as stranger:
        no_token_set = await stranger.get("/metrics", headers={"authorization": "Bearer "})
        assert no_token_set.status_code == 401


async def test_readiness_fails_with_503_when_the_sqlite_database_loses_its_schema(tmp_path: Path) -> None:
    with http_server(tmp_path, env={"LOG_FORMAT": "json"}) as server:
        assert (await get(server, "/readyz")).status_code == 200
        assert server.db is not None
        with sqlite3.connect(server.db) as conn:  # someone restores an empty or foreign file in place
            conn.execute("DROP TABLE schema_migrations")

        ready = await get(server, "/readyz")

        assert ready.status_code == 503
        assert ready.json() == {"status": "not ready", "checks": {"database": "down", "backend": "ok"}}
        assert (await get(server, "/healthz")).status_code == 200


class TcpGate:
    """A TCP forwarder in front of PostgreSQL, on its own thread and event loop (the test's loop blocks
    while a server starts): closing it is the database going away for the server (listener shut,
    every open connection cut); opening it again on the same port brings the database back."""

    def __init__(self, target_port: int) -> None:
        self.target_port, self.port = target_port, free_port()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()

    def _run(self, coro: Any) -> None:
        asyncio.run_coroutine_threadsafe(coro, self._loop).result(LONG_WAIT_S)

    def open(self) -> None:
        async def start() -> None:
            self._server = await asyncio.start_server(self._pipe, "127.0.0.1", self.port)

        self._run(start())

    def close(self) -> None:
        async def stop() -> None:
            if self._server is not None:
                self._server.close()
                for writer in list(self._writers):
                    writer.transport.abort()
                await self._server.wait_closed()
                self._server = None

        self._run(stop())

    def shutdown(self) -> None:
        self.close()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(LONG_WAIT_S)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self._writers |= {writer, up_writer}

        async def copy(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError, ConnectionError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.transport.abort()

        await asyncio.gather(copy(reader, up_writer), copy(up_reader, writer))
        self._writers -= {writer, up_writer}


@pytest.mark.postgres
async def test_readiness_fails_with_503_while_postgresql_is_unreachable_and_recovers_when_it_is_back(
    tmp_path: Path,
) -> None:
    base, schema = require_postgres(), new_schema_name()
    gate = TcpGate(urlsplit(base).port or 5432)
    gate.open()
    via_gate = urlunsplit(urlsplit(with_search_path(base, schema))._replace(netloc=f"127.0.0.1:{gate.port}"))
    try:
        env = {"PLANNER_DATABASE_URL": via_gate, "LOG_FORMAT": "json"}
        with http_server(tmp_path, env=env) as server:
            assert (await get(server, "/readyz")).status_code == 200
            gate.close()

            down = await get(server, "/readyz")
            alive = await get(server, "/healthz")
            gate.open()
            back = await get(server, "/readyz")
            for _ in range(
                25
            ):  # recovering takes the pool a moment on a loaded machine: wait for it, bounded
                if back.status_code == 200:
                    break
                await asyncio.sleep(0.2)
                back = await get(server, "/readyz")

            assert down.status_code == 503 and down.json()["checks"]["database"] == "down"
            assert alive.status_code == 200
            assert back.status_code == 200, back.text
            assert f"127.0.0.1:{gate.port}" not in server.log_text()  # the database URL is a secret too
    finally:
        gate.shutdown()
        drop_schema(base, schema)


@pytest.mark.postgres
async def test_readiness_fails_with_503_when_the_postgresql_schema_is_dropped(tmp_path: Path) -> None:
    base, schema = require_postgres(), new_schema_name()
    try:
        env = {"PLANNER_DATABASE_URL": with_search_path(base, schema)}
        with http_server(tmp_path, env=env) as server:
            assert (await get(server, "/readyz")).status_code == 200
            drop_schema(base, schema)

            ready = await get(server, "/readyz")

            assert ready.status_code == 503 and ready.json()["checks"]["database"] == "down"
    finally:
        drop_schema(base, schema)
