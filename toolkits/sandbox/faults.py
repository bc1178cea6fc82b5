"""Deterministic fault injection for the sandbox backend (tests of retries, reconciliation, crashes).

A `FaultPlan` is a list of rules. Each rule names a slug (or "*"), optionally only its writes or
only its reads, and the call numbers it fires on (1-based, counted per rule over the calls it
matches), or a probability drawn from a generator seeded by the plan. Nothing is random unless a
rule asks for a probability, and then the seed makes the run repeatable.

Fault kinds, in the order the backend applies them within one call:

    latency         sleep `seconds` before anything else (the remote is slow)
    unavailable     raise UpstreamUnavailable(retry_after) before applying (a 429/503: nothing done)
    unknown_before  raise OutcomeUnknown before applying (the request was lost on the way)
    unknown_after   apply the call, then raise OutcomeUnknown (a timeout after the remote applied it)
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["Fault", "FaultKind", "FaultPlan"]

FaultKind = Literal["latency", "unavailable", "unknown_before", "unknown_after"]
Only = Literal["any", "write", "read"]


@dataclass(frozen=True)
class Fault:
    """One injected fault; `message` is what the raised error says (a default per kind)."""

    kind: FaultKind
    retry_after: float | None = None
    seconds: float = 0.0
    message: str | None = None

    def text(self) -> str:
        if self.message:
            return self.message
        if self.kind == "unavailable":
            return "the remote is busy (rate limited); try again shortly"
        return "the remote did not answer in time; the change may or may not have been applied"


@dataclass
class _Rule:
    slug: str
    fault: Fault
    calls: frozenset[int] | None
    only: Only
    probability: float | None
    seen: int = 0

    def matches(self, slug: str, write: bool) -> bool:
        if self.slug not in ("*", slug):
            return False
        return self.only == "any" or (self.only == "write") == write


@dataclass
class FaultPlan:
    """Rules deciding which faults a call meets. Build with `add`, which returns the plan.

    Args:
        seed: seeds the generator used by rules with a `probability` (none is used otherwise).
    """

    seed: int = 0
    _rules: list[_Rule] = field(default_factory=list)
    _random: random.Random = field(init=False)
    fired: list[tuple[str, int, FaultKind]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._random = random.Random(self.seed)

    def add(
        self,
        slug: str,
        fault: Fault,
        *,
        calls: int | Iterable[int] | None = None,
        only: Only = "any",
        probability: float | None = None,
    ) -> FaultPlan:
        """Inject `fault` into calls of `slug` ("*" for every slug).

        Args:
            calls: which matching calls (1-based) fire; None means every matching call.
            only: count and fire only on the slug's writes, or only on its reads.
            probability: fire with this probability instead (seeded; `calls` still restricts).

        Raises:
            ValueError: a call number below 1, or a probability outside [0, 1].
        """
        numbers = None if calls is None else frozenset([calls] if isinstance(calls, int) else calls)
        if numbers is not None and any(n < 1 for n in numbers):
            raise ValueError("call numbers start at 1")
        if probability is not None and not 0.0 <= probability <= 1.0:
            raise ValueError("probability must be between 0 and 1")
        self._rules.append(_Rule(slug, fault, numbers, only, probability))
        return self

    def on_call(self, slug: str, *, write: bool) -> list[Fault]:
        """Count this call against every matching rule and return the faults that fire."""
        faults: list[Fault] = []
        for rule in self._rules:
            if not rule.matches(slug, write):
                continue
            rule.seen += 1
            if rule.calls is not None and rule.seen not in rule.calls:
                continue
            if rule.probability is not None and self._random.random() >= rule.probability:
                continue
            faults.append(rule.fault)
            self.fired.append((slug, rule.seen, rule.fault.kind))
        return faults
