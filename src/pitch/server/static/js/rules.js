// The few rules the client needs to explain itself; the server (engine) decides.

import { parseCard, SUITS } from "./cards.js";

export function numSides(rules) {
  return rules.partnerships ? 2 : rules.players;
}

/** Side of a seat (R1.2, R1.4): seats 0+2 and 1+3 in the partnership game. */
export function sideOf(rules, seat) {
  return rules.partnerships ? seat % 2 : seat;
}

export function seatsOfSide(rules, side) {
  const out = [];
  for (let s = 0; s < rules.players; s++) if (sideOf(rules, s) === side) out.push(s);
  return out;
}

/** Winner of a finished trick (R4.5): highest trump, else highest of the suit led. */
export function trickWinner(cards, trump) {
  // cards: [{seat, card}] in play order
  const led = parseCard(cards[0].card).suit;
  const t = trump === null || trump === undefined ? -1 : SUITS.indexOf(trump);
  let best = null;
  let bestKey = -1;
  for (const { seat, card } of cards) {
    const { rank, suit } = parseCard(card);
    const key = suit === t ? 100 + rank : suit === led ? rank : -1;
    if (key > bestKey) {
      bestKey = key;
      best = seat;
    }
  }
  return best;
}

/**
 * Why playing `card` is against the rules, or null. Returns {rule, key, suit} for the
 * message: R4.3 follow suit or trump; trump led means trump.
 */
export function playRefusal(card, hand, trick, trump) {
  if (!trick || trick.length === 0) return null;
  const led = suitOf(trick[0].card);
  const mine = suitOf(card);
  const holdsLed = hand.some((c) => suitOf(c) === led);
  if (!holdsLed) return null; // R4.4
  if (led === trump && mine !== trump) return { rule: "R4.3", key: "trump-led", suit: led };
  if (mine !== led && mine !== trump) return { rule: "R4.3", key: "follow", suit: led };
  return null;
}

function suitOf(card) {
  return SUITS[parseCard(card).suit];
}
