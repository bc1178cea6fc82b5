"""Who is asking over stdio (DESIGN §10): one person owns the process, so the user is stable without
the model passing `user_id`; a delegating client (the bot) always names its person."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import REF_NOW, ROOT, reply_of
from mcp import Client

from bot.planner_client import stdio_connector
from server.app import build_server
from server.service import Service
from server.settings import Settings

pytestmark = pytest.mark.anyio


async def call(client: Any, tool: str, **args: Any) -> dict[str, Any]:
    if tool == "plan":
        args.setdefault("now", REF_NOW)
    return reply_of(await client.call_tool(tool, args))


async def test_a_user_the_model_named_once_stays_when_it_leaves_user_id_out(client: Client) -> None:
    draft = (await call(client, "plan", text="Удали ENG-102", user_id="alice"))["draft"]["id"]
    assert (await call(client, "confirm_draft", draft_id=draft))["status"] == "confirmed"
    assert (await call(client, "execute_draft", draft_id=draft))["status"] == "executed"
    listed = await call(client, "list_drafts", include_finished=True)
    assert [r["id"] for r in listed["results"]] == [draft]


async def test_without_any_user_id_every_call_is_the_process_owner(client: Client) -> None:
    draft = (await call(client, "plan", text="Удали ENG-102"))["draft"]["id"]
    assert (await call(client, "confirm_draft", draft_id=draft))["status"] == "confirmed"
    assert (await call(client, "confirm_draft", draft_id=draft, user_id="local"))["status"] == "confirmed"


async def test_a_named_user_is_still_honoured_over_stdio(client: Client) -> None:
    draft = (await call(client, "plan", text="Удали ENG-102", user_id="alice"))["draft"]["id"]
    assert (await call(client, "confirm_draft", draft_id=draft, user_id="mallory"))["status"] == "not_found"
    assert (await call(client, "confirm_draft", draft_id=draft, user_id="alice"))["status"] == "confirmed"


async def test_a_delegating_client_that_leaves_user_id_out_never_acts_as_the_previous_person(
    service: Service, settings: Settings
) -> None:
    delegating = replace(settings, stdio_delegating=True)
    async with Client(build_server(service, delegating)) as client:
        draft = (await call(client, "plan", text="Удали ENG-102", user_id="telegram:1"))["draft"]["id"]
        assert (await call(client, "confirm_draft", draft_id=draft))["status"] == "not_found"
        assert (await call(client, "confirm_draft", draft_id=draft, user_id="telegram:1"))[
            "status"
        ] == "confirmed"


@pytest.mark.slow
async def test_the_bot_spawns_the_planner_over_stdio_as_a_delegating_client(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPOSIO_", "PLANNER_"))}
    env["PLANNER_DB"] = str(tmp_path / "planner.db")
    connect = stdio_connector((sys.executable, "-m", "server.cli", "serve"), {**env, "PYTHONPATH": str(ROOT)})
    async with connect() as client:
        plan = await client.call_tool(
            "plan", {"text": "Удали ENG-102", "user_id": "telegram:7", "now": REF_NOW}
        )
        draft = reply_of(plan)["draft"]["id"]
        stray = await client.call_tool("confirm_draft", {"draft_id": draft})
        assert reply_of(stray)["status"] == "not_found"  # no fallback to the last person
        mine = await client.call_tool("confirm_draft", {"draft_id": draft, "user_id": "telegram:7"})
        assert reply_of(mine)["status"] == "confirmed"
