"""Speech to text through the ML gateway's `/voice-command` (seed 001): audio in, transcript and confidence out.

The request is a multipart upload (`file`, plus `language` and `source`), with `X-Timezone` as the
Telegram adapter of seed 000 sends it. The answer is read leniently, because gateways differ in
shape: a flat `{transcript|text, confidence, rejected}` or seed 001's envelope
`{text: {raw|normalized|transcript}, command: {confidence, rejected}}`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import httpx2

__all__ = ["SpeechError", "SpeechToText", "Transcript", "parse_transcript"]

log = logging.getLogger("bot.speech")


class SpeechError(RuntimeError):
    """The speech service failed or answered without a transcript."""


@dataclass(frozen=True)
class Transcript:
    text: str
    confidence: float | None
    rejected: bool = False


def _confidence(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return min(1.0, max(0.0, float(value)))


def parse_transcript(data: Any) -> Transcript:
    """The transcript in any of the shapes above.

    Raises:
        SpeechError: no transcript in the answer.
    """
    if not isinstance(data, dict):
        raise SpeechError("the speech service answered with no object")
    text_part = data.get("text")
    raw_command = data.get("command")
    command: dict[str, Any] = raw_command if isinstance(raw_command, dict) else {}
    if isinstance(data.get("transcript"), str):
        text = data["transcript"]
    elif isinstance(text_part, str):
        text = text_part
    elif isinstance(text_part, dict):
        text = next(
            (
                text_part[k]
                for k in ("raw", "transcript", "normalized", "text")
                if isinstance(text_part.get(k), str)
            ),
            "",
        )
    else:
        text = ""
    confidence = _confidence(data.get("confidence"))
    if confidence is None:
        confidence = _confidence(command.get("confidence"))
    if confidence is None and isinstance(text_part, dict):
        confidence = _confidence(text_part.get("confidence"))
    rejected = bool(data.get("rejected") or command.get("rejected"))
    if not text.strip() and not rejected:
        raise SpeechError("the speech service returned no transcript")
    return Transcript(text.strip()[:4000], confidence, rejected)


class SpeechToText:
    def __init__(self, url: str, *, token: str | None = None, timeout_s: float = 60.0) -> None:
        self._url = url
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = httpx2.AsyncClient(headers=headers, timeout=timeout_s)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def transcribe(
        self, audio: bytes, *, filename: str, mime_type: str, language: str, timezone: str
    ) -> Transcript:
        """Raises:
        SpeechError: the service is unreachable, failed, or returned no transcript."""
        try:
            response = await self._http.post(
                self._url,
                files={"file": (filename, audio, mime_type)},
                data={"language": language, "source": "telegram_voice"},
                headers={"X-Timezone": timezone},
            )
        except httpx2.HTTPError as exc:
            raise SpeechError(f"speech service unreachable ({type(exc).__name__})") from exc
        if response.status_code >= 400:
            raise SpeechError(f"speech service answered HTTP {response.status_code}")
        try:
            data = response.json()
        except ValueError as exc:
            raise SpeechError("speech service answered with no JSON") from exc
        return parse_transcript(data)
