"""`update_matching`: one change to every record a filter matches ("close all bugs in DES"). The
records are read now and listed in the draft one action each; those already at the value are left
out and counted, and more than the bulk threshold needs the counted confirmation (DESIGN §6)."""

from __future__ import annotations

import re
from typing import Any

from planner import references as refs
from planner.actions import BUILDERS, builds
from planner.actions.find import _state_filter
from planner.answers import keep_issue
from planner.context import BuildContext, Invalid
from planner.directory import Entity
from planner.intents import IntentBase
from planner.intents.models import (
    ArchiveIssue,
    CommentIssue,
    CompleteIssue,
    CompleteTask,
    CreateNote,
    CreateTask,
    DeleteRecord,
    UpdateDeal,
    UpdateIssue,
    UpdateMatching,
)
from planner.models import RiskFlag
from planner.resolve import keys_for, match_words
from toolkits.linear import PRIORITY

__all__: list[str] = []

_FLAGS = ("complete", "archive", "delete")


def _flag(changes: dict[str, Any]) -> str | None:
    flags = [k for k in _FLAGS if changes.get(k) is True]
    if len(flags) > 1 or flags and len(changes) > 1:
        raise Invalid("changes: complete, archive and delete each stand alone (send one of them)")
    return flags[0] if flags else None


async def _run(ctx: BuildContext, one: IntentBase) -> None:
    await BUILDERS[str(one.op)](one, ctx)


def _fields(model: type[IntentBase], changes: dict[str, Any], skip: set[str]) -> dict[str, Any]:
    allowed = [n for n in model.model_fields if n not in skip]
    unknown = [k for k in changes if k not in allowed]
    if unknown:
        raise Invalid(
            f"changes.{unknown[0]}: not a field here (allowed: {', '.join(allowed)}, or complete/archive/delete)"
        )
    return dict(changes)


# one new thing on each record found ("comment on every urgent issue: …", «заметку каждому контакту Acme»,
# "a CRM task on each of Oleg's deals"): made once per record, listed and counted like any bulk change
_EACH = ("comment", "note", "task")


def _made_on_each(intent: UpdateMatching) -> str | None:
    made = [k for k in _EACH if k in intent.changes]
    if not made:
        return None
    if len(intent.changes) > 1:
        raise Invalid("changes: comment, note and task each stand alone (send one of them)")
    kind = made[0]
    fits = {
        "comment": ("issues",),
        "note": ("deals", "people", "companies"),
        "task": ("deals", "people", "companies"),
    }
    if intent.object not in fits[kind]:
        raise Invalid(f"changes.{kind}: made on {', '.join(fits[kind])}, not on {intent.object}")
    return kind


async def _each_one(intent: UpdateMatching, kind: str, ctx: BuildContext) -> list[Any]:
    """The records, and one comment, note or CRM task made on each of them."""
    said = intent.changes[kind]
    if intent.object == "issues":
        issues = await _issues(intent, ctx)
        for issue in issues:
            one: IntentBase = CommentIssue(issue=str(issue.get("identifier")), body=str(said))
            await _run(ctx, one.with_resolved(issue=issue))
        return issues
    records = await (_deals(intent, ctx) if intent.object == "deals" else _records(intent, ctx))
    for record in records:
        where = (intent.object, record)
        if kind == "note":
            one = CreateNote(record=record.name, body=str(said))
        else:
            fields = said if isinstance(said, dict) else {"content": str(said)}
            one = CreateTask.model_validate({**fields, "record": record.name})
        await _run(ctx, one.with_resolved(record=where))
    return records


@builds("update_matching")
async def update_matching(intent: UpdateMatching, ctx: BuildContext) -> None:
    each = _made_on_each(intent)
    flag = None if each else _flag(intent.changes)
    before, risks, notes = len(ctx.actions), len(ctx.risks), len(ctx.notes)
    matched: list[Any]
    if each:
        matched = await _each_one(intent, each, ctx)
    elif intent.object == "issues":
        matched = await _issues(intent, ctx)
        for issue in matched:
            ref = str(issue.get("identifier"))
            if flag == "complete":
                one: IntentBase = CompleteIssue(issue=ref)
            elif flag in ("archive", "delete"):
                one = ArchiveIssue(issue=ref)
            else:
                fields = _fields(UpdateIssue, intent.changes, {"op", "issue", "confidence", "span"})
                one = UpdateIssue.model_validate({"issue": ref, **fields})
            await _run(ctx, one.with_resolved(issue=issue))
    elif intent.object == "deals":
        matched = await _deals(intent, ctx)
        for deal in matched:
            if flag == "delete":
                one = DeleteRecord(record=deal.name, object="deals").with_resolved(record=("deals", deal))
            elif flag is not None:
                raise Invalid(f"changes.{flag}: deals can be changed or deleted, not {flag}d")
            else:
                fields = _fields(UpdateDeal, intent.changes, {"op", "deal", "confidence", "span"})
                one = UpdateDeal.model_validate({"deal": deal.name, **fields}).with_resolved(deal=deal)
            await _run(ctx, one)
    elif intent.object in ("people", "companies"):
        if flag != "delete":
            raise Invalid(f'changes: {intent.object} can only be deleted in bulk ({{"delete": true}})')
        matched = await _records(intent, ctx)
        for record in matched:
            one = DeleteRecord(record=record.name, object=intent.object).with_resolved(
                record=(intent.object, record)
            )
            await _run(ctx, one)
    else:
        if flag != "complete":
            raise Invalid('changes: CRM tasks can only be completed ({"complete": true})')
        matched = await _tasks(intent, ctx)
        for task in matched:
            await _run(
                ctx,
                CompleteTask(task=str(task.get("content_plaintext", ""))[:200] or "task").with_resolved(
                    task=task
                ),
            )
    made = len(ctx.actions) - before
    # one line per kind of remark, not one per record ("already high" x 40): the count below says it
    said = list(dict.fromkeys(ctx.notes[notes:]))
    ctx.notes[notes:] = [n for n in said if not _about_one(n)]
    if (
        sum(1 for r in ctx.risks[risks:] if r.kind == "destructive") > 1
    ):  # one warning for the lot, not one each
        ctx.risks[risks:] = [r for r in ctx.risks[risks:] if r.kind != "destructive"] + [
            RiskFlag(
                kind="destructive",
                details=ctx.t(
                    f"{made} записей будут "
                    + (
                        "удалены"
                        if flag == "delete" and intent.object == "deals"
                        else "архивированы"
                        if flag
                        else "перезаписаны"
                    ),
                    f"{made} records will be "
                    + (
                        "deleted"
                        if flag == "delete" and intent.object == "deals"
                        else "archived"
                        if flag
                        else "overwritten"
                    ),
                ),
            )
        ]
    if intent.filters.exclude:
        ctx.notes.append(ctx.t("Не трогаю: ", "Leaving out: ") + ", ".join(intent.filters.exclude))
    if not matched:
        ctx.notes.append(
            ctx.t("Под условия ничего не подходит — менять нечего.", "Nothing matches - nothing to change.")
        )
    elif made < len(matched):
        ctx.notes.append(
            ctx.t(
                f"Подходит {len(matched)}, из них {len(matched) - made} уже в нужном состоянии.",
                f"{len(matched)} match; {len(matched) - made} of them {'is' if len(matched) - made == 1 else 'are'} already there.",
            )
        )


async def _issues(intent: UpdateMatching, ctx: BuildContext) -> list[dict[str, Any]]:
    f = intent.filters
    team = await refs.team(ctx, f.team) if f.team else None
    rows: list[dict[str, Any]] = []
    for t in [team] if team else await ctx.directory.teams():
        rows += await ctx.directory.team_issues(t.id)
    flt: dict[str, Any] = {"state": await _state_filter(ctx, team, f.state)}
    if f.label:
        flt["label"] = (await refs.labels(ctx, [f.label]))[0].name
    if f.assignee and f.assignee.lower() in ("none", "nobody", "unassigned"):
        flt["unassigned"] = True
    elif f.assignee:
        flt["assignee"] = (await refs.user(ctx, f.assignee)).id
    if f.project and f.project.strip().lower() in ("none", "no project", "без проекта"):
        rows = [r for r in rows if not r.get("project")]  # "every ENG issue with no project"
    elif f.project:
        project = await refs.project(ctx, f.project)
        rows = [r for r in rows if (r.get("project") or {}).get("id") == project.id]
    if f.due_before:
        flt["due_before"] = refs.day(ctx, f.due_before, "filters.due_before").isoformat()
    if f.due_after:
        flt["due_after"] = refs.day(ctx, f.due_after, "filters.due_after").isoformat()
    if f.due == "none":
        flt["no_due"] = True
    if f.due == "any":
        flt["has_due"] = True
    if f.text:
        flt["text"] = f.text
    if f.priority:
        flt["priority"] = PRIORITY[f.priority]
    if f.exclude:
        flt["exclude"] = {e.upper() for e in f.exclude}
    if f.record:  # one issue by its identifier ("close both": each of the two named)
        rows = [r for r in rows if str(r.get("identifier", "")).upper() == f.record.upper()]
    flt = {k: v for k, v in flt.items() if v}
    return [r for r in rows if keep_issue(r, flt) and not r.get("archivedAt")]


async def _deals(intent: UpdateMatching, ctx: BuildContext) -> list[Entity]:
    return await refs.deals_matching(ctx, intent.filters)


async def _records(intent: UpdateMatching, ctx: BuildContext) -> list[Entity]:
    """People (at a company) or companies, by the words of their names."""
    f = intent.filters
    pool = await (ctx.directory.people() if intent.object == "people" else ctx.directory.companies())
    if f.company and intent.object == "people":
        _, company = await refs.crm_record(ctx, f.company, slot="company", objects=("companies",))
        pool = [p for p in pool if p.extra.get("company_id") == company.id]
    elif not (f.text or f.record):
        raise Invalid(f"filters: say which {intent.object} (company, or words of their names)")
    words = f.text or f.record
    if words:
        pool = [p for p in pool if match_words(keys_for(words), keys_for(p.name))]
    return pool


async def _tasks(intent: UpdateMatching, ctx: BuildContext) -> list[dict[str, Any]]:
    f = intent.filters
    flt: dict[str, Any] = {"is_completed": False}
    if f.record:
        obj, rec = await refs.crm_record(ctx, f.record)
        flt |= {"linked_object": obj, "linked_record_id": rec.id}
    return await ctx.directory.crm_tasks(flt)


def _about_one(note: str) -> bool:
    """A remark about one record ("ENG-103 «…»: already Backlog."), which the summary counts instead."""
    return bool(re.match(r"^(?:[A-Z]{1,10}-\d+ «|'[^']+' is already|«[^»]+» уже|Сделка «)", note))
