"""The sandbox workspace persisted in SQLite: one row holding the whole workspace as JSON.

The row carries a `version` counter. Reads use a cached copy that is refreshed only when the
version in the database moved (another connection or process wrote); writes run inside
`BEGIN IMMEDIATE`, so writers from several processes serialise on SQLite's lock.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable
from importlib import resources
from importlib.abc import Traversable
from typing import TypeVar

from toolkits.sandbox._common import Workspace
from toolkits.sqlite import open_connection

__all__ = ["FORMAT_VERSION", "WorkspaceStore", "default_fixture"]

T = TypeVar("T")

FORMAT_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sandbox_workspace (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    format INTEGER NOT NULL,
    version INTEGER NOT NULL,
    body TEXT NOT NULL
)
"""


def default_fixture() -> Traversable:
    return resources.files("toolkits").joinpath("data/workspace.json")


class WorkspaceStore:
    """Thread-safe access to the workspace row; all methods block, call them off the event loop."""

    def __init__(self, db_path: str | os.PathLike[str] | None, fixture: Traversable) -> None:
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = open_connection(db_path)
        self._cached: Workspace = {}
        self._cached_body = ""
        self._cached_version = -1
        with self._lock:
            self._create_and_seed(fixture)

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RuntimeError("the sandbox store is closed")
        return self._conn

    def _create_and_seed(self, fixture: Traversable) -> None:
        conn = self._connection()
        conn.execute(_SCHEMA)
        if conn.execute("SELECT 1 FROM sandbox_workspace WHERE id = 1").fetchone() is not None:
            return
        body = json.dumps(json.loads(fixture.read_text(encoding="utf-8")), ensure_ascii=False)
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(
                "INSERT OR IGNORE INTO sandbox_workspace (id, format, version, body) VALUES (1, ?, 1, ?)",
                (FORMAT_VERSION, body),
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _load_row(self, conn: sqlite3.Connection) -> tuple[int, str]:
        row = conn.execute(
            "SELECT version, CASE WHEN version = ? THEN NULL ELSE body END FROM sandbox_workspace WHERE id = 1",
            (self._cached_version,),
        ).fetchone()
        if row is None:
            raise RuntimeError("the sandbox workspace row is missing")
        version, body = int(row[0]), row[1]
        return version, self._cached_body if body is None else str(body)

    def snapshot(self) -> Workspace:
        """The current workspace. Treat it as read-only: it is shared with other readers."""
        with self._lock:
            version, body = self._load_row(self._connection())
            if version != self._cached_version:
                self._cached, self._cached_body, self._cached_version = json.loads(body), body, version
            return self._cached

    def mutate(self, change: Callable[[Workspace], T]) -> T:
        """Apply `change` to a private copy of the workspace and commit it; roll back if it raises."""
        with self._lock:
            conn = self._connection()
            conn.execute("BEGIN IMMEDIATE")
            try:
                version, body = self._load_row(conn)
                workspace: Workspace = json.loads(body)
                result = change(workspace)
                new_body = json.dumps(workspace, ensure_ascii=False)
                conn.execute(
                    "UPDATE sandbox_workspace SET version = ?, body = ? WHERE id = 1", (version + 1, new_body)
                )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            self._cached, self._cached_body, self._cached_version = workspace, new_body, version + 1
            return result

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
