"""Attio notes: «заметка к сделке …», "log it on …", "note that on …", a note after a told sentence."""

from __future__ import annotations

import re
from dataclasses import replace

from planner._lazy_re import LazyRe
from planner.analysis import Clause, analyse, head_of
from planner.context import BuildContext
from planner.directory import Entity
from planner.intents import MISSING
from planner.intents.models import CreateNote
from planner.resolve import key_spans, keys_for
from planner.rules import rule
from planner.rules._common import (
    SOMEONES_WORDS,
    answered_record,
    company_of,
    find,
    quoted,
    said_outside_quotes,
    says_nothing,
    strip_fillers,
    strong,
    the_one_contact_at,
)
from planner.rules.attio import (
    OBJECT,
    PRONOUN,
    crm_target,
)

__all__ = ["note"]

_ON_IT = LazyRe(r"(?i)\b(?:on|to|for|к|в)\s+(?:it|them|him|her|нему|ней|неё|нее|ним|него|них)\b")


_SUBJECT_PRONOUN = LazyRe(r"\b(?:she|he|they|она|он|они)\b", re.I)


_NOTE_SPLIT = LazyRe(r"\s+[—–-]\s+|\s+(?:что|that|saying)\s+", re.IGNORECASE)


_QUOTE_THEN_SENTENCE = LazyRe(r"\s*(['\"«“])([^'\"«»“”]{3,}?)(?:['\"»”])\s*[.!]\s+(?=[A-ZА-ЯЁ])")


_QUOTED_WHOLE = LazyRe(r"\s*(?:'([^']{3,})'|[\"“«]([^\"“”«»]{3,})[\"”»])\s*[.!]?\s*")


_QUOTED_AT_THE_END = LazyRe(r"\s(?:'([^']{3,})'|\"([^\"]{3,})\"|«([^«»]{3,})»|“([^“”]{3,})”)\s*[.!]?\s*$")
_A_NOTE_ASKED = LazyRe(r"(?i)\b(?:note|заметк\w*)\b(?!\s*[:—–])")
_NOTE_TO = LazyRe(r"(?i)\s+(?:к|ко|для|по|про|on|to|for|about)\s+(?:the\s+)?")


async def _dashes_in_names_masked(text: str, ctx: BuildContext) -> str:
    """`text` with the dash inside a record's name («Acme Logistics — pilot») made no dash, so it is not read as
    where the note's words begin; same length, so every position still fits `text`."""
    for deal in await ctx.directory.deals():
        if not re.search(r"\s[—–-]\s", deal.name):
            continue
        said = r"\s*[—–-]\s*".join(re.escape(part) for part in re.split(r"\s*[—–-]\s*", deal.name))
        for m in re.finditer(rf"(?i){said}", text):
            text = text[: m.start()] + re.sub(r"[—–-]", "~", m.group(0)) + text[m.end() :]
    return text


# "the same note to John Smith and Li Wei", «одну и ту же заметку Ивану Петрову и Jane»: two or more records
_ON_EACH_OF = LazyRe(
    r"(?i)\b(?:note|notes|заметк\w*)\s+(?:to|on|for|к|для|в)\s+((?:[A-ZА-ЯЁ][\w-]*(?:\s+[A-ZА-ЯЁ][\w-]*)?)"
    r"(?:\s*(?:,|\band\b|\bи\b|&)\s*(?:к\s+)?[A-ZА-ЯЁ][\w-]*(?:\s+[A-ZА-ЯЁ][\w-]*)?)+)\s*$"
)
_WHAT_NOTE_WHERE = LazyRe(
    r"(?i)^\s*(?:please\s+)?(?:add|leave|put|log|drop)\s+(?:a|an)\s+(?P<what>(?!quick\b|short\b|new\b)[^,:;—–]{3,60}?)\s+note\s+"
    r"(?P<where>(?:to|on|for|under)\s+[^,:;—–]{3,80}?)\s*[.!]?\s*$"
)


async def _note_after_target(clause: Clause, ctx: BuildContext) -> tuple[str, str | None]:
    """No colon, dash or "что": the note is what follows the record's name and the word "заметку"."""
    said_before = _WHAT_NOTE_WHERE.match(clause.text)
    if said_before:  # "add a 5% discount note to the deal in negotiation": what it says, before "note"
        return f"add a note {said_before['where']}", said_before["what"]
    spans = key_spans(clause.text)
    last = -1
    named = [m for kind in ("person", "company", "deal") for m in strong(await find(ctx, clause, kind))]
    full = [
        m for m in named if m.score >= 0.9
    ]  # a first name alone ("we" ~ Wei) is not where the record ends
    for m in full or named:
        last = max(last, *m.positions)
    noun = [i for i, k in enumerate(clause.keys) if re.fullmatch(r"заметк\w*|note|запиши|оставь", k.text)]
    to = next(
        (
            i
            for i in noun
            if i + 1 < len(spans) and _NOTE_TO.fullmatch(clause.text[spans[i][1] : spans[i + 1][0]])
        ),
        None,
    )
    right_after = [m for m in full or named if to is not None and m.positions and min(m.positions) == to + 1]
    if right_after:
        # «запиши заметку к ромашке иван петров просит …»: the record right after "note to" is where it goes;
        # a name said after it is the note's own words
        last = max(max(m.positions) for m in right_after)
        noun = []
    if (
        last >= 0
        and last + 1 < len(clause.keys)
        and re.fullmatch(
            r"deal|сделк\w*|company|компани\w*|contact|контакт\w*|record|запис\w*|card|карточк\w*",
            clause.keys[last + 1].text,
        )
    ):
        last += 1  # "…to the globex pilot deal legal review is done": the record's noun is not the note
    cut = max([last, *noun]) if noun or last >= 0 else -1
    if cut < 0 or cut + 1 >= len(spans):
        return clause.text, None
    start = spans[cut + 1][0]
    return clause.text[:start], clause.text[start:].strip(" ,.:-—") or None


_THE_REASON = LazyRe(
    r"(?i)\s*(?:with\s+|about\s+|of\s+)?(?:the\s+|a\s+)?(?:reason(?:\s+why)?|why)|\s*(?:с\s+)?(?:причин\w*|почему)(?:\s+отказа)?\s*[.!]?\s*"
)


_LEAD_IN_ONLY = LazyRe(
    r"(?i)^\s*(?:quick\s+one|quick\s+q(?:uestion)?|one\s+more\s+(?:thing|one)|btw|fyi|ok(?:ay)?(?:\s+so)?|so|also|"
    r"и\s+ещё|ещё\s+одно|ещё\s+момент|короче|слушай|кстати|так|значит)\W*$"
)


# where a note goes, said with it ("a note to Acme Corp", «заметку к Globex»), and whom its words came from
_NOTE_ON_A_PLACE = LazyRe(r"(?i)\b(?:note|заметк\w*)\s+(?:to|on|for|under|к|ко|на|в|во)\s+\S")
_FROM_SOMEONE = LazyRe(
    r"(?i)(?:\s*[,;—–-]\s*|\s+(?=(?:forwarded|sent|fwd|пересла|присла)))(?:(?:forwarded|sent|fwd|пересла\w*|присла\w*)\s+)?"
    r"(?:from|от)\s+[^\W\d_][\w-]*"
    r"(?:\s+[^\W\d_][\w-]*)?\s*$"
)
_NOTE_THAT = LazyRe(r"(?i)\b(?:note|заметк\w*)\s*,?\s+(?:that|saying|что|о\s+том,?\s+что)\s+(\S.*)$")
_TARGET_THEN_SPEAKER = LazyRe(
    r"(?i)(.*?\b(?:заметк\w*|note)\s+(?:к|ко|на|в|во|on|to|for)\s+[^\W\d_][\w-]*)[\s,]+(?:(?:типа|like|мол|значит|короче|ну)[\s,]+)?"
    r"([^\W\d_]+(?:\s+[^\W\d_]+)?)\s+(?:сказал\w*|говорит|говорил\w*|передал\w*|said|says|told\s+me)\s*$"
)
_FOR_ALL_TO_SEE = LazyRe(
    r"(?i),?\s*(?:чтобы|чтоб|so\s+that|so)\s+(?:все|всем|everyone|everybody|the\s+team)\b.*$"
)


_SAID_THEN_NOTED = LazyRe(
    r"(?is)(.{3,}?)\s*[,;—–-]\s*((?:please\s+|пожалуйста\s+)?(?:запиши|добавь|оставь|закинь|сохрани|log|add|save|put)\s+"
    r"(?:это\s+|it\s+|that\s+|this\s+)?(?:заметк\w*|как\s+заметк\w*|(?:as\s+)?an?\s+note)\b.*)"
)


_NOTED_AT_THE_END = LazyRe(
    r"(?is)(.{8,}?)\s*[,;—–-]?\s+((?:запиши|занеси|закинь|сохрани|добавь)\s+"
    r"(?:(?:ему|ей|им|к\s+нему|к\s+ней|это|всё\s+это)\s+){1,2}(?:(?:в|во|как)\s+(?:\w+\s+)?заметк\w*|заметк\w+)"
    # («…запиши это заметкой к сделке ну»: where it goes, said after)
    r"(?:\s+(?:к|на|в|во|для)\s+[^,.;!?]{2,40}?)?)(?:\s+(?:ну|вот|короче))?\s*[.!]?"
)
_POINTER_ONLY = LazyRe(
    r"(?i)\s*(?:(?:on|to|for|к|в)\s+.{0,80}?\s+)?(?:with|saying|re|about|с)?\s*(?:that|this|it|это|этим|этого)\s*[.!]?\s*"
    # "Add that as a note too", «запиши это заметкой тоже»: what it is said as, nothing of its own
    r"|\s*(?:that|this|it|это|то)?\s*(?:as\s+(?:a\s+)?note|заметкой|в\s+заметку)(?:\s+(?:too|as\s+well|also|тоже|также))?\s*[.!]?\s*"
    r"|\s*(?:too|as\s+well|also|тоже|также)\s*[.!]?\s*"
    # ("Also put that in a note on the deal."): where "that" goes, nothing of its own
    r"|\s*(?:that|this|it)?\s*(?:in|into)\s+(?:a\s+)?note(?:\s+(?:on|to|for)\s+.{0,60}?)?\s*[.!]?\s*"
)


# «Есть ли заметки по Initech? Добавь заметку к Initech.»: a question asked before is no note's words
_ASKED_BEFORE = LazyRe(
    r"(?i)^\s*(?:а\s+|and\s+|so\s+)?(?:есть\s+ли|сколько|какие|какой|какая|кто|где|когда|is|are|do|does|did|how|what|"
    r"which|who|where|when|any)\b"
)


def _told_before_the_ask(text: str) -> str:
    """The sentences said before the one that asks for the note: what "log a note … with that" means."""
    sentences = re.split(r"(?<=[.!?])\s+|(?<=[.!?][»”\"])\s+", text.strip())
    asks = [i for i, x in enumerate(sentences) if re.search(r"(?i)\b(?:note|log|заметк\w*|запиши)\b", x)]
    return " ".join(sentences[: asks[0]]).strip() if asks and asks[0] > 0 else ""


_NOTES_HEADING = LazyRe(r"(?i)\s*(?:[\w-]+\s+){0,3}(?:notes|заметки)(?:\s+(?:from|по|с)\s+[^:]{1,40})?\s*")
_A_NOTE_ASKED_LATER = LazyRe(
    r"(?i)\b(?:add|put|leave|log|drop|write)\s+(?:a\s+)?note\b|\b(?:добавь|оставь|запиши|закинь)\s+(?:\w+\s+)?заметк"
)
_LOGGED_QUOTE = LazyRe(
    r"(?i)\b(?:log|залогируй|запиши|занеси)\b(?!\s+(?:a\s+|an\s+)?(?:bug|issue|баг|задач))[^«»]{0,40}«[^«»]{12,}»"
)
_THESE_NOTES = LazyRe(
    r"(?i)\s*(?:and\s+|и\s+)?(?:attach|log|save|add|put|прикрепи|добавь)\s+(?:these|those|the|my|эти|мои)\s+"
    r"(?:notes?|заметк\w*)\s+(?:to|on|к)\s+(?:it|them|this|that|the\s+deal|ней|нему|сделке)\s*[.!]?"
)
_OFF_THE_PHONE = LazyRe(
    r"(?i)\s*(?:(?:uh+|um+|yeah|so|ok|okay|well|ну|так|короче)\W+)*(?:i\s+)?(?:just\s+)?(?:got\s+off|had|finished|hung\s+up)\s+"
    r"(?:the\s+|a\s+)?(?:phone|call)\b[^,.;]{0,50}[,;]\s*(?=\S)"
    r"|\s*(?:(?:ну|так|короче|э+)\W+)*(?:только\s+что\s+)?(?:был\w*\s+)?(?:созвон\w*|звонок|говорил\w*|созвонил\w*)\s+"
    r"с\s+[^,.;]{2,50}[,;]\s*(?=\S)"
)
_TOLD_THEN_LOGGED = LazyRe(
    r"(?is)(.+?[.!]|.+?(?=\s*,\s*(?:(?:can|could|would)\s+you|please|pls)\b))\s*,?\s+"  # (", can you like log that …")
    r"((?:(?:(?:can|could|would)\s+you\s+(?:please\s+)?(?:like\s+|just\s+)?)|please\s+|pls\s+)?"
    r"(?:log|note|jot|save|record|put|add|write|запиши|занеси|добавь|закинь|оставь|сохрани)\s+"
    r"(?:it|that|this|это|всё\s+это|(?:a\s+)?note|заметк\w*)\b.*)"  # («…. Запиши заметку к сделке»)
)


_ON_RECORD = LazyRe(
    r"\b(?:к|ко|у|по|on|to|for)\s+(?:the\s+)?(?:сделк\w*|компани\w*|контакт\w*|клиент\w*|deal|company|contact|record)"
    r"|\b(?:в|во|into|in|against)\s+(?:the\s+|his\s+|her\s+|their\s+)?(?:сделк\w*|карточк\w*|record|card|deal)\b",
    re.I,
)


_WHERE_THEN_NOTE = LazyRe(
    r"(?i)^\s*(?:(?:ну|и|а|ещё|еще)\s+)?(?:к|в|во|по|для)\s+[^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*){0,2}?\s+"
    r"(?:заметк[уа]|заметочк[уа])(?=\s+(?!(?:к|в|во|по|про|о|об|что|для|с|со)\b)[^\W\d_])"
)


_QUOTED_AS_NOTE = LazyRe(
    r"«([^«»]{12,})»(?=\s+(?:(?:as|как)\s+(?:a\s+)?(?:note|заметк\w*)|заметк(?:ой|у)\b))"  # («…» заметкой на Ивана)
    # "add a note 'Jane confirmed 40 seats'": the quote said right after "note" is what it says (a name in it
    # is no record)
    r"|(?:(?<=\bnote\s)\s*(?:saying\s+|that\s+)?['\"“]([^'\"“”]{3,})['\"”]|(?<=заметку\s)\s*[«\"“]([^«»\"“”]{3,})[»\"”]"
    # "log «<the email>» on Globex", «залогируй «…» на сделку»: what is logged
    r"|(?:(?<=\blog\s)|(?<=\bзалогируй\s)|(?<=\bзапиши\s)|(?<=\bзанеси\s))«([^«»]{12,})»)"
    r"(?=\s*[.!]?\s*$|\s+(?:to|on|for|about|к|в|по)\s)",  # (what follows it is where, or nothing)
    re.I,
)


# «поставь задачу Ивану …», «поручи Ивану …»: whom a task is for, said in the dative with a capital
_THAT_ON_RECORD = LazyRe(
    r"(?i)(?:(?:это|то|that|this|it)\s*)?(?:(?:к\s+|to\s+|on\s+)?(?:ему|ей|ней|нему|им|ним|him|her|them)\s*)?"
    r"(?:(?:в|на|on|to|into)\s+(?:\w+\s+)?(?:карточк\w*|запис\w*|профил\w*|record|card|profile|crm|црм))?"
)


# «заметка к сделке глоб: …»: a record said by its kind and a name (one not found is asked about, not guessed
# from the note's own words)
_A_RECORD_NAMED = LazyRe(
    r"(?i)\b(?:к|в|на|по|to|on|for)\s+(?:the\s+)?(?:сделк\w*|компани\w*|контакт\w*|deal|company|contact)\s+"
    r"(?!(?:this|that|it|эт\w+|нее|неё|него)\b)[^\W\d_]{2,}"
)


def _unpaired_quote_marks_off(text: str) -> str:
    """«оплата получена 25.11»» cut from its opening mark: the closing one left alone goes too."""
    if text.endswith("»") and "«" not in text:
        text = text[:-1].rstrip()
    if text.startswith("«") and "»" not in text:
        text = text[1:].lstrip()
    return text


_NOTE_WORD_FIRST = LazyRe(
    r"(?i)\s*(?:(?:add|put|leave|log|добавь|оставь|запиши)\s+(?:a\s+)?)?(?:note|заметк[аиу])\s*[:—–-]?\s*(?=['\"«“])"
)


# notes taken somewhere, pasted under their heading: "Notes from the QBR with Initech:", «Заметки с QBR Initech 24.11:»
_NOTES_TAKEN = LazyRe(
    r"(?i)^\s*(?:мои\s+|my\s+)?(?:заметки|notes|minutes|итоги|конспект)\s+(?:с|со|по|from|of|after)\s+[^:\n]{2,60}:\s*"
)


# the note asked for as "this": the words quoted before it
_THIS_NOTED = LazyRe(
    r"(?i)\b(?:сохрани|запиши|занеси|залогируй|закинь|добавь|save|log|add|put|record|keep|note|jot)\s+"
    r"(?:это|этот\s+текст|это\s+письмо|письмо|сообщение|this|that|it|the\s+(?:email|message|mail))\s+"
    r"(?:как|as|в|в\s+виде|to|on|заметк\w*)"
)


_THAT_DEAL = LazyRe(
    r"(?i)\b(?:that|this|the\s+same)\s+deal\b|\bк\s+(?:этой|той)\s+сделке\b|\bв\s+(?:эту|ту)\s+сделку\b"
)
_NOT_A_NAME = frozenset("note deal with that this сделк сделке сделку заметку заметка record".split())
_WITH_WHAT_WAS_PASTED = LazyRe(
    r"(?i)(?:with|containing|including|attaching|с|со)\s+(?:the\s+|this\s+|that\s+|этим\s+|этой\s+)?(?:log|logs|error|errors|trace|"
    r"stack\s*trace|email|message|details|text|лог\w*|ошибк\w*|письм\w*|текст\w*|трейс\w*)"
)
# "…, don't touch the stage", «…, стадию не трогай»: what is to stay, said after the note (no words of it)
_LEAVE_THE_REST = LazyRe(
    r"(?i)[,;]\s*(?:but\s+|и\s+|а\s+|но\s+)?(?:(?:don'?t|do\s+not)\s+(?:touch|change|move)\b|leave\s+the\s+(?:stage|deal)\b|"
    r"(?:стадию|сделку|сумму)\s+не\s+(?:трогай|меняй|двигай)|не\s+(?:трогай|меняй|двигай)\s+(?:стадию|сделку|сумму))[^,;]*$"
)
# the company a change just before was about, said without its name
_THE_COMPANY = LazyRe(
    r"(?i)\b(?:the|that|their)\s+company\b|\bк\s+(?:этой\s+|их\s+)?компании\s*(?:[:,—–-]|$|что\b)"
)
# a person named, then the company they are at: «к Петру Васильеву из Globex», "to Peter Parker from Globex"
_SOMEONE_AT = LazyRe(
    r"(?:\b(?:к|для|у|to|on|for)\s+)([A-ZА-ЯЁ][a-zа-яё]+\s+[A-ZА-ЯЁ][a-zа-яё]+)\s+(?:из|from|at|в|@)\s+\S"
)


_RECORD_WORDS = LazyRe(
    r"(?i)\b(?:в|во|к|на|по|для|to|on|in|for|the|a|an|компани\w*|сделк\w*|карточк\w*|контакт\w*|клиент\w*|запис\w*|"
    r"deal|company|record|card|contact|profile)\b"
)


async def _names_the_record_only(content: str, ctx: BuildContext) -> bool:
    """The words are only where the note goes («компанию Initech», "the Globex deal"), nothing it says."""
    rest = _RECORD_WORDS.sub(" ", content).strip(" ,.;:")
    if not rest:
        return bool(content.strip(" ,.;:"))  # "Note that on the deal.": where, and nothing else
    if len(rest.split()) > 4:
        return False
    said = analyse(rest, ctx.now)
    for kind in ("company", "deal", "person"):
        named = [m for m in await find(ctx, said, kind) if m.score >= 0.9]
        if named and len(named[0].positions) >= len(said.keys):
            return True
    return False


_REQUESTS_AS_WORDS = LazyRe(
    r"(?i)^\s*(?:set|change|update|move|поставь|измени|обнови|переведи)\s+(?:the\s+|its\s+)?(?:amount|stage|owner|value|"
    r"сумм\w*|стади\w*|владельц\w*)\b|\b(?:and|и)\s+(?:add|leave|put|добавь|оставь)\s+(?:a\s+)?(?:note|заметк\w*)\s+"
    r"(?:to|on|for|к|в|на)\b"
)
_THEIR_CONTACT = LazyRe(
    r"(?i)\b(?:их|её|ее|его|their|her|his|its)\s+(?:контакт\w*|contact(?:\s+person)?)\b"
    # "the Globex pilot's contact", "the contact on the Acme deal", «контакту по сделке …»: the record's person
    r"|['’]s\s+(?:main\s+|primary\s+)?contact(?:\s+person)?\b|\bthe\s+(?:main\s+|primary\s+)?contact\s+(?:on|at|for|of)\s"
    r"|\bконтакт\w*\s+(?:по\s+сделке|сделки|в\s+сделке)\b"
)
_THEIR_COMPANY = LazyRe(
    r"(?i)\b(?:их|её|ее|его|their|her|his|its)\s+(?:компани\w*|company)\b"
    # «…, и к компании заметку добавь», "a note on the company": the company of the record meant, named before
    r"|\b(?:к|в|на|для)\s+компани[июя]\b(?!\s+(?-i:[A-ZА-ЯЁ«\"]))|\b(?:to|on|for)\s+the\s+company\b(?!\s+(?-i:[A-Z]))"
)
_SAME_NOTE_ON = LazyRe(
    r"(?i)^\W*(?:(?:and|и|а|also|ещё|еще)\s+)?(?:(?:add|put|leave|добавь|оставь|запиши)\s+)?(?:такую\s+же|ту\s+же(?:\s+самую)?|"
    r"the\s+same)\s+(?:заметк\w*|note)\s+(?:to|on|for|к|ко|в|на|для)\s+(?P<where>.+?)\s*[.!]?\s*$"
)
# "…, and add the same as a note on Globex", «и то же самое заметкой в Globex»: the words just written, again
# (asked as such: «встреча в то же время» says no such thing)
_THE_SAME = LazyRe(
    r"(?i)\b(?:add|put|log|write|post|leave|добавь|запиши|оставь|закинь)\s+(?:the\s+)?(?:same|то\s+же\s+самое|это\s+же)\b"
    r"|\b(?:the\s+same|то\s+же\s+самое)\s+(?:as\s+a\s+note|заметкой|в\s+заметку)\b"
    # «и такую же заметку к Globex», «ту же заметку к их контакту», "the same note on Globex"
    r"|\b(?:такую\s+же|ту\s+же(?:\s+самую)?|the\s+same)\s+(?:заметк\w*|note)\b"
)


# «…и обеим по заметке: …», "…and a note on each: …": one note on each record the message changed
_A_NOTE_FOR_EACH = LazyRe(
    r"(?i)^\s*(?:(?:и|а|and)\s+)?(?:(?:add|добавь|оставь)\s+)?(?:обеим|обоим|каждой|каждому|both|each)\s+(?:по\s+)?"
    r"(?:заметк\w*|a\s+note|notes?)\b|^\s*(?:(?:и|а|and)\s+)?(?:add\s+)?(?:a\s+)?notes?\s+(?:on|to)\s+(?:both|each)\b"
)


@rule(45, writes=True)
async def note(clause: Clause, ctx: BuildContext) -> bool:
    """ "Добавь заметку к Initech: ...", "оставь заметку у Ивана Сидорова что ...", "jot down on John's record: ..."."""
    again = _SAME_NOTE_ON.match(clause.text)
    noted_before = next((i for i in reversed(ctx.intents) if isinstance(i, CreateNote) and i.body), None)
    if again and noted_before is not None:  # "… and the same note on Globex", «и такую же заметку к Globex»
        where = await crm_target(clause, ctx, "target", again.group("where"))
        noted_at = noted_before.resolved("record")
        if where is None and _THEIR_CONTACT.search(again.group("where")) and isinstance(noted_at, tuple):
            # «…; и ту же заметку к их контакту»: the one person at the company of the record just noted
            contact = await the_one_contact_at(ctx, noted_at[0], noted_at[1])
            where = ("person", contact) if contact is not None else None
        if where is None:
            return False
        kind, record = where
        await ctx.emit(CreateNote(record=record.name, body=noted_before.body), record=(OBJECT[kind], record))
        return True
    each = _A_NOTE_FOR_EACH.match(clause.text)
    changed = list({id(d): d for i in ctx.intents if isinstance(d := i.resolved("deal"), Entity)}.values())
    for_each = (clause.after_colon or "").strip(" «»\"'“”")
    if each and len(changed) > 1 and for_each:
        # «Сделку Ромашки в Won, сделку Альфа-Лизинга в Lost, и обеим по заметке: итог квартала»: one note each
        for deal in changed:
            await ctx.emit(CreateNote(record=deal.name, body=for_each[:2000]), record=("deals", deal))
        return True
    kept = _LEAVE_THE_REST.search(clause.text)
    if kept and kept.start() > 0:  # "…log it as a note on the deal, don't touch the stage": said of the rest
        return await note(analyse(clause.text[: kept.start()], ctx.now), ctx)
    heading = _NOTES_TAKEN.match(clause.text)
    if (
        heading
        and not analyse(clause.text[heading.end() :], ctx.now).commands()
        and ctx.answer("save") != "yes"
    ):
        if ctx.answer("save") == "no":
            return False
        # "Заметки с QBR Initech 24.11:\n- …": notes pasted, nothing asked of them — asked, never guessed
        raise ctx.ask(
            "save",
            ctx.t("Сохранить это заметкой в CRM?", "Save this as a note in the CRM?"),
            choices=ctx.yes_no(),
        )
    after = clause.after_colon
    if (
        after is not None
        and re.match(
            r"(?i)\s*(?:(?:add|put|leave|добавь|оставь)\s+(?:a\s+)?)?(?:note|заметк\w*)\s+(?:on|to|for|к|в|по)\s",
            after,
        )
        and not head_of(clause, ctx.now).has("note", "note_verb")
        and re.match(r"(?i)\s*(?:after|before|following|после|перед|по\s+итогам)\b", clause.text)
    ):  # "after the call with Jane: note on the Globex pilot '…'": the heading says when, the note where
        return await note(analyse(after.strip(), ctx.now), ctx)
    unpunctuated = _WHERE_THEN_NOTE.match(clause.text) if clause.after_colon is None else None
    if unpunctuated:  # «к марии соколовой заметку она в отпуске до …»: dictated, the colon unsaid
        cut = unpunctuated.end()
        return await note(analyse(f"{clause.text[:cut].rstrip()}: {clause.text[cut:]}", ctx.now), ctx)
    noun_first = re.match(
        r"\s*(?:(?:ну|и|and|ещё|еще|also|просто|just|тогда|so|так\s+что)\s+)*(?:a\s+)?(?:заметк\w*|note)\b",
        clause.text,
        re.I,
    )  # "заметка к Ивану …", «просто заметку к сделке …», "just a note on Globex …"
    # "note on maria sokolova - wants …", «заметка для ивана сидорова бюджет утвердят в январе»
    told = bool(
        noun_first
        and (
            _NOTE_SPLIT.search(clause.text)
            or re.match(
                r"(?i)\s*(?:(?:и|and|ещё|еще|also|просто|just|тогда|so|так\s+что)\s+)*(?:a\s+)?(?:заметк\w*|note)\s+(?:для|к|on|for|to)\s",
                clause.text,
            )
            # "…, and note 'Li Wei confirmed 2 sites'": the note's words, quoted
            or re.match(r"(?i)\s*(?:и\s+|and\s+)?(?:заметк\w*|note)\s*[:—–-]?\s*['\"«“]", clause.text)
        )
    )
    # «ивану петрову заметку, что он в отпуске»: to whom, then the note and its words — the verb unsaid
    told = told or bool(
        re.match(
            r"(?i)\s*(?:[^\W\d_]+\s+){1,3}заметк[уа]\s*(?:,?\s+(?:о\s+том,?\s+)?что\s+\S|[:—–-]?\s*[«\"“'])",
            clause.text,
        )  # «Ивану Петрову заметка «договор подписан 25.11»»
        and not clause.has("task", "meeting", "issue")  # «…, Максу задачу …»: another request follows
    )
    # «… сказал что …, запиши ему это в заметки»
    if (
        clause.after_colon is not None
        and _NOTES_HEADING.fullmatch(clause.text.split(":", 1)[0])
        and _A_NOTE_ASKED_LATER.search(str(ctx.memory.get("full_text", ""))[len(clause.text) :])
    ):
        return False  # "Mid-call notes: …. Create …, and add a note on Umbrella that …": a heading; the note is asked later
    told = told or bool(_NOTED_AT_THE_END.fullmatch(clause.text))
    logged = bool(_LOGGED_QUOTE.search(clause.text))  # "log «<the email>» on Globex": noted, however asked
    noted = [i for i in ctx.intents if isinstance(i, CreateNote)]
    if noted and _THESE_NOTES.fullmatch(clause.text):
        # "notes from the intro: …. Create a deal …, and attach these notes to it": the notes are drafted once,
        # on the record they were told about (a deal made in the same draft has no id to attach them to yet)
        ctx.notes.append(
            ctx.t(
                f"Заметка — к «{noted[-1].record}»: к сделке, которой ещё нет, её не прикрепить.",
                f"The notes go on '{noted[-1].record}': a deal that doesn't exist yet can't hold them.",
            )
        )
        return True
    if clause.has("comment") and not said_outside_quotes(clause, ctx.now, "note"):
        return False  # "leave a comment that …" is on an issue (and "a comment 'notes in Notion'" too)
    if (
        clause.after_colon is not None
        and not clause.has("note_verb", "create", "put")
        and not head_of(clause, ctx.now).has("note", "note_verb")
        and not re.search(r"(?i)\b(?:log|jot|record|запиши|залогиру\w*|note)\b", clause.text.split(":", 1)[0])
        and not re.search(
            r"(?i)(?:^|[.;!,—–-]\s*|\b(?:и|and|also|plus)\s+)(?:[^\W\d_]+\s+){0,4}?(?:note|заметк\w*)\b",
            clause.after_colon.strip(),
        )
    ):
        return (
            False  # "random thoughts: … our enterprise tier reads like a ransom note": a word, no note asked
        )
    if (
        clause.after_colon is not None
        and head_of(clause, ctx.now).has("issue", "task", "project")
        and not (head_of(clause, ctx.now).has("note"))
    ):
        return False  # "Add an issue to Q1 Launch: prepare release notes": the words after the colon are its title
    if (
        not (clause.has("note") or clause.has("note_verb") or logged)
        or clause.asks()
        and not (clause.after_colon or told or logged)
    ):
        return False
    if not clause.has("note") and re.search(
        r"(?i)\b(?:leave|оставь\w*)\s+(?:it|them|this|that|как|это|его|её|ее)\b", clause.text
    ):
        return False  # "if not, leave it", «оставь как есть»: nothing to write down
    if (
        clause.has("note_verb")
        and not clause.has("note")
        and head_of(clause, ctx.now).has("person", "company", "deal", "task")  # (the words after a colon
        and not _ON_RECORD.search(clause.text.split(":", 1)[0])  # are the note's, «клиент готов …»)
    ):
        return False  # "запиши новый контакт: ..." creates a record; "запиши к сделке: ..." is a note
    if not (
        clause.has("create", "note_verb")
        or clause.after_colon is not None
        or noun_first
        or told
        or clause.has("put")
        and clause.has("note")  # "put a note 'signed PO #4471'"
    ):
        return False
    head, content = clause.text, clause.after_colon
    swapped = heard_first = False
    pasted = _QUOTED_AS_NOTE.search(clause.text) if content is None else None
    if content is not None:
        head = clause.text.split(":", 1)[0]
        named_note = _NOTE_WORD_FIRST.match(content)
        if named_note:  # "Initech: note 'wants a 3-year term'": the record, then the note, said as a note
            content = content[named_note.end() :]
    elif pasted:  # "Log «<the email>» as a note on the Romashka deal": the quote is what it says
        content = next(g for g in pasted.groups() if g)
        head = clause.text[: pasted.start()] + " " + clause.text[pasted.end() :]
    elif said_last := _NOTED_AT_THE_END.fullmatch(clause.text):
        # «Иван Сидоров из Инитека сказал что … запиши ему это в заметки»: dictated, what was said first; "him"
        # is whom the words name
        content, head, swapped = said_last.group(1).strip(), said_last.group(2), True
    elif told_then := _TOLD_THEN_LOGGED.fullmatch(clause.text):
        # "Jane called — procurement approved it. Log it on the Globex pilot deal": what was told is the
        # note (with what the parentheses add), and the ask says where it goes
        content = told_then.group(1).strip()
        circumstance = re.match(r"([^—–]{3,60}?)\s+[—–-]\s+(?=\S)", content)
        if circumstance and len(circumstance.group(1).split()) <= 6:
            content = content[circumstance.end() :]  # "just got off with Jane — she wants …": what she said
        elif on_the_phone := _OFF_THE_PHONE.match(
            content
        ):  # "…I just got off the phone with John Smith, they …"
            content = content[on_the_phone.end() :]
        aside = re.findall(r"\(([^()]{3,})\)", told_then.group(2))
        content = f"{content} {'; '.join(aside)}".strip() if aside else content
        asked_on = await crm_target(clause, ctx, "target", told_then.group(2))
        head = told_then.group(2) if asked_on is not None else clause.text
        heard_first = True
    elif (quoted_last := _QUOTED_AT_THE_END.search(clause.text)) and _A_NOTE_ASKED.search(
        clause.text[: quoted_last.start()]
    ):
        # 'log a note on Initech "happy with the renewal, wants SSO"', "add note to globex deal 'pilot scope
        # agreed'": the quote after the record is the note, whole — no record is looked for inside it
        content = next(g for g in quoted_last.groups() if g)
        head = clause.text[: quoted_last.start()]
    elif m := _NOTE_SPLIT.search(await _dashes_in_names_masked(clause.text, ctx)):
        head, content = clause.text[: m.start()], clause.text[m.end() :].strip()
        speaker = _TARGET_THEN_SPEAKER.match(head)
        if speaker:  # «заметку к инитеку типа иван сидоров сказал что …»: the note goes where it was asked to
            head, content = speaker.group(1), f"{speaker.group(2)}: {content}"
        if "—" in m.group(0) or "-" in m.group(0) or "–" in m.group(0):
            asked = re.compile(r"(?i)\b(?:заметк\w*|note|запиши|записать|оставь|jot|leave)\b")
            if asked.search(content) and not asked.search(
                head
            ):  # "кп отправил, ждём ОС — закинь заметкой в сд"
                head, content, swapped = content, head.strip(), True
                note_that = _NOTE_THAT.search(head)
                if (
                    note_that
                ):  # "for Jane at Globex - log a note that she asked for …": about whom, then its words
                    head, content, swapped = (
                        f"{content} {head[: note_that.start()]}",
                        note_that.group(1).strip(),
                        False,
                    )
    elif said_first := _SAID_THEN_NOTED.fullmatch(clause.text):
        # «ушли к конкуренту, запиши заметкой в сделку»: the words come first, the ask after them
        content, head = said_first.group(1).strip(), said_first.group(2)
        swapped = True  # «Ромашка просит скидку 10%, запиши заметкой к сделке»: the words name where it goes
    else:
        head, content = await _note_after_target(clause, ctx)
    if content and not re.search(r"[«\"“']", clause.text) and await _names_the_record_only(content, ctx):
        content = ""  # "…. Закинь заметку в компанию Initech": where it goes, not what it says (told before)
    own = quoted(head, at_least=8, apostrophes=True) if (swapped or heard_first) and head else None
    if own and not quoted(content or "", at_least=3):
        # "Jane confirmed the scope — put a note on Jane Doe 'scope confirmed: 3 warehouses'": the ask says its words
        content = own
        head = head.replace(own, " ")
    noted_this = _THIS_NOTED.search(clause.text)
    quoted_before = [q for said in ctx.memory.get("said") or [] if (q := quoted(said, at_least=8))]
    quoted_before += (
        [q] if noted_this and (q := quoted(clause.text[: noted_this.start()], at_least=8)) else []
    )
    if quoted_before and noted_this and not quoted(content or "", at_least=3):
        # «Клиент прислал: «…». Просто сохрани это как заметку к Acme, ничего не удаляй»: "this" is the quote
        content = quoted_before[-1]
    elif content and _WITH_WHAT_WAS_PASTED.fullmatch(content.strip(" .")) and ctx.clause_index > 0:
        # "customer X reports timeouts: <the log>\n- note to X company with the log": the words pasted before
        told_words = " ".join(t for _, t in ctx.memory.get("told") or []) or ctx.said_before()
        content = told_words.strip(" .") or content
    elif noted_this and not content and ctx.clause_index > 0 and len(keys_for(ctx.said_before())) >= 3:
        # "Initech just signed the renewal paperwork. just log it as a note on …": "it" is what was just said
        # (or what was quoted before: "pasted from email: 'Hi, …' -> … save this as a note")
        quoted_earlier = quoted(str(ctx.memory.get("full_text", "")), at_least=8, apostrophes=True)
        # ("Alfa-Leasing expansion lost. They went with a competitor. Note that on the deal.": the reason)
        reason = ctx.memory["reasons"][-1] if ctx.memory.get("reason_at") == ctx.clause_index - 1 else None
        told_just_before = ctx.said_before().strip()
        if (
            reason
            and told_just_before
            and not any(i.span and told_just_before in i.span for i in ctx.intents)
        ):
            # (what was told before it, no request of its own, goes in too)
            reason = f"{told_just_before.rstrip(' .')}. {reason}"
        content = (quoted_earlier or reason or told_just_before).strip(" .")
        last = ctx.intents[-1] if ctx.intents else None
        if (
            not quoted_earlier
            and not reason
            and isinstance(last, CreateNote)
            and last.span
            and told_just_before
            and last.span.strip() in told_just_before
        ):
            # "Call notes - Jane / Globex: …. Please add this as a note on the Globex pilot deal.": what was
            # told is this note's words, not a note of its own on whoever it names
            ctx.drop_last()
    quoted_first = _QUOTE_THEN_SENTENCE.match(content or "")
    if (
        quoted_first
    ):  # "…: 'signed off by procurement'. Oleg already fixed …": the quote is the note; then news
        content = quoted_first.group(2)
    elif content and (
        whole := _QUOTED_WHOLE.fullmatch(content)
    ):  # "…: 'Lost to competitor on price'.": the words
        content = whole.group(1) or whole.group(2)
    source = _FROM_SOMEONE.search(head or "")
    if source and _NOTE_ON_A_PLACE.search(head[: source.start()]):
        head = head[: source.start()]  # "Add a note to Acme Corp, forwarded from John": whom it came from
    each = _ON_EACH_OF.search(head or "") if content else None
    if each:  # "Add the same note to John Smith and Li Wei: …": one note on each of them
        places = [
            await crm_target(clause, ctx, "target", part)
            for part in re.split(r"\s*(?:,|\band\b|\bи\b|&)\s*", each.group(1))
            if part.strip()
        ]
        if len(places) >= 2 and all(places) and len({p[1].id for p in places if p}) == len(places):
            for kind, record in (p for p in places if p):
                await ctx.emit(
                    CreateNote(record=record.name, body=(content or "")[:2000]), record=(OBJECT[kind], record)
                )
            return True
    last_said = re.split(r"(?<=[.!?])\s+(?=\S)", head)[-1] if head else head
    # "today call with Jane was good. note on Globex pilot: …": where the note goes is said in its own sentence
    # (only a sentence that itself says "note on …": not the last line of a forwarded email)
    own_sentence = last_said != head and _NOTE_ON_SAID.search(last_said or "")
    target = (
        await crm_target(clause, ctx, "target", last_said) if own_sentence else None
    ) or await crm_target(clause, ctx, "target", head)
    stranger = _SOMEONE_AT.search(head or "")
    if (
        target is not None
        and target[0] == "company"
        and stranger
        and not [m for m in await find(ctx, clause, "person", text=stranger.group(1)) if m.score >= 0.9]
        and ctx.answer("stranger") != "company"
    ):  # «заметку к Петру Васильеву из Globex»: nobody by that name — the company is a guess, so it is asked
        name = stranger.group(1)
        raise ctx.ask(
            "stranger",
            ctx.t(
                f"В CRM нет контакта «{name}». Добавить заметку к компании {target[1].name}?",
                f"There is no contact '{name}' in the CRM. Add the note to the company {target[1].name}?",
            ),
            choices=[(ctx.t("Да, к компании", "Yes, to the company"), "company"), (ctx.t("Нет", "No"), "no")],
            free_text=False,
        )
    if target is None and swapped:  # "… в сд" names no deal: the note's own words do ("кп initech …")
        target = await crm_target(clause, ctx, "target", content or "")
    if target is None and isinstance(
        ctx.memory.get("deal"), Entity
    ):  # "... and add a note: ..." after a deal
        target = ("deal", ctx.memory["deal"])
    before_text = ctx.said_before()
    if (
        target is None and before_text and _ON_IT.search(clause.text.split(":", 1)[0])
    ):  # "who owns Globex pilot btw? also log a note on it: Jane asked …": it is what was just named
        target = await crm_target(replace(clause, text=before_text), ctx, "target", before_text)
    if target is None and _THAT_DEAL.search(clause.text.split(":", 1)[0]) and ctx.clause_index > 0:
        # "…the Globex pilot is still in Negotiation, right? Either way add a note to that deal: Jane …": the
        # deal the sentence before named (not whoever the note's words name)
        deals = {
            m.entity.id: m.entity
            for m in await find(ctx, clause, "deal", text=ctx.said_before())
            if m.score >= 0.9
        }
        target = ("deal", next(iter(deals.values()))) if len(deals) == 1 else None
    if (
        target is None and clause.after_colon and not _A_RECORD_NAMED.search(head)
    ):  # "Log this: Li Wei says the pilot is on hold": whom it is about (not «к сделке глоб: джейн …»)
        target = await crm_target(clause, ctx, "target", clause.after_colon)
    if target is None and _THE_COMPANY.search(
        head
    ):  # "create a deal for umbrella …, then a note on the company"
        said = next((str(c) for i in reversed(ctx.intents) if (c := getattr(i, "company", None))), None)
        named = [c for c in await ctx.directory.companies() if said and c.name.lower() == said.lower()]
        target = ("company", named[0]) if len(named) == 1 else None
    before = ctx.said_before()
    earlier = ctx.memory.get("record")
    if (
        target is None and earlier and ctx.clause_index > 0 and _SUBJECT_PRONOUN.search(clause.text)
    ):  # "Maria has a new email, … - update her record, and add a note that she prefers Telegram"
        target = earlier
    if (
        target is None and before and PRONOUN.search(clause.text)
    ):  # "John wants a call … — add a note to his record"
        target = await crm_target(replace(clause, text=before), ctx, "target", before)
    scene = str(ctx.memory.get("full_text", "")).split(":", 1)[0]
    if target is None and ctx.clause_index > 0 and len(scene) < 60:  # «Ромашка: заметка в сделку «…» и …»
        target = await crm_target(replace(clause, text=f"{clause.text} {scene}"), ctx, "target", scene)
        target = await _its_one_deal(clause, ctx, target)  # "в сделку": the company's one deal
    if target is not None and target[0] in ("deal", "person") and _THEIR_COMPANY.search(head or ""):
        # «…добавь к их компании заметку», "a note on their company": the company of the deal or person meant
        owner = await company_of(ctx, target[1])
        target = ("company", owner) if owner is not None else target
    if (
        target is not None
        and target[0] in ("deal", "company")
        and _THEIR_CONTACT.search(clause.text.split(":")[0])
    ):
        # «…а её контакту — заметку», "a note to its contact": the one person at that company (several: asked)
        contact = await the_one_contact_at(ctx, target[0], target[1])
        if contact is None:
            return False
        target = ("person", contact)
    unread = ctx.memory.get("told") or []  # what sentences before the ask told, unread as requests
    only_read = bool(before) and all(i.op == "find" for i in ctx.intents if i.span == before)
    told_text = " ".join(text for _, text in unread) or (
        before if only_read and not before.rstrip().endswith("?") and ctx.clause_index > 0 else ""
    )  # «Ребята из ромашки просят скидку 10%» was answered as a read of Ромашка: still what was told
    told_text = re.sub(
        r"(?i)^(?:кстати|слушай|короче|btw|by\s+the\s+way)[,\s]+", "", strip_fillers(told_text)
    ).strip()
    if target is None and told_text:  # «Ребята из ромашки просят скидку 10%. Добавь заметку к сделке»
        target = await crm_target(replace(clause, text=told_text), ctx, "target", told_text)
        target = await _its_one_deal(clause, ctx, target)
    if target is None:
        # the record picked or named when asked ("to the deal" — "Globex": its deal)
        target = await _its_one_deal(clause, ctx, await answered_record(ctx, "target"))
    if target is None:
        # "note to the pilot deal: …": the deals its words fit, offered (two named alike are no guess)
        named_by = {
            w for w in re.findall(r"[^\W\d_]{4,}", clause.text.split(":", 1)[0].lower())
        } - _NOT_A_NAME
        fits = [
            d
            for d in await ctx.directory.deals()
            if named_by & set(re.findall(r"[^\W\d_]{4,}", d.name.lower()))
        ]
        raise ctx.ask(
            "target",
            ctx.t("К какой записи добавить заметку?", "Which record should the note go on?"),
            choices=[(d.name, d.id) for d in fits[:5]] if len(fits) > 1 else None,
            risk="ambiguous" if len(fits) > 1 else "missing_required",
        )
    kind, record = target
    if content and content.strip(" «»\"'“”").lower() == record.name.lower():
        # «добавить к сделке «Альфа-Лизинг — расширение» заметку «Клиент согласовал …»»: the record's name was
        # quoted too; the note's words are the other quote
        others = [q for q in re.findall(r"«([^«»]+)»|“([^“”]+)”|\"([^\"]+)\"", clause.text)]
        words = [x for q in others for x in q if x and x.strip().lower() != record.name.lower()]
        content = words[-1] if words else content
    # "… before legal signs off. Thanks!": the thanks are for me, not for the note
    said = re.sub(
        r"(?i)[\s.,;!]*\b(?:thanks|thank\s+you|thx|спасибо|благодарю)\b[\s!.)]*$", "", content or ""
    )
    said = re.sub(
        r"^\s*[«\"“']([^«»\"“”]+)[»\"”']\s*$", r"\1", said
    )  # «тендер перенесён»: the words, unquoted
    said = re.sub(
        r"^\s*(?:в\s+)?(?:сделк\w*|сд|deal)\s+«([^«»]+)»\s*$", r"\1", said
    )  # «в сделку «готовы к пилоту»»
    said = re.sub(
        r"(?i)^\s*(?:as\s+a\s+note|как\s+заметк\w*)(?:\s+(?:on|to|for|к|на)\s+.*)?$", "", said
    )  # "add that as a note"
    said = re.sub(
        r"(?i)^\s*(?:note|заметк\w*)(?:\s+(?:к|в|на|для|to|on|for)\s+(?:the\s+|this\s+|эт\w+\s+)?(?:сделк\w*|компани\w*|"
        r"карточк\w*|deal|company|record|ней|нему|него))?\s*[—–:-]\s*(?=\S)",
        "",
        said,
    )  # «по Ромашке: note к сделке — просят скидку»: the note named, then its words
    said = re.sub(
        r"(?i)[.!]\s*(?:please\s+)?(?:log|add|put|save|note|запиши|добавь)\b[^.!]*$"
        # ("…reviewing the contract, log it on the deal": the ask said after a comma, pointing back)
        r"|,\s*(?:(?:and|и)\s+)?(?:please\s+)?(?:log|add|put|save|note|запиши|добавь)\s+(?:it|this|that|это)\b[^.!]*$",
        ".",
        said,
    )  # the ask itself
    full = str(ctx.memory.get("full_text", ""))
    told_before = bool(before) and bool(
        re.search(re.escape(before.strip()) + r"\s*[.!]", full)
    )  # its own sentence
    own_words = (
        quoted(clause.text, at_least=8, apostrophes=True) if clause.text.lstrip()[:1] in "'\"«“" else None
    )
    if own_words and said.strip() and _THAT_ON_RECORD.fullmatch(said.strip()):
        said = own_words  # "Li: 'We're ready to sign if …' Please note it on her record": her words, quoted first
    elif (
        before
        and said.strip()
        and _THAT_ON_RECORD.fullmatch(said.strip())
        and (told_before or re.match(r"(?i)(?:это|то|that|this|it)\b", said.strip()))
    ):  # «Запиши это ему в карточку»: what was said before
        said = re.sub(r"^.*?:\s*", "", before) if ":" in before else before

    said = _FOR_ALL_TO_SEE.sub("", said)  # «…, чтобы все видели»: why it is noted, not what
    said = _LEAD_IN_ONLY.sub("", said)  # "quick one — add a note to Globex": a lead-in, not the note's words
    reasons = ctx.memory.get("reasons") or []
    pointer = bool(said.strip()) and bool(_POINTER_ONLY.fullmatch(said))  # "… with that", "… about it"
    if not SOMEONES_WORDS.search(clause.text):
        # "…, they went with a competitor — mark it and add that as a note": why, said before; "… procurement wants
        # 5% off. Please log a note on the deal with that": the sentences before the ask
        if reasons and (pointer or not said.strip()):
            said = reasons[-1]
        elif pointer:
            said = _told_before_the_ask(clause.text) or told_text or said
        elif not said.strip():
            said = _told_before_the_ask(clause.text) or said
    bare = re.sub(
        r"(?i)\s+(?:on|to|in|к|в)\s+(?:the\s+|this\s+)?(?:deal|record|сделк\w*|карточк\w*)\s*[.!]?$", "", said
    )
    if _THE_REASON.fullmatch(bare):  # "… they chose the competitor. Move it and put a note with the reason"
        dashed = [  # "Lost the Alfa-Leasing expansion — their budget got frozen. Mark it lost and note the reason"
            re.split(r"\s[—–-]\s", x, maxsplit=1)[1]
            for x in ctx.memory.get("said") or []
            if re.search(r"\s[—–-]\s", x)
        ]
        said = "; ".join(reasons) if reasons else dashed[-1].strip(" .") if dashed else ""
    if said.count("'") == 1 and said.rstrip(" .!").endswith(
        "'"
    ):  # "'signed PO #4471'" lost its opening quote
        said = said.rstrip(" .!")[:-1]
    own_quote = re.match(r"^\s*[«\"“]([^«»\"“”]{3,})[»\"”]", clause.text)
    if own_quote and re.fullmatch(r"(?i)\s*(?:это|то|that|this|it)?\s*[.!]?\s*", said):
        said = own_quote.group(1).strip()  # 'Jane wrote: “We won't need …” Add that as a note': the quote
    if (
        told_text
        and not _ASKED_BEFORE.match(told_text)
        and re.fullmatch(
            r"(?i)\s*(?:это|то|that|this|it|всё\s+это)?\s*(?:(?:к|в|to|on)\s+)?(?:(?:the\s+)?(?:сделк\w*|компани\w*|"
            r"карточк\w*|deal|record|company))?\s*[.!]?\s*",
            said,
        )
    ):
        said = re.sub(
            r"^\s*[«\"“']([^«»\"“”]+)[»\"”']\s*$", r"\1", told_text
        )  # «…закупка съезжает. Запиши это заметкой»
        ctx.memory["told_used"] = {i for i, _ in unread}
    if re.fullmatch(r"(?i)\s*(?:record|card|profile|page|карточк\w*|запис\w*|профил\w*)?\s*", said):
        # "From John: '…SSO…?' — pls add a note on the Acme Corp company record": the quote is the note
        said = quoted(str(ctx.memory.get("full_text", "")), at_least=8, apostrophes=True) or ""
    titled = _NOTE_TITLE.search(clause.text)  # "…, title 'Pricing call 25 Nov', body: '…'": its own title
    if titled:
        said = said.replace(titled.group(0), " ")
    if not said.strip(" ,;.") and (first := _FIRST_TOLD.match(str(ctx.memory.get("full_text", "")))):
        # "Globex asked for a CSV export of audit logs. Log it as an issue … and add a note to the Globex pilot
        # deal.": what the first sentence told, when nothing else says what the note is
        told_first = analyse(first.group(1), ctx.now)
        if not told_first.commands() and not told_first.text.rstrip().endswith("?"):
            said = first.group(1)
    body = _unpaired_quote_marks_off(said.strip(" ,;"))[:10_000]
    if _THE_SAME.search(clause.text):  # "comment on CS-14 that …, and add the same as a note on Globex"
        written = (getattr(i, "body", None) or getattr(i, "content", None) for i in reversed(ctx.intents))
        body = next((str(w) for w in written if w), body)
    body = MISSING if says_nothing(body) else body  # «заметку к ромашке добавь»: what it says is asked
    if isinstance(body, str) and _REQUESTS_AS_WORDS.search(body):
        # "Take the Acme deal: set the amount to 55,000 USD and add a note to its contact: …": requests read as a
        # note's words — the message is asked about again, never saved as a note (the answer is read afresh)
        ctx.clause_index = 0
        raise ctx.ask(
            "request",
            ctx.t(
                "Не разобрал, где заканчивается заметка и начинаются другие просьбы. Скажите по одной, пожалуйста.",
                "I couldn't tell where the note ends and the other requests begin. Please say them one at a time.",
            ),
        )
    await ctx.emit(
        CreateNote(record=record.name, body=body, title=titled.group(1).strip()[:200] if titled else None),
        record=(OBJECT[kind], record),
    )
    return True


_FIRST_TOLD = LazyRe(r"\s*([^.!?]{8,}?[.!])\s+(?=[A-ZА-ЯЁ])")


_NOTE_TITLE = LazyRe(
    r"(?i)\b(?:title|titled|заголов\w*|названи\w*)\s*[:=—–-]?\s*['\"«“]([^'\"«»“”]{2,200})['\"»”]"
)


_NOTE_ON_SAID = LazyRe(r"(?i)\b(?:note|заметк\w*)\s+(?:on|to|for|к|на|в|для)\s")


async def _its_one_deal(
    clause: Clause, ctx: BuildContext, target: tuple[str, Entity] | None
) -> tuple[str, Entity] | None:
    """A company found where the note is said to go on a deal («в сделку», "to the deal"): the company's one deal,
    when it has exactly one; otherwise `target` as it was."""
    if target is None or target[0] != "company" or not clause.has("deal"):
        return target
    theirs = [d for d in await ctx.directory.deals() if d.extra.get("company_id") == target[1].id]
    return ("deal", theirs[0]) if len(theirs) == 1 else target
