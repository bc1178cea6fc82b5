"""Load: N people at once, each in a plan -> confirm -> execute loop over Streamable HTTP, for a fixed time.

Usage:
    python scripts/load.py [--users 20] [--seconds 60] [--json]
    python scripts/load.py --url http://127.0.0.1:8765/mcp --token TOKEN --db /path/planner.db

Without --url it starts `planner-mcp serve --http` on a free loopback port with a fresh PLANNER_DB and a
random PLANNER_HTTP_TOKEN, and stops it at the end. Each user (their own user_id, through the delegating
token) repeats: plan a change with a unique tag (a Linear issue, an Attio note on a person or a company, a
calendar block, a Linear comment: the kinds rotate), confirm it, execute it. A loop started before the
deadline finishes; `--max-loops` bounds each user. Only loopback URLs are accepted.

Reports throughput (calls/s, drafts executed/s), latency percentiles per tool (p50/p95/p99/max), errors
(count and the first few), then verifies from the database that every executed draft's change exists
exactly once in the sandbox workspace, that nothing exists for a draft that did not run, and that no
draft ran twice. Exit status: 0 only with zero errors and zero duplicate or missing side effects.

On the sandbox nothing is paced (only the Composio backend keeps to the providers' rate budgets), so the
figures measure the server itself: planning, the SQLite store and the exactly-once bookkeeping.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import socket
import sqlite3
import statistics
import string
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

ROOT = Path(__file__).resolve().parents[1]
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
CALL_TIMEOUT_S = 120.0  # a paced call may queue behind others; never a synchronisation wait
START_DEADLINE_S = 30.0

# kind -> (request, where the created object lands, what its title looks like)
KINDS: dict[str, tuple[str, str, str]] = {
    "issue": ("Создай задачу в Linear: {tag}", "issue", "{tag}"),
    "person_note": ("Add a note to John Smith: {tag}", "note", "{tag}"),
    "block": ("Поставь блок {tag} завтра в 14:00 на 60 минут", "event", "Блок: {tag}"),
    "company_note": ("Добавь заметку к компании Initech: {tag}", "note", "{tag}"),
    "bug": ("Create a Linear issue: {tag}", "issue", "{tag}"),
    "comment": ("Comment on ENG-105: {tag}", "comment", "{tag}"),
}


def letters(n: int, width: int) -> str:
    """`n` in base 26 with letters only (digits in a title could read as a time or a count)."""
    out = ""
    for _ in range(width):
        out = string.ascii_lowercase[n % 26] + out
        n //= 26
    return out


@dataclass
class Loop:
    user: str
    kind: str
    tag: str
    draft: str | None = None
    executed: bool = False


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    loops: list[Loop] = field(default_factory=list)

    def error(self, where: str, what: str) -> None:
        self.errors.append(f"{where}: {what[:300]}")


# ---------------------------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def local_server() -> Iterator[tuple[str, str, Path, Path]]:
    """`planner-mcp serve --http` on a free loopback port with a fresh database: (url, token, db, log)."""
    workdir = Path(tempfile.mkdtemp(prefix="planner-load-"))
    db, log = workdir / "planner.db", workdir / "server.log"
    port, token = free_port(), secrets.token_urlsafe(24)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPOSIO_", "PLANNER_"))}
    env.update(PLANNER_DB=str(db), PLANNER_HTTP_TOKEN=token)
    exe = Path(sys.executable).parent / "planner-mcp"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "server.cli"]
    command += ["serve", "--http", "--host", "127.0.0.1", "--port", str(port)]
    with log.open("wb") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=out)
    try:
        deadline = time.monotonic() + START_DEADLINE_S
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"the server exited with {proc.returncode}:\n{log.read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit(f"the server did not listen within {START_DEADLINE_S}s") from None
                time.sleep(0.05)  # polling the port, not waiting for another actor
        yield f"http://127.0.0.1:{port}/mcp", token, db, log
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        if os.environ.get("LOAD_KEEP_DB") != "1":
            shutil.rmtree(workdir, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# The users
# ---------------------------------------------------------------------------------------------


def structured(result: Any) -> dict[str, Any]:
    if result.is_error:
        text = " ".join(str(getattr(c, "text", "")) for c in result.content)
        return {"ok": False, "status": "tool_error", "user_message": text}
    return dict(result.structured_content or {})


async def timed(client: Client, tally: Tally, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        reply = structured(await client.call_tool(tool, args, read_timeout_seconds=CALL_TIMEOUT_S))
    except Exception as exc:
        reply = {"ok": False, "status": "exception", "user_message": f"{type(exc).__name__}: {exc}"}
    tally.latencies[tool].append(time.perf_counter() - started)
    return reply


async def user_loop(
    client: Client, tally: Tally, run: str, index: int, deadline: float, max_loops: int
) -> None:
    user = f"load-{run}-{index:02d}"
    kinds = list(KINDS)
    n = 0
    while time.monotonic() < deadline and n < max_loops:
        kind = kinds[(index + n) % len(kinds)]
        loop = Loop(user, kind, f"ld{run}u{letters(index, 2)}n{letters(n, 3)}")
        tally.loops.append(loop)
        n += 1
        plan = await timed(
            client, tally, "plan", {"text": KINDS[kind][0].format(tag=loop.tag), "user_id": user}
        )
        loop.draft = (plan.get("draft") or {}).get("id")
        if plan.get("status") != "draft_pending" or not loop.draft:
            tally.error(f"plan {kind}", f"{plan.get('status')}: {plan.get('user_message')}")
            continue
        confirmed = await timed(client, tally, "confirm_draft", {"draft_id": loop.draft, "user_id": user})
        if confirmed.get("status") != "confirmed":
            tally.error(f"confirm {kind}", f"{confirmed.get('status')}: {confirmed.get('user_message')}")
            continue
        executed = await timed(client, tally, "execute_draft", {"draft_id": loop.draft, "user_id": user})
        loop.executed = executed.get("status") == "executed"
        if not loop.executed:
            tally.error(f"execute {kind}", f"{executed.get('status')}: {executed.get('user_message')}")


async def drive(
    url: str, token: str, users: int, seconds: float, max_loops: int, run: str
) -> tuple[Tally, float]:
    tally = Tally()
    async with httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {token}"},
        timeout=httpx2.Timeout(CALL_TIMEOUT_S, connect=10.0),
        limits=httpx2.Limits(max_connections=users * 2, max_keepalive_connections=users * 2),
    ) as http:
        clients = []
        for _ in range(users):  # one MCP client per person, sharing the HTTP connection pool
            clients.append(await Client(streamable_http_client(url, http_client=http)).__aenter__())
        try:
            warm = Tally()  # connect, list the tools, compile each result validator: outside the window
            for client in clients:
                for tool, args in (
                    ("plan", {"text": " ", "user_id": "warm-up"}),
                    ("confirm_draft", {"draft_id": "warm-up", "user_id": "warm-up"}),
                    ("execute_draft", {"draft_id": "warm-up", "user_id": "warm-up"}),
                ):
                    await timed(client, warm, tool, args)
            started = time.monotonic()
            deadline = started + seconds
            await asyncio.gather(
                *(user_loop(c, tally, run, i, deadline, max_loops) for i, c in enumerate(clients))
            )
            elapsed = time.monotonic() - started
        finally:
            for client in reversed(clients):
                await client.__aexit__(None, None, None)
    return tally, elapsed


# ---------------------------------------------------------------------------------------------
# What really happened
# ---------------------------------------------------------------------------------------------


def verify(db: Path, tally: Tally, run: str) -> list[str]:
    """Problems with the side effects, judged from the database alone."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        body = conn.execute("SELECT body FROM sandbox_workspace WHERE id = 1").fetchone()[0]
        drafts = dict(conn.execute("SELECT id, status FROM drafts"))
        actions = Counter((d, s) for d, s in conn.execute("SELECT draft_id, status FROM draft_actions"))
        runs = Counter(
            d for (d,) in conn.execute("SELECT draft_id FROM draft_events WHERE to_state = 'executing'")
        )
    finally:
        conn.close()
    ws = json.loads(body)
    texts: dict[str, list[str]] = {
        "issue": [str(i.get("title", "")) for i in ws["linear"]["issues"]],
        "comment": [str(c.get("body", "")).split("\n\nref:")[0] for c in ws["linear"].get("comments", [])],
        "note": [str(n.get("title", "")) for n in ws["attio"]["notes"]],
        "event": [str(e.get("summary", "")) for e in ws["calendar"]["events"]],
    }
    problems = []
    mine = {kind: Counter(t for t in found if f"ld{run}" in t) for kind, found in texts.items()}
    for kind, counts in mine.items():
        for title, n in counts.items():
            if n > 1:
                problems.append(f"duplicate side effect: {n} {kind}s titled {title!r}")
    for loop in tally.loops:
        if loop.draft is None:
            continue
        _, where, title = KINDS[loop.kind]
        found = mine[where][title.format(tag=loop.tag)]
        status = drafts.get(loop.draft)
        if status == "executed" and found != 1:
            problems.append(f"draft {loop.draft} ({loop.kind}) executed but its change exists {found} times")
        if status != "executed" and found:
            problems.append(f"draft {loop.draft} is {status} but its change exists {found} times")
        if loop.executed and status != "executed":
            problems.append(f"draft {loop.draft} was reported executed but is {status}")
        if runs[loop.draft] > 1:
            problems.append(f"draft {loop.draft} started executing {runs[loop.draft]} times")
        if status == "executed" and actions[(loop.draft, "succeeded")] != 1:
            problems.append(f"draft {loop.draft}: its action did not succeed exactly once")
    return problems


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def report(
    tally: Tally, elapsed: float, users: int, window: float, problems: list[str], log: str | None
) -> dict[str, Any]:
    calls = sum(len(v) for v in tally.latencies.values())
    executed = sum(1 for loop in tally.loops if loop.executed)
    tools = {
        tool: {
            "calls": len(v),
            "p50_ms": round(1000 * statistics.median(v), 1),
            "p95_ms": round(1000 * percentile(v, 95), 1),
            "p99_ms": round(1000 * percentile(v, 99), 1),
            "max_ms": round(1000 * max(v), 1),
        }
        for tool, v in sorted(tally.latencies.items())
        if v
    }
    server_problems = [
        line for line in (log or "").splitlines() if "database is locked" in line or "Traceback" in line
    ]
    return {
        "users": users,
        "window_s": window,
        "seconds": round(elapsed, 1),
        "loops_started": len(tally.loops),
        "drafts_executed": executed,
        "calls": calls,
        "calls_per_s": round(calls / elapsed, 2) if elapsed else 0.0,
        "drafts_executed_per_s": round(executed / elapsed, 2) if elapsed else 0.0,
        "by_kind": dict(Counter(loop.kind for loop in tally.loops if loop.executed)),
        "latency": tools,
        "errors": len(tally.errors),
        "first_errors": tally.errors[:5],
        "side_effect_problems": problems,
        "server_log_problems": server_problems[:5],
    }


def print_report(r: dict[str, Any]) -> None:
    print(
        f"users: {r['users']}   window: {r['window_s']:g} s (loops in flight finished at {r['seconds']} s)"
        f"   loops started: {r['loops_started']}"
    )
    print(
        f"throughput: {r['calls_per_s']} calls/s, {r['drafts_executed_per_s']} drafts executed/s "
        f"({r['drafts_executed']} drafts, {r['calls']} calls)"
    )
    print("executed by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(r["by_kind"].items())))
    print(f"{'tool':<15}{'calls':>7}{'p50 ms':>10}{'p95 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    for tool, t in r["latency"].items():
        print(
            f"{tool:<15}{t['calls']:>7}{t['p50_ms']:>10}{t['p95_ms']:>10}{t['p99_ms']:>10}{t['max_ms']:>10}"
        )
    print(f"errors: {r['errors']}")
    for e in r["first_errors"]:
        print(f"  - {e}")
    print(f"duplicate or missing side effects: {len(r['side_effect_problems'])}")
    for p in r["side_effect_problems"][:10]:
        print(f"  - {p}")
    print(f"'database is locked' or tracebacks in the server log: {len(r['server_log_problems'])}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--users", type=int, default=20)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--max-loops", type=int, default=1000, help="at most this many loops per user")
    p.add_argument("--url", help="an already running server (loopback only); default: start one")
    p.add_argument("--token", help="its bearer token (a delegating principal)")
    p.add_argument("--db", type=Path, help="its SQLite file, to verify the side effects (needed with --url)")
    p.add_argument("--json", action="store_true", help="print the report as JSON as well")
    a = p.parse_args(argv)
    if a.users < 1 or a.seconds <= 0 or a.max_loops < 1:
        p.error("--users, --seconds and --max-loops must be positive")
    run = letters(secrets.randbelow(26**4), 4)
    if a.url:
        if urlparse(a.url).hostname not in LOOPBACK:
            p.error("only a loopback URL (127.0.0.1, localhost, ::1) may be loaded")
        if not a.token or not a.db:
            p.error("--url needs --token and --db")
        tally, elapsed = asyncio.run(drive(a.url, a.token, a.users, a.seconds, a.max_loops, run))
        result = report(tally, elapsed, a.users, a.seconds, verify(a.db, tally, run), None)
    else:
        with local_server() as (url, token, db, log):
            tally, elapsed = asyncio.run(drive(url, token, a.users, a.seconds, a.max_loops, run))
            problems = verify(db, tally, run)
            result = report(tally, elapsed, a.users, a.seconds, problems, log.read_text(errors="replace"))
    print_report(result)
    if a.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
    bad = result["errors"] or result["side_effect_problems"] or result["server_log_problems"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
