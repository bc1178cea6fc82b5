"""A wheel carries every package of the product: pyproject lists them by hand, so a new package
folder that is not listed would install fine in editable mode and be missing from a real install."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP = ("server", "planner", "toolkits", "drafts", "bot")


def test_every_package_folder_is_listed_for_the_wheel() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in TOP
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert found - listed == set(), f"add to [tool.setuptools] packages: {sorted(found - listed)}"
