"""Who may use the bot: `TELEGRAM_ALLOWED_USERS` (ids, @usernames, group chat ids, or `*`), and the
gate every update passes first.

The gate runs before any handler (PTB group -1). A stranger gets one polite refusal, naming their
id so a teammate can ask for it to be added, and nothing of theirs reaches the planner; later
updates from them are dropped silently (a button press is still answered, or its spinner would turn
forever). An admitted person who sends more than the per-user rate allows is told once to slow
down, and the excess is dropped the same way.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import ApplicationHandlerStop, ContextTypes

from bot.access_list import AllowList
from bot.i18n import lang_of, tr
from bot.ratelimit import UserRateLimit
from bot.state import Seen

__all__ = ["AccessGate"]

log = logging.getLogger("bot.access")


@dataclass
class AccessGate:
    allowed: AllowList
    limit: UserRateLimit
    refused: Seen = field(default_factory=lambda: Seen(capacity=50_000))

    async def check(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Let the update through, or answer it here and stop it (ApplicationHandlerStop)."""
        if not isinstance(update, Update):
            return
        user, chat = update.effective_user, update.effective_chat
        if user is None or chat is None or user.is_bot:
            raise ApplicationHandlerStop
        lang = lang_of(user.language_code)
        if not self.allowed.admits(user.id, user.username, chat.id):
            first = self.refused.add((chat.id, user.id))
            log.info("refused an update from a user not on the allow-list", extra={"event": "refused"})
            await self._tell(update, context, tr(lang, "not_allowed", id=user.id), say=first)
            raise ApplicationHandlerStop
        wait, first = self.limit.take(user.id)
        if wait > 0:
            log.info("rate limited a user", extra={"event": "rate_limited", "wait_s": round(wait, 1)})
            await self._tell(update, context, tr(lang, "slow_down", seconds=max(1, round(wait))), say=first)
            raise ApplicationHandlerStop

    @staticmethod
    async def _tell(update: Update, context: ContextTypes.DEFAULT_TYPE, text: str, *, say: bool) -> None:
        try:
            if update.callback_query is not None:
                await update.callback_query.answer(text if say else None, show_alert=say)
            elif say and update.effective_chat is not None:
                await context.bot.send_message(update.effective_chat.id, text)
        except TelegramError as exc:
            log.debug("refusal not delivered: %s", type(exc).__name__)
