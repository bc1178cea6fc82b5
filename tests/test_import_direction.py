"""The layout is the architecture: server -> planner, drafts -> toolkits, and nothing points back."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = {
    "toolkits": set(),
    "drafts": {"toolkits"},
    "planner": {"toolkits"},
    "server": {"planner", "drafts", "toolkits"},
    "bot": set(),  # a client: it talks MCP to the server, never imports its internals
}
VENDOR_ONLY = {
    "mcp": {"server", "bot"},
    "composio": {"toolkits"},
    "composio_client": {"toolkits"},
    "anthropic": {"planner"},  # the model interpreter's adapters (planner/interpreter), imported lazily
    "openai": {"planner"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_packages_import_only_downward() -> None:
    problems = []
    for package, allowed in ALLOWED.items():
        for path in (ROOT / package).rglob("*.py"):
            for name in _imports(path) & set(ALLOWED):
                if path.relative_to(ROOT).as_posix() == "server/cli.py" and name == "bot":
                    continue  # `planner-mcp telegram` starts the bot: the command line may launch a client
                if name != package and name not in allowed:
                    problems.append(f"{path.relative_to(ROOT)} imports {name}")
    assert problems == []


def test_vendor_sdks_stay_behind_their_boundary() -> None:
    problems = []
    for package in ALLOWED:
        for path in (ROOT / package).rglob("*.py"):
            for vendor, owners in VENDOR_ONLY.items():
                if vendor in _imports(path) and package not in owners:
                    problems.append(f"{path.relative_to(ROOT)} imports {vendor}")
    assert problems == []


def test_composio_is_imported_lazily_only() -> None:
    """Importing every package must not import composio (it takes ~2.5 s)."""
    import subprocess
    import sys

    code = "import server.app, server.wiring, planner, drafts, toolkits.registry, sys; print('composio' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"
