"""My tables in the lobby (issue 17 item 10): the tables this browser holds seats at, to
resume, leave, resign, replay or download; and the bot levels as the server lists them
(item 9). Against the real server, waiting on state with ``expect``, never sleeping."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from pitch.engine import verify_record
from tests.web.a11y import assert_accessible
from tests.web.conftest import PHONE, new_page, shot

pytest.importorskip("websockets", reason="needs the server extra")

from tests.server.helpers import Player

WIDE = {"viewport": {"width": 1280, "height": 800}}


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return dict(json.load(r))


def _table(base: str, seats: list[str], **options: Any) -> str:
    plan = [{"kind": "human"} if k == "human" else {"kind": "bot", "bot": k} for k in seats]
    body = {"rules": {"players": len(seats), "target": 3}, "seats": plan, "options": options}
    return str(_post(base + "/api/tables", body)["id"])


def _claim(base: str, table: str, seat: int, name: str) -> str:
    return str(_post(f"{base}/api/tables/{table}/seats/{seat}", {"name": name})["token"])


def _status(base: str, table: str) -> int | dict[str, Any]:
    try:
        with urllib.request.urlopen(f"{base}/api/tables/{table}", timeout=10) as r:
            return dict(json.load(r))
    except urllib.error.HTTPError as e:
        return e.code


@pytest.fixture
def tables(server_url: str) -> dict[str, tuple[str, str]]:
    """Three tables Ada sits at: one waiting (Bo sits there too), one in play against a
    slow bot, one over (played out by a scripted player). ``name -> (id, token)``."""
    waiting = _table(server_url, ["human", "human", "human"])
    ada_w = _claim(server_url, waiting, 0, "Ada")
    _claim(server_url, waiting, 1, "Bo")
    playing = _table(server_url, ["human", "club"], bot_delay=10)
    ada_p = _claim(server_url, playing, 0, "Ada")
    over = _table(server_url, ["human", "beginner"], bot_delay=0)
    ada_o = _claim(server_url, over, 0, "Ada")
    # In a thread of its own: Playwright's sync API keeps an event loop in this one.
    with ThreadPoolExecutor(1) as pool:
        last = pool.submit(lambda: asyncio.run(Player(server_url, over, ada_o, seed=7).play()))
        last = last.result(timeout=300)
    assert last["status"] == "over"
    return {"waiting": (waiting, ada_w), "playing": (playing, ada_p), "over": (over, ada_o)}


def _lobby_with(browser: Any, url: str, tokens: dict[str, tuple[str, str]], **ctx: Any) -> Any:
    page = new_page(browser, **ctx)
    page.goto(url + "/")
    page.evaluate(
        """ts => { for (const [id, tok] of ts) localStorage.setItem('pitch.token.' + id, tok); }""",
        [list(v) for v in tokens.values()],
    )
    page.reload()
    return page


def _fits(page: Any) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def test_my_tables_resume_leave_resign_replay_download(
    browser: Any, server_url: str, tables: dict[str, tuple[str, str]], tmp_path: Path
) -> None:
    gone = ("zzzzzzzzzz", "no-such-token")  # a table that is no more: forgotten
    page = _lobby_with(browser, server_url, {**tables, "gone": gone}, **WIDE)
    rows = page.locator("#my-tables li")
    expect(rows).to_have_count(3)
    for name, (tid, _tok) in tables.items():
        expect(page.locator(f'#my-tables li[data-table="{tid}"]')).to_have_attribute(
            "data-status", name
        )
    expect(page.locator("#my-tables h2")).to_have_text("My tables")
    # Each row's buttons are alike: to a screen reader each names its own table.
    for tid, _tok in tables.values():
        for action in page.locator(f'#my-tables li[data-table="{tid}"] [data-action]').all():
            expect(action).to_have_accessible_description(
                page.locator(f"#my-table-{tid}").inner_text()
            )
    assert page.evaluate("() => localStorage.getItem('pitch.token.zzzzzzzzzz')") is None
    _fits(page)
    shot(page, "my-tables-1280-en", full=False)

    # Resume: the table page, seated.
    waiting, _ = tables["waiting"]
    page.click(f'#my-tables li[data-table="{waiting}"] [data-action=open]')
    expect(page).to_have_url(f"{server_url}/t/{waiting}")
    # Seated: the socket's first state is in (going back sooner races the table page,
    # which draws over the lobby when its first answer comes in late).
    page.wait_for_function(
        "id => window.pitchTable?.id === id && window.pitchTable.seat === 0", arg=waiting
    )
    expect(page.locator("#main")).to_contain_text("Bo")
    page.go_back()
    expect(rows).to_have_count(3)

    # Resign the game in play: alone with bots, that ends it (issue 44: the table was
    # deleted). It stays, over, and listed: the seat is still this browser's.
    playing, _ = tables["playing"]
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.click(f'#my-tables li[data-table="{playing}"] [data-action=resign]')
    resigned = page.locator(f'#my-tables li[data-table="{playing}"]')
    expect(resigned).to_have_attribute("data-status", "over")
    expect(resigned).to_contain_text("Finished")
    expect(rows).to_have_count(3)
    assert asked == [
        "Resign this game? It ends here with no winner; its record and replay are kept."
    ]
    info = _status(server_url, playing)
    assert isinstance(info, dict) and info["status"] == "over" and info["winner"] is None
    assert page.evaluate(f"() => localStorage.getItem('pitch.token.{playing}')") is not None

    # Leave the waiting table: the seat is open again, Bo still sits there.
    page.once("dialog", lambda d: d.dismiss())  # asked first: nothing happens
    page.click(f'#my-tables li[data-table="{waiting}"] [data-action=leave]')
    expect(rows).to_have_count(3)
    page.once("dialog", lambda d: d.accept())
    page.click(f'#my-tables li[data-table="{waiting}"] [data-action=leave]')
    expect(rows).to_have_count(2)
    info = _status(server_url, waiting)
    assert isinstance(info, dict)
    assert [s["claimed"] for s in info["seats"]] == [False, True, False]

    # The finished game: a real download that verifies, and the replay.
    over, _ = tables["over"]
    row = page.locator(f'#my-tables li[data-table="{over}"]')
    with page.expect_download() as dl:
        row.locator("[data-action=download]").click()
    path = tmp_path / dl.value.suggested_filename
    dl.value.save_as(path)
    record = json.loads(path.read_text(encoding="utf-8"))
    assert verify_record(record) is None
    assert record["players"] == ["Ada", "Bot 2 (beginner)"]
    # Ada (seat 1, side 0) is told how it ended.
    result = "Finished: you won" if record["winner"] == 0 else "Finished: you lost"
    expect(row).to_contain_text(result)
    row.locator("[data-action=replay]").click()
    expect(page.locator(".replay-controls")).to_be_visible()
    page.go_back()
    expect(rows).to_have_count(2)
    # The Replays page lists it too (a phone has no record file to open), and plays it.
    page.click("header a[href='/#replay']")
    mine = page.locator(f'.my-games li[data-table="{over}"]')
    expect(mine).to_contain_text(result)
    expect(page.locator(".my-games li")).to_have_count(2)  # only the finished ones
    shot(page, "replay-my-games-1280-en")
    mine.locator("[data-action=watch]").click()
    expect(page.locator(".replay-controls")).to_be_visible()
    expect(page.locator(".step")).to_have_text(re.compile(r"^Move 1 of"))
    page.goto(f"{server_url}/")
    expect(rows).to_have_count(2)

    # Off the list: the panel goes.
    page.locator(f'#my-tables li[data-table="{playing}"] [data-action=forget]').click()
    expect(rows).to_have_count(1)
    page.locator(f'#my-tables li[data-table="{over}"] [data-action=forget]').click()
    expect(page.locator("#my-tables")).to_be_hidden()
    page.reload()
    expect(page.locator("#create-table")).to_be_visible()
    expect(page.locator("#my-tables")).to_be_hidden()
    assert page.js_errors == []
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_my_tables_fit_a_phone_and_a_laptop(
    browser: Any, server_url: str, tables: dict[str, tuple[str, str]], lang: str
) -> None:
    for label, ctx in (("390", PHONE), ("1280", WIDE)):
        page = _lobby_with(browser, server_url, tables, locale=lang, **ctx)
        expect(page.locator("#my-tables li")).to_have_count(3)
        if lang == "ru":
            expect(page.locator("#my-tables h2")).to_have_text("Мои столы")
        assert_accessible(page, f"the lobby with My tables ({lang} {label})", None)
        _fits(page)
        for li in page.locator("#my-tables li").all():
            box = li.bounding_box()
            assert box is not None and box["x"] >= 0
            assert box["x"] + box["width"] <= page.viewport_size["width"]
        page.locator("#my-tables").scroll_into_view_if_needed()
        shot(page, f"my-tables-{label}-{lang}", full=False)
        assert page.js_errors == []
        page.context.close()
    for tid, tok in tables.values():  # leave them, so other tests keep their limit
        try:
            _post(f"{server_url}/api/tables/{tid}/leave", {"token": tok})
        except urllib.error.HTTPError as e:
            assert e.code == 409  # the finished one


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("en", ["Beginner", "Club player", "Expert", "Master"]),
        ("ru", ["Новичок", "Клубный игрок", "Эксперт", "Мастер"]),
        ("sv", ["Nybörjare", "Klubbspelare", "Expert", "Mästare"]),
    ],
)
def test_the_lobby_offers_the_servers_levels_in_order(
    browser: Any, server_url: str, lang: str, names: list[str]
) -> None:
    page = new_page(browser, locale=lang)
    page.goto(server_url + "/")
    options = page.locator("select[name=seat-1-level] option")
    expect(options).to_have_text(names)
    values = [o.get_attribute("value") for o in options.all()]
    assert values == ["beginner", "club", "expert", "master"]
    assert page.js_errors == []
    page.context.close()
