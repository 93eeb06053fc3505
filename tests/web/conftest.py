"""Browser tests: Playwright (Python) driving Debian's Chromium.

The browser is ``/usr/bin/chromium`` (``apt-get install chromium``; scripts/setup.sh
installs it from requirements/apt.txt); Playwright's own browser download is never used.
Static pages are served by a thread; tests that play start ``pitch serve`` as a
subprocess on a free port with a temporary SQLite database. Screenshots of the key
screens go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from pitch.i18n import LANGUAGES
from tests.support.ports import free_port
from tests.support.timing import margin, margin_ms

sync_api = pytest.importorskip("playwright.sync_api", reason="needs the web-test extra")
# Every ``expect`` waits up to this (Playwright's own default, 5 s, is too short for a
# page on a loaded machine); a test that passes never waits it out.
sync_api.expect.set_options(timeout=margin_ms(15))
get_global = pytest.importorskip("babel.core", reason="needs the web-test extra").get_global

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src/pitch/web"
DATA = Path(__file__).parent / "data"
SHOTS = ROOT / "artifacts/screenshots"
CHROMIUM = os.environ.get("PITCH_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LANGS = LANGUAGES  # the one list (pitch.i18n), as the site serves it


def browser_locale(code: str) -> str:
    """A browser locale tag with a region for a language code (``nb`` -> ``nb-NO``), the
    region the CLDR finds likeliest."""
    return code + "-" + get_global("likely_subtags")[code].split("_")[-1]


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# Tests start with animations and sound off so clicks never wait on a moving card, and
# with the first-game walkthrough seen (test_walkthrough.py starts without that).
QUIET_SETTINGS: dict[str, Any] = {"speed": "off", "sound": False, "walkthroughDone": True}


def quiet(settings: dict[str, Any]) -> str:
    """An init script: these settings, unless the page has saved its own."""
    return (
        "if (!localStorage.getItem('pitch.settings'))"
        f" localStorage.setItem('pitch.settings', {json.dumps(json.dumps(settings))})"
    )


QUIET = quiet(QUIET_SETTINGS)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists() and not shutil.which(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium (scripts/setup.sh)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def static_url() -> Iterator[str]:
    """The client's static files alone (no API): enough for replays and languages."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(STATIC))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()


@contextlib.contextmanager
def serving(tmp: Path, **env_extra: str) -> Iterator[str]:
    """``pitch serve`` in a subprocess, on a free port, with a fresh SQLite file in
    ``tmp``, the web tests' settings and ``env_extra``: its address."""
    pytest.importorskip("fastapi", reason="needs the server extra")
    port = free_port()
    db = tmp / "pitch.db"
    env = {**os.environ, "PITCH_TABLES_PER_MINUTE": "1000"}
    env["PITCH_HINT_BOT"] = "heuristic"  # quick: a search bot's 0.4 s a hint adds up
    env["PITCH_QUICK_BOT_DELAY"] = "0"
    # One client (127.0.0.1) plays every test's tables; the limits themselves are tested
    # in tests/server (test_app.py, tables/test_leave.py, test_hostile.py).
    env["PITCH_MAX_TABLES_PER_CLIENT"] = "1000"  # quick-play tables' bots, as "Instant" elsewhere
    env["PITCH_TABLES_OPEN_PER_CLIENT"] = "1000"
    env["PITCH_READS_PER_MINUTE"] = "1000000"
    env["PITCH_SEAT_CHANGES_PER_MINUTE"] = "1000000"
    env["PITCH_MIN_BOT_DELAY"] = "0"
    # A scripted player (tests.server.helpers.Player) answers a bot at once: a long game
    # against a bot with no delay sent some 60 actions a second and its socket's
    # allowance (20 a second, 40 at once) refused one; the player then waited for a
    # state that never came. The limit itself is tested in tests/server.
    env["PITCH_WS_RATE"] = "2000"
    env["PITCH_WS_BURST"] = "2000"
    env.update(env_extra)
    log = (tmp / "serve.log").open("w")
    cmd = [sys.executable, "-m", "pitch", "serve", "--port", str(port), "--db", f"sqlite:///{db}"]
    proc = subprocess.Popen(
        [*cmd, "--bot-workers", "1", "--log-level", "warning"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + margin(60)
        while True:
            if proc.poll() is not None:
                pytest.fail(f"pitch serve exited with {proc.returncode}; see {log.name}")
            try:
                with urllib.request.urlopen(url + "/api/health", timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"pitch serve did not answer within {margin(60):.0f} s")
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The web tests' server (``serving``), shared by the session."""
    with serving(tmp_path_factory.mktemp("server")) as url:
        yield url


def post_json(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` as JSON (the server refuses any other body) and read the answer."""
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req) as r:
        out: dict[str, Any] = json.load(r)
    return out


def play_to_the_end(server_url: str) -> tuple[str, str]:
    """A heads-up game to 1 point of a scripted player (seat 0, "Ada") and the
    heuristic, played out: the table and the player's token."""
    body = {
        "rules": {"players": 2, "target": 1},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
        "options": {"bot_delay": 0},
    }
    table = post_json(server_url + "/api/tables", body)["id"]
    token = post_json(f"{server_url}/api/tables/{table}/seats/0", {"name": "Ada"})["token"]
    from tests.server.helpers import Player

    # Playwright's sync API holds this thread's event loop: the player gets its own.
    with ThreadPoolExecutor(1) as pool:
        last = pool.submit(lambda: asyncio.run(Player(server_url, table, token).play()))
        state = last.result(timeout=margin(180))
    assert state["status"] == "over", f"the game stopped at seq {state['seq']}, not over"
    return table, token


@pytest.fixture
def leave_after(server_url: str) -> Iterator[list[tuple[str, str]]]:
    """Tables a test sat at, as (table, token): left when it ends, so that they stop
    counting to this client's unfinished tables (the server allows 10)."""
    seats: list[tuple[str, str]] = []
    yield seats
    for table, token in seats:
        with contextlib.suppress(OSError):  # over already, or gone: nothing left to free
            post_json(f"{server_url}/api/tables/{table}/leave", {"token": token})


def seat_in(page: Any, table: str, seat: int, token: str) -> None:
    """Keep ``token`` for ``table`` where the client keeps it, as if this browser had
    claimed ``seat`` (set before the page loads)."""
    page.context.add_init_script(
        f"localStorage.setItem('pitch.token.{table}', '{token}');"
        f"localStorage.setItem('pitch.seat.{table}', '{seat}')"
    )


def new_page(
    browser: Any, *, locale: str = "en-US", settings: dict[str, Any] | None = None, **context: Any
) -> Any:
    ctx = browser.new_context(
        locale=locale, **({"viewport": {"width": 1280, "height": 860}} | context)
    )
    ctx.add_init_script(QUIET if settings is None else quiet(settings))
    page = ctx.new_page()
    page.set_default_timeout(margin_ms(15))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors  # checked by tests at the end
    return page


def seat_page(browser: Any, url: str, table: str, token: str, **context: Any) -> Any:
    """A new page at ``table`` whose browser holds ``token`` (as after claiming a seat)."""
    page = new_page(browser, **context)
    page.context.add_init_script(f"localStorage.setItem('pitch.token.{table}', '{token}')")
    page.goto(f"{url}/t/{table}")
    return page


def click_action(page: Any, phase: str, action: str) -> None:
    """Make ``action`` as a player does: its bid button, or the card in the hand."""
    where = "#actions [data-action" if phase == "bid" else "#hand [data-card"
    page.click(f'{where}="{action}"]')


def play_safe(page: Any, game: dict[str, Any]) -> None:
    """The seat's move in ``game`` (a state's ``game``): pass when it may, else the
    first legal bid or card: such a seat bids only when it must (the dealer, everyone
    having passed), so its side is not set hand after hand."""
    legal = game["legal"]
    click_action(page, game["phase"], "pass" if "pass" in legal else legal[0])


def shot(page: Any, name: str, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def shots(page: Any, name: str, full: bool = False) -> None:
    """``name``-desktop and ``name``-phone: the page at 1280x800 and at 390x844."""
    for size, (width, height) in {"desktop": (1280, 800), "phone": (390, 844)}.items():
        page.set_viewport_size({"width": width, "height": height})
        shot(page, f"{name}-{size}", full=full)


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    p = new_page(browser)
    yield p
    assert p.js_errors == [], p.js_errors
    p.context.close()
