"""New CRM records: a company (asserted by its domain) or a person (asserted by email), so Attio never
gets a duplicate of someone it already knows."""

from __future__ import annotations

import re

from planner._lazy_re import LazyRe
from planner.analysis import Clause, analyse, head_of
from planner.context import BuildContext
from planner.intents.models import CreateCompany, CreatePerson
from planner.rules import rule
from planner.rules._common import find, quoted, strong
from planner.text import nominative_name

__all__ = ["create_company"]

_DOMAIN = LazyRe(r"\b((?:[a-z0-9-]+\.)+[a-z]{2,})\b", re.IGNORECASE)
_EMAIL = LazyRe(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")


_NAME = (
    r"[«\"']?((?:ООО|АО|ЗАО|ПАО|ОАО|ИП)\s+[«\"][^»\"]+[»\"]|"  # «ООО «Вектор»»: the legal form and the name
    r"[A-ZА-ЯЁÀ-ÖØ-Þ0-9][\w&.'-]*(?:\s+(?!\(|with\b|с\b|and\b|и\b)[A-ZА-ЯЁÀ-ÖØ-Þ][\w&.'-]*)*"  # (José Álvarez)
    # «Рога и Копыта», "Procter and Gamble": "and" inside a name, when its details follow the last word
    r"(?:\s+(?:и|and|&)\s+[A-ZА-ЯЁ][\w.'-]*(?=\s*(?:,|\(|$|\s(?:сайт|site|domain|домен|с\s+сайтом)\b)))?)"
)
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
    "Прошу",
    # pronouns and greetings open sentences, they name nobody ("We met … . Please add Tom …")
    *"I We You He She They It Our My Hi Hello Hey Thanks Я Мы Вы Ты Он Она Они Привет Спасибо".split(),
}


_CALLED = (
    r"(?:(?i:в|to|into)\s+(?i:the\s+)?(?i:crm|црм|срм|attio|аттио)\s+)?"  # «добавь в CRM сергея волкова»
    r"(?:(?i:called|named|под названием|с названием|по имени|по фамилии)\s+)?"
)
# where a name typed in lower case (or dictated) ends: its details, a pronoun, a link to a company
_NAME_END = (
    r"(?=\s+(?i:у них|у него|у неё|у нее|их|его|её|ее|сайт\w*|домен\w*|с доменом|с сайтом|почт\w*|email|e-mail"
    r"|имейл|мейл|with|он|она|они|из|от|from|at|works|работает|domain|site|website|and|и)\b"
    r"|\s*[,(:;]|\s+\S+@|\s+\S+\.[a-z]{2,}\b|\s*$)"
)


def _proper_name(text: str, after: str) -> str | None:
    """The name following one of the `after` words (or the start of the text): a capitalised one, or
    one typed or dictated in lower case up to its details ("компанию вектор плюс у них сайт …")."""
    found = []
    for m in re.finditer(
        rf"(?:^|\b(?i:{after}))\s*:?\s*(?:(?i:new|a|an|новую|новый|новая|please|пожалуйста)\s+)?{_CALLED}{_NAME}",
        text,
    ):
        name = m.group(1).strip(" .,")
        words = [w for w in name.split() if w not in _STOPWORDS]
        if (
            words and words[0][:1].isupper() and not re.search(r"['’]s$", name)
        ):  # ("John Smith's colleague Kate …")
            found.append((m.start() == 0 and not re.match(rf"(?i){after}", text), " ".join(words)))
    if found:  # "We've a new prospect — add Stark Industries …": after the verb before the first word
        return sorted(found, key=lambda f: f[0])[0][1]
    lower = re.search(
        rf"\b(?i:{after})\s+(?:(?i:new|a|an|новую|новый|новая)\s+)?{_CALLED}"
        rf"([^\W\d_][\w&'-]*(?:\s+[^\W\d_][\w&'-]*){{0,3}}?){_NAME_END}",
        text,
    )
    words = lower.group(1).split() if lower else []
    while words and (
        _KIND_WORD.fullmatch(words[0]) or re.fullmatch(r"(?i)named|called|по|имени|зовут", words[0])
    ):
        # "добавь человека пётр орлов", "add a person named tom baker": the kind, then the name
        words = words[1:]
    if words and not _STOPWORD_LOWER.search(words[0]):
        return " ".join(w[:1].upper() + w[1:] for w in words)
    return None


# "…and their CTO Gavin Belson", "контакт у них": a person of the company just created
_THEIRS = LazyRe(r"\b(their|them|its|у них|их|ихн\w*|этой компании)\b", re.I)
_STOPWORD_LOWER = LazyRe(
    r"^(?:в|to|the|for|для|на|him|her|them|it|me|us|his|its|their|его|её|ее|их|ему|ей|им|него|неё|нее|них)\b",
    re.I,
)
# "I just met this guy, Tom Haverford, he's from Globex … add him": a first and last name said anywhere
_FULL_NAME = LazyRe(
    r"(?<![\w.])([A-Z][a-z]+(?:-[A-Z][a-z]+)?\s+[A-Z][a-z]+|[А-ЯЁ][а-яё]+\s+[А-ЯЁ][а-яё]+)(?![\w.])"
)


def _named_anywhere(text: str, taken: set[str]) -> str | None:
    """A person's full name said somewhere in the text, when the request points at them by a pronoun."""
    for m in _FULL_NAME.finditer(text):
        words = m.group(1).split()
        if not any(w in _STOPWORDS or w.lower() in taken for w in words):
            return m.group(1)
    return None


_KIND_WORD = LazyRe(r"(?:человек\w*|контакт\w*|компани\w*|клиент\w*|person|contact|company)", re.I)


_ROLE = LazyRe(
    r"\b(?:c[etfo]o|ciso|cmo|cpo|cio|cro|vp\b[\w\s]*|head\s+of\s+[\w\s]+|[\w\s]*\b(?:manager|director|lead|engineer|officer|"
    r"founder|owner|partner|buyer|analyst|accountant|consultant|head|recruiter|specialist|coordinator|designer|"
    r"developer|architect|representative|executive|associate|president|advisor|assistant|counsel)"
    r"(?:\s+of\s+[\w\s&]+)?|(?:генеральн\w+\s+|финансов\w+\s+|технически\w+\s+|"
    r"коммерческ\w+\s+|исполнительн\w+\s+)?(?:фин|ген|тех|ком|арт|исп)?директор\w*(?:\s+по\s+[\w\s]+)?|руководител\w+(?:\s+[\w\s]+)?|"
    r"менеджер\w*(?:\s+по\s+[\w\s]+)?|глав\w+\s+[\w\s]+|основател\w+|бухгалтер\w*|инженер\w*|закупщик\w*|юрист\w*)\b",
    re.IGNORECASE,
)
_TITLED = LazyRe(r"(?i)^(?:job\s+title|title|role|position|должность|роль|позиция)\s*[:—–-]?\s*(\S.*)$")
_EMPLOYER = LazyRe(
    r"(?:^|\s)(?:works?\s+at|from|at|из|в\s+компании|работает\s+в|в)\s+"
    r"(?!(?:CRM|ЦРМ|СРМ|Attio|Аттио|Linear)\b)"  # «добавь в CRM …»: where the card goes, not where they work
    r"([«\"']?[A-ZА-ЯЁ][\w&.'-]*(?:\s+[A-ZА-ЯЁ][\w&.'-]*)*)",
)


def _details(text: str) -> tuple[str | None, str | None]:
    """(job title, employer's words) among the comma-separated details of a new person."""
    role = employer = None
    text = re.sub(
        r"(?i)\b(должность|title|role|position|роль)\s*[—–:-]\s*", r"\1 ", text
    )  # «должность — CFO»
    # an email between the name and the rest ends a detail as a comma would ("… olga@initech.io head of …")
    for part in re.split(r"\s*[,;(]\s*|\s+[—–]\s+", _EMAIL.sub(",", text)):
        part = part.strip(" .)")
        if not part:
            continue
        found = _EMPLOYER.search(part)
        if found:
            employer = found.group(1).strip("«\"' ")
            titled_as = re.match(
                r"(?i)\s+(?:as|в\s+должности|на\s+должности)\s+(?:an?\s+|the\s+)?(\S.*)$", part[found.end() :]
            )
            if titled_as and role is None:  # "she works at Umbrella Health as Head of Data"
                role = titled_as.group(1).strip(" .")
            part = part[: found.start()].strip()
        titled = _TITLED.match(part)  # "title CISO", «должность — финдиректор»
        if titled and role is None:
            role = titled.group(1).strip()
            continue
        m = _ROLE.search(part)
        if (
            m
            and role is None
            and not re.match(r"(?i)(?:add|добавь|новый|new|create|заведи)\b", m.group(0).strip())
        ):
            role = m.group(0).strip()
            # "head of procurement at initech": where they work, said in lower case, is no part of the title
            role = re.sub(r"(?i)\s+(?:at|в|из)\s+\S+$", "", role) if employer is None else role
    return role, employer


async def _employer(
    clause: Clause, ctx: BuildContext, words: str | None, email: str
) -> tuple[str | None, object]:
    """The company a new person works at: named ("в Ромашке", "at Globex"), or the one whose domain
    their email is at — known to the CRM or created earlier in this request."""
    made = ctx.memory.get("new_companies", {})
    if not words:
        domain = email.rsplit("@", 1)[-1].lower()
        for company in made.values():
            if company.get("key") == domain:
                return str(company["name"]), None
        for known in await ctx.directory.companies():
            if domain in known.extra.get("domains", []):
                return known.name, known
        return None, None
    for key, company in made.items():
        if key != "*" and key.split()[0] in words.lower():
            return str(company["name"]), None
    found = strong(await find(ctx, clause, "company", text=words))
    if found:
        ctx.note_entity("company", words, found[0].entity, [], found[0].score)
        return found[0].entity.name, found[0].entity
    return None, None


_CARD_AFTER_DASH = LazyRe(
    r"(?i)(.{0,60}?\b(?:контакт\w*|человек\w*|contact|person|компани\w*|company)\b.{0,30}?)\s+[—–]\s+(\S.*\S@\S.*)"
)


_NAME_BEFORE_DOMAIN = LazyRe(
    r"(?i)\b(?:компани[юяи]|company)\s+((?-i:[A-ZА-ЯЁ])[^,;:()]{1,60}?)\s+(?:с\s+доменом|с\s+сайтом|with\s+(?:the\s+)?"
    r"(?:domain|website|site)|domain|домен)\b"
)
_WHERE_IT_GOES = LazyRe(r"(?i)\s+(?:in|to|into|в)\s+(?:the\s+|our\s+)?(?:attio|crm|црм|срм|аттио)\b")


@rule(56, writes=True)
async def create_company(clause: Clause, ctx: BuildContext) -> bool:
    """A new company (asserted by domain) and/or person (asserted by email): Attio never gets a duplicate.
    "add company Hooli (hooli.com) and their CTO Gavin Belson, gavin@hooli.com" is both."""
    making = clause.has("create", "note_verb") or re.search(
        r"\b(to the crm|в crm|в аттио|to attio)\b", clause.text, re.I
    )
    if not making or clause.has("deal", "note") or clause.asks() and not clause.commands():
        return False
    dashed = _CARD_AFTER_DASH.match(clause.text) if clause.after_colon is None else None
    if (
        dashed
    ):  # «к глобексу контакт добавь — Сара Коннор, sarah@globex.com, …»: the dash says who, as a colon
        return await create_company(analyse(f"{dashed.group(1)}: {dashed.group(2)}", ctx.now), ctx)
    if clause.has("issue", "linear", "task") and not clause.has("crm", "attio", "person"):
        return False  # «заведи в линейре баг … у клиентов»: the customers are who it hurts, not a company
    if clause.after_colon is not None:  # "Create these issues for DES: …, contact form": a list of titles
        head = head_of(clause, ctx.now)
        if head.has("issue", "task", "linear", "team") and not head.has("company", "person"):
            return False
    text = clause.text
    sentences = [x for x in re.split(r"(?<=[.!?])\s+(?=\S)", text) if x.strip()]
    if len(sentences) > 1:  # "We met Globex's new security lead … . Please add Tom Becker (…)": the ask
        text = next((x for x in sentences if _EMAIL.search(x)), sentences[-1])
    emails = _EMAIL.findall(text)
    person_at = _PERSON_AFTER.search(text)  # "… and their CTO Gavin Belson, …", "…, контакт Пётр …"
    company_text = text[: person_at.start()] if person_at and emails else text
    names_company = clause.has("company") and bool(
        re.search(r"(?i)\b(?:компани\w*|company|клиент\w*)\b", company_text)
    )
    # "add Stark Industries (stark.com) to the CRM": a name with a domain, no person: a company
    names_company = names_company or (
        not emails and not clause.has("person") and bool(_DOMAIN.search(company_text)) and bool(making)
    )
    if names_company and not (clause.has("person") and emails and not person_at and _looks_like_person(text)):
        # "New company in the CRM: Pied Piper": where it goes is no part of its name, wherever it is said
        company_text = _WHERE_IT_GOES.sub("", company_text)
        # "Met the Cyberdyne Systems team - add the company …": who was met is the company, not "Met"
        company_text = re.sub(
            r"(?i)^\s*(?:met|встретил\w*|познакомил\w*\s+с)\s+(?:with\s+)?(?:the\s+)?", "", company_text
        )
        up_to_domain = _NAME_BEFORE_DOMAIN.search(company_text)  # «компанию Рога и Копыта с доменом …»
        name = (
            quoted(company_text, at_least=2)  # «Прошу завести в CRM компанию «Вектор»»: the quote is its name
            or (up_to_domain.group(1).strip() if up_to_domain else None)
            or _proper_name(company_text, "компани[юяи]|company|клиента?|add|добавь")
            or ctx.answer("name")
        )
        # "… called wayne enterprises in attio": where it goes is no part of its name
        name = (
            re.sub(r"(?i)\s+(?:in|to|into|в)\s+(?:the\s+)?(?:attio|crm|црм|аттио)\s*$", "", name or "")
            or None
        )
        if not name:
            raise ctx.ask("name", ctx.t("Как называется компания?", "What is the company called?"))
        if any(c.name.lower() == name.lower() for c in await ctx.directory.companies()):
            ctx.clause_index = 0  # the answer is read as the request, said again
            raise ctx.ask(  # "create company Globex …" when Globex is there: no duplicate, a question
                "request",
                ctx.t(
                    f"Компания «{name}» уже есть в Attio — вторую не создаю. Что в ней изменить?",
                    f"'{name}' is already in Attio, so I won't create another. What should change on it?",
                ),
            )
        domains = _DOMAIN.findall(_EMAIL.sub(" ", company_text)) or (
            [e.split("@", 1)[1] for e in emails] if person_at else []
        )
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
        if not (person_at and emails):
            return True
        text = re.sub(r"(?i)^\s*(?:,|\band\b|\bи\b)\s+", "", text[person_at.start() :])  # (the person's part)
    elif not clause.has("person") and not emails:
        return False
    # "From: Peter Novak <peter.novak@…>": an email's header words are no part of anyone's name
    text = re.sub(r"(?i)\b(?:from|to|cc|subject|от|кому|тема)\s*[:\ue000]\s*", " ", text)
    pointed = re.search(r"(?i)\b(?:add|добавь|заведи|запиши|create)\s+(?:him|her|them|его|её|ее|их)\b", text)
    taken = {w.lower() for c in await ctx.directory.companies() for w in c.name.split()}
    name = (
        _listed_name(text)
        or _proper_name(
            text, "контакт\w*|человека|person|contact|add|добавь|their\s+\w+|its\s+\w+|colleague|коллег[уа]"
        )
        # ("Met Sarah Connor at the conference, she runs engineering. Add her as a contact, email …": said before)
        or ((_named_anywhere(text, taken) or _named_anywhere(clause.text, taken)) if pointed else None)
        or ctx.answer("name")
    )
    by_email = _name_by_email(text)
    if by_email and name and by_email != name:
        mailboxes = " ".join(e.split("@")[0].lower() for e in emails)
        if not any(w.lower() in mailboxes for w in name.split() if len(w) > 2):
            name = by_email  # "Jane Doe left Globex; her replacement is Carlos Mendes, carlos.mendes@…": his
    if name and (_ROLE.fullmatch(name) or name.lower() in _POINTING_WORDS):
        name = None  # "CTO", «туда»: who they are or where they go, not what they are called
    said_name = name or ""
    if name and len(name.split()) <= 3:
        name = nominative_name(name)  # «добавь контакт петра орлова»: the card says Пётр Орлов
    if not name:
        raise ctx.ask("name", ctx.t("Как зовут контакт?", "What is the person's name?"))
    email = emails[0] if emails else (ctx.answer("email") or "").strip()
    if not _EMAIL.fullmatch(email):
        raise ctx.ask("email", ctx.t(f"Какой email у {name}?", f"What is {name}'s email?"))
    role, employer_words = _details(text.replace(said_name or name, " "))
    before_colon = text.split(":", 1)[0] if ":" in text else ""
    if employer_words is None and before_colon:  # "Add a contact at Globex: …"
        employer_words = _details(before_colon)[1]
    company_name, company = await _employer(clause, ctx, employer_words, email)
    if company_name is None and employer_words and _PROPER.search(employer_words):
        # "Add Sarah Connor, …, CTO at Cyberdyne Systems": a company the CRM does not know is asked about,
        # never dropped from the card
        said_company = _PROPER.search(employer_words).group(0).strip()  # type: ignore[union-attr]
        domain = email.rsplit("@", 1)[-1].lower()
        answer = ctx.answer("employer")
        if answer == "create":
            await ctx.emit(CreateCompany(name=said_company[:200], domain=domain))
            company_name = said_company[:200]
        elif answer != "none":
            raise ctx.ask(
                "employer",
                ctx.t(
                    f"Компании «{said_company}» в CRM нет. Создать её (домен {domain}) вместе с контактом?",
                    f"There is no company '{said_company}' in the CRM. Create it (domain {domain}) with the person?",
                ),
                choices=[
                    (ctx.t("Создать компанию", "Create the company"), "create"),
                    (ctx.t("Без компании", "Without a company"), "none"),
                ],
                free_text=False,
            )
    new = ctx.memory.get("new_companies", {}).get("*")
    if company_name is None and new and (person_at or _THEIRS.search(text)):
        company_name = str(new["name"])
    await ctx.emit(
        CreatePerson(
            name=name[:200], email=email.lower(), company=company_name, job_title=role[:200] if role else None
        ),
        company=company,
    )
    return True


# a company's name as written: capitalised words ("Cyberdyne Systems", «Вектор Плюс»)
_PROPER = LazyRe(r"[A-ZА-ЯЁ][\w&.-]*(?:\s+[A-ZА-ЯЁ][\w&.-]*){0,3}")


# where a person starts after a company in one clause
# a full name right before the email, or one role after it: "…, her replacement is Carlos Mendes,
# carlos.mendes@globex.com", "Miles Dyson, CTO, miles@cyberdyne.io", "Peter Novak <peter@…>"
_NAME_THEN_EMAIL = LazyRe(
    r"(?<![\w-])([A-ZА-ЯЁ][\w'-]+(?:\s+[A-ZА-ЯЁ][\w'-]+){1,2})\s*[,(<]\s*(?:[^,@()<>]{1,40},\s*)?([\w.+-]+)@"
)


def _name_by_email(text: str) -> str | None:
    """The name said beside the email, when its mailbox is that person's own ("carlos.mendes@…" is Carlos's)."""
    for m in _NAME_THEN_EMAIL.finditer(text):
        words = m.group(1).split()
        while words and (words[0].isupper() or _ROLE.fullmatch(words[0])):
            words = words[1:]  # "their CTO Miles Dyson, miles@…": the role said before the name
        box = m.group(2).lower()
        if len(words) >= 2 and any(w.lower() in box for w in words if len(w) > 2 and w.isascii()):
            return " ".join(words)
    return None


_PERSON_AFTER = LazyRe(
    r"\s*(?:,|\band\b|\bи\b)\s+(?:(?:their|its|у них|их)\s+(?=\w)|(?:a\s+)?(?:(?:карточк\w*|card|record)\s+)?(?:контакт\w*|contact|person|человек\w*)"
    r"(?:\s+(?:туда|к\s+ним|в\s+неё|в\s+нее|there|to\s+it))?(?:\s+|(?=:))"  # «и человека туда: …»
    # "… as a company and Pepper Potts, pepper@stark.com, as a contact there": a full name and an email next
    r"|(?=[A-ZА-ЯЁ][\w'-]+\s+[A-ZА-ЯЁ][\w'-]+\s*[,(<]\s*(?:[^,@()<>]{1,40},\s*)?[\w.+-]+@))",  # (", CTO, …@")
    re.IGNORECASE,
)


# words that point rather than name: never a person's name («и человека туда»)
_POINTING_WORDS = frozenset(
    "туда сюда там тут здесь него неё нее них ему ей им его её ее их он она они him her them there here it this "
    "that he she they".split()
)


def _listed_name(text: str) -> str | None:
    """ "Add a contact at Globex: Sam Lee, sam@…": the first detail after the colon, when it is a name
    ("create a person, li na, li.na@acme.com": or after a comma, the card said as a list)."""
    listed = re.search(r"(?i)\b(?:person|contact|контакт\w*|человека)\s*,\s*(?=\S)", text)
    if ":" in text:
        details = text.split(":", 1)[1]
    elif listed and _EMAIL.search(text):
        details = text[listed.end() :]
    else:
        return None
    first = re.split(r"\s*[,;(]\s*|\s+[—–]\s+", details.strip())[0].strip(" .")
    words = first.split()
    plain = all(w.replace("-", "").replace("'", "").isalpha() for w in words)
    if 1 < len(words) <= 4 and plain and all(w[:1].isupper() for w in words):
        return first
    # «…: анна белова, a.belova@…, директор»: typed in lower case, a name still leads a contact's card
    if 1 < len(words) <= 3 and plain and _EMAIL.search(text) and not _ROLE.fullmatch(first):
        return " ".join(w[:1].upper() + w[1:] for w in words)
    return None


def _looks_like_person(text: str) -> bool:
    return bool(re.search(r"(?i)\b(?:контакт\w*|contact|person|человек\w*)\b", text))
