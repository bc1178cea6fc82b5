"""What an operator asks of the store, on SQLite and PostgreSQL alike: readiness, drafts by state,
the audit log for export, and retention (audit records, plans and final drafts; never the ledger)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from store_backends import Database, database  # noqa: F401  (the fixture, SQLite and PostgreSQL)
from test_store import Clock, make_action, new_draft

from drafts import DraftStore

pytestmark = pytest.mark.anyio

OLD = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
NEW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def clock() -> Clock:
    return Clock(OLD)


@pytest.fixture
async def store(database: Database, clock: Clock) -> AsyncIterator[DraftStore]:  # noqa: F811
    s = database.store(clock=clock)
    yield s
    await s.close()


async def audit(store: DraftStore, user: str, text: str, at: datetime) -> None:
    await store.audit(
        user_id=user,
        conversation_id="c1",
        input_message=text,
        intent="MUTATE",
        decision="EXECUTE",
        tool_calls=[{"tool_slug": "LINEAR_UPDATE_ISSUE"}],
        response_preview="done",
        now=at,
    )


async def exported(store: DraftStore, **filters: Any) -> list[dict[str, Any]]:
    return [r async for r in store.export_audit(**filters)]


async def test_a_migrated_store_is_ready(store: DraftStore) -> None:
    assert await store.ready() is True


async def test_drafts_are_counted_by_state(store: DraftStore) -> None:
    first, second, _ = [await new_draft(store) for _ in range(3)]
    await store.transition(first.id, "alice", {"pending"}, "cancelled")
    await store.transition(second.id, "alice", {"pending"}, "confirmed")

    assert await store.draft_counts() == {"pending": 1, "confirmed": 1, "cancelled": 1}


async def test_the_audit_export_reads_every_record_oldest_first_filtered_by_time_and_user(
    store: DraftStore,
) -> None:
    for i in range(1203):  # more than two of the export's batches
        await audit(store, "anna" if i % 3 else "boris", f"request {i}", OLD + timedelta(minutes=i))

    everything = await exported(store)
    assert len(everything) == 1203
    assert [r["input_message"] for r in everything[:2]] == ["request 0", "request 1"]
    assert everything[0]["tool_calls"] == [{"tool_slug": "LINEAR_UPDATE_ISSUE"}]
    assert datetime.fromisoformat(everything[-1]["timestamp"]) == OLD + timedelta(minutes=1202)
    ids = [r["id"] for r in everything]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)

    borises = await exported(store, user_id="boris")
    assert len(borises) == 401 and {r["user_id"] for r in borises} == {"boris"}

    # --since includes the moment itself; the same instant in another zone selects the same records
    late = await exported(store, since=OLD + timedelta(minutes=1200))
    assert [r["input_message"] for r in late] == ["request 1200", "request 1201", "request 1202"]
    in_moscow = (OLD + timedelta(minutes=1202)).astimezone(ZoneInfo("Europe/Moscow"))
    assert [r["input_message"] for r in await exported(store, since=in_moscow)] == ["request 1202"]


async def test_retention_deletes_old_audit_records_plans_and_final_drafts_and_keeps_the_rest(
    store: DraftStore, clock: Clock
) -> None:
    # last changed at OLD: a finished draft, an open one, a plan; and the ledger entry of a scope done then
    finished = await new_draft(store, now=OLD, actions=[make_action("linear:create_issue:d1:kickoff")])
    await store.transition(finished.id, "alice", {"pending"}, "cancelled")
    still_open = await new_draft(store, now=OLD, ttl_s=10**9)
    await store.save_plan("plan-old", "alice", "c1", {"text": "old"}, ttl_s=10**9)
    claim = await store.ledger_claim("linear:create_issue:d1:kickoff", finished.id, 0, "sha")
    await store.ledger_finish(claim.scope, "succeeded", {"id": "iss"})
    await audit(store, "alice", "old request", OLD)
    # ... and the same kinds, later
    clock.now = NEW
    recent = await new_draft(store, now=NEW)
    await store.transition(recent.id, "alice", {"pending"}, "cancelled")
    await store.save_plan("plan-new", "alice", "c1", {"text": "new"}, ttl_s=10**9)
    await audit(store, "alice", "new request", NEW)

    deleted = await store.purge(NEW - timedelta(days=30))

    assert deleted == {"audit_log": 1, "plans": 1, "drafts": 1}
    assert [r["input_message"] for r in await exported(store)] == ["new request"]
    assert await store.get_draft(finished.id, "alice") is None
    assert await store.draft_events(finished.id, "alice") == []
    assert await store.get_draft(still_open.id, "alice") is not None  # not final: never deleted by age
    assert await store.get_draft(recent.id, "alice") is not None
    assert await store.load_plan("plan-old", "alice") is None
    assert await store.load_plan("plan-new", "alice") == {"text": "new"}
    # a scope done once stays done, however old
    ledger = await store.ledger_lookup(["linear:create_issue:d1:kickoff"])
    assert ledger["linear:create_issue:d1:kickoff"].state == "succeeded"
    assert await store.purge(NEW - timedelta(days=30)) == {"audit_log": 0, "plans": 0, "drafts": 0}
