"""Structured `command` input from an upstream interpreter (seeds 000/001/002), validated strictly.

Unknown envelope fields are ignored, unknown entity keys stripped, empty strings are null, and an
unknown intent is rejected. Confidence below 0.40 (or `rejected`) is a safe-fail; 0.40-0.75 is a
clarification that restates the interpretation; from 0.75 the required fields are checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from planner.context import BuildContext
from planner.intents._common import priority_of
from planner.intents.calendar import ask_duration, ask_start
from planner.text import detect_language
from toolkits.googlecalendar import ops as gcal
from toolkits.linear import ops as linear

__all__ = [
    "CLARIFY_CONFIDENCE", "EXECUTE_CONFIDENCE", "Command", "CommandError", "build_actions", "command_language",
    "parse_command", "restate",
]  # fmt: skip

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


async def build_actions(cmd: Command, ctx: BuildContext) -> None:
    """The actions of a confident command, or the one question its missing fields need (raises Ask)."""
    e = cmd.entities
    if cmd.intent == "timeblock_create":
        minutes = _int(e.get("duration_minutes"))
        start = _parse_dt(e.get("start_at"), ctx)
        end = _parse_dt(e.get("end_at"), ctx)
        if minutes is None and start and end and end > start:
            minutes = int((end - start).total_seconds() // 60)
        minutes = minutes or ask_duration(ctx)
        start = start or ask_start(ctx)
        title = str(e.get("title") or ctx.t("Блок", "Focus block"))[:120]
        when = start.strftime("%d.%m %H:%M")
        ctx.add(
            gcal.create_event(
                start_iso=start.isoformat(timespec="seconds"),
                minutes=minutes,
                summary=title,
                timezone=ctx.tz,
                calendar_id=str(e.get("calendar_id") or "primary"),
                preview=ctx.t(
                    f"Календарь: «{title}» {when}, {minutes} мин",
                    f"Calendar: '{title}' {when}, {minutes} min",
                ),
            )
        )
        return
    task_title = str(e["title"]) if e.get("title") else (ctx.answer("title") or "").strip()
    if not task_title:
        raise ctx.ask("title", ctx.t("Как назвать задачу?", "What should the task be called?"))
    defaults = ctx.config.get("defaults", {})
    teams = await ctx.directory.teams()
    team = next(
        (t for t in teams if t.extra.get("key") == defaults.get("linear_team")),
        teams[0] if teams else None,
    )
    if team is None:
        raise ctx.ask("team", ctx.t("В какой команде Linear?", "Which Linear team?"))
    planned = _parse_dt(e.get("planned_at") or e.get("due_date"), ctx)
    if planned is None and isinstance(e.get("planned_at") or e.get("due_date"), str):
        raw = str(e.get("planned_at") or e.get("due_date"))
        planned = (
            _parse_dt(raw[:10] + "T00:00:00", ctx) if re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw[:10]) else None
        )
    state_id = None
    if planned is None:
        states = await ctx.directory.states(team.id)
        inbox = next((st for st in states if st.name == defaults.get("inbox_state", "Triage")), None)
        state_id = inbox.id if inbox else None
    prio = e.get("priority")

    priority = prio if isinstance(prio, int) and 0 <= prio <= 4 else priority_of(str(prio)) if prio else None
    fields = {
        "teamId": team.id,
        "title": task_title[:255],
        "dueDate": planned.date().isoformat() if planned else None,
        "stateId": state_id,
        "priority": priority,
    }
    key = team.extra.get("key")
    ctx.add(
        linear.create_issue(
            [str(ctx.memory.get("plan_id")), "0", "0"],
            fields,
            ctx.t(f"Linear {key}: новая задача «{task_title}»", f"Linear {key}: new issue '{task_title}'"),
        )
    )


def command_language(command: Any) -> str:
    """Commands come from a Russian-first ML contract: Russian unless the title is clearly English."""
    if isinstance(command, dict):
        ent = command.get("entities")
        title = ent.get("title") if isinstance(ent, dict) else None
        if isinstance(title, str) and len(re.findall(r"[A-Za-z]", title)) >= 4:
            return detect_language(title)
    return "ru"


def restate(cmd: Command, ctx: BuildContext) -> str:
    title = cmd.entities.get("title")
    if cmd.intent == "timeblock_create":
        return ctx.t(f"поставить блок «{title or 'Блок'}»", f"create a time block '{title or 'Focus block'}'")
    return (
        ctx.t(f"создать задачу «{title}»", f"create a task '{title}'")
        if title
        else ctx.t("создать задачу", "create a task")
    )


def _int(v: Any) -> int | None:
    try:
        n = int(v)
    except (TypeError, ValueError):
        return None
    return n if 0 < n <= 24 * 60 else None


def _parse_dt(v: Any, ctx: BuildContext) -> datetime | None:
    if not isinstance(v, str):
        return None
    try:
        dt = datetime.fromisoformat(v.replace("Z", "+00:00"))
    except ValueError:
        return None
    tz = ZoneInfo(ctx.tz)
    return dt.replace(tzinfo=tz) if dt.tzinfo is None else dt.astimezone(tz)
