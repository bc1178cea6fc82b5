"""Timeblocks and meetings (seed 000: `timeblock_create`), as Google Calendar events."""

from __future__ import annotations

import re
from datetime import time

from planner import references as refs
from planner.analysis import Clause, head_of
from planner.context import BuildContext
from planner.dates import range_start
from planner.directory import Entity
from planner.intents.models import CreateEvent
from planner.rules import rule
from planner.rules._common import find, strip_fillers, strip_spans
from planner.text import lemma

__all__ = ["timeblock"]


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


async def _attendees(clause: Clause, ctx: BuildContext) -> list[Entity]:
    """People a meeting is with ("with Jane Doe", "с Олегом"): colleagues and CRM contacts with an email."""
    found: list[Entity] = []
    for m in re.finditer(r"(?i)\b(?:with|с|со)\s+([^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*)?)", clause.text):
        words = m.group(1)
        hits = [
            x
            for kind in ("member", "person")
            for x in await find(ctx, clause, kind, text=words)
            if x.score >= (0.5 if kind == "member" else 0.9)
            and (x.entity.extra.get("email") or x.entity.extra.get("emails"))
        ]
        hits.sort(key=lambda x: -x.score)  # "с Иваном Петровым" is Ivan Petrov, not Oleg Ivanov by half
        if hits and hits[0].entity not in found:
            found.append(hits[0].entity)
    return found


@rule(10, writes=True)
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
    ranged = range_start(clause.text)
    at = clause.moment.at or (time(*ranged) if ranged is not None else None)  # "завтра с 16 до 17"
    start = None
    if at is not None:
        start = refs.at(ctx, clause.moment.day, at).isoformat(timespec="seconds")
    elif clause.moment.day is not None:
        start = clause.moment.day.isoformat()  # the time is asked for, after the duration (seed 000)
    minutes = clause.duration if clause.duration and clause.duration <= 24 * 60 else None
    attendees = await _attendees(clause, ctx) if meeting else []
    await ctx.emit(
        CreateEvent(
            start=start,
            duration_minutes=minutes,
            title=_title(clause, ctx, meeting),
            attendees=[a.name for a in attendees] or None,
        )
    )
    return True
