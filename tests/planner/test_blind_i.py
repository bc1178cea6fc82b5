"""What blind set I taught (an agency's week: bullet lists, a driver's dictation, a partner's indirect
English, a developer's shorthand, a CEO's questions), one behaviour each, through the MCP client on
the sandbox (now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in i.items() if k not in ("confidence", "span")} for i in reply["plan"]["intents"]]


async def test_a_note_said_after_a_dash_is_the_notes_words_and_signing_later_moves_nothing(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "Would you mind adding a note to the Globex pilot deal — Jane mentioned they need SOC 2 paperwork "
        "before legal signs off. Thanks!"
    )
    assert intents(r) == [
        {
            "op": "create_note",
            "record": "Globex pilot",
            "body": "Jane mentioned they need SOC 2 paperwork before legal signs off",
        }
    ]


async def test_a_list_of_someones_open_issues_is_read_not_created(anna: Conversation) -> None:
    r = await anna.say("oleg's open issues pls")
    assert (r["status"], r["draft"]) == ("answered", None)
    assert intents(r)[0]["filters"] == {"state": "open", "assignee": "Oleg Ivanov"}


async def test_a_change_taken_back_or_reported_by_someone_else_is_not_drafted(anna: Conversation) -> None:
    r = await anna.say(
        "I think we should probably bump the Globex pilot up to Proposal... actually no, it's already past that. "
        "Never mind."
    )
    assert (r["status"], r["draft"]) == ("answered", None)
    r = await anna.say("oleg says eng-106 is basically done lol")
    assert (r["status"], r["draft"]) == ("needs_clarification", None)
    r = await anna.say("а как сделать чтобы бот сам закрывал задачи когда мерджится пулл реквест")
    assert r["draft"] is None


async def test_bulleted_requests_are_each_drafted_and_a_bulleted_list_of_titles_is_a_list(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "- new issue in CS: renewal deck for Initech, due Dec 3\n- comment on CS-14: requirements call moved to Monday"
    )
    assert [i["op"] for i in intents(r)] == ["create_issue", "comment_issue"]
    assert intents(r)[0]["due"] == "2026-12-03" and intents(r)[0]["team"] == "Customer Success"
    r = await anna.say(
        "Заведи в ENG три бага:\n- не грузится аватар в профиле\n- 500 при сохранении фильтра\n- опечатка на странице тарифов"
    )
    assert [i["title"] for i in intents(r)] == [
        "не грузится аватар в профиле",
        "500 при сохранении фильтра",
        "опечатка на странице тарифов",
    ]


async def test_details_of_a_terse_new_issue_are_its_fields(anna: Conversation) -> None:
    r = await anna.say("таск: адаптив для страницы тарифов, проект Website Redesign, DES")
    assert intents(r) == [
        {
            "op": "create_issue",
            "title": "адаптив для страницы тарифов",
            "team": "Design",
            "project": "Website Redesign",
        }
    ]
    r = await anna.say("new: mobile deep links for invites, ENG, project Mobile App, medium")
    assert "create_project" not in [i["op"] for i in intents(r)]


async def test_a_sum_in_words_beside_a_stage_is_drafted_with_it(anna: Conversation) -> None:
    r = await anna.say("ромашка внедрение ээ сумма один миллион триста тысяч и стадия переговоры")
    assert [(i["stage"], i["amount"]) for i in intents(r)] == [("Negotiation", 1300000.0)]


async def test_a_company_that_exists_is_not_created_again(anna: Conversation) -> None:
    r = await anna.say("Globex has a new domain globex.io — add it to their company record")
    assert [i["op"] for i in intents(r)] == ["update_record"]
    r = await anna.say("create company Globex with domain globex2.com")
    assert (r["status"], r["draft"]) == ("needs_clarification", None)
    drafted = await anna.call(
        "pick",
        plan_id=r["plan"]["plan_id"],
        question_id=r["question_id"],
        value="add the domain globex2.com to Globex",
    )
    assert [i["op"] for i in intents(drafted)] == ["update_record"]


async def test_a_crm_task_for_a_colleague_said_as_they_will_do_it(anna: Conversation) -> None:
    r = await anna.say("CRM task: Oleg to call Maria Sokolova about the addendum, due Dec 2")
    assert intents(r)[0]["assignee"] == "Oleg Ivanov" and intents(r)[0]["record"] == "Maria Sokolova"


async def test_a_colleague_said_as_whom_a_change_is_for_lands_in_it_or_is_named_back(
    anna: Conversation,
) -> None:
    r = await anna.say("заметка к Globex для Олега: перезвонить")  # a note has no one it is for
    assert (r["status"], r["draft"]) == ("needs_clarification", None)
    assert "Олега" in r["clarifying_question"]
    for text in (
        "Heads up: Oleg is out all of next week, and the key rotation can't wait. Please reassign ENG-106 to Max.",
        "Oleg finished CS-13, mark it done",
        "у олега сделка акме логистикс переведи ее в квалификацию",
    ):  # a colleague said as context is no value of the change
        r = await anna.say(text)
        assert r["status"] == "draft_pending", text
