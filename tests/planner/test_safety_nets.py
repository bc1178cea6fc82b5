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


async def test_a_request_that_names_no_issue_is_about_the_one_described_before(anna: Conversation) -> None:
    r = await anna.say("Олег сделал ротацию утёкшего staging-ключа ещё утром, закрой, пожалуйста, задачу.")
    assert r["status"] == "draft_pending" and intents(r) == [{"op": "complete_issue", "issue": "ENG-106"}]
    r = await anna.say(
        "Push notifications for iOS slipped — move the due date to December 22 and leave a comment that "
        "Apple review took longer than expected."
    )
    assert [(i["op"], i["issue"]) for i in intents(r)] == [
        ("update_issue", "ENG-105"),
        ("comment_issue", "ENG-105"),
    ]
    assert intents(r)[0]["due"] == "2026-12-22"
    r = await anna.say(
        "Квартальный чекин с Initech мы отменили, они перешли на ежемесячные отчёты. Заархивируй эту задачу."
    )
    assert intents(r) == [{"op": "archive_issue", "issue": "CS-15"}]


async def test_ready_for_review_is_the_next_step_not_done(anna: Conversation) -> None:
    r = await anna.say("Пуш-уведомления для iOS готовы к проверке, переведи задачу в In Review.")
    assert intents(r) == [{"op": "update_issue", "issue": "ENG-105", "state": "In Review"}]
    r = await anna.say("ENG-105 готова к проверке")
    assert not any(i["op"] == "complete_issue" for i in intents(r))


async def test_from_one_place_to_another_goes_to_the_last(anna: Conversation) -> None:
    r = await anna.say(
        "Баг с экспортом в PDF уже всплыл у трёх клиентов. Переведи его из бэклога в Todo и назначь на Макса."
    )
    assert r["status"] == "draft_pending"
    # one change of the issue, both fields (the second said of it amends the first)
    assert intents(r) == [
        {"op": "update_issue", "issue": "ENG-103", "state": "Todo", "assignee": "Max Weber"}
    ]
    r = await anna.say("Перенеси задачу про документацию API v2 из проекта Q1 Launch в Website Redesign")
    assert r["status"] == "draft_pending" and intents(r)[0]["project"] == "Website Redesign"


async def test_a_description_or_comment_for_an_issue_named_by_its_words(anna: Conversation) -> None:
    r = await anna.say("add a description to the PDF export issue: crashes only on Windows")
    assert intents(r) == [
        {"op": "update_issue", "issue": "ENG-103", "description": "crashes only on Windows"}
    ]
    r = await anna.say("Добавь описание к задаче про SSO для Ромашки: нужен SAML, IdP — Azure AD.")
    assert intents(r)[0]["op"] == "update_issue" and intents(r)[0]["issue"] == "CS-13"
    r = await anna.say("Оставь комментарий в задаче про ротацию staging-ключа: ключ отозван.")
    assert intents(r) == [{"op": "comment_issue", "issue": "ENG-106", "body": "ключ отозван."}]


async def test_one_issue_asked_about_shows_its_priority_project_and_labels(anna: Conversation) -> None:
    r = await anna.say("ENG-104 priority?")
    assert "priority: Low; project: Q1 Launch; labels: docs" in r["user_message"]
    r = await anna.say("какой приоритет у ENG-103")
    assert "приоритет: срочный (Urgent)" in r["user_message"]


async def test_a_person_asked_about_is_said_with_their_company(anna: Conversation) -> None:
    r = await anna.say("where does li wei work again")
    assert "Li Wei is with Acme Logistics" in r["user_message"]


async def test_what_a_clause_adds_about_the_new_issue_is_that_issues(anna: Conversation) -> None:
    r = await anna.say(
        "заведи баг в ENG: не приходят письма сброса пароля, и назначь его на олега, срок завтра"
    )
    assert r["status"] == "draft_pending" and len(r["plan"]["actions"]) == 1
    new = intents(r)[0]
    assert (new["op"], new["assignee"], new["due"]) == ("create_issue", "Oleg Ivanov", "2026-11-26")
    r = await anna.say("create an issue in ENG: fix login, and assign it to Oleg, due Friday")
    assert [(i["op"], i.get("assignee"), i.get("due")) for i in intents(r)] == [
        ("create_issue", "Oleg Ivanov", "2026-11-27")
    ]
    r = await anna.say("create an issue in ENG: fix login, and assign it to Zorro")
    assert r["draft"] is None  # no one by that name: asked, never dropped


async def test_a_change_to_everything_said_in_pieces_or_without_a_verb(anna: Conversation) -> None:
    r = await anna.say(
        "Все задачи без исполнителя, которые лежат в бэклоге, назначь, пожалуйста, на Олега — он дежурный."
    )
    bulk = intents(r)[0]
    assert (bulk["op"], bulk["filters"], bulk["changes"]) == (
        "update_matching",
        {"state": "Backlog", "assignee": "none"},
        {"assignee": "Oleg Ivanov"},
    )
    r = await anna.say("все неназначенные задачи в линеаре на макса")
    assert intents(r)[0]["changes"] == {"assignee": "Max Weber"}
    r = await anna.say("все todo в CS → in progress")
    assert intents(r)[0]["filters"] == {"team": "Customer Success", "state": "Todo"}
    r = await anna.say(
        "Everything in Backlog for CS that nobody owns should go to Oleg — he's on triage duty."
    )
    assert intents(r)[0]["filters"] == {"team": "Customer Success", "state": "Backlog", "assignee": "none"}


async def test_a_priority_that_is_not_the_change_says_which_ones(anna: Conversation) -> None:
    r = await anna.say("все urgent issues → assign мне")
    assert (intents(r)[0]["filters"], intents(r)[0]["changes"]) == (
        {"priority": "urgent"},
        {"assignee": "Anna Kuznetsova"},
    )
    r = await anna.say("all high priority bugs in ENG to Max")
    assert (intents(r)[0]["filters"], intents(r)[0]["changes"]) == (
        {"team": "Engineering", "label": "bug", "priority": "high"},
        {"assignee": "Max Weber"},
    )
    r = await anna.say("mark all ENG bugs urgent")
    assert intents(r)[0]["changes"] == {"priority": "urgent"} and "priority" not in intents(r)[0]["filters"]


async def test_whose_issues_are_changed_is_never_dropped(anna: Conversation) -> None:
    r = await anna.say(
        "Олег уходит в отпуск на две недели, поэтому переназначь все его задачи в Linear на Макса."
    )
    assert (intents(r)[0]["filters"], intents(r)[0]["changes"]) == (
        {"assignee": "Oleg Ivanov"},
        {"assignee": "Max Weber"},
    )
    r = await anna.say("переназначь все его задачи на Макса")  # whose, not said: asked, never "every issue"
    assert r["status"] == "needs_clarification" and r["draft"] is None


async def test_why_said_before_or_after_a_bulk_change_is_no_filter(anna: Conversation) -> None:
    r = await anna.say(
        "For sprint planning, move everything that's currently in Todo across all teams into In Progress."
    )
    assert (intents(r)[0]["filters"], intents(r)[0]["changes"]) == (
        {"state": "Todo"},
        {"state": "In Progress"},
    )
    r = await anna.say(
        "Everything the Customer Success team has in Todo should get a due date of December 4th so we can plan the week."
    )
    assert (intents(r)[0]["filters"], intents(r)[0]["changes"]) == (
        {"team": "Customer Success", "state": "Todo"},
        {"due": "2026-12-04"},
    )
