"""Linear: new issues (one, a list, with team/project/labels/priority/due date) and templates
(onboarding, renewal) expanded per deal."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from planner._lazy_re import LazyRe
from planner.analysis import CUES, DATIVE, HEADED_THING, KEPT_COLON, TEMPLATE_ALONE, Clause, analyse, head_of
from planner.context import Ask, BuildContext
from planner.dates import extract_moment
from planner.directory import Entity
from planner.intents import WRITE_OPS
from planner.intents.models import ApplyTemplate, CreateIssue, CreateProject, UpdateDeal, priority_name
from planner.numbers import number_from_words
from planner.resolve import best, find_mentions, keys_for, match_words
from planner.rules import rule
from planner.rules._common import (
    COUNT_WORD,
    FIELD_OF_A_TASK,
    ORDINAL_ITEM,
    TAKEN_BY_ME,
    answered_record,
    clean_title,
    colleague_asked_for,
    find,
    priority_of,
    quoted,
    says_nothing,
    strip_spans,
    the_companys_one_deal,
)
from planner.rules._linear_common import (
    ADD_EXISTING,
    COMMENT_ON_AN_ISSUE,
    EVERY_TASK_TO,
    INTO_THE_NEW,
    LABEL_ON,
    PRIORITY_MADE,
    STATE_PHRASES,
    dictated_list,
    every_task_to,
    find_user,
)
from planner.rules.attio import deal_stage
from planner.text import IN_QUOTES, as_infinitive, is_imperative, is_infinitive

__all__ = ["create_issue", "create_project", "template"]


def _template_key(clause: Clause, ctx: BuildContext) -> str | None:
    for key, tpl in ctx.config.get("templates", {}).items():
        words = {key, str(tpl.get("title_ru", ""))}
        probe = keys_for(" ".join(words))
        if any(k.lemmas & p.lemmas or k.text == p.text for k in clause.keys for p in probe):
            return str(key)
    return None


async def _deals_for(clause: Clause, ctx: BuildContext) -> list[Entity]:
    """Every deal a template is asked for: "онбординг для Ромашки и Альфа-Лизинга" is two deals.
    Each distinct name in the text is one deal; a name that fits several deals is a question."""
    if ctx.memory.get("deal"):
        return [ctx.memory["deal"]]
    every = await find(ctx, clause, "deal")
    if not [m for m in every if m.score >= 0.9]:
        every = await find(ctx, clause, "deal", text=str(ctx.memory.get("full_text", clause.text)))
    mentions = [m for m in every if m.score >= 0.9]
    taken: set[int] = set()
    deals: list[Entity] = []
    for n, m in enumerate(mentions):
        if m.positions & taken:
            continue
        # the deals these words fit about as well ("for Acme": Acme Corp's and Acme Logistics')
        group = best([x for x in every if x.positions == m.positions or x.positions & m.positions])
        deal = ctx.choose(
            f"deal{n}" if n else "deal",
            "deal",
            clause.text,
            group,
            ctx.t("Для какой сделки?", "For which deal?"),
        )
        taken |= m.positions
        if deal is not None and deal not in deals:
            deals.append(deal)
    if len(deals) == 1:
        ctx.memory["deal"] = deals[0]
    return deals


async def _project(ctx: BuildContext, key_or_name: str | None) -> Entity | None:
    if not key_or_name:
        return None
    projects = await ctx.directory.projects()
    mentions = find_mentions(keys_for(key_or_name), projects)
    top = best(mentions)
    return top[0].entity if len(top) == 1 else None


_IN_A_TEAM_QUOTED = LazyRe(r"\b(?:в|во|in|into)\s+(?P<key>[A-Z]{2,5})\s*[:,—–-]?\s*[«\"“]")
_TEAM_PHRASE = LazyRe(
    r"(?:(?:в|для|у|на)\s+команд[аеуы]\s+|(?:in|for|to|on)\s+(?:the\s+)?team\s+)([\w-]+(?:\s+[A-ZА-Я][\w-]+)?)"
    r"|(?:in|for|to)\s+(?:the\s+)?([\w-]+(?:\s+[A-Z][\w-]+)?)\s+team\b|\bкоманда\s+([\w-]+)",
    re.IGNORECASE,
)


async def _team(clause: Clause, ctx: BuildContext, fallback_key: str | None) -> Entity | None:
    """The team a request names (by key, by name in any case, "в команде X"), else the default team.
    A team phrase naming no team is a question, never a silent default."""
    teams = await ctx.directory.teams()
    head = clause.text.split(":", 1)[0] if clause.after_colon is not None else clause.text
    scene = str(ctx.memory.get("full_text", "")).split(":", 1)
    if len(scene) == 2 and clause.text.strip() not in scene[0] and not _TEAM_PHRASE.search(head):
        said = [m for m in find_mentions(keys_for(scene[0]), teams) if m.score >= 0.9]
        keyed = [t for t in teams if re.search(rf"\b{re.escape(str(t.extra.get('key')))}\b", scene[0])]
        if (keyed or said) and not any(
            re.search(rf"\b{re.escape(str(t.extra.get('key')))}\b", head) for t in teams
        ):
            return keyed[0] if keyed else said[0].entity  # "Two things for Design: create an issue …"
    for t in teams:  # exact key ("DES", "ENG") first: keys are short and fuzzy matching would misfire
        if re.search(rf"\b{re.escape(str(t.extra.get('key')))}\b", head):
            return t
    named = [m for m in await find(ctx, clause, "team", text=head) if m.score >= 0.9]
    if named:
        return named[0].entity
    m = _TEAM_PHRASE.search(head)
    if m:
        wanted = next(g for g in m.groups() if g)
        # «в команде маркетинга задачу …»: the second word is what to make, not the team's
        wanted = re.sub(r"(?i)\s+(?:задач\w*|тикет\w*|таск\w*|issue|ticket|task)$", "", wanted)
        found = find_mentions(keys_for(wanted), teams)
        if found and found[0].score >= 0.5:
            return found[0].entity
        raise _no_such_team(ctx, wanted, teams)
    answered = ctx.answer("team")
    if answered:
        return next((t for t in teams if t.id == answered), None)
    place = _IN_A_PLACE.search(head)
    if place and not await _a_known_place(clause, ctx, place.group(1)):
        # "create an issue in Marketing: …": a place we have no team, project or record by that name
        raise _no_such_team(ctx, place.group(1), teams)
    return next((t for t in teams if t.extra.get("key") == fallback_key), teams[0] if teams else None)


def _no_such_team(ctx: BuildContext, wanted: str, teams: list[Entity]) -> Ask:
    """The question for a team said that Linear does not have: which team instead, never a silent default."""
    return ctx.ask(
        "team",
        ctx.t(
            f"Команды «{wanted}» в Linear нет. В какую команду?",
            f"There is no Linear team '{wanted}'. Which team?",
        ),
        choices=[(t.name, t.id) for t in teams[:5]],
        free_text=False,
    )


# "an issue in Marketing", «задачу в Маркетинг»: where it goes, said by a capitalised name
_IN_A_PLACE = LazyRe(
    r"(?i:\b(?:issue|ticket|bug|task|задач\w*|тикет\w*|таск\w*|баг\w*)\s+(?:in|into|в|во))\s+"
    r"(?!(?i:linear|attio|crm|the\b|backlog|todo|progress|review|done|бэклог|работ))([A-ZА-ЯЁ][\w-]+)\b"
)


async def _a_known_place(clause: Clause, ctx: BuildContext, word: str) -> bool:
    """A team, project, label, state, person or CRM record goes by this word (or it is a key or an id)."""
    if re.fullmatch(r"[A-Z]{2,5}-\d+", word):
        return True
    if re.fullmatch(r"[A-Z]{2,5}", word) and word in {
        str(t.extra.get("key")) for t in await ctx.directory.teams()
    }:
        return True  # (a key no team has — "new issue in OPS" — is asked about, never a default team)
    for kind in ("team", "project", "label", "company", "deal", "person", "user"):
        if any(m.score >= 0.5 for m in await find(ctx, clause, kind, text=word)):
            return True
    return False


_REMIND_SOMEONE = LazyRe(
    r"\s*(?:(?i:please)\s+)?(?i:remind|напомни)\s+([A-ZА-ЯЁ][a-zа-яё]+)\s+(?i:to|что|чтобы)\b"
)
_TEMPLATE_WORD = LazyRe(r"(?i)\b(?:template|playbook|checklist|шаблон\w*|плейбук\w*|чек-?лист\w*)\b")


_LABELS_SAID = LazyRe(r"(?i)\blabels?\b|\bметк[иуа]\b|\bлейбл\w*")
_WANTED_BY_THEM = LazyRe(
    r"(?i)\b(?:wants?|wanted|would\s+like|хочет|хотят|хотели|просит|просят)\s+(?:the\s+|their\s+|to\s+start\s+)?"
    r"(?:onboarding|renewal|онбординг\w*|продлени\w*)"
)


# "…but don't create the quote one yet", "except the SSO task", «без задачи про SSO», «кроме тренинга»
_LEFT_OUT = (
    r"(?i)\b(?:(?:but\s+)?(?:don'?t|do\s+not)\s+(?:create|add|make|include)|except(?:\s+for)?|excluding|without|skip|minus|"
    r"(?:но\s+)?не\s+(?:создавай|заводи|делай|добавляй)|кроме|без)\s+(?:the\s+|a\s+)?"
    r"(?:задач\w*\s+(?:про\s+|по\s+)?)?([\w-]+(?:\s+(?!(?:one|task|issue|yet|пока)\b)[\w-]+)?)(?=\s+(?:one|task|issue|задач\w*)\b|\s+(?:yet|пока|for\s+now)\b|\s*[.,;!]|\s*$)"
)
_LEFT_OUT_OF_TEMPLATE = LazyRe(_LEFT_OUT)
_LEFT_OUT_WITH_NOUN = LazyRe(_LEFT_OUT + r"(?:\s+(?:one|task|issue|задач\w*)\b)?")


# «поставь срок на пятницу задаче про API», «… для задачи про API»: a field set on an issue there is
_TO_THE_ISSUE = LazyRe(
    r"(?i)(?<![\w-])(?<!по\s)(?<!отдельной\s)(?:задаче|тикету|таске|задачке)(?![\w-])"
    r"|(?<=\bсрок\b)[^.;!?]*\b(?:для|у|по)\s+(?:задачи|тикета|таски)\b"
)
_INTO_THE_ISSUE = LazyRe(
    r"(?i)\s*(?:добавь\w*|допиши\w*|add)\s+(?:в|во|к|to|into)\s+(?:the\s+)?(?:задач[уиеа]|тикет\w*|issue|ticket)\b"
    r"[^:]{1,80}?\b(?:описани\w*|description|комментари\w*|коммент\w*|comment|метк\w*|label)"
)
_A_NEW_ONE = LazyRe(r"(?i)(?<![\w-])(?:задачу|задача|тикет|таску|задачку|нов\w+|issue|ticket|task)(?![\w-])")


# "Globex pilot is Won!", «сделка выиграна»: the deal's outcome, said as a stage before what to do next (not
# "Ромашка signed the contract", which the template's own reading answers)
_OUTCOME_TOLD = LazyRe(r"(?i)\b(?:is|→|->|=>|—)\s*(?:won|lost)\b|\b(?:выиграна|проиграна)\b")


_NEW_DEAL_SAID = LazyRe(
    r"(?i)\b(?:созда\w*|завед\w*|заведи|добавь|create|add|open|new|нов\w+)\s+(?:an?\s+|new\s+|нов\w+\s+)?(?:сделк[уа]|deal)\b"
)
_A_DEAL_NAMED_SO = LazyRe(
    r"(?i)\b(?:сделк\w*|deal)\s+(?:под\s+названием\s+|called\s+|named\s+)?[«\"“']?(?:[\w-]+\s+){0,3}"
    r"(?:renewal|продлени\w*|onboarding|онбординг\w*)\b|\b(?:под\s+названием|called|named)\s+[«\"“']?(?:[\w-]+\s+){0,3}"
    r"(?:renewal|продлени\w*|onboarding|онбординг\w*)\b"
)


# "run the after-demo template", «примени шаблон «после демо»»: a template asked for by that word
_RUN_A_TEMPLATE = LazyRe(
    r"(?i)\b(?:run|apply|use|start|launch|kick\s+off|запусти\w*|примени\w*|использу\w*)\s+(?:the\s+|our\s+)?"
    r"(?:[\w«»\"'-]+\s+){0,3}?(?:template|playbook|шаблон\w*|плейбук\w*)\b"
    r"|\b(?:по|from|using|with)\s+(?:the\s+)?(?:[\w«»\"'-]+\s+){0,3}?(?:шаблону|template|playbook)\b"
)


def _which_template(ctx: BuildContext) -> Exception:
    """The templates there are, as the question's choices."""
    templates = ctx.config.get("templates", {})
    names = [
        (str(tpl.get("title_ru") if ctx.lang == "ru" else key) or key, str(key))
        for key, tpl in templates.items()
    ]
    listed = ", ".join(n for n, _ in names)
    return ctx.ask(
        "template",
        ctx.t(
            f"Такого шаблона нет. Есть: {listed}. Какой применить?",
            f"There is no such template. I have: {listed}. Which one?",
        ),
        choices=names,
    )


_MOVED_THEN_TEMPLATE = LazyRe(
    r"(?i)^(?P<move>.*?\b(?:mark|move|set|put|переведи|поставь|двигай)\b[^,.;:]{0,40}?\b(?:won|lost|выигран\w*|проигран\w*)\b)"
    r"\s*[,;]?\s*(?:(?:and|и|then|потом)\s+)?(?P<rest>\S.*)$"
)
_TEMPLATE_NAME_RX = LazyRe(r"(?i)\b(?:onboarding|онбординг\w*|renewal|продлени\w*)\b")
_TEMPLATE_STARTED = LazyRe(
    r"(?i)^(?:please\s+)?(?:kick\s+off|start|run|launch|apply|trigger|set\s+up|запусти\w*|заведи|создай|стартуй|примени)\b"
)


_SOMEONE_WANTS = LazyRe(
    r"(?i)^\s*(?!(?:i|we|я|мы)\b)[\w-]+(?:\s+[\w-]+)?\s+(?:wants?|would\s+like|needs?|asks?\s+for|хочет|хотят|просит|просят)\s"
)


@rule(20, writes=True)
async def template(clause: Clause, ctx: BuildContext) -> bool:
    # the template word must qualify the tasks ("задачи онбординга", "the renewal tasks"), not sit in
    # an explicit title after a colon ("Create an issue: update the onboarding docs")
    sentences = re.split(r"(?<=[.!?])\s+(?=\S)", clause.text.strip())
    naming = [x for x in sentences if _TEMPLATE_WORD.search(x)]
    if len(sentences) > 1 and len(naming) == 1:
        # "…Max closed the renewal but we never did the follow-ups. Run the renewal template for …": the
        # sentence that asks for the template is read alone (what the others told closes nothing)
        if not await template(analyse(naming[0], ctx.now), ctx):
            return False
        for told in sentences:  # "Globex pilot closed won! Онбординг по шаблону": the outcome is a change too
            if told is not naming[0] and _OUTCOME_TOLD.search(told) and not told.rstrip().endswith("?"):
                try:
                    await deal_stage(analyse(told, ctx.now), ctx)
                except Ask:
                    ctx.notes.append(
                        ctx.t(f"Не понял, что сделать с «{told}».", f"I didn't act on '{told}'.")
                    )
        return True
    moved = _MOVED_THEN_TEMPLATE.match(clause.text)
    if moved and _TEMPLATE_NAME_RX.search(moved["rest"]) and _TEMPLATE_STARTED.match(moved["rest"]):
        # "globex signed uh mark the deal won kick off onboarding": the outcome asked for too, said before it
        marks = (len(ctx.intents), len(ctx.actions))
        try:
            if await template(analyse(moved["rest"], ctx.now), ctx):
                await deal_stage(analyse(moved["move"], ctx.now), ctx)
                return True
        except Ask:  # (the template's deal not said in its own words: the clause is read whole, below)
            del ctx.intents[marks[0] :], ctx.actions[marks[1] :]
    head = clause.text.split(":", 1)[0] if clause.after_colon is not None else clause.text
    if (
        _SOMEONE_WANTS.match(clause.text)
        and not clause.commands()
        and ctx.memory.get("clauses", 1) > ctx.clause_index + 1
    ):
        return (
            False  # "Initech wants a kickoff for the 2027 renewal: schedule …": what they want, then the asks
        )
    if clause.has("note") and re.search(r"(?i)\b(?:that|что)\b", head):
        return False  # "add a note to his record that he's worried about onboarding": the note's words
    if clause.has("note") and re.search(
        r"(?i)\b(?:note|заметк\w*)\s+(?:['\"«“]\s*)?(?:[\w-]+\s+){0,3}?" + _TEMPLATE_NAME, head
    ):
        return False  # "Initech: add note 'renewal signed, PO 4471'": the note's words name the template
    key = _template_key(head_of(clause, ctx.now), ctx)
    # "run the renewal playbook for Initech", «запусти шаблон онбординга»: the template said as one
    named_as_template = bool(_TEMPLATE_WORD.search(head))
    if key is None and named_as_template and _RUN_A_TEMPLATE.search(head):
        # "run the after-demo template for Acme": a template nobody has is asked about, never guessed
        key = _template_key(analyse(ctx.answer("template") or "", ctx.now), ctx)
        if key is None and _template_key(analyse(str(ctx.memory.get("full_text", "")), ctx.now), ctx):
            return False  # "make renewal tasks for Acme, use template": the template was named in the message
        if key is None:
            raise _which_template(ctx)
    if (
        key is not None
        and clause.identifiers
        and not named_as_template
        and not re.search(r"(?i)\b(?:запуст\w*|стартани\w*|kick\w*|launch\w*|spin\s+up|start|run)\b", head)
    ):
        return False  # "Acme Corp onboarding call (CS-12) moved — new due date Dec 2": an issue's title word
    if (
        key is not None
        and not clause.has("task", "issue", "linear")
        and not named_as_template
        # («запусти продление для инитека», "kick off onboarding for Acme": a process started, no deal's name)
        and not re.search(r"(?i)\b(?:запуст\w*|стартани\w*|kick\w*|launch\w*|spin\s+up|start)\b", head)
        and await _in_a_deal_name(clause, ctx, key)
    ):
        return False  # "Set Initech renewal to Won": the word is the deal's name, not the template
    # "… except the training task": that task is left out, not asked for
    kept = _LEFT_OUT_WITH_NOUN.sub(" ", head)
    singular = re.search(
        r"\b(an?|one|одну|один)\s+(?:\w+\s+)?(issue|task|ticket|задач[уа])\b", kept, re.I
    ) or (
        re.search(r"\b(issue|task|ticket|checklist|задач[уа]|тикет)\b", kept, re.I)
        and not re.search(r"\b(issues|tasks|tickets|задачи|задач|тикеты|checklist)\b", kept, re.I)
    )  # "close the onboarding issue" is one issue, not the onboarding template
    # («заведи задачу продления по шаблону»: the template's — "Create an issue «Шаблон письма …»" is one issue)
    singular = singular and not re.search(r"(?i)\b(?:по\s+шаблону|template)\b", IN_QUOTES.sub(" ", head))
    every_task = bool(
        EVERY_TASK_TO.search(clause.text)
    )  # ("…, assign both tasks to Max": the tasks', said after)
    if (
        clause.has("complete", "delete", "archive", "comment", "remind")
        or clause.has("assign")
        and not every_task
    ):
        return False  # "Put a reminder in for Max to call … about the renewal invoice": one reminder
    if LABEL_ON.search(clause.text) or ADD_EXISTING.search(clause.text) or _LABELS_SAID.search(clause.text):
        return False  # «добавь метку onboarding к задаче про …», "add onboarding and security labels": labels
    if _WANTED_BY_THEM.search(head):
        return False  # "Umbrella wants onboarding to start before the holidays": what they want, told
    if re.search(
        r"(?i)\b(?:onboarding|онбординг\w*|renewal|продлени\w*)\s+(?:invoice|contract|quote|price|pricing|docs?|"
        r"deck|email|счёт\w*|счет\w*|договор\w*|кп|доки|документ\w*|письм\w*)\b",
        clause.text,
    ):
        return False  # "the renewal invoice": a thing of that name, not the template
    if clause.has("project") and clause.creates() and not clause.has("task", "issue"):
        return False  # «создай проект в linear Онбординг enterprise»: the word names the new project
    if (
        key is not None
        and _TEMPLATE_WORD_IN_A_NAME.search(clause.text)
        and any(
            m.score >= 0.9 and _TEMPLATE_WORD_IN_A_NAME.search(m.entity.name)
            for m in await find(ctx, clause, "project")
        )
    ):
        return False  # "put it in the Customer Onboarding project": the word is the project's name
    if _NEW_DEAL_SAID.search(clause.text) and _A_DEAL_NAMED_SO.search(clause.text):
        return False  # «заведи сделку под названием Umbrella renewal»: the word names the new deal
    if re.search(
        r"(?i)\b(?:onboarding|онбординг\w*|renewal|продлени\w*)\s+(?:call|meeting|session|звон\w*|созвон\w*|встреч\w*)\b",
        clause.text,
    ):
        return False  # "prepping the Acme Corp onboarding call": a meeting of that name, not the template
    if re.search(r"(?i)\b(?:календар\w*|calendar)\b", clause.text) or (
        clause.has("meeting", "schedule", "block")
        and (clause.moment.at is not None or clause.duration is not None)
        and not clause.has("task", "issue", "linear")
    ):  # "schedule an hour with Li Wei … at eleven, onboarding kickoff": the event's name
        return False  # «создай в календаре «Онбординг Acme» 3 декабря в 14:00»: an event named after it
    explicit_list = clause.after_colon is not None and "," in clause.after_colon
    # "Globex pilot → won + onboarding": the template's word alone, after a deal's change — its tasks for that deal
    bare = TEMPLATE_ALONE.fullmatch(clause.text) is not None and any(
        isinstance(x, UpdateDeal) for x in ctx.intents
    )
    asked = bare or (
        re.search(r"\b(need|нужн\w*|надо|kick\w*|запуст\w*|start|spin|run|launch)\b", head, re.I)
        or clause.has(
            "linear", "task", "issue"
        )  # "renewal tasks for Initech", "онбординг для Initech в Linear"
    )
    if (
        key is None
        or singular
        or explicit_list
        or not (clause.has("create", "put") or asked or named_as_template)
    ):
        return False
    if clause.has("query") and not clause.commands() or clause.text.rstrip().endswith("?"):
        return False
    deals = await _deals_for(clause, ctx)
    if not deals and (picked := await answered_record(ctx, "deal", ("deal",))) is not None:
        deals = [picked[1]]  # the deal picked when asked
    if not deals:
        raise ctx.ask(
            "deal",
            ctx.t("Для какой сделки создать задачи?", "Which deal are the tasks for?"),
            choices=[(d.name, d.id) for d in (await ctx.directory.deals())[:5]],
        )
    named_team = await _named_team(clause, ctx)
    tasks = ctx.config.get("templates", {}).get(key, {}).get("tasks", [])
    skip = [  # (only words that name one of its tasks: «…без исполнителя» leaves out no task)
        said
        for m in _LEFT_OUT_OF_TEMPLATE.finditer(clause.text)
        # (planner.actions.templates checks the same when the intent is built; importing it here would
        # load the action builders out of their lazy order)
        if any(
            match_words(keys_for(said := m.group(1).strip()), keys_for(f"{t['key']} {t['title']}"))
            for t in tasks
        )
    ]
    # "Renewal playbook for Initech, assign both tasks to Max, due Dec 10": whom (and when) for every task
    named = every_task_to(clause.text)
    assignee = await find_user(clause, ctx, named) if named else None
    due = (
        clause.moment.day.isoformat()
        if clause.moment.day and re.search(r"(?i)\b(?:due|deadline|срок\w*|дедлайн\w*)\b", clause.text)
        else None
    )
    keys = [key]
    if both := _TWO_TEMPLATES.search(head):  # «задачи онбординга и продления»: each template's tasks
        keys = list(dict.fromkeys(k for w in both.groups() if (k := _template_key(analyse(w, ctx.now), ctx))))
    for deal in deals:
        for each in keys:
            await ctx.emit(
                ApplyTemplate(
                    template=each,
                    deal=deal.name,
                    team=named_team.name if named_team else None,
                    assignee=assignee.name if assignee else None,
                    due=due,
                    skip=skip or None,
                ),
                deal=deal,
                team=named_team,
            )
    return True


# "from this email", «по этому письму»: where an issue comes from, no title
_FROM_THE_PASTED = LazyRe(
    r"(?i)(?:from|based\s+on|off)\s+(?:this|that|the)\s+(?:email|e-mail|message|thread|letter|report|chat)|"
    r"(?:из|по)\s+(?:этого|этому|того|тому)\s+(?:письм\w+|сообщени\w+|тред\w*)"
)
_TITLE_SAID = LazyRe(r"(?i)\b(?:title|название|заголовок)\s*:\s*[\"«“']([^\"»”']{3,200})[\"»”']")
_EACH_QUOTED = LazyRe(r"«([^«»]{2,})»|\"([^\"]{2,})\"|(?<!\w)'([^']{2,})'(?!\w)")
_QUOTES_JOINED = LazyRe(r"(?i)[»\"']\s*(?:,|\band\b|\bи\b|&)\s*[«\"']")
_TEMPLATE_NAME = r"(?:onboarding|онбординг\w*|renewal|продлени\w*)"
_TEMPLATE_WORD_IN_A_NAME = LazyRe(rf"(?i)\b{_TEMPLATE_NAME}\b")
_TWO_TEMPLATES = LazyRe(rf"(?i)\b({_TEMPLATE_NAME})\s*(?:\band\b|\bи\b|&|\+|,)\s*({_TEMPLATE_NAME})\b")


async def _named_team(clause: Clause, ctx: BuildContext) -> Entity | None:
    """A team the request names for a template's tasks ("…в команде DES"); None keeps the template's."""
    teams = await ctx.directory.teams()
    head = clause.text.split(":", 1)[0] if clause.after_colon is not None else clause.text
    for t in teams:
        if re.search(rf"\b{re.escape(str(t.extra.get('key')))}\b", head):
            return t
    if _TEAM_PHRASE.search(head) or [m for m in find_mentions(keys_for(head), teams) if m.score >= 0.9]:
        return await _team(clause, ctx, None)
    return None


_PLACE_ONLY = LazyRe(
    r"(?i)(?:в|во|на|для|in|for|to|into|at)\s+(?:the\s+|our\s+)?[^\W\d_][\w-]*(?:\s+(?:team|команд\w*))?"
)
_LABEL_PHRASE = LazyRe(
    r"[,\s]*(?:\b(?:with\s+(?:the\s+)?|с\s+))?\b(?:label(?:ed|led|s)?|tag(?:ged|s)?|метк\w*|лейбл\w*|тег\w*)\s*[:—-]?\s*"
    r"(?:(?:it|them|this|that|её|ее|его|их)\s+(?:as\s+|with\s+)?)?"  # "Label it bug and customer-request"
    r"([\w-]+(?:\s*(?:,|\+|&|and|и)\s*[\w-]+)*)",
    re.IGNORECASE,
)
# "…, security label", "with the security label" (the words that carry it leave the title with it)
_LABEL_AFTER = LazyRe(
    r"[,\s]*(?:\b(?:with|and)\s+(?:the\s+|a\s+)?)?\b([\w-]+)\s+(?:label|tag|метк[аиу])\b", re.IGNORECASE
)
_LABEL_WORDS = {"баг": "bug", "ошибка": "bug", "фича": "feature", "безопасность": "security", "документация": "docs",
                "доки": "docs", "онбординг": "onboarding"}  # fmt: skip


def _as_words(label: str) -> str:
    """A label's name as said: "customer-request" is also "customer request"."""
    return r"\b" + r"[\s-]".join(re.escape(w) for w in label.split("-")) + r"\b"


# what each issue of a list is for: «по задаче на звонок каждому клиенту», "one issue per customer for the SSO notice"
_EACH_FOR = LazyRe(
    r"(?i)\bпо\s+(?:одной\s+)?задаче\s+на\s+([^\s,:]+(?:\s+[^\s,:]+)?)\s+(?:кажд|для\s+кажд)"
    r"|\bone\s+(?:issue|task|ticket)\s+per\s+\w+\s+(?:to|for)\s+([^,:]{3,40}?)\s*$"
)
_QUOTED_THEN_FIELDS = LazyRe(r"\s*(['\"«“][^'\"«»“”]{3,}['\"»”])\s*((?:[,;—–-]|(?i:in|into|в)\s).*)$", re.S)


async def _bare_fields_named(body: str, ctx: BuildContext) -> str:
    """ "'Rate-limit the search API' — security + feature, high, Max, Q1 Launch": after a quoted title, a
    field said by its value alone — labels, a project — is named, so it is read as that field (what is
    neither stays as said, and is named back if nothing reads it)."""
    m = _QUOTED_THEN_FIELDS.match(body)
    if not m:
        return body
    labels = {lbl.name.lower() for lbl in await ctx.directory.labels()}
    projects = {p.name.lower(): p.name for p in await ctx.directory.projects()}
    out = []
    for part in re.split(r"\s*[,;]\s*", m.group(2).strip(" ,;—–-")):
        words = [w.lower() for w in re.split(r"\s*(?:\+|&|/|\band\b|\bи\b)\s*", part) if w]
        if words and all(w in labels for w in words):
            out.append("label " + " + ".join(words))
        elif (named := re.sub(r"(?i)^(?:in|into|в)\s+(?:the\s+)?", "", part).lower()) in projects:
            out.append(f"project {projects[named]}")  # ("'dark mode tokens' in Website Redesign")
        else:
            out.append(part)
    return f"{m.group(1)}, {', '.join(out)}"


def _said_labels(text: str, labels: dict[str, Entity]) -> tuple[list[Entity], str]:
    """ "…, label docs", "с меткой bug": the labels named, and the title without them."""
    found: list[Entity] = []
    for m in _LABEL_AFTER.finditer(text):  # "…, security label"
        name = _LABEL_WORDS.get(m.group(1).lower(), m.group(1).lower())
        if name in labels:
            found.append(labels[name])
            text = text.replace(m.group(0), " ")
    for name, label in labels.items():  # "label customer request": a label of several words, said as words
        if "-" in name and (
            said := re.search(
                r"(?i)[,\s]*(?:\b(?:with\s+(?:the\s+)?|с\s+))?\b(?:label\w*|tag\w*|метк\w*|лейбл\w*|тег\w*)\s*[:—-]?\s*"
                + _as_words(name),
                text,
            )
        ):
            found += [label] if label not in found else []
            text = text.replace(said.group(0), " ")
    for m in _LABEL_PHRASE.finditer(text):
        names = [
            _LABEL_WORDS.get(w.lower(), w.lower())
            for w in re.split(r"\s*(?:,|\+|&|\band\b|\bи\b)\s*", m.group(1))
        ]
        hits = [labels[n] for n in names if n in labels]
        if hits and len(hits) == len(names):
            found += [h for h in hits if h not in found]
            text = text.replace(m.group(0), " ")
    return found, text


async def _in_a_deal_name(clause: Clause, ctx: BuildContext, key: str) -> bool:
    """The template's word is part of a deal named in full ("Initech renewal")."""
    words = keys_for(f"{key} {ctx.config.get('templates', {}).get(key, {}).get('title_ru', '')}")
    for m in await find(ctx, clause, "deal"):
        said = [clause.keys[i] for i in m.positions if i < len(clause.keys)]
        if m.score >= 0.9 and any(k.lemmas & w.lemmas or k.text == w.text for k in said for w in words):
            return True
    return False


def _items(text: str) -> list[str]:
    if (
        len(re.findall(r"(?:^|\s)\(?\d{1,2}\)\s", text)) >= 2
    ):  # "1) выдать доступ в Attio 2) выдать доступ в Linear", "(1) … (2) …"
        parts = re.split(r"(?:^|\s)\(?\d{1,2}\)\s+", text)
    else:
        parts = re.split(r"\s*(?:,|;|\n|\s+и\s+|\s+and\s+)\s*", text)
    items = [p.strip(" .-—•;,") for p in parts if p.strip(" .-—•;,")]
    # "…: 'A' and 'B', both due Dec 9": "both" counts them, it is no third item; quotes only mark a title
    # "…, both assigned to Max", «…, оба на меня»: what is said of them all is no item either
    items = [re.sub(r"^['\"«“](.+)['\"»”]$", r"\1", p) for p in items if not _COUNTS_THEM.match(p)]
    # "one for the new app icon and one for the splash screen": "one for" counts, the rest names it
    return [_ONE_FOR.sub("", p) or p for p in items]


_ISSUES_SAID = LazyRe(r"(?i)\b(?:задачи|тикеты|таски|баги|issues|tasks|tickets|bugs)\b")
# six words or more, none a comma, a semicolon or "and": a list said in one breath, or one long title
_UNSEPARATED = LazyRe(r"(?i)(?![^,;]*[,;])(?!.*\b(?:и|and)\b)\s*(?:\S+\s+){5,}\S+\s*")
_COUNTS_THEM = LazyRe(r"(?i)(?:both|all|each|all\s+of\s+them|оба|обе|все|всё|каждая|каждый)(?:\s|$)")
_ONE_FOR = LazyRe(
    r"(?i)^(?:one|another|одн[ауо]|ещё\s+одн[ауо]|еще\s+одн[ауо])\s+(?:for|about|on|to|про|для|по|на)\s+(?:the\s+)?"
)


_ABOUT_IT = LazyRe(
    r"(?i)\s*(?:please\s+)?(?:move|assign|close|archive|delete|rename|set|mark|put|push|bump|give|переведи|назначь|закрой|"
    r"удали|поставь|перенеси|отдай)\s+(?:it|this|that|them|её|ее|его|их)\b"
)
_COUNTED = LazyRe(ORDINAL_ITEM + r"\s*[:—–-]?\s*", re.IGNORECASE)  # «… первая X вторая Y»: split on them
_TASK_START = LazyRe(
    rf"^\s*(?:(?:в|in)\s+[\w-]+\s+|(?:туда|в\s+него|в\s+нём|в\s+нем)\s+)?(?:(?i:{DATIVE})\s+)?(?:нов\w+\s+)?(?:(?-i:[A-Z]{{2,5}})\s+(?=(?i:ticket|issue|bug)\b))?(задача|задачу|таску|тикет|task|todo|issue|ticket|баг|bug)\b(?:\s+(?:для|for)\s+[\w-]+)?\s*[:\-—]?",
    re.IGNORECASE,
)
_DASHED = LazyRe(
    rf"(?i)^\s*(?:(?:в|in|по|for)\s+[\w-]+\s+)*(?:(?:{DATIVE})\s+)?(?:нов\w+\s+)?(?:задачу|задача|таску|тикет|todo|task|ticket)\b[^—–:?]{{0,40}}?"
    r"(\s[—–]\s)(?=\S)"
)
_ASSIGNEE = LazyRe(  # ("…' → Anna, due Dec 3": the arrow to a colleague in a new issue's fields)
    r"(?:(?<=\s)(?:→|->)|\b(?:(?i:assign)(?:ed)?(?:\s+it)?(?:\s+to)?|(?i:give)(?:\s+it|\s+this)?\s+to|назначь(?:\s+её|\s+ее|\s+его)?\s+на|назначь(?=\s+[А-ЯЁ])|(?i:исполнитель|assignee|owner)\s*[:—-]?|"
    r"поручи|(?i:постав\w*|завед\w*|заводи|созда\w*|добав\w*|накин\w*|закин\w*)(?=\s+\S+\s+(?:задач|таск|тикет|баг|две|три|пару|"
    r"четыре|нескольк))|(?i:задач\w*|таск\w*)(?=\s+[^\W\d_]+[уюеи]\b)|для|for|на|on|(?i:задач\w*|таск\w*|task|todo)(?=\s+[^\W\d_][\w-]+\s*[:—–-])))\s+"
    r"(меня|мне|me|myself|себя|(?i:я|i)\b|[^\W\d_][\w-]+)",
)  # a name typed in lower case ("на олега") counts only if it is a user: find_user says


_MINE = LazyRe(
    r"(?i)(?:[,;(]|\s[—–-])\s*(?:all\s+(?:of\s+them\s+)?)?(?:mine|me|myself|на\s+меня|мне|мои|все\s+мои|все\s+на\s+меня)\s*(?=[,;)]|$)"
)
_FOR_WHOM = LazyRe(r"(?i)(?:for|для|на|on)\b")
# «задачку Пете …», «задачу на Петю», «для Пети»: a person a new issue is for, named with a capital
_FOR_SOMEONE = LazyRe(
    r"(?:(?i:задач\w*|таск\w*|тикет\w*)\s+|(?i:на|для)\s+)([А-ЯЁ][а-яё]{1,}(?:[уюеи]|[ая]))\b(?!\s+[А-ЯЁ])"
)


async def _known_name(clause: Clause, ctx: BuildContext, word: str) -> bool:
    """The word names a colleague, a CRM record, a team or a project: not a stranger."""
    if await find_user(clause, ctx, word) is not None:
        return True
    for kind in ("member", "person", "company", "team", "project", "deal"):
        if [m for m in await find(ctx, clause, kind, text=word) if m.score >= 0.5]:
            return True
    return False


_DATIVE_FIRST = LazyRe(
    rf"(?i)^\s*(?:(?:и|а|ну|короче|ещё|еще|также)[,\s]+)*({DATIVE})\s+(?=(?:новую\s+)?(?:задач|таск|тикет))"
    # «Linear: олегу — поднять демо-стенд…»: to whom, a dash, then what to do
    rf"|^\s*(?:(?:и|а|ну|короче)[,\s]+)*([^\W\d_]+(?:у|ю|е))(?:\s+(?:в|во)\s+(?:linear|линеар\w*|линейк\w*))?"
    r"\s*[—–:-]\s+(?=[^\W\d_])"
)


_DATIVE_BEFORE_TODO = LazyRe(
    r"(?i)\b(?:задач\w*|таск\w*|тикет\w*)\s+(?:(?:в|во)\s+[\w-]+\s+)?([^\W\d_]+(?:у|ю|е))\s+([^\W\d_]+)"
)


async def new_issue_assignee(clause: Clause, ctx: BuildContext) -> tuple[Entity | None, str]:
    """The user a new issue is for, and the words that said so (left out of the title)."""
    full = str(ctx.memory.get("full_text", clause.text))
    mine = _MINE.search(clause.text)  # "…' — me, medium", "new ENG issues, all mine, …": the person asking
    if mine:
        me = await find_user(clause, ctx, "me")
        if me is not None:
            return me, mine.group(0).strip(" ,;")
    dative = _DATIVE_FIRST.match(clause.text)  # «мне задачу в линеаре …», «олегу таску …»
    if dative:
        said = dative.group(1) or dative.group(2)
        found = await find_user(clause, ctx, said)
        if found is not None:
            return found, said
    # «заведи задачу в линеар олегу проверить интеграцию …»: whom, said in the dative before what to do
    told = _DATIVE_BEFORE_TODO.search(clause.text)
    if told and is_infinitive(told.group(2).lower()):
        found = await find_user(clause, ctx, told.group(1))
        if found is not None:
            return found, told.group(1)
    at = full.find(clause.text.strip())
    after = full[at + len(clause.text.strip()) :] if at >= 0 else full  # (not a clause before it: that one's)
    # ("поставь Максу задачу в линейке, сделать демо …": the clause that introduced the task is this one's too)
    told_before = ctx.memory.get("task_said") is not None
    for source in (
        (clause.text, after, full) if told_before else (clause.text, after)
    ):  # "…, assign it to Max"
        for m in _ASSIGNEE.finditer(source):
            if source is not clause.text and _FOR_WHOM.match(m.group(0)):
                continue  # "…, and add a CRM task for me": another clause's "for me" is that one's
            found = await find_user(clause, ctx, m.group(1))
            if found is not None:
                return found, m.group(0)
    return None, ""


def _what_follows(clause: Clause, ctx: BuildContext) -> bool:
    """The message goes on, right after this clause, with an infinitive: what the task is."""
    full = str(ctx.memory.get("full_text", ""))
    at = full.find(clause.text.strip())
    rest = full[at + len(clause.text.strip()) :] if at >= 0 else ""
    m = re.match(r"\s*[,:—–-]?\s*(?:(?:ну|э+|короче|типа)[,\s]+)*([^\W\d_]+)", rest)
    return bool(m and is_infinitive(m.group(1).lower()))


_ONLY_WHOSE_AND_WHEN = LazyRe(
    r"(?i)\s*(?:(?:на|для|for|to)\s+[^\W\d_]+)?\s*(?:со?\s+сроком|с\s+дедлайном|сроком|due|by|до|к)?\s*[.!]?\s*"
)
# a new issue's state said as its last field: ", in Backlog", «, в бэклог», ", status: Todo"
_STATE_AT_THE_END = LazyRe(
    # ("…, feature label, backlog": the state said bare, last among the fields)
    r"(?i)[,;]\s*(?:(?:(?:put\s+)?(?:it\s+)?(?:in|into|to)|в|во|на)\s+|(?:state|status|статус|стейт)\s*[:—-]?\s*(?:в\s+|на\s+)?)?"
    r"(?:the\s+)?(?:backlog|todo|to-do|in[\s-]progress|in[\s-]review|triage|бэклог|беклог|работу|ревью|тудушки|todo)"
    r"(?:\s+(?:column|state|колонк\w*|статус\w*))?\s*[.!]?\s*$"
)
# «Посчитай задачи Олега.», "Count Oleg's issues.": a read asked for, never a new issue's title
_ASKED_TO_READ = LazyRe(
    r"(?i)^\W*(?:посчитай|подсчитай|покажи|найди|выведи|перечисли|проверь|скажи|сколько|какие|какая|какой|кто|count|show|"
    r"list|find|check|tell\s+me|how\s+many|which|who)\b"
)
_PUT_IN_PROJECT_SRC = (
    r"\b(?:put|add|move|place|link|attach|положи|добавь|закинь|перенеси|свяжи|привяжи|прикрепи)\s+"
    r"(?:it|them|её|ее|его|их)\s+(?:in|into|to|with|в|с|к)\s+"
    r"(?:the\s+)?(?:проект\w*\s+)?[^,.;]+?(?:\s+project)?(?=\s*(?:[,.;]|$))"
    # «…, и свяжи с проектом Q1 Launch», "link to the Q1 Launch project": the word "project" said, no "it"
    r"|(?:\b(?:and|и)\s+)?\b(?:link|свяжи|привяжи)\s+(?:with|to|с|со|к)\s+(?:the\s+)?"
    r"(?:проект\w*\s+[^,.;]+?|[^,.;]+?\s+project)(?=\s*(?:[,.;]|$))"
)
_PUT_IN_PROJECT = LazyRe("(?i)" + _PUT_IN_PROJECT_SRC)
_PLACED_SENTENCE = LazyRe(r"(?i)[.;]?\s*(?:" + _PUT_IN_PROJECT_SRC + ")")


# words that point at something said elsewhere, not a title
_PRIORITY_SAID = LazyRe(
    r"(?i)[,\s]*\b(?:(?:с|with|at)\s+(?:(?:очень|very)\s+)?(?:высок\w+|низк\w+|средн\w+|срочн\w+|high|low|medium|"
    r"urgent|top)\s+(?:приоритет\w*|priority)|(?:приоритет\w*|priority)\s+(?:высок\w+|низк\w+|средн\w+|high|low|"
    r"medium|urgent|p[0-4]))\b|[,\s]*(?<![\w-])[pP][0-4](?=\s*(?:[,;.]|$|@))"
)
# "p1" said as a field of a new issue (at the end, before a comma or a mention), not a word of its title ("x p0 bug")
_P_LEVEL = LazyRe(r"(?<![\w-])[pP][0-4](?=\s*(?:[,;.]|$|@|→|->))")
_TAKES_IT = LazyRe(
    r"[,;]?\s*\b([A-ZА-ЯЁ][\w-]+)\s+(?:can|will|should|could|is\s+going\s+to)\s+(?:take|own|handle|do|pick\s+up)\s+"
    r"(?:it|this|that|that\s+one)\b|[,;]?\s*\b([А-ЯЁ][\w-]+)\s+(?:возьм[её]т|сделает|займ[её]тся)\b"
)
_WITHOUT_QUOTES = LazyRe(r"«[^«»]*»|\"[^\"]*\"|“[^”]*”|'[^']{3,}'")
_VAGUE = LazyRe(
    # «сделай что-нибудь с этими багами», "do something about these bugs": nothing said to make
    r"(?i)\bчто[-\s]?(?:нибудь|то)\s+(?:с|по)\b|\b(?:something|anything)\s+(?:with|about)\b|"
    r"^(?:for\s+)?(?:the|that|this)\s+(?:[\w-]+\s+)?(?:thing|stuff)\s*(?:$|(?:that\s+)?(?:we|i|you|from|[A-Z][a-z]+)\b)|"
    r"\bwe\s+(?:talked|discussed|spoke)\s+about\b|"
    r"^(?:то|ту|эту|эта|это)\s+(?:штук\w*|вещ\w*|самое)\b|\b(?:что|о\s+ч[её]м)\s+(?:мы\s+)?(?:говорили|обсуждали)\b|"
    r"\b(?:название|заголовок|title|name)\s+(?:потом|позже|later)\b|\b(?:потом|позже)\s+(?:скину|пришлю|напишу)\b|"
    r"\b(?:will\s+send|i'?ll\s+send)\s+(?:the\s+)?(?:title|name)\b|"
    # «создай задачу эээ ну эту как её потом скажу», "a ticket, I'll tell you what later": no title yet
    r"\b(?:потом|позже)\s+(?:скажу|уточню|расскажу|допишу)\b|\bкак\s+(?:её|ее|его)\s*(?:там)?\b|"
    r"\b(?:tell\s+you|say)\s+(?:what\s+)?later\b|^\s*(?:tbd|todo|xxx|\?+)\s*$|"
    # "uh remind me tomorrow ok": a word that ends what was said is no title
    r"^\s*(?:ok|okay|k|ок|окей|ладно|please|pls|plz|пожалуйста|плиз|thanks|спасибо|ну|uh|um)\s*[.!?]*\s*$|"
    # "for the customer below, I'll paste the email in a sec", «…, письмо скину через минуту»: the words are to come
    r"\b(?:i'?ll|i\s+will|let\s+me)\s+(?:paste|send|forward|add|share)\b[^.!?]*\b(?:in\s+a\s+(?:sec|second|minute|moment|bit)|"
    r"later|shortly|soon|next)\b|\b(?:скину|пришлю|вставлю|перешлю|кину)\s+(?:\w+\s+){0,2}(?:через\s+\w+|сейчас|позже|следом)\b|"
    # "create something in linear", «создай что-нибудь»: a placeholder is no title
    r"^\s*(?:some|any)?(?:thing|stuff|things)s?\s*[?.!]?\s*$|^\s*(?:что|кое)[-\s]?(?:нибудь|то|либо)\s*[?.!]?\s*$|"
    # "Max asked me to create an issue (in Linear for him)": the request retold is no title
    r"\b(?:create|file|open|make|log|add)\s+(?:an?\s+|one\s+|new\s+)*(?:issue|ticket|task)(?:\s+(?:for|to)\s+(?:him|her|them|me|us))?\s*$|"
    r"\b(?:создать|завести|создай|заведи|сделать)\s+(?:ему\s+|ей\s+|им\s+)?(?:новую\s+)?(?:задачу|тикет)\s*$|"
    # «закинь тикет в эндж»: the request and where it goes, nothing it is about
    r"^\s*(?:закинь|кинь|накинь|запили|открой|создай|заведи)\s+(?:новую\s+|новый\s+)?(?:задачу|тикет|таск\w*|баг)"
    r"(?:\s+(?:в|во)\s+[^\s,.;:]+)?\s*[.!]?\s*$"
)
# "…one for each service auth billing …", «…для каждого раздела главная поиск …»: a list with no colon
_EACH = LazyRe(r"(?i)[,\s]*\b(?:one\s+|по\s+одной\s+)?(?:for\s+each|(?:на|для)\s+кажд\w+)\s+[^\W\d_]+\s*:?")


def _said_count(text: str) -> int | None:
    m = re.search(
        r"(?i)\b(\d{1,2}|\w+)\s+(?:new\s+)?(?:issues|tasks|tickets|bugs|задач\w*|тикет\w*|баг(?:а|ов))\b",
        text,
    )
    if m is None:
        return None
    word = m.group(1).lower()
    return int(word) if word.isdecimal() else number_from_words([word])


def _topic(text: str, lang: str) -> str:
    """What a list of issues is for ("for the load tests", «на иконки»): the prefix of each title."""
    m = re.search(r"(?i)\b(?:for|about|on|на|про|по|для)\s+(?:the\s+)?(.+)$", text)
    topic = (m.group(1) if m else "").strip(" ,.")
    return topic[:1].upper() + topic[1:] if topic else ""


def _says_only(words: str, name: str) -> bool:
    """Every word said for a project is a word of its name ("onboarding" of Customer Onboarding)."""
    thing = (
        CUES["task"] | CUES["issue"]
    )  # «в проект онбординга задачу»: the thing made is no part of the name
    said = [
        k
        for k in keys_for(words)
        if k.text not in ("the", "a", "an", "in", "into", "to", "в", "во")
        and not (k.lemmas | {k.text}) & thing
    ]
    return bool(said) and match_words(said, keys_for(name))


# what is left when an issue's title is only the request: «нужно создать задачу. Наверное», "need to create an issue"
_ASKED_IN_TITLE = LazyRe(
    r"(?i)\b(?:создать|завести|сделать|добавить|create|open|add|file|make)\s+(?:(?:a|an|the|new|одну|новую)\s+)?"
    r"(?:задач\w*|тикет\w*|issue|task|ticket)\b"
)
_FOR_EACH = LazyRe(
    r"(?i)\b(?:for\s+(?:each|every)|one\s+(?:for\s+each|per)|на\s+кажд\w+|для\s+кажд\w+|по\s+одн\w+\s+на)\s+([^:]+)"
)


def _dated_items(titles: list[str], clause: Clause, ctx: BuildContext) -> list[tuple[str, str]]:
    """A list whose items are days only ("…: Jan 15, Jan 29, Feb 12"): each item's title (what the list is
    of, with its day) and due date; empty when any item is more than a day."""
    if len(titles) < 2 or clause.after_colon is None:
        return []
    titles = [t.strip(" ,.;") for t in _items(clause.after_colon)]  # (the first day was read as the clause's)
    head = clause.text.split(":", 1)[0]
    each = _FOR_EACH.search(head)
    topic = each.group(1).strip(" ,.") if each else clean_title(head, ctx.lang)
    out = []
    for title in titles:
        moment = extract_moment(title, ctx.now)
        if moment.day is None or strip_spans(title, moment.spans).strip(" ,.;:—-"):
            return []
        out.append((f"{topic} — {title}" if topic else title, moment.day.isoformat()))
    return out


# a project said as a field anywhere in the request: "for the X project", "under X" (a whole name, then a comma)
_PROJECT_FIELD = LazyRe(
    r"(?i)\b(?:for|in|into|to|under|для|в|во)\s+(?:the\s+)?((?:[\w-]+\s+){0,3}[\w-]+)\s+project\b"
    # («Баг: …. Проект Mobile App, приоритет срочно»: the project said as a field of its own)
    r"|(?:^|[.,;]\s*)(?:проект|project)\s*[:—-]?\s+((?:[\w-]+\s+){0,3}[\w-]+)(?=\s*(?:[,.;]|$))"
    r"|\b(?:с|со|к)\s+проект\w*\s+((?:[\w-]+\s+){0,3}[\w-]+)(?=\s*(?:[,.;]|$))"  # «свяжи с проектом Q1 Launch»
    # «… для админов Ромашки в проекте Customer Onboarding до 4 декабря»: the project, then its due date
    r"|\b(?:в|во)\s+проект[еау]\s+((?:[\w-]+\s+){0,3}?[\w-]+)(?=\s+(?:до|к|на|со|срок\w*|с\s+приоритет\w*)\b|\s*(?:[,.;]|$))"
    r"|\b(?:under|в\s+рамках|(?:for|in|into)\s+the)\s+(?:the\s+)?((?:[\w-]+\s+){0,3}[\w-]+)(?=\s*(?:[,.;]|$))"
    # («…, label feature, in Mobile App»: a field of its own, a project's whole name after "in")
    r"|(?:^|[,;]\s*)(?:in|into|в|во)\s+((?:[\w-]+\s+){0,3}[\w-]+)(?=\s*(?:[,.;]|$))"
    # («…для онбординга проект Mobile App на Макса»: "project" and its name, told in passing)
    r"|\bпроект\s+((?:[\w-]+\s+){0,3}?[\w-]+)(?=\s+(?:на|для|до|к|срок\w*|с\s+приоритет\w*)\b)"
)


# the customer a new issue is for, said before its title («… для Ромашки: …», "an issue for Globex: …")
_FOR_A_CUSTOMER = LazyRe(
    r"(?i)\b(?:для|for)\s+([^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*)?)(?:\s+(?:в|in)\s+[A-Z]{2,5})?\s*$"
)


async def _project_in(clause: Clause, ctx: BuildContext) -> Entity | None:
    """A project the new issue belongs to; a project that does not exist is a question (seed 002)."""
    head = clause.text.split(":", 1)[0] if clause.after_colon is not None else clause.text
    later = _PUT_IN_PROJECT.search(str(ctx.memory.get("full_text", "")))
    if later and not re.search(r"\b(проект\w*|project)\b", head, re.I):
        head = later.group(0)  # "…, and put it in the mobile app project": said after the issue
    unquoted = re.sub(
        r"«[^»]*»|\"[^\"]*\"|“[^”]*”|(?<!\w)'[^']*'(?!\w)", lambda q: " " * len(q.group(0)), clause.text
    )
    for field in _PROJECT_FIELD.finditer(unquoted):
        # "…: new illustrations for the Mobile App project, due Dec 10", "… in ENG under Q1 Launch, label …"
        exact = [
            m
            for m in find_mentions(
                keys_for(next(g for g in field.groups() if g)), await ctx.directory.projects()
            )
            if m.score >= 0.95
        ]
        if len(exact) == 1:
            return exact[0].entity
    if not re.search(r"\b(проект\w*|project)\b", head, re.I):
        # "Add an issue to Q1 Launch: …": a project's full name after "to"/"в" needs no word "project"
        # …or "for the Q1 Launch checklist": only a project's whole name, said exactly, counts
        projects = await ctx.directory.projects()
        said = re.search(r"(?i)\b(?:to|into|in|for|в|во|для)\s+((?:[\w-]+\s*){1,4})\s*$", head)
        exact = (
            [m for m in find_mentions(keys_for(said.group(1)), projects) if m.score >= 0.95] if said else []
        )
        if len(exact) == 1:
            return exact[0].entity
        for place in re.finditer(r"(?i)\b(?:to|into|in|for|в|во|для)\s+((?:[\w-]+\s*){1,4})", head):
            # («в Q1 Launch закинь issue в команде ENG: …»: a project's whole name said first, a team after it)
            place_keys = keys_for(place.group(1))
            for n in range(len(place_keys), 0, -1):
                whole = [
                    m
                    for m in find_mentions(place_keys[:n], projects)
                    if m.score >= 0.95 and len(m.positions) == n
                ]
                if len(whole) == 1 and len(keys_for(whole[0].entity.name)) == n:
                    return whole[0].entity
        # («задача в дизайн: макет страницы тарифов для Website Redesign»: the project's whole name, said last)
        last = re.search(r"(?i)\b(?:for|для)\s+((?:[\w-]+\s*){1,4})\s*[.!]?\s*$", unquoted)
        said_words = keys_for(last.group(1)) if last else []
        exact = [
            m
            for m in find_mentions(said_words, projects)
            if m.score >= 0.95 and len(m.positions) == len(said_words)
        ]
        return exact[0].entity if len(exact) == 1 else None
    mentions = find_mentions(keys_for(head), await ctx.directory.projects())
    named = [m for m in mentions if m.score >= 0.9]
    if named:
        return named[0].entity
    called = re.search(
        r"(?i)\b(?:the\s+)?((?:[\w-]+\s+){0,2}[\w-]+)\s+project\b|\bпроект\w*\s+((?:[\w-]+\s*){1,3})", head
    )
    words = (called.group(1) or called.group(2) or "") if called else ""
    partly = [m for m in find_mentions(keys_for(words), await ctx.directory.projects()) if m.score >= 0.5]
    if len(partly) == 1 and _says_only(words, partly[0].entity.name):
        return partly[0].entity  # "the onboarding project": the one project with that word in its name
    answered = ctx.answer("project")
    if answered == "none":
        return None
    if answered == "create":
        return Entity("project", "new", "")
    m = re.search(
        r"(?:в\s+проект[еa]?|in(?:to)?\s+(?:the\s+)?project|to\s+the)\s+[«\"']?([^,.;:»\"']+?)(?:\s+project)?\s*$"
        r"|(?:to|in|into)\s+the\s+(.+?)\s+project\b",
        head,
        re.I,
    )
    quoted_name = re.search(r"(?i)\b(?:проект\w*|project)\s+[«\"'“]([^»\"'”]{2,60})[»\"'”]", head)
    wanted = (
        quoted_name.group(1) if quoted_name else next((g for g in (m.groups() if m else ()) if g), "") or ""
    ).strip()[:50]  # «в проекте «Миграция ERP» для команды …»: a name in quotes, wherever it sits
    guessed = re.search(
        r"(?i)\b(?:в|во|in|into|to)\s+(?:the\s+)?(?:проект\w*|project)\s+([^\s,;:.]+(?:\s+\d[^\s,;:]*)?)"
        r"|\b(?:in|into|to|for)\s+(?:the\s+)?([^\W\d_][\w-]*)\s+project\b",  # "issue in payments project: …"
        head,
    )
    if (
        not wanted and guessed
    ):  # «заведи задачу в проект биллинг 2.0 починить …»: where its name ends is unsure
        name = (guessed.group(1) or guessed.group(2)).rstrip(".")
        raise ctx.ask(
            "project",
            ctx.t(
                f"Не нашёл в Linear проект «{name}». Завести задачу без проекта?",
                f"I couldn't find the project '{name}' in Linear. Create the issue without a project?",
            ),
            choices=[(ctx.t("Без проекта", "No project"), "none")],
            free_text=False,
        )
    if not wanted:
        return None
    raise ctx.ask(
        "project",
        ctx.t(
            f"Проекта «{wanted}» в Linear нет. Создать его отдельным шагом?",
            f"There is no project '{wanted}' in Linear. Create it as a separate step?",
        ),
        choices=[
            (ctx.t("Создать проект", "Create the project"), "create"),
            (ctx.t("Без проекта", "No project"), "none"),
        ],
        free_text=False,
    )


async def _these_into_a_team(clause: Clause, ctx: BuildContext) -> bool:
    """ "Please create these in ENG: rate limiting, audit log export, …": a list made in a team of the
    tracker is its issues, though the word "issues" is never said."""
    if clause.after_colon is None or not clause.creates():
        return False
    head = clause.text.split(":", 1)[0]
    if not _THESE.search(head) and not _CREATE_IN_A_PLACE.match(head):
        return False
    teams = await ctx.directory.teams()
    names = [str(t.extra.get("key")) for t in teams if t.extra.get("key")] + [t.name for t in teams]
    return any(
        re.search(rf"(?i)\b(?:in|into|to|for|в|во|для)\s+(?:the\s+)?{re.escape(n)}\b", head) for n in names
    )


_NO_NEW_ONE = LazyRe(
    r"(?i)\b(?:don'?t|do\s+not|не|no\s+need\s+to)\s+(?:want\s+to\s+|хочу\s+|хотелось\s+бы\s+|надо\s+|нужно\s+|need\s+to\s+)?"
    r"(?:file|create|open|log|add|make|duplicate|завод\w*|завест\w*|созда\w*|добавл\w*|дублир\w*)"
)
# "create in DES: …", «заведи в CS, всё на Макса: …»: nothing but where, then what
_CREATE_IN_A_PLACE = LazyRe(
    r"(?i)\s*(?:please\s+|pls\s+)?(?:create|file|log|open|add|создай|заведи|добавь)\s+(?:in|into|в|во)\s+(?:the\s+)?"
    r"[\w-]+(?:\s+team)?\s*(?:,|$)"
)
_THESE = LazyRe(r"(?i)\b(?:these|those|them|the\s+following|эти|их|следующие)\b")


_LINK = LazyRe(r"\bhttps?(?::|\ue000)//[^\s»\")]+")
_LINK_ALONE = LazyRe(r"\s*https?(?::|\ue000)//[^\s»\")]+\s*[.!]?\s*")


_SAID_OF_ONE_THERE_IS = LazyRe(
    r"(?i)^\s*(?:the|our|this|that)\s+(?:[\w/-]+\s+){0,5}?(?:ticket|issue|bug)\s+"
    r"(?:needs|is|has|was|should|must|will|looks|seems|still|keeps|got)\b"
)
# three to ten single words, the last after "и"/"and": items, each an issue («иконки кнопки шрифты и тени»)
_SPOKEN_LIST = LazyRe(r"(?i)\s*(?:[^\W\d_]{3,}\s+){2,9}(?:и|and)\s+[^\W\d_]{3,}\s*")
_NOTHING_SAID = LazyRe(r"(?i)\b(?:ничего|nothing|anything)\b")
_DELEGATED = LazyRe(r"(?i)\bпоруч(?:ить|и|ите|аю)\b|\bdelegate\s+(?:it\s+)?to\b")
_FIELDS_AFTER = LazyRe(
    r"(?i)[.;]\s+(?=(?:приоритет|priority|срок|due|дедлайн|deadline|команда|team|исполнитель|assignee|метк\w*|"
    r"label\w*|проект|project)\b"
    # (". ENG, add the security label too", ". Also assign it to Max": where it goes, what to do with it)
    r"|(?-i:[A-Z]{2,5})\b\s*[,.;]|(?:also\s+|и\s+|and\s+)?(?:add|set|put|make|assign|label|tag|добавь|поставь|назначь)\b)"
)
_COUNTED_BY = LazyRe(
    r"(?i)\b(?:count|counts|totals?|number\s+of|how\s+many|breakdown|per\s+(?:team|person|assignee|state|status|project)|"
    r"сколько|количеств\w*|число|по\s+командам|по\s+людям)\b"
)
_TO_EVERY_ISSUE = LazyRe(
    r"(?i)\b(?:всем|всех|каждой|каждому)\s+(?:(?:открытым|нашим|этим)\s+)?(?:задачам|задачи|тикетам|тикеты|issues|багам)\b|"
    r"\b(?:all|every|each)\s+(?:(?:open|the|our|[A-Z]{2,5}|(?-i:[A-Z][a-z]+))\s+)*(?:issues?|tickets?|bugs?)\b"
)


# "Customer report from Jane Doe at Globex", «Жалоба от Альфы»: what a report is, said before it
_REPORT_HEADING = LazyRe(
    r"(?i)^\s*(?:(?:customer|bug|support|incident)\s+(?:report|ticket|complaint)|report|complaint|ticket|"
    r"(?:жалоба|отчёт|отчет|тикет|обращение)(?:\s+клиента)?)\b[^.!?]{0,60}$"
)


def _report_told(ctx: BuildContext) -> tuple[str, str] | None:
    """A report told in several sentences before "file a bug": its first sentence (the title) and all of it."""
    said = [text.strip() for _, text in ctx.memory.get("told") or []]
    told = said[1:] if said and _REPORT_HEADING.match(said[0]) else said
    if len(told) < 2:
        return None
    first = re.split(r"(?<=[.!?])\s+", told[0])[0].strip(" .")
    return first[:200], " ".join(x if x.endswith((".", "!", "?")) else f"{x}." for x in said)[:5000]


# "the HL7 one high priority", «ту, что про HL7, — высокий приоритет»: of the issues listed, one's level
_THE_ONE_AT = LazyRe(
    r"(?i)\bthe\s+([\w-]+)\s+one\s+(?:is\s+|as\s+|gets\s+|with\s+)?(?:urgent|high|medium|low)(?:\s+(?:priority|prio))?\b|"
    r"\b(?:ту|задачу),?\s+(?:что\s+)?про\s+([\w-]+),?\s+[—–-]?\s*(?:срочн\w+|высок\w+|средн\w+|низк\w+)(?:\s+приоритет\w*)?"
)


# "…, description: EUR invoices are rounded …", «описание: перенести 14 джобов; приоритет средний»: the new
# issue's description, said as a labelled field (up to the next field, or to the end)
_DESCRIPTION_FIELD = LazyRe(
    r"(?i)(?:^|[.;,]\s*|\s+)(?:(?:with|and)\s+(?:a\s+|the\s+)?description|с\s+описанием|description|desc|описание|"
    r"описанием)\s*(?:[:—–-]\s*)?(?:(?P<quoted>«[^«»]*»|\"[^\"]*\"|“[^“”]*”|'[^']*'(?=\s*(?:[,.;]|$)))|(?<=[:—–-])\s*(?P<body>.+?)"
    r"(?=;\s*(?:приоритет|priority|срок|due|дедлайн|deadline|команда|team|исполнитель|assignee|метк\w*|label\w*|"
    r"проект|project)\b|$))",
    re.S,
)
# 'title "Reconcile FX rates"', "titled 'Add SAML logout'", «название: «…»»: the label before a quoted title
_TITLE_LABEL = LazyRe(r"(?i)\b(?:title|titled|called|named|название|заголовок)\s*[:=—–-]?\s*(?=[«\"'“])")


# "called offline mode for ios, …", «под названием обновить макеты»: a title said without quotes, up to a
# field, a pronoun or the next request
_CALLED = LazyRe(
    r"(?i)\b(?:called|named|titled|entitled|под\s+названием|с\s+названием|называется|названием)\s+"
    r"(?P<name>[^\W\d_][^,;.!?«»\"“”]*?)(?=\s*(?:[,;.!?]|$|\s(?:it'?s|its|with|and|due|priority|assign\w*|"
    r"give|for\s+(?:me|him|her)|и|со?|срок\w*|приоритет\w*|назнач\w*|на\s+(?:меня|него|не[её])|в\s+проект\w*)\b))"
)


# "…, Design team", "…, team DES", «…, команда дизайна»: the team said as an item after a colon
_TEAM_SAID_LAST = LazyRe(
    r"(?i)(?:\s*(?:[,;]|\s[—–-])\s*(?:(?:the\s+)?([\w-]+)\s+team|team\s+([\w-]+)|команд[аеуы]\s+([\w-]+))"
    # («…: подготовить макеты в команде Design к понедельнику», "…: dark mode for the Design team")
    r"|\s+(?:в|во|для)\s+команд[аеуы]\s+([\w-]+)|\s+(?:in|for)\s+(?:the\s+)?(?:team\s+([\w-]+)|([\w-]+)\s+team))"
    r"(?=\s*(?:[,;.!]|\s[—–-]|\s|$))"
)  # (or among the fields said after it: "…: dark mode — team Design, project Mobile App")


# a colleague asked to do something: "have/ask/get/tell Max (to) …", «поручи/попроси/скажи Максу …», «пусть Олег …»
_HANDED_EN = LazyRe(
    r"(?i)^\s*(?:please\s+)?(?:have\s+(?!(?:me|us)\b)(?P<had>[A-Za-z][\w-]*)|(?:ask|get|tell|remind)\s+(?!(?:me|us)\b)"
    r"(?P<who>[A-Za-z][\w-]*)\s+to)\s+(?P<rest>[a-z]\S*.*)$"
)
_HANDED_RU = LazyRe(
    r"(?i)^\s*(?:пожалуйста[,\s]+)?(?:поруч(?:и|ите)|попроси(?:те)?|скажи(?:те)?)\s+(?P<who>[^\W\d_]+)\s+(?P<rest>[^\W\d_].*)$"
)
_LET_HIM = LazyRe(r"(?i)^\s*пусть\s+(?P<who>[^\W\d_]+)\s+(?P<verb>[^\W\d_]+)(?P<tail>.*)$")


async def _handed_to(clause: Clause, ctx: BuildContext) -> str | None:
    """The clause said as a task for the colleague it names ("task for Max: write …"), or None."""
    text = clause.text
    if (m := _HANDED_EN.match(text)) and not re.search(r"[а-яё]", text, re.I):
        who, rest, lead = m["who"] or m["had"], m["rest"], "task for"
    elif (m := _HANDED_RU.match(text)) and any(is_infinitive(w) for w in m["rest"].split()[:5]):
        words = m["rest"].split()
        at = next(i for i, w in enumerate(words) if is_infinitive(w))
        # («поручи Анне в проекте Q1 Launch настроить алерты»: what to do first, where said after it)
        rest = " ".join(words[at:] + ([","] if at else []) + words[:at]).replace(" ,", ",")
        who, lead = m["who"], "задача для"
    elif (m := _LET_HIM.match(text)) and (verb := as_infinitive(m["verb"])) is not None:
        who, rest, lead = m["who"], verb + m["tail"], "задача для"
    else:
        return None
    if await find_user(clause, ctx, who) is None:
        return None  # "ask Jane to send the contract": no colleague, so no task of theirs here
    rest = rest.replace(":", ",", 1)  # («пусть Макс нарисует иконки: проект Mobile App, …»: fields after it)
    if _ONLY_IT.fullmatch(rest):  # "Ask Max to take care of it": what "it" is was never said
        raise ctx.ask("title", ctx.t(f"Что поручить ({who})?", f"What should {who} do?"))
    return f"{lead} {who}: {rest}"


# a to-do that is only a pointer: "take care of it", "handle this", «разобраться с этим», «сделать это»
_ONLY_IT = LazyRe(
    r"(?i)\s*(?:take\s+care\s+of|handle|do|look\s+(?:at|into)|deal\s+with|sort\s+out|check|fix|разобраться\s+с|"
    r"заняться|сделать|посмотреть|проверить|глянуть)\s+(?:it|this|that|this\s+one|that\s+one|этим|это|этого|им|ей|ним|"
    r"ней|тем|то)\s*[.!]?\s*"
)


# "in the CRM", «в CRM», «в Attio»: where a task is said to go (Attio's, not Linear's)
_IN_THE_CRM = LazyRe(r"(?i)\b(?:в|in|to|into)\s+(?:the\s+|our\s+)?(?:crm|црм|срм|attio|аттио)\b")
_TRACKER_WORD = LazyRe(r"(?i)\b(?:linear|линеар\w*|линейр\w*|issue|ticket|bug|тикет\w*|баг\w*)\b")


# «…, фича, приоритет средний», "…, bug, high": the kind of issue said as a field between commas
_KIND_AS_FIELD = LazyRe(r"(?i),\s*(фича|фичу|feature|баг|bug)\s*(?:[,;]|$)")
# "…, due Jan 5", «…, срок 5 января»: the due date said as a field, after what the issue is
_DUE_SAID_AS_FIELD = LazyRe(
    r"(?i)[,;]\s*(?:due|срок(?:ом)?|дедлайн|deadline)\s*[:—–-]?\s*(?:by\s+|до\s+|на\s+)?(?P<day>[^,.;]{2,30}?)\s*(?=[,.;]|$)"
)


@rule(60, writes=True)
async def create_issue(clause: Clause, ctx: BuildContext) -> bool:
    if TAKEN_BY_ME.search(clause.text):
        return False  # «Задачу про настройку SSO для Ромашки я забираю себе»: one there is, taken over
    if _TO_THE_ISSUE.search(clause.text) and not _A_NEW_ONE.search(clause.text):
        return False  # «Поставьте срок на пятницу задаче про API»: a field of an issue there is, no new one
    if _INTO_THE_ISSUE.match(clause.text):
        return False  # «Добавь в задачу Crash on export to PDF описание: …»: a field of an issue there is
    in_crm = _IN_THE_CRM.search(head_of(clause, ctx.now).text)
    if in_crm and not _TRACKER_WORD.search(clause.text):
        return False  # «поручи Олегу в CRM перезвонить ей»: a task said to be in the CRM is Attio's
    if in_crm and re.match(r"(?i)\s*(?:a\s+)?new\s+ticket\s+in\s+(?:attio|crm)\b", clause.text):
        return False  # "new ticket in attio: Acme Corp renewal 2027, 52000 usd": whatever it is, not Linear's
    handed = await _handed_to(clause, ctx) if "handed" not in ctx.memory else None
    if (
        handed is not None
    ):  # "Have Max write the release notes", «Пусть Олег обновит сертификаты»: a task for them
        ctx.memory["handed"] = True
        try:
            return await create_issue(analyse(handed, ctx.now), ctx)
        finally:
            ctx.memory.pop("handed", None)
    described = _DESCRIPTION_FIELD.search(clause.text) if "description" not in ctx.memory else None
    if described and clause.creates() and clause.has("issue", "task", "bug"):
        # the description is the issue's, not words of its title or fields: read the rest without it
        rest = (clause.text[: described.start()] + clause.text[described.end() :]).strip()
        in_quotes = described.group("quoted")  # 'with description "…"': the quoted words
        body = in_quotes[1:-1].strip() if in_quotes else described.group("body").strip(" .;")
        ctx.memory["description"] = body[:10_000]
        try:
            return await create_issue(analyse(_TITLE_LABEL.sub("", rest), ctx.now), ctx)
        finally:
            ctx.memory.pop("description", None)
    new = clause.creates() or bool(re.search(r"(?i)\b(?:new|нов(?:ую|ая|ый|ое))\b", clause.text))
    called_as = _CALLED.search(clause.text) if new and not quoted(clause.text) else None
    if called_as and clause.has("issue", "task", "bug"):
        # "a new issue in engineering called offline mode for ios its medium priority …": the name said
        # after "called" is the title, as if quoted; the rest are its fields
        name = called_as.group("name").strip()
        said = f"{clause.text[: called_as.start()]} «{name}»{clause.text[called_as.end() :]}"
        return await create_issue(analyse(said, ctx.now), ctx)
    # "todo: draft FAQ for the SSO setup, docs label, Design team": the team, said last after the colon
    team_last = _TEAM_SAID_LAST.search(clause.after_colon) if clause.after_colon else None
    if team_last:
        wanted = next(g for g in team_last.groups() if g)
        known = await ctx.directory.teams()
        teams = [m.entity for m in find_mentions(keys_for(wanted), known) if m.score >= 0.9] or [
            t for t in known if str(t.extra.get("key", "")).lower() == wanted.lower()
        ]
        if teams:
            head, tail = clause.text.split(":", 1)
            key = teams[0].extra.get("key") or teams[0].name
            where = f"в команде {key}" if re.search(r"[а-яё]", head, re.I) else f"in {key}"
            said = f"{head} {where}: {_TEAM_SAID_LAST.sub('', tail)}"
            return await create_issue(analyse(said, ctx.now), ctx)
    if _TITLE_LABEL.search(clause.text) and clause.creates() and "description" not in ctx.memory:
        ctx.memory["description"] = None  # (read once more, without the label)
        try:
            return await create_issue(analyse(_TITLE_LABEL.sub("", clause.text), ctx.now), ctx)
        finally:
            ctx.memory.pop("description", None)
    if (
        _MADE_SO.search(clause.text)
        or COMMENT_ON_AN_ISSUE.search(clause.text)
        or FIELD_OF_A_TASK.match(clause.text)
        or _FIELD_ON_THE.search(clause.text)  # "fix the priority on the login issue, make it urgent"
    ):
        return (
            False  # "make the push notifications issue urgent", «закинь коммент в тикет про …»: one there is
        )
    if re.search(
        r"(?i)\bopen\s+(?:[\w-]+\s+)?(?:bugs|issues|tickets|tasks)\b", clause.text
    ) and not re.search(r"(?i)\b(?:create|add|make|file|log|new)\b", clause.text):
        return False  # "open bugs in ENG": which issues to show, not a new one
    if LABEL_ON.search(clause.text):
        return False  # "add the onboarding label to the … issue": a label on an issue that is there
    if clause.after_colon is not None and clause.moment.at is not None and clause.duration:
        meeting = analyse(clause.after_colon, ctx.now)
        if meeting.has("meeting") and meeting.moment.at is not None:
            return False  # «таска: созвон с командой ромашки в чт в 16 на час»: a meeting at an hour, booked
    if _SAID_OF_ONE_THERE_IS.match(clause.text):
        return False  # "The iOS push ticket needs the new permission prompt design.": about one there is
    if _TO_EVERY_ISSUE.search(clause.text.split(":", 1)[0]):
        return False  # «поставь всем задачам ENG высокий приоритет: …»: a change to the issues there are
    if _NO_NEW_ONE.search(clause.text) and ("?" in clause.text or _NOTHING_SAID.search(clause.text)):
        # "is there an issue for … already? don't want to file a dup", «больше ничего не создавай»: none
        # (a plain "no need to open an issue for …" is drafted, then named back as left alone)
        return False
    if clause.after_colon is not None and _ABOUT_IT.match(clause.after_colon):
        return False  # "The leaked key rotation issue: move it to In Progress": an issue there is, then what to do
    if ADD_EXISTING.search(clause.text):
        return False  # "add the onboarding issue to the Q1 Launch project": an issue that is there
    elsewhere = clause.has("crm", "attio", "complete", "delete", "archive", "comment", "move") or bool(
        re.search(r"(?i)\b(?:закрывать|удалять|переводить|архивировать|трогать)\b", clause.text)
    )  # «задачу по SSO пока не закрывать»: an issue there is, not a new one
    if (
        clause.after_colon is not None
        and _LINK_ALONE.fullmatch(clause.after_colon)
        and quoted(clause.text.split(":", 1)[0])
    ):
        # «…задачу «Empty state …», макет тут: https://…»: the quote is the title, the link goes with it
        return await create_issue(analyse(clause.text.replace(":", " ", 1), ctx.now), ctx)
    dashed = _DASHED.match(clause.text) if clause.after_colon is None and not elsewhere else None
    if dashed:  # «в CS задачу на Олега — выставить счёт»: the dash says what the task is, as a colon would
        head, tail = clause.text[: dashed.start(1)], clause.text[dashed.end(1) :]
        return await create_issue(analyse(f"{head}: {tail}", ctx.now), ctx)
    noun = clause.has("task", "issue")
    start = _TASK_START.match(clause.text)
    # «задачу по SSO … не закрывать», «задачу в CRM мне …»: the task is another one, or not an issue
    accusative = bool(start and start.group(1).lower() in ("задачу", "таску", "тикет"))
    starts_as_task = (
        bool(start)
        and not _COUNTED_BY.search(clause.text)  # "issue count per team": how many, asked
        and not (accusative and elsewhere)
        # «задача для олега в crm подготовить КП …»: a task said to be in the CRM is Attio's
        and not (clause.has("crm", "attio") and not clause.has("linear", "issue"))
        # ("Bug: Safari users get logged out when …": the words after the heading ask nothing)
        and not (
            (head_of(clause, ctx.now) if HEADED_THING.match(clause.text) else clause).has("query")
            or clause.text.rstrip().endswith("?")
        )
    )
    # "Анне в CS задачу: обновить чек-лист", "todo for me in linear: …": a task named, then what it is
    introduced = (
        clause.after_colon is not None
        and bool(
            re.search(
                r"\b(?:задач[уа]|таск[уа]?|тикет|todo|issue|task|ticket|bug|баг|feature|фича)\b",
                clause.text.split(":", 1)[0],
                re.I,
            )
        )
        and not head_of(clause, ctx.now).has("complete", "delete", "archive", "comment", "move", "query")
    )
    # "к пятнице подготовить отчёт по churn, это для команды CS": an infinitive with a date or a team
    todo_statement = (
        not clause.has("query", "deal", "note", "meeting", "block")
        and not clause.text.rstrip().endswith("?")
        and any(is_infinitive(k.text) for k in clause.keys[:4])
        and (
            clause.moment.day is not None
            or bool(_TEAM_PHRASE.search(clause.text))
            or ctx.memory.get("task_said") == ctx.clause_index - 1
        )
    )
    delegated = (
        clause.has("assign") and clause.has("linear") and not clause.identifiers
    )  # "поручи Олегу в Linear ..."
    # "remind me to renew the lease at the end of the month": no CRM record named (crm_task runs first)
    reminder = (
        clause.has("remind") and clause.moment.day is not None and not clause.has("query", "meeting", "block")
    )
    told_to = _REMIND_SOMEONE.match(clause.text) if reminder else None
    if told_to and await find_user(clause, ctx, told_to.group(1)) is None:
        # "remind Sergey to send the NDA tomorrow": whom the workspace does not know is asked, never dropped
        await colleague_asked_for(
            ctx, clause, told_to.group(1), "for_whom", ("Кому напомнить?", "Who should be reminded?")
        )
    if not (
        (
            clause.has("create", "remind", "put")
            and (
                noun
                or clause.has("linear")
                or await _these_into_a_team(clause, ctx)
                # «завести в ENG «Алерты на рост 5xx»»: made in a team, by its title, without the word "issue"
                or (in_team := _IN_A_TEAM_QUOTED.search(clause.text)) is not None
                # (a count said before it — «заведи ещё две в DES: «…» и «…»» — is a list the rules count)
                and not re.search(rf"(?i)\b{COUNT_WORD}\b", clause.text[: in_team.start()])
                and any(t.extra.get("key") == in_team["key"] for t in await ctx.directory.teams())
            )
        )
        or starts_as_task
        or introduced
        or delegated
        or todo_statement
        or reminder
        or dictated_list(clause.text)
    ):
        return False
    if clause.has("complete") and not clause.creates():
        return False  # "отметь как сделанную задачу про …" finishes an issue, it does not make one
    if (
        clause.has("query")
        and clause.first("query") < clause.first("create", "remind", "put", "assign")
        and not (
            HEADED_THING.match(clause.text) and not head_of(clause, ctx.now).has("query")
        )  # "Bug: … when …"
    ):
        return False  # "list open issues", "what CRM tasks are open": a question, not a create
    if clause.text.rstrip().endswith("?") and not clause.has("create"):
        return False
    if clause.has("put") and not clause.creates() and not noun:
        return False
    plural = bool(
        re.search(
            r"\b(задачи|задач|тикеты|тикета|тикетов|таски|тасок|тасков|баги|бага|багов|issues|tasks|tickets|bugs)\b"
            # "a separate issue for each browser: …", «по задаче на каждый браузер: …»: one per item listed
            r"|\b(?:for|per)\s+(?:each|every)\b|\bseparate\s+(?:issue|task|ticket)\b|\bна\s+кажд\w+|\bдля\s+кажд\w+"
            # «по задаче на звонок каждому клиенту: …», "one issue per customer: …": one for each listed
            r"|\bпо\s+(?:одной\s+)?задаче\b|\bкажд(?:ому|ой|ую)\s+(?:клиент|компани|сделк|заказчик)\w*|\bone\s+(?:issue|task|ticket)\s+(?:per|for\s+each)\b"
            r"|\bотдельн\w+\s+(?:задач\w*|тикет\w*)"
            # "File these in Linear …: 'A' and 'B'": the list after the colon is what "these" are
            r"|\b(?:these|those|both|эти|обе|оба|следующие|the\s+following(?!\s+(?:issue|task|ticket|bug)\b))\b(?=[^:]*:)"
            # «создай 2 issue: …», "3 new task: …": a count before the noun, said in the singular
            r"|\b(?:[2-9]|1\d|two|three|four|five|six|два|две|три|четыре|пять|шесть)\s+(?:new\s+|нов\w+\s+)?"
            r"(?:issue|task|ticket|bug|таск|тикет|баг)\b",
            clause.text,
            re.I,
        )
    )
    body = clause.after_colon if clause.after_colon is not None else clause.text
    if clause.after_colon is not None:
        with_fields = await _bare_fields_named(body, ctx)
        if with_fields != body:
            head = clause.text[: len(clause.text) - len(body)]
            return await create_issue(analyse(head + with_fields, ctx.now), ctx)
    teams = await ctx.directory.teams()
    team_keys = frozenset(str(t.extra.get("key")) for t in teams if t.extra.get("key"))
    people = await _first_names(ctx)
    # "…: new pricing table, team DES, label feature, assign to Max"; "crash on login, p1, max"
    details = _detail_segments(body, team_keys, people, teams)[1]
    team = await _team(clause, ctx, ctx.config.get("defaults", {}).get("linear_team"))
    if "team" in details:
        named = [m for m in await find(ctx, clause, "team", text=details["team"]) if m.score >= 0.9]
        keyed = [
            t
            for t in await ctx.directory.teams()
            if str(t.extra.get("key", "")).lower() == details["team"].lower()
        ]
        team = (
            keyed[0]
            if keyed
            else named[0].entity
            if named
            else await _team(replace(clause, text=f"в команде {details['team']}"), ctx, None)
        )
    if team is None:
        raise ctx.ask("team", ctx.t("В какой команде Linear?", "Which Linear team?"))
    project = await _project_in(clause, ctx)
    made = next((i for i in reversed(ctx.intents) if isinstance(i, CreateProject)), None)
    into_new = made is not None and bool(INTO_THE_NEW.match(clause.text))
    if into_new and made is not None:  # «создай проект X … и туда задачу …»: the project just made, its team
        project = None
        team = next((t for t in await ctx.directory.teams() if t.name == made.team), team)
    if project is None and "project" in details:
        found = [m for m in await find(ctx, clause, "project", text=details["project"]) if m.score >= 0.9]
        project = (
            found[0].entity
            if found
            else await _project_in(replace(clause, text=f"в проект {details['project']}"), ctx)
        )
    in_teams = [str(t) for t in (project.extra.get("team_ids") or [])] if project is not None else []
    if (
        len(in_teams) == 1
        and team.id not in in_teams
        and "team" not in details
        and not into_new
        and team.extra.get("key") == ctx.config.get("defaults", {}).get("linear_team")  # the default, unsaid
        and await _named_team(clause, ctx) is None
    ):  # "an issue in the Customer Onboarding project": no team said, so the project's own (CS), not ENG
        team = next((t for t in await ctx.directory.teams() if t.id == in_teams[0]), team)
    offset = len(clause.text) - len(body)
    raw = strip_spans(body, [(a - offset, b - offset) for a, b in clause.moment.spans if a >= offset])
    raw = _detail_segments(raw, team_keys, people, teams)[0]
    called = [
        str(team.name),
        str(team.extra.get("key")),
        *ctx.config.get("team_aliases", {}).get(str(team.extra.get("key")), []),
    ]
    raw = re.sub(
        r"(?i)\b(?:в|во|in|for|для)\s+(?:(?:the\s+)?team\s+|команд[уыеа]\s+)?(?:"
        + "|".join(re.escape(c) for c in called if c)
        + r")\b(?:\s+team)?",
        " ",
        raw,
    )
    raw = re.sub(r"(?i)[,\s]+(?:срок|due|deadline|дедлайн|до|by)\s*[.!]*$", "", raw.strip())
    raw = re.sub(
        r"(?i)[,\s]*\b(?:assign(?:ed)?(?:\s+it)?\s+to|give(?:\s+it|\s+this)?\s+to|назначь\s+на|исполнитель|assignee|owner)"
        r"\s*[:—-]?\s+\S+\s*$",
        "",
        raw,
    )
    raw = _PRIORITY_SAID.sub(" ", raw).strip()  # «… с высоким приоритетом»: how urgent, not what it is
    if project is not None:  # «заведи баг в ENG в проект Mobile App»: where it goes, not what it is
        raw = re.sub(
            rf"(?i)\b(?:в|во|to|into|in|under|for|для)\s+(?:the\s+)?(?:проект\w*\s+|project\s+)?{re.escape(project.name)}"
            r"(?:\s+project)?\b",
            " ",
            raw,
        ).strip(" ,")
    said_labels, raw = _said_labels(
        raw + (f", label {details['label']}" if "label" in details else ""),
        {lbl.name.lower(): lbl for lbl in await ctx.directory.labels(team.id)},
    )
    keys = "|".join(
        re.escape(str(t.extra.get("key"))) for t in await ctx.directory.teams() if t.extra.get("key")
    )
    if keys:  # "Create an ENG issue": the team's key before the noun is where it goes
        raw = re.sub(rf"\b(?:{keys})\s+(?=(?i:issue|task|ticket|bug|задач|тикет|баг))", "", raw)
    if clause.after_colon is None:
        raw = _TASK_START.sub("", raw, count=1)
        raw = re.sub(r"(?i)^\s*(?:поручи|assign)\s+\S+\s+", "", raw)
        raw = re.sub(r"(?i)\b(?:на меня|for me|to me)\b", " ", raw)
    told_first = re.match(r"(?s)^(.{8,}?[.!?])\s+(\S.*)$", raw) if clause.after_colon is None else None
    if told_first and not clean_title(told_first.group(2), ctx.lang):
        raw = told_first.group(1).rstrip(
            ".!?"
        )  # «Ромашка просит интеграцию с 1С. Заведи фичу …»: the news names it
    in_quotes = quoted(raw, at_least=3, apostrophes=True) if clause.after_colon is None else None
    said_whole = quoted(clause.text, at_least=3, apostrophes=True) if clause.after_colon is None else None
    if in_quotes and said_whole and set(in_quotes.split()) < set(said_whole.split()):
        in_quotes = said_whole  # 'Empty states for the team screen': a quoted title keeps every word said
    if in_quotes:  # "а можно создать задачу без команды? например «обновить шаблон КП»": the quote names it
        raw = in_quotes
    titles = _items(raw) if clause.after_colon is not None and plural else [raw]
    purpose = _EACH_FOR.search(clause.text.split(":", 1)[0]) if len(titles) > 1 else None
    if purpose:  # «по задаче на звонок каждому клиенту: Acme, Globex»: «Звонок: Acme», «Звонок: Globex»
        what = (purpose.group(1) or purpose.group(2)).strip()
        titles = [f"{what[:1].upper()}{what[1:]}: {t}" for t in titles]
    counted = _COUNTED.split(raw) if plural else []
    if plural and len(counted) > 2:
        # «две задачи первая обновить зависимости вторая настроить алерты»: one issue per "first/second …"
        titles = [t.strip(" ,.;:—-") for t in counted[1:] if t.strip(" ,.;:—-")]
    each = _EACH.search(raw) if clause.after_colon is None and plural else None
    if each:  # "six issues for the load tests, one for each service auth billing … and reports"
        rest = raw[each.end() :]
        spaced = "," not in rest and ";" not in rest  # dictated: the items are the words themselves
        listed = [w for w in re.split(r"\s+(?:and|и)\s+|\s+", rest.strip()) if w] if spaced else _items(rest)
        count = _said_count(raw[: each.start()])
        topic = _topic(raw[: each.start()], ctx.lang)
        if len(listed) >= 2 and (count is None or count == len(listed)):
            if spaced and count is None and ctx.answer("items") != "yes":
                if ctx.answer("items") == "no":
                    raise ctx.ask(
                        "title",
                        ctx.t("Перечислите задачи через запятую:", "List the issues, separated by commas:"),
                    )
                said = ", ".join(listed)
                raise ctx.ask(  # one word per issue is a guess without a count: said back first
                    "items",
                    ctx.t(
                        f"Правильно понял — {len(listed)} задач: {said}?",
                        f"Did I get it right - {len(listed)} issues: {said}?",
                    ),
                    choices=ctx.yes_no(),
                    free_text=False,
                )
            titles = [f"{topic}: {x}" if topic else x for x in listed]
    cleaned = [clean_title(t, ctx.lang, content=clause.after_colon is not None) for t in titles]
    if (
        len(titles) > 1
    ):  # "…: Home, Pricing, About, Contact": an item of a list is its own words, never dropped
        cleaned = [c or t.strip(" ,.;:—-") for c, t in zip(cleaned, titles, strict=True)]
    titles = [t for t in cleaned if t]
    # «…: теряются копейки. Приоритет — срочный, команда Engineering»: the fields said after the title
    titles = [_FIELDS_AFTER.split(t, maxsplit=1)[0].strip() or t for t in titles]
    spoken = _SPOKEN_LIST.fullmatch(titles[0]) if plural and len(titles) == 1 and not in_quotes else None
    if spoken and not each:  # «задачи иконки кнопки шрифты цвета отступы и тени»: a list said without commas
        listed = re.split(r"\s+(?:и|and)\s+|\s+", titles[0].strip())
        if ctx.answer("items") not in ("yes", "да"):
            raise ctx.ask(
                "items",
                ctx.t(
                    f"Правильно понял — {len(listed)} задач: {', '.join(listed)}?",
                    f"Did I get it right - {len(listed)} issues: {', '.join(listed)}?",
                ),
                choices=ctx.yes_no(),
                free_text=False,
            )
        titles = listed
    listed_back = ctx.answer("titles")
    if listed_back:  # the list asked for below, given
        titles = _items(listed_back) or titles
    elif (
        plural
        and not spoken
        and not each
        and len(titles) == 1
        and not in_quotes
        and _ISSUES_SAID.search(clause.text)
        and _UNSEPARATED.fullmatch(titles[0])
        and not any(is_infinitive(w) or is_imperative(w) for w in titles[0].split())
    ):  # «задачи по релизу заморозка кода регресс чейнджлог релиз в сторы мониторинг ретро»: where one ends is unsaid
        raise ctx.ask(
            "titles",
            ctx.t("Перечислите задачи через запятую:", "List the issues, separated by commas:"),
        )
    said = clause.text
    several = [q.group(1) or q.group(2) or q.group(3) for q in _EACH_QUOTED.finditer(said)] if plural else []
    if len(titles) == 1 and len(several) >= 2 and _QUOTES_JOINED.search(said):
        # «задачи «Обновить SDK» и «Почистить логи», обе на Олега»: one issue for each quoted title
        titles = [t.strip()[:255] for t in several]
    elif in_quotes and len(titles) == 1 and not plural:
        titles = [in_quotes.strip()[:255]]  # a title in quotes is the person's own words, every one of them
    titles = [
        re.sub(r"^\s*['\"«“]([^'\"«»“”]+)['\"»”]\s*$", r"\1", t) for t in titles
    ]  # the words, not the quotes
    if len(titles) == 1 and titles[0].strip(" .!").lower() in {c.lower() for c in called if c}:
        titles = []  # "new issue ENG": the team is no title
    if (
        len(titles) == 1
        and re.fullmatch(r"[A-ZА-ЯЁ][a-zа-яё]+(?:\s+[A-ZА-ЯЁ][a-zа-яё]+)?", titles[0].strip(" .!"))
        and re.search(rf"(?i)\b(?:for|для)\s+{re.escape(titles[0].strip(' .!'))}\s*[.!]*\s*$", clause.text)
    ):
        titles = []  # "Please create an issue for Sarah.": whom it is for, and no title
    if clause.after_colon is None and any(
        _ASKED_IN_TITLE.search(t) and len(re.findall(r"[^\W\d_]{3,}", _ASKED_IN_TITLE.sub(" ", t))) <= 2
        for t in titles
    ):
        titles = []  # «Эм, мне нужно создать задачу. Наверное, в Linear»: the request itself, no title yet
    if len(titles) == 1 and (lead := re.match(r"(?i)\s*(?:и|а|and|then)\s+([^\W\d_]+)", titles[0])):
        if is_imperative(lead.group(1).lower()) or lead.group(1).lower() in (
            "set",
            "put",
            "make",
            "assign",
            "give",
        ):
            titles = []  # «Создай задачу и поставь её на пятницу»: what to do with it next, no title
    assignee, said_for = await new_issue_assignee(clause, ctx)
    if assignee is None and _DELEGATED.search(clause.text) and not ctx.answer("assignee"):
        # «Иванову поручить подготовить КП», «поручить Петренко …»: whom is asked, never dropped
        users = await ctx.directory.users()
        raise ctx.ask(
            "assignee",
            ctx.t("Кому поручить?", "Who should it be assigned to?"),
            choices=[(u.name, u.id) for u in users[:5]],
        )
    if assignee is None and ctx.answer("assignee"):
        assignee = next((u for u in await ctx.directory.users() if u.id == ctx.answer("assignee")), None)
    if said_for:  # «поставь Олегу задачу починить логин»: whom it is for is no part of its title
        whom = re.escape(said_for.split()[-1])
        titles = [
            t
            for t in (
                re.sub(rf"(?i)^(?:(?:→|->)\s*)?{whom}(?:\s+(?:задачу|таску))?\b[\s—–:-]*", "", t).strip()
                for t in titles
            )
            if t
        ]
    # "a new issue for max to fix the flaky e2e tests": what to do, without the "to" that led to it
    titles = [re.sub(r"^to\s+(?=[a-z]{2,}\s)", "", t) for t in titles]
    if len(titles) == 1 and _FROM_THE_PASTED.fullmatch(titles[0].strip(" .")):
        # "File a CS issue from this email …. Title: "Globex: chart export cuts off legends"": the title said apart
        said_title = _TITLE_SAID.search(str(ctx.memory.get("full_text", "")).replace(KEPT_COLON, ":"))
        titles = [said_title.group(1).strip()] if said_title else []
    for_whom = (
        _FOR_A_CUSTOMER.search(clause.text.split(":", 1)[0]) if clause.after_colon is not None else None
    )
    if for_whom and len(titles) == 1:  # «заведи issue для Ромашки: проверить SCIM»: «Ромашка: проверить SCIM»
        customers = [m for m in await find(ctx, clause, "company", text=for_whom.group(1)) if m.score >= 0.9]
        if len(customers) > 1 and len(customers[0].positions) > len(customers[1].positions):
            customers = customers[:1]  # «для акме корп»: Acme Corp said in full, not Acme Logistics
        name = customers[0].entity.name if len(customers) == 1 else ""
        if name and not match_words(keys_for(name), keys_for(titles[0])):
            titles = [f"{name}: {titles[0]}"]
    if not titles and not _what_follows(clause, ctx):  # 'From the support inbox: "Export to CSV returns 500".
        before = quoted(str(ctx.memory.get("full_text", "")), at_least=8)  # Create an ENG issue': the quote
        titles = [before.strip()[:255]] if before else []
    told = ctx.said_before()
    if (
        not titles
        and told
        and len(keys_for(told)) >= 3
        and not told.rstrip().endswith("?")
        and clause.after_colon is None
        and not ctx.memory.get("told_as_title")
        and not _what_follows(clause, ctx)  # «…, и заведи тикет на Олега — разобрать …»: it is said next
        # (told, not asked: "remove the feature label from ENG-105, add bug" names no new issue's title)
        and not (
            ctx.intents
            and ctx.intents[-1].op in WRITE_OPS
            and not isinstance(ctx.intents[-1], CreateIssue)
            and ctx.intents[-1].span is not None
            and ctx.intents[-1].span in told
        )
        # («Посчитай задачи Олега. И создай задачу.»: a question asked before names no new issue)
        and not (
            _ASKED_TO_READ.match(told)
            and any(i.op == "find" and i.span and (i.span in told or told in i.span) for i in ctx.intents)
        )
    ):  # «Клиент жалуется, что экспорт в Excel падает — заведи баг на ENG»: the problem told before it
        ctx.memory["told_as_title"] = True
        last = ctx.intents[-1] if ctx.intents else None
        if isinstance(last, CreateIssue) and last.title and last.title in told:
            # «Баг: при экспорте … теряются даты. Заведи в ENG, приоритет срочный»: the issue just read, said
            # again with more of it — one issue, not two
            ctx.drop_last()
            told = last.title
        report = _report_told(ctx)
        if report and "description" not in ctx.memory:
            # "Customer report from Jane: when they export … . Happens in … . Please file a bug": the report's
            # first sentence names the issue, the whole report describes it
            told, ctx.memory["description"] = report
            try:
                return await create_issue(analyse(f"{clause.text}: {told}", ctx.now), ctx)
            finally:
                ctx.memory.pop("description", None)
        return await create_issue(analyse(f"{clause.text}: {told}", ctx.now), ctx)
    answered = ctx.answer("title")
    if not titles and answered and answered.strip():
        titles = [answered.strip()[:255]]
    # «заведи баг в инженерке»: where it goes (a team I don't know by that name) is no title of it
    if not answered and clause.after_colon is None:  # (after a colon, what is said is the title: «…: в базе»)
        titles = [t for t in titles if not _PLACE_ONLY.fullmatch(t.strip(" .!"))]
    vague = next((t for t in titles if _VAGUE.search(t)), None) if not answered else None
    if (
        vague is not None
    ):  # "a ticket for the thing we talked about yesterday" names nothing the tracker knows
        raise ctx.ask(
            "title",
            ctx.t(f"Как назвать задачу? «{vague[:80]}» — не знаю, о чём это.",
                  f"What should the issue be called? I don't know what '{vague[:80]}' is."),
        )  # fmt: skip
    if len(titles) == 1 and not answered:  # «Закинь Олегу задачу»: the request's words and whom it is for
        colleague = await _first_names(ctx)
        titles = [t for t in titles if not says_nothing(" ".join(w for w in t.split() if not colleague(w)))]
    if not titles and clause.after_colon is None and _what_follows(clause, ctx):
        ctx.memory["task_said"] = ctx.clause_index  # «поставь Максу задачу в линейке, сделать демо …»:
        return True  # the next words are the task, and it is made from them
    if not titles:
        raise ctx.ask("title", ctx.t("Как назвать задачу?", "What should the task be called?"))
    labels = {lbl.name.lower(): lbl for lbl in await ctx.directory.labels(team.id)}
    tagged = [labels["bug"]] if clause.has("bug") and "bug" in labels else []
    head_words = clause.text.split(":", 1)[0] if clause.after_colon is not None else clause.text
    if "feature" in labels and re.search(
        r"(?i)\b(?:заведи|создай|добавь|create|add|file|open)\s+(?:a\s+|new\s+|новую\s+)?(?:фич[уа]|feature)\b",
        head_words,
    ):
        tagged.append(labels["feature"])  # «заведи фичу …», "file a feature": what kind of issue it is
    kind_as_field = _KIND_AS_FIELD.search(clause.text)
    for word, name in (("фич", "feature"), ("feature", "feature"), ("баг", "bug"), ("bug", "bug")):
        if kind_as_field and kind_as_field.group(1).lower().startswith(word) and name in labels:
            # "тикет в ENG про 2FA для админки, фича, приоритет средний": its kind, said as a field
            if labels[name] not in tagged:
                tagged.append(labels[name])
            titles = [
                _KIND_AS_FIELD.sub(lambda m: m.group(0)[-1] if m.group(0)[-1] in ",;" else "", t).strip(" ,")
                for t in titles
            ]
    tagged += [x for x in said_labels if x not in tagged]
    head = (clause.text.split(":", 1)[0] if clause.after_colon is not None else clause.text).lower()
    tagged += [
        x
        for n, x in labels.items()
        if x not in tagged and re.search(_as_words(n), head) and n != "onboarding"
    ]  # "a feature issue", "a security ticket", "as a customer request" (customer-request)
    urgent = (
        clause.has("priority")
        or re.search(r"срочн|urgent", clause.text, re.I)
        or _P_LEVEL.search(clause.text)  # ("…, p1", "… p1 @max": the tracker's shorthand, said as a field)
        or "priority" in details
    )
    priority = priority_of(details.get("priority") or clause.text) if urgent else None
    due = clause.moment.day.isoformat() if clause.moment.day else None
    said_due = list(_DUE_SAID_AS_FIELD.finditer(clause.text))
    explicit_due = extract_moment(said_due[-1].group("day"), ctx.now).day if said_due else None
    told_before = [a for a, _ in clause.moment.spans if said_due and a < said_due[-1].start()]
    if explicit_due is not None and explicit_due.isoformat() != due and told_before:
        # "…: Initech SSO cert expires Jan 10, rotate it before then. CS team, Oleg, due Jan 5": the day said as
        # its due date, not the first day its words name
        due = explicit_due.isoformat()
        field = said_due[-1].group(0)
        titles = [t.replace(field.strip(" ,"), "").strip(" ,") or t for t in titles]
    first = re.match(r"\s*([^\W\d_][\w-]+)\s", clause.text)
    if assignee is None and introduced and first:  # "Анне в CS задачу: …": the person it is for comes first
        named = [m for m in await find(ctx, clause, "user", text=first.group(1)) if m.score >= 0.5]
        assignee = named[0].entity if named else None
    if assignee is None and introduced:  # "task oleg tmrw: rotate prod db creds": named in the heading
        heading = [w for w in re.findall(r"[^\W\d_]+", clause.text.split(":", 1)[0]) if people(w)]
        if len(heading) == 1:
            assignee = await find_user(clause, ctx, heading[0])
    taker = _TAKES_IT.search(clause.text) if assignee is None else None
    if taker:  # "…, Oleg can take it": who does it, said after what it is
        assignee = await find_user(clause, ctx, taker.group(1) or taker.group(2))
        if assignee is not None:
            titles = [t.replace(taker.group(0).strip(" ,"), "").strip(" ,") or t for t in titles]
    stranger = _FOR_SOMEONE.search(head_words) if assignee is None and "assignee" not in details else None
    if stranger and not ctx.answer("assignee") and not await _known_name(clause, ctx, stranger.group(1)):
        raise ctx.ask(  # «задачку Пете из поддержки: …»: Petya is no one the tracker knows
            "assignee",
            ctx.t(
                f"«{stranger.group(1)}» нет среди пользователей Linear. На кого назначить?",
                f"'{stranger.group(1)}' is not a Linear user. Who should it go to?",
            ),
            choices=[(u.name, u.id) for u in (await ctx.directory.users())[:5]],
        )
    if assignee is None and ctx.answer("assignee"):
        assignee = next((u for u in await ctx.directory.users() if u.id == ctx.answer("assignee")), None)
    if "assignee" in details:
        assignee, said_for = await find_user(clause, ctx, details["assignee"]), ""
        if assignee is None:
            raise ctx.ask(
                "assignee",
                ctx.t(
                    f"Кто такой «{details['assignee']}»? На кого назначить?",
                    f"Who is '{details['assignee']}'? Who should it go to?",
                ),
                choices=[(u.name, u.id) for u in (await ctx.directory.users())[:5]],
            )
    if said_for:  # "…, на олега": who does it is not part of what is done
        titles = [re.sub(rf"[,\s]*{re.escape(said_for)}\s*$", "", t, flags=re.I).strip() or t for t in titles]
        # («заведи задачу на Олега обновить сертификат»: whose, said before what it is)
        titles = [re.sub(rf"^\s*{re.escape(said_for)}[,\s]+(?=\S)", "", t, flags=re.I) or t for t in titles]
        # «задачу в Linear на Олега со сроком до пятницы»: whose and by when, and nothing else — no title
        titles = [t for t in titles if not _ONLY_WHOSE_AND_WHEN.fullmatch(t)]
        if not titles:
            raise ctx.ask("title", ctx.t("Как назвать задачу?", "What should the task be called?"))
    if assignee is not None:  # "an issue for Oleg to rotate …": the issue is the rotating
        first_name = re.escape(assignee.name.split()[0])
        titles = [re.sub(rf"(?i)^{first_name}\w*\s+to\s+", "", t).strip() or t for t in titles]
    if project is not None and project.id != "new":  # «… в проекте q1 launch»: where it goes is no part of it
        place = (
            rf"[,\s]*\b(?:(?:в|во|in|into|to|for)\s+(?:the\s+)?(?:проект\w*\s+)?|проект\s+)"
            rf"{re.escape(project.name)}(?:\s+project)?\b"
        )
        titles = [re.sub(place, " ", t, flags=re.I).strip(" ,") or t for t in titles]
        # «…: «Пуши не приходят». Свяжи его с проектом Mobile App»: the sentence that placed it is no title
        titles = [_PLACED_SENTENCE.sub("", t).strip(" ,.") or t for t in titles]
        # («…, срок 1 декабря, и свяжи с проектом …»: the day went before; its word is left at the end)
        titles = [re.sub(r"(?i)[,\s]+(?:срок|сроком|due|deadline|дедлайн)$", "", t) or t for t in titles]
    if project is not None and project.id == "new":
        name = _project_name(clause) or titles[0][:50]
        await ctx.emit(CreateProject(name=name[:80], team=team.name), team=team)
        project = None
        project_name: str | None = name[:80]
    else:
        project_name = project.name if project else None
    if into_new and made is not None:
        project_name = made.name
    placed = next(  # «Заведи тикет «…» в бэклог ENG»: the state it starts in
        (name for rx, name in STATE_PHRASES if rx.search(_WITHOUT_QUOTES.sub(" ", head_words))), None
    )
    end = _STATE_AT_THE_END.search(titles[0]) if placed is None and len(titles) == 1 else None
    if end:  # "…: set up alerts, Max, in Backlog", «…, в бэклог», "…, status Todo": the state it starts in
        said = end.group(0).lower()
        placed = (
            "In Progress"
            if "работу" in said
            else "Todo"
            if "тудушки" in said
            else next((name for rx, name in STATE_PHRASES if rx.search(said)), None)
        )
        if placed is not None and titles[0][: end.start()].strip(" ,;"):
            titles = [titles[0][: end.start()].strip(" ,;")]
    said_count = _said_count(clause.text.split(":", 1)[0])
    relisted = ctx.answer("count")
    if relisted and relisted.strip():  # the list, said again as the answer: one issue per item
        titles = [t for t in _items(relisted) if t][:25]
    elif said_count and said_count >= 2 and len(titles) != said_count:
        # "File 6 issues …, one per browser, titled '…: <browser>'": six asked, one read — said back, not drafted
        read = "; ".join(titles[:5])
        raise ctx.ask(
            "count",
            ctx.t(
                f"Вы просили {said_count} задач(и), а я понял {len(titles)}: {read}. Перечислите их через запятую.",
                f"You asked for {said_count} issues and I read {len(titles)}: {read}. List them, separated by commas.",
            ),
        )
    told = ctx.said_before().strip()
    titles = [
        re.sub(r"^\s*['\"«“]([^'\"«»“”]+)['\"»”]\s*$", r"\1", t) for t in titles
    ]  # (quotes left by "— me")
    # «…задачу для дизайна нарисовать иконки …, срок пятница»: the team said first and a field's word left
    # once its day was taken are no part of the title
    for n, title in enumerate(titles):
        lead = re.match(r"(?i)(?:для|в|во|for|in)\s+(\S+)\s+(?=\S)", title)
        if lead and [m for m in await find(ctx, clause, "team", text=lead.group(1)) if m.score >= 0.9]:
            title = title[lead.end() :]
        titles[n] = re.sub(r"(?i)[,\s]+(?:срок|сроком|due|deadline|дедлайн)\s*$", "", title) or title
    days = _dated_items(titles, clause, ctx)
    if days:  # "make CS tickets for each Q1 webinar: Jan 15, Jan 29, …": one issue per day, due that day
        titles = [title for title, _ in days]
    # "two issues for those, the HL7 one high priority": the level is that one's alone
    one_of = _THE_ONE_AT.search(clause.text) if len(titles) > 1 else None
    for n, title in enumerate(titles):
        due = days[n][1] if days else due
        if one_of:
            which = (one_of.group(1) or one_of.group(2)).lower()
            priority = priority_of(one_of.group(0)) if which in title.lower() else None
        # "…our SSO setup docs are outdated. Open an issue to refresh them": what "them" is, said before
        pointing = (
            _POINTS_BACK.search(title)
            and told
            and not told.rstrip().endswith("?")
            # ("Create a deal … for Initech, and open a CS issue to review usage with them": a request is no context)
            and not any(i.span and told.strip() in i.span for i in ctx.intents)
        )
        # "…«Empty state», макет тут: https://…": a link said with the new issue goes into its description
        links = [u for u in _LINK.findall(clause.text) if u not in title]
        for_deal = await _deal_it_is_for(
            clause, ctx
        )  # "a Linear issue for the Romashka deal: …": its context
        await ctx.emit(
            CreateIssue(
                title=title,
                description=ctx.memory.get("description")
                or (
                    re.sub(r"(?i)^(?:context|контекст)\s*:\s*", "", told)[:2000]
                    if pointing
                    else "\n".join([*links, *([f"Deal: {for_deal.name}"] if for_deal else [])])[:2000] or None
                ),
                team=team.name,
                due=due,
                priority=priority_name(priority),
                labels=[x.name for x in tagged] or None,
                assignee=assignee.name if assignee else None,
                project=project_name,
                state=placed if placed in ("Backlog", "Todo", "In Progress", "In Review", "Triage") else None,
            ),
            team=team,
            labels=tagged,
            assignee=assignee,
            project=project,
            timed=clause.moment.at is not None,
        )
    return True


_FOR_A_DEAL = LazyRe(
    r"(?i)\b(?:for|about|re|on)\s+(?:the\s+)?(?P<en>[^:,;]{2,40}?)\s+deal\b|\b(?:по|для|про)\s+сделк\w+\s+(?P<ru>[^:,;]{2,40}?)(?=\s*[:,;]|$)"
)


async def _deal_it_is_for(clause: Clause, ctx: BuildContext) -> Entity | None:
    """The deal a new issue is said to be for, before its title's colon (named in its description)."""
    said = _FOR_A_DEAL.search(clause.text.split(":", 1)[0])
    if said is None:
        return None
    words = said["en"] or said["ru"]
    deals = {m.entity.id: m.entity for m in await find(ctx, clause, "deal", text=words) if m.score >= 0.9}
    if not deals:  # («for the Romashka deal»: the company's one deal)
        return await the_companys_one_deal(ctx, analyse(words, ctx.now))
    return next(iter(deals.values())) if len(deals) == 1 else None


# "…, все на Олега", "put them all in the Mobile App project": a detail said for every item of a list
_ALL_OF_THEM = r"(?:(?:put|assign|move|add|поставь|положи|закинь)\s+)?(?:them\s+|их\s+)?(?:all|все|всё|всех|каждую|each)?\s*"
_DETAILS = [
    ("team", re.compile(r"^(?:team|команда|в\s+команд\w*|for\s+(?:the\s+)?team)\s+(.+)$", re.I)),
    # "label docs", "label it docs", «метка docs»
    ("label", re.compile(r"^(?:labels?|tags?|метк\w*|лейбл\w*|тег\w*|с\s+меткой)(?:\s+(?:it|them))?\s*[:—-]?\s*(.+)$", re.I)),
    ("assignee", re.compile(
        rf"^{_ALL_OF_THEM}(?:assign(?:ed)?(?:\s+it)?(?:\s+to)?|назнач\w*(?:\s+на)?|assignee|owner|ответственн\w*|исполнител\w*|назначь\s+на|на|"
        r"for|для|to)\s*[:—-]?\s+(.+)$",
        re.I,
    )),
    ("priority", re.compile(
        r"^(?:(?:priority|приоритет\w*)\s*[:—-]?\s*(\w+)|(\w+)\s+(?:prio|priority|приоритет\w*)|"
        r"(urgent|high|low|medium|asap|critical|p[0-4]|срочно|срочная|высокий|низкий|средний))$",
        re.I,
    )),
    ("project", re.compile(
        rf"^{_ALL_OF_THEM}(?:(?:в|во|in|into)\s+(?:the\s+)?)?(?:проект\w*|project|proj\.?|эпик\w*|epic)\s+(.+)$|"
        rf"^{_ALL_OF_THEM}(?:(?:in|into)\s+)?(?:the\s+)?(.+?)\s+(?:project|проект)$",
        re.I,
    )),
]  # fmt: skip
# what a dictated list carries besides its items: linking words, fillers, the count said back
_ITEM_LEAD = LazyRe(r"(?i)^(?:(?:and|и|а|also|plus|ещё|еще|uh|um|э+|эм+|ну|короче)\b[\s,.]*)+")
_COUNT_REMARK = LazyRe(
    r"(?i)^(?:that'?s|this\s+is|it'?s|это|всего|итого|total)\s+\w+(?:\s+(?:of\s+them|штук\w*))?$"
)


async def _first_names(ctx: BuildContext) -> Callable[[str], bool]:
    """Whether words said alone in a list of details name a colleague ("…, p1, max", «…, олег»)."""
    names = [keys_for(u.name) for u in await ctx.directory.users()]

    def is_colleague(words: str) -> bool:
        said = keys_for(words)
        return words.lower() in ("me", "мне", "на меня", "myself") or (
            0 < len(said) <= 2 and any(match_words(said, name) for name in names)
        )

    return is_colleague


_MADE_SO = LazyRe(
    r"(?i)\b(?:make|сделай)\s+(?:the|this|that|our|my|эту|этот)\s+[^,.;:]{0,60}?\b(?:issue|ticket|task|bug|one|задач\w*|тикет\w*)\s+"
    + PRIORITY_MADE
)
_FIELD_ON_THE = LazyRe(
    r"(?i)\b(?:fix|change|update|set|bump|raise|lower|correct)\s+the\s+(?:priority|due\s+date|deadline|assignee|status|state|"
    r"title|labels?)\s+(?:on|of|for|in)\s+(?:the|this|that|our)\b"
)
_POINTS_BACK = LazyRe(r"(?i)\b(?:them|it|this|that|these|those|их|его|её|ее|это|этого)\s*$")


def _detail_segments(
    body: str,
    team_keys: frozenset[str] = frozenset(),
    people: Callable[[str], bool] = lambda _: False,
    teams: list[Entity] | None = None,
) -> tuple[str, dict[str, str]]:
    """Comma-separated details after a title ("team DES", "метка feature", "ответственный Макс",
    "high prio", "в проект Customer Onboarding"; tersely "p1", "max", "proj mobile"): what each says, and
    the body without them."""
    # «…нарисовать баннер для вебинара проект вебсайт редизайн»: dictated, the project said last with no comma
    body = re.sub(
        r"(?i)(?<=[^\W\d_])\s+(?=(?:проект|project)\s+[^\s,.;]+(?:\s+[^\s,.;]+){0,2}\s*[.!]?$)", ", ", body
    )
    # "…: Home, Pricing, Contact. All of them in the Website Redesign project": what is said of them all
    body = re.sub(
        r"(?i)(?<=[^\W\d_])[.!]\s+(?=(?:all\s+of\s+them|all|both|each|все|всё|оба|обе|каждую|каждая)\b)",
        ", ",
        body,
    )
    # "'Dark mode tokens audit' (Max, medium, Website Redesign project)": the details in parentheses after a
    # quoted title are details all the same
    body = re.sub(r"(?<=['\"»”])\s*\(([^()]+)\)\s*$", r", \1", body)
    body = re.sub(r"^(\s*['\"«“][^'\"«»“”]{3,}['\"»”])\s*[—–-]\s+", r"\1, ", body)  # "'…' — me, medium"
    parts = [_ITEM_LEAD.sub("", p.strip()) for p in re.split(r"\s*[,;]\s*|\s+/\s+", body)]
    parts = [p for p in parts if p.strip(" .;") and not _COUNT_REMARK.match(p.strip(" .;"))] or [body]
    details: dict[str, str] = {}
    kept: list[str] = []
    for i, part in enumerate(parts):
        found = None
        if i > 0 or len(parts) == 1 and False:
            for name, rx in _DETAILS:
                m = rx.match(part.strip(" .;"))
                if m and name not in details and (name != "assignee" or len(m.group(1).split()) <= 2):
                    found = (name, next(g for g in m.groups() if g))
                    break
        if (
            found is None
            and i > 0
            and "team" not in details
            and _a_team_said(part.strip(" .;"), team_keys, teams or [])
        ):
            found = ("team", part.strip(" .;"))  # "…, проект Website Redesign, DES": the team's key alone
        if found is None and i > 0 and "assignee" not in details and people(part.strip(" .;")):
            found = ("assignee", part.strip(" .;"))  # "crash on login, p1, max": a colleague's name alone
        if found:
            details[found[0]] = found[1].strip(" «»\"'")
        else:
            kept.append(part)
    return ", ".join(kept), details


def _a_team_said(part: str, team_keys: frozenset[str], teams: list[Entity]) -> bool:
    """ "DES", "Design", «дизайн»: a team's key, or its whole name in either language, said as a detail."""
    if part in team_keys:
        return True
    said = keys_for(part)
    return 0 < len(said) <= 2 and any(
        m.score >= 0.9 and len(m.positions) == len(said) for m in find_mentions(said, teams)
    )


def _project_name(clause: Clause) -> str | None:
    named = re.search(r"(?i)[«\"'“]([^«»\"'“”]{2,50})[»\"'”]\s+(?:project|проект)\b", clause.text)
    if named:  # "create a 'Mobile v2' project in DES": its name in quotes, said before the word
        return named.group(1).strip()
    m = re.search(
        r"(?:в\s+проект[еa]?|project)\s+[«\"']?([^,.;:»\"']+)|the\s+(.+?)\s+project", clause.text, re.I
    )
    return next((g.strip()[:50] for g in (m.groups() if m else ()) if g), None)


@rule(58, writes=True)
async def create_project(clause: Clause, ctx: BuildContext) -> bool:
    """An explicit "create a project X" (seed 002: a project is never created implicitly)."""
    if not clause.has("create") or not clause.has("project") or clause.has("task", "issue", "query"):
        return False
    if not re.search(
        r"(?i)\b(?:new|create|add|start|set\s+up|spin\s+up|kick\s+off|make|open|создай|создать|заведи|завести|добавь|нов\w+|"
        r"запусти|сделай|сделать|открой)\s+(?:a\s+|the\s+|an\s+)?(?:(?:в|in)\s+\S+\s+)?(?:linear\s+|new\s+)?(?:project|проект)"
        # «проект в линеаре создай называется …»: the project said first, then the verb
        r"|^\s*(?:project|проект)\s+(?:(?:в|in)\s+\S+\s+)?(?:создай|заведи|create|add)\b"
        r"|\b(?:create|new|start|set\s+up)\s+(?:a\s+|an\s+|the\s+)?(?:new\s+)?[«\"']?(?:(?!\b(?:it|to|into|in)\b)[\w .'-]){1,40}?[»\"']?\s+project\b",
        clause.text,
    ):
        return False  # "new: …, project Mobile App", «заведи фичу в DES: …, в проект X»: where an issue goes
    m = re.search(
        r"(?:(?:проект[а-я]*|project)\s+(?:(?:в|in)\s+\S+\s+)?(?:(?:создай|заведи|create|add)\s+)?|\bназывается\s+)"
        r"(?:called\s+|named\s+|под названием\s+|с названием\s+|называется\s+)?[«\"']?([^«»\"':,;]+?)[»\"']?"
        r"(?:\s+(?:in|for|в|для)\s+(?:the\s+)?(?:команд\w+\s+|team\s+)?[\w-]+(?:\s+team)?)?"
        r"(?=\s*(?:[,;]|\s(?:with|target|due|by|deadline|к|до|и|and|со?\s+сроком|с\s+целев\w+|с\s+дедлайн\w*|"
        r"срок\w*|команда|team|ну|для)\b|$))",
        clause.text,
        re.I,
    )
    before_noun = re.search(  # "Create a Billing v2 project in ENG": the name before the word
        r"(?i)\b(?:create|new|start|set\s+up)\s+(?:a\s+|an\s+|the\s+)?(?:new\s+)?((?:(?!\b(?:it|to|into|in)\b)[\w .'-]){1,40}?)\s+project\b",
        clause.text,
    )
    if m and re.match(r"(?i)(?:in|for|в|для)\b", m.group(1).strip()):
        m = None  # "project in ENG": where it is, not what it is called
    if m is None and before_noun and before_noun.group(1).strip().lower() not in ("linear", "a", "new"):
        m = before_noun
    said = quoted(
        clause.text, apostrophes=True
    )  # «Миграция биллинга» … с целевой датой …, "a 'Mobile v2' project"
    name = (said if said else m.group(1) if m else "").strip() or (ctx.answer("name") or "").strip()
    head = clause.text.split(":", 1)[0]
    # "New project «Checkout Revamp» in ENG, …, description: …": what follows the colon describes it
    described = re.search(r"(?i)\b(?:description|описани\w*)\s*$", head) if clause.after_colon else None
    if clause.after_colon and not described and not quoted(head, apostrophes=True):
        # "новый проект в Linear: Миграция на Postgres 17, команда ENG"
        name = re.split(r",\s*(?:команда|team)\b", clause.after_colon, flags=re.I)[0].strip()
    name = re.sub(
        r"(?i)^(?:в|in)\s+(?:linear|линеар\w*|линейк\w*)(?:\s+|$)", "", name
    ).strip()  # "… в Linear"
    if not name:
        raise ctx.ask("name", ctx.t("Как назвать проект?", "What should the project be called?"))
    team = await _team(clause, ctx, ctx.config.get("defaults", {}).get("linear_team"))
    if team is None:
        raise ctx.ask("team", ctx.t("Для какой команды Linear?", "Which Linear team?"))
    target = clause.moment.day.isoformat() if clause.moment.day else None  # "с целевой датой 31 декабря"
    about = clause.after_colon.strip()[:2000] if described and clause.after_colon else None
    await ctx.emit(
        CreateProject(name=name[:80], team=team.name, target_date=target, description=about), team=team
    )
    return True
