"""Intents -> tool actions: resolution of every reference, business checks, previews, idempotency
scopes and risk flags, in one place for every producer (the rules, a client's model, a `command`,
the interpreter).

Each toolkit area is one module that registers a builder per operation with `@builds(op)`; a new
toolkit adds a module to `_MODULES` and touches nothing else here.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable
from typing import Any

from planner.context import BuildContext
from planner.intents import MISSING, IntentBase

__all__ = ["Builder", "builds", "compile_intent", "need"]

Builder = Callable[[Any, BuildContext], Awaitable[None]]
BUILDERS: dict[str, Builder] = {}
_MODULES = ("linear", "attio", "calendar", "templates", "find", "bulk")

# what to ask when a required field is missing, by (op, field) then by field
_QUESTIONS: dict[str, tuple[str, str]] = {
    "create_company.name": ("Как называется компания?", "What is the company called?"),
    "create_person.name": ("Как зовут контакт?", "What is the person's name?"),
    "create_deal.name": ("Как назвать сделку?", "What should the deal be called?"),
    "create_project.name": ("Как назвать проект?", "What should the project be called?"),
    "create_note.body": ("Что записать в заметку?", "What should the note say?"),
    "comment_issue.body": ("Что написать в комментарии?", "What should the comment say?"),
    "title": ("Как назвать задачу?", "What should the task be called?"),
    "content": ("Что нужно сделать?", "What is the task?"),
    "issue": ("Какую задачу?", "Which issue?"),
    "deal": ("Какую сделку?", "Which deal?"),
    "record": ("К какой записи?", "Which record?"),
    "task": ("Какую задачу?", "Which task?"),
    "template": ("Какой шаблон: онбординг или продление?", "Which template: onboarding or renewal?"),
}


def builds(op: str) -> Callable[[Builder], Builder]:
    def register(fn: Builder) -> Builder:
        BUILDERS[op] = fn
        return fn

    return register


def need(ctx: BuildContext, intent: IntentBase, field: str) -> str:
    """A required field's value: as given, or the person's answer to the question asking for it."""
    value = getattr(intent, field)
    if value != MISSING:
        return str(value)
    answered = (ctx.answer(field) or "").strip()
    if answered:
        object.__setattr__(intent, field, answered[:500])
        return answered[:500]
    op = getattr(intent, "op", "")
    raise ctx.ask(field, ctx.t(*(_QUESTIONS.get(f"{op}.{field}") or _QUESTIONS[field])))


def _load() -> dict[str, Builder]:
    if not BUILDERS:
        for name in _MODULES:
            importlib.import_module(f"planner.actions.{name}")
    return BUILDERS


async def compile_intent(intent: IntentBase, ctx: BuildContext) -> None:
    """The actions of one intent, added to `ctx` (or the one question it needs: raises `Ask`; or
    `Invalid` for a value outside a field's allowed values)."""
    await _load()[str(intent.op)](intent, ctx)
