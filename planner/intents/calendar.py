"""Timeblocks and meetings (seed 000: `timeblock_create`), as Google Calendar events."""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta

from planner.analysis import Clause, head_of
from planner.context import BuildContext
from planner.dates import extract_moment, parse_duration_answer, range_start
from planner.intents import rule
from planner.intents._common import strip_fillers, strip_spans
from planner.text import lemma
from toolkits.googlecalendar import ops

__all__ = ["ask_duration", "ask_start", "timeblock"]

Q_DURATION = ("На сколько минут поставить блок?", "How many minutes should the block last?")
Q_START = ("На какое время поставить блок?", "What time should the block start?")


def ask_duration(ctx: BuildContext) -> int:
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
            return _at(ctx, m.day or default_day, m.at)
    raise ctx.ask("start", ctx.t(*Q_START))


def _at(ctx: BuildContext, day: object, at: object) -> datetime:
    from datetime import date, time

    assert isinstance(at, time)
    d = day if isinstance(day, date) else ctx.now.date()
    start = datetime.combine(d, at, tzinfo=ctx.now.tzinfo)
    if day is None and start < ctx.now:
        start += timedelta(days=1)  # "в 9" said at noon means tomorrow's 9:00
    return start


def _title(clause: Clause, ctx: BuildContext, meeting: bool) -> str:
    if clause.after_colon and not meeting:
        return clause.after_colon[:120]
    if (
        not meeting
    ):  # "поставь мне блок завтра в десять на час подготовиться к демо" -> "Блок: подготовиться к демо"
        spans = list(clause.moment.spans) + ([clause.duration_span] if clause.duration_span else [])
        rest = re.sub(
            r"(?i)\b(?:э+|ну|слушай|а|пожалуйста|please|поставь|поставить|заблокируй|забронируй|запланируй|put|set|"
            r"book|block|блок\w*|time\s*block|focus(?=\s+(?:block|time)\b)|мне|me|a|an|the|for|на|в|с|from|под|on|my|calendar|календар\w*)\b",
            " ",
            strip_fillers(strip_spans(clause.text, spans)),
        )
        rest = re.sub(r"\s{2,}", " ", rest).strip(" ,.;:-—")
        block = ctx.t("Блок", "Focus block")
        return f"{block}: {rest}"[:120] if len(rest) >= 3 else block
    spans = list(clause.moment.spans) + ([clause.duration_span] if clause.duration_span else [])
    s = strip_fillers(strip_spans(clause.text, spans))
    s = re.sub(
        r"^\s*(?:пожалуйста\s+)?(?:запланируй|назначь|поставь|создай|добавь|schedule|book|set up|create|add|put)"
        r"\s+(?:a|an|the|мне)?\s*",
        "",
        s,
        flags=re.IGNORECASE,
    )
    s = re.sub(r"\s{2,}", " ", s).strip(" ,.;:-—")
    head, _, rest = s.partition(" ")
    if re.fullmatch(r"[а-яё]+", head, re.I):
        head = lemma(head)  # "поставь встречу с Джейн" -> "Встреча с Джейн"
    s = f"{head} {rest}".strip()
    return (s[:1].upper() + s[1:])[:120] or ctx.t("Встреча", "Meeting")


@rule(10)
async def timeblock(clause: Clause, ctx: BuildContext) -> bool:
    meeting = clause.has("meeting")
    if not (clause.has("block") or meeting) or (
        clause.has("query") and not clause.has("create", "put", "schedule")
    ):
        return False
    if clause.after_colon is not None:  # "issues for DES: …, FAQ block", "заметка: …созвоны с утра"
        head = head_of(clause, ctx.now)
        if not (head.has("block") or head.has("meeting")) and (head.has("note", "issue", "task", "comment")):
            return False
    minutes = clause.duration or ask_duration(ctx)
    ranged = range_start(clause.text)
    if clause.moment.at is None and ranged is not None:  # "завтра с 16 до 17"
        clause.moment.at = time(*ranged)
    if clause.moment.at is not None:
        start = _at(ctx, clause.moment.day, clause.moment.at)
    else:
        start = ask_start(ctx, clause.moment.day)
    title = _title(clause, ctx, meeting)
    defaults = ctx.config.get("defaults", {})
    iso = start.isoformat(timespec="seconds")
    when = start.strftime("%d.%m %H:%M") if ctx.lang == "ru" else start.strftime("%b %d, %H:%M")
    preview = ctx.t(
        f"Календарь: «{title}» {when}, {minutes} мин", f"Calendar: '{title}' {when}, {minutes} min"
    )
    ctx.add(
        ops.create_event(
            start_iso=iso,
            minutes=minutes,
            summary=title,
            timezone=ctx.tz,
            calendar_id=str(defaults.get("calendar", "primary")),
            preview=preview,
        )
    )
    ctx.summary_parts.append(preview)
    return True
