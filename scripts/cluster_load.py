"""Load against several `planner-mcp serve --http` processes sharing one PostgreSQL database.

Starts N servers (default 3) on a fresh schema of the database named by `--database-url` (default:
PLANNER_TEST_DATABASE_URL or postgresql://127.0.0.1:5432/test), or with `--sqlite` on one fresh
SQLite file (a same-host baseline), then runs W workers. Each worker keeps one MCP session per
server and repeats: `plan` a new Linear issue on one server, `confirm_draft` on the next, and
`execute_draft` on all of them at once (so every draft is executed concurrently by every process). At the end it checks exactly once from the database (one issue per draft, every
ledger claim settled on its first attempt), prints the figures, stops the servers and drops the
schema (unless --keep).

On the sandbox nothing is paced (only the Composio backend keeps to the providers' rate budgets,
per process), so the figures measure the servers and the shared store.

With `--load-py` it runs scripts/load.py's people instead (plan -> confirm -> execute of rotating
kinds for `--seconds`), split evenly across the servers, and verifies with load.py's own checks.

Usage: python scripts/cluster_load.py [--processes 3] [--workers 9] [--drafts 45] [--sqlite]
       python scripts/cluster_load.py --load-py [--users 20] [--seconds 60]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import secrets
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import AsyncExitStack, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import httpx2
import psycopg
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

ROOT = Path(__file__).resolve().parents[1]
REF_NOW = "2026-11-25T12:00:00+03:00"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def with_search_path(url: str, schema: str) -> str:
    parts = urlsplit(url)
    option = "options=" + quote(f"-csearch_path={schema}", safe="")
    return urlunsplit(parts._replace(query=f"{parts.query}&{option}" if parts.query else option))


def start_servers(
    n: int, database_url: str, token: str, logs: Path
) -> tuple[list[str], list[subprocess.Popen[bytes]]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPOSIO_", "PLANNER_"))}
    env.update(
        PLANNER_DATABASE_URL=database_url, PLANNER_HTTP_TOKEN=token, PLANNER_DB=str(logs / "unused.db")
    )
    urls, procs, ports = [], [], []
    for i in range(n):
        port = free_port()
        with (logs / f"server{i}.log").open("wb") as out:
            procs.append(
                subprocess.Popen(
                    [str(ROOT / ".venv" / "bin" / "planner-mcp"), "serve", "--http", "--port", str(port)],
                    cwd=ROOT,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=out,
                )
            )
        ports.append(port)
        urls.append(f"http://127.0.0.1:{port}/mcp")
    deadline = time.monotonic() + 30
    for proc, port in zip(procs, ports, strict=True):
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"a server exited with {proc.returncode}; see {logs}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.05).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit(f"a server did not listen within 30 s; see {logs}") from None
                time.sleep(0.05)
    return urls, procs


def reply_of(result: Any) -> dict[str, Any]:
    if result.is_error:
        return {"status": "tool_error", "text": " ".join(getattr(c, "text", "") for c in result.content)}
    return dict(result.structured_content)


class Figures:
    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.titles: list[str] = []

    def record(self, tool: str, seconds: float, status: str) -> None:
        self.latency[tool].append(seconds)
        self.statuses[tool][status] += 1


async def worker(n: int, urls: list[str], token: str, drafts: int, figures: Figures) -> None:
    # Sessions are entered and left in this task: anyio's cancel scopes must not change tasks.
    async with AsyncExitStack() as stack:
        http = await stack.enter_async_context(
            httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120)
        )
        clients = [
            await stack.enter_async_context(Client(streamable_http_client(u, http_client=http))) for u in urls
        ]
        user = f"load{n}x{secrets.token_hex(3)}"

        async def timed(server: int, tool: str, args: dict[str, Any]) -> dict[str, Any]:
            start = time.perf_counter()
            reply = reply_of(await clients[server].call_tool(tool, {"user_id": user, **args}))
            figures.record(tool, time.perf_counter() - start, str(reply.get("status")))
            return reply

        for i in range(drafts):
            title = f"нагрузка {user} {i}"
            first = (n + i) % len(urls)
            text = f"Создай задачу в Linear: {title}"
            planned = await timed(first, "plan", {"text": text, "now": REF_NOW})
            if planned.get("status") != "draft_pending":
                continue
            draft = planned["draft"]["id"]
            await timed((first + 1) % len(urls), "confirm_draft", {"draft_id": draft})
            figures.titles.append(title)
            await asyncio.gather(*(timed(s, "execute_draft", {"draft_id": draft}) for s in range(len(urls))))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def check(database: str, titles: list[str]) -> dict[str, Any]:
    if database.startswith("postgresql://"):
        with psycopg.connect(database, autocommit=True) as conn:
            return verdict(conn, titles)
    lite = sqlite3.connect(database)
    try:
        return verdict(lite, titles)
    finally:
        lite.close()


def verdict(conn: Any, titles: list[str]) -> dict[str, Any]:
    """Exactly once, from the database: the same SQL on both backends."""
    (body,) = conn.execute("SELECT body FROM sandbox_workspace WHERE id = 1").fetchone() or ("{}",)
    issues = json.loads(body)["linear"]["issues"]
    counts: defaultdict[str, int] = defaultdict(int)
    for issue in issues:
        counts[issue["title"]] += 1
    ledger = conn.execute("SELECT state, attempts, count(*) FROM ledger GROUP BY 1, 2").fetchall()
    statuses = conn.execute("SELECT status, count(*) FROM drafts GROUP BY 1").fetchall()
    executing = conn.execute(
        "SELECT count(*) FROM draft_events WHERE to_state = 'executing' GROUP BY draft_id HAVING count(*) > 1"
    ).fetchall()
    return {
        "drafts": dict(statuses),
        "issues_exactly_once": sum(1 for t in titles if counts[t] == 1),
        "issues_duplicated": sum(1 for t in titles if counts[t] > 1),
        "issues_missing": sum(1 for t in titles if counts[t] == 0),
        "ledger": {f"{state}/attempt{attempts}": n for state, attempts, n in ledger},
        "drafts_entering_executing_twice": len(executing),
    }


@contextmanager
def cluster(args: argparse.Namespace) -> Iterator[tuple[list[str], str, str, Path]]:
    """N servers on a fresh schema (or SQLite file): (urls, token, database, log directory)."""
    base = args.database_url
    schema = "load_" + secrets.token_hex(4)
    token = secrets.token_urlsafe(24)
    logs = Path(tempfile.mkdtemp(prefix="cluster-load-"))
    database = str(logs / "planner.db") if args.sqlite else with_search_path(base, schema)
    t0 = time.perf_counter()
    urls, procs = start_servers(args.processes, database, token, logs)
    where = "one SQLite file" if args.sqlite else "one PostgreSQL schema"
    print(f"{args.processes} processes on {where}, listening after {time.perf_counter() - t0:.1f} s")
    try:
        yield urls, token, database, logs
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=10)
        if not args.keep and not args.sqlite:
            with psycopg.connect(base, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


async def own_load(args: argparse.Namespace, urls: list[str], token: str, database: str, logs: Path) -> int:
    figures = Figures()
    t0 = time.perf_counter()
    per_worker = args.drafts // args.workers
    await asyncio.gather(*(worker(n, urls, token, per_worker, figures) for n in range(args.workers)))
    elapsed = time.perf_counter() - t0
    found = check(database, figures.titles)
    calls = sum(len(v) for v in figures.latency.values())
    drafts = len(figures.titles)
    print(
        f"{args.workers} workers: {drafts} drafts, {calls} tool calls in {elapsed:.1f} s: {calls / elapsed:.1f} calls/s,"
    )
    print(f"  {drafts / elapsed:.1f} drafts/s executed (each by {len(urls)} processes at once)")
    print("| tool | calls | p50 ms | p95 ms | p99 ms | max ms | statuses |")
    print("|---|---|---|---|---|---|---|")
    for tool, values in figures.latency.items():
        row = [1000 * percentile(values, q) for q in (0.5, 0.95, 0.99)] + [1000 * max(values)]
        statuses = ", ".join(f"{k} {v}" for k, v in sorted(figures.statuses[tool].items()))
        print(f"| {tool} | {len(values)} | " + " | ".join(f"{x:.0f}" for x in row) + f" | {statuses} |")
    print("exactly once:", json.dumps(found, ensure_ascii=False))
    print(f"server logs in {logs}")
    ok = found["issues_duplicated"] == 0 and found["issues_missing"] == 0
    return 0 if ok and found["drafts_entering_executing_twice"] == 0 else 1


def snapshot_for_load_py(database: str, into: Path) -> Path:
    """The tables scripts/load.py verifies, copied into a SQLite file it can read."""
    target = into / "verify.db"
    copy = sqlite3.connect(target)
    queries = {
        "sandbox_workspace(id, body)": "SELECT id, body FROM sandbox_workspace",
        "drafts(id, status)": "SELECT id, status FROM drafts",
        "draft_actions(draft_id, status)": "SELECT draft_id, status FROM draft_actions",
        "draft_events(draft_id, to_state)": "SELECT draft_id, to_state FROM draft_events",
    }
    try:
        with psycopg.connect(database, autocommit=True) as conn:
            for table, sql in queries.items():
                rows = conn.execute(sql).fetchall()
                copy.execute(f"CREATE TABLE {table}")
                marks = ", ".join("?" * len(rows[0])) if rows else ""
                if rows:
                    copy.executemany(f"INSERT INTO {table.split('(')[0]} VALUES ({marks})", rows)
        copy.commit()
    finally:
        copy.close()
    return target


async def load_py(args: argparse.Namespace, urls: list[str], token: str, database: str, logs: Path) -> int:
    """scripts/load.py's people, split across the servers (each server's share under its own run tag),
    verified by load.py's own checks on a copy of the PostgreSQL tables."""
    spec = importlib.util.spec_from_file_location("load", ROOT / "scripts" / "load.py")
    assert spec is not None and spec.loader is not None
    load = importlib.util.module_from_spec(spec)
    sys.modules["load"] = load  # dataclasses resolve their annotations through sys.modules
    spec.loader.exec_module(load)
    runs = [load.letters(secrets.randbelow(26**4), 4) for _ in urls]
    shares = [args.users // len(urls) + (i < args.users % len(urls)) for i in range(len(urls))]
    results = await asyncio.gather(
        *(
            load.drive(url, token, share, args.seconds, 1000, run)
            for url, share, run in zip(urls, shares, runs, strict=True)
        )
    )
    db = snapshot_for_load_py(database, logs)
    merged = load.Tally()
    problems: list[str] = []
    for (tally, _), run in zip(results, runs, strict=True):
        problems += load.verify(db, tally, run)
        for tool, values in tally.latencies.items():
            merged.latencies[tool] += values
        merged.errors += tally.errors
        merged.loops += tally.loops
    log = "\n".join(path.read_text(errors="replace") for path in sorted(logs.glob("server*.log")))
    result = load.report(
        merged, max(elapsed for _, elapsed in results), args.users, args.seconds, problems, log
    )
    load.print_report(result)
    return 1 if result["errors"] or result["side_effect_problems"] or result["server_log_problems"] else 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--database-url",
        default=os.environ.get("PLANNER_TEST_DATABASE_URL") or "postgresql://127.0.0.1:5432/test",
    )
    p.add_argument("--processes", type=int, default=3)
    p.add_argument("--workers", type=int, default=9)
    p.add_argument("--drafts", type=int, default=45, help="in total, split among the workers")
    p.add_argument("--sqlite", action="store_true", help="one SQLite file instead (same host only)")
    p.add_argument("--load-py", action="store_true", help="run scripts/load.py's people instead")
    p.add_argument("--users", type=int, default=20, help="--load-py: people, split across the servers")
    p.add_argument("--seconds", type=float, default=60.0, help="--load-py: the load window")
    p.add_argument("--keep", action="store_true", help="keep the schema for inspection")
    args = p.parse_args()
    if args.load_py and args.sqlite:
        p.error("--load-py reads PostgreSQL here; for SQLite run scripts/load.py itself")
    with cluster(args) as (urls, token, database, logs):
        chosen = load_py if args.load_py else own_load
        return asyncio.run(chosen(args, urls, token, database, logs))


if __name__ == "__main__":
    sys.exit(main())
