"""Structured `command` input from an upstream interpreter (seeds 000/001/002), validated strictly.

Unknown envelope fields are ignored, unknown entity keys stripped, empty strings are null, and an
unknown intent is rejected. Confidence below 0.40 (or `rejected`) is a safe-fail; 0.40-0.75 is a
clarification that restates the interpretation; from 0.75 the required fields are checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["CLARIFY_CONFIDENCE", "EXECUTE_CONFIDENCE", "Command", "CommandError", "parse_command"]

CLARIFY_CONFIDENCE = 0.40
EXECUTE_CONFIDENCE = 0.75
INTENTS = {"task_create", "timeblock_create"}
ALIASES = {
    "create_event": "timeblock_create",
    "meeting_create": "timeblock_create",
    "create_task": "task_create",
}
ENTITY_KEYS = {
    "title",
    "planned_at",
    "due_date",
    "start_at",
    "end_at",
    "duration_minutes",
    "tags",
    "priority",
    "calendar_id",
    "description",
}


class CommandError(ValueError):
    """The command is malformed; the message says what to fix."""


@dataclass
class Command:
    intent: str
    confidence: float
    entities: dict[str, Any] = field(default_factory=dict)
    rejected: bool = False
    candidates: list[dict[str, Any]] = field(default_factory=list)
    chosen_id: str | None = None


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return value.strip() or None
    return value


def parse_command(raw: Any) -> Command:
    """Raises:
    CommandError: not an object, a non-numeric confidence, entities not an object, unknown intent.
    """
    if not isinstance(raw, dict):
        raise CommandError("command must be a JSON object")
    if isinstance(raw.get("command"), dict):  # a whole CommandEnvelope was passed
        raw = raw["command"]
    intent = raw.get("intent")
    if not isinstance(intent, str) or not intent.strip():
        raise CommandError("command.intent must be a non-empty string")
    intent = ALIASES.get(intent.strip(), intent.strip())
    conf = raw.get("confidence")
    if isinstance(conf, bool) or not isinstance(conf, int | float) or not 0.0 <= float(conf) <= 1.0:
        raise CommandError("command.confidence must be a number from 0 to 1")
    entities = raw.get("entities", {})
    if entities is None:
        entities = {}
    if not isinstance(entities, dict):
        raise CommandError("command.entities must be an object")
    rejected = raw.get("rejected", False)
    if not isinstance(rejected, bool):
        raise CommandError("command.rejected must be true or false")
    clean = {k: _clean(v) for k, v in entities.items() if k in ENTITY_KEYS}
    clean = {k: v for k, v in clean.items() if v is not None}
    candidates: list[dict[str, Any]] = []
    chosen: str | None = None
    for ref in (raw.get("task_ref"), entities.get("task_ref"), raw):
        if isinstance(ref, dict) and isinstance(ref.get("candidates"), list):
            candidates = [c for c in ref["candidates"] if isinstance(c, dict) and c.get("id")][:5]
            chosen = _clean(ref.get("chosen_id")) if isinstance(ref.get("chosen_id"), str) else None
            break
    if intent not in INTENTS:
        raise CommandError(f"unknown intent '{intent[:40]}'")
    return Command(intent, float(conf), clean, rejected, candidates, chosen)
