"""Layout: the game fits and reads from a 360 px phone to a 1920 px desktop, in English
and in Russian (the longest labels of the six languages).

For the lobby, live tables of 2, 4, 6 and 7 seats (made through the API of a real
``pitch serve``), the hand summary and the replay viewer, at every size: nothing is
wider than the window, the player's own hand is wholly on screen, seat labels, chips and
the cards on the table do not overlap, and no notice or toast covers a seat's name.
One page per language and table is resized through the sizes, so each check reads a
state that does not move (it is the player's turn, and the player waits). Screenshots:
``artifacts/screenshots/layout-<screen>-<lang>-<w>x<h>.png``."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.support.timing import margin_ms
from tests.web import a11y
from tests.web.conftest import DATA, new_page, play_safe, shot

SIZES = ((360, 740), (390, 844), (768, 1024), (1280, 800), (1920, 1080))
LANGS = {"en": "en-US", "ru": "ru-RU"}

# Every layout fault on the page now, in words ([] when it fits). `boxes` are the things
# that must not overlap: seat labels and chips, trump and contract, the cards on the
# table, and the rows around the board; the toast must not cover a seat's name or the status line.
FAULTS = """() => {
  scrollTo(0, 0);
  const W = innerWidth, H = innerHeight, out = [];
  const rect = (el) => el.getBoundingClientRect();
  const shown = (el) => { const b = rect(el); const s = getComputedStyle(el);
    return b.width > 0 && b.height > 0 && s.visibility !== "hidden" && !el.closest(".sr-only"); };
  const name = (el) => {
    const seat = el.closest("[data-seat]");
    const cls = typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\\s+/).join(".") : "";
    return (el.id ? "#" + el.id : el.tagName.toLowerCase() + cls) + (seat ? `[seat ${seat.dataset.seat}]` : "")
      + (el.dataset.card ? `[${el.dataset.card}]` : "");
  };
  const fmt = (b) => `${Math.round(b.left)},${Math.round(b.top)} ${Math.round(b.width)}x${Math.round(b.height)}`;
  const de = document.documentElement;
  if (de.scrollWidth > W) out.push(`the page is ${de.scrollWidth} px wide in a ${W} px window`);
  // Cut off: anything sticking out of the window at the sides (a scroller's insides excepted).
  const scrolls = (el) => { for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    if (/(auto|scroll)/.test(getComputedStyle(p).overflowX)) return true; } return false; };
  let cut = 0;
  for (const el of document.querySelectorAll("header *, main *")) {
    if (!shown(el) || scrolls(el)) continue;
    const b = rect(el);
    if ((b.left < -1 || b.right > W + 1) && cut++ < 6) out.push(`${name(el)} is cut off at ${fmt(b)}`);
  }
  // Text cut short by an ellipsis or a too narrow box.
  for (const el of document.querySelectorAll(".seat-name, .name-text, .away, .bid-bubble, .count, .trump-mark, .contract, .who, th"))
    if (shown(el) && el.scrollWidth > el.clientWidth + 1) out.push(`${name(el)} is cut short by ${el.scrollWidth - el.clientWidth} px: "${el.textContent}"`);
  const hand = [...document.querySelectorAll(".hand .card")];
  for (const el of hand) {
    const b = rect(el);
    if (b.left < 0 || b.top < 0 || b.right > W || b.bottom > H) out.push(`own card ${name(el)} is off screen at ${fmt(b)}`);
  }
  const sel = [".board .seat-name", ".board .seat .away", ".board .seat-info > *", ".board .open-hand",
    ".trump-mark", ".contract", ".board .trick .card", ".status-line", ".turn-clock", ".notices",
    ".action-bar", ".hand", ".replay-where"];
  const boxes = [...document.querySelectorAll(sel.join(", "))].filter(shown).map((el) => [name(el), rect(el)]);
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++)
      if (meet(boxes[i][1], boxes[j][1])) out.push(`${boxes[i][0]} at ${fmt(boxes[i][1])} overlaps ${boxes[j][0]} at ${fmt(boxes[j][1])}`);
  const bar = document.querySelector(".action-bar");
  if (bar) for (const el of hand)
    if (meet(rect(bar), rect(el))) out.push(`own card ${name(el)} at ${fmt(rect(el))} overlaps the buttons at ${fmt(rect(bar))}`);
  const toast = document.querySelector("#toast.show");
  if (toast) for (const el of document.querySelectorAll(".board .seat-name, .status-line"))
    if (meet(rect(toast), rect(el))) out.push(`the toast covers ${name(el)}`);
  return out;
}"""  # noqa: E501 (a script, read as one)

# The widest each seat's label can be: every seat the dealer, the pitcher and to play at
# once (the first dealer is drawn at random, so a live table shows only one of them).
WORST = """() => { const d = document.querySelector(".board .badge.dealer");
  for (const seat of document.querySelectorAll(".board .seat")) {
    seat.classList.add("turn");
    const pill = seat.querySelector(".seat-name");
    pill.querySelectorAll(".badge").forEach((b) => b.remove());
    for (const kind of ["dealer", "pitcher"]) {
      const b = d.cloneNode(true); b.className = "badge " + kind; pill.prepend(b); }
  } }"""

# Our turn, or the game over (which `state` reports rather than waiting on in vain).
MY_TURN = """() => { const S = window.pitchTable; const g = S && S.msg && S.msg.game;
  return !!g && (g.phase === "over" || (g.turn === S.seat && g.legal.length > 0)); }"""


def check(
    page: Any, screen: str, lang: str, sizes: tuple[tuple[int, int], ...] = SIZES, axe: bool = True
) -> None:
    """Resize the page through `sizes`; at each, a screenshot and no layout fault, and at
    the phone and laptop sizes no accessibility violation either (unless `axe` is off)."""
    faults = {}
    for w, h in sizes:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_function("w => innerWidth === w", arg=w)
        shot(page, f"layout-{screen}-{lang}-{w}x{h}", full=False)
        if found := page.evaluate(FAULTS):
            faults[f"{w}x{h}"] = found
        if axe and (w, h) in a11y.SIZES:
            a11y.assert_accessible(page, f"{screen} ({lang}, {w}x{h})", sizes=None)
    assert not faults, f"{screen} ({lang}): " + json.dumps(faults, indent=1, ensure_ascii=False)


def check_worst(page: Any, screen: str, lang: str) -> None:
    """`check` with every seat's label at its widest (`WORST`), at the sizes where the
    felt is small; the page is as it was at the next message (each redraws the board)."""
    page.evaluate(WORST)
    check(page, f"{screen}-worst", lang, SIZES[:3], axe=False)  # a made-up page: `check` had it


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    data = json.dumps(body).encode()
    req = urllib.request.Request(url, data, {"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req) as r:
        out: dict[str, Any] = json.load(r)
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_lobby(browser: Any, server_url: str, lang: str) -> None:
    page = new_page(browser, locale=LANGS[lang])
    page.goto(server_url + "/")
    page.wait_for_selector("#create-table")
    page.select_option("select[name=players]", "7")  # the longest seat plan
    check(page, "lobby", lang)
    assert page.js_errors == []
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_replay(browser: Any, server_url: str, lang: str) -> None:
    page = new_page(browser, locale=LANGS[lang])
    page.goto(server_url + "/#replay")
    page.wait_for_selector("body.ready")
    page.set_input_files("#record-file", str(DATA / "partners.jsonl"))
    expect(page.locator(".replay-controls")).to_be_visible()
    page.locator("#toast").evaluate("t => t.classList.remove('show')")  # "Opened ..."
    page.click("[data-action=next-hand]")
    page.click("[data-action=prev]")  # the end of hand 1: its summary and score sheet
    expect(page.locator(".hand-summary")).to_be_visible()
    check(page, "replay-summary", lang)
    page.click("[data-action=prev]")  # its last trick, all four cards on the table
    expect(page.locator(".board .trick .card")).to_have_count(4)
    check(page, "replay-trick", lang)
    assert page.js_errors == []
    page.context.close()


class Table:
    """A live table: seat 0 is ours (open in an English and a Russian page), the others
    bots; with 7 seats, seat 3 is a person who never comes, played for by a stand-in."""

    def __init__(self, browser: Any, url: str, players: int) -> None:
        seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * (players - 1)
        options: dict[str, Any] = {"bot_delay": 0.05}
        if players == 7:
            seats[3] = {"kind": "human"}
            options |= {"grace_seconds": 1, "substitute": "heuristic"}
        # To 21: the test plays badly (it passes, then leads its first legal card), and
        # to 11 the bots once won the game in three hands, before the trick it looks for.
        rules = {"players": players, "partnerships": players == 4, "target": 21}
        self.id = _post(url + "/api/tables", {"rules": rules, "seats": seats, "options": options})[
            "id"
        ]
        claim = f"{url}/api/tables/{self.id}/seats"
        token = _post(f"{claim}/0", {"name": "Alexandra"})["token"]
        self.players = players
        self.pages = {}
        for lang, locale in LANGS.items():
            page = new_page(browser, locale=locale)
            page.context.add_init_script(
                f"localStorage.setItem('pitch.token.{self.id}', '{token}')"
            )
            page.goto(f"{url}/t/{self.id}")
            self.pages[lang] = page
        if players == 7:  # once we are connected (the grace time is for Konstantin alone)
            for page in self.pages.values():
                expect(page.locator("#invite-link")).to_be_visible()
            _post(f"{claim}/3", {"name": "Konstantin"})

    def state(self) -> dict[str, Any]:
        page = self.pages["en"]
        # Generous: every table's bots on this test server share one bot worker, under
        # load. (The one timeout seen with this report was a game the bots had won in
        # three hands, to 11: see `rules` in `__init__`.)
        try:
            page.wait_for_function(MY_TURN, timeout=margin_ms(90))
        except PlaywrightTimeout:
            seen = page.evaluate(
                "() => { const S = window.pitchTable; const g = S && S.msg && S.msg.game;"
                " return {seat: S && S.seat, seq: S && S.msg && S.msg.seq, phase: g && g.phase,"
                " turn: g && g.turn, legal: g && g.legal, winner: g && g.winner,"
                " hands: g && g.hands_played, status: document.querySelector('.status-line')"
                "?.textContent, notices: document.querySelector('#notices')?.textContent}; }"
            )
            raise AssertionError(f"not our turn within 90 s; the page shows {seen}") from None
        st: dict[str, Any] = page.evaluate(
            "() => { const S = window.pitchTable; return {seq: S.msg.seq, game: S.msg.game}; }"
        )
        g = st["game"]
        assert g["phase"] != "over", f"the game ended ({g['hands_played']} hands) first"
        for p in self.pages.values():
            p.wait_for_function("n => window.pitchTable?.msg?.seq >= n", arg=st["seq"])
        return st

    def move(self, st: dict[str, Any]) -> None:
        """Our move: pass when we may, else the first legal bid or card."""
        page = self.pages["en"]
        play_safe(page, st["game"])
        page.wait_for_function("n => window.pitchTable.msg.seq > n", arg=st["seq"])

    def check(self, screen: str) -> None:
        # axe at the 4-seat (partners) and 7-seat (a stand-in) tables: the others add
        # only more or fewer of the same seats, and each run costs about a second.
        axe = self.players in (4, 7)
        for lang, page in self.pages.items():
            check(page, f"{screen}{self.players}", lang, axe=axe)
            check_worst(page, f"{screen}{self.players}", lang)

    def close(self) -> None:
        for page in self.pages.values():
            assert page.js_errors == []
            page.context.close()


@pytest.fixture(params=[2, 4, 6, 7])
def table(request: pytest.FixtureRequest, browser: Any, server_url: str) -> Iterator[Table]:
    t = Table(browser, server_url, request.param)
    yield t
    t.close()


def test_table(table: Table) -> None:
    n = table.players
    # The auction: every seat's bid so far, and a toast (a card clicked out of turn).
    # Our first move may be a card: a bot's bid of 4 before our turn ends the auction
    # at once (R3.4), and a later hand's auction is then the first we bid in.
    for _ in range(60):
        st = table.state()
        if st["game"]["phase"] == "bid":
            break
        table.move(st)
    else:
        raise AssertionError("no bid of ours within 60 moves")
    table.check("auction")
    for lang, page in table.pages.items():
        for w, h in SIZES[:3]:  # phones (the toast over the top bar) and a tablet
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_function("w => innerWidth === w", arg=w)
            page.locator("#hand .card").first.click()
            expect(page.locator("#toast.show")).to_be_visible()
            shot(page, f"toast-auction{n}-{lang}-{w}x{h}", full=False)
            assert page.evaluate(FAULTS) == [], f"{lang} {w}x{h}"
            page.locator("#toast").evaluate("t => t.classList.remove('show')")
    # The play with the most cards on the table: every other seat has played to it.
    full = n - 1
    for moves in range(120):
        st = table.state()
        g = st["game"]
        if g["phase"] == "play" and len(g["trick"]["cards"] if g["trick"] else []) >= full:
            break
        if moves in (40, 80):
            full -= 1  # the cards fell otherwise; take a fuller trick than most
        table.move(st)
    else:
        raise AssertionError("no trick with the other seats' cards within 120 moves")
    for page in table.pages.values():
        expect(page.locator("#facts .trump-mark")).to_have_count(1)
        if n == 7:  # a stand-in has played for the absent Konstantin: the table says so
            expect(page.locator("#notices .stand-in")).to_have_count(1)
    table.check("play")
    # The next hand's auction: the summary of the last, and nothing of it left on the table.
    for _ in range(200):
        st = table.state()
        if st["game"]["hands_played"] >= 1 and st["game"]["phase"] == "bid":
            break
        table.move(st)
    else:
        raise AssertionError("the first hand did not end within 200 moves")
    for page in table.pages.values():
        expect(page.locator(".hand-summary")).to_be_visible()
        expect(
            page.locator("#board .trump-mark, #board .contract, #board .trick .card")
        ).to_have_count(0)
    table.check("summary")
