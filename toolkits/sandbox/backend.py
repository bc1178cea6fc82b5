"""`SandboxBackend`: every Composio tool of the project, run against the embedded workspace."""

from __future__ import annotations

import asyncio
import copy
import os
from collections.abc import Mapping
from importlib.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkits.base import ToolResult
from toolkits.errors import InvalidArguments, OutcomeUnknown, UnknownTool, UpstreamUnavailable
from toolkits.postgres import is_postgres_url
from toolkits.results import normalise
from toolkits.sandbox import _attio, _calendar, _linear
from toolkits.sandbox._common import Args, Handler, SandboxError
from toolkits.sandbox._store import WorkspaceStore, default_fixture
from toolkits.sandbox.faults import Fault, FaultPlan
from toolkits.schemas import known_slugs, validate_arguments

if TYPE_CHECKING:
    from toolkits.sandbox._pg_store import PgWorkspaceStore

__all__ = ["READ_SLUGS", "WRITE_SLUGS", "SandboxBackend", "is_write_call"]

_READS: dict[str, Handler] = {**_attio.READS, **_linear.READS, **_calendar.READS}
_WRITES: dict[str, Handler] = {**_attio.WRITES, **_linear.WRITES, **_calendar.WRITES}

READ_SLUGS = frozenset(_READS)
WRITE_SLUGS = frozenset(_WRITES)


def is_write_call(slug: str, arguments: Args) -> bool:
    """Whether this call changes the workspace (GraphQL depends on the document sent)."""
    if slug == _linear.GRAPHQL_SLUG:
        return _linear.is_mutation(arguments)
    return slug in WRITE_SLUGS


def _open_store(
    target: str | os.PathLike[str] | None, fixture: Traversable
) -> WorkspaceStore | PgWorkspaceStore:
    if is_postgres_url(target):
        # imported here: psycopg is the optional `postgres` extra
        from toolkits.sandbox._pg_store import PgWorkspaceStore

        return PgWorkspaceStore(str(target), fixture)
    return WorkspaceStore(target, fixture)


def _raise_first(faults: list[Fault], kinds: tuple[str, ...]) -> None:
    for fault in faults:
        if fault.kind in kinds:
            if fault.kind == "unavailable":
                raise UpstreamUnavailable(fault.text(), retry_after=fault.retry_after)
            raise OutcomeUnknown(fault.text())


class SandboxBackend:
    """The embedded workspace behind Composio's slugs, argument schemas and result envelope.

    State lives in SQLite (`db_path`, or in memory when None) in the `sandbox_*` tables, or in
    PostgreSQL when `db_path` is a `postgresql://` URL, seeded from the fixture the first time, so
    writes survive a restart and are shared by every backend on the same database. `latency`
    seconds are awaited in every call, without holding any lock. `faults` injects transport
    failures deterministically (see `toolkits.sandbox.faults`); argument validation still comes
    first, so a call that does not fit its schema never meets a fault.
    """

    name = "sandbox"

    def __init__(
        self,
        db_path: str | os.PathLike[str] | None = None,
        *,
        fixture: Path | None = None,
        latency: float = 0.0,
        faults: FaultPlan | None = None,
    ) -> None:
        self._store = _open_store(db_path, fixture if fixture is not None else default_fixture())
        self.latency = latency
        self.faults = faults
        self.calls: list[tuple[str, dict[str, Any]]] = []

    @property
    def write_calls(self) -> list[tuple[str, dict[str, Any]]]:
        """The recorded calls that change the workspace."""
        return [(slug, args) for slug, args in self.calls if is_write_call(slug, args)]

    async def execute(self, slug: str, arguments: Mapping[str, Any]) -> ToolResult:
        """Run one tool call and read its result as every backend does (`toolkits.results`):
        business failures, a GraphQL `errors` array included, come back as `successful: False`.

        Raises:
            as `execute_wire`.
        """
        return normalise(slug, await self.execute_wire(slug, arguments))

    async def execute_wire(self, slug: str, arguments: Mapping[str, Any]) -> ToolResult:
        """Run one tool call and answer exactly as Composio would on the wire (what `sandbox-api`
        serves): Linear's GraphQL body under `data`, Calendar's event under `response_data`, ...

        Raises:
            UnknownTool: the slug is not one of the project's Composio tools.
            InvalidArguments: the arguments do not fit the tool's input schema.
            UpstreamUnavailable: an injected "unavailable" fault (nothing was applied).
            OutcomeUnknown: an injected "unknown_before" (nothing applied) or "unknown_after"
                (the call was applied) fault.
        """
        args = copy.deepcopy(dict(arguments))
        self.calls.append((slug, args))
        if slug not in known_slugs():
            raise UnknownTool(f"Unknown tool '{slug}'")
        problems = validate_arguments(slug, args)
        if problems:
            raise InvalidArguments(slug, problems)
        faults = [] if self.faults is None else self.faults.on_call(slug, write=is_write_call(slug, args))
        delay = self.latency + sum(f.seconds for f in faults if f.kind == "latency")
        if delay > 0:
            await asyncio.sleep(delay)
        _raise_first(faults, ("unavailable", "unknown_before"))
        result = await asyncio.to_thread(self._run, slug, copy.deepcopy(args))
        _raise_first(faults, ("unknown_after",))
        return result

    def _run(self, slug: str, args: dict[str, Any]) -> ToolResult:
        try:
            if is_write_call(slug, args):
                handler: Handler = _WRITES.get(slug, _linear.run_query_or_mutation)
                data = self._store.mutate(lambda workspace: handler(workspace, args))
            else:
                handler = _READS.get(slug, _linear.run_query_or_mutation)
                data = handler(self._store.snapshot(), args)
        except SandboxError as error:
            return {"data": {}, "error": str(error), "successful": False}
        return {"data": data, "error": None, "successful": True}

    async def aclose(self) -> None:
        await asyncio.to_thread(self._store.close)

    async def __aenter__(self) -> SandboxBackend:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
