"""Opening the one SQLite file that the draft store and the sandbox share (DESIGN §8)."""

from __future__ import annotations

import os
import sqlite3
import time

__all__ = ["UnusableDatabase", "open_connection", "storage_problem"]


class UnusableDatabase(RuntimeError):
    """The database file cannot be used (empty, damaged, read-only, on a full disk); the message
    says which file and what to do, and carries no SQL."""


def storage_problem(exc: BaseException, where: str = "the database") -> str | None:
    """What a person can do about a database error that is the disk's or the file's fault (read-only,
    full, damaged, not a database), or None for any other error."""
    text = str(exc).lower()
    kind = type(exc).__name__
    if "readonly" in text or "read-only" in text or kind == "ReadOnlySqlTransaction":
        return f"{where} is read-only: the planner must write drafts and its audit log there; fix its permissions or use another path"
    if "disk is full" in text or "database or disk is full" in text or kind == "DiskFull":
        return f"the disk holding {where} is full: free some space, nothing was changed"
    if "malformed" in text or "not a database" in text or "disk i/o error" in text or kind == "DataCorrupted":
        return f"{where} is damaged or not a planner database: restore it from a backup or move it away"
    return None


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
    under the caller's lock: busy timeout 5 s, WAL, `synchronous=NORMAL`. None opens `:memory:`.

    The file is checked first (DESIGN §10): an empty file, damaged pages (`PRAGMA quick_check`), a
    read-only file or a full disk are refused, never served.

    Raises:
        UnusableDatabase: the file cannot be used; the message says what to do.
        sqlite3.Error: any other failure to open it.
    """
    target = ":memory:" if path is None else os.fspath(path)
    if path is not None and os.path.isfile(target) and os.path.getsize(target) == 0:
        # An empty file is not a fresh database: someone's data may have been lost there.
        raise UnusableDatabase(
            f"{target} is an empty file, not a planner database: move it away (a new path starts a fresh sandbox)"
        )
    conn = sqlite3.connect(target, check_same_thread=False, isolation_level=None)
    try:
        conn.execute("PRAGMA busy_timeout=5000")
        _enable_wal(conn, wal_budget_s)
        conn.execute("PRAGMA synchronous=NORMAL")
        if path is not None:
            found = [row[0] for row in conn.execute("PRAGMA quick_check(5)")]
            if found != ["ok"]:
                raise UnusableDatabase(
                    f"{target} is damaged (quick_check: {'; '.join(found)[:200]}): restore it from a backup or move it away"
                )
    except sqlite3.Error as exc:
        conn.close()
        problem = storage_problem(exc, target)
        if problem is None:
            raise
        raise UnusableDatabase(problem) from exc
    except BaseException:
        conn.close()
        raise
    return conn
