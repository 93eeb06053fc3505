// Game records (the engine's format, docs/record-format.md): read a file and turn one
// game into replay frames. The viewer trusts the record; `pitch verify` checks it.

import { numSides, seatsOfSide, trickWinner } from "./rules.js";

export class RecordError extends Error {}

/** Records in a file: JSON Lines, one JSON object, or a JSON array of objects. */
export function parseRecords(text) {
  const s = String(text).trim();
  if (!s) throw new RecordError("empty");
  let items;
  try {
    const whole = JSON.parse(s);
    items = Array.isArray(whole) ? whole : [whole];
  } catch {
    items = s
      .split(/\r?\n/)
      .filter((l) => l.trim())
      .map((l, i) => {
        try {
          return JSON.parse(l);
        } catch {
          throw new RecordError(`line ${i + 1}`);
        }
      });
  }
  for (const r of items) check(r);
  return items;
}

function check(r) {
  const ok =
    r &&
    typeof r === "object" &&
    r.rules &&
    Number.isInteger(r.rules.players) &&
    Array.isArray(r.hands) &&
    r.hands.every((h) => h && Array.isArray(h.deal) && Array.isArray(h.bids) && Array.isArray(h.tricks));
  if (!ok) throw new RecordError("shape");
}

/**
 * Every step of a game as a list of frames: the deal, each bid, each card, each
 * finished trick, and the hand's result. A frame holds everything needed to draw it.
 */
export function framesOf(record) {
  const rules = { partnerships: false, target: 7, ...record.rules };
  const n = rules.players;
  const frames = [];
  let scores = new Array(numSides(rules)).fill(0);
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
        const seat = (tr.leader + k) % n;
        const left = f.hands.map((x, s) => (s === seat ? x.filter((c) => c !== card) : x));
        cards = [...cards, { seat, card }];
        const trump = f.trump || h.trump;
        f = { ...f, kind: "play", seat, card, hands: left, trump, trick: { leader: tr.leader, cards } };
        frames.push(f);
      });
      const winner = Number.isInteger(tr.winner) ? tr.winner : trickWinner(cards, f.trump);
      f = {
        ...f,
        kind: "trick",
        winner,
        trick: { leader: tr.leader, cards, winner },
        tricks: [...f.tricks, { leader: tr.leader, cards, winner }],
      };
      frames.push(f);
    });
    const after = Array.isArray(h.scores) ? h.scores : scores;
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
        thrown_in: h.pitcher === null || h.pitcher === undefined,
        awards: h.awards || {},
        cards: awardCards(h),
        game_points: h.game_points || null,
        made: h.made ?? null,
        delta: h.delta || [],
        scores: after,
      },
    };
    frames.push(f);
    scores = after;
  });
  if (frames.length) {
    const last = frames[frames.length - 1];
    frames.push({ ...last, kind: "over", winner: record.winner ?? null });
  }
  return { rules, frames, names: record.players || null, sides: sidesOf(rules) };
}

function sidesOf(rules) {
  const out = [];
  for (let s = 0; s < numSides(rules); s++) out.push(seatsOfSide(rules, s));
  return out;
}

/** The trump cards that decided High, Low and Jack (R5.1-R5.3), found in the play. */
function awardCards(h) {
  if (!h.trump) return null;
  const played = h.tricks.flatMap((tr) => tr.cards);
  const trumps = played.filter((c) => c[c.length - 1].toLowerCase() === h.trump);
  const order = "23456789TJQKA";
  const rank = (c) => order.indexOf(c.length === 3 ? "T" : c[0].toUpperCase());
  trumps.sort((a, b) => rank(a) - rank(b));
  const jack = trumps.find((c) => rank(c) === 9) || null;
  return { high: trumps[trumps.length - 1] || null, low: trumps[0] || null, jack };
}
