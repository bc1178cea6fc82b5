"""The bot process: a python-telegram-bot Application, the planner session, polling or a webhook.

`planner-mcp telegram` calls `main()`. Everything is started and stopped in one asyncio loop by
`TelegramBot`, so tests drive exactly what production runs (pointed at a fake Bot API).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import signal
import sys
import time
from collections.abc import Awaitable, Iterator
from typing import Any
from urllib.parse import urlparse

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from telegram import BotCommand, Update
from telegram.error import InvalidToken, TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    BaseUpdateProcessor,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    Defaults,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.access import AccessGate
from bot.callbacks import PressHandlers
from bot.config import BotConfig, ConfigError
from bot.core import Core
from bot.handlers import MessageHandlers
from bot.i18n import lang_of, tr
from bot.keyboards import CallbackKeys
from bot.logs import configure_logging
from bot.planner_client import PlannerGateway, http_connector, stdio_connector
from bot.prefs import UserPrefs
from bot.ratelimit import RetryAfterLimiter, UserRateLimit
from bot.speech import SpeechToText

__all__ = ["ALLOWED_UPDATES", "COMMANDS", "PerChatProcessor", "TelegramBot", "main"]

log = logging.getLogger("bot")

ALLOWED_UPDATES = ["message", "callback_query"]
COMMANDS = ("start", "help", "drafts", "cancel", "tz")
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_WEBHOOK_BODY = 1 << 20  # an update is a few KB; refuse anything absurd before parsing it


class PerChatProcessor(BaseUpdateProcessor):
    """Messages of one chat are handled in order (a typed answer must follow its question); chats run
    concurrently; button presses skip the queue so their callback is answered at once (their own
    per-draft guard orders them)."""

    def __init__(self, max_concurrent_updates: int = 256) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        chat = update.effective_chat if isinstance(update, Update) else None
        if chat is None or (isinstance(update, Update) and update.callback_query is not None):
            await coroutine
            return
        lock, users = self._locks.get(chat.id) or (asyncio.Lock(), 0)
        self._locks[chat.id] = (lock, users + 1)
        try:
            async with lock:
                await coroutine
        finally:
            lock, users = self._locks[chat.id]
            if users <= 1:
                del self._locks[chat.id]  # no chat keeps a lock once it is quiet
            else:
                self._locks[chat.id] = (lock, users - 1)

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass


AnyApplication = Application[Any, Any, Any, Any, Any, Any]


def build_application(config: BotConfig, core: Core, limiter: RetryAfterLimiter) -> AnyApplication:
    builder: Any = (
        ApplicationBuilder()
        .token(config.telegram_token)
        .base_url(f"{config.api_url}/bot")
        .base_file_url(f"{config.api_url}/file/bot")
        .concurrent_updates(PerChatProcessor())
        .rate_limiter(limiter)
        .defaults(Defaults(tzinfo=config.zone))
        .get_updates_read_timeout(config.poll_timeout_s + 10)  # the long poll must outlive its own timeout
    )
    if config.webhook_url:
        builder = builder.updater(None)
    app: AnyApplication = builder.build()
    messages = MessageHandlers(core)
    presses = PressHandlers(core, messages)
    new_messages = filters.UpdateType.MESSAGE  # an edited message is not a new request
    # Group -1 runs first: strangers and people over their rate stop here, before any handler
    gate = AccessGate(config.allowed, UserRateLimit(config.rate_per_window, config.rate_window_s))
    app.add_handler(TypeHandler(Update, gate.check), group=-1)
    app.add_handler(CommandHandler("start", messages.start, filters=new_messages))
    app.add_handler(CommandHandler("help", messages.help, filters=new_messages))
    app.add_handler(CommandHandler("cancel", messages.forget, filters=new_messages))
    app.add_handler(CommandHandler("drafts", messages.drafts, filters=new_messages))
    app.add_handler(CommandHandler("tz", messages.tz, filters=new_messages))
    app.add_handler(MessageHandler(new_messages & (filters.VOICE | filters.AUDIO), messages.voice))
    app.add_handler(MessageHandler(new_messages & filters.TEXT & ~filters.COMMAND, messages.text))
    app.add_handler(CallbackQueryHandler(presses.press))
    app.add_error_handler(_on_error)
    return app


async def _on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Last resort for what the handlers did not expect: log it, and tell the person nothing happened."""
    update_id = update.update_id if isinstance(update, Update) else None
    log.error("update %s failed", update_id, exc_info=context.error)
    chat = update.effective_chat if isinstance(update, Update) else None
    user = update.effective_user if isinstance(update, Update) else None
    if chat is not None:
        with contextlib.suppress(TelegramError):
            await context.bot.send_message(
                chat.id, tr(lang_of(user.language_code if user else None), "error")
            )


def webhook_app(app: AnyApplication, secret: str, path: str) -> Starlette:
    """Telegram POSTs updates here with the secret it was given in setWebhook; anything else is refused.
    The update is queued and acknowledged at once: a slow answer would make Telegram re-send it."""

    async def receive(request: Request) -> Response:
        given = request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), secret.encode()):
            return Response(status_code=401)
        if int(request.headers.get("content-length") or 0) > MAX_WEBHOOK_BODY:
            return Response(status_code=413)
        try:
            data = await request.json()
            update = Update.de_json(data, app.bot) if isinstance(data, dict) else None
        except (ValueError, TypeError, KeyError):
            update = None
        if update is None:
            return Response(status_code=400)
        await app.update_queue.put(update)
        return Response(status_code=200)

    async def health(_: Request) -> Response:
        return PlainTextResponse("ok")

    return Starlette(routes=[Route(path, receive, methods=["POST"]), Route("/healthz", health)])


class _WebServer(uvicorn.Server):
    """uvicorn without its own signal handling: the bot's loop owns SIGINT/SIGTERM and stops it."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class TelegramBot:
    """Everything the bot runs, started and stopped in the caller's event loop."""

    def __init__(self, config: BotConfig) -> None:
        self.config = config
        connector = (
            http_connector(
                config.planner_url,
                config.planner_token or "",
                config.timezone,
                read_timeout_s=config.call_timeout_s,
            )
            if config.planner_url
            else stdio_connector(config.stdio_command, config.planner_env)
        )
        self.gateway = PlannerGateway(
            connector, call_timeout_s=config.call_timeout_s, concurrency=config.planner_concurrency
        )
        self.speech = (
            SpeechToText(config.speech_url, token=config.speech_token) if config.speech_url else None
        )
        self.core = Core(
            config,
            self.gateway,
            self.speech,
            timezone_in_args=not config.planner_url,
            keys=CallbackKeys(path=config.state_db),
            prefs=UserPrefs(config.state_db),
        )
        self.limiter = RetryAfterLimiter(max_wait_s=config.max_retry_after_s)
        self.app = build_application(config, self.core, self.limiter)
        self._web: _WebServer | None = None
        self._web_task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Raises:
        telegram.error.InvalidToken: Telegram does not know the bot token."""
        await self.gateway.start()
        await self.app.initialize()  # getMe: fails fast on a wrong token
        await self.app.start()
        await self._set_commands()
        if self.config.webhook_url:
            await self._start_webhook(self.config.webhook_url)
        else:
            assert self.app.updater is not None
            await self.app.updater.start_polling(
                poll_interval=0.0,
                timeout=int(self.config.poll_timeout_s),
                allowed_updates=ALLOWED_UPDATES,
                drop_pending_updates=False,  # what people sent while the bot was down still counts
            )

    async def _set_commands(self) -> None:
        """The command menu, in Russian for Russian-speaking clients and English for the rest."""
        for lang, code in (("en", None), ("ru", "ru")):
            commands = [BotCommand(name, tr(lang, f"cmd_{name}")) for name in COMMANDS]  # type: ignore[arg-type]
            try:
                await self.app.bot.set_my_commands(commands, language_code=code)
            except TelegramError as exc:  # a menu is a convenience: the commands work without it
                log.warning("setMyCommands failed: %s", type(exc).__name__)

    async def _start_webhook(self, url: str) -> None:
        cfg = self.config
        await self.app.bot.set_webhook(
            url, secret_token=cfg.webhook_secret, allowed_updates=ALLOWED_UPDATES, drop_pending_updates=False
        )
        path = urlparse(url).path or "/"
        server = _WebServer(
            uvicorn.Config(
                webhook_app(self.app, cfg.webhook_secret, path),
                host=cfg.webhook_listen,
                port=cfg.webhook_port,
                log_level="warning",
                lifespan="off",
            )
        )
        self._web, self._web_task = server, asyncio.create_task(server.serve())
        deadline = time.monotonic() + 10
        while not server.started:  # short polling with a deadline: uvicorn exposes no "started" event
            if self._web_task.done() or time.monotonic() > deadline:
                raise RuntimeError(f"webhook server did not start on {cfg.webhook_listen}:{cfg.webhook_port}")
            await asyncio.sleep(0.02)

    async def stop(self) -> None:
        if self._web is not None and self._web_task is not None:
            self._web.should_exit = True
            await self._web_task
            self._web = self._web_task = None
        if self.app.updater is not None and self.app.updater.running:
            await self.app.updater.stop()
        if self.app.running:
            await self.app.stop()
        await self.app.shutdown()
        await self.gateway.stop()
        if self.speech is not None:
            await self.speech.aclose()
        self.core.keys.close()
        self.core.prefs.close()


async def serve(config: BotConfig, stop: asyncio.Event) -> int:
    bot = TelegramBot(config)
    try:
        await bot.start()
    except InvalidToken:
        print("planner-mcp telegram: Telegram rejected TELEGRAM_BOT_TOKEN", file=sys.stderr)
        await bot.stop()
        return 1
    except (TelegramError, OSError, RuntimeError) as exc:
        print(f"planner-mcp telegram: could not start ({type(exc).__name__})", file=sys.stderr)
        await bot.stop()
        return 1
    mode = "webhook" if config.webhook_url else "long polling"
    planner = "over HTTP" if config.planner_url else "over stdio (spawned)"
    print(f"planner-mcp telegram: @{bot.app.bot.username} is up ({mode}; planner {planner})", file=sys.stderr)
    try:
        await stop.wait()
    finally:
        await bot.stop()
    return 0


def main() -> int:
    try:
        config = BotConfig.from_env()
    except ConfigError as exc:
        print(f"planner-mcp telegram: {exc}", file=sys.stderr)
        return 2
    configure_logging(config.secrets())

    async def run() -> int:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):  # Windows: Ctrl+C still raises
                loop.add_signal_handler(sig, stop.set)
        return await serve(config, stop)

    return asyncio.run(run())
