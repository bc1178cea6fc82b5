"""The sandbox workspace served in Composio's REST shape, so the real `composio` SDK runs against it.

Routes (DESIGN §8; wire format in notes/composio.md §1):
    GET  /api/v3.1/tools/{slug}          the tool's schema (ToolRetrieveResponse)
    GET  /api/v3.1/tools?tool_slugs=A,B  the same, as a list page
    POST /api/v3.1/tools/execute/{slug}  {"arguments", "user_id", "version", ...} -> {"data", "error",
                                         "successful", "log_id", "session_info"}
    POST /_faults                        test-only fault injection (see `HttpFault`)
    connected accounts, auth configs, toolkits and the link page: `toolkits.sandbox_api_accounts`

As on Composio, a tool-level failure (including arguments that do not fit the input schema) is an
HTTP 200 with `successful: false`; HTTP errors carry Composio's envelope
`{"error": {"message", "code", "slug", "status", "request_id"}}`. As strict as Composio, a tool call
runs only for a user id with an ACTIVE connected account of the tool's toolkit (or the account named,
if it is that user's): otherwise HTTP 400 with Composio's code (`toolkits.sandbox_accounts`).

Versions: by default each toolkit has one version, the pinned one (`toolkits.registry.versions()`);
`versions` can serve others instead (a retired pin, for `planner-mcp doctor`), each with its own
schema overrides. A requested version that is not served is refused rather than silently served
with the wrong schema; none (or "latest") gets the newest.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import json
import logging
import os
import socket
import threading
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from toolkits.errors import InvalidArguments, OutcomeUnknown, UnknownTool, UpstreamUnavailable
from toolkits.registry import versions as pinned_versions
from toolkits.sandbox import READ_SLUGS, SandboxBackend
from toolkits.sandbox_accounts import SandboxAccounts
from toolkits.sandbox_api_accounts import account_routes, latest
from toolkits.sandbox_api_faults import HttpFault, HttpFaults
from toolkits.schemas import known_slugs, tool_schema, toolkit_of, validate_arguments

__all__ = [
    "API_PREFIX",
    "HttpFault",
    "HttpFaults",
    "SandboxAccounts",
    "Versions",
    "build_app",
    "run_in_thread",
    "serve",
]

Versions = Mapping[str, Mapping[str, Mapping[str, Any]]]
"""toolkit -> version -> {slug: input_parameters served at that version instead of the snapshot's}"""

logger = logging.getLogger(__name__)

API_PREFIX = "/api/v3.1"
_TOOLKIT_NAMES = {"attio": "Attio", "linear": "Linear", "googlecalendar": "Google Calendar"}
_OUTPUT_PARAMETERS = {
    "type": "object",
    "properties": {
        "data": {"type": "object", "description": "Data from the action execution"},
        "error": {"type": ["string", "null"], "description": "Error if any occurred during the execution"},
        "successful": {
            "type": "boolean",
            "description": "Whether or not the action execution was successful",
        },
    },
    "required": ["data", "successful"],
}


@functools.cache
def _descriptions() -> dict[str, str]:
    text = resources.files("toolkits").joinpath("data/composio_tools.json").read_text(encoding="utf-8")
    return {slug: str(tool.get("description", "")) for slug, tool in json.loads(text)["tools"].items()}


def _tags(slug: str) -> list[str]:
    if slug in READ_SLUGS:
        return ["readOnlyHint", "idempotentHint"]
    if "DELETE" in slug:
        return ["destructiveHint"]
    return ["createHint"] if "CREATE" in slug or "ASSERT" in slug else ["updateHint"]


def _tool_json(slug: str, version: str, available: list[str], overrides: Mapping[str, Any]) -> dict[str, Any]:
    toolkit = toolkit_of(slug)
    words = slug.removeprefix(toolkit.upper() + "_").replace("_", " ").lower()
    return {
        "slug": slug,
        "name": words[:1].upper() + words[1:],
        "description": _descriptions().get(slug, ""),
        "version": version,
        "available_versions": available,
        "toolkit": {"slug": toolkit, "name": _TOOLKIT_NAMES.get(toolkit, toolkit), "logo": ""},
        "input_parameters": overrides.get(slug) or tool_schema(slug),
        "output_parameters": _OUTPUT_PARAMETERS,
        "tags": _tags(slug),
        "scopes": [],
        "no_auth": False,
        "is_deprecated": False,
    }


def _requested_version(request: Request, toolkit: str) -> str | None:
    """The version the client asked for (`toolkit_versions[linear]=..` or `toolkit_versions=..`)."""
    query = request.query_params
    return query.get(f"toolkit_versions[{toolkit}]") or query.get("toolkit_versions") or query.get("version")


class _Api:
    """The handlers; one instance per app, holding the backend, the faults and the request log."""

    def __init__(
        self,
        backend: SandboxBackend,
        api_key: str | None,
        faults: HttpFaults,
        accounts: SandboxAccounts,
        served: Versions,
    ) -> None:
        self.backend = backend
        self.api_key = api_key
        self.faults = faults
        self.accounts = accounts
        self.versions = served
        # what each request asked for, without secrets: tests check user ids, versions, accounts;
        # bounded, so a long-running `planner-mcp sandbox-api` does not grow without end
        self.requests: deque[dict[str, Any]] = deque(maxlen=10_000)

    # --- helpers --------------------------------------------------------------------------------

    def _error(
        self,
        request: Request,
        status: int,
        slug: str | None,
        message: str,
        headers: Mapping[str, str] | None = None,
        *,
        code: int | None = None,
        suggested_fix: str | None = None,
    ) -> Response:
        request_id = request.headers.get("x-request-id") or uuid.uuid4().hex
        inner: dict[str, Any] = {"message": message, "code": code or status}
        if slug is not None:  # some of Composio's answers carry none (code 1803)
            inner["slug"] = slug
        inner |= {"status": status, "request_id": request_id}
        if suggested_fix is not None:
            inner["suggested_fix"] = suggested_fix
        return JSONResponse({"error": inner}, status, headers={"x-request-id": request_id, **(headers or {})})

    def _unauthorized(self, request: Request) -> Response | None:
        key = request.headers.get("x-api-key", "").strip()
        if key and (self.api_key is None or hmac.compare_digest(key.encode(), self.api_key.encode())):
            return None
        return self._error(request, 401, "UNAUTHORIZED", "API key is missing or invalid")

    def _version_problem(self, toolkit: str, asked: str | None) -> str | None:
        served = self.versions[toolkit]
        if asked in (None, "", "latest") or asked in served:
            return None
        return (
            f"Version {asked} of toolkit {toolkit} is not available; available: {', '.join(sorted(served))}"
        )

    def _tool(self, slug: str, asked: str | None) -> dict[str, Any]:
        toolkit = toolkit_of(slug)
        served = self.versions[toolkit]
        version = asked if asked in served else latest(served)
        return _tool_json(slug, str(version), sorted(served), served[str(version)])

    async def _inject_status(self, request: Request, slug: str, route: str) -> Response | None:
        delay = self.faults.latency(slug, route)
        if delay > 0:
            await asyncio.sleep(delay)
        fault = self.faults.take(slug, route, "status")
        if fault is None:
            return None
        headers = {} if fault.retry_after is None else {"retry-after": f"{fault.retry_after:g}"}
        names = {429: "RATE_LIMITED", 408: "REQUEST_TIMEOUT", 503: "SERVICE_UNAVAILABLE"}
        slug_name = names.get(fault.status, "INTERNAL_SERVER_ERROR" if fault.status >= 500 else "BAD_REQUEST")
        message = "Rate limit exceeded" if fault.status == 429 else f"Injected HTTP {fault.status}"
        if fault.code is not None or fault.suggested_fix is not None:  # a refusal spelled out by the test
            message = fault.message
        return self._error(
            request,
            fault.status,
            slug_name,
            message,
            headers,
            code=fault.code,
            suggested_fix=fault.suggested_fix,
        )

    # --- routes ---------------------------------------------------------------------------------

    async def retrieve(self, request: Request) -> Response:
        slug = request.path_params["slug"]
        if (denied := self._unauthorized(request)) is not None:
            return denied
        self.requests.append(
            {"route": "retrieve", "slug": slug, "request_id": request.headers.get("x-request-id")}
        )
        if slug not in known_slugs():
            return self._error(request, 404, "TOOL_NOT_FOUND", f"Tool {slug} not found")
        toolkit = toolkit_of(slug)
        if problem := self._version_problem(toolkit, _requested_version(request, toolkit)):
            return self._error(request, 404, "TOOL_NOT_FOUND", problem)
        if (injected := await self._inject_status(request, slug, "retrieve")) is not None:
            return injected
        return JSONResponse(self._tool(slug, _requested_version(request, toolkit)))

    async def list_tools(self, request: Request) -> Response:
        if (denied := self._unauthorized(request)) is not None:
            return denied
        wanted = [s for s in request.query_params.get("tool_slugs", "").split(",") if s]
        toolkits = {s for s in request.query_params.get("toolkit_slug", "").split(",") if s}
        slugs = wanted or sorted(s for s in known_slugs() if not toolkits or toolkit_of(s) in toolkits)
        items = []
        for slug in slugs:
            if slug not in known_slugs():
                continue
            toolkit = toolkit_of(slug)
            asked = _requested_version(request, toolkit)
            if self._version_problem(toolkit, asked) is None:
                items.append(self._tool(slug, asked))
        return JSONResponse({"items": items, "next_cursor": None, "total_pages": 1, "current_page": 1})

    async def execute(self, request: Request) -> Response:
        slug = request.path_params["slug"]
        if (denied := self._unauthorized(request)) is not None:
            return denied
        try:
            body = json.loads(await request.body() or b"{}")
        except ValueError:
            body = None
        if not isinstance(body, dict) or not isinstance(body.get("arguments", {}), dict):
            return self._error(
                request, 400, "BAD_REQUEST", "The body must be a JSON object with object arguments"
            )
        self.requests.append(
            {
                "route": "execute",
                "slug": slug,
                **{k: body.get(k) for k in ("user_id", "version", "connected_account_id")},
                "request_id": request.headers.get("x-request-id"),
            }
        )
        if slug not in known_slugs():
            return self._error(request, 404, "TOOL_NOT_FOUND", f"Tool {slug} not found")
        if problem := self._version_problem(toolkit_of(slug), body.get("version")):
            return self._error(request, 400, "BAD_REQUEST", problem)
        refused = self.accounts.check(body.get("user_id"), body.get("connected_account_id"), toolkit_of(slug))
        if refused is not None:
            return self._error(
                request,
                400,
                refused.slug,
                refused.message,
                code=refused.code,
                suggested_fix=refused.suggested_fix,
            )
        if (injected := await self._inject_status(request, slug, "execute")) is not None:
            return injected
        if self.faults.take(slug, "execute", "drop_before_write") is not None:
            return _DropConnection()
        if (tool_error := self.faults.take(slug, "execute", "tool_error")) is not None:
            return self._result(slug, {"data": {}, "error": tool_error.message, "successful": False})
        try:
            result = await self._run(slug, body.get("arguments") or {})
        except OutcomeUnknown:  # from the backend's own FaultPlan: the client cannot know either
            return _DropConnection()
        except UpstreamUnavailable as exc:  # the same, "nothing applied": a 429 or a 503
            retry = {} if exc.retry_after is None else {"retry-after": f"{exc.retry_after:g}"}
            status, name = (
                (429, "RATE_LIMITED") if exc.retry_after is not None else (503, "SERVICE_UNAVAILABLE")
            )
            return self._error(request, status, name, str(exc), retry)
        if (hold := self.faults.take(slug, "execute", "timeout_after_write")) is not None:
            if hold.drop:
                return _DropConnection()
            await _hold(request, hold.seconds)
        return self._result(slug, result)

    def _result(self, slug: str, result: dict[str, Any]) -> Response:
        logger.info("sandbox api: %s successful=%s", slug, result["successful"])  # no arguments: data
        return JSONResponse({**result, "log_id": f"log_{uuid.uuid4().hex[:12]}", "session_info": None})

    async def _run(self, slug: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The call's result envelope.

        Raises:
            UpstreamUnavailable, OutcomeUnknown: faults injected into the backend itself.
        """
        problems = validate_arguments(slug, arguments)
        if problems:
            # Composio refuses arguments that do not fit as a tool-level failure (HTTP 200)
            return {"data": {}, "error": _validation_message(problems), "successful": False}
        try:
            return dict(await self.backend.execute_wire(slug, arguments))
        except InvalidArguments as exc:
            return {"data": {}, "error": _validation_message(exc.problems), "successful": False}
        except UnknownTool as exc:
            return {"data": {}, "error": str(exc), "successful": False}

    async def set_faults(self, request: Request) -> Response:
        if (denied := self._unauthorized(request)) is not None:
            return denied
        try:
            body = json.loads(await request.body() or b"{}")
            if not isinstance(body, dict):
                raise ValueError("the body must be a JSON object")
            faults = [HttpFault.from_json(item) for item in body.get("faults", [])]
        except (ValueError, TypeError) as exc:
            return self._error(request, 400, "BAD_REQUEST", f"bad fault specification: {exc}")
        if body.get("clear"):
            self.faults.clear()
        self.faults.add(*faults)
        return JSONResponse({"faults": self.faults.describe()})


def _validation_message(problems: list[str]) -> str:
    return "Tool input validation error: " + "; ".join(problems)


async def _hold(request: Request, seconds: float) -> None:
    """Wait `seconds`, or less if the client disconnects first (so shutdown is not held up)."""

    async def disconnected() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(disconnected(), seconds)


class _DropConnection(Response):
    """Starts a response and never finishes it: the server closes the connection mid-response,
    which the client sees as a dropped connection (it cannot know whether the call was applied)."""

    def __init__(self) -> None:
        super().__init__(status_code=200)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"application/json"), (b"content-length", b"1024")],
            }
        )


async def _not_found(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    body = {"error": {"message": "Not found", "code": status, "slug": "NOT_FOUND", "status": status}}
    return JSONResponse(body, status)


def build_app(
    backend: SandboxBackend,
    *,
    api_key: str | None = None,
    faults: HttpFaults | None = None,
    accounts: SandboxAccounts | None = None,
    versions: Versions | None = None,
) -> Starlette:
    """The ASGI app serving `backend` in Composio's REST shape.

    `api_key`: the only key accepted in `x-api-key` (None: any non-empty key). `faults`: shared
    with the caller for injection (also reachable as `app.state.faults`); `app.state.requests` logs
    what each request asked for, without secrets. `accounts`: the project's connected accounts
    (default: user "default" connected to every toolkit; `app.state.accounts`). `versions`: the
    versions served per toolkit (default: the pinned ones).
    """
    served: Versions = versions or {name: {version: {}} for name, version in pinned_versions().items()}
    api = _Api(backend, api_key, faults or HttpFaults(), accounts or SandboxAccounts(), served)
    app = Starlette(
        routes=[
            Route(f"{API_PREFIX}/tools", api.list_tools, methods=["GET"]),
            Route(f"{API_PREFIX}/tools/execute/{{slug}}", api.execute, methods=["POST"]),
            Route(f"{API_PREFIX}/tools/{{slug}}", api.retrieve, methods=["GET"]),
            Route("/_faults", api.set_faults, methods=["POST"]),
            *account_routes(api.accounts, served, API_PREFIX, api._error, api._unauthorized),
        ],
        exception_handlers={404: _not_found, 405: _not_found},
    )
    app.state.faults = api.faults
    app.state.requests = api.requests
    app.state.accounts = api.accounts
    return app


def _url(host: str, sock: socket.socket) -> str:
    return f"http://{f'[{host}]' if ':' in host else host}:{sock.getsockname()[1]}"


def _listening_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    return sock


@contextlib.contextmanager
def run_in_thread(app: Any, *, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve `app` with uvicorn on a daemon thread; yields the base URL, stops on exit.

    The socket is bound and listening before the thread starts, so the URL is usable at once
    (connections wait in the backlog until uvicorn accepts them): no polling for readiness.

    Raises:
        OSError: the address cannot be bound (e.g. the port is taken).
    """
    import uvicorn

    sock = _listening_socket(host, port)
    config = uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="sandbox-api", daemon=True)
    thread.start()
    try:
        yield _url(host, sock)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def serve(
    host: str,
    port: int,
    db_path: str | os.PathLike[str] | None,
    *,
    api_key: str | None = None,
    ready: Callable[[str], None] | None = None,
    accounts: SandboxAccounts | None = None,
    versions: Versions | None = None,
) -> None:
    """Serve a sandbox on `db_path` (None: in memory) until interrupted (blocks).

    `ready` is called with the base URL once the socket listens (port 0 picks a free port), so a
    parent process can wait for that line instead of polling.

    Raises:
        OSError: the address cannot be bound (e.g. the port is taken).
    """
    import uvicorn

    backend = SandboxBackend(db_path)
    sock = _listening_socket(host, port)
    try:
        if ready is not None:
            ready(_url(host, sock))
        app = build_app(backend, api_key=api_key, accounts=accounts, versions=versions)
        config = uvicorn.Config(app, log_level="warning", lifespan="off")
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
        asyncio.run(backend.aclose())
