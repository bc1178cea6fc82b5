"""The first real run on Composio (issue 13), rehearsed with the real `composio` SDK against the strict
`sandbox-api`: accounts connected or not, the fix a person reads, `planner-mcp connect` and `doctor`,
record references, result shapes, "me", team labels, and retired toolkit versions."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import ExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import ROOT, WORKSPACE, Conversation
from mcp import Client

from server.app import build_server
from server.cli import main as cli
from server.settings import Settings
from server.wiring import build_service
from toolkits.registry import TOOLKITS, versions
from toolkits.sandbox import SandboxBackend
from toolkits.sandbox._store import default_fixture
from toolkits.sandbox_api import HttpFault, SandboxAccounts, Versions, build_app, run_in_thread
from toolkits.schemas import tool_schema

pytestmark = pytest.mark.anyio

EVERY = tuple(TOOLKITS)
GLOBEX = "13003857-c288-519d-be16-c1790741a9dd"
BUG = "cf329843-17de-5285-97a4-eabc9a3c41b7"
DES = "f3215408-2152-5d9a-8ae1-d0cea98c158a"
ANNA_LINEAR = next(u["id"] for u in WORKSPACE["linear"]["users"] if u.get("is_me"))


class Remote:
    def __init__(self, backend: SandboxBackend, app: Any, url: str) -> None:
        self.backend, self.app, self.url = backend, app, url

    def writes(self, slug: str) -> list[dict[str, Any]]:
        return [args for s, args in self.backend.write_calls if s == slug]

    def executes(self) -> list[dict[str, Any]]:
        return [r for r in self.app.state.requests if r["route"] == "execute"]


Start = Callable[..., Remote]


@pytest.fixture
def composio(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Start]:
    """Serve a strict sandbox-api and point the server's settings at it (COMPOSIO_* variables)."""
    stack = ExitStack()
    backends: list[SandboxBackend] = []

    def start(
        accounts: SandboxAccounts,
        *,
        user: str = "anna-co",
        served: Versions | None = None,
        fixture: Path | None = None,
        api_key: str | None = None,
    ) -> Remote:
        backend = SandboxBackend(tmp_path / f"remote{len(backends)}.db", fixture=fixture)
        backends.append(backend)
        app = build_app(backend, api_key=api_key, accounts=accounts, versions=served)
        url = stack.enter_context(run_in_thread(app))
        monkeypatch.setenv("COMPOSIO_API_KEY", "ak_test_first_run")
        monkeypatch.setenv("COMPOSIO_BASE_URL", url)
        monkeypatch.setenv("COMPOSIO_USER_ID", user)
        return Remote(backend, app, url)

    yield start
    stack.close()
    for backend in backends:
        asyncio.run(backend.aclose())


@asynccontextmanager
async def person(tmp_path: Path) -> AsyncIterator[Conversation]:
    """The server as configured by the environment (Composio backend), through the MCP client."""
    settings = Settings.from_env()
    settings.db_path = tmp_path / "planner.db"
    settings.reconcile_grace_s = 0.0
    service = build_service(settings)
    assert service.backend.name == "composio"
    try:
        async with Client(build_server(service, settings)) as client:
            yield Conversation(client)
    finally:
        await service.backend.aclose()
        await service.store.close()


async def run(c: Conversation, text: str) -> dict[str, Any]:
    r = await c.say(text)
    assert r["status"] == "draft_pending", (text, r["status"], r.get("user_message"))
    await c.call("confirm_draft", draft_id=r["draft"]["id"])
    return await c.call("execute_draft", draft_id=r["draft"]["id"])


def doctor(capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = cli(["doctor"])
    return code, capsys.readouterr().out


# --- item 1: accounts, the fix a person reads, connect and doctor ----------------------------------


async def test_doctor_and_a_request_on_a_toolkit_that_is_not_connected_name_the_same_command(
    composio: Start, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    remote = composio(SandboxAccounts({"anna-co": ("attio", "googlecalendar")}))

    code, out = await asyncio.to_thread(doctor, capsys)
    assert code == 1
    assert "[FAIL] Linear: not connected for Composio user 'anna-co'" in out
    assert "fix: run `planner-mcp connect linear`" in out
    assert "[ok]   Attio: connected" in out and "[ok]   Google Calendar: connected" in out

    caplog.set_level(logging.WARNING, logger="toolkits.composio_backend")
    async with person(tmp_path) as anna:
        ru = await anna.say("Закрой ENG-101")
        en = await anna.say("Close ENG-101")
        crm = await anna.say("Переведи сделку Globex pilot в стадию Won")
    assert ru["status"] == en["status"] == "failed" and ru["draft"] is None
    assert "Linear не подключён для пользователя Composio «anna-co»" in ru["user_message"]
    assert "`planner-mcp connect linear`" in ru["user_message"] and "Ничего не изменено" in ru["user_message"]
    assert en["user_message"].startswith(
        "Linear is not connected for Composio user 'anna-co': run `planner-mcp connect linear`"
    )
    assert "Composio said: No connected account found." in en["user_message"]
    assert "NotConnected" not in json.dumps([ru, en])
    assert crm["status"] == "draft_pending"  # Attio is connected: its requests go on
    refused = [r for r in remote.executes() if r["slug"].startswith("LINEAR_")]
    assert refused and all(r["request_id"] for r in refused)
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert "code 1803" in logged and refused[0]["request_id"] in logged  # Composio's request id, logged


@pytest.mark.slow
def test_connect_prints_the_link_and_waits_until_the_account_is_active(
    composio: Start, capsys: pytest.CaptureFixture[str]
) -> None:
    remote = composio(SandboxAccounts({"anna-co": ("attio", "googlecalendar")}))
    cmd = [sys.executable, "-m", "server.cli", "connect", "linear", "--timeout", "60"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=dict(os.environ), stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(3)]  # the link is printed before the wait
        link = lines[-1].strip()
        assert lines[1].startswith("Open this link to connect Linear for Composio user 'anna-co'"), lines
        assert link.startswith(f"{remote.url}/link/"), lines
        assert (
            remote.app.state.accounts.find(user_ids=["anna-co"], toolkits=["linear"])[0]["status"]
            == "INITIATED"
        )
        assert httpx.get(link).status_code == 200  # the person opens it and consents
        rest = proc.stdout.read()
        assert proc.wait(timeout=60) == 0, rest
    finally:
        if proc.poll() is None:
            proc.kill()
        if proc.stdout is not None:
            proc.stdout.close()
    assert "Created a Composio-managed auth config for Linear" in lines[0]
    assert "Linear connected for Composio user 'anna-co'" in rest
    [account] = remote.app.state.accounts.find(user_ids=["anna-co"], toolkits=["linear"])
    assert account["status"] == "ACTIVE"
    assert doctor(capsys)[0] == 0
    assert cli(["connect", "linear"]) == 0  # already connected: says so, links nothing
    assert "already connected" in capsys.readouterr().out
    assert len(remote.app.state.accounts.find(toolkits=["linear"])) == 1


def test_connect_gives_up_after_its_timeout_and_says_how_to_try_again(
    composio: Start, capsys: pytest.CaptureFixture[str]
) -> None:
    composio(SandboxAccounts({"anna-co": ()}))
    assert cli(["connect", "attio", "--timeout", "0"]) == 1
    out = capsys.readouterr().out
    assert "Attio is not connected: the link was not completed within 0 s" in out
    assert "Run `planner-mcp connect attio` again" in out


async def test_an_account_of_another_user_is_refused_with_1812_and_both_name_the_fix(
    composio: Start, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    accounts = SandboxAccounts({"anna-co": EVERY})
    accounts.connect("bob-co", "linear", "ca_bob_linear_7")
    composio(accounts)
    monkeypatch.setenv("COMPOSIO_CONNECTED_ACCOUNT_LINEAR", "ca_bob_linear_7")

    async with person(tmp_path) as anna:
        r = await anna.say("Close ENG-101")
    assert r["status"] == "failed"
    message = r["user_message"]
    assert "belongs to another Composio user than 'anna-co'" in message and "COMPOSIO_USER_ID" in message
    assert "Suggested fix: The connected_account_id you provided belongs to a different entity." in message
    assert "ca_bob_linear_7" not in json.dumps(r)  # an account id is a secret

    code, out = await asyncio.to_thread(doctor, capsys)
    assert code == 1
    assert (
        "the account in COMPOSIO_CONNECTED_ACCOUNT_LINEAR belongs to Composio user 'bob-co', not 'anna-co'"
        in out
    )
    assert "fix: set COMPOSIO_USER_ID=bob-co" in out


def test_doctor_finds_an_account_connected_under_another_user_id(
    composio: Start, capsys: pytest.CaptureFixture[str]
) -> None:
    # connected in Composio's dashboard: the account belongs to the dashboard's test user, not "default"
    composio(SandboxAccounts({"pg-test-4f1c": EVERY, "default": ()}), user="default")
    code, out = doctor(capsys)
    assert code == 1
    assert (
        "Attio: not connected for Composio user 'default'; an active account exists for user 'pg-test-4f1c'"
        in out
    )
    assert "fix: set COMPOSIO_USER_ID=pg-test-4f1c, or run `planner-mcp connect attio`" in out


async def test_an_expired_account_asks_to_connect_again(composio: Start, tmp_path: Path) -> None:
    accounts = SandboxAccounts({"anna-co": ("attio", "googlecalendar")})
    accounts.connect("anna-co", "linear", status="EXPIRED")
    composio(accounts)
    async with person(tmp_path) as anna:
        r = await anna.say("Close ENG-101")
    assert "Linear's authorisation for Composio user 'anna-co' has expired" in r["user_message"]
    assert "run `planner-mcp connect linear` again" in r["user_message"]


def test_doctor_names_a_refused_key_and_a_missing_one(
    composio: Start, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    composio(SandboxAccounts(), api_key="ak_the_right_one")
    code, out = doctor(capsys)
    assert code == 1 and "[FAIL] the API key was refused" in out and "fix: check COMPOSIO_API_KEY" in out
    assert "ak_test_first_run" not in out
    monkeypatch.delenv("COMPOSIO_API_KEY")
    code, out = doctor(capsys)
    assert code == 2 and "COMPOSIO_API_KEY is not set" in out and "embedded sandbox" in out


# --- item 5: versions drift -------------------------------------------------------------------------


def test_doctor_reports_a_retired_pinned_version_and_what_refresh_schemas_would_change(
    composio: Start, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    newer = tool_schema("LINEAR_UPDATE_ISSUE")
    newer["properties"]["slaBreachesAt"] = {"type": "string", "description": "new in this version"}
    served: Versions = {name: {version: {}} for name, version in versions().items()}
    served["linear"] = {"20260601_00": {"LINEAR_UPDATE_ISSUE": newer}}  # 20260512_00 is retired
    composio(SandboxAccounts({"anna-co": EVERY}), served=served)

    code, out = doctor(capsys)
    assert code == 1
    assert "[FAIL] Linear: pinned version 20260512_00 is no longer served (available: 20260601_00)" in out
    assert "refresh-schemas would change 1 of 16 schemas: LINEAR_UPDATE_ISSUE" in out
    assert "fix: `COMPOSIO_TOOLKIT_VERSION_LINEAR=20260601_00 planner-mcp refresh-schemas`" in out
    assert "[ok]   Attio: version 20260909_00 is served" in out

    # the fix, as doctor spells it: the refreshed snapshot carries exactly that change
    monkeypatch.setenv("COMPOSIO_TOOLKIT_VERSION_LINEAR", "20260601_00")
    out_file = tmp_path / "refreshed.json"
    assert cli(["refresh-schemas", "--out", str(out_file)]) == 0
    refreshed = json.loads(out_file.read_text(encoding="utf-8"))
    assert refreshed["tools"]["LINEAR_UPDATE_ISSUE"]["input_parameters"] == newer
    assert refreshed["toolkits"]["linear"]["version"] == "20260601_00"
    code, out = doctor(capsys)  # the packaged snapshot is still the old one: doctor says to refresh it
    assert "[ok]   Linear: version 20260601_00 is served" in out
    assert "[FAIL] Linear: the schema snapshot differs from what Composio serves at 20260601_00" in out


# --- items 2-4 over the wire ------------------------------------------------------------------------


async def test_a_persons_and_a_deals_company_go_to_attio_as_record_references(
    composio: Start, tmp_path: Path
) -> None:
    remote = composio(SandboxAccounts({"anna-co": EVERY}))
    async with person(tmp_path) as anna:
        added = await run(anna, "Добавь контакт Ada Lovelace ada@globex.com, работает в Globex")
        deal = await run(anna, "Создай сделку с Globex")
    assert added["status"] == deal["status"] == "executed", (added["user_message"], deal["user_message"])
    reference = [{"target_object": "companies", "target_record_id": GLOBEX}]
    assert remote.writes("ATTIO_ASSERT_PERSON")[0]["values"]["company"] == reference
    assert added["sandbox"] is None and "Sandbox" not in added["user_message"]  # real Composio: unmarked
    assert remote.writes("ATTIO_CREATE_RECORD")[0]["values"]["associated_company"] == reference


async def test_a_new_companys_deal_references_the_id_attio_created(composio: Start, tmp_path: Path) -> None:
    remote = composio(SandboxAccounts({"anna-co": EVERY}))
    async with person(tmp_path) as anna:
        done = await run(anna, "Create company Wayne Enterprises wayne.com and a deal for them")
    assert done["status"] == "executed", done["user_message"]
    company = done["results"][0]["data"]["data"]["id"]["record_id"]
    [deal] = remote.writes("ATTIO_CREATE_RECORD")
    assert deal["values"]["associated_company"] == [
        {"target_object": "companies", "target_record_id": company}
    ]


async def test_an_event_and_an_issue_come_back_with_their_links_and_a_lost_answer_is_read_back(
    composio: Start, tmp_path: Path
) -> None:
    remote = composio(SandboxAccounts({"anna-co": EVERY}))
    remote.app.state.faults.add(
        HttpFault(kind="timeout_after_write", slug="GOOGLECALENDAR_CREATE_EVENT", drop=True)
    )
    async with person(tmp_path) as anna:
        block = await run(anna, "Поставь блок на завтра в 14:00 на 60 минут")
        issue = await run(anna, "Создай задачу в Linear: проверить ссылки 4410")
    # the event's answer was lost: read back by its marker, it is found with its link (never "unknown")
    assert block["status"] == "executed", block["user_message"]
    assert block["results"][0]["link"].startswith("https://calendar.google.com/calendar/event?eid=")
    assert len(remote.writes("GOOGLECALENDAR_CREATE_EVENT")) == 1
    assert issue["results"][0]["link"].startswith("https://linear.app/northwind/issue/")


async def test_me_is_linears_current_user_over_the_wire(composio: Start, tmp_path: Path) -> None:
    remote = composio(SandboxAccounts({"anna-co": EVERY}))
    async with person(tmp_path) as anna:
        done = await run(anna, "Назначь ENG-102 на меня")
    assert done["status"] == "executed", done["user_message"]
    assert remote.writes("LINEAR_UPDATE_ISSUE")[-1]["assigneeId"] == ANNA_LINEAR
    assert any(r["slug"] == "LINEAR_GET_CURRENT_USER" for r in remote.executes())


async def test_labels_of_a_new_issue_are_the_ones_its_team_may_carry(composio: Start, tmp_path: Path) -> None:
    # DES has a "bug" label of its own, listed after the workspace's: unscoped, it would win the name
    workspace = json.loads(default_fixture().read_text(encoding="utf-8"))
    workspace["linear"]["labels"].append(
        {"id": "7c1d9d8e-5a44-4c7e-9a0e-2f8f5f1b6a01", "name": "bug", "team_id": DES}
    )
    fixture = tmp_path / "workspace.json"
    fixture.write_text(json.dumps(workspace), encoding="utf-8")
    remote = composio(SandboxAccounts({"anna-co": EVERY}), fixture=fixture)
    async with person(tmp_path) as anna:
        done = await run(anna, "Заведи баг в ENG: вход падает на Safari")
    assert done["status"] == "executed", done["user_message"]
    [create] = remote.writes("LINEAR_RUN_QUERY_OR_MUTATION")
    assert create["variables"]["input"]["labelIds"] == [BUG]


async def test_a_change_to_a_toolkit_that_is_not_connected_fails_with_the_same_fix(
    composio: Start, tmp_path: Path
) -> None:
    composio(SandboxAccounts({"anna-co": ("attio", "linear")}))
    async with person(tmp_path) as anna:
        done = await run(anna, "Поставь блок на завтра в 14:00 на 60 минут")
    assert done["status"] == "failed"
    assert (
        "Google Calendar is not connected for Composio user 'anna-co': run `planner-mcp connect googlecalendar`"
        in (done["user_message"])
    )
