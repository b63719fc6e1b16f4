"""The store's backends stay behind its seam: no module outside ``gateway/store/`` imports
``gateway.store.sqlite`` or ``gateway.store.postgres`` (they are reached through
``gateway.store.backend``), so a backend change is made in one wing."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BACKENDS = ("gateway.store.sqlite", "gateway.store.postgres")


def _imports(path: Path) -> list[str]:
    """Every module ``path`` imports, relative imports resolved, ``from X import y`` as X.y too."""
    package = list(path.relative_to(ROOT).parent.parts)
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            anchor = package[: len(package) - node.level + 1] if node.level else []
            base = ".".join([*anchor, node.module] if node.module else anchor)
            names += [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return names


def test_no_module_outside_the_store_imports_a_backend() -> None:
    crossing = [
        f"{path.relative_to(ROOT)} imports {name}"
        for package in ("gateway", "filters")
        for path in sorted((ROOT / package).rglob("*.py"))
        if (ROOT / "gateway" / "store") not in path.parents
        for name in _imports(path)
        if name.startswith(BACKENDS)
    ]
    assert crossing == []
