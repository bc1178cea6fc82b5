"""Attio deals and records: where a request points (the deal, its stage, the record said before), a
deal's stage and fields, deletions. Notes, CRM tasks and new deals are rooms of their own (crm_notes,
crm_tasks, new_deals) built on these."""

from __future__ import annotations

import re
from dataclasses import replace

from planner import references as refs
from planner._lazy_re import LazyRe
from planner.analysis import CUES, Clause, analyse, head_of
from planner.context import BuildContext
from planner.directory import Entity
from planner.intents.models import DeleteRecord, UpdateDeal
from planner.resolve import Mention, best, key_spans, keys_for, match_words
from planner.rules import rule
from planner.rules._common import (
    EXCEPT_NAMED,
    MOVED_INTO,
    SOMEONES_WORDS,
    TAKEN_BY_ME,
    amount_of,
    answered_record,
    company_of,
    currency_said,
    find,
    stage_said_as_destination,
    strong,
    without_old_amounts,
)
from planner.text import is_past

__all__ = [
    "ASKED_OF", "OBJECT", "PRONOUN", "RAISE_A_FIELD", "crm_target", "deal_named_before", "deal_stage", "described_deals", "delete_record", "owner_said",
    "one_described_deal", "record_said_before", "stage_said",
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


async def deal_named_before(clause: Clause, ctx: BuildContext) -> Entity | None:
    """The one deal the words before this clause named by name («Globex pilot закрыли, ставь Won»): what a
    bare "move it to Won" is about when no earlier clause changed a deal."""
    before = _said_before_it(clause, ctx)
    if not before.strip():
        return None
    found = await find(ctx, clause, "deal", text=before)
    named = {m.entity.id: m.entity for m in found if m.score >= 1.0}
    likely = {m.entity.id for m in found if m.score >= 0.5}  # ("Acme" fits two deals: asked, never picked)
    near = sorted(found, key=lambda m: -m.score)
    if (
        not named
        and near
        and near[0].score >= 0.9
        and len(near[0].positions) >= 2  # (more than the company's one word: "Acme" alone is two deals)
        and all(m.score < 0.6 for m in near[1:])
    ):
        # "Acme Corp license: bump to 60k, move to Proposal": the deal said nearly whole, no other near it
        return near[0].entity
    if not named:  # "Globex is finally done, they signed! mark the deal won": the company's one deal
        companies = {m.entity.id for m in await find(ctx, clause, "company", text=before) if m.score >= 0.9}
        theirs = [d for d in await ctx.directory.deals() if str(d.extra.get("company_id")) in companies]
        if len(companies) == 1 and len(theirs) == 1:
            return theirs[0]
    # ("Acme Logistics pilot: move it to Qualification": the deal said in full; Acme Corp's fits only "Acme")
    whole = [m for m in found if m.score >= 1.0]
    rivals = {
        m.entity.id
        for m in found
        if m.score >= 0.9 and m.entity.id not in named and not any(m.positions < w.positions for w in whole)
    }
    return next(iter(named.values())) if len(named) == 1 and (len(likely) == 1 or not rivals) else None


# a deal said by whose it is or where it stands: "Oleg's deal", «сделка Олега», "the deal in negotiation"
_DEAL_OF = LazyRe(
    r"(?:\b(?P<en>[A-Z][a-z]+)'s\s+(?:\w+\s+)?deal\b|\bdeal\s+(?:of|owned\s+by)\s+(?P<en2>[A-Z][a-z]+)"
    r"|(?i:\bсделк\w*)\s+(?P<ru>[А-ЯЁ][а-яё]+[аяи])\b)"
)
# (where it stands, never where it goes: «сделку в Won» moves a deal, «сделку, что на стадии КП» names one)
_DEAL_AT = LazyRe(
    r"(?i)\bdeal\s+(?:that'?s\s+|which\s+is\s+)?(?:currently\s+|now\s+|still\s+)?(?:in|at)\s+(?:the\s+)?(?:stage\s+)?"
    r"(?P<stage>[\w-]+)(?!\s+(?:stage\s+)?(?:to|into)\b)"
    r"|\bсделк\w*\s*,?\s+(?:котор\w+|что)\s+(?:сейчас\s+|ещё\s+|еще\s+)?(?:в|на)\s+(?:стади\w+\s+)?(?P<ru>[\w-]+)"
    r"|\bсделк\w*\s+(?:на|в)\s+стади\w+\s+(?P<ru2>[\w-]+)(?=.*\b(?:в|на)\s+\S)"
)


async def described_deals(clause: Clause, ctx: BuildContext) -> list[Entity]:
    """The deals a description fits — whose it is ("Oleg's deal", «сделка Олега») or its stage ("the deal in
    negotiation") — when no deal is named; [] when nothing describes one."""
    if re.search(r"(?i)\b(?:all|every|each|both|все\w*|всех|кажд\w+|обе\w*|оба)\b", clause.text):
        return []  # «во все сделки Олега …»: every one of them, not one to pick
    deals = await ctx.directory.deals()
    owner = _DEAL_OF.search(clause.text)
    if owner:
        who = owner["en"] or owner["en2"] or owner["ru"]
        members = [m.entity for m in await find(ctx, clause, "member", text=who) if m.score >= 0.5]
        if len(members) == 1:
            return [d for d in deals if d.extra.get("owner_id") == members[0].id]
    at = _DEAL_AT.search(clause.text)
    if at and not (
        at["stage"] and clause.has("move", "put") and not re.search(r"(?i)\b(?:to|into)\b", clause.text)
    ):
        said = at["stage"] or at["ru"] or at["ru2"]  # ("put the deal in negotiation": where it goes)
        stages = [m.entity for m in await find(ctx, clause, "stage", text=said) if m.score >= 1.0]
        if len(stages) == 1:
            return [d for d in deals if d.extra.get("stage") == stages[0].name]
    return []


async def one_described_deal(clause: Clause, ctx: BuildContext, slot: str = "deal") -> Entity | None:
    """The deal a description fits; several fit: which one is asked, with them as the choices."""
    fits = await described_deals(clause, ctx)
    if not fits:
        return None
    chosen = next((d for d in fits if d.id == ctx.answer(slot)), None)
    if chosen is not None or len(fits) == 1:
        return chosen or fits[0]
    raise ctx.ask(
        slot,
        ctx.t("Какую из сделок?", "Which of the deals?"),
        choices=[(d.name, d.id) for d in fits[:8]],
        risk="ambiguous",
    )


async def _deal(clause: Clause, ctx: BuildContext) -> Entity:
    if (picked := await answered_record(ctx, "deal", ("deal",))) is not None:
        # the answer to "Which deal?" asked of a clause that named none: the deal picked, not the question again
        ctx.note_entity("deal", clause.text, picked[1], [picked[1]], 1.0)
        ctx.memory["deal"] = picked[1]
        return picked[1]
    if ctx.memory.get("deal") and not await find(ctx, clause, "deal"):
        return ctx.memory["deal"]  # type: ignore[no-any-return]
    mentions = await find(ctx, clause, "deal")
    if not mentions and (named := await deal_named_before(clause, ctx)) is not None:
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
    if not mentions and (fits := await one_described_deal(clause, ctx)) is not None:
        ctx.memory["deal"] = fits  # "move Oleg's deal to Won": the one deal of his (several: asked)
        return fits
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
    top = max(mentions, key=lambda m: m.score)
    wider = [m for m in mentions if top.positions < m.positions]  # ("acme log pilot": "acme" and "pilot")
    if wider:
        # one word said that two deals share, and another one's name has more of what was said: that one
        # ("move acme log pilot to proposal" is the Acme Logistics pilot, not Acme Corp's license)
        fuller = max(wider, key=lambda m: (len(m.positions), m.score))
        mentions = [Mention(fuller.entity, min(1.0, top.score + 0.05), fuller.positions)] + [
            m for m in mentions if m is not fuller
        ]
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


async def stage_said(clause: Clause, ctx: BuildContext) -> Entity | None:
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
        # («ромашка согласилась на кп переведи их в переговоры»: where the verb sends it)
        moved = [m for m in goes if MOVED_INTO.search(clause.text[: spans[min(m.positions)][0]])]
        mentions = moved[-1:] or goes or sorted(mentions, key=lambda m: -max(m.positions or {0}))
    if mentions:
        top: Entity = mentions[0].entity
        return top
    if re.search(r"(?i)\b(?:стади\w+|stage)\s+[«\"']?\w", clause.text):
        return None  # "в стадию Подписано": a stage named that does not exist is a question, not a guess
    if _A_STAGE_BY_NAME.search(clause.text):
        return None  # "move Globex pilot to Contract Signed": a stage by a name that does not exist, not Won
    wanted = "Won" if clause.has("signed") else "Lost" if clause.has("refused", "lost") else None
    found: Entity | None = next((s for s in stages if s.name == wanted), None) if wanted else None
    return found


# a moved-to place said as a name, title-cased or quoted ("to Contract Signed", «в «Подписан договор»»)
_A_STAGE_BY_NAME = LazyRe(
    r"\b(?:to|into|в|во|на)\s+(?:[«\"'“][^»\"'”]{2,40}[»\"'”]|(?:[A-ZА-ЯЁ][\w-]*\s+)*(?:Signed|Подписан\w*|Lost|Проигран\w*)"
    r"|(?:[A-ZА-ЯЁ][\w-]*\s+)+(?:[A-ZА-ЯЁ][\w-]*))"
    r"|(?i:\b(?:to|into)\s+(?:the\s+)?(?:[\w-]+\s+){1,2}stage\b)"  # "to the Signed stage"
)
_CLOSED_AS = LazyRe(
    r"(?i)\b(?:закрыл\w*|закрыт\w*|closed)\s+(?:как\s+|as\s+)?(?:успешно|won|lost|выигран\w*|проигран\w*)\b"
    r"|\b(?:закрой(?:те)?|close)\s+(?:(?:её|ее|его|it)\s+)?(?:как|as)\s+(?:won|lost|выигран\w*|проигран\w*)\b"
    r"|\bуспешно\s+закрыл\w*|\b(?:we|мы)\s+(?:won|выиграли)\b|\bвыиграли\s*[.!]*$"
)  # said as news: «… закрыли успешно», "we won the Globex pilot", «глобекс пилот выиграли»; or asked: «закрой как
# выигранную», "close it as lost"


_REFUSED_SOMETHING_ELSE = LazyRe(
    r"(?i)\bотказал\w*\s+от\s+(?!(?:сделк|покупк|контракт|договор|продлени|пилот|нас\b|наш|услуг|внедрени|лиценз|"
    r"подписк|предложени|кп\b|оффер|идеи|проекта)\w*)[^\W\d_]+|"
    r"\b(?:declined|refused|dropped|cancell?ed|turned\s+down)\s+(?:the\s+|our\s+)?(?:quarterly|weekly|monthly|"
    r"check-?ins?|calls?|meetings?|demos?|syncs?|trainings?)\b"
)


# «попроси Олега обновить КП», "ask Max to move the demo": a colleague is asked to do it — a task for them
ASKED_OF = LazyRe(r"(?i)^\s*(?:попроси(?:те)?|ask)\s+(?!(?:me|меня|себя)\b)[^\W\d_]+")


# "raise the amount on the Alfa-Leasing deal to 950k", "bump the Globex deal value": "raise" changes a field
RAISE_A_FIELD = LazyRe(
    r"(?i)\b(?:raise|increase|bump(?:\s+up)?|up|lower|reduce|cut|drop|adjust)\s+(?:the\s+|its\s+|their\s+)?"
    r"(?:(?:deal|[\w-]+(?:\s+[\w-]+)?\s+deal(?:'s)?)\s+)?(?:amount|value|price|sum|budget|size)\b"
)


_NOT_MOVED = LazyRe(
    r"(?i)\bне\s+(?:надо|нужно|стоит|будем)\s+(?:ничего\s+|её\s+|ее\s+|его\s+)?(?:переводить|двигать|менять|трогать)\b"
    r"|\b(?:don'?t|do\s+not|no\s+need\s+to)\s+(?:move|change|touch)\s+(?:anything|it|the\s+stage)\b"
)
# «Сделка «Ромашка — поддержка» …», "the deal 'Hooli pilot'": a deal named in quotes
_DEAL_QUOTED = LazyRe(r"(?i)\b(?:сделк\w*|deal)\s+[«\"“']([^«»\"“”']{3,80})[»\"”']")


# a task asked for by its verb and noun («поставь по сделке задачу мне — …», "create a task to send the proposal")
_A_TASK_ASKED = LazyRe(
    r"(?i)\b(?:поставь|поставьте|создай|создайте|заведи|заведите|добавь|добавьте|create|add|make|set\s+up)\s+"
    r"(?:[\w-]+\s+){0,4}?(?:задач[уи]|таск[уи]?|напоминани[ея]|task|reminder|to-?do)(?![\w-])"
)


_A_NOTE_FIRST = LazyRe(
    r"(?i)^\s*(?:(?:и|а|ещё|еще|also|and|plus|плюс|ну)[,\s]+)*(?:an?\s+)?(?:заметк\w*|note|комментари\w*|comment)\b"
)


_DEALS_IN_A_STAGE = LazyRe(
    r"(?i)\s*(?:(?:все|мои|наши|all|my|our|open|открытые)\s+)?(?:сделки|deals)\s+(?:в|на|in|at)\s+(?:стадии\s+|stage\s+|the\s+)?"
    r"[^\W\d_][\w-]*(?:\s+stage)?\s*[?.!]?\s*"
)


_MISLAID = LazyRe(
    r"(?i)\b(?:i|i'?ve|i\s+have|i\s+seem\s+to\s+have)\s+(?:just\s+|somehow\s+)?lost\s+(?:it|them|that|this|my|"
    r"the\s+(?!deal|contract|client|customer|account|pilot|renewal|license|licence)\w+)\b"
    r"|\bя\s+(?:\w+\s+)?(?:потерял\w*|посеял\w*)\s+(?:его|её|ее|их|это|свой|свою|ссылку|почту|номер|контакт)"
)


@rule(40, writes=True)
async def deal_stage(clause: Clause, ctx: BuildContext) -> bool:
    if SOMEONES_WORDS.search(clause.text):
        # "log «Hi Anna, legal signed off on the pilot terms. …» on Globex": what someone wrote moves no deal
        clause = analyse(SOMEONES_WORDS.sub(" ", clause.text), ctx.now)
    if EXCEPT_NAMED.search(clause.text):
        return False  # «…, кроме Ромашки, поставь …»: the deal named is the one left alone, never the target
    if _NOT_MOVED.search(clause.text):
        return False  # «не надо ничего переводить, просто скажи, в какой стадии глобекс»: asked, not moved
    if _DEALS_IN_A_STAGE.fullmatch(clause.text):
        return False  # «сделки в стадии лид», "deals in negotiation": which ones there are, no move
    if _A_TASK_ASKED.search(clause.text):
        return (
            False  # «поставь по этой сделке задачу мне — отправить КП в пятницу»: a task; "КП" is its words
        )
    quoted_deal = _DEAL_QUOTED.search(clause.text)
    in_quotes = keys_for(quoted_deal.group(1)) if quoted_deal else []
    if quoted_deal and not [
        d
        for d in await ctx.directory.deals()
        if match_words([k for k in keys_for(d.name) if k.text != "—"], in_quotes)
    ]:
        return False  # «Сделка «Ромашка — поддержка», 300 тысяч, …»: a deal nobody has, by its new name
    if ASKED_OF.match(clause.text) and [m for m in await find(ctx, clause, "member") if m.score >= 0.5]:
        return False  # what the colleague is asked to do is their task, not a change made now
    head = head_of(clause, ctx.now)
    if _A_NOTE_FIRST.match(clause.text) and not re.search(
        r"(?i)\b(?:переведи|перенеси|передвинь|подвинь|двигай|move|push|set)\b", clause.text
    ):
        return False  # «ещё заметку к этой сделке что джейн ждёт обновлённое предложение»: a note's words
    if clause.after_colon is not None and head.has("note", "comment", "task") and not head.has("move"):
        return (
            False  # "Put a note on the Alfa-Leasing expansion: decision pushed to January": the note's words
        )
    statement = (
        head.has("signed", "refused", "lost")
        and not _PENDING.search(head.text)
        and not _MISLAID.search(head.text)  # "need Jane's email, I lost it": a thing mislaid, no deal lost
    )
    if statement and _REFUSED_SOMETHING_ELSE.search(head.text):
        return False  # «Initech отказался от квартальных чекинов»: the check-ins, not the deal
    if (
        statement
        and not clause.has("move", "put")
        and not _to_stage(clause)
        and any(
            getattr(i, "op", "") == "delete_record" and getattr(i, "object", "") == "deals"
            for i in ctx.intents
        )
    ):
        return True  # «Удали сделку Acme Logistics, клиент отказался»: why it is deleted, no move before that
    if (
        statement
        and not clause.has("move", "put", "deal")
        and not _to_stage(clause)
        and ctx.memory.get("clauses", 1) > ctx.clause_index + 1
        and not [m for kind in ("deal", "company") for m in await find(ctx, clause, kind) if m.score >= 0.9]
    ):
        return (
            False  # "They signed. Move the Romashka deal to Won.": news of no deal named; the request follows
        )
    if (
        statement
        and ctx.clause_index > 0
        and not clause.has("move", "put")
        and not _to_stage(clause)
        and any(i.op in ("apply_template", "create_issue", "create_task", "create_note") for i in ctx.intents)
        # (news the person doubts, «договор вроде подписан», is read and named back as not done)
        and not re.search(
            r"(?i)\b(?:вроде|кажется|наверное|похоже|probably|maybe|i\s+think|seems)\b", clause.text
        )
    ):
        return (
            False  # "add the onboarding tasks for Acme Corp, they signed the annual license": why, said after
        )
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
                re.search(
                    r"(?i)\b(?:it|её|ее|его|эту|this\s+one|the\s+deal|that\s+deal|сделку)\b", clause.text
                )
                or _BARE_STAGE.fullmatch(clause.text)  # «…, ставь Won»
            )
        )
        and (
            _to_stage(clause)
            or _BARE_STAGE.fullmatch(clause.text) is not None
            or bool(
                re.search(r"(?i)\b(?:won|lost|выигран\w*|проигран\w*)\s*[.!]*$", clause.text)
            )  # "mark the deal won"
        )
        and (ctx.memory.get("deal") is not None or await deal_named_before(clause, ctx) is not None)
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
        or fielded  # "Globex pilot: stage Won, and note …": the field said alone, of the deal named first
        and ctx.clause_index > 0
        and (ctx.memory.get("deal") is not None or await deal_named_before(clause, ctx) is not None)
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
    stage = await stage_said(clause, ctx)
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
    step = _ONE_STAGE.search(clause.text) if stage is None and deal is not None else None
    if step and deal is not None:  # "Push it one stage forward", «на этап назад»: next to the stage it is in
        names = [s for s in await ctx.directory.stages() if s.name != "Lost"]
        at = next((n for n, s in enumerate(names) if s.name == deal.extra.get("stage")), None)
        to = None if at is None else at + (-1 if step["back"] else 1)
        # (never to Won by a step: whether it is won is asked, as a stage not said)
        if to is not None and 0 <= to < len(names) and "Won" not in (deal.extra.get("stage"), names[to].name):
            stage = names[to]
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
        return await owner_said(clause, ctx)
    if _ON_ME_AND.search(clause.text):  # «acme logistics пилот на меня и в стадию кп»: mine, and the stage
        return await refs.member(ctx, "me")
    return None


_ON_ME_AND = LazyRe(r"(?i)(?:^|[\s,])(?:на\s+меня|on\s+me|to\s+me)\s*(?:,|\s(?:и|and)\s)")


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
    # «Globex pilot вот-вот подпишут», "they're about to sign": signing to come, not the news yet
    r"|\bподпишу?т\b|\bподпишет\b|\b(?:about|going|expected|set|due|likely)\s+to\s+sign\b|\b(?:will|should|may|might)\s+sign\b"
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
    r"переда[йт]\w*|отда[йт]\w*|должност\w*|описани\w*|домен\w*|e-?mail|почт\w*|валют\w*|currency)\b",
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


_NOT_THE_KIND = LazyRe(
    r"(?i)[,(]?\s*\b(?:not|не)\s+(?:the\s+|a\s+|к\s+|на\s+|в\s+)?(deal|сделк\w*|compan\w*|компани\w*|contact|контакт\w*)\b\)?"
)
_KIND_OF = {
    "deal": "deal",
    "сдел": "deal",
    "comp": "company",
    "комп": "company",
    "cont": "person",
    "конт": "person",
}
_ONE_STAGE = LazyRe(
    r"(?i)\b(?:(?:one|a|1)\s+stage|(?:на\s+)?(?:одну\s+)?стадию|(?:на\s+)?(?:один\s+)?этап)\s+(?:(?:forward|further|ahead|"
    r"вперёд|вперед|дальше)|(?P<back>back|backward|назад))\b|\b(?:to\s+the\s+)?next\s+stage\b|\bна\s+следующ\w+\s+(?:стади|этап)\w*"
)
_ON_THE_DEAL = LazyRe(r"(?i)\b(?:к|в|на|по|on|to|for|in)\s+(?:the\s+|this\s+|эт\w+\s+)?(?:сделк\w*|deal)\b")


async def crm_target(
    clause: Clause, ctx: BuildContext, slot: str, text: str | None = None
) -> tuple[str, Entity] | None:
    """The person, company or deal a note or task is about."""
    scored: list[tuple[str, Mention]] = []
    for kind in ("person", "company", "deal"):
        # a first name alone may be a person; half a deal's name is not a deal
        scored += [(kind, m) for m in strong(await find(ctx, clause, kind, text=text))]
    if not scored:
        described = await one_described_deal(clause if text is None else analyse(text, ctx.now), ctx, slot)
        if described is not None:  # "add a note to the deal in negotiation", «сумму по сделке Олега»
            ctx.memory["record"] = ("deal", described)
            ctx.memory["deal"] = described
            return ("deal", described)
        return None
    # "Put a note on Acme Logistics: …, possible referral deal": the kind is said before the colon
    head = head_of(clause, ctx.now) if clause.after_colon is not None else None
    said = head if head is not None and head.has("note", "note_verb", "task") else clause
    refused = _NOT_THE_KIND.search(said.text)
    if refused:  # "on Acme Logistics (the company, not the deal)": the kind said not to be meant is out
        kind_out = _KIND_OF.get(refused.group(1).lower()[:4], "")
        scored = [s for s in scored if s[0] != kind_out] or scored
        said = analyse(_NOT_THE_KIND.sub(" ", said.text), ctx.now)
    if said.has("deal") and not any(k == "deal" for k, _ in scored):
        # "a note on the Alfa deal": the company's own deal, when it has one (several: which of them)
        named = {m.entity.id: m for k, m in scored if k == "company" and m.score >= 0.9}
        # («Иван Петров сказал …, запиши это к сделке»: the deal of the company the person named works at)
        named.update(
            {
                str(m.entity.extra["company_id"]): m
                for k, m in scored
                if k == "person"
                and m.score >= 0.9
                and m.entity.extra.get("company_id")
                and not named
                and bool(_ON_THE_DEAL.search(said.text) or _ON_THE_DEAL.search(ctx.span or ""))
            }
        )
        theirs = [d for d in await ctx.directory.deals() if d.extra.get("company_id") in named]
        scored += [("deal", Mention(d, named[str(d.extra["company_id"])].score, frozenset())) for d in theirs]
    if said.has("deal"):
        if (
            not any(k == "deal" for k, _ in scored)
            and _ON_THE_DEAL.search(said.text)
            and any(k == "company" and m.score >= 0.9 for k, m in scored)
        ):  # «заметку к сделке с Umbrella Health», and they have none: asked, never put on the company instead
            company = next(m.entity for k, m in scored if k == "company" and m.score >= 0.9)
            if ctx.answer(slot) == company.id:
                return ("company", company)
            raise ctx.ask(
                slot,
                ctx.t(
                    f"У «{company.name}» нет сделки. Куда записать — в карточку компании?",
                    f"'{company.name}' has no deal. Where should it go - on the company's record?",
                ),
                choices=[(company.name, company.id)],
                risk="ambiguous",
            )
        scored = [s for s in scored if s[0] == "deal"] or scored
    elif said.has("company"):
        scored = [s for s in scored if s[0] == "company"] or scored
    elif re.search(r"(?i)\b(?:record|profile|карточк\w*)\b", said.text):
        # "a task on the Globex record: prepare pilot pricing": a company's or a person's record, not the deal
        scored = [s for s in scored if s[0] != "deal"] or scored
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


PRONOUN = LazyRe(r"\b(?:her|him|them|his|their|ей|ему|ним|ней|нему|неё|нее|его|их|им|с ними)\b", re.I)


_DELETE_HIM_OR_HER = LazyRe(r"(?i)\b(?:удали|убери|сотри|delete|remove|drop)\s+(?:её|ее|его|him|her)\b")


_EVERY_ONE = LazyRe(
    r"(?i)\b(?:all|every|each|все|всех|каждый|каждого)\s+(?:the\s+|our\s+|наши\s+|наших\s+)?(?:contacts|people|"
    r"companies|deals|records|контакт\w*|компани\w*|сделк\w*|запис\w*)\b"
)


@rule(35, writes=True)
async def delete_record(clause: Clause, ctx: BuildContext) -> bool:
    if not clause.has("delete") or clause.identifiers or clause.has("task", "issue", "note"):
        return False
    if EXCEPT_NAMED.search(clause.text) or _EVERY_ONE.search(clause.text):
        return False  # "Delete all contacts except Maria Sokolova": the one named is the one kept, never the target
    if clause.has("remind", "followup") and clause.first("remind", "followup") < clause.first("delete"):
        return False  # "remind me to delete the old Globex contact tomorrow": a reminder, nothing removed now
    if re.search(r"(?i)\bdrop\b.*\b(?:to|down\s+to)\s+[$€₽\d\w]", clause.text):
        return False  # "Drop the Romashka opp ACV to 1,000,000 RUB": lowered, not removed
    if re.search(r"(?i)\bdrop\s+(?:it|this|that|them)\s+(?:in|into|on|to)\b", clause.text):
        return False  # "drop it in the chat": put somewhere, not removed
    if re.search(r"(?i)\b(?:drop|ditch|scrap)\b", clause.text) and not re.search(
        r"(?i)\b(?:delete|remove|erase|wipe|удали\w*|сотри)\b", clause.text
    ):
        return False  # "boss says drop the Globex thing, they went with a competitor": given up, not erased
    people: dict[str, Entity] = {}
    if _DELETE_HIM_OR_HER.search(clause.text):
        # «по глобексу джейн доу ушла из компании удали её из контактов»: "her" is the person named, not Globex
        people = {m.entity.id: m.entity for m in await find(ctx, clause, "person") if m.score >= 0.9}
        if len(people) > 1:
            return False  # two people and a "her": the question of which is the other rules'
    target = ("person", next(iter(people.values()))) if people else await crm_target(clause, ctx, "target")
    if _ITS_DEALS_TOO.search(
        clause.text
    ):  # "Delete the Globex company and its deal": the company, then its deals
        named = {m.entity.id: m.entity for m in await find(ctx, clause, "company") if m.score >= 0.9}
        target = ("company", next(iter(named.values()))) if len(named) == 1 else target
    if (
        target is None
        and clause.has("deal")
        and [m for m in await find(ctx, clause, "deal") if m.score >= 0.3]
    ):
        target = ("deal", await _deal(clause, ctx))  # «удали сделку пилот»: which of the pilots is asked
    if target is None:
        return False
    kind, record = target
    said_deal = clause.has("deal") and not re.search(
        r"(?i)\b(?:компани\w*|company|contact|контакт\w*)\b", clause.text
    )
    if kind != "deal" and said_deal:
        # "Remove the Umbrella Health deal", and Umbrella has no deal: never the company deleted instead
        company_id = record.id if kind == "company" else record.extra.get("company_id")
        theirs = [d for d in await ctx.directory.deals() if d.extra.get("company_id") == company_id]
        if not theirs:
            ctx.clause_index = 0  # (the answer is read as the request, said again)
            raise ctx.ask(
                "request",
                ctx.t(
                    f"У «{record.name}» нет сделки — удалять нечего. Какую запись вы имели в виду?",
                    f"'{record.name}' has no deal, so there is nothing to delete. Which record did you mean?",
                ),
                risk="ambiguous",
            )
        chosen = (
            theirs[0] if len(theirs) == 1 else next((d for d in theirs if d.id == ctx.answer("target")), None)
        )
        if chosen is None:
            raise ctx.ask(
                "target",
                ctx.t(f"Какую сделку «{record.name}» удалить?", f"Which of {record.name}'s deals?"),
                choices=[(d.name, d.id) for d in theirs[:5]],
                risk="ambiguous",
            )
        kind, record = "deal", chosen
    await ctx.emit(DeleteRecord(record=record.name, object=OBJECT[kind]), record=(OBJECT[kind], record))  # type: ignore[arg-type]
    if kind in ("deal", "person") and _ITS_COMPANY_TOO.search(clause.text):
        # «Удали сделку Acme Logistics — pilot и саму компанию тоже»: the deal's company goes as well
        company = await company_of(ctx, record)
        if company is None:
            return True
        await ctx.emit(DeleteRecord(record=company.name, object="companies"), record=("companies", company))
    if kind == "company" and _ITS_DEALS_TOO.search(clause.text):
        # "Delete the Globex company and its deal", «удали компанию Globex и её сделки»: each of its deals as well
        for deal in [d for d in await ctx.directory.deals() if d.extra.get("company_id") == record.id]:
            await ctx.emit(DeleteRecord(record=deal.name, object="deals"), record=("deals", deal))
    return True


_ITS_DEALS_TOO = LazyRe(
    r"(?i)\b(?:и|and|with|вместе\s+с|plus)\s+(?:all\s+)?(?:its|their|её|ее|его|их|all\s+its)\s+(?:deals?|сделк\w*)\b"
)
_ITS_COMPANY_TOO = LazyRe(
    r"(?i)\b(?:и|and)\s+(?:саму\s+|сама\s+|их\s+|её\s+|ее\s+|его\s+|the\s+|their\s+|its\s+)?(?:компани\w*|company)"
    r"(?:\s+(?:тоже|too|as\s+well|itself|целиком))?\s*[.!]?\s*$"
)


# words a capital letter may start after "owner" that name nobody ("Owner: TBD", "AE: Not yet")
_NOT_A_COLLEAGUE = frozenset("tbd tba none nobody not unknown n/a same stays пока нет никто".split())


async def owner_said(clause: Clause, ctx: BuildContext) -> Entity | None:
    m = re.search(
        r"(?:owner|owned\s+by|AE|account\s+exec(?:utive)?|ответственн\w*|владелец|владельцем|вед[её]т|ведущ\w*|handled\s+by|"
        r"овнер\w*)"
        # «ответственный пусть будет макс», «владельцем поставь Олега»
        r"(?:\s+(?:is|will\s+be|should\s+be|(?:пусть\s+|пускай\s+)?будет|поставь|ставь|сделай|назначь))?"
        r"(?:\s+(?:now|теперь))?"  # «владелец теперь я»
        r"\s*(?:->|→|=>|[:=—–-])?\s*"  # ("owner -> Max")
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
    if members:
        return members[0].entity
    everyone = await ctx.directory.members()
    answered = ctx.answer("owner")
    if answered:
        return next((x for x in everyone if x.id == answered), None)
    if m.group(1).lower() in _NOT_A_COLLEAGUE:
        return None
    # «…, владелец Максим»: a name said as the owner that is nobody here — asked, never left out unsaid
    raise ctx.ask(
        "owner",
        ctx.t(
            f"«{m.group(1)}» нет среди коллег в Attio. Кто будет ответственным?",
            f"There's no '{m.group(1)}' among your Attio colleagues. Who should own it?",
        ),
        choices=[(x.name, x.id) for x in everyone[:8]],
    )
