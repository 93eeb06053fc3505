// Friends and safety for a signed-in player (docs/web.md, "Friends, invites, block and
// report"): GET /api/social checked and kept, polled while a page shows it, the invite
// dialog, the report dialog and the lobby's invitation notices. A guest never reaches
// any of it: nothing is asked for without an account.

import * as account from "./account.js";
import * as api from "./api.js";
import { clear, h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { apiError } from "./messages.js";

const POLL_MS = 20_000; // how often a page that shows friends or invites asks again
const MAX_LIST = 500; // the most entries of one list drawn (the answer is the server's, but bounded here)
const NAME_MAX = 64;
const TABLE_ID = /^[a-z0-9]{1,32}$/;
const INVITE_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const REPORT_TEXT_MAX = 500;

let data = null; // the last checked answer, null before one (or for a guest)
const watchers = new Set();
let timer = 0;
let asking = null;

const isName = (x) => typeof x === "string" && x.length > 0 && x.length <= NAME_MAX;
const names = (xs) => (Array.isArray(xs) ? xs.slice(0, MAX_LIST).filter(isName) : []);
const tableId = (x) => (typeof x === "string" && TABLE_ID.test(x) ? x : null);
const inviteId = (x) => (Number.isInteger(x) && x >= 0 ? String(x) : typeof x === "string" && INVITE_ID.test(x) ? x : null);

/** GET /api/social's answer, every field checked: what does not fit is left out. */
export function clean(d) {
  const obj = d && typeof d === "object" ? d : {};
  const list = (xs) => (Array.isArray(xs) ? xs.slice(0, MAX_LIST) : []);
  return {
    friends: list(obj.friends)
      .filter((f) => f && isName(f.name))
      .map((f) => ({ name: f.name, online: f.online === true, table: tableId(f.table) })),
    incoming: names(obj.incoming),
    outgoing: names(obj.outgoing),
    blocked: names(obj.blocked),
    invites: list(obj.invites)
      .filter((i) => i && inviteId(i.id) !== null && isName(i.from) && tableId(i.table))
      .map((i) => ({ id: inviteId(i.id), from: i.from, table: i.table })),
  };
}

/** The last answer (checked), or null. */
export function current() {
  return data;
}

/** How this player stands with `name`: "friends", "outgoing", "incoming" or null, and
 *  whether they blocked them. */
export function relation(name) {
  const d = data;
  const key = String(name).normalize("NFKC").toLowerCase();
  const has = (xs) => xs.some((x) => x.normalize("NFKC").toLowerCase() === key);
  if (!d) return { friend: null, blocked: false };
  const friend = d.friends.some((f) => f.name.normalize("NFKC").toLowerCase() === key) ? "friends" : has(d.outgoing) ? "outgoing" : has(d.incoming) ? "incoming" : null;
  return { friend, blocked: has(d.blocked) };
}

function tell() {
  for (const fn of watchers) fn(data);
}

/** Ask the server now (one request at a time); the watchers hear the answer. A 401 (the
 *  session ended) stops the polling: the account's own refresh says who we are now. */
export async function load() {
  if (!account.current()) {
    data = null;
    return null;
  }
  if (asking) return asking;
  asking = (async () => {
    try {
      data = clean(await api.social());
      tell();
    } catch (e) {
      if (e?.status === 401) {
        data = null;
        stopPolling();
        tell();
        account.refresh();
      }
      // Anything else (the server away a moment): the last answer stays, the next poll asks again.
    } finally {
      asking = null;
    }
    return data;
  })();
  return asking;
}

/** Ask again after a change this page made: an ask already out may have left before the
 *  change, so a new one follows it. */
export function reload() {
  return asking ? asking.then(() => load()) : load();
}

function stopPolling() {
  clearInterval(timer);
  timer = 0;
}

function startPolling() {
  if (timer || !account.current()) return;
  // Only while the page is seen: a tab in the background asks nothing.
  timer = setInterval(() => {
    if (document.visibilityState === "visible") load();
  }, POLL_MS);
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && watchers.size && timer) load();
});

/** Hear every answer while a page shows friends or invites: asks now, then every 20 s
 *  while signed in and visible. Returns the function that stops listening. */
export function watch(fn) {
  watchers.add(fn);
  if (account.current()) {
    load();
    startPolling();
  }
  return () => {
    watchers.delete(fn);
    if (!watchers.size) stopPolling();
  };
}

account.onChange((me) => {
  if (!me) {
    data = null;
    stopPolling();
    tell();
  } else if (watchers.size) {
    load();
    startPolling();
  }
});

// ------------------------------------------------------------------ invite a friend

/** "Invite a friend" (signed in, seated): a dialog with one button per online friend. */
export function inviteButton(table) {
  if (!account.current() || !TABLE_ID.test(String(table))) return null;
  return h("button", { type: "button", id: "invite-friend", class: "invite-friend", onclick: () => openInvite(table) }, t("Invite a friend"));
}

function openInvite(table) {
  const list = h("ul", { class: "friend-list invite-list", id: "invite-list", "aria-live": "polite" });
  const sent = new Set();
  const close = h("button", { type: "button", onclick: () => dlg.close() }, t("Close"));
  const dlg = h("dialog", { class: "invite-dialog", "aria-labelledby": "invite-title" }, h("h2", { id: "invite-title" }, t("Invite a friend")), list, h("div", { class: "buttons" }, close));

  function fill(d) {
    clear(list);
    if (!d) {
      list.append(h("li", { class: "muted" }, t("Loading…")));
      return;
    }
    const online = d.friends.filter((f) => f.online);
    if (!online.length) {
      list.append(h("li", { class: "muted", id: "no-online-friends" }, d.friends.length ? t("None of your friends is online.") : t("You have no friends here yet: add them on My account.")));
      return;
    }
    for (const f of online) {
      if (sent.has(f.name)) {
        list.append(h("li", { dataset: { name: f.name } }, h("span", { class: "online-dot on", "aria-hidden": "true" }), h("span", { class: "friend-name" }, f.name), h("span", { class: "sent-mark" }, "✓ ", t("Invitation sent"))));
        continue;
      }
      const button = h(
        "button",
        {
          type: "button",
          class: "small primary",
          dataset: { name: f.name },
          "aria-label": t("Invite {name}", { name: f.name }),
          onclick: async () => {
            button.disabled = true;
            try {
              await api.invite(f.name, table);
            } catch (e) {
              button.disabled = false;
              toast(apiError(e), "error");
              return;
            }
            sent.add(f.name);
            toast(t("Invitation sent to {name}.", { name: f.name }));
            fill(current());
            (list.querySelector("button") ?? close).focus();
          },
        },
        t("Invite"),
      );
      list.append(h("li", { dataset: { name: f.name } }, h("span", { class: "online-dot on", "aria-hidden": "true" }), h("span", { class: "friend-name" }, f.name), button));
    }
  }

  fill(current());
  const stop = watch(fill);
  dlg.addEventListener("close", () => {
    stop();
    dlg.remove();
    document.getElementById("invite-friend")?.focus();
  });
  document.body.append(dlg);
  dlg.showModal();
}

// ------------------------------------------------------------------ report

const REASONS = () => [
  ["abuse", t("Abuse or insults")],
  ["cheating", t("Cheating")],
  ["spam", t("Spam")],
  ["name", t("Offensive name")],
  ["other", t("Something else")],
];

/** The report dialog: a reason and a few words, sent with the table and the chat line
 *  where there is one. `opener`: where focus goes back to. */
export function openReport({ name, table = null, chat = null, opener = null }) {
  if (!account.current() || !isName(name)) return;
  const reason = h("select", { id: "report-reason", required: true }, REASONS().map(([v, label]) => h("option", { value: v }, label)));
  const text = h("textarea", { id: "report-text", maxlength: String(REPORT_TEXT_MAX), rows: "3" });
  const error = h("p", { class: "form-error", id: "report-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary", id: "report-send" }, t("Send report"));
  const quoted = chat ? h("blockquote", { class: "reported-line", id: "reported-line" }, chat) : null;
  const form = h(
    "form",
    {
      class: "account-form report-form",
      onsubmit: async (e) => {
        e.preventDefault();
        error.textContent = "";
        submit.disabled = true;
        try {
          await api.report({ name, table, chat, reason: reason.value, text: text.value.slice(0, REPORT_TEXT_MAX) });
        } catch (err) {
          error.textContent = apiError(err);
          submit.disabled = false;
          return;
        }
        dlg.close();
        toast(t("Report sent. Thank you: the operator reads every one."));
      },
    },
    quoted,
    h("label", { for: "report-reason" }, t("Why?")),
    reason,
    h("label", { for: "report-text" }, t("What happened (optional)")),
    text,
    error,
    h("div", { class: "buttons" }, h("button", { type: "button", onclick: () => dlg.close() }, t("Cancel")), submit),
  );
  const title = chat ? t("Report this line by {name}", { name }) : t("Report {name}", { name });
  const dlg = h("dialog", { class: "report-dialog", "aria-labelledby": "report-title" }, h("h2", { id: "report-title" }, title), form);
  dlg.addEventListener("close", () => {
    dlg.remove();
    if (opener?.isConnected) opener.focus();
  });
  document.body.append(dlg);
  dlg.showModal();
  reason.focus();
}

// ------------------------------------------------------------------ invitations in the lobby

/** The lobby's invitation notices, drawn again at each answer (an empty box for a guest). */
export function invitesBox() {
  const box = h("section", { class: "invites", id: "invites", "aria-label": t("Invitations"), "aria-live": "polite" });
  const fill = (d) => {
    clear(box);
    const invites = d ? d.invites : [];
    box.hidden = !invites.length;
    for (const inv of invites) {
      box.append(
        h(
          "div",
          { class: "invite-notice", dataset: { invite: inv.id, table: inv.table } },
          h("p", {}, t("{name} invites you to a table.", { name: inv.from })),
          h(
            "div",
            { class: "buttons start" },
            h("a", { href: `/t/${inv.table}`, class: "button primary", onclick: () => dismiss(inv.id, false) }, t("Join")),
            h("button", { type: "button", onclick: () => dismiss(inv.id, true) }, t("Dismiss")),
          ),
        ),
      );
    }
  };
  fill(data);
  box.draw = () => fill(data); // again in a new language
  box.stop = watch((d) => (box.isConnected ? fill(d) : box.stop()));
  return box;
}

async function dismiss(id, redraw) {
  try {
    await api.dismissInvite(id);
  } catch (e) {
    if (redraw) toast(apiError(e), "error");
    return;
  }
  if (data) {
    data = { ...data, invites: data.invites.filter((i) => i.id !== id) };
    if (redraw) tell();
  }
}
