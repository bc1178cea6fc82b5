"""The optional model interpreter (DESIGN §8): words -> `{"intents": [...]}` through one model call.

A port (`Interpreter`) and two adapters, each importing its vendor SDK only on its first call:
Anthropic's Messages API (`anthropic`) and any OpenAI-compatible Chat Completions server
(`openai`). The planner asks it only when its rules did not understand the whole text, and treats
what comes back like any model's output: strict validation, thresholds, resolution, a draft.
"""

from planner.interpreter.consult import PROVIDERS, build_interpreter, consult, count, request_for, vocabulary
from planner.interpreter.port import Interpreted, Interpreter, InterpretRequest, Vocabulary
from planner.interpreter.prompt import MAX_PROMPT_TOKENS, approx_tokens, prompt_tokens, user_message

__all__ = [
    "MAX_PROMPT_TOKENS", "PROVIDERS", "InterpretRequest", "Interpreted", "Interpreter", "Vocabulary",
    "approx_tokens", "build_interpreter", "consult", "count", "prompt_tokens", "request_for", "user_message",
    "vocabulary",
]  # fmt: skip
