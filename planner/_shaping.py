"""How a plan is shaped once its actions are known: duplicates dropped, the domain and the summary
it shows, a guess at the domain a question is about. Pure functions of the build context."""

from __future__ import annotations

import re
from typing import Any

from planner._lazy_re import LazyRe
from planner.analysis import CUES, analyse
from planner.context import Ask, BuildContext
from planner.coverage import ACTION_CUES
from planner.intents import MISSING
from planner.models import ToolAction
from planner.numbers import number_from_words
from planner.text import norm
from planner.translit import as_typed as from_typed
from planner.wording import changes_ru
from toolkits import attio as attio_kit
from toolkits._ops import action as tool_action
from toolkits.linear import ops as linear_ops

__all__ = [
    "about_work",
    "as_typed",
    "bare",
    "dedupe",
    "domain",
    "domain_of_done",
    "dumped",
    "guess_domain",
    "spoken_id",
    "summary",
]


_OWN_WORDS = frozenset({"title", "body", "content", "description"})
_QUOTED_PART = LazyRe(r"«[^«»]*»|'[^']*'")


def as_typed(action: ToolAction, typed: dict[str, str]) -> ToolAction:
    """A write's own words (its title, body, description) as the person typed them in Latin letters; the
    words the rules read in Cyrillic stay Cyrillic only for reading."""
    if action.read_only:
        return action

    def typed_in(value: Any, key: str = "") -> Any:
        if isinstance(value, dict):
            return {k: typed_in(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [typed_in(v, key) for v in value]
        if isinstance(value, str) and key in _OWN_WORDS:
            return from_typed(value, typed)
        return value

    preview = _QUOTED_PART.sub(lambda m: from_typed(m.group(0), typed), action.preview)
    return action.model_copy(update={"args": typed_in(action.args), "preview": preview})


def read_key(action: ToolAction) -> str:
    """What makes two reads the same read."""
    return action.tool_slug + repr(sorted(action.args.items()))


def dedupe(actions: list[ToolAction]) -> list[ToolAction]:
    seen: set[str] = set()
    out = []
    for a in actions:
        key = a.idempotency_scope if not a.read_only else read_key(a)
        if key in seen:
            continue
        seen.add(key)
        out.append(a)
    return out


def one_update_per_record(actions: list[ToolAction]) -> list[ToolAction]:
    """ "ENG-102 забирает Олег, Макс перегружен. Срок — пятница", «Переименуй компанию Globex … и поменяй домен»:
    changes of one record said in pieces are one update of it (one call, one scope), when no field is said twice
    with two values. Left as they are when any action waits on another's result (its index would move)."""
    if any(a.depends_on is not None for a in actions):
        return actions
    out: list[ToolAction] = []
    first_of: dict[str, int] = {}
    for a in actions:
        key = _updated_record(a)
        at = first_of.get(key) if key else None
        if at is None:
            if key:
                first_of[key] = len(out)
            out.append(a)
            continue
        joined = _joined(out[at], a)
        if joined is None:
            out.append(a)  # one field said with two values: both shown, neither guessed
        else:
            out[at] = joined
    return out


def _updated_record(a: ToolAction) -> str:
    """Which record a plain field update changes ("" for anything else)."""
    if a.read_only:
        return ""
    if a.operation == "update_issue" and "issueId" in a.args and "query_or_mutation" not in a.args:
        return f"linear:{a.args['issueId']}"
    if a.operation in ("update_record", "update_deal") and isinstance(a.args.get("values"), dict):
        return f"attio:{a.operation}:{a.args.get('object_type')}:{a.args.get('record_id')}"
    return ""


def _joined(kept: ToolAction, more: ToolAction) -> ToolAction | None:
    linear = kept.toolkit == "linear"
    theirs = {k: v for k, v in kept.args.items() if k != "issueId"} if linear else dict(kept.args["values"])
    mine = {k: v for k, v in more.args.items() if k != "issueId"} if linear else dict(more.args["values"])
    if any(k in theirs and theirs[k] != v for k, v in mine.items()):
        return None
    head = kept.preview.rsplit("»: ", 1)[0] + "»: " if "»: " in kept.preview else ""
    tail = more.preview[len(head) :] if head and more.preview.startswith(head) else more.preview
    preview = f"{kept.preview}; {tail}"
    if linear:
        return linear_ops.update_issue(str(kept.args["issueId"]), {**theirs, **mine}, preview)
    values = {**theirs, **mine}
    record = str(kept.args["record_id"])
    scope = [record, *(f"{k}={values[k]}" for k in sorted(values))]
    if kept.operation == "update_record":
        scope = [str(kept.args["object_type"]), *scope]
    args = {"object_type": kept.args["object_type"], "record_id": record, "values": values}
    return tool_action(attio_kit.OPERATIONS[kept.operation], args, scope, preview)


# how a Latin letter is said aloud, as a Russian or an English speech recogniser writes it
_LETTER_NAMES = {
    "a": "эй|а", "b": "би|бэ", "c": "си|сі|цэ|see", "d": "ди|дэ|dee", "e": "и|е|э|ee", "f": "эф|ef", "g": "джи|жи|гэ|gee",
    "h": "эйч|аш", "i": "ай|и", "j": "джей|jay", "k": "кей|ка|kay", "l": "эл|эль|el", "m": "эм|em", "n": "эн|en",
    "o": "оу|о|oh", "p": "пи|пэ|pee", "q": "кью|cue", "r": "ар|эр|are", "s": "эс|ess", "t": "ти|тэ|tee",
    "u": "ю|у|you", "v": "ви|вэ|vee", "w": "дабл ю|double you", "x": "экс|ex", "y": "уай|why", "z": "зед|зэд|zee",
}  # fmt: skip


def spelled_key(key: str) -> str:
    """A pattern for a team key said letter by letter: "си эс" = CS, «е эн джи» / «энджи» = ENG, "c s"."""
    letters = [f"(?:{_LETTER_NAMES.get(ch, ch)}|{ch})" for ch in key.lower() if ch.isalpha()]
    if len(letters) >= 3 and key[:1].lower() in "aeiou":  # «эн джи сто три»: the first vowel is swallowed
        return r"(?<![\w-])(?:" + letters[0] + r"[\s-]?)?" + r"[\s-]?".join(letters[1:]) + r"(?![\w-])"
    return r"(?<![\w-])" + r"[\s-]?".join(letters) + r"(?![\w-])"


def spoken_id(key: str, m: re.Match[str]) -> str:
    words = re.split(r"[\s-]+", m.group(1).strip())  # "ENG one-oh-three": the words, however joined
    kept = ""
    if (
        len(words) > 1 and words[-1].lower() == "a"
    ):  # "give eng one oh five a due date": the article, not "a hundred"
        words, kept = words[:-1], "a "
    number = number_from_words(words)
    return f"{key}-{number} {kept}" if number else m.group(0)


def about_work(text: str, ctx: BuildContext) -> bool:
    clause = analyse(text, ctx.now)
    return bool(clause.identifiers) or clause.has(
        *ACTION_CUES,
        "deal",
        "company",
        "person",
        "task",
        "issue",
        "project",
        "team",
        "note",
        "linear",
        "attio",
        "crm",
    )


def dumped(ctx: BuildContext) -> list[dict[str, Any]]:
    """The intents understood, without the placeholder of a field still being asked for."""
    typed: dict[str, str] = ctx.memory.get("typed") or {}
    return [
        {
            k: from_typed(v, typed)
            if k in _OWN_WORDS and isinstance(v, str)
            else v  # (as the draft shows them)
            for k, v in i.model_dump(mode="json", exclude_none=True).items()
            if v != MISSING
        }
        for i in ctx.intents
    ]


def domain(actions: list[ToolAction]) -> Any:
    kits = {a.toolkit for a in actions if not a.read_only} or {a.toolkit for a in actions}
    if not kits:
        return "unknown"
    if len(kits) > 1:
        return "mixed"
    kit = next(iter(kits))
    return "calendar" if kit == "googlecalendar" else kit


def bare(toolkit: str) -> ToolAction:
    """A stand-in action of a toolkit, for `domain` (which only looks at toolkits)."""
    return ToolAction(
        toolkit=toolkit,
        tool_slug="",
        operation="",
        args={},
        read_only=False,
        idempotency_scope="",
        preview="",
    )


def domain_of_done(done: list[dict[str, Any]]) -> Any:
    return domain([bare(k) for k in {str(d["idempotency_scope"]).split(":")[0] for d in done}])


def guess_domain(ctx: BuildContext, ask: Ask) -> Any:
    slot = ask.question.id.split(".", 1)[-1]
    if slot in ("duration", "start"):
        return "calendar"
    if slot == "domain":
        return "unknown"
    text = ctx.memory.get("full_text", "")
    low = norm(text)
    words = set(re.findall(r"\w+", low))
    if words & CUES["linear"] or slot in ("title", "issue", "team"):
        return "linear"
    if words & (CUES["deal"] | CUES["note"]) or slot in (
        "deal",
        "stage",
        "target",
        "company",
        "task",
        "value",
        "record",
        "owner",
        "email",
        "domain",
        "name",
    ):
        return "attio"
    return "unknown"


def summary(ctx: BuildContext, actions: list[ToolAction], done: list[dict[str, Any]]) -> str:
    writes = [a for a in actions if not a.read_only]
    if ctx.summary_parts and writes:
        head = "; ".join(ctx.summary_parts)
    elif writes:
        head = (
            writes[0].preview
            if len(writes) == 1
            else ctx.t(f"{changes_ru(len(writes))}: ", f"{len(writes)} changes: ") + writes[0].preview
        )
    elif actions:
        head = ctx.t("Запрос: ", "Query: ") + ", ".join(a.preview for a in actions)
    elif done:
        head = ctx.t("Всё это уже сделано", "All of this is already done")
    else:
        head = ctx.t("Изменений не нужно", "Nothing to change")
    return head[:300]
