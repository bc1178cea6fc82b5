"""A question answered is never asked again (seed 004, DESIGN §4): a request that names no record gets
"which one?" with button-ready choices, and the choice — or the record named in words — goes into the
draft. Through the real MCP client, as Telegram's buttons and Claude Desktop's `pick` send it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import WORKSPACE, Conversation

pytestmark = pytest.mark.anyio

DEALS = {d["key"]: d for d in WORKSPACE["attio"]["deals"]}
COMPANIES = {c["key"]: c for c in WORKSPACE["attio"]["companies"]}
ISSUES = {i["identifier"]: i for i in WORKSPACE["linear"]["issues"]}


async def answer(c: Conversation, asked: dict[str, Any], **how: str) -> dict[str, Any]:
    assert asked["status"] == "needs_clarification", asked["user_message"]
    return await c.call("pick", plan_id=asked["plan"]["plan_id"], question_id=asked["question_id"], **how)


def choice(asked: dict[str, Any], label_part: str) -> str:
    return next(str(ch["value"]) for ch in asked["choices"] if label_part in ch["label"])


def args_of(reply: dict[str, Any]) -> str:
    assert reply["status"] == "draft_pending", reply["user_message"]
    return json.dumps([a["args"] for a in reply["plan"]["actions"]], ensure_ascii=False)


async def test_a_deal_picked_for_a_stage_move_that_named_none_is_moved(anna: Conversation) -> None:
    asked = await anna.say("move the deal to won")
    done = await answer(anna, asked, value=choice(asked, "Globex"))
    assert DEALS["globex-pilot"]["id"] in args_of(done) and '"stage": "Won"' in args_of(done)


async def test_a_company_picked_for_a_new_deal_is_the_deals_company(anna: Conversation) -> None:
    asked = await anna.say("создай сделку на 10000 долларов")
    done = await answer(anna, asked, value=choice(asked, "Initech"))
    assert COMPANIES["initech"]["id"] in args_of(done) and "10000" in args_of(done)


async def test_a_deal_picked_for_a_template_gets_its_tasks(anna: Conversation) -> None:
    asked = await anna.say("запусти онбординг")
    done = await answer(anna, asked, value=choice(asked, "Globex"))
    assert len([a for a in done["plan"]["actions"] if not a["read_only"]]) >= 2
    assert "Globex" in args_of(done)


async def test_a_record_named_in_words_takes_the_note_and_to_the_deal_means_its_deal(
    anna: Conversation,
) -> None:
    asked = await anna.say("add a note to the deal: called them, they want a discount")
    done = await answer(anna, asked, text="Globex")
    assert DEALS["globex-pilot"]["id"] in args_of(done) and "discount" in args_of(done)
    asked = await Conversation(anna.client, conversation="chat-2").say("запиши заметку: хотят скидку")
    done = await answer(anna, asked, text="Initech")
    assert COMPANIES["initech"]["id"] in args_of(done) and "скидку" in args_of(done)


@pytest.mark.parametrize(
    ("said", "slug", "field"),
    [
        ("close the issue", "LINEAR_UPDATE_ISSUE", "state"),
        ("закрой задачу", "LINEAR_UPDATE_ISSUE", "state"),
        ("set the priority to high", "LINEAR_UPDATE_ISSUE", "priority"),
        ("поставь приоритет высокий", "LINEAR_UPDATE_ISSUE", "priority"),
        ("move it to in progress", "LINEAR_UPDATE_ISSUE", "state"),
        ("оставь комментарий: проверил", "LINEAR_CREATE_LINEAR_COMMENT", "проверил"),
    ],
)
async def test_a_change_only_an_issue_has_asks_which_issue_and_the_answer_is_that_issue(
    anna: Conversation, said: str, slug: str, field: str
) -> None:
    asked = await anna.say(said)
    assert asked["status"] == "needs_clarification"
    assert "Attio" not in asked["clarifying_question"]  # not the routing question: it is an issue
    done = await answer(anna, asked, text="ENG-102")
    assert [a["tool_slug"] for a in done["plan"]["actions"] if not a["read_only"]] == [slug]
    assert ISSUES["ENG-102"]["id"] in args_of(done) or "ENG-102" in args_of(done)
    assert field in args_of(done)


async def test_an_issue_picked_from_the_offered_choices_is_closed(anna: Conversation) -> None:
    asked = await anna.say("close the issue")
    assert asked["choices"], "the person's open issues are offered"
    picked = str(asked["choices"][0]["value"])
    done = await answer(anna, asked, value=picked)
    assert picked in args_of(done) or ISSUES[picked]["id"] in args_of(done)


VAGUE = [
    "move the deal to won",
    "перенеси сделку в won",
    "create a deal",
    "add a note: they want a discount",
    "log a call with them",
    "apply the onboarding template",
    "close the issue",
    "archive the issue",
    "назначь задачу на Олега",
    "set the priority to high",
    "add a comment: looks good",
    "create an issue",
    "schedule a meeting tomorrow at 10",
]
WORDS = {"title": "Fix login", "body": "called them", "target": "Globex", "issue": "ENG-101"}


@pytest.mark.parametrize("said", VAGUE)
async def test_answering_each_question_with_its_first_choice_moves_on_to_a_draft(
    anna: Conversation, said: str
) -> None:
    reply = await anna.say(said)
    asked: set[tuple[str, str]] = set()
    while reply["status"] == "needs_clarification":
        question = (str(reply["question_id"]), str(reply["clarifying_question"]))
        assert question not in asked, f"asked again after it was answered: {question}"
        asked.add(question)
        slot = question[0].rsplit(".", 1)[-1]
        if reply["choices"]:
            reply = await answer(anna, reply, value=str(reply["choices"][0]["value"]))
        else:
            reply = await answer(anna, reply, text=WORDS.get(slot, "Globex"))
    assert reply["status"] == "draft_pending", reply["user_message"]
