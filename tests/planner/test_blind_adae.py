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
