"""Dates a person said that the draft does not carry (DESIGN §5a: every value is used or named back).

A rule reads one date from a clause. When the clause names another day the rule did not read ("due
friday no sorry monday", "Thursday next week" read as this Thursday, "the first Monday of December"
read as a Monday), the draft would hold a day the person did not mean: a wrong draft, the costliest
miss. The parser itself finds the days: it is run again over the words its first reading left, so
every phrase it knows counts, and none is listed twice. A day that no dated field of the clause's
intents carries, and that is not part of their words (a title "Prepare Monday's demo"), is named back.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from planner._lazy_re import LazyRe
from planner.dates import MONTH_NAME, RU_ORDINAL_STEMS, WEEKDAY_WORD, extract_moment, weekday_of
from planner.intents import IntentBase
from planner.wording import iso_moment

__all__ = ["date_gaps", "said_days", "weekday_mismatch"]

# fields that hold a day, on an intent itself or in a bulk change's values
_DATED_FIELDS = ("due", "start", "target_date", "deadline", "end")
# a month said around a number or an ordinal, or an end of a period, that the parser did not read
_ORDINAL = (
    r"(?:\d{1,2}(?:st|nd|rd|th|-?го|-?е)?|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
    r"eleventh|twelfth|\w+teenth|twentieth|thirtieth|(?:" + "|".join(RU_ORDINAL_STEMS) + r")\w*)"
)
_UNREAD = LazyRe(
    r"(?i)\b(?:mid|early|late|середин\w*|начал[оеау]|кон(?:ец|ца|цу|це)|end\s+of)[\s-]+(?:of\s+)?(?:the\s+)?"
    r"(?:(?P<period>year|quarter|q[1-4]|года|квартала)\b|(?P<m1>\w+))"
    rf"|\b(?P<m2>\w+)\s+{_ORDINAL}\b|\b{_ORDINAL}\s+(?:of\s+)?(?P<m3>\w+)\b"
    r"|\b(?P<eod>eod|eow|cob|eom)\b"
)


def said_days(text: str, now: datetime, limit: int = 4) -> list[tuple[int, date, str]]:
    """Every day `text` names, in the order said: (offset, day, the words)."""
    found: list[tuple[int, date, str]] = []
    rest = text
    for _ in range(limit):
        m = extract_moment(rest, now)
        if m.day is None or not m.spans:
            break
        start = min(a for a, _ in m.spans)
        found.append((start, m.day, " ".join(text[a:b].strip() for a, b in sorted(m.spans))))
        for a, b in m.spans:
            rest = rest[:a] + " " * (b - a) + rest[b:]
    return sorted(found, key=lambda f: f[0])


def _day_of(value: object, now: datetime) -> date | None:
    found = iso_moment(value)
    if isinstance(found, datetime):
        return found.date()
    if isinstance(found, date):
        return found
    return extract_moment(str(value), now).day if isinstance(value, str) else None


def _dates_and_words(intents: list[IntentBase], now: datetime) -> tuple[set[date], str, bool]:
    """The days the intents carry, their free words, and whether any of them can hold a day."""
    days: set[date] = set()
    words: list[str] = []
    dated = False
    for intent in intents:
        fields = type(intent).model_fields
        values = {**(getattr(intent, "changes", None) or {}), **(getattr(intent, "values", None) or {})}
        dated = dated or any(f in fields for f in _DATED_FIELDS) or any(f in values for f in _DATED_FIELDS)
        for f in _DATED_FIELDS:
            for value in (getattr(intent, f, None) if f in fields else None, values.get(f)):
                day = _day_of(value, now) if value else None
                if day is not None:
                    days.add(day)
        for f in ("title", "description", "body", "content", "name", "comment"):
            value = getattr(intent, f, None) if f in fields else None
            if isinstance(value, str):
                words.append(value.lower())
    return days, " ".join(words), dated


def _said_within(text: str, at: int, word: str, words: str) -> bool:
    """The day and the word before it are both in a description or body («…ждёт SSO до 15 декабря»): its words."""
    before = re.search(r"(\S+)\s+$", text[:at])
    return before is not None and f"{before.group(1)} {word}".lower() in words


_A_LENGTH_AFTER = LazyRe(r"(?i)\s*(?:час\w*|ч\b|h\b|hrs?\b|hours?\b|мин\w*|min\w*)")


def date_gaps(text: str, intents: list[IntentBase], now: datetime) -> list[str]:
    """The date words of `text` that the intents read from it leave out (only for intents that can
    hold a day: a deal moved "since they signed Monday" has no date to carry).

    A day said as the reason ("docs won't be ready by Friday", «я на следующей неделе в командировке»)
    is context, not a value: only a day that continues the one read, corrects it, or is said where a
    date goes (after "due", «до», «к», or on its own after a comma) is named back."""
    used, words, dated = _dates_and_words(intents, now)
    if not dated:
        return []
    # a description's or a comment's own words (not a title, where a date's leftovers may sit)
    prose = " ".join(
        str(v).lower()
        for i in intents
        for f in ("description", "body")
        if isinstance(v := getattr(i, f, None), str)
    )
    # a day in a title is its words ("Prepare Monday's demo"), unless said as a due date ("… due Friday")
    said = [
        (at, day, w)
        for at, day, w in said_days(text, now)
        if (w.lower() not in words or _DUE_CUE.search(text[:at]) and not _said_within(text, at, w, prose))
        and not _A_LENGTH_AFTER.match(text, at + len(w))  # «на 1.5 часа»: how long, no 1 May
    ]
    read = [(at, w) for at, day, w in said if day in used]
    for at, day, w in said:
        if day in used:
            continue
        if read:
            before = [(a, x) for a, x in read if a < at]
            between = text[before[-1][0] + len(before[-1][1]) : at] if before else ""
            after = [a for a, _ in read if a > at]
            following = text[at + len(w) : after[0]] if after else ""
            if (before and (_JOINED.fullmatch(between) or _CORRECTED.search(between))) or (
                after and _JOINED.fullmatch(following)
            ):
                return [w]  # "first Monday | of December", "friday, no, monday"
        elif _WHERE_A_DATE_GOES.search(text[:at]):
            return [w]  # "fix the login, friday" drafted with no due date
    if used or said:
        return []
    for mt in _UNREAD.finditer(text):  # a date the parser did not read at all ("mid-December")
        month = mt.group("m1") or mt.group("m2") or mt.group("m3")
        if (
            mt.group("eod") or mt.group("period") or (month and MONTH_NAME.fullmatch(month))
        ) and _WHERE_A_DATE_GOES.search(text[: mt.start()]):
            return [mt.group(0).strip()]
    return []


# words between two parts of one date ("Monday of December", "Thursday, next week")
_JOINED = LazyRe(r"(?i)[\s,]*(?:(?:of|in|the|на|в|во)\s*)*")
_CORRECTED = LazyRe(r"(?i)\b(?:no|nope|sorry|actually|i\s+mean|rather|нет|вернее|точнее|ой|то\s+есть)\b")
_DUE = r"\b(?:due|by|until|till|before|deadline|target|до|к|ко|срок\w*|дедлайн\w*)\s*[:—-]?\s*(?:the\s+)?"
_DUE_CUE = LazyRe(rf"(?i){_DUE}$")
_WHERE_A_DATE_GOES = LazyRe(rf"(?i)(?:{_DUE}|[,;—–]\s*|^\s*)$")


# a weekday said with a date of another weekday: «в пятницу 3 декабря» (a Thursday), "Monday, Dec 2"
_WEEKDAY_THEN_DATE = LazyRe(
    rf"(?i)\b(?P<wd>{WEEKDAY_WORD})\.?[\s,]+(?:the\s+)?"
    r"(?P<date>\d{1,2}(?:st|nd|rd|th|-?го|-?е)?\s+(?:of\s+)?[^\W\d_]{3,}|[^\W\d_]{3,}\s+\d{1,2}(?:st|nd|rd|th)?\b"
    r"|\d{1,2}[./]\d{1,2}(?:[./]\d{2,4})?)"
)


def weekday_mismatch(text: str, now: datetime) -> tuple[str, date] | None:
    """The words and the day when a weekday is said with a date that falls on another weekday («в пятницу
    3 декабря» is a Thursday): which of the two was meant is asked, never guessed."""
    for m in _WEEKDAY_THEN_DATE.finditer(text):
        day = extract_moment(m.group("date"), now).day
        if day is not None and day.weekday() != weekday_of(m.group("wd")):
            return m.group(0).strip(), day
    return None
