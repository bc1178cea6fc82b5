"""The sandbox's Composio project: auth configs and connected accounts, as strict as Composio.

Composio acts for a user id through one connected account per toolkit. The sandbox keeps the same
records, so `planner-mcp connect` and `planner-mcp doctor` run against it, and refuses a tool call the
way Composio does (DESIGN §8), with Composio's codes and error bodies:

    no ACTIVE account for the user id and toolkit     400, code 1803, "No connected account found"
                                                      (no `slug`, an empty `suggested_fix`: the body
                                                      ComposioHQ/composio#1838 shows)
    an account id without a user id                   400, code 1811
    an account id of another user id                  400, code 1812, with its slug and suggested fix
    an unknown account id, or one of another toolkit  400, code 1810
    an EXPIRED account                                400, ActionExecute_ConnectedAccountExpired

A link (`connected_accounts/link`) creates an INITIATED account and a redirect URL on the sandbox
itself; opening that URL stands for the person's consent and makes the account ACTIVE. State lives in
memory: a restarted `sandbox-api` starts again from its seed.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

__all__ = ["Account", "AuthConfig", "Refused", "SandboxAccounts"]

TOOLKITS = ("attio", "linear", "googlecalendar")
_LINK_TTL = timedelta(minutes=10)  # Composio's hosted links expire after 10 minutes


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _nanoid(prefix: str) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    return prefix + "".join(secrets.choice(alphabet) for _ in range(12))


@dataclass
class AuthConfig:
    id: str
    toolkit: str
    created_at: str = field(default_factory=_now)

    def json(self, connections: int) -> dict[str, Any]:
        return {
            "id": self.id,
            "uuid": self.id,
            "name": f"{self.toolkit}-composio-managed",
            "toolkit": {"slug": self.toolkit, "logo": ""},
            "auth_scheme": "OAUTH2",
            "is_composio_managed": True,
            "status": "ENABLED",
            "type": "default",
            "no_of_connections": connections,
            "tool_access_config": {"tools_for_connected_account_creation": []},
            "created_at": self.created_at,
            "last_updated_at": self.created_at,
        }


@dataclass
class Account:
    id: str
    user_id: str
    toolkit: str
    auth_config_id: str
    status: str = "ACTIVE"
    link_token: str | None = None
    created_at: str = field(default_factory=_now)
    updated_at: str = field(default_factory=_now)

    def json(self) -> dict[str, Any]:
        """A connected account as Composio lists and retrieves it."""
        return {
            "id": self.id,
            "user_id": self.user_id,
            "status": self.status,
            "status_reason": None,
            "toolkit": {"slug": self.toolkit},
            "auth_config": {
                "id": self.auth_config_id,
                "auth_scheme": "OAUTH2",
                "is_composio_managed": True,
                "is_disabled": False,
            },
            "state": {"authScheme": "OAUTH2", "val": {"status": self.status}},
            "data": {},
            "params": {},
            "is_disabled": False,
            "alias": None,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }


@dataclass(frozen=True)
class Refused:
    """Composio's answer to a tool call it will not run: HTTP 400 and this envelope."""

    code: int
    message: str
    slug: str | None = None
    suggested_fix: str = ""


class SandboxAccounts:
    """Auth configs and connected accounts of the sandbox's project (thread-safe).

    `connected`: user id -> the toolkits that user has an ACTIVE account for (default: user
    "default" with all three, so a fresh `sandbox-api` runs the acceptance checks as before).
    """

    def __init__(self, connected: Mapping[str, Iterable[str]] | None = None) -> None:
        self._lock = threading.Lock()
        self._configs: dict[str, AuthConfig] = {}
        self._accounts: dict[str, Account] = {}
        for user, toolkits in (connected if connected is not None else {"default": TOOLKITS}).items():
            for toolkit in toolkits:
                self.connect(user, toolkit)

    # --- auth configs ---------------------------------------------------------------------------

    def create_auth_config(self, toolkit: str) -> AuthConfig:
        config = AuthConfig(_nanoid("ac_"), toolkit)
        with self._lock:
            self._configs[config.id] = config
        return config

    def auth_configs(self, toolkit: str | None = None) -> list[dict[str, Any]]:
        with self._lock:
            found = [c for c in self._configs.values() if toolkit in (None, c.toolkit)]
            return [
                c.json(sum(1 for a in self._accounts.values() if a.auth_config_id == c.id)) for c in found
            ]

    def _config_for(self, toolkit: str) -> AuthConfig:
        with self._lock:
            existing = next((c for c in self._configs.values() if c.toolkit == toolkit), None)
        return existing or self.create_auth_config(toolkit)

    # --- connected accounts ---------------------------------------------------------------------

    def connect(
        self, user_id: str, toolkit: str, account_id: str | None = None, status: str = "ACTIVE"
    ) -> str:
        """Seed an account (tests, the CLI); returns its id."""
        config = self._config_for(toolkit)
        account = Account(account_id or _nanoid("ca_"), user_id, toolkit, config.id, status)
        with self._lock:
            self._accounts[account.id] = account
        return account.id

    def link(self, user_id: str, auth_config_id: str) -> tuple[Account, str] | None:
        """An INITIATED account and its link token, or None for an unknown auth config."""
        with self._lock:
            config = self._configs.get(auth_config_id)
            if config is None:
                return None
            token = secrets.token_urlsafe(16)
            account = Account(_nanoid("ca_"), user_id, config.toolkit, config.id, "INITIATED", token)
            self._accounts[account.id] = account
        expires = (datetime.now(UTC) + _LINK_TTL).isoformat(timespec="seconds").replace("+00:00", "Z")
        return account, expires

    def complete(self, token: str) -> Account | None:
        """The person finished the link flow: the account becomes ACTIVE."""
        with self._lock:
            for account in self._accounts.values():
                if account.link_token and secrets.compare_digest(account.link_token, token):
                    account.status, account.link_token, account.updated_at = "ACTIVE", None, _now()
                    return account
        return None

    def get(self, account_id: str) -> dict[str, Any] | None:
        with self._lock:
            account = self._accounts.get(account_id)
            return None if account is None else account.json()

    def find(
        self,
        *,
        user_ids: Iterable[str] = (),
        toolkits: Iterable[str] = (),
        statuses: Iterable[str] = (),
        auth_config_ids: Iterable[str] = (),
        account_ids: Iterable[str] = (),
    ) -> list[dict[str, Any]]:
        """Accounts matching every filter given (an empty filter matches all), oldest first."""
        filters = [
            (set(user_ids), "user_id"),
            (set(toolkits), "toolkit"),
            (set(statuses), "status"),
            (set(auth_config_ids), "auth_config_id"),
            (set(account_ids), "id"),
        ]
        with self._lock:
            return [
                a.json()
                for a in self._accounts.values()
                if all(not wanted or getattr(a, name) in wanted for wanted, name in filters)
            ]

    def check(self, user_id: str | None, account_id: str | None, toolkit: str) -> Refused | None:
        """Why Composio would refuse to run a tool of `toolkit` for this user and account, or None."""
        if account_id:
            if not user_id:
                return Refused(
                    1811,
                    "User ID is required with connected account.",
                    "ActionExecute_ConnectedAccountEntityIdRequired",
                )
            with self._lock:
                account = self._accounts.get(account_id)
            if account is None or account.toolkit != toolkit:
                return Refused(
                    1810,
                    f"No connected account found for user ID {user_id} for toolkit {toolkit}",
                    "ActionExecute_ConnectedAccountNotFound",
                )
            if account.user_id != user_id:
                return Refused(
                    1812,
                    "Connected account user ID does not match the provided user ID.",
                    "ActionExecute_ConnectedAccountEntityIdMismatch",
                    "The connected_account_id you provided belongs to a different entity.",
                )
            return self._usable(account)
        with self._lock:
            mine = [
                a
                for a in self._accounts.values()
                if a.user_id == (user_id or "default") and a.toolkit == toolkit
            ]
        active = [a for a in mine if a.status == "ACTIVE"]
        if active:
            return None
        expired = [a for a in mine if a.status == "EXPIRED"]
        return self._usable(expired[0]) if expired else Refused(1803, "No connected account found")

    @staticmethod
    def _usable(account: Account) -> Refused | None:
        if account.status == "ACTIVE":
            return None
        if account.status == "EXPIRED":
            # [guess] the code of this answer is not documented; its slug and message are what tell
            return Refused(
                1820,
                f"Connected account {account.id} is in EXPIRED state",
                "ActionExecute_ConnectedAccountExpired",
                "Reconnect the account: create a new connect link for this user and auth config.",
            )
        return Refused(1803, "No connected account found")
