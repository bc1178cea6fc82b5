"""`planner-mcp chat`: a conversation in the terminal through the real MCP client."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REF_NOW, ROOT
from mcp import Client

from server.chat import converse
from server.service import Service

pytestmark = pytest.mark.anyio


async def talk(client: Client, *lines: str) -> str:
    said: list[str] = []
    errors = await converse(client, list(lines), said.append, user="anna", now=REF_NOW)
    assert errors == 0, said
    return "\n".join(said)


def writes(service: Service) -> list[object]:
    return list(service.backend.write_calls)  # type: ignore[attr-defined]


async def test_a_numbered_choice_then_yes_runs_the_draft_once(client: Client, service: Service) -> None:
    said = await talk(client, "Переведи сделку Acme в Won", "1", "да", "да")
    assert "❓ Какую сделку" in said
    assert "1) Acme Corp — annual license" in said and "2) Acme Logistics" in said
    assert "📝 Черновик — ничего не изменено" in said
    assert "✅ Выполнено" in said and "Квалификация → Выиграна" in said
    assert len(writes(service)) == 1  # the second "да" has no draft to run


async def test_an_answer_in_words_goes_to_the_question_and_no_changes_nothing(
    client: Client, service: Service
) -> None:
    said = await talk(client, "Move the Acme deal to Won", "logistics", "no")
    assert "Acme Logistics — pilot" in said and "✖" in said
    assert writes(service) == []


async def test_a_bulk_draft_runs_only_after_the_typed_count(client: Client, service: Service) -> None:
    said = await talk(
        client, "Create issues in DES for: intro, consent, avatar, invite, plan, import, tour", "yes"
    )
    assert "type the number of changes: 7" in said and writes(service) == []
    said = await talk(client, "Create issues in DES for: a1, a2, a3, a4, a5, a6", "yes", "6")
    assert "✅ Done" in said and len(writes(service)) == 6


async def test_drafts_and_quit_are_commands_not_requests(client: Client, service: Service) -> None:
    said = await talk(client, "Удали ENG-102", "/drafts", "/quit", "да")
    assert "ждёт подтверждения, до" in said and "архивировать ENG-102" in said
    assert writes(service) == []  # "да" came after /quit


async def test_drafts_are_listed_in_the_language_the_person_speaks(client: Client) -> None:
    said = await talk(client, "Покажи ENG-101", "/drafts")
    assert "Открытых черновиков нет." in said and "No open drafts" not in said


@pytest.mark.slow
def test_planner_mcp_chat_reads_standard_input_and_runs_what_was_confirmed(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPOSIO_", "PLANNER_"))}
    env["PLANNER_DB"] = str(tmp_path / "planner.db")
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "chat", "--now", REF_NOW],
        input="Создай задачу в Linear: проверить чат\nда\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "📝 Черновик" in done.stdout and "✅ Выполнено" in done.stdout, done.stdout
    assert "проверить чат" in done.stdout and "Traceback" not in done.stderr
