"""SQLite store for plans, drafts and their transitions (ledger, callbacks, audit: `journal.py`; the
execution lease and recovery queries: `_lease.py`).

Every query on a draft carries `owner_user_id = ?`, so another user's draft is indistinguishable
from a missing one. Status changes are compare-and-swap inside `BEGIN IMMEDIATE`; a trigger logs
each one in `draft_events`.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, get_args

from drafts._db import Database, dumps, iso, loads, to_utc
from drafts._lease import HEARTBEAT_SQL, LeaseMixin, StaleClaim
from drafts.journal import CALLBACK_LEASE_S, JournalMixin
from drafts.models import OPEN_STATES, ActionStatus, Draft, DraftAction, is_allowed_transition
from drafts.operator import OperatorMixin
from toolkits.base import ToolAction
from toolkits.scopes import bind_draft

__all__ = ["SqliteStore", "StaleClaim"]

_DRAFT_COLUMNS = (
    "id, status, plan_id, conversation_id, summary, language, created_at, expires_at, bulk_count, expires_ts"
)
_OPEN = tuple(sorted(OPEN_STATES))
_OPEN_MARKS = ",".join("?" * len(_OPEN))
_AWAITING = ("awaiting_bulk_confirmation", "pending")
_ACTION_STATUSES = frozenset(get_args(ActionStatus))
UNCONFIRMED_KEPT_S = 24 * 3600.0  # a cancelled or expired draft is deleted after a day
FINISHED_KEPT_S = 7 * 24 * 3600.0  # a finished draft keeps its arguments and results for a week
# Cancelling or expiring a draft past its TTL is fine; moving it forward is not.
_ALLOWED_AFTER_TTL = frozenset({"cancelled", "expired"})


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _read_draft(conn: sqlite3.Connection, draft_id: str, user_id: str) -> tuple[Draft, float] | None:
    row = conn.execute(
        f"SELECT {_DRAFT_COLUMNS} FROM drafts WHERE id = ? AND owner_user_id = ?", (draft_id, user_id)
    ).fetchone()
    if row is None:
        return None
    actions = [
        DraftAction(
            **json.loads(action), index=idx, status=status, result=loads(result), error=error, link=link
        )
        for idx, action, status, result, error, link in conn.execute(
            "SELECT idx, action, status, result, error, link FROM draft_actions WHERE draft_id = ? ORDER BY idx",
            (draft_id,),
        )
    ]
    did, status, plan_id, conversation_id, summary, language, created, expires, bulk, expires_ts = row
    draft = Draft(
        id=did,
        status=status,
        plan_id=plan_id,
        conversation_id=conversation_id,
        summary=summary,
        language=language,
        created_at=created,
        expires_at=expires,
        bulk_count=bulk,
        actions=actions,
    )
    return draft, expires_ts


def _expire_due(conn: sqlite3.Connection, user_id: str, now: datetime, draft_id: str | None = None) -> int:
    sql = (
        "UPDATE drafts SET status = 'expired', version = version + 1, updated_at = ?"
        f" WHERE owner_user_id = ? AND status IN ({_OPEN_MARKS}) AND expires_ts <= ?"
    )
    params: list[Any] = [iso(now), user_id, *_OPEN, now.timestamp()]
    if draft_id is not None:
        sql += " AND id = ?"
        params.append(draft_id)
    return conn.execute(sql, params).rowcount


class SqliteStore(JournalMixin, LeaseMixin, OperatorMixin):
    """Plans, drafts, the side-effect ledger, callback replies and the audit log in one SQLite file.

    Args:
        path: the database file (shared with the sandbox backend); None keeps everything in memory.
        clock: returns the current time (tests pass a fixed one); defaults to the UTC wall clock.
        callback_stale_s: an unfinished callback claim whose lease was not renewed for this long is
            taken over by the next delivery (its first handler is presumed dead).

    Raises:
        sqlite3.Error: the file cannot be opened or migrated.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        clock: Callable[[], datetime] | None = None,
        callback_stale_s: float = CALLBACK_LEASE_S,
    ) -> None:
        self._db = Database(path)
        self._now = clock or _utcnow
        self._callback_stale_s = callback_stale_s

    async def close(self) -> None:
        """Close the connection (idempotent); later calls raise RuntimeError.

        Raises:
            sqlite3.Error: the connection could not be closed cleanly.
        """
        self._db.close()

    # -- plans --------------------------------------------------------------------------------

    async def save_plan(
        self, plan_id: str, user_id: str, conversation_id: str | None, state: dict[str, Any], ttl_s: float
    ) -> None:
        """Store (or replace) the planner's pending interpretation for `ttl_s` seconds.

        Raises:
            ValueError: `plan_id` already belongs to another user.
            sqlite3.Error: the database failed.
        """
        now = self._now()
        params = (
            plan_id,
            user_id,
            conversation_id,
            dumps(state),
            iso(now),
            iso(now),
            now.timestamp() + ttl_s,
        )
        sql = (
            "INSERT INTO plans(id, user_id, conversation_id, state, created_at, updated_at, expires_ts)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET conversation_id = excluded.conversation_id,"
            " state = excluded.state, updated_at = excluded.updated_at, expires_ts = excluded.expires_ts"
            " WHERE plans.user_id = excluded.user_id"
        )
        if await self._db.write(lambda conn: conn.execute(sql, params).rowcount) != 1:
            raise ValueError("plan id already in use")

    async def load_plan(self, plan_id: str, user_id: str) -> dict[str, Any] | None:
        """The plan's state, or None when it is missing, expired or another user's.

        Raises:
            sqlite3.Error: the database failed.
        """
        sql = "SELECT state FROM plans WHERE id = ? AND user_id = ? AND expires_ts > ?"
        params = (plan_id, user_id, self._now().timestamp())

        def tx(conn: sqlite3.Connection) -> dict[str, Any] | None:
            row = conn.execute(sql, params).fetchone()
            return None if row is None else dict(loads(row[0]))

        return await self._db.read(tx)

    async def update_plan(
        self, plan_id: str, user_id: str, state: dict[str, Any], *, ttl_s: float | None = None
    ) -> bool:
        """Replace a live plan's state (and, with `ttl_s`, extend its life from now).

        Returns:
            False when the plan is missing, expired or another user's.

        Raises:
            sqlite3.Error: the database failed.
        """
        now = self._now()
        sql = "UPDATE plans SET state = ?, updated_at = ?"
        params: list[Any] = [dumps(state), iso(now)]
        if ttl_s is not None:
            sql += ", expires_ts = ?"
            params.append(now.timestamp() + ttl_s)
        sql += " WHERE id = ? AND user_id = ? AND expires_ts > ?"
        params += [plan_id, user_id, now.timestamp()]
        return await self._db.write(lambda conn: conn.execute(sql, params).rowcount == 1)

    # -- drafts -------------------------------------------------------------------------------

    async def create_draft(
        self,
        *,
        user_id: str,
        conversation_id: str | None,
        plan_id: str,
        summary: str,
        language: str,
        actions: list[ToolAction],
        bulk_count: int | None,
        ttl_s: float,
        now: datetime,
    ) -> Draft:
        """Persist a new "pending" draft owned by `user_id`, with an unguessable id that is bound into
        the scopes of its per-draft actions (`toolkits.scopes.bind_draft`).

        Raises:
            pydantic.ValidationError: a field does not fit the Draft model (e.g. language).
            sqlite3.Error: the database failed.
        """
        created = to_utc(now)
        expires = created + timedelta(seconds=ttl_s)
        draft_id = secrets.token_urlsafe(16)
        actions = bind_draft(actions, draft_id)  # value changes are scoped by this draft (DESIGN §7)
        draft = Draft.model_validate(
            {
                "id": draft_id,
                "status": "pending",
                "plan_id": plan_id,
                "conversation_id": conversation_id,
                "summary": summary,
                "language": language,
                "created_at": iso(created),
                "expires_at": iso(expires),
                "bulk_count": bulk_count,
                "actions": [DraftAction(**action.model_dump(), index=i) for i, action in enumerate(actions)],
            }
        )

        def tx(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO drafts(id, owner_user_id, conversation_id, plan_id, status, summary, language,"
                " bulk_count, created_at, expires_at, expires_ts, updated_at)"
                " VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?)",
                (
                    draft.id,
                    user_id,
                    conversation_id,
                    plan_id,
                    summary,
                    draft.language,
                    bulk_count,
                    draft.created_at,
                    draft.expires_at,
                    expires.timestamp(),
                    draft.created_at,
                ),
            )
            conn.executemany(
                "INSERT INTO draft_actions(draft_id, idx, action) VALUES (?, ?, ?)",
                [(draft.id, i, action.model_dump_json()) for i, action in enumerate(actions)],
            )

        await self._db.write(tx)
        return draft

    async def get_draft(self, draft_id: str, user_id: str) -> Draft | None:
        """The draft, or None when it is missing or another user's (the same answer for both).

        An open draft past its `expires_at` is moved to "expired" (a CAS write) before it is returned.

        Raises:
            sqlite3.Error: the database failed.
        """
        found = await self._db.read(lambda conn: _read_draft(conn, draft_id, user_id))
        if found is None:
            return None
        draft, expires_ts = found
        now = self._now()
        if draft.status in OPEN_STATES and expires_ts <= now.timestamp():

            def tx(conn: sqlite3.Connection) -> tuple[Draft, float] | None:
                _expire_due(conn, user_id, now, draft_id)
                return _read_draft(conn, draft_id, user_id)

            found = await self._db.write(tx)
        return None if found is None else found[0]

    async def list_drafts(self, user_id: str, *, open_only: bool = True, limit: int = 50) -> list[Draft]:
        """The user's drafts, newest first (open ones only by default), with expiry applied.

        Raises:
            sqlite3.Error: the database failed.
        """
        await self._expire_user(user_id)
        sql = "SELECT id FROM drafts WHERE owner_user_id = ?"
        params: list[Any] = [user_id]
        if open_only:
            sql += f" AND status IN ({_OPEN_MARKS})"
            params += _OPEN
        sql += " ORDER BY rowid DESC LIMIT ?"
        params.append(max(1, limit))

        def tx(conn: sqlite3.Connection) -> list[Draft]:
            ids = [row[0] for row in conn.execute(sql, params)]
            return [found[0] for did in ids if (found := _read_draft(conn, did, user_id)) is not None]

        return await self._db.read(tx)

    async def open_beyond(self, user_id: str, keep: int) -> list[Draft]:
        """The user's open drafts beyond the newest `keep` (oldest last), with expiry applied: what a
        bound on drafts per user must cancel before one more is stored.

        Raises:
            sqlite3.Error: the database failed.
        """
        await self._expire_user(user_id)
        sql = (
            f"SELECT id FROM drafts WHERE owner_user_id = ? AND status IN ({_OPEN_MARKS})"
            " ORDER BY rowid DESC LIMIT -1 OFFSET ?"
        )

        def tx(conn: sqlite3.Connection) -> list[Draft]:
            ids = [row[0] for row in conn.execute(sql, (user_id, *_OPEN, max(0, keep)))]
            return [found[0] for did in ids if (found := _read_draft(conn, did, user_id)) is not None]

        return await self._db.read(tx)

    async def pending_in_conversation(self, user_id: str, conversation_id: str) -> Draft | None:
        """The newest draft of this conversation still waiting for the person's yes, if any.

        Raises:
            sqlite3.Error: the database failed.
        """
        await self._expire_user(user_id)
        sql = (
            "SELECT id FROM drafts WHERE owner_user_id = ? AND conversation_id = ? AND status IN (?, ?)"
            " ORDER BY rowid DESC LIMIT 1"
        )

        def tx(conn: sqlite3.Connection) -> Draft | None:
            row = conn.execute(sql, (user_id, conversation_id, *_AWAITING)).fetchone()
            found = None if row is None else _read_draft(conn, row[0], user_id)
            return None if found is None else found[0]

        return await self._db.read(tx)

    async def _expire_user(self, user_id: str) -> None:
        now = self._now()
        sql = f"SELECT 1 FROM drafts WHERE owner_user_id = ? AND status IN ({_OPEN_MARKS}) AND expires_ts <= ? LIMIT 1"
        params = (user_id, *_OPEN, now.timestamp())
        # Only take the write lock when something is actually due.
        if await self._db.read(lambda conn: conn.execute(sql, params).fetchone() is not None):
            await self._db.write(lambda conn: _expire_due(conn, user_id, now))

    async def transition(
        self, draft_id: str, user_id: str, from_states: Iterable[str], to_state: str
    ) -> bool:
        """Compare-and-swap the draft's status from one of `from_states` to `to_state`.

        An open draft past its TTL can only be cancelled or expired; any other move marks it
        "expired" and loses.

        Returns:
            True for the one caller whose swap happened; False when the draft is missing, another
            user's, or no longer in one of `from_states`.

        Raises:
            ValueError: some `from_state -> to_state` is not an edge of the draft state graph.
            sqlite3.Error: the database failed.
        """
        froms = tuple(sorted(set(from_states)))
        illegal = [state for state in froms if not is_allowed_transition(state, to_state)]
        if not froms or illegal:
            raise ValueError(f"illegal draft transition {illegal or '[]'} -> {to_state!r}")
        now = self._now()
        marks = ",".join("?" * len(froms))

        def tx(conn: sqlite3.Connection) -> bool:
            row = conn.execute(
                "SELECT status, expires_ts FROM drafts WHERE id = ? AND owner_user_id = ?",
                (draft_id, user_id),
            ).fetchone()
            if row is None or row[0] not in froms:
                return False
            if row[0] in OPEN_STATES and to_state not in _ALLOWED_AFTER_TTL and row[1] <= now.timestamp():
                _expire_due(conn, user_id, now, draft_id)
                return False
            # Entering "executing" starts the lease (see `stuck_drafts`).
            lease = ", executing_since = ?, heartbeat_ts = ?" if to_state == "executing" else ""
            stamps = (now.timestamp(), now.timestamp()) if lease else ()
            swapped = conn.execute(
                f"UPDATE drafts SET status = ?, version = version + 1, updated_at = ?{lease}"
                f" WHERE id = ? AND owner_user_id = ? AND status IN ({marks})",
                (to_state, iso(now), *stamps, draft_id, user_id, *froms),
            ).rowcount
            return bool(swapped == 1)

        return await self._db.write(tx)

    async def record_action(
        self,
        draft_id: str,
        index: int,
        status: str,
        result: Any = None,
        error: str | None = None,
        link: str | None = None,
    ) -> bool:
        """Store one action's outcome (the executor calls this as each action settles).

        Returns:
            Whether the action exists.

        Raises:
            ValueError: `status` is not an action status.
            sqlite3.Error: the database failed.
        """
        if status not in _ACTION_STATUSES:
            raise ValueError(f"not an action status: {status!r}")
        now = self._now()
        sql = (
            "UPDATE draft_actions SET status = ?, result = ?, error = ?, link = ?, updated_at = ?"
            " WHERE draft_id = ? AND idx = ?"
        )
        params = (status, dumps(result), error, link, iso(now), draft_id, index)

        def tx(conn: sqlite3.Connection) -> bool:
            found = conn.execute(sql, params).rowcount == 1
            # Progress proves the executor alive: it renews the lease as well.
            conn.execute(HEARTBEAT_SQL, (now.timestamp(), draft_id))
            return found

        return await self._db.write(tx)

    async def draft_events(self, draft_id: str, user_id: str) -> list[dict[str, str]]:
        """The draft's status changes in order: `{"from", "to", "at"}` (empty for a stranger).

        Raises:
            sqlite3.Error: the database failed.
        """
        sql = (
            "SELECT e.from_state, e.to_state, e.at FROM draft_events e JOIN drafts d ON d.id = e.draft_id"
            " WHERE e.draft_id = ? AND d.owner_user_id = ? ORDER BY e.id"
        )

        def tx(conn: sqlite3.Connection) -> list[dict[str, str]]:
            rows = conn.execute(sql, (draft_id, user_id)).fetchall()
            return [{"from": src, "to": dst, "at": at} for src, dst, at in rows]

        return await self._db.read(tx)

    async def prune(
        self,
        *,
        callback_max_age_s: float = 48 * 3600,
        unconfirmed_max_age_s: float = UNCONFIRMED_KEPT_S,
        finished_max_age_s: float = FINISHED_KEPT_S,
    ) -> int:
        """Bound what the store keeps (run on a schedule): expire drafts past their TTL, delete expired
        plans, callback replies older than `callback_max_age_s`, cancelled and expired drafts older
        than `unconfirmed_max_age_s`, and drop the arguments and results (the bulk) of drafts that
        finished more than `finished_max_age_s` ago; their status, previews and links stay.

        Telegram redelivers an update for at most 24 h, so 48 h of replies is ample.

        Returns:
            The number of rows deleted or trimmed.

        Raises:
            sqlite3.Error: the database failed.
        """
        now = self._now()
        now_ts = now.timestamp()
        unconfirmed = iso(now - timedelta(seconds=unconfirmed_max_age_s))
        finished = iso(now - timedelta(seconds=finished_max_age_s))

        def tx(conn: sqlite3.Connection) -> int:
            conn.execute(
                "UPDATE drafts SET status = 'expired', version = version + 1, updated_at = ?"
                f" WHERE status IN ({_OPEN_MARKS}) AND expires_ts <= ?",
                (iso(now), *_OPEN, now_ts),
            )
            plans = conn.execute("DELETE FROM plans WHERE expires_ts <= ?", (now_ts,)).rowcount
            replies = conn.execute(
                "DELETE FROM callback_replies WHERE started_ts <= ?", (now_ts - callback_max_age_s,)
            ).rowcount
            dropped = conn.execute(
                "DELETE FROM drafts WHERE status IN ('cancelled', 'expired') AND updated_at <= ?",
                (unconfirmed,),
            ).rowcount
            trimmed = conn.execute(
                "UPDATE draft_actions SET action = json_set(action, '$.args', json('{}')), result = NULL"
                " WHERE (result IS NOT NULL OR json_extract(action, '$.args') != '{}') AND draft_id IN"
                " (SELECT id FROM drafts WHERE status IN ('executed', 'partially_executed', 'failed')"
                " AND updated_at <= ?)",
                (finished,),
            ).rowcount
            return int(plans + replies + dropped + trimmed)

        return await self._db.write(tx)
