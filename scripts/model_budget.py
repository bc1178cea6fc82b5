"""What a model reads (DESIGN §11): the whole `tools/list` (names, descriptions, input schemas) within
6,000 tokens, and the text content of a typical tool result within 2 KB, measured over the acceptance
flows (`../shared/eval/flows.py`, the ten conversations).

Tokens are approximated as characters / 4, the usual rule of thumb for English and JSON with the
OpenAI and Anthropic tokenizers (tiktoken is not used: it downloads its encodings at run time, which
this machine cannot). Text sizes are UTF-8 bytes (Russian letters take two).

Usage: python scripts/model_budget.py   (also part of scripts/bench.py)
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import io
import json
import os
import statistics
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[1]
TOKENS_BUDGET = 6000
TEXT_BUDGET = 2048
CHARS_PER_TOKEN = 4


def tokens(chars: int) -> int:
    return -(-chars // CHARS_PER_TOKEN)


async def tools_list(params: StdioServerParameters) -> dict[str, Any]:
    """Characters a model is given per tool (name + description + input schema, compact JSON); the
    app-only tools (MCP Apps `visibility: ["app"]`) are listed but hosts never give them to a model."""
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            listed = (await s.list_tools()).tools
    sizes: dict[str, int] = {}
    app_only: set[str] = set()
    for tool in listed:
        schema = json.dumps(tool.input_schema, ensure_ascii=False, separators=(",", ":"))
        sizes[tool.name] = len(tool.name) + len(tool.description or "") + len(schema)
        if ((tool.meta or {}).get("ui") or {}).get("visibility") == ["app"]:
            app_only.add(tool.name)
    return {"sizes": sizes, "app_only": app_only}


def _flows_module() -> Any:
    """The shared acceptance flows (shared/eval/flows.py beside the checkout or above it, or
    PLANNER_EVAL_DIR)."""
    given = os.environ.get("PLANNER_EVAL_DIR")
    places = [Path(given)] if given else [p / "shared" / "eval" for p in ROOT.parents]
    here = next((p for p in places if (p / "flows.py").exists()), None)
    if here is None:
        return None
    path = here / "flows.py"
    sys.path.insert(0, str(here))
    spec = importlib.util.spec_from_file_location("acceptance_flows", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def _recording(sizes: list[tuple[str, int]]) -> Iterator[None]:
    """Every tool result's text content size, as the flows' own client receives it."""
    original = ClientSession.call_tool

    async def call_tool(self: ClientSession, name: str, *args: Any, **kwargs: Any) -> Any:
        result = await original(self, name, *args, **kwargs)
        text = "\n".join(str(getattr(c, "text", "")) for c in getattr(result, "content", []) or [])
        sizes.append((name, len(text.encode("utf-8"))))
        return result

    ClientSession.call_tool = call_tool  # type: ignore[method-assign]
    try:
        yield
    finally:
        ClientSession.call_tool = original  # type: ignore[method-assign]


async def flow_text_sizes() -> tuple[list[tuple[str, int]], str] | None:
    """(tool, bytes) per result over the ten acceptance flows, and their verdict line."""
    flows = _flows_module()
    if flows is None:
        return None
    sizes: list[tuple[str, int]] = []
    out = io.StringIO()
    quiet = os.environ.get("LOG_LEVEL")
    os.environ["LOG_LEVEL"] = "WARNING"  # the flows' servers would log every call between the figures
    try:
        with _recording(sizes), contextlib.redirect_stdout(out):
            await flows.run(ROOT, None, False)
    finally:
        if quiet is None:
            os.environ.pop("LOG_LEVEL", None)
        else:
            os.environ["LOG_LEVEL"] = quiet
    verdict = next((line for line in out.getvalue().splitlines() if line.startswith("flows:")), "flows: ?")
    return sizes, verdict


def report_tools(listed: dict[str, Any]) -> tuple[bool, str]:
    sizes, app_only = listed["sizes"], listed["app_only"]
    total = sum(sizes.values())
    model = sum(v for k, v in sizes.items() if k not in app_only)
    biggest = ", ".join(f"{k} {tokens(v)}" for k, v in sorted(sizes.items(), key=lambda kv: -kv[1])[:3])
    hidden = (
        f" (+{len(app_only)} app-only, never given to a model: ~{tokens(total - model)})" if app_only else ""
    )
    detail = (
        f"{len(sizes) - len(app_only)} tools, {model} chars = ~{tokens(model)} tokens (chars/{CHARS_PER_TOKEN})"
        f"{hidden}; largest: {biggest}; headroom ~{TOKENS_BUDGET - tokens(total)} (budget <= {TOKENS_BUDGET})"
    )
    return tokens(total) <= TOKENS_BUDGET, detail


def report_texts(sizes: list[tuple[str, int]], verdict: str) -> tuple[bool, str]:
    values = [n for _, n in sizes]
    median = statistics.median(values)
    tool, largest = max(sizes, key=lambda s: s[1])
    detail = (
        f"{len(values)} results over the acceptance flows ({verdict}): median {median:.0f} B, "
        f"p90 {sorted(values)[int(0.9 * (len(values) - 1))]} B, max {largest} B ({tool}) "
        f"(budget: median <= {TEXT_BUDGET} B)"
    )
    return median <= TEXT_BUDGET and verdict.startswith("flows: 10/10"), detail


async def _main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import tempfile

    from bench import project_params

    failed = 0
    with tempfile.TemporaryDirectory(prefix="planner-budget-") as d:
        ok, detail = report_tools(await tools_list(project_params(Path(d) / "planner.db")))
        print(f"[{'PASS' if ok else 'FAIL'}] tools/list for a model: {detail}")
        failed += not ok
    measured = await flow_text_sizes()
    if measured is None:
        print("[SKIP] text content over the acceptance flows: ../shared/eval/flows.py not found")
    else:
        ok, detail = report_texts(*measured)
        print(f"[{'PASS' if ok else 'FAIL'}] text content of a tool result: {detail}")
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(_main()))
