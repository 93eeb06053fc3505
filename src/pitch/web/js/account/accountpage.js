// My account (/account): the ratings by kind of table, change the password, sign out
// everywhere, export my data, delete the account. Everything from GET /api/account.

import * as account from "../core/account.js";
import * as api from "../core/api.js";
import { clear, h, toast } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { apiError } from "../core/messages.js";
import { friendsPanel } from "./friends.js";

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
