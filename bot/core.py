"""What the handlers share: the planner call with the person's identity, and showing screens in a chat."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol
from zoneinfo import ZoneInfo

from telegram import Bot, LinkPreviewOptions, Message, ReplyParameters
from telegram.constants import ChatAction, ParseMode
from telegram.error import BadRequest, TelegramError

from bot.config import BotConfig
from bot.keyboards import CallbackKeys, markup
from bot.prefs import UserPrefs
from bot.render import Screen
from bot.speech import Transcript
from bot.state import ChatKey, ChatMemory, Once, OpenQuestion, Seen

if TYPE_CHECKING:  # the MCP SDK stays in planner_client
    from bot.planner_client import ProgressFn

__all__ = ["Core", "PlannerLike", "SpeechLike", "user_of"]

log = logging.getLogger("bot")

_NO_PREVIEW = LinkPreviewOptions(is_disabled=True)
TYPING_EVERY_S = 4.0  # Telegram shows "typing…" for at most 5 s per chat action


class PlannerLike(Protocol):
    async def call(
        self, tool: str, arguments: dict[str, Any], *, progress: ProgressFn | None = None
    ) -> dict[str, Any]: ...


class SpeechLike(Protocol):
    async def transcribe(
        self, audio: bytes, *, filename: str, mime_type: str, language: str, timezone: str
    ) -> Transcript: ...


def user_of(telegram_user_id: int) -> str:
    """The planner's user id for a Telegram user (DESIGN §10). The planner namespaces it again by the
    bot's token (a delegating principal), so another principal's "telegram:42" is a different person."""
    return f"telegram:{telegram_user_id}"


def _not_modified(exc: BadRequest) -> bool:
    # A double tap or a replayed reply edits a message to what it already says: that is success.
    return "not modified" in str(exc).lower()


@dataclass
class Core:
    config: BotConfig
    planner: PlannerLike
    speech: SpeechLike | None = None
    timezone_in_args: bool = False  # stdio has no headers, so the zone travels as an argument
    keys: CallbackKeys = field(default_factory=CallbackKeys)
    chats: ChatMemory = field(default_factory=ChatMemory)
    seen: Seen = field(default_factory=Seen)
    once: Once = field(default_factory=Once)
    prefs: UserPrefs = field(default_factory=UserPrefs)

    def zone_of(self, telegram_user_id: int) -> ZoneInfo:
        """The person's own zone (/tz) or the bot's default, for times in their replies."""
        return ZoneInfo(self.prefs.timezone(telegram_user_id) or self.config.timezone)

    # ---- the planner --------------------------------------------------------------------------
    async def call(
        self, tool: str, telegram_user_id: int, *, progress: ProgressFn | None = None, **arguments: Any
    ) -> dict[str, Any]:
        args = {"user_id": user_of(telegram_user_id), **arguments}
        own = self.prefs.timezone(telegram_user_id)
        if tool == "plan" and (own or self.timezone_in_args):
            # the person's /tz beats the X-Timezone header the whole bot sends
            args.setdefault("timezone", own or self.config.timezone)
        return await self.planner.call(tool, args, progress=progress)

    # ---- showing things -----------------------------------------------------------------------
    def _remember(self, key: ChatKey, message_id: int, screen: Screen, *, track_question: bool) -> None:
        if screen.buttons:
            self.chats.set_keyboard(key, message_id)
        else:
            self.chats.drop_keyboard(key, message_id)
        if track_question:
            q = screen.question
            self.chats.set_question(
                key,
                OpenQuestion(str(q["plan_id"]), str(q["question_id"]), bool(q["free_text_allowed"]))
                if q
                else None,
            )

    async def send(
        self,
        bot: Bot,
        key: ChatKey,
        screen: Screen,
        *,
        reply_to: int | None = None,
        track_question: bool = True,
    ) -> Message:
        chat_id, user_id = key
        sent = await bot.send_message(
            chat_id,
            screen.text,
            parse_mode=ParseMode.HTML,
            link_preview_options=_NO_PREVIEW,
            reply_markup=markup(screen.buttons, self.keys, user_id=user_id, chat_id=chat_id),
            reply_parameters=(
                ReplyParameters(message_id=reply_to, allow_sending_without_reply=True) if reply_to else None
            ),
        )
        self._remember(key, sent.message_id, screen, track_question=track_question)
        return sent

    async def edit(
        self, bot: Bot, key: ChatKey, message_id: int, screen: Screen, *, track_question: bool = False
    ) -> None:
        """Replace a message; without buttons in `screen` its keyboard goes away."""
        chat_id, user_id = key
        try:
            await bot.edit_message_text(
                screen.text,
                chat_id=chat_id,
                message_id=message_id,
                parse_mode=ParseMode.HTML,
                link_preview_options=_NO_PREVIEW,
                reply_markup=markup(screen.buttons, self.keys, user_id=user_id, chat_id=chat_id),
            )
        except BadRequest as exc:
            if not _not_modified(exc):
                raise
        self._remember(key, message_id, screen, track_question=track_question)

    async def strip_keyboard(self, bot: Bot, key: ChatKey, message_id: int | None = None) -> None:
        """Remove a keyboard that no longer applies (the person moved on); the text stays."""
        if message_id is None:
            message_id = self.chats.take_keyboard(key)
        else:
            self.chats.drop_keyboard(key, message_id)
        if message_id is None:
            return
        try:
            await bot.edit_message_reply_markup(chat_id=key[0], message_id=message_id, reply_markup=None)
        except TelegramError as exc:  # already gone, too old, deleted: nothing to tidy
            log.debug("keyboard not removed: %s", type(exc).__name__)

    @contextlib.asynccontextmanager
    async def typing(self, bot: Bot, chat_id: int) -> AsyncIterator[None]:
        """Show "typing…" while the planner works (cosmetic: failures are ignored)."""

        async def keep_typing() -> None:
            while True:
                with contextlib.suppress(TelegramError):
                    await bot.send_chat_action(chat_id, ChatAction.TYPING)
                await asyncio.sleep(TYPING_EVERY_S)

        task = asyncio.create_task(keep_typing())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
