"""`planner-mcp demo` end to end: a real stdio server, every scripted step as expected."""

from __future__ import annotations

import pytest

from server.demo import run_demo


@pytest.mark.slow
def test_demo_conversation_goes_as_scripted(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_demo() == 0
    out = capsys.readouterr().out
    for line in (
        "person  › Что по сделке с Ромашкой?",
        "• Ромашка — внедрение — Предложение",
        "1. Attio: сделка «Globex pilot»: Переговоры → Выиграна",
        "? Which deal do you mean?",
        "1. Attio: deal 'Acme Corp — annual license': Qualification → Negotiation — done",
        "? На сколько минут поставить блок?",
        "person  › завтра в 10:00",
        "1. Календарь: «Блок»",
        "? That is 7 changes at once. To confirm, type the number of changes: 7.",
        "Выполнено:",
        "Dry run: nothing changed.",
        "The draft was cancelled.",
        "• Globex pilot — Won",
        "replies were as expected",
    ):
        assert line in out, line
