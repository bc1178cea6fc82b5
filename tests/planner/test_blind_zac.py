"""What blind sets Z–AC taught (a non-native English speaker, a terse power user, a Russian account manager
with nicknames, an ops person code-switching, a product manager writing Slack-style, a Russian CEO dictating,
a support lead with tracker jargon, a sales-ops person with CRM jargon), one behaviour each, through the MCP
client on the sandbox (now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in i.items() if k not in ("confidence", "span")} for i in reply["plan"]["intents"]]


def writes(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [i for i in intents(reply) if i["op"] != "find"]


def ops(reply: dict[str, Any]) -> list[str]:
    return [i["op"] for i in writes(reply)]


def drafted(reply: dict[str, Any]) -> list[str]:
    """The write actions the reply's plan holds (a question's plan may list intents it did not draft)."""
    return [a["operation"] for a in (reply.get("plan") or {}).get("actions") or [] if not a["read_only"]]


# ---- wrong drafts that now draft right or ask ------------------------------------------------------


async def test_terse_details_after_a_title_are_its_fields(anna: Conversation) -> None:
    r = await anna.say("new bug DES: crash on login, p1, max")
    assert writes(r) == [
        {"op": "create_issue", "title": "crash on login", "team": "Design", "assignee": "Max Weber",
         "priority": "urgent", "labels": ["bug"]}
    ]  # fmt: skip


async def test_a_colleague_named_in_the_heading_is_the_assignee(anna: Conversation) -> None:
    r = await anna.say("task oleg tmrw: rotate prod db creds")
    (issue,) = writes(r)
    assert (issue["title"], issue["assignee"], issue["due"]) == (
        "rotate prod db creds",
        "Oleg Ivanov",
        "2026-11-26",
    )


async def test_a_project_abbreviated_and_a_name_alone_land_in_their_fields(anna: Conversation) -> None:
    r = await anna.say("new issue ENG: offline mode ios, proj mobile, max, due dec 15")
    (issue,) = writes(r)
    assert (issue["title"], issue["project"], issue["assignee"]) == (
        "offline mode ios",
        "Mobile App",
        "Max Weber",
    )


async def test_a_new_deal_typed_as_a_list_keeps_its_name_and_owner(anna: Conversation) -> None:
    r = await anna.say("new deal: Initech expansion / initech / 22.5k usd / lead / max")
    (deal,) = writes(r)
    assert (deal["name"], deal["amount"], deal["stage"], deal["owner"]) == (
        "Initech expansion",
        22500,
        "Lead",
        "Max Weber",
    )


async def test_a_new_issue_with_only_its_team_asks_for_a_title(anna: Conversation) -> None:
    r = await anna.say("new issue ENG")
    assert r["status"] == "needs_clarification" and writes(r) == []


async def test_a_stranger_as_assignee_is_asked_about(anna: Conversation) -> None:
    r = await anna.say("Закинь в линеаре задачку Пете из поддержки: разобраться с доступами ромашки")
    assert r["status"] == "needs_clarification" and "Пете" in r["user_message"]


async def test_a_call_with_a_time_and_minutes_is_a_calendar_event(anna: Conversation) -> None:
    r = await anna.say("call john tmrw 14:30 30m")
    (event,) = writes(r)
    assert (event["op"], event["start"][:16], event["duration_minutes"]) == (
        "create_event",
        "2026-11-26T14:30",
        30,
    )


async def test_a_chase_on_a_contact_is_a_crm_task(anna: Conversation) -> None:
    r = await anna.say("todo: chase john smith re PO, thu")
    assert ops(r) == ["create_task"] and writes(r)[0]["record"] == "John Smith"


async def test_the_signed_contract_is_no_news_of_a_signature(anna: Conversation) -> None:
    r = await anna.say("chase globex for the signed contract tomorrow")
    assert ops(r) == ["create_task"]


async def test_a_stage_said_beside_a_template_is_used_or_asked(anna: Conversation) -> None:
    r = await anna.say("Make the deal from Acme Logistics to won and do the onboarding tasks in Linear")
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_a_message_in_slack_is_not_a_change_to_the_deal(anna: Conversation) -> None:
    r = await anna.say("Slack Oleg that legal signed off on Alfa-Leasing")
    assert r["status"] == "needs_clarification" and writes(r) == []


async def test_close_lost_moves_deals_not_issues(anna: Conversation) -> None:
    r = await anna.say("Close-lost everything still in Lead")
    assert [(i["op"], i.get("deal"), i.get("stage")) for i in writes(r)] == [
        ("update_deal", "Acme Logistics — pilot", "Lost")
    ] or [(i["op"], i.get("changes")) for i in writes(r)] == [("update_matching", {"stage": "Lost"})]
    assert not any(a["toolkit"] == "linear" for a in r["plan"]["actions"])


async def test_a_past_tense_added_creates_nothing(anna: Conversation) -> None:
    r = await anna.say(
        "сделку инитек продление поменяй сумму на двадцать две тысячи пятьсот они добавили лицензии"
    )
    assert writes(r) == [{"op": "update_deal", "deal": "Initech renewal", "amount": 22500}]


async def test_an_issue_another_is_folded_into_is_no_target(anna: Conversation) -> None:
    r = await anna.say("The mobile onboarding screens got folded into ENG-105, so archive DES-7")
    assert writes(r) == [{"op": "archive_issue", "issue": "DES-7"}]


async def test_a_lead_in_is_no_note(anna: Conversation) -> None:
    r = await anna.say("quick one — add a note to Globex")
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_a_title_promised_later_is_asked(anna: Conversation) -> None:
    r = await anna.say("создай задачу эээ ну эту как её потом скажу")
    assert r["status"] == "needs_clarification" and writes(r) == []


# ---- several actions in one message ------------------------------------------------------------------


async def test_a_numbered_list_under_a_heading_makes_each(anna: Conversation) -> None:
    r = await anna.say(
        "Короче, три вещи: 1) глобекс пилот двигаем обратно в предложение, 2) к нему заметку — ждут новое КП до "
        "5 декабря, 3) мне задачу в линеаре подготовить КП для глобекса к четвергу"
    )
    assert ops(r) == ["update_deal", "create_note", "create_issue"]
    assert writes(r)[2]["assignee"] == "Anna Kuznetsova" and writes(r)[2]["due"] == "2026-11-26"


async def test_a_meeting_then_a_note_on_the_deal(anna: Conversation) -> None:
    r = await anna.say(
        "по акме корп — завтра в 12 созвон с Джоном на 45 минут, и к сделке заметку: обсуждаем объём лицензий"
    )
    assert ops(r) == ["create_event", "create_note"]
    assert writes(r)[1]["record"] == "Acme Corp — annual license"


async def test_close_then_comment_in_it(anna: Conversation) -> None:
    r = await anna.say(
        "по глобексу требования к пилоту собрали — закрой задачку и отпиши в ней, что документ лежит в драйве"
    )
    assert writes(r) == [
        {"op": "complete_issue", "issue": "CS-14"},
        {"op": "comment_issue", "issue": "CS-14", "body": "документ лежит в драйве"},
    ]


async def test_describe_is_no_comment(anna: Conversation) -> None:
    r = await anna.say("Разбей ENG-104 на подзадачи: собрать примеры, описать эндпоинты, ревью")
    assert ops(r) == ["create_issue"] * 3


async def test_a_heading_value_then_a_task(anna: Conversation) -> None:
    r = await anna.say(
        "Acme Corp — annual license: сумма 55 000, и Анне задача на понедельник отправить обновлённое КП John Smith"
    )
    assert ops(r) == ["update_deal", "create_task"]
    assert writes(r)[0]["amount"] == 55000 and writes(r)[1]["assignee"] == "Anna Kuznetsova"


async def test_a_project_then_an_issue_into_it(anna: Conversation) -> None:
    r = await anna.say(
        "создай в линеаре проект партнерская программа для си эс срок тридцать первое марта и туда задачу "
        "подготовить договор для партнеров"
    )
    project, issue = writes(r)
    assert (project["op"], project["name"], project["team"]) == (
        "create_project",
        "партнерская программа",
        "Customer Success",
    )
    assert (issue["op"], issue["project"], issue["team"]) == (
        "create_issue",
        "партнерская программа",
        "Customer Success",
    )


async def test_each_issue_goes_to_its_own_state(anna: Conversation) -> None:
    r = await anna.say("CS-12 в работу, CS-14 на ревью")
    assert [(i["issue"], i["state"]) for i in writes(r)] == [("CS-12", "In Progress"), ("CS-14", "In Review")]


async def test_two_issues_said_first_both_move(anna: Conversation) -> None:
    r = await anna.say("ENG-101 и ENG-106 в ревью")
    assert [(i["issue"], i["state"]) for i in writes(r)] == [
        ("ENG-101", "In Review"),
        ("ENG-106", "In Review"),
    ]


async def test_a_bare_close_after_an_issue_was_named(anna: Conversation) -> None:
    r = await anna.say("Слушай, CS-13 по ромашке (SSO) уже сделали, закрой пожалуйста")
    assert writes(r) == [{"op": "complete_issue", "issue": "CS-13"}]


async def test_the_note_takes_what_was_told_before_it(anna: Conversation) -> None:
    r = await anna.say(
        "Кстати, созвонилась сегодня с Джейн из глобекса, говорит, закупка у них съезжает на январь. "
        "Запиши это заметкой к глобексу, плиз"
    )
    (note,) = writes(r)
    assert note["record"] == "Globex" and "январь" in note["body"]


async def test_a_note_with_the_reason_takes_the_reason(anna: Conversation) -> None:
    r = await anna.say(
        "Globex pilot is lost, they choosed the competitor. Move it and put a note with the reason"
    )
    assert ops(r) == ["update_deal", "create_note"] and writes(r)[1]["body"] == "they choosed the competitor"


async def test_a_ticket_got_for_a_team_and_taken_by_a_colleague(anna: Conversation) -> None:
    r = await anna.say(
        "who owns Globex pilot btw? also log a note on it: Jane asked for a security questionnaire. and get ENG "
        "a ticket to fill the questionnaire out, Oleg can take it"
    )
    note, issue = writes(r)
    assert note["record"] == "Globex pilot" and note["body"] == "Jane asked for a security questionnaire"
    assert (issue["title"], issue["team"], issue["assignee"]) == (
        "fill the questionnaire out",
        "Engineering",
        "Oleg Ivanov",
    )


# ---- understanding ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "deal", "change"),
    [
        ("globex pilot 35k", "Globex pilot", {"amount": 35000}),
        ("romashka deal: 1.5m rub", "Ромашка — внедрение", {"amount": 1500000, "currency": "RUB"}),
        ("globex pilot: won", "Globex pilot", {"stage": "Won"}),
        ("acme logistics pilot -> qualification, 15k", "Acme Logistics — pilot", {"stage": "Qualification", "amount": 15000}),
        ("The Romashka deal should now be worth 1,500,000 roubles, please update it.", "Ромашка — внедрение", {"amount": 1500000, "currency": "RUB"}),
        ("Альфа-Лизинг в Won, финальную сумму ставим 850 000", "Альфа-Лизинг — расширение", {"stage": "Won", "amount": 850000}),
        ("Globex pilot — stage Won, final amount 28 500 USD", "Globex pilot", {"stage": "Won", "amount": 28500}),
        ("Олег в отпуске до декабря, перекинь альфу пока на Макса", "Альфа-Лизинг — расширение", {"owner": "Max Weber"}),
        ("Акме логистик, ну Ли Вэй, просят увеличить пилот до 15к, поменяй сумму", "Acme Logistics — pilot", {"amount": 15000}),
    ],
)  # fmt: skip
async def test_a_deal_change_said_tersely(
    anna: Conversation, text: str, deal: str, change: dict[str, Any]
) -> None:
    r = await anna.say(text)
    assert drafted(r) == ["update_deal"], r["user_message"]
    update = {k: v for i in writes(r) for k, v in i.items()}  # said over two clauses: one change
    assert update["op"] == "update_deal" and update["deal"] == deal, r["user_message"]
    assert {k: update.get(k) for k in change} == change


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("В какой стадии Альфа-Лизинг?", "Переговоры"),
        ("какая сумма по ромашке?", "1 200 000"),
        ("Who's the contact on the Alfa Leasing deal?", "Maria Sokolova"),
        ("Who from Initech is in our CRM?", "Ivan Sidorov"),
        ("Has the leaked staging key been rotated yet?", "ENG-106"),
        ("Did the Acme Corp onboarding call happen yet?", "CS-12"),
        ("is the SSO thing for Romashka done yet?", "CS-13"),
        ("Did we already move Initech renewal to Won?", "Won"),
        ("what is the status of the Globex pilot", "Negotiation"),
        ("pipeline?", "Globex pilot"),
        ("# deals in negotiation", "2"),
        ("won total", "18 000"),
        ("john smith email", "john@acme.com"),
        ("Show the issues which nobody is assigned", "CS-15"),
        ("По акме корп напомни, что за сделка и кто её ведёт?", "Acme Corp — annual license"),
    ],
)
async def test_a_question_is_answered_with_what_it_asks(anna: Conversation, text: str, said: str) -> None:
    r = await anna.say(text)
    assert r["status"] == "answered" and writes(r) == [], r
    assert said in r["user_message"].replace("\u00a0", " "), r["user_message"]


async def test_a_new_company_and_its_deal_by_its_own_name(anna: Conversation) -> None:
    r = await anna.say(
        "Create company Stark Industries, domain stark.com, и deal Stark pilot на 75k USD в стадии Lead"
    )
    company, deal = writes(r)
    assert company["op"] == "create_company" and (deal["name"], deal["amount"], deal["stage"]) == (
        "Stark pilot",
        75000,
        "Lead",
    )


async def test_a_new_deals_fields_after_commas_stay_with_it(anna: Conversation) -> None:
    r = await anna.say("Create deal 'Romashka support 2027', 480 000 RUB, stage Lead, company Ромашка")
    (deal,) = writes(r)
    assert (deal["op"], deal["name"], deal["company"], deal["amount"]) == (
        "create_deal",
        "Romashka support 2027",
        "Ромашка",
        480000,
    )


async def test_a_contact_card_after_a_dash(anna: Conversation) -> None:
    r = await anna.say("к глобексу контакт добавь — Сара Коннор, sarah@globex.com, руководитель ИТ")
    (person,) = writes(r)
    assert person["op"] == "create_person" and person["email"] == "sarah@globex.com"


async def test_a_new_issue_starts_in_the_state_said(anna: Conversation) -> None:
    r = await anna.say("Заведи тикет «Обновить сертификаты на стейдже» в бэклог ENG")
    assert writes(r)[0]["state"] == "Backlog"


async def test_invite_her_points_back_to_the_email_quoted(anna: Conversation) -> None:
    r = await anna.say(
        'Copying from Jane Doe\'s email: "Could we do a call on Monday at 2pm? 45 minutes should be enough." '
        "Please put it in the calendar and invite her."
    )
    (event,) = writes(r)
    assert event["attendees"] == ["Jane Doe"]


async def test_a_meeting_asked_for_then_put_in_the_calendar_with_an_invitee(anna: Conversation) -> None:
    r = await anna.say(
        "Короче, альфа просит встречу в понедельник в 11, на час. Закинь в календарь и Марию позови"
    )
    (event,) = writes(r)
    assert event["start"][:16] == "2026-11-30T11:00" and event["attendees"] == ["Maria Sokolova"]


async def test_can_be_closed_is_a_close_and_an_unknown_issue_is_asked(anna: Conversation) -> None:
    r = await anna.say("ENG-101 can be closed now")
    assert writes(r) == [{"op": "complete_issue", "issue": "ENG-101"}]
    r = await anna.say("ENG-199 can be closed, it's a dupe")
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_handed_over_to_me_when_another_colleague_is_named_first(anna: Conversation) -> None:
    r = await anna.say("Oleg's swamped — hand the Acme Logistics pilot over to me")
    assert writes(r) == [{"op": "update_deal", "deal": "Acme Logistics — pilot", "owner": "Anna Kuznetsova"}]
