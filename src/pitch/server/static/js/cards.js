// Cards: parsing the engine's card text ("As", "Td", "10h") and drawing crisp SVG faces.

import { t } from "./i18n.js";
import * as settings from "./settings.js";

export const RANKS = "23456789TJQKA";
export const SUITS = "cdhs"; // clubs, diamonds, hearts, spades (engine order)

/** "As" -> {rank: 12, suit: 3}; also "10h". */
export function parseCard(text) {
  const s = String(text).trim();
  const r = s.length === 3 ? "T" : s[0].toUpperCase();
  return { rank: RANKS.indexOf(r), suit: SUITS.indexOf(s[s.length - 1].toLowerCase()) };
}

export function cardId(text) {
  const { rank, suit } = parseCard(text);
  return suit * 13 + rank;
}

export function suitOf(text) {
  return SUITS[parseCard(text).suit];
}

export function rankLabel(rank) {
  return RANKS[rank] === "T" ? "10" : RANKS[rank];
}

// Suit shapes in a 100x100 box: paths, not font glyphs, so they look the same everywhere.
const SUIT_PATHS = {
  c:
    '<circle cx="50" cy="27" r="22"/><circle cx="25" cy="58" r="22"/><circle cx="75" cy="58" r="22"/>' +
    '<path d="M45 50 C45 78 40 90 28 100 L72 100 C60 90 55 78 55 50 Z"/>',
  d: '<path d="M50 0 L88 50 L50 100 L12 50 Z"/>',
  h:
    '<path d="M50 96 C22 70 2 52 2 30 C2 14 14 3 28 3 C39 3 46 10 50 20 ' +
    'C54 10 61 3 72 3 C86 3 98 14 98 30 C98 52 78 70 50 96 Z"/>',
  s:
    '<path d="M50 2 C38 22 2 40 2 62 C2 78 14 86 26 86 C36 86 43 81 46 74 C45 86 40 93 30 100 ' +
    'L70 100 C60 93 55 86 54 74 C57 81 64 86 74 86 C86 86 98 78 98 62 C98 40 62 22 50 2 Z"/>',
};

/** Suit colour class: two colours by default, four with the four-colour deck. */
export function suitClass(suit) {
  const s = typeof suit === "number" ? SUITS[suit] : suit;
  if (settings.get("fourColour")) return `suit-${s}4`;
  return s === "d" || s === "h" ? "suit-red" : "suit-black";
}

/** An inline suit symbol (SVG) for text: trump marks, bids, summaries. */
export function suitIcon(suit, size = "1em") {
  const s = typeof suit === "number" ? SUITS[suit] : suit;
  return (
    `<svg class="suit-icon ${suitClass(s)}" viewBox="0 0 100 100" width="${size}" height="${size}" ` +
    `aria-hidden="true" focusable="false">${SUIT_PATHS[s]}</svg>`
  );
}

function pip(s, x, y, size, flip = false) {
  const k = size / 100;
  const rot = flip ? ` rotate(180 50 50)` : "";
  return `<g transform="translate(${x - size / 2} ${y - size / 2}) scale(${k})${rot}">${SUIT_PATHS[s]}</g>`;
}

// Pip layouts for 2..10 on a 100x140 card (x, y, flipped).
const PIPS = {
  2: [[50, 30], [50, 110, 1]],
  3: [[50, 30], [50, 70], [50, 110, 1]],
  4: [[32, 30], [68, 30], [32, 110, 1], [68, 110, 1]],
  5: [[32, 30], [68, 30], [50, 70], [32, 110, 1], [68, 110, 1]],
  6: [[32, 30], [68, 30], [32, 70], [68, 70], [32, 110, 1], [68, 110, 1]],
  7: [[32, 30], [68, 30], [50, 50], [32, 70], [68, 70], [32, 110, 1], [68, 110, 1]],
  8: [[32, 30], [68, 30], [50, 50], [32, 70], [68, 70], [50, 90, 1], [32, 110, 1], [68, 110, 1]],
  9: [[32, 28], [68, 28], [32, 56], [68, 56], [50, 70], [32, 84, 1], [68, 84, 1], [32, 112, 1], [68, 112, 1]],
  10: [[32, 28], [68, 28], [50, 42], [32, 56], [68, 56], [32, 84, 1], [68, 84, 1], [50, 98, 1], [32, 112, 1], [68, 112, 1]],
};

/** SVG markup of a card face. */
export function cardSvg(text) {
  const { rank, suit } = parseCard(text);
  const s = SUITS[suit];
  const label = rankLabel(rank);
  const cls = suitClass(s);
  const corner =
    `<text x="9" y="24" class="idx" ${label === "10" ? 'textLength="19" lengthAdjust="spacingAndGlyphs"' : ""}>${label}</text>` +
    pip(s, 15, 35, 14);
  let middle;
  if (rank <= 8) {
    middle = PIPS[rank + 2].map(([x, y, f]) => pip(s, x, y, 20, !!f)).join("");
  } else if (rank === 12) {
    middle = pip(s, 50, 70, 46);
  } else {
    // Court cards: a framed panel with the letter and the suit, clear at small sizes.
    middle =
      `<rect x="24" y="26" width="52" height="88" rx="6" class="court"/>` +
      `<text x="50" y="78" class="court-letter" text-anchor="middle">${label}</text>` +
      pip(s, 50, 98, 18);
  }
  return (
    `<svg class="card-svg ${cls}" viewBox="0 0 100 140" aria-hidden="true" focusable="false">` +
    `<rect x="1" y="1" width="98" height="138" rx="8" class="face"/>` +
    `${corner}<g transform="rotate(180 50 70)">${corner}</g>${middle}</svg>`
  );
}

export function backSvg() {
  return (
    `<svg class="card-svg back" viewBox="0 0 100 140" aria-hidden="true" focusable="false">` +
    `<defs><pattern id="bk" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="10" height="10" class="back-a"/><rect width="5" height="10" class="back-b"/></pattern></defs>` +
    `<rect x="1" y="1" width="98" height="138" rx="8" class="back-edge"/>` +
    `<rect x="7" y="7" width="86" height="126" rx="5" fill="url(#bk)"/></svg>`
  );
}

const RANK_NAMES = () => ({ J: t("jack"), Q: t("queen"), K: t("king"), A: t("ace") });

/** Spoken name of a card, e.g. "ace of spades" (screen readers, messages). */
export function cardName(text) {
  const { rank, suit } = parseCard(text);
  const r = RANK_NAMES()[RANKS[rank]] || rankLabel(rank);
  const tpl = {
    c: t("{rank} of clubs", { rank: r }),
    d: t("{rank} of diamonds", { rank: r }),
    h: t("{rank} of hearts", { rank: r }),
    s: t("{rank} of spades", { rank: r }),
  };
  return tpl[SUITS[suit]];
}

/** Suit name in the nominative ("hearts"), for trump and rule messages. */
export function suitName(suit) {
  const s = typeof suit === "number" ? SUITS[suit] : suit;
  return { c: t("clubs"), d: t("diamonds"), h: t("hearts"), s: t("spades") }[s];
}

/** Short card text with a coloured suit symbol, as HTML. */
export function cardInline(text) {
  const { rank, suit } = parseCard(text);
  return `<span class="card-inline" aria-label="${cardName(text)}">${rankLabel(rank)}${suitIcon(SUITS[suit])}</span>`;
}

/** Sort a hand for display: by suit (alternating colours), then rank high to low. */
export function sortHand(cards, trump = null) {
  const order = ["s", "h", "c", "d"];
  const key = (c) => {
    const { rank, suit } = parseCard(c);
    const s = SUITS[suit];
    const so = s === trump ? -1 : order.indexOf(s);
    return so * 100 - rank;
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** Game-point value of a card (R5.4): ten 10, ace 4, king 3, queen 2, jack 1. */
export function gameValue(text) {
  return { T: 10, A: 4, K: 3, Q: 2, J: 1 }[RANKS[parseCard(text).rank]] || 0;
}
