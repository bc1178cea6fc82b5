"""`TELEGRAM_ALLOWED_USERS`: who may use the bot (no Telegram imports: the settings read it)."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["AllowList", "AllowListError"]

_USERNAME = re.compile(r"@?[A-Za-z][A-Za-z0-9_]{3,31}")


class AllowListError(ValueError):
    """An entry of TELEGRAM_ALLOWED_USERS is neither an id, a @username nor `*`."""


@dataclass(frozen=True)
class AllowList:
    """Telegram user ids and @usernames that may use the bot anywhere, and group chat ids (negative)
    in which everyone may; `everyone` admits all (`*`)."""

    everyone: bool = False
    ids: frozenset[int] = frozenset()
    usernames: frozenset[str] = frozenset()  # lower case, without "@"

    @classmethod
    def parse(cls, raw: str) -> AllowList:
        """`"123, @anna_k -1001234567890"` (commas or spaces); `*` admits everyone.

        Raises:
            AllowListError: an entry is none of those (the message shows at most 40 characters of it).
        """
        ids: set[int] = set()
        names: set[str] = set()
        everyone = False
        for item in re.split(r"[,\s]+", raw.strip()):
            if not item:
                continue
            if item == "*":
                everyone = True
            elif re.fullmatch(r"-?\d{1,20}", item):
                ids.add(int(item))
            elif _USERNAME.fullmatch(item):
                names.add(item.lstrip("@").lower())
            else:
                raise AllowListError(f"not a Telegram id, @username or *: {item[:40]!r}")
        return cls(everyone, frozenset(ids), frozenset(names))

    def admits(self, user_id: int, username: str | None, chat_id: int) -> bool:
        if self.everyone or user_id in self.ids or chat_id in self.ids:
            return True
        return bool(username) and str(username).lower() in self.usernames

    def __bool__(self) -> bool:
        return self.everyone or bool(self.ids or self.usernames)
