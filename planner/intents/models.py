"""The typed language between words and plans (DESIGN §5a): one model per thing a person can want.

Field values are what a person says — names in any case or script, identifiers, "me", dates as ISO
8601 or words — never record ids the producer had to look up: resolution turns them into records
and asks when it cannot. Every producer (the rules, a client's model, seed 001's `command`, the
optional interpreter) hands over a list of these, and one pipeline takes it from there.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StringConstraints,
    field_validator,
    model_validator,
)

from planner.limits import MAX_BODY, MAX_ITEMS, MAX_NAME, MAX_TEXT, MAX_TITLE
from planner.numbers import money_number

__all__ = [
    "FIND_OBJECTS", "GROUPS_OF", "GroupBy", "INTENT_TYPES", "PRIORITIES", "priority_name", "ApplyTemplate", "ArchiveIssue", "CommentIssue",
    "CompleteIssue", "CompleteTask", "CreateCompany", "CreateDeal", "CreateEvent", "CreateIssue", "CreateNote",
    "CreatePerson", "CreateProject", "CreateTask", "DeleteRecord", "Filters", "Find", "Intent", "IntentBase",
    "UpdateDeal", "UpdateIssue", "UpdateMatching", "UpdateRecord", "WRITE_OPS",
]  # fmt: skip

Ref = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_NAME)]
Name = Ref
Title = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_TITLE)]
Body = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_BODY)]
When = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
Refs = Annotated[list[Ref], Field(max_length=MAX_ITEMS)]

PRIORITIES = ("urgent", "high", "medium", "low", "none")
Priority = Literal["urgent", "high", "medium", "low", "none"]
_PRIORITY_WORDS = {
    "urgent": "urgent", "срочный": "urgent", "срочно": "urgent", "критичный": "urgent", "critical": "urgent",
    "asap": "urgent", "p0": "urgent", "p1": "high", "high": "high", "высокий": "high", "важный": "high",
    "medium": "medium", "normal": "medium", "средний": "medium", "обычный": "medium", "p2": "medium",
    "low": "low", "низкий": "low", "p3": "low", "none": "none", "no priority": "none", "без приоритета": "none",
}  # fmt: skip
_PRIORITY_NUMBERS = {0: "none", 1: "urgent", 2: "high", 3: "medium", 4: "low"}  # Linear's scale


def priority_name(value: int | str | None) -> Priority | None:
    """Linear's number (1 = urgent) or a word in either language, as the intents' priority."""
    found = _priority(value) if value is not None else None
    return found if found in PRIORITIES else None  # type: ignore[no-any-return]


def _priority(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return _PRIORITY_NUMBERS.get(value, value)
    if isinstance(value, str):
        word = re.sub(r"\s+(?:priority|приоритет)$", "", value.strip().lower())
        return _PRIORITY_WORDS.get(word, word)
    return value


class IntentBase(BaseModel):
    """What every intent carries besides its own fields."""

    model_config = ConfigDict(extra="forbid")

    op: str
    confidence: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="how sure the producer is, 0..1 (below 0.75 the person is asked)",
    )
    span: str | None = Field(
        default=None, max_length=MAX_TEXT, description="the person's words this intent came from, when known"
    )
    # Records a producer already resolved (the rules do, with the whole sentence as context); never
    # part of the schema, never serialised: a client's model names things and the resolver looks.
    _resolved: dict[str, Any] = PrivateAttr(default_factory=dict)

    def resolved(self, field: str) -> Any:
        return self._resolved.get(field)

    def with_resolved(self, **records: Any) -> IntentBase:
        self._resolved.update({k: v for k, v in records.items() if v is not None})
        return self


# ---- Linear --------------------------------------------------------------------------------------
class CreateIssue(IntentBase):
    op: Literal["create_issue"] = "create_issue"
    title: Title
    team: Ref | None = Field(
        default=None, description="team key or name (ENG, Design); default team if omitted"
    )
    description: Body | None = None
    assignee: Ref | None = Field(default=None, description='a person\'s name or "me"')
    priority: Priority | None = None
    due: When | None = Field(default=None, description="ISO date or words: 'friday', 'завтра'")
    labels: Refs | None = None
    project: Ref | None = Field(default=None, description="an existing project (never created implicitly)")
    parent: Ref | None = Field(default=None, description="parent issue identifier, for a sub-issue")
    state: Ref | None = None

    norm_priority = field_validator("priority", mode="before")(_priority)


class UpdateIssue(IntentBase):
    op: Literal["update_issue"] = "update_issue"
    issue: Ref = Field(
        description="identifier (ENG-123), words of the title, or a position ('the second one')"
    )
    title: Title | None = None
    description: Body | None = None
    assignee: Ref | None = None
    priority: Priority | None = None
    due: When | None = None
    labels_add: Refs | None = None
    labels_remove: Refs | None = None
    project: Ref | None = Field(
        default=None, description="project name; 'none' takes the issue out of its project"
    )
    state: Ref | None = Field(default=None, description="workflow state name (In Progress, Done, …)")
    parent: Ref | None = None

    norm_priority = field_validator("priority", mode="before")(_priority)


class CompleteIssue(IntentBase):
    op: Literal["complete_issue"] = "complete_issue"
    issue: Ref


class ArchiveIssue(IntentBase):
    op: Literal["archive_issue"] = "archive_issue"
    issue: Ref


class CommentIssue(IntentBase):
    op: Literal["comment_issue"] = "comment_issue"
    issue: Ref
    body: Body


class CreateProject(IntentBase):
    op: Literal["create_project"] = "create_project"
    name: Name
    team: Ref | None = None
    target_date: When | None = None
    description: Body | None = None


# ---- Attio ---------------------------------------------------------------------------------------
class CreateCompany(IntentBase):
    op: Literal["create_company"] = "create_company"
    name: Name
    domain: Ref | None = Field(default=None, description="e.g. acme.com (Attio matches companies by it)")


class CreatePerson(IntentBase):
    op: Literal["create_person"] = "create_person"
    name: Name
    email: Ref | None = Field(default=None, description="Attio matches people by it")
    company: Ref | None = None
    job_title: Ref | None = None


class CreateDeal(IntentBase):
    op: Literal["create_deal"] = "create_deal"
    name: Name
    company: Ref | None = None
    amount: float | None = Field(default=None, ge=0, le=1e12)
    currency: Annotated[str, StringConstraints(strip_whitespace=True, max_length=12)] | None = None
    stage: Ref | None = None
    owner: Ref | None = Field(default=None, description="a workspace member's name or 'me'")

    norm_amount = field_validator("amount", mode="before")(lambda v: _money(v))
    norm_currency = field_validator("currency", mode="before")(lambda v: _currency(v))


class UpdateDeal(IntentBase):
    op: Literal["update_deal"] = "update_deal"
    deal: Ref = Field(description="the deal's name or its company's name, as the person says it")
    stage: Ref | None = None
    amount: float | None = Field(default=None, ge=0, le=1e12)
    currency: Annotated[str, StringConstraints(strip_whitespace=True, max_length=12)] | None = None
    owner: Ref | None = None
    name: Name | None = None

    norm_amount = field_validator("amount", mode="before")(lambda v: _money(v))
    norm_currency = field_validator("currency", mode="before")(lambda v: _currency(v))


class UpdateRecord(IntentBase):
    op: Literal["update_record"] = "update_record"
    record: Ref = Field(description="a company's or person's name")
    object: Literal["companies", "people"] | None = None
    values: dict[
        Annotated[str, StringConstraints(max_length=60)],
        Annotated[str, StringConstraints(max_length=MAX_BODY)]
        | Annotated[list[Ref], Field(max_length=MAX_ITEMS)],
    ] = Field(
        description="attribute -> new value: job_title, description, domains, email_addresses, name, company (a person's, by name)"
    )


class CreateNote(IntentBase):
    op: Literal["create_note"] = "create_note"
    record: Ref = Field(description="the deal, company or person the note is on")
    body: Body
    title: Title | None = None


class CreateTask(IntentBase):
    op: Literal["create_task"] = "create_task"
    content: Title
    deadline: When | None = None
    assignee: Ref | None = None
    record: Ref | None = Field(default=None, description="the deal, company or person it is about")


class CompleteTask(IntentBase):
    op: Literal["complete_task"] = "complete_task"
    task: Ref = Field(description="words of the CRM task, or the record it is about")


class DeleteRecord(IntentBase):
    op: Literal["delete_record"] = "delete_record"
    record: Ref
    object: Literal["companies", "people", "deals"] | None = None


# ---- Calendar ------------------------------------------------------------------------------------
class CreateEvent(IntentBase):
    op: Literal["create_event"] = "create_event"
    start: When | None = Field(default=None, description="ISO 8601 or words ('завтра в 10', 'friday 3pm')")
    duration_minutes: int | None = Field(default=None, ge=1, le=24 * 60)
    end: When | None = None
    title: Title | None = None
    attendees: Refs | None = Field(default=None, description="names or emails")
    description: Body | None = None


# ---- Compound ------------------------------------------------------------------------------------
class ApplyTemplate(IntentBase):
    op: Literal["apply_template"] = "apply_template"
    template: Ref = Field(description="onboarding or renewal (the workspace's templates)")
    deal: Ref
    team: Ref | None = Field(default=None, description="a team other than the template's own")
    assignee: Ref | None = Field(default=None, description='whom every task goes to: a name or "me"')
    due: When | None = Field(default=None, description="one due date for every task: ISO or words")
    skip: list[Ref] | None = Field(
        default=None,
        max_length=MAX_ITEMS,
        description="template tasks to leave out, by key or words of their title",
    )


FIND_OBJECTS = (
    "deals", "companies", "people", "issues", "projects", "tasks", "notes", "events",
    "stages", "teams", "states", "labels", "members", "users",
)  # fmt: skip


class Filters(BaseModel):
    model_config = ConfigDict(extra="forbid")

    norm_priority = field_validator("priority", mode="before")(_priority)

    record: Ref | None = Field(default=None, description="one record by name or identifier")
    stage: Ref | None = None
    owner: Ref | None = None
    company: Ref | None = None
    team: Ref | None = None
    state: Ref | None = Field(default=None, description="a state name, or 'open' (not completed or canceled)")
    label: Ref | None = None
    assignee: Ref | None = None
    project: Ref | None = Field(
        default=None, description="a project's name, or 'none' for issues in no project"
    )
    priority: Priority | None = None
    currency: Literal["USD", "EUR", "RUB"] | None = Field(default=None, description="deals: in this currency")
    due_before: When | None = None
    due_after: When | None = None
    due: Literal["none", "any"] | None = Field(
        default=None, description="issues: 'none' = no due date set, 'any' = a due date is set"
    )
    date: When | None = Field(default=None, description="for events: the day")
    text: Ref | None = Field(default=None, description="words to search for")
    exclude: list[Ref] | None = Field(
        default=None,
        max_length=MAX_ITEMS,
        description='issue identifiers to leave out ("all CS issues except CS-12")',
    )


GroupBy = Literal[
    "stage", "owner", "company", "currency", "assignee", "state", "priority", "team", "label", "project"
]
# what each list can be broken down by ("pipeline by stage", "open issues by priority")
GROUPS_OF: dict[str, tuple[str, ...]] = {
    "deals": ("stage", "owner", "company", "currency"),
    "issues": ("assignee", "state", "priority", "team", "label", "project"),
}


class Find(IntentBase):
    op: Literal["find"] = "find"
    object: Literal[
        "deals", "companies", "people", "issues", "projects", "tasks", "notes", "events",
        "stages", "teams", "states", "labels", "members", "users",
    ]  # fmt: skip
    filters: Filters = Field(default_factory=Filters)
    aggregate: Literal["count", "sum:amount", "count:assignee"] | None = None
    group_by: GroupBy | None = None
    limit: int | None = Field(default=None, ge=1, le=MAX_ITEMS)

    @model_validator(mode="after")
    def _groups_its_own_fields(self) -> Find:
        # "count:assignee" is the first grouping there was: the same as group_by="assignee"
        if self.aggregate == "count:assignee" and self.group_by is None:
            self.group_by = "assignee"
        if self.group_by is not None and self.group_by not in GROUPS_OF.get(self.object, ()):
            raise ValueError(
                f"group_by {self.group_by!r} does not apply to {self.object}; "
                f"use one of: {', '.join(GROUPS_OF.get(self.object, ())) or 'none'}"
            )
        return self


class UpdateMatching(IntentBase):
    op: Literal["update_matching"] = "update_matching"
    object: Literal["issues", "deals", "tasks", "people", "companies"]
    filters: Filters
    changes: dict[Annotated[str, StringConstraints(max_length=60)], Any] = Field(
        description="fields of the matching update (state, assignee, priority, stage, owner…) or "
        '{"complete": true} / {"archive": true} / {"delete": true}; or one new thing on each record: '
        '{"comment": "…"} (issues), {"note": "…"} or {"task": {"content", "deadline", "assignee"}} (deals, people, companies)'
    )


Intent = Annotated[
    CreateIssue | UpdateIssue | CompleteIssue | ArchiveIssue | CommentIssue | CreateProject | CreateCompany
    | CreatePerson | CreateDeal | UpdateDeal | UpdateRecord | CreateNote | CreateTask | CompleteTask
    | DeleteRecord | CreateEvent | ApplyTemplate | Find | UpdateMatching,
    Field(discriminator="op"),
]  # fmt: skip

INTENT_TYPES: dict[str, type[IntentBase]] = {
    t.model_fields["op"].default: t
    for t in (
        CreateIssue, UpdateIssue, CompleteIssue, ArchiveIssue, CommentIssue, CreateProject, CreateCompany,
        CreatePerson, CreateDeal, UpdateDeal, UpdateRecord, CreateNote, CreateTask, CompleteTask, DeleteRecord,
        CreateEvent, ApplyTemplate, Find, UpdateMatching,
    )
}  # fmt: skip
WRITE_OPS = frozenset(op for op in INTENT_TYPES if op != "find")


_MULTIPLIERS = {"k": 1e3, "к": 1e3, "тыс": 1e3, "thousand": 1e3, "m": 1e6, "млн": 1e6, "million": 1e6}


def _currency(value: Any) -> Any:
    """ "eur", "евро", "€", "dollars", «рубли» as the code; anything else is left as said (and checked later)."""
    if not isinstance(value, str):
        return value
    w = value.strip().lower()
    for code, starts in (
        ("RUB", ("rub", "руб", "₽", "rou")),
        ("EUR", ("eur", "евро", "€")),
        ("USD", ("usd", "долл", "dollar", "$", "бакс")),
    ):
        if w.startswith(starts):
            return code
    return value.strip()


def _money(value: Any) -> Any:
    """ "25k", "1 200 000", "$30,000", "300 тыс" as a number; anything else is left for validation."""
    if not isinstance(value, str):
        return value
    low = value.strip().lower().replace("\u00a0", " ")
    m = re.fullmatch(r"[$€₽]?\s*(\d+(?:[ ,.]\d{3})*(?:[.,]\d+)?)\s*([a-zа-я.]*)\s*[$€₽a-zа-я.]*", low)
    if not m:
        return value
    num = m.group(1)
    number = money_number(num)  # ("12,500.50", «12 500,50», "30,000")
    unit = m.group(2).rstrip(".")
    return number * next((f for w, f in _MULTIPLIERS.items() if unit.startswith(w)), 1.0)
