"""The interpreter on any OpenAI-compatible Chat Completions server, through the official `openai` SDK.

OpenAI itself, or vLLM, Ollama, OpenRouter, LM Studio, a model of your own (`OPENAI_BASE_URL`), so
the words never have to leave the house. One function tool whose parameters are `{"intents": [...]}`,
named in `tool_choice`; servers that ignore tools and answer with JSON content of that shape are
read too. Streaming is off. The SDK is imported on the first call, never at start-up. Its own
settings apply: `OPENAI_API_KEY`, `OPENAI_BASE_URL`; its bounded retries (429 with Retry-After,
5xx, connection errors) run inside this adapter's timeout.
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
    from openai import AsyncOpenAI

__all__ = ["OpenAIInterpreter"]

# A local server (Ollama, vLLM) wants no key, but the SDK refuses to start without one.
_NO_KEY = "unused-by-local-servers"


class OpenAIInterpreter:
    provider = "openai"

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
        self._client: AsyncOpenAI | None = None
        self._building = threading.Lock()

    def _sdk(self) -> AsyncOpenAI:
        with self._building:  # two first calls at once build one client
            if self._client is None:
                import openai

                self._client = openai.AsyncOpenAI(
                    api_key=self._api_key or (_NO_KEY if self._base_url else None),
                    base_url=self._base_url,  # None: the SDK reads OPENAI_BASE_URL
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
        except Exception as exc:  # no key and no base URL: said in the log, the rules answer
            return Interpreted("error", detail=f"client not built: {type(exc).__name__}")
        import openai

        started = time.perf_counter()
        try:
            with anyio.fail_after(self._timeout_s):  # the SDK's retries included
                completion = await client.chat.completions.create(
                    model=self.model,
                    messages=[
                        {"role": "system", "content": SYSTEM},
                        {"role": "user", "content": user_message(request)},
                    ],
                    tools=[
                        {
                            "type": "function",
                            "function": {
                                "name": TOOL_NAME,
                                "description": TOOL_DESCRIPTION,
                                "parameters": tool_schema(),
                            },
                        }
                    ],
                    tool_choice={"type": "function", "function": {"name": TOOL_NAME}},
                    stream=False,
                )
        except (TimeoutError, openai.APITimeoutError):
            return Interpreted("timeout", seconds=time.perf_counter() - started)
        except openai.APIStatusError as exc:
            return Interpreted(
                "error", detail=f"HTTP {exc.status_code}", seconds=time.perf_counter() - started
            )
        except openai.APIConnectionError:
            return Interpreted("error", detail="connection", seconds=time.perf_counter() - started)
        except Exception as exc:  # an answer the SDK could not read (not JSON, wrong shape)
            return Interpreted("invalid", detail=type(exc).__name__, seconds=time.perf_counter() - started)
        return _read(completion, time.perf_counter() - started)


def _read(completion: Any, seconds: float) -> Interpreted:
    usage = getattr(completion, "usage", None)

    def said(outcome: Outcome, intents: list[Any] | None = None, detail: str = "") -> Interpreted:
        return Interpreted(
            outcome,
            intents,
            detail,
            seconds,
            input_tokens=getattr(usage, "prompt_tokens", None),
            output_tokens=getattr(usage, "completion_tokens", None),
        )

    choices = getattr(completion, "choices", None) or []
    if not choices:
        return said("invalid", detail="no choices")
    choice = choices[0]
    message = choice.message
    if getattr(message, "refusal", None) or choice.finish_reason == "content_filter":
        return said("refused", detail="refusal")
    for call in getattr(message, "tool_calls", None) or []:
        function = getattr(call, "function", None)
        if function is not None and function.name == TOOL_NAME:
            found = intents_from(function.arguments)  # a JSON string, malformed more often than one hopes
            if found is None:
                return said("invalid", detail="arguments without intents")
            return said("ok", found)
    found = intents_from(message.content) if message.content else None
    if found is not None:  # a server without tool support answered with JSON content
        return said("ok", found)
    return said("invalid", detail=f"no {TOOL_NAME} call")
