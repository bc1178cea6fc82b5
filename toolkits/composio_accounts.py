"""Composio's side of `planner-mcp connect` and `planner-mcp doctor`: the key, the connected accounts
of one user id, the link flow, the toolkit versions Composio still serves, and tool schemas at a
version. Blocking (a command-line tool), through the real `composio` SDK, imported on first use.

The link flow is SDK 0.30's `connected_accounts.link(user_id, auth_config_id)` (the legacy
`initiate` is retired for Composio-managed OAuth): an auth config of the toolkit is reused (the
newest) or created as Composio-managed, the person opens the returned URL, and the account turns
ACTIVE. Composio's errors are translated by `map_composio_errors`, so a refused key is
`NotConnected(reason="key")` here too.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from toolkits.composio_backend import map_composio_errors
from toolkits.errors import ToolkitError, UpstreamRejected
from toolkits.registry import versions as pinned_versions

__all__ = ["ComposioAccounts", "Link", "LinkNotCompleted", "field"]


class LinkNotCompleted(ToolkitError):
    """The person did not finish the link in time, or the connection ended FAILED/EXPIRED/REVOKED."""


@dataclass(frozen=True)
class Link:
    account_id: str
    url: str
    auth_config_id: str
    auth_config_created: bool


def field(obj: Any, name: str, default: Any = None) -> Any:
    """`obj.name` or `obj[name]`: the SDK's models are built without validation, so a nested value
    may be a model or a plain dict."""
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


class ComposioAccounts:
    """One Composio project (the API key) seen from one user id."""

    def __init__(
        self,
        api_key: str,
        *,
        user_id: str = "default",
        base_url: str | None = None,
        toolkit_versions: Mapping[str, str] | None = None,
        timeout: float = 30.0,
    ) -> None:
        self.user_id = user_id
        self.versions = {**pinned_versions(), **dict(toolkit_versions or {})}
        self._api_key = api_key
        self._base_url = base_url or os.environ.get("COMPOSIO_BASE_URL") or None
        self._timeout = timeout
        self._sdk: Any = None

    @property
    def _secrets(self) -> tuple[str, ...]:
        return (self._api_key,)

    def _client(self, toolkit_versions: Mapping[str, str] | None = None) -> Any:
        with map_composio_errors("the Composio client", write=False, secrets=self._secrets):
            from composio import Composio

            options: dict[str, Any] = {
                "api_key": self._api_key,
                "toolkit_versions": dict(toolkit_versions or self.versions),
                "allow_tracking": False,
                "timeout": httpx.Timeout(self._timeout, connect=min(self._timeout, 10.0)),
            }
            if self._base_url:
                options["base_url"] = self._base_url
            return Composio(**options)

    @property
    def sdk(self) -> Any:
        if self._sdk is None:
            self._sdk = self._client()
        return self._sdk

    def close(self) -> None:
        if self._sdk is not None:
            self._sdk.client.close()
            self._sdk = None

    # --- accounts -------------------------------------------------------------------------------

    def accounts(self, toolkit: str, *, user_ids: Iterable[str] | None = None) -> list[Any]:
        """Connected accounts of `toolkit` (of this user unless `user_ids` says otherwise; `[]`: any).

        Raises:
            NotConnected: the key was refused. ToolkitError: Composio could not answer.
        """
        users = [self.user_id] if user_ids is None else list(user_ids)
        query: dict[str, Any] = {"toolkit_slugs": [toolkit]}
        if users:
            query["user_ids"] = users
        with map_composio_errors("connected_accounts.list", write=False, secrets=self._secrets):
            page = self.sdk.connected_accounts.list(**query)
        return list(field(page, "items", []) or [])

    def account(self, account_id: str) -> Any | None:
        """One connected account, or None when Composio knows no such id."""
        try:
            with map_composio_errors("connected_accounts.get", write=False, secrets=self._secrets):
                return self.sdk.connected_accounts.get(account_id)
        except UpstreamRejected:
            return None

    def start_link(self, toolkit: str) -> Link:
        """Create a connect link for this user (an auth config is reused or created first).

        Raises:
            NotConnected, ToolkitError: as `accounts`.
        """
        with map_composio_errors(f"connecting {toolkit}", write=True, secrets=self._secrets):
            configs = list(field(self.sdk.auth_configs.list(toolkit_slug=toolkit), "items", []) or [])
            created = not configs
            if configs:
                config_id = str(field(max(configs, key=lambda c: str(field(c, "created_at", ""))), "id"))
            else:
                made = self.sdk.auth_configs.create(
                    toolkit,
                    {
                        "type": "use_composio_managed_auth",
                        "tool_access_config": {"tools_for_connected_account_creation": []},
                    },
                )
                config_id = str(field(made, "id"))
            request = self.sdk.connected_accounts.link(self.user_id, config_id)
        return Link(str(request.id), str(request.redirect_url or ""), config_id, created)

    def wait_until_active(self, account_id: str, timeout: float) -> Any:
        """The account once it is ACTIVE (the SDK polls it once a second).

        Raises:
            LinkNotCompleted: not ACTIVE within `timeout` seconds, or it ended in a terminal state.
            NotConnected, ToolkitError: as `accounts`.
        """
        from composio import exceptions as cx

        try:
            with map_composio_errors("connected_accounts.get", write=False, secrets=self._secrets):
                return self.sdk.connected_accounts.wait_for_connection(account_id, timeout=timeout)
        except ToolkitError as exc:
            cause = exc.__cause__
            if isinstance(cause, cx.ComposioSDKTimeoutError):
                raise LinkNotCompleted(f"the link was not completed within {timeout:g} s") from cause
            if isinstance(cause, cx.SDKError):
                raise LinkNotCompleted("the connection ended before it became active") from cause
            raise

    # --- versions and schemas -------------------------------------------------------------------

    def available_versions(self, toolkit: str) -> list[str]:
        """The versions of `toolkit` Composio serves now.

        Raises:
            NotConnected, ToolkitError: as `accounts`.
        """
        with map_composio_errors(f"toolkits.get {toolkit}", write=False, secrets=self._secrets):
            found = self.sdk.toolkits.get(toolkit)
        return [str(v) for v in field(field(found, "meta"), "available_versions", []) or []]

    def schemas(self, slugs: Iterable[str], toolkit_versions: Mapping[str, str]) -> dict[str, Any]:
        """The `input_parameters` Composio serves for each slug at `toolkit_versions`.

        Raises:
            NotConnected, ToolkitError: as `accounts`. A slug not served there maps to None.
        """
        client = self._client({**self.versions, **dict(toolkit_versions)})
        try:
            found: dict[str, Any] = {}
            for slug in slugs:
                try:
                    with map_composio_errors(slug, write=False, secrets=self._secrets):
                        tool = client.tools.get_raw_composio_tool_by_slug(slug)
                except UpstreamRejected:  # not served at that version: gone, which is a change too
                    found[slug] = None
                    continue
                found[slug] = field(tool, "input_parameters")
            return found
        finally:
            client.client.close()
