"""Every bound on what a caller can send (DESIGN §10), in one place for the server and the planner.

A value over a bound is refused with the field's path and the limit, never echoed back: a reply
repeats at most what these limits allow. Producers of new inputs (an `intents` list, a new tool
argument) import the constants and `oversized` from here rather than inventing their own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

__all__ = [
    "MAX_BODY",
    "MAX_DEPTH",
    "MAX_ID",
    "MAX_INTENTS",
    "MAX_ITEMS",
    "MAX_LIST",
    "MAX_NAME",
    "MAX_OPEN_DRAFTS",
    "MAX_TEXT",
    "MAX_TITLE",
    "NOW_RANGE",
    "Oversized",
    "in_range",
    "limit_for",
    "oversized",
]

MAX_TEXT = 4000  # the person's words (`text`, a transcript, a free-text answer) and any other string
MAX_TITLE = 500  # a title or a name
MAX_BODY = 10_000  # a note, a comment, a description
MAX_LIST = 100  # items in any list (and keys in any object)
MAX_ID = 200  # ids a client chooses: user_id, conversation_id, callback_id
MAX_DEPTH = 8  # nesting of a structured input
MAX_ITEMS = MAX_LIST  # the intents' name for it
MAX_NAME = 200  # a reference in an intent: a name, an identifier, a date in words
MAX_INTENTS = 20  # intents in one request
MAX_OPEN_DRAFTS = 50  # drafts one user may have waiting for a yes; a new one cancels the oldest
# `now` outside these years is refused: relative dates near year 9999 overflow, and no person plans there
NOW_RANGE = (2000, 2199)

_TITLES = frozenset({"title", "name", "summary", "label", "task_title", "new_title"})
_BODIES = frozenset({"body", "content", "description", "note", "comment", "text_body", "details"})


def limit_for(key: str) -> int:
    """The length bound of a string carried under `key` (a title 500, a body 10,000, else 4,000)."""
    low = key.lower()
    if low in _TITLES:
        return MAX_TITLE
    if low in _BODIES:
        return MAX_BODY
    return MAX_TEXT


@dataclass(frozen=True)
class Oversized:
    """Where a value breaks a bound, and which: safe to show (it never carries the value)."""

    path: str
    size: int
    limit: int
    what: str  # "characters" | "items" | "levels"

    def message(self, lang: str) -> str:
        if lang == "ru":
            unit = {"characters": "символов", "items": "элементов", "levels": "уровней"}[self.what]
            return f"Поле {self.path} слишком большое: {self.size} {unit}, максимум {self.limit}."
        return f"{self.path} is too large: {self.size} {self.what}, at most {self.limit}."


def oversized(value: Any, path: str, *, key: str | None = None, depth: int = 0) -> Oversized | None:
    """The first bound `value` breaks (strings by their key, lists and objects by item count,
    nesting by depth), or None when everything fits."""
    if isinstance(value, str):
        limit = limit_for(key or path.rsplit(".", 1)[-1])
        return Oversized(path, len(value), limit, "characters") if len(value) > limit else None
    if depth >= MAX_DEPTH and isinstance(value, Mapping | list | tuple):
        return Oversized(path, depth + 1, MAX_DEPTH, "levels")
    if isinstance(value, Mapping):
        if len(value) > MAX_LIST:
            return Oversized(path, len(value), MAX_LIST, "items")
        for k, v in value.items():
            name = str(k)
            if len(name) > MAX_TITLE:
                return Oversized(f"{path}.<key>", len(name), MAX_TITLE, "characters")
            found = oversized(v, f"{path}.{name[:40]}", key=name, depth=depth + 1)
            if found is not None:
                return found
        return None
    if isinstance(value, list | tuple):
        if len(value) > MAX_LIST:
            return Oversized(path, len(value), MAX_LIST, "items")
        for i, v in enumerate(value):
            found = oversized(v, f"{path}[{i}]", key=key, depth=depth + 1)
            if found is not None:
                return found
    return None


def in_range(moment: datetime) -> bool:
    """Whether `now` is a moment the planner can reason from (see NOW_RANGE)."""
    return NOW_RANGE[0] <= moment.year <= NOW_RANGE[1]
