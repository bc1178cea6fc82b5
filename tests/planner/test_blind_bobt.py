"""What the sets BO–BT taught, one behaviour each, through the MCP client on the sandbox
(now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [i for i in reply["plan"]["intents"] if i["op"] != "find"]


def writes(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in reply["plan"]["actions"] if not a["read_only"]]


# ---- what was told, then "log it" / "note that" on a record ---------------------------------------------


async def test_told_then_log_it_on_a_deal_notes_what_was_told_on_that_deal(anna: Conversation) -> None:
    r = await anna.say(
        "Jane called — procurement approved the pilot extension. Log it on the Globex pilot deal."
    )
    (note,) = intents(r)
    assert note["op"] == "create_note" and note["record"] == "Globex pilot"
    assert "procurement approved the pilot extension" in note["body"]


async def test_note_that_on_a_record_then_a_reminder_are_two_requests(anna: Conversation) -> None:
    r = await anna.say(
        "Li says the pilot's on hold until January. Note that on the Acme Logistics pilot and remind me on "
        "Jan 11 to ping her."
    )
    assert sorted(drafted(r)) == ["attio:create_note", "attio:create_task"]
    note, task = sorted(intents(r), key=lambda i: i["op"])
    assert note["record"] == "Acme Logistics — pilot" and "on hold until January" in note["body"]
    assert task["content"] == "ping her" and task["deadline"].startswith("2027-01-11")


# ---- courtesy that is no condition ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Once you have a moment, please move ENG-105 to In Review and leave a comment that build 1.4.2 is ready.",
        "When you get a chance, move ENG-105 to In Review and leave a comment that build 1.4.2 is ready.",
    ],
)
async def test_when_it_suits_you_is_no_condition_and_drops_nothing(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert sorted(drafted(r)) == ["linear:comment_issue", "linear:update_issue"], r["user_message"]


# ---- a request said after why ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Слушай, CS-14 закрывай, требования собрали, а сделку Глобекса переводи в КП",
            ["attio:update_deal", "linear:complete_issue"],
        ),
        (
            "CS-13 передай Максу, Олег в отпуске, и срок поставь на четверг следующей недели",
            ["linear:update_issue"],
        ),
        (
            "CS-13 — закрыть, SSO настроили. Ромашкину сделку — в Won.",
            ["attio:update_deal", "linear:complete_issue"],
        ),
    ],
)
async def test_a_request_said_after_a_reason_is_read_not_dropped(
    anna: Conversation, text: str, expected: list[str]
) -> None:
    r = await anna.say(text)
    assert sorted(drafted(r)) == expected, r["user_message"]


async def test_the_due_date_said_after_a_reason_reaches_the_issue(anna: Conversation) -> None:
    r = await anna.say("CS-13 передай Максу, Олег в отпуске, и срок поставь на четверг следующей недели")
    said = {k: v for i in intents(r) for k, v in i.items() if k in ("issue", "assignee", "due")}
    assert said == {"issue": "CS-13", "assignee": "Max Weber", "due": "2026-12-03"}
    assert drafted(r) == ["linear:update_issue"]  # one change of the issue, both fields in it


# ---- dates ----------------------------------------------------------------------------------------------


async def test_a_weekday_then_its_date_is_that_date(anna: Conversation) -> None:
    r = await anna.say("Please set the due date of ENG-102 to Friday, December 4th.")
    assert intents(r)[0]["due"] == "2026-12-04"


# ---- words that name nothing yet -----------------------------------------------------------------------


@pytest.mark.parametrize("text", ["закинь таску в DES", "Remind me next Tuesday"])
async def test_a_to_do_with_nothing_it_is_about_asks_for_its_title(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_a_task_for_someone_who_is_no_colleague_asks_whom(anna: Conversation) -> None:
    r = await anna.say("Поручи Пете позвонить Ивану Петрову завтра")
    assert r["status"] == "needs_clarification" and "Пете" in r["clarifying_question"]


# ---- a deal named in the sentence before -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["Globex pilot закрыли, переведи в Won", "Globex pilot закрыли, поставь Won"]
)
async def test_a_bare_stage_move_is_about_the_deal_just_named(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert intents(r) == [{"op": "update_deal", "deal": "Globex pilot", "stage": "Won", **_said(r)}], r[
        "user_message"
    ]


async def test_a_company_two_deals_share_is_asked_not_carried_over(anna: Conversation) -> None:
    r = await anna.say("Acme wants to move forward — push the deal to Negotiation")
    assert r["status"] == "needs_clarification" and drafted(r) == []


def _said(reply: dict[str, Any]) -> dict[str, Any]:
    return {k: reply["plan"]["intents"][0][k] for k in ("confidence", "span")}


# ---- whose deals, said as a possessive; and where they go without a verb ---------------------------------


async def test_a_possessive_of_a_first_name_is_the_owner(anna: Conversation) -> None:
    r = await anna.say("переведи все Олеговы сделки в won")
    (bulk,) = intents(r)
    assert bulk["op"] == "update_matching" and bulk["filters"]["owner"] == "Oleg Ivanov"
    assert sorted(a["preview"].split("«")[1].split("»")[0] for a in writes(r)) == [
        "Acme Logistics — pilot",
        "Альфа-Лизинг — расширение",
    ]


async def test_all_of_someones_deals_to_a_stage_needs_no_verb(anna: Conversation) -> None:
    r = await anna.say("все сделки Анны в переговоры")
    (bulk,) = intents(r)
    assert bulk["filters"]["owner"] == "Anna Kuznetsova"
    assert {a["args"]["values"]["stage"] for a in writes(r)} == {"Negotiation"}
    assert drafted(r) == ["attio:update_deal", "attio:update_deal"]  # the third is there already


# ---- lists and their fields -------------------------------------------------------------------------------


async def test_a_team_heading_then_a_counted_list_makes_one_issue_per_item(anna: Conversation) -> None:
    r = await anna.say(
        "DES: 7 new issues, one per icon: search, filter, export, share, upload, settings, help"
    )
    assert [i["title"] for i in intents(r)] == [
        "search",
        "filter",
        "export",
        "share",
        "upload",
        "settings",
        "help",
    ]


async def test_an_arrow_after_a_sub_issue_is_whose_it_is(anna: Conversation) -> None:
    r = await anna.say("sub-issue under ENG-105: android parity for push, -> max")
    (sub,) = intents(r)
    assert sub["title"] == "android parity for push" and sub["assignee"] == "Max Weber"


async def test_a_new_project_and_a_task_into_it_are_both_drafted(anna: Conversation) -> None:
    r = await anna.say("заведи проект Billing v2 в ENG и сразу таску туда: спроектировать схему инвойсов")
    assert sorted(drafted(r)) == ["linear:create_issue", "linear:create_project"]


async def test_the_ask_said_last_is_no_part_of_the_task(anna: Conversation) -> None:
    r = await anna.say("need to follow up with Li Wei next Wednesday re: pilot kickoff, add a task")
    assert drafted(r) == ["attio:create_task"]
    assert intents(r)[0]["content"] == "follow up with Li Wei re pilot kickoff"


# ---- a project manager's shorthand: arrows, slashes and pluses between requests --------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("CS-13 закрыть / ромашка → Won", ["attio:update_deal", "linear:complete_issue"]),
        (
            "сделка Globex → проиграна / заметка: ушли к конкуренту",
            ["attio:create_note", "attio:update_deal"],
        ),
        (
            "альфа-лизинг расширение → выиграна + онбординг в Linear",
            ["attio:update_deal"] + ["linear:create_issue"] * 4,
        ),
        (
            "Globex pilot → Won + заметка «пилот подписан» + CS: выдать доступы Globex, на меня",
            ["attio:create_note", "attio:update_deal", "linear:create_issue"],
        ),
        (
            "Ромашка подписала → Won; Ивану Петрову заметка «договор подписан 25.11»",
            ["attio:create_note", "attio:update_deal"],
        ),
    ],
)
async def test_each_request_of_a_shorthand_line_is_drafted(
    anna: Conversation, text: str, expected: list[str]
) -> None:
    r = await anna.say(text)
    assert sorted(drafted(r)) == expected, r["user_message"]


# ---- what is said, not asked --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Has Globex signed yet, what stage are they in?",
        "Bad news from Li Wei - Acme Logistics went with a competitor, price was the issue.",
        "Pull up ENG-106 for me",
    ],
)
async def test_news_a_question_or_a_look_up_drafts_nothing(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert drafted(r) == [], r["user_message"]


async def test_someone_wanting_it_done_by_a_date_does_not_close_it(anna: Conversation) -> None:
    r = await anna.say(
        "Initech wants the quarterly check-in done before the 10th. Give CS-15 to Oleg with a due date of December 9."
    )
    assert drafted(r) == ["linear:update_issue"]


async def test_a_recap_heading_is_no_call_to_make(anna: Conversation) -> None:
    r = await anna.say(
        "Recap of today's call with Ромашка: move the Ромашка deal to Negotiation, add a note 'asked for a 10% "
        "discount', and remind me to send the revised proposal on Monday."
    )
    assert sorted(drafted(r)) == ["attio:create_note", "attio:create_task", "attio:update_deal"]


# ---- words kept as they were said ----------------------------------------------------------------------------


async def test_please_inside_quoted_words_stays_and_saying_is_no_part_of_them(anna: Conversation) -> None:
    r = await anna.say(
        "ENG-101 shipped in 2.4.1 - mark it done and drop a comment saying 'fixed in 2.4.1, please retest'"
    )
    comment = next(i for i in intents(r) if i["op"] == "comment_issue")
    assert comment["body"] == "fixed in 2.4.1, please retest"


async def test_and_inside_a_company_name_stays_in_it(anna: Conversation) -> None:
    r = await anna.say("Добавь в табличку новую компанию Рога и Копыта, сайт roga-kopyta.ru")
    assert intents(r)[0]["name"] == "Рога и Копыта"


async def test_a_company_and_a_person_card_from_it_are_both_made(anna: Conversation) -> None:
    r = await anna.say(
        "заведи новую компанию Север Логистик, сайт sever-log.ru, и карточку человека Андрей Морозов "
        "a.morozov@sever-log.ru оттуда же"
    )
    assert sorted(drafted(r)) == ["attio:create_company", "attio:create_person"]


async def test_this_in_a_comment_after_a_change_and_its_reason_is_the_reason(anna: Conversation) -> None:
    r = await anna.say(
        "ENG-105 срок сдвинь на двадцатое декабря, Apple задерживает ревью, и напиши это в комментарии"
    )
    comment = next(i for i in intents(r) if i["op"] == "comment_issue")
    assert comment["body"] == "Apple задерживает ревью"


async def test_a_field_left_as_it_is_does_not_decline_the_change(anna: Conversation) -> None:
    r = await anna.say("Слушай, ENG-106 переназначь на Макса, Олег заболел, срок оставь как есть")
    assert drafted(r) == ["linear:update_issue"] and intents(r)[0]["assignee"] == "Max Weber"


async def test_put_to_someone_in_the_dative_assigns_the_issue(anna: Conversation) -> None:
    r = await anna.say("Задачу про экспорт в PDF, ENG-103, поставь Олегу, приоритет высокий")
    said = {k: v for i in intents(r) for k, v in i.items() if k in ("assignee", "priority")}
    assert said == {"assignee": "Oleg Ivanov", "priority": "high"}


# ---- where a task goes -----------------------------------------------------------------------------------


async def test_a_task_said_to_be_in_the_crm_is_an_attio_task(anna: Conversation) -> None:
    r = await anna.say(
        "задача для олега в crm подготовить коммерческое предложение для инитека к первому декабря"
    )
    (task,) = intents(r)
    assert task["op"] == "create_task" and task["assignee"] == "Oleg Ivanov"
    assert task["content"] == "подготовить коммерческое предложение для инитека"


async def test_an_issue_in_a_team_nobody_has_asks_which_team(anna: Conversation) -> None:
    r = await anna.say("create an issue in Marketing: refresh the pricing page")
    assert r["status"] == "needs_clarification" and "Marketing" in r["clarifying_question"]


async def test_pasted_items_then_one_issue_per_item_makes_each(anna: Conversation) -> None:
    r = await anna.say(
        "CI has been flaky all week, these keep failing:\n- test_import_large_csv\n- test_sso_redirect\n"
        "- test_pdf_export_unicode\n\nfile one ENG issue per test, label bug"
    )
    assert [i["title"] for i in intents(r)] == [
        "test_import_large_csv",
        "test_sso_redirect",
        "test_pdf_export_unicode",
    ]
    assert all(i["labels"] == ["bug"] for i in intents(r))
