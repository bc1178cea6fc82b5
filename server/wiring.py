"""The composition root: builds the store, backend, planner and executor once."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from drafts import DraftStore, Executor, open_store
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

        # paced to each toolkit's rate budget; the sandbox has no provider limits to respect
        return PacedBackend(
            ComposioBackend(
                api_key=settings.composio_api_key,
                user_id=settings.composio_user_id,
                base_url=os.environ.get("COMPOSIO_BASE_URL"),
                toolkit_versions=settings.composio_toolkit_versions,
                connected_accounts=settings.composio_connected_accounts,
                timeout=settings.composio_timeout_s,
            )
        )
    from toolkits.sandbox import Fault, FaultPlan, SandboxBackend

    faults = None
    if settings.sandbox_write_latency_s > 0:
        faults = FaultPlan().add(
            "*", Fault("latency", seconds=settings.sandbox_write_latency_s), only="write"
        )
    # The workspace lives beside the drafts: in the same PostgreSQL database when one is set.
    return SandboxBackend(str(settings.database), faults=faults)


def build_service(
    settings: Settings, *, backend: Backend | None = None, store: DraftStore | None = None
) -> Service:
    """Build every part from `settings`; `backend` and `store` replace the configured ones.

    Raises:
        ImportError: PLANNER_DATABASE_URL is set but psycopg (the `postgres` extra) is missing.
        sqlite3.Error, psycopg.Error: the database cannot be opened.
    """
    if settings.database_url is None:
        settings.db_path.parent.mkdir(parents=True, exist_ok=True)
    store = store or open_store(settings.database, pool_max=settings.database_pool_max)
    backend = backend or _backend(settings)

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

    interpreter = None
    if settings.interpreter:  # the SDK itself is imported on the first model call, not here
        from planner.interpreter import build_interpreter

        interpreter = build_interpreter(
            settings.interpreter,
            settings.interpreter_model,
            timeout_s=settings.interpreter_timeout_s,
            api_key=settings.interpreter_api_key,
            base_url=settings.interpreter_base_url,
        )
    planner = Planner(read, ledger=ledger, bulk_threshold=settings.bulk_threshold, interpreter=interpreter)
    executor = Executor(
        store,
        backend,
        link_for=registry.link_for,
        concurrency=settings.concurrency,
        reconcile_grace_s=settings.reconcile_grace_s,
        # three beats per lease, as the defaults (10 s / 30 s): a shorter lease needs faster beats
        heartbeat_s=settings.lease_s / 3,
    )
    return Service(settings, store, backend, planner, executor)
