"""Scores the configured model interpreter on an utterance corpus, so a team can choose a model.

Usage:
    PLANNER_INTERPRETER=openai PLANNER_INTERPRETER_MODEL=gpt-4.1-mini OPENAI_API_KEY=… \\
        python scripts/eval_interpreter.py --corpus tests/data/corpus_v5.jsonl [--verbose] [--min PCT] [--max-wrong N]

Every case goes to `plan` through the real MCP client (in memory) on a fresh sandbox workspace at the
corpus' `now`, exactly as the server would answer a person: the rules first, the model only where
they fall short. Scoring follows the corpus format (`shared/corpus/README.md`), the same way as the
acceptance scorer `shared/eval/run_corpus.py`. Prints the failures, then: accuracy (all cases, and the
cases the model was asked about), wrong drafts (a failed case that still drafted a change: the
costliest miss), the latency of `plan` and of the model call, and the tokens per model call (the
provider's count; `~` marks our approximation where it gave none). Without PLANNER_INTERPRETER it
scores the rules alone, for comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp import Client

from planner.interpreter import Interpreted, Interpreter, InterpretRequest
from server.app import build_server
from server.settings import Settings
from server.wiring import build_service

ROOT = Path(__file__).resolve().parents[1]
WORKSPACE = json.loads((ROOT / "toolkits" / "data" / "workspace.json").read_text(encoding="utf-8"))
REF_NOW = "2026-11-25T12:00:00+03:00"


class Recording:
    """The configured interpreter, with every answer kept for the report (the port makes this a wrapper)."""

    def __init__(self, inner: Interpreter) -> None:
        self.inner = inner
        self.provider, self.model = inner.provider, inner.model
        self.answers: list[Interpreted] = []

    async def interpret(self, request: InterpretRequest) -> Interpreted:
        got = await self.inner.interpret(request)
        self.answers.append(got)
        return got

    async def aclose(self) -> None:
        await self.inner.aclose()


def ref_tokens(ref: str) -> list[str]:
    kind, key = ref[1:].split(":", 1)
    a, lin = WORKSPACE["attio"], WORKSPACE["linear"]
    table: dict[str, list[str]] = {
        "deal": [d["id"] for d in a["deals"] if d["key"] == key],
        "company": [c["id"] for c in a["companies"] if c["key"] == key],
        "person": [p["id"] for p in a["people"] if p["key"] == key],
        "member": [
            m[f] for m in a["workspace_members"] if m["email"].split("@")[0] == key for f in ("id", "email")
        ],
        "stage": [s["id"] for s in a["deal_stages"] if s["title"] == key] + [key],
        "issue": [i["id"] for i in lin["issues"] if i["identifier"] == key] + [key],
        "team": [t["id"] for t in lin["teams"] if t["key"] == key],
        "project": [p["id"] for p in lin["projects"] if p["key"] == key],
        "luser": [u["id"] for u in lin["users"] if u["email"].split("@")[0] == key],
        "label": [x["id"] for x in lin["labels"] if x["name"] == key] + [key],
    }
    return table.get(kind, [])


def _plain(text: str) -> str:
    """Lower case, and '1 200 000' / '1,200,000' read as '1200000'."""
    return re.sub(r"(?<=\d)[\s\u00a0\u202f,](?=\d{3}\b)", "", text.lower())


def problems(expect: dict[str, Any], reply: dict[str, Any]) -> list[str]:
    """What the reply got wrong against the case's expectations (the corpus README's semantics)."""
    bad: list[str] = []
    plan = reply.get("plan") or {}
    actions = plan.get("actions") or []
    writes = [a for a in actions if not a.get("read_only", False)]
    if "status" in expect and reply.get("status") not in expect["status"].split("|"):
        bad.append(f"status {reply.get('status')!r} != {expect['status']!r}")
    for f in ("domain", "intent"):
        if f in expect and plan.get(f) != expect[f]:
            bad.append(f"{f} {plan.get(f)!r} != {expect[f]!r}")
    if "writes" in expect:
        got = Counter(f"{a.get('toolkit')}:{a.get('operation')}" for a in writes)
        if got != Counter(expect["writes"]):
            bad.append(f"writes {dict(got)} != {expect['writes']}")
    if "reads" in expect:
        have = {f"{a.get('toolkit')}:{a.get('operation')}" for a in actions if a.get("read_only")}
        bad += [f"read {r} missing" for r in expect["reads"] if r not in have]
    blob = json.dumps(
        [a.get("args") for a in actions]
        + [e.get("selected_id") for e in plan.get("entities") or []]
        + [reply.get("results")],
        ensure_ascii=False,
    )
    bad += [f"ref {r} not found" for r in expect.get("refs", []) if not any(t in blob for t in ref_tokens(r))]
    wblob = json.dumps([a.get("args") for a in writes], ensure_ascii=False).lower()
    bad += [f"value {v!r} not in writes" for v in expect.get("values", []) if v.lower() not in wblob]
    kinds = {r.get("kind") for r in plan.get("risks") or []}
    bad += [f"risk {k} missing" for k in expect.get("risks", []) if k not in kinds]
    bad += [f"risk {k} present" for k in expect.get("no_risks", []) if k in kinds]
    said = _plain(reply.get("user_message") or "")
    for a in expect.get("answer", []):
        want = _plain(a)
        found = re.search(rf"(?<!\d){re.escape(want)}(?!\d)", said) if want.isdigit() else want in said
        if not found:
            bad.append(f"answer lacks {a!r}")
    if (
        "question" in expect
        and expect["question"].lower() not in (reply.get("clarifying_question") or "").lower()
    ):
        bad.append(f"question {reply.get('clarifying_question')!r} lacks {expect['question']!r}")
    labels = " | ".join(str(c.get("label", "")) for c in reply.get("choices") or []).lower()
    bad += [
        f"choice {c!r} missing"
        for c in expect.get("choices", [])
        if not any(x.lower() in labels for x in c.split("|"))
    ]
    return bad


@dataclass
class Tally:
    passed: int = 0
    failed: int = 0
    wrong: int = 0
    asked: int = 0  # cases the model was asked about
    asked_passed: int = 0
    plan_ms: list[float] = field(default_factory=list)
    asked_ms: list[float] = field(default_factory=list)
    outcomes: Counter[str] = field(default_factory=Counter)


def _stats(xs: list[float]) -> str:
    if not xs:
        return "-"
    ordered = sorted(xs)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {statistics.median(xs):.0f}, p95 {p95:.0f}, max {max(xs):.0f}"


async def run(corpus: Path, verbose: bool) -> Tally:
    cases = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    for name in [n for n in os.environ if n.startswith("COMPOSIO_")]:
        del os.environ[name]  # the sandbox workspace the corpus is written against
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="planner-eval-") as d:
        os.environ["PLANNER_DB"] = str(Path(d) / "planner.db")
        settings = Settings.from_env()
        service = build_service(settings)
        recording = None
        if service.planner.interpreter is not None:
            recording = Recording(service.planner.interpreter)
            service.planner.interpreter = recording
            print(
                f"model: {recording.provider}/{recording.model}, timeout {settings.interpreter_timeout_s:g} s "
                "(after one warm-up call)"
            )
        else:
            print("model: none (PLANNER_INTERPRETER is not set): the rules alone")
        async with Client(build_server(service, settings)) as client:
            if recording is not None:  # the first call imports the SDK and connects: not the model's time
                await client.call_tool(
                    "plan", {"text": "бла бла бла", "user_id": "eval-warm-up", "now": REF_NOW}
                )
                recording.answers.clear()
            for case in cases:
                args: dict[str, Any] = {"user_id": "eval", "conversation_id": case["id"], "now": REF_NOW}
                for key in ("text", "intents", "command"):
                    if key in case:
                        args[key] = case[key]
                before = len(recording.answers) if recording else 0
                started = time.perf_counter()
                result = await client.call_tool("plan", args)
                ms = (time.perf_counter() - started) * 1000
                reply = dict(result.structured_content or {})
                bad = problems(case["expect"], reply)
                asked = recording is not None and len(recording.answers) > before
                tally.plan_ms.append(ms)
                if asked:
                    assert recording is not None
                    tally.asked += 1
                    tally.asked_ms.append(ms)
                    tally.outcomes[recording.answers[-1].outcome] += 1
                if not bad:
                    tally.passed += 1
                    tally.asked_passed += asked
                    continue
                tally.failed += 1
                drafted = reply.get("status") in ("draft_pending", "needs_bulk_confirmation")
                tally.wrong += drafted
                tag = "WRONG DRAFT" if drafted else "FAIL"
                said = case.get("text") or case.get("intents") or case.get("command")
                print(f"{tag} {case['id']}{' [model]' if asked else ''}: {said}")
                for b in bad:
                    print(f"     - {b}")
                if verbose:
                    print("     reply:", json.dumps(reply, ensure_ascii=False)[:1500])
    total = tally.passed + tally.failed
    print(f"accuracy: {tally.passed}/{total} = {100.0 * tally.passed / max(total, 1):.1f}%")
    if recording is not None:
        share = f"{tally.asked_passed}/{tally.asked}" if tally.asked else "0/0"
        print(f"asked the model: {tally.asked} cases, {share} of them right; outcomes {dict(tally.outcomes)}")
    print(f"wrong drafts: {tally.wrong}/{total}")
    print(f"plan latency ms: all {_stats(tally.plan_ms)}; when the model was asked {_stats(tally.asked_ms)}")
    if recording is not None and recording.answers:
        calls = [a.seconds * 1000 for a in recording.answers if a.outcome != "skipped"]
        ins = [a.input_tokens for a in recording.answers if a.input_tokens is not None]
        outs = [a.output_tokens for a in recording.answers if a.output_tokens is not None]
        approx = "~" if any(a.output_tokens is None for a in recording.answers) else ""
        print(f"model call ms: {_stats(calls)}")
        print(
            f"tokens per model call: in {approx}{_stats([float(x) for x in ins])}; "
            f"out {_stats([float(x) for x in outs])}"
        )
    print(f"{tally.passed} passed, {tally.failed} failed")
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--corpus", required=True, type=Path)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--min", type=float, default=0.0, help="exit 1 below this accuracy (percent)")
    parser.add_argument("--max-wrong", type=int, default=None, help="exit 1 above this many wrong drafts")
    a = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    for name in ("httpx", "mcp", "planner", "server"):
        logging.getLogger(name).setLevel(logging.WARNING)
    try:
        tally = asyncio.run(run(a.corpus, a.verbose))
    except ValueError as exc:  # a setting that cannot work, named
        print(f"eval_interpreter: {exc}", file=sys.stderr)
        return 2
    total = tally.passed + tally.failed
    ok = (
        total > 0
        and 100.0 * tally.passed / total >= a.min
        and (a.max_wrong is None or tally.wrong <= a.max_wrong)
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
