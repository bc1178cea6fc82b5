"""Inline keyboards and the short keys their buttons carry.

Telegram's `callback_data` is 1-64 *bytes*: a 36-character record id plus a plan id would not fit,
and a Cyrillic label runs out at ~30 characters. So a button carries only `<verb>:<12-char token>`
(14 bytes) and the payload stays here, with the Telegram user and chat it was shown to, so a press
by anyone else is refused before the planner is asked. The store is in memory and bounded: after a
restart old buttons answer "expired" (the planner's own idempotency still holds).
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

__all__ = ["MAX_CALLBACK_BYTES", "Action", "Button", "CallbackKeys", "Pressed", "markup"]

MAX_CALLBACK_BYTES = 64

Kind = Literal["pick", "confirm", "count", "cancel", "voice", "retype"]
_VERB: dict[Kind, str] = {
    "pick": "p",
    "confirm": "c",
    "count": "n",
    "cancel": "x",
    "voice": "v",
    "retype": "e",
}


@dataclass(frozen=True)
class Action:
    """What pressing a button means; only the fields of its kind are set."""

    kind: Kind
    plan_id: str = ""
    question_id: str = ""
    value: str = ""
    label: str = ""  # the choice's label (pick) or the draft's summary (confirm/count)
    prompt: str = ""  # the question a choice answers, shown with the choice once it is made
    draft_id: str = ""
    count: int = 0
    transcript: str = ""
    file_id: str = ""
    confidence: float | None = None


@dataclass(frozen=True)
class Button:
    label: str
    action: Action


@dataclass(frozen=True)
class Pressed:
    action: Action
    user_id: int  # the Telegram user the button was shown to
    chat_id: int
    token: str


class CallbackKeys:
    """token -> (action, owner); least recently issued tokens are evicted first."""

    def __init__(
        self, capacity: int = 50_000, ttl_s: float = 48 * 3600, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._items: OrderedDict[str, tuple[float, Pressed]] = OrderedDict()
        self._capacity, self._ttl, self._clock = capacity, ttl_s, clock

    def __len__(self) -> int:
        return len(self._items)

    def put(self, action: Action, *, user_id: int, chat_id: int) -> str:
        """Register a button; returns its callback_data."""
        token = secrets.token_urlsafe(9)  # 72 random bits: unguessable, 12 URL-safe characters
        self._items[token] = (self._clock(), Pressed(action, user_id, chat_id, token))
        while len(self._items) > self._capacity:
            self._items.popitem(last=False)
        data = f"{_VERB[action.kind]}:{token}"
        assert len(data.encode()) <= MAX_CALLBACK_BYTES
        return data

    def get(self, data: str | None) -> Pressed | None:
        """The press behind callback_data, or None when unknown, expired or forged."""
        verb, _, token = (data or "").partition(":")
        found = self._items.get(token)
        if found is None:
            return None
        issued, pressed = found
        if self._clock() - issued > self._ttl:
            del self._items[token]
            return None
        if _VERB[pressed.action.kind] != verb:
            return None
        return pressed


def markup(
    rows: list[list[Button]], keys: CallbackKeys, *, user_id: int, chat_id: int
) -> InlineKeyboardMarkup | None:
    if not rows:
        return None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    b.label[:120], callback_data=keys.put(b.action, user_id=user_id, chat_id=chat_id)
                )
                for b in row
            ]
            for row in rows
            if row
        ]
    )
