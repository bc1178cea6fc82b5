"""Linear: issues by identifier (complete, archive, comment, update, read), new issues, templates,
projects."""

from __future__ import annotations

import re
from typing import Any

from planner.analysis import Clause, analyse
from planner.context import BuildContext
from planner.directory import Entity
from planner.intents import rule
from planner.intents._common import clean_title, find, priority_of, strip_spans
from planner.resolve import best, find_mentions, keys_for
from toolkits.linear import ops

__all__ = ["create_issue", "issue_by_reference", "issue_by_words", "template"]


def _asks(clause: Clause) -> bool:
    """A question about the issue rather than a command ("покажи ENG-101", "is ENG-101 done?")."""
    return clause.text.rstrip().endswith("?") or bool(
        re.match(
            r"\s*(покажи|показать|найди|что|какой|какая|show|find|what|which|is|did|has)\b", clause.text, re.I
        )
    )


def _issue_name(issue: dict[str, Any]) -> str:
    return f"{issue.get('identifier')} «{issue.get('title')}»"


async def _my_issue_choices(ctx: BuildContext) -> list[tuple[str, str]]:
    me = next((u for u in await ctx.directory.users() if u.extra.get("is_me")), None)
    if me is None:
        return []
    from planner.directory import _rows

    rows = _rows(
        await ctx.directory._read("LINEAR_LIST_LINEAR_ISSUES", {"assignee_id": me.id, "first": 10}), "issues"
    )
    return [(f"{r.get('identifier')} {r.get('title')}", str(r.get("identifier"))) for r in rows[:5]]


async def _resolve_issue(clause: Clause, ctx: BuildContext) -> dict[str, Any] | None:
    ident = ctx.answer("issue") or (clause.identifiers[0] if clause.identifiers else None)
    if ident is None and ctx.memory.get("issue"):
        return dict(ctx.memory["issue"])
    if ident is None:
        return None
    issue = await ctx.directory.issue(ident)
    if issue is None:
        choices = await _my_issue_choices(ctx)
        listing = "\n".join(f"• {label}" for label, _ in choices)
        raise ctx.ask(
            "issue",
            ctx.t(
                f"Не нашёл задачу «{ident}». Ваши задачи:\n{listing}",
                f"I couldn't find a task matching '{ident}'. Here are your current tasks:\n{listing}",
            ),
            choices=choices,
            risk="missing_required",
        )
    ctx.note_entity(
        "issue",
        ident,
        Entity(
            "issue",
            str(issue["id"]),
            str(issue.get("title", "")),
            str(issue.get("identifier", "")),
            issue.get("url"),
        ),
        [],
        1.0,
    )
    ctx.memory["issue"] = issue
    return issue


async def _team_state(
    ctx: BuildContext, team_id: str, *, type_: str | None = None, name: str | None = None
) -> Entity | None:
    states = await ctx.directory.states(team_id)
    for s in states:
        if name and s.name.lower() == name.lower():
            return s
    for s in states:
        if type_ and s.extra.get("type") == type_:
            return s
    return None


async def _user(clause: Clause, ctx: BuildContext, text: str | None = None) -> Entity | None:
    mentions = await find(ctx, clause, "user", text=text)
    if not mentions:
        return None
    return ctx.choose(
        "assignee",
        "member",
        text or clause.text,
        mentions,
        ctx.t("На кого назначить?", "Who should it be assigned to?"),
    )


def _assignee_text(clause: Clause) -> str | None:
    m = re.search(
        r"\b(?:на|assign(?:ed)?\s+(?:it\s+)?to|to|для|назначь\s+\S+\s+на)\s+([A-ZА-ЯЁ][\w-]+(?:\s+[A-ZА-ЯЁ][\w-]+)?)",
        clause.text,
    )
    return m.group(1) if m else None


@rule(30)
async def issue_by_reference(clause: Clause, ctx: BuildContext) -> bool:
    refers = bool(clause.identifiers) or (
        ctx.memory.get("issue")
        and clause.has("assign", "due", "priority", "rename")
        and not clause.has("deal")
    )
    if not refers:
        return False
    issue = await _resolve_issue(clause, ctx)
    if issue is None:
        return False
    iid, name = str(issue["id"]), _issue_name(issue)
    team_id = str((issue.get("team") or {}).get("id", ""))
    if clause.has("comment"):
        body = clause.after_colon or clean_title(
            re.sub(r"(?i)\b[A-Z]{1,10}-\d+\b", " ", clause.text), ctx.lang
        )
        body = re.sub(r"(?i)^(?:прокомментируй|комментарий|comment on|comment)\s*", "", body).strip()
        if not body:
            raise ctx.ask("body", ctx.t("Что написать в комментарии?", "What should the comment say?"))
        ctx.add(
            ops.comment_issue(
                iid,
                body,
                ctx.t(f"Linear: комментарий к {name}: «{body}»", f"Linear: comment on {name}: '{body}'"),
            )
        )
        return True
    if clause.has("delete", "archive"):
        ctx.add(
            ops.archive_issue(
                iid,
                ctx.t(
                    f"Linear: архивировать {name} (пропадёт из списков команды)",
                    f"Linear: archive {name} (it disappears from the team's lists)",
                ),
            )
        )
        ctx.risks.append(_destructive(ctx, name))
        return True
    if clause.has("complete") and not _asks(clause):
        done = await _team_state(ctx, team_id, type_="completed")
        if done is None:
            raise ctx.ask("state", ctx.t("В какой статус перевести?", "Which state should it move to?"))
        ctx.add(
            ops.update_issue(
                iid,
                {"stateId": done.id},
                ctx.t(f"Linear: {name} → {done.name}", f"Linear: {name} → {done.name}"),
                operation="complete_issue",
            )
        )
        return True
    fields: dict[str, Any] = {}
    parts: list[str] = []
    if clause.has("assign") or _assignee_text(clause) and clause.has("put", "move"):
        who = await _user(clause, ctx, _assignee_text(clause) or clause.text)
        if who is None:
            raise ctx.ask(
                "assignee",
                ctx.t("На кого назначить?", "Who should it be assigned to?"),
                choices=[(u.name, u.id) for u in (await ctx.directory.users())[:5]],
            )
        fields["assigneeId"] = who.id
        parts.append(ctx.t(f"исполнитель {who.name}", f"assignee {who.name}"))
    if clause.has("due") or (clause.moment.day and clause.has("put", "move")):
        if clause.moment.day is None:
            raise ctx.ask("due", ctx.t("Какой срок поставить?", "What due date should it have?"))
        fields["dueDate"] = clause.moment.day.isoformat()
        parts.append(ctx.t(f"срок {fields['dueDate']}", f"due {fields['dueDate']}"))
        if clause.moment.day < ctx.now.date():
            ctx.notes.append(
                ctx.t("Срок в прошлом — проверьте дату.", "The due date is in the past - check it.")
            )
    if clause.has("priority") or priority_of(clause.text) and clause.has("put", "move"):
        p = priority_of(clause.text)
        if p is None:
            raise ctx.ask(
                "priority",
                ctx.t("Какой приоритет?", "Which priority?"),
                choices=[("Urgent", "1"), ("High", "2"), ("Medium", "3"), ("Low", "4")],
            )
        fields["priority"] = p
        parts.append(ctx.t(f"приоритет {p}", f"priority {p}"))
    if clause.has("rename") and clause.after_colon:
        fields["title"] = clause.after_colon
        parts.append(ctx.t(f"название «{clause.after_colon}»", f"title '{clause.after_colon}'"))
    if fields:
        prev = next(
            (a for a in ctx.actions if a.operation == "update_issue" and a.args.get("issueId") == iid), None
        )
        if prev is not None:  # "назначь ENG-103 на Олега и поставь срок" is one update
            ctx.actions.remove(prev)
            fields = {**{k: v for k, v in prev.args.items() if k != "issueId"}, **fields}
            parts = [prev.preview.split(": ", 1)[-1], *parts]
        overwritten = [
            k
            for k, src in (("assigneeId", "assignee"), ("dueDate", "dueDate"))
            if k in fields and issue.get(src)
        ]
        if overwritten:
            ctx.risks.append(_overwrite(ctx, name, overwritten))
        ctx.add(ops.update_issue(iid, fields, f"Linear: {name}: " + ", ".join(parts)))
        return True
    ctx.add(ops.get_issue(str(issue.get("identifier") or iid)))
    return True


def _destructive(ctx: BuildContext, name: str) -> Any:
    from planner.models import RiskFlag

    return RiskFlag(
        kind="destructive", details=ctx.t(f"{name} будет архивирована", f"{name} will be archived")
    )


def _overwrite(ctx: BuildContext, name: str, fields: list[str]) -> Any:
    from planner.models import RiskFlag

    return RiskFlag(
        kind="destructive",
        details=ctx.t(
            f"у {name} будут перезаписаны поля: {', '.join(fields)}",
            f"{name}: overwrites {', '.join(fields)}",
        ),
    )


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
    if (
        key is None
        or singular
        or explicit_list
        or not (clause.has("task", "issue") and (clause.has("create") or clause.has("put")))
    ):
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
    state = await _team_state(ctx, team.id, type_="unstarted")
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
    if clause.has("query") and not clause.has("create"):
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
        state = await _team_state(ctx, team.id, name=inbox)
        state_id = (
            state.id if state else None
        )  # seed 000: a generic task with no date and no time goes to Inbox
    assignee = None
    who_text = re.search(
        r"\b(?:assign(?:ed)?\s+to|назначь\s+на|исполнитель)\s+([\w-]+(?:\s+[\w-]+)?)", clause.text, re.I
    )
    if who_text:
        assignee = await _user(clause, ctx, who_text.group(1))
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


_POSITION = {
    "first": 0, "1st": 0, "перв": 0, "second": 1, "2nd": 1, "втор": 1, "third": 2, "3rd": 2, "трет": 2,
    "last": -1, "последн": -1,
}  # fmt: skip
_FILLER = re.compile(
    r"\b(?:mark|as|done|complete|completed|close|finish|finished|resolve|delete|remove|archive|comment|on|the|a|an|"
    r"issue|task|ticket|in|my|list|i'm|i am|with|закрой|закрыть|заверши|выполни|удали|отметь|задачу|задача|тикет|"
    r"как|готово|сделано|выполненной|выполненную|в|моем|моём|списке|из|про|about|с|я|закончил|закончила|done)\b",
    re.IGNORECASE,
)


@rule(32)
async def issue_by_words(clause: Clause, ctx: BuildContext) -> bool:
    """An issue named by position ("the first one"), number ("#2") or words of its title (seed 004)."""
    if (
        clause.identifiers
        or not clause.has("complete", "delete", "archive", "comment")
        or clause.has("deal", "note")
    ):
        return False
    if not clause.has("issue", "task") and not re.search(
        r"\b(done with|закончил\w*\s+с)\b", clause.text, re.I
    ):
        return False
    if clause.has("create") or re.match(r"\s*(покажи|найди|show|list|find|search)\b", clause.text, re.I):
        return False
    listing: list[dict[str, Any]] = list(ctx.conversation.get("last_list") or [])
    low = clause.text.lower()
    pos = next((v for k, v in _POSITION.items() if re.search(rf"\b{k}", low)), None)
    num = re.search(r"#\s*(\d{1,3})\b|\b(?:task|issue|задач[ау])\s+(\d{1,3})\b", low)
    if pos is not None or num:
        index = pos if pos is not None else int(num.group(1) or num.group(2)) - 1  # type: ignore[union-attr]
        if listing and -len(listing) <= index < len(listing):
            ident = str(listing[index].get("identifier"))
            clause.identifiers.append(ident)
            return await issue_by_reference(clause, ctx)
        choices = await _my_issue_choices(ctx)
        raise ctx.ask(
            "issue",
            ctx.t(
                "Какую задачу? Я ещё не показывал список в этом разговоре.",
                "Which issue? I haven't shown a list in this conversation yet.",
            ),
            choices=choices,
        )
    phrase = re.sub(r"\s{2,}", " ", _FILLER.sub(" ", clause.text)).strip(" .,!?:")
    if not phrase:
        return False
    answered = ctx.answer("issue")
    if answered:
        clause.identifiers.append(answered)
        return await issue_by_reference(clause, ctx)
    found = await ctx.directory.search_issues(phrase)
    if not found:
        words = [w for w in phrase.split() if len(w) > 3]
        found = await ctx.directory.search_issues(words[0]) if words else []
    if len(found) == 1:
        clause.identifiers.append(str(found[0].get("identifier")))
        return await issue_by_reference(clause, ctx)
    if not found:
        choices = await _my_issue_choices(ctx)
        listing_txt = "\n".join(f"• {label}" for label, _ in choices)
        raise ctx.ask(
            "issue",
            ctx.t(
                f"Не нашёл задачу «{phrase}». Ваши задачи:\n{listing_txt}",
                f"I couldn't find a task matching '{phrase}'. Here are your current tasks:\n{listing_txt}",
            ),
            choices=choices,
        )
    options = [(f"{r.get('identifier')} {r.get('title')}", str(r.get("identifier"))) for r in found[:5]]
    numbered = "\n".join(f"{i + 1}. {label}" for i, (label, _) in enumerate(options))
    raise ctx.ask(
        "issue",
        ctx.t(
            f"Нашёл несколько задач по «{phrase}»:\n{numbered}\nКакую вы имели в виду?",
            f"I found multiple tasks that match '{phrase}':\n{numbered}\nWhich one did you mean?",
        ),
        choices=options,
        risk="ambiguous",
        free_text=False,
    )
