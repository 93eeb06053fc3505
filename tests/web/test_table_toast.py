"""A table's toast ("Bot made the bid (+2).") goes when the player leaves the table for
another page: it would cover that page's top bar for its last seconds."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.support.timing import margin_ms
from tests.web.conftest import new_page, play_safe, post_json, seat_in, shots

# Watches the toast from inside the page: the moment a hand's result shows, the top
# bar's Leaderboard link is clicked, and whether the toast is still up is kept (read
# at once: it would go by itself after 3 s, and a test waiting could not fail).
WATCH = """() => {
  const box = document.getElementById("toast");
  new MutationObserver((_, obs) => {
    const news = /made the bid|was set back/.test(box.textContent);
    if (!box.classList.contains("show") || !news) return;
    obs.disconnect();
    document.getElementById("board-link").click();
    window.toastAfterLeaving = box.classList.contains("show");
  }).observe(box, { attributes: true, childList: true });
}"""
SENT = '(n) => "toastAfterLeaving" in window || window.pitchTable.msg.seq > n'
MY_MOVE_OR_LEFT = """() => { if ("toastAfterLeaving" in window) return true;
  const S = window.pitchTable; const g = S && S.msg && S.msg.game;
  return !!g && g.turn === S.seat && g.legal.length > 0; }"""


def test_a_tables_toast_goes_with_the_table(
    browser: Any, server_url: str, leave_after: list[tuple[str, str]]
) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
    body = {"rules": {"players": 2}, "seats": seats, "options": {"bot_delay": 0}}
    table = post_json(server_url + "/api/tables", body)["id"]
    token = post_json(f"{server_url}/api/tables/{table}/seats/0", {"name": "Ann"})["token"]
    leave_after.append((table, token))
    page = new_page(browser)
    try:
        seat_in(page, table, 0, token)
        page.goto(f"{server_url}/t/{table}")
        expect(page.locator("#toast")).to_be_attached()
        page.evaluate(WATCH)
        for _ in range(100):  # one hand: at most a bid and six cards of ours
            page.wait_for_function(MY_MOVE_OR_LEFT, timeout=margin_ms(30))
            if page.evaluate('() => "toastAfterLeaving" in window'):
                break
            seq = page.evaluate("() => window.pitchTable.msg.seq")
            play_safe(page, page.evaluate("() => window.pitchTable.msg.game"))
            page.wait_for_function(SENT, arg=seq, timeout=margin_ms(30))
        else:
            raise AssertionError("no hand ended")
        expect(page).to_have_url(f"{server_url}/leaderboard")
        assert page.evaluate("() => window.toastAfterLeaving") is False
        expect(page.locator("#toast.show")).to_have_count(0)
        expect(page.locator("main h1")).to_have_text("Leaderboard")
        expect(page.locator(".board-table")).to_be_visible()
        shots(page, "table-toast-left")
        assert page.js_errors == [], page.js_errors
    finally:
        page.context.close()
