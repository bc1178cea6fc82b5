"""Settings from the environment (documented in the README)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from planner.limits import MAX_OPEN_DRAFTS

__all__ = ["Principal", "Settings"]


@dataclass(frozen=True)
class Principal:
    """Who holds an HTTP bearer token. A delegating principal (a bot) may act for its own users."""

    name: str
    token: str = field(repr=False)
    delegating: bool = False


def _default_db() -> Path:
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "planner-mcp" / "planner.db"


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def _per_toolkit(prefix: str) -> dict[str, str]:
    """`<PREFIX><TOOLKIT>=value` variables as {"toolkit": value}, e.g. COMPOSIO_CONNECTED_ACCOUNT_LINEAR."""
    found: dict[str, str] = {}
    for name, value in os.environ.items():
        if name.startswith(prefix) and len(name) > len(prefix) and value.strip():
            found[name[len(prefix) :].lower()] = value.strip()
    return found


def _positive(name: str, default: float) -> float:
    value = float(os.environ.get(name, str(default)))
    if value <= 0:
        raise ValueError(f"{name} must be a positive number of seconds")
    return value


@dataclass
class Settings:
    db_path: Path = field(default_factory=_default_db)
    # PostgreSQL instead of the SQLite file, for several processes: drafts and the sandbox together
    database_url: str | None = field(default=None, repr=False)  # may carry a password
    database_pool_max: int = 10  # connections per process (PostgreSQL only)
    composio_api_key: str | None = field(default=None, repr=False)
    composio_user_id: str = "default"
    # toolkit -> version / connected account id; versions default to toolkits.registry.versions()
    composio_toolkit_versions: dict[str, str] = field(default_factory=dict)
    composio_connected_accounts: dict[str, str] = field(default_factory=dict, repr=False)
    composio_timeout_s: float = 30.0
    dry_run: bool = False
    timezone: str = "Europe/Moscow"
    bulk_threshold: int = 5
    draft_ttl_s: float = 30 * 60
    plan_ttl_s: float = 24 * 3600
    concurrency: int = 8  # independent actions of one draft in flight at once
    reconcile_grace_s: float = 30.0  # how long a remote may still apply a request whose answer was lost
    lease_s: float = 30.0  # an executing draft whose lease is older (plus the grace) is taken over
    recovery_interval_s: float = 60.0  # how often each process looks for drafts a dead one left
    sandbox_write_latency_s: float = 0.0  # sandbox only: a slow remote, for demos and crash tests
    principals: tuple[Principal, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    metrics_token: str | None = field(default=None, repr=False)  # GET /metrics from beyond loopback
    audit_retention_days: float | None = (
        None  # audit records, plans and final drafts older go; None keeps all
    )
    # stdio (one process, one owner): the owner's user id, and whether the client speaks for several
    # people (a bot that spawned the server passes each person's user_id; DESIGN §10)
    stdio_user: str = "local"
    stdio_delegating: bool = False
    http_max_body_bytes: int = 1024 * 1024  # a request body over this is refused (413)
    http_max_sessions_per_principal: int = 100  # open Streamable HTTP sessions per token
    max_open_drafts: int = MAX_OPEN_DRAFTS  # drafts one user may have waiting for a yes
    prune_interval_s: float = 3600.0  # how often the store drops expired and finished drafts' bulk
    # the optional model interpreter (DESIGN §8): None keeps the rules alone
    interpreter: str | None = None  # "anthropic" | "openai"
    interpreter_model: str = ""
    interpreter_timeout_s: float = 5.0  # the whole call, the SDK's retries included
    interpreter_api_key: str | None = field(default=None, repr=False)  # <PROVIDER>_API_KEY
    interpreter_base_url: str | None = None  # <PROVIDER>_BASE_URL

    @property
    def database(self) -> str | Path:
        """Where all state lives (DESIGN §8): the PostgreSQL URL when set, else the SQLite file."""
        return self.database_url or self.db_path

    @classmethod
    def from_env(cls) -> Settings:
        principals: list[Principal] = []
        token = os.environ.get("PLANNER_HTTP_TOKEN", "").strip()
        if token:
            principals.append(Principal("http", token, delegating=True))
        # PLANNER_HTTP_TOKENS="name=token[:delegate],name2=token2"
        for item in filter(None, (x.strip() for x in os.environ.get("PLANNER_HTTP_TOKENS", "").split(","))):
            name, _, rest = item.partition("=")
            tok, _, mode = rest.partition(":")
            if name and tok:
                principals.append(Principal(name.strip(), tok.strip(), delegating=mode.strip() == "delegate"))
        db = os.environ.get("PLANNER_DB")
        return cls(
            db_path=Path(db).expanduser() if db else _default_db(),
            database_url=os.environ.get("PLANNER_DATABASE_URL", "").strip() or None,
            database_pool_max=max(1, int(os.environ.get("PLANNER_DATABASE_POOL_MAX", "10"))),
            composio_api_key=os.environ.get("COMPOSIO_API_KEY") or None,
            composio_user_id=os.environ.get("COMPOSIO_USER_ID", "default"),
            composio_toolkit_versions=_per_toolkit("COMPOSIO_TOOLKIT_VERSION_"),
            composio_connected_accounts=_per_toolkit("COMPOSIO_CONNECTED_ACCOUNT_"),
            composio_timeout_s=float(os.environ.get("COMPOSIO_TIMEOUT", "30")),
            dry_run=_flag("PLANNER_DRY_RUN"),
            timezone=os.environ.get("APP_TIMEZONE", "Europe/Moscow"),
            bulk_threshold=int(os.environ.get("PLANNER_BULK_THRESHOLD", "5")),
            draft_ttl_s=float(os.environ.get("PLANNER_DRAFT_TTL_MINUTES", "30")) * 60,
            concurrency=max(1, int(os.environ.get("PLANNER_CONCURRENCY", "8"))),
            reconcile_grace_s=float(os.environ.get("PLANNER_RECONCILE_GRACE_S", "30")),
            lease_s=_positive("PLANNER_LEASE_S", 30.0),
            recovery_interval_s=_positive("PLANNER_RECOVERY_INTERVAL_S", 60.0),
            sandbox_write_latency_s=float(os.environ.get("PLANNER_SANDBOX_WRITE_LATENCY_S", "0")),
            principals=tuple(principals),
            allowed_origins=tuple(filter(None, os.environ.get("PLANNER_ALLOWED_ORIGINS", "").split(","))),
            metrics_token=os.environ.get("PLANNER_METRICS_TOKEN", "").strip() or None,
            audit_retention_days=_retention_days(),
            stdio_user=os.environ.get("PLANNER_USER", "").strip()[:200] or "local",
            stdio_delegating=_flag("PLANNER_STDIO_DELEGATE"),
            http_max_body_bytes=max(
                1024, int(os.environ.get("PLANNER_HTTP_MAX_BODY_BYTES", str(1024 * 1024)))
            ),
            http_max_sessions_per_principal=max(1, int(os.environ.get("PLANNER_HTTP_MAX_SESSIONS", "100"))),
            max_open_drafts=max(1, int(os.environ.get("PLANNER_MAX_OPEN_DRAFTS", str(MAX_OPEN_DRAFTS)))),
            prune_interval_s=_positive("PLANNER_PRUNE_INTERVAL_S", 3600.0),
            **_interpreter(),
        )


def _interpreter() -> dict[str, Any]:
    """PLANNER_INTERPRETER=anthropic|openai, its model and timeout, and the SDK's own key and base URL
    (read here too, so the key is redacted wherever a message could carry it)."""
    provider = os.environ.get("PLANNER_INTERPRETER", "").strip().lower()
    if provider in ("", "off", "none", "0"):
        return {}
    if provider not in ("anthropic", "openai"):
        raise ValueError("PLANNER_INTERPRETER must be 'anthropic' or 'openai' (or unset: the rules alone)")
    model = os.environ.get("PLANNER_INTERPRETER_MODEL", "").strip()
    if not model:
        raise ValueError(f"PLANNER_INTERPRETER={provider} needs PLANNER_INTERPRETER_MODEL (the model's name)")
    prefix = provider.upper()
    key = os.environ.get(f"{prefix}_API_KEY", "").strip() or None
    base_url = os.environ.get(f"{prefix}_BASE_URL", "").strip() or None
    if provider == "openai" and not key and not base_url:
        raise ValueError(
            "PLANNER_INTERPRETER=openai needs OPENAI_API_KEY, or OPENAI_BASE_URL for a local server"
        )
    return {
        "interpreter": provider,
        "interpreter_model": model,
        "interpreter_timeout_s": _positive("PLANNER_INTERPRETER_TIMEOUT_S", 5.0),
        "interpreter_api_key": key,
        "interpreter_base_url": base_url,
    }


def _retention_days() -> float | None:
    raw = os.environ.get("PLANNER_AUDIT_RETENTION_DAYS", "").strip()
    if not raw:
        return None
    days = float(raw)
    if days <= 0:
        raise ValueError("PLANNER_AUDIT_RETENTION_DAYS must be a positive number of days")
    return days
