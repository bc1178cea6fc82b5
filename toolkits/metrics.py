"""The process's Prometheus metrics, all in one place behind a small API.

Every package may count (this module sits in the bottom layer so `drafts`, `planner` and `server`
can all import it): a tool call and its reply, a Composio call, a ledger outcome, a pacing wait, a
call to the model interpreter. `exposition()` renders them for `GET /metrics`.

`prometheus_client` costs ~65 ms to import, so it is imported on the first count or scrape, never
at start-up: a stdio server answers `tools/list` without it (DESIGN §11 cold-start budget).

Labels are bounded sets (tool names, reply statuses, toolkits, outcomes); never a user, an id or
text, so a series count cannot grow with traffic.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Iterator, Mapping

__all__ = [
    "CONTENT_TYPE",
    "composio_call",
    "composio_request_ids",
    "exposition",
    "interpreter_call",
    "ledger_outcome",
    "pacing_wait",
    "set_drafts",
    "tool_call",
]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# Seconds: a plan is milliseconds, an execute with reconciliation may take a minute.
_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)
_DRAFT_STATES = (
    "pending",
    "awaiting_bulk_confirmation",
    "confirmed",
    "executing",
    "executed",
    "partially_executed",
    "failed",
    "cancelled",
    "expired",
)


class _Metrics:
    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
        from prometheus_client.gc_collector import GCCollector
        from prometheus_client.platform_collector import PlatformCollector
        from prometheus_client.process_collector import ProcessCollector

        self.registry = registry = CollectorRegistry()
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        GCCollector(registry=registry)
        self.tool_seconds = Histogram(
            "planner_tool_duration_seconds",
            "Time to answer one MCP tool call, by tool",
            ["tool"],
            buckets=_LATENCY_BUCKETS,
            registry=registry,
        )
        self.replies = Counter(
            "planner_replies", "Tool replies by tool and status", ["tool", "status"], registry=registry
        )
        self.drafts = Gauge(
            "planner_drafts",
            "Drafts in the database by state (read from the shared database at scrape time)",
            ["state"],
            registry=registry,
        )
        self.ledger = Counter(
            "planner_ledger_outcomes",
            "Side-effect ledger outcomes of write actions (succeeded, failed, unknown, already_done, in_progress)",
            ["outcome"],
            registry=registry,
        )
        self.composio = Counter(
            "planner_composio_calls",
            "Composio HTTP calls (each attempt) by toolkit and outcome",
            ["toolkit", "outcome"],
            registry=registry,
        )
        self.pacing_waits = Counter(
            "planner_pacing_waits", "Calls held back to stay within a toolkit's rate budget", ["toolkit"],
            registry=registry,
        )  # fmt: skip
        self.pacing_seconds = Counter(
            "planner_pacing_wait_seconds", "Seconds spent waiting for a toolkit's rate budget", ["toolkit"],
            registry=registry,
        )  # fmt: skip
        self.interpreter = Counter(
            "planner_interpreter_calls",
            "Calls to the model interpreter by provider and outcome (ok, abstained, refused, invalid, timeout, "
            "error, skipped)",
            ["provider", "outcome"],
            registry=registry,
        )
        for state in _DRAFT_STATES:
            self.drafts.labels(state).set(0)


_lock = threading.Lock()
_metrics: _Metrics | None = None


def _m() -> _Metrics:
    global _metrics
    if _metrics is None:
        with _lock:
            if _metrics is None:
                _metrics = _Metrics()
    return _metrics


def tool_call(tool: str, status: str, seconds: float) -> None:
    """One tool call answered with `status` after `seconds`."""
    m = _m()
    m.tool_seconds.labels(tool).observe(seconds)
    m.replies.labels(tool, status).inc()


def composio_call(toolkit: str, outcome: str, request_id: str | None = None) -> None:
    """One Composio HTTP call (`outcome`: ok, failed, or the error kind). Its request id is kept for
    the tool call's log line when one is being observed (`composio_request_ids`)."""
    _m().composio.labels(toolkit, outcome).inc()
    found = _request_ids.get()
    if found is not None and request_id:
        found.append(request_id)


def ledger_outcome(outcome: str) -> None:
    """A write action's ledger outcome: succeeded, failed, unknown, already_done or in_progress."""
    _m().ledger.labels(outcome).inc()


def pacing_wait(toolkit: str, seconds: float) -> None:
    """A call held back `seconds` to stay within `toolkit`'s rate budget."""
    m = _m()
    m.pacing_waits.labels(toolkit).inc()
    m.pacing_seconds.labels(toolkit).inc(seconds)


def interpreter_call(provider: str, outcome: str) -> None:
    """One request that consulted the model interpreter (`outcome`: ok, abstained, refused, invalid,
    timeout, error, or skipped when the prompt would be over budget)."""
    _m().interpreter.labels(provider, outcome).inc()


def set_drafts(counts: Mapping[str, int]) -> None:
    """Drafts by state, as the database holds them now (states missing from `counts` are 0)."""
    m = _m()
    for state in {*_DRAFT_STATES, *counts}:
        m.drafts.labels(state).set(counts.get(state, 0))


def exposition() -> bytes:
    """Every metric in Prometheus' text format (serve it with `CONTENT_TYPE`)."""
    from prometheus_client import generate_latest

    data: bytes = generate_latest(_m().registry)
    return data


_request_ids: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar(
    "composio_request_ids", default=None
)


@contextlib.contextmanager
def composio_request_ids() -> Iterator[list[str]]:
    """Collect the request ids of the Composio calls made inside this block (and in the tasks and
    threads it starts), for one log line per tool call."""
    found: list[str] = []
    token = _request_ids.set(found)
    try:
        yield found
    finally:
        _request_ids.reset(token)
