"""New Attio deals: the company, its name as said, amount, stage and owner; a deal for a company made in the
same request."""

from __future__ import annotations

import re

from planner import references as refs
from planner._lazy_re import LazyRe
from planner.analysis import Clause, analyse, head_of
from planner.context import BuildContext
from planner.dialogue import ADDED_TO_A_DEAL
from planner.directory import Entity
from planner.intents.models import CreateCompany, CreateDeal
from planner.numbers import NUMBER_WORDS
from planner.resolve import Mention, find_mentions, key_spans, keys_for, match_words
from planner.rules import rule
from planner.rules._common import (
    amount_of,
    answered_record,
    find,
    strong,
)
from planner.rules.attio import (
    RAISE_A_FIELD,
    owner_said,
    stage_said,
)
from planner.text import is_imperative, lemma

__all__ = ["create_deal"]

_ADD_UP = LazyRe(r"(?i)\badd(?:s|ed)?\s+(?:\w+\s+){0,3}?up\b")


# «Поставь сделке Ромашки новую сумму»: a new value of a field, not a new deal
_NEW_FIELD = LazyRe(
    r"(?i)\b(?:нов\w+|new)\s+(?:сумм\w*|amount|value|стади\w*|stage|owner|владельц\w*|владел\w*|ответственн\w*|"
    r"назван\w*|name|close\s+date)\b"
)


_NAME_RIGHT_AFTER = LazyRe(
    r"(?:^|\s)(?i:deal|сделк[уа])\s+((?-i:[A-ZА-ЯЁ])[\w&.'-]*(?:\s+(?!(?i:на|for|worth|at|в|in|по|с|with)\b)[\w&.'-]+){1,3}?)"
    # (… "for <Company>" after it: «сделку Umbrella pilot для Umbrella Health на 20 тысяч»)
    r"\s*(?=[,;]|$|(?i:для|for)\s+(?-i:[A-ZА-ЯЁ]))"
)
_NAME_LISTED_AFTER = LazyRe(
    r"(?i)\b(?:deal|сделк\w*)\s+(?:for|with|для|с)\s+(?:them|it|him|her|ними|ней|ним|него|неё)\s*[,:]\s*"
    r"((?-i:[A-ZА-ЯЁ])[^,;.]{2,50}?)\s*(?=,)"
)
# a company named with its domain beside it ("Stark Industries (stark.com)", "Stark Industries, stark.com")
_A_NEW_COMPANY = LazyRe(
    r"(?P<name>(?-i:[A-ZА-ЯЁ])[\w&.'-]*(?:\s+(?-i:[A-ZА-ЯЁ])[\w&.'-]*){0,3})\s*(?:\(|,\s*)"
    r"(?P<domain>[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.[a-z]{2,})\b\)?(?!@)"
)


_OTHER_COMPANY_WORDS = LazyRe(r"(?i)\b(?:другой|другую|another|other|separate)\b")


_DEAL_MOVED = LazyRe(
    r"(?i)\b(?:сделк\w*|deal)\b[^.,;]{0,40}?\b(?:вырос\w*|увеличил\w*|уменьшил\w*|подорожал\w*|подешевел\w*|"
    r"снизил\w*|grew|went\s+(?:up|down)|increased|decreased|shrank|got\s+(?:bigger|smaller))\b"
)


@rule(55, writes=True)
async def create_deal(clause: Clause, ctx: BuildContext) -> bool:
    if _ADD_UP.search(clause.text) or RAISE_A_FIELD.search(clause.text):
        return False  # "add up all the deals": a total asked for; "raise the amount on …": a change, nothing made
    # "сделка для initech 12к$ квалификация": a deal, its company and an amount, said without a verb
    listed = re.match(
        r"(?i)\s*(?:new\s+)?(?:сделк[аи]|deal)\s+(?:для|с|for|with)\s+\S", clause.text
    ) and bool(amount_of(clause.text))
    if _DEAL_MOVED.search(clause.text) and not clause.says_new():
        return False  # «Сделка с Альфа-Лизингом выросла, ставь 950 тысяч»: a deal there is, grown — none made
    if listed and re.search(
        r"(?i)\b(?:теперь|now|стал[аио]?|уже|updated|changed|is|обновил\w*|стоит)\b", clause.text
    ):
        listed = False  # «сделка с альфой теперь 900к»: what an existing deal is now, not a new one
    if not (clause.creates() or clause.says_new() or listed) or not clause.has("deal"):
        return False
    if re.search(
        r"(?i)\b(?:сумм\w*|amount|value|стади\w*|stage)\s+(?:сделай|сделайте|make)\b", clause.text
    ) and not (clause.says_new()):
        return False  # «сделку с Ромашкой в переговоры и сумму сделай миллион сто тысяч»: its amount set, none made
    if (
        re.match(r"(?i)\s*(?:please\s+|pls\s+)?make\b", clause.text)
        and not clause.says_new()
        and [m for m in await find(ctx, clause, "deal") if m.score >= 0.9]
    ):
        return (
            False  # "Make the Globex pilot deal bigger": a deal there is, changed somehow — never a new one
        )
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
    heading = (ctx.memory.get("said") or [""])[-1]
    if not companies and 0 < len(heading.split()) <= 5 and not analyse(heading, ctx.now).commands():
        # «Альфа-Лизинг: новая сделка «Лизинг оборудования», 3 млн»: the company said as the heading
        companies = strong(await find(ctx, clause, "company", text=heading))
    scene = str(ctx.memory.get("full_text", "")).split(":", 1)[0]
    if (
        not companies
        and ":" in str(ctx.memory.get("full_text", ""))
        and len(scene) < 60
        and ctx.clause_index > 0
    ):
        # «Короче, по Initech: добавь заметку …, и заведи на это сделку на 9000 долларов»: the message's topic
        companies = strong(await find(ctx, clause, "company", text=scene))
    fresh = _A_NEW_COMPANY.search(clause.text) if not companies else None
    if (
        fresh
    ):  # "New deal: Stark Industries (stark.com), 120k USD": a company nobody has, with its domain — made too
        name = fresh.group("name").strip()
        await ctx.emit(CreateCompany(name=name[:200], domain=fresh.group("domain").lower()))
        return await _deal_for_new_company(clause, ctx, {"name": name})
    if (
        not companies
        and new_company is not None
        and ctx.clause_index > 0
        and not _OTHER_COMPANY_WORDS.search(clause.text)
    ):
        # «заведи компанию Hooli (hooli.xyz) и сд на 15к usd в лидах»: a deal said right after its company is made
        return await _deal_for_new_company(clause, ctx, new_company)
    if not companies and (picked := await answered_record(ctx, "company", ("company",))) is not None:
        companies = [Mention(picked[1], 1.0, frozenset())]  # the company picked when asked
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
    stage = await stage_said(clause, ctx)
    named_stage = _STAGE_NAMED.search(clause.text)
    if stage is None and named_stage and not ctx.answer("stage"):
        # "Create a deal for Globex in stage Discovery": a stage the pipeline has not got is asked, never a default
        stages = await ctx.directory.stages()
        said_stage = next(g for g in named_stage.groups() if g)
        raise ctx.ask(
            "stage",
            ctx.t(
                f"Стадии «{said_stage}» нет. В какой стадии создать сделку?",
                f"There's no stage '{said_stage}'. Which stage should the deal start in?",
            ),
            choices=[(s.name, s.name) for s in stages[:8]],
        )
    if stage is None and (answered := ctx.answer("stage")):
        stage = next((s for s in await ctx.directory.stages() if s.name == answered), None)
    owner = await owner_said(clause, ctx)
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
    right_after = _NAME_RIGHT_AFTER.search(clause.text)  # "create a deal Umbrella pilot, 20k USD": as said
    name = (
        _said_name(clause)
        or (first_field if first_field and not _says_only(first_field, company.name) else None)
        or (
            right_after.group(1)
            if right_after and not _says_only(right_after.group(1), company.name)
            else None
        )
        # "create a deal for them, Umbrella pilot, 15k": its name listed right after whom it is for
        or (
            listed_after.group(1).strip()
            if (listed_after := _NAME_LISTED_AFTER.search(clause.text))
            and not amount_of(listed_after.group(1))
            and not _says_only(listed_after.group(1), company.name)
            else None
        )
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


_STAGE_NAMED = LazyRe(
    r"(?i)\b(?:in\s+(?:the\s+)?)?stage\s+['\"«]?([A-Za-z][\w-]+)|\bв\s+стади[июи]\s+«?([\w-]+)|\bстадия\s+«?([\w-]+)"
)


# where a new deal's name ends: a sum, a field's name, a stage or owner said bare, the next request
_SUM_WORD = "|".join(w for w in NUMBER_WORDS.split("|") if w != "a")


_NAME_ENDS = LazyRe(
    # (a number in the name is its words: "Globex phase 2, 45k USD" — a sum is a number with its unit or a long one)
    r"(?i)[$€₽]|(?<![\w-])(?!20\d\d\b)\d(?!\d?\s*,\s*\d{1,2}\s*[km]\b)(?=[\d\s.]*(?:k|к|m|м|тыс\w*|млн|million|thousand|usd|eur|rub|руб\w*|"
    r"долл\w*|евро|dollars?|bucks|\$|€|₽)\b|[\d.,\s]*\d{3}\b)|\b(?:сумм\w*|на\s+сумму|стади\w*|stage|owner|ответствен\w*|владел\w*|worth|amount|value|"
    r"бюджет\w*|и|and|а|плюс|plus|also|тоже|then|потом|затем|миллион\w*|million|полтор\w*)\b|[;.!?]"
    # a sum said in words: "… forty five k", «… сорок тысяч долларов»
    rf"|\b(?:{_SUM_WORD})\b(?=(?:[\s-]+(?:{_SUM_WORD}|and|a|half|с|половиной))*[\s-]+"
    r"(?:k|thousand|grand|million|тысяч\w*|миллион\w*|млн|usd|dollars?|долл\w*|руб\w*|евро)\b)"
)


_NAME_PADDING = frozenset(
    "на для по с со в во к for with on about in at the a an new called named под названием deal deals сделка сделку "
    "сделки новая новую новой э ээ эээ эм ну короче типа вот uh um erm like".split()
)


def _joined_name(company: str, after: str) -> str:
    """ "Umbrella Health" + "Health expansion" -> "Umbrella Health expansion": the words said once."""
    head, tail = company.split(), after.split()
    bare = after.lstrip(" —–-").split()
    if [w.lower() for w in bare[: len(head)]] == [w.lower() for w in head]:
        return " ".join(bare)  # "Umbrella Health — new deal, Umbrella Health rollout": the name said whole
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
    deal_word = re.search(r"(?i)\b(?:deal|сделк\w*)\b", clause.text)
    if (
        deal_word
        and start <= deal_word.start()
        and re.search(
            r"(?i)\b(?:create|add|make|open|log|set\s+up|заведи|создай|добавь|сделай|оформи)\b",
            clause.text[start : deal_word.start()],
        )
    ):  # "the umbrella folks called, create a deal for them, …": the company told of first, no name of the deal
        return None
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
        r"[«\"“']([^»\"”']+)[»\"”']|(?:called|named|(?:call|name)\s+it|под названием|называется|назови(?:те)?(?:\s+её|\s+ее)?|с\s+названием|titled"
        r"|(?<![\w-])(?:название|name|title)\s*[:—–-])\s*(?![\s«\"“'])([^,.;]+)",  # (a quoted name: the quote whole)
        clause.text,
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
        # (a dot before a word in lower case is a short word's: «Инитек — доп. модули»)
        r"(?=\s+(?i:на|for|worth|стади\w*|stage|с\s+суммой|в\s+стади\w*|owner|ответствен\w*)\b|\s*[,;]|\.(?!\s+[a-zа-яё])|$)",
        clause.text,
    )
    return dashed.group(1).strip() if dashed else None


async def _deal_for_new_company(clause: Clause, ctx: BuildContext, new_company: dict[str, object]) -> bool:
    """ "create company Wayne Enterprises ... and a deal for them": the deal waits for the company."""
    name = str(new_company["name"])
    stage = await stage_said(clause, ctx)
    amount = amount_of(clause.text)
    called = _NEW_DEAL_CALLED.search(clause.text)  # "… и deal Stark pilot на 75k": its own name, as said
    own = called.group(1).strip() if called and not _says_only(called.group(1), name) else None
    listed = _NAME_LISTED_AFTER.search(clause.text) if own is None else None
    if listed and not amount_of(listed.group(1)) and not _says_only(listed.group(1), name):
        own = listed.group(
            1
        ).strip()  # "…one deal for them, Wayne pilot, USD 30,000": its name between commas
    owner = await owner_said(clause, ctx)  # "…and open a 75k deal for them in Lead, owned by Max"
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
            owner=owner.name if owner else None,
        ),
        stage=stage,
        owner=owner,
    )
    return True
