"""Messages: a typed request (or a typed answer to the open question), a voice message, commands."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.core import Core
from bot.i18n import Lang, lang_of, tr
from bot.keyboards import Action
from bot.planner_client import PlannerError, PlannerUnavailable
from bot.render import Screen, reply_screen, voice_screen
from bot.speech import SpeechError
from bot.state import ChatKey

__all__ = ["MessageHandlers", "voice_argument"]

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
        who = self._who(update)
        if who is not None:
            await self.core.send(context.bot, who[0], Screen(tr(who[1], "start")), track_question=False)

    async def forget(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/cancel: drop the open question and tidy the last keyboard."""
        who = self._who(update)
        if who is None:
            return
        key, lang, _ = who
        self.core.chats.set_question(key, None)
        await self.core.strip_keyboard(context.bot, key)
        await self.core.send(context.bot, key, Screen(tr(lang, "forgotten")), track_question=False)

    async def text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        who = self._who(update)
        message = update.effective_message
        if who is None or message is None or not message.text:
            return
        key, lang, message_id = who
        await self.core.strip_keyboard(context.bot, key)
        callback_id = f"tg:message:{key[0]}:{message_id}"
        try:
            async with self.core.typing(context.bot, key[0]):
                reply, reasked = await self._answer_or_plan(key, lang, message.text, callback_id)
        except (PlannerUnavailable, PlannerError) as exc:
            await self.report_failure(context, key, lang, exc)
            return
        screen = reply_screen(reply, self.core.config.zone, lang)
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
                    timezone=core.config.timezone,
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
        screen = reply_screen(reply, cfg.zone, lang, echo=heard.text)
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


def voice_argument(transcript: str, file_id: str, confidence: float | None) -> dict[str, Any]:
    """The `voice` argument of `plan` (seed 003: {file_id, transcript, confidence})."""
    voice: dict[str, Any] = {"file_id": file_id[:256], "transcript": transcript}
    if confidence is not None:
        voice["confidence"] = confidence
    return voice
