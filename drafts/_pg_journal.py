"""The PostgreSQL twin of `drafts.journal`: the side-effect ledger, callback replies, the audit log.

`PgJournalMixin` is mixed into `PgStore`; it only needs the store's `_db`, `_now` and
`_callback_stale_s`. Return values are those of `JournalMixin`, field for field.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, Literal

from psycopg.rows import TupleRow

from drafts._db import iso, to_utc
from drafts._pg import PgDatabase, js
from drafts.journal import _AUDIT_INPUT_CHARS, _AUDIT_KEYS, AUDIT_PREVIEW_CHARS, LedgerEntry

__all__ = ["PgJournalMixin"]

_LEDGER_COLUMNS = (
    "scope, state, draft_id, action_index, payload_sha, result, error, attempts, created_at, updated_at"
)
# One statement claims a new scope or re-opens a failed one (a definite failure may be retried by a
# later draft); it returns nothing when the scope is held or settled otherwise, and the row is then
# re-read. ON CONFLICT takes the row lock, so of concurrent claimers exactly one gets a row back.
_CLAIM = f"""
INSERT INTO ledger AS l (scope, state, draft_id, action_index, payload_sha, created_at, updated_at)
VALUES (%(scope)s, 'started', %(draft)s, %(index)s, %(sha)s, %(now)s, %(now)s)
ON CONFLICT (scope) DO UPDATE SET state = 'started', draft_id = EXCLUDED.draft_id,
    action_index = EXCLUDED.action_index, payload_sha = EXCLUDED.payload_sha, result = NULL,
    error = NULL, attempts = l.attempts + 1, updated_at = EXCLUDED.updated_at
WHERE l.state = 'failed'
RETURNING {_LEDGER_COLUMNS}
"""


def _entry(row: TupleRow, *, claimed: bool = False) -> LedgerEntry:
    scope, state, draft_id, index, sha, result, error, attempts, created, updated = row
    return LedgerEntry(
        scope=scope,
        state=state,
        draft_id=draft_id,
        index=index,
        payload_sha=sha,
        result=result,
        error=error,
        attempts=attempts,
        created_at=iso(created),
        updated_at=iso(updated),
        claimed=claimed,
    )


class PgJournalMixin:
    _db: PgDatabase
    _now: Callable[[], datetime]
    _callback_stale_s: float

    # -- side-effect ledger -------------------------------------------------------------------

    async def ledger_claim(self, scope: str, draft_id: str, index: int, payload_sha: str) -> LedgerEntry:
        """Claim `scope` for one remote call, atomically.

        Inserts a "started" row when the scope is new, or re-opens a "failed" one; otherwise
        returns the existing row unchanged.

        Returns:
            The row; `claimed` says whether this caller now owns the call.

        Raises:
            psycopg.Error: the database failed (nothing was claimed).
            RuntimeError: the conflicting row vanished (ledger rows are never deleted).
        """
        params = {"scope": scope, "draft": draft_id, "index": index, "sha": payload_sha}
        params["now"] = to_utc(self._now())
        async with self._db.connection() as conn:
            cur = await conn.execute(_CLAIM, params)
            row = await cur.fetchone()
            if row is not None:
                return _entry(row, claimed=True)
            # Rows are never deleted, so the conflicting row is there to read.
            cur = await conn.execute(f"SELECT {_LEDGER_COLUMNS} FROM ledger WHERE scope = %s", (scope,))
            held = await cur.fetchone()
        if held is None:
            raise RuntimeError(f"ledger row {scope!r} vanished")
        return _entry(held)

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
            psycopg.Error: the database failed.
        """
        if state not in ("succeeded", "failed", "unknown"):
            raise ValueError(f"not a final ledger state: {state!r}")
        sql = (
            "UPDATE ledger SET state = %s, result = %s, error = %s, updated_at = %s"
            " WHERE scope = %s AND state = 'started'"
        )
        params: list[Any] = [state, js(result), error, to_utc(self._now()), scope]
        if draft_id is not None:
            sql += " AND draft_id = %s"
            params.append(draft_id)
        return await self._db.execute(sql, params) == 1

    async def ledger_retake(self, scope: str, draft_id: str, index: int, payload_sha: str) -> LedgerEntry:
        """Claim a scope whose outcome stayed "unknown" (see `JournalMixin.ledger_retake`).

        Raises:
            psycopg.Error: the database failed (nothing was claimed).
        """
        params = {"scope": scope, "draft": draft_id, "index": index, "sha": payload_sha}
        params["now"] = to_utc(self._now())
        async with self._db.connection() as conn:
            cur = await conn.execute(
                "UPDATE ledger SET state = 'started', draft_id = %(draft)s, action_index = %(index)s,"
                " payload_sha = %(sha)s, result = NULL, error = NULL, attempts = attempts + 1,"
                f" updated_at = %(now)s WHERE scope = %(scope)s AND state = 'unknown' RETURNING {_LEDGER_COLUMNS}",
                params,
            )
            row = await cur.fetchone()
            if row is not None:
                return _entry(row, claimed=True)
        return await self.ledger_claim(scope, draft_id, index, payload_sha)

    async def ledger_resolve(
        self,
        scope: str,
        state: Literal["succeeded", "failed"],
        result: Any = None,
        error: str | None = None,
    ) -> bool:
        """Settle a scope whose outcome stayed "unknown" (see `JournalMixin.ledger_resolve`).

        Raises:
            psycopg.Error: the database failed.
        """
        sql = (
            "UPDATE ledger SET state = %s, result = %s, error = %s, updated_at = %s"
            " WHERE scope = %s AND state = 'unknown'"
        )
        return await self._db.execute(sql, (state, js(result), error, to_utc(self._now()), scope)) == 1

    async def ledger_lookup(self, scopes: Sequence[str]) -> dict[str, LedgerEntry]:
        """The ledger rows of those `scopes` that have one.

        Raises:
            psycopg.Error: the database failed.
        """
        wanted = sorted(set(scopes))
        if not wanted:
            return {}
        rows = await self._db.fetchall(
            f"SELECT {_LEDGER_COLUMNS} FROM ledger WHERE scope = ANY(%s)", (wanted,)
        )
        return {row[0]: _entry(row) for row in rows}

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
            psycopg.Error: the database failed.
        """
        now = to_utc(self._now())
        key = (user_id, callback_id)
        # An abandoned claim is deleted; if that happens between the insert and the read, insert again.
        for _ in range(3):
            async with self._db.transaction() as conn:
                cur = await conn.execute(
                    "INSERT INTO callback_replies(user_id, callback_id, tool, started_at)"
                    " VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                    (*key, tool, now),
                )
                if cur.rowcount == 1:
                    return True, None
                cur = await conn.execute(
                    "SELECT reply, started_at FROM callback_replies WHERE user_id = %s AND callback_id = %s"
                    " FOR UPDATE",
                    key,
                )
                row = await cur.fetchone()
                if row is None:
                    continue
                reply, started = row
                if reply is not None:
                    return False, dict(reply)
                if now - started > timedelta(seconds=self._callback_stale_s):
                    await conn.execute(
                        "UPDATE callback_replies SET started_at = %s WHERE user_id = %s AND callback_id = %s",
                        (now, *key),
                    )
                    return True, None
                return False, None
        return False, None

    async def callback_finish(self, user_id: str, callback_id: str, reply: dict[str, Any]) -> bool:
        """Store the reply of a callback this caller owns. The first stored reply is kept.

        Returns:
            Whether the reply was stored.

        Raises:
            psycopg.Error: the database failed.
        """
        sql = (
            "UPDATE callback_replies SET reply = %s, finished_at = %s"
            " WHERE user_id = %s AND callback_id = %s AND reply IS NULL"
        )
        return await self._db.execute(sql, (js(reply), to_utc(self._now()), user_id, callback_id)) == 1

    async def callback_abandon(self, user_id: str, callback_id: str) -> None:
        """Drop an unfinished claim (its handler failed) so a redelivery can try again.

        Raises:
            psycopg.Error: the database failed.
        """
        sql = "DELETE FROM callback_replies WHERE user_id = %s AND callback_id = %s AND reply IS NULL"
        await self._db.execute(sql, (user_id, callback_id))

    async def callback_get(self, user_id: str, callback_id: str) -> dict[str, Any] | None:
        """The stored reply, or None while none is stored.

        Raises:
            psycopg.Error: the database failed.
        """
        sql = "SELECT reply FROM callback_replies WHERE user_id = %s AND callback_id = %s"
        row = await self._db.fetchone(sql, (user_id, callback_id))
        return None if row is None or row[0] is None else dict(row[0])

    async def callback_renew(self, user_id: str, callback_id: str) -> bool:
        """Renew the lease of a callback this caller owns (see `JournalMixin.callback_renew`).

        Raises:
            psycopg.Error: the database failed.
        """
        sql = (
            "UPDATE callback_replies SET started_at = %s"
            " WHERE user_id = %s AND callback_id = %s AND reply IS NULL"
        )
        return await self._db.execute(sql, (to_utc(self._now()), user_id, callback_id)) == 1

    async def callback_wait(
        self, user_id: str, callback_id: str, *, timeout_s: float = 5.0, interval_s: float = 0.05
    ) -> dict[str, Any] | None:
        """Wait while another caller produces the reply (see `JournalMixin.callback_wait`).

        Raises:
            psycopg.Error: the database failed.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        sql = "SELECT reply, started_at FROM callback_replies WHERE user_id = %s AND callback_id = %s"
        while True:
            row = await self._db.fetchone(sql, (user_id, callback_id))
            reply = None if row is None or row[0] is None else dict(row[0])
            alive = row is not None and to_utc(self._now()) - row[1] <= timedelta(
                seconds=self._callback_stale_s
            )
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
            psycopg.Error: the database failed.
        """
        params = (
            to_utc(now or self._now()),
            conversation_id,
            user_id,
            input_message[:_AUDIT_INPUT_CHARS],
            intent,
            decision,
            None if tool_calls is None else js(tool_calls),
            (response_preview or "")[:AUDIT_PREVIEW_CHARS],
            producer,
        )
        sql = (
            "INSERT INTO audit_log(timestamp, conversation_id, user_id, input_message, classified_intent,"
            " decision_type, tool_calls, response_preview, producer)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
        )
        await self._db.execute(sql, params)

    async def read_audit(self, user_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The user's audit records, newest first, with seed 004's field names.

        Raises:
            psycopg.Error: the database failed.
        """
        sql = f"SELECT {', '.join(_AUDIT_KEYS)} FROM audit_log WHERE user_id = %s ORDER BY id DESC LIMIT %s"
        rows = await self._db.fetchall(sql, (user_id, max(1, min(limit, 1000))))
        records = [dict(zip(_AUDIT_KEYS, row, strict=True)) for row in rows]
        for record in records:
            record["timestamp"] = iso(record["timestamp"])
        return records
