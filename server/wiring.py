"""The composition root: builds the store, backend, planner and executor once."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from drafts import Executor, SqliteStore
from planner import Planner
from server.service import Service
from server.settings import Settings
from toolkits import registry
from toolkits.base import Backend
from toolkits.errors import InvalidArguments
from toolkits.pacing import PacedBackend

__all__ = ["build_service"]


def _backend(settings: Settings) -> Backend:
    if settings.composio_api_key:
        # imported here: the module is light, but only a configured key should pull it in at all
        from toolkits.composio_backend import ComposioBackend

        return ComposioBackend(
            api_key=settings.composio_api_key,
            user_id=settings.composio_user_id,
            base_url=os.environ.get("COMPOSIO_BASE_URL"),
            toolkit_versions=settings.composio_toolkit_versions,
            connected_accounts=settings.composio_connected_accounts,
            timeout=settings.composio_timeout_s,
        )
    from toolkits.sandbox import SandboxBackend

    return SandboxBackend(str(settings.db_path))


def build_service(
    settings: Settings, *, backend: Backend | None = None, store: SqliteStore | None = None
) -> Service:
    settings.db_path.parent.mkdir(parents=True, exist_ok=True)
    store = store or SqliteStore(str(settings.db_path))
    backend = backend or PacedBackend(_backend(settings))

    async def read(slug: str, args: Mapping[str, Any]) -> Any:
        try:
            res = await backend.execute(slug, args)
        except InvalidArguments as exc:  # e.g. an issue id that cannot exist: the same as not found
            raise LookupError(str(exc)) from exc
        if not res.get("successful"):
            raise LookupError(str(res.get("error") or "not found"))
        return res.get("data")

    async def ledger(scopes: list[str]) -> dict[str, Any]:
        found = await store.ledger_lookup(scopes)
        return {s: e.result for s, e in found.items() if e.state == "succeeded"}

    planner = Planner(read, ledger=ledger, bulk_threshold=settings.bulk_threshold)
    executor = Executor(
        store,
        backend,
        link_for=registry.link_for,
        concurrency=settings.concurrency,
        reconcile_grace_s=settings.reconcile_grace_s,
    )
    return Service(settings, store, backend, planner, executor)
