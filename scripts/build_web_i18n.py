#!/usr/bin/env python3
"""Build the web client's translations: gettext catalogs -> static JSON.

The sources are ``src/pitch/locale/<lang>/LC_MESSAGES/web.po`` (domain ``web``); the
browser loads ``src/pitch/server/static/i18n/<lang>.json``. Both are committed, so no
build step runs on a player's machine.

    python scripts/build_web_i18n.py            # write the JSON files
    python scripts/build_web_i18n.py --check    # exit 1 if a JSON file is out of date
    python scripts/build_web_i18n.py --extract  # add new msgids from the JS to every .po

Message ids are the English text of every ``t("...")`` call in ``static/js/*.js``,
found with Babel's JavaScript extractor, and the message keys the server sends for the
browser to translate (hint explanations and the engine's refusals: ``N_("...")`` in the
modules of ``SERVER_KEYS``). It also writes ``languages.json``, the languages the site
offers, from :data:`pitch.i18n.LANGUAGE_NAMES` (the one list of them).
"""

from __future__ import annotations

import argparse
import gettext
import json
import sys
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))  # this checkout's pitch, installed or not

from pitch.i18n import LANGUAGE_NAMES, LANGUAGES  # noqa: E402

JS = ROOT / "src/pitch/web/js"
OUT = ROOT / "src/pitch/web/i18n"
LOCALE = ROOT / "src/pitch/locale"
DOMAIN = "web"
SERVER_KEYS = (
    ROOT / "src/pitch/bots/explain.py",
    ROOT / "src/pitch/engine/refusals.py",
    ROOT / "src/pitch/engine/rules.py",
)
"""Python modules whose ``N_("...")`` keys reach the browser in messages (hints,
refusals; the table options' labels and help, GET /api/rules/options)."""


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


MsgId = str | tuple[str, str]
"""A message's id: its text, or for a count's message ``tn(one, other, n)`` the pair."""


def extract_msgids(js_dir: Path = JS, *, server: bool = True) -> dict[MsgId, list[tuple[str, int]]]:
    """Every msgid passed to ``t(...)`` and ``tn(...)`` (and, with ``server``, every key
    the server sends), with where it is used."""
    js: dict[str, Any] = {"t": None, "tn": (1, 2)}
    sources = [("javascript", js, p) for p in sorted(js_dir.rglob("*.js"))]
    if server:
        sources += [("python", {"N_": None}, p) for p in SERVER_KEYS]
    found: dict[MsgId, list[tuple[str, int]]] = {}
    for method, keywords, path in sources:
        with path.open("rb") as fh:
            for lineno, msg, _comments, _ctx in extract(method, fh, keywords=keywords):
                if isinstance(msg, tuple) and len(msg) == 2:
                    msg = (str(msg[0]), str(msg[1]))
                if isinstance(msg, (str, tuple)):
                    # Locations from the package (web/js/table/table.js, bots/explain.py).
                    base = ROOT / "src/pitch"
                    where = path.relative_to(base).as_posix()
                    found.setdefault(msg, []).append((where, lineno))
    return found


def read_catalog(lang: str) -> Catalog:
    with po_path(lang).open("rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


def plural_categories(cat: Catalog) -> dict[str, int]:
    """Which of the catalog's plural forms (gettext's index, its ``Plural-Forms``) each
    CLDR plural category of its language takes: the browser picks the category
    (``Intl.PluralRules``), so the JSON keys a count's forms by it."""
    index = gettext.c2py(cat.plural_expr)
    rules = Locale.parse(cat.locale_identifier or "en")
    out: dict[str, int] = {}
    for n in range(1000):
        category, form = rules.plural_form(n), index(n)
        assert out.setdefault(category, form) == form, (cat.locale, n)
    out.setdefault("other", cat.num_plurals - 1)  # fractions, which gettext has no form for
    return out


def catalog_json(lang: str) -> dict[str, object]:
    """The JSON the browser loads: translated, non-fuzzy messages only (English: msgid).
    A count's message is keyed by its singular, its forms by plural category."""
    cat = read_catalog(lang)
    categories = plural_categories(cat)
    messages: dict[str, object] = {}
    for m in cat:
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, tuple):
            forms = list(m.string) if isinstance(m.string, tuple) else []
            if lang == "en" and not any(forms):
                forms = [m.id[0], m.id[1]]
            if forms and all(forms):
                messages[m.id[0]] = {c: forms[i] for c, i in sorted(categories.items())}
            continue
        text = m.string if isinstance(m.string, str) and m.string else ""
        if lang == "en" and not text:
            text = m.id
        if text:
            messages[m.id] = text
    return {"language": lang, "messages": dict(sorted(messages.items()))}


def render_json(lang: str) -> str:
    return json.dumps(catalog_json(lang), ensure_ascii=False, indent=1) + "\n"


def render_languages() -> str:
    """``languages.json``: ``[[code, name], ...]`` in the order the site lists them."""
    langs = [[code, LANGUAGE_NAMES[code]] for code in LANGUAGES]
    return json.dumps({"languages": langs}, ensure_ascii=False, indent=1) + "\n"


def extract_into_po() -> None:
    """Add new msgids to every .po file (and mark vanished ones obsolete)."""
    template = Catalog(domain=DOMAIN)
    for msgid, where in extract_msgids().items():
        template.add(msgid, locations=where)
    for lang in LANGUAGES:
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            cat = read_catalog(lang)
        else:
            cat = Catalog(locale=lang, domain=DOMAIN, project="pitch")
        cat.update(template, no_fuzzy_matching=True)
        with path.open("wb") as fh:
            write_po(fh, cat, width=100, include_lineno=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="fail if a JSON file is stale")
    ap.add_argument("--extract", action="store_true", help="add new msgids to the .po files")
    args = ap.parse_args(argv)
    if args.extract:
        extract_into_po()
    stale = []
    OUT.mkdir(parents=True, exist_ok=True)
    outputs = [(OUT / f"{lang}.json", render_json(lang)) for lang in LANGUAGES]
    outputs.append((OUT / "languages.json", render_languages()))
    for out, text in outputs:
        if out.exists() and out.read_text(encoding="utf-8") == text:
            continue
        if args.check:
            stale.append(out.name)
        else:
            out.write_text(text, encoding="utf-8")
            print(f"wrote {out.relative_to(ROOT)}")
    if stale:
        print(f"out of date: {', '.join(stale)}; run scripts/build_web_i18n.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
