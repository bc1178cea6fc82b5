"""Messages: a typed request (or a typed answer to the open question), a voice message, and the
commands /start, /help, /drafts, /cancel, /tz."""

from __future__ import annotations

import functools
import logging
import re
import zoneinfo
from dataclasses import replace
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.core import Core
from bot.i18n import Lang, lang_of, tr
from bot.keyboards import Action
from bot.planner_client import PlannerError, PlannerUnavailable
from bot.render import Screen, draft_row_screen, esc, reply_screen, voice_screen
from bot.speech import SpeechError
from bot.state import ChatKey

__all__ = ["MessageHandlers", "find_zone", "voice_argument"]

log = logging.getLogger("bot")

MAX_VOICE_BYTES = 20 * 1024 * 1024  # the cloud Bot API serves files up to 20 MB via getFile


class MessageHandlers:
    def __init__(self, core: Core) -> None:
        self.core = core

    def _who(self, update: Update) -> tuple[ChatKey, Lang, int] | None:
        msg, user, chat = update.effective_message, update.effective_user, update.effective_chat
        if msg is None or user is None or chat is None or user.is_bot:
            return None
        # A re-delivered update (a crash before the offset was confirmed, a webhook retry) is dropped;
        # across a restart the planner replays the message's callback id instead of planning twice.
        if not self.core.seen.add(("message", chat.id, msg.message_id)):
            return None
        return (chat.id, user.id), lang_of(user.language_code), msg.message_id

    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/start: a greeting and what the bot can do."""
        who = self._who(update)
        if who is not None:
            text = f"{tr(who[1], 'start')}\n\n{tr(who[1], 'help')}"
            await self.core.send(context.bot, who[0], Screen(esc(text)), track_question=False)

    async def help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/help: what it can do, with examples, and the commands."""
        who = self._who(update)
        if who is not None:
            await self.core.send(context.bot, who[0], Screen(esc(tr(who[1], "help"))), track_question=False)

    async def forget(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/cancel: cancel the person's drafts that wait for a yes, drop the open question, tidy the
        last keyboard."""
        who = self._who(update)
        if who is None:
            return
        key, lang, _ = who
        self.core.chats.set_question(key, None)
        await self.core.strip_keyboard(context.bot, key)
        try:
            waiting = await self._waiting_drafts(key)
            for row in waiting:
                await self.core.call("cancel_draft", key[1], draft_id=str(row["id"]))
        except (PlannerUnavailable, PlannerError) as exc:
            await self.report_failure(context, key, lang, exc)
            return
        text = tr(lang, "cancelled_n", n=len(waiting)) if waiting else tr(lang, "forgotten")
        await self.core.send(context.bot, key, Screen(text), track_question=False)

    async def drafts(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/drafts: each draft waiting for the person's yes, with its Confirm and Cancel buttons."""
        who = self._who(update)
        if who is None:
            return
        key, lang, _ = who
        try:
            waiting = await self._waiting_drafts(key)
        except (PlannerUnavailable, PlannerError) as exc:
            await self.report_failure(context, key, lang, exc)
            return
        if not waiting:
            await self.core.send(context.bot, key, Screen(tr(lang, "no_drafts")), track_question=False)
            return
        zone = self.core.zone_of(key[1])
        for row in waiting[:10]:
            await self.core.send(context.bot, key, draft_row_screen(row, zone, lang), track_question=False)

    async def _waiting_drafts(self, key: ChatKey) -> list[dict[str, Any]]:
        reply = await self.core.call("list_drafts", key[1])
        rows = [r for r in reply.get("results") or [] if isinstance(r, dict) and r.get("id")]
        return [r for r in rows if r.get("status") in WAITING]

    async def tz(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/tz [Area/City | reset]: show or set the person's time zone (kept across restarts)."""
        who = self._who(update)
        message = update.effective_message
        if who is None or message is None:
            return
        key, lang, _ = who
        prefs, default = self.core.prefs, self.core.config.timezone
        wanted = " ".join((message.text or "").split()[1:2]).strip()
        if wanted.lower() in ("reset", "default", "сброс"):
            prefs.set_timezone(key[1], None)
        elif wanted:
            zone = find_zone(wanted)
            if zone is None:
                text = tr(lang, "tz_bad", zone=wanted[:40])
                await self.core.send(context.bot, key, Screen(esc(text)), track_question=False)
                return
            prefs.set_timezone(key[1], zone)
        zone = prefs.timezone(key[1]) or default
        now = datetime.now(ZoneInfo(zone)).strftime("%H:%M")
        text = tr(lang, "tz_now", zone=zone, time=now, default=default)
        await self.core.send(context.bot, key, Screen(esc(text)), track_question=False)

    async def text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        who = self._who(update)
        message = update.effective_message
        if who is None or message is None or not message.text:
            return
        key, lang, message_id = who
        await self.core.strip_keyboard(context.bot, key)
        callback_id = f"tg:message:{key[0]}:{message_id}"
        text = without_mention(message.text, context.bot.username)
        try:
            async with self.core.typing(context.bot, key[0]):
                reply, reasked = await self._answer_or_plan(key, lang, text, callback_id)
        except (PlannerUnavailable, PlannerError) as exc:
            await self.report_failure(context, key, lang, exc)
            return
        screen = reply_screen(reply, self.core.zone_of(key[1]), lang)
        if reasked:  # the answer did not settle it: say how to get out of the question
            screen = replace(screen, text=f"{screen.text}\n<i>{tr(lang, 'restart_hint')}</i>")
        await self.core.send(context.bot, key, screen, reply_to=message_id)

    async def _answer_or_plan(
        self, key: ChatKey, lang: Lang, text: str, callback_id: str, voice: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], bool]:
        """The reply to a typed message (see `_reply_to`); a draft the person confirmed by saying
        "да" is run right away, since the planner's "да" only confirms (DESIGN §4)."""
        reply, reasked = await self._reply_to(key, lang, text, callback_id, voice)
        draft = reply.get("draft") or {}
        if reply.get("status") == "confirmed" and draft.get("id"):
            reply = await self.core.call(
                "execute_draft", key[1], draft_id=draft["id"], callback_id=f"{callback_id}:execute"
            )
        return reply, reasked

    async def _reply_to(
        self, key: ChatKey, lang: Lang, text: str, callback_id: str, voice: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], bool]:
        """Text (typed, or a confident transcript) answers the open question if there is one, else it
        is a new request. Returns the reply and whether the same question is being asked again."""
        core, user = self.core, key[1]
        question = core.chats.question(key)
        if question is not None:
            reply = await core.call(
                "pick",
                user,
                plan_id=question.plan_id,
                question_id=question.question_id,
                text=text,
                callback_id=callback_id,
            )
            reasked = reply.get("status") == "needs_clarification" and (
                reply.get("question_id") == question.question_id
            )
            if not reasked or question.free_text_allowed:
                return reply, reasked
            # Buttons only and the text is none of them: the person moved on to a new request.
            core.chats.set_question(key, None)
            fresh, _ = await self._reply_to(key, lang, text, callback_id + ":plan", voice)
            said, note = fresh.get("user_message") or "", tr(lang, "dropped")
            return {**fresh, "user_message": f"{note}\n{said}".strip(), "notice": note}, False
        if voice is not None:
            return await self.plan_voice(key, lang, voice, callback_id), False
        reply = await core.call(
            "plan",
            user,
            text=text,
            conversation_id=f"tg:{key[0]}",
            language=lang,
            callback_id=callback_id,
        )
        return reply, False

    async def voice(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        who = self._who(update)
        if who is None or message is None:
            return
        key, lang, message_id = who
        core = self.core
        media = message.voice or message.audio
        if media is None:
            return
        if core.speech is None:
            await core.send(context.bot, key, Screen(tr(lang, "no_voice")), reply_to=message_id)
            return
        if (media.file_size or 0) > MAX_VOICE_BYTES:
            await core.send(context.bot, key, Screen(tr(lang, "voice_too_long")), reply_to=message_id)
            return
        await core.strip_keyboard(context.bot, key)
        try:
            async with core.typing(context.bot, key[0]):
                file = await context.bot.get_file(media.file_id)
                audio = bytes(await file.download_as_bytearray())
                heard = await core.speech.transcribe(
                    audio,
                    filename=(file.file_path or "voice.oga").rsplit("/", 1)[-1],
                    mime_type=media.mime_type or "audio/ogg",
                    language=lang,
                    timezone=core.prefs.timezone(key[1]) or core.config.timezone,
                )
        except (SpeechError, TelegramError) as exc:
            log.warning("voice message not transcribed: %s", type(exc).__name__)
            await core.send(context.bot, key, Screen(tr(lang, "voice_failed")), reply_to=message_id)
            return
        cfg = core.config
        confidence = heard.confidence
        if (
            heard.rejected
            or not heard.text
            or (confidence is not None and confidence < cfg.voice_reject_below)
        ):
            await core.send(context.bot, key, voice_screen(heard.text, lang, ask=False), reply_to=message_id)
            return
        if confidence is None or confidence < cfg.voice_confirm_below:
            # Unsure: echo what was heard and ask before the planner sees it (seed 001: clarify, don't act).
            ask = Action("voice", transcript=heard.text, file_id=media.file_id, confidence=confidence)
            screen = voice_screen(heard.text, lang, ask=True, action=ask)
            core.chats.set_question(key, None)  # a "yes" plans it as a new request
            await core.send(context.bot, key, screen, reply_to=message_id, track_question=False)
            return
        callback_id = f"tg:message:{key[0]}:{message_id}"
        voice = voice_argument(heard.text, media.file_id, confidence)
        try:
            async with core.typing(context.bot, key[0]):
                reply, reasked = await self._answer_or_plan(key, lang, heard.text, callback_id, voice)
        except (PlannerUnavailable, PlannerError) as exc:
            await self.report_failure(context, key, lang, exc)
            return
        screen = reply_screen(reply, core.zone_of(key[1]), lang, echo=heard.text)
        if reasked:
            screen = replace(screen, text=f"{screen.text}\n<i>{tr(lang, 'restart_hint')}</i>")
        await core.send(context.bot, key, screen, reply_to=message_id)

    async def plan_voice(
        self, key: ChatKey, lang: Lang, voice: dict[str, Any], callback_id: str
    ) -> dict[str, Any]:
        return await self.core.call(
            "plan",
            key[1],
            voice=voice,
            conversation_id=f"tg:{key[0]}",
            language=lang,
            callback_id=callback_id,
        )

    async def report_failure(
        self, context: ContextTypes.DEFAULT_TYPE, key: ChatKey, lang: Lang, exc: Exception
    ) -> None:
        log.warning("planner call failed: %s", type(exc).__name__)
        which = "unavailable" if isinstance(exc, PlannerUnavailable) else "error"
        await self.core.send(context.bot, key, Screen(tr(lang, which)), track_question=False)


WAITING = ("pending", "awaiting_bulk_confirmation", "confirmed")


@functools.cache
def _zones() -> dict[str, str]:
    return {name.lower(): name for name in zoneinfo.available_timezones()}


def find_zone(name: str) -> str | None:
    """An IANA zone by its name in any letter case ("europe/berlin" -> "Europe/Berlin")."""
    return _zones().get(name.strip().lower())


def without_mention(text: str, bot_username: str | None) -> str:
    """A group message addressed to the bot ("@planner_bot move Acme to Won") without the address."""
    if not bot_username:
        return text
    cleaned = re.sub(rf"(?<!\w)@{re.escape(bot_username)}\b[,:]?[ \t]*", "", text, flags=re.IGNORECASE)
    return cleaned.strip() or text


def voice_argument(transcript: str, file_id: str, confidence: float | None) -> dict[str, Any]:
    """The `voice` argument of `plan` (seed 003: {file_id, transcript, confidence})."""
    voice: dict[str, Any] = {"file_id": file_id[:256], "transcript": transcript}
    if confidence is not None:
        voice["confidence"] = confidence
    return voice
