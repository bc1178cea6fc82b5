"""What the sets AF and AG (and the last incomplete drafts of AD) taught, one behaviour each, through the
MCP client on the sandbox (now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


def writes(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {k: v for k, v in i.items() if k not in ("confidence", "span")}
        for i in reply["plan"]["intents"]
        if i["op"] != "find"
    ]


async def test_an_english_name_said_the_russian_way_finds_its_record(anna: Conversation) -> None:
    r = await anna.say("поставь задачу олегу в срм подготовить кп для вектор плюс нет для амбреллы к пятнице")
    assert r["status"] == "draft_pending"
    [task] = writes(r)
    assert (task["op"], task["record"], task["assignee"]) == ("create_task", "Umbrella Health", "Oleg Ivanov")
    assert task["deadline"].startswith("2026-11-27")


async def test_a_project_name_heard_in_russian_is_the_project(anna: Conversation) -> None:
    r = await anna.say("добавь задачу в проект вебсайт редизайн: обновить футер")
    assert [(i["title"], i["project"]) for i in writes(r)] == [("обновить футер", "Website Redesign")]


async def test_a_project_said_after_the_title_in_a_follow_up_is_the_new_issues(anna: Conversation) -> None:
    r = await anna.say(
        "Create a task in Design and assign it to me: «Обновить логотип в Mobile App», project Mobile App, due December 4."
    )
    [issue] = writes(r)
    assert (issue["team"], issue["project"], issue["due"]) == ("Design", "Mobile App", "2026-12-04")
    assert issue["title"].startswith("Обновить логотип")


async def test_a_project_nobody_has_in_a_follow_up_is_asked_about_not_dropped(anna: Conversation) -> None:
    r = await anna.say("create an issue in ENG: fix the login, and assign it to Oleg, project Zebra")
    assert r["status"] == "needs_clarification"
    assert "Zebra" in r["user_message"]


async def test_what_to_do_said_before_make_a_task_then_a_call_in_the_calendar_are_two_requests(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "позвонить джейн доу завтра поставь задачу и в календарь созвон с ней в двенадцать на пятнадцать минут"
    )
    assert r["status"] == "draft_pending"
    task, event = writes(r)
    assert (task["op"], task["content"], task["record"]) == ("create_task", "позвонить джейн доу", "Jane Doe")
    assert task["deadline"].startswith("2026-11-26")
    # the time said in the second request is on the day said in the first; "with her" is Jane
    assert (event["op"], event["start"], event["duration_minutes"]) == (
        "create_event",
        "2026-11-26T12:00:00+03:00",
        15,
    )
    assert event["attendees"] == ["Jane Doe"] and "Jane Doe" in event["title"]


async def test_the_same_typed_in_english(anna: Conversation) -> None:
    r = await anna.say(
        "create a task to call Jane Doe tomorrow and in the calendar a call with her at noon for 15 minutes"
    )
    assert [i["op"] for i in writes(r)] == ["create_task", "create_event"]
    assert writes(r)[1]["start"] == "2026-11-26T12:00:00+03:00"


async def test_an_owner_said_with_let_it_be_is_the_new_deals_owner(anna: Conversation) -> None:
    r = await anna.say(
        "создай сделку амбрелла хелс на сто двадцать тысяч долларов стадия лид ответственный пусть будет макс"
    )
    [deal] = writes(r)
    assert (deal["company"], deal["amount"], deal["stage"], deal["owner"]) == (
        "Umbrella Health",
        120000.0,
        "Lead",
        "Max Weber",
    )
