"""Helpers shared by the intent rules: cleaning a title, priorities, amounts, team/user lookups."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Literal

from planner._lazy_re import LazyRe
from planner.analysis import CUES, STATE_NOW_IF, Clause, analyse
from planner.context import BuildContext
from planner.dates import extract_moment, month_of
from planner.directory import Entity
from planner.numbers import NUMBER_WORDS, money_number, number_from_words, spoken_numbers
from planner.resolve import Mention, WordKey, aliases_of, find_mentions, key_spans, keys_for, match_words
from planner.text import IN_QUOTES

__all__ = [
    "AT_A_MEETING", "COUNT_WORD", "EXCEPT_NAMED", "MOVED_INTO", "says_nothing", "TAKEN_BY_ME", "ORDINAL_ITEM", "POINTED", "POINTED_AT_ONE", "POINTED_TO_ONE", "SOMEONES_WORDS", "amount_of", "due_range", "colleague_asked_for", "group_said", "currencies_said", "currency_code", "clean_title", "company_of", "find", "iso_date", "one_said_before", "priorities_said", "priority_of", "said_outside_quotes", "strip_spans", "strong", "the_companys_one_deal", "the_one_contact_at", "without_heading",
]  # fmt: skip

_LEAD_RU = LazyRe(
    r"^\s*(?:пожалуйста[,\s]+)?(?:(?:созда(?:й|йте|ть)|завед(?:и|ите)|завести|добав(?:ь|ьте)|добавить|сдела(?:й|ть)|"
    r"откр(?:ой|ыть)|запиши|записать|постав(?:ь|ьте|ить)|напомни(?:\s+мне)?)\s+)?(?:(?:мне|ему|ей|им|"
    r"на\s+(?:меня|себя|[а-яё]{3,}[ауя])(?=\s+(?:нов\w+\s+)?(?:задач|таск|тикет|баг)))\s+)?(?:нов(?:ую|ый|ое)\s+)?"
    r"(?:(?:в\s+linear\s+)?(?:задач[уиа]|задачку|таск[уи]?|тикет|баг|ишью|issue|фич[уа])\s*)?(?:в\s+linear\s*)?[:\-—]?\s*"
    r"(?:(?:о\s+том,?\s+что|про|об?(?!\s+том\b)|по\s+поводу|насч[её]т|на(?=\s+[а-яё]+(?:ацию|ицию|ние|ку|ботку)\b))\s+(?=\S))?",  # «задачу про login bug»: what it is about is its title
    re.IGNORECASE,
)
_LEAD_EN = LazyRe(
    r"^\s*(?:please[,\s]+)?(?:(?:create|add|make|open|file|log|raise|remind me|spin\s+up|kick\s+off|set\s+up|put\s+in|throw\s+in|whip\s+up|"
    r"start(?=\s+(?:a|an|new)\s))\s+|get\s+(?:[A-Z]{2,5}\s+|us\s+|me\s+)?)?"
    r"(?:me\s+)?(?:(?:a|an|the)\s+)?"
    r"(?:new\s+)?(?:linear\s+)?(?:(?:task|issue|ticket|bug|todo)s?\b\s*)?(?:in\s+linear\s*)?(?:(?:to|for|about|that)\b)?\s*[:\-—]?\s*",
    re.IGNORECASE,
)
_ROUTING = [
    r"\b(?:в|in|on|to)\s+(?:linear(?:e|е)?|линеар\w*|линейк\w*)\b",
    r"\b(?:в|для|на)\s+команд[еуы]\s+[\w-]+",
    r"\b(?:in|for)\s+(?:the\s+)?[\w-]+\s+team\b",
    r"\b(?:in|for)\s+team\s+[\w-]+",
    r"\b(?:с\s+)?приоритет(?:ом)?\s+(?:высокий|высоким|срочный|срочным|низкий|низким|средний|средним|urgent|high|low)\b",
    r"\b(?:высокий|срочный|низкий|средний)\s+приоритет\b",
    r"\b(?:with\s+)?(?:urgent|high|low|medium)\s+priority\b",
    r"\bpriority\s+(?:urgent|high|low|medium)\b",
    # "Maria asked for X - file it in ENG": the problem told, then the ask, which is no part of the title
    r"\s[—–-]\s+(?:please\s+)?(?:file|log|create|add|open|make|raise|track|заведи|создай|добавь|оформи)\s+"
    r"(?:it|this|that|это|его|её|ее)\b",
    # "Globex asked for a CSV export of audit logs. Log it as a customer-request issue in ENG": told, then asked
    r"(?<=[.!])\s+(?:please\s+)?(?:file|log|create|add|open|make|raise|track|put|заведи|создай|добавь|оформи|запиши)\s+"
    r"(?:it|this|that|это|его|её|ее)\b.*$",
    # "file it as a customer request": what kind of issue (a label), not what it is about
    r"\bas\s+an?\s+(?:customer\s+request|feature\s+request|feature|bug|issue|ticket)\b",
]


_EMPTY_TITLES = {"на", "в", "во", "к", "до", "by", "on", "at", "for", "to", "a", "an", "the", "мне", "me", "задачу",
                 "задача", "task", "issue", "новую", "new", "название", "заголовок", "name", "title",
                 "feature request", "a feature request", "feature", "bug report", "request", "ticket", "bug",
                 "фича-реквест", "фичреквест", "запрос", "баг", "тикет"}  # fmt: skip


# the records said as left out, by name: "except Globex", «кроме Ромашки» (up to the next comma or request)
EXCEPT_NAMED = LazyRe(
    r"(?i)[,\s]*\b(?:except(?:\s+for)?|but\s+not|excluding|apart\s+from|other\s+than|кроме|за\s+исключением|"
    r"не\s+считая)\s+((?:the\s+)?[^\W\d_][\w-]*(?:\s+(?:and|и|&|,)?\s*[^\W\d_][\w-]*){0,3}?)"
    r"(?=\s*(?:[,.;!:—–-]|$|\s(?:поставь|переведи|передай|отдай|move|set|hand|give|put|to|в|на)\b))"
)
# «пилот Acme Logistics забираю себе», «задачу про SSO я забираю себе», "I'll take it over": one there is,
# taken over by the person — nothing new is made of it
TAKEN_BY_ME = LazyRe(
    r"(?i)\b(?:забираю|забрала?|беру|возьму)\s+(?:её\s+|ее\s+|его\s+|их\s+)?(?:себе|на\s+себя)\b"
    r"|\b(?:i'?ll|i\s+will|i'?m)\s+(?:take|taking)\s+(?:(?:it|this|that|them)\s+)?over\b"
)
# words that only ask for a to-do ("remind me", «закинь таску»): a title of these says nothing
_ONLY_THE_ASK = frozenset().union(
    *(CUES[c] for c in ("create", "put", "remind", "task", "issue")),
    {
        "мне",
        "me",
        "please",
        "пожалуйста",
        "pls",
        "plz",
        "a",
        "an",
        "the",
        "new",
        "новую",
        "новая",
        "ещё",
        "еще",
        "one",
    },
)


# "file a bug for the customer": who it is for, not what it is
_VAGUE_TITLE = LazyRe(
    r"(?i)(?:for\s+|для\s+|от\s+|from\s+)?(?:the\s+|a\s+|our\s+|this\s+|that\s+|этого\s+|нашего\s+)?"
    r"(?:customer|client|user|them|him|her|it|this|that|клиент[аеу]?|пользовател[яюе]|него|неё|нее|них|им|ему|ей)"
    r"|(?:на|for|для)\s+[A-ZА-ЯЁ][\w-]+"  # «заведи задачу на Олега»: whom it is for, not what
)


def quoted(text: str, *, at_least: int = 1, apostrophes: bool = False) -> str | None:
    """The words said in quotes («…», "…", “…”), at least `at_least` characters of them; with
    `apostrophes`, also '…' standing apart from words (so "don't" is no quote), whichever comes first."""
    pattern = rf"[«\"“]([^»\"”]{{{at_least},}})[»\"”]"
    if apostrophes:
        pattern += rf"|(?<!\w)'((?:[^']|(?<=\w)'(?=\w)){{{at_least},}})'(?!\w)"  # "…Thursday's sync…" inside
    m = re.search(pattern, text)
    return (m.group(1) or m.group(m.lastindex or 1)) if m else None


# a quote of four words or more with a comma or a sentence's end inside, or of eight words or more: someone's
# words, not a record's name («Acme Corp — annual license» is one)
SOMEONES_WORDS = LazyRe(
    r"«(?=[^«»]*[,.!?;][^«»]*»)(?:[^«»\s]+\s+){3,}[^«»]*»|«(?:[^«»\s]+\s+){7,}[^«»]*»"
    r"|“(?=[^“”]*[,.!?;][^“”]*”)(?:[^“”\s]+\s+){3,}[^“”]*”|“(?:[^“”\s]+\s+){7,}[^“”]*”"
    r'|"(?=[^"]*[,.!?;][^"]*")(?:[^"\s]+\s+){3,}[^"]*"|"(?:[^"\s]+\s+){7,}[^"]*"'
)


def said_outside_quotes(clause: Clause, now: datetime, *cues: str) -> bool:
    """The clause names one of the cues outside its quoted words ("a comment 'notes in Notion'" names no note)."""
    if not IN_QUOTES.search(clause.text):
        return clause.has(*cues)
    return analyse(IN_QUOTES.sub(" ", clause.text), now).has(*cues)


def strip_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` without the spans (overlapping ones taken as one: a time inside a range)."""
    merged: list[list[int]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    out = text
    for s, e in reversed(merged):
        before = _DATE_PREPOSITION.search(out[:s])  # «задачу мне на завтра …»: "на" goes with "завтра"
        out = out[: before.start() if before else s] + " " + out[e:]
    return out


_DATE_PREPOSITION = LazyRe(r"(?i)(?:^|\s)(?:на|к|ко|до|by|on|for|till|til|until|before|due)\s*$")


# what a dictated request starts with before it says anything: not part of a title
_FILLERS = LazyRe(
    r"^\s*(?:(?:ну|короче|слушай|в общем|значит(?:\s+так)?|так|эм+|э+|um+|uh+|so yeah|okay so|ok so|well|yeah|"
    r"ok|okay|alright|right|hey)[,\s]+)+",
    re.I,
)


def strip_fillers(text: str) -> str:
    return _FILLERS.sub("", text)


# a person pointed back at with a pronoun ("invite her", «повесь на него», «напомни ей»): who it is comes
# from the clauses said before. One list, read three ways: a word alone, one person, or said to someone.
_HIM_HER = "него|неё|нее|ним|ней|нему|him|her"
POINTED_AT_ONE = LazyRe(rf"(?i)(?:{_HIM_HER})(?:\s+же)?")  # the whole of what names the assignee
POINTED = LazyRe(rf"(?i)^(?:{_HIM_HER}|его|её|ее|them|их|них)$")  # one of several attendees named
# said to someone in running text («напомни ей», "remind him"): the dative only — «у него», «его задача»
# in running text are about someone, not a person the request is for
POINTED_TO_ONE = LazyRe(r"(?i)\b(?:him|her|ей|ему|ней|нему)\b")


_COURTESY = LazyRe(
    r"\s*\b(?:pls|plz|плз|плиз|пж|пжл|пжлст|пжлста|пожалуйста|please|thx|thanks|спасибо)\b[.!]*", re.I
)


# how a request is hedged before it says what it wants: not part of a title
_HEDGE = LazyRe(
    r"(?i)^\s*(?:(?:i\s+think|maybe|probably|perhaps)\s+)?(?:(?:i|we)\s+(?:should|need\s+to|have\s+to|must|"
    r"want\s+to|would\s+like\s+to|'d\s+like\s+to)|(?:can|could)\s+(?:i|we|you)|(?:а\s+)?(?:можно(?:\s+ли)?|нужно|"
    r"надо|необходимо|требуется|следует|прошу|просьба|хочу|хотел[аи]?\s+бы|как(?:\s+мне)?))\s+"
)


# «По Globex: задачу Олегу …», a list's heading said with each item: what it is about, not its title
_ABOUT_HEAD = LazyRe(
    r"(?i)^\s*(?:по|про|re|about)\s+[\w-]+(?:\s+[\w-]+)?\s*[:—-]?\s+"
    r"(?=(?:задач|встреч|заметк|созвон|напомин|таск|тикет)\w*\b)"
)


async def stage_said_as_destination(ctx: BuildContext, clause: Clause) -> Mention | None:
    """A stage said as where a deal goes ("в переговоры", "to Negotiation"), by its own name or alias."""
    spans = key_spans(clause.text)
    condition = STATE_NOW_IF.match(clause.text)  # «Если сделка всё ещё на стадии КП, переведи …»: where it is
    into: list[Mention] = []
    for m in await find(ctx, clause, "stage"):
        at = min(m.positions) if m.positions else len(spans)
        if condition and at < len(spans) and spans[at][0] < condition.end():
            continue
        if m.score >= 1.0 and at < len(spans) and _INTO_STAGE.search(clause.text[: spans[at][0]]):
            into.append(m)
            continue
        last = max(m.positions) if m.positions else len(spans)
        if (  # "Альфа-Лизинг — расширение: Won, сумма 850 000 ₽": a stage said alone among the changes
            m.score >= 1.0
            and re.search(
                r":|\s[—–]\s", clause.text[: spans[at][0]]
            )  # (after the record's name and a colon or dash)
            and not clause.creates()
            and not re.search(
                r"(?i)\b(?:new|нов\w+)\b", clause.text
            )  # «сделку новую: …, лид, …»: the new one's
            and last < len(spans)
            and re.search(r"(?:[,;:—–]|\s-)\s*$", clause.text[: spans[at][0]])
            and re.match(r"\s*(?:[,;.!]|$)", clause.text[spans[last][1] :])
            and [d for d in await find(ctx, clause, "deal") if d.score >= 0.9]  # one there is, not a new one
        ):
            return into[0] if into else m
    if len(into) > 1:  # «ромашка согласилась на кп переведи их в переговоры»: where the verb sends it
        moved = [m for m in into if MOVED_INTO.search(clause.text[: spans[min(m.positions)][0]])]
        return moved[-1] if moved else into[0]
    return into[0] if into else None


# "переведи их в", "move it to": a verb of moving, its object, then where
MOVED_INTO = LazyRe(
    r"(?i)\b(?:move|put|set|push|bump|mark|переведи|перенеси|поставь|передвинь|двигай|подвинь|перекинь|отправь|верни)"
    r"(?:\s+\S+){0,3}?\s+(?:в|во|на|to|into|as)\s+(?:the\s+)?(?:стади\w+\s+|stage\s+)?$"
)


_INTO_STAGE = LazyRe(
    r"(?i)(?:\b(?:в|во|на|to|into)|\b(?:is|are)\s+now\s+(?:in|at)|\bnow\s+(?:in|at)|\bтеперь\s+(?:в|во|на)"
    r"|\b(?:they'?re|they\s+are|we'?re|we\s+are)\s+(?:now\s+)?in)"
    r"\s+(?:the\s+)?(?:(?:proper|full|active|real)\s+)?(?:стади\w+\s+|stage\s+)?$"
)  # "… is now in proposal", "they're in proper negotiation now": where it is now, so where it goes


def without_heading(text: str) -> str:
    """The words of one item of a list under «По X:», without the heading said with it."""
    return _ABOUT_HEAD.sub("", text, count=1)


_NO_TITLE_YET = LazyRe(
    r"(?i)\b(?:названи\w*|заголов\w*|title|name)\b[^.!?]{0,40}?\b(?:не\s+придумал\w*|потом|позже|later|tbd|"
    r"not\s+(?:decided|sure)|(?:haven'?t|have\s+not|didn'?t)\s+(?:decided|come\s+up|thought))|"
    r"\b(?:без\s+названия|no\s+title\s+yet|title\s+tbd)\b"
)
# what is left of a due date said before the title: «со сроком до», "due by"
_DUE_LEFT = LazyRe(
    r"(?i)(?:^|\s+)(?:со?\s+сроком|с\s+дедлайном|сроком|deadline|due)(?:\s+(?:до|к|на|by|on))?\s*$|"
    r"^(?:со?\s+сроком|с\s+дедлайном)(?:\s+(?:до|к|на))?\s+"
)


def clean_title(raw: str, lang: str, *, content: bool = False) -> str:
    """A title from the words that carry it; `content`: the words after a colon, which are the title
    itself ("…: new pricing table" keeps its "new")."""
    s = _COURTESY.sub(" ", strip_fillers(raw))
    s = without_heading(s)
    for pattern in _ROUTING:
        s = re.sub(pattern, " ", s, flags=re.IGNORECASE)
    if not content:
        s = (
            s.split("?", 1)[0] if "?" in s.rstrip("? ") else s
        )  # "…create an issue for X? not sure which team"
        s = _HEDGE.sub("", s, count=1)
        s = re.sub(r"(?i)^\s*(?:и|а|and)\s+(?:(?:ещё|еще|также|also)\s+)?(?=\S)", "", s)  # «И ещё поставь …»
        s = (_LEAD_RU if lang == "ru" else _LEAD_EN).sub("", s, count=1)
        s = _LEAD_EN.sub("", s, count=1) if lang == "ru" and re.match(r"\s*(create|add)\b", s, re.I) else s
    if _NO_TITLE_YET.search(s):
        return ""  # «— название я ещё не придумала, подскажу позже»: asked for, not guessed
    s = re.sub(r"\s+(?:на|в|во|к|by|on|at|for)\s*$", "", s.strip(" ,.;:-—"), flags=re.IGNORECASE)
    s = _DUE_LEFT.sub("", s).strip(" ,.;:-—")  # «задачу … со сроком до пятницы»: the date went, its words too
    s = re.sub(
        r"(?:\s+(?:uh+|um+|erm|э+(?:-э+)*|эм+|ну))+\s*$", "", s, flags=re.IGNORECASE
    )  # "…in the mobile app uh"
    s = re.sub(
        r"^\s*(?:(?:uh+|um+|erm|э+(?:-э+)*|эм+|ну)(?:[,\s]+|$))+", "", s, flags=re.IGNORECASE
    )  # "uh the settings page"
    s = re.sub(r"\s{2,}", " ", s).strip(" ,.;:-—")
    if s.lower() in _EMPTY_TITLES or _VAGUE_TITLE.fullmatch(s):  # "добавь задачу на завтра" names no task
        return ""
    said = re.findall(r"[^\W\d_]+", s.lower())
    if said and all(w in _ONLY_THE_ASK for w in said):
        return ""  # «закинь таску», "remind me": the request and its noun, nothing it is about
    bare = re.sub(r"(?i)\b(?:это|короче|ну|типа|вот|так|блин|слушай|давай)\b", " ", s).strip(" ,.")
    if not (_LEAD_RU if lang == "ru" else _LEAD_EN).sub("", bare, count=1).strip(" ,."):
        return ""  # «ну это создай задачу короче»: fillers and the request, no title
    return s[:255]


# how many things are asked for, said before them: «три задачи», "two issues"
COUNT_WORD = r"(?:две|два|три|четыре|пять|two|three|four|five|[2-5])"
# items of a dictated list: «первая …, вторая …», "first …, second …"
ORDINAL_ITEM = (
    r"\b(?:перв(?:ая|ое|ый|ую)|втор(?:ая|ое|ой|ую)|трет(?:ья|ье|ий|ью)|четв[её]рт(?:ая|ое|ый|ую)|пят(?:ая|ое|ый|ую)|"
    r"first|second|third|fourth|fifth)\b"
)
Level = Literal["urgent", "high", "medium", "low"]
# the words a priority is said in, by Linear's number (1 is Urgent)
_PRIORITY_WORDS: list[tuple[re.Pattern[str], int, Level]] = [
    (
        re.compile(r"срочн|urgent|критич|critical|asap|\bp[01]\b|наивысш|highest|максимальн", re.I),
        1,
        "urgent",
    ),
    (re.compile(r"высок|\bhigh\b|важн|\bp2\b", re.I), 2, "high"),
    (re.compile(r"средн|medium|normal|обычн|\bp3\b", re.I), 3, "medium"),
    (re.compile(r"низк|\blow\b|\bp4\b", re.I), 4, "low"),
]


def priority_of(text: str) -> int | None:
    """Linear's priority number for the level the text names: the one said as where it goes ("drop it to
    high (not a real P0)"), else the most urgent one named outside an aside in parentheses."""
    found = [
        (m.start(), number)
        for rx, number, _ in _PRIORITY_WORDS
        for m in rx.finditer(text)
        if not _NOT_SO.search(text[max(0, m.start() - 12) : m.start()])  # "low on CS-15, it's not urgent"
    ]
    asides = [m.span() for m in re.finditer(r"\([^()]*\)", text)]
    outside = [(at, n) for at, n in found if not any(a <= at < b for a, b in asides)] or found
    to = [n for at, n in outside if _TO_LEVEL.search(text[max(0, at - 14) : at])]
    if to:
        return to[0]
    return min((n for _, n in outside), default=None)


_NOT_SO = LazyRe(
    r"(?i)(?:\bnot|\bне|\bno\s+longer|\bбольше\s+не|n't)\s+(?:that\s+|so\s+|такая\s+|такой\s+)?$"
)
_TO_LEVEL = LazyRe(r"(?i)(?:\bto|\bна|\bдо|→|->|\binto|\bas)\s+(?:priority\s+|приоритет\w*\s+)?$")


def priorities_said(text: str) -> list[Level]:
    """Every priority level the words name, in their order ("every low priority issue to medium": low,
    then medium; «с низким приоритетом сделай средними»: low, then medium)."""
    found = [(m.start(), name) for rx, _, name in _PRIORITY_WORDS for m in rx.finditer(text)]
    return list(dict.fromkeys(name for _, name in sorted(found)))


_AMOUNT = LazyRe(
    r"(?<![\w-])(\$|€|₽|(?:usd|eur|rub)(?=\s*\d))?\s*(\d+(?:[ ,.]\d{3})*(?:[.,]\d+)?)"  # "USD 8,500"
    r"(?:\s*(тысяч\w*|тыс\.?|млн\.?|миллион\w*|thousand|grand|million)|(k|к|m|м)|\s(k))?(?!\w)\s*"
    r"(usd|eur|rub|руб\w*|долл\w*|dollars?|roubles?|rubles?|bucks|euros?|евро|€|\$|₽)?"
)


# the word for a sum right before a bare number: «финальную сумму ставим 850 000», "amount 55000"
_SUM_NAMED = LazyRe(r"(?i)\b(?:сумм\w*|amount|value|бюджет\w*|стоимост\w*)\b(?:\s+\w+){0,2}\s*[:=—-]?\s*$")
_CURRENCY_WORD = LazyRe(
    r"(?i)(?:\b(usd|eur|rub|евро|долл\w*|руб\w*|dollars?|euros?|roubles?|rubles?|bucks)\b|([$€₽]))"
)


_SAID_NUMBER = rf"(?:{NUMBER_WORDS})(?:[\s-]+(?:and\s+)?(?:{NUMBER_WORDS}))*"
_HALF = LazyRe(
    rf"\b({_SAID_NUMBER}|\d+)\s+(?:and\s+a\s+half|с\s+половиной)\s+(?=k\b|thousand|grand|million|тысяч|тыс\b|миллион|млн)"
)
# «миллион двести», "a million two hundred": the thousands after a million, said without their unit
_MILLION_AND = LazyRe(
    rf"\b(?:(\d+|{_SAID_NUMBER})\s+)?(миллион\w*|млн|million)\s+({_SAID_NUMBER})\b(?!\s*(?:тысяч|тыс\b|thousand|k\b))"
)


def _spoken_parts(low: str) -> str:
    """ "twenty two and a half k" as "22.5 k", «два с половиной миллиона» as "2.5 миллиона", «миллион
    двести» as "1200 тысяч": sums people say that digits alone do not cover."""

    def half(m: re.Match[str]) -> str:
        said = m.group(1)
        n = int(said) if said.isdecimal() else number_from_words(re.split(r"[\s-]+", said))
        return f"{n}.5 " if n else m.group(0)

    def million(m: re.Match[str]) -> str:
        lead, unit, said = m.group(1), m.group(2), m.group(3)
        n = number_from_words(re.split(r"[\s-]+", said))
        first = (
            1
            if lead is None
            else int(lead)
            if lead.isdecimal()
            else number_from_words(re.split(r"[\s-]+", lead))
        )
        if not n or not first or n >= 1000 or n < 100 and not re.search(r"[а-я]", unit):
            return m.group(0)
        return f"{first * 1000 + n} тысяч"

    return _MILLION_AND.sub(million, _HALF.sub(half, low))


@lru_cache(maxsize=4096)  # coverage asks again of the same words the rules read
def amount_of(text: str, default: str | None = "USD") -> tuple[float, str | None] | None:
    """The first sum of money in the text: "25k USD", "$20,000", "300 тысяч рублей", "40 000 долларов";
    its currency said beside it, or elsewhere in the text ("переведи в EUR, amount 28k"), or `default`
    (a change to a deal keeps the deal's own when none is said)."""
    low = _spoken_parts(text.lower().replace("\u00a0", " "))
    low = spoken_numbers(low)  # "на триста тысяч рублей"
    low = re.sub(
        r"\b(?:полтора|полторы|полутора)\s+(?=миллион|млн|тысяч|тыс)", "1.5 ", low
    )  # "полтора миллиона"
    low = re.sub(  # «сорок пять к долларов», "45 k": thousands, said short («в 5 к трём» is no sum)
        r"(?<=\d)\s+(?:к|k)\b(?=\s*(?:$|[,.;!?)—–-]|долл|руб|евро|usd|eur|rub|\$|₽|€))", "k", low
    )
    low = re.sub(r"\b(?:one and a half|1\.5)\s+(?=million|thousand)", "1.5 ", low)
    low = re.sub(r"(?<![\d.,\s])(\s*)\b(?=миллион|million)", r"\1 1 ", low)  # «сумму миллион рублей»
    low = re.sub(  # «миллион четыреста тысяч», "two million three hundred thousand": one sum
        r"(\d+(?:[.,]\d+)?)\s*(?:миллион\w*|млн|million)\s+(?:и\s+|and\s+)?(\d+)\s*(?:тысяч\w*|тыс\b\.?|thousand)",
        lambda m: (
            f"{round(float(m.group(1).replace(',', '.')) * 1000 + int(m.group(2)))} тысяч"
        ),  # a sum, with its unit
        low,
    )
    for m in _AMOUNT.finditer(low):
        cur_sign, num, mult, cur = m.group(1), m.group(2), m.group(3) or m.group(4) or m.group(5), m.group(6)
        if not (cur_sign or mult or cur or _SUM_NAMED.search(low[max(0, m.start() - 30) : m.start()])):
            continue  # a bare number is a date, a count or an id, not money («сумма 850 000» is)
        value = money_number(num)
        if not (cur_sign or mult or cur) and value < 100:
            continue  # «сумма сделок по 5 штук»: a count after the word, not a sum
        if mult and (mult[0] in "kк" or mult.startswith(("тыс", "thousand", "grand"))):
            value *= 1000
        elif mult:
            value *= 1_000_000
        elsewhere = _CURRENCY_WORD.search(low)
        code = cur or cur_sign or (elsewhere.group(1) or elsewhere.group(2) if elsewhere else None)
        if code is None:
            return value, default
        return value, currency_code(code)
    return None


def iso_date(d: datetime | None) -> str | None:
    return d.date().isoformat() if d else None


async def colleague_asked_for(
    ctx: BuildContext, clause: Clause, name: str, slot: str, asked: tuple[str, str]
) -> Entity | None:
    """A colleague named whom the workspace does not know ("a task for Olga", "Petya's deals"): the one
    the person picks, or one question with the members as choices (`asked`, ru and en, says for what) —
    never dropped. None when the name is no stranger: a pronoun, a member, or a record of the CRM (a
    task "for Acme" is about Acme)."""
    if name.lower() in ("me", "us", "you", "it", "them", "him", "her", "the", "a", "an"):
        return None
    for kind in ("member", "person", "company", "deal"):
        if [m for m in await find(ctx, clause, kind, text=name) if m.score >= 0.5]:
            return None
    members = await ctx.directory.members()
    picked = next((m for m in members if m.id == ctx.answer(slot)), None)
    if picked is not None:
        return picked
    raise ctx.ask(
        slot,
        ctx.t(
            f"Не знаю коллегу «{name}». {asked[0]}", f"I don't know a colleague called '{name}'. {asked[1]}"
        ),
        choices=[(m.name, m.id) for m in members],
    )


async def one_said_before(ctx: BuildContext, clause: Clause, kind: str) -> Entity | None:
    """The one colleague (`kind` "user" or "member") the clauses before this one named, if exactly one:
    whom «ему», "his" or "him" points back to."""
    before = ctx.said_before()
    named = {m.entity.id: m.entity for m in await find(ctx, clause, kind, text=before) if m.score >= 0.5}
    return next(iter(named.values())) if before and len(named) == 1 else None


async def the_companys_one_deal(ctx: BuildContext, clause: Clause) -> Entity | None:
    """ "who owns alfa?", «а глобекс уже в won?»: the one company the clause names, and the one deal it has."""
    companies = [m.entity.id for m in await find(ctx, clause, "company") if m.score >= 0.9]
    theirs = [d for d in await ctx.directory.deals() if d.extra.get("company_id") in companies]
    return theirs[0] if len(companies) == 1 and len(theirs) == 1 else None


async def company_of(ctx: BuildContext, record: Entity) -> Entity | None:
    """The company a deal or a person belongs to («их компании», "and the company too")."""
    return next(
        (c for c in await ctx.directory.companies() if c.id == str(record.extra.get("company_id"))), None
    )


async def the_one_contact_at(ctx: BuildContext, kind: str, record: Entity) -> Entity | None:
    """The one person at a company, or at a deal's company («её контакту», "its contact"); None when there
    are several or none (asked, never guessed)."""
    company_id = record.id if kind in ("company", "companies") else str(record.extra.get("company_id"))
    theirs = [p for p in await ctx.directory.people() if str(p.extra.get("company_id")) == company_id]
    return theirs[0] if len(theirs) == 1 else None


async def find(ctx: BuildContext, clause: Clause, kind: str, *, text: str | None = None) -> list[Mention]:
    """Mentions of one kind of record in a clause (or in `text`). The same words are looked up by
    several rules and by coverage: kept for the request (the directory does not change during it)."""
    key = (kind, text if text is not None else clause.text)
    seen: dict[tuple[str, str], list[Mention]] = ctx.memory.setdefault("_found", {})
    if key not in seen:
        seen[key] = await _find(ctx, clause, kind, text=text)
    return list(seen[key])


# the words a deal is named by after its company ("Acme pilot", «продление Initech»)
_DEAL_KINDS = frozenset(
    "expansion renewal pilot license licence implementation rollout upsell integration extension "
    "расширение продление пилот лицензия внедрение интеграция допродажа".split()
)


_TASKS_SAID = LazyRe(r"(?i)\b(?:tasks?|issues?|template|задач\w*|шаблон\w*|checklist|playbook)\b")


def _another_kind_of_deal(m: Mention, keys: list[WordKey]) -> bool:
    """A deal found by its company's word, with the next word naming another kind of deal than its own."""
    if not m.positions:
        return False
    after = max(m.positions) + 1
    if after >= len(keys) or after in m.positions:
        return False
    word = keys[after]
    kinds = {word.text, *word.lemmas} & _DEAL_KINDS
    if not kinds or any(
        {keys[p].text, *keys[p].lemmas} & _DEAL_KINDS for p in m.positions if p < len(keys)
    ):  # ("the Globex pilot extension": the deal said whole, then what about it)
        return False
    own = keys_for(m.entity.name)
    return not match_words([word], own)


async def _find(ctx: BuildContext, clause: Clause, kind: str, *, text: str | None = None) -> list[Mention]:
    pool: list[Entity]
    d = ctx.directory
    loaders = {
        "company": d.companies, "person": d.people, "deal": d.deals, "member": d.members, "stage": d.stages,
        "team": d.teams, "project": d.projects, "label": d.labels, "user": d.users,
    }  # fmt: skip
    pool = list(await loaders[kind]())
    if kind in ("stage", "team"):
        aliases = ctx.config.get(f"{kind}_aliases", {})
        pool = [
            Entity(
                e.kind, e.id, e.name, e.subtitle, e.url,
                [*e.aliases, *aliases.get(e.name if kind == "stage" else str(e.extra.get("key")), [])], e.extra,
            )
            for e in pool
        ]  # fmt: skip
    keys = keys_for(text) if text is not None else clause.keys
    found = find_mentions(keys, pool)
    if kind in ("person", "member", "user"):  # «есть ли задачи…»: a lower-case "ли" alone is the particle
        said = text if text is not None else clause.text
        spans = key_spans(said)
        found = [
            m
            for m in found
            if len(m.positions) != 1
            or not all(
                p < len(spans)
                and said[spans[p][0] : spans[p][1]] == "ли"
                and not re.match(r"(?i)\s*(?:вэ|вей|wei)", said[spans[p][1] :])  # «у ли вэя»: Li Wei still
                for p in m.positions
            )
        ]
    if kind == "person":  # "Globex's procurement lead", «CTO Ромашки»: someone by their role at a company
        said = text if text is not None else clause.text
        by_role = await _by_role(ctx, keys, said) if not [m for m in found if m.score >= 0.9] else None
        if (
            by_role is not None
        ):  # (someone named by name is who is meant: "John Smith … he's COO at Acme now")
            found = [by_role, *(m for m in found if m.entity.id != by_role.entity.id)]
    said = text if text is not None else clause.text
    if kind == "deal" and not _TASKS_SAID.search(said):
        # "the Initech expansion deal": Initech's deal is a renewal — not the one said, asked ("the Globex renewal
        # tasks" name a template, not a deal)
        found = [m for m in found if not _another_kind_of_deal(m, keys)]
    if kind == "stage":  # a stage's Russian names are common words: «в приложении» is no «в предложении»
        found = [
            m
            for m in found
            if any(
                match_words(
                    [keys[p] for p in m.positions if p < len(keys) and not keys[p].text.isascii()],
                    keys_for(alias),
                    threshold=0.95,
                )
                for alias in aliases_of(m.entity)
            )
        ]
    return found


async def _by_role(ctx: BuildContext, keys: list[WordKey], said: str) -> Mention | None:
    """The one person whose job title is said beside their company's name ("the CFO at Alfa-Leasing",
    "Globex's procurement lead", «CTO Ромашки»); None when no one, or more than one, fits."""
    low = said.lower()
    people = [p for p in await ctx.directory.people() if str(p.extra.get("job_title") or "").strip()]
    titled = [
        (p, m)
        for p in people
        if (m := re.search(rf"(?<![\w-]){re.escape(str(p.extra['job_title']).lower())}(?![\w-])", low))
    ]
    if not titled:
        return None
    companies = [m for m in find_mentions(keys, await ctx.directory.companies()) if m.score >= 0.9]
    spans = key_spans(said)
    fits = []
    for person, title in titled:
        at = [m for m in companies if m.entity.id == str(person.extra.get("company_id"))]
        if at:
            words = {i for i, (a, b) in enumerate(spans) if title.start() <= a and b <= title.end()}
            fits.append(Mention(person, 1.0, frozenset(words | set(at[0].positions))))
    return fits[0] if len(fits) == 1 else None


def strong(mentions: list[Mention]) -> list[Mention]:
    """Mentions that name a record: a whole name (or a person's first name), plus anything the same
    words point at just as well ("Acme" -> Acme Corp and Acme Logistics), so ties stay visible."""
    firm = [m for m in mentions if m.score >= 0.9 or m.entity.kind in ("person", "member", "user")]
    same = [m for m in mentions if m not in firm and any(m.positions == f.positions for f in firm)]
    return firm + same


def aggregate_of(text: str) -> Literal["count", "sum:amount"] | None:
    """What a read adds up: "сумма", "total", "how much", «сколько денег» add the amounts; "сколько",
    "how many" count."""
    if re.search(
        r"(?i)\b(?:сумм\w*|итог\w*|totals?|sum|worth|how\s+much|на\s+какую\s+сумму|сколько\s+(?:у\s+нас\s+)?денег|"
        r"how\s+much\s+money|by\s+currency|по\s+валютам|разбивк\w*|adds?\s+up|add\s+(?:\w+\s+){0,3}up|combined|"
        r"в\s+сумме|всего\s+на)\b",
        text,
    ):
        return "sum:amount"
    if re.search(r"(?i)\b(?:сколько|how\s+many|number\s+of|count|количество)\b", text):
        # «общий пайплайн в долларах сколько»: "how much" said as "how many" of a currency
        if re.search(r"(?i)\b(?:в\s+)?(?:доллар\w*|рубл\w*|евро|dollars|rubles|euros)\b", text):
            return "sum:amount"
        return "count"
    return None


# a read broken down by one field: "pipeline by stage", "deals per owner", "how many deals each manager has",
# «задачи по приоритетам», «в разрезе менеджеров»; a person's word stands for a deal's owner or an issue's
# assignee (the find decides which)
_GROUPED = (
    ("stage", LazyRe(
        r"(?i)\b(?:by|per|for\s+each|each|every|across)\s+(?:deal\s+|pipeline\s+)?stages?\b|\bstage\s+by\s+stage\b|"
        r"(?<!\w)(?:по\s+(?:стадиям|этапам)|(?:на|в)\s+каждой\s+стади\w*|на\s+каждом\s+этапе|в\s+разрезе\s+(?:стадий|этапов))(?!\w)"
    )),
    ("person", LazyRe(
        r"(?i)\b(?:by|per|for\s+each|each|every)\s+(?:owner|manager|rep|sales\s*rep|salesperson|seller|person|assignee|"
        r"engineer|member|user|dev|developer|teammate|head)s?\b|"
        r"(?<!\w)(?:по\s+(?:менеджерам|ответственным|владельцам|исполнителям|людям|сотрудникам|продажникам|разработчикам)|"
        r"у\s+каждого\s+(?:менеджера|сотрудника|исполнителя|продажника)|в\s+разрезе\s+(?:менеджеров|исполнителей|ответственных))(?!\w)"
    )),
    ("state", LazyRe(
        r"(?i)\b(?:by|per)\s+(?:status|state|workflow\s+state)(?:es)?\b|(?<!\w)(?:по\s+(?:статусам|состояниям)|"
        r"в\s+разрезе\s+статусов)(?!\w)"
    )),
    ("priority", LazyRe(r"(?i)\b(?:by|per)\s+priorit(?:y|ies)\b|(?<!\w)по\s+приоритет(?:ам|у)(?!\w)")),
    ("team", LazyRe(
        r"(?i)\b(?:by|per|for\s+each|each|every)\s+teams?\b|(?<!\w)(?:по\s+командам|в\s+каждой\s+команде)(?!\w)"
    )),
    ("label", LazyRe(r"(?i)\b(?:by|per)\s+(?:labels?|tags?)\b|(?<!\w)по\s+(?:меткам|лейблам|тегам)(?!\w)")),
    ("project", LazyRe(r"(?i)\b(?:by|per)\s+projects?\b|(?<!\w)по\s+проектам(?!\w)")),
    ("company", LazyRe(
        r"(?i)\b(?:by|per)\s+(?:company|companies|client|customer|account)s?\b|(?<!\w)по\s+(?:компаниям|клиентам)(?!\w)"
    )),
)  # fmt: skip


def group_said(text: str) -> str | None:
    """The field a read is broken down by, as said ("by stage" -> "stage"; "each manager" -> "person")."""
    return next((name for name, rx in _GROUPED if rx.search(text)), None)


def each_once(found: list[Entity]) -> list[Entity | None]:
    """Each record named once, in the order said ("deals in Lead or Qualification": each stage);
    [None] when none was (no filter)."""
    return [*{e.id: e for e in found}.values()] or [None]


# an amount said as what it was: «было 30к», "was 30k", «вместо 30 000», "from 30k (to …)", «с 30к (до …)»
_OLD_AMOUNT = LazyRe(
    r"(?i)\b(?:было|был|была|раньше|was|instead\s+of|вместо|from|с)\s+\$?\d[\d\s.,]*"
    r"(?:\s*(?:k|к|тыс\w*|thousand|млн|m|million|миллион\w*)\b)?(?:\s*(?:руб\w*|usd|eur|долл\w*|dollars?|евро|₽|\$|€))?"
    r"(?=\s*(?:[,;]|\s(?:до|to|на|ставь|поставь|now|теперь|станет|→|->)\b|$))"
)


def without_old_amounts(text: str) -> str:
    """`text` without the amounts said as what they were (a change's new value is the other one)."""
    return _OLD_AMOUNT.sub(" ", text)


_IN_CURRENCY = LazyRe(
    r"(?i)\b(?:в|in)\s+(руб\w*|rub\w*|₽|доллар\w*|usd|dollars?|\$|евро|eur\w*|€)(?!\w)"
    # «всех рублёвых сделок», "the USD deals", "dollar deals": the currency said of the deals
    r"|\b(рубл[её]в\w*|долларов(?:ых|ые|ым|ыми)|евров\w*|usd|rub|eur|dollar|euro|ruble|rouble)\s+(?=(?:сдел|deal))"
)


def currency_said(text: str) -> Literal["USD", "EUR", "RUB"] | None:
    """ "сделки в рублях", "deals in USD": the currency a read of deals is filtered by."""
    m = _IN_CURRENCY.search(text)
    return currency_code(m.group(1) or m.group(2)) if m else None


_AND_CURRENCY = LazyRe(
    r"(?i)(?:\band|\bи|,)\s+(?:in\s+|в\s+)?(руб\w*|rub\w*|доллар\w*|usd|dollars?|евро|eur\w*)\b"
)


def currencies_said(text: str) -> list[Literal["USD", "EUR", "RUB"]]:
    """ "in dollars and rubles", «в долларах и рублях»: each currency a read of deals is asked in."""
    first = _IN_CURRENCY.search(text)
    if first is None:
        return []
    more = [currency_code(m.group(1)) for m in _AND_CURRENCY.finditer(text[first.end() :])]
    return list(dict.fromkeys([currency_code(first.group(1) or first.group(2)), *more]))


def currency_code(word: str) -> Literal["USD", "EUR", "RUB"]:
    """The code of a currency said as a word or a sign ("руб", "₽", "евро", "€", "$", "dollars")."""
    w = word.lower()
    return (
        "RUB" if w.startswith(("р", "₽", "rub", "rou")) else "EUR" if w.startswith(("e", "€", "е")) else "USD"
    )


# «поставь срок по задаче про чекин …», "set the due date on the task about …": a field of a task there is
FIELD_OF_A_TASK = LazyRe(
    r"(?i)^\s*(?:поставь|поменяй|смени|перенеси|сдвинь|set|change|move|push)\s+(?:the\s+)?(?:срок|дедлайн|due(?:\s+date)?|"
    r"deadline|приоритет|priority)\s+(?:по|у|на|для|в|for|on|of)\s+(?:the\s+|эт\w+\s+)?(?:задач\w*|task|тикет\w*|issue|ticket)"
)


# "in the planning meeting", «на планёрке», "Recap from the CS sync": a meeting said as where or when
# something happens, not one to put on the calendar
AT_A_MEETING = LazyRe(
    r"(?i)\b(?:in|at|during|after|before|from|of)\s+(?:the|our|a|this|that|tomorrow'?s|today'?s|this\s+morning'?s|next|"
    r"monday'?s|friday'?s)\s+"
    r"(?:[\w-]+\s+)?(?:meeting|call|sync|standup|stand-up|planning|review|retro)\b"
    r"|\b(?:на|после|перед|до|с|со|по\s+итогам)\s+(?:завтрашн\w+\s+|сегодняшн\w+\s+|следующ\w+\s+)?(?:планёрк\w*|планерк\w*|встреч\w*|"
    r"созвон\w*|синк\w*|стендап\w*|ретро|ревью)\b"
)


def due_range(text: str, ctx: BuildContext) -> tuple[str | None, str | None]:
    """ "due this week", «просроченные», "due today": the dates a due date must fall between."""
    today = ctx.now.date()
    if re.search(r"\b(?:overdue|просроч\w*|late)\b", text, re.I):
        return None, (today - timedelta(days=1)).isoformat()
    if re.search(
        r"\b(?:this\s+week|на\s+этой\s+неделе|до\s+конца\s+недели|end\s+of\s+(?:the\s+)?week)\b", text, re.I
    ):
        monday = today - timedelta(days=today.weekday())
        return monday.isoformat(), (monday + timedelta(days=6)).isoformat()
    if re.search(r"(?i)\bnext\s+week\b|\b(?:на\s+)?следующей\s+неделе\b", text) and not re.search(
        r"(?i)\b(?:before|by|until|till|end\s+of|до|к|конц\w*)\s+(?:the\s+)?(?:end\s+of\s+)?(?:next|следующ)",
        text,
    ):  # "due next week": its Monday to Sunday ("before the end of next week" is read below)
        monday = today - timedelta(days=today.weekday()) + timedelta(days=7)
        return monday.isoformat(), (monday + timedelta(days=6)).isoformat()
    if re.search(r"\bdue\s+(?:today|tomorrow)\b|\bсрок\s+(?:сегодня|завтра)\b", text, re.I):
        day = today + timedelta(days=1 if re.search(r"tomorrow|завтра", text, re.I) else 0)
        return day.isoformat(), day.isoformat()
    due = re.search(r"(?i)\b(?:due|срок\w*|дедлайн\w*|deadline)\b", text)
    by = re.search(r"(?i)\b(?:due\s+)?(?:by|before|until|до|к)\s+(.{3,30}?)\s*[?.!]*$", text)
    if by and due:  # "what's due by December 1?"
        until = extract_moment(by.group(1), ctx.now).day
        if until is not None:
            return None, until.isoformat()
        before_month = month_of(by.group(1).strip().split()[-1]) if by.group(1).strip() else None
        if before_month is not None and re.search(r"(?i)\b(?:before|до)\s", by.group(0)):
            # "what's due before december": up to the day before that month begins
            year = today.year if before_month > today.month else today.year + 1
            return None, (date(year, before_month, 1) - timedelta(days=1)).isoformat()
    month = re.search(r"(?i)\b(?:in|в|во|на)\s+([^\W\d_]+)\b", text)
    number = month_of(month.group(1)) if month and due else None
    if number is not None:  # «со сроком в декабре», "due in December": that month
        year = today.year if number >= today.month else today.year + 1
        first = date(year, number, 1)
        last = (first.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
        return first.isoformat(), last.isoformat()
    said = extract_moment(text, ctx.now).day if due else None
    if said is not None:  # "what's due this friday": due by then
        return None, said.isoformat()
    return None, None


_NOTHING_SAID = frozenset(
    "a an the it this that me my our in to for on at please pls мне мой мою в во на к по для это эту этот пожалуйста "
    "attio crm linear аттио линеар about of о об этом том нём нем "
    # («Создай ещё одну задачу в ENG», "one more issue": how many, not what)
    "ещё еще одну один одна another one more new новую новый "
    # («leave a note on the umbrella account», «…запиши это заметкой к сделке ну»: where it goes, and fillers)
    "deal deals account record card сделке сделку сделка сделки карточке карточку аккаунт аккаунте "
    "ну вот короче типа uh um also too тоже также".split()
)


def says_nothing(text: str) -> bool:
    """The words are only request words — a verb, the thing's own noun, where it goes («заметку к ромашке добавь»
    leaves «добавь», «создай в Attio задачу» leaves «задачу»): a note or a task with no content of its own."""
    words = keys_for(text)
    known = _MAKING_WORDS()
    return all(k.text in _NOTHING_SAID or k.text in known or k.lemmas & known for k in words)


@lru_cache(maxsize=1)
def _MAKING_WORDS() -> frozenset[str]:  # noqa: N802 - a constant, built once
    return frozenset().union(
        *(CUES[k] for k in ("create", "put", "note", "note_verb", "task", "remind") if k in CUES)
    )  # («remind Anna about it»: a reminder of nothing said)


_RECORDS_OF = {"deal": "deals", "company": "companies", "person": "people"}


async def answered_record(
    ctx: BuildContext, slot: str, kinds: tuple[str, ...] = ("deal", "company", "person")
) -> tuple[str, Entity] | None:
    """The record the person picked (a choice's id) or named in answer to the question asked as `slot`
    ("Which deal?", "Which record should the note go on?"): a question answered is never asked again."""
    said = (ctx.answer(slot) or "").strip()
    if not said:
        return None
    for kind in kinds:
        records: list[Entity] = await getattr(ctx.directory, _RECORDS_OF[kind])()
        picked = next((e for e in records if e.id == said), None)
        if picked is not None:
            return kind, picked
    said_as = analyse(said, ctx.now)
    named = [(kind, m) for kind in kinds for m in strong(await find(ctx, said_as, kind, text=said))]
    top = max((m.score for _, m in named), default=0.0)
    best = [(kind, m.entity) for kind, m in named if m.score == top >= 0.9]
    # ("Globex" answered: the company, not half of "Globex pilot"; two records as good as each other: none)
    return best[0] if len({e.id for _, e in best}) == 1 else None
