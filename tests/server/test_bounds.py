"""Every input is bounded (DESIGN §10): oversized strings and lists, and an extreme `now`, get a clear
`invalid` reply that names the field and the limit, echo nothing back, and change nothing."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from conftest import Conversation
from mcp import Client

from server.app import build_server
from server.service import Service
from server.settings import Settings
from server.wiring import build_service

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    "now",
    [
        "9999-12-31T23:59:59+14:00",
        "9999-12-31T23:59:59-14:00",
        "0001-01-01T00:00:00+00:00",
        "1500-06-01T10:00",
    ],
)
async def test_an_extreme_now_is_refused_as_invalid_with_the_allowed_range(
    anna: Conversation, now: str
) -> None:
    reply = await anna.say("Block tomorrow at 9 for an hour", now=now)
    assert reply["status"] == "invalid", reply
    assert reply["ok"] is False
    assert "2000" in reply["user_message"] and "2199" in reply["user_message"]
    assert reply.get("draft") is None


async def test_a_command_with_a_huge_title_is_refused_naming_the_field_and_echoing_nothing(
    anna: Conversation, service: Service
) -> None:
    big = "T" * 200_000
    r = await anna.call(
        "plan", command={"intent": "task_create", "confidence": 0.95, "entities": {"title": big}}
    )
    assert r["status"] == "invalid" and r["draft"] is None
    assert "command.entities.title" in r["user_message"] and "500" in r["user_message"]
    assert len(json.dumps(r, ensure_ascii=False)) < 5_000
    assert await service.store.list_drafts("anna") == []


@pytest.mark.parametrize(
    ("entities", "path"),
    [
        ({"title": "ok", "labels": ["x"] * 101}, "command.entities.labels"),
        ({"title": "ok", "description": "d" * 10_001}, "command.entities.description"),
        ({"title": "ok", "where": "w" * 4_001}, "command.entities.where"),
    ],
)
async def test_every_string_and_list_in_a_command_is_bounded(
    anna: Conversation, entities: dict[str, object], path: str
) -> None:
    r = await anna.call("plan", command={"intent": "task_create", "confidence": 0.95, "entities": entities})
    assert r["status"] == "invalid" and path in r["user_message"]


async def test_a_command_within_every_bound_still_drafts(anna: Conversation) -> None:
    entities = {"title": "T" * 500, "description": "d" * 10_000}
    r = await anna.call("plan", command={"intent": "task_create", "confidence": 0.95, "entities": entities})
    assert r["status"] in ("draft_pending", "needs_clarification"), r["user_message"]


async def test_drafts_waiting_for_a_yes_are_bounded_per_user_and_the_oldest_goes_with_a_word(
    tmp_path: Path,
) -> None:
    settings = Settings(db_path=tmp_path / "p.db", max_open_drafts=2)
    service = build_service(settings)
    async with Client(build_server(service, settings)) as client:
        anna, bob = Conversation(client, "anna", "a"), Conversation(client, "bob", "b")
        first = await anna.say("Close ENG-101", conversation_id="one")
        await anna.say("Close ENG-104", conversation_id="two")
        third = await anna.say("Archive ENG-106", conversation_id="three")
        assert third["status"] == "draft_pending"
        assert third["notice"] and "ENG-101" in third["notice"] and "2" in third["notice"]
        assert (await anna.call("confirm_draft", draft_id=first["draft"]["id"]))["status"] == "cancelled"
        assert len(await service.store.list_drafts("anna")) == 2
        assert (await bob.say("Close ENG-106"))["notice"] is None  # another user is unaffected


async def test_the_server_prunes_the_store_when_it_starts(tmp_path: Path) -> None:
    settings = Settings(db_path=tmp_path / "p.db")
    service = build_service(settings)
    await service.store.save_plan("p_old", "anna", "c", {"open_question": None}, ttl_s=-1)
    async with Client(build_server(service, settings)) as client:
        await client.list_tools()
    with sqlite3.connect(tmp_path / "p.db") as conn:
        assert conn.execute("SELECT count(*) FROM plans WHERE id = 'p_old'").fetchone() == (0,)
