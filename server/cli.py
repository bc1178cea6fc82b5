"""`planner-mcp`: serve (stdio or Streamable HTTP), plan (a one-shot preview), demo, bench."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys

__all__ = ["main"]


def _serve(args: argparse.Namespace) -> int:
    from server.app import build_server
    from server.settings import Settings
    from server.wiring import build_service

    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "WARNING"), stream=sys.stderr)
    settings = Settings.from_env()
    service = build_service(settings)
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

    app = http_app(mcp, settings, args.host)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def _plan(args: argparse.Namespace) -> int:
    from server.settings import Settings
    from server.wiring import build_service

    async def run() -> int:
        settings = Settings.from_env()
        service = build_service(settings)
        try:
            reply = await service.plan(
                "local",
                text=args.text,
                command=None,
                voice=None,
                language=None,
                now=args.now,
                timezone=None,
                conversation_id=None,
            )
            if reply.draft is not None and args.dry_run:
                await service.confirm("local", reply.draft.id)
                reply = await service.execute("local", reply.draft.id, dry_run=True)
                await service.cancel("local", reply.draft.id if reply.draft else "")
            print(f"[{reply.status}]")
            print(reply.text())
            if args.json:
                print(reply.model_dump_json(indent=2))
            return 0 if reply.ok or reply.status == "needs_clarification" else 1
        finally:
            await service.backend.aclose()
            await service.store.close()

    return asyncio.run(run())


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
    a = p.parse_args(argv)
    if a.cmd == "serve":
        return _serve(a)
    if a.cmd == "plan":
        return _plan(a)
    from server.demo import run_demo

    return int(run_demo(keep_db=a.keep_db))


if __name__ == "__main__":
    sys.exit(main())
