"""The planner's side of the port: build the request, make the one call, count and log it.

Nothing here decides what the answer means: the planner validates the intents (seed 002) and
applies the thresholds (seed 001) exactly as for a client's model.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from planner.interpreter.port import Interpreted, Interpreter, InterpretRequest, Vocabulary
from planner.interpreter.prompt import fit, prompt_tokens
from toolkits import metrics

if TYPE_CHECKING:
    from planner.context import BuildContext
    from planner.directory import Directory, Entity

__all__ = ["PROVIDERS", "build_interpreter", "consult", "count", "request_for", "vocabulary"]

log = logging.getLogger("planner.interpreter")
PROVIDERS = ("anthropic", "openai")


def build_interpreter(
    provider: str, model: str, *, timeout_s: float, api_key: str | None = None, base_url: str | None = None
) -> Interpreter:
    """The adapter for `provider`; its SDK is imported on the first call, not here.

    Raises:
        ValueError: `provider` is not one of PROVIDERS.
    """
    if provider == "anthropic":
        from planner.interpreter.anthropic_adapter import AnthropicInterpreter

        return AnthropicInterpreter(model, timeout_s=timeout_s, api_key=api_key, base_url=base_url)
    if provider == "openai":
        from planner.interpreter.openai_adapter import OpenAIInterpreter

        return OpenAIInterpreter(model, timeout_s=timeout_s, api_key=api_key, base_url=base_url)
    raise ValueError(f"unknown interpreter provider {provider!r} (allowed: {', '.join(PROVIDERS)})")


async def _names(
    load: Callable[[], Awaitable[list[Entity]]], show: Callable[[Entity], str]
) -> tuple[str, ...]:
    try:
        return tuple(dict.fromkeys(show(e) for e in await load() if e.name))
    except Exception:  # the vocabulary is a hint: a list that cannot be read is left out
        log.warning("interpreter vocabulary: a list could not be read", exc_info=True)
        return ()


async def vocabulary(directory: Directory, config: dict[str, Any]) -> Vocabulary:
    """Names only (stages, teams, labels, projects, templates): never a record's contents."""

    def team(e: Entity) -> str:
        key = str(e.extra.get("key") or "")
        return f"{key} ({e.name})" if key and key != e.name else e.name

    return Vocabulary(
        stages=await _names(directory.stages, lambda e: e.name),
        teams=await _names(directory.teams, team),
        labels=await _names(directory.labels, lambda e: e.name),
        projects=await _names(directory.projects, lambda e: e.name),
        templates=tuple(str(t) for t in (config.get("templates") or {})),
    )


async def request_for(text: str, ctx: BuildContext) -> InterpretRequest:
    """What the model is told about this request (see the README: exactly this is sent)."""
    asked = ctx.conversation.get("open_question") or {}
    return InterpretRequest(
        text=text,
        language=ctx.lang,
        now=ctx.now,
        timezone=ctx.tz,
        vocabulary=await vocabulary(ctx.directory, ctx.config),
        question=str(asked["question"]) if asked.get("question") else None,
        shown=tuple(
            str(row.get("identifier"))
            for row in ctx.conversation.get("last_list") or ()
            if isinstance(row, dict) and row.get("identifier")
        ),
    )


async def consult(interpreter: Interpreter, request: InterpretRequest) -> Interpreted:
    """The one model call of this request (or none, when the prompt would be over budget)."""
    fitted = fit(request)
    if fitted is None:
        return Interpreted("skipped", detail=f"prompt over budget (~{prompt_tokens(request)} tokens)")
    got = await interpreter.interpret(fitted)
    if got.outcome == "ok" and not got.intents:
        got.outcome, got.intents = "abstained", None
    if got.input_tokens is None:
        got.input_tokens = prompt_tokens(fitted)  # the provider did not say: our approximation
    return got


def count(interpreter: Interpreter, got: Interpreted, outcome: str) -> None:
    """One metric and one log line per request that consulted the model; never the words."""
    metrics.interpreter_call(interpreter.provider, outcome)
    log.info(
        "interpreter %s/%s: %s%s in %.0f ms, tokens in %s out %s",
        interpreter.provider,
        interpreter.model,
        outcome,
        f" ({got.detail})" if got.detail else "",
        got.seconds * 1000,
        got.input_tokens if got.input_tokens is not None else "-",
        got.output_tokens if got.output_tokens is not None else "-",
    )
