"""Property tests: whatever a person (or an upstream model) sends, `plan` answers with a valid reply
and never changes anything — writes happen only through a confirmed Draft's execution."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REF_NOW
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.replies import Reply
from server.service import Service
from server.settings import Settings
from server.wiring import build_service

VOCAB = (
    "создай задачу заведи баг переведи сделку в стадию Won Lost переговоры удали закрой архивируй "
    "прокомментируй назначь на Олега срок завтра в пятницу в 14:00 на 60 минут поставь блок встреча созвон "
    "Ромашка Ромашкой Альфа-Лизингу Globex Acme Initech Иван Петров Марии Соколовой ENG-101 CS-12 DES-7 ENG-999 "
    "create issue move deal to Won delete archive comment on assign to Max due next Tuesday at 4pm for 45 minutes "
    "note: remind me follow up онбординг onboarding renewal продление в Linear in Jira Q1 Launch team DES "
    "покажи what's left show my issues да нет yes no 25k USD hooli.xyz ivan@x.ru : , ; и and # 1 first последнюю "
    "сделку deal 300 тысяч рублей $20,000 40 000 долларов 1.5 12 при 7 с 16 до 17 2026-12-01 01.12 «кавычки» 'quoted'"
).split()

texts = st.one_of(
    st.text(max_size=4000),
    st.lists(st.sampled_from(VOCAB), min_size=1, max_size=40).map(" ".join),
    st.lists(st.sampled_from(VOCAB), min_size=1, max_size=12).map(" ".join).map(lambda s: (s + " ") * 30),
)
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=50))
commands = st.fixed_dictionaries(
    {
        "intent": st.one_of(
            st.sampled_from(["task_create", "timeblock_create", "create_event", "delete_all"]), scalars
        ),
        "confidence": st.one_of(st.floats(min_value=0, max_value=1), scalars),
    },
    optional={
        "entities": st.one_of(
            st.dictionaries(
                st.sampled_from(["title", "start_at", "end_at", "duration_minutes", "planned_at", "x"]),
                st.one_of(scalars, st.sampled_from(["2026-11-26T10:00:00+03:00", "  ", "45"])),
            ),
            scalars,
        ),
        "rejected": scalars,
        "task_ref": st.fixed_dictionaries(
            {"candidates": st.lists(st.fixed_dictionaries({"id": st.text(max_size=8)}))}
        ),
    },
)


@pytest.fixture(scope="module")
def runner() -> Iterator[asyncio.Runner]:
    with asyncio.Runner() as r:
        yield r


@pytest.fixture(scope="module")
def svc(runner: asyncio.Runner, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    path: Path = tmp_path_factory.mktemp("props") / "planner.db"
    service = build_service(Settings(db_path=path))
    yield service
    runner.run(service.backend.aclose())
    runner.run(service.store.close())


def _plan(runner: asyncio.Runner, svc: Service, **args: Any) -> Reply:
    base: dict[str, Any] = {
        "text": None,
        "command": None,
        "voice": None,
        "language": None,
        "now": REF_NOW,
        "timezone": None,
        "conversation_id": "props",
    }
    return runner.run(svc.plan("props", **(base | args)))


def _assert_safe(reply: Reply, svc: Service) -> None:
    Reply.model_validate(reply.model_dump(mode="json"))  # the wire shape holds
    assert reply.status in {
        "answered",
        "needs_clarification",
        "draft_pending",
        "safe_fail",
        "invalid",  # arguments the service refuses (an empty text, a malformed command), naming the field
        "not_found",
        "cancelled",
        "confirmed",
        "executed",
        "needs_bulk_confirmation",
        "failed",
    }
    if reply.status == "needs_clarification":
        assert reply.clarifying_question and reply.plan is not None and reply.plan.actions == []
        assert all(len(c.value.encode()) <= 64 for c in reply.choices)
    if reply.status == "draft_pending":
        assert reply.draft is not None and reply.draft.status == "pending"
    assert svc.backend.write_calls == []  # type: ignore[attr-defined]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts)
def test_any_text_gets_a_valid_reply_and_changes_nothing(
    runner: asyncio.Runner, svc: Service, text: str
) -> None:
    reply = _plan(runner, svc, text=text, conversation_id=None)
    _assert_safe(reply, svc)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=commands)
def test_any_command_gets_a_valid_reply_and_changes_nothing(
    runner: asyncio.Runner, svc: Service, command: dict[str, Any]
) -> None:
    _assert_safe(_plan(runner, svc, command=command, conversation_id=None), svc)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=texts, answers=st.lists(st.one_of(st.sampled_from(VOCAB), st.text(max_size=30)), max_size=4))
def test_answering_questions_never_writes_either(
    runner: asyncio.Runner, svc: Service, first: str, answers: list[str]
) -> None:
    reply = _plan(runner, svc, text=first, conversation_id=None)
    for answer in answers:
        _assert_safe(reply, svc)
        if reply.status != "needs_clarification" or reply.plan is None:
            break
        value = reply.choices[0].value if reply.choices and not answer else None
        reply = runner.run(
            svc.pick(
                "props",
                plan_id=reply.plan.plan_id,
                question_id=reply.question_id or "",
                value=value,
                text=answer or None,
            )
        )
    _assert_safe(reply, svc)
