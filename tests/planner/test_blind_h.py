"""What blind set H taught (a quarter's end: a formal head of sales, an AE's voice transcripts, a
support lead's lists, an office manager's relative dates, a terse CTO), one behaviour each, through
the MCP client on the sandbox (now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in i.items() if k not in ("confidence", "span")} for i in reply["plan"]["intents"]]


async def test_a_companys_name_in_quotes_is_its_name(anna: Conversation) -> None:
    r = await anna.say("Прошу завести в CRM компанию «Вектор» с доменом vector.ru.")
    assert intents(r) == [{"op": "create_company", "name": "Вектор", "domain": "vector.ru"}]


async def test_an_issue_said_with_a_person_and_details_gets_all_of_them(anna: Conversation) -> None:
    r = await anna.say("ENG-105 to Oleg, urgent, due Friday")
    assert intents(r) == [
        {
            "op": "update_issue",
            "issue": "ENG-105",
            "assignee": "Oleg Ivanov",
            "priority": "urgent",
            "due": "2026-11-27",
        }
    ]


@pytest.mark.parametrize(
    ("text", "state"),
    [
        ("ENG-104 to In Review", "In Review"),
        ("eng-103 в работу", "In Progress"),
        ("переведи ENG-103 на ревью", "In Review"),
        ("move ENG-103 to review", "In Review"),
    ],
)
async def test_a_state_said_as_people_say_it_moves_the_issue(
    anna: Conversation, text: str, state: str
) -> None:
    r = await anna.say(text)
    assert [(i["op"], i.get("state")) for i in intents(r)] == [("update_issue", state)]


async def test_a_note_recorded_with_a_formal_verb_is_drafted_with_the_change(anna: Conversation) -> None:
    r = await anna.say(
        "Прошу перевести сделку с Ромашкой в стадию переговоров и зафиксировать заметку: клиент согласовал объём лицензий."
    )
    assert [i["op"] for i in intents(r)] == ["update_deal", "create_note"]


async def test_meetings_listed_after_a_colon_are_each_booked(anna: Conversation) -> None:
    r = await anna.say(
        "Запланируй две встречи: с Олегом завтра в 11:00 на 30 минут и с Максом послезавтра в 15:00 на час"
    )
    assert [(i["start"], i["duration_minutes"], i["attendees"]) for i in intents(r)] == [
        ("2026-11-26T11:00:00+03:00", 30, ["Oleg Ivanov"]),
        ("2026-11-27T15:00:00+03:00", 60, ["Max Weber"]),
    ]


async def test_terse_changes_to_an_issue_are_drafted_and_a_change_not_understood_is_asked(
    anna: Conversation,
) -> None:
    r = await anna.say("put ENG-101 in review")
    assert [(i["op"], i.get("state")) for i in intents(r)] == [("update_issue", "In Review")]
    r = await anna.say("make cs 14 urgent")
    assert [(i["op"], i.get("priority")) for i in intents(r)] == [("update_issue", "urgent")]
    r = await anna.say("bump ENG-101")  # a command whose change is not said: asked, not shown
    assert (r["status"], r["draft"]) == ("needs_clarification", None)
    drafted = await anna.call(
        "pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value="priority urgent"
    )
    assert [(i["op"], i.get("priority")) for i in intents(drafted)] == [("update_issue", "urgent")]
    r = await anna.say("покажи ENG-101")  # a read stays a read
    assert r["status"] == "answered"


async def test_the_stage_a_deal_goes_to_is_the_one_after_to(anna: Conversation) -> None:
    r = await anna.say("Сделку по Acme Corp, прошедшую квалификацию, прошу перевести в стадию КП.")
    assert [(i["op"], i["stage"]) for i in intents(r)] == [("update_deal", "Proposal")]


async def test_words_after_a_colon_are_content_and_a_request_after_them_is_its_own(
    anna: Conversation,
) -> None:
    r = await anna.say("Add an issue to Q1 Launch: prepare release notes, due Dec 10")
    assert intents(r) == [
        {
            "op": "create_issue",
            "title": "prepare release notes",
            "team": "Engineering",
            "due": "2026-12-10",
            "project": "Q1 Launch",
        }
    ]
    r = await anna.say("Заведи задачу в Engineering: экспорт сделок в Excel, приоритет средний")
    assert [i["op"] for i in intents(r)] == ["create_issue"]
    r = await anna.say(
        "В CS-12 оставь комментарий: клиент просит перенести звонок, и поставь CS-12 срок на 2 декабря"
    )
    assert [i["op"] for i in intents(r)] == ["comment_issue", "update_issue"]
    r = await anna.say(
        "Log a bug in ENG: Globex users can't reset passwords — and add a note to the Globex deal that engineering is on it"
    )
    assert [i["op"] for i in intents(r)] == ["create_issue", "create_note"]
    r = await anna.say("note on Globex: they liked it, and want a demo")  # a statement stays in the note
    assert [i["body"] for i in intents(r)] == ["they liked it, and want a demo"]


async def test_an_answer_that_still_says_no_change_is_asked_again_not_read_for_ever(
    anna: Conversation,
) -> None:
    r = await anna.say("bump ENG-101")
    again = await anna.call(
        "pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value="создай"
    )
    assert (again["status"], again["draft"]) == ("needs_clarification", None)
    assert "ENG-101" in again["clarifying_question"]
