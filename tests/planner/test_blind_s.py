"""What blind set S taught (an engineering lead triaging in Linear, a sales engineer between both systems),
one behaviour each, through the MCP client on the sandbox (now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in i.items() if k not in ("confidence", "span")} for i in reply["plan"]["intents"]]


async def test_close_with_a_comment_is_both(anna: Conversation) -> None:
    r = await anna.say("Закрой eng-103 с комментарием «починили в 2.3.1»")
    assert intents(r) == [
        {"op": "complete_issue", "issue": "ENG-103"},
        {"op": "comment_issue", "issue": "ENG-103", "body": "починили в 2.3.1"},
    ]


async def test_done_before_issues_says_which_ones_never_closes_the_open_ones(anna: Conversation) -> None:
    r = await anna.say("Archive all done issues in ENG")
    assert (intents(r)[0]["filters"], intents(r)[0]["changes"]) == (
        {"team": "Engineering", "state": "Done"},
        {"archive": True},
    )
    r = await anna.say("close all done issues")
    assert intents(r)[0]["filters"] == {"state": "Done"} and r["draft"] is None  # nothing to close


async def test_a_new_issue_for_someone_with_no_title_is_asked(anna: Conversation) -> None:
    r = await anna.say("Заведи задачу на Олега")
    assert r["status"] == "needs_clarification" and "Как назвать задачу" in r["clarifying_question"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("bump ENG-102 to P1", {"op": "update_issue", "issue": "ENG-102", "priority": "urgent"}),
        (
            "make ENG-104 a sub-issue of ENG-102",
            {"op": "update_issue", "issue": "ENG-104", "parent": "ENG-102"},
        ),
        (
            "сделай ENG-104 подзадачей ENG-102",
            {"op": "update_issue", "issue": "ENG-104", "parent": "ENG-102"},
        ),
        ("Отправь ENG-102 в бэклог", {"op": "update_issue", "issue": "ENG-102", "state": "Backlog"}),
        ("send eng-105 back to Todo", {"op": "update_issue", "issue": "ENG-105", "state": "Todo"}),
        ("закинь ENG-104 в in progress", {"op": "update_issue", "issue": "ENG-104", "state": "In Progress"}),
    ],
)
async def test_triage_words_change_one_issue(anna: Conversation, text: str, expected: dict[str, Any]) -> None:
    r = await anna.say(text)
    assert r["status"] == "draft_pending" and intents(r) == [expected]


@pytest.mark.parametrize(
    ("text", "filters", "changes"),
    [
        (
            "All unassigned bugs in ENG → Max",
            {"team": "Engineering", "label": "bug", "assignee": "none"},
            {"assignee": "Max Weber"},
        ),
        (
            "Переназначь все задачи Олега на Макса, он в отпуске",
            {"assignee": "Oleg Ivanov"},
            {"assignee": "Max Weber"},
        ),
        (
            "Перенеси все открытые задачи ENG в проект Q1 Launch",
            {"team": "Engineering", "state": "open"},
            {"project": "Q1 Launch"},
        ),
        (
            "Макс переходит на другой проект — переведи все его задачи в бэклог",
            {"assignee": "Max Weber"},
            {"state": "бэклог"},
        ),
    ],
)
async def test_triage_in_bulk(
    anna: Conversation, text: str, filters: dict[str, str], changes: dict[str, str]
) -> None:
    r = await anna.say(text)
    assert r["status"] in ("draft_pending", "needs_bulk_confirmation")
    assert [(i["op"], i["filters"], i["changes"]) for i in intents(r)] == [
        ("update_matching", filters, changes)
    ]


async def test_a_function_word_is_no_name(anna: Conversation) -> None:
    r = await anna.say("What does Max have in review?")  # "does" is no Doe
    assert intents(r) == [
        {"op": "find", "object": "issues", "filters": {"state": "In Review", "assignee": "Max Weber"}}
    ]
    r = await anna.say("Show me everything labeled customer-request")
    assert intents(r)[0]["filters"] == {"label": "customer-request"}


@pytest.mark.parametrize(
    ("text", "issue"),
    [
        ("when is the api key thing due", "ENG-106"),
        ("что там с push notifications", "ENG-105"),
        ("What's the status of the SSO setup for Romashka?", "CS-13"),
        ("Is anyone working on the PDF export crash?", "ENG-103"),
        ("Что по онбордингу Acme Corp в Linear?", "CS-12"),
    ],
)
async def test_a_question_about_one_issue_said_by_its_words(
    anna: Conversation, text: str, issue: str
) -> None:
    r = await anna.say(text)
    assert r["status"] == "answered" and intents(r)[0]["filters"] == {"record": issue}


async def test_a_question_about_a_deal_stays_about_the_deal(anna: Conversation) -> None:
    r = await anna.say("What's the status of the Globex deal?")
    assert intents(r)[0]["object"] == "deals"


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("What's the total of the deals I own?", "80 000 USD"),
        ("Сколько сделок ведётся в рублях и на какую общую сумму?", "2 000 000 RUB"),
        ("Общая сумма сделок, закреплённых за мной, — прошу дать разбивку по валютам.", "80 000 USD"),
        ("What's Anna's open pipeline, by currency?", "80 000 USD"),
    ],
)
async def test_totals_of_deals_as_asked(anna: Conversation, text: str, total: str) -> None:
    r = await anna.say(text)
    assert total in r["user_message"].replace("\\u00a0", " ").replace("\u00a0", " ")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Assign ENG-103 to Max and drop it to high priority, he's got bandwidth this sprint",
            [
                {"op": "update_issue", "issue": "ENG-103", "assignee": "Max Weber"},
                {"op": "update_issue", "issue": "ENG-103", "priority": "high"},
            ],
        ),
        (
            "Макс со следующей недели в отпуске: DES-7 передай Олегу, а ENG-105 — мне",
            [
                {"op": "update_issue", "issue": "DES-7", "assignee": "Oleg Ivanov"},
                {"op": "update_issue", "issue": "ENG-105", "assignee": "Anna Kuznetsova"},
            ],
        ),
        (
            "Globex pilot is WON!! mark it and kick off their onboarding",
            [
                {"op": "update_deal", "deal": "Globex pilot", "stage": "Won"},
                {"op": "apply_template", "template": "onboarding", "deal": "Globex pilot"},
            ],
        ),
        (
            "Ромашка: заметка в сделку «готовы к пилоту» и встреча с ними в четверг в 12:00 на 45 минут",
            [
                {"op": "create_note", "record": "Ромашка — внедрение", "body": "готовы к пилоту"},
                {
                    "op": "create_event",
                    "start": "2026-11-26T12:00:00+03:00",
                    "duration_minutes": 45,
                    "title": "Встреча с ними",
                    "attendees": ["Ivan Petrov"],
                },
            ],
        ),
    ],
)
async def test_set_t_each_request_as_said(
    anna: Conversation, text: str, expected: list[dict[str, Any]]
) -> None:
    r = await anna.say(text)
    assert r["status"] == "draft_pending"
    got = intents(r)
    assert [i["op"] for i in got] == [e["op"] for e in expected]
    for g, e in zip(got, expected, strict=True):
        assert {k: g.get(k) for k in e if k not in ("title", "attendees")} == {
            k: v for k, v in e.items() if k not in ("title", "attendees")
        }


async def test_a_note_logged_on_a_deal_and_an_owner_said_after(anna: Conversation) -> None:
    r = await anna.say(
        "Add Priya Patel, priya@initech.io, procurement manager at Initech, and log on the Initech renewal deal "
        "that she's the new decision maker"
    )
    assert [i["op"] for i in intents(r)] == ["create_person", "create_note"]
    r = await anna.say(
        "Open a deal called Initech expansion for Initech, $22,500, stage Qualification, Max owns it"
    )
    assert intents(r)[0]["owner"] == "Max Weber"


async def test_quoted_words_are_someones_not_a_request(anna: Conversation) -> None:
    r = await anna.say(
        "From Jane: 'Can we move Thursday's sync to 3pm? 30 minutes is enough.' — add that as a note on Jane "
        "and book the sync tomorrow at 3pm for 30 min"
    )
    assert [i["op"] for i in intents(r)] == ["create_note", "create_event"]
    assert intents(r)[0]["body"].startswith("Can we move Thursday's sync")


async def test_that_logged_on_a_record_is_what_was_said_before(anna: Conversation) -> None:
    r = await anna.say(
        "just got off with Jane — she wants the pricing deck by Monday. log that on her record and remind me "
        "Friday to send it over"
    )
    note, task = intents(r)
    assert (note["op"], note["record"], note["body"]) == (
        "create_note",
        "Jane Doe",
        "she wants the pricing deck by Monday.",
    )
    assert (task["op"], task["record"], task["deadline"][:10]) == ("create_task", "Jane Doe", "2026-11-27")
    r = await anna.say(
        "Созвонилась с Иваном Петровым: SSO им нужен до 10 декабря. Запиши это ему в карточку и поставь CS-13 срок "
        "10 декабря"
    )
    assert [(i["op"], i.get("body")) for i in intents(r)] == [
        ("create_note", "SSO им нужен до 10 декабря"),
        ("update_issue", None),
    ]  # «созвонилась» reports a call had: no task


@pytest.mark.parametrize(
    ("text", "filters"),
    [
        ("что у нас просрочено?", {"due_before": "2026-11-24"}),
        ("Что горит на этой неделе?", {"due_after": "2026-11-23", "due_before": "2026-11-29"}),
        ("Есть ли задачи без исполнителя?", {"assignee": "none"}),  # «ли» is no Li Wei
        ("Что у Макса на ревью?", {"state": "In Review", "assignee": "Max Weber"}),
    ],
)
async def test_weekly_review_questions(anna: Conversation, text: str, filters: dict[str, str]) -> None:
    r = await anna.say(text)
    assert (
        r["status"] == "answered"
        and intents(r)[0]["object"] == "issues"
        and intents(r)[0]["filters"] == filters
    )


async def test_money_in_a_stage_is_its_deals_summed(anna: Conversation) -> None:
    r = await anna.say("Сколько денег в стадии КП?")
    assert intents(r)[0]["filters"] == {"stage": "Proposal"} and "1 200 000" in r["user_message"].replace(
        "\u00a0", " "
    )


async def test_his_issues_after_he_is_named_are_his(anna: Conversation) -> None:
    r = await anna.say("Макс в отпуске — переведи его задачи в бэклог")
    assert intents(r)[0]["filters"] == {"assignee": "Max Weber"}


@pytest.mark.parametrize(
    ("text", "ops"),
    [
        (
            "Log a call with Maria Sokolova: CFO signed off on the budget, she wants the contract by Dec 10",
            ["create_note"],
        ),
        (
            "John wants a 20-minute call tomorrow at 11 — book it, and add a note to his record that he's worried "
            "about onboarding timelines",
            ["create_event", "create_note"],
        ),
        (
            "Созвон с Acme Corp в понедельник в 16:00 на 30 минут, и в CS-12 оставь комментарий, что созвон назначен",
            ["create_event", "comment_issue"],
        ),
        (
            "Log this: Li Wei says the pilot is on hold until January. And move the Acme Logistics pilot back to Lead",
            ["create_note", "update_deal"],
        ),
    ],
)
async def test_a_call_logged_and_a_note_or_comment_beside_a_meeting(
    anna: Conversation, text: str, ops: list[str]
) -> None:
    r = await anna.say(text)
    assert r["status"] == "draft_pending" and [i["op"] for i in intents(r)] == ops


async def test_set_u_safety(anna: Conversation) -> None:
    r = await anna.say("set due date Dec 10 on every open issue that doesn't have one")
    # "one" is a due date: the open issues without one, never all 11 issues
    assert intents(r)[0]["filters"] == {"state": "open", "due": "none"}
    r = await anna.say("add the onboarding label to every CS issue that doesn't have it yet")
    assert intents(r)[0]["changes"] == {"labels_add": ["onboarding"]}  # "doesn't have it": the change itself
    r = await anna.say("ну это создай задачу короче")
    assert r["status"] == "needs_clarification" and "Как назвать задачу" in r["clarifying_question"]
    r = await anna.say("Create the renewal tasks for Initech and assign them to Max")
    assert "update_deal" not in [i["op"] for i in intents(r)]  # "them" are the tasks, not the deal's owner
    r = await anna.say("закрой задачу по кп для ромашки")
    assert r["draft"] is None  # «кп» is in no issue's title: no issue of Romashka's is closed
    r = await anna.say("Какие команды есть в Linear?")
    assert all(key in r["user_message"] for key in ("(ENG)", "(CS)", "(DES)"))


async def test_a_meeting_booked_for_a_colleague_invites_them(anna: Conversation) -> None:
    r = await anna.say("Запланируй для Олега встречу с Иваном Сидоровым в четверг в 15:00 на час")
    assert sorted(intents(r)[0]["attendees"]) == ["Ivan Sidorov", "Oleg Ivanov"]  # «Иваном» is no Oleg Ivanov
