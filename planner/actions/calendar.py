"""Calendar intents -> actions: timeblocks and meetings as Google Calendar events (seed 000's
`timeblock_create`: the duration is asked first, then the start)."""

from __future__ import annotations

import re
from datetime import datetime

from planner import references as refs
from planner._lazy_re import LazyRe
from planner.actions import builds
from planner.context import BuildContext
from planner.dates import extract_moment, parse_duration_answer
from planner.intents.models import CreateEvent
from planner.resolve import find_mentions, fits_a_full_name, keys_for
from toolkits.googlecalendar import ops

__all__ = ["Q_DURATION", "Q_START", "ask_duration", "ask_start", "event_action"]

Q_DURATION = ("На сколько минут поставить блок?", "How many minutes should the block last?")
Q_START = ("На какое время поставить блок?", "What time should the block start?")
_EMAIL = LazyRe(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")


def ask_duration(ctx: BuildContext) -> int:
    """Seed 000's question, in its words (a meeting is a timeblock_create too: the seed names both)."""
    answered = ctx.answer("duration")
    if answered is not None:
        minutes = parse_duration_answer(answered)
        if minutes:
            return minutes
    raise ctx.ask(
        "duration",
        ctx.t(*Q_DURATION),
        choices=[("15", "15"), ("30", "30"), ("45", "45"), ("60", "60"), ("90", "90")],
    )


def ask_start(ctx: BuildContext, default_day: object = None) -> datetime:
    answered = ctx.answer("start")
    if answered is not None:
        m = extract_moment(answered, ctx.now)
        bare = re.fullmatch(r"\s*(\d{1,2})(?:[:.](\d{2}))?\s*", answered)
        if m.at is None and bare and int(bare.group(1)) < 24:
            m.at = datetime.min.time().replace(hour=int(bare.group(1)), minute=int(bare.group(2) or 0))
        if m.at is not None:
            from datetime import date

            return refs.at(ctx, m.day or (default_day if isinstance(default_day, date) else None), m.at)
    raise ctx.ask("start", ctx.t(*Q_START))


async def _attendees(ctx: BuildContext, names: list[str]) -> list[str]:
    """Names resolved to emails among colleagues and CRM contacts; a name that fits several ("с
    Иваном": a contact's first name, a colleague's surname) is a question, never a guess."""
    out: list[str] = []
    members, people = await ctx.directory.members(), await ctx.directory.people()
    reachable = [e for e in [*members, *people] if e.extra.get("email") or e.extra.get("emails")]
    for i, name in enumerate(names):
        if _EMAIL.match(name):
            out.append(name.lower())
            continue
        slot = "attendees" if i == 0 else f"attendees{i + 1}"
        found = [m for m in find_mentions(keys_for(name), reachable) if m.score >= 0.5]
        found = [m for m in found if fits_a_full_name(name, m)]
        chosen = (
            ctx.choose(
                slot,
                "person",
                name,
                found,
                ctx.t(f"Кого вы имеете в виду под «{name}»?", f"Who is '{name}'?"),
            )
            if found
            else None
        )
        if chosen is None:  # a reference that matches nobody is a question with the nearest, never a guess
            answered = ctx.answer(slot)
            if answered and _EMAIL.match(answered):
                out.append(answered.lower())
                continue
            if answered == "none":  # "no invitation": the event without them
                continue
            raise ctx.ask(
                slot,
                ctx.t(f"Кого вы имели в виду под «{name}»? Выберите или напишите email.",
                      f"Who is '{name}'? Pick one or type an email."),
                choices=[
                    *((e.name, str(e.extra.get("email") or e.extra["emails"][0])) for e in reachable[:5]),
                    (ctx.t("Без приглашения", "Don't invite"), "none"),
                ],
                free_text=True,
                risk="ambiguous",
            )  # fmt: skip
        out.append(str(chosen.extra.get("email") or (chosen.extra.get("emails") or [""])[0]))
    return list(dict.fromkeys(x for x in out if x))


def event_action(
    ctx: BuildContext,
    start: datetime,
    minutes: int,
    title: str,
    attendees: list[str],
    description: str | None,
) -> None:
    defaults = ctx.config.get("defaults", {})
    when = ctx.said_day(start.isoformat(timespec="seconds"))
    who = f", {', '.join(attendees)}" if attendees else ""
    preview = ctx.t(
        f"Календарь: «{title}» {when}, {minutes} мин{who}", f"Calendar: '{title}' {when}, {minutes} min{who}"
    )
    ctx.add(
        ops.create_event(
            start_iso=start.isoformat(timespec="seconds"),
            minutes=minutes,
            summary=title,
            timezone=ctx.tz,
            calendar_id=str(defaults.get("calendar", "primary")),
            preview=preview,
            attendees=attendees,
            description=description,
        )
    )
    ctx.summary_parts.append(preview)


@builds("create_event")
async def create_event(intent: CreateEvent, ctx: BuildContext) -> None:
    day, clock = refs.when(ctx, intent.start, "start") if intent.start else (None, None)
    minutes = intent.duration_minutes
    if minutes is None and intent.end and clock is not None:
        end_day, end_clock = refs.when(ctx, intent.end, "end")
        if end_clock is not None:
            start = refs.at(ctx, day, clock)
            end = datetime.combine(end_day or start.date(), end_clock, tzinfo=start.tzinfo)
            minutes = int((end - start).total_seconds() // 60) if end > start else None
    minutes = minutes or ask_duration(ctx)
    start = refs.at(ctx, day, clock) if clock is not None else ask_start(ctx, day)
    title = (intent.title or ctx.t("Блок", "Focus block"))[:120]
    attendees = await _attendees(ctx, intent.attendees or [])
    event_action(ctx, start, minutes, title, attendees, intent.description)
