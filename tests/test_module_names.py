"""A module-level name is bound once: a second `_PATTERN = LazyRe(…)` further down a long module silently
replaces the first, and every use above it then reads the other pattern (it happened: a new `_COURTESY_TAIL`
in `planner/dialogue.py` changed what `without_courtesy` cut). A name rebound from itself
(`_SAME_WORD = {… for … in _SAME_WORD.items()}`) derives, and is allowed."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(
    p for pkg in ("planner", "server", "drafts", "toolkits", "bot") for p in (ROOT / pkg).rglob("*.py")
)


def rebound(path: Path) -> list[str]:
    seen: set[str] = set()
    twice: list[str] = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None:
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        used = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
        for target in targets:
            if isinstance(target, ast.Name):
                if target.id in seen and target.id not in used:
                    twice.append(f"{target.id} (line {node.lineno})")
                seen.add(target.id)
    return twice


def test_a_module_level_name_is_bound_once() -> None:
    twice = {str(p.relative_to(ROOT)): names for p in MODULES if (names := rebound(p))}
    assert twice == {}


def test_the_check_finds_a_name_bound_twice(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("A = 1\nB = 2\nA = 3\nB = {B: 1}\n", encoding="utf-8")
    assert rebound(module) == ["A (line 3)"]
