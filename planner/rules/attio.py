"""Attio: deal stages, new deals, companies, people, notes, CRM tasks, deletions."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, time

from planner import references as refs
from planner._lazy_re import LazyRe
from planner.analysis import CUES, DATIVE, Clause, analyse, head_of
from planner.context import BuildContext
from planner.dialogue import ADDED_TO_A_DEAL
from planner.directory import Entity
from planner.intents import MISSING
from planner.intents.models import CreateDeal, CreateNote, CreateTask, DeleteRecord, UpdateDeal
from planner.numbers import NUMBER_WORDS, number_from_words
from planner.resolve import Mention, best, find_mentions, key_spans, keys_for, match_words
from planner.rules import rule
from planner.rules._common import (
    COUNT_WORD,
    EXCEPT_NAMED,
    FIELD_OF_A_TASK,
    POINTED_TO_ONE,
    TAKEN_BY_ME,
    amount_of,
    clean_title,
    colleague_asked_for,
    currency_said,
    find,
    one_said_before,
    quoted,
    stage_said_as_destination,
    strip_fillers,
    strip_spans,
    strong,
    without_old_amounts,
)
from planner.text import is_imperative, is_infinitive, is_past, lemma, similarity

__all__ = [
    "OBJECT", "RAISE_A_FIELD", "create_deal", "crm_target", "crm_task", "deal_stage", "delete_record", "note",
]  # fmt: skip

OBJECT = {"company": "companies", "person": "people", "deal": "deals"}


def _said_before_it(clause: Clause, ctx: BuildContext) -> str:
    """The words of the message before this clause ("" when the clause is not found in it)."""
    full = str(ctx.memory.get("full_text", ""))
    return full[: full.find(clause.text)] if clause.text in full else ""


async def _the_one_deal_said_before(clause: Clause, ctx: BuildContext) -> Entity | None:
    """The deal of the one company named earlier in the message, when that company has one deal."""
    before = _said_before_it(clause, ctx)
    if not before.strip():
        return None
    named = {m.entity.id for m in await find(ctx, clause, "company", text=before) if m.score >= 0.9}
    theirs = [d for d in await ctx.directory.deals() if d.extra.get("company_id") in named]
    return theirs[0] if len(named) == 1 and len(theirs) == 1 else None


async def _deal_named_before(clause: Clause, ctx: BuildContext) -> Entity | None:
    """The one deal the words before this clause named by name («Globex pilot закрыли, ставь Won»): what a
    bare "move it to Won" is about when no earlier clause changed a deal."""
    before = _said_before_it(clause, ctx)
    if not before.strip():
        return None
    found = await find(ctx, clause, "deal", text=before)
    named = {m.entity.id: m.entity for m in found if m.score >= 1.0}
    likely = {m.entity.id for m in found if m.score >= 0.5}  # ("Acme" fits two deals: asked, never picked)
    return next(iter(named.values())) if len(named) == 1 and len(likely) == 1 else None


async def _deal(clause: Clause, ctx: BuildContext) -> Entity:
    if ctx.memory.get("deal") and not await find(ctx, clause, "deal"):
        return ctx.memory["deal"]  # type: ignore[no-any-return]
    mentions = await find(ctx, clause, "deal")
    if not mentions and (named := await _deal_named_before(clause, ctx)) is not None:
        ctx.memory["deal"] = named
        return named
    if not mentions and (theirs := await _the_one_deal_said_before(clause, ctx)) is not None:
        return theirs  # «Если Ромашка не подпишет…, сделку придётся перевести в проигранные»: Romashka's
    if not mentions and re.search(r"(?i)\b(?:сделк[уа]|the\s+deal|it|её|ее|его)\b", clause.text):
        # «Те, что с пилотом, подписались!! Двигай сделку в Won»: the deals the words before it named
        before = _said_before_it(clause, ctx)
        found = (
            [m for m in await find(ctx, clause, "deal", text=before) if m.score >= 0.3]
            if before.strip()
            else []
        )
        # a word of several deals' names («пилот») is as good for each of them: asked, never picked
        mentions = found + (await _sharing_words(analyse(before, ctx.now), ctx, found) if found else [])
        shared = True
    else:
        shared = False
    if not mentions:
        raise ctx.ask(
            "deal",
            ctx.t("Какую сделку?", "Which deal?"),
            choices=[(d.name, d.id) for d in (await ctx.directory.deals())[:5]],
        )
    if not shared:
        mentions += await _sharing_words(clause, ctx, mentions)
    described = re.search(
        r"(?i)\bсделк\w*\s+(?:по|про|о|about|for)\s+(.+?)(?:\s+(?:в|во|на|to|into)\s|[,.;]|$)", clause.text
    )
    if described and mentions[0].score < 0.9 and not ctx.answer("deal"):
        said = [k for k in keys_for(described.group(1)) if len(k.text) > 3]
        known = keys_for(f"{mentions[0].entity.name} {mentions[0].entity.extra.get('company', '')}")
        if any(not match_words([k], known) for k in said):  # «сделку по лизингу серверов»: no such deal said
            raise ctx.ask(
                "deal",
                ctx.t(
                    f"Не нашёл сделку «{described.group(1)[:60]}». Какую сделку?",
                    f"I couldn't find a deal '{described.group(1)[:60]}'. Which deal?",
                ),
                choices=[(d.name, d.id) for d in (await ctx.directory.deals())[:8]],
            )
    earlier: Entity | None = ctx.memory.get("deal")
    if earlier is not None and any(m.entity.id == earlier.id for m in mentions) and mentions[0].score < 0.9:
        return earlier  # "Globex signed! Move the pilot to Won": the pilot just named
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
    if len({m.entity.id for m in mentions}) > 1:  # «сделку, прошедшую квалификацию, перевести в стадию КП»
        spans = key_spans(clause.text)
        goes = [
            m
            for m in mentions
            if m.positions
            and re.search(
                r"(?i)\b(?:в|во|на|to|into|as)\s+(?:стади\w+\s+|stage\s+)?$",
                clause.text[: spans[min(m.positions)][0]],
            )
        ]
        mentions = goes or sorted(mentions, key=lambda m: -max(m.positions or {0}))
    if mentions:
        top: Entity = mentions[0].entity
        return top
    if re.search(r"(?i)\b(?:стади\w+|stage)\s+[«\"']?\w", clause.text):
        return None  # "в стадию Подписано": a stage named that does not exist is a question, not a guess
    wanted = "Won" if clause.has("signed") else "Lost" if clause.has("refused", "lost") else None
    found: Entity | None = next((s for s in stages if s.name == wanted), None) if wanted else None
    return found


_CLOSED_AS = LazyRe(
    r"(?i)\b(?:закрыл\w*|закрыт\w*|closed)\s+(?:как\s+|as\s+)?(?:успешно|won|lost|выигран\w*|проигран\w*)\b"
    r"|\bуспешно\s+закрыл\w*|\b(?:we|мы)\s+(?:won|выиграли)\b|\bвыиграли\s*[.!]*$"
)  # said as news: «… закрыли успешно», "we won the Globex pilot", «глобекс пилот выиграли»


_EACH_RECORD = LazyRe(
    r"(?i)\b(?:по|для|на)\s+(?:всем|каждой|всех)\s+(?:\w+\s+)?(?:сделк\w*|компани\w*|контакт\w*)"
    r"|\b(?:for|on)\s+(?:all|every|each)\s+(?:of\s+)?(?:the\s+|our\s+|my\s+)?(?:\w+\s+)?(?:deals?|compan\w+|contacts?)\b"
)
_REFUSED_SOMETHING_ELSE = LazyRe(
    r"(?i)\bотказал\w*\s+от\s+(?!(?:сделк|покупк|контракт|договор|продлени|пилот|нас\b|наш|услуг|внедрени|лиценз|"
    r"подписк|предложени|кп\b|оффер|идеи|проекта)\w*)[^\W\d_]+|"
    r"\b(?:declined|refused|dropped|cancell?ed|turned\s+down)\s+(?:the\s+|our\s+)?(?:quarterly|weekly|monthly|"
    r"check-?ins?|calls?|meetings?|demos?|syncs?|trainings?)\b"
)
# «попроси Олега обновить КП», "ask Max to move the demo": a colleague is asked to do it — a task for them
_ASKED_OF = LazyRe(r"(?i)^\s*(?:попроси(?:те)?|ask)\s+(?!(?:me|меня|себя)\b)[^\W\d_]+")


# "raise the amount on the Alfa-Leasing deal to 950k", "bump the Globex deal value": "raise" changes a field
RAISE_A_FIELD = LazyRe(
    r"(?i)\b(?:raise|increase|bump(?:\s+up)?|up|lower|reduce|cut|drop|adjust)\s+(?:the\s+|its\s+|their\s+)?"
    r"(?:(?:deal|[\w-]+(?:\s+[\w-]+)?\s+deal(?:'s)?)\s+)?(?:amount|value|price|sum|budget|size)\b"
)


# «Сделка «Ромашка — поддержка» …», "the deal 'Hooli pilot'": a deal named in quotes
_DEAL_QUOTED = LazyRe(r"(?i)\b(?:сделк\w*|deal)\s+[«\"“']([^«»\"“”']{3,80})[»\"”']")


@rule(40, writes=True)
async def deal_stage(clause: Clause, ctx: BuildContext) -> bool:
    if EXCEPT_NAMED.search(clause.text):
        return False  # «…, кроме Ромашки, поставь …»: the deal named is the one left alone, never the target
    quoted_deal = _DEAL_QUOTED.search(clause.text)
    in_quotes = keys_for(quoted_deal.group(1)) if quoted_deal else []
    if quoted_deal and not [
        d
        for d in await ctx.directory.deals()
        if match_words([k for k in keys_for(d.name) if k.text != "—"], in_quotes)
    ]:
        return False  # «Сделка «Ромашка — поддержка», 300 тысяч, …»: a deal nobody has, by its new name
    if _ASKED_OF.match(clause.text) and [m for m in await find(ctx, clause, "member") if m.score >= 0.5]:
        return False  # what the colleague is asked to do is their task, not a change made now
    head = head_of(clause, ctx.now)
    if clause.after_colon is not None and head.has("note", "comment") and not head.has("move"):
        return (
            False  # "Put a note on the Alfa-Leasing expansion: decision pushed to January": the note's words
        )
    statement = head.has("signed", "refused", "lost") and not _PENDING.search(head.text)
    if statement and _REFUSED_SOMETHING_ELSE.search(head.text):
        return False  # «Initech отказался от квартальных чекинов»: the check-ins, not the deal
    if statement and clause.has("note", "comment"):
        statement = (
            False  # "add a note to Umbrella that they signed the NDA", "note 'signed 12mo'": its words
        )
    # "add a note: contract signed" is not a statement, nor "…before legal signs off", «если подпишут»
    if clause.has("query") and not clause.has("move"):
        return False
    # "сделку с Альфа-Лизингом в переговоры": no verb, but a deal and "в <stage>" say it all
    named_stage = bool(
        re.search(r"\b(стади\w+|stage)\b", clause.text, re.I)
    )  # "... в стадию Космос": unknown stage
    fielded = (
        not (clause.creates() or clause.says_new())
        and re.search(
            r"(?i)\b(?:стади\w*|stage)\s*[:—-]?\s+[^\s,.;]+\s*(?:[.!]?$|[,;]\s*(?:final\s+|финальн\w+\s+|new\s+|нов\w+\s+)?"
            r"(?:сумм\w*|amount|value|owner|ответственн\w*)\b)",  # "Globex pilot — stage Won, final amount 28 500 USD"
            clause.text,
        )
    )
    stage_at = min((min(m.positions) for m in await find(ctx, clause, "stage") if m.positions), default=0)
    speakers = {
        max(m.positions)
        for kind in ("person", "member")
        for m in await find(ctx, clause, kind)
        if m.positions
    }
    told = any(  # «Иван Сидоров просил КП …»: someone named, then what they did
        i - 1 in speakers and is_past(k.text) and not k.text.isascii() and not k.lemmas & CUES["move"]
        for i, k in enumerate(clause.keys[:stage_at])
    )
    elliptic = (
        not clause.text.rstrip().endswith("?")
        and not told  # «Иван Сидоров просил КП на расширение»: what someone did, not where the deal goes
        and (
            _to_stage(clause) or fielded or await _stage_then_fields(clause, ctx)
        )  # «сделка Acme Corp annual license, ну, стадия предложение»
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
        or clause.has("move", "complete")
        and _to_stage(clause)
        and any(m.score >= 1.0 for m in await find(ctx, clause, "deal"))  # "move Globex pilot to Closed"
        or (
            clause.has("move")  # «по Глобексу … подписали, значит переводи в Won»: the deal just named
            or clause.has("put")  # "…, and set it back to Proposal": the deal the clause before changed
            and bool(
                re.search(r"(?i)\b(?:it|её|ее|его|эту|this\s+one)\b", clause.text)
                or _BARE_STAGE.fullmatch(clause.text)  # «…, ставь Won»
            )
        )
        and (_to_stage(clause) or _BARE_STAGE.fullmatch(clause.text) is not None)
        and (ctx.memory.get("deal") is not None or await _deal_named_before(clause, ctx) is not None)
        and any(m.score >= 1.0 for m in await find(ctx, clause, "stage"))
        or re.search(
            r"(?i)\b(?:is|are)\s+(?:now\s+)?(?:won|lost)\b", clause.text
        )  # "Globex pilot is WON!! mark it"
        and any(m.score >= 0.9 for m in await find(ctx, clause, "deal"))
        or _CLOSED_AS.search(clause.text)  # «сделку глобекс пилот закрыли успешно», "closed lost"
        and any(m.score >= 0.9 for m in await find(ctx, clause, "deal"))
        or clause.has("put")  # "Mark the Alfa-Leasing deal Won", "set Globex pilot as Lost"
        and any(m.score >= 0.9 for m in await find(ctx, clause, "deal"))
        and bool(re.search(r"(?i)\b(?:won|lost|выигран\w*|проигран\w*)\s*[.!]?$", clause.text))
    ):
        return False
    if clause.identifiers or clause.has("task", "issue") and not clause.has("deal"):
        return False
    if clause.creates() and clause.has("deal"):
        return False  # "заведи сделку ... на стадии КП" is a new deal
    if _OTHER_FIELD.search(clause.text) and not await find(ctx, clause, "stage"):
        return False  # "поменяй сумму сделки ..." edits the value, not the stage
    if re.search(r"(?i)\b(?:to|до|на)\s+[$€₽]?\s*\d[\d\s,.]*\s*(?:k|к|m|млн|тыс\w*)?\s*[.!]?$", clause.text):
        return False  # "Bump the Acme Corp annual license to 65k": a sum, not a stage
    listed = await _deals_listed(clause, ctx)
    stage = await _stage(clause, ctx)
    handed = re.search(r"(?i)\s(?:на|to)\s+([^\W\d_][\w-]*)\s*[.!]?$", clause.text)
    if (
        stage is None
        and handed
        and [m for m in await find(ctx, clause, "member", text=handed.group(1)) if m.score >= 0.5]
    ):
        return False  # «перекинь сделку на олега»: a new owner, not a stage
    if stage is None and amount_of(without_old_amounts(clause.text), default=None) is not None:
        return False  # "the Romashka deal should now be worth 1.5m roubles, please update it": a sum
    deal = listed[0] if listed else await _deal(clause, ctx)
    if stage is None:
        stages = await ctx.directory.stages()
        said = re.search(
            r"(?i)\b(?:в|во|на|to|into)\s+(?:стади\w+\s+|stage\s+)?[«\"']?([^\s«»\"'.!]+)[»\"']?\s*[.!]?$",
            clause.text,
        )
        raise ctx.ask(
            "stage",
            ctx.t(
                (f"Стадии «{said.group(1)}» в Attio нет. " if said else "")
                + "В какую стадию перевести сделку?",
                (f"There is no stage '{said.group(1)}' in Attio. " if said else "")
                + "Which stage should the deal move to?",
            ),
            choices=[(ctx.said_stage(s.name), s.id) for s in stages],
        )
    # «сумма один миллион триста тысяч и стадия переговоры»: the amount said beside the stage goes too
    amount = (
        amount_of(without_old_amounts(clause.text), default=None)
        if _AMOUNT_WORD.search(clause.text)
        or _SUM_APART.search(clause.text)
        or _MONEY_SAID.search(clause.text)
        else None
    )
    if amount and not listed and currency_said(clause.text) is None and deal.extra.get("currency"):
        amount = (amount[0], str(deal.extra["currency"]))  # «Ромашка — 1,2 млн …»: in the deal's own currency
    owner = None if listed else await _new_owner_said(clause, ctx)
    for each in listed or [deal]:
        await ctx.emit(
            UpdateDeal(
                deal=each.name,
                stage=stage.name,
                amount=amount[0] if amount and not listed else None,
                currency=amount[1] if amount and not listed else None,
                owner=owner.name if owner is not None else None,
            ),
            deal=each,
            stage=stage,
            owner=owner,
        )
    return True


# "…, hand it to Max and move it to Proposal", «передай Максу и переведи в переговоры»: its new owner too
_HANDED_TO = LazyRe(
    r"(?i)\b(?:передай|отдай|переоформи|hand(?:\s+it)?(?:\s+over)?\s+to|give\s+it\s+to|reassign\s+(?:it\s+)?to)\s+"
    r"(?:на\s+)?([^\W\d_][\w-]+)"
)


async def _new_owner_said(clause: Clause, ctx: BuildContext) -> Entity | None:
    """A stage change said with a new owner in the same breath: the owner changes too, never dropped."""
    if TAKEN_BY_ME.search(clause.text):
        return await refs.member(ctx, "me")
    handed = _HANDED_TO.search(clause.text)
    if handed:
        found = [m for m in await find(ctx, clause, "member", text=handed.group(1)) if m.score >= 0.5]
        if found:
            return found[0].entity
    if _OWNER_FIELD.search(clause.text):  # «Сделка Ромашки: владелец Олег, стадия переговоры, …»
        return await _owner(clause, ctx)
    return None


_OWNER_FIELD = LazyRe(r"(?i)\b(?:owner|владел\w*|ответственн\w*)\s*[:—–-]?\s+\S")


# an outcome said as a condition or a time still to come: not that it happened
_PENDING = LazyRe(
    r"(?i)\b(?:before|until|till|once|when|if|unless|after|by\s+the\s+time|до\s+того|пока\s+не|когда|если|после\s+того)\b"
    r"(?:\s+\S+){0,3}\s+(?:sign\w*|подпиш\w*|подписа\w*|refus\w*|откаж\w*)"
    # "chase Globex for the signed contract": a thing described, not the deal's news
    r"|\b(?:the|a|an|their|our|its|his|her)\s+(?:\w+\s+)?(?:signed|lost|declined)\s+\w"
    r"|\b(?:подписанн\w*|проигранн\w*)\s+(?:договор|контракт|кп|nda|акт)\w*"
    # "… but nothing is signed", "they haven't signed yet", «ещё не подписали»: not (yet) the news
    r"|\b(?:nothing|not|n't|never|no\s+one)\s+(?:\w+\s+){0,2}?(?:sign\w*|refus\w*|lost)\b|\bне\s+(?:\w+\s+)?подпис\w*"
)
_QUOTED_AS_NOTE = LazyRe(
    r"«([^«»]{12,})»(?=\s+(?:as|как)\s+(?:a\s+)?(?:note|заметк\w*))"
    # "add a note 'Jane confirmed 40 seats'": the quote said right after "note" is what it says (a name in it
    # is no record)
    r"|(?:(?<=\bnote\s)\s*(?:saying\s+|that\s+)?['\"“]([^'\"“”]{3,})['\"”]|(?<=заметку\s)\s*[«\"“]([^«»\"“”]{3,})[»\"”])"
    r"(?=\s*[.!]?\s*$|\s+(?:to|on|for|about|к|в|по)\s)",  # (what follows it is where, or nothing)
    re.I,
)
_AMOUNT_WORD = LazyRe(r"(?i)\b(?:сумм\w*|amount|value|стоимост\w*|бюджет\w*|acv|arr|mrr|tcv)\b")


async def _deals_listed(clause: Clause, ctx: BuildContext) -> list[Entity]:
    """ "Move Globex pilot and Alfa-Leasing expansion to Won": two deals, each named in full and
    joined by "and"/«и»/a comma, are both moved; anything looser stays one deal (and its question)."""
    named = sorted(
        (m for m in await find(ctx, clause, "deal") if m.score >= 0.9 and m.positions),
        key=lambda m: min(m.positions),
    )
    spans = key_spans(clause.text)
    chosen: list[Mention] = []
    for m in named:
        if any(m.positions & c.positions or m.entity.id == c.entity.id for c in chosen):
            return []  # two deals read from the same words: a question, not both
        chosen.append(m)
    if len(chosen) < 2:
        return []
    for a, b in zip(chosen, chosen[1:], strict=False):
        between = clause.text[spans[max(a.positions)][1] : spans[min(b.positions)][0]]
        if not re.fullmatch(r"(?i)\s*(?:,|,?\s*(?:and|и|а также|&)\s)\s*", between + " "):
            return []
    return [m.entity for m in chosen]


_OTHER_FIELD = LazyRe(
    r"\b(сумм\w*|стоимост\w*|бюджет\w*|value|amount|ответственн\w*|владел\w*|owner|reassign|assign|"
    r"переда[йт]\w*|отда[йт]\w*|должност\w*|описани\w*|домен\w*|e-?mail|почт\w*)\b",
    re.IGNORECASE,
)


async def _stage_then_fields(clause: Clause, ctx: BuildContext) -> bool:
    """«Альфа-Лизинг в Won, финальную сумму ставим 850 000»: a stage said as where the deal goes, then,
    after a comma, more of the same change — nothing asked for with a verb of its own."""
    said = await stage_said_as_destination(ctx, clause)
    spans = key_spans(clause.text)
    if said is None or not said.positions or max(said.positions) >= len(spans):
        return False
    rest = clause.text[spans[max(said.positions)][1] :]
    return rest.lstrip().startswith(",") and not analyse(rest.lstrip(" ,"), ctx.now).commands()


# «ставь Won», "mark it Lost": a put verb and the stage, nothing else
_BARE_STAGE = LazyRe(
    r"(?i)\s*(?:и\s+|and\s+)?[^\W\d_]+\s+(?:(?:it|её|ее|его)\s+)?(?:as\s+)?[^\W\d_]+\s*[.!]?\s*"
)


def _to_stage(clause: Clause) -> bool:
    return bool(
        re.search(r"\b(в|во|на|to|into)\s+(стади\w+\s+|stage\s+)?\S+\s*[.!]?$", clause.text, re.I)
        or re.fullmatch(
            r"(?i)[^:?]{3,60}:\s*(?:стади\w+\s+|stage\s+)?[^\s:]+\s*[.!]?", clause.text
        )  # "globex pilot: won"
    )


# "acme logistics pilot -> qualification, 15k": a sum said as an item of its own beside the stage
# «Альфа-Лизинг — Won, итог 780 000 ₽», «Ромашка — 1,2 млн подтвердили»: a sum with its unit, said with the stage
_MONEY_SAID = LazyRe(
    r"(?i)(?<![\w.-])(?:[$€₽]\s*\d[\d\s.,]*(?:k|m|к|млн|тыс\w*)?|\d[\d\s.,]*\s*(?:k|m|к|млн\.?|тыс\w*\.?|usd|eur|rub|руб\w*|\$|€|₽))(?![\w-])"
)
_SUM_APART = LazyRe(
    r"(?i)(?:^|[,;/]\s*)[$€₽]?\d[\d.,\s]*\s*(?:k|m|к|млн\.?|тыс\w*\.?)?\s*(?:usd|eur|rub|руб\w*|\$|€|₽)?\s*(?:[,;/]|$)"
)


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
    # "Put a note on Acme Logistics: …, possible referral deal": the kind is said before the colon
    head = head_of(clause, ctx.now) if clause.after_colon is not None else None
    said = head if head is not None and head.has("note", "note_verb", "task") else clause
    if said.has("deal") and not any(k == "deal" for k, _ in scored):
        # "a note on the Alfa deal": the company's own deal, when it has one (several: which of them)
        named = {m.entity.id: m for k, m in scored if k == "company" and m.score >= 0.9}
        theirs = [d for d in await ctx.directory.deals() if d.extra.get("company_id") in named]
        scored += [("deal", Mention(d, named[str(d.extra["company_id"])].score, frozenset())) for d in theirs]
    if said.has("deal"):
        scored = [s for s in scored if s[0] == "deal"] or scored
    elif said.has("company"):
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
        if kind == "deal":
            ctx.memory["deal"] = chosen  # "заметку к сделке Globex pilot: …, и откати эту сделку в …"
    return (kind, chosen) if chosen else None


async def record_said_before(clause: Clause, ctx: BuildContext) -> tuple[str, Entity] | None:
    """The record the latest sentence before this one named: what "her", «ей», "it" points back to."""
    for before in reversed(ctx.memory.get("said") or []):
        target = await crm_target(replace(clause, text=before), ctx, "target", before)
        if target is not None:
            return target
    return None


_ABOUT_RECORD = LazyRe(
    r"\b(?:по|about|for|on)\s+(?:the\s+|this\s+|that\s+|эт\w+\s+)?(?:сделк\w*|компани\w*|клиент\w*|контакт\w*|deal|company|"
    r"client|contact)\b",
    re.I,
)
_AFTER_THE_CALL = LazyRe(
    r"(?i)\b(?:after|before|following|после|до|перед)\s+(?:the\s+|that\s+|this\s+|our\s+|эт\w+\s+)?"
    r"(?:call|meeting|sync|созвон\w*|встреч\w*|звонк\w*)\b"
)
_ADD_UP = LazyRe(r"(?i)\badd(?:s|ed)?\s+(?:\w+\s+){0,3}?up\b")
_THIS_RECORD = LazyRe(r"(?i)\b(?:this|that|эт\w+)\s")
PRONOUN = LazyRe(r"\b(?:her|him|them|his|their|ей|ему|ним|ней|нему|неё|нее|его|их|с ними)\b", re.I)
_ON_IT = LazyRe(r"(?i)\b(?:on|to|for|к|в)\s+(?:it|them|him|her|нему|ней|неё|нее|ним|него|них)\b")
_SUBJECT_PRONOUN = LazyRe(r"\b(?:she|he|they|она|он|они)\b", re.I)
_NOTE_SPLIT = LazyRe(r"\s+[—–-]\s+|\s+(?:что|that|saying)\s+", re.IGNORECASE)


_QUOTE_THEN_SENTENCE = LazyRe(r"\s*(['\"«“])([^'\"«»“”]{3,}?)(?:['\"»”])\s*[.!]\s+(?=[A-ZА-ЯЁ])")
_QUOTED_WHOLE = LazyRe(r"\s*(?:'([^']{3,})'|[\"“«]([^\"“”«»]{3,})[\"”»])\s*[.!]?\s*")
_NOTE_TO = LazyRe(r"(?i)\s+(?:к|ко|для|по|про|on|to|for|about)\s+(?:the\s+)?")


async def _note_after_target(clause: Clause, ctx: BuildContext) -> tuple[str, str | None]:
    """No colon, dash or "что": the note is what follows the record's name and the word "заметку"."""
    spans = key_spans(clause.text)
    last = -1
    named = [m for kind in ("person", "company", "deal") for m in strong(await find(ctx, clause, kind))]
    full = [
        m for m in named if m.score >= 0.9
    ]  # a first name alone ("we" ~ Wei) is not where the record ends
    for m in full or named:
        last = max(last, *m.positions)
    noun = [i for i, k in enumerate(clause.keys) if re.fullmatch(r"заметк\w*|note|запиши|оставь", k.text)]
    to = next(
        (
            i
            for i in noun
            if i + 1 < len(spans) and _NOTE_TO.fullmatch(clause.text[spans[i][1] : spans[i + 1][0]])
        ),
        None,
    )
    right_after = [m for m in full or named if to is not None and m.positions and min(m.positions) == to + 1]
    if right_after:
        # «запиши заметку к ромашке иван петров просит …»: the record right after "note to" is where it goes;
        # a name said after it is the note's own words
        last = max(max(m.positions) for m in right_after)
        noun = []
    if (
        last >= 0
        and last + 1 < len(clause.keys)
        and re.fullmatch(
            r"deal|сделк\w*|company|компани\w*|contact|контакт\w*|record|запис\w*|card|карточк\w*",
            clause.keys[last + 1].text,
        )
    ):
        last += 1  # "…to the globex pilot deal legal review is done": the record's noun is not the note
    cut = max([last, *noun]) if noun or last >= 0 else -1
    if cut < 0 or cut + 1 >= len(spans):
        return clause.text, None
    start = spans[cut + 1][0]
    return clause.text[:start], clause.text[start:].strip(" ,.:-—") or None


_THE_REASON = LazyRe(
    r"(?i)\s*(?:with\s+|about\s+|of\s+)?(?:the\s+|a\s+)?(?:reason(?:\s+why)?|why)|\s*(?:с\s+)?(?:причин\w*|почему)(?:\s+отказа)?\s*[.!]?\s*"
)
_LEAD_IN_ONLY = LazyRe(
    r"(?i)^\s*(?:quick\s+one|quick\s+q(?:uestion)?|one\s+more\s+(?:thing|one)|btw|fyi|ok(?:ay)?(?:\s+so)?|so|also|"
    r"и\s+ещё|ещё\s+одно|ещё\s+момент|короче|слушай|кстати|так|значит)\W*$"
)
_FOR_ALL_TO_SEE = LazyRe(
    r"(?i),?\s*(?:чтобы|чтоб|so\s+that|so)\s+(?:все|всем|everyone|everybody|the\s+team)\b.*$"
)
_SAID_THEN_NOTED = LazyRe(
    r"(?is)(.{3,}?)\s*[,;—–-]\s*((?:please\s+|пожалуйста\s+)?(?:запиши|добавь|оставь|закинь|сохрани|log|add|save|put)\s+"
    r"(?:это\s+|it\s+|that\s+|this\s+)?(?:заметк\w*|как\s+заметк\w*|(?:as\s+)?an?\s+note)\b.*)"
)
_TOLD_THEN_LOGGED = LazyRe(
    r"(?is)(.+?[.!])\s+((?:please\s+)?(?:log|note|jot|save|record|put|add|write|запиши|занеси|добавь)\s+"
    r"(?:it|that|this|это|всё\s+это)\b.*)"
)
_ON_RECORD = LazyRe(
    r"\b(?:к|ко|у|по|on|to|for)\s+(?:the\s+)?(?:сделк\w*|компани\w*|контакт\w*|клиент\w*|deal|company|contact|record)"
    r"|\b(?:в|во|into|in|against)\s+(?:the\s+|his\s+|her\s+|their\s+)?(?:сделк\w*|карточк\w*|record|card|deal)\b",
    re.I,
)


_WHERE_THEN_NOTE = LazyRe(
    r"(?i)^\s*(?:(?:ну|и|а|ещё|еще)\s+)?(?:к|в|во|по|для)\s+[^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*)?\s+"
    r"(?:заметк[уа]|заметочк[уа])(?=\s+(?!(?:к|в|во|по|про|о|об|что|для|с|со)\b)[^\W\d_])"
)


@rule(45, writes=True)
async def note(clause: Clause, ctx: BuildContext) -> bool:
    """ "Добавь заметку к Initech: ...", "оставь заметку у Ивана Сидорова что ...", "jot down on John's record: ..."."""
    after = clause.after_colon
    if (
        after is not None
        and re.match(
            r"(?i)\s*(?:(?:add|put|leave|добавь|оставь)\s+(?:a\s+)?)?(?:note|заметк\w*)\s+(?:on|to|for|к|в|по)\s",
            after,
        )
        and not head_of(clause, ctx.now).has("note", "note_verb")
        and re.match(r"(?i)\s*(?:after|before|following|после|перед|по\s+итогам)\b", clause.text)
    ):  # "after the call with Jane: note on the Globex pilot '…'": the heading says when, the note where
        return await note(analyse(after.strip(), ctx.now), ctx)
    unpunctuated = _WHERE_THEN_NOTE.match(clause.text) if clause.after_colon is None else None
    if unpunctuated:  # «к марии соколовой заметку она в отпуске до …»: dictated, the colon unsaid
        cut = unpunctuated.end()
        return await note(analyse(f"{clause.text[:cut].rstrip()}: {clause.text[cut:]}", ctx.now), ctx)
    noun_first = re.match(
        r"\s*(?:ну\s+|и\s+|and\s+)?(?:заметк\w*|note)\b", clause.text, re.I
    )  # "заметка к Ивану …"
    # "note on maria sokolova - wants …", «заметка для ивана сидорова бюджет утвердят в январе»
    told = bool(
        noun_first
        and (
            _NOTE_SPLIT.search(clause.text)
            or re.match(r"(?i)\s*(?:и\s+|and\s+)?(?:заметк\w*|note)\s+(?:для|к|on|for|to)\s", clause.text)
        )
    )
    # «ивану петрову заметку, что он в отпуске»: to whom, then the note and its words — the verb unsaid
    told = told or bool(
        re.match(
            r"(?i)\s*(?:[^\W\d_]+\s+){1,3}заметк[уа]\s*(?:,?\s+(?:о\s+том,?\s+)?что\s+\S|[:—–-]?\s*[«\"“'])",
            clause.text,
        )  # «Ивану Петрову заметка «договор подписан 25.11»»
        and not clause.has("task", "meeting", "issue")  # «…, Максу задачу …»: another request follows
    )
    if clause.has("comment") and not clause.has("note"):
        return False  # "leave a comment that …" is on an issue
    if (
        clause.after_colon is not None
        and not clause.has("note_verb", "create", "put")
        and not head_of(clause, ctx.now).has("note", "note_verb")
        and not re.search(r"(?i)\b(?:log|jot|record|запиши|note)\b", clause.text.split(":", 1)[0])
        and not re.search(
            r"(?i)(?:^|[.;!,—–-]\s*|\b(?:и|and|also|plus)\s+)(?:[^\W\d_]+\s+){0,4}?(?:note|заметк\w*)\b",
            clause.after_colon.strip(),
        )
    ):
        return (
            False  # "random thoughts: … our enterprise tier reads like a ransom note": a word, no note asked
        )
    if (
        clause.after_colon is not None
        and head_of(clause, ctx.now).has("issue", "task", "project")
        and not (head_of(clause, ctx.now).has("note"))
    ):
        return False  # "Add an issue to Q1 Launch: prepare release notes": the words after the colon are its title
    if (
        not (clause.has("note") or clause.has("note_verb"))
        or clause.asks()
        and not (clause.after_colon or told)
    ):
        return False
    if not clause.has("note") and re.search(
        r"(?i)\b(?:leave|оставь\w*)\s+(?:it|them|this|that|как|это|его|её|ее)\b", clause.text
    ):
        return False  # "if not, leave it", «оставь как есть»: nothing to write down
    if (
        clause.has("note_verb")
        and not clause.has("note")
        and head_of(clause, ctx.now).has("person", "company", "deal", "task")  # (the words after a colon
        and not _ON_RECORD.search(clause.text.split(":", 1)[0])  # are the note's, «клиент готов …»)
    ):
        return False  # "запиши новый контакт: ..." creates a record; "запиши к сделке: ..." is a note
    if not (
        clause.has("create", "note_verb")
        or clause.after_colon is not None
        or noun_first
        or told
        or clause.has("put")
        and clause.has("note")  # "put a note 'signed PO #4471'"
    ):
        return False
    head, content = clause.text, clause.after_colon
    swapped = False
    pasted = _QUOTED_AS_NOTE.search(clause.text) if content is None else None
    if content is not None:
        head = clause.text.split(":", 1)[0]
    elif pasted:  # "Log «<the email>» as a note on the Romashka deal": the quote is what it says
        content = next(g for g in pasted.groups() if g)
        head = clause.text[: pasted.start()] + " " + clause.text[pasted.end() :]
    elif told_then := _TOLD_THEN_LOGGED.fullmatch(clause.text):
        # "Jane called — procurement approved it. Log it on the Globex pilot deal": what was told is the
        # note (with what the parentheses add), and the ask says where it goes
        content = told_then.group(1).strip()
        circumstance = re.match(r"([^—–]{3,60}?)\s+[—–-]\s+(?=\S)", content)
        if circumstance and len(circumstance.group(1).split()) <= 6:
            content = content[circumstance.end() :]  # "just got off with Jane — she wants …": what she said
        aside = re.findall(r"\(([^()]{3,})\)", told_then.group(2))
        content = f"{content} {'; '.join(aside)}".strip() if aside else content
        asked_on = await crm_target(clause, ctx, "target", told_then.group(2))
        head = told_then.group(2) if asked_on is not None else clause.text
    elif m := _NOTE_SPLIT.search(clause.text):
        head, content = clause.text[: m.start()], clause.text[m.end() :].strip()
        if "—" in m.group(0) or "-" in m.group(0) or "–" in m.group(0):
            asked = re.compile(r"(?i)\b(?:заметк\w*|note|запиши|записать|оставь|jot|leave)\b")
            if asked.search(content) and not asked.search(
                head
            ):  # "кп отправил, ждём ОС — закинь заметкой в сд"
                head, content, swapped = content, head.strip(), True
    elif said_first := _SAID_THEN_NOTED.fullmatch(clause.text):
        # «ушли к конкуренту, запиши заметкой в сделку»: the words come first, the ask after them
        content, head = said_first.group(1).strip(), said_first.group(2)
    else:
        head, content = await _note_after_target(clause, ctx)
    quoted_first = _QUOTE_THEN_SENTENCE.match(content or "")
    if (
        quoted_first
    ):  # "…: 'signed off by procurement'. Oleg already fixed …": the quote is the note; then news
        content = quoted_first.group(2)
    elif content and (
        whole := _QUOTED_WHOLE.fullmatch(content)
    ):  # "…: 'Lost to competitor on price'.": the words
        content = whole.group(1) or whole.group(2)
    target = await crm_target(clause, ctx, "target", head)
    if target is None and swapped:  # "… в сд" names no deal: the note's own words do ("кп initech …")
        target = await crm_target(clause, ctx, "target", content or "")
    if target is None and isinstance(
        ctx.memory.get("deal"), Entity
    ):  # "... and add a note: ..." after a deal
        target = ("deal", ctx.memory["deal"])
    before_text = ctx.said_before()
    if (
        target is None and before_text and _ON_IT.search(clause.text.split(":", 1)[0])
    ):  # "who owns Globex pilot btw? also log a note on it: Jane asked …": it is what was just named
        target = await crm_target(replace(clause, text=before_text), ctx, "target", before_text)
    if (
        target is None and clause.after_colon and not _A_RECORD_NAMED.search(head)
    ):  # "Log this: Li Wei says the pilot is on hold": whom it is about (not «к сделке глоб: джейн …»)
        target = await crm_target(clause, ctx, "target", clause.after_colon)
    before = ctx.said_before()
    earlier = ctx.memory.get("record")
    if (
        target is None and earlier and ctx.clause_index > 0 and _SUBJECT_PRONOUN.search(clause.text)
    ):  # "Maria has a new email, … - update her record, and add a note that she prefers Telegram"
        target = earlier
    if (
        target is None and before and PRONOUN.search(clause.text)
    ):  # "John wants a call … — add a note to his record"
        target = await crm_target(replace(clause, text=before), ctx, "target", before)
    scene = str(ctx.memory.get("full_text", "")).split(":", 1)[0]
    if target is None and ctx.clause_index > 0 and len(scene) < 60:  # «Ромашка: заметка в сделку «…» и …»
        target = await crm_target(replace(clause, text=f"{clause.text} {scene}"), ctx, "target", scene)
        if target is not None and target[0] == "company" and clause.has("deal"):
            theirs = [d for d in await ctx.directory.deals() if d.extra.get("company_id") == target[1].id]
            target = ("deal", theirs[0]) if len(theirs) == 1 else target  # "в сделку": the company's one deal
    unread = ctx.memory.get("told") or []  # what sentences before the ask told, unread as requests
    only_read = bool(before) and all(i.op == "find" for i in ctx.intents if i.span == before)
    told_text = " ".join(text for _, text in unread) or (
        before if only_read and not before.rstrip().endswith("?") and ctx.clause_index > 0 else ""
    )  # «Ребята из ромашки просят скидку 10%» was answered as a read of Ромашка: still what was told
    told_text = re.sub(
        r"(?i)^(?:кстати|слушай|короче|btw|by\s+the\s+way)[,\s]+", "", strip_fillers(told_text)
    ).strip()
    if target is None and told_text:  # «Ребята из ромашки просят скидку 10%. Добавь заметку к сделке»
        target = await crm_target(replace(clause, text=told_text), ctx, "target", told_text)
        if target is not None and target[0] == "company" and clause.has("deal"):
            theirs = [d for d in await ctx.directory.deals() if d.extra.get("company_id") == target[1].id]
            target = ("deal", theirs[0]) if len(theirs) == 1 else target
    if target is None:
        raise ctx.ask(
            "target", ctx.t("К какой записи добавить заметку?", "Which record should the note go on?")
        )
    kind, record = target
    # "… before legal signs off. Thanks!": the thanks are for me, not for the note
    said = re.sub(
        r"(?i)[\s.,;!]*\b(?:thanks|thank\s+you|thx|спасибо|благодарю)\b[\s!.)]*$", "", content or ""
    )
    said = re.sub(
        r"^\s*[«\"“']([^«»\"“”]+)[»\"”']\s*$", r"\1", said
    )  # «тендер перенесён»: the words, unquoted
    said = re.sub(
        r"^\s*(?:в\s+)?(?:сделк\w*|сд|deal)\s+«([^«»]+)»\s*$", r"\1", said
    )  # «в сделку «готовы к пилоту»»
    said = re.sub(
        r"(?i)^\s*(?:as\s+a\s+note|как\s+заметк\w*)(?:\s+(?:on|to|for|к|на)\s+.*)?$", "", said
    )  # "add that as a note"
    said = re.sub(
        r"(?i)^\s*(?:note|заметк\w*)(?:\s+(?:к|в|на|для|to|on|for)\s+(?:the\s+|this\s+|эт\w+\s+)?(?:сделк\w*|компани\w*|"
        r"карточк\w*|deal|company|record|ней|нему|него))?\s*[—–:-]\s*(?=\S)",
        "",
        said,
    )  # «по Ромашке: note к сделке — просят скидку»: the note named, then its words
    said = re.sub(
        r"(?i)[.!]\s*(?:please\s+)?(?:log|add|put|save|note|запиши|добавь)\b[^.!]*$", ".", said
    )  # the ask itself
    full = str(ctx.memory.get("full_text", ""))
    told_before = bool(before) and bool(
        re.search(re.escape(before.strip()) + r"\s*[.!]", full)
    )  # its own sentence
    own_words = (
        quoted(clause.text, at_least=8, apostrophes=True) if clause.text.lstrip()[:1] in "'\"«“" else None
    )
    if own_words and said.strip() and _THAT_ON_RECORD.fullmatch(said.strip()):
        said = own_words  # "Li: 'We're ready to sign if …' Please note it on her record": her words, quoted first
    elif (
        before
        and said.strip()
        and _THAT_ON_RECORD.fullmatch(said.strip())
        and (told_before or re.match(r"(?i)(?:это|то|that|this|it)\b", said.strip()))
    ):  # «Запиши это ему в карточку»: what was said before
        said = re.sub(r"^.*?:\s*", "", before) if ":" in before else before

    said = _FOR_ALL_TO_SEE.sub("", said)  # «…, чтобы все видели»: why it is noted, not what
    said = _LEAD_IN_ONLY.sub("", said)  # "quick one — add a note to Globex": a lead-in, not the note's words
    reasons = ctx.memory.get("reasons") or []
    bare = re.sub(
        r"(?i)\s+(?:on|to|in|к|в)\s+(?:the\s+|this\s+)?(?:deal|record|сделк\w*|карточк\w*)\s*[.!]?$", "", said
    )
    if _THE_REASON.fullmatch(bare):  # "… they chose the competitor. Move it and put a note with the reason"
        dashed = [  # "Lost the Alfa-Leasing expansion — their budget got frozen. Mark it lost and note the reason"
            re.split(r"\s[—–-]\s", x, maxsplit=1)[1]
            for x in ctx.memory.get("said") or []
            if re.search(r"\s[—–-]\s", x)
        ]
        said = "; ".join(reasons) if reasons else dashed[-1].strip(" .") if dashed else ""
    if said.count("'") == 1 and said.rstrip(" .!").endswith(
        "'"
    ):  # "'signed PO #4471'" lost its opening quote
        said = said.rstrip(" .!")[:-1]
    own_quote = re.match(r"^\s*[«\"“]([^«»\"“”]{3,})[»\"”]", clause.text)
    if own_quote and re.fullmatch(r"(?i)\s*(?:это|то|that|this|it)?\s*[.!]?\s*", said):
        said = own_quote.group(1).strip()  # 'Jane wrote: “We won't need …” Add that as a note': the quote
    if told_text and re.fullmatch(
        r"(?i)\s*(?:это|то|that|this|it|всё\s+это)?\s*(?:(?:к|в|to|on)\s+)?(?:(?:the\s+)?(?:сделк\w*|компани\w*|"
        r"карточк\w*|deal|record|company))?\s*[.!]?\s*",
        said,
    ):
        said = re.sub(
            r"^\s*[«\"“']([^«»\"“”]+)[»\"”']\s*$", r"\1", told_text
        )  # «…закупка съезжает. Запиши это заметкой»
        ctx.memory["told_used"] = {i for i, _ in unread}
    if re.fullmatch(r"(?i)\s*(?:record|card|profile|page|карточк\w*|запис\w*|профил\w*)?\s*", said):
        # "From John: '…SSO…?' — pls add a note on the Acme Corp company record": the quote is the note
        said = quoted(str(ctx.memory.get("full_text", "")), at_least=8, apostrophes=True) or ""
    titled = _NOTE_TITLE.search(clause.text)  # "…, title 'Pricing call 25 Nov', body: '…'": its own title
    if titled:
        said = said.replace(titled.group(0), " ")
    if not said.strip(" ,;.") and (first := _FIRST_TOLD.match(str(ctx.memory.get("full_text", "")))):
        # "Globex asked for a CSV export of audit logs. Log it as an issue … and add a note to the Globex pilot
        # deal.": what the first sentence told, when nothing else says what the note is
        told_first = analyse(first.group(1), ctx.now)
        if not told_first.commands() and not told_first.text.rstrip().endswith("?"):
            said = first.group(1)
    body = _unpaired_quote_marks_off(said.strip(" ,;"))[:10_000] or MISSING
    await ctx.emit(
        CreateNote(record=record.name, body=body, title=titled.group(1).strip()[:200] if titled else None),
        record=(OBJECT[kind], record),
    )
    return True


_FIRST_TOLD = LazyRe(r"\s*([^.!?]{8,}?[.!])\s+(?=[A-ZА-ЯЁ])")
_NOTE_TITLE = LazyRe(
    r"(?i)\b(?:title|titled|заголов\w*|названи\w*)\s*[:=—–-]?\s*['\"«“]([^'\"«»“”]{2,200})['\"»”]"
)


# «задача Олегу: …», "task for Max: …": a to-do addressed to someone, then what it is
_ADDRESSED = LazyRe(
    rf"(?i)\s*(?:(?:задач\w*|таск\w*|task|todo)\s+\S+\s*[:—–-]|(?:{DATIVE})\s+(?:задач\w*|таск\w*)\b)"
)  # «задача Олегу: …», «Анне задача на завтра — …»
# "…, linked to the Globex pilot deal", «…, привяжи к сделке Globex»: which record the task is on
_LINKED = LazyRe(
    r"(?i)[,\s]*\b(?:linked\s+to|link\s+it\s+to|attached\s+to|привяж\w*\s+(?:её\s+|ее\s+)?к|прикрепи\w*\s+к)\s+"
    r"(?:the\s+)?(.+?)\s*[.!]?$"
)


_FOR_HIM = LazyRe(
    r"(?i)\b(?:постав\w*|дай|создай|заведи)\s+(?:ему|ей)\b|\b(?:ему|ей)\s+(?:задач\w*|таск\w*)\b"
)
_TASK_HEADING = LazyRe(r"(?i)^\s*(?:задача|задачка|таска|task|todo|to-do)\s*:")


@rule(50, writes=True)
async def crm_task(clause: Clause, ctx: BuildContext) -> bool:
    """A to-do about a CRM record (seed 000's task_create "about a CRM record"), optionally for a colleague."""
    if _A_NEW_CONTACT.match(clause.text):
        return False  # "New contact from today's call: Priya Nair, …": a person to add, not a call to make
    if TAKEN_BY_ME.search(clause.text):
        return False  # «Задачу про настройку SSO … я забираю себе»: one there is, taken over — nothing new
    if re.search(
        r"(?i)\b(?:run|apply|use|запусти|примени)\s+(?:the\s+)?(?:\w+\s+)?(?:template|шаблон\w*)\b",
        clause.text,
    ):
        return False  # "…we never did the renewal follow-ups. Run the renewal template for …": the template's
    # "I had my first call ever with Li Wei today": a call had, not one to make
    said_as_noun = bool(
        re.search(
            r"(?i)\b(?:a|an|the|my|our|first|this|that|his|her|their|good|great|nice|quick|long|short|productive|"
            r"bad|tough|solid|\w+'s)\s+(?:\w+\s+)?(?:call|email|meeting)\b"
            # "Recap of today's call with Ромашка: …": a call had, its outcome said next
            r"|\b(?:recap|summary|notes|minutes|debrief|outcome)\s+(?:of|from)\b",
            clause.text,
        )
    )
    todo_words = [k.text for k in clause.keys if k.lemmas & CUES["todo"]]
    done_already = any(is_past(w) for w in todo_words) and not any(  # «Созвонилась с …»: a call had
        is_infinitive(w) or is_imperative(w) or w.isascii() for w in todo_words
    )
    reminder = clause.has("remind", "followup") or (
        clause.has("todo") and clause.moment.day is not None and not said_as_noun and not done_already
    )
    # "поручи Максу связаться с ...", «попроси Олега к четвергу обновить КП для Альфы»: a to-do for a colleague
    delegated = clause.has("assign") and clause.has("todo") or bool(_ASKED_OF.match(clause.text))
    in_crm = clause.has("crm", "attio")  # "нужна задача в Attio: …", "create an Attio task to …"
    on_record = _ABOUT_RECORD.search(clause.text.split(":", 1)[0])  # "задача по сделке Globex: …"
    # «задача олегу: выставить счёт альфе»: a to-do for a colleague about a CRM record (seed 000)
    addressed = bool(_ADDRESSED.match(clause.text))
    explicit = clause.has("task") and (
        clause.has("create", "put") or clause.creates() or in_crm or bool(on_record) or addressed
    )
    dealt = [i for i in ctx.intents if i.op in ("update_deal", "create_deal")]
    if not explicit and ctx.clause_index > 0 and clause.has("task") and dealt:
        # «Сделку Acme Logistics переведи в КП и поставь Олегу задачу подготовить предложение»: a to-do said
        # with a deal's change is about that deal (a Linear word or team would make it an issue: checked below)
        explicit = bool(clause.has("create", "put", "assign") or clause.creates())
    if not explicit and _TASK_HEADING.match(clause.text) and clause.after_colon:
        # «Задача: сверить акты с Альфа-Лизингом к 30 ноября»: a to-do about a CRM record, said as a heading
        about = analyse(clause.after_colon, ctx.now)
        explicit = bool(
            [m for k in ("company", "deal", "person") for m in await find(ctx, about, k) if m.score >= 0.9]
        )
    if not (reminder or delegated or explicit) or clause.has("linear", "issue", "team") or clause.identifiers:
        return False
    if FIELD_OF_A_TASK.match(clause.text):
        return False  # «поставь срок по задаче про чекин …», "set the due date on the task about …": one there is
    if not in_crm and re.search(r"(?i)\b(?:в|into|to|in)\s+(?:the\s+)?(?:проект\w*|project)\b", clause.text):
        return False  # «заведи задачу в проект онбординга»: projects are Linear's, so it is an issue
    if (
        clause.asks()
        and not clause.commands()
        and not (in_crm and explicit and any(is_infinitive(k.text) for k in clause.keys))
    ):  # (a to-do said in the infinitive, «задача … в crm подготовить КП», asks for the task, verb unsaid)
        return False
    if _EACH_RECORD.search(clause.text):  # «по всем шести сделкам поставь их владельцам задачу»: one per deal
        deals = await ctx.directory.deals()
        raise ctx.ask(
            "task",
            ctx.t(
                "Задачу на каждую сделку разом я не ставлю. По какой сделке поставить задачу?",
                "I don't set a task on every deal at once. Which deal should the task be about?",
            ),
            choices=[(d.name, d.id) for d in deals[:5]],
        )
    if re.search(
        r"(?i)\bas\s+(?:done|complete|completed|finished)\b|\bкак\s+(?:выполненн|сделанн|готов|закрыт)\w*"
        r"|\b(?:описани\w*|description)\s+(?:к|для|of|to|on)\b",
        clause.text,
    ):
        return False  # "mark my CRM task about … as done", «добавь описание к задаче про …»: a task there is
    keys = [str(t.extra.get("key")) for t in await ctx.directory.teams() if t.extra.get("key")]
    if not in_crm and any(re.search(rf"\b{re.escape(k)}\b", clause.text.split(":", 1)[0]) for k in keys):
        return False  # "по Initech завести задачи в ENG: …": a Linear team is named, the tasks are issues
    if not in_crm and await _team_as_place(clause, ctx):
        return False  # «создай в кастомер саксесс задачу …»: the team by its name, so an issue
    body = clause.after_colon if clause.after_colon is not None else clause.text
    if clause.after_colon is None:  # "Jane told me … . Please create a CRM task for me to …": the ask is last
        sentences = re.split(r"(?<=[.!?])\s+(?=\S)", body.strip())
        asking = [x for x in sentences if _TASK_ASKED.search(x) and not x.rstrip().endswith("?")]
        # (…and a sentence said after it — "The pilot stage stays as is", «И кстати, сколько …?» — is no task)
        body = asking[-1] if asking else sentences[-1]
        if len(sentences) > 1 and re.match(
            r"(?i)(?:please\s+)?(?:make|turn|put|log|save|add|сделай|запиши|оформи)\s+(?:that|it|this|это)\b",
            body,
        ):
            body = sentences[-2]  # "… send Jane the pricing sheet on Friday. Please make that a CRM task."
    linked = _LINKED.search(clause.text)
    target = await crm_target(clause, ctx, "target", linked.group(1)) if linked else None
    target = target or await crm_target(clause, ctx, "target", clause.text)
    if target is None and POINTED_TO_ONE.search(
        clause.text
    ):  # «…: Мария просит …, ну и напомни ей перезвонить»
        for before in reversed(ctx.memory.get("said") or []):
            people = strong(await find(ctx, clause, "person", text=before))
            if len(people) == 1:
                target = ("person", people[0].entity)
                break
    if target is None and PRONOUN.search(clause.text) and ctx.memory.get("record"):
        target = ctx.memory["record"]  # "…to Jane Doe, and create a task to send her the contract"
    newcomer = (
        ctx.memory.get("new_people", {}).get("*") if target is None and PRONOUN.search(clause.text) else None
    )
    if (
        target is None and newcomer is not None
    ):  # "добавь контакт Ольга … и напомни написать ей в понедельник"
        in_crm = True
    if target is None and PRONOUN.search(clause.text):
        # "Maria Sokolova cornered me … . Remind me to follow up with her": whom a sentence before named
        target = await record_said_before(clause, ctx)
    earlier = ctx.memory.get("deal")
    if target is None and not in_crm and reminder and isinstance(earlier, Entity) and ctx.clause_index > 0:
        target = ("deal", earlier)  # "globex pilot → won, …, and remind me to send invoice fri": that deal's
    noted = ctx.memory.get("record")
    if target is None and on_record and _THIS_RECORD.search(on_record.group(0)):
        if ctx.clause_index > 0:
            # «…note к сделке …; и поставь мне таск по этой сделке: …»: the record the request before was about
            target = ("deal", earlier) if isinstance(earlier, Entity) else noted
        if target is None:  # "a task on this deal", said first: which one is asked (or was answered)
            deals = await ctx.directory.deals()
            chosen = next((d for d in deals if d.id == ctx.answer("target")), None)
            if chosen is None:
                raise ctx.ask(
                    "target",
                    ctx.t("По какой сделке задача?", "Which deal is the task about?"),
                    choices=[(d.name, d.id) for d in deals[:5]],
                )
            target = ("deal", chosen)
    if (
        target is None
        and not in_crm
        and reminder
        and noted
        and ctx.clause_index > 0
        and any(i.op == "create_note" for i in ctx.intents)
    ):  # "log that on her record and remind me Friday to send it over": about whom the note is
        target = noted
    met = ctx.memory.get("met")
    if target is None and isinstance(met, Entity) and _AFTER_THE_CALL.search(clause.text):
        target = ("person", met)  # "…and a task for me to send the proposal after the call": the person met
    if target is None and dealt and explicit and (deal := dealt[-1].resolved("deal")) is not None:
        target = (
            "deal",
            deal,
        )  # «…переведи в КП и поставь Олегу задачу подготовить предложение»: that deal's
    if target is None and not in_crm:
        return False  # a generic task: Linear handles it
    kind, record = target if target is not None else ("", None)
    assignee = await _colleague(clause, ctx)
    if assignee is None and ctx.clause_index > 0 and _FOR_HIM.search(clause.text):
        # «…назначь на Олега. И ещё поставь ему задачу в Attio …»: the colleague just named
        assignee = await one_said_before(ctx, clause, "member")
    whom = _TASK_FOR.search(clause.text) if assignee is None and not ctx.answer("assignee") else None
    if whom and not [m for m in await find(ctx, clause, "member", text=whom.group(1)) if m.score >= 0.5]:
        members = await ctx.directory.members()  # «поставь задачу Ивану …»: Ivan is no colleague here
        raise ctx.ask(
            "assignee",
            ctx.t(
                f"«{whom.group(1)}» нет среди коллег в Attio. Кому поставить задачу?",
                f"'{whom.group(1)}' is not a colleague in Attio. Who should the task be for?",
            ),
            choices=[(m.name, m.id) for m in members[:5]],
        )
    if assignee is None and ctx.answer("assignee"):
        assignee = next((m for m in await ctx.directory.members() if m.id == ctx.answer("assignee")), None)
    offset = clause.text.rfind(body)  # where the task's words sit in the clause (not always its tail)
    offset = offset if offset >= 0 else len(clause.text) - len(body)
    raw = strip_spans(
        body,
        [(a - offset, b - offset) for a, b in clause.moment.spans if offset <= a and b <= offset + len(body)],
    )
    given_to = _GIVEN_TO.search(raw)
    if given_to:  # "…: get the signed contract scan, due December 2, assign it to me": who does it, said last
        raw = raw[: given_to.start()]
        if assignee is None:
            said_to = given_to.group(1)
            assignee = (
                await refs.member(ctx, "me")
                if re.fullmatch(r"(?i)me|myself|меня|мне|себя", said_to)
                else next(
                    (m.entity for m in await find(ctx, clause, "member", text=said_to) if m.score >= 0.5),
                    None,
                )
            )
    raw = re.sub(r"(?i)[,;]\s*\b(?:due|срок|deadline|дедлайн)\b\s*(?=[,;]|$)", "", raw)  # the day taken out
    content = clean_title(
        raw, ctx.lang, content=clause.after_colon is not None and body == clause.after_colon
    )
    content = (
        re.sub(
            r"(?i)^(?:напомни(?:те)?(?:\s+мне)?|remind me|поручи\s+\S+|create a crm task for \S+|me|мне|себе)\s*[—–:-]?\s+(?:to\s+|что\s+|о\s+)?",
            "",
            content,
        ).strip()
        or content
    )
    content = _LINKED.sub("", content).strip(" ,.")
    content = re.sub(r"[,\s]+(?:до|by|к|срок|due|deadline|дедлайн)\s*$", "", content).strip()
    content = (  # "need to follow up with Li Wei re pilot kickoff, add a task": the ask said last is no part of it
        re.sub(r"(?i)^(?:i\s+|we\s+)?need\s+to\s+(?=\S)|\s*(?:[,;]|\s[—–-])\s*(?:please\s+|pls\s+)?(?:add|create|make|"
               r"set\s+up|log)\s+(?:it\s+|that\s+|this\s+)?(?:as\s+)?(?:an?\s+)?(?:crm\s+|attio\s+)?(?:task|reminder|to-?do)"
               r"(?:\s+for\s+(?:it|that|this|me))?\s*[.!]?$", "", content).strip() or content
    )  # fmt: skip
    content = (  # "set a follow-up for me … to send the invoice": the follow-up is the sending
        re.sub(r"(?i)^(?:set|create|add|make|schedule)\s+(?:a\s+|an\s+)?(?:follow-?up|reminder|task)\s+"
               r"(?:for\s+\S+\s+)?(?:to\s+)?", "", content).strip() or content
    )  # fmt: skip
    if assignee is not None:  # "remind oleg to call john": the task is the call; who does it is the assignee
        spans = key_spans(clause.text)
        said = {
            clause.text[spans[i][0] : spans[i][1]]
            for m in await find(ctx, clause, "member")
            if m.entity.id == assignee.id
            for i in m.positions
            if i < len(spans)
        } | {assignee.name.split()[0]}
        names = "|".join(re.escape(w) for w in sorted(said, key=len, reverse=True))
        content = (
            re.sub(
                rf"(?i)^(?:remind\s+|для\s+|for\s+)?(?:{names})\w*\s+(?:to\s+|задач\w*\s+)?", "", content
            ).strip()
            or content
        )
        content = re.sub(r"(?i)^remind\s+\S+\s+to\s+", "", content).strip() or content
        content = (  # "ask Oleg to …": what Oleg is to do ("ask who replaces her" is the to-do itself)
            re.sub(
                r"(?i)^(?:попроси(?:те)?|ask)\s+(?!(?:who|what|when|where|why|how|whether|if|about|for|кто|что|когда|где|"
                r"почему|как|ли|про|о|об)\b)\S+\s+(?:to\s+)?",
                "",
                content,
            ).strip()
            or content
        )
        content = (
            re.sub(r"(?i)^(?:к|до|by)\s+(?=\S)", "", content).strip() or content
        )  # the day was said there
    # "create an Attio task to send her…", "задачу в CRM подготовить…": where it goes is not what it says
    content = re.sub(r"(?i)\s*\b(?:в|in|to)\s+(?:the\s+)?(?:attio|crm|аттио|црм)\b\s*", " ", content).strip()
    content = re.sub(
        r"(?i)^(?:an?\s+)?(?:(?:attio|crm)\s+)?(?:task|задач\w*)\s+(?:to\s+)?", "", content
    ).strip()
    content = (
        re.sub(r"(?i)^(?:for|для)\s+(?:me|him|her|them|меня|него|неё|нее|них)\s+(?:to\s+)?", "", content)
        or content
    )
    content = (  # "for Max on the Globex deal to review the pricing": whose and about what, then the task
        re.sub(
            r"(?i)^(?:for\s+\S+\s+)?(?:(?:on|about|for)\s+(?:the\s+)?[^,.;]{1,40}?\s+(?:deal|company|record|contact)\s+)?to\s+(?=\S)",
            "",
            content,
        )
        if re.match(r"(?i)(?:for|on|about)\s", content)
        else content
    ).strip() or content
    # «Анне задача на завтра — подготовить …»: the day taken out leaves its preposition before the dash
    content = re.sub(r"(?i)^(?:(?:на|к|до|by|on|for)\s*)?[—–-]+\s*", "", content).strip() or content
    named_so = _TASK_QUOTED.search(clause.text)
    if named_so:  # «создайте в CRM задачу «Подготовить КП…» со сроком …»: the task's own words, in quotes
        content = (named_so.group(1) or named_so.group(2)).strip()
    if record is not None and not named_so and _names_only_the_record(content, record):
        content = ""  # «поставь мне задачу на пятницу по Globex»: about what, but not what to do — asked
    deadline = None
    if clause.moment.day:
        at = clause.moment.at or time(9, 0)
        deadline = datetime.combine(clause.moment.day, at, tzinfo=ctx.now.tzinfo).isoformat(
            timespec="seconds"
        )
    listed = _counted_items(
        clause
    )  # «три задачи Анне …: согласовать ТЗ, отправить договор, назначить кикофф»
    for each in listed or [content]:
        when = deadline
        if listed:  # "1) send NDA on Friday 2) schedule demo next Tuesday": each item its own day
            own = analyse(each, ctx.now).moment
            if own.day:
                when = datetime.combine(own.day, own.at or time(9, 0), tzinfo=ctx.now.tzinfo).isoformat(
                    timespec="seconds"
                )
                each = strip_spans(each, own.spans).strip(" ,.;") or each
        await ctx.emit(
            CreateTask(
                content=(each or MISSING)[:500],
                deadline=when,
                assignee=assignee.name if assignee else None,
                record=record.name if record is not None else newcomer["name"] if newcomer else None,
            ),
            record=(OBJECT[kind], record) if record is not None else None,
            assignee=assignee,
        )
    return True


_RECORD_WORDS = frozenset(
    "по про about on for regarding re насчёт насчет the a сделке сделка сделку компании компания клиенту клиент "
    "deal company account record contact контакту".split()
)


def _names_only_the_record(content: str, record: Entity) -> bool:
    """The task's words name only the record it is about ("по Globex", "about the Acme deal")."""
    words = [w for w in re.findall(r"[^\W\d_]+", content.lower()) if w not in _RECORD_WORDS]
    names = re.findall(r"[^\W\d_]+", record.name.lower())
    return bool(names) and all(max(similarity(w, n) for n in names) >= 0.85 for w in words)


def _counted_items(clause: Clause) -> list[str]:
    """Tasks counted, then listed after a colon ("three tasks for Anna: a, b, c"): one per item, when the
    count and the list agree."""
    head = clause.text.split(":", 1)[0]
    said = re.search(rf"(?i)\b({COUNT_WORD})\s+(?:crm\s+)?(?:задач\w*|tasks)\b", head)
    if said is None or clause.after_colon is None:
        return []
    numbered = re.split(r"(?:^|\s+)\(?\d\s*[).]\s+", clause.after_colon)  # "1) send NDA on Friday 2) …"
    items = [
        x.strip(" .;,")
        for x in (
            numbered
            if len(numbered) > 2
            else re.split(r"\s*(?:,|;|\s+и\s+|\s+and\s+)\s*", clause.after_colon)
        )
        if x.strip(" .;,")
    ]
    n = said.group(1).lower()
    return items if len(items) == (int(n) if n.isdigit() else number_from_words([n])) else []


_TASK_QUOTED = LazyRe(
    r"(?i)\b(?:задач\w*|таск\w*|task|todo|reminder|напоминани\w*)\s*[:—–-]?\s*(?:'([^']{3,})'|[«\"“]([^«»\"“”]{3,})[»\"”])"
)
_TASK_ASKED = LazyRe(
    r"(?i)\b(?:task|todo|to-do|reminder|remind|follow[\s-]?up|задач\w*|таск\w*|напомни\w*|напоминалк\w*)\b"
)
_GIVEN_TO = LazyRe(
    r"(?i)[,;]\s*(?:and\s+|и\s+)?(?:assign(?:ed)?(?:\s+(?:it|this|that))?\s+to|назнач\w*(?:\s+(?:её|ее|его|это))?\s+на|"
    r"повес\w*(?:\s+(?:её|ее|его|это))?\s+на|на|to|for)\s+([^\W\d_][\w-]*)\s*[.!]?\s*$"
)


async def _colleague(clause: Clause, ctx: BuildContext) -> Entity | None:
    """A workspace member the task is for ("поручи Максу", "поставь Олегу задачу", "a CRM task for Oleg")."""
    members = [m for m in await find(ctx, clause, "member") if m.score >= 0.5]
    for_them = re.search(
        r"(?i)\b(?:для|for|remind|на|попроси(?:те)?|ask|напомни(?:те)?)\s+([^\s,:;.!?]+)", clause.text
    )  # "задача для Макса", "remind oleg to…", «задача в CRM на Макса: …», «попроси Олега …», «напомните Максу»
    scene = re.match(r"(?i)\s*(?:для|for)\s+([^\W\d_]+)\s*:", str(ctx.memory.get("full_text", "")))
    if scene and (  # «Для Макса: создайте в CRM задачу «… для Initech …»»: whom the whole message is for
        for_them is None
        or not [m for m in members if clause.keys[min(m.positions)].text == for_them.group(1).lower()]
    ):
        for_them = scene
    word = for_them.group(1).lower() if for_them else None
    named = [
        m.entity
        for m in members
        if min(m.positions) < len(clause.keys) and clause.keys[min(m.positions)].text == word
    ]
    if named:
        return named[0]
    if scene is not None and for_them is scene:
        theirs = [m for m in await find(ctx, clause, "member", text=scene.group(1)) if m.score >= 0.5]
        if theirs:
            return theirs[0].entity
    head = re.split(r":|\s[—–-]\s", clause.text, maxsplit=1)[0]
    if (
        for_them
        and for_them.end(1) <= len(head)
        and for_them.group(1)[:1].isupper()
        and not any(a <= for_them.start(1) < b for a, b in clause.moment.spans)  # "for Monday": when
    ):
        stranger = await colleague_asked_for(
            ctx, clause, for_them.group(1), "for_whom", ("Для кого задача?", "Who is the task for?")
        )
        if stranger is not None:
            return stranger
    if re.search(r"(?i)\b(?:for\s+me|to\s+me|remind\s+me|мне|себе|на\s+меня|для\s+меня)\b", head) and not (
        members and clause.has("assign")
    ):  # "Create a CRM task for me: …", «поставь мне задачу в CRM», «задача мне — набрать …»
        return await refs.member(ctx, "me")
    addressed = _ADDRESSED.match(clause.text)  # «задача Олегу: …»
    does = re.search(r"(?:^|:\s*)([^\W\d_][\w-]*)\s+(?:to|should|needs\s+to|must|will)\s+[a-z]", clause.text)
    if does:  # "CRM task: Oleg to call Maria about the addendum": the one who does it
        doer = [m for m in await find(ctx, clause, "member", text=does.group(1)) if m.score >= 0.5]
        if doer:
            return doer[0].entity
    right_after = [  # «задача олегу позвонить джейн»: the colleague said right after the word "task"
        m.entity
        for m in members
        if 0 < min(m.positions) < len(clause.keys)
        and re.fullmatch(r"(?i)задач\w*|таск\w*", clause.keys[min(m.positions) - 1].text)
    ]
    if right_after:
        return right_after[0]
    told = re.match(r"\s*([^\W\d_][\w-]*)\s+([^\W\d_]+)", clause.after_colon or "")
    if told and is_infinitive(told.group(2).lower()):  # «задача в аттио: Олежке связаться с Ли Вэем …»
        doer = [m for m in await find(ctx, clause, "member", text=told.group(1)) if m.score >= 0.5]
        if doer:
            return doer[0].entity
    first = [  # «Максу задача в CRM: …», «олегу задачу: …»: the colleague said first, in the dative
        m.entity
        for m in members
        if min(m.positions) == 0
        and len(clause.keys) > 1
        and re.fullmatch(r"(?i)задач\w*|таск\w*|напоминалк\w*", clause.keys[1].text)
    ]
    if first:
        return first[0]
    if not members or not (clause.has("assign", "create", "put", "remind") or addressed):
        return None
    colleague: Entity = members[0].entity
    return colleague


# «поставь задачу Ивану …», «поручи Ивану …»: whom a task is for, said in the dative with a capital
_THAT_ON_RECORD = LazyRe(
    r"(?i)(?:(?:это|то|that|this|it)\s*)?(?:(?:к\s+|to\s+|on\s+)?(?:ему|ей|ней|нему|им|ним|him|her|them)\s*)?"
    r"(?:(?:в|на|on|to|into)\s+(?:\w+\s+)?(?:карточк\w*|запис\w*|профил\w*|record|card|profile|crm|црм))?"
)
_TASK_FOR = LazyRe(r"(?:\b(?i:задач\w*|таск\w*|поручи|поручить)\s+)([А-ЯЁ][а-яё]+[уюе])\b")


# «Поставь сделке Ромашки новую сумму»: a new value of a field, not a new deal
_NEW_FIELD = LazyRe(
    r"(?i)\b(?:нов\w+|new)\s+(?:сумм\w*|amount|value|стади\w*|stage|owner|владельц\w*|владел\w*|ответственн\w*|"
    r"назван\w*|name|close\s+date)\b"
)


@rule(55, writes=True)
async def create_deal(clause: Clause, ctx: BuildContext) -> bool:
    if _ADD_UP.search(clause.text) or RAISE_A_FIELD.search(clause.text):
        return False  # "add up all the deals": a total asked for; "raise the amount on …": a change, nothing made
    # "сделка для initech 12к$ квалификация": a deal, its company and an amount, said without a verb
    listed = re.match(
        r"(?i)\s*(?:new\s+)?(?:сделк[аи]|deal)\s+(?:для|с|for|with)\s+\S", clause.text
    ) and bool(amount_of(clause.text))
    if listed and re.search(
        r"(?i)\b(?:теперь|now|стал[аио]?|уже|updated|changed|is|обновил\w*|стоит)\b", clause.text
    ):
        listed = False  # «сделка с альфой теперь 900к»: what an existing deal is now, not a new one
    if not (clause.creates() or clause.says_new() or listed) or not clause.has("deal"):
        return False
    if _NEW_FIELD.search(clause.text) and not clause.creates():
        return False  # «Поставь сделке Ромашки новую сумму»: a new value of a deal there is, no new deal
    if ADDED_TO_A_DEAL.search(clause.text) and not clause.says_new():
        return False  # "add Peter to the Globex deal", «добавь Петра в сделку Globex»: the deal is there
    if clause.after_colon is not None and not head_of(clause, ctx.now).has("deal"):
        return False  # «Заведи задачу в Engineering: экспорт сделок в Excel»: a deal in a title is no deal
    if clause.has("task", "issue") and clause.first("create") > clause.first("deal"):
        return False  # "сделку … в Won и закинь задачу …": the verb creates the task, not the deal
    made = clause.first("create")
    things = [p for n in ("task", "issue") for p in clause.cue_positions(n) if p > made]
    if things and min(things) < clause.first("deal") and not clause.says_new():
        return False  # "Create a CS issue '…' …, and a CRM task for Max on the Globex deal": what is made is no deal
    if clause.asks() and not clause.commands() and not listed:
        return False
    if re.search(r"(?i)\b(?:no|нет|без|without)\s+(?:\w+\s+)?(?:deal|сделк\w*)\b", clause.text):
        return False  # "…, but there's no deal yet and that's on sales": a deal said missing, not asked for
    new_company = ctx.memory.get("new_companies", {}).get("*")
    if new_company is not None and re.search(
        r"\b(them|it|this company|нее|неё|них|ними|ней|ним|нему|этой компании|этой компанией)\b",
        clause.text,
        re.I,
    ):
        return await _deal_for_new_company(clause, ctx, new_company)
    for key, made in ctx.memory.get(
        "new_companies", {}
    ).items():  # "…компанию Вектор … и сделку Вектор — пилот"
        if key != "*" and match_words(keys_for(str(made["name"]))[:1], clause.keys):  # "deal Stark pilot"
            return await _deal_for_new_company(clause, ctx, made)
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
    stage = await _stage(clause, ctx)
    owner = await _owner(clause, ctx)
    listed_fields = _field_list(clause)  # "new deal: Initech expansion / initech / 22.5k usd / lead / max"
    if owner is None and listed_fields:
        for part in listed_fields[1:]:
            said = keys_for(part)
            colleagues = [
                m
                for m in await ctx.directory.members()
                if 0 < len(said) <= 2 and match_words(said, keys_for(m.name))
            ]
            if part.lower() in ("me", "мне", "я", "на меня"):
                owner = await refs.member(ctx, "me")
            elif len(colleagues) == 1:
                owner = colleagues[0]
    said_after = await _words_after_company(clause, ctx, company)
    first_field = listed_fields[0] if listed_fields else None
    name = (
        _said_name(clause)
        or (first_field if first_field and not _says_only(first_field, company.name) else None)
        # as said: "Initech SSO add-on"; said apart: «Umbrella Health — расширение»
        or (_joined_name(await _company_as_said(clause, ctx, company), said_after) if said_after else None)
        or f"{company.name} — {_kind_of_deal(clause) or ctx.t('новая сделка', 'new deal')}"
    )
    amount = amount_of(clause.text)
    await ctx.emit(
        CreateDeal(
            name=name[:200],
            company=company.name,
            amount=amount[0] if amount else None,
            currency=amount[1] if amount else None,
            stage=stage.name if stage else None,
            owner=owner.name if owner else None,
        ),
        company=company,
        stage=stage,
        owner=owner,
    )
    return True


# where a new deal's name ends: a sum, a field's name, a stage or owner said bare, the next request
_SUM_WORD = "|".join(w for w in NUMBER_WORDS.split("|") if w != "a")
_NAME_ENDS = LazyRe(
    r"(?i)[$€₽\d]|\b(?:сумм\w*|на\s+сумму|стади\w*|stage|owner|ответствен\w*|владел\w*|worth|amount|value|"
    r"бюджет\w*|и|and|а|плюс|plus|also|тоже|then|потом|затем|миллион\w*|million|полтор\w*)\b|[;.!?]"
    # a sum said in words: "… forty five k", «… сорок тысяч долларов»
    rf"|\b(?:{_SUM_WORD})\b(?=(?:[\s-]+(?:{_SUM_WORD}|and|a|half|с|половиной))*[\s-]+"
    r"(?:k|thousand|grand|million|тысяч\w*|миллион\w*|млн|usd|dollars?|долл\w*|руб\w*|евро)\b)"
)
_NAME_PADDING = frozenset(
    "на для по с со for with on about in at the a an new called named под названием deal deals сделка сделку "
    "сделки новая новую новой э ээ эээ эм ну короче типа вот uh um erm like".split()
)


def _joined_name(company: str, after: str) -> str:
    """ "Umbrella Health" + "Health expansion" -> "Umbrella Health expansion": the words said once."""
    head, tail = company.split(), after.split()
    for n in range(min(len(head), len(tail)), 0, -1):
        if [w.lower() for w in head[-n:]] == [w.lower() for w in tail[:n]]:
            return " ".join([*head, *tail[n:]])
    return f"{company} {after}"


async def _company_as_said(clause: Clause, ctx: BuildContext, company: Entity) -> str:
    """The company's words as the new deal's name says them: "Umbrella rollout" keeps "Umbrella" (of
    Umbrella Health); words said another way («инитека», "acme corp.") are the company's own name."""
    spans = key_spans(clause.text)
    named = [m for m in await find(ctx, clause, "company") if m.entity.id == company.id and m.positions]
    if not named:
        return company.name
    own = {w.lower(): w for w in company.name.split()}
    said = [clause.text[spans[i][0] : spans[i][1]] for i in sorted(named[0].positions) if i < len(spans)]
    if said and all(w.lower() in own for w in said):
        return " ".join(own[w.lower()] for w in said)
    return company.name


async def _words_after_company(clause: Clause, ctx: BuildContext, company: Entity) -> str | None:
    """A new deal's own words, said right after its company ("Initech SSO add-on 8000 USD",
    "Umbrella Health telehealth pilot, 15k", «ромашка допмодули 300000 руб лид», «Initech, эээ,
    расширение на второй офис, сумма …»): up to the sum, a field, a stage or owner, or the next request."""
    spans = key_spans(clause.text)
    named = [m for m in await find(ctx, clause, "company") if m.entity.id == company.id and m.positions]
    if not named:
        return None
    start = spans[max(named[0].positions)][1]
    # "Initech, Ivan told me …, so create a deal Initech logistics expansion, …": the company said again
    # right after "deal" starts the name, not where it was first said
    again = re.search(r"(?i)\b(?:deal|сделк\w*)\s+(?:called\s+|named\s+|под\s+названием\s+)?", clause.text)
    if again:
        after = [i for i, (a, _) in enumerate(spans) if a >= again.end()]
        if after and find_mentions(
            keys_for(clause.text[spans[after[0]][0] : spans[after[0]][1]]), [company], threshold=0.8
        ):
            start = spans[after[0]][1]
    stops = [
        spans[min(m.positions)][0]
        for kind in ("stage", "member", "person", "deal")
        for m in await find(ctx, clause, kind)
        if m.score >= 0.9 and m.positions and spans[min(m.positions)][0] >= start
    ]
    rest = clause.text[start : min(stops, default=len(clause.text))]
    again = next(  # "deal Globex expansion for Globex", «initech expansion для инитека»: said twice
        (
            m
            for m in re.finditer(r"(?i)\s(?:for|для|with|с|со)\s+([^\W\d_][\w-]*)", rest)
            if find_mentions(keys_for(m.group(1)), [company], threshold=0.8)
        ),
        None,
    )
    rest = rest[: again.start()] if again else rest
    pieces: list[str] = []
    apart = False  # the words came after a comma («Umbrella Health, короче расширение»): its kind, apart
    for n, piece in enumerate(rest.split(",")):
        cut = _NAME_ENDS.search(piece)
        said = piece[: cut.start()] if cut else piece
        words = [w for w in said.strip().strip(" —–-:").split() if w.strip(" —–-:")]
        while words and words[0].lower().strip(" —–-:") in _NAME_PADDING:
            words.pop(0)
        while words and words[-1].lower().strip(" —–-:") in _NAME_PADDING:
            words.pop()
        said = " ".join(words)
        if said and is_imperative(said.split()[0]):
            break  # «…, поставь задачу…»: the next request
        if said:
            apart = apart or (n > 0 and not pieces)
            pieces.append(said)
        if cut or len(pieces) >= 2:
            break
    name = " ".join(pieces)
    if not re.search(r"[^\W\d_]{2,}", name):
        return None
    return f"— {name[:120]}" if apart else name[:120]


_DEAL_KINDS = LazyRe(
    r"(?i)\b(расширени\w*|пилот\w*|продлени\w*|внедрени\w*|лицензи\w*|апсейл\w*|интеграци\w*|"
    r"expansion|pilot|renewal|license|licence|upsell|integration|rollout)\b"
)


def _kind_of_deal(clause: Clause) -> str | None:
    """What kind of deal it is, said beside the company ("Umbrella Health, короче расширение"):
    the usual second half of a deal's name («Umbrella Health — расширение»)."""
    m = _DEAL_KINDS.search(clause.text)
    if m is None:
        return None
    word = m.group(1)
    return lemma(word.lower()) if not word.isascii() else word.lower()


_NEW_DEAL_CALLED = LazyRe(
    r"(?:deal|сделк[уа])\s+([A-ZА-ЯЁ][\w&.'-]*(?:\s+(?!(?i:на|for|worth|at|in|в|с|со|stage|стади\w*|owner|of|and|и)\b)"
    r"[\w&.'-]+){1,3}?)(?=\s+(?i:на|for|worth|at|in|в|с|stage|стади\w*|owner)\b|\s*[,;.]|$)"
)


def _field_list(clause: Clause) -> list[str]:
    """A new record's fields typed as a list after a colon, at least three of them ("new deal: A / b / c")."""
    if clause.after_colon is None:
        return []
    parts = [
        p.strip(" .") for p in re.split(r"\s*[;|]\s*|\s+/\s+|\s*,\s*", clause.after_colon) if p.strip(" .")
    ]
    return parts if len(parts) >= 3 else []


def _says_only(words: str, name: str) -> bool:
    """The words are only the record's name (or its first word): no name of their own."""
    said = keys_for(words)
    return bool(said) and len(said) <= len(keys_for(name)) and match_words(said, keys_for(name))


def _said_name(clause: Clause) -> str | None:
    """The deal's own name: quoted, after "called"/"под названием", or a proper name with a dash right
    after the word deal ("сделку Вектор — пилот на 500 000 руб")."""
    for named in re.finditer(
        r"[«\"“']([^»\"”']+)[»\"”']|(?:called|named|под названием)\s+([^,.;]+)", clause.text
    ):
        if named.group(1) and re.search(
            r"(?i)\b(?:стади\w*|этап\w*|stage|ответственн\w*|owner)\s*[:—–-]?\s*$",
            clause.text[: named.start()],
        ):
            continue  # «стадия «Лид»»: the stage's name, not the deal's
        said = (named.group(1) or named.group(2)).strip()
        if named.group(
            2
        ):  # "a deal called Cyberdyne pilot for 40k USD in Lead": its sum and stage are no part of it
            said = re.split(
                r"(?i)\s+(?:for|worth|at|на|с\s+суммой)\s+[$€₽]?\d|\s+(?:in|at|в|на)\s+(?:стади\w+\s+|stage\s+)?"
                r"(?:lead|qualification|proposal|negotiation|won|lost|лид|квалификаци\w*|кп|предложени\w*|переговор\w*)\b"
                r"|\s+(?:owned\s+by|owner|для|for)\s+[A-ZА-ЯЁ]",
                said,
                maxsplit=1,
            )[0].strip()
        return said
    dashed = re.search(
        r"(?i:сделк\w*|deal)\s+([A-ZА-ЯЁ][\w&.'-]*(?:\s+[\w&.'-]+)?\s+[—–-]\s+[\w&.' -]+?)"
        r"(?=\s+(?i:на|for|worth|стади\w*|stage|с\s+суммой|в\s+стади\w*|owner|ответствен\w*)\b|\s*[,;.]|$)",
        clause.text,
    )
    return dashed.group(1).strip() if dashed else None


# «заметка к сделке глоб: …»: a record said by its kind and a name (one not found is asked about, not guessed
# from the note's own words)
_A_RECORD_NAMED = LazyRe(
    r"(?i)\b(?:к|в|на|по|to|on|for)\s+(?:the\s+)?(?:сделк\w*|компани\w*|контакт\w*|deal|company|contact)\s+"
    r"(?!(?:this|that|it|эт\w+|нее|неё|него)\b)[^\W\d_]{2,}"
)


def _unpaired_quote_marks_off(text: str) -> str:
    """«оплата получена 25.11»» cut from its opening mark: the closing one left alone goes too."""
    if text.endswith("»") and "«" not in text:
        text = text[:-1].rstrip()
    if text.startswith("«") and "»" not in text:
        text = text[1:].lstrip()
    return text


_A_NEW_CONTACT = LazyRe(r"(?i)^\s*(?:a\s+)?(?:new|новый|нов\w+)\s+(?:contact|person|контакт|человек)\b")
_DELETE_HIM_OR_HER = LazyRe(r"(?i)\b(?:удали|убери|сотри|delete|remove|drop)\s+(?:её|ее|его|him|her)\b")


@rule(35, writes=True)
async def delete_record(clause: Clause, ctx: BuildContext) -> bool:
    if not clause.has("delete") or clause.identifiers or clause.has("task", "issue", "note"):
        return False
    if re.search(r"(?i)\bdrop\b.*\b(?:to|down\s+to)\s+[$€₽\d\w]", clause.text):
        return False  # "Drop the Romashka opp ACV to 1,000,000 RUB": lowered, not removed
    people: dict[str, Entity] = {}
    if _DELETE_HIM_OR_HER.search(clause.text):
        # «по глобексу джейн доу ушла из компании удали её из контактов»: "her" is the person named, not Globex
        people = {m.entity.id: m.entity for m in await find(ctx, clause, "person") if m.score >= 0.9}
        if len(people) > 1:
            return False  # two people and a "her": the question of which is the other rules'
    target = ("person", next(iter(people.values()))) if people else await crm_target(clause, ctx, "target")
    if target is None:
        return False
    kind, record = target
    await ctx.emit(DeleteRecord(record=record.name, object=OBJECT[kind]), record=(OBJECT[kind], record))  # type: ignore[arg-type]
    return True


async def _owner(clause: Clause, ctx: BuildContext) -> Entity | None:
    m = re.search(
        r"(?:owner|owned\s+by|AE|account\s+exec(?:utive)?|ответственн\w*|владелец|владельцем|вед[её]т|ведущ\w*|handled\s+by|"
        r"овнер\w*)"
        r"(?:\s+(?:is|will\s+be|should\s+be|(?:пусть\s+|пускай\s+)?будет))?"  # «ответственный пусть будет макс»
        r"\s*[:=—–-]?\s*"
        r"([A-ZА-ЯЁ][\w-]+|me|я|мне)\b",
        clause.text,
        re.I,
    )
    m = m or re.search(
        r"\b([A-ZА-ЯЁ][\w-]+)\s+(?:owns|will\s+own|runs|ведёт|ведет|будет\s+вести)\s+(?:it|this|её|ее|его)\b",
        clause.text,
    )  # "…, Max owns it"
    if m is None and re.search(
        r"(?i)\b(?:i'?ll|i\s+will)\s+(?:own|run|handle|take)\s+(?:it|this|that|the\s+deal)\b"
        r"|\bя\s+(?:её|ее|его)\s+(?:веду|поведу|возьму|беру)\b|\b(?:её|ее|его)\s+(?:веду|поведу|беру)\s+я\b"
        r"|\b(?:веду|поведу)\s+(?:её\s+|ее\s+|его\s+)?(?:я|сам[аи]?)\b|\bя\s+(?:веду|поведу)\b|\b(?:mine|i\s+own\s+it)\s*[.!]?\s*$",
        clause.text,
    ):  # "…, 120k USD, I'll own it": the one asking owns it
        return await refs.member(ctx, "me")
    if m and m.group(1).lower() in ("me", "я", "мне"):
        return await refs.member(ctx, "me")
    if not m:
        return None
    members = await find(ctx, clause, "member", text=m.group(1))
    return members[0].entity if members else None


async def _deal_for_new_company(clause: Clause, ctx: BuildContext, new_company: dict[str, object]) -> bool:
    """ "create company Wayne Enterprises ... and a deal for them": the deal waits for the company."""
    name = str(new_company["name"])
    stage = await _stage(clause, ctx)
    amount = amount_of(clause.text)
    called = _NEW_DEAL_CALLED.search(clause.text)  # "… и deal Stark pilot на 75k": its own name, as said
    own = called.group(1).strip() if called and not _says_only(called.group(1), name) else None
    await ctx.emit(
        CreateDeal(
            name=(
                _said_name(clause)
                or own
                or f"{name} — {_kind_of_deal(clause) or ctx.t('новая сделка', 'new deal')}"
            )[:200],
            company=name,
            amount=amount[0] if amount else None,
            currency=amount[1] if amount else None,
            stage=stage.name if stage else None,
        ),
        stage=stage,
    )
    return True


async def _team_as_place(clause: Clause, ctx: BuildContext) -> bool:
    """A Linear team named by its name or what people call it, as where something goes («в кастомер
    саксесс», "for the design team", «дизайнерам»), not as words of a task ("call Acme support")."""
    spans = key_spans(clause.text)
    for m in await find(ctx, clause, "team"):
        if m.score < 0.9 or not m.positions:
            continue
        start = spans[min(m.positions)][0]
        before = clause.text[max(0, start - 24) : start]
        if re.search(
            r"(?i)\b(?:в|во|для|in|for|to|into)\s+(?:the\s+|our\s+)?(?:команд\w*\s+|team\s+)?$", before
        ):
            return True
    return False
