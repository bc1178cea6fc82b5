"""Requests about several records at once, through the MCP client on the sandbox (now = Wed
2026-11-25 12:00 MSK): two deals named in one breath, changes to every deal in some stages, and
reads over more than one stage. A filter the planner cannot read is asked about, never guessed."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import WORKSPACE, Conversation

pytestmark = pytest.mark.anyio

DEAL = {d["key"]: d["id"] for d in WORKSPACE["attio"]["deals"]}


def changed(reply: dict[str, Any]) -> dict[str, Any]:
    """record id -> the values a draft writes on it."""
    return {
        a["args"]["record_id"]: a["args"].get("values")
        for a in reply["plan"]["actions"]
        if not a["read_only"] and a["operation"] == "update_deal"
    }


async def test_two_deals_named_in_full_and_joined_by_and_both_move(anna: Conversation) -> None:
    r = await anna.say("Move Globex pilot and Alfa-Leasing expansion to Won")
    assert r["status"] == "draft_pending"
    assert changed(r) == {DEAL["globex-pilot"]: {"stage": "Won"}, DEAL["alfa-expansion"]: {"stage": "Won"}}
    r = await anna.say("переведи Initech renewal и Ромашку в переговоры")
    assert set(changed(r)) == {DEAL["initech-renewal"], DEAL["romashka-impl"]}


async def test_a_deal_named_by_a_word_two_deals_share_is_still_a_question(anna: Conversation) -> None:
    r = await anna.say("move the pilot to Won")
    assert (r["status"], r["draft"]) == ("needs_clarification", None)
    assert len(r["choices"]) == 2  # Globex pilot, Acme Logistics — pilot


async def test_every_deal_in_two_stages_moves_and_the_last_destination_is_where_they_go(
    anna: Conversation,
) -> None:
    r = await anna.say("Все сделки в Lead и Qualification переведи в Proposal")
    assert r["status"] == "draft_pending"
    assert changed(r) == {
        DEAL["acme-log-pilot"]: {"stage": "Proposal"},
        DEAL["acme-license"]: {"stage": "Proposal"},
    }
    r = await anna.say("Все сделки в переговорах двинь в Proposal")
    assert set(changed(r)) == {DEAL["globex-pilot"], DEAL["alfa-expansion"]}


async def test_closing_deals_as_lost_is_a_stage_and_where_they_are_is_which_ones(anna: Conversation) -> None:
    for text in (
        "close out as Lost every deal still sitting in Lead",
        "закрой как проигранные все сделки в Lead",
    ):
        r = await anna.say(text)
        assert changed(r) == {DEAL["acme-log-pilot"]: {"stage": "Lost"}}, text


async def test_every_deal_a_person_has_goes_to_the_other_person_named(anna: Conversation) -> None:
    r = await anna.say("Reassign every deal Oleg owns to Max")
    assert r["status"] == "draft_pending"
    assert set(changed(r)) == {DEAL["acme-log-pilot"], DEAL["alfa-expansion"]}
    assert {v["owner"] for v in changed(r).values()} == {"max@northwind.dev"}


async def test_marking_every_open_bug_urgent_changes_only_their_priority(anna: Conversation) -> None:
    r = await anna.say("all open bugs in engineering mark them urgent")
    assert r["status"] == "draft_pending"
    updates = [a["args"] for a in r["plan"]["actions"] if not a["read_only"]]
    assert updates and all(u.get("priority") == 1 and "state_id" not in u for u in updates)


async def test_a_list_of_deals_in_two_stages_shows_both_and_totals_each(anna: Conversation) -> None:
    r = await anna.say("list deals still in Lead or Qualification")
    assert (r["status"], r["draft"]) == ("answered", None)
    assert "Acme Logistics" in r["user_message"] and "Acme Corp" in r["user_message"]
    r = await anna.say("сколько денег в сделках на стадиях Lead и Negotiation")
    assert "Lead: Сумма: 12\u00a0000 USD" in r["user_message"]
    assert "Negotiation: Сумма: 800\u00a0000 RUB + 30\u00a0000 USD" in r["user_message"]
