"""The one rule for free text from clients (pitch.server.kernel.text): names and chat lines
normalised, invisible and text-direction characters refused but inside emoji, no
look-alike of a bot's or another player's name, no zalgo, a length in characters
that a reader counts (issue 43)."""

from __future__ import annotations

import subprocess
import sys
import unicodedata

import pytest

from pitch.server.kernel.text import (
    NAME_LIMIT,
    TextRefused,
    bot_like,
    check_name,
    distinct_name,
    graphemes,
    one_line,
    same_name,
    skeleton,
)
from pitch.server.tables.chat import MAX_TEXT, clean_line

EMOJI = [
    "👩🏽\u200d🚀 Ann",  # a ZWJ sequence with a skin tone
    "🏳️\u200d🌈",  # a flag with a variation selector, joined
    "🏴\u200d☠️",
    "❤️\u200d🔥",
    "👨\u200d👩\u200d👧\u200d👦",  # a family of four
    "🧑🏻\u200d❤️\u200d💋\u200d🧑🏼",  # a kiss with two skin tones: four elements
    "🇳🇴 Kari",  # regional indicators
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland: tags
    "1️⃣ Ola",  # a keycap
    "☺︎ Bo",  # text presentation
    "👍🏿",
    "\U0001face",  # an emoji newer than the standard library's Unicode (15.0)
]

INVISIBLE = [
    "Ann\u200bLee",  # zero width space
    "Ann\u200dLee",  # ZWJ outside an emoji
    "Ann\u200cLee",  # ZWNJ
    "Ann\u200d",
    "\u200d👩",
    "\u2060Ann",  # word joiner
    "An\u00adn",  # soft hyphen
    "\ufeffAnn",
    "Ann\ufe0f",  # a variation selector on a letter
    "Ann\U000e0067",  # a tag outside a tag sequence
    "😀\U000e0068\U000e0069\U000e007f",  # tags after another emoji: hidden text ("hi")
    "🏴\U000e0048\U000e0049\U000e007f",  # a flag's tags are lowercase letters or digits
    "\u202eAnn",  # bidi: right-to-left override
    "Ann\u202a",
    "\u2066Ann\u2069",  # bidi isolates
    "\u200eAnn",  # left-to-right mark
    "\u200fAnn",
    "Ann\u061c",  # Arabic letter mark
    "\u3164",  # Hangul filler: looks like nothing
    "\u2800",  # braille blank
    "Ann\x00",
    "Ann\x7f",
    "Ann\U000f0000",  # private use
    "Ann\u0378",  # unassigned
]

ZALGO = "Z\u0351\u0308\u0350\u0343\u0344\u0313a\u0352\u033f\u0300lgo"


@pytest.mark.parametrize("name", EMOJI)
def test_every_kind_of_emoji_sequence_is_a_name(name: str) -> None:
    assert check_name(name) == name
    assert clean_line(f"gg {name}") == f"gg {name}"


def test_an_emoji_sequence_counts_as_one_character() -> None:
    assert len(graphemes("👩🏽\u200d🚀 Ann")) == 5
    assert check_name("👨\u200d👩\u200d👧\u200d👦" * 9) == "👨\u200d👩\u200d👧\u200d👦" * 9
    assert check_name("🙂" * NAME_LIMIT) == "🙂" * NAME_LIMIT


@pytest.mark.parametrize("text", INVISIBLE)
def test_invisible_and_direction_characters_are_refused(text: str) -> None:
    for check in (check_name, clean_line):
        with pytest.raises(TextRefused) as e:
            check(text)
        assert e.value.reason == "invisible" and "U+" in e.value.message, text


@pytest.mark.parametrize("name", ["B\u043et 2", "\u0410nn", "P\u0430yPal", "Alloτ", "Ann李Ω"])
def test_a_word_in_two_scripts_is_refused(name: str) -> None:
    with pytest.raises(TextRefused) as e:
        check_name(name)
    assert e.value.reason == "mixed_script"
    assert "Latin" in e.value.message


@pytest.mark.parametrize(
    "name",
    ["Иван Petrov", "田中さん", "カタカナ漢字", "Tシャツ", "김철수", "Ἀλέξανδρος", "محمد", "שלום",
     "नमस्ते", "Nguyễn Thị Minh", "Renée O'Brien-Smith", "Ørjan Ødegård", "Bot", "Botond 2", "ไทย่",
     "བསྒྲུབས"],
)  # fmt: skip
def test_names_in_one_script_a_word_pass(name: str) -> None:
    assert check_name(name) == name


def test_names_are_nfkc_and_their_white_space_folded() -> None:
    assert check_name("  ＡＮＮ\t\n Lee\u3000 ") == "ANN Lee"
    assert check_name("Ⅻ ﬁ") == "XII fi"
    assert clean_line(" nice\n  hand ") == "nice hand"
    assert clean_line("½") == "½"  # chat is NFC only: what was written stays


def test_look_alikes_have_one_skeleton() -> None:
    assert skeleton("\u0408\u043e\u0435") == skeleton("Joe")  # all Cyrillic
    assert skeleton("\u0391\u039d\u039d") == skeleton("Ann")  # all Greek
    assert same_name("\u0391\u039d\u039d", "ann") and same_name("Ann", "ANN")
    assert same_name("Ian", "lan") and same_name("B0b", "BOB")
    assert not same_name("Ann", "Anna") and not same_name("Bob", "Bab")


def test_a_look_alike_of_a_name_at_the_table_gets_a_number() -> None:
    assert distinct_name("\u0391\u039d\u039d", ["Ann"], NAME_LIMIT) == "\u0391\u039d\u039d 2"
    assert distinct_name("Joe", ["\u0408\u043e\u0435", "Joe 2"], NAME_LIMIT) == "Joe 3"
    # Cut to fit, never inside an emoji.
    long = "🙂" * NAME_LIMIT
    assert distinct_name(long, [long], NAME_LIMIT) == "🙂" * (NAME_LIMIT - 2) + " 2"


@pytest.mark.parametrize(
    "name", ["Bot 2", "B\u043et 2", "\u0412\u041e\u0422 2", "B0T 2", "Robot ١٢", "BOT 1O"]
)
def test_look_alikes_of_a_bots_name_read_as_a_bots(name: str) -> None:
    assert bot_like(name), name


def test_zalgo_is_refused_but_real_accents_pass() -> None:
    for text in (ZALGO, "e\u0301\u0301", "a" + "\u0300\u0301\u0302\u0303\u0304"):
        for check in (check_name, clean_line):
            with pytest.raises(TextRefused) as e:
                check(text)
            assert e.value.reason == "marks", text
    # Four marks on a base (UTS #39's limit), Vietnamese (two), Thai, Tibetan stacks.
    for text in ("a\u0300\u0301\u0302\u0303", "Nguyễn", "ไทย่", "བསྒྲུབས"):
        assert clean_line(text) == unicodedata.normalize("NFC", text)


def test_too_long_is_refused_not_cut() -> None:
    with pytest.raises(TextRefused) as e:
        check_name("a" * (NAME_LIMIT + 1))
    assert (e.value.reason, e.value.extra) == ("too_long", {"limit": NAME_LIMIT})
    assert "32 characters" in e.value.message
    # 17 emoji of four code points: 17 characters, but more than the 64 code points.
    with pytest.raises(TextRefused):
        check_name("👩🏽\u200d🚀" * 17)
    assert check_name("a" * NAME_LIMIT) == "a" * NAME_LIMIT
    assert clean_line("🙂" * MAX_TEXT) == "🙂" * MAX_TEXT
    with pytest.raises(TextRefused) as e:
        clean_line("x" * (MAX_TEXT + 1))
    assert e.value.reason == "too_long"


def test_nothing_visible_is_refused() -> None:
    for text in ("", "   ", "\n\t"):
        with pytest.raises(TextRefused) as e:
            check_name(text)
        assert e.value.reason == "empty"


def test_names_in_records_follow_the_rule_cut_to_fit() -> None:
    # A record is shown, not chosen: a long name is cut (whole characters), a bad one
    # is left out, and a bot's name is a record's own.
    both = "Bot 2 (club), then 👩🏽\u200d🚀 Ann"
    assert one_line(both, 64) == both
    assert one_line("🙂" * 70, 64) == "🙂" * 64
    assert one_line("\u202eAnn", 64) is None
    assert one_line(ZALGO, 64) is None


def test_the_rule_is_imported_without_the_web_framework() -> None:
    # Account names (and anything else outside the web server) use the same rule.
    code = (
        "import sys, pitch.server.kernel.text; "
        "print(sorted({'fastapi', 'starlette'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out
