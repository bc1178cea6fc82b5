"""The tools through the real MCP client, in memory: conversations a person has, and the promises."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from conftest import WORKSPACE, Conversation, reply_of
from mcp import Client

from server.service import Service

pytestmark = pytest.mark.anyio

DEAL = {d["key"]: d for d in WORKSPACE["attio"]["deals"]}
STAGE = {s["title"]: s["id"] for s in WORKSPACE["attio"]["deal_stages"]}


def writes(service: Service) -> list[tuple[str, dict[str, Any]]]:
    return list(service.backend.write_calls)  # type: ignore[attr-defined]


async def drafted(c: Conversation, text: str) -> str:
    r = await c.say(text)
    assert r["status"] == "draft_pending", r
    return str(r["draft"]["id"])


async def test_tools_are_listed_with_truthful_annotations(client: Client) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert {
        "plan",
        "pick",
        "confirm_draft",
        "execute_draft",
        "cancel_draft",
        "list_drafts",
        "read_audit_log",
    } <= set(tools)
    assert tools["list_drafts"].annotations.read_only_hint is True
    assert tools["execute_draft"].annotations.destructive_hint is True
    assert tools["confirm_draft"].annotations.read_only_hint is False
    assert "only after" in (tools["confirm_draft"].description or "").lower()
    for name in ("plan", "pick", "confirm_draft", "execute_draft"):
        assert tools[name].output_schema is not None
        assert {
            "ok",
            "status",
            "user_message",
            "clarifying_question",
            "choices",
            "plan",
            "draft",
            "results",
        } <= set(tools[name].output_schema["properties"])


async def test_a_deal_stage_change_waits_for_confirmation_then_runs_once(
    anna: Conversation, service: Service
) -> None:
    d = await drafted(anna, "Переведи сделку Globex pilot в стадию Won")
    assert writes(service) == []
    r = await anna.call("execute_draft", draft_id=d)
    assert r["status"] == "draft_pending" and r["ok"] is False and writes(service) == []
    assert (await anna.call("confirm_draft", draft_id=d))["status"] == "confirmed"
    r = await anna.call("execute_draft", draft_id=d)
    assert r["status"] == "executed" and r["ok"] is True
    assert writes(service) == [
        (
            "ATTIO_UPDATE_RECORD",
            {"object_type": "deals", "record_id": DEAL["globex-pilot"]["id"], "values": {"stage": "Won"}},
        )
    ]
    r = await anna.say("Покажи сделку Globex pilot")
    assert r["status"] == "answered" and "Won" in json.dumps(r["results"], ensure_ascii=False)


async def test_a_linear_issue_is_created_with_a_link(anna: Conversation) -> None:
    d = await drafted(anna, "Create a Linear issue: rotate the backup keys")
    await anna.call("confirm_draft", draft_id=d)
    r = await anna.call("execute_draft", draft_id=d)
    assert r["status"] == "executed"
    assert r["results"][0]["link"].startswith("https://linear.app/")
    found = await anna.say("Search Linear issues about rotate the backup keys")
    assert "rotate the backup keys" in json.dumps(found["results"])


async def test_a_note_lands_on_the_named_person(anna: Conversation) -> None:
    d = await drafted(anna, "Add a note to John Smith: prefers calls after 3pm")
    await anna.call("confirm_draft", draft_id=d)
    r = await anna.call("execute_draft", draft_id=d)
    assert r["status"] == "executed"
    note = r["results"][0]["data"]["data"]
    assert note["parent_record_id"] == "3dbaa42b-7e8d-5a25-b269-ab7e1aef79b9"
    assert "after 3pm" in note["content_plaintext"]


async def test_an_ambiguous_name_becomes_a_pick(anna: Conversation) -> None:
    r = await anna.say("Move Acme to negotiation")
    assert r["status"] == "needs_clarification" and r["ok"] is False
    assert "ambiguous" in {k["kind"] for k in r["plan"]["risks"]}
    assert r["plan"]["actions"] == []
    choice = next(c for c in r["choices"] if "Corp" in c["label"])
    assert len(choice["value"].encode()) <= 64
    r = await anna.call(
        "pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value=choice["value"]
    )
    assert r["status"] == "draft_pending"
    assert r["plan"]["actions"][0]["args"]["record_id"] == DEAL["acme-license"]["id"]
    assert r["plan"]["actions"][0]["args"]["values"] == {"stage": "Negotiation"}


async def test_a_delete_is_destructive_and_needs_confirmation(anna: Conversation, service: Service) -> None:
    r = await anna.say("Удали ENG-102")
    assert "destructive" in {k["kind"] for k in r["plan"]["risks"]}
    assert "архив" in r["user_message"].lower()
    await anna.call("execute_draft", draft_id=r["draft"]["id"])
    assert writes(service) == []


async def test_a_query_is_answered_at_once_and_logged(anna: Conversation, service: Service) -> None:
    r = await anna.say("Покажи мои задачи в Linear")
    assert r["status"] == "answered" and r["ok"] is True and r["draft"] is None
    assert "ENG-104" in r["user_message"]
    audit = await anna.call("read_audit_log")
    assert audit["results"][0]["decision_type"] == "INVOKE_TOOL"
    assert audit["results"][0]["input_message"] == "Покажи мои задачи в Linear"


async def test_bulk_drafts_need_the_counted_second_confirmation(anna: Conversation, service: Service) -> None:
    r = await anna.say("Create issues in DES for: intro, consent, avatar, invite, plan, import, tour")
    d = r["draft"]["id"]
    assert "bulk" in {k["kind"] for k in r["plan"]["risks"]}
    r = await anna.call("confirm_draft", draft_id=d)
    assert r["status"] == "needs_bulk_confirmation" and "7" in r["clarifying_question"]
    assert (await anna.call("execute_draft", draft_id=d))["status"] != "executed"
    assert (await anna.call("confirm_draft", draft_id=d, confirm_count=6))[
        "status"
    ] == "needs_bulk_confirmation"
    assert (await anna.call("confirm_draft", draft_id=d, confirm_count=7))["status"] == "confirmed"
    r = await anna.call("execute_draft", draft_id=d)
    assert r["status"] == "executed" and len(writes(service)) == 7


async def test_execute_draft_reports_each_action_as_progress_to_a_client_that_asks(
    client: Client, anna: Conversation
) -> None:
    r = await anna.say("Create issues in DES for: intro, consent, avatar, invite, plan, import, tour")
    d = r["draft"]["id"]
    await anna.call("confirm_draft", draft_id=d)
    await anna.call("confirm_draft", draft_id=d, confirm_count=7)
    heard: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        heard.append((progress, total, message))

    done = await client.call_tool(
        "execute_draft", {"draft_id": d, "user_id": "anna"}, progress_callback=on_progress
    )
    assert reply_of(done)["status"] == "executed"
    assert [(p, t) for p, t, _ in heard] == [(n, 7) for n in range(1, 8)]
    assert all(m and m.startswith("✓ ") for _, _, m in heard), heard
    assert {m.rsplit(" ", 1)[-1].strip("«»\"'") for _, _, m in heard if m} >= {"intro", "tour"}, heard
    again: list[float] = []

    async def on_again(progress: float, total: float | None, message: str | None) -> None:
        again.append(progress)

    await client.call_tool("execute_draft", {"draft_id": d, "user_id": "anna"}, progress_callback=on_again)
    assert again == []  # the stored outcome: nothing ran, so nothing to report


async def test_executing_twice_or_thirty_times_at_once_creates_one_issue(
    anna: Conversation, service: Service
) -> None:
    d = await drafted(anna, "Создай задачу в Linear: проверить идемпотентность 7731")
    await anna.call("confirm_draft", draft_id=d)
    replies = await asyncio.gather(*[anna.call("execute_draft", draft_id=d) for _ in range(30)])
    assert {r["status"] for r in replies} == {"executed"}
    again = await anna.call("execute_draft", draft_id=d)
    assert again["results"] == replies[0]["results"]
    assert len(writes(service)) == 1


async def test_a_stranger_sees_the_same_answer_as_for_a_missing_draft(
    client: Client, anna: Conversation, service: Service
) -> None:
    d = await drafted(anna, "Удали ENG-102")
    mallory = Conversation(client, user="mallory")
    missing = await mallory.call("confirm_draft", draft_id="no-such-draft")
    for tool in ("confirm_draft", "execute_draft", "cancel_draft"):
        r = await mallory.call(tool, draft_id=d)
        assert (r["ok"], r["status"], r["user_message"]) == (
            missing["ok"],
            missing["status"],
            missing["user_message"],
        )
    assert (await mallory.call("list_drafts"))["results"] == []
    assert (await anna.call("confirm_draft", draft_id=d))["status"] == "confirmed"
    assert writes(service) == []


async def test_a_repeated_callback_replays_the_reply_and_does_nothing(
    anna: Conversation, service: Service
) -> None:
    d = await drafted(anna, "Прокомментируй ENG-105: сборка ушла на ревью")
    a = await anna.call("confirm_draft", draft_id=d, callback_id="tg:callback:1")
    b = await anna.call("confirm_draft", draft_id=d, callback_id="tg:callback:1")
    assert a == b and a["status"] == "confirmed"
    x = await anna.call("execute_draft", draft_id=d, callback_id="tg:callback:2")
    y = await anna.call("execute_draft", draft_id=d, callback_id="tg:callback:2")
    assert x == y and x["status"] == "executed"
    assert len(writes(service)) == 1
    events = await service.store.draft_events(d, "anna")
    assert [(e["from"], e["to"]) for e in events][-3:] == [
        ("pending", "confirmed"),
        ("confirmed", "executing"),
        ("executing", "executed"),
    ]


async def test_dry_run_shows_exact_requests_and_changes_nothing(anna: Conversation, service: Service) -> None:
    d = await drafted(anna, "Закрой CS-12")
    await anna.call("confirm_draft", draft_id=d)
    r = await anna.call("execute_draft", draft_id=d, dry_run=True)
    assert r["status"] == "dry_run"
    done_state = next(
        s["id"]
        for t in WORKSPACE["linear"]["teams"]
        if t["key"] == "CS"
        for s in t["states"]
        if s["name"] == "Done"
    )
    assert r["results"][0]["tool_slug"] == "LINEAR_UPDATE_ISSUE"
    assert r["results"][0]["arguments"] == {
        "issueId": "bfc0f982-d421-5b7e-a0f1-220242c0a913",
        "stateId": done_state,
    }
    assert writes(service) == []
    shown = await anna.say("Покажи CS-12")
    assert shown["results"][0]["data"]["state"]["name"] == "Todo"
    assert (await anna.call("execute_draft", draft_id=d))["status"] == "executed"


async def test_server_wide_dry_run_mode_never_writes(anna: Conversation, service: Service) -> None:
    service.settings.dry_run = True
    d = await drafted(anna, "Закрой ENG-101")
    await anna.call("confirm_draft", draft_id=d)
    assert (await anna.call("execute_draft", draft_id=d))["status"] == "dry_run"
    assert writes(service) == []


async def test_an_executed_change_survives_a_restart(settings: Any, anna: Conversation) -> None:
    from server.wiring import build_service

    d = await drafted(anna, "Переведи сделку Globex pilot в стадию Won")
    await anna.call("confirm_draft", draft_id=d)
    await anna.call("execute_draft", draft_id=d)
    fresh = build_service(settings)
    try:
        r = await fresh.plan(
            "anna",
            text="Покажи сделку Globex pilot",
            command=None,
            voice=None,
            language=None,
            now=None,
            timezone=None,
            conversation_id="x",
        )
        assert "Won" in json.dumps(r.results)
        assert (await fresh.execute("anna", d, dry_run=False)).status == "executed"
    finally:
        await fresh.backend.aclose()
        await fresh.store.close()


async def test_the_same_change_planned_again_shows_as_already_done(
    anna: Conversation, service: Service
) -> None:
    text = "Ромашка подписала договор: создай задачи онбординга в Linear"
    d = await drafted(anna, text)
    await anna.call("confirm_draft", draft_id=d)
    await anna.call("execute_draft", draft_id=d)
    r = await anna.say(text)
    assert r["status"] == "answered" and r["draft"] is None
    assert len(r["results"]) == 4 and {x["status"] for x in r["results"]} == {"already_done"}
    assert "уже в стадии Выиграна (Won)" in r["user_message"]
    assert len(writes(service)) == 5  # the stage change and four issues, each once


async def test_cancelled_drafts_cannot_run(anna: Conversation, service: Service) -> None:
    d = await drafted(anna, "Archive ENG-106")
    assert (await anna.call("cancel_draft", draft_id=d))["status"] == "cancelled"
    assert (await anna.call("confirm_draft", draft_id=d))["status"] == "cancelled"
    assert (await anna.call("execute_draft", draft_id=d))["status"] == "cancelled"
    assert writes(service) == []


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("plan", {"text": "x" * 20000}),
        ("plan", {"command": {"intent": "task_create", "confidence": "high", "entities": []}}),
        ("plan", {"command": {"intent": "launch_rockets", "confidence": 0.99}}),
        ("plan", {"text": "   "}),
        ("plan", {}),
        ("plan", {"text": "hi", "command": {"intent": "task_create", "confidence": 0.9}}),
        ("plan", {"text": "Закрой ENG-101", "now": "yesterday-ish"}),
        ("plan", {"text": "Закрой ENG-101", "timezone": "Mars/Olympus"}),
        ("pick", {"plan_id": "p_unknown", "question_id": "c0.deal", "value": "x"}),
        ("pick", {"plan_id": "'; DROP TABLE drafts; --", "question_id": "q", "text": "x"}),
        ("confirm_draft", {"draft_id": "does-not-exist"}),
        ("confirm_draft", {"draft_id": "x" * 5000}),
        ("execute_draft", {"draft_id": "does-not-exist"}),
        ("cancel_draft", {"draft_id": "does-not-exist"}),
        ("confirm_draft", {"draft_id": "abc", "confirm_count": "seven"}),
        ("execute_draft", {"draft_id": ["a", "b"]}),
        ("plan", {"text": 42}),
        ("read_audit_log", {"limit": -5}),
    ],
)
async def test_bad_input_gets_a_clear_refusal_and_leaves_the_server_healthy(
    anna: Conversation, service: Service, tool: str, args: dict[str, Any]
) -> None:
    r = await anna.call(tool, **args)
    assert r["ok"] is False
    blob = json.dumps(r, ensure_ascii=False)
    assert "Traceback" not in blob and "sqlite" not in blob.lower() and "SELECT" not in blob
    assert r.get("user_message")
    assert writes(service) == []
    assert (await anna.say("Покажи ENG-101"))["status"] == "answered"


async def test_a_voice_transcript_is_planned_and_a_doubtful_one_is_echoed(
    anna: Conversation, service: Service
) -> None:
    r = await anna.call("plan", voice={"file_id": "f1", "transcript": "Закрой ENG-101", "confidence": 0.93})
    assert r["status"] == "draft_pending" and r["plan"]["inputs"]["voice"]["file_id"] == "f1"
    r = await anna.call(
        "plan", voice={"file_id": "f2", "transcript": "закрой инж сто один", "confidence": 0.21}
    )
    assert r["status"] == "safe_fail" and "закрой инж сто один" in r["user_message"]
    assert writes(service) == []


async def test_language_override_answers_in_english(anna: Conversation) -> None:
    r = await anna.say("Поставь блок", language="en")
    assert r["clarifying_question"] == "How many minutes should the block last?"


async def test_relative_dates_default_to_the_clock_in_the_requested_zone(anna: Conversation) -> None:
    r = await anna.call(
        "plan", text="Поставь блок завтра в 10:00 на 30 минут", conversation_id="c", timezone="Asia/Tokyo"
    )
    start = r["plan"]["actions"][0]["args"]["start_datetime"]
    assert start.endswith("T10:00:00+09:00")


async def test_pick_rejects_a_value_that_is_not_a_choice(anna: Conversation) -> None:
    r = await anna.say("Move Acme to negotiation")
    bad = await anna.call(
        "pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value="not-a-choice"
    )
    assert bad["status"] == "needs_clarification" and bad["ok"] is False
    other = await anna.call("pick", plan_id=r["plan"]["plan_id"], question_id="c9.nothing", value="x")
    assert other["question_id"] == r["question_id"]
    stranger = await Conversation(anna.client, user="mallory").call(
        "pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value=r["choices"][0]["value"]
    )
    assert stranger["ok"] is False and stranger["status"] == "not_found"


async def test_a_new_deal_starts_at_the_first_stage_and_is_created(anna: Conversation) -> None:
    d = await drafted(anna, "Create a deal for Globex, 40k USD")
    r = await anna.call("confirm_draft", draft_id=d)
    r = await anna.call("execute_draft", draft_id=d)
    assert r["status"] == "executed", r["user_message"]
    values = r["results"][0]["data"]["data"]["values"]
    assert values["stage"][0]["status"]["title"] == "Lead"
    assert values["value"][0]["currency_value"] == 40000


async def test_every_write_operation_executes_on_the_sandbox(anna: Conversation) -> None:
    """One request per write operation of DESIGN §5, each confirmed and executed for real."""
    requests = [
        "Create a new company Hooli with domain hooli.xyz",
        "Добавь контакт Пётр Сергеев petr@hooli.xyz",
        "Create a deal for Umbrella Health, 25k USD, stage Lead",
        "Переведи сделку Globex pilot в стадию Won",
        "Добавь заметку к компании Initech: обсудили продление",
        "remind me to follow up with Maria Sokolova next Tuesday",
        "Удали сделку Acme Logistics — pilot",
        "Заведи в Linear баг в команде Engineering: падает импорт CSV, приоритет высокий",
        "Назначь ENG-103 на Олега и поставь срок на следующий понедельник",
        "Закрой ENG-101",
        "Comment on ENG-105: waiting for Apple review",
        "Archive ENG-106",
        "Создай задачу в проекте Partner Portal: собрать требования",
        "Поставь блок на завтра в 14:00 на 60 минут",
    ]
    for text in requests:
        r = await anna.say(text)
        if r["status"] == "needs_clarification" and "create" in [c["value"] for c in r["choices"]]:
            # a missing project is a question first, then an explicit create_project step (seed 002)
            r = await anna.call(
                "pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value="create"
            )
            assert [a["operation"] for a in r["plan"]["actions"]] == ["create_project", "create_issue"]
        assert r["status"] == "draft_pending", (text, r["status"], r.get("clarifying_question"))
        d = r["draft"]["id"]
        c = await anna.call("confirm_draft", draft_id=d)
        assert c["status"] == "confirmed", (text, c["status"])
        e = await anna.call("execute_draft", draft_id=d)
        assert e["status"] == "executed", (text, e["user_message"])


async def test_an_unknown_assignee_is_asked_for_and_the_answer_may_be_in_either_script(
    anna: Conversation,
) -> None:
    r = await anna.say("Назначь ENG-103 на Ивана")
    assert r["status"] == "needs_clarification" and "Oleg Ivanov" in [c["label"] for c in r["choices"]]
    r = await anna.call("pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], text="Олег")
    assert r["status"] == "draft_pending"
    assert r["plan"]["actions"][0]["args"]["assigneeId"] == "d6b6642c-1bce-5839-a29c-a7c4d4d3b505"


async def test_list_items_keep_their_words_and_one_issue_is_shown_as_itself(anna: Conversation) -> None:
    r = await anna.say("Create issues in DES for: intro, tour")
    titles = [a["args"]["variables"]["input"]["title"] for a in r["plan"]["actions"]]
    assert titles == ["intro", "tour"]
    shown = await anna.say("Покажи ENG-101")
    dropped, listed = shown["user_message"].split("\n", 1)  # the new request says the draft was cancelled
    assert dropped.startswith("Предыдущий черновик отменён")
    assert listed.startswith("• ENG-101 Fix login timeout on slow networks")
