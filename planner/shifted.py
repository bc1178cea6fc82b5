"""A due date moved by an amount of time, not to a day: «Сдвинь ENG-106 на неделю вперёд», "push ENG-106 a week",
«Перенеси дедлайн по ENG-106 на два дня позже», «Какой срок у ENG-106? Сдвинь на неделю вперёд.». The issue's
due date is read now and the request is written with the day it comes to, so the rules read it as a day said.
An issue without a due date, or none named, is left as said (what day is meant is then asked)."""

from __future__ import annotations

import re
from datetime import date, timedelta

from planner._lazy_re import LazyRe
from planner.directory import Directory
from planner.numbers import NUMBER_WORDS

__all__ = ["shifted_due"]

_UNIT = r"(?P<unit>дн(?:я|ей)|день|недел[юиь]|weeks?|days?)"
_COUNT = rf"(?P<n>\d{{1,2}}|одну|один|два|две|три|четыре|пять|шесть|семь|a|an|{NUMBER_WORDS})"
_SHIFT = LazyRe(
    r"(?i)\b(?P<verb>сдвинь|сдвиньте|перенеси|перенесите|передвинь|отодвинь|отложи|push|move|shift|delay|postpone|"
    r"slide|bump)\b(?P<mid>[^.!?;:]{0,40}?)\s+(?P<by>(?:на|by)\s+)?"
    rf"(?:{_COUNT}\s+)?(?<!next\s)(?<!this\s){_UNIT}\b(?:\s+(?P<dir>вперёд|вперед|позже|later|forward|out|назад|раньше|earlier|back))?"
)
_CONTENT_BEFORE = LazyRe(r"(?i)\b(?:comment\w*|коммент\w*|note|notes|заметк\w*|saying|что)\b")
_OTHER_THING = LazyRe(
    r"(?i)\b(?:созвон\w*|встреч\w*|звон\w*|митинг\w*|call|meeting|sync|demo|демо|сделк\w*|deal|задач\w*\s+в\s+crm|crm)\b"
)
_ID = LazyRe(r"\b[A-Z]{1,10}-\d{1,6}\b")
_WORDS = {
    "одну": 1, "один": 1, "a": 1, "an": 1, "one": 1, "два": 2, "две": 2, "two": 2, "три": 3, "three": 3,
    "четыре": 4, "four": 4, "пять": 5, "five": 5, "шесть": 6, "six": 6, "семь": 7, "seven": 7,
}  # fmt: skip


async def shifted_due(text: str, directory: Directory) -> str:
    said = _SHIFT.search(text)
    if said is None or said["n"] is None and not (said["by"] and said["unit"].lower() in ("неделю", "week")):
        return text  # ("push it to next week", «на вторник следующей недели»: a day, no amount of time)
    if _OTHER_THING.search(said["mid"] or ""):
        return text  # «перенеси созвон с Марией на неделю»: a meeting or a deal moved, not an issue's day
    if _CONTENT_BEFORE.search(text[: said.start()]):
        return text  # "Comment on CS-12: John asked to push the call to next week": their words
    named = _ID.findall(text[: said.end()])
    if not named or len(set(named)) > 1 and not _ID.search(said["mid"] or ""):
        return text  # none, or several and it is not said which
    ident = (_ID.findall(said["mid"] or "") or named)[-1]
    issue = await directory.issue(ident)
    due = issue.get("dueDate") if issue else None
    if not isinstance(due, str):
        return text
    count = said["n"] or "1"
    n = int(count) if count.isdigit() else _WORDS.get(count.lower(), 0)
    if not n:
        return text
    days = n * (7 if said["unit"].lower().startswith(("недел", "week")) else 1)
    back = (said["dir"] or "").lower() in ("назад", "раньше", "earlier", "back")
    day = date.fromisoformat(due[:10]) + timedelta(days=-days if back else days)
    russian = bool(re.search("[а-яё]", said.group(0), re.I))
    instead = (
        f"перенеси срок {ident} на {day.isoformat()}"
        if russian
        else f"set {ident} due date to {day.isoformat()}"
    )
    return text[: said.start()] + instead + text[said.end() :]
