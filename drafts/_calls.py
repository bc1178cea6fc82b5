"""How one action meets the backend: bounded retries of transient failures, and, for a write whose
outcome is unknown, grace period -> reconcile -> at most one more attempt (DESIGN §7).

Retry classification (reliability notes §4.1), for `UpstreamUnavailable` and its `OutcomeUnknown`:

    reads                               retry (a read changes nothing)
    Retry-After above the cap           never retry: report "try later" instead of blocking
    writes, OutcomeUnknown              never retry blindly: reconcile first
    asserts, updates, client-id creates retry (sending them twice cannot duplicate anything)
    other writes, with Retry-After      retry (the remote refused the call: nothing was applied)
    other writes, without Retry-After   treat as unknown (a bare 5xx may have been applied)

Everything else (`UpstreamRejected`, `InvalidArguments`, `successful: false`) is final at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    stop_after_delay,
    wait_random_exponential,
)

from toolkits.base import Backend, ToolAction, ToolResult
from toolkits.errors import OutcomeUnknown, ToolkitError, UpstreamUnavailable
from toolkits.reconcile import Reconciled, lever, reconcile, refused_as_duplicate, retry_safe

__all__ = ["INTERNAL_ERROR", "CallOutcome", "Caller", "default_retrying", "unknown_message"]

logger = logging.getLogger(__name__)

INTERNAL_ERROR = "internal error"
RETRY_AFTER_CAP_S = 30.0
_SYSTEMS = {"attio": "Attio", "linear": "Linear", "googlecalendar": "Google Calendar"}

Emit = Callable[[str], None]
LedgerState = Literal["succeeded", "failed", "unknown"]


def default_retrying() -> AsyncRetrying:
    """Full-jitter backoff from 0.5 s capped at 8 s; at most 4 attempts or 60 s (reliability §4.1)."""
    return AsyncRetrying(
        stop=stop_after_attempt(4) | stop_after_delay(60),
        wait=wait_random_exponential(multiplier=0.5, max=8),
        reraise=True,
    )


@dataclass(frozen=True)
class CallOutcome:
    """A settled call. `ledger` differs from `status` only for an internal error: nobody knows
    whether that request left, so its scope stays blocked as "unknown"."""

    status: LedgerState
    result: Any = None
    error: str | None = None
    ledger: LedgerState | None = None

    @property
    def ledger_state(self) -> LedgerState:
        return self.ledger or self.status


def unknown_message(action: ToolAction, cause: str | None, language: str) -> str:
    """What the person reads when an outcome could not be settled."""
    system = _SYSTEMS.get(action.toolkit, action.toolkit.title())
    created = action.operation.startswith("create_")
    if language == "ru":
        what = "это уже создано" if created else "изменение уже применено"
        advice = f"Результат неизвестен: возможно, {what} в {system}; проверьте там, прежде чем повторять."
    else:
        what = "it may already exist" if created else "the change may already have been applied"
        advice = f"The outcome is unknown: {what} in {system}; check there before retrying."
    return f"{cause.rstrip('. ')}. {advice}" if cause else advice


def _ambiguous(action: ToolAction, exc: UpstreamUnavailable) -> bool:
    """Whether this failure of a write may have been applied remotely."""
    if isinstance(exc, OutcomeUnknown):
        return True
    return not retry_safe(action) and exc.retry_after is None


def _transient(action: ToolAction, exc: BaseException, cap_s: float) -> bool:
    if not isinstance(exc, UpstreamUnavailable):
        return False
    if exc.retry_after is not None and exc.retry_after > cap_s:
        return False
    if action.read_only:
        return True
    return not _ambiguous(action, exc)


class _RetryingReads:
    """The backend as `reconcile` sees it: every read retried by the policy."""

    def __init__(self, caller: Caller) -> None:
        self._caller = caller
        self.name = caller.backend.name

    async def execute(self, slug: str, arguments: Mapping[str, Any]) -> ToolResult:
        probe = ToolAction(
            toolkit="",
            tool_slug=slug,
            operation="reconcile",
            args=dict(arguments),
            read_only=True,
            idempotency_scope="",
            preview="",
        )
        return await self._caller.send(probe)

    async def aclose(self) -> None:
        return None


class Caller:
    """Makes an action's calls under the retry policy and the unknown-outcome rules.

    Args:
        backend: the backend.
        retrying: the policy's stop, wait and sleep (tests pass `wait_none()` or a recording
            sleep); the classification above and Retry-After are applied on top of it.
        grace_s: how long to wait after an unknown outcome before looking: a request whose answer
            was lost may still be applied by the remote meanwhile.
        sleep: awaited for the grace period.
    """

    def __init__(
        self,
        backend: Backend,
        *,
        retrying: AsyncRetrying | None = None,
        grace_s: float = 30.0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        retry_after_cap_s: float = RETRY_AFTER_CAP_S,
    ) -> None:
        self.backend = backend
        self._retrying = retrying or default_retrying()
        self._grace_s = grace_s
        self._sleep = sleep
        self._cap_s = retry_after_cap_s
        self._reads = _RetryingReads(self)

    def _wait(self, state: RetryCallState) -> float:
        seconds = float(self._retrying.wait(state))
        exc = state.outcome.exception() if state.outcome is not None else None
        retry_after = getattr(exc, "retry_after", None)
        if isinstance(retry_after, int | float) and retry_after > seconds:
            seconds = min(float(retry_after), self._cap_s)
        return seconds

    async def send(self, action: ToolAction) -> ToolResult:
        """One logical call, retried while its failure is transient for this kind of action.

        Raises:
            ToolkitError: the last failure once retrying stops (or at once when it is not transient).
        """
        policy = self._retrying.copy(
            retry=retry_if_exception(lambda exc: _transient(action, exc, self._cap_s)),
            wait=self._wait,
            reraise=True,
        )
        async for attempt in policy:
            with attempt:
                return await self.backend.execute(action.tool_slug, action.args)
        raise AssertionError("unreachable: tenacity reraises the last failure")  # pragma: no cover

    async def reconcile(self, action: ToolAction, since: datetime | None = None) -> Reconciled:
        """`toolkits.reconcile.reconcile` with its reads retried; never raises for backend failures.
        `since`: when the request first left (a deal is looked up among records created after it)."""
        found = await reconcile(self._reads, action, since=since)
        if found.state == "unknown":
            logger.warning("could not settle %s: %s", action.idempotency_scope, found.reason)
        return found

    async def read(self, action: ToolAction) -> CallOutcome:
        """Run a read; any failure is final (it changed nothing)."""
        try:
            raw = await self.send(action)
        except ToolkitError as exc:
            return CallOutcome("failed", error=str(exc))
        except Exception:
            logger.exception("backend call %s failed unexpectedly", action.tool_slug)
            return CallOutcome("failed", error=INTERNAL_ERROR)
        return _plain(raw)

    async def write(
        self,
        action: ToolAction,
        *,
        language: str,
        emit: Emit,
        settle_first: bool,
        since: datetime | None = None,
    ) -> CallOutcome:
        """Run a write (arguments resolved, marker applied) to a settled outcome.

        Args:
            settle_first: the request may already have left (recovery after a crash, or an earlier
                attempt whose outcome stayed unknown): reconcile before sending anything; the grace
                period has passed meanwhile.
            since: with `settle_first`, when the earlier request left.
            emit: a test hook, called with "after_remote" whenever a write call returns and with
                "reconciled:<state>" after each reconciliation.
        """
        if settle_first:
            found = await self.reconcile(action, since)
            return await self._after_reconcile(action, found, None, language, emit)
        sent_at = datetime.now(UTC)
        try:
            raw = await self.send(action)
        except UpstreamUnavailable as exc:
            if not _ambiguous(action, exc):
                return CallOutcome("failed", error=str(exc))
            return await self._settle_unknown(action, str(exc), language, emit, sent_at)
        except ToolkitError as exc:
            return CallOutcome("failed", error=str(exc))
        except Exception:
            logger.exception("backend call %s failed unexpectedly", action.tool_slug)
            return CallOutcome("failed", error=INTERNAL_ERROR, ledger="unknown")
        emit("after_remote")
        return await self._interpret(action, raw, language)

    async def _settle_unknown(
        self, action: ToolAction, cause: str, language: str, emit: Emit, sent_at: datetime
    ) -> CallOutcome:
        if lever(action) == "none":
            # Nothing could tell: waiting would only delay the answer.
            return CallOutcome("unknown", error=unknown_message(action, cause, language))
        await self._sleep(self._grace_s)
        found = await self.reconcile(action, sent_at)
        return await self._after_reconcile(action, found, cause, language, emit)

    async def _after_reconcile(
        self, action: ToolAction, found: Reconciled, cause: str | None, language: str, emit: Emit
    ) -> CallOutcome:
        emit(f"reconciled:{found.state}")
        if found.state == "done":
            return CallOutcome("succeeded", found.data)
        if found.state == "unknown":
            return CallOutcome("unknown", error=unknown_message(action, cause, language))
        # "absent" or "rerun_safe": one more attempt, same scope, same marker or client id.
        try:
            raw = await self.send(action)
        except UpstreamUnavailable as exc:
            if _ambiguous(action, exc):
                return CallOutcome("unknown", error=unknown_message(action, str(exc), language))
            return CallOutcome("failed", error=str(exc))
        except ToolkitError as exc:
            return CallOutcome("failed", error=str(exc))
        except Exception:
            logger.exception("backend call %s failed unexpectedly", action.tool_slug)
            return CallOutcome("failed", error=INTERNAL_ERROR, ledger="unknown")
        emit("after_remote")
        return await self._interpret(action, raw, language)

    async def _interpret(self, action: ToolAction, raw: ToolResult, language: str) -> CallOutcome:
        if raw["successful"] or not refused_as_duplicate(action, raw.get("error")):
            return _plain(raw)
        # The id derives from the scope, so "already exists" proves an earlier attempt landed.
        found = await self.reconcile(action)
        if found.state == "done":
            return CallOutcome("succeeded", found.data)
        return CallOutcome("unknown", error=unknown_message(action, raw.get("error"), language))


def _plain(raw: ToolResult) -> CallOutcome:
    if raw["successful"]:
        return CallOutcome("succeeded", raw.get("data"))
    return CallOutcome("failed", error=raw.get("error") or "the tool call failed")
