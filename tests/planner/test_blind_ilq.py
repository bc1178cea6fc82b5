"""What the sets IL–IQ taught, one behaviour each, through the MCP client on the sandbox (now = Wed 2026-11-25
12:00 MSK; Anna asks; Globex pilot is in Negotiation, Initech renewal Won; Design's projects include Mobile App)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted, ops, run, writes

pytestmark = pytest.mark.anyio


async def fresh(anna: Conversation, text: str) -> dict[str, Any]:
    """Said in a conversation of its own (no open question or draft from the test's other messages)."""
    return await Conversation(anna.client, conversation=text[:40]).say(text)


def only(reply: dict[str, Any]) -> dict[str, Any]:
    (one,) = writes(reply)
    return one


# ---- the wrong drafts of the round: each now the right change, or a question -----------------------------------


async def test_a_change_put_first_by_a_correction_keeps_the_issue_the_request_named(
    anna: Conversation,
) -> None:
    r = await fresh(anna, "архивни ENG-103... хотя нет, сначала откомменть: дублирует ENG-101, потом архивни")
    assert r["status"] == "draft_pending"
    assert [(i["op"], i["issue"]) for i in writes(r)] == [
        ("comment_issue", "ENG-103"),
        ("archive_issue", "ENG-103"),
    ]
    assert writes(r)[0]["body"] == "дублирует ENG-101"


@pytest.mark.parametrize(
    "text", ["move Globex pilot to Contract Signed", "Move Globex pilot to the Signed stage"]
)
async def test_a_stage_by_a_name_that_does_not_exist_is_asked_not_read_as_won(
    anna: Conversation, text: str
) -> None:
    r = await fresh(anna, text)
    assert r["status"] == "needs_clarification" and writes(r) == []
    assert "Won" in {c["label"] for c in r["choices"]}


@pytest.mark.parametrize(
    "text",
    [
        "в DES заведи задачу нарисовать иллюстрации для онбординга проект Mobile App на Макса",
        "DES issue: new app icon, Max, due dec 12, label feature, in Mobile App",
    ],
)
async def test_a_project_said_in_passing_is_the_new_issues_project_not_its_title(
    anna: Conversation, text: str
) -> None:
    issue = only(await fresh(anna, text))
    assert issue["project"] == "Mobile App" and "Mobile App" not in issue["title"]
    assert issue["assignee"] == "Max Weber"


async def test_a_list_said_without_commas_after_issues_is_asked_for_then_made(anna: Conversation) -> None:
    c = Conversation(anna.client, conversation="spoken-list")
    asked = await c.say(
        "создай в ENG задачи по релизу заморозка кода регресс чейнджлог релиз в сторы мониторинг ретро"
    )
    assert asked["status"] == "needs_clarification" and "через запятую" in asked["clarifying_question"]
    r = await c.call(
        "pick",
        plan_id=asked["plan"]["plan_id"],
        question_id=asked["question_id"],
        text="заморозка кода, регресс, чейнджлог, релиз в сторы, мониторинг, ретро",
    )
    assert [i["title"] for i in writes(r)] == [
        "заморозка кода",
        "регресс",
        "чейнджлог",
        "релиз в сторы",
        "мониторинг",
        "ретро",
    ]


async def test_the_following_in_a_team_is_one_issue_per_item(anna: Conversation) -> None:
    r = await fresh(anna, "create the following in ENG: rate limiter for public API, audit log retention job")
    assert [i["title"] for i in writes(r)] == ["rate limiter for public API", "audit log retention job"]


async def test_the_following_issue_with_a_comma_in_its_title_stays_one(anna: Conversation) -> None:
    r = await fresh(anna, "create the following issue in ENG: login fails, on Safari only")
    assert [i["title"] for i in writes(r)] == ["login fails, on Safari only"]


async def test_an_assignee_said_last_with_its_verb_is_no_part_of_the_title(anna: Conversation) -> None:
    issue = only(
        await fresh(
            anna, "в CS заведи задачу провести обучение админов Альфа-Лизинга на 3 декабря назначь Олега"
        )
    )
    assert issue["title"] == "провести обучение админов Альфа-Лизинга"
    assert (issue["assignee"], issue["due"]) == ("Oleg Ivanov", "2026-12-03")


async def test_whose_issue_said_before_its_title_is_no_part_of_it(anna: Conversation) -> None:
    issue = only(await fresh(anna, "заведи задачу на Олега обновить сертификат до пятницы, хотя нет, Макса"))
    assert (issue["title"], issue["assignee"]) == ("обновить сертификат", "Max Weber")


async def test_a_name_alone_after_make_it_replaces_the_one_name_said(anna: Conversation) -> None:
    issue = only(
        await fresh(
            anna,
            "Create an issue for Oleg to update the SSL cert on staging before Friday — actually make it Max",
        )
    )
    assert issue["assignee"] == "Max Weber" and "SSL cert" in issue["title"] and issue["due"] == "2026-11-27"


async def test_an_owner_set_with_a_verb_beside_an_amount_is_kept(anna: Conversation) -> None:
    deal = only(
        await fresh(anna, "по сделке Globex pilot владельцем поставь Олега и сумму 32 тысячи долларов")
    )
    assert (deal["owner"], deal["amount"]) == ("Oleg Ivanov", 32000.0)


async def test_why_a_deal_is_deleted_moves_it_nowhere_first(anna: Conversation) -> None:
    r = await fresh(anna, "Удали сделку Acme Logistics, клиент отказался")
    assert ops(r) == ["delete_record"]


async def test_a_move_taken_back_leaves_the_change_said_instead(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "okay so um first thing close CS-14 we got all the requirements from Globex second thing move Globex pilot "
        "to proposal no actually keep it in negotiation just bump the amount to 35k and third remind me tomorrow to "
        "call Jane",
    )
    assert ops(r) == ["complete_issue", "update_deal", "create_task"]
    deal = writes(r)[1]
    assert deal["amount"] == 35000.0 and "stage" not in deal


async def test_of_all_the_deals_named_only_the_one_said_after_stop_moves(anna: Conversation) -> None:
    r = await fresh(anna, "переведи все сделки Олега в Lost, он уходит… а, стоп, только Acme Logistics pilot")
    assert writes(r) == [{"op": "update_deal", "deal": "Acme Logistics — pilot", "stage": "Lost"}]


async def test_a_colleagues_part_said_with_let_him_is_a_request_of_its_own(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "короче запиши на завтра в десять утра созвон с Альфа-Лизингом минут на сорок и пусть Олег подготовит к нему "
        "расчёт скидки в CRM задачей",
    )
    event, task = writes(r)
    assert (event["op"], event["title"], event["duration_minutes"]) == (
        "create_event",
        "Созвон с Альфа-Лизингом",
        40,
    )
    assert (task["op"], task["assignee"], task["content"]) == (
        "create_task",
        "Oleg Ivanov",
        "подготовить к нему расчёт скидки",
    )


async def test_a_reminder_about_a_company_just_made_is_its_crm_task_and_runs(anna: Conversation) -> None:
    r = await fresh(
        anna, "New company: Pied Piper, piedpiper.com - and remind me to intro them to Max next Wednesday"
    )
    assert drafted(r) == ["attio:create_company", "attio:create_task"]
    assert writes(r)[1]["record"] == "Pied Piper"
    done = await run(anna, r)
    assert [x["status"] for x in done["results"]] == ["succeeded", "succeeded"]


async def test_news_then_so_just_a_note_is_the_note(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "Initech короче продлили сделка уже в won так что просто заметку к сделке Initech renewal что подписали на "
        "два года и задачу в CS выставить счёт до 1 декабря",
    )
    assert drafted(r) == ["attio:create_note", "linear:create_issue"]  # (the deal is Won already)


# ---- fails of the round that were questions: now understood -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("ENG-102 переименуй в редизайн страницы логина v2", "редизайн страницы логина v2"),
        ("set title of DES-7 to 'Mobile onboarding screens v2'", "Mobile onboarding screens v2"),
        ("change the title of DES-7 to Mobile onboarding screens v2", "Mobile onboarding screens v2"),
        ("ENG-102 rename to Login v2", "Login v2"),
    ],
)
async def test_a_title_set_however_said_renames_the_issue(anna: Conversation, text: str, title: str) -> None:
    r = await fresh(anna, text)
    assert only(r)["title"] == title
    assert "destructive" in {k["kind"] for k in r["plan"]["risks"]}


async def test_two_issues_raised_to_a_priority_both_change(anna: Conversation) -> None:
    r = await fresh(anna, "Raise ENG-101 and ENG-105 to urgent")
    assert [(i["issue"], i["priority"]) for i in writes(r)] == [("ENG-101", "urgent"), ("ENG-105", "urgent")]


async def test_the_verb_taken_back_keeps_the_issue_it_was_said_of(anna: Conversation) -> None:
    r = await fresh(anna, "Архивируй CS-15 — нет, подожди, не архивируй, просто закрой")
    assert writes(r) == [{"op": "complete_issue", "issue": "CS-15"}]


@pytest.mark.parametrize(
    ("text", "change"),
    [
        (
            "Acme Logistics pilot: bump to Qualification, owner Max",
            {"stage": "Qualification", "owner": "Max Weber"},
        ),
        ("Initech renewal: stage Lost and owner Anna", {"stage": "Lost", "owner": "Anna Kuznetsova"}),
    ],
)
async def test_fields_listed_after_a_deal_all_change(
    anna: Conversation, text: str, change: dict[str, str]
) -> None:
    deal = only(await fresh(anna, text))
    assert {k: deal.get(k) for k in change} == change


async def test_open_a_deal_after_the_news_opens_one(anna: Conversation) -> None:
    deal = only(
        await fresh(anna, "Umbrella Health wants a pilot - open a deal, 18,500 dollars, Oleg owns it")
    )
    assert (deal["op"], deal["company"], deal["amount"], deal["owner"]) == (
        "create_deal",
        "Umbrella Health",
        18500.0,
        "Oleg Ivanov",
    )


async def test_told_to_open_a_deal_is_no_deal_of_its_own(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "My lead told me to open a deal for Globex for their second team. Please create a deal 'Globex team 2' for "
        "Globex, 15k USD, stage Qualification.",
    )
    assert [i["name"] for i in writes(r)] == ["Globex team 2"]


async def test_a_new_lead_listed_by_domain_is_its_company_contact_and_deal(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "New lead: Stark Industries (stark.com), contact Pepper Potts pepper@stark.com, deal 'Stark pilot' for 15k in Lead",
    )
    assert ops(r) == ["create_company", "create_person", "create_deal"]
    assert writes(r)[1]["email"] == "pepper@stark.com" and writes(r)[2]["name"] == "Stark pilot"


async def test_a_deal_named_then_made_with_a_task_about_them(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "Сделка Umbrella: заведи её, 2 миллиона рублей, лид, и поставь задачу Олегу позвонить им в пятницу",
    )
    deal, task = writes(r)
    assert (deal["op"], deal["amount"], deal["stage"]) == ("create_deal", 2000000.0, "Lead")
    assert (task["op"], task["assignee"], task["record"]) == ("create_task", "Oleg Ivanov", "Umbrella Health")


async def test_slang_for_a_deal_makes_a_new_one(anna: Conversation) -> None:
    deal = only(
        await fresh(anna, "Новая сдлк для Ромашки «Поддержка 2027», 300к руб, стадия лид, владелец я")
    )
    assert (deal["op"], deal["name"], deal["amount"]) == ("create_deal", "Поддержка 2027", 300000.0)


async def test_no_then_cancel_said_unpunctuated_calls_it_all_off(anna: Conversation) -> None:
    r = await fresh(anna, "cs 14 переименуй в сбор требований глобекс нет отмена оставь как было")
    assert r["status"] == "answered" and r["draft"] is None and writes(r) == []


async def test_a_first_issue_inside_a_new_project_goes_into_it(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "new project Data Migration Umbrella in CS team, and first issue inside: collect sample data from Umbrella",
    )
    project, issue = writes(r)
    assert project["op"] == "create_project" and issue["project"] == "Data Migration Umbrella"
