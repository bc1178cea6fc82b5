"""What this stop taught (the sets AD and AE, and the review before them), one behaviour each, through the
MCP client on the sandbox (now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in i.items() if k not in ("confidence", "span")} for i in reply["plan"]["intents"]]


def writes(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [i for i in intents(reply) if i["op"] != "find"]


async def test_a_list_made_in_a_team_is_its_issues_though_issues_are_never_named(anna: Conversation) -> None:
    r = await anna.say("Please create these in ENG: rate limiting, audit log export, SCIM provisioning.")
    assert r["status"] == "draft_pending"
    assert [(i["op"], i["title"], i["team"]) for i in writes(r)] == [
        ("create_issue", "rate limiting", "Engineering"),
        ("create_issue", "audit log export", "Engineering"),
        ("create_issue", "SCIM provisioning", "Engineering"),
    ]


async def test_the_same_in_russian(anna: Conversation) -> None:
    r = await anna.say("создай эти в CS: обновить FAQ, разобрать очередь")
    assert [(i["title"], i["team"]) for i in writes(r)] == [
        ("обновить FAQ", "Customer Success"),
        ("разобрать очередь", "Customer Success"),
    ]


async def test_a_list_made_in_a_company_is_not_taken_for_issues(anna: Conversation) -> None:
    r = await anna.say("create these in Acme: foo, bar")
    assert r["status"] == "needs_clarification"
    assert writes(r) == []


async def test_without_an_assignee_is_which_issues_when_a_priority_is_set_on_all_of_them(
    anna: Conversation,
) -> None:
    r = await anna.say("Поставь priority high всем задачам без исполнителя")
    assert writes(r) == [
        {
            "op": "update_matching",
            "object": "issues",
            "filters": {"assignee": "none"},
            "changes": {"priority": "high"},
        }
    ]


async def test_what_a_colleague_owns_is_their_deals(anna: Conversation) -> None:
    r = await anna.say("What does Max own?")
    assert intents(r) == [{"op": "find", "object": "deals", "filters": {"owner": "Max Weber"}}]
    assert "Initech renewal" in r["user_message"]
    r = await anna.say("что ведёт Олег?")
    assert intents(r) == [{"op": "find", "object": "deals", "filters": {"owner": "Oleg Ivanov"}}]


async def test_an_owner_nobody_knows_is_asked_about_not_dropped_from_the_filter(anna: Conversation) -> None:
    r = await anna.say("what deals does Petya own")
    assert r["status"] == "needs_clarification"
    assert "Petya" in r["clarifying_question"]
    max_weber = next(c for c in r["choices"] if c["label"] == "Max Weber")
    picked = await anna.call(
        "pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value=max_weber["value"]
    )
    assert picked["status"] == "answered"
    assert intents(picked) == [{"op": "find", "object": "deals", "filters": {"owner": "Max Weber"}}]
