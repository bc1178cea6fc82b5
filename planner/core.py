"""The planner: a request -> intents -> resolution -> actions -> a Plan (DESIGN §5a).

Producers of intents: the rules for Russian and English text (planner/rules, offline), a client's
model (`intents`), seed 001's `command` (planner/command), and the optional model interpreter
(planner/interpreter) when the rules did not understand the whole text. One pipeline follows them all:
strict validation (planner/intents), resolution of every reference (planner/references), business
checks, actions, scopes and risk flags (planner/actions). One clarifying question at a time; answers
are replayed on the original request (`answers`), so a picked value never loses the rest of what
the person said.
"""

from __future__ import annotations

import contextlib
import functools
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal
from zoneinfo import ZoneInfo

from planner import _shaping as shaping
from planner._lazy_re import LazyRe
from planner.actions import compile_intent
from planner.alternatives import settle_alternatives
from planner.analysis import KEPT_COLON, Clause, analyse, leaves_alone, split_clauses, with_its_verb
from planner.anaphora import same_team_named
from planner.answers import Refine
from planner.command import CommandError, command_intents, command_language, parse_command
from planner.conditions import subject_of, unmet
from planner.context import Ask, BuildContext, Invalid, LedgerView
from planner.corrections import corrected
from planner.coverage import (
    Coverage,
    QuestionNotWrite,
    asks_advice,
    asks_for_something,
    interrogative,
    value_gaps,
)
from planner.date_gaps import weekday_mismatch
from planner.dates import RU_ORDINAL_STEMS, no_such_day, ru_ordinal_number
from planner.declines import Declines, marks_of, of_a_kind
from planner.dialogue import (
    ADDED_TO_A_DEAL,
    ADDED_TO_A_DEAL_SAID,
    ADVICE_SAID,
    EVENT_CHANGE,
    EVENT_CHANGE_SAID,
    MESSAGING,
    NEW_TRACKER_SETTING,
    NEW_TRACKER_SETTING_SAID,
    OTHER_SYSTEM,
    asked_politely,
    asks_how,
    asks_in_a_sentence,
    but_do,
    called_off_at_the_end,
    change_asked_as_question,
    checked_now,
    is_no,
    is_yes,
    not_asked,
    relayed_request,
    relays,
    reported_then_asked,
    small_talk,
    undecided,
    without_courtesy,
    without_hedged_lead,
)
from planner.directory import Directory, Reader
from planner.existence import existence_asked
from planner.hurried import (
    asks_to_be_shown,
    positions_named,
    put_on_as_assigned,
    unhurried,
    without_no_assignee,
)
from planner.intents import WRITE_OPS, IntentBase, IntentsError, describe, parse_intents, toolkit_of
from planner.intents.models import UpdateMatching
from planner.limits import MAX_TEXT
from planner.models import ClarificationQuestion, Plan, PlanInputs, RiskFlag, Voice
from planner.numbers import NUMBER_WORDS, number_from_words
from planner.pasted import reshape
from planner.quoting import quote_put_where_asked
from planner.rules import WRITING, load_rules
from planner.rules._common import group_said
from planner.shifted import shifted_due
from planner.text import IN_QUOTES, ISSUE_KEY, detect_language
from planner.titled import titled_ids
from planner.translit import from_translit
from planner.wording import changes_ru, stage_name
from toolkits import registry
from toolkits.errors import ToolkitError
from toolkits.schemas import validate_arguments
from toolkits.scopes import per_draft
from toolkits.workspace import workspace_config


def _numbers_of_ids_said(text: str) -> str:
    """ "archive CS-15 and ENG-104 no wait not one oh four": an id's number said again alone, as words, is that id."""
    ids = {m.group(0).split("-")[1]: m.group(0) for m in ISSUE_KEY.finditer(text)}
    if not ids:
        return text

    def named(m: re.Match[str]) -> str:
        number = number_from_words(re.split(r"[\s-]+", m.group(0).strip()))
        return ids.get(str(number), m.group(0)) if number and number >= 10 else m.group(0)

    return re.sub(rf"(?i)(?<![\w-])(?:{NUMBER_WORDS})(?:[\s-]+(?:{NUMBER_WORDS}))+(?![\w-])", named, text)


_PROJECT_HEADING = LazyRe(
    r"(?is)^\s*(?P<head>[^:\n]{2,40}):\s*(?P<rest>(?:(?:a\s+)?new|create|add|open|file|нов\w+|созда\w+|завед\w+)\s+"
    r"(?:an?\s+)?(?:issue|task|ticket|bug|задач\w*|тикет\w*|баг\w*)\b.*)$"
)
# «ENG-106 — срочный уже, оставь», "ENG-106 is already urgent, leave it": said first, then what to do instead
_ALREADY_SO = LazyRe(r"(?i)\b(?:уже|already)\b")
_CHANGING_CUES = ("put", "move", "complete", "delete", "archive", "comment", "assign", "remind", "rename",
                  "note_verb", "followup", "todo")  # fmt: skip

if TYPE_CHECKING:  # the interpreter's modules load only when a model is configured
    from planner.interpreter import Interpreter

__all__ = ["Outcome", "PlanRequest", "Planner", "is_no", "is_yes"]

# a how-to question about nothing in particular: how it works, in one breath
_HOW_TO = (
    "Просто скажите, что сделать, своими словами: «закрой ENG-101», «переведи Globex в переговоры», «поставь "
    "встречу с Олегом завтра в 15 на час». Я покажу черновик — без вашего «да» ничего не изменится.",
    'Just say what to do in your own words: "close ENG-101", "move Globex to Negotiation", "book an hour '
    "with Oleg tomorrow at 3pm\". I'll show a draft, and nothing changes until you say yes.",
)
CLARIFY_CONFIDENCE = 0.40  # seed 001: below this, nothing is done
EXECUTE_CONFIDENCE = 0.75  # seed 001: below this, the interpretation is restated as a question
Status = Literal["ready", "needs_clarification", "safe_fail", "invalid"]
Producer = Literal["rules", "intents", "command", "model"]
# the rules' questions that mean "I did not understand all of it": the model is asked instead
_FELL_SHORT = ("reword", "values")


@dataclass
class PlanRequest:
    text: str | None = None
    command: Any = None
    intents: Any = None
    voice: Voice | None = None
    language: str | None = None
    now: datetime | None = None
    timezone: str = "Europe/Moscow"
    conversation: dict[str, Any] = field(default_factory=dict)
    interpreted: Any = None  # the model's intents for this request, replayed when a question is answered


@dataclass
class Outcome:
    status: Status
    plan: Plan
    question: ClarificationQuestion | None = None
    user_message: str = ""
    already_done: list[dict[str, Any]] = field(default_factory=list)
    refine: list[Refine] = field(default_factory=list)
    producer: Producer = "rules"  # who understood the request (the audit record says it)
    interpreted: list[Any] | None = None  # what the model said, kept so answers replay it


# a day said as recurring ("every Monday", «каждую пятницу», «по пятницам»), outside quotes and a note's words
_REPEATS = LazyRe(
    r"(?i)^(?:[^:«\"“]|:(?!\s))*?(?:\b(?:every|each)\s+(?:other\s+)?(?:day|week|month|morning|weekday|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday|mon|tue|wed|thu|fri)\b|"
    r"\bкажд(?:ый|ую|ое|ые|ого)\s+(?:день|неделю|месяц|утро|понедельник|вторник|среду|четверг|пятницу|"
    r"субботу|воскресенье|пн|вт|ср|чт|пт)\b|"
    r"\bпо\s+(?:понедельникам|вторникам|средам|четвергам|пятницам|субботам|воскресеньям|утрам)\b)"
)
_OTHER_BRANCH = LazyRe(
    r"(?i)^\s*(?:(?:а|и|but|and)\s+)?(?:если\s+же|если\s+нет|if\s+not|otherwise|иначе|else)\b"
)
_NOTHING_ELSE = LazyRe(
    r"(?i)\bбольше\s+ничего\b|\bnothing\s+(?:else|more)\b|\bничего\s+(?:другого|лишнего)\b"
)
# a key said letter by letter where a team is named: "for c s", "in e n g", «в си эс» (not before a number)
_SPELLED_TEAM_AFTER = LazyRe(
    r"(?i)\b(?:for|in|into|to|team|в|во|для|команд\w*)\s+((?:[^\W\d_]{1,4}[\s-]){1,2}[^\W\d_]{1,4})"
    r"(?=\s*(?:[,.;:!?]|$)|\s+(?![\s-]*\d)(?!(?:one|two|three|four|five|six|seven|eight|nine|ten|oh|zero)\b))"
)
_HASH_ID = LazyRe(r"(?<![\w#&])#(\d{1,6})\b")  # "#103" (not "&#103;", not "##7")
# a clause that is someone's words in quotes ('Can we move Thursday's sync?'), inner apostrophes and all,
# with who said them after a dash ("…" - Li Wei, Acme Logistics)
_QUOTED_ALONE = LazyRe(
    r"\s*(?:'(?:[^']|'(?=\w))+'|\"[^\"]+\"|«[^«»]+»|“[^“”]+”)[\s.!?]*"
    r"(?:[—–-]\s*[A-ZА-ЯЁ][\w.'-]*(?:\s+[A-ZА-ЯЁ][\w.'-]*)?(?:\s*,\s*[\w .'-]{2,40})?[\s.!?]*)?"
)

# words that ask to be shown something: a clause without them that only read is a statement
_ASKS_TO_READ = LazyRe(
    r"(?i)\?|(?<!,\s)\b(?:what|which)\b|\b(?:покажи|показать|show|list|find|найди|выведи|перечисли|дай|give\s+me|how|сколько|"
    r"какие|какой|какая|какую|каких|кто|who|когда|when|where|где|статус|status)\b"
)


def _spelled_out(key: str, m: re.Match[str]) -> str:
    """The key for its letters said one by one; «…закрой и ENG сто три» is «и» and the key written out,
    left as it is (not «и» + "EN" + "G")."""
    return m.group(0) if re.search(rf"(?i)\b{re.escape(key)}\b", m.group(0)) else key


# "remind me tomorrow to close ENG-101", «напомни в пятницу перевести Globex в Won»: what to be reminded of
_REMINDED_TO = LazyRe(
    r"(?i)^\s*(?:(?:please|pls|and|also|then|и|а|ещё|еще|также|пожалуйста)[,\s]+)*"
    # («через неделю напомни проверить …», "on Monday remind me to …": when, said first)
    r"(?:(?:через\s+\S+(?:\s+\S+)?|завтра|послезавтра|в\s+\S+|на\s+следующей\s+неделе|tomorrow|next\s+\w+|"
    r"on\s+\w+|in\s+\w+\s+\w+)[,\s]+)?"
    r"(?:remind\s+(?:me|us)\s+(?:(?:tomorrow|today|tonight|on\s+\w+|at\s+\S+|in\s+\w+(?:\s+\w+)?|next\s+\w+|this\s+\w+)\s+)*to\b"
    r"|напомни(?:те)?\s+(?:мне\s+|нам\s+)?(?:(?:завтра|послезавтра|сегодня|утром|вечером|днём|днем|в\s+\S+|во\s+\S+|"
    r"на\s+\S+(?:\s+неделе)?|через\s+\S+(?:\s+\S+)?|после\s+\S+)\s+)*[а-яё]+(?:ть|ться|ти|чь)\b)"
)
# writes whose own words may ask something («заметка: клиент спрашивает, можно ли в пятницу?»)
_WORDED_OPS = frozenset({"create_note", "comment_issue", "create_task", "create_event"})
# the rules that change a record there is now: none of them reads a reminder of the change
_CHANGES_NOW = frozenset(
    {
        "update_all", "more_of_the_same_change", "template", "sub_issues", "issue_by_reference", "issue_by_words",
        "issue_not_named",
        "complete_crm_task", "delete_record", "deal_stage", "update_record", "note_on_each", "made_on_each", "note", "create_deal",
        "create_company", "create_project", "reopened",
    }
)  # fmt: skip

_CONNECTOR_LAST = LazyRe(r"(?i)(?<=[.!?])\s+(?:и\s+|а\s+|and\s+)?(?:ещ[её]|также|also|plus|плюс)[\s,:]*$")


_COURTESY_IF = LazyRe(
    r"(?i)(?:if|если)\s+(?:that'?s|it'?s|that\s+is|it\s+is)?\s*(?:ok|okay|possible|fine|convenient|alright|not\s+too\s+much)"
    r"|if\s+you\s+(?:can|could|don'?t\s+mind)|если\s+(?:можно|не\s+трудно|не\s+сложно|получится|вас\s+не\s+затруднит)"
    r"|unless\b"
)
_ASKED_TO_TELL = LazyRe(
    r"(?i)^\s*(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?(?:tell\s+me|let\s+me\s+know|check|see|find\s+out|"
    r"скажи|подскажи|проверь|посмотри|узнай|уточни)\b"
)
# a request, then the condition it hangs on: "…, but only if it's assigned to Oleg", «…, если её срок истекает …»
_TRAILING_CONDITION = LazyRe(
    r"(?is)(?P<ask>[^.;!?]*?[^\W\d_][^.;!?]*?)[,;]?\s+(?:but\s+|но\s+)?(?P<cond>(?:only\s+if|if|unless|только\s+если|"
    r"если|при\s+условии,?\s+что)\s+[^.;!?]+?)\s*[.!]?\s*"
)

# a move to a workflow state asked for ("…in review", «…в работу»): a request, never only the scene
_A_STATE_ASKED = LazyRe(
    r"(?i)\b(?:to|into|in|в|во|на)\s+(?:in\s+review|review|in\s+progress|todo|backlog|done|ревью|работу|бэклог)\s*[.!]?$"
)


def _made_op(intent: IntentBase) -> str:
    """The op an intent stands for: a comment, note or CRM task made on each record found is one of those."""
    if isinstance(intent, UpdateMatching):
        made = {"comment": "comment_issue", "note": "create_note", "task": "create_task"}
        return next((op for k, op in made.items() if k in intent.changes), intent.op)
    return str(intent.op)


def _request_after_colon(words: str, ctx: BuildContext) -> bool:
    """After a colon in `words`, a request of its own ("Anna asked a few things: move the deal …")."""
    _, colon, after = words.partition(":")
    return bool(colon and after.strip()) and asks_for_something(analyse(after, ctx.now))


class Planner:
    def __init__(
        self,
        read: Reader,
        *,
        ledger: LedgerView | None = None,
        config: dict[str, Any] | None = None,
        bulk_threshold: int = 5,
        interpreter: Interpreter | None = None,
    ) -> None:
        self.directory = Directory(read)
        self._ledger = ledger
        self._config = config or workspace_config()
        self._bulk = bulk_threshold
        self._rules = load_rules()
        self.interpreter = interpreter

    def stage_label(self, stage: str, lang: str) -> str:
        """A deal stage as the person's language names it (Переговоры for Negotiation)."""
        return stage_name(stage, lang, self._config.get("stage_aliases", {}))

    async def aclose(self) -> None:
        if self.interpreter is not None:
            await self.interpreter.aclose()

    async def plan(self, req: PlanRequest, plan_id: str, answers: dict[str, str] | None = None) -> Outcome:
        LazyRe.compile_pending()  # the first request compiles the rules' patterns; later ones find none
        answers = dict(answers or {})
        first = not answers  # the model is asked only when a request is first read, never on an answer
        tz = ZoneInfo(req.timezone)
        now = (req.now or datetime.now(tz)).astimezone(tz)
        said = (req.voice.transcript if req.voice and not req.text else req.text) or ""
        # "zakroi eng-106": Russian typed in Latin letters, read (and answered) as Russian
        typed: dict[str, str] = {}
        text = from_translit(said, typed)
        lang = req.language or (detect_language(text) if text else command_language(req.command))
        if lang not in ("ru", "en"):
            lang = "ru"
        ctx = self._context(req, lang, now, answers, plan_id)
        ctx.memory["typed"] = typed
        plan = Plan(
            plan_id=plan_id,
            intent="query",
            domain="unknown",
            summary="",
            language=lang,  # type: ignore[arg-type]
            inputs=PlanInputs(raw_text=said[:MAX_TEXT], voice=req.voice),
            now=now.isoformat(),
            timezone=req.timezone,
        )
        if req.interpreted is not None or req.intents is not None:
            ctx.memory["asked"] = _only_asks(text, now)  # §5a: a question never becomes a write
        if req.interpreted is not None:
            return _by("model", await self._from_intents(req.interpreted, ctx, plan), req.interpreted)
        if req.intents is not None:
            return _by("intents", await self._from_intents(req.intents, ctx, plan))
        if req.command is not None:
            return _by("command", await self._from_command(req.command, ctx, plan))
        blank = plan.model_copy(deep=True)
        outcome = _quoted_colons_back(await self._from_text(_quoted_colons_kept(text), ctx, plan))
        if self.interpreter is not None and first and _fell_short(outcome):
            fresh = self._context(req, lang, now, {}, plan_id)
            return await self._from_model(text, fresh, blank, outcome, self.interpreter)
        return outcome

    def _context(
        self, req: PlanRequest, lang: str, now: datetime, answers: dict[str, str], plan_id: str
    ) -> BuildContext:
        ctx = BuildContext(
            lang=lang,
            now=now,
            tz=req.timezone,
            directory=self.directory,
            config=self._config,
            answers=answers,
            conversation=req.conversation,
            compiler=compile_intent,
        )
        ctx.memory["plan_id"] = plan_id
        return ctx

    async def _from_model(
        self, text: str, ctx: BuildContext, plan: Plan, rules: Outcome, interpreter: Interpreter
    ) -> Outcome:
        """The rules did not understand all of it: ask the model, once (answers to its questions
        replay its intents). What it says goes through the same validation, thresholds and
        resolution as a client's intents; a timeout, an error, a refusal or nothing valid leaves
        the rules' reply as it was."""
        from planner.interpreter import consult, count, request_for

        got = await consult(interpreter, await request_for(text, ctx))
        if got.intents is None:
            count(interpreter, got, got.outcome)
            return rules
        try:
            outcome = await self._from_intents(got.intents, ctx, plan)
        except LookupError:  # a read found nothing where the model's reading needed it
            outcome = Outcome("invalid", plan)
        if outcome.status == "invalid":
            count(interpreter, got, "invalid")
            return rules
        count(interpreter, got, "ok")
        return _by("model", outcome, got.intents)

    async def _from_text(self, text: str, ctx: BuildContext, plan: Plan) -> Outcome:
        answers = ctx.answers
        if answers.get("c0.request"):  # the person said it again in other words: read those afresh
            for key in [k for k in answers if k not in ("c0.request", "c0.domain")]:
                del answers[key]
            text = answers["c0.request"] + (
                " в Linear"
                if answers.get("c0.domain") == "linear" and ctx.lang == "ru"
                else " in Linear"
                if answers.get("c0.domain") == "linear"
                else ""
            )
        chat = small_talk(text) if not answers.get("c0.request") else None
        if chat is not None and chat.kind == "off_topic" and shaping.about_work(text, ctx):
            chat = None  # "comment on CS-99: any news?" mentions news, but it is about an issue
        if chat is not None and chat.kind not in ("greeting", "off_topic", "errand"):
            plan.summary = ctx.t("Ничего не делаю", "Doing nothing")
            return Outcome("ready", plan, None, ctx.t(chat.ru, chat.en))
        slip = no_such_day(text)
        if slip is not None:  # «созвон на 31 ноября»: which day was meant is asked, never guessed
            if answers.get("c0.day"):
                text = text.replace(slip.said, answers["c0.day"], 1)
            else:
                ctx.clause_index = 0
                last, first = ctx.t(*slip.last), ctx.t(*slip.next)
                return self._clarify(
                    ctx,
                    plan,
                    ctx.ask(
                        "day",
                        ctx.t(
                            f"Такого дня нет: «{slip.said}». Какой день вы имели в виду?",
                            f"There is no such day as '{slip.said}'. Which day did you mean?",
                        ),
                        choices=[(last, last), (first, first)],
                        risk="ambiguous",
                    ),
                )
        if (
            EVENT_CHANGE.match(text)
            and not answers
            # («перенеси созвон с Acme (CS-12) на 2 декабря»: the call is an issue, its day is moved)
            and not re.search(r"\b[A-Za-z]{1,10}-\d+\b", text)
        ):  # the whole request is to change an existing event
            plan.summary = ctx.t("Ничего не делаю", "Doing nothing")
            return Outcome("ready", plan, None, ctx.t(*EVENT_CHANGE_SAID))  # answered: what it can't do
        if (
            ADDED_TO_A_DEAL.search(text)
            and not answers
            and len(split_clauses(text, ctx.now)) == 1
            and not analyse(text, ctx.now).says_new()
        ):  # "add Peter to the Globex deal": the whole request is what it can't do
            plan.summary = ctx.t("Ничего не делаю", "Doing nothing")
            return Outcome("ready", plan, None, ctx.t(*ADDED_TO_A_DEAL_SAID))
        if NEW_TRACKER_SETTING.match(text) and not answers:  # "create a 'regression' label in linear"
            plan.summary = ctx.t("Ничего не делаю", "Doing nothing")
            return Outcome("ready", plan, None, ctx.t(*NEW_TRACKER_SETTING_SAID))
        sends = MESSAGING.search(text) if not asks_to_be_shown(text) else None
        offer: Ask | None = None
        if (
            sends
            and not analyse(text, ctx.now).has("remind", "task", "note", "comment", "meeting")
            and not answers.get("c0.request")
        ):
            if answers.get("c0.send") == "no":
                plan.summary = ctx.t("Ничего не делаю", "Doing nothing")
                return Outcome(
                    "safe_fail", plan, None, ctx.t("Хорошо, ничего не делаю.", "OK, doing nothing.")
                )
            if answers.get("c0.send") == "task":  # a to-do of the person's own, in their words
                text = ctx.t("создай задачу в CRM для меня: ", "create a CRM task for me: ") + text.strip()
            else:  # the honest answer, and the one thing that can be done instead, as a button
                ctx.clause_index = 0
                offer = ctx.ask(
                    "send",
                    ctx.t(
                        "Сообщения и письма я не отправляю: я работаю с Attio, Linear и Google Calendar. "
                        "Поставить вам задачу в CRM отправить это?",
                        "I don't send messages or emails: I work with Attio, Linear and Google Calendar. "
                        "Shall I set you a CRM task to send it?",
                    ),
                    choices=[(ctx.t("Да, задачей", "Yes, as a task"), "task"), (ctx.t("Нет", "No"), "no")],
                    free_text=False,
                )
        # "...: migrate CI to GitHub Actions", "new issue for Oleg - migrate CI to github actions": a title
        head_text = re.split(r":|\s[—–-]\s", text, maxsplit=1)[0]
        other = (
            None
            if re.search(
                r"(?<!instead of )(?<!вместо )(?<!rather than )\b(linear|линеар\w*)\b", head_text, re.I
            )
            # "in Jira instead of Linear" still asks for Jira; "comment 'notes in Notion'" quotes it, asks nothing
            else OTHER_SYSTEM.search(IN_QUOTES.sub(lambda m: " " * len(m.group(0)), head_text))
        )
        if other and await self._names_a_team(head_text[: other.start()]):
            other = (
                None  # "Create an issue in Engineering to migrate CI to GitHub Actions": our team, its title
            )
        if other and answers.get("c0.system") == "linear":
            text = text[: other.start(2)] + "Linear" + text[other.end(2) :]
            other = None
        elif other and answers.get("c0.system"):
            plan.summary = ctx.t("Ничего не делаю", "Doing nothing")
            return Outcome("safe_fail", plan, None, ctx.t("Хорошо, ничего не делаю.", "OK, doing nothing."))
        try:
            ctx.clause_index = 0
            if offer is not None:
                raise offer
            if chat is not None:
                raise ctx.ask("request", ctx.t(chat.ru, chat.en))
            if other:
                name = "Jira" if re.match(r"(?i)д?жир", other.group(2)) else other.group(2)
                raise ctx.ask(
                    "system",
                    ctx.t(
                        f"Я работаю с Attio, Linear и Google Calendar, а не с {name}. Сделать это в Linear?",
                        f"I work with Attio, Linear and Google Calendar, not {name}. Do it in Linear instead?",
                    ),
                    choices=[(ctx.t("Да, в Linear", "Yes, in Linear"), "linear"), (ctx.t("Нет", "No"), "no")],
                    free_text=False,
                )
            matched = await self._interpret(text, ctx)
            if not matched and asks_advice(text) and not answers:
                plan.summary = ctx.t("Ничего не делаю", "Doing nothing")
                return Outcome("ready", plan, None, ctx.t(*ADVICE_SAID))
            if not matched:
                raise self._unknown(ctx)
            if (
                undecided(str(ctx.memory.get("as_said", text)))
                and any(i.op in WRITE_OPS for i in ctx.intents)
                and not ctx.answers
            ):
                # «переведи ENG-102 то ли в In Review, то ли в Done, не помню»: which one is asked, never guessed
                ctx.clause_index = 0
                raise ctx.ask(
                    "request",
                    ctx.t(
                        "Вы назвали два варианта и не выбрали. Какой из них? Скажите запрос ещё раз с одним.",
                        "You named two options without choosing. Which one? Please say the request again with one.",
                    ),
                    risk="ambiguous",
                )
            # (as reshaped: a line said to a colleague is no part of it)
            offered = self._offer(str(ctx.memory.get("reshaped", text)), ctx)
            if offered is not None:
                plan.summary = "cancelled"
                # told not to make the change: understood and answered; an offer declined: nothing done
                told_not_to = ctx.answer("offer") is None
                return Outcome("ready" if told_not_to else "safe_fail", plan, None, offered)
            said = str(ctx.memory.get("as_said", text))
            if (
                ctx.memory.get("unchecked_condition")
                or asked_politely(said)
                or change_asked_as_question(
                    said, [i.span or "" for i in ctx.intents if i.op in WRITE_OPS and i.op not in _WORDED_OPS]
                )
            ) and any(
                i.op in WRITE_OPS for i in ctx.intents
            ):  # "Can you close ENG-101?", «Переводим Globex в Won?»: asked, so asked back; "yes" drafts it
                if answers.get("c0.go_ahead") == "no":
                    plan.summary = ctx.t("Ничего не делаю", "Doing nothing")
                    return Outcome(
                        "safe_fail", plan, None, ctx.t("Хорошо, ничего не делаю.", "OK, doing nothing.")
                    )
                if not answers.get("c0.go_ahead"):
                    raise self._go_ahead(ctx)
        except Ask as ask:
            if asks_how(text) and not ctx.actions and not ctx.answers:  # "как закрыть задачу в линеаре?"
                plan.summary = ctx.t("Как пользоваться", "How to use it")
                return Outcome("ready", plan, None, ctx.t(*_HOW_TO))
            return self._clarify(ctx, plan, ask)
        except Invalid as exc:
            return self._invalid(ctx, plan, str(exc))
        return await self._finish(ctx, plan)

    async def _interpret(self, text: str, ctx: BuildContext) -> bool:
        """The rules read each clause; a clause with an action word that none of them understood is
        named back to the person (reworded or skipped by their answer), never dropped."""
        # "Max says: …": the instruction is the request; "due friday no sorry monday": the value said last
        ctx.memory["as_said"] = (
            text  # before courtesy and relays are taken off: "можешь …?" asks whether it can
        )
        text = reshape(
            without_no_assignee(text)
        )  # a quoted email, a card, a table: in the rules' one-line forms
        text = quote_put_where_asked(text)  # "…, закинь коммент с этой цитатой": the quote is its words
        ctx.memory["reshaped"] = text
        said = without_hedged_lead(without_courtesy(relayed_request(text) or text))
        # «… стоп, нет, они ещё не подписали. ничо пока не делай», "… wrong chat, ignore": nothing is drafted
        if called_off_at_the_end(said, ctx.now):
            ctx.memory["took_back"] = True
            ctx.notes.append(ctx.t("Хорошо, ничего не делаю.", "OK, doing nothing."))
            return True
        text = corrected(said)
        ctx.memory["self_corrected"] = text != said  # («…хотя нет, не закрывай, просто напиши …»: taken back)
        # "Close ENG-103, but only if it's assigned to Oleg", «Закрой ENG-105, если её срок истекает …»: the
        # condition said after the request goes before it, where a state the planner can check is checked; one
        # it cannot check is asked about before anything is drafted
        low = text.lower()
        moved = (
            _TRAILING_CONDITION.fullmatch(text)
            if (" if " in low or "если" in low or "unless" in low or "при условии" in low) and len(text) < 600
            else None
        )
        if (
            moved
            and moved["cond"]
            and len(moved["ask"].split()) >= 2
            and not _ASKED_TO_TELL.match(moved["ask"])  # ("tell me if ENG-101 is done": a question)
            and not _COURTESY_IF.match(moved["cond"])  # ("…, maybe by Friday if that's ok": courtesy)
            and not re.match(
                r"(?i)\s*(?:(?:а|и|so|and)[,\s]+)?(?:if|если|unless)\b", moved["ask"]
            )  # (said first already)
            and ":" not in moved["ask"]  # ("add note: they want 10% off if they pay for a year": its words)
            and not IN_QUOTES.search(text)
            and not (what_asked := analyse(moved["ask"], ctx.now)).has("note", "note_verb")
            and what_asked.has(
                "complete",
                "move",
                "put",
                "assign",
                "archive",
                "delete",
                "create",
                "comment",
                "rename",
                "note_verb",
            )
        ):
            text = f"{moved['cond'].strip(' ,.')}, {moved['ask'].strip(' ,.')}"
            ctx.memory["unchecked_condition"] = (
                moved["cond"].strip(" ,.") if checked_now(text) is None else ""
            )
        text = await shifted_due(text, self.directory)  # «сдвинь ENG-106 на неделю»: to the day it comes to
        hashed = await self._hash_ids(text)
        # spoken ids read first («в дез семь напиши …» is then «в DES-7 напиши …»), and again after the rewrites
        spoken = await self._identifiers(hashed)
        if spoken != hashed:  # "… ENG one oh four no wait not one oh four": a correction said of spoken ids
            spoken = corrected(spoken)
        plain = unhurried(spoken)
        text = await self._identifiers(plain)
        if text != plain:  # «в дез семь напиши …»: an id known only once its team was spelt right, read again
            text = unhurried(text)
        text = await self._project_heading(text)
        text = await self._titled(positions_named(put_on_as_assigned(same_team_named(text))))
        exists = await existence_asked(text, ctx)
        if exists is not None and exists.told is not None:
            ctx.notes.append(
                exists.told
            )  # «Есть задача про …? Если нет — заведи»: there is, so nothing to do
            return True
        if exists is not None and exists.text is not None:
            text = exists.text  # the request after the question, with the record it asked about
        ctx.memory["full_text"] = text
        matched = False
        coverage = Coverage()
        read: list[tuple[int, Clause, int]] = []
        scene: list[tuple[tuple[int, int], tuple[int, int]]] = []
        scene_notes: list[str] = []
        declines = Declines()
        ctx.clause_index = 0
        text = await settle_alternatives(text, ctx)  # «ENG-101 или ENG-102?»: the one the person picks
        clauses = [
            # "…, у них сайт technosfera.ru. И ещё": a sentence's "and also" leads to the next request, it is not
            # part of this one's words
            analyse(cut, ctx.now) if (cut := _CONNECTOR_LAST.sub("", c.text)) != c.text and cut else c
            for c in split_clauses(text, ctx.now)
        ]
        if len(clauses) > 1:  # «…, к сделке заметку — …»: a piece that asks for a thing, its verb left out
            clauses = [with_its_verb(c, ctx.now) for c in clauses]
        ctx.memory["clauses"] = len(clauses)
        for i, clause in enumerate(clauses):
            ctx.clause_index = i
            reword = ctx.answer("reword")
            if (
                clause.reason and reword != "skip"
            ):  # "…, they chose the competitor": a later "note the reason"
                reason = re.split(r"(?<=[.!?])\s+", clause.text.strip(" ,;"))[0]  # its own sentence only
                ctx.memory.setdefault("reasons", []).append(reason.strip(" ,.;"))
                ctx.memory["reason_at"] = i  # (a "note that" right after it means it)
            if reword == "skip" or clause.reason:
                if (
                    clause.reason and i == 0
                ):  # ("Oleg is out sick, reassign all his issues": whom "his" means)
                    ctx.memory.setdefault("said", []).append(clause.text)
                continue  # skipped by the person, or a reason said after the request (it asks nothing)
            if reword:
                clause = analyse(reword, ctx.now)
            ctx.span = clause.text
            quoted_words = _QUOTED_ALONE.fullmatch(clause.text)
            if quoted_words and (i > 0 or len(clauses) > 1):
                # "From Jane: 'Can we move Thursday's sync?' — note that", «"…" — John». log a bug: her words
                ctx.memory.setdefault("said", []).append(clause.text)
                named = set(re.findall(r"\b[A-Z]{1,10}-\d+\b", clause.text))
                if len(named) == 1:  # «Олег — ENG-106 готово». Закрой задачу: the one issue their words name
                    ctx.memory["quoted_issue"] = named.pop()
                continue
            # "how do I close ENG-101?" asks to be shown the way: the change is offered (`_offer`)
            # (someone's words in quotes, and nothing else said, are read, never done: «"Delete our account"»)
            ctx.memory["asking"] = (
                interrogative(clause) and not asks_how(clause.text) or quoted_words is not None
            )
            if (
                # ("…; leave ENG-101 alone", "…, leave the Alfa one where it is"; said first only as "already so":
                # «ENG-106 — срочный уже, оставь. Просто в ревью переведи»)
                (i > 0 or len(clauses) > 1 and clause.identifiers and _ALREADY_SO.search(clause.text))
                and leaves_alone(clause, ctx.now)
                and not ctx.memory["asking"]
            ):
                declines.leave(clause.identifiers)  # "…; leave ENG-101 alone": named back, never a change
                ctx.memory.setdefault("said", []).append(clause.text)
                if (
                    len(clause.identifiers) == 1
                ):  # «ENG-106 — срочный уже, оставь. Просто в ревью переведи»: it
                    with contextlib.suppress(LookupError, ToolkitError):
                        if (left := await self.directory.issue(clause.identifiers[0])) is not None:
                            ctx.memory["issue"] = left
                continue
            first = len(ctx.intents)
            had = {
                id(x) for x in ctx.intents
            }  # (a clause may take back an earlier one's intent and say its own)
            marks = (len(ctx.intents), len(ctx.actions))
            before = marks_of(ctx)
            if ctx.memory.get("checked") and _OTHER_BRANCH.match(clause.text):
                # «…; если же она уже продвинулась дальше, ничего не трогайте»: the other case of the condition
                # checked before — the check decides, this branch adds nothing
                ctx.memory.setdefault("said", []).append(clause.text)
                continue
            condition = checked_now(clause.text)
            if condition:
                ctx.memory["checked"] = (
                    True  # «Если сделка … всё ещё на стадии КП, переведи её в переговоры»: the record, then the change
                )
                rest = clause.text[len(condition) :].lstrip(" ,—–-")
                subject = subject_of(condition)
                if re.search(r"\b[A-Za-z]{2,5}-\d+\b", rest) and not re.search(
                    r"\b[A-Za-z]{2,5}-\d+\b", subject
                ):
                    subject = ""  # "if Initech renewal is won, close CS-15": the change names its own record
                clause = analyse(f"{subject}, {rest}".lstrip(" ,"), ctx.now)
            try:
                explained = await self._read_clause(clause, ctx)
            except Ask:
                if i == 0 and len(clauses) == 1 or not_asked(clause.text) != "negated":
                    raise
                # «Сделку Альфа-Лизинга не двигай, но добавь к ней заметку: …»: what is not to be done asks nothing
                ctx.memory.setdefault("said", []).append(clause.text)
                continue
            if condition and explained and (why := await unmet(condition, ctx.intents[first:], ctx)):
                # «Если сделка ещё не выиграна — переведи …», and it is won: nothing to do, and why
                del ctx.intents[first:], ctx.actions[marks[1] :]
                ctx.notes.append(why)
            if explained and len(clauses) > 1 and any(x.op in WRITE_OPS for x in ctx.intents[first:]):
                # «не закрывай ENG-101, а назначь ENG-102 на Олега»: the first clause asks for none of its changes
                kind = not_asked(clause.text)
                if kind is not None and asks_in_a_sentence(clause.text):
                    kind = None  # "Also log a note …. Oleg fixed the other one, nothing to do there": asked
                if kind == "reported" and (
                    clause.after_colon is not None or reported_then_asked(clause.text)
                ):
                    kind = None  # "Jane said yes: Globex pilot to Won": what she said yes to, now asked
                if kind is None or kind in ("negated", "reported", "hypothetical", "doubted"):
                    declines.note(before, ctx, declined=kind is not None, text=clause.text)
                    ctx.memory["took_back"] = ctx.memory.get("took_back") or kind == "negated"
            elif (
                i > 0
                and not any(x.op in WRITE_OPS for x in ctx.intents[first:])
                and not_asked(clause.text) == "negated"
            ):
                if (
                    not explained
                    and clause.commands()
                    and (_ITS_OWN_CHANGE_TAKEN_BACK.search(clause.text) or _CUT_OFF.search(clause.text))
                ):  # (and "…, and third, archive... no wait": cut off as it was said)
                    # "(2) raise it to urgent... wait, it's already urgent, so skip that": itself, taken back
                    ctx.memory.setdefault("said", []).append(clause.text)
                    ctx.memory["declined_here"] = True  # (what it took back is read here: the rest stands)
                    continue
                if declines.put_off(clause.text) or _NOTHING_ELSE.search(clause.text):
                    ctx.memory["took_back"] = True
                    # "…moving Globex to Won: hold off on that until legal signs", «…и больше ничего не создавай»
                    ctx.memory.setdefault("said", []).append(clause.text)
                    if of_a_kind(clause.text):  # ("…, don't archive anything": the rest stands as asked)
                        ctx.memory["declined_here"] = True
                    continue  # (it asks for nothing of its own: no part left unread)
            ctx.memory.setdefault("said", []).append(clause.text)  # what the clauses before a request said
            if (
                not explained
                and not ctx.memory["asking"]
                and not (
                    clause.context and len(clause.keys) <= 3
                )  # «Для Макса: …» sets the scene, tells nothing
            ):  # "Oleg rotated the leaked key this morning."
                ctx.memory.setdefault("told", []).append((i, clause.text))  # what a later "close it" is about
            told = not ctx.memory["asking"] and not _ASKS_TO_READ.search(clause.text)
            # (a clause that amended the change before it, "…and assign it to me", adds no intent of its own: no scene)
            amended = explained and len(ctx.intents) == first and len(ctx.actions) != marks[1]
            if (
                not amended
                and (
                    clause.context
                    or quoted_words
                    or told
                    and all(x.op == "find" for x in ctx.intents[first:])
                )
            ):  # a scene, someone's words quoted, a statement ("Клиент из Ромашки жалуется …"): what they name is read
                scene.append((marks, (len(ctx.intents), len(ctx.actions))))  # for the rest, never a step
                scene_notes.extend(ctx.notes[before[3] :])  # (what its reads said: no answer in a draft)
            if explained and ctx.answer("values") != "skip":
                read.append((i, clause, first))
            matched = matched or explained
            coverage.check(i, clause, explained)
            if explained:
                coverage.check_kinds(i, clause, [_made_op(x) for x in ctx.intents if id(x) not in had])
        asked_still = any(not no for _, _, no in declines.clauses)  # (before `drop` takes the declined out)
        # "Move Globex pilot to Won... actually no, hold on, don't change anything yet.": every change taken back
        ctx.memory["all_declined"] = (
            bool(declines.clauses) and not asked_still and bool(ctx.memory.get("took_back"))
        )
        undone = declines.drop(ctx, scene, read)
        if ctx.memory.pop("declined_here", False) and asked_still:
            ctx.memory["declined"] = True  # a part taken back was read where it was said: the rest stands
        if undone:
            ctx.memory["declined"] = True  # the rest was asked for: no offer for the message as a whole
            said = "; ".join(undone[:5])
            ctx.notes.append(ctx.t(f"Не трогаю: {said}.", f"Leaving as is: {said}."))
        if any(i.op in WRITE_OPS for i in ctx.intents):
            for (i0, a0), (i1, a1) in reversed(scene):  # the scene's reads are no step of a change
                if all(i.op == "find" for i in ctx.intents[i0:i1]):
                    del ctx.intents[i0:i1], ctx.actions[a0:a1]
                    ctx.notes[:] = [n for n in ctx.notes if n not in scene_notes]
                    read = [(n, c, s if s < i0 else max(i0, s - (i1 - i0))) for n, c, s in read]
        await self._values_used(read, ctx)
        # "Push notifications slipped — move the due date …": the sentence that named the issue asked nothing
        named_the_issue = ctx.memory.get("told_used", ())
        relayed = relays(str(ctx.memory.get("as_said", ""))) and any(i.op in WRITE_OPS for i in ctx.intents)
        uncovered = (
            [  # "Jane asked us to push the kickoff — move CS-14 …": what was asked, then how
                u
                for u in coverage.uncovered(ctx.intents)
                # ("Put the login timeout fix in review and comment: …": the clause that named the issue asked
                # for a move of its own — named back, not taken for a scene)
                if (u[0] not in named_the_issue or _A_STATE_ASKED.search(u[1]))
                # (a relay's heading with a request after its colon — «Анна просила кое-что: перевести сделку …» —
                # is that request, still unread)
                and not (relayed and u[0] == 0 and not _request_after_colon(u[1], ctx))
            ]
            if matched
            else []
        )
        if uncovered:
            index, words = uncovered[0]
            ctx.clause_index = index
            raise ctx.ask(
                "reword",
                ctx.t(
                    f"Не понял часть: «{words[:200]}». Переформулируйте её или пропустите.",
                    f"I didn't understand this part: '{words[:200]}'. Rephrase it, or skip it.",
                ),
                choices=[(ctx.t("Пропустить", "Skip it"), "skip")],
                free_text=True,
            )
        return matched

    async def _values_used(self, read: list[tuple[int, Clause, int]], ctx: BuildContext) -> None:
        """Every value a clause gave lands in an intent read from it, or is named back (DESIGN §5a)."""
        if not read:
            return
        ends = [start for _, _, start in read[1:]] + [len(ctx.intents)]
        for (index, clause, start), end in zip(read, ends, strict=True):
            writes = [i for i in ctx.intents[start:end] if i.op in WRITE_OPS]
            gaps = await value_gaps(clause, ctx.intents[start:end], ctx) if writes else []
            clash = weekday_mismatch(clause.text, ctx.now) if writes else None
            if clash:  # «в пятницу 3 декабря», and 3 December is a Thursday: which day is asked, not guessed
                ctx.clause_index = index
                words, day = clash
                raise ctx.ask(
                    "request",
                    ctx.t(
                        f"«{words}»: {ctx.said_day(day.isoformat())} — другой день недели. "
                        "Какой день вы имели в виду? Скажите запрос с верной датой.",
                        f"'{words}': {ctx.said_day(day.isoformat())} is another weekday. "
                        "Which day did you mean? Say the request with the right date.",
                    ),
                )
            if gaps and ctx.answer("values") == "no":
                ctx.clause_index = 0
                raise ctx.ask(
                    "request", ctx.t("Хорошо. Скажите иначе, что сделать:", "OK. Say it another way:")
                )
            if gaps:
                ctx.clause_index = index
                said = ", ".join(f"«{g[:60]}»" for g in gaps[:3])
                raise ctx.ask(
                    "values",
                    ctx.t(
                        f"Не понял, к чему относится {said}. Сделать остальное без этого?",
                        f"I didn't understand what {said} is for. Do the rest without it?",
                    ),
                    choices=[(ctx.t("Да, без этого", "Yes, without it"), "skip"), (ctx.t("Нет", "No"), "no")],
                    free_text=False,
                )

    async def _read_clause(self, clause: Clause, ctx: BuildContext) -> bool:
        reminded = _REMINDED_TO.match(clause.text) is not None
        grouped = ctx.memory["group_said"] = group_said(clause.text)  # "by stage": whoever reads it, grouped
        # «открытые задачи ENG по статусам», "breakdown of open issues by priority": a breakdown asked, with
        # no verb that changes anything, is a read — neither a new issue titled with it nor an issue sought
        breakdown = grouped and not clause.creates() and not any(clause.has(a) for a in _CHANGING_CUES)
        for _, name, fn in self._rules:
            if breakdown and (name in WRITING or name == "issue_by_words"):
                continue
            if name in WRITING and ctx.memory.get("asking"):
                continue  # a question never becomes a write (DESIGN §5a)
            if reminded and name in _CHANGES_NOW:
                continue  # "remind me tomorrow to move Globex to Won": a reminder of it, nothing changed now
            marks = (len(ctx.intents), len(ctx.actions), len(ctx.risks), len(ctx.notes))
            try:
                if await fn(clause, ctx):
                    return True
            except QuestionNotWrite:  # a question never becomes a write: let the reading rules answer
                del (
                    ctx.intents[marks[0] :],
                    ctx.actions[marks[1] :],
                    ctx.risks[marks[2] :],
                    ctx.notes[marks[3] :],
                )
        return False

    async def _from_intents(self, raw: Any, ctx: BuildContext, plan: Plan) -> Outcome:
        """A client's model (or the interpreter) said what the person wants: validate strictly (seed
        002), restate a doubtful reading (seed 001), then the same resolution as every producer."""
        ctx.memory["sent_intents"] = True  # each intent a client sends is meant, even one said twice
        try:
            parsed = parse_intents(raw)
        except IntentsError as exc:
            return self._invalid(ctx, plan, str(exc))
        if parsed.rejected:
            ctx.notes.append(
                ctx.t("Не принято: ", "Not accepted: ")
                + "; ".join(r.describe() for r in parsed.rejected)[:600]
            )
        if parsed.stripped:
            ctx.notes.append(
                ctx.t("Пропущены неизвестные поля: ", "Ignored unknown fields: ")
                + ", ".join(parsed.stripped[:10])
            )
        if not parsed.intents:
            return self._invalid(ctx, plan, "\n".join(ctx.notes))
        return await self._run_intents(parsed.intents, ctx, plan)

    async def _run_intents(self, intents: list[IntentBase], ctx: BuildContext, plan: Plan) -> Outcome:
        sure = [i for i in intents if i.confidence is None or i.confidence >= CLARIFY_CONFIDENCE]
        unsure = [i for i in intents if i not in sure]
        if unsure and sure:  # seed 001: below 0.40 nothing is done with it — and the person is told
            ctx.notes.append(
                ctx.t("Не уверен, что понял, и не делаю: ", "Not sure I understood, so not doing: ")
                + "; ".join(describe(i, ctx.lang) for i in unsure)
            )
        if not sure:
            plan.summary = "safe-fail"
            return Outcome(
                "safe_fail",
                plan,
                None,
                ctx.t("Не могу выполнить. Уточните запрос.", "I can't do that. Please clarify the request."),
            )
        try:
            doubtful = [i for i in sure if i.confidence is not None and i.confidence < EXECUTE_CONFIDENCE]
            if (doubtful or ctx.memory.get("asked")) and ctx.answer("confirm") not in (None, "yes", "да"):
                plan.summary = "cancelled"
                return Outcome(
                    "safe_fail", plan, None, ctx.t("Хорошо, ничего не делаю.", "OK, doing nothing.")
                )
            refused: list[str] = []
            for i, intent in enumerate(sure):
                ctx.clause_index = i
                marks = (len(ctx.intents), len(ctx.actions), len(ctx.risks))
                try:
                    await ctx.emit(intent)
                except Invalid as exc:  # seed 002: this intent is refused, the valid rest goes on
                    del ctx.intents[marks[0] :], ctx.actions[marks[1] :], ctx.risks[marks[2] :]
                    refused.append(f"#{i + 1} {getattr(intent, 'op', '?')}: {exc}")
            if refused:
                ctx.notes.append(ctx.t("Не принято: ", "Not accepted: ") + "; ".join(refused)[:600])
                if not ctx.intents:
                    return self._invalid(ctx, plan, "\n".join(ctx.notes))
            asked = ctx.memory.get("asked") and any(not a.read_only for a in ctx.actions)
            if (doubtful or asked) and ctx.answer("confirm") is None:
                # seed 001: a doubtful reading is said back before anything is drafted — as the
                # changes it would make, with the records found, not as the fields it arrived in
                said = "; ".join(a.preview for a in ctx.actions if not a.read_only) or "; ".join(
                    describe(i, ctx.lang) for i in sure
                )
                ctx.clause_index = 0
                raise ctx.ask(
                    "confirm",
                    ctx.t(f"Правильно понял: {said}?", f"Did I get it right: {said}?"),
                    choices=ctx.yes_no(),
                    free_text=False,
                )
        except Ask as ask:
            return self._clarify(ctx, plan, ask)
        return await self._finish(ctx, plan)

    def _offer(self, text: str, ctx: BuildContext) -> str | None:
        """Asked how (or whether) to do something the rules could draft: the change is offered as a
        question first; "yes" drafts it, "no" leaves it (returned: what to say then)."""
        writes = [a.preview for a in ctx.actions if not a.read_only]
        dated = any(getattr(i, f, None) for i in ctx.intents for f in ("start", "deadline", "due"))
        if writes and dated and _REPEATS.search(text) and ctx.answer("repeat") not in ("yes", "да"):
            # "every Monday at 10am", «каждую пятницу»: made once, never repeated — said before it is drafted
            if ctx.answer("repeat") is not None:
                return ctx.t("Хорошо, ничего не делаю.", "OK, doing nothing.")
            said = "; ".join(writes[:3])
            ctx.clause_index = 0
            raise ctx.ask(
                "repeat",
                ctx.t(
                    f"Повторять я не умею — создам только один раз: {said}. Так подойдёт?",
                    f"I can't make it repeat — only once: {said}. Is that OK?",
                ),
                choices=ctx.yes_no(),
                free_text=False,
            )
        # (of several sentences, one that plainly asks is asked, whatever another says of something else)
        kind = (
            "negated"
            if writes and ctx.memory.get("all_declined")
            else not_asked(text)
            if writes
            and not ctx.memory.get("declined")
            and not ctx.memory.get("checked")  # a condition on how things stand was checked: that decided
            and not asks_in_a_sentence(text)
            and not _NOTHING_ELSE.search(text)  # «…и больше ничего не создавай»: that, and nothing besides
            else None
        )
        if kind == "negated" and (
            ctx.memory.get("clauses", 1) > 1 and but_do(text) or ctx.memory.get("self_corrected")
        ):  # (or a take-back said with what replaces it, read as such: what stands is asked for)
            kind = None  # "dont move Globex yet, just add a note to the deal: …": not that, but this
        if not writes or not (asks_how(text) or kind) or ctx.answer("offer") in ("yes", "да"):
            return None
        said = "; ".join(writes[:5]) + ("; …" if len(writes) > 5 else "")
        if kind == "negated":  # "don't close ENG-101 yet": nothing is drafted, and the person is told so
            return ctx.t(
                f"Хорошо, не трогаю. (Не делаю: {said}.)", f"OK, leaving it as it is. (Not doing: {said}.)"
            )
        if ctx.answer("offer") is not None:
            return ctx.t("Хорошо, ничего не делаю.", "OK, doing nothing.")
        ctx.clause_index = 0
        raise ctx.ask(
            "offer",
            ctx.t(
                f"Это условие на будущее. Сделать сейчас: {said}?"
                if kind == "hypothetical"
                else f"Вы пока не уверены. Сделать всё же: {said}?"
                if kind in ("unsure", "doubted")
                else f"Это пересказ чужих слов. Сделать: {said}?"
                if kind == "reported"
                else f"Понял новость. Сделать: {said}?"
                if kind == "news"
                else f"Могу сделать это сам: {said}. Подготовить черновик?",
                f"That is a condition for later. Do it now: {said}?"
                if kind == "hypothetical"
                else f"You're not sure yet. Should I still: {said}?"
                if kind in ("unsure", "doubted")
                else f"That is what someone else said. Should I: {said}?"
                if kind == "reported"
                else f"Noted. Should I: {said}?"
                if kind == "news"
                else f"I can do it for you: {said}. Draft it?",
            ),
            choices=ctx.yes_no(),
            free_text=False,
        )

    async def _identifiers(self, text: str) -> str:
        """Spoken or hurried issue ids ("eng 101", "eng101") as Linear writes them ("ENG-101"), for the
        workspace's own team keys only (so "in 2 hours" stays a time)."""
        text = await self._spelled_teams(text)
        if not re.search(
            rf"\d|\b[^\W\d_]{{1,10}}[\s-]+(?:{NUMBER_WORDS})\b", text, re.IGNORECASE
        ) and not _RU_ORDINAL_ID.search(text):
            return text  # no number, spoken or written: nothing to read as an issue id (and no read)
        try:
            keys = [str(t.extra.get("key")) for t in await self.directory.teams() if t.extra.get("key")]
        except (LookupError, ToolkitError):  # Linear unreachable or not connected: read the text as said
            return text
        text = await self._ordinal_ids(text, keys)
        for key in keys:
            if len(key) >= 2:  # «си эс четырнадцать», «е эн джи сто три»: the key said letter by letter
                text = re.sub(
                    rf"(?i){shaping.spelled_key(key)}(?=[\s-]+(?:\d|(?:{NUMBER_WORDS})\b))",
                    functools.partial(_spelled_out, key),
                    text,
                )
            text = re.sub(  # (not a count of things: «в ENG 6 задач по релизу», "in ENG 7 issues")
                rf"\b{re.escape(key)}[\s\-_]?(\d{{1,6}})\b(?!\s+(?i:бага|баг\w*|задач\w*|тикет\w*|issues?|bugs?|tickets?|tasks?)\b)",
                rf"{key}-\1",
                text,
                flags=re.IGNORECASE,
            )
            # dictated: "eng сто два", "cs twelve", "eng one oh five"
            text = re.sub(  # (not a count of things: «в ENG три бага», "in ENG two issues")
                rf"\b{re.escape(key)}[\s\-]+((?:(?:{NUMBER_WORDS})(?:[\s-]+|(?=[?.!,;:])|$))+)(?!(?i:бага|баг\w*|задач\w*|тикет\w*|"
                r"issues?|bugs?|tickets?|tasks?)\b)",
                functools.partial(shaping.spoken_id, key),
                text,
                flags=re.IGNORECASE,
            )
        return _numbers_of_ids_said(text)

    async def _names_a_team(self, text: str) -> bool:
        """Whether `text` places the request in one of the workspace's Linear teams ("in Engineering", «в ENG»)."""
        try:
            teams = await self.directory.teams()
        except (LookupError, ToolkitError):
            return False
        names = [re.escape(n) for t in teams for n in (t.name, str(t.extra.get("key") or "")) if n]
        return bool(names) and bool(
            re.search(rf"(?i)\b(?:in|into|for|to|в|во|для)\s+(?:the\s+)?(?:{'|'.join(names)})\b", text)
        )

    async def _project_heading(self, text: str) -> str:
        """ "q1 launch: new issue in ENG — load test billing API": a project's name said as the heading of a new
        issue is where the issue goes (a company's or anyone else's name stays a heading)."""
        said = _PROJECT_HEADING.match(text)
        if said is None:
            return text
        try:
            projects = await self.directory.projects()
        except (LookupError, ToolkitError):
            return text
        named = said["head"].strip().lower()
        project = next((p for p in projects if p.name.lower() == named), None)
        if project is None:
            return text
        return f"{said['rest'].rstrip(' .')}, in the {project.name} project"

    async def _titled(self, text: str) -> str:
        try:
            return await titled_ids(text, self.directory)
        except (LookupError, ToolkitError):  # Linear unreachable or not connected: read the text as said
            return text

    async def _spelled_teams(self, text: str) -> str:
        """ "new issue for c s, …", «в си эс»: a team's key said letter by letter, after a word that names
        where it goes (the workspace's own keys only; with a number after it, `_identifiers` reads an id)."""
        said = list(_SPELLED_TEAM_AFTER.finditer(text))
        if not said:
            return text
        try:
            keys = [str(t.extra.get("key")) for t in await self.directory.teams() if t.extra.get("key")]
        except (LookupError, ToolkitError):
            return text
        for m in reversed(said):
            letters = m.group(1)
            key = next(
                (k for k in keys if len(k) >= 2 and re.fullmatch(f"(?i){shaping.spelled_key(k)}", letters)),
                None,
            )
            if key is not None:
                text = f"{text[: m.start(1)]}{key}{text[m.end(1) :]}"
        return text

    async def _hash_ids(self, text: str) -> str:
        """ "close #103", "#7 back to in progress": an issue by its bare number, as trackers and commit
        messages write it, when exactly one team has an issue with that number. (Before the hurried
        forms are read: "ENG-7 back to …" is one of them.)"""
        if not _HASH_ID.search(text):
            return text
        try:
            keys = [str(t.extra.get("key")) for t in await self.directory.teams() if t.extra.get("key")]
        except (LookupError, ToolkitError):
            return text
        out, last = [], 0
        for m in _HASH_ID.finditer(text):
            found = [k for k in keys if await self.directory.issue(f"{k}-{m.group(1)}") is not None]
            if len(found) == 1:
                out += [text[last : m.start()], f"{found[0]}-{m.group(1)}"]
                last = m.end()
        return "".join(out) + text[last:] if out else text

    async def _ordinal_ids(self, text: str, keys: list[str]) -> str:
        """«закрой сто первую», «кто делает сто пятую»: an issue by its number said as an ordinal, when
        exactly one team has an issue with that number (a team's key said before it wins)."""
        out, last = [], 0
        for m in _RU_ORDINAL_ID.finditer(text):
            number = ru_ordinal_number(m.group(2))
            key = (m.group(1) or "").upper()
            if number is None:
                continue
            found = [
                k
                for k in ([key] if key in keys else keys)
                if await self.directory.issue(f"{k}-{number}") is not None
            ]
            if len(found) == 1:
                out += [text[last : m.start()], f"{found[0]}-{number}"]
                last = m.end()
        return "".join(out) + text[last:] if out else text

    def _go_ahead(self, ctx: BuildContext) -> Ask:
        said = "; ".join(a.preview for a in ctx.actions if not a.read_only and a.preview)[:400]
        ctx.clause_index = 0
        cond = str(ctx.memory.get("unchecked_condition") or "")[:160]
        unchecked = (
            ctx.t(f"Условие «{cond}» я проверить не могу. ", f"I can't check '{cond}' myself. ")
            if cond
            else ""
        )
        return ctx.ask(
            "go_ahead",
            ctx.t(f"{unchecked}Подготовить черновик? {said}", f"{unchecked}Shall I draft this? {said}"),
            choices=[(ctx.t("Да, подготовить", "Yes, draft it"), "yes"), (ctx.t("Нет", "No"), "no")],
            free_text=False,
            risk="ambiguous",
        )

    def _unknown(self, ctx: BuildContext) -> Ask:
        if ctx.answers.get("c0.domain"):
            return ctx.ask(
                "request",
                ctx.t("Что сделать? Напишите одной фразой.", "What should I do? One sentence is enough."),
            )
        ctx.clause_index = 0
        return ctx.ask(
            "domain",
            ctx.t(
                "Не понял, что сделать. Это про сделки и контакты (Attio) или про задачи (Linear)?",
                "I'm not sure what you'd like to do. Is it about deals and contacts (Attio) or issues (Linear)?",
            ),
            choices=[("Attio", "attio"), ("Linear", "linear")],
            free_text=True,
        )

    def _invalid(self, ctx: BuildContext, plan: Plan, problem: str) -> Outcome:
        plan.intents = shaping.dumped(ctx)
        plan.summary = problem[:300]
        return Outcome(
            "invalid",
            plan,
            None,
            ctx.t(f"Не могу составить изменения: {problem}", f"I can't build this: {problem}")[:1500],
        )

    def _clarify(self, ctx: BuildContext, plan: Plan, ask: Ask) -> Outcome:
        plan.intents = shaping.dumped(ctx)
        plan.needs_clarification = [ask.question]
        plan.risks = [*ctx.risks, ask.risk]
        plan.entities = ctx.entities
        plan.actions = []
        plan.domain = shaping.domain(ctx.actions) if ctx.actions else shaping.guess_domain(ctx, ask)
        plan.summary = ask.question.question.split("\n")[0][:200]
        return Outcome("needs_clarification", plan, ask.question, ask.question.question)

    async def _finish(self, ctx: BuildContext, plan: Plan) -> Outcome:
        actions = shaping.one_update_per_record(shaping.dedupe(ctx.actions))
        if ctx.memory.get(
            "typed"
        ):  # "sozdaj zadachu kupit novye noutbuki": its title as typed, in one script
            actions = [shaping.as_typed(a, ctx.memory["typed"]) for a in actions]
        problems = [f"{a.tool_slug}: {p}" for a in actions for p in validate_arguments(a.tool_slug, a.args)]
        if problems:  # DESIGN §6 rule 5: every call must fit its tool's input schema before it is shown
            plan.actions = actions
            plan.summary = "; ".join(problems)[:300]
            return Outcome(
                "safe_fail",
                plan,
                None,
                ctx.t(
                    "Не могу составить корректный запрос к инструменту: " + "; ".join(problems)[:300],
                    "I could not build a valid tool call: " + "; ".join(problems)[:300],
                ),
            )
        done: list[dict[str, Any]] = []
        # Only a create with a business identity can be "done already"; whether a value change is
        # needed was decided from the record's current state, never from earlier drafts (DESIGN §7).
        writes = [a for a in actions if not a.read_only and not per_draft(a.idempotency_scope)]
        if writes and self._ledger is not None:
            seen = await self._ledger([a.idempotency_scope for a in writes])
            if seen:
                done = [
                    {
                        "preview": a.preview,
                        "idempotency_scope": a.idempotency_scope,
                        "result": seen[a.idempotency_scope],
                    }
                    for a in writes
                    if a.idempotency_scope in seen
                ]
                actions = [a for a in actions if a.idempotency_scope not in seen]
                ctx.notes.append(
                    ctx.t(
                        f"Уже сделано раньше: {len(done)} — повторно не создаю.",
                        f"Already done earlier: {len(done)} - not repeating them.",
                    )
                )
        plan.actions = actions
        plan.entities = ctx.entities
        plan.risks = list(ctx.risks)
        plan.domain = shaping.domain(actions) if actions else shaping.domain_of_done(done)
        if plan.domain == "unknown" and ctx.intents:  # nothing left to do: still about what was asked
            kits = {k for k in (toolkit_of(i) for i in ctx.intents) if k}
            plan.domain = shaping.domain([shaping.bare(k) for k in kits])
        writes = [a for a in actions if not a.read_only]
        plan.intent = "mutate" if writes else "query"
        if len(writes) > self._bulk:
            plan.risks.append(
                RiskFlag(
                    kind="bulk",
                    details=ctx.t(
                        f"{changes_ru(len(writes))} за раз: подтверждение — числом",
                        f"{len(writes)} changes at once: confirm with the count",
                    ),
                )
            )
        per_toolkit: dict[str, int] = {}
        for a in writes:
            per_toolkit[a.toolkit] = per_toolkit.get(a.toolkit, 0) + 1
        for tk, n in per_toolkit.items():
            if n > registry.rate_budget(tk):
                plan.risks.append(
                    RiskFlag(
                        kind="rate_limit_risk",
                        details=ctx.t(
                            f"{n} вызовов {tk} больше лимита {registry.rate_budget(tk)}/мин: выполню с паузами",
                            f"{n} {tk} calls exceed its {registry.rate_budget(tk)}/min budget: execution will be paced",
                        ),
                    )
                )
        plan.summary = shaping.summary(ctx, actions, done)
        plan.intents = shaping.dumped(ctx)
        kept = {id(a): i for i, a in enumerate(actions)}
        # (a read said twice, "in rubles and in dollars", is read once: both finds refine that one)
        reads = {shaping.read_key(a): i for i, a in enumerate(actions) if a.read_only}
        refine = [r for r in ctx.memory.get("refine", []) if r.action < len(ctx.actions)]
        for r in refine:  # indexes into the final list (deduplication and "already done" may drop some)
            said = ctx.actions[r.action]
            r.action = kept.get(id(said), reads.get(shaping.read_key(said), -1) if said.read_only else -1)
        return Outcome(
            "ready",
            plan,
            None,
            "\n".join(dict.fromkeys(ctx.notes)),
            done,
            [r for r in refine if r.action >= 0],
        )

    async def _from_command(self, raw: Any, ctx: BuildContext, plan: Plan) -> Outcome:
        """Seed 001's structured command, read as intents (its thresholds are the intents' own)."""
        try:
            cmd = parse_command(raw)
        except CommandError as exc:
            plan.summary = str(exc)
            return Outcome(
                "invalid",
                plan,
                None,
                ctx.t(f"Команда не принята: {exc}.", f"The command was not accepted: {exc}."),
            )
        plan.inputs = PlanInputs(
            raw_text=str(cmd.entities.get("title") or cmd.intent)[:MAX_TEXT], voice=plan.inputs.voice
        )
        if cmd.rejected:
            cmd.confidence = 0.0
        try:
            intents = command_intents(cmd, ctx)
        except Ask as ask:
            return self._clarify(ctx, plan, ask)
        return await self._run_intents(intents, ctx, plan)


# A colon inside quotes is part of a title («Globex: выгрузить логи»), not where a request's content
# starts: it is set aside while the words are read and put back in everything the reply carries.
# a quote's colons, and a link's ("https://…"), are no colon the request is split at
# "raise it to urgent... wait, it's already urgent, so skip that": a change asked, then taken back in one
# breath (not «сейчас ничего не создавайте», which puts off what was said before it)
_ITS_OWN_CHANGE_TAKEN_BACK = LazyRe(
    r"(?i)^(?!.*\b(?:ничего|nothing|anything)\b)(?!\s*(?:не|don'?t|do\s+not|never)\b).*?[,.…!]\s*"
    r"(?:(?:wait|no|нет|стоп|хотя)[,.…!\s]+)?.*\b(?:skip\s+(?:it|that|this)|forget\s+(?:it|that)|never\s*mind|"
    r"не\s+надо|отбой|отмена)\s*[.!]*\s*$"
)
_CUT_OFF = LazyRe(
    r"(?i)(?:[.…,!]\s*|\s)(?:no\s+wait|wait,?\s+no|actually,?\s+no|ой,?\s+нет|хотя\s+нет|а,?\s+нет|стоп)\s*[.!…]*\s*$"
)
_QUOTED = LazyRe(r"«[^»]*»|“[^”]*”|\"[^\"]*\"|(?<!\w)'[^']*'(?!\w)|\b(?:https?|ftp)://\S+")


def _quoted_colons_kept(text: str) -> str:
    return _QUOTED.sub(lambda m: m.group(0).replace(":", KEPT_COLON), text)


def _quoted_colons_back(outcome: Outcome) -> Outcome:
    if KEPT_COLON not in outcome.plan.model_dump_json() + outcome.user_message + repr(outcome.question):
        return outcome
    back = KEPT_COLON, ":"
    outcome.plan = Plan.model_validate_json(outcome.plan.model_dump_json().replace(*back))
    outcome.user_message = outcome.user_message.replace(*back)
    if outcome.question is not None:
        outcome.question = ClarificationQuestion.model_validate_json(
            outcome.question.model_dump_json().replace(*back)
        )
    return outcome


def _by(producer: Producer, outcome: Outcome, interpreted: list[Any] | None = None) -> Outcome:
    outcome.producer = producer
    outcome.interpreted = interpreted
    return outcome


def _fell_short(outcome: Outcome) -> bool:
    """Whether the rules' reply is "I did not understand (all of) it": the routing question, a
    clause no rule explained, or a value no intent carries (DESIGN §5a coverage)."""
    q = outcome.question
    if outcome.status != "needs_clarification" or q is None:
        return False
    slot = q.id.split(".", 1)[-1]
    # "domain" is also a company's web domain: the routing question is the one offering the systems
    routing = slot == "domain" and {c.value for c in q.choices} == {"attio", "linear"}
    return routing or slot in _FELL_SHORT


_POLITE_ASK = LazyRe(
    r"(?i)^\s*(?:(?:hey|hi|ok|so|и|а|ну)[,\s]+)?(?:(?:can|could|would|will)\s+you|pls|please|можешь|можете|сможешь|"
    r"сможете|не\s+мог\w*|будь\s+добр\w*)\b"
)


def _only_asks(text: str, now: datetime) -> bool:
    """The person's words (sent beside a model's intents) ask a question rather than ask for a change
    ("Globex pilot уже в Won?"); "can you move …?" is a request said politely."""
    if not text.strip() or _POLITE_ASK.match(text):
        return False
    clauses = split_clauses(text[:2000], now)
    return bool(clauses) and all(interrogative(c) for c in clauses)


# «сто первую», «сто двадцать пятую»: an issue's number said as a Russian ordinal (hundreds only: a small
# ordinal is a day or a position in a list)
_RU_ORDINAL_ID = LazyRe(
    r"(?i)\b(?:([A-Z]{2,10})[\s-]+)?((?:сто|двести|триста)(?:\s+(?:двадцать|тридцать|сорок|пятьдесят))?\s+(?:"
    + "|".join(sorted(RU_ORDINAL_STEMS, key=len, reverse=True))
    + r")\w*(?:ая|ую|ой|ое|ый|ого|ому|ым|ья|ью|ье|ий))\b"
)
