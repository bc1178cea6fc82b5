"""Coverage (DESIGN §5a): a draft holds only what was understood.

- A sentence that asks never becomes a write: a rule that would draft a change from a question is
  passed over, and the question goes to the rules that answer questions.
- A clause that asks for something (an imperative, or an English verb at its start) and that no
  intent explains is named back to the person, with a way to reword or skip it, instead of being
  dropped from the draft. A clause is explained when a rule read it, or when every word it carries
  is already in an intent another clause produced ("…, assign it to Max" after "create an issue …
  for Max"). Clauses that only tell (past tense, context: "её завели по ошибке") ask for nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from planner._lazy_re import LazyRe
from planner.analysis import CUES, NEW_SOMETHING_ELSE, Clause, analyse, cue_words, reports_past
from planner.context import BuildContext
from planner.date_gaps import date_gaps
from planner.dates import extract_duration
from planner.intents import IntentBase, toolkit_of
from planner.resolve import Mention, WordKey, key_spans, keys_for, match_words
from planner.text import IN_QUOTES, is_imperative, is_infinitive, norm
from toolkits.errors import ToolkitError

__all__ = [
    "ACTION_CUES", "Coverage", "QuestionNotWrite", "asks_advice", "asks_for_something", "interrogative", "value_gaps",
]  # fmt: skip

ACTION_CUES = (
    "create", "put", "move", "complete", "delete", "archive", "comment", "assign", "remind", "rename",
    "note_verb", "followup", "todo", "block", "meeting", "schedule", "note",
)  # fmt: skip
_WH = LazyRe(
    r"^\s*(?:(?:а|и|ну|так|so|and|ok|okay|hey)[,\s]+)?(?:есть\s+ли|кто|сколько|какие|какой|какая|какое|каких|каким|"
    r"где|когда|почему|зачем|чей|чья|чьё|чьи|что(?![-\w])|чем|who|whom|whose|what|which|how|where|why|any|anything|"
    r"whats|whos|hows|wheres|"  # typed without the apostrophe
    r"when(?:'s|s|\s+(?:is|are|was|were|does|do|did|will|would|should|can|could)))\b",  # not "when you can, …"
    re.IGNORECASE,
)
# "should i close ENG-101 or wait for QA", «стоит ли закрывать …»: asking for advice, dictated without "?"
_ADVICE = LazyRe(
    r"(?i)^\s*(?:(?:so|and|hmm+|um+|ну|а)[,\s]+)?(?:(?:maybe|perhaps)\s+)?(?:(?:should|shall)\s+(?:i|we)|"
    r"(?:i|we)\s+should)\b(?=[^?]*\?)|^\s*(?:(?:so|and|hmm+|um+)[,\s]+)?(?:should|shall)\s+(?:i|we)\b"
    r"|^\s*(?:(?:слушай|слушайте|кстати|ну|а|так)[,\s]+)*(?:может,?\s+)?стоит\s+ли\b|^\s*может,?\s+(?:нам\s+)?стоит\b(?=[^?]*\?)"
    # "Should ENG-101 be closed already?": whether it should, asked
    r"|^\s*(?:should|shall)\s+(?:[\w-]+\s+){1,4}?(?:be|go|get|move|stay)\b(?=[^?]*\?)"
    # «может закрыть ENG-101?», «может, перевести Globex в Lost?»: whether to, asked
    r"|^\s*может,?\s+(?:нам\s+|мне\s+|уже\s+)*[а-яё]+(?:ть|ться)\b(?=[^?]*\?)"
)  # "should we …", "Maybe we should move X to Lost?": advice asked for, no change
# «…? как думаешь», "what do you think — …?": an opinion asked for, nothing to do yet
_OPINION = LazyRe(
    r"(?i)(?:^|[?,.!;—–-]\s*)(?:как\s+(?:ты\s+|вы\s+)?(?:думаешь|думаете|считаешь|считаете)|what\s+do\s+you\s+think|"
    r"do\s+you\s+think\b[^?]*\?|wdyt|как\s+тебе\s+кажется)\s*\??\s*$"
)
_AUX = LazyRe(r"^\s*(?:is|are|was|were|did|does|do|has|have|will|ли)\b", re.IGNORECASE)
# "Has Globex pilot been moved to Won", "Is ENG-101 done": dictated without "?", still asked — no request
# starts with these words ("do …" and "have Max call …" can)
_NEVER_A_COMMAND = LazyRe(
    r"(?i)^\s*(?:(?:so|and|ok|okay|hey)[,\s]+)?(?:has|is|are|was|were|did|does|hasn'?t|isn'?t|didn'?t)\s+"
    r"(?!(?:it|that|this)\s+(?:possible|ok|okay|alright|fine)\b|there\s+(?:a|any)\s+way\b)\S"
)
# "Tell me whether Globex has been moved to Won", «Скажи, закрыта ли уже ENG-101»: a question wrapped
# in a request to tell; the verb after it is what the person asks about, never what to do
_TELL_ME_WHETHER = LazyRe(
    r"(?i)^\s*(?:(?:а|ну|и|so|and|hey|ok|okay)[,\s]+)?(?:(?:can|could|would)\s+you\s+(?:please\s+)?|please\s+)?"
    r"(?:(?:tell|let)\s+me(?:\s+know)?|check|find\s+out|see)\s*,?\s+(?:whether|if)\b"
    r"|^\s*(?:(?:а|ну|и)[,\s]+)?(?:скажи|скажите|подскажи|подскажите|уточни|уточните|проверь|проверьте|посмотри|"
    r"посмотрите|глянь|гляньте)(?:\s+(?:мне|пожалуйста|плз|плиз))*\s*,?\s+(?:[^\W\d_]+\s+)?(?:ли|[^\W\d_]+\s+ли)\b"
)
_LEAD = LazyRe(
    r"^\s*(?:(?:and|then|also|please|pls|and then|ну|и|а|потом|затем|также|ещё|еще|пожалуйста|короче|so|ok|okay)[,\s]+)*",
    re.IGNORECASE,
)
# words that carry nothing of their own in a clause: pronouns, record nouns, courtesy
_EMPTY = frozenset(
    "it its it's this that them their they there here him her his me my you your our us the a an to for on in at "
    "of and or with as is are be record records entry card one ones all every please pls also too now then so "
    "он она оно они его её ее их ему ей им ней нему ним неё нее это этот эту эта этой этого тот ту та там тут "
    "мне меня мой мою мои моё наш нашу наши запись записи карточку карточка все всё всех каждую каждый тоже "
    "также ещё еще пожалуйста плз теперь сейчас и а но в во на с со к ко по у о об от до за из для "
    "title name stage status state date due field value details info должность название стадию стадия статус "
    "срок поле значение данные".split()
)


_ACTION_VERBS = frozenset().union(*(CUES[c] for c in ACTION_CUES))  # the words a request is asked with
# things a request makes or changes: said after an unknown imperative, the clause asked for something
_THINGS = ("note", "task", "issue", "meeting", "comment", "deal", "company", "person", "project")


# a thing asked for in the accusative, its verb left out: «…, и к сделке заметку», «и туда задачу …»
_THING_ASKED = (
    r"(?:заметку|встречу|коммент(?:арий)?|задачу|таску|тикет|"
    # "…won + onboarding and note 'signed'": the English thing said bare, its verb left out
    r"an?\s+(?:note|task|ticket|issue|comment|meeting)|note)(?![\w-])"
)
_ASKED_AS_OBJECT = LazyRe(r"(?i)(?<![\w-])(?:заметку|встречу|коммент(?:арий)?)(?![\w-])(?![^:]*\?\s*$)")


_WHICH_OF_THEM = LazyRe(
    r"(?i)\s*(?:(?:but\s+)?only\s+)?(?:the\s+ones|those|только|те,?\s+(?:что|которые)|назначенн\w*|висящ\w*|помеченн\w*|"
    r"просроченн\w*|assigned\s+to|owned\s+by|tagged|labell?ed|without\s|with\s+(?:the\s+)?(?:label|tag)|без\s|с\s+метк)"
)
_THING_NAMED = LazyRe(
    r"(?i)\b(?:ticket|issue|bug|task|note|deal|тикет\w*|задач\w*|баг\w*|заметк\w*|сделк\w*)\b[^.!?«\"“']{0,20}[«\"“']"
    r"[^«»\"“”']{3,}[»\"”']"
)
# «…: сумма 55 000, и …», "owner: Max": a field said with its value, a change even without a verb
_SETS_A_FIELD = LazyRe(
    r"(?i)^\s*(?:(?!(?:как\w*|what|which|какой|где|when|когда)\b)[^\W\d_]+\s+){0,3}?"  # («глобекс пилот сумма …»)
    r"(?:сумм\w*|amount|value|стади\w*|stage|owner|ответственн\w*|срок|due|priority|приоритет\w*)"
    r"(?!.*\b(?:stays?|unchanged|the\s+same|as\s+is|остаётся|остается|прежн\w*|не\s+меня\w*|без\s+изменени\w*)\b)"
    r"\s*[:—=-]?\s*[^\s?]+(?:\s+[^\s?]+){0,3}\s*[.!]?$"
)  # "amount stays": kept as it is, nothing to change


_THING_FIRST = LazyRe(
    rf"(?i)^\W*(?:(?:и|а|ещё|еще|also|and|plus)\s+)?(?:\S+\s+){{0,2}}?{_THING_ASKED}(?!.*\?\s*$)"
)


def asks_advice(text: str) -> bool:
    """ "Should we move Globex to Lost?", «может закрыть ENG-101? как думаешь»: an opinion asked for, not a change."""
    t = text.strip()
    first = re.match(r"[^?]+\?", t)
    return bool(_ADVICE.match(t) or _OPINION.search(t) or first and _ADVICE.match(first.group(0)))


class QuestionNotWrite(Exception):
    """A rule tried to draft a change from a question; the next rules get the clause."""


_THING_BEFORE_THAT = LazyRe(r"(?i)([^\W\d_]+)\s*,?\s+(?:что|that)\s")
_SAYS_THAT = LazyRe(r"(?i)[^\W\d_]{3,}\s*,?\s+(?:что|that)\s+[^\W\d_]")
_ASKED_INFINITIVE = LazyRe(
    r"(?i)\b(?:сказал\w*|велел\w*)\s+(?:(?:мне|нам|бы|ещё|еще|срочно)\s+)?"
    r"(?!передать|сообщить|сказать)([а-яё]+(?:ть|ти))\b"
)
_OR_NOT = LazyRe(r"(?i)\b(?:или\s+нет|или\s+как|or\s+not(?:\s+yet)?)\s*[?.!]*\s*$")


_INTERJECTION = LazyRe(r"(?i)^(?:(?:wait|hmm+|oh|hey|um+|uh+|слушай|стоп|подожди|погоди|хм+)[,\s]+)+(?=\w)")
_OR_IS_IT = LazyRe(
    r"(?i)\?\s*(?:or|или)\s+(?:is|are|was|were|does|did|has|have|should|it'?s|(?:он|она|оно|всё|все)\s+(?:ещё|еще)|"
    r"(?:ещё|еще)\s+(?:рано|нет|не))\b"
)


def interrogative(clause: Clause) -> bool:
    """The clause asks rather than commands: a question word first (dictated questions carry no
    "?"), an auxiliary with a question mark ("is ENG-101 done?"), or a question mark after no verb."""
    text = _INTERJECTION.sub("", clause.text.strip())  # "Wait, did we already move …?": asked all the same
    if _OR_IS_IT.search(text):
        return (
            True  # "move the iOS thing to done? or is it still broken": asked whether, with the other answer
        )
    if (
        _WH.match(text)
        or _ADVICE.match(text)
        or _OPINION.search(text)
        or _TELL_ME_WHETHER.match(text)
        or _NEVER_A_COMMAND.match(text)
    ):
        return True
    asked_first = re.match(r"[^?]+\?", text)  # "Maybe we should move …? They've been silent …": asked first
    if asked_first and (_ADVICE.match(asked_first.group(0)) or _AUX.match(asked_first.group(0))):
        return True
    if (text.endswith("?") or re.search(r"(?i)\b(?:yet|already|by\s+now)\W*$", text)) and (
        _AUX.match(text) or re.match(r"(?i)\s*(?:should|shall)\b", text)
    ):
        return True  # ("Has Globex signed yet, what stage are they in?": asked, its mark said at the end)
    if _OR_NOT.search(text) and not asks_for_something(clause):
        return True  # «а глобекс уже подписал или нет», "is it done or not": a question said without "?"
    return text.endswith("?") and not asks_for_something(clause)


def asks_for_something(clause: Clause) -> bool:
    """An action word said as a request: a Russian imperative anywhere, a Russian infinitive or an
    English verb where the clause starts ("…and move it", "подготовить отчёт к пятнице")."""
    # "'We're ready to sign…' note it on her record": the quoted words come first, the request after them
    said = re.sub(r"^\s*(?:'(?:[^']|'(?=\w))*'|«[^»]*»|\"[^\"]*\"|“[^”]*”)[\s.,:;—-]*", "", clause.text)
    words = re.findall(r"[^\W\d_]+", _LEAD.sub("", said))
    if not words:
        return False
    told = re.search(r"\s[—–-]\s+(?=\S)", said)  # "Maria asked for X - file it in ENG": told, then asked
    if told and told.start() > 0 and _verb_first(said[told.end() :]):
        return True
    aside = re.match(r"(?i)\s*(?:on|for|re|about|regarding|по|про|насч[её]т)\s+[^,]{1,40},\s*(?=\S)", said)
    if aside and _verb_first(
        said[aside.end() :]
    ):  # "On romashka, bump the deal to …": what about, then the ask
        return True
    for so in re.finditer(r"(?i)(?:[,;]\s*|\s)(?:so|then|and\s+then)\s+(?:please\s+)?(?=[a-z])", said):
        rest = said[so.end() :]  # ("…, so please update it": the change already asked, said again)
        if _verb_first(rest) and not re.match(r"(?i)\S+\s+(?:it|them|that|this)\b", rest):
            # "…agreed on 1.5m, so update the implementation deal to that"
            return True
    heading = re.search(r":\s+(?=\S)", said)  # "Umbrella Health chat, 14:05: File in ENG as '…'"
    # («Анна просила кое-что: перевести сделку …»: a heading, then the request itself)
    if heading and heading.start() > 0 and _verb_first(said[heading.end() :], russian=True):
        return True
    first = norm(words[0])
    if first in _ACTION_VERBS and (first.isascii() or is_imperative(first) or is_infinitive(first)):
        return not NEW_SOMETHING_ELSE.match(said)  # "New contractor starts Monday": news, not "create"
    if any(not w.isascii() and norm(w) in _ACTION_VERBS and is_imperative(norm(w)) for w in words[1:]):
        return True
    # «Мне Анна сказала завести в CRM компанию …»: someone's instruction passed on, an infinitive after it
    return clause.has("company", "deal", "person", "issue", "task", "note") and any(
        norm(w) in _ACTION_VERBS and is_infinitive(norm(w))
        for w in (m.group(1) for m in _ASKED_INFINITIVE.finditer(said))
    )


def _verb_first(text: str, *, russian: bool = False) -> bool:
    """The words open with an English action verb ("file it in ENG", "add a note …"); with `russian`,
    a Russian one said as a request too («перевести сделку …», «переведи …»)."""
    words = re.findall(r"[^\W\d_]+", _LEAD.sub("", text))
    if not words or norm(words[0]) not in _ACTION_VERBS:
        return False
    first = norm(words[0])
    return words[0].isascii() or russian and (is_imperative(first) or is_infinitive(first))


def _unknown_verb_for_a_thing(clause: Clause) -> bool:
    """«швырни заметку …», «оформи-ка таску»: a Russian imperative no cue knows, said of a thing a request
    makes or changes. Unread, it is named back rather than dropped from a draft."""
    words = re.findall(r"[^\W\d_]+", _LEAD.sub("", clause.text))
    return bool(words) and is_imperative(norm(words[0])) and clause.has(*_THINGS)


def _values(intent: IntentBase) -> list[str]:
    out = [
        str(v)
        for k, v in intent.model_dump(exclude_none=True).items()
        if k not in ("op", "confidence", "span")
    ]
    for found in intent._resolved.values():
        entity = found[1] if isinstance(found, tuple) else found
        name = getattr(entity, "name", None) or (entity.get("title") if isinstance(entity, dict) else None)
        if name:
            out.append(str(name))
    return out


# what an action word may have been said about, by the operations that carry it out
_OPS = {
    "create": ("create_", "apply_template"), "put": ("update_", "complete_"), "move": ("update_", "complete_"),
    "assign": ("update_",), "rename": ("update_",), "complete": ("complete_", "update_"),
    "delete": ("delete_", "archive_"), "archive": ("archive_",), "comment": ("comment_",),
    "note_verb": ("create_note",), "remind": ("create_task", "create_issue"), "todo": ("create_task", "create_issue"),
    "followup": ("create_task", "create_issue"), "block": ("create_event",), "meeting": ("create_event",),
    "schedule": ("create_event",),
}  # fmt: skip


def _same_kind(clause: Clause, intents: list[IntentBase]) -> bool:
    """A clause of only a verb ("update their record") repeats what another clause asked for."""
    ops = [i.op for i in intents]
    if re.search(r"(?i)\b(?:her|him|them|его|её|ее|их)\b", clause.text) and not any(
        op in ("create_person", "update_record", "create_note", "create_task", "delete_record") for op in ops
    ):
        return False  # "…: Sara Lee, sara@hooli.xyz. Add her to the CRM, and create the company": she is no company
    if clause.has("assign") and any(
        getattr(i, "assignee", None) or getattr(i, "owner", None) for i in intents
    ):
        return True  # "create a CS issue …, assign to me": the create carries the assignee
    return any(op.startswith(_OPS[c]) for c in ACTION_CUES if clause.has(c) for op in ops)


def _own_words(clause: Clause) -> list[WordKey]:
    """The words a clause carries besides action words, pronouns, record nouns and courtesy."""
    return [k for k in keys_for(clause.text) if k.text not in _EMPTY and k.text not in cue_words()
            and not k.lemmas & cue_words()]  # fmt: skip


@dataclass
class Coverage:
    """Clauses that asked for something no rule read, checked against what the others produced."""

    candidates: list[tuple[int, Clause]] = field(default_factory=list)
    missing: list[tuple[int, str]] = field(default_factory=list)

    def check(self, index: int, clause: Clause, explained: bool) -> None:
        if index > 0 and _WHAT_WE_ARE_DOING.match(clause.text):
            return  # "…, we're resending terms to everyone": why, said after the request
        if not explained and (
            asks_for_something(clause)
            or _unknown_verb_for_a_thing(clause)
            or _SETS_A_FIELD.match(clause.text)
            or index > 0
            and bool(_THING_FIRST.match(clause.text))  # «…, и туда задачу подготовить договор»
            # "…. ENG ticket 'send SOC2 report' label security": a thing named by a quote, its verb left out
            or index > 0
            and bool(_THING_NAMED.search(clause.text))
            # "close all CS issues, the ones assigned to oleg": which ones, left unread, would widen the change
            or index > 0
            and len(clause.text.split()) <= 7
            and bool(_WHICH_OF_THEM.match(clause.text))
            # "Triage pass: the PDF export crash goes to Oleg, …": a thing sent somewhere, never dropped unread
            or bool(_GOES_TO.search(clause.text))
            # "…: they signed. Won, onboarding template, …": an outcome said alone, its deal not found
            or index > 0
            and bool(_OUTCOME_SAID_ALONE.search(clause.text))
        ):
            self.candidates.append((index, clause))

    def check_kinds(self, index: int, clause: Clause, ops: list[str]) -> None:
        """A clause that asks for a note, a meeting or a comment by name, read as something else
        ("кп отправил … — закинь заметкой в сд" read as a stage change): the part asked for by
        name is not in the draft, so the clause is named back rather than drafted without it."""
        if interrogative(clause) or clause.asks() and not _SAYS_THAT.search(clause.text):
            return  # («…пишет что SSO не работает, надо написать комментарий …»: «что» tells, asks nothing)
        verb = (
            clause.has("create", "put", "note_verb", "schedule", "block")
            or asks_for_something(clause)
            or bool(_ASKED_AS_OBJECT.search(clause.text))  # «…, и к сделке заметку»: its verb left out
        )
        # "Add an issue: write the release notes": words after a colon are content, they ask for nothing
        head = keys_for(clause.text.split(":", 1)[0]) if clause.after_colon is not None else clause.keys
        if IN_QUOTES.search(clause.text):  # "rename … to 'Quarterly sync …'": a quote's words ask for nothing
            head = keys_for(IN_QUOTES.sub(" ", clause.text.split(":", 1)[0]))
        said_that = re.search(r"(?i),?\s+(?:что|that)\s", clause.text)
        if (
            said_that and clause.after_colon is None
        ):  # «оставь комментарий, что созвон назначен»: what it says
            head = keys_for(clause.text[: said_that.start()])
            # «…пишет что SSO не работает надо написать комментарий что клиент …»: the thing said right before
            # a later «что» is asked for too, and so is one in the words that end on the verb («… что юрист
            # смотрит договор заметку к сделке сделай»)
            named = [m.group(1) for m in _THING_BEFORE_THAT.finditer(clause.text[said_that.end() :])]
            words = clause.text.split()
            if words and is_imperative(norm(re.sub(r"\W+$", "", words[-1]))):
                named += words[-5:]
            head += keys_for(" ".join(named)) if named else []
        wanted = [
            op
            for cue, op in (
                ("note", "create_note"),
                ("meeting", "create_event"),
                ("comment", "comment_issue"),
            )
            if clause.has(cue)
            and verb
            and any(k.text in CUES[cue] or k.lemmas & CUES[cue] for k in head)
            and not (cue == "meeting" and reports_past(clause))  # «…, созвон провели утром»: one that was
            # ("create an issue for oleg, investigate memory leak in the sync worker": the word is the issue's)
            and not (cue == "meeting" and ops == ["create_issue"])
            and not (cue == "note" and _DOCUMENT_NOTES.search(clause.text))  # "write the release notes"
        ]
        if any(op not in ops and not (op == "create_event" and "find" in ops) for op in wanted):
            self.missing.append((index, clause.text.strip()))

    def uncovered(self, intents: list[IntentBase]) -> list[tuple[int, str]]:
        said = keys_for(" ".join(v for i in intents for v in _values(i)))
        out = []
        for index, clause in self.candidates:
            own = _own_words(clause)
            # ("Put the login timeout fix in review and comment: …": its words name the issue the comment is
            # on, but the move it asks for is in no intent — named back, never dropped)
            # (a new thing's fields said after it — "…, put it in the Q1 Launch project" — are the create's)
            acts = any(clause.has(c) for c in ACTION_CUES) and not any(
                i.op.startswith(("create_", "apply_")) for i in intents
            )
            if not (
                (match_words(own, said) and (not acts or _same_kind(clause, intents)))
                if own
                else _same_kind(clause, intents)
            ):
                out.append((index, clause.text.strip()))
        return sorted([*out, *self.missing])


_GOES_TO = LazyRe(
    r"(?i)\b(?:goes|go|moves?|gets?\s+(?:moved|assigned|reassigned|handed)|is\s+(?:moved|handed|assigned))\s+"
    r"(?:back\s+|over\s+)?(?:to|into|in|under)\s+(?-i:[A-Z])"
)
# a document called notes, no CRM note: "the release notes for v2.3", «релиз-ноты»
_DOCUMENT_NOTES = LazyRe(r"(?i)\b(?:release|patch|релиз)[\s-]+(?:notes|ноты|нотсы)\b")
_WHAT_WE_ARE_DOING = LazyRe(
    r"(?i)^\s*(?:and\s+|since\s+|because\s+|as\s+)?(?:we|they|i|he|she)(?:'re|'m|'s|\s+are|\s+am|\s+is)\s+[a-z]+ing\b"
)


# ---- values: every value a person gave lands in an intent, or is named back ----------------------
_VAGUE_WHEN = LazyRe(
    r"(?i)\b(?:после\s+(?:праздников|нового\s+года|каникул|отпуска)|на\s+днях|как-?нибудь|когда-?нибудь|попозже|"
    r"в\s+начале\s+(?:года|следующего\s+года)|в\s+следующем\s+квартале|after\s+the\s+holidays|sometime(?:\s+soon)?|"
    r"at\s+some\s+point|one\s+of\s+these\s+days|early\s+next\s+year|next\s+quarter)\b"
)
_EMAIL_RX = LazyRe(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_DOMAIN_RX = LazyRe(
    r"(?<![@\w.])((?:[a-z0-9-]+\.)+(?:com|ru|io|org|net|dev|ai|co|app|tech|biz|info|me|us|uk|de))\b", re.I
)
# a field named with its value: the value must land in that field, not in a title
_FIELD_PHRASES = [
    (re.compile(r"\b(?:исполнитель|ответственн\w*|assignee|assigned\s+to|owner)\s*[:—-]?\s*(\S+)", re.I),
     ("assignee", "owner")),
    (re.compile(r"\b(?:приоритет\w*|priority)\s*[:—-]?\s*(\S+)", re.I), ("priority",)),
    # ("the tag list" is a thing's name; "tag it customer-request" names the label after "it")
    (re.compile(r"(?<!the\s)(?<!a\s)\b(?:метк\w+|лейбл\w*|label|tag)(?:\s+(?:it|them|this|that|its|их|её|ее|его))?"
                r"(?:\s+(?:as|with))?\s*[:—-]?\s*(\S+)", re.I), ("labels", "labels_add", "labels_remove", "label")),
    (re.compile(r"\b(?:job\s+title|должность\w*|position)\s*[:—-]?\s*(\S+)", re.I), ("job_title", "title")),
]  # fmt: skip
_RECIPIENT_BEFORE = LazyRe(
    r"(?i)\b(?:to|for|на|для|assign|assignee|owner|owned\s+by|handled\s+by|AE|поручи|передай|передать|отдай|отдать|give|ответственн\w*|"
    r"исполнител\w*)\s*[:—-]?\s*$"
)
_PLACE_BEFORE = LazyRe(r"(?i)\b(?:в|во|in|into|to|for|для|команд\w*|team|project|проект\w*)\s*[:—-]?\s*$")
_FROM_BEFORE = LazyRe(r"(?i)\b(?:из|from|out\s+of)\s+(?:the\s+)?(?:проекта|project|команды|team)?\s*$")
_OWNS_AFTER = LazyRe(
    r"(?i)\s+(?:owns|takes|will\s+own|is\s+the\s+owner|берёт|берет|возьм[её]т|ведёт|ведет)\b"
)
_DOER_AFTER = LazyRe(r"(?i)\s+(?:to|should|needs\s+to|must|will)\s+[a-z]")
# "Archive ENG-102, Initech told me …", «… — Альфа-Лизинг опять жалуется»: a record said as the one who
# told or asked is the reason for the request, not a value of it
_TELLER_AFTER = LazyRe(
    r"(?i)^\s*(?:(?:also|again|just|already|today|тоже|опять|снова|уже|сегодня)\s+)*(?:про\s+\w|"
    r"(?:told|tells|said|says|asked|asks|confirmed|reported|mentioned|complained|wrote|emailed|called|replied|"
    r"agreed|hit|ran\s+into|pinged|keeps|kept|keep|wants?|wanted|needs?|needed|came\s+back|brought|brings|raised|"
    r"хочет|хотят|спрашивал\w*|спрашива\w+|"
    r"сказал\w*|говор\w+|просил\w*|просят|просит|попросил\w*|пишут|пишет|"
    r"написал\w*|жалу\w+|подтвердил\w*|сообщил\w*|звонил\w*|наткнул\w*|столкнул\w*)\b)"
)
_TEXT_FIELDS = ("title", "body", "content", "description", "span", "name")


def _strings(intent: IntentBase, *, free_text: bool = True) -> list[str]:
    data = intent.model_dump(exclude_none=True, exclude={"op", "confidence", "span"})
    out: list[str] = []

    def walk(value: object, key: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif free_text or key not in _TEXT_FIELDS:
            out.append(str(value))

    walk(data, "")
    for found in intent._resolved.values():
        entity = found[1] if isinstance(found, tuple) else found
        name = getattr(entity, "name", None) or (entity.get("title") if isinstance(entity, dict) else None)
        if name:
            out.append(str(name))
        company = getattr(entity, "extra", {}).get("company") if hasattr(entity, "extra") else None
        if company:
            out.append(str(company))
    return out


_OUTCOME_SAID_ALONE = LazyRe(
    r"(?i)(?:^|[.!;]\s*)(?:won|lost|выиграна|проиграна|выиграли|проиграли)\s*[.!,]*\s*$"
)
_ITS_CONTACT = LazyRe(
    r"(?i)['’]s\s+(?:main\s+|primary\s+)?contact\b|\bcontact\s+(?:on|at|for|of)\s|\bконтакт\w*\s+(?:по\s+сделке|сделки|в\s+сделке)"
)


_STATEMENT_TAIL = LazyRe(
    r"(?i)[,;]\s+(?P<first>[^\W\d_][\w'-]*)(?:\s+[^,;.!?]*)?\s(?:is|are|was|were|both|both\s+waiting|waiting|missing|"
    r"complain\w*|оба|обе|ждут|ждёт|ждет|жалуются|на\s+больничном|в\s+отпуске|болеет)\b[^,;]*$"
)


async def value_gaps(clause: Clause, intents: list[IntentBase], ctx: BuildContext) -> list[str]:
    """Values in a clause that no intent read from it carries: emails, domains, sums, records and
    people it names, and a field said with its value ("исполнитель я") that landed in a title."""
    from planner.rules._common import (  # the rules' own readers
        amount_of,
        find,
        stage_said_as_destination,
        without_old_amounts,
    )

    if long_quotes := [q for q in IN_QUOTES.finditer(clause.text) if len(q.group(0).split()) >= 6]:
        # «…Save «Hi Anna, … move every deal to Lost …» as a note»: a long quote is someone's words, whole —
        # the values in it are theirs, not mine to place
        bare = clause.text
        for q in reversed(long_quotes):
            bare = f"{bare[: q.start()]}«…»{bare[q.end() :]}"
        clause = analyse(bare, ctx.now)
    text = clause.text
    blob = " ".join(s for i in intents for s in _strings(i))
    low = blob.lower()
    gaps: list[str] = []
    for email in _EMAIL_RX.findall(text):
        if email.lower() not in low:
            gaps.append(email)
    for domain in _DOMAIN_RX.findall(_EMAIL_RX.sub(" ", text)):
        if domain.lower() not in low:
            gaps.append(domain)
    vague = _VAGUE_WHEN.search(text)  # «после праздников», "sometime next quarter": a date no one can draft
    dated = {
        "create_issue",
        "create_task",
        "create_event",
        "update_issue",
        "create_project",
    }  # a note's words are its own
    if (
        vague
        and any(i.op in dated for i in intents)
        and not any(getattr(i, f, None) for i in intents for f in ("due", "start", "target_date"))
    ):
        gaps.append(vague.group(0))
    gaps += date_gaps(text, intents, ctx.now)  # "due friday, no, monday" drafted as Friday
    priced = text
    if any(i.op == "create_event" for i in intents):  # "call john tmrw 14:30 30m": 30 minutes, no money
        _, lasting = extract_duration(text)
        priced = text[: lasting[0]] + text[lasting[1] :] if lasting else text
    money = amount_of(without_old_amounts(priced))
    if money is not None:
        number = money[0]
        said = {f"{int(number)}" if float(number).is_integer() else f"{number}"}
        amounts = {str(getattr(i, "amount", None)) for i in intents} | {
            str(int(a))
            for i in intents
            if isinstance(a := getattr(i, "amount", None), float) and a.is_integer()
        }
        kept = amount_of(blob, default=None)  # "…: Li confirmed a 15k budget": the sum is in the note's words
        amounts |= set(ctx.memory.get("changed_by", ()))  # «…на 100 тысяч»: the sum it grows by, used
        if (
            not (said & amounts)
            and not any(s in blob.replace(" ", "") for s in said)
            and not (kept is not None and kept[0] == number)
        ):
            gaps.append(f"{int(number) if float(number).is_integer() else number} {money[1]}")
    keys = keys_for(blob)
    head_end = len(clause.text.split(":", 1)[0]) if clause.after_colon is not None else -1
    spans = key_spans(clause.text)
    listed = len(intents) > 1 and all(i.op == "create_issue" for i in intents)
    why = re.search(
        r"(?i),?\s+(?:since|because|потому\s+что|так\s+как)\s", text
    ) or (  # "…, since Acme reported it"
        # "ENG-105 bump to urgent, Acme Logistics drivers are missing dispatch alerts", «…, Ромашка и Acme оба ждут
        # фикс»: a statement said after the change is why — the records it names are no values of it
        (tail := _STATEMENT_TAIL.search(text))
        and not is_imperative(norm(tail.group("first")))
        and not re.search(r"\d", tail.group(0))
        and tail
    )
    # the companies the intents act on: a person of theirs said beside it is who, not what («…, ну Ли Вэй, …»)
    acted_on = [
        e
        for i in intents
        for found in i._resolved.values()
        for e in [found[1] if isinstance(found, tuple) else found]
    ]
    theirs = {
        str(e.extra.get("company_id") if e.kind == "deal" else e.id)
        for e in acted_on
        if getattr(e, "kind", None) in ("deal", "company")
    }
    # …and, said as the record's contact, the companies of the people they act on: "a note to the Globex
    # pilot's contact" found her by the deal
    their_people = (
        {str(e.extra.get("company_id")) for e in acted_on if getattr(e, "kind", None) == "person"}
        if _ITS_CONTACT.search(text)
        else set()
    )
    for kind in ("company", "person", "deal"):
        for m in await find(ctx, clause, kind):
            if kind == "person" and str(m.entity.extra.get("company_id")) in theirs:
                continue
            if str(m.entity.id if kind == "company" else m.entity.extra.get("company_id")) in their_people:
                continue
            scene = listed and all(spans[p][0] < head_end for p in m.positions if p < len(spans))
            if why and all(spans[p][0] > why.start() for p in m.positions if p < len(spans)):
                continue  # named in the reason, not as a value
            last = max((p for p in m.positions if p < len(spans)), default=None)
            if last is not None and _TELLER_AFTER.match(text[spans[last][1] :]):
                continue  # the one who told or asked: the reason for the request
            if (
                m.score >= 0.9
                and not scene  # "по Initech завести задачи в ENG: SAML, SCIM": what the list is for
                and not match_words(keys_for(m.entity.name), keys)
                and not _said_in(clause, m, keys)
            ):
                gaps.append(" ".join(clause.keys[i].text for i in sorted(m.positions)))
    # colleagues, projects and teams it names ("ENG-105 to Oleg, urgent", "Add an issue to Q1 Launch: …")
    sentences = [x.end() for x in re.finditer(r"[.!?]\s+(?=\S)", text)]
    asked_from = sentences[-1] if sentences else 0  # "Heads up: Oleg is out … . Please reassign …": the ask
    tracker = any(toolkit_of(i) == "linear" for i in intents)  # Linear is asked only when it is in play
    kinds = (
        (("member", 0.5), ("user", 0.5), ("project", 0.9), ("team", 0.9)) if tracker else (("member", 0.5),)
    )
    for kind, least in kinds:
        try:
            mentions = await find(ctx, clause, kind)
        except (LookupError, ToolkitError):  # a toolkit that cannot be read now: its names are not checked
            continue
        for m in mentions:
            at = sorted(p for p in m.positions if p < len(spans))
            if at and re.match(r"-\d", text[spans[at[-1]][1] :]):
                continue  # "folded into ENG-105": the team's key inside an issue's identifier
            words = [text[spans[p][0] : spans[p][1]] for p in at]
            # "eng-103 -> todo, oleg, due mon": a colleague said alone between commas is a value, in any case
            alone = bool(
                at
                and kind in ("member", "user")
                and re.search(r"[,;]\s*$", text[: spans[at[0]][0]])
                and re.match(r"\s*(?:[,;.]|$)", text[spans[at[-1]][1] :])
            )
            # "ENG-103 -> oleg high", "… oleg owns it": typed or dictated in lower case, whom is still plain
            pointed = bool(
                at
                and kind in ("member", "user")
                and m.score >= least
                and words[-1].lower() in m.entity.name.lower().split()  # (the name itself, not a look-alike)
                and (
                    re.search(r"(?:->|→|=>)\s*$", text[: spans[at[0]][0]])
                    or _OWNS_AFTER.match(text[spans[at[-1]][1] :])
                )
            )
            named = (
                m.score >= least
                and words
                and (alone or pointed or all(w[:1].isupper() or not w.isascii() for w in words))
            )
            # a colleague is a value when said as whom it is for or who is to do it ("ENG-105 to Oleg",
            # «задача олегу …», "Oleg to call Maria"); as context ("Oleg is out", «у олега сделка») not
            recipient = (
                kind in ("project", "team")
                and bool(at and _PLACE_BEFORE.search(text[: spans[at[0]][0]]))
                and not _FROM_BEFORE.search(
                    text[: spans[at[0]][0]]
                )  # «из проекта Q1 Launch в …»: the old one
                or kind in ("member", "user")
                and bool(at and _RECIPIENT_BEFORE.search(text[: spans[at[0]][0]]))
                or bool(words and not words[-1].isascii() and words[-1].lower().endswith(("у", "ю")))
                or bool(at and _DOER_AFTER.match(text[spans[at[-1]][1] :]))
                or alone
                or pointed
            )
            taken_from = bool(at and re.search(r"(?i)\b(?:from|от|с|со)\s*$", text[: spans[at[0]][0]]))
            if (
                named
                and recipient
                and not taken_from  # "reassign ENG-101 from Oleg to Max": whom it is taken from
                and spans[at[0]][0] >= asked_from
                and not m.entity.extra.get("is_me")
                and not match_words(keys_for(m.entity.name), keys)
                and not _said_in(clause, m, keys)
            ):
                gaps.append(" ".join(words))
    if any(i.op != "find" for i in intents) and not any(
        _carries(i, "stage") for i in [*intents, *ctx.intents]
    ):  # «сделку в переговоры и сумму …» drafted with the sum alone; "make the deal to won and do the
        # onboarding tasks" drafted with the tasks alone
        stage = await stage_said_as_destination(ctx, clause)
        stage_words = (
            " ".join(clause.keys[p].text for p in sorted(stage.positions) if p < len(clause.keys))
            if stage
            else ""
        )
        written = " ".join(str(getattr(i, "content", "")) for i in intents if i.op == "create_task").lower()
        if (
            stage_words and stage_words.lower() not in written
        ):  # ("remind me to move Globex to Won": a to-do's words)
            gaps.append(stage_words)
    if any(i.op in ("update_deal", "delete_record", "update_matching") for i in intents):
        # "Move the Hooli deal and the Globex pilot to Won": a deal named that is no record here is asked
        # about, never left out while the other is drafted
        for deal_said in _A_DEAL_NAMED.finditer(IN_QUOTES.sub(" ", text)):
            name = deal_said.group(1) or deal_said.group(2)
            if name.lower() in low or name.lower() in _RECORD_WORDS:
                continue
            known = [
                m for kind in ("deal", "company", "person") for m in await find(ctx, clause, kind, text=name)
            ]
            if not [m for m in known if m.score >= 0.5]:
                gaps.append(name)
    for titled in _A_NEW_THING_QUOTED.finditer(text):
        # «Закрой ENG-104 и в ENG новую штуку: «Опубликовать changelog v2»»: words given for a new thing that no
        # drafted change carries are named back, never dropped
        given = next(g for g in titled.groups()[1:] if g).strip()
        if len(given) >= 3 and given.lower() not in low:
            gaps.append(given)
    structured = " ".join(s for i in intents for s in _strings(i, free_text=False)).lower()
    quotes = [
        m.span() for m in re.finditer(r"«[^«»]*»|\"[^\"]*\"|“[^“”]*”|(?<![\w])'[^']{3,}'(?![\w])", text)
    ]
    for rx, fields in _FIELD_PHRASES:
        for phrase in rx.finditer(text):
            if any(a <= phrase.start() < b for a, b in quotes):
                continue  # «ДС получено, SSO в приоритете»: a comment's own words
            if re.search(r"(?i)\b(?:no|without|без|нет)\s+$", text[: phrase.start()]):
                continue  # "…, no assignee for now": none said, nothing to carry
            if not any(_carries(i, f) for i in intents for f in fields):
                if not (fields[0] == "labels" and phrase.group(1).lower() in structured):
                    gaps.append(phrase.group(0).strip())
    return list(dict.fromkeys(gaps))


_A_NEW_THING_QUOTED = LazyRe(
    r"(?i)\b(нов\w+|new|заведи|создай|create|open|file|назови|called|named|titled)\b[^«\"“.;!?]{0,40}?"
    r"(?:«([^«»]{3,120})»|\"([^\"]{3,120})\"|“([^“”]{3,120})”)"
)
# "the Hooli deal", «сделки Hooli и Globex pilot»: a capitalised name said as a deal's
_A_DEAL_NAMED = LazyRe(
    r"\b(?:the\s+)?((?-i:[A-Z][\w-]{2,}))\s+(?i:deal)\b|(?i:\bсделк\w*)\s+((?-i:[A-ZА-ЯЁ][\w-]{2,}))\s+(?i:и|and)\s"
)
_RECORD_WORDS = frozenset(
    "the this that our their his her its move set put mark close rename update delete remove create add new "
    "archive change edit log note".split()
)


def _carries(intent: IntentBase, field: str) -> bool:
    """The intent sets this field: itself, or in a bulk change's `changes` or `filters`."""
    if field in type(intent).model_fields and getattr(intent, field, None) is not None:
        return True
    changes = {**(getattr(intent, "changes", None) or {}), **(getattr(intent, "values", None) or {})}
    filters = getattr(intent, "filters", None)
    singular = field.removesuffix("s") if field.startswith("label") else field
    return (
        field in changes
        or singular in changes
        or filters is not None
        and getattr(filters, singular, None) is not None
    )


def _said_in(clause: Clause, mention: Mention, keys: list[WordKey]) -> bool:
    """The words that named the record are among the intents' words (a title that mentions it)."""
    words = [clause.keys[i] for i in sorted(mention.positions) if i < len(clause.keys)]
    return bool(words) and match_words(words, keys)
