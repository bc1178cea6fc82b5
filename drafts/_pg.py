"""The connection pool of the PostgreSQL draft store, opened (and migrated) on first use.

The pool is built when the store is built, which happens outside any event loop (the composition
root is synchronous), and opened by the first call, inside the loop that will serve: an asyncio
pool belongs to the loop that opened it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from psycopg import AsyncConnection
from psycopg.rows import TupleRow
from psycopg.types.json import Json
from psycopg_pool import AsyncConnectionPool

from drafts._db import dumps
from drafts._pg_migrations import apply_migrations

__all__ = ["Conn", "PgDatabase", "js"]

Conn = AsyncConnection[TupleRow]


def js(value: Any) -> Json:
    """A value for a `json` column, serialised as the SQLite store serialises it."""
    return Json(value, dumps=dumps)


class PgDatabase:
    """A pool of autocommit connections; each store method takes one for a statement or a
    transaction and gives it back at once.

    Args:
        conninfo: a `postgresql://` URL (its `options=-csearch_path=...` picks the schema).
        min_size, max_size: the pool's bounds, per process.
        open_timeout_s: how long the first call waits for the database.
    """

    def __init__(
        self, conninfo: str, *, min_size: int = 1, max_size: int = 10, open_timeout_s: float = 10.0
    ) -> None:
        self._conninfo, self._min_size, self._max_size = conninfo, min_size, max_size
        self._pool = self._new_pool()
        self._open_timeout_s = open_timeout_s
        self._opened = False
        self._closed = False
        self._opening = asyncio.Lock()

    def _new_pool(self) -> AsyncConnectionPool[Conn]:
        return AsyncConnectionPool(
            self._conninfo,
            min_size=self._min_size,
            max_size=self._max_size,
            open=False,
            kwargs={"autocommit": True},
            name="planner-drafts",
        )

    async def _ready(self) -> AsyncConnectionPool[Conn]:
        if self._closed:
            raise RuntimeError("the draft store is closed")
        if not self._opened:
            async with self._opening:
                if not self._opened:
                    try:
                        await self._pool.open(wait=True, timeout=self._open_timeout_s)
                        async with self._pool.connection() as conn:
                            await apply_migrations(conn)
                    except Exception:
                        # A pool that timed out opening is closed for good: a database that was
                        # down at start must still be used once it is back, so the next call
                        # starts over with a new pool.
                        failed, self._pool = self._pool, self._new_pool()
                        await failed.close()
                        raise
                    self._opened = True
        return self._pool

    async def open(self) -> None:
        """Connect and migrate now rather than on the first call.

        Raises:
            psycopg.Error, psycopg_pool.PoolTimeout: the database is unreachable or a migration
                failed; RuntimeError: the store is closed.
        """
        await self._ready()

    async def check(self) -> None:
        """Test every idle connection and replace the broken ones (after the database went away and
        came back, the pool still holds connections to the old server).

        Raises:
            psycopg.Error, psycopg_pool.PoolTimeout: the database is unreachable.
        """
        pool = await self._ready()
        await pool.check()

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Conn]:
        """A connection in autocommit mode: each statement is its own transaction.

        Raises:
            psycopg.Error: from the database; RuntimeError: the store is closed.
        """
        pool = await self._ready()
        async with pool.connection() as conn:
            yield conn

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Conn]:
        """A connection inside one READ COMMITTED transaction, rolled back if the body raises.

        Raises:
            psycopg.Error: from the database; RuntimeError: the store is closed.
        """
        pool = await self._ready()
        async with pool.connection() as conn, conn.transaction():
            yield conn

    async def execute(self, sql: str, params: Any = None) -> int:
        """Run one statement on its own; returns the number of rows it changed.

        Raises:
            psycopg.Error: from the database; RuntimeError: the store is closed.
        """
        async with self.connection() as conn:
            cur = await conn.execute(sql, params)
            return cur.rowcount

    async def fetchone(self, sql: str, params: Any = None) -> TupleRow | None:
        """Run one statement on its own and return its first row.

        Raises:
            psycopg.Error: from the database; RuntimeError: the store is closed.
        """
        async with self.connection() as conn:
            cur = await conn.execute(sql, params)
            return await cur.fetchone()

    async def fetchall(self, sql: str, params: Any = None) -> list[TupleRow]:
        """Run one statement on its own and return all its rows.

        Raises:
            psycopg.Error: from the database; RuntimeError: the store is closed.
        """
        async with self.connection() as conn:
            cur = await conn.execute(sql, params)
            return await cur.fetchall()

    async def close(self) -> None:
        """Close the pool (idempotent); later calls raise RuntimeError."""
        if self._closed:
            return
        self._closed = True
        async with self._opening:
            if self._opened:
                await self._pool.close()
