"""The bot's parts on their own: callback keys, rendering, settings, speech replies, the planner session,
flood control, per-chat ordering and log redaction. No processes, no network."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import anyio
import pytest
from mcp.types import CallToolResult, TextContent
from telegram import Chat, Message, Update, User
from telegram.error import RetryAfter

from bot.app import PerChatProcessor
from bot.config import BotConfig, ConfigError
from bot.handlers import find_zone, without_mention
from bot.i18n import lang_of
from bot.keyboards import MAX_CALLBACK_BYTES, Action, Button, CallbackKeys, markup
from bot.logs import RedactSecrets
from bot.planner_client import PlannerError, PlannerGateway, PlannerUnavailable, ToolCaller
from bot.ratelimit import RetryAfterLimiter, UserRateLimit
from bot.render import MAX_TEXT, format_times, reply_screen
from bot.speech import SpeechError, parse_transcript

pytestmark = pytest.mark.anyio
MSK = ZoneInfo("Europe/Moscow")


# ---- callback keys -------------------------------------------------------------------------------


def test_a_button_carries_a_short_key_never_the_payload() -> None:
    keys = CallbackKeys()
    value = "dce59e09-a33e-5f53-a154-8a1e072e2620"
    long_label = "Очень длинное название сделки с кириллицей и ещё немного текста" * 3
    data = keys.put(
        Action("pick", plan_id="p_x", question_id="c0.deal", value=value, label=long_label),
        user_id=1,
        chat_id=1,
    )
    assert len(data.encode()) <= MAX_CALLBACK_BYTES and len(data.encode()) == 14
    assert value not in data
    pressed = keys.get(data)
    assert pressed is not None and pressed.action.value == value and pressed.user_id == 1


def test_forged_unknown_or_mismatched_keys_resolve_to_nothing() -> None:
    keys = CallbackKeys()
    data = keys.put(Action("cancel", draft_id="d1"), user_id=1, chat_id=1)
    token = data.split(":", 1)[1]
    assert keys.get(f"c:{token}") is None  # a cancel key replayed as a confirm
    assert keys.get("c:AAAAAAAAAAAA") is None
    assert keys.get(None) is None and keys.get("") is None


def test_keys_expire_and_the_store_stays_bounded() -> None:
    now = [0.0]
    keys = CallbackKeys(capacity=3, ttl_s=10, clock=lambda: now[0])
    first = keys.put(Action("cancel", draft_id="d1"), user_id=1, chat_id=1)
    for i in range(3):
        keys.put(Action("cancel", draft_id=f"d{i + 2}"), user_id=1, chat_id=1)
    assert len(keys) == 3 and keys.get(first) is None  # the oldest was evicted
    recent = keys.put(Action("cancel", draft_id="d9"), user_id=1, chat_id=1)
    now[0] = 11
    assert keys.get(recent) is None


def test_keys_in_a_state_file_outlive_the_process_keep_their_owner_and_still_expire(tmp_path: Path) -> None:
    now = [1000.0]
    path = tmp_path / "state" / "telegram.db"
    before = CallbackKeys(ttl_s=10, clock=lambda: now[0], path=path)
    action = Action("pick", plan_id="p1", question_id="q1", value="Иван Петров", label="Иван Петров")
    data = before.put(action, user_id=42, chat_id=-7)
    before.close()

    after = CallbackKeys(ttl_s=10, clock=lambda: now[0], path=path)  # a new process, the same file
    pressed = after.get(data)
    assert pressed is not None and pressed.action == action and (pressed.user_id, pressed.chat_id) == (42, -7)
    assert after.get("c:" + data.split(":", 1)[1]) is None  # the verb still has to match
    assert after.get("p:" + "A" * 500) is None
    now[0] += 11
    assert after.get(data) is None
    after.close()


def test_from_env_keeps_button_keys_in_the_data_folder_unless_told_memory(tmp_path: Path) -> None:
    env = {"TELEGRAM_BOT_TOKEN": "1:x", "XDG_DATA_HOME": str(tmp_path), "TELEGRAM_ALLOWED_USERS": "*"}
    assert BotConfig.from_env(env).state_db == str(tmp_path / "planner-mcp" / "telegram.db")
    assert BotConfig.from_env({**env, "TELEGRAM_STATE_DB": ":memory:"}).state_db is None


def test_a_keyboard_binds_every_button_to_its_person() -> None:
    keys = CallbackKeys()
    rows = [[Button("✅", Action("confirm", draft_id="d")), Button("❌", Action("cancel", draft_id="d"))]]
    kb = markup(rows, keys, user_id=42, chat_id=-7)
    assert kb is not None
    for button in kb.inline_keyboard[0]:
        pressed = keys.get(str(button.callback_data))
        assert pressed is not None and (pressed.user_id, pressed.chat_id) == (42, -7)
    assert markup([], keys, user_id=1, chat_id=1) is None


# ---- rendering -----------------------------------------------------------------------------------


def draft_reply(**overrides: Any) -> dict[str, Any]:
    reply: dict[str, Any] = {
        "ok": True,
        "status": "draft_pending",
        "plan": {
            "plan_id": "p_1",
            "risks": [{"kind": "destructive", "details": "ENG-102 будет архивирована"}],
            "needs_clarification": [],
        },
        "draft": {
            "id": "d_1",
            "status": "pending",
            "summary": "Архивировать ENG-102",
            "expires_at": "2026-11-26T09:30:00+00:00",
            "bulk_count": None,
            "actions": [
                {"index": 0, "preview": "Linear: архивировать <b>ENG-102</b> в 2026-11-26T07:00:00+00:00"}
            ],
        },
    }
    reply.update(overrides)
    return reply


def test_a_draft_shows_previews_risks_in_plain_words_local_times_and_two_buttons() -> None:
    screen = reply_screen(draft_reply(), MSK, "ru")
    assert "⚠️ <b>Внимание:</b> ENG-102 будет архивирована" in screen.text  # an archive is not «необратимо»
    assert "&lt;b&gt;ENG-102&lt;/b&gt;" in screen.text, "planner text must be escaped, not markup"
    assert "чт, 26 нояб." in screen.text and ", 10:00" in screen.text  # 07:00 UTC shown in Moscow
    assert "Черновик действует до 12:30." in screen.text
    assert [b.label for b in screen.buttons[0]] == ["✅ Подтвердить", "❌ Отмена"]
    assert [b.action.kind for b in screen.buttons[0]] == ["confirm", "cancel"]


def test_a_bulk_confirmation_button_carries_the_count() -> None:
    reply = draft_reply(status="needs_bulk_confirmation")
    reply["draft"]["bulk_count"] = 7
    screen = reply_screen(reply, MSK, "en")
    assert screen.buttons[0][0].label == "✅ Confirm 7" and screen.buttons[0][0].action.count == 7
    assert "Confirm with the count: 7" in screen.text


def test_results_show_each_action_with_its_link_or_error() -> None:
    reply = draft_reply(status="partially_executed")
    reply["draft"]["actions"] = [
        {"index": 0, "preview": "A", "status": "succeeded", "link": "https://linear.app/x/issue/ENG-1"},
        {"index": 1, "preview": "B", "status": "failed", "error": "team not found"},
        {"index": 2, "preview": "C", "status": "succeeded", "link": "javascript:alert(1)"},
    ]
    screen = reply_screen(reply, MSK, "ru")
    assert screen.text.startswith("⚠️ <b>Выполнено частично</b>")
    assert '✅ 1. A <a href="https://linear.app/x/issue/ENG-1">открыть</a>' in screen.text
    assert "❌ 2. B" in screen.text and "team not found" in screen.text
    assert "javascript:" not in screen.text and not screen.buttons


def test_a_huge_draft_still_fits_one_telegram_message() -> None:
    reply = draft_reply()
    reply["draft"]["actions"] = [{"index": i, "preview": "x" * 300} for i in range(100)]
    screen = reply_screen(reply, MSK, "ru")
    assert len(screen.text) <= MAX_TEXT + 50 and "… (+" in screen.text


def test_a_question_with_short_choices_puts_them_in_one_row() -> None:
    choices = [{"label": str(n), "value": str(n)} for n in (15, 30, 45, 60, 90)]
    reply = {
        "ok": False,
        "status": "needs_clarification",
        "clarifying_question": "How many minutes?",
        "user_message": "How many minutes?",
        "question_id": "c0.duration",
        "choices": choices,
        "plan": {
            "plan_id": "p_2",
            "risks": [{"kind": "missing_required", "details": "How many minutes?"}],
            "needs_clarification": [{"id": "c0.duration", "free_text_allowed": True}],
        },
    }
    screen = reply_screen(reply, MSK, "en")
    assert len(screen.buttons) == 1 and len(screen.buttons[0]) == 5
    assert screen.text.count("How many minutes?") == 1, "the question is asked once"
    assert screen.question == {"plan_id": "p_2", "question_id": "c0.duration", "free_text_allowed": True}
    pick = screen.buttons[0][2].action
    assert (pick.kind, pick.value, pick.prompt) == ("pick", "45", "How many minutes?")


def test_times_are_shown_in_the_configured_zone_with_weekday_and_a_past_years_year() -> None:
    tokyo = ZoneInfo("Asia/Tokyo")
    assert format_times("at 2025-02-26T10:00:00+03:00", tokyo, "en") == "at Wed, 26 Feb 2025, 16:00"
    assert format_times("в 2025-02-26T10:00:00+03:00", MSK, "ru") == "в ср, 26 февр. 2025, 10:00"
    assert format_times("no time here: 2026-02-26", MSK, "ru") == "no time here: 2026-02-26"


def test_language_comes_from_the_telegram_language_code() -> None:
    assert [lang_of(c) for c in ("ru", "ru-RU", "uk", "en", "en-GB", "de", None)] == [
        "ru", "ru", "ru", "en", "en", "en", "en",
    ]  # fmt: skip


# ---- speech service replies ------------------------------------------------------------------------


def test_the_speech_reply_is_read_in_the_flat_and_the_envelope_shape() -> None:
    flat = parse_transcript({"transcript": " создай задачу ", "confidence": 0.9})
    assert (flat.text, flat.confidence, flat.rejected) == ("создай задачу", 0.9, False)
    envelope = parse_transcript({"text": {"raw": "поставь блок"}, "command": {"confidence": 0.55}})
    assert (envelope.text, envelope.confidence) == ("поставь блок", 0.55)
    plain_text = parse_transcript({"text": "hello", "confidence": 7})
    assert plain_text.confidence == 1.0
    assert parse_transcript({"command": {"rejected": True}}).rejected
    with pytest.raises(SpeechError):
        parse_transcript({"confidence": 0.9})
    with pytest.raises(SpeechError):
        parse_transcript(["not", "an", "object"])


# ---- settings --------------------------------------------------------------------------------------


def test_settings_come_from_the_environment_and_keep_secrets_out_of_repr() -> None:
    env = {
        "TELEGRAM_BOT_TOKEN": "123:secret-bot",
        "PLANNER_URL": "http://127.0.0.1:8765/mcp",
        "PLANNER_TOKEN": "secret-planner",
        "PLANNER_DB": "/tmp/x.db",
        "COMPOSIO_API_KEY": "ck",
        "VOICE_COMMAND_URL": "http://127.0.0.1:9000/voice-command",
        "TELEGRAM_WEBHOOK_LISTEN": "0.0.0.0:8080",
        "APP_TIMEZONE": "Asia/Tokyo",
        "TELEGRAM_ALLOWED_USERS": "42, @Anna_K -1001234567890",
    }
    config = BotConfig.from_env(env)
    assert config.allowed.admits(42, None, 42) and config.allowed.admits(7, "anna_k", 7)
    assert config.allowed.admits(7, None, -1001234567890) and not config.allowed.admits(7, "boris", 7)
    assert "secret" not in repr(config)
    assert (config.webhook_listen, config.webhook_port, config.timezone) == ("0.0.0.0", 8080, "Asia/Tokyo")
    # a spawned planner gets the planner's settings, never the bot's secrets
    assert dict(config.planner_env) == {
        "PLANNER_DB": "/tmp/x.db",
        "COMPOSIO_API_KEY": "ck",
        "APP_TIMEZONE": "Asia/Tokyo",
    }
    assert {"123:secret-bot", "secret-planner"} <= set(config.secrets())


@pytest.mark.parametrize(
    ("env", "names"),
    [
        ({}, "TELEGRAM_BOT_TOKEN"),
        ({"TELEGRAM_BOT_TOKEN": "1:x", "PLANNER_URL": "http://h/mcp"}, "PLANNER_TOKEN"),
        ({"TELEGRAM_BOT_TOKEN": "1:x", "APP_TIMEZONE": "Mars/Olympus"}, "APP_TIMEZONE"),
        ({"TELEGRAM_BOT_TOKEN": "1:x", "TELEGRAM_WEBHOOK_LISTEN": "8443"}, "TELEGRAM_WEBHOOK_LISTEN"),
        ({"TELEGRAM_BOT_TOKEN": "1:x", "VOICE_CONFIRM_BELOW": "high"}, "VOICE_CONFIRM_BELOW"),
        ({"TELEGRAM_BOT_TOKEN": "1:x"}, "TELEGRAM_ALLOWED_USERS"),
        ({"TELEGRAM_BOT_TOKEN": "1:x", "TELEGRAM_ALLOWED_USERS": "anna k!"}, "TELEGRAM_ALLOWED_USERS"),
        (
            {"TELEGRAM_BOT_TOKEN": "1:x", "TELEGRAM_ALLOWED_USERS": "*", "TELEGRAM_RATE_LIMIT": "x"},
            "TELEGRAM_RATE_LIMIT",
        ),
    ],
)
def test_a_missing_or_malformed_setting_is_named(env: dict[str, str], names: str) -> None:
    with pytest.raises(ConfigError, match=names):
        BotConfig.from_env(env)


def test_logs_never_show_a_secret_even_in_a_traceback() -> None:
    secret = "123456:AAE-very-secret"
    redact = RedactSecrets([secret])
    try:
        raise RuntimeError(f"POST https://api.telegram.org/bot{secret}/getMe failed")
    except RuntimeError:
        record = logging.LogRecord(
            "x", logging.ERROR, __file__, 1, "url %s", (f"/bot{secret}/x",), sys.exc_info()
        )
    assert redact.filter(record)
    formatted = logging.Formatter().format(record)
    assert secret not in formatted and "/bot***/x" in formatted and "/bot***/getMe" in formatted


# ---- the planner session ---------------------------------------------------------------------------


class FakeSession:
    def __init__(self, script: list[Any]) -> None:
        self.script = script
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        read_timeout_seconds: float | None = None,
        progress_callback: Any = None,
    ) -> CallToolResult:
        self.calls.append((name, dict(arguments or {})))
        step = self.script.pop(0)
        if isinstance(step, BaseException):
            raise step
        assert isinstance(step, CallToolResult)
        return step


def ok(reply: dict[str, Any]) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text="")], structured_content=reply, is_error=False
    )


async def test_a_broken_session_is_reopened_and_the_call_retried_once() -> None:
    sessions = [FakeSession([ConnectionError("reset")]), FakeSession([ok({"status": "answered"})])]
    opened: list[FakeSession] = []

    @contextlib.asynccontextmanager
    async def connect() -> AsyncIterator[ToolCaller]:
        session = sessions.pop(0)
        opened.append(session)
        yield session

    gateway = PlannerGateway(connect, connect_timeout_s=5)
    await gateway.start()
    try:
        reply = await gateway.call("plan", {"text": "x", "callback_id": "tg:message:1:2", "language": None})
    finally:
        await gateway.stop()
    assert reply == {"status": "answered"}
    assert gateway.connections == 2
    assert [s.calls for s in opened] == [[("plan", {"text": "x", "callback_id": "tg:message:1:2"})]] * 2


async def test_a_planner_that_stays_down_is_reported_and_stop_is_prompt() -> None:
    @contextlib.asynccontextmanager
    async def refuse() -> AsyncIterator[ToolCaller]:
        raise ConnectionRefusedError("nobody listens")
        yield  # pragma: no cover

    gateway = PlannerGateway(refuse, connect_timeout_s=0.3, max_backoff_s=5)
    await gateway.start()
    with pytest.raises(PlannerUnavailable):
        await gateway.call("list_drafts", {})
    with anyio.fail_after(3):
        await gateway.stop()


async def test_a_refused_call_is_an_error_not_a_retry() -> None:
    session = FakeSession(
        [CallToolResult(content=[TextContent(type="text", text="bad draft_id")], is_error=True)]
    )

    @contextlib.asynccontextmanager
    async def connect() -> AsyncIterator[ToolCaller]:
        yield session

    gateway = PlannerGateway(connect)
    await gateway.start()
    try:
        with pytest.raises(PlannerError):
            await gateway.call("confirm_draft", {"draft_id": ["x"]})
    finally:
        await gateway.stop()
    assert len(session.calls) == 1


async def test_a_draft_that_is_not_found_is_a_reply_the_person_reads_not_an_error() -> None:
    gone = {"ok": False, "status": "not_found", "user_message": "Черновик не найден. / Draft not found."}
    session = FakeSession(
        [
            CallToolResult(
                content=[TextContent(type="text", text="[not_found]")], structured_content=gone, is_error=True
            )
        ]
    )

    @contextlib.asynccontextmanager
    async def connect() -> AsyncIterator[ToolCaller]:
        yield session

    gateway = PlannerGateway(connect)
    await gateway.start()
    try:
        reply = await gateway.call("confirm_draft", {"draft_id": "d_gone"})
    finally:
        await gateway.stop()
    assert reply == gone
    assert reply_screen(reply, MSK, "ru").text == "⚠️ Черновик не найден. / Draft not found."


def test_a_date_in_the_past_is_named_as_such() -> None:
    risk = {"kind": "past_date", "details": "Шаг 1: дата уже прошла — вс, 3 мар. 2024, 10:00."}
    screen = reply_screen(draft_reply(plan={"plan_id": "p_1", "risks": [risk]}), MSK, "ru")
    assert "⚠️ <b>Дата в прошлом:</b> Шаг 1: дата уже прошла" in screen.text


# ---- Telegram flood control and ordering -----------------------------------------------------------


async def test_flood_control_waits_retry_after_then_gives_up() -> None:
    limiter = RetryAfterLimiter(max_retries=2, max_wait_s=5)
    attempts = []

    async def flaky() -> bool:
        attempts.append(1)
        if len(attempts) < 3:
            raise RetryAfter(0)
        return True

    assert await limiter.process_request(flaky, (), {}, "sendMessage", {}, None) is True
    assert limiter.waited == [0.0, 0.0]

    async def banned() -> bool:
        raise RetryAfter(3600)

    with pytest.raises(RetryAfter):
        await limiter.process_request(banned, (), {}, "sendMessage", {}, None)


def _message_update(update_id: int, chat_id: int) -> Update:
    chat = Chat(chat_id, "private")
    message = Message(update_id, datetime.now(UTC), chat, from_user=User(chat_id, "x", False))
    return Update(update_id, message=message)


async def test_messages_of_one_chat_are_handled_in_order_and_other_chats_do_not_wait() -> None:
    processor = PerChatProcessor()
    order: list[str] = []
    release = asyncio.Event()

    async def slow(tag: str) -> None:
        order.append(f"{tag} start")
        await release.wait()
        order.append(f"{tag} end")

    async def quick(tag: str) -> None:
        order.append(tag)

    first = asyncio.create_task(processor.process_update(_message_update(1, 5), slow("chat5-first")))
    second = asyncio.create_task(processor.process_update(_message_update(2, 5), quick("chat5-second")))
    other = asyncio.create_task(processor.process_update(_message_update(3, 6), quick("chat6")))
    await other
    assert order == ["chat5-first start", "chat6"]
    release.set()
    await asyncio.gather(first, second)
    assert order == ["chat5-first start", "chat6", "chat5-first end", "chat5-second"]


# ---- a team's bot ----------------------------------------------------------------------------------


def test_the_per_person_rate_refuses_the_excess_tells_once_and_refills_over_the_window() -> None:
    now = [0.0]
    limit = UserRateLimit(3, 60.0, clock=lambda: now[0])
    assert [limit.take(1) for _ in range(3)] == [(0.0, False)] * 3
    assert limit.take(1) == (20.0, True)  # one request comes back every 20 s; say so once
    assert limit.take(1) == (20.0, False)
    assert limit.take(2) == (0.0, False)  # another person has their own bucket
    now[0] = 20.0
    assert limit.take(1) == (0.0, False)
    assert limit.take(1)[1] is True  # a new throttled stretch is told again


def test_a_group_message_loses_the_bots_address_but_keeps_its_lines() -> None:
    assert without_mention("@Planner_Bot, переведи Acme в Won", "planner_bot") == "переведи Acme в Won"
    assert without_mention("задачи:\nодин\nдва @planner_bot", "planner_bot") == "задачи:\nодин\nдва"
    assert without_mention("напиши на anna@planner_bot.ru", "planner_bot") == "напиши на anna@planner_bot.ru"


def test_a_time_zone_is_found_in_any_letter_case_and_nonsense_is_not() -> None:
    assert find_zone("europe/BERLIN") == "Europe/Berlin"
    assert find_zone("Mars/Olympus") is None
