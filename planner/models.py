"""Plan and its parts, with seed 003's field names (plus `operation`/`depends_on` on actions)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from toolkits.base import ToolAction

__all__ = [
    "Candidate",
    "Choice",
    "ClarificationQuestion",
    "Domain",
    "EntityRef",
    "Plan",
    "PlanInputs",
    "RiskFlag",
    "ToolAction",
    "Voice",
]

Domain = Literal["attio", "linear", "mixed", "calendar", "unknown"]


class Voice(BaseModel):
    model_config = ConfigDict(extra="ignore")

    file_id: str | None = Field(default=None, max_length=256)
    transcript: str = Field(max_length=4000)
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)


class PlanInputs(BaseModel):
    raw_text: str
    voice: Voice | None = None


class Candidate(BaseModel):
    id: str
    name: str
    subtitle: str = ""
    url: str | None = None


class EntityRef(BaseModel):
    kind: Literal["deal", "company", "person", "issue", "project", "team", "member", "stage", "label", "task"]
    query: str
    candidates: list[Candidate] = []
    selected_id: str | None = None
    confidence: float = Field(default=0.0, ge=0.0, le=1.0)


class Choice(BaseModel):
    label: str
    value: str = Field(description="at most 64 bytes of UTF-8, so a Telegram button can carry it")


class ClarificationQuestion(BaseModel):
    id: str
    question: str
    choices: list[Choice] = []
    free_text_allowed: bool = True


class RiskFlag(BaseModel):
    kind: Literal["bulk", "destructive", "ambiguous", "missing_required", "rate_limit_risk", "past_date"]
    details: str


class Plan(BaseModel):
    plan_id: str
    intent: Literal["query", "mutate"]
    domain: Domain
    summary: str
    language: Literal["ru", "en"]
    inputs: PlanInputs
    entities: list[EntityRef] = []
    actions: list[ToolAction] = []
    needs_clarification: list[ClarificationQuestion] = []
    risks: list[RiskFlag] = []
    now: str | None = Field(
        default=None, description="the moment relative dates were resolved against (ISO 8601)"
    )
    timezone: str | None = None
    intents: list[dict[str, Any]] = Field(
        default=[], description="what was understood, as intents (DESIGN §5a), whoever produced them"
    )

    def risk_kinds(self) -> set[str]:
        return {r.kind for r in self.risks}

    def write_actions(self) -> list[ToolAction]:
        return [a for a in self.actions if not a.read_only]

    def model_post_init(self, __context: Any) -> None:  # keep intent truthful
        if any(not a.read_only for a in self.actions):
            object.__setattr__(self, "intent", "mutate")
