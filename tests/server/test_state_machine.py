"""The draft lifecycle as a Hypothesis state machine, through the real MCP client in memory.

Two people (anna, boris) plan writes (a deal stage change, an issue, a note, a bulk of seven issues, a
destructive archive) and reads, in two conversations or none; they confirm (with the right count, a
wrong one or none), execute (for real or as a dry run), cancel, answer "да"/"нет"/"7" in a
conversation, replay Telegram callback ids, and the clock moves past the drafts' TTL. A third person
(mallory), and each owner towards the other's drafts, acts as a stranger.

After every step an oracle that never goes through the server (a read-only SQLite connection to the
same file, and the sandbox's record of write calls) checks the promises:

- every status change in `draft_events` is an edge of the state graph, contiguous per draft, and
  *explained by the step that made it*: a draft becomes `confirmed` only in its owner's confirm
  (with the typed count for a bulk draft) or the owner's "да"/count in the draft's conversation,
  `executing` only in the owner's (non-dry-run) execute or that "да", nothing moves forward past its
  TTL, and only the owner's own calls move or expire a draft;
- writes reach the workspace only in a step where a draft entered `executing`, no more than that
  draft's attempted actions, and each idempotency scope succeeds at most once across all drafts;
- a replayed callback id returns the first reply byte for byte and changes nothing (no status change,
  no write, no audit record);
- a stranger's confirm/execute/cancel answers exactly what a missing draft answers and changes nothing;
- `list_drafts` shows each person exactly their own drafts.

The budget is fixed (`max_examples`, `stateful_step_count`); a failure prints the shrunk sequence.
"""

from __future__ import annotations

import asyncio
import secrets
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import pytest
from conftest import REF_NOW
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, multiple, rule
from sync_client import InMemoryServer

from drafts import SqliteStore
from drafts.models import TRANSITIONS
from server.app import build_server
from server.service import Service
from server.settings import Settings
from server.wiring import build_service

# A passing run takes ~15 s; a failing one also shrinks its counterexample (1-4 minutes here).
pytestmark = pytest.mark.timeout(600)

Reply = dict[str, Any]

RUNNER = asyncio.Runner()  # the stateful test is synchronous: every async step runs on this one loop


@pytest.fixture(scope="module", autouse=True)
def _one_loop_per_module() -> Iterator[None]:
    yield
    try:
        if _SHARED:
            RUNNER.run(_SHARED[0].stop())
    finally:
        RUNNER.close()
        for path in _TEMPLATE:
            shutil.rmtree(path.parent, ignore_errors=True)


OWNERS = ("anna", "boris")
PEOPLE = (*OWNERS, "mallory")
CONVERSATIONS = (None, None, "c1", "c2")  # a plan in a conversation also answers its pending draft
BULK_TEXT = "Create issues in DES for: intro, consent, avatar, invite, plan, import, tour"
WRITES = (
    "Переведи сделку Globex pilot в стадию Won",  # a business scope: a second draft finds it done
    "Create a Linear issue: rotate the backup keys",  # a per-draft scope: each draft makes its own
    "Add a note to John Smith: prefers calls after 3pm",
    "Удали ENG-102",  # destructive
    BULK_TEXT,  # seven issues: the counted confirmation
)
READS = ("Покажи мои задачи в Linear", "Покажи ENG-101")
ANSWERS = ("да", "yes", "нет", "7")  # a conversation's pending draft: confirm+run / cancel / the count
YES = {"да", "yes"}
AWAITING = {"pending", "awaiting_bulk_confirmation"}
RAN = {"executed", "partially_executed", "failed"}
ATTEMPTED = {"succeeded", "failed", "unknown"}  # an action status that means the backend was called
CALLBACK_TOOLS = ("confirm_draft", "execute_draft", "cancel_draft")


# ---------------------------------------------------------------------------------------------
# The server in memory, driven from synchronous rules
# ---------------------------------------------------------------------------------------------


_TEMPLATE: list[Path] = []


def template_db() -> Path:
    """A database with the store's migrations applied and the sandbox seeded, built once."""
    if not _TEMPLATE:
        path = Path(tempfile.mkdtemp(prefix="planner-sm-template-")) / "planner.db"
        service = build_service(Settings(db_path=path))
        RUNNER.run(service.backend.aclose())
        RUNNER.run(service.store.close())
        _TEMPLATE.append(path)
    return _TEMPLATE[0]


class ServiceSwitch:
    """What the MCP server calls "the service": each example plugs in a fresh Service (its own
    database, fake clock, sandbox and planner), so no state crosses examples, while the MCP server and
    its client (whose output-schema validators take ~0.15 s per tool to compile) are built once. That
    keeps an example at ~0.1 s; shrinking a failure still takes one or two minutes."""

    def __init__(self) -> None:
        self.current: Service | None = None

    def __getattr__(self, name: str) -> Any:
        if self.current is None:
            raise AttributeError(name)
        return getattr(self.current, name)

    async def start(self) -> None:
        """The server's lifespan starts the switch only; each example starts and stops its own service."""

    async def stop(self) -> None:
        """See `start`."""


_SHARED: list[InMemoryServer] = []
SWITCH = ServiceSwitch()


def shared_server() -> InMemoryServer:
    """The module's one MCP server (on the switch) and its connected in-memory client."""
    if not _SHARED or not _SHARED[0].running:
        _SHARED[:] = [InMemoryServer(build_server(cast(Service, SWITCH), Settings()))]
        RUNNER.run(_SHARED[0].start())
    return _SHARED[0]


# ---------------------------------------------------------------------------------------------
# The oracle: the database as it is, read without going through the server
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    id: str
    owner: str
    conversation: str | None
    bulk: int | None
    expires_ts: float
    status: str


@dataclass(frozen=True)
class Event:
    seq: int
    draft: str
    src: str
    dst: str


@dataclass
class Step:
    """What one rule did, to explain every status change it caused."""

    actor: str
    tool: str
    draft: str | None = None
    text: str | None = None
    conversation: str | None = None
    confirm_count: int | None = None
    dry_run: bool = False
    replay: bool = False
    stranger: bool = False


@dataclass(frozen=True)
class DraftRef:
    id: str
    owner: str
    text: str = field(compare=False, default="")


@dataclass(frozen=True)
class Callback:
    user: str
    tool: str
    args: dict[str, Any] = field(hash=False)
    reply: Reply = field(hash=False)


class Oracle:
    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)

    def close(self) -> None:
        self.conn.close()

    def drafts(self) -> dict[str, Row]:
        rows = self.conn.execute(
            "SELECT id, owner_user_id, conversation_id, bulk_count, expires_ts, status FROM drafts"
        ).fetchall()
        return {r[0]: Row(*r) for r in rows}

    def events_after(self, seq: int) -> list[Event]:
        rows = self.conn.execute(
            "SELECT id, draft_id, from_state, to_state FROM draft_events WHERE id > ? ORDER BY id", (seq,)
        ).fetchall()
        return [Event(*r) for r in rows]

    def actions(self) -> list[tuple[str, str, str]]:
        """(draft id, idempotency scope, action status) of every action of every draft."""
        rows = self.conn.execute(
            "SELECT draft_id, json_extract(action, '$.idempotency_scope'), status FROM draft_actions"
        ).fetchall()
        return [(str(a), str(b), str(c)) for a, b, c in rows]

    def audit_count(self, user: str) -> int:
        return int(
            self.conn.execute("SELECT COUNT(*) FROM audit_log WHERE user_id = ?", (user,)).fetchone()[0]
        )


def explains(step: Step, d: Row, e: Event, now_ts: float, executing_now: set[str]) -> bool:
    """Whether `step` may have caused status change `e` of draft `d`."""
    if e.dst not in TRANSITIONS.get(e.src, frozenset()):
        return False
    if step.replay or step.stranger or step.actor != d.owner:
        return False  # only the owner's own, fresh calls move a draft
    due = d.expires_ts <= now_ts
    on_it = step.draft == d.id
    talk = step.tool == "plan" and d.conversation is not None and step.conversation == d.conversation
    text = (step.text or "").strip().lower() if talk else ""
    yes, counted = text in YES, d.bulk is not None and text == str(d.bulk)
    if e.dst == "expired":
        return due
    if e.dst == "cancelled":
        return (step.tool == "cancel_draft" and on_it) or (talk and e.src in AWAITING)
    if due:
        return False  # past its TTL a draft can only be cancelled or expired
    if e.dst == "awaiting_bulk_confirmation":
        return d.bulk is not None and ((step.tool == "confirm_draft" and on_it) or yes)
    if e.dst == "confirmed":
        if d.bulk is not None:  # the counted confirmation, and only it
            by_tool = step.tool == "confirm_draft" and on_it and step.confirm_count == d.bulk
            return e.src == "awaiting_bulk_confirmation" and (by_tool or counted)
        return e.src == "pending" and ((step.tool == "confirm_draft" and on_it) or yes)
    if e.dst == "executing":
        by_tool = step.tool == "execute_draft" and on_it and not step.dry_run
        return e.src == "confirmed" and (by_tool or yes or counted)
    if e.dst in RAN:
        return e.src == "executing" and d.id in executing_now
    return False


# ---------------------------------------------------------------------------------------------
# The machine
# ---------------------------------------------------------------------------------------------


class DraftLifecycle(RuleBasedStateMachine):
    drafts = Bundle("drafts")
    bulk_drafts = Bundle("bulk_drafts")  # also in `drafts`; the counted confirmation aims at these
    callbacks = Bundle("callbacks")

    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="planner-sm-"))
        path = self.dir / "planner.db"
        shutil.copyfile(template_db(), path)  # migrated and seeded once per session, not per example
        self.now = datetime.now(UTC)
        self.settings = Settings(db_path=path)
        store = SqliteStore(str(path), clock=lambda: self.now)
        self.service: Service = build_service(self.settings, store=store)
        SWITCH.current = self.service
        self.server = shared_server()
        RUNNER.run(self.service.start())  # as the server's lifespan does: recovery now and every minute
        self.oracle = Oracle(path)
        self.seen_seq = 0
        self.status: dict[str, str] = {}  # each draft's status as its logged transitions tell it
        self.writes_seen = 0
        self.missing_id = secrets.token_urlsafe(16)
        self.used_callbacks: list[Callback] = []

    def teardown(self) -> None:
        try:
            RUNNER.run(self.service.stop())
        finally:
            self.oracle.close()
            shutil.rmtree(self.dir, ignore_errors=True)

    # -- calls and the per-step check ----------------------------------------------------------

    def call(self, step: Step, tool: str, **args: Any) -> Reply:
        before_audit = self.oracle.audit_count(step.actor) if step.replay or step.stranger else 0
        reply = RUNNER.run(self.server.call(tool, args))
        assert reply["status"] != "tool_error", (tool, args, reply)
        self.check(step)
        if step.replay or step.stranger:
            assert self.oracle.audit_count(step.actor) == before_audit, "a no-op call wrote an audit record"
        return reply

    def writes(self) -> int:
        return len(self.service.backend.write_calls)  # type: ignore[attr-defined]

    def check(self, step: Step) -> None:
        rows = self.oracle.drafts()
        events = self.oracle.events_after(self.seen_seq)
        executing_now: set[str] = set()
        for e in events:
            d = rows[e.draft]
            assert e.src == self.status.get(d.id, "pending"), f"a status change skipped a step: {e}"
            self.status[d.id] = e.dst
            assert explains(step, d, e, self.now.timestamp(), executing_now), (
                f"{e.src} -> {e.dst} of {d.owner}'s draft {d.id} (bulk={d.bulk}, conversation={d.conversation}) "
                f"is not explained by {step}"
            )
            how = f"by '{step.text}'" if step.tool == "plan" else f"by {step.tool}"
            event(f"{e.src} -> {e.dst}{' (bulk)' if d.bulk else ''} {how}")  # --hypothesis-show-statistics
            if e.dst == "executing":
                executing_now.add(e.draft)
            self.seen_seq = e.seq
        for d in rows.values():
            assert d.status == self.status.get(d.id, "pending"), (
                f"{d} changed status without a logged transition"
            )
        actions = self.oracle.actions()
        made = self.writes() - self.writes_seen
        if not executing_now:
            assert made == 0, f"{made} write(s) in a step where no draft started executing: {step}"
        else:
            ran = [status for draft, _, status in actions if draft in executing_now]
            if "already_done" in ran:
                event("a draft ran and found a scope already done by another draft")
            attempted = sum(status in ATTEMPTED for status in ran)
            succeeded = ran.count("succeeded")
            assert succeeded <= made <= attempted, (made, ran, step)
        self.writes_seen += made
        done: dict[str, int] = {}
        for _, scope, status in actions:
            if status == "succeeded":
                done[scope] = done.get(scope, 0) + 1
        twice = {scope: n for scope, n in done.items() if n > 1}
        assert not twice, f"side effects ran more than once: {twice}"

    def row(self, ref: DraftRef) -> Row:
        return self.oracle.drafts()[ref.id]

    # -- rules ----------------------------------------------------------------------------------

    @initialize(
        target=drafts,
        user=st.sampled_from(OWNERS),
        text=st.sampled_from(WRITES),
        conversation=st.sampled_from(CONVERSATIONS),
    )
    def first_draft(self, user: str, text: str, conversation: str | None) -> Any:
        """A write, and the same request from the other person: two drafts that may share a scope."""
        first = self.plan(user, text, conversation)
        twin = self.plan(next(u for u in OWNERS if u != user), text, None)
        return multiple(*(ref for ref in (first, twin) if isinstance(ref, DraftRef)))

    @initialize(targets=(drafts, bulk_drafts), user=st.sampled_from(OWNERS))
    def bulk_draft(self, user: str) -> Any:
        return self.plan(user, BULK_TEXT, None)

    @rule(
        target=drafts,
        user=st.sampled_from(OWNERS),
        text=st.sampled_from(WRITES + READS + ANSWERS),
        conversation=st.sampled_from(CONVERSATIONS),
    )
    def plan(self, user: str, text: str, conversation: str | None) -> Any:
        before = set(self.oracle.drafts())
        args: dict[str, Any] = {"text": text, "user_id": user, "now": REF_NOW}
        if conversation is not None:
            args["conversation_id"] = conversation
        reply = self.call(Step(user, "plan", text=text, conversation=conversation), "plan", **args)
        new = set(self.oracle.drafts()) - before
        if reply["status"] == "draft_pending":
            assert reply["ok"] is True and new == {reply["draft"]["id"]}, (reply["status"], new)
            assert reply["draft"]["status"] == "pending"
            assert (reply["draft"]["bulk_count"] is not None) == (text == BULK_TEXT)
            return DraftRef(reply["draft"]["id"], user, text)
        assert new == set(), f"a {reply['status']!r} reply created drafts {new}"
        return multiple()

    @rule(
        target=callbacks,
        draft=drafts,
        count=st.sampled_from(["right", "right", "none", "wrong"]),
        with_callback=st.booleans(),
    )
    def confirm(self, draft: DraftRef, count: str, with_callback: bool, asked: bool = False) -> Any:
        """The owner's confirm; with `asked`, a bulk draft's question is asked first (a plain confirm),
        so that the count (right, wrong or none) meets a draft awaiting it in most runs."""
        row = self.row(draft)
        bulk = row.bulk or 7
        if asked and row.bulk is not None and row.status == "pending":
            self.confirm(draft, "none", with_callback=False)
        confirm_count = {"none": None, "right": bulk, "wrong": bulk + 1}[count]
        args: dict[str, Any] = {"draft_id": draft.id, "user_id": draft.owner}
        if confirm_count is not None:
            args["confirm_count"] = confirm_count
        return self._owner_call(
            Step(draft.owner, "confirm_draft", draft.id, confirm_count=confirm_count),
            "confirm_draft",
            args,
            with_callback,
        )

    @rule(draft=bulk_drafts, count=st.sampled_from(["right", "none", "wrong"]))
    def counted_confirmation(self, draft: DraftRef, count: str) -> None:
        """A bulk draft's question, then the person's count: only the typed right count confirms it."""
        self.confirm(draft, count, with_callback=False, asked=True)

    @rule(target=callbacks, draft=drafts, dry_run=st.booleans(), with_callback=st.booleans())
    def execute(self, draft: DraftRef, dry_run: bool, with_callback: bool) -> Any:
        args: dict[str, Any] = {"draft_id": draft.id, "user_id": draft.owner}
        if dry_run:
            args["dry_run"] = True
        step = Step(draft.owner, "execute_draft", draft.id, dry_run=dry_run)
        return self._owner_call(step, "execute_draft", args, with_callback)

    @rule(target=drafts, draft=drafts, by_the_other=st.booleans())
    def same_request_again(self, draft: DraftRef, by_the_other: bool) -> Any:
        """The same request planned again while the first draft may still be open: two drafts share a
        business idempotency scope (the stage change, the note), so only one may take effect."""
        user = next(u for u in OWNERS if u != draft.owner) if by_the_other else draft.owner
        return self.plan(user, draft.text, None)

    @rule(draft=drafts)
    def confirm_then_execute(self, draft: DraftRef) -> None:
        """The happy path in one rule (the counted confirmation for a bulk draft), so that runs are common."""
        self.confirm(draft, "right", with_callback=False)
        self.execute(draft, dry_run=False, with_callback=False)

    @rule(target=callbacks, draft=drafts, with_callback=st.booleans())
    def cancel(self, draft: DraftRef, with_callback: bool) -> Any:
        args = {"draft_id": draft.id, "user_id": draft.owner}
        return self._owner_call(
            Step(draft.owner, "cancel_draft", draft.id), "cancel_draft", args, with_callback
        )

    def _owner_call(self, step: Step, tool: str, args: dict[str, Any], with_callback: bool) -> Any:
        if with_callback:
            args["callback_id"] = f"tg:callback:{secrets.token_hex(6)}"
        status_before = self.row(DraftRef(args["draft_id"], step.actor)).status
        reply = self.call(step, tool, **args)
        after = self.row(DraftRef(args["draft_id"], step.actor))
        if reply["status"] in ("executed", "partially_executed", "failed", "confirmed", "cancelled"):
            assert reply["status"] == after.status, (tool, status_before, reply["status"], after.status)
        if tool == "execute_draft" and reply["status"] in RAN:
            assert status_before in ("confirmed", *RAN), f"a {status_before} draft ran"
        if not with_callback:
            return multiple()
        self.used_callbacks.append(Callback(step.actor, tool, dict(args), reply))
        return self.used_callbacks[-1]

    @rule(callback=callbacks, variant=st.sampled_from(["same", "another-draft"]))
    def replay(self, callback: Callback, variant: str) -> None:
        """The same callback id again: with the same arguments, or another draft id (a forged
        press carrying an old id) — either way the first reply, and nothing else."""
        args = dict(callback.args)
        if variant == "another-draft":
            args["draft_id"] = self.missing_id
        again = self.call(Step(callback.user, callback.tool, replay=True), callback.tool, **args)
        assert again == callback.reply
        event(f"replayed {callback.tool} -> {again['status']}")

    @rule(
        draft=drafts,
        stranger=st.sampled_from(PEOPLE),
        tool=st.sampled_from(CALLBACK_TOOLS),
        count=st.sampled_from([None, 1, 7]),
        steal=st.booleans(),
    )
    def stranger_acts(
        self, draft: DraftRef, stranger: str, tool: str, count: int | None, steal: bool
    ) -> None:
        """Someone else presses the buttons of another person's draft (possibly with a callback id
        that person already used): they must learn nothing and change nothing."""
        if stranger == draft.owner:
            stranger = "mallory"
        args: dict[str, Any] = {"draft_id": draft.id, "user_id": stranger}
        if tool == "confirm_draft" and count is not None:
            args["confirm_count"] = count
        stolen = [c for c in self.used_callbacks if c.user != stranger] if steal else []
        if stolen:
            args["callback_id"] = stolen[-1].args["callback_id"]
        step = Step(stranger, tool, draft.id, stranger=True)
        seen = self.call(step, tool, **args)
        event(f"a stranger's {tool}" + (" with a stolen callback id" if "callback_id" in args else ""))
        missing = self.call(step, tool, **{**args, "draft_id": self.missing_id, "callback_id": None})
        assert seen == missing, f"a stranger's {tool} differs from a missing draft's: {seen} vs {missing}"
        assert seen["ok"] is False and seen["draft"] is None and seen["results"] is None

    @rule(user=st.sampled_from(PEOPLE))
    def list_drafts(self, user: str) -> None:
        """Each person sees exactly their own drafts; reading them applies expiry, so none is left
        open past its TTL."""
        reply = self.call(Step(user, "list_drafts"), "list_drafts", user_id=user, include_finished=True)
        mine = {d.id: d for d in self.oracle.drafts().values() if d.owner == user}
        assert {r["id"]: r["status"] for r in reply["results"]} == {d.id: d.status for d in mine.values()}
        for d in mine.values():
            if d.expires_ts <= self.now.timestamp():
                assert d.status not in ("pending", "awaiting_bulk_confirmation", "confirmed"), d

    @rule(minutes=st.sampled_from([1, 10, 31]))
    def time_passes(self, minutes: int) -> None:
        self.now += timedelta(minutes=minutes)


DraftLifecycle.TestCase.settings = settings(
    max_examples=100,
    stateful_step_count=20,
    deadline=None,
    report_multiple_bugs=False,  # shrink the first failure found, quickly
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestDraftLifecycleKeepsEveryPromise = DraftLifecycle.TestCase
