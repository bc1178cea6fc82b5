"""The bot's settings, read once from the environment (documented in the README's "Telegram" section).

Secrets (the bot token, the planner's bearer token, the webhook secret, the speech service's token)
are kept out of `repr`, so a settings object can be logged without leaking them.
"""

from __future__ import annotations

import os
import secrets
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.access_list import AllowList, AllowListError

__all__ = ["BotConfig", "ConfigError"]

# Seed 001: below 0.40 the voice is not acted on; below 0.75 the transcript is confirmed first.
REJECT_BELOW = 0.40
CONFIRM_BELOW = 0.75

# The child planner (stdio) gets only what configures the planner itself: never the bot's secrets.
_CHILD_ENV_PREFIXES = ("PLANNER_", "COMPOSIO_")
_CHILD_ENV_NAMES = ("APP_TIMEZONE", "LOG_LEVEL", "XDG_DATA_HOME")
_BOT_ONLY = {"PLANNER_URL", "PLANNER_TOKEN", "PLANNER_COMMAND"}


class ConfigError(ValueError):
    """A setting is missing or malformed; the message names the variable, never its value."""


@dataclass(frozen=True)
class BotConfig:
    telegram_token: str = field(repr=False)
    planner_url: str | None = None  # Streamable HTTP endpoint (…/mcp); None spawns the planner over stdio
    planner_token: str | None = field(default=None, repr=False)
    planner_command: tuple[str, ...] = ()  # stdio only; default: this interpreter running `server.cli serve`
    planner_env: Mapping[str, str] = field(default_factory=dict, repr=False)
    timezone: str = "Europe/Moscow"
    speech_url: str | None = None  # the ML gateway's /voice-command
    speech_token: str | None = field(default=None, repr=False)
    voice_reject_below: float = REJECT_BELOW
    voice_confirm_below: float = CONFIRM_BELOW
    api_url: str = "https://api.telegram.org"  # a local Bot API server, or a fake one in tests
    webhook_url: str | None = None  # set -> webhook mode, else long polling
    webhook_secret: str = field(default_factory=lambda: secrets.token_urlsafe(24), repr=False)
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = 8443
    call_timeout_s: float = 120.0
    planner_concurrency: int = 8
    poll_timeout_s: float = 30.0
    max_retry_after_s: float = 60.0
    state_db: str | None = None  # the buttons' keys on disk, so they outlive a restart; None: memory only
    # who may use the bot (TELEGRAM_ALLOWED_USERS); from the environment it must be set, `*` for anyone
    allowed: AllowList = field(default_factory=lambda: AllowList(everyone=True))
    rate_per_window: int = 20  # requests (messages and presses) per person per window
    rate_window_s: float = 60.0

    def __post_init__(self) -> None:
        if not self.telegram_token:
            raise ConfigError("TELEGRAM_BOT_TOKEN is not set (create a bot with @BotFather)")
        if self.planner_url and not self.planner_token:
            raise ConfigError("PLANNER_TOKEN is not set: the planner's delegating HTTP token")
        try:
            ZoneInfo(self.timezone)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ConfigError(f"APP_TIMEZONE is not an IANA zone: {self.timezone[:40]!r}") from exc
        if not 0 <= self.voice_reject_below <= self.voice_confirm_below <= 1:
            raise ConfigError("voice thresholds must satisfy 0 <= reject <= confirm <= 1")

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def stdio_command(self) -> tuple[str, ...]:
        return self.planner_command or (sys.executable, "-m", "server.cli", "serve")

    def secrets(self) -> list[str]:
        """Every secret value, for the log filter that redacts them."""
        values = [self.telegram_token, self.planner_token, self.speech_token, self.webhook_secret]
        return [v for v in values if v]

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> BotConfig:
        env = os.environ if env is None else env

        def get(name: str) -> str | None:
            value = env.get(name, "").strip()
            return value or None

        def number(name: str, default: float) -> float:
            raw = get(name)
            try:
                return float(raw) if raw is not None else default
            except ValueError as exc:
                raise ConfigError(f"{name} must be a number") from exc

        listen = get("TELEGRAM_WEBHOOK_LISTEN") or "127.0.0.1:8443"
        host, _, port = listen.rpartition(":")
        if not host or not port.isdecimal():
            raise ConfigError("TELEGRAM_WEBHOOK_LISTEN must look like HOST:PORT")
        child_env = {
            k: v
            for k, v in env.items()
            if (k.startswith(_CHILD_ENV_PREFIXES) or k in _CHILD_ENV_NAMES) and k not in _BOT_ONLY
        }
        try:
            allowed = AllowList.parse(get("TELEGRAM_ALLOWED_USERS") or "")
        except AllowListError as exc:
            raise ConfigError(f"TELEGRAM_ALLOWED_USERS: {exc}") from exc
        rate = get("TELEGRAM_RATE_LIMIT") or "20/60"
        per, _, window = rate.partition("/")
        try:
            per_window, window_s = int(per), float(window or 60)
        except ValueError as exc:
            raise ConfigError("TELEGRAM_RATE_LIMIT must look like 20/60 (requests per seconds)") from exc
        if per_window < 1 or window_s <= 0:
            raise ConfigError("TELEGRAM_RATE_LIMIT must look like 20/60 (requests per seconds)")
        command = get("PLANNER_COMMAND")
        state_db = get("TELEGRAM_STATE_DB") or str(_data_home(env) / "planner-mcp" / "telegram.db")
        config = cls(
            telegram_token=get("TELEGRAM_BOT_TOKEN") or "",
            planner_url=get("PLANNER_URL"),
            planner_token=get("PLANNER_TOKEN"),
            planner_command=tuple(shlex.split(command)) if command else (),
            planner_env=child_env,
            timezone=get("APP_TIMEZONE") or "Europe/Moscow",
            speech_url=get("VOICE_COMMAND_URL"),
            speech_token=get("VOICE_COMMAND_TOKEN"),
            voice_reject_below=number("VOICE_REJECT_BELOW", REJECT_BELOW),
            voice_confirm_below=number("VOICE_CONFIRM_BELOW", CONFIRM_BELOW),
            api_url=(get("TELEGRAM_API_URL") or "https://api.telegram.org").rstrip("/"),
            webhook_url=get("TELEGRAM_WEBHOOK_URL"),
            webhook_secret=get("TELEGRAM_WEBHOOK_SECRET") or secrets.token_urlsafe(24),
            webhook_listen=host.strip("[]"),
            webhook_port=int(port),
            state_db=None if state_db == ":memory:" else state_db,
            allowed=allowed or AllowList(everyone=True),
            rate_per_window=per_window,
            rate_window_s=window_s,
        )
        if not allowed:  # checked last, so a missing token is still reported first
            raise ConfigError(
                "TELEGRAM_ALLOWED_USERS is not set: list who may use the bot (Telegram ids, @usernames,"
                " group chat ids), or * for anyone"
            )
        return config


def _data_home(env: Mapping[str, str]) -> Path:
    return Path(env.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
