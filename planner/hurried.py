"""Requests typed in a hurry or asked politely, rewritten the way the rules read them.

- A command word with a letter dropped or swapped ("закрй", "созадй", "projcts", "priorty",
  "finshed", "контак") becomes the word meant, so every rule (and every title) sees it spelt right.
  At the start of a request, where commands stand, one edit of a Russian command verb is enough;
  anywhere else only a longer cue word with one letter dropped counts ("contract" is a word, not a
  mistyped "contact").
- A polite request ("could you please mark CS-12 as done?", "не могли бы вы закрыть ENG-101?") is a
  command, not a question: the courtesy and the question mark go.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from planner import shorthand
from planner._lazy_re import LazyRe
from planner.analysis import CUES, NEVER_A_TYPO_OF, command_verbs, cue_words
from planner.dates import RU_ORDINAL_STEMS
from planner.dialogue import KEEP_AS_IS, without_polite_if
from planner.references import position
from planner.said_plainly import said_plainly
from planner.text import (
    IN_QUOTES,
    ISSUE_KEY,
    as_infinitive,
    dictionary_word,
    informal,
    is_imperative,
    is_infinitive,
    lemmas,
)

__all__ = ["asks_to_be_shown", "unhurried", "without_no_assignee"]

_ANYWHERE = (
    "create", "complete", "move", "delete", "archive", "comment", "assign", "rename", "priority", "project",
    "person", "company", "issue", "task", "deal", "note",
)  # fmt: skip
_WORD = LazyRe(r"[^\W\d_]+", re.UNICODE)
_POLITE = LazyRe(
    r"^\s*(?:(?:could|can|would|will)\s+you\s+(?:please\s+)?(?:possibly\s+)?(?:kindly\s+)?(?:be\s+so\s+kind\s+as\s+to\s+)?"
    r"(?:be\s+a\s+(?:dear|star|love)\s+and\s+)?"
    r"|(?:be\s+a\s+(?:dear|star|love)\s+and\s+)|would\s+you\s+mind\s+|please\s+|kindly\s+|"
    r"(?:would|could)\s+you\s+be\s+so\s+kind\s+as\s+to\s+|"
    r"не\s+мог(?:ли|ла|у)\s+бы\s+(?:вы|ты)\s+|(?:можешь|можете|сможешь|сможете)\s+(?:пожалуйста\s+)?|"
    r"(?:будьте|будь)\s+(?:добры|добр|добра|любезны|любезен|любезна)\s*,?\s*)",
    re.IGNORECASE,
)


@lru_cache(maxsize=1)
def _anywhere() -> dict[str, list[str]]:
    anywhere: dict[str, list[str]] = {}
    for name in _ANYWHERE:
        for word in CUES[name]:
            if len(word) >= 6 and word not in NEVER_A_TYPO_OF:
                for form in (word, word + "s") if word.isascii() else (word,):
                    anywhere.setdefault(form[0], []).append(form)
    return anywhere


@lru_cache(maxsize=8192)  # a function of the word: a long message repeats its words
def _meant(word: str, *, first: bool) -> str | None:
    from rapidfuzz.distance import DamerauLevenshtein

    low = word.lower()
    if len(low) < 4 or low in cue_words() or lemmas(low) & cue_words():
        return None
    if not low.isascii() and dictionary_word(low) == "word":
        return None  # «откат» (a rollback) is a word of its own, no «откати» mistyped
    if not low.isascii() and dictionary_word(low) is None and len(low) >= 6:
        heard = _as_heard(low)  # «праиграна», «перевиди»: an unstressed vowel written as it sounds
        if heard is not None and (first or heard in cue_words() or lemmas(heard) & cue_words()):
            return heard  # (a command, or a word the rules read: the person's other words are theirs)
    if first and not low.isascii():
        hits = [w for w, _ in command_verbs().get(low[0], ()) if abs(len(w) - len(low)) <= 1]
        hits = [w for w in hits if DamerauLevenshtein.distance(w, low) == 1]
        if len(set(hits)) == 1:
            return hits[0]
    # "mvoe the globex pilot …", "clsoe ENG-101": two letters swapped in a command
    if first and low.isascii():
        hits = [w for w in _ENGLISH_COMMANDS if len(w) == len(low) and _swapped(w, low)]
        if len(hits) == 1:
            return hits[0]
    if len(low) >= 5:
        hits = [w for w in _anywhere().get(low[0], ()) if len(w) == len(low) + 1]
        hits = [w for w in hits if DamerauLevenshtein.distance(w, low) == 1]
        # «перевди»: «переведи» or «переводи», the same command either way
        if len(set(hits)) == 1 or hits and len({_cue_of(w) for w in hits}) == 1:
            return hits[0]
    return None


# slips of a fast typist too far from the word for the rules above, and no word of their own
_KNOWN_SLIPS = {
    "comemnt": "comment", "commnet": "comment", "comnet": "comment", "coment": "comment", "commetn": "comment",
    "isue": "issue", "isssue": "issue", "issuse": "issue", "tiket": "ticket", "tikcet": "ticket",
    "коментарий": "комментарий",
}  # fmt: skip
_SLIPPED = LazyRe(rf"(?i)(?<![\w-])(?:{'|'.join(_KNOWN_SLIPS)})(?![\w-])")

_SOUNDS_ALIKE = {"а": "о", "о": "а", "и": "е", "е": "и"}


def _as_heard(low: str) -> str | None:
    """The one dictionary word `low` is with one unstressed vowel spelt as heard (а/о, и/е), if only one."""
    found = {
        w
        for i, ch in enumerate(low[:-2])
        if ch in _SOUNDS_ALIKE
        and (w := low[:i] + _SOUNDS_ALIKE[ch] + low[i + 1 :])
        and dictionary_word(w) == "word"
    }
    return found.pop() if len(found) == 1 else None


_ENGLISH_COMMANDS = (
    "move",
    "close",
    "assign",
    "create",
    "delete",
    "archive",
    "rename",
    "update",
    "change",
    "remove",
)


def _swapped(word: str, said: str) -> bool:
    """`said` is `word` with two neighbouring letters swapped (the commonest typo of a fast typist)."""
    diff = [i for i, (a, b) in enumerate(zip(word, said, strict=True)) if a != b]
    return (
        len(diff) == 2
        and diff[1] == diff[0] + 1
        and word[diff[0]] == said[diff[1]]
        and word[diff[1]] == said[diff[0]]
    )


def _cue_of(word: str) -> str | None:
    return next((name for name in _ANYWHERE if word in CUES[name] or word.rstrip("s") in CUES[name]), None)


_NO_ONE_TO_ASSIGN = LazyRe(
    r"(?i)[,.;]?\s*(?:и\s+)?(?:пока\s+)?(?:ни\s+на\s+кого|никому)\s+(?:е[её]\s+|его\s+|пока\s+)?не\s+(?:назначай(?:те)?|"
    r"ставь(?:те)?|вешай(?:те)?)\b[.!]?|[,.;]?\s*(?:and\s+)?(?:don'?t|do\s+not)\s+assign\s+(?:it\s+|this\s+)?(?:to\s+)?"
    r"(?:anyone|anybody)(?:\s+yet)?\b[.!]?"
)


def without_no_assignee(text: str) -> str:
    """ "…. Ни на кого не назначай", "don't assign it to anyone": said of a new one, which has nobody anyway
    (never a request not to do the rest)."""
    return _NO_ONE_TO_ASSIGN.sub("", text)


# someone's words in single quotes after "X wrote:", a sentence or more: quoted as «…», so their commas split nothing
_SINGLE_QUOTED_WORDS = LazyRe(
    r"(?i)(\b(?:emailed|e-mailed|wrote|writes|says|said|texted|messaged|replied|пишет|написал\w*|ответил\w*)\s*:\s*)"
    r"'([^'\n]{20,400}?[.!?]?)'(?=\s|$|[.,;])"
)
_ONE_PER_ITEM = LazyRe(
    r"(?i)\b(?:one|an?)\s+((?-i:[A-Z]{2,5})\s+)?(issue|ticket|task|bug)\s+(?:per|for\s+each|for\s+every)\s+([a-z]+?)s?"
    r"(?:\s+(?:below|above|listed|here))?(?=\s*:)"
)
_FIELDS_AFTER_QUOTE = LazyRe(
    r"(?i)(:\s*(?:'[^'\n]{3,}'|\"[^\"\n]{3,}\"|«[^«»\n]{3,}»|“[^“”\n]{3,}”))\s+((?:p[0-4]|with|for|due|label|на|для|срок)\b[^,;\n'\"«»“”]*)$"
)
_NAMED_AFTER_MADE = LazyRe(
    r"(?i)(\b(?:созда\w*|завед\w*|заведи|добавь|create|add|make|open|new|нов\w+)\b[^.!?;\n]{0,100}?)\s*,\s*"
    r"(?:назови(?:те)?|назовём|назовем)(?:\s+(?:её|ее|его))?\s+(?=\S)"
)
# «CS-13 в In Review, CS-14 тоже», "ENG-101 to Done, ENG-102 too": the same change for the next one
_SAME_FOR = LazyRe(
    r"(?i)(?P<first>\b[A-Z]{1,10}-\d+)\s+(?P<change>(?:в|во|на|to|into|→|->)\s+[^,;]{2,30}?)\s*[,;]\s*(?:(?:и|and)\s+)?"
    r"(?P<second>[A-Z]{1,10}-\d+)\s+(?:тоже|too|as\s+well|также)\b"
)
_COUNT_OF = LazyRe(
    r"(?i)\b(?:(?:give|get|send|show)\s+me|i\s+need|what'?s)\s+(?:a|the)\s+(?:head\s*count|count|number|total\s+number)\s+of\s+"
)
_SEND_ME = LazyRe(
    r"(?i)^\s*(?:скинь(?:те)?|кинь(?:те)?|пришли(?:те)?)(?:\s+мне)?\s+(?=(?:сколько|какие|какая|какой|кто|что|где|когда|"
    r"список|все|всё|мои|мой|мою)\b)"
)
_BLOCK_AN_HOUR = LazyRe(
    r"(?i)\b(заблокируй|забронируй|выдели|зарезервируй|забей|поставь\s+блок)\s+(?:(?:в|во)\s+календар\w*\s+)?"
    r"(час|полчаса|полтора\s+часа|два\s+часа)\b"
)
# «с 14:00 до 15:30: подготовка к QBR»: the range ends at its time; what follows the colon is the title
_RANGE_THEN_COLON = LazyRe(r"(?i)(\b(?:до|to|until|till|-|–)\s*\d{1,2}:\d{2})\s*:\s+(?=\S)")


# chat shorthand, read as the words meant (whole words only)
_SHORT = {
    "созд": "создай", "срочн": "срочно", "lbl": "label", "cmt": "comment", "del": "delete", "mtg": "meeting",
    "tmrw": "tomorrow", "tmr": "tomorrow", "tmrrw": "tomorrow", "tomoz": "tomorrow", "tomorow": "tomorrow",
    "tommorow": "tomorrow", "tommorrow": "tomorrow", "w/": "with",
    "desc": "description", "pri": "priority", "prio": "priority", "asap": "urgent", "mins": "minutes",
    "hrs": "hours", "hr": "hour", "nxt": "next", "wk": "week", "mon": "monday", "tue": "tuesday",
    "wed": "wednesday", "thu": "thursday", "thurs": "thursday", "fri": "friday", "msg": "message",
    "proj": "project", "eod": "end of day", "eow": "end of week", "eom": "end of month", "req": "request",
    "feat": "feature",
    "завтр": "завтра", "коммент": "комментарий", "пн": "понедельник", "вт": "вторник", "ср": "среда",
    "чт": "четверг", "пт": "пятница", "скок": "сколько", "скока": "сколько", "зад": "задачу", "прио": "приоритет",
    "сд": "сделку", "сдлк": "сделку", "сдлку": "сделку", "к-т": "контакт", "к-та": "контакта", "к-ту": "контакту",
    # CRM words borrowed from English, as a sales team types them
    "стейдж": "стадия", "стэйдж": "стадия", "стейдже": "стадии", "овнер": "владелец", "овнера": "владельца",
    "овнером": "владельцем", "деал": "сделка", "деалы": "сделки", "деалов": "сделок", "деала": "сделки", "деалу": "сделке",
}  # fmt: skip
_SHORT_RX = LazyRe(
    r"(?<![\w/])(" + "|".join(re.escape(k) for k in sorted(_SHORT, key=len, reverse=True)) + r")(?![\w/])",
    re.I,
)


# courtesy carries no request ("cs-15 на олега плз", "eng-104 -> in review plz"); quoted text keeps it
# the polite plural imperative («назначьте», «поставьте»), outside quotes: the rules read the familiar one
_RU_WORD_OR_QUOTE = LazyRe(r"«[^»]*»|\"[^\"]*\"|“[^”]*”|[а-яёА-ЯЁ]{5,}")
# «оставь коммент: я в отпуске, пишите Олегу»: the words of a comment or note are kept as said (to their sentence's end)
_WORDS_GIVEN = LazyRe(
    r"(?i)\b(?:коммент\w*|заметк\w*|comment|note|текст\w*|напиши|напишите|сообщени\w*)\b[^:]{0,40}:(?P<words>(?:[^.!?;]|[.!?;](?!\s|$))+)"
)


def _plain_verbs_outside_words_to_keep(text: str) -> str:
    """«закройте», «поставьте»: a polite verb made the plain one, except in the words a comment or note will carry."""
    kept = _WORDS_GIVEN.search(text)
    a, b = kept.span("words") if kept else (len(text), len(text))

    def plain(part: str) -> str:
        return _RU_WORD_OR_QUOTE.sub(lambda m: informal(m.group(0)) or m.group(0), part)

    return plain(text[:a]) + text[a:b] + plain(text[b:])


_SHOULD_BE = LazyRe(
    r"(?i)\b(stage|status|owner|amount|priority|assignee)\s+(?:should|must|has\s+to|needs\s+to|shall)\s+(?:be|become)\s+"
    # ("… should go to Oleg", "… should go to the Design team" hand over: only "go in(to)" says a stage)
    r"|\s+(?:should|must|has\s+to|needs\s+to|shall)\s+(?:go|move|be\s+moved|be\s+put|be\s+shifted)\s+(?:in|into)\s+"
    # "the Ромашка deal should probably be in Negotiation now": where it is to be, a stage by its name
    r"|\s+should\s+(?:probably\s+|really\s+|now\s+|already\s+)*be\s+(?:in|at)\s+(?=(?:the\s+)?(?:stage\s+)?(?-i:[A-Z]))"
)
_COURTESY = LazyRe(  # ", пожалуйста," between two words takes both its commas with it
    r"(?:(?<=\w),\s*|(?<![«\"'\w])[\s,]*)\b(?:плз|плиз|пжл|пжлст|pls|plz|please|пожалуйста)\b[,.!]*(?![\w»\"'])",
    re.I,
)


_RU_HOURS = {
    w: n
    for n, forms in enumerate(
        [
            "", "час одного", "два двух", "три трёх трех", "четыре четырёх четырех", "пять пяти", "шесть шести",
            "семь семи", "восемь восьми", "девять девяти", "десять десяти", "одиннадцать одиннадцати",
            "двенадцать двенадцати", "тринадцать тринадцати", "четырнадцать четырнадцати", "пятнадцать пятнадцати",
            "шестнадцать шестнадцати", "семнадцать семнадцати", "восемнадцать восемнадцати",
            "девятнадцать девятнадцати", "двадцать двадцати",
        ]
    )
    for w in forms.split()
}  # fmt: skip
_HOUR_WORD = "|".join(sorted(_RU_HOURS, key=len, reverse=True))
_FROM_TO_HOURS = LazyRe(rf"(?i)\bс\s+({_HOUR_WORD})\s+до\s+({_HOUR_WORD})\b")
_HOUR_OH_OH = LazyRe(
    rf"(?i)\b(в|к|на|с|до)\s+({_HOUR_WORD})\s+(ноль\s+ноль|тридцать|пятнадцать|сорок\s+пять)\b"
)


def _spoken_clock(text: str) -> str:
    """A time dictated in words, in digits: «с девяти до одиннадцати» → «с 9 до 11», «в шестнадцать ноль ноль» →
    «в 16:00» (only where the words can be nothing but a time of day)."""
    if not re.search(r"[а-яё]", text, re.I):
        return text

    def day_hour(word: str, rest: str) -> int:  # «с трёх до пяти»: a working day's afternoon, unless «утра»
        hour = _RU_HOURS[word.lower()]
        return hour + 12 if 1 <= hour <= 7 and not re.match(r"(?i)\s*(?:утра|ночи)\b", rest) else hour

    text = _FROM_TO_HOURS.sub(
        lambda m: f"с {day_hour(m.group(1), text[m.end() :])} до {day_hour(m.group(2), text[m.end() :])}",
        text,
    )
    minutes = {"ноль ноль": "00", "тридцать": "30", "пятнадцать": "15", "сорок пять": "45"}

    def clock(m: re.Match[str]) -> str:
        said = " ".join(m.group(3).lower().split())
        return f"{m.group(1)} {day_hour(m.group(2), text[m.end() :])}:{minutes[said]}"

    return _HOUR_OH_OH.sub(clock, text)


_ID_AFTER_A_WORD = LazyRe(r"(?<=[^\W\d_])(\s+)(?=[A-Za-z]{2,5}-\d+\b)")
# a word after which the next issue is part of the same request: a link word, or the issue's relation to it
# («подзадачей ENG-102», "blocked by ENG-101", "и ENG-102")
_KEEPS_THE_NEXT_ID = LazyRe(
    r"(?i)и|а|или|and|or|в|во|на|к|ко|по|под|про|о|об|от|из|с|со|для|у|to|into|in|on|of|about|for|from|under|by|as|"
    r"than|like|see|re|also|тоже|after|before|после|перед|вместо|instead|parent|child|related|relates|"
    r"blocks?|blocked|blocking|dupe|duplicates?|duplicated|дубль|дубликат|дублир\w*|связан\w*|родительск\w*|"
    r"дочерн\w*|подзадач\w*|sub-?issues?|subissue|sub-?tasks?|issues?|tickets?|задач\w*|тикет\w*|таск\w*|баг|"
    # ("comment on ENG-101 that ENG-103 was merged", "close CS-12 and CS-14 but not CS-13": the issue is said of)
    r"that|что|saying|says|said|сказал\w*|пишет|where|which|котор\w*|когда|when|not|не|except|кроме|but|но"
)


@lru_cache(maxsize=1)
def _action_words() -> frozenset[str]:
    names = (
        "create",
        "complete",
        "move",
        "delete",
        "archive",
        "comment",
        "assign",
        "rename",
        "put",
        "priority",
    )
    return frozenset(w for n in names for w in CUES[n] if w.isascii()) | {"make", "set", "give", "bump"}


def _takes_an_object(word: str) -> bool:
    """ "make", "assign", «закрой»: a verb whose object the issue after it is."""
    low = word.lower()
    return low in _action_words() or not low.isascii() and is_imperative(low)


def _ids_in_a_row(text: str) -> str:
    """«ENG-101 на макса ENG-103 на олега а ENG-104 закрой», dictated without commas: each issue after the
    change said of the one before starts a request of its own."""
    if len(re.findall(r"\b[A-Za-z]{2,5}-\d+\b", text)) < 2 or "," in text:
        return text
    # («значит так ENG-101 …»: the words a dictation starts with are no part of the first request)
    text = re.sub(
        r"(?i)^\s*(?:(?:ну|так|значит|короче|слушай|итак|вот|смотри|в\s+общем)[,\s]+)+(?=[A-Za-z]{2,5}-\d+\b)",
        "",
        text,
    )

    def cut(m: re.Match[str]) -> str:
        said = text[: m.start()]
        before = re.findall(r"[^\W\d_][\w-]*", said)
        first = not re.search(r"\b[A-Za-z]{2,5}-\d+\b", said)  # (the first issue is where the request starts)
        keeps = (
            first or not before or _KEEPS_THE_NEXT_ID.fullmatch(before[-1]) or _takes_an_object(before[-1])
        )
        return m.group(1) if keeps else ", "  # ("… and make CS-15 low": the verb's own issue)

    # "close ENG-101 assign ENG-103 to oleg": a verb right after an issue starts the next request
    text = re.sub(
        r"\b([A-Za-z]{2,5}-\d+)\s+([^\W\d_]+)(?=\s+[A-Za-z]{2,5}-\d+\b)",
        lambda m: f"{m.group(1)}, {m.group(2)}" if _takes_an_object(m.group(2)) else m.group(0),
        text,
    )
    text = _ID_AFTER_A_WORD.sub(cut, text)
    # «… на олега а ENG-104 закрой»: "а" before the next issue contrasts a change of its own
    return re.sub(r"(?i)(?<=[^\W\d_])\s+а\s+(?=[A-Za-z]{2,5}-\d+\b)", ", а ", text)


def _slashed(text: str) -> str:
    """«CS-13 закрыть / ромашка → Won»: a slash between spaces parts two requests, as a semicolon would; in
    «контакт: Пётр Волков / финдир Ромашки / p.volkov@…» it parts one request's details, as a comma would."""
    if " / " not in text:
        return text
    parts = re.split(r"\s+/\s+", text)
    out = parts[0]
    for part in parts[1:]:
        words = re.findall(r"[^\W\d_]+", part.lower())
        asks = bool(_ASKS_ALONE.search(part)) or any(
            w in _ACTION_WORDS or lemmas(w) & _ACTION_WORDS or is_infinitive(w) for w in words[:2]
        )
        out += ("; " if asks else ", ") + part
    return out


_ASKS_ALONE = LazyRe(
    r"→|->|=>|:|\b[A-Za-z]{2,5}-\d+\b|\b(?:заметк\w*|note|коммент\w*|comment|встреч\w*|созвон\w*)\b"
)
_ACTION_WORDS = frozenset().union(
    *(
        CUES[c]
        for c in ("create", "put", "move", "complete", "delete", "archive", "comment", "assign", "remind")
    )
)
_FILLED_AND = LazyRe(r"(?i)\b(и|а|and)\s*,\s*(?:(?:ну|э+|эм+|короче|типа|uh+|um+|like|so)\s*,?\s*)+")
# "comment on eng one oh five, uh, Apple approved …", "and uh comment on it": an English filler said between
# words is no word of the request (Russian ones are read where they stand: «ну» may start a sentence)
_UH = LazyRe(r"(?i)(?:,\s*(?:uh+|um+|uhm+|erm+|er)\s*(?=,)|(?<=\s)(?:uh+|um+|uhm+|erm+)\s*,?\s+)")
_SPOKEN_COMMA = LazyRe(r"(?i)[,\s]*\b(?:запятая|comma)\b[,\s]*(?=\S)")
# "assign me + comment: …": a plus before a second request (between names it lists people: "Олег + Мария")
_PLUS = LazyRe(
    r"(?i)(?<=\w)\s+\+\s+(?=(?:comment|assign|close|label|tag|move|set|add|note|kick|create|open|book|schedule|"
    r"remind|коммент\w*|назнач\w*|закр\w*|метк\w*|перевед\w*|переведи|добав\w*|заметк\w*|поставь|заведи|создай|"
    r"напомни|запусти|onboarding|renewal|онбординг\w*|продлени\w*|"  # "→ Won + onboarding tasks"
    # "new co Pied Piper piedpiper.com + deal 'Pied Piper pilot' 15k": a second thing to make
    r"(?:a\s+|new\s+)?(?:deal|contact|person|company|task|issue|ticket|meeting|call)|сделк\w*|контакт\w*|задач\w*|"
    r"тикет\w*|встреч\w*|созвон\w*)\b)"
)
_ONE_MORE_SAID = LazyRe(
    r"(?i)\b(?:ещё|еще|one\s+more|another)(?:\s+(?:одн\w+|один|one))?(?:\s+(?:for\s+)?[^\W\d_]+)?\s*[—–:-]"
)
_ASKS = frozenset(
    "add assign close move set create make put log comment remind schedule book archive delete".split()
)
_ONE_MORE = LazyRe(
    r"(?is)^(?P<head>.*?\b(?:задач\w*|таск\w*|тикет\w*|заметк\w*|task|issue|ticket|note)\b)(?P<first>[^;]*?),?\s+"
    r"(?:и\s+|and\s+)?(?:ещё|еще|one\s+more|another)(?:\s+(?:одн\w+|один|one))?(?:\s+(?P<whom>(?:for\s+)?[^\W\d_]+))?"
    r"\s*[—–:-]\s*(?P<second>\S.*)$"
)
# dictated: "email tom at acme dot com", «почта том собака акме точка ком»
_SPOKEN_DOMAIN = LazyRe(
    r"\b([a-z0-9][a-z0-9-]*)\s+(?:dot|точка)\s+(com|ru|io|net|org|dev|co|ai|app|health|de|uk|eu|biz|tech)\b",
    re.IGNORECASE,
)
_SPOKEN_EMAIL = LazyRe(
    r"\b([\w.+-]+)\s+(?:at|собака|эт)\s+([\w-]+)\s+(?:dot|точка)\s+([a-zа-я]{2,6})\b", re.IGNORECASE
)
# "maria точка sokolova собака …": a dot said inside the name before the @ (Latin letters only)
_SPOKEN_DOT_IN_NAME = LazyRe(
    r"(?i)\b([a-z0-9_+-]+)\s+(?:dot|точка)\s+([a-z0-9_+-]+)(?=\s+(?:at|собака|эт)\s)"
)
# «полтора ляма», «два ляма»: millions, in slang
_LYAM = LazyRe(r"(?i)\bлям(?:а|ов|ы)?\b")


# a weekday's short form after a preposition takes that preposition's case ("до пт" = "до пятницы"),
# so the words stay Russian when they land in a note or a title
_DAY_CASES = {
    "пн": ("понедельник", "понедельника", "понедельнику"), "вт": ("вторник", "вторника", "вторнику"),
    "ср": ("среду", "среды", "среде"), "чт": ("четверг", "четверга", "четвергу"),
    "пт": ("пятницу", "пятницы", "пятнице"),
}  # fmt: skip
_CASE_OF = {"до": 1, "с": 1, "со": 1, "от": 1, "после": 1, "кроме": 1, "к": 2, "ко": 2}


def _expand(m: re.Match[str]) -> str:
    said = m.group(1).lower()
    if m.group(1).isupper() and len(m.group(1)) > 1 and said not in _DAY_CASES:
        return m.group(0)  # "HR", "MON": an acronym typed in capitals, not a shorthand
    word = _SHORT[said]
    if said in (
        "сд",
        "сдлк",
        "сдлку",
    ):  # «заметку к сд», «по сд», «в сд»: the deal, in the case its preposition wants
        before = re.search(r"(\w+)\s*$", m.string[: m.start()])
        prep = before.group(1).lower() if before else ""
        if said == "сдлк" and re.fullmatch(r"(?i)нов\w+", prep):
            prep = "нов"  # «новая сдлк …»: a new deal, said as its subject
        word = {
            "к": "сделке",
            "по": "сделке",
            "о": "сделке",
            "для": "сделки",
            "у": "сделки",
            "из": "сделки",
            "нов": "сделка",
        }.get(prep, "сделку")
    if said == "зад" and re.match(
        r"(?i)\s+(?:онбординг\w*|продлени\w*|onboarding|renewal)\b", m.string[m.end() :]
    ):
        word = "задачи"  # «заведи зад онбординга»: the template's tasks
    if said in _DAY_CASES:
        before = re.search(r"(\w+)\s*$", m.string[: m.start()])
        prep = before.group(1).lower() if before else ""
        if prep in ("в", "во", "на", "про", "за") or prep in _CASE_OF:
            word = _DAY_CASES[said][_CASE_OF.get(prep, 0)]
    return word[:1].upper() + word[1:] if m.group(1)[:1].isupper() else word


_MONTHS = {
    "янв": "января", "фев": "февраля", "февр": "февраля", "мар": "марта", "апр": "апреля", "июн": "июня",
    "июл": "июля", "авг": "августа", "сен": "сентября", "сент": "сентября", "окт": "октября", "ноя": "ноября",
    "нояб": "ноября", "дек": "декабря",
}  # fmt: skip
_SHORT_MONTH = LazyRe(r"(?i)\b(\d{1,2})\s*(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\b\.?")


# a day said as a Russian ordinal ("пятнадцатое декабря", «к двадцать первому января»): its number
_ORDINAL_DAY = LazyRe(
    r"(?i)\b(?:(двадцать|тридцать)\s+)?("
    + "|".join(sorted(RU_ORDINAL_STEMS, key=len, reverse=True))
    + r")(?:ое|ого|ому|ым|ом|ье|ьего|ьему|ьим|ьем|ий|ый|ая|ой|ую|ья|ью)\s+"
    r"(январ\w*|феврал\w*|март\w*|апрел\w*|ма[яй]\w*|июн\w*|июл\w*|август\w*|сентябр\w*|октябр\w*|"
    r"ноябр\w*|декабр\w*)"
)


def _ordinal_day(m: re.Match[str]) -> str:
    tens = {"двадцать": 20, "тридцать": 30}.get((m.group(1) or "").lower(), 0)
    day = tens + RU_ORDINAL_STEMS[m.group(2).lower()]
    return f"{day} {m.group(3)}" if 1 <= day <= 31 else m.group(0)


# pictographs, dingbats, their variation selectors and joiners (not "№" or arrows, which carry meaning)
_EMOJI_BETWEEN = LazyRe(
    "(?<=[^\\W\\d_])[\\s,]*[\U0001f000-\U0001faff\u2600-\u27bf][\U0001f000-\U0001faff\u2600-\u27bf\ufe0f\u200d]*[\\s,.!]*(?=[^\\W\\d_])"
)
_EMOJI = LazyRe("[\U0001f000-\U0001faff\u2600-\u27bf\ufe0f\u200d]+")


# "The leaked key rotation issue: move it to In Progress": the issue named first, then what to do with "it"
_NAMED_THEN_ASKED = LazyRe(
    r"(?i)^\s*((?:the\s+|that\s+|our\s+)?[\w' -]{3,60}?\s+(?:issue|ticket|bug))\s*:\s*"
    r"((?:please\s+)?(?:move|assign|close|archive|delete|rename|set|mark|put|push|bump|give))\s+it\b"
)
_EN_DAYS = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_CLOCK_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10, "eleven": 11, "twelve": 12}  # fmt: skip
_BRITISH = [
    # "a fortnight today", "in a fortnight", "a fortnight from now": two weeks on
    (re.compile(r"(?i)\b(?:in\s+)?(?:a|one)\s+fortnight(?:\s+(?:today|from\s+(?:today|now)))?\b|\btoday\s+fortnight\b"),
     "in 2 weeks"),
    (re.compile(r"(?i)\b(two|three|four|2|3|4)\s+weeks\s+(?:from\s+(?:today|now)|today)\b"), r"in \1 weeks"),
    (re.compile(r"(?i)\b(?:a|one)\s+week\s+(?:from\s+(?:today|now)|today)\b"), "in 1 week"),
    # "a fortnight on Friday", "a week on Friday", "Friday week": that weekday, one or two weeks later
    (re.compile(rf"(?i)\b(?:a|one)\s+fortnight\s+(?:on|from)\s+{_EN_DAYS}\b"), r"two weeks from \1"),
    (re.compile(rf"(?i)\b(?:a|one)\s+week\s+on\s+{_EN_DAYS}\b"), r"a week from \1"),
    (re.compile(rf"(?i)(?<!next\s)(?<!this\s)\b{_EN_DAYS}\s+week\b(?!\s*(?:of|from|after|\d))"), r"a week from \1"),
    (re.compile(r"(?i)\b(?:end|close)\s+of\s+play\b"), "end of day"),  # "by end of play tomorrow"
]  # fmt: skip
_HALF_HOUR = LazyRe(
    r"(?i)\b(at|by|from|until|till)\s+half\s+(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2})\b"
)


def _british_dates(text: str) -> str:
    """British ways of naming a day or an hour, as the date reader knows them ("Friday week" is "a
    week from Friday"; "at half nine" is "at 9:30")."""
    if not text.isascii():
        return text
    for rx, said in _BRITISH:
        text = rx.sub(said, text)

    def half(m: re.Match[str]) -> str:
        hour = int(m.group(2)) if m.group(2).isdigit() else _CLOCK_WORDS[m.group(2).lower()]
        return f"{m.group(1)} {hour}:30" if 1 <= hour <= 12 else m.group(0)

    return _HALF_HOUR.sub(half, text)


_THROWN = LazyRe(
    r"(?i)\b(?:кинь|кини|накинь|подкинь)(?=\s+(?:[^\W\d_]+\s+)?(?:заметк|задач|таск|коммент|напоминалк|встреч|"
    r"созвон|сделк|контакт|тикет|баг))"
)


# «закинь их все в Todo», «перекинь их в бэклог»: records said back, moved somewhere — nothing made
_THROWN_THERE = LazyRe(
    r"(?i)\b(?:закинь|закиньте|кинь|перекинь|перекиньте)(?=\s+(?:их|все|всё|эти|обе|оба)(?:\s+(?:все|всё|сразу))?\s+(?:в|на)\s)"
)


# sales jargon: "close-lost everything in Lead", "mark it closed-won": a stage, not issues to close
_CLOSE_LOST_X = LazyRe(
    r"(?i)(?:^|(?<=[.;!?]\s)|(?<=\sand\s)|(?<=\sthen\s))\s*close[\s-](lost|won)\s+(?!(?:it|them)\b)"
    r"([^.;!?,]+?)(?=\s+(?:and|then)\s|[.;!?,]|$)"
)
_TOLD_THEN_REMIND_ME = LazyRe(
    # ("Friday: nudge Li Wei …, put a reminder in for me": the day said first, as a heading)
    r"(?is)^(?P<when>(?:today|tomorrow|(?:mon|tues|wednes|thurs|fri|satur|sun)day|mon|tue|wed|thu|fri|сегодня|завтра|"
    r"послезавтра|(?:в|во)\s+[а-яё]+|понедельник|вторник|среда|четверг|пятница)\s*:\s*)?"
    r"(?P<what>[^,;:]{12,}?)\s*[,;—–-]\s*(?P<ask>(?:(?:поставь|сделай|создай|кинь|накинь)\s+(?:мне\s+)?напоминалк\w*|"
    r"напомни\s+мне(?:\s+(?:об\s+этом|про\s+это|это))?|(?:set|make|create|put|add)\s+(?:me\s+)?(?:in\s+)?a\s+reminder"
    r"(?:\s+in)?(?:\s+for\s+me)?|remind\s+me(?:\s+of\s+it)?)"
    r"(?:\s+(?:плз|pls|please|пожалуйста))?)\s*[.!]*\s*$"
)
_STARTS_WITH_IMPERATIVE = LazyRe(
    r"(?i)^\s*(?:please\s+|пожалуйста\s+)?(?:create|add|move|close|set|assign|make|put|schedule|book|"
    r"создай|добавь|переведи|закрой|поставь|назначь|сделай|заведи|запиши)\b"
)
_ALL_OF_THEM_TO = LazyRe(
    r"(?i)^\s*(?P<what>(?:all|every|each|everything)\b[^.;:!?→>-]{2,60}?)\s*(?:\s(?:goes|go|gets|get)\s+to|->|→|=>)\s*"
    r"(?P<to>[^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*)?)\s*[.!]?\s*$"
)
_PRIORITY_WORD = LazyRe(r"(?i)^(?:urgent|high|medium|low|no\s+priority)$")


def _all_of_them_to(m: re.Match[str]) -> str:
    what, to = (
        m["what"].strip(),
        re.sub(r"(?i)\s+(?:now|today|please|pls|asap|теперь|сейчас)$", "", m["to"].strip()),
    )
    what = re.sub(r"(?i)\bpri\b|\bprio\b", "priority", what)
    if not re.search(r"(?i)\b(?:issues?|tickets?|tasks?|deals?|everything)\b", what):
        what += " issues"  # ("all unassigned -> me": the tracker's)
    if _PRIORITY_WORD.match(to):
        return f"set {what} to {to}"
    if re.match(r"(?i)(?:me|myself|[A-Z][a-z]+|[a-z]+)$", to) and not re.match(
        r"(?i)(?:done|todo|backlog|review|progress|won|lost|lead|proposal|negotiation|qualification|canceled|cancelled|"
        r"closed|complete|completed|finished|archived|started|triage)$",
        to,
    ):
        return f"assign {what} to {to}"
    return f"move {what} to {to}"


_UNSURE_OF_THE_TOOL = LazyRe(
    r"(?i)^\s*(?:(?:hi|hey|hello|привет)\W*\s*)?(?:i'?m\s+)?(?:not\s+(?:100%\s+|entirely\s+|quite\s+)?sure|не\s+уверен\w*)\s+"
    r"(?=[^,.!?]{0,60}?(?:works|процесс|работает|правильно|right\s+way|correct|the\s+tool|the\s+bot))"
    r"(?:(?:how|if|whether|что|как|правильно)\b[^,.!?]{0,60}?)[,.]?\s*(?<!\w)(?:but|но)\s+(?:(?:pls|please|пожалуйста)\s+)?(?=\w)"
)
_LETS_MEET = LazyRe(
    r"(?i)^\s*let'?s\s+(?:do|have|set\s+up|book|schedule|put\s+in)\s+(?:an?\s+)?(?=(?:quick\s+|short\s+)?"
    r"(?:[\w-]+\s+)?(?:check-?in|call|meeting|sync|chat|catch-?up|review)\b)"
)
_WHEN_HOW_LONG_WHAT = LazyRe(
    r"(?i)^\s*(?P<when>(?:next\s+|this\s+)?(?:mon|tue|wed|thu|fri|sat|sun|tomorrow|today)\w*\s+(?:at\s+)?\d{1,2}(?::\d{2})?\s*(?:am|pm)?)"
    r"\s*,\s*(?P<dur>\d+(?:\.\d+)?\s*(?:h|hr|hrs|hours?|m|min|mins|minutes?))\s*,\s*(?P<what>[^,—–]{3,80}?)"
    r"(?:\s+[-—–]\s+(?:put|add|book|schedule)\b[^,]*)?\s*[.!]?\s*$"
)
_SUM_SLANG = LazyRe(
    r"(?i)\bсумм[уа]\s+(?:режем|урежь|режь|порежь|апни|апаем|апнем|поднимаем|поднимем|снижаем|срезаем|срежь|двигаем|меняем|ставим)"
    r"\s+(?:до|на)\s+(?=\S)"
)
_DEAL_THEN_SUM = LazyRe(
    r"(?i)^\s*сделк[аеу]\s+(?P<deal>[^\s,:]+(?:\s+[^\s,:]+)?)\s*[,:—–-]?\s+сумм[аы]\s*[:—–-]?\s+"
    r"(?P<sum>(?:\d|миллион|тысяч|сто|двест|трист|четырест|пятьс|шест|сем|восем|девят|один|два|три|пять)[^?]*)$"
)
_ISSUES_SAID_BY_WHOM = LazyRe(
    r"(?i)\s*(?:all\s+|my\s+|the\s+)?(?:open\s+|active\s+|urgent\s+|high\s+priority\s+)?(?:issues|tasks|tickets)\s+"
    r"(?:that\s+(?:are\s+)?|which\s+are\s+)?(?:assigned\s+to\s+[^\W\d_]+|(?:that\s+)?nobody\s+(?:is\s+assigned\s+to|owns|has)|"
    r"unassigned|without\s+(?:an?\s+)?(?:assignee|owner))\s*[?.!]*\s*"
)
_PICTURES = LazyRe(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\u2300-\u23FF\u2B00-\u2BFF\uFE0F\u200D]+")
_ID_TO_A_DAY = LazyRe(
    r"(?i)^\s*(?P<id>[A-Za-z]{1,10}-\d+)\s+(?:на|to)\s+(?P<day>завтра|послезавтра|сегодня|понедельник|вторник|среду|четверг|"
    r"пятницу|субботу|воскресенье|tomorrow|today|monday|tuesday|wednesday|thursday|friday|next\s+\w+day|"
    r"\d{1,2}\s+(?:января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря))\s*[.!]?\s*$"
)
_TAKEN_OFF_GIVEN = LazyRe(
    r"(?i)^(?P<id>[A-Za-z]{1,10}-\d+)\s+(?:сним\w*|забира\w*|убира\w*)\s+с\s+[^\W\d_]+\s+(?:и|,)\s*"
    r"(?:став\w*|назнач\w*|переда\w*|отда\w*|да[её]м)\s+(?:на\s+)?(?P<to>[^\W\d_]+)"
)
_LETS_GO_PLAYBOOK = LazyRe(
    r"(?i)\b(?:погнали|поехали|стартуем|стартани|запускаем|го|let'?s\s+go(?:\s+with)?)\s+(?=(?:с\s+)?(?:онбординг|продлени|"
    r"onboarding|renewal))"
)
_TELL_THE_TEAM = LazyRe(
    r"(?i)\b(?:tell|ask|get)\s+(?:the\s+)?(?:team|folks|guys|devs|engineers|eng)\s+(?:in|on)\s+linear\s+to\s+"
)
_I_WILL_TAKE_IT = LazyRe(
    r"(?i)\s*[,;—–-]\s*(?:(я\s+(?:е[её]\s+|его\s+)?(?:возьму|беру|заберу)(?:\s+(?:е[её]|его))?(?:\s+на\s+себя)?|беру\s+на\s+себя)|"
    r"i'?ll\s+take\s+it|i'?m\s+taking\s+it|i\s+(?:will\s+)?take\s+it)\s*(?=[.!]?\s*$)"
)
_NEW_DEAL_SAID = LazyRe(r"(?i)\b(?:new|create|add|open)\s+(?:a\s+)?deal\b")
_OWNS_IT = LazyRe(
    r"(?i)(\s|,\s*)(?:and\s+)?([^\W\d_]{3,})\s+(?:owns\s+it|will\s+own\s+it|is\s+the\s+owner|is\s+owner)(?=\s*(?:[,.;!]|$))"
)
_TO_WHOM_THEN_PRIORITY = LazyRe(
    r"(?i)((?:->|→)\s*[^\W\d_]{3,})\s+(urgent|high|medium|low|срочн\w*|высок\w*|низк\w*|средн\w*)\b"
)
_INTO_DESCRIPTION = LazyRe(
    r"(?i)\b(?:(?:в|к)\s+описани[еюи]\s+(?:к\s+|для\s+|в\s+)?(?P<id1>[A-Za-z]{1,10}-\d+)\s+(?:допиши|добавь|дополни)|"
    r"(?:в|к)\s+(?P<id2>[A-Za-z]{1,10}-\d+)\s+(?:допиши|добавь)\s+в\s+описание)\s*(?P<words>[:—–-]?\s*\S.*)$"
)
_DESCRIPTION_FIELD = LazyRe(
    r"(?i)^\s*(?P<id>[A-Za-z]{1,10}-\d+)(?:\s*[:—–-]\s*(?:описание|description)\s*(?:[:—–-]\s*)?|"
    r"\s+(?:описание|description)\s*[:—–-]\s*)(?:[«\"“](?P<quoted>[^«»\"“”]{2,})[»\"”]|(?=[^\W\d_]))"
)
# «Ответь в ENG-101: …», «напиши в ENG-103 что воспроизводится …»: a comment there
_REPLY_IN = LazyRe(
    r"(?i)\bответь(?=\s+(?:в|во|к|под)\s+(?:ней|нём|нем|задач\w*|тикет\w*|[A-Za-z]{1,10}-\d))"
    r"|\b(?:напиши|черкни|допиши)(?=\s+(?:в|во|к|под)\s+(?:[A-Za-z]{1,10}-\d+|[а-яё]{2,4}\s+\d{1,4})\s*(?:[:—–-]|,?\s*что\b))"
)
_WHATS_BURNING = LazyRe(  # «что горит?» alone; «что горит на этой неделе?» asks what is due this week
    r"(?i)\b(?:что|чего)\s+(?:у\s+нас\s+)?(?:горит|пылает|полыхает)(?=\s*[?!.]*\s*$)|"
    r"\bwhat'?s\s+on\s+fire(?=\s*[?!.]*\s*$)"
)
_CLOSED_AS = LazyRe(r"(?i)\bclos(?:e|ed)[\s-](lost|won)\b")


def _closed_as(m: re.Match[str]) -> str:
    before = re.search(r"(\S+)\s+$", m.string[: m.start()])
    said_of_it = before is not None and before.group(1).lower() not in (
        "is",
        "was",
        "it",
        "as",
        "be",
        "are",
        "them",
        "mark",
    )
    # "Globex pilot closed won!": the deal did, i.e. it is Won now (not "mark it closed-won", said as a stage)
    return (
        f"is {m.group(1).title()}"
        if said_of_it and m.group(0).lower().startswith("closed")
        else m.group(1).title()
    )


# "leave that as a comment on CS-14 and also as a note on the Globex pilot deal": two requests, one text
_AND_AS_A_NOTE = LazyRe(
    r"(?i)\b(as\s+a\s+comment\s+(?:on|to|in|under)\s+\S+?)[,\s]+and\s+(?:also\s+)?as\s+a\s+note\s+(on|to|in)\s+"
)
# an issue's identifier as the rewrites below find it ("ENG-106", "cs-12")
_AN_ISSUE = r"[A-Za-z]{2,5}-\d+"
# "ENG-106 back to in progress", «ENG-105 обратно в работу»: the same as an arrow
_BACK_TO = LazyRe(rf"(?i)\b({_AN_ISSUE})\s+(?:back\s+to|обратно\s+в)\s+(?=\S)")
# «ENG-105 и DES-7 — в in review»: the dash only sets the destination apart
_DASH_BEFORE_WHERE = LazyRe(rf"(?i)\b({_AN_ISSUE})\s+[—–]\s+(?=(?:в|во|на|to|into)\s)")
# "cancel ENG-101", "cancel every open ENG issue, we're migrating…", «отмени задачу CS-15»: the issues go to
# the Canceled state (a meeting, a deal or a draft is cancelled otherwise: those are left alone)
_CANCEL_ISSUES = LazyRe(
    r"(?i)^(\s*)(?:please\s+|пожалуйста\s+)?(?:cancel|отмени(?:те)?)\s+"
    rf"(?=[^,;.]*(?:\b{_AN_ISSUE}\b|\b(?:issues?|tickets?|bugs?|задач\w*|тикет\w*|баг\w*)\b))"
    r"(?![^,;.]*\b(?:crm|attio|deals?|сделк\w*|meetings?|встреч\w*|calls?|созвон\w*|drafts?|черновик\w*|events?)\b)"
    r"([^,;.]+)"
    # "ENG-102 — cancel, dup of ENG-101": the issue first, then the word
    rf"|^(\s*)({_AN_ISSUE})\s*[—–:-]?\s*(?:cancel(?:l?ed)?|отмен\w*)\b(?=\s*(?:[,.;!—–-]|$))"
)
# "What does Max own?", «что ведёт Макс?»: what a person owns in a CRM is deals (an issue is assigned)
_WHAT_THEY_OWN = LazyRe(
    r"(?i)^\s*(?:(what)\s+(?:does|do)\s+([^\W\d_][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s+own|"
    r"(что)\s+(?:сейчас\s+)?(?:ведёт|ведет)\s+([^\W\d_][\w-]*))(?=\s*[?!.]*\s*$)"
)
# a team key said letter by letter in a voice transcript: «си эс», «ди и эс», «енг»
_TEAM_LETTERS = {
    "си эс": "CS",
    "си-эс": "CS",
    "сиэс": "CS",
    "цс": "CS",
    "ди и эс": "DES",
    "ди-и-эс": "DES",
    "енг": "ENG",
    "инж": "ENG",
    "инг": "ENG",
    "энг": "ENG",
    "дес": "DES",
    "дэс": "DES",
    "дез": "DES",
}
_SPELLED_TEAM = LazyRe(
    r"(?i)(?<![\w-])(?:си[\s-]?эс|ди[\s-]и[\s-]эс|цс|енг|инж|инг|энг|дес|дэс|дез)(?!\w|-(?!\d))"
)  # «енг-101»
# «CS-14 можно закрывать», "ENG-101 can be closed": a permission said as the request
_MAY_AS = {
    "закрывать": "закрой", "закрыть": "закрой", "архивировать": "заархивируй", "заархивировать": "заархивируй",
    "удалять": "удали", "удалить": "удали", "переводить": "переведи", "перевести": "переведи",
    "closed": "close", "archived": "archive", "moved": "move",
}  # fmt: skip
_MAY_NOW = LazyRe(
    r"(?i)\b(?:можно|пора|уже\s+можно)\s+(закрывать|закрыть|архивировать|заархивировать|удалять|удалить|"
    r"переводить|перевести)\b(?![^.!?]*\?)|\bcan\s+(?:now\s+)?be\s+(closed|archived|moved)\b(?![^.!?]*\?)"
)  # «можно закрыть CS-14?» asks whether: left a question
_WRITE_IN_IT = LazyRe(
    r"(?i)\bотпиш(?:и|ись)(?=\s+(?:в|во|к|под)\s+(?:ней|нём|нем|неё|нее|задач\w*|тикет\w*|[A-Za-z]{1,10}-\d))"
)
# «по CS-13: отпишись, что ждём метаданные»: an issue said first, then "write back that …" — its comment
_WRITE_BACK_ON_AN_ISSUE = LazyRe(
    r"(?i)\b(?:по\s+|в\s+|on\s+)?([A-Za-z]{1,10}-\d+)\b\s*[:,—–-]?\s*(?:отпиш(?:и|ись|итесь)|напиши(?:те)?|написать|черкни)"
    r"\s*(?:,?\s*(?P<that>что)\b|(?P<colon>:)|[,:]?\s*(?=[«\"“]))\s*"
)  # (and «в ENG-106 написать «ждём прод-окно»»)
_REMIND_WHAT = LazyRe(
    r"(?i)\b(?:напомни(?:те)?(?:\s+мне)?|remind\s+me|подскажи(?:те)?|tell\s+me)\s*,?\s+(?:(?:пожалуйста|please)\s*,?\s+)?"
    r"(?=(?:что\s+за|кто|какой|какая|какие|какое|когда|сколько|где|who|what|which|when|how\s+much|how\s+many)\b"
    r"[^.!]*\?\s*$|(?:кто|какой|какая|какие|какое|сколько|who|what|which)\b[^.!?]*\.?\s*$)"
)


# «позвонить джейн доу завтра поставь задачу …»: what to do said first, dictated, then "make it a task"
_WHAT_THEN_TASK = LazyRe(
    r"(?i)^\s*([^\W\d_]+(?:\s+[^\s,.;:!?]+){0,8}?)[,\s]+(?:—\s+)?(поставь|создай|заведи|запиши|добавь)\s+"
    r"(задачу|таск|напоминание)(?=\s+(?:и|а)\s|\s*[,.;!]|\s*$)"
)


def _task_first(m: re.Match[str]) -> str:
    if not is_infinitive(m.group(1).split()[0].lower()):
        return m.group(0)  # «отчёт по Acme поставь задачу»: not a thing to do, said another way
    return f"{m.group(2)} {m.group(3)} {m.group(1)}"


# «узнать, есть ли у нас открытые баги…», "find out whether Max has …", «проверь, кто ведёт Globex»: a question
# to answer, asked as an errand («проверь, что …» / "check that …" asks to make sure: left alone)
_FIND_OUT = LazyRe(
    r"(?i)^\s*(?:(?:и|а|and|so|please|пожалуйста)\s+)*(?:[^\W\d_]+\s+(?:просил\w*|попросил\w*)\s+(?=узнать|выяснить|проверить))?"
    r"(?:узнать|узнай(?:те)?|выясни(?:те)?|выяснить|проверь(?:те)?|"
    r"проверить|посмотри(?:те)?|посмотреть|find\s+out|check|see|look\s+up)"
    # "Check and tell me if …", «проверь и скажи, есть ли …»: asked to be told
    r"(?:\s+(?:and|и)\s+(?:tell|let)\s+me(?:\s+know)?|\s+и\s+(?:скажи|напиши|сообщи)(?:те)?(?:\s+мне)?)?\s*,?\s+"
    r"(?=(?:[а-яё]+\s+ли\b|есть\s+ли|ли\s|кто|какие|какой|какая|сколько|когда|где|whether|if\s+(?:we|there|any|anyone|he|she|they|it)\b|"
    r"who|which|how\s+many|how\s+much|when)\b)"
)


# "2 issues for DES: 'empty states' and 'dark mode'", «три задачи в CS: …»: a count, where, and the list —
# what to do with them goes without saying (a question about them keeps its mark and is left alone)
_COUNTED_LIST = LazyRe(
    r"(?i)^\s*(?:[^:—–]{1,60}\s[—–]\s*)?(?=(?:[2-9]|two|three|four|five|six|seven|eight|две|два|три|четыре|пять|шесть|семь|"
    r"восемь)\s+(?:new\s+|нов\w+\s+)?(?:[A-Z]{2,5}\s+)?(?:issues|tasks|tickets|bugs|задач[иа]?|тикет\w*|таск\w*|баг\w*)"
    r"(?:\s+(?:for|in|to|в|для|на)\s+[\w-]+)?(?:\s+(?:please|pls|плиз|пожалуйста))?\s*:[^?]+$)"
)  # "Umbrella Health launch — 6 CS issues please: contract signature, kickoff, …": a list to file


# «Олег просил передать, что сделку … нужно перевести …», "Max asked me to tell you that …": the message
# passed on is what is asked (a reported statement in it is still read as one)
_PASSED_ON = LazyRe(
    r"(?i)^\s*(?:[^\W\d_][\w-]*\s+){1,2}(?:просил\w*|попросил\w*)\s+(?:меня\s+)?(?:передать|сказать|напомнить)\s*,?\s+"
    r"(?:вам\s+|тебе\s+)?что\s+(?=\S)"
    r"|^\s*(?:[^\W\d_][\w-]*\s+){1,2}asked\s+me\s+to\s+(?:tell|let)\s+you(?:\s+know)?\s+(?:that\s+)?(?=\S)"
)


# «ENG-101 максу», «CS-13 — мне», «все баги в ENG — олегу»: what, then to whom (a dative), telegraphically
_TO_WHOM_BARE = LazyRe(
    r"(?i)(?P<lead>^|[.;,:\n]\s*|\s(?:а|и|and)\s+)(?P<what>[A-Za-z]{2,5}-\d+\s*(?:[—–:→]|->|\s-\s)?|(?:все|всё)\s+[^—–\n.;:]+?\s*[—–→])\s*"
    r"(?P<who>мне|(?!(?:ревью|интервью|работу)\b)[а-яё]{3,}(?:у|ю))\s*(?=[.,;!]|$)"
)


_AN_INSTRUCTION = LazyRe(
    r"(?i)\b(?:нужно|надо|необходимо|следует|пора|просит|should|needs?\s+to|must|has\s+to|please|пожалуйста)\b"
    r"|\b[а-яё]+(?:йте|ите)\b"  # «…: закройте её»
)


# "I'm so sorry, I need to log this one: please create an issue for …": the person's preamble, then the
# request itself (a heading that names a record, "ENG:", «Ромашка:», stays)
_PREAMBLE = LazyRe(
    r"(?i)^\s*(?=[^:]{0,80}\b(?:sorry|извините|простите|i\s+need\s+to\s+(?:log|file|add|note)|this\s+one)\b)"
    r"(?![^:]{0,80}\b(?:with|about|for|с|со|про|по)\s+[A-ZА-ЯЁ])[^:]{3,80}:\s*"
    r"(?=(?:please\s+|пожалуйста\s+)?(?:create|add|make|file|log|open|set\s+up|schedule|book|создай|заведи|добавь|"
    r"поставь|запланируй)\b)"
)


# "What I do need: assign ENG-103 …", «Что нужно сделать: …», "Concretely:": the words that introduce the
# request ask nothing themselves
_ASK_INTRODUCED = LazyRe(
    r"(?i)(?:^|(?<=[.!?;]\s))\s*(?:(?:so|and|but|а|и|но)\s+)?(?:what\s+(?:i|we)\s+(?:do\s+|really\s+|actually\s+)?"
    r"(?:need|want)(?:\s+(?:from\s+you|is))?|что\s+(?:мне\s+|нам\s+)?(?:(?:действительно|реально)\s+)?"
    r"(?:нужно|надо)(?:\s+(?:от\s+тебя|сделать))?|concretely|specifically|конкретно|по\s+делу)\s*:\s*"
)
# "Context for the week: … Concretely: (1) …": a label over what is told; taken off only when another colon
# follows, which then introduces the requests (alone, the label's colon keeps the story apart from the ask)
_CONTEXT_LABEL = LazyRe(
    r"(?i)^\s*(?:(?:some\s+|for\s+)?context|background|контекст|предыстория|для\s+контекста)"
    r"(?:\s+for\s+(?:the\s+|this\s+)?\w+)?\s*:\s*(?=[^:]*:)"
    # «Довожу до сведения: …», "For your information: …": what follows is said, not its heading
    r"|^\s*(?:довожу\s+до\s+(?:вашего\s+)?сведения|к\s+сведению|сообщаю|информирую|for\s+your\s+information|fyi)\s*:\s*"
)


# «Первое — ENG-102 в проект Mobile App. Второе — …», "First, …; second, …": each point is a request of its own
_POINT_OF_A_LIST = LazyRe(
    r"(?i)(?:^|(?<=[.;!]\s)|(?<=[.;!]))\s*(?:перв|втор|трет|четв[её]рт|пят)(?:ое|ый|ая|ье|ий|ья)\s*[—–:,-]\s*([a-zа-яё]?)"
    r"|(?:^|(?<=[.;!]\s))\s*(?:first|second|third|fourth|fifth)(?:ly)?\s*[—–:,-]\s*([a-zа-яё]?)"
)


# "Oleg must take the issue ENG-103", "Max will take over CS-15": who takes it is whom it is assigned to
_TAKES_IT = LazyRe(
    r"(?i)^\s*([A-ZА-ЯЁ][\w-]+)\s+(?:must|should|will|can|needs\s+to|has\s+to)\s+take\s+(?:over\s+)?"
    r"(?:the\s+(?:issue|ticket|task)\s+)?([A-Z]{1,10}-\d+)\b"
)


_SPOKEN_AM_PM = LazyRe(
    r"(?i)\b(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+([ap])\.?\s?m\b\.?"
)


# "ENG-102 → In Review (PR #482 is up)", "(sprint started)": an aside in parentheses says why; it names no
# record and asks for nothing (details in parentheses after a quoted title, an issue id, an email stay)
_ASIDE = LazyRe(r"\s*\(([^()]{1,100})\)")
_KEEPS_ASIDE = LazyRe(
    r"(?i)[A-Za-z]{1,10}-\d+|@|https?(?:://|\ue000//)|\b(?:due|prio\w*|label\w*|project|assign\w*|срок\w*|приоритет\w*|"
    r"метк\w*|проект\w*|usd|rub|eur|\d+\s*(?:k|к|min|мин|h|ч))\b|[$€₽]"
    # «(задача в CRM, до понедельника)»: which system and by when — part of what is asked
    r"|\b(?:crm|срм|црм|attio|linear|линеар\w*|задач\w*|task|deadline|дедлайн)\b"
)


_A_NEW_ISSUE_BEFORE = LazyRe(
    r"(?i)\b(?:завед\w*|завест\w*|созда\w*|create|new|нов\w+)\b[^;]*\b(?:задач\w*|issue|task|ticket|тикет\w*|баг\w*|bug)\b[^;]*$"
)


def _without_asides(text: str) -> str:
    outside = _ASIDE.sub(" ", text)
    named_outside = bool(re.search(r"\b[A-Za-z]{1,10}-\d+\b", outside))
    if not (named_outside or re.search(r"→|->|\b(?:every|everything|all)\b", outside, re.I)):
        return text  # (said in tracker shorthand only: elsewhere words in parentheses may be a note's or a domain)

    def keep(m: re.Match[str]) -> str:
        before = text[: m.start()].rstrip()
        if len(re.findall(r"['\"«»“”`]", before)) % 2 or re.search(r"\w\.\w{2,}", m.group(1)):
            return m.group(0)  # inside quotes or code, or a domain: the words themselves
        if re.fullmatch(r"\s*[A-Za-z]{1,10}-\d+\s*", m.group(1)):
            return " " + m.group(1).strip()  # "тот тикет про PDF (ENG-103)": the issue named, in brackets
        if re.search(r"\b[A-Za-z]{1,10}-\d+\b", m.group(1)) and named_outside:
            return ""  # "ENG-105 → Oleg (Max is buried in DES-7 feedback)": DES-7 is why, not what changes
        if before.endswith(("'", '"', "»", "”")) or _KEEPS_ASIDE.search(m.group(1)):
            return m.group(0)
        if re.search(
            r"(?i)\b(?:rename|renamed|retitle|title|переименуй\w*|название|назови)\b[^()]*$", before
        ):
            return m.group(
                0
            )  # "rename ENG-104 to Update API docs for v2.1 (auth changes)": part of the new name
        if re.fullmatch(r"\s*[A-ZА-ЯЁ][a-zа-яё]+\s*", m.group(1)) and _A_NEW_ISSUE_BEFORE.search(before):
            return (
                ", " + m.group(1).strip()
            )  # «завести задачу на … (Олег)»: whose it is, a field of the new issue
        return ""

    return _ASIDE.sub(keep, text)


_HOURS = {
    w: str(i)
    for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())
}


# "Romashka impl → Won, no wait — Lost", «в КП, ой, не так — в переговоры»: the value said again replaces the first
_SAID_AGAIN = LazyRe(
    r"(?i)(?P<arrow>→|->|=>|\bв\b|\bto\b|\bна\b)\s*(?P<old>[\w-]+)\s*[,.]?\s*(?:[—–-]\s*)?"
    r"(?:no,?\s+wait|wait,?\s+no|sorry,?\s+(?:i\s+mean|no)|i\s+mean|no,?\s+make\s+(?:it|that)|"
    r"ой,?\s+(?:нет|не\s+так)|нет,?\s+стоп|точнее|вернее|то\s+есть)\s*[—–,:-]?\s*"
    r"(?:(?:→|->|=>|в|to|на)\s+)?(?=[\w«\"'])(?!(?:not|hold|don'?t|never|leave|keep|рано|не|пока|оставь|отбой)\b)"
)


def _said_again(m: re.Match[str]) -> str:
    return f"{m['arrow']} "


def _canceled(m: re.Match[str]) -> str:
    lead, what = (m.group(1), m.group(2)) if m.group(2) else (m.group(3), m.group(4))
    return (
        f"{lead}move {what.rstrip()} to Canceled"
        if what.isascii()
        else f"{lead}перенеси {what.rstrip()} в Canceled"
    )


_GIVE_ME = LazyRe(
    r"(?i)(?<![\w-])(?:дай|дайте|скинь|скиньте|кинь|киньте|пришли|пришлите)(?:\s+мне)?\s+"
    r"(?=(?:почт\w*|email|e-mail|мейл\w*|имейл\w*|адрес\w*|контакт\w*|телефон\w*|номер\w*|список|list|статус\w*|сумм\w*|"
    r"все\s+(?:сделк|задач|компани|контакт)\w*)\b)"
)
_TIME_BOOKED = LazyRe(r"(?i)\b(?:блок\w*|встреч\w*|созвон\w*|митинг\w*|block|meeting|event|slot)\b")
_CODE = LazyRe(r"[/(){}\[\]=<>;$|\\]")
_TICKED = LazyRe(r"`([^`\n]{1,200})`")
_ID_RANGE = LazyRe(r"\b([A-Za-z]{1,10})-(\d{1,6})\s*(?:\.\.\.?|…|–)\s*(?:\1-)?(\d{1,6})\b", re.IGNORECASE)


def _kept_comma(m: re.Match[str]) -> str:
    """ "ENG-102 в ревью плиз, Макс уже открыл PR": the comma after a courtesy said at a piece's end still ends it
    (one before it too takes it with it: ", пожалуйста," between two words)."""
    said = m.group(0)
    before, after = "," in said.lstrip()[:1], "," in said.rstrip(" .!")[-1:]
    if before and not after and re.match(r"\s*[a-zа-яё]{2,}\s", m.string[m.end() :]):
        return (
            "\ue001"  # "CS-14 is blocking the pilot, please raise it to urgent": a request of its own follows
        )
    return "\ue001" if after and not before else ""


def asks_to_be_shown(text: str) -> bool:
    """«Скинь email Марии»: the address asked for, not an email to send."""
    return _GIVE_ME.search(text) is not None


def _ticked(text: str) -> str:
    if "`" not in text:
        return text
    return _TICKED.sub(_unticked, text)


def _unticked(m: re.Match[str]) -> str:
    if _CODE.search(m.group(1)):
        return m.group(0)  # "`GET /v1/me`": code, kept as written
    return m.group(1) if not re.search(r"\s", m.group(1)) else f'"{m.group(1)}"'  # a word; words as a name


def _id_range(m: re.Match[str]) -> str:
    key, first, last = m.group(1), int(m.group(2)), int(m.group(3))
    if not 0 < last - first <= 10:
        return m.group(0)
    return ", ".join(f"{key}-{n}" for n in range(first, last + 1))


# a Cyrillic word with Latin letters that look the same in it (a phone keyboard switched mid-word)
_MIXED_SCRIPT = LazyRe(
    r"\b(?=[A-Za-z]*[а-яёА-ЯЁ])(?=[а-яёА-ЯЁ]*[aceopxykmthbACEOPXYKMTHB])[а-яёА-ЯЁaceopxykmthbACEOPXYKMTHB]+\b"
)
_TO_CYRILLIC = str.maketrans("aceopxykmthbACEOPXYKMTHB", "асеорхукмтнвАСЕОРХУКМТНВ")


_LABEL_SWAP = LazyRe(
    r"(?i)\b(?:remove|drop|take\s+off|убери|сними)\s+(?:the\s+)?[\w-]+\s+(?:label|tag|метк\w*)\s+(?:and|и)\s+"
    r"(?:add|put|повесь|добавь|поставь)\s+(?!(?:a|an|new|the|нов\w+)\b)[\w-]+(?!\s+(?:label|tag|метк\w*))(?=\s|[,.;!—–-]|$)"
)
_BEFORE_OR_AFTER_THAT = LazyRe(
    r"(?i)(,\s*(?:и|а|and)\s+)(?:до|перед|после|before|after)\s+(?:этого|этим|that)\s+"
    r"(?=(?:заведи|создай|поставь|добавь|напомни|запиши|create|add|open|file|remind|set|schedule)\b)"
)
_FIND_THEN = LazyRe(
    r"(?i)^\s*(?:please\s+|пожалуйста\s+)?(?:find|look\s+up|locate|найди|найдите|отыщи)\s+(?P<what>[^,;.?!]{3,80}?)\s*,?\s+"
    r"(?:and|и|then|потом)\s+(?P<verb>[^\W\d_]+)\s+(?:it|them|её|ее|его|их)\b(?!\s+(?:over|off|up|back|out|away)\b)"
)
_TAG_AS = LazyRe(
    r"(?i)^\s*(?:tag|label)\s+(?P<what>(?!(?:it|them|this|that)\b)[^,;:]{3,60}?)\s+(?:as|with)\s+(?:a\s+|the\s+)?"
    r"(?P<label>[\w-]+)(?:\s+(?:label|tag))?(?:\s+(?:too|as\s+well))?\s*[.!]?\s*$"
)
# (only right after a record's name: "set the amount to 21k" keeps its verb's "to")
_FIELD_TO_VALUE = LazyRe(
    r"(?i)(?<=[\w')]\s)(?<!\bthe\s)(?<!\bits\s)(?<!\ban\s)(amount|value)\s+to\s+(?=[$€₽]?\s*\d)"
)
_VERB_BEFORE = LazyRe(
    r"(?i)\b(?:set|bump|change|raise|update|increase|lower|move|put|make|drop|reduce|adjust|fix|correct|push)\b"
)
_ASKED_IF = LazyRe(r"(?i)\b(?:does|do|did|will|would|could|should|is|are|how\s+much|what)\b")
_OFF_ME_THEN_TO = LazyRe(
    r"(?i)(?:убери|сними|сними\s+её|сними\s+его|убери\s+её|убери\s+его)\s+с\s+меня\s*[,;]?\s*(?:и\s+|а\s+)?"
    r"(?=(?:назначь|передай|отдай|повесь|переназначь)\b)"
    r"|\b(?:take|get)\s+(?:it|this)\s+off\s+(?:of\s+)?me\s*[,;]?\s*(?:and\s+)?(?=(?:assign|give|reassign|hand)\b)"
)
_RECORD_FOR = LazyRe(
    r"(?i)(\b(?:create|add|make|open|start)\s+(?:an?\s+|new\s+)*(?:company|contact|person))\s+record\s+(?:for|of)\s+"
)
_CLOSED_AS_OUTCOME = LazyRe(
    r"(?i)\b(?P<verb>close|closing|закрой|закройте|закры\w*)\s+(?!out\b)(?:(?P<what>(?:(?!\b(?:as|как)\b)[^.;!?]){1,60}?)\s+)?(?:as|как)\s+"
    r"(?P<outcome>won|lost|closed[\s-]won|closed[\s-]lost|выигра\w*|проигра\w*)\b"
)
_OUTCOMES = {"выигра": "выигранные", "проигра": "проигранные"}


def _moved_to_outcome(m: re.Match[str]) -> str:
    if not m.group("what") and m.group("verb").lower() in ("close", "закрой", "закройте"):
        return m.group(0)  # «закрой как проигранные все сделки в Lead»: every one of them, the bulk rule's
    english = m.group("verb")[0] in "cC"
    outcome = m.group("outcome")
    outcome = next(
        (v for k, v in _OUTCOMES.items() if outcome.lower().startswith(k)), outcome
    )  # («проиграную»)
    what = f" {m.group('what')}" if m.group("what") else ""
    return f"{'move' if english else 'переведи'}{what} {'to' if english else 'в'} {outcome}"


_NAME_CHANGED_TO = LazyRe(
    r"(?i)\b(?:change|update|set)\s+(?:the\s+)?(?P<what>[^.;!?'\"«“]{2,60}?)\s+name\s+to\s+(?=['\"«“])"
    r"|\b(?:смени|поменяй|измени|обнови)\s+название\s+(?P<ru_kind>сделки|компании)?\s*(?P<ru_what>[^.;!?'\"«“]{2,60}?)"
    r"\s+на\s+(?=['\"«“])"
)
_AMOUNT_BECAME = LazyRe(
    r"(?i)\b(сумм[аы]|amount|value|бюджет)\s+(?:(?:уже|теперь|now)\s+)?(?:выросла|увеличилась|поднялась|упала|снизилась|"
    r"уменьшилась|стала|went\s+(?:up|down)|grew|increased|decreased|dropped|rose|is\s+now|changed)\s+(?:до|to)\s+(?=[$€₽]?\s*\d)"
)
# "the initech renewal amount is actually 22000": the value it has to be
_ACTUALLY = LazyRe(
    r"(?i)\b(amount|value|сумма)\s+(?:is\s+)?(?:actually|really|in\s+fact|на\s+самом\s+деле)\b"
)
# "… 22000 not 18000", "65k instead of 50k", «46 500, а не 50 000»: the old value said after the new one
_OLD_VALUE_AFTER = LazyRe(
    r"(?i)(?<=\d)(?P<unit>\s*(?:k|к|тыс\w*|m|млн|usd|\$|долл\w*|руб\w*|eur|€)?)\s*,?\s+(?:now\s+)?"
    r"(?:not|а\s+не|instead\s+of|вместо)\s+(?:[$€₽]?\s*\d[\d\s,.]*\s*(?:k|к|тыс\w*|m|млн|usd|долл\w*|руб\w*)?"
    r"|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|eleven|twelve|\w+teen|ten|one|two|three|four|five|six|"
    r"seven|eight|nine)(?:[\s-]\w+){0,2})\s*(?=$|[,.;!])"
)
# «по Acme Corp annual license договорились со скидкой, итог 46 500 долларов»: the deal's sum now
_FINAL_SUM = LazyRe(
    r"(?i)(?:,\s*|\s)(?:итог(?:о|овая\s+сумма)?|final(?:\s+(?:amount|price|number))?)\s*[:—-]?\s+(?=[$€₽]?\s*\d)"
)
# "Acme Corp annual license: they want 65k now, pls update": the sum they want, the update asked for last
_THEY_WANT_SUM_UPDATE = LazyRe(
    r"(?i)\b(?:they|клиент\w*|они)\s+(?:want|wants|need|хотят|хочет|просят|просит)\s+(?P<sum>[$€₽]?\s*\d[\d\s,.]*\s*"
    r"(?:k|к|тыс\w*|m|млн)?(?:\s*(?:usd|\$|долл\w*|руб\w*|eur|€))?)(?:\s+(?:now|теперь|сейчас))?\s*[,;]?\s*"
    r"(?:so\s+)?(?:(?:please|pls|plz|пожалуйста|плз)[,\s]+)?(?:update|обнови|поправь|change)(?:\s+(?:it|the\s+deal|сделку))?"
    r"\s*[.!]?\s*$"
)
_UPDATE_IT_AFTER = LazyRe(
    r"(?i)[,;]?\s*(?:и\s+|and\s+|please\s+)?(?:обнови|поправь|update|change)\s+(?:the\s+|its\s+)?(?:сделку|deal|record|запись)"
    r"(?:\s+(?:в|in)\s+(?:attio|crm|срм))?\s*[.!]?\s*$"
)
_AFTER_THE_CALL = LazyRe(
    r"(?i)[,\s]+(?:after|following)\s+(?:today'?s|the|our|my|this\s+morning'?s|yesterday'?s)\s+(?:call|meeting|sync|demo)\b"
)
_MOVED_INTO = LazyRe(
    r"(?i)\b(?:put|move|set|bump)\b[^.;]*\b(?:into|to)\s+(?:lead|qualification|proposal|negotiation|won|lost)\b"
)
_NEW_ONE_BY_DOMAIN = LazyRe(
    r"(?i)^\s*(?:new\s+(?:lead|opportunity|opp|company|client|customer|prospect|account)|нов(?:ый|ая)\s+(?:лид|компания|клиент))"
    r"\s*[:—–]\s*(?=[^,;:]{2,60}?[\s(][\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\)?\s*,)"
)
_NEW_LEAD = LazyRe(r"(?i)(?<![\w-])(?:new\s+(?:lead|opportunity|opp)|новый\s+лид)\s*[:—–]")
_DASH_BEFORE_FIELD = LazyRe(
    r"(?i)\s+[—–-]\s+(?=(?:domain|website|site|email|e-mail|домен|сайт|почта|email:)\s*[:—-]?\s*\S+\.\w)"
)
_AND_ANOTHER_OBJECT = LazyRe(
    r",\s+а\s+(?=(?:[А-ЯЁ][а-яё]+(?:у|ю|е)\s+){1,2}(?:заметку|задачу|коммент\w*|напоминание)\b)"
)
_ID_NOT_THAT_ONE = LazyRe(r"(?i)\b([A-Z]{1,10}-\d+)\s*,?\s+(?:not|(?:а\s+)?не)\s+[A-Z]{1,10}-\d+\b")
_LEVELS = {"сроч": "срочный", "высо": "высокий", "сред": "средний", "низк": "низкий"}
_RAISED_TO_LEVEL = LazyRe(
    r"(?i)\b(?:подними|поднимите|повысь|понизь|опусти|снизь)(?:те)?\s+(?:(?:его|её|ее|их|приоритет)\s+)?до\s+"
    r"(?P<level>срочн\w*|высок\w*|средн\w*|низк\w*)"
)
_THROWN_TO_ME = LazyRe(
    r"(?i)\b(?:пере)?(?:кинь|киньте|скинь)\s+(?P<what>(?:сделк\w*|задач\w*|тикет\w*)[^.;:]{0,60}?)\s+на\s+меня\b"
)
_OBJECT_THEN_VERB = LazyRe(
    r"(?i)\b(?P<what>заметк[уи]|комментари[йи]|коммент)\s+(?P<verb>добавь|оставь|запиши|напиши|черкни|добавьте|оставьте)\b"
)
_PARENT_FIELD = LazyRe(
    r"(?i)[,;]\s*(parent(?:\s+issue)?|родительская(?:\s+задача)?|родитель)\s*[:—–-]?\s*([A-Za-z]{1,10}-\d+)(?=\s*[.!]?\s*$)"
)
_TOPIC_THEN_NOTE = LazyRe(r"(?i)((?:^|[.!?]\s+)по\s+[^:.!?]{1,40}:\s*)(заметку\s+(?:к|в|для|на)\s)")
_THATS_ALL = LazyRe(
    r"(?i)(?<=[.!])\s+(?:(?:ну\s+)?(?:вс[её]|на\s+этом\s+вс[её]|пока\s+вс[её])|that'?s\s+(?:all|it))\s*[.!]*\s*$"
)
_TASK_DASH = LazyRe(
    r"(?i)(^\s*|[,;]\s+)((?:нов(?:ая|ую)\s+)?(?:задача|задачу|задачка|таска|(?:a\s+)?(?:new\s+)?task))\s+[—–]\s+(?=\w)"
)
_MESSAGE_KIND = LazyRe(
    r"(?i)^\s*[(\[]?(?:voice\s+(?:note|memo|message)|transcript(?:ion)?|dictated|голосов\w*(?:\s+сообщени\w*)?|"
    r"расшифровка|аудио)[)\]]?\s*[:—–-]\s*(?=\S)"
)
# "put oleg on CS-15" (typed in lower case): Oleg assigned to it
_PUT_SOMEONE_ON = LazyRe(
    r"(?i)\bput\s+(?!(?:it|this|that|them|the|a|an|me|him|her)\b)([a-z]{3,})\s+on\s+([A-Za-z]{1,10}-\d+)\b"
)
_PUT_IT_ON = LazyRe(
    r"(?i)\bput\s+(it|this|that|them|[A-Za-z]{1,10}-\d+)\s+on\s+(?=(?-i:[A-Z])[a-z]+\b(?!['’]|\s+(?:hold|ice)\b))"
)
_WHOSE_TASK_FIRST = LazyRe(
    r"(?i)\b(?P<verb>поставь|поставьте|дай|дайте)\s+(?P<whom>(?-i:[А-ЯЁ])[а-яё]+(?:у|ю|е))\s+(?P<task>задачу|задачку|таску|таск|task)\b"
    # (its words follow: what to do, or where it goes and a dash; «поставь Олегу задачу» alone asks for them)
    r"(?=\s+(?:[а-яё]+(?:ть|ться|ти|чь)\b|в\s+(?:crm|срм|attio|аттио)\b))"
)
# «назначь на меня все задачи CS», "assign to me all CS issues": whom said first, then which — as «назначь все
# задачи CS на меня» says it
_TO_WHOM_THEN_ALL = LazyRe(
    r"(?i)\b(?P<verb>назначь|назначьте|переназначь|отдай|передай|повесь|assign|reassign|give)\s+"
    r"(?P<whom>(?:на|to)\s+(?:me|myself|меня|себя|(?-i:[A-ZА-ЯЁ])[\w-]+))\s+"
    r"(?P<which>(?:все|всё|всех|all|every)\b[^,.;!?]*?)\s*(?=[,.;!?]|$)"
)
# «…и поставь статус In Review», "…and set status to In Review": the issue just named moves there
_STATUS_SET = LazyRe(
    r"(?i)\b(?P<verb>поставь|поставьте|выставь|выставьте|смени|поменяй|set|change|update)\s+"
    r"(?:ей\s+|ему\s+|им\s+|её\s+|ее\s+|its\s+|the\s+|their\s+)?(?:статус|status|state)\s+(?:на\s+|в\s+|to\s+)?"
    r"(?=(?:in\s+review|in\s+progress|todo|backlog|done|canceled|cancelled)\b)"
)
_WHOSE_WHERE_TODO = LazyRe(
    r"^(?:\s*(?:(?i:и|а|ну|короче)[,\s]+)*)(?P<whom>(?-i:[А-ЯЁ])[а-яё]+(?:у|ю|е)|(?i:мне|себе))\s+"
    r"(?P<where>(?i:в|во)\s+(?i:linear|линеар\w*|линейк\w*))\s*[:—–-]\s*(?=[а-яё]+(?:ть|ти|чь)(?:ся)?\b)"
)
# "bug from support chat: … . ENG, medium priority, title: Deal name input freezes on emoji paste": the title said
# last as a field, the way "titled '…'" says it
_TITLE_SAID_LAST = LazyRe(
    r"(?i)(?P<sep>[.,;]\s*|\s+)(?:title|заголовок)\s*[:—–-]\s*(?P<title>[^'\"«»“”\n.;:,]{3,120}?)\s*[.!]?\s*$"
)
# "add Oleg as assignee on CS-15", "set Max as the owner of Globex pilot": given to him, said as a role
_AS_ASSIGNEE = LazyRe(
    r"(?i)\b(?:add|set|make|put|have)\s+(?P<who>(?-i:[A-Z])[a-z]+|me|myself)\s+as\s+(?:the\s+|its\s+)?(?:new\s+)?"
    r"(?:assignee|owner)\s+(?:on|to|of|for)\s+(?P<what>[A-Za-z]{1,10}-\d+|it|this(?:\s+one)?|that(?:\s+one)?|"
    r"the\s+[^,.;]+?)(?=\s*(?:[,.;!]|\band\b|$))"
)
# «Олегу в линеар задачу подготовить договор»: whom, where, then the task — as «Олегу задачу в линеар …» says it
_WHOSE_WHERE_TASK = LazyRe(
    r"(?<![\w-])(?P<whom>(?-i:[А-ЯЁ])[а-яё]+(?:у|ю|е)|(?i:мне|себе))\s+(?P<where>(?i:в|во)\s+(?i:linear|линеар\w*|линейк\w*|crm|срм|attio|аттио))"
    r"\s+(?i:задачу|задачку|таску|таск|task)(?![\w-])"
)
_A_NEW_ONE_SAID = LazyRe(
    r"(?i)\b(?:заведи|создай|добавь|сделай|открой)\s+(?:(?:в|во)\s+[\w-]+\s+)?(?:ещ[её]\s+)?(?P<ru>новую)(?=\s*[:—–]|\s+[«\"'])"
    r"|\b(?:open|create|file|add|make)\s+(?:a\s+)?new\s+one(?:\s+in\s+[\w-]+)?(?=\s*[:—–]|\s+[«\"'])"
)
_INTO_THE_DESCRIPTION = LazyRe(
    r"(?i)[.;]\s+(?:please\s+)?(?:put|add|paste|include|положи|добавь|вставь)\s+(?:the\s+|this\s+|этот\s+|это\s+)?"
    r"(?:stack\s*trace|trace|log|logs|error|details|трейс|стектрейс|лог|ошибку)\s+(?:in|into|to|в)\s+(?:the\s+)?"
    r"(?:description|описание)\s*:\s*"
)
# a change said with a verb the rules read otherwise, made the plain verb (once per message: the analyser's
# phrase table is searched for every piece of a long message, so it stays short)
_VERB_SAID_OTHERWISE = (
    # «Сделай Анну исполнителем CS-15»: whom it is given to
    (
        LazyRe(
            r"(?i)\b(?:сделай|сделайте|поставь|поставьте)(?=\s+[^\W\d_]+\s+(?:исполнител|ответственн)\w*)"
        ),
        "назначь",
    ),
    # «Дай ENG-104 Олегу», «ENG-104 дай Олегу»: given to him («дай мне список» stays a request for a list)
    (
        LazyRe(
            r"(?i)\bдай(?:те)?(?=\s+(?:(?:[A-Za-z]{1,10}-\d+|её|ее|его|их|эту\s+задачу)\s+)?"
            r"(?-i:[А-ЯЁ])[а-яё]+(?:у|ю|е)\b(?!\s+(?:задач|сделк|заметк|напоминал)))"
        ),
        "отдай",
    ),
    # «Запиши сделку: Ромашка — техподдержка, 300 тыс.»: a deal written down is a new one
    (
        LazyRe(r"(?i)\b(?:запиши|занеси|внеси)(?=\s+(?:новую\s+)?(?:сделку|компанию|контакт)\s*[:—–])"),
        "создай",
    ),
    # "put Oleg on it", "put Max on ENG-103"
    (
        LazyRe(r"(?i)\bput(?=\s+(?-i:[A-Z])[a-z]+\s+on\s+(?:it|this|that|this\s+one|[A-Za-z]{2,5}-\d+)\b)"),
        "assign",
    ),
    # "…is actually 35k, not 30k - please fix the amount", «поправь сумму»: a field set right
    (
        LazyRe(
            r"(?i)\b(?:fix|correct|поправь|исправь)(?=\s+(?:the\s+|its\s+|her\s+|his\s+)?(?:amount|value|stage|owner|"
            r"сумм\w*|стади\w*|владельц\w*))"
        ),
        "update",
    ),
    # "add to ENG-105: QA found …", «допиши в ENG-105: …»: words added to an issue are a comment on it
    (LazyRe(r"(?i)\b(?:add|добавь|допиши)(?=\s+(?:to|в|к)\s+[A-Za-z]{2,5}-\d+\s*:)"), "comment"),
    # "raise it to urgent", "raise CS-14 to high": a priority raised, no issue filed
    (
        LazyRe(
            r"(?i)\braise(?=\s+(?:it|this|that|[a-z]+-\d+)?\s*(?:up\s+)?to\s+(?:urgent|high|medium|low|p[0-4])\b)"
        ),
        "bump",
    ),
)
_OLD_AMOUNT_ARROW = LazyRe(
    r"(?i)\b(сумм\w*|amount|value|бюджет\w*|budget)\s+[$€₽]?\s*\d[\d.,\s]*(?:[kкmм]\b|тыс\w*|млн\.?|million|mln)?\s*"
    r"(?:usd|rub|eur|руб\w*|\$|€|₽)?\s*(?:→|->|=>)\s*(?=[$€₽]?\s*\d)"
)
_NOT_SO_URGENT = LazyRe(
    r"(?i)\s*(?:(?:уже\s+)?не\s+(?:такой|такая|такое|так|настолько|очень|особо|сильно)\s+(?:уж\s+)?(?:и\s+)?"
    r"(?:срочн\w*|важн\w*|критичн\w*)|(?:is\s*n['’]?t|is\s+not|not)\s+(?:that|so|very|really|all\s+that)\s+"
    r"(?:urgent|important|critical|pressing)(?:\s+any\s*more)?)(?=\s*[,.;—–-])"
)
# «в полтретьего» is half past two: the half hour before the hour it names
_HOUR_BEFORE = {
    "первого": 12, "второго": 1, "третьего": 2, "четвертого": 3, "пятого": 4, "шестого": 5, "седьмого": 6,
    "восьмого": 7, "девятого": 8, "десятого": 9, "одиннадцатого": 10, "двенадцатого": 11,
}  # fmt: skip
_HALF_PAST = LazyRe(
    r"(?i)(?<![\w-])пол[-\s]?(первого|второго|третьего|четв[её]ртого|пятого|шестого|седьмого|восьмого|девятого|"
    r"десятого|одиннадцатого|двенадцатого)(?![\w-])"
)
# "create issues for each of these um, empty state, error page, settings": a list said without its colon
_THESE_THEN_LIST = LazyRe(
    r"(?i)(?P<these>\b(?:for\s+)?(?:each\s+of\s+)?(?:these|the\s+following)|для\s+(?:каждого\s+из\s+)?(?:этих|следующих)|"
    r"(?:по\s+одной\s+)?на\s+каждое\s+из\s+этих)(?:\s*[,—–-]\s*|\s+(?:um+|uh+|er+|э+|эм+|ну)\s*[,—–-]?\s*)"
    r"(?!(?:issues?|tasks?|tickets?|bugs?|deals?|ones?|задач\w*|тикет\w*|сделк\w*)\b)"
    r"(?=[^\W\d_][^,:;\n]{0,40},[^,:;\n]{1,40},)"
)
_NOTHING_ELSE = LazyRe(
    r"(?i)\s*[,;—–-]\s*(?:(?:and|и|но|but)\s+)?(?:nothing\s+else|don'?t\s+(?:do|change|touch)\s+anything\s+else|"
    r"больше\s+ничего(?:\s+не\s+(?:делай|трогай|меняй))?|ничего\s+больше(?:\s+не\s+(?:делай|трогай|меняй))?)"
    r"(?=\s*[.!]?\s*(?:$|\n))",
    re.M,
)
_FIELD_AFTER_QUOTED = LazyRe(
    r"(?i)(?P<quote>\b(?:коммент\w*|comment)\s*:?\s*(?:'[^'\n]{2,}'|«[^«»\n]{2,}»|\"[^\"\n]{2,}\"|“[^“”\n]{2,}”))"
    r"\s*(?:,\s*|\s+)(?P<join>и|and)?\s*(?P<field>приоритет|priority|срок|due(?:\s+date)?|исполнител\w*|assignee)\s+"
    r"(?=[^\W\d_]|\d)"
)
# "…, me as owner", «я владелец»: the person speaking owns it
_ME_AS_OWNER = LazyRe(
    r"(?i)\b(?:me|myself)\s+as\s+(?:the\s+)?(?P<en>owner|assignee)\b"
    r"|\b(?:i['’]?m|i\s+am|i['’]ll\s+be|i\s+will\s+be)\s+(?:the\s+)?(?P<en2>owner|assignee)\b"
    r"|(?<![\w-])я\s+(?:буду\s+)?(?:владел\w*|ответственн\w*)(?![\w-])"
)
_CONTENT_AFTER_COLON = LazyRe(
    r"(?i)\b(?:comment\w*|коммент\w*|note|notes|заметк\w*|description|описани\w*)\b[^:\n]{0,30}:(\s*[^\n]+)"
)


_A_THING_TO_MAKE = LazyRe(r"(?i)\b(?:issue|ticket|task|bug|задач\w*|тикет\w*|баг\w*|таск\w*)\b")


def _sub_outside_quotes(rx: LazyRe, repl: str | Callable[[re.Match[str]], str], text: str) -> str:
    """`rx.sub(repl, text)` with a template or a function, leaving what is inside quotes as it was said
    («…: «если не ответим, закрывайте как проигранную»» is her words, not a deal to move)."""
    kept = [q.span() for q in IN_QUOTES.finditer(text)]

    def replaced(m: re.Match[str]) -> str:
        if any(a <= m.start() < b for a, b in kept):
            return m.group(0)
        return m.expand(repl) if isinstance(repl, str) else repl(m)

    return rx.sub(replaced, text)


# "Tell me whether Globex pilot has been moved to Won", "check if ENG-101 is done": a yes-or-no question
# wrapped in a request to tell; asked the way it would be asked ("Has Globex pilot been moved to Won?")
_TELL_ME_WHETHER = LazyRe(
    r"(?i)^\s*(?:(?:so|and|hey|ok|okay)[,\s]+)?(?:(?:can|could|would)\s+you\s+(?:please\s+)?|please\s+)?"
    r"(?:(?:tell|let)\s+me(?:\s+know)?|check|find\s+out|see)\s*,?\s+(?:whether|if)\s+"
    r"(?P<subject>[^?,.;]+?)\s+(?P<aux>has|have|is|are|was|were|did|does|do)\s+(?P<rest>[^?.;!]+)(?:[?.!]+|$)"
)


# «Так, записывай по Initech. Первое: …», "ok, take this down: …": the dictation starts; what follows is asked
_TAKE_THIS_DOWN = LazyRe(
    r"(?i)^\s*(?:(?:так|ну|итак|значит|ok|okay|so|right)[,\s]+)*(?:записывай|записывайте|пиши|пишите|фиксируй|"
    r"take\s+(?:this|these)\s+down|write\s+(?:this|these)\s+down|note\s+(?:this|these)\s+down)"
    r"(?:\s+(?P<about>(?:по|про|about|for|re)\s+[^.:;!?\n]{2,40}?))?\s*[.:;,!]\s*(?:(?:э+-?э*|эм|ну|uh|um)[,\s]+)*(?=\S)"
)


# "2) Initech renewal owner to Oleg": the record, its owner field and whom — a hand-over said as shorthand
# "globex pilot note - legal ok, waiting on procurement": the record, "note", a dash, then the note's words
_RECORD_NOTE_DASH = LazyRe(
    r"(?i)^\s*(?:(?:pls|plz|please|пожалуйста|плз)\s*[:,]?\s+)?(?P<rec>(?!(?:a|an|the|my|new|add|log|write|make|create|leave|добавь|запиши|оставь|сделай|нов\w*)\b)"
    r"[\w&.'-]+(?:\s+[\w&.'-]+){0,3}?)\s+(?:note|заметка)\s+[—–-]\s+(?P<body>[^?]{3,})$"
)
# «К 15 декабря подготовить для Initech расчёт — задача мне»: whose task, said after what it is
_WHOSE_TASK_LAST = LazyRe(
    r"(?i)^\s*(?P<what>(?:[^—–.;!?:]|\.(?!\s+(?-i:[A-ZА-ЯЁ]))){8,200}?)\s+[—–-]\s+(?P<whose>(?:задач[аиу]|таск[аи]?)\s+(?:мне|себе|[а-яё]+[уе])|"
    r"(?:a\s+)?(?:task|todo)\s+for\s+(?:me|myself|[a-z]+))\s*[.!]?\s*$"
)
# «Альфа-Лизинг расширение передаём Максу», «ENG-103 закрываем»: a decision said as "we do", asked as "do" — only
# a hand-over to someone named, or an issue closed («Год закрываем: …», «Запускаем программу …» tell)
_WE_DO_RX = LazyRe(
    r"(?<![\w-])(?<!мы\s)(?:переда[её]м\s+(?=[А-ЯЁ][а-яё]+(?:у|ю|е)\b)|(?P<id>\b[A-Z]{1,10}-\d+\s+)закрываем\b)"
)
# "Jot down on the Globex company: …": a note
_JOT_DOWN = LazyRe(r"(?i)\bjot\s+(?:(?:this|that|it)\s+)?down\b(?=\s+(?:on|for|to|in|under)\b)")
# "…except Globex pilot, that one's still haggling": why that one is left out, said after it
_WHY_LEFT_OUT = LazyRe(
    r"(?i)(\b(?:except(?:\s+for)?|but\s+not|кроме)\s+[^,.;]{2,40}),\s+(?:that\s+one(?:'s|\s+is)|it(?:'s|\s+is)|"
    r"they(?:'re|\s+are)|она|он|они|там)\s+(?:still|ещё|еще|пока)\s+[^,.;!?]+"
)
# "move every open deal to Negotiation. skip the ones already there, and skip Romashka": already there is
# skipped anyway; the one named is left out
_SKIP_THOSE_THERE = LazyRe(
    r"(?i)[.,;]?\s*(?:and\s+)?(?:skip|ignore|leave\s+out)\s+(?:the\s+ones|those|any)\s+(?:that\s+are\s+|already\s+)+"
    r"(?:there|in\s+it|in\s+\w+)\b"
    # «…, кроме тех, что уже у него», "except the ones already his": those the change would leave as they are
    r"|[.,;]?\s*(?:кроме|except|but\s+not)\s+(?:тех|the\s+ones|those)(?:,?\s*(?:что|которые|that\s+are|that|which\s+are))?\s+"
    r"(?:уже|already)\s+(?:у\s+(?:него|неё|нее|них|меня)|на\s+(?:нём|нем|ней|них|мне)|(?:his|hers|theirs|mine)|"
    r"(?:assigned\s+to|with|on)\s+(?:him|her|them|me))\b"
)
_SKIP_NAMED = LazyRe(
    r"(?i)(?:[.,;]\s*|\s)(?:and\s+|but\s+)?(?:skip|пропусти|пропуская)\s+(?!(?:the\s+ones|those|it|them|this|that)\b)"
    r"(?=[^\W\d_])"
)
# «зад в CRM Олегу — согласовать SSO …», «задачу в CRM Олегу: …»: whose task, said after where it goes
_TASK_WHERE_THEN_WHOSE = LazyRe(
    r"(?i)^\s*(?P<task>задач[уа]|таск[уа]?|зад)\s+(?P<where>в\s+(?:crm|срм|attio|аттио|linear|линеар\w*))\s+"
    r"(?P<whom>(?-i:[А-ЯЁ])[а-яё]+(?:у|ю|е))\s*[:—–-]\s*(?=\S)"
)
# "Is DES-7 done? if it is, archive it", «ENG-103 закрыта? Если да, заархивируй»: the question is the condition
_ASKED_THEN_IF_SO = LazyRe(
    r"(?i)^\s*(?:(?P<aux>is|are|was|has)\s+)?(?P<id>[A-Za-z]{1,10}-\d+)\s+(?P<pred>[^?]{2,40}?)\s*\?\s*"
    r"(?:if\s+(?:it\s+is|it\s+has|it\s+was|so|yes)|если\s+(?:да|так)|if\s+yes)\s*[,:]?\s*(?:then\s+|то\s+)?(?P<ask>\S.*)$"
)
# "Take CS-15 myself", «на CS-15 поставь меня», «сними с меня, пусть Макс делает», «а Альфа-Лизинг я на себя беру»:
# whose it is, said every way a person hands work over
_TAKE_IT_MYSELF = LazyRe(r"(?i)\b(?:take|grab)\s+([A-Za-z]{1,10}-\d+)\s+(?:myself|over)\b")
_PUT_ME = LazyRe(r"(?i)\bпоставь(?:те)?\s+меня\b(?!\s+(?:владельц\w*|ответственн\w*|в\s+копи\w*))")
_OFF_ME_ONTO = LazyRe(
    r"(?i)\bсними(?:те)?\s+(?:её|ее|его)?\s*с\s+меня\s*,?\s+пусть\s+(?P<who>(?-i:[А-ЯЁ])[а-яё]+)\s+"
    r"(?:делает|занимается|возьм[её]т|вед[её]т|берёт|берет)\b"
)
_I_TAKE_IT = LazyRe(
    r"(?i)(?P<rec>(?-i:[A-ZА-ЯЁ])[\w-]+(?:\s+[\w-]+)?)\s+я\s+(?:на\s+себя\s+беру|беру\s+на\s+себя|забираю\s+себе|заберу\s+себе)\b"
)
_WRITE_DOWN_HEADING = LazyRe(
    r"(?i)^\s*(?:(?:так|ну|короче|значит)[,\s]+)*(?:запиши|записывай|пиши|take\s+this\s+down)\s*:\s*"
)
_REQUESTS_FOLLOW = LazyRe(
    r"(?i)\b(?:созвон\w*|встреч\w*|звонок|call|meeting)\b.*\b(?:заметк\w*|задач\w*|note|task)\b"
    r"|\b(?:заметк\w*|задач\w*|note|task)\b.*\b(?:созвон\w*|встреч\w*|call|meeting)\b"
)
_OWNER_TO = LazyRe(
    r"(?:^|(?<=[,;:.)]\s)|(?<=\d\)\s))(?P<rec>(?-i:[A-Z])[\w'-]*(?:\s+[\w'-]+){0,3}?)\s+(?i:owner)\s+(?i:to|→|->)\s+"
    r"(?=(?-i:[A-Z])[a-z]+\b|(?i:me)\b)"
    # "the acme corp license deal owner to oleg" (typed in lower case, said as a whole message)
    r"|^\s*(?P<low>(?i:the\s+)?(?!(?i:set|change|make|update|move|assign|put|give|switch|transfer|who|what)\b)"
    r"[a-z][\w'-]*(?:\s+[\w'-]+){0,5}?\s+(?i:deal|issue|ticket)|[A-Za-z]{1,10}-\d+)"
    r"\s+(?:(?i:um|uh|er)\s+)?(?i:owner|assignee)\s+(?i:to|→|->)\s+(?=[A-Za-z]+\s*[.!]?\s*$)"
)
# «задачу команде DES», «поставь команде маркетинга задачу»: the team a task is for (a team nobody has is then
# asked about), never words of the title; «скажи команде, что …» / «команде о релизе» are not a team's name
_TO_A_TEAM = LazyRe(
    r"(?i)(?<![\w-])(?<!в\s)команде\s+(?=(?-i:[A-Z]{2,5})\b|"
    r"(?!(?:что|чтобы|о|об|про|по|и|за|в|во|на|с|со|нужно|надо|срочно|тоже|задач\w*)\b)[а-яё]+(?:а|я|ов|ев|ии|ы|и)\b)"
)
_SO_THEN_ASK = LazyRe(r"(?i),\s+(?:так\s+что|поэтому)\s+(?=(?P<verb>[а-яё]+)\b)")
_DASH_FIRST = LazyRe(r"(?i)\s+[—–-]\s+(?:first(?:ly)?|во-первых|первое)\s*[,:]\s+(?=\S)")


_POSITIONAL = LazyRe(
    r"(?i)\b(?:the\s+)?(?P<en>first|second|third|last)\s+one\b"
    r"|(?<![\w-])(?P<ru>перв(?:ой|ую|ая|ому)|втор(?:ой|ую|ая|ому)|трет(?:ьей|ью|ья|ьему)|последн(?:ей|юю|яя|ему))(?![\w-])"
    r"(?!\s+(?:недел\w*|час\w*|половин\w*|квартал\w*|задач\w*|стади\w*|этап\w*|сделк\w*))"
)


def positions_named(text: str) -> str:
    """ "ENG-102 and CS-15. the second one → assign to me" -> "… CS-15 → assign to me": a position among the
    issues the same message listed just before it is that issue."""

    def the_one(m: re.Match[str]) -> str | None:
        listed = list(dict.fromkeys(re.findall(r"\b[A-Z]{1,10}-\d+\b", text[: m.start()])))
        index = position(m.group(0))  # (the planner's one table of "first", «вторую», "last")
        return None if index is None or len(listed) < 2 or index >= len(listed) else str(listed[index])

    m = _POSITIONAL.search(text) if re.search(r"\b[A-Z]{1,10}-\d+\b", text) else None
    first = the_one(m) if m is not None else None
    if m is None or first is None:
        return text
    before = text[: m.start()]
    if re.search(r"[.!?;:]\s*$|\s[—–-]\s*$", before) and not _ASKS_IN_THE_LIST.search(before):
        # ("two follow-ups: ENG-102 and CS-15. the second one → …": the list only says which; the ask is after it)
        return first + text[m.end() :]
    return _POSITIONAL.sub(lambda x: the_one(x) or x.group(0), text)


_ASKS_IN_THE_LIST = LazyRe(
    r"(?i)\b(?:close|move|assign|set|add|create|archive|delete|put|закрой|переведи|назначь|поставь|добавь|создай|"
    r"заведи|удали|архивируй|перенеси)\b"
)


# "Add notes: on Globex pilot 'legal review done', on Initech renewal 'invoice paid'": one note per record
_NOTES_FOR_EACH = LazyRe(
    r"(?i)^\s*(?:please\s+)?(?P<verb>add|leave|log|write|добавь|оставь|запиши)\s+(?:notes|заметки)\s*:\s*(?P<items>.+)$"
)
_NOTE_ITEM = LazyRe(
    r"(?i)^(?:on|to|for|к|по|для|на)\s+(?P<rec>[^'«\"“:]+?)\s*[:—–-]?\s*(?P<q>['«\"“][^'»\"”]+['»\"”])\s*[.!]?$"
)
# «задачи в Attio: мне — отправить счёт до пятницы, Максу — согласовать скидку до 2 декабря»: one task each
_TASKS_FOR_EACH = LazyRe(
    r"(?i)^(?P<head>(?:[^:]*?[,\s])?(?P<noun>задачи|tasks)(?P<where>\s+(?:в|in)\s+(?:attio|crm|linear|аттио|линеар\w*))?)\s*:\s*(?P<items>.+)$"
)
_TASK_ITEM = LazyRe(
    r"(?i)^(?P<whom>мне|себе|(?-i:[А-ЯЁ])[а-яё]+(?:у|ю|е))\s*[—–:-]\s*(?P<what>\S.*?)\s*[.!]?$"
)


def listed_each(text: str) -> str:
    """A list of notes, one per record, or of tasks, one per colleague, said after one colon: each a request."""
    notes = _NOTES_FOR_EACH.match(text)
    if notes:
        items = [
            x
            for x in re.split(r"\s*(?:,|;)\s*(?:and\s+|и\s+)?|\s+and\s+(?=on\s)", notes["items"])
            if x.strip()
        ]
        parts = [_NOTE_ITEM.match(x.strip()) for x in items]
        if len(parts) >= 2 and all(parts):
            russian = bool(re.search("[а-яё]", notes["verb"], re.I))
            return "; ".join(
                f"{'добавь заметку к' if russian else 'add a note on'} {p['rec'].strip()}: {p['q']}"
                for p in parts
                if p
            )
    tasks = _TASKS_FOR_EACH.match(text)
    if tasks:
        items = [x for x in re.split(r"\s*[,;]\s*(?:и\s+|and\s+)?", tasks["items"]) if x.strip()]
        each = [_TASK_ITEM.match(x.strip()) for x in items]
        if len(each) >= 2 and all(each):
            lead = text[: tasks.start("noun")].strip(" ,")
            where = f" {tasks['where'].strip()}" if tasks["where"] else ""
            asks = "; ".join(f"поставь {t['whom']} задачу{where} — {t['what']}" for t in each if t)
            return f"{lead}: {asks}" if lead else asks
    return text


def put_on_as_assigned(text: str) -> str:
    """ "put oleg on CS-15" -> "assign CS-15 to oleg" (after spoken identifiers are read: "cs fifteen")."""
    return (
        _PUT_SOMEONE_ON.sub(lambda m: f"assign {m.group(2)} to {m.group(1)}", text)
        if "put " in text.lower()
        else text
    )


# "Won: Acme Logistics pilot. Kick off onboarding.": the outcome said first, then the deal it is of
_OUTCOME_FIRST = LazyRe(
    r"(?i)^(?P<st>won|lost|выиграна|выиграли|проиграна|проиграли)\s*:\s*(?P<deal>[^.;:!?\n]{3,60}?)\s*(?=[.;!\n]|$)"
)


# "John Smith — email поменялся на …", "Jane's title is now VP Sales": a field's new value told, the change asked
_FIELD_CHANGED = LazyRe(
    r"(?i)\b(?P<field>e-?mail|почта|почту|телефон|phone(?:\s+number)?|должность|job\s+title|title|домен|domain)\s+"
    r"(?:поменялся|поменялась|изменился|изменилась|сменился|сменилась|changed|has\s+changed|is\s+now|теперь)\s+(?:на|to)?\s*"
    r"(?=\S+@|\S+\.\w{2,}|[+\d]|[A-ZА-ЯЁ])"
)
_MOVED_COMPANY = LazyRe(
    r"^\s*(?P<who>[A-ZА-ЯЁ][\w-]+(?:\s+[A-ZА-ЯЁ][\w-]+)?)\s+(?i:(?:has\s+)?(?:moved|switched|gone|went)\s+(?:over\s+)?to|"
    r"is\s+now\s+(?:at|with)|перешл?[аи]?\s+в|перешёл\s+в|теперь\s+в)\s+(?P<co>[A-ZА-ЯЁ][\w&.-]*(?:\s+[A-ZА-ЯЁ][\w&.-]*)?)"
    r"\s*[,.;—–-]+\s*(?i:(?:please\s+|пожалуйста\s+)?(?:update|change|fix|обнови|поменяй|исправь)\s+"
    r"(?:her|his|their|ей|ему|ей\s+в\s+карточке|у\s+не[её]|у\s+него)?\s*(?:company|employer|компанию)"
    r"(?:\s+(?:in|в)\s+(?:the\s+)?(?:crm|attio|црм|карточке))?)\s*[.!]?\s*$"
)
_WHICH_THEN_VERB = LazyRe(
    r"(?is)^\s*(?P<what>(?:(?:every|all|each)\s+[^:\n]{3,80}?|[^:\n]{2,60}?\b(?:issues|deals|tickets|tasks|bugs))):\s*"
    r"(?P<verb>move|close|archive|assign|reassign|give|set|mark|put|push)\s+"
    r"(?:(?P<all>all\s+|them\s+all\s+|all\s+of\s+them\s+|them\s+|each\s+)(?=to\b|as\b|into\b|back\b|[A-Z]))?"
    r"(?P<rest>(?:to|as|into|back)\b[^:\n]{1,60}|[A-Z][^:\n]{1,40})\s*$"
)
_QUOTED_CONTENT_THEN = LazyRe(
    r"(?i)(\b(?:comment|коммент\w*|note|заметк\w*)\b[^'\"«“\n:]{0,40}?(?:'[^'\n]{2,200}'|\"[^\"\n]{2,200}\"|«[^«»\n]{2,200}»|“[^“”\n]{2,200}”))"
    # (a thing named next — "…', CRM task for me …" — is split at its comma as it always was)
    r"\s*,(?=\s+(?!(?:and|и|but|а|но|please|пожалуйста)\b)(?!(?:a\s+|an\s+)?(?:crm\s+|attio\s+|linear\s+)?"
    r"(?:task|note|issue|ticket|meeting|call|задач|заметк|встреч|созвон|тикет))\S)"
)
_WRITE_DOWN_A_MEETING = LazyRe(
    r"(?i)^\s*(?:запиши|запишите|put\s+down|write\s+down|note\s+down)\s*:\s*"
    r"(?=[^\n]{0,80}\b(?:обед\w*|ужин\w*|завтрак\w*|встреч\w*|созвон\w*|lunch|dinner|breakfast|meeting|call)\b)"
    r"(?=[^\n]{0,120}\b\d{1,2}[:.]\d{2}\b)(?![^\n]*\b(?:заметк\w*|note\s+(?:to|on))\b)"
    # (one meeting: a list of the week's items, «…, в пятницу … блок …, и задача …», is read as a list)
    r"(?![^\n]*\b(?:задач\w*|блок\w*|task|block|reminder|напомн\w*)\b)(?![^\n]*,\s*(?:и\s+)?(?:в|во|on)\s+\w+\s+(?:с|в|at|from)\s+\d)"
)
_OPEN_COUNTED = LazyRe(
    r"(?i)^(\s*(?:(?:ok(?:ay)?|so|pls|please)[,\s]+)*)open\s+(?=(?:\d{1,2}|an?|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"a\s+couple\s+of|a\s+few|new)\s+(?:new\s+)?(?:[\w-]+\s+)?(?:issues?|tickets?|bugs?)\b)"
)
# «Поставь на ENG-101 и ENG-105 исполнителем Анну»: whom, said as the role they take
_IDS = r"[A-Za-z]{1,10}-\d+(?:\s*(?:,|\bи\b|\band\b|&)\s*[A-Za-z]{1,10}-\d+)*"
_PUT_AS_ASSIGNEE = LazyRe(
    rf"(?i)\b(?:поставь|поставьте|сделай|назначь)\s+(?:на\s+)?(?P<ids>{_IDS})\s+(?:исполнителем|ответственным)\s+"
    r"(?P<who>меня|[А-ЯЁA-Z][\w-]+)"
)
# «запиши что мария подтвердила встречу заметкой к ней»: what to write down first, where it goes last
_NOTED_WHERE_LAST = LazyRe(
    r"(?is)^\s*(?:запиши|занеси|сохрани|зафиксируй)\s*,?\s+что\s+(?P<what>.{8,}?)\s*,?\s+"
    r"(?:заметкой|в\s+заметку|в\s+заметки|как\s+заметку)\s+(?P<where>(?:к|в|для|у)\s+[^.!?:]{2,60}?)\s*[.!]?\s*$"
)
# "create issues in DES for …: home, pricing, docs — project Website Redesign": a field said after the list is
# every item's (said before the colon, it is read as such)
_FIELD_AFTER_LIST = LazyRe(
    r"(?is)^(?P<head>[^:\n]{3,200}?\b(?:issues|tickets|tasks|задач\w*|тикет\w*)\b[^:\n]*):(?P<items>[^:\n]+?,[^:\n]+?)"
    r"\s*[—–]\s*(?P<field>(?:in\s+|в\s+)?(?:the\s+)?(?:project|проект\w*|label|метк\w*)\s+[^,;:—–\n]{2,40}?)\s*[.!]?\s*$"
)


_NEW_DEAL_DASH_NAME = LazyRe(
    r"(?i)(?P<verb>\bnew\s+deal|\bновая\s+сделка|\b(?:создай|заведи|открой)\s+(?:новую\s+)?сделку|\bновую\s+сделку|"
    r"\b(?:create|open|add)\s+(?:a\s+)?(?:new\s+)?deal)\s+(?:for\s+|для\s+)?"
    r"(?P<co>(?-i:[A-ZА-ЯЁ])[\w&.-]*(?:\s+(?-i:[A-ZА-ЯЁ])[\w&.-]*)?)\s+[-–—]\s+"
    r"(?!(?:stage|owner|amount|value|сумма|стадия|владелец|ответственный)\b)"
    r"(?P<what>[^\W\d_](?:[^,.;:\d]|\.(?=\s+[a-zа-яё])){2,50}?)(?=\s*(?:[,;]|\.(?!\s+[a-zа-яё])|$))"
)
_ISSUE_GOES_TO = LazyRe(
    r"(?i)(?<![\w-])(?P<id>[A-Za-z]{2,5}-\d+)\s+(?:goes|go|should\s+go|can\s+go|will\s+go|moves)\s+(?:back\s+)?(?:to|into)\s+"
    r"(?=(?:the\s+)?(?:todo|to\s+do|in\s+progress|in\s+review|review|backlog|triage|done|canceled|cancelled)\b)"
)
_MOVED_WITH_WHOM = LazyRe(
    r"(?<![\w-])(?P<id>[A-Za-z]{2,5}-\d+)\s*(?P<arrow>->|→|=>)\s*(?P<where>[^,;()\n]{2,30}?)\s*"
    r"\((?P<who>(?-i:[A-ZА-ЯЁ])[a-zа-яё]+|me|я|мне)\)"
)
_TOLD_THEN_ALL = LazyRe(
    r"(?is)^\s*(?P<told>(?:we|they|i|he|she|(?-i:[A-Z])[\w-]+|мы|они|я|он|она|(?-i:[А-ЯЁ])[а-яё]+)\s"
    r"[^.!?—–:]*?)\s+[—–-]\s+"
    r"(?P<ask>(?:please\s+|пожалуйста\s+)?(?:close|mark|move|set|assign|reassign|archive|put|закрой|закройте|переведи|"
    r"назначь|поставь|перекинь|архивируй)\b(?=[^.!?]*\b(?:all|every|everything|все|всё|всех|всем)\b)[^.!?]*[.!]?)\s*$"
)
_ALL_THEN_DASH_WHY = LazyRe(
    r"(?i)^(?P<ask>[^—–]*\b(?:all|every|everything|все|всё|всех|всем)\b[^—–]*?)\s+[—–]\s+"
    # (not where they go: «все low priority задачи в ENG — в Canceled»)
    r"(?!(?:в|во|на|to|into|in|as|как)\s)(?P<why>(?:[^\W\d_][\w'-]*\s+){0,2}(?:is|are|'re|'s|стартовал\w*|начал\w*|вышел|вышла|вышли|закончил\w*|"
    r"[a-z]+ed|[а-яё]+(?:ли|ла))\b[^—–]*)$"
)
_ASKED_AND_ANSWERED = LazyRe(
    r"(?i)[.,]?\s+(?:кому|на\s+кого|кто\s+(?:возьм\w+|сделает)|who(?:'s|\s+(?:should|will|can))?(?:\s+(?:take|do|own)\s+it)?|"
    r"to\s+whom|assign\s+to\s+whom)\s*\?+\s*(?:(?:ну|хм+|эм+|well|hmm+|um+|давай|let'?s\s+say|I\s+guess)[,\s]+)*"
    r"(?:пусть\s+(?:будет\s+)?|на\s+)?(?P<who>(?-i:[A-ZА-ЯЁ])[a-zа-яё]+)(?:\s+(?:I\s+guess|наверное|probably))?(?=\s*(?:[.!,;]|$))"
)
_THING_IN_TEAM_TITLED = LazyRe(
    r"(?i)(?P<lead>^\s*|[.!?]\s+)(?:an?\s+|new\s+)?(?P<kind>bug|issue|ticket)\s+(?:in|for)\s+(?P<team>[A-Za-z]{2,5})\b\s*[,;]?\s*"
    r"(?:title|titled|called)\s*[:—–-]?\s*(?=['\"«“])"
)
_WORDS_TO_COME = LazyRe(
    r"(?i)(?:[,\s]+(?:for|about|про|called|titled|named))?[,\s]*(?:(?:э+|эм+|ну|um+|uh+|hmm+|а|and)[,\s]+)*"
    r"(?:(?:название|текст|содержание|что\s+(?:написать|писать)|the\s+(?:title|name|text))\s+(?:я\s+)?)?"
    r"(?:(?:сейчас|щас)\s+(?:соображу|подумаю|вспомню)|потом\s+(?:надиктую|скажу|допишу|пришлю|напишу)|"
    r"i'?ll\s+tell\s+you\s+(?:what\s+to\s+(?:write|say|put)\s+)?(?:in\s+a\s+(?:sec|second|minute|moment|bit)|later)|"
    r"(?:text|details|wording)\s+(?:to\s+follow|later|coming))\s*[.!]?\s*$"
)
_LOOSE_STUFF = LazyRe(
    r"(?i)\b(?:(?P<all>all|every)\s+(?P<whose>(?:his|her|their|my|(?-i:[A-Z])[\w-]+'s)\s+)?"
    r"|(?P<whose2>(?:his|her|their|(?-i:[A-Z])[\w-]+'s)\s+))"
    # (the kind said — open, urgent — makes them issues; "move Oleg's stuff over to Max" may be deals too: asked)
    r"(?P<which>(?:open|urgent|remaining|current|in-?flight)\s+)(?:stuff|things|work|items)\b"
)
_STATE_THEN_VERB = LazyRe(
    r"(?i)(?:(?<=^)|(?<=[.!?;,]\s)|(?<=\sи\s)|(?<=\sа\s))(?:просто\s+)?(?P<into>в|во)\s+"
    r"(?P<state>ревью|работу|бэклог|review|in\s+review|in\s+progress|todo|backlog)\s+"
    r"(?P<it>(?:её|ее|его|их)\s+)?(?P<verb>переведи|перенеси|перекинь|отправь|двинь|верни|возьми)(?P<it2>\s+(?:её|ее|его|их))?"
    r"(?=\s*(?:[.!,;]|$))"
)
_DEAL_GOES_TO = LazyRe(
    r"(?P<lead>(?:^|[:;,.]\s*|\band\s+))(?!(?i:everything|every|all|each|everyone)\b)"
    r"(?P<what>(?-i:[A-Z])[\w&.-]*(?:\s+[\w&.-]+){0,4}?)\s+(?:goes|should\s+go|can\s+go|moves)\s+"
    r"(?:back\s+)?(?:to|into)\s+(?=(?:Lead|Qualification|Proposal|Negotiation|Won|Lost)\b)"
)
_STATE_THEN_WHY = LazyRe(
    r"\b(?P<state>In Progress|In Review|Backlog|Triage|Canceled|Qualification|Negotiation|Proposal)\s+"
    r"(?!(?i:and|и|а|to|в|во|на|for|with|by|from|для|до|с|со|then|потом|team|команд\w*|state|status|stage|стади\w*|"
    r"статус\w*|issues?|tasks?|deals?|задач\w*|сделк\w*|тикет\w*|is|are|column|колонк\w*|now|please|pls|asap|today|"
    r"tomorrow|too|also|сейчас|пожалуйста|плиз|срочно|сегодня|завтра|тоже)\b)"
    # (someone, then what they did: «олег начал …», "oleg started on it" — not «поставь …», "except …")
    r"(?=[a-zа-яё]{3,}\s+(?:уже\s+|already\s+)?(?:[а-яё]+(?:ал|ил|ял|ел|ла|ли)|[a-z]+ed|is|are|has|have|will|says|said)\b)"
)
_TAKES_THE_ISSUE = LazyRe(
    r"(?<![\w-])(?:(?P<id>[A-Za-z]{2,5}-\d+)\s+(?i:забирает|берёт|берет|возьмёт|возьмет)\s+(?P<who>[А-ЯЁA-Z][а-яёa-z]+)"
    r"|(?P<who2>[А-ЯЁA-Z][а-яёa-z]+)\s+(?i:забирает|берёт|берет|возьмёт|возьмет)\s+(?P<id2>[A-Za-z]{2,5}-\d+))(?![\w-])"
)
_ISSUE_THEN_DASH = LazyRe(
    r"(?i)(?<![\w-])(?P<id>[A-Za-z]{2,5}-\d+(?:\s*(?:,|и|and|&)\s*[A-Za-z]{2,5}-\d+)*)\s+[—–-]\s+"
    r"(?=(?:(?:оба|обе|both)\s+(?:на|to|в|во|into|→)|на|к|до|by|on|в|во|to|into)\s+\w)"
)
_UNDER_WAY = LazyRe(
    r"(?i)^\s*(?:(?:ну|так|итак)[,\s]+)?вс[её]\s+поехали[,.!:\s]+"
    r"(?:(?:и\s+)?последн(?:ее|яя|ий)(?:\s+на\s+сегодня)?[,.!:\s]+)?(?=\S)"
    r"|^\s*(?:(?:поехали|погнали|here\s+goes|let'?s\s+go|ok(?:ay)?|so)[,.!:\s]+)?"
    r"(?:(?:и\s+)?последн(?:ее|яя|ий)\s+на\s+сегодня|(?:the\s+)?last\s+one\s+for\s+today)[,.!:\s]+(?=\S)"
)


_NAME_DOES_IT = LazyRe(
    r"(?-i:,\s*(?:(?P<en>[A-Z][a-z]{2,})\s+(?:(?:(?:will|should|can|to|must|is\s+to)\s+)?(?:do|does|handle|handles)|takes?)"
    r"\s+(?:it|this|that)\b|(?:пусть\s+)?(?P<ru>[А-ЯЁ][а-яё]{2,})\s+(?:сделает|займётся|займется|возьмёт|возьмет)(?:\s+(?:это|её|ее))?\b))"
)
_THING_THEN_MADE = LazyRe(
    r"(?i)^\s*(?P<thing>(?:сделк[аиу]|deal|компани[яю]|company|контакт|contact)\s+[^:,;.]{2,40}?)\s*:\s*"
    r"(?P<verb>заведи|создай|добавь|create|open|add|make)\s+(?:её|ее|его|it)\b"
)
_FIELD_AND_FIELD = LazyRe(
    r"(?i)(?P<first>\b(?:stage|стади[яю]|owner|владелец|amount|сумма|priority|приоритет|assignee|исполнитель)\s*[:—-]?\s+"
    r"[^\s,;:]+)\s+(?:and|и)\s+(?=(?:stage|стади[яю]|owner|владелец|amount|сумма|priority|приоритет|assignee|исполнитель)\b)"
)
_SO_THEN_ASKED = LazyRe(
    r"(?i)(?P<news>[^\W\d_])[,\s]+(?:так\s+что|поэтому|so)\s+(?=(?:просто|just|тогда|then)\s+"
    r"(?:заметку|задачу|встречу|созвон|напоминалку|(?:a|an)\s+(?:note|task|reminder|meeting|call))\b)"
)
_AND_LET_HIM = LazyRe(
    r"(?P<joint>(?:,\s*|\s)(?:и|а)\s+)пусть\s+(?P<who>[А-ЯЁ][а-яё]{2,})\s+(?P<verb>[а-яё]{4,})\b"
)
_WHOM_SYSTEM_THING = LazyRe(
    r"(?i)(?<![\w-])(?P<who>[а-яё]{3,}(?:у|ю|е))\s+(?P<sys>в\s+(?:линеар\w*|linear))\s+(?P<what>задач[уа]|тикет|таск[уа]?)\b"
    r"(?=\s+[а-яё]+ть\b)"
)
_OR_NOT_UNMARKED = LazyRe(r"(?i)(\s(?:или\s+(?:ещё\s+|еще\s+|пока\s+)?нет|or\s+not(?:\s+yet)?))\s*[.!…]*\s*$")
_A_DEAL_OF_A_SUM_WITH = LazyRe(
    r"(?i)(?:^|(?<=[.;!]\s)|(?<=\bи\s)|(?<=\bа\s)|(?<=\bещё\s)|(?<=\bеще\s))(?:сд|сделка)\s+на\s+"
    r"(?![^.;!?]*\b(?:перенеси|переведи|перекинь|двинь|подвинь|передай|закрой|обнови|поменяй|измени|удали|мувни)\b)"
    r"(?=[$€]?\s*\d[\d\s.,]*\s*(?:к|k|тыс\w*|млн|миллион\w*|kk|m)?\s*(?:\$|€|₽|usd|eur|rub|руб\w*|долл\w*|евро)?\s+с\s+\S)"
)
_MEETING_BY_ITS_APP = LazyRe(
    r"(?i)\b(?:(?P<en>(?:google\s+meet|gmeet|zoom|teams|webex)(?:\s+(?:call|meeting))?\s+(?=with\b))"
    r"|(?:зум|гугл\s*мит|тимс)(?:\s+(?:созвон|встреч\w*))?\s+(?=с\s))"
)
_THING_THEN_DASH = LazyRe(
    r"(?i)\b(?P<id>[A-Za-z]{1,10}-\d+)\s*[:—–-]?\s*(?:(?:add|leave|post)\s+(?:a\s+)?)?(?P<verb>comment|коммент\w*|комментарий)"
    r"\s*[—–]\s*(?=\S)"
)
_A_FIELD_NEEDED = LazyRe(
    r"(?i)^\s*(?:(?P<en>(?:i\s+)?(?:need|want)\s+(?:to\s+know\s+)?)(?=(?:the\s+)?(?:e-?mail|phone|domain|owner|amount|"
    r"stage|contact)\b|[A-Z][\w-]+(?:\s+[A-Z][\w-]+)?'s\s+(?:e-?mail|phone|domain|owner|amount|stage)\b)"
    r"|(?:мне\s+)?(?:нуж(?:ен|на|но)|подскажи)\s+(?=(?:e-?mail|имейл|почт[ау]|телефон|домен|владел\w+|сумм[ау]|стади[юя])\b))"
)


def unhurried(text: str) -> str:
    """`text` with mistyped command words spelt right and a polite request made a plain one."""
    said_as_typed = text
    # "ENG-105 на завтра ⏰", "Globex → Won 🎉": pictures say nothing a change needs
    text = (
        _PICTURES.sub(
            lambda m: ";" if re.match(r"\s*[^\W\d_]", text[m.end() :]) and m.start() else "", text
        ).strip()
        or text
    )  # ("… -> won 🎉 also kick off …": the picture ends what was said before it)
    text = re.sub(r"\s+;", ";", text)
    # «ну всё альфа лизинг слились …»: "that's it", said first — no "all" of anything
    text = re.sub(
        r"(?i)^\s*(?:ну\s+вс[её]|вс[её]\s*[,!])\s*(?=[^\W\d_])"
        r"(?!что\b|это\b|в\b|во\b|из\b|по\b|на\b|с\b|мо[ие]\w*|наш\w*|задач|сделк|тикет|баг|issue|открыт|закрыт|сразу|равно)",
        "",
        text,
    )
    # «всё поехали последнее на сегодня заведи …», "ok here goes, last one for today: …": the pace, not the request
    text = _UNDER_WAY.sub("", text) or text
    # "…: new icons for onboarding screens, Max do it, till 4 Dec", «…, пусть Макс сделает»: who does it, said of him
    # «Сделка Umbrella: заведи её, 2 миллиона …», "Deal for Hooli: create it, 20k …": the thing named, then made
    text = _THING_THEN_MADE.sub(lambda m: f"{m['verb']} {m['thing']}", text)
    # "Initech renewal: stage Won and owner Anna": two fields said as a list, the second after "and"
    text = _FIELD_AND_FIELD.sub(r"\g<first>, ", text)
    # «…сделка уже в won так что просто заметку к сделке …», "… so just a note on …": the news, then the request
    text = _SO_THEN_ASKED.sub(lambda m: f"{m['news']}. ", text)
    text = _NAME_DOES_IT.sub(
        lambda m: f", assign to {m['en']}" if m["en"] else f", исполнитель {m['ru']}", text
    )
    # «…созвон с Альфой и пусть Олег подготовит к нему расчёт»: a colleague's part, a request of its own
    text = _AND_LET_HIM.sub(
        lambda m: f"{m['joint']}поручи {m['who']} {inf}" if (inf := as_infinitive(m["verb"])) else m[0], text
    )
    # «олегу в линеаре задачу проверить …»: whom, the system, then the thing — the thing next to whom, as it is read
    text = _WHOM_SYSTEM_THING.sub(
        lambda m: f"{'' if m.start() else 'заведи '}{m['who']} {m['what']} {m['sys']}", text
    )
    # «ромашку мы уже в выигранные перевели или ещё нет», "did we close it or not": asked, said without its mark
    text = _OR_NOT_UNMARKED.sub(lambda m: f"{m[1]}?", text)
    # «сд на 60к с acme corp, расширение лицензии»: a deal of a sum with a company, said without a verb, is a new one
    text = _A_DEAL_OF_A_SUM_WITH.sub("новая сделка на ", text)
    # "google meet with John Smith next tuesday 11am 1h", «зум с Ли Вэем завтра в 11»: a meeting, by where it is held
    text = _MEETING_BY_ITS_APP.sub(lambda m: "meeting " if m["en"] else "встреча ", text)
    # "CS-14: comment — Jane confirmed …": the dash after the thing asked for opens its words, as a colon does
    text = _THING_THEN_DASH.sub(
        lambda m: f"comment on {m['id']}: " if m["verb"].isascii() else f"коммент в {m['id']}: ", text
    )
    # "need the email of Jane Doe from Globex", "I need Jane's phone", «нужен email Jane Doe»: a field asked for
    text = _A_FIELD_NEEDED.sub(lambda m: "what is " if m["en"] else "какой ", text)
    # "new deal Globex - support add-on, 8k USD, …": the company, a dash, what the deal is — its name, whole
    text = _NEW_DEAL_DASH_NAME.sub(lambda m: f"{m['verb']} «{m['co']} — {m['what'].strip()}»", text)
    # "ENG-103 goes to Todo", "ENG-102 can go back to backlog": where it moves, said of it
    text = _ISSUE_GOES_TO.sub(lambda m: f"move {m['id']} to ", text)
    # "Acme Logistics pilot goes to Qualification", "…, and Alfa-Leasing expansion goes to Proposal": a deal, the same
    text = _DEAL_GOES_TO.sub(lambda m: f"{m['lead']}move {m['what'].strip()} to ", text)
    # «переведи в ин прогресс», «в ин ревью»: the state's name said in Cyrillic
    text = re.sub(r"(?i)(?<!\w)ин\s+прогресс\w*", "In Progress", text)
    text = re.sub(r"(?i)(?<!\w)ин\s+ревью", "In Review", text)
    # «CS-13 переведи в In Progress олег начал настраивать»: a state's name, then why without a pause — the pause
    text = _STATE_THEN_WHY.sub(lambda m: f"{m['state']}, ", text)
    # "ENG-103 -> In Progress (Max)": whose it is, said in brackets after where it goes
    text = _MOVED_WITH_WHOM.sub(
        lambda m: f"{m['id']} {m['arrow']} {m['where'].strip()}, assign {m['id']} to {m['who']}", text
    )
    # "We shipped the release - close all ENG issues", «спринт стартовал — всё из Todo в работу»: why, then a change
    # of everything — said as the change, then why (the bulk rules read a reason after it)
    told_first = _TOLD_THEN_ALL.match(text)
    if (
        told_first
        and not _STARTS_WITH_IMPERATIVE.match(told_first["told"])
        # ("Max is going on leave — reassign all his issues to Oleg": "his" needs the name said first)
        and not re.search(r"(?i)\b(?:his|her|their|его|её|ее|их|him|them|он|она|они)\b", told_first["ask"])
    ):
        text = f"{told_first['ask'].rstrip(' .!')}, {told_first['told'].strip()}"
    # «…перекинь в In Progress — спринт стартовал», "close all open ENG issues — eng is moving …": why, after a dash
    text = _ALL_THEN_DASH_WHY.sub(lambda m: f"{m['ask']}, {m['why']}", text)
    # «Всё, что в Todo, перекинь в In Progress»: which ones, said between commas — one phrase with its "all"
    text = re.sub(
        r"(?i)^(\s*(?:вс[её]|everything|all))\s*,\s*((?:что|which|that)\s+[^,.;!?]{2,40}?)\s*,\s*(?=\S)",
        r"\1 \2 ",
        text,
    )
    # «…. Кому? Ну пусть Олегу.», "…. Who should take it? Max I guess": a question asked and answered aloud
    text = _ASKED_AND_ANSWERED.sub(
        lambda m: (
            f", исполнитель {m['who']}"
            if re.search(r"[а-яё]", m.group(0), re.I)
            else f", assignee {m['who']}"
        ),
        text,
    )
    # "…. bug in ENG, title 'Android session expires every 5 min', urgent": a new one, said by its fields
    text = _THING_IN_TEAM_TITLED.sub(
        lambda m: f"{m['lead']}create a {m['kind']} in {m['team']} titled ", text
    )
    # «создай задачу эээ сейчас соображу», «заметку к ромашке, текст потом надиктую», "a comment on CS-12, I'll
    # tell you what to write in a sec": its words are still to come — none of these are them (it is asked)
    text = _WORDS_TO_COME.sub("", text).strip() or text
    # "Reassign all his open stuff to Oleg", "close out everything in ENG": the issues, said loosely
    text = _LOOSE_STUFF.sub(
        lambda m: f"{m['all'] or 'all'} {m['whose'] or m['whose2'] or ''}{m['which']}issues", text
    )
    text = re.sub(r"(?i)\bclose\s+out\b", "close", text)
    # «Пометь как сделанные ENG-104 и CS-14», "mark as done ENG-104": closed, said before the ids
    text = re.sub(
        r"(?i)\b(?:пометь|отметь|mark)\s+(?:как\s+|as\s+)?(?:сделанн\w*|выполненн\w*|готов\w*|закрыт\w*|done|completed?)\s+"
        r"(?=[A-Za-z]{2,5}-\d)",
        "закрой " if re.search(r"[а-яё]", text, re.I) else "close ",
        text,
    )
    # "Unassign ENG-102, Max won't get to it": its assignee taken off, said as one word
    text = re.sub(
        r"(?i)\bun-?assign\s+(?=[A-Za-z]{2,5}-\d|(?:all|every|everything|each|both)\b|(?-i:[A-Z])\w+'s\b)"
        # (not "unassign ENG-106 from Oleg and give it to me": a hand-over, read as it is)
        r"(?![^.!?]*\b(?:give|assign|hand|reassign|put|move\s+it\s+to)\b)",
        "remove the assignee from ",
        text,
    )  # ("unassign all of Max's issues": the same, for each)
    # «Просто в ревью переведи», «и в работу её возьми»: where to, then the verb — said verb first
    text = _STATE_THEN_VERB.sub(
        lambda m: f"{m['verb']} {(m['it'] or m['it2'] or '').strip()} {m['into']} {m['state']}".replace(
            "  ", " "
        ),
        text,
    )
    # «ENG-102 забирает Олег», «Олег берёт ENG-102»: who takes it is whom it goes to
    text = _TAKES_THE_ISSUE.sub(lambda m: f"назначь {m['id'] or m['id2']} на {m['who'] or m['who2']}", text)
    # «ENG-106 — на сегодня», «ENG-101 и ENG-106 — оба на Макса», «ENG-106 — в ревью переведи»: what it gets,
    # after a dash
    text = _ISSUE_THEN_DASH.sub(lambda m: f"{m['id']} ", text)
    # "open issues assigned to me", "open issues that nobody is assigned to": a list asked for, said as what it is
    if _ISSUES_SAID_BY_WHOM.fullmatch(text):
        text = f"show {text}"
    # "not 100% sure how this works yet but pls assign ENG-103 to Max", «не уверена, что правильно поняла процесс, но
    # заведи …»: unsure of the tool, not of the request
    text = _UNSURE_OF_THE_TOOL.sub("", text)
    # "Let's do a quick half-hour check-in with Maria on Tuesday at 9:30": a meeting to book
    text = _LETS_MEET.sub("schedule a ", text)
    # "next monday 10am, 1h, QBR prep with Max": when, how long, what — a meeting said without its verb
    text = _WHEN_HOW_LONG_WHAT.sub(lambda m: f"schedule {m['what']} {m['when']} for {m['dur']}", text)
    # «ромашке сумму режем до миллиона», «сумму апни до 1.5 ляма»: the amount changed, said in slang
    text = _SUM_SLANG.sub("поставь сумму ", text)
    # «сделка ромашка сумма миллион триста тысяч рублей»: a deal, then its new amount — no verb
    text = _DEAL_THEN_SUM.sub(lambda m: f"поставь сделке {m['deal']} сумму {m['sum']}", text)
    # "Show me everything that's assigned to me": my issues
    text = re.sub(
        r"(?i)\beverything\s+(?:that'?s|that\s+is|which\s+is)\s+assigned\s+to\s+me\b", "my issues", text
    )
    # «ENG-105 на завтра», "ENG-105 to friday": the day it is due
    text = _ID_TO_A_DAY.sub(
        lambda m: f"{m['id']} {'срок' if re.search('[а-яё]', m['day'], re.I) else 'due'} {m['day']}", text
    )
    # "ENG-103 -> oleg high": whom it goes to, then its priority — two values
    text = _TO_WHOM_THEN_PRIORITY.sub(r"\1, \2", text)
    # «Иван Петров просил перезвонить ему в понедельник, поставь мне напоминалку», "…, set me a reminder": what
    # was told is what to be reminded of
    reminded = _TOLD_THEN_REMIND_ME.match(text)
    if reminded and ":" not in reminded["what"] and not _STARTS_WITH_IMPERATIVE.match(reminded["what"]):
        ask = "напомни мне" if re.search(r"[а-яё]", reminded["ask"], re.I) else "remind me"
        when = (reminded["when"] or "").strip(" :")
        text = f"{ask} {when}: {reminded['what'].strip()}" if when else f"{ask}: {reminded['what'].strip()}"
    # "every unassigned issue goes to Max", "all unassigned -> me", "all high pri in ENG → urgent": all of them, to that
    text = _ALL_OF_THEM_TO.sub(_all_of_them_to, text)
    # «…ставь won и погнали онбординг»: slang for starting the playbook
    text = _LETS_GO_PLAYBOOK.sub("запусти ", text)
    # "…, and tell the team in Linear to prep a sandbox": an issue for them
    text = _TELL_THE_TEAM.sub("create a Linear issue to ", text)
    # «CS-15 в работу, я возьму», "ENG-103 to in progress, I'll take it": the person takes it
    if ISSUE_KEY.search(text):
        text = _I_WILL_TAKE_IT.sub(lambda m: ", назначь на меня" if m.group(1) else ", assign to me", text)
    # "new deal … proposal stage oleg owns it", "…, Max is the owner": who owns the new deal
    if _NEW_DEAL_SAID.search(text):
        text = _OWNS_IT.sub(r"\1owner \2", text)
    # (first: what a comment's colon keeps as said is found by its word)
    text = _SLIPPED.sub(lambda m: _KNOWN_SLIPS[m.group(0).lower()], text)
    text = _FIELD_CHANGED.sub(
        lambda m: (
            m.group(
                0
            )  # (a comment's or a note's words after a colon are theirs: «коммент: домен сменился на …»)
            if ":" in text[: m.start()]
            else ("поменяй " if re.search("[а-яё]", m.group(0), re.I) else "change ")
            + m["field"]
            + (" на " if re.search("[а-яё]", m.group(0), re.I) else " to ")
        ),
        text,
        count=1,
    )
    # «…, минут 45», «часа два»: about that long, the number said after its unit
    text = re.sub(
        r"(?i)(?<![\w-])(минут|часа)\s+(\d{1,3}|два|три|полтора)(?=\s*(?:[,.;!]|$))", r"\2 \1", text
    )
    # «ENG-103: описание — падает на …», "ENG-103 — description: …": the field said after the issue, then its text
    text = re.sub(
        r"(?i)^\s*([A-Za-z]{1,10}-\d+)\s*[:—–-]\s*(описание|description)\s*[:—–-]\s*",
        r"\1 \2: ",
        text,
        count=1,
    )
    moved = _MOVED_COMPANY.match(text)
    if moved:  # "Jane Doe moved to Initech, update her company in CRM": the person's company, to that one
        ru = bool(re.search("[а-яё]", text, re.I))
        text = (
            f"поменяй компанию у {moved['who']} на {moved['co']}"
            if ru
            else f"update {moved['who']}'s company to {moved['co']}"
        )
    if re.search(r"(?i)\b(?:every|all|each)\b", text) and re.search(r"(?i)\b(?:due|deadline)\b", text):
        # "Set a due date of Dec 10 on every CS issue that doesn't have one": the one it lacks is a due date
        text = re.sub(
            r"(?i)\b(?:that|which)\s+(?:doesn'?t|don'?t|does\s+not|do\s+not)\s+(?:have|has)\s+(?:one|any)\b",
            "without a due date",
            text,
        )
    # "Every deal in Lead or Qualification: move to Proposal", "Oleg's Linear issues: move all to In Review":
    # which records first, then what to do with them
    which_first = _WHICH_THEN_VERB.match(text)
    if which_first:
        what = re.sub(r"^(?i:(every|all|each))\b", lambda m: m.group(1).lower(), which_first["what"].strip())
        text = f"{which_first['verb']} {which_first['all'] or ''}{what} {which_first['rest']}"
    # "comment CS-13 'IT sent SAML metadata', deal to Negotiation": the quote ends the comment; what follows its
    # comma is the next request
    text = _QUOTED_CONTENT_THEN.sub(lambda m: f"{m.group(1)};", text)
    # «Создай компанию …, потом заведу сделку», "…, I'll add the deal later": what the person will do, later
    text = re.sub(
        r"(?i)\s*[,;—–-]\s*(?:а\s+|and\s+)?(?:потом|позже)\s+(?:сам[аи]?\s+)?(?:заведу|создам|сделаю|поставлю|напишу|"
        r"добавлю|переведу|закрою)\b[^.;!?\n]*",
        "",
        text,
    )
    # «Запиши: четверг, обед с Джоном Смитом в 13:00 на час»: into the calendar (a meeting at a time, no record's note)
    text = _WRITE_DOWN_A_MEETING.sub(
        lambda m: "поставь встречу: " if re.search("[а-яё]", m.group(0), re.I) else "schedule: ",
        text,
        count=1,
    )
    # sales slang for the stages: «переги» are negotiations, «квала» qualification
    text = re.sub(r"(?i)(?<![\w-])переги(?![\w-])", "переговоры", text)
    text = re.sub(r"(?i)(?<![\w-])квал[ауы](?![\w-])", "квалификация", text)
    # "CS-13 -> urgent, +security": a label put on, said with a plus
    text = re.sub(r"(?i)(?<=[,;]\s)\+([^\W\d_][\w-]*)(?=\s*(?:[,;.]|$))", r"label \1", text)
    # "ENG-103 +security": the same, right after the issue
    text = re.sub(r"(?i)(?<=[A-Za-z]-\d)(\d*)\s+\+([^\W\d_][\w-]*)(?=\s*(?:[,;.]|$))", r"\1 label \2", text)
    # «ENG-103 в работу, исполнитель я», "…, assignee: me": the person takes it (a new deal's "owner me" is read as is)
    text = (
        text
        if not ISSUE_KEY.search(text)
        else re.sub(
            r"(?i),?\s*(?:исполнитель|ответственн\w+|assignee|owner)\s*[:—–-]?\s*(?:я|me|myself)\s*(?=[,;.!]|$)",
            lambda m: ", и на меня" if re.search("[а-яё]", m.group(0), re.I) else ", and to me",
            text,
        )
    )
    # «ENG-103 беру в работу»: in progress, and mine (not when someone else is named for it, nor in a comment's words)
    head, colon, rest = text.partition(":")
    if ISSUE_KEY.search(head) and not re.search(
        r"(?i)исполнител|ответствен|назнач|\bна\s+(?!меня)[а-яё]", head
    ):
        head = re.sub(
            r"(?i)\b(?:беру|берём|берем|возьму)\s+(?:(?:её|ее|его)\s+)?в\s+работу\b(\s*,\s*и\s+на\s+меня)?",
            "в работу, и на меня",
            head,
        )
        text = head + colon + rest
    # «ENG-102 снимаем с Макса и ставим Олега»: taken from one, given to another
    text = _TAKEN_OFF_GIVEN.sub(r"переназначь \g<id> на \g<to>", text)
    # "put me on ENG-103", "put Max on CS-15": that person works on it
    text = re.sub(
        r"(?i)\bput\s+(me|myself|[A-Z][a-z]+)\s+on\s+([A-Za-z]{1,10}-\d+)\b",
        lambda m: f"assign {m.group(2)} to {m.group(1)}",
        text,
    )
    # "unlabel bug from ENG-101", "untag security": a label taken off
    text = re.sub(r"(?i)\b(?:unlabel|untag)\s+(?=[^\W\d_])", "remove label ", text)
    # "DES-7 → oleg for review": to whom, and what for — the person is the change
    text = re.sub(
        r"(?i)((?:->|→)\s*[^\W\d_]{3,})\s+(?:for|на)\s+(?:review|ревью|a\s+look|проверку)\s*(?=[,;.!]|$)",
        r"\1",
        text,
    )
    # «перенеси созвон с Acme (CS-12) на 2 декабря»: the call is that issue, named in brackets
    text = re.sub(
        r"(?i)\b(?:созвон\w*|встреч\w*|звонок|звонка|колл|call|meeting|sync)\b[^()\n]{0,40}?\(\s*([A-Za-z]{1,10}-\d+)\s*\)",
        r"\1",
        text,
    )
    # "Open six issues in Engineering: …", "open a ticket for …": made (the open issues are "open issues", uncounted)
    text = _OPEN_COUNTED.sub("create ", text, count=1)
    # «запиши в линеар задачу …», «запиши баг в ENG …»: a new issue, said as written down
    text = re.sub(
        r"(?i)(?<![\w-])(?:запиши|запишите|закинь)\s+(?=(?:в\s+(?:линеар\w*|linear|линейн\w*)\s+)(?:задач|тикет|баг)|"
        r"(?:баг|тикет)\s+в\s+(?-i:[A-Z]{2,5})\b)",
        "заведи ",
        text,
    )
    # "Close ENG-101 and open a follow-up: add a retry banner …": a new issue after the one closed
    text = re.sub(r"(?i)\bopen\s+a\s+follow-?up(?:\s+(?:issue|ticket))?\s*:", "create an issue:", text)
    text = _PUT_AS_ASSIGNEE.sub(lambda m: f"назначь {m['ids']} на {m['who']}", text)
    text = _NOTED_WHERE_LAST.sub(lambda m: f"добавь заметку {m['where']}: {m['what']}", text, count=1)
    text = _FIELD_AFTER_LIST.sub(lambda m: f"{m['head']}, {m['field']}: {m['items']}", text, count=1)
    text = _OUTCOME_FIRST.sub(
        lambda m: (
            f"переведи {m['deal']} в {m['st']}"
            if re.search("[а-яё]", m.group(0), re.I)
            else f"move {m['deal']} to {m['st']}"
        ),
        text,
        count=1,
    )
    # "after today's call with Maria — first, log a note …; second, …": what it is about, then the list
    text = _DASH_FIRST.sub(": ", text, count=1)
    if "так что" in text.lower() or "поэтому" in text.lower():
        # «продление уже выиграно, да, так что сделай задачи продления»: what is so, then the request
        text = _SO_THEN_ASK.sub(lambda m: ". " if is_imperative(m["verb"].lower()) else m.group(0), text)
    if "?" not in text:
        text = _WE_DO_RX.sub(lambda m: f"{m['id']}закрой" if m["id"] else "передай ", text)
    text = _JOT_DOWN.sub("add a note", text)
    text = listed_each(text)
    text = _TAKE_IT_MYSELF.sub(r"assign \1 to me", text)
    text = _PUT_ME.sub("назначь на меня", text)
    text = _OFF_ME_ONTO.sub(lambda m: f"назначь на {m['who']}", text)
    text = _I_TAKE_IT.sub(lambda m: f"{m['rec']} передай мне", text)
    text = re.sub(
        r"(?i)\b(?:reschedule|postpone)\s+(?=[A-Za-z]{1,10}-\d+\s+(?:to|until|till)\b)", "push ", text
    )  # an issue's day
    text = _WHY_LEFT_OUT.sub(r"\1", text)
    if re.search(r"(?i)\b(?:every|all|each|все\w*|всех|всем)\b", text):
        text = _SKIP_THOSE_THERE.sub("", text)
        text = _SKIP_NAMED.sub(
            lambda m: ", кроме " if re.search("[а-яё]", m.group(0), re.I) else " except ", text
        )
    text = _TASK_WHERE_THEN_WHOSE.sub(lambda m: f"поставь {m['whom']} задачу {m['where']}: ", text, count=1)
    asked_so = _ASKED_THEN_IF_SO.match(text)
    if asked_so and (
        asked_so["aux"] or not asked_so["id"].isascii() or re.search("[а-яё]", asked_so["pred"], re.I)
    ):
        aux = (asked_so["aux"] or "").lower()
        text = (
            f"if {asked_so['id']} {aux} {asked_so['pred']}, {asked_so['ask']}"
            if aux
            else f"если {asked_so['id']} {asked_so['pred']}, {asked_so['ask']}"
        )
    text = _WHOSE_TASK_LAST.sub(lambda m: f"{m['whose']} — {m['what']}", text, count=1)
    if "\n" not in text:  # (a list of lines says its own notes)
        text = _RECORD_NOTE_DASH.sub(lambda m: f"note on {m['rec']}: {m['body']}", text, count=1)
    if " owner " in text.lower() and "?" not in text:
        text = _OWNER_TO.sub(lambda m: f"assign {m['rec'] or m['low']} to ", text)
    if "команд" in text.lower():  # «…задачу команде DES: …»: the team said in the dative is where it goes
        text = _TO_A_TEAM.sub("в команде ", text)
    dictated = _WRITE_DOWN_HEADING.match(text)
    if (
        dictated
        and _REQUESTS_FOLLOW.search(text[dictated.end() :])
        # (one meeting and a note or task; a day's list of events is read as a list, «Запиши: в четверг …, в пятницу …»)
        and len(re.findall(r"(?i)\b(?:созвон\w*|встреч\w*|звонок|блок\w*|call|meeting|block)\b", text)) == 1
    ):
        text = text[
            dictated.end() :
        ]  # «так, запиши: с Джоном в пятницу созвон …, и заметку к нему …»: the requests
    if _TAKE_THIS_DOWN.match(text):
        text = _TAKE_THIS_DOWN.sub(lambda m: f"{m['about']}: " if m["about"] else "", text, count=1)
    if "whether" in text.lower() or " if " in text.lower():
        text = _TELL_ME_WHETHER.sub(
            lambda m: f"{m['aux'].capitalize()} {m['subject']} {m['rest'].rstrip()}?", text, count=1
        )
    # "mark Globex pilot as won 🎉": a feeling, not a word; "…pls 🙌 starting the redesign today": said
    # between two thoughts, it ends the first
    text = _HALF_PAST.sub(
        lambda m: f"{_HOUR_BEFORE[m.group(1).lower().replace('ё', 'е')]}:30", text
    )  # «в полтретьего»
    text = re.sub(r"(?<=[^\W_])\s*(→|->|=>)\s*(?=[^\W_])", r" \1 ", text)  # "Globex→Won": an arrow, spaced
    # "remove the feature label and add bug": the second is a label too, not a bug to file
    text = (
        text
        if "label" not in text.lower() and "метк" not in text.lower()
        else _LABEL_SWAP.sub(
            lambda m: f"{m.group(0)} {'метку' if re.search('[а-яё]', m.group(0), re.I) else 'label'}", text
        )
    )
    # «…и заведи в ENG новую: «…»», "…and open a new one in ENG: '…'": a new issue, its noun left out
    if "новую" in text.lower() or "new one" in text.lower():
        text = _A_NEW_ONE_SAID.sub(lambda m: f"{m.group(0)} {'задачу' if m.group('ru') else 'issue'}", text)
    # «…на полчаса, и до этого заведи задачу …», "…, and before that create …": the next request, in its order
    if "это" in text.lower() or "that" in text.lower():
        text = _BEFORE_OR_AFTER_THAT.sub(r"\g<1>", text)
    # «…: написать тесты, родительская — ENG-103», "…, parent ENG-103": the new issue's parent, said as a field
    if "родит" in text.lower() or "parent" in text.lower():
        text = _PARENT_FIELD.sub(
            lambda m: (
                f", {'и сделай её подзадачей' if m.group(1)[0].lower() == 'р' else 'and make it a sub-issue of'} "
                f"{m.group(2)}"
            ),
            text,
        )
    # "Globex pilot amount to 33k": the field and its new value (not "does the pipeline amount to 2M?")
    if "amount to" in text.lower() or "value to" in text.lower():
        text = _FIELD_TO_VALUE.sub(
            lambda m: (
                m.group(0)
                if _ASKED_IF.search(text[: m.start()].rsplit(".", 1)[-1])
                or _VERB_BEFORE.search(text[: m.start()].rsplit(".", 1)[-1])
                else m.group(1) + " "
            ),
            text,
        )
    # "Find the PDF export issue and assign it to Oleg", «Найди задачу про экспорт и повесь её на Олега»: the
    # thing found is what is changed — said once, where the pronoun stood
    if _FIND_THEN.match(text):
        text = _FIND_THEN.sub(r"\g<verb> \g<what>", text, count=1)
    # "Tag the leaked key issue as bug too": that issue gets the label
    if text[:12].lower().lstrip().startswith(("tag ", "label ")):
        text = _TAG_AS.sub(r"add the \g<label> label to \g<what>", text)
    # «…и убери с меня, назначь на Олега», "take it off me and assign it to Oleg": one hand-over, said in two
    if "с меня" in text.lower() or "off me" in text.lower() or "off of me" in text.lower():
        text = _sub_outside_quotes(_OFF_ME_THEN_TO, "", text)
    # "close the Globex pilot as won", «закрой сделку как выигранную»: the deal moved to that stage
    if _CLOSED_AS_OUTCOME.search(text):
        text = _sub_outside_quotes(_CLOSED_AS_OUTCOME, _moved_to_outcome, text)
    # "Change the X deal name to '…'", «Смени название сделки X на «…»»: a rename, said with its field
    if "name" in text.lower() or "назван" in text.lower():
        text = _NAME_CHANGED_TO.sub(
            lambda m: (
                f"rename {m.group('what')} to "
                if m.group("what")
                else f"переименуй {m.group('ru_kind') or ''} {m.group('ru_what')} в ".replace("  ", " ")
            ),
            text,
        )
    # «сумма выросла до 21 000», "the amount went up to 21k": the new amount (and «…, обнови сделку» after it
    # says the same change again)
    if _AMOUNT_BECAME.search(text):
        text = _UPDATE_IT_AFTER.sub("", _sub_outside_quotes(_AMOUNT_BECAME, r"\1 ", text))
    # "Put Romashka into Negotiation after today's call": when it was decided, not a meeting to make
    if _AFTER_THE_CALL.search(text) and _MOVED_INTO.search(text):
        text = _AFTER_THE_CALL.sub("", text)
    # "New lead: Stark Industries (stark.com), contact …, deal …": a company by its domain first, then the rest
    text = _NEW_ONE_BY_DOMAIN.sub(
        lambda m: "Новая компания " if m.group(0).strip()[0] in "Нн" else "New company ", text
    )
    # "New lead: Stark Industries …", «Новый лид: …»: a new deal, said as sales say it
    if "лид" in text.lower() or "lead" in text.lower() or "opp" in text.lower():
        text = _NEW_LEAD.sub(
            lambda m: "Новая сделка:" if m.group(0).strip()[0] in "Нн" else "New deal:", text
        )
    # "Create a company record for Pied Piper": the company, named
    if "record" in text.lower():
        text = _RECORD_FOR.sub(r"\1 ", text)
    # "… Pied Piper — domain piedpiper.com": a field of the record after a dash, as after a comma
    if "." in text:
        text = _DASH_BEFORE_FIELD.sub(", ", text)
    # «Сделку с Ромашкой в переговоры, а Ивану Петрову заметку: …»: "а" and a record's object, a request of its own
    if ", а " in text:
        text = _AND_ANOTHER_OBJECT.sub("; ", text)
    # "archive CS-15, not CS-14", «закрой CS-15, а не CS-14»: the one said, and which one is not meant
    if "not " in text.lower() or "не " in text.lower():
        text = _ID_NOT_THAT_ONE.sub(r"\1", text)
    # «…и подними до срочного», «понизь приоритет до среднего»: the priority, said as raised or lowered to it
    if "до " in text.lower():
        text = _sub_outside_quotes(
            _RAISED_TO_LEVEL, lambda m: f"поставь {_LEVELS[m.group('level')[:4].lower()]} приоритет", text
        )
    # «перекинь сделку альфа-лизинг на меня»: given to me (no stage called «меня»)
    if "на меня" in text.lower():
        text = _sub_outside_quotes(_THROWN_TO_ME, r"передай \g<what> мне", text)
    # «…к компании заметку добавь, что …»: the verb said after its object, said before it
    if "заметк" in text.lower() or "коммент" in text.lower():
        text = _sub_outside_quotes(_OBJECT_THEN_VERB, r"\g<verb> \g<what>", text)
    # «По Initech: заметку к Ивану Сидорову — …»: the topic, then a note asked for with its verb left out
    if "заметк" in text.lower():
        text = _TOPIC_THEN_NOTE.sub(r"\g<1>добавь \g<2>", text)
    # «… на меня. Всё.», "… by Friday. That's all.": the end of the dictation, said
    if (
        text.rstrip()[-12:].lower().rstrip(".! ").endswith(("всё", "все", "all", "it"))
    ):  # ("CS-12. Done." is a state)
        text = _THATS_ALL.sub("", text)
    # «…, в команде CS, задача — подготовить допсоглашение»: a new task and its words, as a colon says it
    if "задач" in text.lower() or "task" in text.lower():
        text = _sub_outside_quotes(_TASK_DASH, r"\g<1>\g<2>: ", text)
    # "voice note: Initech wants to expand. Create …", «Голосовое: …»: what the message is, not a note to save
    text = _MESSAGE_KIND.sub("", text, count=1) if _MESSAGE_KIND.match(text) else text
    # "…, put it on Max, high priority": given to him
    if "put " in text.lower():
        text = _sub_outside_quotes(_PUT_IT_ON, r"assign \1 to ", text)
    if "все" in text.lower() or "all" in text.lower() or "every" in text.lower():
        text = _sub_outside_quotes(_TO_WHOM_THEN_ALL, r"\g<verb> \g<which> \g<whom>", text)
    if "статус" in text.lower() or "status" in text.lower() or "state" in text.lower():
        text = _sub_outside_quotes(
            _STATUS_SET, lambda m: "переведи в " if re.match("[а-яё]", m["verb"], re.I) else "move to ", text
        )
    if (
        ("title" in text.lower() or "заголов" in text.lower())
        and "\n" not in said_as_typed
        and _A_THING_TO_MAKE.search(text)
    ):  # (a pasted card's "Title:" line is the card reader's)
        text = _TITLE_SAID_LAST.sub(
            lambda m: f"{m['sep'].rstrip()} titled '{m['title'].strip()}'", text, count=1
        )
    if " as " in text.lower():
        text = _sub_outside_quotes(_AS_ASSIGNEE, r"assign \g<what> to \g<who>", text)
    # «Поставь Максу задачу созвониться …»: the task, then whose it is (as «поставь задачу Максу …» says it)
    if "задач" in text.lower() or "таск" in text.lower() or "task" in text.lower():
        text = _sub_outside_quotes(_WHOSE_TASK_FIRST, r"поставь задачу \g<whom>", text)
    if "задач" in text.lower() or "таск" in text.lower() or "task" in text.lower():
        text = _sub_outside_quotes(_WHOSE_WHERE_TASK, r"\g<whom> задачу \g<where>", text)
    if "линеар" in text.lower() or "linear" in text.lower():  # «Олегу в линеар: проверить …»: a task for him
        text = _sub_outside_quotes(_WHOSE_WHERE_TODO, r"\g<whom> задачу \g<where>: ", text)
    # "New bug …, title "…". Put the stack trace in the description: «…»": the new issue's description
    text = _INTO_THE_DESCRIPTION.sub(", description: ", text)
    for (
        said_so,
        plain,
    ) in _VERB_SAID_OTHERWISE:  # «сделай Анну исполнителем», "put Oleg on it", "raise it to urgent"
        if plain == "update" and _A_THING_TO_MAKE.search(text):
            continue  # "an issue to fix the owner field": a new thing's words, not a field set right
        text = _sub_outside_quotes(said_so, plain, text)
    if "→" in text or "->" in text or "=>" in text:
        text = _OLD_AMOUNT_ARROW.sub(
            r"\1 ", text
        )  # «сумма 1.2M → 1.35M руб»: what it was, then what it is to be
    if re.search(r"(?i)\b(?:не|not|isn'?t)\s", text):
        text = _NOT_SO_URGENT.sub(
            "", text
        )  # «ENG-103 не такой уж срочный, поставь средний»: why, not a priority
    text = _NOTHING_ELSE.sub(
        "", text
    )  # "…as a note on the Globex deal, nothing else.": what not to do besides
    if re.search(r"(?i)these|following|этих|следующих", text):
        text = _THESE_THEN_LIST.sub(
            r"\g<these>: ", text
        )  # "…for each of these um, empty state, error page, …"
    text = _EMOJI_BETWEEN.sub("; ", text)
    text = _EMOJI.sub(" ", text).strip() or text
    if _MIXED_SCRIPT.search(text):  # «зaвтра» typed with a Latin "a": the Cyrillic word it is
        text = _MIXED_SCRIPT.sub(lambda m: m.group(0).translate(_TO_CYRILLIC), text)
    text = _ticked(text)  # "`ENG-105`", "`Stark Industries`": chat's code marks, a name or an id as said
    # "every Monday at 10am", «каждую пятницу»: the first of them (the planner says it does not repeat)
    text = re.sub(
        r"(?i)\b(?:every|each)\s+(?=(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|"
        r"morning|evening)\b)|\s*\bfrom\s+now\s+on\b",
        lambda m: "on " if m.group(0).strip().lower() in ("every", "each") else "",
        text,
    )
    text = re.sub(
        r"(?i)\bкажд(?:ый|ую|ое)\s+(?=(?:понедельник|вторник|среду|четверг|пятницу|субботу|воскресенье)\b)",
        "в ",
        text,
    )
    text = re.sub(r"(?i)\bслед\.?\s+(?=недел|месяц)", "следующей ", text)  # «на пт след недели»
    # «ООО «Ромашка»», «АО «Альфа-Лизинг»»: the company by its name (a quote after it is then a deal's own name)
    text = re.sub(r"\b(?:ООО|ОАО|ЗАО|ПАО|АО|ИП|LLC|Inc\.?)\s+[«\"“]([^»\"”]{2,60})[»\"”]", r"\1", text)
    text = said_plainly(text)  # wishes, colleagues told, cards, reminders, a verb said last
    # «блок завтра в 9:30 на 45 мин, назови разбор багов», "…, name it Roadmap sync": its title
    if _TIME_BOOKED.search(text):  # (a deal "called" something takes its name the deal's way)
        text = re.sub(
            r"(?i)(?<=\S),\s*(?:назови(?:те)?(?:\s+(?:его|её|ее))?|name\s+it)\s+(?=\S)", ", title ", text
        )
    # «в описание к ENG-103 допиши …», «В ENG-104 допиши в описание: …»: words added to its description
    text = _INTO_DESCRIPTION.sub(
        lambda m: f"допиши в описание {m['id1'] or m['id2']}: {m['words'].lstrip(': ')}", text
    )
    # «ENG-101: описание — таймаут …», "ENG-102: description 'new layout'": the issue's description, said as a field
    text = _DESCRIPTION_FIELD.sub(
        lambda m: f"обнови описание {m['id']}: " + (f"«{m['quoted']}»" if m["quoted"] else ""), text
    )
    # «А в ENG-102 напиши: макеты готовы», «напиши в CS-13, что …»: written on an issue is a comment there
    text = re.sub(
        r"(?i)\b(?:в|к|под)\s+([A-Z]{1,10}-\d+(?:\s*(?:,|и|and)\s*[A-Z]{1,10}-\d+)*)\s+(?:напиши|допиши|черкни)\b",
        r"оставь комментарий в \1",
        text,
    )
    text = re.sub(
        r"(?i)\b(?:напиши|допиши|черкни)\s+(?=(?:в|к|под)\s+[A-Z]{1,10}-\d+)", "оставь комментарий ", text
    )
    # «Поставь мне в Attio задачу позвонить Li Wei …, и ещё одну — отправить ему договор …»: the same request again
    again = _ONE_MORE.match(text) if _ONE_MORE_SAID.search(text) else None
    lead = re.match(r"[^\W\d_]+", again.group("second")) if again else None
    if (
        again
        and lead
        and not again.group("whom")
        and (is_imperative(lead.group(0)) or lead.group(0).lower() in _ASKS)
    ):
        # «…заметку «…», и ещё — назначь CS-15 на Олега»: "and also", a request of its own, no second note
        text = f"{again.group('head')}{again.group('first')}; {again.group('second')}"
    elif again:
        whom = f" {again.group('whom')}:" if again.group("whom") else ""  # «…и ещё одну Максу: …»: for him
        text = f"{again.group('head')}{again.group('first')}; {again.group('head')}{whom} {again.group('second')}"
    # «…, а я вместо него беру ENG-103», "I'll take ENG-103": that issue, to me
    text = re.sub(
        r"(?i)\bя\s+(?:[^\W\d_]+\s+){0,3}?(?:беру|возьму|забираю|заберу)\s+(?:себе\s+)?([A-Z]{1,10}-\d+)",
        r"назначь \1 на меня",
        text,
    )
    text = re.sub(r"(?i)\bI(?:'ll|\s+will)?\s+(?:take|grab)\s+([A-Z]{1,10}-\d+)", r"assign \1 to me", text)
    # «ENG-102 отдай мне»: to me, as «на меня» says it
    text = re.sub(
        r"(?i)\b(отдай|передай|перекинь|перебрось|кинь|поручи)(?:те)?\s+((?:её|ее|его|их)\s+)?мне\b"
        r"(?!\s+(?:почт|email|контакт|список))",
        r"\1 \2на меня",
        text,
    )
    # «Дай почту Марии», «скинь email Марии», «дай список компаний»: show me, not send anything
    text = _GIVE_ME.sub("покажи ", text)
    # «создай дело: …», «поставь мне дело на пятницу»: a to-do, in everyday words
    text = re.sub(
        r"(?i)\b(создай|заведи|добавь|поставь|запиши)(\s+(?:мне|ему|ей|нам)?\s*)дело\b", r"\1\2задачу", text
    )
    text = re.sub(r"(?i)\bнов(?:ое|ого)\s+дело\b", "новая задача", text)
    # "Какая сумма …? Напомни, а то Мария спросит": asked to be told what was just asked, no reminder
    text = re.sub(
        r"(?i)(?<=\?)\s*напомни(?:те)?(?:\s+мне)?\s*[,.]?\s*(?:а\s+то|потому\s+что|так\s+как)\b[^.!?]*[.!]?",
        "",
        text,
    )
    text = _ID_RANGE.sub(_id_range, text)  # "ENG-101..ENG-103": each of them
    text = re.sub(
        r"(?i)\b(?:pull|bring)\s+up\b(?=\s+(?:[A-Za-z]{1,10}-\d+|the|his|her|their|my|our)\b)", "show", text
    )  # "Pull up ENG-106"
    text = re.sub(
        r"(?i)\b(show|find|look\s+up|покажи|найди)\b([^.?!;]{1,60}?)\s+(?:for\s+me|мне)\s*(?=[.?!]|$)",
        r"\1\2",
        text,
    )
    text = _slashed(text)
    # "globex pilot amt 35k", "acme lic to neg": a CRM's words, cut short
    text = re.sub(r"(?i)\bamt\b", "amount", text)
    text = re.sub(r"(?i)\b(?<=\bto\s)neg\b|(?<=\bin\s)neg\b", "negotiation", text)
    text = re.sub(r"(?i)\blic\b", "license", text)
    text = _spoken_clock(text)  # «с девяти до одиннадцати», «в шестнадцать ноль ноль»: hours said as words
    # "log a note on Initech, like, Ivan says …": a filler between commas; "ok three things. one, move …. two,
    # note on it …": the items of a dictated list, each a sentence of its own
    text = re.sub(r"(?i),\s*like\s*,", ",", text)
    text = re.sub(
        r"(?i)(?:^|(?<=[.!?]\s))(?:(?:oh|ah)\s*,?\s+and\s+|(?:um+|uh+|hmm+)\b[,\s]+(?:and\s+)?)(?=[a-z])",
        "",
        text,
    )  # ". oh and remind me"
    # «…; во-вторых, добавить …; и, в-третьих, поставить …»: each item a request of its own
    text = re.sub(
        r"(?i)\s*[;,]\s*(?:(?:и|а|and)\s*,?\s*)?(?:во-вторых|в-третьих|в-четв[её]ртых|в-пятых|secondly|thirdly|"
        r"fourthly|и\s+наконец|and\s+finally|and\s+lastly)\s*[,:—-]?\s+(?=\S)",
        "; ",
        text,
    )
    # "…, um, first, comment on cs 13 …, second, move cs 15 …, and third, …": dictated items, each its own
    text = re.sub(
        r"(?i)\s*[;,]\s*(?:(?:and|so|then)\s*,?\s*)?(?:first|second|third|fourth|fifth|firstly|lastly)\s*[,:—-]\s+(?=\S)",
        "; ",
        text,
    )
    text = re.sub(
        r"(?i)(?:^|(?<=[.!?:]\s))(?:one|two|three|four|five|first|second|third|fourth|fifth|firstly|secondly|thirdly|"
        r"lastly|finally|во-первых|во-вторых|в-третьих|в-четв[её]ртых|и\s+наконец)\s*[,:—-]\s+(?=[a-zа-яё])",
        "",
        text,
    )
    text = _ids_in_a_row(text)
    # "Reassign whatever Oleg has in CS to me", "move all my CS issues over to Oleg": all of them, to whom
    text = re.sub(
        r"(?i)\bwhatever\b(?=\s+[^\W\d_]+(?:'s)?\s+(?:has|owns|is\s+on|holds|got)\b)", "everything", text
    )
    text = re.sub(r"(?i)\s+over\s+to\b(?=\s+\S)", " to", text)
    text = re.sub(
        r"(?i)(?<=\w)(\s+re):\s*(?=\w)", r"\1 ", text
    )  # "…next Wednesday re: pilot kickoff": about, no heading
    text = without_polite_if(text)
    text = re.sub(r"(?i)\b([а-яё]{3,}[йьи])-ка\b", r"\1", text)  # «создай-ка», «глянь-ка»: the verb itself
    text = _plain_verbs_outside_words_to_keep(text)
    text = _NAMED_THEN_ASKED.sub(r"\2 \1", text, count=1)  # "The leaked key issue: move it to …"
    text = _british_dates(text)  # "Friday week", "a fortnight today", "half nine": in the reader's words
    # "stage should be Proposal", "the deal of Globex should go in won": what it is to be, said as a wish
    text = _ACTUALLY.sub(
        lambda m: f"{m.group(1)} {'теперь' if m.group(1).lower() == 'сумма' else 'is now'}", text
    )
    text = _OLD_VALUE_AFTER.sub(lambda m: m["unit"], text)
    text = _THEY_WANT_SUM_UPDATE.sub(
        lambda m: (
            f"{'сумма теперь' if re.search('[а-яё]', m.group(0), re.I) else 'amount is now'} {m['sum'].strip()}"
        ),
        text,
    )
    if (
        _FINAL_SUM.search(text)
        and "?" not in text
        and not re.search(r"(?i)\b(?:сумм\w*|amount|обнови\w*|update)\b", text)
    ):
        text = _FINAL_SUM.sub(
            lambda m: ", сумма теперь " if re.search("[а-яё]", m.group(0), re.I) else ", amount is now ",
            text,
            count=1,
        )
    text = _SHOULD_BE.sub(
        lambda m: (
            (f"{m.group(1)} to " if m.group(1).lower() in ("owner", "assignee") else f"{m.group(1)} ")
            if m.group(1)
            else " to "
        ),
        text,
    )
    if " to " in text and "?" not in text:  # "the acme corp license deal owner should be oleg": a hand-over
        text = _OWNER_TO.sub(lambda m: f"assign {m['rec'] or m['low']} to ", text)
    text = _THROWN_THERE.sub("переведи", text)
    text = _THROWN.sub("добавь", text)  # «кинь заметку»: made ("кинь ENG-106 на Макса" hands it over)
    text = re.sub(r"(?i)\bnew\s+co\b(?=\s*[:,]|\s+[A-Z])", "new company", text)  # "new co: Stark Industries"
    text = _REMIND_WHAT.sub("", text)
    text = re.sub(
        r"(?i)\btell\s+me\s+(?=(?:the|his|her|their|its)\s)", "what is ", text
    )  # "tell me the email …"
    text = re.sub(
        r"(?i)\s+(?:(?:that\s+)?we\s+have\s+)?on\s+file\b(?!\s+(?:upload|uploads|download|export|import|save|open))",
        "",
        text,
    )  # "the email we have on file": no filing ("crash on file upload" is a title's own words)
    asked = _FIND_OUT.search(text)
    if asked:  # "Check and tell me if any issue is open for Globex.": a question, whatever its mark
        rest = text[asked.end() :].rstrip()
        one_sentence = not re.search(r"[.!?]\s+\S", rest)
        text = text[: asked.start()] + (rest.rstrip(".!") + "?" if one_sentence else rest)
    passed = _PASSED_ON.match(text)
    if passed and _AN_INSTRUCTION.search(text[passed.end() :]):  # what is to be done, passed on: the request
        text = text[passed.end() :]
    text = _WRITE_IN_IT.sub("прокомментируй", text)  # «отпиши в ней, что …» («опиши», «отпиши Джейн» are not)
    text = _WRITE_BACK_ON_AN_ISSUE.sub(
        lambda m: (
            f"оставь комментарий в {m.group(1)}" + (", что " if m["that"] else ": " if m["colon"] else " ")
        ),
        text,
    )
    text = _MAY_NOW.sub(
        lambda m: _MAY_AS[(m.group(1) or m.group(2)).lower()], text
    )  # «CS-14 можно закрывать»: close it
    text = _CLOSE_LOST_X.sub(
        lambda m: f"move {m.group(2)} to {m.group(1).title()}", text
    )  # "close-lost everything in Lead"
    text = _PREAMBLE.sub("", text, count=1)
    text = _ASK_INTRODUCED.sub(" ", _CONTEXT_LABEL.sub("", text, count=1))
    text = KEEP_AS_IS.sub("", _without_asides(text))
    text = _TAKES_IT.sub(lambda m: f"assign {m.group(2)} to {m.group(1)}", text, count=1)
    # "block 2 hours on friday from 10 for the board deck": the hour it starts, said with "from" and no end
    text = re.sub(
        r"(?i)\bfrom\s+(\d{1,2})(?=\s+(?:for|on|to\s+(?![\d]|noon|midday))\b|\s*[,.;](?!\d)|\s*$)",
        r"at \1",
        text,
    )
    text = _SPOKEN_AM_PM.sub(  # "at eleven a m": 11am
        lambda m: f"{_HOURS.get(m.group(1).lower(), m.group(1))}{m.group(2).lower()}m", text
    )
    # «ENG-103 в проект Mobile App», "ENG-103 into the Mobile App project": a move said without its verb
    text = re.sub(
        # (several of them: "ENG-104 + ENG-102 into Q1 Launch project")
        r"(?i)^\s*([A-Z]{1,10}-\d+(?:\s*(?:[,+&]|\band\b|\bи\b)\s*[A-Z]{1,10}-\d+)*)\s+"
        r"(?=(?:в|во|into|to)\s+(?:the\s+)?(?:проект\b|project\b|[\w ]{2,30}\s+project\b))",
        lambda m: ("перенеси " if re.search(r"[а-яё]", text, re.I) else "move ") + m.group(1) + " ",
        text,
        count=1,
    )
    if len(_POINT_OF_A_LIST.findall(text)) >= 2:
        text = _POINT_OF_A_LIST.sub(lambda m: " " + (m.group(1) or m.group(2) or "").upper(), text).strip()
    text = _WHAT_THEN_TASK.sub(_task_first, text, count=1)
    text = _COUNTED_LIST.sub(lambda _: "create " if text.isascii() else "создай ", text, count=1)
    # "Make the Figma thing from yesterday a ticket": what it is, then what to make of it
    text = re.sub(
        r"(?i)^\s*(?:please\s+)?make\s+(?!it\b|that\b|this\b)(.{3,120}?)\s+(?:a|an|into\s+an?)\s+(?:ticket|issue)\s*[.!]?\s*$",
        r"create an issue: \1",
        text,
    )
    text = _BACK_TO.sub(r"\1 → ", text)
    text = shorthand.plain(text)  # "#103 and #101 both urgent", "ENG: title, fields", "eng102 wontfix", …
    text = _DASH_BEFORE_WHERE.sub(r"\1 ", text)
    text = _AND_AS_A_NOTE.sub(r"\1. Also add this as a note \2 ", text)
    text = _CANCEL_ISSUES.sub(_canceled, text)
    text = _SAID_AGAIN.sub(_said_again, text)
    text = _CLOSED_AS.sub(_closed_as, text)  # "mark it closed-won", "Globex is closed lost"
    text = _REPLY_IN.sub("прокомментируй", text)  # «Ответь в ENG-101: …»: a comment there
    text = _WHATS_BURNING.sub("какие срочные задачи", text)  # «что горит?»
    text = _WHAT_THEY_OWN.sub(
        lambda m: f"what deals does {m.group(2)} own" if m.group(1) else f"какие сделки ведёт {m.group(4)}",
        text,
    )
    text = _SPELLED_TEAM.sub(
        lambda m: _TEAM_LETTERS[re.sub(r"[\s-]+", " ", m.group(0).lower())], text
    )  # «си эс»
    text = _TO_WHOM_BARE.sub(
        lambda m: (
            f"{m.group('lead')}назначь {m.group('what').strip(' —–:→->')} "
            + ("на меня" if m.group("who").lower() == "мне" else m.group("who"))
        ),
        text,
    )
    text = re.sub(
        r"^\s*#\s*(?=[^\W\d_])",
        lambda m: "сколько " if re.match(r"\s*#\s*[а-яё]", text, re.I) else "how many ",
        text,
    )  # "# deals in negotiation"  # «напомни, что за сделка и кто её ведёт?»: a question, asked politely
    # "пятнадцатое декабря" -> "15 декабря"; a note's or comment's words after its colon stay as said
    # («заметку: подписание первого декабря в офисе»)
    said = [m.span(1) for m in _CONTENT_AFTER_COLON.finditer(text)]
    text = _ORDINAL_DAY.sub(
        lambda m: m.group(0) if any(a <= m.start() < b for a, b in said) else _ordinal_day(m), text
    )
    text = _SHORT_MONTH.sub(lambda m: f"{m.group(1)} {_MONTHS[m.group(2).lower()]}", text)  # "до 1 дек"
    text = _SHORT_RX.sub(_expand, text)
    text = re.sub(r"(?i)\b(my|the|on|in|to|your)\s+cal\b", r"\1 calendar", text)  # "what's on my cal fri"
    # "… outdated. Please open an issue": the next sentence still starts with a capital, as the splitter expects
    text = re.sub(
        r"(?<=[.!?]\s)(?:please|pls|plz|пожалуйста)[,\s]+([a-zа-яё])",
        lambda m: m.group(1).upper(),
        text,
        flags=re.I,
    )
    quotes = [
        m.span() for m in IN_QUOTES.finditer(text)
    ]  # "…saying 'fixed in 2.4.1, please retest'": their words
    # "ping Max in a comment: please demo on Friday": after a comment's or a note's colon, its words too
    quotes += [m.span(1) for m in _CONTENT_AFTER_COLON.finditer(text)]
    text = (
        re.sub(  # (a blank line before a list stays a line break: "…the log\n\n- note …\n- issue …" is a list)
            r"(?P<list>\s*\n\s*\n(?=[^\S\n]*(?:[-•*]|\d{1,2}[.)])\s))|\s{2,}",
            lambda m: "\n" if m.group("list") else " ",
            _COURTESY.sub(
                lambda m: m.group(0) if any(a <= m.start() < b for a, b in quotes) else _kept_comma(m), text
            ),
        )
        .replace(" \ue001", ",")
        .replace("\ue001", ",")
        .strip()
        or text
    )
    text = text.lstrip(": ") or text  # "pls: globex pilot note - …": the courtesy gone, its colon with it
    text = _SPOKEN_DOT_IN_NAME.sub(r"\1.\2", text)
    text = _SPOKEN_EMAIL.sub(lambda m: f"{m.group(1)}@{m.group(2)}.{m.group(3)}", text)
    text = _LYAM.sub("миллиона", text)
    text = _SPOKEN_DOMAIN.sub(lambda m: f"{m.group(1)}.{m.group(2)}", text)  # "stark dot com"
    text = _UH.sub(
        lambda m: (
            "\ue002"  # "create a task to, um, update …": said mid-phrase, the pause leaves no comma
            if m.group(0).startswith(",")
            and re.search(r"(?i)\b(?:to|a|an|the|for|with|of|чтобы|на|в|по|для|и|and)\s*$", text[: m.start()])
            and text[m.end() :].startswith(",")
            else ""
        ),
        text,
    )
    text = re.sub(r"\ue002,\s*", " ", text)  # (the comma the pause left after it)
    text = _FILLED_AND.sub(r"\1 ", text)  # «…в выигранные и, ну, заводи онбординг»: "и" joins two requests
    text = _SPOKEN_COMMA.sub(", ", text)  # dictated punctuation: «…на час, запятая, тема — …»
    text = _PLUS.sub(" и " if re.search("[а-яё]", text, re.I) else " and ", text)  # "assign me + comment: …"
    text = _BLOCK_AN_HOUR.sub(r"\1 на \2", text)
    text = _RANGE_THEN_COLON.sub(r"\1 — ", text)  # «заблокируй час завтра в 8»: for an hour
    text = _SINGLE_QUOTED_WORDS.sub(
        r"\1«\2»", text
    )  # "Jane just emailed: 'Procurement signed off …, the PO …'"
    text = _NAMED_AFTER_MADE.sub(r"\1 под названием ", text)  # «заведи сделку, назови Umbrella renewal, …»
    # "bug in ENG: 'CSV export drops unicode' p2 w/ oleg": fields after a quoted title, said without commas
    text = _FIELDS_AFTER_QUOTE.sub(
        lambda m: (
            m.group(1)
            + ", "
            + re.sub(
                r"(?i)\bwith\b",
                "for",
                re.sub(r"(?i)\s+(?=(?:p[0-4]|with|for|due|label|на|для|срок)\b)", ", ", m.group(2)),
            )
        ),
        text,
    )
    # "ENG-101 коммент '…' и прио срочный": a field set after a comment's quoted words, its verb left out
    text = _FIELD_AFTER_QUOTED.sub(
        lambda m: (
            f"{m['quote']} {m['join'] or ('и' if re.search('[а-яё]', m['field'], re.I) else 'and')} "
            f"{'поставь' if re.search('[а-яё]', m['field'], re.I) else 'set'} {m['field']} "
        ),
        text,
    )
    if re.search(r"(?i)\b(?:owner|assignee)\b|владел|ответствен", text):
        text = _ME_AS_OWNER.sub(
            lambda m: f"{m['en'] or m['en2']} me" if m["en"] or m["en2"] else "владелец я", text
        )  # "me as owner"
    text = _ONE_PER_ITEM.sub(r"\1\2s for these \3s", text)  # "one ENG issue per error below:": one for each
    text = _SAME_FOR.sub(
        r"\g<first> \g<change>, \g<second> \g<change>", text
    )  # «CS-13 в In Review, CS-14 тоже»
    text = _COUNT_OF.sub("how many ", text)  # "give me a headcount of contacts": how many there are
    text = _SEND_ME.sub("покажи ", text)  # «скинь сколько у нас сделок в переговорах»: show me
    # "… with Maria Sokolova. Could you log the call against her record": each sentence's courtesy
    quotes = [
        q.span() for q in re.finditer(r"«[^«»]*»|“[^“”]*”", text)
    ]  # (someone's words stay as they wrote them)
    text = re.sub(  # (the sentence still starts with a capital, as the splitter expects of one)
        r"(?<=[.!?;]\s)(?:(?:could|can|would|will)\s+you\s+(?:please\s+)?(?:possibly\s+)?(?:kindly\s+)?|please\s+)([a-z])",
        lambda m: m.group(0) if any(a < m.start() < b for a, b in quotes) else m.group(1).upper(),
        text,
        flags=re.IGNORECASE,
    )
    polite = _POLITE.match(text)
    if polite and _WORD.match(text, polite.end()):
        text = text[polite.end() :].rstrip()
        text = text[:-1].rstrip() if text.endswith("?") else text
    out: list[str] = []
    last = 0
    for i, m in enumerate(_WORD.finditer(text)):
        fixed = _meant(m.group(0), first=i < 3)
        if fixed is None:
            continue
        if m.group(0)[:1].isupper():
            fixed = fixed[:1].upper() + fixed[1:]
        out += [text[last : m.start()], fixed]
        last = m.end()
    return "".join(out) + text[last:] if out else text
