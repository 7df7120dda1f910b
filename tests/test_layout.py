"""The package's layout stays a map of its architecture: no module imports, directly or
through others, one that imports it back (lazy imports inside functions count too)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "carcassonne"


def imports() -> dict[str, set[str]]:
    """Module -> the package's modules it imports anywhere in its text."""
    modules = {p.stem for p in PACKAGE.glob("*.py")}
    edges: dict[str, set[str]] = {}
    for module in modules:
        out: set[str] = set()
        for node in ast.walk(ast.parse((PACKAGE / f"{module}.py").read_text())):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "carcassonne":
                parts = node.module.split(".")
                names = [parts[1]] if len(parts) > 1 else [a.name if a.name in modules else "__init__" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name.split(".")[1] for a in node.names if a.name.startswith("carcassonne.")]
            out |= {n for n in names if n in modules or n == "__init__"}
        out.discard(module)
        edges[module] = out
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_import_circles_in_the_python_package() -> None:
    edges = imports()
    assert "results" in edges and "simulation" in edges["cli"]  # the analysis sees the package
    assert circles(edges) == []


def test_the_circle_finder_finds_circles() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
