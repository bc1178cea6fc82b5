"""Attio tasks: a to-do about a CRM record (seed 000's task_create "about a CRM record"), for the one asking or a
colleague."""

from __future__ import annotations

import re
from datetime import datetime, time

from planner import references as refs
from planner._lazy_re import LazyRe
from planner.analysis import CUES, DATIVE, Clause, analyse
from planner.context import BuildContext
from planner.directory import Entity
from planner.intents import MISSING
from planner.intents.models import CreateProject, CreateTask, UpdateMatching
from planner.numbers import number_from_words
from planner.resolve import key_spans
from planner.rules import rule
from planner.rules._common import (
    COUNT_WORD,
    FIELD_OF_A_TASK,
    POINTED_TO_ONE,
    TAKEN_BY_ME,
    clean_title,
    colleague_asked_for,
    find,
    one_said_before,
    says_nothing,
    strip_spans,
    strong,
)
from planner.rules._linear_common import INTO_THE_NEW
from planner.rules.attio import (
    ASKED_OF,
    OBJECT,
    PRONOUN,
    crm_target,
    record_said_before,
)
from planner.text import is_imperative, is_infinitive, is_past, similarity

__all__ = ["crm_task"]

_EACH_RECORD = LazyRe(
    r"(?i)\b(?:по|для|на)\s+(?:всем|каждой|всех)\s+(?:\w+\s+)?(?:сделк\w*|компани\w*|контакт\w*)"
    r"|\b(?:for|on)\s+(?:all|every|each)\s+(?:of\s+)?(?:the\s+|our\s+|my\s+)?(?:\w+\s+)?(?:deals?|compan\w+|contacts?)\b"
    # «…обзвонить все контакты, по задаче на каждого», "a task per contact"
    r"|\bконтакт\w*[^:]{0,30}?\bпо\s+(?:одной\s+)?задаче\s+на\s+кажд\w+"
    r"|\bпо\s+(?:одной\s+)?задаче\s+на\s+кажд\w+(?:\s+\w+)?\s+в\s+(?:crm|црм|attio|аттио)\b"
    r"|\b(?:one\s+)?task\s+(?:per|for\s+each)\s+(?:contact|deal|company)\b"
)


_ABOUT_RECORD = LazyRe(
    r"\b(?:по|about|for|on)\s+(?:the\s+|this\s+|that\s+|эт\w+\s+)?(?:сделк\w*|компани\w*|клиент\w*|контакт\w*|deal|company|"
    r"client|contact)\b",
    re.I,
)


_AFTER_THE_CALL = LazyRe(
    r"(?i)\b(?:after|before|following|после|до|перед)\s+(?:the\s+|that\s+|this\s+|our\s+|эт\w+\s+)?"
    r"(?:call|meeting|sync|созвон\w*|встреч\w*|звонк\w*)\b"
)


_THIS_RECORD = LazyRe(r"(?i)\b(?:this|that|эт\w+)\s")


# «задача Олегу: …», "task for Max: …": a to-do addressed to someone, then what it is
_TASK_TO_WHOM = LazyRe(r"(?i)\s*(?:и\s+)?(?:задач\w*|таск\w*)\s+[а-яё]+[уюе]\s+[а-яё]+(?:ть|ти|чь)\b")
_ADDRESSED = LazyRe(
    rf"(?i)\s*(?:(?:задач\w*|таск\w*|task|todo)\s+(?:for\s+)?\S+(?:\s*,\s*[^:,]{{2,30}})?"
    rf"(?:\s+(?:на|к|до|by|for|on)\s+[^:,—–]{{2,20}}?)?\s*[:—–-]|"
    rf"(?:{DATIVE})\s+(?:задач\w*|таск\w*)\b)"
)  # «задача Олегу: …», «Анне задача на завтра — …», "Task for Oleg, due tomorrow: …", «задача мне на пятницу: …»


# "…, linked to the Globex pilot deal", «…, привяжи к сделке Globex»: which record the task is on
_LINKED = LazyRe(
    r"(?i)[,\s]*\b(?:linked\s+to|link\s+it\s+to|attached\s+to|привяж\w*\s+(?:её\s+|ее\s+)?к|прикрепи\w*\s+к)\s+"
    r"(?:the\s+)?(.+?)\s*[.!]?$"
)


_FOR_HIM = LazyRe(
    r"(?i)\b(?:постав\w*|дай|создай|заведи)\s+(?:ему|ей)\b|\b(?:ему|ей)\s+(?:задач\w*|таск\w*)\b"
)


# («задача на завтра: …», "task for Friday: …": the heading may say when)
_TASK_HEADING = LazyRe(
    r"(?i)^\s*(?:задача|задачка|таска|task|todo|to-do)(?:\s+(?:на|к|до|for|by|on)\s+[\w.]+(?:\s+[\w.]+)?)?\s*:"
)


_TASK_FOR = LazyRe(r"(?:\b(?i:задач\w*|таск\w*|поручи|поручить)\s+)([А-ЯЁ][а-яё]+[уюе])\b")


# a deal's next step, said beside a task with nothing else to do
_NEXT_STEP = LazyRe(r"(?i)\b(?:следующ\w+\s+шаг|next\s+step)\s*(?:[:—–-]|is)\s*([^,;.\n]{3,120})")


_FOLLOW_UPS_TOLD = LazyRe(
    r"(?i)\b(?:never|didn'?t|did\s+not|haven'?t|forgot)\b[^.;!?]{0,30}\b(?:the|any|our|those|these|all)\s+(?:[\w-]+\s+)?"
    r"follow-?ups\b"
)


_FOR_A_RECORD_HEADING = LazyRe(r"(?i)^[^:—–]{0,40}\b(?:for|для)\s+([^:—–-]{2,40}?)\s*:\s*\S")


_HIM_OR_HER = LazyRe(r"(?i)\b(?:him|her|ему|ей|ним|ней|него|неё|нее)\b")
_AFTER_THE_MEETING_ALONE = LazyRe(
    r"(?i)(?:(?:ok|okay|so|right|ну|так)[,\s]+)*(?:after|following|before|после|перед)\s+(?:today'?s\s+|the\s+|our\s+|this\s+|"
    r"that\s+|сегодняшн\w+\s+|вчерашн\w+\s+)?(?:[\w'’-]+\s+){0,4}?(?:call|meeting|demo|sync|созвон\w*|встреч\w*|демо|звонк\w*)"
    r"(?:\s+(?:with|с|со)\s+[\w' -]{1,40})?\s*[:.,—–-]?"
)


def _sentences(text: str) -> list[str]:
    """`text`'s sentences; a short word's dot before a word in lower case («по доп. лицензиям») ends none."""
    out: list[str] = []
    for piece in re.split(r"(?<=[.!?])\s+(?=\S)", text.strip()):
        if out and re.search(r"(?<![^\W\d_])[^\W\d_]{1,4}\.$", out[-1]) and piece[:1].islower():
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


_A_CALL_HELD = LazyRe(
    r"(?i)\b(?:call|meet|meeting|google\s+meet|zoom|teams\s+call|sync|demo|созвон\w*|звонок|встреч\w*|зум|митинг\w*)\b"
)


@rule(50, writes=True)
async def crm_task(clause: Clause, ctx: BuildContext) -> bool:
    """A to-do about a CRM record (seed 000's task_create "about a CRM record"), optionally for a colleague."""
    if _A_NEW_CONTACT.match(clause.text):
        return False  # "New contact from today's call: Priya Nair, …": a person to add, not a call to make
    if clause.duration is not None and clause.moment.at is not None and _A_CALL_HELD.search(clause.text):
        return False  # "Friday 16:00 half hour call with Li Wei", "google meet … 11am 1h": an event, it has a length
    if _AFTER_THE_MEETING_ALONE.fullmatch(clause.text.strip()):
        return (
            False  # "After today's Umbrella Health call: create …": when the requests come, no call to make
        )
    if INTO_THE_NEW.match(clause.text) and any(isinstance(i, CreateProject) for i in ctx.intents):
        return False  # «Создай проект … и заведи в нём задачу «…»»: an issue in the project just made
    if TAKEN_BY_ME.search(clause.text):
        return False  # «Задачу про настройку SSO … я забираю себе»: one there is, taken over — nothing new
    if clause.has("delete", "archive") and clause.first("delete", "archive") <= clause.first(
        "create", "put", "remind"
    ):
        return False  # "Delete all CRM tasks, they're all stale": tasks removed, never one made to say so
    if re.search(
        r"(?i)\b(?:run|apply|use|запусти|примени)\s+(?:the\s+)?(?:\w+\s+)?(?:template|шаблон\w*)\b",
        clause.text,
    ):
        return False  # "…we never did the renewal follow-ups. Run the renewal template for …": the template's
    # "I had my first call ever with Li Wei today": a call had, not one to make
    said_as_noun = bool(
        re.search(
            r"(?i)\b(?:a|an|the|my|our|first|this|that|his|her|their|good|great|nice|quick|long|short|productive|"
            r"bad|tough|solid|\w+'s)\s+(?:\w+\s+)?(?:call|email|meeting|phone)\b"
            # "Recap of today's call with Ромашка: …": a call had, its outcome said next
            r"|\b(?:recap|summary|notes|minutes|debrief|outcome)\s+(?:of|from)\b",
            clause.text,
        )
    )
    todo_words = [k.text for k in clause.keys if k.lemmas & CUES["todo"]]
    done_already = any(is_past(w) for w in todo_words) and not any(  # «Созвонилась с …»: a call had
        is_infinitive(w) or is_imperative(w) or w.isascii() for w in todo_words
    )
    # ("we never did any of the renewal follow-ups": the follow-ups told of, none asked for)
    followup = clause.has("followup") and not _FOLLOW_UPS_TOLD.search(clause.text)
    reminder = (
        clause.has("remind")
        or followup
        or (clause.has("todo") and clause.moment.day is not None and not said_as_noun and not done_already)
    )
    # "поручи Максу связаться с ...", «попроси Олега к четвергу обновить КП для Альфы»: a to-do for a colleague
    in_crm = clause.has("crm", "attio")  # "нужна задача в Attio: …", "create an Attio task to …"
    # («поручи Олегу в CRM перезвонить ей»: whatever the to-do, said to be the CRM's)
    # («поручи Олегу подготовить договор для Альфа-Лизинга»: what the colleague is to do, said as an infinitive)
    delegated = (
        clause.has("assign")
        and (
            clause.has("todo")
            or in_crm
            or any(is_infinitive(k.text) for k in clause.keys[:5])
            and any(
                m.score >= 0.5 for m in await find(ctx, clause, "member")
            )  # (a colleague's, never a guess)
        )
        or bool(ASKED_OF.match(clause.text))
    )
    on_record = _ABOUT_RECORD.search(clause.text.split(":", 1)[0])  # "задача по сделке Globex: …"
    # «задача олегу: выставить счёт альфе»: a to-do for a colleague about a CRM record (seed 000)
    addressed = bool(_ADDRESSED.match(clause.text))
    explicit = clause.has("task") and (
        clause.has("create", "put") or clause.creates() or in_crm or bool(on_record) or addressed
    )
    dealt = [
        i
        for i in ctx.intents
        if i.op in ("update_deal", "create_deal", "create_note")
        or isinstance(i, UpdateMatching)
        and i.object == "deals"  # «Все их двигай в Qualification и поставь …»
    ]
    if not explicit and ctx.clause_index > 0 and clause.has("task") and dealt:
        # «Сделку Acme Logistics переведи в КП и поставь Олегу задачу подготовить предложение»: a to-do said
        # with a deal's change is about that deal (a Linear word or team would make it an issue: checked below)
        # («инитек: заметка '…' и задача максу подготовить расчёт до чт»: whom, then the to-do, verb unsaid)
        addressed = addressed or bool(_TASK_TO_WHOM.match(clause.text))
        explicit = bool(clause.has("create", "put", "assign") or clause.creates() or addressed)
    if not explicit and _TASK_HEADING.match(clause.text) and clause.after_colon:
        # «Задача: сверить акты с Альфа-Лизингом к 30 ноября»: a to-do about a CRM record, said as a heading
        about = analyse(clause.after_colon, ctx.now)
        explicit = bool(
            [m for k in ("company", "deal", "person") for m in await find(ctx, about, k) if m.score >= 0.9]
        )
    # "remind me to follow up with John Smith about ENG-103": a to-do about a person, an issue said as its topic
    topic_only = (
        bool(clause.identifiers)
        and reminder
        and bool(
            [m for k in ("person", "company", "deal") for m in await find(ctx, clause, k) if m.score >= 0.9]
        )
    )
    if (
        not (reminder or delegated or explicit)
        or clause.has("linear", "issue", "team")
        or (clause.identifiers and not topic_only)
    ):
        return False
    if FIELD_OF_A_TASK.match(clause.text):
        return False  # «поставь срок по задаче про чекин …», "set the due date on the task about …": one there is
    if not in_crm and re.search(r"(?i)\b(?:в|into|to|in)\s+(?:the\s+)?(?:проект\w*|project)\b", clause.text):
        return False  # «заведи задачу в проект онбординга»: projects are Linear's, so it is an issue
    if (
        clause.asks()
        and not clause.commands()
        and not (explicit and (addressed or in_crm and any(is_infinitive(k.text) for k in clause.keys)))
    ):  # (a to-do said in the infinitive, «задача … в crm подготовить КП», «задача мне — пингануть …», asks for
        # the task, verb unsaid)
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
    if not in_crm and any(
        re.search(rf"\b{re.escape(k)}\b(?!-\d)", clause.text.split(":", 1)[0]) for k in keys
    ):
        return False  # "по Initech завести задачи в ENG: …": a Linear team is named, the tasks are issues
    if not in_crm and await _team_as_place(clause, ctx):
        return False  # «создай в кастомер саксесс задачу …»: the team by its name, so an issue
    body = clause.after_colon if clause.after_colon is not None else clause.text
    if clause.after_colon is None:  # "Jane told me … . Please create a CRM task for me to …": the ask is last
        sentences = _sentences(body)
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
    if (
        linked
        and target is not None
        and target[0] == "company"
        and re.search(r"(?i)\b(?:deal|сделк\w*)\b", linked.group(1))
    ):
        # "…, link it to the Alfa deal": the company's deal, when it has one
        theirs = [d for d in await ctx.directory.deals() if d.extra.get("company_id") == target[1].id]
        target = ("deal", theirs[0]) if len(theirs) == 1 else target
    heading = _FOR_A_RECORD_HEADING.match(clause.text) if target is None else None
    if heading:  # "Create a CRM task for Initech: prepare the renewal quote": the record said for it, first
        target = await crm_target(clause, ctx, "target", heading.group(1))
    target = target or await crm_target(clause, ctx, "target", clause.text)
    if target is None and POINTED_TO_ONE.search(
        clause.text
    ):  # «…: Мария просит …, ну и напомни ей перезвонить»
        for before in reversed(ctx.memory.get("said") or []):
            people = strong(await find(ctx, clause, "person", text=before))
            if len(people) == 1:
                target = ("person", people[0].entity)
                break
    noted_at = ctx.memory.get("record")
    if (
        target is None
        and _HIM_OR_HER.search(clause.text)
        and isinstance(noted_at, tuple)
        and noted_at[0] == "company"
        and ctx.memory.get("said")
    ):  # «заметка к Initech — Иван Сидоров говорит …. Напомни мне позвонить ему»: "him" is the person named
        told_of = strong(await find(ctx, clause, "person", text=ctx.memory["said"][-1]))
        top = max((m.score for m in told_of), default=0.0)
        him = {m.entity.id: m.entity for m in told_of if m.score >= top and m.score >= 0.9}
        if len(him) == 1:
            target = ("person", next(iter(him.values())))
    if target is None and PRONOUN.search(clause.text) and ctx.memory.get("record"):
        target = ctx.memory["record"]  # "…to Jane Doe, and create a task to send her the contract"
    newcomer = (
        # ("New company: Pied Piper, … - and remind me to intro them to Max": the company just made)
        ctx.memory.get("new_people", {}).get("*") or ctx.memory.get("new_companies", {}).get("*")
        if target is None and PRONOUN.search(clause.text)
        else None
    )
    if (
        target is None and newcomer is None
    ):  # "…their CTO Miles Dyson, … and have Oleg send Miles our deck": by name
        low = clause.text.lower()
        named_new = [
            made
            for key, made in ctx.memory.get("new_people", {}).items()
            if key != "*"
            and any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", low) for w in key.split()[:1])
        ]
        newcomer = named_new[0] if len(named_new) == 1 else None
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
    if target is None and dealt and explicit and dealt[-1].op == "create_note":
        # «Добавь заметку к компании Initech: …. И поставь Максу задачу выставить счёт»: the noted record's to-do
        noted_on = dealt[-1].resolved("record")
        if isinstance(noted_on, tuple) and len(noted_on) == 2:
            kind_of = {"companies": "company", "deals": "deal", "people": "person"}.get(str(noted_on[0]))
            target = (kind_of, noted_on[1]) if kind_of else None
    elif target is None and dealt and explicit and (deal := dealt[-1].resolved("deal")) is not None:
        target = (
            "deal",
            deal,
        )  # «…переведи в КП и поставь Олегу задачу подготовить предложение»: that deal's
    if (
        target is None
        and (reminder or explicit)
        and dealt
        and dealt[-1].op == "create_deal"
        and isinstance(company := dealt[-1].resolved("company"), Entity)
    ):  # "new deal Globex — support add-on, 8k. And remind Oleg to send the quote by Friday": the new deal's
        target = ("company", company)  # (the deal has no record yet: its company's)
    after_deals = bool(dealt) and explicit and isinstance(dealt[-1], UpdateMatching)
    if target is None and not in_crm and not after_deals:
        return False  # a generic task: Linear handles it (one said beside a change of deals is the CRM's)
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
            r"(?i)^(?:(?:also|and|then|plus|ещё|еще|также|а\s+также|и)[,\s]+)?(?:напомни(?:те)?(?:\s+мне)?|remind me|поручи\s+\S+|create a crm task for \S+|me|мне|себе)\s*[—–:-]?\s+(?:to\s+|что\s+|о\s+)?",
            "",
            content,
        ).strip()
        or content
    )
    content = (  # "give Oleg a CRM task to call Jane", «дай Максу задачу в CRM позвонить …»: the task is the call
        re.sub(
            r"(?i)^(?:give|assign|set|дай|дайте|выдай|поставь)\s+\S+\s+(?:an?\s+)?(?:(?:crm|attio)\s+)?"
            r"(?:task|to-?do|reminder|follow-?up|задач\w*|напоминани\w*)\s+(?:(?:в|in)\s+(?:the\s+)?(?:crm|attio|црм)\s+)?"
            r"(?:to\s+)?(?=\S)",
            "",
            content,
        ).strip()
        or content
    )
    content = _LINKED.sub("", content).strip(" ,.")
    content = re.sub(r"[,\s]+(?:до|by|к|срок|due|deadline|дедлайн)\s*$", "", content).strip()
    # («… подготовит расчёт скидки в CRM задачей», "… as a CRM task": what it is made as, no part of it)
    content = (
        re.sub(
            r"(?i)[,\s]+(?:(?:в|in)\s+(?:the\s+)?(?:crm|срм|црм|attio)\s+)?(?:задачей|as\s+an?\s+(?:crm\s+)?task)\s*$",
            "",
            content,
        )
        or content
    )
    content = (  # "need to follow up with Li Wei re pilot kickoff, add a task": the ask said last is no part of it
        re.sub(r"(?i)^(?:i\s+|we\s+)?need\s+to\s+(?=\S)|\s*(?:[,;]|\s[—–-])\s*(?:please\s+|pls\s+)?(?:add|create|make|"
               r"set\s+up|log)\s+(?:it\s+|that\s+|this\s+)?(?:as\s+)?(?:an?\s+)?(?:crm\s+|attio\s+)?(?:task|reminder|to-?do)"
               r"(?:\s+for\s+(?:it|that|this|me))?\s*[.!]?$", "", content).strip() or content
    )  # fmt: skip
    content = (  # "set a follow-up for me … to send the invoice": the follow-up is the sending
        re.sub(r"(?i)^(?:set|create|add|make|schedule)\s+(?:a\s+|an\s+)?(?:(?:crm|attio)\s+)?(?:follow-?up|reminder|task)\s+"
               r"(?:for\s+\S+\s+)?(?:to\s+)?", "", content).strip() or content
    )  # fmt: skip
    said_as = ""  # (how the assignee was said, as a pattern)
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
        said_as = names
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
    if said_as and re.fullmatch(rf"(?i)(?:для|for)\s+(?:{said_as})\w*", content.strip(" .")):
        content = ""  # «Создай задачу в CRM для Олега»: whose, and nothing of what to do — asked
    content = (  # "for Max on the Globex deal to review the pricing": whose and about what, then the task
        re.sub(
            r"(?i)^(?:for\s+\S+\s+)?(?:(?:on|about|for)\s+(?:the\s+)?[^,.;]{1,40}?\s+(?:(?:deal|company|record|contact)\s+)?)?to\s+(?=\S)",
            "",
            content,
        )
        if re.match(r"(?i)(?:for|on|about)\s", content)
        else content
    ).strip() or content
    # «Анне задача на завтра — подготовить …»: the day taken out leaves its preposition before the dash
    content = re.sub(r"(?i)^(?:(?:на|к|до|by|on|for)\s*)?[—–-]+\s*", "", content).strip() or content
    dashed_todo = re.match(r"(?s)(.{1,80}?)\s+[—–]\s+(\S.*)$", content)
    said_whom, todo = (dashed_todo.group(1), dashed_todo.group(2)) if dashed_todo else ("", "")
    if (
        re.search(
            r"(?i)(?<![\w-])(?:по|про|about|on|for|regarding|задач\w*|мне|me|сделк\w*|deal)(?![\w-])",
            said_whom,
        )
        and todo
        and (is_infinitive(todo.split()[0].lower()) or re.match(r"(?i)to\s+[a-z]", todo))
    ):  # «по этой сделке задачу мне — отправить КП»: whose and about what, then the task itself
        content = re.sub(r"(?i)^to\s+", "", todo).strip()
    named_so = _TASK_QUOTED.search(clause.text)
    if named_so:  # «создайте в CRM задачу «Подготовить КП…» со сроком …»: the task's own words, in quotes
        content = (named_so.group(1) or named_so.group(2)).strip()
    if record is not None and not named_so and _names_only_the_record(content, record):
        content = ""  # «поставь мне задачу на пятницу по Globex»: about what, but not what to do — asked
    # «… (задача в CRM, до понедельника)»: brackets left holding nothing once the system and the day went
    content = re.sub(r"(?i)\s*\((?:[\s,;]|\b(?:задача|task|до|by|в|in)\b)*\)", "", content).strip()
    step = _NEXT_STEP.search(str(ctx.memory.get("full_text", ""))) if not content.strip() else None
    if step:  # «…, следующий шаг — демо для их ИТ, поставь мне задачу на четверг»: the next step is the task
        content = step.group(1).strip()
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
                each = strip_spans(each, own.spans).strip(" ,.;—–-") or each
        item_record, item_kind = record, kind
        if (
            listed
        ):  # «в четверг отправить Jane SLA, в понедельник — счёт Ивану Сидорову»: each item's own person
            item_people = strong(await find(ctx, clause, "person", text=each))
            if len({m.entity.id for m in item_people}) == 1:
                item_record, item_kind = item_people[0].entity, "person"
        await ctx.emit(
            CreateTask(
                content=(MISSING if says_nothing(each) else each)[:500],  # «создай в Attio задачу»: asked
                deadline=when,
                assignee=assignee.name if assignee else None,
                record=item_record.name
                if item_record is not None
                else newcomer["name"]
                if newcomer
                else None,
            ),
            record=(OBJECT[item_kind], item_record) if item_record is not None else None,
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
    r"повес\w*(?:\s+(?:её|ее|его|это))?\s+на|на|to|for|(?:ответственн\w*|исполнител\w*|owner|assignee)\s*[:—-]?)"
    r"\s+([^\W\d_][\w-]*)\s*[.!]?\s*$"
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
        members and analyse(head, ctx.now).has("assign")  # (the task's own words may hand something over)
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
        # («Олегу в Attio задачу: …»: where it goes may come between)
        and any(re.fullmatch(r"(?i)задач\w*|таск\w*|напоминалк\w*", k.text) for k in clause.keys[1:4])
    ]
    if first:
        return first[0]
    if not members or not (clause.has("assign", "create", "put", "remind") or addressed):
        return None
    colleague: Entity = members[0].entity
    return colleague


_A_NEW_CONTACT = LazyRe(r"(?i)^\s*(?:a\s+)?(?:new|новый|нов\w+)\s+(?:contact|person|контакт|человек)\b")


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
