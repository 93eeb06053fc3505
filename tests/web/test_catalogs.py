"""Translations: every msgid the JavaScript uses is in every web.po, translated, and the
JSON the browser loads matches the .po files (scripts/build_web_i18n.py)."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType

import pytest

from pitch.i18n import LANGUAGE_NAMES, LANGUAGES

pytest.importorskip("babel", reason="needs the web-test extra")

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "src/pitch/server/static/js"
TRANSLATED = tuple(code for code in LANGUAGES if code != "en")


def _build() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_web_i18n", ROOT / "scripts/build_web_i18n.py"
    )
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


build = _build()
USED = build.extract_msgids()


def test_extractor_sees_every_call() -> None:
    # A t(...) the extractor cannot read (a template literal, a variable) would ship
    # untranslated; the plain-text scan and Babel must agree on the set of msgids.
    scanned = set()
    for path in JS.glob("*.js"):
        text = path.read_text(encoding="utf-8")
        scanned |= set(re.findall(r'\bt\("((?:[^"\\]|\\.)*)"', text))
        for m in re.finditer(r"\bt\((?!\"|msgid, params\))", text):
            line = text[: m.start()].count("\n") + 1
            pytest.fail(f"{path.name}:{line}: t() needs a string literal")
    assert scanned == set(build.extract_msgids(server=False))
    assert len(USED) > 150


@pytest.mark.parametrize("lang", build.LANGUAGES)
def test_every_msgid_is_in_the_catalog(lang: str) -> None:
    cat = build.read_catalog(lang)
    ids = {m.id for m in cat if m.id}
    missing = sorted(set(USED) - ids)
    assert not missing, f"{lang}/web.po lacks {missing[:5]}; run build_web_i18n.py --extract"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_msgid_is_translated(lang: str) -> None:
    cat = build.read_catalog(lang)
    bad = [m.id for m in cat if m.id in USED and (not m.string or m.fuzzy)]
    assert not bad, f"{lang}: untranslated or fuzzy: {bad[:5]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_match(lang: str) -> None:
    for m in build.read_catalog(lang):
        if m.id in USED:
            want = sorted(re.findall(r"\{(\w+)\}", m.id))
            got = sorted(re.findall(r"\{(\w+)\}", m.string))
            assert got == want, f"{lang}: {m.id!r} -> {m.string!r}"


@pytest.mark.parametrize("lang", build.LANGUAGES)
def test_json_matches_po(lang: str) -> None:
    path = ROOT / f"src/pitch/server/static/i18n/{lang}.json"
    assert path.read_text(encoding="utf-8") == build.render_json(lang), (
        f"{path.name} is stale: run scripts/build_web_i18n.py"
    )
    assert set(json.loads(path.read_text(encoding="utf-8"))["messages"]) >= set(USED)


def test_one_list_of_languages() -> None:
    """The site's languages are pitch.i18n's, in its order, served as languages.json;
    the JavaScript keeps no list of its own."""
    assert build.LANGUAGES == LANGUAGES
    path = ROOT / "src/pitch/server/static/i18n/languages.json"
    assert path.read_text(encoding="utf-8") == build.render_languages(), (
        "languages.json is stale: run scripts/build_web_i18n.py"
    )
    served = json.loads(path.read_text(encoding="utf-8"))["languages"]
    assert served == [[code, LANGUAGE_NAMES[code]] for code in LANGUAGES]
    for path in JS.glob("*.js"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r'\["nb",\s*"Norsk', text), f"{path.name} lists languages"


def test_engine_refusal_keys_reach_the_browser() -> None:
    """Every key the engine can refuse with is a msgid of the web catalogs."""
    from pitch.engine.refusals import KEYS

    assert set(KEYS) <= set(USED)
