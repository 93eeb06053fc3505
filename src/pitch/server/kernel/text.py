"""Free text from clients (names, chat lines, names inside records): one rule for all.

Every such text is normalised (NFKC for names, whose equality matters; NFC for chat),
its white space folded to single spaces, and refused (:class:`TextRefused`, with a
``reason`` a client may translate and an English ``message``) where it holds:

- a control, format, private-use, unassigned or default-ignorable character (U+200B,
  U+2060, soft hyphen, bidi controls such as U+202E, ZWJ, variation selectors, tags),
  except the joiners and selectors inside an emoji sequence (UTS #51: ZWJ sequences,
  skin tones, flags, tag flags, keycaps), which are accepted whole;
- more than :data:`MAX_MARKS` nonspacing marks in a row, or one mark twice in a row
  (UTS #39 section 5.4: "zalgo" text that spills over the lines around it);
- more than ``limit`` characters, counted as grapheme clusters (what a reader sees as
  one character: ``👩🏽‍🚀`` is one, not four); it is refused, never silently cut.

Names also must not mix scripts within a word (``Аnn``, a Cyrillic ``А``; Chinese,
Japanese and Korean writing, with Latin or without, is fine: UTS #39 "highly
restrictive"), and two names that look alike (the UTS #39
confusable skeleton, from the ``confusable-homoglyphs`` package's data) count as the
same name, at a table (:func:`same_name`) and against the bots' (:func:`bot_like`).

No web framework here: account names will use :func:`check_name` too.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import cache
from typing import Final, Literal

import regex
from confusable_homoglyphs import categories, confusables

from pitch.i18n import LANGUAGE_NAMES
from pitch.web import CATALOGS

NAME_LIMIT: Final = 32
"""Characters (grapheme clusters) in a player's name."""

NAME_CODE_POINTS: Final = 64
"""Code points in a player's name (the store's column): a long emoji sequence is one
character but up to ten code points, so a name of many of them is shorter."""

NAME_INPUT: Final = 256
"""Code points a request's name may have before it is cleaned (white space folds)."""

MAX_MARKS: Final = 4
"""Nonspacing marks in a row (after NFD): UTS #39's limit. Vietnamese needs 2, Thai
and Tibetan stacks 3."""

REASONS: Final = {
    "empty": "nothing visible is left",
    "too_long": "longer than its limit (`limit`, in characters: an emoji sequence is one)",
    "invisible": "a control, invisible or text-direction character outside an emoji",
    "marks": f"more than {MAX_MARKS} accents or other combining marks on one character",
    "mixed_script": "letters of two scripts in one word (a look-alike: `Аnn` in Cyrillic)",
}
"""Why a text is refused (:attr:`TextRefused.reason`)."""


class TextRefused(ValueError):
    """A text the rule refuses: ``reason`` (a key of :data:`REASONS`), an English
    ``message`` to show as is, and ``extra`` fields (``limit``)."""

    def __init__(self, reason: str, message: str, **extra: int) -> None:
        super().__init__(message)
        assert reason in REASONS, reason
        self.reason = reason
        self.message = message
        self.extra = extra


# UTS #51 (ED-27, "possible emoji"): an element is a pair of regional indicators (a
# flag), or an emoji with a skin tone, a variation selector or a keycap; elements are
# joined by ZWJ, four at most (a kiss with two skin tones, a family of four). Tags only
# spell a subdivision flag (ED-14c: a black flag, 2 to 7 lowercase letters or digits,
# the cancel tag): anywhere else they would carry text no reader sees.
_TAG_FLAG = "\U0001f3f4[\U000e0030-\U000e0039\U000e0061-\U000e007a]{2,7}\U000e007f"
_MODIFIED = r"\p{Emoji}(?:\p{EMod}|[\uFE0E\uFE0F]?\u20E3|[\uFE0E\uFE0F])?"
_ELEMENT = rf"(?:{_TAG_FLAG}|\p{{RI}}\p{{RI}}|{_MODIFIED})"
_TOKEN = regex.compile(rf"({_ELEMENT}(?:\u200D{_ELEMENT}){{0,3}})|(.)", regex.DOTALL)
_GRAPHEME = regex.compile(r"\X")
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_IGNORABLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\u2800]")  # and braille blank
_MARKS = frozenset({"Mn", "Me"})
# Scripts that one word may mix: UTS #39's "highly restrictive" level (Japanese, Korean
# and Chinese writing, with Latin: "Tシャツ").
_SCRIPT_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
)


def graphemes(text: str) -> list[str]:
    """``text``'s grapheme clusters (UAX #29): the characters a reader counts."""
    return _GRAPHEME.findall(text)


def _refuse_char(what: str, ch: str) -> TextRefused:
    return TextRefused(
        "invisible",
        f"{what} may not hold control, invisible or text-direction characters "
        f"(here U+{ord(ch):04X}); emoji are fine.",
    )


def clean_text(
    text: str,
    limit: int,
    *,
    what: str = "A text",
    form: Literal["NFC", "NFKC"] = "NFC",
    code_points: int | None = None,
    cut: bool = False,
) -> str:
    """``text`` normalised (``form``), on one line with its white space folded, checked
    by the rule above; at most ``limit`` grapheme clusters (and ``code_points``), else
    refused, or with ``cut`` cut to them. ``what`` starts the messages ("A name").

    >>> clean_text("  Ann\\n  Lee ", 32)
    'Ann Lee'
    >>> clean_text("👩🏽\\u200d🚀 Ann", 32)
    '👩🏽\\u200d🚀 Ann'
    >>> clean_text("Ann\\u200bLee", 32)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    pitch.server.kernel.text.TextRefused: A text may not hold control, invisible or ...
    """
    out = " ".join(unicodedata.normalize(form, text).split())
    marks, last = 0, ""
    plain = out.isascii() and out.isprintable()  # most text: nothing to look into
    for m in () if plain else _TOKEN.finditer(out):
        if m.group(1) is not None:  # an emoji sequence, accepted whole
            marks, last = 0, ""
            continue
        ch = m.group(2)
        if unicodedata.category(ch) in _REFUSED_CATEGORIES or _IGNORABLE.match(ch):
            raise _refuse_char(what, ch)
        for d in unicodedata.normalize("NFD", ch):
            if unicodedata.category(d) not in _MARKS:
                marks, last = 0, ""
                continue
            marks += 1
            if marks > MAX_MARKS or d == last:
                raise TextRefused(
                    "marks",
                    f"{what} may not stack more than {MAX_MARKS} accents or other "
                    "combining marks on one character, nor one mark twice.",
                )
            last = d
    if not out:
        raise TextRefused("empty", f"{what} needs at least one visible character.")
    chars = out if plain else graphemes(out)
    cap = code_points or len(out)
    if len(chars) > limit or len(out) > cap:
        if not cut:
            more = f" ({code_points} code points: fewer with many emoji)" if code_points else ""
            raise TextRefused(
                "too_long",
                f"{what} may be at most {limit} characters long{more}.",
                limit=limit,
            )
        out = fit(out, limit, cap)
    return out


def fit(text: str, limit: int, code_points: int) -> str:
    """``text`` cut to at most ``limit`` grapheme clusters and ``code_points`` code
    points, never inside a cluster (an emoji is kept whole or left out)."""
    out = ""
    for g in graphemes(text)[:limit]:
        if len(out) + len(g) > code_points:
            break
        out += g
    return out.rstrip()


def one_line(text: str, limit: int) -> str | None:
    """A name inside a record (a file anyone may send): the text rule, cut to
    ``limit`` characters where longer (the record is shown, not chosen); ``None``
    where the rule refuses it.

    >>> one_line("  Ann\\n  Lee ", 32)
    'Ann Lee'
    >>> one_line("\\u0007", 32) is None
    True
    """
    try:
        return clean_text(text, limit, form="NFKC", cut=True)
    except TextRefused:
        return None


def _scripts(word: str) -> set[str]:
    # Common (digits, punctuation, emoji) and Inherited (marks) go with any script.
    return {categories.alias(ch) for ch in word} - {"COMMON", "INHERITED"}


def check_name(text: str) -> str:
    """A player's name as it is kept: :func:`clean_text` with NFKC, at most
    :data:`NAME_LIMIT` characters, and no word in two scripts (a look-alike).
    Raises :class:`TextRefused`.

    >>> check_name("  ＡＮＮ  ")
    'ANN'
    >>> check_name("\\u0410nn")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    pitch.server.kernel.text.TextRefused: A name may not mix Cyrillic and Latin letters in one ...
    """
    name = clean_text(text, NAME_LIMIT, what="A name", form="NFKC", code_points=NAME_CODE_POINTS)
    for word in name.split(" "):
        plain = "".join(m.group(2) or "" for m in _TOKEN.finditer(word))  # no emoji
        scripts = _scripts(plain)
        if len(scripts) > 1 and not any(scripts <= mix for mix in _SCRIPT_MIXES):
            names = " and ".join(sorted(s.title() for s in scripts))
            raise TextRefused(
                "mixed_script",
                f"A name may not mix {names} letters in one word (look-alikes); "
                "write each word in one script.",
            )
    return name


def name_key(name: str) -> str:
    """What two names must differ in to be told apart at one table: case and Unicode
    width or compatibility forms do not count.

    >>> name_key("ＡＮＮ") == name_key("ann")
    True
    """
    return unicodedata.normalize("NFKC", name).casefold()


@cache
def _prototypes() -> dict[str, str]:
    """Each character that UTS #39 maps to a prototype (``о`` (Cyrillic) -> ``o``,
    ``1`` -> ``l``), from the ``confusable-homoglyphs`` data. Its table lists each pair
    both ways: a character with one homoglyph is a source of that prototype, unless the
    two list only each other (a prototype with one source), where the smaller stands
    for both, which is all a comparison of skeletons needs."""

    def plain(s: str) -> str:  # its right-to-left entries are wrapped in LRM marks
        return s.replace("\u200e", "").replace("\u200f", "")

    table = {plain(k): [plain(x["c"]) for x in v] for k, v in confusables.confusables_data.items()}
    out = {}
    for ch, alike in table.items():
        if len(ch) != 1 or len(alike) != 1:
            continue  # a sequence, or a prototype with many sources
        proto = alike[0]
        out[ch] = min(ch, proto) if table.get(proto) == [ch] else proto
    return out


def skeleton(name: str) -> str:
    """The UTS #39 skeleton of ``name``, case folded: equal for names that look alike
    (``Јое`` in Cyrillic and ``Joe``, ``ΑΝΝ`` in Greek and ``Ann``).

    >>> skeleton("\\u0408\\u043e\\u0435") == skeleton("Joe"), skeleton("Bob") == skeleton("Bab")
    (True, False)
    """
    protos = _prototypes()
    nfd = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name))
    mapped = unicodedata.normalize("NFD", "".join(protos.get(ch, ch) for ch in nfd))
    return unicodedata.normalize("NFD", mapped.casefold())


def same_name(a: str, b: str) -> bool:
    """Whether names ``a`` and ``b`` cannot be told apart at one table: the same but
    for case, width or compatibility forms (:func:`name_key`), or look-alikes
    (:func:`skeleton`)."""
    return name_key(a) == name_key(b) or skeleton(a) == skeleton(b)


def distinct_name(name: str, taken: Iterable[str], limit: int) -> str:
    """``name``, or if a name in ``taken`` is the same (:func:`same_name`) the first of
    ``name 2``, ``name 3``, ... that is not, cut to ``limit`` characters (and
    :data:`NAME_CODE_POINTS`).

    >>> distinct_name("Ann", ["ann", "Ann 2"], 32)
    'Ann 3'
    >>> distinct_name("\\u0391\\u039d\\u039d", ["Ann"], 32)  # Greek capitals
    'ΑΝΝ 2'
    """
    others = list(taken)
    keys = {name_key(n) for n in others}
    skels = {skeleton(n) for n in others}
    out, n = name, 1
    while name_key(out) in keys or skeleton(out) in skels:
        n += 1
        tail = f" {n}"
        out = fit(name, limit - len(tail), NAME_CODE_POINTS - len(tail)) + tail
    return out


def _bot_pattern(forms: Iterable[str], key: Callable[[str], str]) -> str:
    """A pattern of the bot names ``forms`` ("bot {n}") as ``key`` sees them: its
    words, any run of digits for ``{n}``, anything in brackets after it."""
    digits = "|".join([r"\d", *sorted({re.escape(key(str(d))) for d in range(10)})])
    alts = []
    for form in forms:
        words = [
            rf"(?:{digits})+" if w == "{n}" else re.escape(key(w))
            for w in form.replace("{n}", " {n} ").split()
        ]
        alts.append(r"\s*".join(words))
    return rf"(?:{'|'.join(sorted(alts))})(?:\s*{re.escape(key('('))}.*{re.escape(key(')'))})?"


@cache
def _bot_names() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Every way the client names a bot seat, in every language it speaks ("Bot 2",
    "Бот 2", "Robot 2"), with anything in brackets after it ("Bot 2 (for Ann)", a
    record's "Bot 2 (beginner)"): read from the catalogs, the one source of them. One
    pattern as :func:`name_key` sees names, one as :func:`skeleton` does."""
    forms = set()
    for lang in LANGUAGE_NAMES:
        catalog = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
        forms.add(catalog["messages"].get("Bot {n}") or "Bot {n}")
    return (
        re.compile(_bot_pattern(forms, name_key)),
        re.compile(_bot_pattern(forms, skeleton)),
    )


def bot_like(name: str) -> bool:
    """Whether ``name`` reads as a bot's in some language the site speaks (told apart
    as :func:`same_name` does: case, width, look-alikes): a person must not pass for a
    bot, nor a bot for a person.

    >>> bot_like("BOT 2"), bot_like("Бот 3 (за Ann)"), bot_like("Robot 12")
    (True, True, True)
    >>> bot_like("B\\u043et 2"), bot_like("\\u0412\\u041e\\u0422 2")  # Cyrillic о; ВОТ
    (True, True)
    >>> bot_like("Bot"), bot_like("Botond 2"), bot_like("Ann (Bot 2)")
    (False, False, False)
    """
    by_key, by_skeleton = _bot_names()
    return any(
        p.fullmatch(" ".join(key(name).split())) is not None
        for p, key in ((by_key, name_key), (by_skeleton, skeleton))
    )
