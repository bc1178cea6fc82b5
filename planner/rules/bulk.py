"""One change to everything that matches: "close all bugs in ENG", "перенеси все сделки в Lost",
"set every ENG issue to Backlog" -> an `update_matching` intent (the draft lists each record)."""

from __future__ import annotations

import re
from typing import Any

from planner import references as refs
from planner._lazy_re import LazyRe
from planner.analysis import Clause, analyse, head_of
from planner.context import BuildContext
from planner.dates import extract_moment
from planner.directory import Entity
from planner.intents.models import Filters, Find, UpdateMatching
from planner.resolve import Mention, key_spans, keys_for, match_words
from planner.rules import rule
from planner.rules._common import (
    EXCEPT_NAMED,
    currency_said,
    due_range,
    find,
    one_said_before,
    priorities_said,
    priority_of,
    strip_spans,
)
from planner.rules._linear_common import (
    ANY_DUE_DATE,
    EVERY_TASK_TO,
    NO_DUE_DATE,
    NOBODY,
    PLAYBOOK_WORD,
    excepted,
    find_user,
    state_named,
)
from planner.rules.issues import issues_by_title_words

__all__ = ["update_all"]

_ALL = LazyRe(
    r"\b(?:all|every|each|everything|both|все(?!\s+ещ[её])(?!-таки)|всех|всем|всеми|всё(?!\s+ещ[её])(?!-таки)|весь|всю|вообще все|каждую|каждый|каждое|целиком|"
    r"обе|оба|обеих|обоих)\b",
    re.IGNORECASE,
)
# «сделка всё, проиграна», «всё пропало»: it is over, not "everything"
_ALL_OVER = LazyRe(
    r"(?i)\bвсё\s*,?\s+(?:проигран\w*|выигран\w*|пропал\w*|сорвал\w*|закрыт\w*|готов\w*|сделан\w*)\b"
    # «глобекс подписали всё, переводи сделку …»: a thing done, "that's it" — then the request
    r"|\b[а-яё]+(?:ли|ла)\s+всё\b|\bвсё\s+[а-яё]+(?:ли|ла)\b"
    # «инитек всё, передумали, ставь сделку в проигранные»: a record, then "that's over" (not «заархивируй всё, …»)
    r"|^\s*(?![а-яё]+(?:[ий]|йте|ите)\s)[^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*)?\s+всё\s*[,.!—–-]"
)
# «передай его сделки Максу», "move her issues to Backlog": everything of someone's, said without "all"
_THEIR_ALL = LazyRe(
    r"(?i)\b(?:его|её|ее|их|his|her|their)\s+(?:задачи|тикеты|issues|tickets)\b"  # issues only: whose deals is asked
    r"|\b[A-ZА-ЯЁ][\w-]+'s\s+(?:(?:open|todo|backlog|urgent|in\s+progress|in\s+review)\s+)?(?:issues|tickets|bugs)\b"
    # «Сделки Олега переведи на Макса», «Задачи CS без исполнителя — на меня»: the plural said first, then whose
    # or which — all of them
    r"|^\s*(?:сделки|задачи|тикеты)\s+(?:[А-ЯЁ][а-яё]+(?:а|я|ы|и)|[A-Z]{2,5}\s+без\s+\w+)\b"
    # «Задачам команды CS в статусе Todo поставь срок 4 декабря»: to the issues of a team (a dative plural)
    r"|^\s*(?:задачам|тикетам)\s+(?:команды\s+)?[A-Z]{2,5}(?![\w-])"
)  # "Move Oleg's Todo issues to In Progress"
_DESTINATION_AT = LazyRe(
    r"\s(?:to|into|as|в|во|на|→|->|=>)\s+(?:stage\s+|state\s+|стади\w+\s+|статус\s+)?", re.I
)
_DONE = LazyRe(r"(?i)\s*(?:done|completed?|closed|finished|готов\w*|выполнен\w*|сделан\w*|закрыт\w*)\s*")
_OPEN = LazyRe(r"\b(?:open|opened|active|открыт\w*|незакрыт\w*|активн\w*)\b", re.I)
_SET_VERB = (
    r"(?i)\b(?:mark|make|set|flag|bump|raise|lower|сделай|поставь|пометь|отметь|выставь|выставить|проставь|проставить|"
    r"установи|установить|поставить|подними|поднять|понизь|понизить|опусти)\b"
)
# "high priority issues", «срочные задачи»: the level said of the records, as which ones
_PRIORITY_AS_WHICH = LazyRe(
    r"(?i)\b(?:urgent|high|medium|low|no)(?:[\s-]+prio(?:rity)?)?\s+(?:issues|bugs|tasks|tickets|ones)\b"
    r"|\b(?:срочн|высокоприоритетн|низкоприоритетн|приоритетн)\w*\s+(?:задач|баг|тикет|ишью)\w*"
)
_TO_WHOM = LazyRe(r"(?i)\s(?:на|to|→|->|=>)\s+(меня|мне|me|[^\W\d_][\w-]*)\s*[.!]?$")
_LABEL_WORDS = {"bug": "bug", "bugs": "bug", "баг": "bug", "баги": "bug", "багов": "bug", "багам": "bug",
                "багами": "bug", "багах": "bug", "ошибки": "bug", "ошибкам": "bug", "feature": "feature",
                "features": "feature", "фичи": "feature", "фичам": "feature", "фичами": "feature"}  # fmt: skip


# «архивируй вообще все задачи», "every single issue": everything, said as meant (no question)
_EVERY_ONE = LazyRe(r"(?i)\bвообще\s+вс[её]|\bвс[её]\s+до\s+одно\w*|\bevery\s+single\b|\babsolutely\s+all\b")
# "Add all ENG issues to the Q1 Launch project", «добавь все задачи ENG в проект Q1 Launch»: put there, none made
_INTO_A_PROJECT = LazyRe(
    r"(?i)\b(?:all|every|все|всех)\s+(?:[\w-]+\s+){0,2}(?:issues|tickets|bugs|задач\w*|тикет\w*|баг\w*)\b.*"
    r"(?:\b(?:to|into)\s+(?:the\s+)?(?:project\s+\S|(?:[\w.-]+\s+){1,4}project\b)|\bв\s+проект\w*\s+\S)"
)
_TO_ME = LazyRe(
    r"(?i)\bна\s+меня\b|\bмне\b|\bto\s+me\b|\bgive\s+me\b"
    # "make me owner on all of oleg's deals", «сделай меня владельцем всех сделок Олега»
    r"|\b(?:make|set)\s+me\s+(?:the\s+)?(?:owner|assignee)\b|\b(?:сделай|поставь|назначь)\s+меня\s+(?:владельц|ответственн|исполнител)\w*"
)
# one record said back: "it", «её», «ту, что …»
_ONE_SAID = r"it|его|её|ее|ту|тот|ту,?\s+что|тот,?\s+что"
# what was just listed, said back: "What's in review? Close all of it", «покажи сделки Олега и переоформи их на меня»
_LISTED_BACK = LazyRe(
    r"(?i)(?<![\w-])(?:them|those|these|it\s+all|all\s+of\s+(?:it|them|those)|all|everything|both|"
    rf"их|ими|им|всё\s+это|это\s+всё|все\s+(?:эти|они)|всё|все|обе|оба|{_ONE_SAID}|"
    # «Поставь каждой срок на пятницу», «Всем поставь приоритет срочный», "for each one": each of the list
    r"каждой|каждому|каждую|каждый|всем|each(?:\s+(?:one|of\s+them))?|every\s+one(?:\s+of\s+them)?)(?![\w-])"
)
_IN_STATE = LazyRe(r"(?i)\b(?:в|во|in)\s+(?:the\s+)?(?:статусе|состоянии|state|status)\b")
# «…, которые сейчас в статусе In Review», "…, that are in review": which ones, said after them
_WHICH_ARE = LazyRe(r"(?i),?\s+(?:которые|которая|который|that\s+are|which\s+are|that\s+is|which\s+is)\b")
# "move them all to Negotiation", «обе сделки переводи …»: records said back, with no list before to say which
_SAID_BACK = LazyRe(r"(?i)(?<![\w-])(?:them|those|these|both|их|ими|них|ним|ними|эти|этих|обе|оба)(?![\w-])")
# "close it", «переведи её»: one record — the list must hold exactly one, or it is asked
_ONE_BACK = LazyRe(
    rf"(?i)(?<![\w-])(?<!of )(?:{_ONE_SAID}|the\s+one)(?![\w-])(?!\s+all)"
    r"|^(?!.*\b(?:them|those|these|all|everything|each|both|их|них|ним|ними|им|ими|всё|все|всем|эти|каждую|каждый|"
    r"каждой|каждому|"
    r"обе|оба|deals|issues|tickets|сделки|задачи|тикеты)\b).*$"
)


async def _issue_titled(ctx: BuildContext, words: str) -> Entity | None:
    """The one issue whose title holds every word said of it ("the Initech check-in" → CS-15)."""
    fits = await issues_by_title_words(
        re.sub(r"(?i)\b(?:the|a|an|one|issue|ticket|task|задач\w*|тикет\w*)\b", " ", words), ctx
    )
    if len(fits) != 1:
        return None
    return Entity("issue", str(fits[0].get("identifier")), str(fits[0].get("title", "")))


async def _listed_before(clause: Clause, ctx: BuildContext) -> list[Find]:
    """The list the message just asked for, when this clause changes it: the `find`s of issues or deals
    said right before ("in Lead or Qualification" is one per stage), and this clause names no record of
    its own — it says them back ("close all of it", «переоформи их») or is only a change («перекинь в todo»)."""
    left_out, _ = excepted(
        clause.text
    )  # ("close all of them except ENG-103": that one is left out, no record)
    if (
        not ctx.clause_index
        or [i for i in clause.identifiers if i not in left_out]
        or ctx.memory.get("asking")
    ):
        return []
    listed: list[Find] = []
    for x in reversed(ctx.intents):
        if not isinstance(x, Find) or listed and x.object != listed[0].object:
            break
        listed.insert(0, x)
    if not listed or listed[0].object not in ("issues", "deals") or any(x.filters.record for x in listed):
        return []
    head, destination = _split_destination(clause.text)
    only_a_change = (
        destination is not None and len(analyse(head, ctx.now).keys) <= 1
    )  # «двигай в квалификацию»
    if not (_LISTED_BACK.search(clause.text) or only_a_change):
        return []
    if not only_a_change and await _teams_named(ctx, head):
        return []  # «Сколько задач у CS и у DES? Закрой все задачи CS.»: its own team's, not the whole list
    for found in listed:  # "What's open for Globex? Assign those to Max": a list that left words out is wider
        question = analyse(
            found.span or "", ctx.now
        )  # than what was asked; changing it would change too much
        kinds = ("team", "member", "user", "stage", "project", "label") + (
            ("company",) if found.filters.company else ()
        )
        if await _unread(question, ctx, kinds=kinds, asked=True):
            return []
    return listed


_LONG_QUOTE = LazyRe(r"«[^«»]{20,}»")
_LABEL_AS_WHICH = LazyRe(
    r"(?i)\b(?:with|having)\s+(?:the\s+|a\s+)?(?:[\w-]+\s+(?:label|tag)|(?:label|tag)\s+[\w-]+)\b|"
    r"\b(?:labell?ed|tagged)\s+(?:as\s+|with\s+)?[\w-]+|\bс\s+(?:меткой|лейблом|тегом)\s+[\w-]+|\bпомеченн\w+\s+[\w-]+"
)
_BOTH = LazyRe(r"(?i)\b(?:both|обе|оба|обеих|обоих)\b")
_BOTH_STATED = LazyRe(
    r"(?i)\b(?:both|обе|оба)\s+(?:[^\W\d_]+\s+)?(?:уже\s+|are\s+|were\s+)?(?:already\s+)?(?:выполнены|закрыты|готовы|"
    r"сделаны|done|closed|finished|completed?|fixed)\b"
)
# «удали вообще всё из аттио и линеара», "wipe everything in Attio": everything a system holds, no kind of record
_EVERYTHING_IN_A_SYSTEM = LazyRe(
    r"(?i)\b(?:вообще\s+)?(?:всё|все|everything|all\s+of\s+it)\s+(?:(?:что\s+есть\s+)?(?:из|в|во|from|in|on)\s+)"
    r"(?:(?:the\s+|our\s+)?(?:attio|аттио|crm|црм|linear|линеар\w*|линейн\w*)\b)"
)
_A_THING_TO_MAKE_FIRST = LazyRe(
    r"(?i)^\W*(?:(?:и|and|also|ещё|еще|а\s+также)\s+)?(?:поставь|создай|заведи|добавь|сделай|put|create|add|set\s+up|make)\s+"
    r"(?:(?:мне|ему|ей|им|a|an|new|новую|новый)\s+)?(?:задач\w*|таск\w*|заметк\w*|встреч\w*|созвон\w*|напоминани\w*|"
    r"task|note|meeting|call|reminder)\b"
)
_TO_A_PLACE = LazyRe(r"(?i)\s(?:в|во|на|to|into|→|->)\s+(?:стади\w+\s+|stage\s+)?(\S+(?:\s+\S+)?)\s*[.!]?$")


@rule(15, writes=True)
async def update_all(clause: Clause, ctx: BuildContext) -> bool:
    if PLAYBOOK_WORD.search(clause.text) and EVERY_TASK_TO.search(clause.text):
        return False  # "Renewal playbook for Initech, assign both tasks to Max": the playbook's own tasks
    if _BOTH_STATED.search(clause.text) and ctx.clause_index > 0:
        return False  # «Закрой CS-14 и CS-12, обе задачи выполнены»: why, said of the two just named
    if _A_THING_TO_MAKE_FIRST.match(clause.text):
        return False  # «поставь задачу Олегу позвонить им в пятницу»: a task made about them, nothing of theirs set
    if clause.has("delete", "archive") and _EVERYTHING_IN_A_SYSTEM.search(clause.text):
        ctx.notes.append(
            ctx.t(
                "Удалить всё разом я не берусь: скажите, что именно — например, «архивируй все задачи CS в Done» "
                "или «удали сделку Globex pilot».",
                "I won't delete everything at once: say which records - for example, 'archive all CS issues in "
                "Done' or 'delete the Globex pilot deal'.",
            )
        )
        return True
    lists = await _listed_before(clause, ctx)
    listed = lists[0] if lists else None
    outside = _LONG_QUOTE.sub(" ", clause.text)
    if not lists and outside != clause.text and not (_ALL.search(outside) or _THEIR_ALL.search(outside)):
        return False  # «…everything works except group sync…». Move the Romashka deal to Won: someone's words
    left_out, rest = excepted(clause.text)
    if left_out and not [i for i in clause.identifiers if i not in left_out]:
        # "close all CS issues except CS-12 & CS-13": every one but those — read without them, then leave them out
        clause = analyse(rest.strip(), ctx.now)
    else:
        left_out = []
    deals_out: list[str] = []
    of_deals = (
        clause.has("deal") or listed is not None and listed.object == "deals"
    )  # ("…? move all of them …")
    named_out = EXCEPT_NAMED.search(clause.text) if not left_out and of_deals else None
    if (
        named_out
    ):  # «Всем сделкам Анны, кроме Ромашки, поставь …», "All Negotiation deals → Proposal, except Globex"
        deals_out = [x for x in re.split(r"\s*(?:,|&|\band\b|\bи\b)\s*", named_out.group(1).strip()) if x]
        clause = analyse(
            f"{clause.text[: named_out.start()]} {clause.text[named_out.end() :]}".strip(), ctx.now
        )
    named_issue_out = EXCEPT_NAMED.search(clause.text) if not (left_out or deals_out or of_deals) else None
    spared: Entity | None = None  # (said by its title: named back as what is left alone)
    if named_issue_out:  # "Close out everything in CS except the Initech check-in": the one issue so titled
        spared = await _issue_titled(ctx, named_issue_out.group(1))
        if spared is not None:
            left_out = [spared.id]
            clause = analyse(
                f"{clause.text[: named_issue_out.start()]} {clause.text[named_issue_out.end() :]}".strip(),
                ctx.now,
            )
    after = clause.after_colon
    if after is not None and _ALL.search(after) and not _ALL.search(clause.text.split(":", 1)[0]):
        asked = analyse(after.strip(), ctx.now)  # "Max is migrating Engineering: archive every ENG issue"
        heading = head_of(clause, ctx.now)
        acting = ("complete", "archive", "delete", "move", "put", "assign", "priority")
        tagging = bool(re.search(r"(?i)^\W*(?:tag|label|пометь|повесь\s+метку)\b", after.strip()))
        if (
            asked.after_colon is None
            and (asked.has(*acting) or tagging)  # "…: tag every open ENG issue with the security label"
            and not heading.has(*acting)
            and not heading.creates()
        ):
            return await update_all(asked, ctx)  # the heading says why; the request is after the colon
    if after is not None and _ALL.search(clause.text.split(":", 1)[0]) and not listed:
        heading = head_of(clause, ctx.now)
        asked = analyse(after.strip(), ctx.now)
        if (
            asked.after_colon is None
            and (asked.has("complete", "archive", "move", "put", "assign", "priority", "due"))
            and not heading.has("complete", "archive", "delete", "move", "put", "assign", "create", "query")
            and heading.has("issue", "task", "bug", "deal")
        ):  # "every ENG issue with no due date: set due Dec 11": which ones, then the change
            return await update_all(analyse(f"{heading.text.strip()} {after.strip()}", ctx.now), ctx)
    owner_words = re.search(
        r"\b(?:owner|assignee|владельц\w*|ответственн\w*|исполнител\w*)\b", NOBODY.sub(" ", clause.text), re.I
    )  # «всем задачам без исполнителя»: which ones, not a new assignee
    labelling = re.search(r"\b(?:label|tag|метк\w*|тег\w*|лейбл\w*)\b", clause.text, re.I)
    dating = (
        (clause.has("due") or listed is not None and clause.has("move"))
        and clause.moment.day is not None  # "set due date Dec 18 on every ENG issue"
        # («все задачи с дедлайном до конца недели назначь на меня»: the due date says which ones)
        and not _DUE_FILTER.search(clause.text)
    )
    # "make all ENG issues high priority", «…сделай средними»: "make" changes them, it creates nothing
    made_so = bool(
        re.search(r"(?i)\b(?:make|сделай|сделать|raise|bump|lower)\b", clause.text)
        and priority_of(clause.text)
        and not re.search(
            r"(?i)\b(?:an?|new|one|новую|одну)\s+(?:issue|task|ticket|bug|задач\w*|тикет)", clause.text
        )
    )
    if (
        listed is None
        and (
            not (_ALL.search(clause.text) or _THEIR_ALL.search(clause.text))
            or _ALL_OVER.search(clause.text)
            and not (_THEIR_ALL.search(clause.text) or len(_ALL.findall(clause.text)) > 1)
        )
        or clause.identifiers
        or clause.creates()
        and not (owner_words or labelling or made_so or _INTO_A_PROJECT.search(clause.text))
        or clause.after_colon
    ):
        return False  # "create 8 issues, one for each screen: …" makes things, it changes none
    prioritising = clause.has("priority") or bool(
        priority_of(clause.text) and re.search(_SET_VERB, clause.text)
    )  # "all open bugs in engineering mark them urgent"
    if (
        prioritising
        and not re.search(_SET_VERB, clause.text)
        and not re.search(
            r"(?i)\b(?:to|на|→|->|into|as|как)\s+(?:priority\s+|приоритет\w*\s+)?\S+\s*[.!]?$", clause.text
        )
        and _PRIORITY_AS_WHICH.search(clause.text)
    ):
        prioritising = False  # "high priority issues across all teams": which ones are asked for, nothing set
    verbs = (
        clause.has("complete", "archive", "delete", "move", "put", "assign")
        or prioritising
        or bool(_INTO_A_PROJECT.search(clause.text))  # "add all ENG issues to the Q1 Launch project"
    )
    acting = ("complete", "archive", "delete", "move", "put", "assign", "create")
    relative = re.search(r"(?i)\b(?:всё|все|everything)\s*,?\s+(?:что|that|which)\b", clause.text)
    # «Задачам команды CS в статусе Todo поставь срок …»: "в статусе" says which ones, it asks nothing
    asked = analyse(_IN_STATE.sub(" ", clause.text), ctx.now) if _IN_STATE.search(clause.text) else clause
    if (
        asked.has("query")
        and asked.first("query") < asked.first(*acting)
        and not _SHOULD.search(clause.text)
        and not (
            relative and clause.first(*acting) < 10_000
        )  # «всё, что в ревью, верни в работу»: which ones
    ):
        return False  # "покажи все задачи с меткой X": a list, whatever words follow
    if labelling and not (
        verbs
        or clause.has("create")
        or re.search(r"(?i)\b(?:tag|label)\b\s+(?!as\b)", clause.text)
        # «Сними метку customer-request со всех задач команды CS»: a label taken off (or put on) is the change
        or re.search(r"(?i)\b(?:сними|снять|убери|убрать|повесь|навесь)\s+(?:метк|лейбл|тег)\w*", clause.text)
    ):
        labelling = None  # "…with the label X" filters; a label is a change only when put on or taken off
    if labelling and _LABEL_AS_WHICH.search(clause.text) and (prioritising or dating or owner_words):
        # "Set the priority to high on every issue with the onboarding label": which ones, the priority the change
        labelling = None
    if labelling and (
        re.search(
            r"(?i)\b(?:с|with|having)\s+(?:the\s+)?(?:метк\w*|лейбл\w*|тег\w*|label|tag)\b", clause.text
        )
        or _LABEL_AS_WHICH.search(clause.text)
        and clause.has(
            "complete", "archive", "delete"
        )  # "archive all issues with the docs label": which ones
        and not re.search(r"(?i)\b(?:add|remove|untag|убери|сними|повесь|навесь|добавь)\b", clause.text)
    ):
        labelling = None  # «всем задачам с меткой feature … приоритет»: which ones, not what is put on
    to_whom = _TO_WHOM.search(clause.text)  # «все неназначенные задачи на Макса»: given to someone, no verb
    given = bool(
        to_whom
        and not clause.has("complete", "archive", "delete", "assign")
        and await find_user(clause, ctx, to_whom.group(1)) is not None
    )
    if given and not re.search(_SET_VERB, clause.text):
        prioritising = False  # "all high priority bugs to Max": which bugs, not a new priority
        verbs = clause.has("move", "put")
    if not verbs and clause.has("deal") and (to := _TO_A_PLACE.search(clause.text)):
        # «все сделки Анны в переговоры»: the deals and where they go, the verb left out
        verbs = any(m.score >= 1.0 for m in await find(ctx, clause, "stage", text=to.group(1)))
    if not (verbs or owner_words or labelling or dating or given):
        return False
    deals = (
        listed.object == "deals"
        if listed
        else clause.has("deal")
        or (
            not clause.has("issue", "task", "bug", "linear")
            and bool([m for m in await find(ctx, clause, "stage") if m.score >= 1.0])
            and not await _names_a_state(clause, ctx)
        )
    )  # "move everything still in Lead to Lost": deal stages, no workflow state: the deals
    if not (
        listed
        or deals
        or clause.has("issue", "task", "bug")
        or re.search(r"\b(?:everything|всё)\b", clause.text, re.I)
    ):
        return False
    if clause.has("task") and clause.has("crm", "attio"):
        if not clause.has("complete"):
            return False
        await ctx.emit(UpdateMatching(object="tasks", filters=Filters(), changes={"complete": True}))
        return True
    said_why = _why_after_all(clause.text, _ALL.search(clause.text))
    cut = (
        said_why.start()
        if said_why
        and not said_why.group(0).lstrip().startswith(("—", "–", "-"))  # («… — в Canceled»: where to)
        else len(clause.text)
    )  # "close all open ENG issues, eng is moving to a separate board": no destination in why it is done
    head, destination = _split_destination(clause.text[:cut])
    if destination and [m for m in await find(ctx, clause, "team", text=destination) if m.score >= 0.9]:
        head, destination = clause.text, None  # «закрой все баги в инжиниринге»: which team's, not where to
    which = _WHICH_ARE.search(clause.text)
    trailing = _VERB_LAST.search(destination) if destination else None
    if (
        trailing
    ):  # «все задачи в In Review закрыть»: the state is where they are; the verb said last, the change
        head, destination = clause.text, None
    if (
        destination
        and not deals
        and clause.has("complete", "archive", "delete")
        and not clause.has("move", "put")
        and await _names_a_state(analyse(destination, ctx.now), ctx)
    ):  # «закрыть все задачи в In Review»: to close them is the change; "in review" says which
        head, destination = clause.text, None
    if (
        destination
        and (which or _WHERE_THEY_ARE.match(destination))
        and clause.has("complete", "archive", "delete")
    ):  # («Закрой все задачи в статусе In Review»: the state named as a state is where they are)
        # «Закрой все задачи, которые сейчас в статусе In Review»: where they are is which ones; the verb is the change
        head, destination = clause.text, None
    changes: dict[str, Any] = {}
    resolved: dict[str, Any] = {"spared": spared} if spared is not None else {}
    closed_as = (
        re.search(r"(?i)\b(?:as|как|в)\s+(won|lost|выигран\w*|проигран\w*)\b", clause.text) if deals else None
    )
    if not deals and _UNASSIGN.search(clause.text):
        # "unassign all of Max's issues", «сними исполнителя со всех задач Олега»: nobody's now (never "remove" read
        # as archive); whose they were is which ones
        changes = {"assignee": "none"}
        head = _UNASSIGN.sub(" ", clause.text)
    elif closed_as and clause.has(
        "complete"
    ):  # "close out as Lost every deal still in Lead": where it closes
        destination = None  # «закрой как проигранные все сделки в Lead»: "в Lead" is then which ones
        changes = {"stage": "Lost" if closed_as.group(1).lower().startswith(("l", "п")) else "Won"}
        head = clause.text[: closed_as.start()] + " " + clause.text[closed_as.end() :]
    elif (
        clause.has("complete")
        and not destination
        and not (clause.has("archive", "delete") and not labelling)  # "archive all done issues": which ones
        or destination
        and not deals
        and _DONE.fullmatch(destination)
    ):
        changes = {"complete": True}  # "mark every ENG issue as Done": completed, as "close" would
    elif clause.has("archive", "delete") and not labelling:
        changes = {"delete": True} if deals else {"archive": True}
    elif labelling and not deals and (named := await _label(ctx, clause.text)):
        removing = re.search(
            r"\b(?:remove|untag|strip|drop|убери|сними|удали)\b|\btake\b.*\boff\b", clause.text, re.I
        )  # ("take the onboarding label off every issue")
        changes = {"labels_remove" if removing else "labels_add": [named]}
        head = await _without_label(clause, ctx, head, named)  # the label is the change
    elif (
        dating
        or destination
        and clause.has("move", "put")  # («…поставь на понедельник»: put on a day, the same)
        and clause.moment.day is not None
        and extract_moment(destination, ctx.now).day is not None
        and not await _names_a_state(analyse(destination, ctx.now), ctx)
    ) and not deals:  # («все мои задачи перенеси на 15 декабря»: moved to a day is a new due date)
        assert clause.moment.day is not None
        changes = {"due": clause.moment.day.isoformat()}
        head = strip_spans(head, [s for s in clause.moment.spans if s[1] <= len(head)])
    elif (
        _assigns(clause, ctx)
        or given
        or owner_words
        or destination
        and not deals
        and clause.has("put")
        and await find_user(clause, ctx, destination) is not None  # «повесь на Олега»
        # «все сделки олега переводим на меня», "move all of Oleg's deals to Max": whose they are to be
        or destination
        and deals
        and (
            re.match(r"(?i)(?:меня|себя|me|myself)\b", destination) is not None
            or not await _names_a_stage(ctx, destination)
            and any(m.score >= 0.9 for m in await find(ctx, clause, "member", text=destination.split()[0]))
        )
    ):
        people = sorted(
            [m for m in await find(ctx, clause, "member" if deals else "user") if m.score >= 0.5],
            key=lambda m: min(m.positions),
        )
        who = (await find_user(clause, ctx, destination)) if destination and not deals else None
        if who is None and not deals and _TO_ME.search(clause.text):
            # «все тикеты олега и макса перекинь на меня, они на конфе»: to me, whoever was named before it
            who = await find_user(clause, ctx, "me")
        if deals and (
            _TO_ME.search(clause.text)
            or destination
            and re.match(r"(?i)(?:меня|себя|me|myself)\b", destination)
        ):  # «все сделки Олега передай мне»: Oleg's, to me
            who = await refs.member(ctx, "me")
            if people and who.name != people[0].entity.name and _whose_said(clause, people[0]):
                resolved["owner_filter"] = people[0].entity
        noun = min(clause.cue_positions("deal") or [-2])
        whose = next((m for m in people if noun + 1 in m.positions), None) if len(people) > 1 else None
        if who is None and whose is not None:  # «Макс забирает обе сделки Олега»: Oleg's deals, to Max
            who = next(m.entity for m in people if m is not whose)
            if deals:
                resolved["owner_filter"] = whose.entity
        elif who is None and len(people) == 1 and _WHOSE_ONLY.search(clause.text):
            # «Передай все задачи Олега», "Reassign Oleg's issues": whose they are; to whom is not said — asked,
            # and the answer is read as the request said again
            ctx.clause_index = 0
            raise ctx.ask(
                "request",
                ctx.t(
                    "Кому передать? Скажите запрос целиком: чьи и кому.",
                    "To whom? Say the whole request: whose, and to whom.",
                ),
            )
        elif who is None and people:  # "передай все сделки Олега Максу": the last person named gets them
            who = people[-1].entity
            if len(people) > 1 and deals and _whose_said(clause, people[0]):
                resolved["owner_filter"] = people[0].entity
        if who is None:
            return False
        changes = {"owner" if deals else "assignee": who.name}
    elif (
        destination
        and not deals
        and (
            re.match(r"(?i)(?:проект\w*|project)\s+\S", destination)
            or not await _names_a_state(analyse(destination, ctx.now), ctx)
            and [m for m in await find(ctx, clause, "project", text=destination) if m.score >= 0.9]
        )
    ):  # "move all ENG issues into Q1 Launch": a project's name where a state would be is the project
        project = [m for m in await find(ctx, clause, "project", text=destination) if m.score >= 0.9]
        if not project:
            return False
        changes = {"project": project[0].entity.name}  # «перенеси все открытые задачи ENG в проект Q1 Launch»
        resolved["project"] = project[0].entity
    elif prioritising and (p := priority_of(clause.text)):
        changes = {"priority": {1: "urgent", 2: "high", 3: "medium", 4: "low"}[p]}
    elif (
        destination
        and not deals
        and (p := priority_of(destination))
        and not await _names_a_state(analyse(destination, ctx.now), ctx)
    ):  # "all urgent issues -> high": a priority where a state would be is the new priority
        changes = {"priority": {1: "urgent", 2: "high", 3: "medium", 4: "low"}[p]}
    elif destination:
        changes = {"stage" if deals else "state": destination.strip(" «»\"'")}
    if not changes:
        return False
    if destination and not {"state", "stage", "project"} & set(changes) and not changes.get("assignee"):
        head = clause.text  # "заархивируй всё, что лежит в бэклоге": where they are is which ones
    why = _why_after_all(head, _ALL.search(head) or _THEIR_ALL.search(head))
    if why and why.group(0).startswith(","):
        head = head[: why.start()]  # «…, разгребаем бэклог по-другому»: why it is done names no filter
    filters = await (
        _deal_filters(clause, ctx, head) if deals else _issue_filters(clause, ctx, head, changes)
    )
    if left_out and not deals:
        filters.exclude = left_out
    if deals_out and deals:
        filters.exclude = deals_out
    full = str(ctx.memory.get("as_said", clause.text))
    whose = ctx.memory.get("whose")  # ("All his deals to Anna, all his issues to Max": the same "his")
    if not deals and filters.assignee is None and _WHOSE.search(clause.text):
        earlier = await one_said_before(ctx, clause, "user")
        if whose and whose != changes.get("assignee"):
            filters.assignee = whose
        elif earlier is not None and earlier.name != changes.get("assignee"):
            filters.assignee = earlier.name  # «Макс переходит на другой проект — переведи все его задачи …»
            ctx.memory["whose"] = earlier.name
    whose_deals = deals and filters.owner in (None, changes.get("owner")) and _WHOSE_DEALS.search(clause.text)
    if whose_deals:
        earlier = await one_said_before(ctx, clause, "member")
        if whose and whose != changes.get("owner"):
            filters.owner, whose_deals = whose, None
        elif earlier is not None and earlier.name != changes.get("owner"):
            filters.owner = earlier.name  # "Oleg is leaving us. All his deals go to Anna": Oleg's
            ctx.memory["whose"] = earlier.name
            whose_deals = None
    bare = (
        set(filters.model_dump(exclude_none=True)) <= {"state"}
        and filters.state in (None, "open")
        and (
            not clause.has("issue", "task", "bug", "linear")
            or bool(changes.get("archive"))  # «удали все задачи»: every issue gone, on one word
            and not _EVERY_ONE.search(clause.text)  # «архивируй вообще все задачи»: said as meant
        )
    )
    if (
        not lists
        and (
            not deals
            and bare  # «Закрой всё», "close everything": no kind, no filter — every issue of every team is a guess
            # "close all her issues" with no "her" read: not every issue of every team (nor every deal)
            or not deals
            and filters.assignee is None
            and bool(_WHOSE_THINGS.search(clause.text))
            or bool(whose_deals)
            or not filters.model_dump(exclude_none=True)
            and (
                not deals
                and _WHOSE.search(clause.text)
                or (changes.get("delete") or changes.get("archive"))
                and _CAN_YOU.search(full)  # "можешь удалить все сделки?": whether it can, not a yes to all
                # «Все их переводи в переговоры» with nothing listed before: "them" is not every deal
                or _SAID_BACK.search(clause.text)
            )
        )
        and ctx.answer("everything") != "all"
    ):
        # no filter read, yet "все его задачи" says whose: a filter the rules missed never becomes "every
        # issue of every team"
        raise ctx.ask(
            "everything",
            ctx.t(
                f"Это изменит все {'сделки' if deals else 'задачи во всех командах'}. Точно все? "
                "Если нет — скажите, какие.",
                f"That changes every {'deal' if deals else 'issue in every team'}. All of them? If not, say which ones.",
            ),
            choices=[(ctx.t("Да, все", "Yes, all of them"), "all")],
        )
    if resolved.get("owner_filter") is not None:
        filters.owner = resolved.pop("owner_filter").name
    elif deals and changes.get("owner") and filters.owner == changes["owner"]:
        filters.owner = None  # the person named is the new owner, not a filter ("мои" stays one)
    unread = await _unread(clause, ctx, issues=not deals)
    labels_changed = bool(changes.get("labels_add") or changes.get("labels_remove"))
    if not (deals or unread or filters.label or labels_changed) and (kind := _KIND_SAID.search(head)):
        unread = kind.group(0)  # "…всем багам" with no label filter read: never every issue
    if unread and ctx.answer("filter") != "ignore":
        raise ctx.ask(
            "filter",
            ctx.t(
                f"Не понял условие «{unread}» — какие записи менять? Напишите запрос иначе или продолжите без него.",
                f"I didn't understand the condition '{unread}'. Say it another way, or go on without it.",
            ),
            choices=[(ctx.t("Продолжить без него", "Go on without it"), "ignore")],
            free_text=False,
        )
    owners_named = (
        list(
            dict.fromkeys(
                m.entity.name
                for m in await find(ctx, clause, "member", text=head)
                if m.score >= 0.5 and m.entity.name != changes.get("owner")
            )
        )
        if deals
        else []
    )
    if deals and filters.owner == "me" and owners_named and _MINE_AND_THEIRS.search(head):
        field, either = "owner", ["me", *owners_named]  # «мои сделки и сделки Олега — на Макса»: both
    elif deals and len(owners_named) > 1 and filters.owner != "me":
        field, either = (
            "owner",
            owners_named,
        )  # «Олег и Анна уходят в отпуск — все их сделки на Макса»: each one's
    elif deals:  # "every deal still in Lead or Qualification": each stage's deals
        field, either = "stage", [*(await _deal_stages(clause, ctx, head))]
    elif (
        len(assignees := await _assignees_named(clause, ctx, head, changes)) > 1 and filters.assignee != "me"
    ):
        field, either = "assignee", assignees  # «закрой все задачи Олега и Макса»: each one's
    elif filters.assignee == "me" and assignees and _MINE_AND_THEIRS.search(head):
        field, either = "assignee", ["me", *assignees]  # "Reassign everything mine and Oleg's to Max": both
    elif len(named_states := await _states_named(ctx, head, changes)) > 1:
        field, either = "state", named_states  # «все задачи из Todo и Backlog — в работу»: each state's
    elif len(named_teams := await _teams_named(ctx, head)) > 1:  # «всем задачам в ENG и CS»: each team's
        field, either = "team", named_teams
    elif (
        len(named_projects := await _projects_named(clause, ctx, head)) > 1
    ):  # "in Q1 Launch and Website Redesign"
        field, either = "project", named_projects
    elif (
        len(named_priorities := [str(p) for p in priorities_said(head) if p != changes.get("priority")]) > 1
    ):  # «всем срочным и высоким задачам …»: each level's
        field, either = "priority", named_priorities
    else:  # "labeled docs or feature": each label's issues
        field, either = "label", [*(await _either_label(ctx, head, filters.label))]
    if lists:  # the list's own filters, and any this clause adds ("…, the high ones to Oleg")
        said = filters.model_dump(exclude_none=True)
        marks = (len(ctx.intents), len(ctx.actions), len(ctx.entities), len(ctx.risks), len(ctx.notes))
        last_emit = ctx.memory.get("last_emit")
        for found in lists:
            await ctx.emit(
                UpdateMatching(
                    object="deals" if deals else "issues",
                    filters=found.filters.model_copy(
                        update={k: v for k, v in said.items() if getattr(found.filters, k) is None}
                    ),
                    changes=changes,
                ),
                **resolved,
            )
        changed = [a for a in ctx.actions[marks[1] :] if not a.read_only]
        if _ONE_BACK.search(clause.text) and len(changed) > 1:  # "What's open for Acme? Close it": which one?
            del ctx.intents[marks[0] :], ctx.actions[marks[1] :], ctx.entities[marks[2] :]
            del ctx.risks[marks[3] :], ctx.notes[marks[4] :]
            ctx.memory["last_emit"] = last_emit
            return False
        return True
    both_named = await _both_named(clause, ctx, deals) if _BOTH.search(clause.text) else []
    if len(both_named) == 2:
        # "Oleg's two deals — the Acme Logistics pilot and the Alfa-Leasing expansion: reassign both of those
        # deals to Max": the two named, not every deal there is
        field, either = "record", both_named
        filters = Filters()
    for value in either or [getattr(filters, field)]:
        await ctx.emit(
            UpdateMatching(
                object="deals" if deals else "issues",
                filters=filters.model_copy(update={field: value}),
                changes=changes,
            ),
            **resolved,
        )
    return True


async def _both_named(clause: Clause, ctx: BuildContext, deals: bool) -> list[str]:
    """The records "both" stands for: the deals (or issues) the message names by their whole name or id."""
    full = str(ctx.memory.get("full_text", clause.text))
    if not deals:
        return list(dict.fromkeys(re.findall(r"\b[A-Z]{1,10}-\d+\b", full)))
    found = [m for m in await find(ctx, clause, "deal", text=full) if m.score >= 0.9]
    taken: set[int] = set()
    kept = []
    for m in sorted(found, key=lambda m: (-len(m.positions), -m.score)):  # the fullest reading of each name
        if not m.positions & taken:
            kept.append(m)
            taken |= m.positions
    return list(dict.fromkeys(m.entity.name for m in sorted(kept, key=lambda m: min(m.positions or {0}))))


async def _names_a_state(clause: Clause, ctx: BuildContext) -> bool:
    """A Linear workflow state is named ("Todo", "In Review", «в работе»)."""
    return await state_named(ctx, clause.text) is not None


async def _names_a_stage(ctx: BuildContext, said: str) -> bool:
    """A deal stage is named first in `said` ("Won", «переговоры», "proposal stage")."""
    words = said.split()
    return bool(words) and any(
        m.score >= 0.9 for m in await find(ctx, analyse(said, ctx.now), "stage", text=" ".join(words[:2]))
    )


async def _projects_named(clause: Clause, ctx: BuildContext, head: str) -> list[str]:
    """The projects a bulk change's issues are in, when more than one is named."""
    found = [m for m in await find(ctx, clause, "project", text=head) if m.score >= 0.9]
    return list(dict.fromkeys(m.entity.name for m in sorted(found, key=lambda m: min(m.positions or {0}))))


async def _deal_stages(clause: Clause, ctx: BuildContext, head: str) -> list[str]:
    """The stages a bulk change's deals are in, when more than one is named ("in Lead or Qualification")."""
    if _OPEN.search(head):
        return []
    found = [m for m in await find(ctx, clause, "stage", text=head) if m.score >= 1.0]
    return list(dict.fromkeys(m.entity.name for m in sorted(found, key=lambda m: min(m.positions or {0}))))


async def _either_label(ctx: BuildContext, text: str, first: str | None) -> list[str]:
    """ "docs or feature", «bug или security»: the labels of an either-or filter, in the order said."""
    if first is None:
        return []
    names = [x.name for x in await ctx.directory.labels()]
    pattern = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    m = re.search(rf"(?i)\b({pattern})\s*(?:,\s*|\s+(?:or|или|либо)\s+)({pattern})\b", text)
    if m is None:
        return []
    said = [next(n for n in names if n.lower() == g.lower()) for g in (m.group(1), m.group(2))]
    return list(dict.fromkeys(said))


# a due date said of which ones: «с дедлайном до конца недели», "due this week", "overdue"
# the one person named is whose the records are («все задачи Олега», "all of Oleg's issues"), no one to get them
_WHERE_THEY_ARE = LazyRe(
    r"(?i)(?:статус\w*|state|status|стади\w*|stage|колонк\w*|column|проект\w*|project)\b"
)
# a team said by the word: «задачи команды QA», "the QA team's issues", "team Billing"
_TEAM_SAID = LazyRe(
    r"(?i)\bкоманд[аыуеой]+\s+([^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*){0,2})|\bteam\s+((?-i:[A-Z])[\w-]*(?:\s+[\w-]+){0,2})"
    r"|\b((?-i:[A-Z])[\w-]*)\s+team['’]?s?\b"
)
_WHOSE_ONLY = LazyRe(
    r"(?i)^\s*(?:передай|передать|отдай|переназначь|reassign|hand\s+over|give\s+away)\s+(?:(?:все|всё|all(?:\s+of)?)\s+)?"
    r"(?:задачи|сделки|тикеты|issues|tasks|deals|tickets)\s+[А-ЯЁ][а-яё]+(?:а|я|ы|и)\s*[.!]?\s*$"
    # ("Reassign Oleg's issues": whose they are; to whom is not said — asked, never handed to Oleg himself)
    r"|^\s*(?:reassign|hand\s+over)\s+(?:all(?:\s+of)?\s+)?[A-Z][a-z]+['’]s\s+(?:issues|tasks|deals|tickets)\s*[.!]?\s*$"
)
_DUE_FILTER = LazyRe(
    r"(?i)^(?!.*\b(?:set|make|put|push|move|поставь|выстав\w*|перенес\w*|сдвин\w*)(?:\s+\S+){0,6}?\s+(?:due|срок\w*|дедлайн\w*)\b)"
    r"(?!.*\bto\s+be\s+due\b)(?:.*\b(?:с|со)\s+(?:дедлайн\w*|срок\w*)\s+(?:до|на|в|к|сегодня|завтра)\b"
    r"|.*\bwith\s+(?:a\s+)?(?:due\s+date|deadline)\s+(?:this|next|by|before|in|today|tomorrow)\b"
    r"|.*\bdue\s+(?:this|next|by|before|today|tomorrow|in)\b|.*\b(?:overdue|просроченн\w*)\b"
    r"|.*\b(?:которые|что)\s+(?:горят|просрочен\w*)"
    r"|.*\bу\s+(?:которых|них)\s+(?:(?:стоит|выставлен\w*)\s+)?(?:срок\w*|дедлайн\w*)\b"
    r"|.*\b(?:which|that)\s+(?:are\s+)?due\b|.*\bwhose\s+(?:due\s+date|deadline)\b)"
)
_DUE_WORDS = LazyRe(
    r"(?i)\b(?:due|overdue|просроченн\w*|дедлайн\w*|deadline|срок\w*)(?:\s+(?:this|next)\s+(?:week|month))?\b"
)
_ASSIGNED_BEFORE = LazyRe(r"(?i)\b(?:assigned|given|owned|назначен\w*|висящ\w*|висит|висят|повешен\w*)\s*$")


async def _without_label(clause: Clause, ctx: BuildContext, head: str, label: str) -> str:
    """The head with the label's name taken out, except where it is a word of a project's name said there
    («повесь метку onboarding на все задачи проекта Customer Onboarding»: the project says which ones)."""
    kept = [
        span.span()
        for m in await find(ctx, clause, "project", text=head)
        if m.score >= 0.9
        for span in re.finditer(rf"\b{re.escape(m.entity.name)}\b", head, flags=re.I)
    ]
    return re.sub(
        rf"\b{re.escape(label)}\b",
        lambda x: x.group(0) if any(a <= x.start() < b for a, b in kept) else " ",
        head,
        flags=re.I,
    )


_VERB_LAST = LazyRe(
    r"(?i)\s+(?:закрыть|закрой|закройте|заархивировать|заархивируй|архивировать|удалить|удали|close|archive|delete)\s*[.!]?$"
)


def _split_destination(text: str) -> tuple[str, str | None]:
    """ "move all in-review issues in ENG to Done" -> ("move all in-review issues in ENG", "Done");
    «все сделки в Negotiation переведи в Proposal»: the last "в"/"to" is where they go."""
    for m in reversed(list(_DESTINATION_AT.finditer(text))):
        if _ASSIGNED_BEFORE.search(text[: m.start()]):
            continue  # "close everything assigned to max", «закрой всё, что назначено на Макса»: whose, not where
        said = re.sub(r"\s*[.!]+$", "", text[m.end() :]).strip()
        said = re.sub(r"(?i)^(?:assign(?:ed)?|назначь|give)\s+(?:to\s+|на\s+)?", "", said)  # "→ assign мне"
        mine = re.match(r"(?i)(меня|мне|me|myself|себя)\s*[,;—–]", said)
        if mine:  # «…на меня, Олег и так перегружен»: to me; what follows the comma is why
            return text[: m.start()], mine.group(1)
        if not said or re.search(r"[,;]", said):
            continue
        said = re.sub(
            r"(?i)^(?:the|our)\s+(?=.+\s+project$)|\s+project$", "", said
        )  # "to the Q1 Launch project"
        words = said.split()
        # («в КП»: a stage said by its Russian abbreviation; "в ENG" says where)
        if (
            len(words) > 3
            or said.isupper()
            and said.isascii()
            or re.fullmatch(r"(?i)linear|линеар\w*|attio|crm", said)
        ):
            return text, None  # "в линеаре", "in ENG" say where, not what to set
        return text[: m.start()], said
    field = re.search(
        r"(?i)\b(?:(?:поставь|выставь|set)\s+)?(?:стади[юя]|stage)\s+[«\"']?([^\s«»\"',.;]+(?:\s+[^\s«»\"',.;]+)?)[»\"']?\s*[.!]?$",
        text,
    )
    if field:  # «Всем сделкам Анны поставь стадию Negotiation»: the stage said with its field's name
        return text[: field.start()], field.group(1)
    return text, None


async def _teams_named(ctx: BuildContext, text: str) -> list[str]:
    """Every team a bulk request names by its key ("в ENG и CS") or its name as written («команд Engineering и
    Design»), in the order said."""
    teams = await ctx.directory.teams()
    found = [
        (m.start(), t.name)
        for t in teams
        for said in (str(t.extra.get("key") or ""), t.name)
        if said
        for m in re.finditer(rf"(?<![\w-]){re.escape(said)}(?![\w-])", text)
    ]
    return list(dict.fromkeys(name for _, name in sorted(found)))


# "…on all issues assigned to me", «все задачи, назначенные на Олега»: which ones, said with the assign word
_ASSIGNED_AS_WHICH = LazyRe(
    r"(?i)\b(?:issues|tasks|tickets|bugs|ones|everything)\s+(?:that\s+are\s+|currently\s+)?assigned\s+to\s+\S+|"
    r",?\s*назначенн\w*\s+на\s+\S+"
)


def _assigns(clause: Clause, ctx: BuildContext) -> bool:
    """The change is a new assignee (not only "assigned to me" saying which issues)."""
    which = _ASSIGNED_AS_WHICH.search(clause.text)
    if not clause.has("assign") or which is None:
        return clause.has("assign")
    return analyse(f"{clause.text[: which.start()]} {clause.text[which.end() :]}", ctx.now).has("assign")


async def _states_named(ctx: BuildContext, text: str, changes: dict[str, Any]) -> list[str]:
    """The workflow states a bulk change says which issues are in ("from Todo and Backlog"), in the order said;
    not the state they go to."""
    states = {s.name for t in await ctx.directory.teams() for s in await ctx.directory.states(t.id)}
    target = str(changes.get("state") or "").lower()
    found = [
        (m.start(), name)
        for name in states
        if name.lower() != target
        for m in re.finditer(rf"(?i)(?<![\w-]){re.escape(name)}(?![\w-])", text)
        if not re.search(r"(?i)(?:\bв|\bво|\bна|\bto|\binto|->|→)\s*$", text[: m.start()])
        # («все тикеты, которые в In Progress и …»: where they are, not where they go)
        or _STATE_THEY_ARE_IN.search(text[: m.start()])
    ]
    return list(dict.fromkeys(name for _, name in sorted(found)))


_STATE_THEY_ARE_IN = LazyRe(
    r"(?i)\b(?:котор\w+|что|which\s+are|that\s+are|лежа\w*|наход\w+|вися\w*|висит|сидя\w*|стоя\w*|sitting|currently)"
    r"\s+(?:сейчас\s+)?(?:в|во|на|in)\s*$"
)


# "mine and Oleg's", «мои и Олега», "Oleg's and mine", «мои и олеговы сделки», "both mine and Max's": whose, two of them
_MINE_AND_THEIRS = LazyRe(
    r"(?i)\b(?:my|mine|мо[иейя]\w*)\b[^,;.]{0,30}\b(?:and|и|&|\+)\s+\w+|\b\w+(?:'s|а|я|ы)?\s+(?:and|и|&|\+)\s+(?:my|mine|мо[иейя]\w*)\b"
)


async def _assignees_named(
    clause: Clause, ctx: BuildContext, head: str, changes: dict[str, Any]
) -> list[str]:
    """The colleagues whose issues a bulk change is about (not the one it hands them to), in the order said."""
    said = [
        (min(m.positions or {0}), m.entity.name)
        for m in await find(ctx, clause, "user", text=head)
        if m.score >= 0.5 and m.entity.name != changes.get("assignee") and not m.entity.extra.get("is_me")
    ]
    return list(dict.fromkeys(name for _, name in sorted(said)))


async def _team(clause: Clause, ctx: BuildContext, text: str) -> Entity | None:
    for t in await ctx.directory.teams():
        if re.search(rf"\b{re.escape(str(t.extra.get('key')))}\b", text, re.I):
            return t
    named = [m for m in await find(ctx, clause, "team", text=text) if m.score >= 0.9]
    return named[0].entity if named else None


_LABEL_PUT_AS = LazyRe(r"(?i)\b(?:as|with)\s+(?:the\s+|a\s+)?[«\"']?([\w-]+)")
_LABEL_BEFORE_WORD = LazyRe(r"(?i)\b(?:the\s+|a\s+)?([\w-]+)\s+(?:label|tag)\b(?!\s*[:—-])")


async def _label(ctx: BuildContext, text: str, *, besides: frozenset[str] = frozenset()) -> str | None:
    """The label a bulk request names: the one after "label"/"метку" first ("повесь метку
    customer-request на все баги"), then any label's name or word ("bugs")."""
    names = [x.name for x in await ctx.directory.labels() if x.name not in besides]
    after = re.search(
        r"(?i)\b(?:метк\w*|лейбл\w*|тег\w*|label(?:led|ed)?|tag(?:ged)?)\s+[«\"']?([\w-]+)", text
    )
    if after:
        word = after.group(1).lower()
        hit = next((n for n in names if n.lower() == word), None) or _LABEL_WORDS.get(word)
        if hit and hit not in besides:
            return hit
    # "label all ENG bugs as customer-request", "tag every CS issue with customer-request"; then "add the security
    # label to all ENG bugs": the name said before the word "label"
    for pattern in (_LABEL_PUT_AS, _LABEL_BEFORE_WORD):
        said_as = pattern.search(text)
        hit = next((n for n in names if n.lower() == said_as.group(1).lower()), None) if said_as else None
        if hit and hit not in besides:
            return hit
    said = next(
        (v for w, v in _LABEL_WORDS.items() if v not in besides and re.search(rf"\b{w}\b", text, re.I)), None
    )
    named = [n for n in names if re.search(rf"\b{re.escape(n)}\b", text, re.I)]
    if not named:  # «все онбординг-задачи»: a label said in the other script is the same label
        said_keys = keys_for(text)
        named = [n for n in names if match_words(keys_for(n), said_keys, threshold=0.95)]
    return said or (named[0] if named else None)


async def _issue_filters(clause: Clause, ctx: BuildContext, head: str, changes: dict[str, Any]) -> Filters:
    team = await _team(clause, ctx, head)
    said_team = _TEAM_SAID.search(head)
    said = next((g for g in said_team.groups() if g), "") if said_team else ""
    word = said.split()[0] if said else ""  # (the name may run on: «команды Customer Success прошу …»)
    if word and not [m for m in await find(ctx, clause, "team", text=said) if m.score >= 0.9]:
        # «все задачи команды QA»: a team nobody has is asked about, never read as every team
        teams = await ctx.directory.teams()
        raise ctx.ask(
            "team",
            ctx.t(
                f"Команды «{word}» в Linear нет. Какая команда?",
                f"There is no team '{word}' in Linear. Which team?",
            ),
            choices=[(t.name, t.name) for t in teams[:5]],
        )
    projects = [m for m in await find(ctx, clause, "project", text=head) if m.score >= 0.9]
    bare = head
    for m in projects:  # "в проекте Customer Onboarding": its words are the project, not a label
        bare = re.sub(rf"\b{re.escape(m.entity.name)}\b", " ", bare, flags=re.I)
    changed = frozenset([*changes.get("labels_add", []), *changes.get("labels_remove", [])])
    label = await _label(ctx, bare, besides=changed)  # "…на все баги": the bugs are which issues
    # a workflow state named before the change: "move every Todo issue to In Progress"
    named_state = await state_named(ctx, bare)  # (or «в бэклоге»)
    # whose: "all maxs issues", "все задачи Олега"
    named = [m.entity for m in await find(ctx, clause, "user", text=bare) if m.score >= 0.5]
    owners = [u for u in named if not u.extra.get("is_me")]
    # "close all Anna's bugs" when Anna asks: hers, said by name
    mine = re.search(
        r"\b(?:my|mine|мо(?:и|их|им|ими|й|я|ю|ей|его|ё)|мне|на мне|у\s+меня|assigned\s+to\s+(?:me|myself)|"
        r"назначенн\w*\s+на\s+меня)\b",
        head,
        re.I,
    ) or (not owners and any(u.extra.get("is_me") and u.name != changes.get("assignee") for u in named))
    nobody = NOBODY.search(head)
    done_ones = re.search(  # "close all done issues": which ones ("mark all Max's issues done": the change)
        r"(?i)\b(?:done|closed|completed|finished|готов\w*|закрыт\w*|выполненн\w*)\s+(?:issues|tasks|tickets|bugs|"
        r"задач\w*|тикет\w*|баг\w*)\b",
        head,
    )
    if done_ones and named_state is None:
        named_state = "Done"
    if (
        named_state
        and not done_ones
        and (
            named_state in (changes.get("state"), changes.get("stage"))
            or changes.get("complete")
            and named_state == "Done"
        )
    ):
        named_state = None  # "mark all maxs issues done": "done" is the change, not which issues
    state = named_state or ("open" if changes.get("complete") or _OPEN.search(head) else None)
    others = [o for o in owners if o.name != changes.get("assignee")]  # "Oleg's issues to Max": Oleg's
    who = "none" if nobody else "me" if mine else others[0].name if others else None
    # "все urgent issues → assign мне": a priority that is not the change says which ones
    # and "bump every low priority issue to medium": the level said besides the new one is which ones
    besides = [name for name in priorities_said(bare) if name != changes.get("priority")]
    priority = besides[0] if len(besides) == 1 else None
    due_after, due_before = (
        due_range(bare, ctx) if _DUE_FILTER.search(bare) and "due" not in changes else (None, None)
    )
    return Filters(
        team=team.name if team else None,
        label=label,
        assignee=who,
        state=state,
        project=projects[0].entity.name if projects else None,
        priority=priority,
        due="none" if NO_DUE_DATE.search(bare) else "any" if ANY_DUE_DATE.search(bare) else None,
        due_before=due_before,
        due_after=due_after,
    )


_UNASSIGN = LazyRe(
    r"(?i)\bun-?assign(?!ed\b)\w*\b|\b(?:сними|снять|убери|убрать)\s+(?:всех\s+)?исполнител\w*|\bremove\s+(?:the\s+)?assignees?\b"
)


def _whose_said(clause: Clause, person: Mention) -> bool:
    """Whether a person named in a bulk request says whose records change: named after "all" («все сделки
    Олега»), or pointed at after it («Олег в отпуске, все его сделки …») — not only named before it as why
    («мы с олегом в отпуск с пн, все сделки перекинь на макса»: every deal)."""
    every = _ALL.search(clause.text) or _THEIR_ALL.search(clause.text)
    spans = key_spans(clause.text)
    at = spans[min(person.positions)][0] if person.positions and min(person.positions) < len(spans) else 0
    if every is None or at >= every.start():
        return True
    if re.search(r"(?i)\b(?:his|her|their|его|её|ее|их)\b", clause.text[every.start() :]):
        return True
    # («Олег уходит — все сделки на Макса»: his; only with the speaker away too is it every deal)
    return not re.search(
        r"(?i)\b(?:мы|we|i'?m|i\s+am|and\s+i|и\s+я|нас|our|наши\w*)\b", clause.text[: every.end()]
    )


async def _deal_filters(clause: Clause, ctx: BuildContext, head: str) -> Filters:
    stages = [m.entity.name for m in await find(ctx, clause, "stage", text=head) if m.score >= 1.0]
    owners = [
        m.entity.name
        for m in await find(ctx, clause, "member", text=head)
        if m.score >= 0.5 and (head != clause.text or _whose_said(clause, m))
    ]
    mine = re.search(r"\b(?:my|mine|мо(?:и|их|им|ими|й|я|ю|ей|его|ё))\b", head, re.I) or _I_OWN.search(head)
    return Filters(
        stage="open" if _OPEN.search(head) else stages[0] if stages else None,
        owner="me" if mine else owners[0] if owners else None,
        currency=currency_said(head),  # «все сделки в рублях»
    )


# "every deal I own", "deals owned by me", «сделки, которые веду я»: mine
_I_OWN = LazyRe(
    r"(?i)\b(?:(?:that|which)\s+)?i\s+(?:own|run|handle|manage)\b|\bowned\s+by\s+me\b|\b(?:которые\s+)?веду\s+я\b|\bя\s+веду\b"
)


# words a bulk request may carry besides its filters: the things, the quantifier, linking words
# a kind of issue said as which ones: it must become a label filter, or be asked about
_KIND_SAID = LazyRe(r"(?i)\b(?:bugs?|баг\w*|ошибк\w*|features?|фич\w*)\b")
_PLAIN = frozenset(
    "issue issues task tasks ticket tickets bug bugs deal deals record records everything all every each stuck sitting "
    "labelled labeled tagged label labels unassigned open opened active owner assignee assignees priority prio state "
    "stage status "
    "сними снять убери убрать повесь навесь from off take рублях рублей рубли руб rub rubles roubles usd dollars долларах долларов доллары евро eur euros "
    "рублевых рублевые рублевым долларовых долларовые dollar ruble rouble "
    "review progress backlog todo done urgent high medium low tag tagged with "
    "задача задачи задач задачам задачами тикет тикеты баг баги багов сделка сделки сделок сделкам все всех всем "
    "всё весь каждую каждый вообще метка меткой метки приоритет приоритетом статус стадия стадию открытые "
    "открытых незакрытые владелец владельцем ответственный исполнителя линеар линеаре linear attio crm "
    "команды команде команда team ревью проверке работе работу процессе бэклог закрытые готовые сделанные срочные "
    "срочными срочным срочный критичный высокий низкий средний лежит лежат висит висят находится находятся стоит стоят сидит "
    "sitting sits lying is are currently сейчас как лейбл лейблы лейблом таски тасков таска still забирает забирают берёт берет takes take неназначенные неназначенных ничьи ничьих both обе оба "
    "обеих обоих ещё еще пока out owns own owned has have holds "
    "принадлежат принадлежащие ведёт ведет без without that which doesn don does isn hasn yet already "
    "нет них ещё которые которых который которая которое где what who should go nobody никто across into teams "
    "команд командах currently get прошу просьба необходимо требуется следует нужно надо выставить проставить "
    "установить выставь проставь установи give hand of it them those these это эти они back обратно".split()
)
# words of a list asked for besides its filters ("what's still sitting in backlog right now?")
_ASKED_PLAIN = frozenset(
    "what's whats show list any anything нас у something there got have has currently right now rn anyone left "
    "due before after until by overdue глянь гляньте посмотри покажите найди найдите какие какая какой что есть "
    "осталось остались что-нибудь что-то просроченн просроченные просроченных "
    # «… и на какую сумму?», "how much is in there": a total asked with the list
    "сумму сумма какую сколько всего итого how much many total sum worth amount value count number "
    "do we does they are is".split()
)
# "everything in Todo should get a due date of …", «все они должны быть в Done»: a change asked for
_SHOULD = LazyRe(
    r"(?i)\b(?:should|must|needs?\s+to|has\s+to|have\s+to)\s+(?:get|have|be|go|move)\b|\bдолжн\w*\s+(?:быть|получить|уйти|перейти)\b"
)
_CAN_YOU = LazyRe(
    r"(?i)^\s*(?:а\s+)?(?:можешь|можете|can\s+you|could\s+you|ты\s+можешь|вы\s+можете)\b.*\?\s*$", re.S
)
_WHOSE = LazyRe(
    r"(?i)(?<![\w-])(?:его|её|ее|их|his|her|their|its|него|неё|нее)(?![\w-])"
    r"|\b(?:he|she|they)\s+(?:has|have|owns?|had)\b"  # "everything he has open in Linear"
)
_WHOSE_THINGS = LazyRe(
    r"(?i)(?<![\w-])(?:его|её|ее|their|his|her)\s+(?:[\w-]+\s+){0,2}?(?:issues|tasks|tickets|bugs|задач\w*|тикет\w*|баг\w*)\b"
    r"|\b(?:everything|all)\s+(?:that\s+)?(?:he|she|they)\s+(?:has|have|owns?|had)\b"  # "everything he has open"
    r"|\b(?:всё|все)\s*,?\s+что\s+(?:у\s+)?(?:него|неё|нее|них)\b"
)
_WHOSE_DEALS = LazyRe(
    r"(?i)(?<![\w-])(?:его|её|ее|their|his|her)\s+(?:[\w-]+\s+){0,2}?(?:deals|сделк\w*)\b"
    # "every deal he owns", «все сделки, которые он ведёт»: whose, said by a pronoun after the deals
    r"|\b(?:deals?|сделк\w*),?\s+(?:(?:that|which|которые|что)\s+)?(?:he|she|they|он|она|они)\s+"
    r"(?:owns?|has|have|runs?|manages?|handles?|is\s+running|ведёт|ведет|вела|вёл|вел|ведут)\b"
)
_NEGATED = LazyRe(
    r"(?i)\b(?:не|нет|no|not|without|без|never|doesn'?t|don'?t|isn'?t|aren'?t|hasn'?t|haven'?t|lacks?|lacking)\s+[^\W\d_]+"
)
_NEGATION_READ = LazyRe(
    r"(?i)(?:(?:doesn'?t|don'?t)\s+(?:have|carry)\s+(?:it|them|that|this)\b|"  # "… that doesn't have it yet": the change
    r"без\s+(?:исполнител|ассайн|assignee|owner|владельц|ответственн)|without\s+(?:an?\s+)?(?:assignee|owner)|"
    r"no\s+(?:assignee|owner|one)|not\s+(?:done|closed|"
    r"completed|finished|assigned)|не\s+(?:закрыт|выполнен|завершен|завершён|назначен|сделан))"
)
_LEAD_IN = LazyRe(
    r"(?i)[.!?;]\s+|,?\s+(?:поэтому|так\s+что|therefore|hence|so)\s+|\s[—–]\s"
    r"|^\s*(?:for|для|ради|чтобы)\s[^,]{1,40},\s*"  # "For sprint planning, move everything …"
    # «Я ухожу в отпуск, все мои сделки передай Олегу», "we're reorganising, move …": about themselves first
    r"|^\s*(?:я|мы|i'?m|i\s+am|we'?re|we\s+are)\s[^,]{1,60},\s*"
)
# "…, the 2.4 release fixed them all", «…, их починили в релизе», "…, we're resending terms to everyone": after
# the change, a sentence of its own (a verb in the past, or someone doing something) says why
_WHY_AFTER = LazyRe(
    r"(?i),\s+(?!(?:the\s+ones|those|ones|which|that|who|где|которые|которых|у\s+которых|что)\b)"
    r"(?=[^,]*\b(?:[a-z]+ed|shipped|went|gone|left|done|broke|(?:we|they|he|she|it)(?:'re|'s|\s+are|\s+is|\s+were|\s+was)|"
    r"[а-яё]+(?:ли|ла|лся|лись)|(?:is|are)\s+(?:out|live|over|done|ready)|начинаем|freeze|заморозк\w*|"
    r"[а-яё]{3,}(?:аем|яем|уем|ием|ём)(?:ся)?|[а-яё]{4,}(?:ал|ил|ял)|[a-z]+\s+(?:is|are)\s+[a-z]+ing)\b)[^,]+$"
    # («…, разгребаем бэклог по-другому»: what we are doing; «…, спринт стартовал»; "…, eng is moving to a new board")
    # «закрой вообще все задачи команды ENG релиз вышел», «… они уже пофикшены»: why, said without a comma
    r"|\s+(?:[^\W\d_]+\s+)?(?:вышел|вышла|вышли|(?:они|they)\s+(?:уже\s+|already\s+)?[^\W\d_]+)\s*[.!]?$"
    # "… to Oleg while she's on leave", "… until I'm back", «… пока Олег в отпуске»: for how long, and why
    r"|,?\s+(?:while|until|till|since|because|as\s+(?:she|he|they|we|i)|пока\s+(?:он|она|[а-яё]+\s+в)|потому\s+что|так\s+как)\b[^,]*$"
    # "… — leadership wants to see everything client-driven", «… — к этой дате закрываем квартал»: why, after a dash
    r"|\s[—–]\s+(?!(?:and|и|then|also|please|пожалуйста|потом|а\s+также)\b)(?![^—–]*\b(?:set|put|move|assign|close|поставь|"
    r"переведи|назначь|закрой)\b)[^—–]+$"
    # «все задачи олега перекинь на макса олег в отпуск уходит», «… он увольняется»: why, said without a comma
    r"|\s+(?:(?:он|она|они)\s+|[а-яё]+\s+)?(?:в\s+отпуск\w*(?:\s+(?:уходит|ушёл|ушел|ушла|уходят))?|уходит\b|увольня\w+|"
    r"уволил\w*|заболел\w*|на\s+больничном|будем\s+[а-яё]+)[^,]*[.!]?$"
)


def _why_after_all(text: str, every: re.Match[str] | None) -> re.Match[str] | None:
    """Why the change is asked, said after its "all" (none when nothing says "all", or why comes before it)."""
    why = _WHY_AFTER.search(text) if every else None
    return why if why and every and why.start() > every.end() else None


_ASIDE = LazyRe(r"\s*\([^()]{1,80}\)")  # "deals owned by Oleg → Max (Oleg on leave)": said aside
# "… for the audit", «… для аудита»: why, said at the end; no filter
_PURPOSE_TAIL = LazyRe(
    r"(?i)\s(?:for|для|ради)\s+(?:the\s+|our\s+)?[^\W\d_]+(?:\s+[^\W\d_]+)?\s*[.!]?$"
    r"|\s(?:so(?:\s+that)?\s+(?:we|i|they|you|he|she)\s|,?\s*чтобы\s)[^.!?]*[.!]?$"  # "… so we can plan the week"
)


async def _unread(
    clause: Clause,
    ctx: BuildContext,
    kinds: tuple[str, ...] = ("team", "member", "user", "stage", "project", "label", "company"),
    asked: bool = False,
    issues: bool = False,
) -> str:
    """Words of a bulk request that are no filter, change or record this rule understood (before
    'unassigned' was known, "every unassigned issue" meant every issue): a filter misread changes
    the wrong records, so it is asked about instead."""
    from planner.analysis import cue_words
    from planner.coverage import _EMPTY

    explained: set[int] = set()
    for kind in kinds:
        for m in await find(ctx, clause, kind):
            if m.score >= 0.5:
                explained |= set(m.positions)
    # a team's or a label's name said whole ("every Customer Success issue with customer-request"): each of
    # its words is that name, whichever the fuzzy match gave the shared word "customer" to
    spans = key_spans(clause.text)
    teams = await ctx.directory.teams()
    names = [t.name for t in teams] + [x.name for x in await ctx.directory.labels()]
    names += [
        str(t.extra["key"]) for t in teams if t.extra.get("key")
    ]  # ("all eng issues": a key, in lower case)
    for name in names:
        for said in re.finditer(rf"(?i)(?<![\w-]){re.escape(name)}(?![\w-])", clause.text):
            explained |= {i for i, (a, b) in enumerate(spans) if said.start() <= a and b <= said.end()}
    vocabulary = cue_words() | _PLAIN | _EMPTY | (_ASKED_PLAIN if asked else frozenset())
    purpose = _PURPOSE_TAIL.search(clause.text)
    # «Олег уходит в отпуск, поэтому переназначь все его задачи …»: what is told before the request, and
    # before the records it names, is why (its names are still read as filters)
    because = re.search(
        r"(?i),\s+(?:он|она|они|he|she|they|it|we|мы)(?:\s+|'s\s+|'re\s+|'ll\s+)[^,]*$", clause.text
    )  # ", он в отпуске", ", he's on vacation till Dec 10"
    every = _ALL.search(clause.text) or _THEIR_ALL.search(clause.text)
    told = [m.end() for m in _LEAD_IN.finditer(clause.text) if every and m.end() <= every.start()]
    told_until = told[-1] if told else 0
    nobody = [m.span() for m in NOBODY.finditer(clause.text)]  # «без assignee»: read as "no one's"
    # "due this week", "overdue": read as the due dates they fall between (`due_range`)
    nobody += [m.span() for m in _DUE_WORDS.finditer(clause.text)] if _DUE_FILTER.search(clause.text) else []
    dated = {
        i
        for i, (a, b) in enumerate(key_spans(clause.text))
        if any(s <= a and b <= e for s, e in [*clause.moment.spans, *nobody])  # "Dec 18" is the change's date
    }
    # "все issues в ENG — due 18 декабря, code freeze": a word said after the change, past a comma, says why
    change_end = max(
        [b for _, b in clause.moment.spans] + [m.end() for m in _DESTINATION_AT.finditer(clause.text)] + [0]
    )
    tail = re.search(r",\s+[^,]+$", clause.text)
    why_from = tail.start() if tail and change_end and tail.start() >= change_end else len(clause.text)
    # «…, оба всплывали у клиентов на этой неделе», ", they keep coming back": said of them, after the change
    said_of_them = re.search(r"(?i),\s+(?:оба|обе|both|they|они|we|мы|he|she|он|она)\b[^,]*$", clause.text)
    if said_of_them and every and said_of_them.start() > every.end():
        why_from = min(why_from, said_of_them.start())
    # "Housekeeping: archive every issue in ENG. We're migrating ENG …": the sentence with "every" is the request
    ends = [
        m.start() for m in re.finditer(r"[.!?]\s+(?=\S)", clause.text) if every and m.start() > every.end()
    ]
    if ends:
        why_from = min(why_from, ends[0])
    after_why = _why_after_all(clause.text, every)
    if after_why:
        why_from = min(why_from, after_why.start())
    asides = [m.span() for m in _ASIDE.finditer(clause.text)]
    words = [
        k.text
        for i, k in enumerate(clause.keys)
        if i not in explained
        and i not in dated
        and key_spans(clause.text)[i][0] < why_from
        and not (purpose and key_spans(clause.text)[i][0] >= purpose.start())
        and key_spans(clause.text)[i][0] >= told_until
        and not (because and key_spans(clause.text)[i][0] >= because.start())
        and not any(a <= key_spans(clause.text)[i][0] < b for a, b in asides)
        and len(k.text) > 2
        and not k.text.isdigit()
        and k.text not in vocabulary
        and not k.lemmas & vocabulary
    ]
    # a negated condition ("that has no due date", «у которых не установлен срок») is a filter this rule
    # cannot express: never dropped, so never "every issue"
    # (for issues "no due date" is read: the `due: none` filter; deals have no due date, so there it is not)
    undated = [m.span() for m in NO_DUE_DATE.finditer(clause.text)] if issues else []
    negated = [
        m.group(0)
        for m in _NEGATED.finditer(clause.text)
        if not _NEGATION_READ.match(clause.text, m.start())
        and not any(a <= m.start() < b for a, b in undated)
    ]
    return " ".join([*words, *negated])
