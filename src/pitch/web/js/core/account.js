// The signed-in account, if any (accounts are optional: a guest plays as before): the
// top bar's "Sign in" button or name menu, and the sign-in / sign-up dialog.

import * as api from "./api.js";
import { h, toast } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { apiError } from "./messages.js";
import { heldSeats } from "./mytables.js";
import * as passkeys from "./passkeys.js";

const MAX_SEATS = 50; // the most seat tokens one sign-in may bring (the server's limit)

let me = null; // GET /api/account's answer, null for a guest
const listeners = new Set();

/** The signed-in account ({name, ratings}) or null. */
export function current() {
  return me;
}

/** Call fn() whenever the account changes (signed in, out, deleted). */
export function onChange(fn) {
  listeners.add(fn);
}

// Whether this browser may be signed in (the session cookie is HttpOnly, so unseen
// here): a guest who never signed in is not asked about at every page load. Two signs:
// this page's flag, and the server's marker cookie, "1" beside the session cookie with
// its lifetime, which also tells a tab that another signed in, or a browser whose storage
// was cleared or whose cookies came back without it.
const SIGNED = "pitch.signedIn";
const MARKER = "pitch_signed_in";

function remember(signed) {
  try {
    if (signed) localStorage.setItem(SIGNED, "1");
    else localStorage.removeItem(SIGNED);
  } catch {
    // No storage: the marker cookie alone says.
  }
  // A session the server ended (signed out elsewhere, expired): its marker goes too, so
  // that the next pages ask no more.
  if (!signed) document.cookie = `${MARKER}=; Max-Age=0; Path=/; SameSite=Lax`;
}

function hasMarker() {
  return document.cookie.split(";").some((c) => c.trim().startsWith(`${MARKER}=`));
}

function mayBeSignedIn() {
  if (hasMarker()) return true;
  try {
    return localStorage.getItem(SIGNED) !== null;
  } catch {
    return true;
  }
}

function set(account) {
  me = account && typeof account.name === "string" ? account : null;
  remember(me !== null);
  for (const fn of listeners) fn(me);
}

/** Ask the server who this browser is signed in as (a guest: null). */
export async function refresh() {
  if (!mayBeSignedIn()) return me;
  try {
    set(await api.account());
  } catch (e) {
    // 401: signed out (here, elsewhere or by expiry). Anything else (the server is
    // away): a guest for this page, and the next page asks again.
    if (e?.status === 401) set(null);
    else me = null;
  }
  return me;
}

export async function signOut() {
  try {
    await api.signOut();
  } catch (e) {
    toast(apiError(e), "error");
    return;
  }
  set(null);
  toast(t("Signed out."));
}

/** The top bar's entry: "Sign in" for a guest, else the name with its menu. */
export function accountEntry() {
  if (!me) {
    return h("button", { type: "button", class: "account-button", id: "sign-in-button", onclick: () => openSignIn() }, icon("person"), h("span", { class: "link-text" }, t("Sign in")));
  }
  const menu = h(
    "details",
    { class: "account-menu", id: "account-menu" },
    h("summary", { "aria-label": t("Account: {name}", { name: me.name }) }, icon("person"), h("span", { class: "account-initial", "aria-hidden": "true" }, Array.from(me.name)[0] || "?"), h("span", { class: "account-name" }, me.name)),
    h(
      "div",
      { class: "account-items" },
      h("p", { class: "account-who" }, me.name),
      h("a", { href: "/account", id: "my-account-link" }, t("My account")),
      h("a", { href: "/account#friends", id: "friends-link" }, t("Friends")),
      h("button", { type: "button", id: "sign-out-button", onclick: () => signOut() }, t("Sign out")),
    ),
  );
  // A click on a link, or anywhere else, closes the menu.
  menu.addEventListener("click", (e) => {
    if (e.target.closest("a, button")) menu.open = false;
  });
  menu.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && menu.open) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });
  return menu;
}

// A click outside the open menu closes it (one listener for every menu drawn).
document.addEventListener("click", (e) => {
  const menu = document.getElementById("account-menu");
  if (menu?.open && !menu.contains(e.target)) menu.open = false;
});

/** The sign-in dialog; `signUp` opens it on "Create an account". */
export function openSignIn(signUp = false) {
  let making = signUp;
  const title = h("h2", { id: "sign-in-title" });
  const nameInput = h("input", { id: "account-name", name: "username", autocomplete: "username", required: true, maxlength: 32, spellcheck: "false", autocapitalize: "none" });
  const passInput = h("input", { id: "account-password", name: "password", type: "password", required: true, maxlength: 256 });
  const error = h("p", { class: "form-error", id: "sign-in-error", role: "alert" });
  const note = h("p", { class: "muted small", id: "sign-in-note" });
  const submit = h("button", { type: "submit", class: "primary", id: "sign-in-submit" });
  const other = h("button", { type: "button", class: "link-button", id: "sign-in-switch", onclick: () => ((making = !making), draw(), nameInput.focus()) });
  const cancel = h("button", { type: "button", onclick: () => dlg.close() }, t("Cancel"));
  const form = h(
    "form",
    { class: "account-form", onsubmit: (e) => (e.preventDefault(), send()) },
    h("label", { for: "account-name" }, t("Name")),
    nameInput,
    h("label", { for: "account-password" }, t("Password")),
    passInput,
    note,
    error,
    h("div", { class: "buttons" }, cancel, submit),
  );
  // A passkey needs no name: the authenticator offers the ones it holds for this site.
  const passkeyButton = h("button", { type: "button", id: "passkey-sign-in", onclick: () => withPasskey() }, icon("key"), " ", t("Sign in with a passkey"));
  const passkeyWay = h("div", { class: "passkey-way" }, h("p", { class: "or muted small" }, t("or")), passkeyButton);
  const dlg = h("dialog", { class: "sign-in", "aria-labelledby": "sign-in-title" }, title, form, passkeyWay, h("p", { class: "switch" }, other));

  function draw() {
    title.textContent = making ? t("Create an account") : t("Sign in");
    submit.textContent = making ? t("Create account") : t("Sign in");
    other.textContent = making ? t("I have an account: sign in") : t("New here? Create an account");
    // Password managers offer a saved password to sign in, a new one to sign up.
    passInput.setAttribute("autocomplete", making ? "new-password" : "current-password");
    note.textContent = making
      ? t("An account is never needed to play. With one you keep a name and a rating; the tables this browser holds stay yours.")
      : "";
    error.textContent = "";
    passkeyWay.hidden = making || !passkeys.supported();
  }

  async function withPasskey() {
    error.textContent = "";
    passkeyButton.disabled = true;
    try {
      signedIn(await passkeys.signInWithPasskey(heldSeats().slice(0, MAX_SEATS)));
    } catch (e) {
      error.textContent = passkeys.declined(e) ? t("No passkey was used (cancelled, or none for this site).") : apiError(e);
    } finally {
      passkeyButton.disabled = false;
    }
  }

  function signedIn(got) {
    dlg.close();
    set(got);
    toast(t("Signed in as {name}.", { name: got.name }));
  }

  async function send() {
    error.textContent = "";
    submit.disabled = true;
    const seats = heldSeats().slice(0, MAX_SEATS);
    try {
      signedIn(await (making ? api.signUp : api.signIn)(nameInput.value, passInput.value, seats));
    } catch (e) {
      error.textContent = apiError(e);
      (e?.code === "bad_password" ? passInput : nameInput).focus();
    } finally {
      submit.disabled = false;
    }
  }

  draw();
  dlg.addEventListener("close", () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
  nameInput.focus();
}
