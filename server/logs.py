"""The server's logs: one line per record on stderr, JSON (`LOG_FORMAT=json`) or text, at `LOG_LEVEL`.

Structured fields travel as `extra={...}` on a record (`tool`, `user`, `draft_id`, `status`,
`latency_ms`, ...): the JSON formatter writes them as keys, the text formatter as `key=value`.
What is logged is chosen so that it can never carry a person's words or a record's contents: tool
lines name the tool, a hash of the user, ids, the status and the latency. As a second line of
defence every record passes a filter that blanks the configured secrets (tokens, the Composio key,
the database URL), in the message, its fields and any traceback.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

__all__ = ["JsonFormatter", "RedactSecrets", "TextFormatter", "configure_logging", "user_hash"]

# What every LogRecord has; anything else on a record came in through `extra=`.
_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {
    "message",
    "asctime",
    "color_message",  # uvicorn's ANSI-coloured copy of the message
}


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in record.__dict__.items() if k not in _STANDARD and not k.startswith("_")}


class RedactSecrets(logging.Filter):
    """Blanks every secret in a record: its message, its extra fields and its traceback."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self._secrets = sorted({s for s in secrets if s and len(s) >= 6}, key=len, reverse=True)

    def _clean(self, value: Any) -> Any:
        if isinstance(value, str):
            for secret in self._secrets:
                value = value.replace(secret, "***")
            return value
        if isinstance(value, list | tuple):
            return [self._clean(v) for v in value]
        if isinstance(value, dict):
            return {k: self._clean(v) for k, v in value.items()}
        return value

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._secrets:
            return True
        record.msg = self._clean(record.getMessage())
        record.args = None
        for key, value in _fields(record).items():
            setattr(record, key, self._clean(value))
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._clean(record.exc_text)
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ts, level, logger, msg, the record's fields, and `exc` if any."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        line.update(_fields(record))
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exc"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """`time LEVEL logger: message key=value ...` (the traceback, if any, on the lines after)."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:
        head = super().formatMessage(record)
        extra = " ".join(f"{k}={_text(v)}" for k, v in _fields(record).items())
        return f"{head} {extra}" if extra else head


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value) or "-"
    return "-" if value is None else str(value)


def user_hash(user: str) -> str:
    """A stable pseudonym for a user id in logs: the same person reads the same in every line and
    every process, and the id itself is never written. Keyed with `PLANNER_LOG_SALT` when set (do
    set it: Telegram ids are small numbers, easy to guess from an unkeyed hash)."""
    salt = os.environ.get("PLANNER_LOG_SALT", "")
    digest = hmac.new(salt.encode(), user.encode(), hashlib.sha256) if salt else hashlib.sha256(user.encode())
    return digest.hexdigest()[:16]


def configure_logging(secrets: Iterable[str] = (), *, default_level: str = "INFO") -> None:
    """Route every logger (uvicorn's and the SDK's too) to one stderr handler in the chosen format.

    `LOG_FORMAT`: `json` or `text` (the default); `LOG_LEVEL`: a level name (default INFO).
    """
    fmt = os.environ.get("LOG_FORMAT", "text").strip().lower()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    handler.addFilter(RedactSecrets(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    level = os.environ.get("LOG_LEVEL", default_level).strip().upper() or default_level
    root.setLevel(level if level in logging.getLevelNamesMapping() else default_level)
    # httpx logs every request URL at INFO (a Composio call's URL is harmless, but it is noise)
    for noisy in ("httpx", "httpx2", "httpcore", "httpcore2"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, root.level))
