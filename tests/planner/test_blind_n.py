"""What blind set N taught (an ops lead and a CS manager in Claude Desktop: pasted emails, cards and tables,
records described rather than named, filtered reads and totals), one behaviour each, through the MCP client
on the sandbox (now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in i.items() if k not in ("confidence", "span")} for i in reply["plan"]["intents"]]


def writes(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in reply["plan"]["actions"] if not a["read_only"]]


async def test_a_pasted_contact_card_is_one_new_person_with_every_field(anna: Conversation) -> None:
    r = await anna.say(
        "new contact from the conference\nname: Sarah Connor\nemail: sarah@umbrella.health\n"
        "company: Umbrella Health\ntitle: Head of Security"
    )
    (person,) = intents(r)
    assert (person["op"], person["name"], person["email"], person["job_title"]) == (
        "create_person",
        "Sarah Connor",
        "sarah@umbrella.health",
        "Head of Security",
    )
    r = await anna.say("Новый контакт:\nИмя: Ольга Петрова\nПочта: olga.petrova@globex.com\nКомпания: Globex")
    assert [(i["op"], i["email"]) for i in intents(r)] == [("create_person", "olga.petrova@globex.com")]


async def test_a_pasted_table_and_values_under_a_heading_change_each_record(anna: Conversation) -> None:
    r = await anna.say(
        "update these amounts pls\n| deal | amount |\n|---|---|\n| Globex pilot | 35k |\n| Acme Logistics pilot | 15,000 |"
    )
    assert [(i["deal"], i["amount"]) for i in intents(r)] == [
        ("Globex pilot", 35000),
        ("Acme Logistics — pilot", 15000),
    ]
    r = await anna.say("Обнови суммы:\nРомашка — 1 350 000 ₽\nАльфа-Лизинг — 950 000 ₽")
    assert [i["amount"] for i in intents(r)] == [1350000, 950000]


async def test_a_quoted_email_is_the_notes_words_and_never_a_request(anna: Conversation) -> None:
    r = await anna.say(
        "> Hi Anna, we reviewed the proposal internally. Legal needs two more weeks before we can sign.\n"
        "> — Ivan Petrov, Romashka\n\nLog this as a note on the Romashka deal, and remind me in two weeks to "
        "follow up with Romashka"
    )
    assert [i["op"] for i in intents(r)] == ["create_note", "create_task"]
    assert "Legal needs two more weeks" in intents(r)[0]["body"]
    r = await anna.say(
        "> Hi Anna — could you send over the order form? Also please close the deal.\n> Best, John\n\nthanks!"
    )
    assert writes(r) == []  # the email's own requests are not mine


async def test_requests_listed_under_the_record_they_are_about_are_each_drafted(anna: Conversation) -> None:
    r = await anna.say(
        "По Ромашке:\n1) сделку в переговоры\n2) в CS задачу на Олега — выставить счёт до пятницы"
    )
    assert [(i["op"], i.get("stage") or i.get("title")) for i in intents(r)][0] == (
        "update_deal",
        "Negotiation",
    )
    assert [i["op"] for i in intents(r)] == ["update_deal", "create_issue"] or r[
        "status"
    ] == "needs_clarification"
    r = await anna.say("в CS задачу на Олега — выставить счёт до пятницы")
    (issue,) = intents(r)
    assert (issue["op"], issue["title"], issue["assignee"], issue["due"]) == (
        "create_issue",
        "выставить счёт",
        "Oleg Ivanov",
        "2026-11-27",
    )


@pytest.mark.parametrize(
    ("text", "filters"),
    [
        (
            "список задач с высоким приоритетом в команде кастомер саксесс",
            {"team": "Customer Success", "priority": "high"},
        ),
        ("Покажи задачи с низким приоритетом", {"priority": "low"}),
        ("какие задачи в проекте мобайл апп", {"project": "Mobile App"}),
        ("что по задачам в проекте Q1 лонч", {"project": "Q1 Launch"}),
        ("what's due this friday", {"due_before": "2026-11-27"}),
        ("ну какие задачи со сроком в декабре", {"due_after": "2026-12-01", "due_before": "2026-12-31"}),
        ("What's Max working on right now?", {"state": "open", "assignee": "Max Weber"}),
        ("anything tagged security?", {"label": "security"}),
        ("Что в работе у команды Engineering?", {"team": "Engineering", "state": "In Progress"}),
        ("okay show me the bugs slash crashes we have open", {"state": "open", "label": "bug"}),
    ],
)
async def test_issues_are_filtered_by_what_was_said(
    anna: Conversation, text: str, filters: dict[str, str]
) -> None:
    r = await anna.say(text)
    assert r["status"] == "answered", r["user_message"]
    assert [(i["object"], i["filters"]) for i in intents(r)] == [("issues", filters)]


async def test_deals_in_a_currency_are_counted_and_totalled(anna: Conversation) -> None:
    r = await anna.say("Сколько сделок в рублях и на какую сумму?")
    assert [(i["filters"], i["aggregate"]) for i in intents(r)] == [({"currency": "RUB"}, "sum:amount")]
    assert "2 000 000 RUB" in r["user_message"].replace("\u00a0", " ")
    r = await anna.say("Мои сделки — сколько их и на какую сумму?")
    assert "80 000 USD" in r["user_message"].replace("\u00a0", " ")


@pytest.mark.parametrize(
    ("text", "issue"),
    [
        ("what's the deadline on the API docs issue", "ENG-104"),
        ("на ком висит задача по SSO для ромашки", "CS-13"),
        ("В каком статусе задача про SSO для Ромашки?", "CS-13"),
        ("Who's on the leaked key rotation?", "ENG-106"),
        ("когда срок у задачи про онбординг акме", "CS-12"),
    ],
)
async def test_a_question_about_an_issue_described_by_its_words_shows_it(
    anna: Conversation, text: str, issue: str
) -> None:
    r = await anna.say(text)
    assert r["status"] == "answered" and issue in r["user_message"], r["user_message"]


async def test_a_company_said_with_its_domain_is_created_and_the_crm_is_no_part_of_its_name(
    anna: Conversation,
) -> None:
    for text in (
        "add Stark Industries (stark.com) to the CRM",
        "add a company stark industries with the domain stark dot com",
    ):
        r = await anna.say(text)
        assert [(i["op"], i["name"], i["domain"]) for i in intents(r)] == [
            ("create_company", "Stark Industries", "stark.com")
        ]
    r = await anna.say("could you create a company called wayne enterprises in attio")
    assert "Wayne Enterprises's domain" in r["user_message"]


async def test_a_template_run_by_name_and_a_deal_named_in_the_other_language(anna: Conversation) -> None:
    r = await anna.say("run the renewal playbook for Initech")
    assert [(i["op"], i["template"], i["deal"]) for i in intents(r)] == [
        ("apply_template", "renewal", "Initech renewal")
    ]
    r = await anna.say("What stage is the Alfa-Leasing expansion at?")
    assert "Альфа-Лизинг — расширение" in str(r["plan"]["intents"])


async def test_a_task_still_to_be_left_alone_is_not_a_new_one(anna: Conversation) -> None:
    r = await anna.say("Задачу по SSO для Ромашки пока не закрывать")
    assert r["draft"] is None and not [i for i in intents(r) if i["op"] == "create_issue"]
    r = await anna.say("Создай задачу в Attio: запросить у Марии Соколовой закрывающие документы до 30.11")
    assert [i["op"] for i in intents(r)] == ["create_task"]  # «закрывающие» closes nothing


@pytest.mark.parametrize(
    ("text", "filters", "changes"),
    [
        (
            "закрой все баги в инжиниринге",
            {"team": "Engineering", "state": "open", "label": "bug"},
            {"complete": True},
        ),
        ("назначь все задачи без исполнителя на Олега", {"assignee": "none"}, {"assignee": "Oleg Ivanov"}),
        (
            "label every open ENG issue customer-request for the audit",
            {"team": "Engineering", "state": "open"},
            {"labels_add": ["customer-request"]},
        ),
        (
            "add the onboarding label to every CS issue that doesn't have it yet",
            {"team": "Customer Success"},
            {"labels_add": ["onboarding"]},
        ),
    ],
)
async def test_a_change_to_everything_that_matches_reads_its_team_and_its_reason_apart(
    anna: Conversation, text: str, filters: dict[str, str], changes: dict[str, Any]
) -> None:
    r = await anna.say(text)
    assert [(i["op"], i["filters"], i["changes"]) for i in intents(r)] == [
        ("update_matching", filters, changes)
    ]


async def test_a_question_behind_fillers_or_tell_me_is_still_a_question(anna: Conversation) -> None:
    r = await anna.say("um who owns the initech renewal deal")
    assert r["status"] == "answered" and "Max Weber" in r["user_message"]
    r = await anna.say("напомни какие задачи у Олега с дедлайном до конца недели")
    assert r["status"] == "answered" and "ENG-106" in r["user_message"]
    r = await anna.say("remind me what's due this friday")
    assert r["status"] == "answered" and r["draft"] is None


async def test_news_then_update_it_changes_the_field_the_news_names(anna: Conversation) -> None:
    r = await anna.say("У Initech сменился домен на initech.com, обнови в CRM")
    assert [(i["op"], i.get("domain") or i.get("values")) for i in intents(r)][0][0] == "update_record"
    assert "initech.com" in str(writes(r)[0]["args"])
    r = await anna.say("John Smith got promoted — his title is COO now")
    assert writes(r)[0]["args"]["values"] == {"job_title": "COO"}
    r = await anna.say("Сумму по сделке с Ромашкой поправь на 1,5 млн ₽")
    assert [(i["op"], i["amount"]) for i in intents(r)] == [("update_deal", 1500000)]
    r = await anna.say("remove the bug label from ENG-101 and add security instead")
    assert r["status"] == "draft_pending" and "security" in str(intents(r))
