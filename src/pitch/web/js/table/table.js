// A live table: join or claim a seat, then play over the table socket (docs/server.md).

import * as api from "../core/api.js";
import { bidText, cardEl, renderBoard } from "./board.js";
import { cardName, sortHand, suitName } from "../core/cards.js";
import { announce, append, clear, dismissError, dismissToast, h, toast } from "../core/dom.js";
import { icon } from "../core/icons.js";
import { serverText, t } from "../core/i18n.js";
import { apiError, refusalText, serverError, withRuleLinks } from "../core/messages.js";
import * as settings from "../core/settings.js";
import * as sound from "../core/sound.js";
import { handSummary, scoreSheet, seatName, sideName, sideOfSeat, winnerText } from "./summary.js";
import { joinView, waitingPanel } from "../core/seating.js";
import { leaveTable, watchReplay } from "../core/mytables.js";
import { chatPanel, receiveChat, resetChat } from "./chat.js";
import { inviteButton } from "../core/social.js";
import { walkthrough } from "./walkthrough.js";

const S = {
  id: null,
  info: null,
  msg: null, // last "state" message
  seat: null,
  ws: null,
  results: {}, // hand number -> last_hand, as they arrive
  shownTrick: null, // {trick, until} a finished trick kept on screen for a moment
  pendingPitch: null,
  selected: null,
  hint: null,
  seen: new Set(),
  timerNote: null, // {seat, text}: the turn timer's last move, shown until that seat moves again
  closed: false,
  blocked: false, // the code the server refused this socket with (too many tables open...), or false
};
let root = null;
let retry = 0;
let clockOffset = 0; // server clock minus this browser's, in seconds (from "welcome")
let ticker = 0;

export async function showTable(main, id) {
  root = main;
  Object.assign(S, { id, info: null, msg: null, seat: null, waiting: null, results: {}, shownTrick: null, pendingPitch: null, selected: null, hint: null, timerNote: null, closed: false, blocked: false, focusedOnce: false, menuOpen: false, ratings: null, ratingsAsked: false });
  window.pitchTable = S; // the tests read results from here
  resetChat(id, (line) => send({ type: "chat", ...line }));
  let info;
  try {
    if (!/^[a-z0-9]{1,32}$/.test(id)) throw new api.ApiError(404, {}); // no table has it
    info = await api.table(id);
  } catch (e) {
    if (S.closed || S.id !== id) return; // the player went elsewhere meanwhile
    const missing = e.status === 404;
    const heading = missing ? t("Table not found") : t("The table could not be opened");
    const why = missing ? serverError("no_table") : apiError(e);
    clear(root).append(h("h1", {}, heading), h("p", {}, why), h("a", { href: "/", class: "button" }, t("Back to the lobby")));
    return;
  }
  if (S.closed || S.id !== id) return; // left before the table answered: draw nothing
  S.info = info;
  if (settings.token(id)) connect();
  else draw();
}

/** The table's seats again, for the join view (no socket yet tells us of changes). */
async function rereadTable() {
  const id = S.id;
  try {
    const info = await api.table(id);
    if (S.closed || S.id !== id || S.ws) return;
    S.info = info;
    draw();
  } catch {
    // The refusal is shown already; the view stays as it was.
  }
}

export function leave() {
  S.closed = true;
  S.ws?.close();
  dismissToast("table");
}

export function redraw() {
  // The language may have changed: words already on the table are said again in it.
  for (const note of [S.hint, S.timerNote]) if (note?.say) Object.assign(note, note.say());
  draw();
}

export function connect(spectate = false) {
  S.ws?.close();
  const ws = new WebSocket(api.socketUrl(S.id));
  S.ws = ws;
  ws.onopen = () => {
    retry = 0;
    const tok = settings.token(S.id);
    ws.send(JSON.stringify(spectate || !tok ? { type: "spectate" } : { type: "auth", token: tok }));
  };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => {
    if (S.closed || S.ws !== ws) return;
    // Reconnect with backoff; the server keeps the seat during the grace period.
    // Refused for too many open tables: try now and then, until the player closes one.
    retry = Math.min(retry + 1, 6);
    setTimeout(() => !S.closed && S.ws === ws && connect(spectate), S.blocked ? 5000 : 300 * 2 ** retry);
  };
}

/** Refusals of this browser's socket that pass when it closes something or waits a
 *  minute: the page says so and tries again every 5 s. */
const BLOCKED = new Set(["too_many_tables", "too_many_spectators", "too_many_requests"]);

function send(obj) {
  if (S.ws?.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(obj));
}

function act(action) {
  // One move a state: a double click or a key held down would send the second for a
  // state the first has changed, and the server's "stale" refusal read as an error.
  if (S.msg && S.actedSeq === S.msg.seq) return;
  S.actedSeq = S.msg?.seq;
  sound.click();
  send({ type: "action", action, seq: S.msg?.seq });
}

function onMessage(m) {
  if (m.type === "welcome") {
    // "waiting": a quick-play seat whose bot plays the hand out; watch until it is ours.
    const was = S.waiting;
    S.waiting = m.role === "waiting" ? m.seat : null;
    S.seat = m.role === "waiting" ? null : m.seat;
    S.blocked = false;
    if (was !== null && was !== undefined && S.seat === was) announce(t("The seat is yours now: your turn comes with the new hand."));
    if (typeof m.server_time === "number") clockOffset = m.server_time - Date.now() / 1000;
  } else if (m.type === "hint") {
    onHint(m);
  } else if (m.type === "error") {
    if (m.code === "hint_busy") return;
    S.actedSeq = null; // a refused move may be made again (another, or once the server can)
    if (BLOCKED.has(m.code)) {
      if (!S.blocked && S.msg) refuse(serverError(m.code)); // once, over the table shown
      S.blocked = m.code;
      return draw();
    }
    if (m.code === "hint_failed" && S.hint?.pending) {
      S.hint = said(() => ({ text: t("No hint could be worked out in time; try again.") }));
      return draw();
    }
    if (m.code === "bad_token") {
      localStorage.removeItem(`pitch.token.${S.id}`);
      S.ws.close();
      S.ws = null;
      draw();
    }
    refuse(serverError(m.code, m));
  } else if (m.type === "state") {
    onState(m);
  } else if (m.type === "chat" || m.type === "chat_history") {
    receiveChat(m, S.seat);
  }
}

function onState(m) {
  const prev = S.msg;
  S.msg = m;
  S.info = { ...S.info, seats: m.seats, status: m.status };
  const g = m.game;
  const pg = prev?.game;
  if (g?.last_hand) S.results[g.hands_played] = g.last_hand;
  if (g && g.hands_played > Object.keys(S.results).length) fillResults();
  if (g && pg) {
    // A finished trick disappears from the state at once; keep it visible a moment.
    let done = null;
    // The hand's last trick ends the hand: it is then last_trick, with the engine's winner.
    if (g.tricks.length > pg.tricks.length || (g.hands_played > pg.hands_played && pg.trick)) done = g.last_trick;
    if (done) {
      S.shownTrick = { trick: done, trump: pg.trump || g.trump, hand: pg.hand_number, until: Date.now() + settings.duration(1200) };
      setTimeout(draw, settings.duration(1200) + 20);
      sound.trick();
    }
    // One sentence for a screen reader per state: the move, the trick's winner, your turn.
    const said = [];
    if (m.last && m.last.seat !== S.seat) {
      const text = m.last.text;
      said.push(/^[2-9TJQKA]/i.test(text) ? t("{name} plays {card}.", { name: name(m.last.seat), card: cardName(text) }) : text === "pass" ? t("{name} passes.", { name: name(m.last.seat) }) : t("{name} bids {n}.", { name: name(m.last.seat), n: text.split(" ")[1] }));
      if (/^[2-9TJQKA]/i.test(text)) sound.card();
    }
    if (done && Number.isInteger(done.winner)) said.push(t("{name} won the trick.", { name: name(done.winner) }));
    if (g.hands_played > pg.hands_played && g.last_hand) toast(handResultText(g, g.last_hand), "info", "table");
    madeFor(m, prev);
    if (g.turn === S.seat && pg.turn !== S.seat) {
      sound.turn();
      if (!over(g)) said.push(g.phase === "bid" ? t("Your turn to bid.") : t("Your turn: play a card."));
    }
    if (said.length) announce(said.join(" "));
    if (g.winner !== null && pg.winner === null) sound.win();
  }
  // A hint is for one state: drop it when the turn passes or the game moves on (the
  // dealer who wins the bid leads next, still their turn).
  if (g && (g.turn !== S.seat || (prev && m.seq !== prev.seq))) S.hint = null;
  // So is a card picked to pitch (a bid of 4 with it): not after another bid.
  if (g && (g.turn !== S.seat || g.phase !== "bid")) S.selected = null;
  // A refusal is about the move it refused: gone once a move is made.
  if (prev && m.seq !== prev.seq) dismissError();
  if (S.pendingPitch && g?.phase === "play" && g.turn === S.seat && !g.trick?.cards?.length && g.legal.includes(S.pendingPitch)) {
    const c = S.pendingPitch;
    S.pendingPitch = null;
    act(c);
  }
  draw();
}

/** The end-of-hand line: the points the pitcher's side scored, as the hand summary shows. */
function handResultText(g, r) {
  if (r.thrown_in) return t("Everyone passed: the cards are dealt again.");
  const points = r.delta?.[sideOfSeat(g.sides, r.pitcher)]; // the engine's, made or set back
  const who = seatName(namesAt(g.hands_played), r.pitcher); // a stranger may sit there now
  return r.made ? t("{name} made the bid ({sign}{n}).", { name: who, sign: "+", n: points }) : t("{name} was set back ({n}).", { name: who, n: points });
}

/** Say so when a move was made for a player: the turn timer ran out, or a stand-in bot
 * plays for someone who is away (`last.by`, `seats[].substituted`, docs/server.md). */
function madeFor(m, prev) {
  const last = m.last;
  if (last && m.seq !== prev?.seq) {
    if (last.by === "timer") {
      S.timerNote = { seat: last.seat, ...said(() => ({ text: timerText(last) })) };
      announce(S.timerNote.text); // shown in #notices: a toast would cover it
    } else if (S.timerNote?.seat === last.seat) S.timerNote = null;
  }
  for (const s of m.seats) {
    const before = prev?.seats?.[s.seat];
    if (s.substituted && !before?.substituted) {
      announce(standInText(s.seat));
    }
    if (before?.kind === "bot" && s.kind === "human" && s.seat !== S.seat) {
      announce(t("{name} takes over seat {n} from the bot.", { name: s.name, n: s.seat + 1 }));
    }
  }
}

function arrivingText(s) {
  if (s.seat === S.waiting && settings.joined(S.id) === "mid-hand") return t("You joined in mid-hand: you take seat {n}, with its score, when this hand ends; a bot plays it until then.", { n: s.seat + 1 });
  if (s.seat === S.waiting) return t("You take seat {n}, with its score, when this hand ends; a bot plays it until then.", { n: s.seat + 1 });
  return t("{name} takes seat {n} when this hand ends.", { name: s.arriving, n: s.seat + 1 });
}

function timerText(last) {
  const you = last.seat === S.seat;
  const card = /^[2-9TJQKA]/i.test(last.text);
  if (card) return you ? t("Time ran out: a bot played {card} for you.", { card: cardName(last.text) }) : t("Time ran out: a bot played {card} for {name}.", { card: cardName(last.text), name: name(last.seat) });
  const bid = bidText(last.text === "pass" ? 0 : Number(last.text.split(" ")[1]));
  return you ? t("Time ran out: a bot chose {bid} for you.", { bid }) : t("Time ran out: a bot chose {bid} for {name}.", { bid, name: name(last.seat) });
}

function standInText(seat) {
  return t("A bot is playing for {name} while they are away.", { name: name(seat) });
}

/** The notices of moves made for players, kept on screen (a toast only flashes). */
function notices() {
  const items = [];
  if (S.timerNote) items.push(h("li", { class: "notice timer", dataset: { seat: String(S.timerNote.seat) } }, S.timerNote.text));
  const mine = S.msg.seats[S.seat];
  const n = S.seat + 1;
  // A newcomer seated in a game under way: the score they start from is the bot's; quick
  // play's answer (kept for this tab) says whether that was between hands or mid-hand.
  // A game nobody had bid in yet is said too, for its first hand.
  const joined = settings.joined(S.id);
  const took = (text) => items.push(h("li", { class: "notice took-over", dataset: { seat: String(S.seat), joined: joined || "" } }, text));
  if (mine?.kind === "human" && mine.since && S.msg.game?.hands_played === mine.since) {
    took(joined === "between" ? t("You took over seat {n} from a bot between hands: its score comes with the seat.", { n }) : t("You took over seat {n} from a bot in a game in progress: its score comes with the seat.", { n }));
  } else if (mine?.kind === "human" && joined === "fresh" && S.msg.game?.hands_played === 0) {
    took(t("You joined a game that had just begun: seat {n} is yours from its first hand.", { n }));
  }
  for (const s of S.msg.seats) {
    if (s.substituted) items.push(h("li", { class: "notice stand-in", dataset: { seat: String(s.seat) } }, standInText(s.seat)));
    if (s.arriving) items.push(h("li", { class: "notice arriving", dataset: { seat: String(s.seat) } }, arrivingText(s)));
  }
  return items.length ? h("ul", { class: "notices", id: "notices", "aria-label": t("Moves made for players") }, items) : null;
}

/** A stand-in bot at a seat shows in its label: "away: a bot plays" instead of "away". */
function markStandIns(board, seats) {
  for (const s of seats) {
    if (!s.substituted) continue;
    const el = board.querySelector(`.seat[data-seat="${s.seat}"]`);
    if (!el) continue;
    const text = t("away: a bot plays");
    el.querySelector(".seat-name")?.after(h("span", { class: "away stand-in" }, text));
    el.setAttribute("aria-label", `${el.getAttribute("aria-label")}, ${text}`);
  }
}

let filling = false;
/** After a reload the state holds only the last hand; fetch the others for the sheet. */
async function fillResults() {
  if (filling) return;
  filling = true;
  const id = S.id;
  try {
    // In pages (the server answers a few hundred hands a call), while the page is ours.
    for (let start = 0; ; ) {
      const list = await api.hands(id, start);
      if (S.id !== id || !list.length) break;
      list.forEach((r, i) => (S.results[start + i + 1] ??= r));
      start += list.length;
    }
    if (S.id === id) draw();
  } catch {
    // The sheet stays partial; the game itself is unaffected.
  } finally {
    filling = false;
  }
}

function name(seat) {
  return seatName(names(), seat);
}

function names() {
  return namesAt(Infinity); // as the seats are held now
}

/** The names as the seats were held in hand `n` (1 is the first): a seat whose holder
 *  changed (`since`, from the server) was its bot's before a stranger took it over, or
 *  its player's before they resigned to a bot. */
function namesAt(n) {
  return (S.msg?.seats || S.info?.seats || []).map((s) => {
    if (s.since === null || s.since === undefined || n > s.since) return s.kind === "bot" ? botName(s) : s.name;
    return s.kind === "bot" ? s.name : t("Bot {n}", { n: s.seat + 1 });
  });
}

/** A bot seat's name; a seat whose player resigned says for whom the bot plays. */
function botName(s) {
  return s.name ? t("Bot {n} (for {name})", { n: s.seat + 1, name: s.name }) : t("Bot {n}", { n: s.seat + 1 });
}

/** Where keyboard focus was, so a redraw (every state message) does not lose it. */
function focusKey() {
  const el = document.activeElement;
  if (!el || !root.contains(el)) return null;
  if (el.dataset.card) return `.hand [data-card="${el.dataset.card}"]`;
  if (el.dataset.action) return `[data-action="${el.dataset.action}"]`;
  if (el.dataset.phrase) return `[data-phrase="${el.dataset.phrase}"]`;
  return el.id ? `#${el.id}` : null;
}

/** Where focus goes when its control is gone after a redraw (a bid made, the last card
 *  played): the next thing the player will do, else the page, never the document body. */
function nextFocus() {
  return root.querySelector("#game-over #rematch") || root.querySelector(".hand .card.legal") || root.querySelector(".hand .card") || root.querySelector("#actions button:not([disabled])") || document.getElementById("main");
}

function draw() {
  if (!root) return;
  const had = root.contains(document.activeElement) && document.activeElement !== root;
  const focus = focusKey();
  drawPage();
  if (had) ((focus && root.querySelector(focus)) || nextFocus()).focus();
}

function drawPage() {
  clear(root);
  if (!S.ws) {
    root.append(joinView(S, { claimed: onClaimed, watch: () => connect(true), refresh: rereadTable }));
    return;
  }
  if (!S.msg) {
    if (S.blocked) {
      const text = h("p", { class: "loading blocked", role: "alert" }, serverError(S.blocked));
      root.append(text, h("a", { href: "/", class: "button" }, t("Back to the lobby")));
    } else root.append(h("p", { class: "loading" }, t("Connecting…")));
    return;
  }
  const m = S.msg;
  const g = m.game;
  const rules = m.rules;
  const me = S.seat ?? S.waiting ?? 0; // a quick-play arrival sees the table from their seat
  if (m.status === "waiting" || !g) {
    root.append(waitingPanel(S, names()));
    return;
  }
  // A hand's last trick stays a moment, but not into the next auction's bids.
  const fresh = S.shownTrick && (S.shownTrick.hand === g.hand_number || !g.bids.length);
  const showing = fresh && Date.now() < S.shownTrick.until && !g.trick?.cards?.length ? S.shownTrick : null;
  const board = h("div", { class: "board", id: "board" });
  const facts = h("div", { class: "board-facts", id: "facts" });
  S.seen = renderBoard(
    board,
    {
      rules,
      names: names(),
      me,
      dealer: g.dealer,
      pitcher: g.pitcher,
      contract: g.contract,
      trump: g.trump || showing?.trump || null,
      bids: g.phase === "bid" ? g.bids : [], // in play the contract line says who bid what
      trick: showing ? showing.trick : g.trick,
      turn: g.turn,
      handSizes: g.hand_sizes,
      away: m.seats.map((x) => x.kind === "human" && x.claimed && !x.connected && !x.substituted),
    },
    S.seen,
    facts,
  );
  markStandIns(board, m.seats);
  // A rated game says so where trump and the contract are shown.
  if (S.info?.options?.rated) facts.prepend(h("span", { class: "rated-badge", id: "rated-badge" }, t("Rated")));
  const mid = board.querySelector(".middle");
  mid.addEventListener("dragover", (e) => {
    e.preventDefault();
    mid.classList.add("drop-target");
  });
  mid.addEventListener("dragleave", () => mid.classList.remove("drop-target"));
  mid.addEventListener("drop", (e) => {
    e.preventDefault();
    mid.classList.remove("drop-target");
    const card = e.dataTransfer.getData("text/plain");
    if (card) dropCard(card);
  });
  root.append(
    h("h1", { class: "sr-only" }, t("Pitch table")),
    h(
      "div",
      { class: `table-layout${over(g) ? " is-over" : ""}` },
      // Over: the result comes first, so a phone shows it (and Rematch) above the board,
      // not a screen below it; style.css puts it atop the side column on a wide screen.
      over(g) ? gameOver(g, rules) : null,
      h("div", { class: "board-wrap" }, h("div", { class: "status-row" }, statusLine(g), turnClock(), facts, tableMenu(g)), notices(), board, actionBar(g), handEl(g)),
      sidePanel(g, rules),
    ),
  );
  walkthrough(root, S); // the first time at a table: a short guided tour
  // The page just loaded (or reloaded) on our move: the keyboard starts at the move,
  // not at the top bar (focus never sits on the page itself).
  if (!S.focusedOnce && g && S.seat !== null && document.activeElement === document.body) {
    S.focusedOnce = true;
    if (g.turn === S.seat && !over(g)) root.querySelector("#actions .bid-button.primary, #hand .card.legal")?.focus({ preventScroll: true });
  }
  if (S.focusCard) {
    root.querySelector(`.hand [data-card="${S.focusCard}"]`)?.focus();
    S.focusCard = null;
  }
}

/** The game is over: won, or stopped at the server's hand limit (docs/server.md). */
function over(g) {
  return (g.winner !== null && g.winner !== undefined) || S.msg?.status === "over";
}

/** Who won, or why nobody did: the last player resigned, or the game stopped at the
 *  server's hand limit. */
function endText(g) {
  if (g.winner !== null && g.winner !== undefined) return winnerText(g.sides, names(), g.winner);
  const quit = S.msg?.resigned;
  if (Number.isInteger(quit)) return quit === S.seat ? t("You resigned. The game ended with no winner.") : t("{name} resigned. The game ended with no winner.", { name: name(quit) });
  return t("The game stopped at this server's limit of hands a game ({n}): nobody won.", { n: g.hands_played });
}

function statusLine(g) {
  let text;
  if (over(g)) text = endText(g);
  else if (S.seat === null) text = t("You are watching.");
  else if (g.turn === S.seat) text = g.phase === "bid" ? t("Your turn to bid.") : g.trick?.cards?.length || g.tricks.length || g.trump ? t("Your turn: play a card.") : t("Your lead: the first card you play makes trump.");
  else if (g.turn !== null) text = g.phase === "bid" ? t("{name} is bidding…", { name: name(g.turn) }) : t("{name} is playing…", { name: name(g.turn) });
  else text = t("Dealing…");
  return h("p", { class: `status-line${g.turn === S.seat ? " mine" : ""}`, role: "status", id: "status" }, text);
}

/** Seconds left on the turn timer (a table option, docs/server.md), or null. */
function secondsLeft() {
  const d = S.msg?.turn_deadline;
  if (typeof d !== "number" || S.msg?.game?.turn === null || S.msg?.game?.turn === undefined) return null;
  return Math.max(0, d - (Date.now() / 1000 + clockOffset));
}

/** The turn timer's countdown; refreshed in place by the ticker, so the page is not redrawn. */
function turnClock() {
  const el = h("span", { class: "turn-clock", id: "turn-clock", role: "timer" });
  updateClock(el);
  if (!ticker) ticker = setInterval(() => {
    const cur = root?.querySelector("#turn-clock");
    if (cur) updateClock(cur);
    else {
      clearInterval(ticker);
      ticker = 0;
    }
  }, 250);
  return el;
}

function updateClock(el) {
  const left = secondsLeft();
  if (left === null) {
    el.hidden = true;
    return;
  }
  const s = Math.ceil(left);
  const text = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  el.hidden = false;
  if (el.textContent !== text) el.textContent = text;
  el.classList.toggle("urgent", s <= 10);
  el.classList.toggle("mine", S.msg.game.turn === S.seat);
  const label = S.msg.game.turn === S.seat ? t("Seconds left for your move: {n}", { n: s }) : t("Seconds left for {name}: {n}", { name: name(S.msg.game.turn), n: s });
  el.setAttribute("aria-label", label);
  el.title = label;
}

function actionBar(g) {
  const bar = h("div", { class: "action-bar", id: "actions" });
  const mine = g.turn === S.seat && S.seat !== null;
  if (mine && g.phase === "bid") {
    bar.append(h("span", { class: "prompt" }, t("Your bid:")));
    for (const b of [0, 1, 2, 3, 4]) {
      const action = b === 0 ? "pass" : `bid ${b}`;
      const ok = g.legal.includes(action);
      bar.append(
        h(
          "button",
          {
            type: "button",
            class: `bid-button${ok ? " primary" : ""}${S.hint?.action === action ? " hinted" : ""}`,
            "aria-disabled": ok ? null : "true",
            dataset: { action },
            "aria-keyshortcuts": b === 0 ? "P" : String(b),
            onclick: () => (ok ? act(action) : refuseMove(g, action)),
          },
          bidText(b),
        ),
      );
    }
    if (S.selected && pitchBid(g)) {
      bar.append(h("button", { type: "button", class: "primary", id: "pitch-button", onclick: () => dropCard(S.selected) }, t("Pitch {card} (bid 4 and lead it)", { card: cardName(S.selected) })));
    }
  }
  if (mine && settings.get("hints")) {
    bar.append(h("button", { type: "button", id: "hint-button", "aria-keyshortcuts": "H", onclick: showHint }, h("span", {}, icon("bulb")), t("Hint")));
  }
  const last = lastTrick(g);
  bar.append(h("button", { type: "button", id: "last-trick-button", disabled: !last, "aria-keyshortcuts": "L", onclick: showLastTrick }, t("Last trick")));
  if (S.hint) {
    bar.append(
      h("p", { class: "hint-text", id: "hint", role: "status" }, S.hint.text, S.hint.evidence ? h("span", { class: "hint-evidence" }, S.hint.evidence) : null),
    );
  }
  return bar;
}

function lastTrick(g) {
  return g.last_trick; // after a hand, its last trick (the dialog, not the table)
}

function handEl(g) {
  const cards = sortHand(g.hand || [], g.trump);
  const el = h("div", { class: "hand", role: "group", "aria-label": t("Your hand"), id: "hand" });
  const mine = g.turn === S.seat;
  cards.forEach((c, i) => {
    const legal = mine && g.legal.includes(c);
    const canPitch = mine && g.phase === "bid" && pitchBid(g) !== null;
    const b = h("button", {
      type: "button",
      class: `card${legal ? " legal" : mine && g.phase === "play" ? " illegal" : ""}${S.selected === c ? " selected" : ""}${S.hint?.action === c ? " hinted" : ""}`,
      "aria-label": cardName(c) + (mine && g.phase === "play" && !legal ? " (" + t("not playable now") + ")" : ""),
      draggable: legal || canPitch ? "true" : null,
      style: { "--i": i, "--n": cards.length },
      dataset: { card: c },
      onclick: () => clickCard(c),
      ondragstart: (e) => e.dataTransfer.setData("text/plain", c),
      onkeydown: (e) => moveFocus(e, i, cards),
    });
    b.append(cardEl(c).firstChild);
    el.append(b);
  });
  return el;
}

function moveFocus(e, i, cards) {
  const d = { ArrowLeft: -1, ArrowRight: 1, Home: -i, End: cards.length - 1 - i }[e.key];
  if (d === undefined) return;
  e.preventDefault();
  const next = e.currentTarget.parentElement.children[Math.max(0, Math.min(cards.length - 1, i + d))];
  next?.focus();
}

function refuse(text) {
  sound.refuse();
  toast(withRuleLinks(text), "error", "table");
}

/** Refuse a card or bid the engine refused (the state's `refusals`), in its words. */
function refuseMove(g, action) {
  const r = g.refusals?.[action];
  const other = /^(pass|bid )/.test(action) ? t("That bid is not allowed now.") : t("You cannot play that card now.");
  refuse(r ? refusalText(r) : other);
}

function clickCard(c) {
  const g = S.msg?.game;
  if (!g || S.seat === null) return;
  if (over(g)) return refuse(serverError("game_over"));
  if (g.turn !== S.seat) return refuse(t("It is not your turn: {name} is to play.", { name: name(g.turn) }));
  if (g.phase === "bid") {
    if (pitchBid(g)) {
      S.selected = S.selected === c ? null : c;
      toast(t("To pitch, drop the card in the middle or press Pitch: you bid 4 and lead it."), "info", "table");
      S.focusCard = c;
      draw();
      return;
    }
    return refuseMove(g, c);
  }
  if (!g.legal.includes(c)) return refuseMove(g, c);
  act(c);
}

/** The bid that pitches (R3.4), where the engine lets this seat pitch now (the state's
 *  `pitch`), or null: one of the seat's legal moves, never inferred from them. */
function pitchBid(g) {
  return typeof g.pitch === "string" && g.legal.includes(g.pitch) ? g.pitch : null;
}

function dropCard(c) {
  const g = S.msg?.game;
  if (!g) return;
  const bid = g.phase === "bid" && g.turn === S.seat ? pitchBid(g) : null;
  if (bid) {
    // Pitching (R3.4): bid 4 and lay the card at once; it is played when the turn comes back.
    S.pendingPitch = c;
    S.selected = null;
    act(bid);
    announce(t("You pitch {card}: bid 4.", { card: cardName(c) }));
    return;
  }
  if (g.phase === "bid" && g.turn === S.seat) return refuse(t("Pitching is a bid of 4, which is not allowed now."));
  clickCard(c);
}

/** Ask the server's hint bot (docs/server.md): its move, and why in a line or two. */
function showHint() {
  if (S.ws?.readyState !== WebSocket.OPEN) {
    S.hint = said(() => ({ text: t("Hints need the connection to the server; reconnecting…") }));
  } else {
    S.hint = { pending: true, seq: S.msg.seq, ...said(() => ({ text: t("Asking a strong bot…") })) };
    send({ type: "hint" });
  }
  draw();
}

function actionText(a) {
  return a === "pass" || a.startsWith("bid") ? bidText(a === "pass" ? 0 : Number(a.split(" ")[1])) : cardName(a);
}

/** A line the server sent as a message key and its arguments, in this language: cards,
 *  moves and suits are named here (docs/web.md, "Hints"). */
function serverLine(line) {
  if (!line) return "";
  const args = {};
  for (const [k, v] of Object.entries(line.args || {})) {
    if (k === "card" || k === "alt") args[k] = actionText(String(v));
    else if (k === "suit") args[k] = suitName(String(v));
    else if (typeof v === "number") args[k] = v.toLocaleString(document.documentElement.lang || "en");
    else args[k] = String(v);
  }
  return serverText(line.key, args);
}

function onHint(m) {
  // A hint for a state that has moved on (the player acted meanwhile) is moot.
  if (!S.hint?.pending || m.seq !== S.msg?.seq || S.msg.game?.turn !== S.seat) return;
  // A line that names the move ("Draw trump with your master ace") stands alone.
  const named = /\{(card|bid)\}/.test(m.why?.key || "");
  S.hint = {
    action: m.action,
    bot: m.bot,
    source: "server",
    ...said(() => {
      const why = serverLine(m.why);
      return { why, evidence: serverLine(m.evidence), text: named ? why : `${actionText(m.action)}: ${why}` };
    }),
  };
  draw();
}

/** A hint's or a notice's words, and how to say them again when the player switches
 *  language (they stay on screen, so their words must follow the page's). */
function said(say) {
  return { say, ...say() };
}

function showLastTrick() {
  const tr = lastTrick(S.msg.game);
  if (!tr) return;
  const dlg = h("dialog", { class: "last-trick", "aria-label": t("Last trick") });
  dlg.append(
    h("h2", {}, t("Last trick")),
    h("div", { class: "open-hand" }, tr.cards.map(({ seat, card }) => h("figure", { class: "trick-card" }, cardEl(card), h("figcaption", {}, name(seat))))),
    h("p", {}, t("{name} won the trick.", { name: name(tr.winner) })),
    h("form", { method: "dialog" }, h("button", { class: "primary" }, t("Close"))),
  );
  dlg.addEventListener("close", () => {
    dlg.remove();
    // The button that opened it may have been drawn again meanwhile: focus today's.
    (root?.querySelector("#last-trick-button:not([disabled])") || nextFocus()).focus();
  });
  document.body.append(dlg);
  dlg.showModal();
}

function sidePanel(g, rules) {
  const side = h("aside", { class: "side-panel", "aria-label": t("Scores") });
  const scores = h(
    "ul",
    { class: "score-line current", id: "scores" },
    g.scores.map((s, i) => h("li", { dataset: { side: String(i) } }, sideScore(g.sides, i, s))),
  );
  side.append(h("h2", {}, t("Scores (target {n})", { n: rules.target })), scores);
  const past = pastTarget(g, rules);
  if (past) side.append(past);
  if (g.bids.length && g.phase !== "deal") {
    side.append(
      h("h2", {}, t("Auction")),
      h("ol", { class: "auction", id: "auction" }, g.bids.map((b) => h("li", {}, `${name(b.seat)}: ${bidText(b.bid)}`))),
    );
  }
  if (g.last_hand) side.append(handSummary(g.sides, namesAt(g.hands_played), g.last_hand, g.hands_played));
  const rows = Object.keys(S.results).map(Number).sort((a, b) => a - b).map((k) => S.results[k]);
  const chat = S.info?.options?.chat ?? "free";
  // A seated, signed-in player may call a friend over to watch (or to a seat a bot keeps).
  if (S.seat !== null && S.seat !== undefined && !over(g)) side.append(inviteButton(S.id) ?? "");
  if (chat !== "off") side.append(chatPanel(S.seat !== null && S.seat !== undefined, chat === "free"));
  if (rows.length) side.append(scoreSheet(g.sides, names(), rows, namesAt));
  return side;
}

/** A side past the target that has not gone out: a stranger reads it as a scoring bug
 * unless the table says why (R6.2: only the pitcher's side goes out). */
function pastTarget(g, rules) {
  if (over(g) || !g.scores.some((s) => s >= rules.target)) return null;
  return h("p", { class: "past-target", id: "past-target" }, goingOut(rules));
}

/** R6.2 in a sentence, with its link: who goes out, and when. */
function goingOut(rules) {
  const why = rules.must_make_bid_to_win
    ? t("A side goes out only at the end of a hand it pitched and made its bid (rule R6.2); until then a side past the target plays on.")
    : t("A side goes out only at the end of a hand it pitched (rule R6.2); until then a side past the target plays on.");
  return withRuleLinks(why);
}

/** Why the winner won although another side has as many points or more (R6.2). */
function whyTheWinner(g, rules) {
  const w = g.winner;
  if (w === null || w === undefined || !g.scores.some((s, i) => i !== w && s >= Math.min(rules.target, g.scores[w]))) return null;
  return h("p", { class: "why-winner", id: "why-winner" }, goingOut(rules));
}

/** A side's name and its score as separate elements, the score set off as a chip (and,
 * for screen readers and copied text, after a colon): "Tess & Bot 3: 32", never "Bot 3 32". */
function sideScore(sides, side, score) {
  return [h("span", { class: "who" }, sideName(sides, names(), side)), h("span", { class: "sr-only" }, ": "), h("b", { class: "points" }, String(score))];
}

function gameOver(g, rules) {
  const box = h("section", { class: "panel game-over", id: "game-over" });
  // dom.js append, not the element's own: that writes a missing part (null) as "null".
  append(box, [
    h("h2", { class: "winner-line" }, endText(g)),
    h("p", { class: "final-score" }, t("Final score:"), " ", g.scores.map((s, i) => [i ? " · " : null, h("span", { class: "side-score", dataset: { side: String(i) } }, sideScore(g.sides, i, s))])),
    whyTheWinner(g, rules),
    ratingChange(),
    // Rematch first: the next step of most players, and on a phone still on screen.
    h(
      "p",
      { class: "game-over-actions" },
      S.seat !== null && S.seat !== undefined ? [rematchButton(), " "] : null,
      h("button", { type: "button", class: "primary", id: "watch-replay", onclick: () => watchReplay(S.id) }, t("Watch the replay")),
      " ",
      h("button", { type: "button", id: "analyse-game", onclick: () => watchReplay(S.id, true) }, t("Analyse this game")),
      " ",
      h("a", { class: "button", href: api.recordUrl(S.id), download: `pitch-${S.id}.json`, id: "download-record" }, t("Download the record")),
      " ",
      h("a", { class: "button", href: "/" }, t("New game")),
    ),
  ]);
  return box;
}

const RATING_TRIES = 40; // a second apart: the rating is written a moment after the end
/** A rated game's change to this seat's rating (before → after), from the ratings room
 *  (GET /api/tables/{id}/ratings), asked for once the game is over until it is written. */
function ratingChange() {
  if (!S.info?.options?.rated || S.seat === null || S.seat === undefined) return null;
  const box = h("p", { class: "rating-change", id: "rating-change", role: "status" });
  fillRating(box);
  if (!S.ratingsAsked) askRatings();
  return box;
}

function fillRating(box) {
  const r = S.ratings;
  clear(box);
  if (r === null) return append(box, [t("Updating the ratings…")]);
  const mine = r === "unknown" ? null : r.seats.find((x) => x?.seat === S.seat);
  if (r === "unknown") return append(box, [t("The rating change is not known yet; My account will show it.")]);
  if (!mine || !Number.isInteger(mine.before) || !Number.isInteger(mine.after)) {
    return append(box, [t("This game did not change your rating: only signed-in players are rated.")]);
  }
  const d = mine.after - mine.before;
  const sign = d > 0 ? "+" : d < 0 ? "−" : "±";
  append(box, [
    t("Your rating:"),
    " ",
    h("b", { class: "rating-move" }, `${mine.before} → ${mine.after}`),
    " ",
    h("span", { class: `rating-delta ${d > 0 ? "up" : d < 0 ? "down" : ""}` }, `(${sign}${Math.abs(d)})`),
  ]);
}

async function askRatings() {
  S.ratingsAsked = true;
  const id = S.id;
  let got = "unknown";
  for (let i = 0; i < RATING_TRIES && S.id === id; i++) {
    try {
      const r = await api.tableRatings(id);
      if (r?.rated && Array.isArray(r.seats)) {
        got = r;
        break;
      }
    } catch {
      // Asked again in a second; the last answer decides.
    }
    await new Promise((done) => setTimeout(done, 1000));
  }
  if (S.id !== id) return; // another table meanwhile
  S.ratings = got;
  const box = document.getElementById("rating-change");
  if (box) fillRating(box);
}

/** Rematch: the first player to ask makes the table again (same seats and rules, the
 * deal passed on); the others see it offered here and join with one click. */
function rematchButton() {
  const next = /^[a-z0-9]{1,32}$/.test(S.msg?.rematch || "") ? S.msg.rematch : null;
  const mine = next && settings.token(next);
  const label = mine ? t("Go to the rematch") : next ? t("Join the rematch") : t("Rematch");
  return h("button", { type: "button", class: next ? "primary" : "", id: "rematch", onclick: () => rematch(next) }, label);
}

async function rematch(next) {
  if (next && settings.token(next)) return window.pitchNavigate(`/t/${next}`);
  try {
    const c = await api.rematch(S.id, settings.token(S.id));
    settings.saveToken(c.table, c.seat, c.token);
    window.pitchNavigate(`/t/${c.table}`);
  } catch (e) {
    refuse(apiError(e));
  }
}

function onClaimed(seat, token) {
  settings.saveToken(S.id, seat, token);
  connect();
  draw();
}

/** The table's menu ("⋯" in the status row) for a player in a game under way: Resign.
 *  A menu button as the WAI-ARIA practices have it: Enter, Space or ↓ opens it on its
 *  first item (↑ on its last), ↑ ↓ Home End move, Esc closes it back onto the button,
 *  Tab or a click elsewhere closes it. It stays open across redraws (every state
 *  message draws the page again), its focus kept by id (focusKey). */
function tableMenu(g) {
  if (S.seat === null || S.seat === undefined || over(g)) return null;
  const open = S.menuOpen;
  const item = (key, label, fn) =>
    h("button", { type: "button", role: "menuitem", tabindex: "-1", id: `menu-${key}`, onclick: () => (setMenu(false), fn()) }, label);
  return h(
    "div",
    { class: "menu-wrap" },
    h(
      "button",
      {
        type: "button",
        class: "icon-button menu-button",
        id: "table-menu-button",
        "aria-haspopup": "menu",
        "aria-expanded": open ? "true" : "false",
        "aria-controls": "table-menu",
        "aria-label": t("Game menu"),
        title: t("Game menu"),
        onclick: () => setMenu(!S.menuOpen, "first"),
        onkeydown: (e) => {
          if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
          e.preventDefault();
          setMenu(true, e.key === "ArrowUp" ? "last" : "first");
        },
      },
      "⋯",
    ),
    h("div", { class: "menu", id: "table-menu", role: "menu", "aria-labelledby": "table-menu-button", hidden: !open, onkeydown: menuKey }, item("resign", t("Resign"), resignHere)),
  );
}

/** Open (focus on its `where` item: "first" or "last") or close the menu, in place;
 *  closed, focus goes back to its button unless `refocus` is false. */
function setMenu(open, where = "first", refocus = true) {
  S.menuOpen = open;
  const menu = root?.querySelector("#table-menu");
  const button = root?.querySelector("#table-menu-button");
  if (!menu || !button) return;
  menu.hidden = !open;
  button.setAttribute("aria-expanded", open ? "true" : "false");
  const items = [...menu.querySelectorAll("[role=menuitem]")];
  if (open) (where === "last" ? items[items.length - 1] : items[0])?.focus();
  else if (refocus) button.focus();
}

function menuKey(e) {
  const items = [...e.currentTarget.querySelectorAll("[role=menuitem]")];
  const i = items.indexOf(document.activeElement);
  const to = { ArrowDown: (i + 1) % items.length, ArrowUp: (i - 1 + items.length) % items.length, Home: 0, End: items.length - 1 }[e.key];
  if (to !== undefined) items[to].focus();
  else if (e.key === "Escape") setMenu(false);
  else if (e.key === "Tab") return setMenu(false, "first", false); // focus moves on as usual
  else return;
  e.preventDefault();
  e.stopPropagation();
}

// A click (or tap) outside the open menu closes it.
document.addEventListener("pointerdown", (e) => {
  if (S.menuOpen && !e.target.closest?.(".menu-wrap")) setMenu(false, "first", false);
});

/** Resign from the table (the menu), after the player confirms. At a table where
 *  everyone else is a bot the game ends there, kept with its record (the server keeps
 *  the seat theirs: the page shows the game over); else a bot plays the seat on and
 *  this page watches. */
async function resignHere() {
  const id = S.id;
  const alone = S.msg.seats.every((x, i) => i === S.seat || (x.kind === "bot" && !x.arriving));
  const question = alone
    ? t("Resign this game? It ends here with no winner; its record and replay are kept.")
    : t("Resign this game? A bot plays your seat to the end.");
  const left = await leaveTable(id, true, question);
  if (!left || S.id !== id || S.closed) return;
  if (left.status !== "over") {
    S.seat = null;
    connect(true); // the seat is the bot's: watch the game from here on
  }
}

/** Keyboard: P pass, 1-4 bid, H hint, L last trick. */
export function onKey(e) {
  if (e.target.closest?.("input, select, textarea, dialog, [role=menu]")) return false;
  const g = S.msg?.game;
  if (!g) return false;
  const k = e.key.toLowerCase();
  if (g.phase === "bid" && g.turn === S.seat && (k === "p" || ["1", "2", "3", "4"].includes(k))) {
    root.querySelector(`[data-action="${k === "p" ? "pass" : `bid ${k}`}"]`)?.click();
    return true;
  }
  if (k === "h" && g.turn === S.seat) return showHint(), true;
  if (k === "l") return showLastTrick(), true;
  return false;
}
