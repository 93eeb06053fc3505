"""Accessibility: axe-core (the ``axe-playwright-python`` package bundles it) on the page
a browser test has open.

``assert_accessible`` runs axe on the page as it is, at a phone and a laptop size, and
fails with every violation in words: the rule, its impact, the elements (CSS selectors)
and where the rule is explained. No rule is turned off; should one ever have to be, it
goes in ``DISABLED`` with the reason beside it. The page's Content-Security-Policy does
not stop axe (Playwright's ``evaluate`` runs outside it), and every run must report
passed checks too, so a run that checked nothing cannot pass for a clean one.
"""

from __future__ import annotations

from typing import Any

import pytest

axe_sync = pytest.importorskip(
    "axe_playwright_python.sync_playwright", reason="needs the web-test extra"
)

# The sizes every page is checked at: a phone (390x844) and a laptop (1280x800).
SIZES = ((390, 844), (1280, 800))

# Rules turned off, each with why: none.
DISABLED: dict[str, str] = {}

_AXE = axe_sync.Axe()
_OPTIONS = {
    # Only violations in full (the rest is one node a rule): the report stays small.
    "resultTypes": ["violations"],
    "rules": {rule: {"enabled": False} for rule in DISABLED},
}


def violations_text(results: dict[str, Any]) -> str:
    """axe's violations as a readable list: one rule a paragraph, one element a line (its
    selector and the start of its HTML)."""
    out = []
    for v in results["violations"]:
        url = v["helpUrl"].split("?")[0]
        out.append(f"{v['id']} ({v['impact']}): {v['help']} ({url})")
        for node in v["nodes"]:
            target = " ".join(str(t) for t in node["target"])  # a frame's path, if any
            html = " ".join(node.get("html", "").split())
            out.append(f"  - {target}: {html[:160]}")
    return "\n".join(out)


def assert_accessible(
    page: Any, name: str, sizes: tuple[tuple[int, int], ...] | None = SIZES
) -> None:
    """No axe violation on ``page`` (called ``name`` in the report) at each of ``sizes``,
    or as it is when ``sizes`` is None; the viewport is put back afterwards. The caller
    first waits (``expect``) for the state it means to check."""
    before = page.viewport_size
    found = {}
    for w, h in sizes or ((0, 0),):
        if sizes:
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_function("w => innerWidth === w", arg=w)
        results = _AXE.run(page, options=_OPTIONS).response
        assert results["passes"], f"{name}: axe checked nothing (did it run?)"
        if results["violations"]:
            found[f"{w}x{h}" if sizes else "as shown"] = violations_text(results)
    if sizes and before:
        page.set_viewport_size(before)
    assert not found, f"accessibility violations on {name}:\n" + "\n".join(
        (f"at {size}:\n{text}" if sizes else text) for size, text in found.items()
    )
