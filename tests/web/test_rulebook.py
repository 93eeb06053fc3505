"""The rulebook the rules page shows (static/rulebook/<lang>.json): one file for each
language of the client, each with exactly the rule ids of RULES.md, in its order, under
the six section headings, every table option of :class:`pitch.engine.Rules` explained,
and no empty text anywhere."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pitch.engine import Rules
from pitch.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "src/pitch/web/rulebook"
CLIENT_LANGUAGES = ROOT / "src/pitch/web/i18n/languages.json"
# RULES.md sits in the shared folder beside the repository; where it is absent (CI),
# docs/rules.md carries the same ids, one "- **R4.3**" line each.
RULES_MD = ROOT.parent / "shared/RULES.md"
DOCS_RULES = ROOT / "docs/rules.md"


def rule_ids() -> list[str]:
    if RULES_MD.exists():
        text, pattern = RULES_MD.read_text(encoding="utf-8"), r"^- (R\d+\.\d+) "
    else:
        text, pattern = DOCS_RULES.read_text(encoding="utf-8"), r"^- \*\*(R\d+\.\d+)\b"
    return re.findall(pattern, text, flags=re.M)


def book(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((BOOK / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def texts(node: object) -> list[str]:
    """Every string in the file (keys aside)."""
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for v in node.values() for s in texts(v)]
    if isinstance(node, list):
        return [s for v in node for s in texts(v)]
    return []


def test_the_rule_ids_are_read() -> None:
    ids = rule_ids()
    assert len(ids) == 30 and ids[0] == "R1.1" and ids[-1] == "R6.2"
    assert re.findall(r"^- \*\*(R\d+\.\d+)\b", DOCS_RULES.read_text(encoding="utf-8"), re.M) == ids


def test_one_file_for_each_language_of_the_client() -> None:
    listed = json.loads(CLIENT_LANGUAGES.read_text(encoding="utf-8"))["languages"]
    assert tuple(code for code, _name in listed) == LANGUAGES
    assert sorted(p.stem for p in BOOK.glob("*.json")) == sorted(LANGUAGES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_once_and_in_order(lang: str) -> None:
    data = book(lang)
    assert data["language"] == lang
    assert [s["id"] for s in data["sections"]] == [f"R{n}" for n in range(1, 7)]
    got = [r["id"] for s in data["sections"] for r in s["rules"]]
    assert got == rule_ids()
    for s in data["sections"]:
        assert all(r["id"].startswith(s["id"] + ".") for r in s["rules"]), s["id"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_table_option_and_example(lang: str) -> None:
    data, en = book(lang), book("en")
    options = data["houseRules"]["options"]
    assert [o["option"] for o in options] == [o["option"] for o in en["houseRules"]["options"]]
    assert {o["option"] for o in options} == set(Rules().to_dict())
    ids = set(rule_ids())
    assert {o["rule"] for o in options} <= ids
    items = data["examples"]["items"]
    assert [x["rules"] for x in items] == [x["rules"] for x in en["examples"]["items"]]
    assert all(set(x["rules"]) <= ids for x in items)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_empty_text(lang: str) -> None:
    data = book(lang)
    for s in data["sections"]:
        assert s["title"].strip()
        assert all(r["text"].strip() for r in s["rules"]), s["id"]
    assert all(t.strip() == t and t for t in texts(data))
    # A rule id named in a text is one that exists (it becomes a link to it).
    for t in texts(data):
        for rid in re.findall(r"\bR\d+\.\d+\b", t):
            assert rid in rule_ids(), (lang, rid)
