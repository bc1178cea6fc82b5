"""The interpreter port: what the planner hands a model and what comes back (DESIGN §8).

The request carries the person's words and only what helps read them: the open question, the
identifiers of the list shown last, the workspace's vocabulary (stage, team, label, project and
template names), `now`, the timezone and the language. Never record contents: no deal amounts,
no people, no issue titles, no notes.

What comes back is raw and untrusted: `Interpreted.intents` is whatever list the model produced,
and the planner validates it like any model output (seed 002) before anything uses it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol

__all__ = ["InterpretRequest", "Interpreted", "Interpreter", "Outcome", "Vocabulary"]

Outcome = Literal["ok", "abstained", "refused", "invalid", "timeout", "error", "skipped"]
"""`ok`: a list of intents came back (not yet validated); `abstained`: an empty list (the model could
not tell, as the prompt asks it to say); `refused`: the model declined; `invalid`:
no usable `{"intents": [...]}` in the answer; `timeout` / `error`: the provider did not answer in
time or failed (after the SDK's own bounded retries); `skipped`: not asked (the prompt would be
over its budget)."""


@dataclass(frozen=True)
class Vocabulary:
    """Names that exist in the workspace, so the model can use the person's words for them."""

    stages: tuple[str, ...] = ()
    teams: tuple[str, ...] = ()  # "ENG (Engineering)"
    labels: tuple[str, ...] = ()
    projects: tuple[str, ...] = ()
    templates: tuple[str, ...] = ()


@dataclass(frozen=True)
class InterpretRequest:
    text: str
    language: str  # "ru" | "en"
    now: datetime  # aware, in `timezone`
    timezone: str
    vocabulary: Vocabulary = field(default_factory=Vocabulary)
    # the question left open in this conversation, if any: its words only, never its choices (their
    # labels describe records: a deal's stage and amount)
    question: str | None = None
    shown: tuple[str, ...] = ()  # identifiers of the list shown last ("the second one")


@dataclass
class Interpreted:
    outcome: Outcome
    intents: list[Any] | None = None  # raw: validated by the planner, never trusted here
    detail: str = ""  # for the server's log (an HTTP status, an exception type); never shown to a person
    seconds: float = 0.0
    input_tokens: int | None = None  # as the provider counted them, when it says
    output_tokens: int | None = None


class Interpreter(Protocol):
    """Turns a person's words into `{"intents": [...]}` through one model call.

    Implementations never raise for provider trouble: a timeout, an HTTP error, a refusal or an
    answer without usable intents comes back as an `Interpreted` with that outcome, within the
    configured timeout.
    """

    provider: str
    model: str

    async def interpret(self, request: InterpretRequest) -> Interpreted: ...

    async def aclose(self) -> None: ...
