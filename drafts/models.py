"""The Draft: a persisted, owner-bound set of write actions waiting for the person's yes.

States (DESIGN §7):

    pending ──(bulk)──> awaiting_bulk_confirmation ──> confirmed ──> executing ──> executed
       │                         │                        │                   ├─> partially_executed
       └────────────┬────────────┘────────────────────────┘                   └─> failed
                    └──> cancelled | expired
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from toolkits.base import ToolAction

__all__ = [
    "ActionStatus",
    "Draft",
    "DraftAction",
    "DraftStatus",
    "FINAL_STATES",
    "OPEN_STATES",
    "TRANSITIONS",
    "is_allowed_transition",
]

DraftStatus = Literal[
    "pending",
    "awaiting_bulk_confirmation",
    "confirmed",
    "executing",
    "executed",
    "partially_executed",
    "failed",
    "cancelled",
    "expired",
]
ActionStatus = Literal["pending", "running", "succeeded", "already_done", "failed", "skipped", "unknown"]

OPEN_STATES: frozenset[str] = frozenset({"pending", "awaiting_bulk_confirmation", "confirmed"})
FINAL_STATES: frozenset[str] = frozenset({"executed", "partially_executed", "failed", "cancelled", "expired"})

# The state graph above as data: the store refuses any transition not listed here, and final states
# absorb (no outgoing edges), so a replayed or late request can never reopen a finished draft.
TRANSITIONS: Mapping[str, frozenset[str]] = {
    "pending": frozenset({"awaiting_bulk_confirmation", "confirmed", "cancelled", "expired"}),
    "awaiting_bulk_confirmation": frozenset({"confirmed", "cancelled", "expired"}),
    "confirmed": frozenset({"executing", "cancelled", "expired"}),
    "executing": frozenset({"executed", "partially_executed", "failed"}),
    "executed": frozenset(),
    "partially_executed": frozenset(),
    "failed": frozenset(),
    "cancelled": frozenset(),
    "expired": frozenset(),
}


def is_allowed_transition(from_state: str, to_state: str) -> bool:
    """Whether the draft state graph has an edge `from_state -> to_state`."""
    return to_state in TRANSITIONS.get(from_state, frozenset())


class DraftAction(ToolAction):
    """A ToolAction plus what happened to it."""

    model_config = ConfigDict(extra="forbid")

    index: int
    status: ActionStatus = "pending"
    result: Any = None
    error: str | None = None
    link: str | None = None


class Draft(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    status: DraftStatus
    plan_id: str
    conversation_id: str | None = None
    summary: str = ""
    language: Literal["ru", "en"] = "en"
    created_at: str
    expires_at: str
    bulk_count: int | None = Field(
        default=None, description="number the person must type to confirm a bulk draft"
    )
    actions: list[DraftAction]
