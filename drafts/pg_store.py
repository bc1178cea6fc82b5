"""PostgreSQL store for plans, drafts and their transitions (ledger, callbacks, audit:
`drafts._pg_journal`; execution lease and recovery: `drafts._pg_lease`): the same interface and
semantics as `SqliteStore`, for several server processes on several hosts sharing one database.

Where SQLite serialises writers with `BEGIN IMMEDIATE`, every claim and transition here is one
statement (`UPDATE ... WHERE status = ANY(...) RETURNING`): under READ COMMITTED a second such
UPDATE waits for the first, re-evaluates its WHERE on the new row and matches nothing, so exactly
one caller wins, in any process. Expiry stays lazy (whoever reads a draft past its TTL expires it),
so no process has to be the scheduler. Taking over a stuck draft uses `FOR UPDATE SKIP LOCKED`, so
recoverers in several processes never queue behind each other on one draft.

Times come from the store's clock (as in SQLite), so the hosts' clocks must agree to well within
the execution lease (NTP does).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, get_args

from psycopg.rows import TupleRow

from drafts._db import iso, to_utc
from drafts._pg import Conn, PgDatabase, js
from drafts._pg_journal import PgJournalMixin
from drafts._pg_lease import BEAT_SQL, PgLeaseMixin
from drafts._pg_operator import PgOperatorMixin
from drafts.journal import CALLBACK_LEASE_S
from drafts.models import OPEN_STATES, ActionStatus, Draft, DraftAction, is_allowed_transition
from drafts.store import FINISHED_KEPT_S, UNCONFIRMED_KEPT_S
from toolkits.base import ToolAction
from toolkits.scopes import bind_draft

__all__ = ["PgStore"]

_OPEN = sorted(OPEN_STATES)
_AWAITING = ["awaiting_bulk_confirmation", "pending"]
_ACTION_STATUSES = frozenset(get_args(ActionStatus))
_ALLOWED_AFTER_TTL = frozenset({"cancelled", "expired"})

# A draft with its actions in one statement (one snapshot, one round trip); `_drafts` groups them.
_COLUMNS = (
    "d.id, d.status, d.plan_id, d.conversation_id, d.summary, d.language, d.created_at, d.expires_at,"
    " d.bulk_count, a.idx, a.action, a.status, a.result, a.error, a.link"
)
_ONE_DRAFT = (
    f"SELECT {_COLUMNS} FROM drafts d LEFT JOIN draft_actions a ON a.draft_id = d.id"
    " WHERE d.id = %s AND d.owner_user_id = %s ORDER BY a.idx"
)
_EXPIRE_DUE = (
    "UPDATE drafts SET status = 'expired', version = version + 1, updated_at = %(now)s"
    " WHERE owner_user_id = %(user)s AND status = ANY(%(open)s) AND expires_at <= %(now)s"
)
# One statement: a CAS that refuses to move an open draft past its TTL forward, and in that case
# records the expiry instead. The two UPDATEs cannot both match: whether a draft is due never
# changes between row versions, and they disagree on exactly that.
_TRANSITION = """
WITH swapped AS (
    UPDATE drafts SET status = %(to)s, version = version + 1, updated_at = %(now)s{lease}
    WHERE id = %(id)s AND owner_user_id = %(user)s AND status = ANY(%(froms)s)
      AND (%(late_ok)s OR status <> ALL(%(open)s) OR expires_at > %(now)s)
    RETURNING 1
), expired AS (
    UPDATE drafts SET status = 'expired', version = version + 1, updated_at = %(now)s
    WHERE id = %(id)s AND owner_user_id = %(user)s AND status = ANY(%(froms)s)
      AND NOT %(late_ok)s AND status = ANY(%(open)s) AND expires_at <= %(now)s
    RETURNING 1
)
SELECT count(*) FROM swapped
"""


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _drafts(rows: Sequence[TupleRow]) -> list[tuple[Draft, datetime]]:
    """Drafts (in row order) with their expiry, from `_COLUMNS` rows, one per action."""
    grouped: dict[str, tuple[TupleRow, list[DraftAction]]] = {}
    for row in rows:
        _, actions = grouped.setdefault(row[0], (row, []))
        idx, action, status, result, error, link = row[9:]
        if idx is not None:
            actions.append(
                DraftAction(**action, index=idx, status=status, result=result, error=error, link=link)
            )
    found: list[tuple[Draft, datetime]] = []
    for head, actions in grouped.values():
        did, status, plan_id, conversation_id, summary, language, created, expires, bulk = head[:9]
        draft = Draft(
            id=did,
            status=status,
            plan_id=plan_id,
            conversation_id=conversation_id,
            summary=summary,
            language=language,
            created_at=iso(created),
            expires_at=iso(expires),
            bulk_count=bulk,
            actions=actions,
        )
        found.append((draft, expires))
    return found


async def _fetch(conn: Conn, sql: str, params: Any) -> list[TupleRow]:
    cur = await conn.execute(sql, params)
    return await cur.fetchall()


class PgStore(PgLeaseMixin, PgJournalMixin, PgOperatorMixin):
    """Plans, drafts, the side-effect ledger, callback replies and the audit log in PostgreSQL.

    Nothing connects until the first call (or `open`), which also applies the migrations.

    Args:
        url: a `postgresql://` URL; name a schema with `options=-csearch_path=<schema>` to keep the
            tables apart from others (it is created on first start if missing).
        clock: returns the current time (tests pass a fixed one); defaults to the UTC wall clock.
        callback_stale_s: an unfinished callback claim whose lease was not renewed for this long is
            taken over by the next delivery (its first handler is presumed dead).
        pool_min, pool_max: connections kept and allowed, per process.
    """

    def __init__(
        self,
        url: str,
        *,
        clock: Callable[[], datetime] | None = None,
        callback_stale_s: float = CALLBACK_LEASE_S,
        pool_min: int = 1,
        pool_max: int = 10,
    ) -> None:
        self._db = PgDatabase(url, min_size=pool_min, max_size=pool_max)
        self._now = clock or _utcnow
        self._callback_stale_s = callback_stale_s

    async def open(self) -> None:
        """Connect and migrate now (otherwise the first call does).

        Raises:
            psycopg.Error, psycopg_pool.PoolTimeout: the database is unreachable or a migration
                failed; RuntimeError: the store is closed.
        """
        await self._db.open()

    async def close(self) -> None:
        """Close the pool (idempotent); later calls raise RuntimeError."""
        await self._db.close()

    # -- plans --------------------------------------------------------------------------------

    async def save_plan(
        self, plan_id: str, user_id: str, conversation_id: str | None, state: dict[str, Any], ttl_s: float
    ) -> None:
        """Store (or replace) the planner's pending interpretation for `ttl_s` seconds.

        Raises:
            ValueError: `plan_id` already belongs to another user.
            psycopg.Error: the database failed.
        """
        now = to_utc(self._now())
        sql = (
            "INSERT INTO plans(id, user_id, conversation_id, state, created_at, updated_at, expires_at)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO UPDATE SET"
            " conversation_id = EXCLUDED.conversation_id, state = EXCLUDED.state,"
            " updated_at = EXCLUDED.updated_at, expires_at = EXCLUDED.expires_at"
            " WHERE plans.user_id = EXCLUDED.user_id"
        )
        params = (plan_id, user_id, conversation_id, js(state), now, now, now + timedelta(seconds=ttl_s))
        if await self._db.execute(sql, params) != 1:
            raise ValueError("plan id already in use")

    async def load_plan(self, plan_id: str, user_id: str) -> dict[str, Any] | None:
        """The plan's state, or None when it is missing, expired or another user's.

        Raises:
            psycopg.Error: the database failed.
        """
        sql = "SELECT state FROM plans WHERE id = %s AND user_id = %s AND expires_at > %s"
        row = await self._db.fetchone(sql, (plan_id, user_id, to_utc(self._now())))
        return None if row is None else dict(row[0])

    async def update_plan(
        self, plan_id: str, user_id: str, state: dict[str, Any], *, ttl_s: float | None = None
    ) -> bool:
        """Replace a live plan's state (and, with `ttl_s`, extend its life from now).

        Returns:
            False when the plan is missing, expired or another user's.

        Raises:
            psycopg.Error: the database failed.
        """
        now = to_utc(self._now())
        sql = "UPDATE plans SET state = %s, updated_at = %s"
        params: list[Any] = [js(state), now]
        if ttl_s is not None:
            sql += ", expires_at = %s"
            params.append(now + timedelta(seconds=ttl_s))
        sql += " WHERE id = %s AND user_id = %s AND expires_at > %s"
        params += [plan_id, user_id, now]
        return await self._db.execute(sql, params) == 1

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
            psycopg.Error: the database failed.
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
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO drafts(id, owner_user_id, conversation_id, plan_id, status, summary, language,"
                " bulk_count, created_at, expires_at, updated_at)"
                " VALUES (%s, %s, %s, %s, 'pending', %s, %s, %s, %s, %s, %s)",
                (draft.id, user_id, conversation_id, plan_id, summary, draft.language, bulk_count)
                + (created, expires, created),
            )
            async with conn.cursor() as cur:
                await cur.executemany(
                    "INSERT INTO draft_actions(draft_id, idx, action) VALUES (%s, %s, %s)",
                    [(draft.id, i, js(action.model_dump(mode="json"))) for i, action in enumerate(actions)],
                )
        return draft

    async def get_draft(self, draft_id: str, user_id: str) -> Draft | None:
        """The draft, or None when it is missing or another user's (the same answer for both).

        An open draft past its `expires_at` is moved to "expired" (a CAS write) before it is returned.

        Raises:
            psycopg.Error: the database failed.
        """
        async with self._db.connection() as conn:
            found = _drafts(await _fetch(conn, _ONE_DRAFT, (draft_id, user_id)))
            if not found:
                return None
            draft, expires = found[0]
            now = to_utc(self._now())
            if draft.status in OPEN_STATES and expires <= now:
                params = {"now": now, "user": user_id, "open": _OPEN, "id": draft_id}
                await conn.execute(_EXPIRE_DUE + " AND id = %(id)s", params)
                found = _drafts(await _fetch(conn, _ONE_DRAFT, (draft_id, user_id)))
        return found[0][0] if found else None

    async def list_drafts(self, user_id: str, *, open_only: bool = True, limit: int = 50) -> list[Draft]:
        """The user's drafts, newest first (open ones only by default), with expiry applied.

        Raises:
            psycopg.Error: the database failed.
        """
        which = " AND status = ANY(%(open)s)" if open_only else ""
        sql = (
            f"SELECT {_COLUMNS} FROM (SELECT * FROM drafts WHERE owner_user_id = %(user)s{which}"
            " ORDER BY seq DESC LIMIT %(limit)s) d"
            " LEFT JOIN draft_actions a ON a.draft_id = d.id ORDER BY d.seq DESC, a.idx"
        )
        params = {"now": to_utc(self._now()), "user": user_id, "open": _OPEN, "limit": max(1, limit)}
        async with self._db.connection() as conn:
            await conn.execute(_EXPIRE_DUE, params)
            return [draft for draft, _ in _drafts(await _fetch(conn, sql, params))]

    async def open_beyond(self, user_id: str, keep: int) -> list[Draft]:
        """The user's open drafts beyond the newest `keep` (see `SqliteStore.open_beyond`).

        Raises:
            psycopg.Error: the database failed.
        """
        sql = (
            f"SELECT {_COLUMNS} FROM (SELECT * FROM drafts WHERE owner_user_id = %(user)s"
            " AND status = ANY(%(open)s) ORDER BY seq DESC OFFSET %(keep)s) d"
            " LEFT JOIN draft_actions a ON a.draft_id = d.id ORDER BY d.seq DESC, a.idx"
        )
        params = {"now": to_utc(self._now()), "user": user_id, "open": _OPEN, "keep": max(0, keep)}
        async with self._db.connection() as conn:
            await conn.execute(_EXPIRE_DUE, params)
            return [draft for draft, _ in _drafts(await _fetch(conn, sql, params))]

    async def pending_in_conversation(self, user_id: str, conversation_id: str) -> Draft | None:
        """The newest draft of this conversation still waiting for the person's yes, if any.

        Raises:
            psycopg.Error: the database failed.
        """
        sql = (
            f"SELECT {_COLUMNS} FROM (SELECT * FROM drafts WHERE owner_user_id = %(user)s"
            " AND conversation_id = %(conversation)s AND status = ANY(%(awaiting)s) ORDER BY seq DESC LIMIT 1) d"
            " LEFT JOIN draft_actions a ON a.draft_id = d.id ORDER BY a.idx"
        )
        params = {
            "now": to_utc(self._now()),
            "user": user_id,
            "open": _OPEN,
            "conversation": conversation_id,
            "awaiting": _AWAITING,
        }
        async with self._db.connection() as conn:
            await conn.execute(_EXPIRE_DUE, params)
            found = _drafts(await _fetch(conn, sql, params))
        return found[0][0] if found else None

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
            psycopg.Error: the database failed.
        """
        froms = sorted(set(from_states))
        illegal = [state for state in froms if not is_allowed_transition(state, to_state)]
        if not froms or illegal:
            raise ValueError(f"illegal draft transition {illegal or '[]'} -> {to_state!r}")
        # Entering "executing" starts the lease (see `stuck_drafts`).
        lease = ", executing_since = %(now)s, heartbeat_at = %(now)s" if to_state == "executing" else ""
        params = {
            "to": to_state,
            "now": to_utc(self._now()),
            "id": draft_id,
            "user": user_id,
            "froms": froms,
            "open": _OPEN,
            "late_ok": to_state in _ALLOWED_AFTER_TTL,
        }
        row = await self._db.fetchone(_TRANSITION.format(lease=lease), params)
        return row is not None and row[0] == 1

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
            psycopg.Error: the database failed.
        """
        if status not in _ACTION_STATUSES:
            raise ValueError(f"not an action status: {status!r}")
        # Progress proves the executor alive: the same statement renews the lease.
        sql = (
            f"WITH beat AS ({BEAT_SQL}) UPDATE draft_actions SET status = %(status)s, result = %(result)s,"
            " error = %(error)s, link = %(link)s, updated_at = %(now)s WHERE draft_id = %(id)s AND idx = %(idx)s"
        )
        params = {
            "now": to_utc(self._now()),
            "id": draft_id,
            "status": status,
            "result": js(result),
            "error": error,
            "link": link,
            "idx": index,
        }
        return await self._db.execute(sql, params) == 1

    async def draft_events(self, draft_id: str, user_id: str) -> list[dict[str, str]]:
        """The draft's status changes in order: `{"from", "to", "at"}` (empty for a stranger).

        Raises:
            psycopg.Error: the database failed.
        """
        sql = (
            "SELECT e.from_state, e.to_state, e.at FROM draft_events e JOIN drafts d ON d.id = e.draft_id"
            " WHERE e.draft_id = %s AND d.owner_user_id = %s ORDER BY e.id"
        )
        rows = await self._db.fetchall(sql, (draft_id, user_id))
        return [{"from": src, "to": dst, "at": iso(at)} for src, dst, at in rows]

    async def prune(
        self,
        *,
        callback_max_age_s: float = 48 * 3600,
        unconfirmed_max_age_s: float = UNCONFIRMED_KEPT_S,
        finished_max_age_s: float = FINISHED_KEPT_S,
    ) -> int:
        """Bound what the store keeps (run on a schedule): see `SqliteStore.prune`.

        Returns:
            The number of rows deleted or trimmed.

        Raises:
            psycopg.Error: the database failed.
        """
        now = to_utc(self._now())
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE drafts SET status = 'expired', version = version + 1, updated_at = %(now)s"
                " WHERE status = ANY(%(open)s) AND expires_at <= %(now)s",
                {"now": now, "open": _OPEN},
            )
            plans = await conn.execute("DELETE FROM plans WHERE expires_at <= %s", (now,))
            replies = await conn.execute(
                "DELETE FROM callback_replies WHERE started_at <= %s",
                (now - timedelta(seconds=callback_max_age_s),),
            )
            dropped = await conn.execute(
                "DELETE FROM drafts WHERE status IN ('cancelled', 'expired') AND updated_at <= %s",
                (now - timedelta(seconds=unconfirmed_max_age_s),),
            )
            trimmed = await conn.execute(
                "UPDATE draft_actions SET action = jsonb_set(action::jsonb, '{args}', '{}'::jsonb)::json,"
                " result = NULL WHERE (result IS NOT NULL OR (action::jsonb -> 'args') <> '{}'::jsonb)"
                " AND draft_id IN (SELECT id FROM drafts WHERE status IN"
                " ('executed', 'partially_executed', 'failed') AND updated_at <= %s)",
                (now - timedelta(seconds=finished_max_age_s),),
            )
            return plans.rowcount + replies.rowcount + dropped.rowcount + trimmed.rowcount
