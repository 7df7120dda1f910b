"""The package's layout stays a map of its architecture: no module imports, directly or
through others, one that imports it back (lazy imports inside functions count too).

Modules are named by their dotted path inside the package, subpackages included
("study.results", "svg"); a package is its ``__init__.py`` ("__init__" for the package
itself). Importing a module of a subpackage runs the subpackage's ``__init__`` first, but
that is no edge here: only a name taken from a package (``from carcassonne.study import
Study``) is, so a submodule that imports its own package's ``__init__`` back is found."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "carcassonne"

OPTIONAL = ("pandas", "pyarrow", "matplotlib", "dask", "distributed", "ray", "tqdm", "scipy")
"""Extras (and test tools) the package imports only inside the functions that need them,
so that ``import carcassonne`` stays fast and works with numpy alone."""


def module_name(path: Path) -> str:
    """"study.results" for study/results.py, "study" for study/__init__.py, "__init__" for
    the package's own __init__.py."""
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def imports() -> dict[str, set[str]]:
    """Module -> the package's modules it imports anywhere in its text."""
    files = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(files)

    def resolve(dotted: str) -> str | None:
        """A dotted name under the package ("" for the package) -> its module."""
        name = dotted or "__init__"
        return name if name in modules else None

    edges: dict[str, set[str]] = {}
    for module, path in files.items():
        is_package = path.name == "__init__.py"
        here = module_name(path) if is_package else module.rpartition(".")[0]
        if here == "__init__":
            here = ""
        out: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level:  # relative: from the module's own package upwards
                    base = here.split(".") if here else []
                    base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                    target = ".".join([*base, *(node.module.split(".") if node.module else [])])
                elif node.module and node.module.split(".")[0] == "carcassonne":
                    target = node.module.partition(".")[2]
                else:
                    continue
                for alias in node.names:
                    sub = f"{target}.{alias.name}" if target else alias.name
                    found = resolve(sub) or resolve(target)  # a submodule, or a name of the module
                    if found is not None:
                        out.add(found)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("carcassonne."):
                        found = resolve(alias.name.partition(".")[2])
                        if found is not None:
                            out.add(found)
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
    assert "study.results" in edges and "study.play" in edges["cli"]  # the analysis sees the package
    assert circles(edges) == []


def test_the_circle_finder_finds_circles() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def loaded_after(statement: str) -> list[str]:
    """The optional packages in ``sys.modules`` after running ``statement`` in a fresh
    interpreter (deprecation warnings of old module paths ignored)."""
    code = (
        f"import json, sys\n{statement}\n"
        f"print(json.dumps(sorted({{m.partition('.')[0] for m in sys.modules}} & {set(OPTIONAL)!r})))"
    )
    out = subprocess.run(
        [sys.executable, "-W", "ignore::DeprecationWarning", "-c", code], capture_output=True, text=True, check=True
    )
    loaded: list[str] = json.loads(out.stdout.splitlines()[-1])
    return loaded


def test_importing_the_package_loads_no_optional_dependency() -> None:
    assert loaded_after("import carcassonne") == []


def test_no_module_of_the_package_imports_an_optional_dependency_when_imported() -> None:
    names = sorted(f"carcassonne.{m}" for m in imports() if m != "__init__" and m != "__main__")
    assert "carcassonne.cli" in names and "carcassonne.stats" in names
    assert loaded_after("import importlib\n" + "\n".join(f"importlib.import_module({n!r})" for n in names)) == []
