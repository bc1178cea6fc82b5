"""Opening the one SQLite file that the draft store and the sandbox share (DESIGN §8)."""

from __future__ import annotations

import os
import sqlite3
import time

__all__ = ["open_connection"]


def _enable_wal(conn: sqlite3.Connection, budget_s: float) -> None:
    # WAL is persistent in the file, so only the first opener switches. The switch needs an exclusive
    # lock and SQLite answers SQLITE_BUSY at once (the busy handler is not consulted) while another
    # process opens the same fresh file, so retry briefly.
    deadline = time.monotonic() + budget_s
    delay = 0.005
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError:
            if time.monotonic() >= deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.1)


def open_connection(path: str | os.PathLike[str] | None, *, wal_budget_s: float = 5.0) -> sqlite3.Connection:
    """An autocommit connection (callers issue `BEGIN IMMEDIATE` themselves) shared across threads
    under the caller's lock: busy timeout 5 s, WAL, `synchronous=NORMAL`. None opens `:memory:`."""
    target = ":memory:" if path is None else os.fspath(path)
    conn = sqlite3.connect(target, check_same_thread=False, isolation_level=None)
    try:
        conn.execute("PRAGMA busy_timeout=5000")
        _enable_wal(conn, wal_budget_s)
        conn.execute("PRAGMA synchronous=NORMAL")
    except BaseException:
        conn.close()
        raise
    return conn
