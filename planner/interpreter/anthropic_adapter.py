"""The interpreter on Anthropic's Messages API, through the official `anthropic` SDK.

Tool use: one tool whose `input_schema` is `{"intents": [...]}`, forced with `tool_choice`, so the
answer is a `tool_use` block holding the intents. Streaming is off. The SDK is imported on the
first call, never at start-up (it takes a while, and most servers never configure a model). Its
own settings apply: `ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`; its bounded retries (429 with
Retry-After, 5xx, connection errors) run inside this adapter's timeout.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Any

import anyio

from planner.interpreter.port import Interpreted, InterpretRequest, Outcome
from planner.interpreter.prompt import (
    SYSTEM,
    TOOL_DESCRIPTION,
    TOOL_NAME,
    intents_from,
    tool_schema,
    user_message,
)

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic

__all__ = ["AnthropicInterpreter"]

_MAX_TOKENS = 1024  # twenty intents fit in far fewer; a runaway answer is cut here


class AnthropicInterpreter:
    provider = "anthropic"

    def __init__(
        self,
        model: str,
        *,
        timeout_s: float,
        api_key: str | None = None,
        base_url: str | None = None,
        max_retries: int = 2,
    ) -> None:
        self.model = model
        self._timeout_s = timeout_s
        self._api_key = api_key
        self._base_url = base_url
        self._max_retries = max_retries
        self._client: AsyncAnthropic | None = None
        self._building = threading.Lock()

    def _sdk(self) -> AsyncAnthropic:
        with self._building:  # two first calls at once build one client
            if self._client is None:
                import anthropic

                self._client = anthropic.AsyncAnthropic(
                    api_key=self._api_key,
                    base_url=self._base_url,  # None: the SDK reads ANTHROPIC_BASE_URL
                    timeout=self._timeout_s,
                    max_retries=self._max_retries,
                )
            return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            client, self._client = self._client, None
            await client.close()

    async def interpret(self, request: InterpretRequest) -> Interpreted:
        try:  # the first call imports the SDK (~0.5-1 s): in a thread, so other requests go on
            client = self._client if self._client is not None else await anyio.to_thread.run_sync(self._sdk)
        except Exception as exc:  # e.g. conflicting credentials: said in the log, the rules answer
            return Interpreted("error", detail=f"client not built: {type(exc).__name__}")
        import anthropic

        started = time.perf_counter()
        try:
            with anyio.fail_after(self._timeout_s):  # the SDK's retries included
                message = await client.messages.create(
                    model=self.model,
                    max_tokens=_MAX_TOKENS,
                    system=SYSTEM,
                    messages=[{"role": "user", "content": user_message(request)}],
                    tools=[
                        {"name": TOOL_NAME, "description": TOOL_DESCRIPTION, "input_schema": tool_schema()}
                    ],
                    tool_choice={"type": "tool", "name": TOOL_NAME},
                )
        except (TimeoutError, anthropic.APITimeoutError):
            return Interpreted("timeout", seconds=time.perf_counter() - started)
        except anthropic.APIStatusError as exc:
            return Interpreted(
                "error", detail=f"HTTP {exc.status_code}", seconds=time.perf_counter() - started
            )
        except anthropic.APIConnectionError:
            return Interpreted("error", detail="connection", seconds=time.perf_counter() - started)
        except Exception as exc:  # an answer the SDK could not read (not JSON, wrong shape)
            return Interpreted("invalid", detail=type(exc).__name__, seconds=time.perf_counter() - started)
        return _read(message, time.perf_counter() - started)


def _read(message: Any, seconds: float) -> Interpreted:
    usage = getattr(message, "usage", None)

    def said(outcome: Outcome, intents: list[Any] | None = None, detail: str = "") -> Interpreted:
        return Interpreted(
            outcome,
            intents,
            detail,
            seconds,
            input_tokens=getattr(usage, "input_tokens", None),
            output_tokens=getattr(usage, "output_tokens", None),
        )

    if message.stop_reason == "refusal":
        return said("refused", detail="stop_reason refusal")
    text = []
    for block in message.content or []:
        kind = getattr(block, "type", None)
        if kind == "tool_use" and getattr(block, "name", None) == TOOL_NAME:
            found = intents_from(block.input)
            if found is None:
                return said("invalid", detail="tool input without intents")
            return said("ok", found)
        if kind == "text":
            text.append(str(getattr(block, "text", "")))
    found = intents_from("".join(text)) if text else None  # a proxy that answered in JSON text
    if found is not None:
        return said("ok", found)
    return said("invalid", detail=f"no {TOOL_NAME} call")
