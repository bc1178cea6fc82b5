"""A request split into clauses, each with its words' lemmas and the cues that signal an intent."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from planner.dates import Moment, extract_duration, extract_moment
from planner.resolve import WordKey, keys_for

__all__ = ["CUES", "Clause", "analyse", "split_clauses"]

# Lemma-level cue words. Russian entries are normal forms (pymorphy3), plus surface forms where
# pymorphy3 guesses imperatives wrong ("удали" -> "удаль").
CUES: dict[str, frozenset[str]] = {k: frozenset(v.split()) for k, v in {
    "create": "создать создай создайте завести заведи добавить добавь сделать открыть открой оформить "
              "запланировать create add make open file log new raise register",
    "put": "поставить поставь put set",
    "move": "перевести переведи перенести перенеси передвинуть двинуть сдвинуть переместить сменить поменять "
            "изменить обновить move advance shift change update",
    "complete": "закрыть закрой завершить заверши выполнить выполни готово сделано готов done complete completed "
                "close finish finished resolve resolved закончить закончил",
    "delete": "удалить удали стереть сотри убрать убери delete remove trash drop",
    "archive": "архивировать заархивировать заархивируй archive",
    "comment": "прокомментировать прокомментируй комментарий комментировать откомментировать comment",
    "note": "заметка note записка",
    "assign": "назначить назначь переназначить assign reassign",
    "due": "срок дедлайн deadline due",
    "priority": "приоритет priority",
    "rename": "переименовать переименуй rename",
    "query": "показать покажи найти найди список выведи вывести посмотреть глянуть show list find search get "
             "display what which какой какие что сколько how где who whose чей кто статус status",
    "deal": "сделка deal opportunity",
    "company": "компания company организация клиент account",
    "person": "контакт человек person contact",
    "task": "задача задачка таска task todo напоминание reminder",
    "issue": "issue тикет ticket баг bug ишью ишьюс",
    "bug": "баг bug",
    "project": "проект project",
    "team": "команда team",
    "block": "блок block timeblock таймблок",
    "meeting": "встреча собрание созвон созвониться meeting appointment митинг",
    "schedule": "запланировать назначить поставить schedule book",
    "linear": "linear линеар линир",
    "attio": "attio аттио",
    "crm": "crm црм срм",
    "remind": "напомнить напомни remind",
    "todo": "позвонить набрать написать отправить связаться созвониться встретиться call email ping send text "
            "phone meet",
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

_SPLIT = re.compile(
    r"\s*(?:;|\s—\s|\.\s+|,?\s+(?:и|а также|and then|and|then|затем|потом)\s+)(?=\S)", re.IGNORECASE
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

    def has(self, *names: str) -> bool:
        return any(n in self.cues for n in names)

    def cue_positions(self, name: str) -> list[int]:
        vocab = CUES[name]
        return [i for i, k in enumerate(self.keys) if k.text in vocab or k.lemmas & vocab]

    def asks(self) -> bool:
        """A question or a bare noun phrase ("заметки по Initech", "what's left in Q1?"), not a command."""
        if self.has("query") or self.text.rstrip().endswith("?"):
            return True
        verbs = (
            "create",
            "put",
            "move",
            "complete",
            "delete",
            "archive",
            "comment",
            "assign",
            "remind",
            "rename",
        )
        return not self.has(*verbs, "signed", "refused", "lost") and self.after_colon is None

    @property
    def after_colon(self) -> str | None:
        if ":" not in self.text:
            return None
        head, tail = self.text.split(":", 1)
        if re.search(r"\d$", head) and re.match(r"\d", tail):
            return None  # a time like 14:00
        return tail.strip() or None


def _identifiers(text: str) -> list[str]:
    return [m.group(0).upper() for m in re.finditer(r"\b[A-Za-z]{1,10}-\d{1,6}\b", text)]


def analyse(text: str, now: datetime) -> Clause:
    keys = keys_for(text)
    duration, dspan = extract_duration(text, bare_number_after_na=True)
    clause = Clause(text, keys, extract_moment(text, now), duration, dspan, _identifiers(text))
    for name, vocab in CUES.items():
        if any(k.text in vocab or k.lemmas & vocab for k in keys):
            clause.cues.add(name)
    return clause


_VERBISH = (
    "create",
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
)


def split_clauses(text: str, now: datetime) -> list[Clause]:
    """Split "переведи в Won и создай задачи" into clauses, but only where each side has its own verb
    (so "Acme and Globex" or a list after a colon stays whole)."""
    head, colon, tail = text.partition(":")
    if colon and not re.search(r"\d$", head):
        # a colon introduces content (a title, a note, a list): split only the part before it
        parts = _split(head, now)
        parts[-1] = analyse(parts[-1].text + ":" + tail, now)
        # "Ромашка подписала договор: переведи сделку в Won и создай задачи" - the head is a statement
        if len(parts) == 1 and _verb_count(analyse(tail, now)) and not _verb_count(analyse(head, now)):
            tail_parts = _split(tail, now)
            return [analyse(head, now), *tail_parts] if tail_parts else parts
        return parts
    return _split(text, now)


def _verb_count(c: Clause) -> int:
    return sum(1 for v in _VERBISH if c.has(v))


def _split(text: str, now: datetime) -> list[Clause]:
    cuts = [m for m in _SPLIT.finditer(text)]
    if not cuts:
        return [analyse(text, now)]
    bounds = [(0, cuts[0].start())]
    for a, b in zip(cuts, [*cuts[1:], None], strict=False):
        bounds.append((a.end(), b.start() if b else len(text)))
    pieces = [(s, e) for s, e in bounds if text[s:e].strip()]
    merged: list[tuple[int, int]] = [pieces[0]]
    for s, e in pieces[1:]:
        if _verb_count(analyse(text[s:e], now)) and _verb_count(
            analyse(text[merged[-1][0] : merged[-1][1]], now)
        ):
            merged.append((s, e))
        else:
            merged[-1] = (merged[-1][0], e)
    return [analyse(text[s:e].strip(), now) for s, e in merged]
