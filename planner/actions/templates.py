"""Templates (onboarding, renewal) -> one Linear issue per task, per deal. Each is scoped
`linear:create_issue:<deal_id>:<task key>`, so asking twice shows the tasks as already done."""

from __future__ import annotations

from typing import Any

from planner import references as refs
from planner.actions import builds, need
from planner.context import BuildContext, Invalid
from planner.directory import Entity
from planner.intents.models import ApplyTemplate
from planner.resolve import best, find_mentions, keys_for, match_words
from planner.text import norm
from toolkits.linear import ops

__all__ = ["template_key"]


def template_key(ctx: BuildContext, name: str) -> str | None:
    """A template by its key or its name in either language ("онбординга", "Onboarding")."""
    words = keys_for(name)
    for key, tpl in ctx.config.get("templates", {}).items():
        probe = keys_for(f"{key} {tpl.get('title_ru', '')}")
        if norm(name) == key or any(k.lemmas & p.lemmas or k.text == p.text for k in words for p in probe):
            return str(key)
    return None


async def _project(ctx: BuildContext, key_or_name: str | None) -> Entity | None:
    if not key_or_name:
        return None
    projects = await ctx.directory.projects()
    top = best(find_mentions(keys_for(key_or_name), projects))
    return top[0].entity if len(top) == 1 else None


def _is_task(said: str, task: dict[str, Any]) -> bool:
    """The words name this task of a template: its key ("quote") or words of its title."""
    return match_words(
        keys_for(said), keys_for(f"{task['key']} " + str(task["title"]).replace("{company}", ""))
    )


@builds("apply_template")
async def apply_template(intent: ApplyTemplate, ctx: BuildContext) -> None:
    key = template_key(ctx, need(ctx, intent, "template"))
    templates: dict[str, Any] = ctx.config.get("templates", {})
    if key is None:
        raise Invalid(f"template: «{intent.template}» is not a template (allowed: {', '.join(templates)})")
    tpl = templates[key]
    deal: Entity = intent.resolved("deal") or await refs.deal(ctx, need(ctx, intent, "deal"))
    company = str(deal.extra.get("company") or deal.name)
    team: Entity = intent.resolved("team") or await refs.team(ctx, intent.team or tpl.get("team"))
    project = await _project(ctx, tpl.get("project"))
    label_ids = [x.id for x in await ctx.directory.labels(team.id) if x.name in tpl.get("labels", [])]
    state = next((s for s in await ctx.directory.states(team.id) if s.extra.get("type") == "unstarted"), None)
    tasks = list(tpl.get("tasks", []))
    for said in intent.skip or []:  # "renewal tasks for Initech but don't create the quote one yet"
        left = [t for t in tasks if not _is_task(said, t)]
        if len(left) == len(tasks):
            names = ", ".join(str(t["key"]) for t in tpl.get("tasks", []))
            raise Invalid(f"skip: «{said}» is none of the {key} tasks ({names})")
        tasks = left
    if intent.skip:
        ctx.notes.append(ctx.t("Не создаю: ", "Leaving out: ") + ", ".join(intent.skip))
    # "renewal tasks for Initech, make Oleg the assignee on both, due Dec 15": the same for every task
    assignee: Entity | None = intent.resolved("assignee")
    if assignee is None and intent.assignee:
        assignee = await refs.user(ctx, intent.assignee)
    due = refs.day(ctx, intent.due, "due").isoformat() if intent.due else None
    told = "".join(
        [
            f", {ctx.t('исполнитель', 'assignee')} {assignee.name}" if assignee else "",
            f", {ctx.t('срок', 'due')} {ctx.said_day(due)}" if due else "",
        ]
    )
    for task in tasks:
        title = str(task["title"]).format(company=company)
        fields = {
            "teamId": team.id,
            "title": title,
            "projectId": project.id if project else None,
            "labelIds": label_ids,
            "stateId": state.id if state else None,
            "assigneeId": assignee.id if assignee else None,
            "dueDate": due,
        }
        key_ = team.extra.get("key")
        ctx.add(
            ops.create_issue(
                [deal.id, str(task["key"])],
                fields,
                ctx.t(f"Linear {key_}: «{title}»{told}", f"Linear {key_}: '{title}'{told}"),
            )
        )
    ctx.summary_parts.append(
        ctx.t(f"задачи «{tpl.get('title_ru', key)}» для {company}", f"{key} tasks for {company}")
    )
