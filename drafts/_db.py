"""One SQLite connection, its pragmas, and the transaction helpers every store method goes through.

Each store method hands a synchronous function to `read` or `write`; that function runs in a worker
thread (`asyncio.to_thread`) under a lock, inside one transaction, so a transaction never spans an
`await` and the event loop never blocks on disk or on another process's write lock.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from drafts._migrations import apply_migrations
from toolkits.sqlite import UnusableDatabase, open_connection, storage_problem

__all__ = ["Database", "dumps", "iso", "loads", "to_utc"]

T = TypeVar("T")


def to_utc(moment: datetime) -> datetime:
    """A naive datetime is taken to be UTC; an aware one is converted to UTC."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def iso(moment: datetime) -> str:
    return to_utc(moment).isoformat()


def dumps(value: Any) -> str:
    # `default=str` keeps an odd value from a backend (a datetime, a Decimal) from failing the write
    # that records an outcome which has already happened remotely.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


class Database:
    """The connection shared by one store object (one per process in production)."""

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self._lock = threading.Lock()
        self._conn = open_connection(path)
        self._closed = False
        try:
            self._conn.execute("PRAGMA foreign_keys=ON")
            apply_migrations(self._conn)
        except sqlite3.Error as exc:
            self._conn.close()
            problem = storage_problem(exc, os.fspath(path) if path is not None else "the database")
            if problem is None:
                raise
            raise UnusableDatabase(problem) from exc
        except BaseException:
            self._conn.close()
            raise

    def _run(self, fn: Callable[[sqlite3.Connection], T], begin: str) -> T:
        with self._lock:
            if self._closed:
                raise RuntimeError("the draft store is closed")
            self._conn.execute(begin)
            try:
                value = fn(self._conn)
            except BaseException:
                # SQLite may have rolled back already (SQLITE_FULL does): keep the original error
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
            return value

    async def read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn` in a deferred transaction (a consistent snapshot for several SELECTs).

        Raises:
            sqlite3.Error: from the database; RuntimeError: the store is closed.
        """
        return await asyncio.to_thread(self._run, fn, "BEGIN")

    async def write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn` in a `BEGIN IMMEDIATE` transaction; rolled back if `fn` raises.

        IMMEDIATE takes the write lock up front: a deferred read-then-write transaction would fail
        with SQLITE_BUSY at once when another process committed in between, busy_timeout or not.

        Raises:
            sqlite3.Error: from the database; RuntimeError: the store is closed.
        """
        return await asyncio.to_thread(self._run, fn, "BEGIN IMMEDIATE")

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._conn.close()
