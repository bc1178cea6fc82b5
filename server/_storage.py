"""A database that refuses a write mid-request (a read-only file, a full disk, damaged pages) is the
disk's fault, not the person's: they get a short message saying so and the log one line, never a
traceback or SQL (DESIGN §10)."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Awaitable

from server.render import t
from server.replies import Reply
from toolkits.sqlite import storage_problem

__all__ = ["guarded"]

log = logging.getLogger("planner.server")


def _problem(exc: Exception) -> str | None:
    if isinstance(exc, sqlite3.Error) or type(exc).__module__.startswith("psycopg"):
        return storage_problem(exc, "the server's database")
    return None


async def guarded(call: Awaitable[Reply], lang: str = "en") -> Reply:
    """The reply of `call`, or a clear failure when the database refused it for a storage reason."""
    try:
        return await call
    except Exception as exc:
        problem = _problem(exc)
        if problem is None:
            raise
        log.error("database unavailable: %s", problem)
        return Reply(
            ok=False,
            status="failed",
            user_message=t(
                lang,
                "Сервер не может записать свою базу данных (только для чтения, диск заполнен или файл "
                "повреждён) — ничего не изменено. Сообщите администратору.",
                f"The server cannot use its database ({problem}). Nothing was changed; tell its administrator.",
            ),
        )
