"""What keeps the server's cold start inside its budget (DESIGN §11): the planner's patterns are
compiled when first used, not when their module is imported at start-up."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _module_level_compiles(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr == "compile"
            and isinstance(value.func.value, ast.Name)
            and value.func.value.id == "re"
        ):
            lines.append(node.lineno)
    return lines


def test_no_planner_module_compiles_a_pattern_when_it_is_imported() -> None:
    found = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "planner").rglob("*.py"))
        if path.name != "_lazy_re.py" and (lines := _module_level_compiles(path))
    }
    assert found == {}, f"use planner._lazy_re.LazyRe for module-level patterns: {found}"


def test_the_check_sees_a_module_level_compile(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('import re\n_X = re.compile(r"a+")\n\ndef f():\n    return re.compile("b")\n')
    assert _module_level_compiles(sample) == [2]
