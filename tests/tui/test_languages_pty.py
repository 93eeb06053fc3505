"""The game speaks each language end to end: prompts, refusals, the save message."""

from __future__ import annotations

import re
from pathlib import Path

import pexpect
import pytest

from pitch.i18n import LANGUAGES, translation
from tests.tui.conftest import spawn, strip_ansi


def prompt_re(tr: object, msgid: str) -> str:
    text = tr.gettext(msgid)  # type: ignore[attr-defined]
    return re.escape(text.split("(")[0] + "(")


def squash(text: str) -> str:
    return " ".join(strip_ansi(text).split())


@pytest.mark.parametrize("code", LANGUAGES)
def test_play_and_save_in_each_language(code: str, tmp_path: Path) -> None:
    tr = translation(code)
    bid = prompt_re(tr, "Your bid (0-4 or pass; ? hint, q quit): ")
    card = prompt_re(tr, "Your card (card or number; ? hint, q quit): ")
    save = tmp_path / "g.jsonl"
    child = spawn(
        ["play", "--fast", "--level", "random", "--seed", "5", "--lang", code, "--save", str(save)],
        tmp_path,
    )
    # Bid 9 is refused in the player's language; then the local word for "pass"
    # is understood (or, as dealer after three passes, the refusal says why).
    i = child.expect([bid, card])
    if i == 0:
        child.sendline("9")
        child.expect(bid)
        refusal = tr.gettext(
            "'{text}' is not a bid. Type 0 or pass to pass, or a bid from 1 to 4."
        ).format(text="9")
        assert squash(refusal) in squash(child.before)
        child.sendline(tr.pgettext("term", "pass"))
        i = child.expect([bid, card])
    child.sendline(tr.gettext("quit"))
    saved = tr.gettext("Game saved to {path}. Continue with: pitch play --resume {path}")
    child.expect(re.escape(saved.split("{path}")[0].strip()))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert save.exists()


def test_unknown_language_is_refused_without_a_traceback(tmp_path: Path) -> None:
    child = spawn(["play", "--lang", "xx"], tmp_path)
    child.expect(pexpect.EOF)
    out = strip_ansi(child.before)
    child.close()
    assert child.exitstatus == 2
    assert "choose one of en, nb, ru, sv, sq, gl" in " ".join(out.replace("│", " ").split())
    assert "Traceback" not in out
