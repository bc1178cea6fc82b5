"""What the sets IF–IK taught, one behaviour each, through the MCP client on the sandbox (now = Wed 2026-11-25
12:00 MSK; Anna asks; ENG-102 and ENG-105 are Max's, ENG-101, ENG-106 and CS-13 Oleg's, ENG-104, CS-12 and CS-14
Anna's; Romashka's deal is in Negotiation)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, ops, writes

pytestmark = pytest.mark.anyio


async def fresh(anna: Conversation, text: str) -> dict[str, Any]:
    """Said in a conversation of its own (no open question or draft from the test's other messages)."""
    return await Conversation(anna.client, conversation=text[:40]).say(text)


# ---- called off at the end: nothing is drafted --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "мувни альфу в won... стоп, нет, они еще не подписали. ничо пока не делай плиз",
        "Move Romashka to Lost. no no wrong chat, ignore pls",
        "удали контакт Jane Doe. отмена",
        "create issue for the CSV import timeout … ah wait no, Oleg told me it's fixed already. forget it",
        "Close ENG-101 — never mind",
    ],
)
async def test_a_request_called_off_at_its_end_drafts_nothing(anna: Conversation, text: str) -> None:
    r = await fresh(anna, text)
    assert r["status"] == "answered" and r["draft"] is None, r["user_message"]
    assert writes(r) == []


async def test_words_that_only_look_like_a_call_off_keep_the_request(anna: Conversation) -> None:
    r = await fresh(anna, "создай задачу: отмена подписки не работает")
    assert r["status"] == "draft_pending" and ops(r) == ["create_issue"]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("удали CS-15 и ENG-103... стоп, только CS-15, 103 еще нужен", ["archive_issue"]),
        (
            "ромашку верни в квалификацию и заметку к ним кинь что поменялся лпр а нет заметку не надо только сделку",
            ["update_deal"],
        ),
        (
            "Alfa-Leasing deal to Won, and close ENG-106 — ah no sorry, ENG-106 still open, leave it. only the deal",
            ["update_deal"],
        ),
    ],
)
async def test_a_part_taken_back_goes_and_the_rest_stays(
    anna: Conversation, text: str, kept: list[str]
) -> None:
    r = await fresh(anna, text)
    assert r["status"] == "draft_pending", r["user_message"]
    assert ops(r) == kept
    if kept == ["archive_issue"]:
        assert writes(r)[0]["issue"] == "CS-15"


# ---- words that are not a change -----------------------------------------------------------------------------------


async def test_a_thing_mislaid_is_no_deal_lost_and_the_field_asked_for_is_read(anna: Conversation) -> None:
    r = await fresh(anna, "need the email of Jane Doe from Globex, I lost it")
    assert r["status"] == "answered" and writes(r) == []
    assert "jane@globex.com" in r["user_message"]
    r = await fresh(anna, "we lost Globex")
    assert ops(r) == ["update_deal"] and writes(r)[0]["stage"] == "Lost"


async def test_a_question_said_without_its_mark_is_never_a_move(anna: Conversation) -> None:
    r = await fresh(anna, "а ромашку мы уже в выигранные перевели или ещё нет")
    assert r["status"] == "answered" and writes(r) == []


async def test_a_signing_to_come_moves_no_deal(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "Globex pilot вот-вот подпишут, заведи заранее онбординг по шаблону в линеаре, чтоб потом не искать",
    )
    assert ops(r) == ["apply_template"]


async def test_the_one_that_is_about_words_names_an_issue_and_a_pointer_alone_names_none(
    anna: Conversation,
) -> None:
    r = await fresh(anna, "close the one about PDF export")
    assert ops(r) == ["complete_issue"] and writes(r)[0]["issue"] == "ENG-103"
    r = await fresh(anna, "закрой ту")
    assert r["status"] == "needs_clarification" and writes(r) == []


# ---- a comment said beside another change --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ("ENG-104 мувни в ин ревью и откомменть что доки готовы, макс глянь плз", "доки готовы"),
        (
            "мувни CS-13 в ин прогресс, комментни: клиент прислал метаданные IdP",
            "клиент прислал метаданные IdP",
        ),
        ("eng-102: due dec 10 + comment 'design handoff slipped'", "design handoff slipped"),
    ],
)
async def test_a_comment_said_with_another_change_is_its_own_action(
    anna: Conversation, text: str, body: str
) -> None:
    r = await fresh(anna, text)
    assert sorted(ops(r)) == ["comment_issue", "update_issue"], r["user_message"]
    assert body in next(i["body"] for i in writes(r) if i["op"] == "comment_issue")


async def test_a_field_set_before_and_is_kept_with_what_follows(anna: Conversation) -> None:
    r = await fresh(anna, "ENG-101 due dec 10 and assign to Max")
    (update,) = writes(r)
    assert update["due"] == "2026-12-10" and update["assignee"] == "Max Weber"


async def test_a_comment_after_a_dash_is_its_words_as_said(anna: Conversation) -> None:
    r = await fresh(anna, "CS-14: comment — Jane confirmed the requirements list, see her email from 24.11")
    (comment,) = writes(r)
    assert comment["body"] == "Jane confirmed the requirements list, see her email from 24.11"


async def test_a_comments_words_keep_their_polite_form(anna: Conversation) -> None:
    r = await fresh(anna, "в CS-12 оставь коммент: я в отпуске до 11.12, по клиентским вопросам пишите Олегу")
    assert "пишите Олегу" in writes(r)[0]["body"]


# ---- the calendar, a new deal, teams, whose ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "google meet with John Smith next tuesday 11am 1h about the license renewal",
        "Friday 16:00 half hour call with Li Wei about pilot feedback",
    ],
)
async def test_a_call_with_a_time_and_a_length_is_an_event(anna: Conversation, text: str) -> None:
    r = await fresh(anna, text)
    assert ops(r) == ["create_event"], r["user_message"]


async def test_a_reminder_to_call_is_still_a_task(anna: Conversation) -> None:
    r = await fresh(anna, "remind me to call Li Wei on Friday at 16:00")
    assert ops(r) == ["create_task"]


async def test_a_deal_of_a_sum_with_a_company_said_without_a_verb_is_a_new_deal(anna: Conversation) -> None:
    r = await fresh(anna, "сд на 60к с acme corp, расширение лицензии, стадия кп")
    (deal,) = writes(r)
    assert deal["op"] == "create_deal" and deal["amount"] == 60000 and deal["stage"] == "Proposal"
    r = await fresh(anna, "сделку на 60к с Globex перенеси в кп")
    assert ops(r) == ["update_deal"]  # a verb of change: the deal there is


@pytest.mark.parametrize(
    ("text", "team"),
    [
        (
            "задачу в саксесс подготовить отчет по использованию для инитека к первому декабря на меня",
            "Customer Success",
        ),
        ("закинь тикет в эндж: починить логин", "Engineering"),
        ("задача дизайнерам: новые иконки", "Design"),
    ],
)
async def test_a_teams_english_name_said_in_russian_is_that_team(
    anna: Conversation, text: str, team: str
) -> None:
    r = await fresh(anna, text)
    assert writes(r)[0]["team"] == team


async def test_an_issue_with_no_title_is_asked_for_one(anna: Conversation) -> None:
    for text in ("закинь тикет в эндж", "uh remind me tomorrow ok"):
        r = await fresh(anna, text)
        assert r["status"] == "needs_clarification" and writes(r) == [], text


async def test_name_do_it_is_the_assignee_and_till_goes_with_the_date(anna: Conversation) -> None:
    r = await fresh(anna, "issue for DES: new icons for onboarding screens, Max do it, till 4 Dec")
    (issue,) = writes(r)
    assert issue["title"] == "new icons for onboarding screens"
    assert issue["assignee"] == "Max Weber" and issue["due"] == "2026-12-04"


async def test_everything_of_two_people_to_me_is_both_of_theirs_to_me(anna: Conversation) -> None:
    r = await fresh(anna, "все тикеты олега и макса перекинь на меня, они на конфе до пятницы")
    found = writes(r)
    assert {i["filters"]["assignee"] for i in found} == {"Oleg Ivanov", "Max Weber"}
    assert {i["changes"]["assignee"] for i in found} == {"Anna Kuznetsova"}
    r = await fresh(anna, "Reassign everything mine and Oleg's to Max, we're both out next week")
    assert {i["filters"]["assignee"] for i in writes(r)} == {"me", "Oleg Ivanov"}


async def test_an_item_that_stays_with_someone_but_gets_a_date_gets_the_date(anna: Conversation) -> None:
    r = await fresh(anna, "CS-13 stays with Oleg but set due Dec 10")
    assert writes(r) == [{"op": "update_issue", "issue": "CS-13", "due": "2026-12-10"}]


async def test_a_crm_note_said_after_an_issue_is_its_own(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "Create Linear issue for CS team: prepare demo data for Umbrella Health, due Monday. "
        "And CRM note on Umbrella: demo planned on Monday",
    )
    assert ops(r) == ["create_issue", "create_note"]


async def test_a_note_goes_where_its_own_sentence_says_and_name_take_it_assigns(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "today call with Jane was good. note on Globex pilot: they want SSO already in pilot. also linear issue "
        "for ENG: SSO support for Globex pilot, Oleg take it. and meeting with Jane next Tuesday 11:00 half hour",
    )
    note, issue, event = writes(r)
    assert note["op"] == "create_note" and note["record"] == "Globex pilot"
    assert issue["assignee"] == "Oleg Ivanov" and issue["title"] == "SSO support for Globex pilot"
    assert event["op"] == "create_event" and event["duration_minutes"] == 30
