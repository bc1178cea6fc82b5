"""The one reply every tool returns (DESIGN §4), and helpers that build it."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from typing import Any, Literal

from pydantic import BaseModel, Field

from drafts import Draft
from planner.models import Choice, Plan
from server.settings import Settings

__all__ = [
    "BIDI_CONTROLS",
    "Reply",
    "Status",
    "known_secrets",
    "neutralise",
    "neutralise_text",
    "redact",
    "redact_text",
]

Status = Literal[
    "answered", "needs_clarification", "draft_pending", "needs_bulk_confirmation", "confirmed", "executing",
    "executed", "partially_executed", "failed", "cancelled", "expired", "safe_fail", "dry_run",
    "not_found", "invalid",
]  # fmt: skip


class Reply(BaseModel):
    """What a tool returns. `user_message` is for the person, in their language; `plan`/`draft` carry
    the details; `results` holds data returned by reads or by execution."""

    ok: bool
    status: Status
    user_message: str | None = None
    clarifying_question: str | None = None
    question_id: str | None = Field(default=None, description="id of the open question, to pass to `pick`")
    notice: str | None = Field(
        default=None,
        description="what this message did to an earlier draft or open question of the conversation "
        "(cancelled, dropped); also the first line of user_message",
    )
    choices: list[Choice] = []
    plan: Plan | None = None
    draft: Draft | None = None
    results: list[Any] | None = None
    sandbox: bool | None = Field(
        default=None,
        description="true: the server runs on its embedded sandbox, nothing real in Attio/Linear/Calendar changes",
    )

    def text(self) -> str:
        """A short text for clients that read text content (what a tool result's text carries)."""
        from server.content import text_content

        return text_content(self)


def known_secrets(settings: Settings) -> tuple[str, ...]:
    """What must never reach a person or the audit log: the Composio key and connected accounts, the
    HTTP bearer tokens, the database URL (it may carry a password), the model provider's key. Very short
    values are skipped."""
    found = [settings.composio_api_key, settings.database_url, *settings.composio_connected_accounts.values()]
    found += [p.token for p in settings.principals]
    found.append(settings.interpreter_api_key)
    return tuple(sorted({s for s in found if s and len(s) >= 8}, key=len, reverse=True))


def redact_text(text: str, secrets: Collection[str]) -> str:
    for secret in secrets:
        text = text.replace(secret, "***")
    return text


def _scrub(value: Any, secrets: Collection[str]) -> Any:
    if isinstance(value, str):
        return redact_text(value, secrets)
    if isinstance(value, list):
        return [_scrub(v, secrets) for v in value]
    if isinstance(value, dict):
        return {_scrub(k, secrets): _scrub(v, secrets) for k, v in value.items()}
    return value


# Bidirectional controls (embeddings, overrides, isolates, marks): a name that carries one can make
# a preview read differently from what will run ("Trojan Source"), so text shown to a person has none.
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def neutralise_text(text: str) -> str:
    return BIDI_CONTROLS.sub("", text)


def neutralise(reply: Reply) -> Reply:
    """The reply without bidirectional control characters in any of its strings (DESIGN §10);
    the stored draft is unchanged, only what is shown."""
    if not BIDI_CONTROLS.search(reply.model_dump_json()):
        return reply
    return Reply.model_validate(_map_strings(reply.model_dump(mode="json"), neutralise_text))


def _map_strings(value: Any, fn: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, list):
        return [_map_strings(v, fn) for v in value]
    if isinstance(value, dict):
        return {_map_strings(k, fn): _map_strings(v, fn) for k, v in value.items()}
    return value


def redact(reply: Reply, secrets: Collection[str]) -> Reply:
    """The reply with every secret replaced by "***" wherever a backend's message carried one
    (DESIGN §10): a provider's error text is shown to the person, so it is checked on the way out."""
    if not secrets:
        return reply
    data = reply.model_dump(mode="json")
    clean = _scrub(data, secrets)
    return reply if clean == data else Reply.model_validate(clean)
