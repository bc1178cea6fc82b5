"""Words that are not requests, and how a conversation goes (seed 004): yes and no to a pending draft,
an answer to an open question by position or by words ("the second one", «вторую», «второй вариант»,
"last one"), "отмена"/"cancel" leaving the question, "send it anyway" after an unknown outcome,
greetings, thanks, and things this server does not do — each with a short true answer instead of a
routing question."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from planner._lazy_re import LazyRe
from planner.analysis import CUES, STATE_NOW_IF
from planner.text import IN_QUOTES, ISSUE_KEY, informal, is_imperative, is_infinitive, lemmas, norm

__all__ = [
    "OTHER_SYSTEM", "SmallTalk", "asks_how", "asks_in_a_sentence", "but_do", "checked_now", "relays", "is_cancel", "not_asked", "is_no", "is_send_anyway", "is_yes", "looks_like_request", "reported_then_asked",
    "KEEP_AS_IS", "position_of", "small_talk", "without_polite_if",
]  # fmt: skip

_ORDINALS: dict[str, int] = {
    "перв": 1, "втор": 2, "трет": 3, "четверт": 4, "четвёрт": 4, "пят": 5, "последн": -1,
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
    "fifth": 5, "5th": 5, "last": -1,
}  # fmt: skip
# a Russian ordinal is its stem and an adjective ending ("пятницу" and "четверг" are not ordinals)
_RU_ORDINAL = LazyRe(
    r"^(перв|втор|трет|четв[её]рт|пят|последн)(ый|ой|ий|ая|яя|ую|юю|ое|ее|ого|его|ей|ья|ью|ье|ьего|ьей|ые|ие)$"
)
# words that may stand around an ordinal without changing it: "the second one", «второй вариант»
_FILLER = frozenset(
    """the one option choice number item variant please pick choose take i want id like
    вариант варианта пункт номер давай выбираю выбери беру возьми мне нужен нужна нужно нужную
    этот эту это тот ту та сделку сделка задачу задача контакт компанию запись пожалуйста ну а""".split()
)
_CANCEL = frozenset(
    {"отмена", "отмени", "отменить", "отменяй", "cancel", "never mind", "nevermind", "forget it", "забудь",
     "не надо", "/cancel", "стоп", "stop"}
)  # fmt: skip


# "как отметить задачу выполненной?", "можно ли создать задачу без команды?", "how do I close CS-12?",
# "I think I should create an issue …? not sure which team": the person asks how (or whether), so
# what they describe is offered, not drafted
_HOW = LazyRe(
    r"(?i)(?:^|[\s,.!?:;(«\"])(?:как(?:\s+(?:мне|бы|же|тут|здесь|теперь|в\s+\S+|через\s+\S+))?\s+(?!будто|раз|только|можно\s+скорее)"
    r"[а-яё]+(?:ть|ти|чь)(?:ся|сь)?\b|можно\s+ли|а\s+можно|могу\s+ли|получится\s+ли|реально\s+ли|"
    r"how\s+(?:do|can|could|should|would)\s+(?:i|we)\b|how\s+to\b|is\s+it\s+possible|can\s+i\b|"
    r"am\s+i\s+able|i\s+think\s+i\s+should|should\s+i\b|not\s+sure\s+(?:which|what|who|how|where|if))"
)


# "don't close ENG-101 yet", «не переводи пока Альфу в Won», "no need to open an issue": told not to
_NEGATED = LazyRe(
    r"(?i)^\s*(?:(?:пока|ну|so|but|и|а|please|pls|пожалуйста|hey|ok|okay)[,\s]+)*"
    r"(?:(?:don'?t|do\s+not|never)(?!\s+forget\b)|no\s+need\s+to|there'?s\s+no\s+need\s+to|let'?s\s+not|hold\s+off\s+on|"
    r"не\s+надо|не\s+нужно|не\s+стоит|не\s+(?:пока\s+)?(?!забу|забыв)([а-яё]+))\b"
)
# "if Globex signs next week we'd move the pilot to won", «если Ромашка не подпишет…, придётся …»
_CONDITIONAL = LazyRe(
    r"(?i)^\s*(?:(?:ну|so|and|и|а)[,\s]+)?(?:if|если|в\s+случае|in\s+case|once|как\s+только)\b"
    # «Задачи по онбордингу заведём, как только они подпишут», "…, as soon as they sign": a condition for later
    r"|[,—–-]\s*(?:как\s+только|as\s+soon\s+as|once\s+(?:they|we|it)|когда\s+(?:они\s+)?подпиш\w*)\b"
)
# a condition inside a clause that starts with a record: «ENG-106 если ещё не закрыта — …»
_INNER_IF = LazyRe(r"(?i)^\s*[A-Z]{1,10}-\d+\s*,?\s+(?:если|if)\b")


# "dont move Globex yet, just add a note …", «не двигай, но добавь заметку», "…, instead close it"
_BUT = LazyRe(
    r"(?i)(?:^|[,;.—–]\s*|\s)(?:just|only|simply|просто|но|а|but|instead|вместо\s+этого|лучше)\s+"
    r"(?:please\s+|pls\s+|пожалуйста\s+)?([^\W\d_]+)"
)


_LEAVE = frozenset({"leave", "keep", "оставь", "оставить", "оставьте"})  # "just leave it": as it is


def but_do(text: str) -> bool:
    """After a "don't", a contrast that plainly asks for something else."""
    for m in _BUT.finditer(text):
        verb = norm(m.group(1))
        if verb in _VERBS - _LEAVE and (verb.isascii() or is_imperative(verb)):
            return True
    return False


def checked_now(text: str) -> str | None:
    """A condition on how things stand now, followed by what to do: the condition's words."""
    cond = STATE_NOW_IF.match(text)
    if cond is None:
        return None
    if _piece_asks(text[cond.end() :]):
        return cond.group(0)
    # "if Acme Corp license is still in Qualification move it to Proposal": no comma, the verb ends it
    for m in re.finditer(r"[^\W\d_]+", cond.group(0)):
        verb = norm(m.group(0))
        if (
            m.start() > 0
            and verb in _VERBS
            and (verb.isascii() or is_imperative(verb))
            and _IT_AFTER.match(cond.group(0), m.end())
        ):
            return cond.group(0)[: m.start()].rstrip()
    return None


_IT_AFTER = LazyRe(r"(?i)\s+(?:it|them|her|him|её|ее|его|их|ей|ему)\b")


# «Если не трудно, заведите …», "if you don't mind, close …": courtesy, not a condition for later
_POLITE_IF = LazyRe(
    r"(?i)(?<![\w-])(?:если\s+(?:вам\s+|тебе\s+)?не\s+(?:трудно|сложно|затруднит)|если\s+(?:вас|тебя)\s+не\s+затруднит|"
    r"если\s+можно|if\s+(?:it'?s\s+)?(?:possible|not\s+too\s+much\s+(?:trouble|bother))|"
    r"if\s+you\s+(?:can|could|don'?t\s+mind|wouldn'?t\s+mind)(?![\w'’]))\s*,\s*"
    # "Once you have a moment, …", "when you get a chance …", «как будет минутка, …»: when it suits, not a condition
    r"|(?<![\w-])(?:(?:once|when(?:ever)?)\s+you\s+(?:have|get|find)\s+(?:a\s+)?(?:moment|minute|sec(?:ond)?|chance|"
    r"spare\s+minute|(?:some\s+)?time)|when(?:ever)?\s+you\s+can|(?:как|когда)\s+(?:будет|появится|найдётся|найдется)\s+"
    r"(?:минутк[аи]|минута|время|возможность|секунд[аы])|как\s+освободишься|когда\s+освободишься)\s*[,—–-]?\s*"
)
# «Мария Соколова написала, что готова созвониться», "Max said he closed ENG-104": someone else's words
_REPORTED = LazyRe(
    r"^\s*(?:(?i:fyi|btw|кстати|к\s+сведению|so|ну)[,:\s]+)?(?!(?i:i|we|я|мы)\b)[^\W\d_][\w-]+(?:\s+[A-ZА-ЯЁ][\w-]+)?\s+(?:(?:уже|тут|вчера|сегодня|just|already)\s+)?"
    r"(?:написал\w*|сказал\w*|говорит|пишет|сообщил\w*|передал\w*|said|says|wrote|writes|told\s+me|mentioned)\b"
)
# «Я не уверена, но вроде Ромашка хочет отказаться…», "I think the Globex pilot is basically won?? not
# sure": news the person doubts, not a change they ask for (a hedged request — «наверное, надо бы
# завести задачу» — says what to do, and is one)
_UNSURE = LazyRe(
    r"(?i)^\s*(?:(?:ну|so|and|и|а|hmm+|хм+|um+|эм+)[,\s]+)?(?:я\s+)?(?:не\s+уверен\w*|вроде(?:\s+бы)?|кажется|"
    r"мне\s+кажется|похоже|наверное|возможно|может\s+быть|i'?m\s+not\s+sure|not\s+sure|i\s+think|i\s+guess|"
    r"maybe|probably|apparently|seems?\s+like|looks\s+like)\b|\b(?:not\s+sure|не\s+уверен\w*)\s*[.!?…]*\s*$"
)
# a doubt said inside news: «договор вроде подписан», "they apparently signed", "Globex signed I think"
_HEDGED_NEWS = LazyRe(
    r"(?i)\b(?:вроде(?:\s+бы)?|кажется|похоже|видимо|скорее\s+всего|apparently|seemingly|"
    r"supposedly|i\s+think|i\s+guess|i\s+believe|(?:probably|likely)\s+(?:going\s+to|gonna|to|will)|might\s+\w+|"
    # "globex is going to sign next week": what will happen, told
    r"(?:is|are|'s|'re)\s+(?:going|planning)\s+to)\b"
)
_WANTS_IT_DONE = LazyRe(
    r"(?i)\b(?:надо|нужно|стоит|пора|хорошо\s+бы|было\s+бы\s+(?:неплохо|хорошо)|should|need\s+to|let'?s|have\s+to|"
    r"must|makes?\s+sense|(?:'?d|would)\s+(?:make\s+sense|be\s+(?:good|great|nice|worth))|worth)\b"
)
# the choice is not made yet, whatever else is said: "I wonder whether we ought to …", "let me check with
# Anna first", «…или на Анну… хз, потом решу», «сначала уточню у Олега»
_UNDECIDED = LazyRe(
    r"(?i)\bi\s+wonder\s+(?:whether|if)\b|\binteresting\s+whether\b|\bинтересно,?\s+(?:стоит\s+ли|надо\s+ли|нужно\s+ли)\b"
    r"|\b(?:let\s+me|i'?ll|i\s+will|i\s+need\s+to|gotta)\s+(?:double-?\s?)?(?:check|confirm|ask|talk|sync|verify)\b[^.!?]*\bfirst\b"
    r"|\b(?:потом|позже|завтра)\s+(?:решу|решим|скажу|уточню)\b|\bещ[её]\s+не\s+решил\w*|\bхз\b"
    r"|\bсначала\s+(?:уточню|спрошу|проверю|согласую|узнаю)\b|\b(?:i'?ll|i\s+will|let\s+me)\s+decide\s+later\b"
    r"|\bhaven'?t\s+decided\b|\bnot\s+decided\s+yet\b"
    # "we're probably going to close ENG-101 tomorrow": a plan that may happen, not one asked of me now
    r"|\b(?:we|i)(?:'re|'m|\s+are|\s+am|'ll|\s+will)\s+(?:probably|likely|maybe)\b"
    r"|\b(?:мы|я)\s+(?:наверное|скорее\s+всего|возможно),?\s+(?:будем|буду|собира\w+)\b"
    # «ну может удалить альфу хотя не знаю подумаю ещё», "…, not sure yet. Let me sleep on it"
    r"|\bхотя\s+не\s+знаю\b|\bподумаю\b|\b(?:надо|нужно)\s+(?:ещё\s+|еще\s+)?подумать\b|\bsleep\s+on\s+it\b"
    r"|\bnot\s+sure\s+yet\b|\b(?:i'?m|i\s+am)\s+(?:just\s+)?thinking\s+(?:maybe|about|of|whether)\b"
    # «а стоит ли переводить глобекс в выиграна …»: whether to, asked; nothing decided
    r"|\b(?:стоит|надо|нужно)\s+ли\b"
    # «переведи альфу в вон ну или в лост не знаю пока», "… or lost, not sure": undecided as it ends
    r"|\b(?:не\s+знаю|хз|не\s+уверен\w*)(?:\s+(?:пока|ещё|еще))?\s*[.!…]*\s*$"
    r"|\b(?:not\s+sure|i\s+don'?t\s+know|idk|dunno)(?:\s+yet)?\s*[.!…]*\s*$"
)
_ASKING_ME = LazyRe(
    r"(?i)\b(?:please|pls|пожалуйста|прошу|can\s+you|could\s+you|можешь|можете|сделай|поставь|let'?s)\b"
)


_VERBS = frozenset().union(
    *(CUES[c] for c in ("create", "put", "move", "complete", "delete", "archive", "comment", "assign", "rename",
                        "note_verb", "schedule", "remind"))
) | {"hand", "file", "log", "mark", "set", "give", "open", "make", "book", "note", "block", "bump", "push", "switch"}  # fmt: skip


# "Max says:", "Oleg asked me to", "I was told to", «Олег просит», «мне сказали»: whose instruction it is
_RELAY = LazyRe(
    r"(?i)^\s*(?:(?:sorry|hi|hey|hello|ok|okay|so|good\s+(?:morning|afternoon|evening)|привет|здравствуйте|"
    r"добрый\s+(?:день|вечер)|доброе\s+утро)[,!.\s]+)*(?:"
    r"(?:my\s+|our\s+|the\s+)?(?:manager|boss|lead|team\s+lead|[A-ZА-ЯЁ][\w-]+)(?:\s+[A-Z][\w-]+)?\s+"
    r"(?:says|said|wrote|writes|asked\s+(?:me|us)|asks\s+(?:me|us)|wants\s+(?:me|us)|told\s+(?:me|us)|"
    r"сказал\w*|написал\w*|просит|попросил\w*|велел\w*)(?:\s+(?:that\s+)?(?:i|we)\s+should)?"
    r"|(?:i|we)\s+(?:was|were|have\s+been|'ve\s+been|got)\s+(?:told|asked)"
    r"|(?:мне|нам)\s+(?:сказали|велели|попросили|поручили)|(?:сказали|велели|попросили|поручили)(?:\s+мне|\s+нам)?"
    r"|(?:my\s+|our\s+|the\s+)?(?:boss|manager|шеф|босс|начальни\w+|руководител\w+)(?=\s*:)"  # «Шеф: «…». Сделай»
    r")(?:\s*(?::|[—–-])\s*|\s+to\s+|\s+)"
)


# "…, please do it", "…, please do that. Thanks!", «…, спасибо»: courtesy after the request, no part of it
_COURTESY_TAIL = LazyRe(
    r"(?i)(?:[\s,.;!]+(?:(?:and\s+)?(?:please|pls|plz)\s+do(?:\s+(?:it|that|so|this))?(?:\s+for\s+me)?|please|pls|"
    r"thanks?(?:\s+(?:you|a\s+lot|in\s+advance))?|thx|ty|спасибо(?:\s+большое)?|сделай(?:те)?\s*(?:это\s*)?,?\s*пожалуйста|"
    r"пожалуйста|"
    # «…, если не сложно», "…, if it's not too much trouble": a courtesy, no words of the request
    r"если\s+(?:вам\s+|тебе\s+)?не\s+(?:сложно|трудно)|if\s+(?:it'?s|it\s+is)\s+not\s+too\s+much\s+(?:trouble|bother)|"
    r"if\s+you\s+(?:don'?t|do\s+not)\s+mind|"
    # "… sorry if this is the wrong way to do it!", «извините, если не так»: an apology, not a request
    r"(?:sorry|извините|простите)(?:,?\s+(?:if|если)\b[^.!?]*)?))+[\s.!)]*$"
)


# a last sentence that only apologises or worries ("Sorry, I don't know if we have them already")
_APOLOGY_TAIL = LazyRe(r"(?i)[.!?…]\s+(?:sorry|извините|простите|сорри)\b[^.!?]*[.!?…]*\s*$")
_GREETING_HEAD = LazyRe(
    r"(?i)^\s*(?:hi|hello|hey|good\s+(?:morning|afternoon|evening)|привет|здравствуй(?:те)?|добрый\s+(?:день|вечер)|"
    r"доброе\s+утро)(?:\s+(?:there|team|all|всем))?\s*[!,.]+\s*(?=\S)"
)


_FILLER_HEAD = LazyRe(
    # («ну всё альфа лизинг слились …»: "that's it", said first, is no "all" of anything)
    r"(?i)^\s*(?:(?:um+|uh+|erm|hmm+|э+|эм+|ммм*|ну\s+всё(?=[,.!…]|\s+(?!что\b|это\b|в\b|на\b|по\b|из\b|с\b|баг|задач|сделк|тикет|issue|открыт|закрыт|мо[иеё]|наш|его|её)[^\W\d_])|ну|короче|слушай|okay\s+so|ok\s+so|so|well|like)(?:[,.…!]+\s*|\s+)|"
    # "sorry, dumb question — …", «извините, глупый вопрос: …», "quick question:": the question comes next
    r"(?:(?:sorry|извините|простите)[,\s]+)?(?:(?:a|one)\s+)?(?:dumb|stupid|silly|quick|naive|глуп\w+|быстр\w+|наивн\w+)\s+"
    r"(?:question|вопрос)\s*(?:[—–:,.-]+\s*|\s+)|(?:sorry|извините|простите)\s*(?:[—–:,.-]+\s*))+"
)


_TELL_ME = LazyRe(
    r"(?i)^\s*(?:(?:просто|just|а|and)\s+|(?:будьте|будь)\s+(?:добры|добр|добра|любезны)\s*,?\s*)?"
    r"(?:напомни(?:те)?|подскажи(?:те)?|скажи(?:те)?|remind\s+me|tell\s+me)(?:\s+(?:мне|please|пожалуйста))?"
    r"\s*,?\s*(?=(?:(?:у|в|на|по|с)\s+)?(?:какие|какой|какая|каких|каким|что|когда|кто|кого|где|сколько|what'?s|what|which|when'?s|when|who'?s|who|where|"
    r"how)\b)"
)


def without_courtesy(text: str) -> str:
    """The request without the greeting said before it and the courtesy said after it."""
    tail = _COURTESY_TAIL.search(text)
    text = text[: tail.start()] if tail and tail.start() > 0 else text
    sorry = _APOLOGY_TAIL.search(text)  # "… Sorry, I don't know if we already have them somewhere"
    if (
        sorry and sorry.start() > 0 and not _asks_something(sorry.group(0))
    ):  # "… Sorry, close ENG-102 instead"
        text = text[: sorry.start() + 1]
    head = _GREETING_HEAD.match(text)
    text = text[head.end() :] if head else text
    filler = _FILLER_HEAD.match(text)  # "um who owns …", «эээ когда срок …»: the question starts after
    text = text[filler.end() :] if filler and filler.end() < len(text) else text
    tell = _TELL_ME.match(text)  # «напомни, какие задачи …», "remind me what's due": the question itself
    return text[tell.end() :] if tell else text


def _asks_something(words: str) -> bool:
    """A command verb among the words (English, or a Russian imperative)."""
    return any(
        (w := norm(x)) in _VERBS and (w.isascii() or is_imperative(w))
        for x in re.findall(r"[^\W\d_]+", words)
    )


_QUOTED_REQUEST = LazyRe(
    r"(?is)\s*(?:\"(?P<q1>[^\"]+)\"|'(?P<q2>[^']+)'|«(?P<q3>[^«»]+)»|“(?P<q4>[^“”]+)”)\s*[.!]?"
    r"(?P<doit>\s*(?:(?:please\s+)?(?:do\s+(?:it|that|this)|go\s+ahead|handle\s+it)|(?:сделай|сделайте|поставь|поставьте|"
    r"оформи|заведи|выполни)(?:\s*,?\s*пожалуйста)?)\s*[.!]?)?\s*"
)


def relayed_request(text: str) -> str | None:
    """The instruction in "Max says: put ENG-104 in review", "I was told to close CS-15", «Олег просит
    перевести сделку в Won»: the words after whose it is, when they start with an action verb."""
    relay = _RELAY.match(text)
    if relay is None:
        return None
    rest = text[relay.end() :]
    # 'Boss says: "remind me to …"', «Шеф просит: «созвон …». Поставь, пожалуйста»: the words quoted are the request
    said = _QUOTED_REQUEST.fullmatch(rest)
    if said:
        rest = said.group("q1") or said.group("q2") or said.group("q3") or said.group("q4") or ""
        if said.group("doit") or not rest.rstrip().endswith("?"):
            return rest.strip()  # the instruction, in whatever words it is said («…». Поставь, пожалуйста)
    if (
        rest.rstrip().endswith("?")  # "I was told to log a bug — should it go to ENG or CS?": still asking
        or re.search(r"[.!?]\s+\S", rest.strip())  # "… told me to open a deal. Please create …": said again
        or re.search(
            r"(?i)\b(?:ему|ей|им|него|неё|нее|ним|ней|him|her|them|his)\b", rest
        )  # «Олег попросил завести ему …»: Oleg
    ):
        return None
    first = re.match(r"\s*(?:please\s+|пожалуйста\s+)?([^\W\d_]+)", rest)
    if first is None:
        return None
    verb = norm(first.group(1))
    if (
        verb.isascii()
        and verb in _VERBS
        or not verb.isascii()
        and (is_imperative(verb) or is_infinitive(verb))
    ):
        return rest.strip()
    return None


# "Can you move Globex pilot to Won?", «Можешь закрыть ENG-105?»: a change asked as a yes/no question. A sentence
# that asks never becomes a write (DESIGN §5a): it becomes one question whose "yes" drafts the change
_ASKED_POLITELY = LazyRe(
    r"(?is)^\s*(?:(?:hey|hi|hello|ok|okay|so|привет|слушай|а|ну|и)[\s,!]+)*"
    r"(?:(?:can|could|would|will)\s+(?:you|u)|(?:(?:ты|вы)\s+)?(?:не\s+)?(?:можешь|можете|сможешь|сможете|"
    r"мог(?:ли|ла)?\s+бы)(?:\s+(?:ли|ты|вы))?)\b[^.!?\n]*\?\s*$"
)


# «то ли в Won, то ли в Lost, не помню», "either Done or Canceled, I'm not sure": two values and no choice made
_TWO_OPTIONS = LazyRe(
    r"(?is)\bто\s+ли\b.{1,80}?\bто\s+ли\b"
    r"|\beither\b.{1,80}?\bor\b.{0,80}?\b(?:not\s+sure|don'?t\s+(?:remember|know)|can'?t\s+remember|unsure)\b"
    r"|\b(?:или|or)\b[^.!?]{1,60}?[,.—–-]\s*(?:(?:я|i)\s+)?(?:не\s+(?:помню|знаю|уверен\w*)|not\s+sure|"
    r"don'?t\s+(?:remember|know)|can'?t\s+remember)\b"
)


def undecided(text: str) -> bool:
    """Whether a change is said as one of two values with no choice made (the person is not sure)."""
    return bool(_TWO_OPTIONS.search(text))


def asked_politely(text: str) -> bool:
    """Whether the whole message asks, yes or no, whether a change could be made."""
    return bool(_ASKED_POLITELY.match(text))


def change_asked_as_question(text: str, spans: list[str]) -> bool:
    """ "Переводим Globex pilot в Won?", "Globex pilot → Won? или лучше Lost… не знаю": the sentence that says a
    change ends with a question mark — it asks whether to, it does not say to (DESIGN §5a)."""
    low = text.lower()
    quoted = [q.span() for q in IN_QUOTES.finditer(text)]
    for span in spans:
        said = span.strip().rstrip("?.! ").lower()
        if _ASKS_HOW_IT_IS.match(said):
            continue  # "is CS-12 still due Monday?": a question about how it is (answered, never a change)
        probe = said[-24:]  # (the span's end, as said: where its sentence stops)
        at = (
            low.rfind(probe) if len(probe) >= 6 else -1
        )  # (the request said last: a pasted email may ask first)
        line = text[text.rfind("\n", 0, max(at, 0)) + 1 :] if at >= 0 else ""
        if at < 0 or any(a <= at < b for a, b in quoted) or line.lstrip().startswith(">"):
            continue  # («From Jane: "Could we do Tuesday at 11?" Book it»: her question, my request)
        start = low.rfind(said[:12], 0, at + len(probe))
        if start >= 0 and _POLITE_LEAD.match(text[max(0, start - 40) : start + 40]):
            continue  # "Could you archive ENG-102? Sarah says …": a polite request (the whole-message form asks back)
        if re.match(r"\s*\?", text[at + len(probe) :]):
            return True
    return False


_ASKS_HOW_IT_IS = LazyRe(
    r"(?i)^\W*(?:[^\W\d_]+(?:\s+[^\W\d_]+)?\s*[—–:-]\s*)?(?:is|are|was|were|do|does|did|has|have|ли)\b"
)
_POLITE_LEAD = LazyRe(
    r"(?i).*\b(?:could|can|would|will)\s+(?:you|we)\b|.*\b(?:please|pls|пожалуйста|можешь|можете|не\s+могли\s+бы)\b"
)


def relays(text: str) -> bool:
    """The words start by saying whose request follows ("Jane asked us to …", «Олег просит …»)."""
    return _RELAY.match(text) is not None


def _relayed(after: str) -> bool:
    """ "Max says: put ENG-104 in review", "Oleg says to archive CS-15", «Олег сказал: закрой ENG-101»:
    an instruction passed on for the person to carry out, not news of what someone thinks."""
    said = re.match(r"\s*(?::|[—–-]|\bto\b)\s*(?:please\s+|пожалуйста\s+)?([^\W\d_]+)", after)
    if said is None:
        # «Мне Анна сказала завести в CRM компанию …»: told to do it, said with the infinitive
        told = re.match(r"\s*(?:мне\s+|нам\s+)?([а-яё]+(?:ть|ти))\b", after, re.IGNORECASE)
        return told is not None and norm(told.group(1)) in _VERBS and is_infinitive(norm(told.group(1)))
    verb = norm(said.group(1))
    return verb in _VERBS and (verb.isascii() or is_imperative(verb))


# "…actually no, it's already past that. Never mind.": the person took it back
_RETRACTED = LazyRe(
    r"(?i)(?:^|[.!,;…]\s*|\s[—–-]\s*|\s(?:but|но|а)\s+)(?:never\s*mind|nevermind|forget\s+(?:it|that)|scratch\s+that|ignore\s+that|"
    # ("… Oh wait, Oleg just said he already filed one. Cancel that."): the last sentence takes it back
    r"(?<=[.!?]\s)(?:so\s+)?cancel\s+(?:that|it|this)|"
    # «Создай задачу обзвонить клиентов... а, нет, это уже Олег сделал, не надо»: done already, so not needed
    r"(?:а|ой|хотя|нет)[,\s]+(?:нет[,\s]+)?(?:это|она|он|их)\s+уже\s+[^.!?]{0,40}?(?:сделал\w*|завёл|завел\w*|создал\w*|"
    r"закрыл\w*|есть)(?:\s*,\s*не\s+(?:надо|нужно))?|"
    # "… wait, no, don't do anything yet, I'll confirm with Jane tomorrow": nothing now
    r"(?:wait|no|actually|hold\s+on)[,\s]+(?:(?:wait|no|actually|hold\s+on)[,\s]+)*don'?t\s+(?:do|change|touch)\s+anything"
    r"(?:\s+(?:yet|now|for\s+now))?|"
    r"не\s+важно|неважно|забудь|забей|отбой|проехали|"
    # «…проверить их SSO… хотя нет», "close ENG-101... actually no": taken back as it ends
    r"(?:а\s+)?хотя\s+нет|(?:ой|ну),?\s+нет|actually,?\s+no|wait,?\s+no|no\s+wait|"
    # «Переведи Globex в Won — а, нет, рано ещё», "… — no wait, not yet": taken back, it is too early
    r"(?:(?:а|ой|ну|хотя),?\s+)?нет,?\s+(?:рано(?:\s+ещ[её])?|ещ[её]\s+рано|не\s+сейчас|не\s+надо|пока\s+не\s+надо)|"
    r"(?:(?:no,?\s+)?(?:wait|actually)|no),?\s+(?:not\s+yet|too\s+early|hold\s+off|don'?t|leave\s+it)|"
    # "create an issue for the PDF crash... actually it's already there": the thing to make exists
    r"(?:actually|wait|oh|hmm),?\s+(?:it|that|there)(?:'s|\s+is)\s+(?:one\s+)?already(?:\s+(?:there|one|filed|created|open))?|"
    r"(?:а|ой|хотя),?\s+(?:она|он|такая|такой)\s+уже\s+(?:есть|заведен\w*|создан\w*)|"
    # "reopen ENG-101, wait, it's not even closed": what the change was to undo is not so
    r"(?:wait|actually|oh|hmm|hold\s+on),?\s+(?:it|that|this)(?:'s|\s+is|\s+isn'?t|\s+was(?:n'?t)?)\s+(?:not\s+)?"
    r"(?:even\s+|already\s+|still\s+)?(?:closed|open|done|finished|assigned|archived|in\s+\w+)|"
    r"(?:подожди|погоди|стоп|ой|хотя),?\s+(?:она|он|оно)\s+(?:же\s+)?(?:и\s+так\s+|ещё\s+|еще\s+|уже\s+|даже\s+)?"
    r"(?:не\s+)?(?:закрыт\w*|открыт\w*|готов\w*|выполнен\w*|в\s+работе)|"
    # "Move Globex pilot to Won. Actually no - cancel that, they haven't signed.": taken back, and why
    # (only after a word that takes it back: "ENG-101 is stale, drop it" asks for the drop)
    r"(?:(?:actually|wait|oh|no|ой|хотя|нет)[,\s—–-]+)+(?:cancel|undo|scratch|drop)\s+(?:that|it|this)|"
    r"(?:(?:ой|хотя|а|нет)[,\s—–-]+)+отмени(?:те)?\s+(?:это|этот|то)\b)"
    r"\s*(?:[.!)]*\s*$|[,;—–-]\s*(?:they|he|she|it|we|i|i'll|он|она|они|оно|мы|я|(?-i:[A-ZА-ЯЁ][\w-]+))\b[^.!?]*[.!]?\s*$)"
)


# "…, keep prio as is", "…, prio unchanged", «…, приоритет не трогай»: what stays as it is asks for nothing
KEEP_AS_IS = LazyRe(
    r"(?i)[,;]\s*(?:(?:and\s+)?(?:keep|leave)\s+(?:the\s+|its\s+)?(?:prio\w*|priority|state|status|due(?:\s+date)?|"
    r"assignee|stage|amount)\s+(?:as\s+is|unchanged|alone|the\s+same)|(?:prio\w*|priority|state|status|due(?:\s+date)?|"
    r"assignee|stage|amount)\s+(?:unchanged|stays(?:\s+as\s+is)?|as\s+is)|(?:приоритет\w*|статус\w*|срок\w*|"
    r"исполнител\w*|стади\w*|сумм\w*)\s+(?:(?:пока\s+)?не\s+(?:трогай|трогаем|меняй|меняем)|"
    r"оставь\w*(?:\s+(?:как\s+есть|прежн\w+|без\s+изменений|как\s+был\w*))?|без\s+изменений))\s*(?=[,;.!]|$)"
)
_NOT_DOING = LazyRe(
    r"(?i)\b(?:пока\s+)?не\s+(?:переводим|закрываем|трогаем|меняем|двигаем|удаляем|создаём|создаем|заводим|ставим|"
    r"переносим|отправляем|архивируем|закрывать|переводить|трогать|удалять|менять|двигать|архивировать)\b|"
    r"\b(?:leave\s+it(?:\s+(?:be|as\s+is|alone))?|оставь(?:те)?\s+как\s+есть)\s*[,.!]?\s*(?:just\s+checking)?\s*$|"
    r"\b(?:we'?re|we\s+are)\s+not\s+(?:moving|closing|changing|touching)\b|"
    # "leave ENG-101 alone, Oleg has it"
    r"\bleave\s+(?:[A-Za-z]{1,10}-\d+|them|that(?:\s+one)?|this(?:\s+one)?)\s+(?:alone|as\s+is|be)\b|"
    r"\bhold\s+off\b|\bjust\s+(?:so\s+you\s+know|fyi)\b|\bпросто\s+имей\s+в\s+виду\b|"
    # "No action yet — just keeping you posted", «просто держу в курсе»
    r"\bno\s+action\s+(?:yet|needed|required|for\s+now)\b|\bjust\s+keeping\s+you\s+(?:posted|informed|in\s+the\s+loop)\b|"
    r"\bпросто\s+держу\s+(?:вас\s+|тебя\s+)?в\s+курсе\b|"
    r"\blet'?s\s+not\s+do\s+(?:it|that|this|anything)\b|\b(?:пока\s+)?не\s+будем\s+(?:это\s+)?(?:делать|трогать|менять)\b|"
    # «сейчас ничего не создавайте», «…, но передумала — пусть остаётся», "…, skip it", «…, но не сейчас»
    r"^\s*(?:i(?:'ve|\s+have)?\s+changed\s+my\s+mind|я\s+передумал\w*|передумал\w*)\s*[,.:;—–-]+\s*(?:don'?t|do\s+not|не)\s|"
    r"\bничего\s+не\s+(?:создавай\w*|делай\w*|меняй\w*|трогай\w*|заводи\w*|удаляй\w*)|\b(?:я|но)\s+передумала?\b|"
    r"\bskip\s+(?:it|that|this)\s*[.!]*\s*$|\b(?:но|but)\s+не\s+сейчас\b|\bbut\s+not\s+(?:right\s+)?now\b|"
    # «…я потом сам заведу, сейчас не надо», "I'll file it myself later, not now": not now, and not by me
    r"\b(?:сейчас|пока)\s+не\s+(?:надо|нужно)\s*[.!]*\s*$|\bне\s+(?:надо|нужно)\s+(?:сейчас|пока)\s*[.!]*\s*$|"
    r"\bя\s+(?:потом\s+|позже\s+)?сам[аи]?\s+(?:потом\s+|позже\s+)?(?:заведу|создам|сделаю|поставлю|напишу|добавлю)\b|"
    r"\bi'?ll\s+(?:do|file|create|add|log|make)\s+(?:it|that|this)\s+(?:myself|later)\b|\bnot\s+(?:right\s+)?now\s*[.!]*\s*$"
)


# «закрой CS-12 нет подожди не закрывай, звонок ещё не провели», "close ENG-101 — wait, no, don't close it":
# the person took the request back as they said it
_TAKEN_BACK = LazyRe(
    r"(?i)\b(?:нет|no|wait|подожди|погоди|стоп|стой|actually|хотя|ой|oh)\b[\s,.!…—–-]*"
    r"(?:(?:нет|no|wait|подожди|погоди|стоп|стой|хотя)[\s,.!…—–-]*)*"
    # «…а хотя нет стоп не надо пока подождем»: "not needed", said alone after taking it back
    # «…хотя нет, отбой», «…хотя нет, пусть висит», "… actually no, leave it": taken back whole
    r"(?:(?:отбой|забудь|забей|проехали|пусть\s+(?:висит|остаётся|остается|лежит|будет\s+как\s+есть)|leave\s+it|"
    r"scratch\s+that|forget\s+(?:it|that))(?=\s*(?:[,.!…—–-]|$))|(?:давай(?:те)?\s+)?подожд[её]м\b|"
    r"не\s+(?:надо|нужно)(?=\s*(?:[,.!…]|$|пока\b|потом\b|подожд\w*|отбой|забудь|проехали))|не\s+(?:надо\s+)?(?:закрывай|переводи|трогай|удаляй|меняй|двигай|архивируй|создавай|заводи|ставь|переноси|"
    r"назначай|отменяй)|don'?t\s+(?:close|move|touch|delete|archive|change|create|add|assign|cancel)|never\s*mind|"
    r"don'?t(?:\s+do\s+(?:it|that))?(?=\s*[.!…]*\s*$))"
)


# Said aloud without punctuation: «создай задачу олегу … хотя не не надо он уже посмотрел отбой», «удали компанию
# глобекс ой нет ты что не удаляй ничего», "archive ENG-102 hold on no max is still on it dont": a word that
# stops the request, then (a few words on) one that takes it back — and after it only why, no new request
_STOPPED = LazyRe(
    r"(?i)(?:^|\s|[,.!…—–-])(?:хотя|ой|а(?=\s*,)|(?:а\s+)?не(?=\s+(?:отбой|отмена|проехали)\b)|wait|hold\s+on|подожди|погоди|стоп|стой|actually|oh|"
    # («у которых нет срока», "with no assignee": a filter; «нет», "no" stop a request only said as a word of their own)
    r"(?:нет|no)(?=\s*(?:$|[,.!…—–-]|(?:нет|no|стоп|wait|подожди|погоди|ты\s+что|не|don'?t|отбой|отмена|scratch|forget)\b)))"
    r"(?=[\s,.!…—–-]|$)"
)
_TAKES_IT_BACK = LazyRe(
    r"(?i)(?<![\w'])(?:не\s+(?:надо|нужно)|отбой|отмена|забудь|забей|проехали|не\s+[а-яё]{3,}(?:й|йте)|"
    # «…хотя нет, стоп, пусть пока остаётся как есть», «а нет, стоп, пусть остаётся в Negotiation»: kept as it is
    r"пусть\s+(?:пока\s+)?(?:ещё\s+|еще\s+)?(?:оста[её]тся|останется|постоит|полежит|будет\s+как\s+есть)(?=\s+(?:как\s+есть|"
    r"там|так|в\s+\S+)|\s*[.!]?\s*$)|(?:not\s+yet|пока\s+не\s+(?:надо|нужно|[а-яё]{3,}(?:й|йте)))|"
    r"scratch\s+that|forget\s+(?:it|that)|never\s*mind|don'?t|do\s+not|cancel(?:\s+(?:that|it))?|"
    # "close CS-12 actually no keep CS-12 open the call hasnt happened": left as it is
    r"(?:keep|leave)\s+(?:it|that|this|them|[A-Za-z]{1,10}-\d+)\s+(?:open|as\s+is|alone|be|(?:in|at|on)\s+\w+)|"
    # "archive DES-7 - actually scratch the archive, keep DES-7"
    r"scratch\s+(?:the|that)\s+\w+|keep\s+[A-Za-z]{1,10}-\d+(?=\s*[.!]?\s*$)|"
    r"оставь(?:те)?\s+(?:её|ее|его|их)\s+(?:в|на)\s+\w+|"
    r"оставь(?:те)?\s+(?:её|ее|его|это|их|[A-Za-z]{1,10}-\d+)\s+(?:открыт\w*|как\s+есть|в\s+покое))(?![\w'])"
)


_KEPT = LazyRe(
    r"(?i)\b(?:keep|leave|оставь|оставьте)\s+(?:it|that|this|them|её|ее|его|их|[A-Za-z]{1,10}-\d+)\b"
)


# "…close ENG-105, but not yet. Let's wait until …", «Что будет, если я удалю компанию Globex? Пока не удаляй»: put off,
# said last (only why or waiting after it)
_NOT_YET_SAID_LAST = LazyRe(
    r"(?i)(?:^|[.!?,;—–-]\s*|\bbut\s+)(?:(?:but|но)\s+)?(?:not\s+yet|not\s+now|пока\s+не\s+(?:надо|нужно|[а-яё]{3,}(?:й|йте))|"
    r"не\s+сейчас|погоди\s+пока)\b[^.!?]*[.!?]?"
    r"(?:\s*(?:let'?s\s+wait|wait|подожд\w+|сначала|first|until|пока|когда)[^.!?]*[.!?]?)?\s*$"
)


def _taken_back_aloud(text: str) -> bool:
    for stop in _STOPPED.finditer(text):
        window = text[stop.end() :]
        back = _TAKES_IT_BACK.search(window)
        if back is None or len(window[: back.start()].split()) > 6:
            continue
        between, after = window[: back.start()], _KEPT.sub(" ", window[back.end() :])
        if re.search(r"[.!?]\s+\S", between):
            continue  # a new sentence between them: not the same breath
        if back.group(0).lower().startswith("не ") and not re.fullmatch(
            r"(?i)не\s+(?:надо|нужно)", back.group(0)
        ):
            said = back.group(0).split()[-1]
            if not _asks_for_a_change(said) and not any(_a_change(x) for x in lemmas(norm(said))):
                continue  # «не знаю»: no change declined
        if re.search(r"(?i)\b(?:только|лишь|just|only)\b", after):
            continue  # «…хотя нет задачу не надо только сделку»: one part taken back, the rest stays
        # («…, no wait, move it to Proposal instead, don't close»: a new request said with it — a correction)
        if not _any_request_verb(between) and not _any_request_verb(after):
            return True
    return False


# "by the way, Romashka signed yesterday", «ромашка кстати подписала договор»: news told in passing
_BY_THE_WAY = LazyRe(
    r"(?i)\b(?:кстати|к\s+слову|между\s+прочим|by\s+the\s+way|btw|incidentally|"
    # «Коллеги, к сведению: Globex подписали договор», "…, just for your info": told to keep me informed
    r"к\s+сведению|для\s+информации|для\s+инфы|(?:just\s+)?for\s+your\s+(?:info|information)|just\s+fyi|"
    r"just\s+so\s+you\s+know|просто\s+(?:инфо|информирую)|"
    # "I already closed ENG-105 yesterday", «я уже перевела сделку»: done by the person, nothing to do
    r"(?:i|we|я|мы|(?-i:[A-ZА-ЯЁ][\w-]+))\s+(?:have\s+|has\s+|'ve\s+)?(?:already|just|уже|только\s+что|сам[аи]?\s+уже)\s+"
    r"(?:closed|moved|assigned|archived|created|filed|did|done|updated|changed|закрыл\w*|перевел\w*|перевёл|"
    r"назначил\w*|создал\w*|сделал\w*|завел\w*|завёл|обновил\w*|поменял\w*))\b"
)


# a change said not to have happened (yet): news of how things stand
_NOT_DONE_YET = LazyRe(
    r"(?i)\b(?:(?:так\s+и|ещё|еще|до\s+сих\s+пор|пока|всё\s+ещё|все\s+еще)\s+)?не\s+(?:за|пере|до|по|вы)?"
    r"(?:закрыл|сделал|починил|катил|вел|вёл|мержил|смержил|назначил|двинул)\w*\b"
    r"|\b(?:never|haven'?t|hasn'?t|didn'?t|did\s+not|have\s+not|has\s+not|wasn'?t|weren'?t)\s+(?:yet\s+|even\s+|been\s+)?"
    r"(?:closed|close|finished|fixed|done|shipped|moved|merged|assigned)\b"
)


def _any_request_verb(text: str) -> bool:
    """Some word of `text` is a verb of a request ("move", «переведи»)."""
    return any(
        (verb := norm(w)) in _VERBS and (verb.isascii() or is_imperative(verb))
        for w in re.findall(r"[^\W\d_]+", text)
    )


_ELSEWHERE = LazyRe(r"(?i)\b(?:there|там|тут|по\s+нему|по\s+ней|that\s+one|the\s+other\s+one)\b")


def asks_in_a_sentence(text: str) -> bool:
    """Of several sentences, one plainly asks for something (a verb of a request, nothing that takes it
    back): «Заведи в DES задачу «…». Про Q1 Launch пока молчим, там ничего не трогаем»."""
    if not _ELSEWHERE.search(text) or _RETRACTED.search(text) or _TAKEN_BACK.search(text):
        return False  # "Close ENG-101. Actually no, forget it": taken back, whatever was asked
    sentences = [x for x in re.split(r"(?<=[.!?])\s+(?=\S)", text.strip()) if x.strip()]
    if len(sentences) < 2:
        return False
    kinds = [not_asked(x) for x in sentences]
    declined = [x for x, kind in zip(sentences, kinds, strict=True) if kind is not None]
    # what is declined is said of something else ("…, nothing to do there", «про Q1 Launch … не трогаем»)
    if not declined or not all(_ELSEWHERE.search(x) for x in declined):
        return False
    return any(
        kind is None and not x.rstrip().endswith("?") and not _UNSURE.match(x) and _any_request_verb(x)
        for x, kind in zip(sentences, kinds, strict=True)
    )


def reported_then_asked(text: str) -> bool:
    """ "Jane says yes. Deal → Won, amount 32k": what someone said, then a sentence that asks for the change."""
    sentences = [x for x in re.split(r"(?<=[.!?])\s+(?=\S)", text.strip()) if x.strip()]
    return (
        len(sentences) >= 2
        and not_asked(sentences[0]) == "reported"
        and any(
            not_asked(x) is None
            and not x.rstrip().endswith("?")
            and ("→" in x or "->" in x or _any_request_verb(x))
            for x in sentences[1:]
        )
    )


def without_polite_if(text: str) -> str:
    """Leave out the courtesy; a sentence it began still starts with a capital, as the splitter expects."""
    out: list[str] = []
    last = 0
    for m in _POLITE_IF.finditer(text):
        out.append(text[last : m.start()])
        last = m.end()
        head = "".join(out).rstrip()
        if (not head or head[-1] in ".!?") and text[last : last + 1].islower():
            out.append(text[last].upper())
            last += 1
    return "".join(out) + text[last:]


_NOT_THEN_WORD = LazyRe(r"(?i)(?<![\w-])(?:пока\s+)?не\s+(?:пока\s+|сейчас\s+|надо\s+)?([а-яё]{4,})\b")
_CHANGES = ("move", "complete", "delete", "archive", "assign", "create", "rename", "put")


# «задачи онбординга пока заводить не нужно», «не нужно пока ничего создавать»: no need to, said of a change
_NO_NEED_TO = LazyRe(
    r"(?i)\b([а-яё]{3,}(?:ть|ти))\s+(?:пока\s+|сейчас\s+|ещё\s+|еще\s+)?не\s+(?:нужно|надо|стоит|требуется)\b|"
    r"\bне\s+(?:нужно|надо|стоит)\s+(?:пока\s+|сейчас\s+|ничего\s+)*([а-яё]{3,}(?:ть|ти))\b"
)


# the cues name the perfective verbs («завести»); «пока заводить не нужно» says the imperfective one
_UNFINISHED = frozenset(
    "заводить создавать переводить закрывать удалять менять двигать архивировать назначать переназначать "
    "переносить добавлять ставить трогать передавать переименовывать".split()
)


def _a_change(infinitive: str) -> bool:
    low = norm(infinitive)
    return low in _UNFINISHED or is_infinitive(low) and any(low in CUES[k] for k in _CHANGES)


def _asks_for_a_change(word: str) -> bool:
    """«переводи», «закрывай», «заводите»: an imperative whose verb is one of the changes we make."""
    if not is_imperative(word):
        return False
    low = norm(informal(word) or word)
    return any(low in CUES[k] or lemmas(low) & CUES[k] for k in _CHANGES)


def not_asked(
    text: str,
) -> Literal["negated", "hypothetical", "reported", "unsure", "doubted", "news"] | None:
    """Words that describe a change without asking for it now: told not to (or taken back), said as a
    condition for later, or what someone else said (DESIGN §5a: nothing of that becomes a write)."""
    text = KEEP_AS_IS.sub("", text)  # "…, срок оставь как есть": that field stays, the change is still asked
    # "Quick question — if I close ENG-103, does …?": said to be a question, then what it is
    text = re.sub(
        r"(?i)^\s*(?:(?:quick|small|one|a)\s+)?question\s*[—–:,-]\s*|^\s*(?:быстрый\s+)?вопрос\s*[—–:,-]\s*",
        "",
        text,
    )
    if (
        _RETRACTED.search(text)
        or _NOT_DOING.search(text)
        or _TAKEN_BACK.search(text)
        or _taken_back_aloud(text)
        or _NOT_YET_SAID_LAST.search(text)
    ):  # «…в Won пока не переводим — деньги не пришли»
        return "negated"
    negated = _NEGATED.match(text)
    if negated and (negated.group(1) is None or is_imperative(negated.group(1))):
        return "negated"
    if any(_asks_for_a_change(m.group(1)) for m in _NOT_THEN_WORD.finditer(text)) or any(
        _a_change(m.group(1) or m.group(2)) for m in _NO_NEED_TO.finditer(text)
    ):
        return "negated"  # «Сделку с Globex в Won пока не переводи», «задачи пока заводить не нужно»
    not_done = _NOT_DONE_YET.search(text)
    if not_done and not _any_request_verb(text[: not_done.start()] + " " + text[not_done.end() :]):
        return (
            "reported"  # «ENG-101 так и не закрыли», "we never closed ENG-101": how things stand, no request
        )
    if _CONDITIONAL.match(without_polite_if(text)) and not checked_now(text):
        return "hypothetical"
    inner = _INNER_IF.match(text)  # «ENG-106 если ещё не закрыта»: a condition said of a record, no request
    if inner and not _piece_asks(text[inner.end() :]):
        return "hypothetical"
    if _UNDECIDED.search(text) and not _own_request_after(text):
        return "unsure"
    if (
        _UNSURE.search(text)
        and not _ASKING_ME.search(text)
        and not _WANTS_IT_DONE.search(text)
        and relayed_request(text) is None
        and not _own_request_after(text)
        and not _opens_with_a_request(text)
    ):
        return "unsure"
    if (
        _HEDGED_NEWS.search(text)
        and not _any_request_verb(text)
        and not _WANTS_IT_DONE.search(text)  # «Кажется, надо поставить метку …»: a hedged request is one
        and not _ASKING_ME.search(text)
        and relayed_request(text) is None
    ):
        return "doubted"  # «…, договор вроде подписан»: news the person is not sure of, no request
    reported = _REPORTED.match(text)
    relayed = _relayed(text[reported.end() :]) if reported else False
    if (
        reported
        and not _ASKING_ME.search(text)
        and not relayed
        and relayed_request(text) is None
        and not _own_request_after(text)
        and not _piece_asks(text[reported.end() :])  # "Max says the call went fine — log that as a note"
    ):
        return "reported"
    if _BY_THE_WAY.search(text) and not _any_request_verb(text):
        return "news"
    wished = _WISHED_DONE.match(text)
    if wished and not _any_request_verb(text[wished.end() :]):
        return "reported"  # "…, security wants it closed asap": what someone wishes, said as why
    return None


# "security wants it closed asap", «безопасники хотят, чтобы её закрыли»: someone's wish for a record, told
_WISHED_DONE = LazyRe(
    r"(?i)^\s*(?:(?:and|but|и|а|но)\s+)?(?!(?:i|we|я|мы)\b)(?:[\w-]+\s+){1,3}?(?:wants?|needs?|would\s+like|хочет|хотят|просит|просят)\s+"
    r"(?:(?:it|them|this|that|его|её|ее|их)\s+|чтобы\s+(?:её|ее|его|их)\s+)(?:to\s+be\s+)?"
    r"(?:closed|done|fixed|finished|merged|resolved|shipped|закрыт\w*|закрыли|сделал\w*|сделан\w*|починил\w*|готов\w*)\b"
)


def without_hedged_lead(text: str) -> str:
    """ "Мне кажется, Ивану пора напомнить про продление. Создай задачу на пятницу: написать Ивану": the
    doubt said first is why; the request after it says what (and does not point back at it with «это»)."""
    lead = re.match(r"\s*[^.!?]+[.!?]+\s+(?=\S)", text)
    if lead is None or not _UNSURE.match(lead.group(0)) or _ASKING_ME.search(lead.group(0)):
        return text
    rest = text[lead.end() :]
    if not _own_request_after("x. " + rest) or re.search(r"(?i)\b(?:это|этом|that|this|it)\b", rest):
        return text
    return rest


def _opens_with_a_request(text: str) -> bool:
    """ "Not sure — close ENG-101", "Looks like Globex signed — move it to Won": after the hedge, a piece
    that starts with what to do."""
    hedge = _UNSURE.search(text)
    return hedge is not None and _piece_asks(text[hedge.end() :])


def _piece_asks(rest: str) -> bool:
    """A piece of `rest` (after a comma, a dash, a colon or a sentence's end) starts with what to do."""
    for m in re.finditer(
        r"(?:^|[,:;—–.!?]|\s-\s|\b(?:so|then|and|but|но|так\s+что|и))\s*(?:please\s+|пожалуйста\s+)?([^\W\d_]+)",
        rest,
    ):
        verb = norm(m.group(1))
        if verb in _VERBS and (verb.isascii() or is_imperative(verb)):
            return True
    return False


def _own_request_after(text: str) -> bool:
    """ "Globex says the login loops. File a bug for Engineering": a sentence of the person's own asks."""
    # («не уверена, что правильно поняла процесс, но заведи компанию …»: unsure of something else, then the ask)
    for m in re.finditer(
        r"(?:[.!?]|[,;]?\s(?:but|но))\s+(?:(?:please|pls|пожалуйста|плз)\s+)?([^\W\d_]+)", text
    ):
        verb = norm(m.group(1))
        if verb in _VERBS and (verb.isascii() or is_imperative(verb)):
            return True
    return False


# «а как сделать, чтобы бот сам закрывал задачи…», "how do I …" said without a question mark
_HOW_OPENING = LazyRe(
    r"(?i)^\s*(?:(?:а|и|ну|so|and|hey)[,\s]+)?(?:как\s+(?:сделать|мне|бы|можно)|how\s+(?:do|can|could|should)\s+(?:i|we)|how\s+to)\b"
)


def asks_how(text: str) -> bool:
    """The person asks how to do something, or whether they may, rather than asking for it."""
    return (
        ("?" in text or bool(_HOW_OPENING.match(text)))
        and bool(_HOW.search(text))
        or bool(re.search(r"(?i)\bnot\s+sure\s+(?:which|what|who)\b", text))
    )


def _words(text: str) -> list[str]:
    return re.findall(r"[#\w]+", norm(text))


def position_of(text: str, count: int) -> int | None:
    """The 0-based index of the choice that `text` names by position, or None: "2", "#2", "вариант 2",
    "the second one", «вторую», «второй вариант», "last one", «последний»."""
    words = [w for w in _words(text) if w not in _FILLER]
    if len(words) != 1 or count < 1:
        return None
    word = words[0].lstrip("#")
    if re.fullmatch(r"[0-9]{1,6}", word):  # ASCII digits only: "¹" and "٣" are digits to str.isdigit
        return int(word) - 1 if 1 <= int(word) <= count else None
    russian = _RU_ORDINAL.match(word)
    n = _ORDINALS.get(russian.group(1) if russian else word)
    if n is None:
        return None
    if n == -1:
        return count - 1
    return n - 1 if n <= count else None


def is_cancel(text: str) -> bool:
    """Whether the message leaves the open question ("отмена", "cancel", "never mind")."""
    return re.sub(r"[\s!.,]+", " ", norm(text)).strip() in _CANCEL


_SEND = frozenset({"отправь", "отправить", "отправляй", "пошли", "повтори", "send", "resend", "retry", "do"})
_ANYWAY = frozenset(
    {"всё", "все", "равно", "заново", "anyway", "again", "it", "still", "it's", "fine", "ок", "ok"}
)


def is_send_anyway(text: str) -> bool:
    """The person's explicit "send it anyway" / «отправь всё равно» after an outcome stayed unknown."""
    words = _words(text)
    if not 1 <= len(words) <= 5 or not any(w in _SEND for w in words):
        return False
    rest = [w for w in words if w not in _SEND]
    return ("resend" in words and not rest) or (
        bool(rest)
        and all(w in _ANYWAY for w in rest)
        and any(w in ("равно", "заново", "anyway") for w in rest)
    )


def looks_like_request(text: str, now: datetime) -> bool:
    """Whether a message sent while a question is open reads as a new request rather than an answer:
    it opens with an action or a question verb ("закрой ENG-101", "покажи мои задачи", "move …")
    and says more than one word. A name, a date or a title does not."""
    from planner.analysis import split_clauses

    if len(_words(text)) < 2 or is_cancel(text):
        return False
    clauses = split_clauses(text, now)
    if not clauses:
        return False
    first = clauses[0]
    lead = min(first.first("create", "put", "move", "complete", "delete", "archive", "assign", "rename"),
               first.first("query", "comment", "note_verb", "remind"))  # fmt: skip
    return lead == 0


_YES = {
    "да", "yes", "ok", "ок", "okay", "ага", "угу", "конечно", "подтверждаю", "подтвердить", "confirm", "sure",
    "yep", "yeah", "go", "давай", "do it", "go ahead", "да, подтверждаю", "верно", "точно", "y", "да давай",
    "yes please", "да, давай", "ok go", "подтверждаю да", "да подтверждаю", "lgtm",
}  # fmt: skip
_NO = {
    "нет", "no", "cancel", "отмена", "отмени", "не надо", "не нужно", "stop", "nope", "never mind", "n", "не",
    "отменить", "нет, не надо", "no thanks",
}  # fmt: skip
# a destination in a system this server does not manage
OTHER_SYSTEM = LazyRe(
    r"\b(в|во|на|in|to|into|on|a|an|the|новый|новую)?\s*(jira|джир[аеуы]|trello|трелло|asana|асан[аеуы]|notion|ноушн|"
    r"hubspot|хабспот\w*|salesforce|pipedrive|clickup|youtrack|ютрек\w*|bitrix\w*|битрикс\w*|amocrm|амо\s*crm|github|"
    r"гитхаб\w*|gitlab|zendesk|зендеск\w*|pagerduty|intercom|интерком\w*|freshdesk|servicenow|confluence|"
    r"конфлюенс\w*|basecamp|monday\.com|(?<=\bв\s)жир[аеуы]|(?<=\bиз\s)жир[аеуы]|google\s+(?:docs?|drive|sheets?|slides)|"
    r"гугл[\s-]?(?:док\w*|диск\w*|таблиц\w*))\b",  # «тикет в жире»: Jira said aloud
    re.IGNORECASE,
)
# "post in the team slack channel that …", «напиши в слак …», "email Jane the deck": a message sent
# somewhere the server has no hands (a task *to* send it is another matter: "remind me to email Jane")
MESSAGING = LazyRe(
    r"(?i)\b(?:post|publish|send|write|message|ping|dm|tell|notify|announce|share|drop|напиши|написать|отправь|отправить|пошли|"
    r"запости|опубликуй|"
    r"скинь|кинь|сообщи|перешли|email|e-mail|имейлни)\b[^.;!?]{0,60}?"
    r"(?:\b(?:in|to|on|into|via|by|в|во|через|по)\s+(?:the\s+|our\s+|a\s+)?(?:[\w#-]+\s+){0,2}"
    r"(?:slack|слак\w*|teams|telegram|телеграм\w*|whatsapp|ватсап\w*|e-?mail|почт\w*|mail|sms|смс|"
    r"(?:group\s+|team\s+)?chat|чат\w*)\b"
    r"|\b(?:in|to|into|в|во)\s+#[\w-]+"  # "post to #sales that …": a channel
    r"|\b(?:an?\s+|the\s+)?(?:e-?mail(?!\s+address)|письм\w*|сообщени\w*\s+в\s+слак)\b"
    # "send a Slack message to the sales channel that …": the messenger said before the message
    r"|\b(?:slack|слак\w*|teams|telegram|телеграм\w*|whatsapp|ватсап\w*)\s+(?:message|msg|post|dm|сообщени\w*)\b)"
    # "slack #sales: globex signed 🎉", "telegram @oleg: …": the messenger and where, then the message
    r"|^\s*(?:slack|слак\w*|teams|telegram|телеграм\w*|tg|whatsapp|ватсап\w*)\s*(?:[#@][\w-]+\s*)?[:—–-]\s*\S"
    # "Email Jane the pilot requirements doc": the verb first, then whom
    # («email марии соколовой» is Maria's address: a Russian name after it is in the genitive)
    r"|^\s*(?:(?:please|pls|can\s+you|could\s+you)\s+)?(?:e-?mail\s+(?!(?:address|of|for)\b)(?=[A-Za-z])|(?:имейлни|емейлни)\s+)[^\W\d_]"
    # "Slack Oleg that legal signed off", «напиши Олегу в телегу»: a messenger used as the verb
    r"|^\s*(?:(?:please|pls|can\s+you|could\s+you)\s+)?(?:slack|dm|text|telegram|whatsapp)\s+[^\W\d_][\w'-]*\s+"
    r"(?:that|about|re\b|to\b|the\b|a\b|an\b|our\b)"
)
_GREETING = LazyRe(
    r"^(?:привет\w*|здравствуй\w*|добр(?:ый|ое|ого)\s+(?:день|утро|вечер|утра|дня)|хай|hi|hello|hey|good\s+"
    r"(?:morning|afternoon|evening)|yo)\b[\s,!.]*(?:(?:как\s+(?:дела|ты|вы|жизнь)|how\s+(?:are\s+you|is\s+it\s+going|"
    r"are\s+things)|what'?s\s+up|там)\b)?[\s?!.,)(:]*$",
    re.IGNORECASE,
)
_HOW_ARE_YOU = LazyRe(r"^(?:как\s+(?:дела|ты|вы)|how\s+are\s+you|what'?s\s+up)[\s?!.]*$", re.I)
_THANKS = LazyRe(
    r"^(?:(?:ну\s+)?(?:ладно|ok|okay|ок|отлично|супер|great|cool|perfect|круто)[\s,!.]*)?"
    r"(?:спасибо|благодарю|спс|thanks?|thank\s+you|thx|ty|cheers)(?:\s+(?:большое|огромное|a\s+lot|so\s+much|"
    r"тебе|вам))*[\s,!.]*(?:(?:that'?s\s+all(?:\s+for\s+now)?|это\s+всё|это\s+все|пока|bye|до\s+свидания)[\s!.]*)?$",
    re.IGNORECASE,
)
_BYE = LazyRe(
    r"^(?:(?:ну\s+)?(?:ладно|ok|ок)[\s,]+)?(?:пока|до\s+свидания|bye|goodbye|see\s+you)[\s!.]*$", re.I
)
# questions and requests no toolkit here can answer: weather, jokes, news, maths, translation
_ERRAND = LazyRe(
    r"(?i)\b(?:order|закажи\w*|заказать|buy|купи\w*)\s+(?:\w+\s+){0,3}?(?:pizza|lunch|dinner|food|coffee|flowers|"
    r"tickets?|пицц\w*|обед\w*|ужин\w*|еду|еды|суши|кофе|цвет\w*|билет\w*|такси|taxi)\b"
    r"|\b(?:выставь|выстави)\s+(?:\w+\s+){0,2}?(?:сч[её]т|инвойс)\w*|\b(?:сч[её]т|invoice)\w*\s+(?:\w+\s+){0,3}?(?:в|in)\s+1[сc]\b"
)
# (a task or an issue about it is asked of me; an issue named beside it is a request of its own: only the rest declined)
_A_TASK_OF_IT = LazyRe(
    r"(?i)задач|таск|task|remind|напомн|todo|to-do|follow|заметк|note|issue|тикет|баг|bug|\b[a-z]{1,10}-\d+\b"
)
_OFF_TOPIC = LazyRe(
    r"\b(?:погод\w*|weather|анекдот\w*|шутк\w*|joke\w*|новост\w*|news|курс\s+(?:доллара|евро|валют)|exchange\s+rate|"
    r"переведи\s+на|translate|стих\w*|poem|рецепт\w*|recipe|сколько\s+будет|what\s+is\s+\d|кто\s+ты|who\s+are\s+you|"
    r"сыграем|play\s+a\s+game|песн\w*|song)\b",
    re.IGNORECASE,
)


# "paste me the composio api key", «дай токен композио и пароль от аттио», "drop the database lol": secrets
# and the machinery under the server are never shown or touched, whoever asks
_SECRETS_OR_MACHINERY = LazyRe(
    r"(?i)^(?:(?:please|pls|can\s+you|could\s+you|пожалуйста|hey|ну)[,\s]+)*"
    r"(?:give|show|print|paste|send|tell|reveal|share|dump|list|what'?s|what\s+is|дай|дайте|покажи|скинь|пришли|напиши|"
    r"выведи|скажи|какой)\b[^.?!\n]{0,40}?\b(?:api[\s-]?keys?|(?:bot\s+)?tokens?|токен\w*|парол\w*|passwords?|"
    r"secrets?|секрет\w*|credentials|creds|ключ(?:и|а)?\s+(?:api|от|композио|composio|attio|аттио|linear|линеар\w*))\b"
    r"|\b(?:drop|truncate|wipe)\s+(?:the\s+)?(?:database|db|tables?)\b|\bdrop\s+table\b|\brm\s+-rf\b"
    r"|\b(?:удали|снеси|грохни|дропни)\s+(?:всю\s+)?(?:базу|бд)\b"
)
# (cheap checks first: the full patterns are read only when one of their words is said)
_SECRET_WORD = LazyRe(
    r"key|token|токен|парол|password|secret|секрет|cred|ключ|database|\bdb\b|table|rm\s+-rf|базу|\bбд\b"
)
_TRACKER_WORD = LazyRe(
    r"cycle|цикл|estimat|оценк|point|поинт|workflow|колонк|column|github|гитхаб|\bpr\b|pull|commit|коммит|"
    r"team|команд|csv|excel|xlsx|эксел|spreadsheet|таблиц|invite|пригласи"
)
# "add ENG-105 to the current cycle", «поставь оценку 3 поинта», "link ENG-101 to GitHub PR #482", «удали команду
# Design», "export all ENG issues to CSV", «добавь в workflow колонку QA»: Linear can, this server cannot
_TRACKER_FEATURE = LazyRe(
    r"(?i)\b(?:(?:current|next|this|active)\s+cycle|to\s+(?:the\s+)?cycle|(?:в|к)\s+(?:текущ\w+\s+)?цикл\w*|"
    r"(?:set|add|put|give)\s+(?:an?\s+|the\s+)?estimate|(?:оценк\w*|estimate)\s+(?:в\s+|of\s+)?\d+(?:\s+(?:story\s+)?points?|\s+поинт\w*)?|"
    r"story\s+points?|сторипоинт\w*|(?:в|to|into)\s+(?:the\s+)?workflow|workflow\s+(?:columns?|колонк\w*)|"
    r"(?:нов\w+|new)\s+(?:колонк\w*|columns?)|"
    r"(?:link|привяжи|прикрепи|свяжи)\w*\s+[^.?!\n]{0,40}\b(?:pr|pull\s+request|github|гитхаб\w*|commit|коммит\w*)\b|"
    r"(?:delete|remove|archive|удали|удалить|убери)\s+(?:the\s+)?(?:team|команду)\s+[A-Za-zА-Яа-яЁё][\w-]*"
    r"(?:\s+(?:team|in\s+linear|в\s+линеар\w*|в\s+linear))?\s*[.!]?\s*$|"
    # (an export asked for, said first: "export to PDF" is as often an issue's title)
    r"^\W*(?:(?:please|pls|can\s+you|could\s+you|пожалуйста)\s+)?(?:export|выгрузи|экспортируй)\w*\s+[^.?!\n:]{0,40}"
    r"\b(?:csv|excel|xlsx|эксел\w*|spreadsheet|таблиц\w*)\b|"
    r"(?:invite|пригласи)\s+[^.?!\n]{0,30}\b(?:to|в)\s+(?:the\s+)?(?:linear|workspace|воркспейс\w*|team|команду))"
)


def _short(text: str) -> str:
    return re.sub(r"[\s!.,]+", " ", norm(text)).strip()


def is_yes(text: str) -> bool:
    return _short(text) in _YES


def is_no(text: str) -> bool:
    return _short(text) in _NO


@dataclass
class SmallTalk:
    kind: Literal["greeting", "thanks", "off_topic", "errand", "abilities", "secret", "unsupported"]
    ru: str
    en: str


# "cancel the meeting with Jane", «перенеси созвон с Иваном на пять»: a change to an event that exists.
# The calendar here creates and lists events only (DESIGN §5): said so, never drafted as a new event
EVENT_CHANGE = LazyRe(
    r"(?i)^\s*(?:(?:please|пожалуйста|ну|so|and|also|then|и|а|ещё|еще|потом|также)[,\s]+)*(?:cancel|call\s+off|delete|remove|move|reschedule|"
    r"push(?:\s+back)?|shift|postpone|отмени(?:те)?|удали(?:те)?|перенеси(?:те)?|передвинь(?:те)?|сдвинь(?:те)?|"
    r"отложи(?:те)?)\s+(?:the\s+|my\s+|our\s+|this\s+|that\s+|tomorrow'?s\s+|today'?s\s+|мою\s+|мой\s+|нашу\s+|наш\s+|"
    r"эту\s+|этот\s+|завтрашн\w+\s+|сегодняшн\w+\s+)?(?:meeting|call|event|sync|demo|встреч\w*|созвон\w*|"
    r"звонок|событи\w*|демо)\b"
    r"(?!\s+(?:notes?|deal|issue|task|ticket|prep|сделк\w*|задач\w*|заметк\w*|тикет\w*))"  # "move the demo deal"
)
EVENT_CHANGE_SAID = (
    "Встречи в календаре я могу создавать и показывать, а переносить или отменять существующие — нет: "
    "это можно сделать в самом Google Calendar.",
    "I can create and list calendar events, but not move or cancel one that exists: please change it in "
    "Google Calendar itself.",
)

# "add Peter to the Globex deal", «добавь Петра в сделку Globex»: a person linked to a deal there is — no
# operation of ours does that, and a new deal is not what was asked
ADDED_TO_A_DEAL = LazyRe(
    r"\b(?i:add|добавь|добавьте|добавить)\s+(?:[A-ZА-ЯЁ][\w'’-]+(?:\s+[A-ZА-ЯЁ][\w'’-]+){0,2}|(?i:him|her|them|его|её|ее|их))"
    r"\s+(?i:to|into|onto|в|во|к)\s+(?i:the\s+|this\s+|our\s+)?(?:[\w-]+\s+){0,3}?(?i:deal|сделк[уеи])\b"
    r"(?!\s+(?i:as|как|в\s+качестве)\s)"  # "add Max to the Globex deal as owner": a change of owner
)
ADDED_TO_A_DEAL_SAID = (
    "Привязать человека к сделке я не могу. Могу добавить к сделке заметку о нём или поставить задачу — "
    "скажите, что из этого.",
    "I can't link a person to a deal. I can add a note about them to the deal, or a task — say which.",
)

# "Should we move Globex to Lost?", «может закрыть ENG-101? как думаешь»: advice asked for
ADVICE_SAID = (
    "Решать вам: я не советую, а вношу изменения, когда вы скажете. Например: «переведи Globex pilot в Lost» "
    "или «закрой ENG-101» — и я подготовлю черновик на подтверждение.",
    "That's your call: I don't advise, I make changes when you say so. For example \"move the Globex pilot to "
    'Lost" or "close ENG-101" — and I\'ll draft it for your confirmation.',
)

# "create a 'regression' label in linear", «заведи новую метку», "add a new workflow state": the tracker's
# own settings — no operation of ours makes them, and a new issue is not what was asked
NEW_TRACKER_SETTING = LazyRe(
    r"(?i)^\W*(?:please\s+|пожалуйста\s+)?(?:create|add|make|set\s+up|(?:создай|заведи|добавь|сделай)(?:те)?)\s+"
    r"(?:(?:in|в|во)\s+(?:linear|линеар\w*)\s+)?(?:a\s+|an\s+|the\s+|new\s+|нов\w+\s+)*(?:['\"«“][^'\"«»“”]{1,40}['\"»”]\s+|[\w-]+\s+)?"
    r"(?:label|tag|метк\w*|лейбл\w*|workflow\s+state|state|status|статус\w*|team|команд\w*)"
    r"(?:\s+(?:(?:called|named|под\s+названием)\s+)?(?:['\"«“][^'\"«»“”]{1,40}['\"»”]|[\w-]+))?(?:\s+(?:for|для)\s+[\w-]+)?"
    r"\s*(?:(?:in|в|во)\s+(?:linear|линеар\w*))?\s*[.!]?\s*$"
)
NEW_TRACKER_SETTING_SAID = (
    "Новые метки, статусы и команды я не создаю — это настраивается в самом Linear. Могу повесить "
    "существующую метку на задачи или создать задачу.",
    "I can't create labels, workflow states or teams — those are set up in Linear itself. I can put an "
    "existing label on issues, or create an issue.",
)

# "what can you actually do?", «что ты умеешь?», "can you create stuff in Linear or only read?": the whole
# message asks what the assistant can do — said, never drafted (a thing to create needs its name)
_ABILITIES = LazyRe(
    r"(?i)^(?:(?:so|ok|okay|hey|hi|um+|эм+|ну|так|а|привет)[,\s]+)*(?:"
    r"what\s+(?:can|could)\s+you\s+(?:actually\s+|really\s+)?(?:do|help\s+(?:me\s+)?with)|what\s+do\s+you\s+do|"
    r"what\s+are\s+you\s+(?:able\s+to\s+do|for)|how\s+can\s+you\s+help(?:\s+me)?|help|what\s+are\s+your\s+"
    r"(?:capabilities|features)|"
    r"что\s+(?:ты\s+|вы\s+)?(?:умеешь|умеете|можешь|можете)(?:\s+делать)?|чем\s+(?:ты\s+|вы\s+)?(?:можешь|можете)\s+"
    r"помочь|помощь|справка|"
    r"(?:can|could)\s+you\s+(?:only\s+|also\s+|even\s+|actually\s+)?(?:create|make|read|write|edit|change|update|"
    r"delete|see|access)\s+(?:stuff|things|anything|records|data|issues|deals|tasks)(?:\s+(?:in|on)\s+\w+)?"
    r"(?:\s+or\s+(?:just\s+|only\s+)?\w+(?:\s+(?:it|them|stuff|things))?)?|"
    r"(?:ты\s+|вы\s+)?(?:умеешь|умеете|можешь|можете)\s+(?:только\s+|ещё\s+|еще\s+|вообще\s+)?(?:создавать|читать|"
    r"менять|изменять|удалять|редактировать|смотреть)(?:\s+(?:что-?(?:то|нибудь)|задачи|сделки|записи|данные))?"
    r"(?:\s+в\s+\w+)?(?:\s+или\s+(?:только\s+)?\w+)?"
    r")(?:\s+(?:here|for\s+me|тут|здесь|для\s+меня|тоже|также|too|as\s+well))?[\s?!.)]*$"
)
_ABILITIES_RU = (
    "Показываю, ищу и считаю сразу; создаю и меняю сделки, заметки, задачи и встречи — только после того, как вы "
    "увидите черновик и подтвердите. Например: «сколько сделок в Negotiation?», «переведи Globex pilot в Won», "
    "«создай задачу в ENG: поправить логин»."
)
_ABILITIES_EN = (
    "I look things up, list and total at once; I create and change deals, notes, issues and meetings only after "
    'you have seen the draft and confirmed it. For example: "how many deals are in Negotiation?", "move the Globex '
    'pilot to Won", "create an ENG issue: fix the login".'
)

_SCOPE_RU = "Я работаю с Attio (сделки, компании, контакты), Linear (задачи, проекты) и Google Calendar."
_SCOPE_EN = "I work with Attio (deals, companies, contacts), Linear (issues, projects) and Google Calendar."


_CANNOT_UNDO_IN_LINEAR = LazyRe(
    r"(?i)(?<!\w)(?:delete|remove|erase|undo|удали\w*|убери|сотри|стереть)\s+(?:(?:the|my|that|this|a|мой|мою|этот|эту|тот|"
    r"последн\w+|свой|свою)\s+)*(?:comment|коммент\w*|комментари\w*|project|проект\w*|"
    # ("remove the bug label from ENG-101", «удали метку bug с ENG-101»: a label taken off an issue is a change)
    r"(?:label|метк[уи]|stage|стади[юи])(?![^.!?]*(?:\b(?:from|off|с|со|из|у)\s|[A-Za-z]{2,5}-\d)))\b"
    r"|(?<!\w)(?:merge|объедини|слей|смержи)\s+(?:[A-Za-z]{2,5}-\d+|задач\w*|issues?|tickets?)"
)


def small_talk(text: str) -> SmallTalk | None:
    """A greeting, thanks or an off-topic request, with what to say; None for anything else."""
    low = norm(text).strip()
    if not low:
        return None
    if _GREETING.match(low) or _HOW_ARE_YOU.match(low):
        return SmallTalk(
            "greeting",
            f"Привет! {_SCOPE_RU} Что сделать? Например: «что по сделке Globex pilot?» или «создай задачу в ENG».",
            f'Hi! {_SCOPE_EN} What should I do? For example: "what\'s up with the Globex pilot deal?" or '
            f'"create an issue in ENG".',
        )
    if all(_ABILITIES.match(said) for said in re.split(r"(?<=[?!.])\s+", low)):
        return SmallTalk("abilities", f"{_SCOPE_RU} {_ABILITIES_RU}", f"{_SCOPE_EN} {_ABILITIES_EN}")
    if _THANKS.match(low) or _BYE.match(low):
        return SmallTalk("thanks", "Пожалуйста! Обращайтесь.", "You're welcome!")
    if _SECRET_WORD.search(low) and _SECRETS_OR_MACHINERY.search(low):
        return SmallTalk(
            "secret",
            f"Ключи, токены и пароли я не показываю, а с базами данных и серверами не работаю. {_SCOPE_RU}",
            f"I never show keys, tokens or passwords, and I don't touch databases or servers. {_SCOPE_EN}",
        )
    if _TRACKER_WORD.search(low) and _TRACKER_FEATURE.search(
        IN_QUOTES.sub(" ", low)
    ):  # (a quoted title may say "workflow")
        return SmallTalk(
            "unsupported",
            "Этого я в Linear не умею: циклы, оценки, воркфлоу, команды, ссылки на PR и выгрузки настраиваются в "
            "самом Linear. Могу менять задачи: статус, исполнителя, срок, приоритет, метки, проект, комментарии.",
            "I can't do that in Linear: cycles, estimates, workflows, teams, PR links and exports are set up in "
            "Linear itself. I can change issues: state, assignee, due date, priority, labels, project, comments.",
        )
    cannot = _CANNOT_UNDO_IN_LINEAR.search(low)
    if (
        cannot
        and not re.search(r"(?i)\s(?:and|и|also|ещё|еще|then|потом)\s|[;\n]", low)
        # («у CS-13 убери метку customer-request»: a label taken off an issue is a change of it)
        and not (re.search(r"(?i)метк|label|стади|stage", cannot.group(0)) and ISSUE_KEY.search(text))
    ):
        # "Delete the comment I left on ENG-105", "merge ENG-101 into ENG-102", «удали проект Q1 Launch»: not mine
        return SmallTalk(
            "unsupported",
            "Этого я не умею: удалять комментарии, проекты, метки и стадии и объединять задачи можно только в самих "
            "Linear и Attio. Могу закрыть или архивировать задачу, поправить её поля или оставить новый комментарий.",
            "I can't do that: deleting comments, projects, labels or stages and merging issues is done in Linear and "
            "Attio themselves. I can close or archive an issue, change its fields, or add a new comment.",
        )
    if _ERRAND.search(low) and not _A_TASK_OF_IT.search(low):
        # "order pizza for the whole team", «выставь Ромашке счёт в 1С»: done elsewhere, even said of a record
        return SmallTalk(
            "errand",
            f"Этого я не умею. {_SCOPE_RU} Что сделать там?",
            f"I can't do that. {_SCOPE_EN} What should I do there?",
        )
    if _OFF_TOPIC.search(low):
        return SmallTalk(
            "off_topic",
            f"С этим не помогу. {_SCOPE_RU} Что сделать там?",
            f"I can't help with that. {_SCOPE_EN} What should I do there?",
        )
    return None


# The message's last words call off everything before them: «… стоп, нет, они ещё не подписали. ничо пока не делай
# плиз», "Move Romashka to Lost. no no wrong chat, ignore pls", «удали контакт Jane Doe. отмена», "… ah wait no, Oleg
# told me it's fixed already. forget it" — said after a break, with nothing but interjections before them and
# nothing after them («…только сделку», "only the deal" keep a part: not this)
_CALLED_OFF = LazyRe(
    r"(?i)(?:[.!?…;]|\.\.\.|\s[—–-]|,)\s*"
    r"(?:(?:no|nope|нет|не|стоп|stop|wait|ah|oh|ой|а|sorry|извини\w*|сорри|ok|ок|ладно|хм+|hmm+)[\s,.!…—–-]+)*"
    r"(?:ничего|ничо|ничё|ничего\s+пока|ничо\s+пока|ничё\s+пока|пока\s+ничего)\s+(?:пока\s+)?не\s+(?:делай|делайте|надо|нужно|"
    r"трогай|меняй|создавай)"
    # (dictated, unpunctuated: «…глобекс нет отмена оставь как было» — "no" and the call-off said together)
    r"|(?:[.!?…;]|\.\.\.|\s[—–-]|,|\s(?=(?:нет|no|стоп|stop)[\s,.!…—–-]+(?:отмена|отбой|забудь|забей|проехали|cancel|forget|"
    r"never\s*mind|scratch)))\s*"
    r"(?:(?:no|nope|нет|стоп|stop|wait|ah|oh|ой|а|sorry|извини\w*|сорри|ok|ок|ладно)[\s,.!…—–-]+)*"
    r"(?:не\s+надо\s+ничего|отмена|отбой|забудь(?:те)?(?:\s+(?:это|всё|все|про\s+это))?|забей|проехали|игнор\w*(?:\s+это)?|"
    r"не\s+тот\s+чат|это\s+не\s+тебе|ошиб\w+\s+чатом|"
    r"forget\s+(?:it|that|about\s+it|all\s+(?:of\s+)?that)|never\s*mind|nvm|ignore(?:\s+(?:it|that|this|me|all\s+that))?|"
    r"wrong\s+(?:chat|window|thread)(?:[\s,.!]+ignore(?:\s+(?:it|that|this))?)?|disregard(?:\s+(?:it|that|this))?|"
    r"cancel\s+(?:everything|all\s+(?:of\s+)?that)|scratch\s+(?:all\s+)?that|do\s+nothing(?:\s+for\s+now)?|"
    r"don'?t\s+do\s+anything(?:\s+(?:yet|for\s+now))?)"
)
_NOTHING_BUT_COURTESY = LazyRe(
    r"(?i)[\s,.!…]*(?:pls|plz|please|плиз|пожалуйста|пж|sorry|сорри|извини\w*|thanks|спасибо|"
    r"(?:оставь|оставляй|пусть\s+будет|пусть\s+оста[её]тся)\s+(?:всё\s+|все\s+|её\s+|ее\s+|его\s+)?как\s+(?:было|есть)|"
    r"leave\s+(?:it|everything)\s+as\s+(?:it\s+was|is))?[\s,.!…)]*$"
)


def called_off_at_the_end(text: str, now: datetime) -> bool:
    """Whether the message ends by calling off everything it asked for (see `_CALLED_OFF`)."""
    from planner.analysis import analyse

    for m in _CALLED_OFF.finditer(text):
        if _NOTHING_BUT_COURTESY.fullmatch(text[m.end() :]):
            asked = analyse(text[: m.start()], now)
            return asked.has(*_CHANGES) or _any_request_verb(asked.text)
    return False
