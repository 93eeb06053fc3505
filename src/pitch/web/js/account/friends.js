// The Friends panel of My account (/account#friends): friends with who is online and at
// which table, requests both ways, blocked players, and a field to add a friend by name.
// Every name is a text node; the lists are core/social.js's checked answer.

import * as api from "../core/api.js";
import { clear, h, toast } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { apiError } from "../core/messages.js";
import * as social from "../core/social.js";

const profile = (name) => h("a", { href: `/players/${encodeURIComponent(name)}`, class: "friend-name" }, name);

/** The panel; it fills itself at each answer of GET /api/social while it is shown. */
export function friendsPanel() {
  const lists = h("div", { class: "friend-lists", id: "friend-lists" }, h("p", { class: "muted" }, t("Loading…")));
  const input = h("input", { id: "add-friend-name", name: "friend", required: true, maxlength: 32, autocomplete: "off", spellcheck: "false", autocapitalize: "none" });
  const error = h("p", { class: "form-error", id: "add-friend-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary", id: "add-friend" }, t("Send request"));
  const form = h(
    "form",
    {
      class: "add-friend",
      onsubmit: async (e) => {
        e.preventDefault();
        const name = input.value.trim();
        error.textContent = "";
        if (!name) return;
        submit.disabled = true;
        try {
          const got = await api.addFriend(name);
          input.value = "";
          toast(got?.state === "friends" ? t("You and {name} are friends now.", { name }) : t("Friend request sent to {name}.", { name }));
          await social.reload();
        } catch (err) {
          error.textContent = apiError(err);
          input.focus();
        } finally {
          submit.disabled = false;
        }
      },
    },
    h("label", { for: "add-friend-name" }, t("Add a friend by name")),
    h("div", { class: "invite" }, input, submit),
    error,
  );
  const panel = h("section", { class: "panel friends", id: "friends", "aria-labelledby": "friends-title" }, h("h2", { id: "friends-title" }, t("Friends")), lists, form);
  if (social.current()) fill(lists, social.current());
  // A panel drawn over (a language change, the page left) stops listening at the next answer.
  const stop = social.watch((d) => (panel.isConnected ? fill(lists, d) : stop()));
  panel.stop = stop;
  return panel;
}

/** A button that calls the API, then asks for the lists again (its refusal as a toast). */
function act(label, fn, attrs = {}) {
  const button = h(
    "button",
    {
      type: "button",
      class: "small",
      ...attrs,
      onclick: async () => {
        button.disabled = true;
        try {
          await fn();
        } catch (e) {
          toast(apiError(e), "error");
          button.disabled = false;
          return;
        }
        await social.reload();
      },
    },
    label,
  );
  return button;
}

function section(id, title, items) {
  if (!items.length) return null;
  return h("div", { class: "friend-section", id }, h("h3", {}, title), h("ul", { class: "friend-list" }, items));
}

function fill(box, d) {
  clear(box);
  if (!d) {
    box.append(h("p", { class: "muted" }, t("Loading…")));
    return;
  }
  // Online friends first, then by name.
  const friends = [...d.friends].sort((a, b) => Number(b.online) - Number(a.online) || a.name.localeCompare(b.name));
  const incoming = section(
    "friend-requests",
    t("Friend requests"),
    d.incoming.map((name) =>
      h(
        "li",
        { dataset: { name } },
        profile(name),
        h("span", { class: "buttons" }, act(t("Accept"), () => api.addFriend(name), { class: "small primary", "aria-label": t("Accept {name}", { name }) }), act(t("Decline"), () => api.removeFriend(name), { "aria-label": t("Decline {name}", { name }) })),
      ),
    ),
  );
  const list = friends.length
    ? h(
        "ul",
        { class: "friend-list", id: "friend-list" },
        friends.map((f) =>
          h(
            "li",
            { dataset: { name: f.name, online: f.online ? "1" : "0" } },
            h("span", { class: `online-dot${f.online ? " on" : ""}`, role: "img", "aria-label": f.online ? t("online") : t("offline"), title: f.online ? t("online") : t("offline") }),
            profile(f.name),
            f.table ? h("a", { href: `/t/${f.table}`, class: "at-table" }, t("at table {table}", { table: f.table })) : h("span", { class: "muted small" }, f.online ? t("online") : t("offline")),
          ),
        ),
      )
    : h("p", { class: "muted", id: "no-friends" }, t("No friends yet. Add one by name below, or from their profile."));
  const outgoing = section(
    "friend-outgoing",
    t("Requests sent"),
    d.outgoing.map((name) => h("li", { dataset: { name } }, profile(name), h("span", { class: "buttons" }, act(t("Cancel"), () => api.removeFriend(name), { "aria-label": t("Cancel the request to {name}", { name }) })))),
  );
  const blocked = section(
    "blocked-players",
    t("Blocked players"),
    d.blocked.map((name) => h("li", { dataset: { name } }, profile(name), h("span", { class: "buttons" }, act(t("Unblock"), () => api.unblock(name), { "aria-label": t("Unblock {name}", { name }) })))),
  );
  // Friends first (who is online now), then what waits on this player, then the rest.
  box.append(list, incoming ?? "", outgoing ?? "", blocked ?? "");
}
