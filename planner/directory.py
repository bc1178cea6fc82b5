"""A read-only view of the person's workspace, built from the same read tools a plan uses.

Records come back in Attio's / Linear's shapes; `Entity` is the planner's flat view of one. Lists
are loaded on first use and cached briefly (reference data changes rarely; `invalidate()` after an
execution makes new records visible at once).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from planner.wording import money

__all__ = ["Directory", "Entity", "Reader"]

Reader = Callable[[str, Mapping[str, Any]], Awaitable[Any]]
"""Executes a read-only slug and returns its `data` (raises on failure)."""


@dataclass
class Entity:
    kind: str
    id: str
    name: str
    subtitle: str = ""
    url: str | None = None
    aliases: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


def _first(values: Mapping[str, Any], key: str, sub: str = "value") -> Any:
    seq = values.get(key) or []
    if isinstance(seq, list) and seq:
        item = seq[0]
        return item.get(sub) if isinstance(item, dict) else item
    return None


def _record_id(rec: Mapping[str, Any]) -> str:
    rid = rec.get("id")
    if isinstance(rid, dict):
        return str(rid.get("record_id") or rid.get("workspace_member_id") or rid.get("status_id") or "")
    return str(rid or "")


def _rows(data: Any, *keys: str) -> list[dict[str, Any]]:
    """Find the list of rows in a tool's `data`, whichever envelope key it uses."""
    if isinstance(data, list):
        return [x for x in data if isinstance(x, dict)]
    if isinstance(data, dict):
        for k in (*keys, "data", "items", "results", "nodes"):
            v = data.get(k)
            if isinstance(v, list):
                return [x for x in v if isinstance(x, dict)]
            if isinstance(v, dict) and k not in keys:
                inner = _rows(v, *keys)
                if inner:
                    return inner
    return []


class Directory:
    def __init__(self, read: Reader, *, ttl_s: float = 5.0) -> None:
        self._read = read
        self._ttl = ttl_s
        self._cache: dict[str, tuple[float, list[Entity]]] = {}

    def invalidate(self) -> None:
        self._cache.clear()

    async def _cached(self, key: str, load: Callable[[], Awaitable[list[Entity]]]) -> list[Entity]:
        hit = self._cache.get(key)
        now = time.monotonic()
        if hit and now - hit[0] < self._ttl:
            return hit[1]
        value = await load()
        self._cache[key] = (now, value)
        return value

    # ---- Attio -------------------------------------------------------------------------------
    async def _records(self, obj: str) -> list[dict[str, Any]]:
        return _rows(await self._read("ATTIO_QUERY_RECORDS", {"object": obj, "limit": 500}))

    async def companies(self) -> list[Entity]:
        async def load() -> list[Entity]:
            out = []
            for r in await self._records("companies"):
                v = r.get("values", {})
                domains = [
                    str(d["domain"]) for d in v.get("domains", []) if isinstance(d, dict) and d.get("domain")
                ]
                name = str(_first(v, "name") or (domains[0] if domains else ""))
                aliases = [d.split(".")[0] for d in domains]
                out.append(
                    Entity(
                        "company",
                        _record_id(r),
                        name,
                        ", ".join(domains),
                        r.get("web_url"),
                        aliases,
                        {"domains": domains},
                    )
                )
            # a domain's word that starts another company's name too ("acme" of acme.com, and Acme
            # Logistics) names neither on its own: said alone, it is a question, not the domain's owner
            firsts = [(e.id, e.name.split()[0].lower()) for e in out if e.name.split()]
            for e in out:
                e.aliases[:] = [
                    a for a in e.aliases if not any(i != e.id and w == a.lower() for i, w in firsts)
                ]
            return out

        return await self._cached("companies", load)

    async def people(self) -> list[Entity]:
        async def load() -> list[Entity]:
            companies = {c.id: c.name for c in await self.companies()}
            out = []
            for r in await self._records("people"):
                v = r.get("values", {})
                nm = (v.get("name") or [{}])[0] if v.get("name") else {}
                full = str(
                    nm.get("full_name") or " ".join(filter(None, [nm.get("first_name"), nm.get("last_name")]))
                )
                emails = [e.get("email_address") for e in v.get("email_addresses", []) if isinstance(e, dict)]
                company_id = _first(v, "company", "target_record_id")
                title = _first(v, "job_title") or ""
                sub = ", ".join(x for x in [str(title), companies.get(str(company_id), "")] if x)
                out.append(
                    Entity(
                        "person",
                        _record_id(r),
                        full,
                        sub,
                        r.get("web_url"),
                        [],
                        {
                            "emails": emails,
                            "company_id": company_id,
                            "company": companies.get(str(company_id), ""),
                            "job_title": str(title),
                        },
                    )
                )
            return out

        return await self._cached("people", load)

    async def deals(self) -> list[Entity]:
        async def load() -> list[Entity]:
            companies = {c.id: c.name for c in await self.companies()}
            out = []
            for r in await self._records("deals"):
                v = r.get("values", {})
                stage = _first(v, "stage", "status") or {}
                company_id = _first(v, "associated_company", "target_record_id")
                owner = _first(v, "owner", "referenced_actor_id")
                amount = _first(v, "value", "currency_value")
                currency = _first(v, "value", "currency_code")
                stage_title = stage.get("title", "") if isinstance(stage, dict) else ""
                sub = " · ".join(x for x in [stage_title, money(amount, currency) if amount else ""] if x)
                out.append(
                    Entity(
                        "deal",
                        _record_id(r),
                        str(_first(v, "name") or ""),
                        sub,
                        r.get("web_url"),
                        [],
                        {
                            "company_id": company_id,
                            "company": companies.get(str(company_id), ""),
                            "stage": stage_title,
                            "owner_id": owner,
                            "amount": amount,
                            "currency": currency,
                        },
                    )
                )
            return out

        return await self._cached("deals", load)

    async def members(self) -> list[Entity]:
        async def load() -> list[Entity]:
            rows = _rows(await self._read("ATTIO_LIST_WORKSPACE_MEMBERS", {}))
            out = []
            for r in rows:
                name = " ".join(filter(None, [r.get("first_name"), r.get("last_name")]))
                email = str(r.get("email_address") or "")
                out.append(
                    Entity(
                        "member",
                        _record_id(r),
                        name,
                        email,
                        None,
                        [email.split("@")[0]] if email else [],
                        {"email": email},
                    )
                )
            return out

        return await self._cached("members", load)

    async def stages(self) -> list[Entity]:
        async def load() -> list[Entity]:
            rows = _rows(
                await self._read(
                    "ATTIO_LIST_ATTRIBUTE_STATUSES",
                    {"target": "objects", "identifier": "deals", "attribute": "stage"},
                )
            )
            return [
                Entity("stage", _record_id(r), str(r.get("title", "")))
                for r in rows
                if not r.get("is_archived")
            ]

        return await self._cached("stages", load)

    # ---- Linear ------------------------------------------------------------------------------
    async def teams(self) -> list[Entity]:
        async def load() -> list[Entity]:
            rows = _rows(await self._read("LINEAR_LIST_LINEAR_TEAMS", {}), "teams")
            return [
                Entity(
                    "team",
                    str(r.get("id")),
                    str(r.get("name", "")),
                    str(r.get("key", "")),
                    None,
                    [str(r.get("key", ""))],
                    {"key": r.get("key")},
                )
                for r in rows
            ]

        return await self._cached("teams", load)

    async def states(self, team_id: str) -> list[Entity]:
        async def load() -> list[Entity]:
            rows = _rows(await self._read("LINEAR_LIST_LINEAR_STATES", {"team_id": team_id}), "states")
            return [
                Entity(
                    "state",
                    str(r.get("id")),
                    str(r.get("name", "")),
                    str(r.get("type", "")),
                    None,
                    [],
                    {"type": r.get("type")},
                )
                for r in rows
            ]

        return await self._cached(f"states:{team_id}", load)

    async def projects(self) -> list[Entity]:
        async def load() -> list[Entity]:
            rows = _rows(await self._read("LINEAR_LIST_LINEAR_PROJECTS", {}), "projects")
            out = []
            for r in rows:
                teams = r.get("teams") or []
                team_ids = [
                    t.get("id") for t in (teams.get("nodes", []) if isinstance(teams, dict) else teams)
                ]
                out.append(
                    Entity(
                        "project",
                        str(r.get("id")),
                        str(r.get("name", "")),
                        "",
                        r.get("url"),
                        [],
                        {"team_ids": team_ids},
                    )
                )
            return out

        return await self._cached("projects", load)

    async def labels(self, team_id: str | None = None) -> list[Entity]:
        """The labels an issue of `team_id` may carry (workspace labels and the team's own): listed
        without the team, other teams' labels come too, and a team's issueCreate refuses them."""

        async def load() -> list[Entity]:
            args = {"team_id": team_id} if team_id else {}
            rows = _rows(await self._read("LINEAR_LIST_LINEAR_LABELS", args), "labels")
            return [Entity("label", str(r.get("id")), str(r.get("name", ""))) for r in rows]

        return await self._cached(f"labels:{team_id or '*'}", load)

    async def users(self) -> list[Entity]:
        """Linear's users; the one LINEAR_GET_CURRENT_USER names (`viewer`) is marked `is_me`:
        Linear's users list has no `isMe` field."""

        async def load() -> list[Entity]:
            rows = _rows(await self._read("LINEAR_LIST_LINEAR_USERS", {}), "users")
            me = await self._viewer_id()
            out = []
            for r in rows:
                email = str(r.get("email") or "")
                out.append(
                    Entity(
                        "user",
                        str(r.get("id")),
                        str(r.get("name") or r.get("displayName") or ""),
                        email,
                        None,
                        [email.split("@")[0]] if email else [],
                        {"email": email, "is_me": me is not None and str(r.get("id")) == me},
                    )
                )
            return out

        return await self._cached("users", load)

    async def _viewer_id(self) -> str | None:
        try:
            data = await self._read("LINEAR_GET_CURRENT_USER", {})
        except LookupError:
            return None
        viewer = data.get("viewer", data) if isinstance(data, dict) else None
        return str(viewer["id"]) if isinstance(viewer, dict) and viewer.get("id") else None

    async def issue(self, ident: str) -> dict[str, Any] | None:
        try:
            data = await self._read("LINEAR_GET_LINEAR_ISSUE", {"issue_id": ident})
        except LookupError:
            return None
        if isinstance(data, dict) and isinstance(data.get("issue"), dict):
            data = data["issue"]
        return data if isinstance(data, dict) and data.get("id") else None

    async def search_issues(self, query: str, first: int = 25) -> list[dict[str, Any]]:
        return _rows(await self._read("LINEAR_SEARCH_ISSUES", {"query": query, "first": first}), "issues")

    async def issues_assigned_to(self, user_id: str, first: int = 25) -> list[dict[str, Any]]:
        return _rows(
            await self._read("LINEAR_LIST_LINEAR_ISSUES", {"assignee_id": user_id, "first": first}), "issues"
        )

    async def crm_tasks(self, flt: Mapping[str, Any]) -> list[dict[str, Any]]:
        return _rows(await self._read("ATTIO_GET_V2_TASKS", dict(flt)))

    async def issue_titles(self) -> list[Entity]:
        """Every team's issues as (identifier, title), for an issue named by its whole title."""

        async def load() -> list[Entity]:
            out = []
            for team in await self.teams():
                for r in await self.team_issues(team.id):
                    if r.get("identifier") and r.get("title"):
                        out.append(Entity("issue", str(r["identifier"]), str(r["title"])))
            return out

        return await self._cached("issue_titles", load)

    async def team_issues(self, team_id: str, first: int = 100) -> list[dict[str, Any]]:
        return _rows(
            await self._read("LINEAR_LIST_ISSUES_BY_TEAM_ID", {"team_id": team_id, "first": first}), "issues"
        )
