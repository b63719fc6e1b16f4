"""Structure figures of the source tree: import cycles, module sizes, Protocol sizes, backend twins.

Run: `.venv/bin/python bench/structure.py [ROOT]` (default: the repository this file is in).
Counts only product code (`gateway/`, `filters/`). An import counts wherever it is written
(module top, function body, `TYPE_CHECKING` block), since each one is a dependency a reader
must follow; the cycle figure is the number of strongly connected components with more than
one module, and their sizes.
"""

from __future__ import annotations

import ast
import difflib
import re
import sys
from collections.abc import Iterator
from pathlib import Path


def modules(root: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in ("gateway", "filters"):
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, only those with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    sys.setrecursionlimit(10_000)

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def protocols(path: Path) -> Iterator[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(
            (isinstance(b, ast.Name) and b.id == "Protocol") or (isinstance(b, ast.Attribute) and b.attr == "Protocol")
            for b in node.bases
        ):
            methods = [n for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
            yield node.name, len(methods)


def twin_lines(a: Path, b: Path) -> int:
    """Lines of `a` that also stand in `b` once placeholders and whitespace are normalised."""

    def norm(path: Path) -> list[str]:
        lines = []
        for line in path.read_text(encoding="utf-8").splitlines():
            line = re.sub(r"%s|\?", "?", line.strip())
            if len(line) > 3:
                lines.append(line)
        return lines

    left, right = norm(a), norm(b)
    matcher = difflib.SequenceMatcher(None, left, right, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks())


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
    known = modules(root)
    graph = {name: imported(name, path, known) for name, path in known.items()}
    sizes = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in known.items()}
    found = cycles(graph)
    print(f"modules: {len(known)}, lines: {sum(sizes.values())}")
    print(f"import cycles: {len(found)} (sizes {sorted((len(c) for c in found), reverse=True)})")
    for component in found:
        print("  cycle:", ", ".join(component[:20]), "…" if len(component) > 20 else "")
    largest = sorted(sizes.items(), key=lambda kv: -kv[1])
    print(f"largest module: {largest[0][0]} ({largest[0][1]} lines)")
    over = [f"{n} ({s})" for n, s in largest if s > 400]
    print(f"modules over 400 lines: {len(over)}: {', '.join(over)}")
    biggest = sorted(((n, c, name) for name, path in known.items() for n, c in protocols(path)), key=lambda t: -t[1])[
        :5
    ]
    print("largest Protocols:", ", ".join(f"{n} {c} methods ({m})" for n, c, m in biggest))
    for base in ("gateway/memory", "gateway/store"):
        left, right = root / base / "sqlite", root / base / "postgres"
        if not (left.is_dir() and right.is_dir()):
            continue
        names = sorted({p.name for p in left.glob("*.py")} & {p.name for p in right.glob("*.py")} - {"__init__.py"})
        counts = {name: twin_lines(left / name, right / name) for name in names}
        print(
            f"backend twins {base}/{{sqlite,postgres}}/*.py: {sum(counts.values())} shared lines",
            "(" + ", ".join(f"{n} {c}" for n, c in counts.items()) + ")",
        )


if __name__ == "__main__":
    main()
