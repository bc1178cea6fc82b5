"""`ComposioBackend`: the Backend protocol over the real `composio` SDK (DESIGN §8).

- `composio` takes ~2.5 s to import, so it is imported on the first call (off the event loop), never
  when this module is imported: a server that is only listing tools never waits for it.
- One SDK client, built with `allow_tracking=False`, the pinned toolkit versions and the SDK's own
  retries off (`max_retries=0`): every retry decision is made here, once (notes/reliability.md §4).
- The SDK blocks, so calls run in `asyncio.to_thread`. The SDK keeps `allow_tracking` in a
  ContextVar of the context that built the client; a worker thread does not necessarily share it,
  so each worker switches tracking off again before calling (notes/composio.md, telemetry gotcha).
- Composio's exceptions are translated exactly once, in `map_composio_errors`, into
  `toolkits.errors`; nothing else here names them.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import email.utils
import logging
import os
import re
import sys
import threading
import time
import uuid
from collections.abc import Collection, Iterable, Iterator, Mapping
from typing import Any

import httpx
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    stop_after_delay,
    wait_random_exponential,
)

from toolkits import metrics
from toolkits.base import ToolResult
from toolkits.composio_errors import Refusal, refusal_of, trouble_of
from toolkits.errors import (
    NotConnected,
    OutcomeUnknown,
    ToolkitError,
    UpstreamRejected,
    UpstreamUnavailable,
)
from toolkits.registry import versions
from toolkits.results import normalise
from toolkits.sandbox import READ_SLUGS
from toolkits.schemas import check_arguments, known_slugs, toolkit_of

__all__ = [
    "RETRY_AFTER_CAP_S",
    "ComposioBackend",
    "default_retrying",
    "is_keyed_write",
    "is_write_call",
    "map_composio_errors",
]

logger = logging.getLogger(__name__)

RETRY_AFTER_CAP_S = 30.0  # a longer Retry-After is reported to the caller, not waited out in a tool call
_GRAPHQL_SLUG = "LINEAR_RUN_QUERY_OR_MUTATION"
_MUTATION = re.compile(r"\bmutation\b")
# "ENG-429 not found" is not a rate limit: a bare 429 counts only as a status
_PROVIDER_RATE_LIMIT = re.compile(
    r"rate[ _-]?limit|ratelimited|too many requests|\b(?:http|status|code)[ :=]*429\b", re.IGNORECASE
)
_DETAIL_CHARS = 200
_KEY_LIKE = re.compile(r"\b((?:ak|uak|oak|ca)_)[A-Za-z0-9_\-]{2,}")


class _NothingApplied(UpstreamUnavailable):
    """Transient, and the remote surely did not apply the call (connect error, 408/429, a failed
    schema fetch before the execute was sent): safe to retry even a write."""


def default_retrying() -> AsyncRetrying:
    """Full-jitter backoff (0.5 s doubling, 8 s cap), at most 4 attempts or 60 s."""
    return AsyncRetrying(
        stop=stop_after_attempt(4) | stop_after_delay(60),
        wait=wait_random_exponential(multiplier=0.5, max=8),
    )


def is_write_call(slug: str, arguments: Mapping[str, Any]) -> bool:
    """Whether the call may change remote state; a GraphQL document is a write if it mutates."""
    if slug == _GRAPHQL_SLUG:
        return bool(_MUTATION.search(str(arguments.get("query_or_mutation", ""))))
    return slug not in READ_SLUGS


def is_keyed_write(slug: str, arguments: Mapping[str, Any]) -> bool:
    """A write the remote dedupes by a client-chosen identity, so repeating it is harmless:
    Attio asserts (upsert by domain / email) and Linear `issueCreate` with `input.id`."""
    if slug.startswith("ATTIO_ASSERT_"):
        return True
    if slug != _GRAPHQL_SLUG or "issueCreate" not in str(arguments.get("query_or_mutation", "")):
        return False
    variables = arguments.get("variables")
    data = variables.get("input") if isinstance(variables, Mapping) else None
    return isinstance(data, Mapping) and isinstance(data.get("id"), str) and bool(data["id"])


# --- error translation ----------------------------------------------------------------------------


@contextlib.contextmanager
def map_composio_errors(
    slug: str, *, write: bool, secrets: Iterable[str] = (), user_id: str = "default"
) -> Iterator[None]:
    """Translate Composio's exceptions raised inside the block into `toolkits.errors`, once.

    Connection problems: a read -> UpstreamUnavailable; a write -> UpstreamUnavailable when the
    request surely did not leave (connect error, or the schema fetch that precedes the execute),
    OutcomeUnknown when it may have (read timeout, dropped connection). HTTP 429/408 ->
    UpstreamUnavailable (with Retry-After); 5xx -> UpstreamUnavailable for reads, OutcomeUnknown for
    writes; 401/403 and Composio's connected-account refusals (1803/1810, 1811, 1812, expired) ->
    NotConnected naming the fix; other 4xx -> UpstreamRejected with Composio's message and suggested
    fix. The request id of every refusal is logged. Messages never carry `secrets`.

    Raises:
        ToolkitError: the translation of a Composio error; anything else passes through unchanged.
    """
    try:
        yield
    except ToolkitError:
        raise
    except Exception as exc:
        error = _translate(exc, slug, write, tuple(s for s in secrets if s), user_id)
        if error is None:
            raise
        raise error from exc


def _translate(
    exc: Exception, slug: str, write: bool, secrets: tuple[str, ...], user_id: str
) -> ToolkitError | None:
    if "composio_client" not in sys.modules:  # not a Composio error; and importing it costs 2.5 s
        return None
    import composio_client as cc
    from composio import exceptions as cx

    if isinstance(exc, cc.APIStatusError):
        return _from_status(exc, slug, write, secrets, user_id)
    if isinstance(exc, cc.APIConnectionError):  # APITimeoutError included
        return _from_connection(exc, slug, write)
    if isinstance(exc, cc.APIResponseValidationError):
        if write:
            return OutcomeUnknown(
                f"Composio's answer to {slug} could not be read; the change may have been applied"
            )
        return UpstreamUnavailable(f"Composio's answer to {slug} could not be read")
    if isinstance(exc, cx.ToolNotFoundError):
        logger.warning(
            "composio: no tool %s at the pinned version, request_id %s",
            slug,
            getattr(exc.__cause__, "request_id", None) or "-",
        )
        return UpstreamRejected(
            f"Composio has no tool {slug} at the pinned toolkit version: run `planner-mcp doctor` "
            "(Composio retires old versions)"
        )
    if isinstance(exc, cx.ToolVersionRequiredError):
        return UpstreamRejected(f"no toolkit version is pinned for {slug}")
    if isinstance(exc, cx.ApiKeyError):
        return NotConnected(
            "The Composio API key is missing: set COMPOSIO_API_KEY (`planner-mcp doctor` checks it).",
            reason="key",
            fix="planner-mcp doctor",
        )
    if isinstance(exc, cx.ComposioError | cc.ComposioError):
        # raised by the SDK itself, before anything is sent (configuration, parameters)
        return UpstreamRejected(f"Composio could not run {slug}: {_clean(str(exc), secrets)}")
    return None


def _method(exc: Any) -> str:
    request = getattr(exc, "request", None)
    return str(getattr(request, "method", "")).upper()


def _from_connection(exc: Exception, slug: str, write: bool) -> ToolkitError:
    cause = exc.__cause__
    timed_out = isinstance(cause, httpx.TimeoutException)
    never_sent = isinstance(cause, httpx.ConnectError | httpx.ConnectTimeout | httpx.PoolTimeout)
    if never_sent or _method(exc) == "GET":  # a GET is the schema fetch: the execute never left
        return _NothingApplied(f"Composio could not be reached for {slug}; nothing was sent")
    what = "did not answer in time" if timed_out else "dropped the connection"
    if not write:
        return UpstreamUnavailable(f"Composio {what} for {slug}")
    return OutcomeUnknown(f"Composio {what} for {slug}; the change may or may not have been applied")


def _from_status(exc: Any, slug: str, write: bool, secrets: tuple[str, ...], user_id: str) -> ToolkitError:
    status = int(exc.status_code)
    headers = exc.response.headers
    retry_after = _retry_after(headers)
    refusal = refusal_of(exc)
    logger.warning(
        "composio: %s answered HTTP %s (code %s, %s), request_id %s",
        slug,
        status,
        refusal.code,
        refusal.slug or "-",
        refusal.request_id or "-",
    )
    said = _said(refusal, secrets)
    error: ToolkitError
    if status in (408, 429):
        what = "rate limit reached" if status == 429 else "request timed out before it was processed"
        error = _NothingApplied(f"Composio {what} for {slug} (HTTP {status})", retry_after)
    elif status >= 500:
        if write and _method(exc) != "GET":
            error = OutcomeUnknown(
                f"Composio failed on {slug} (HTTP {status}); the change may or may not have been applied",
                retry_after,
            )
        else:
            error_type = _NothingApplied if write else UpstreamUnavailable
            error = error_type(f"Composio failed on {slug} (HTTP {status})", retry_after)
    else:
        trouble = trouble_of(refusal)
        if trouble == "other":
            code = f", code {refusal.code}" if refusal.code is not None else ""
            error = UpstreamRejected(f"Composio rejected {slug} (HTTP {status}{code}).{said}")
        else:
            toolkit = toolkit_of(slug) if slug in known_slugs() else slug.partition("_")[0].lower()
            error = _not_connected(trouble, toolkit, user_id, status, said)
    error.request_id = refusal.request_id
    return error


_SYSTEMS = {"attio": "Attio", "linear": "Linear", "googlecalendar": "Google Calendar"}


def _not_connected(trouble: str, toolkit: str, user_id: str, status: int, said: str) -> NotConnected:
    """What to do, first; Composio's own words after it."""
    system = _SYSTEMS.get(toolkit, toolkit)
    connect = f"planner-mcp connect {toolkit}"
    variable = f"COMPOSIO_CONNECTED_ACCOUNT_{toolkit.upper()}"
    text, fix = {
        "not_connected": (
            f"{system} is not connected for Composio user '{user_id}': run `{connect}` (an account "
            "connected in Composio's dashboard belongs to the user id shown there: set COMPOSIO_USER_ID "
            "to it).",
            connect,
        ),
        "expired": (
            f"{system}'s authorisation for Composio user '{user_id}' has expired: run `{connect}` again.",
            connect,
        ),
        "user_mismatch": (
            f"The connected account in {variable} belongs to another Composio user than '{user_id}': set "
            f"COMPOSIO_USER_ID to its user or unset {variable} (`planner-mcp doctor` shows both).",
            "planner-mcp doctor",
        ),
        "user_required": (
            f"Composio needs the user id of the connected account for {system}: set COMPOSIO_USER_ID "
            "(`planner-mcp doctor` shows it).",
            "planner-mcp doctor",
        ),
        "key": (
            f"Composio refused the API key (HTTP {status}): check COMPOSIO_API_KEY with `planner-mcp doctor`.",
            "planner-mcp doctor",
        ),
    }[trouble]
    return NotConnected(
        text + said,
        reason=trouble,
        toolkit=None if trouble == "key" else toolkit,
        user_id=user_id,
        fix=fix,
        detail=said.strip() or None,
    )


def _said(refusal: Refusal, secrets: tuple[str, ...]) -> str:
    """Composio's message and suggested fix, cleaned, as trailing sentences (empty when it said none)."""
    parts = []
    if refusal.message:
        parts.append(f" Composio said: {_clean(refusal.message, secrets).rstrip('.')}.")
    if refusal.suggested_fix:
        parts.append(f" Suggested fix: {_clean(refusal.suggested_fix, secrets).rstrip('.')}.")
    return "".join(parts)


def _retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds from `retry-after-ms`, or `Retry-After` as seconds or an HTTP date (RFC 9110)."""
    with contextlib.suppress(ValueError, TypeError):
        if (ms := headers.get("retry-after-ms")) is not None:
            return max(0.0, float(ms) / 1000)
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, moment.timestamp() - time.time())


def _clean(text: str, secrets: tuple[str, ...]) -> str:
    """`text` fit for a person: no known secret, nothing shaped like a Composio key or account id
    (a server may echo part of one), one line, at most 200 characters."""
    for secret in secrets:
        text = text.replace(secret, "***")
    text = _KEY_LIKE.sub(lambda m: m.group(1) + "***", text)
    text = " ".join(text.split())
    return text if len(text) <= _DETAIL_CHARS else text[: _DETAIL_CHARS - 1] + "…"


# --- the backend ------------------------------------------------------------------------------------


class ComposioBackend:
    """Executes Composio tool slugs through the real SDK, for one Composio user.

    `toolkit_versions` override the pinned `toolkits.registry.versions()`; `connected_accounts` maps a
    toolkit to the connected account to use; `retrying` supplies stop, wait and sleep (tests inject
    `wait_none()` and a recording sleep), while what is retryable is decided here: transient
    failures of reads; of writes only those that surely applied nothing (connect error, 429) or that
    the remote dedupes (`is_keyed_write`); never OutcomeUnknown or a 4xx. Nothing is imported or
    sent until the first call.

    Raises:
        NotConnected: (constructor) an empty API key.
    """

    name = "composio"

    def __init__(
        self,
        api_key: str,
        *,
        user_id: str = "default",
        base_url: str | None = None,
        toolkit_versions: Mapping[str, str] | None = None,
        connected_accounts: Mapping[str, str] | None = None,
        timeout: float = 30.0,
        retrying: AsyncRetrying | None = None,
    ) -> None:
        if not api_key:
            raise NotConnected("a Composio API key is required")
        self._api_key = api_key
        self._user_id = user_id
        self._base_url = base_url or os.environ.get("COMPOSIO_BASE_URL") or None
        self._versions = {**versions(), **dict(toolkit_versions or {})}
        self._accounts = dict(connected_accounts or {})
        self._timeout = timeout
        self._retrying = retrying or default_retrying()
        self._secrets = (api_key, *self._accounts.values())
        self._lock = threading.Lock()
        self._sdk: Any = None

    def __repr__(self) -> str:  # never the key
        return f"ComposioBackend(user_id={self._user_id!r}, base_url={self._base_url!r})"

    @property
    def toolkit_versions(self) -> dict[str, str]:
        return dict(self._versions)

    async def execute(self, slug: str, arguments: Mapping[str, Any]) -> ToolResult:
        """Run one tool call; tool-level failures come back as `successful: False`.

        Raises:
            UnknownTool: the slug is not one of the project's Composio tools.
            InvalidArguments: the arguments do not fit the tool's input schema (nothing is sent).
            UpstreamUnavailable: transient failure after the retries allowed for this call.
            OutcomeUnknown: a write may or may not have been applied (reconcile before any retry).
            UpstreamRejected: Composio refused the call (4xx).
            NotConnected: the key or the connected account was refused (401/403).
        """
        check_arguments(slug, arguments)
        args = copy.deepcopy(dict(arguments))
        write = is_write_call(slug, args)
        policy = self._policy(write=write, keyed=write and is_keyed_write(slug, args))
        result: ToolResult = await policy(self._attempt, slug, args, write)
        return result

    async def tool_schemas(self, slugs: Collection[str]) -> dict[str, dict[str, Any]]:
        """The `input_parameters` Composio serves for each slug at the pinned versions.

        Raises:
            UpstreamUnavailable, UpstreamRejected, NotConnected: as for `execute` on a read.
        """
        policy = self._policy(write=False, keyed=False)
        found: dict[str, dict[str, Any]] = {}
        for slug in slugs:
            found[slug] = await policy(asyncio.to_thread, self._fetch_schema, slug)
        return found

    async def aclose(self) -> None:
        sdk, self._sdk = self._sdk, None
        if sdk is not None:
            await asyncio.to_thread(sdk.client.close)

    # --- internals ----------------------------------------------------------------------------

    def _policy(self, *, write: bool, keyed: bool) -> AsyncRetrying:
        base_wait = self._retrying.wait

        def retryable(exc: BaseException) -> bool:
            if isinstance(exc, OutcomeUnknown) or not isinstance(exc, UpstreamUnavailable):
                return False
            if exc.retry_after is not None and exc.retry_after > RETRY_AFTER_CAP_S:
                return False
            return not write or keyed or isinstance(exc, _NothingApplied)

        def wait(state: RetryCallState) -> float:
            seconds = float(base_wait(state))
            exc = state.outcome.exception() if state.outcome is not None else None
            retry_after = getattr(exc, "retry_after", None)
            return max(seconds, retry_after) if retry_after is not None else seconds

        def log(state: RetryCallState) -> None:
            exc = state.outcome.exception() if state.outcome is not None else None
            logger.info("composio: retry %d after %s", state.attempt_number, exc)

        return self._retrying.copy(
            retry=retry_if_exception(retryable), wait=wait, before_sleep=log, reraise=True
        )

    async def _attempt(self, slug: str, args: dict[str, Any], write: bool) -> ToolResult:
        # Our own x-request-id (the SDK sends what its request context holds): logs and Composio's
        # support then name the same call.
        request_id = uuid.uuid4().hex
        try:
            result = await asyncio.to_thread(self._execute_blocking, slug, args, write, request_id)
        except ToolkitError as exc:
            metrics.composio_call(toolkit_of(slug), _outcome_of(exc), request_id)
            raise
        error = result["error"]
        if not result["successful"] and error and _PROVIDER_RATE_LIMIT.search(error):
            metrics.composio_call(toolkit_of(slug), "rate_limited", request_id)
            # Linear/Attio rate limits arrive inside a 200 (notes/composio.md §2): transient
            raise UpstreamUnavailable(f"{toolkit_of(slug)} rate limit reached for {slug}")
        metrics.composio_call(toolkit_of(slug), "ok" if result["successful"] else "failed", request_id)
        return result

    def _client(self) -> Any:
        """The SDK client, built on first use (blocking: call it from a worker thread)."""
        with self._lock:
            if self._sdk is None:
                with map_composio_errors("the Composio client", write=False, secrets=self._secrets):
                    from composio import Composio

                    options: dict[str, Any] = {
                        "api_key": self._api_key,
                        "toolkit_versions": dict(self._versions),
                        "allow_tracking": False,
                        # the SDK's stubs say int; its HTTP client takes any httpx timeout
                        "timeout": httpx.Timeout(self._timeout, connect=min(self._timeout, 10.0)),
                        "max_retries": 0,
                    }
                    if self._base_url:
                        options["base_url"] = self._base_url
                    self._sdk = Composio(**options)
            return self._sdk

    def _execute_blocking(
        self, slug: str, args: dict[str, Any], write: bool, request_id: str | None = None
    ) -> ToolResult:
        sdk = self._client()
        _tracking_off()
        toolkit = toolkit_of(slug)
        if request_id:  # a ContextVar: this worker's copied context only
            executor = sdk.client.without_retries
            executor.request_ctx.set({"id": request_id, "provider": executor.provider})
        with map_composio_errors(slug, write=write, secrets=self._secrets, user_id=self._user_id):
            raw = sdk.tools.execute(
                slug,
                args,
                user_id=self._user_id,
                connected_account_id=self._accounts.get(toolkit),
                version=self._versions.get(toolkit),
            )
        return normalise(slug, _as_result(raw))

    def _fetch_schema(self, slug: str) -> dict[str, Any]:
        sdk = self._client()
        _tracking_off()
        with map_composio_errors(slug, write=False, secrets=self._secrets, user_id=self._user_id):
            tool = sdk.tools.get_raw_composio_tool_by_slug(slug)
        params = getattr(tool, "input_parameters", None)
        if not isinstance(params, dict):
            raise UpstreamRejected(f"Composio returned no input schema for {slug}")
        return params


def _outcome_of(exc: ToolkitError) -> str:
    """A metric label for a failed call: the error's kind (a short, bounded set of class names)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(exc).__name__).lower()


def _tracking_off() -> None:
    from composio.core.models.base import allow_tracking

    allow_tracking.set(False)


def _as_result(raw: Any) -> ToolResult:
    body = raw if isinstance(raw, Mapping) else {}
    error = body.get("error")
    return {
        "data": body.get("data") if body.get("data") is not None else {},
        "error": None if error is None else str(error),
        "successful": bool(body.get("successful")),
    }
