"""The kill -9 crash matrix (reliability notes §5, T3), with real processes on a real SQLite file.

A child (`crash_child.py`) confirms a draft of three actions (a Linear issue with a client id, an
Attio note, a comment on the new issue) and executes it, SIGKILLing itself at a named point of one
action, or the parent SIGKILLs it after a seeded random 0-80 ms. Then a "restart": a fresh store and
sandbox on the same file run `recover`, and, if the child died before the draft started, a clean
execute (the person pressing the button again). Every run must end with the draft executed, no
action running, no ledger claim open, and each side effect present exactly once in the sandbox.

Each case runs on SQLite (a file per run) and on PostgreSQL (a schema per run, fewer runs: the
store logic is shared, what differs is the SQL, and six kills per point exercise it).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from postgres_support import drop_schema, new_schema_name, require_postgres, with_search_path

from drafts import Executor, open_store
from drafts.recovery import recover
from toolkits.sandbox import SandboxBackend

# 20 runs per case keep CI near 30 s; a nightly job can set PLANNER_CRASH_RUNS=200.
RUNS = int(os.environ.get("PLANNER_CRASH_RUNS", "20"))
PG_RUNS = int(os.environ.get("PLANNER_CRASH_RUNS_PG", "6"))
pytestmark = [pytest.mark.slow, pytest.mark.anyio, pytest.mark.timeout(max(120, RUNS))]

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("crash_child.py")
ENG = "a9337aaa-8922-515f-974b-df31c9cbb8d6"
ACME = "b0a22383-700d-505a-99c4-e69e9405c278"
PARALLEL = 4
SEED = 20261125


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@dataclass(frozen=True)
class Databases:
    """A fresh database per run: `target(n)` is a SQLite path or a URL selecting a new schema."""

    target: Callable[[int], str]
    runs: int


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def databases(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Databases]:
    if request.param == "sqlite":
        yield Databases(lambda n: str(tmp_path / f"run{n}.db"), RUNS)
        return
    url = require_postgres()
    schemas: list[str] = []

    def target(n: int) -> str:
        schemas.append(new_schema_name())
        return with_search_path(url, schemas[-1])

    try:
        yield Databases(target, PG_RUNS)
    finally:
        for schema in schemas:
            drop_schema(url, schema)


@dataclass(frozen=True)
class Outcome:
    killed: bool
    phase: str  # where the kill left the draft: "not started", "executing" or "finished"
    before: tuple[str, ...]  # action statuses the restart found
    reconciled: int  # actions recovery had to settle or run
    settled_by: tuple[str, ...]  # "reconciled:done" (the answer was lost) / "reconciled:absent"
    status: str
    actions: tuple[str, ...]
    counts: tuple[int, int, int]  # issues, notes, comments carrying this run's tag
    open_claims: int
    second_recover_changed: bool
    mcp_in_child: bool


async def _count(backend: SandboxBackend, tag: str) -> tuple[int, int, int]:
    issues = await backend.execute(
        "LINEAR_LIST_ISSUES_BY_TEAM_ID", {"team_id": ENG, "first": 250, "include_archived": True}
    )
    mine = [i for i in issues["data"]["issues"] if i["title"] == f"Issue {tag}"]
    notes = await backend.execute(
        "ATTIO_LIST_NOTES", {"parent_object": "companies", "parent_record_id": ACME, "limit": 50}
    )
    comments = 0
    for issue in mine:
        found = await backend.execute("LINEAR_GET_LINEAR_ISSUE", {"issue_id": issue["id"]})
        comments += sum(
            1 for c in found["data"]["comments"]["nodes"] if c["body"].startswith(f"Comment {tag}")
        )
    note_count = sum(1 for n in notes["data"]["data"] if n["title"] == f"Note {tag}")
    return len(mine), note_count, comments


async def _run(db: str, tag: str, point: str, index: int, kill_after_s: float | None) -> Outcome:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    latency = "0.01" if kill_after_s is not None else "0"  # spread a random kill over the execution
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        str(CHILD),
        db,
        tag,
        point,
        str(index),
        latency,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=ROOT,
        env=env,
    )
    assert child.stdout is not None and child.stderr is not None
    ready = (await child.stdout.readline()).decode().split()
    assert ready[:1] == ["ready"], (await child.stderr.read()).decode()
    if kill_after_s is not None:
        await asyncio.sleep(kill_after_s)
        if child.returncode is None:
            try:
                child.send_signal(signal.SIGKILL)
            except ProcessLookupError:
                pass
    await child.stdout.read()
    await child.stderr.read()
    code = await child.wait()
    draft_id = ready[1]

    store = open_store(db)  # the restart: new objects on the same database
    backend = SandboxBackend(db)
    try:
        found = await store.get_draft(draft_id, "anna")
        assert found is not None
        phase = {"confirmed": "not started", "executing": "executing"}.get(found.status, "finished")
        events: list[str] = []
        hook = lambda event, _draft, _index: events.append(event)  # noqa: E731
        report = await recover(store, backend, grace_s=0.0, lease_s=0.0, on_event=hook)
        draft = await store.get_draft(draft_id, "anna")
        assert draft is not None
        if draft.status == "confirmed":
            draft = await Executor(store, backend, reconcile_grace_s=0.0).execute(draft_id, "anna")
            assert draft is not None
        calls_before = len(backend.calls)
        again = await recover(store, backend, grace_s=0.0, lease_s=0.0)
        assert len(backend.calls) == calls_before  # the second recovery called nothing
        ledger = await store.ledger_lookup([a.idempotency_scope for a in draft.actions])
        reconciled = sum(1 for d in report.drafts for b, a in zip(d.before, d.after, strict=True) if b != a)
        return Outcome(
            killed=code == -signal.SIGKILL,
            phase=phase,
            before=tuple(a.status for a in found.actions),
            reconciled=reconciled,
            settled_by=tuple(sorted(e for e in events if e.startswith("reconciled:"))),
            status=draft.status,
            actions=tuple(a.status for a in draft.actions),
            counts=await _count(backend, tag),
            open_claims=sum(1 for e in ledger.values() if e.state == "started"),
            second_recover_changed=again.changed,
            mcp_in_child=ready[2] == "True",
        )
    finally:
        await backend.aclose()
        await store.close()


async def _matrix(databases: Databases, point: str, delays: list[float | None]) -> list[Outcome]:
    gate = asyncio.Semaphore(PARALLEL)

    async def one(n: int, delay: float | None) -> Outcome:
        async with gate:
            return await _run(databases.target(n), f"{point}-{n}", point, n % 3, delay)

    return list(await asyncio.gather(*(one(n, d) for n, d in enumerate(delays))))


def _check(outcomes: list[Outcome], *, all_killed: bool) -> None:
    summary = Counter((o.phase, o.before, o.settled_by) for o in outcomes)
    print(f"\n{len(outcomes)} runs:", *(f"  {n} x {key}" for key, n in summary.most_common()), sep="\n")
    duplicates = [o for o in outcomes if o.counts != (1, 1, 1)]
    assert duplicates == [], duplicates
    for o in outcomes:
        assert o.status == "executed" and set(o.actions) == {"succeeded"}, o
        assert o.open_claims == 0 and not o.second_recover_changed, o
        assert not o.mcp_in_child
        assert o.killed or not all_killed


@pytest.mark.parametrize("point", ["after_claim", "after_remote", "after_record"])
async def test_a_kill_at_a_named_point_is_recovered_with_every_side_effect_exactly_once(
    databases: Databases, point: str
) -> None:
    outcomes = await _matrix(databases, point, [None] * databases.runs)

    _check(outcomes, all_killed=True)
    if point != "after_record":
        assert all(o.reconciled >= 1 for o in outcomes)  # something was in flight each time


async def test_a_kill_at_a_random_moment_is_recovered_with_every_side_effect_exactly_once(
    databases: Databases,
) -> None:
    rng = random.Random(SEED)
    delays: list[float | None] = [rng.uniform(0.0, 0.080) for _ in range(databases.runs)]

    outcomes = await _matrix(databases, "none", delays)

    _check(outcomes, all_killed=False)
