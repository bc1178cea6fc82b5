"""Seed 004's conversation rules for an open question: an answer by position or by words ("the second
one", «вторую», «второй вариант», "last one"), "отмена"/"cancel" leaving the question, and a message
that is a new request rather than an answer."""

from __future__ import annotations

import re
from datetime import datetime

from planner.text import norm

__all__ = ["is_cancel", "is_send_anyway", "looks_like_request", "position_of"]

_ORDINALS: dict[str, int] = {
    "перв": 1, "втор": 2, "трет": 3, "четверт": 4, "четвёрт": 4, "пят": 5, "последн": -1,
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
    "fifth": 5, "5th": 5, "last": -1,
}  # fmt: skip
# a Russian ordinal is its stem and an adjective ending ("пятницу" and "четверг" are not ordinals)
_RU_ORDINAL = re.compile(
    r"^(перв|втор|трет|четв[её]рт|пят|последн)(ый|ой|ий|ая|яя|ую|юю|ое|ее|ого|его|ей|ья|ью|ье|ьего|ьей|ые|ие)$"
)
# words that may stand around an ordinal without changing it: "the second one", «второй вариант»
_FILLER = frozenset(
    """the one option choice number item variant please pick choose take i want id like
    вариант варианта пункт номер давай выбираю выбери беру возьми мне нужен нужна нужно нужную
    этот эту это тот ту та сделку сделка задачу задача контакт компанию запись пожалуйста ну а""".split()
)
_CANCEL = frozenset(
    {"отмена", "отмени", "отменить", "отменяй", "cancel", "never mind", "nevermind", "forget it", "забудь",
     "не надо", "/cancel", "стоп", "stop"}
)  # fmt: skip


def _words(text: str) -> list[str]:
    return re.findall(r"[#\w]+", norm(text))


def position_of(text: str, count: int) -> int | None:
    """The 0-based index of the choice that `text` names by position, or None: "2", "#2", "вариант 2",
    "the second one", «вторую», «второй вариант», "last one", «последний»."""
    words = [w for w in _words(text) if w not in _FILLER]
    if len(words) != 1 or count < 1:
        return None
    word = words[0].lstrip("#")
    if word.isdigit():
        return int(word) - 1 if 1 <= int(word) <= count else None
    russian = _RU_ORDINAL.match(word)
    n = _ORDINALS.get(russian.group(1) if russian else word)
    if n is None:
        return None
    if n == -1:
        return count - 1
    return n - 1 if n <= count else None


def is_cancel(text: str) -> bool:
    """Whether the message leaves the open question ("отмена", "cancel", "never mind")."""
    return re.sub(r"[\s!.,]+", " ", norm(text)).strip() in _CANCEL


_SEND = frozenset({"отправь", "отправить", "отправляй", "пошли", "повтори", "send", "resend", "retry", "do"})
_ANYWAY = frozenset(
    {"всё", "все", "равно", "заново", "anyway", "again", "it", "still", "it's", "fine", "ок", "ok"}
)


def is_send_anyway(text: str) -> bool:
    """The person's explicit "send it anyway" / «отправь всё равно» after an outcome stayed unknown."""
    words = _words(text)
    if not 1 <= len(words) <= 5 or not any(w in _SEND for w in words):
        return False
    rest = [w for w in words if w not in _SEND]
    return ("resend" in words and not rest) or (
        bool(rest)
        and all(w in _ANYWAY for w in rest)
        and any(w in ("равно", "заново", "anyway") for w in rest)
    )


def looks_like_request(text: str, now: datetime) -> bool:
    """Whether a message sent while a question is open reads as a new request rather than an answer:
    it opens with an action or a question verb ("закрой ENG-101", "покажи мои задачи", "move …")
    and says more than one word. A name, a date or a title does not."""
    from planner.analysis import split_clauses

    if len(_words(text)) < 2 or is_cancel(text):
        return False
    clauses = split_clauses(text, now)
    if not clauses:
        return False
    first = clauses[0]
    lead = min(first.first("create", "put", "move", "complete", "delete", "archive", "assign", "rename"),
               first.first("query", "comment", "note_verb", "remind"))  # fmt: skip
    return lead == 0
