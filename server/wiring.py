"""The composition root: builds the store, backend, planner and executor once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drafts import Executor, SqliteStore
from planner import Planner
from server.service import Service
from server.settings import Settings
from toolkits import registry
from toolkits.base import Backend
from toolkits.errors import InvalidArguments

__all__ = ["build_service"]


def _backend(settings: Settings) -> Backend:
    if settings.composio_api_key:
        # the real Composio backend is tracked separately (issue 4); refusing beats silently using the sandbox
        raise RuntimeError(
            "COMPOSIO_API_KEY is set, but this build has no Composio backend yet: "
            "unset it to run on the embedded sandbox workspace"
        )
    from toolkits.sandbox import SandboxBackend

    return SandboxBackend(str(settings.db_path))


def build_service(
    settings: Settings, *, backend: Backend | None = None, store: SqliteStore | None = None
) -> Service:
    settings.db_path.parent.mkdir(parents=True, exist_ok=True)
    store = store or SqliteStore(str(settings.db_path))
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

    planner = Planner(read, ledger=ledger, bulk_threshold=settings.bulk_threshold)
    executor = Executor(store, backend, link_for=registry.link_for, concurrency=settings.concurrency)
    return Service(settings, store, backend, planner, executor)
