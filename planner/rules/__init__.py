"""Text -> intents: rules, one module per area. A rule looks at one clause and, if it recognises it,
emits intents (or raises `Ask`) through the BuildContext. Rules run in priority order; the first that
returns True owns the clause. A rule that only drafts changes says so (`writes=True`) and is never
asked about a question. Registering a new area is adding a module to `_MODULES`."""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable

from planner.analysis import Clause
from planner.context import BuildContext

__all__ = ["RULES", "WRITING", "Rule", "load_rules", "rule"]

Rule = Callable[[Clause, BuildContext], Awaitable[bool]]
RULES: list[tuple[int, str, Rule]] = []
WRITING: set[str] = set()  # rules that only ever draft changes
_MODULES = (
    "calendar",
    "bulk",
    "each",
    "issues",
    "reopened",
    "linear",
    "attio",
    "crm_notes",
    "crm_tasks",
    "new_deals",
    "crm_records",
    "crm_updates",
    "catalog",
    "finds",
    "queries",
    "follow_ups",
)


def rule(priority: int, *, writes: bool = False) -> Callable[[Rule], Rule]:
    def register(fn: Rule) -> Rule:
        RULES.append((priority, fn.__name__, fn))
        if writes:
            WRITING.add(fn.__name__)
        RULES.sort(key=lambda r: r[0])
        return fn

    return register


def load_rules() -> list[tuple[int, str, Rule]]:
    for name in _MODULES:
        importlib.import_module(f"planner.rules.{name}")
    return RULES
