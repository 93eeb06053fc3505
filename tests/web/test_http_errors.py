"""A refused request says why in the reader's language (the answer's ``code``,
docs/server.md "HTTP error codes"), not in the server's English ``detail``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.web.conftest import PHONE, new_page, post_json, serving, shot, shots

SEAT_TAKEN = {
    "en": "Could not take the seat: Seat 1 is taken.",
    "ru": "Не удалось занять место: Место 1 уже занято.",
}
TOO_MANY = {
    "en": ("The table could not be opened", "Too many requests: wait a minute and try again."),
    "ru": (
        "Не удалось открыть стол",
        "Слишком много запросов: подождите минуту и попробуйте снова.",
    ),
}
NAME_TAKEN = {
    "en": (
        "Could not take the seat: Someone at this table already goes by that name; choose another."
    ),
    "ru": "Не удалось занять место: За этим столом уже есть игрок с таким именем; выберите другое.",
}
NAME_RESERVED = {
    "en": "Could not take the seat: That name is kept for the bots; choose another.",
    "ru": "Не удалось занять место: Это имя зарезервировано для ботов; выберите другое.",
}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def _table(url: str) -> str:
    body = {"rules": {"players": 2}, "seats": [{"kind": "human"}, {"kind": "human"}]}
    return str(post_json(url + "/api/tables", body)["id"])


def test_a_seat_taken_meanwhile_is_named_in_the_readers_language(
    browser: Any, tmp_path: Path
) -> None:
    with serving(tmp_path) as url:
        table = _table(url)
        pages = {
            "en": new_page(browser, **DESKTOP),
            "ru": new_page(browser, locale="ru-RU", **PHONE),
        }
        for page in pages.values():
            page.goto(f"{url}/t/{table}")
            expect(page.locator("#open-seats button[data-seat='0']")).to_be_visible()
        post_json(f"{url}/api/tables/{table}/seats/0", {"name": "Bo"})  # someone else was quicker
        for lang, page in pages.items():
            page.fill("#join-name", "Ada")
            page.click("#open-seats button[data-seat='0']")
            expect(page.locator("#toast")).to_have_text(SEAT_TAKEN[lang])
            # The seats are read again: seat 1 is Bo's now, with no button.
            expect(page.locator("#open-seats button[data-seat='0']")).to_have_count(0)
            expect(page.locator("#open-seats li").first).to_contain_text("Bo")
            assert page.evaluate("() => [...window.pitchI18n.missing]") == []
            assert page.js_errors == []
        shots(pages["ru"], "seat-taken-ru")
        for page in pages.values():
            page.context.close()


def test_a_name_taken_at_the_table_is_refused_in_the_readers_language(
    browser: Any, tmp_path: Path
) -> None:
    with serving(tmp_path) as url:
        body = {"rules": {"players": 3}, "seats": [{"kind": "human"}] * 3}
        table = str(post_json(url + "/api/tables", body)["id"])
        post_json(f"{url}/api/tables/{table}/seats/0", {"name": "Bo"})
        pages = {
            "en": new_page(browser, **DESKTOP),
            "ru": new_page(browser, locale="ru-RU", **PHONE),
        }
        for seat, (lang, page) in enumerate(pages.items(), start=1):
            page.goto(f"{url}/t/{table}")
            page.fill("#join-name", "BO")
            # Reads of the table made after the refusal wait until the new name is typed,
            # as on a slow network: a re-read replaced the form, and the name typed
            # meanwhile was lost (the claim went as "BO" again).
            held: list[Any] = []
            page.route(f"**/api/tables/{table}", lambda route, held=held: held.append(route))
            page.click(f"#open-seats button[data-seat='{seat}']")
            expect(page.locator("#toast")).to_have_text(NAME_TAKEN[lang])
            if lang == "ru":
                shots(page, "name-taken-ru")
            page.fill("#join-name", f"Ada {lang}")  # another name takes the seat
            for route in held:
                route.continue_()
            page.unroute(f"**/api/tables/{table}")
            page.wait_for_load_state("networkidle")
            expect(page.locator("#join-name")).to_have_value(f"Ada {lang}")
            page.click(f"#open-seats button[data-seat='{seat}']")
            expect(page.locator("#open-seats")).to_have_count(0)  # seated: the join view is gone
            assert page.evaluate("() => [...window.pitchI18n.missing]") == []
            assert page.js_errors == []
        for page in pages.values():
            page.context.close()


def test_a_bots_name_is_refused_in_the_readers_language(browser: Any, tmp_path: Path) -> None:
    with serving(tmp_path) as url:
        body = {"rules": {"players": 3}, "seats": [{"kind": "human"}] * 3}
        table = str(post_json(url + "/api/tables", body)["id"])
        pages = {
            "en": new_page(browser, **DESKTOP),
            "ru": new_page(browser, locale="ru-RU", **PHONE),
        }
        for seat, (lang, page) in enumerate(pages.items()):
            page.goto(f"{url}/t/{table}")
            page.fill("#join-name", "Бот 3" if lang == "en" else "Bot 2")  # another language's
            page.click(f"#open-seats button[data-seat='{seat}']")
            expect(page.locator("#toast")).to_have_text(NAME_RESERVED[lang])
            if lang == "ru":
                shots(page, "name-reserved-ru")
            page.fill("#join-name", f"Botond {lang}")
            page.click(f"#open-seats button[data-seat='{seat}']")
            expect(page.locator("#open-seats")).to_have_count(0)
            assert page.evaluate("() => [...window.pitchI18n.missing]") == []
            assert page.js_errors == []
        for page in pages.values():
            page.context.close()


def test_a_table_page_past_the_read_limit_says_so(browser: Any, tmp_path: Path) -> None:
    with serving(tmp_path, PITCH_READS_PER_MINUTE="2") as url:
        table = _table(url)
        pages = {
            "en": new_page(browser, **DESKTOP),
            "ru": new_page(browser, locale="ru-RU", **PHONE),
        }
        for page in pages.values():  # two reads a minute: these two, then no more
            page.goto(f"{url}/t/{table}")
            expect(page.locator("#open-seats")).to_be_visible()
        for page in pages.values():
            page.reload()
        for lang, page in pages.items():
            heading, why = TOO_MANY[lang]
            expect(page.locator("main h1")).to_have_text(heading)
            expect(page.locator("main p").first).to_have_text(why)
            expect(page.locator("main a.button[href='/']")).to_be_visible()
            assert page.evaluate("() => [...window.pitchI18n.missing]") == []
            assert page.js_errors == []
            shots(page, f"read-limit-{lang}")
            page.context.close()


def test_a_table_past_the_unfinished_limit_is_refused_in_the_readers_language(
    browser: Any, tmp_path: Path
) -> None:
    limit = {
        "en": "Could not create the table: You have too many unfinished tables from the last "
        "day (at most 1): finish or leave some first, under My tables in the lobby.",
        "ru": "Не удалось создать стол: У вас слишком много незаконченных столов за последние "
        "сутки (не больше 1): сначала доиграйте или покиньте некоторые — в разделе «Мои "
        "столы» в лобби.",
    }
    with serving(tmp_path, PITCH_MAX_TABLES_PER_CLIENT="1") as url:
        _table(url)  # this address's one unfinished table
        for lang, page in (
            ("en", new_page(browser, **DESKTOP)),
            ("ru", new_page(browser, locale="ru-RU", **PHONE)),
        ):
            page.goto(url)
            page.fill("input[name=player-name]", "Ada")
            page.click("#create-table")
            expect(page.locator("#toast")).to_have_text(limit[lang])
            expect(page.locator("#create-table")).to_be_enabled()  # it may try again
            assert page.evaluate("() => [...window.pitchI18n.missing]") == []
            assert page.js_errors == []
            shots(page, f"unfinished-limit-{lang}")
            page.context.close()


def test_an_invite_link_with_no_such_table_says_so(browser: Any, tmp_path: Path) -> None:
    # An id no table can have (too long, or not of the id's letters) used to answer a
    # bare 422 JSON page; the app now says the table is not found, like any other.
    with serving(tmp_path) as url:
        for lang, path in (("en", "x" * 40), ("ru", "%C3%A9t%C3%A9")):
            context = {"locale": "ru-RU", **PHONE} if lang == "ru" else DESKTOP
            page = new_page(browser, **context)
            page.goto(f"{url}/t/{path}")
            heading = "Стол не найден" if lang == "ru" else "Table not found"
            expect(page.locator("main h1")).to_have_text(heading)
            assert page.evaluate("() => [...window.pitchI18n.missing]") == []
            assert page.js_errors == []
            page.context.close()


def test_an_address_with_no_page_says_so_and_the_api_still_answers_json(
    browser: Any, server_url: str
) -> None:
    # A mistyped address is the app's "Page not found" (status 404, the reader's
    # language), not a bare {"detail": "Not Found"}; the API and files keep their JSON 404.
    for path, kind in (
        ("/nonexistent/page", "text/html"),
        ("/tables", "text/html"),
        ("/api/nonexistent", "application/json"),
        ("/js/nonexistent.js", "application/json"),
        ("/%3Cscript%3Ealert(1)%3C/script%3E/" + "x" * 4000, "text/html"),
    ):
        r = httpx.get(server_url + path)
        assert r.status_code == 404 and r.headers["content-type"].startswith(kind), path
        assert "alert(1)" not in r.text and "xxxx" not in r.text  # the path never comes back
    page = new_page(browser, locale="ru-RU", **PHONE)
    response = page.goto(f"{server_url}/nonexistent/page")
    assert response is not None and response.status == 404
    expect(page.locator("main h1")).to_have_text("Страница не найдена")
    expect(page).to_have_title("Страница не найдена")
    shot(page, "page-not-found-ru-phone", full=False)
    page.click("main a[href='/']")
    expect(page.locator("#create-table")).to_be_visible()
    assert page.evaluate("() => [...window.pitchI18n.missing]") == []
    assert page.js_errors == []
    page.context.close()
