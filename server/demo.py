"""`planner-mcp demo`: a scripted conversation on the sandbox, through a real MCP stdio client.

The server is spawned as a client would spawn it (`python -m server.cli serve`), on a fresh sandbox
database and with no Composio key, so nothing outside this machine changes. Each step prints what the
person says and what they would see; `run_demo` returns 0 only if every reply had the expected status,
so the demo doubles as an end-to-end smoke test.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

__all__ = ["run_demo"]

USER = "demo"
CHAT = "demo-chat"
_PAD = " " * 12


class _Demo:
    def __init__(self, client: Client) -> None:
        self.client = client
        self.steps = 0
        self.failures: list[str] = []
        self.section_no = 0

    def section(self, title: str) -> None:
        self.section_no += 1
        head = f"── {self.section_no}. {title} "
        print(f"\n{head}{'─' * max(3, 78 - len(head))}")

    def person(self, words: str) -> None:
        print(f"  person  › {words}")

    async def say(self, text: str, expect: str, contains: str | None = None) -> dict[str, Any]:
        """The person types `text`; the client passes their words to `plan`."""
        self.person(text)
        return await self.call("plan", expect, contains, text=text)

    async def call(self, tool: str, expect: str, contains: str | None = None, **args: Any) -> dict[str, Any]:
        args.setdefault("user_id", USER)
        if tool == "plan":  # no `now`: the server's clock, as for a person (a past date would be flagged)
            args.setdefault("conversation_id", CHAT)
        result = await self.client.call_tool(tool, args)
        texts = " ".join(str(getattr(c, "text", "")) for c in result.content)
        sc = result.structured_content
        reply: dict[str, Any] = dict(sc) if isinstance(sc, dict) else {}  # not_found/invalid carry one too
        reply = reply or {"ok": False, "status": "tool_error", "user_message": texts[:300]}
        self._show(tool, reply)
        self.steps += 1
        status = str(reply.get("status"))
        labels = [str(c.get("label")) for c in reply.get("choices") or []]
        shown = "\n".join([str(reply.get("user_message")), str(reply.get("clarifying_question")), *labels])
        if status != expect or (contains is not None and contains not in shown):
            want = expect + (f" with «{contains}»" if contains else "")
            self.failures.append(f"{tool}: expected {want}, got {status}")
            print(f"{_PAD}✗ expected {want}, got {status}")
        return reply

    def _show(self, tool: str, reply: dict[str, Any]) -> None:
        print(f"  planner ‹ {reply.get('status')}  ({tool})")
        message, question = reply.get("user_message"), reply.get("clarifying_question")
        if reply.get("status") == "dry_run":
            message = (message or "").splitlines()[0] if message else None
        if message and message != question:
            _block(message)
        if question:
            _block(f"? {question}")
        for i, choice in enumerate(reply.get("choices") or [], 1):
            _block(f"  {i}) {choice.get('label')}")
        if reply.get("status") == "dry_run":
            for req in reply.get("results") or []:
                _block(f"{int(req.get('index', 0)) + 1}. {req.get('tool_slug')}")
                for key, value in _leaves(req.get("arguments") or {}):
                    print(f"{_PAD}   {key} = {_short(value)}")
        draft = reply.get("draft")
        if isinstance(draft, dict):
            print(f"{_PAD}[draft {draft.get('id')}: {draft.get('status')}]")

    async def answer(
        self, asked: dict[str, Any], expect: str, contains: str | None, **answer: Any
    ) -> dict[str, Any]:
        """The client passes the person's answer to the open question of `asked` to `pick`."""
        plan_id = (asked.get("plan") or {}).get("plan_id", "")
        return await self.call(
            "pick", expect, contains, plan_id=plan_id, question_id=asked.get("question_id") or "", **answer
        )

    async def confirm_and_run(self, reply: dict[str, Any]) -> None:
        """The person said yes: the client records it (confirm_draft), then runs the draft."""
        await self.call("confirm_draft", "confirmed", draft_id=_draft_id(reply))
        await self.call("execute_draft", "executed", draft_id=_draft_id(reply))


def _draft_id(reply: dict[str, Any]) -> str:
    return str((reply.get("draft") or {}).get("id", ""))


def _block(text: str) -> None:
    for line in text.splitlines():
        wrapped = textwrap.wrap(line, 110, break_long_words=False, break_on_hyphens=False) or [""]
        print("\n".join(_PAD + ("  " if i else "") + part for i, part in enumerate(wrapped)))


def _leaves(value: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """A request's arguments as dotted keys and plain values, the way a person can read them."""
    if isinstance(value, dict) and value:
        return [leaf for k, v in value.items() for leaf in _leaves(v, f"{prefix}.{k}" if prefix else str(k))]
    return [(prefix, value)]


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    text = " ".join(text.split())
    return text if len(text) <= 72 else text[:71] + "…"


def _choice(reply: dict[str, Any], label_prefix: str) -> tuple[int, str]:
    for i, choice in enumerate(reply.get("choices") or [], 1):
        if str(choice.get("label", "")).startswith(label_prefix):
            return i, str(choice.get("value"))
    return 0, ""


async def _script(d: _Demo) -> None:
    d.section("Вопрос — ответ сразу · A question, answered at once")
    await d.say("Что по сделке с Ромашкой?", "answered", "Ромашка")
    await d.say("What about the Globex pilot deal?", "answered", "Negotiation")

    d.section("Смена стадии: черновик, подтверждение, выполнение")
    r = await d.say("Переведи сделку Globex pilot в стадию Won", "draft_pending", "Выиграна")
    d.person("Да, подтверждаю.")
    await d.confirm_and_run(r)

    d.section("Ambiguous name: the person picks")
    r = await d.say("Move Acme to negotiation", "needs_clarification", "Acme Corp")
    n, value = _choice(r, "Acme Corp")
    d.person(f"{n} (Acme Corp)")
    r = await d.answer(r, "draft_pending", "Negotiation", value=value)
    d.person("Yes, go ahead.")
    await d.confirm_and_run(r)

    d.section("Тайм-блок: по одному вопросу за раз")
    r = await d.say("Поставь блок", "needs_clarification", "минут")
    d.person("60")
    r = await d.answer(r, "needs_clarification", "время", value="60")
    d.person("завтра в 10:00")
    r = await d.answer(r, "draft_pending", "10:00", text="завтра в 10:00")
    d.person("Да.")
    await d.confirm_and_run(r)

    d.section("Bulk: confirmed by typing the count")
    issues = "hero banner, pricing page, logo refresh, icon set, onboarding flow, empty states, dark mode"
    r = await d.say(f"Create issues in DES for: {issues}", "draft_pending", "7 changes")
    draft_id = _draft_id(r)
    d.person("Yes.")
    r = await d.call("confirm_draft", "needs_bulk_confirmation", "number of changes: 7", draft_id=draft_id)
    d.person("7")
    await d.call("confirm_draft", "confirmed", None, draft_id=draft_id, confirm_count=7)
    await d.call("execute_draft", "executed", None, draft_id=draft_id)

    d.section("Удаление: «да» в следующем сообщении подтверждает, клиент выполняет")
    r = await d.say("Удали ENG-103", "draft_pending", "ENG-103")
    await d.say("да", "confirmed")
    await d.call("execute_draft", "executed", "ENG-103", draft_id=_draft_id(r))

    d.section("Dry run: the exact requests, nothing changed")
    r = await d.say(
        "Create an issue in ENG: fix the login timeout by Friday", "draft_pending", "login timeout"
    )
    d.person("Show me exactly what you would send, without doing it.")
    await d.call("execute_draft", "dry_run", "nothing changed", draft_id=_draft_id(r), dry_run=True)
    await d.say("no", "cancelled")

    d.section("The same question again: the stage has changed")
    await d.say("What about the Globex pilot deal?", "answered", "Won")


async def _run(db: Path, log_path: Path) -> int:
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPOSIO_")}
    env.pop("PLANNER_DRY_RUN", None)
    env.update(PLANNER_DB=str(db), APP_TIMEZONE="Europe/Moscow", PYTHONIOENCODING="utf-8")
    params = StdioServerParameters(command=sys.executable, args=["-m", "server.cli", "serve"], env=env)
    print("planner-mcp demo: a conversation with the server over stdio, on the sandbox")
    with open(log_path, "w", encoding="utf-8") as log:
        try:
            async with Client(stdio_client(params, errlog=log), read_timeout_seconds=60) as client:
                demo = _Demo(client)
                await _script(demo)
        except Exception as exc:  # the server died or the protocol broke: say so, show its log
            print(f"\ndemo: the server stopped answering ({type(exc).__name__}: {str(exc)[:200]})")
            log.flush()
            print(textwrap.indent(log_path.read_text(encoding="utf-8", errors="replace")[-2000:], "  | "))
            return 1
    print()
    if demo.failures:
        print(f"demo: {len(demo.failures)} of {demo.steps} replies were not as expected:")
        print("\n".join(f"  - {f}" for f in demo.failures))
        return 1
    print(f"demo: all {demo.steps} replies were as expected")
    return 0


def run_demo(keep_db: bool = False) -> int:
    """Run the scripted conversation; 0 if every step got the status it expected.

    With `keep_db`, the database is kept (PLANNER_DB when set, else a new file whose path is printed).
    Replaying the script on a database it already changed gives other answers ("already done").
    """
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if callable(reconfigure):
        reconfigure(errors="replace")
    tmp = Path(tempfile.mkdtemp(prefix="planner-demo-"))
    given = os.environ.get("PLANNER_DB")
    db = Path(given).expanduser() if keep_db and given else tmp / "planner.db"
    try:
        return asyncio.run(_run(db, tmp / "server.log"))
    finally:
        if keep_db:
            print(f"database kept: {db} (server log: {tmp / 'server.log'})")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
