"""Every example phrase of seed 000 and every decision rule of seeds 001 and 004, verbatim,
through the MCP `plan`/`pick` tools (in memory, on the sandbox, now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import WORKSPACE, Conversation
from mcp import Client

from server.service import Service

pytestmark = pytest.mark.anyio

ENG = next(t for t in WORKSPACE["linear"]["teams"] if t["key"] == "ENG")
TRIAGE = next(s["id"] for s in ENG["states"] if s["name"] == "Triage")


def issue_input(reply: dict[str, Any]) -> dict[str, Any]:
    (action,) = [a for a in reply["plan"]["actions"] if not a["read_only"]]
    assert action["tool_slug"] == "LINEAR_RUN_QUERY_OR_MUTATION"
    return dict(action["args"]["variables"]["input"])


def event_args(reply: dict[str, Any]) -> dict[str, Any]:
    (action,) = reply["plan"]["actions"]
    assert action["tool_slug"] == "GOOGLECALENDAR_CREATE_EVENT"
    return dict(action["args"])


# ---- seed 000: task_create -------------------------------------------------------------------


async def test_seed000_create_task_buy_milk_goes_to_the_inbox(anna: Conversation) -> None:
    r = await anna.say("Создай задачу купить молоко")
    assert r["status"] == "draft_pending" and r["clarifying_question"] is None
    i = issue_input(r)
    assert (i["title"], i["teamId"], i["stateId"]) == ("купить молоко", ENG["id"], TRIAGE)
    assert "dueDate" not in i


async def test_seed000_task_with_tomorrow_gets_a_date_and_no_inbox(anna: Conversation) -> None:
    r = await anna.say("Добавь задачу позвонить маме завтра")
    i = issue_input(r)
    assert (i["title"], i["dueDate"]) == ("позвонить маме", "2026-11-26")
    assert "stateId" not in i


async def test_seed000_create_task_without_a_title_asks_for_it(anna: Conversation) -> None:
    r = await anna.say("Создай задачу")
    assert r["ok"] is False and r["clarifying_question"] == "Как назвать задачу?"
    assert r["plan"]["actions"] == []
    r = await anna.call(
        "pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], text="купить хлеб"
    )
    assert r["status"] == "draft_pending" and issue_input(r)["title"] == "купить хлеб"


async def test_seed000_task_with_colon_and_friday(anna: Conversation) -> None:
    i = issue_input(await anna.say("Задача: подготовить отчет, в пятницу"))
    assert (i["title"], i["dueDate"]) == ("подготовить отчет", "2026-11-27")


# ---- seed 000: timeblock_create ----------------------------------------------------------------


async def test_seed000_block_tomorrow_at_14_for_60_minutes(anna: Conversation) -> None:
    r = await anna.say("Поставь блок на завтра в 14:00 на 60 минут")
    assert r["status"] == "draft_pending" and r["plan"]["domain"] == "calendar"
    a = event_args(r)
    assert a["start_datetime"] == "2026-11-26T14:00:00+03:00"
    assert (a["event_duration_hour"], a["event_duration_minutes"]) == (1, 0)


@pytest.mark.parametrize(
    ("phrase", "question"),
    [
        ("Поставь блок", "На сколько минут поставить блок?"),
        ("Поставь блок на 60", "На какое время поставить блок?"),
        ("Поставь блок завтра в 9", "На сколько минут поставить блок?"),
        ("Поставь блок на 60, время потом", "На какое время поставить блок?"),
    ],
)
async def test_seed000_block_asks_one_question_in_the_seed_precedence(
    anna: Conversation, service: Service, phrase: str, question: str
) -> None:
    r = await anna.say(phrase)
    assert r["ok"] is False and r["status"] == "needs_clarification"
    assert r["clarifying_question"] == question
    assert r["plan"]["actions"] == [] and r["draft"] is None
    assert len(r["plan"]["needs_clarification"]) == 1


async def test_seed000_block_tomorrow_at_9_then_duration_keeps_the_time(anna: Conversation) -> None:
    r = await anna.say("Поставь блок завтра в 9")
    r = await anna.call("pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], text="45 минут")
    assert r["status"] == "draft_pending"
    a = event_args(r)
    assert a["start_datetime"] == "2026-11-26T09:00:00+03:00" and a["event_duration_minutes"] == 45


@pytest.mark.parametrize("word", ["Встреча", "Собрание", "Созвон"])
async def test_seed000_meeting_words_map_to_a_timeblock(anna: Conversation, word: str) -> None:
    r = await anna.say(f"{word} с Globex в четверг в 11:00 на полчаса")
    assert r["plan"]["domain"] == "calendar"
    assert event_args(r)["start_datetime"] == "2026-11-26T11:00:00+03:00"


async def test_seed000_an_english_appointment_asks_for_minutes_in_english(anna: Conversation) -> None:
    r = await anna.say("Book an appointment with Jane tomorrow at 4pm")
    assert r["plan"]["domain"] == "calendar"
    assert r["clarifying_question"] == "How many minutes should the block last?"


async def test_seed000_create_event_is_normalised_to_a_timeblock(anna: Conversation) -> None:
    cmd = {
        "intent": "create_event",
        "confidence": 0.95,
        "entities": {"title": "Созвон", "start_at": "2026-11-26T10:00:00+03:00", "duration_minutes": 30},
    }
    r = await anna.call("plan", command=cmd)
    assert r["status"] == "draft_pending" and event_args(r)["start_datetime"] == "2026-11-26T10:00:00+03:00"


async def test_seed000_empty_strings_are_null_and_the_block_is_never_inboxed(anna: Conversation) -> None:
    cmd = {
        "intent": "timeblock_create",
        "confidence": 0.9,
        "entities": {"start_at": "  ", "duration_minutes": 30},
    }
    r = await anna.call("plan", command=cmd)
    assert r["clarifying_question"] == "На какое время поставить блок?" and r["plan"]["actions"] == []


async def test_seed000_end_at_derives_the_duration(anna: Conversation) -> None:
    cmd = {
        "intent": "timeblock_create",
        "confidence": 0.9,
        "entities": {"start_at": "2026-02-26T10:00:00+03:00", "end_at": "2026-02-26T11:00:00+03:00"},
    }
    a = event_args(await anna.call("plan", command=cmd))
    assert (a["start_datetime"], a["event_duration_hour"]) == ("2026-02-26T10:00:00+03:00", 1)


# ---- seed 001: thresholds and candidates -------------------------------------------------------


@pytest.mark.parametrize(
    "cmd",
    [
        {"intent": "task_create", "confidence": 0.39, "entities": {"title": "купить молоко"}},
        {"intent": "task_create", "confidence": 0.99, "rejected": True, "entities": {"title": "x"}},
    ],
)
async def test_seed001_low_confidence_or_rejected_is_a_safe_fail(
    anna: Conversation, service: Service, cmd: dict[str, Any]
) -> None:
    r = await anna.call("plan", command=cmd)
    assert (r["ok"], r["status"], r["user_message"]) == (
        False,
        "safe_fail",
        "Не могу выполнить. Уточните запрос.",
    )
    assert r["draft"] is None


@pytest.mark.parametrize("confidence", [0.40, 0.6, 0.749])
async def test_seed001_middle_confidence_restates_and_asks(anna: Conversation, confidence: float) -> None:
    cmd = {"intent": "task_create", "confidence": confidence, "entities": {"title": "купить молоко"}}
    r = await anna.call("plan", command=cmd)
    assert r["status"] == "needs_clarification" and "купить молоко" in r["clarifying_question"]
    r = await anna.call("pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value="yes")
    assert r["status"] == "draft_pending" and issue_input(r)["title"] == "купить молоко"


async def test_seed001_confident_command_checks_required_fields(anna: Conversation) -> None:
    r = await anna.call(
        "plan", command={"intent": "task_create", "confidence": 0.75, "entities": {"title": ""}}
    )
    assert r["clarifying_question"] == "Как назвать задачу?"


async def test_seed001_candidates_without_chosen_id_always_clarify(anna: Conversation) -> None:
    cmd = {
        "intent": "task_create",
        "confidence": 0.95,
        "entities": {"title": "обновить договор"},
        "task_ref": {
            "query": "договор",
            "candidates": [{"id": "a1", "name": "Договор Acme"}, {"id": "b2", "name": "Договор Globex"}],
            "chosen_id": None,
        },
    }
    r = await anna.call("plan", command=cmd)
    assert r["status"] == "needs_clarification"
    assert [c["value"] for c in r["choices"]] == ["a1", "b2"]
    assert "ambiguous" in {k["kind"] for k in r["plan"]["risks"]}


async def test_seed002_unknown_fields_are_ignored_and_unknown_intents_rejected(anna: Conversation) -> None:
    cmd = {
        "intent": "task_create",
        "confidence": 0.9,
        "trace_id": "t",
        "entities": {"title": "x1", "colour": "red"},
    }
    r = await anna.call("plan", command=cmd)
    assert r["status"] == "draft_pending" and "colour" not in issue_input(r)
    r = await anna.call("plan", command={"intent": "order_pizza", "confidence": 0.99, "entities": {}})
    assert r["ok"] is False and r["status"] == "invalid" and r["draft"] is None  # DESIGN §5a: named
    assert "order_pizza" in r["user_message"]


# ---- seed 004: decision rules ----------------------------------------------------------------


async def test_seed004_rule1_yes_confirms_the_pending_draft_and_execute_runs_it(
    anna: Conversation, service: Service
) -> None:
    d = (await anna.say("Удали ENG-103"))["draft"]["id"]
    r = await anna.say("да")
    assert r["status"] == "confirmed" and service.backend.write_calls == []  # type: ignore[attr-defined]
    assert (await anna.call("execute_draft", draft_id=d))["status"] == "executed"
    assert [slug for slug, _ in service.backend.write_calls] == ["LINEAR_DELETE_LINEAR_ISSUE"]  # type: ignore[attr-defined]


async def test_seed004_rule1_no_cancels_the_pending_draft(anna: Conversation, service: Service) -> None:
    await anna.say("Archive ENG-106")
    r = await anna.say("no")
    assert r["status"] == "cancelled"
    assert service.backend.write_calls == []  # type: ignore[attr-defined]


async def test_seed004_rule1_anything_else_cancels_pending_and_is_planned(anna: Conversation) -> None:
    first = await anna.say("Archive ENG-106")
    r = await anna.say("Покажи ENG-101")
    assert r["status"] == "answered" and "Предыдущий черновик отменён" in r["user_message"]
    assert (await anna.call("confirm_draft", draft_id=first["draft"]["id"]))["status"] == "cancelled"


async def test_seed004_yes_in_another_conversation_confirms_nothing(
    client: Client, anna: Conversation
) -> None:
    await anna.say("Удали ENG-103")
    other = Conversation(client, user="anna", conversation="chat-2")
    r = await other.say("да")
    assert r["status"] == "answered" and r["ok"] is False


async def test_seed004_rule2_general_chat_gets_a_true_answer_not_a_routing_question(
    anna: Conversation,
) -> None:
    r = await anna.say("hello, how are you?")
    assert r["status"] == "needs_clarification" and r["plan"]["domain"] == "unknown"
    assert "Attio" in r["clarifying_question"] and "Linear" in r["clarifying_question"]
    assert r["choices"] == [] and r["plan"]["actions"] == []  # "what should I do?", not "Attio or Linear?"
    r = await anna.say("спасибо!")
    assert r["status"] == "answered" and r["plan"]["actions"] == [] and r["draft"] is None
    r = await anna.say(
        "what's the weather like in Moscow?"
    )  # declined, with what I do and "what should I do?"
    assert r["status"] == "needs_clarification" and r["plan"]["actions"] == [] and r["choices"] == []
    assert "can't help" in r["clarifying_question"] and "Attio" in r["clarifying_question"]


async def test_seed004_rule2_delete_requests_confirmation(anna: Conversation) -> None:
    r = await anna.say("Удали задачу ENG-103")
    assert r["status"] == "draft_pending" and "destructive" in {k["kind"] for k in r["plan"]["risks"]}


async def test_seed004_rule3_reference_by_identifier_that_does_not_exist(anna: Conversation) -> None:
    r = await anna.say("Закрой ENG-999")
    assert r["status"] == "needs_clarification"
    assert r["clarifying_question"].startswith("Не нашёл задачу «ENG-999». Ваши задачи:")
    assert "ENG-104" in r["clarifying_question"]


async def test_seed004_rule3_reference_by_contained_words(anna: Conversation) -> None:
    r = await anna.say("Mark the issue about push notifications as done")
    assert r["status"] == "draft_pending"
    assert r["plan"]["actions"][0]["args"]["issueId"] == "98a86f2d-8c63-5780-bdcf-0c94e6323f2a"


async def test_seed004_rule3_several_matches_become_a_question(anna: Conversation) -> None:
    r = await anna.say("Close the login issue")
    assert r["status"] == "needs_clarification" and r["clarifying_question"].startswith(
        "I found multiple tasks"
    )
    assert {c["value"] for c in r["choices"]} == {"ENG-101", "ENG-102"}


async def test_seed004_rule3_position_without_a_list_asks(anna: Conversation) -> None:
    r = await anna.say("Mark the first issue in my list as done")
    assert r["status"] == "needs_clarification" and r["choices"]


async def test_seed004_every_decision_is_audited_with_the_seed_fields(anna: Conversation) -> None:
    await anna.say("Покажи ENG-101")
    d = (await anna.say("Закрой ENG-101"))["draft"]["id"]
    await anna.call("confirm_draft", draft_id=d)
    await anna.call("execute_draft", draft_id=d)
    await anna.say("Поставь блок")
    records = (await anna.call("read_audit_log"))["results"]
    assert [r["decision_type"] for r in records] == [
        "ASK_CLARIFICATION",
        "EXECUTE",
        "CONFIRMED",
        "REQUEST_CONFIRMATION",
        "INVOKE_TOOL",
    ]
    for rec in records:
        assert {
            "timestamp",
            "conversation_id",
            "user_id",
            "input_message",
            "classified_intent",
            "decision_type",
            "tool_calls",
            "response_preview",
        } <= set(rec)
        assert len(rec["response_preview"]) <= 200


async def test_seed004_messages_longer_than_4000_characters_are_refused(anna: Conversation) -> None:
    r = await anna.say("a" * 4001)
    assert r["ok"] is False and "4000" in r["user_message"]


async def test_a_template_word_inside_an_explicit_title_is_just_a_title(anna: Conversation) -> None:
    r = await anna.say("Create an issue in ENG: update the onboarding docs by Friday")
    assert r["status"] == "draft_pending"
    i = issue_input(r)
    assert (i["title"], i["dueDate"], i["teamId"]) == ("update the onboarding docs", "2026-11-27", ENG["id"])


async def test_seed004_rule3_position_and_number_refer_to_the_list_shown_before(anna: Conversation) -> None:
    shown = await anna.say("Покажи мои задачи в Linear")
    first = shown["results"][0]["data"]["issues"][0]
    r = await anna.say("Mark the first issue in my list as done")
    assert r["status"] == "draft_pending" and r["plan"]["actions"][0]["args"]["issueId"] == first["id"]
    await anna.call("cancel_draft", draft_id=r["draft"]["id"])
    second = shown["results"][0]["data"]["issues"][1]
    r = await anna.say("Закрой задачу #2")
    assert r["status"] == "draft_pending" and r["plan"]["actions"][0]["args"]["issueId"] == second["id"]


async def test_seed004_rule3_exact_title_wins(anna: Conversation) -> None:
    r = await anna.say("Close the issue Crash on export to PDF")
    assert r["status"] == "draft_pending"
    assert r["plan"]["actions"][0]["args"]["issueId"] == "640a0ebd-fa85-5971-a134-6c3c2733c472"
