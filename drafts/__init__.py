"""drafts: the Draft model and state machine, the store (drafts, plans, side-effect ledger, callback
replies, audit log) on SQLite or PostgreSQL (`open_store`), and the executor that runs a confirmed
draft exactly once."""

from __future__ import annotations

from drafts._requests import unsettled
from drafts.executor import ExecutionStore, Executor, LinkFor, Progress, payload_sha
from drafts.factory import DraftStore, open_store
from drafts.journal import AUDIT_PREVIEW_CHARS, CALLBACK_LEASE_S, LedgerEntry, LedgerState
from drafts.models import (
    FINAL_STATES,
    OPEN_STATES,
    TRANSITIONS,
    ActionStatus,
    Draft,
    DraftAction,
    DraftStatus,
    is_allowed_transition,
)
from drafts.recovery import RecoveryReport, recover, recovery_loop
from drafts.store import SqliteStore

__all__ = [
    "AUDIT_PREVIEW_CHARS",
    "CALLBACK_LEASE_S",
    "FINAL_STATES",
    "OPEN_STATES",
    "TRANSITIONS",
    "ActionStatus",
    "Draft",
    "DraftAction",
    "DraftStatus",
    "DraftStore",
    "ExecutionStore",
    "Executor",
    "LedgerEntry",
    "LedgerState",
    "LinkFor",
    "RecoveryReport",
    "SqliteStore",
    "is_allowed_transition",
    "open_store",
    "Progress",
    "payload_sha",
    "recover",
    "recovery_loop",
    "unsettled",
]
