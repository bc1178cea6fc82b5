"""Bounds on what a caller can send (DESIGN §10), shared by the planner and the MCP boundary."""

from __future__ import annotations

__all__ = ["MAX_BODY", "MAX_INTENTS", "MAX_ITEMS", "MAX_NAME", "MAX_TEXT", "MAX_TITLE"]

MAX_TEXT = 4000  # a request, a span, an answer
MAX_TITLE = 500  # an issue's or task's title
MAX_BODY = 10_000  # a note, a comment, a description
MAX_NAME = 200  # a reference: a name, an identifier, a date in words
MAX_ITEMS = 100  # any list
MAX_INTENTS = 20  # intents in one request
