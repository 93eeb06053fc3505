"""The browser client's rooms (docs/web.md, "Code"): every static or dynamic import in
``src/pitch/web/js`` points to a file that exists, a room imports only from ``core/``
and the rooms it is allowed to use, and no module imports itself back through others."""

from __future__ import annotations

import re
from pathlib import Path

from pitch.web import JS

# A static import (``from "./x.js"``, ``import "./x.js"``) or a dynamic one.
IMPORT = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)["'](\.{1,2}/[^"']+)["']""", re.M
)

ALLOWED = {
    ".": {".", "core", "lobby", "table", "replay", "rules", "account", "players"},  # the router
    "core": {"core"},
    "lobby": {"lobby", "core"},
    "table": {"table", "core"},
    "replay": {"replay", "table", "core"},
    "rules": {"rules", "table", "core"},
    "account": {"account", "core"},
    "players": {"players", "core"},
}
"""Which rooms each room's modules may import from (its own included)."""


def imports(js: Path = JS) -> dict[str, set[str]]:
    """Each module (path from ``js``) and the modules it imports."""
    out: dict[str, set[str]] = {}
    for path in sorted(js.rglob("*.js")):
        name = path.relative_to(js).as_posix()
        found = set()
        for spec in IMPORT.findall(path.read_text(encoding="utf-8")):
            target = (path.parent / spec).resolve()
            assert target.is_file(), f"{name} imports {spec}, which does not exist"
            found.add(target.relative_to(js.resolve()).as_posix())
        out[name] = found
    return out


def room(module: str) -> str:
    return module.split("/", 1)[0] if "/" in module else "."


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph``, or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return [*path[path.index(n) :], n]
            if n not in state and (found := visit(n)):
                return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_every_room_imports_only_what_it_may() -> None:
    graph = imports()
    assert len(graph) >= 20 and sum(map(len, graph.values())) >= 60  # the parser found them
    wrong = [
        f"{m} -> {n}"
        for m, targets in graph.items()
        for n in sorted(targets)
        if room(n) not in ALLOWED[room(m)]
    ]
    assert not wrong, "imports across rooms that docs/web.md does not allow: " + ", ".join(wrong)
    assert set(map(room, graph)) == set(ALLOWED)


def test_no_module_imports_itself_back() -> None:
    assert cycle(imports()) is None


def test_the_checks_can_fail(tmp_path: Path) -> None:
    (tmp_path / "core").mkdir()
    (tmp_path / "table").mkdir()
    (tmp_path / "core" / "a.js").write_text('import { b } from "../table/b.js";\n')
    (tmp_path / "table" / "b.js").write_text('const a = await import("../core/a.js");\n')
    graph = imports(tmp_path)
    assert graph == {"core/a.js": {"table/b.js"}, "table/b.js": {"core/a.js"}}
    assert room("core/a.js") == "core" and "table" not in ALLOWED["core"]
    assert cycle(graph) == ["core/a.js", "table/b.js", "core/a.js"]
