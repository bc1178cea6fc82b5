"""End to end through real subprocesses and the real MCP client, on the sandbox workspace.

Two servers per module, started the way people start them:
- stdio, exactly as `mcp.json` says (its command, args and env), with a fresh PLANNER_DB and no Composio key;
- Streamable HTTP (`planner-mcp serve --http --port N`) with a random bearer token for the delegating
  principal "http" and two non-delegating principals, alice and bob, with a fresh PLANNER_DB.

One conversation (`full_conversation`) runs over both transports; then the promises that must hold on the
wire: exactly-once execution under concurrency, draft isolation between people, callback replay, HTTP auth
and Origin checks, and bad input that never crashes the server. Each test uses its own user ids, so the
tests stay independent while sharing one server process per transport.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import subprocess
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import anyio
import httpx2
import pytest
from conftest import REF_NOW, ROOT, WORKSPACE, free_port
from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult
from servers import LONG_WAIT_S, HttpServer, http_client, http_server, reply_from

pytestmark = [pytest.mark.slow, pytest.mark.anyio]

Reply = dict[str, Any]
Call = Callable[..., Awaitable[Reply]]

CONCURRENT_EXECUTES = 30

DEAL = {d["key"]: d for d in WORKSPACE["attio"]["deals"]}
STAGE_TITLE = {s["id"]: s["title"] for s in WORKSPACE["attio"]["deal_stages"]}
ACME_LICENSE_DEAL_ID = "dce59e09-a33e-5f53-a154-8a1e072e2620"
TRACEBACK_MARKERS = ("Traceback", 'File "', "sqlite3.", "pydantic_core")


# ---------------------------------------------------------------------------------------------
# Replies
# ---------------------------------------------------------------------------------------------


def draft_id(reply: Reply) -> str:
    draft = reply.get("draft") or {}
    assert draft.get("id"), f"no draft in reply: {reply}"
    return str(draft["id"])


def plan_id(reply: Reply) -> str:
    plan = reply.get("plan") or {}
    assert plan.get("plan_id"), f"no plan in reply: {reply}"
    return str(plan["plan_id"])


def question_id(reply: Reply) -> str:
    if reply.get("question_id"):
        return str(reply["question_id"])
    questions = (reply.get("plan") or {}).get("needs_clarification") or []
    assert questions, f"no open question in reply: {reply}"
    return str(questions[0]["id"])


def risk_kinds(reply: Reply) -> set[str]:
    return {str(r.get("kind")) for r in (reply.get("plan") or {}).get("risks") or []}


def find_dicts(obj: Any, pred: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    """Every dict nested anywhere in `obj` for which `pred` holds."""
    found: list[dict[str, Any]] = []
    if isinstance(obj, dict):
        if pred(obj):
            found.append(obj)
        for value in obj.values():
            found += find_dicts(value, pred)
    elif isinstance(obj, list):
        for value in obj:
            found += find_dicts(value, pred)
    return found


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True)


def new_marker() -> str:
    return "e2e" + uuid.uuid4().hex[:10]


def assert_no_internals(reply: Reply) -> None:
    blob = dumps(reply)
    for marker in TRACEBACK_MARKERS:
        assert marker not in blob, f"internals leaked ({marker!r}): {blob[:500]}"


# ---------------------------------------------------------------------------------------------
# Servers and clients
# ---------------------------------------------------------------------------------------------


class Endpoint(Protocol):
    """A running server and a way to reach it."""

    name: str

    async def call_tool(self, tool: str, args: dict[str, Any]) -> CallToolResult: ...

    async def call_concurrently(
        self, n: int, tool: str, args: dict[str, Any]
    ) -> list[CallToolResult | BaseException]:
        """`n` calls at once (HTTP: over `n` separate client connections)."""
        ...


def stdio_params(db: Path) -> StdioServerParameters:
    """The stdio server exactly as mcp.json starts it (command relative to the repo root), on a fresh db."""
    spec = json.loads((ROOT / "mcp.json").read_text(encoding="utf-8"))["mcpServers"]["planner"]
    command = Path(spec["command"])
    env = {**spec.get("env", {}), "PLANNER_DB": str(db)}
    assert "COMPOSIO_API_KEY" not in env, "mcp.json must not carry a Composio key: the tests need the sandbox"
    return StdioServerParameters(
        command=str(command if command.is_absolute() else ROOT / command),
        args=list(spec.get("args", [])),
        env=env,
        cwd=ROOT,
    )


@dataclass
class StdioEndpoint:
    client: Client
    name: str = "stdio"

    async def call_tool(self, tool: str, args: dict[str, Any]) -> CallToolResult:
        return await self.client.call_tool(tool, args)

    async def call_concurrently(
        self, n: int, tool: str, args: dict[str, Any]
    ) -> list[CallToolResult | BaseException]:
        return list(
            await asyncio.gather(
                *(self.client.call_tool(tool, dict(args)) for _ in range(n)), return_exceptions=True
            )
        )


@dataclass
class HttpEndpoint:
    server: HttpServer
    client: Client
    name: str = "http"
    bodies: list[bytes] = field(default_factory=list)

    async def call_tool(self, tool: str, args: dict[str, Any]) -> CallToolResult:
        result = await self.client.call_tool(tool, args)
        self._check_no_token(result)
        return result

    async def call_concurrently(
        self, n: int, tool: str, args: dict[str, Any]
    ) -> list[CallToolResult | BaseException]:
        async def one() -> CallToolResult:
            async with http_client(self.server.url, self.server.token, self.bodies) as client:
                return await client.call_tool(tool, dict(args))

        results = list(await asyncio.gather(*(one() for _ in range(n)), return_exceptions=True))
        for r in results:
            if isinstance(r, CallToolResult):
                self._check_no_token(r)
        return results

    def _check_no_token(self, result: CallToolResult) -> None:
        blob = result.model_dump_json()
        assert not any(t in blob for t in self.server.all_tokens), "a bearer token appeared in a reply"


@dataclass
class Person:
    """One person talking to a server: fills user_id, and `now` for plans."""

    endpoint: Endpoint
    user: str

    async def call(self, tool: str, **args: Any) -> Reply:
        args.setdefault("user_id", self.user)
        if tool == "plan":
            args.setdefault("now", REF_NOW)
        return reply_from(await self.endpoint.call_tool(tool, args))


# ---------------------------------------------------------------------------------------------
# Fixtures: one server per transport per module
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    """Module scope (conftest's is per test) so a server connection can live for the whole module."""
    return "asyncio"


@pytest.fixture(scope="module")
async def stdio_endpoint(
    anyio_backend: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[StdioEndpoint]:
    async with Client(stdio_params(tmp_path_factory.mktemp("stdio") / "planner.db")) as client:
        yield StdioEndpoint(client)


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    principals = {"alice": "tokA-" + secrets.token_urlsafe(12), "bob": "tokB-" + secrets.token_urlsafe(12)}
    with http_server(tmp_path_factory.mktemp("http"), principals) as server:
        yield server


@pytest.fixture(scope="module")
async def http_endpoint(anyio_backend: str, http: HttpServer) -> AsyncIterator[HttpEndpoint]:
    bodies: list[bytes] = []
    async with http_client(http.url, http.token, bodies) as client:
        yield HttpEndpoint(http, client, bodies=bodies)


@pytest.fixture(params=["stdio", "http"])
def endpoint(request: pytest.FixtureRequest) -> Endpoint:
    ep: Endpoint = request.getfixturevalue(f"{request.param}_endpoint")
    return ep


@pytest.fixture
def user() -> str:
    """A user id of this test alone."""
    return "user-" + uuid.uuid4().hex[:12]


# ---------------------------------------------------------------------------------------------
# The shared conversation
# ---------------------------------------------------------------------------------------------


async def drafted(call: Call, text: str) -> Reply:
    reply = await call("plan", text=text)
    assert reply["status"] == "draft_pending" and reply["ok"] is True, f"plan({text!r}) -> {reply}"
    draft_id(reply)
    return reply


async def confirm_and_execute(call: Call, draft: str) -> Reply:
    confirmed = await call("confirm_draft", draft_id=draft)
    assert confirmed["status"] == "confirmed" and confirmed["ok"] is True, confirmed
    executed = await call("execute_draft", draft_id=draft)
    assert executed["status"] == "executed" and executed["ok"] is True, executed
    return executed


def deal_stage_titles(reply: Reply) -> list[str]:
    """The stage titles of the deals a query answered with."""
    stages = find_dicts(reply.get("results"), lambda d: d.get("attribute_type") == "status")
    return [str(s.get("status", {}).get("title")) for s in stages]


async def issues_with(call: Call, marker: str) -> set[str]:
    """Ids of the Linear issues whose title carries `marker`, found by asking the server."""
    reply = await call("plan", text=f"Найди в Linear задачи {marker}")
    assert reply["status"] == "answered", reply
    hits = find_dicts(reply.get("results"), lambda d: "identifier" in d and marker in str(d.get("title", "")))
    return {str(h["id"]) for h in hits}


async def stage_change(call: Call) -> None:
    before = await call("plan", text="Покажи сделку Globex pilot")
    assert before["status"] == "answered" and deal_stage_titles(before) == ["Negotiation"], before
    reply = await drafted(call, "Переведи сделку Globex pilot в стадию Won")
    await confirm_and_execute(call, draft_id(reply))
    after = await call("plan", text="Покажи сделку Globex pilot")
    assert after["status"] == "answered" and after["draft"] is None, after
    assert deal_stage_titles(after) == ["Won"], after


async def issue_created(call: Call) -> None:
    marker = new_marker()
    assert await issues_with(call, marker) == set()
    reply = await drafted(call, f"Создай задачу в Linear: проверка {marker}")
    await confirm_and_execute(call, draft_id(reply))
    assert len(await issues_with(call, marker)) == 1


async def note_added(call: Call) -> None:
    reply = await drafted(call, "Add a note to John Smith: prefers calls after 3pm")
    executed = await confirm_and_execute(call, draft_id(reply))
    notes = find_dicts(
        executed["results"], lambda d: "prefers calls after 3pm" in str(d.get("content_plaintext", ""))
    )
    assert notes, f"the created note is not in the results: {executed['results']}"


async def timeblock_chain(call: Call) -> None:
    reply = await call("plan", text="Поставь блок")
    assert reply["status"] == "needs_clarification"
    assert reply["clarifying_question"] == "На сколько минут поставить блок?", reply
    reply = await call("pick", plan_id=plan_id(reply), question_id=question_id(reply), text="60")
    assert reply["clarifying_question"] == "На какое время поставить блок?", reply
    reply = await call("pick", plan_id=plan_id(reply), question_id=question_id(reply), text="завтра в 10:00")
    assert reply["status"] == "draft_pending", reply
    assert "2026-11-26T10:00" in dumps(reply["plan"]), reply["plan"]


async def ambiguous_name_picked(call: Call) -> None:
    reply = await call("plan", text="Move Acme to negotiation")
    assert reply["status"] == "needs_clarification" and reply["choices"], reply
    choice = next((c for c in reply["choices"] if "Acme Corp" in c["label"]), None)
    assert choice is not None, reply["choices"]
    assert all(len(c["value"].encode("utf-8")) <= 64 for c in reply["choices"]), reply["choices"]
    reply = await call("pick", plan_id=plan_id(reply), question_id=question_id(reply), value=choice["value"])
    assert reply["status"] == "draft_pending", reply
    assert ACME_LICENSE_DEAL_ID in dumps(reply["plan"])


async def bulk_needs_a_counted_confirmation(call: Call) -> None:
    reply = await drafted(
        call, "Create issues in DES for: intro, consent, avatar, invite, plan, import, tour"
    )
    assert "bulk" in risk_kinds(reply), reply["plan"]
    draft = draft_id(reply)
    reply = await call("confirm_draft", draft_id=draft)
    assert reply["status"] == "needs_bulk_confirmation" and reply["ok"] is False, reply
    reply = await call("execute_draft", draft_id=draft)
    assert reply["ok"] is False and reply["status"] not in ("executed", "partially_executed"), reply
    reply = await call("confirm_draft", draft_id=draft, confirm_count=6)
    assert reply["status"] != "confirmed" and reply["ok"] is False, reply
    reply = await call("confirm_draft", draft_id=draft, confirm_count=7)
    assert reply["status"] == "confirmed", reply
    reply = await call("execute_draft", draft_id=draft)
    assert reply["status"] == "executed", reply
    created = {
        str(d["identifier"]) for d in find_dicts(reply["results"], lambda d: bool(d.get("identifier")))
    }
    assert len(created) == 7 and all(i.startswith("DES-") for i in created), created


async def delete_needs_confirmation(call: Call) -> None:
    reply = await drafted(call, "Удали ENG-102")
    assert "destructive" in risk_kinds(reply), reply["plan"]
    draft = draft_id(reply)
    refused = await call("execute_draft", draft_id=draft)
    assert refused["ok"] is False and refused["status"] not in ("executed", "partially_executed"), refused
    shown = await call("plan", text="Покажи ENG-102")
    assert find_dicts(
        shown["results"], lambda d: d.get("identifier") == "ENG-102" and d.get("archivedAt") is None
    )
    executed = await confirm_and_execute(call, draft)
    assert find_dicts(executed["results"], lambda d: d.get("identifier") == "ENG-102" and d.get("archivedAt"))


async def query_answered_at_once(call: Call) -> None:
    reply = await call("plan", text="Покажи мои задачи в Linear")
    assert reply["status"] == "answered" and reply["ok"] is True, reply
    assert reply["draft"] is None
    assert find_dicts(reply["results"], lambda d: bool(d.get("identifier"))), reply["results"]


async def full_conversation(call: Call) -> None:
    """What a person does in one sitting; `call(tool, **args)` returns the structured reply."""
    await stage_change(call)
    await issue_created(call)
    await note_added(call)
    await timeblock_chain(call)
    await ambiguous_name_picked(call)
    await bulk_needs_a_counted_confirmation(call)
    await delete_needs_confirmation(call)
    await query_answered_at_once(call)


# ---------------------------------------------------------------------------------------------
# Tests over both transports
# ---------------------------------------------------------------------------------------------


async def test_a_whole_conversation_works_the_same_over_each_transport(endpoint: Endpoint, user: str) -> None:
    with anyio.fail_after(LONG_WAIT_S):
        await full_conversation(Person(endpoint, user).call)


async def test_executing_a_draft_twice_returns_the_same_results_and_creates_one_issue(
    endpoint: Endpoint, user: str
) -> None:
    anna = Person(endpoint, user)
    marker = new_marker()
    with anyio.fail_after(LONG_WAIT_S):
        draft = draft_id(await drafted(anna.call, f"Создай задачу в Linear: дважды {marker}"))
        first = await confirm_and_execute(anna.call, draft)
        second = await anna.call("execute_draft", draft_id=draft)
        assert second["status"] == "executed"
        assert dumps(first["results"]) == dumps(second["results"])
        assert len(await issues_with(anna.call, marker)) == 1


async def test_thirty_concurrent_executes_of_one_draft_create_exactly_one_issue(
    endpoint: Endpoint, user: str
) -> None:
    anna = Person(endpoint, user)
    marker = new_marker()
    with anyio.fail_after(LONG_WAIT_S):
        draft = draft_id(await drafted(anna.call, f"Создай задачу в Linear: одновременно {marker}"))
        assert (await anna.call("confirm_draft", draft_id=draft))["status"] == "confirmed"
        results = await endpoint.call_concurrently(
            CONCURRENT_EXECUTES, "execute_draft", {"draft_id": draft, "user_id": user}
        )
        errors = [r for r in results if isinstance(r, BaseException) or r.is_error]
        assert errors == [], errors
        replies = [reply_from(r) for r in results if isinstance(r, CallToolResult)]
        assert {r["status"] for r in replies} <= {"executed", "executing"}, [r["status"] for r in replies]
        assert len(await issues_with(anna.call, marker)) == 1
        assert (await anna.call("execute_draft", draft_id=draft))["status"] == "executed"


async def test_another_users_draft_answers_exactly_like_a_missing_one(endpoint: Endpoint, user: str) -> None:
    owner, stranger = Person(endpoint, user), Person(endpoint, user + "-mallory")
    with anyio.fail_after(LONG_WAIT_S):
        draft = draft_id(await drafted(owner.call, "Удали ENG-104"))
        missing = secrets.token_urlsafe(16)
        for tool in ("confirm_draft", "execute_draft", "cancel_draft"):
            seen = await stranger.call(tool, draft_id=draft)
            absent = await stranger.call(tool, draft_id=missing)
            assert seen["ok"] is False and absent["ok"] is False, (seen, absent)
            assert (seen["ok"], seen["status"], seen["user_message"]) == (
                absent["ok"],
                absent["status"],
                absent["user_message"],
            )
            assert seen == absent, f"{tool}: a stranger's draft answers differently from a missing one"
        listed = await stranger.call("list_drafts", include_finished=True)
        assert draft not in dumps(listed)
        assert (await owner.call("confirm_draft", draft_id=draft))["status"] == "confirmed"


async def test_a_repeated_callback_id_replays_the_reply_and_does_nothing_more(
    endpoint: Endpoint, user: str
) -> None:
    anna = Person(endpoint, user)
    marker = new_marker()
    confirm_cb, execute_cb = f"tg:callback:{uuid.uuid4().hex}", f"tg:callback:{uuid.uuid4().hex}"
    with anyio.fail_after(LONG_WAIT_S):
        draft = draft_id(await drafted(anna.call, f"Создай задачу в Linear: колбэк {marker}"))
        first = await anna.call("confirm_draft", draft_id=draft, callback_id=confirm_cb)
        again = await anna.call("confirm_draft", draft_id=draft, callback_id=confirm_cb)
        assert first["status"] == "confirmed"
        assert dumps(first) == dumps(again)
        first = await anna.call("execute_draft", draft_id=draft, callback_id=execute_cb)
        assert first["status"] == "executed"
        assert len(await issues_with(anna.call, marker)) == 1
        again = await anna.call("execute_draft", draft_id=draft, callback_id=execute_cb)
        assert dumps(first) == dumps(again)
        assert len(await issues_with(anna.call, marker)) == 1


# ---------------------------------------------------------------------------------------------
# Streamable HTTP: who is asking
# ---------------------------------------------------------------------------------------------


async def test_http_refuses_requests_without_a_valid_token_or_from_a_foreign_origin(http: HttpServer) -> None:
    probe = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    accept = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    with anyio.fail_after(LONG_WAIT_S):
        async with httpx2.AsyncClient(timeout=LONG_WAIT_S) as raw:
            no_token = await raw.post(http.url, json=probe, headers=accept)
            wrong = await raw.post(
                http.url, json=probe, headers={**accept, "authorization": "Bearer not-the-token"}
            )
            not_bearer = await raw.post(http.url, json=probe, headers={**accept, "authorization": http.token})
            evil = await raw.post(
                http.url,
                json=probe,
                headers={**accept, "authorization": f"Bearer {http.token}", "origin": "https://evil.example"},
            )
            rebound = await raw.post(
                http.url,
                json=probe,
                headers={**accept, "authorization": f"Bearer {http.token}", "host": "evil.example"},
            )
    assert no_token.status_code == 401
    assert wrong.status_code == 401
    assert not_bearer.status_code == 401
    assert evil.status_code == 403
    assert rebound.status_code == 421  # DNS rebinding: a foreign Host header
    for response in (no_token, wrong, not_bearer, evil, rebound):
        assert not any(t in response.text for t in http.all_tokens)
        assert not any(t in str(response.headers) for t in http.all_tokens)


async def test_http_never_echoes_a_token_in_any_reply_body(http: HttpServer, user: str) -> None:
    bodies: list[bytes] = []
    with anyio.fail_after(LONG_WAIT_S):
        async with (
            http_client(http.url, http.token, bodies) as bot,
            http_client(http.url, http.principals["alice"], bodies) as alice,
        ):
            replies = [
                await bot.call_tool("plan", {"text": "Покажи ENG-101", "user_id": user, "now": REF_NOW}),
                await bot.call_tool("plan", {"text": "Создай задачу в Linear: токен", "user_id": user}),
                await bot.call_tool("confirm_draft", {"draft_id": "no-such-draft", "user_id": user}),
                await bot.call_tool("confirm_draft", {"draft_id": "x", "confirm_count": "seven"}),
                await bot.call_tool("pick", {"plan_id": "p_nope", "question_id": "q", "text": "1"}),
                await alice.call_tool("list_drafts", {"user_id": "bob"}),
                await alice.call_tool("read_audit_log", {}),
            ]
    assert not replies[0].is_error and reply_from(replies[0])["status"] == "answered"
    assert replies[3].is_error
    assert len(bodies) >= len(replies)
    for body in bodies:
        assert not any(t.encode() in body for t in http.all_tokens), body[:300]


async def test_http_principal_without_delegation_cannot_reach_anothers_draft_even_by_naming_them(
    http: HttpServer,
) -> None:
    marker = new_marker()
    missing = secrets.token_urlsafe(16)
    with anyio.fail_after(LONG_WAIT_S):
        async with (
            http_client(http.url, http.principals["alice"]) as alice_client,
            http_client(http.url, http.principals["bob"]) as bob_client,
            http_client(http.url, http.token) as bot_client,
        ):

            async def as_(client: Client, tool: str, **args: Any) -> Reply:
                return reply_from(await client.call_tool(tool, args))

            reply = await as_(
                alice_client, "plan", text=f"Создай задачу в Linear: алиса {marker}", now=REF_NOW
            )
            assert reply["status"] == "draft_pending", reply
            draft = draft_id(reply)
            for client in (bob_client, bot_client):  # bob, and the bot acting for a user called "alice"
                for tool in ("confirm_draft", "execute_draft"):
                    seen = await as_(client, tool, draft_id=draft, user_id="alice")
                    absent = await as_(client, tool, draft_id=missing, user_id="alice")
                    assert seen["ok"] is False and seen == absent, (tool, seen, absent)
                listed = await as_(client, "list_drafts", user_id="alice", include_finished=True)
                assert draft not in dumps(listed)
            # alice is alice whatever user_id she passes: her token decides
            confirmed = await as_(alice_client, "confirm_draft", draft_id=draft, user_id="bob")
            assert confirmed["status"] == "confirmed", confirmed
            executed = await as_(alice_client, "execute_draft", draft_id=draft)
            assert executed["status"] == "executed", executed


def test_http_server_refuses_to_start_without_a_token(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPOSIO_", "PLANNER_"))}
    env["PLANNER_DB"] = str(tmp_path / "planner.db")
    done = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "planner-mcp"), "serve", "--http", "--port", str(free_port())],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=LONG_WAIT_S,
    )
    assert done.returncode != 0
    assert b"PLANNER_HTTP_TOKEN" in done.stderr


async def test_http_x_timezone_header_sets_the_timezone_of_relative_dates(
    http: HttpServer, user: str
) -> None:
    with anyio.fail_after(LONG_WAIT_S):
        async with http_client(http.url, http.token, headers={"X-Timezone": "Asia/Tokyo"}) as bot:
            reply = reply_from(
                await bot.call_tool(
                    "plan",
                    {"text": "Поставь блок на 60 минут завтра в 10:00", "user_id": user, "now": REF_NOW},
                )
            )
    assert reply["status"] == "draft_pending", reply
    assert reply["plan"]["timezone"] == "Asia/Tokyo"
    assert "2026-11-26T10:00:00+09:00" in dumps(reply["plan"]["actions"])


# ---------------------------------------------------------------------------------------------
# stdio: bad input never breaks the server
# ---------------------------------------------------------------------------------------------


async def test_bad_input_over_stdio_gets_clear_errors_and_the_server_keeps_answering(
    stdio_endpoint: StdioEndpoint, user: str
) -> None:
    anna = Person(stdio_endpoint, user)
    with anyio.fail_after(LONG_WAIT_S):
        huge = await anna.call("plan", text="x" * 20_000)
        assert huge["ok"] is False and huge["user_message"], huge
        assert_no_internals(huge)

        unknown_draft = await anna.call("confirm_draft", draft_id="does-not-exist")
        assert unknown_draft["ok"] is False and unknown_draft["status"] != "confirmed", unknown_draft

        malformed = await anna.call(
            "plan", command={"intent": "task_create", "confidence": "high", "entities": []}
        )
        assert malformed["ok"] is False and malformed["draft"] is None, malformed
        assert_no_internals(malformed)

        unknown_plan = await anna.call(
            "pick", plan_id="p_does_not_exist", question_id="c0.duration", text="60"
        )
        assert unknown_plan["ok"] is False and unknown_plan.get("draft") is None, unknown_plan

        for tool, args in [
            ("confirm_draft", {"draft_id": "x", "confirm_count": "seven"}),
            ("execute_draft", {"draft_id": ["not", "a", "string"]}),
            ("execute_draft", {"draft_id": "x", "dry_run": {"maybe": True}}),
            ("pick", {"question_id": "q"}),
            ("confirm_draft", {"draft_id": "d" * 10_000}),
        ]:
            result = await stdio_endpoint.call_tool(tool, {"user_id": user, **args})
            assert result.is_error, f"{tool}({args}) was not refused: {result}"
            assert_no_internals(reply_from(result))

        healthy = await anna.call("plan", text="Покажи ENG-101")
        assert healthy["status"] == "answered" and healthy["ok"] is True, healthy
        assert find_dicts(healthy["results"], lambda d: d.get("identifier") == "ENG-101")
