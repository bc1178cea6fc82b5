"""Unknown outcomes are reconciled, not retried blindly; transient failures are retried, boundedly.

Every test runs a real draft through the executor against the sandbox with injected faults, and
counts the objects that exist remotely afterwards: "exactly once" is checked on the remote, not on
our own bookkeeping.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from tenacity import AsyncRetrying, stop_after_attempt, wait_none

from drafts import Draft, Executor, SqliteStore
from toolkits import attio, googlecalendar, linear
from toolkits.base import ToolAction, ToolResult
from toolkits.reconcile import (
    MARKER_PROPERTY,
    lever,
    marker,
    reconcile,
    with_marker,
)
from toolkits.sandbox import Fault, FaultPlan, SandboxBackend

pytestmark = pytest.mark.anyio

ENG = "a9337aaa-8922-515f-974b-df31c9cbb8d6"
ACME = "b0a22383-700d-505a-99c4-e69e9405c278"
ACME_DEAL = "dce59e09-a33e-5f53-a154-8a1e072e2620"
ENG_101 = "d98459bd-6556-55b1-9314-a0d026a2749b"
GRACE_S = 2.0
GRAPHQL = "LINEAR_RUN_QUERY_OR_MUTATION"


class Sleeps:
    """An injected sleep: records what would have been waited, waits nothing."""

    def __init__(self) -> None:
        self.seen: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.seen.append(seconds)


@dataclass
class World:
    store: SqliteStore
    backend: SandboxBackend
    plan: FaultPlan
    retry_sleeps: Sleeps = field(default_factory=Sleeps)
    grace_sleeps: Sleeps = field(default_factory=Sleeps)

    def executor(self) -> Executor:
        retrying = AsyncRetrying(stop=stop_after_attempt(3), wait=wait_none(), sleep=self.retry_sleeps)
        return Executor(
            self.store,
            self.backend,
            reconcile_grace_s=GRACE_S,
            retrying=retrying,
            sleep=self.grace_sleeps,
        )

    async def run(self, actions: list[ToolAction], language: str = "en") -> Draft:
        draft = await self.store.create_draft(
            user_id="anna",
            conversation_id="c1",
            plan_id="p1",
            summary="test",
            language=language,
            actions=actions,
            bulk_count=None,
            ttl_s=1800,
            now=datetime.now(UTC),
        )
        assert await self.store.transition(draft.id, "anna", {"pending"}, "confirmed")
        done = await self.executor().execute(draft.id, "anna")
        assert done is not None
        return done

    async def read(self, slug: str, args: dict[str, Any]) -> Any:
        self.backend.faults = None  # counting must not meet the faults under test
        raw = await self.backend.execute(slug, args)
        assert raw["successful"], raw
        return raw["data"]

    def writes(self, slug: str) -> int:
        return sum(1 for s, _ in self.backend.write_calls if s == slug)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def world() -> AsyncIterator[World]:
    plan = FaultPlan()
    store = SqliteStore(None)
    backend = SandboxBackend(None, faults=plan)
    yield World(store, backend, plan)
    await backend.aclose()
    await store.close()


# -- the create kinds: how to build one, which slug and calls to fault, how to count it -----------


@dataclass(frozen=True)
class Kind:
    name: str
    slug: str
    only: str  # "write" where the slug also serves reads (GraphQL)
    build: Callable[[str], ToolAction]
    count: Callable[[World, str], Any]


async def _count_issues(world: World, title: str) -> int:
    data = await world.read("LINEAR_LIST_ISSUES_BY_TEAM_ID", {"team_id": ENG, "first": 250})
    return sum(1 for issue in data["issues"] if issue["title"] == title)


async def _count_notes(world: World, title: str) -> int:
    data = await world.read(
        "ATTIO_LIST_NOTES", {"parent_object": "companies", "parent_record_id": ACME, "limit": 50}
    )
    return sum(1 for note in data["data"] if note["title"] == title)


async def _count_tasks(world: World, text: str) -> int:
    data = await world.read("ATTIO_GET_V2_TASKS", {"linked_object": "companies", "linked_record_id": ACME})
    return sum(1 for task in data["data"] if task["content_plaintext"].startswith(text))


async def _count_comments(world: World, text: str) -> int:
    data = await world.read("LINEAR_GET_LINEAR_ISSUE", {"issue_id": ENG_101})
    return sum(1 for comment in data["comments"]["nodes"] if comment["body"].startswith(text))


async def _count_events(world: World, summary: str) -> int:
    window = {"timeMin": "2026-11-26T00:00:00+03:00", "timeMax": "2026-11-27T00:00:00+03:00"}
    data = await world.read("GOOGLECALENDAR_EVENTS_LIST", window)
    return sum(1 for event in data["items"] if event["summary"] == summary)


async def _count_deals(world: World, name: str) -> int:
    data = await world.read("ATTIO_QUERY_RECORDS", {"object": "deals", "filter": {"name": name}, "limit": 50})
    return len(data["data"])


KINDS = [
    Kind(
        "issue",
        GRAPHQL,
        "write",
        lambda t: linear.ops.create_issue(["deal-1", t], {"teamId": ENG, "title": t}, f"create {t}"),
        _count_issues,
    ),
    Kind(
        "note",
        "ATTIO_CREATE_NOTE",
        "any",
        lambda t: attio.ops.create_note("companies", ACME, t, "Contract signed.", f"note {t}"),
        _count_notes,
    ),
    Kind(
        "task",
        "ATTIO_CREATE_TASK",
        "any",
        lambda t: attio.ops.create_task(t, None, [("companies", ACME)], [], f"task {t}"),
        _count_tasks,
    ),
    Kind(
        "comment",
        "LINEAR_CREATE_LINEAR_COMMENT",
        "any",
        lambda t: linear.ops.comment_issue(ENG_101, t, f"comment {t}"),
        _count_comments,
    ),
    Kind(
        "event",
        "GOOGLECALENDAR_CREATE_EVENT",
        "any",
        lambda t: googlecalendar.ops.create_event(
            start_iso="2026-11-26T14:00:00+03:00",
            minutes=45,
            summary=t,
            timezone="Europe/Moscow",
            preview=f"event {t}",
        ),
        _count_events,
    ),
]
KINDS.append(
    Kind(
        "deal",
        "ATTIO_CREATE_RECORD",
        "any",
        lambda t: attio.ops.create_deal(
            {"name": t, "stage": "Lead", "associated_company": ACME}, ACME, f"deal {t}"
        ),
        _count_deals,
    )
)
BY_NAME = {kind.name: kind for kind in KINDS}


def fault(world: World, kind: Kind, what: Fault, calls: int | list[int] | None = 1) -> None:
    world.plan.add(kind.slug, what, calls=calls, only=kind.only)  # type: ignore[arg-type]


# -- creates: a lost answer is reconciled -------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
async def test_a_timeout_after_the_remote_applied_a_create_leaves_exactly_one_object(
    world: World, kind: Kind
) -> None:
    fault(world, kind, Fault("unknown_after"))

    draft = await world.run([kind.build("Kickoff call")])

    assert draft.status == "executed"
    assert draft.actions[0].status == "succeeded" and draft.actions[0].error is None
    assert await kind.count(world, "Kickoff call") == 1
    assert world.writes(kind.slug) == 1  # found by the lookup, never sent again
    assert world.grace_sleeps.seen == [GRACE_S]
    ledger = await world.store.ledger_lookup([draft.actions[0].idempotency_scope])
    assert ledger[draft.actions[0].idempotency_scope].state == "succeeded"
    assert ledger[draft.actions[0].idempotency_scope].result == draft.actions[0].result is not None


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
async def test_a_timeout_before_the_remote_applied_a_create_sends_it_once_more(
    world: World, kind: Kind
) -> None:
    fault(world, kind, Fault("unknown_before"))

    draft = await world.run([kind.build("Kickoff call")])

    assert draft.status == "executed" and draft.actions[0].status == "succeeded"
    assert await kind.count(world, "Kickoff call") == 1
    assert world.writes(kind.slug) == 2
    assert world.grace_sleeps.seen == [GRACE_S]


async def test_the_reconciled_issue_is_shaped_like_the_create_result_so_dependents_resolve(
    world: World,
) -> None:
    fault(world, BY_NAME["issue"], Fault("unknown_after"))
    issue = BY_NAME["issue"].build("Onboarding")
    comment = linear.ops.comment_issue("$ref:0.issueCreate.issue.id", "First step", "comment")

    draft = await world.run([issue, comment.model_copy(update={"depends_on": 0})])

    assert draft.status == "executed"
    created = draft.actions[0].result["issueCreate"]
    assert created["success"] is True and created["issue"]["title"] == "Onboarding"
    assert draft.actions[1].result["issue"]["id"] == created["issue"]["id"]


async def test_linear_refusing_a_reused_id_proves_the_create_landed(world: World) -> None:
    issue = BY_NAME["issue"].build("Kickoff call")
    # An earlier attempt landed but its answer (and the ledger's record of it) was lost.
    earlier = await world.backend.execute(issue.tool_slug, issue.args)
    assert earlier["successful"]

    draft = await world.run([issue])

    assert draft.status == "executed" and draft.actions[0].status == "succeeded"
    assert (
        draft.actions[0].result["issueCreate"]["issue"]["id"] == earlier["data"]["issueCreate"]["issue"]["id"]
    )
    assert await _count_issues(world, "Kickoff call") == 1


class LaggingReadBack(SandboxBackend):
    """The first `issue(id:)` read-back answers null although the issue exists (a lagging replica)."""

    lagged = False

    async def execute(self, slug: str, arguments: Mapping[str, Any]) -> ToolResult:
        if slug == GRAPHQL and "issueCreate" not in arguments["query_or_mutation"] and not self.lagged:
            self.lagged = True
            self.calls.append((slug, dict(arguments)))
            return {"data": {"issue": None}, "error": None, "successful": True}
        return await super().execute(slug, arguments)


async def test_already_exists_on_the_retry_after_a_lagging_read_back_is_success(world: World) -> None:
    await world.backend.aclose()
    world.backend = LaggingReadBack(None, faults=world.plan)
    fault(world, BY_NAME["issue"], Fault("unknown_after"))

    draft = await world.run([BY_NAME["issue"].build("Kickoff call")])

    assert draft.status == "executed" and draft.actions[0].status == "succeeded"
    assert draft.actions[0].result["issueCreate"]["issue"]["title"] == "Kickoff call"
    assert world.writes(GRAPHQL) == 2  # the retry was refused ("already exists"), not duplicated
    assert await _count_issues(world, "Kickoff call") == 1


# -- what cannot be settled stays unknown, truthfully ----------------------------------------------


@pytest.mark.parametrize(
    ("language", "advice"),
    [("en", "it may already exist in Linear; check there before retrying"), ("ru", "проверьте там")],
)
async def test_a_project_create_with_a_lost_answer_stays_unknown_and_tells_the_person_to_check(
    world: World, language: str, advice: str
) -> None:
    world.plan.add("LINEAR_CREATE_LINEAR_PROJECT", Fault("unknown_after"))
    project = linear.ops.create_project("Q9 launch", [ENG], "create project")

    draft = await world.run([project, BY_NAME["note"].build("Kickoff call")], language=language)

    assert [a.status for a in draft.actions] == ["unknown", "succeeded"]
    assert draft.status == "partially_executed"
    assert advice in (draft.actions[0].error or "")
    assert world.writes("LINEAR_CREATE_LINEAR_PROJECT") == 1  # never sent twice
    assert world.grace_sleeps.seen == []  # nothing could settle it, so nothing waited
    ledger = await world.store.ledger_lookup([project.idempotency_scope])
    assert ledger[project.idempotency_scope].state == "unknown"


async def test_a_lookup_that_keeps_failing_leaves_the_create_unknown_and_the_draft_not_executed(
    world: World,
) -> None:
    fault(world, BY_NAME["note"], Fault("unknown_after"))
    world.plan.add("ATTIO_LIST_NOTES", Fault("unavailable"), calls=None)

    draft = await world.run([BY_NAME["note"].build("Kickoff call")])

    assert draft.status == "failed" and draft.actions[0].status == "unknown"
    assert "may already exist in Attio; check there before retrying" in (draft.actions[0].error or "")
    assert world.writes("ATTIO_CREATE_NOTE") == 1
    assert await _count_notes(world, "Kickoff call") == 1


async def test_a_second_lost_answer_after_reconciling_is_not_chased_further(world: World) -> None:
    fault(world, BY_NAME["note"], Fault("unknown_before"), calls=1)
    fault(world, BY_NAME["note"], Fault("unknown_after"), calls=2)

    draft = await world.run([BY_NAME["note"].build("Kickoff call")])

    assert draft.actions[0].status == "unknown" and draft.status == "failed"
    assert world.writes("ATTIO_CREATE_NOTE") == 2
    assert await _count_notes(world, "Kickoff call") == 1


# -- transient failures --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["issue", "note"])
async def test_a_rate_limited_create_waits_for_retry_after_and_then_succeeds(world: World, name: str) -> None:
    kind = BY_NAME[name]
    fault(world, kind, Fault("unavailable", retry_after=1.5))

    draft = await world.run([kind.build("Kickoff call")])

    assert draft.status == "executed"
    assert world.retry_sleeps.seen == [1.5]
    assert world.grace_sleeps.seen == []  # a 429 applied nothing: no reconciling needed
    assert world.writes(kind.slug) == 2
    assert await kind.count(world, "Kickoff call") == 1


async def test_a_retry_after_beyond_the_cap_is_not_waited_for(world: World) -> None:
    fault(world, BY_NAME["issue"], Fault("unavailable", retry_after=600, message="rate limited"))

    draft = await world.run([BY_NAME["issue"].build("Kickoff call")])

    assert draft.status == "failed" and draft.actions[0].error == "rate limited"
    assert world.retry_sleeps.seen == [] and world.writes(GRAPHQL) == 1


async def test_a_bare_server_error_on_a_create_without_a_client_id_is_reconciled_not_retried(
    world: World,
) -> None:
    fault(world, BY_NAME["note"], Fault("unavailable"))  # no Retry-After: may have been applied

    draft = await world.run([BY_NAME["note"].build("Kickoff call")])

    assert draft.status == "executed"
    assert world.retry_sleeps.seen == [] and world.grace_sleeps.seen == [GRACE_S]
    assert await _count_notes(world, "Kickoff call") == 1


@pytest.mark.parametrize("what", [Fault("unavailable"), Fault("unknown_before")], ids=["503", "timeout"])
async def test_a_transient_failure_on_a_read_is_retried(world: World, what: Fault) -> None:
    world.plan.add("LINEAR_GET_LINEAR_ISSUE", what, calls=1)

    draft = await world.run([linear.ops.get_issue("ENG-101")])

    assert draft.status == "executed" and draft.actions[0].result["identifier"] == "ENG-101"
    assert [s for s, _ in world.backend.calls] == ["LINEAR_GET_LINEAR_ISSUE"] * 2


async def test_transient_failures_stop_at_the_policy_bound(world: World) -> None:
    world.plan.add("LINEAR_GET_LINEAR_ISSUE", Fault("unavailable"), calls=None)

    draft = await world.run([linear.ops.get_issue("ENG-101")])

    assert draft.status == "failed" and draft.actions[0].status == "failed"
    assert len(world.backend.calls) == 3


async def test_an_update_with_a_lost_answer_is_simply_run_once_more(world: World) -> None:
    world.plan.add("ATTIO_UPDATE_RECORD", Fault("unknown_after"), calls=1)
    update = attio.ops.update_deal(ACME_DEAL, {"stage": "Won"}, "move to Won")

    draft = await world.run([update])

    assert draft.status == "executed"
    assert world.writes("ATTIO_UPDATE_RECORD") == 2
    assert world.grace_sleeps.seen == [GRACE_S]
    deal = await world.read("ATTIO_FIND_RECORD", {"object_id": "deals", "record_id": ACME_DEAL})
    assert deal["data"]["values"]["stage"][0]["status"]["title"] == "Won"


async def test_an_assert_with_a_lost_answer_is_run_once_more_and_keeps_one_company(world: World) -> None:
    world.plan.add("ATTIO_ASSERT_COMPANY", Fault("unknown_after"), calls=1)

    draft = await world.run([attio.ops.create_company("Hooli", "hooli.com", "create Hooli")])

    assert draft.status == "executed" and world.writes("ATTIO_ASSERT_COMPANY") == 2
    companies = await world.read("ATTIO_QUERY_RECORDS", {"object": "companies", "limit": 500})
    domains = [d["domain"] for c in companies["data"] for d in c["values"].get("domains", [])]
    assert domains.count("hooli.com") == 1


async def test_a_delete_with_a_lost_answer_is_found_done(world: World) -> None:
    world.plan.add("ATTIO_DELETE_RECORD", Fault("unknown_after"))

    draft = await world.run([attio.ops.delete_record("deals", ACME_DEAL, "delete the deal")])

    assert draft.status == "executed" and world.writes("ATTIO_DELETE_RECORD") == 1


# -- failures that no retry can fix -----------------------------------------------------------------


async def test_arguments_that_do_not_fit_the_schema_fail_at_once(world: World) -> None:
    bad = BY_NAME["note"].build("Kickoff call")
    bad = bad.model_copy(update={"args": {**bad.args, "colour": "red"}})

    draft = await world.run([bad])

    assert draft.status == "failed" and "unknown argument 'colour'" in (draft.actions[0].error or "")
    assert len(world.backend.calls) == 1
    assert world.retry_sleeps.seen == world.grace_sleeps.seen == []


async def test_a_refusal_from_the_remote_fails_at_once(world: World) -> None:
    issue = linear.ops.create_issue(["x"], {"teamId": "NOPE", "title": "Kickoff"}, "create")

    draft = await world.run([issue])

    assert draft.status == "failed" and "Team not found" in (draft.actions[0].error or "")
    assert len(world.backend.calls) == 1


# -- the marker --------------------------------------------------------------------------------------


async def test_a_dry_run_shows_the_marker_that_execution_will_send(world: World) -> None:
    note = BY_NAME["note"].build("Kickoff call")
    event = BY_NAME["event"].build("Sync")
    draft = await world.store.create_draft(
        user_id="anna",
        conversation_id=None,
        plan_id="p",
        summary="s",
        language="en",
        actions=[note, event],
        bulk_count=None,
        ttl_s=600,
        now=datetime.now(UTC),
    )

    requests = await world.executor().dry_run(draft.id, "anna")

    assert requests is not None and world.backend.calls == []
    note_scope, event_scope = (a.idempotency_scope for a in draft.actions)  # bound to the draft
    assert requests[0]["arguments"]["content"] == f"Contract signed.\n\nref: {marker(note_scope)}"
    assert requests[1]["arguments"]["extended_properties"] == {
        "private": {MARKER_PROPERTY: marker(event_scope)}
    }
    assert [r["problems"] for r in requests] == [[], []]


def test_the_marker_is_derived_from_the_scope_and_added_once() -> None:
    note = BY_NAME["note"].build("Kickoff call")
    marked = with_marker(note)

    assert with_marker(marked) == marked
    assert with_marker(BY_NAME["note"].build("Kickoff call")) == marked
    assert len(marker(note.idempotency_scope)) == 10
    assert marker(note.idempotency_scope) != marker(note.idempotency_scope + "x")
    comment = linear.ops.comment_issue(ENG_101, "$ref:0.body", "comment")
    assert with_marker(comment) == comment  # a placeholder is filled first, marked afterwards
    issue = BY_NAME["issue"].build("Kickoff call")
    assert with_marker(issue) == issue  # the client-chosen id already identifies it


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        (BY_NAME["issue"].build("x"), "client_id"),
        (attio.ops.create_company("Hooli", "hooli.com", "p"), "rerun"),
        (attio.ops.update_deal(ACME_DEAL, {"stage": "Won"}, "p"), "rerun"),
        (attio.ops.complete_task("t1", "p"), "rerun"),
        (linear.ops.update_issue(ENG_101, {"priority": 1}, "p"), "rerun"),
        (linear.ops.update_issue(ENG_101, {"assigneeId": None}, "p"), "rerun"),  # sent as issueUpdate
        (linear.ops.archive_issue(ENG_101, "p"), "rerun"),
        (BY_NAME["note"].build("x"), "lookup"),
        (BY_NAME["event"].build("x"), "lookup"),
        (BY_NAME["deal"].build("x"), "lookup"),
        (linear.ops.create_project("Mobile", [ENG], "p"), "none"),
    ],
    ids=lambda v: v if isinstance(v, str) else v.tool_slug,
)
async def test_each_write_has_one_lever(world: World, action: ToolAction, expected: str) -> None:
    assert lever(action) == expected
    found = await reconcile(world.backend, with_marker(action), since=datetime.now(UTC))
    wanted = {"client_id": "absent", "rerun": "rerun_safe", "lookup": "absent", "none": "unknown"}
    assert found.state == wanted[expected]
    assert world.backend.write_calls == []  # reconciling only reads


async def test_a_deal_of_the_same_name_that_existed_before_the_request_is_not_taken_for_it(
    world: World,
) -> None:
    deal = BY_NAME["deal"].build("Acme renewal")
    before = await world.backend.execute(deal.tool_slug, deal.args)  # someone made one earlier
    assert before["successful"]
    later = datetime.now(UTC) + timedelta(minutes=10)  # this request left well after it

    assert (await reconcile(world.backend, deal, since=later)).state == "absent"
    found = await reconcile(world.backend, deal, since=datetime.now(UTC))
    assert found.state == "done" and found.data["data"]["id"] == before["data"]["data"]["id"]
    assert (await reconcile(world.backend, deal)).state == "unknown"  # without a send time: cannot tell


# -- an unknown outcome never blocks for ever (DESIGN §7): a later attempt of the scope settles it -----


async def left_unknown(world: World, kind: Kind, when: str) -> Draft:
    """A first draft whose create met a lost answer (`when` the remote applied it: before or after)
    and whose read-back failed too: its scope is left "unknown"."""
    fault(world, kind, Fault(when))  # type: ignore[arg-type]
    world.plan.add(GRAPHQL, Fault("unavailable"), only="read")
    first = await world.run([kind.build("Kickoff call")])
    assert first.actions[0].status == "unknown"
    scope = first.actions[0].idempotency_scope
    assert (await world.store.ledger_lookup([scope]))[scope].state == "unknown"
    world.backend.faults = None
    world.grace_sleeps.seen.clear()
    return first


async def test_a_later_attempt_of_an_unknown_scope_finds_the_change_and_records_it_done(world: World) -> None:
    first = await left_unknown(world, BY_NAME["issue"], "unknown_after")

    again = await world.run([BY_NAME["issue"].build("Kickoff call")])

    assert again.status == "executed" and again.actions[0].status == "already_done"
    assert again.actions[0].result["issueCreate"]["issue"]["title"] == "Kickoff call"
    assert world.writes(GRAPHQL) == 1 and await _count_issues(world, "Kickoff call") == 1
    scope = first.actions[0].idempotency_scope
    assert (await world.store.ledger_lookup([scope]))[scope].state == "succeeded"
    assert len(world.grace_sleeps.seen) == 1  # the rest of the grace period, before looking


async def test_a_later_attempt_of_an_unknown_scope_finds_it_absent_and_sends_it_once(world: World) -> None:
    await left_unknown(world, BY_NAME["issue"], "unknown_before")

    again = await world.run([BY_NAME["issue"].build("Kickoff call")])

    assert again.status == "executed" and again.actions[0].status == "succeeded"
    assert world.writes(GRAPHQL) == 2 and await _count_issues(world, "Kickoff call") == 1
    third = await world.run([BY_NAME["issue"].build("Kickoff call")])
    assert third.actions[0].status == "already_done" and world.writes(GRAPHQL) == 2


async def test_what_a_later_attempt_still_cannot_settle_is_shown_with_what_to_check(world: World) -> None:
    world.plan.add("LINEAR_CREATE_LINEAR_PROJECT", Fault("unknown_before"))
    project = linear.ops.create_project("Q9 launch", [ENG], "create project")
    assert (await world.run([project])).actions[0].status == "unknown"
    world.backend.faults = None

    again = await world.run([project])

    assert again.actions[0].status == "unknown"
    assert "check there before retrying" in (again.actions[0].error or "")
    assert world.writes("LINEAR_CREATE_LINEAR_PROJECT") == 1  # nothing is guessed
