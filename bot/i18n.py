"""Every string the bot itself says, in Russian and English (the planner's own messages come localised)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

__all__ = ["Lang", "day_time", "lang_of", "tr"]

Lang = Literal["ru", "en"]

# Languages whose speakers in this product's market read Russian more comfortably than English.
_RUSSIAN_READERS = ("ru", "uk", "be", "kk", "uz", "ky", "tg", "hy", "az")

_STRINGS: dict[str, tuple[str, str]] = {
    "start": (
        "Привет! Напишите или скажите, что сделать в Attio, Linear или календаре — например: "
        "«Ромашка подписала — переведи сделку в Won и заведи онбординг». "
        "Ничего не меняю без вашего подтверждения.",
        "Hi! Type or say what to do in Attio, Linear or your calendar, e.g. "
        '"Acme signed - move the deal to Won and set up onboarding". '
        "Nothing changes until you confirm.",
    ),
    "help": (
        "Я веду Attio (CRM), Linear и календарь по вашим словам — текстом или голосом. Примеры:\n"
        "• Переведи сделку Globex pilot в стадию Won\n"
        "• Создай задачу в ENG: починить вход через Safari, высокий приоритет, до пятницы\n"
        "• Добавь заметку к Ромашке: просят скидку 10%\n"
        "• Поставь блок завтра в 9 на час\n"
        "• Что по сделке с Acme?\n"
        "Любое изменение я сначала показываю черновиком — ничего не меняется, пока вы не нажмёте «Подтвердить».\n\n"
        "/drafts — ваши черновики, ждущие подтверждения\n"
        "/cancel — отменить их и начать заново\n"
        "/tz — часовой пояс (например, /tz Europe/Berlin)\n"
        "/help — эта подсказка",
        "I run Attio (CRM), Linear and your calendar from what you say - typed or spoken. For example:\n"
        "• Move the Globex pilot deal to Won\n"
        "• Create an issue in ENG: fix Safari login, high priority, due Friday\n"
        "• Add a note to Acme: they ask for a 10% discount\n"
        "• Block tomorrow 9am for an hour\n"
        "• What's the status of the Acme deal?\n"
        "Every change comes as a draft first - nothing changes until you press Confirm.\n\n"
        "/drafts - your drafts waiting for a yes\n"
        "/cancel - cancel them and start over\n"
        "/tz - your time zone (e.g. /tz Europe/Berlin)\n"
        "/help - this help",
    ),
    "cmd_start": ("что я умею", "what I can do"),
    "cmd_help": ("примеры запросов", "examples of requests"),
    "cmd_drafts": ("черновики, ждущие подтверждения", "drafts waiting for a yes"),
    "cmd_cancel": ("отменить и начать заново", "cancel and start over"),
    "cmd_tz": ("часовой пояс", "your time zone"),
    "not_allowed": (
        "Извините, этот бот работает только для своей команды. Если вы в ней, попросите администратора"
        " добавить ваш Telegram id: {id}.",
        "Sorry, this bot only works for its team. If you are on it, ask the admin to add your Telegram"
        " id: {id}.",
    ),
    "slow_down": (
        "Слишком много запросов подряд — подождите {seconds} с и повторите.",
        "Too many requests in a row - please wait {seconds} s and try again.",
    ),
    "no_drafts": ("Черновиков, ждущих подтверждения, нет.", "No drafts are waiting for your yes."),
    "draft_row": (
        "📝 {summary}\nИзменений: {n}. Действует до {time}.",
        "📝 {summary}\nChanges: {n}. Valid until {time}.",
    ),
    "cancelled_n": (
        "Отменено черновиков: {n}. Ничего не изменено. Напишите новый запрос.",
        "Cancelled {n} draft(s); nothing changed. What should I do?",
    ),
    "tz_now": (
        "Ваш часовой пояс: {zone} (сейчас {time}). Сменить: /tz Europe/Berlin, вернуть {default}: /tz reset",
        "Your time zone: {zone} (now {time}). Change it: /tz Europe/Berlin; back to {default}: /tz reset",
    ),
    "tz_bad": (
        "Не знаю часового пояса «{zone}». Укажите его как в базе IANA: Europe/Moscow, Asia/Almaty, America/New_York.",
        "I don't know the time zone '{zone}'. Use an IANA name: Europe/Moscow, Asia/Almaty, America/New_York.",
    ),
    "confirm": ("✅ Подтвердить", "✅ Confirm"),
    "confirm_n": ("✅ Подтвердить {n}", "✅ Confirm {n}"),
    "cancel": ("❌ Отмена", "❌ Cancel"),
    "yes": ("✅ Да", "✅ Yes"),
    "edit_text": ("✏️ Напишу текстом", "✏️ I'll type it"),
    "draft_head": (
        "📝 <b>Черновик</b> — ничего не изменится, пока вы не подтвердите:",
        "📝 <b>Draft</b> - nothing changes until you confirm:",
    ),
    "draft_until": ("Черновик действует до {time}.", "The draft is valid until {time}."),
    "bulk_ask": (
        "⚠️ Это {n} изменений сразу. Подтвердите числом: {n}.",
        "⚠️ That is {n} changes at once. Confirm with the count: {n}.",
    ),
    "bulk_note": (
        "Это {n} изменений: после «Подтвердить» попрошу подтвердить числом.",
        "That is {n} changes: after Confirm you'll confirm the count.",
    ),
    "confirming": ("⏳ Подтверждаю…", "⏳ Confirming…"),
    "working": ("⏳ Выполняю…", "⏳ Running…"),
    "working_n": ("⏳ Выполняю изменения: {n}…", "⏳ Running {n} changes…"),
    "working_at": ("⏳ Выполнено {done} из {total}…", "⏳ {done} of {total} done…"),
    "done": ("✅ <b>Готово</b>", "✅ <b>Done</b>"),
    "partly": ("⚠️ <b>Выполнено частично</b>", "⚠️ <b>Partly done</b>"),
    "failed": ("❌ <b>Не выполнено</b>", "❌ <b>Not done</b>"),
    "cancelled": ("❌ Отменено — ничего не изменено.", "❌ Cancelled - nothing changed."),
    "expired": ("⌛ Черновик истёк — повторите запрос.", "⌛ The draft expired - please ask again."),
    "open": ("открыть", "open"),
    "or_type": ("Или напишите ответ сообщением.", "Or type your answer."),
    "restart_hint": ("/cancel — начать заново.", "/cancel - start over."),
    "chosen": ("→ {label}", "→ {label}"),
    "dropped": ("Предыдущий вопрос снят.", "The earlier question was dropped."),
    "forgotten": ("Хорошо, начнём заново. Напишите запрос.", "OK, let's start over. What should I do?"),
    "busy": ("⏳ Уже выполняется…", "⏳ Already running…"),
    "already": ("Уже обработано.", "Already handled."),
    "stale": ("Кнопка устарела — повторите запрос.", "This button has expired - please ask again."),
    "not_yours": ("Эта кнопка не для вас.", "This button isn't yours."),
    "lost_running": (
        "⚠️ Связь с планировщиком прервалась во время выполнения. Черновик выполняется не более одного"
        " раза — нажмите «Проверить», чтобы узнать, что сделано.",
        "⚠️ Lost the planner while it was running the draft. A draft runs at most once - press Check"
        " to see what was done.",
    ),
    "check": ("🔄 Проверить", "🔄 Check"),
    "unavailable": (
        "⚠️ Планировщик сейчас недоступен — попробуйте через минуту. Ничего не изменено.",
        "⚠️ The planner is unavailable right now - try again in a minute. Nothing was changed.",
    ),
    "error": (
        "⚠️ Не получилось обработать запрос. Ничего не изменено — попробуйте ещё раз.",
        "⚠️ Something went wrong. Nothing was changed - please try again.",
    ),
    "heard": ("🎙 «{text}»", '🎙 "{text}"'),
    "heard_ask": ("Я правильно понял?", "Did I get that right?"),
    "heard_bad": (
        "Не уверен, что расслышал. Повторите, пожалуйста, или напишите текстом.",
        "I'm not sure I heard that right. Please say it again or type it.",
    ),
    "type_it": ("✏️ Напишите запрос текстом.", "✏️ Please type the request."),
    "no_voice": (
        "Голосовые сообщения не настроены — напишите текстом.",
        "Voice messages are not set up here - please type instead.",
    ),
    "voice_failed": (
        "Не удалось распознать голосовое — напишите текстом, пожалуйста.",
        "Could not transcribe the voice message - please type instead.",
    ),
    "voice_too_long": (
        "Голосовое слишком длинное — запишите покороче или напишите текстом.",
        "The voice message is too long - record a shorter one or type instead.",
    ),
    "nothing_found": ("Готово.", "Done."),
    "risk_bulk": ("Много изменений", "Many changes"),
    "risk_destructive": ("Внимание", "Careful"),
    "risk_ambiguous": ("Неоднозначно", "Ambiguous"),
    "risk_missing_required": ("Не хватает данных", "Missing details"),
    "risk_past_date": ("Дата в прошлом", "Date in the past"),
    "risk_rate_limit_risk": (
        "Много запросов — выполнение будет медленнее",
        "Many calls - it will run slower",
    ),
    "st_succeeded": ("✅", "✅"),
    "st_already_done": ("☑️ уже было", "☑️ already done"),
    "st_failed": ("❌", "❌"),
    "st_skipped": ("⏭ пропущено", "⏭ skipped"),
    "st_unknown": ("❓ результат неизвестен — проверьте", "❓ outcome unknown - please check"),
    "st_pending": ("▫️ не выполнялось", "▫️ not run"),
    "st_running": ("⏳", "⏳"),
}


_WEEKDAYS = {
    "ru": ("пн", "вт", "ср", "чт", "пт", "сб", "вс"),
    "en": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
}
_MONTHS = {
    "ru": ("янв.", "февр.", "мар.", "апр.", "мая", "июн.", "июл.", "авг.", "сент.", "окт.", "нояб.", "дек."),
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
}


def day_time(moment: datetime, lang: Lang, *, this_year: int) -> str:
    """«пт, 27 нояб., 10:00» / "Fri, 27 Nov, 10:00" (the planner's format), with the year when it differs."""
    text = f"{_WEEKDAYS[lang][moment.weekday()]}, {moment.day} {_MONTHS[lang][moment.month - 1]}"
    if moment.year != this_year:
        text += f" {moment.year}"
    return f"{text}, {moment:%H:%M}"


def lang_of(language_code: str | None) -> Lang:
    """The bot's language from Telegram's optional IETF tag (`ru`, `ru-RU`, `en-GB`...)."""
    code = (language_code or "").lower().split("-")[0]
    return "ru" if code in _RUSSIAN_READERS else "en"


def tr(lang: Lang, key: str, **fmt: object) -> str:
    ru, en = _STRINGS[key]
    text = ru if lang == "ru" else en
    return text.format(**fmt) if fmt else text
