"""Input schemas of the Composio tools this project uses, and a small validator for them.

The schemas come from the snapshot `toolkits/data/composio_tools.json`. The validator covers the
JSON Schema keywords that snapshot uses; unknown top-level arguments are refused, as Composio would.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any

from toolkits.errors import InvalidArguments, UnknownTool

__all__ = ["check_arguments", "known_slugs", "tool_schema", "toolkit_of", "validate_arguments"]

Schema = dict[str, Any]


@functools.cache
def _tools() -> dict[str, dict[str, Any]]:
    text = resources.files("toolkits").joinpath("data/composio_tools.json").read_text(encoding="utf-8")
    tools: dict[str, dict[str, Any]] = json.loads(text)["tools"]
    return tools


def _tool(slug: str) -> dict[str, Any]:
    try:
        return _tools()[slug]
    except KeyError:
        raise UnknownTool(f"Unknown tool '{slug}'") from None


def tool_schema(slug: str) -> Schema:
    """The `input_parameters` JSON schema of a Composio tool (a copy the caller may change).

    Raises:
        UnknownTool: the slug is not in the snapshot.
    """
    return copy.deepcopy(_tool(slug)["input_parameters"])


def toolkit_of(slug: str) -> str:
    """The toolkit a slug belongs to: "attio", "linear" or "googlecalendar".

    Raises:
        UnknownTool: the slug is not in the snapshot.
    """
    toolkit: str = _tool(slug)["toolkit"]
    return toolkit


@functools.cache
def known_slugs() -> frozenset[str]:
    """Every slug in the snapshot."""
    return frozenset(_tools())


def validate_arguments(slug: str, args: Mapping[str, Any]) -> list[str]:
    """Problems that keep `args` from fitting the tool's input schema; empty when they fit.

    Raises:
        UnknownTool: the slug is not in the snapshot.
    """
    schema = _tool(slug)["input_parameters"]
    if not isinstance(args, Mapping):
        return ["arguments must be an object"]
    problems: list[str] = []
    _check_object(args, schema, "", problems, refuse_unknown=True)
    return problems


def check_arguments(slug: str, args: Mapping[str, Any]) -> None:
    """Raise when `args` do not fit the tool's input schema.

    Raises:
        InvalidArguments: with the list of problems.
        UnknownTool: the slug is not in the snapshot.
    """
    problems = validate_arguments(slug, args)
    if problems:
        raise InvalidArguments(slug, problems)


_TYPE_CHECKS: dict[str, Any] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "object": lambda v: isinstance(v, Mapping),
    "array": lambda v: isinstance(v, list | tuple),
}


_OBJECT_KEYWORDS = frozenset({"properties", "required", "additionalProperties", "minProperties"})


def _json_type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, list | tuple):
        return "array"
    return type(value).__name__


def _has_type(value: Any, expected: str | list[str]) -> bool:
    if isinstance(expected, str):
        return bool(_TYPE_CHECKS[expected](value))
    return any(_TYPE_CHECKS[name](value) for name in expected)


@functools.lru_cache(maxsize=64)
def _pattern(source: str) -> re.Pattern[str]:
    return re.compile(source)


def _check_object(
    value: Mapping[str, Any], schema: Schema, prefix: str, problems: list[str], *, refuse_unknown: bool
) -> None:
    properties: dict[str, Schema] | None = schema.get("properties")
    for name in schema.get("required", ()):
        if name not in value:
            problems.append(f"missing required argument '{prefix}{name}'")
    extra = schema.get("additionalProperties")
    for key, item in value.items():
        sub = properties.get(key) if properties is not None else None
        if sub is not None:
            _check_value(item, sub, f"{prefix}{key}", problems)
        elif refuse_unknown or extra is False:
            problems.append(f"unknown argument '{prefix}{key}'")
        elif isinstance(extra, dict):
            _check_value(item, extra, f"{prefix}{key}", problems)
    low = schema.get("minProperties")
    if low is not None and len(value) < low:
        where = f"'{prefix[:-1]}'" if prefix else "the call"
        problems.append(f"{where} needs at least {low} arguments, got {len(value)}")


def _check_value(value: Any, schema: Schema, path: str, problems: list[str]) -> None:
    expected = schema.get("type")
    if expected is not None and not _has_type(value, expected):
        wanted = expected if isinstance(expected, str) else " or ".join(expected)
        problems.append(f"argument '{path}' must be of type {wanted}, not {_json_type_name(value)}")
        return
    enum = schema.get("enum")
    if enum is not None and value not in enum:
        choices = ", ".join(repr(choice) for choice in enum)
        problems.append(f"argument '{path}' must be one of {choices}")
        return
    if isinstance(value, str):
        _check_string(value, schema, path, problems)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        _check_number(value, schema, path, problems)
    elif isinstance(value, list | tuple):
        _check_array(value, schema, path, problems)
    elif isinstance(value, Mapping) and _OBJECT_KEYWORDS.intersection(schema):
        _check_object(value, schema, f"{path}.", problems, refuse_unknown=False)


def _check_string(value: str, schema: Schema, path: str, problems: list[str]) -> None:
    low = schema.get("minLength")
    if low is not None and len(value) < low:
        problems.append(f"argument '{path}' must be at least {low} characters long")
    high = schema.get("maxLength")
    if high is not None and len(value) > high:
        problems.append(f"argument '{path}' must be at most {high} characters long")
    pattern = schema.get("pattern")
    if pattern is not None and _pattern(pattern).search(value) is None:
        problems.append(f"argument '{path}' does not have the expected format")


def _check_number(value: float, schema: Schema, path: str, problems: list[str]) -> None:
    low = schema.get("minimum")
    if low is not None and value < low:
        problems.append(f"argument '{path}' must be >= {low}")
    high = schema.get("maximum")
    if high is not None and value > high:
        problems.append(f"argument '{path}' must be <= {high}")


def _check_array(value: list[Any] | tuple[Any, ...], schema: Schema, path: str, problems: list[str]) -> None:
    low = schema.get("minItems")
    if low is not None and len(value) < low:
        problems.append(f"argument '{path}' must have at least {low} item(s)")
    high = schema.get("maxItems")
    if high is not None and len(value) > high:
        problems.append(f"argument '{path}' must have at most {high} item(s)")
    items = schema.get("items")
    if items is not None:
        for index, item in enumerate(value):
            _check_value(item, items, f"{path}[{index}]", problems)
