"""A request split into clauses, each with its words' lemmas and the cues that signal an intent."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache

from planner._lazy_re import LazyRe
from planner.dates import Moment, extract_duration, extract_moment
from planner.numbers import spoken_numbers
from planner.resolve import WordKey, keys_for
from planner.text import is_imperative, is_participle, is_past

__all__ = [
    "CUES",
    "NEW_SOMETHING_ELSE",
    "Clause",
    "analyse",
    "command_verbs",
    "cue_words",
    "leaves_alone",
    "head_of",
    "reports_past",
    "split_clauses",
]

# Lemma-level cue words. Russian entries are normal forms (pymorphy3), plus surface forms where
# pymorphy3 guesses imperatives wrong ("удали" -> "удаль").
CUES: dict[str, frozenset[str]] = {k: frozenset(v.split()) for k, v in {
    "create": "создать создай создайте завести заведи заводим создаём создаем добавляем добавить добавь сделать открыть открой оформить внести внеси занести занеси занесите "
              "запланировать новый новая новое запустить запусти запускай запускайте запустим create add make open file log new raise register "
              "kick start запилить запили запилите закинуть закинь накидать накидай черкнуть черкни черкани набросать набросай "
              "заводи создавай добавляй adding creating making logging "
              "opening filing",
    "put": "поставить поставь ставь ставьте ставим отметить отметь пометить пометь повесить повесь навесить навесь put set mark",
    "move": "перевести переведи переводи переводим переноси перенести перенеси поправь поправить скорректируй скорректировать откати откатить откатывай скинь бампни передвинуть двинуть сдвинуть переместить сменить поменять "
            "изменить обновить мувнуть мувни мувай мувните перейти перешли перешел вышли выйти вернуть верни перекинуть перекинь перебросить "
            "перебрось двигать двигай подвинуть подвинь продвинуть продвинь перетащить перетащи привязать привяжи прикрепить прикрепи поднять подними повысить повысь понизить понизь "
            "увеличить увеличь снизить снизь уменьшить уменьши включить включи "
            "откатить откати откатываем откатим откатите "
            "move advance shift change update push bump increase lower reduce",
    "complete": "закрыть закрой закрывай завершить заверши выполнить выполни готово сделано готов done complete completed "
                "сделанную сделанной сделанным выполненную выполненной закрытую завершённую завершенную "
                "close finish finished resolve resolved закончить закончил доделал доделала готовы готова "
                "зарезолвь зарезолвить резолвни зарезолвил",
    "delete": "удалить удали стереть сотри убрать убери удалению снести снеси delete remove trash drop rid nuke kill",
    "archive": "архивировать заархивировать заархивируй заархивь архивни архив archive",
    "comment": "прокомментировать прокомментируй комментарий комментировать откомментировать коммент комментарием "
               "отпиши comment",
    "note": "заметка note записка touchpoint",
    "assign": "назначить назначь назначай ассайнь ассайни заассайнь заасайнь асайнь берёт берет возьмёт возьмет "
              "возьми забери переназначить поручить поручи отдать отдай передать передай переоформи переоформить assign reassign "
              "взял взяла hand transfer",
    "note_verb": "записать запиши оставить оставь зафиксировать зафиксируй jot leave save сохрани сохранить",
    "due": "срок дедлайн deadline due",
    "priority": "приоритет priority",
    "rename": "переименовать переименуй rename retitle",
    "query": "показать покажи найти найди список выведи вывести посмотреть глянуть show list find search get "
             "перечисли перечислить перечень предоставь предоставить сообщи сообщить назови назвать подсчитай "
             "подсчитать посчитай посчитать отобрази отобразить "
             "display what which какой какие что сколько how где who whose чей кто статус status",
    "deal": "сделка сд deal opportunity opp opps pipeline pipe воронка пайплайн деал дил",
    "company": "компания company организация клиент account",
    "person": "контакт человек person contact champion",
    "task": "задача задачка таска таску таски таск тасок тасками task todo напоминание reminder",
    "issue": "issue тикет ticket баг bug ишью ишьюс фичу фича фичи",
    "bug": "баг bug ошибка ошибку ошибки",
    "project": "проект project эпик эпика эпики эпиков",
    "team": "команда team",
    "block": "блок block timeblock таймблок заблокировать заблокируй забронировать забронируй",
    "meeting": "встреча собрание созвон meeting appointment митинг sync синк event",
    "schedule": "запланировать назначить поставить schedule book",
    "linear": "linear линеар линеаре линеаром линир линире линеара линейр линейре линейра линейром линеар линере",
    "attio": "attio аттио",
    "crm": "crm црм срм",
    "remind": "напомнить напомни remind",
    "todo": "позвонить набрать написать отправить связаться созвониться встретиться call email ping send text "
            "phone meet chase nudge",
    "followup": "follow-up follow followup",
    "stage": "стадия этап stage",
    "signed": "подписать подписали sign signed",
    "refused": "отказаться отказались отказ refused declined",
    "lost": "проиграть проиграли потерять lost",
    "mine": "мой мои my mine меня me",
    "about": "про about насчет regarding",
    "yes": "да yes ok ок ага подтверждаю confirm sure yep давай go",
    "no": "нет no cancel отмена отмени не stop nope",
}.items()}  # fmt: skip

_ACTIONS = (
    "create", "put", "move", "complete", "delete", "archive", "comment", "assign", "remind", "rename", "note_verb",
    "followup", "todo",
)  # fmt: skip
_NEW = frozenset({"новый", "новая", "новое", "новую", "нового", "новой", "новому", "новым", "new"})
_OPEN_ADJ = frozenset(
    {"открытые", "открытых", "открытый", "открытая", "открытую", "открытой", "открытым", "opened"}
)
_SPLIT = LazyRe(
    r"\s*(?:;\s*|\s[—–-]\s|[.!?]\s+|,\s+(?:и|а|а также|and then|and|then|затем|потом|плюс|plus)\s+|\s+(?:и|а также|and then|and|then|"
    r"затем|потом|плюс)\s+|\s+also\s+(?=(?:comment|note|add|create|move|set|mark|assign|close|log|put|bump|make|file|open|"
    r"archive|delete|tag|remind|schedule|book|change|update|send|push|give|hand|drop|rename)\b)|,\s+)(?=\S)",
    re.IGNORECASE,
)
# «Если Globex pilot ещё не выиграна — переводи в Won», "if ENG-105 is still open, close it": a state that
# holds or not right now (planner.conditions checks it against the record)
STATE_NOW_IF = LazyRe(
    r"(?i)^\s*(?:(?:ну|so|and|и|а)[,\s]+)?(?:если|if)\b[^—–,.;:!?]*?"
    r"\b(?:ещ[её]|вс[её]\s+ещ[её]|уже|still|not\s+yet|already|(?:is|are)n'?t\s+(?:yet\s+)?)\b[^—–,;:!?]*"
)
# «…проверить, оплатил ли Initech счёт», "remind me to check whether Acme paid": what is checked is its part
_CHECK_LEFT = LazyRe(
    r"(?i)\b(?:проверить|проверь|узнать|узнай|уточнить|уточни|спросить|спроси|выяснить|выясни|check|ask|see|"
    r"find\s+out|confirm)\s*$"
)
_WHETHER = LazyRe(r"(?i)\s*(?:[^\W\d_]+\s+ли\b|whether\b|if\b)")
_LEFT_ALONE = LazyRe(
    r"(?i)\b(?:не\s+(?:трога|меня|перенос|закрыва|переназнача)\w*|остав\w*\s+(?:как\s+есть|в\s+покое)|"
    r"leave\s+(?:it|them|[A-Za-z]{1,10}-\d+)\s+(?:alone|as\s+is)|don'?t\s+touch)\b"
)


def leaves_alone(clause: Clause, now: datetime) -> bool:
    """«ENG-101 при этом не трогай», "leave ENG-101 alone": a record named only to be left as it is
    (no other verb in the clause: «закрой CS-13 … там ничего не трогай» asks for a change)."""
    said = _LEFT_ALONE.search(clause.text)
    if said is None:
        return False
    rest = clause.text[: said.start()] + " " + clause.text[said.end() :]
    return _verb_count(analyse(rest, now)) == 0


_A_QUOTE_ALONE = LazyRe(r"\s*(?:«[^«»]+»|\"[^\"]+\"|“[^“”]+”)[\s.!?]*")
_STATE_OF_THEM = LazyRe(
    r"(?i)^(?:что|которые|which|that)\s+(?:уже\s+|сейчас\s+|still\s+|is\s+|are\s+|were\s+)*"
    r"(?:назначен\w*|закрыт\w*|assigned|closed|done|висит|висят|лежит|лежат|owned)\b"
)
_COMPLEMENT = LazyRe(r"^(?:что|чтобы|that)\s", re.IGNORECASE)
# "заархивируй всё, что лежит в бэклоге", "close every issue that is in review": which things, not a question
_RELATIVE = LazyRe(r"^(?:что|which|that|who|котор\w+|где|where)\s", re.IGNORECASE)
_WHAT_OF = LazyRe(
    r"(?i)\b(?:всё|все|всех|everything|all|anything|то|те|тех|those|задачи|задач|тикеты|баги|сделки|сделок|"
    r"issues|tickets|bugs|deals|tasks)\s*$"
)


def _without_query(c: Clause) -> Clause:
    return replace(c, cues=c.cues - {"query"})


# a clause that starts with one of these nouns and has no verb borrows the previous clause's verb:
# "создай компанию Вектор и контакт Пётр Смирнов" = "... и создай контакт Пётр Смирнов"
_OBJECT_START = LazyRe(
    r"^(?:(?:and|и|сразу|также|ещё|еще|also|then|в attio|в crm|in attio|in the crm)\s+)*"
    r"(?:a |an |the |новую |новый |new |another |one more |ещё одну |еще одну |ещё один |еще один )?"
    r"(?:(?:crm|attio|linear)\s+)?"
    r"(?:\d+[\s-]*(?:min(?:ute)?s?|мин\w*|h(?:ours?)?|час\w*)\s+)?"  # "another 30 min call with Li Wei …"
    r"(контакт\w*|сделк\w*|заметк\w*|компани\w*|задач\w*|тикет\w*|contact|deal|note|company|person|task|issue|"
    r"ticket|call|meeting|созвон\w*|встреч\w*)\b",
    re.IGNORECASE,
)


# "Bug: …", «Фича: …», "Todo: …": the kind of thing to file, then its words (which ask nothing, whatever they say)
HEADED_THING = LazyRe(
    r"(?i)^\s*(?:bug|баг|feature(?:\s+request)?|фича|issue|ticket|тикет|todo|to-do|задача|таска|task|note|заметка)\s*:"
)


@dataclass
class Clause:
    text: str
    keys: list[WordKey]
    moment: Moment
    duration: int | None
    duration_span: tuple[int, int] | None
    identifiers: list[str]
    cues: set[str] = field(default_factory=set)
    # the words before a colon that only set the scene ("Initech renewal: spin up …"): what they name
    # is read for the rest, but a read of it is no step of a draft
    context: bool = False
    # a piece after a request that says why ("…, she left Acme", "…, dupe of DES-7"): asks for nothing
    reason: bool = False
    # cue -> word positions, filled as asked; never copied by `replace` (a new clause may have new words)
    _positions: dict[str, list[int]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def has(self, *names: str) -> bool:
        return not self.cues.isdisjoint(names)

    def creates(self) -> bool:
        """A create verb, not just the adjective "new" ("у Globex новый домен" edits, it does not create)
        or "open" ("my open deals", "открытые задачи" are a state)."""
        return (
            _STARTS.search(self.text) is not None
            or _TEMPLATE_RUN.search(self.text) is not None
            or _OBJECT_FIRST.search(self.text) is not None
            and not self.has(*_ACTIONS)
            or "create" in self.cues
            and any(
                self.keys[i].text not in _NEW
                and not (
                    not self.keys[i].text.isascii() and is_past(self.keys[i].text)
                )  # «они добавили лицензии»
                and self.keys[i].text
                not in CUES["complete"]  # "сделанную" is done, though its verb is "сделать"
                and not (
                    self.keys[i].text in _OPEN_ADJ
                    or (self.keys[i].text == "open" and (i > 0 or self._plural_after(i)))
                )
                for i in self.cue_positions("create")
            )
        )

    def _plural_after(self, i: int) -> bool:
        """ "open bugs in ENG": "open" before things in the plural is which ones, not a verb."""
        after = [k.text for k in self.keys[i + 1 : i + 3]]  # "open security issues?": one word between
        things = ("bugs", "issues", "tickets", "tasks", "deals", "items", "ones")
        return bool(after) and (after[0] in things or len(after) > 1 and after[1] in things)

    def says_new(self) -> bool:
        """The adjective "new" ("новая сделка с Initech"): a create without a verb."""
        return any(
            self.keys[i].text in _NEW and not self._new_of_someone(i) for i in self.cue_positions("create")
        )

    def _new_of_someone(self, i: int) -> bool:
        """ "на нового разработчика", "to the new hire": "new" said of a person, no thing made."""
        after = self.keys[i + 1 : i + 2]
        return bool(after) and after[0].text in _NEW_PERSON_WORDS

    def first(self, *names: str) -> int:
        """Position of the earliest word carrying any of these cues (a large number when none)."""
        found = [i for n in names for i in self.cue_positions(n)]
        return min(found) if found else 10_000

    def cue_positions(self, name: str) -> list[int]:
        """Where the words carrying this cue stand (read-only: it is remembered for the clause's words)."""
        found = self._positions.get(name)
        if found is None:
            vocab = CUES[name]
            found = self._positions[name] = [
                i for i, k in enumerate(self.keys) if k.text in vocab or k.lemmas & vocab
            ]
        return found

    def asks(self) -> bool:
        """A question or a bare noun phrase ("заметки по Initech", "what's left in Q1?"), not a command:
        a question word that comes before any action verb, a question mark, or no verb at all."""
        if HEADED_THING.match(self.text) and not self.text.rstrip().endswith("?"):
            return False  # "Bug: Safari users get logged out when …": a thing to file, said after its kind
        if self.has("query") and self.first("query") < self.first(*_ACTIONS):
            return True
        if self.text.rstrip().endswith("?"):
            return True
        if _OBJECT_OF_A_REQUEST.search(self.text):
            return False  # «задачу Олегу: выставить счёт»: the thing asked for, its verb left out
        return not self.has(*_ACTIONS, "signed", "refused", "lost") and self.after_colon is None

    def commands(self) -> bool:
        """An action verb that comes before any question word ("list open issues" does not command)."""
        return self.has(*_ACTIONS) and self.first(*_ACTIONS) < self.first("query")

    @property
    def after_colon(self) -> str | None:
        if ":" not in self.text:
            return None
        head, tail = self.text.split(":", 1)
        if re.search(r"\d$", head) and re.match(r"\d", tail):
            return None  # a time like 14:00
        return tail.strip() or None


# a Russian noun in the accusative is the object of a verb left out («задачу Олегу …», «встречу с Джейн …»);
# the nominative or plural names what is asked about («задачи Олега», «заметки по Initech»)
# a person a request is for, said first in the dative («олегу задачу …», «мне задачу …», «Анне задача: …»)
DATIVE = (
    r"мне|ему|ей|нам|тебе|(?!(?:где|все|тоже|еще|ещё|уже|вообще|также|мое|моё|твое|свое|какую|такую|новую|эту|"
    r"одну|ту|срочную|большую|отдельную|вторую|первую|третью|каждую|по|на|ну|не|же|и)\b)[^\W\d_]{2,}[уюе]"
)
_OBJECT_OF_A_REQUEST = LazyRe(
    r"(?i)^(?!.*(?<![\w-])(?:не|not)(?![\w-])).*?(?<![\w-])(?:задачу|встречу|заметку|напоминалку|тикет\s+на)(?![\w-])"
    rf"|^\s*(?:{DATIVE})\s+(?:задача|задачка)(?![\w-])(?!.*\?\s*$)"  # «Анне задача на завтра — …»
)


def _identifiers(text: str) -> list[str]:
    return [m.group(0).upper() for m in re.finditer(r"\b[A-Za-z]{1,10}-\d{1,6}\b", text)]


# phrasal verbs mean one thing: read them as that word when looking for cues (titles keep the original)
_PHRASES = [
    (re.compile(r"\bget rid of\b", re.I), "remove"),
    (
        re.compile(r"\bget(?=\s+(?:\w+\s+)?(?:a|an)\s+(?:ticket|issue|task|bug)\b)", re.I),
        "create",
    ),  # "get ENG a ticket"
    (re.compile(r"\btick(?:ed)?\s+off\b|\bcross(?:ed)?\s+off\b", re.I), "close"),  # "tick off CS-12": done
    # «залогируй баг в ENG: …»: a bug filed
    (re.compile(r"\bзалогиру\w*(?=\s+(?:баг|задач|тикет|issue|bug|ошибк))", re.I), "заведи"),
    # "ENG-101 blocks the release": what stands in the way, no block of time
    (
        re.compile(r"\bblocks(?=\s+(?:the|a|an|our|this|that|their|us|them|it|[A-Za-z]{2,5}-\d+)\b)", re.I),
        "prevents",
    ),
    # "…, and attach these notes to it": the words told before, noted on the record
    (
        re.compile(
            r"\battach(?=\s+(?:(?:these|those|the|my|this|our|that)\s+)?(?:notes?|it|this|them)\s+(?:to|on)\b)",
            re.I,
        ),
        "save",
    ),
    (
        # («ENG-103 берём в работу» reaches here as «берёт», a typo's reading: taken on, by nobody named)
        re.compile(
            r"\b(?:возьми|взять|бери|берём|берем|возьмём|возьмем|берите|возьмите|(?<=\d\s)бер[её]т)"
            r"(?=\s+в\s+работу\b)",
            re.I,
        ),
        "переведи",
    ),  # «возьми в работу»
    (
        re.compile(
            r"\b(?:кинь|киньте|перекинь|перекиньте|закинь|скинь)(?=\s+(?:(?:его|её|ее|их)\s+)?на\s+(?!пятниц|понедельник|вторник|сред|четверг|суббот|воскресень|завтра|сегодня|\d)[А-ЯЁа-яё])",
            re.I,
        ),
        "назначь",
    ),  # «… и кинь на Олега»: given to him
    (
        re.compile(r"\bsign(?:ed|s|ing)?[- ]?(?:in|on|up|out)\b", re.I),
        "login",
    ),  # "the sign-in page" signs nothing
    # "SSO is blocked by their firewall", «заблокирован»: stuck, not a block of time
    (
        re.compile(
            r"\b(?:is|are|was|were|been|gets?|got)\s+blocked\b|\bblocked\s+(?:by|on)\b|\bзаблокирован\w*",
            re.I,
        ),
        "stuck",
    ),
    (
        re.compile(r"\b(?:feature|customer)\s+requests?\b", re.I),
        "issue",
    ),  # "create a feature request": an issue ("add feature" labels)
    # "drop it to high priority": lowered, not dropped
    (
        re.compile(
            r"\bdrop(?=\s+(?:it|this|that|[a-z]+-\d+)?\s*(?:down\s+)?to\s+(?:urgent|high|medium|low|normal|p[0-4])\b)",
            re.I,
        ),
        "lower",
    ),
    # "log on the Initech renewal deal that …": a note on it
    (
        re.compile(
            r"\blog(?=\s+(?:(?:that|this|it|(?:the|a|my|our)\s+(?:call|meeting|chat|conversation))\s+)?"
            r"(?:on|to|against)\s+(?:the\s+|her\s+|his\s+|their\s+)?[\w-]+)",
            re.I,
        ),
        "jot note",
    ),
    # "Please record a note against Acme Corp that …": a note written down
    (re.compile(r"\brecord(?=\s+(?:a\s+|the\s+|this\s+|that\s+)?(?:quick\s+)?note\b)", re.I), "jot"),
    # "I'm on parental leave from Monday": away, nothing left as a note
    (
        re.compile(
            r"\b(?:parental|sick|maternity|paternity|annual|medical|unpaid)\s+leave\b|\bon\s+leave\b|"
            r"\bleave\s+(?=(?:from|until|till|starting|next\s+week)\b)",
            re.I,
        ),
        "away ",
    ),
    # "give CS-15 a due date of December 10": a field set on it
    (
        re.compile(
            r"\bgive(?=\s+(?:it|them|[A-Za-z]{2,5}-\d+)\s+(?:a|an|the)\s+(?:new\s+)?(?:due|deadline|priority|label|tag|title|"
            r"description|name)\b)",
            re.I,
        ),
        "set",
    ),
    # "Make Max the owner of the Acme Logistics pilot": a hand-over, nothing made
    (
        re.compile(
            r"\b(?i:make)(?=\s+(?:(?i:me|him|her)|[A-Z][\w-]+)\s+(?i:the\s+)?(?i:new\s+)?(?i:owner|assignee)\b)"
        ),
        "assign",
    ),
    # "…, and tag it customer-request", "label ENG-103 security and …": a label put on it
    # (said as a request of its own: after a comma, "and" or a sentence's end)
    (
        re.compile(
            r"(?:^|(?<=[,;.!?]\s)|(?<=\band\s)|(?<=\bthen\s))(?:tag|label(?=\s+[A-Za-z]{2,5}-\d+\s))(?=\s+(?:it|them|this|that|[A-Za-z]{2,5}-\d+)\s+"
            r"(?:as\s+|with\s+)?[\w-]+)",
            re.I,
        ),
        "put label",
    ),
    # "Drop a note on the Initech renewal deal", "drop the link as a comment on ENG-105": put, not deleted
    (
        re.compile(
            r"\bdrop(?=\s+(?:(?:a|an|the|this|that|it|me|them)\s+)?(?:(?:quick|short|brief)\s+)?"
            r"(?:note|comment|line|link|message|reminder|memo)\b|\s+(?:it|this|that|them)\s+(?:in|into|as)\s+(?:a\s+)?"
            r"(?:note|comment))",
            re.I,
        ),
        "jot",
    ),
    # "… on hold until January. Note that on the Acme pilot": what was just said, written down on it (a
    # sentence of its own: after someone's quoted words, "' — note it on her card" stays with the quote)
    (
        re.compile(
            r"(?:^|(?<=[.!]\s))note(?=\s+(?:that|this|it|these)\s+(?:down\s+)?(?:on|to|against|in|under)\s+"
            r"(?:the\s+|her\s+|his\s+|their\s+)?[\w-]+)",
            re.I,
        ),
        "jot note",
    ),
    # "Initech wants the quarterly check-in done before the 10th": someone else's wish, no "done" now
    (
        re.compile(
            r"(?<!\bi\s)(?<!\bwe\s)\b(?:wants?|wanted|needs?|needed|would\s+like)\s+(?:[\w'-]+\s+){1,6}?"
            r"(?:done|finished|completed|closed)\b(?=\s+(?:by|before|until|no\s+later)\b)",
            re.I,
        ),
        "wants",
    ),
    # "if you could note on the Umbrella Health record that …", "please note on Globex: …": asked to write it down
    (
        re.compile(
            r"(?:(?<=\bcould\s)|(?<=\bcan\s)|(?<=\bwould\s)|(?<=\bplease\s)|(?<=\bpls\s)|(?<=\bto\s)|(?<=\band\s)|"
            r"(?<=\balso\s)|(?<=\bjust\s))note(?=\s+(?:on|in|against|to|under)\s)",
            re.I,
        ),
        "jot note",
    ),
    # "Log a call with Maria: …", "Log this: Li Wei says …": a note of it
    (re.compile(r"\blog\s+(?:(?:a|the|my)\s+call\s+with|(?:this|that|it)\s*(?=:))", re.I), "jot note on"),
    (re.compile(r"\btak(?:e|es|ing)\s+over\b", re.I), "assign"),  # "I'll take over the Alfa deal": its owner
    (re.compile(r"\bset up\b", re.I), "schedule"),
    (re.compile(r"\bkick(?:ed)? off\b", re.I), "start"),
    (re.compile(r"\bspin(?:ning)? up\b", re.I), "start"),
    (re.compile(r"\bfollow(?:ed)?[ -]up\b", re.I), "followup"),
    (re.compile(r"\bfell through\b", re.I), "lost"),
    (re.compile(r"\s(?:→|->|=>)\s"), " move to "),  # "globex → won", "ENG-101 -> Done"
    # «готова к проверке», "ready for review": the next step, not done
    (
        re.compile(
            r"\b(?:готов\w*|ready)\s+(?:к|для|for)\s+(?=(?:проверк|ревью|review|code\s+review|qa\b|тестирован))",
            re.I,
        ),
        "move to ",
    ),
    # «ENG-101 кидай на ревью», «закинь его в проверку»: sent on to the next state
    (
        re.compile(
            r"\b(?:кидай|кинь|закинь|закидывай|скинь|отправь|отправляй)\b(?=(?:\s+\S+){0,3}?\s+(?:на|в)\s+"
            r"(?:ревью|review|code\s+review|проверку|тестирование|тест|qa)\b)",
            re.I,
        ),
        "переведи",
    ),
    # "give ENG-104 to Max", "give the Alfa deal to Max", not "give me…"
    (re.compile(r"\bgive\b(?=\s+(?!me\b|us\b)(?:[\w-]+\s+){1,6}to\s)", re.I), "assign"),
    # "the Acme pilot can go to qualification now"
    (re.compile(r"\b(?:can|should|could|will|may)\s+(?:now\s+)?go\s+(?=to\b|into\b)", re.I), "move "),
]


_STARTS = LazyRe(
    r"\b(?:kick|spin)(?:ning)?\s+(?:off|up)\b"  # said as two words, meant as "create"
    # "new issue for the design team …", «новая сделка глобекс …»: a request that opens with the new thing
    r"|^\s*(?:(?:okay|ok|so|um+|uh+|ну|так|короче|э+)[,\s]+)*(?:an?\s+)?(?:new|нов(?:ая|ый|ую|ое))\s+"
    r"(?:issue|task|ticket|bug|deal|contact|person|company|project|note|задач\w*|сделк\w*|контакт\w*|компани\w*|"
    r"проект\w*|заметк\w*|баг\w*|тикет\w*)\b",
    re.I,
)


# «По Globex: задачу Олегу — выставить счёт»: a request that opens with the thing asked for, its verb left out
_OBJECT_FIRST = LazyRe(
    r"(?i)^(?!.*(?<![\w-])(?:не|not)(?![\w-]))\s*(?:по\s+[\w-]+(?:\s+[\w-]+)?\s*[:,—-]?\s*)?"
    rf"(?:(?:{DATIVE})\s+(?:задача|задачка)(?![\w-])|(?:(?:{DATIVE})\s+)?(?:задачу|заметку|напоминалку)(?![\w-]))"
)

# a colon inside quotes, set aside by the planner while a message is split (see core): one character,
# so every span found in the text stays where it was
KEPT_COLON = "\ue000"

_ANY_PHRASE = LazyRe("|".join(f"(?:{rx.pattern})" for rx, _ in _PHRASES), re.IGNORECASE)


def _cue_keys(text: str) -> list[WordKey]:
    for rx, word in _PHRASES:
        text = rx.sub(word, text)
    return keys_for(text)


_CREATE = CUES["create"]


def _reported(k: WordKey) -> bool:
    """A create word in the past tense reports what happened ("started", "created"), and a participle
    says what a thing is («проекты, заведённые в Linear»)."""
    return k.text.isascii() and k.text.endswith("ed") and k.text not in _CREATE or is_participle(k.text)


_DETERMINERS = frozenset("the a an our this that their his her its my your".split())
_RECORD_NOUNS = frozenset("deal deals issue issues task tasks ticket tickets one ones bug bugs note".split())
_NEW_WORDS = frozenset({"new", "новый", "новая", "новое", "новые"})
# "New contractor …", «Новый клиент — …»: "new" said of something that is no record we make
NEW_SOMETHING_ELSE = LazyRe(
    r"(?i)^\s*(?:new|нов(?:ый|ая|ое|ые))\s+(?!(?:issue|task|ticket|bug|deal|contact|person|company|project|projct|note|"
    r"meeting|event|call|record|lead|opportunity|opp|client|customer|linear|attio|crm|задач|тикет|баг|сделк|сд\b|"
    r"контакт|компани|проект|заметк|встреч|созвон|событи|запис|клиент|лид|срм|линеар|аттио)\w*)"
    r"(?-i:(?![A-Z]{2,5}\b))[^\W\d_]+"
)
_NOUN_TOO = ("move", "complete", "delete", "archive", "rename")  # cues that are also English nouns


def analyse(text: str, now: datetime) -> Clause:
    """The clause's words, dates, duration, identifiers and cues. Splitting a long message analyses
    the same pieces again as they are joined, so each (text, now) is read once; every caller gets
    its own copy of what a rule may change (cues, identifiers, the moment)."""
    c = _analysed(text, now)
    moment = Moment(c.moment.day, c.moment.at, list(c.moment.spans))
    copy = replace(c, keys=list(c.keys), moment=moment, identifiers=list(c.identifiers), cues=set(c.cues))
    copy._positions = c._positions  # the same words: where each cue stands is shared, never changed
    return copy


@lru_cache(maxsize=2048)
def _analysed(text: str, now: datetime) -> Clause:
    keys = keys_for(text)
    timed = text.replace(
        KEPT_COLON, ":"
    )  # «“…Dec 1 at 11:30?”»: a quote's colon is still a time's (same length)
    duration, dspan = extract_duration(timed, bare_number_after_na=True)
    clause = Clause(text, keys, extract_moment(timed, now), duration, dspan, _identifiers(text))
    cue_keys = _cue_keys(text) if _ANY_PHRASE.search(text) else keys
    said = {k.text for k in cue_keys}.union(*(_cue_lemmas(k) for k in cue_keys))
    clause.cues.update(name for name, vocab in CUES.items() if not said.isdisjoint(vocab))
    # "… about the office move", "a quick update": an English verb after a determiner is a noun
    as_verbs = [
        k
        for i, k in enumerate(cue_keys)
        if not (i and cue_keys[i - 1].text in _DETERMINERS)
        and not (
            i > 1 and cue_keys[i - 2].text in ("the", "a", "an") and cue_keys[i - 1].text not in _RECORD_NOUNS
        )
    ]
    verbs_said = {k.text for k in as_verbs}.union(*(k.lemmas for k in as_verbs))
    for name in _NOUN_TOO:
        if name in clause.cues and verbs_said.isdisjoint(CUES[name]):
            clause.cues.discard(name)
    if "create" in clause.cues and all(
        _reported(k) for k in cue_keys if k.text in _CREATE or k.lemmas & _CREATE
    ):
        clause.cues.discard("create")  # "sprint started: …", "I created ENG-110": told, not asked
    if "create" in clause.cues and NEW_SOMETHING_ELSE.match(text):
        rest = [
            k
            for k in cue_keys
            if k.text not in _NEW_WORDS
            and (k.text in _CREATE or k.lemmas & _CREATE)
            and not (k.text.isascii() and k.text.endswith("s") and k.text not in _CREATE)  # "starts": told
        ]
        if not rest:  # "New contractor starts Monday", "New inbound from Umbrella: …": news, nothing to make
            clause.cues.discard("create")
    clause.cues |= _misspelt_cues(cue_keys)
    if "signed" in clause.cues and not _SIGNED_SAID.search(text) and _NOT_SIGNED.search(text):
        clause.cues.discard(
            "signed"
        )  # "otherwise legal won't sign it this year", «пока не подписали»: no outcome
    if _WRITE_A_NOTE.search(text):  # «… и напиши заметку: …»: writing a note is noting, no to-do of writing
        clause.cues.add("note_verb")
    if _TEMPLATE_RUN.search(text):  # "… and run the onboarding template": a verb of its own, it makes issues
        clause.cues.add("create")
    # "book a call", "set up a call ... for an hour": a call with a time slot is a meeting
    if re.search(r"\b(call|звонок|звонка)\b", text, re.I) and (clause.has("schedule") or duration):
        clause.cues.add("meeting")
    return clause


_WRITE_A_NOTE = LazyRe(r"(?i)\b(?:напиши|напишите|write)\s+(?:a\s+)?(?:заметк\w*|коммент\w*|note|comment)\b")
_NOT_SIGNED = LazyRe(
    r"(?i)\b(?:won'?t|will\s+not|wouldn'?t|didn'?t|don'?t|doesn'?t|haven'?t|hasn'?t|not|never|yet\s+to|не|ещё\s+не|еще\s+не)"
    r"\s+(?:(?:be\s+able\s+to|going\s+to|yet)\s+)?(?:sign(?:ed)?|подпис\w+)\b"
)
# a signing said plainly besides a negated one ("signed, but legal won't sign the SOW"): an outcome still
_SIGNED_SAID = LazyRe(r"(?i)(?<!not\s)(?<!n't\s)(?<!не\s)\b(?:signed|подписали|подписал|подписала)\b")
_TEMPLATE_RUN = LazyRe(
    r"(?i)\b(?:apply|run|use|trigger|launch|примени|запусти|используй)\s+(?:the\s+|our\s+)?(?:[\w-]+\s+)?"
    r"(?:template|checklist|playbook|шаблон\w*|чек-?лист\w*)\b"
)


def _cue_lemmas(k: WordKey) -> frozenset[str]:
    """A word's normal forms, as cues read them: an English "-s" form of a verb that makes something is no
    request to make it ("leaks session tokens into the logs", "she files the report"): told, or a plural noun."""
    if k.text.isascii() and k.text.endswith("s") and not k.text.endswith("ss") and k.text not in cue_words():
        return k.lemmas - _COMMAND_VERBS()
    return k.lemmas


@lru_cache(maxsize=1)
def _COMMAND_VERBS() -> frozenset[str]:  # noqa: N802 - a constant, built once
    # (only the verbs that make something, or show it — "so it shows up in the CS view": "X moves to In
    # Progress" is how a planning outcome asks for it)
    return CUES["create"] | {"show", "list", "find", "search", "display", "get"}


@lru_cache(maxsize=1)
def cue_words() -> frozenset[str]:
    """Every cue word of every kind: a word among them is no typo."""
    return frozenset().union(*CUES.values())


# cue words one letter away from common words that are no typo of them: «опиши» (describe) is not «отпиши»,
# «возьмём в работу» (we take it on) is not «возьмёт» (someone takes it)
NEVER_A_TYPO_OF = frozenset({"отпиши", "возьмёт", "возьмет", "сотри"})  # («смотри» is no «сотри»)


@lru_cache(maxsize=1)
def command_verbs() -> dict[str, list[tuple[str, str]]]:
    """Russian command verbs (5+ letters) by first letter, with their cue: what a typo at the start
    of a request most likely meant."""
    index: dict[str, list[tuple[str, str]]] = {}
    for name in ("create", "complete", "move", "delete", "archive", "comment", "assign", "rename"):
        for word in CUES[name]:
            if len(word) >= 5 and not word.isascii() and word not in NEVER_A_TYPO_OF:
                index.setdefault(word[0], []).append((word, name))
    return index


def _misspelt_cues(keys: list[WordKey]) -> set[str]:
    """Typed in a hurry: "закрй", "созадй", "перевди" — one edit away from a Russian command verb.
    (`planner.hurried` spells the whole request right first; this covers text analysed on its own.)"""
    from rapidfuzz.distance import DamerauLevenshtein

    found: set[str] = set()
    every = cue_words()
    for k in keys[:3]:  # commands come first
        if len(k.text) < 4 or k.text.isascii() or k.text in every or k.lemmas & every:
            continue
        for word, name in command_verbs().get(k.text[0], ()):
            if abs(len(word) - len(k.text)) <= 1 and DamerauLevenshtein.distance(word, k.text) == 1:
                found.add(name)
    return found


_VERBISH = (
    "create",
    "block",
    "move",
    "complete",
    "delete",
    "archive",
    "comment",
    "assign",
    "remind",
    "put",
    "query",
    "rename",
    "schedule",
    "signed",
    "refused",
    "lost",
    "note_verb",
)


_HAPPENED = LazyRe(
    r"(?i)\b(?:went|happened|took\s+place|was\s+held|were\s+held|got\s+cancell?ed|(?:we|i)\s+had\s+(?:a|an|the|our))\b"
)


# «созвон провели», «встреча прошла», «звонок был», «созвон состоялся»: it took place (not «Джейн просила
# созвон», which asks for one)
_TOOK_PLACE = frozenset("провести пройти быть состояться случиться закончиться кончиться".split())


def reports_past(clause: Clause) -> bool:
    """What was, with no verb to make anything («созвон с Acme провели утром», "the call went fine")."""
    return (
        not clause.creates()
        and not clause.has("schedule", "block")
        and (
            _HAPPENED.search(clause.text) is not None
            or any(not k.text.isascii() and is_past(k.text) and k.lemmas & _TOOK_PLACE for k in clause.keys)
        )
    )


def head_of(clause: Clause, now: datetime) -> Clause:
    """The words before a colon, analysed on their own ("create these issues for DES: …, FAQ block"
    says issues, whatever the list says); the clause itself when no colon introduces content."""
    return analyse(clause.text.split(":", 1)[0], now) if clause.after_colon is not None else clause


_NEW_PERSON_WORDS = frozenset(
    "разработчика разработчику разработчик сотрудника сотруднику сотрудник коллегу коллеге менеджера менеджеру "
    "человека человеку исполнителя исполнителю владельца владельцу developer dev hire colleague guy person owner "
    "assignee engineer manager".split()
)


# «по Globex», "re Globex", "about Romashka": a heading that names what the requests after its colon are about
# (a capitalised name: «по итогам:» says why, "for my manager:" whom for, not what)
_ABOUT_A_NAME = LazyRe(
    r"(?i:по|про|насч[её]т|re|about|regarding|on|for)\s+(?i:сделке\s+|компании\s+|the\s+)?"
    r"[A-ZА-ЯЁ][\w-]*(?:\s+[\w-]+){0,2}"
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
    r"(?i)[,;.:]?\s*(?<![\w-])(первое|второе|третье|четв[её]ртое|во-первых|во-вторых|в-третьих|в-четв[её]ртых|"
    r"firstly|secondly|thirdly)(?![\w-])[,:]?\s*"
)
_FIRST_MARKS = frozenset({"первое", "во-первых", "firstly"})


# after a colon, a note or comment whose words are quoted, then «и …» / "and …": where the next request starts
_QUOTED_THING_THEN_ASK = LazyRe(
    r"(?i)\s*(?:заметк\w*|note|коммент\w*|комментари\w*|comment)(?:\s+[^«\"“:]{1,30}?)?\s*[:—–-]?\s*"
    r"(?:«[^«»]{2,}»|\"[^\"]{2,}\"|“[^”]{2,}”)\s*[,;]?\s+(?:и|and)\s+"
)


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


def split_clauses(text: str, now: datetime) -> list[Clause]:
    """Split "переведи в Won и создай задачи" into clauses, but only where each side has its own verb
    (so "Acme and Globex" or a list after a colon stays whole)."""
    marks = _ENUMERATED.findall(text)
    if len(marks) >= 2 and marks[0].lower() in _FIRST_MARKS:
        # «…по umbrella первое создай сделку …второе поставь мне созвон …» (dictated): each item its own request
        first = _ENUMERATED.search(text)
        assert first is not None
        head = text[: first.start()]
        if len(head.split()) <= 5 and not _verb_count(analyse(head, now)):
            text = text[first.start() :]  # «короче две вещи первое …»: the heading counts them, asks nothing
        return split_clauses(_ENUMERATED.sub("; ", text).strip("; "), now)
    bulleted = _bulleted_requests(text, now)
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
    away = _AWAY_FIRST.match(text)
    if away and _AWAY.match(away.group(1)) and _verb_count(analyse(text[away.end() :], now)):
        # "Oleg is out sick, reassign all his open issues to Max": why first, then the request (no filter of it)
        why = analyse(away.group(1), now)
        why.reason = True
        return [why, *split_clauses(text[away.end() :], now)]
    lines = [x.strip() for x in text.splitlines() if x.strip()]
    if len(lines) > 1 and all(
        _NEXT_LINE.match(x) or _starts_with_verb(analyse(x, now)) or _ID_THEN_WORDS.match(x)
        for x in lines[1:]
    ):  # (a line that starts with an issue and says its change — "ENG-103 → todo" — is one too)
        # "issue: export to xlsx, label …\nthen note on acme: …": each line a request of its own
        return [c for x in lines for c in split_clauses(_NEXT_LINE_LEAD.sub("", x), now)]
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
    for listed in (_meetings_listed, _reminders_listed, _events_listed, _day_planned) if colon else ():
        each = listed(head, tail, now)
        if each:
            return each
    if colon and (
        not re.search(r"\d$", head)
        # "Comment on ENG-106: … — `GET /v1/me` …": after an issue's key, a comment's words (in "в 14:30" a time)
        or re.search(r"[A-Za-z]{2,5}-\d+$", head) is not None
        # "Create sub-issues under ENG-105: a, b, c": the list is what to create
        and analyse(head, now).has("comment", "create", "note")
    ):
        # "…: renewal signed for 2 years. Also create a Linear issue to …": the content ends where a new
        # sentence starts a request of its own
        # (a bug report's "Окружение: … Шаги: … Заведи баг в ENG: …": the first sentence that asks, not the first)
        # ('comment on ENG-106 what customer sent us: "… Please delete ENG-106 …"': their words, quoted, are
        # the comment's — no request of mine starts inside them)
        inside = (
            [q.span() for q in re.finditer(r"\"[^\"]{2,}\"|«[^«»]*»|“[^“”]*”", tail)]
            if analyse(head, now).has("comment", "note", "note_verb")
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
                # «глобекс: заметка — …; сумма 27к»: after a semicolon, a field and its value are the next change
                or ";" in m.group(0)
                and _FIELD_VALUE.match(tail[m.end() :])
                and bool(re.search(r"\d", tail[m.end() :]))
            ),
            None,
        )
        if after:
            return [
                *split_clauses(head + ":" + tail[: after.start()], now),
                *_split(tail[after.end() :], now),
            ]
        joined = _DASH_AND.search(tail)  # "…: Ольга, olga@…, юрист — и заметку к сделке X: …"
        verb = _first_verb(analyse(head, now))
        if joined and verb and _OBJECT_START.match(tail[joined.end() :]):
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
            and not _ASKS_AFTER_A_DASH.search(tail)  # "…: github.com/… — drop the link in a comment too"
            and not _imperative_first(tail)
        ):
            why = analyse(tail.strip(), now)
            why.reason = True
            return [*_split(head, now), why]
        quoted_first = _QUOTED_THING_THEN_ASK.match(tail)
        rest = tail[quoted_first.end() :].strip() if quoted_first else ""
        if quoted_first and (
            _starts_with_verb(analyse(rest, now)) or _THING_FOR.match(rest) or _LEADS_WITH_THING.match(rest)
        ):
            # «По Джону Смиту: заметка «просит демо …» и напомни мне в четверг …»: the quote ends what the colon
            # introduced; what follows it is a request of its own
            said_first = split_clauses(f"{head}:{tail[: quoted_first.end()].rstrip(' ,и')}".rstrip(), now)
            said_first[-1] = analyse(re.sub(r"(?i)\s+(?:и|and)$", "", said_first[-1].text), now)
            return [*said_first, *split_clauses(rest, now)]
        # a colon introduces content (a title, a note, a list): split only the part before it
        parts = _split(head, now)
        parts[-1] = analyse(parts[-1].text + ":" + tail, now)
        before = analyse(head, now)
        # "Ромашка подписала договор: переведи сделку в Won и создай задачи" - the head is a statement
        statement = not before.has(*(v for v in _VERBISH if v not in ("signed", "refused", "lost")))
        tail_clause = analyse(tail, now)
        # «CS-13 готова: закройте её и оставьте комментарий …»: a state said of a record ("готова" is no
        # command), then what to do with it
        statement = statement or bool(
            before.identifiers and not _starts_with_verb(before) and _starts_with_verb(tail_clause)
        )
        # "нужна задача для команды CS: подготовить …" names what the text after the colon is
        introduces = before.has("task", "issue", "note", "project", "comment")
        fields = [
            x.strip(" .")
            for x in re.split(r"\s*[,;]\s*(?:и\s+|and\s+)?|\s+(?:и|and)\s+", tail)
            if x.strip(" .")
        ]
        if (
            len(parts) == 1
            and not _verb_count(before)
            and len(fields) > 1
            and all(_FIELD_VALUE.match(x) for x in fields)
        ):  # "globex pilot: owner max, amount 35k": one record's fields, one change
            return [analyse(text, now)]
        if (
            len(parts) == 1
            and _ABOUT_A_NAME.fullmatch(head.strip())
            and not before.identifiers
            and not re.search(r"[«»\"“”]|[.!?]\s+\S", tail)  # (one request said plainly, no quote of its own)
            and _starts_with_verb(tail_clause) | _verb_count(tail_clause)
            and not re.search(r"(?<!\d):|:(?!\d)", tail)
        ):  # «по Globex: сумму сделки поменяй на 32 тысячи и добавь заметку …»: what the requests are
            # about, then the requests — as if said with a comma, so each one finds the record
            return split_clauses(f"{head.strip()}, {tail.strip()}", now)
        if (
            len(parts) == 1
            and statement
            and not introduces
            and _verb_count(tail_clause)
            and not re.search(r"(?<!\d):|:(?!\d)", tail)  # (a time's colon, «в 11:00», is no heading)
            and len(tail.split()) > 1  # "acme logistics pilot: lost": one word is what the record is now
            and len(tail_parts := _split(tail.strip(), now)) > (1 if ":" in tail else 0)
        ):
            if (
                not _verb_count(before)
                and not before.identifiers
                and len(head.split()) <= 5
                and _RECORD_CHANGE.match(tail.strip())
                and not tail_clause.has("task", "issue", "note", "note_verb", "meeting", "block", "create")
            ):  # "Globex pilot: amount → 32,500 USD", "Acme Logistics pilot: bump to 15k, stage → …": the
                # record named, then its changes: requests about it, as if said with a comma
                return split_clauses(f"{head}, {tail.strip()}", now)
            before.context = not _verb_count(before)
            return [before, *tail_parts] if tail_parts else parts
        if (
            len(parts) == 1
            and statement
            and not introduces
            and not before.identifiers
            and _verb_count(tail_clause)
            and re.search(r"(?<!\d):|:(?!\d)", tail)
            and len(head.split()) <= 6
            and len(tail_pieces := split_clauses(tail.strip(), now)) > 1
            and not any(":" in p.text for p in tail_pieces[:-1])  # (the last one's colon is its own)
            # each one a request (or a thing and where it goes: «…, и заметку к сделке: …»)
            and all(
                _verb_count(p) or _ELLIPTIC.search(p.text) or _THING_FOR.match(p.text) for p in tail_pieces
            )
        ):  # «Итак, по итогам: ENG-102 в работу, CS-15 закрыть, прокомментируй ENG-106: ждём окно»: the heading
            # says why; each piece after it is a request, the last one's colon its own
            before.context = not _verb_count(before)
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
        if len(parts) == 1 and statement and not introduces and len(items) > 1 and all(_ELLIPTIC.search(x) or
                _LEADS_WITH_THING.match(x.strip()) or _FIELD_VALUE.match(x.strip())
                or _OUTCOME_ALONE.fullmatch(x.strip()) and before.has("signed") for x in items):  # fmt: skip
            # "Ромашка подписала: сделку в выигранные, онбординг в Linear, и созвон с Иваном в четверг"
            before.context = not _verb_count(before)
            return [before, *(analyse(x.strip(), now) for x in items)]
        return parts
    return _split(text, now)


# «напоминалки на завтра: позвонить Джону, отправить счёт в Initech и в 12 созвон с Джейн»: a list of to-dos
_REMINDERS_HEAD = LazyRe(r"(?i)^\s*(?:напоминалк\w*|напоминани[яй]|reminders|to-?dos|дела)\b(?P<when>[^:]*)$")


def _reminders_listed(head: str, tail: str, now: datetime) -> list[Clause] | None:
    """Each item of a to-do list is a reminder of its own (a meeting in it stays a meeting), on the day
    the heading says."""
    said = _REMINDERS_HEAD.match(head)
    if said is None:
        return None
    items = [
        x.strip(" .;")
        for x in re.split(r"\s*[,;]\s*(?:и\s+|and\s+)?|\s+(?:и|and)\s+", tail)
        if x.strip(" .;")
    ]
    if len(items) < 2:
        return None
    when = said.group("when").strip()
    remind = "напомни" if re.search(r"[а-яё]", tail, re.I) else "remind me to"
    out = []
    for item in items:
        meeting = analyse(item, now).has("meeting")
        out.append(analyse((f"{item} {when}" if meeting else f"{remind} {item} {when}").strip(), now))
    return out


_NEXT_LINE = LazyRe(
    r"(?i)^(?:and|then|also|plus|и|а|потом|затем|также|а\s+также|\+)\b|^\+|"
    r"^(?:issue|note|task|deal|meeting|call|задач\w*|заметк\w*|сделк\w*|встреч\w*|созвон\w*)\b"
)
_NEXT_LINE_LEAD = LazyRe(r"(?i)^(?:(?:and|then|also|plus|и|а|потом|затем|также|а\s+также)\b|\+)[\s,]*")
_BULLET = LazyRe(r"^\s*(?:[-•*–—]|\d{1,2}[.)])\s+")


_SUBJECT_LINE = LazyRe(r"(?i)^\s*(?:re|fwd?|subject|тема|по\s+теме)\s*:\s*\S")


# "Team update:", "Quick updates:", «Апдейт по команде:»: a heading that names a list, whatever verb its noun is
_NOUN_HEADING = LazyRe(
    r"(?i)[\w\s'’-]{0,30}?\b(?:update|updates|status|recap|summary|plan|todos?|to-dos?|action\s+items|апдейт\w*|"
    r"статус|итоги|план|задачи\s+на\s+\w+)(?:\s+(?:по|for|from|on)\s+[\w\s'’-]{1,30})?\s*:"
)


def _bulleted_requests(text: str, now: datetime) -> list[Clause] | None:
    """ "- close ENG-101\n- ENG-104 to Max": one request a line, when every bulleted line is one (a verb,
    an issue's identifier, or "new issue in CS: …"); a list of titles under a heading stays a list."""
    lines = [x for x in text.splitlines() if x.strip()]
    # "Re: weekly sync" above the list: what it is about, not asked ("@Oleg FYI" lines are gone: `pasted`)
    if len(lines) > 2 and _SUBJECT_LINE.match(lines[0]):
        lines = lines[1:]
    items = [_BULLET.sub("", x).strip() for x in lines if _BULLET.match(x)]
    numbered = re.split(
        r"(?:^|\s)\(?\d{1,2}\)\s+", text
    )  # "1) заметка к …: … 2) задача в CRM на Макса: …", "(1) …"
    heading = numbered[0].strip()  # «Короче, три вещи: 1) … 2) …»: what the list is, or whom it is about
    # («Acme Corp signed the annual license. 1) Move the deal to Won. 2) …»: told, then the list)
    if len(lines) == 1 and len(numbered) >= 3 and (not heading or heading.endswith((":", ".", "!"))):
        items = [x.strip(" ;,.") for x in numbered[1:] if x.strip(" ;,.")]
        lines = items
    elif (
        len(items) >= 2
        and len(items) == len(lines) - 1
        and not _BULLET.match(lines[0])
        and lines[0].rstrip().endswith(":")
        and (not _verb_count(analyse(lines[0], now)) or bool(_NOUN_HEADING.fullmatch(lines[0].strip())))
    ):  # "Action items from today's review:\n- Alfa → Won\n- …": a heading that asks nothing, then requests
        heading = lines[0].strip()
        lines = lines[1:]
    elif (
        len(items) >= 2
        and (first := next((i for i, x in enumerate(lines) if _BULLET.match(x)), 0)) > 0
        and all(_BULLET.match(x) for x in lines[first:])
        and len(items) == len(lines) - first
        and not _verb_count(analyse(" ".join(lines[:first]), now))
    ):  # "customer X reports timeouts:\n<the log line>\n- note … with the log\n- issue …": told, then requests
        heading = " ".join(x.strip() for x in lines[:first])
        lines = lines[first:]
    else:
        heading = ""
    if len(items) < 2 or len(items) != len(lines):
        return None  # a heading ("Заведи в ENG три бага:") introduces the lines: they are its content
    readings = [analyse(x, now) for x in items]
    if not all(
        _verb_count(r)
        or r.identifiers
        or r.has("task", "issue", "note", "meeting", "deal")
        or _ELLIPTIC.search(r.text)  # "Globex pilot — в Won"
        or _FIELD_SET.search(r.text)  # «Ромашка — сумма 1 350 000 ₽»
        for r in readings
    ):
        return None
    told = analyse(heading.rstrip(":"), now) if heading else None
    if told is not None:
        told.context = True
    return [*([told] if told is not None else []), *(c for x in items for c in split_clauses(x, now))]


_WITH_NEXT = LazyRe(r"(?i)\s*(?:,\s*(?:(?:и|and)\s+)?|\s+(?:и|and)\s+)(?=(?:с|со|with)\s)")


_EVENT_WORD = LazyRe(
    r"(?i)\b(?:block|meeting|call|sync|standup|lunch|gym|focus|блок\w*|встреч\w*|созвон\w*|звонок|планёрк\w*|планерк\w*|"
    r"обед\w*|спорт\w*|пробежк\w*)\b"
)


_PLAN_HEADING = LazyRe(
    r"(?i)^\W*(?:(?:так|итак|короче|ну|ok|okay|so)[,\s]+)*(?:(?:today'?s|tomorrow'?s|my|the)\s+)?"
    r"(?:(?:plan|list|things|todo|to-dos?|agenda|план|список|дела|задачи)\s*)?(?:for|на)?\s*$"
)


def _day_planned(head: str, tail: str, now: datetime) -> list[Clause] | None:
    """ "Короче, на завтра: в 14:00 встреча с Ромашкой на час. А Олегу в Linear задачу — …", "Things for Thursday: 8am
    gym block …, and a Linear issue in CS …": a day said as a heading, then requests of their own (each on that
    day unless it says another)."""
    said = analyse(head, now)
    if (
        said.moment.day is None
        or said.moment.at is not None
        or _verb_count(said)
        # (only a day, maybe called a plan: «на завтра», "Things for Thursday" — not "Jane wrote today")
        or not _PLAN_HEADING.match(
            "".join(ch for i, ch in enumerate(head) if not any(a <= i < b for a, b in said.moment.spans))
        )
    ):
        return None
    day = " ".join(head[a:b] for a, b in said.moment.spans)
    clauses: list[Clause] = []
    for sentence in re.split(r"(?<=[.!?])\s+(?=\S)", tail.strip()):
        for c in split_clauses(sentence, now):
            # "8am gym block for 1 hour, at noon a meeting with …": each item with its own time
            items = [x for x in _AT_NEXT_TIME.split(c.text) if x.strip(" ,.;")]
            timed = [analyse(x.strip(" ,.;"), now) for x in items]
            clauses += timed if len(items) > 1 and all(t.moment.at for t in timed) else [c]
    clauses = [  # ("…, and a Linear issue in CS to draft the quote": what to make, its verb the heading's)
        analyse(f"create {c.text}", now) if _THING_WITHOUT_VERB.match(c.text) else c for c in clauses
    ]
    if len(clauses) < 2:
        return None
    return [
        c if c.moment.day is not None or not c.moment.at else analyse(f"{day} {c.text}", now) for c in clauses
    ]


_AT_NEXT_TIME = LazyRe(
    r"(?i),\s+(?=(?:at\s+|в\s+)?(?:\d{1,2}(?::\d{2})?\s*(?:am|pm|утра|вечера|дня)\b|noon|midday|полдень|\d{1,2}:\d{2})"
    r"|(?:at|в)\s+\d)"
)
_THING_WITHOUT_VERB = LazyRe(
    r"(?i)^\s*(?:and\s+)?(?:an?\s+)(?:[\w-]+\s+){0,2}(?:issue|task|ticket|note|reminder)\b"
)


def _events_listed(head: str, tail: str, now: datetime) -> list[Clause] | None:
    """ "Wednesday Dec 2: 10am to 11am board prep block, 2pm meeting with Maria Sokolova, 45 min": one event per
    item, each with its own time, all on the day the heading names."""
    said = analyse(head, now)
    if said.moment.day is None or said.moment.at is not None or _verb_count(said):
        return None
    items = [
        x.strip(" .;")
        for x in re.split(
            r"(?i)\s*;\s*|,\s+(?=(?:at\s+|в\s+)?\d{1,2}(?::\d{2})?\s*(?:am|pm|утра|вечера|дня)\b|(?:at|в)\s+\d|\d{1,2}:\d{2})",
            tail,
        )
        if x.strip(" .;")
    ]
    if len(items) < 2:
        return None
    readings: list[Clause] = []
    for x in items:  # (an item may go on with a request of its own: "…, and create an issue for Max …")
        first, *rest = split_clauses(x, now)
        event = analyse(f"{head.strip()} {first.text}", now)
        if event.moment.at is None or not _EVENT_WORD.search(first.text):
            return None
        readings += [event, *rest]
    return readings


def _meetings_listed(head: str, tail: str, now: datetime) -> list[Clause] | None:
    """ "Запланируй две встречи: с Олегом завтра в 11:00 на 30 минут и с Максом послезавтра в 15:00":
    one meeting per "с …"/"with …", each with its own time, booked with the head's verb."""
    said = analyse(head, now)
    if not said.has("meeting") or said.has("task", "issue", "note"):
        return None
    items = [x.strip(" .;") for x in _WITH_NEXT.split(tail) if x.strip(" .;")]
    readings = [analyse(x, now) for x in items]
    if len(items) < 2 or not all(
        re.match(r"(?i)(?:с|со|with)\s", x) and r.moment.at for x, r in zip(items, readings, strict=True)
    ):
        return None
    verb = head.split()[0] if head.split() else ""
    noun = "встречу" if re.search(r"[а-яё]", head, re.I) else "a meeting"
    return [analyse(f"{verb} {noun} {x}", now) for x in items]


_DASH_AND = LazyRe(r"\s+[—–-]\s+(?:и|а\s+также|and|plus)\s+(?=\S)", re.I)
_NEXT_REQUEST = LazyRe(
    r"(?:,\s+(?=(?:(?:ну|да|так)\s+)?(?:и|а\s+также|and|also|then|затем|потом)\s)|\s+[—–-]\s+(?=(?:и|and|а\s+также|also)\s)|[.!?;]\s+)"
    r"(?:(?:ну|да|так)\s+)?(?:(?:also|and|then|и|а\s+ещё|а\s+еще|ещё|еще|также|потом)[,\s]+)?(?=\S)",
    re.I,
)
# «Acme Logistics подписали пилот: Won и онбординг в Linear»: the deal's outcome, said alone as an item
_OUTCOME_ALONE = LazyRe(r"(?i)(?:в\s+|to\s+)?(?:won|lost|выигран\w*|проигран\w*)[.!]?")
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
    r"|(?:сумм\w*|amount|value)\s+(?:было|была|was)\b)"  # ("amount было 30к, ставь 27 500": then what it is to be)
)
# a template's word said alone: "… + onboarding", «и онбординг»
TEMPLATE_ALONE = LazyRe(
    r"(?i)\s*(?:(?:and|и|\+|then|потом|also|ещё|еще)\s+)*(?:the\s+)?(?:onboarding|онбординг\w*|renewal|продлени\w*)"
    r"(?:\s+(?:tasks|template|задачи|шаблон\w*))?\s*[.!]*\s*"
)
_LEADS_WITH_THING = LazyRe(
    rf"(?i)^(?:(?:{DATIVE})\s+)?(?:онбординг\w*|onboarding|продлени\w*|renewal|созвон\w*|встреч\w*|meeting|call|задач\w*|тикет\w*|"
    r"issue|task|заметк\w*|note|сделк\w*|deal)\b"
)


def _verb_count(c: Clause) -> int:
    said = c.cues.intersection(_VERBISH)
    # "…, and also I need an hour tomorrow at 2pm to prep the handover": time asked for is a block to book
    booked = not said and c.duration and c.moment.at is not None and bool(TIME_NEEDED.match(c.text))
    return len(said) - (1 if "create" in said and not c.creates() else 0) + (1 if booked else 0)


TIME_NEEDED = LazyRe(
    r"(?i)\s*(?:(?:and|и|а|plus|плюс)\s+)?(?:also\s+|ещ[её]\s+|также\s+)?(?:i\s+(?:also\s+)?need|i'?d\s+like|"
    r"мне\s+(?:ещ[её]\s+)?нуж(?:ен|на|но|ны)|нуж(?:ен|на|но)\s+(?:мне\s+)?)\b"
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
    r"|(?:задач\w*|тикет\w*|таск\w*|issue|task|ticket)\s+(?:туда|в\s+него|в\s+нём|в\s+нем|into\s+it|in\s+it|there|under\s+it)\b)"
)
_QUOTE_ALONE = LazyRe(r"['\"«“][^'\"«»“”]{3,200}['\"»”]\s*[.!]?")
_ID_THEN_WORDS = LazyRe(r"(?i)^(?:(?:and|и|а|then|потом)\s+)?[A-Za-z]{2,5}-\d+\s*(?:[:—–→-]|->)?\s*[^\W\d_]")
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


def _split(text: str, now: datetime) -> list[Clause]:
    quotes = _quoted_spans(text)  # «… internally. Legal needs …»: a quote's own sentences are its words
    named = _single_quoted(text) if "'" in text else []
    cuts = [
        m
        for m in _SPLIT.finditer(text)
        if not any(a < m.start() < b for a, b in quotes)
        and not (re.fullmatch(r"\s*[—–-]\s*", m.group(0)) and any(a < m.start() < b for a, b in named))
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
        left = _joined(
            (lead + " " + text[merged[-1][0] : merged[-1][1]]).strip(), [analyse(lead, now), *parts]
        )
        dashed = re.search(r"\s[—–-]\s", text[merged[-1][1] : s]) is not None
        if (
            "?" in text[merged[-1][1] : s]
            and not _starts_with_verb(left)
            and _WHY_I_ASK.match(text[s:e].strip())
        ):
            asked_to = text.index("?", merged[-1][1]) + 1
            merged[-1] = (merged[-1][0], asked_to)  # the question keeps its mark: it is read as one
            merged.append((s, e))  # "Какие у нас проекты? Не понимаю, куда класть задачи": why it is asked
            reasons.add(len(merged) - 1)
            parts = [right]
        elif STATE_NOW_IF.fullmatch(text[merged[-1][0] : merged[-1][1]]) and (
            _starts_with_verb(right) or _imperative_first(text[s:e])
        ):
            merged[-1] = (
                merged[-1][0],
                e,
            )  # «если CS-15 ещё не закрыта, закрой её»: the condition goes with it
            parts.append(right)
        elif _CHECK_LEFT.search(text[merged[-1][0] : merged[-1][1]]) and _WHETHER.match(text[s:e]):
            merged[-1] = (merged[-1][0], e)  # «Напомни … проверить, оплатил ли Initech счёт»: what to check
            parts.append(right)
        elif (
            _SAYS_THAT.search(left.text)
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
            and left.after_colon is None
            and _GOES_ON_TELLING.match(text[s:e].strip())
            and re.search(r"(?i)\b(?:and|и|а|but|но)\s*$", text[merged[-1][1] : s]) is not None
        ):  # "a note on the romashka deal they agreed on the price and want to start in january": still its words
            merged[-1] = (merged[-1][0], e)
            parts.append(right)
        elif (
            _NOTE_ASKED_BARE.search(left.text)
            and left.after_colon is None
            and not _starts_with_verb(right)
            and not right.has("task", "issue", "meeting", "deal", "remind")
        ):  # "…and add a note, lost on price to a cheaper vendor", "comment on ENG-105, Apple approved …": its words
            merged[-1] = (merged[-1][0], e)
            parts.append(right)
        elif (
            dashed
            and left.has("note", "comment")
            and not _starts_with_verb(right)
            and left.after_colon is None
        ):
            merged[-1] = (
                merged[-1][0],
                e,
            )  # "add a note to the Globex pilot — Jane mentioned …": what it says
            parts.append(right)
        elif _A_QUOTE_ALONE.fullmatch(text[merged[-1][0] : merged[-1][1]]) and (
            _starts_with_verb(right) or _imperative_first(text[s:e])
        ):
            merged.append(
                (s, e)
            )  # «"we never got the invite" — John». Log a bug in CS: their words, then mine
            parts = [right]
        elif right.identifiers and _LEFT_ALONE.search(text[s:e]) and not _LEFT_ALONE.search(left.text):
            merged.append(
                (s, e)
            )  # "…и поставь срок на вторник; ENG-101 не трогай": not the target, a refusal
            parts = [right]
        elif ";" in text[merged[-1][1] : s] and right.has("note", "comment", "meeting", "remind"):
            merged.append((s, e))  # "…в «отказ»; в заметке к сделке прошу указать причину": its own request
            parts = [right]
        elif (
            right.identifiers
            and _verb_count(right)
            and not _identifiers(text[merged[-1][0] : merged[-1][1]])
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
        elif _QUANTIFIED.match(left.text) and not _verb_count(left) and _starts_with_verb(right):
            merged[-1] = (merged[-1][0], e)  # «Все задачи без исполнителя, что в бэклоге, назначь на Олега»
            parts.append(right)
        elif _IT_TO_STAGE.fullmatch(text[s:e].strip()) and left.creates() and not left.has("note"):
            # («занеси это заметкой в сделку и переведи её в переговоры»: a note has no stage — the deal moves)
            merged[-1] = (merged[-1][0], e)  # "New deal with Umbrella …, put it in Lead": the new one's stage
            parts.append(right)
        elif _ARROW.search(left.text) and (
            _verb_count(right)
            or right.creates()
            or right.has("meeting", "note", "task", "issue", "remind")
            or _LEADS_WITH_THING.match(re.sub(r"(?i)^(?:и|and|\+)\s+", "", text[s:e].strip()))
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
            and _verb_count(left)
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
            and (_verb_count(right) or _OWN_CHANGE.search(text[s:e]))  # "…, ENG-102 too" shares the change
            and not (
                _IN_LIST.search(text[merged[-1][0] : merged[-1][1]])
                # («ENG-101 и ENG-105 в In Review, ENG-102 на Олега»: the listed ones already have their change)
                and not _changed_after_the_ids(text[merged[-1][0] : merged[-1][1]])
            )
        ):  # "ENG-101 в review, ENG-106 done, CS-13 перекинь на Макса": each issue with its own change
            merged.append((s, e))
            parts = [right]
        elif _OLD_VALUE.search(left.text) and not _verb_count(left) and _verb_count(right):
            merged[-1] = (
                merged[-1][0],
                e,
            )  # "amount было 30к, ставь 27 500": what it was, then what it is to be
            parts.append(right)
        elif _verb_count(left) and _IN_ANOTHER_SYSTEM.match(text[s:e].strip()):
            merged.append((s, e))  # «…поставь задачу и в календарь созвон с ней в 12»: a request of its own
            parts = [right]
        elif _INTO_IT_NEXT.match(text[s:e].strip()):
            merged.append((s, e))  # «создай проект X … и туда задачу подготовить договор»: a second request
            # «…и сразу в нём задачу «…» на Олега»: made as the project was ("и туда задачу …" reads as it is)
            if (
                not _verb_count(right)
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
            _is_reason(text[s:e], right)
            # ("globex pilot to proposal, they want …"; "Just to confirm, …" says no change)
            and (_verb_count(left) or _ELLIPTIC.search(left.text) and not _TO_DO_SOMETHING.search(left.text))
            and not left.creates()  # "добавь человека …, он из Альфа-Лизинга": a new record's details
            # "comment on ENG-105 — …, we're resubmitting": a comment's own words go on
            and not (left.has("comment", "note", "note_verb") and _DOING_NOW.match(text[s:e].strip(" ,.;!")))
            and len(merged) - 1 not in reasons
            or _STANDING_RULE.match(text[s:e].strip(" ,.;!"))
        ):
            merged.append((s, e))  # "Delete Li Wei from the CRM, she left Acme Logistics last month"
            reasons.add(len(merged) - 1)
            parts = [right]
        elif (
            re.search(r"[.!?]\s+$", text[merged[-1][1] : s])
            and _verb_count(left)
            and not _verb_count(right)
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
        elif _COMPLEMENT.match(text[s:e].strip()) and left.has(
            "comment", "note", "note_verb", "todo", "remind"
        ):
            merged[-1] = (merged[-1][0], e)  # "напиши в комментарии, что фикс уехал" - what is said
            parts.append(right)
        elif "?" in text[merged[-1][1] : s] and (_starts_with_verb(right) or _imperative_first(text[s:e])):
            merged.append((s, e))  # "Anything sitting in Backlog? archive it all": asked, then a request
            parts = [right]
        elif (
            _verb_count(right)
            and not (
                _RELATIVE.match(text[s:e].strip())
                and _WHAT_OF.search(text[merged[-1][0] : merged[-1][1]])
                and (
                    not _verb_count(_without_query(right))
                    # «закрой всё, что назначено на Макса», "everything that is assigned to Max": which ones
                    or bool(_STATE_OF_THEM.match(text[s:e].strip()))
                )
            )
            and (
                _verb_count(left)
                or _starts_with_verb(right)
                and (_ELLIPTIC.search(left.text) or _AMOUNT_SAID.search(left.text))
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
            _verb_count(left)
            and (
                verb := _first_verb(left)
                # «Сделку … передай Максу, а тикет CS-14 — тоже ему»: a hand-over lent to a thing named next
                or (
                    _first_verb(left, "assign")
                    # ("…all his deals to Anna, all his Linear issues to Max": the next things handed over too)
                    if _OBJECT_START.match(text[s:e].strip()) or _QUANTIFIED.match(text[s:e].strip())
                    else None
                )
            )
            and (
                _OBJECT_START.match(text[s:e].strip())
                or _ELLIPTIC.search(right.text)
                and _ELLIPTIC.search(left.text)
            )
            and not re.match(
                r"(?i)(?:(?:и|а|and)\s+)?(?:заметк\w*|note)\s+(?:on|to|к|для|по)\b", text[s:e].strip()
            )
            and not _STATE_SAID.search(text[s:e])  # «…, Макс в курсе», «…, деньги на счёте»: why, no change
        ):  # "move X to Lost and Y to Qualification": the second change borrows the verb
            merged.append((s, e))
            borrowed[len(merged) - 1] = verb
            parts = [right]
        elif (
            _verb_count(left)
            and re.search(
                r"(?i)(?:^|[\s,])а[\s,]*$", text[merged[-1][0] : s]
            )  # (said with a contrasting «а»)
            and re.match(r"(?i)(?:а\s+)?(?:сделк[уа]|deal|(?-i:[A-ZА-ЯЁ])[\w-]+)\b", text[s:e].strip())
            and _ELLIPTIC.search(right.text)
        ):  # «CS-12 закрыть, а сделку Acme Corp в переговоры»: a deal's change said without its verb, its own
            merged.append((s, e))
            parts = [right]
        elif (
            right.identifiers
            and not _identifiers(text[merged[-1][0] : merged[-1][1]])
            and _ELLIPTIC.search(left.text)
            and _ELLIPTIC.search(right.text)
        ):  # «сделку Globex pilot на Макса, а CS-14 на Олега»: two changes said without verbs, each its own
            merged.append((s, e))
            parts = [right]
        elif (_ELLIPTIC.search(left.text) or _verb_count(left)) and re.match(
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
            and _verb_count(left)
            and _REMINDER_NEXT.match(text[s:e].strip())
        ):  # «закинь это заметкой на Ивана, и напоминалку мне на завтра …»: a note, then a reminder
            merged.append((s, e))
            parts = [right]
        elif (
            re.search(r"[.!]\s*$", text[merged[-1][0] : s])
            and not _verb_count(left)
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
            and (left.has("signed", "move", "put") or _ELLIPTIC.search(left.text))
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
            _commands_within(rest) or _starts_with_verb(rest) or _ELLIPTIC.search(rest.text)
        ):
            why = analyse(why.text[: ends.start() + 1], now) if ends else why
            out[i : i + 1] = [why, rest]
        # (a piece read as why that still commands a change is a request: nothing asked is left unread)
        why.reason = not _commands_within(why)
    return out


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
_WHY_I_ASK = LazyRe(
    r"(?i)^(?:(?:я\s+)?не\s+(?:понимаю|знаю|уверен\w*|разобрал\w*)|(?:i\s+)?(?:don'?t|do\s+not)\s+(?:know|get|understand)|"
    r"not\s+sure|(?:i'?m\s+)?trying\s+to|(?:i\s+)?just\s+(?:want|need)\s+to\s+(?:know|understand|plan)|хочу\s+понять|"
    r"пытаюсь|(?:i'?m\s+)?new\s+here|я\s+(?:тут\s+)?нов\w*)\b"
)

_STANDING_RULE = LazyRe(
    r"(?i)^(?:(?:i|we)\s+(?:was|were|'ve\s+been|have\s+been)\s+told|(?:мне|нам)\s+(?:сказали|объяснили))\s+(?:to\s+|что\s+)?"
    r"(?:always\s+|всегда\s+|нужно\s+всегда\s+)?(?:keep|всегда|держать|обновлять)\b[^.!?]*$"
)


_PASSIVE = LazyRe(
    r"(?i)^(?:the|our|their|his|her|its|this|that|the\s+\w+'s)\s+(?:[\w-]+\s+){0,4}?"
    r"(?:is|are|was|were|has\s+been|have\s+been)\s+(?:being\s+|already\s+|now\s+)?[a-z]+ed\b"
)


_AWAY = LazyRe(
    r"(?i)^(?:(?:he|she|they|i|(?-i:[A-Z][\w-]+))(?:'s|'re|'m|\s+is|\s+am|\s+are|\s+will\s+be)\s+(?:ooo|out|off|away|sick|"
    r"travell?ing|swamped|slammed|overloaded|busy|buried|underwater|maxed\s+out|leaving|quitting|moving\s+on|"
    r"on\s+(?:vacation|leave|holiday|pto|parental\s+leave))|(?:я|он|она|они|(?-i:[А-ЯЁ][а-яё]+))\s+"
    r"(?:(?:со?|до|уже|ещё|еще|теперь|завтра|сегодня)\s+(?:[а-яё]+\s+)?)?(?:в\s+отпуске|"
    r"на\s+больничном|болеет|болеют|уезжа\w+|уходит|увольняется|переходит|в\s+командировке|перегружен\w*|завален\w*|"
    r"занят\w*))\b"
    # "…, I can't make the Acme onboarding call on Monday": why it is handed over, not a second request
    r"|^i\s+(?:can'?t|cannot|won'?t|couldn'?t|will\s+not)\s+(?:make|attend|join|do|cover|take)\b"
    r"|^(?:я\s+)?не\s+(?:смогу|успеваю|успею)\b"
    # "…; starting the login redesign today", «…, займусь на следующей неделе»: what the person will do
    r"|^(?:(?:i'?m|we'?re|i\s+am|we\s+are)\s+)?(?:starting|beginning|working\s+on|picking\s+(?:it\s+)?up)\b"
    r"|^(?:(?:я|мы)\s+)?(?:начинаю|начну|займусь|займёмся|займемся|беру\s+в\s+работу|возьмусь)\b"
)


_AWAY_FIRST = LazyRe(
    r"^\s*([^,;:—–.!?]{3,60}?)\s*(?:[,;.!]|\s[—–-])\s*(?:so\s+|поэтому\s+|так\s+что\s+)?(?=\S)"
)
_ASKS_AFTER_A_DASH = LazyRe(
    r"(?i)\s[—–-]\s+(?:(?:and|и|also|также|pls|please)\s+)*(?:drop|add|put|leave|post|create|make|set|move|close|comment|"
    r"note|log|assign|добавь|закинь|оставь|запиши|создай|заведи|переведи|закрой|назначь|прокомментируй)\b"
)
_DOING_NOW = LazyRe(r"(?i)^(?:we|they|i|he|she)(?:'re|'m|'s|\s+are|\s+am|\s+is)\s+[a-z]+ing\b")


_IRREGULAR_PAST = (
    "sent|said|told|gave|took|made|wrote|paid|sold|bought|left|got|went|came|brought|found|built|did|had|saw|"
    "spoke|forgot|chose|met|ran|began|broke|fell|felt|heard|kept|meant|sat|understood|"
    "threw|drove|flew|hung|held|lent|led|quit|rang|rode|rose|sang|sank|slept|stood|stole|swore|taught|thought|woke|won|lost"
)


def _is_reason(piece: str, reading: Clause) -> bool:
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
    if _ASKS_AFTER_A_DASH.search(said):
        return False  # "…, PR is up: github.com/… — drop the link in a comment too": a request of its own follows
    if _AWAY.match(said):
        return True  # "…, he's ooo next week", «…, она в отпуске до пятницы»: why, though it names a day
    if _DOING_NOW.match(said) and not re.search(r"\d", bare) and not reading.moment.day:
        return True  # "…, we're resending terms to everyone": what they are doing, why the change
    if not said or _verb_count(reading) and not told or reading.moment.day or reading.moment.at:
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


def _joined(text: str, readings: list[Clause]) -> Clause:
    """One clause of several readings side by side: their words in order and all their cues."""
    keys = [k for c in readings for k in c.keys]
    cues = set().union(*(c.cues for c in readings))
    return Clause(
        text, keys, readings[-1].moment, None, None, [i for c in readings for i in c.identifiers], cues
    )


_FIELD_SET = LazyRe(
    r"(?i)\S\s+[—–-]\s+(?:сумм\w*|amount|value|стади\w*|stage|owner|ответствен\w*|срок|due|priority|приоритет)\b"
)
# «акме пилот сумма выросла до 15 тысяч», "Globex amount now 30k": a sum set without a verb
_AMOUNT_SAID = LazyRe(r"(?i)\b(?:сумм\w*|amount|value)\b[^,;.!?]{0,25}?\d")
_OLD_VALUE = LazyRe(
    r"(?i)\b(?:сумм\w*|amount|value|стади\w*|stage|срок|due|owner|ответственн\w*|владел\w*)\b[^,;]*\b(?:было|была|был|were|was)\b"
)
_STATE_SAID = LazyRe(
    r"(?i)\b(?:в\s+курсе|на\s+сч[её]т[еу]|в\s+отпуске|на\s+связи|на\s+больничном|в\s+силе|в\s+пути|в\s+теме|"
    r"in\s+the\s+loop|on\s+board|in\s+the\s+bank|on\s+vacation|on\s+leave)\b"
)
_ELLIPTIC = LazyRe(
    r"\S\s+(?:в|во|на|to|into|→|->|=>)\s+(?:стади\w+\s+|stage\s+|статус\s+)?\S+(?:\s+\S+)?\s*[.!]?$", re.I
)


# «…; и due сдвинь на 18 дек», "…. Priority bump to high": the field named first, then what to do with it
_FIELD_FIRST = LazyRe(
    r"(?i)^(?:due(?:\s+date)?|deadline|срок|дедлайн|priority|prio|приоритет|status|статус|stage|стади[юя]|"
    r"assignee|исполнител[яь])\s+(?=\S)"
)


# «…. и note к компании Globex: …», "… and a task for Oleg: …": the next request named by its thing and where
_THING_FOR = LazyRe(
    r"(?i)^(?:an?\s+)?(?:note|заметк[уаи]|task|задач[уаи]|таск|comment|коммент\w*)\s+(?:к|в|на|для|по|to|on|for)\s+\S"
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


def _asks_next(text: str, now: datetime) -> bool:
    """The words after a note's or a comment's end start a request of their own."""
    field = _FIELD_FIRST.match(text)
    return (
        _starts_with_verb(analyse(text[field.end() :] if field else text, now))
        or bool(_NEW_THING_NAMED.match(text))
        or bool(_THING_FOR.match(text))
        or bool(_THING_THEN_VERB.match(text))
        or _place_then_verb(text)
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
        and any(k.text in CUES[v] or k.lemmas & CUES[v] for v in _VERBISH if v not in _NOT_COMMANDS)
        for k in c.keys
    )


_NOT_COMMANDS = ("query", "signed", "refused", "lost")


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
    if any(rx.match(lead) for rx, _ in _PHRASES):
        return True  # a phrase read as a verb: "get ENG a ticket", "tick off CS-12"
    return any(
        first.text in CUES[v] or first.lemmas & CUES[v]
        for v in _VERBISH
        if v not in ("query", "signed", "refused", "lost")
    )


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
        verb in _NEW_WORDS
    ):  # "new company …, and a deal …": the verb lent to the next is "create", not the adjective
        return "create" if verb == "new" else "создай"
    return verb
