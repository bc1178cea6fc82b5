"""The store's records that are not drafts: the side-effect ledger, callback replies, the audit log.

`JournalMixin` is mixed into `SqliteStore`; it only needs the store's `_db` and `_now`.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from drafts._db import Database, dumps, iso, loads

__all__ = ["AUDIT_PREVIEW_CHARS", "CALLBACK_LEASE_S", "JournalMixin", "LedgerEntry", "LedgerState"]

LedgerState = Literal["started", "succeeded", "failed", "unknown"]
AUDIT_PREVIEW_CHARS = 200
# A callback's owner renews its claim while it works (`callback_renew`, several times per lease); a
# claim not renewed for this long belongs to a dead owner and the next delivery takes it over.
CALLBACK_LEASE_S = 10.0
# Seed 004 caps a message at 4000 chars; the log keeps no more even if a caller forgot to check.
_AUDIT_INPUT_CHARS = 4000
_AUDIT_KEYS = (
    "timestamp",
    "conversation_id",
    "user_id",
    "input_message",
    "classified_intent",
    "decision_type",
    "tool_calls",
    "response_preview",
    "producer",
)
_LEDGER_COLUMNS = (
    "scope, state, draft_id, action_index, payload_sha, result, error, attempts, created_at, updated_at"
)


class LedgerEntry(BaseModel):
    """One idempotency scope's outcome.

    `claimed` is True only for the caller whose `ledger_claim` created the row or re-opened a failed
    one: that caller, and no other, may call the remote.
    """

    model_config = ConfigDict(frozen=True)

    scope: str
    state: LedgerState
    draft_id: str
    index: int
    payload_sha: str
    result: Any = None
    error: str | None = None
    attempts: int = 1
    created_at: str
    updated_at: str
    claimed: bool = False


def _entry(row: sqlite3.Row | tuple[Any, ...], *, claimed: bool = False) -> LedgerEntry:
    scope, state, draft_id, index, sha, result, error, attempts, created, updated = row
    return LedgerEntry(
        scope=scope,
        state=state,
        draft_id=draft_id,
        index=index,
        payload_sha=sha,
        result=loads(result),
        error=error,
        attempts=attempts,
        created_at=created,
        updated_at=updated,
        claimed=claimed,
    )


class JournalMixin:
    _db: Database
    _now: Callable[[], datetime]
    _callback_stale_s: float

    # -- side-effect ledger -------------------------------------------------------------------

    async def ledger_claim(self, scope: str, draft_id: str, index: int, payload_sha: str) -> LedgerEntry:
        """Claim `scope` for one remote call, atomically.

        Inserts a "started" row when the scope is new, or re-opens a "failed" one (a definite failure
        may be retried by a later draft); otherwise returns the existing row unchanged.

        Returns:
            The row; `claimed` says whether this caller now owns the call.

        Raises:
            sqlite3.Error: the database failed (nothing was claimed).
        """
        stamp = iso(self._now())

        def tx(conn: sqlite3.Connection) -> LedgerEntry:
            row = conn.execute(f"SELECT {_LEDGER_COLUMNS} FROM ledger WHERE scope = ?", (scope,)).fetchone()
            if row is None:
                conn.execute(
                    "INSERT INTO ledger(scope, state, draft_id, action_index, payload_sha, created_at, updated_at)"
                    " VALUES (?, 'started', ?, ?, ?, ?, ?)",
                    (scope, draft_id, index, payload_sha, stamp, stamp),
                )
            elif row[1] == "failed":
                conn.execute(
                    "UPDATE ledger SET state = 'started', draft_id = ?, action_index = ?, payload_sha = ?,"
                    " result = NULL, error = NULL, attempts = attempts + 1, updated_at = ?"
                    " WHERE scope = ? AND state = 'failed'",
                    (draft_id, index, payload_sha, stamp, scope),
                )
            else:
                return _entry(row)
            fresh = conn.execute(f"SELECT {_LEDGER_COLUMNS} FROM ledger WHERE scope = ?", (scope,)).fetchone()
            return _entry(fresh, claimed=True)

        return await self._db.write(tx)

    async def ledger_finish(
        self,
        scope: str,
        state: Literal["succeeded", "failed", "unknown"],
        result: Any = None,
        error: str | None = None,
        *,
        draft_id: str | None = None,
    ) -> bool:
        """Record the outcome of a claimed scope. Only a "started" row changes.

        Args:
            draft_id: when given, only the claim held by this draft is finished.

        Returns:
            Whether a row was updated.

        Raises:
            ValueError: `state` is not a final ledger state.
            sqlite3.Error: the database failed.
        """
        if state not in ("succeeded", "failed", "unknown"):
            raise ValueError(f"not a final ledger state: {state!r}")
        sql = "UPDATE ledger SET state = ?, result = ?, error = ?, updated_at = ? WHERE scope = ? AND state = 'started'"
        params: list[Any] = [state, dumps(result), error, iso(self._now()), scope]
        if draft_id is not None:
            sql += " AND draft_id = ?"
            params.append(draft_id)
        return await self._db.write(lambda conn: conn.execute(sql, params).rowcount == 1)

    async def ledger_retake(self, scope: str, draft_id: str, index: int, payload_sha: str) -> LedgerEntry:
        """Claim a scope whose outcome stayed "unknown", once reconciling showed the change absent (or
        safe to send again): the "unknown" row becomes this draft's "started" claim, atomically.

        Returns:
            The row; `claimed` says whether this caller now owns the call.

        Raises:
            sqlite3.Error: the database failed (nothing was claimed).
        """
        stamp = iso(self._now())

        def tx(conn: sqlite3.Connection) -> LedgerEntry | None:
            taken = conn.execute(
                "UPDATE ledger SET state = 'started', draft_id = ?, action_index = ?, payload_sha = ?,"
                " result = NULL, error = NULL, attempts = attempts + 1, updated_at = ?"
                " WHERE scope = ? AND state = 'unknown'",
                (draft_id, index, payload_sha, stamp, scope),
            ).rowcount
            row = conn.execute(f"SELECT {_LEDGER_COLUMNS} FROM ledger WHERE scope = ?", (scope,)).fetchone()
            return None if row is None else _entry(row, claimed=taken == 1)

        found = await self._db.write(tx)
        if found is None:
            return await self.ledger_claim(scope, draft_id, index, payload_sha)
        return found

    async def ledger_resolve(
        self,
        scope: str,
        state: Literal["succeeded", "failed"],
        result: Any = None,
        error: str | None = None,
    ) -> bool:
        """Settle a scope whose outcome stayed "unknown": reconciling found the change (succeeded),
        or a person's "send it anyway" under a new scope did it (succeeded, with that result).

        Returns:
            Whether an "unknown" row changed.

        Raises:
            sqlite3.Error: the database failed.
        """
        sql = "UPDATE ledger SET state = ?, result = ?, error = ?, updated_at = ? WHERE scope = ? AND state = 'unknown'"
        params = (state, dumps(result), error, iso(self._now()), scope)
        return await self._db.write(lambda conn: conn.execute(sql, params).rowcount == 1)

    async def ledger_lookup(self, scopes: Sequence[str]) -> dict[str, LedgerEntry]:
        """The ledger rows of those `scopes` that have one.

        Raises:
            sqlite3.Error: the database failed.
        """
        wanted = sorted(set(scopes))

        def tx(conn: sqlite3.Connection) -> dict[str, LedgerEntry]:
            found: dict[str, LedgerEntry] = {}
            for start in range(0, len(wanted), 500):  # stay under SQLite's bound-parameter limit
                chunk = wanted[start : start + 500]
                marks = ",".join("?" * len(chunk))
                for row in conn.execute(
                    f"SELECT {_LEDGER_COLUMNS} FROM ledger WHERE scope IN ({marks})", chunk
                ):
                    found[row[0]] = _entry(row)
            return found

        return await self._db.read(tx)

    # -- callback replay ----------------------------------------------------------------------

    async def callback_begin(
        self, user_id: str, callback_id: str, tool: str
    ) -> tuple[bool, dict[str, Any] | None]:
        """Start handling a callback, or find its stored reply.

        Returns:
            (True, None) when this caller owns the callback and must produce the reply;
            (False, reply) when the reply is stored (replay it, do nothing else);
            (False, None) when another caller is still producing it (poll `callback_get`).
            A claim whose lease was not renewed for the store's `callback_stale_s` (its owner
            crashed) is taken over.

        Raises:
            sqlite3.Error: the database failed.
        """
        now_ts = self._now().timestamp()

        def tx(conn: sqlite3.Connection) -> tuple[bool, dict[str, Any] | None]:
            inserted = conn.execute(
                "INSERT OR IGNORE INTO callback_replies(user_id, callback_id, tool, started_ts) VALUES (?, ?, ?, ?)",
                (user_id, callback_id, tool, now_ts),
            ).rowcount
            if inserted == 1:
                return True, None
            reply, started_ts = conn.execute(
                "SELECT reply, started_ts FROM callback_replies WHERE user_id = ? AND callback_id = ?",
                (user_id, callback_id),
            ).fetchone()
            if reply is not None:
                return False, loads(reply)
            if now_ts - started_ts > self._callback_stale_s:
                conn.execute(
                    "UPDATE callback_replies SET started_ts = ? WHERE user_id = ? AND callback_id = ?",
                    (now_ts, user_id, callback_id),
                )
                return True, None
            return False, None

        return await self._db.write(tx)

    async def callback_finish(self, user_id: str, callback_id: str, reply: dict[str, Any]) -> bool:
        """Store the reply of a callback this caller owns. The first stored reply is kept.

        Returns:
            Whether the reply was stored.

        Raises:
            sqlite3.Error: the database failed.
        """
        params = (dumps(reply), iso(self._now()), user_id, callback_id)
        sql = (
            "UPDATE callback_replies SET reply = ?, finished_at = ?"
            " WHERE user_id = ? AND callback_id = ? AND reply IS NULL"
        )
        return await self._db.write(lambda conn: conn.execute(sql, params).rowcount == 1)

    async def callback_abandon(self, user_id: str, callback_id: str) -> None:
        """Drop an unfinished claim (its handler failed) so a redelivery can try again.

        Raises:
            sqlite3.Error: the database failed.
        """
        sql = "DELETE FROM callback_replies WHERE user_id = ? AND callback_id = ? AND reply IS NULL"
        await self._db.write(lambda conn: conn.execute(sql, (user_id, callback_id)).rowcount)

    async def callback_get(self, user_id: str, callback_id: str) -> dict[str, Any] | None:
        """The stored reply, or None while none is stored.

        Raises:
            sqlite3.Error: the database failed.
        """
        sql = "SELECT reply FROM callback_replies WHERE user_id = ? AND callback_id = ?"

        def tx(conn: sqlite3.Connection) -> dict[str, Any] | None:
            row = conn.execute(sql, (user_id, callback_id)).fetchone()
            return None if row is None else loads(row[0])

        return await self._db.read(tx)

    async def callback_renew(self, user_id: str, callback_id: str) -> bool:
        """Renew the lease of a callback this caller owns and is still working on (its claim's start
        time is the lease: a claim not renewed for `callback_stale_s` belongs to a dead owner).

        Returns:
            Whether an unfinished claim was renewed.

        Raises:
            sqlite3.Error: the database failed.
        """
        sql = "UPDATE callback_replies SET started_ts = ? WHERE user_id = ? AND callback_id = ? AND reply IS NULL"
        params = (self._now().timestamp(), user_id, callback_id)
        return await self._db.write(lambda conn: conn.execute(sql, params).rowcount == 1)

    async def _callback_peek(self, user_id: str, callback_id: str) -> tuple[dict[str, Any] | None, bool]:
        sql = "SELECT reply, started_ts FROM callback_replies WHERE user_id = ? AND callback_id = ?"
        now_ts = self._now().timestamp()

        def tx(conn: sqlite3.Connection) -> tuple[dict[str, Any] | None, bool]:
            row = conn.execute(sql, (user_id, callback_id)).fetchone()
            if row is None:
                return None, False
            return loads(row[0]), now_ts - row[1] <= self._callback_stale_s

        return await self._db.read(tx)

    async def callback_wait(
        self, user_id: str, callback_id: str, *, timeout_s: float = 5.0, interval_s: float = 0.05
    ) -> dict[str, Any] | None:
        """Wait while another caller produces the reply: until it is stored (returned), its owner
        stops renewing the lease or drops the claim (None at once: `callback_begin` takes it over),
        or `timeout_s` passes (None).

        Raises:
            sqlite3.Error: the database failed.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while True:
            reply, alive = await self._callback_peek(user_id, callback_id)
            if reply is not None or not alive or loop.time() >= deadline:
                return reply
            await asyncio.sleep(min(interval_s, max(0.0, deadline - loop.time())))
            interval_s = min(interval_s * 1.5, 0.5)

    # -- audit log ----------------------------------------------------------------------------

    async def audit(
        self,
        *,
        user_id: str,
        conversation_id: str | None,
        input_message: str,
        intent: str | None,
        decision: str,
        tool_calls: list[dict[str, Any]] | None,
        response_preview: str | None,
        now: datetime | None = None,
        producer: str | None = None,
    ) -> None:
        """Append one seed-004 audit record. The caller passes sanitized text (no secrets);
        `producer` says who understood the request (rules, intents, command, model).

        Raises:
            sqlite3.Error: the database failed.
        """
        params = (
            iso(now or self._now()),
            conversation_id,
            user_id,
            input_message[:_AUDIT_INPUT_CHARS],
            intent,
            decision,
            None if tool_calls is None else dumps(tool_calls),
            (response_preview or "")[:AUDIT_PREVIEW_CHARS],
            producer,
        )
        sql = (
            "INSERT INTO audit_log(timestamp, conversation_id, user_id, input_message, classified_intent,"
            " decision_type, tool_calls, response_preview, producer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        await self._db.write(lambda conn: conn.execute(sql, params).rowcount)

    async def read_audit(self, user_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The user's audit records, newest first, with seed 004's field names.

        Raises:
            sqlite3.Error: the database failed.
        """
        sql = f"SELECT {', '.join(_AUDIT_KEYS)} FROM audit_log WHERE user_id = ? ORDER BY id DESC LIMIT ?"

        def tx(conn: sqlite3.Connection) -> list[dict[str, Any]]:
            rows = conn.execute(sql, (user_id, max(1, min(limit, 1000)))).fetchall()
            records = [dict(zip(_AUDIT_KEYS, row, strict=True)) for row in rows]
            for record in records:
                record["tool_calls"] = loads(record["tool_calls"])
            return records

        return await self._db.read(tx)
