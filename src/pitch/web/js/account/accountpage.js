// My account (/account): the ratings by kind of table, change the password, sign out
// everywhere, export my data, delete the account. Everything from GET /api/account.

import * as account from "../core/account.js";
import * as api from "../core/api.js";
import { clear, h, toast } from "../core/dom.js";
import { current as language, t } from "../core/i18n.js";
import { apiError } from "../core/messages.js";
import { friendsPanel } from "./friends.js";
import * as passkeys from "../core/passkeys.js";

let root = null;

export async function showAccount(main) {
  root = main;
  await account.refresh(); // the ratings as they are now (a game may have ended)
  draw();
}

export function redraw() {
  if (root) draw();
}

/** Signed in or out meanwhile (here or in the dialog). */
export function accountChanged() {
  if (root?.isConnected) draw();
}

export function leave() {
  root?.querySelector("#friends")?.stop?.();
  root = null;
}

const KINDS = () => [
  ["headsup", t("Heads-up (2 players)")],
  ["solo", t("Solo (3–7 players)")],
  ["partnership", t("Partnerships")],
];

function draw() {
  const me = account.current();
  root.querySelector("#friends")?.stop?.();
  clear(root);
  document.title = `${t("My account")} · ${t("Pitch")}`;
  if (!me) {
    root.append(
      h(
        "section",
        { class: "panel account-page" },
        h("h1", {}, t("My account")),
        h("p", {}, t("You are not signed in. An account is never needed to play.")),
        h("button", { type: "button", class: "primary", onclick: () => account.openSignIn() }, t("Sign in")),
      ),
    );
    return;
  }
  root.append(
    h(
      "div",
      { class: "account-wrap" },
      h("section", { class: "panel account-page" }, h("h1", {}, t("My account")), h("p", { class: "account-title" }, h("strong", { id: "account-page-name" }, me.name), " · ", h("a", { href: `/players/${encodeURIComponent(me.name)}`, id: "my-profile-link" }, t("My profile")))),
      friendsPanel(),
      ratingsPanel(me),
      passwordPanel(me),
      passkeysPanel(me),
      dataPanel(),
      deletePanel(me),
    ),
  );
  // The top bar's "Friends" (/account#friends) opens the page at that panel.
  if (location.hash === "#friends") root.querySelector("#friends")?.scrollIntoView();
}

function ratingsPanel(me) {
  const ratings = me.ratings && typeof me.ratings === "object" ? me.ratings : {};
  const rows = KINDS().filter(([kind]) => Object.hasOwn(ratings, kind));
  const body = rows.length
    ? h(
        "table",
        { class: "ratings", id: "ratings" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Table")), h("th", { scope: "col" }, t("Rating")), h("th", { scope: "col" }, t("Games")), h("th", { scope: "col" }, t("Wins")))),
        h(
          "tbody",
          {},
          rows.map(([kind, label]) => {
            const r = ratings[kind];
            const num = (v) => (Number.isInteger(v) ? v : "?");
            return h(
              "tr",
              { dataset: { kind } },
              h("th", { scope: "row" }, label),
              h("td", {}, h("span", { class: "rating-number" }, num(r.rating)), r.provisional ? h("span", { class: "provisional", title: t("Provisional: too few games yet for a settled rating") }, " ", t("provisional")) : null),
              h("td", {}, num(r.games)),
              h("td", {}, num(r.wins)),
            );
          }),
        ),
      )
    : h("p", { class: "muted", id: "no-ratings" }, t("No rated games yet. Rated tables count: start one in the lobby."));
  return h("section", { class: "panel", "aria-labelledby": "ratings-title" }, h("h2", { id: "ratings-title" }, t("Ratings")), body);
}

/** A labelled password field (its id, its label, what a password manager offers). */
function passwordField(id, label, autocomplete) {
  const input = h("input", { id, type: "password", required: true, autocomplete, maxlength: 256 });
  return [h("label", { for: id }, label), input];
}

function passwordPanel(me) {
  const [curLabel, cur] = passwordField("current-password", t("Current password"), "current-password");
  const [newLabel, next] = passwordField("new-password", t("New password"), "new-password");
  const status = h("p", { class: "form-error", role: "alert", id: "password-error" });
  const submit = h("button", { type: "submit", class: "primary" }, t("Change password"));
  const form = h(
    "form",
    {
      class: "account-form",
      id: "password-form",
      onsubmit: async (e) => {
        e.preventDefault();
        status.textContent = "";
        submit.disabled = true;
        try {
          await api.changePassword(cur.value, next.value);
          cur.value = next.value = "";
          toast(t("Password changed. Other devices are signed out."));
        } catch (err) {
          status.textContent = apiError(err);
        } finally {
          submit.disabled = false;
        }
      },
    },
    // The account's name, for password managers (they save the new password under it).
    h("input", { type: "text", name: "username", autocomplete: "username", value: me.name, hidden: true, readonly: true, tabindex: "-1", "aria-hidden": "true" }),
    curLabel,
    cur,
    newLabel,
    next,
    status,
    h("div", { class: "buttons" }, submit),
  );
  return h("section", { class: "panel", "aria-labelledby": "password-title" }, h("h2", { id: "password-title" }, t("Change password")), form);
}

const day = (iso) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "?" : new Intl.DateTimeFormat(language(), { dateStyle: "medium" }).format(d);
};

/** Passkeys: the list (each with Remove) and a form to add one (docs/web.md). */
function passkeysPanel(me) {
  const list = h("ul", { class: "passkey-list", id: "passkey-list" });
  const status = h("p", { class: "form-error", role: "alert", id: "passkey-error" });
  const supported = passkeys.supported();

  async function load() {
    let got;
    try {
      got = await api.passkeys();
    } catch (e) {
      status.textContent = apiError(e);
      return;
    }
    clear(list);
    if (!Array.isArray(got) || !got.length) {
      list.append(h("li", { class: "muted", id: "no-passkeys" }, t("No passkeys yet.")));
      return;
    }
    for (const p of got) {
      const name = typeof p.label === "string" && p.label ? p.label : t("Passkey");
      const used = p.last_used ? t("last used {date}", { date: day(p.last_used) }) : t("never used yet");
      list.append(
        h(
          "li",
          { class: "passkey", dataset: { id: String(p.id) } },
          h("span", { class: "passkey-name" }, h("strong", {}, name), h("span", { class: "muted small" }, t("added {date}", { date: day(p.created_at) }), " · ", used)),
          h("button", { type: "button", class: "remove-passkey", "aria-label": t("Remove the passkey {name}", { name }), onclick: () => remove(p.id, name) }, t("Remove")),
        ),
      );
    }
  }

  async function remove(id, name) {
    if (!confirm(t("Remove the passkey {name}? It will no longer sign you in.", { name }))) return;
    status.textContent = "";
    try {
      await api.removePasskey(id);
    } catch (e) {
      status.textContent = apiError(e);
      return;
    }
    toast(t("Passkey removed."));
    await load();
  }

  const [passLabel, pass] = passwordField("passkey-password", t("Current password"), "current-password");
  const labelInput = h("input", { id: "passkey-label", maxlength: 40, autocomplete: "off", placeholder: t("e.g. my phone") });
  const submit = h("button", { type: "submit", class: "primary", id: "add-passkey" }, t("Add a passkey"));
  const form = h(
    "form",
    {
      class: "account-form",
      id: "passkey-form",
      onsubmit: async (e) => {
        e.preventDefault();
        status.textContent = "";
        submit.disabled = true;
        try {
          await passkeys.addPasskey(pass.value, labelInput.value.trim());
          pass.value = labelInput.value = "";
          toast(t("Passkey added. You can sign in with it now."));
          await load();
        } catch (err) {
          status.textContent = passkeys.declined(err) ? t("No passkey was made (cancelled, or this device has one for this account already).") : apiError(err);
        } finally {
          submit.disabled = false;
        }
      },
    },
    h("input", { type: "text", name: "username", autocomplete: "username", value: me.name, hidden: true, readonly: true, tabindex: "-1", "aria-hidden": "true" }),
    h("label", { for: "passkey-label" }, t("Name (optional)")),
    labelInput,
    passLabel,
    pass,
    h("div", { class: "buttons" }, submit),
  );
  load();
  return h(
    "section",
    { class: "panel", "aria-labelledby": "passkeys-title", id: "passkeys" },
    h("h2", { id: "passkeys-title" }, t("Passkeys")),
    h("p", {}, t("A passkey signs you in without your name and password: your phone, computer or security key checks it is you (fingerprint, face or PIN).")),
    list,
    status,
    supported ? form : h("p", { class: "muted", id: "passkeys-unsupported" }, t("This browser cannot make passkeys here.")),
  );
}

function dataPanel() {
  return h(
    "section",
    { class: "panel", "aria-labelledby": "data-title" },
    h("h2", { id: "data-title" }, t("Sessions and data")),
    h(
      "div",
      { class: "buttons start" },
      h(
        "button",
        {
          type: "button",
          id: "sign-out-everywhere",
          onclick: async () => {
            try {
              await api.signOutEverywhere();
            } catch (e) {
              toast(apiError(e), "error");
              return;
            }
            await account.refresh();
            toast(t("Signed out on every device."));
          },
        },
        t("Sign out everywhere"),
      ),
      h("a", { class: "button", id: "export-data", href: api.exportUrl, download: "pitch-account.json" }, t("Export my data (JSON)")),
    ),
  );
}

function deletePanel(me) {
  const [label, pass] = passwordField("delete-password", t("Password"), "current-password");
  const status = h("p", { class: "form-error", role: "alert", id: "delete-error" });
  const submit = h("button", { type: "submit", class: "danger", id: "delete-account" }, t("Delete my account"));
  const form = h(
    "form",
    {
      class: "account-form",
      id: "delete-form",
      onsubmit: async (e) => {
        e.preventDefault();
        status.textContent = "";
        if (!confirm(t("Delete the account {name} for good?", { name: me.name }))) return;
        submit.disabled = true;
        try {
          await api.deleteAccount(pass.value);
        } catch (err) {
          status.textContent = apiError(err);
          submit.disabled = false;
          return;
        }
        await account.refresh();
        toast(t("Your account is deleted."));
      },
    },
    h("input", { type: "text", name: "username", autocomplete: "username", value: me.name, hidden: true, readonly: true, tabindex: "-1", "aria-hidden": "true" }),
    h("p", {}, t("Your games stay, under the name “deleted player N”; your ratings and sessions are gone. The name stays taken.")),
    label,
    pass,
    status,
    h("div", { class: "buttons" }, submit),
  );
  return h("section", { class: "panel danger-zone", "aria-labelledby": "delete-title" }, h("h2", { id: "delete-title" }, t("Delete my account")), form);
}
