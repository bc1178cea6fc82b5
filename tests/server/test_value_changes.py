"""A change of a value is scoped by its draft (DESIGN §7): a change back and then again runs every
time, retries of one draft run it once, and whether a change is needed at all comes from the record's
current state at plan time — never from the ledger of earlier drafts."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import WORKSPACE, Conversation

from server.service import Service

pytestmark = pytest.mark.anyio

DEAL = {d["key"]: d for d in WORKSPACE["attio"]["deals"]}
ISSUE = {i["identifier"]: i for i in WORKSPACE["linear"]["issues"]}


def writes(service: Service, slug: str) -> list[dict[str, Any]]:
    return [args for s, args in service.backend.write_calls if s == slug]  # type: ignore[attr-defined]


async def run(c: Conversation, text: str) -> dict[str, Any]:
    r = await c.say(text)
    assert r["status"] == "draft_pending", (text, r["status"], r["user_message"])
    d = r["draft"]["id"]
    assert (await c.call("confirm_draft", draft_id=d))["status"] == "confirmed"
    done = await c.call("execute_draft", draft_id=d)
    assert done["status"] == "executed", (text, done["user_message"])
    return done


async def test_moving_a_deal_to_won_then_lost_then_won_again_runs_all_three_changes(
    anna: Conversation, service: Service
) -> None:
    for stage in ("Won", "Lost", "Won"):
        await run(anna, f"Move deal Globex pilot to {stage}")
    moves = writes(service, "ATTIO_UPDATE_RECORD")
    assert [m["values"]["stage"] for m in moves] == ["Won", "Lost", "Won"]
    shown = await anna.say("Покажи сделку Globex pilot")
    assert "Won" in json.dumps(shown["results"], ensure_ascii=False)


async def test_closing_an_issue_reopening_it_and_closing_it_again_closes_it_twice(
    anna: Conversation, service: Service
) -> None:
    for text in ("Close ENG-103", "Move ENG-103 to In Progress", "Close ENG-103"):
        await run(anna, text)
    assert len(writes(service, "LINEAR_UPDATE_ISSUE")) == 3


async def test_a_value_change_is_scoped_by_its_draft_and_a_retry_of_that_draft_does_nothing_more(
    anna: Conversation, service: Service
) -> None:
    r = await anna.say("Move deal Globex pilot to Won")
    draft = r["draft"]
    deal = DEAL["globex-pilot"]["id"]
    assert draft["actions"][0]["idempotency_scope"] == f"attio:update_deal:{deal}:stage=Won:{draft['id']}"
    await anna.call("confirm_draft", draft_id=draft["id"])
    first = await anna.call("execute_draft", draft_id=draft["id"])
    again = await anna.call("execute_draft", draft_id=draft["id"])
    assert first["status"] == again["status"] == "executed"
    assert len(writes(service, "ATTIO_UPDATE_RECORD")) == 1


async def test_a_change_already_in_place_is_said_from_the_records_state_not_from_earlier_drafts(
    anna: Conversation, service: Service
) -> None:
    await run(anna, "Close ENG-103")
    again = await anna.say("Close ENG-103")
    assert again["status"] == "answered" and again["draft"] is None
    assert "already Done" in again["user_message"]
    # someone reopens it in Linear itself: the same request is a real change again
    await service.backend.execute(
        "LINEAR_UPDATE_ISSUE", {"issueId": ISSUE["ENG-103"]["id"], "stateId": ISSUE["ENG-103"]["state_id"]}
    )
    service.planner.directory.invalidate()
    assert (await anna.say("Close ENG-103"))["status"] == "draft_pending"


async def test_moving_an_issue_to_the_state_it_is_in_makes_no_draft(anna: Conversation) -> None:
    await run(anna, "Move ENG-103 to In Progress")
    r = await anna.say("Move ENG-103 to In Progress")
    assert r["draft"] is None and "already In Progress" in r["user_message"]
