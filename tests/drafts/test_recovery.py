"""Recovery finishes drafts whose executor died, from the states each crash point leaves behind.

The states are built by hand here (fast, exact); `test_crash_recovery.py` produces them for real
by killing a child process.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from store_backends import Database, database  # noqa: F401  (the fixture, SQLite and PostgreSQL)

from drafts import Draft, DraftStore, SqliteStore
from drafts.executor import payload_sha
from drafts.recovery import recover
from toolkits import attio, linear
from toolkits.base import ToolAction
from toolkits.reconcile import marker, with_marker
from toolkits.sandbox import SandboxBackend

pytestmark = pytest.mark.anyio

ENG = "a9337aaa-8922-515f-974b-df31c9cbb8d6"
ACME = "b0a22383-700d-505a-99c4-e69e9405c278"
LATER = timedelta(seconds=1)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def store(database: Database) -> AsyncIterator[DraftStore]:  # noqa: F811
    s = database.store()
    yield s
    await s.close()


@pytest.fixture
async def backend(database: Database) -> AsyncIterator[SandboxBackend]:  # noqa: F811
    b = database.sandbox()  # the workspace beside the drafts, as in production
    yield b
    await b.aclose()


def issue(title: str = "Kickoff") -> ToolAction:
    return linear.ops.create_issue(["deal-1", title], {"teamId": ENG, "title": title}, f"create {title}")


def note(title: str = "Signed") -> ToolAction:
    return attio.ops.create_note("companies", ACME, title, "Contract signed.", f"note {title}")


def comment_on_0(body: str = "First step") -> ToolAction:
    action = linear.ops.comment_issue("$ref:0.issueCreate.issue.id", body, f"comment {body}")
    return action.model_copy(update={"depends_on": 0})


async def executing(store: DraftStore, actions: list[ToolAction], user: str = "anna") -> Draft:
    draft = await store.create_draft(
        user_id=user,
        conversation_id=None,
        plan_id="p",
        summary="s",
        language="en",
        actions=actions,
        bulk_count=None,
        ttl_s=1800,
        now=datetime.now(UTC),
    )
    assert await store.transition(draft.id, user, {"pending"}, "confirmed")
    assert await store.transition(draft.id, user, {"confirmed"}, "executing")
    return draft


async def claim(store: DraftStore, draft: Draft, index: int) -> None:
    sent = with_marker(draft.actions[index])
    entry = await store.ledger_claim(
        sent.idempotency_scope, draft.id, index, payload_sha(sent.tool_slug, sent.args)
    )
    assert entry.claimed


async def count_issues(backend: SandboxBackend, title: str) -> int:
    raw = await backend.execute("LINEAR_LIST_ISSUES_BY_TEAM_ID", {"team_id": ENG, "first": 250})
    return sum(1 for i in raw["data"]["issues"] if i["title"] == title)


async def count_notes(backend: SandboxBackend, title: str) -> int:
    raw = await backend.execute(
        "ATTIO_LIST_NOTES", {"parent_object": "companies", "parent_record_id": ACME, "limit": 50}
    )
    return sum(1 for n in raw["data"]["data"] if n["title"] == title)


async def statuses(store: DraftStore, draft: Draft, user: str = "anna") -> tuple[str, list[str]]:
    found = await store.get_draft(draft.id, user)
    assert found is not None
    return found.status, [a.status for a in found.actions]


async def run_recover(store: DraftStore, backend: SandboxBackend, **kwargs: Any) -> Any:
    kwargs.setdefault("grace_s", 0.0)
    kwargs.setdefault("lease_s", 0.0)
    kwargs.setdefault("now", datetime.now(UTC) + LATER)
    return await recover(store, backend, **kwargs)


# -- the three crash points -----------------------------------------------------------------------


async def test_a_crash_after_the_remote_call_is_settled_by_reading_back_and_recover_is_idempotent(
    store: DraftStore, backend: SandboxBackend
) -> None:
    draft = await executing(store, [issue(), note(), comment_on_0()])
    await claim(store, draft, 0)
    await store.record_action(draft.id, 0, "running")
    sent = with_marker(draft.actions[0])
    assert (await backend.execute(sent.tool_slug, sent.args))["successful"]  # landed; then kill -9

    report = await run_recover(store, backend)

    assert await statuses(store, draft) == ("executed", ["succeeded"] * 3)
    assert [(d.draft_id, d.before, d.after) for d in report.drafts] == [
        (draft.id, ("running", "pending", "pending"), ("succeeded",) * 3)
    ]
    assert await count_issues(backend, "Kickoff") == 1
    assert [slug for slug, _ in backend.write_calls].count(sent.tool_slug) == 1
    calls = len(backend.calls)
    again = await run_recover(store, backend)
    assert not again.changed and len(backend.calls) == calls


async def test_a_crash_after_the_claim_sends_the_create_once(
    store: DraftStore, backend: SandboxBackend
) -> None:
    draft = await executing(store, [issue(), note()])
    await claim(store, draft, 1)  # claimed, not yet marked running, nothing sent

    await run_recover(store, backend)

    assert await statuses(store, draft) == ("executed", ["succeeded", "succeeded"])
    assert await count_notes(backend, "Signed") == 1
    assert await count_issues(backend, "Kickoff") == 1


async def test_a_crash_between_the_ledger_and_the_draft_record_calls_nothing(
    store: DraftStore, backend: SandboxBackend
) -> None:
    draft = await executing(store, [note()])
    await claim(store, draft, 0)
    await store.record_action(draft.id, 0, "running")
    await store.ledger_finish(draft.actions[0].idempotency_scope, "succeeded", {"data": {"id": "n1"}})

    await run_recover(store, backend)

    found = await store.get_draft(draft.id, "anna")
    assert found is not None and found.status == "executed"
    assert found.actions[0].result == {"data": {"id": "n1"}}
    assert backend.calls == []


async def test_a_dependent_action_uses_the_reconciled_result(
    store: DraftStore, backend: SandboxBackend
) -> None:
    draft = await executing(store, [issue(), comment_on_0()])
    await claim(store, draft, 0)
    await store.record_action(draft.id, 0, "running")
    sent = with_marker(draft.actions[0])
    created = await backend.execute(sent.tool_slug, sent.args)

    await run_recover(store, backend)

    found = await store.get_draft(draft.id, "anna")
    assert found is not None and found.status == "executed"
    issue_id = created["data"]["issueCreate"]["issue"]["id"]
    assert found.actions[1].result["issue"]["id"] == issue_id
    assert marker(found.actions[1].idempotency_scope) in found.actions[1].result["body"]


async def test_an_unsettleable_action_stays_unknown_and_the_draft_is_not_executed(
    store: DraftStore, backend: SandboxBackend
) -> None:
    project = linear.ops.create_project("Q9 launch", [ENG], "project")  # nothing can look it up
    draft = await executing(store, [project, note()])
    await claim(store, draft, 0)
    await store.record_action(draft.id, 0, "running")

    await run_recover(store, backend)

    found = await store.get_draft(draft.id, "anna")
    assert found is not None and found.status == "partially_executed"
    assert [a.status for a in found.actions] == ["unknown", "succeeded"]
    assert "may already exist in Linear; check there before retrying" in (found.actions[0].error or "")
    assert [s for s, _ in backend.write_calls] == ["ATTIO_CREATE_NOTE"]  # the project was never re-sent
    scope = found.actions[0].idempotency_scope  # bound to the draft
    ledger = await store.ledger_lookup([scope])
    assert ledger[scope].state == "unknown"


# -- leases --------------------------------------------------------------------------------------


async def test_a_draft_with_a_fresh_lease_is_left_to_its_executor(
    store: DraftStore, backend: SandboxBackend
) -> None:
    draft = await executing(store, [note()])

    report = await recover(store, backend, grace_s=2.0, lease_s=30.0)

    assert not report.changed and backend.calls == []
    assert await statuses(store, draft) == ("executing", ["pending"])
    assert await store.stuck_drafts(32.0, now=datetime.now(UTC) + timedelta(seconds=40)) == [
        (draft.id, "anna")
    ]


async def test_drafts_of_every_user_are_recovered(store: DraftStore, backend: SandboxBackend) -> None:
    first = await executing(store, [note("A")], user="anna")
    second = await executing(store, [note("B")], user="boris")

    report = await run_recover(store, backend)

    assert {(d.draft_id, d.owner, d.status) for d in report.drafts} == {
        (first.id, "anna", "executed"),
        (second.id, "boris", "executed"),
    }


async def test_two_recoverers_at_once_finish_a_draft_once(
    database: Database,  # noqa: F811
    backend: SandboxBackend,
) -> None:
    stores = [database.store() for _ in range(2)]
    backends = [database.sandbox() for _ in range(2)]
    try:
        draft = await executing(stores[0], [issue(), note()])
        later = datetime.now(UTC) + timedelta(seconds=10)
        reports = await asyncio.gather(
            *(run_recover(s, b, lease_s=5.0, now=later) for s, b in zip(stores, backends, strict=True))
        )
        assert sorted(len(r.drafts) for r in reports) == [0, 1]
        assert await statuses(stores[0], draft) == ("executed", ["succeeded", "succeeded"])
        assert await count_issues(backend, "Kickoff") == 1
        assert await count_notes(backend, "Signed") == 1
    finally:
        for s in stores:
            await s.close()
        for b in backends:
            await b.aclose()


# -- claims whose draft finished without settling them --------------------------------------------


async def test_a_started_claim_of_a_finished_draft_is_settled_by_looking_only(
    store: DraftStore, backend: SandboxBackend
) -> None:
    draft = await executing(store, [note("Landed"), note("Lost")])
    for index in (0, 1):
        await claim(store, draft, index)
        await store.record_action(draft.id, index, "failed", error="internal error")
    sent = with_marker(draft.actions[0])
    assert (await backend.execute(sent.tool_slug, sent.args))["successful"]
    assert await store.transition(draft.id, "anna", {"executing"}, "failed")

    report = await run_recover(store, backend)

    assert {(c.scope, c.state) for c in report.claims} == {
        (draft.actions[0].idempotency_scope, "succeeded"),
        (draft.actions[1].idempotency_scope, "failed"),  # not applied: a later draft may run it
    }
    assert await statuses(store, draft) == ("failed", ["succeeded", "failed"])
    assert [s for s, _ in backend.write_calls] == ["ATTIO_CREATE_NOTE"]  # nothing re-sent
    assert not (await run_recover(store, backend)).changed


# -- the lease columns ---------------------------------------------------------------------------


async def test_a_store_written_before_the_lease_migration_gets_heartbeats_from_its_last_update(
    tmp_path: Path,
) -> None:
    """SQLite's file; the PostgreSQL twin is in test_pg_store.py."""
    path = tmp_path / "old.db"
    old = SqliteStore(path)
    draft = await executing(old, [note()])
    await old.close()
    conn = sqlite3.connect(path)
    try:  # roll the file back to what m001 alone produced
        conn.execute("DROP INDEX drafts_by_heartbeat")
        conn.execute("DROP INDEX ledger_by_state")
        conn.execute("ALTER TABLE drafts DROP COLUMN executing_since")
        conn.execute("ALTER TABLE drafts DROP COLUMN heartbeat_ts")
        conn.execute("DELETE FROM schema_migrations WHERE name = 'drafts.m002_execution_lease'")
        conn.commit()
    finally:
        conn.close()

    upgraded = SqliteStore(path)
    try:
        now = datetime.now(UTC)
        assert await upgraded.stuck_drafts(60.0, now=now) == []
        assert await upgraded.stuck_drafts(60.0, now=now + timedelta(seconds=61)) == [(draft.id, "anna")]
    finally:
        await upgraded.close()
