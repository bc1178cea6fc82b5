from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_backends import Database, database  # noqa: F401  (the fixture, SQLite and PostgreSQL)

from drafts import TRANSITIONS, Draft, DraftStore, SqliteStore, is_allowed_transition
from toolkits.base import ToolAction

pytestmark = pytest.mark.anyio

T0 = datetime(2026, 2, 26, 7, 0, tzinfo=UTC)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Clock:
    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(database: Database, clock: Clock) -> AsyncIterator[DraftStore]:  # noqa: F811
    s = database.store(clock=clock, callback_stale_s=60)
    yield s
    await s.close()


def make_action(scope: str = "linear:create_issue:d1:onboarding", **overrides: Any) -> ToolAction:
    fields: dict[str, Any] = {
        "toolkit": "linear",
        "tool_slug": "LINEAR_RUN_QUERY_OR_MUTATION",
        "operation": "create_issue",
        "args": {"query": "mutation", "variables": {"title": "Onboarding"}},
        "read_only": False,
        "idempotency_scope": scope,
        "preview": "Create issue Onboarding",
    }
    fields.update(overrides)
    return ToolAction(**fields)


async def new_draft(
    store: DraftStore,
    *,
    user: str = "alice",
    conversation: str | None = "c1",
    now: datetime = T0,
    ttl_s: float = 1800,
    actions: list[ToolAction] | None = None,
) -> Draft:
    return await store.create_draft(
        user_id=user,
        conversation_id=conversation,
        plan_id="plan-1",
        summary="Create onboarding issue",
        language="ru",
        actions=actions if actions is not None else [make_action()],
        bulk_count=None,
        ttl_s=ttl_s,
        now=now,
    )


# -- drafts and transitions ----------------------------------------------------------------------


async def test_a_created_draft_reads_back_pending_with_its_actions(store: DraftStore) -> None:
    actions = [make_action("s:0"), make_action("s:1", depends_on=0, args={"issueId": "$ref:0.id"})]
    draft = await new_draft(store, actions=actions)

    loaded = await store.get_draft(draft.id, "alice")

    assert loaded == draft
    assert loaded.status == "pending"
    assert len(draft.id) >= 16
    assert [(a.index, a.status, a.depends_on) for a in loaded.actions] == [
        (0, "pending", None),
        (1, "pending", 0),
    ]
    assert datetime.fromisoformat(loaded.expires_at) - datetime.fromisoformat(loaded.created_at) == timedelta(
        minutes=30
    )


async def test_concurrent_transitions_have_exactly_one_winner(store: DraftStore) -> None:
    draft = await new_draft(store)
    assert await store.transition(draft.id, "alice", {"pending"}, "confirmed")

    wins = await asyncio.gather(
        *(store.transition(draft.id, "alice", {"confirmed"}, "executing") for _ in range(25))
    )

    assert wins.count(True) == 1
    events = await store.draft_events(draft.id, "alice")
    assert [(e["from"], e["to"]) for e in events] == [("pending", "confirmed"), ("confirmed", "executing")]


async def test_a_transition_from_another_state_loses_and_changes_nothing(store: DraftStore) -> None:
    draft = await new_draft(store)

    assert not await store.transition(draft.id, "alice", {"confirmed"}, "executing")

    assert (await store.get_draft(draft.id, "alice")).status == "pending"  # type: ignore[union-attr]
    assert await store.draft_events(draft.id, "alice") == []


@pytest.mark.parametrize(
    ("from_states", "to_state"),
    [
        ({"pending"}, "executed"),
        ({"executed"}, "confirmed"),
        ({"confirmed", "cancelled"}, "expired"),
        (set(), "x"),
    ],
)
async def test_an_illegal_transition_raises_and_changes_nothing(
    store: DraftStore, from_states: set[str], to_state: str
) -> None:
    draft = await new_draft(store)

    with pytest.raises(ValueError):
        await store.transition(draft.id, "alice", from_states, to_state)

    assert (await store.get_draft(draft.id, "alice")).status == "pending"  # type: ignore[union-attr]
    assert await store.draft_events(draft.id, "alice") == []


async def test_another_users_draft_behaves_as_missing(store: DraftStore) -> None:
    draft = await new_draft(store)

    assert await store.get_draft(draft.id, "mallory") is None
    assert await store.get_draft("no-such-draft", "mallory") is None
    assert not await store.transition(draft.id, "mallory", {"pending"}, "confirmed")
    assert not await store.transition(draft.id, "mallory", {"pending"}, "cancelled")
    assert await store.list_drafts("mallory", open_only=False) == []
    assert await store.pending_in_conversation("mallory", "c1") is None
    assert await store.draft_events(draft.id, "mallory") == []

    assert await store.get_draft(draft.id, "alice") == draft
    assert await store.draft_events(draft.id, "alice") == []


async def test_an_open_draft_past_its_ttl_is_expired_on_read(store: DraftStore) -> None:
    draft = await new_draft(store, now=T0 - timedelta(hours=1))

    loaded = await store.get_draft(draft.id, "alice")

    assert loaded is not None and loaded.status == "expired"
    assert [(e["from"], e["to"]) for e in await store.draft_events(draft.id, "alice")] == [
        ("pending", "expired")
    ]
    assert not await store.transition(draft.id, "alice", {"pending"}, "confirmed")


async def test_a_confirmed_draft_expires_too_and_cannot_start_executing(
    store: DraftStore, clock: Clock
) -> None:
    draft = await new_draft(store, ttl_s=60)
    assert await store.transition(draft.id, "alice", {"pending"}, "confirmed")
    clock.advance(61)

    # Moving forward past the TTL loses and records the expiry instead.
    assert not await store.transition(draft.id, "alice", {"confirmed"}, "executing")

    assert (await store.get_draft(draft.id, "alice")).status == "expired"  # type: ignore[union-attr]


async def test_a_draft_past_its_ttl_can_still_be_cancelled(store: DraftStore, clock: Clock) -> None:
    draft = await new_draft(store, ttl_s=60)
    clock.advance(61)

    assert await store.transition(draft.id, "alice", {"pending"}, "cancelled")


async def test_listing_applies_expiry_and_newest_pending_wins(store: DraftStore) -> None:
    old = await new_draft(store, now=T0 - timedelta(hours=2))
    first = await new_draft(store)
    second = await new_draft(store)
    other_conversation = await new_draft(store, conversation="c2")
    assert await store.transition(second.id, "alice", {"pending"}, "awaiting_bulk_confirmation")

    open_ids = [d.id for d in await store.list_drafts("alice")]
    all_drafts = {d.id: d.status for d in await store.list_drafts("alice", open_only=False)}

    assert open_ids == [other_conversation.id, second.id, first.id]
    assert all_drafts[old.id] == "expired"
    assert (await store.pending_in_conversation("alice", "c1")).id == second.id  # type: ignore[union-attr]
    assert await store.transition(second.id, "alice", {"awaiting_bulk_confirmation"}, "cancelled")
    assert (await store.pending_in_conversation("alice", "c1")).id == first.id  # type: ignore[union-attr]


async def test_record_action_stores_an_outcome_and_refuses_unknown_statuses(store: DraftStore) -> None:
    draft = await new_draft(store)

    assert await store.record_action(draft.id, 0, "succeeded", {"id": "ENG-1"}, None, "https://linear.app/x")
    assert not await store.record_action(draft.id, 7, "succeeded")
    with pytest.raises(ValueError):
        await store.record_action(draft.id, 0, "done")

    action = (await store.get_draft(draft.id, "alice")).actions[0]  # type: ignore[union-attr]
    assert (action.status, action.result, action.link) == (
        "succeeded",
        {"id": "ENG-1"},
        "https://linear.app/x",
    )


# One database for all examples (a fresh draft each): hence the health check suppressed.
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(
            st.sets(st.sampled_from(sorted(TRANSITIONS)), min_size=1, max_size=3),
            st.sampled_from(sorted(TRANSITIONS)),
        ),
        max_size=12,
    )
)
def test_the_transition_log_only_ever_holds_edges_of_the_state_graph(
    database: Database,  # noqa: F811
    attempts: list[tuple[set[str], str]],
) -> None:
    async def scenario() -> None:
        store = database.store(clock=Clock())
        try:
            draft = await new_draft(store)
            for from_states, to_state in attempts:
                legal = all(is_allowed_transition(s, to_state) for s in from_states)
                try:
                    await store.transition(draft.id, "alice", from_states, to_state)
                except ValueError:
                    assert not legal
            events = await store.draft_events(draft.id, "alice")
            assert all(is_allowed_transition(e["from"], e["to"]) for e in events)
            assert all(a["to"] == b["from"] for a, b in zip(events, events[1:], strict=False))
        finally:
            await store.close()

    asyncio.run(scenario())


# -- plans ---------------------------------------------------------------------------------------


async def test_plans_are_owned_and_expire(store: DraftStore, clock: Clock) -> None:
    await store.save_plan(
        "p1", "alice", "c1", {"question": "q1", "now": "2026-02-26T10:00:00+03:00"}, ttl_s=600
    )

    assert await store.load_plan("p1", "alice") == {"question": "q1", "now": "2026-02-26T10:00:00+03:00"}
    assert await store.load_plan("p1", "mallory") is None
    assert not await store.update_plan("p1", "mallory", {"question": "evil"})
    with pytest.raises(ValueError):
        await store.save_plan("p1", "mallory", "c9", {"question": "evil"}, ttl_s=600)

    assert await store.update_plan("p1", "alice", {"question": "q2"})
    assert await store.load_plan("p1", "alice") == {"question": "q2"}

    clock.advance(601)
    assert await store.load_plan("p1", "alice") is None
    assert not await store.update_plan("p1", "alice", {"question": "q3"})
    assert await store.prune() == 1


# -- callbacks -----------------------------------------------------------------------------------


async def test_a_callback_reply_is_stored_once_and_replayed(store: DraftStore) -> None:
    assert await store.callback_begin("alice", "tg:callback:1", "confirm_draft") == (True, None)
    assert await store.callback_begin("alice", "tg:callback:1", "confirm_draft") == (False, None)
    assert await store.callback_get("alice", "tg:callback:1") is None

    assert await store.callback_finish("alice", "tg:callback:1", {"ok": True, "status": "confirmed"})
    assert not await store.callback_finish("alice", "tg:callback:1", {"ok": False})

    assert await store.callback_begin("alice", "tg:callback:1", "confirm_draft") == (
        False,
        {"ok": True, "status": "confirmed"},
    )
    assert await store.callback_wait("alice", "tg:callback:1") == {"ok": True, "status": "confirmed"}
    # Keyed by user as well: the same id from someone else is a different callback.
    assert await store.callback_begin("mallory", "tg:callback:1", "confirm_draft") == (True, None)


async def test_concurrent_deliveries_of_one_callback_have_one_owner(store: DraftStore) -> None:
    results = await asyncio.gather(
        *(store.callback_begin("alice", "tg:callback:2", "execute_draft") for _ in range(20))
    )

    assert [owner for owner, _ in results].count(True) == 1


async def test_a_stale_or_abandoned_callback_claim_can_be_taken_over(store: DraftStore, clock: Clock) -> None:
    assert (await store.callback_begin("alice", "cb", "plan"))[0]
    clock.advance(61)
    assert (await store.callback_begin("alice", "cb", "plan"))[0]

    await store.callback_abandon("alice", "cb")
    assert (await store.callback_begin("alice", "cb", "plan"))[0]


# -- ledger --------------------------------------------------------------------------------------


async def test_ledger_claim_is_exclusive_and_a_success_is_reused(store: DraftStore) -> None:
    first = await store.ledger_claim("attio:update_deal:r1:stage=won", "d1", 0, "sha-a")
    again = await store.ledger_claim("attio:update_deal:r1:stage=won", "d2", 0, "sha-a")

    assert first.claimed and first.state == "started"
    assert not again.claimed and again.state == "started" and again.draft_id == "d1"

    assert await store.ledger_finish(
        "attio:update_deal:r1:stage=won", "succeeded", {"id": "r1"}, draft_id="d1"
    )
    done = await store.ledger_claim("attio:update_deal:r1:stage=won", "d3", 0, "sha-a")
    assert (done.claimed, done.state, done.result, done.draft_id) == (False, "succeeded", {"id": "r1"}, "d1")
    # A finished scope is never overwritten.
    assert not await store.ledger_finish("attio:update_deal:r1:stage=won", "failed", None, "late")


async def test_a_failed_scope_can_be_claimed_again_but_an_unknown_one_cannot(store: DraftStore) -> None:
    await store.ledger_claim("s:failed", "d1", 0, "sha-a")
    await store.ledger_finish("s:failed", "failed", None, "Linear rejected the issue")
    await store.ledger_claim("s:unknown", "d1", 1, "sha-b")
    await store.ledger_finish("s:unknown", "unknown", None, "timed out")

    retry = await store.ledger_claim("s:failed", "d2", 3, "sha-c")
    blocked = await store.ledger_claim("s:unknown", "d2", 4, "sha-b")

    assert (retry.claimed, retry.state, retry.draft_id, retry.index, retry.attempts, retry.error) == (
        True,
        "started",
        "d2",
        3,
        2,
        None,
    )
    assert (blocked.claimed, blocked.state) == (False, "unknown")
    found = await store.ledger_lookup(["s:failed", "s:unknown", "s:missing"])
    assert {scope: entry.state for scope, entry in found.items()} == {
        "s:failed": "started",
        "s:unknown": "unknown",
    }
    with pytest.raises(ValueError):
        await store.ledger_finish("s:failed", "started")  # type: ignore[arg-type]


async def test_concurrent_claims_of_one_scope_have_one_winner(database: Database) -> None:  # noqa: F811
    stores = [database.store() for _ in range(3)]
    try:
        entries = await asyncio.gather(
            *(stores[i % 3].ledger_claim("s:race", f"d{i}", 0, "sha") for i in range(30))
        )
    finally:
        for s in stores:
            await s.close()

    assert [e.claimed for e in entries].count(True) == 1


# -- audit ---------------------------------------------------------------------------------------


async def test_audit_records_are_per_user_newest_first_with_a_200_char_preview(store: DraftStore) -> None:
    await store.audit(
        user_id="alice",
        conversation_id="c1",
        input_message="Удали ENG-102",
        intent="DELETE_TASK",
        decision="REQUEST_CONFIRMATION",
        tool_calls=[{"tool_name": "LINEAR_DELETE_LINEAR_ISSUE", "parameters": {"issue_id": "ENG-102"}}],
        response_preview="x" * 500,
        producer="model",
    )
    await store.audit(
        user_id="alice",
        conversation_id="c1",
        input_message="да",
        intent="CONFIRM_YES",
        decision="EXECUTE_PENDING",
        tool_calls=None,
        response_preview="Готово",
    )
    await store.audit(
        user_id="bob",
        conversation_id="c2",
        input_message="hi",
        intent="GENERAL_CHAT",
        decision="RESPOND_ONLY",
        tool_calls=None,
        response_preview="hello",
    )

    records = await store.read_audit("alice")

    assert [r["input_message"] for r in records] == ["да", "Удали ENG-102"]
    assert set(records[0]) == {
        "timestamp",
        "conversation_id",
        "user_id",
        "input_message",
        "classified_intent",
        "decision_type",
        "tool_calls",
        "response_preview",
        "producer",
    }
    assert records[1]["response_preview"] == "x" * 200
    assert (records[1]["producer"], records[0]["producer"]) == ("model", None)
    assert records[1]["tool_calls"][0]["tool_name"] == "LINEAR_DELETE_LINEAR_ISSUE"
    assert records[1]["classified_intent"] == "DELETE_TASK"
    assert records[0]["timestamp"] == T0.isoformat()
    assert await store.read_audit("alice", limit=1) == records[:1]
    assert [r["user_id"] for r in await store.read_audit("bob")] == ["bob"]


# -- migrations and the shared file ------------------------------------------------------------


async def test_migrations_are_recorded_once_and_leave_other_tables_alone(tmp_path: Path) -> None:
    """SQLite's file; the PostgreSQL twin is in test_pg_store.py."""
    path = tmp_path / "planner.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE sandbox_records (id TEXT PRIMARY KEY)")
        conn.execute("INSERT INTO sandbox_records VALUES ('r1')")
    conn.close()

    stores = await asyncio.gather(*(asyncio.to_thread(SqliteStore, path, clock=Clock()) for _ in range(3)))
    draft = await new_draft(stores[0])
    for s in stores:
        await s.close()
    reopened = SqliteStore(path, clock=Clock())
    try:
        assert await reopened.get_draft(draft.id, "alice") == draft
    finally:
        await reopened.close()

    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT name FROM schema_migrations ORDER BY name").fetchall() == [
            ("drafts.m001_initial",),
            ("drafts.m002_execution_lease",),
            ("drafts.m003_audit_producer",),
        ]
        assert conn.execute("SELECT id FROM sandbox_records").fetchall() == [("r1",)]
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        conn.close()


async def test_a_closed_store_refuses_calls(database: Database, clock: Clock) -> None:  # noqa: F811
    s = database.store(clock=clock)
    await s.close()

    with pytest.raises(RuntimeError):
        await s.get_draft("x", "alice")


async def test_a_new_draft_binds_its_own_id_into_the_scopes_of_its_value_changes(store: DraftStore) -> None:
    per_draft = make_action(
        "attio:update_deal:r1:stage=Won:@draft",
        toolkit="attio",
        tool_slug="ATTIO_UPDATE_RECORD",
        operation="update_deal",
        args={"object_type": "deals", "record_id": "r1", "values": {"stage": "Won"}},
    )
    identified = make_action("linear:create_issue:d1:onboarding")
    first = await new_draft(store, actions=[per_draft, identified])
    second = await new_draft(store, actions=[per_draft, identified])
    for draft in (first, second):
        stored = await store.get_draft(draft.id, "alice")
        assert stored is not None
        scopes = [a.idempotency_scope for a in stored.actions]
        assert scopes == [f"attio:update_deal:r1:stage=Won:{draft.id}", "linear:create_issue:d1:onboarding"]
    assert first.actions[0].idempotency_scope != second.actions[0].idempotency_scope


async def test_pruning_expires_stale_drafts_deletes_unconfirmed_ones_and_trims_finished_ones(
    store: DraftStore, clock: Clock
) -> None:
    waiting = await new_draft(store, ttl_s=60)
    cancelled = await new_draft(store)
    assert await store.transition(cancelled.id, "alice", {"pending"}, "cancelled")
    done = await new_draft(store)
    for src, dst in (("pending", "confirmed"), ("confirmed", "executing"), ("executing", "executed")):
        assert await store.transition(done.id, "alice", {src}, dst)
    await store.record_action(done.id, 0, "succeeded", {"data": {"id": "x" * 1000}}, link="https://l/1")

    clock.advance(120)
    await store.prune()
    assert [d.status for d in await store.list_drafts("alice", open_only=False) if d.id == waiting.id] == [
        "expired"
    ]

    clock.advance(25 * 3600)  # a day later the unconfirmed ones are gone, the finished one is kept whole
    await store.prune()
    assert await store.get_draft(cancelled.id, "alice") is None
    assert await store.get_draft(waiting.id, "alice") is None
    kept = await store.get_draft(done.id, "alice")
    assert kept is not None and kept.actions[0].result is not None

    clock.advance(7 * 24 * 3600)  # a week after it finished, it keeps its outcome but not its bulk
    assert await store.prune() >= 1
    kept = await store.get_draft(done.id, "alice")
    assert kept is not None and kept.status == "executed"
    action = kept.actions[0]
    assert action.args == {} and action.result is None
    assert (action.status, action.link, action.preview) == (
        "succeeded",
        "https://l/1",
        "Create issue Onboarding",
    )


async def test_an_unknown_scope_is_retaken_by_exactly_one_later_draft_and_resolved_only_from_unknown(
    store: DraftStore,
) -> None:
    await store.ledger_claim("s:lost", "d1", 0, "sha-a")
    await store.ledger_finish("s:lost", "unknown", error="timeout")
    assert not (await store.ledger_claim("s:lost", "d2", 0, "sha-a")).claimed
    takers = await asyncio.gather(*(store.ledger_retake("s:lost", f"d{i}", 0, "sha-a") for i in range(2, 6)))
    winners = [t for t in takers if t.claimed]
    assert len(winners) == 1 and winners[0].state == "started" and winners[0].attempts == 2
    assert not await store.ledger_resolve("s:lost", "succeeded", {"id": "x"})  # it is started now

    await store.ledger_claim("s:lost2", "d1", 0, "sha-a")
    await store.ledger_finish("s:lost2", "unknown")
    assert await store.ledger_resolve("s:lost2", "succeeded", {"id": "found"})
    row = (await store.ledger_lookup(["s:lost2"]))["s:lost2"]
    assert (row.state, row.result) == ("succeeded", {"id": "found"})
    fresh = await store.ledger_retake("s:new", "d9", 1, "sha-b")  # no row yet: an ordinary claim
    assert fresh.claimed and fresh.state == "started"


async def test_open_drafts_beyond_the_newest_few_are_listed_oldest_last(store: DraftStore) -> None:
    drafts = [await new_draft(store) for _ in range(4)]
    assert await store.transition(drafts[1].id, "alice", {"pending"}, "cancelled")  # not open: not counted
    beyond = await store.open_beyond("alice", 2)
    assert [d.id for d in beyond] == [drafts[0].id]
    assert [d.id for d in await store.open_beyond("alice", 0)] == [drafts[3].id, drafts[2].id, drafts[0].id]
    assert await store.open_beyond("bob", 0) == []


async def test_a_callback_owner_renews_its_lease_and_a_waiter_stops_waiting_once_it_lapses(
    store: DraftStore, clock: Clock
) -> None:
    assert (await store.callback_begin("alice", "cb-lease", "execute_draft"))[0]
    clock.advance(50)
    assert await store.callback_renew("alice", "cb-lease")
    clock.advance(50)  # 100 s since the claim, 50 since the renewal: still alive (stale after 60)
    assert await store.callback_begin("alice", "cb-lease", "execute_draft") == (False, None)
    assert await store.callback_wait("alice", "cb-lease", timeout_s=0.01) is None
    clock.advance(11)
    with anyio.fail_after(10):
        assert await store.callback_wait("alice", "cb-lease", timeout_s=60) is None  # lapsed: at once
    assert (await store.callback_begin("alice", "cb-lease", "execute_draft"))[0]
    assert await store.callback_finish("alice", "cb-lease", {"status": "executed"})
    assert not await store.callback_renew("alice", "cb-lease")  # a finished callback has no lease
    assert await store.callback_wait("alice", "cb-lease", timeout_s=60) == {"status": "executed"}
