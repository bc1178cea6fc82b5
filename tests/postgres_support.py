"""PostgreSQL for tests: where it is, whether it must be there, and a fresh schema per test.

`PLANNER_TEST_DATABASE_URL` names the server (default `postgresql://127.0.0.1:5432/test`). When it
is set, or `CI` is true (`.ci/run` sets both), an unreachable server fails the PostgreSQL tests;
otherwise they are skipped with the reason, so `make test` still passes on a machine without it.
"""

from __future__ import annotations

import functools
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote, urlsplit, urlunsplit

import psycopg
import pytest

DEFAULT_URL = "postgresql://127.0.0.1:5432/test"


def database_url() -> str:
    return os.environ.get("PLANNER_TEST_DATABASE_URL", "").strip() or DEFAULT_URL


def postgres_required() -> bool:
    explicit = bool(os.environ.get("PLANNER_TEST_DATABASE_URL", "").strip())
    return explicit or os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def _shown(url: str) -> str:
    """The URL without its password, for messages."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    user = f"{parts.username}@" if parts.username else ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit((parts.scheme, f"{user}{host}{port}", parts.path, "", ""))


@functools.cache
def _problem(url: str) -> str | None:
    try:
        psycopg.connect(url, connect_timeout=3).close()
    except psycopg.Error as exc:
        return f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
    return None


def require_postgres() -> str:
    """The test database URL; skips the test when none is reachable, or fails it when required."""
    url = database_url()
    problem = _problem(url)
    if problem is not None:
        if postgres_required():
            pytest.fail(
                f"PostgreSQL is required here (PLANNER_TEST_DATABASE_URL or CI is set) but {_shown(url)} "
                f"is unreachable: {problem}",
                pytrace=False,
            )
        pytest.skip(f"no PostgreSQL at {_shown(url)} (set PLANNER_TEST_DATABASE_URL): {problem}")
    return url


def with_search_path(url: str, schema: str) -> str:
    """`url` with `options=-csearch_path=<schema>`, so every connection works in that schema."""
    parts = urlsplit(url)
    option = "options=" + quote(f"-csearch_path={schema}", safe="")
    query = f"{parts.query}&{option}" if parts.query else option
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, parts.fragment))


def new_schema_name() -> str:
    return "t_" + secrets.token_hex(6)


def drop_schema(url: str, schema: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@contextmanager
def fresh_schema(url: str) -> Iterator[tuple[str, str]]:
    """A schema name of its own (not created: the stores create it on first start) and the URL
    that selects it; the schema is dropped afterwards."""
    schema = new_schema_name()
    try:
        yield schema, with_search_path(url, schema)
    finally:
        drop_schema(url, schema)
