"""Structured `command` input from an upstream interpreter (seeds 000/001/002), validated strictly
and read as intents: `task_create` is `create_issue`, `timeblock_create` is `create_event`.

Unknown envelope fields are ignored, unknown entity keys stripped, empty strings are null, and an
unknown intent is rejected. The confidence travels with the intents, so seed 001's thresholds are
the pipeline's own: below 0.40 (or `rejected`) a safe-fail; 0.40-0.75 a question that restates the
interpretation; from 0.75 the required fields are checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from planner.context import BuildContext
from planner.intents import MISSING, IntentBase
from planner.intents.models import CreateEvent, CreateIssue, priority_name
from planner.rules._common import priority_of
from planner.text import detect_language

__all__ = [
    "Command", "CommandError", "command_intents", "command_language", "parse_command",
]  # fmt: skip

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
    # any reference the client's model could not settle (task_ref, person_ref, …) is the one question asked
    said_refs = [v for k, v in entities.items() if isinstance(k, str) and k.endswith("_ref")]
    for ref in (raw.get("task_ref"), entities.get("task_ref"), *said_refs, raw):
        if isinstance(ref, dict) and isinstance(ref.get("candidates"), list):
            candidates = [c for c in ref["candidates"] if isinstance(c, dict) and c.get("id")][:5]
            chosen = _clean(ref.get("chosen_id")) if isinstance(ref.get("chosen_id"), str) else None
            break
    if intent not in INTENTS:
        raise CommandError(f"unknown intent '{intent[:40]}'")
    return Command(intent, float(conf), clean, rejected, candidates, chosen)


def command_intents(cmd: Command, ctx: BuildContext) -> list[IntentBase]:
    """The command as intents, carrying its confidence (seed 001's thresholds then apply to them), or
    the one question its candidates need (raises Ask).

    Raises:
        CommandError: an entity value that no intent can hold (a 10 MB title, a duration of a year).
    """
    e = cmd.entities
    if cmd.candidates and not cmd.chosen_id and not ctx.answer("candidate") and cmd.confidence >= 0.40:
        raise ctx.ask(
            "candidate",
            ctx.t("Что именно вы имели в виду?", "Which one did you mean?"),
            choices=[
                (str(c.get("name") or c.get("label") or c.get("title") or c["id"]), str(c["id"]))
                for c in cmd.candidates
            ],
            free_text=False,
            risk="ambiguous",
        )
    try:
        if cmd.intent == "timeblock_create":
            intent: IntentBase = CreateEvent(
                start=_text(e.get("start_at")),
                end=_text(e.get("end_at")),
                duration_minutes=_int(e.get("duration_minutes")),
                title=_text(e.get("title")),
                description=_text(e.get("description")),
                confidence=cmd.confidence,
            )
        else:
            planned = _text(e.get("planned_at") or e.get("due_date"))
            prio = e.get("priority")
            intent = CreateIssue(
                title=str(e.get("title") or MISSING),
                due=planned,
                priority=priority_name(prio if isinstance(prio, int) else priority_word(str(prio)))
                if prio
                else None,
                description=_text(e.get("description")),
                confidence=cmd.confidence,
            )
    except ValidationError as exc:
        field = ".".join(str(x) for x in exc.errors()[0]["loc"])
        raise CommandError(f"entities.{field}: {exc.errors()[0]['msg']}") from exc
    return [intent]


def priority_word(text: str) -> str | None:
    number = priority_of(text)
    return {1: "urgent", 2: "high", 3: "medium", 4: "low"}.get(number) if number else None


def _text(v: Any) -> str | None:
    return str(v)[:100] if v not in (None, "") else None


def command_language(command: Any) -> str:
    """Commands come from a Russian-first ML contract: Russian unless the title is clearly English."""
    if isinstance(command, dict):
        ent = command.get("entities")
        title = ent.get("title") if isinstance(ent, dict) else None
        if isinstance(title, str) and len(re.findall(r"[A-Za-z]", title)) >= 4:
            return detect_language(title)
    return "ru"


def _int(v: Any) -> int | None:
    try:
        n = int(v)
    except (TypeError, ValueError):
        return None
    return n if 0 < n <= 24 * 60 else None
