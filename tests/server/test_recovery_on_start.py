"""A server that starts finishes the drafts a crashed process left executing (DESIGN §7)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import pytest
from conftest import REF_NOW, reply_of
from mcp import Client

from server.app import build_server
from server.settings import Settings
from server.wiring import build_service

pytestmark = pytest.mark.anyio


async def test_a_draft_left_executing_by_a_crash_is_finished_when_the_server_starts(
    settings: Settings,
) -> None:
    crashed = build_service(settings)
    plan = await crashed.plan(
        "anna",
        text="Создай задачу в Linear: восстановить после сбоя",
        command=None,
        voice=None,
        language=None,
        now=REF_NOW,
        timezone=None,
        conversation_id="c",
    )
    assert plan.draft is not None
    draft_id = plan.draft.id
    await crashed.confirm("anna", draft_id)
    # the executor claimed the draft and died before calling anything: only the claim is on disk
    assert await crashed.store.transition(draft_id, "anna", {"confirmed"}, "executing")
    await crashed.backend.aclose()
    await crashed.store.close()
    with sqlite3.connect(settings.db_path) as conn:  # its lease ran out long ago
        conn.execute(
            "UPDATE drafts SET heartbeat_ts = ? WHERE id = ?",
            (datetime.now(UTC).timestamp() - 3600, draft_id),
        )

    restarted = build_service(settings)
    async with Client(build_server(restarted, settings)) as client:
        r = reply_of(await client.call_tool("list_drafts", {"user_id": "anna", "include_finished": True}))
        assert [(d["id"], d["status"]) for d in r["results"]] == [(draft_id, "executed")]
        found = reply_of(
            await client.call_tool(
                "plan",
                {
                    "user_id": "anna",
                    "now": REF_NOW,
                    "text": "Найди в Linear задачи про восстановить после сбоя",
                },
            )
        )
        titles = [i["title"] for i in found["results"][0]["data"]["issues"]]
        assert titles == ["восстановить после сбоя"]
        audit = reply_of(await client.call_tool("read_audit_log", {"user_id": "anna"}))["results"]
        executes = [a for a in audit if a["decision_type"] == "EXECUTE"]
        assert [a["input_message"] for a in executes] == [f"recover {draft_id}"]
