"""The Composio REST endpoints the SDK uses to connect accounts and read toolkit versions, served by
the sandbox in their real shapes (the paths and bodies of composio-client 2.0.0rc19):

    GET  /api/v3.1/connected_accounts?user_ids=a,b&toolkit_slugs=..&statuses=..&auth_config_ids=..
         -> {"items": [ConnectedAccount], "next_cursor", "total_pages", "current_page", "total_items"}
    GET  /api/v3.1/connected_accounts/{id}              -> ConnectedAccount
    POST /api/v3.1/connected_accounts/link  {"auth_config_id", "user_id", ...}
         -> 201 {"connected_account_id", "redirect_url", "link_token", "expires_at"}
    GET  /api/v3.1/auth_configs?toolkit_slug=..         -> {"items": [AuthConfig], ...}
    POST /api/v3.1/auth_configs  {"toolkit": {"slug"}, "auth_config": {"type": ...}}
         -> 201 {"toolkit": {"slug"}, "auth_config": {"id", "auth_scheme", "is_composio_managed"}}
    GET  /api/v3.1/toolkits/{slug}                      -> Toolkit, `meta.available_versions`
    GET  /link/{token}                                  the page a person opens: stands for their consent
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from html import escape
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from toolkits.sandbox_accounts import SandboxAccounts

__all__ = ["account_routes", "latest"]

Error = Callable[..., Response]
Guard = Callable[[Request], Response | None]
_NAMES = {"attio": "Attio", "linear": "Linear", "googlecalendar": "Google Calendar"}


def latest(versions: Mapping[str, Any]) -> str:
    """The newest of a toolkit's versions (YYYYMMDD_NN sorts as text)."""
    return max(versions)


def _csv(request: Request, name: str) -> list[str]:
    return [x for x in request.query_params.get(name, "").split(",") if x]


def _page(items: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "items": items,
        "next_cursor": None,
        "total_pages": 1,
        "current_page": 1,
        "total_items": len(items),
    }


async def _body(request: Request) -> dict[str, Any] | None:
    try:
        body = json.loads(await request.body() or b"{}")
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


def account_routes(
    accounts: SandboxAccounts,
    versions: Mapping[str, Mapping[str, Any]],
    prefix: str,
    error: Error,
    unauthorized: Guard,
) -> list[Route]:
    """The routes above; `error(request, status, slug, message)` answers in Composio's envelope and
    `unauthorized(request)` checks the API key."""

    async def list_accounts(request: Request) -> Response:
        if (denied := unauthorized(request)) is not None:
            return denied
        found = accounts.find(
            user_ids=_csv(request, "user_ids"),
            toolkits=_csv(request, "toolkit_slugs"),
            statuses=_csv(request, "statuses"),
            auth_config_ids=_csv(request, "auth_config_ids"),
            account_ids=_csv(request, "connected_account_ids"),
        )
        return JSONResponse(_page(found))

    async def get_account(request: Request) -> Response:
        if (denied := unauthorized(request)) is not None:
            return denied
        found = accounts.get(request.path_params["nanoid"])
        if found is None:
            return error(request, 404, "ConnectedAccount_NotFound", "Connected account not found")
        return JSONResponse(found)

    async def link(request: Request) -> Response:
        if (denied := unauthorized(request)) is not None:
            return denied
        body = await _body(request)
        if body is None or not body.get("auth_config_id") or not body.get("user_id"):
            return error(request, 400, "BAD_REQUEST", "auth_config_id and user_id are required")
        made = accounts.link(str(body["user_id"]), str(body["auth_config_id"]))
        if made is None:
            return error(request, 400, "AuthConfig_NotFound", "Auth config not found")
        account, expires = made
        base = str(request.base_url).rstrip("/")
        answer = {
            "connected_account_id": account.id,
            "redirect_url": f"{base}/link/{account.link_token}",
            "link_token": account.link_token,
            "expires_at": expires,
        }
        return JSONResponse(answer, 201)

    async def consent(request: Request) -> Response:
        account = accounts.complete(request.path_params["token"])
        if account is None:
            return HTMLResponse("<p>This link is unknown or was already used.</p>", 404)
        name = escape(_NAMES.get(account.toolkit, account.toolkit))
        user = escape(account.user_id)
        return HTMLResponse(f"<p>Sandbox: {name} connected for user {user}. You can close this tab.</p>")

    async def list_configs(request: Request) -> Response:
        if (denied := unauthorized(request)) is not None:
            return denied
        return JSONResponse(_page(accounts.auth_configs(request.query_params.get("toolkit_slug") or None)))

    async def create_config(request: Request) -> Response:
        if (denied := unauthorized(request)) is not None:
            return denied
        body = await _body(request)
        toolkit = body.get("toolkit") if body else None
        slug = toolkit.get("slug") if isinstance(toolkit, dict) else None
        if slug not in versions:
            return error(request, 400, "Toolkit_NotFound", f"Toolkit {slug!r} not found")
        config = accounts.create_auth_config(str(slug))
        answer = {
            "toolkit": {"slug": slug},
            "auth_config": {"id": config.id, "auth_scheme": "OAUTH2", "is_composio_managed": True},
        }
        return JSONResponse(answer, 201)

    async def toolkit(request: Request) -> Response:
        if (denied := unauthorized(request)) is not None:
            return denied
        slug = request.path_params["slug"]
        if slug not in versions:
            return error(request, 404, "Toolkit_NotFound", f"Toolkit {slug} not found")
        available = sorted(versions[slug])
        return JSONResponse(
            {
                "slug": slug,
                "name": _NAMES.get(slug, slug),
                "type": "native",
                "enabled": True,
                "is_local_toolkit": False,
                "composio_managed_auth_schemes": ["OAUTH2"],
                "composio_managed_auth": [],
                "auth_config_details": [],
                "deprecated": {"toolkitId": slug, "rawProxyInfoByAuthSchemes": []},
                "meta": {
                    "available_versions": available,
                    "version": latest(versions[slug]),
                    "categories": [],
                    "created_at": "2024-01-01T00:00:00Z",
                    "updated_at": "2026-01-01T00:00:00Z",
                    "description": f"{_NAMES.get(slug, slug)} (sandbox)",
                    "logo": "",
                    "tools_count": 0,
                    "triggers_count": 0,
                },
            }
        )

    return [
        Route(f"{prefix}/connected_accounts", list_accounts, methods=["GET"]),
        Route(f"{prefix}/connected_accounts/link", link, methods=["POST"]),
        Route(f"{prefix}/connected_accounts/{{nanoid}}", get_account, methods=["GET"]),
        Route(f"{prefix}/auth_configs", list_configs, methods=["GET"]),
        Route(f"{prefix}/auth_configs", create_config, methods=["POST"]),
        Route(f"{prefix}/toolkits/{{slug}}", toolkit, methods=["GET"]),
        Route("/link/{token}", consent, methods=["GET"]),
    ]
