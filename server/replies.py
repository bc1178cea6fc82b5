"""The one reply every tool returns (DESIGN §4), and helpers that build it."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from drafts import Draft
from planner.models import Choice, Plan

__all__ = ["Reply", "Status"]

Status = Literal[
    "answered", "needs_clarification", "draft_pending", "needs_bulk_confirmation", "confirmed", "executing",
    "executed", "partially_executed", "failed", "cancelled", "expired", "safe_fail", "dry_run",
]  # fmt: skip


class Reply(BaseModel):
    """What a tool returns. `user_message` is for the person, in their language; `plan`/`draft` carry
    the details; `results` holds data returned by reads or by execution."""

    ok: bool
    status: Status
    user_message: str | None = None
    clarifying_question: str | None = None
    question_id: str | None = Field(default=None, description="id of the open question, to pass to `pick`")
    choices: list[Choice] = []
    plan: Plan | None = None
    draft: Draft | None = None
    results: list[Any] | None = None

    def text(self) -> str:
        """A short text for clients that read text content."""
        parts = [p for p in (self.user_message, self.clarifying_question) if p]
        if self.choices:
            parts.append(" | ".join(f"{c.label} [{c.value}]" for c in self.choices))
        if self.draft is not None:
            parts.append(f"draft {self.draft.id}: {self.draft.status}")
        return "\n".join(parts) or self.status
