from __future__ import annotations

import asyncio
import copy
from collections.abc import AsyncIterator, Callable, Mapping
from datetime import UTC, datetime
from typing import Any

import anyio
import pytest
from store_backends import Database, database  # noqa: F401  (the fixture, SQLite and PostgreSQL)

from drafts import Draft, DraftStore, Executor
from drafts.executor import INTERNAL_ERROR
from toolkits.base import Backend, ToolAction, ToolResult
from toolkits.errors import OutcomeUnknown, UpstreamRejected

pytestmark = pytest.mark.anyio

Script = Callable[[str, dict[str, Any]], "ToolResult | Exception"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def ok(data: Any) -> ToolResult:
    return {"data": data, "error": None, "successful": True}


class FakeBackend:
    """The external port: records every call, answers from a script, yields to the loop."""

    name = "fake"

    def __init__(self, script: Script | None = None, *, yields: int = 3, rendezvous: int = 0) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.script = script or (lambda slug, args: ok({"id": f"{slug}#{len(self.calls)}", "echo": args}))
        self.yields = yields
        self.in_flight = 0
        self.max_in_flight = 0
        # With `rendezvous=n`, calls hold until n of them are in flight at once (proves concurrency).
        self.rendezvous = rendezvous
        self.together = asyncio.Event()

    async def execute(self, slug: str, arguments: Mapping[str, Any]) -> ToolResult:
        args = copy.deepcopy(dict(arguments))
        self.calls.append((slug, args))
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.in_flight >= self.rendezvous:
                self.together.set()
            await self.together.wait()
            for _ in range(self.yields):
                await asyncio.sleep(0)
            outcome = self.script(slug, args)
        finally:
            self.in_flight -= 1
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    async def aclose(self) -> None:
        return None

    def slugs(self) -> list[str]:
        return [slug for slug, _ in self.calls]


@pytest.fixture
async def store(database: Database) -> AsyncIterator[DraftStore]:  # noqa: F811
    s = database.store()
    yield s
    await s.close()


def write(
    slug: str, scope: str | None = None, args: dict[str, Any] | None = None, **extra: Any
) -> ToolAction:
    return ToolAction(
        toolkit="linear",
        tool_slug=slug,
        operation="create_issue",
        args=args if args is not None else {"title": slug},
        read_only=False,
        idempotency_scope=scope or f"linear:create_issue:{slug}",
        preview=f"call {slug}",
        **extra,
    )


def read(slug: str) -> ToolAction:
    return ToolAction(
        toolkit="linear",
        tool_slug=slug,
        operation="get_issue",
        args={"id": "ENG-1"},
        read_only=True,
        idempotency_scope=f"linear:get_issue:{slug}",
        preview=f"read {slug}",
    )


async def confirmed(store: DraftStore, actions: list[ToolAction], user: str = "alice") -> Draft:
    draft = await store.create_draft(
        user_id=user,
        conversation_id="c1",
        plan_id="plan-1",
        summary="test",
        language="en",
        actions=actions,
        bulk_count=None,
        ttl_s=1800,
        now=datetime.now(UTC),
    )
    assert await store.transition(draft.id, user, {"pending"}, "confirmed")
    return draft


def statuses(draft: Draft | None) -> list[str]:
    assert draft is not None
    return [a.status for a in draft.actions]


# -- exactly once --------------------------------------------------------------------------------


async def test_thirty_concurrent_executes_call_each_action_once(store: DraftStore) -> None:
    backend = FakeBackend()
    executor = Executor(store, backend)
    draft = await confirmed(
        store, [write("A"), write("B", args={"parent": "$ref:0.id"}, depends_on=0), read("R")]
    )

    results = await asyncio.gather(*(executor.execute(draft.id, "alice") for _ in range(30)))

    assert sorted(backend.slugs()) == ["A", "B", "R"]
    assert all(r is not None and r.status == "executed" for r in results)
    assert all(r == results[0] for r in results)
    assert statuses(results[0]) == ["succeeded", "succeeded", "succeeded"]
    events = await store.draft_events(draft.id, "alice")
    assert [e["to"] for e in events] == ["confirmed", "executing", "executed"]


async def test_three_store_objects_on_one_database_still_call_each_action_once(
    database: Database,  # noqa: F811
) -> None:
    backend = FakeBackend()
    stores = [database.store() for _ in range(3)]
    try:
        executors = [Executor(s, backend) for s in stores]
        draft = await confirmed(stores[0], [write("A"), write("B"), write("C", depends_on=1)])

        results = await asyncio.gather(*(executors[i % 3].execute(draft.id, "alice") for i in range(30)))

        assert sorted(backend.slugs()) == ["A", "B", "C"]
        assert {r.status for r in results if r is not None} == {"executed"}
        assert len([r for r in results if r is not None]) == 30
    finally:
        for s in stores:
            await s.close()


async def test_executing_again_returns_the_stored_outcome_without_calls(store: DraftStore) -> None:
    backend = FakeBackend()
    executor = Executor(store, backend)
    draft = await confirmed(store, [write("A")])
    first = await executor.execute(draft.id, "alice")

    second = await executor.execute(draft.id, "alice")

    assert second == first
    assert backend.slugs() == ["A"]


async def test_a_second_draft_with_an_already_succeeded_scope_is_already_done(store: DraftStore) -> None:
    backend = FakeBackend()
    executor = Executor(store, backend, link_for=lambda action, data: f"https://linear.app/{data['id']}")
    first = await executor.execute(
        (await confirmed(store, [write("A", scope="linear:create_issue:deal1:kickoff")])).id, "alice"
    )
    assert first is not None

    again = await confirmed(store, [write("A", scope="linear:create_issue:deal1:kickoff")])
    second = await executor.execute(again.id, "alice")

    assert backend.slugs() == ["A"]
    assert second is not None and second.status == "executed"
    assert second.actions[0].status == "already_done"
    assert second.actions[0].result == first.actions[0].result
    assert second.actions[0].link == first.actions[0].link == "https://linear.app/A#1"


async def test_drafts_that_are_not_confirmed_come_back_unchanged(store: DraftStore) -> None:
    backend = FakeBackend()
    executor = Executor(store, backend)
    pending = await store.create_draft(
        user_id="alice",
        conversation_id="c1",
        plan_id="p",
        summary="s",
        language="ru",
        actions=[write("A")],
        bulk_count=7,
        ttl_s=1800,
        now=datetime.now(UTC),
    )
    cancelled = await confirmed(store, [write("B")])
    assert await store.transition(cancelled.id, "alice", {"confirmed"}, "cancelled")

    assert await executor.execute(pending.id, "alice") == pending
    assert (await executor.execute(cancelled.id, "alice")).status == "cancelled"  # type: ignore[union-attr]
    assert await executor.execute(cancelled.id, "mallory") is None
    assert await executor.execute("missing", "alice") is None
    assert backend.calls == []


async def test_another_user_cannot_execute_a_confirmed_draft(store: DraftStore) -> None:
    backend = FakeBackend()
    executor = Executor(store, backend)
    draft = await confirmed(store, [write("A")])

    assert await executor.execute(draft.id, "mallory") is None

    assert backend.calls == []
    assert (await store.get_draft(draft.id, "alice")).status == "confirmed"  # type: ignore[union-attr]


# -- ordering, references, concurrency ---------------------------------------------------------


async def test_dependent_actions_wait_and_receive_the_referenced_values(store: DraftStore) -> None:
    def script(slug: str, args: dict[str, Any]) -> ToolResult:
        if slug == "CREATE_PROJECT":
            return ok({"id": "proj-1", "lanes": [{"key": "todo"}, {"key": "done"}]})
        return ok({"id": f"{slug}-id"})

    class ProjectWaitsForOther(FakeBackend):
        # CREATE_PROJECT holds until OTHER is called: this only finishes if independent actions overlap.
        async def execute(self, slug: str, arguments: Mapping[str, Any]) -> ToolResult:
            if slug == "OTHER":
                other_called.set()
            elif slug == "CREATE_PROJECT":
                await other_called.wait()
            return await super().execute(slug, arguments)

    other_called = asyncio.Event()
    backend = ProjectWaitsForOther(script)
    executor = Executor(store, backend, concurrency=4)
    child_args = {
        "projectId": "$ref:0.id",
        "nested": ["$ref:0.lanes.1.key", {"again": "$ref:0.id"}],
        "text": "not a $ref:0.id placeholder",
    }
    draft = await confirmed(
        store,
        [write("CREATE_PROJECT"), write("CREATE_ISSUE", args=child_args, depends_on=0), write("OTHER")],
    )

    with anyio.fail_after(5):
        result = await executor.execute(draft.id, "alice")

    assert backend.slugs() == ["OTHER", "CREATE_PROJECT", "CREATE_ISSUE"]
    sent = dict(backend.calls)["CREATE_ISSUE"]
    assert sent == {
        "projectId": "proj-1",
        "nested": ["done", {"again": "proj-1"}],
        "text": "not a $ref:0.id placeholder",
    }
    assert (
        result is not None and result.actions[1].args == child_args
    )  # the stored plan keeps its placeholders


async def test_a_failed_dependency_skips_its_dependents(store: DraftStore) -> None:
    def script(slug: str, args: dict[str, Any]) -> ToolResult:
        if slug == "A":
            return {"data": None, "error": "team not found", "successful": False}
        return ok({"id": slug})

    backend = FakeBackend(script)
    executor = Executor(store, backend)
    draft = await confirmed(
        store,
        [write("A"), write("B", depends_on=0), write("C", args={"x": "$ref:1.id"}, depends_on=1), write("D")],
    )

    result = await executor.execute(draft.id, "alice")

    assert sorted(backend.slugs()) == ["A", "D"]
    assert statuses(result) == ["failed", "skipped", "skipped", "succeeded"]
    assert result is not None and result.status == "partially_executed"
    assert result.actions[0].error == "team not found"


async def test_an_unresolvable_reference_fails_only_that_action(store: DraftStore) -> None:
    backend = FakeBackend(lambda slug, args: ok({"id": slug}))
    executor = Executor(store, backend)
    draft = await confirmed(store, [write("A"), write("B", args={"x": "$ref:0.missing.path"}, depends_on=0)])

    result = await executor.execute(draft.id, "alice")

    assert backend.slugs() == ["A"]
    assert statuses(result) == ["succeeded", "failed"]
    assert result is not None and "$ref:0.missing.path" in (result.actions[1].error or "")


async def test_independent_actions_run_concurrently_within_the_bound(store: DraftStore) -> None:
    backend = FakeBackend(rendezvous=2)
    executor = Executor(store, backend, concurrency=2)
    draft = await confirmed(store, [write(f"W{i}") for i in range(6)])

    with anyio.fail_after(5):  # with no concurrency the first call would wait for a second forever
        result = await executor.execute(draft.id, "alice")

    assert result is not None and result.status == "executed"
    assert backend.max_in_flight == 2


# -- failures --------------------------------------------------------------------------------------


async def test_a_partial_failure_is_partially_executed_and_the_failed_scope_can_run_again(
    store: DraftStore,
) -> None:
    rejected = {"B": True}

    def script(slug: str, args: dict[str, Any]) -> ToolResult | Exception:
        if rejected.get(slug):
            return UpstreamRejected("Linear rejected the issue: no team with key 'ENG'")
        return ok({"id": slug})

    backend = FakeBackend(script)
    executor = Executor(store, backend)
    draft = await confirmed(store, [write("A"), write("B")])

    result = await executor.execute(draft.id, "alice")

    assert result is not None and result.status == "partially_executed"
    assert statuses(result) == ["succeeded", "failed"]
    assert result.actions[1].error == "Linear rejected the issue: no team with key 'ENG'"

    rejected["B"] = False
    retry = await executor.execute((await confirmed(store, [write("A"), write("B")])).id, "alice")
    assert statuses(retry) == ["already_done", "succeeded"]
    assert sorted(backend.slugs()) == ["A", "B", "B"]


async def test_all_failed_is_failed(store: DraftStore) -> None:
    backend = FakeBackend(lambda slug, args: {"data": None, "error": "nope", "successful": False})
    executor = Executor(store, backend)

    result = await executor.execute((await confirmed(store, [write("A"), write("B")])).id, "alice")

    assert result is not None and result.status == "failed"


async def test_an_unknown_outcome_is_recorded_and_never_retried(store: DraftStore) -> None:
    backend = FakeBackend(lambda slug, args: OutcomeUnknown("Linear did not answer in time"))
    executor = Executor(store, backend)
    draft = await confirmed(store, [write("A", scope="linear:create_issue:deal1:kickoff")])

    result = await executor.execute(draft.id, "alice")
    replay = await executor.execute(draft.id, "alice")
    other = await executor.execute(
        (await confirmed(store, [write("A", scope="linear:create_issue:deal1:kickoff")])).id, "alice"
    )

    assert backend.slugs() == ["A"]
    assert result is not None and result.status == "failed" and statuses(result) == ["unknown"]
    error = result.actions[0].error or ""
    assert error.startswith("Linear did not answer in time") and "check there before retrying" in error
    assert replay == result
    # a later draft of the scope looks first (DESIGN §7); nothing can tell here, so it says what to check
    assert other is not None and statuses(other) == ["unknown"]
    assert "check there before retrying" in (other.actions[0].error or "")
    ledger = await store.ledger_lookup(["linear:create_issue:deal1:kickoff"])
    assert ledger["linear:create_issue:deal1:kickoff"].state == "unknown"


async def test_an_unexpected_error_is_an_internal_error_without_details(
    store: DraftStore, caplog: pytest.LogCaptureFixture
) -> None:
    backend = FakeBackend(lambda slug, args: RuntimeError("boom: token=ak_CANARY"))
    executor = Executor(store, backend)
    draft = await confirmed(store, [write("A"), read("R")])

    result = await executor.execute(draft.id, "alice")

    assert result is not None and result.status == "failed"
    assert [a.error for a in result.actions] == [INTERNAL_ERROR, INTERNAL_ERROR]
    assert "ak_CANARY" not in result.model_dump_json()
    assert "boom" in caplog.text  # logged server-side for the operator


async def test_read_only_actions_bypass_the_ledger(store: DraftStore) -> None:
    backend = FakeBackend()
    executor = Executor(store, backend)

    await executor.execute((await confirmed(store, [read("R")])).id, "alice")
    await executor.execute((await confirmed(store, [read("R")])).id, "alice")

    assert backend.slugs() == ["R", "R"]
    assert await store.ledger_lookup(["linear:get_issue:R"]) == {}


# -- dry run -------------------------------------------------------------------------------------


async def test_dry_run_returns_the_requests_and_calls_and_changes_nothing(store: DraftStore) -> None:
    backend = FakeBackend()
    executor = Executor(store, backend)
    done = await store.ledger_claim("linear:create_issue:A", "earlier", 0, "sha")
    assert done.claimed
    await store.ledger_finish("linear:create_issue:A", "succeeded", {"id": "A"})
    draft = await confirmed(
        store, [write("A"), write("B", args={"parent": "$ref:0.id"}, depends_on=0), read("R")]
    )
    before = await store.get_draft(draft.id, "alice")
    events_before = await store.draft_events(draft.id, "alice")

    requests = await executor.dry_run(draft.id, "alice")

    assert backend.calls == []
    assert await store.get_draft(draft.id, "alice") == before
    assert await store.draft_events(draft.id, "alice") == events_before
    assert requests is not None
    assert [(r["index"], r["tool_slug"], r["idempotency_scope"], r["would_skip"]) for r in requests] == [
        (0, "A", "linear:create_issue:A", True),
        (1, "B", "linear:create_issue:B", False),
        (2, "R", "linear:get_issue:R", False),
    ]
    assert requests[1]["arguments"] == {"parent": "$ref:0.id"}
    assert all(isinstance(r["problems"], list) for r in requests)
    assert await executor.dry_run(draft.id, "mallory") is None


def test_the_fake_backend_implements_the_port() -> None:
    assert isinstance(FakeBackend(), Backend)


async def test_outcomes_are_recorded_as_they_happen(store: DraftStore) -> None:
    seen: list[list[str]] = []

    class Inspecting(FakeBackend):
        # What a crash at this instant would leave behind: A settled, B marked as possibly sent.
        async def execute(self, slug: str, arguments: Mapping[str, Any]) -> ToolResult:
            if slug == "B":
                seen.append(statuses(await store.get_draft(draft.id, "alice")))
            return await super().execute(slug, arguments)

    backend = Inspecting()
    draft = await confirmed(store, [write("A"), write("B", depends_on=0)])

    await Executor(store, backend).execute(draft.id, "alice")

    assert seen == [["succeeded", "running"]]
