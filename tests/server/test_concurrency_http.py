"""Many client processes against one `planner-mcp serve --http`: exactly once, no lost updates, no locks.

Each test releases its client processes (`http_worker.py`, each with its own connections) at once
through a stdin barrier, then judges the outcome by reading the server's SQLite file directly (the
drafts, their transition log, the audit log and the sandbox workspace), not by trusting the replies.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from conftest import REF_NOW
from servers import LONG_WAIT_S, HttpServer, SandboxFile, WorkerPool, http_client, http_server, reply_from

from drafts.models import TRANSITIONS

pytestmark = [pytest.mark.slow, pytest.mark.anyio, pytest.mark.timeout(120)]

Reply = dict[str, Any]
LOCKED = "database is locked"


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    with http_server(tmp_path_factory.mktemp("concurrency")) as s:
        yield s
    log = s.log_text()
    assert LOCKED not in log, log[-3000:]
    assert "Traceback" not in log, log[-3000:]


def owner(user: str) -> str:
    """The draft owner for a user id the delegating principal "http" passes."""
    return f"http:{user}"


async def plan_drafts(server: HttpServer, user: str, texts: list[str]) -> list[str]:
    ids = []
    async with http_client(server.url, server.token) as client:
        for text in texts:
            reply = reply_from(
                await client.call_tool("plan", {"text": text, "user_id": user, "now": REF_NOW})
            )
            assert reply["status"] == "draft_pending", reply
            ids.append(str(reply["draft"]["id"]))
    return ids


def assert_clean(replies: list[Reply]) -> None:
    """No call raised, no tool error, nothing about locks."""
    blob = json.dumps(replies, ensure_ascii=False)
    assert LOCKED not in blob
    broken = [r for r in replies if r.get("status") in ("exception", "tool_error")]
    assert broken == [], broken[:3]


def assert_legal_history(events: list[tuple[str, str]]) -> None:
    """The transition log of one draft: contiguous from "pending", every step an edge of the graph."""
    state = "pending"
    for src, dst in events:
        assert src == state, f"the log skips a step: {events}"
        assert dst in TRANSITIONS[src], f"illegal transition {src} -> {dst}: {events}"
        state = dst


async def test_thirty_executes_from_six_processes_run_one_draft_exactly_once(server: HttpServer) -> None:
    marker = "once" + uuid.uuid4().hex[:10]
    with anyio.fail_after(LONG_WAIT_S):
        [draft] = await plan_drafts(server, "racer", [f"Создай задачу в Linear: {marker}"])
        async with http_client(server.url, server.token) as client:
            confirmed = await client.call_tool("confirm_draft", {"draft_id": draft, "user_id": "racer"})
            assert reply_from(confirmed)["status"] == "confirmed"
    execute = {"tool": "execute_draft", "args": {"draft_id": draft, "user_id": "racer"}}
    jobs = [{"connections": 5, "calls": [execute] * 5} for _ in range(6)]
    replies = [r for report in WorkerPool(server.url, server.token, jobs).run() for r in report["replies"]]
    assert len(replies) == 30
    assert_clean(replies)
    assert {r["status"] for r in replies} <= {"executed", "executing"}, [r["status"] for r in replies]
    assert any(r["status"] == "executed" for r in replies)
    assert server.db is not None
    with SandboxFile(server.db) as db:
        assert len(db.issue_titles(marker)) == 1, db.issue_titles(marker)
        assert db.events(draft) == [
            ("pending", "confirmed"),
            ("confirmed", "executing"),
            ("executing", "executed"),
        ]
        executed = [a for a in db.audit() if a["decision_type"] == "EXECUTE" and draft in a["input_message"]]
        assert len(executed) == 1, executed


async def test_confirm_cancel_and_execute_racing_on_many_drafts_end_each_in_one_legal_state(
    server: HttpServer,
) -> None:
    marker = "race" + uuid.uuid4().hex[:8]
    texts = [f"Создай задачу в Linear: {marker} n{i}" for i in range(16)]
    with anyio.fail_after(LONG_WAIT_S):
        drafts = await plan_drafts(server, "duel", texts)

    def every(tool: str) -> dict[str, Any]:
        return {
            "connections": 4,
            "calls": [{"tool": tool, "args": {"draft_id": d, "user_id": "duel"}} for d in drafts],
        }

    jobs = [every("confirm_draft"), every("cancel_draft"), every("confirm_draft"), every("execute_draft")]
    confirms, cancels, confirms2, executes = (
        r["replies"] for r in WorkerPool(server.url, server.token, jobs).run()
    )
    assert_clean(confirms + cancels + confirms2 + executes)
    assert server.db is not None
    with SandboxFile(server.db) as db:
        for i, draft in enumerate(drafts):
            found = db.draft(draft)
            assert found is not None and found[0] == owner("duel")
            final = found[1]
            history = db.events(draft)
            assert_legal_history(history)
            assert final == (history[-1][1] if history else "pending")
            assert final in ("cancelled", "confirmed", "executed"), (final, history)
            created = db.issue_titles(f"{marker} n{i}")
            assert len(created) == (1 if final == "executed" else 0), (final, created, history)
            seen = [
                confirms[i]["status"],
                confirms2[i]["status"],
                cancels[i]["status"],
                executes[i]["status"],
            ]
            if "executed" in seen:
                assert final == "executed", (seen, history)
            if cancels[i]["status"] == "cancelled":
                assert final == "cancelled", (seen, history)
            if "confirmed" in (confirms[i]["status"], confirms2[i]["status"]):
                assert ("pending", "confirmed") in history, (seen, history)
            assert sum(1 for _, dst in history if dst == "confirmed") <= 1, history


async def test_ten_people_planning_and_running_five_changes_each_at_once_lose_nothing(
    server: HttpServer,
) -> None:
    marker = "crowd" + uuid.uuid4().hex[:8]
    users = [f"p{n}-{marker}" for n in range(10)]
    titles = {u: [f"{marker} {u} t{k}" for k in range(5)] for u in users}
    jobs = [
        {
            "connections": 5,
            "flows": [
                {"user": u, "text": f"Создай задачу в Linear: {title}"} for u in pair for title in titles[u]
            ],
        }
        for pair in (users[i : i + 2] for i in range(0, len(users), 2))
    ]
    flows = [f for report in WorkerPool(server.url, server.token, jobs).run() for f in report["replies"]]
    assert len(flows) == 50
    steps = [f[k] for f in flows for k in ("plan", "confirm", "execute") if k in f]
    assert_clean(steps)
    for f in flows:
        assert (f["plan"]["status"], f["confirm"]["status"], f["execute"]["status"]) == (
            "draft_pending",
            "confirmed",
            "executed",
        ), f
    assert server.db is not None
    with SandboxFile(server.db) as db:
        created = db.issue_titles(marker)
        assert sorted(created) == sorted(t for ts in titles.values() for t in ts)  # each once, none lost
        audit = db.audit()
        for u in users:
            mine = db.drafts_of(owner(u))
            assert sorted(mine) == sorted(f["plan"]["draft"]["id"] for f in flows if f["user"] == u)
            assert set(mine.values()) == {"executed"}
            decisions = sorted(a["decision_type"] for a in audit if a["user_id"] == owner(u))
            assert decisions == sorted(["REQUEST_CONFIRMATION", "CONFIRMED", "EXECUTE"] * 5), decisions
    with anyio.fail_after(LONG_WAIT_S):
        async with http_client(server.url, server.token) as client:
            for u in users:
                listed = reply_from(
                    await client.call_tool("list_drafts", {"user_id": u, "include_finished": True})
                )
                assert sorted(r["id"] for r in listed["results"]) == sorted(db_ids(server.db, u))


def db_ids(db: Path, user: str) -> list[str]:
    with SandboxFile(db) as f:
        return list(f.drafts_of(owner(user)))
