// Table chat (docs/server.md, `chat`): a few quick phrases (the server's list,
// translated here) and, where the table allows it, short free text; mute hides the
// others' lines. Every line is shown as text: names and words are never markup.

import * as account from "../core/account.js";
import * as api from "../core/api.js";
import { announce, clear, h } from "../core/dom.js";
import { current, t } from "../core/i18n.js";
import { icon } from "../core/icons.js";
import { openReport } from "../core/social.js";

const MUTE = "pitch.chat.muted";

/** The server's phrases (GET /api/chat) in this language; one the client does not know
 * yet is shown as the server wrote it. */
const SAY = () => ({
  "Hello!": t("Hello!"),
  "Good luck!": t("Good luck!"),
  "Nice play!": t("Nice play!"),
  "Well bid!": t("Well bid!"),
  "Oops!": t("Oops!"),
  "Thanks!": t("Thanks!"),
  "Sorry!": t("Sorry!"),
  "Good game!": t("Good game!"),
});
const say = (p) => SAY()[p] ?? p;
const KEEP = 50;

const C = { table: null, phrases: [], maxText: 200, lines: [], box: null, log: null, send: null, me: null, lang: null };

/** Start a table's chat: its lines are dropped and the phrase list fetched once. */
export function resetChat(table, send) {
  Object.assign(C, { table, lines: [], box: null, log: null, send, me: null });
  if (!C.phrases.length) {
    api
      .chat()
      .then((c) => {
        if (Array.isArray(c?.phrases)) C.phrases = c.phrases.filter((p) => typeof p === "string").slice(0, 50);
        if (Number.isInteger(c?.max_text)) C.maxText = Math.min(1000, Math.max(1, c.max_text));
        if (C.box) fill();
      })
      .catch(() => {});
  }
}

function muted() {
  try {
    return localStorage.getItem(MUTE) === "1";
  } catch {
    return false;
  }
}

/** A `chat` or `chat_history` message from the server. */
export function receiveChat(m, mySeat) {
  C.me = mySeat;
  const add = (l) => {
    if (!l || !Number.isInteger(l.n) || C.lines.some((x) => x.n === l.n)) return;
    const seat = Number.isInteger(l.seat) ? l.seat : null;
    const name = typeof l.name === "string" ? l.name.slice(0, 64) : null;
    const phrase = Number.isInteger(l.phrase) ? l.phrase : null;
    const text = typeof l.text === "string" ? l.text.slice(0, 1000) : null;
    if (phrase === null && text === null) return;
    C.lines.push({ n: l.n, seat, name, phrase, text });
  };
  if (m.type === "chat_history" && Array.isArray(m.lines)) m.lines.forEach(add);
  else add(m);
  C.lines.sort((a, b) => a.n - b.n);
  C.lines = C.lines.slice(-KEEP);
  const last = C.lines[C.lines.length - 1];
  if (m.type === "chat" && last && last.seat !== mySeat && !muted()) announce(lineText(last));
  if (C.log) drawLog();
}

function lineWords(l) {
  if (l.phrase !== null) return C.phrases[l.phrase] ? say(C.phrases[l.phrase]) : "…";
  return l.text;
}

function lineText(l) {
  return `${l.name || t("Spectator")}: ${lineWords(l)}`;
}

function drawLog() {
  clear(C.log);
  const hide = muted();
  let hidden = 0;
  for (const l of C.lines) {
    if (hide && l.seat !== C.me) {
      hidden++;
      continue;
    }
    C.log.append(h("li", { class: l.seat === C.me ? "mine" : "" }, h("b", {}, l.name || t("Spectator")), " ", lineWords(l), reportButton(l)));
  }
  if (hidden) C.log.append(h("li", { class: "muted-note" }, t("Lines muted: {n}", { n: hidden })));
  C.log.scrollTop = C.log.scrollHeight;
}

/** Report another player's line (signed in only): the dialog sends the name, the table
 *  and the line as the server wrote it (a quick phrase in its English words). */
function reportButton(l) {
  if (!account.current() || l.seat === C.me || l.seat === null || !l.name) return null;
  const words = l.phrase !== null ? C.phrases[l.phrase] ?? null : l.text;
  if (!words) return null;
  return h(
    "button",
    {
      type: "button",
      class: "icon-button report-line",
      dataset: { n: String(l.n) },
      "aria-label": t("Report this line by {name}", { name: l.name }),
      title: t("Report this line by {name}", { name: l.name }),
      onclick: (e) => openReport({ name: l.name, table: C.table, chat: words, opener: e.currentTarget }),
    },
    icon("flag", "0.9em"),
  );
}

function fill() {
  // Drawn again in a new language: a half-typed line and its focus are kept.
  const old = C.box.querySelector("#chat-text");
  const typed = old?.value ?? "";
  const focused = old !== null && old === document.activeElement;
  C.lang = current();
  clear(C.box);
  const mute = h(
    "button",
    {
      type: "button",
      id: "chat-mute",
      class: "small",
      "aria-pressed": muted() ? "true" : "false",
      onclick: () => {
        try {
          localStorage.setItem(MUTE, muted() ? "0" : "1");
        } catch {
          // no storage: mute cannot be kept
        }
        fill();
      },
    },
    muted() ? t("Unmute chat") : t("Mute chat"),
  );
  // A tab stop: the log scrolls once it is long, and the keyboard must reach it too.
  C.log = h("ol", { class: "chat-log", id: "chat-log", "aria-label": t("Chat"), tabindex: "0" });
  const quick = h(
    "div",
    { class: "chat-phrases", id: "chat-phrases" },
    C.phrases.map((p, i) => h("button", { type: "button", class: "small", dataset: { phrase: String(i) }, onclick: () => C.send({ phrase: i }) }, say(p))),
  );
  const input = h("input", { type: "text", id: "chat-text", maxlength: String(C.maxText), "aria-label": t("Message"), placeholder: t("Message"), autocomplete: "off" });
  const form = h(
    "form",
    {
      class: "chat-form",
      onsubmit: (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (text) C.send({ text });
        input.value = "";
      },
    },
    input,
    h("button", { type: "submit", id: "chat-send" }, t("Send")),
  );
  C.box.append(h("div", { class: "chat-head" }, h("h2", {}, t("Chat")), mute), C.log, quick, form);
  input.value = typed;
  if (focused) input.focus();
  drawLog();
}

/** The chat panel: one element per table, kept across redraws (so a half-typed line
 * and its focus survive the state updates). `canWrite`: a seated player. */
export function chatPanel(canWrite, freeText) {
  if (!C.box) {
    C.box = h("section", { class: "panel chat", id: "chat" });
    fill();
  } else if (C.lang !== current()) fill(); // the player switched language
  C.box.classList.toggle("read-only", !canWrite);
  C.box.classList.toggle("phrases-only", !freeText);
  return C.box;
}
