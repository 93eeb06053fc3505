// Before the game: pick a seat at a table (invite links land here) and wait for players.

import * as account from "./account.js";
import * as api from "./api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { apiError } from "./messages.js";
import { levelName } from "./levels.js";
import { leaveTable, watchReplay } from "./mytables.js";
import * as settings from "./settings.js";
import { inviteButton } from "./social.js";

/** The name typed in ``input``, remembered for next time; null (and the player told,
 *  the field focused) when it is empty. */
export function takeName(input) {
  const name = input.value.trim();
  if (!name) {
    // Said next to the field (and to a screen reader), not in a toast that may cover it.
    const id = `${input.name || input.id}-error`;
    if (!document.getElementById(id)) {
      // Once per error shown (a second empty try keeps it): typing takes it away.
      input.after(h("p", { class: "error-text field-error", id, role: "alert" }, t("Please enter your name.")));
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", id);
      input.addEventListener(
        "input",
        () => {
          document.getElementById(id)?.remove();
          input.removeAttribute("aria-invalid");
          input.removeAttribute("aria-describedby");
        },
        { once: true },
      );
    }
    input.focus();
    return null;
  }
  settings.set("name", name);
  return name;
}

export function rulesText(rules) {
  const parts = [
    t("Players: {n}", { n: rules.players }),
    rules.partnerships ? t("partnerships") : null,
    t("Target: {n}", { n: rules.target }),
  ];
  return parts.filter(Boolean).join(" · ");
}

/** Refusals that mean the seats changed meanwhile: the list is read again. Not a name
 *  taken: the form stays as it is, for another name to be typed (a re-read replaced the
 *  field, and a name typed meanwhile was lost). */
const SEAT_CHANGED = new Set(["seat_taken", "seat_is_bot", "seat_changed", "no_open_seat", "not_quick"]);

/** Open human seats with a "Sit here" button each, plus "Watch". `refresh` reads the
 *  table again (after a seat was taken by someone else meanwhile). An invite link
 *  opened after the game began says so instead, unless quick play lets one take over
 *  a bot's seat. */
export function joinView(S, { claimed, watch, refresh }) {
  const info = S.info;
  const quick = info.status === "playing" && info.options?.quick && info.seats.some((s) => s.open);
  if (info.status !== "waiting" && !quick) return startedView(info, watch);
  const nameInput = h("input", {
    id: "join-name",
    maxlength: "32",
    // Signed in: the account's name, so friends (and a report of a chat line) know the seat.
    value: account.current()?.name || settings.get("name") || "",
    autocomplete: "nickname",
    "aria-label": t("Your name"),
    placeholder: t("Your name"),
  });
  const list = h("ul", { class: "open-seats", id: "open-seats" });
  for (const s of info.seats) {
    const who = s.kind === "bot" ? `${t("Bot")} (${levelName(s.bot || "")})` : s.claimed ? s.name : t("Open seat");
    const open = s.kind === "human" && !s.claimed && info.status === "waiting";
    list.append(
      h(
        "li",
        {},
        h("span", {}, h("b", {}, t("Seat {n}", { n: s.seat + 1 })), " — ", who),
        open
          ? h(
              "button",
              {
                type: "button",
                class: "primary",
                dataset: { seat: String(s.seat) },
                onclick: async () => {
                  const name = takeName(nameInput);
                  if (!name) return;
                  try {
                    const c = await api.claim(info.id, s.seat, name);
                    claimed(c.seat, c.token);
                  } catch (e) {
                    toast(t("Could not take the seat: {why}", { why: apiError(e) }), "error");
                    if (SEAT_CHANGED.has(e.code)) refresh?.();
                  }
                },
              },
              t("Sit here"),
            )
          : null,
      ),
    );
  }
  const takeOver = quick
    ? h(
        "button",
        {
          type: "button",
          class: "primary",
          id: "take-bot-seat",
          onclick: async () => {
            const name = takeName(nameInput);
            if (!name) return;
            try {
              const c = await api.quickSeat(info.id, name); // the server picks the seat
              claimed(c.seat, c.token);
            } catch (e) {
              toast(t("Could not take the seat: {why}", { why: apiError(e) }), "error");
              if (SEAT_CHANGED.has(e.code)) refresh?.();
            }
          },
        },
        t("Take a bot's seat"),
      )
    : null;
  return h(
    "section",
    { class: "panel join" },
    h("h1", {}, t("Join the table")),
    h("p", {}, rulesText(info.rules)),
    quick ? h("p", {}, t("The game has started: take over a bot's seat, with its score, when the hand in play ends.")) : null,
    h("div", { class: "form-row" }, h("label", {}, t("Your name"), nameInput)),
    list,
    h("div", { class: "actions" }, takeOver, h("button", { type: "button", onclick: watch, id: "watch" }, t("Just watch"))),
  );
}

/** An invite link opened after the game began, with no seat to take: say so, and offer
 *  what there is (watch it, its replay, the players' next game, a game of one's own). */
function startedView(info, watch) {
  const over = info.status === "over";
  const actions = over
    ? [h("button", { type: "button", class: "primary", id: "watch-replay", onclick: () => watchReplay(info.id) }, t("Watch the replay"))]
    : [h("button", { type: "button", class: "primary", id: "watch", onclick: watch }, t("Just watch"))];
  if (over && info.rematch) actions.push(h("a", { class: "button", href: `/t/${info.rematch}`, id: "rematch-link" }, t("Watch their next game")));
  actions.push(h("a", { class: "button", href: "/", id: "new-game" }, t("New game")));
  return h(
    "section",
    { class: "panel join started" },
    h("h1", {}, over ? t("The game is over") : t("The game has started")),
    h("p", {}, rulesText(info.rules)),
    h("p", {}, over ? t("You can watch its replay, or start a game of your own.") : t("Every seat is taken. You can watch the game, or start one of your own.")),
    h("div", { class: "actions" }, ...actions),
  );
}

/** Seats so far and the invite link to send to friends. */
const seated = (S) => S.seat !== null && S.seat !== undefined;

export function waitingPanel(S, names) {
  const info = S.info;
  const link = info.invite_url || `${location.origin}/t/${S.id}`;
  const input = h("input", { id: "invite-link", readonly: true, value: link, "aria-label": t("Invite link") });
  const copy = h(
    "button",
    {
      type: "button",
      class: "primary",
      id: "copy-invite",
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
        } catch {
          input.select();
          document.execCommand?.("copy");
        }
        toast(t("Invite link copied."));
      },
    },
    t("Copy invite link"),
  );
  const seats = h(
    "ul",
    { class: "open-seats" },
    info.seats.map((s) =>
      h(
        "li",
        {},
        h("span", {}, h("b", {}, t("Seat {n}", { n: s.seat + 1 })), " — ", s.kind === "bot" ? `${t("Bot")} (${levelName(s.bot || "")})` : s.claimed ? names[s.seat] : t("waiting for a friend…")),
        s.seat === S.seat ? h("span", { class: "you-tag" }, t("You")) : null,
      ),
    ),
  );
  return h(
    "section",
    { class: "panel waiting", id: "waiting" },
    h("h1", {}, t("Waiting for players")),
    h("p", {}, rulesText(info.rules)),
    h("p", {}, t("Send this link to the friends you invited. The game starts when every seat is taken.")),
    h("div", { class: "invite" }, input, copy),
    seated(S) ? inviteButton(S.id) : null,
    seats,
    h(
      "div",
      { class: "form-row" },
      h("a", { href: "/", class: "button" }, t("Back to the lobby")),
      seated(S)
        ? h(
            "button",
            {
              type: "button",
              id: "leave-table",
              onclick: async () => {
                if (await leaveTable(S.id, false, t("Leave this table? Your seat is open again for someone else."))) window.pitchNavigate("/");
              },
            },
            t("Leave"),
          )
        : null,
    ),
  );
}
