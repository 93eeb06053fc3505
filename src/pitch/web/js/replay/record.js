// Game records (the engine's format, docs/record-format.md): read a file, have the
// server check it by the rules, and turn one checked game into replay frames.
//
// Nothing in a file is trusted. parseRecords only splits the text into JSON objects;
// verifyRecords sends them to POST /api/records/verify, where the engine replays each
// one and answers with the records rebuilt from its own replay; checkRecord then
// validates every field the viewer reads (seats, cards, suits, numbers, names) and
// copies only those, so a field the viewer does not expect never reaches the page.
// Every rule comes with the answer: the seats of each side and who played each card of
// a trick are the engine's (`sides`, a trick's `seats`), never worked out here.

import { isCard, isSuit } from "../core/cards.js";
import { hasMessage } from "../core/i18n.js";

/** A file that is not game records; `key` names what is wrong (for the message). */
export class RecordError extends Error {
  constructor(key, detail = "") {
    super(detail ? `${key}: ${detail}` : key);
    this.key = key;
  }
}

/** The server did not check the records: `status` is the HTTP status (0: no answer). */
export class VerifyError extends Error {
  constructor(status, detail = "") {
    super(`verify: ${status} ${detail}`.trim());
    this.status = status;
  }
}

/** Games one check may hold (the server's limit, src/pitch/server/records/check.py). */
export const MAX_GAMES = 100;
const MAX_NAME = 64;
const MAX_MESSAGE = 300;

/** Records in a file: JSON Lines, one JSON object, or a JSON array of objects. */
export function parseRecords(text) {
  const str = String(text).trim();
  if (!str) throw new RecordError("empty");
  let items;
  try {
    const whole = JSON.parse(str);
    items = Array.isArray(whole) ? whole : [whole];
  } catch {
    items = str
      .split(/\r?\n/)
      .filter((l) => l.trim())
      .map((l, i) => {
        try {
          return JSON.parse(l);
        } catch {
          throw new RecordError("json", `line ${i + 1}`);
        }
      });
  }
  if (!items.length) throw new RecordError("empty");
  if (items.length > MAX_GAMES) throw new RecordError("too-many", String(items.length));
  if (!items.every(isObject)) throw new RecordError("shape");
  return items;
}

/**
 * Ask the server to replay `records` by the rules. Resolves to {records, problems}:
 * the good records (checked by checkRecord, in file order) and the problems, each
 * {game, hand, trick, rule, message} with only plain numbers and bounded text.
 * Throws VerifyError where the server answers anything but a 200 it understands.
 */
export async function verifyRecords(records, fetcher = fetch) {
  let res;
  try {
    res = await fetcher("/api/records/verify", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ records }),
    });
  } catch (e) {
    throw new VerifyError(0, String(e?.message ?? e));
  }
  if (res.status !== 200) throw new VerifyError(res.status);
  let data;
  try {
    data = await res.json();
  } catch {
    throw new VerifyError(-1, "not JSON");
  }
  if (!isObject(data) || !Array.isArray(data.records) || !Array.isArray(data.problems)) {
    throw new VerifyError(-1, "shape");
  }
  const problems = data.problems.map(checkProblem);
  if (problems.includes(null) || data.records.length + problems.length !== records.length) {
    throw new VerifyError(-1, "counts");
  }
  let good;
  try {
    good = data.records.map(checkRecord);
  } catch (e) {
    if (e instanceof RecordError) throw new VerifyError(-1, e.message);
    throw e;
  }
  return { records: good, problems: problems.sort((a, b) => a.game - b.game) };
}

function checkProblem(p) {
  if (!isObject(p) || !isIndex(p.game, MAX_GAMES)) return null;
  const rule = typeof p.rule === "string" && /^(R\d{1,2}(\.\d{1,2}){0,2}|[a-z_]{1,20})$/.test(p.rule) ? p.rule : "format";
  const message = typeof p.message === "string" ? oneLine(p.message, MAX_MESSAGE) : "";
  return {
    game: p.game,
    hand: isIndex(p.hand, 10_000) ? p.hand : null,
    trick: isIndex(p.trick, 100) ? p.trick : null,
    rule,
    message,
    ...checkRefusal(p),
  };
}

/** A refused bid or card the server sent as data ({seat, refusal: {rule, key, args}}),
 *  kept only where every part is one the viewer can word: the key a message the
 *  catalog has (else its text would show as sent), the arguments plain numbers, suit
 *  letters or card codes. */
function checkRefusal(p) {
  const r = p.refusal;
  if (!isIndex(p.seat, 7) || !isObject(r) || !isObject(r.args) || typeof r.key !== "string") return {};
  if (typeof r.rule !== "string" || !/^R[1-6]\.[1-9]$/.test(r.rule) || !hasMessage(r.key)) return {};
  const args = {};
  for (const [k, v] of Object.entries(r.args)) {
    const ok = k === "card" ? isCard(v) : k === "suit" || k === "trump" ? isSuit(v) : /^[a-z_]{1,20}$/.test(k) && isInt(v);
    if (!ok) return {};
    args[k] = v;
  }
  return { seat: p.seat, refusal: { rule: r.rule, key: r.key, args } };
}

/** Is this problem the breaking of a numbered rule ("R4.1"), not a format error? */
export function isRule(rule) {
  return /^R\d/.test(rule);
}

// ---- Validation: every field the viewer reads, copied into a fresh object ----

function isObject(x) {
  return x !== null && typeof x === "object" && !Array.isArray(x);
}

function isIndex(x, n) {
  return Number.isInteger(x) && x >= 0 && x < n;
}

function isInt(x) {
  return Number.isInteger(x) && Math.abs(x) <= 1_000_000;
}

function oneLine(text, max) {
  // Control characters (newlines, bidi overrides) become spaces; text nodes do the rest.
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, " ").slice(0, max);
}

function need(ok, what) {
  if (!ok) throw new RecordError("shape", what);
}

function seatOrNull(x, n, what) {
  if (x === null || x === undefined) return null;
  need(isIndex(x, n), what);
  return x;
}

function ints(xs, len, what) {
  need(Array.isArray(xs) && xs.length === len && xs.every(isInt), what);
  return [...xs];
}

function cards(xs, max, what) {
  need(Array.isArray(xs) && xs.length <= max && xs.every(isCard), what);
  return [...xs];
}

function checkRules(r) {
  need(isObject(r), "rules");
  need(Number.isInteger(r.players) && r.players >= 2 && r.players <= 7, "rules.players");
  const partnerships = r.partnerships ?? false;
  // Which seats form a side is the server's `sides` (checked below), not worked out here.
  need(typeof partnerships === "boolean", "rules.partnerships");
  const target = r.target ?? 7;
  need(isInt(target), "rules.target");
  return { players: r.players, partnerships, target };
}

function checkNames(names, n) {
  if (!Array.isArray(names) || names.length !== n) return null;
  return names.map((x) => (typeof x === "string" && x.trim() ? oneLine(x, MAX_NAME) : null));
}

/** The seats of each side, as the server's engine groups them (R1.4): every seat in
 *  exactly one side. */
function checkSides(sides, n) {
  need(Array.isArray(sides) && sides.length >= 2 && sides.length <= n, "sides");
  const out = sides.map((seats, d) => {
    need(Array.isArray(seats) && seats.length >= 1 && seats.every((s) => isIndex(s, n)), `sides[${d}]`);
    return [...seats];
  });
  const all = out.flat();
  need(all.length === n && new Set(all).size === n, "sides");
  return out;
}

/** Who played each card of a trick, in order (the engine's): distinct seats, the
 *  leader first, one a card. */
function checkSeats(seats, leader, count, n, what) {
  need(Array.isArray(seats) && seats.length === count && seats.every((s) => isIndex(s, n)), what);
  need(new Set(seats).size === count && (count === 0 || seats[0] === leader), what);
  return [...seats];
}

function checkHand(hand, i, rules, sides) {
  const n = rules.players;
  const where = `hands[${i}]`;
  need(isObject(hand), where);
  need(isIndex(hand.dealer, n), `${where}.dealer`);
  need(Array.isArray(hand.deal) && hand.deal.length === n, `${where}.deal`);
  const deal = hand.deal.map((c, s) => cards(c, 13, `${where}.deal[${s}]`));
  need(Array.isArray(hand.bids) && hand.bids.length <= 4 * n, `${where}.bids`);
  const bids = hand.bids.map((b, k) => {
    need(Array.isArray(b) && b.length === 2 && isIndex(b[0], n) && isIndex(b[1], 100), `${where}.bids[${k}]`);
    return [b[0], b[1]];
  });
  const pitcher = seatOrNull(hand.pitcher, n, `${where}.pitcher`);
  const bid = hand.bid === null || hand.bid === undefined ? null : hand.bid;
  need(bid === null || isIndex(bid, 100), `${where}.bid`);
  const trump = hand.trump === null || hand.trump === undefined ? null : hand.trump;
  need(trump === null || isSuit(trump), `${where}.trump`);
  need(Array.isArray(hand.tricks) && hand.tricks.length <= 13, `${where}.tricks`);
  const tricks = hand.tricks.map((tr, k) => {
    need(isObject(tr) && isIndex(tr.leader, n), `${where}.tricks[${k}]`);
    const played = cards(tr.cards, n, `${where}.tricks[${k}].cards`);
    return {
      leader: tr.leader,
      cards: played,
      seats: checkSeats(tr.seats, tr.leader, played.length, n, `${where}.tricks[${k}].seats`),
      winner: seatOrNull(tr.winner, n, `${where}.tricks[${k}].winner`),
    };
  });
  const awards = {};
  if (hand.awards !== null && hand.awards !== undefined) {
    need(isObject(hand.awards), `${where}.awards`);
    for (const key of ["high", "low", "jack", "game"]) {
      awards[key] = seatOrNull(hand.awards[key], sides, `${where}.awards.${key}`);
    }
  }
  const made = hand.made === null || hand.made === undefined ? null : hand.made;
  need(made === null || typeof made === "boolean", `${where}.made`);
  let awardCards = null;
  if (hand.award_cards !== null && hand.award_cards !== undefined) {
    need(isObject(hand.award_cards), `${where}.award_cards`);
    awardCards = {};
    for (const key of ["high", "low", "jack"]) {
      const c = hand.award_cards[key] ?? null;
      need(c === null || isCard(c), `${where}.award_cards.${key}`);
      awardCards[key] = c;
    }
  }
  return {
    dealer: hand.dealer,
    deal,
    bids,
    pitcher,
    bid,
    trump,
    tricks,
    awards,
    // The engine writes every hand's points (0 each for a hand thrown in): the viewer
    // never works out what a made or set-back bid scores.
    delta: ints(hand.delta, sides, `${where}.delta`),
    scores: hand.scores === undefined || hand.scores === null ? null : ints(hand.scores, sides, `${where}.scores`),
    game_points:
      hand.game_points === undefined || hand.game_points === null ? null : ints(hand.game_points, sides, `${where}.game_points`),
    made,
    award_cards: awardCards,
  };
}

/**
 * A record as the viewer may use it: every field it reads checked (seats in range,
 * cards and suits exactly as the engine writes them, integers, names as bounded
 * one-line text) and copied; anything else is dropped. Throws RecordError("shape").
 */
export function checkRecord(record) {
  need(isObject(record), "record");
  const rules = checkRules(record.rules);
  const sides = checkSides(record.sides, rules.players);
  need(Array.isArray(record.hands) && record.hands.length <= 1000, "hands");
  const hands = record.hands.map((x, i) => checkHand(x, i, rules, sides.length));
  return {
    rules,
    sides,
    hands,
    players: checkNames(record.players, rules.players),
    winner: seatOrNull(record.winner, sides.length, "winner"),
    end: checkEnd(record.end),
    // Who resigned, ending the game (docs/record-format.md): a seat, else dropped.
    resigned: Number.isInteger(record.resigned) && record.resigned >= 0 && record.resigned < rules.players ? record.resigned : null,
  };
}

/** Why the game ended, as the server's replay says (`{reason, text}`: a key and the
 *  message key the summary translates), or null: bounded one-line text, never markup. */
function checkEnd(end) {
  if (!isObject(end) || typeof end.reason !== "string" || typeof end.text !== "string") return null;
  return { reason: oneLine(end.reason, 40), text: oneLine(end.text, 200) };
}

/**
 * Every step of a game as a list of frames: the deal, each bid, each card, each
 * finished trick, and the hand's result. A frame holds everything needed to draw it.
 * `record` must come from checkRecord.
 */
export function framesOf(record) {
  const rules = record.rules;
  const frames = [];
  let scores = new Array(record.sides.length).fill(0);
  const last = record.hands.length - 1;
  record.hands.forEach((h, hi) => {
    const hands = h.deal.map((cards) => [...cards]);
    const base = {
      hand: hi,
      dealer: h.dealer,
      bids: [],
      pitcher: null,
      bid: null,
      trump: null,
      trick: null,
      tricks: [],
      scores,
      result: null,
    };
    let f = { ...base, kind: "deal", hands: hands.map((x) => [...x]) };
    frames.push(f);
    for (const [seat, bid] of h.bids) {
      f = { ...f, kind: "bid", seat, value: bid, bids: [...f.bids, { seat, bid }] };
      frames.push(f);
    }
    f = { ...f, pitcher: h.pitcher, bid: h.bid };
    h.tricks.forEach((tr) => {
      let cards = [];
      tr.cards.forEach((card, k) => {
        const seat = tr.seats[k]; // the engine's play order (R4.2), from the server
        const left = f.hands.map((x, s) => (s === seat ? x.filter((c) => c !== card) : x));
        cards = [...cards, { seat, card }];
        const trump = f.trump || h.trump;
        f = { ...f, kind: "play", seat, card, hands: left, trump, trick: { leader: tr.leader, cards } };
        frames.push(f);
      });
      const winner = tr.winner; // the engine's, from the server's replay (R4.5 is not redone here)
      f = {
        ...f,
        kind: "trick",
        winner,
        trick: { leader: tr.leader, cards, winner },
        tricks: [...f.tricks, { leader: tr.leader, cards, winner }],
      };
      frames.push(f);
    });
    const after = h.scores ?? scores;
    f = {
      ...f,
      kind: "result",
      trick: null,
      scores: after,
      result: {
        dealer: h.dealer,
        pitcher: h.pitcher,
        bid: h.bid,
        trump: h.trump,
        thrown_in: h.pitcher === null,
        awards: h.awards,
        cards: h.award_cards, // the engine's (R5.1-R5.3 are not redone here)
        game_points: h.game_points,
        made: h.made,
        delta: h.delta,
        scores: after,
        end: hi === last ? record.end : null,
      },
    };
    frames.push(f);
    scores = after;
  });
  if (frames.length) {
    const last = frames[frames.length - 1];
    frames.push({ ...last, kind: "over", winner: record.winner });
  }
  return { rules, frames, names: record.players, sides: record.sides, resigned: record.resigned ?? null };
}

