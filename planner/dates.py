"""Dates, times and durations in Russian and English, resolved against `now` in a timezone.

Hand-written rules rather than `dateparser`: it takes ~1 s to import, several ms a call, and does
not know "в следующий понедельник" or "на полчаса"; the phrases people use with a planner are few.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from planner._lazy_re import LazyRe
from planner.numbers import spoken_numbers

__all__ = [
    "NoSuchDay",
    "no_such_day",
    "MONTH_NAME",
    "WEEKDAY_WORD",
    "Moment",
    "extract_duration",
    "extract_moment",
    "month_of",
    "RU_ORDINAL_STEMS",
    "ru_ordinal_number",
    "parse_duration_answer",
    "range_start",
    "time_ranges",
    "weekday_of",
]

_WEEKDAYS = {
    "понедельник": 0, "пн": 0, "monday": 0, "mon": 0,
    "вторник": 1, "вт": 1, "tuesday": 1, "tue": 1, "tues": 1,
    "среда": 2, "среду": 2, "ср": 2, "wednesday": 2, "wed": 2,
    "четверг": 3, "чт": 3, "thursday": 3, "thu": 3, "thurs": 3,
    "пятница": 4, "пятницу": 4, "пт": 4, "friday": 4, "fri": 4,
    "суббота": 5, "субботу": 5, "сб": 5, "saturday": 5, "sat": 5,
    "воскресенье": 6, "вс": 6, "sunday": 6, "sun": 6,
}  # fmt: skip
_WD_RU = r"понедельник[а-я]{0,2}|вторник[а-я]{0,2}|сред[а-я]|четверг[а-я]{0,2}|пятниц[а-я]|суббот[а-я]|воскресень[а-я]"
_WD_EN = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thurs?|fri|sat|sun"
_MONTHS = {
    "январ": 1, "феврал": 2, "март": 3, "апрел": 4, "ма": 5, "июн": 6, "июл": 7, "август": 8,
    "сентябр": 9, "октябр": 10, "ноябр": 11, "декабр": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
    "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
_MON_RU = r"январ[ья]|феврал[ья]|марта?|апрел[ья]|ма[яй]|июн[ья]|июл[ья]|августа?|сентябр[ья]|октябр[ья]|ноябр[ья]|декабр[ья]"
_MON_EN = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
# a whole word naming a month ("December", "декабря"), not a name that starts like one ("Maria")
MONTH_NAME = LazyRe(rf"(?:{_MON_RU}|{_MON_EN})\b", re.IGNORECASE)
_HOUR_WORDS = {
    "час": 1, "два": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6, "семь": 7, "восемь": 8, "девять": 9,
    "десять": 10, "одиннадцать": 11, "двенадцать": 12,
}  # fmt: skip
_NUM_WORDS = {
    "один": 1, "одну": 1, "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5, "десять": 10,
    "пятнадцать": 15, "двадцать": 20, "тридцать": 30, "сорок": 40,
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "ten": 10, "fifteen": 15, "twenty": 20,
    "thirty": 30, "forty": 40, "a": 1, "an": 1,
}  # fmt: skip


@dataclass
class Moment:
    day: date | None = None
    at: time | None = None
    spans: list[tuple[int, int]] = field(default_factory=list)

    def datetime_in(self, now: datetime) -> datetime | None:
        if self.day is None and self.at is None:
            return None
        d = self.day or now.date()
        t = self.at or time(9, 0)
        return datetime.combine(d, t, tzinfo=now.tzinfo)


_WD_STEMS = (("понедельн", 0), ("вторн", 1), ("сред", 2), ("четверг", 3), ("пятниц", 4), ("суббот", 5),
             ("воскрес", 6))  # fmt: skip


# a weekday said in any case, Russian or English («пятницу», "thurs"): `weekday_of` tells which
WEEKDAY_WORD = rf"(?:{_WD_RU}|{_WD_EN})"


def weekday_of(word: str) -> int:
    """Monday = 0 … Sunday = 6, for a word `WEEKDAY_WORD` matched, in any letter case."""
    return _weekday(word.lower())


def _weekday(word: str) -> int:
    """Any case of a Russian weekday ("понедельника", "пятницу") or an English one."""
    if word in _WEEKDAYS:
        return _WEEKDAYS[word]
    return next((n for stem, n in _WD_STEMS if word.startswith(stem)), 0)


def _month(word: str) -> int | None:
    w = word.lower()
    for prefix, n in sorted(_MONTHS.items(), key=lambda kv: -len(kv[0])):
        if w.startswith(prefix):
            return n
    return None


def month_of(word: str) -> int | None:
    """The month a word names, in any case ("декабре", "December", "dec"); None for other words."""
    w = word.lower()
    if not re.fullmatch(
        rf"(?:{_MON_EN})|(?:январ|феврал|март|апрел|ма[йяе]|июн|июл|август|сентябр|октябр|ноябр|декабр)\w*", w
    ):
        return None
    return _month(w)


def _future(d: date, today: date) -> date:
    return d if d >= today else d.replace(year=d.year + 1)


def _safe_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


_DAY_OF_MONTH = LazyRe(
    rf"(?i)(?<![\d.:/-])(?:(?P<d1>\d{{1,2}})(?:-?(?:го|е|ое|st|nd|rd|th))?\s+(?:of\s+)?(?P<m1>{_MON_RU}|{_MON_EN})\b"
    rf"|\b(?P<m2>{_MON_RU}|{_MON_EN})\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\b(?![:.]\d))"
)
_DAYS_IN = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_MONTH_SAID = (
    ("января", "January"), ("февраля", "February"), ("марта", "March"), ("апреля", "April"), ("мая", "May"),
    ("июня", "June"), ("июля", "July"), ("августа", "August"), ("сентября", "September"),
    ("октября", "October"), ("ноября", "November"), ("декабря", "December"),
)  # fmt: skip


@dataclass(frozen=True)
class NoSuchDay:
    """«31 ноября», "February 30": a day the month does not have, and the two days it may have meant."""

    said: str
    last: tuple[str, str]  # the month's last day, in Russian and English
    next: tuple[str, str]  # the next month's first day


def no_such_day(text: str) -> NoSuchDay | None:
    """The first day-and-month in `text` that no calendar has (a typo or a slip of the tongue), or None."""
    for m in _DAY_OF_MONTH.finditer(text):
        day, month = int(m["d1"] or m["d2"]), _month((m["m1"] or m["m2"]).lower())
        if month is None or day == 0 or day <= _DAYS_IN[month - 1]:
            continue
        last, after = _DAYS_IN[month - 1] if month != 2 else 28, month % 12 + 1
        return NoSuchDay(
            m.group(0),
            (f"{last} {_MONTH_SAID[month - 1][0]}", f"{_MONTH_SAID[month - 1][1]} {last}"),
            (f"1 {_MONTH_SAID[after - 1][0]}", f"{_MONTH_SAID[after - 1][1]} 1"),
        )
    return None


_SLASHED = LazyRe(
    r"\b(?:due|by|on|until|till|deadline|date|до|к|срок\w*|дедлайн\w*|на)\s*[:—-]?\s*(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?\b"
)


def extract_moment(text: str, now: datetime) -> Moment:
    """Find a date and/or a time of day in `text`; `spans` cover the words used."""
    raw = text.lower().replace("ё", "е")
    low = spoken_numbers(raw)
    today = now.date()
    m = Moment()

    def take(mt: re.Match[str]) -> None:
        m.spans.append(mt.span())

    # relative offsets: через 2 часа / in 3 days / через неделю
    rx = re.search(
        r"\b(?:через|in)\s+(?:a\s+couple\s+of\s+|a\s+|an\s+)?(\d+|[а-яa-z]+)?\s*"
        r"(минут(?:[уы]|ку|ки)?|час(?:а|ов|ик|ика)?|дн(?:я|ей)|день|денёк|денек|недел(?:[юиь]|ьку|ьки)|"
        r"minutes?|hours?|days?|weeks?)\b",
        low,
    )  # "через недельку", "через пару дней", "in a couple of days"
    if rx and rx.group(1) and re.match(r"in\s+an?\s", rx.group(0)):
        rx = None  # "put in a one hour slot …": how long the slot is, not when
    if rx:
        qty_word = rx.group(1) or ("2" if "couple" in rx.group(0) else "1")
        qty_word = {"пару": "2", "пара": "2", "couple": "2", "несколько": "3", "few": "3"}.get(
            qty_word, qty_word
        )
        qty = int(qty_word) if qty_word.isdecimal() else _NUM_WORDS.get(qty_word)
        if qty is not None:
            unit = rx.group(2)
            delta = (
                timedelta(minutes=qty)
                if unit.startswith(("мин", "min"))
                else timedelta(hours=qty)
                if unit.startswith(("час", "hour"))
                else timedelta(weeks=qty)
                if unit.startswith(("недел", "week"))
                else timedelta(days=qty)
            )
            target = now + delta
            m.day = target.date()
            if unit.startswith(("мин", "min", "час", "hour")):
                m.at = target.time().replace(second=0, microsecond=0)
            take(rx)

    low = _ordinal_days(low)
    if m.day is None:
        _nth_weekday(low, today, m) or _end_of(low, today, m)

    if m.day is None:
        for pattern, offset in (
            (r"\bпослезавтра\b|\bday after tomorrow\b", 2),
            (r"\b(?:завтра|завтро|зафтра|завтар)\b|\b(?:tomorrow|tommorow|tomorow|tommorrow|tmrw|tmr)\b", 1),
            (r"\bсегодня\b|\btoday\b|\btonight\b", 0),
            # «срок на вчера», "due yesterday": a day past (the draft flags it as past)
            # (only as a day something is set to: «вчера созвонились» tells when, and sets nothing)
            (r"\b(?:на|до|к|by)\s+(?:позавчера|day\s+before\s+yesterday)\b", -2),
            (
                r"\b(?:на|до|к|by)\s+(?:вчера|yesterday)\b|\bdue\s+yesterday\b|"
                r"\b(?:срок\w*|дедлайн\w*|deadline)\s+(?:на\s+)?(?:вчера|yesterday)\b",
                -1,
            ),
        ):
            rx = re.search(pattern, low)
            if rx:
                m.day = today + timedelta(days=offset)
                take(rx)
                break

    weekday = None
    if m.day is None:
        weekday = next(
            (
                wd
                for wd in re.finditer(
                    rf"\b(?:(?:в|во|на)\s+)?(?:(следующ\w+|ближайш\w+|эт\w+|прошл\w+)\s+)?({_WD_RU})\b|\b(?:(?:on|by)\s+)?(?:(next|this|coming|last)\s+)?({_WD_EN})\b",
                    low,
                )
                # «баннер к чёрной пятнице», "Black Friday": a day's name, no day of the week
                if not re.search(r"(?:ч[её]рн\w*|black)\s+$", low[: wd.start()])
            ),
            None,
        )
        if weekday and not _DATE_AFTER.match(low, weekday.end()):
            _on_weekday(weekday, low, today, m)
            weekday = None
        # "due Friday, 4 December", «в пятницу, 4 декабря»: the date said after the day names it; the
        # weekday is left to the date below (and read alone if no date is found after all)

    if m.day is None:
        rx = re.search(  # "27 Nov", "27th Nov", "1st of December", «27 ноября»
            rf"(?:\bon\s+)?\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MON_RU}|{_MON_EN})\b(?:\s+(\d{{4}}))?",
            low,
        ) or re.search(rf"(?:\bon\s+)?\b({_MON_EN})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(\d{{4}}))?", low)
        # ("on Jan 11": the "on" is the date's, as in "on Friday")
        if rx:
            a, b, year = rx.group(1), rx.group(2), rx.group(3)
            day_s, mon_s = (a, b) if a.isdigit() else (b, a)
            month = _month(mon_s)
            if month:
                d = _safe_date(int(year) if year else today.year, month, int(day_s))
                if d:
                    m.day = d if year else _future(d, today)
                    take(rx)
    if m.day is None:
        rx = re.search(r"\b(\d{4})-(\d{2})-(\d{2})\b", low)
        if rx:
            m.day = _safe_date(int(rx.group(1)), int(rx.group(2)), int(rx.group(3)))
            take(rx)
        else:
            rx = next(  # «до 01.12»; "iOS 17.5", «билд 2.14.3» are versions, not dates
                (
                    x
                    for x in re.finditer(r"(?<![\d.])(\d{1,2})\.(\d{1,2})(?:\.(\d{4}))?(?![\w]|\.\d)", low)
                    if not _VERSION_BEFORE.search(low[max(0, x.start() - 16) : x.start()])
                ),
                None,
            )
            if rx:
                d = _safe_date(int(rx.group(3) or today.year), int(rx.group(2)), int(rx.group(1)))
                if d:
                    m.day = d if rx.group(3) else _future(d, today)
                    take(rx)
    if m.day is None:  # "third of december" (an ordinal said as a word, now "3th of december")
        rx = re.search(rf"\b(\d{{1,2}})(?:st|nd|rd|th)\s+of\s+({_MON_EN})\b", low)
        month = _month(rx.group(2)) if rx else None
        d = _safe_date(today.year, month, int(rx.group(1))) if rx and month else None
        if rx and d is not None:
            m.day = _future(d, today)
            take(rx)
    if m.day is None:  # "block the 3rd", "by the 21st": a day of this month, or the next if it has passed
        rx = re.search(
            r"\b(?:on\s+|by\s+|until\s+)?the\s+(\d{1,2})(?:st|nd|rd|th)\b(?:\s+of\s+(" + _MON_EN + r"))?"
            r"(?!\s+(?:floor|time|times|option|item|round|quarter|place|version|attempt|one|row|step|line|page)\b)",
            low,
        )
        if rx and 1 <= int(rx.group(1)) <= 31 and rx.group(2):  # "on the 3rd of December"
            month = _month(rx.group(2))
            d = _safe_date(today.year, month, int(rx.group(1))) if month else None
            if d is not None:
                m.day = _future(d, today)
                take(rx)
        elif rx and 1 <= int(rx.group(1)) <= 31:
            d = _safe_date(today.year, today.month, int(rx.group(1)))
            if d is None or d < today:
                nxt = (today.replace(day=1) + timedelta(days=32)).replace(day=1)
                d = _safe_date(nxt.year, nxt.month, int(rx.group(1)))
            if d is not None:
                m.day = d
                take(rx)
    if m.day is None:  # «к двадцатому», «на 20-е», «до 20-го», «20 числа»: a day of this month, or the next
        rx = _RU_DAY_ALONE.search(low)
        said = None
        if rx and (rx.group(1) or rx.group(3) or rx.group(4)):
            said = int(rx.group(1) or rx.group(3) or rx.group(4))
        elif rx and (rx.group(2) or rx.group(5)):
            said = ru_ordinal_number(rx.group(2) or rx.group(5))
        if rx is not None and said is not None and 1 <= said <= 31:
            d = _safe_date(today.year, today.month, said)
            if d is None or d < today:
                nxt = (today.replace(day=1) + timedelta(days=32)).replace(day=1)
                d = _safe_date(nxt.year, nxt.month, said)
            if d is not None:
                m.day = d
                take(rx)
    if m.day is None:  # "due 12/15", «до 15/12»: a slashed date after a word that says it is one
        rx = _SLASHED.search(low)
        if rx:
            a, b, year = int(rx.group(1)), int(rx.group(2)), rx.group(3)
            us = not re.search(r"[а-я]", low) and a <= 12  # English writers put the month first
            month, day = (a, b) if us and not b <= 12 < a else (b, a)
            full = int(year) + (2000 if len(year) == 2 else 0) if year else today.year
            d = _safe_date(full, month, day)
            if d:
                m.day = d if year else _future(d, today)
                m.spans.append(rx.span(1)[:1] + rx.span(3 if year else 2)[1:])
    if m.day is None:  # "…, на меня, 12/15": a slashed date alone, read only when it can be but one day
        rx = re.search(r"(?<![\w/.:-])(\d{1,2})/(\d{1,2})(?![\w/.:-])", low)
        if rx and (int(rx.group(1)) > 12) != (int(rx.group(2)) > 12):
            a, b = int(rx.group(1)), int(rx.group(2))
            month, day = (a, b) if b > 12 else (b, a)
            d = _safe_date(today.year, month, day)
            if d:
                m.day = _future(d, today)
                take(rx)
    if m.day is None:  # "до конца недели", "by end of week": this week's Friday
        rx = re.search(
            r"\b(?:до\s+|к\s+)?конц[ау]\s+(?:этой\s+)?недели\b|\b(?:by\s+)?(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?week\b",
            low,
        )
        if rx:
            m.day = today + timedelta(days=(4 - today.weekday()) % 7)
            take(rx)
    if m.day is None:  # "к концу месяца", "by the end of the month": its last day
        rx = re.search(
            r"\b(?:до\s+|к\s+|в\s+)?кон(?:ец|ца|цу|це)\s+(?:этого\s+)?месяца\b"
            r"|\b(?:by\s+|at\s+|until\s+)?(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?month\b"
            # "due the last day of the month", «в последний день месяца»
            r"|\b(?:on\s+|by\s+)?(?:the\s+)?last\s+day\s+of\s+(?:the\s+|this\s+)?month\b"
            r"|\b(?:в\s+|до\s+)?последн\w+\s+д(?:ень|ня)\s+(?:этого\s+)?месяца\b",
            low,
        )
        if rx:
            first_of_next = (today.replace(day=28) + timedelta(days=4)).replace(day=1)
            m.day = first_of_next - timedelta(days=1)
            take(rx)
    if m.day is None:
        rx = re.search(r"\b(?:на\s+)?следующей\s+неделе\b|\bnext\s+week\b", low)
        if rx:
            m.day = today + timedelta(days=7 - today.weekday())
            take(rx)

    if weekday is not None:
        if m.day is None:
            _on_weekday(weekday, low, today, m)
        else:
            m.spans.append(weekday.span())
    lunch = (
        re.search(r"\b(?:к|до|в|by|at|before)\s+(?:обеду|обед|lunch(?:time)?)\b", low)
        if m.at is None
        else None
    )
    if lunch:  # «напомни мне к обеду …», "by lunch": one o'clock, today unless a day is said
        m.at, m.day = time(13, 0), m.day or today
        take(lunch)
    if m.at is None:
        _extract_time(low, m)
    if m.day is not None and m.at is None:  # "monday morning", «завтра утром»: the day's start, said
        for part in _MORNING.finditer(low):
            if any(abs(part.start() - b) <= 1 or abs(a - part.end()) <= 1 for a, b in m.spans):
                take(part)
    m.spans = [_whole_words(span, raw, low) for span in m.spans]
    return m


_MORNING = LazyRe(r"\b(?:in\s+the\s+morning|morning|first\s+thing|утром|с\s+утра|поутру)\b")


_DATE_AFTER = LazyRe(
    rf"\s*,?\s*(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th|-?(?:е|го|ое))?\s+(?:of\s+)?(?:{_MON_RU}|{_MON_EN})\b"
    r"|\s*,?\s*the\s+\d{1,2}(?:st|nd|rd|th)\b"
    rf"|\s*,?\s*(?:{_MON_EN})\s+\d{{1,2}}(?:st|nd|rd|th)?\b|\s*,?\s*\d{{1,2}}\.\d{{1,2}}\b"
)


def _on_weekday(rx: re.Match[str], low: str, today: date, m: Moment) -> None:
    """The day a weekday names: the coming one ("next Tuesday": next week's)."""
    word = rx.group(2) or rx.group(4)
    qualifier = rx.group(1) or rx.group(3) or ""
    wd = _weekday(word)
    ahead = (wd - today.weekday()) % 7
    later = _NEXT_WEEK_AFTER.match(low, rx.end())  # "Thursday next week", «в четверг на следующей неделе»
    if qualifier.startswith(("прошл", "last")):  # «на прошлую пятницу», "last Friday": the one before today
        ahead = -((today.weekday() - wd) % 7 or 7)
    elif qualifier.startswith(("следующ", "next")) or later:
        # "next Tuesday": the Tuesday of next week (Mon-based)
        ahead = 7 - today.weekday() + wd
        if later:
            m.spans.append(later.span())
    elif ahead == 0:
        ahead = 7
    m.day = today + timedelta(days=ahead)
    m.spans.append(rx.span())
    before = _WEEKS_FROM.search(low, 0, rx.start())  # "a week from Friday": that day, weeks later
    if before:
        n = before.group(1)
        m.day += timedelta(weeks=int(n) if n.isdecimal() else _NUM_WORDS.get(n, 1))
        m.spans.append(before.span())


_WEEKS_FROM = LazyRe(r"\b(a|one|two|three|\d)\s+weeks?\s+(?:from|after)\s+(?:(?:this|next)\s+)?$")
_NEXT_WEEK_AFTER = LazyRe(r"\s*,?\s*(?:(?:на|of)\s+)?(?:следующей\s+недел[иеь]|next\s+week)\b")
_EN_ORD = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
    "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20,
    "thirtieth": 30,
}  # fmt: skip
# a day said as a Russian ordinal («пятнадцатое», «к первому»): the stem and its number (hurried.py reads
# whole phrases with the same table)
RU_ORDINAL_STEMS = {
    "перв": 1, "втор": 2, "трет": 3, "четверт": 4, "четвёрт": 4, "пят": 5, "шест": 6, "седьм": 7, "восьм": 8,
    "девят": 9, "десят": 10, "одиннадцат": 11, "двенадцат": 12, "тринадцат": 13, "четырнадцат": 14,
    "пятнадцат": 15, "шестнадцат": 16, "семнадцат": 17, "восемнадцат": 18, "девятнадцат": 19, "двадцат": 20,
    "тридцат": 30,
}  # fmt: skip
_RU_STEMS_LONGEST_FIRST = sorted(RU_ORDINAL_STEMS, key=len, reverse=True)  # «пятнадцатого» is not «пят…»
_RU_HUNDREDS = {"сто": 100, "двести": 200, "триста": 300}
_RU_TENS = {"двадцать": 20, "тридцать": 30, "сорок": 40, "пятьдесят": 50}


def ru_ordinal_number(words: str) -> int | None:
    """A number said as a Russian ordinal: «двадцатое» 20, «двадцать восьмому» 28, «сто пятую» 105;
    None when the last word is no ordinal."""
    said = words.lower().split()
    if not said:
        return None
    last = next(
        (
            n
            for stem in _RU_STEMS_LONGEST_FIRST
            if said[-1].startswith(stem)
            for n in [RU_ORDINAL_STEMS[stem]]
        ),
        None,
    )
    if last is None:
        return None
    return sum(_RU_HUNDREDS.get(w, 0) + _RU_TENS.get(w, 0) for w in said[:-1]) + last


_RU_ORD_WORD = r"(?:" + "|".join(_RU_STEMS_LONGEST_FIRST) + r")(?:ое|ого|ому|ым|ье|ьего|ьему|ий|ый|ая|ую)"
_RU_DAY_ALONE = LazyRe(
    # «срок двадцать восьмого», «дедлайн 28-го»: a deadline's day; «тридцатого в полдень»: a day, then its time
    r"\b(?:на|к|до|по|срок\w*|дедлайн\w*)\s+(?:(\d{1,2})-?(?:е|го|ое|ого|му|ому)\b(?!\s*(?:" + _MON_RU + r"))"
    r"|((?:(?:двадцать|тридцать)\s+)?(?:"
    + "|".join(_RU_STEMS_LONGEST_FIRST)
    + r")(?:ое|ого|ому|ье|ьего|ьему))"
    r"(?!\s+(?:" + _MON_RU + r")))"  # a day is neuter («двадцатое»); «вторую задачу» is a position
    r"|\b(\d{1,2})\s+числа\b"
    r"|\b(?:(\d{1,2})-?го|((?:(?:двадцать|тридцать)\s+)?(?:"
    + "|".join(_RU_STEMS_LONGEST_FIRST)
    + r")(?:ого|ьего)))(?=\s+(?:в\s+(?:\d|полдень|полночь|обед|час|утра|вечера)|утром|вечером|днём|днем)"
    # «задача максу двадцать седьмого созвониться с …»: the day, then what to do on it
    r"|\s+[а-яё]+(?:ть|ться|ти|чь)\b)"
)
_EN_ORD_WORD = r"(?:" + "|".join(_EN_ORD) + r")"
_ORD = rf"(?:(?:twenty|thirty)[\s-]+)?{_EN_ORD_WORD}"
_ORD_DATE = LazyRe(
    rf"\b(?P<before>{_ORD})(?=\s+(?:of\s+)?(?:{_MON_EN})\b)"
    rf"|\b(?P<month>{_MON_EN})(?P<gap>\s+)(?P<after>{_ORD})\b"
    rf"|\b(?P<ru>(?:(?:двадцать|тридцать)\s+)?{_RU_ORD_WORD})(?=\s+(?:{_MON_RU})\b)"
)


def _ordinal_value(words: str) -> int | None:
    total = 0
    for w in re.split(r"[\s-]+", words):
        if w in ("twenty", "двадцать"):
            total += 20
        elif w in ("thirty", "тридцать"):
            total += 30
        elif w in _EN_ORD:
            total += _EN_ORD[w]
        else:
            total += next(
                (RU_ORDINAL_STEMS[stem] for stem in _RU_STEMS_LONGEST_FIRST if w.startswith(stem)), 0
            )
    return total if 1 <= total <= 31 else None


def _ordinal_days(low: str) -> str:
    """A day of a month said as an ordinal ("december third", "third of december", «первого декабря») in
    digits ("3rd", «1»), every offset kept."""

    def digits(mt: re.Match[str]) -> str:
        words = mt.group("before") or mt.group("after") or mt.group("ru")
        n = _ordinal_value(words)
        if n is None:
            return mt.group(0)
        text = (str(n) if mt.group("ru") else f"{n}th").ljust(len(words))
        return f"{mt.group('month')}{mt.group('gap')}{text}" if mt.group("month") else text

    return _ORD_DATE.sub(digits, low)


_NTH = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3, "last": -1}
_NTH_WEEKDAY = LazyRe(
    rf"\b(first|second|third|fourth|last|1st|2nd|3rd|4th|перв\w*|втор\w*|трет\w*|четв[её]рт\w*|последн\w*)\s+"
    rf"({_WD_EN}|{_WD_RU})\s+(?:(?:of|in)\s+)?({_MON_EN}|{_MON_RU})\b"
)


def _nth_weekday(low: str, today: date, m: Moment) -> bool:
    """ "the first Monday of December", «к первому понедельнику декабря»: that weekday of that month."""
    rx = _NTH_WEEKDAY.search(low)
    month = _month(rx.group(3)) if rx else None
    if rx is None or month is None:
        return False
    word = rx.group(1)
    nth = _NTH.get(
        word,
        -1
        if word.startswith("последн")
        else next((n - 1 for stem, n in RU_ORDINAL_STEMS.items() if n <= 4 and word.startswith(stem)), 0),
    )
    wd = _weekday(rx.group(2))
    year = today.year if month >= today.month else today.year + 1
    first = date(year, month, 1)
    days = [first + timedelta(days=i) for i in range(31) if (first + timedelta(days=i)).month == month]
    matching = [d for d in days if d.weekday() == wd]
    m.day = matching[nth] if -len(matching) <= nth < len(matching) else None
    if m.day is not None:
        m.spans.append(rx.span())
    return m.day is not None


_END_OF = LazyRe(
    rf"\b(?:(?:до|к|в)\s+)?кон(?:ец|ца|цу|це)\s+(?:(следующей|следующего|этой|этого)\s+)?(недели|дня|месяца|({_MON_RU}))\b"
    rf"|\b(?:(?:by|at|until|till|before)\s+)?(?:the\s+)?end\s+of\s+(?:the\s+)?(?:(next|this)\s+)?(week|day|month|({_MON_EN}))\b"
    r"|\b(eod|cob|eom)\b"
)
# "EOD Friday", «до конца дня завтра»: the end of that other day
_DAY_AFTER = LazyRe(rf"\s*,?\s*(?:on\s+|в\s+|во\s+)?(?:{_WD_EN}|{_WD_RU}|tomorrow|завтра|послезавтра|\d)")


def _end_of(low: str, today: date, m: Moment) -> bool:
    """ "end of January", «в конце января», "end of next week", "EOD" / «до конца дня»: the last day of it
    (a week ends on its Friday)."""
    rx = _END_OF.search(low)
    if rx is None:
        return False
    which = rx.group(1) or rx.group(4) or ""
    unit = rx.group(2) or rx.group(5) or rx.group(7)
    month_word = rx.group(3) or rx.group(6)
    if month_word:
        month = _month(month_word)
        if month is None:
            return False
        year = today.year if month >= today.month else today.year + 1
        m.day = (date(year, month, 28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
    elif unit in ("месяца", "month", "eom"):  # "due end of month", "EOM": its last day
        last = (date(today.year, today.month, 28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
        if which in ("следующего", "next"):  # "end of next month", «к концу следующего месяца»
            last = (last + timedelta(days=32)).replace(day=1) - timedelta(days=1)
        m.day = last
    elif unit in ("дня", "day", "eod", "cob"):
        if _DAY_AFTER.match(low, rx.end()):
            m.spans.append(rx.span())  # part of the day read next, not a day of its own
            return False
        m.day = today
    else:  # a week: its Friday
        friday = today + timedelta(days=(4 - today.weekday()) % 7)
        m.day = friday + timedelta(days=7) if which in ("следующей", "next") else friday
    m.spans.append(rx.span())
    return True


_AFTERNOON = LazyRe(r"\bin the (?:afternoon|evening)\b|\btonight\b")


def _office_hour(h: int, part: str | None) -> int:
    """A bare hour said without am/pm is office hours: 1-7 are the afternoon ("at 3", «в три»);
    «дня»/«вечера» make any morning hour the afternoon."""
    return h + 12 if part in ("вечера", "дня") and h < 12 or part is None and 1 <= h <= 7 else h


_VERSION_BEFORE = LazyRe(
    r"(?i)(?:ios|android|macos|windows|chrome|safari|firefox|build|билд\w*|верси\w*|version|release|релиз\w*|"
    r"сборк\w*|\bv|notes|ноты|нот|sdk|api|app|python|node)\s*$"
)


def _extract_time(low: str, m: Moment) -> None:
    rx = next(  # "на 01.12 в 11:30": a date already read is no time
        (
            x
            for x in re.finditer(
                r"\b(?:в|во|at|к|by|@)?\s*(?<![\d.])(\d{1,2})(?::|\.(?=\d{2}(?!\.\d)))(\d{2})\s*(am|pm|a\.m\.|p\.m\.)?",
                low,
            )
            if not any(a < x.end() and x.start() < b for a, b in m.spans)
            and not (
                ":" not in x.group(0) and _VERSION_BEFORE.search(low[max(0, x.start() - 16) : x.start()])
            )
        ),
        None,
    )
    if rx and int(rx.group(1)) < 24 and int(rx.group(2)) < 60:
        h = int(rx.group(1))
        afternoon = _AFTERNOON.search(low)
        if (rx.group(3) and rx.group(3).startswith("p") or afternoon) and h < 12:  # "… two in the afternoon"
            h += 12
        elif (
            not rx.group(3)
            and not rx.group(1).startswith("0")
            and not re.match(r"\s*(?:утра|ночи|in\s+the\s+morning|a\.?m\b)", low[rx.end() :])
            and (
                h <= 6 or not re.search(r"[а-яё]", low)
            )  # («в 7:30 блок — пробежка»: written on a 24-hour clock)
        ):
            h = _office_hour(h, None)  # "at half past two", «в 2:30»: office hours, as "at 2" is
        if afternoon:
            m.spans.append(afternoon.span())
        m.at = time(h, int(rx.group(2)))
        m.spans.append(rx.span())
        return
    rx = re.search(r"\b(?:at\s+)?(\d{1,2})\s*(am|pm|a\.m\.|p\.m\.)", low)
    if rx and 1 <= int(rx.group(1)) <= 12:
        h = int(rx.group(1)) % 12 + (12 if rx.group(2).startswith("p") else 0)
        m.at = time(h, 0)
        m.spans.append(rx.span())
        return
    rx = re.search(r"\bat\s+(\d{1,2})\b(?!\s*(?:[:.]\d|%|am|pm|a\.m|p\.m|minutes?|mins?|hours?|days?))", low)
    if rx and 0 < int(rx.group(1)) < 24:  # "at 10" (no am/pm): office hours read as morning, 1-7 as afternoon
        h = int(rx.group(1))
        m.at = time(_office_hour(h, None), 0)
        m.spans.append(rx.span())
        return
    words = re.search(r"\b(?:в|во|к)\s+(" + "|".join(_HOUR_WORDS) + r")\b(?:\s+(утра|дня|вечера|ночи))?", low)
    if words:
        h = _HOUR_WORDS[words.group(1)]
        m.at = time(_office_hour(h, words.group(2)), 0)  # "в три" with nothing after it: 15:00, as "at 3"
        m.spans.append(words.span())
        return
    rx = re.search(
        r"\b(?:в|во|к)\s+(\d{1,2})(?![a-zа-яё](?<!ч))(?!\s*(?:минут|мин|%|\d|числ|[а-я]*бр|январ|феврал|апрел|март|ма[яй]|июн|июл|август))"
        r"(?:\s*(?:час(?:а|ов)?|ч))?(?:\s+(утра|дня|вечера|ночи))?(?!\s*(?:%|\d|числ))",
        low,
    )
    if rx and int(rx.group(1)) < 24:
        h = int(rx.group(1))
        m.at = time(0 if rx.group(2) == "ночи" and h == 12 else _office_hour(h, rx.group(2)), 0)
        m.spans.append(rx.span())
        return
    # «с 12 на три часа», «с 14 до 16»: a start said as "from", with how long or until when after it
    rx = re.search(
        rf"\b(?:с|со)\s+(\d{{1,2}}|{'|'.join(_HOURS_FROM)})(?:\s*(утра|дня|вечера))?(?=\s*(?:до|по|на|[-–])\s)",
        low,
    )
    hour = (int(rx.group(1)) if rx.group(1).isdigit() else _HOURS_FROM[rx.group(1)]) if rx else None
    if rx and hour is not None and hour < 24:
        m.at = time(_office_hour(hour, rx.group(2)), 0)
        m.spans.append(rx.span())
        return
    rx = re.search(r"\b(?:в\s+)?полдень\b|\b(?:at\s+)?noon\b", low)
    if rx:
        m.at = time(12, 0)
        m.spans.append(rx.span())


# «с двенадцати», «с трёх»: an hour said after "from", in the genitive
_HOURS_FROM = {
    "одного": 1, "двух": 2, "трёх": 3, "трех": 3, "четырёх": 4, "четырех": 4, "пяти": 5, "шести": 6, "семи": 7,
    "восьми": 8, "девяти": 9, "десяти": 10, "одиннадцати": 11, "двенадцати": 12,
}  # fmt: skip
_DUR = LazyRe(
    r"\b(?:на|for|по)?\s*(\d+(?:[.,]\d+)?|полтора|полутора|[а-яa-z]+)?[\s-]*"
    r"(минут[уы]?|мин\.?|min(?:ute)?s?|час(?:а|ов)?|ч\.?|hours?|hrs?|h)\b"
)


def extract_duration(
    text: str, *, bare_number_after_na: bool = False
) -> tuple[int | None, tuple[int, int] | None]:
    """Duration in minutes and the span it came from: "на 60 минут", "полчаса", "на час", "3 hours".

    With `bare_number_after_na`, "на 60" (seed 000: "Поставь блок на 60") counts as minutes.
    """
    raw = text.lower().replace("ё", "е")
    low = spoken_numbers(raw)
    minutes, span = _duration_in(low, bare_number_after_na)
    return minutes, None if span is None else _whole_words(span, raw, low)


def _whole_words(span: tuple[int, int], raw: str, low: str) -> tuple[int, int]:
    """A span found in the digits-for-words text, widened to the whole words they replaced
    ("one hour" matched as "1 hour" covers "one", "в девять" matched as "в 9" covers "девять")."""
    start, end = span
    while start > 0 and low[start - 1] == " " and not raw[start - 1].isspace():
        start -= 1
    while end < len(low) and low[end] == " " and not raw[end].isspace():
        end += 1
    return start, end


def _duration_in(low: str, bare_number_after_na: bool) -> tuple[int | None, tuple[int, int] | None]:
    rng = _time_range(low)
    if rng:  # "с 16 до 17", "from 2 to 3pm", "14:00-15:30"
        return rng[1] - rng[0], rng[2]
    rx = re.search(
        r"\b(?:на\s+|for\s+)?(?:полчаса|пол\s*часа|half(?:\s+an)?[\s-]+(?:hour|hr)|a\s+half\s+hour)\b", low
    )
    if rx:
        return 30, rx.span()
    rx = re.search(r"\b(?:на\s+)?полтора\s+часа\b|\ban hour and a half\b", low)
    if rx:
        return 90, rx.span()
    rx = re.search(r"(?<![\d.,])\b(\d{1,3})(?:m|м|mins?)\b(?![.,]\d)", low)  # "14:30 30m": typed tersely
    if rx and 5 <= int(rx.group(1)) <= 240:
        return int(rx.group(1)), rx.span()
    rx = re.search(r"\bминут\s+на\s+(\d{1,3})\b", low)  # "минут на сорок": about forty minutes
    if rx and 0 < int(rx.group(1)) <= 600:
        return int(rx.group(1)), rx.span()
    for mt in _DUR.finditer(low):
        qty_s, unit = mt.group(1), mt.group(2)
        if qty_s is None or qty_s in ("на", "for", "по", "мне", "себе", "нам"):
            qty: float | None = (
                1.0
                # («забронируй мне час на разбор багов»: an hour, whose it is said before it)
                if unit.startswith(("час", "hour"))
                and re.search(r"\b(на|for|an|a|мне|себе|нам)\s+" + unit, low)
                else None
            )
            if qty is None:
                continue
        elif qty_s.replace(",", ".").replace(".", "", 1).isdecimal():
            qty = float(qty_s.replace(",", "."))
        else:
            qty = float(_NUM_WORDS[qty_s]) if qty_s in _NUM_WORDS else None
            if qty is None:
                continue
        # "в три часа дня", "в 3 часа": a time of day, not a duration
        after = low[mt.end() : mt.end() + 9]
        said = low[mt.start() : mt.end()].strip()
        if unit.startswith("час") and (
            re.match(r"\s*(?:дня|утра|вечера|ночи)\b", after)
            or re.search(r"\bв\s*$", low[max(0, mt.start() - 3) : mt.start() + 1])
            and not said.startswith("на")
        ):
            continue
        # "через 2 часа" is a moment, not a duration
        before = low[max(0, mt.start() - 8) : mt.start() + 1]
        if re.search(r"(через|in)\s*$", before.strip() + " ") and not low[
            mt.start() : mt.end()
        ].strip().startswith(("на", "for")):
            continue
        minutes = (
            qty * 60
            if unit.startswith(("час", "ч", "hour", "hr", "h")) and not unit.startswith("min")
            else qty
        )
        if 0 < minutes <= 24 * 60:
            return int(round(minutes)), mt.span()
    if bare_number_after_na:
        rx = re.search(
            r"\bна\s+(\d{1,3})\b(?!\s*[:.]\d)(?!\s*(?:числ|[а-я]*бр|январ|феврал|март|апрел|ма[яй]|июн|июл|август))",
            low,
        )
        if rx and 0 < int(rx.group(1)) <= 600:
            return int(rx.group(1)), rx.span()
    return None, None


_RANGE = LazyRe(
    r"(?:\b(с|from|between)\s+)?(?<![\w:.-])(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm)?\s*(?:до|to|and|until|till|til|-|–)\s*"
    r"(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm)?(?![\w:]|\.\d)",  # "…до 11:30." ends a sentence
    re.IGNORECASE,
)


# "next Tue 10-11", «завтра 10-11»: bare numbers right after a day are hours
_DAY_BEFORE = LazyRe(
    r"(?:\b(?:tomorrow|tmrw|tmr|today|mon|monday|tue|tues|tuesday|wed|wednesday|thu|thur|thurs|thursday|fri|"
    r"friday|sat|saturday|sun|sunday|сегодня|завтра|послезавтра|пн|вт|ср|чт|пт|сб|вс|понедельник\w*|вторник\w*|"
    r"сред[аеуы]|четверг\w*|пятниц[аеуы]|суббот[аеуы]|воскресень[еяю])|\d{1,2}(?:st|nd|rd|th)?|\d{1,2}\.\d{2})"
    r"[\s,:]+$",
    re.IGNORECASE,
)


def _time_range(low: str) -> tuple[int, int, tuple[int, int]] | None:
    """A time range in minutes of the day and its span: "с 16 до 17", "from 2 to 3pm", "14:00-15:30",
    "2-4pm". Bare numbers need "с"/"from" or an am/pm to be times ("2-4" alone says nothing)."""
    found = time_ranges(low)
    return found[0] if found else None


def time_ranges(text: str) -> list[tuple[int, int, tuple[int, int]]]:
    """Every time range said, in order ("tmrw: 10-11 and 14:00-14:45": two)."""
    low = text.lower()
    out = []
    for m in _RANGE.finditer(low):
        lead, h1, m1, s1, h2, m2, s2 = m.groups()
        if not (lead or s1 or s2 or (m1 and m2) or _DAY_BEFORE.search(low[: m.start()])):
            continue
        end_h = int(h2) + 12 if s2 == "pm" and int(h2) < 12 else int(h2) % 12 if s2 == "am" else int(h2)
        start_h = int(h1)
        if s1 == "pm" and start_h < 12:
            start_h += 12
        elif s1 == "am":
            start_h %= 12
        elif s2 == "pm" and start_h < 12 and start_h + 12 <= end_h:
            start_h += 12  # "2-4pm": both afternoon; "11-1pm": from the morning
        a, b = _clock(str(start_h), m1), _clock(str(end_h), m2)
        if a is not None and b is not None and b > a:
            out.append((a, b, m.span()))
    return out


def _clock(hours: str | None, minutes: str | None) -> int | None:
    if hours is None or int(hours) > 23:
        return None
    return int(hours) * 60 + int(minutes or 0)


def range_start(text: str) -> tuple[int, int] | None:
    """The start of a time range ("с 16 до 17" -> 16:00), as (hour, minute)."""
    rng = _time_range(text.lower())
    return divmod(rng[0], 60) if rng else None


def parse_duration_answer(text: str) -> int | None:
    """An answer to "how many minutes?": "60", "45 минут", "полчаса", "1.5 hours"."""
    s = text.strip().lower()
    if re.fullmatch(r"\d{1,3}", s):
        v = int(s)
        return v if 0 < v <= 24 * 60 else None
    minutes, _ = extract_duration(s, bare_number_after_na=True)
    if minutes is None and re.fullmatch(r"(час|an hour|one hour|1 hour|hour)", s):
        return 60
    return minutes
