"""Safety nets measured on first contact: what made wrong drafts on sets M–P, caught in general form
rather than per phrase. A day the parser reads only in part, or not at all, is asked about instead of
drafted as another day; a list item that names what to make, with its verb left out, is drafted, not
read as a question. Through the MCP client on the sandbox (now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

import pytest
from conftest import Conversation

from planner.date_gaps import date_gaps, said_days
from planner.intents import parse_intents

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in i.items() if k not in ("confidence", "span")} for i in reply["plan"]["intents"]]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("create an issue in ENG: fix the login timeout, due mid-December", "mid-December"),
        ("заведи задачу в ENG обновить сертификат к середине декабря", "середине декабря"),
        ("create issue in ENG fix export by end of year", "end of year"),
        ("заведи задачу в ENG: подготовить отчёт, конец квартала", "конец квартала"),
        ("ENG-104 due friday or rather monday", "monday"),  # a correction said in words no reader knows
    ],
)
async def test_a_day_said_but_not_read_is_asked_not_drafted(
    anna: Conversation, text: str, words: str
) -> None:
    r = await anna.say(text)
    assert r["status"] == "needs_clarification" and r["draft"] is None
    assert words in r["clarifying_question"]


async def test_a_day_said_as_the_reason_is_not_a_value(anna: Conversation) -> None:
    r = await anna.say("ENG-104 дедлайн сдвинь на 10 декабря, доки к пятнице не успеваем")
    assert r["status"] == "draft_pending" and intents(r)[0]["due"] == "2026-12-10"
    r = await anna.say("Please reassign ENG-106 to Max. Oleg is out all of next week.")
    assert r["status"] == "draft_pending" and intents(r)[0] == {
        "op": "update_issue",
        "issue": "ENG-106",
        "assignee": "Max Weber",
    }


async def test_a_period_named_inside_a_title_stays_its_words(anna: Conversation) -> None:
    r = await anna.say("create an issue in ENG: write the end of year report")
    assert r["status"] == "draft_pending" and intents(r)[0]["title"] == "write the end of year report"


async def test_days_counted_from_a_weekday_and_eod_before_a_day(anna: Conversation) -> None:
    r = await anna.say("create an issue in ENG fix the export due a week from Friday")
    assert intents(r)[0]["due"] == "2026-12-04" and intents(r)[0]["title"] == "fix the export"
    r = await anna.say("ENG-104 due two weeks after Monday")
    assert intents(r)[0]["due"] == "2026-12-14"
    r = await anna.say("Remind me to send Jane Doe the NDA by EOD Friday")
    task = intents(r)[0]
    assert task["deadline"].startswith("2026-11-27") and task["content"] == "send Jane Doe the NDA"


def test_said_days_finds_each_day_in_the_order_said() -> None:
    at = datetime(2026, 11, 25, 12)
    days = [(d, w) for _, d, w in said_days("due friday, no sorry, monday", at)]
    assert days == [(date(2026, 11, 27), "friday"), (date(2026, 11, 30), "monday")]
    create = parse_intents([{"op": "create_issue", "title": "x", "team": "ENG", "due": "2026-11-27"}]).intents
    assert date_gaps("due friday, no sorry, monday", create, at) == ["monday"]
    create = parse_intents([{"op": "create_issue", "title": "x", "team": "ENG", "due": "2026-11-30"}]).intents
    assert date_gaps("due friday, no sorry, monday", create, at) == []
    deal = parse_intents([{"op": "update_deal", "deal": "Globex", "stage": "Won"}]).intents
    assert date_gaps("Globex signed on Monday, move it to Won", deal, at) == []  # no day to carry


async def test_a_list_item_naming_what_to_make_is_drafted(anna: Conversation) -> None:
    r = await anna.say(
        "По Globex:\n- сделку в Won\n- задачу Олегу выставить счёт до пятницы\n"
        "- встречу с Джейн во вторник в 11 на час"
    )
    assert r["status"] == "draft_pending"
    update, task, event = intents(r)
    assert update["op"] == "update_deal" and update["stage"] == "Won"
    assert task["op"] == "create_task" and task["content"] == "выставить счёт"
    assert task["assignee"] == "Oleg Ivanov" and task["deadline"].startswith("2026-11-27")
    assert event["op"] == "create_event" and not event["title"].startswith("По Globex")


async def test_an_instruction_not_to_act_drafts_nothing(anna: Conversation) -> None:
    r = await anna.say("Задачу по SSO для Ромашки пока не закрывать")
    assert r["draft"] is None
