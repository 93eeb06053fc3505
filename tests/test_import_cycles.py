"""No import circle anywhere in ``src/pitch``, counting every import a module writes.

import-linter checks the layers it is told about; this finds circles it is not told
about. Imports are read from the source with :mod:`ast`, wherever they stand: at the
top, inside a function (a lazy import is still a dependency) and under
``if TYPE_CHECKING:`` (which hides a circle from the interpreter, not from a reader).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pitch

SRC = Path(pitch.__file__).parent
ROOT = "pitch"

KNOWN: dict[str, frozenset[str]] = {}
"""Circles that exist and are known, each exactly: one that grows, shrinks or goes
away fails the test, so that the list stays true."""


def module_names(src: Path = SRC) -> dict[str, Path]:
    """Every module of the package, by dotted name (a package by its own name)."""
    out: dict[str, Path] = {}
    for path in sorted(src.rglob("*.py")):
        parts = [ROOT, *path.relative_to(src).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, modules: dict[str, Path]) -> Iterator[str]:
    """The modules of the package that ``name`` imports, by name: ``from a import b``
    is an import of ``a.b`` when that is a module, else of ``a``."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                if not is_package:
                    base.pop()
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                yield sub if sub in modules else target


def import_graph(src: Path = SRC) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (its own name left out)."""
    modules = module_names(src)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for target in _imports(name, path, modules):
            # ``import pitch.a.b`` names a module; anything else inside the package
            # (``from pitch.a import name``) resolves to the closest module above it.
            while target not in modules and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in modules and target != name and target.split(".")[0] == ROOT:
                targets.add(target)
        graph[name] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative so that depth is no limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[frozenset[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        out.append(frozenset(component))
    return out


def a_cycle(graph: dict[str, set[str]], component: frozenset[str]) -> list[str]:
    """One closed path through the component, to show in a failure (a -> b -> ... -> a)."""
    start = min(component)
    # Breadth-first from start back to start, inside the component.
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for child in sorted(graph[node] & component):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [*reversed(path), start]
                if child not in previous:
                    previous[child] = node
                    nxt.append(child)
        frontier = nxt
    raise AssertionError(f"no cycle through {start}")  # a component always has one


def describe(graph: dict[str, set[str]], component: frozenset[str]) -> str:
    return " -> ".join(a_cycle(graph, component))


def test_no_import_circle_but_the_known_ones() -> None:
    graph = import_graph()
    found = circles(graph)
    unknown = [c for c in found if c not in KNOWN.values()]
    assert not unknown, "import circles:\n" + "\n".join(
        f"  {describe(graph, c)}  ({len(c)} modules: {', '.join(sorted(c))})" for c in unknown
    )
    gone = [name for name, c in KNOWN.items() if c not in found]
    assert not gone, f"known circles no longer there (take them off KNOWN): {gone}"


def test_the_finder_sees_circles_through_type_checking_and_lazy_imports(tmp_path: Path) -> None:
    """The finder itself: a circle closed only under TYPE_CHECKING, or only by an import
    inside a function, is found; a plain chain is not."""
    pkg = tmp_path / "pitch"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from pitch.sub.a import A\n")
    (pkg / "sub" / "a.py").write_text("from pitch.sub import b\nA = 1\n")
    (pkg / "sub" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import C\n"
    )
    (pkg / "sub" / "c.py").write_text("def f():\n    from pitch.sub.a import A\nC = 1\n")
    (pkg / "d.py").write_text("import pitch.sub.c\n")
    graph = import_graph(pkg)
    assert circles(graph) == [frozenset({"pitch.sub.a", "pitch.sub.b", "pitch.sub.c"})]
    assert describe(graph, circles(graph)[0]) == (
        "pitch.sub.a -> pitch.sub.b -> pitch.sub.c -> pitch.sub.a"
    )
