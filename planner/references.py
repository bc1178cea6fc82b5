"""Resolution: what a person calls a thing -> the record they mean (DESIGN §5a).

A reference is a name in any case or script, an identifier, a position in the list shown last
("the second one", «вторую», "#2") or "me". One record → it; several → one question with them as
choices; none → one question with the nearest as choices, never a guess and never "not found".
Values with a fixed set (a deal stage, a workflow state, a label) that match nothing are `Invalid`,
naming the allowed values. Dates are ISO 8601 or words, resolved against the plan's `now`.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from planner._lazy_re import LazyRe
from planner.context import BuildContext, Invalid
from planner.dates import extract_moment
from planner.directory import Entity
from planner.resolve import Mention, best, find_mentions, keys_for, match_words
from planner.text import norm, similarity

if TYPE_CHECKING:
    from planner.intents.models import Filters

__all__ = [
    "OBJECT_KINDS", "crm_record", "crm_task", "day", "deal", "deals_matching", "is_me", "issue", "labels", "me_user", "member",
    "at", "position", "project", "stage", "state", "team", "user", "when",
]  # fmt: skip

OBJECT_KINDS = {"companies": "company", "people": "person", "deals": "deal"}
_ME = LazyRe(r"^(?:me|myself|i|mine|я|меня|мне|мной|мой|моя|мои|себя|себе|на меня)$", re.I)
_POSITIONS = [
    (r"\b(?:first|1st|перв\w*)\b", 0), (r"\b(?:second|2nd|втор\w*)\b", 1), (r"\b(?:third|3rd|трет\w*)\b", 2),
    (r"\b(?:fourth|4th|четв[её]рт\w*)\b", 3), (r"\b(?:fifth|5th|пят\w*)\b", 4),
    (r"\b(?:last|последн\w*)\b", -1),
]  # fmt: skip


def is_me(ref: str | None) -> bool:
    return bool(ref) and bool(_ME.match(norm(ref or "").strip()))


def position(ref: str) -> int | None:
    """ "the second one", «вторую», "#2", "2" -> an index into the list shown last (-1 = the last)."""
    low = norm(ref)
    num = re.fullmatch(r"\s*(?:#|№|no\.?|номер|number)?\s*(\d{1,3})\s*", low)
    if num:
        return int(num.group(1)) - 1
    for rx, index in _POSITIONS:
        if re.search(rx, low) and len(low.split()) <= 4:
            return index
    return None


_LOOSE = frozenset(
    "the a an deal deals сделка сделку сделки record company компания компанию my мою мой".split()
)


def _says_it_all(ref: str, mention: Mention) -> bool:
    """Every word of the reference that could name something is matched: "Hooli pilot" is not
    "Globex pilot" because "Hooli" names nothing there (a client's model sends a whole name)."""
    keys = keys_for(ref)
    loose = {i for i, k in enumerate(keys) if k.text in _LOOSE or len(k.text) < 2 or k.text.isdigit()}
    return all(i in mention.positions or i in loose for i in range(len(keys)))


def _nearest(pool: list[Entity], ref: str, n: int = 5) -> list[Entity]:
    words = [w for w in re.findall(r"\w+", norm(ref)) if len(w) > 1]

    def score(e: Entity) -> float:
        names = re.findall(r"\w+", norm(e.name))
        return max((similarity(w, x) for w in words for x in names), default=0.0)

    return sorted(pool, key=score, reverse=True)[:n]


def _pick(
    ctx: BuildContext, slot: str, kind: str, ref: str, pool: list[Entity], which: tuple[str, str],
    missing: tuple[str, str],
) -> Entity:  # fmt: skip
    """One entity of `pool` for `ref`: exact id or name, else the best mention; a tie or nothing is a
    question (slot `slot`)."""
    answered = ctx.answer(slot)
    if answered:
        hit = next((e for e in pool if e.id == answered or e.id.startswith(answered)), None)
        if hit is not None:
            ctx.note_entity(kind, ref, hit, [], 1.0)
            return hit
        ref = answered
    exact = [e for e in pool if e.id == ref or norm(e.name) == norm(ref)]
    if len(exact) == 1:
        ctx.note_entity(kind, ref, exact[0], [], 1.0)
        return exact[0]
    mentions = [m for m in find_mentions(keys_for(ref), pool) if _says_it_all(ref, m)]
    if mentions and mentions[0].score >= 0.5:  # the rest stay in: "Acme" names both Acme deals
        chosen = ctx.choose(slot, kind, ref, mentions, ctx.t(*which))
        if chosen is not None:
            return chosen
    near = _nearest(pool, ref)
    raise ctx.ask(
        slot,
        ctx.t(*missing),
        choices=[(f"{e.name} ({e.subtitle})" if e.subtitle else e.name, e.id) for e in near],
        free_text=True,
        risk="ambiguous" if near else "missing_required",
    )


async def deal(ctx: BuildContext, ref: str, slot: str = "deal") -> Entity:
    pool = await ctx.directory.deals()
    return _pick(
        ctx, slot, "deal", ref, pool, ("Какую сделку вы имеете в виду?", "Which deal do you mean?"),
        (f"Не нашёл сделку «{ref}». Какую вы имели в виду?", f"I couldn't find a deal '{ref}'. Which one?"),
    )  # fmt: skip


async def crm_record(
    ctx: BuildContext,
    ref: str,
    slot: str = "record",
    objects: tuple[str, ...] = ("people", "companies", "deals"),
) -> tuple[str, Entity]:
    """A person, company or deal by name; returns (object, entity). A person beats the company of
    the same words only when named in full; a tie across kinds is a question."""
    pools: list[tuple[str, Entity]] = []
    loaders = {
        "people": ctx.directory.people,
        "companies": ctx.directory.companies,
        "deals": ctx.directory.deals,
    }
    for obj in objects:
        pools += [(obj, e) for e in await loaders[obj]()]
    answered = ctx.answer(slot)
    if answered:
        hit = next(((o, e) for o, e in pools if e.id == answered), None)
        if hit:
            ctx.note_entity(OBJECT_KINDS[hit[0]], ref, hit[1], [], 1.0)
            return hit
        ref = answered
    exact = [(o, e) for o, e in pools if e.id == ref or norm(e.name) == norm(ref)]
    if len(exact) == 1:
        ctx.note_entity(OBJECT_KINDS[exact[0][0]], ref, exact[0][1], [], 1.0)
        return exact[0]
    by_entity = {id(e): o for o, e in pools}
    mentions = [m for m in find_mentions(keys_for(ref), [e for _, e in pools]) if _says_it_all(ref, m)]
    top = best(mentions) if mentions and mentions[0].score >= 0.5 else []
    if len(top) == 1:
        obj = by_entity[id(top[0].entity)]
        ctx.note_entity(OBJECT_KINDS[obj], ref, top[0].entity, [], top[0].score)
        return obj, top[0].entity
    options = [m.entity for m in top][:5] or _nearest([e for _, e in pools], ref)
    raise ctx.ask(
        slot,
        ctx.t(f"Какую запись вы имеете в виду — «{ref}»?", f"Which record do you mean by '{ref}'?")
        if top
        else ctx.t(
            f"Не нашёл «{ref}» в CRM. Что вы имели в виду?", f"I couldn't find '{ref}' in the CRM. Which one?"
        ),
        choices=[(f"{e.name} ({e.subtitle})" if e.subtitle else e.name, e.id) for e in options],
        free_text=True,
        risk="ambiguous",
    )


async def me_user(ctx: BuildContext) -> Entity | None:
    return next((u for u in await ctx.directory.users() if u.extra.get("is_me")), None)


async def user(ctx: BuildContext, ref: str, slot: str = "assignee") -> Entity:
    """A Linear user (an assignee)."""
    if is_me(ref) and (me := await me_user(ctx)) is not None:
        return me
    return _pick(
        ctx, slot, "member", ref, await ctx.directory.users(), ("Кого вы имеете в виду?", "Who do you mean?"),
        (f"В Linear нет пользователя «{ref}». На кого назначить?", f"There is no Linear user '{ref}'. Who should it be?"),
    )  # fmt: skip


async def member(ctx: BuildContext, ref: str, slot: str = "owner") -> Entity:
    """An Attio workspace member (a deal owner, a CRM task's assignee); "me" is the member who shares
    the Linear viewer's email."""
    members = await ctx.directory.members()
    if is_me(ref):
        me = await me_user(ctx)
        found = next(
            (m for m in members if me is not None and m.extra.get("email") == me.extra.get("email")), None
        )
        if found is not None:
            return found
    return _pick(
        ctx, slot, "member", ref, members, ("Кого вы имеете в виду?", "Who do you mean?"),
        (f"В CRM нет участника «{ref}». Кого вы имели в виду?", f"There is no CRM member '{ref}'. Who do you mean?"),
    )  # fmt: skip


async def team(ctx: BuildContext, ref: str | None, slot: str = "team") -> Entity:
    """A team by key ("DES") or name in any case ("дизайн", "Design"); None → the default team."""
    teams = await ctx.directory.teams()
    if not ref:
        default = ctx.config.get("defaults", {}).get("linear_team")
        found = next((t for t in teams if t.extra.get("key") == default), teams[0] if teams else None)
        if found is None:
            raise ctx.ask(slot, ctx.t("В какой команде Linear?", "Which Linear team?"))
        return found
    keyed = next((t for t in teams if str(t.extra.get("key", "")).lower() == ref.strip().lower()), None)
    if keyed is not None:
        return keyed
    aliases = ctx.config.get("team_aliases", {})
    teams = [
        Entity(
            t.kind,
            t.id,
            t.name,
            t.subtitle,
            t.url,
            [*t.aliases, *aliases.get(str(t.extra.get("key")), [])],
            t.extra,
        )
        for t in teams
    ]
    return _pick(
        ctx, slot, "team", ref, teams, ("Какую команду?", "Which team?"),
        (f"Команды «{ref}» в Linear нет. В какую команду?", f"There is no Linear team '{ref}'. Which team?"),
    )  # fmt: skip


async def stage(ctx: BuildContext, ref: str) -> Entity:
    """A deal stage by name or alias ("переговоры" = Negotiation); anything else is `Invalid`."""
    stages = await ctx.directory.stages()
    aliases = ctx.config.get("stage_aliases", {})
    low = norm(ref).strip()
    for s in stages:
        if low == norm(s.name) or low in (norm(a) for a in aliases.get(s.name, [])):
            return s
    pool = [
        Entity(s.kind, s.id, s.name, s.subtitle, s.url, [*s.aliases, *aliases.get(s.name, [])])
        for s in stages
    ]
    words = keys_for(ref)
    # the whole phrase names the stage ("переговоры"), not one word of it ("Not won", "almost won")
    found = [m for m in find_mentions(words, pool) if m.score >= 1.0 and len(m.positions) == len(words)]
    if found:
        return next(s for s in stages if s.id == found[0].entity.id)
    raise Invalid(f"stage: «{ref}» is not a deal stage (allowed: {', '.join(s.name for s in stages)})")


# words people use for a workflow state, by the state's type (Linear's types are fixed)
_STATE_WORDS = [
    (r"^(?:done|complete[d]?|closed|finished|resolved|готов\w*|сделан\w*|выполнен\w*|закрыт\w*|заверш\w*)$", "completed"),
    (r"^(?:cancel+ed|отмен\w*)$", "canceled"),
    (r"^(?:todo|to do|unstarted|сделать|к выполнению)$", "unstarted"),
    (r"^(?:backlog|бэклог\w*|беклог\w*|когда-нибудь)$", "backlog"),
    (r"^(?:triage|inbox|входящ\w*)$", "triage"),
    (r"^(?:in progress|started|doing|wip|в работ\w*|работ[ауе]|в процесс\w*|делается|начат\w*)$", "started"),
]  # fmt: skip
_REVIEW = LazyRe(r"^(?:review|in review|on review|ревью|на ревью|в ревью|на проверк\w*|code review)$")


async def state(ctx: BuildContext, team_id: str, ref: str) -> Entity:
    states = await ctx.directory.states(team_id)
    low = norm(ref).strip(" .«»\"'")
    low = re.sub(r"^(?:status|state|статус|состояние)\s+", "", low)
    for s in states:
        if norm(s.name) == low:
            return s
    if _REVIEW.match(low):
        found = next((s for s in states if "review" in s.name.lower()), None)
        if found is not None:
            return found
    for rx, type_ in _STATE_WORDS:
        if re.match(rx, low):
            found = next((s for s in states if s.extra.get("type") == type_), None)
            if found is not None:
                return found
    raise Invalid(f"state: «{ref}» is not a workflow state (allowed: {', '.join(s.name for s in states)})")


_LABEL_RU = {"баг": "bug", "ошибка": "bug", "фича": "feature", "безопасность": "security",
             "документация": "docs", "онбординг": "onboarding", "запрос клиента": "customer-request"}  # fmt: skip


async def labels(ctx: BuildContext, refs: list[str], team_id: str | None = None) -> list[Entity]:
    """Labels by name (or a Russian word for one); with a team, only those its issues may carry."""
    pool = await ctx.directory.labels(team_id)
    out: list[Entity] = []
    for ref in refs:
        low = norm(ref).strip()
        low = _LABEL_RU.get(low, low)
        found = next((x for x in pool if norm(x.name) == low), None)
        if found is None:
            found = next((x for x in pool if norm(x.name).rstrip("s") == low.rstrip("s")), None)
        if found is None:
            raise Invalid(f"labels: «{ref}» is not a label (allowed: {', '.join(x.name for x in pool)})")
        if found not in out:
            out.append(found)
    return out


async def project(ctx: BuildContext, ref: str, slot: str = "project") -> Entity:
    """An existing project; one that does not exist is a question (seed 002: never created implicitly)."""
    projects = await ctx.directory.projects()
    answered = ctx.answer(slot)
    if answered:
        hit = next((p for p in projects if answered in (p.id, p.name)), None)
        if hit is not None:
            return hit
    exact = next((p for p in projects if norm(p.name) == norm(ref) or p.id == ref), None)
    if exact is not None:
        return exact
    found = [m for m in find_mentions(keys_for(ref), projects) if m.score >= 0.9]
    top = best(found)
    if len(top) == 1:
        return top[0].entity
    raise ctx.ask(
        slot,
        ctx.t(
            f"Проекта «{ref}» в Linear нет. В какой проект?",
            f"There is no project '{ref}' in Linear. Which project?",
        ),
        choices=[(p.name, p.name) for p in (_nearest(projects, ref) if not top else [m.entity for m in top])],
        free_text=False,
    )


_IDENT = LazyRe(r"^\s*([A-Za-z]{1,10})[\s\-_]?(\d{1,6})\s*$")


async def issue(ctx: BuildContext, ref: str, slot: str = "issue") -> dict[str, Any]:
    """A Linear issue: identifier, position in the list shown last, or words of its title."""
    from planner.rules._linear_common import my_issue_choices  # the person's own issues, as choices

    answered = ctx.answer(slot)
    if answered:
        ref = answered
    m = _IDENT.match(ref)
    if m:
        ident = f"{m.group(1).upper()}-{m.group(2)}"
        found = await ctx.directory.issue(ident)
        if found is not None:
            _note_issue(ctx, ident, found)
            return found
        choices = await my_issue_choices(ctx)
        raise ctx.ask(
            slot,
            ctx.t(
                f"Не нашёл задачу «{ident}». Какую вы имели в виду?", f"I couldn't find '{ident}'. Which one?"
            ),
            choices=choices,
        )
    index = position(ref)
    if index is not None:
        listing = list(ctx.conversation.get("last_list") or [])
        if listing and -len(listing) <= index < len(listing):
            return await issue(ctx, str(listing[index].get("identifier")), slot)
        raise ctx.ask(
            slot,
            ctx.t("Какую задачу? Я ещё не показывал список в этом разговоре.",
                  "Which issue? I haven't shown a list in this conversation yet."),
            choices=await my_issue_choices(ctx),
        )  # fmt: skip
    rows = await ctx.directory.search_issues(ref)
    if not rows:
        rows = await issues_with_words(ctx, ref)
    exact = [r for r in rows if norm(str(r.get("title", ""))) == norm(ref)]
    rows = exact or rows
    if len(rows) == 1:
        return await issue(ctx, str(rows[0].get("identifier")), slot)
    if not rows:
        raise ctx.ask(
            slot,
            ctx.t(
                f"Не нашёл задачу «{ref}». Какую вы имели в виду?",
                f"I couldn't find a task matching '{ref}'. Which one?",
            ),
            choices=await my_issue_choices(ctx),
        )
    options = [(f"{r.get('identifier')} {r.get('title')}", str(r.get("identifier"))) for r in rows[:5]]
    numbered = "\n".join(f"{i + 1}. {label}" for i, (label, _) in enumerate(options))
    raise ctx.ask(
        slot,
        ctx.t(f"Нашёл несколько задач по «{ref}»:\n{numbered}\nКакую вы имели в виду?",
              f"I found multiple tasks that match '{ref}':\n{numbered}\nWhich one did you mean?"),
        choices=options,
        risk="ambiguous",
        free_text=False,
    )  # fmt: skip


def _note_issue(ctx: BuildContext, ref: str, row: dict[str, Any]) -> None:
    ctx.note_entity(
        "issue",
        ref,
        Entity(
            "issue", str(row["id"]), str(row.get("title", "")), str(row.get("identifier", "")), row.get("url")
        ),
        [],
        1.0,
    )


async def issues_with_words(ctx: BuildContext, phrase: str) -> list[dict[str, Any]]:
    """Issues whose titles contain every word of the phrase, in any language's spelling or case."""
    words = [k for k in keys_for(phrase) if len(k.text) > 2]
    if not words:
        return []
    rows: list[dict[str, Any]] = []
    for t in await ctx.directory.teams():
        rows += await ctx.directory.team_issues(t.id)
    return [r for r in rows if match_words(words, keys_for(str(r.get("title", ""))))]


def task_id(task: dict[str, Any]) -> str:
    tid = task.get("id")
    return str(tid.get("task_id") if isinstance(tid, dict) else tid)


async def crm_task(ctx: BuildContext, ref: str, slot: str = "task") -> dict[str, Any]:
    """An open CRM task by its words, or by the record it is about ("the Romashka task")."""
    tasks = await ctx.directory.crm_tasks({"is_completed": False})
    answered = ctx.answer(slot)
    if answered:
        hit = [t for t in tasks if task_id(t) == answered]
        if hit:
            return hit[0]
    words = [k for k in keys_for(ref) if len(k.text) > 2]
    found = [t for t in tasks if words and match_words(words, keys_for(str(t.get("content_plaintext", ""))))]
    if not found and tasks:
        for obj in ("people", "companies", "deals"):  # "the task about Romashka"
            mentions = [m for m in find_mentions(keys_for(ref), await _pool(ctx, obj)) if m.score >= 0.9]
            ids = {m.entity.id for m in mentions}
            found += [
                t
                for t in tasks
                if ids & {str(r.get("target_record_id")) for r in t.get("linked_records") or []}
            ]
    if len(found) == 1:
        return found[0]
    options = found or tasks
    raise ctx.ask(
        slot,
        ctx.t("Какую задачу закрыть?", "Which task should I complete?")
        if options
        else ctx.t(
            "Не нашёл открытых задач в CRM. Какую задачу закрыть?", "I found no open CRM tasks. Which task?"
        ),
        choices=[(str(t.get("content_plaintext", ""))[:60], task_id(t)) for t in options[:5]],
        free_text=not options,
        risk="ambiguous" if len(found) > 1 else "missing_required",
    )


async def _pool(ctx: BuildContext, obj: str) -> list[Entity]:
    loaders = {
        "people": ctx.directory.people,
        "companies": ctx.directory.companies,
        "deals": ctx.directory.deals,
    }
    return await loaders[obj]()


# ---- dates -------------------------------------------------------------------------------------------
def _iso(text: str, ctx: BuildContext) -> datetime | date | None:
    raw = text.strip()
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw):
            return date.fromisoformat(raw)
        dt = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        return None
    return dt.replace(tzinfo=ctx.now.tzinfo) if dt.tzinfo is None else dt.astimezone(ctx.now.tzinfo)


def day(ctx: BuildContext, text: str, field: str) -> date:
    """A date from ISO or words ("пятница", "next Monday", "27 ноября")."""
    iso = _iso(text, ctx)
    if isinstance(iso, datetime):
        return iso.date()
    if isinstance(iso, date):
        return iso
    found = extract_moment(text, ctx.now)
    if found.day is None:
        raise Invalid(
            f"{field}: «{text}» is not a date (send ISO 8601 like 2026-11-27, or words like 'friday')"
        )
    return found.day


def when(ctx: BuildContext, text: str, field: str) -> tuple[date | None, time | None]:
    """The day and the time of day a phrase names (either may be missing): ISO 8601 or words."""
    iso = _iso(text, ctx)
    if isinstance(iso, datetime):
        return iso.date(), iso.timetz().replace(tzinfo=None)
    if isinstance(iso, date):
        return iso, None
    found = extract_moment(text, ctx.now)
    if found.day is None and found.at is None:
        raise Invalid(f"{field}: «{text}» is not a date or time (send ISO 8601, or words like 'завтра в 10')")
    return found.day, found.at


def at(ctx: BuildContext, on: date | None, clock: time) -> datetime:
    """A day and a time as a moment in the plan's zone; a time alone is its next occurrence."""
    start = datetime.combine(on or ctx.now.date(), clock, tzinfo=ctx.now.tzinfo)
    if on is None and start < ctx.now:
        start += timedelta(days=1)  # "at 9" said at noon means tomorrow's 9:00
    return start


async def deals_matching(ctx: BuildContext, f: Filters) -> list[Entity]:
    """The deals a filter keeps: its stage ("open" is every stage but Won and Lost), owner, company, currency."""
    deals = await ctx.directory.deals()
    if f.record:  # one deal, by its name ("both of those deals": each of the two named)
        named = {d.id for d in deals if d.name.lower() == f.record.lower()} or {
            m.entity.id for m in find_mentions(keys_for(f.record), deals) if m.score >= 0.9
        }
        deals = [d for d in deals if d.id in named]
    if f.stage and f.stage.lower() in ("open", "открытые", "active"):
        deals = [d for d in deals if d.extra.get("stage") not in ("Won", "Lost")]
    elif f.stage:
        found = await stage(ctx, f.stage)
        deals = [d for d in deals if d.extra.get("stage") == found.name]
    if f.owner:
        owner = await member(ctx, f.owner)
        deals = [d for d in deals if d.extra.get("owner_id") == owner.id]
    if f.company:
        _, company = await crm_record(ctx, f.company, slot="company", objects=("companies",))
        deals = [d for d in deals if d.extra.get("company_id") == company.id]
    if f.currency:
        deals = [d for d in deals if str(d.extra.get("currency") or "").upper() == f.currency]
    for said in f.exclude or []:
        # "all Negotiation deals except Globex": that deal (or the company's) left out
        out = {m.entity.id for m in find_mentions(keys_for(said), deals) if m.score >= 0.8} | {
            d.id for d in deals if d.extra.get("company") and find_mentions(keys_for(said), [_company_of(d)])
        }
        if not out:  # «все сделки, кроме выигранных»: the ones in a stage left out
            aliases = ctx.config.get("stage_aliases", {})
            pool = [
                Entity(x.kind, x.id, x.name, x.subtitle, x.url, [*x.aliases, *aliases.get(x.name, [])])
                for x in await ctx.directory.stages()
            ]
            named = {m.entity.name for m in find_mentions(keys_for(said), pool) if m.score >= 0.8}
            out = {d.id for d in deals if d.extra.get("stage") in named}
        if not out:  # what is to be left out is not understood: asked, never ignored (it would change too)
            raise ctx.ask(
                "exclude",
                ctx.t(
                    f"Не понял, что не трогать: «{said}». Какие сделки оставить как есть?",
                    f"I didn't understand what to leave out: '{said}'. Which deals should stay as they are?",
                ),
            )
        deals = [d for d in deals if d.id not in out]
    return deals


def _company_of(deal: Entity) -> Entity:
    name = str(deal.extra.get("company") or "")
    return Entity("company", str(deal.extra.get("company_id") or ""), name)
