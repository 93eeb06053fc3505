// Cards: parsing the engine's card text ("As", "Td", "10h") and drawing crisp SVG faces.
// Only the exact card and suit texts pass parseCard/suitLetter (anything else throws), and
// faces are built as SVG elements from constant shapes: no card text ever becomes markup.

import { emSize, h, s } from "./dom.js";
import { t } from "./i18n.js";
import * as settings from "./settings.js";

export const RANKS = "23456789TJQKA";
export const SUITS = "cdhs"; // clubs, diamonds, hearts, spades (engine order)

export class CardError extends RangeError {}

// The only card texts there are: a rank 2-9, T (or 10), J, Q, K, A, then a suit c, d, h, s.
const CARD = /^(10|[2-9TJQKA])([cdhs])$/;

/** Is `text` a card in the engine's text ("As", "Td", "10h")? */
export function isCard(text) {
  return typeof text === "string" && CARD.test(text);
}

/** Is `suit` a suit letter (exactly one of c, d, h, s)? */
export function isSuit(suit) {
  return typeof suit === "string" && suit.length === 1 && SUITS.includes(suit);
}

/** "As" -> {rank: 12, suit: 3}; also "10h". Anything else throws CardError. */
export function parseCard(text) {
  const m = typeof text === "string" ? CARD.exec(text) : null;
  if (!m) throw new CardError(`not a card: ${JSON.stringify(String(text)).slice(0, 40)}`);
  return { rank: RANKS.indexOf(m[1] === "10" ? "T" : m[1]), suit: SUITS.indexOf(m[2]) };
}

/** A suit as its letter: 0-3 or "c", "d", "h", "s"; anything else throws CardError. */
export function suitLetter(suit) {
  if (Number.isInteger(suit) && suit >= 0 && suit < 4) return SUITS[suit];
  if (isSuit(suit)) return suit;
  throw new CardError(`not a suit: ${JSON.stringify(String(suit)).slice(0, 40)}`);
}

export function cardId(text) {
  const { rank, suit } = parseCard(text);
  return suit * 13 + rank;
}

export function suitOf(text) {
  return SUITS[parseCard(text).suit];
}

export function rankLabel(rank) {
  if (!Number.isInteger(rank) || rank < 0 || rank > 12) throw new CardError(`not a rank: ${rank}`);
  return RANKS[rank] === "T" ? "10" : RANKS[rank];
}

// Suit shapes in a 100x100 box: paths, not font glyphs, so they look the same everywhere.
// Each is a list of [tag, attributes] drawn as SVG elements (constants, never data).
const SUIT_SHAPES = {
  c: [
    ["circle", { cx: 50, cy: 27, r: 22 }],
    ["circle", { cx: 25, cy: 58, r: 22 }],
    ["circle", { cx: 75, cy: 58, r: 22 }],
    ["path", { d: "M45 50 C45 78 40 90 28 100 L72 100 C60 90 55 78 55 50 Z" }],
  ],
  d: [["path", { d: "M50 0 L88 50 L50 100 L12 50 Z" }]],
  h: [
    [
      "path",
      {
        d:
          "M50 96 C22 70 2 52 2 30 C2 14 14 3 28 3 C39 3 46 10 50 20 " +
          "C54 10 61 3 72 3 C86 3 98 14 98 30 C98 52 78 70 50 96 Z",
      },
    ],
  ],
  s: [
    [
      "path",
      {
        d:
          "M50 2 C38 22 2 40 2 62 C2 78 14 86 26 86 C36 86 43 81 46 74 C45 86 40 93 30 100 " +
          "L70 100 C60 93 55 86 54 74 C57 81 64 86 74 86 C86 86 98 78 98 62 C98 40 62 22 50 2 Z",
      },
    ],
  ],
};

function suitShapes(letter) {
  return SUIT_SHAPES[suitLetter(letter)].map(([tag, attrs]) => s(tag, attrs));
}

const FOUR = { c: "suit-c4", d: "suit-d4", h: "suit-h4", s: "suit-s4" };
const TWO = { c: "suit-black", d: "suit-red", h: "suit-red", s: "suit-black" };

/** Suit colour class: two colours by default, four with the four-colour deck. */
export function suitClass(suit) {
  const letter = suitLetter(suit);
  return (settings.get("fourColour") ? FOUR : TWO)[letter];
}

/** An inline suit symbol (an SVG element) for text: trump marks, bids, summaries. */
export function suitIcon(suit, size = "1em") {
  const letter = suitLetter(suit);
  return s(
    "svg",
    {
      class: `suit-icon ${suitClass(letter)}`,
      viewBox: "0 0 100 100",
      width: emSize(size),
      height: emSize(size),
      "aria-hidden": "true",
      focusable: "false",
    },
    suitShapes(letter),
  );
}

function pip(letter, x, y, size, flip = false) {
  const k = size / 100;
  const rot = flip ? " rotate(180 50 50)" : "";
  return s("g", { transform: `translate(${x - size / 2} ${y - size / 2}) scale(${k})${rot}` }, suitShapes(letter));
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

/** A card face as an SVG element; `text` must be a card (parseCard throws otherwise). */
export function cardSvg(text) {
  const { rank, suit } = parseCard(text);
  const letter = SUITS[suit];
  const label = rankLabel(rank);
  const corner = () => [
    s(
      "text",
      { x: 9, y: 24, class: "idx", ...(label === "10" ? { textLength: 19, lengthAdjust: "spacingAndGlyphs" } : {}) },
      label,
    ),
    pip(letter, 15, 35, 14),
  ];
  let middle;
  if (rank <= 8) {
    middle = PIPS[rank + 2].map(([x, y, f]) => pip(letter, x, y, 20, !!f));
  } else if (rank === 12) {
    middle = [pip(letter, 50, 70, 46)];
  } else {
    // Court cards: a framed panel with the letter and the suit, clear at small sizes.
    middle = [
      s("rect", { x: 24, y: 26, width: 52, height: 88, rx: 6, class: "court" }),
      s("text", { x: 50, y: 78, class: "court-letter", "text-anchor": "middle" }, label),
      pip(letter, 50, 98, 18),
    ];
  }
  return s(
    "svg",
    { class: `card-svg ${suitClass(letter)}`, viewBox: "0 0 100 140", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "face" }),
    corner(),
    s("g", { transform: "rotate(180 50 70)" }, corner()),
    middle,
  );
}

/** The back of a card as an SVG element. */
export function backSvg() {
  return s(
    "svg",
    { class: "card-svg back", viewBox: "0 0 100 140", "aria-hidden": "true", focusable: "false" },
    s(
      "defs",
      {},
      s(
        "pattern",
        { id: "bk", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        s("rect", { width: 10, height: 10, class: "back-a" }),
        s("rect", { width: 5, height: 10, class: "back-b" }),
      ),
    ),
    s("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "back-edge" }),
    s("rect", { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: "url(#bk)" }),
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
  return { c: t("clubs"), d: t("diamonds"), h: t("hearts"), s: t("spades") }[suitLetter(suit)];
}

/** Short card text with a coloured suit symbol, as an element. */
export function cardInline(text) {
  const { rank, suit } = parseCard(text);
  return h("span", { class: "card-inline", role: "img", "aria-label": cardName(text) }, rankLabel(rank), suitIcon(SUITS[suit]));
}

/** Sort a hand for display: by suit (alternating colours), then rank high to low. */
export function sortHand(cards, trump = null) {
  const order = ["s", "h", "c", "d"];
  const key = (c) => {
    const { rank, suit } = parseCard(c);
    const letter = SUITS[suit];
    const so = letter === trump ? -1 : order.indexOf(letter);
    return so * 100 - rank;
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}
