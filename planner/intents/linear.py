"""Linear: new issues (one, a list, with team/project/labels/priority/due date) and templates
(onboarding, renewal) expanded per deal."""

from __future__ import annotations

import re

from planner.analysis import Clause, analyse
from planner.context import BuildContext
from planner.directory import Entity
from planner.intents import rule
from planner.intents._common import clean_title, find, priority_of, strip_spans
from planner.intents._linear_common import find_user, team_state
from planner.resolve import best, find_mentions, keys_for
from toolkits.linear import ops

__all__ = ["create_issue", "create_project", "template"]


def _template_key(clause: Clause, ctx: BuildContext) -> str | None:
    for key, tpl in ctx.config.get("templates", {}).items():
        words = {key, str(tpl.get("title_ru", ""))}
        probe = keys_for(" ".join(words))
        if any(k.lemmas & p.lemmas or k.text == p.text for k in clause.keys for p in probe):
            return str(key)
    return None


async def _deal_for(clause: Clause, ctx: BuildContext) -> Entity | None:
    if ctx.memory.get("deal"):
        return ctx.memory["deal"]  # type: ignore[no-any-return]
    mentions = await find(ctx, clause, "deal", text=ctx.memory.get("full_text", clause.text))
    if not mentions:
        return None
    deal = ctx.choose("deal", "deal", clause.text, mentions, ctx.t("Для какой сделки?", "For which deal?"))
    ctx.memory["deal"] = deal
    return deal


async def _project(ctx: BuildContext, key_or_name: str | None) -> Entity | None:
    if not key_or_name:
        return None
    projects = await ctx.directory.projects()
    mentions = find_mentions(keys_for(key_or_name), projects)
    top = best(mentions)
    return top[0].entity if len(top) == 1 else None


async def _team(clause: Clause, ctx: BuildContext, fallback_key: str | None) -> Entity | None:
    teams = await ctx.directory.teams()
    for t in teams:  # exact key ("DES", "ENG") first: keys are short and fuzzy matching would misfire
        if re.search(rf"\b{re.escape(str(t.extra.get('key')))}\b", clause.text):
            return t
    m = re.search(r"(?:команд[аеуы]|team)\s+([\w-]+)|([\w-]+)\s+team", clause.text, re.IGNORECASE)
    if m:
        mentions = find_mentions(keys_for(m.group(1) or m.group(2)), teams)
        if mentions:
            return mentions[0].entity
    return next((t for t in teams if t.extra.get("key") == fallback_key), teams[0] if teams else None)


@rule(20)
async def template(clause: Clause, ctx: BuildContext) -> bool:
    # the template word must qualify the tasks ("задачи онбординга", "the renewal tasks"), not sit in
    # an explicit title after a colon ("Create an issue: update the onboarding docs")
    head = clause.text.split(":", 1)[0] if clause.after_colon is not None else clause.text
    key = _template_key(analyse(head, ctx.now), ctx)
    singular = re.search(r"\b(an?|one|одну|один)\s+(?:\w+\s+)?(issue|task|ticket|задач[уа])\b", head, re.I)
    explicit_list = clause.after_colon is not None and "," in clause.after_colon
    if key is None or singular or explicit_list or not (clause.has("create") or clause.has("put")):
        return False
    tpl = ctx.config["templates"][key]
    deal = await _deal_for(clause, ctx)
    if deal is None:
        raise ctx.ask(
            "deal",
            ctx.t("Для какой сделки создать задачи?", "Which deal are the tasks for?"),
            choices=[(d.name, d.id) for d in (await ctx.directory.deals())[:5]],
        )
    company = str(deal.extra.get("company") or deal.name)
    team = await _team(clause, ctx, tpl.get("team"))
    if team is None:
        raise ctx.ask("team", ctx.t("В какой команде Linear?", "Which Linear team?"))
    project = await _project(ctx, tpl.get("project"))
    labels = {lbl.name: lbl.id for lbl in await ctx.directory.labels()}
    label_ids = [labels[n] for n in tpl.get("labels", []) if n in labels]
    state = await team_state(ctx, team.id, type_="unstarted")
    for task in tpl.get("tasks", []):
        title = str(task["title"]).format(company=company)
        fields = {
            "teamId": team.id,
            "title": title,
            "projectId": project.id if project else None,
            "labelIds": label_ids,
            "stateId": state.id if state else None,
        }
        ctx.add(
            ops.create_issue(
                [deal.id, str(task["key"])],
                fields,
                ctx.t(
                    f"Linear {team.extra.get('key')}: «{title}»", f"Linear {team.extra.get('key')}: '{title}'"
                ),
            )
        )
    ctx.summary_parts.append(
        ctx.t(f"задачи «{tpl.get('title_ru', key)}» для {company}", f"{key} tasks for {company}")
    )
    return True


def _items(text: str) -> list[str]:
    parts = re.split(r"\s*(?:,|;|\n|\s+и\s+|\s+and\s+)\s*", text)
    return [p.strip(" .-—•") for p in parts if p.strip(" .-—•")]


@rule(60)
async def create_issue(clause: Clause, ctx: BuildContext) -> bool:
    noun = clause.has("task", "issue")
    starts_as_task = re.match(r"\s*(задача|task|todo|issue|баг|bug)\s*:", clause.text, re.IGNORECASE)
    if not (
        (clause.has("create") or clause.has("remind") or starts_as_task)
        and (noun or clause.has("linear") or starts_as_task)
    ):
        return False
    if clause.has("query") and clause.first("query") < clause.first("create", "remind", "put"):
        return False  # "list open issues", "what CRM tasks are open": a question, not a create
    if clause.text.rstrip().endswith("?") and not clause.has("create"):
        return False
    plural = bool(
        re.search(r"\b(задачи|задач|тикеты|баги|issues|tasks|tickets|bugs)\b", clause.text, re.IGNORECASE)
    )
    team = await _team(clause, ctx, ctx.config.get("defaults", {}).get("linear_team"))
    if team is None:
        raise ctx.ask("team", ctx.t("В какой команде Linear?", "Which Linear team?"))
    spans = list(clause.moment.spans)
    body = clause.after_colon if clause.after_colon is not None else clause.text
    offset = len(clause.text) - len(body) if clause.after_colon is not None else 0
    local_spans = [(s - offset, e - offset) for s, e in spans if s >= offset]
    raw = strip_spans(body, local_spans)
    if clause.after_colon is not None and plural:
        titles = _items(raw)
    else:
        titles = [clean_title(raw, ctx.lang)]
    titles = [clean_title(t, ctx.lang) if clause.after_colon is not None else t for t in titles]
    titles = [t for t in titles if t]
    answered = ctx.answer("title")
    if not titles and answered and answered.strip():
        titles = [answered.strip()[:255]]
    if not titles:
        raise ctx.ask("title", ctx.t("Как назвать задачу?", "What should the task be called?"))
    labels = {lbl.name.lower(): lbl.id for lbl in await ctx.directory.labels()}
    label_ids = [labels["bug"]] if clause.has("bug") and "bug" in labels else []
    priority = (
        priority_of(clause.text)
        if (clause.has("priority") or re.search(r"срочн|urgent", clause.text, re.I))
        else None
    )
    due = clause.moment.day.isoformat() if clause.moment.day else None
    state_id = None
    if due is None and clause.moment.at is None:
        inbox = ctx.config.get("defaults", {}).get("inbox_state", "Triage")
        state = await team_state(ctx, team.id, name=inbox)
        state_id = (
            state.id if state else None
        )  # seed 000: a generic task with no date and no time goes to Inbox
    assignee = None
    who_text = re.search(
        r"\b(?:assign(?:ed)?\s+to|назначь\s+на|исполнитель)\s+([\w-]+(?:\s+[\w-]+)?)", clause.text, re.I
    )
    if who_text:
        assignee = await find_user(clause, ctx, who_text.group(1))
    project = None
    pm = re.search(
        r"\b(?:в\s+проект[еa]?|in\s+(?:the\s+)?project|project)\s+[«\"']?([^,.;:»\"']+)", clause.text, re.I
    )
    if pm:
        project = await _project(ctx, pm.group(1))
        if project is None:
            name = pm.group(1).strip()[:50]
            ctx.notes.append(
                ctx.t(
                    f"Проекта «{name}» нет — создаю его отдельным шагом.",
                    f"There is no project '{name}' - creating it as a separate step.",
                )
            )
            pidx = ctx.add(
                ops.create_project(
                    name, [team.id], ctx.t(f"Linear: новый проект «{name}»", f"Linear: new project '{name}'")
                )
            )
            project = Entity("project", f"$ref:{pidx}.id", name)
    key = str(team.extra.get("key"))
    for i, title in enumerate(titles):
        fields = {
            "teamId": team.id,
            "title": title,
            "dueDate": due,
            "priority": priority,
            "labelIds": label_ids,
            "stateId": state_id,
            "assigneeId": assignee.id if assignee else None,
            "projectId": project.id if project else None,
        }
        extra = "".join(
            [
                f", {ctx.t('срок', 'due')} {due}" if due else "",
                f", {ctx.t('приоритет', 'priority')} {priority}" if priority else "",
            ]
        )
        depends = (
            int(project.id.split(":")[1].split(".")[0])
            if project and project.id.startswith("$ref:")
            else None
        )
        ctx.add(
            ops.create_issue(
                [ctx.memory.get("plan_id", "plan"), str(ctx.clause_index), str(i)],
                fields,
                ctx.t(
                    f"Linear {key}: новая задача «{title}»{extra}",
                    f"Linear {key}: new issue '{title}'{extra}",
                ),
                depends_on=depends,
            )
        )
    return True


@rule(58)
async def create_project(clause: Clause, ctx: BuildContext) -> bool:
    """An explicit "create a project X" (seed 002: a project is never created implicitly)."""
    if not clause.has("create") or not clause.has("project") or clause.has("task", "issue", "query"):
        return False
    m = re.search(
        r"(?:проект[а-я]*|project)\s+(?:called\s+|named\s+|под названием\s+)?[«\"']?([^«»\"':,.;]+?)[»\"']?"
        r"(?:\s+(?:in|for|в|для)\s+(?:команд\w+\s+|team\s+)?[\w-]+)?\s*$",
        clause.text,
        re.I,
    )
    name = (m.group(1).strip() if m else "") or (ctx.answer("name") or "").strip()
    if not name:
        raise ctx.ask("name", ctx.t("Как назвать проект?", "What should the project be called?"))
    team = await _team(clause, ctx, ctx.config.get("defaults", {}).get("linear_team"))
    if team is None:
        raise ctx.ask("team", ctx.t("Для какой команды Linear?", "Which Linear team?"))
    existing = find_mentions(keys_for(name), await ctx.directory.projects())
    if existing and existing[0].score >= 1.0:
        ctx.notes.append(
            ctx.t(
                f"Проект «{existing[0].entity.name}» уже есть.",
                f"'{existing[0].entity.name}' already exists.",
            )
        )
        return True
    ctx.add(
        ops.create_project(
            name[:80],
            [team.id],
            ctx.t(
                f"Linear: новый проект «{name}» (команда {team.name})",
                f"Linear: new project '{name}' (team {team.name})",
            ),
        )
    )
    return True
