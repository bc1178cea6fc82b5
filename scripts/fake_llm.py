"""A local stand-in for a model provider, in both wire formats, for tests and `make bench`.

`POST /v1/messages` answers like Anthropic's Messages API, `POST /v1/chat/completions` like OpenAI's
Chat Completions (streaming off). Each request takes the next scripted `Answer` (or the default one):
a tool call with given intents, JSON content, malformed JSON, a refusal, plain text, an HTTP error
with headers (429 with Retry-After), or no answer at all until the server stops (a timeout). Every
request body is kept, so a test sees exactly what was sent and how many calls were made.

Runs uvicorn in a thread on a socket it bound itself on 127.0.0.1, so it accepts connections the
moment `start()` returns (no readiness polling).

    with FakeLLM(latency_s=0.02) as llm:
        llm.script(Answer.with_intents([{"op": "update_deal", "deal": "Globex pilot", "stage": "Won"}]))
        ...  # OPENAI_BASE_URL=llm.openai_url, ANTHROPIC_BASE_URL=llm.anthropic_url
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

__all__ = ["Answer", "FakeLLM"]

Kind = Literal["intents", "content", "malformed", "refusal", "text", "status", "hang"]
TOOL = "submit_intents"


@dataclass
class Answer:
    kind: Kind
    intents: Any = None  # "intents" / "content": the value under {"intents": ...}
    text: str = ""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def with_intents(cls, intents: Any) -> Answer:
        """A well-formed tool call whose arguments are {"intents": intents}."""
        return cls("intents", intents=intents)

    @classmethod
    def error(cls, status: int, **headers: str) -> Answer:
        return cls("status", status=status, headers=headers)


def _anthropic(answer: Answer, model: str) -> Response:
    usage = {"input_tokens": 900, "output_tokens": 40}
    base: dict[str, Any] = {"id": "msg_fake", "type": "message", "role": "assistant", "model": model}
    if answer.kind == "intents":
        content = [
            {"type": "tool_use", "id": "toolu_fake", "name": TOOL, "input": {"intents": answer.intents}}
        ]
        return JSONResponse({**base, "content": content, "stop_reason": "tool_use", "usage": usage})
    if answer.kind == "content":
        text = json.dumps({"intents": answer.intents}, ensure_ascii=False)
        content = [{"type": "text", "text": text}]
        return JSONResponse({**base, "content": content, "stop_reason": "end_turn", "usage": usage})
    if answer.kind == "malformed":  # the body itself is not JSON
        return Response('{"id": "msg_fake", "content": [{"type": "tool_use", "input": {"intents": [', 200,
                        media_type="application/json")  # fmt: skip
    if answer.kind == "refusal":
        return JSONResponse({**base, "content": [], "stop_reason": "refusal", "usage": usage})
    content = [{"type": "text", "text": answer.text}]
    return JSONResponse({**base, "content": content, "stop_reason": "end_turn", "usage": usage})


def _openai(answer: Answer, model: str) -> Response:
    usage = {"prompt_tokens": 900, "completion_tokens": 40, "total_tokens": 940}
    message: dict[str, Any] = {"role": "assistant", "content": None, "refusal": None}
    finish = "stop"
    if answer.kind in ("intents", "malformed"):
        arguments = (
            json.dumps({"intents": answer.intents}, ensure_ascii=False)
            if answer.kind == "intents"
            else '{"intents": [{"op": "update_deal", "deal": "Globex'  # cut short, as models sometimes do
        )
        message["tool_calls"] = [
            {"id": "call_fake", "type": "function", "function": {"name": TOOL, "arguments": arguments}}
        ]
        finish = "tool_calls"
    elif answer.kind == "content":
        message["content"] = json.dumps({"intents": answer.intents}, ensure_ascii=False)
    elif answer.kind == "refusal":
        message["refusal"] = answer.text or "I'm sorry, I can't help with that."
    else:
        message["content"] = answer.text
    body = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1764061200,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        "usage": usage,
    }
    return JSONResponse(body)


class FakeLLM:
    def __init__(self, *, latency_s: float = 0.0, default: Answer | None = None) -> None:
        self.latency_s = latency_s
        self.default = default or Answer.error(500)
        self.requests: list[dict[str, Any]] = []  # {"path", "headers", "body"} of every request, in order
        self._script: deque[Answer] = deque()
        self._lock = threading.Lock()
        self._release: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # accepted sockets inherit it: without it, a keep-alive response waits ~40 ms for a delayed ACK
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(64)
        self.port = int(self._sock.getsockname()[1])
        app = Starlette(
            routes=[
                Route("/v1/messages", self._messages, methods=["POST"]),
                Route("/v1/chat/completions", self._completions, methods=["POST"]),
            ]
        )
        config = uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, name="fake-llm", daemon=True)

    @property
    def anthropic_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def openai_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def script(self, *answers: Answer) -> None:
        """The next answers, in order; after them, `default`."""
        with self._lock:
            self._script.extend(answers)

    @property
    def calls(self) -> int:
        return len(self.requests)

    def _run(self) -> None:
        async def serve() -> None:
            self._loop = asyncio.get_running_loop()
            self._release = asyncio.Event()
            await self._server.serve(sockets=[self._sock])

        asyncio.run(serve())

    def start(self) -> FakeLLM:
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._loop is not None and self._release is not None:
            self._loop.call_soon_threadsafe(self._release.set)  # whatever hangs, answers now
        self._server.should_exit = True
        if self._thread.ident is not None:
            self._thread.join(timeout=10)
        self._sock.close()

    def __enter__(self) -> FakeLLM:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    async def _next(self, request: Request) -> tuple[Answer, dict[str, Any]]:
        body = json.loads(await request.body())
        with self._lock:
            self.requests.append({"path": request.url.path, "headers": dict(request.headers), "body": body})
            answer = self._script.popleft() if self._script else self.default
        if self.latency_s:
            await asyncio.sleep(self.latency_s)  # the provider's fixed latency (the bench's baseline)
        if answer.kind == "hang":
            assert self._release is not None
            await self._release.wait()
        return answer, body

    async def _messages(self, request: Request) -> Response:
        answer, body = await self._next(request)
        if answer.kind == "status":
            error = {"type": "error", "error": {"type": "api_error", "message": f"fake {answer.status}"}}
            return JSONResponse(error, status_code=answer.status, headers=answer.headers)
        return _anthropic(answer, str(body.get("model")))

    async def _completions(self, request: Request) -> Response:
        answer, body = await self._next(request)
        if answer.kind == "status":
            error = {"error": {"message": f"fake {answer.status}", "type": "server_error", "code": None}}
            return JSONResponse(error, status_code=answer.status, headers=answer.headers)
        return _openai(answer, str(body.get("model")))
