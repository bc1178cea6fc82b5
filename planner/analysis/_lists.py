"""A heading, then items that are each a request of their own: bullets, a day's plan, reminders, meetings."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

from planner._lazy_re import LazyRe
from planner.analysis._clause import ELLIPTIC, FIELD_SET, Clause, analyse, verb_count

# split_clauses, passed in: an item of a list is split like any message
Split = Callable[[str, datetime], list["Clause"]]

# «напоминалки на завтра: позвонить Джону, отправить счёт в Initech и в 12 созвон с Джейн»: a list of to-dos
_REMINDERS_HEAD = LazyRe(r"(?i)^\s*(?:напоминалк\w*|напоминани[яй]|reminders|to-?dos|дела)\b(?P<when>[^:]*)$")


def reminders_listed(head: str, tail: str, now: datetime, split: Split) -> list[Clause] | None:
    """Each item of a to-do list is a reminder of its own (a meeting in it stays a meeting), on the day
    the heading says."""
    said = _REMINDERS_HEAD.match(head)
    if said is None:
        return None
    items = [
        x.strip(" .;")
        for x in re.split(r"\s*[,;]\s*(?:и\s+|and\s+)?|\s+(?:и|and)\s+", tail)
        if x.strip(" .;")
    ]
    if len(items) < 2:
        return None
    when = said.group("when").strip()
    remind = "напомни" if re.search(r"[а-яё]", tail, re.I) else "remind me to"
    out = []
    for item in items:
        meeting = analyse(item, now).has("meeting")
        out.append(analyse((f"{item} {when}" if meeting else f"{remind} {item} {when}").strip(), now))
    return out


NEXT_LINE = LazyRe(
    r"(?i)^(?:and|then|also|plus|и|а|потом|затем|также|а\s+также|\+)\b|^\+|"
    r"^(?:issue|note|task|deal|meeting|call|задач\w*|заметк\w*|сделк\w*|встреч\w*|созвон\w*)\b"
)
NEXT_LINE_LEAD = LazyRe(r"(?i)^(?:(?:and|then|also|plus|и|а|потом|затем|также|а\s+также)\b|\+)[\s,]*")
_BULLET = LazyRe(r"^\s*(?:[-•*–—]|\d{1,2}[.)])\s+")


_SIGN_OFF = LazyRe(
    r"(?i)(?:(?:that'?s|that\s+is|this\s+is)\s+(?:all|it)|all\s+for\s+now|(?:вот\s+и\s+)?вс[её](?:\s+на\s+сегодня)?|"
    r"(?:на\s+этом\s+)?всё|пока|thanks?|thx|ty|спасибо|спс|cheers)(?:[\s,.!]+(?:thanks?|thx|ty|спасибо|спс|cheers|"
    r"guys|team|всем|коллеги))*[\s.!)]*"
)


_SUBJECT_LINE = LazyRe(r"(?i)^\s*(?:re|fwd?|subject|тема|по\s+теме)\s*:\s*\S")


# "Team update:", "Quick updates:", «Апдейт по команде:»: a heading that names a list, whatever verb its noun is
_NOUN_HEADING = LazyRe(
    r"(?i)[\w\s'’-]{0,30}?\b(?:update|updates|status|recap|summary|plan|todos?|to-dos?|action\s+items|апдейт\w*|"
    r"статус|итоги|план|задачи\s+на\s+\w+)(?:\s+(?:по|for|from|on)\s+[\w\s'’-]{1,30})?\s*:"
)


def bulleted_requests(text: str, now: datetime, split: Split) -> list[Clause] | None:
    """ "- close ENG-101\n- ENG-104 to Max": one request a line, when every bulleted line is one (a verb,
    an issue's identifier, or "new issue in CS: …"); a list of titles under a heading stays a list."""
    lines = [x for x in text.splitlines() if x.strip()]
    if len(lines) > 3 and _SIGN_OFF.fullmatch(lines[-1].strip()):
        lines = lines[:-1]  # "…\nthat's all, thx", «…\nвсё, спасибо»: a list signed off, nothing asked
    # "Re: weekly sync" above the list: what it is about, not asked ("@Oleg FYI" lines are gone: `pasted`)
    if len(lines) > 2 and _SUBJECT_LINE.match(lines[0]):
        lines = lines[1:]
    items = [_BULLET.sub("", x).strip() for x in lines if _BULLET.match(x)]
    numbered = re.split(
        r"(?:^|\s)\(?\d{1,2}\)\s+", text
    )  # "1) заметка к …: … 2) задача в CRM на Макса: …", "(1) …"
    heading = numbered[0].strip()  # «Короче, три вещи: 1) … 2) …»: what the list is, or whom it is about
    # («Acme Corp signed the annual license. 1) Move the deal to Won. 2) …»: told, then the list)
    if (
        len(lines) == 1
        and len(numbered) >= 3
        and (not heading or heading.endswith((":", ".", "!", "—", "–")))
    ):
        items = [x.strip(" ;,.") for x in numbered[1:] if x.strip(" ;,.")]
        lines = items
    elif (
        len(items) >= 2
        and len(items) == len(lines) - 1
        and not _BULLET.match(lines[0])
        and lines[0].rstrip().endswith(":")
        and (not verb_count(analyse(lines[0], now)) or bool(_NOUN_HEADING.fullmatch(lines[0].strip())))
    ):  # "Action items from today's review:\n- Alfa → Won\n- …": a heading that asks nothing, then requests
        heading = lines[0].strip()
        lines = lines[1:]
    elif (
        len(items) >= 2
        and (first := next((i for i, x in enumerate(lines) if _BULLET.match(x)), 0)) > 0
        and all(_BULLET.match(x) for x in lines[first:])
        and len(items) == len(lines) - first
        and not verb_count(analyse(" ".join(lines[:first]), now))
    ):  # "customer X reports timeouts:\n<the log line>\n- note … with the log\n- issue …": told, then requests
        heading = " ".join(x.strip() for x in lines[:first])
        lines = lines[first:]
    else:
        heading = ""
    if len(items) < 2 or len(items) != len(lines):
        return None  # a heading ("Заведи в ENG три бага:") introduces the lines: they are its content
    readings = [analyse(x, now) for x in items]
    if not all(
        verb_count(r)
        or r.identifiers
        or r.has("task", "issue", "note", "meeting", "deal")
        or ELLIPTIC.search(r.text)  # "Globex pilot — в Won"
        or FIELD_SET.search(r.text)  # «Ромашка — сумма 1 350 000 ₽»
        for r in readings
    ):
        return None
    told = analyse(heading.rstrip(":"), now) if heading else None
    if told is not None:
        told.context = True
    return [*([told] if told is not None else []), *(c for x in items for c in split(x, now))]


_WITH_NEXT = LazyRe(r"(?i)\s*(?:,\s*(?:(?:и|and)\s+)?|\s+(?:и|and)\s+)(?=(?:с|со|with)\s)")


_EVENT_WORD = LazyRe(
    r"(?i)\b(?:block|meeting|call|sync|standup|lunch|gym|focus|блок\w*|встреч\w*|созвон\w*|звонок|планёрк\w*|планерк\w*|"
    r"обед\w*|спорт\w*|пробежк\w*)\b"
)


_PLAN_HEADING = LazyRe(
    r"(?i)^\W*(?:(?:так|итак|короче|ну|ok|okay|so)[,\s]+)*(?:(?:today'?s|tomorrow'?s|my|the)\s+)?"
    r"(?:(?:plan|list|things|todo|to-dos?|agenda|план|список|дела|задачи)\s*)?(?:for|на)?\s*$"
)


def day_planned(head: str, tail: str, now: datetime, split: Split) -> list[Clause] | None:
    """ "Короче, на завтра: в 14:00 встреча с Ромашкой на час. А Олегу в Linear задачу — …", "Things for Thursday: 8am
    gym block …, and a Linear issue in CS …": a day said as a heading, then requests of their own (each on that
    day unless it says another)."""
    said = analyse(head, now)
    if (
        said.moment.day is None
        or said.moment.at is not None
        or verb_count(said)
        # (only a day, maybe called a plan: «на завтра», "Things for Thursday" — not "Jane wrote today")
        or not _PLAN_HEADING.match(
            "".join(ch for i, ch in enumerate(head) if not any(a <= i < b for a, b in said.moment.spans))
        )
    ):
        return None
    day = " ".join(head[a:b] for a, b in said.moment.spans)
    clauses: list[Clause] = []
    for sentence in re.split(r"(?<=[.!?])\s+(?=\S)", tail.strip()):
        for c in split(sentence, now):
            # "8am gym block for 1 hour, at noon a meeting with …": each item with its own time
            items = [x for x in _AT_NEXT_TIME.split(c.text) if x.strip(" ,.;")]
            timed = [analyse(x.strip(" ,.;"), now) for x in items]
            clauses += timed if len(items) > 1 and all(t.moment.at for t in timed) else [c]
    clauses = [  # ("…, and a Linear issue in CS to draft the quote": what to make, its verb the heading's)
        analyse(f"create {c.text}", now) if _THING_WITHOUT_VERB.match(c.text) else c for c in clauses
    ]
    if len(clauses) < 2:
        return None
    return [
        c if c.moment.day is not None or not c.moment.at else analyse(f"{day} {c.text}", now) for c in clauses
    ]


_AT_NEXT_TIME = LazyRe(
    r"(?i),\s+(?=(?:at\s+|в\s+)?(?:\d{1,2}(?::\d{2})?\s*(?:am|pm|утра|вечера|дня)\b|noon|midday|полдень|\d{1,2}:\d{2})"
    r"|(?:at|в)\s+\d)"
)
_THING_WITHOUT_VERB = LazyRe(
    r"(?i)^\s*(?:and\s+)?(?:an?\s+)(?:[\w-]+\s+){0,2}(?:issue|task|ticket|note|reminder)\b"
)


def events_listed(head: str, tail: str, now: datetime, split: Split) -> list[Clause] | None:
    """ "Wednesday Dec 2: 10am to 11am board prep block, 2pm meeting with Maria Sokolova, 45 min": one event per
    item, each with its own time, all on the day the heading names."""
    said = analyse(head, now)
    if said.moment.day is None or said.moment.at is not None or verb_count(said):
        return None
    items = [
        x.strip(" .;")
        for x in re.split(
            r"(?i)\s*;\s*|,\s+(?=(?:at\s+|в\s+)?\d{1,2}(?::\d{2})?\s*(?:am|pm|утра|вечера|дня)\b|(?:at|в)\s+\d|\d{1,2}:\d{2})",
            tail,
        )
        if x.strip(" .;")
    ]
    if len(items) < 2:
        return None
    readings: list[Clause] = []
    for x in items:  # (an item may go on with a request of its own: "…, and create an issue for Max …")
        first, *rest = split(x, now)
        event = analyse(f"{head.strip()} {first.text}", now)
        if event.moment.at is None or not _EVENT_WORD.search(first.text):
            return None
        readings += [event, *rest]
    return readings


def meetings_listed(head: str, tail: str, now: datetime, split: Split) -> list[Clause] | None:
    """ "Запланируй две встречи: с Олегом завтра в 11:00 на 30 минут и с Максом послезавтра в 15:00":
    one meeting per "с …"/"with …", each with its own time, booked with the head's verb."""
    said = analyse(head, now)
    if not said.has("meeting") or said.has("task", "issue", "note"):
        return None
    items = [x.strip(" .;") for x in _WITH_NEXT.split(tail) if x.strip(" .;")]
    readings = [analyse(x, now) for x in items]
    if len(items) < 2 or not all(
        re.match(r"(?i)(?:с|со|with)\s", x) and r.moment.at for x, r in zip(items, readings, strict=True)
    ):
        return None
    verb = head.split()[0] if head.split() else ""
    noun = "встречу" if re.search(r"[а-яё]", head, re.I) else "a meeting"
    return [analyse(f"{verb} {noun} {x}", now) for x in items]
