// Hand results and the score sheet, for the live table and the replay viewer.
// Built from elements and text nodes only: names and fields are never markup.
// `sides` is the seats of each side as the server sends them (the state's `sides`, a
// checked record's `sides`): the engine's grouping (R1.4), never worked out here.

import { cardInline, isCard, isSuit, suitIcon, suitName } from "../core/cards.js";
import { h } from "../core/dom.js";
import { serverText, t } from "../core/i18n.js";

export function seatName(names, seat) {
  return names?.[seat] || t("Seat {n}", { n: seat + 1 });
}

export function sideName(sides, names, side) {
  if (side === null || side === undefined) return t("nobody");
  return (sides[side] ?? [])
    .map((s) => seatName(names, s))
    .join(" & ");
}

/** The side a seat sits on, looked up in the server's `sides` (-1: none). */
export function sideOfSeat(sides, seat) {
  return sides.findIndex((seats) => seats.includes(seat));
}

/** The result of one hand: who took High, Low, Jack and Game; made or set. */
export function handSummary(sides, names, r, number) {
  const box = h("section", { class: "hand-summary", "aria-label": t("Result of hand {n}", { n: number }) });
  box.append(h("h2", {}, t("Hand {n}", { n: number })));
  if (r.thrown_in) {
    box.append(h("p", {}, t("Everyone passed: the cards are dealt again.")));
    return box;
  }
  const pitcher = seatName(names, r.pitcher);
  box.append(
    h(
      "p",
      { class: "contract-line" },
      t("{name} bid {n}", { name: pitcher, n: r.bid }),
      " · ",
      t("Trump"),
      " ",
      trumpMark(r.trump),
    ),
  );
  const rows = [
    ["high", t("High"), r.cards?.high],
    ["low", t("Low"), r.cards?.low],
    ["jack", t("Jack"), r.cards?.jack],
    ["game", t("Game"), null],
  ];
  const list = h("dl", { class: "awards" });
  for (const [key, label, card] of rows) {
    const side = r.awards?.[key];
    const who = key === "jack" && !r.cards?.jack ? t("not dealt") : sideName(sides, names, side);
    list.append(
      h("dt", {}, label),
      h("dd", { dataset: { award: key } }, who, isCard(card) ? [" ", cardInline(card)] : null),
    );
  }
  box.append(list);
  if (r.game_points) {
    const gp = h("p", { class: "game-points" }, t("Game points:"), " ");
    r.game_points.forEach((v, side) => {
      gp.append(side ? " · " : "", h("span", { class: "gp side-score", dataset: { side: String(side) } }, sideScore(sides, names, side, v)));
    });
    box.append(gp);
  }
  // The points are the engine's (`delta`): a made bid's or a set-back's alike.
  const points = r.delta?.[sideOfSeat(sides, r.pitcher)];
  box.append(
    h(
      "p",
      { class: `made ${r.made ? "yes" : "no"}`, dataset: { made: String(!!r.made) } },
      r.made
        ? t("{name} made the bid ({sign}{n}).", { name: pitcher, sign: "+", n: points })
        : t("{name} was set back ({n}).", { name: pitcher, n: points }),
    ),
  );
  box.append(scoreLine(sides, names, r.scores, r.delta));
  // The hand that ended the game says why (a message key from the server: R6.2, a house rule).
  if (typeof r.end?.text === "string") box.append(h("p", { class: "game-end", dataset: { end: String(r.end.reason) } }, serverText(r.end.text)));
  return box;
}

function scoreLine(sides, names, scores, delta) {
  const ul = h("ul", { class: "score-line" });
  (scores || []).forEach((s, side) => {
    const d = delta?.[side] ?? 0;
    ul.append(
      h(
        "li",
        { dataset: { side: String(side), score: String(s) } },
        sideScore(sides, names, side, s),
        d ? h("small", { class: d > 0 ? "up" : "down" }, `${d > 0 ? "+" : ""}${d}`) : null,
      ),
    );
  });
  return ul;
}

/** A side's name and a number as separate elements, the number set off as a chip (and,
 * for screen readers and copied text, after a colon): "Tess & Bot 3: 9", never "Bot 3 9". */
export function sideScore(sides, names, side, value) {
  return [h("span", { class: "who" }, sideName(sides, names, side)), h("span", { class: "sr-only" }, ": "), h("b", {}, String(value))];
}

/** The score sheet: one row per hand (the bid, its trump), a column per side. The columns name the sides as
 * they sit now; a row names its pitcher as the seat was held in that hand (`handNames`,
 * hand number -> names: a seat a stranger took over from a bot was the bot's before). */
export function scoreSheet(sides, names, results, handNames = () => names) {
  const head = h(
    "tr",
    {},
    h("th", { scope: "col" }, "#"),
    h("th", { scope: "col" }, t("Bid")),
    sides.map((_, s) => h("th", { scope: "col", class: "side" }, sideName(sides, names, s))),
  );
  const body = h("tbody");
  results.forEach((r, i) => {
    body.append(
      h(
        "tr",
        {},
        h("th", { scope: "row" }, String(i + 1)),
        h(
          "td",
          { class: r.made === false ? "set" : null },
          r.thrown_in ? t("Redeal") : `${seatName(handNames(i + 1), r.pitcher)}: ${r.bid}`,
          // The trump with the bid, not a column of its own: seven sides fit a phone.
          isSuit(r.trump) ? [" ", h("span", { class: "trump" }, suitIcon(r.trump), h("span", { class: "sr-only" }, suitName(r.trump)))] : null,
          r.made === false ? h("span", { class: "sr-only" }, " (" + t("set back") + ")") : null,
        ),
        sides.map((_, s) => {
          const d = r.delta?.[s] ?? 0;
          return h("td", {}, h("b", {}, String(r.scores?.[s] ?? 0)), d ? h("small", {}, ` (${d > 0 ? "+" : ""}${d})`) : "");
        }),
      ),
    );
  });
  // It scrolls in a long game, or with seven sides on a phone: a tab stop, so that the
  // keyboard can scroll it too (axe: scrollable-region-focusable).
  const wrap = h(
    "div",
    { class: "score-sheet-wrap", tabindex: "0", role: "region", "aria-label": t("Score sheet") },
    h("table", { class: "score-sheet" }, h("caption", {}, t("Score sheet")), h("thead", {}, head), body),
  );
  requestAnimationFrame(() => (wrap.scrollTop = wrap.scrollHeight)); // newest hand in view
  return wrap;
}

/** The trump suit's symbol and its name for screen readers ("?" for no suit). */
function trumpMark(trump) {
  if (!isSuit(trump)) return "?";
  return [suitIcon(trump), " ", h("span", { class: "sr-only" }, suitName(trump))];
}

/** Winner line for the end of the game. */
export function winnerText(sides, names, winner) {
  if (winner === null || winner === undefined) return t("The game is not finished.");
  return t("{name} won the game!", { name: sideName(sides, names, winner) });
}
