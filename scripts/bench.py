"""DESIGN §11 budgets, each against a baseline measured in the same run. Exit 0 only if all pass.

Usage: python scripts/bench.py [--rounds N] [--quick]
a. stdio cold start (spawn -> initialize -> tools/list) as mcp.json starts the server, vs a bare echo server;
b. `plan` over stdio on the sandbox (dev corpus x3, after 3 warm-up calls) vs the bare echo tool;
c. 30 concurrent `execute_draft` on one confirmed draft -> one set of side effects;
d. 7 independent creates with 0.2 s injected latency -> <= 2 x 0.2 s x longest chain;
e. `plan` over stdio on random texts up to 4,000 characters vs the bare echo tool;
f. what a model reads: tools/list <= 6,000 tokens (chars/4) and the median text content of a tool result
   over the acceptance flows <= 2 KB (scripts/model_budget.py);
g. the model interpreter against a local fake provider with a fixed latency, for both SDKs: at most one
   model call per request, the prompt <= 2,000 tokens, <= 10 ms of its own overhead
   (scripts/interpreter_budget.py).
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import json
import logging
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from importlib import metadata
from pathlib import Path
from typing import Any

from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from server.app import build_server
from server.service import Service
from server.settings import Settings
from server.wiring import build_service
from toolkits.sandbox import SandboxBackend

sys.path.insert(0, str(Path(__file__).resolve().parent))
from interpreter_budget import report as interpreter_report  # noqa: E402
from model_budget import flow_text_sizes, report_texts, report_tools, tools_list  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "dev.jsonl"
BARE = Path(__file__).resolve().parent / "bare_server.py"
PACKAGES = ("server", "planner", "toolkits", "drafts")
REF_NOW = "2026-11-25T12:00:00+03:00"
HEAVY = (
    "composio",
    "composio_client",
    "pymorphy3",
    "dateparser",
    "rapidfuzz",
    "unidecode",
    "prometheus_client",
)


class Tally:
    def __init__(self) -> None:
        self.passed = self.failed = 0

    def check(self, name: str, ok: bool, detail: str) -> None:
        self.passed += ok
        self.failed += not ok
        print(f"[{'PASS' if ok else 'FAIL'}] {name}: {detail}", flush=True)


def project_params(db: Path) -> StdioServerParameters:
    """The server exactly as mcp.json starts it, on a fresh sandbox database, with no Composio key."""
    spec = next(iter(json.loads((ROOT / "mcp.json").read_text(encoding="utf-8"))["mcpServers"].values()))
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPOSIO_")}
    env.update({k: str(v) for k, v in (spec.get("env") or {}).items() if not str(v).startswith("${")})
    env.update(PLANNER_DB=str(db), PLANNER_STATE_DIR=str(db.parent))
    env.setdefault("APP_TIMEZONE", "Europe/Moscow")
    cmd = spec["command"]
    if not os.path.isabs(cmd) and (ROOT / cmd).exists():
        cmd = str(ROOT / cmd)
    return StdioServerParameters(command=cmd, args=list(spec.get("args", [])), env=env, cwd=str(ROOT))


BARE_PARAMS = StdioServerParameters(command=sys.executable, args=[str(BARE)])


async def cold_start(params: StdioServerParameters) -> tuple[float, float]:
    """Seconds from spawn to initialized, and to tools/list answered."""
    with open(os.devnull, "w") as errlog:
        t = time.perf_counter()
        async with stdio_client(params, errlog=errlog) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            init = time.perf_counter() - t
            await s.list_tools()
            return init, time.perf_counter() - t


async def latencies(params: StdioServerParameters, tool: str, arglist: list[dict[str, Any]]) -> list[float]:
    """Milliseconds per call over one stdio session, after 3 warm-up calls (as the acceptance script)."""
    out: list[float] = []
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            for args in arglist[:3]:
                await s.call_tool(tool, args)
            for args in arglist:
                t = time.perf_counter()
                result = await s.call_tool(tool, args)
                out.append((time.perf_counter() - t) * 1000)
                if result.is_error:
                    raise RuntimeError(f"{tool} failed: {result.content}")
    return out


def p95(xs: list[float]) -> float:
    return sorted(xs)[max(0, int(0.95 * len(xs)) - 1)]


def ms(x: float) -> str:
    return f"{x * 1000:.0f} ms"


def in_process(tmp: Path, name: str) -> tuple[SandboxBackend, Settings, Service]:
    """A fresh sandbox with a backend we can watch (`write_calls`) and slow down (`latency`)."""
    settings = Settings(db_path=tmp / f"{name}.db")
    backend = SandboxBackend(settings.db_path)
    return backend, settings, build_service(settings, backend=backend)


async def call(client: Client, tool: str, **args: Any) -> dict[str, Any]:
    args.setdefault("user_id", "bench")
    if tool == "plan":
        args.setdefault("now", REF_NOW)
        args.setdefault("conversation_id", "bench")
    result = await client.call_tool(tool, args)
    sc = result.structured_content
    if result.is_error or not isinstance(sc, dict):
        raise RuntimeError(f"{tool} failed: {result.content}")
    return sc


async def confirmed_draft(client: Client, text: str) -> dict[str, Any]:
    reply = await call(client, "plan", text=text)
    if reply["status"] != "draft_pending":
        raise RuntimeError(f"plan {text!r} -> {reply['status']}: {reply.get('user_message')}")
    draft = reply["draft"]
    reply = await call(client, "confirm_draft", draft_id=draft["id"])
    if reply["status"] == "needs_bulk_confirmation":
        reply = await call(client, "confirm_draft", draft_id=draft["id"], confirm_count=len(draft["actions"]))
    if reply["status"] != "confirmed":
        raise RuntimeError(f"confirm {draft['id']} -> {reply['status']}")
    return dict(reply["draft"])


def longest_chain(actions: list[dict[str, Any]]) -> int:
    depth: dict[int, int] = {}
    for a in sorted(actions, key=lambda a: a["index"]):
        parent = a.get("depends_on")
        depth[a["index"]] = 1 + (depth.get(parent, 0) if parent is not None else 0)
    return max(depth.values(), default=0)


async def exactly_once(tmp: Path, tally: Tally) -> None:
    backend, settings, service = in_process(tmp, "once")
    async with Client(build_server(service, settings)) as client:
        text = "Globex подписали — перенеси сделку Globex pilot в Won и заведи задачи онбординга в Linear"
        draft = await confirmed_draft(client, text)
        writes = sum(not a["read_only"] for a in draft["actions"])
        before = len(backend.write_calls)
        backend.latency = 0.02  # widen the race window
        calls = [call(client, "execute_draft", draft_id=draft["id"]) for _ in range(30)]
        replies = await asyncio.gather(*calls)
        done = len(backend.write_calls) - before
    statuses = ", ".join(f"{s} x{n}" for s, n in Counter(r["status"] for r in replies).items())
    detail = f"{done} write calls for a draft of {writes} write actions; replies: {statuses}"
    tally.check("30 concurrent execute_draft", writes > 0 and done == writes, detail)


async def concurrency(tmp: Path, tally: Tally, reps: int, latency: float = 0.2) -> None:
    backend, settings, service = in_process(tmp, "fanout")
    walls: list[float] = []
    singles: list[float] = []
    chain = 1
    async with Client(build_server(service, settings)) as client:
        for rep in range(reps):
            names = ", ".join(f"{c}{rep}{i}" for i, c in enumerate("abcdefg", 1))
            for text, sink in (
                (f"Create issues in DES for: {names}", walls),
                (f"Create an issue in DES: single {rep}", singles),
            ):
                draft = await confirmed_draft(client, text)  # planned with no latency
                if sink is walls:
                    chain = max(chain, longest_chain(draft["actions"]))
                before = len(backend.write_calls)
                backend.latency = latency
                t = time.perf_counter()
                reply = await call(client, "execute_draft", draft_id=draft["id"])
                sink.append(time.perf_counter() - t)
                backend.latency = 0.0
                made = len(backend.write_calls) - before
                if reply["status"] != "executed" or made != len(draft["actions"]):
                    raise RuntimeError(f"{text!r}: {reply['status']}, {made} write calls")
    wall, budget = statistics.median(walls), 2 * latency * chain
    detail = (
        f"execute_draft {ms(wall)} (median of {reps}, max {ms(max(walls))}); budget {ms(budget)} = 2 x "
        f"{ms(latency)} x longest chain {chain}; sequential baseline 7 x {ms(latency)} = {ms(7 * latency)}; "
        f"single-action draft {ms(statistics.median(singles))}"
    )
    tally.check("7 independent creates", wall <= budget, detail)
    if wall > budget:
        print(
            f"       {wall / latency:.1f} x the latency: the creates ran in waves (executor concurrency < 7?)"
        )


def compile_bytecode() -> str:
    """The project's bytecode, as an install leaves it: the SDK's modules are compiled by pip, ours
    (an editable install) are not, and with PYTHONDONTWRITEBYTECODE set every start would compile
    them again — a cost no installed server pays. Only stale or missing files are compiled."""
    packages = [ROOT / p for p in PACKAGES]
    ok = all(compileall.compile_dir(p, quiet=1, workers=1) for p in packages)
    return f"bytecode of {', '.join(PACKAGES)}: {'up to date' if ok else 'FAILED to compile'}"


def startup_imports(tmp: Path) -> str:
    """Which heavy modules the server has imported by the time it could answer tools/list."""
    code = (
        "import sys; from server.settings import Settings; from server.wiring import build_service; "
        "from server.app import build_server; s = Settings.from_env(); build_server(build_service(s), s); "
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    env = {**os.environ, "PLANNER_DB": str(tmp / "imports.db")}
    env.pop("COMPOSIO_API_KEY", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip() or "none"


async def main(rounds: int, quick: bool) -> int:
    nproc = os.cpu_count()
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else nproc
    print(
        f"machine: nproc {nproc} (usable {affinity}), Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.system()} {platform.machine()}, "
        f"mcp {metadata.version('mcp')}; rounds {rounds}{', quick' if quick else ''}",
        flush=True,
    )
    # MCPServer() turns on INFO logging: the in-process servers would log every call between the figures
    for noisy in ("pymorphy3", "planner.tool", "planner.interpreter", "httpx"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    tally = Tally()
    print(f"       {compile_bytecode()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="planner-bench-") as d:
        tmp = Path(d)
        # a. cold start: one unmeasured spawn of each, then alternate; every project round on a fresh DB.
        await cold_start(project_params(tmp / "warm" / "planner.db"))
        await cold_start(BARE_PARAMS)
        proj: list[tuple[float, float]] = []
        bare: list[tuple[float, float]] = []
        for i in range(rounds):
            proj.append(await cold_start(project_params(tmp / f"cold{i}" / "planner.db")))
            bare.append(await cold_start(BARE_PARAMS))
        cp, cb = statistics.median(p[1] for p in proj), statistics.median(b[1] for b in bare)
        ip, ib = statistics.median(p[0] for p in proj), statistics.median(b[0] for b in bare)
        detail = f"project {ms(cp)} vs bare {ms(cb)} (median of {rounds}, alternating; to initialize "
        detail += f"{ms(ip)} vs {ms(ib)}); ratio {cp / cb:.2f} (budget <= 1.5)"
        tally.check("stdio cold start", cp / cb <= 1.5, detail)
        print(f"       heavy modules loaded before the first call: {startup_imports(tmp)}")

        # b. plan latency over stdio vs the bare echo tool.
        rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
        texts = [r["text"] for r in rows if "text" in r] * (1 if quick else 3)
        args = [
            {"text": t, "now": REF_NOW, "user_id": f"perf{i}", "conversation_id": f"perf{i}"}
            for i, t in enumerate(texts)
        ]
        plan_ms = await latencies(project_params(tmp / "latency" / "planner.db"), "plan", args)
        echo_ms = await latencies(BARE_PARAMS, "echo", [{"text": t} for t in texts])
        pm, em = statistics.median(plan_ms), statistics.median(echo_ms)
        detail = (
            f"median {pm:.1f} ms, p95 {p95(plan_ms):.1f} ms, max {max(plan_ms):.1f} ms over {len(plan_ms)} "
        )
        detail += f"calls; bare echo median {em:.1f} ms, p95 {p95(echo_ms):.1f} ms; planner overhead "
        tally.check("plan over stdio", pm - em <= 10, detail + f"{pm - em:.1f} ms (budget <= 10 ms)")

        # e. the same over random texts up to 4,000 characters (the property tests' inputs, seeded)
        rnd = random.Random(2026)
        vocab = sorted({w for t in texts for w in t.split()})
        long_texts = [
            " ".join(rnd.choice(vocab) for _ in range(rnd.choice([3, 30, 150, 600])))[:4000]
            for _ in range(40 if quick else 120)
        ]
        args = [{"text": t, "now": REF_NOW, "user_id": f"rnd{i}"} for i, t in enumerate(long_texts)]
        plan_ms = await latencies(project_params(tmp / "random" / "planner.db"), "plan", args)
        echo_ms = await latencies(BARE_PARAMS, "echo", [{"text": t} for t in long_texts])
        pm, em = statistics.median(plan_ms), statistics.median(echo_ms)
        detail = f"{len(long_texts)} texts of 3-4000 chars: median {pm:.1f} ms, p95 {p95(plan_ms):.1f} ms, "
        detail += (
            f"max {max(plan_ms):.1f} ms; echo median {em:.1f} ms; overhead {pm - em:.1f} ms (budget <= 10 ms)"
        )
        tally.check("plan on random long text", pm - em <= 10, detail)

        # f. what a model reads: the tool list it is given, and the text of each result over the flows
        ok, detail = report_tools(await tools_list(project_params(tmp / "tools" / "planner.db")))
        tally.check("tools/list for a model", ok, detail)
        measured = await flow_text_sizes()
        if measured is None:
            print("[SKIP] text content of a tool result: shared/eval/flows.py not found", flush=True)
        else:
            tally.check("text content of a tool result", *report_texts(*measured))

        # c, d. in process, through the in-memory MCP client.
        await exactly_once(tmp, tally)
        await concurrency(tmp, tally, reps=1 if quick else 3)

        # g. the model interpreter, in process, both SDKs against a fake provider (50 ms fixed latency)
        for name, ok, detail in await interpreter_report(rounds=10 if quick else 30):
            tally.check(name, ok, detail)
    print(f"bench: {tally.passed} passed, {tally.failed} failed")
    return 0 if tally.failed == 0 else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--rounds", type=int, default=None, help="cold-start rounds (default 7, 3 if --quick)"
    )
    parser.add_argument("--quick", action="store_true", help="fewer rounds, the corpus once, one fan-out run")
    a = parser.parse_args()
    sys.exit(asyncio.run(main(max(1, a.rounds or (3 if a.quick else 7)), a.quick)))
