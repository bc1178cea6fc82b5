"""Self-corrections said mid-sentence, as dictation carries them: "due friday no sorry monday", «на Олега,
нет, на Макса», "полтора миллиона, то есть миллион двести". The corrected value replaces the one it
corrects; everything else is left as said.

A correction is read only where it is unmistakable: the words after the marker start the same way as
words just before it (the same preposition: «на Олега нет на Макса»), or are the same kind of value (a
weekday for a weekday, a number for a number, a name for a name). A bare "no"/«нет» that is no
correction ("no assignee", «нет задач») changes nothing.
"""

from __future__ import annotations

import re

from planner._lazy_re import LazyRe
from planner.dates import MONTH_NAME
from planner.numbers import NUMBER_WORDS
from planner.text import is_imperative

__all__ = ["corrected"]

# markers that say the speaker takes back what they just said
_STRONG = (
    r"no\s+(?:sorry|wait|actually)|no,\s*(?:sorry|wait|actually)|sorry,?\s+i\s+mean|no,?\s+i\s+mean|i\s+meant?|scratch\s+that|"
    r"actually,?\s+make\s+(?:it|that)|no,?\s+make\s+(?:it|that)|"
    # "… on Monday at 11am — make that 11:30": a value said again, right after the one it replaces
    r"make\s+that(?=\s+(?:\d|mon|tue|wed|thu|fri|sat|sun|tomorrow|today|next|noon|half|urgent|high|medium|low))|"
    r"actually,?\s+no|wait,?\s+no|sorry,?\s+no|oops|хотя\s+нет|нет,?\s+(?:стоп|подожди|точнее|вернее|сорри|извини)|ой,?\s+нет|"
    r"(?:то\s+есть|вернее|точнее)[,\s]+нет|то\s+есть|вернее|точнее|в\s+смысле"
)
_WEAK = r"no|nope|нет|sorry|actually|wait|ой"
_MARKER = LazyRe(
    rf"(?i)(?<=\w)(?:(?P<framed>[,.…]+\s*(?:(?:а|ой|ah|oh)[,\s]+)?(?:нет|не|no|nope)\s*[,.…!]+)|[\s,.…]*(?:[—–-]\s*)?\b(?:(?P<strong>{_STRONG})|"
    rf"(?P<weak>{_WEAK}))\b)[\s,.…:—–-]*"
    # "…, нет, подожди, закрой ENG-102": the pause words said with it are part of it
    r"(?:(?:подожди|погоди|стоп|стой|wait|hold\s+on|sorry|сорри|извини)\b[\s,.…!:—–-]*)*(?=\w)"
)
# "…no wait not pricing the settings page", «к пятнице, нет, не к пятнице, к четвергу»: what is taken back
# («…ой нет не в четверг а в пятницу»: "не X, а Y" said without the comma)
_NOT_THAT = LazyRe(
    r"(?i)^(?:not|не|don'?t|do\s+not)\s+([^,.…]+?)(?:\s*[,.…]+\s*(?:(?:а|but)\s+)?|\s+(?:а|but)\s+|\s+(?=(?:the|a)\s))"
)
# «…в четверг в 11 а нет не в четверг в пятницу»: "не" + the words taken back, then the same preposition anew
_NOT_THAT_AGAIN = LazyRe(r"(?i)^(?:not|не)\s+((в|во|на|к|до|с|to|on|at|by|for)\s+\S+)\s+(?=\2\s)")
# "not 104", «не ENG-104»: one of the issues just listed, taken back
_ID_TAKEN_BACK = LazyRe(r"(?i)^(?:not|не)\s+((?:[A-Za-z]{1,10}-)?\d{1,6})\b\s*(?:[,.;…]+|\s[—–-]\s|$)")
# («…ой нет рано еще давай в переговоры»: why, then what replaces it)
_LEAD_ADVERB = LazyRe(
    r"(?i)^(?:(?:сразу|лучше|тогда|давай|пока|пусть\s+будет|let\s+it\s+be|make\s+(?:it|that)|instead|rather|straight|let'?s|рано(?:\s+(?:ещё|еще))?|(?:ещё|еще)\s+рано|"
    r"too\s+early|not\s+yet)[\s,]+)+(?=\S)"
)
_ISSUE_ID = LazyRe(r"[A-Za-z]{1,10}-\d+")
_ONE_WORD = LazyRe(r"[^\W\d_]{4,}")
_SAME_VERB = LazyRe(r"(?i)(?<!\w)[^\W\d_]{4,}(?=\s+\S)")  # (the first word of a request: its verb)
_NOT_AFTER = LazyRe(
    r"(?i)(?:[\w-]+\s+(?:needed|required|necessary)\b|"  # "SSO via Okta, no SAML needed": a fact, not a take-back
    r"later|more|less|longer|earlier|sooner|one|need|matter|problem|idea|worries|rush|change|"
    r"позже|раньше|больше|меньше|надо|нужно|проблем\w*|смысла|задач\w*|сделок|исполнител\w*|срока)\b"
)
_ANCHORS = {"на", "в", "во", "к", "до", "для", "про", "по", "с", "со", "to", "on", "for", "by", "at", "until", "with", "about", "in", "into", "стадия", "stage", "priority",
            "приоритет", "срок", "due", "owner", "assignee", "исполнитель"}  # fmt: skip
_WEEKDAY = LazyRe(
    r"(?i)^(?:mon|tue|wed|thu|fri|sat|sun|понедельн|вторн|сред|четверг|пятниц|суббот|воскрес|today|tomorrow|"
    r"tonight|сегодня|завтра|послезавтра)"
)
_NUMBER = LazyRe(
    rf"(?i)^(?:\d[\d.,:]*\w*|(?:{NUMBER_WORDS})|\w+(?:th|st|nd|rd)|перв\w+|втор\w+|трет\w+|полтор\w+)$"
)
_QUOTED = LazyRe(r"«[^«»]*»|“[^“”]*”")
_PRIORITY_WORD = LazyRe(r"(?i)urgent|high|medium|low|срочн\w*|высок\w*|средн\w*|низк\w*")
# «…, команда CS... хотя нет, пусть будет дизайн»: a field's value said last, then another one for it
_FIELD_LAST = LazyRe(
    r"(?i)\b(?:команд[аеуы]|team|проект|project|метк[аиу]|label|стади[яю]|stage)\s+(?P<val>[^\s,.;…]+(?:\s+[^\s,.;…]+)?)[\s.…]*$"
)
_SHORT_VALUE = LazyRe(r"\s*([^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*)?)\s*[.!]?\s*")
_DURATION = LazyRe(
    r"(?i)(?:\d+(?:[.,]\d+)?|one|two|three|an?|half\s+an)\s*(?:minutes?|mins?|hours?|hrs?|минут\w*|мин|час\w*)\b|полчаса\b|(?<=на\s)час\b"
)
_CLOCK = LazyRe(r"(?i)\d{1,2}(?::\d{2}|(?::\d{2})?(?:am|pm))")  # "2pm", "14:30", "2:30pm"
_WORD = LazyRe(r"\d{1,2}:\d{2}\w*|[\w@.'’-]+")  # ("2:30" one word)
_LOOKBACK = 6  # words: a correction takes back something just said


def _kind(word: str) -> str | None:
    word = word.rstrip(".…")  # "55k... ugh, no, 60k": the pause after a value is no part of it
    if _ISSUE_ID.fullmatch(word):
        return "issue"  # "закрой ENG-101, нет, ENG-102"
    if "@" in word:
        return "email"  # "olga@romashka.ru — ой, нет, olga.mironova@romashka.ru"
    if len(word) < 2 or word.lower() in ("an", "and"):
        return None
    if _WEEKDAY.match(word):
        return "day"
    if _CLOCK.fullmatch(word):
        return "time"
    if _PRIORITY_WORD.fullmatch(word):
        return "priority"  # "priority high — make that urgent"
    if _NUMBER.match(word):
        return "number"
    if MONTH_NAME.fullmatch(word):
        return "month"
    if word[:1].isupper():
        return "name"
    return None


# "archive CS-15 and DES-7 — wait, no, DES-7 stays. Just CS-15.": of the issues listed, only the one said last
_ONLY_THAT_ONE = LazyRe(
    r"(?is)^(?P<head>.*?)(?P<list>[A-Za-z]{1,10}-\d+(?:\s*(?:,|\band\b|\bи\b|&)\s*[A-Za-z]{1,10}-\d+)+)(?P<mid>[^.!?—–]*?)"
    r"[\s,.…—–-]*(?:(?:а|ah|oh|ой|hmm)[\s,.…]+)?\b(?:wait|no|нет|стоп|ой|actually|хотя)\b.*?\b(?:just|only|только|лишь)\s+"
    r"(?P<one>(?:[A-Za-z]{1,10}-)?\d+)(?P<why>\s*[,;—–-]\s*(?![^.!?]*\b(?:и|and|also|потом|then)\s)[^.!?]{1,80})?"
    r"\s*[.!]?\s*$"
)


# "create one for X in DES, and also one for Y in ENG — actually skip the second one, Oleg has it", «…, и вторую
# в ENG — хотя нет, вторую не надо»: one of the things just listed, taken back by its place in the list
_SKIP_ONE = LazyRe(
    r"(?i)\s*[—–,.;]+\s*(?:(?:actually|wait|no|oh|хотя|нет|ой|стоп)[\s,]+)*(?:"
    r"(?:skip|drop|forget|scratch|cancel|remove|don'?t\s+(?:do|create|make|add))\s+(?:the\s+)?(?P<en>second|2nd|last|latter|third)"
    r"(?:\s+one)?|(?P<ru>втор\w+|последн\w+|трет\w+)\s+(?:не\s+надо|не\s+нужно|не\s+создавай|не\s+заводи|отмени|убери|"
    r"не\s+делай))\b(?P<why>[^.!?]*)[.!]?\s*$"
)
_LISTED_APART = LazyRe(
    r"(?i),?\s+(?:and\s+also|and|also|а\s+также|и\s+ещё|и\s+еще|и)\s+|[;,]\s+(?=(?:also|ещё|еще)\b)"
)


def _skip_listed(text: str) -> str:
    said = _SKIP_ONE.search(text)
    if said is None:
        return text
    items = _LISTED_APART.split(text[: said.start()])
    place = (said.group("en") or said.group("ru")).lower()
    at = (
        1 if place.startswith(("second", "2nd", "втор")) else 2 if place.startswith(("third", "трет")) else -1
    )
    if len(items) < 2 or at >= len(items):
        return text  # (nothing listed to take one of)
    del items[at]
    return ", and ".join(x.strip(" ,") for x in items)


# («…стоп, только CS-15, 103 ещё нужен»: why the other stays may follow)
_JUST_ONE = LazyRe(
    r"(?i)\b(?:just|only|только|лишь)\s+(?:[A-Za-z]{1,10}-)?\d+"
    r"(?:\s*[,;—–-]\s*(?![^.!?]*\b(?:и|and|also|потом|then)\s)[^.!?]{1,80})?\s*[.!]?\s*$"
)


_NEXT = LazyRe(r"(?i)next|this|coming|следующ\w+|эт[оу]т?|ближайш\w+")
_PREP = r"(?:в|во|на|к|ко|до|с|со|для|у|за|под|из|как|to|on|at|by|for|in|into|as|until)"
# «переведи не в Won, а в переговоры», «не в пятницу, а в четверг», "assign it not to Oleg but to Max", "not
# today, on Monday": the value said after "не"/"not" is the one replaced by what follows «а»/"but"/a comma
_RATHER = LazyRe(
    rf"(?i)(?<!\w)(?:не|not)\s+(?!(?:только|просто|совсем|очень|сразу|надо|нужно|стоит|всё|все|менее|более|"
    rf"only|just|sure|yet|later|before|after|more|less|too|so|that|this|a|an|the)\b)"
    rf"(?P<x>(?:(?P<p>{_PREP})\s+)?[^\s,;.!?—–]+(?:\s+[^\s,;.!?—–]+)?)"
    rf"(?:\s*,\s*(?:(?:а|but)\s+)?|\s+(?:а|but)\s+)(?P<y>(?:(?P<q>{_PREP})\s+)?(?P<w>[^\s,;.!?—–]+))"
)


_MARKED = LazyRe(r"(?i)\b(?:нет|no|nope|ой|стоп|wait|sorry|сорри|actually)[\s,.…!—–-]*$")


def _rather(text: str) -> str:
    quoted = [q.span() for q in _QUOTED.finditer(text)]
    for m in _RATHER.finditer(text):
        if any(a <= m.start() < b for a, b in quoted):
            continue  # someone's words, quoted, are kept as said
        if _MARKED.search(text[: m.start()]):
            continue  # «…в пятницу, нет, не в пятницу, в четверг»: a marked take-back, read with its marker
        p, q = (m.group("p") or "").lower(), (m.group("q") or "").lower()
        x_last = m.group("x").split()[-1]
        same_place = bool(p) and p.rstrip("о") == q.rstrip("о")  # (в / во)
        same_kind = not p and _kind(x_last) is not None and _kind(x_last) == _kind(m.group("w"))
        if same_place or same_kind:
            return f"{text[: m.start()]}{m.group('y')}{text[m.end() :]}"
    return text


# "Close ENG-101 and ENG-106 — actually no, only the first one", «Создай задачи: a, b, c. Хотя нет, только первую»:
# of the things just listed, only the one at that place
_ONLY_AT_PLACE = LazyRe(
    r"(?is)^(?P<before>.*?)[\s,.…;—–-]*\b(?:actually|wait|no|нет|хотя|стоп|ой)\b[^.!?]*?\b(?:only|just|только|лишь)\s+"
    r"(?:the\s+)?(?P<place>first|second|third|last|перв\w+|втор\w+|трет\w+|последн\w+)(?:\s+(?:one|item|issue|task|задач\w*))?"
    r"\s*[.!]?\s*$"
)
_IDS_LISTED = LazyRe(r"(?i)[A-Z]{1,10}-\d+(?:\s*(?:,|\band\b|\bи\b|&)\s*[A-Z]{1,10}-\d+)+")


def _only_at_place(text: str) -> str:
    said = _ONLY_AT_PLACE.match(text)
    if said is None:
        return text
    before, place = said.group("before").rstrip(" ,.;…—–-"), said.group("place").lower()
    at = (
        0
        if place.startswith(("first", "перв"))
        else 1
        if place.startswith(("second", "втор"))
        else (2 if place.startswith(("third", "трет")) else -1)
    )
    ids = list(_IDS_LISTED.finditer(before))
    if ids:
        listed = ids[-1]
        items = re.findall(r"(?i)[A-Z]{1,10}-\d+", listed.group(0))
        if -len(items) <= at < len(items):
            return f"{before[: listed.start()]}{items[at]}{before[listed.end() :]}"
        return text
    head, colon, tail = before.partition(":")
    items = [x for x in re.split(r"\s*(?:,|;|\band\b|\bи\b)\s*", tail.strip()) if x.strip()] if colon else []
    if len(items) >= 2 and -len(items) <= at < len(items):
        one = re.sub(r"(?i)^(\w+)\s+(?:задачи|issues|tasks)\b", r"\1 задачу", head) if head else head
        return f"{one}: {items[at]}"
    return text


# "Move the Romashka deal to Won and spin up onboarding — no, skip the Linear part for now, only the deal": the
# request said last, then taken back by "skip …" / «не надо …»
# "<a request> — no, keep Max on it, just <another>", «… — нет, оставь как есть, просто …»: the first is taken back,
# what it was said of stays for the second
_KEEP_IT_JUST = LazyRe(
    # ("ENG-103: bump the priority to high... no wait, leave the priority alone, just assign it to Oleg", "…
    # scratch that, just …": the issue said first, the change taken back whole, then what stands)
    r"(?s)^\s*(?:[^\W\d_]+\s+)?(?P<what>[A-Z]{1,10}-\d+|[A-Z]{2,10}\s+[a-z][a-z\s-]{2,30}?(?=\s*:))\s*:?"
    r"(?i:[^—–.;]*?\s*(?:[—–,.]|\s-\s|\.{2,}|…)\s*"
    r"(?:(?:no|nope|нет|actually|wait|хотя\s+нет)(?:[,\s]+(?:wait|стоп|подожди))?[,\s]+(?:keep|leave|оставь|оставляй)\b[^,.;]*"
    r"|(?:(?:no|nope|нет|actually|wait)[,\s]+)?(?:scratch\s+that|forget\s+(?:it|that)|забудь|отмена))(?:[,;]\s*|\s+(?:и|and)\s+)"
    r"(?:just|only|просто|только)\s+(?P<rest>\S.*))$"
)
# "move Globex pilot to proposal no actually keep it in negotiation just bump the amount to 35k": the move taken back
# whole, what stands is said of the record the move named
_MOVE_KEPT_JUST = LazyRe(
    r"(?s)^\s*(?i:please\s+|пожалуйста\s+)?(?i:move|set|put|push|change|переведи|перенеси|передвинь|двинь|поставь)\s+"
    r"(?P<what>[^,.;:—–]{2,60}?)\s+(?i:to|into|в|во|на)\s+(?i:[^—–.;]*?(?:[—–,.]|\s-\s|\.{2,}|…|\s)\s*"
    r"(?:no|nope|нет|actually|wait|хотя\s+нет)(?:[,\s]+(?:no|nope|нет|actually|wait|стоп|подожди))*[,\s]+"
    r"(?:keep|leave|оставь|оставляй)\b[^,.;]*?(?:[,;.]\s*|\s+(?:и|and)\s+|\s+)(?:just|only|просто|только)\s+(?P<rest>\S.*))$"
)
# "ENG-106 to In Review, and assign it to Max — no, keep Oleg, just the state": the change said last is taken back,
# the one the person names by its field stays
_JUST_THE_FIELD = LazyRe(
    r"(?is)^(?P<keep>.*\S)\s*(?:,\s*)?\b(?:and|и)\s+[^,;.—–]+?\s*(?:[—–,.]|\.{2,}|…)\s*(?:no|nope|нет|actually|хотя\s+нет|wait)"
    r"[,\s]+(?:keep|leave|оставь|оставляй)\b[^,.;]*(?:[,;]\s*|\s+(?:и|and)\s+)(?:just|only|просто|только)\s+(?:the\s+)?"
    r"(?:state|status|stage|priority|due\s+date|date|deadline|статус\w*|стади\w+|приоритет\w*|срок\w*|дат[ау])\s*[.!]?\s*$"
)
_LAST_TAKEN_BACK = LazyRe(
    r"(?is)^(?P<keep>.*\S)(?:\s*,\s*|\s+)(?:and|и|а\s+также|then|потом)\s+[^,;.—–]+?\s*[—–,.]\s*(?:no|nope|нет|actually|"
    r"хотя\s+нет|wait)[,\s]+(?:skip|drop|forget|cancel|не\s+надо|не\s+нужно|не\s+делай|отмени|пропусти)\b[^.!?]*[.!]?\s*$"
)


# "add a note to Maria Sokolova — actually no, put it on the Alfa-Leasing deal — they approved the budget": the note
# (or comment) stays, only what it is put on changes
_PUT_IT_ELSEWHERE = LazyRe(
    r"(?is)^(?P<head>.*?\b(?:note|notes|comment|заметк\w*|коммент\w*)\s+(?:to|on|for|under|к|для|на|в)\s+)"
    r"(?:(?!\b(?:что|that|чтобы)\b)[^:—–.…,;]){2,60}?"
    r"\s*(?:[—–,.]|\.{2,}|…)\s*(?:(?:actually|wait|no|sorry|нет|ой|хотя)[,\s]+)+(?:no[,\s]+)?"
    r"(?:(?:put|add|attach|leave|make)\s+(?:it|that|this)\s+(?:on|to|under|for)|(?:лучше\s+)?(?:к|на|в)(?=\s))\s+"
    r"(?P<where>[^:—–]+?)(?P<rest>\s*(?:[:—–]|$).*)$"
)


_DIGIT_GROUPS = LazyRe(r"(?<=\d)[ \u00a0\u202f](?=\d{3}(?!\d))")


# «…... а, нет, забудь, сначала поговорю с Максом», "… no wait, forget it": taken back whole — no new value
_TAKEN_BACK_WHOLE = LazyRe(
    r"(?i)(?<!\w)(?:нет|no|wait|стоп|stop|хотя)[\s,.!…—–-]+(?:(?:нет|no|стоп|stop)[\s,.!…—–-]+)*"
    r"(?:забудь|забей|отбой|отмена|не\s+надо|forget\s+(?:it|that|about\s+it)|never\s*mind|cancel\s+(?:it|that)|scratch\s+that)\b"
)


# the items of a list counted aloud ("first thing … second thing …", «во-первых … во-вторых …»): each is a request
# of its own, and a correction said in one takes back words of that one only
_COUNTED_ALOUD = LazyRe(
    r"(?<![\w-])(?=(?:(?-i:second|third|fourth)(?:\s+thing)?|второе|третье|четв[её]ртое|во-вторых|в-третьих)(?![\w-]))"
)
_COUNTING_STARTS = LazyRe(r"(?<![\w-])(?:(?-i:first)(?:\s+thing)?|первое|во-первых)(?![\w-])")


def corrected(text: str) -> str:
    """`text` with each self-correction applied (the taken-back words dropped, the marker too)."""
    if _COUNTING_STARTS.search(text) and _COUNTED_ALOUD.search(text):
        items = _COUNTED_ALOUD.split(text)
        if len(items) >= 2:
            return "".join(_item_corrected(item) for item in items)
    return _corrected_one(text)


_ITEM_LEAD = LazyRe(
    r"(?s)^(.*?(?<![\w-])(?:(?-i:first|second|third|fourth)(?:\s+thing(?:\s+is)?)?|первое|второе|третье|четв[её]ртое|"
    r"во-первых|во-вторых|в-третьих)(?![\w-])[,:]?\s*)"
)


def _item_corrected(item: str) -> str:
    lead = _ITEM_LEAD.match(item)
    head = lead.group(1) if lead else ""
    body = item[len(head) :]
    said = body.rstrip()
    return head + _corrected_one(said) + body[len(said) :]


# «переведи все сделки Олега в Lost, он уходит… а, стоп, только Acme Logistics pilot»: of all the ones a change was
# said of, only the one named stays; why they were changed, said between, goes with the rest
_ONLY_ONE_OF_ALL = LazyRe(
    r"(?is)^(?P<req>.*?\b(?:все|всех|всем|all|every|each)\b[^,;.…—–]*?)(?P<why>[,;][^,;—–]*?)?\s*[,.…—–-]*\s*"
    r"(?:(?:а|ah|oh|ой)[\s,.…]+)?(?P<mark>стоп|wait|нет|no|actually|хотя\s+нет)[\s,.…!—–-]+"
    r"(?:только|лишь|just|only)\s+(?P<one>[^,.;!?]{3,60}?)\s*[.!]?\s*$"
)


def _only_one_of_all(text: str) -> str:
    found = _ONLY_ONE_OF_ALL.match(text)
    if found is None or not found.group("why"):
        return text
    if any(is_imperative(w) for w in re.findall(r"[^\W\d_]+", found.group("why"))):
        return text  # (another request said between: not a reason)
    only = "только" if re.search(r"[а-яё]", text, re.I) else "only"
    return f"{found.group('req').rstrip()} — {found.group('mark')}, {only} {found.group('one')}"


def _corrected_one(text: str) -> str:
    text = _only_one_of_all(text)
    if _TAKEN_BACK_WHOLE.search(text):
        return text  # (the dialogue reads a request taken back; no word of it is a corrected value)
    joined = _DIGIT_GROUPS.sub("", text)
    if (
        joined != text
    ):  # «сумму 1 100 000, ой нет, 1 050 000»: each sum one word, so the one said last replaces it
        again = _corrected(joined)
        if again != joined:
            return again
    return _corrected(text)


# «Перенеси Alfa в Won, хотя нет — в Lost», "move it to Won, no wait, to Lost": the same preposition said again after
# the marker — the value after it replaces the one before
_SAME_PREPOSITION_AGAIN = LazyRe(
    r"(?i)(?<!\w)(?P<prep>в|во|на|to|into|as)\s+(?![A-Za-z]{1,10}-\d)[^\s,.…]+(?:\s+[^\s,.…]+)?[\s,.…]*(?:[—–-]\s*)?"
    r"(?:хотя\s+нет|ой\s+нет|а\s+нет|нет\s+стоп|no\s+wait|wait\s+no|actually(?:\s+no)?|sorry)[\s,.…:!—–-]+(?P=prep)\s+(?=\S)"
)


# «ромашку верни в квалификацию и заметку к ним кинь что … а нет заметку не надо только сделку», "Alfa-Leasing deal
# to Won, and close ENG-106 — ah no sorry, ENG-106 still open, leave it. only the deal": the part said last is taken
# back by naming what it was about again — that part goes, what was asked before it stays. The end is read first
# (anchored there), then the joint before the part: a pattern spanning the whole message backtracked for seconds on
# a long one.
_STOP = r"(?:(?:ah|oh|а|ой|no|нет|sorry|извини\w*|wait|стоп|actually|хотя|hmm|хм)[\s,.!…—–-]+)+"
_THING = r"заметк|задач|коммент|тикет|встреч|напоминан|note|task|comment|ticket|meeting|reminder|event|invite"
_ONLY_THE_REST = r"(?:[\s,.;—–-]+(?:только|лишь|just|only)\s+[^.!?]{1,40})?\s*[.!]?\s*$"
_THING_NOT_NEEDED = LazyRe(
    r"(?i)[\s,.…—–-]+"
    + _STOP
    + rf"(?:(?:the\s+)?(?P<thing>{_THING})\w*\s+(?:не\s+надо|не\s+нужн\w*|не\s+пиши|"
    r"не\s+заводи|не\s+создавай|не\s+ставь|is\s*n[o']t\s+needed|not\s+needed)"
    rf"|(?:no|skip\s+the|drop\s+the|forget\s+the|not\s+the)\s+(?P<thing2>{_THING})\w*)" + _ONLY_THE_REST
)
_RECORD_KEPT = LazyRe(
    r"(?i)\s*[—–,.…-]+\s*"
    + _STOP
    + r"(?P<id>[A-Za-z]{1,10}-\d+)\s+(?:is\s+)?(?:still\s+(?:open|needed|in\s+progress)|"
    r"ещё\s+нужн\w*|еще\s+нужн\w*|пока\s+нужн\w*|оста[её]тся|пусть\s+висит|stays(?:\s+open)?)[^.!?]{0,80}[.!]?"
    r"(?:\s*(?:only|just|только|лишь)\s+[^.!?]{1,40}[.!]?)?\s*$"
)
_JOINT = LazyRe(r"(?i)\s*(?:,\s*)?(?:\b(?:и|and|а\s+ещё|а\s+еще|also|plus)\b|,)\s+")


def _without_the_part_taken_back(text: str) -> str:
    """`text` up to the joint before the part its end takes back (see above), or `text` as it was."""
    end = _THING_NOT_NEEDED.search(text)
    if end is not None:
        stem, stop = (end["thing"] or end["thing2"]).lower(), r"[.!?]"
    else:
        end = _RECORD_KEPT.search(text)
        if end is None:
            return text
        stem, stop = end["id"].lower(), r"[.!?—–]"
    head = text[: end.start()]
    for joint in reversed(list(_JOINT.finditer(head))):
        part = head[joint.end() :]
        if re.search(stop, part):
            return text  # the part is the last sentence's, never one said before it
        if stem in part.lower() and joint.start() > 0:
            return head[: joint.start()].rstrip(" ,;—–-")
    return text


def _corrected(text: str) -> str:
    text = _without_the_part_taken_back(text)
    text = _SAME_PREPOSITION_AGAIN.sub(lambda m: f"{m['prep']} ", text)
    elsewhere = _PUT_IT_ELSEWHERE.match(text)
    if elsewhere:
        text = f"{elsewhere.group('head')}{elsewhere.group('where')}{elsewhere.group('rest')}"
    text = _only_at_place(text)
    dropped = _JUST_THE_FIELD.match(text) or _LAST_TAKEN_BACK.match(text)
    if dropped:
        text = dropped.group("keep").rstrip(" ,;")
    kept_as_is = _KEEP_IT_JUST.match(text) if not _JUST_ONE.search(text) else None
    moved_back = _MOVE_KEPT_JUST.match(text) if kept_as_is is None else None
    if moved_back:
        text = f"{moved_back.group('what').strip()}: {moved_back.group('rest')}".strip()
    if kept_as_is:  # "Assign ENG-102 to Oleg — no, keep Max on it, just move the due date …": that instead
        text = f"{kept_as_is.group('what')} {kept_as_is.group('rest')}".strip()
    text = _rather(_rather(text))
    # "… to qualification, no wait, no, straight to proposal": one take-back, said twice
    text = re.sub(r"(?i)\b(no\s+wait|wait\s+no|нет\s+стоп|нет\s+подожди)\s*,\s*(?:no|нет)\s*,", r"\1,", text)
    text = _skip_listed(text)
    only = _ONLY_THAT_ONE.match(text) if _JUST_ONE.search(text) else None
    listed = _ISSUE_ID.findall(only.group("list")) if only else []
    # ("…. actually leave 102 open, just 105": the one kept, said by its number)
    kept = next(
        (x for x in listed if only and x.upper().split("-")[-1] == only.group("one").upper().split("-")[-1]),
        None,
    )
    if only and kept and (only.group("one").isdigit() or kept.upper() == only.group("one").upper()):
        text = f"{only.group('head')}{kept}{only.group('mid')}".rstrip()
    for _ in range(5):  # a few corrections in one message at most; each pass applies the first
        changed = _apply_first(text)
        if changed is None:
            return text
        text = changed
    return text


# «…а, нет, забей, не надо», "…no, forget it": the request called off, nothing said instead
_CALLED_OFF = LazyRe(
    r"(?i)\b(?:забей|отбой|не\s+надо|не\s+нужно|отмена|отменяй|forget\s+it|never\s*mind|cancel|scratch\s+that|don'?t)\b"
)


def _apply_first(text: str) -> str | None:
    quoted = [q.span() for q in _QUOTED.finditer(text)]
    for marker in _MARKER.finditer(text):
        if any(a < marker.start() < b for a, b in quoted):
            continue  # «Jane: SSO via Okta, no SAML needed»: someone's words, quoted, are kept as said
        after = text[marker.end() :]
        if _NOT_AFTER.match(after):
            continue
        before = text[: marker.start()]
        after = _LEAD_ADVERB.sub(
            "", after
        )  # «…нет стоп сразу в выиграна»: what replaces it, said straight out
        strong = bool(marker.group("strong") or marker.group("framed"))
        # (weakly marked too: "to Won — sorry, not won yet, Negotiation" — the words taken back are named)
        not_that = _NOT_THAT.match(after)
        again = _NOT_THAT_AGAIN.match(after) if not_that is None else None
        if (
            again
        ):  # said again with its preposition: a correction, however it is marked — only those words change
            taken = before.lower().rfind(again.group(1).lower())
            instead = re.match(r"(\S+\s+\S+)(.*)$", after[again.end() :], re.S)
            if taken >= 0 and instead:
                kept = re.sub(
                    r"(?i)\s+(?:а|ой|и|но|and|but|oh)$", "", before[taken + len(again.group(1)) :].rstrip()
                )
                return f"{before[:taken]}{instead.group(1)}{kept}{instead.group(2)}".strip()
        listed = _ID_TAKEN_BACK.match(after) if strong else None
        if listed:  # "close ENG-101 and ENG-104, no wait, not 104 — close ENG-106 instead": that issue out
            said = re.search(
                rf"(?i)\s*(?:,|\band\b|\bи\b|&)?\s*\b[A-Za-z]{{1,10}}-{re.escape(listed.group(1).split('-')[-1])}\b",
                before,
            )
            if said and re.search(r"[A-Za-z]{1,10}-\d+", before[: said.start()]):
                rest = after[listed.end() :].strip(" ,;—–-")
                kept = (before[: said.start()] + before[said.end() :]).rstrip(" ,")
                return f"{kept}, {rest}" if rest else kept
        if not_that:  # "not pricing": the words taken back are named; what follows replaces them
            named = re.sub(r"(?i)\s+(?:yet|anymore|ещё|еще|пока)$", "", not_that.group(1))  # "not won yet"
            named = re.sub(r"(?i)\s+(?:it|them|его|её|ее|их)$", "", named)  # "don't delete it": the verb
            taken = before.lower().rfind(named.lower())
            rest = after[not_that.end() :]
            # ("…, they churned. Actually no — don't delete it, just mark it Lost": the first word is the verb
            # taken back even where the same word is said again)
            verb = _SAME_VERB.search(before) if _ONE_WORD.fullmatch(named) and named.isascii() else None
            if verb is None and _ONE_WORD.fullmatch(named):
                first_word = _SAME_VERB.search(before)
                # («Архивируй CS-15 — нет, не архивируй, просто закрой»: the very word, the request's first)
                if taken < 0 or (first_word is not None and first_word.start() == taken):
                    verb = first_word
            if verb and verb.group(0)[:4].lower() == named[:4].lower() and rest.strip():
                # «Закрой ENG-101… хотя нет, не закрывай, просто напиши в комментарии: …»: the verb taken back,
                # what it was said of stays
                kept = (before[: verb.start()] + before[verb.end() :]).strip(" ,.…")
                return f"{kept} {_LEAD_ADVERB.sub('', rest).strip()}".strip()
            said_after = before[taken + len(named) :] if taken >= 0 else ""
            if taken >= 0 and rest.strip() and said_after.lstrip().startswith(":"):
                # «заметку к Jane: ждёт договор, а нет, не к Jane, к компании Globex»: only where it goes changes
                content = _MARKED.sub("", said_after).rstrip(" ,.…—–-")
                return f"{before[:taken].rstrip()} {rest.strip(' ,.')}{content}"
            if taken < 0 and _ONE_WORD.fullmatch(named) and len(named) >= 5:
                # «онбординг для Ромашки... ой нет, не Ромашке, для Globex»: the same word, said in another case
                stem = re.search(rf"(?i)(?<!\w){re.escape(named[:-2])}\w{{0,3}}(?!\w)", before)
                if stem:
                    taken = stem.start()
                    lead = re.search(r"(?i)(?<!\w)(\w+)\s+$", before[:taken])
                    if lead and re.match(rf"(?i){re.escape(lead.group(1))}\s", rest.strip()):
                        taken = lead.start()  # (the preposition said again with the new one)
                    tail = before[stem.end() :]
                    if rest.strip() and not _MARKED.sub("", tail).strip(" ,.…—–-"):
                        return f"{before[:taken].rstrip()} {rest.strip()}"
            if taken >= 0 and rest.strip():
                article = re.search(r"(?i)\b(?:the|a|an)\s+$", before[:taken])
                taken = article.start() if article and re.match(r"(?i)(?:the|a|an)\s", rest) else taken
                return before[:taken].rstrip() + " " + rest
        reordered = _first_this_then(before, after)
        if reordered is not None:
            return reordered
        anew = _another_request(before, after) if strong or marker.group("weak") else None
        if anew is not None:
            return anew
        lead = re.match(r"(?i)(?:на|for)\s+", after)
        said_for = _DURATION.match(after, lead.end() if lead else 0) if strong or lead else None
        lasted = list(_DURATION.finditer(before[-60:])) if said_for else []
        if (
            said_for and lasted
        ):  # "block 2 hours … at 1pm — actually make it 90 minutes — title: …": how long, anew
            at = len(before) - len(before[-60:]) + lasted[-1].start()
            end = at + len(lasted[-1].group(0))
            rest = after[said_for.end() :]
            return f"{before[:at]}{said_for.group(0)}{before[end:]}{rest}"
        field = _FIELD_LAST.search(before) if strong else None
        value = _SHORT_VALUE.fullmatch(after) if field else None
        if field and value:
            return f"{before[: field.start('val')]}{value.group(1)}"
        named_again = _name_again(before, after)
        if named_again is not None:
            return named_again
        cut = _cut(before, after, weak=not strong)
        one_word = re.match(r"\s*([^\W\d_]{3,})(?=\s*(?:[,.;!]|$))", after)
        last_word = re.search(r"(?<![\w-])([^\W\d_]{3,})[\s.…]*(?:(?:а|ой|oh|uh|эм)[\s.…]*)?$", before)
        if (
            cut is None
            and marker.group("framed")
            and one_word
            and last_word
            and last_word.group(1).islower()
            and one_word.group(1).islower()
            and not _CALLED_OFF.search(after)
        ):  # «заведи задачи на продление... а, нет, онбординг»: the word said last is the one taken back
            cut = last_word.start()
        if cut is None and marker.group("framed") and "," in before:
            cut = before.rfind(",") + 1  # "сорок тысяч, нет, сорок пять тысяч": the part since the comma
        if cut is not None:
            if re.match(r"(?i)(?:the|a)\s", after) and _kind(
                after.split()[1] if len(after.split()) > 1 else ""
            ):
                after = after.split(None, 1)[1]  # "tenth no actually the eleventh"
            after = _with_scale_of(before[cut:], after)
            spliced = _one_value_again(before, cut, after)
            if spliced is not None:
                return spliced
            return f"{before[:cut].rstrip()} {after}".strip()
    return None


# "close ENG-101 no wait move it to review instead", «закрой ENG-101 ой нет переведи её в ревью»: another
# change of the same issue said in place of the first one
_CHANGE_VERB = LazyRe(
    r"(?i)^(?:just\s+|просто\s+|лучше\s+)?(?:move|put|set|assign|give|reassign|close|reopen|archive|comment|rename|"
    r"change|mark|bump|push|(?!не\b)[а-яё]{3,})\b"
)
_IT = LazyRe(r"(?i)\b(?:it|её|ее|его)\b")
_INSTEAD = LazyRe(r"(?i)[\s,]+(?:instead|вместо\s+этого)\s*[.!]*\s*$")


# «архивни ENG-103… хотя нет, сначала откомменть: дублирует ENG-101, потом архивни», "close ENG-7, wait, first
# comment …, then close it": nothing taken back — another change comes before it, of the same issue
_FIRST_THIS = LazyRe(
    r"(?i)^\s*(?:сначала|сперва|first(?:\s+of\s+all)?|before\s+that)\s*,?\s+(?P<this>.+?)"
    r"(?:(?:\s*,\s*|\s+)(?:а\s+|and\s+)?(?:потом|затем|после\s+этого|then|after\s+that)\s+(?P<then>[^,;]+?))?\s*[.!]*$"
)


def _first_this_then(before: str, after: str) -> str | None:
    first = _FIRST_THIS.match(after)
    ids = {m.upper() for m in _ISSUE_ID.findall(before)}
    if first is None or len(ids) != 1:
        return None
    (issue,) = ids
    this = first.group("this")
    head = this.split(":", 1)[0]
    if not _ISSUE_ID.search(head):  # (what it is said of is the issue of the request it goes before)
        verb = re.match(r"\s*(?:(?:please|пожалуйста)\s+)?[^\W\d_]+(?:\s+(?:on|to|в|на|к))?", this)
        if verb is None:
            return None
        this = f"{this[: verb.end()]} {issue}{this[verb.end() :]}"
    then = first.group("then") or before.strip(" ,.…—–-")
    return (
        f"{this.rstrip(' ,.')}, потом {then}" if not this.isascii() else f"{this.rstrip(' ,.')}, then {then}"
    )


def _another_request(before: str, after: str) -> str | None:
    ids = set(m.upper() for m in _ISSUE_ID.findall(before))
    verb = _CHANGE_VERB.match(after)
    if len(ids) != 1 or verb is None or not re.match(r"(?i)\s*[^\W\d_]{3,}\s+\S", before):
        return None
    said = verb.group(0).split()[-1]
    if not said.isascii() and not is_imperative(said):
        return None  # («…хотя нет пусть Олег»: no request of its own)
    (issue,) = ids
    if _ISSUE_ID.search(after):
        return _INSTEAD.sub("", after)
    if not _IT.search(after):
        return None
    return _INSTEAD.sub("", _IT.sub(issue, after, count=1))


_SCALED = LazyRe(
    r"(?i)\d[\d\s.,]*?\s*((?:тысяч\w*|тыс\.?|к|k|thousand|млн|миллион\w*|million|m)(?![\w])"
    r"(?:\s+(?:долл\w*|бакс\w*|usd|евро|eur|руб\w*|rub|dollars?|euros?)\b|\s*[$€₽])?)"
)  # («25 тысяч долларов ой нет на 30»: the currency said with the scale goes with it)
_BARE_NUMBER = LazyRe(
    r"(?i)^\s*(?:(?:на|до|в|to|at)\s+)?\d+(?:[.,]\d+)*"
    r"(?!\s*(?:тыс|к\b|k\b|thousand|млн|миллион|million|m\b|%|[:.]\d))(?!\s\d{3}\b)(?=\s*(?:[,.;!]|$|\s))"
)


def _with_scale_of(taken: str, after: str) -> str:
    """«900 тысяч, нет, стоп, 950»: the number said again keeps the scale of the one it replaces."""
    scale = _SCALED.search(taken)
    bare = _BARE_NUMBER.match(after)
    if scale is None or bare is None:
        return after
    return f"{after[: bare.end()]} {scale.group(1)}{after[bare.end() :]}"


def _one_value_again(before: str, cut: int, after: str) -> str | None:
    """ "on Thursday at 2pm, one hour. Actually make it 2:30", «в 12 на полчаса, нет, лучше в 13»: only a day or a
    time said again (with its preposition or without) — that one value changes, the rest stays as said."""
    taken, value = _WORD.match(before, cut), _WORD.match(after)
    if (
        taken
        and value
        and taken.group(0).lower() == value.group(0).lower()
        and taken.group(0).lower() in _ANCHORS
    ):
        taken, value = _WORD.search(before, taken.end()), _WORD.search(after, value.end())
    if (
        taken is None
        or value is None
        or _kind(taken.group(0)) not in ("time", "day", "number", "issue")
        or _kind(taken.group(0)) != _kind(value.group(0))
        or after[value.end() :].strip(" .…!,")  # (more said after it: the whole tail is said anew)
    ):
        return None
    tail = _MARKED.sub("", before[taken.end() :]).rstrip(
        " ,.…—–-"
    )  # ("… — wait, I meant ENG-103": the pause)
    return f"{before[: taken.start()]}{value.group(0).rstrip('.…')}{tail}".strip()


_TITLE_CASED = LazyRe(r"[A-ZА-ЯЁ][a-zа-яё]{2,}")


def _name_again(before: str, after: str) -> str | None:
    """«поставь Макса исполнителем на CS-15 нет стоп на Олега»: a person said again with a preposition that
    went before something else — only the person said last changes, the rest stays as said."""
    said = list(_WORD.finditer(after))
    if (
        len(said) == 1
        and _TITLE_CASED.fullmatch(said[0].group(0).rstrip(".…"))
        and _kind(said[0].group(0)) == "name"
        and not after[said[0].end() :].strip(" .…!,")
    ):
        # "an issue for Oleg to update the SSL cert before Friday — actually make it Max": a name alone, and
        # one name said before it (not the first word, a day or an abbreviation): that one replaced
        names = [
            w
            for w in _WORD.finditer(before)
            if w.start() > 0 and _TITLE_CASED.fullmatch(w.group(0)) and _kind(w.group(0)) == "name"
        ]
        if len(names) == 1:
            one = names[0]
            return f"{before[: one.start()]}{said[0].group(0).rstrip('.…')}{before[one.end() :]}".strip(
                " ,.…—–-"
            )
        return None
    if len(said) < 2 or said[0].group(0).lower() not in _ANCHORS or _kind(said[1].group(0)) != "name":
        return None
    if after[said[1].end() :].strip(" .…!,"):
        return None  # (more said after it: read by the rest)
    words = list(_WORD.finditer(before))[-_LOOKBACK:]
    anchor = said[0].group(0).lower()
    if any(
        w.group(0).lower() == anchor and (n := _WORD.search(before, w.end())) and _kind(n.group(0)) == "name"
        for w in words
    ):
        return None  # («на Олега, нет, на Макса»: the same preposition before a name — read by `_cut`)
    names = [w for w in words if _kind(w.group(0)) == "name" and w.start() > 0]
    if len(names) != 1:
        return None
    one = names[0]
    kept = _MARKED.sub("", before[one.end() :]).rstrip(" ,.…—–-")
    return f"{before[: one.start()]}{said[1].group(0)}{kept}".strip()


def _cut(before: str, after: str, *, weak: bool) -> int | None:
    """Where the words taken back start in `before`, judged by what replaces them (`after`)."""
    words = list(_WORD.finditer(before))[-_LOOKBACK:]
    said = list(_WORD.finditer(after))
    if not words or not said:
        return None
    first = said[0].group(0)
    if first.lower() in _ANCHORS:  # «на Олега, нет, на Макса»: back to the same preposition
        wanted = _kind(said[1].group(0)) if len(said) > 1 else None
        same = [w for w in words if w.group(0).lower() == first.lower()]
        if wanted is not None and same:
            # («поставь Макса исполнителем на CS-15 нет стоп на Олега»: "на" before a name, not before the issue)
            fits = [
                w
                for w in same
                if (n := _WORD.search(before, w.end())) is None or _kind(n.group(0)) in (wanted, None)
            ]
            return fits[-1].start() if fits else None
        return same[-1].start() if same else None
    if first.lower() in ("the", "a") and len(said) > 1:
        first = said[1].group(0)
    again = [w for w in words if w.group(0).lower() == first.lower()]
    if again and len(first) > 2 and first.isalpha() and not first[:1].isupper():
        return again[-1].start()  # "close ENG-101, no wait, close ENG-102": the request said again, anew
    kind = _kind(first)
    if kind is None and _NEXT.fullmatch(first) and len(said) > 1 and _kind(said[1].group(0)) == "day":
        kind = "day"  # "due Friday — sorry, next Monday"
    if kind is None:
        return None
    if kind == "name" and weak:  # "Oleg no Max": a bare "no" between names, only right after the first
        return words[-1].start() if _kind(words[-1].group(0)) == "name" else None
    return _start_of_kind(before, words, kind)


def _start_of_kind(before: str, words: list[re.Match[str]], kind: str) -> int | None:
    """Where the last run of words of `kind` starts in `before` (within the lookback)."""
    start = None
    for w in reversed(words):
        if _kind(w.group(0)) == kind or start is not None and kind == "number" and _NUMBER.match(w.group(0)):
            start = w.start()
            continue
        if start is not None:
            break
    return start
