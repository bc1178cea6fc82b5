"""One piece of a request read: its words' lemmas, the cues that signal an intent, its date and ids."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache

from planner._lazy_re import LazyRe
from planner.dates import Moment, extract_duration, extract_moment
from planner.resolve import WordKey, keys_for
from planner.text import is_participle, is_past

# Lemma-level cue words. Russian entries are normal forms (pymorphy3), plus surface forms where
# pymorphy3 guesses imperatives wrong ("удали" -> "удаль").
CUES: dict[str, frozenset[str]] = {k: frozenset(v.split()) for k, v in {
    "create": "создать создай создайте завести заведи заводим создаём создаем добавляем добавить добавь сделать открыть открой оформить внести внеси занести занеси занесите "
              "запланировать новый новая новое запустить запусти запускай запускайте запустим create add make open file log new raise register "
              "kick start запилить запили запилите закинуть закинь накидать накидай черкнуть черкни черкани набросать набросай "
              "заводи создавай добавляй adding creating making logging "
              "opening filing",
    "put": "поставить поставь ставь ставьте ставим отметить отметь пометить пометь повесить повесь навесить навесь put set mark",
    "move": "перевести переведи переводи переводим переноси перенести перенеси продли поправь поправить скорректируй скорректировать откати откатить откатывай скинь бампни передвинуть двинуть сдвинуть переместить сменить поменять "
            "изменить обновить мувнуть мувни мувай мувните перейти перешли перешел вышли выйти вернуть верни перекинуть перекинь перебросить "
            "перебрось двигать двигай подвинуть подвинь продвинуть продвинь перетащить перетащи привязать привяжи прикрепить прикрепи поднять подними повысить повысь понизить понизь "
            "увеличить увеличь снизить снизь уменьшить уменьши включить включи "
            "откатить откати откатываем откатим откатите "
            "накинь накиньте докинь "
            "move advance shift change update push bump increase lower reduce knock",
    "complete": "закрыть закрой закрывай завершить заверши выполнить выполни готово сделано готов done complete completed "
                "сделанную сделанной сделанным выполненную выполненной закрытую завершённую завершенную "
                "close finish finished resolve resolved закончить закончил доделал доделала готовы готова "
                "зарезолвь зарезолвить резолвни зарезолвил",
    "delete": "удалить удали стереть сотри убрать убери удалению снести снеси delete remove trash drop rid nuke kill",
    "archive": "архивировать заархивировать заархивируй заархивь архивни архив archive",
    "comment": "прокомментировать прокомментируй комментарий комментировать откомментировать коммент комментарием "
               "отпиши comment откомменть откомменти комментни закомменть закомменти откоментируй",
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
SPLIT = LazyRe(
    r"\s*(?:;\s*|\s[—–-]\s|[.!?]\s+|,\s+(?:и|а|а также|and then|and|then|затем|потом|плюс|plus)\s+|\s+(?:и|а также|and then|and|then|"
    r"затем|потом|плюс)\s+|\s+also\s+(?=(?:comment|note|add|create|move|set|mark|assign|close|log|put|bump|make|file|open|"
    r"archive|delete|tag|remind|schedule|book|change|update|send|push|give|hand|drop|rename)\b)|,\s+)(?=\S)",
    re.IGNORECASE,
)
# «Если Globex pilot ещё не выиграна — переводи в Won», "if ENG-105 is still open, close it": a state that
# holds or not right now (planner.conditions checks it against the record)
STATE_NOW_IF = LazyRe(
    r"(?i)^\s*(?:(?:ну|so|and|и|а)[,\s]+)?(?:если|if)\b(?:[^—–,.;:!?]*?"
    r"\b(?:ещ[её]|вс[её]\s+ещ[её]|уже|still|not\s+yet|already|(?:is|are)n'?t\s+(?:yet\s+)?)\b"
    # "if ENG-101 is closed", «если ENG-101 закрыта»: an issue's state said plainly, no "still" needed
    r"|\s+(?:[A-Za-z]{2,5}-\d+|it|она|он)\s+(?:(?:is|was)\s+)?(?:not\s+)?(?:не\s+)?"
    r"(?:closed|done|finished|completed|resolved|open|закрыт[аоы]?|сделан[аоы]?|выполнен[аоы]?|открыт[аоы]?|"
    r"in\s+progress|in\s+review|(?:in\s+)?todo|(?:in\s+)?backlog|в\s+работе|на\s+ревью|в\s+ревью|в\s+бэклоге)\b"
    # "if Initech renewal is won", «если сделка с Ромашкой выиграна»: a deal's outcome said plainly
    r"|[^—–,.;:!?]*?\b(?:is|are|was)\s+(?:not\s+)?(?:won|lost)\b|[^—–,.;:!?]*?\b(?:не\s+)?(?:выиграна|проиграна)\b"
    # "if ENG-103 is assigned to Oleg", «если ENG-103 на Олеге», «если она назначена на Макса»: whose it is
    r"|\s+(?:[A-Za-z]{2,5}-\d+|it|она|он)\s+(?:(?:is|was)\s+)?(?:not\s+)?(?:не\s+)?(?:(?:assigned|назначен[аоы]?)\s+)?"
    r"(?:to|on|на|у)\s+(?-i:[A-ZА-ЯЁ])[^\W\d_]+)"
    r"[^—–,;:!?]*"
)
# «…проверить, оплатил ли Initech счёт», "remind me to check whether Acme paid": what is checked is its part
CHECK_LEFT = LazyRe(
    r"(?i)\b(?:проверить|проверь|узнать|узнай|уточнить|уточни|спросить|спроси|выяснить|выясни|check|ask|see|"
    r"find\s+out|confirm)\s*$"
)
WHETHER = LazyRe(r"(?i)\s*(?:[^\W\d_]+\s+ли\b|whether\b|if\b)")
LEFT_ALONE = LazyRe(
    r"(?i)\b(?:не\s+(?:трога|меня|перенос|закрыва|переназнача)\w*|остав\w*\s+(?:как\s+есть|в\s+покое)|"
    r"leave\s+(?:it|them|[A-Za-z]{1,10}-\d+)\s+(?:alone|as\s+is)|don'?t\s+touch|"
    # "…, leave the Alfa one where it is", "keep Globex where it is"
    r"(?:leave|keep)\s+(?:(?:the|that)\s+)?[^\s,.;]+(?:\s+(?:one|deal|issue|ones))?\s+(?:where\s+(?:it|they)\s+(?:is|are)|alone|as\s+is|in\s+place)|"
    # «ENG-106 — срочный уже, оставь», "ENG-106 is already urgent, leave it": as it is already
    r"уже[\s,—–-]+оставь\w*(?:\s+(?:её|ее|его|так))?\s*[.!]?$|already[\s,—–-]+(?:so\s+)?(?:leave|keep)\s+it)\b"
)


def leaves_alone(clause: Clause, now: datetime) -> bool:
    """«ENG-101 при этом не трогай», "leave ENG-101 alone": a record named only to be left as it is
    (no other verb in the clause: «закрой CS-13 … там ничего не трогай» asks for a change)."""
    said = LEFT_ALONE.search(clause.text)
    if said is None:
        return False
    rest = clause.text[: said.start()] + " " + clause.text[said.end() :]
    return verb_count(analyse(rest, now)) == 0


A_QUOTE_ALONE = LazyRe(r"\s*(?:«[^«»]+»|\"[^\"]+\"|“[^“”]+”)[\s.!?]*")
STATE_OF_THEM = LazyRe(
    r"(?i)^(?:что|которые|which|that)\s+(?:уже\s+|сейчас\s+|still\s+|is\s+|are\s+|were\s+)*"
    r"(?:назначен\w*|закрыт\w*|assigned|closed|done|висит|висят|лежит|лежат|owned)\b"
)
COMPLEMENT = LazyRe(r"^(?:что|чтобы|that)\s", re.IGNORECASE)
# "заархивируй всё, что лежит в бэклоге", "close every issue that is in review": which things, not a question
RELATIVE = LazyRe(r"^(?:что|which|that|who|котор\w+|где|where)\s", re.IGNORECASE)
WHAT_OF = LazyRe(
    r"(?i)\b(?:всё|все|всех|everything|all|anything|то|те|тех|those|задачи|задач|тикеты|баги|сделки|сделок|"
    r"issues|tickets|bugs|deals|tasks)\s*$"
)


def without_query(c: Clause) -> Clause:
    return replace(c, cues=c.cues - {"query"})


_OPEN_ONE = LazyRe(
    r"(?i)(?:^|[.!?;:,—–-]\s*|\b(?:please|pls|and|then|also|so)\s+)open\s+(?:up\s+)?(?:a|an|one|another)\s+(?:new\s+)?"
    r"(?:deal|issue|ticket|task|bug|project)\b"
)  # (said as the request, not told of: "my lead told me to open a deal …" is why)


# a clause that starts with one of these nouns and has no verb borrows the previous clause's verb:
# "создай компанию Вектор и контакт Пётр Смирнов" = "... и создай контакт Пётр Смирнов"
OBJECT_START = LazyRe(
    r"^(?:(?:and|и|сразу|также|ещё|еще|also|then|в attio|в crm|in attio|in the crm)\s+)*"
    r"(?:a |an |the |новую |новый |new |another |one more |ещё одну |еще одну |ещё один |еще один )?"
    r"(?:(?:crm|attio|linear)\s+)?"
    r"(?:\d+[\s-]*(?:min(?:ute)?s?|мин\w*|h(?:ours?)?|час\w*)\s+)?"  # "another 30 min call with Li Wei …"
    # ("… and a Lead deal 'Hooli pilot'", "and a 20k deal": the deal's stage or sum said before it)
    r"(?:(?:lead|qualification|proposal|negotiation|[$€]?\d[\d,.]*\s*(?:k|m|usd|eur)?)\s+(?=deal\b))?"
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
                    or (
                        self.keys[i].text == "open"
                        and (i > 0 or self._plural_after(i))
                        and not _OPEN_ONE.search(self.text)  # ("… is interested. Open a deal, 18.5k")
                    )
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


def identifiers_in(text: str) -> list[str]:
    return [m.group(0).upper() for m in re.finditer(r"\b[A-Za-z]{1,10}-\d{1,6}\b", text)]


# phrasal verbs mean one thing: read them as that word when looking for cues (titles keep the original)
PHRASES = [
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
        re.compile(
            r"\bblocks(?=\s+(?:the|a|an|our|this|that|their|us|them|it|[A-Za-z]{2,5}-\d+)\b)"
            # "…, both block the release": said of the issues, no block of time
            r"|(?:(?<=\bboth\s)|(?<=\bthey\s)|(?<=\bwhich\s)|(?<=\bthese\s)|(?<=\bthose\s))block"
            r"(?=\s+(?:the|our|this|that|their|us|them|it)\b)",
            re.I,
        ),
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

# For each row of PHRASES, words it cannot match without (lower case): a phrase is tried only when one of them
# is in the text. Searching every phrase in every piece of a long message cost a third of the analyser's regex
# time; a substring test costs next to nothing. (test_phrases checks that each row's words are necessary.)
PHRASE_WORDS: tuple[tuple[str, ...], ...] = (
    ("get rid of",), ("get",), ("off",), ("залогиру",), ("block",), ("attach",), ("работу",), ("кин",),
    ("sign",), ("blocked", "заблокирован"), ("request",), ("drop",), ("log",), ("record",), ("leave",),
    ("give",), ("make",), ("tag", "label"), ("drop",), ("note",), ("want", "need", "would"), ("note",),
    ("log",), ("over",), ("set up",), ("kick",), ("spin",), ("follow",), ("fell through",), ("→", "->", "=>"),
    ("готов", "ready"), ("кид", "кин", "отправ"), ("give",), ("go",),
)  # fmt: skip


def _cue_keys(text: str, keys: list[WordKey]) -> list[WordKey]:
    """The words as cues read them: each phrasal verb said as the one word it means."""
    low, changed = text.lower(), False
    for (rx, word), needed in zip(PHRASES, PHRASE_WORDS, strict=True):
        if any(w in low for w in needed):
            said = rx.sub(word, text)
            if said != text:  # (a phrase read may make the next one's words: the text as it is now)
                text, low, changed = said, said.lower(), True
    return keys_for(text) if changed else keys


_CREATE = CUES["create"]


def _reported(k: WordKey) -> bool:
    """A create word in the past tense reports what happened ("started", "created"), and a participle
    says what a thing is («проекты, заведённые в Linear»)."""
    return k.text.isascii() and k.text.endswith("ed") and k.text not in _CREATE or is_participle(k.text)


_DETERMINERS = frozenset("the a an our this that their his her its my your".split())
_RECORD_NOUNS = frozenset("deal deals issue issues task tasks ticket tickets one ones bug bugs note".split())
NEW_WORDS = frozenset({"new", "новый", "новая", "новое", "новые"})
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
    clause = Clause(text, keys, extract_moment(timed, now), duration, dspan, identifiers_in(text))
    cue_keys = _cue_keys(text, keys)
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
            if k.text not in NEW_WORDS
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
    if "signed" in clause.cues and (_SIGNED_ASKED.search(text) or _SIGNED_A_PAPER.search(text)):
        # «проверить, подписали ли допсоглашение», "check whether they signed": asked, not told; «подписали
        # допник на SSO», "signed the NDA": a paper besides the deal, no outcome of it
        clause.cues.discard("signed")
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
_SIGNED_ASKED = LazyRe(
    r"(?i)\bподписал\w*\s+ли\b|\b(?:whether|if)\s+(?:\w+\s+){0,3}?(?:(?:has|have)\s+)?signed\b"
)
_SIGNED_A_PAPER = LazyRe(
    r"(?i)\b(?:signed|подписал\w*)\s+(?:the\s+|an?\s+|their\s+|our\s+)?(?:допник\w*|доп\.?\s*соглашени\w*|"
    r"допсоглашени\w*|nda|акт\w*|сч[её]т\w*|addend\w*|amendment\w*|invoice\w*|sow|dpa|loi|мемо\w*)\b"
)
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


VERBISH = (
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


def verb_count(c: Clause) -> int:
    said = c.cues.intersection(VERBISH)
    # "…, and also I need an hour tomorrow at 2pm to prep the handover": time asked for is a block to book
    booked = not said and c.duration and c.moment.at is not None and bool(TIME_NEEDED.match(c.text))
    return len(said) - (1 if "create" in said and not c.creates() else 0) + (1 if booked else 0)


TIME_NEEDED = LazyRe(
    r"(?i)\s*(?:(?:and|и|а|plus|плюс)\s+)?(?:also\s+|ещ[её]\s+|также\s+)?(?:i\s+(?:also\s+)?need|i'?d\s+like|"
    r"мне\s+(?:ещ[её]\s+)?нуж(?:ен|на|но|ны)|нуж(?:ен|на|но)\s+(?:мне\s+)?)\b"
)


def joined_readings(text: str, readings: list[Clause]) -> Clause:
    """One clause of several readings side by side: their words in order and all their cues."""
    keys = [k for c in readings for k in c.keys]
    cues = set().union(*(c.cues for c in readings))
    return Clause(
        text, keys, readings[-1].moment, None, None, [i for c in readings for i in c.identifiers], cues
    )


FIELD_SET = LazyRe(
    r"(?i)\S\s+[—–-]\s+(?:сумм\w*|amount|value|стади\w*|stage|owner|ответствен\w*|срок|due|priority|приоритет)\b"
)
ELLIPTIC = LazyRe(
    r"\S\s+(?:в|во|на|to|into|→|->|=>)\s+(?:стади\w+\s+|stage\s+|статус\s+)?\S+(?:\s+\S+)?\s*[.!]?$", re.I
)
