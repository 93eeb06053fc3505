"""Passkeys in real Chromium with its virtual authenticator (CDP ``WebAuthn``, ctap2,
internal, resident keys, user verification): sign up with a password, add a passkey
on My account, sign out, sign in with the passkey without typing a name, see the
account, remove the passkey, and a removed one is refused; in English on a laptop and
in Russian on a phone. The page is opened at ``http://localhost``: Chromium treats
``http://127.0.0.1`` as a secure context too, but refuses an IP address as the
relying party's id ("This is an invalid domain"), so there the client offers no
passkeys at all (checked too)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.a11y import SIZES, assert_accessible
from tests.web.conftest import PHONE, new_page, serving, shot
from tests.web.test_accounts import sign_out

pytest.importorskip("webauthn", reason="needs the server extra")

PASSWORD = "correct horse battery"
WIDE: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
LOOKS: dict[str, tuple[str, dict[str, Any]]] = {"en": ("en-US", WIDE), "ru": ("ru-RU", PHONE)}
A11Y_SIZES = {"en": SIZES, "ru": None}  # the phone's (a mobile viewport) as it is
SHOTS = Path(os.environ.get("PITCH_PASSKEY_SHOTS", "/tmp/passkey-shots"))


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("passkeys-web"), PITCH_SIGNUPS_PER_HOUR="1000") as u:
        yield u


def _authenticator(page: Any) -> tuple[Any, str]:
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    options = {
        "protocol": "ctap2",
        "transport": "internal",
        "hasResidentKey": True,
        "hasUserVerification": True,
        "isUserVerified": True,
        "automaticPresenceSimulation": True,
    }
    got = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})
    return cdp, got["authenticatorId"]


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)
    shot(page, f"passkeys-{name}", full=False)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_add_a_passkey_sign_in_with_it_and_remove_it(browser: Any, url: str, lang: str) -> None:
    locale, looks = LOOKS[lang]
    page = new_page(browser, locale=locale, **looks)
    cdp, authenticator = _authenticator(page)
    site = url.replace("127.0.0.1", "localhost")
    name = f"Kim {secrets.token_hex(3)}"
    page.goto(site + "/")
    page.click("#sign-in-button")
    page.click("#sign-in-switch")
    expect(page.locator("#passkey-sign-in")).to_be_hidden()  # making an account: no passkey yet
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#sign-in-submit")
    expect(page.locator("#account-menu summary")).to_contain_text(name)

    page.goto(site + "/account")
    section = page.locator("#passkeys")
    expect(section.locator("#no-passkeys")).to_be_visible()
    page.fill("#passkey-label", "Laptop 💻")
    page.fill("#passkey-password", PASSWORD)
    page.click("#add-passkey")
    item = section.locator("li.passkey")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("Laptop 💻")
    creds = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert len(creds) == 1 and creds[0]["isResidentCredential"], creds
    section.scroll_into_view_if_needed()
    _shot(page, f"account-{lang}")
    assert_accessible(page, f"My account's passkeys ({lang})", A11Y_SIZES[lang])

    sign_out(page)
    page.click("#sign-in-button")
    expect(page.locator("#passkey-sign-in")).to_be_visible()
    _shot(page, f"dialog-{lang}")
    assert_accessible(page, f"the sign-in dialog with passkeys ({lang})", A11Y_SIZES[lang])
    page.click("#passkey-sign-in")  # no name typed: the authenticator says whose it is
    expect(page.locator("#account-menu summary")).to_contain_text(name)
    expect(page.locator("dialog.sign-in")).to_have_count(0)
    creds = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert creds[0]["signCount"] >= 1

    page.goto(site + "/account")
    expect(item).to_have_count(1)
    expect(item.locator(".passkey-name .muted")).not_to_contain_text("never")  # used now
    page.once("dialog", lambda d: d.accept())
    item.locator(".remove-passkey").click()
    expect(section.locator("#no-passkeys")).to_be_visible()

    # The authenticator still holds it, but it signs nobody in any more.
    sign_out(page)
    page.click("#sign-in-button")
    page.click("#passkey-sign-in")
    expect(page.locator("#sign-in-error")).not_to_be_empty()
    expect(page.locator("#sign-in-button")).to_be_visible()
    missing = page.evaluate("() => [...window.pitchI18n.missing]")
    assert missing == [], missing
    assert page.js_errors == [], page.js_errors
    page.context.close()


def test_no_passkey_button_where_passkeys_cannot_work(browser: Any, url: str) -> None:
    # At an IP address (a relying party's id must be a name), and in a browser without
    # WebAuthn: the password form only, and My account says so.
    for where, script in (
        (url, ""),
        (url.replace("127.0.0.1", "localhost"), "delete window.PublicKeyCredential"),
    ):
        page = new_page(browser)
        if script:
            page.add_init_script(script)
        page.goto(where + "/")
        page.click("#sign-in-button")
        expect(page.locator("#account-password")).to_be_visible()
        expect(page.locator("#passkey-sign-in")).to_be_hidden()
        page.context.close()


def test_base64url_helpers(browser: Any, url: str) -> None:
    page = new_page(browser)
    page.goto(url + "/")
    got = page.evaluate(
        """async () => {
          const m = await import("/js/core/passkeys.js");
          const all = Uint8Array.from({ length: 256 }, (_, i) => i);
          const refused = (s) => {
            try { m.fromBase64url(s); return false; } catch { return true; }
          };
          return {
            empty: m.toBase64url(new Uint8Array(0)),
            one: m.toBase64url(new Uint8Array([251])),
            view: m.toBase64url(new Uint8Array([0, 1, 2, 3]).subarray(1, 3)),
            round: Array.from(m.fromBase64url(m.toBase64url(all.buffer))).every((b, i) => b === i),
            padded: Array.from(m.fromBase64url("-w==")),
            refused: ["a+b", "a/b", "a b", "abc===", null].map(refused),
          };
        }"""
    )
    assert got == {
        "empty": "",
        "one": "-w",
        "view": "AQI",
        "round": True,
        "padded": [251],
        "refused": [True] * 5,
    }, got
    page.context.close()
