"""The bot for a team, end to end (the real python-telegram-bot, the fake Bot API, the real planner):
only the allow-list gets through, each person has a rate, and the command menu works — /start,
/help, /drafts, /cancel, /tz (kept across a restart)."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from bot_harness import (
    TOKEN,
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
from telegram_fakes import FakeTelegram, Person, Shown

from bot.access_list import AllowList
from bot.config import BotConfig

pytestmark = [pytest.mark.slow, pytest.mark.anyio]

TEAM_CHAT = -1009876543210


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


def person(fake: FakeTelegram, name: str, chat_id: int | None = None, username: str | None = None) -> Person:
    someone = Person(fake, new_user_id(), name, "ru", chat_id)
    if username:  # the fake's people have no username unless given one
        original = someone._user

        def with_username() -> dict[str, object]:
            return {**original(), "username": username}

        someone._user = with_username  # type: ignore[method-assign]
    return someone


async def audit_rows(planner: Planner, someone: Person) -> list[dict[str, object]]:
    reply = await ask_planner(planner, "read_audit_log", user_id=f"telegram:{someone.user_id}")
    return list(reply["results"])


async def reply_to(fake: FakeTelegram, chat: int, word: str) -> Shown:
    return await fake.wait_message(chat, lambda m: word in m.plain, f"a message saying {word!r}")


def config_for(planner: Planner, fake: FakeTelegram, **overrides: object) -> BotConfig:
    return replace(bot_config(planner, fake.base_url), **overrides)  # type: ignore[arg-type]


async def test_strangers_get_one_polite_refusal_and_nothing_reaches_the_planner(
    planner: Planner, fake: FakeTelegram
) -> None:
    ivan = person(fake, "Иван", chat_id=TEAM_CHAT)
    anna = person(fake, "Анна", username="Anna_K")
    stranger = person(fake, "Чужой", chat_id=TEAM_CHAT)
    marker = new_marker()
    allowed = AllowList(ids=frozenset({ivan.user_id}), usernames=frozenset({"anna_k"}))
    async with running_bot(config_for(planner, fake, allowed=allowed)):
        stranger.says("Переведи сделку Globex pilot в Won")
        stranger.says("/drafts")
        ivan.says(f"Создай задачу в ENG: {marker}")  # same chat: handled after the stranger's two
        draft = await fake.wait_message(
            TEAM_CHAT, lambda m: marker in m.plain and bool(m.buttons), "the draft"
        )
        anna.says("Что по сделке Globex pilot?")  # admitted by her @username, in a private chat
        await reply_to(fake, anna.chat, "Globex")

        refusals = [m for m in fake.messages(TEAM_CHAT) if "только для своей команды" in m.plain]
        assert len(refusals) == 1, [m.plain for m in fake.messages(TEAM_CHAT)]
        assert str(stranger.user_id) in refusals[0].plain  # what to ask the admin for

        # The stranger presses Ivan's Confirm: the press is answered (no endless spinner), not obeyed.
        tap = stranger.taps(draft, "Подтвердить")
        await fake.wait_for(lambda: fake.answers(tap["callback_query"]["id"]), "the press to be answered")

    assert fake.message(TEAM_CHAT, draft.message_id).buttons, "the stranger's press touched Ivan's draft"
    assert await audit_rows(planner, stranger) == []
    assert await issues_with(planner, marker) == set()
    assert len(await audit_rows(planner, ivan)) == 1
    assert len(await audit_rows(planner, anna)) == 1


async def test_everyone_in_an_allowed_group_may_use_the_bot_there_but_not_in_private(
    planner: Planner, fake: FakeTelegram
) -> None:
    teammate = person(fake, "Олег", chat_id=TEAM_CHAT)
    alone = Person(fake, teammate.user_id, "Олег", "ru")  # the same person in a private chat
    async with running_bot(config_for(planner, fake, allowed=AllowList(ids=frozenset({TEAM_CHAT})))):
        alone.says("Что по сделке Globex pilot?")
        await reply_to(fake, alone.chat, "только для своей команды")
        teammate.says("@planner_test_bot что по сделке Globex pilot?")
        await reply_to(fake, TEAM_CHAT, "Globex")

    rows = await audit_rows(planner, teammate)
    assert [r["input_message"] for r in rows] == ["что по сделке Globex pilot?"]  # the mention is gone


async def test_a_person_over_the_rate_limit_is_told_once_and_the_excess_never_reaches_the_planner(
    planner: Planner, fake: FakeTelegram
) -> None:
    ivan = person(fake, "Иван", chat_id=TEAM_CHAT)
    olga = person(fake, "Ольга", chat_id=TEAM_CHAT)
    async with running_bot(config_for(planner, fake, rate_per_window=2, rate_window_s=3600)):
        for _ in range(4):
            ivan.says("Что по сделке Globex pilot?")
        olga.says("Что по сделке Globex pilot?")  # same chat: handled after all four of Ivan's
        await fake.wait_for(
            lambda: len([m for m in fake.messages(TEAM_CHAT) if "Globex" in m.plain]) >= 3, "three answers"
        )

    texts = [m.plain for m in fake.messages(TEAM_CHAT)]
    assert len([t for t in texts if "Слишком много запросов" in t]) == 1, texts
    assert len(await audit_rows(planner, ivan)) == 2
    assert len(await audit_rows(planner, olga)) == 1  # one person's limit is not another's


async def test_the_command_menu_is_set_and_start_and_help_say_what_it_can_do(
    planner: Planner, fake: FakeTelegram
) -> None:
    ivan = person(fake, "Иван")
    async with running_bot(config_for(planner, fake)):
        ivan.says("/help")
        shown = await reply_to(fake, ivan.chat, "/drafts")
        ivan.says("/start")
        await reply_to(fake, ivan.chat, "Привет")

    menus = fake.calls_of("setMyCommands")
    assert len(menus) == 2
    for menu in menus:
        commands = json.loads(menu["commands"])  # a form field: nested values arrive JSON-encoded
        assert [c["command"] for c in commands] == ["start", "help", "drafts", "cancel", "tz"]
        assert all(c["description"] for c in commands)
    assert {m.get("language_code") for m in menus} == {None, "ru"}
    assert "Переведи сделку" in shown.plain and "/tz" in shown.plain and "Подтвердить" in shown.plain


async def test_drafts_lists_what_waits_for_a_yes_with_buttons_and_cancel_cancels_it(
    planner: Planner, fake: FakeTelegram
) -> None:
    ivan = person(fake, "Иван")
    first, second = new_marker(), new_marker()
    async with running_bot(config_for(planner, fake)):
        ivan.says("/drafts")
        await reply_to(fake, ivan.chat, "Черновиков, ждущих подтверждения, нет")
        ivan.says(f"Создай задачу в ENG: {first}")
        await fake.wait_message(ivan.chat, lambda m: "Черновик" in m.plain and bool(m.buttons), "the draft")

        ivan.says("/drafts")
        listed = await fake.wait_message(
            ivan.chat, lambda m: "Изменений: 1" in m.plain and bool(m.buttons), "the listed draft"
        )
        ivan.taps(listed, "Подтвердить")
        await fake.wait_message(
            ivan.chat, lambda m: m.message_id == listed.message_id and "Готово" in m.plain, "the result"
        )
        assert len(await issues_with(planner, first)) == 1

        ivan.says(f"Создай задачу в ENG: {second}")
        await fake.wait_message(
            ivan.chat, lambda m: second in m.plain and "Черновик" in m.plain, "the second draft"
        )
        ivan.says("/cancel")
        await reply_to(fake, ivan.chat, "Отменено черновиков: 1")

    drafts = await ask_planner(
        planner, "list_drafts", user_id=f"telegram:{ivan.user_id}", include_finished=True
    )
    assert sorted(d["status"] for d in drafts["results"]) == ["cancelled", "executed"]
    assert await issues_with(planner, second) == set()
    assert await executions(planner, ivan.user_id) == 1


async def test_a_person_sets_their_time_zone_and_it_holds_after_a_restart(
    planner: Planner, fake: FakeTelegram, tmp_path: Path
) -> None:
    ivan = person(fake, "Иван")
    config = config_for(planner, fake, state_db=str(tmp_path / "telegram.db"))
    async with running_bot(config):
        ivan.says("/tz mars/olympus")
        await reply_to(fake, ivan.chat, "Не знаю часового пояса")
        ivan.says("/tz asia/tokyo")
        await reply_to(fake, ivan.chat, "Ваш часовой пояс: Asia/Tokyo")

    async with running_bot(config):  # a restart: the choice is read back from TELEGRAM_STATE_DB
        last = fake.messages(ivan.chat)[-1].message_id
        ivan.says("/tz")
        shown = await fake.wait_message(
            ivan.chat,
            lambda m: m.message_id > last and "Ваш часовой пояс" in m.plain,
            "the zone after restart",
        )
        assert "Asia/Tokyo" in shown.plain
        ivan.says("Поставь блок завтра в 9 на час")
        draft = await fake.wait_message(
            ivan.chat, lambda m: m.message_id > last and "Черновик" in m.plain, "the calendar draft"
        )

    assert "09:00" in draft.plain, draft.plain
    # the planner was asked in Tokyo's time: the event it would create starts at 9:00+09:00
    user = f"telegram:{ivan.user_id}"
    (waiting,) = (await ask_planner(planner, "list_drafts", user_id=user))["results"]
    await ask_planner(planner, "confirm_draft", user_id=user, draft_id=waiting["id"])
    preview = await ask_planner(planner, "execute_draft", user_id=user, draft_id=waiting["id"], dry_run=True)
    assert "T09:00:00+09:00" in json.dumps(preview["results"]), preview["results"]
