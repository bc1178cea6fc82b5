"""An intent said back in words, for the question that restates a doubtful reading (seed 001)."""

from __future__ import annotations

from planner.intents.models import IntentBase

__all__ = ["describe"]

_VERBS = {
    "create_issue": ("создать задачу", "create an issue"), "update_issue": ("изменить задачу", "update the issue"),
    "complete_issue": ("закрыть задачу", "complete the issue"), "archive_issue": ("архивировать задачу", "archive the issue"),
    "comment_issue": ("прокомментировать задачу", "comment on the issue"),
    "create_project": ("создать проект", "create a project"), "create_company": ("добавить компанию", "add a company"),
    "create_person": ("добавить контакт", "add a contact"), "create_deal": ("создать сделку", "create a deal"),
    "update_deal": ("изменить сделку", "update the deal"), "update_record": ("изменить запись", "update the record"),
    "create_note": ("добавить заметку", "add a note"), "create_task": ("поставить задачу в CRM", "create a CRM task"),
    "complete_task": ("закрыть задачу в CRM", "complete the CRM task"), "delete_record": ("удалить запись", "delete the record"),
    "create_event": ("поставить событие в календарь", "add a calendar event"),
    "apply_template": ("применить шаблон", "apply the template"), "find": ("найти", "find"),
    "update_matching": ("изменить все подходящие записи", "change every matching record"),
}  # fmt: skip
_SKIP = {"op", "confidence", "span"}


def describe(intent: IntentBase, lang: str) -> str:
    op = str(getattr(intent, "op", ""))
    ru, en = _VERBS.get(op, (op, op))
    values = intent.model_dump(exclude_none=True, exclude=_SKIP)
    said = ", ".join(
        f"«{v}»"
        if lang == "ru" and k in ("title", "name", "content", "body")
        else f"{k}: {v}"
        if not isinstance(v, str) or k not in ("title", "name", "content", "body")
        else f"'{v}'"
        for k, v in values.items()
        if v not in ({}, [])
    )
    return f"{ru if lang == 'ru' else en} {said}".strip()[:300]
