// The lobby: choose the rules and who sits where, create the table, claim your seat.

import * as account from "../core/account.js";
import * as api from "../core/api.js";
import { clear, h, toast } from "../core/dom.js";
import { serverText, t, tn } from "../core/i18n.js";
import { apiError } from "../core/messages.js";
import { levelName, levels as levelList, loadLevels } from "../core/levels.js";
import { heldSeats, myTablesPanel, refresh as refreshMyTables } from "../core/mytables.js";
import { takeName } from "../core/seating.js";
import * as settings from "../core/settings.js";
import { invitesBox } from "../core/social.js";

let root = null;
let invites = null; // friends' invitations (signed in): one box, polled while the lobby shows
let levels = [["beginner", "beginner"]];
let options = []; // the server's table options (GET /api/rules/options), the engine's list
let houseRules = []; // those of them that are house rules
let form = {
  players: 4,
  partnerships: false,
  target: 7,
  rules: {}, // house rules set away from their defaults, by key
  botDelay: 0.6,
  turnSeconds: 0, // 0: no turn timer
  // A friend who closes the tab should not freeze the game for the others: by default a
  // bot plays for them after a minute, and gives the seat back when they return.
  graceSeconds: 60, // 0: wait for a player who left
  substitute: null, // bot level that stands in; null: the level bot seats default to
  seats: null,
  rated: false, // a rated table (signed in only; the server says which rules it refuses)
  quickRated: false,
};

/** A table id as the server makes them (pitch.server.tables.lifecycle: ten characters of this
 *  alphabet, no 0/o, 1/l/i; tests/web/test_refusal_words.py keeps the two the same). */
const TABLE_ID = /^[23456789abcdefghjkmnpqrstuvwxyz]{10}$/;

/** The table an invite is for: a bare id, or a link to this site's /t/ID (another
 *  site's link, or any other text, is none: the field never opens a page it names). */
export function inviteId(value) {
  const text = String(value).trim();
  if (TABLE_ID.test(text)) return text;
  let url;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.origin !== location.origin) return null;
  const m = url.pathname.match(/^\/t\/([^/]+)\/?$/);
  return m && TABLE_ID.test(m[1]) ? m[1] : null;
}

/** Level names (translated) for levels and bot specs: see levels.js. */
export { levelName };

/** The level bot seats and the stand-in start at: the second listed (club), or the only one. */
function defaultLevel() {
  return levels[Math.min(1, levels.length - 1)][0];
}

export async function showLobby(main) {
  root = main;
  await Promise.all([loadLevels(), loadHouseRules()]); // the server's lists
  levels = levelList().map((l) => [l.level, l.spec]);
  invites?.stop();
  invites = invitesBox();
  draw();
  refreshMyTables(); // fills its panel when the server answers
}

export function redraw() {
  draw();
}

export function leave() {
  invites?.stop();
  invites = null;
}

/** Signed in or out: the Rated boxes come or go. */
export function accountChanged() {
  if (root) draw();
}

function seatsPlan() {
  const n = form.players;
  const old = form.seats || [];
  const plan = [];
  for (let s = 0; s < n; s++) {
    plan.push(old[s] || (s === 0 ? { kind: "me" } : { kind: "bot", level: defaultLevel() }));
  }
  plan[0] = { kind: "me" };
  form.seats = plan;
  return plan;
}

function draw() {
  clear(root);
  invites?.draw();
  const plan = seatsPlan();
  const num = (v) => Number(v);
  const sel = (name, options, value, onchange, attrs = {}) =>
    h(
      "select",
      { name, onchange: (e) => onchange(e.target.value), ...attrs },
      options.map(([v, label]) => h("option", { value: String(v), selected: String(v) === String(value) }, label)),
    );
  const nameInput = h("input", {
    name: "player-name",
    required: true,
    maxlength: "32",
    // Signed in: the account's name, so friends (and a report of a chat line) know the seat.
    value: form.name ?? (account.current()?.name || settings.get("name") || ""),
    autocomplete: "nickname",
    placeholder: t("Your name"),
    oninput: (e) => (form.name = e.target.value),
  });
  const seatRows = plan.map((p, s) => {
    const label = h("span", { class: "seat-label" }, t("Seat {n}", { n: s + 1 }));
    if (s === 0) return h("div", { class: "seat-row" }, label, h("span", {}, t("You")), h("span"));
    const kind = sel(
      `seat-${s}-kind`,
      [
        ["bot", t("Bot")],
        ["human", t("Friend (invite)")],
      ],
      p.kind,
      (v) => {
        plan[s] = { ...p, kind: v, level: p.level || levels[0][0] };
        draw();
      },
      { "aria-label": t("Who sits in seat {n}", { n: s + 1 }) },
    );
    const level =
      p.kind === "bot"
        ? sel(
            `seat-${s}-level`,
            levels.map(([v]) => [v, levelName(v)]),
            p.level,
            (v) => (plan[s] = { ...p, level: v }),
            { "aria-label": t("Bot level for seat {n}", { n: s + 1 }) },
          )
        : h("span", { class: "muted" }, t("gets the invite link"));
    return h("div", { class: "seat-row" }, label, kind, level);
  });
  const create = h("button", { type: "submit", class: "primary", id: "create-table" }, t("Create table"));
  const f = h(
    "form",
    {
      class: "panel",
      onsubmit: async (e) => {
        e.preventDefault();
        const name = takeName(nameInput);
        if (!name) return;
        create.disabled = true;
        try {
          await createAndSit(name);
        } catch (err) {
          toast(t("Could not create the table: {why}", { why: ratedRefusal(err) || apiError(err) }), "error");
          create.disabled = false;
        }
      },
    },
    h("h2", {}, t("New table")),
    h(
      "div",
      { class: "form-row" },
      playersLabel(sel, "players"),
      h(
        "label",
        {},
        t("Play to"),
        sel("target", [7, 11, 15, 21].map((n) => [n, String(n)]), form.target, (v) => (form.target = num(v))),
      ),
      h(
        "label",
        { class: "check" },
        h("input", {
          type: "checkbox",
          name: "partnerships",
          checked: form.partnerships,
          disabled: !allowed("partnerships"),
          onchange: (e) => (form.partnerships = e.target.checked),
        }),
        t("Partnerships (seats 1 + 3 against 2 + 4)"),
      ),
    ),
    h("fieldset", { id: "house-rules" }, h("legend", {}, t("House rules")), houseRules.map(houseRuleControl)),
    h("fieldset", {}, h("legend", {}, t("Seats")), h("div", { class: "seat-plan" }, seatRows)),
    h(
      "div",
      { class: "form-row" },
      h(
        "label",
        {},
        t("Bot pace"),
        sel(
          "bot-delay",
          [
            [1.2, t("Relaxed")],
            [0.6, t("Normal")],
            [0.25, t("Quick")],
            [0, t("Instant")],
          ],
          form.botDelay,
          (v) => (form.botDelay = num(v)),
        ),
      ),
    ),
    timeRules(sel),
    ratedChoice("rated", "rated", t("Rated: the game counts to the players' ratings (standard rules only)")),
    h("div", { class: "form-row" }, create),
  );
  const join = h(
    "form",
    {
      class: "panel",
      onsubmit: (e) => {
        e.preventDefault();
        const id = inviteId(e.target.elements.invite.value);
        if (!id) {
          toast(t("That is not an invite link."), "error");
          return;
        }
        window.pitchNavigate(`/t/${id}`);
      },
    },
    h("h2", {}, t("Join a table")),
    h("p", { class: "muted" }, t("Paste the invite link a friend sent you.")),
    h(
      "div",
      { class: "invite" },
      h("input", { name: "invite", "aria-label": t("Invite link"), placeholder: "https://…/t/abc123" }),
      h("button", { type: "submit" }, t("Join")),
    ),
  );
  const replay = h(
    "section",
    { class: "panel" },
    h("h2", {}, t("Replays")),
    h("p", { class: "muted" }, t("Watch any game again, move by move, from its record file.")),
    h("a", { class: "button", href: "/#replay" }, t("Open the replay viewer")),
  );
  // Quick play, then My tables (hidden while there are none): a returning player's way back.
  // The name serves quick play and a new table alike: it stands above both.
  const you = h("div", { class: "form-row lobby-name" }, h("label", {}, t("Your name"), nameInput));
  root.append(h("h1", {}, t("Play Pitch")), invites ?? "", you, quickPanel(nameInput, sel), myTablesPanel(), h("div", { class: "lobby-grid" }, f, h("div", {}, join, replay)));
}

/** Turn timer, what happens when someone leaves, and which bot stands in (server options). */
function timeRules(sel) {
  const standIn = form.substitute || defaultLevel();
  return h(
    "fieldset",
    {},
    h("legend", {}, t("Time and absent players")),
    h(
      "div",
      { class: "form-row" },
      h(
        "label",
        {},
        t("Turn timer"),
        sel(
          "turn-seconds",
          [
            [0, t("Off")],
            [15, tn("{n} second", "{n} seconds", 15)],
            [30, tn("{n} second", "{n} seconds", 30)],
            [60, tn("{n} minute", "{n} minutes", 1)],
            [120, tn("{n} minute", "{n} minutes", 2)],
          ],
          form.turnSeconds,
          (v) => {
            form.turnSeconds = Number(v);
            draw();
          },
        ),
      ),
      h(
        "label",
        {},
        t("When a player leaves"),
        sel(
          "grace-seconds",
          [
            [0, t("Wait for them")],
            [30, tn("A bot plays for them after {n} second", "A bot plays for them after {n} seconds", 30)],
            [60, tn("A bot plays for them after {n} minute", "A bot plays for them after {n} minutes", 1)],
            [180, tn("A bot plays for them after {n} minute", "A bot plays for them after {n} minutes", 3)],
          ],
          form.graceSeconds,
          (v) => {
            form.graceSeconds = Number(v);
            draw();
          },
        ),
      ),
      h(
        "label",
        {},
        t("Stand-in bot"),
        sel(
          "substitute",
          levels.map(([v]) => [v, levelName(v)]),
          standIn,
          (v) => (form.substitute = v),
          { disabled: !form.turnSeconds && !form.graceSeconds },
        ),
      ),
    ),
    h("p", { class: "muted" }, t("When the turn timer runs out, the stand-in bot plays that one move; the player keeps the seat.")),
  );
}

function tableOptions() {
  const options = { bot_delay: form.botDelay };
  if (form.rated && account.current()) options.rated = true;
  if (form.turnSeconds) options.turn_seconds = form.turnSeconds;
  if (form.graceSeconds) options.grace_seconds = form.graceSeconds;
  if (form.turnSeconds || form.graceSeconds) options.substitute = form.substitute || defaultLevel();
  return options;
}

/** The rules the form shows (quick play and a new table both use them). */
function formRules() {
  return {
    players: form.players,
    partnerships: form.partnerships && allowed("partnerships"),
    target: form.target,
    ...form.rules,
  };
}

/** The house rules the server describes (its option table); on failure the form just
 *  offers none and the table gets the seed rules. */
async function loadHouseRules() {
  try {
    const got = await api.ruleOptions();
    const ok = (o) => typeof o?.key === "string" && typeof o?.label === "string" && Array.isArray(o?.choices);
    options = Array.isArray(got) ? got.filter(ok) : [];
  } catch {
    options = [];
  }
  houseRules = options.filter((o) => o.house && o.choices.length === 2);
}

/** Whether the form may set option `key` away from its default: the engine's
 *  `only_with` (R1.2: partnerships only with 4 players) holds for the form's values.
 *  An option the server did not describe is not offered. */
function allowed(key) {
  const o = options.find((x) => x.key === key);
  if (!o) return false;
  const now = { players: form.players, partnerships: form.partnerships, target: form.target, ...form.rules };
  const needs = o.only_with && typeof o.only_with === "object" ? Object.entries(o.only_with) : [];
  return needs.every(([k, v]) => now[k] === v);
}

/** One house rule as a checkbox: a yes/no option is checked when true, a choice of two
 *  words when it is the second (the first is the rule as written); its label and help
 *  are message keys the catalogs translate. The help is shown under it (a phone has no
 *  hover for a tooltip) and is the box's description to a screen reader. */
function houseRuleControl(o) {
  const [off, on] = o.type === "bool" ? [false, true] : o.choices;
  const value = o.key in form.rules ? form.rules[o.key] : o.default;
  const helpId = `house-help-${o.key}`;
  const help = typeof o.help === "string" && o.help ? serverText(o.help) : "";
  return h(
    "div",
    { class: "house-rule" },
    h(
      "label",
      { class: "check" },
      h("input", {
        type: "checkbox",
        name: o.key,
        checked: value === on,
        "aria-describedby": help ? helpId : null,
        onchange: (e) => (form.rules[o.key] = e.target.checked ? on : off),
      }),
      serverText(o.label),
    ),
    help ? h("p", { class: "rule-help muted", id: helpId }, help) : null,
  );
}

/** A quick-play seat: ask for a table, take its seat; when someone was quicker (409),
 *  ask again, avoiding that table (and the tables this browser sits at already). */
async function quickSeat(name) {
  const level = form.quickLevel || defaultLevel();
  const avoid = heldSeats().map((x) => x.table).slice(-45);
  for (let tries = 0; ; tries++) {
    const rated = form.quickRated && account.current() ? { rated: true } : {};
    const { table } = await api.quickPlay({ rules: formRules(), level, avoid, ...rated });
    try {
      return await api.quickSeat(table, name);
    } catch (err) {
      if (err.status !== 409 || tries >= 3) throw err;
      avoid.push(table);
    }
  }
}

/** The number of players (R1.1: 2 to 7); what else that allows is the engine's
 *  `only_with` (the partnerships box, R1.2). */
function playersLabel(sel, name) {
  return h(
    "label",
    {},
    t("Players"),
    sel(name, [2, 3, 4, 5, 6, 7].map((n) => [n, String(n)]), form.players, (v) => {
      form.players = Number(v);
      if (!allowed("partnerships")) form.partnerships = false;
      draw();
    }),
  );
}

/** Quick play: one button to a game with these rules (docs/web.md). The players and
 *  target here are the form's own, so both panels always agree. */
function quickPanel(nameInput, sel) {
  const go = h("button", { type: "button", class: "primary big", id: "quick-play" }, t("Play now"));
  go.addEventListener("click", async () => {
    const name = takeName(nameInput);
    if (!name) return;
    go.disabled = true;
    try {
      const r = await quickSeat(name);
      settings.saveToken(r.table, r.seat, r.token);
      settings.saveJoined(r.table, r.joined);
      window.pitchNavigate(`/t/${r.table}`);
    } catch (err) {
      toast(t("Could not find or start a table: {why}", { why: ratedRefusal(err) || apiError(err) }), "error");
      go.disabled = false;
    }
  });
  return h(
    "section",
    { class: "panel quick-play", "aria-labelledby": "quick-title" },
    h("h2", { id: "quick-title" }, t("Quick play")),
    h("p", { class: "muted" }, t("A seat at once: at a table with these rules where a bot keeps a seat for the next person, or at a new one with bots, open to others.")),
    h(
      "div",
      { class: "form-row" },
      playersLabel(sel, "quick-players"),
      h(
        "label",
        {},
        t("Bots"),
        sel("quick-level", levels.map(([v]) => [v, levelName(v)]), form.quickLevel || defaultLevel(), (v) => (form.quickLevel = v)),
      ),
      go,
    ),
    ratedChoice("quickRated", "quick-rated", t("Rated game")),
    h("p", { class: "muted small" }, t("The rules of the new table below (target, partnerships, house rules) apply too. Someone who joins takes over a bot's seat when the hand in play ends.")),
  );
}

/** The "Rated" box, for a signed-in player only (a guest has no rating). Which rules a
 *  rated table may have is the server's to say: it refuses others (ratedRefusal). */
function ratedChoice(key, id, label) {
  if (!account.current()) return null;
  return h(
    "label",
    { class: "check rated-choice" },
    h("input", { type: "checkbox", id, name: id, checked: form[key], onchange: (e) => (form[key] = e.target.checked) }),
    label,
  );
}

/** The server's `rated_rules` refusal in words: the rules that differ from the standard
 *  ones, by the labels of its own option list (else null: apiError's words). */
function ratedRefusal(err) {
  if (err?.code !== "rated_rules") return null;
  const keys = typeof err.body?.fields === "string" ? err.body.fields.split(/,\s*/) : [];
  const names = keys.map((k) => options.find((o) => o.key === k)).filter(Boolean).map((o) => serverText(o.label));
  if (!names.length) return null; // messages.js words it without the list
  return t("A rated table plays the standard rules; these differ: {rules}. Set them back, or untick Rated for a casual table.", { rules: names.join(", ") });
}

async function createAndSit(name) {
  const rules = formRules();
  const seats = form.seats.map((p) => (p.kind === "bot" ? { kind: "bot", bot: p.level } : { kind: "human" }));
  const info = await api.createTable({ rules, seats, options: tableOptions() });
  const claimed = await api.claim(info.id, 0, name);
  settings.saveToken(info.id, claimed.seat, claimed.token);
  window.pitchNavigate(`/t/${info.id}`);
}
