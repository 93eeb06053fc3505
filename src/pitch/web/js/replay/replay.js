// The replay viewer: step through any game record, from the server or an uploaded file.

import * as api from "../core/api.js";
import { cardEl, renderBoard } from "../table/board.js";
import { cardName, sortHand } from "../core/cards.js";
import { clear, h, toast } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { icon } from "../core/icons.js";
import { levelName } from "../core/levels.js";
import { apiError, refusalText, withRuleLinks } from "../core/messages.js";
import { finishedTables, statusText, when, who } from "../core/mytables.js";
import { accuracyTable, AnalysisError, chart, checkAnalysis, decisionNote, MARKS, markText, markedFrom, requestAnalysis } from "./analysis.js";
import { framesOf, isRule, MAX_GAMES, parseRecords, RecordError, verifyRecords, VerifyError } from "./record.js";
import * as settings from "../core/settings.js";
import { handSummary, scoreSheet, seatName, winnerText, sideName } from "../table/summary.js";

let games = [];
let game = null; // {rules, frames, names, sides}
let index = 0;
let viewer = 0;
let timer = 0;
let root = null;
let shown = new Set();
let checking = false; // a check by the server is under way
let refusal = null; // why the last file was refused (shown under the loader)
let ticket = 0; // the newest check; answers to older ones are dropped
let mine = null; // this browser's finished tables (My tables), to watch without a file
let sources = []; // the records as read (the file's, or the table's), sent for analysis
let analysis = null; // {status: "running"|"done"|"failed", done, total, data, error}
let analysisTicket = 0; // the newest analysis asked for; older answers are dropped
let analyseOnOpen = false; // the game-over panel's "Analyse this game"

/** Show the viewer in `main`; `records` is an optional list of games to open at once
 * (the table's record): they are checked by the server first, like any file. */
export function showReplay(main, records = null, options = {}) {
  root = main;
  analyseOnOpen = Boolean(options.analyse);
  stop();
  draw();
  const linked = location.hash.match(/^#replay-([a-z0-9]{1,32})$/); // a profile's game
  if (Array.isArray(records) && records.length) open(records, null);
  else if (linked) watch(linked[1]);
  else loadMine();
}

async function loadMine() {
  try {
    mine = await finishedTables();
  } catch {
    mine = []; // the file loader still works
  }
  if (root) draw();
}

/** The games this browser played to the end: a phone has no record file to open. */
function myGames() {
  if (!mine?.length) return null;
  const row = (r) =>
    h(
      "li",
      { dataset: { table: r.table } },
      h("span", { class: "my-table-text" }, h("b", { id: `my-game-${r.table}` }, who(r)), h("br"), h("span", { class: "muted" }, [statusText(r), when(r.updated_at)].filter(Boolean).join(" · "))),
      h("button", { type: "button", class: "primary", dataset: { action: "watch" }, "aria-describedby": `my-game-${r.table}`, onclick: () => watch(r.table) }, t("Watch the replay")),
    );
  return h("section", { class: "panel my-games", "aria-labelledby": "my-games-title" }, h("h2", { id: "my-games-title" }, t("Your finished games")), h("ul", { class: "open-seats my-tables-list" }, mine.map(row)));
}

async function watch(table) {
  try {
    await open([await api.record(table)], null);
  } catch (e) {
    refuse(t("Could not load the record: {why}", { why: apiError(e) }));
  }
}

function openGames(list, items) {
  games = list;
  sources = items; // no problems: the server's records are the file's, in its order
  openGame(0);
}

function openGame(i) {
  game = framesOf(games[i]);
  game.index = i;
  index = 0;
  viewer = 0;
  shown = new Set();
  analysis = null;
  analysisTicket++;
}

/** Ask the server to analyse the game shown; a progress bar while it runs. */
async function startAnalysis() {
  if (!game || !game.frames.length) return;
  const mine = ++analysisTicket;
  const shownGame = game;
  analysis = { status: "running", done: 0, total: 0 };
  lastAction = "analysis";
  draw();
  const progress = (done, total) => {
    if (mine !== analysisTicket) return;
    Object.assign(analysis, { done, total });
    const bar = root?.querySelector("#analysis-progress");
    if (bar) {
      bar.max = Math.max(1, total);
      bar.value = done;
      root.querySelector("#analysis-count").textContent = t("{done} of {total} decisions", { done, total });
    }
  };
  let next;
  try {
    const result = await requestAnalysis(sources[shownGame.index], progress, () => mine === analysisTicket && root !== null);
    if (result === null) return;
    next = { status: "done", data: checkAnalysis(result, shownGame) };
  } catch (e) {
    next = { status: "failed", error: e instanceof AnalysisError ? t("The analysis could not be read; try again.") : apiError(e) };
  }
  if (mine !== analysisTicket || !root) return;
  analysis = next;
  lastAction = next.status === "done" ? "chart" : "analyse";
  draw();
}

/** The analysis panel: the button, the progress bar, or the chart, the decision shown
 *  and the players' accuracy. */
function analysisPanel() {
  const box = h("section", { class: "panel analysis", id: "analysis", "aria-labelledby": "analysis-title" }, h("h2", { id: "analysis-title" }, t("Analysis")));
  if (!analysis || analysis.status === "failed") {
    if (analysis) box.append(h("p", { class: "record-problem", role: "alert" }, analysis.error));
    box.append(
      h("p", { class: "muted small" }, t("The strongest bot looks at every bid and card from that player's seat, and marks what cost the game the most.")),
      h("button", { type: "button", class: "primary", id: "analyse-game", dataset: { action: "analyse" }, onclick: startAnalysis }, t("Analyse this game")),
    );
    return box;
  }
  if (analysis.status === "running") {
    const { done, total } = analysis;
    box.append(
      h("label", { for: "analysis-progress", class: "small" }, t("Analysing the game…")),
      h("progress", { id: "analysis-progress", max: String(Math.max(1, total)), value: String(done) }),
      h("p", { class: "muted small", id: "analysis-count", "aria-live": "polite" }, total ? t("{done} of {total} decisions", { done, total }) : t("Waiting for the server…")),
    );
    return box;
  }
  const a = analysis.data;
  const sideLabel = (side) => sideName(game.sides, shortNames(), side);
  const seatLabel = (seat) => seatName(names(), seat);
  const jump = (dir) => {
    const to = markedFrom(a, index, dir);
    if (to !== null) go(to);
  };
  box.append(
    chart(a, game, index, (frame) => {
      lastAction = "chart";
      go(frame);
    }, sideLabel),
    decisionNote(a, index, seatLabel) ?? h("p", { class: "muted small decision-note" }, t("Step to a bid or a card to see what the bot thought of it.")),
    h(
      "p",
      { class: "mistake-jumps" },
      jumpButton(icon("prev"), t("Previous mistake"), () => jump(-1), "prev-mistake", "B"),
      jumpButton(icon("next"), t("Next mistake"), () => jump(1), "next-mistake", "N"),
      " ",
      h("span", { class: "muted small" }, Object.entries(MARKS).map(([m, sign]) => `${sign} ${markText(m)}`).join(" · ")),
    ),
    accuracyTable(a, seatLabel),
  );
  return box;
}

/** The message for a refused file: the first game that breaks a rule, the rule and
 *  where, in the reader's language; then the checker's own words, which are English
 *  (marked so), as text. */
function problemText(p) {
  const n = p.game + 1;
  const head = isRule(p.rule) ? t("Game {n} breaks rule {rule}.", { n, rule: p.rule }) : t("Game {n} is not a valid record.", { n });
  const hand = p.hand === null ? null : p.hand + 1;
  const trick = p.trick === null ? null : p.trick + 1;
  const where = hand === null ? null : trick === null ? t("Hand {hand}.", { hand }) : t("Hand {hand}, trick {trick}.", { hand, trick });
  // A refused bid or card in the reader's words (seats from 1, card names); any other
  // problem in the checker's English, which names the file's own values.
  if (p.refusal) return { text: [head, where].filter(Boolean).join(" "), detail: null, why: t("Seat {n}: {reason}", { n: p.seat + 1, reason: refusalText(p.refusal) }) };
  return { text: [head, where].filter(Boolean).join(" "), detail: p.message || null };
}

function serverText(e) {
  if (e.status === 413) return t("This file is too large to check.");
  if (e.status === 429) return t("Too many records checked: wait a minute and try again.");
  if (e.status === 0) return t("The server could not be reached to check this record.");
  if (e.status < 0) return t("The server gave an answer the viewer does not understand.");
  return t("The server could not check this record (error {status}).", { status: e.status });
}

/** Refuse a file: `why` is text, or {text, detail} (the detail stays under the loader). */
function refuse(why) {
  refusal = typeof why === "string" ? { text: why, detail: null } : why;
  draw();
  toast(refusal.text, "error");
}

/** Check `items` (parsed records) by the server and show only what it sends back. */
async function open(items, fileName) {
  const mine = ++ticket;
  checking = true;
  refusal = null;
  draw();
  let answer = null;
  let failure = null;
  try {
    answer = await verifyRecords(items);
  } catch (e) {
    if (!(e instanceof VerifyError)) throw e;
    failure = serverText(e);
  }
  if (mine !== ticket || !root) return; // a newer file was opened meanwhile
  checking = false;
  if (failure) return refuse(failure);
  if (answer.problems.length) return refuse(problemText(answer.problems[0]));
  stop();
  openGames(answer.records, items);
  draw();
  if (fileName) toast(t("Opened {file}.", { file: fileName }));
  if (analyseOnOpen) {
    analyseOnOpen = false;
    startAnalysis();
  }
}

async function readFile(file) {
  let items;
  try {
    items = parseRecords(await file.text());
  } catch (e) {
    if (!(e instanceof RecordError)) throw e;
    ticket++; // drop any check still under way
    checking = false;
    return refuse(
      e.key === "too-many" ? t("A file may hold at most {n} games.", { n: MAX_GAMES }) : t("This file is not a Pitch game record."),
    );
  }
  await open(items, file.name);
}

function loader() {
  const input = h("input", {
    type: "file",
    accept: ".json,.jsonl,application/json",
    id: "record-file",
    class: "file-input",
    onchange: (e) => e.target.files[0] && readFile(e.target.files[0]),
  });
  const box = h(
    "div",
    {
      class: "drop-zone",
      ondragover: (e) => {
        e.preventDefault();
        box.classList.add("over");
      },
      ondragleave: () => box.classList.remove("over"),
      ondrop: (e) => {
        e.preventDefault();
        box.classList.remove("over");
        if (e.dataTransfer.files[0]) readFile(e.dataTransfer.files[0]);
      },
    },
    h("label", { for: "record-file", class: "button" }, t("Open a record file")),
    input,
    h("span", { class: "hint-text" }, t("or drop a .json / .jsonl file here")),
  );
  return box;
}

/** The players' names in the reader's language. A record names bots language-neutrally
 *  (server live.py `names`: "Bot 2 (club)", "Tess, then Bot 2 (club)", "Bot 2 (club),
 *  then Ann"); a player's own name is shown as it is. */
/** Who resigned, ending the game (a record's `resigned`), or null. */
function resignedText() {
  const seat = game.resigned;
  return seat === null || seat === undefined ? null : t("{name} resigned. The game ended with no winner.", { name: seatName(names(), seat) });
}

function names() {
  return game.names && game.names.map((raw) => recordName(raw, true)); // a record may name nobody
}

/** The same without the bots' levels ("Bot 2, then Ann"): for the seats on the felt and
 *  the score sheet's columns, where a long name is cut or squeezed. */
function shortNames() {
  return game.names && game.names.map((raw) => recordName(raw, false));
}

const BOT_NAME = /^Bot (\d{1,2}) \(([^()]*)\)$/;

function recordName(raw, level) {
  if (typeof raw !== "string") return raw;
  const bot = (x) => {
    const m = BOT_NAME.exec(x);
    if (!m) return x;
    const name = t("Bot {n}", { n: Number(m[1]) });
    return level ? `${name} (${levelName(m[2])})` : name;
  };
  const parts = raw.split(", then ");
  if (parts.length === 2) {
    const [first, second] = parts.map(bot);
    if (first !== parts[0] || second !== parts[1]) return t("{first}, then {second}", { first, second });
  }
  return bot(raw);
}

function describe(f) {
  const name = (s) => seatName(names(), s);
  switch (f.kind) {
    case "deal":
      return t("Hand {n}: {name} deals.", { n: f.hand + 1, name: name(f.dealer) });
    case "bid":
      return f.value === 0
        ? t("{name} passes.", { name: name(f.seat) })
        : t("{name} bids {n}.", { name: name(f.seat), n: f.value });
    case "play":
      return t("{name} plays {card}.", { name: name(f.seat), card: cardName(f.card) });
    case "trick":
      return t("{name} wins the trick.", { name: name(f.winner) });
    case "result":
      return t("Hand {n} is over.", { n: f.hand + 1 });
    default:
      return (f.winner === null && resignedText()) || winnerText(game.sides, names(), f.winner);
  }
}

function draw() {
  clear(root);
  root.append(h("h1", {}, t("Replay")), loader());
  if (checking) root.append(h("p", { class: "record-status", role: "status" }, t("Checking the record…")));
  if (refusal) {
    // The engine's English detail is marked as English; a refused bid or card is worded here.
    const detail = refusal.why
      ? [h("br"), h("span", { class: "problem-detail muted" }, withRuleLinks(refusal.why))]
      : refusal.detail
        ? [h("br"), h("span", { class: "problem-detail muted" }, t("Details:"), " ", h("span", { lang: "en" }, refusal.detail))]
        : [];
    root.append(h("p", { class: "record-problem", role: "alert" }, withRuleLinks(refusal.text), ...detail));
  }
  if (!game) {
    root.append(h("p", { class: "empty" }, t("Open a game record to watch it move by move.")));
    const list = myGames();
    if (list) root.append(list);
    return;
  }
  if (!game.frames.length) {
    // A game resigned in its first hand: a record holds finished hands only.
    const why = resignedText();
    root.append(h("p", { class: "empty", id: "nothing-to-replay" }, why ? `${why} ` : "", t("No hand of this game was finished: there is nothing to replay.")));
    return;
  }
  const f = game.frames[index];
  const n = game.rules.players;
  const controls = h(
    "div",
    { class: "replay-controls", role: "toolbar", "aria-label": t("Replay controls") },
    button(icon("first"), t("First move"), () => go(0), "first"),
    button(icon("prevHand"), t("Previous hand"), () => go(handStart(f.hand - 1)), "prev-hand"),
    button(icon("prev"), t("Previous move"), () => go(index - 1), "prev"),
    button(icon(timer ? "pause" : "play"), timer ? t("Pause") : t("Play"), toggle, "play"),
    button(icon("next"), t("Next move"), () => go(index + 1), "next"),
    button(icon("nextHand"), t("Next hand"), () => go(handStart(f.hand + 1)), "next-hand"),
    button(icon("last"), t("Last move"), () => go(game.frames.length - 1), "last"),
  );
  const seatPick = h(
    "select",
    {
      "aria-label": t("Seat at the bottom"),
      id: "replay-seat",
      onchange: (e) => {
        viewer = Number(e.target.value);
        draw();
      },
    },
    Array.from({ length: n }, (_, s) =>
      h("option", { value: String(s), selected: s === viewer }, seatName(names(), s)),
    ),
  );
  const gamePick =
    games.length > 1
      ? h(
          "select",
          {
            "aria-label": t("Game"),
            onchange: (e) => {
              openGame(Number(e.target.value));
              draw();
            },
          },
          games.map((_, i) =>
            h("option", { value: String(i), selected: i === game.index }, t("Game {n}", { n: i + 1 })),
          ),
        )
      : null;
  const marked = analysis?.status === "done" ? analysis.data.byFrame.get(index)?.mark : null;
  const where = h(
    "p",
    { class: "replay-where", "aria-live": "polite" },
    h("span", { class: "step" }, t("Move {i} of {n}", { i: index + 1, n: game.frames.length })),
    " · ",
    h("span", { class: "event" }, describe(f)),
    marked ? [" ", h("b", { class: `mark mark-${marked}`, title: markText(marked) }, MARKS[marked]), h("span", { class: "sr-only" }, ` ${markText(marked)}`)] : null,
  );
  const board = h("div", { class: "board" });
  const open = f.hands.map((cards) => sortHand(cards, f.trump));
  shown = renderBoard(
    board,
    {
      rules: game.rules,
      names: shortNames(),
      me: viewer,
      dealer: f.dealer,
      pitcher: f.pitcher,
      contract: f.pitcher !== null ? f.bid : null,
      trump: f.trump,
      bids: f.bids,
      trick: f.trick,
      turn: null,
      handSizes: f.hands.map((x) => x.length),
      openHands: open,
    },
    shown,
  );
  const myHand = h(
    "div",
    { class: "hand replay-hand", role: "group", "aria-label": t("Cards of {name}", { name: seatName(names(), viewer) }) },
    open[viewer].map((c) => cardEl(c)),
  );
  const side = h("aside", { class: "side-panel" });
  if (f.result) side.append(handSummary(game.sides, names(), f.result, f.hand + 1));
  if (f.kind === "over")
    side.prepend(h("p", { class: "winner-line" }, (f.winner === null && resignedText()) || winnerText(game.sides, names(), f.winner)));
  const results = game.frames.filter((x) => x.kind === "result" && x.hand <= f.hand && (x.hand < f.hand || f.result));
  side.append(scoreSheet(game.sides, shortNames(), results.map((x) => x.result)));
  const scoreNow = h(
    "ul",
    { class: "score-line current" },
    f.scores.map((s, side2) =>
      h("li", {}, h("span", { class: "who" }, sideName(game.sides, names(), side2)), h("b", {}, String(s))),
    ),
  );
  root.append(
    h("div", { class: "replay-bar" }, controls, seatPick, gamePick),
    where,
    h("div", { class: "table-layout" }, h("div", { class: "board-wrap replay-board" }, board, myHand), h("div", { class: "replay-side" }, analysisPanel(), scoreNow, side)),
  );
  const list = myGames(); // another of them, below the one being watched
  if (list) root.append(list);
  root.querySelector(`[data-action="${lastAction}"]`)?.focus();
}

let lastAction = "next";
/** A labelled button (a phone has no N and B keys); the key is on it for the rest. */
function jumpButton(sym, label, fn, key, shortcut) {
  const onclick = () => {
    lastAction = key;
    fn();
  };
  return h("button", { type: "button", class: "jump-button", "aria-keyshortcuts": shortcut, dataset: { action: key }, onclick }, sym, h("span", {}, label));
}
function button(sym, label, fn, key, shortcut = null) {
  return h(
    "button",
    {
      type: "button",
      class: "icon-button",
      "aria-label": label,
      "aria-keyshortcuts": shortcut,
      title: label,
      dataset: { action: key },
      onclick: () => {
        lastAction = key;
        fn();
      },
    },
    sym,
  );
}

function handStart(hand) {
  const i = game.frames.findIndex((x) => x.hand === hand && x.kind === "deal");
  return i < 0 ? (hand < 0 ? 0 : game.frames.length - 1) : i;
}

function go(i) {
  index = Math.max(0, Math.min(game.frames.length - 1, i));
  if (index === game.frames.length - 1) stop();
  draw();
}

function toggle() {
  if (timer) stop();
  else {
    timer = setInterval(() => go(index + 1), Math.max(150, settings.duration(700)));
  }
  draw();
}

function stop() {
  clearInterval(timer);
  timer = 0;
}

/** Keyboard: arrows step, Page Up/Down jump a hand, Home/End, space plays; once the
 *  game is analysed, N and B jump to the next and the previous marked decision. */
export function replayKey(e) {
  if (!game || !game.frames.length || e.target.closest?.("input, select, textarea")) return false;
  const f = game.frames[index];
  const a = analysis?.status === "done" ? analysis.data : null;
  const mark = (dir) => () => {
    const to = a && markedFrom(a, index, dir);
    if (to !== null && to !== undefined) go(to);
  };
  const keys = {
    n: mark(1),
    N: mark(1),
    b: mark(-1),
    B: mark(-1),
    ArrowRight: () => go(index + 1),
    ArrowLeft: () => go(index - 1),
    PageDown: () => go(handStart(f.hand + 1)),
    PageUp: () => go(handStart(f.hand - 1)),
    Home: () => go(0),
    End: () => go(game.frames.length - 1),
  };
  if (!keys[e.key]) return false;
  keys[e.key]();
  return true;
}

export function stopReplay() {
  stop();
}

export function leave() {
  stop();
  analysisTicket++; // an analysis still polled stops
  ticket++; // a check still under way must not draw over the next page
  checking = false;
  root = null;
}

export function redraw() {
  if (root) draw();
}
