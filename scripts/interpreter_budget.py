"""The model interpreter's budgets (DESIGN §11), against a local fake provider with a fixed latency
(scripts/fake_llm.py, both wire formats, through the official SDKs):

- at most one model call per request: requests the rules fall short on (one call each), requests
  they understand (none) and answers to the model's questions (none: its reading is replayed),
  counted by the fake provider;
- the prompt <= 2,000 tokens: every request body the provider received, whole (system prompt,
  message, tool schema and the JSON around them), as UTF-8 bytes / 4 (planner.interpreter.prompt
  explains the approximation);
- <= 10 ms of the interpreter's own overhead: median `plan` with the model, minus median `plan`
  of the same words with the rules alone, minus the median bare POST of the same body to the same
  fake provider (its fixed latency plus one keep-alive HTTP round trip), all in the same run,
  alternating.

Usage: python scripts/interpreter_budget.py [--rounds N] [--latency-ms MS]   (also part of bench.py)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import httpx
from mcp import Client

from planner.interpreter import MAX_PROMPT_TOKENS, approx_tokens
from server.app import build_server
from server.settings import Settings
from server.wiring import build_service

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fake_llm import Answer, FakeLLM  # noqa: E402

REF_NOW = "2026-11-25T12:00:00+03:00"
OVERHEAD_BUDGET_MS = 10.0
# words the rules do not understand in full: routing, a clause no rule explained, a value no intent carries
FALL_SHORT = [
    "Globex pilot went through, mark it accordingly",
    "Отметь что Globex pilot выиграли",
    "Move Globex pilot to Won and also launch the rocket to the moon",
    "Move Globex pilot to Won, priority high",
    "ну та вторая, с ней всё",
    "бла бла бла",
]
UNDERSTOOD = ["Переведи сделку Globex pilot в стадию Won", "Create an issue in ENG: fix the login page"]
WON = [{"op": "update_deal", "deal": "Globex pilot", "stage": "Won", "confidence": 0.9}]
AMBIGUOUS = [{"op": "update_deal", "deal": "Acme", "stage": "Won", "confidence": 0.9}]


def settings_for(db: Path, provider: str | None, llm: FakeLLM) -> Settings:
    if provider is None:
        return Settings(db_path=db)
    return Settings(
        db_path=db,
        interpreter=provider,
        interpreter_model="fake-model",
        interpreter_timeout_s=5.0,
        interpreter_api_key="sk-bench",
        interpreter_base_url=llm.openai_url if provider == "openai" else llm.anthropic_url,
    )


async def plan(client: Client, text: str, user: str) -> tuple[float, dict[str, Any]]:
    started = time.perf_counter()
    result = await client.call_tool("plan", {"text": text, "now": REF_NOW, "user_id": user})
    return (time.perf_counter() - started) * 1000, dict(result.structured_content or {})


async def calls_per_request(client: Client, llm: FakeLLM) -> list[int]:
    """Model calls each request caused: fall-short words, understood words, an answer to a question."""
    counts = []
    for i, text in enumerate([*FALL_SHORT, *UNDERSTOOD]):
        before = llm.calls
        await plan(client, text, f"count{i}")
        counts.append(llm.calls - before)
    llm.script(Answer.with_intents(AMBIGUOUS))  # "which Acme deal?": the answer replays the reading
    before = llm.calls
    _, asked = await plan(client, "the Acme thing went through, mark it accordingly", "count-pick")
    counts.append(llm.calls - before)
    choice = asked["choices"][0]["value"]
    before = llm.calls
    await client.call_tool(
        "pick",
        {
            "plan_id": asked["plan"]["plan_id"],
            "question_id": asked["question_id"],
            "value": choice,
            "user_id": "count-pick",
        },
    )
    counts.append(llm.calls - before)
    return counts


async def bare_posts(llm: FakeLLM, rounds: int) -> list[float]:
    """The same request body, straight to the fake provider over one keep-alive connection."""
    sent = llm.requests[-1]
    url = f"http://127.0.0.1:{llm.port}{sent['path']}"
    out = []
    async with httpx.AsyncClient() as http:
        await http.post(url, json=sent["body"])
        for _ in range(rounds):
            started = time.perf_counter()
            await http.post(url, json=sent["body"])
            out.append((time.perf_counter() - started) * 1000)
    return out


async def measure(provider: str, rounds: int, latency_s: float) -> dict[str, Any]:
    with (
        FakeLLM(latency_s=latency_s, default=Answer.with_intents(WON)) as llm,
        tempfile.TemporaryDirectory() as d,
    ):
        async with AsyncExitStack() as stack:
            clients = {}
            for name in ("rules", provider):
                s = settings_for(Path(d) / f"{name}.db", None if name == "rules" else provider, llm)
                clients[name] = await stack.enter_async_context(Client(build_server(build_service(s), s)))
            for i in range(3):  # warm-up: the SDK import, the first connection, the language libraries
                await plan(clients[provider], FALL_SHORT[0], f"warm{i}")
                await plan(clients["rules"], FALL_SHORT[0], f"warm{i}")
            counts = await calls_per_request(clients[provider], llm)
            with_model: list[float] = []
            rules_only: list[float] = []
            for i in range(rounds):
                text = FALL_SHORT[i % len(FALL_SHORT)]
                ms, reply = await plan(clients[provider], text, f"m{i}")
                assert reply.get("status") == "draft_pending", reply.get("user_message")
                with_model.append(ms)
                rules_only.append((await plan(clients["rules"], text, f"r{i}"))[0])
        bare = await bare_posts(llm, rounds)
        prompts = [approx_tokens(json.dumps(r["body"], ensure_ascii=False)) for r in llm.requests]
    return {
        "counts": counts,
        "prompt_max": max(prompts),
        "prompt_median": statistics.median(prompts),
        "model": statistics.median(with_model),
        "rules": statistics.median(rules_only),
        "bare": statistics.median(bare),
    }


async def report(rounds: int = 30, latency_ms: float = 50.0) -> list[tuple[str, bool, str]]:
    """(name, passed, detail) per budget and provider."""
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request otherwise
    logging.getLogger("planner.interpreter").setLevel(logging.WARNING)
    logging.getLogger("planner.tool").setLevel(logging.WARNING)  # one line per tool call otherwise
    out: list[tuple[str, bool, str]] = []
    for provider in ("openai", "anthropic"):
        m = await measure(provider, rounds, latency_ms / 1000)
        most = max(m["counts"])
        shown = ", ".join(str(c) for c in m["counts"])
        out.append(
            (
                f"interpreter {provider}: model calls per request",
                most <= 1,
                f"{shown} over {len(FALL_SHORT)} fall-short, {len(UNDERSTOOD)} understood, "
                f"a question and its answer; at most {most} (budget <= 1)",
            )
        )
        out.append(
            (
                f"interpreter {provider}: prompt",
                m["prompt_max"] <= MAX_PROMPT_TOKENS,
                f"whole request body max ~{m['prompt_max']} tokens, median ~{m['prompt_median']:.0f} "
                f"(UTF-8 bytes / 4; budget <= {MAX_PROMPT_TOKENS})",
            )
        )
        overhead = m["model"] - m["rules"] - m["bare"]
        out.append(
            (
                f"interpreter {provider}: own overhead",
                overhead <= OVERHEAD_BUDGET_MS,
                f"plan with the model median {m['model']:.1f} ms, rules alone {m['rules']:.1f} ms, bare POST "
                f"to the fake provider ({latency_ms:.0f} ms fixed) {m['bare']:.1f} ms, over {rounds} rounds; "
                f"overhead {overhead:.1f} ms (budget <= {OVERHEAD_BUDGET_MS:.0f} ms)",
            )
        )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--latency-ms", type=float, default=50.0)
    a = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    results = asyncio.run(report(a.rounds, a.latency_ms))
    for name, ok, detail in results:
        print(f"[{'PASS' if ok else 'FAIL'}] {name}: {detail}", flush=True)
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
