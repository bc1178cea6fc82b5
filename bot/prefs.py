"""What a person set for themselves (`/tz`), kept beside the button keys in `TELEGRAM_STATE_DB` so it
outlives a restart (in memory only when there is no file)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

__all__ = ["UserPrefs"]


class UserPrefs:
    def __init__(self, path: str | Path | None = None) -> None:
        self._zones: dict[int, str] = {}
        self._db: sqlite3.Connection | None = None
        if path:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS user_prefs (user_id INTEGER PRIMARY KEY, timezone TEXT)"
            )
            self._zones = {
                int(u): str(z) for u, z in self._db.execute("SELECT user_id, timezone FROM user_prefs")
            }

    def timezone(self, user_id: int) -> str | None:
        return self._zones.get(user_id)

    def set_timezone(self, user_id: int, zone: str | None) -> None:
        """Remember the person's zone (None: back to the bot's default)."""
        if zone is None:
            self._zones.pop(user_id, None)
        else:
            self._zones[user_id] = zone
        if self._db is not None:
            if zone is None:
                self._db.execute("DELETE FROM user_prefs WHERE user_id = ?", (user_id,))
            else:
                self._db.execute("INSERT OR REPLACE INTO user_prefs VALUES (?, ?)", (user_id, zone))

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
