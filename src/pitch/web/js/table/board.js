// Draw a table: seats around an oval, the trick in the middle, the player's hand below.
// Used by the live table and by the replay viewer; it only draws, never decides.

import { backSvg, cardName, cardSvg, suitIcon, suitName } from "../core/cards.js";
import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";
import * as settings from "../core/settings.js";

/** Screen position (percent of the board) of a seat, the viewer's seat at the bottom. */
export function seatPosition(seat, me, n) {
  const r = (seat - me + n) % n;
  // Clockwise seen from above: the next seat sits on the viewer's left (R1.3).
  const angle = Math.PI / 2 + (r * 2 * Math.PI) / n;
  return { x: 50 + 42 * Math.cos(angle), y: 50 + 40 * Math.sin(angle), r, cos: Math.cos(angle), sin: Math.sin(angle) };
}

/** Where a seat's label goes: `x`, `y` in 0..100 along the board's edge, and the label is
 * anchored at that fraction of itself (left: x%, translate -x%), so it never leaves the
 * board. The power spreads the seats towards the sides, so two seats at the top (6 or 7
 * players) keep room between them. */
function labelPlace(pos, n) {
  if (n === 7 && pos.r) return SEVEN_PLACES[pos.r];
  const spread = (v) => Math.sign(v) * Math.abs(v) ** 0.7;
  return { x: 50 + 50 * spread(pos.cos), y: 50 + 50 * spread(pos.sin) };
}

// Seven at a table: the side seats sit lower, so a tall label at the top (a name, "away: a
// bot plays", the cards and the bid) keeps clear of the seat below it; the two top seats
// sit wide apart, so their labels (at most 40% of the felt each) never meet.
const SEVEN_PLACES = [null, { x: 2, y: 86 }, { x: 0, y: 46 }, { x: 15, y: 0 }, { x: 85, y: 0 }, { x: 100, y: 46 }, { x: 98, y: 86 }];

export function cardEl(text, attrs = {}) {
  const el = h("div", { class: "card", role: "img", "aria-label": cardName(text), ...attrs });
  el.dataset.card = text;
  el.append(cardSvg(text));
  return el;
}

export function backEl() {
  const el = h("div", { class: "card back", "aria-hidden": "true" });
  el.append(backSvg());
  return el;
}

export function bidText(bid) {
  return bid === 0 ? t("Pass") : t("Bid {n}", { n: bid });
}

/**
 * model: {rules, names, me, dealer, pitcher, contract, trump, bids: [{seat,bid}], trick:
 * {cards:[{seat,card}], winner?}, turn, handSizes, openHands?: per-seat card lists,
 * tricksTaken?: per side}; facts: where trump and contract go (default: a line above the felt)
 */
export function renderBoard(board, model, previous = new Set(), facts = null) {
  const n = model.rules.players;
  const seen = new Set();
  board.replaceChildren();
  board.className = `board players-${n}`;
  // Trump and contract go in `facts` (the live table's status row) or a line above the
  // felt, never on a seat's label or the cards.
  if (facts) facts.replaceChildren();
  else board.append((facts = h("div", { class: "board-facts" })));
  // The felt: the seats around its edge, the trick in the middle.
  const open = Object.keys(model.openHands || {}).some((seat) => Number(seat) !== model.me);
  const felt = h("div", { class: `felt${open ? " open-hands" : ""}` });
  board.append(felt);
  for (let seat = 0; seat < n; seat++) {
    const pos = seatPosition(seat, model.me, n);
    const place = labelPlace(pos, n);
    const bid = [...model.bids].reverse().find((b) => b.seat === seat);
    const badges = [];
    if (seat === model.dealer) badges.push(h("span", { class: "badge dealer", title: t("Dealer") }, t("D")));
    if (seat === model.pitcher)
      badges.push(h("span", { class: "badge pitcher", title: t("Pitcher") }, t("P")));
    const name = model.names?.[seat] || t("Seat {n}", { n: seat + 1 });
    const count = model.handSizes ? model.handSizes[seat] : null;
    const label = [
      name,
      seat === model.dealer ? t("Dealer") : null,
      seat === model.pitcher ? t("Pitcher") : null,
      count !== null ? t("Cards: {n}", { n: count }) : null,
      bid ? bidText(bid.bid) : null,
      seat === model.turn ? t("to play") : null,
      model.away?.[seat] ? t("away") : null,
    ]
      .filter(Boolean)
      .join(", ");
    const seatEl = h(
      "div",
      {
        class: `seat pos-${pos.r === 0 ? "me" : "other"}${Math.abs(pos.cos) > 0.6 ? " side" : ""}${seat === model.turn ? " turn" : ""}`,
        style: { left: `${place.x}%`, top: `${place.y}%`, transform: `translate(${-place.x}%, ${-place.y}%)` },
        "aria-label": label,
        role: "group",
        dataset: { seat: String(seat) },
      },
      h(
        "div",
        { class: "seat-name" },
        badges,
        h("span", { class: "name-text" }, name),
      ),
      model.away?.[seat] ? h("span", { class: "away" }, t("away")) : null,
      h(
        "div",
        { class: "seat-info" },
        // No cards left (a hand or the game over): nothing, not a bare "0" read as a score.
        count && model.openHands?.[seat] === undefined
          ? h("span", { class: "count", title: t("Cards in hand") }, miniBacks(count), String(count))
          : null,
        bid ? h("span", { class: `bid-bubble${bid.bid === 0 ? " pass" : ""}` }, bidText(bid.bid)) : null,
      ),
    );
    if (model.openHands?.[seat] && pos.r !== 0) {
      seatEl.append(
        h("div", { class: "open-hand" }, model.openHands[seat].map((c) => cardEl(c, { class: "card mini" }))),
      );
    }
    felt.append(seatEl);
  }
  if (model.trump) {
    facts.append(
      h(
        "div",
        { class: "trump-mark", role: "note", "aria-label": t("Trump: {suit}", { suit: suitName(model.trump) }) },
        h("span", {}, t("Trump")),
        suitIcon(model.trump, "1.6em"),
      ),
    );
  }
  if (model.contract) {
    const who = model.names?.[model.pitcher] || t("Seat {n}", { n: model.pitcher + 1 });
    facts.append(h("div", { class: "contract" }, t("{name} bid {n}", { name: who, n: model.contract })));
  }
  // The middle: the trick, each card on a small oval towards the seat that played it.
  const mid = h("div", { class: "middle" });
  const trickEl = h("div", { class: "trick", role: "group", "aria-label": t("Cards on the table") });
  for (const { seat, card } of model.trick?.cards || []) {
    const pos = seatPosition(seat, model.me, n);
    const key = `${seat}:${card}`;
    seen.add(key);
    const el = cardEl(card, {
      class: `card in-trick${model.trick.winner === seat ? " winner" : ""}`,
      style: { "--cx": pos.cos.toFixed(3), "--cy": pos.sin.toFixed(3) },
      "aria-label": t("{name}: {card}", {
        name: model.names?.[seat] || t("Seat {n}", { n: seat + 1 }),
        card: cardName(card),
      }),
    });
    if (!previous.has(key) && settings.duration(300) > 0) {
      el.style.setProperty("--from-x", `${(pos.x - 50) * 2.2}px`);
      el.style.setProperty("--from-y", `${(pos.y - 50) * 3}px`);
      el.style.animationDuration = `${settings.duration(260)}ms`;
      el.classList.add("fly-in");
    }
    trickEl.append(el);
  }
  mid.append(trickEl);
  felt.append(mid);
  return seen;
}

function miniBacks(count) {
  const box = h("span", { class: "backs", "aria-hidden": "true" });
  for (let i = 0; i < Math.min(count, 6); i++) box.append(h("span", { class: "back-chip" }));
  return box;
}
