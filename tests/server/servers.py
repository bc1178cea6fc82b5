"""Servers started the way people start them, and real MCP clients for them (shared by the HTTP suites).

- `http_server`: `planner-mcp serve --http --port <free port>` with a random delegating token
  (PLANNER_HTTP_TOKEN, principal "http"), optional named principals (PLANNER_HTTP_TOKENS, delegating or
  not), a fresh PLANNER_DB and its stderr kept in a log file;
- `http_client`: the SDK's `Client` over Streamable HTTP with a bearer token;
- `SandboxFile`: the server's database read directly (read-only), for oracles that must not trust the
  server's own answers: drafts, their transition log, audit records, and the sandbox workspace.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import pytest
from conftest import ROOT, free_port, reply_of
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

__all__ = [
    "LONG_WAIT_S",
    "HttpServer",
    "SandboxFile",
    "WorkerPool",
    "http_client",
    "http_server",
    "reply_from",
]

Reply = dict[str, Any]

LONG_WAIT_S = 60.0  # an upper bound for a whole conversation, never a synchronisation sleep
START_DEADLINE_S = 30.0  # how long a server process may take to listen
POLL_S = 0.05  # the port poll interval while waiting for the HTTP server
WORKER = Path(__file__).resolve().parent / "http_worker.py"


def reply_from(result: CallToolResult) -> Reply:
    """The structured reply of a call (`not_found` and `invalid` are errors with a reply); an error result
    without one (arguments the schema refused) becomes a small failed reply."""
    if result.is_error and not isinstance(result.structured_content, dict):
        text = " ".join(str(getattr(c, "text", "")) for c in result.content)
        return {"ok": False, "status": "tool_error", "is_error": True, "user_message": text}
    return reply_of(result)


@dataclass(frozen=True)
class HttpServer:
    """A `planner-mcp serve --http` process and the bearer tokens it accepts."""

    url: str
    token: str  # the delegating principal "http" (PLANNER_HTTP_TOKEN)
    principals: dict[str, str]  # non-delegating principals (PLANNER_HTTP_TOKENS): name -> token
    process: subprocess.Popen[bytes]
    delegates: dict[str, str] = field(default_factory=dict)  # delegating principals: name -> token
    log: Path | None = None  # the server's stdout and stderr
    db: Path | None = None

    @property
    def all_tokens(self) -> list[str]:
        return [self.token, *self.principals.values(), *self.delegates.values()]

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log else ""


def _wait_until_listening(proc: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + START_DEADLINE_S
    while True:
        if proc.poll() is not None:
            pytest.fail(
                f"HTTP server exited with {proc.returncode}:\n{log.read_text(errors='replace')[-2000:]}"
            )
        try:
            socket.create_connection(("127.0.0.1", port), timeout=POLL_S).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                pytest.fail(
                    f"HTTP server did not listen within {START_DEADLINE_S}s:\n"
                    f"{log.read_text(errors='replace')[-2000:]}"
                )
            time.sleep(POLL_S)  # polling the port for readiness, not waiting for another actor


@contextmanager
def http_server(
    workdir: Path,
    principals: dict[str, str] | None = None,
    *,
    delegates: dict[str, str] | None = None,
    env: dict[str, str] | None = None,
) -> Iterator[HttpServer]:
    """`planner-mcp serve --http --port <free port>` with a random PLANNER_HTTP_TOKEN and a fresh PLANNER_DB;
    `principals` (name -> token) act as themselves, `delegates` (name -> token) may act for their users;
    `env` adds variables. Waits until the port accepts connections, terminates the process afterwards."""
    principals = principals or {}
    delegates = delegates or {}
    port = free_port()
    token = secrets.token_urlsafe(24)
    db = workdir / "planner.db"
    server_env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPOSIO_", "PLANNER_"))}
    server_env.update(
        PLANNER_DB=str(db),
        PLANNER_HTTP_TOKEN=token,
        PLANNER_HTTP_TOKENS=",".join(
            [f"{name}={tok}" for name, tok in principals.items()]
            + [f"{name}={tok}:delegate" for name, tok in delegates.items()]
        ),
        **(env or {}),
    )
    log = workdir / "http-server.log"
    with log.open("wb") as err:
        proc = subprocess.Popen(
            [
                str(ROOT / ".venv" / "bin" / "planner-mcp"),
                "serve",
                "--http",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            cwd=ROOT,
            env=server_env,
            stdin=subprocess.DEVNULL,
            stdout=err,
            stderr=err,
        )
    try:
        _wait_until_listening(proc, port, log)
        yield HttpServer(
            f"http://127.0.0.1:{port}/mcp", token, dict(principals), proc, dict(delegates), log, db
        )
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


@asynccontextmanager
async def http_client(
    url: str, token: str, bodies: list[bytes] | None = None, headers: dict[str, str] | None = None
) -> AsyncIterator[Client]:
    """A real MCP client over Streamable HTTP with a bearer token (and any extra `headers`);
    keeps every response body in `bodies`."""

    async def keep_body(response: httpx2.Response) -> None:
        await response.aread()
        if bodies is not None:
            bodies.append(response.content)

    async with httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {token}", **(headers or {})},
        timeout=LONG_WAIT_S,
        event_hooks={"response": [keep_body]},
    ) as http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            yield client


# ---------------------------------------------------------------------------------------------
# Client processes
# ---------------------------------------------------------------------------------------------


class WorkerPool:
    """Client processes (`http_worker.py`), each with its own connections to the server.

    Every worker connects first and says "ready" before each phase; `run` releases all of them into
    the phase at once (a barrier over their stdin, no sleeps) and finally collects each one's JSON
    report. A job is {"connections": n, "calls": [...]} (one phase) or {"connections": n, "flows":
    [{"user", "text"}]} (three phases: plan, confirm, execute); see `http_worker.py`."""

    def __init__(self, url: str, token: str, jobs: list[dict[str, Any]]) -> None:
        self.procs = [
            subprocess.Popen(
                [sys.executable, str(WORKER)],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
            for _ in jobs
        ]
        for proc, job in zip(self.procs, jobs, strict=True):
            assert proc.stdin is not None
            proc.stdin.write(json.dumps({"url": url, "token": token, **job}) + "\n")
            proc.stdin.flush()

    def run(self, phases: int = 1) -> list[dict[str, Any]]:
        """Release every worker into each of its `phases` together; their reports, in job order."""
        try:
            for _ in range(phases):
                for proc in self.procs:
                    assert proc.stdout is not None
                    line = proc.stdout.readline()
                    assert line.strip() == "ready", self._failure(proc, line)
                for proc in self.procs:  # the barrier: everyone is ready; go
                    assert proc.stdin is not None
                    proc.stdin.write("go\n")
                    proc.stdin.flush()
            reports = []
            for proc in self.procs:
                out, err = proc.communicate(timeout=LONG_WAIT_S)
                assert proc.returncode == 0, f"a client process failed ({proc.returncode}):\n{err[-3000:]}"
                reports.append(json.loads(out))
            return reports
        finally:
            for proc in self.procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait(timeout=10)

    @staticmethod
    def _failure(proc: subprocess.Popen[str], line: str) -> str:
        proc.kill()
        _, err = proc.communicate(timeout=10)
        return f"a client process did not connect: {line!r}\n{err[-3000:]}"


# ---------------------------------------------------------------------------------------------
# The database as it is
# ---------------------------------------------------------------------------------------------


class SandboxFile:
    """The server's SQLite file, read-only: what really happened, whatever the replies said."""

    def __init__(self, db: Path) -> None:
        self.conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)

    def __enter__(self) -> SandboxFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.conn.close()

    def draft(self, draft_id: str) -> tuple[str, str] | None:
        """(owner, status) of a draft."""
        row = self.conn.execute(
            "SELECT owner_user_id, status FROM drafts WHERE id = ?", (draft_id,)
        ).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def drafts_of(self, owner: str) -> dict[str, str]:
        rows = self.conn.execute("SELECT id, status FROM drafts WHERE owner_user_id = ?", (owner,))
        return {str(i): str(s) for i, s in rows}

    def events(self, draft_id: str) -> list[tuple[str, str]]:
        rows = self.conn.execute(
            "SELECT from_state, to_state FROM draft_events WHERE draft_id = ? ORDER BY id", (draft_id,)
        )
        return [(str(a), str(b)) for a, b in rows]

    def audit(self) -> list[dict[str, Any]]:
        self.conn.row_factory = sqlite3.Row
        try:
            return [dict(r) for r in self.conn.execute("SELECT * FROM audit_log ORDER BY id")]
        finally:
            self.conn.row_factory = None

    def workspace(self) -> dict[str, Any]:
        row = self.conn.execute("SELECT body FROM sandbox_workspace WHERE id = 1").fetchone()
        return dict(json.loads(row[0]))

    def issue_titles(self, marker: str) -> list[str]:
        """Titles of the Linear issues in the sandbox that carry `marker`, one entry per issue."""
        return [t for kind, t in self.created(marker) if kind == "issue"]

    def created(self, marker: str) -> list[tuple[str, str]]:
        """(kind, title) of every Linear issue, Attio note and calendar event whose title carries
        `marker`: one entry per object, so a duplicate side effect shows as a repeated entry."""
        ws = self.workspace()
        found = [("issue", str(i.get("title", ""))) for i in ws["linear"]["issues"]]
        found += [("note", str(n.get("title", ""))) for n in ws["attio"]["notes"]]
        found += [("event", str(e.get("summary", ""))) for e in ws["calendar"]["events"]]
        return [(kind, title) for kind, title in found if marker in title]
