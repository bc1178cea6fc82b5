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
from planner.resolve import best, key_spans
from planner.rules import rule
from planner.rules._common import _COURTESY, find, strip_fillers, strip_spans
from planner.text import lemma, norm

__all__ = ["timeblock"]


def _title(
    clause: Clause,
    ctx: BuildContext,
    meeting: bool,
    names: list[str] = [],  # noqa: B006 - read only
    for_whom: set[str] = set(),  # noqa: B006 - read only
) -> str:
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
    s = _COURTESY.sub(" ", strip_spans(clause.text, spans))
    # "We need a follow-up with Maria…; she prefers mornings. Please book 30 minutes with her on Monday":
    # the sentence that books it names it, the others are context
    sentences = [x for x in re.split(r"(?<=[.;!?])\s+", s) if x.strip()]
    s = next((x for x in reversed(sentences) if _BOOKING.search(x) or clause_has_meeting(x)), s)
    s = strip_fillers(s)
    s = re.sub(
        r"^\s*(?:(?:запланируй|назначь|поставь|создай|добавь|schedule|book|set up|create|add|put)\s+)+"
        r"(?:(?:a|an|the|мне)\s+)?",
        "",
        s,
        flags=re.IGNORECASE,
    )
    s = re.sub(
        r"(?:\s+(?:on|at|in|for|from|to|by|в|во|на|с|до|к))+\s*[,.;!?]*\s*$",
        "",
        s.strip(" ,.;:-—"),
        flags=re.I,
    )
    s = re.sub(r"\s{2,}", " ", s).strip(" ,.;:-—")
    head, _, rest = s.partition(" ")
    if for_whom and norm(head) in for_whom:  # "поставь Олегу созвон с Initech": the title is the call
        head, _, rest = rest.partition(" ")
    if re.fullmatch(r"[а-яё]+", head, re.I):
        head = lemma(head)  # "поставь встречу с Джейн" -> "Встреча с Джейн"
    s = f"{head} {rest}".strip()
    if not s or re.fullmatch(r"(?i)(?:with|с|со)\s+\S+", s):  # "book 30 minutes with her"
        s = ctx.t("Встреча", "Meeting") + (f" {ctx.t('с', 'with')} {', '.join(names)}" if names else "")
    elif re.match(r"(?i)(?:with|с|со)\s", s):  # "book 30 min with Maria Sokolova"
        s = f"{ctx.t('Встреча', 'Meeting')} {s}"
    return (s[:1].upper() + s[1:])[:120]


def clause_has_meeting(text: str) -> bool:
    return bool(_MEETING_WORD.search(text) or _EVENT_NOUN.search(text))


_MEETING_WORD = re.compile(
    r"(?i)\b(?:встреч\w*|созвон\w*|собрани\w*|meeting|call|sync|синк\w*|appointment|митинг\w*)\b"
)


async def _attendees(clause: Clause, ctx: BuildContext) -> tuple[list[Entity | str], set[str]]:
    """People a meeting is with ("with Jane Doe", "с Олегом"): colleagues and CRM contacts with an
    email; and a colleague it is booked for ("поставь Олегу созвон", "a meeting for Max with …"), who
    would not know of it otherwise (with the words that named them). The person asking is the
    organiser, never an attendee."""
    found: list[Entity | str] = []
    taken: list[tuple[int, int]] = []  # the words after "with": whoever they named, they are spoken for
    for m in re.finditer(r"(?i)\b(?:with|с|со)\s+([^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*)?)", clause.text):
        words = m.group(1)
        taken.append(m.span(1))
        hits = [
            x
            for kind in ("member", "person")
            for x in await find(ctx, clause, kind, text=words)
            if x.score >= 0.5 and (x.entity.extra.get("email") or x.entity.extra.get("emails"))
        ]
        hits.sort(key=lambda x: (-x.score, -len(x.positions)))  # "с Иваном Петровым": Ivan Petrov
        top = best(hits)
        if len(top) > 1:  # "с Иваном": a contact's first name and a colleague's surname - asked, later
            at = key_spans(words)
            found.append(
                " ".join(words[at[i][0] : at[i][1]] for i in sorted(top[0].positions) if i < len(at))
            )
        elif top and top[0].entity not in found:
            found.append(top[0].entity)
    me = await refs.me_user(ctx)
    spans = key_spans(clause.text)
    for_whom: set[str] = set()
    for hit in await find(ctx, clause, "member"):
        where = [spans[i] for i in sorted(hit.positions) if i < len(spans)]
        if any(a <= x < b for x, _ in where for a, b in taken):
            continue
        said = [clause.text[x:y] for x, y in where]
        named = hit.score >= 0.9 or (
            hit.score >= 0.5 and all(w[:1].isupper() for w in said)
        )  # "Max", not "max"
        mine = me is not None and hit.entity.extra.get("email") == me.extra.get("email")
        if named and not mine and hit.entity.extra.get("email") and hit.entity not in found:
            found.append(hit.entity)
            for_whom.update(norm(w) for w in said)
    return found, for_whom


_BOOKING = re.compile(r"(?i)\b(?:schedule|book|запланируй\w*|запланировать)\b")
_EVENT_NOUN = re.compile(
    r"(?i)(?<![\w-])(?:kick-?off|demo|демо|презентаци\w+|presentation|interview|собеседовани\w+|"
    r"stand-?up|стендап\w*|one-on-one|1:1|catch-?up)(?![\w-])"
)


def _event_like(clause: Clause) -> bool:
    """ "schedule a kickoff with Jane on Dec 3 at 11", "book 30 min with Maria at 10": a booking verb or
    an event's name with a clock time is a calendar event, though no meeting word is said — unless
    an issue, a task or a note is what the clause names."""
    timed = clause.moment.at is not None or range_start(clause.text) is not None
    if not timed or clause.identifiers or clause.has("issue", "task", "note", "comment", "project", "remind"):
        return False
    return bool(_BOOKING.search(clause.text) or _EVENT_NOUN.search(clause.text))


@rule(10, writes=True)
async def timeblock(clause: Clause, ctx: BuildContext) -> bool:
    meeting = clause.has("meeting") or _event_like(clause)
    if not (clause.has("block") or meeting) or (
        clause.has("query") and not clause.has("create", "put", "schedule")
    ):
        return False
    if clause.after_colon is not None:  # "issues for DES: …, FAQ block", "заметка: …созвоны с утра"
        head = head_of(clause, ctx.now)
        if not (head.has("block") or head.has("meeting")) and (head.has("note", "issue", "task", "comment")):
            return False
    ranged = range_start(clause.text)
    at = (time(*ranged) if ranged is not None else None) or clause.moment.at  # "завтра с 9 до 10:30"
    start = None
    if at is not None:
        start = refs.at(ctx, clause.moment.day, at).isoformat(timespec="seconds")
    elif clause.moment.day is not None:
        start = clause.moment.day.isoformat()  # the time is asked for, after the duration (seed 000)
    minutes = clause.duration if clause.duration and clause.duration <= 24 * 60 else None
    attendees, for_whom = await _attendees(clause, ctx) if meeting else ([], set())
    names = [a if isinstance(a, str) else a.name for a in attendees]
    await ctx.emit(
        CreateEvent(
            start=start,
            duration_minutes=minutes,
            title=_title(clause, ctx, meeting, names, for_whom),
            attendees=names or None,
        )
    )
    return True
