"""The port every backend implements, and the typed action that travels from plan to execution.

A backend executes Composio tool slugs with Composio's argument and result shapes:
`execute(slug, arguments) -> {"data": ..., "error": str | None, "successful": bool}`.
Two ship with the package: `sandbox` (the embedded workspace) and `composio` (the real SDK).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, TypedDict, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Backend", "ToolAction", "ToolResult"]


class ToolResult(TypedDict):
    data: Any
    error: str | None
    successful: bool


class ToolAction(BaseModel):
    """One Composio tool call of a plan (seed 003 field names, plus `operation` and `depends_on`).

    `args` may contain the placeholder string ``"$ref:<index>.<path>"`` where the value comes from the
    result of an earlier action (`depends_on` names it); the executor substitutes it.
    """

    model_config = ConfigDict(extra="forbid")

    toolkit: str
    tool_slug: str
    operation: str
    args: dict[str, Any]
    read_only: bool
    idempotency_scope: str
    preview: str
    depends_on: int | None = Field(
        default=None, description="index of an earlier action whose result this one uses"
    )
    supersedes: str | None = Field(
        default=None,
        description="the scope of an earlier attempt whose outcome stayed unknown, sent again at the person's word",
    )


@runtime_checkable
class Backend(Protocol):
    """Executes Composio tool slugs. Never raises for tool-level failures: they come back as
    `successful: False`. Raises `toolkits.errors.ToolkitError` subclasses for transport problems
    and for arguments that do not fit the tool's input schema (`InvalidArguments`)."""

    name: str

    async def execute(self, slug: str, arguments: Mapping[str, Any]) -> ToolResult: ...

    async def aclose(self) -> None: ...
