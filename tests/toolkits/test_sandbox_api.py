"""The real composio SDK, and ComposioBackend on it, against the sandbox served in Composio's REST shape."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tenacity import AsyncRetrying, stop_after_attempt, wait_none

from toolkits.base import Backend
from toolkits.composio_backend import ComposioBackend, is_keyed_write, is_write_call
from toolkits.errors import (
    InvalidArguments,
    NotConnected,
    OutcomeUnknown,
    UpstreamRejected,
    UpstreamUnavailable,
)
from toolkits.linear import ISSUE_CREATE_MUTATION
from toolkits.registry import versions
from toolkits.sandbox import SandboxBackend
from toolkits.sandbox_api import SandboxAccounts, build_app, run_in_thread
from toolkits.sandbox_api_faults import HttpFault

ROOT = Path(__file__).resolve().parents[2]
WORKSPACE = json.loads((ROOT / "toolkits" / "data" / "workspace.json").read_text(encoding="utf-8"))
ENG = next(t["id"] for t in WORKSPACE["linear"]["teams"] if t["key"] == "ENG")
API_KEY = "ak_sandbox_canary_7f3e"
pytestmark = pytest.mark.anyio
ISSUE_QUERY = "query Issue($id: String!) { issue(id: $id) { id identifier title } }"


class Sandbox:
    """One served sandbox for the module; faults and the request log are reset per test."""

    def __init__(self, backend: SandboxBackend, url: str, app: Any) -> None:
        self.backend, self.url, self.app = backend, url, app

    def fault(self, **spec: Any) -> None:
        self.app.state.faults.add(HttpFault.from_json(spec))

    def executes(self, slug: str) -> int:
        return sum(1 for r in self.app.state.requests if r["route"] == "execute" and r["slug"] == slug)


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sandbox]:
    backend = SandboxBackend(tmp_path_factory.mktemp("api") / "sandbox.db")
    every = ("attio", "linear", "googlecalendar")
    accounts = SandboxAccounts({"default": every, "eval": every, "anna": ("attio", "googlecalendar")})
    accounts.connect("anna", "linear", "ca_linear_1")
    app = build_app(backend, api_key=API_KEY, accounts=accounts)
    with run_in_thread(app) as url:
        yield Sandbox(backend, url, app)
    asyncio.run(backend.aclose())


@pytest.fixture(autouse=True)
def _fresh_faults(sandbox: Sandbox) -> None:
    sandbox.app.state.faults.clear()
    sandbox.app.state.requests.clear()


class Sleeps(list[float]):
    """A tenacity `sleep` that records instead of waiting."""

    async def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


def composio(sandbox: Sandbox, sleeps: Sleeps, *, api_key: str = API_KEY, **kwargs: Any) -> ComposioBackend:
    """A backend on the served sandbox whose retries record their waits instead of sleeping."""
    kwargs.setdefault("timeout", 2.0)
    retrying = AsyncRetrying(wait=wait_none(), sleep=sleeps, stop=stop_after_attempt(4))
    return ComposioBackend(api_key, base_url=sandbox.url, retrying=retrying, **kwargs)


def issue_create(title: str) -> dict[str, Any]:
    return {
        "query_or_mutation": ISSUE_CREATE_MUTATION,
        "variables": {"input": {"id": str(uuid.uuid4()), "teamId": ENG, "title": title}},
    }


# --- the real SDK, as the acceptance script drives it ---------------------------------------------


def test_the_real_sdk_passes_the_acceptance_checks(sandbox: Sandbox) -> None:
    from composio import Composio

    c = Composio(api_key=API_KEY, base_url=sandbox.url, allow_tracking=False, toolkit_versions=versions())
    r = c.tools.execute("LINEAR_SEARCH_ISSUES", {"query": "login"}, user_id="eval")
    assert r["successful"] and "ENG-101" in json.dumps(r["data"])
    title = f"sdk check {uuid.uuid4().hex[:6]}"
    assert c.tools.execute("LINEAR_CREATE_LINEAR_ISSUE", {"team_id": ENG, "title": title}, user_id="eval")[
        "successful"
    ]
    r = c.tools.execute("LINEAR_SEARCH_ISSUES", {"query": title}, user_id="eval")
    assert title in json.dumps(r["data"])
    r = c.tools.execute(
        "ATTIO_SEARCH_RECORDS",
        {"query": "Globex", "objects": ["companies", "deals"], "request_as": "workspace"},
        user_id="eval",
    )
    assert r["successful"] and "Globex" in json.dumps(r["data"])
    r = c.tools.execute("LINEAR_CREATE_LINEAR_ISSUE", {"title": "no team"}, user_id="eval")
    assert r["successful"] is False and "team_id" in str(r["error"])
    tool = c.tools.get_raw_composio_tool_by_slug("LINEAR_UPDATE_ISSUE")
    assert tool.version == versions()["linear"] and "issueId" in tool.input_parameters["properties"]
    listed = c.tools.get_raw_composio_tools(tools=["ATTIO_FIND_RECORD", "LINEAR_SEARCH_ISSUES"])
    assert {t.slug for t in listed} == {"ATTIO_FIND_RECORD", "LINEAR_SEARCH_ISSUES"}


def test_http_errors_carry_composios_envelope(sandbox: Sandbox) -> None:
    with httpx.Client(base_url=sandbox.url) as http:
        missing_key = http.get("/api/v3.1/tools/LINEAR_SEARCH_ISSUES")
        unknown = http.get("/api/v3.1/tools/LINEAR_NOPE", headers={"x-api-key": API_KEY})
        other_version = http.get(
            "/api/v3.1/tools/LINEAR_SEARCH_ISSUES?toolkit_versions[linear]=20990101_00",
            headers={"x-api-key": API_KEY},
        )
        bad_fault = http.post(
            "/_faults", json={"faults": [{"kind": "meteor"}]}, headers={"x-api-key": API_KEY}
        )
    assert missing_key.status_code == 401 and missing_key.json()["error"]["status"] == 401
    assert unknown.status_code == 404 and unknown.json()["error"]["slug"] == "TOOL_NOT_FOUND"
    assert other_version.status_code == 404 and "20990101_00" in other_version.json()["error"]["message"]
    assert bad_fault.status_code == 400 and "kind" in bad_fault.json()["error"]["message"]
    assert API_KEY not in json.dumps(list(sandbox.app.state.requests))


# --- ComposioBackend: results, retries and the error classification --------------------------------


async def test_a_read_and_a_write_go_over_the_wire_with_the_users_account(
    sandbox: Sandbox, sleeps: Sleeps
) -> None:
    backend = composio(sandbox, sleeps, user_id="anna", connected_accounts={"linear": "ca_linear_1"})
    assert isinstance(backend, Backend) and backend.name == "composio"
    try:
        found = await backend.execute("LINEAR_SEARCH_ISSUES", {"query": "login"})
        created = await backend.execute("LINEAR_RUN_QUERY_OR_MUTATION", issue_create("over the wire"))
    finally:
        await backend.aclose()
    assert found["successful"] and "ENG-101" in json.dumps(found["data"])
    assert created["data"]["issueCreate"]["issue"]["title"] == "over the wire"
    sent = [r for r in sandbox.app.state.requests if r["route"] == "execute"]
    assert {(r["user_id"], r["version"], r["connected_account_id"]) for r in sent} == {
        ("anna", versions()["linear"], "ca_linear_1")
    }


async def test_a_429_is_waited_out_for_its_retry_after_then_succeeds(
    sandbox: Sandbox, sleeps: Sleeps
) -> None:
    sandbox.fault(kind="status", status=429, retry_after=1.5, times=2, slug="LINEAR_CREATE_LINEAR_COMMENT")
    backend = composio(sandbox, sleeps)
    issue = WORKSPACE["linear"]["issues"][0]["id"]
    try:
        r = await backend.execute(
            "LINEAR_CREATE_LINEAR_COMMENT", {"issueId": issue, "body": "after the limit"}
        )
    finally:
        await backend.aclose()
    # a write, but a 429 applied nothing: safe to repeat
    assert r["successful"] and sleeps == [1.5, 1.5] and sandbox.executes("LINEAR_CREATE_LINEAR_COMMENT") == 3
    comments = [a for s, a in sandbox.backend.write_calls if s == "LINEAR_CREATE_LINEAR_COMMENT"]
    assert [c["body"] for c in comments].count("after the limit") == 1


async def test_a_retry_after_beyond_the_cap_is_reported_not_waited(sandbox: Sandbox, sleeps: Sleeps) -> None:
    sandbox.fault(kind="status", status=429, retry_after=120, times=1)
    backend = composio(sandbox, sleeps)
    try:
        with pytest.raises(UpstreamUnavailable) as caught:
            await backend.execute("LINEAR_SEARCH_ISSUES", {"query": "login"})
    finally:
        await backend.aclose()
    assert caught.value.retry_after == 120 and sleeps == []


async def test_arguments_that_do_not_fit_fail_at_once_and_nothing_is_sent(
    sandbox: Sandbox, sleeps: Sleeps
) -> None:
    backend = composio(sandbox, sleeps)
    try:
        with pytest.raises(InvalidArguments) as caught:
            await backend.execute("LINEAR_CREATE_LINEAR_ISSUE", {"title": "no team"})
    finally:
        await backend.aclose()
    assert "missing required argument 'team_id'" in str(caught.value)
    assert len(sandbox.app.state.requests) == 0 and sleeps == []


async def test_a_422_is_rejected_with_its_message_and_never_retried(sandbox: Sandbox, sleeps: Sleeps) -> None:
    sandbox.fault(kind="status", status=422, times=3)
    backend = composio(sandbox, sleeps)
    try:
        with pytest.raises(UpstreamRejected) as caught:
            await backend.execute("LINEAR_SEARCH_ISSUES", {"query": "login"})
    finally:
        await backend.aclose()
    assert "HTTP 422" in str(caught.value) and "Injected HTTP 422" in str(caught.value)
    assert sandbox.executes("LINEAR_SEARCH_ISSUES") == 1 and sleeps == []


async def test_a_tool_level_failure_is_a_result_not_an_error(sandbox: Sandbox, sleeps: Sleeps) -> None:
    backend = composio(sandbox, sleeps)
    missing = "00000000-0000-4000-8000-000000000000"
    try:
        r = await backend.execute("LINEAR_LIST_LINEAR_STATES", {"team_id": missing})
    finally:
        await backend.aclose()
    assert r["successful"] is False and r["error"] and sleeps == []


async def test_a_5xx_on_a_read_is_retried_and_succeeds(sandbox: Sandbox, sleeps: Sleeps) -> None:
    sandbox.fault(kind="status", status=503, times=1, slug="LINEAR_SEARCH_ISSUES")
    sandbox.fault(kind="status", status=500, times=1, slug="LINEAR_SEARCH_ISSUES")
    backend = composio(sandbox, sleeps)
    try:
        r = await backend.execute("LINEAR_SEARCH_ISSUES", {"query": "login"})
    finally:
        await backend.aclose()
    assert r["successful"] and sandbox.executes("LINEAR_SEARCH_ISSUES") == 3 and len(sleeps) == 2


async def test_a_5xx_on_an_unkeyed_write_is_an_unknown_outcome_and_not_retried(
    sandbox: Sandbox, sleeps: Sleeps
) -> None:
    sandbox.fault(kind="status", status=502, times=1)
    backend = composio(sandbox, sleeps)
    try:
        with pytest.raises(OutcomeUnknown):
            await backend.execute("LINEAR_CREATE_LINEAR_ISSUE", {"team_id": ENG, "title": "maybe"})
    finally:
        await backend.aclose()
    assert sandbox.executes("LINEAR_CREATE_LINEAR_ISSUE") == 1 and sleeps == []


async def test_a_timeout_after_linear_applied_the_create_is_an_unknown_outcome(
    sandbox: Sandbox, sleeps: Sleeps
) -> None:
    sandbox.fault(kind="timeout_after_write", seconds=30, slug="LINEAR_RUN_QUERY_OR_MUTATION")
    backend = composio(sandbox, sleeps, timeout=0.5)
    args = issue_create("applied, answer lost")
    issue_id = args["variables"]["input"]["id"]
    try:
        with pytest.raises(OutcomeUnknown) as caught:
            await backend.execute("LINEAR_RUN_QUERY_OR_MUTATION", args)
        # what the executor's reconciliation does next: read back by the client-chosen id
        read_back = await backend.execute(
            "LINEAR_RUN_QUERY_OR_MUTATION", {"query_or_mutation": ISSUE_QUERY, "variables": {"id": issue_id}}
        )
        again = await backend.execute("LINEAR_RUN_QUERY_OR_MUTATION", args)
    finally:
        await backend.aclose()
    assert "may or may not have been applied" in str(caught.value) and sleeps == []
    assert read_back["data"]["issue"]["title"] == "applied, answer lost"
    # a repeat is harmless: Linear refuses a used id, so there is still exactly one issue
    assert again["successful"] is False and "already exists" in str(again["error"])


@pytest.mark.parametrize(("kind", "applied"), [("drop_before_write", False), ("timeout_after_write", True)])
async def test_a_dropped_connection_on_a_write_is_an_unknown_outcome(
    sandbox: Sandbox, sleeps: Sleeps, kind: str, applied: bool
) -> None:
    sandbox.fault(kind=kind, drop=True, slug="LINEAR_CREATE_LINEAR_ISSUE")
    backend = composio(sandbox, sleeps)
    title = f"dropped {uuid.uuid4().hex[:6]}"
    try:
        with pytest.raises(OutcomeUnknown):
            await backend.execute("LINEAR_CREATE_LINEAR_ISSUE", {"team_id": ENG, "title": title})
        found = await backend.execute("LINEAR_SEARCH_ISSUES", {"query": title})
    finally:
        await backend.aclose()
    assert (title in json.dumps(found["data"])) is applied and sleeps == []


async def test_a_keyed_write_is_retried_through_a_provider_rate_limit(
    sandbox: Sandbox, sleeps: Sleeps
) -> None:
    sandbox.fault(kind="tool_error", times=1, slug="LINEAR_RUN_QUERY_OR_MUTATION")
    sandbox.fault(kind="tool_error", times=1, slug="LINEAR_CREATE_LINEAR_ISSUE")
    backend = composio(sandbox, sleeps)
    try:
        keyed = await backend.execute("LINEAR_RUN_QUERY_OR_MUTATION", issue_create("keyed"))
        with pytest.raises(UpstreamUnavailable) as unkeyed:
            await backend.execute("LINEAR_CREATE_LINEAR_ISSUE", {"team_id": ENG, "title": "unkeyed"})
    finally:
        await backend.aclose()
    assert keyed["successful"] and len(sleeps) == 1
    assert not isinstance(unkeyed.value, OutcomeUnknown) and "rate limit" in str(unkeyed.value)


async def test_a_tool_failure_that_merely_mentions_429_is_not_a_rate_limit(
    sandbox: Sandbox, sleeps: Sleeps
) -> None:
    sandbox.fault(kind="tool_error", times=1, message="Issue ENG-429 not found")
    backend = composio(sandbox, sleeps)
    try:
        r = await backend.execute("LINEAR_GET_LINEAR_ISSUE", {"issue_id": "ENG-429"})
    finally:
        await backend.aclose()
    assert r == {"data": {}, "error": "Issue ENG-429 not found", "successful": False} and sleeps == []


async def test_an_unreachable_composio_is_unavailable_and_a_write_is_retried(sleeps: Sleeps) -> None:
    from conftest import free_port

    closed = f"http://127.0.0.1:{free_port()}"
    backend = ComposioBackend(
        API_KEY,
        base_url=closed,
        retrying=AsyncRetrying(wait=wait_none(), sleep=sleeps, stop=stop_after_attempt(3)),
    )
    try:
        with pytest.raises(UpstreamUnavailable) as caught:
            await backend.execute("LINEAR_CREATE_LINEAR_ISSUE", {"team_id": ENG, "title": "never sent"})
    finally:
        await backend.aclose()
    assert not isinstance(caught.value, OutcomeUnknown) and len(sleeps) == 2


async def test_a_refused_key_is_not_connected_and_never_named(sandbox: Sandbox, sleeps: Sleeps) -> None:
    wrong = "ak_wrong_canary_91c2"
    backend = composio(sandbox, sleeps, api_key=wrong, connected_accounts={"linear": "ca_secret_canary"})
    try:
        with pytest.raises(NotConnected) as caught:
            await backend.execute("LINEAR_SEARCH_ISSUES", {"query": "login"})
    finally:
        await backend.aclose()
    text = f"{caught.value!s} {caught.value!r} {backend!r}"
    assert "HTTP 401" in text and wrong not in text and "ca_secret_canary" not in text and sleeps == []


def test_writes_and_keys_are_classified_from_the_call() -> None:
    assert not is_write_call("LINEAR_SEARCH_ISSUES", {"query": "x"})
    assert not is_write_call("LINEAR_RUN_QUERY_OR_MUTATION", {"query_or_mutation": ISSUE_QUERY})
    assert is_write_call("LINEAR_RUN_QUERY_OR_MUTATION", issue_create("x"))
    assert is_write_call("LINEAR_RUN_QUERY_OR_MUTATION", {"query_or_mutation": "mutation { commentCreate }"})
    assert is_keyed_write("LINEAR_RUN_QUERY_OR_MUTATION", issue_create("x"))
    assert not is_keyed_write("LINEAR_RUN_QUERY_OR_MUTATION", {"query_or_mutation": ISSUE_CREATE_MUTATION})
    assert is_keyed_write("ATTIO_ASSERT_COMPANY", {"matching_attribute": "domains", "domain": "a.io"})
    assert not is_keyed_write("ATTIO_CREATE_NOTE", {})


def test_the_network_guard_refuses_anything_but_loopback(no_network: list[str]) -> None:
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("192.0.2.1", 443), timeout=1)
    with pytest.raises(socket.gaierror):
        socket.getaddrinfo("telemetry.composio.dev", 443)
    with pytest.raises(httpx.ConnectError):
        httpx.get("https://backend.composio.dev/api/v3.1/tools")
    assert no_network == [
        "connect 192.0.2.1:443",
        "resolve telemetry.composio.dev",
        "resolve backend.composio.dev",
    ]
    no_network.clear()  # refused and recorded, as it should be: do not fail this test at teardown


# --- telemetry and the import budget ---------------------------------------------------------------


async def test_composio_telemetry_stays_off_even_from_a_plain_thread(
    sandbox: Sandbox, sleeps: Sleeps, monkeypatch: pytest.MonkeyPatch
) -> None:
    import composio.core.models.base as sdk_base

    events: list[Any] = []
    monkeypatch.setattr(sdk_base, "push_event", lambda event: events.append(event))
    backend = composio(sandbox, sleeps)
    outcome: list[Any] = []

    def in_a_plain_thread() -> None:  # a fresh context: allow_tracking would be back at its default
        outcome.append(asyncio.run(backend.execute("LINEAR_SEARCH_ISSUES", {"query": "login"})))

    try:
        await backend.execute("LINEAR_SEARCH_ISSUES", {"query": "login"})
        worker = threading.Thread(target=in_a_plain_thread)
        worker.start()
        await asyncio.to_thread(worker.join)
        assert outcome and outcome[0]["successful"]
    finally:
        await backend.aclose()
    assert events == []


def test_importing_the_backend_does_not_import_composio() -> None:
    code = "import toolkits.composio_backend, toolkits.sandbox_api, sys; print('composio' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.slow
def test_the_cli_serves_the_sandbox_api_in_a_subprocess(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "server.cli", "sandbox-api", "--port", "0", "--db", str(tmp_path / "s.db")]
    proc = subprocess.Popen(cmd, cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()  # printed once the socket listens: no polling
        url = line.rsplit(" ", 1)[-1].strip()
        assert url.startswith("http://127.0.0.1:"), line
        from composio import Composio
        from composio_client import RateLimitError

        c = Composio(api_key="ak_cli", base_url=url, allow_tracking=False, toolkit_versions=versions())
        httpx.post(
            f"{url}/_faults",
            json={"faults": [{"kind": "status", "status": 429, "retry_after": 1}]},
            headers={"x-api-key": "ak_cli"},
        ).raise_for_status()
        with pytest.raises(RateLimitError):
            c.tools.execute("LINEAR_SEARCH_ISSUES", {"query": "login"}, user_id="default")
        r = c.tools.execute("LINEAR_SEARCH_ISSUES", {"query": "login"}, user_id="default")
        assert r["successful"] and "ENG-101" in json.dumps(r["data"])
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        if proc.stderr is not None:
            proc.stderr.close()


# --- Composio's refusals, as a person must read them (issue 13) ------------------------------------


async def test_no_connected_account_is_not_connected_naming_the_command_that_connects_it(
    sandbox: Sandbox, sleeps: Sleeps
) -> None:
    backend = composio(sandbox, sleeps, user_id="nobody-connected")
    try:
        with pytest.raises(NotConnected) as caught:
            await backend.execute("LINEAR_SEARCH_ISSUES", {"query": "login"})
    finally:
        await backend.aclose()
    error = caught.value
    assert (error.reason, error.toolkit, error.user_id, error.fix) == (
        "not_connected",
        "linear",
        "nobody-connected",
        "planner-mcp connect linear",
    )
    assert str(error).startswith("Linear is not connected for Composio user 'nobody-connected'")
    [sent] = [r for r in sandbox.app.state.requests if r["route"] == "execute"]
    assert error.request_id == sent["request_id"] and sleeps == []  # never retried


async def test_another_refusal_passes_on_composios_message_and_suggested_fix_without_secrets(
    sandbox: Sandbox, sleeps: Sleeps
) -> None:
    sandbox.fault(
        kind="status",
        status=422,
        code=1905,
        message=f"Invalid arguments for ca_9XyZsecret1 (key {API_KEY})",
        suggested_fix="Check the tool's input schema at the pinned version.",
    )
    backend = composio(sandbox, sleeps)
    try:
        with pytest.raises(UpstreamRejected) as caught:
            await backend.execute("LINEAR_SEARCH_ISSUES", {"query": "login"})
    finally:
        await backend.aclose()
    text = str(caught.value)
    assert text.startswith("Composio rejected LINEAR_SEARCH_ISSUES (HTTP 422, code 1905).")
    assert "Composio said: Invalid arguments for ca_*** (key ***)." in text
    assert "Suggested fix: Check the tool's input schema at the pinned version." in text
    assert API_KEY not in text and "9XyZsecret1" not in text and caught.value.request_id


async def test_a_graphql_errors_array_in_composios_200_is_a_failed_call(
    sandbox: Sandbox, sleeps: Sleeps
) -> None:
    bad = issue_create("no such team")
    bad["variables"]["input"]["teamId"] = str(uuid.uuid4())
    backend = composio(sandbox, sleeps)
    try:
        result = await backend.execute("LINEAR_RUN_QUERY_OR_MUTATION", bad)
        good = await backend.execute("LINEAR_RUN_QUERY_OR_MUTATION", issue_create("read as data.<field>"))
    finally:
        await backend.aclose()
    assert result == {"data": {}, "error": result["error"], "successful": False}
    assert "Team not found" in (result["error"] or "")
    assert good["successful"] and good["data"]["issueCreate"]["issue"]["title"] == "read as data.<field>"
