"""What a model reads (DESIGN §4): a short text content, the whole reply structured, errors as errors."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import REF_NOW, Conversation, reply_of
from mcp import Client

from server.service import Service

pytestmark = pytest.mark.anyio

SEVEN = "Create issues in DES for: intro, consent, avatar, invite, plan, import, tour"


def text_of(result: Any) -> str:
    assert len(result.content) == 1 and result.content[0].type == "text"
    return str(result.content[0].text)


async def call(client: Client, tool: str, **args: Any) -> Any:
    args.setdefault("user_id", "anna")
    if tool == "plan":
        args.setdefault("now", REF_NOW)
    return await client.call_tool(tool, args)


async def test_a_draft_reads_as_a_short_text_while_the_structured_reply_stays_whole(client: Client) -> None:
    result = await call(client, "plan", text=SEVEN)
    text, reply = text_of(result), reply_of(result)
    assert len(text.encode()) <= 2048, len(text.encode())
    assert not result.is_error and reply["status"] == "draft_pending"
    assert text.startswith(f"[draft_pending draft_id={reply['draft']['id']}]")
    assert "7. Linear DES: new issue 'tour'" in text
    assert '"plan"' not in text and "idempotency_scope" not in text  # not the reply as JSON
    assert len(reply["plan"]["actions"]) == 7 and len(reply["draft"]["actions"]) == 7


async def test_an_executed_draft_reads_as_its_results_with_every_link(client: Client) -> None:
    draft_id = reply_of(await call(client, "plan", text=SEVEN))["draft"]["id"]
    await call(client, "confirm_draft", draft_id=draft_id)
    await call(client, "confirm_draft", draft_id=draft_id, confirm_count=7)
    result = await call(client, "execute_draft", draft_id=draft_id)
    text, reply = text_of(result), reply_of(result)
    assert reply["status"] == "executed" and len(text.encode()) <= 2048, len(text.encode())
    links = [a["link"] for a in reply["draft"]["actions"]]
    assert len(links) == 7 and all(link and link in text for link in links)
    assert all(r["data"] for r in reply["results"])  # the structured reply keeps each created issue


async def test_a_question_reads_with_its_ids_and_each_choice_once(client: Client) -> None:
    result = await call(client, "plan", text="Move Acme to negotiation")
    text, reply = text_of(result), reply_of(result)
    assert f"plan_id={reply['plan']['plan_id']} question_id={reply['question_id']}" in text
    assert text.count("Which deal do you mean?") == 1
    for choice in reply["choices"]:
        assert f"- {choice['label']} -> {choice['value']}" in text


@pytest.mark.parametrize("tool", ["confirm_draft", "execute_draft", "cancel_draft"])
async def test_a_missing_draft_and_a_strangers_are_the_same_not_found_error(
    client: Client, tool: str
) -> None:
    theirs = reply_of(await call(client, "plan", text="Удали ENG-102", user_id="bob"))["draft"]["id"]
    stranger = await call(client, tool, draft_id=theirs)
    missing = await call(client, tool, draft_id="d_never_made")
    for result in (stranger, missing):
        assert (
            result.is_error and reply_of(result)["status"] == "not_found" and reply_of(result)["ok"] is False
        )
    assert text_of(stranger) == text_of(missing) and reply_of(stranger) == reply_of(missing)
    bob = await call(client, "confirm_draft", draft_id=theirs, user_id="bob")
    assert reply_of(bob)["status"] == "confirmed"  # the stranger changed nothing


async def test_an_answer_to_a_missing_question_is_not_found(client: Client) -> None:
    result = await call(client, "pick", plan_id="p_gone", question_id="q1", value="x")
    assert result.is_error and reply_of(result)["status"] == "not_found"


@pytest.mark.parametrize(
    ("args", "named"),
    [
        ({"text": "Покажи ENG-101", "now": "вчера"}, "now"),
        ({"text": "Покажи ENG-101", "timezone": "Mars/Olympus"}, "timezone"),
        # (text may come with a command — seed 001's envelope carries both — but not with a voice message)
        ({"text": "Покажи ENG-101", "voice": {"file_id": "f1", "transcript": "покажи ENG-102"}}, "text"),
        ({"text": "   "}, "text"),
        ({"command": {"intent": "task_create", "confidence": "high", "entities": []}}, "confidence"),
        ({"text": "Покажи ENG-101", "language": "de"}, "'ru', 'en'"),
    ],
)
async def test_arguments_that_fail_validation_are_invalid_errors_naming_the_field(
    client: Client, service: Service, args: dict[str, Any], named: str
) -> None:
    result = await call(client, "plan", **({"language": "en"} | args))
    reply = reply_of(result)
    assert result.is_error and reply["status"] == "invalid" and reply["ok"] is False
    assert named in reply["user_message"] and named in text_of(result)
    assert reply.get("draft") is None and await service.store.list_drafts("anna", open_only=False) == []


async def test_pick_without_an_answer_is_invalid_and_names_both_fields(anna: Conversation) -> None:
    asked = await anna.say("Move Acme to negotiation")
    r = await anna.call("pick", plan_id=asked["plan"]["plan_id"], question_id=asked["question_id"])
    assert r["status"] == "invalid" and "value" in r["user_message"] and "text" in r["user_message"]


async def test_a_bulk_confirmation_asks_for_the_count_and_offers_no_choice_carrying_it(
    client: Client,
) -> None:
    draft_id = reply_of(await call(client, "plan", text=SEVEN))["draft"]["id"]
    result = await call(client, "confirm_draft", draft_id=draft_id)
    reply, text = reply_of(result), text_of(result)
    assert reply["status"] == "needs_bulk_confirmation" and reply["choices"] == []
    assert reply["question_id"] == "confirm_count" and "question_id=confirm_count" in text
    assert "type the number of changes: 7" in reply["clarifying_question"]
    assert "->" not in text  # nothing a model could pick on the person's behalf


async def test_a_bulk_draft_is_warned_about_once(client: Client) -> None:
    text = text_of(await call(client, "plan", text=SEVEN))
    assert text.count("7 changes") == 1, text


async def test_tool_descriptions_lose_their_indentation_and_every_parameter_is_described(
    client: Client,
) -> None:
    for tool in (await client.list_tools()).tools:
        assert tool.description and tool.description == tool.description.strip(), tool.name
        indented = [line for line in tool.description.splitlines() if line[:1].isspace()]
        assert indented == [], (tool.name, indented)
        undescribed = [p for p, s in tool.input_schema["properties"].items() if not s.get("description")]
        assert undescribed == [], (tool.name, undescribed)


async def test_client_plumbing_tells_a_model_to_leave_it_out(client: Client) -> None:
    tools = {t.name: t.input_schema["properties"] for t in (await client.list_tools()).tools}
    for name, field in [("plan", "user_id"), ("plan", "callback_id"), ("plan", "voice"), ("plan", "command")]:
        assert "leave out" in tools[name][field]["description"].lower(), (name, field)
    for name in ("pick", "confirm_draft", "execute_draft", "cancel_draft", "list_drafts"):
        assert "leave out" in tools[name]["user_id"]["description"].lower(), name
