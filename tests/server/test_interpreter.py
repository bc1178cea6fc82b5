"""The optional model interpreter (issue 14), through the real MCP client, with both official SDKs
(`anthropic`, `openai`) talking to a local fake provider in their real wire formats (scripts/fake_llm.py).

The rules answer first; the model is asked only when they did not understand the whole text, at
most once per request; what it says is validated like any model output and reaches the person only
as a draft they confirm (or a question); anything else falls back to the rules' reply.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import REF_NOW, ROOT, WORKSPACE, Conversation
from mcp import Client

from server.app import build_server
from server.settings import Settings
from server.wiring import build_service

sys.path.insert(0, str(ROOT / "scripts"))
from fake_llm import Answer, FakeLLM  # noqa: E402

pytestmark = pytest.mark.anyio

DEALS = {d["key"]: d for d in WORKSPACE["attio"]["deals"]}
GLOBEX = DEALS["globex-pilot"]["id"]
KEY = "sk-test-interpreter-key-0123456789"
# The rules route this nowhere ("Is it about Attio or Linear?"): a model is needed to read it.
VAGUE = "Globex pilot went through, mark it accordingly"
WON = [{"op": "update_deal", "deal": "Globex pilot", "stage": "Won", "confidence": 0.9}]
ROUTING = "I'm not sure what you'd like to do"


@pytest.fixture(params=["openai", "anthropic"])
def provider(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def llm() -> Iterator[FakeLLM]:
    with FakeLLM() as fake:
        yield fake


def settings_for(tmp_path: Path, provider: str, base_url: str, timeout_s: float = 5.0) -> Settings:
    return Settings(
        db_path=tmp_path / "planner.db",
        interpreter=provider,
        interpreter_model="fake-model-1",
        interpreter_timeout_s=timeout_s,
        interpreter_api_key=KEY,
        interpreter_base_url=base_url,
    )


def url_of(llm: FakeLLM, provider: str) -> str:
    return llm.openai_url if provider == "openai" else llm.anthropic_url


@asynccontextmanager
async def person(settings: Settings) -> AsyncIterator[Conversation]:
    service = build_service(settings)
    async with Client(build_server(service, settings)) as client:
        yield Conversation(client)


@asynccontextmanager
async def with_model(
    tmp_path: Path, provider: str, llm: FakeLLM, timeout_s: float = 5.0
) -> AsyncIterator[Conversation]:
    async with person(settings_for(tmp_path, provider, url_of(llm, provider), timeout_s)) as anna:
        yield anna


def writes(reply: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(a["operation"], a["args"]) for a in reply["plan"]["actions"] if not a["read_only"]]


def sent(llm: FakeLLM, index: int = 0) -> str:
    """Everything the provider was sent in one request, as text."""
    return json.dumps(llm.requests[index]["body"], ensure_ascii=False)


async def rules_reply(tmp_path: Path, text: str) -> dict[str, Any]:
    """What the server answers with no model configured."""
    async with person(Settings(db_path=tmp_path / "rules-only.db")) as anna:
        return await anna.say(text)


# ---- a model's reading becomes a draft ------------------------------------------------------------


async def test_words_the_rules_cannot_route_become_the_models_draft(
    tmp_path: Path, provider: str, llm: FakeLLM
) -> None:
    llm.script(Answer.with_intents(WON))
    async with with_model(tmp_path, provider, llm) as anna:
        r = await anna.say(VAGUE)
        audit = (await anna.call("read_audit_log"))["results"]

    assert r["status"] == "draft_pending"
    assert writes(r) == [
        ("update_deal", {"object_type": "deals", "record_id": GLOBEX, "values": {"stage": "Won"}})
    ]
    assert r["plan"]["intents"][0]["op"] == "update_deal"
    assert llm.calls == 1
    assert llm.requests[0]["path"] == ("/v1/chat/completions" if provider == "openai" else "/v1/messages")
    assert audit[0]["decision_type"] == "REQUEST_CONFIRMATION" and audit[0]["producer"] == "model"


async def test_the_models_intents_arrive_through_the_forced_tool_with_the_published_schema(
    tmp_path: Path, provider: str, llm: FakeLLM
) -> None:
    llm.script(Answer.with_intents(WON))
    async with with_model(tmp_path, provider, llm) as anna:
        await anna.say(VAGUE)

    body = llm.requests[0]["body"]
    assert body.get("stream") in (None, False)
    if provider == "openai":
        (tool,) = body["tools"]
        assert body["tool_choice"] == {"type": "function", "function": {"name": "submit_intents"}}
        schema = tool["function"]["parameters"]
    else:
        (tool,) = body["tools"]
        assert body["tool_choice"] == {"type": "tool", "name": "submit_intents"}
        schema = tool["input_schema"]
    assert schema["required"] == ["intents"]
    assert "update_deal" in schema["properties"]["intents"]["items"]["properties"]["op"]["enum"]


async def test_json_content_of_the_intents_shape_is_read_like_a_tool_call(
    tmp_path: Path, provider: str, llm: FakeLLM
) -> None:
    llm.script(Answer("content", intents=WON))
    async with with_model(tmp_path, provider, llm) as anna:
        r = await anna.say(VAGUE)

    assert r["status"] == "draft_pending"
    assert [op for op, _ in writes(r)] == ["update_deal"]


async def test_a_clause_no_rule_explained_is_read_by_the_model_as_a_whole(
    tmp_path: Path, llm: FakeLLM
) -> None:
    llm.script(
        Answer.with_intents(
            [
                {"op": "update_deal", "deal": "Globex pilot", "stage": "Won", "confidence": 0.9},
                {"op": "create_issue", "team": "ENG", "title": "Launch the rocket", "confidence": 0.8},
            ]
        )
    )
    async with with_model(tmp_path, "openai", llm) as anna:
        r = await anna.say("Move Globex pilot to Won and also launch the rocket to the moon")

    assert r["status"] == "draft_pending"
    assert sorted(op for op, _ in writes(r)) == ["create_issue", "update_deal"]
    assert llm.calls == 1


async def test_a_value_no_rule_placed_is_read_by_the_model(tmp_path: Path, llm: FakeLLM) -> None:
    text = "Move Globex pilot to Won, priority high"
    assert (await rules_reply(tmp_path, text))["question_id"] == "c0.values"
    llm.script(Answer.with_intents(WON))
    async with with_model(tmp_path, "anthropic", llm) as anna:
        r = await anna.say(text)

    assert r["status"] == "draft_pending" and llm.calls == 1


# ---- the rules first: no model call, no cost ----------------------------------------------------


async def test_the_model_is_not_asked_when_the_rules_understand_the_whole_text(
    tmp_path: Path, provider: str, llm: FakeLLM
) -> None:
    async with with_model(tmp_path, provider, llm) as anna:
        draft = await anna.say("Переведи сделку Globex pilot в стадию Won")
        question = await anna.say("Создай задачу")  # a question the rules ask on purpose
        domain = await anna.say("Add a company Zeta Labs")  # "domain" here is the company's web domain
        audit = (await anna.call("read_audit_log"))["results"]

    assert draft["status"] == "draft_pending"
    assert question["question_id"] == "c0.title" and domain["question_id"] == "c0.domain"
    assert llm.calls == 0
    understood = [a["producer"] for a in audit if a["decision_type"] != "CANCEL_PENDING"]
    assert understood == ["rules"] * 3


async def test_answers_to_the_models_question_replay_its_reading_without_asking_it_again(
    tmp_path: Path, provider: str, llm: FakeLLM
) -> None:
    llm.script(
        Answer.with_intents([{"op": "update_deal", "deal": "Acme", "stage": "Won", "confidence": 0.9}])
    )
    async with with_model(tmp_path, provider, llm) as anna:
        asked = await anna.say("the Acme thing went through, mark it accordingly")
        acme = next(c for c in asked["choices"] if "Logistics" in c["label"])
        r = await anna.call(
            "pick", plan_id=asked["plan"]["plan_id"], question_id=asked["question_id"], value=acme["value"]
        )

    assert asked["status"] == "needs_clarification" and asked["question_id"] == "c0.deal"
    assert r["status"] == "draft_pending"
    assert writes(r)[0][1]["record_id"] == DEALS["acme-log-pilot"]["id"]
    assert llm.calls == 1


async def test_a_doubtful_reading_is_restated_and_runs_only_after_a_yes(tmp_path: Path, llm: FakeLLM) -> None:
    llm.script(Answer.with_intents([{**WON[0], "confidence": 0.6}]))
    async with with_model(tmp_path, "openai", llm) as anna:
        asked = await anna.say(VAGUE)
        r = await anna.call(
            "pick", plan_id=asked["plan"]["plan_id"], question_id=asked["question_id"], value="yes"
        )

    assert asked["status"] == "needs_clarification" and asked["question_id"] == "c0.confirm"
    assert (
        "Did I get it right" in asked["clarifying_question"]
        and "Globex pilot" in asked["clarifying_question"]
    )
    assert asked["plan"]["actions"] == []
    assert r["status"] == "draft_pending" and llm.calls == 1


async def test_a_reading_below_the_safe_fail_threshold_does_nothing(tmp_path: Path, llm: FakeLLM) -> None:
    llm.script(Answer.with_intents([{**WON[0], "confidence": 0.2}]))
    async with with_model(tmp_path, "anthropic", llm) as anna:
        r = await anna.say(VAGUE)

    assert r["status"] == "safe_fail" and r["user_message"] == "I can't do that. Please clarify the request."
    assert r.get("draft") is None


# ---- seed 002: strict validation of what the model says -----------------------------------------


async def test_unknown_fields_are_stripped_and_said_and_never_reach_an_action(
    tmp_path: Path, provider: str, llm: FakeLLM
) -> None:
    llm.script(Answer.with_intents([{**WON[0], "color": "red", "record_id": "rec_invented"}]))
    async with with_model(tmp_path, provider, llm) as anna:
        r = await anna.say(VAGUE)

    assert r["status"] == "draft_pending"
    assert "update_deal.color" in r["user_message"] and "update_deal.record_id" in r["user_message"]
    assert "rec_invented" not in json.dumps(r["plan"]["actions"]) and "red" not in json.dumps(writes(r))


async def test_an_unknown_op_is_rejected_alone_and_the_valid_rest_goes_on(
    tmp_path: Path, provider: str, llm: FakeLLM
) -> None:
    llm.script(Answer.with_intents([{"op": "launch_rocket", "target": "moon"}, WON[0]]))
    async with with_model(tmp_path, provider, llm) as anna:
        r = await anna.say(VAGUE)

    assert r["status"] == "draft_pending" and [op for op, _ in writes(r)] == ["update_deal"]
    assert "launch_rocket: unknown op" in r["user_message"]


@pytest.mark.parametrize(
    "answer",
    [
        Answer("malformed"),
        Answer.with_intents([{"op": "launch_rocket", "target": "moon"}]),
        Answer.with_intents([]),
        Answer.with_intents("update the deal"),
        Answer.with_intents([{"op": "update_deal", "deal": "Globex pilot", "stage": "Shipped"}]),
        Answer("refusal"),
    ],
    ids=["malformed-json", "only-an-unknown-op", "abstained", "not-a-list", "no-such-stage", "refusal"],
)
async def test_an_answer_with_nothing_valid_leaves_the_rules_reply(
    tmp_path: Path, provider: str, llm: FakeLLM, answer: Answer
) -> None:
    llm.script(answer)
    async with with_model(tmp_path, provider, llm) as anna:
        r = await anna.say(VAGUE)

    assert r["status"] == "needs_clarification" and r["question_id"] == "c0.domain"
    assert r["user_message"].startswith(ROUTING)
    assert llm.calls == 1


async def test_a_models_prose_is_never_shown_as_fact(tmp_path: Path, provider: str, llm: FakeLLM) -> None:
    invented = "Done! Globex pilot is now Won and the invoice was sent."
    llm.script(Answer("text", text=invented))
    async with with_model(tmp_path, provider, llm) as anna:
        r = await anna.say(VAGUE)

    assert r["status"] == "needs_clarification" and r.get("draft") is None
    assert "invoice" not in json.dumps(r, ensure_ascii=False)


# ---- a provider in trouble: the rules' reply, within the timeout ----------------------------------


async def test_a_429_is_retried_after_its_retry_after_by_the_sdk_and_then_drafts(
    tmp_path: Path, provider: str, llm: FakeLLM
) -> None:
    llm.script(Answer.error(429, **{"retry-after": "1", "retry-after-ms": "10"}), Answer.with_intents(WON))
    async with with_model(tmp_path, provider, llm) as anna:
        r = await anna.say(VAGUE)

    assert r["status"] == "draft_pending"
    assert llm.calls == 2  # one model call: the SDK's own retry of it


async def test_a_retry_after_longer_than_the_timeout_falls_back_to_the_rules(
    tmp_path: Path, provider: str, llm: FakeLLM
) -> None:
    llm.script(Answer.error(429, **{"retry-after": "30"}), Answer.with_intents(WON))
    async with with_model(tmp_path, provider, llm, timeout_s=0.5) as anna:
        r = await anna.say(VAGUE)

    assert r["status"] == "needs_clarification" and r["user_message"].startswith(ROUTING)
    assert llm.calls == 1


async def test_server_errors_after_the_sdks_bounded_retries_fall_back_to_the_rules(
    tmp_path: Path, provider: str
) -> None:
    with FakeLLM(default=Answer.error(503, **{"retry-after-ms": "5"})) as llm:
        async with with_model(tmp_path, provider, llm) as anna:
            r = await anna.say(VAGUE)

    assert r["status"] == "needs_clarification" and r["user_message"].startswith(ROUTING)
    assert llm.calls == 3  # the first try and the SDK's two retries, then no more


async def test_a_provider_that_does_not_answer_falls_back_to_the_rules_at_the_timeout(
    tmp_path: Path, provider: str, llm: FakeLLM
) -> None:
    llm.script(Answer("hang"))
    async with with_model(tmp_path, provider, llm, timeout_s=0.5) as anna:
        r = await anna.say(VAGUE)

    assert r["status"] == "needs_clarification" and r["user_message"].startswith(ROUTING)
    assert llm.calls == 1


async def test_a_provider_that_is_down_falls_back_to_the_rules(tmp_path: Path, provider: str) -> None:
    llm = FakeLLM()  # bound, never started, then closed: nothing listens on its port
    llm.stop()
    async with with_model(tmp_path, provider, llm, timeout_s=1.0) as anna:
        r = await anna.say(VAGUE)
        ok = await anna.say("Переведи сделку Globex pilot в стадию Won")

    assert r["status"] == "needs_clarification" and r["user_message"].startswith(ROUTING)
    assert ok["status"] == "draft_pending"


async def test_words_too_long_for_the_prompt_budget_are_not_sent_and_the_rules_answer(
    tmp_path: Path, llm: FakeLLM
) -> None:
    long = ("бла-бла " * 600)[:3990]  # ~8 KB of UTF-8: over 2,000 tokens with the schema
    async with with_model(tmp_path, "openai", llm) as anna:
        r = await anna.say(long)

    assert r["status"] == "needs_clarification" and r["question_id"] == "c0.domain"
    assert llm.calls == 0


async def test_every_consultation_is_counted_by_provider_and_outcome(tmp_path: Path, llm: FakeLLM) -> None:
    from toolkits.metrics import exposition

    def counted(outcome: str) -> float:
        line = f'planner_interpreter_calls_total{{outcome="{outcome}",provider="anthropic"}} '
        found = [x for x in exposition().decode().splitlines() if x.startswith(line)]
        return float(found[0].split()[-1]) if found else 0.0

    before = {o: counted(o) for o in ("ok", "abstained", "refused", "invalid")}
    llm.script(
        Answer.with_intents(WON),
        Answer.with_intents([]),
        Answer("refusal"),
        Answer.with_intents([{"op": "launch_rocket"}]),
    )
    async with with_model(tmp_path, "anthropic", llm) as anna:
        for i in range(4):
            await anna.call("plan", text=VAGUE, conversation_id=f"m{i}")

    assert {o: counted(o) - before[o] for o in before} == {
        "ok": 1,
        "abstained": 1,
        "refused": 1,
        "invalid": 1,
    }


# ---- what is sent: the words and the vocabulary, never record contents -----------------------------


async def test_the_provider_gets_the_words_the_vocabulary_and_the_clock_and_no_record_contents(
    tmp_path: Path, provider: str, llm: FakeLLM
) -> None:
    llm.script(Answer.with_intents(WON))
    async with with_model(tmp_path, provider, llm) as anna:
        await anna.say(VAGUE)

    body = sent(llm)
    for fact in (VAGUE, "Negotiation", "ENG (Engineering)", "customer-request", "Q1 Launch", "onboarding"):
        assert fact in body
    assert "2026-11-25T12:00+03:00 (Wednesday)" in body and "Europe/Moscow" in body and "language en" in body
    people = [p["name"] for p in WORKSPACE["attio"]["people"]]
    emails = [m["email"] for m in WORKSPACE["attio"]["workspace_members"]]
    titles = [i["title"] for i in WORKSPACE["linear"]["issues"]]
    others = [d["name"] for d in WORKSPACE["attio"]["deals"] if d["key"] != "globex-pilot"]
    assert [x for x in [*people, *emails, *titles, *others] if x in body] == []
    assert KEY not in body
    auth = llm.requests[0]["headers"]  # the key goes only where the SDK puts it
    assert KEY in auth.get("authorization", "") + auth.get("x-api-key", "")


async def test_the_list_shown_last_and_the_open_question_are_sent_by_their_identifiers_and_words(
    tmp_path: Path, llm: FakeLLM
) -> None:
    llm.script(Answer.with_intents([{"op": "complete_issue", "issue": "the second one", "confidence": 0.9}]))
    async with with_model(tmp_path, "openai", llm) as anna:
        listed = await anna.say("Покажи открытые задачи ENG")
        asked = await anna.say("Переведи сделку Acme в Won")  # leaves "which deal?" open
        r = await anna.say("ну та вторая, с ней всё")

    shown = [row["identifier"] for res in listed["results"] for row in res["data"]["issues"]][:2]
    body = sent(llm)
    assert f"1. {shown[0]}, 2. {shown[1]}" in body
    assert f"question left open: {asked['clarifying_question']}" in body
    labels = [c["label"] for c in asked["choices"]]  # they describe records (stage, amount): never sent
    assert labels and [label for label in labels if label in body] == [] and "50000" not in body
    second = next(i["id"] for i in WORKSPACE["linear"]["issues"] if i["identifier"] == shown[1])
    assert r["status"] == "draft_pending"
    assert [(op, args.get("issueId")) for op, args in writes(r)] == [("complete_issue", second)]


# ---- configuration ------------------------------------------------------------------------------------


def test_the_interpreter_is_off_unless_configured_and_a_bad_setting_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("PLANNER_INTERPRETER", "PLANNER_INTERPRETER_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    assert Settings.from_env().interpreter is None

    problems = []
    for env in (
        {"PLANNER_INTERPRETER": "gemini", "PLANNER_INTERPRETER_MODEL": "m"},
        {"PLANNER_INTERPRETER": "openai"},
        {"PLANNER_INTERPRETER": "openai", "PLANNER_INTERPRETER_MODEL": "m"},
        {
            "PLANNER_INTERPRETER": "anthropic",
            "PLANNER_INTERPRETER_MODEL": "m",
            "PLANNER_INTERPRETER_TIMEOUT_S": "0",
        },
    ):
        with monkeypatch.context() as m:
            for k, v in env.items():
                m.setenv(k, v)
            with pytest.raises(ValueError) as caught:
                Settings.from_env()
            problems.append(str(caught.value))
    assert "'anthropic' or 'openai'" in problems[0]
    assert "PLANNER_INTERPRETER_MODEL" in problems[1]
    assert "OPENAI_BASE_URL" in problems[2]
    assert "PLANNER_INTERPRETER_TIMEOUT_S" in problems[3]


async def test_the_standard_sdk_variables_configure_it_end_to_end(
    tmp_path: Path, provider: str, llm: FakeLLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    prefix = provider.upper()
    monkeypatch.setenv("PLANNER_INTERPRETER", provider)
    monkeypatch.setenv("PLANNER_INTERPRETER_MODEL", "fake-model-2")
    monkeypatch.setenv(f"{prefix}_API_KEY", KEY)
    monkeypatch.setenv(f"{prefix}_BASE_URL", url_of(llm, provider))
    settings = Settings.from_env()
    assert settings.interpreter_timeout_s == 5.0 and settings.interpreter == provider
    llm.script(Answer.with_intents(WON))
    async with person(settings) as anna:
        r = await anna.say(VAGUE)

    assert r["status"] == "draft_pending"
    assert llm.requests[0]["body"]["model"] == "fake-model-2"


def test_configuring_a_model_imports_no_vendor_sdk_before_the_first_call(tmp_path: Path) -> None:
    code = (
        "import sys; from server.settings import Settings; from server.wiring import build_service; "
        "from server.app import build_server; s = Settings.from_env(); build_server(build_service(s), s); "
        "print(sorted(m for m in ('anthropic', 'openai') if m in sys.modules))"
    )
    for provider in ("anthropic", "openai"):
        env = {
            **os.environ,
            "PLANNER_DB": str(tmp_path / f"{provider}.db"),
            "PLANNER_INTERPRETER": provider,
            "PLANNER_INTERPRETER_MODEL": "m",
            f"{provider.upper()}_API_KEY": KEY,
        }
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True
        )
        assert out.stdout.strip() == "[]", out.stderr


@pytest.mark.slow
async def test_the_stdio_server_asks_the_model_configured_in_its_environment(
    tmp_path: Path, llm: FakeLLM
) -> None:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    llm.script(Answer.with_intents(WON))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPOSIO_", "PLANNER_", "OPENAI_"))}
    env.update(
        PLANNER_DB=str(tmp_path / "planner.db"),
        PLANNER_INTERPRETER="openai",
        PLANNER_INTERPRETER_MODEL="fake-model-3",
        OPENAI_BASE_URL=llm.openai_url,  # a local server: no key needed
    )
    params = StdioServerParameters(
        command=str(ROOT / ".venv" / "bin" / "planner-mcp"), args=["serve"], env=env, cwd=str(ROOT)
    )
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (r, w), ClientSession(r, w) as session:
            await session.initialize()
            result = await session.call_tool("plan", {"text": VAGUE, "now": REF_NOW})
    reply = result.structured_content or {}
    assert reply["status"] == "draft_pending" and llm.calls == 1


@pytest.mark.slow
def test_the_terminal_chat_gets_the_model_from_the_environment_and_runs_what_was_confirmed(
    tmp_path: Path, llm: FakeLLM
) -> None:
    llm.script(Answer.with_intents(WON))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPOSIO_", "PLANNER_", "ANTHROPIC_"))}
    env.update(
        PLANNER_DB=str(tmp_path / "planner.db"),
        PLANNER_INTERPRETER="anthropic",
        PLANNER_INTERPRETER_MODEL="fake-model-5",
        ANTHROPIC_BASE_URL=llm.anthropic_url,
        ANTHROPIC_API_KEY=KEY,
    )
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "chat", "--now", REF_NOW],
        input=f"{VAGUE}\nyes\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )

    assert done.returncode == 0, done.stderr[-2000:]
    assert "📝 Draft" in done.stdout and "✅ Done" in done.stdout, done.stdout
    assert "Negotiation → Won" in done.stdout and llm.calls == 1
    assert KEY not in done.stdout + done.stderr


# ---- scripts/eval_interpreter.py: scoring a configured model on a corpus ---------------------------


@pytest.mark.slow
def test_the_eval_script_scores_the_configured_model_and_counts_its_wrong_drafts(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    cases = [
        {"id": "c1", "text": VAGUE, "expect": {"status": "draft_pending", "refs": ["@deal:globex-pilot"]}},
        {
            "id": "c2",
            "text": "Переведи сделку Globex pilot в стадию Won",
            "expect": {"status": "draft_pending"},
        },
        {
            "id": "c3",
            "text": "Initech went through, mark it accordingly",
            "expect": {"refs": ["@deal:initech-renewal"]},
        },
    ]
    corpus.write_text("\n".join(json.dumps(c, ensure_ascii=False) for c in cases), encoding="utf-8")
    with FakeLLM(default=Answer.with_intents(WON)) as llm:  # reads every request as Globex pilot -> Won
        env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPOSIO_", "PLANNER_", "OPENAI_"))}
        env.update(
            PLANNER_INTERPRETER="openai", PLANNER_INTERPRETER_MODEL="fake-4", OPENAI_BASE_URL=llm.openai_url
        )
        done = subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "eval_interpreter.py"), "--corpus", str(corpus)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
        )
        calls = llm.calls

    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "model: openai/fake-4" in out
    assert "WRONG DRAFT c3 [model]" in out
    assert "accuracy: 2/3 = 66.7%" in out and "wrong drafts: 1/3" in out
    assert "asked the model: 2 cases, 1/2 of them right" in out
    assert "tokens per model call: in median 900" in out and "out median 40" in out
    assert "model call ms: median" in out and "plan latency ms: all median" in out
    assert calls == 3  # the warm-up and the two cases the rules fell short on
