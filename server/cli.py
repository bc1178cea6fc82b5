"""`planner-mcp`: serve (stdio or Streamable HTTP), plan (a one-shot preview), chat (a conversation in
the terminal), demo, sandbox-api (the sandbox in Composio's REST shape), connect and doctor (Composio
accounts), refresh-schemas (the tool schema snapshot from Composio), telegram (the reference bot), audit
(export and prune the audit log)."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

__all__ = ["main"]


def _serve(args: argparse.Namespace) -> int:
    from server.app import build_server
    from server.logs import configure_logging
    from server.replies import known_secrets
    from server.settings import Settings
    from server.wiring import build_service

    try:
        settings = Settings.from_env()
    except ValueError as exc:
        print(f"planner-mcp: {exc}", file=sys.stderr)
        return 2
    configure_logging([*known_secrets(settings), settings.metrics_token or ""])
    service = build_service(settings)
    if service.backend.name == "sandbox":
        from server.sandbox_mode import startup_line

        print(
            startup_line(str(settings.database_url and "PLANNER_DATABASE_URL" or settings.db_path)),
            file=sys.stderr,
            flush=True,
        )
    mcp = build_server(service, settings)
    if not args.http:
        mcp.run()
        return 0
    if not settings.principals:
        print(
            "planner-mcp: set PLANNER_HTTP_TOKEN (or PLANNER_HTTP_TOKENS) to serve over HTTP", file=sys.stderr
        )
        return 2
    import uvicorn

    from server.http import http_app
    from server.ops_http import OpsApp

    # /healthz, /readyz and /metrics answer before the bearer-token check; every request is logged
    app = OpsApp(http_app(mcp, settings, args.host), service, settings)
    # log_config=None: uvicorn's own records go through our handler (JSON or text), and our access
    # log replaces its own
    uvicorn.run(app, host=args.host, port=args.port, log_config=None, access_log=False)
    return 0


def _plan(args: argparse.Namespace) -> int:
    from server.preview import print_preview
    from server.settings import Settings
    from server.wiring import build_service

    async def run() -> int:
        settings = Settings.from_env()
        service = build_service(settings)
        try:
            return await print_preview(
                service, args.text, now=args.now, dry_run=args.dry_run, json_out=args.json
            )
        finally:
            await service.backend.aclose()
            await service.store.close()

    return asyncio.run(run())


def _sandbox_api(args: argparse.Namespace) -> int:
    from server.settings import Settings
    from toolkits.registry import versions
    from toolkits.sandbox_api import serve

    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "WARNING"), stream=sys.stderr)
    db = None if args.db == ":memory:" else Path(args.db or Settings.from_env().db_path).expanduser()
    if db is not None:
        db.parent.mkdir(parents=True, exist_ok=True)

    def ready(url: str) -> None:  # a parent process waits for this line (it carries the port for --port 0)
        print(
            f"planner-mcp: sandbox in Composio's REST shape listening at {url}", file=sys.stderr, flush=True
        )

    from toolkits.registry import TOOLKITS
    from toolkits.sandbox_accounts import SandboxAccounts

    connected = [t for t in TOOLKITS if t not in args.not_connected]
    served: dict[str, dict[str, dict[str, object]]] = {}
    for item in args.toolkit_version:
        toolkit, _, version = item.partition("=")
        if toolkit not in TOOLKITS or not version:
            print(f"planner-mcp: --toolkit-version takes TOOLKIT=VERSION, got {item!r}", file=sys.stderr)
            return 2
        served[toolkit] = {version: {}}
    pinned: dict[str, dict[str, dict[str, object]]] = {name: {v: {}} for name, v in versions().items()}
    accounts = SandboxAccounts({args.user: connected})
    serve(args.host, args.port, db, ready=ready, accounts=accounts, versions={**pinned, **served})
    return 0


def _snapshot_path() -> Path:
    import toolkits

    return Path(toolkits.__file__).resolve().parent / "data" / "composio_tools.json"


def _refresh_schemas(args: argparse.Namespace) -> int:
    """Rewrite the schema snapshot with the `input_parameters` Composio serves at the pinned versions."""
    from server.settings import Settings

    settings = Settings.from_env()
    if not settings.composio_api_key:
        print(
            "planner-mcp: refresh-schemas fetches the tool schemas from Composio and needs COMPOSIO_API_KEY "
            "(and COMPOSIO_BASE_URL for another endpoint, e.g. `planner-mcp sandbox-api`); nothing changed",
            file=sys.stderr,
        )
        return 2
    from toolkits.composio_backend import ComposioBackend
    from toolkits.errors import ToolkitError

    snapshot = json.loads(_snapshot_path().read_text(encoding="utf-8"))
    backend = ComposioBackend(
        settings.composio_api_key,
        user_id=settings.composio_user_id,
        base_url=os.environ.get("COMPOSIO_BASE_URL"),
        toolkit_versions=settings.composio_toolkit_versions,
        timeout=settings.composio_timeout_s,
    )

    async def fetch() -> dict[str, dict[str, object]]:
        try:
            return await backend.tool_schemas(sorted(snapshot["tools"]))
        finally:
            await backend.aclose()

    try:
        schemas = asyncio.run(fetch())
    except ToolkitError as exc:
        print(f"planner-mcp: refresh-schemas failed, nothing changed: {exc}", file=sys.stderr)
        return 1
    changed = [
        slug for slug, params in schemas.items() if snapshot["tools"][slug]["input_parameters"] != params
    ]
    for slug, params in schemas.items():
        snapshot["tools"][slug]["input_parameters"] = params
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    pinned = backend.toolkit_versions
    for name, toolkit in snapshot["toolkits"].items():
        toolkit["version"] = pinned.get(name, toolkit["version"])
        toolkit["refreshed_at"] = stamp
    out = Path(args.out) if args.out else _snapshot_path()
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(json.dumps(snapshot, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, out)  # atomic: a reader never sees half a snapshot
    print(f"planner-mcp: {len(schemas)} schemas refreshed ({len(changed)} changed) -> {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="planner-mcp", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve", help="run the MCP server (stdio by default)")
    s.add_argument("--http", action="store_true", help="serve Streamable HTTP at /mcp instead of stdio")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8765)
    pl = sub.add_parser("plan", help="preview what a request would do")
    pl.add_argument("text")
    pl.add_argument("--dry-run", action="store_true", help="also show the exact requests (changes nothing)")
    pl.add_argument("--now", help="ISO 8601 moment for relative dates")
    pl.add_argument("--json", action="store_true", help="print the whole reply as JSON")
    d = sub.add_parser("demo", help="a scripted conversation on the sandbox, through a real MCP stdio client")
    d.add_argument("--keep-db", action="store_true")
    sa = sub.add_parser("sandbox-api", help="serve the sandbox in Composio's REST shape (for the real SDK)")
    sa.add_argument("--host", default="127.0.0.1")
    sa.add_argument("--port", type=int, default=8790)
    sa.add_argument(
        "--db", help="SQLite file of the sandbox (default: PLANNER_DB; ':memory:' for a throwaway one)"
    )
    sa.add_argument("--user", default="default", help="the Composio user id whose accounts are connected")
    sa.add_argument(
        "--not-connected",
        action="append",
        default=[],
        choices=["attio", "linear", "googlecalendar"],
        help="leave this toolkit unconnected for --user (repeatable): `planner-mcp connect` connects it",
    )
    sa.add_argument(
        "--toolkit-version",
        action="append",
        default=[],
        metavar="TOOLKIT=VERSION",
        help="serve this version of a toolkit instead of the pinned one (a retired pin, for doctor)",
    )
    cn = sub.add_parser("connect", help="connect a toolkit's account to Composio for COMPOSIO_USER_ID")
    cn.add_argument("toolkit", choices=["attio", "linear", "googlecalendar"])
    cn.add_argument("--timeout", type=float, default=600, help="seconds to wait for the link (default 600)")
    sub.add_parser("doctor", help="check the Composio key, accounts, versions and schema snapshot")
    rs = sub.add_parser(
        "refresh-schemas", help="refresh the tool schema snapshot from Composio (COMPOSIO_API_KEY)"
    )
    rs.add_argument(
        "--out", help="where to write it (default: the packaged toolkits/data/composio_tools.json)"
    )
    sub.add_parser("telegram", help="run the Telegram bot (TELEGRAM_BOT_TOKEN, PLANNER_URL, PLANNER_TOKEN)")
    from server.audit_cli import add_audit_parser

    add_audit_parser(sub)
    ch = sub.add_parser("chat", help="talk to the planner in the terminal: plan, pick, say yes, see it run")
    ch.add_argument("--user", default="local", help="whose drafts (default: local)")
    ch.add_argument("--now", help="ISO 8601 moment for relative dates")
    a = p.parse_args(argv)
    from toolkits.sqlite import UnusableDatabase

    try:
        return _run(a)
    except UnusableDatabase as exc:  # DESIGN §10: refused clearly, never served, no traceback
        print(f"planner-mcp: {exc}", file=sys.stderr)
        return 2


def _run(a: argparse.Namespace) -> int:
    if a.cmd == "telegram":  # lazy: the bot is an optional extra and only an MCP client of this server
        from bot.app import main as telegram_main

        return telegram_main()
    if a.cmd == "serve":
        return _serve(a)
    if a.cmd == "audit":
        from server.audit_cli import run_audit

        return run_audit(a)
    if a.cmd == "chat":
        from server.chat import run_chat

        return run_chat(user=a.user, now=a.now)
    if a.cmd == "plan":
        return _plan(a)
    if a.cmd == "sandbox-api":
        return _sandbox_api(a)
    if a.cmd == "refresh-schemas":
        return _refresh_schemas(a)
    if a.cmd in ("connect", "doctor"):
        from server import accounts_cli

        return accounts_cli.connect(a.toolkit, a.timeout) if a.cmd == "connect" else accounts_cli.doctor()
    from server.demo import run_demo

    return int(run_demo(keep_db=a.keep_db))


if __name__ == "__main__":
    sys.exit(main())
