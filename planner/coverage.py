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

from planner.analysis import CUES, Clause, cue_words
from planner.intents import IntentBase
from planner.resolve import keys_for, match_words
from planner.text import is_imperative, is_infinitive, norm

__all__ = ["ACTION_CUES", "Coverage", "QuestionNotWrite", "interrogative"]

ACTION_CUES = (
    "create", "put", "move", "complete", "delete", "archive", "comment", "assign", "remind", "rename",
    "note_verb", "followup", "todo", "block", "meeting", "schedule",
)  # fmt: skip
_WH = re.compile(
    r"^\s*(?:(?:а|и|ну|так|so|and|ok|okay|hey)[,\s]+)?(?:есть\s+ли|кто|сколько|какие|какой|какая|какое|каких|каким|"
    r"где|когда|почему|зачем|чей|чья|чьё|чьи|что(?![-\w])|чем|who|whom|whose|what|which|how|where|why|any|anything)\b",
    re.IGNORECASE,
)
_AUX = re.compile(r"^\s*(?:is|are|was|were|did|does|do|has|have|will|ли)\b", re.IGNORECASE)
_LEAD = re.compile(
    r"^\s*(?:(?:and|then|also|please|pls|and then|ну|и|а|потом|затем|также|ещё|еще|пожалуйста|короче|so|ok|okay)[,\s]+)*",
    re.IGNORECASE,
)
# words that carry nothing of their own in a clause: pronouns, record nouns, courtesy
_EMPTY = frozenset(
    "it its it's this that them their they there here him her his me my you your our us the a an to for on in at "
    "of and or with as is are be record records entry card one ones all every please pls also too now then so "
    "он она оно они его её ее их ему ей им ней нему ним неё нее это этот эту эта этой этого тот ту та там тут "
    "мне меня мой мою мои моё наш нашу наши запись записи карточку карточка все всё всех каждую каждый тоже "
    "также ещё еще пожалуйста плз теперь сейчас и а но в во на с со к ко по у о об от до за из для".split()
)


class QuestionNotWrite(Exception):
    """A rule tried to draft a change from a question; the next rules get the clause."""


def interrogative(clause: Clause) -> bool:
    """The clause asks rather than commands: a question word first (dictated questions carry no
    "?"), an auxiliary with a question mark ("is ENG-101 done?"), or a question mark after no verb."""
    text = clause.text.strip()
    if _WH.match(text):
        return True
    if text.endswith("?") and _AUX.match(text):
        return True
    return text.endswith("?") and not clause.commands()


def asks_for_something(clause: Clause) -> bool:
    """An action word said as a request: a Russian imperative anywhere, a Russian infinitive or an
    English verb where the clause starts ("…and move it", "подготовить отчёт к пятнице")."""
    words = re.findall(r"[^\W\d_]+", _LEAD.sub("", clause.text))
    if not words:
        return False
    verbs = frozenset().union(*(CUES[c] for c in ACTION_CUES))
    first = norm(words[0])
    if first in verbs and (first.isascii() or is_imperative(first) or is_infinitive(first)):
        return True
    return any(not w.isascii() and norm(w) in verbs and is_imperative(norm(w)) for w in words[1:])


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
    return any(op.startswith(_OPS[c]) for c in ACTION_CUES if clause.has(c) for op in ops)


@dataclass
class Coverage:
    """Clauses that asked for something no rule read, checked against what the others produced."""

    candidates: list[tuple[int, Clause]] = field(default_factory=list)

    def check(self, index: int, clause: Clause, explained: bool) -> None:
        if not explained and asks_for_something(clause):
            self.candidates.append((index, clause))

    def uncovered(self, intents: list[IntentBase]) -> list[tuple[int, str]]:
        said = keys_for(" ".join(v for i in intents for v in _values(i)))
        out = []
        for index, clause in self.candidates:
            own = [k for k in keys_for(clause.text) if k.text not in _EMPTY and k.text not in cue_words()
                   and not k.lemmas & cue_words()]  # fmt: skip
            if not (match_words(own, said) if own else _same_kind(clause, intents)):
                out.append((index, clause.text.strip()))
        return out
