"""Runs a confirmed draft's actions exactly once, through the side-effect ledger.

Exactly once rests on two compare-and-swaps: `confirmed -> executing` on the draft (one winner per
draft, across processes) and `ledger_claim` on each write's idempotency scope (one call per scope,
across drafts). Everything else is bookkeeping: each outcome is recorded as it happens, so a crash
leaves a truthful record ("running" means the call may have left).
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import importlib
import json
import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, cast

from drafts.journal import LedgerEntry
from drafts.models import Draft, DraftAction
from toolkits.base import Backend, ToolAction
from toolkits.errors import InvalidArguments, OutcomeUnknown, ToolkitError

__all__ = ["ExecutionStore", "Executor", "LinkFor", "payload_sha"]

logger = logging.getLogger(__name__)

LinkFor = Callable[[ToolAction, Any], str | None]

IN_PROGRESS = "another execution of the same change is in progress or its outcome is unknown"
INTERNAL_ERROR = "internal error"
_REF = re.compile(r"^\$ref:(\d+)(?:\.(.+))?$")
_SUCCESS = frozenset({"succeeded", "already_done"})


class ExecutionStore(Protocol):
    """The part of the store the executor needs (SqliteStore, or a future PostgreSQL store)."""

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


@dataclass(frozen=True)
class _Outcome:
    status: str
    result: Any = None
    error: str | None = None


class _Unresolvable(Exception):
    pass


def payload_sha(tool_slug: str, arguments: Mapping[str, Any]) -> str:
    """SHA-256 of the request as it is sent (canonical JSON), stored with the ledger claim."""
    body = json.dumps({"slug": tool_slug, "args": arguments}, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def _refs(value: Any) -> set[int]:
    """Indices of the actions named by `$ref:` placeholders anywhere in `value`."""
    if isinstance(value, str):
        match = _REF.match(value)
        return {int(match.group(1))} if match else set()
    if isinstance(value, Mapping):
        return set().union(*(_refs(item) for item in value.values()))
    if isinstance(value, list | tuple):
        return set().union(*(_refs(item) for item in value))
    return set()


def _resolve(data: Any, path: str | None, placeholder: str) -> Any:
    current = data
    for part in path.split(".") if path else ():
        if isinstance(current, Mapping) and part in current:
            current = current[part]
        elif isinstance(current, list) and part.isdigit() and int(part) < len(current):
            current = current[int(part)]
        else:
            raise _Unresolvable(f"could not resolve {placeholder} from the earlier result")
    return current


def _substitute(value: Any, results: Mapping[int, Any]) -> Any:
    if isinstance(value, str):
        match = _REF.match(value)
        if match is None:
            return value
        return copy.deepcopy(_resolve(results[int(match.group(1))], match.group(2), value))
    if isinstance(value, Mapping):
        return {key: _substitute(item, results) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_substitute(item, results) for item in value]
    return value


def _final_state(statuses: Iterable[str]) -> str:
    done = [status in _SUCCESS for status in statuses]
    if all(done):
        return "executed"
    return "partially_executed" if any(done) else "failed"


def _no_link(action: ToolAction, result: Any) -> str | None:
    return None


def _load_checker() -> Callable[[str, Mapping[str, Any]], None] | None:
    # Imported lazily: toolkits.schemas loads a large JSON snapshot and may not exist yet.
    try:
        module = importlib.import_module("toolkits.schemas")
    except ModuleNotFoundError as exc:
        if exc.name in ("toolkits.schemas", "toolkits"):
            return None
        raise
    checker = getattr(module, "check_arguments", None)
    return cast("Callable[[str, Mapping[str, Any]], None]", checker) if callable(checker) else None


class Executor:
    """Executes confirmed drafts.

    Args:
        store: the draft store.
        backend: runs Composio tool slugs.
        concurrency: how many independent actions of one draft may call the backend at once.
        wait_for_running_s: how long a caller that lost the race waits for the winner's outcome.
        link_for: builds a person-facing link from an action and its result data.
        poll_interval_s: how often a loser polls when the winner is another process.

    Raises:
        ValueError: `concurrency` < 1.
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
    ) -> None:
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self._store = store
        self._backend = backend
        self._concurrency = concurrency
        self._wait_s = wait_for_running_s
        self._link_for = link_for or _no_link
        self._poll_s = poll_interval_s
        self._running: dict[str, asyncio.Event] = {}
        self._tasks: set[asyncio.Task[Draft | None]] = set()

    async def execute(self, draft_id: str, user_id: str) -> Draft | None:
        """Run a confirmed draft once; any other call returns the stored state, calling nothing.

        A caller that finds the draft executing elsewhere waits (up to `wait_for_running_s`) for its
        final state. A pending, awaiting, cancelled or expired draft comes back unchanged.

        Returns:
            The draft, or None when it is missing or another user's.

        Raises:
            sqlite3.Error (or the store's error type): the store failed. Action failures never raise;
            they are recorded on the draft.
        """
        draft = await self._store.get_draft(draft_id, user_id)
        if draft is None:
            return None
        if draft.status == "confirmed":
            if await self._store.transition(draft_id, user_id, {"confirmed"}, "executing"):
                return await self._start(draft, user_id)
            draft = await self._store.get_draft(draft_id, user_id)
            if draft is None:
                return None
        if draft.status == "executing":
            return await self._wait_for_final(draft, user_id)
        return draft

    async def _start(self, draft: Draft, user_id: str) -> Draft | None:
        event = asyncio.Event()
        self._running[draft.id] = event
        task = asyncio.create_task(self._run(draft, user_id))
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

    async def _run(self, draft: Draft, user_id: str) -> Draft | None:
        count = len(draft.actions)
        settled = [asyncio.Event() for _ in range(count)]
        outcomes: dict[int, _Outcome] = {}
        gate = asyncio.Semaphore(self._concurrency)

        async def run_one(action: DraftAction) -> None:
            outcome = _Outcome("failed", error=INTERNAL_ERROR)
            try:
                outcome = await self._settle(draft.id, action, settled, outcomes, gate)
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

        await asyncio.gather(*(run_one(action) for action in draft.actions))
        final = _final_state(outcomes[i].status for i in range(count))
        if not await self._store.transition(draft.id, user_id, {"executing"}, final):
            logger.error("draft %s: could not move from executing to %s", draft.id, final)
        return await self._store.get_draft(draft.id, user_id)

    async def _settle(
        self,
        draft_id: str,
        action: DraftAction,
        settled: list[asyncio.Event],
        outcomes: dict[int, _Outcome],
        gate: asyncio.Semaphore,
    ) -> _Outcome:
        deps = _refs(action.args) | ({action.depends_on} if action.depends_on is not None else set())
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
                arguments = _substitute(action.args, {dep: outcomes[dep].result for dep in deps})
            except _Unresolvable as exc:
                return await self._record(draft_id, action, _Outcome("failed", error=str(exc)))
            if action.read_only:
                await self._store.record_action(draft_id, action.index, "running")
                return await self._record(draft_id, action, await self._call(action, arguments, None))
            claim = await self._store.ledger_claim(
                action.idempotency_scope, draft_id, action.index, payload_sha(action.tool_slug, arguments)
            )
            if not claim.claimed:
                if claim.state == "succeeded":
                    return await self._record(draft_id, action, _Outcome("already_done", claim.result))
                return await self._record(draft_id, action, _Outcome("unknown", error=IN_PROGRESS))
            await self._store.record_action(draft_id, action.index, "running")
            return await self._record(draft_id, action, await self._call(action, arguments, draft_id))

    async def _call(self, action: ToolAction, arguments: dict[str, Any], claimed_by: str | None) -> _Outcome:
        """One backend call; with `claimed_by`, its ledger claim is settled before returning."""
        outcome: _Outcome
        ledger: Literal["succeeded", "failed", "unknown"]
        try:
            raw = await self._backend.execute(action.tool_slug, arguments)
            if raw["successful"]:
                outcome, ledger = _Outcome("succeeded", raw.get("data")), "succeeded"
            else:
                outcome, ledger = (
                    _Outcome("failed", error=raw.get("error") or "the tool call failed"),
                    "failed",
                )
        except OutcomeUnknown as exc:
            # The request may have been applied: never retried blindly (reconcile first).
            message = str(exc) or "the outcome of the call is unknown"
            status = "failed" if claimed_by is None else "unknown"  # a read changed nothing
            outcome, ledger = _Outcome(status, error=message), "unknown"
        except ToolkitError as exc:
            outcome, ledger = _Outcome("failed", error=str(exc)), "failed"
        except Exception:
            logger.exception("backend call %s failed unexpectedly", action.tool_slug)
            # Nobody knows whether the request left, so the scope stays blocked ("unknown").
            outcome, ledger = _Outcome("failed", error=INTERNAL_ERROR), "unknown"
        if claimed_by is not None:
            await self._store.ledger_finish(
                action.idempotency_scope, ledger, outcome.result, outcome.error, draft_id=claimed_by
            )
        return outcome

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
        checker = _load_checker()
        done = await self._store.ledger_lookup(
            [a.idempotency_scope for a in draft.actions if not a.read_only]
        )
        requests: list[dict[str, Any]] = []
        for action in draft.actions:
            entry = None if action.read_only else done.get(action.idempotency_scope)
            requests.append(
                {
                    "index": action.index,
                    "tool_slug": action.tool_slug,
                    "arguments": copy.deepcopy(action.args),
                    "idempotency_scope": action.idempotency_scope,
                    "would_skip": entry is not None and entry.state == "succeeded",
                    "problems": _problems(checker, action),
                }
            )
        return requests


def _problems(checker: Callable[[str, Mapping[str, Any]], None] | None, action: ToolAction) -> list[str]:
    if checker is None:
        return []
    try:
        checker(action.tool_slug, action.args)
    except InvalidArguments as exc:
        return list(exc.problems)
    except ToolkitError as exc:
        return [str(exc)]
    except Exception:
        logger.exception("argument check failed for %s", action.tool_slug)
        return [INTERNAL_ERROR]
    return []
