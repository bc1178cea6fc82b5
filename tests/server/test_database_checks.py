"""The database is checked at start (DESIGN §10): an empty file or one with damaged pages is refused
with a clear message, never served; a read-only file or a full disk during a request is a short
message for the person, not a traceback."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import pytest
from conftest import Conversation
from mcp import Client

from server.app import build_server
from server.cli import main as cli
from server.service import Service
from server.settings import Settings
from server.wiring import build_service

pytestmark = pytest.mark.anyio


def test_an_empty_database_file_is_refused_and_left_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "planner.db"
    db.touch()
    monkeypatch.setenv("PLANNER_DB", str(db))
    assert cli(["plan", "Закрой ENG-101"]) == 2
    err = capsys.readouterr().err
    assert "is an empty file, not a planner database" in err and "Traceback" not in err
    assert db.stat().st_size == 0


async def _fill(db: Path) -> None:
    service = build_service(Settings(db_path=db))
    async with Client(build_server(service, service.settings)) as client:
        for n in range(30):  # enough pages that some lie beyond the header
            await Conversation(client, conversation=f"c{n}").say(f"Create an issue in ENG: падение номер {n}")


def test_a_database_with_damaged_pages_is_refused_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "planner.db"
    asyncio.run(_fill(db))
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = db.stat().st_size
    with db.open("r+b") as f:
        f.seek(size // 2 // 4096 * 4096)
        f.write(os.urandom(3 * 4096))
    monkeypatch.setenv("PLANNER_DB", str(db))
    assert cli(["plan", "Закрой ENG-101"]) == 2
    err = capsys.readouterr().err
    assert "is damaged" in err and "restore it from a backup" in err and "Traceback" not in err


async def test_a_read_only_database_gives_the_person_a_clear_message(
    anna: Conversation, service: Service
) -> None:
    service.store._db._conn.execute("PRAGMA query_only=ON")  # type: ignore[attr-defined]
    r = await anna.say("Close ENG-101")
    assert r["status"] == "failed" and "Nothing was changed" in r["user_message"]
    assert "read-only" in r["user_message"] and "SELECT" not in r["user_message"]


async def test_a_full_disk_gives_the_person_a_clear_message(anna: Conversation, service: Service) -> None:
    conn = service.store._db._conn  # type: ignore[attr-defined]
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count={pages}")  # SQLite's own "database or disk is full"
    replies = [await anna.say(f"Create an issue in ENG: {'длинное описание ' * 200} {n}") for n in range(40)]
    full = [r for r in replies if r["status"] == "failed"]
    assert full and all("is full" in r["user_message"] for r in full)
