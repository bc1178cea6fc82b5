"""Runs a confirmed draft's actions exactly once, through the side-effect ledger.

Exactly once rests on two compare-and-swaps: `confirmed -> executing` on the draft (one winner per
draft, across processes) and `ledger_claim` on each write's idempotency scope (one call per scope,
across drafts). Everything else is bookkeeping: each outcome is recorded as it happens, so a crash
leaves a truthful record ("running" means the call may have left).

A write whose outcome is unknown is never retried blindly (`drafts._calls`): after a grace period it
is reconciled (`toolkits.reconcile`) and sent once more only when that is safe. A draft left
"executing" by a dead process is finished by `resume` (driven by `drafts.recovery`), which settles
each possibly-sent action from the ledger or by reconciling before anything is sent again.
"""

from __future__ import annotations

import asyncio
import copy
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

from tenacity import AsyncRetrying

from drafts._calls import INTERNAL_ERROR, Caller, CallOutcome, unknown_message
from drafts._requests import (
    Unresolvable,
    load_checker,
    payload_sha,
    problems,
    refs,
    request_for,
    resolved_request,
    substitute,
)
from drafts.journal import LedgerEntry
from drafts.models import Draft, DraftAction
from toolkits import metrics
from toolkits.base import Backend, ToolAction
from toolkits.reconcile import lever, with_marker

__all__ = [
    "INTERNAL_ERROR",
    "EventHook",
    "ExecutionStore",
    "Executor",
    "LinkFor",
    "Progress",
    "payload_sha",
    "resolved_request",
]

logger = logging.getLogger(__name__)

LinkFor = Callable[[ToolAction, Any], str | None]
# (event, draft_id, action index): "after_claim", "after_remote", "after_record", and
# "reconciled:<state>". A test hook (the crash matrix kills the process at the first three);
# production passes nothing.
EventHook = Callable[[str, str, int], None]
# (actions settled, actions in all, a line about the one just settled): the caller's progress report.
Progress = Callable[[int, int, str], Awaitable[None]]
_MARKS = {"succeeded": "✓", "already_done": "✓", "failed": "✗", "skipped": "–", "unknown": "?"}

IN_PROGRESS = "another execution of the same change is in progress or its outcome is unknown"
_SUCCESS = frozenset({"succeeded", "already_done"})
# On resume, these outcomes stand; anything else may be settled or run again.
_KEPT = frozenset({*_SUCCESS, "failed"})


class ExecutionStore(Protocol):
    """The part of the store the executor needs (SqliteStore or PgStore)."""

    async def get_draft(self, draft_id: str, user_id: str) -> Draft | None: ...

    async def transition(
        self, draft_id: str, user_id: str, from_states: Iterable[str], to_state: str
    ) -> bool: ...

    async def record_action(
        self,
        draft_id: str,
        index: int,
        status: str,
        result: Any = None,
        error: str | None = None,
        link: str | None = None,
    ) -> bool: ...

    async def ledger_claim(self, scope: str, draft_id: str, index: int, payload_sha: str) -> LedgerEntry: ...

    async def ledger_finish(
        self,
        scope: str,
        state: Literal["succeeded", "failed", "unknown"],
        result: Any = None,
        error: str | None = None,
        *,
        draft_id: str | None = None,
    ) -> bool: ...

    async def ledger_lookup(self, scopes: Sequence[str]) -> dict[str, LedgerEntry]: ...

    async def ledger_retake(self, scope: str, draft_id: str, index: int, payload_sha: str) -> LedgerEntry: ...

    async def ledger_resolve(
        self,
        scope: str,
        state: Literal["succeeded", "failed"],
        result: Any = None,
        error: str | None = None,
    ) -> bool: ...

    async def ledger_settle(
        self,
        scope: str,
        draft_id: str,
        state: Literal["succeeded", "failed", "unknown"],
        result: Any = None,
        error: str | None = None,
    ) -> bool: ...

    async def heartbeat(self, draft_id: str) -> bool: ...


@dataclass(frozen=True)
class _Outcome:
    status: str
    result: Any = None
    error: str | None = None


def _plain(done: CallOutcome) -> _Outcome:
    return _Outcome(done.status, done.result, done.error)


def _moment(stamp: str) -> datetime | None:
    try:
        return datetime.fromisoformat(stamp)
    except ValueError:
        return None


def _final_state(statuses: Iterable[str]) -> str:
    done = [status in _SUCCESS for status in statuses]
    if all(done):
        return "executed"
    return "partially_executed" if any(done) else "failed"


def _no_link(action: ToolAction, result: Any) -> str | None:
    return None


def _no_event(event: str, draft_id: str, index: int) -> None:
    return None


class Executor:
    """Executes confirmed drafts.

    Args:
        store: the draft store.
        backend: runs Composio tool slugs.
        concurrency: how many independent actions of one draft may call the backend at once.
        wait_for_running_s: how long a caller that lost the race waits for the winner's outcome.
        link_for: builds a person-facing link from an action and its result data.
        poll_interval_s: how often a loser polls when the winner is another process.
        reconcile_grace_s: after an unknown outcome, how long to wait before looking it up (the
            remote may still apply a request whose answer was lost).
        retrying: the retry policy for transient failures (stop, wait, sleep); see `drafts._calls`.
        heartbeat_s: how often a running draft renews its lease (recovery takes over a draft whose
            lease is older than its `lease_s`, so keep this well below that).
        on_event: a test hook called at named points of each write (see `EventHook`).
        sleep: awaited for the grace period (tests may record instead of waiting).

    Raises:
        ValueError: `concurrency` < 1, or a negative period.
    """

    def __init__(
        self,
        store: ExecutionStore,
        backend: Backend,
        *,
        concurrency: int = 4,
        wait_for_running_s: float = 30.0,
        link_for: LinkFor | None = None,
        poll_interval_s: float = 0.05,
        reconcile_grace_s: float = 30.0,
        retrying: AsyncRetrying | None = None,
        heartbeat_s: float = 10.0,
        on_event: EventHook | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        if reconcile_grace_s < 0 or heartbeat_s <= 0:
            raise ValueError("reconcile_grace_s must be >= 0 and heartbeat_s > 0")
        self._store = store
        self._caller = Caller(backend, retrying=retrying, grace_s=reconcile_grace_s, sleep=sleep)
        self._grace_s = reconcile_grace_s
        self._sleep = sleep
        self._concurrency = concurrency
        self._wait_s = wait_for_running_s
        self._link_for = link_for or _no_link
        self._poll_s = poll_interval_s
        self._heartbeat_s = heartbeat_s
        self._on_event = on_event or _no_event
        self._running: dict[str, asyncio.Event] = {}
        self._tasks: set[asyncio.Task[Draft | None]] = set()

    async def execute(self, draft_id: str, user_id: str) -> Draft | None:
        """Run a confirmed draft once; any other call returns the stored state (see `run_once`)."""
        draft, _ = await self.run_once(draft_id, user_id)
        return draft

    async def run_once(
        self, draft_id: str, user_id: str, *, progress: Progress | None = None
    ) -> tuple[Draft | None, bool]:
        """Run a confirmed draft once; any other call returns the stored state, calling nothing.

        `progress` hears of each action as it settles, when this call is the one that runs the draft;
        its failures are logged and ignored (a person who went away must not stop the draft).

        A caller that finds the draft executing elsewhere waits (up to `wait_for_running_s`) for its
        final state. A pending, awaiting, cancelled or expired draft comes back unchanged.

        Returns:
            The draft (None when it is missing or another user's), and whether this call is the one
            that ran it: of any number of concurrent callers exactly one gets True, so exactly one
            records the execution (its audit entry, for instance).

        Raises:
            sqlite3.Error (or the store's error type): the store failed. Action failures never raise;
            they are recorded on the draft.
        """
        draft = await self._store.get_draft(draft_id, user_id)
        if draft is None:
            return None, False
        if draft.status == "confirmed":
            if await self._store.transition(draft_id, user_id, {"confirmed"}, "executing"):
                return await self._start(draft, user_id, resume=False, progress=progress), True
            draft = await self._store.get_draft(draft_id, user_id)
            if draft is None:
                return None, False
        if draft.status == "executing":
            return await self._wait_for_final(draft, user_id), False
        return draft, False

    async def resume(self, draft_id: str, user_id: str) -> Draft | None:
        """Finish a draft that a dead process left "executing"; the caller must own its lease
        (`SqliteStore.take_over`), so no live executor works on it.

        Settled actions stand. An action that may have been sent ("running", "unknown", or holding
        this draft's ledger claim) is settled from the ledger, or reconciled before anything is sent
        again; pending and skipped actions run as usual. Then the draft moves to its final state.

        Returns:
            The draft (unchanged when it is not executing), or None when it is missing.

        Raises:
            sqlite3.Error (or the store's error type): the store failed.
        """
        draft = await self._store.get_draft(draft_id, user_id)
        if draft is None or draft.status != "executing":
            return draft
        return await self._start(draft, user_id, resume=True)

    async def _start(
        self, draft: Draft, user_id: str, *, resume: bool, progress: Progress | None = None
    ) -> Draft | None:
        event = asyncio.Event()
        self._running[draft.id] = event
        task = asyncio.create_task(self._run(draft, user_id, resume, progress))
        self._tasks.add(task)

        def finished(done: asyncio.Task[Draft | None]) -> None:
            event.set()
            self._tasks.discard(done)
            if self._running.get(draft.id) is event:
                del self._running[draft.id]

        task.add_done_callback(finished)
        # Shielded: a caller that goes away (client disconnect) must not leave the draft half-run.
        return await asyncio.shield(task)

    async def _wait_for_final(self, draft: Draft, user_id: str) -> Draft | None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._wait_s
        current: Draft | None = draft
        while current is not None and current.status == "executing":
            remaining = deadline - loop.time()
            if remaining <= 0:
                break
            event = self._running.get(draft.id)
            if event is not None:
                try:
                    await asyncio.wait_for(event.wait(), remaining)
                except TimeoutError:
                    pass
            else:
                # The winner is another process (or not yet registered here): poll the store.
                await asyncio.sleep(min(self._poll_s, remaining))
            current = await self._store.get_draft(draft.id, user_id)
        return current

    async def _beat(self, draft_id: str) -> None:
        while True:
            await asyncio.sleep(self._heartbeat_s)
            try:
                await self._store.heartbeat(draft_id)
            except Exception:
                logger.exception("draft %s: could not renew the lease", draft_id)

    async def _run(
        self, draft: Draft, user_id: str, resume: bool, progress: Progress | None = None
    ) -> Draft | None:
        count = len(draft.actions)
        settled = [asyncio.Event() for _ in range(count)]
        outcomes: dict[int, _Outcome] = {}
        gate = asyncio.Semaphore(self._concurrency)

        async def run_one(action: DraftAction) -> None:
            outcome = _Outcome("failed", error=INTERNAL_ERROR)
            try:
                if resume and action.status in _KEPT:
                    outcome = _Outcome(action.status, action.result, action.error)
                else:
                    outcome = await self._settle(draft, action, settled, outcomes, gate, resume)
            except Exception:
                logger.exception("draft %s action %d: unexpected error", draft.id, action.index)
                try:
                    await self._record(draft.id, action, outcome)
                except Exception:
                    logger.exception(
                        "draft %s action %d: could not record the failure", draft.id, action.index
                    )
            finally:
                # Dependents wake on the event and read the outcome, so store it first.
                outcomes[action.index] = outcome
                settled[action.index].set()
            if progress is not None:
                line = f"{_MARKS.get(outcome.status, '?')} {action.preview or action.operation}"
                try:
                    await progress(len(outcomes), count, line)
                except Exception:
                    logger.warning("draft %s: could not report progress", draft.id, exc_info=True)

        beat = asyncio.create_task(self._beat(draft.id))
        try:
            await asyncio.gather(*(run_one(action) for action in draft.actions))
        finally:
            beat.cancel()
        final = _final_state(outcomes[i].status for i in range(count))
        if not await self._store.transition(draft.id, user_id, {"executing"}, final):
            logger.error("draft %s: could not move from executing to %s", draft.id, final)
        return await self._store.get_draft(draft.id, user_id)

    async def _settle(
        self,
        draft: Draft,
        action: DraftAction,
        settled: list[asyncio.Event],
        outcomes: dict[int, _Outcome],
        gate: asyncio.Semaphore,
        resume: bool,
    ) -> _Outcome:
        draft_id = draft.id
        deps = refs(action.args) | ({action.depends_on} if action.depends_on is not None else set())
        if any(not 0 <= dep < action.index for dep in deps):
            # Only earlier actions may be named; anything else could wait forever.
            return await self._record(draft_id, action, _Outcome("failed", error="invalid dependency"))
        for dep in sorted(deps):
            await settled[dep].wait()
        for dep in sorted(deps):
            if dep not in outcomes or outcomes[dep].status not in _SUCCESS:
                return await self._record(
                    draft_id, action, _Outcome("skipped", error=f"action {dep} did not succeed")
                )
        async with gate:
            try:
                arguments = substitute(action.args, {dep: outcomes[dep].result for dep in deps})
            except Unresolvable as exc:
                return await self._record(draft_id, action, _Outcome("failed", error=str(exc)))
            sent = request_for(action, arguments)
            if action.read_only:
                await self._store.record_action(draft_id, action.index, "running")
                return await self._record(draft_id, action, _plain(await self._caller.read(sent)))
            if resume:
                entry = (await self._store.ledger_lookup([action.idempotency_scope])).get(
                    action.idempotency_scope
                )
                if entry is not None and (entry.draft_id, entry.index) == (draft_id, action.index):
                    return await self._resume_claimed(draft, action, sent, entry)
            sha = payload_sha(sent.tool_slug, sent.args)
            claim = await self._store.ledger_claim(action.idempotency_scope, draft_id, action.index, sha)
            if not claim.claimed and claim.state == "unknown":
                # DESIGN §7: an unknown outcome never blocks for ever; this attempt settles it first
                return await self._settle_earlier(draft, action, sent, claim, sha)
            if not claim.claimed:
                if claim.state == "succeeded":
                    metrics.ledger_outcome("already_done")
                    return await self._record(draft_id, action, _Outcome("already_done", claim.result))
                metrics.ledger_outcome("in_progress")
                return await self._record(draft_id, action, _Outcome("unknown", error=IN_PROGRESS))
            return await self._send(draft, action, sent)

    async def _send(self, draft: Draft, action: DraftAction, sent: ToolAction) -> _Outcome:
        """Make the call of a scope this draft has just claimed, and record its outcome."""
        draft_id = draft.id
        self._on_event("after_claim", draft_id, action.index)
        await self._store.record_action(draft_id, action.index, "running")
        done = await self._caller.write(
            sent, language=draft.language, emit=self._emitter(draft_id, action.index), settle_first=False
        )
        await self._store.ledger_finish(
            action.idempotency_scope, done.ledger_state, done.result, done.error, draft_id=draft_id
        )
        metrics.ledger_outcome(done.ledger_state)
        if action.supersedes and done.status == "succeeded":
            # the person's "send it anyway" did it: the scope it supersedes is done with this result
            await self._store.ledger_resolve(action.supersedes, "succeeded", done.result)
        outcome = await self._record(draft_id, action, _plain(done))
        self._on_event("after_record", draft_id, action.index)
        return outcome

    async def _settle_earlier(
        self, draft: Draft, action: DraftAction, sent: ToolAction, entry: LedgerEntry, sha: str
    ) -> _Outcome:
        """An earlier attempt of this scope left its outcome unknown: look first (after what is left
        of the grace period), then record it done, send it again, or tell the person what to check."""
        scope = action.idempotency_scope
        settled_at = _moment(entry.updated_at)
        waited = (datetime.now(UTC) - settled_at).total_seconds() if settled_at else self._grace_s
        if waited < self._grace_s and lever(sent) != "none":
            await self._sleep(self._grace_s - waited)  # the remote may still apply the lost request
        await self._store.record_action(draft.id, action.index, "running")
        found = await self._caller.reconcile(sent, _moment(entry.created_at))
        self._on_event(f"reconciled:{found.state}", draft.id, action.index)
        if found.state == "done":
            await self._store.ledger_resolve(scope, "succeeded", found.data)
            return await self._record(draft.id, action, _Outcome("already_done", found.data))
        if found.state == "unknown":
            error = unknown_message(sent, found.reason, draft.language)
            return await self._record(draft.id, action, _Outcome("unknown", error=error))
        claim = await self._store.ledger_retake(scope, draft.id, action.index, sha)
        if not claim.claimed:
            if claim.state == "succeeded":
                return await self._record(draft.id, action, _Outcome("already_done", claim.result))
            return await self._record(draft.id, action, _Outcome("unknown", error=IN_PROGRESS))
        return await self._send(draft, action, sent)

    async def _resume_claimed(
        self, draft: Draft, action: DraftAction, sent: ToolAction, entry: LedgerEntry
    ) -> _Outcome:
        """Settle an action whose ledger claim this draft holds: the request may have left."""
        if entry.state in ("succeeded", "failed"):
            # The process died between settling the ledger and recording the action.
            return await self._record(draft.id, action, _Outcome(entry.state, entry.result, entry.error))
        await self._store.record_action(draft.id, action.index, "running")
        done = await self._caller.write(
            sent,
            language=draft.language,
            emit=self._emitter(draft.id, action.index),
            settle_first=True,
            since=_moment(entry.created_at),
        )
        await self._store.ledger_settle(
            action.idempotency_scope, draft.id, done.ledger_state, done.result, done.error
        )
        metrics.ledger_outcome(done.ledger_state)
        outcome = await self._record(draft.id, action, _plain(done))
        self._on_event("after_record", draft.id, action.index)
        return outcome

    def _emitter(self, draft_id: str, index: int) -> Callable[[str], None]:
        return lambda event: self._on_event(event, draft_id, index)

    async def _record(self, draft_id: str, action: DraftAction, outcome: _Outcome) -> _Outcome:
        link: str | None = None
        if outcome.status in _SUCCESS:
            try:
                link = self._link_for(action, outcome.result)
            except Exception:
                logger.exception("link_for failed for %s", action.tool_slug)
        await self._store.record_action(
            draft_id, action.index, outcome.status, outcome.result, outcome.error, link
        )
        return outcome

    async def dry_run(self, draft_id: str, user_id: str) -> list[dict[str, Any]] | None:
        """The exact requests the draft would send, validated, with placeholders left as they are.

        Calls no tool and changes no state. Each entry: `index`, `tool_slug`, `arguments`,
        `idempotency_scope`, `would_skip` (the scope already succeeded) and `problems` (schema
        problems from `toolkits.schemas.check_arguments`, empty when valid or not checkable).

        Returns:
            The requests, or None when the draft is missing or another user's.

        Raises:
            sqlite3.Error (or the store's error type): the store failed.
        """
        draft = await self._store.get_draft(draft_id, user_id)
        if draft is None:
            return None
        checker = load_checker()
        done = await self._store.ledger_lookup(
            [a.idempotency_scope for a in draft.actions if not a.read_only]
        )
        requests: list[dict[str, Any]] = []
        for action in draft.actions:
            entry = None if action.read_only else done.get(action.idempotency_scope)
            marked = with_marker(action)  # exactly what execution sends, marker included
            requests.append(
                {
                    "index": action.index,
                    "tool_slug": action.tool_slug,
                    "arguments": copy.deepcopy(marked.args),
                    "idempotency_scope": action.idempotency_scope,
                    "would_skip": entry is not None and entry.state == "succeeded",
                    "problems": problems(checker, marked),
                }
            )
        return requests
