"""Attio intents -> actions: companies and people (asserted, never duplicated), deals, record edits,
notes, CRM tasks, deletions."""

from __future__ import annotations

import re
from datetime import time
from typing import Any

from planner import references as refs
from planner._lazy_re import LazyRe
from planner.actions import builds, need
from planner.context import BuildContext, Invalid
from planner.directory import Entity
from planner.intents.models import (
    CompleteTask,
    CreateCompany,
    CreateDeal,
    CreateNote,
    CreatePerson,
    CreateTask,
    DeleteRecord,
    UpdateDeal,
    UpdateRecord,
)
from planner.models import RiskFlag
from planner.wording import field_name
from planner.wording import money as money_said
from toolkits.attio import ops

__all__ = ["OBJECT", "money"]

OBJECT = {"company": "companies", "person": "people", "deal": "deals"}
_DOMAIN = LazyRe(r"^(?:https?://)?(?:www\.)?((?:[a-z0-9-]+\.)+[a-z]{2,})/?$", re.IGNORECASE)
_EMAIL = LazyRe(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")
_CURRENCY = {"$": "USD", "usd": "USD", "доллар": "USD", "dollar": "USD", "€": "EUR", "eur": "EUR", "евро": "EUR",
             "₽": "RUB", "rub": "RUB", "руб": "RUB", "рубл": "RUB", "gbp": "GBP", "£": "GBP"}  # fmt: skip


def money(amount: float, currency: str | None) -> dict[str, Any]:
    code = (currency or "USD").strip().lower()
    code = next((v for k, v in _CURRENCY.items() if code.startswith(k)), code.upper()[:3])
    return {"currency_value": int(amount) if float(amount).is_integer() else amount, "currency_code": code}


def _shown(value: dict[str, Any]) -> str:
    return money_said(value["currency_value"], value["currency_code"])


def _new_company(ctx: BuildContext, name: str) -> dict[str, Any] | None:
    """A company created by an earlier action of this plan ("…and a deal for them")."""
    made: dict[str, dict[str, Any]] = ctx.memory.get("new_companies", {})
    return made.get(name.strip().lower()) or (made.get("*") if name == "*" else None)


@builds("create_company")
async def create_company(intent: CreateCompany, ctx: BuildContext) -> None:
    name = need(ctx, intent, "name")
    domain = (intent.domain or ctx.answer("domain") or "").strip().lower()
    m = _DOMAIN.match(domain)
    if not m:
        raise ctx.ask(
            "domain",
            ctx.t(
                f"Какой домен у компании {name}? (по нему Attio не создаст дубль)",
                f"What is {name}'s domain? (Attio matches companies by it, so no duplicates)",
            ),
        )
    domain = m.group(1).lower()
    index = ctx.add(
        ops.create_company(
            name, domain, ctx.t(f"Attio: компания «{name}» ({domain})", f"Attio: company '{name}' ({domain})")
        )
    )
    made = {"index": index, "name": name, "key": domain}
    ctx.memory.setdefault("new_companies", {})[name.strip().lower()] = made
    ctx.memory["new_companies"]["*"] = made  # the latest, for "a deal for them"


async def _company(ctx: BuildContext, intent: Any) -> tuple[str | None, str, int | None, str | None]:
    """(company id or $ref, scope key, the action it depends on, display name) of an intent's `company`."""
    found: Entity | None = intent.resolved("company")
    if found is None and intent.company:
        made = _new_company(ctx, intent.company)
        if made is not None:
            return (
                f"$ref:{made['index']}.data.id.record_id",
                str(made["key"]),
                int(made["index"]),
                str(made["name"]),
            )
        _, found = await refs.crm_record(ctx, intent.company, slot="company", objects=("companies",))
    if found is None:
        return None, "none", None, None
    return found.id, found.id, None, found.name


@builds("create_person")
async def create_person(intent: CreatePerson, ctx: BuildContext) -> None:
    name = need(ctx, intent, "name")
    email = (intent.email or ctx.answer("email") or "").strip().lower()
    if not _EMAIL.match(email):
        raise ctx.ask("email", ctx.t(f"Какой email у {name}?", f"What is {name}'s email?"))
    twin = next(
        (
            p
            for p in await ctx.directory.people()
            if email in [str(e).lower() for e in p.extra.get("emails") or []]
        ),
        None,
    )
    if twin is not None:  # "Create a person Li Wei, li.wei@…": she is in the CRM already, by that address
        ctx.notes.append(
            ctx.t(
                f"Контакт «{twin.name}» <{email}> уже есть — не создаю второй. {twin.url or ''}",
                f"The person '{twin.name}' <{email}> already exists - not creating another. {twin.url or ''}",
            ).strip()
        )
        return
    first, _, last = name.partition(" ")
    made = {"index": len(ctx.actions), "name": name}
    ctx.memory.setdefault("new_people", {})[name.strip().lower()] = made
    ctx.memory["new_people"]["*"] = made
    values: dict[str, Any] = {
        "name": [{"first_name": first, "last_name": last, "full_name": name}],
        "email_addresses": [email],
    }
    company_id, _, depends, company_name = await _company(ctx, intent)
    if company_id:
        values["company"] = company_id
    if intent.job_title:
        values["job_title"] = intent.job_title
    at = (f", {intent.job_title}" if intent.job_title else "") + (f", {company_name}" if company_name else "")
    ctx.add(
        ops.create_person(
            values,
            email,
            ctx.t(f"Attio: контакт «{name}» <{email}>{at}", f"Attio: person '{name}' <{email}>{at}"),
            depends_on=depends,
        )
    )


@builds("create_deal")
async def create_deal(intent: CreateDeal, ctx: BuildContext) -> None:
    name = need(ctx, intent, "name")
    values: dict[str, Any] = {"name": name}
    company_id, company_key, depends, company_name = await _company(ctx, intent)
    twin = next(
        (
            d
            for d in await ctx.directory.deals()
            if d.name.casefold() == name.casefold()
            and (company_id is None or d.extra.get("company_id") == company_id)
        ),
        None,
    )
    if twin is not None:  # a create is scoped by its draft: the workspace, not the ledger, says it exists
        ctx.notes.append(
            ctx.t(
                f"Сделка «{twin.name}» уже есть — новую не создаю. {twin.url or ''}",
                f"The deal '{twin.name}' already exists - not creating another. {twin.url or ''}",
            ).strip()
        )
        return
    if company_id:
        values["associated_company"] = company_id
    stage: Entity | None = intent.resolved("stage")
    if stage is None and intent.stage:
        stage = await refs.stage(ctx, intent.stage)
    if (
        stage is None
    ):  # Attio requires a stage on a deal: start at the pipeline's first one, shown in the preview
        stage = next(iter(await ctx.directory.stages()), None)
    if stage:
        values["stage"] = stage.name
        ctx.note_entity("stage", stage.name, stage, [], 1.0)
    owner: Entity | None = intent.resolved("owner")
    if owner is None and intent.owner:
        owner = await refs.member(ctx, intent.owner)
    if owner is not None:
        values["owner"] = owner.extra.get("email") or owner.id
    if intent.amount is not None:
        values["value"] = money(intent.amount, intent.currency)
    bits = [
        f", {_shown(values['value'])}" if "value" in values else "",
        f", {ctx.t('стадия', 'stage')} {ctx.said_stage(stage.name)}" if stage else "",
        f", {ctx.t('ответственный', 'owner')} {owner.name}" if owner else "",
        f" ({company_name})" if company_name and company_name.lower() not in name.lower() else "",
    ]
    ctx.add(
        ops.create_deal(
            values,
            company_key,
            ctx.t(f"Attio: новая сделка «{name}»", f"Attio: new deal '{name}'") + "".join(bits),
            depends_on=depends,
        )
    )


@builds("update_deal")
async def update_deal(intent: UpdateDeal, ctx: BuildContext) -> None:
    deal: Entity = intent.resolved("deal") or await refs.deal(ctx, need(ctx, intent, "deal"))
    values: dict[str, Any] = {}
    parts: list[str] = []
    if intent.stage or intent.resolved("stage") is not None:
        stage: Entity = intent.resolved("stage") or await refs.stage(ctx, str(intent.stage))
        ctx.note_entity("stage", stage.name, stage, [], 1.0)
        if deal.extra.get("stage") == stage.name:
            ctx.notes.append(
                ctx.t(
                    f"Сделка «{deal.name}» уже в стадии {ctx.said_stage(stage.name)}"
                    + (f" ({stage.name})." if ctx.said_stage(stage.name) != stage.name else "."),
                    f"The deal '{deal.name}' is already in {stage.name}.",
                )
            )
        else:
            values["stage"] = stage.name
            before = deal.extra.get("stage")
            parts.append(f"{ctx.said_stage(before) if before else '?'} → {ctx.said_stage(stage.name)}")
    same = (
        intent.amount is not None
        and _has_amount(deal)
        and float(deal.extra["amount"]) == float(intent.amount)
        and (intent.currency or deal.extra.get("currency")) == deal.extra.get("currency")
    )
    if same:  # "set the Globex pilot amount to 30k" when it is 30k: nothing to change, and it is said
        ctx.notes.append(
            ctx.t(
                f"У «{deal.name}» сумма уже {ctx.said_money(deal.extra['amount'], deal.extra.get('currency'))}.",
                f"'{deal.name}' is already {ctx.said_money(deal.extra['amount'], deal.extra.get('currency'))}.",
            )
        )
    elif intent.amount is not None:  # a sum said without its currency is in the deal's own
        values["value"] = money(intent.amount, intent.currency or deal.extra.get("currency"))
        before = (
            ctx.said_money(deal.extra["amount"], deal.extra.get("currency")) + " → "
            if _has_amount(deal)
            else ""
        )
        parts.append(ctx.t("сумма ", "amount ") + before + _shown(values["value"]))
        if _has_amount(deal):  # DESIGN §6: overwriting a non-empty field is destructive
            ctx.risks.append(_overwrite(ctx, deal.name, ctx.t("сумма", "amount")))
    currency = (intent.currency or "").upper()
    if intent.amount is None and currency and _has_amount(deal):
        # "switch the Initech renewal to EUR, the amount stays": the same number, in the currency said
        if currency == deal.extra.get("currency"):
            ctx.notes.append(
                ctx.t(f"«{deal.name}» уже в {currency}.", f"'{deal.name}' is already in {currency}.")
            )
        else:
            values["value"] = money(float(deal.extra["amount"]), currency)
            shown = ctx.said_money(deal.extra["amount"], deal.extra.get("currency"))
            parts.append(ctx.t("валюта ", "currency ") + f"{shown} → {_shown(values['value'])}")
            ctx.risks.append(_overwrite(ctx, deal.name, ctx.t("валюта", "currency")))
    if intent.owner or intent.resolved("owner") is not None:
        owner: Entity = intent.resolved("owner") or await refs.member(ctx, str(intent.owner))
        if deal.extra.get("owner_id") == owner.id:
            ctx.notes.append(
                ctx.t(
                    f"«{deal.name}» уже ведёт {owner.name}.",
                    f"'{deal.name}' is already owned by {owner.name}.",
                )
            )
        else:
            values["owner"] = owner.extra.get("email") or owner.id
            parts.append(ctx.t("ответственный → ", "owner → ") + owner.name)
    if intent.name:
        values["name"] = intent.name
        parts.append(ctx.t(f"название «{intent.name}»", f"name '{intent.name}'"))
        ctx.risks.append(_overwrite(ctx, deal.name, ctx.t("название", "name")))
    if not values:
        if not parts and not ctx.notes:
            raise ctx.ask(
                "change",
                ctx.t(f"Что изменить в сделке «{deal.name}»?", f"What should change in '{deal.name}'?"),
            )
        return
    head = ctx.t(f"Attio: сделка «{deal.name}»: ", f"Attio: deal '{deal.name}': ")
    prev = next(
        (a for a in ctx.actions if a.operation == "update_deal" and a.args.get("record_id") == deal.id), None
    )
    if prev is not None:  # "передай Олегу и поставь сумму 32 000" is one change to the deal
        earlier = prev.args.get("values", {})
        if all(earlier.get(k) == v for k, v in values.items()):
            return  # said twice ("Ромашка подписала: сделку в выигранные"): one change
        earlier_parts = prev.preview.removeprefix(head).split(", ")
        for key in [k for k, v in values.items() if k in earlier and earlier[k] != v]:
            # «то ли в Won, то ли в Lost»: two values of one field are a question, never the last one said
            one, other = _said_value(ctx, key, earlier[key]), _said_value(ctx, key, values[key])
            picked = ctx.answer("one_value")
            if picked == one:
                del values[key]
                parts = [p for p in parts if not p.endswith(other)]
            elif picked == other:
                earlier_parts = [p for p in earlier_parts if not p.endswith(one)]
            else:
                raise ctx.ask(
                    "one_value",
                    ctx.t(
                        f"Для «{deal.name}» сказано два значения: {one} или {other}. Какое из них?",
                        f"Two values were said for '{deal.name}': {one} or {other}. Which one?",
                    ),
                    choices=[(one, one), (other, other)],
                    risk="ambiguous",
                )
        if not values:
            return
        ctx.actions.remove(prev)
        values = {**earlier, **values}
        parts = [*earlier_parts, *parts]
    ctx.add(ops.update_deal(deal.id, values, head + ", ".join(parts)))


def _said_value(ctx: BuildContext, key: str, value: Any) -> str:
    """A deal field's value as its preview says it (a stage by its name in the person's language)."""
    if key == "stage":
        return ctx.said_stage(str(value))
    return _shown(value) if key == "value" else str(value)


def _has_amount(deal: Entity) -> bool:
    return deal.extra.get("amount") not in (None, "", 0)


def _overwrite(ctx: BuildContext, name: str, what: str) -> RiskFlag:
    return RiskFlag(
        kind="destructive",
        details=ctx.t(
            f"прежнее значение ({what}) у «{name}» будет перезаписано",
            f"the current {what} of '{name}' will be overwritten",
        ),
    )


_ATTRIBUTES = {
    "companies": {"description", "domains", "name"},
    "people": {"job_title", "email_addresses", "name", "description", "company"},
}
_ATTRIBUTE_ALIASES = {"title": "job_title", "role": "job_title", "position": "job_title", "domain": "domains",
                      "website": "domains", "email": "email_addresses", "emails": "email_addresses"}  # fmt: skip
_TEXT_FIELDS = {"job_title", "description", "name"}


@builds("update_record")
async def update_record(intent: UpdateRecord, ctx: BuildContext) -> None:
    objects = (intent.object,) if intent.object else ("people", "companies")
    found: tuple[str, Entity] | None = intent.resolved("record")
    obj, record = found or await refs.crm_record(ctx, need(ctx, intent, "record"), objects=objects)
    values: dict[str, Any] = {}
    kept: list[str] = []  # fields already at the value said
    shown_as: dict[str, str] = {}  # what the preview says for a value that is a record's id
    for raw_key, given in intent.values.items():
        value = (given[0] if given else "") if isinstance(given, list) else given
        key = _ATTRIBUTE_ALIASES.get(raw_key.lower(), raw_key.lower())
        if key not in _ATTRIBUTES.get(obj, set()):
            allowed = ", ".join(sorted(_ATTRIBUTES.get(obj, set())))
            raise Invalid(f"values.{raw_key}: not an attribute of {obj} (allowed: {allowed})")
        if key == "domains":
            m = _DOMAIN.match(value.strip())
            if not m:
                raise Invalid(f"values.domains: «{value[:60]}» is not a domain (like acme.com)")
            values[key] = [m.group(1).lower()]
        elif key == "company":  # "Jane Doe moved to Initech": the person's company, a record of its own
            _, company = await refs.crm_record(ctx, value.strip(), slot="company", objects=("companies",))
            values[key] = company.id
            shown_as[key] = company.name
        elif key == "email_addresses":
            if not _EMAIL.match(value.strip()):
                raise Invalid(f"values.email_addresses: «{value[:60]}» is not an email address")
            values[key] = [value.strip().lower()]
        else:
            if (
                key == "job_title"
                and str(record.extra.get(key) or "").strip().lower() == value.strip().lower()
            ):
                kept.append(field_name(key, ctx.lang))  # «Поставь Марии должность CFO», and she is the CFO
                continue
            values[key] = value[:500]
        if key in _TEXT_FIELDS:
            ctx.risks.append(_overwrite(ctx, record.name, field_name(key, ctx.lang)))
    if kept and not values:
        ctx.notes.append(
            ctx.t(
                f"«{record.name}»: {', '.join(kept)} уже такая.",
                f"'{record.name}': {', '.join(kept)} already so.",
            )
        )
        return
    if not values:
        raise ctx.ask("value", ctx.t("Какое новое значение?", "What is the new value?"))
    shown = ", ".join(
        f"{field_name(k, ctx.lang)} → {shown_as.get(k) or (v[0] if isinstance(v, list) else v)}"
        for k, v in values.items()
    )
    preview = ctx.t(f"Attio: «{record.name}»: {shown}", f"Attio: '{record.name}': {shown}")
    if obj == "deals":
        ctx.add(ops.update_deal(record.id, values, preview))
    else:
        ctx.add(ops.update_record(obj, record.id, values, preview))


async def _record(ctx: BuildContext, intent: Any, slot: str = "record") -> tuple[str, Entity]:
    found: tuple[str, Entity] | None = intent.resolved("record")
    if found is not None:
        return found
    return await refs.crm_record(ctx, need(ctx, intent, "record"), slot=slot)


@builds("create_note")
async def create_note(intent: CreateNote, ctx: BuildContext) -> None:
    obj, record = await _record(ctx, intent)
    body = need(ctx, intent, "body")
    title = intent.title or (body if len(body) <= 60 else body[:57].rstrip() + "…")
    preview = ctx.t(
        f"Attio: заметка к «{record.name}»: «{body}»", f"Attio: note on '{record.name}': '{body}'"
    )
    ctx.add(ops.create_note(obj, record.id, title, body, preview))


@builds("create_task")
async def create_task(intent: CreateTask, ctx: BuildContext) -> None:
    content = need(ctx, intent, "content")
    target: tuple[str, Entity] | None = intent.resolved("record")
    said = (intent.record or "").strip().lower()
    newcomer = ctx.memory.get("new_people", {}).get(said)
    new_company = ctx.memory.get("new_companies", {}).get(said) if newcomer is None and said else None
    depends = None
    if target is None and newcomer is not None:  # a person created earlier in this request
        depends = int(newcomer["index"])
        target = ("people", Entity("person", f"$ref:{depends}.data.id.record_id", str(newcomer["name"])))
    elif target is None and new_company is not None:  # a company created earlier in this request
        depends = int(new_company["index"])
        target = (
            "companies",
            Entity("company", f"$ref:{depends}.data.id.record_id", str(new_company["name"])),
        )
    elif target is None and intent.record:
        target = await refs.crm_record(ctx, intent.record)
    assignee: Entity | None = intent.resolved("assignee")
    if assignee is None and intent.assignee:
        assignee = await refs.member(ctx, intent.assignee, slot="assignee")
    deadline = None
    if intent.deadline:
        on, clock = refs.when(ctx, intent.deadline, "deadline")
        deadline = refs.at(ctx, on, clock or time(9, 0)).isoformat(timespec="seconds")
    who = f" → {assignee.name}" if assignee else ""
    due_ru, due_en = (
        (f", срок {ctx.said_day(deadline)}", f", due {ctx.said_day(deadline)}") if deadline else ("", "")
    )
    about = f" ({target[1].name})" if target is not None else ""
    preview = ctx.t(
        f"Attio: задача «{content}»{about}{who}{due_ru}", f"Attio: task '{content}'{about}{who}{due_en}"
    )
    linked = [(target[0], target[1].id)] if target is not None else []
    ctx.add(
        ops.create_task(
            content, deadline, linked, [assignee.id] if assignee else [], preview, depends_on=depends
        )
    )


@builds("complete_task")
async def complete_task(intent: CompleteTask, ctx: BuildContext) -> None:
    task: dict[str, Any] = intent.resolved("task") or await refs.crm_task(ctx, need(ctx, intent, "task"))
    content = str(task.get("content_plaintext", ""))[:80]
    ctx.add(
        ops.complete_task(
            refs.task_id(task),
            ctx.t(f"Attio: задача «{content}» — выполнена", f"Attio: task '{content}' - completed"),
        )
    )


@builds("delete_record")
async def delete_record(intent: DeleteRecord, ctx: BuildContext) -> None:
    objects = (intent.object,) if intent.object else ("people", "companies", "deals")
    found: tuple[str, Entity] | None = intent.resolved("record")
    obj, record = found or await refs.crm_record(ctx, need(ctx, intent, "record"), objects=objects)
    ctx.add(
        ops.delete_record(
            obj,
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
