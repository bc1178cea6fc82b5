"""Attio record edits (a person's title, a company's domain or description, a deal's value or owner)
and completing CRM tasks."""

from __future__ import annotations

import re
from typing import Any

from planner import references as refs
from planner._lazy_re import LazyRe
from planner.analysis import Clause, analyse
from planner.context import BuildContext
from planner.directory import Entity
from planner.intents.models import CompleteTask, UpdateDeal, UpdateRecord
from planner.numbers import spoken_numbers
from planner.references import task_id
from planner.resolve import keys_for
from planner.rules import rule
from planner.rules._common import (
    EXCEPT_NAMED,
    POINTED_TO_ONE,
    amount_of,
    currency_code,
    find,
    one_said_before,
    stage_said_as_destination,
    strong,
    without_old_amounts,
)
from planner.rules._linear_common import EVERY_TASK_TO, PLAYBOOK_WORD
from planner.rules.attio import (
    OBJECT,
    PRONOUN,
    RAISE_A_FIELD,
    crm_target,
    deal_named_before,
    record_said_before,
)
from planner.text import is_imperative

__all__ = ["complete_crm_task", "update_record"]

_STAGE_NAMED = LazyRe(r"(?i)\b(?:стади[юя]|stage)\s+«?([\w-]+)|^\s*([\w-]+)\s+(?:for|для)\s")
_OTHER_FIELD_SAID = LazyRe(r"(?i)\b(?:owner|владел\w*|ответственн\w*|stage|стади\w*)")
# field word -> (Attio attribute, which objects have it)
_FIELDS: list[tuple[re.Pattern[str], str, set[str]]] = [
    (re.compile(r"\b(переименуй\w*|переименовать|rename|renamed)\b", re.I), "name", {"company", "deal"}),
    (
        re.compile(r"\b(должност\w*|позици\w*|job ?title|title|position|role|роль)\b", re.I),
        "job_title",
        {"person"},
    ),
    (re.compile(r"\b(описани\w*|description|about)\b", re.I), "description", {"company"}),
    # "switch the currency to EUR", «поменяй валюту на евро»: the deal's value, in another currency
    # ("валюта та же", "same currency": no change of it)
    (
        re.compile(r"\b(валют\w*|currency)\b(?!\s+(?:та\s+же|прежн\w*|не\s+меня\w*|stays|the\s+same))", re.I),
        "currency",
        {"deal"},
    ),
    (re.compile(r"\b(домен\w*|сайт\w*|domains?|website)\b", re.I), "domains", {"company"}),
    (re.compile(r"\b(e-?mail\w*|почт\w*|имейл\w*|мейл\w*)\b", re.I), "email_addresses", {"person"}),
    (
        re.compile(r"\b(сумм\w*|стоимост\w*|бюджет\w*|value|amount|size|acv|arr|mrr|tcv)\b", re.I),
        "value",
        {"deal"},
    ),
    (
        re.compile(
            r"\b(ответственн\w*|владел\w*|owner|own|owns|reassign|assign|give|вед[её]т|handles|hand(?:s|ed)?|переназнач\w*|"
            r"tak(?:e|es|ing)\s+over)\b"
            r"|\bпереда[йт]\w*|\bотда[йт]\w*",
            re.I,
        ),
        "owner",
        {"deal"},
    ),
    # "change her company to Initech", «поменяй Джейн компанию на Initech»: where a person works
    (re.compile(r"\b(компани\w*|company|employer|работодател\w*)\b", re.I), "company", {"person"}),
]
_VALUE = LazyRe(
    r"(?:->|→|\bна\b|\bto\b|\bв\b|:|=|\bis now\b|\bтеперь\b|\bновый\b|\bновая\b|\bnew\b)\s*[«\"']?(.+?)[»\"']?\s*$",
    re.I,
)
# the role itself, up to where the sentence moves on ("…CEO, обнови в CRM")
_ROLE_VALUE = LazyRe(
    r"\b(?:promoted\s+to|повысили\s+до|назначили|стал[аи]?|became|теперь|is now|now|title\s+is(?:\s+now)?|"
    r"должность\s*[—:-]|должность\s+теперь|(?:должность|job\s+title)(?=\s+(?-i:[A-ZА-ЯЁ]{2,5})\b))\s+(?:an?\s+|the\s+)?"
    # («теперь не VP Operations, его повысили до COO»: what the role is no longer is not its value)
    r"(?!не\s|not\s|no\s+longer\s)[«\"']?([^,;:«»\"'.!?—–]+?)[»\"']?\s*(?:[,;.!?—–]|\s+(?:and|и)\s|$)",
    re.I,
)
# "he's CEO now", "she is Head of IT now": the role said before "now"
# the title said where it is changed to: «поменяй ему должность на Head of Procurement», "set her title to CFO"
_TITLE_TO = LazyRe(
    r"(?i)\b(?:должност\w*|job\s+title|title|position|роль)\s+(?:на|to)\s+[«\"']?([^,;:«»\"'.!?—–]+?)[»\"']?\s*(?:[,;.!?—–]|$)"
)
_AND_MORE_OF_IT = LazyRe(r"\s+и\s+([^,;:«»\"'.!?—–]+?)(?=\s*(?:[,;.!?—–]|$))")
_ROLE_NOW = LazyRe(
    r"(?:'s|\s(?i:is))\s+(?:(?i:an?|the)\s+)?([A-Z][\w&-]*(?:\s+(?:of\s+)?[A-Z][\w&-]*){0,3}|(?i:c[eotfmi]o|vp\s+\w+))"
    r"(?:\s+(?i:at|with|in)\s+[\w&.-]+(?:\s+[\w&.-]+){0,2}?)?\s+(?i:now)\b"  # ("is CEO at acme logistics now")
)
_ON_THE_CARD = LazyRe(
    r"(?i)\s+(?:в|на)\s+(?:е[её]\s+|его\s+)?(?:карточк\w+|профил\w+|срм|crm|аттио|attio)\b"
    r"|\s+(?:in|on)\s+(?:the\s+|his\s+|her\s+|their\s+)?(?:card|record|profile|crm|attio)\b"
)
# the new value in quotes, after the word that introduces it: "to 'Head of Sales'", «на «генеральный директор»»
_QUOTED_VALUE = LazyRe(r"(?i)(?:\b(?:на|to|as|в)|[:=—–]|->|→)\s*[«\"“]([^«»\"“”]{1,200})[»\"”]")
_EMAIL = LazyRe(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_DOMAIN = LazyRe(r"\b((?:[a-z0-9-]+\.)+[a-z]{2,})\b", re.I)


# "Li Wei теперь CEO", "Jane got promoted to Head of Procurement": a new role without the word "title"
_ROLE = LazyRe(
    r"\b(?:promoted|повысили|назначили|стал[аи]?|became)\b"
    r"|\b(?:теперь|is now|now)\s+(?:[A-Z]{2,4}\b|(?:Head|VP|Director|Chief|Директор|Руководител\w*|Глава)\b)"
    r"|(?i:\b(?:теперь|is\s+now|'s\s+now|now)\s+(?:(?:генеральн|исполнительн|коммерческ|финансов|технич)\w+\s+)?"
    r"(?:директор\w*|руководител\w*|глав\w*|head|director|chief|vp|ceo|cto|cfo|coo|cio)\b)"
)


_SUM_MOVED = LazyRe(
    r"(?i)\b(?:сумм\w*|amount|value|бюджет\w*|budget|сделк\w*(?:\s+\S+){0,3})\s+(?:\w+\s+)?(?:вырос\w*|вырастет|увеличил\w*|уменьшил\w*|"
    r"снизил\w*|упал\w*|поднял\w*|grew|went\s+(?:up|down)|increased|decreased|dropped|rose|is\s+up|is\s+down)\b"
)
_NOW = LazyRe(r"(?i)\b(?:теперь|is\s+now|now|(?:should|will|must)\s+(?:now\s+)?be|будет|стала?|стоит)\b")
_TO_AMOUNT = LazyRe(
    r"(?i)\b(?:to|до|на)[\s,]+(?:(?:like|about|around|roughly|примерно|где-?то|около)[\s,]+)?[$€₽]?\s*\d[\d\s,.]*\s*(?:k|к|тыс\w*|m|млн|000)?\b"
)
_SHE_HE = LazyRe(r"(?i)\s*(?:she|he|она|он)\b")  # "…'s title changed, she's now head of procurement"
_CHANGED_TO = LazyRe(
    r"(?i)\b(?:revise|adjust|update|change|set|knock|bring|drop|cut|raise|bump|lower|reduce|increase|take|push|"
    r"снизь|снизить|подними|поднять|увеличь|уменьши|урежь|скинь|поменяй|измени|обнови|поставь|исправь|поправь)\b"
)
# an owner said as a field beside another: «владелец Анна», "owner Oleg"
_OWNER_SAID = LazyRe(
    r"(?i)\b(?:владел\w*|ответственн\w*|owner)\s*(?:->|→|=>|[:—-])?(?:\s+(?:теперь|now|is\s+now))?"
    r"(?:\s+(?:поставь|ставь|сделай|назначь))?\s+(?!(?:и|and)\b)[^\W\d_][\w-]*"
)  # ("owner -> Max", «владелец теперь я», «владельцем поставь Олега»)
# a change by an amount, not to one: «увеличь сумму … на 100 тысяч», "reduce the Globex amount by 5k"
_BY_AMOUNT = LazyRe(
    r"(?i)\b(?:(?P<up>увелич\w*|подними|поднять|повысь|добавь|прибавь|increase|raise|bump|add)|"
    r"(?P<down>уменьш\w*|снизь|снизить|понизь|урежь|скинь|убавь|reduce|lower|cut|decrease|drop))\b(?!-)"
    r"[^0-9]*?\b(?:на|by)\s+[$€₽]?\s*\d"
)
# "add 2k to the Globex pilot", «прибавь 5000 к сделке Globex pilot»: a sum added to what the deal is worth
_ADDED_TO = LazyRe(
    r"(?i)\b(?:add|добавь|прибавь|plus)\s+(?:another\s+|ещё\s+|еще\s+)?[$€₽]?\s*\d[\d\s,.]*\s*(?:k|к|тыс\w*|m|млн|thousand|%)?"
    r"\s*(?:usd|eur|rub|руб\w*|долл\w*|dollars?|euros?|\$|€|₽)?\s+(?:to|к|on\s+top\s+of|сверху\s+к)\s"
    r"|\b(?:добавь|прибавь)\s+(?:к\s+(?:ней|нему|сумме|сделке)\s+|ей\s+|ему\s+)[$€₽]?\s*\d"
)
# "Knock 50k off", «накинь сверху 5 тысяч»: a sum taken off, or put on top
_TAKEN_OFF = LazyRe(
    r"(?i)\b(?P<down>knock|take|shave)\s+[$€₽]?\s*\d[\d\s,.]*\s*(?:k|m|thousand|%|percent)?\s+off\b"
    r"|\b(?P<up>накинь|накиньте|докинь|докиньте)\s+(?:сверху\s+|ещё\s+|еще\s+)?[$€₽]?\s*\d"
)
_PERCENT = LazyRe(r"(?i)(\d+(?:[.,]\d+)?)\s*(?:%|percent|процент\w*)")
_HANDED = LazyRe(r"(?i)\s(?:на|to|→|->)\s+([^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*)?)\s*[.!]?$")


# a deal's name, then a sum and nothing else: the terse way to set its amount
_THEN_SUM = LazyRe(
    r"(?i)\s*(.+?)\s*(?:[:=—–]|->|→|\s-)?\s*[$€₽]?\s*\d[\d\s.,]*\s*(?:k|m|к|млн\.?|тыс\w*\.?|thousand|million)?"
    r"\s*(?:usd|eur|rub|руб\w*|долл\w*|dollars?|euros?|\$|€|₽)?\s*[.!]?"
)


async def _deal_then_sum(clause: Clause, ctx: BuildContext) -> bool:
    said = _THEN_SUM.fullmatch(clause.text)
    if said is None or clause.text.rstrip().endswith("?"):
        return False
    head = re.sub(r"(?i)\b(?:deal|сделк\w*|the|amount|сумм\w*|value)\b", " ", said.group(1)).strip(" ,:")
    deals = [m for m in await find(ctx, clause, "deal", text=head) if m.score >= 0.9]
    return len(deals) >= 1 and len(deals[0].positions) >= len(keys_for(head))


# a change of a field said with no value and no record: «поменяй сумму», "update the amount"
_FIELD_NAMED_ONLY = LazyRe(
    r"(?i)\W*(?:(?:и|а|ну|so|and|then|please|пожалуйста)\W+)*(?:поменяй|измени|обнови|поправь|исправь|change|update|"
    r"fix|set)\s+(?:the\s+|its\s+|their\s+|ей\s+|ему\s+|им\s+)?(?:deal\s+|сделки\s+)?(?:сумм\w*|amount|value|стадию|stage|owner|"
    r"ответственн\w*|владельц\w*|должност\w*|title|domain|домен|email|почту)(?:\s+(?:в|in)\s+(?:the\s+)?(?:crm|срм|attio|аттио|"
    r"карточке))?(?:\s+(?:пожалуйста|please))?\W*"
)
# "Globex pilot: change the amount to $32,500": the field and its new value, the record said before the colon
_FIELD_TO_VALUE = LazyRe(
    r"(?i)\W*(?:(?:и|а|and|then|so)\W+)*(?:please\s+)?(?:change|set|update|revise|adjust|bump|make|поменяй|измени|обнови|"
    r"поставь|исправь|поправь)\s+(?:the\s+|its\s+|ей\s+|ему\s+)?(?:deal\s+|сделки\s+)?(?:сумм\w*|amount|value)\s+"
    r"(?:to|на)\s+[$€₽]?\s*\d[\d\s,.]*(?:k|m|к|тыс\w*|млн|thousand|million)?\s*(?:usd|eur|rub|руб\w*|dollars?|euros?)?\s*[.!]?"
)


_OWNER_TO = LazyRe(
    r"(?i)\W*(?:(?:и|а|and|then|so)\W+)*(?:please\s+)?(?:change|set|update|make|поменяй|смени|измени|поставь)\s+"
    r"(?:the\s+|its\s+)?(?:deal\s+)?(?:owner|ответственн\w*|владельц\w*)\s+(?:to|на)\s+[^\W\d_]+(?:\s+[^\W\d_]+)?\s*[.!]?"
)
# "Globex pilot — выиграли!", "we won it": the deal's outcome said with its final sum
_OUTCOME_SAID = LazyRe(r"(?i)(?:[—–:-]|^|\bwe\s)\s*(выиграли|проиграли|won|lost)\b(?!\s+(?:the|a|an)\b)")
# «Initech продлили: сумму сделки в 20к и …»: the field and where it goes, no verb
_FIELD_GOES_TO = LazyRe(
    r"(?i)\W*(?:(?:и|а|and)\W+)*(?:сумм\w*|amount|value)\s+(?:сделки\s+|of\s+the\s+deal\s+)?(?:в|на|до|to)\s+[$€₽]?\s*"
    r"\d[\d\s,.]*(?:k|m|к|тыс\w*|млн)?\s*(?:usd|eur|rub|руб\w*|dollars?|\$|€|₽)?\s*[.!]?"
)
_FIELD_AND_VALUE = LazyRe(
    r"(?i)\s*(?:сумм\w*|amount|value|owner|ответственн\w*)\s*[:—-]?\s*[$€₽]?\d[\d\s.,]*\S*\s*"
)


def _field(clause: Clause) -> tuple[str, set[str]] | None:
    for rx, attribute, kinds in _FIELDS:
        if rx.search(clause.text):
            return attribute, kinds
    if _ROLE.search(clause.text):
        return "job_title", {"person"}
    return None


_BARE_VALUE = LazyRe(
    r"(?i)\b(?:сумм[аы]|amount|должност\w*|job\s+title)\s*(?:[:—–-]|is(?:\s+now)?|теперь|будет|now)?\s*"
    r"(?:\$\s*)?(?:\d|(?-i:[A-ZА-ЯЁ]{2,})\b)"
)


@rule(42, writes=True)
async def update_record(clause: Clause, ctx: BuildContext) -> bool:
    if EVERY_TASK_TO.search(clause.text) and (
        PLAYBOOK_WORD.search(clause.text) or ctx.intents and ctx.intents[-1].op == "apply_template"
    ):
        return (
            False  # "run onboarding for Globex and make Max the assignee on all": the tasks', not the deal's
        )
    if EXCEPT_NAMED.search(clause.text):
        return False  # "Hand them all to Max except Romashka": the one named is the one left alone
    before = ctx.said_before()
    if (
        before
        and ctx.clause_index > 0
        and not ctx.memory.get("_with_before")
        and (
            _FIELD_NAMED_ONLY.fullmatch(clause.text)
            or _FIELD_AND_VALUE.fullmatch(clause.text)
            or (
                _FIELD_TO_VALUE.fullmatch(clause.text)
                or _OWNER_TO.fullmatch(clause.text)
                or _FIELD_GOES_TO.fullmatch(clause.text)
            )
            and len(before) <= 60  # (only a heading said before: "Globex pilot: change the amount to …")
            # (the heading read as a look-up, just before: "- Globex pilot: change the owner to Oleg" in a list)
            and bool(ctx.intents)
            and ctx.intents[-1].op == "find"
        )
    ):  # «…просят увеличить пилот до 15к, поменяй сумму»: the value and the record were said just before;
        # «Acme Corp — annual license: сумма 55 000, и …»: the record is the heading said before the value
        ctx.memory["_with_before"] = True
        try:
            return await update_record(analyse(f"{before} — {clause.text}", ctx.now), ctx)
        finally:
            ctx.memory["_with_before"] = False
    by_sum = _BY_AMOUNT.search(clause.text) or _ADDED_TO.search(clause.text) or _TAKEN_OFF.search(clause.text)
    changes = (
        clause.has("move", "put", "assign", "rename")
        or bool(re.search(r"(?i)\bdrop\b.*\b(?:to|down\s+to)\s+[$€₽]?\d", clause.text))  # "drop … ACV to 1M"
        or re.search(
            r"\b(переда[йт]\w*|теперь|is now|'s now|new|нов\w+|promoted|повысили|назначили|стал[аи]?|became|from now on|"
            r"changed|изменил\w*|сменил\w*|"
            r"should own|will own|owns|вед[её]т|handles|make\s+\w+\s+the\s+owner)\b|=|->|→",
            clause.text,
            re.I,
        )
        or re.search(
            r"(?i)(?:\s[—–-]|:)\s*(?:сумм\w*|amount|value|ответственн\w*|владел\w*|owner|домен\w*|domain|"
            r"должност\w*|title)\s+\S",
            clause.text,
        )
        # «ромашка сумма 1.5 млн», "the amount is 55k now", «должность CIO»: a field and its value, said bare
        or _BARE_VALUE.search(clause.text)
        # "revise the amount to 15,000", "knock the Alfa expansion down to 750 thousand": a sum it goes to
        or _CHANGED_TO.search(clause.text)
        and bool(_TO_AMOUNT.search(spoken_numbers(clause.text)))
        # «акме пилот сумма выросла до 15 тысяч», "the Globex amount went up to 30k": the sum it is now
        or _SUM_MOVED.search(clause.text)
        and bool(_TO_AMOUNT.search(spoken_numbers(clause.text)) or amount_of(clause.text, default=None))
        or by_sum is not None  # "bump it by 5k", "add 2k to it"
    )  # "initech renewal amount = 21k", "сделку глобекс теперь ведёт макс", "Альфа — сумма 900 тысяч"
    found = _field(clause)
    if found is not None and found[0] == "company":
        if await _persons_company(clause, ctx):
            return True
        found = None  # "the Acme company deal to 50k": the word "company" names no field here
    if (
        found is None
        and (
            amount_of(clause.text, default=None)
            # "Update the Acme Logistics pilot to 20000": a deal changed to a bare sum (a year is no sum)
            or _CHANGED_TO.search(clause.text)
            and (to := _TO_AMOUNT.search(spoken_numbers(clause.text))) is not None
            and (bare := _bare_number(to.group(0))) is not None
            and not 1990 <= bare[0] <= 2100
            or by_sum is not None
        )
        and (
            await _deal_then_sum(clause, ctx)  # "globex pilot 35k", "romashka deal: 1.5m rub"
            # "raise Globex pilot by 5000", "add 2k to the globex pilot": a change by a sum, the deal named
            or by_sum is not None
            and (
                any(m.score >= 0.9 for m in await find(ctx, clause, "deal"))
                or ctx.clause_index > 0  # "How much is X? Knock 50k off": the deal just asked about
            )
            # «Сделка с Альфа-Лизингом выросла, ставь 950 тысяч рублей»: grown, and to what
            or _SUM_MOVED.search(clause.text)
            and any(m.score >= 0.9 for m in await find(ctx, clause, "deal"))
            or _NOW.search(clause.text)  # «сделка с альфой теперь 900к», "… should be 55,000 USD now"
            and (clause.has("deal") or any(m.score >= 0.9 for m in await find(ctx, clause, "deal")))
            or (clause.has("move", "put") or bool(_CHANGED_TO.search(clause.text)))
            and _TO_AMOUNT.search(spoken_numbers(clause.text))  # "Bump the Acme Corp annual license to 65k"
            and (
                any(m.score >= 0.9 for m in await find(ctx, clause, "deal"))
                # "Acme Corp license: bump to 60k, …": the deal said first, the change said bare
                or ctx.clause_index > 0
                and not await find(ctx, clause, "deal")
                and not _OTHER_FIELD_SAID.search(clause.text)
                and (ctx.memory.get("deal") is not None or await deal_named_before(clause, ctx) is not None)
            )
        )
    ):
        changes, found = True, ("value", {"deal"})
    handed = _HANDED.search(clause.text)  # «сделку Globex pilot на Макса»: no verb, a deal and a colleague
    if (
        found is None
        and handed
        and (
            clause.has("deal")  # «перекинь альфу пока на Макса»: a transfer verb and the deal by its company
            or clause.has("move", "assign")
            and (
                any(m.score >= 0.9 for m in await find(ctx, clause, "deal"))
                or bool(strong(await find(ctx, clause, "company")))
            )
        )
        and not clause.has("put")
        and not [m for m in await find(ctx, clause, "stage") if m.score >= 1.0]
        and any(m.score >= 0.5 for m in await find(ctx, clause, "member", text=handed.group(1)))
    ):
        changes, found = True, ("owner", {"deal"})
    # "add the domain acme.io to Acme Corp" adds to a field of an existing record
    adds_to_field = found is not None and re.search(
        r"\b(?:add|добавь)\s+(?:(?:the\s+|a\s+|new\s+)?(?:domain|домен|email|e-mail|почту)\b|"
        r"(?:it|them|его|её|ее|их)\s+(?:to|в|к)\b|"  # "… new domain globex.io — add it to their record"
        r"\S+\s+(?:as|как)\s+(?:a\s+|an\s+|the\s+)?(?:second|another|new|additional|extra|втор\w+|ещё\s+один|доп\w*)?\s*"
        r"(?:domain|домен\w*|email|e-mail|почт\w*)\b)"  # "add globex.co.uk as a second domain for Globex"
        # «Добавьте Ивану Сидорову второй email: …», "add Jane a second email": one more of the field
        r"|\b(?:add|добав\w*)\b.*?\b(?:втор\w+|ещё\s+од\w+|еще\s+од\w+|доп\w*|another|second|additional|extra|new|нов\w+)\s+"
        r"(?:domain|домен\w*|email|e-mail|почт\w*|мейл\w*)\b",
        clause.text,
        re.I,
    )
    if (
        not (changes or adds_to_field)
        or found is None
        or clause.identifiers
        or clause.has("task", "issue", "note")
        # «Поставь follow-up по deal Initech renewal на 1 декабря, ответственный Макс»: who does the follow-up
        or clause.has("followup", "remind")
        and clause.moment.day is not None
    ):
        return False
    if (
        clause.creates()
        and not adds_to_field
        and not re.search(r"(?i)\bmake\s+\w+\s+the\s+owner", clause.text)
        and not RAISE_A_FIELD.search(clause.text)  # "raise the amount on … to 950,000": "raise" makes nothing
        and by_sum is None  # "add 2k to it" makes nothing
    ):
        return False
    attribute, kinds = found
    if (
        attribute == "owner"
        and ctx.intents
        and ctx.intents[-1].op == "apply_template"
        and re.search(r"(?i)\b(?:them|those|these|их|эти)\b", clause.text)
    ):
        return False  # "Create the renewal tasks … and assign them to Max": the tasks, not the deal's owner
    target = await crm_target(clause, ctx, "target")
    if (
        target is None
        and ctx.clause_index > 0
        and (
            PRONOUN.search(clause.text)
            or _SHE_HE.match(clause.text)
            or by_sum
            is not None  # "What's the Globex pilot worth? Add 2,000 to it", "… Knock 50k off": that deal
        )
    ):
        target = await record_said_before(clause, ctx)  # «Марию повысили. Поменяй ей должность на …»
    earlier = ctx.memory.get("deal") or (ctx.memory.get("record") or (None, None))[1]
    if target is None and "deal" in kinds and isinstance(earlier, Entity) and earlier.kind == "deal":
        target = ("deal", earlier)  # "сделку X передай Олегу и поставь сумму 32 000"
    if (
        target is None
        and attribute == "value"
        and ctx.clause_index > 0
        and earlier is None
        and not _OTHER_FIELD_SAID.search(
            clause.text
        )  # (one that says another field too is read by its rules)
    ):
        named = await deal_named_before(
            clause, ctx
        )  # "Acme Corp license: bump to 60k, …": the deal said first
        target = ("deal", named) if named is not None else None
    if target is not None and target[0] == "person" and attribute == "name":
        # «переименуй контакт Li Wei в Wei Li»: a person's name, never their company's deal renamed instead
        raise ctx.ask(
            "request",
            ctx.t(
                f"Менять имя контакта («{target[1].name}») я пока не умею — это делается в Attio. Что сделать вместо этого?",
                f"I can't rename a person ('{target[1].name}') yet - do it in Attio. What should I do instead?",
            ),
        )
    if target is not None and target[0] == "person" and "deal" in kinds and "person" not in kinds:
        company = target[1].extra.get(
            "company_id"
        )  # «Акме логистик, ну Ли Вэй, просят … до 15к»: her company's
        theirs = [d for d in await ctx.directory.deals() if company and d.extra.get("company_id") == company]
        if len(theirs) == 1:
            target = ("deal", theirs[0])
    if target is not None and target[0] == "company" and "deal" in kinds and "company" not in kinds:
        theirs = [d for d in await ctx.directory.deals() if d.extra.get("company_id") == target[1].id]
        if len(theirs) == 1:  # "the Alfa-Leasing expansion amount": the company's one deal
            target = ("deal", theirs[0])
    if target is None or target[0] not in kinds:
        return False
    kind, record = target
    value: Any = await _value(attribute, clause, ctx)
    if value is None and attribute == "value" and by_sum is not None and _PERCENT.search(clause.text):
        value = {
            "currency_value": 0.0,
            "currency_code": None,
        }  # "add 10% to it": the sum comes from the share
    if value is None and not re.search(r"(?i)\b(?:на|to|as|into|в)\b|[:=]", clause.text):
        return False  # «мейл марии соколовой скинь»: the value asked for, not a new one
    if value is None:
        raise ctx.ask("value", ctx.t("Какое новое значение?", "What is the new value?"))
    if kind == "deal":
        change: dict[str, Any] = {}
        if attribute == "currency":  # «…: поменяй валюту на евро и сумму на 12 800»: and a sum said with it
            change = {"currency": value}
            sum_said = amount_of(
                re.sub(r"(?i)\b(?:валют\w*|currency)\b[^,;]*", " ", clause.text), default=None
            )
            sum_said = sum_said or _bare_number(clause.text)
            if sum_said is not None:
                change["amount"] = sum_said[0]
        elif attribute == "value":
            change = {"amount": value["currency_value"], "currency": value["currency_code"]}
            by = by_sum
            if by:  # «Увеличь сумму по Альфа-Лизингу на 100 тысяч», "cut it by 5k": from what it is now
                now = record.extra.get("amount")
                if not isinstance(now, (int, float)):
                    raise ctx.ask("value", ctx.t("Какую сумму поставить?", "What amount should it be?"))
                sign = -1 if "down" in by.re.groupindex and by.group("down") else 1
                percent = _PERCENT.search(clause.text)
                if percent:  # "Add 10% to it": a share of what it is worth now
                    value = {
                        "currency_value": round(now * float(percent.group(1).replace(",", ".")) / 100, 2)
                    }
                by_said = value["currency_value"]
                ctx.memory.setdefault("changed_by", set()).add(
                    str(int(by_said) if float(by_said).is_integer() else by_said)
                )
                change = {
                    "amount": now + sign * value["currency_value"],
                    "currency": record.extra.get("currency"),
                }
        elif attribute == "owner":
            change = {"owner": value.name}
        elif attribute == "name":
            change = {"name": str(value)[:200]}
        other = _OWNER_SAID.search(clause.text) if attribute == "value" else None
        if other:  # «Initech renewal: владелец Анна, сумма 21 000 $»: both fields, each said with its name
            owner = await _value("owner", analyse(other.group(0), ctx.now), ctx)
            if isinstance(owner, Entity):
                change["owner"] = owner.name
        said = await stage_said_as_destination(ctx, clause) if attribute != "name" else None
        stage = said.entity if said is not None else None
        outcome = _OUTCOME_SAID.search(clause.text) if stage is None and attribute == "value" else None
        if outcome:  # "Globex pilot — выиграли! Финальная сумма 32 500 $": won, and at what sum
            wanted = "Lost" if outcome.group(1).lower().startswith(("l", "п")) else "Won"
            stage = next((s for s in await ctx.directory.stages() if s.name == wanted), None)
        stage_word = _STAGE_NAMED.search(clause.text) if stage is None and attribute == "value" else None
        if stage_word:  # «… стадию переговоры и сумму 1 150 000 руб.», "Qualification for Acme Logistics pilot, bump to 15k"
            stages = {
                m.entity.id: m.entity
                for m in await find(ctx, clause, "stage", text=stage_word.group(1) or stage_word.group(2))
                if m.score >= 1.0
            }
            stage = next(iter(stages.values())) if len(stages) == 1 else None
        if stage is not None:  # «сделку в переговоры и сумму поставь 1 500 000»: both changes
            change["stage"] = stage.name
        last = ctx.intents[-1] if ctx.intents else None
        if (
            isinstance(last, UpdateDeal)
            and last.deal == record.name
            and attribute == "value"
            and last.amount is None
            and last.currency
        ):  # «поменяй валюту на евро и сумму на 12 800»: the sum of the same change, in the currency said
            return await ctx.amend_last(amount=change["amount"])
        await ctx.emit(
            UpdateDeal(deal=record.name, **change),
            deal=record,
            owner=change and value if attribute == "owner" else None,
            stage=stage,
        )
        return True
    shown = value[0] if isinstance(value, list) else value
    last = ctx.intents[-1] if ctx.intents else None
    if (
        isinstance(last, UpdateRecord)
        and last.record == record.name
        and attribute in (last.values or {})
        and ctx.memory.get("last_emit")
    ):  # «Иван теперь технический директор — обнови его должность на CTO»: the value said last is the one
        ctx.drop_last()
    values = {attribute: str(shown)[:500]}
    at = re.search(r"(?i)\s+(?:at|в|из)\s+([^,.;]+)$", str(shown)) if attribute == "job_title" else None
    if at and kind == "person":
        # "he's now COO at Globex": the role, and the company he works at now
        employer = [m.entity for m in await find(ctx, clause, "company", text=at.group(1)) if m.score >= 0.9]
        if len({c.id for c in employer}) == 1:
            values = {attribute: str(shown)[: at.start()].strip()[:500]}
            if employer[0].id != record.extra.get("company_id"):
                values["company"] = employer[0].name
    await ctx.emit(
        UpdateRecord(record=record.name, object=OBJECT[kind], values=values),  # type: ignore[arg-type]
        record=(OBJECT[kind], record),
    )
    return True


# "… change her company to Initech (in the CRM)", «поменяй Джейн компанию на Initech»: the company it becomes
_NEW_EMPLOYER = LazyRe(
    r"(?i)\b(?:to|на|в)\s+([^,.;!?]+?)\s*(?:(?:in|в)\s+(?:the\s+)?(?:crm|срм|attio))?\s*[.!]?\s*$"
)


async def _persons_company(clause: Clause, ctx: BuildContext) -> bool:
    """A person's company changed: the person named (or the one just said, for "her"), the company the
    words end with. Both must be records of the CRM; anything less is not this change."""
    if re.search(r"(?i)\b(?:заметк\w*|notes?)\b", clause.text):
        return False  # «…, хотят докупить 40 лицензий. Закинь заметку в компанию Initech»: a note goes there
    to = _NEW_EMPLOYER.search(clause.text)
    companies = strong(await find(ctx, clause, "company", text=to.group(1))) if to else []
    if not companies:
        return False
    head = clause.text[: to.start()] if to else clause.text
    people = strong(await find(ctx, clause, "person", text=head))
    if not people and (POINTED_TO_ONE.search(head) or re.search(r"(?i)\b(?:her|his|их|её|ее|его)\b", head)):
        for before in reversed(ctx.memory.get("said") or []):  # "Jane Doe moved … . change her company …"
            people = people or strong(await find(ctx, clause, "person", text=before))
    top = max((m.score for m in people), default=0.0)
    people = [m for m in people if m.score >= top] if top >= 0.9 else people  # ("Ivan Sidorov", not any Ivan)
    if len({m.entity.id for m in people}) != 1:
        return False
    person, company = people[0].entity, companies[0].entity
    await ctx.emit(
        UpdateRecord(record=person.name, object="people", values={"company": company.name}),
        record=("people", person),
    )
    return True


async def _value(attribute: str, clause: Clause, ctx: BuildContext) -> Any:
    text = clause.text
    if attribute == "email_addresses":
        emails = _EMAIL.findall(text)
        return [emails[-1].lower()] if emails else None
    if attribute == "domains":
        domains = [d for d in _DOMAIN.findall(text) if "@" not in d]
        return [domains[-1].lower()] if domains else None
    if attribute == "currency":
        said = re.search(
            r"(?i)\b(?:to|на|в|into)\s+(usd|eur|rub|евро|euros?|доллар\w*|dollars?|рубл\w*|руб|₽|€|\$)", text
        )
        return currency_code(said.group(1)) if said else None
    if attribute == "value":
        text = without_old_amounts(text)  # "amount было 30к, ставь 27 500": the old value is no new one
        amount = amount_of(text, default=None) or _bare_number(text)
        if amount is None:
            return None
        number = int(amount[0]) if float(amount[0]).is_integer() else amount[0]
        return {"currency_value": number, "currency_code": amount[1]}
    if attribute == "owner":
        members = [m for m in await find(ctx, clause, "member") if m.score >= 0.5]
        given = re.search(r"(?i)\b(?:переда[йт]\w*|отда[йт]\w*|to|на)\s+([^\W\d_][\w-]*)", text)
        to_them = [m for m in await find(ctx, clause, "member", text=given.group(1))] if given else []
        if len(members) > 1 and to_them:  # «альфу передай максу, олег в отпуске»: whom it is given to
            members = [m for m in members if m.entity.id == to_them[0].entity.id] or members
        if (
            re.search(
                r"(?i)\b(?:to|на|over\s+to)\s+(?:me|myself|меня)\s*[.!]?$|\b(?:мне|себе|на\s+себя)\s*[.!]?$",
                text,
            )
            or (not members and re.search(r"(?i)\b(?:me|myself|мне|меня|себе|на себя)\b", text))
            # «…: владелец теперь я», "owner is me now"
            or re.search(
                r"(?i)\b(?:владел\w*|owner|ответственн\w*)\s+(?:теперь\s+|now\s+|is\s+)*(?:я|me)\b", text
            )
            or re.search(r"(?i)\b(?:i'?ll|i\s+will|i'?m|let\s+me|i)\s+(?:\w+\s+)?tak(?:e|ing)\s+over\b", text)
        ):  # "I'll take over the Alfa deal from Oleg": mine now, whoever had it
            return await refs.member(ctx, "me")  # "make me the owner of …", "… hand it over to me"
        if not members and ctx.clause_index > 0 and re.search(r"(?i)\b(?:him|her|его|её|ее|ему|ей)\b", text):
            # "assign CS-14 to Max and make him owner of the Globex pilot deal": the colleague just named
            earlier = await one_said_before(ctx, clause, "member")
            if earlier is not None:
                return earlier
        owner: Entity | None = ctx.choose(
            "owner", "member", text, members, ctx.t("Кому передать?", "To whom?")
        )
        return owner
    text = _ON_THE_CARD.sub("", text)  # «должность в карточке на …»: where it is kept, not what it becomes
    quoted = _QUOTED_VALUE.search(text)
    if quoted and attribute in (
        "job_title",
        "name",
    ):  # «… на «генеральный директор»»: the quoted words, whole
        return quoted.group(1).strip()[:200]
    if ":" in text:  # "обнови описание компании X: <the new value>"
        after = text.split(":", 1)[1].strip()
        if attribute == "job_title":  # "a new title: VP Sales, update her record": the role only
            after = re.split(r"[,;]\s|[.!?](?:\s|$)", after)[0].strip(" «»\"'")
        return after[:500] or None
    if attribute == "job_title" and (said_to := _TITLE_TO.search(text)):
        return said_to.group(1).strip()[:200]  # «…теперь отвечает за закупки, поменяй должность на Head of …»
    if attribute == "job_title" and (role := _ROLE_NOW.search(text) or _ROLE_VALUE.search(text)):
        role_said = str(role.group(1))
        more = _AND_MORE_OF_IT.match(text, role.end(1))
        if more and not is_imperative(more.group(1).split()[0]) and not more.group(1).split()[0].isascii():
            role_said += more.group(0)  # «финансовый директор и член правления»: both are the role
        return re.sub(r"(?i)\s+(?:now|теперь)$|^(?:он|она|he|she)\s+", "", role_said.strip(" ."))[
            :200
        ]  # "his title is COO now"
    m = _VALUE.search(text)
    if m is None:
        return None
    value = m.group(1).strip()
    if attribute == "job_title":  # «…на финдиректора, дальше все договорённости через неё»: the role only
        # «новая должность, CIO»: the word "new" said of the field, the role after it
        value = re.sub(r"(?i)^(?:должност\w*|job\s+title|title|position|role|роль)\s*[,:—–-]?\s*", "", value)
        value = re.split(r"[,;]\s|[.!?](?:\s|$)", value)[0].strip(" «»\"'")
    return value[:200] or None


def _bare_number(text: str) -> tuple[float, str | None] | None:
    m = re.search(r"(?<![\d.,])(\d{1,3}(?:[ ,\u00a0]\d{3})+|\d{3,})(?![\d.,]\d)", text)  # "15,000", "27 500"
    return (float(re.sub(r"[ ,\u00a0]", "", m.group(1))), None) if m else None


@rule(33, writes=True)
async def complete_crm_task(clause: Clause, ctx: BuildContext) -> bool:
    """ "Отметь задачу по Ромашке выполненной": a CRM task, found among the record's open tasks."""
    if (
        not (clause.has("complete") and clause.has("task"))
        or clause.identifiers
        or clause.has("linear", "issue")
    ):
        return False
    target = await crm_target(clause, ctx, "target")
    if target is None and not clause.has("attio", "crm"):
        return False
    flt: dict[str, Any] = {"is_completed": False}
    if target is not None:
        flt |= {"linked_object": OBJECT[target[0]], "linked_record_id": target[1].id}
    tasks = await ctx.directory.crm_tasks(flt)
    answered = ctx.answer("task")
    if answered:
        tasks = [t for t in tasks if task_id(t) == answered] or tasks
    if not tasks:
        where = f" ({target[1].name})" if target else ""
        raise ctx.ask(
            "task",
            ctx.t(
                f"Не нашёл открытых задач в CRM{where}. Какую задачу закрыть?",
                f"I found no open CRM tasks{where}. Which task should I complete?",
            ),
        )
    if len(tasks) > 1:
        raise ctx.ask(
            "task",
            ctx.t("Какую задачу закрыть?", "Which task should I complete?"),
            choices=[(str(t.get("content_plaintext", ""))[:60], task_id(t)) for t in tasks[:5]],
            free_text=False,
            risk="ambiguous",
        )
    task = tasks[0]
    content = str(task.get("content_plaintext", ""))[:200] or "task"
    await ctx.emit(CompleteTask(task=content), task=task)
    return True
