"""Numbers said in words, as digits: "на девяносто минут", "at nine thirty", "триста тысяч рублей".

Dictated requests spell numbers out. Only numbers that measure something are rewritten — followed by
a unit (minutes, hours, thousands, a currency) or after a preposition of time ("в пять вечера", "at
nine thirty", "минут на сорок") — so "в один клик" in a title stays words. The rewrite keeps every
offset (digits right-aligned in the words' place; `planner.dates` widens a span that covers part of
such a place to the whole words), because callers map spans back onto the original text.

(A general number parser would also rewrite titles and ordinals — "двадцать второго" is a date —
and costs an import for a handful of words; these are the words people use with a planner.)
"""

from __future__ import annotations

import re
from functools import lru_cache

from planner._lazy_re import LazyRe

__all__ = ["NUMBER_WORDS", "money_number", "number_from_words", "spoken_numbers"]

_UNITS = {
    "один": 1, "одна": 1, "одну": 1, "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6,
    "семь": 7, "восемь": 8, "девять": 9,
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
}  # fmt: skip
_TEENS_TENS = {
    "десять": 10, "одиннадцать": 11, "двенадцать": 12, "тринадцать": 13, "четырнадцать": 14,
    "пятнадцать": 15, "шестнадцать": 16, "семнадцать": 17, "восемнадцать": 18, "девятнадцать": 19,
    "двадцать": 20, "тридцать": 30, "сорок": 40, "пятьдесят": 50, "шестьдесят": 60, "семьдесят": 70,
    "восемьдесят": 80, "девяносто": 90,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
_HUNDREDS = {
    "сто": 100, "двести": 200, "триста": 300, "четыреста": 400, "пятьсот": 500, "шестьсот": 600,
    "семьсот": 700, "восемьсот": 800, "девятьсот": 900,
}  # fmt: skip
_VALUES = {**_UNITS, **_TEENS_TENS, **_HUNDREDS, "hundred": 100}
_WORD = "|".join(sorted(_VALUES, key=len, reverse=True))
_RUN = LazyRe(rf"\b(?:{_WORD})(?:(?:\s+|-|\s+and\s+)(?:{_WORD}))*\b")
_ANY = LazyRe(_WORD)
_MEASURE_AFTER = LazyRe(
    r"\s*(?:минут|мин\b|час|hour|minute|min\b|тысяч|тыс\b|млн|миллион|thousand|million|grand|руб|долл|dollar|"
    r"евро|euro|usd|eur|rub|k\b|к\b|кусок|косар|утра|дня|"  # «сорок пять к»: thousands, said short
    r"вечера|ночи|am\b|pm\b|o'?clock)"
)
_MONEY_AFTER = LazyRe(
    r"\s*(?:тысяч|тыс\b|thousand|grand|k\b|к\b|косар|кусок|руб|долл|dollar|евро|euro|usd|eur|rub)"
)
# after "в пять"/"at nine" without a unit: only where the phrase ends ("в пять, завтра", "at nine tomorrow")
_ENDS = LazyRe(
    r"\s*(?:$|[,.;:!?)]|(?:завтра|сегодня|послезавтра|tomorrow|today|tonight|on|in|и|and|на|for)\b)"
)
_TIME_BEFORE = LazyRe(r"(?:\b(?:в|во|к|at|by|на|for|around|около|часов\s+в)|минут\s+на)\s+$")
_LOOKBACK = 40  # more than the longest of those, and the spaces after it


def _value(said: list[str]) -> tuple[int, int | None] | None:
    """(hours, minutes) for a clock ("nine thirty"), else (number, None)."""
    words = [w for w in said if w != "and"]
    values = [_VALUES[w] for w in words]
    if (
        len(values) >= 2
        and 1 <= values[0] <= 12
        and words[0] in _UNITS | _TEENS_TENS
        and 10 <= sum(values[1:]) < 60
    ):
        if words[1] in _TEENS_TENS:  # "nine thirty", "пять сорок пять"
            return values[0], sum(values[1:])
    total = 0
    for w, v in zip(words, values, strict=True):
        total = max(total, 1) * 100 if w == "hundred" else total + v
    return (total, None) if total else None


_PAST = LazyRe(r"\b(half|quarter)\s+(past|to)\s+(\w+)\b")


def _clock_phrase(m: re.Match[str]) -> str:
    """ "half past two" -> "2:30", "quarter to ten" -> "9:45", in the phrase's place."""
    hour = _VALUES.get(m.group(3)) if not m.group(3).isdecimal() else int(m.group(3))
    if hour is None or not 1 <= hour <= 12:
        return m.group(0)
    minutes = 30 if m.group(1) == "half" else 15
    if m.group(2) == "to":
        hour, minutes = (hour - 1) or 12, 60 - minutes
    return f"{hour}:{minutes:02d}".rjust(len(m.group(0)))


_DIGIT_WORDS_FIRST = {w: v for w, v in _UNITS.items() if v < 10}


@lru_cache(maxsize=512)  # dates, durations and amounts each read the same clause
def spoken_numbers(low: str) -> str:
    """`low` (lower case) with measuring number words as digits, every offset kept."""
    low = _PAST.sub(_clock_phrase, low)
    if " point " in low or " запятая " in low:
        low = _POINT.sub(_point, low)  # "one point three million": 1.3 of them, not three
    if not _ANY.search(low):
        return low

    def digits(m: re.Match[str]) -> str:
        span = m.group(0)
        said = re.split(r"[\s-]+", span)
        value = _value(said)
        # "globex phase two sixty k": a unit then a ten is two numbers (a name's, then the sum), unless a clock
        broken = next(
            (i for i in range(1, len(said)) if said[i - 1] in _UNITS and said[i] in _TEENS_TENS), None
        )
        # ("phase two forty five k": a sum after it is no clock — the name's "two", then 45k)
        if (
            broken is not None
            and value is not None
            and (value[1] is None or _MONEY_AFTER.match(low, m.end()))
        ):
            at = m.start() + len(" ".join(said[:broken])) + 1
            tail = _RUN.match(low, at)
            if tail is not None and tail.end() == m.end():
                return span[: at - m.start()] + digits(tail)
        if value is None:
            return span
        hours, minutes = value
        # the words around the number, read in place (no copies of a long text per number)
        timed = _TIME_BEFORE.search(low, max(0, m.start() - _LOOKBACK), m.start()) and (
            minutes is not None or _ENDS.match(low, m.end())
        )
        if not (_MEASURE_AFTER.match(low, m.end()) or timed):  # "в один клик" stays words
            return span
        text = f"{hours}:{minutes:02d}" if minutes is not None else str(hours)
        return text.rjust(len(span)) if len(text) <= len(span) else span

    low = _THOUSANDS_AND.sub(_thousands_and, low)  # "двадцать две тысячи пятьсот" is one sum
    return _RUN.sub(digits, low)


# a decimal said aloud before a scale word: "one point three million", «два запятая пять миллиона»
_POINT = LazyRe(
    rf"\b(\d+|{'|'.join(sorted(_DIGIT_WORDS_FIRST, key=len, reverse=True))})\s+(?:point|запятая)\s+"
    rf"(\d|{'|'.join(sorted(_DIGIT_WORDS_FIRST, key=len, reverse=True))})\b"
    r"(?=\s+(?:million|millions|миллион\w*|млн|thousand|тысяч\w*|billion|миллиард\w*|k|m|bn)\b)"
)


def _point(m: re.Match[str]) -> str:
    whole, tenth = (int(x) if x.isdigit() else _DIGIT_WORDS_FIRST[x] for x in (m.group(1), m.group(2)))
    return f"{whole}.{tenth}".rjust(len(m.group(0)))


# "двадцать две тысячи пятьсот", "twenty two thousand five hundred": thousands and the rest, one number
_THOUSANDS_AND = LazyRe(
    rf"\b((?:{_WORD})(?:(?:\s+|-)(?:{_WORD}))*)\s+(тысяч[аи]?|thousand)\s+(?:and\s+)?"
    rf"((?:{_WORD})(?:(?:\s+|-|\s+and\s+)(?:{_WORD}))*)\b"
)


def _thousands_and(m: re.Match[str]) -> str:
    high = _value(re.split(r"[\s-]+", m.group(1)))
    rest = _value(re.split(r"[\s-]+", m.group(3)))
    if high is None or rest is None or high[1] is not None or rest[1] is not None or rest[0] >= 1000:
        return m.group(0)
    return str(high[0] * 1000 + rest[0]).rjust(len(m.group(0)))


_DIGIT_WORDS = {
    **{w: v for w, v in _UNITS.items() if v < 10},
    "zero": 0,
    "oh": 0,
    "o": 0,
    "ноль": 0,
    "нуль": 0,
}
NUMBER_WORDS = "|".join(sorted({*_VALUES, *_DIGIT_WORDS, "a"}, key=len, reverse=True))


def number_from_words(words: list[str]) -> int | None:
    """A number said as words, for an identifier: "сто два" = 102, "twelve" = 12, "one oh five" = 105
    (digit by digit), "a hundred and one" = 101; None when the words are not one number."""
    said = [w for w in (x.lower() for x in words) if w not in ("and", "и")]
    if not said or any(w not in _VALUES and w not in _DIGIT_WORDS and w != "a" for w in said):
        return None
    if len(said) >= 2 and all(w in _DIGIT_WORDS for w in said):
        return int("".join(str(_DIGIT_WORDS[w]) for w in said))
    total = 0
    for w in said:
        if w == "a":
            continue
        total = max(total, 1) * 100 if w == "hundred" else total + (_VALUES.get(w) or _DIGIT_WORDS.get(w, 0))
    return total or None


def money_number(num: str) -> float:
    """ "12,500.50" and «12 500,50» are 12500.5; "20,000" and "1.500.000" are thousands grouped; "1,5" is 1.5."""
    digits = num.replace(" ", "")
    if "," in digits and "." in digits:  # both: the one said last marks the decimals
        decimal = "," if digits.rfind(",") > digits.rfind(".") else "."
        digits = digits.replace("." if decimal == "," else ",", "").replace(",", ".")
    elif re.fullmatch(r"\d{1,3}(?:[,.]\d{3})+", digits):
        digits = digits.replace(",", "").replace(".", "")
    else:
        digits = digits.replace(",", ".")
    return float(digits)
