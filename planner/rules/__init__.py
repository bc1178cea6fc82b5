"""Intent rules, one module per area. A rule looks at one clause and, if it recognises it, adds
actions (or raises `Ask`) through the BuildContext. Rules run in priority order; the first that
returns True owns the clause. Registering a new area is adding a module to `_MODULES`."""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable

from planner.analysis import Clause
from planner.context import BuildContext

__all__ = ["RULES", "Rule", "load_rules", "rule"]

Rule = Callable[[Clause, BuildContext], Awaitable[bool]]
RULES: list[tuple[int, str, Rule]] = []
_MODULES = (
    "calendar",
    "bulk",
    "issues",
    "linear",
    "attio",
    "crm_records",
    "crm_updates",
    "catalog",
    "queries",
)


def rule(priority: int) -> Callable[[Rule], Rule]:
    def register(fn: Rule) -> Rule:
        RULES.append((priority, fn.__name__, fn))
        RULES.sort(key=lambda r: r[0])
        return fn

    return register


def load_rules() -> list[tuple[int, str, Rule]]:
    for name in _MODULES:
        importlib.import_module(f"planner.rules.{name}")
    return RULES
