"""A fake Telegram Bot API and a fake speech-to-text service on 127.0.0.1, for the real python-telegram-bot.

The fake keeps what a phone would show: every message's current text and keyboard (an edit without
`reply_markup` removes the keyboard, as on Telegram), the answers to button presses, and a transcript
of the exchange. Tests act as people (`Person.says`, `Person.taps`) and wait on conditions with a
deadline; nothing sleeps to synchronise.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import itertools
import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

BOT_USER = {"id": 7000001, "is_bot": True, "first_name": "Planner", "username": "planner_test_bot"}
JSON_FIELDS = {"reply_markup", "allowed_updates", "link_preview_options", "reply_parameters", "entities"}
WAIT_S = 20.0  # an upper bound for one step of a conversation, never a synchronisation sleep


class QuietServer(uvicorn.Server):
    """uvicorn without its signal handlers: the test runner keeps Ctrl+C."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    at: float = field(default_factory=time.monotonic)


@dataclass
class Shown:
    """A message as the chat shows it now."""

    message_id: int
    chat_id: int
    text: str
    reply_markup: dict[str, Any] | None = None
    edits: int = 0

    @property
    def buttons(self) -> list[dict[str, Any]]:
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [b for row in rows for b in row]

    @property
    def plain(self) -> str:
        return plain(self.text)


def plain(text: str) -> str:
    """HTML as a phone shows it: tags gone, links shown after their text."""
    text = re.sub(
        r'<a href="([^"]+)">([^<]*)</a>', lambda m: f"{m.group(2)} ‹{html.unescape(m.group(1))}›", text
    )
    return html.unescape(re.sub(r"<[^>]+>", "", text))


class FakeTelegram:
    def __init__(self, token: str) -> None:
        self.token = token
        self.calls: list[Call] = []
        self.polls = 0
        self.shown: dict[tuple[int, int], Shown] = {}
        self.files: dict[str, bytes] = {}
        self.fail_next: dict[str, list[dict[str, Any]]] = {}
        self.transcript: list[str] = []
        self.speech_replies: list[dict[str, Any]] = []
        self.speech_requests: list[dict[str, Any]] = []
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(1)
        self._message_ids = itertools.count(100)
        self._callback_ids = itertools.count(1)
        self._changed: asyncio.Condition | None = None
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None
        self.base_url = ""

    # ---- lifecycle ------------------------------------------------------------------------------
    async def start(self, port: int) -> str:
        self._changed = asyncio.Condition()
        app = Starlette(
            routes=[
                Route("/bot{token}/{method}", self._api, methods=["GET", "POST"]),
                Route("/file/bot{token}/{path:path}", self._file, methods=["GET"]),
                Route("/voice-command", self._speech, methods=["POST"]),
            ]
        )
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
        self._server = QuietServer(config)
        self._task = asyncio.create_task(self._server.serve())
        deadline = time.monotonic() + WAIT_S
        while not self._server.started:
            assert not self._task.done() and time.monotonic() < deadline, "fake Bot API did not start"
            await asyncio.sleep(0.01)
        self.base_url = f"http://127.0.0.1:{port}"
        return self.base_url

    async def stop(self) -> None:
        if self._server is not None and self._task is not None:
            self._server.should_exit = True
            await self._task

    async def _notify(self) -> None:
        assert self._changed is not None
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, predicate: Callable[[], Any], what: str, timeout: float = WAIT_S) -> Any:
        """Wait until `predicate()` is truthy (re-checked on every Bot API call); returns its value."""
        assert self._changed is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        async with self._changed:
            while not (value := predicate()):
                remaining = deadline - loop.time()
                if remaining <= 0:
                    tail = "\n".join(self.transcript[-12:])
                    raise AssertionError(f"timed out waiting for {what}; the chat so far:\n{tail}")
                try:
                    await asyncio.wait_for(self._changed.wait(), remaining)
                except TimeoutError:
                    pass
            return value

    # ---- what the bot did -----------------------------------------------------------------------
    def calls_of(self, method: str) -> list[dict[str, Any]]:
        return [c.params for c in self.calls if c.method == method]

    def messages(self, chat_id: int) -> list[Shown]:
        return [m for (chat, _), m in sorted(self.shown.items(), key=lambda kv: kv[0][1]) if chat == chat_id]

    def message(self, chat_id: int, message_id: int) -> Shown:
        return self.shown[(chat_id, message_id)]

    async def wait_message(self, chat_id: int, predicate: Callable[[Shown], bool], what: str) -> Shown:
        def find() -> Shown | None:
            return next((m for m in reversed(self.messages(chat_id)) if predicate(m)), None)

        found: Shown = await self.wait_for(find, what)
        return found

    def answers(self, callback_query_id: str) -> list[dict[str, Any]]:
        return [
            p for p in self.calls_of("answerCallbackQuery") if p.get("callback_query_id") == callback_query_id
        ]

    # ---- people -----------------------------------------------------------------------------------
    def push(self, update: dict[str, Any]) -> dict[str, Any]:
        """Deliver an update (as is: pushing the same dict again is a re-delivery)."""
        if "update_id" not in update:
            update = {"update_id": next(self._update_ids), **update}
        self._updates.append(update)
        asyncio.get_running_loop().create_task(self._notify())
        return update

    def new_message_id(self) -> int:
        return next(self._message_ids)

    def new_callback_id(self) -> str:
        return f"{8_000_000_000_000 + next(self._callback_ids)}"

    # ---- the Bot API --------------------------------------------------------------------------------
    async def _params(self, request: Request) -> dict[str, Any]:
        params: dict[str, Any] = dict(request.query_params)
        if request.method == "POST":
            if request.headers.get("content-type", "").startswith("application/json"):
                params.update(await request.json())
            else:
                form = await request.form()
                params.update({k: v for k, v in form.items() if isinstance(v, str)})
        for key in JSON_FIELDS & params.keys():
            if isinstance(params[key], str):
                params[key] = json.loads(params[key])
        return params

    async def _api(self, request: Request) -> Response:
        if request.path_params["token"] != self.token:
            return JSONResponse(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}, status_code=401
            )
        method = request.path_params["method"]
        params = await self._params(request)
        if method == "getUpdates":
            self.polls += 1
        else:
            self.calls.append(Call(method, params))
        failures = self.fail_next.get(method)
        if failures:
            error = failures.pop(0)
            await self._notify()
            return JSONResponse({"ok": False, **error}, status_code=error["error_code"])
        result = await self._result(method, params)
        await self._notify()
        return JSONResponse({"ok": True, "result": result})

    async def _result(self, method: str, p: dict[str, Any]) -> Any:
        if method == "getMe":
            return BOT_USER
        if method == "getUpdates":
            return await self._get_updates(p)
        if method == "sendMessage":
            shown = Shown(self.new_message_id(), int(p["chat_id"]), p["text"], p.get("reply_markup"))
            self.shown[(shown.chat_id, shown.message_id)] = shown
            self._log("🤖", shown.text, shown.reply_markup)
            return self._message_json(shown)
        if method in ("editMessageText", "editMessageReplyMarkup"):
            shown = self.shown[(int(p["chat_id"]), int(p["message_id"]))]
            if method == "editMessageText":
                shown.text = p["text"]
            shown.reply_markup = p.get("reply_markup")  # absent: the keyboard goes away
            shown.edits += 1
            if method == "editMessageText":
                self._log("🤖 ✎", shown.text, shown.reply_markup)
            elif shown.reply_markup is None:
                self.transcript.append("🤖 ✎ (the old keyboard is removed)")
            return self._message_json(shown)
        if method == "answerCallbackQuery":
            if p.get("text"):
                self.transcript.append(f"🤖 (popup) {p['text']}")
            return True
        if method == "getFile":
            file_id = p["file_id"]
            return {
                "file_id": file_id,
                "file_unique_id": f"u-{file_id}",
                "file_size": len(self.files.get(file_id, b"")),
                "file_path": f"voice/{file_id}.oga",
            }
        return True  # deleteWebhook, setWebhook, sendChatAction

    async def _get_updates(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        offset = int(p.get("offset") or 0)
        self._updates = [u for u in self._updates if u["update_id"] >= offset]  # confirmed ones go
        if not self._updates and float(p.get("timeout") or 0) > 0:
            assert self._changed is not None
            async with self._changed:
                try:
                    await asyncio.wait_for(self._changed.wait(), min(float(p["timeout"]), 1.0))
                except TimeoutError:
                    pass
        return list(self._updates)

    def _message_json(self, shown: Shown) -> dict[str, Any]:
        data: dict[str, Any] = {
            "message_id": shown.message_id,
            "date": int(time.time()),
            "chat": {
                "id": shown.chat_id,
                "type": "private" if shown.chat_id > 0 else "group",
                "title": "team",
            },
            "from": BOT_USER,
            "text": shown.text,
        }
        if shown.reply_markup:
            data["reply_markup"] = shown.reply_markup
        return data

    def _log(self, who: str, text: str, markup: dict[str, Any] | None) -> None:
        lines = plain(text).splitlines() or [""]
        self.transcript.append(f"{who} {lines[0]}")
        self.transcript.extend(f"     {line}" if line else "" for line in lines[1:])
        for row in (markup or {}).get("inline_keyboard") or []:
            self.transcript.append("     " + " ".join(f"[{b['text']}]" for b in row))

    async def _file(self, request: Request) -> Response:
        path = request.path_params["path"]
        self.calls.append(Call("FILE", {"path": path}))
        file_id = path.rsplit("/", 1)[-1].removesuffix(".oga")
        await self._notify()
        if file_id not in self.files:
            return Response(status_code=404)
        return Response(self.files[file_id], media_type="audio/ogg")

    # ---- speech to text -----------------------------------------------------------------------------
    async def _speech(self, request: Request) -> Response:
        form = await request.form()
        upload = form.get("file")
        audio = await upload.read() if isinstance(upload, UploadFile) else b""
        self.speech_requests.append(
            {
                "audio": audio,
                "filename": upload.filename if isinstance(upload, UploadFile) else None,
                "form": {k: v for k, v in form.items() if isinstance(v, str)},
                "timezone": request.headers.get("x-timezone"),
            }
        )
        reply = self.speech_replies.pop(0) if self.speech_replies else {"transcript": "", "confidence": 0.0}
        await self._notify()
        return JSONResponse(reply)


@dataclass
class Person:
    """Someone writing to the bot: in a private chat (chat id = user id) or in a group."""

    fake: FakeTelegram
    user_id: int
    first_name: str = "Иван"
    language_code: str = "ru"
    chat_id: int | None = None

    @property
    def chat(self) -> int:
        return self.chat_id if self.chat_id is not None else self.user_id

    def _user(self) -> dict[str, Any]:
        return {
            "id": self.user_id,
            "is_bot": False,
            "first_name": self.first_name,
            "language_code": self.language_code,
        }

    def _chat(self) -> dict[str, Any]:
        if self.chat_id is None:
            return {"id": self.user_id, "type": "private", "first_name": self.first_name}
        return {"id": self.chat_id, "type": "group", "title": "team"}

    def says(self, text: str) -> dict[str, Any]:
        self.fake.transcript.extend(["", f"👤 {self.first_name}: {text}"])
        return self.fake.push(self.message_update(text))

    def message_update(self, text: str) -> dict[str, Any]:
        """A text message from this person as an update (not delivered)."""
        message: dict[str, Any] = {
            "message_id": self.fake.new_message_id(),
            "date": int(time.time()),
            "chat": self._chat(),
            "from": self._user(),
            "text": text,
        }
        if text.startswith("/"):
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
        return {"update_id": next(self.fake._update_ids), "message": message}

    def speaks(self, audio: bytes, *, duration: int = 3) -> dict[str, Any]:
        file_id = f"voice-{self.fake.new_message_id()}"
        self.fake.files[file_id] = audio
        self.fake.transcript.extend(["", f"👤 {self.first_name}: 🎤 voice message, {duration} s"])
        message = {
            "message_id": self.fake.new_message_id(),
            "date": int(time.time()),
            "chat": self._chat(),
            "from": self._user(),
            "voice": {
                "file_id": file_id,
                "file_unique_id": f"u-{file_id}",
                "duration": duration,
                "mime_type": "audio/ogg",
                "file_size": len(audio),
            },
        }
        return self.fake.push({"message": message})

    def tap_update(self, shown: Shown, label: str, *, callback_query_id: str | None = None) -> dict[str, Any]:
        """The update a press on the button whose text contains `label` produces (not delivered yet)."""
        button = next((b for b in shown.buttons if label in b["text"]), None)
        assert button is not None, f"no button {label!r} on: {shown.plain!r} {shown.buttons}"
        return {
            "update_id": next(self.fake._update_ids),
            "callback_query": {
                "id": callback_query_id or self.fake.new_callback_id(),
                "from": self._user(),
                "chat_instance": f"ci-{shown.chat_id}",
                "data": button["callback_data"],
                "message": self.fake._message_json(shown),
            },
        }

    def taps(self, shown: Shown, label: str) -> dict[str, Any]:
        update = self.tap_update(shown, label)
        self.fake.transcript.append(f"👆 {self.first_name} taps [{_label(shown, label)}]")
        return self.fake.push(update)


def _label(shown: Shown, part: str) -> str:
    return next(b["text"] for b in shown.buttons if part in b["text"])
