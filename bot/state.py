"""What the bot remembers between updates, all bounded and in memory.

None of it is needed for correctness across restarts: the planner stores drafts, replays callback
ids and runs each draft once. This state only makes the chat behave well within one process:
drop a re-delivered update at once, say "already running" to a double tap instead of asking the
planner again, know which question a typed answer belongs to, and tidy up old keyboards.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Literal

__all__ = ["ChatKey", "ChatMemory", "OpenQuestion", "Once", "Seen"]

ChatKey = tuple[int, int]  # (chat id, Telegram user id): in a group each person has their own thread


class Seen:
    """A bounded set: `add` is True only the first time (check-and-add has no await, so it is atomic)."""

    def __init__(self, capacity: int = 20_000) -> None:
        self._items: OrderedDict[Hashable, None] = OrderedDict()
        self._capacity = capacity

    def add(self, item: Hashable) -> bool:
        if item in self._items:
            return False
        self._items[item] = None
        while len(self._items) > self._capacity:
            self._items.popitem(last=False)
        return True


class Once:
    """Per-key progress of a press: idle -> busy -> (done | idle again when more input is needed)."""

    def __init__(self, capacity: int = 20_000) -> None:
        self._state: OrderedDict[str, Literal["busy", "done"]] = OrderedDict()
        self._capacity = capacity

    def state(self, key: str) -> Literal["idle", "busy", "done"]:
        return self._state.get(key, "idle")

    def begin(self, key: str) -> bool:
        if key in self._state:
            return False
        self._state[key] = "busy"
        while len(self._state) > self._capacity:
            self._state.popitem(last=False)
        return True

    def end(self, key: str, *, done: bool) -> None:
        if done:
            self._state[key] = "done"
        else:
            self._state.pop(key, None)


@dataclass(frozen=True)
class OpenQuestion:
    plan_id: str
    question_id: str
    free_text_allowed: bool


@dataclass
class _Thread:
    question: OpenQuestion | None = None
    keyboard_message_id: int | None = None


class ChatMemory:
    def __init__(self, capacity: int = 20_000) -> None:
        self._threads: OrderedDict[ChatKey, _Thread] = OrderedDict()
        self._capacity = capacity

    def _thread(self, key: ChatKey) -> _Thread:
        thread = self._threads.pop(key, None) or _Thread()
        self._threads[key] = thread  # most recently used last
        while len(self._threads) > self._capacity:
            self._threads.popitem(last=False)
        return thread

    def question(self, key: ChatKey) -> OpenQuestion | None:
        return self._thread(key).question

    def set_question(self, key: ChatKey, question: OpenQuestion | None) -> None:
        self._thread(key).question = question

    def take_keyboard(self, key: ChatKey) -> int | None:
        """The message whose keyboard is still live, forgetting it (the caller removes the keyboard)."""
        thread = self._thread(key)
        message_id, thread.keyboard_message_id = thread.keyboard_message_id, None
        return message_id

    def set_keyboard(self, key: ChatKey, message_id: int | None) -> None:
        self._thread(key).keyboard_message_id = message_id

    def drop_keyboard(self, key: ChatKey, message_id: int) -> None:
        thread = self._thread(key)
        if thread.keyboard_message_id == message_id:
            thread.keyboard_message_id = None
