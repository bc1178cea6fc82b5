"""Workspace configuration that no API exposes: default team, inbox state, calendar, templates,
Russian stage aliases. Shipped with the package (the sandbox fixture carries it) and overridable
with `PLANNER_WORKSPACE_CONFIG` pointing at a JSON file of the same shape."""

from __future__ import annotations

import json
import os
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["fixture_path", "workspace_config"]


def fixture_path() -> Path:
    return Path(str(resources.files("toolkits") / "data" / "workspace.json"))


@lru_cache(maxsize=4)
def _load(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


def workspace_config() -> dict[str, Any]:
    """`defaults`, `templates` and `stage_aliases` ({stage title: [aliases]})."""
    raw = _load(os.environ.get("PLANNER_WORKSPACE_CONFIG") or str(fixture_path()))
    stages = raw.get("attio", {}).get("deal_stages", [])
    return {
        "defaults": raw.get("defaults", {}),
        "templates": raw.get("templates", {}),
        "timezone": raw.get("timezone", "Europe/Moscow"),
        "stage_aliases": {s["title"]: list(s.get("aliases_ru", [])) for s in stages},
        # what people call a team in either language ("дизайн" = DES), by team key
        "team_aliases": {
            t["key"]: list(t.get("aliases", [])) for t in raw.get("linear", {}).get("teams", [])
        },
    }
