"""The sandbox workspace persisted in PostgreSQL: the same single row (whole workspace as JSON plus
a `version` counter) as `_store.WorkspaceStore`, so several server processes see one sandbox.

Reads use a cached copy refreshed only when the version in the database moved. A write locks the
row (`SELECT ... FOR UPDATE`), applies the change to a fresh copy and bumps the version in the same
transaction, so writers in several processes serialise on that row as SQLite's serialise on its
file lock. The methods block (psycopg's synchronous driver), like the SQLite store's: the backend
calls them in a worker thread.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from importlib.abc import Traversable
from typing import TypeVar

import psycopg
from psycopg.rows import TupleRow

from toolkits.postgres import ENSURE_SCHEMA_SQL, SANDBOX_LOCK_SQL
from toolkits.sandbox._common import Workspace
from toolkits.sandbox._store import FORMAT_VERSION

__all__ = ["PgWorkspaceStore"]

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sandbox_workspace (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    format INTEGER NOT NULL,
    version BIGINT NOT NULL,
    body TEXT NOT NULL
)
"""


class PgWorkspaceStore:
    """Thread-safe access to the workspace row over one connection, reopened if it breaks.

    Args:
        url: a `postgresql://` URL (its search path picks the schema, created if missing).
        fixture: the workspace to seed a fresh database with.

    Raises:
        psycopg.Error: the database is unreachable or the table cannot be created.
    """

    def __init__(self, url: str, fixture: Traversable, *, connect_timeout_s: int = 10) -> None:
        self._url = url
        self._connect_timeout_s = connect_timeout_s
        self._lock = threading.Lock()
        self._conn: psycopg.Connection[TupleRow] | None = None
        self._closed = False
        self._cached: Workspace = {}
        self._cached_body = ""
        self._cached_version = -1
        with self._lock:
            self._create_and_seed(fixture)

    def _connection(self) -> psycopg.Connection[TupleRow]:
        if self._closed:
            raise RuntimeError("the sandbox store is closed")
        if self._conn is None or self._conn.closed or self._conn.broken:
            if self._conn is not None:
                self._conn.close()
            self._conn = psycopg.connect(self._url, autocommit=True, connect_timeout=self._connect_timeout_s)
        return self._conn

    def _create_and_seed(self, fixture: Traversable) -> None:
        conn = self._connection()
        # Text, not jsonb: the body round-trips byte for byte, key order included, as in SQLite.
        body = json.dumps(json.loads(fixture.read_text(encoding="utf-8")), ensure_ascii=False)
        with conn.transaction():
            # Bounded: this blocks its thread, which may be the one running an event loop.
            conn.execute("SET LOCAL lock_timeout = '30s'")
            conn.execute(SANDBOX_LOCK_SQL)
            conn.execute(ENSURE_SCHEMA_SQL)
            conn.execute(_SCHEMA)
            conn.execute(
                "INSERT INTO sandbox_workspace (id, format, version, body) VALUES (1, %s, 1, %s)"
                " ON CONFLICT (id) DO NOTHING",
                (FORMAT_VERSION, body),
            )

    def _load_row(self, conn: psycopg.Connection[TupleRow], *, lock: bool) -> tuple[int, str]:
        row = conn.execute(
            "SELECT version, CASE WHEN version = %s THEN NULL ELSE body END FROM sandbox_workspace"
            " WHERE id = 1" + (" FOR UPDATE" if lock else ""),
            (self._cached_version,),
        ).fetchone()
        if row is None:
            raise RuntimeError("the sandbox workspace row is missing")
        version, body = int(row[0]), row[1]
        return version, self._cached_body if body is None else str(body)

    def snapshot(self) -> Workspace:
        """The current workspace. Treat it as read-only: it is shared with other readers.

        Raises:
            psycopg.Error: the database failed; RuntimeError: the store is closed.
        """
        with self._lock:
            version, body = self._load_row(self._connection(), lock=False)
            if version != self._cached_version:
                self._cached, self._cached_body, self._cached_version = json.loads(body), body, version
            return self._cached

    def mutate(self, change: Callable[[Workspace], T]) -> T:
        """Apply `change` to a private copy of the workspace and commit it; roll back if it raises.

        Raises:
            psycopg.Error: the database failed; RuntimeError: the store is closed; whatever
                `change` raises (nothing is written then).
        """
        with self._lock:
            conn = self._connection()
            with conn.transaction():
                version, body = self._load_row(conn, lock=True)
                workspace: Workspace = json.loads(body)
                result = change(workspace)
                new_body = json.dumps(workspace, ensure_ascii=False)
                conn.execute(
                    "UPDATE sandbox_workspace SET version = %s, body = %s WHERE id = 1",
                    (version + 1, new_body),
                )
            self._cached, self._cached_body, self._cached_version = workspace, new_body, version + 1
            return result

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._conn is not None:
                self._conn.close()
                self._conn = None
