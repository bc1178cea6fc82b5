"""Every toolkit module, registered the same way: adding one is adding a module and a line here."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from toolkits import attio, googlecalendar, linear
from toolkits._ops import Operation
from toolkits.base import ToolAction

__all__ = ["TOOLKITS", "link_for", "operation", "rate_budget", "versions"]

TOOLKITS: dict[str, ModuleType] = {m.TOOLKIT: m for m in (attio, linear, googlecalendar)}


def operation(toolkit: str, name: str) -> Operation:
    return TOOLKITS[toolkit].OPERATIONS[name]  # type: ignore[no-any-return]


def link_for(action: ToolAction, data: Any) -> str | None:
    module = TOOLKITS.get(action.toolkit)
    return module.link_for(data) if module else None  # type: ignore[no-any-return]


def rate_budget(toolkit: str) -> int:
    module = TOOLKITS.get(toolkit)
    return int(module.RATE_BUDGET_PER_MINUTE) if module else 60


def versions() -> dict[str, str]:
    return {name: str(m.VERSION) for name, m in TOOLKITS.items()}
