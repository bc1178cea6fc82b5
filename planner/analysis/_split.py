"""A message cut into the requests it makes: where one request ends and the next begins."""

from __future__ import annotations

import re
from datetime import datetime

from planner._lazy_re import LazyRe
from planner.analysis._clause import (
    A_QUOTE_ALONE,
    CHECK_LEFT,
    COMPLEMENT,
    CUES,
    DATIVE,
    ELLIPTIC,
    LEFT_ALONE,
    NEW_WORDS,
    OBJECT_START,
    PHRASES,
    RELATIVE,
    SPLIT,
    STATE_NOW_IF,
    STATE_OF_THEM,
    VERBISH,
    WHAT_OF,
    WHETHER,
    Clause,
    analyse,
    identifiers_in,
    joined_readings,
    reports_past,
    verb_count,
    without_query,
)
from planner.analysis._lists import (
    NEXT_LINE,
    NEXT_LINE_LEAD,
    bulleted_requests,
    day_planned,
    events_listed,
    meetings_listed,
    reminders_listed,
)
from planner.analysis._reasons import (
    ASKS_AFTER_A_DASH,
    AWAY,
    AWAY_FIRST,
    DOING_NOW,
    STANDING_RULE,
    WHY_I_ASK,
    is_reason,
)
from planner.text import IN_QUOTES, ISSUE_KEY, is_imperative, is_infinitive

# «по Globex», "re Globex", "about Romashka": a heading that names what the requests after its colon are about
# (a capitalised name: «по итогам:» says why, "for my manager:" whom for, not what)
_ABOUT_A_NAME = LazyRe(
    r"(?i:по|про|насч[её]т|re|about|regarding|on|for)\s+(?i:сделке\s+|компании\s+|the\s+)?"
    r"[A-ZА-ЯЁ][\w-]*(?:\s+[\w-]+){0,2}"
)

# «после демо с Acme Corp: сделку в КП, …»: when and with whom, then requests said without their verbs
_AFTER_MEETING_WITH = LazyRe(
    r"(?i:после|after)\s+(?i:the\s+|our\s+)?(?i:демо|встречи|звонка|созвона|demo|call|meeting)\s+(?i:с|with)\s+"
    r"[A-ZА-ЯЁ][\w-]*(?:\s+[\w-]+){0,2}"
)
# a question asked with its auxiliary or question word first ("Has …?", "Is …?", «Есть ли …?»)
_ASKED_FIRST = LazyRe(
    r"(?i)\s*(?:has|have|is|are|was|were|did|does|do|who|what|which|when|where|how|есть\s+ли|кто|что|какой|какая|"
    r"какие|сколько|когда|где)\b[^?]*\??\s*$"
)
# one field said once for several issues, each with its own value after its identifier
_ONE_FIELD_PER_ISSUE = LazyRe(
    r"(?i)(?:(?:set|new|change|update|re)\s*)?(?P<field>due\s+dates?|deadlines?|prioriti[ez]\w*|priorities|"
    r"сроки|дедлайны|приоритеты|статусы|states|statuses)\s*[:—–-]\s*"
    r"(?P<items>[A-Za-z]{1,10}-\d+\s+[^,;]+?(?:\s*(?:[,;]|\s(?:and|и)\s)\s*[A-Za-z]{1,10}-\d+\s+[^,;]+?)+)[.!]?"
)
_FIELD_WORD = (
    ("due", "due"), ("deadline", "due"), ("priorit", "priority"), ("сроки", "срок"), ("дедлайн", "срок"),
    ("приоритет", "приоритет"), ("статус", "→"), ("state", "→"), ("status", "→"),
)  # fmt: skip
_ID_FIRST = LazyRe(r"^([A-Za-z]{1,10}-\d+)\s+")


# items of a dictated list, counted aloud: «первое … второе …», «во-первых … во-вторых …», "firstly … secondly …"
_ENUMERATED = LazyRe(
    r"(?i)[,;.:]?\s*(?:(?<![\w-])(?:and|и)\s+)?(?<![\w-])(первое|второе|третье|четв[её]ртое|во-первых|во-вторых|в-третьих|в-четв[её]ртых|"
    # ("first thing close CS-14 … second thing move …": the count and the word "thing" said with it)
    r"firstly|secondly|thirdly|(?-i:first|second|third|fourth)(?:\s+thing(?:\s+is)?(?=,?\s)|(?=,?\s+(?-i:[a-z]+)\s)))(?![\w-])[,:]?\s*"
)
_THING_LISTED = LazyRe(
    r"(?i)\b(?:задач[уи]|таск[уи]?|an?\s+issue|an?\s+task)(?:\s+(?:в|in)\s+(?:linear|линеар\w*|crm|срм))?\b"
)
_PREPOSITIONS = frozenset("в во на к по для с in on to for at".split())
_FIRST_MARKS = frozenset({"первое", "во-первых", "firstly", "first"})
# a heading that only counts the requests that follow — no record named in it ("по Globex" would be their scene)
_COUNTED_HEADING = LazyRe(
    r"(?i)^(?:(?!\b(?:по|про|насчёт|для|с|со|about|for|on|re|with|regarding)\b)[^:;\n]){0,60}?\b"
    r"(?:несколько|пару|пара|две|три|четыре|пять|a\s+few|a\s+couple|several|two|three|four|five)\s+"
    r"(?:of\s+)?(?:вещ\w*|дел\w*|things|items|пункт\w*|просьб\w*|requests?)\s*:\s*"
    r"|^[^:;\n]{0,40}?\b(?:просил\w*|попросил\w*|asked(?:\s+me)?|wants)\s+(?:(?:сделать|to\s+do)\s+)?"
    r"(?:кое-что|something|a\s+few\s+things)\s*:\s*"
)
_COUNTED_THINGS = LazyRe(
    r"(?i)\b(?:несколько|пару|пара|две|три|четыре|пять|a\s+few|a\s+couple|several|two|three|four|five)\s+"
    r"(?:of\s+)?(?:вещ\w*|дел\w*|things|items|пункт\w*|просьб\w*|requests?)\b[^:]*:?\s*$"
)


# after a colon, a note or comment whose words are quoted, then «и …» / "and …": where the next request starts
_QUOTED_THING_THEN_ASK = LazyRe(
    r"(?i)\s*(?:заметк\w*|note|коммент\w*|комментари\w*|comment)(?:\s+[^«\"“:]{1,30}?)?\s*[:—–-]?\s*"
    r"(?:«[^«»]{2,}»|\"[^\"]{2,}\"|“[^”]{2,}”)\s*[,;]?\s+(?:и|and)\s+"
)


_QUOTE_THEN_AND = LazyRe(r"\s*(?:«[^«»]{2,}»|\"[^\"]{2,}\"|“[^”]{2,}”)\s*(?:[,;]|\s[—–-])?\s+(?:и|and)\s+")
_NOTE_OR_COMMENT = LazyRe(r"(?i)\b(?:заметк\w*|note|коммент\w*|комментари\w*|comment)\b")
# «такую же заметку к Globex», "the same note on Globex": the thing just said, again elsewhere
_THE_SAME_THING = LazyRe(r"(?i)(?:такую\s+же|ту\s+же(?:\s+самую)?|то\s+же\s+самое|the\s+same)\b")
_EACH_WITH_ITS_OWNER = LazyRe(r"(?s)(?P<head>[^:]{3,80}):\s*(?P<items>.+)")
_QUOTED_FOR = LazyRe(
    r"(?i)(?:^|\s*(?:,|;|\band\b|\bи\b)\s*)((?:'[^'\n]{3,}'|\"[^\"\n]{3,}\"|«[^«»\n]{3,}»|“[^“”\n]{3,}”)\s+"
    r"(?:for|для|на)\s+[^\W\d_][\w-]*(?:\s+(?-i:[A-ZА-ЯЁ])[\w-]*)?)"
)
_ONE_OF_THEM = LazyRe(
    r"(?i)\b(?:(two|three|four|five|2|3|4|5|две|три|четыре|пять)\s+)?(issues|tasks|tickets|bugs|задачи|задач|тикета|тикетов)\b"
)
_SINGULAR = {"issues": "an issue", "tasks": "a task", "tickets": "a ticket", "bugs": "a bug", "задачи": "задачу",
             "задач": "задачу", "тикета": "тикет", "тикетов": "тикет"}  # fmt: skip
_ASK_SOMEONE_NEXT = LazyRe(
    r"(?i),?\s+(?:and|then|also)\s+(?:please\s+)?(?:(?:ask|get|tell)\s+(?P<asked>(?-i:[A-Z])[\w-]+)\s+to|have\s+"
    r"(?P<had>(?-i:[A-Z])[\w-]+))\s+(?=[a-z])"
)


# «…, к сделке заметку — понравилась интеграция», «…, в Linear для ENG задачу оценить …»: a thing asked for in
# the accusative, its verb left out (said once for the whole message, or not at all)
_THING_WITHOUT_VERB = LazyRe(
    r"(?i)^\s*(?:(?:и|а|ещё|еще|плюс)\s+)?(?:(?:к|в|во|для|по|на)\s+[^—:,.;?]{1,40}?\s+)?"
    r"(?P<thing>заметку|задачу|таску|тикет)(?=\s*[—–:]|\s+что\b|\s+[а-яё]+(?:ть|ти|чь)(?:ся)?\b)"
)


_AN_ISSUE_TITLED = LazyRe(
    r"^\s*(?:(?P<who>[A-Z][a-z]+)\s*(?::|\s[—–-])\s*)?(?P<rest>(?i:(?:a|an|one|new)\s+)?(?:(?i:linear)\s+|[A-Z]{2,5}\s+)?"
    r"(?i:issue|ticket|bug)\s+(?:(?i:in|for)\s+(?:(?i:linear)\s+)?[A-Z]{2,5}\s*[:,]?\s*)?[\"«“])"
)
_A_NEW_DEAL_SAID = LazyRe(
    r"(?i)^\s*(?:(?:and|then|also)\s+)*(?:an?|new|another|one\s+more)\s+(?:(?:lead|new)\s+)?deal\s+"
    r"(?:['\"«“]|(?:called|named)\s|for\s+(?:them|it|this\s+company)\b)"
)
_AN_ISSUE_WITHOUT_VERB = LazyRe(
    r"(?i)^\s*(?:a|an|one)\s+(?:(?:linear|crm|attio|new|[A-Z]{2,5})\s+)?(?:issue|ticket|task|note)\s+"
    r"(?:(?:in|for|on)\s+\S+(?:\s+\S+)?\s+)?(?:to|about|for|saying)\s+[a-z]"
)
_A_THING_FOR_THEM = LazyRe(
    r"(?i)^\s*(?:(?:и|а|and)\s+)?(?:обеим|обоим|каждой|каждому|всем|им|ей|ему|both|each)\s+(?:по\s+)?(?:заметк\w*|задач\w*|a\s+note|notes?)\b"
)


_AND_FIRST = LazyRe(r"(?i)^\s*(?:(?:и|а|and|also|также|ещё|еще)[,\s]+)+(?=[^\W\d_])")


def with_its_verb(clause: Clause, now: datetime) -> Clause:
    """A piece of a longer message that asks for a note or a task without a verb, given the verb it implies;
    and one that starts with "and" («И поставь созвон …», "And also book …") without it (the rules read a
    request from its verb, and a title is never "И поставь …")."""
    lead = _AND_FIRST.match(clause.text)
    if lead:
        clause = analyse(clause.text[lead.end() :], now)
    titled = _AN_ISSUE_TITLED.match(clause.text)
    if titled and not clause.text.rstrip().endswith("?") and not clause.has("query"):
        # an action item "Oleg: Linear issue in ENG "SAML SSO …", due Dec 11": a new issue, and whose it is
        who = titled["who"]
        made = f"create {clause.text[titled.start('rest') :].strip()}"
        return analyse(f"{made}, assignee {who}" if who else made, now)
    if (
        _A_NEW_DEAL_SAID.match(clause.text)
        and not clause.text.rstrip().endswith("?")
        and not verb_count(clause)
    ):
        # "…. Then a deal 'Stark POC' for them, 8000 USD, stage Lead": one more record asked for, its verb unsaid
        return analyse(f"create {clause.text.strip()}", now)
    english = _AN_ISSUE_WITHOUT_VERB.match(clause.text)
    if english and not clause.text.rstrip().endswith(
        "?"
    ):  # "…, and a Linear issue in CS to prepare the plan"
        return analyse(f"create {clause.text.strip()}", now)
    m = _THING_WITHOUT_VERB.match(clause.text)
    if m is None or verb_count(clause) or clause.text.rstrip().endswith("?"):
        return clause
    verb = "добавь" if m.group("thing").lower() == "заметку" else "заведи"
    return analyse(f"{verb} {clause.text.strip()}", now)


def split_clauses(text: str, now: datetime) -> list[Clause]:
    """Split "переведи в Won и создай задачи" into clauses, but only where each side has its own verb
    (so "Acme and Globex" or a list after a colon stays whole)."""
    counted = _COUNTED_HEADING.match(text)
    if counted and ";" in text[counted.end() :]:
        text = text[counted.end() :]  # «Анна просила сделать несколько вещей: …; …»: the heading asks nothing
    marks = _ENUMERATED.findall(IN_QUOTES.sub(" ", text))  # (someone's words, quoted, are no list of mine)
    # (a later place, not "first" again: "you are first on the list … the first half of next year" lists nothing)
    marks = [m.lower().split()[0] for m in marks]  # ("first thing": the count)
    if len(marks) >= 2 and marks[0] in _FIRST_MARKS and marks[1] not in _FIRST_MARKS:
        # «…по umbrella первое создай сделку …второе поставь мне созвон …» (dictated): each item its own request
        first = _ENUMERATED.search(text)
        assert first is not None
        head = text[: first.start()]
        if (
            len(head.split()) <= 5
            and not verb_count(analyse(head, now))
            # «Анна просила сделать несколько вещей: во-первых, …»: the heading counts what follows
            or len(head.split()) <= 10
            and _COUNTED_THINGS.search(head)
        ):
            text = text[first.start() :]  # «короче две вещи первое …»: the heading counts them, asks nothing
        # (each item read apart: «…второе максу в дизайн нарисовать …» is never the first item's words)
        items = [x.strip(" ;,.") for x in _ENUMERATED.sub("\x00", text).split("\x00") if x.strip(" ;,.")]
        thing = _THING_LISTED.search(items[0]) if items else None
        for n, item in enumerate(items[1:], 1):
            if thing and not analyse(item, now).has("task", "issue", "note", "deal", "meeting", "create"):
                # «первое олегу задачу в Linear …, второе максу в дизайн …»: the second is one more of the same
                who, _, rest = item.partition(" ")
                items[n] = (
                    f"{thing.group(0)} {item}"
                    if who.lower() in _PREPOSITIONS
                    else f"{who} {thing.group(0)} {rest}"
                )
        return [c for x in items for c in split_clauses(x, now)]
    bulleted = bulleted_requests(text, now, split_clauses)
    if bulleted is not None:
        return bulleted
    owned = _EACH_WITH_ITS_OWNER.fullmatch(text.strip())
    if owned:  # "Create two issues in ENG: 'A' for Oleg and 'B' for Max": each item with its own assignee
        items = _QUOTED_FOR.findall(owned.group("items"))
        if len(items) >= 2 and _QUOTED_FOR.sub("", owned.group("items")).strip(" ,;") in ("", "and", "и"):
            head = _ONE_OF_THEM.sub(
                lambda m: _SINGULAR.get(m.group(2).lower(), m.group(2)), owned.group("head")
            )
            return [analyse(f"{head}: {item.strip()}", now) for item in items]
    # "…, and ask Max to prepare the demo": a colleague asked to do something is a request of its own
    text = _ASK_SOMEONE_NEXT.sub(lambda m: f"; remind {m['asked'] or m['had']} to ", text)
    per_issue = _ONE_FIELD_PER_ISSUE.fullmatch(text.strip())
    if (
        per_issue
    ):  # "due dates: ENG-102 Friday, ENG-104 next Monday", «приоритеты: ENG-104 высокий, ENG-102 низкий»
        said = per_issue.group("field").lower()
        word = next(w for stem, w in _FIELD_WORD if said.startswith(stem))
        items = re.split(
            r"\s*[,;]\s*(?:(?:and|и)\s+)?|\s+(?:and|и)\s+(?=[A-Za-z]{1,10}-\d)", per_issue.group("items")
        )
        return [
            c
            for x in items
            if x.strip()
            for c in split_clauses(_ID_FIRST.sub(rf"\1 {word} ", x.strip()), now)
        ]
    away = AWAY_FIRST.match(text)
    if away and AWAY.match(away.group(1)) and verb_count(analyse(text[away.end() :], now)):
        # "Oleg is out sick, reassign all his open issues to Max": why first, then the request (no filter of it)
        why = analyse(away.group(1), now)
        why.reason = True
        return [why, *split_clauses(text[away.end() :], now)]
    lines = [x.strip() for x in text.splitlines() if x.strip()]
    if len(lines) > 1 and all(
        NEXT_LINE.match(x) or _starts_with_verb(analyse(x, now)) or _ID_THEN_WORDS.match(x) for x in lines[1:]
    ):  # (a line that starts with an issue and says its change — "ENG-103 → todo" — is one too)
        # "issue: export to xlsx, label …\nthen note on acme: …": each line a request of its own
        return [c for x in lines for c in split_clauses(NEXT_LINE_LEAD.sub("", x), now)]
    first_colon = text.find(":")
    sentence = (
        re.search(r"[.!?]\s+(?=[A-ZА-ЯЁ«\"])", text)
        or next(
            (  # typed in lower case: «щас говорил с марией. закинь заметку в альфа-лизинг: …», a new request
                m
                for m in re.finditer(r"[.!?]\s+(?=[a-zа-яё])", text[: max(first_colon, 0)])
                if _starts_with_verb(analyse(text[m.end() : first_colon], now))
            ),
            None,
        )
    )
    if sentence and first_colon > sentence.start():  # "Ромашка подписала! Сделку в выиграна, и заметку: …"
        return [
            *split_clauses(text[: sentence.start() + 1], now),
            *split_clauses(text[sentence.end() :], now),
        ]
    head, colon, tail = text.partition(":")
    # a heading, then items each a request of its own: meetings, reminders, events on a day, a day's plan
    for listed in (meetings_listed, reminders_listed, events_listed, day_planned) if colon else ():
        each = listed(head, tail, now, split_clauses)
        if each:
            return each
    if colon and (
        not re.search(r"\d$", head)
        # "Comment on ENG-106: … — `GET /v1/me` …": after an issue's key, a comment's words (in "в 14:30" a time)
        or re.search(r"[A-Za-z]{2,5}-\d+$", head) is not None
        # "Create sub-issues under ENG-105: a, b, c": the list is what to create
        and (
            analyse(head, now).has(
                "comment", "create", "note", "due", "priority"
            )  # ("Due date for CS-13: Dec 5")
            or bool(_DESCRIBED.search(head))  # «обнови описание ENG-101: …»
        )
    ):
        # "…: renewal signed for 2 years. Also create a Linear issue to …": the content ends where a new
        # sentence starts a request of its own
        # (a bug report's "Окружение: … Шаги: … Заведи баг в ENG: …": the first sentence that asks, not the first)
        # ('comment on ENG-106 what customer sent us: "… Please delete ENG-106 …"': their words, quoted, are
        # the comment's — no request of mine starts inside them)
        inside = (
            [q.span() for q in re.finditer(r"\"[^\"]{2,}\"|«[^«»]*»|“[^“”]*”", tail)]
            if analyse(head, now).has("comment", "note", "note_verb") or _DESCRIBED.search(head)
            else []
        )
        after = next(
            (
                m
                for n, m in enumerate(_NEXT_REQUEST.finditer(tail))
                # (past the first, only a new sentence: "…: A; Fix B; Add C" lists items, each a title)
                if not any(a < m.start() < b for a, b in inside)
                and (n == 0 or re.match(r"[.!?]", m.group(0)))
                and _asks_next(tail[m.end() :], now)
                # «ENG-101 описание: таймаут мал для 3G, поднять до 90с»: the description's own words go on
                and not (
                    _DESCRIBED.search(head)
                    and (
                        _infinitive_first(tail[m.end() :])
                        or not re.match(r"[.!?]", m.group(0))
                        and not _imperative_first(tail[m.end() :])
                        or bool(_ADD_THAT.fullmatch(tail[m.end() :].strip()))
                    )
                )
                # «глобекс: заметка — …; сумма 27к»: after a semicolon, a field and its value are the next change
                or ";" in m.group(0)
                and _FIELD_VALUE.match(tail[m.end() :])
                and bool(re.search(r"\d", tail[m.end() :]))
            ),
            None,
        )
        pointed = _COMMA_THEN_NOTE_IT.search(tail)  # «…причина: выбрали конкурента, запиши это заметкой»
        if pointed and (after is None or pointed.start() < after.start()):
            after = pointed
        if analyse(head, now).has("note", "comment", "note_verb"):
            # "add a note to the deal: they need a WMS integration, remind me to send …": a note's words end
            # where a comma opens a request only a person asks of me (a reminder for me, a meeting to book)
            asked_of_me = next(
                (
                    m
                    for m in _COMMA_THEN_ASKED_OF_ME.finditer(tail)
                    if not any(a < m.start() < b for a, b in inside)
                ),
                None,
            )
            if asked_of_me and (after is None or asked_of_me.start() < after.start()):
                after = asked_of_me
        if after:
            return [
                *split_clauses(head + ":" + tail[: after.start()], now),
                # (the rest read as a message of its own where a colon in it is followed by another sentence:
                # «… . В Linear в CS задачу на Олега: подготовить … . И поставь мне созвон …»)
                *(
                    split_clauses(tail[after.end() :], now)
                    if re.search(r":[^.!?]*[.!?]\s+\S", tail[after.end() :])
                    else _split(tail[after.end() :], now)
                ),
            ]
        joined = _DASH_AND.search(tail)  # "…: Ольга, olga@…, юрист — и заметку к сделке X: …"
        verb = _first_verb(analyse(head, now))
        if joined and verb and OBJECT_START.match(tail[joined.end() :]):
            rest = f"{verb} {tail[joined.end() :]}"
            return [*split_clauses(head + ":" + tail[: joined.start()], now), *split_clauses(rest, now)]
        # «Прошу перевести ENG-101 на ревью: исправление готово, …»: a change said whole, then why — the words
        # after the colon are no content of it (a comment, a note, a title or a new name would be)
        asked = analyse(head, now)
        if (
            asked.identifiers
            and asked.has("move", "put", "assign", "complete", "archive")
            and not asked.has("comment", "note", "note_verb", "rename", "create", "task", "issue")
            and _OWN_CHANGE.search(head)
            and not _starts_with_verb(analyse(tail, now))
            and not ASKS_AFTER_A_DASH.search(tail)  # "…: github.com/… — drop the link in a comment too"
            and not _imperative_first(tail)
            and not _INTO_PARTS.search(head)  # «Разбей ENG-103 на подзадачи: воспроизвести баг, …»: the parts
        ):
            why = analyse(tail.strip(), now)
            why.reason = True
            return [*_split(head, now), why]
        quoted_first = _QUOTED_THING_THEN_ASK.match(tail) or (
            _QUOTE_THEN_AND.match(tail) if _NOTE_OR_COMMENT.search(head) or _DESCRIBED.search(head) else None
        )  # («Добавь заметку к Initech: «…» — и такую же заметку к Globex»: the head says what the quote is)
        rest = tail[quoted_first.end() :].strip() if quoted_first else ""
        if quoted_first and (
            _starts_with_verb(analyse(rest, now))
            or _THING_FOR.match(rest)
            or _LEADS_WITH_THING.match(rest)
            or _THE_SAME_THING.match(rest)
        ):
            # «По Джону Смиту: заметка «просит демо …» и напомни мне в четверг …»: the quote ends what the colon
            # introduced; what follows it is a request of its own
            quoted_part = re.sub(r"(?i)[\s,;—–-]*(?:\bи|\band)?\s*$", "", tail[: quoted_first.end()])
            said_first = split_clauses(f"{head}:{quoted_part}".rstrip(), now)
            said_first[-1] = analyse(re.sub(r"(?i)\s+(?:и|and)$", "", said_first[-1].text), now)
            return [*said_first, *split_clauses(rest, now)]
        next_thing = _NEXT_THING_ASKED.search(tail) if _NOTE_OR_COMMENT.search(head) else None
        if next_thing:
            # "log a note on it: no budget till Q3. Then a Linear issue for Oleg: send them …": the note's words end
            # with their sentence; a new thing asked for in the next one is a request of its own
            said_first = split_clauses(f"{head}:{tail[: next_thing.start() + 1]}".rstrip(), now)
            return [*said_first, *split_clauses(tail[next_thing.start() + 1 :].strip(), now)]
        # a colon introduces content (a title, a note, a list): split only the part before it
        parts = _split(head, now)
        parts[-1] = analyse(parts[-1].text + ":" + tail, now)
        before = analyse(head, now)
        # "Ромашка подписала договор: переведи сделку в Won и создай задачи" - the head is a statement
        statement = not before.has(*(v for v in VERBISH if v not in ("signed", "refused", "lost")))
        tail_clause = analyse(tail, now)
        # «CS-13 готова: закройте её и оставьте комментарий …»: a state said of a record ("готова" is no
        # command), then what to do with it
        statement = statement or bool(
            before.identifiers and not _starts_with_verb(before) and _starts_with_verb(tail_clause)
        )
        statement = statement and not _INTO_PARTS.search(head)  # «Разбей ENG-103 на подзадачи: …»: the parts
        # "нужна задача для команды CS: подготовить …" names what the text after the colon is
        introduces = before.has("task", "issue", "note", "project", "comment") or bool(
            _DESCRIBED.search(head)
        )
        fields = [
            x.strip(" .")
            for x in re.split(r"\s*[,;]\s*(?:и\s+|and\s+)?|\s+(?:и|and)\s+", tail)
            if x.strip(" .")
        ]
        if (
            len(parts) == 1
            and not verb_count(before)
            and len(fields) > 1
            and all(_FIELD_VALUE.match(x) for x in fields)
        ):  # "globex pilot: owner max, amount 35k": one record's fields, one change
            return [analyse(text, now)]
        if (
            len(parts) == 1
            and not before.identifiers
            and not re.search(r"[«»\"“”]|[.!?]\s+\S", tail)  # (one request said plainly, no quote of its own)
            and (
                _ABOUT_A_NAME.fullmatch(head.strip())
                and _starts_with_verb(tail_clause) | verb_count(tail_clause)
                # «после демо с Acme Corp: сделку в КП, к сделке заметку …»: the first request elliptic
                or _AFTER_MEETING_WITH.fullmatch(head.strip())
                and "," in tail
                and bool(ELLIPTIC.search(first_piece := tail.split(",", 1)[0].strip()))
                and not verb_count(analyse(first_piece, now))
            )
            and not re.search(r"(?<!\d):|:(?!\d)", tail)
        ):  # «по Globex: сумму сделки поменяй на 32 тысячи и добавь заметку …»: what the requests are
            # about, then the requests — as if said with a comma, so each one finds the record
            return split_clauses(f"{head.strip()}, {tail.strip()}", now)
        if (
            len(parts) == 1
            and statement
            and not introduces
            and verb_count(tail_clause)
            and not re.search(r"(?<!\d):|:(?!\d)", tail)  # (a time's colon, «в 11:00», is no heading)
            and len(tail.split()) > 1  # "acme logistics pilot: lost": one word is what the record is now
            and len(tail_parts := _split(tail.strip(), now)) > (1 if ":" in tail else 0)
        ):
            if (
                not verb_count(before)
                and not before.identifiers
                and len(head.split()) <= 5
                and _RECORD_CHANGE.match(tail.strip())
                and not tail_clause.has("task", "issue", "note", "note_verb", "meeting", "block", "create")
            ):  # "Globex pilot: amount → 32,500 USD", "Acme Logistics pilot: bump to 15k, stage → …": the
                # record named, then its changes: requests about it, as if said with a comma
                return split_clauses(f"{head}, {tail.strip()}", now)
            before.context = not verb_count(before)
            return [before, *tail_parts] if tail_parts else parts
        if (
            len(parts) == 1
            and statement
            and not introduces
            and not before.identifiers
            and verb_count(tail_clause)
            and re.search(r"(?<!\d):|:(?!\d)", tail)
            and len(head.split()) <= 6
            and len(tail_pieces := split_clauses(tail.strip(), now)) > 1
            and not any(":" in p.text for p in tail_pieces[:-1])  # (the last one's colon is its own)
            # each one a request (or a thing and where it goes: «…, и заметку к сделке: …»)
            and all(
                verb_count(p)
                or ELLIPTIC.search(p.text)
                or _THING_FOR.match(p.text)
                or LEFT_ALONE.search(p.text)
                for p in tail_pieces
            )  # («…, ENG-106 оставляем как есть»: one left as it is)
        ):  # «Итак, по итогам: ENG-102 в работу, CS-15 закрыть, прокомментируй ENG-106: ждём окно»: the heading
            # says why; each piece after it is a request, the last one's colon its own
            before.context = not verb_count(before)
            return [before, *tail_pieces]
        items = [
            x
            for x in re.split(
                r"\s*,\s*(?:и\s+|and\s+)?|\s+(?:и|and)\s+(?=(?:заметк|встреч|созвон|задач|note|meeting|call|task|онбординг|"
                r"onboarding|продлени|renewal)\w*\b)",
                tail,
            )
            if x.strip()
        ]
        if len(parts) == 1 and statement and not introduces and len(items) > 1 and all(ELLIPTIC.search(x) or
                _LEADS_WITH_THING.match(x.strip()) or _FIELD_VALUE.match(x.strip())
                or _OUTCOME_ALONE.fullmatch(x.strip()) and before.has("signed") for x in items):  # fmt: skip
            # "Ромашка подписала: сделку в выигранные, онбординг в Linear, и созвон с Иваном в четверг"
            before.context = not verb_count(before)
            return [before, *(analyse(x.strip(), now) for x in items)]
        return parts
    return _split(text, now)


_DASH_AND = LazyRe(r"\s+[—–-]\s+(?:и|а\s+также|and|plus)\s+(?=\S)", re.I)
_NEXT_REQUEST = LazyRe(
    # (", note: signed" after a deal's fields: a note of its own, headed by its word)
    r"(?:,\s+(?=(?:(?:ну|да|так)\s+)?(?:и|а\s+также|and|also|then|затем|потом)\s)|\s+[—–-]\s+(?=(?:и|and|а\s+также|also)\s)|[.!?;]\s+"
    r"|,\s+(?=(?:note|заметк[аиу])\s*:\s*\S))"
    r"(?:(?:ну|да|так)\s+)?(?:(?:also|and|then|и|а\s+ещё|а\s+еще|ещё|еще|также|потом)[,\s]+)?(?=\S)",
    re.I,
)
_COMMA_THEN_NOTE_IT = LazyRe(
    r"(?i),\s+(?:(?:and|и|а)\s+)?(?=(?:запиши|занеси|добавь|сохрани|зафиксируй|log|add|save|put|note)\s+(?:это|его|её|ее|it|this|that)\s+"
    r"(?:as\s+a\s+note|заметк\w*|в\s+заметк\w*|in\s+a\s+note|to\s+the\s+deal|к\s+сделке|в\s+сделку)\b)"
)
_COMMA_THEN_ASKED_OF_ME = LazyRe(
    r"(?i),\s+(?:(?:and|и|а|also|плюс|plus)\s+)?(?:please\s+|пожалуйста\s+)?"
    r"(?=(?:remind\s+me|напомни(?:те)?\s+мне|book\s+(?:a|an|me)\b|schedule\s+(?:a|an)\b|забронируй|"
    r"поставь\s+(?:мне\s+)?(?:встречу|созвон)|create\s+(?:a|an)\s+(?:task|issue|reminder)|заведи\s+задачу|создай\s+задачу)\b)"
)
# «Acme Logistics подписали пилот: Won и онбординг в Linear»: the deal's outcome, said alone as an item
_OUTCOME_ALONE = LazyRe(r"(?i)(?:в\s+|to\s+)?(?:won|lost|выигран\w*|проигран\w*)[.!]?")
# a field of an issue set without a verb: "due dec 10", «срок пятница», "priority high"
_ISSUE_FIELD_SET = LazyRe(  # (not "ENG-105 is due Dec 15 but …, push it to Dec 22": how it stands, said as why)
    r"(?i)(?<!\bis\s)(?<!\bwas\s)(?<!'s\s)\b(?:due(?:\s+date)?|deadline|срок|дедлайн)\s*(?:[:—–-]|to|на|до|→|->)?\s*(?:\d|(?:mon|tue|wed|thu|fri|sat|sun|"
    r"tomorrow|today|next|end|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|понедельн|вторн|сред|четверг|пятниц|суббот|"
    r"воскрес|завтра|сегодня|послезавтра|следующ|конц|январ|феврал|март|апрел|ма[йя]|июн|июл|август|сентябр|октябр|"
    r"ноябр|декабр)\w*)"
    r"|\b(?:priority|prio|приоритет)\s*(?:[:—–-]|to|на|→|->)?\s*(?:urgent|high|medium|low|none|срочн\w*|высок\w*|"
    r"средн\w*|низк\w*|[1-4]\b)"
)
# an item of a list that names a thing to do: "онбординг в Linear", "созвон с Иваном в четверг"
# an item that sets a field: «сумма 55 000», "amount 60k", «стадия переговоры»
_FIELD_VALUE = LazyRe(r"(?i)^(?:сумм\w*|amount|value|стади\w*|stage|owner|ответственн\w*)\s*[:—-]?\s*\S")
# the first thing said of a deal after its name: a field and its new value, or "bump (it) to 15k"
_RECORD_CHANGE = LazyRe(
    r"(?i)^(?:(?:сумм\w*|amount|value|стади\w*|stage|owner|ответственн\w*|владел\w*)\s*(?:→|->)"
    r"|(?:bump|raise|increase|lower|make|set|up)\s+(?:it\s+)?(?:up\s+)?(?:to\s+)?[$€]?\d"
    r"|(?:подним\w*|подними|увелич\w*|сниз\w*|поставь)\s+(?:её\s+|ее\s+)?(?:до\s+|на\s+)?\d"
    # «Ли Вэй: поменяй email на …», "John Smith: update the title to CFO": a field of the record named, changed
    r"|(?:поменяй|измени|обнови|смени|поправь|поставь|переведи|change|update|set|fix|switch)\s+(?:(?:the|his|her|their|its|ему|ей)\s+)?"
    r"(?:e-?mail|почту|телефон|phone|должность|title|job\s+title|position|домен|domain|сумму|amount|стадию|stage|"
    r"владельца|owner|название|name|валюту|currency)\b"
    r"|(?:сумм\w*|amount|value)\s+(?:было|была|was)\b"  # ("amount было 30к, ставь 27 500": then what it is to be)
    # ("Acme Logistics pilot: bump to Qualification, owner Max": where the record goes, then more of its change)
    r"|(?:move|bump|push|put|переведи|перенеси|двинь|передвинь|двигай)\s+(?:it\s+|её\s+|ее\s+|его\s+)?(?:to|into|в|во|на)\s+\S+[^,;]*,"
    r"\s*(?:owner|владел\w*|ответственн\w*|сумм\w*|amount|value)\b)"
)
# a template's word said alone: "… + onboarding", «и онбординг»
TEMPLATE_ALONE = LazyRe(
    r"(?i)\s*(?:(?:and|и|\+|then|потом|also|ещё|еще)\s+)*(?:the\s+)?(?:onboarding|онбординг\w*|renewal|продлени\w*)"
    r"(?:\s+(?:tasks|template|задачи|шаблон\w*))?(?:\s+(?:in|в)\s+(?:linear|линеар\w*))?\s*[.!]*\s*"
)
_LEADS_WITH_THING = LazyRe(
    rf"(?i)^(?:(?:{DATIVE})\s+)?(?:онбординг\w*|onboarding|продлени\w*|renewal|созвон\w*|встреч\w*|meeting|call|задач\w*|тикет\w*|баг\w*|bug|"
    r"issue|task|заметк\w*|note|сделк\w*|deal|(?:an?\s+)?(?:\d+\s*(?:h|hr|hour|min)\w*[\s-]+)?(?:kick-?off|sync|demo))\b"
)


# a verb said alone, with nothing but fillers after it: what it is for comes in the next piece
_BARE_VERB = LazyRe(
    r"(?i)(?:(?:так|ну|короче|so|okay|ok|um+|uh+)[,\s]+)*(?:запиши|заведи|создай|добавь|поставь|сделай|create|add|make|log|"
    r"put|set)(?:[,\s.…]+(?:э+|эм+|ну|короче|так|um+|uh+|like|please|пожалуйста))*[,\s.…]*"
)
_IT_TO_STAGE = LazyRe(
    r"(?i)(?:(?:and|и)\s+)?(?:put|set|move|mark|поставь|переведи|отправь)\s+(?:it|её|ее|его)\s+(?:in|into|to|as|at|в|на)\s+\S+(?:\s+\S+)?\s*[.!]?"
)
_ARROW = LazyRe(r"\S\s*(?:→|->|=>)\s*\S+(?:\s+\S+)?\s*[.!]?$")
_MAKE_IT = LazyRe(
    r"(?i)(?:(?:and|и)\s+)?(?:please\s+|пожалуйста\s+)?(?:make|turn|log|save|put)\s+(?:that|it|this)\s+(?:in(?:to)?\s+|as\s+)?"
    # ("put it in Todo" moves an issue to the state: a to-do is said with its article)
    r"(?:an?\s+)?(?:(?:crm\s+|attio\s+|linear\s+)?(?:task|issue|ticket|reminder)|(?<=a\s)to-?do|my\s+to-?do)"
    r"(?:\s+(?:in|for)\s+\S+)?\s*[.!]*"
    r"|(?:сделай|оформи|заведи)\s+(?:это|её|ее|его)\s+(?:как\s+)?(?:задач\w*|тикет\w*|напоминани\w*)(?:\s+в\s+\S+)?\s*[.!]*"
)
_UPDATE_IT = LazyRe(
    r"(?i)(?:(?:и|and|so|так\s+что)\s+)?(?:please\s+|пожалуйста\s+)?(?:обнови(?:те)?|поправь(?:те)?|исправь(?:те)?|"
    r"внеси|отрази|зафиксируй|update|fix|change|correct|apply|save|reflect|do)(?:\s+(?:it|this|that|это|его|её|ее|them|их))?"
    r"(?:\s+(?:в|in|on)\s+(?:the\s+)?(?:crm|attio|црм|аттио|record|карточке))?(?:\s+(?:please|пожалуйста))?\s*[.!]*"
)
_TOTAL_TOO = LazyRe(
    r"(?i)(?:(?:и|а|and|plus)\s+)?(?:на\s+какую\s+(?:общую\s+)?сумму|какая\s+(?:по\s+ним\s+|у\s+них\s+)?сумма|их\s+сумм\w*|"
    r"(?:the\s+|their\s+)?(?:total|sum)(?:\s+value)?|how\s+much(?:\s+in\s+total|\s+(?:they(?:'re|\s+are)|it'?s)\s+worth)?|"
    r"what(?:'s|\s+is)\s+the\s+total)(?:\s+(?:в|in)\s+\w+)?\s*[?.!]*"
)


# "everything in Todo for CS, …": which records a change said next is for
_ALL_OF_THEM = LazyRe(r"(?i)\b(?:all|every|each|все|всё|всех|всем|каждую|каждый)\b")
# what says which of them, after a comma: a participle or a relative clause («назначенные на меня», "assigned to me")
_WHICH_ONES = LazyRe(
    r"(?i)(?:(?:only\s+)?(?:the\s+ones|those)\b|только\s+(?:те|мои|его|её|ее)\b|те,?\s+(?:что|которые)\b|назначенн\w*|висящ\w*|открыт\w*|просроченн\w*|помеченн\w*|которы[ея]\w*|что\s+(?:висят|назначен\w*|в\s)|"
    r"assigned|owned|tagged|label(?:l)?ed|that\s+(?:are|have)|which\s+(?:are|have)|with(?:out)?\s+(?:a\s+|the\s+)?"
    r"(?:label|due|assignee|owner)|без\s+(?:исполнител|срок|метк))"
)
_QUANTIFIED = LazyRe(r"(?i)^\s*(?:all|every|everything|each|все|всё|всех|каждую|каждый)\b")

# pieces that only finish the request before them: "… Please make that a CRM task", «…, обнови в CRM»
# (the news is the change), "сколько сделок в рублях и на какую сумму" (one read, totalled)
# "… a call on Friday at 3pm. Put it in my calendar", «… встречу в пн в 11. Закинь в календарь и Марию позови»
_TO_CALENDAR = LazyRe(
    r"(?i)(?:(?:и|and|so|так\s+что)\s+)?(?:please\s+|пожалуйста\s+)?(?:закинь|поставь|добавь|внеси|занеси|put|add|"
    r"book|pop)(?:\s+(?:это|её|ее|его|it|that|this))?\s+(?:в\s+(?:мой\s+)?календар\w*|in(?:to)?\s+(?:the\s+|my\s+)?"
    r"calendar)(?:\s*,?\s*(?:и|and)\s+(?:\w+\s+(?i:позови|пригласи)|(?:invite|позови|пригласи)\s+\w+(?:\s+\w+)?))?"
    r"\s*[.!]*"
)
_SAME_REQUEST = (_MAKE_IT, _UPDATE_IT, _TOTAL_TOO, _TO_CALENDAR)


# after a note's words, a sentence that asks for a new thing: "…. Then a Linear issue for Oleg: …", «…. И задачу мне в
# Linear: …», "…. Also a CRM task for Max: …"
_NEXT_THING_ASKED = LazyRe(
    r"(?i)[.!]\s+(?:(?:then|and|also|plus|и|а|ещё|еще|потом|затем|также)[,\s]+)*(?:(?:a|an|one\s+more|new)\s+)?"
    r"(?:linear\s+(?:issue|task|ticket)|(?:crm|attio)\s+task|(?:issue|ticket|task)\s+(?:in|for|to)\s+\S+|"
    r"задач[уа]\s+(?:\S+\s+){0,2}в\s+(?:linear|линеар\w*|crm|срм|attio)|тикет\w*\s+в\s+\S+)"
)
# a field and its value said as a sentence of its own: «Срок — пятница», "Due Friday.", «Приоритет высокий»
_FIELD_ALONE = LazyRe(
    r"(?i)^(?:срок|дедлайн|due(?:\s+date)?|deadline|приоритет|priority|исполнитель|assignee)\s*[:—–-]?\s*\S[^.!?]{0,40}[.!]?\s*$"
)


def _changed_after_the_ids(text: str) -> bool:
    last = list(re.finditer(r"(?i)\b[A-Za-z]{2,5}-\d+\b", text))
    return bool(last) and bool(_OWN_CHANGE.search(text[last[-1].end() :]))


def _quoted_spans(text: str) -> list[tuple[int, int]]:
    # (straight quotes only inside a sentence, 'comment on CS-12 "call moved, John is away" and …'; a quote that
    # is all of what follows a colon may be a request relayed: 'Sarah says: "Create an issue …, assign it …"')
    return [m.span() for m in re.finditer(r"«[^«»]*»|“[^“”]*”|(?<=\w\s)\"[^\"\n]{2,}\"(?!\w)", text)]


def _single_quoted(text: str) -> list[tuple[int, int]]:
    """Names in single quotes ("new deal 'Initech — design system add-on', 24k"): the dash in one is no
    cut (an apostrophe inside a word, "Oleg's", opens none)."""
    return [m.span() for m in re.finditer(r"(?<![\w'])'[^'\n]{2,80}'(?![\w'])", text)]


_NOTE_ASKED_BARE = LazyRe(
    r"(?i)\b(?:add|leave|log|drop|добавь|оставь|запиши|черкни)\s+(?:a\s+|the\s+)?(?:note|заметк\w*)\s*$"
    # "comment on ENG-105, Apple approved the build": the words of the comment after a comma
    r"|^\W*(?:(?:add|leave|drop|post)\s+a\s+comment\s+(?:to|on)|comment\s+on|прокомментируй|(?:оставь|добавь|напиши)\s+"
    r"коммент\w*\s+(?:в|к))\s+[A-Za-z]{1,10}-\d+\s*$"
)
_DEAL_FIELD_ITEM = LazyRe(
    r"(?i)(?:company|компания|клиент|owner|ответственн\w*|stage|стадия|amount|сумма|currency|валюта)\b"
)
_INTO_IT_NEXT = LazyRe(
    r"(?i)(?:и\s+|and\s+)?(?:(?:сразу|тут\s+же|заодно|right\s+away|also)\s+)?"
    r"(?:(?:туда|в\s+него|в\s+нём|в\s+нем|into\s+it|in\s+it|there|under\s+it)\s+(?:же\s+)?"
    r"(?:(?:ещё|еще|also)\s+)?(?:add\s+|put\s+|file\s+|заведи\s+|добавь\s+|закинь\s+)?(?:an?\s+)?(?:задач\w*|тикет\w*|таск\w*|issue|task|ticket)"
    # «… и сразу таску туда: …»: the new thing first, then where it goes
    r"|(?:(?:the|a)\s+)?(?:(?:first|первую|первый)\s+)?(?:задач\w*|тикет\w*|таск\w*|issue|task|ticket)\s+"
    r"(?:туда|в\s+него|в\s+нём|в\s+нем|into\s+it|in\s+it|there|under\s+it|inside(?:\s+it)?|внутри)\b)"
)  # ("…, and first issue inside: …": the project's first issue)
_QUOTE_ALONE = LazyRe(r"['\"«“][^'\"«»“”]{3,200}['\"»”]\s*[.!]?")
_LABEL_TAKEN_OFF = LazyRe(r"(?i)\b(?:remove|drop|take\s+off|убери|сними)\b[^,;.]*\b(?:label|tag|метк\w*)\b")
_LABEL_PUT_ON = LazyRe(
    r"(?i)(?:(?:and|и)\s+)?(?:add|put|повесь|добавь|поставь)\s+(?:the\s+)?(?:[\w-]+\s+(?:label|tag)|(?:label|tag|метк\w*)\s+[\w-]+)\b"
)
_LABEL_PUT_ON_EN = LazyRe(r"(?i)(?:and\s+)?(?:add|put)\s+(?:the\s+)?[\w-]+\s+(?:label|tag)")
_ID_THEN_WORDS = LazyRe(
    r"(?i)^(?:(?:and|и|а|then|потом)\s+)?[A-Za-z]{2,5}-\d+\s*(?:[:—–→-]|->)?\s*(?:->|→|=>)?\s*[^\W\d_]"
)  # ("DES-7: -> Oleg")
_OWN_CHANGE = LazyRe(
    r"(?i)(?:\s(?:в|во|на|to|into|as)\s+\S|→|->|=>|\b(?:done|готов\w*|closed|закрыт\w*|urgent|high|low|срочн\w*|p[0-4])\b"
    r"|\b(?:срок|due|дедлайн|deadline)\s+\S)"  # («ENG-101 срок 2 декабря, ENG-102 срок 9 декабря»: each its own day)
)
_ENDS_WITH_ID = LazyRe(r"(?i)\b[A-Za-z]{2,5}-\d+\s*$")
_STARTS_WITH_ID = LazyRe(r"(?i)^(?:(?:and|и)\s+)?[A-Za-z]{2,5}-\d+\b")
_IN_LIST = LazyRe(
    r"(?i)[A-Za-z]{2,5}-\d+\s*(?:,|\band\b|\bи\b)\s*[A-Za-z]{2,5}-\d+"
)  # "ENG-1, ENG-2 …": one change
# «…поставь задачу и в календарь созвон с ней в 12», "…, and in my calendar a call with her": the next
# request names its system, then its thing, with no verb of its own
_IN_ANOTHER_SYSTEM = LazyRe(
    r"(?i)(?:(?:и|а|and|also|plus|плюс)\s+)?(?:в|во|to|in(?:to)?)\s+(?:the\s+|my\s+|мой\s+)?"
    r"(?:календар\w*|calendar|crm|црм|срм|attio|аттио|linear|линеар\w*|линер\w*)\s+(?:(?:ещё|еще|also)\s+)?(?:an?\s+|the\s+)?"
    r"(?:созвон\w*|встреч\w*|звонок|meeting|call|event|событи\w*|блок\w*|задач\w*|таск\w*|тикет\w*|issue|task|"
    r"ticket|заметк\w*|note)\b"
)
# what a note's words go on to say, its subject left out: "… and want to start in january", «… и хотят начать в январе»
_TO_DO_SOMETHING = LazyRe(r"(?i)^\s*(?:just|only|in\s+order|so\s+as|i\s+want|want)\s+to\s+\w+\s*$")
_GOES_ON_TELLING = LazyRe(
    r"(?i)(?:(?:and|и|а|but|но)\s+)?(?:want|wants|need|needs|would|will|plan|plans|expect|expects|hope|hopes|prefer|prefers|"
    r"are|is|was|were|have|has|had|can|can't|cannot|agreed|asked|said|хот\w+|нужн\w*|план\w+|ожида\w+|надеются|"
    r"просят|просил\w*|сказал\w*|готов\w*|согласил\w*|могут|будут|были?)\b"
)
_SAYS_THAT = LazyRe(r"(?i)\b(?:коммент\w*|комментари\w*|заметк\w*|comment|note)\b[^.;:]*?\s(?:что|that)\s")
_DESCRIBES_IT = LazyRe(
    r"(?i)(?:это|то|that'?s|which\s+is|i\.?e\.?)\s+(?:который|которая|которое|которые|тот|та|те|the\s+one|the\s+ones)\b"
)
_THING_ASKED_NEXT = LazyRe(
    r"(?i)(?:и\s+|and\s+|плюс\s+|plus\s+)?(?:(?:к|в|на|по|to|on)\s+(?:the\s+)?\S+\s+)?"
    r"(?:заметк[уа]|задач[уа]|напоминалк[уа]|(?:an?\s+)?(?:(?:crm|attio|linear|new|separate|second)\s+)?(?:note|task|issue|ticket))\b"
)


_A_NEW_ISSUE_ASKED = LazyRe(
    r"(?i)\s*(?:please\s+)?(?:make|create|open|file|log|raise|создай|заведи)\s+(?:an?\s+|a\s+new\s+|новую\s+)?"
    r"(?:[A-Z]{2,5}\s+)?(?:issue|ticket|bug|задачу|тикет|баг)\b"
)
_REMINDER_NEXT = LazyRe(
    r"(?i)(?:(?:и|and|плюс|plus|а\s+также)\s+)?(?:напоминалк\w*|напоминани[ея]|(?:a\s+)?reminder|задач[уа]\s+(?:мне|себе))\b"
)
# a sentence of talk after a request: what happened next, how someone will feel, a sign-off
_CHATTER = LazyRe(
    r"(?i)^(?:(?:then|anyway|anyways|btw|lol|haha|honestly|ugh|sigh)\b|(?:i|we|they|he|she|it|that|this)\s+"
    r"(?:went|ate|had|was|were|am|'m|will\s+be|'ll\s+be|guess|think|hope|swear|love|hate)\b|"
    r"(?-i:[A-Z][a-z]+)\s+(?:will\s+be|would\s+be|is\s+going\s+to\s+be|'ll\s+be)\s+(?:thrilled|happy|glad|pleased|"
    r"mad|upset|annoyed)\b|(?:ну|короче|вот|всё|все)\W*$)"
)
_FIELD_SAID = LazyRe(
    r"(?i)\b(?:label|priority|owner|assignee|due|stage|amount|title|description|project|team|срок|приоритет|метк\w*|"
    r"исполнител\w*|владел\w*|стади\w*|сумм\w*|проект\w*|команд\w*)\b"
)


def _identifiers_out(text: str) -> str:
    return re.sub(r"\b[A-Za-z]{2,5}-\d+\b", " ", text)


# a contact card's own fields, said after its email: no new request
_CARD_FIELD = LazyRe(
    r"(?i)^(?:(?:и|and)\s+)?(?:компани[яию]|company|должность|title|role|position|job\s+title|телефон|phone|тел\.?)\b"
)


_INTO_PARTS = LazyRe(
    r"(?i)\b(?:разбе\w*|раздели\w*|разбить|split|break)\b.*\b(?:подзадач\w*|sub-?issues?|sub-?tasks?|parts|части|шаг\w*|steps)\b"
)
_POINTS_BACK_WORD = LazyRe(
    r"(?i)\b(?:it|its|his|her|him|them|their|this|that|these|those|они|она|он|её|ее|его|их|ему|ей|ним|ней|это|этот|эту)\b"
)
_TEMPLATE_ASKED = LazyRe(
    r"(?i)\b(?:onboarding|renewal|онбординг\w*|продлени\w*)\s+(?:tasks|template|issues|playbook|задач\w*|шаблон\w*)\b"
    r"|\b(?:задач\w*|шаблон\w*|tasks|template|playbook)\s+(?:for\s+)?(?:onboarding|renewal|онбординг\w*|продлени\w*)\b"
)
_REPORTED = LazyRe(
    r"(?i)\b(?:says|said|wrote|writes|told\s+(?:me|us)|mentioned|reports?|reported|wants|asks|asked|говорит|сказал\w*|"
    r"пишет|написал\w*|сообщил\w*|хочет|хотят|просит|просят|просил\w*)\b"
)
_THEN_NEXT = LazyRe(r"(?i)[\s.!?]*(?:потом|затем|дальше|далее|then|next|after\s+that|после\s+этого)\b")


def _then_next(piece: str) -> bool:
    """A piece that opens a new sentence with "then" («…на месяц. Потом... в Linear, …»): the next request,
    no more of a note's words."""
    return bool(re.match(r"[\s—–-]*[.!?]", piece) and _THEN_NEXT.match(piece.lstrip(" —–-")))


# a task asked for with only whose and where it is («Поставь задачу Олегу в CRM», "a task for Max in Attio"):
# its words follow a dash
_TASK_NOT_YET_SAID = LazyRe(
    r"(?i)(?:(?:поставь|поставьте|создай|создайте|заведи|заведите|добавь|добавьте|дай|дайте|create|add|make|give)\s+)?"
    r"(?:(?-i:[А-ЯЁ])[а-яё]+[уюе]\s+|мне\s+|себе\s+)?"  # («Олегу задачу в линеаре — …»: whom, said first)
    r"(?:(?:новую|a|an|new)\s+)?(?:задач\w*|task|to-?do)"
    r"(?:\s+(?:(?:для|for)\s+)?(?:(?-i:[А-ЯЁA-Z])[\w-]+|мне|себе|me|myself))?"
    r"(?:\s+(?:в|in)\s+(?:crm|срм|attio|аттио|атио|linear|линеар\w*|линейк\w*))?"
)


# after a note's words, a piece that asks for another thing: «…, Олегу в линеар задачу подготовить договор»,
# «…, в Linear для ENG задачу оценить …», «…, и созвон с Иваном в пятницу в 14» — the next request
_ANOTHER_THING_ASKED = LazyRe(
    r"(?i)^\s*(?:(?:и|а|and|also|ещё|еще|plus)\s+)?(?:"
    r"(?:[\w-]+\s+){0,3}?(?:в|во|in|into|to)\s+(?:linear|линеар\w*|линейн\w*|attio|аттио|calendar|календар\w*)\b"
    r"[^,;]{0,40}?\b(?:задач[уи]|таск[уи]?|тикет|issue|ticket|task|встреч[уа]|event)\b"
    r"|(?:[\w-]+\s+){0,3}?(?:задач[уиа]|таск[уи]?|тикет)\s+(?:[\w-]+\s+){0,3}?(?:[—–:-]\s*)?[а-яё]+(?:ть|ти|чь)(?:ся)?\b"
    r"|(?:an?\s+)?(?:(?:crm|attio|linear)\s+)?(?:task|issue|ticket)\s+(?:for\s+[\w-]+\s+)?(?:[\w-]+\s+){0,2}?to\s+[a-z]+"
    r"|(?P<event>(?:(?:a|an|one|one-hour|30-minute|часовой|часовую)\s+)?(?:созвон|встреч[уа]|звонок|митинг|call|meeting|sync)"
    r"\s+(?:с|with)\s))"
)


_BUT_THOSE = LazyRe(
    r"(?i)^\s*,\s*(?:а|но|and|but)\s+(?:все\s+|all\s+)?(?:задачи|тикеты|сделки|issues|tickets|deals)\b"
)
_THOSE_RECORDS = LazyRe(r"(?i)^\s*(?:все\s+|all\s+)?(?:задачи|тикеты|сделки|issues|tickets|deals)\s+\S")
_ALSO_THEN_VERB = LazyRe(
    r"(?i)^\s*(?:also|then|and|plus|и|а\s+ещё|ещё|еще|потом|также)[,\s]+(?:please\s+|пожалуйста\s+)?"
    r"(?:close|move|assign|set|add|create|open|archive|delete|rename|mark|put|закрой|переведи|назначь|поставь|добавь|"
    r"создай|заведи|удали|архивируй)\b"
)
_ANOTHER_ID_ITS_FIELD = LazyRe(r"(?i)(?:^|\s)[A-Za-z]{1,10}-\d+\s+(?:due|срок\w*|to|→|->|на|в)\s+\S")
_A_TIME_SAID = LazyRe(r"\d{1,2}[:.]\d{2}|\b\d{1,3}\s*(?:мин\w*|min\w*|ч\b|час\w*|hours?|h\b)")
_A_NOTE_ASKED_BARE = LazyRe(
    r"(?i)^\s*(?:(?:и|а|плюс|ещё|еще)\s+)?(?:в\s+)?(?:заметку|коммент(?:арий)?)\s+(?:к|в|по|на)\s+[^:]{1,40}(?::\s*\S|$)"
)
_ENGLISH_ASK_OF_ITS_OWN = LazyRe(
    r"(?i)^\s*(?:(?:and|then|also|plus)\s+)*(?:please\s+)?(?:move|close|assign|reassign|set|change|create|open|"
    r"put|mark|archive|rename|schedule|book|make|bump|push)\s+(?:it|them|this|that|the\s+(?:deal|issue|ticket)|"
    r"a\s+(?:new\s+)?(?:deal|issue|ticket|task|call|meeting)|an\s+(?:issue|event)|(?-i:[A-Z]{2,5}-\d+))\b"
)


def _asks_another_thing(piece: Clause, *, events_only: bool = False) -> bool:
    """`piece`, said after a note's or a comment's words (or a task's title), is a request for another thing."""
    m = _ANOTHER_THING_ASKED.match(piece.text)
    if (
        m is None
        and not events_only
        and piece.has("move", "put", "assign", "complete", "archive", "delete", "rename")
        and any(is_imperative(w) for w in re.findall(r"[а-яё]+", IN_QUOTES.sub(" ", piece.text).lower()))
    ):  # «…заметку, что их пилот сдвигается на январь, и сумму по их пилоту уменьши до десяти тысяч»
        return True
    if m is None and not events_only and _ENGLISH_ASK_OF_ITS_OWN.match(piece.text):
        return True  # "…saying the copy is final, and move it to Todo": a change asked after the words
    if m is None or events_only and not m.group("event"):
        return False
    if m.group("event"):  # a meeting asked for has its time; one told of is past («созвон с ними прошёл»)
        return (piece.moment.at is not None or piece.duration is not None) and not reports_past(piece)
    return not reports_past(piece)


def _split(text: str, now: datetime) -> list[Clause]:
    quotes = _quoted_spans(text)  # «… internally. Legal needs …»: a quote's own sentences are its words
    named = _single_quoted(text) if "'" in text else []
    cuts = [
        m
        for m in SPLIT.finditer(text)
        if not any(a < m.start() < b for a, b in quotes)
        and not (re.fullmatch(r"\s*[—–-]\s*", m.group(0)) and any(a < m.start() < b for a, b in named))
        # "add note 'happy with renewal, asking about SSO add-on'": a comma inside someone's quoted words
        and not (m.group(0).lstrip().startswith(",") and any(a < m.start() < b for a, b in named))
    ]
    if not cuts:
        return [analyse(text, now)]
    bounds = [(0, cuts[0].start())]
    for a, b in zip(cuts, [*cuts[1:], None], strict=False):
        bounds.append((a.end(), b.start() if b else len(text)))
    pieces = [(s, e) for s, e in bounds if text[s:e].strip()]
    merged: list[tuple[int, int]] = [pieces[0]]
    reasons: set[int] = set()  # merged pieces that only say why (context, asking for nothing)
    borrowed: dict[int, str] = {}
    # what the merged piece on the left says, kept as its pieces' readings joined: a long message is not
    # read again from its start at every cut
    parts: list[Clause] = [analyse(text[pieces[0][0] : pieces[0][1]], now)]
    for s, e in pieces[1:]:
        right = analyse(text[s:e], now)
        # a piece that borrowed its verb has one: "…, контакт Пётр … и сделку Вектор" is a third object
        lead = borrowed.get(len(merged) - 1, "")
        left = joined_readings(
            (lead + " " + text[merged[-1][0] : merged[-1][1]]).strip(), [analyse(lead, now), *parts]
        )
        dashed = re.search(r"\s[—–-]\s", text[merged[-1][1] : s]) is not None
        # «заметку что Иван просит …, Олегу в линеар задачу …»: after a note's words, the next request
        another = (
            left.has("note", "comment")
            and _asks_another_thing(right)
            or left.has("task", "issue")
            and _asks_another_thing(right, events_only=True)
        )
        if (
            _BUT_THOSE.match(text[merged[-1][1] : e])
            and verb_count(left)
            and not verb_count(right)
            and re.search(r"\s[—–-]\s", text[e:])
        ):  # «все задачи в In Review закрыть, а задачи Макса в In Progress — перевести в In Review»: other records,
            # their verb after the dash
            merged.append((s, e))
            parts = [right]
        elif (
            _ID_THEN_WORDS.match(text[merged[-1][0] : merged[-1][1]].strip())
            and len(set(x.upper() for x in ISSUE_KEY.findall(text[merged[-1][0] : merged[-1][1]]))) == 1
            and _imperative_first(text[s:e]) | _starts_with_verb(right)
            and ISSUE_KEY.search(text[s:e]) is not None
            and not set(x.upper() for x in ISSUE_KEY.findall(text[s:e]))
            & set(x.upper() for x in ISSUE_KEY.findall(text[merged[-1][0] : merged[-1][1]]))
        ):  # "ENG-104 due dec 11, close CS-14": an issue with its change, then a request of another issue
            merged.append((s, e))
            parts = [right]
        elif (
            dashed
            and _THOSE_RECORDS.match(text[merged[-1][0] : merged[-1][1]])
            and not verb_count(left)
            and (_imperative_first(text[s:e]) or _starts_with_verb(right))
        ):  # «задачи Макса в In Progress — перевести в In Review»: the records, then what to do with them
            merged[-1] = (merged[-1][0], e)
            parts.append(right)
        elif re.search(r"[.!?]\s+$", text[merged[-1][1] : s]) and _A_NOTE_ASKED_BARE.match(text[s:e]):
            merged.append(
                (s, e)
            )  # «…: настроить SCIM, срок 4 декабря. И в заметку к сделке X: …»: a note asked
            parts = [right]
        elif (
            "?" in text[merged[-1][1] : s]
            and not _starts_with_verb(left)
            and WHY_I_ASK.match(text[s:e].strip())
        ):
            asked_to = text.index("?", merged[-1][1]) + 1
            merged[-1] = (merged[-1][0], asked_to)  # the question keeps its mark: it is read as one
            merged.append((s, e))  # "Какие у нас проекты? Не понимаю, куда класть задачи": why it is asked
            reasons.add(len(merged) - 1)
        elif (
            re.search(r"\?\s+$", text[merged[-1][1] : s])
            and _ASKED_FIRST.match(text[merged[-1][0] : merged[-1][1]])
            and not verb_count(right)
            and not _starts_with_verb(right)
            and not _imperative_first(text[s:e])
            and not right.identifiers
            and not _ASKED_FIRST.match(text[s:e])  # (a second question is asked too)
            and "?" not in text[s : e + 1]
            and re.match(r"\s*(?:[.!]|$)", text[e:]) is not None  # (its own sentence, said whole)
        ):  # "Has the Initech renewal been moved to Won? Max thinks Oleg forgot.": asked, then why
            merged[-1] = (merged[-1][0], text.index("?", merged[-1][1]) + 1)  # (the question keeps its mark)
            merged.append((s, e))
            reasons.add(len(merged) - 1)
            parts = [right]
            parts = [right]
        elif STATE_NOW_IF.fullmatch(text[merged[-1][0] : merged[-1][1]]) and (
            _starts_with_verb(right) or _imperative_first(text[s:e])
        ):
            merged[-1] = (
                merged[-1][0],
                e,
            )  # «если CS-15 ещё не закрыта, закрой её»: the condition goes with it
            parts.append(right)
        elif CHECK_LEFT.search(text[merged[-1][0] : merged[-1][1]]) and WHETHER.match(text[s:e]):
            merged[-1] = (merged[-1][0], e)  # «Напомни … проверить, оплатил ли Initech счёт»: what to check
            parts.append(right)
        elif (
            _SAYS_THAT.search(left.text)
            and not another
            and left.has("comment", "note")
            and not _starts_with_verb(right)
            and not right.has("task", "issue", "meeting", "deal", "remind")
        ):
            merged[-1] = (
                merged[-1][0],
                e,
            )  # «оставь комментарий к CS-13, что … и мы ждем их админа»: still its words
            parts.append(right)
        elif (
            left.has("note", "comment")
            and not another
            and left.after_colon is None
            and _GOES_ON_TELLING.match(text[s:e].strip())
            and re.search(r"(?i)\b(?:and|и|а|but|но)\s*$", text[merged[-1][1] : s]) is not None
        ):  # "a note on the romashka deal they agreed on the price and want to start in january": still its words
            merged[-1] = (merged[-1][0], e)
            parts.append(right)
        elif (
            _NOTE_ASKED_BARE.search(left.text)
            and not another
            and left.after_colon is None
            and not _starts_with_verb(right)
            and not right.has("task", "issue", "meeting", "deal", "remind")
            # (a new sentence that opens with "then" is the next request: «…на месяц. Потом... в Linear, …»)
            and not _then_next(text[merged[-1][1] : e])
        ):  # "…and add a note, lost on price to a cheaper vendor", "comment on ENG-105, Apple approved …": its words
            merged[-1] = (merged[-1][0], e)
            parts.append(right)
        elif (
            dashed
            and _TASK_NOT_YET_SAID.fullmatch(text[merged[-1][0] : merged[-1][1]].strip())
            and not _imperative_first(text[s:e])
        ):  # «Поставь задачу Олегу в CRM — созвониться с Ли Вэем …»: what the task is
            merged[-1] = (merged[-1][0], e)
            parts.append(right)
        elif (
            dashed
            and not another
            and left.has("note", "comment")
            and not _starts_with_verb(right)
            and left.after_colon is None
            and not _then_next(text[merged[-1][1] : e])
        ):
            merged[-1] = (
                merged[-1][0],
                e,
            )  # "add a note to the Globex pilot — Jane mentioned …": what it says
            parts.append(right)
        elif A_QUOTE_ALONE.fullmatch(text[merged[-1][0] : merged[-1][1]]) and (
            _starts_with_verb(right) or _imperative_first(text[s:e])
        ):
            merged.append(
                (s, e)
            )  # «"we never got the invite" — John». Log a bug in CS: their words, then mine
            parts = [right]
        elif right.identifiers and LEFT_ALONE.search(text[s:e]) and not LEFT_ALONE.search(left.text):
            merged.append(
                (s, e)
            )  # "…и поставь срок на вторник; ENG-101 не трогай": not the target, a refusal
            parts = [right]
        elif ";" in text[merged[-1][1] : s] and right.has("note", "comment", "meeting", "remind"):
            merged.append((s, e))  # "…в «отказ»; в заметке к сделке прошу указать причину": its own request
            parts = [right]
        elif (
            right.identifiers
            and verb_count(right)
            and not identifiers_in(text[merged[-1][0] : merged[-1][1]])
            and left.has("meeting", "schedule", "deal", "note")
        ):  # «Созвон с Acme в понедельник …, и в CS-12 оставь комментарий …»: its own request
            merged.append((s, e))
            parts = [right]
        elif left.creates() and _QUOTE_ALONE.fullmatch(text[s:e].strip()):
            merged[-1] = (
                merged[-1][0],
                e,
            )  # "create an issue for Customer Success, 'Initech asks …'": its title
            parts.append(right)
        elif _BARE_VERB.fullmatch(text[merged[-1][0] : merged[-1][1]].strip()):
            merged[-1] = (merged[-1][0], e)  # «запиши, эээ, новую сделку, …»: the verb is for what follows
            parts.append(right)
        elif _ALL_OF_THEM.search(left.text) and _WHICH_ONES.match(text[s:e].strip()):
            merged[-1] = (merged[-1][0], e)  # «закрой все задачи CS, назначенные на меня»: which of them
            parts.append(right)
        elif _QUANTIFIED.match(left.text) and not verb_count(left) and _starts_with_verb(right):
            merged[-1] = (merged[-1][0], e)  # «Все задачи без исполнителя, что в бэклоге, назначь на Олега»
            parts.append(right)
        elif _IT_TO_STAGE.fullmatch(text[s:e].strip()) and left.creates() and not left.has("note", "comment"):
            # («занеси это заметкой в сделку и переведи её в переговоры»: a note has no stage — the deal moves;
            # "Add a comment to DES-7 saying …, and move it to Todo": nor has a comment — the issue moves)
            merged[-1] = (merged[-1][0], e)  # "New deal with Umbrella …, put it in Lead": the new one's stage
            parts.append(right)
        elif (
            identifiers_in(text[merged[-1][0] : merged[-1][1]])
            and not right.identifiers
            and _LABEL_PUT_ON_EN.fullmatch(
                re.sub(r"(?i)\s+(?:to\s+it|too|as\s+well)?\s*[.!]?$", "", text[s:e].strip())
            )
        ):  # "Set the due date of CS-13 to December 5 and add the bug label": the same issue's label
            merged[-1] = (merged[-1][0], e)
            parts.append(right)
        elif _LABEL_TAKEN_OFF.search(left.text) and _LABEL_PUT_ON.match(text[s:e].strip()):
            merged[-1] = (merged[-1][0], e)  # "remove the feature label and add the bug label": one swap
            parts.append(right)
        elif (
            _ARROW.search(left.text)
            and (
                verb_count(right)
                or ";" in text[merged[-1][1] : s]
                and _ID_THEN_WORDS.match(
                    text[s:e].strip()
                )  # "Ромашка→Won; CS-13 срок 05.12": an issue of its own
                or right.creates()
                or right.has("meeting", "note", "task", "issue", "remind")
                or _LEADS_WITH_THING.match(re.sub(r"(?i)^(?:и|and|\+)\s+", "", text[s:e].strip()))
            )
        ):  # "CS-14 → done, then созвон с jane в пт 12:00", "… → won + kick off onboarding": two requests
            merged.append((s, e))
            parts = [right]
        elif left.has("deal") and left.creates() and _DEAL_FIELD_ITEM.match(text[s:e].strip()):
            merged[-1] = (
                merged[-1][0],
                e,
            )  # "Create deal 'X', 480 000 RUB, stage Lead, company Ромашка": its field
            parts.append(right)
        elif (
            dashed
            and left.identifiers
            and verb_count(left)
            and _OWN_CHANGE.search(text[merged[-1][0] : merged[-1][1]])
            and not right.identifiers
            and not _starts_with_verb(right)
            and not _imperative_first(text[s:e])
            and not left.has("comment", "note", "note_verb", "rename")
            and ":" not in text[merged[-1][0] : merged[-1][1]]  # "…ENG-103: repro — export …": its content
            and not right.moment.day
        ):  # "Move DES-7 back to In Progress — contrast fails WCAG AA …": a change said whole, then why
            merged.append((s, e))
            reasons.add(len(merged) - 1)
            parts = [right]
        elif len(merged) - 1 in reasons and (
            _starts_with_verb(right) or _imperative_first(text[s:e]) or _commands_within(right)
        ):
            merged.append(
                (s, e)
            )  # "…, it's a security issue, and make Max the assignee": why, then asked again
            parts = [right]
        elif (
            _ENDS_WITH_ID.search(text[merged[-1][0] : merged[-1][1]])
            and not left.has(
                "move", "put", "assign", "complete", "delete", "archive", "create", "comment", "rename"
            )
            and not _OWN_CHANGE.search(
                re.sub(r"(?i)^.*?(?=[A-Za-z]{2,5}-\d)", "", text[merged[-1][0] : merged[-1][1]])
            )
            and _STARTS_WITH_ID.match(text[s:e].strip())
            # («встреча … на 30 минут по ENG-106 и ENG-106 назначь на Макса»: what the meeting is about, then a request)
            and not (left.has("meeting") and (left.moment.at is not None or left.duration is not None))
        ):  # «задачи CS-14 и DES-7 выполнены»: the issues listed first, what is true of them said after the last
            merged[-1] = (merged[-1][0], e)
            parts.append(right)
        elif (
            _ENDS_WITH_ID.search(text[merged[-1][0] : merged[-1][1]])
            and left.has("move", "put", "assign")  # a change that needs its "to …", said after the list
            and not left.has(
                "complete", "archive", "delete"
            )  # «закрой ENG-101, ENG-102 в ревью»: two changes
            and _STARTS_WITH_ID.match(text[s:e].strip())
        ):  # "move ENG-101, ENG-102 to done": the issues listed share the change said last
            merged[-1] = (merged[-1][0], e)
            parts.append(right)
        elif (
            (
                _ID_THEN_WORDS.match(text[merged[-1][0] : merged[-1][1]].strip())
                or _ENDS_WITH_ID.search(text[merged[-1][0] : merged[-1][1]])
                and left.has("complete", "archive", "delete")  # «закрой ENG-101, ENG-102 в ревью»
            )
            and _ID_THEN_WORDS.match(text[s:e].strip())
            and (verb_count(right) or _OWN_CHANGE.search(text[s:e]))  # "…, ENG-102 too" shares the change
            and not (
                _IN_LIST.search(text[merged[-1][0] : merged[-1][1]])
                # («ENG-101 и ENG-105 в In Review, ENG-102 на Олега»: the listed ones already have their change)
                and not _changed_after_the_ids(text[merged[-1][0] : merged[-1][1]])
            )
        ):  # "ENG-101 в review, ENG-106 done, CS-13 перекинь на Макса": each issue with its own change
            merged.append((s, e))
            parts = [right]
        elif _OLD_VALUE.search(left.text) and not verb_count(left) and verb_count(right):
            merged[-1] = (
                merged[-1][0],
                e,
            )  # "amount было 30к, ставь 27 500": what it was, then what it is to be
            parts.append(right)
        elif verb_count(left) and _IN_ANOTHER_SYSTEM.match(text[s:e].strip()):
            merged.append((s, e))  # «…поставь задачу и в календарь созвон с ней в 12»: a request of its own
            parts = [right]
        elif _INTO_IT_NEXT.match(text[s:e].strip()):
            merged.append((s, e))  # «создай проект X … и туда задачу подготовить договор»: a second request
            # «…и сразу в нём задачу «…» на Олега»: made as the project was ("и туда задачу …" reads as it is)
            if (
                not verb_count(right)
                and not re.match(r"(?i)(?:и\s+|and\s+)?(?:туда|there|into\s+it)\b", text[s:e].strip())
                and (verb := _first_verb(left))
            ):
                borrowed[len(merged) - 1] = verb
            parts = [right]
        elif _DESCRIBES_IT.match(text[s:e].strip()):
            merged[-1] = (
                merged[-1][0],
                e,
            )  # «…ENG-103, это который с падением при экспорте»: which one it is
            parts.append(right)
        elif any(rx.fullmatch(text[s:e].strip()) for rx in _SAME_REQUEST):
            merged[-1] = (merged[-1][0], e)  # "…on Friday. Please make that a CRM task.": the request before
            parts.append(right)
        elif (
            is_reason(text[s:e], right)
            # ("globex pilot to proposal, they want …"; "Just to confirm, …" says no change)
            and (verb_count(left) or ELLIPTIC.search(left.text) and not _TO_DO_SOMETHING.search(left.text))
            and not left.creates()  # "добавь человека …, он из Альфа-Лизинга": a new record's details
            # "comment on ENG-105 — …, we're resubmitting": a comment's own words go on
            and not (left.has("comment", "note", "note_verb") and DOING_NOW.match(text[s:e].strip(" ,.;!")))
            and len(merged) - 1 not in reasons
            or STANDING_RULE.match(text[s:e].strip(" ,.;!"))
        ):
            merged.append((s, e))  # "Delete Li Wei from the CRM, she left Acme Logistics last month"
            reasons.add(len(merged) - 1)
            parts = [right]
        elif (
            re.search(r"[.!?]\s+$", text[merged[-1][1] : s])
            and verb_count(left)
            and not verb_count(right)
            and not _starts_with_verb(right)
            and not _imperative_first(text[s:e])
            and not right.identifiers
            and not right.moment.day
            and _CHATTER.match(text[s:e].strip())
            and not _FIELD_SAID.search(text[s:e])
            and not re.search(r"\d|:", text[s:e])
        ):  # "Move the Alfa-Leasing expansion deal back to Proposal. Oleg will be thrilled (not).": the request
            # said, then talk around it — no part of it, and nothing of its own
            merged.append((s, e))
            reasons.add(len(merged) - 1)
            parts = [right]
        elif (
            re.search(r"[.!?]\s+$", text[merged[-1][1] : s])
            and left.has("note", "comment")
            and _starts_with_verb(right)
            and right.has("remind", "create", "move", "complete", "assign", "put", "todo")
        ):  # "note on Maria, she's on leave from January. oh and remind me on the 2nd to …": its own request
            merged.append((s, e))
            parts = [right]
        elif COMPLEMENT.match(text[s:e].strip()) and left.has(
            "comment", "note", "note_verb", "todo", "remind"
        ):
            merged[-1] = (merged[-1][0], e)  # "напиши в комментарии, что фикс уехал" - what is said
            parts.append(right)
        elif "?" in text[merged[-1][1] : s] and (_starts_with_verb(right) or _imperative_first(text[s:e])):
            merged.append((s, e))  # "Anything sitting in Backlog? archive it all": asked, then a request
            parts = [right]
        elif (
            verb_count(right)
            and not (
                RELATIVE.match(text[s:e].strip())
                and WHAT_OF.search(text[merged[-1][0] : merged[-1][1]])
                and (
                    not verb_count(without_query(right))
                    # «закрой всё, что назначено на Макса», "everything that is assigned to Max": which ones
                    or bool(STATE_OF_THEM.match(text[s:e].strip()))
                )
            )
            and (
                verb_count(left)
                or _starts_with_verb(right)
                and (
                    ELLIPTIC.search(left.text)
                    or _AMOUNT_SAID.search(left.text)
                    # "eng-102: due dec 10 and assign to Max", "ENG-102 priority high, and comment '…'": a field set
                    or bool(left.identifiers and _ISSUE_FIELD_SET.search(left.text))
                )
                # «завтра в 10 встреча с командой на 30 минут по ENG-106 и ENG-106 назначь на Макса»: a meeting
                # said without its verb, whole with its time, then a request of its own
                or left.has("meeting")
                and (left.moment.at is not None or left.duration is not None)
                and bool(right.identifiers)  # (not "…, put her on the invite": the meeting's own)
                and (_starts_with_verb(right) or _imperative_first(_identifiers_out(text[s:e])))
            )
        ):
            # "сделку с Альфа-Лизингом в Won, и поставь задачу …": a change said without its verb, then
            # a request of its own (a statement before a verb, "ENG-104 надо доделать, поставь срок", stays)
            merged.append((s, e))
            parts = [right]
        elif (
            left.identifiers
            and re.search(
                r"[^\W\d_]{2,}", _identifiers_out(text[merged[-1][0] : merged[-1][1]])
            )  # a change said
            and ":" not in text[merged[-1][0] : merged[-1][1]]
            and re.fullmatch(
                r"(?i)(?:(?:и|and|also)\s+)?(?:comment|коммент\w*|прокомментируй)", text[s:e].strip()
            )
        ):  # "ENG-105 due dec 12 also comment: needs QA sign-off first": the change, then a comment on it
            merged.append((s, e))
            parts = [right]
        elif re.search(r"[\w.+-]+@[\w-]+\.\w", left.text) and _CARD_FIELD.match(text[s:e].strip()):
            merged[-1] = (
                merged[-1][0],
                e,
            )  # «Добавь контакт Пётр Орлов, petr@…, компания Globex, должность — …»
            parts.append(right)
        elif (
            verb_count(left)
            and (
                verb := _first_verb(left)
                # «Сделку … передай Максу, а тикет CS-14 — тоже ему»: a hand-over lent to a thing named next
                or (
                    _first_verb(left, "assign")
                    # ("…all his deals to Anna, all his Linear issues to Max": the next things handed over too)
                    if OBJECT_START.match(text[s:e].strip()) or _QUANTIFIED.match(text[s:e].strip())
                    else None
                )
            )
            and (
                OBJECT_START.match(text[s:e].strip())
                or ELLIPTIC.search(right.text)
                and ELLIPTIC.search(left.text)
            )
            and not re.match(
                # ("…, note 'John asked for a 3-year option'": a note, its words quoted)
                r"(?i)(?:(?:и|а|and)\s+)?(?:заметк\w*|note)\s*(?:(?:on|to|к|для|по)\b|[:—–-]?\s*['\"«“])",
                text[s:e].strip(),
            )
            and not _STATE_SAID.search(text[s:e])  # «…, Макс в курсе», «…, деньги на счёте»: why, no change
        ):  # "move X to Lost and Y to Qualification": the second change borrows the verb
            merged.append((s, e))
            borrowed[len(merged) - 1] = verb
            parts = [right]
        elif (
            verb_count(left)
            and re.search(
                r"(?i)(?:^|[\s,])а[\s,]*$", text[merged[-1][0] : s]
            )  # (said with a contrasting «а»)
            and re.match(r"(?i)(?:а\s+)?(?:сделк[уа]|deal|(?-i:[A-ZА-ЯЁ])[\w-]+)\b", text[s:e].strip())
            and ELLIPTIC.search(right.text)
        ):  # «CS-12 закрыть, а сделку Acme Corp в переговоры»: a deal's change said without its verb, its own
            merged.append((s, e))
            parts = [right]
        elif (
            right.identifiers
            and not identifiers_in(text[merged[-1][0] : merged[-1][1]])
            and ELLIPTIC.search(left.text)
            and ELLIPTIC.search(right.text)
        ):  # «сделку Globex pilot на Макса, а CS-14 на Олега»: two changes said without verbs, each its own
            merged.append((s, e))
            parts = [right]
        elif (ELLIPTIC.search(left.text) or verb_count(left)) and re.match(
            r"(?i)(?:и\s+|а\s+|and\s+)?(?:(?:в|во|к|to|on|in)\s+(?:[^\W\d_][\w-]*\s+){0,2})?(?:заметк\w*|note)\b",
            text[s:e].strip(),
        ):  # («…в Won, к Джейн заметку, что …»: whom it is on, said first)
            merged.append((s, e))  # "Сделку в выиграна, и заметку к ней: …": a change, then a note
            parts = [right]
        elif _FIELD_VALUE.match(left.text.strip()) and _LEADS_WITH_THING.match(
            re.sub(r"(?i)^(?:и|а|and)\s+", "", text[s:e].strip())
        ):
            merged.append((s, e))  # «…: сумма 55 000, и Анне задача на понедельник …»: a value, then a task
            parts = [right]
        elif (
            left.has("note", "note_verb", "comment")
            and verb_count(left)
            and _REMINDER_NEXT.match(text[s:e].strip())
        ):  # «закинь это заметкой на Ивана, и напоминалку мне на завтра …»: a note, then a reminder
            merged.append((s, e))
            parts = [right]
        elif (
            re.search(r"[.!]\s*$", text[merged[-1][0] : s])
            and not verb_count(left)
            and _A_NEW_ISSUE_ASKED.match(text[s:e])
            and not re.search(
                r"(?i)\b(?:it|this|that|them|her|him|both|это|его|её|ее|их|ей|ему)\b", text[s:e]
            )
        ):  # "Globex is asking for a sandbox environment. Make an ENG issue Provision sandbox …": what was told,
            # then a new thing asked for by its own words — the told sentence is no part of its title
            merged.append((s, e))
            parts = [right]
        elif (
            TEMPLATE_ALONE.fullmatch(text[s:e])
            and (
                left.has("signed", "move", "put")
                or ELLIPTIC.search(left.text)
                or _OUTCOME_ALONE.fullmatch(
                    text[merged[-1][0] : merged[-1][1]].strip()
                )  # "…. Won, onboarding"
            )
            or (
                TEMPLATE_ALONE.fullmatch(text[merged[-1][0] : merged[-1][1]])
                and _LEADS_WITH_THING.match(re.sub(r"(?i)^(?:и|and|\+)\s+", "", text[s:e].strip()))
            )
        ):  # "globex signed! won + onboarding + note '…'": the outcome, its template, a note: each its own
            merged.append((s, e))
            parts = [right]
        elif left.has("meeting", "block") and _THING_ASKED_NEXT.match(text[s:e].strip()):
            merged.append(
                (s, e)
            )  # «завтра в 12 созвон с Джоном …, и к сделке заметку: …»: a meeting, then a note
            parts = [right]
        elif (
            re.search(r"[.!?]\s+$", text[merged[-1][1] : s])
            and (own := re.match(r"\s*([A-Za-z]{1,10}-\d+)\b", text[s:e]))
            and own.group(1).upper() not in {i.upper() for i in left.identifiers}
        ):  # "…assign it to Oleg. ENG-101 I can't repro anymore, leave it as is": another issue, its own sentence
            merged.append((s, e))
            parts = [right]
        elif (
            left.has("note", "comment")
            and re.search(r"['\"»”]\s*$", text[merged[-1][0] : merged[-1][1]])
            and re.search(r"[.!?;]", text[merged[-1][1] : s])
        ):  # "add note 'happy with renewal'. Globex pilot amount to 33k": the note's words closed, then the next
            merged.append((s, e))
            parts = [right]
        elif left.has("note", "comment") and _then_next(text[merged[-1][1] : e]):
            merged.append((s, e))  # «…заметку — хотят продлить пилот. Потом... в Linear, …»: the next request
            parts = [right]
        elif (
            dashed
            and _REPORTED.search(text[merged[-1][0] : merged[-1][1]])
            and not left.commands()
            and (_imperative_first(text[s:e]) or _starts_with_verb(right))
            # ("Max said Ivan is now their CIO — please update his job title": "his" is said before, kept with it;
            # «Альфа хочет расширение — поменяй сумму…»: the record is said before — only a template stands alone)
            and not _POINTS_BACK_WORD.search(text[s:e])
            and bool(_TEMPLATE_ASKED.search(text[s:e]))
        ):  # "Oleg says the Initech renewal quote is ready — create the renewal tasks": what was told, then mine
            merged.append((s, e))
            parts = [right]
        elif (
            another
            or (_A_THING_FOR_THEM.match(text[s:e]) and not left.has("note", "comment", "task", "issue"))
        ):  # («…, сделку Альфа-Лизинга в Lost, и обеим по заметке: …»: a thing asked for the records just changed)
            merged.append((s, e))
            parts = [right]
        elif (
            ELLIPTIC.search(text[merged[-1][0] : merged[-1][1]])
            and ELLIPTIC.search(text[s:e])
            and not verb_count(left)
            and not _starts_with_verb(right)
            and not _imperative_first(text[s:e])
            and not any(is_imperative(w) for w in re.findall(r"[а-яё]+", text[s:e].lower()))
            and not re.search(r"\d", text[merged[-1][0] : e])  # (not "…в 14:30, минут на 40": a length)
            and not left.has("meeting", "schedule", "block")
            and len(text[s:e].split()) >= 3
        ):  # «Сделку Ромашки в Won, а Альфа-Лизинг в Lost»: two changes, each said without its verb
            merged.append((s, e))
            parts = [right]
        elif (
            re.search(r"[.!?]\s+$", text[merged[-1][1] : s])
            and not left.has("note", "comment", "note_verb")
            and left.after_colon is None
            and _ALSO_THEN_VERB.match(text[s:e])
        ):  # "Globex pilot is won. Also close CS-14.": a sentence told, then a request of its own
            merged.append((s, e))
            parts = [right]
        elif (
            _ANOTHER_ID_ITS_FIELD.match(text[s:e])
            and identifiers_in(text[merged[-1][0] : merged[-1][1]])
            and not set(identifiers_in(text[s:e])) & set(identifiers_in(text[merged[-1][0] : merged[-1][1]]))
            and _ANOTHER_ID_ITS_FIELD.search(text[merged[-1][0] : merged[-1][1]])
        ):  # "set ENG-101 due this friday and ENG-103 due monday": each issue with its own value
            merged.append((s, e))
            parts = [right]
        elif (
            left.has("meeting")
            and _A_TIME_SAID.search(text[merged[-1][0] : merged[-1][1]])
            and (_imperative_first(text[s:e]) or _starts_with_verb(right))
            and right.has("remind", "note", "task", "complete", "move", "assign")
        ):  # «завтра 16:00 созвон с Марией, 30 мин, и напомни мне после него отправить ей КП»: a request of its own
            merged.append((s, e))
            parts = [right]
        elif _A_NOTE_ASKED_BARE.match(text[s:e]) and not left.has("note", "comment"):
            merged.append(
                (s, e)
            )  # «Alfa → Won, зад онбординга, и заметку к сделке: …»: a note asked, verb unsaid
            parts = [right]
        else:
            merged[-1] = (merged[-1][0], e)
            parts.append(right)
    out = [
        analyse(
            (
                borrowed.get(i, "")
                + " "
                + (
                    re.sub(r"(?i)^(?:and|и)\s+", "", text[s:e].strip())
                    if i in borrowed
                    else text[s:e].strip()
                )
            ).strip(),
            now,
        )
        for i, (s, e) in enumerate(merged)
    ]
    for i in sorted(reasons, reverse=True):
        why = out[i]
        # «…, SSO настроили. Ромашкину сделку — в Won»: why ends with its sentence; a request said next is one
        ends = re.search(r"[.!?]\s+(?=\S)", why.text)
        rest = analyse(why.text[ends.end() :], now) if ends else None
        if rest is not None and (
            _commands_within(rest)
            or _starts_with_verb(rest)
            or ELLIPTIC.search(rest.text)
            or _FIELD_ALONE.match(rest.text)  # «…, Макс перегружен. Срок — пятница»: the change's next field
        ):
            why = analyse(why.text[: ends.start() + 1], now) if ends else why
            out[i : i + 1] = [why, rest]
        # (a piece read as why that still commands a change is a request: nothing asked is left unread)
        why.reason = not _commands_within(why)
    return out


# «акме пилот сумма выросла до 15 тысяч», "Globex amount now 30k": a sum set without a verb
_AMOUNT_SAID = LazyRe(r"(?i)\b(?:сумм\w*|amount|value)\b[^,;.!?]{0,25}?\d")
_OLD_VALUE = LazyRe(
    r"(?i)\b(?:сумм\w*|amount|value|стади\w*|stage|срок|due|owner|ответственн\w*|владел\w*)\b[^,;]*\b(?:было|была|был|were|was)\b"
)
_STATE_SAID = LazyRe(
    r"(?i)\b(?:в\s+курсе|на\s+сч[её]т[еу]|в\s+отпуске|на\s+связи|на\s+больничном|в\s+силе|в\s+пути|в\s+теме|"
    r"in\s+the\s+loop|on\s+board|in\s+the\s+bank|on\s+vacation|on\s+leave)\b"
)


# «…; и due сдвинь на 18 дек», "…. Priority bump to high": the field named first, then what to do with it
_FIELD_FIRST = LazyRe(
    r"(?i)^(?:due(?:\s+date)?|deadline|срок|дедлайн|priority|prio|приоритет|status|статус|stage|стади[юя]|"
    r"assignee|исполнител[яь])\s+(?=\S)"
)


# «…. и note к компании Globex: …», "… and a task for Oleg: …": the next request named by its thing and where
_THING_FOR = LazyRe(
    r"(?i)^(?:an?\s+)?(?:(?:crm|attio|linear|срм)\s+)?(?:note|заметк[уаи]|task|задач[уаи]|таск|comment|коммент\w*)\s+"
    r"(?:к|в|на|для|по|to|on|for)\s+\S"
    # «… поставь. И в сделку заметку: …»: where it goes, then the thing
    r"|^(?:в|к|на|по|to|on|in)\s+(?:[^\W\d_][\w-]*\s+){1,3}?(?:note|заметк[уаи]|task|задач[уаи]|таск|comment|коммент\w*)\s*[:—–-]"
    # «… . и себе задачу на понедельник — позвонить Джейн»: whom it is for, then the thing
    r"|^(?:себе|мне|ему|ей|им)\s+(?:ещё\s+|еще\s+)?(?:задач[уи]|таск|напоминани[ея]|напоминалк[уи])\b"
    # «… . И задача мне — подготовить расчёт …», "… . And a task for me — …": the thing, whom, then what it is
    r"|^(?:an?\s+)?(?:задач[уаи]|таск[уа]?|напоминани[ея]|task|reminder)\s+(?:(?:мне|себе|ему|ей|им|for\s+\w+|для\s+\w+)\s+)?"
    r"[—–:-]\s*\S"
)


# «Заметку с причиной добавь к самой сделке: …», "The note, add it to the deal": the thing, then its verb
# "…: wants SOC2 report. also ENG ticket 'send SOC2 report to Globex' label security": a new thing, its name quoted
_NEW_THING_NAMED = LazyRe(
    r"(?i)^(?:(?:also|and|plus|then|и|а\s+также|также|ещё|еще|потом)[,\s]+)*"
    r"(?:(?:an?\s+|new\s+|нов\w+\s+)?(?-i:[A-Z]{2,5})\s+|an?\s+|new\s+|нов\w+\s+)"
    r"(?:ticket|issue|bug|task|тикет\w*|задач\w*|баг\w*)\b[^.!?«\"'“]{0,30}?[«\"'“]"
)
_THING_THEN_VERB = LazyRe(
    r"(?i)^(?:an?\s+|the\s+)?(?:note|заметк[уаи]|task|задач[уаи]|comment|коммент\w*)\b[^.:!?]{0,40}?"
    r"\b(?:добавь|оставь|запиши|прикрепи|поставь|создай|заведи|напиши|add|leave|log|put|create|attach)\b"
)


_ADD_THAT = LazyRe(
    r"(?i)(?:please\s+)?(?:add|save|put|use|добавь|сохрани)\s+(?:that|this|it|это)(?:\s+(?:too|there|туда))?[.!]?"
)
_DESCRIBED = LazyRe(r"(?i)\b(?:описани\w*|description)\b")


def _infinitive_first(text: str) -> bool:
    first = re.match(r"\s*([а-яё]+)", text, re.I)
    return first is not None and is_infinitive(first.group(1))


def _asks_next(text: str, now: datetime) -> bool:
    """The words after a note's or a comment's end start a request of their own."""
    field = _FIELD_FIRST.match(text)
    return (
        _starts_with_verb(analyse(text[field.end() :] if field else text, now))
        or bool(_NEW_THING_NAMED.match(text))
        or bool(_THING_FOR.match(text))
        or bool(_THING_THEN_VERB.match(text))
        or _place_then_verb(text)
        # «…: бюджет утверждён. В Linear в CS задачу на Олега: …»: a thing asked for in another system
        or bool(_ANOTHER_THING_ASKED.match(text))
        and _asks_another_thing(analyse(text, now))
        # "…: signed for 3 years, and the onboarding template", «…, и шаблон онбординга»
        or bool(TEMPLATE_ALONE.fullmatch(re.sub(r"(?i)^(?:шаблон\w*|template)\s+", "", text.strip(" .!"))))
        # «…: настроить SCIM, срок 4 декабря. И в заметку к сделке X: …»: a note asked for, its verb unsaid
        or bool(_A_NOTE_ASKED_BARE.match(text))
        or _verb_last(text)
        or bool(_ID_HANDED_OVER.match(text))
        # "new company: Stark Industries, stark.com. Then a deal 'Stark POC' for them, …": another record
        or bool(_ANOTHER_RECORD.match(text))
        or bool(re.match(r"(?i)(?:note|заметк[аиу])\s*:\s*\S", text))  # "…, note: signed"
    )


_ANOTHER_RECORD = LazyRe(
    r"(?i)^(?:an?|new|another|one\s+more|нов\w+|ещё\s+одн\w+|еще\s+одн\w+)\s+(?:[\w-]+\s+)?(?:deal|company|contact|person|сделк\w*)\b"
)


# «…, и ENG-104 на Макса»: an issue said, then whom it goes to
_ID_HANDED_OVER = LazyRe(
    r"(?i)^[A-Z]{1,10}-\d+\s*(?:[—–:-]\s*)?(?:на|to|→|->)\s+(?:меня|мне|me|(?-i:[A-ZА-ЯЁ])[\w-]+)\s*[.!]?\s*$"
)


def _verb_last(text: str) -> bool:
    """«…, и онбординг в Linear запусти»: a short request with its verb said last."""
    words = re.findall(r"[^\W\d_][\w-]*", text)
    return (
        2 <= len(words) <= 7
        and not words[-1].isascii()
        and is_imperative(words[-1].lower())
        # (what it is done to, named: «и это, на Олега повесь» says more of the request before it)
        and bool(_A_THING_NAMED.search(" ".join(words[:-1])))
    )


_A_THING_NAMED = LazyRe(
    r"(?i)\b(?:задач\w*|тикет\w*|баг\w*|заметк\w*|сделк\w*|встреч\w*|созвон\w*|онбординг\w*|шаблон\w*|продлени\w*|"
    r"linear|линеар\w*|crm|црм|attio|аттио|календар\w*)\b"
)


def _place_then_verb(text: str) -> bool:
    """ "По сделке Initech renewal создай задачи продления": where it goes first, then what to do."""
    words = re.findall(r"[^\W\d_][\w-]*", text)[:7]
    if not words or words[0].lower() not in ("по", "для", "к", "в", "на"):
        return False
    return any(not w.isascii() and is_imperative(w.lower()) for w in words[2:])


def _imperative_first(text: str) -> bool:
    """The words open with a Russian imperative («и напиши в коммент …»), whatever verb it is."""
    words = [w for w in re.findall(r"[^\W\d_]+", text.lower()) if w not in ("и", "а", "ну", "пожалуйста")]
    return bool(words) and not words[0].isascii() and is_imperative(words[0])


def _commands_within(c: Clause) -> bool:
    """Some Russian word of the clause commands one of our changes, wherever it stands («а сделку Глобекса
    переводи в КП», «и срок поставь на четверг»): a request, not more of why."""
    return any(
        not k.text.isascii()
        and is_imperative(k.text)
        and any(k.text in CUES[v] or k.lemmas & CUES[v] for v in VERBISH if v not in _NOT_COMMANDS)
        for k in c.keys
    )


_NOT_COMMANDS = ("query", "signed", "refused", "lost")


_STAGE_OR_STATE = frozenset(
    "lead qualification proposal negotiation won lost todo backlog done triage progress review canceled cancelled".split()
)


def _starts_with_verb(c: Clause) -> bool:
    """The clause opens with an action verb (its first word, or the first after a courtesy/filler)."""
    keys = [
        k
        for k in c.keys
        if k.text
        not in (
            "и",
            "а",
            "ну",
            "and",
            "then",
            "please",
            "пожалуйста",
            "also",
            "ещё",
            "еще",
            "oh",
            "um",
            "uh",
        )
    ]
    if not keys:
        return False
    first = keys[0]
    lead = re.sub(r"(?i)^\W*(?:(?:и|а|ну|and|then|please|also|oh|um|uh)\W+)*", "", c.text)
    if any(rx.match(lead) for rx, _ in PHRASES):
        return True  # a phrase read as a verb: "get ENG a ticket", "tick off CS-12"
    verbs = [v for v in VERBISH if v not in ("query", "signed", "refused", "lost")]
    if (
        len(keys) > 1
        and (
            lead[:1].isupper()
            and not first.text.isascii()
            or first.text in ("ему", "ей", "им", "мне", "себе")
        )
        or len(keys) > 1
        and lead[:1].isupper()
        and first.text.isascii()
        and not keys[1].text.isascii()
        and not lead.split()[0].isupper()  # («… в ENG и CS поставь срок …»: a team's key, not whom)
        # (nor a stage or a state: «на стадиях Proposal и Negotiation поставь …»)
        and first.text not in _STAGE_OR_STATE
    ) and is_imperative(keys[1].text):
        # «…, Jane добавь заметку «…»», «…, ему поставь задачу»: whom, then the verb
        return any(keys[1].text in CUES[v] or keys[1].lemmas & CUES[v] for v in verbs)
    return any(first.text in CUES[v] or first.lemmas & CUES[v] for v in verbs)


def _first_verb(c: Clause, *more: str) -> str | None:
    positions = [
        i
        for v in ("create", "put", "delete", "archive", "move", "schedule", *more)
        for i in c.cue_positions(v)
    ]
    verb = c.keys[min(positions)].text if positions else None
    if (
        verb is not None
        and min(positions) > 0
        and c.keys[min(positions) - 1].text.lower() in ("не", "not", "don't")
    ):
        return None  # «больше ничего не создавай — задачи … уже есть»: a verb told not to is lent to nothing
    if (
        verb in NEW_WORDS
    ):  # "new company …, and a deal …": the verb lent to the next is "create", not the adjective
        return "create" if verb == "new" else "создай"
    return verb
