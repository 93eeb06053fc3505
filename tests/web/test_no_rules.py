"""The browser client works out no rule (issue 45): the server sends the sides, who
played each card of a trick, each hand's points and whether a seat may pitch, all from
the engine. A derivation that comes back in one of its simple forms fails here; the
browser tests check the pages still show what the server sent."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import pitch.web

JS = Path(pitch.web.__file__).parent / "js"

# (what the client must not work out, a pattern that finds it in a line of code)
DERIVATIONS = {
    # seatsOfSide, sideOf: `rules.partnerships ? seat % 2 : seat` (R1.2, R1.4)
    "the side of a seat": re.compile(r"partnerships\s*\?[^;\n]*%"),
    # `(tr.leader + k) % n` (R4.2): the server sends each card's seat
    "the play order": re.compile(r"leader\s*\+[^;\n]*%"),
    # `g.legal.includes("bid 4")` (R3.4): the state's `pitch` says it
    "pitching from a bid of 4": re.compile(r"""["'`]bid 4["'`]"""),
    # `r.delta?.[side] ?? (r.made ? r.bid : -r.bid)` (R5.6, R5.7): the engine's delta
    # `form.players === 4 && form.partnerships` (R1.2): the option's `only_with` says it
    "the partnership game's size": re.compile(r"players\s*[!=]==?\s*4\b"),
    "a made or set-back bid's points": re.compile(
        r"\?\?\s*\(?\s*-?\s*\w+\.bid\b|made\s*\?\s*-?\w+\.bid\b"
    ),
}


def _code(text: str) -> str:
    """``text`` without its comments (a comment may name the rule it no longer works out)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"(^|[^:\"'`])//.*", r"\1", text)


def test_rules_js_is_gone() -> None:
    assert not (JS / "core" / "rules.js").exists()
    for path in JS.rglob("*.js"):
        assert "core/rules.js" not in path.read_text(), path


@pytest.mark.parametrize("what", list(DERIVATIONS))
def test_no_rule_is_worked_out_in_javascript(what: str) -> None:
    found = [
        f"{path.relative_to(JS)}:{i}: {line.strip()}"
        for path in sorted(JS.rglob("*.js"))
        for i, line in enumerate(_code(path.read_text()).splitlines(), 1)
        if DERIVATIONS[what].search(line)
    ]
    assert found == [], f"{what} worked out in the client: {found}"


@pytest.mark.parametrize(
    ("what", "line"),
    [
        ("the side of a seat", "return rules.partnerships ? seat % 2 : seat;"),
        ("the side of a seat", "const mine = rules.partnerships ? r.pitcher % 2 : r.pitcher;"),
        ("the play order", "const seat = (tr.leader + k) % n;"),
        ("pitching from a bid of 4", 'if (g.legal.includes("bid 4")) {'),
        (
            "a made or set-back bid's points",
            "const p = r.delta?.[side] ?? (r.made ? r.bid : -r.bid);",
        ),
        ("a made or set-back bid's points", "n: r.delta?.[mine] ?? -r.bid"),
        ("the partnership game's size", "partnerships: form.players === 4 && form.partnerships,"),
        ("the partnership game's size", "if (form.players !== 4) form.partnerships = false;"),
    ],
)
def test_the_patterns_find_what_the_client_did(what: str, line: str) -> None:
    # The derivations the client had before issue 45, as they were written.
    assert DERIVATIONS[what].search(_code(line))
