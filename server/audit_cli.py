"""`planner-mcp audit export` and `planner-mcp audit prune`: the audit log for an operator.

Export writes every record (oldest first) as JSON lines or CSV to standard output or `--out`,
streamed from the database in batches. Prune applies the retention once (see `server.retention`),
for a cron job or before an export.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import re
import sys
from datetime import UTC, datetime, timedelta
from typing import IO, Any

from drafts import open_store
from drafts.operator import AUDIT_EXPORT_KEYS
from server.retention import apply_retention
from server.settings import Settings

__all__ = ["add_audit_parser", "parse_since", "run_audit"]

_AGO = re.compile(r"(\d+(?:\.\d+)?)\s*([dhm])")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")  # a cell a spreadsheet would run as a formula


def parse_since(value: str, now: datetime | None = None) -> datetime:
    """`--since`: an ISO 8601 date or moment (a naive one is UTC), or an age such as `7d`, `12h`, `30m`.

    Raises:
        argparse.ArgumentTypeError: anything else.
    """
    text = value.strip()
    ago = _AGO.fullmatch(text.lower())
    if ago:
        unit = {"d": "days", "h": "hours", "m": "minutes"}[ago.group(2)]
        return (now or datetime.now(UTC)) - timedelta(**{unit: float(ago.group(1))})
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(
            f"--since takes an ISO 8601 date or time (2026-11-01, 2026-11-01T09:00+03:00) or an age (7d, 12h): {value[:40]!r}"
        ) from exc
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def add_audit_parser(sub: Any) -> None:
    audit = sub.add_parser("audit", help="the audit log for an operator: export, prune")
    which = audit.add_subparsers(dest="audit_cmd", required=True)
    export = which.add_parser("export", help="write audit records (oldest first) as JSON lines or CSV")
    export.add_argument("--since", type=parse_since, help="from this moment on: ISO 8601, or an age: 7d, 12h")
    export.add_argument(
        "--user", help="only this user id, as read_audit_log shows it (e.g. http:telegram:42)"
    )
    export.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    export.add_argument("--out", help="a file to write (default: standard output)")
    which.add_parser(
        "prune",
        help="apply the retention now: expired plans and old callback replies, and with "
        "PLANNER_AUDIT_RETENTION_DAYS audit records, plans and final drafts older than that",
    )


def _csv_cell(value: Any) -> Any:
    if isinstance(value, list | dict):
        value = json.dumps(value, ensure_ascii=False)
    if isinstance(value, str) and value.startswith(_FORMULA):
        return "'" + value  # shown as text, never evaluated
    return value


async def _export(settings: Settings, args: argparse.Namespace, out: IO[str]) -> int:
    store = open_store(settings.database, pool_max=2)
    count = 0
    try:
        writer = csv.writer(out) if args.format == "csv" else None
        if writer is not None:
            writer.writerow(AUDIT_EXPORT_KEYS)
        async for record in store.export_audit(since=args.since, user_id=args.user):
            if writer is not None:
                writer.writerow([_csv_cell(record[k]) for k in AUDIT_EXPORT_KEYS])
            else:
                out.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
            count += 1
    finally:
        await store.close()
    return count


async def _prune(settings: Settings) -> dict[str, int]:
    store = open_store(settings.database, pool_max=2)
    try:
        return await apply_retention(store, settings.audit_retention_days)
    finally:
        await store.close()


def run_audit(args: argparse.Namespace) -> int:
    try:
        settings = Settings.from_env()
    except ValueError as exc:
        print(f"planner-mcp audit: {exc}", file=sys.stderr)
        return 2
    if settings.database_url is None and not settings.db_path.exists():
        print(
            f"planner-mcp audit: no database at {settings.db_path} (set PLANNER_DB or PLANNER_DATABASE_URL)",
            file=sys.stderr,
        )
        return 2
    try:
        if args.audit_cmd == "prune":
            deleted = asyncio.run(_prune(settings))
            print(f"planner-mcp audit prune: deleted {json.dumps(deleted)}", file=sys.stderr)
            return 0
        if args.out:
            with open(args.out, "w", encoding="utf-8", newline="") as out:
                count = asyncio.run(_export(settings, args, out))
        else:
            count = asyncio.run(_export(settings, args, sys.stdout))
            sys.stdout.flush()
    except Exception as exc:  # the database is down or refuses: say so, never a traceback with its URL
        print(f"planner-mcp audit: the database failed ({type(exc).__name__})", file=sys.stderr)
        return 1
    print(f"planner-mcp audit export: {count} records", file=sys.stderr)
    return 0
