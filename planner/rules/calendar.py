"""Timeblocks and meetings (seed 000: `timeblock_create`), as Google Calendar events."""

from __future__ import annotations

import re
from datetime import time

from planner import references as refs
from planner._lazy_re import LazyRe
from planner.analysis import TIME_NEEDED, Clause, analyse, head_of, reports_past
from planner.context import BuildContext
from planner.dates import range_start, time_ranges
from planner.dialogue import EVENT_CHANGE
from planner.directory import Entity
from planner.intents.models import CreateEvent
from planner.resolve import best, fits_a_full_name, key_spans, keys_for, match_words
from planner.rules import rule
from planner.rules._common import (
    _COURTESY,
    AT_A_MEETING,
    POINTED,
    find,
    quoted,
    strip_fillers,
    strip_spans,
    without_heading,
)
from planner.text import IN_QUOTES, is_imperative, is_past, lemma, norm

__all__ = ["timeblock"]


_TOPIC = LazyRe(
    r"(?i)(?:^|[,;.]\s*|\s)(?:тема|темой|topic|subject|agenda)\s*[:—–-]?\s+([^,;.]{3,}?)\s*(?:[,;.]|$)"
)


_FROM_SOMEONE = LazyRe(r"(?i)^\s*(?:from|от)\s+[^\W\d_]")
_TITLE_SAID = LazyRe(r"(?i),\s*(?:title|titled|тема|название)\s*[:—-]?\s+([^,.;]{3,120}?)\s*[.!]?\s*$")


def _without_need(text: str) -> str:
    """ "also I need an hour tomorrow at 2pm to prep the handover" -> the words after the need, in place."""
    need = TIME_NEEDED.match(text)
    return " " * need.end() + text[need.end() :] if need else text


def _title(
    clause: Clause,
    ctx: BuildContext,
    meeting: bool,
    names: list[str] = [],  # noqa: B006 - read only
    for_whom: set[str] = set(),  # noqa: B006 - read only
) -> str:
    if clause.after_colon and not meeting:
        return clause.after_colon[:120]
    named = _TITLE_SAID.search(clause.text)
    if not meeting and named:  # «блок завтра в 9:30 на 45 мин, назови разбор багов»: the name it was given
        return named.group(1).strip()[:120]
    if (
        not meeting
    ):  # "поставь мне блок завтра в десять на час подготовиться к демо" -> "Блок: подготовиться к демо"
        spans = list(clause.moment.spans) + ([clause.duration_span] if clause.duration_span else [])
        rest = re.sub(
            r"(?i)\b(?:э+|ну|слушай|а|пожалуйста|please|поставь|поставить|заблокируй|забронируй|запланируй|put|set|"
            r"book|block|блок\w*|time\s*block|focus(?=\s+(?:block|time)\b)|мне|me|a|an|the|for|на|в|с|from|под|on|my|calendar|календар\w*|"
            r"утра|вечера|дня|ночи)\b",  # (what is left of «с семи до девяти утра»)
            " ",
            strip_fillers(strip_spans(_without_need(clause.text), spans)),
        )
        rest = re.sub(r"\s{2,}", " ", rest).strip(" ,.;:-—")
        block = ctx.t("Блок", "Focus block")
        return f"{block}: {rest}"[:120] if len(rest) >= 3 else block
    called = re.search(
        r"(?i)\b(?:called|named|titled|under\s+the\s+title|под названием|с названием)\s+([^,.;]+?)\s*(?:[,.;]|$)"
        r"|\b(?:title|название|тема)\s*[:—-]?\s*['\"«“]([^'\"»”]{3,120})['\"»”]"  # "…, title 'Globex pilot check-in'"
        r"|,\s*(?:title|titled|subject)\s*[:—-]?\s+([^,.;'\"«“]{3,120}?)\s*[.!]?\s*$",  # "…, title Acme joint review."
        clause.text,
    )
    topic = _TOPIC.search(clause.text)  # «…, тема — планирование квартала», "…, topic: pricing review"
    name = (
        quoted(clause.text, at_least=3)
        or ((called.group(1) or called.group(2) or called.group(3)) if called else None)
        or (topic.group(1)[:1].upper() + topic.group(1)[1:] if topic else None)
    )
    if name:  # «создай в календаре «Онбординг Acme Logistics» …», "… called Initech QBR": its name
        return name.strip()[:120]
    spans = list(clause.moment.spans) + ([clause.duration_span] if clause.duration_span else [])
    s = _COURTESY.sub(" ", strip_spans(clause.text, spans))
    s = re.sub(
        r"(?i)^\s*(?:таск[аи]|задач[аи]|todo|to-do|task)\s*:\s*", "", s
    )  # «таска: созвон …»: the meeting
    # "…, invite alex.brown@gmail.com": a guest by address, in the attendees ("with sam@… and John Smith": with John)
    s = re.sub(rf"(?i)\b(with|с|со)\s+{_AN_EMAIL}\s*(?:,|\band\b|\bи\b|&)\s*", r"\1 ", s)
    s = _EMAIL_GUEST.sub(" ", s)
    s = _INVITE.sub(" ", s)  # "…, пригласи Джейн и Олега": who comes is in the attendees
    brought = _BROUGHT_IN.search(s)  # "add Jane Doe & John Smith to a call re: integration": "Call with …"
    if brought and not brought.group(2):
        who = brought.group(1) or brought.group(3)
        s = s[: brought.start()] + ctx.t(f"созвон с {who}", f"call with {who}") + s[brought.end() :]
    # "We need a follow-up with Maria…; she prefers mornings. Please book 30 minutes with her on Monday":
    # the sentence that books it names it, the others are context
    sentences = [x for x in re.split(r"(?<=[.;!?])\s+", s) if x.strip()]
    s = next((x for x in reversed(sentences) if _BOOKING.search(x) or clause_has_meeting(x)), s)
    s = next((x for x in reversed(re.split(r"\s+[—–]\s+", s)) if clause_has_meeting(x)), s)
    # "Jane would like a working session": the session is the title, not who wants it
    s = re.sub(r"(?i)^.*?\b(?:would\s+like|wants?|needs?|хоч\w+|нужн\w*)\s+(?:a|an|the)?\s*(?=\S)", "", s)
    s = without_heading(strip_fillers(s))
    s = re.sub(
        r"^\s*(?:(?:запланируй|назначь|поставь|создай|добавь|запиши|запланировать|назначить|поставить|создать|добавить|"
        r"забронировать|организовать|schedule|book|set up|create|add|put|arrange|organi[sz]e|"
        r"pencil\s+in|block(?:\s+(?:out|off))?|(?:an?\s+)?(?:hour|half\s+an\s+hour|\d+\s+minutes)|on|for(?:\s+the)?)\s+)+"
        r"(?:(?:a|an|the|мне|another|one\s+more|ещё\s+одн\w+|еще\s+одн\w+)\s+)?",  # "book another call …"
        "",
        s,
        flags=re.IGNORECASE,
    )
    s = re.sub(
        r"(?i)(?:^|\s+)(?:in|into|on)\s+(?:the|my|our)\s+(?:diary|calendar)\b|(?:^|\s+)в\s+календар\w*",
        " ",
        s,
    )
    s = re.sub(
        r"(?:\s+(?:on|at|in|for|from|to|by|в|во|на|с|до|к))+\s*[,.;!?]*\s*$",
        "",
        s.strip(" ,.;:-—"),
        flags=re.I,
    )
    s = re.sub(r"\s{2,}", " ", s).strip(" ,.;:-—")
    head, _, rest = s.partition(" ")
    if for_whom and norm(head) in for_whom:  # "поставь Олегу созвон с Initech": the title is the call
        head, _, rest = rest.partition(" ")
    if re.fullmatch(r"[а-яё]+", head, re.I) and not head.lower().endswith(
        "ью"
    ):  # («ревью», «интервью»: as said)
        head = lemma(head)  # "поставь встречу с Джейн" -> "Встреча с Джейн"
    s = f"{head} {rest}".strip()
    if names:  # «созвон с ней» after naming her: the title says who
        s = re.sub(
            r"(?i)\b(with|с|со)\s+(?:her|him|them|ней|ним|ними)\b", rf"\1 {', '.join(names)}", s, count=1
        )
    if not s or re.fullmatch(r"(?i)(?:with|с|со)\s+\S+", s):  # "book 30 minutes with her"
        s = ctx.t("Встреча", "Meeting") + (f" {ctx.t('с', 'with')} {', '.join(names)}" if names else "")
    elif re.match(r"(?i)(?:with|с|со)\s", s):  # "book 30 min with Maria Sokolova"
        s = f"{ctx.t('Встреча', 'Meeting')} {s}"
    return (s[:1].upper() + s[1:])[:120]


def clause_has_meeting(text: str) -> bool:
    return bool(_MEETING_WORD.search(text) or _EVENT_NOUN.search(text))


_MEETING_WORD = LazyRe(
    r"(?i)\b(?:встреч\w*|созвон\w*|собрани\w*|meeting|call|sync|синк\w*|appointment|митинг\w*|session|сесси\w*)\b"
)


_AN_EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
_WITH = LazyRe(  # (an address among them: "with sam@startup.dev and John Smith")
    rf"(?i)\b(?:with|с|со)\s+((?:{_AN_EMAIL}|[^\W\d_][\w'-]*(?:\s+(?!(?:и|and)\b)[^\W\d_][\w'-]*)?)"
    rf"(?:\s*(?:,|\bи\b|\band\b|&)\s*(?:(?:с|со|with)\s+)?(?:{_AN_EMAIL}|[A-ZА-ЯЁ][\w'-]*(?:\s+[A-ZА-ЯЁ][\w'-]*)?))*)"
)
# "invite her", «пригласи Джейн и Олега», "Олег + Мария Соколова": who else is asked to come
# a guest by address: "invite alex.brown@gmail.com", "with a@b.com", «пригласи a@b.com», ", guests: a@b.com"
_EMAIL_GUEST = LazyRe(
    r"(?i)(?:\b(?:invite|invited|with|and|attendees?|guests?|пригласи\w*|позови|с|и|участник\w*)\s*:?\s+|[,;]\s*|\+\s*)"
    r"([\w.+-]+@[\w-]+(?:\.[\w-]+)+)\b"
)
_INVITE = LazyRe(
    r"(?i)\b(?:invite|пригласи\w*|позови|зов[иу])\s+([^\W\d_][\w'-]*(?:(?:\s*(?:,|\bи\b|\band\b|&|\+)\s*|\s+)"
    r"[^\W\d_][\w'-]*){0,5})"
    r"|\b([A-ZА-ЯЁ][\w'-]*(?:\s+[A-ZА-ЯЁ][\w'-]*)?)\s+(?i:позови|пригласи|зови)\b"  # «и Марию позови»
)
_NAMES = r"[A-ZА-ЯЁ][\w'-]*(?:\s+[A-ZА-ЯЁ][\w'-]*)?(?:\s*(?:,|\band\b|&|\bи\b)\s*[A-ZА-ЯЁ][\w'-]*(?:\s+[A-ZА-ЯЁ][\w'-]*)?)*"
# "add Jane Doe & John Smith to a call Mon 10am", "Sarah wants Maria Sokolova invited to a call": who comes
_BROUGHT_IN = LazyRe(
    rf"\b(?i:add|get|bring|put|добавь)\s+({_NAMES})\s+(?i:to|into|on|в|на)\s+(?i:a|the|my|our|her|his)?\s*"
    r"(?:\d+[\s-]?(?i:min\w*|minute\w*|hour|h)\s+)?(?i:call|meeting|sync|созвон\w*|встреч\w*)\b"
    # "Ivan wants a call Thu 3pm", «Мария просит созвон»: who asks for the call comes to it
    rf"|^\s*({_NAMES})\s+(?i:wants|would\s+like|needs|asked\s+for|is\s+asking\s+for|просит|хочет|предлагает)\s+"
    r"(?i:a|an|the)?\s*(?=(?:\d+[\s-]?(?i:min\w*|minute\w*|hour|h)\s+)?(?i:call|meeting|sync|созвон\w*|встреч\w*)\b)"
    rf"|({_NAMES})\s+(?i:invited|приглаш\w+)\b(?:\s+(?i:to|на)\s+(?i:a|the|her|his)?\s*"
    r"(?:\d+[\s-]?(?i:min\w*|minute\w*|hour|h)\s+)?(?i:call|meeting|sync|созвон\w*|встреч\w*)\b)?"
)
_PLUS = LazyRe(r"([^\W\d_][\w'-]*(?:\s+[A-ZА-ЯЁ][\w'-]*)?)\s*\+\s*([^\W\d_][\w'-]*(?:\s+[A-ZА-ЯЁ][\w'-]*)?)")


# one or two capitalised words, said as a person is: «Питером Паркером», "Sarah Lee"
_A_PERSONS_NAME = LazyRe(r"(?-i:[A-ZА-ЯЁ][a-zа-яё'-]{1,20})(?:\s+(?-i:[A-ZА-ЯЁ][a-zа-яё'-]{1,20}))?")


# "kickoff with Romashka, Dec 2 at 12:00": a month or a weekday after the comma is when, not who
_A_DAY_WORD = LazyRe(
    r"(?i)(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|"
    r"today|tomorrow|tonight|next|this)[a-z]*\b|(?:янв|фев|мар|апр|ма[йя]|июн|июл|авг|сен|окт|ноя|дек|понед|вторн|сред|"
    r"четв|пятн|суб|воскр|сегодня|завтра|послезавтра)[а-яё]*"
)


async def _who(clause: Clause, ctx: BuildContext, words: str) -> Entity | str | None:
    """The colleague or contact `words` name; the words themselves when several fit (asked later)."""
    hits = [
        x
        for kind in ("member", "person")
        for x in await find(ctx, clause, kind, text=words)
        if x.score >= 0.5 and (x.entity.extra.get("email") or x.entity.extra.get("emails"))
    ]
    hits.sort(key=lambda x: (-x.score, -len(x.positions)))  # "с Иваном Петровым": Ivan Petrov
    if not hits and _A_PERSONS_NAME.fullmatch(words.strip()) and not _A_DAY_WORD.match(words.strip()):
        # «встреча с Питером Паркером», "lunch with Sarah Lee": someone nobody here knows — asked who (an
        # address, or no invitation), never left out unsaid; a company or a team said so is no guest
        for kind in ("company", "deal", "team", "project"):
            try:
                if [x for x in await find(ctx, clause, kind, text=words) if x.score >= 0.5]:
                    return None
            except LookupError:
                continue
        return words
    top = best(hits)
    if top and not fits_a_full_name(words, top[0]):  # «с Петром Николаевым»: asked, never Ivan Petrov
        return words
    if len(top) > 1:  # "с Иваном": a contact's first name and a colleague's surname
        at = key_spans(words)
        return " ".join(words[at[i][0] : at[i][1]] for i in sorted(top[0].positions) if i < len(at))
    return top[0].entity if top else None


async def _attendees(clause: Clause, ctx: BuildContext) -> tuple[list[Entity | str], set[str]]:
    """People a meeting is with ("with Jane Doe", "с Олегом", "пригласи Джейн и Олега", "Олег +
    Мария", "invite her" after naming her): colleagues and CRM contacts with an email; and a
    colleague it is booked for ("поставь Олегу созвон", "For Oleg: book …"), who would not know of
    it otherwise (with the words that named them). The person asking is the organiser, never an
    attendee."""
    found: list[Entity | str] = []
    taken: list[tuple[int, int]] = []  # words that named someone already: spoken for
    phrases: list[tuple[str, tuple[int, int]]] = []
    for m in _WITH.finditer(clause.text):  # "с Олегом и Марией Соколовой": each of them
        at = m.start(1)
        for part in re.split(r"(?i)(\s*(?:,|\bи\b|\band\b|&)\s*(?:(?:с|со|with)\s+)?)", m.group(1)):
            if part.strip() and not re.fullmatch(
                r"(?i)\s*(?:,|\bи\b|\band\b|&)\s*(?:(?:с|со|with)\s+)?", part
            ):
                phrases.append((part.strip(), (at, at + len(part))))
            at += len(part)
    for m in _BROUGHT_IN.finditer(clause.text):
        group = next(g for g in (1, 2, 3) if m.group(g))
        at = m.start(group)
        for part in re.split(r"(?i)(\s*(?:,|\band\b|&|\bи\b)\s*)", m.group(group)):
            if part.strip() and not re.fullmatch(r"(?i)\s*(?:,|\band\b|&|\bи\b)\s*", part):
                phrases.append((part.strip(), (at, at + len(part))))
            at += len(part)
    for m in _PLUS.finditer(clause.text):
        phrases += [(m.group(1), m.span(1)), (m.group(2), m.span(2))]
    added = _ADD_TO_CALENDAR.search(clause.text)  # "add Jane Doe to my calendar on Thursday at 11:30"
    if added:
        phrases.append((added.group(1), added.span(1)))
    bare = _MEETING_THEN_NAME.match(clause.text)
    if bare and not phrases:  # «созвон джон пт 11:00»: telegraphic, the person right after the meeting
        phrases.append((bare.group(1), bare.span(1)))
    pointed = False
    for m in _INVITE.finditer(clause.text):
        group = 1 if m.group(1) else 2
        for part in re.split(r"(?i)\s*(?:,|\bи\b|\band\b|&|\+)\s*", m.group(group)):
            if POINTED.match(part.strip()):
                pointed = True
            elif part.strip():
                start = clause.text.find(part, m.start(group))
                phrases.append((part.strip(), (start, start + len(part))))
    full = str(ctx.memory.get("full_text", ""))
    scene = re.match(r"(?i)\s*(?:for|для)\s+([^\W\d_][\w'-]*(?:\s+[A-ZА-ЯЁ][\w'-]*)?)\s*:", full)
    if scene and scene.group(0) not in clause.text:  # "For Oleg: book 30 min with Maria …"
        who = await _who(clause, ctx, scene.group(1))
        if isinstance(who, Entity) and who.kind == "member":
            found.append(who)
    for words, span in phrases:
        if "@" in words or re.match(r"[@.]\w", clause.text[span[1] : span[1] + 2]):
            continue  # an address («с ivan@vektor.ru»): the guest it names is added as it is (below)
        if POINTED.match(words.split()[0]):  # «созвон с ней в 12», "a call with him": someone named before
            pointed = True
            continue
        who = await _who(clause, ctx, words)
        taken.append(span)
        if who is not None and who not in found:
            found.append(who)
    for guest in _EMAIL_GUEST.finditer(clause.text):  # "invite alex.brown@gmail.com": whoever it is
        address = guest.group(1).lower()
        if address not in [x.lower() if isinstance(x, str) else "" for x in found]:
            found.append(address)
        taken.append(guest.span(1))
    me = await refs.me_user(ctx)
    spans = key_spans(clause.text)
    for_whom: set[str] = set()
    for kind in ("member", "person"):
        for hit in await find(ctx, clause, kind):
            where = [spans[i] for i in sorted(hit.positions) if i < len(spans)]
            # words another attendee was named by are theirs («с Иваном Сидоровым» is no Oleg Ivanov), the rest
            # may still name someone («для Олега»)
            where = [(x, y) for x, y in where if not any(a <= x < b for a, b in taken)]
            if not where:
                continue
            said = [clause.text[x:y] for x, y in where]
            named = hit.score >= 0.9 or (hit.score >= 0.5 and all(w[:1].isupper() for w in said))  # not "max"
            mine = me is not None and hit.entity.extra.get("email") == me.extra.get("email")
            # a colleague named anywhere is who it is for; a contact only when "invite her" points back
            wanted = kind == "member" or pointed and hit.score >= 0.5 or hit.score >= 0.9 and pointed
            reachable = hit.entity.extra.get("email") or hit.entity.extra.get("emails")
            if wanted and named and not mine and reachable and hit.entity not in found:
                found.append(hit.entity)
                if kind == "member":
                    for_whom.update(norm(w) for w in said)
    if pointed and not any(
        isinstance(e, Entity) and e.kind == "person" for e in found
    ):  # "Copying from Jane Doe's email: … invite her"
        for before in reversed(ctx.memory.get("said") or []):
            people = {
                m.entity.id: m.entity
                for m in await find(ctx, clause, "person", text=before)
                if m.score >= 0.9 and (m.entity.extra.get("email") or m.entity.extra.get("emails"))
            }
            if len(people) == 1:
                found.extend(people.values())
                break
    return found, for_whom


_ADD_TO_CALENDAR = LazyRe(
    r"(?:add|put|book)\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s+(?:to|in|into|on)\s+(?:my|the|our)\s+calendar\b"
)
_MEETING_THEN_NAME = LazyRe(
    r"(?i)^\s*(?:созвон\w*|встреч\w*|звонок|колл|call|meeting|sync|синк)\s+(?!с\b|со\b|with\b|в\b|на\b|at\b|on\b)"
    r"([^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*)?)"
)
_BOOKING = LazyRe(r"(?i)\b(?:schedule|book|запланируй\w*|запланировать)\b")
_EVENT_NOUN = LazyRe(
    r"(?i)(?<![\w-])(?:kick-?offs?|demos?|демо|презентаци\w+|presentations?|interviews?|собеседовани\w+|"
    r"stand-?ups?|стендап\w*|one-on-ones?|1:1|catch-?ups?|(?:calendar\s+)?hold|слот\w*|(?:phone\s+)?screens?|"
    r"orientation|onsite|offsite|workshops?|воркшоп\w*|trainings?|тренинг\w*|webinars?|вебинар\w*|"
    r"all-hands|lunch(?:\s*(?:&|and)\s*learn)?|обед\w*|планёрк\w*|планерк\w*|retro|ретро)(?![\w-])"
)


def _event_like(clause: Clause) -> bool:
    """ "schedule a kickoff with Jane on Dec 3 at 11", "book 30 min with Maria at 10": a booking verb or
    an event's name with a clock time is a calendar event, though no meeting word is said — unless
    an issue, a task or a note is what the clause names."""
    timed = clause.moment.at is not None or range_start(clause.text) is not None
    if not timed or clause.identifiers or clause.has("issue", "task", "note", "comment", "project", "remind"):
        return False
    in_calendar = re.search(
        r"(?i)\b(?:в\s+календар\w*|(?:in|on|to)\s+(?:the\s+|my\s+)?calendar)\b", clause.text
    )
    lasting = clause.duration is not None or range_start(clause.text) is not None
    return bool(
        _BOOKING.search(clause.text)
        or _EVENT_NOUN.search(clause.text)
        or (
            in_calendar or lasting and not clause.has("deal", "company", "person", "stage", "priority", "due")
        )
        and clause.has("create", "put", "schedule")  # «создай в календаре «…» 3 декабря в 14:00»
    )


_AFTER_IT = LazyRe(
    r"(?i)^\s*(?:после|after|following)\s+(?:the\s+|our\s+|my\s+)?\S+(?:\s+(?:с|со|with)\s+[^:,.;]+)?\s*(?::|$)"
)
_ISSUE_ABOUT = LazyRe(r"(?i)^\s*(?:задач\w*|тикет\w*|issue|ticket|task)\s+(?:про|о|об|по|about|on|for)\s")


_A_NOTE_FIRST = LazyRe(
    r"(?i)^\s*(?:(?:new|a|новая)\s+)?(?:заметк[аиу]|note)\s+(?:по|к|для|про|на|в|on|for|to|about|in)\s"
)


_OUTCOME_OF = LazyRe(
    r"(?i)^\s*(?:итог\w*|результат\w*|заметки\s+(?:со?|по|после)|по\s+итогам|recap|summary|minutes|notes|"
    r"outcome\w*)\s+(?:of\s+|from\s+|after\s+)?(?:the\s+|our\s+|today'?s\s+|сегодняшн\w+\s+)?"
    r"(?:созвон\w*|встреч\w*|звонк\w*|колл\w*|call|meeting|sync|синк\w*)\b"
)
_A_TASK_FIRST = LazyRe(
    r"(?i)^\s*(?:please\s+)?(?:schedule|set\s+up|create|add|make|поставь|создай|заведи)\s+(?:a\s+|an\s+|мне\s+)?"
    r"(?:follow-?up\s+|crm\s+|attio\s+)?(?:task|reminder|to-?do|задачу|напоминание)\b"
)
# «клиент попросил встречу в пятницу»: a meeting asked for (to be booked), not one told of
_ASKED_FOR = frozenset(
    "просить попросить запросить предложить хотеть захотеть звать позвать пригласить".split()
)
_NOTE_IT = LazyRe(
    r"(?i)\b(?:запиши|занеси|закинь|сохрани|добавь|log|save|put|note)\s+(?:(?:это|всё\s+это|ему|ей|им|it|this|that)\s+)+"
    r"(?:(?:в|во|как|as|in)\s+(?:an?\s+)?(?:\w+\s+)?(?:заметк\w*|note)|заметк\w+)"
    r"|\bзаметкой\s+(?:к|в|для)\b"
)
# a comment or a note with its words quoted: "add a comment 'call scheduled with John for Monday'"
_QUOTED_CONTENT = LazyRe(
    r"(?i)^\s*(?:(?:and|also|и|а\s+также)\s+)?(?:(?:add|leave|post|write|put|добавь|оставь|напиши)\s+)?(?:an?\s+)?"
    r"(?:comment|note|коммент\w*|заметк\w*)\b[^'\"«“]{0,40}['\"«“]"
)


_AN_ISSUE_MADE = LazyRe(
    r"(?i)^\s*(?:(?:please|um+|uh+|ok|so)[,\s]+)*(?:create|add|open|file|log|make|raise)\s+(?:an?\s+|new\s+|a\s+new\s+)?"
    r"(?:linear\s+)?(?:issue|ticket|bug)\b"
    r"|^\s*(?:созда\w*|завед\w*|добав\w*)\s+(?:нов\w+\s+)?(?:тикет\w*|баг\w*|ишью|issue)\b"
)


@rule(10, writes=True)
async def timeblock(clause: Clause, ctx: BuildContext) -> bool:
    if (
        clause.has("rename")
        and not clause.has("meeting", "block")
        or (clause.has("rename") and clause.has("issue", "task", "deal", "company", "project"))
        # «переименуй CS-15 в «Квартальная встреча …»»: an issue renamed, the meeting is in its new name
        or clause.has("rename")
        and clause.identifiers
        and not analyse(IN_QUOTES.sub(" ", clause.text), ctx.now).has("meeting", "block")
    ):
        return False  # "rename the Initech check-in issue to 'Quarterly sync …'": a name, no event
    if _ISSUE_ABOUT.match(clause.text):
        return False  # «Задачу про квартальный созвон … никто не взял»: an issue about a meeting
    if _AN_ISSUE_MADE.match(clause.text):
        return False  # "create an issue for oleg, investigate memory leak in the sync worker": an issue
    if (
        clause.after_colon is not None
        and (head := head_of(clause, ctx.now)).has("note", "note_verb")
        and not head.has("meeting", "block", "schedule")
    ):  # «запиши по Акме: перенесли созвон на четверг»: a note of what happened to a meeting, no event
        return False
    if _A_NOTE_FIRST.match(clause.text) or _NOTE_IT.search(clause.text):
        # «Заметка по Ивану — предпочитает созвоны по вторникам», «…подтвердила встречу, запиши это ей в
        # заметку»: a note's words, no event
        return False
    if _QUOTED_CONTENT.match(clause.text) and not analyse(IN_QUOTES.sub(" ", clause.text), ctx.now).has(
        "meeting", "block", "schedule"
    ):
        return False  # "… and add a comment 'call scheduled with John for Monday'": the meeting is its words
    if reports_past(clause):  # «…, созвон с Acme провели утром», "the call went fine": one that was
        return False
    if _OUTCOME_OF.match(clause.text) and not clause.has("schedule", "create", "put", "block"):
        return False  # «Итоги созвона с Альфа-Лизингом: …», "Recap of the call with Jane": one that was
    if _A_TASK_FIRST.match(clause.text):
        return False  # "Schedule a follow-up task to call Ivan tomorrow": a to-do, the call is what it says
    if (
        not clause.has("schedule", "create", "block", "put", "remind")
        and clause.moment.at is None  # («договорился с Джоном: встреча 4 декабря в 12:00»: a time, to book)
        and clause.duration is None
        and any(not k.text.isascii() and is_past(k.text) and not k.lemmas & _ASKED_FOR for k in clause.keys)
        and not any(not k.text.isascii() and is_imperative(k.text) for k in clause.keys)
    ):
        return False  # «мария соколова подтвердила встречу на следующей неделе»: told, not asked
    if (
        not clause.has("schedule", "create", "block", "put", "remind")
        and clause.moment.day is None
        and clause.moment.at is None
        and clause.duration is None
        and not re.search(r"(?i)\b(?:calendar|календар\w*)\b", clause.text)
        and not re.search(r"(?i)\b(?:with|w/?|с|со)\s+\S", clause.text)
        and ctx.memory.get("clauses", 1) > 1
    ):  # "okay so support sync, …": a meeting named as the heading of what follows, no event asked for
        return False
    if _AFTER_IT.match(
        clause.text
    ):  # «после синка с Олегом: …», "after the call with Jane: …": when, not what
        return False
    if EVENT_CHANGE.match(clause.text):  # "…, and cancel the call with Jane": an event that exists is no
        return False  # new one (alone, the request is answered honestly; beside others, it is named back)
    if AT_A_MEETING.search(clause.text) and not clause.has("schedule", "create", "block", "put"):
        return False  # "I'll hand them out in the planning meeting": where something happens, no new event
    meeting = clause.has("meeting") or _event_like(clause) and not clause.has("block")  # a block said is one
    with_people = re.search(r"\b(?:with|с|со)\s+[A-ZА-ЯЁ][\w-]+", clause.text)
    if (
        not meeting
        and clause.has("block", "schedule")
        and with_people
        and (clause.duration or clause.moment.at)
    ):  # "block out an hour … with Oleg and Max", "schedule an hour with Li Wei … at eleven": theirs too
        for kind in ("member", "person"):
            found = await find(ctx, clause, kind, text=with_people.group(0))
            meeting = meeting or any(m.score >= 0.5 for m in found)
    on_calendar = (
        bool(
            re.search(
                r"(?i)\b(?:on|to|in|into|в|на)\s+(?:my\s+|the\s+|our\s+|мой\s+|свой\s+)?(?:calendar|календар\w*)\b",
                clause.text,
            )
        )
        and not clause.has("task", "issue")
        and (
            clause.has("put", "schedule", "create")
            and (clause.duration is not None or clause.moment.at is not None)
        )
    )  # "put ninety minutes on my calendar tomorrow at 9am": a block
    # "…, and also I need an hour tomorrow at 2pm to prep the handover": time asked for, a block
    needed = bool(clause.duration and clause.moment.at is not None and TIME_NEEDED.match(clause.text))
    if not (clause.has("block") or meeting or on_calendar or needed) or (
        clause.has("query") and not clause.has("create", "put", "schedule")
    ):
        return False
    if clause.identifiers and clause.has("comment"):
        return False  # «в CS-12 оставь комментарий, что созвон назначен»: the comment's words
    if clause.after_colon is not None:  # "issues for DES: …, FAQ block", "заметка: …созвоны с утра"
        head = head_of(clause, ctx.now)
        if not (head.has("block") or head.has("meeting")) and (head.has("note", "issue", "task", "comment")):
            # («таска: созвон … в чт в 16 на час»: a meeting at an hour for a long is what the to-do is)
            content = analyse(clause.after_colon, ctx.now)
            if not (content.has("meeting") and content.moment.at is not None and content.duration):
                return False
    ranges = time_ranges(clause.text)
    if meeting and len(ranges) > 1 and clause.moment.day is not None:
        await _one_per_range(clause, ctx, ranges)  # "two interviews tmrw: 10-11 and 14:00-14:45"
        return True
    ranged = range_start(clause.text)
    at = (time(*ranged) if ranged is not None else None) or clause.moment.at  # "завтра с 9 до 10:30"
    start = None
    day = clause.moment.day
    if at is not None and day is None:
        # «позвонить Джейн завтра — поставь задачу, и в календарь созвон с ней в 12»: the day said
        # just before, in the same message, is the day of the time said now
        before = (ctx.memory.get("said") or [])[-1:]
        day = analyse(before[0], ctx.now).moment.day if before else None
    if at is not None:
        start = refs.at(ctx, day, at).isoformat(timespec="seconds")
    elif clause.moment.day is not None:
        start = clause.moment.day.isoformat()  # the time is asked for, after the duration (seed 000)
    minutes = clause.duration if clause.duration and clause.duration <= 24 * 60 else None
    attendees, for_whom = await _attendees(clause, ctx) if meeting else ([], set())
    before = ctx.said_before() if meeting and not attendees and ctx.clause_index > 0 else ""
    if _FROM_SOMEONE.match(before):  # 'From Li Wei: "Can we get a 45 min call …?" pls book': with Li Wei
        asking = {
            m.entity.id: m.entity
            for m in await find(ctx, analyse(before, ctx.now), "person")
            if m.score >= 0.9
        }
        if len(asking) == 1 and next(iter(asking.values())).extra.get("emails"):
            attendees = [next(iter(asking.values()))]
    names = [a if isinstance(a, str) else a.name for a in attendees]
    met = [a for a in attendees if isinstance(a, Entity) and a.kind == "person"]
    if met:  # "…a meeting with John Smith, and a task for me to send the proposal after the call": his
        ctx.memory["met"] = met[0]
    title = _title(clause, ctx, meeting, names, for_whom)
    if meeting:  # "…the Globex pilot kickoff — Jane would like a working session": what it is about
        about = [
            m.entity for kind in ("deal", "company") for m in await find(ctx, clause, kind) if m.score >= 0.9
        ]
        for record in about[:1]:  # «… созвон с Джоном, и к сделке заметку»: the record the next request means
            ctx.memory["record"] = (record.kind, record)
            if record.kind == "deal":
                ctx.memory["deal"] = record
        said = keys_for(title)
        missing = next((e for e in about if not match_words(keys_for(e.name), said)), None)
        if missing is not None and not any(match_words(keys_for(e.name), said) for e in about):
            title = f"{title} — {missing.name}"[:120]
    await ctx.emit(
        CreateEvent(
            start=start,
            duration_minutes=minutes,
            title=title,
            attendees=names or None,
        )
    )
    return True


_COUNT = LazyRe(r"(?i)^\s*(?:two|three|four|2|3|4|два|две|три|четыре)\s+")


async def _one_per_range(
    clause: Clause, ctx: BuildContext, ranges: list[tuple[int, int, tuple[int, int]]]
) -> None:
    """Several time ranges on one day: an event for each, named by what is left of the words."""
    rest = strip_spans(clause.text, [span for _, _, span in ranges])
    rest = re.sub(r"(?i)(?:[\s,:;]+(?:and|и)?)+\s*$", "", rest)
    words = analyse(rest, ctx.now)
    attendees, for_whom = await _attendees(words, ctx)
    names = [a if isinstance(a, str) else a.name for a in attendees]
    met = [a for a in attendees if isinstance(a, Entity) and a.kind == "person"]
    if met:  # "…a meeting with John Smith, and a task for me to send the proposal after the call": his
        ctx.memory["met"] = met[0]
    title = _title(words, ctx, True, names, for_whom)
    counted = _COUNT.match(title)
    if counted:  # "two interviews", «два собеседования»: each is one
        head, _, tail = title[counted.end() :].partition(" ")
        head = (
            lemma(head) if re.fullmatch(r"[а-яё]+", head, re.I) else re.sub(r"(?i)(?<=[a-z]{3})s$", "", head)
        )
        title = f"{head[:1].upper()}{head[1:]} {tail}".strip()
    for start, end, _ in ranges:
        at = refs.at(ctx, clause.moment.day, time(*divmod(start, 60)))
        await ctx.emit(
            CreateEvent(
                start=at.isoformat(timespec="seconds"),
                duration_minutes=end - start,
                title=title,
                attendees=names or None,
            )
        )
