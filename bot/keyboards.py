"""Inline keyboards and the short keys their buttons carry.

Telegram's `callback_data` is 1-64 *bytes*: a 36-character record id plus a plan id would not fit,
and a Cyrillic label runs out at ~30 characters. So a button carries only `<verb>:<12-char token>`
(14 bytes) and the payload stays here, with the Telegram user and chat it was shown to, so a press
by anyone else is refused before the planner is asked. The store is bounded; with a file
(`TELEGRAM_STATE_DB`) it survives a restart, so a Confirm shown before a redeploy still works after
it. In memory only, old buttons answer "expired" after a restart (the planner's own idempotency holds
either way).
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
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
    """token -> (action, owner); least recently issued tokens are evicted first.

    With `path`, every key is also written to a small SQLite file and looked up there when this
    process did not issue it (it was issued before a restart). Writes are one short local INSERT
    per button, cheap enough to do on the event loop.
    """

    def __init__(
        self,
        capacity: int = 50_000,
        ttl_s: float = 48 * 3600,
        clock: Callable[[], float] = time.time,  # wall time: issue times outlive the process
        path: str | Path | None = None,
    ) -> None:
        self._items: OrderedDict[str, tuple[float, Pressed]] = OrderedDict()
        self._capacity, self._ttl, self._clock = capacity, ttl_s, clock
        self._file = _KeyFile(Path(path), capacity) if path else None

    def __len__(self) -> int:
        return len(self._items)

    def put(self, action: Action, *, user_id: int, chat_id: int) -> str:
        """Register a button; returns its callback_data."""
        token = secrets.token_urlsafe(9)  # 72 random bits: unguessable, 12 URL-safe characters
        issued, pressed = self._clock(), Pressed(action, user_id, chat_id, token)
        self._remember(token, issued, pressed)
        if self._file is not None:
            self._file.put(token, issued, pressed)
        data = f"{_VERB[action.kind]}:{token}"
        assert len(data.encode()) <= MAX_CALLBACK_BYTES
        return data

    def _remember(self, token: str, issued: float, pressed: Pressed) -> None:
        self._items[token] = (issued, pressed)
        while len(self._items) > self._capacity:
            self._items.popitem(last=False)

    def get(self, data: str | None) -> Pressed | None:
        """The press behind callback_data, or None when unknown, expired or forged."""
        verb, _, token = (data or "").partition(":")
        found = self._items.get(token)
        if found is None and self._file is not None and len(token) <= 32:
            found = self._file.get(token)
            if found is not None:
                self._remember(token, *found)
        if found is None:
            return None
        issued, pressed = found
        if self._clock() - issued > self._ttl:
            del self._items[token]
            return None
        if _VERB[pressed.action.kind] != verb:
            return None
        return pressed

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


class _KeyFile:
    """The keys on disk: one row per button; the oldest rows beyond `capacity` are pruned now and then."""

    def __init__(self, path: Path, capacity: int) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS buttons (token TEXT PRIMARY KEY, issued REAL NOT NULL, body TEXT NOT NULL)"
        )
        self._capacity, self._writes = capacity, 0

    def put(self, token: str, issued: float, pressed: Pressed) -> None:
        body = json.dumps(asdict(pressed), ensure_ascii=False)
        self._db.execute("INSERT OR REPLACE INTO buttons VALUES (?, ?, ?)", (token, issued, body))
        self._writes += 1
        if self._writes % 1000 == 0:
            self._db.execute(
                "DELETE FROM buttons WHERE token IN (SELECT token FROM buttons ORDER BY issued DESC LIMIT -1 OFFSET ?)",
                (self._capacity,),
            )

    def get(self, token: str) -> tuple[float, Pressed] | None:
        row = self._db.execute("SELECT issued, body FROM buttons WHERE token = ?", (token,)).fetchone()
        if row is None:
            return None
        issued, body = row
        try:
            raw = json.loads(body)
            pressed = Pressed(Action(**raw.pop("action")), **raw)
        except (ValueError, TypeError):  # a row from an older, incompatible version: treat as expired
            return None
        return float(issued), pressed

    def close(self) -> None:
        self._db.close()


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
