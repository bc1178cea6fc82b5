"""What Service's parts (`_drafts.DraftCommands`, `_lifecycle.LifeCycle`) share: its collaborators and
the audit log, which Service itself writes."""

from __future__ import annotations

from typing import Any

from drafts import DraftStore
from planner import Planner
from server.settings import Settings
from toolkits.base import Backend

__all__ = ["ServicePart"]


class ServicePart:
    settings: Settings
    store: DraftStore
    backend: Backend
    planner: Planner

    async def _audit(
        self,
        user: str,
        conversation_id: str | None,
        text: str,
        intent: str,
        decision: str,
        calls: list[dict[str, Any]] | None,
        preview: str | None,
        producer: str | None = None,
    ) -> None:
        raise NotImplementedError  # Service writes the record
