"""Finishing what a crashed process left behind (the "completer" of reliability notes §1.3).

A process killed while executing leaves its draft "executing" with an expired lease, and maybe
ledger claims "started" (the request may have left). `recover` takes each such draft over (a
compare-and-swap on its lease, so two recovering processes never both work on one) and lets the
executor `resume` it: every possibly-sent action is settled from the ledger or reconciled before
anything is sent again, pending actions run, and the draft reaches its final state. Ledger claims
left "started" by drafts that did finish are settled by reconciling alone (nothing is re-sent).

Call it once at startup, and (`recovery_loop`) every so often while serving, when several server
processes share one database. Running it again when nothing is stuck changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from tenacity import AsyncRetrying

from drafts._calls import Caller, LedgerState
from drafts.executor import EventHook, Executor, LinkFor, resolved_request
from drafts.factory import DraftStore
from drafts.store import StaleClaim
from toolkits.base import Backend

__all__ = ["DEFAULT_LEASE_S", "RecoveredDraft", "RecoveryReport", "SettledClaim", "recover", "recovery_loop"]

logger = logging.getLogger(__name__)

# Executors renew their lease every 10 s (Executor.heartbeat_s); three missed beats mean dead.
DEFAULT_LEASE_S = 30.0


@dataclass(frozen=True)
class RecoveredDraft:
    draft_id: str
    owner: str
    status: str  # the draft's status afterwards (final unless the store failed meanwhile)
    before: tuple[str, ...]  # action statuses as found
    after: tuple[str, ...]


@dataclass(frozen=True)
class SettledClaim:
    scope: str
    draft_id: str
    state: str  # the ledger state recorded ("succeeded", "failed" = not applied, "unknown")


@dataclass(frozen=True)
class RecoveryReport:
    drafts: tuple[RecoveredDraft, ...] = ()
    claims: tuple[SettledClaim, ...] = ()

    @property
    def changed(self) -> bool:
        return bool(self.drafts or self.claims)


async def recover(
    store: DraftStore,
    backend: Backend,
    *,
    grace_s: float,
    lease_s: float = DEFAULT_LEASE_S,
    now: datetime | None = None,
    link_for: LinkFor | None = None,
    retrying: AsyncRetrying | None = None,
    on_event: EventHook | None = None,
) -> RecoveryReport:
    """Finish every draft whose executor died, and settle orphaned ledger claims.

    A draft qualifies when its lease was last renewed more than `lease_s + grace_s` ago: `lease_s`
    proves its executor dead, and `grace_s` covers a request that executor sent just before dying
    and that the remote may still apply, so a lookup afterwards sees it.

    Args:
        store: the draft store (every user's drafts are considered).
        backend: the same backend the executor uses.
        grace_s: the longest time the remote may still apply a request whose client is gone.
        lease_s: how stale a lease must be before its owner counts as dead.
        now: the current time (defaults to the store's clock).
        link_for: builds person-facing links for actions settled now (as the executor's).
        retrying: the retry policy for transient failures (see `drafts._calls`).
        on_event: the executor's test hook.

    Returns:
        What was finished and settled; empty when nothing was stuck.

    Raises:
        sqlite3.Error or psycopg.Error (the store's): the store failed. A backend failure never
        raises: the affected action ends "unknown" or "failed".
    """
    older_than = lease_s + grace_s
    executor = Executor(
        store, backend, link_for=link_for, reconcile_grace_s=grace_s, retrying=retrying, on_event=on_event
    )
    drafts: list[RecoveredDraft] = []
    for draft_id, owner in await store.stuck_drafts(older_than, now=now):
        if not await store.take_over(draft_id, owner, older_than, now=now):
            continue  # another recoverer took it, or it came back to life
        found = await store.get_draft(draft_id, owner)
        finished = await executor.resume(draft_id, owner)
        if found is None or finished is None:
            continue
        drafts.append(
            RecoveredDraft(
                draft_id,
                owner,
                finished.status,
                tuple(a.status for a in found.actions),
                tuple(a.status for a in finished.actions),
            )
        )
        logger.info("recovered draft %s of %s: %s", draft_id, owner, finished.status)
    caller = Caller(backend, retrying=retrying, grace_s=grace_s)
    claims = [
        settled
        for claim in await store.stale_claims(older_than, now=now)
        if (settled := await _settle_claim(store, caller, claim, link_for)) is not None
    ]
    return RecoveryReport(tuple(drafts), tuple(claims))


async def _settle_claim(
    store: DraftStore, caller: Caller, claim: StaleClaim, link_for: LinkFor | None
) -> SettledClaim | None:
    # The draft finished (or vanished) without settling this claim, e.g. the store failed right
    # after the call. Nothing is sent again: the draft is final, so only the truth is recorded.
    draft = None if claim.owner is None else await store.get_draft(claim.draft_id, claim.owner)
    action = None
    if draft is not None and 0 <= claim.action_index < len(draft.actions):
        action = draft.actions[claim.action_index]
    sent = None if draft is None or action is None else resolved_request(draft, action)
    state: LedgerState
    if sent is None:
        state, data, error = "unknown", None, "the action behind this claim can no longer be read"
    else:
        entry = (await store.ledger_lookup([claim.scope])).get(claim.scope)
        since = datetime.fromisoformat(entry.created_at) if entry is not None else None
        found = await caller.reconcile(sent, since)
        if found.state == "done":
            state, data, error = "succeeded", found.data, None
        elif found.state == "unknown":
            state, data, error = "unknown", None, found.reason
        else:  # absent, or safe to run again: a later draft may claim the scope anew
            state, data, error = "failed", None, "not applied (its executor stopped before the answer)"
    if not await store.ledger_settle(claim.scope, claim.draft_id, state, data, error):
        return None
    if draft is not None and action is not None and state == "succeeded" and action.status != "succeeded":
        # The draft's own status is final and stays; the action at least tells the truth.
        link = link_for(action, data) if link_for is not None else None
        await store.record_action(draft.id, action.index, "succeeded", data, None, link)
    return SettledClaim(claim.scope, claim.draft_id, state)


async def recovery_loop(
    store: DraftStore,
    backend: Backend,
    *,
    grace_s: float,
    every_s: float = 60.0,
    lease_s: float = DEFAULT_LEASE_S,
    link_for: LinkFor | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    on_report: Callable[[RecoveryReport], Awaitable[None]] | None = None,
) -> None:
    """Run `recover` now and then every `every_s` seconds until cancelled; failures are logged.
    `on_report` hears of every run that finished or settled something (to audit it, for instance).

    Raises:
        asyncio.CancelledError: when the task running it is cancelled (the only way it ends).
    """
    while True:
        try:
            report = await recover(store, backend, grace_s=grace_s, lease_s=lease_s, link_for=link_for)
            if report.changed and on_report is not None:
                await on_report(report)
        except Exception:
            logger.exception("recovery failed; trying again in %s s", every_s)
        await sleep(every_s)
