"""Seed 004's dialogue through the real MCP client (DESIGN §4): "да" only confirms (through the same
path as `confirm_draft`) and only `execute_draft` writes; a pending draft is never dropped silently;
an open question is answered by position or in words, left with "отмена", and a new request while it
is open is planned as new, saying the question was dropped. The terminal chat speaks for the person."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import REF_NOW, Conversation, reply_of
from mcp import Client
from mcp.types import ElicitResult

from server.app import build_server
from server.chat import converse
from server.service import Service
from server.settings import Settings

pytestmark = pytest.mark.anyio


def writes(service: Service) -> list[tuple[str, dict[str, Any]]]:
    return list(service.backend.write_calls)  # type: ignore[attr-defined]


async def drafted(c: Conversation, text: str) -> str:
    r = await c.say(text)
    assert r["status"] == "draft_pending", r["user_message"]
    return str(r["draft"]["id"])


# ---- "да" confirms; only execute_draft writes ---------------------------------------------------


async def test_yes_to_a_pending_draft_confirms_it_and_changes_nothing_until_execute(
    anna: Conversation, service: Service
) -> None:
    d = await drafted(anna, "Archive ENG-106")
    r = await anna.say("да")
    assert r["status"] == "confirmed" and r["draft"]["status"] == "confirmed" and r["draft"]["id"] == d
    assert writes(service) == []
    done = await anna.call("execute_draft", draft_id=d)
    assert done["status"] == "executed"
    assert [slug for slug, _ in writes(service)] == ["LINEAR_DELETE_LINEAR_ISSUE"]


async def test_yes_to_a_bulk_draft_asks_for_the_count_and_the_typed_count_only_confirms(
    anna: Conversation, service: Service
) -> None:
    d = await drafted(anna, "Create issues in DES for: a1, a2, a3, a4, a5, a6")
    asked = await anna.say("yes")
    assert asked["status"] == "needs_bulk_confirmation" and "6" in asked["clarifying_question"]
    r = await anna.say("6")
    assert r["status"] == "confirmed" and writes(service) == []
    assert (await anna.call("execute_draft", draft_id=d))["status"] == "executed"
    assert len(writes(service)) == 6


async def test_the_plan_tool_says_that_yes_only_confirms_and_is_not_destructive(client: Client) -> None:
    tool = next(t for t in (await client.list_tools()).tools if t.name == "plan")
    assert tool.annotations is not None and tool.annotations.destructive_hint is False
    description = tool.description or ""
    assert 'confirms it (status "confirmed"' in description and "execute_draft" in description
    assert "confirms and runs" not in description


class Person:
    """The human answering the client's confirmation form."""

    def __init__(self, action: str, content: dict[str, Any] | None = None) -> None:
        self.action, self.content = action, content
        self.shown: list[str] = []

    async def __call__(self, ctx: Any, params: Any) -> ElicitResult:
        self.shown.append(params.message)
        return ElicitResult(action=self.action, content=self.content)  # type: ignore[arg-type]


async def say(client: Client, text: str) -> dict[str, Any]:
    args = {"text": text, "user_id": "anna", "conversation_id": "c1", "now": REF_NOW}
    return reply_of(await client.call_tool("plan", args))


@pytest.mark.parametrize(
    ("answer", "status"), [({"confirm": True}, "confirmed"), ({"confirm": False}, "cancelled")]
)
async def test_yes_in_a_client_with_forms_shows_the_person_the_same_confirmation_form(
    service: Service, settings: Settings, answer: dict[str, Any], status: str
) -> None:
    person = Person("accept", answer)
    async with Client(build_server(service, settings), elicitation_callback=person) as client:
        assert (await say(client, "Archive ENG-106"))["status"] == "draft_pending"
        r = await say(client, "да")
    assert r["status"] == status
    assert len(person.shown) == 1 and "ENG-106" in person.shown[0]
    assert writes(service) == []


# ---- a pending draft is never dropped silently ----------------------------------------------------


@pytest.mark.parametrize("then", ["Что по сделке с Ромашкой?", "Close ENG-101", "Поставь блок"])
async def test_a_new_request_cancels_the_pending_draft_and_says_so(anna: Conversation, then: str) -> None:
    d = await drafted(anna, "Move the Globex pilot deal to Lost")
    r = await anna.say(then)
    assert r["notice"] is not None and r["user_message"].startswith(r["notice"])
    assert "Предыдущий черновик отменён" in r["notice"] or "earlier draft was cancelled" in r["notice"]
    assert "Globex pilot" in r["notice"]
    listed = await anna.call("list_drafts", include_finished=True)
    assert {x["id"]: x["status"] for x in listed["results"]}[d] == "cancelled"
    assert (await anna.call("confirm_draft", draft_id=d))["status"] == "cancelled"


async def test_a_message_in_another_conversation_leaves_the_draft_pending(client: Client) -> None:
    here, there = Conversation(client, conversation="here"), Conversation(client, conversation="there")
    d = await drafted(here, "Move the Globex pilot deal to Lost")
    r = await there.say("Что по сделке с Ромашкой?")
    assert r.get("notice") is None
    assert (await here.call("confirm_draft", draft_id=d))["status"] == "confirmed"


# ---- an open question: position, words, cancel, a new request --------------------------------------


async def ask_which_acme(c: Conversation) -> dict[str, Any]:
    r = await c.say("Move the Acme deal to Won")
    assert r["status"] == "needs_clarification" and len(r["choices"]) == 2, r
    return r


@pytest.mark.parametrize(
    ("answer", "chosen"),
    [
        ("вторую", "Acme Logistics"),
        ("второй вариант", "Acme Logistics"),
        ("the second one", "Acme Logistics"),
        ("last one", "Acme Logistics"),
        ("первую", "Acme Corp"),
        ("2", "Acme Logistics"),
    ],
)
async def test_a_question_is_answered_by_position_in_words(
    anna: Conversation, answer: str, chosen: str
) -> None:
    asked = await ask_which_acme(anna)
    r = await anna.call(
        "pick", plan_id=asked["plan"]["plan_id"], question_id=asked["question_id"], text=answer
    )
    assert r["status"] == "draft_pending", r["user_message"]
    assert chosen in r["user_message"]


@pytest.mark.parametrize(
    ("request_", "answer", "stage"),
    [
        ("move the globex deal", "to won", "Won"),
        ("move the globex deal", "into proposal", "Proposal"),
        ("переведи сделку глобекс", "в выигранные", "Won"),
        ("переведи сделку глобекс", "в квалификацию", "Qualification"),
        ("переведи сделку глобекс", "проигранная", "Lost"),
    ],
)
async def test_a_stage_question_is_answered_by_the_stage_said_after_a_preposition_or_in_another_form(
    anna: Conversation, request_: str, answer: str, stage: str
) -> None:
    asked = await anna.say(request_)
    assert asked["status"] == "needs_clarification" and len(asked["choices"]) == 6, asked
    r = await anna.call(
        "pick", plan_id=asked["plan"]["plan_id"], question_id=asked["question_id"], text=answer
    )
    assert r["status"] == "draft_pending", r["user_message"]
    assert [a["args"]["values"] for a in r["plan"]["actions"] if not a["read_only"]] == [{"stage": stage}]


@pytest.mark.parametrize("word", ["отмена", "Cancel"])
async def test_cancel_leaves_an_open_question_and_changes_nothing(
    anna: Conversation, service: Service, word: str
) -> None:
    asked = await ask_which_acme(anna)
    ids = {"plan_id": asked["plan"]["plan_id"], "question_id": asked["question_id"]}
    r = await anna.call("pick", text=word, **ids)
    assert r["status"] == "cancelled" and r["draft"] is None
    later = await anna.call("pick", value=asked["choices"][0]["value"], **ids)
    assert later["status"] == "not_found" and later["draft"] is None  # the question is closed
    assert writes(service) == []


async def test_a_new_request_instead_of_an_answer_is_planned_as_new_and_says_the_question_was_dropped(
    anna: Conversation,
) -> None:
    asked = await anna.say("Поставь блок")  # a free-text question: how long?
    assert asked["status"] == "needs_clarification"
    ids = {"plan_id": asked["plan"]["plan_id"], "question_id": asked["question_id"]}
    r = await anna.call("pick", text="Закрой ENG-101", **ids)
    assert r["status"] == "draft_pending" and "ENG-101" in r["user_message"]
    assert r["notice"] == "Предыдущий вопрос снят."
    assert (await anna.call("pick", text="60", **ids))["status"] == "not_found"  # that question is gone


async def test_a_title_that_starts_with_a_verb_is_an_answer_not_a_new_request(anna: Conversation) -> None:
    asked = await anna.say("Создай задачу в Linear")
    assert asked["question_id"] == "c0.title"
    ids = {"plan_id": asked["plan"]["plan_id"], "question_id": asked["question_id"]}
    r = await anna.call("pick", text="Добавить экспорт в PDF", **ids)
    assert r.get("notice") is None
    assert "Добавить экспорт в PDF" in json.dumps(r["plan"], ensure_ascii=False)


async def test_a_free_text_answer_that_is_not_a_request_still_answers_the_question(
    anna: Conversation,
) -> None:
    asked = await anna.say("Поставь блок")
    r = await anna.call("pick", plan_id=asked["plan"]["plan_id"], question_id=asked["question_id"], text="60")
    assert r["status"] == "needs_clarification" and r.get("notice") is None


# ---- the terminal chat speaks for the person ----------------------------------------------------------


async def talk(client: Client, *lines: str) -> str:
    said: list[str] = []
    errors = await converse(client, list(lines), said.append, user="anna", now=REF_NOW)
    assert errors == 0, said
    return "\n".join(said)


async def test_the_chat_runs_a_draft_right_after_yes_confirms_it(client: Client, service: Service) -> None:
    said = await talk(client, "Archive ENG-106", "да")
    assert "Confirmed" in said and "✅" in said
    assert [slug for slug, _ in writes(service)] == ["LINEAR_DELETE_LINEAR_ISSUE"]


async def test_the_chat_cancel_command_drops_the_question_then_cancels_the_draft(
    client: Client, service: Service
) -> None:
    said = await talk(client, "Move the Acme deal to Won", "/cancel", "Archive ENG-106", "/cancel", "да")
    assert said.count("Вопрос снят") == 1
    assert "The draft was cancelled" in said
    assert "Нет черновика, который ждёт подтверждения" in said
    assert writes(service) == []


async def test_in_the_chat_a_new_request_while_buttons_are_open_is_a_new_request(
    client: Client, service: Service
) -> None:
    said = await talk(client, "Move the Acme deal to Won", "Что по сделке с Ромашкой?")
    assert "Предыдущий вопрос снят" in said and "Ромашка" in said
    said = await talk(client, "Move the Acme deal to Won", "вторую", "да")
    assert "Acme Logistics" in said and "✅" in said
    assert len(writes(service)) == 1
