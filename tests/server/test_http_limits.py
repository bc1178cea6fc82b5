"""Shared capacity over Streamable HTTP is shared fairly (DESIGN §10): one token cannot open every
session the SDK allows, and a body too large to be a request is refused before it is parsed."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import httpx2
import pytest
from servers import LONG_WAIT_S, HttpServer, http_server

pytestmark = [pytest.mark.slow, pytest.mark.anyio]

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    principals = {"alice": "tokA-" + secrets.token_urlsafe(16), "bob": "tokB-" + secrets.token_urlsafe(16)}
    env = {"PLANNER_HTTP_MAX_SESSIONS": "2", "PLANNER_HTTP_MAX_BODY_BYTES": "20000"}
    with http_server(tmp_path_factory.mktemp("limits"), principals, env=env) as s:
        yield s


async def post(server: HttpServer, token: str, body: object, **headers: str) -> httpx2.Response:
    async with httpx2.AsyncClient(timeout=LONG_WAIT_S) as client:
        return await client.post(
            server.url, json=body, headers={**ACCEPT, "authorization": f"Bearer {token}", **headers}
        )


async def test_one_principal_cannot_open_more_sessions_than_its_share_and_others_still_can(
    server: HttpServer,
) -> None:
    alice, bob = server.principals["alice"], server.principals["bob"]
    opened = [await post(server, alice, INIT) for _ in range(2)]
    assert [r.status_code for r in opened] == [200, 200]
    refused = await post(server, alice, INIT)
    assert refused.status_code == 429 and "too many open sessions" in refused.text
    assert (await post(server, bob, INIT)).status_code == 200  # another principal is not locked out
    # alice closes one of hers: she may open another
    sid = opened[0].headers["mcp-session-id"]
    async with httpx2.AsyncClient(timeout=LONG_WAIT_S) as client:
        closed = await client.delete(
            server.url,
            headers={
                **ACCEPT,
                "authorization": f"Bearer {alice}",
                "mcp-session-id": sid,
                "mcp-protocol-version": "2025-06-18",
            },
        )
    assert closed.status_code < 400
    assert (await post(server, alice, INIT)).status_code == 200


async def test_a_request_body_over_the_bound_is_refused_before_it_is_parsed(server: HttpServer) -> None:
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "plan", "arguments": {"text": "T" * 30_000}}}  # fmt: skip
    r = await post(server, server.token, call)
    assert r.status_code == 413 and "T" * 100 not in r.text
