"""A game stopped at the server's hand limit (``PITCH_MAX_HANDS``, docs/server.md):
the table says so in the reader's language, offers the record, and takes no move."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.support.timing import margin_ms
from tests.web.conftest import PHONE, play_safe, post_json, seat_page, serving, shots

TURN_OR_OVER = """() => { const S = window.pitchTable; const m = S && S.msg;
  return !!m && (m.status === "over" || (!!m.game && m.game.turn === S.seat)); }"""

STOPPED = {
    "en": "The game stopped at this server's limit of hands a game (2): nobody won.",
    "ru": "Игра остановлена: достигнут предел раздач за партию на этом сервере (2). "
    "Никто не выиграл.",
}


def test_a_game_stopped_at_the_hand_limit_says_so(browser: Any, tmp_path: Path) -> None:
    with serving(tmp_path, PITCH_MAX_HANDS="2") as url:
        body = {
            "rules": {"players": 2, "target": 21},  # 2 hands cannot reach 21
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
            "options": {"bot_delay": 0},
        }
        table = post_json(url + "/api/tables", body)["id"]
        token = post_json(f"{url}/api/tables/{table}/seats/0", {"name": "Ada"})["token"]
        en = seat_page(browser, url, table, token, viewport={"width": 1280, "height": 800})
        for _ in range(60):
            en.wait_for_function(TURN_OR_OVER, timeout=margin_ms(30))
            msg = en.evaluate("() => window.pitchTable.msg")
            if msg["status"] == "over":
                break
            play_safe(en, msg["game"])
            en.wait_for_function("seq => window.pitchTable.msg.seq > seq", arg=msg["seq"])
        else:
            raise AssertionError("the game did not stop within 60 of our moves")
        expect(en.locator("#game-over .winner-line")).to_have_text(STOPPED["en"])
        expect(en.locator("#status")).to_have_text(STOPPED["en"])
        expect(en.locator("#download-record")).to_be_visible()
        expect(en.locator(".score-sheet tbody tr")).to_have_count(2)
        shots(en, "hand-limit-en")
        ru = seat_page(browser, url, table, token, locale="ru-RU", **PHONE)
        expect(ru.locator("#game-over .winner-line")).to_have_text(STOPPED["ru"])
        shots(ru, "hand-limit-ru")
        for page in (en, ru):
            assert page.evaluate("() => [...window.pitchI18n.missing]") == []
            assert page.js_errors == []
            page.context.close()
