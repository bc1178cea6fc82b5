"""What blind set M taught (a sales lead and an engineering manager dictating to the Telegram bot: fillers,
self-corrections, ids and sums said as words, misheard names), and what the older sets still showed, one
behaviour each, through the MCP client on the sandbox (now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in i.items() if k not in ("confidence", "span")} for i in reply["plan"]["intents"]]


def writes(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in reply["plan"]["actions"] if not a["read_only"]]


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("change the due date on CS-14 to friday no sorry monday", "due", "2026-11-30"),
        ("создай задачу в ENG обновить сертификат назначь на Олега нет на Макса", "assignee", "Max Weber"),
        (
            "create an issue in CS: renewal deck for Umbrella Health due tuesday no wait thursday",
            "due",
            "2026-11-26",
        ),
        ("set ENG-104 due date to december tenth no actually the eleventh", "due", "2026-12-11"),
        ("assign ENG-103 to Oleg, I mean Max", "assignee", "Max Weber"),
        ("закрой ENG-101, нет, ENG-102", "issue", "ENG-102"),
    ],
)
async def test_a_value_corrected_mid_sentence_is_the_one_said_last(
    anna: Conversation, text: str, field: str, value: str
) -> None:
    r = await anna.say(text)
    assert r["status"] == "draft_pending", r["user_message"]
    assert intents(r)[0][field].startswith(value) if field == "due" else intents(r)[0][field] == value


async def test_a_no_that_corrects_nothing_changes_nothing(anna: Conversation) -> None:
    r = await anna.say("у Олега нет задач на пятницу?")
    assert writes(r) == []
    r = await anna.say("create an issue in DES: fix the pricing page no wait not pricing the settings page")
    assert r["status"] == "draft_pending" and "settings page" in intents(r)[0]["title"].lower()


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("create a deal Initech expansion twenty two and a half k usd stage proposal", 22500),
        ("new deal for acme logistics phase two forty five k", 45000),
        (
            "заведи сделку с Альфа-Лизингом на полтора миллиона рублей нет на миллион двести стадия лид",
            1200000,
        ),
        ("заведи сделку с Ромашкой на два с половиной миллиона рублей", 2500000),
    ],
)
async def test_a_sum_said_in_words_is_the_deals_amount_and_not_its_name(
    anna: Conversation, text: str, amount: int
) -> None:
    r = await anna.say(text)
    (deal,) = intents(r)
    assert deal["amount"] == amount
    assert not any(w in deal["name"].lower() for w in ("twenty", "forty", "миллион", "k usd"))


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("Ticket for Design: new empty states for the dashboard, due first Monday of December", "2026-12-07"),
        ("Заведи в DES задачу: иконки для тёмной темы, к первому понедельнику декабря", "2026-12-07"),
        ("Create a project 'Billing Revamp' for ENG, target end of January", "2027-01-31"),
        ("Создай задачу в CS: подготовить QBR для Initech, срок — конец месяца", "2026-11-30"),
        ("todo in ENG: renew the wildcard cert, EOD", "2026-11-25"),
        ("CS-14 due date → Thursday next week", "2026-12-03"),
        ("create a crm task for oleg to chase the acme logistics contract by december third", "2026-12-03"),
        ("new linear project data migration team design target january fifteenth", "2027-01-15"),
        (
            "будь добр создай в кастомер саксесс задачу подготовить презентацию к первому декабря",
            "2026-12-01",
        ),
    ],
)
async def test_a_date_said_as_people_say_it_lands_in_the_draft(
    anna: Conversation, text: str, due: str
) -> None:
    r = await anna.say(text)
    assert r["status"] == "draft_pending", r["user_message"]
    assert due in str(writes(r)[0]["args"]), writes(r)[0]["args"]


async def test_eod_before_a_day_is_that_days_end(anna: Conversation) -> None:
    r = await anna.say("Remind me to send Jane Doe the NDA by EOD Friday")
    assert "2026-11-27" in str(writes(r)[0]["args"])


@pytest.mark.parametrize(
    ("text", "issue", "op"),
    [
        ("назначь е эн джи сто три на Макса", "ENG-103", "update_issue"),
        ("короче си эс четырнадцать сделали отметь как выполненную", "CS-14", "complete_issue"),
        ("переведи си эс пятнадцать в ин прогресс", "CS-15", "update_issue"),
        ("close c s fifteen", "CS-15", "complete_issue"),
    ],
)
async def test_an_issue_id_spelled_letter_by_letter_is_that_issue(
    anna: Conversation, text: str, issue: str, op: str
) -> None:
    r = await anna.say(text)
    assert [(i["op"], i["issue"]) for i in intents(r)] == [(op, issue)]


async def test_relayed_instructions_are_the_request_and_reported_news_is_offered(anna: Conversation) -> None:
    r = await anna.say("Max says: put ENG-104 in review")
    assert r["status"] == "draft_pending" and intents(r)[0]["op"] == "update_issue"
    r = await anna.say("Олег сказал: закрой ENG-101")
    assert r["status"] == "draft_pending" and intents(r)[0]["op"] == "complete_issue"
    r = await anna.say("I was told to set CS-15 to In Progress, please do it")
    assert r["status"] == "draft_pending", r["user_message"]
    r = await anna.say(
        "Max says: hand the Acme Logistics pilot over to Anna and set up a 30-minute call with Oleg tomorrow at 17:00"
    )
    assert [i["op"] for i in intents(r)] == ["update_deal", "create_event"]
    r = await anna.say("Oleg says eng-106 is done")  # news, not an instruction: offered, not drafted
    assert r["status"] == "needs_clarification" and r["draft"] is None
    r = await anna.say("Acme Corp wants to move faster. Push the annual license to Negotiation")
    assert [i["op"] for i in intents(r)] == ["update_deal"]  # a company "wants to" is no relay


async def test_a_message_sent_elsewhere_is_answered_honestly_and_a_task_to_send_it_is_offered(
    anna: Conversation,
) -> None:
    for text in ("post in the team slack channel that ENG-106 is done", "отправь письмо Марии с КП"):
        r = await anna.say(text)
        assert r["status"] == "needs_clarification" and r["draft"] is None and writes(r) == []
        assert "Attio" in r["user_message"] and len(r["choices"]) == 2
    r = await anna.say("Email Jane the pilot requirements doc.")
    assert r["status"] == "needs_clarification" and writes(r) == []
    taken = await anna.call("pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value="task")
    assert taken["status"] == "draft_pending", (
        taken
    )  # the one thing that can be done instead: one's own to-do
    assert [a["operation"] for a in writes(taken)] == ["create_task"]
    r = await anna.say("скинь в слак олегу что демо переносится")
    declined = await anna.call("pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value="no")
    assert declined["status"] == "safe_fail" and declined["draft"] is None
    r = await anna.say("remind me to email Jane the deck tomorrow")  # a task to send it is fine
    assert r["status"] == "draft_pending"


async def test_should_i_asks_and_leave_it_writes_no_note(anna: Conversation) -> None:
    r = await anna.say("should i close ENG-101 or wait for QA")
    assert r["draft"] is None and writes(r) == []
    r = await anna.say("Is the Globex pilot in Won yet? if not, leave it, just checking")
    assert r["draft"] is None and writes(r) == []


async def test_a_team_said_by_what_people_call_it_takes_the_task_to_linear(anna: Conversation) -> None:
    r = await anna.say("создай в кастомер саксесс задачу подготовить презентацию для ромашки")
    assert [(i["op"], i.get("team")) for i in intents(r)] == [("create_issue", "Customer Success")]
    r = await anna.say("сделку с инитеком передай Олегу и создай в линейре задачу подготовить отчёт")
    assert [i["op"] for i in intents(r)] == ["update_deal", "create_issue"]


async def test_old_misses_a_taker_a_label_by_description_and_a_handover(anna: Conversation) -> None:
    r = await anna.say("Oleg takes ENG-103")
    assert [(i["op"], i.get("assignee")) for i in intents(r)] == [("update_issue", "Oleg Ivanov")]
    r = await anna.say("повесь метку feature на задачу про экспорт в PDF")
    assert [(i["op"], i["issue"], i.get("labels_add")) for i in intents(r)] == [
        ("update_issue", "ENG-103", ["feature"])
    ]
    r = await anna.say("Hand the Acme Logistics pilot over to Max, he knows Li from before")
    assert [(i["op"], i.get("owner")) for i in intents(r)] == [("update_deal", "Max Weber")]
    r = await anna.say("archive CS-15 and create a CS issue 'Initech QBR' assigned to Oleg")
    assert [i["op"] for i in intents(r)] == ["archive_issue", "create_issue"]  # not CS-15 reassigned


async def test_a_two_letter_word_names_nobody_of_a_longer_name(anna: Conversation) -> None:
    r = await anna.say("what do we have with Wei")
    assert r["status"] == "answered"  # "Wei" is Li Wei
    r = await anna.say("Сделку по Acme Corp, прошедшую квалификацию, прошу перевести в стадию КП.")
    assert intents(r)[0].get("stage") == "Proposal"  # «КП.» is still the two-letter alias


async def test_timed_events_without_a_verb_and_two_ranges_on_one_day(anna: Conversation) -> None:
    r = await anna.say("tmrw 3pm, 45 min, phone screen w/ the designer candidate")
    (event,) = intents(r)
    assert (event["op"], event["start"], event["duration_minutes"]) == (
        "create_event",
        "2026-11-26T15:00:00+03:00",
        45,
    )
    r = await anna.say("Two interviews tmrw: 10-11 and 14:00-14:45")
    assert [(i["start"][11:16], i["duration_minutes"], i["title"]) for i in intents(r)] == [
        ("10:00", 60, "Interview"),
        ("14:00", 45, "Interview"),
    ]
    r = await anna.say("Interview with a backend candidate next Tue 10-11")
    assert intents(r)[0]["start"] == "2026-12-01T10:00:00+03:00"


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("до пятнадцатого декабря", "2026-12-15"),
        ("к девятнадцатому января", "2027-01-19"),
        ("к первому декабря", "2026-12-01"),
    ],
)
def test_a_russian_ordinal_day_is_read_by_its_whole_stem(said: str, day: str) -> None:
    from datetime import datetime

    from planner.dates import extract_moment

    moment = extract_moment(
        said, datetime.fromisoformat("2026-11-25T12:00:00+03:00")
    )  # «пятнадцат…», not «пят…»
    assert moment.day is not None and moment.day.isoformat() == day
