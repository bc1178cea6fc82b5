"""Streamable HTTP: who may ask, as whom, and what never leaks (extends test_transports.py's checks).

One `planner-mcp serve --http` with LOG_LEVEL=DEBUG (the chattiest its logs get) and four principals:
"http" (PLANNER_HTTP_TOKEN, delegating), two delegating bots ("bot", "bot2") and alice (acts as
herself). The tests probe authentication variants on every method and path, Origin variants, the
delegation namespace from every side, and finally search every reply body, the server's log and the
database file itself for any token, including wrong tokens that were tried.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterator
from typing import Any

import anyio
import httpx2
import pytest
from conftest import REF_NOW
from servers import LONG_WAIT_S, HttpServer, SandboxFile, http_client, http_server, reply_from

pytestmark = [pytest.mark.slow, pytest.mark.anyio]

Reply = dict[str, Any]
PROBE = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
TRIED = ["wrong-" + secrets.token_urlsafe(18) for _ in range(2)]  # tokens someone tried: never logged either


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    principals = {"alice": "tokA-" + secrets.token_urlsafe(16)}
    delegates = {"bot": "tokB-" + secrets.token_urlsafe(16), "bot2": "tokC-" + secrets.token_urlsafe(16)}
    with http_server(
        tmp_path_factory.mktemp("security"), principals, delegates=delegates, env={"LOG_LEVEL": "DEBUG"}
    ) as s:
        yield s


async def raw(
    server: HttpServer, method: str = "POST", path: str = "/mcp", headers: dict[str, str] | None = None
) -> httpx2.Response:
    url = server.url.removesuffix("/mcp") + path
    async with httpx2.AsyncClient(timeout=LONG_WAIT_S) as client:
        return await client.request(method, url, json=PROBE if method == "POST" else None, headers=headers)


def passed_the_gate(response: httpx2.Response) -> bool:
    """Past the bearer and Origin checks: the MCP endpoint itself answered (a bare `tools/list` outside
    a session is a JSON-RPC error of the protocol, not a refusal of the caller)."""
    return response.status_code not in (401, 403, 421) and "jsonrpc" in response.text


def bearer(token: str) -> dict[str, str]:
    return {**ACCEPT, "authorization": f"Bearer {token}"}


async def test_every_method_and_path_without_a_valid_bearer_token_is_refused_with_401(
    server: HttpServer,
) -> None:
    token = server.token
    refused = [
        {},
        {"authorization": "Bearer"},
        {"authorization": f"Bearer {TRIED[0]}"},
        {"authorization": f"Bearer {token}x"},  # a longer token
        {"authorization": f"Bearer {token[:-1]}"},  # a prefix of it
        {"authorization": f"Basic {token}"},
        {"authorization": token},
        {"x-api-key": token},
        {"cookie": f"token={token}"},
    ]
    with anyio.fail_after(LONG_WAIT_S):
        for headers in refused:
            for method, path in (
                ("POST", "/mcp"),
                ("GET", "/mcp"),
                ("DELETE", "/mcp"),
                ("GET", "/"),
                ("GET", "/health"),
            ):
                response = await raw(server, method, path, {**ACCEPT, **headers})
                assert response.status_code == 401, (method, path, headers.keys(), response.status_code)
                assert response.headers.get("www-authenticate", "").startswith("Bearer")
        for query in (f"?token={token}", f"?access_token={token}"):  # never in the query string
            assert (await raw(server, path="/mcp" + query, headers=ACCEPT)).status_code == 401
        scheme = await raw(server, headers={**ACCEPT, "authorization": f"bearer {token}"})  # case-insensitive
        assert passed_the_gate(scheme), scheme.text[:300]


async def test_a_foreign_origin_is_refused_even_with_a_valid_token_and_local_origins_pass(
    server: HttpServer,
) -> None:
    foreign = [
        "https://evil.example",
        "null",
        "http://localhost.evil.example",
        "http://127.0.0.1.nip.io:8765",
        "http://127.0.0.1@evil.example",
        "file://",
        "http://[::ffff:7f00:1]",
    ]
    with anyio.fail_after(LONG_WAIT_S):
        for origin in foreign:
            for headers in ({**ACCEPT, "origin": origin}, {**bearer(server.token), "origin": origin}):
                response = await raw(server, headers=headers)
                assert response.status_code == 403, (origin, response.status_code)
        for origin in ("http://localhost:3000", "http://127.0.0.1:5173"):
            response = await raw(server, headers={**bearer(server.token), "origin": origin})
            assert passed_the_gate(response), (origin, response.status_code, response.text[:200])


async def test_a_delegating_token_namespaces_its_users_and_no_other_principal_reaches_them(
    server: HttpServer,
) -> None:
    marker = "ns" + uuid.uuid4().hex[:10]
    missing = secrets.token_urlsafe(16)
    with anyio.fail_after(LONG_WAIT_S):
        async with (
            http_client(server.url, server.delegates["bot"]) as bot,
            http_client(server.url, server.delegates["bot2"]) as bot2,
            http_client(server.url, server.token) as http,
            http_client(server.url, server.principals["alice"]) as alice,
        ):

            async def ask(client: Any, tool: str, **args: Any) -> Reply:
                return reply_from(await client.call_tool(tool, args))

            made = await ask(bot, "plan", text=f"Создай задачу в Linear: {marker}", user_id="42", now=REF_NOW)
            assert made["status"] == "draft_pending", made
            draft = made["draft"]["id"]
            assert server.db is not None
            with SandboxFile(server.db) as db:
                assert db.draft(draft) == ("bot:42", "pending")
            # everyone else, under every name that might reach it, sees exactly a missing draft
            for client, user in [
                (bot2, "42"),
                (bot2, "bot:42"),
                (http, "bot:42"),
                (http, "42"),
                (alice, "bot:42"),
                (bot, "43"),
                (bot, "bot2:42"),
            ]:
                for tool in ("confirm_draft", "execute_draft", "cancel_draft"):
                    seen = await ask(client, tool, draft_id=draft, user_id=user)
                    absent = await ask(client, tool, draft_id=missing, user_id=user)
                    assert seen == absent and seen["ok"] is False, (user, tool, seen)
                listed = await ask(client, "list_drafts", user_id=user, include_finished=True)
                assert draft not in str(listed), user
                audit = await ask(client, "read_audit_log", user_id=user)
                assert marker not in str(audit), user
            # the bot reaches its own user under either spelling
            mine = await ask(bot, "read_audit_log", user_id="bot:42")
            assert {r["user_id"] for r in mine["results"]} == {"bot:42"} and marker in str(mine)
            assert (await ask(bot, "confirm_draft", draft_id=draft, user_id="bot:42"))[
                "status"
            ] == "confirmed"
            assert (await ask(bot, "execute_draft", draft_id=draft, user_id="42"))["status"] == "executed"
    with SandboxFile(server.db) as db:
        assert db.created(marker) == [("issue", marker)]
        assert db.draft(draft) == ("bot:42", "executed")


async def test_no_token_ever_appears_in_a_reply_the_server_log_or_the_database(server: HttpServer) -> None:
    bodies: list[bytes] = []
    with anyio.fail_after(LONG_WAIT_S):
        for token in TRIED:
            await raw(server, headers=bearer(token))
        for token in server.all_tokens:
            async with http_client(server.url, token, bodies) as client:
                r = reply_from(
                    await client.call_tool("plan", {"text": "Покажи ENG-101", "user_id": "u", "now": REF_NOW})
                )
                assert r["status"] == "answered", r
                d = reply_from(
                    await client.call_tool("plan", {"text": "Создай задачу в Linear: токен", "user_id": "u"})
                )
                await client.call_tool("confirm_draft", {"draft_id": d["draft"]["id"], "user_id": "u"})
                await client.call_tool("execute_draft", {"draft_id": d["draft"]["id"], "user_id": "u"})
                await client.call_tool(
                    "confirm_draft", {"draft_id": "x", "confirm_count": "seven"}
                )  # a tool error
                await client.call_tool("read_audit_log", {"user_id": "u"})
    everything = [*server.all_tokens, *TRIED]
    assert len(bodies) >= 6 * len(server.all_tokens)
    for body in bodies:
        assert not [t for t in everything if t.encode() in body], body[:300]
    log = server.log_text()
    assert "DEBUG" in log  # the server logged at its chattiest
    assert not [t for t in everything if t in log], "a token is in the server's log"
    assert server.db is not None
    for path in server.db.parent.glob(server.db.name + "*"):  # the database, its WAL and shared memory
        data = path.read_bytes()
        assert not [t for t in everything if t.encode() in data], f"a token is stored in {path.name}"
