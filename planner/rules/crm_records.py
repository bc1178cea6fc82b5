"""New CRM records: a company (asserted by its domain) or a person (asserted by email), so Attio never
gets a duplicate of someone it already knows."""

from __future__ import annotations

import re

from planner.analysis import Clause, head_of
from planner.context import BuildContext
from planner.intents.models import CreateCompany, CreatePerson
from planner.rules import rule
from planner.rules._common import find, strong

__all__ = ["create_company"]

_DOMAIN = re.compile(r"\b((?:[a-z0-9-]+\.)+[a-z]{2,})\b", re.IGNORECASE)
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")


_NAME = r"[«\"']?([A-ZА-ЯЁ0-9][\w&.'-]*(?:\s+(?!\(|with\b|с\b|and\b|и\b)[A-ZА-ЯЁ][\w&.'-]*)*)"
_STOPWORDS = {
    "Add",
    "Create",
    "New",
    "Новая",
    "Новый",
    "Создай",
    "Добавь",
    "Заведи",
    "Запиши",
    "CRM",
    "Attio",
    "Please",
    "Пожалуйста",
}


_CALLED = r"(?:(?i:called|named|под названием|с названием|по имени|по фамилии)\s+)?"
# where a name typed in lower case (or dictated) ends: its details, a pronoun, a link to a company
_NAME_END = (
    r"(?=\s+(?i:у них|у него|у неё|у нее|их|его|её|ее|сайт\w*|домен\w*|с доменом|с сайтом|почт\w*|email|e-mail"
    r"|имейл|мейл|with|он|она|они|из|от|from|at|works|работает|domain|site|website|and|и)\b"
    r"|\s*[,(:;]|\s+\S+@|\s+\S+\.[a-z]{2,}\b|\s*$)"
)


def _proper_name(text: str, after: str) -> str | None:
    """The name following one of the `after` words (or the start of the text): a capitalised one, or
    one typed or dictated in lower case up to its details ("компанию вектор плюс у них сайт …")."""
    for m in re.finditer(
        rf"(?:^|\b(?i:{after}))\s*:?\s*(?:(?i:new|a|an|новую|новый|новая|please|пожалуйста)\s+)?{_CALLED}{_NAME}",
        text,
    ):
        name = m.group(1).strip(" .,")
        words = [w for w in name.split() if w not in _STOPWORDS]
        if words and words[0][:1].isupper():
            return " ".join(words)
    lower = re.search(
        rf"\b(?i:{after})\s+(?:(?i:new|a|an|новую|новый|новая)\s+)?{_CALLED}"
        rf"([^\W\d_][\w&'-]*(?:\s+[^\W\d_][\w&'-]*){{0,3}}?){_NAME_END}",
        text,
    )
    words = lower.group(1).split() if lower else []
    while words and _KIND_WORD.fullmatch(words[0]):  # "добавь человека пётр орлов": the kind, then the name
        words = words[1:]
    if words and not _STOPWORD_LOWER.search(words[0]):
        return " ".join(w[:1].upper() + w[1:] for w in words)
    return None


# "…and their CTO Gavin Belson", "контакт у них": a person of the company just created
_THEIRS = re.compile(r"\b(their|them|its|у них|их|ихн\w*|этой компании)\b", re.I)
_STOPWORD_LOWER = re.compile(r"^(?:в|to|the|for|для|на)\b", re.I)
_KIND_WORD = re.compile(r"(?:человек\w*|контакт\w*|компани\w*|клиент\w*|person|contact|company)", re.I)


@rule(56)
async def create_company(clause: Clause, ctx: BuildContext) -> bool:
    """A new company (asserted by domain) or person (asserted by email): Attio never gets a duplicate."""
    making = clause.has("create", "note_verb") or re.search(
        r"\b(to the crm|в crm|в аттио|to attio)\b", clause.text, re.I
    )
    if not making or clause.has("deal", "note") or clause.asks() and not clause.commands():
        return False
    if clause.after_colon is not None:  # "Create these issues for DES: …, contact form": a list of titles
        head = head_of(clause, ctx.now)
        if head.has("issue", "task", "linear", "team") and not head.has("company", "person"):
            return False
    text = clause.text
    emails = _EMAIL.findall(text)
    if clause.has("company") and not (clause.has("person") and emails):
        name = _proper_name(text, "компани[юяи]|company|клиента?|add|добавь") or ctx.answer("name")
        if not name:
            raise ctx.ask("name", ctx.t("Как называется компания?", "What is the company called?"))
        domains = [d for d in _DOMAIN.findall(text) if not any(d in e for e in emails)]
        domain = domains[0] if domains else (ctx.answer("domain") or "").strip()
        if not domain or not _DOMAIN.fullmatch(domain):
            raise ctx.ask(
                "domain",
                ctx.t(
                    f"Какой домен у компании {name}? (по нему Attio не создаст дубль)",
                    f"What is {name}'s domain? (Attio matches companies by it, so no duplicates)",
                ),
            )
        await ctx.emit(CreateCompany(name=name[:200], domain=domain.lower()))
        return True
    if clause.has("person"):
        name = _proper_name(text, "контакт\w*|человека|person|contact|add|добавь") or ctx.answer("name")
        if not name:
            raise ctx.ask("name", ctx.t("Как зовут контакт?", "What is the person's name?"))
        email = emails[0] if emails else (ctx.answer("email") or "").strip()
        if not _EMAIL.fullmatch(email):
            raise ctx.ask("email", ctx.t(f"Какой email у {name}?", f"What is {name}'s email?"))
        company = None
        employer = re.search(r"(?:works at|from|at|из|в компании|работает в)\s+(.+?)(?:[,.]|$)", text, re.I)
        if employer:
            found = strong(await find(ctx, clause, "company", text=employer.group(1)))
            if found:
                company = found[0].entity
                ctx.note_entity("company", employer.group(1), company, [], found[0].score)
        new = ctx.memory.get("new_companies", {}).get("*")
        await ctx.emit(
            CreatePerson(
                name=name[:200],
                email=email.lower(),
                company=company.name if company else new["name"] if new and _THEIRS.search(text) else None,
            ),
            company=company,
        )
        return True
    return False
