"""Attio: deal stages, new deals, companies, people, notes, CRM tasks, deletions."""

from __future__ import annotations

import re
from datetime import datetime, time

from planner.analysis import Clause, head_of
from planner.context import BuildContext
from planner.directory import Entity
from planner.intents import rule
from planner.intents._common import amount_of, clean_title, find, strip_spans, strong
from planner.models import RiskFlag
from planner.resolve import Mention, best, key_spans, keys_for, match_words
from toolkits.attio import ops

__all__ = [
    "OBJECT", "create_deal", "crm_target", "crm_task", "deal_stage", "delete_record", "note",
]  # fmt: skip

OBJECT = {"company": "companies", "person": "people", "deal": "deals"}


async def _deal(clause: Clause, ctx: BuildContext) -> Entity:
    if ctx.memory.get("deal") and not await find(ctx, clause, "deal"):
        return ctx.memory["deal"]  # type: ignore[no-any-return]
    mentions = await find(ctx, clause, "deal")
    if not mentions:
        raise ctx.ask(
            "deal",
            ctx.t("Какую сделку?", "Which deal?"),
            choices=[(d.name, d.id) for d in (await ctx.directory.deals())[:5]],
        )
    mentions += await _sharing_words(clause, ctx, mentions)
    deal = ctx.choose(
        "deal",
        "deal",
        clause.text,
        mentions,
        ctx.t("Какую сделку вы имеете в виду?", "Which deal do you mean?"),
    )
    assert deal is not None
    ctx.memory["deal"] = deal
    return deal


async def _sharing_words(clause: Clause, ctx: BuildContext, mentions: list[Mention]) -> list[Mention]:
    """ "the pilot deal" names "Globex pilot" by half its name and "Acme Logistics — pilot" by a third:
    when only part of a name matched, every deal carrying the same words is as good a match."""
    top = mentions[0]
    if top.score >= 0.9:
        return []
    words = [clause.keys[i] for i in sorted(top.positions) if i < len(clause.keys)]
    known = {m.entity.id for m in mentions}
    return [
        Mention(d, top.score, top.positions)
        for d in await ctx.directory.deals()
        if d.id not in known and words and match_words(words, keys_for(d.name))
    ]


async def _stage(clause: Clause, ctx: BuildContext) -> Entity | None:
    answered = ctx.answer("stage")
    stages = await ctx.directory.stages()
    if answered:
        return next((s for s in stages if answered in (s.id, s.name)), None)
    mentions = [m for m in await find(ctx, clause, "stage") if m.score >= 1.0]
    if mentions:
        top: Entity = mentions[0].entity
        return top
    wanted = "Won" if clause.has("signed") else "Lost" if clause.has("refused", "lost") else None
    found: Entity | None = next((s for s in stages if s.name == wanted), None) if wanted else None
    return found


@rule(40)
async def deal_stage(clause: Clause, ctx: BuildContext) -> bool:
    head = head_of(clause, ctx.now)
    statement = head.has("signed", "refused", "lost")  # "add a note: contract signed" is not a statement
    if clause.has("query") and not clause.has("move"):
        return False
    # "сделку с Альфа-Лизингом в переговоры": no verb, but a deal and "в <stage>" say it all
    named_stage = bool(
        re.search(r"\b(стади\w+|stage)\b", clause.text, re.I)
    )  # "... в стадию Космос": unknown stage
    elliptic = (
        not clause.text.rstrip().endswith("?")
        and _to_stage(clause)
        and (
            await _names_deal(clause, ctx)
            or named_stage
            and any(m.score >= 0.9 for m in await find(ctx, clause, "deal"))
            # "сделку с Яндексом в выигранные": a deal we do not know is a question, not a search
            or clause.has("deal")
            and bool([m for m in await find(ctx, clause, "stage") if m.score >= 1.0])
        )
    )
    if not (
        statement
        or elliptic
        or (clause.has("move") and (clause.has("deal", "stage") or await _names_deal(clause, ctx)))
    ):
        return False
    if clause.identifiers or clause.has("task", "issue") and not clause.has("deal"):
        return False
    if clause.creates() and clause.has("deal"):
        return False  # "заведи сделку ... на стадии КП" is a new deal
    if _OTHER_FIELD.search(clause.text) and not await find(ctx, clause, "stage"):
        return False  # "поменяй сумму сделки ..." edits the value, not the stage
    deal = await _deal(clause, ctx)
    stage = await _stage(clause, ctx)
    if stage is None:
        stages = await ctx.directory.stages()
        raise ctx.ask(
            "stage",
            ctx.t("В какую стадию перевести сделку?", "Which stage should the deal move to?"),
            choices=[(s.name, s.id) for s in stages],
        )
    ctx.note_entity("stage", stage.name, stage, [], 1.0)
    if deal.extra.get("stage") == stage.name:
        ctx.notes.append(
            ctx.t(
                f"Сделка «{deal.name}» уже в стадии {stage.name}.",
                f"The deal '{deal.name}' is already in {stage.name}.",
            )
        )
        return True
    ctx.add(
        ops.update_deal(
            deal.id,
            {"stage": stage.name},
            ctx.t(
                f"Attio: сделка «{deal.name}»: {deal.extra.get('stage') or '?'} → {stage.name}",
                f"Attio: deal '{deal.name}': {deal.extra.get('stage') or '?'} → {stage.name}",
            ),
        )
    )
    return True


_OTHER_FIELD = re.compile(
    r"\b(сумм\w*|стоимост\w*|бюджет\w*|value|amount|ответственн\w*|владел\w*|owner|reassign|assign|"
    r"переда[йт]\w*|отда[йт]\w*|должност\w*|описани\w*|домен\w*|e-?mail|почт\w*)\b",
    re.IGNORECASE,
)


def _to_stage(clause: Clause) -> bool:
    return bool(re.search(r"\b(в|во|на|to|into)\s+(стади\w+\s+|stage\s+)?\S+\s*[.!]?$", clause.text, re.I))


async def _names_deal(clause: Clause, ctx: BuildContext) -> bool:
    return bool(await find(ctx, clause, "deal")) and bool(await find(ctx, clause, "stage"))


async def crm_target(
    clause: Clause, ctx: BuildContext, slot: str, text: str | None = None
) -> tuple[str, Entity] | None:
    """The person, company or deal a note or task is about."""
    scored: list[tuple[str, Mention]] = []
    for kind in ("person", "company", "deal"):
        # a first name alone may be a person; half a deal's name is not a deal
        scored += [(kind, m) for m in strong(await find(ctx, clause, kind, text=text))]
    if not scored:
        return None
    if clause.has("deal"):
        scored = [s for s in scored if s[0] == "deal"] or scored
    elif clause.has("company"):
        scored = [s for s in scored if s[0] == "company"] or scored
    elif clause.has("person"):
        scored = [s for s in scored if s[0] == "person"] or scored
    # "Ивану из Ромашки": a person named with their company is that person, not the company
    companies = {m.entity.id for k, m in scored if k == "company" and m.score >= 0.9}
    employed = [(k, m) for k, m in scored if k == "person" and m.entity.extra.get("company_id") in companies]
    if employed:
        scored = employed
    # a company named in full beats the deal that carries its name; a near-tie in one kind stays a tie
    order = {"person": 0, "company": 1, "deal": 2}
    ranked = sorted(scored, key=lambda s: (-s[1].score, -len(s[1].positions), order[s[0]]))
    tied = {id(m) for m in best([m for _, m in ranked])}
    near = sorted([s for s in ranked if id(s[1]) in tied], key=lambda s: order[s[0]])
    kind = near[0][0]
    mentions = [m for k, m in near if k == kind]
    if kind == "person" and len(mentions) > 1:
        employers = {
            c.entity.id for c in strong(await find(ctx, clause, "company", text=text)) if c.score >= 0.9
        }
        works_there = [m for m in mentions if m.entity.extra.get("company_id") in employers]
        mentions = works_there or mentions
    chosen = ctx.choose(
        slot,
        kind,
        text or clause.text,
        mentions,
        ctx.t("Кого или что вы имеете в виду?", "Which record do you mean?"),
    )
    if chosen is not None:
        ctx.memory["record"] = (kind, chosen)  # "…and create a task to send her the contract"
    return (kind, chosen) if chosen else None


_ABOUT_RECORD = re.compile(
    r"\b(?:по|about|for|on)\s+(?:the\s+)?(?:сделк\w*|компани\w*|клиент\w*|контакт\w*|deal|company|client|contact)\b",
    re.I,
)
_PRONOUN = re.compile(r"\b(?:her|him|them|his|their|ей|ему|ним|ней|нему|неё|нее|его|их|с ними)\b", re.I)
_NOTE_SPLIT = re.compile(r"\s+[—–-]\s+|\s+(?:что|that)\s+", re.IGNORECASE)


async def _note_after_target(clause: Clause, ctx: BuildContext) -> tuple[str, str | None]:
    """No colon, dash or "что": the note is what follows the record's name and the word "заметку"."""
    spans = key_spans(clause.text)
    last = -1
    for kind in ("person", "company", "deal"):
        for m in strong(await find(ctx, clause, kind)):
            last = max(last, *m.positions)
    noun = [i for i, k in enumerate(clause.keys) if re.fullmatch(r"заметк\w*|note|запиши|оставь", k.text)]
    cut = max([last, *noun]) if noun or last >= 0 else -1
    if cut < 0 or cut + 1 >= len(spans):
        return clause.text, None
    start = spans[cut + 1][0]
    return clause.text[:start], clause.text[start:].strip(" ,.:-—") or None


_ON_RECORD = re.compile(
    r"\b(?:к|ко|у|по|on|to|for)\s+(?:the\s+)?(?:сделк\w*|компани\w*|контакт\w*|клиент\w*|deal|company|contact|record)",
    re.I,
)


@rule(45)
async def note(clause: Clause, ctx: BuildContext) -> bool:
    """ "Добавь заметку к Initech: ...", "оставь заметку у Ивана Сидорова что ...", "jot down on John's record: ..."."""
    if not (clause.has("note") or clause.has("note_verb")) or clause.asks() and not clause.after_colon:
        return False
    if (
        clause.has("note_verb")
        and not clause.has("note")
        and clause.has("person", "company", "deal", "task")
        and not _ON_RECORD.search(clause.text.split(":", 1)[0])
    ):
        return False  # "запиши новый контакт: ..." creates a record; "запиши к сделке: ..." is a note
    noun_first = re.match(
        r"\s*(?:ну\s+)?(?:заметк\w*|note)\b", clause.text, re.I
    )  # "заметка к Ивану Петрову ..."
    if not (clause.has("create", "note_verb") or clause.after_colon is not None or noun_first):
        return False
    head, content = clause.text, clause.after_colon
    if content is not None:
        head = clause.text.split(":", 1)[0]
    elif m := _NOTE_SPLIT.search(clause.text):
        head, content = clause.text[: m.start()], clause.text[m.end() :].strip()
    else:
        head, content = await _note_after_target(clause, ctx)
    target = await crm_target(clause, ctx, "target", head)
    if target is None and isinstance(
        ctx.memory.get("deal"), Entity
    ):  # "... and add a note: ..." after a deal
        target = ("deal", ctx.memory["deal"])
    if target is None:
        raise ctx.ask(
            "target", ctx.t("К какой записи добавить заметку?", "Which record should the note go on?")
        )
    kind, record = target
    content = (content or ctx.answer("content") or "").strip()
    if not content:
        raise ctx.ask("content", ctx.t("Что записать в заметку?", "What should the note say?"))
    title = content if len(content) <= 60 else content[:57].rstrip() + "…"
    preview = ctx.t(
        f"Attio: заметка к «{record.name}»: «{content}»", f"Attio: note on '{record.name}': '{content}'"
    )
    ctx.add(ops.create_note(OBJECT[kind], record.id, title, content, preview))
    return True


@rule(50)
async def crm_task(clause: Clause, ctx: BuildContext) -> bool:
    """A to-do about a CRM record (seed 000's task_create "about a CRM record"), optionally for a colleague."""
    reminder = clause.has("remind", "followup") or (clause.has("todo") and clause.moment.day is not None)
    delegated = clause.has("assign") and clause.has("todo")  # "поручи Максу связаться с ..."
    in_crm = clause.has("crm", "attio")  # "нужна задача в Attio: …", "create an Attio task to …"
    on_record = _ABOUT_RECORD.search(clause.text.split(":", 1)[0])  # "задача по сделке Globex: …"
    explicit = clause.has("task") and (clause.has("create", "put") or in_crm or bool(on_record))
    if not (reminder or delegated or explicit) or clause.has("linear", "issue", "team") or clause.identifiers:
        return False
    if clause.asks() and not clause.commands():
        return False
    body = clause.after_colon if clause.after_colon is not None else clause.text
    target = await crm_target(clause, ctx, "target", clause.text)
    if target is None and _PRONOUN.search(clause.text) and ctx.memory.get("record"):
        target = ctx.memory["record"]  # "…to Jane Doe, and create a task to send her the contract"
    if target is None and not in_crm:
        return False  # a generic task: Linear handles it
    kind, record = target if target is not None else ("", None)
    assignee = await _colleague(clause, ctx)
    offset = len(clause.text) - len(body)
    raw = strip_spans(body, [(a - offset, b - offset) for a, b in clause.moment.spans if a >= offset])
    content = clean_title(raw, ctx.lang)
    content = (
        re.sub(
            r"(?i)^(?:напомни(?:\s+мне)?|remind me|поручи\s+\S+|create a crm task for \S+|me)\s+(?:to\s+|что\s+|о\s+)?",
            "",
            content,
        ).strip()
        or content
    )
    content = re.sub(r"\s+(?:до|by|к)\s*$", "", content).strip()
    # "create an Attio task to send her…", "задачу в CRM подготовить…": where it goes is not what it says
    content = re.sub(r"(?i)\s*\b(?:в|in|to)\s+(?:the\s+)?(?:attio|crm|аттио|црм)\b\s*", " ", content).strip()
    content = re.sub(
        r"(?i)^(?:an?\s+)?(?:(?:attio|crm)\s+)?(?:task|задач\w*)\s+(?:to\s+)?", "", content
    ).strip()
    deadline = None
    if clause.moment.day:
        at = clause.moment.at or time(9, 0)
        deadline = datetime.combine(clause.moment.day, at, tzinfo=ctx.now.tzinfo).isoformat(
            timespec="seconds"
        )
    who = f" → {assignee.name}" if assignee else ""
    due_ru, due_en = (f", срок {deadline[:10]}", f", due {deadline[:10]}") if deadline else ("", "")
    about = f" ({record.name})" if record is not None else ""
    preview = ctx.t(
        f"Attio: задача «{content}»{about}{who}{due_ru}",
        f"Attio: task '{content}'{about}{who}{due_en}",
    )
    linked = [(OBJECT[kind], record.id)] if record is not None else []
    ctx.add(ops.create_task(content, deadline, linked, [assignee.id] if assignee else [], preview))
    return True


async def _colleague(clause: Clause, ctx: BuildContext) -> Entity | None:
    """A workspace member the task is for ("поручи Максу", "поставь Олегу задачу", "a CRM task for Oleg")."""
    members = [m for m in await find(ctx, clause, "member") if m.score >= 0.5]
    if not members or not clause.has("assign", "create", "put"):
        return None
    colleague: Entity = members[0].entity
    return colleague


@rule(55)
async def create_deal(clause: Clause, ctx: BuildContext) -> bool:
    if not (clause.creates() or clause.has("create") and clause.has("deal")) or not clause.has("deal"):
        return False
    if clause.asks() and not clause.commands():
        return False
    new_company = ctx.memory.get("new_company")
    if new_company is not None and re.search(
        r"\b(them|it|this company|нее|неё|них|ними|ней|ним|нему|этой компании|этой компанией)\b",
        clause.text,
        re.I,
    ):
        return await _deal_for_new_company(clause, ctx, new_company)
    companies = strong(await find(ctx, clause, "company"))
    if not companies:
        raise ctx.ask(
            "company",
            ctx.t("С какой компанией сделка?", "Which company is the deal with?"),
            choices=[(c.name, c.id) for c in (await ctx.directory.companies())[:5]],
        )
    company = ctx.choose(
        "company",
        "company",
        clause.text,
        companies,
        ctx.t("С какой компанией сделка?", "Which company is the deal with?"),
    )
    assert company is not None
    values: dict[str, object] = {
        "name": f"{company.name} — {ctx.t('новая сделка', 'new deal')}",
        "associated_company": company.id,
    }
    named = re.search(r"[«\"“']([^»\"”']+)[»\"”']|(?:called|named|под названием)\s+([^,.;]+)", clause.text)
    if named:
        values["name"] = (named.group(1) or named.group(2)).strip()
    stage = await _stage(clause, ctx)
    if (
        stage is None
    ):  # Attio requires a stage on a deal: start at the pipeline's first one, shown in the preview
        stage = next(iter(await ctx.directory.stages()), None)
    if stage:
        values["stage"] = stage.name
        ctx.note_entity("stage", stage.name, stage, [], 1.0)
    owner = await _owner(clause, ctx)
    if owner is not None:
        values["owner"] = owner.extra.get("email") or owner.id
    amount = amount_of(clause.text)
    if amount:
        values["value"] = {
            "currency_value": int(amount[0]) if amount[0].is_integer() else amount[0],
            "currency_code": amount[1],
        }
    money = f", {values['value']['currency_value']} {values['value']['currency_code']}" if amount else ""  # type: ignore[index]
    name = str(values["name"]).casefold()
    twin = next(
        (
            d
            for d in await ctx.directory.deals()
            if d.name.casefold() == name and d.extra.get("company_id") == company.id
        ),
        None,
    )
    if twin is not None:  # a create is scoped by its draft: the workspace, not the ledger, says it exists
        ctx.notes.append(
            ctx.t(
                f"Сделка «{twin.name}» с {company.name} уже есть — новую не создаю. {twin.url or ''}",
                f"The deal '{twin.name}' with {company.name} already exists - not creating another. {twin.url or ''}",
            ).strip()
        )
        return True
    ctx.add(
        ops.create_deal(
            values,
            company.id,
            ctx.t(
                f"Attio: новая сделка «{values['name']}»{money}"
                + (f", стадия {stage.name}" if stage else ""),
                f"Attio: new deal '{values['name']}'{money}" + (f", stage {stage.name}" if stage else ""),
            ),
        )
    )
    return True


@rule(35)
async def delete_record(clause: Clause, ctx: BuildContext) -> bool:
    if not clause.has("delete") or clause.identifiers or clause.has("task", "issue", "note"):
        return False
    target = await crm_target(clause, ctx, "target")
    if target is None:
        return False
    kind, record = target
    ctx.add(
        ops.delete_record(
            OBJECT[kind],
            record.id,
            ctx.t(
                f"Attio: удалить «{record.name}» безвозвратно", f"Attio: delete '{record.name}' permanently"
            ),
        )
    )
    ctx.risks.append(
        RiskFlag(
            kind="destructive",
            details=ctx.t(
                f"«{record.name}» будет удалена из Attio без возможности восстановления",
                f"'{record.name}' will be deleted from Attio; this cannot be undone",
            ),
        )
    )
    return True


async def _owner(clause: Clause, ctx: BuildContext) -> Entity | None:
    m = re.search(r"(?:owner|ответственн\w*|владелец)\s*[:=]?\s*([A-ZА-ЯЁ][\w-]+)", clause.text, re.I)
    if not m:
        return None
    members = await find(ctx, clause, "member", text=m.group(1))
    return members[0].entity if members else None


async def _deal_for_new_company(clause: Clause, ctx: BuildContext, new_company: dict[str, object]) -> bool:
    """ "create company Wayne Enterprises ... and a deal for them": the deal waits for the company."""
    index = int(str(new_company["index"]))
    name = str(new_company["name"])
    values: dict[str, object] = {
        "name": f"{name} — {ctx.t('новая сделка', 'new deal')}",
        "associated_company": f"$ref:{index}.data.id.record_id",
    }
    stage = await _stage(clause, ctx) or next(iter(await ctx.directory.stages()), None)
    if stage:
        values["stage"] = stage.name
        ctx.note_entity("stage", stage.name, stage, [], 1.0)
    amount = amount_of(clause.text)
    if amount:
        values["value"] = {
            "currency_value": int(amount[0]) if amount[0].is_integer() else amount[0],
            "currency_code": amount[1],
        }
    ctx.add(
        ops.create_deal(
            values,
            str(new_company["key"]),
            ctx.t(
                f"Attio: новая сделка «{values['name']}» (с новой компанией)",
                f"Attio: new deal '{values['name']}' (with the new company)",
            ),
            depends_on=index,
        )
    )
    return True
