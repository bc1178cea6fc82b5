"""The draft card (MCP Apps, SEP-1865): every draft shown as a card with Confirm and Cancel.

Hosts that render MCP Apps (Claude, ChatGPT, VS Code, Goose) show a result of `plan`, `pick`,
`confirm_draft` or `execute_draft` in `ui://planner/draft-card.html`: each step with its system,
record and change, the risks, the expiry, and for a bulk draft a number field. Its buttons call two
app-only tools (`visibility: ["app"]`: hosts never offer them to the model), which take the same
confirmation path as `confirm_draft` (the counted confirmation included) and then run the draft, so
the card ends with the results and their links. A press in the card is the person's own; the model
cannot make one. Clients without Apps never see the card and keep the text flow.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Collection
from importlib import resources
from typing import Annotated, Any, TypeVar

from mcp.server.apps import Apps, client_supports_apps
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, ListToolsResult, ToolAnnotations
from pydantic import Field

from server.content import tool_result
from server.identity import Who
from server.replies import Reply, redact
from server.service import Service

__all__ = ["CARD_URI", "card_apps", "card_html", "hide_app_tools_without_apps"]

CARD_URI = "ui://planner/draft-card.html"

_Fn = TypeVar("_Fn", bound=Callable[..., Any])

DraftId = Annotated[str, Field(max_length=128, description="the draft the card shows")]


def card_html() -> str:
    """The card: one self-contained HTML file (inline CSS and script, no other origin)."""
    return resources.files("server").joinpath("draft_card.html").read_text(encoding="utf-8")


def card_apps(service: Service, who: Who, hidden: Collection[str]) -> Apps:
    apps = Apps()
    apps.add_html_resource(
        CARD_URI,
        card_html(),
        name="draft_card",
        title="Draft card",
        description="A draft as a card: steps, risks, expiry, Confirm and Cancel, then the results.",
        prefers_border=True,
    )

    def app_tool(title: str, *, destructive: bool) -> Callable[[_Fn], _Fn]:
        def register(fn: _Fn) -> _Fn:
            return apps.tool(
                resource_uri=CARD_URI,
                visibility=["app"],
                description=inspect.cleandoc(fn.__doc__ or ""),
                annotations=ToolAnnotations(
                    title=title,
                    read_only_hint=False,
                    destructive_hint=destructive,
                    idempotent_hint=True,
                    open_world_hint=destructive,
                ),
            )(fn)

        return register

    @app_tool("Confirm and run (card)", destructive=True)
    async def confirm_from_card(
        ctx: Context[Any, Any],
        draft_id: DraftId,
        confirm_count: Annotated[
            int | None, Field(ge=0, le=100000, description="bulk drafts: the number the person typed")
        ] = None,
    ) -> Annotated[CallToolResult, Reply]:
        """The card's Confirm button: the person's yes, then the draft runs (app-only)."""
        uid = who(ctx, "")
        reply = await service.confirm(uid, draft_id)  # a bulk draft now waits for its count
        if reply.status == "needs_bulk_confirmation" and confirm_count is not None:
            reply = await service.confirm(uid, draft_id, confirm_count=confirm_count)
        if reply.status == "confirmed":
            reply = await service.execute(uid, draft_id, dry_run=False)
        return tool_result(redact(reply, hidden))

    @app_tool("Cancel (card)", destructive=False)
    async def cancel_from_card(ctx: Context[Any, Any], draft_id: DraftId) -> Annotated[CallToolResult, Reply]:
        """The card's Cancel button: the draft is cancelled, nothing changes (app-only)."""
        return tool_result(redact(await service.cancel(who(ctx, ""), draft_id), hidden))

    return apps


def hide_app_tools_without_apps(mcp: MCPServer[Any]) -> None:
    """A client that did not negotiate MCP Apps has no card to press: it is not offered the card's
    buttons as tools (it would hand them to its model as two more ways to confirm)."""

    async def middleware(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        result = await call_next(ctx)
        if ctx.method != "tools/list" or client_supports_apps(ctx):
            return result
        if isinstance(result, ListToolsResult):
            shown = [t for t in result.tools if ((t.meta or {}).get("ui") or {}).get("visibility") != ["app"]]
            return result.model_copy(update={"tools": shown})
        if isinstance(result, dict) and isinstance(result.get("tools"), list):  # already on the wire
            tools = [
                t
                for t in result["tools"]
                if ((t.get("_meta") or {}).get("ui") or {}).get("visibility") != ["app"]
            ]
            return {**result, "tools": tools}
        return result

    mcp.middleware.append(middleware)
