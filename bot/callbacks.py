"""Button presses: pick a choice, confirm (and the counted bulk confirmation), cancel, voice yes/retype.

Every press follows one order: drop a re-delivered press, answer the callback at once (the client
shows a spinner until then, and an unanswered query may be re-sent), check that the presser is the
person the button was shown to, edit the message so the keyboard is gone, and only then ask the
planner, with `callback_id = tg:callback:<callback_query_id>`. A double tap arrives with a new query
id: the per-draft `Once` guard answers it with a toast, and the planner (which runs a draft once and
replays callback ids) makes it harmless even across restarts or several bot replicas.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time

from telegram import Bot, CallbackQuery, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.core import Core
from bot.handlers import MessageHandlers, voice_argument
from bot.i18n import Lang, lang_of, tr
from bot.keyboards import Action, Button, Pressed
from bot.planner_client import PlannerError, PlannerUnavailable
from bot.render import FINAL, Screen, esc, progress_screen, reply_screen
from bot.state import ChatKey

__all__ = ["PressHandlers"]

log = logging.getLogger("bot")

PROGRESS_EVERY_S = 1.0  # Telegram: about one message (or edit) a second per chat


class _ProgressEdits:
    """The planner's progress notifications as at most one edit a second. An edit runs in its own
    task, so a slow one (waiting out a 429) never stalls the MCP session delivering notifications;
    `settle` waits for it, so it never lands after the result."""

    def __init__(
        self, core: Core, bot: Bot, key: ChatKey, message_id: int, lang: Lang, action: Action
    ) -> None:
        self._core, self._bot, self._key, self._message_id = core, bot, key, message_id
        self._lang, self._action = lang, action
        self._last = -math.inf
        self._task: asyncio.Task[None] | None = None

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        if not total or total <= 1 or progress >= total:  # one change, or the result is about to come
            return
        if self._task is not None and not self._task.done():
            return
        now = time.monotonic()
        if now - self._last < PROGRESS_EVERY_S:
            return
        self._last = now
        screen = progress_screen(
            self._lang,
            self._action,
            confirming=False,
            done=int(progress),
            total=int(total),
            last=message or "",
        )
        self._task = asyncio.create_task(self._edit(screen))

    async def _edit(self, screen: Screen) -> None:
        try:
            await self._core.edit(self._bot, self._key, self._message_id, screen)
        except TelegramError as exc:  # progress is a courtesy: the result edit still follows
            log.debug("progress edit failed: %s", type(exc).__name__)

    async def settle(self) -> None:
        if self._task is not None:
            await self._task


async def _answer(query: CallbackQuery, text: str | None = None, *, alert: bool = False) -> None:
    try:
        await query.answer(text, show_alert=alert)
    except TelegramError as exc:  # "query is too old": the press is still handled
        log.debug("callback not answered: %s", type(exc).__name__)


class PressHandlers:
    def __init__(self, core: Core, messages: MessageHandlers) -> None:
        self.core = core
        self.messages = messages

    async def press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        core = self.core
        if not core.seen.add(("callback", query.id)):
            await _answer(query)  # the same update again: nothing else
            return
        lang = lang_of(query.from_user.language_code)
        pressed = core.keys.get(query.data)
        message = query.message
        if pressed is None or message is None:
            await _answer(query, tr(lang, "stale"), alert=True)
            if message is not None:
                mine = (message.chat.id, query.from_user.id)
                await core.strip_keyboard(context.bot, mine, message.message_id)
            return
        if pressed.user_id != query.from_user.id or pressed.chat_id != message.chat.id:
            # Someone else in a group, or a forged key: their press must never touch this person's draft.
            await _answer(query, tr(lang, "not_yours"), alert=True)
            return
        key: ChatKey = (pressed.chat_id, pressed.user_id)
        callback_id = f"tg:callback:{query.id}"
        action = pressed.action
        if action.kind in ("confirm", "count", "cancel"):
            await self._draft(context, query, key, lang, pressed, message.message_id, callback_id)
        elif action.kind == "pick":
            await self._pick(context, query, key, lang, action, message.message_id, callback_id)
        elif action.kind == "voice":
            await self._voice(context, query, key, lang, pressed, message.message_id, callback_id)
        else:  # retype
            await _answer(query)
            await core.edit(context.bot, key, message.message_id, Screen(tr(lang, "type_it")))

    async def _draft(
        self,
        context: ContextTypes.DEFAULT_TYPE,
        query: CallbackQuery,
        key: ChatKey,
        lang: Lang,
        pressed: Pressed,
        message_id: int,
        callback_id: str,
    ) -> None:
        core, action = self.core, pressed.action
        guard = f"draft:{action.draft_id}"
        state = core.once.state(guard)
        if state != "idle" or not core.once.begin(guard):
            await _answer(query, tr(lang, "busy" if state == "busy" else "already"))
            return
        final = running = False
        try:
            await _answer(query)
            cancelling = action.kind == "cancel"
            if not cancelling:
                await core.edit(context.bot, key, message_id, progress_screen(lang, action, confirming=True))
            async with core.typing(context.bot, key[0]):
                if cancelling:
                    reply = await core.call(
                        "cancel_draft", key[1], draft_id=action.draft_id, callback_id=callback_id
                    )
                else:
                    count = action.count if action.kind == "count" else None
                    reply = await core.call(
                        "confirm_draft",
                        key[1],
                        draft_id=action.draft_id,
                        confirm_count=count,
                        callback_id=callback_id,
                    )
                    # "executing": a Check after a lost connection; execute_draft waits for the result.
                    if reply.get("status") in ("confirmed", "executing"):
                        working = progress_screen(lang, action, confirming=False)
                        await core.edit(context.bot, key, message_id, working)
                        # One press, two tools: the execute call needs its own id, or the planner would
                        # replay the confirm reply for it.
                        edits = _ProgressEdits(core, context.bot, key, message_id, lang, action)
                        running = True
                        try:
                            reply = await core.call(
                                "execute_draft",
                                key[1],
                                draft_id=action.draft_id,
                                callback_id=f"{callback_id}:execute",
                                progress=edits,
                            )
                        finally:
                            await edits.settle()
            final = str(reply.get("status")) in FINAL
            await core.edit(context.bot, key, message_id, reply_screen(reply, core.zone_of(key[1]), lang))
        except (PlannerUnavailable, PlannerError) as exc:
            log.warning("draft press failed: %s", type(exc).__name__)
            which = "unavailable" if isinstance(exc, PlannerUnavailable) else "error"
            # The keyboard was already removed: give it back, so the person can simply press again.
            cancel = Button(tr(lang, "cancel"), Action("cancel", draft_id=action.draft_id))
            again = [cancel] if action.kind == "cancel" else [Button(tr(lang, "confirm"), action), cancel]
            retry = Screen(tr(lang, which), [again])
            if running:  # the draft may have run, in part or whole: never say "nothing changed"
                # Pressing it asks confirm_draft again, which answers the draft's stored state.
                retry = Screen(tr(lang, "lost_running"), [[Button(tr(lang, "check"), action)]])
            await core.edit(context.bot, key, message_id, retry)
        finally:
            core.once.end(guard, done=final)

    async def _pick(
        self,
        context: ContextTypes.DEFAULT_TYPE,
        query: CallbackQuery,
        key: ChatKey,
        lang: Lang,
        action: Action,
        message_id: int,
        callback_id: str,
    ) -> None:
        core = self.core
        guard = f"question:{action.plan_id}:{action.question_id}"
        if not core.once.begin(guard):  # a double tap, or a second choice for an answered question
            await _answer(query, tr(lang, "already"))
            return
        next_question = False
        try:
            await _answer(query)
            chosen = Screen(f"❓ {esc(action.prompt)}\n<b>{esc(tr(lang, 'chosen', label=action.label))}</b>")
            await core.edit(context.bot, key, message_id, chosen)
            core.chats.set_question(key, None)
            async with core.typing(context.bot, key[0]):
                reply = await core.call(
                    "pick",
                    key[1],
                    plan_id=action.plan_id,
                    question_id=action.question_id,
                    value=action.value,
                    callback_id=callback_id,
                )
            next_question = reply.get("question_id") == action.question_id
            await core.send(context.bot, key, reply_screen(reply, core.zone_of(key[1]), lang))
        except (PlannerUnavailable, PlannerError) as exc:
            await self.messages.report_failure(context, key, lang, exc)
            next_question = True  # let the person press again
        finally:
            core.once.end(guard, done=not next_question)

    async def _voice(
        self,
        context: ContextTypes.DEFAULT_TYPE,
        query: CallbackQuery,
        key: ChatKey,
        lang: Lang,
        pressed: Pressed,
        message_id: int,
        callback_id: str,
    ) -> None:
        core, action = self.core, pressed.action
        guard = f"voice:{pressed.token}"
        if not core.once.begin(guard):
            await _answer(query, tr(lang, "already"))
            return
        ok = False
        try:
            await _answer(query)
            await core.edit(
                context.bot, key, message_id, Screen(tr(lang, "heard", text=esc(action.transcript)))
            )
            voice = voice_argument(action.transcript, action.file_id, action.confidence)
            async with core.typing(context.bot, key[0]):
                reply = await self.messages.plan_voice(key, lang, voice, callback_id)
            await core.send(context.bot, key, reply_screen(reply, core.zone_of(key[1]), lang))
            ok = True
        except (PlannerUnavailable, PlannerError) as exc:
            await self.messages.report_failure(context, key, lang, exc)
        finally:
            core.once.end(guard, done=ok)
