"""The server's life cycle behind the MCP boundary: finish what a crash left executing, keep looking
for more while serving (with several processes on one database, any live one finishes another's),
and audit every draft finished that way; then close the backend and the store."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from drafts import RecoveryReport, recover, recovery_loop
from server._helpers import call_summary
from server._parts import ServicePart
from server.render import execution_message
from server.retention import retention_loop
from toolkits import registry

__all__ = ["LifeCycle"]

log = logging.getLogger("planner.service")


class LifeCycle(ServicePart):
    """Mixed into Service."""

    _recovery: asyncio.Task[None]
    _retention: asyncio.Task[None]
    _pruning: asyncio.Task[None]

    async def start(self) -> None:
        """Finish drafts a crash left executing (DESIGN §7), then keep an eye out for more: with several
        processes on one database, any live one finishes another's."""
        grace_s, lease_s = self.settings.reconcile_grace_s, self.settings.lease_s
        try:
            report = await recover(
                self.store, self.backend, grace_s=grace_s, lease_s=lease_s, link_for=registry.link_for
            )
            if report.changed:
                await self._recovered(report)
        except Exception:  # recovery must never stop the server from answering
            log.exception("startup recovery failed")
        self._pruning = asyncio.create_task(self._prune_every(self.settings.prune_interval_s))
        self._recovery = asyncio.create_task(
            recovery_loop(
                self.store,
                self.backend,
                grace_s=grace_s,
                lease_s=lease_s,
                every_s=self.settings.recovery_interval_s,
                link_for=registry.link_for,
                on_report=self._recovered,
            )
        )
        self._retention = asyncio.create_task(retention_loop(self.store, self.settings.audit_retention_days))

    async def _prune_every(self, every_s: float) -> None:
        """Keep the store bounded (DESIGN §10): expired plans and drafts go, finished drafts lose
        their bulk; once at start, then every `every_s`."""
        while True:
            try:
                removed = await self.store.prune()
                if removed:
                    log.info("pruned %d stored rows", removed)
            except Exception:  # pruning must never stop the server from answering
                log.exception("pruning the store failed")
            await asyncio.sleep(every_s)

    async def _recovered(self, report: RecoveryReport) -> None:
        """A draft finished by recovery was executed all the same: its owner's audit log says so."""
        log.warning("recovered drafts left executing by a crash: %s", report)
        for found in report.drafts:
            draft = await self.store.get_draft(found.draft_id, found.owner)
            if draft is None:
                continue
            await self._audit(
                found.owner,
                draft.conversation_id,
                f"recover {draft.id}",
                "MUTATE",
                "EXECUTE",
                [call_summary(a) for a in draft.actions],
                execution_message(draft),
            )

    async def stop(self) -> None:
        for name in ("_recovery", "_retention", "_pruning"):
            task = getattr(self, name, None)
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await self.planner.aclose()
        await self.backend.aclose()
        await self.store.close()
