"""The Telegram bot end to end: the real python-telegram-bot against a fake Bot API on 127.0.0.1, and the
real planner (`planner-mcp serve --http`, a subprocess on a fresh sandbox) behind it.

What is checked is what a person sees and what the planner did: every press is answered before
anything else, keyboards disappear once pressed, and a draft runs once however many times Telegram
delivers the press. Set BOT_TRANSCRIPTS=<dir> to keep each conversation as a readable transcript.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import os
import secrets
import signal
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx2
import pytest
from bot_harness import (
    ROOT,
    TOKEN,
    Harness,
    Planner,
    ask_planner,
    bot_config,
    executions,
    free_port,
    issues_with,
    new_marker,
    new_user_id,
    planner_process,
    running_bot,
)
from telegram_fakes import FakeTelegram, Person, Shown, plain

from bot.app import SECRET_HEADER
from bot.planner_client import PlannerUnavailable, ProgressFn

pytestmark = [pytest.mark.slow, pytest.mark.anyio]


@pytest.fixture(scope="module")
def planner(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Planner]:
    with planner_process(tmp_path_factory.mktemp("planner")) as process:
        yield process


@pytest.fixture
async def fake(request: pytest.FixtureRequest) -> AsyncIterator[FakeTelegram]:
    telegram = FakeTelegram(TOKEN)
    await telegram.start(free_port())
    yield telegram
    await telegram.stop()
    keep = os.environ.get("BOT_TRANSCRIPTS")
    if keep:
        out = Path(keep) / f"{request.node.name}.txt"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("\n".join(telegram.transcript).strip() + "\n", encoding="utf-8")


@pytest.fixture
async def harness(planner: Planner, fake: FakeTelegram) -> AsyncIterator[Harness]:
    async with running_bot(bot_config(planner, fake.base_url)) as bot:
        yield Harness(fake, bot, planner)


async def draft_shown(fake: FakeTelegram, chat: int) -> Shown:
    """The next draft message with its Confirm / Cancel keyboard."""
    return await fake.wait_message(chat, lambda m: "Черновик" in m.plain and bool(m.buttons), "the draft")


def edits_of(fake: FakeTelegram, shown: Shown) -> list[dict[str, object]]:
    return [
        c.params
        for c in fake.calls
        if c.method == "editMessageText" and int(str(c.params["message_id"])) == shown.message_id
    ]


async def result_of(fake: FakeTelegram, shown: Shown, word: str) -> Shown:
    """The draft's message once it says `word` (the final result), with its keyboard gone."""
    return await fake.wait_message(
        shown.chat_id,
        lambda m: m.message_id == shown.message_id and word in m.plain and not m.buttons,
        f"the message to say {word!r}",
    )


async def test_a_text_request_goes_through_pick_confirm_and_execute(harness: Harness) -> None:
    fake, planner, ivan = harness.fake, harness.planner, harness.person()
    ivan.says("Переведи сделку Acme в Won")
    question = await fake.wait_message(
        ivan.chat, lambda m: "Какую сделку" in m.plain and bool(m.buttons), "the pick question"
    )
    assert [b["text"] for b in question.buttons] == [
        "Acme Corp — annual license (Qualification · 50\u00a0000 USD)",
        "Acme Logistics — pilot (Lead · 12\u00a0000 USD)",
    ]
    for button in question.buttons:
        assert len(button["callback_data"].encode()) <= 64
    assert "dce59e09" not in json.dumps(question.reply_markup), "a record id travelled in callback_data"

    ivan.taps(question, "Acme Corp")
    draft = await draft_shown(fake, ivan.chat)
    answered = fake.message(ivan.chat, question.message_id)
    assert not answered.buttons and "→ Acme Corp — annual license" in answered.plain
    assert "Квалификация → Выиграна" in draft.plain
    assert [b["text"] for b in draft.buttons] == ["✅ Подтвердить", "❌ Отмена"]

    tap = ivan.taps(draft, "Подтвердить")
    final = await result_of(fake, draft, "Готово")
    assert "✅ 1. Attio: сделка «Acme Corp — annual license»: Квалификация → Выиграна" in final.plain
    assert '<a href="https://app.attio.com/northwind/deals/record/dce59e09' in final.text

    # The press is answered first; the first edit shows progress and already has no keyboard.
    press_id = tap["callback_query"]["id"]
    first = next(
        c.method
        for c in fake.calls
        if (c.method == "answerCallbackQuery" and c.params.get("callback_query_id") == press_id)
        or (c.method == "editMessageText" and int(c.params["message_id"]) == draft.message_id)
    )
    assert first == "answerCallbackQuery"
    progress = edits_of(fake, draft)[:-1]
    assert progress and all("⏳" in plain(str(e["text"])) and "reply_markup" not in e for e in progress)
    assert await executions(planner, ivan.user_id) == 1


async def test_a_typed_answer_goes_to_the_open_question_and_cancel_changes_nothing(harness: Harness) -> None:
    fake, planner, ivan = harness.fake, harness.planner, harness.person()
    ivan.says("Поставь встречу с Ромашкой завтра в 15:00")
    question = await fake.wait_message(
        ivan.chat, lambda m: "На сколько минут" in m.plain and bool(m.buttons), "the question"
    )
    assert "Или напишите ответ сообщением." in question.plain
    assert [[b["text"] for b in row] for row in question.reply_markup["inline_keyboard"]] == [
        ["15", "30", "45", "60", "90"]  # short choices share one row
    ]

    ivan.says("полчаса")
    draft = await draft_shown(fake, ivan.chat)
    assert "«Встреча с Ромашкой»" in draft.plain and "30 мин" in draft.plain
    assert not fake.message(ivan.chat, question.message_id).buttons, "the answered question kept its keyboard"
    assert fake.calls_of("editMessageReplyMarkup"), "the old keyboard was not removed"

    ivan.taps(draft, "Отмена")
    await result_of(fake, draft, "Отменено")
    drafts = await ask_planner(
        planner, "list_drafts", user_id=f"telegram:{ivan.user_id}", include_finished=True
    )
    assert [d["status"] for d in drafts["results"]] == ["cancelled"]
    assert await executions(planner, ivan.user_id) == 0


async def test_a_bulk_draft_needs_the_counted_confirmation(harness: Harness) -> None:
    fake, planner, ivan = harness.fake, harness.planner, harness.person()
    marker = new_marker()
    titles = ", ".join(f"{marker} {letter}" for letter in "abcdefg")
    ivan.says(f"Создай задачи в DES: {titles}")
    draft = await draft_shown(fake, ivan.chat)
    assert "Это 7 изменений" in draft.plain

    ivan.taps(draft, "Подтвердить")
    counted = await fake.wait_message(
        ivan.chat,
        lambda m: m.message_id == draft.message_id and any("Подтвердить 7" in b["text"] for b in m.buttons),
        "the counted confirmation",
    )
    assert "Подтвердите числом: 7" in counted.plain
    assert await issues_with(planner, marker) == set(), "something ran before the counted confirmation"

    ivan.taps(counted, "Подтвердить 7")
    final = await result_of(fake, draft, "Готово")
    assert final.plain.count("✅") >= 7
    # the planner's progress notifications show on the message, and never after the result
    edits = [plain(str(e["text"])) for e in edits_of(fake, draft)]
    shown = [i for i, text in enumerate(edits) if "Выполнено 1 из 7" in text]
    assert shown and "✓" in edits[shown[0]], "\n---\n".join(edits)
    assert "Готово" in edits[-1] and shown[-1] < len(edits) - 1
    assert len(await issues_with(planner, marker)) == 7
    assert await executions(planner, ivan.user_id) == 1


async def test_a_voice_message_is_transcribed_and_a_doubtful_one_is_confirmed_first(harness: Harness) -> None:
    fake, planner, ivan = harness.fake, harness.planner, harness.person()
    sure, unsure = new_marker(), new_marker()

    # Confident: echoed and planned at once (still a draft to confirm).
    fake.speech_replies.append({"transcript": f"Создай задачу в Linear: голос {sure}", "confidence": 0.93})
    audio = b"OggS\x00\x02" + secrets.token_bytes(256)
    ivan.speaks(audio)
    draft = await fake.wait_message(
        ivan.chat, lambda m: sure in m.plain and bool(m.buttons), "the voice draft"
    )
    assert draft.plain.startswith(f"🎙 «Создай задачу в Linear: голос {sure}»")
    heard = fake.speech_requests[0]
    assert heard["audio"] == audio, "the bytes from getFile did not reach the speech service"
    assert heard["form"] == {"language": "ru", "source": "telegram_voice"}
    assert heard["timezone"] == "Europe/Moscow"
    assert fake.calls_of("getFile") and fake.calls_of("FILE")
    ivan.taps(draft, "Подтвердить")
    await result_of(fake, draft, "Готово")
    assert len(await issues_with(planner, sure)) == 1

    # Doubtful (seed 001's envelope, 0.40 <= confidence < 0.75): echoed and asked before planning.
    fake.speech_replies.append(
        {"text": {"raw": f"Создай задачу в Linear: уточнение {unsure}"}, "command": {"confidence": 0.6}}
    )
    ivan.speaks(b"OggS" + secrets.token_bytes(64))
    ask = await fake.wait_message(ivan.chat, lambda m: "Я правильно понял" in m.plain, "the echo question")
    assert f"«Создай задачу в Linear: уточнение {unsure}»" in ask.plain
    audit = await ask_planner(planner, "read_audit_log", user_id=f"telegram:{ivan.user_id}")
    assert unsure not in json.dumps(audit, ensure_ascii=False), "planned before the person said yes"
    ivan.taps(ask, "Да")
    await fake.wait_message(ivan.chat, lambda m: unsure in m.plain and "Черновик" in m.plain, "the draft")

    # A confident voice answer to an open question goes to that question.
    ivan.says("Поставь встречу с Ромашкой завтра в 15:00")
    await fake.wait_message(
        ivan.chat, lambda m: "На сколько минут" in m.plain and bool(m.buttons), "the question"
    )
    fake.speech_replies.append({"transcript": "полчаса", "confidence": 0.91})
    ivan.speaks(b"OggS" + secrets.token_bytes(48))
    await fake.wait_message(
        ivan.chat, lambda m: "30 мин" in m.plain and "Черновик" in m.plain, "the answered draft"
    )

    # Unintelligible (< 0.40): echoed, nothing planned, no buttons.
    fake.speech_replies.append({"transcript": "ммм кхм", "confidence": 0.2})
    ivan.speaks(b"OggS" + secrets.token_bytes(32))
    bad = await fake.wait_message(ivan.chat, lambda m: "Не уверен" in m.plain, "the safe fail")
    assert "«ммм кхм»" in bad.plain and not bad.buttons
    assert await executions(planner, ivan.user_id) == 1


async def test_a_press_delivered_three_times_and_a_double_tap_execute_once(harness: Harness) -> None:
    fake, planner, ivan = harness.fake, harness.planner, harness.person()
    marker = new_marker()
    ivan.says(f"Создай задачу в Linear: дубль {marker}")
    draft = await draft_shown(fake, ivan.chat)
    keyboard = copy.deepcopy(draft)  # what a client that has not refreshed yet still shows

    press = ivan.tap_update(keyboard, "Подтвердить")
    double = ivan.tap_update(keyboard, "Подтвердить")
    fake.transcript.append("👆 Иван taps [✅ Подтвердить] (delivered twice) and taps again at once")
    fake.push(press)
    fake.push(press)  # the very same update again, in the same batch
    fake.push(double)  # a second tap: a new callback query
    await result_of(fake, draft, "Готово")
    fake.push(press)  # delivered a third time, after it all finished
    late = fake.push(ivan.tap_update(keyboard, "Подтвердить"))  # a stale keyboard pressed later

    first_id, double_id = press["callback_query"]["id"], double["callback_query"]["id"]
    late_id = late["callback_query"]["id"]
    await fake.wait_for(
        lambda: len(fake.answers(first_id)) == 3 and fake.answers(double_id) and fake.answers(late_id),
        "every press to be answered",
    )
    assert [a.get("text") for a in fake.answers(first_id)] == [None, None, None]
    assert fake.answers(double_id)[0].get("text") in ("⏳ Уже выполняется…", "Уже обработано.")
    assert fake.answers(late_id)[0].get("text") == "Уже обработано."
    assert len(await issues_with(planner, marker)) == 1
    assert await executions(planner, ivan.user_id) == 1


async def test_an_answer_lost_while_running_never_says_nothing_changed_and_check_shows_the_result(
    harness: Harness,
) -> None:
    fake, planner, ivan = harness.fake, harness.planner, harness.person()
    real = harness.bot.core.planner

    class LosesTheFirstExecuteAnswer:
        lost = False

        async def call(
            self, tool: str, arguments: dict[str, object], *, progress: ProgressFn | None = None
        ) -> dict[str, object]:
            reply = await real.call(tool, arguments, progress=progress)
            if tool == "execute_draft" and not self.lost:
                self.lost = True  # the draft ran, but its answer never came back
                raise PlannerUnavailable("execute_draft failed")
            return reply

    harness.bot.core.planner = LosesTheFirstExecuteAnswer()
    marker = new_marker()
    ivan.says(f"Создай задачу в Linear: потеря связи {marker}")
    draft = await draft_shown(fake, ivan.chat)
    ivan.taps(draft, "Подтвердить")
    lost = await fake.wait_message(
        ivan.chat,
        lambda m: m.message_id == draft.message_id and "прервалась" in m.plain and bool(m.buttons),
        "the lost-connection notice",
    )
    assert "Ничего не изменено" not in lost.plain  # it may well have changed: it did
    assert [b["text"] for b in lost.buttons] == ["🔄 Проверить"]
    ivan.taps(lost, "Проверить")
    final = await result_of(fake, draft, "Готово")
    assert marker in final.plain
    assert len(await issues_with(planner, marker)) == 1
    assert await executions(planner, ivan.user_id) == 1


async def test_nobody_else_in_a_group_can_press_a_persons_buttons(harness: Harness) -> None:
    fake, planner = harness.fake, harness.planner
    group = -(1_000_000_000_000 + new_user_id())
    ivan, maria = harness.person("Иван", chat_id=group), harness.person("Мария", chat_id=group)
    marker = new_marker()
    ivan.says(f"Создай задачу в Linear: чужая кнопка {marker}")
    draft = await draft_shown(fake, group)

    tap = maria.taps(draft, "Подтвердить")
    answer = await fake.wait_for(lambda: fake.answers(tap["callback_query"]["id"]), "Maria's press answered")
    assert answer[0]["text"] == "Эта кнопка не для вас." and answer[0]["show_alert"] in (True, "true")
    assert fake.message(group, draft.message_id).buttons, "Ivan's keyboard was touched"
    drafts = await ask_planner(planner, "list_drafts", user_id=f"telegram:{ivan.user_id}")
    assert [d["status"] for d in drafts["results"]] == ["pending"]

    ivan.taps(fake.message(group, draft.message_id), "Подтвердить")
    await result_of(fake, draft, "Готово")
    assert len(await issues_with(planner, marker)) == 1
    assert await executions(planner, maria.user_id) == 0


async def test_telegram_flood_control_is_waited_out(harness: Harness) -> None:
    fake, ivan = harness.fake, harness.person()
    fake.fail_next["sendMessage"] = [
        {
            "error_code": 429,
            "description": "Too Many Requests: retry after 1",
            "parameters": {"retry_after": 1},
        }
    ]
    ivan.says("/start")
    await fake.wait_message(ivan.chat, lambda m: "Привет" in m.plain, "the greeting")
    attempts = [c for c in fake.calls if c.method == "sendMessage"]
    assert len(attempts) == 2
    assert attempts[1].at - attempts[0].at >= 0.95
    assert harness.bot.limiter.waited == [1.0]


async def test_webhook_mode_accepts_only_updates_with_the_secret(
    planner: Planner, fake: FakeTelegram
) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/tg/hook"
    config = bot_config(planner, fake.base_url, webhook_url=url, webhook_port=port)
    async with running_bot(config):
        (registered,) = fake.calls_of("setWebhook")
        assert registered["url"] == url and registered["secret_token"] == config.webhook_secret
        ivan = Person(fake, new_user_id())
        update = ivan.message_update("/start")
        async with httpx2.AsyncClient(timeout=10) as http:
            missing = await http.post(url, json=update)
            wrong = await http.post(url, json=update, headers={SECRET_HEADER: "guess"})
            right = await http.post(url, json=update, headers={SECRET_HEADER: config.webhook_secret})
        assert (missing.status_code, wrong.status_code, right.status_code) == (401, 401, 200)
        await fake.wait_message(ivan.chat, lambda m: "Привет" in m.plain, "the greeting")
        assert len(fake.calls_of("sendMessage")) == 1
    assert fake.polls == 0, "a webhook bot must not poll"


async def test_the_bot_reconnects_when_the_planner_restarts(fake: FakeTelegram, tmp_path: Path) -> None:
    port, token = free_port(), secrets.token_urlsafe(24)
    first = contextlib.ExitStack()
    planner = first.enter_context(planner_process(tmp_path, port=port, token=token))
    async with contextlib.AsyncExitStack() as stack:
        stack.callback(first.close)
        bot = await stack.enter_async_context(running_bot(bot_config(planner, fake.base_url)))
        ivan = Person(fake, new_user_id())
        ivan.says("Покажи мои задачи в Linear")
        before = await fake.wait_message(ivan.chat, lambda m: "ENG-104" in m.plain, "the first answer")
        first.close()  # the planner goes away...
        ivan.says("Покажи сделку Globex pilot")  # ...while a request is on its way
        deadline = time.monotonic() + 20
        while bot.gateway.connected:  # short polling with a deadline: the failed call breaks the session
            assert time.monotonic() < deadline, "the bot never noticed the planner was gone"
            await asyncio.sleep(0.02)
        # the same place and data; started in a thread so the bot keeps retrying meanwhile
        await asyncio.to_thread(stack.enter_context, planner_process(tmp_path, port=port, token=token))
        answer = await fake.wait_message(
            ivan.chat, lambda m: m.message_id > before.message_id, "the answer after the restart"
        )
        assert "Globex pilot" in answer.plain and "недоступен" not in answer.plain
        assert bot.gateway.connections == 2, "the broken session was not replaced"


async def test_a_confirm_button_shown_before_the_bot_restarts_still_works_after_it(
    planner: Planner, fake: FakeTelegram, tmp_path: Path
) -> None:
    config = bot_config(planner, fake.base_url, state_db=str(tmp_path / "telegram.db"))
    marker = new_marker()
    ivan = Person(fake, new_user_id())
    async with running_bot(config):
        ivan.says(f"Создай задачу в Linear: после рестарта {marker}")
        draft = await draft_shown(fake, ivan.chat)
    async with running_bot(config):  # a redeploy: a new process, the same state file
        press = fake.push(ivan.tap_update(draft, "Подтвердить"))
        await result_of(fake, draft, "Готово")
        answers = fake.answers(press["callback_query"]["id"])
    assert answers and answers[0].get("text") is None, answers  # not "this button has expired"
    assert len(await issues_with(planner, marker)) == 1
    assert await executions(planner, ivan.user_id) == 1


async def test_without_a_state_file_a_button_from_before_a_restart_answers_expired_and_runs_nothing(
    planner: Planner, fake: FakeTelegram
) -> None:
    config = bot_config(planner, fake.base_url)  # state_db=None: keys in memory only
    marker = new_marker()
    ivan = Person(fake, new_user_id())
    async with running_bot(config):
        ivan.says(f"Создай задачу в Linear: без файла {marker}")
        draft = await draft_shown(fake, ivan.chat)
    async with running_bot(config):
        press = fake.push(ivan.tap_update(draft, "Подтвердить"))
        press_id = press["callback_query"]["id"]
        await fake.wait_for(lambda: bool(fake.answers(press_id)), "the press to be answered")
    assert fake.answers(press_id)[0].get("text") == "Кнопка устарела — повторите запрос."
    assert await issues_with(planner, marker) == set()


async def test_without_a_planner_url_the_bot_spawns_the_planner_over_stdio(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    config = bot_config(None, fake.base_url, planner_env={"PLANNER_DB": str(tmp_path / "stdio.db")})
    async with running_bot(config) as bot:
        ivan = Person(fake, new_user_id())
        ivan.says("Покажи мои задачи в Linear")
        shown = await fake.wait_message(ivan.chat, lambda m: "ENG-104" in m.plain, "the answer")
        assert bot.gateway.connections == 1
    assert "Traceback" not in shown.plain


async def test_planner_mcp_telegram_runs_until_sigterm_and_logs_no_secret(
    planner: Planner, fake: FakeTelegram, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPOSIO_", "PLANNER_", "TELEGRAM_"))}
    env.update(
        TELEGRAM_BOT_TOKEN=TOKEN,
        TELEGRAM_ALLOWED_USERS="*",  # required: the bot refuses to start without an allow-list
        TELEGRAM_API_URL=fake.base_url,
        PLANNER_URL=planner.url,
        PLANNER_TOKEN=planner.token,
        LOG_LEVEL="DEBUG",  # the chattiest logs: they must still carry no token
        XDG_DATA_HOME=str(tmp_path),  # the button keys' file goes there, not into the real home
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server.cli",
        "telegram",
        cwd=ROOT,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await fake.wait_for(lambda: fake.polls > 0, "the bot to poll", timeout=30)
        ivan = Person(fake, new_user_id(), "Ivan", "en")
        ivan.says("/start")
        await fake.wait_message(
            ivan.chat, lambda m: "Nothing changes until you confirm" in m.plain, "the greeting"
        )
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
    log = err.decode(errors="replace")
    assert proc.returncode == 0, log[-2000:]
    assert "@planner_test_bot is up (long polling; planner over HTTP)" in log
    assert TOKEN not in log and planner.token not in log
    assert (tmp_path / "planner-mcp" / "telegram.db").exists()


async def test_a_typed_yes_confirms_the_draft_and_the_bot_runs_it_once(harness: Harness) -> None:
    fake, planner, ivan = harness.fake, harness.planner, harness.person()
    marker = new_marker()
    ivan.says(f"Создай задачу в Linear: {marker}")
    await draft_shown(fake, ivan.chat)
    ivan.says("да")  # the planner only confirms; the bot speaks for the person and runs it
    await fake.wait_message(ivan.chat, lambda m: "Готово" in m.plain and marker in m.plain, "the result")
    assert await executions(planner, ivan.user_id) == 1
    assert len(await issues_with(planner, marker)) == 1


async def test_a_new_request_while_a_question_is_open_is_planned_and_says_the_question_was_dropped(
    harness: Harness,
) -> None:
    fake, ivan = harness.fake, harness.person()
    ivan.says("Переведи сделку Acme в Won")  # buttons only: which deal?
    await fake.wait_message(
        ivan.chat, lambda m: "Какую сделку" in m.plain and bool(m.buttons), "the question"
    )
    ivan.says("Что по сделке с Ромашкой?")
    answered = await fake.wait_message(ivan.chat, lambda m: "Ромашка" in m.plain, "the new request's answer")
    assert "Предыдущий вопрос снят" in answered.plain
    ivan.says("Поставь блок")  # a free-text question: how long?
    await fake.wait_message(ivan.chat, lambda m: "На сколько минут" in m.plain, "the duration question")
    ivan.says("Закрой ENG-104")
    draft = await draft_shown(fake, ivan.chat)
    assert "ENG-104" in draft.plain and "Предыдущий вопрос снят" in draft.plain
