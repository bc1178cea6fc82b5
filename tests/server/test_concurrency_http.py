"""Many client processes against one `planner-mcp serve --http`: exactly once, no lost updates, no locks.

Each test releases its client processes (`http_worker.py`, each with its own connections) at once
through a stdin barrier, then judges the outcome by reading the server's SQLite file directly (the
drafts, their transition log, the audit log and the sandbox workspace), not by trusting the replies.
The workloads mix Linear issues, Attio notes and calendar blocks, so several toolkits' writes interleave.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from conftest import REF_NOW, Conversation
from servers import LONG_WAIT_S, HttpServer, SandboxFile, WorkerPool, http_client, http_server, reply_from

from drafts.models import TRANSITIONS
from server.service import Service

pytestmark = [pytest.mark.slow, pytest.mark.anyio]

Reply = dict[str, Any]
LOCKED = "database is locked"


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    with http_server(tmp_path_factory.mktemp("concurrency")) as s:
        yield s


@pytest.fixture
def db(server: HttpServer) -> Iterator[SandboxFile]:
    assert server.db is not None
    with SandboxFile(server.db) as f:
        yield f
    log = server.log_text()
    assert LOCKED not in log and "Traceback" not in log, log[-3000:]


def owner(user: str) -> str:
    """The draft owner for a user id that the delegating principal "http" passes."""
    return f"http:{user}"


async def plan_drafts(server: HttpServer, user: str, texts: list[str]) -> list[str]:
    ids = []
    with anyio.fail_after(LONG_WAIT_S):
        async with http_client(server.url, server.token) as client:
            for text in texts:
                args = {"text": text, "user_id": user, "now": REF_NOW}
                reply = reply_from(await client.call_tool("plan", args))
                assert reply["status"] == "draft_pending", reply
                ids.append(str(reply["draft"]["id"]))
    return ids


def assert_clean(replies: list[Reply]) -> None:
    """No call raised, no tool error, nothing about locks."""
    assert LOCKED not in json.dumps(replies, ensure_ascii=False)
    broken = [r for r in replies if r.get("status") in ("exception", "tool_error")]
    assert broken == [], broken[:3]


def assert_legal_history(events: list[tuple[str, str]]) -> None:
    """The transition log of one draft: contiguous from "pending", every step an edge of the graph."""
    state = "pending"
    for src, dst in events:
        assert src == state, f"the log skips a step: {events}"
        assert dst in TRANSITIONS[src], f"illegal transition {src} -> {dst}: {events}"
        state = dst


def calls(tool: str, drafts: list[str], user: str) -> list[dict[str, Any]]:
    return [{"tool": tool, "args": {"draft_id": d, "user_id": user}} for d in drafts]


async def test_thirty_executes_from_six_processes_run_one_draft_exactly_once(
    server: HttpServer, db: SandboxFile
) -> None:
    marker = "once" + uuid.uuid4().hex[:10]
    [draft] = await plan_drafts(server, "racer", [f"Создай задачу в Linear: {marker}"])
    async with http_client(server.url, server.token) as client:
        confirmed = await client.call_tool("confirm_draft", {"draft_id": draft, "user_id": "racer"})
        assert reply_from(confirmed)["status"] == "confirmed"
    jobs = [{"connections": 2, "calls": calls("execute_draft", [draft] * 5, "racer")} for _ in range(6)]
    replies = [r for report in WorkerPool(server.url, server.token, jobs).run() for r in report["replies"]]
    assert len(replies) == 30
    assert_clean(replies)
    assert {r["status"] for r in replies} <= {"executed", "executing"}, [r["status"] for r in replies]
    assert db.created(marker) == [("issue", marker)]
    assert db.events(draft) == [
        ("pending", "confirmed"),
        ("confirmed", "executing"),
        ("executing", "executed"),
    ]


async def test_a_draft_executed_once_under_thirty_concurrent_calls_has_one_execute_audit_record(
    anna: Conversation, service: Service
) -> None:
    """In memory (the race is the same in one process): the audit log must not claim 30 executions."""
    r = await anna.say("Поставь блок аудит завтра в 09:00 на 30 минут")
    draft = r["draft"]["id"]
    await anna.call("confirm_draft", draft_id=draft)
    replies = await asyncio.gather(*(anna.call("execute_draft", draft_id=draft) for _ in range(30)))
    assert {x["status"] for x in replies} == {"executed"}
    assert len(service.backend.write_calls) == 1  # type: ignore[attr-defined]
    audit = (await anna.call("read_audit_log", limit=500))["results"]
    executes = [a for a in audit if a["decision_type"] == "EXECUTE"]
    assert len(executes) == 1, f"{len(executes)} EXECUTE audit records for one execution"


async def test_confirm_cancel_and_execute_racing_on_many_drafts_end_each_in_one_legal_state(
    server: HttpServer, db: SandboxFile
) -> None:
    marker = "race" + uuid.uuid4().hex[:8]
    texts = [f"Создай задачу в Linear: {marker} n{i}" for i in range(16)]
    drafts = await plan_drafts(server, "duel", texts)
    tools = ("confirm_draft", "cancel_draft", "confirm_draft", "execute_draft")
    jobs = [{"connections": 2, "calls": calls(tool, drafts, "duel")} for tool in tools]
    confirms, cancels, confirms2, executes = (
        report["replies"] for report in WorkerPool(server.url, server.token, jobs).run()
    )
    assert_clean(confirms + cancels + confirms2 + executes)
    outcomes = Counter()
    for i, draft in enumerate(drafts):
        found = db.draft(draft)
        assert found is not None and found[0] == owner("duel")
        final, history = found[1], db.events(draft)
        outcomes[final] += 1
        assert_legal_history(history)
        assert final == (history[-1][1] if history else "pending")
        assert final in ("cancelled", "confirmed", "executed"), (final, history)
        assert sum(1 for _, dst in history if dst == "confirmed") <= 1, history
        created = [title for _, title in db.created(marker) if title == f"{marker} n{i}"]  # n1 is not n10
        assert len(created) == (1 if final == "executed" else 0), (final, created, history)
        seen = [confirms[i]["status"], confirms2[i]["status"], cancels[i]["status"], executes[i]["status"]]
        if "executed" in seen:
            assert final == "executed", (seen, history)
        if cancels[i]["status"] == "cancelled":
            assert final == "cancelled", (seen, history)
        if "confirmed" in (confirms[i]["status"], confirms2[i]["status"]):
            assert ("pending", "confirmed") in history, (seen, history)
    assert sum(outcomes.values()) == len(drafts), outcomes


def crowd_requests(marker: str, user: str) -> list[tuple[str, str]]:
    """Five changes of one person: (request, the title it creates), across three toolkits."""
    return [
        (f"Создай задачу в Linear: {marker} {user} issue", f"{marker} {user} issue"),
        (f"Create a Linear issue: {marker} {user} bug", f"{marker} {user} bug"),
        (f"Add a note to John Smith: {marker} {user} call", f"{marker} {user} call"),
        (f"Добавь заметку к компании Initech: {marker} {user} memo", f"{marker} {user} memo"),
        (f"Поставь блок {marker} {user} focus завтра в 14:00 на 60 минут", f"Блок: {marker} {user} focus"),
    ]


async def test_ten_people_planning_and_running_five_changes_each_at_once_lose_nothing(
    server: HttpServer, db: SandboxFile
) -> None:
    marker = "crowd" + uuid.uuid4().hex[:8]
    users = [f"p{n}" for n in range(10)]
    wanted = {u: crowd_requests(marker, u) for u in users}
    jobs = [
        {"connections": 2, "flows": [{"user": u, "text": text} for u in pair for text, _ in wanted[u]]}
        for pair in (users[i : i + 2] for i in range(0, len(users), 2))
    ]
    flows = [
        f for report in WorkerPool(server.url, server.token, jobs).run(phases=3) for f in report["replies"]
    ]
    assert len(flows) == 50
    assert_clean([f[k] for f in flows for k in ("plan", "confirm", "execute") if k in f])
    statuses = Counter(
        (f["plan"]["status"], f.get("confirm", {}).get("status"), f.get("execute", {}).get("status"))
        for f in flows
    )
    assert statuses == {("draft_pending", "confirmed", "executed"): 50}, statuses
    created = Counter(title for _, title in db.created(marker))
    assert created == Counter(title for u in users for _, title in wanted[u]), "lost or duplicated changes"
    audit = db.audit()
    for u in users:
        mine = db.drafts_of(owner(u))
        assert sorted(mine) == sorted(f["plan"]["draft"]["id"] for f in flows if f["user"] == u)
        assert set(mine.values()) == {"executed"}
        for d in mine:
            assert_legal_history(db.events(d))
        decisions = Counter(a["decision_type"] for a in audit if a["user_id"] == owner(u))
        assert decisions == {"REQUEST_CONFIRMATION": 5, "CONFIRMED": 5, "EXECUTE": 5}, decisions
    with anyio.fail_after(LONG_WAIT_S):
        async with http_client(server.url, server.token) as client:
            for u in users:
                args = {"user_id": u, "include_finished": True}
                listed = reply_from(await client.call_tool("list_drafts", args))
                assert sorted(r["id"] for r in listed["results"]) == sorted(db.drafts_of(owner(u)))
