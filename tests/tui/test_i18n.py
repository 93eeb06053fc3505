"""Each language's catalog is complete, current, compiled, and used by the game."""

from __future__ import annotations

import gettext
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import pitch
from pitch.i18n import LANGUAGES, LOCALE_DIR, set_language, suit_name, term, translation

SRC = Path(pitch.__file__).parent
TRANSLATED = [code for code in LANGUAGES if code != "en"]


def source_messages() -> set[tuple[str | None, str]]:
    """Every (context, message) the code marks for translation, extracted afresh."""
    out: set[tuple[str | None, str]] = set()
    for _file, _line, msg, _comments, context in extract_from_dir(str(SRC)):
        text = msg if isinstance(msg, str) else msg[0]
        out.add((context, text))
    return out


def fields(text: str) -> set[str]:
    return {f for _lit, f, _spec, _conv in string.Formatter().parse(text) if f is not None}


def test_template_is_current() -> None:
    with (LOCALE_DIR / "pitch.pot").open("rb") as f:
        pot = read_po(f)
    assert {(m.context, m.id) for m in pot if m.id} == source_messages()


@pytest.mark.parametrize("code", TRANSLATED)
def test_catalog_is_complete_and_compiled(code: str) -> None:
    po_path = LOCALE_DIR / code / "LC_MESSAGES" / "pitch.po"
    with po_path.open("rb") as f:
        po = read_po(f)
    wanted = source_messages()
    have = {(m.context, m.id): m for m in po if m.id}
    assert set(have) >= wanted, f"untranslated in {code}: {sorted(wanted - set(have), key=str)}"
    mo = translation(code)
    assert isinstance(mo, gettext.GNUTranslations)
    for key in wanted:
        m = have[key]
        assert m.string and not m.fuzzy, f"{code}: {key} has no translation"
        assert isinstance(m.string, str)
        # The same placeholders, or the game would crash formatting the message.
        assert fields(m.string) == fields(m.id), f"{code}: placeholders differ in {key}"
        # The shipped .mo was compiled from this .po.
        ctx, msgid = key
        got = mo.pgettext(ctx, msgid) if ctx else mo.gettext(msgid)
        assert got == m.string, f"{code}: .mo is stale for {key}; run pybabel compile"


@pytest.mark.parametrize("code", TRANSLATED)
def test_game_terms_are_real_words(code: str) -> None:
    try:
        set_language(code)
        words = [term(k) for k in ("trump", "pitcher", "dealer", "bid", "pass", "set back")]
        words += [term(k) for k in ("high", "low", "jack", "game")]
        words += [suit_name(s) for s in range(4)]
        assert all(w and not re.search(r"[{}]", w) for w in words)
        # Each language names at least trump and the four suits in its own words.
        set_language("en")
        english = {term("trump"), *(suit_name(s) for s in range(4))}
        set_language(code)
        assert not english & {term("trump"), *(suit_name(s) for s in range(4))}
    finally:
        set_language("en")


def test_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="choose one of en, nb, ru, sv, sq, gl"):
        set_language("xx")
