"""Three `planner-mcp serve --http` processes on one PostgreSQL database (issue 7): every promise
holds across processes.

The servers share a schema of their own (`PLANNER_DATABASE_URL` with `options=-csearch_path=...`),
one bearer token, and settings that make a crash observable in seconds: a short lease and recovery
interval, and 1.5 s of sandbox latency on every write, so a kill lands while the write is in flight.

- 30 concurrent `execute_draft` calls for one draft, ten per process, each over its own connection:
  one side effect, one ledger claim, one pass through `executing`.
- A process SIGKILLed in the middle of a draft: another process takes it over and finishes it, with
  the side effect present exactly once.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx2
import psycopg
import pytest
from conftest import REF_NOW, ROOT, free_port, reply_of
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult
from postgres_support import drop_schema, new_schema_name, require_postgres, with_search_path

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.anyio, pytest.mark.timeout(150)]

PROCESSES = 3
CONCURRENT_EXECUTES = 30
START_DEADLINE_S = 30.0
WAIT_S = 60.0  # an upper bound for one test's calls, never a synchronisation sleep
WRITE_LATENCY_S = 1.5
SERVER_ENV = {
    "PLANNER_LEASE_S": "2",  # executors beat every 2/3 s; a silent draft is dead after 2 s + grace
    "PLANNER_RECOVERY_INTERVAL_S": "0.5",
    "PLANNER_RECONCILE_GRACE_S": "0.5",
    "PLANNER_SANDBOX_WRITE_LATENCY_S": str(WRITE_LATENCY_S),
    "PLANNER_DATABASE_POOL_MAX": "8",
    "LOG_LEVEL": "INFO",  # recovery logs "recovered draft <id>": which process finished it
}


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path


@dataclass
class Cluster:
    servers: list[Server]
    token: str
    database_url: str  # selects the cluster's schema


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


def _wait_until_listening(server: Server, port: int) -> None:
    deadline = time.monotonic() + START_DEADLINE_S
    while True:
        if server.process.poll() is not None:
            pytest.fail(f"server exited with {server.process.returncode}:\n{server.log.read_text()[-2000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.05).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                pytest.fail(
                    f"server did not listen within {START_DEADLINE_S}s:\n{server.log.read_text()[-2000:]}"
                )
            time.sleep(0.05)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    base = require_postgres()
    schema = new_schema_name()
    database_url = with_search_path(base, schema)
    token = secrets.token_urlsafe(24)
    workdir = tmp_path_factory.mktemp("cluster")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPOSIO_", "PLANNER_"))}
    env.update(SERVER_ENV)
    # PLANNER_DB points at a file that must never appear: the URL wins for drafts and sandbox.
    env.update(
        PLANNER_DATABASE_URL=database_url, PLANNER_HTTP_TOKEN=token, PLANNER_DB=str(workdir / "unused.db")
    )
    servers: list[tuple[Server, int]] = []
    try:
        for n in range(PROCESSES):  # all started at once: migrations race on a fresh schema
            port = free_port()
            log = workdir / f"server{n}.log"
            with log.open("wb") as out:
                proc = subprocess.Popen(
                    [str(ROOT / ".venv" / "bin" / "planner-mcp"), "serve", "--http", "--port", str(port)],
                    cwd=ROOT,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=out,
                )
            servers.append((Server(f"http://127.0.0.1:{port}/mcp", proc, log), port))
        for server, port in servers:
            _wait_until_listening(server, port)
        yield Cluster([s for s, _ in servers], token, database_url)
        assert not (workdir / "unused.db").exists()
    finally:
        for server, _ in servers:
            if server.process.poll() is None:
                server.process.terminate()
        for server, _ in servers:
            try:
                server.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.process.kill()
                server.process.wait(timeout=10)
        drop_schema(base, schema)


@asynccontextmanager
async def connect(cluster: Cluster, n: int) -> AsyncIterator[Client]:
    """A real MCP client over Streamable HTTP to server `n`."""
    headers = {"Authorization": f"Bearer {cluster.token}"}
    async with httpx2.AsyncClient(headers=headers, timeout=WAIT_S) as http:
        async with Client(streamable_http_client(cluster.servers[n].url, http_client=http)) as client:
            yield client


async def call(cluster: Cluster, n: int, tool: str, **args: Any) -> dict[str, Any]:
    async with connect(cluster, n) as client:
        return reply_of(await client.call_tool(tool, args))


async def confirmed_issue_draft(cluster: Cluster, user: str, title: str) -> str:
    """A draft creating one Linear issue, planned on server 0 and confirmed on server 1."""
    reply = await call(cluster, 0, "plan", user_id=user, now=REF_NOW, text=f"Создай задачу в Linear: {title}")
    assert reply["status"] == "draft_pending", reply
    draft = str(reply["draft"]["id"])
    confirmed = await call(cluster, 1, "confirm_draft", user_id=user, draft_id=draft)
    assert confirmed["status"] == "confirmed", confirmed
    return draft


async def query(cluster: Cluster, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
    async with await psycopg.AsyncConnection.connect(cluster.database_url, autocommit=True) as conn:
        cur = await conn.execute(sql, params)
        return await cur.fetchall()


async def issues_titled(cluster: Cluster, title: str) -> int:
    """Issues with this title in the one sandbox workspace all three processes share."""
    [(body,)] = await query(cluster, "SELECT body FROM sandbox_workspace WHERE id = 1")
    return sum(1 for issue in json.loads(body)["linear"]["issues"] if issue["title"] == title)


async def draft_row(cluster: Cluster, draft: str) -> tuple[str, list[str], list[tuple[str, int]]]:
    """The draft's status, its actions' statuses, and its ledger claims (state, attempts)."""
    [(status,)] = await query(cluster, "SELECT status FROM drafts WHERE id = %s", (draft,))
    actions = await query(
        cluster, "SELECT status FROM draft_actions WHERE draft_id = %s ORDER BY idx", (draft,)
    )
    ledger = await query(cluster, "SELECT state, attempts FROM ledger WHERE draft_id = %s", (draft,))
    return status, [a for (a,) in actions], [(s, n) for s, n in ledger]


async def test_thirty_concurrent_executes_across_three_processes_create_exactly_one_issue(
    cluster: Cluster,
) -> None:
    user = "user-" + uuid.uuid4().hex[:10]
    title = "одновременно " + uuid.uuid4().hex[:10]
    with anyio.fail_after(WAIT_S):
        draft = await confirmed_issue_draft(cluster, user, title)

        async def execute(i: int) -> CallToolResult:
            async with connect(cluster, i % PROCESSES) as client:
                return await client.call_tool("execute_draft", {"draft_id": draft, "user_id": user})

        results = await asyncio.gather(
            *(execute(i) for i in range(CONCURRENT_EXECUTES)), return_exceptions=True
        )

        errors = [r for r in results if isinstance(r, BaseException) or r.is_error]
        assert errors == [], errors
        statuses = [reply_of(r)["status"] for r in results if isinstance(r, CallToolResult)]
        assert set(statuses) <= {"executed", "executing"}, statuses
        assert await issues_titled(cluster, title) == 1
        assert await draft_row(cluster, draft) == ("executed", ["succeeded"], [("succeeded", 1)])
        events = await query(
            cluster, "SELECT from_state, to_state FROM draft_events WHERE draft_id = %s ORDER BY id", (draft,)
        )
        assert events == [("pending", "confirmed"), ("confirmed", "executing"), ("executing", "executed")]
        again = await call(cluster, 2, "execute_draft", user_id=user, draft_id=draft)
        assert again["status"] == "executed"
        assert await issues_titled(cluster, title) == 1


async def test_a_process_killed_mid_execution_is_recovered_by_another(cluster: Cluster) -> None:
    victim = cluster.servers[0]
    user = "user-" + uuid.uuid4().hex[:10]
    title = "после сбоя " + uuid.uuid4().hex[:10]
    with anyio.fail_after(WAIT_S):
        draft = await confirmed_issue_draft(cluster, user, title)
        running = asyncio.create_task(call(cluster, 0, "execute_draft", user_id=user, draft_id=draft))
        # Kill once the write is in flight: claimed in the ledger, not yet applied (the sandbox
        # sleeps its latency before applying).
        while await draft_row(cluster, draft) != ("executing", ["running"], [("started", 1)]):
            await asyncio.sleep(0.02)
        victim.process.send_signal(signal.SIGKILL)
        victim.process.wait(timeout=10)
        with pytest.raises(BaseException):  # noqa: B017  (whatever the torn connection raises)
            await running
        assert await issues_titled(cluster, title) == 0

        while (await draft_row(cluster, draft))[0] == "executing":
            await asyncio.sleep(0.1)

    assert await draft_row(cluster, draft) == ("executed", ["succeeded"], [("succeeded", 1)])
    assert await issues_titled(cluster, title) == 1
    recovered_by = [s for s in cluster.servers[1:] if f"recovered draft {draft}" in s.log.read_text()]
    assert len(recovered_by) == 1, [s.log.read_text()[-1000:] for s in cluster.servers]
    shown = await call(cluster, 2, "list_drafts", user_id=user, include_finished=True)
    assert [(d["id"], d["status"]) for d in shown["results"]] == [(draft, "executed")]
