"""`planner-mcp connect <toolkit>` and `planner-mcp doctor` (DESIGN §8).

connect: reuses or creates the toolkit's auth config, prints the link the person opens, waits until
the connected account of COMPOSIO_USER_ID is ACTIVE (or `--timeout` passes).

doctor: checks the key, each toolkit's connected account for COMPOSIO_USER_ID (and the accounts set in
COMPOSIO_CONNECTED_ACCOUNT_<TOOLKIT>), the pinned toolkit versions against those Composio still
serves, and the schema snapshot against the schemas served; every problem line names the command or
setting that fixes it. Exit status: 0 all well, 1 a problem, 2 no key.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from importlib import resources
from typing import Any

from server.settings import Settings
from toolkits.composio_accounts import ComposioAccounts, LinkNotCompleted, field
from toolkits.errors import NotConnected, ToolkitError
from toolkits.registry import TOOLKITS

__all__ = ["connect", "doctor"]

_NAMES = {"attio": "Attio", "linear": "Linear", "googlecalendar": "Google Calendar"}
_NO_KEY = (
    "COMPOSIO_API_KEY is not set, so the server runs on its embedded sandbox and your real Attio, "
    "Linear and Google Calendar are untouched. To use them: create an API key in Composio's dashboard "
    "(Settings -> API keys), `export COMPOSIO_API_KEY=...`, then run `planner-mcp doctor` again."
)

Say = Callable[[str], None]


def _say(line: str) -> None:
    print(line, flush=True)


def _accounts(settings: Settings) -> ComposioAccounts:
    assert settings.composio_api_key
    return ComposioAccounts(
        settings.composio_api_key,
        user_id=settings.composio_user_id,
        base_url=os.environ.get("COMPOSIO_BASE_URL"),
        toolkit_versions=settings.composio_toolkit_versions,
        timeout=settings.composio_timeout_s,
    )


# --- connect ----------------------------------------------------------------------------------------


def connect(toolkit: str, timeout: float, say: Say = _say) -> int:
    settings = Settings.from_env()
    if not settings.composio_api_key:
        print(f"planner-mcp: {_NO_KEY}", file=sys.stderr)
        return 2
    name, user = _NAMES.get(toolkit, toolkit), settings.composio_user_id
    composio = _accounts(settings)
    try:
        active = [a for a in composio.accounts(toolkit) if field(a, "status") == "ACTIVE"]
        if active:
            say(f"{name} is already connected for Composio user '{user}' ({field(active[0], 'id')}).")
            return 0
        link = composio.start_link(toolkit)
        if link.auth_config_created:
            say(f"Created a Composio-managed auth config for {name} ({link.auth_config_id}).")
        say(f"Open this link to connect {name} for Composio user '{user}':")
        say(f"  {link.url}")
        say(f"Waiting up to {timeout:g} s for you to finish (Ctrl-C to stop)...")
        account = composio.wait_until_active(link.account_id, timeout)
    except LinkNotCompleted as exc:
        say(
            f"{name} is not connected: {exc}. Run `planner-mcp connect {toolkit}` again (links expire after 10 minutes)."
        )
        return 1
    except ToolkitError as exc:
        say(f"{name} could not be connected: {exc}")
        return 1
    finally:
        composio.close()
    say(f"{name} connected for Composio user '{user}': {field(account, 'id')} ({field(account, 'status')}).")
    say("`planner-mcp doctor` checks every toolkit; `planner-mcp serve` now acts through this account.")
    return 0


# --- doctor -----------------------------------------------------------------------------------------


class _Report:
    def __init__(self, say: Say) -> None:
        self.say = say
        self.problems = 0

    def ok(self, text: str) -> None:
        self.say(f"[ok]   {text}")

    def warn(self, text: str) -> None:
        self.say(f"[warn] {text}")

    def fail(self, text: str, fix: str) -> None:
        self.problems += 1
        self.say(f"[FAIL] {text}\n       fix: {fix}")


def doctor(say: Say = _say) -> int:
    settings = Settings.from_env()
    report = _Report(say)
    if not settings.composio_api_key:
        report.fail("no Composio API key", _NO_KEY)
        return 2
    composio = _accounts(settings)
    user = settings.composio_user_id
    where = os.environ.get("COMPOSIO_BASE_URL") or "Composio"
    try:
        try:
            composio.accounts("linear")  # any authenticated call tells whether the key is accepted
        except NotConnected as exc:
            report.fail(
                f"the API key was refused by {where}: {exc}", "check COMPOSIO_API_KEY (a project API key)"
            )
            return 1
        report.ok(f"API key accepted by {where}; acting for Composio user '{user}' (COMPOSIO_USER_ID)")
        for toolkit in TOOLKITS:
            _check_account(report, composio, settings, toolkit)
        for toolkit in TOOLKITS:
            _check_version(report, composio, toolkit)
    except ToolkitError as exc:
        report.fail(f"Composio could not answer: {exc}", "try again; if it persists, check COMPOSIO_BASE_URL")
    finally:
        composio.close()
    say("All good." if not report.problems else f"{report.problems} problem(s) found.")
    return 1 if report.problems else 0


def _check_account(report: _Report, composio: ComposioAccounts, settings: Settings, toolkit: str) -> None:
    name, user = _NAMES.get(toolkit, toolkit), settings.composio_user_id
    connect = f"planner-mcp connect {toolkit}"
    variable = f"COMPOSIO_CONNECTED_ACCOUNT_{toolkit.upper()}"
    pinned = settings.composio_connected_accounts.get(toolkit)
    if pinned:
        account = composio.account(pinned)
        owner = field(account, "user_id")
        if account is None:
            report.fail(
                f"{name}: the account in {variable} does not exist", f"unset {variable}, or run `{connect}`"
            )
        elif field(field(account, "toolkit"), "slug") not in (None, toolkit):
            report.fail(f"{name}: the account in {variable} is not a {name} account", f"unset {variable}")
        elif owner is not None and owner != user:
            report.fail(
                f"{name}: the account in {variable} belongs to Composio user '{owner}', not '{user}'",
                f"set COMPOSIO_USER_ID={owner}, or unset {variable} and run `{connect}`",
            )
        elif field(account, "status") != "ACTIVE":
            report.fail(
                f"{name}: the account in {variable} is {field(account, 'status')}", f"run `{connect}`"
            )
        else:
            report.ok(f"{name}: connected ({variable}, ACTIVE)")
        return
    mine = composio.accounts(toolkit)
    active = [a for a in mine if field(a, "status") == "ACTIVE"]
    if active:
        report.ok(f"{name}: connected for user '{user}' ({len(active)} active account(s))")
        return
    others = sorted(
        {
            str(field(a, "user_id"))
            for a in composio.accounts(toolkit, user_ids=[])
            if field(a, "status") == "ACTIVE" and field(a, "user_id") not in (None, user)
        }
    )
    states = ", ".join(sorted({str(field(a, "status")) for a in mine}))
    text = f"{name}: not connected for Composio user '{user}'" + (
        f" (its account is {states})" if mine else ""
    )
    if others:
        shown = ", ".join(f"'{o}'" for o in others[:3])
        report.fail(
            f"{text}; an active account exists for user {shown}",
            f"set COMPOSIO_USER_ID={others[0]}, or run `{connect}`",
        )
    else:
        report.fail(text, f"run `{connect}`")


def _snapshot() -> dict[str, Any]:
    text = resources.files("toolkits").joinpath("data/composio_tools.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _check_version(report: _Report, composio: ComposioAccounts, toolkit: str) -> None:
    name, pinned = _NAMES.get(toolkit, toolkit), composio.versions[toolkit]
    variable = f"COMPOSIO_TOOLKIT_VERSION_{toolkit.upper()}"
    available = composio.available_versions(toolkit)
    snapshot = _snapshot()
    slugs = sorted(s for s, tool in snapshot["tools"].items() if tool["toolkit"] == toolkit)
    target = pinned if pinned in available or not available else max(available)
    changed = _changed(composio, snapshot, slugs, toolkit, target)
    would = f"refresh-schemas would change {len(changed)} of {len(slugs)} schemas" + (
        f": {', '.join(changed[:6])}{'…' if len(changed) > 6 else ''}" if changed else ""
    )
    if available and pinned not in available:
        report.fail(
            f"{name}: pinned version {pinned} is no longer served (available: {', '.join(available[-3:])}); "
            f"at {target} {would}",
            f"`{variable}={target} planner-mcp refresh-schemas`, then keep {variable}={target} set",
        )
        return
    report.ok(f"{name}: version {pinned} is served")
    recorded = snapshot["toolkits"].get(toolkit, {})
    when = (
        f"refreshed {recorded['refreshed_at']}"
        if recorded.get("refreshed_at")
        else "transcribed from Composio's docs, not yet refreshed"
    )
    if changed:
        report.fail(
            f"{name}: the schema snapshot differs from what Composio serves at {pinned} ({would}); snapshot: {when}",
            "`planner-mcp refresh-schemas`",
        )
    elif recorded.get("version") != pinned:
        report.warn(
            f"{name}: the snapshot names version {recorded.get('version')}, the pin is {pinned}; schemas match"
        )
    else:
        report.ok(f"{name}: schema snapshot matches {pinned} ({when})")


def _changed(
    composio: ComposioAccounts, snapshot: dict[str, Any], slugs: list[str], toolkit: str, version: str
) -> list[str]:
    served = composio.schemas(slugs, {toolkit: version})
    return [slug for slug in slugs if served.get(slug) != snapshot["tools"][slug]["input_parameters"]]
