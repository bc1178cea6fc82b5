"""A piece said after a request that tells why, not what: it is no request of its own."""

from __future__ import annotations

import re

from planner._lazy_re import LazyRe
from planner.analysis._clause import Clause, verb_count
from planner.numbers import spoken_numbers
from planner.text import is_past

# a piece after a request that says why, not what: "she left Acme", "dupe of DES-7", «созвон прошел»,
# «редизайн логина больше не нужен", "they asked for a proposal", "because …", «т.к. …»
_REASON = LazyRe(
    r"(?i)^(?:(?:так\s+как|потому\s+что|т\.\s?к\.|because|since|cause|coz)\b|"
    r"(?:she|he|they|it|we|they're|it's|she's|he's|we're|он|она|они|мы|оно)\s+(?!will\b|should\b|need\b|must\b)\S|"
    r"(?:dupe|duplicate|дубль|дубликат)\b|(?:the|this|that|these|those|our|their)\s+(?:\S+\s+){0,4}"
    r"(?:is|are|was|were|has|have|had)\b|"
    r".*\b(?:больше\s+не\s+нуж\w*|уже\s+не\s+нуж\w*|no\s+longer\s+(?:needed|relevant)|not\s+needed)\b)"
)
# "legal asked us to resend pricing", «юристы попросили …»: a party of the deal, said in lower case
_A_PARTY = (
    r"(?i:legal|procurement|finance|security|management|the\s+(?:client|customer|board|legal\s+team)|"
    r"клиент|юристы|бухгалтерия|финансисты|руководство|безопасники)"
)
_NAMED_REASON = LazyRe(
    rf"^(?:[A-ZА-ЯЁ][\w-]+(?:\s+[A-ZА-ЯЁ][\w-]+)?|{_A_PARTY})\s+(?:asked|said|says|wants|wanted|needs|is|was|left|went|called|moved|"
    r"pushed|changed|agreed|confirmed|approved|declined|cancell?ed|bumped|"
    r"mentioned|просил\w*|попросил\w*|хочет|хотел\w*|говорит|сказал\w*|уходит|ушл[аи]|уш[её]л|болеет|заболел\w*|"
    r"звонил\w*|написал\w*|в\s+отпуске)\b"
)
_CARRIES = LazyRe(r"(?i)\d|срочн|urgent|high|low|приоритет|priority|высок|низк|\b(?:to|в|на|into)\s+\S+$")


# said after a question, why it is asked: "not sure where to put things", «не понимаю, куда класть задачи»
WHY_I_ASK = LazyRe(
    r"(?i)^(?:(?:я\s+)?не\s+(?:понимаю|знаю|уверен\w*|разобрал\w*)|(?:i\s+)?(?:don'?t|do\s+not)\s+(?:know|get|understand)|"
    r"not\s+sure|(?:i'?m\s+)?trying\s+to|(?:i\s+)?just\s+(?:want|need)\s+to\s+(?:know|understand|plan)|хочу\s+понять|"
    r"пытаюсь|(?:i'?m\s+)?new\s+here|я\s+(?:тут\s+)?нов\w*)\b"
)

STANDING_RULE = LazyRe(
    r"(?i)^(?:(?:i|we)\s+(?:was|were|'ve\s+been|have\s+been)\s+told|(?:мне|нам)\s+(?:сказали|объяснили))\s+(?:to\s+|что\s+)?"
    r"(?:always\s+|всегда\s+|нужно\s+всегда\s+)?(?:keep|всегда|держать|обновлять)\b[^.!?]*$"
)


_PASSIVE = LazyRe(
    r"(?i)^(?:the|our|their|his|her|its|this|that|the\s+\w+'s)\s+(?:[\w-]+\s+){0,4}?"
    r"(?:is|are|was|were|has\s+been|have\s+been)\s+(?:being\s+|already\s+|now\s+)?[a-z]+ed\b"
)


AWAY = LazyRe(
    r"(?i)^(?:(?:he|she|they|i|(?-i:[A-Z][\w-]+))(?:'s|'re|'m|\s+is|\s+am|\s+are|\s+will\s+be)\s+(?:ooo|out|off|away|sick|"
    r"travell?ing|swamped|slammed|overloaded|busy|buried|underwater|maxed\s+out|leaving|quitting|moving\s+on|"
    r"on\s+(?:vacation|leave|holiday|pto|parental\s+leave))|(?:я|он|она|они|(?-i:[А-ЯЁ][а-яё]+))\s+"
    r"(?:(?:со?|до|уже|ещё|еще|теперь|завтра|сегодня)\s+(?:[а-яё]+\s+)?)?(?:в\s+отпуске|"
    r"на\s+больничном|болеет|болеют|уезжа\w+|уходит|увольняется|переходит|в\s+командировке|перегружен\w*|завален\w*|"
    r"занят\w*))\b"
    # "…, I can't make the Acme onboarding call on Monday": why it is handed over, not a second request
    r"|^(?:i|he|she|they|(?-i:[A-Z][\w-]+))\s+(?:can'?t|cannot|won'?t|couldn'?t|will\s+not)\s+(?:make|attend|join|do|cover|take|"
    r"get\s+to|handle|finish)\b"  # ("Unassign ENG-102, Max won't get to it this sprint")
    r"|^(?:я\s+)?не\s+(?:смогу|успеваю|успею)\b"
    # "…; starting the login redesign today", «…, займусь на следующей неделе»: what the person will do
    r"|^(?:(?:i'?m|we'?re|i\s+am|we\s+are)\s+)?(?:starting|beginning|working\s+on|picking\s+(?:it\s+)?up)\b"
    r"|^(?:(?:я|мы)\s+)?(?:начинаю|начну|займусь|займёмся|займемся|беру\s+в\s+работу|возьмусь)\b"
)


AWAY_FIRST = LazyRe(
    r"^\s*([^,;:—–.!?]{3,60}?)\s*(?:[,;.!]|\s[—–-])\s*(?:so\s+|поэтому\s+|так\s+что\s+)?(?=\S)"
)
ASKS_AFTER_A_DASH = LazyRe(
    r"(?i)\s[—–-]\s+(?:(?:and|и|also|также|pls|please)\s+)*(?:drop|add|put|leave|post|create|make|set|move|close|comment|"
    r"note|log|assign|добавь|закинь|оставь|запиши|создай|заведи|переведи|закрой|назначь|прокомментируй)\b"
)
DOING_NOW = LazyRe(
    r"(?i)^(?:we|they|i|he|she)(?:'re|'m|'s|\s+are|\s+am|\s+is)\s+[a-z]+ing\b"
    # «…, будем разбирать на планёрке», «…, сейчас разбираем»: what we are to do with them, why the change
    r"|^(?:(?:мы|сейчас|потом|завтра)\s+)?(?:будем|будут|собираемся)\s+[а-яё]+(?:ть|ти)\b"
)


_IRREGULAR_PAST = (
    "sent|said|told|gave|took|made|wrote|paid|sold|bought|left|got|went|came|brought|found|built|did|had|saw|"
    "spoke|forgot|chose|met|ran|began|broke|fell|felt|heard|kept|meant|sat|understood|"
    "threw|drove|flew|hung|held|lent|led|quit|rang|rode|rose|sang|sank|slept|stood|stole|swore|taught|thought|woke|won|lost"
)


_WE_DID = LazyRe(
    r"(?i)^(?:we|they|i|мы|они|я)\s+(?:just\s+|already\s+|finally\s+|today\s+|yesterday\s+|сегодня\s+|вчера\s+|уже\s+)?"
    r"(?:had|met|talked|spoke|got|went|did|провели|поговорили|созвонились|встретились|обсудили)\b"
)


# "I don't want anything floating around without a deadline going into December", «не хочу, чтобы …»: why
_NOT_WANTED = LazyRe(
    r"(?i)^(?:i|we)\s+(?:really\s+)?(?:don'?t|do\s+not)\s+want\b|^(?:я\s+|мы\s+)?не\s+(?:хочу|хотим)\b"
)


def is_reason(piece: str, reading: Clause) -> bool:
    """The piece explains the request before it and carries nothing of its own (no date, number,
    priority or destination): a reason, which must neither be read as a request nor change one."""
    said = piece.strip(" ,.;!")
    bare = re.sub(r"(?i)\b[a-z]{1,10}-\d+\b", " ", said)  # "dupe of DES-7": the issue it repeats
    bare = spoken_numbers(bare.lower())  # "the amount is now fifty five thousand" carries a number
    told = bool(_PASSIVE.match(said))  # "the Acme call is being scheduled": what is happening, not asked
    # "…, Apple moved the deadline up": someone did something (a past verb after a name): news, not asked
    told = told or bool(
        re.match(
            rf"^(?!(?:Also|Then|Please|Pls|And|Just|So|Now|Plus|Maybe|Still|Again|Next|First|Finally)\b)"
            rf"(?:[A-Z][\w-]+(?:\s+[A-Z][\w-]+)?|{_A_PARTY})\s+(?:[a-z]+ed|{_IRREGULAR_PAST})\b",
            said,
        )
    )  # ("…, Jane sent everything")
    # "…, the work moved under ENG-105": something said of a thing, in the past — why, not a second change
    # ("the ones that Max reported" says which ones: a filter, never a reason)
    told = told or bool(
        re.match(
            r"(?i)^(?:the|this|our|their|its)\s+(?!ones?\b)(?:(?!that\b|which\b|who\b)[a-z-]+\s+){0,3}?[a-z]+ed\b",
            said,
        )
    )
    # "…, we had a good call today", «…, мы сегодня созвонились»: what we did, whenever it was — why
    we_did = bool(_WE_DID.match(said)) and not re.search(r"\d", bare)
    if ASKS_AFTER_A_DASH.search(said):
        return False  # "…, PR is up: github.com/… — drop the link in a comment too": a request of its own follows
    if AWAY.match(said) or _NOT_WANTED.match(said):
        return True  # "…, he's ooo next week", «…, она в отпуске до пятницы»: why, though it names a day
    if DOING_NOW.match(said) and not re.search(r"\d", bare) and not reading.moment.day:
        return True  # "…, we're resending terms to everyone": what they are doing, why the change
    if we_did and not verb_count(reading):
        return True
    if not said or verb_count(reading) and not told or reading.moment.day or reading.moment.at:
        return False
    if _NAMED_REASON.match(said) and not re.search(r"\d", bare):
        return True  # "…, Анна уходит в отпуск", "… — Li Wei asked for a quote": who did what, why
    if told and not re.search(r"\d", bare):
        return True  # "…, the work moved under ENG-105": what happened, why (the issue named is no target)
    if _CARRIES.search(bare):
        return False
    if said.endswith("?") or piece.rstrip().endswith("?"):
        return False  # «…, оно сразу закроется?»: a question, and the message with it
    words = said.split()
    reported = len(words) <= 6 and any(is_past(w) for w in words)  # «созвон прошел», «они запросили КП»
    return bool(_REASON.match(said) or reported and not reading.identifiers)
