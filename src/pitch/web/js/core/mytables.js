// "My tables" in the lobby: the tables this browser holds a seat at (the seat tokens it
// keeps in localStorage, pitch.token.<table>), as the server lists them (POST
// /api/my/tables): resume or leave a table, resign a game, replay or download one over.

import * as api from "./api.js";
import { clear, h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { apiError } from "./messages.js";

const TOKEN = "pitch.token.";
const SEAT = "pitch.seat.";
const BATCH = 50; // the most seats one request may ask about

/** Every seat token this browser keeps: [{table, token}]. */
export function heldSeats() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key?.startsWith(TOKEN)) continue;
      const table = key.slice(TOKEN.length);
      const token = localStorage.getItem(key);
      if (/^[a-z0-9]{1,32}$/.test(table) && token && token.length <= 64) out.push({ table, token });
    }
  } catch {
    // No storage: no tables to list.
  }
  return out;
}

/** Forget this browser's seat at a table (its token is spent or the table is gone). */
export function forget(table) {
  try {
    localStorage.removeItem(TOKEN + table);
    localStorage.removeItem(SEAT + table);
  } catch {
    // Nothing kept, nothing to forget.
  }
}

/** The server's list for every kept token, newest first; tokens that hold no seat any
 * more (the table was left or is gone) are forgotten. Throws if the server cannot say. */
async function load() {
  const held = heldSeats();
  const rows = [];
  for (let i = 0; i < held.length; i += BATCH) rows.push(...(await api.myTables(held.slice(i, i + BATCH))));
  const found = new Set(rows.map((r) => r.table));
  for (const s of held) if (!found.has(s.table)) forget(s.table);
  rows.sort((a, b) => String(b.updated_at).localeCompare(String(a.updated_at)));
  return rows;
}

/** This browser's finished tables, newest first (the replay page lists them). */
export async function finishedTables() {
  return heldSeats().length ? (await load()).filter((r) => r.status === "over") : [];
}

let box = null; // the panel, while the lobby shows it
let rows = null; // the last list the server gave

/** The "My tables" panel: empty (and hidden) until the list is in, and while there is
 * none. Call refresh() to (re)load it. */
export function myTablesPanel() {
  box = h("section", { class: "panel my-tables", id: "my-tables", "aria-labelledby": "my-tables-title" });
  box.hidden = true;
  if (rows) draw();
  return box;
}

export async function refresh() {
  if (!heldSeats().length) {
    rows = [];
    if (box) draw();
    return;
  }
  try {
    rows = await load();
  } catch (e) {
    if (box) {
      box.hidden = false;
      clear(box);
      box.append(title(), h("p", { class: "muted" }, t("Could not load your tables: {why}", { why: apiError(e) })));
    }
    return;
  }
  if (box) draw();
}

function title() {
  return h("h2", { id: "my-tables-title" }, t("My tables"));
}

export function statusText(r) {
  if (r.status === "waiting") return t("Waiting for players");
  if (r.status === "playing") return t("In play");
  // won: this seat's side won (null when the game stopped at the hand limit, no winner).
  if (r.won === true) return t("Finished: you won");
  if (r.won === false) return t("Finished: you lost");
  return t("Finished");
}

export function when(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const same = d.toDateString() === new Date().toDateString();
  return same ? d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : d.toLocaleDateString();
}

/** The players' names as the table shows them: a seat without a name is a bot's once
 * the game is under way ("Bot 2"); while waiting it may be an open seat (not named). */
export function who(r) {
  const named = (n) => typeof n === "string" && n;
  const names = (r.names || [])
    .map((n, i) => (named(n) ? n : r.status === "waiting" ? null : t("Bot {n}", { n: i + 1 })))
    .filter(Boolean);
  return names.length ? names.join(", ") : t("Table {id}", { id: r.table });
}

function draw() {
  clear(box);
  box.hidden = !rows.length;
  if (!rows.length) return;
  const list = h("ul", { class: "open-seats my-tables-list" });
  for (const r of rows) list.append(row(r));
  box.append(title(), list);
}

function row(r) {
  // Every row has the same buttons: each names its table to a screen reader.
  const whoId = `my-table-${r.table}`;
  const button = (action, label, onclick) => h("button", { type: "button", dataset: { action }, "aria-describedby": whoId, onclick }, label);
  const open = h("a", { class: "button primary", href: `/t/${r.table}`, dataset: { action: "open" }, "aria-describedby": whoId }, r.status === "over" ? t("Show") : t("Resume"));
  const actions = [open];
  if (r.status === "waiting") actions.push(button("leave", t("Leave"), () => leave(r, t("Leave this table? Your seat is open again for someone else."))));
  if (r.status === "playing") actions.push(button("resign", t("Resign"), () => leave(r, resignQuestion(r))));
  if (r.status === "over") {
    actions.push(button("replay", t("Watch the replay"), () => watchReplay(r.table)));
    actions.push(h("a", { class: "button", href: api.recordUrl(r.table), download: `pitch-${r.table}.json`, dataset: { action: "download" }, "aria-describedby": whoId }, t("Download the record")));
    actions.push(button("forget", t("Remove from the list"), () => {
      forget(r.table);
      rows = rows.filter((x) => x.table !== r.table);
      draw();
    }));
  }
  return h(
    "li",
    { dataset: { table: r.table, status: r.status }, style: { flexWrap: "wrap" } },
    h(
      "span",
      { class: "my-table-text" },
      h("b", { id: whoId }, who(r)),
      h("br"),
      h("span", { class: "muted" }, [statusText(r), t("Seat {n}", { n: r.seat + 1 }), when(r.updated_at)].filter(Boolean).join(" · ")),
    ),
    h("span", { class: "invite" }, actions),
  );
}

/** What resigning does there: where no one else holds a seat (the server's `held`;
 *  a player who resigned earlier is still named, but holds none), the game ends (kept,
 *  over); else a bot plays the seat on. */
function resignQuestion(r) {
  const alone = (r.held || []).every((seat) => seat === r.seat);
  return alone ? t("Resign this game? It ends here with no winner; its record and replay are kept.") : t("Resign this game? A bot plays your seat to the end.");
}

async function leave(r, question) {
  if (await leaveTable(r.table, r.status === "playing", question)) await refresh();
}

/** Leave (or, in a game under way, resign) this browser's seat at `table` once the
 *  player confirms `question`: false if they did not, else the server's answer
 *  (`{status}`, `{}` if the seat or table was gone already). A resignation that ended
 *  the game (the last player at a table of bots: status "over") keeps the seat's token:
 *  the finished game stays theirs, listed here, with its replay and record. */
export async function leaveTable(table, playing, question) {
  if (!window.confirm(question)) return false;
  const token = heldSeats().find((s) => s.table === table)?.token;
  let answer = {};
  try {
    if (token) answer = (await api.leave(table, token)) || {};
  } catch (e) {
    if (e.status !== 403 && e.status !== 404) {
      toast(t("Could not leave the table: {why}", { why: apiError(e) }), "error");
      return false;
    }
  }
  if (answer.status === "over") {
    toast(t("You resigned; the game is over."));
    return answer;
  }
  forget(table);
  toast(playing ? t("You resigned; a bot plays your seat.") : t("You left the table."));
  return answer;
}

/** Open a finished table's game in the replay (My tables, the game-over panel, and an
 *  invite link opened after the game). */
export async function watchReplay(table, analyse = false) {
  try {
    const rec = await api.record(table);
    window.pitchNavigate("/#replay", { records: [rec], analyse });
  } catch (e) {
    toast(t("Could not load the record: {why}", { why: apiError(e) }), "error");
  }
}
