// The analysis of a replayed game (issue 47): the server's master bot's view of each
// decision (docs/bots.md, "Analysis"), asked for by the viewer, shown as a win-chance
// chart, each decision's mark with the best action, and each player's accuracy.
//
// Nothing in the answer is trusted: checkAnalysis copies only the fields shown, each
// checked (seats, actions as the engine writes them, numbers in range), and lines each
// decision up with the replay's own bid and card frames (same seat, same action), so an
// analysis of another game is refused, never shown against this one. The chart is SVG
// made with DOM calls (dom.js `s`), never markup from data.

import * as api from "../core/api.js";
import { cardName, isCard } from "../core/cards.js";
import { h, s } from "../core/dom.js";
import { t } from "../core/i18n.js";

/** The marks' signs, worst last (docs/bots.md: the thresholds). */
export const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const POLL_MS = 500;
const ACTION = /^(pass|bid \d{1,2}|(10|[2-9TJQKA])[cdhs])$/;

export class AnalysisError extends Error {}

/** Ask the server for the analysis of `source` (a record as read) and wait for it,
 *  calling `progress(done, total)` as the job goes; `live()` false stops the wait
 *  (another game was opened). Resolves to the answer's `result`; throws api.ApiError. */
export async function requestAnalysis(source, progress, live) {
  let a = await api.analyse({ records: [source] });
  while (a && a.state !== "done" && a.state !== "failed") {
    if (Number.isInteger(a.done) && Number.isInteger(a.total)) progress(a.done, a.total);
    await new Promise((r) => setTimeout(r, POLL_MS));
    if (!live()) return null;
    a = await api.analysisJob(String(a.job));
  }
  if (!a || a.state !== "done") throw new AnalysisError("failed");
  return a.result;
}

const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
const isIndex = (x, n) => Number.isInteger(x) && x >= 0 && x < n;
const unit = (x) => typeof x === "number" && Number.isFinite(x) && x >= -0.01 && x <= 1.01;
const points = (x) => typeof x === "number" && Number.isFinite(x) && Math.abs(x) <= 100;

function need(ok) {
  if (!ok) throw new AnalysisError("shape");
}

/** The action a bid or card frame shows, as the analysis writes it ("pass", "bid 3", "Td"). */
function frameAction(f) {
  if (f.kind === "bid") return f.value === 0 ? "pass" : `bid ${f.value}`;
  return f.card;
}

function checkNumbers(obj, ok) {
  need(isObject(obj) && Object.keys(obj).length <= 60);
  const out = [];
  for (const [k, v] of Object.entries(obj)) {
    need(ACTION.test(k) && ok(v));
    out.push([k, v]);
  }
  return new Map(out);
}

/**
 * The analysis as the viewer shows it, for the game `game` (replay.js's framesOf):
 * `{byFrame: Map(frame index -> decision), decisions: [...], chart: [frame indices],
 * players: [...]}`. Throws AnalysisError if anything is out of shape or does not
 * match the game's own bids and cards.
 */
export function checkAnalysis(result, game) {
  need(isObject(result) && result.version === 1 && Array.isArray(result.games) && result.games.length === 1);
  const g = result.games[0];
  const n = game.rules.players;
  const sides = game.sides.length;
  need(isObject(g) && Array.isArray(g.decisions) && Array.isArray(g.players) && g.players.length <= n);
  const frames = game.frames;
  const at = [];
  frames.forEach((f, i) => {
    if (f.kind === "bid" || f.kind === "play") at.push(i);
  });
  need(g.decisions.length === at.length);
  const decisions = g.decisions.map((d, k) => {
    need(isObject(d) && d.n === k && isIndex(d.seat, n) && isIndex(d.side, sides));
    const f = frames[at[k]];
    need(f.seat === d.seat && typeof d.action === "string" && d.action === frameAction(f));
    need(typeof d.best === "string" && ACTION.test(d.best) && unit(d.loss));
    need(d.mark === null || Object.hasOwn(MARKS, d.mark));
    need(Array.isArray(d.chances) && d.chances.length === sides && d.chances.every(unit));
    const values = checkNumbers(d.values, unit);
    const pts = checkNumbers(d.points, points);
    need(values.has(d.action) && values.has(d.best));
    return {
      k,
      frame: at[k],
      seat: d.seat,
      action: d.action,
      best: d.best,
      loss: d.loss,
      mark: d.mark,
      values,
      points: pts,
      chances: [...d.chances],
    };
  });
  // The chart's points: after each bid and after each trick's last card.
  const chart = decisions.filter((d) => frames[d.frame].kind === "bid" || frames[d.frame + 1]?.kind === "trick");
  const players = g.players.map((p) => {
    need(isObject(p) && isIndex(p.seat, n) && Number.isInteger(p.decisions) && p.decisions >= 0);
    need(p.accuracy === null || (typeof p.accuracy === "number" && p.accuracy >= 0 && p.accuracy <= 100));
    const counts = {};
    for (const m of Object.keys(MARKS)) {
      need(Number.isInteger(p[m]) && p[m] >= 0);
      counts[m] = p[m];
    }
    return { seat: p.seat, decisions: p.decisions, accuracy: p.accuracy, counts };
  });
  const byFrame = new Map(decisions.map((d) => [d.frame, d]));
  return { byFrame, decisions, chart, players };
}

/** An action in the reader's words: "Pass", "Bid 3", "10 of diamonds". */
export function actionText(a) {
  if (a === "pass") return t("Pass");
  if (a.startsWith("bid ")) return t("Bid {n}", { n: Number(a.slice(4)) });
  return isCard(a) ? cardName(a) : a;
}

export function markText(mark) {
  return { inaccuracy: t("Inaccuracy"), mistake: t("Mistake"), blunder: t("Blunder") }[mark];
}

const pct = (x) => `${Math.round(Math.max(0, Math.min(1, x)) * 100)}%`;
const signed = (x) => (x > 0 ? `+${x.toFixed(1)}` : x.toFixed(1));

/** The frame of the last decision at or before frame `i` (null before the first). */
export function decisionAt(a, i) {
  let best = null;
  for (const d of a.decisions) {
    if (d.frame > i) break;
    best = d;
  }
  return best;
}

/** The next (dir 1) or previous (dir -1) marked decision's frame from frame `i`, or null. */
export function markedFrom(a, i, dir) {
  const marked = a.decisions.filter((d) => d.mark);
  const found = dir > 0 ? marked.find((d) => d.frame > i) : marked.reverse().find((d) => d.frame < i);
  return found ? found.frame : null;
}

const W = 300;
const H = 80;

/**
 * The win-chance chart: one line per side through the chances after each bid and
 * trick, a dot for each marked decision, a line at the frame shown. A slider for the
 * keyboard (← → a point, Home/End); a click or tap moves the replay to the nearest
 * point. `go(frame)` moves the replay; `sideLabel(side)` names a side.
 */
export function chart(a, game, index, go, sideLabel) {
  const pts = a.chart;
  const total = Math.max(1, a.decisions.length - 1);
  const x = (d) => (d.k / total) * W;
  const y = (v) => H - Math.max(0, Math.min(1, v)) * H;
  const sides = game.sides.length;
  const now = decisionAt(a, index);
  const here = now ? pts.findLastIndex((d) => d.k <= now.k) : -1;
  const svg = s(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", class: "chance-chart", "aria-hidden": "true", focusable: "false" },
    s("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: "chart-even" }),
    Array.from({ length: sides }, (_, side) =>
      s("polyline", { class: `chart-line side-${side % 7}`, points: pts.map((d) => `${x(d).toFixed(1)},${y(d.chances[side]).toFixed(1)}`).join(" ") }),
    ),
    now ? s("line", { x1: x(now), x2: x(now), y1: 0, y2: H, class: "chart-now" }) : null,
    a.decisions
      .filter((d) => d.mark)
      .map((d) => s("circle", { cx: x(d).toFixed(1), cy: y(d.chances[game.sides.findIndex((ss) => ss.includes(d.seat))]).toFixed(1), r: 3.2, class: `chart-mark mark-${d.mark}` })),
  );
  const nearest = (frac) => {
    const k = frac * total;
    let best = pts[0];
    for (const d of pts) if (Math.abs(d.k - k) < Math.abs(best.k - k)) best = d;
    return best;
  };
  const valueText = (d) =>
    d
      ? t("Move {i}: {chances}", {
          i: d.frame + 1,
          chances: Array.from({ length: sides }, (_, side) => `${sideLabel(side)} ${pct(d.chances[side])}`).join(", "),
        })
      : t("Before the first bid");
  const box = h(
    "div",
    {
      class: "chart-box",
      dataset: { action: "chart" }, // replay.js's draw puts the focus back here
      role: "slider",
      tabindex: "0",
      "aria-label": t("Chance of winning the game, after each bid and trick"),
      "aria-valuemin": "0",
      "aria-valuemax": String(Math.max(0, pts.length - 1)),
      "aria-valuenow": String(Math.max(0, here)),
      "aria-valuetext": valueText(pts[here] ?? null),
      onclick: (e) => {
        const r = svg.getBoundingClientRect();
        if (!pts.length || r.width <= 0) return;
        go(nearest(Math.max(0, Math.min(1, (e.clientX - r.left) / r.width))).frame);
      },
      onkeydown: (e) => {
        if (!pts.length) return;
        const to = { ArrowRight: here + 1, ArrowUp: here + 1, ArrowLeft: here - 1, ArrowDown: here - 1, Home: 0, End: pts.length - 1 }[e.key];
        if (to === undefined) return;
        e.preventDefault();
        go(pts[Math.max(0, Math.min(pts.length - 1, to))].frame, true);
      },
    },
    svg,
  );
  // The figures are those of the decision shown (or the last one before it): the same
  // seat's view as its note below, so the two never disagree.
  const legend = h(
    "ul",
    { class: "chart-legend" },
    Array.from({ length: sides }, (_, side) =>
      h("li", {}, h("span", { class: `swatch side-${side % 7}`, "aria-hidden": "true" }), sideLabel(side), " ", h("b", {}, now ? pct(now.chances[side]) : "–")),
    ),
  );
  return h("div", { class: "chance" }, legend, box);
}

/** The decision shown at this frame: who did what, its mark, and the best action with
 *  its figures (win chance and the hand's expected points of each). */
export function decisionNote(a, index, seatLabel) {
  const d = a.byFrame.get(index);
  if (!d) return null;
  const who = seatLabel(d.seat);
  const head = d.mark
    ? [h("b", { class: `mark mark-${d.mark}` }, `${MARKS[d.mark]} ${markText(d.mark)}`), " "]
    : [h("b", { class: "mark mark-good" }, d.action === d.best ? t("Best move") : t("Good move")), " "];
  const line = (label, act) =>
    h(
      "li",
      {},
      label,
      " ",
      h("b", {}, actionText(act)),
      " · ",
      t("win chance {p}", { p: pct(d.values.get(act)) }),
      d.points.has(act) ? [" · ", t("{n} points in the hand", { n: signed(d.points.get(act)) })] : null,
    );
  return h(
    "div",
    { class: "decision-note", id: "decision-note" },
    h("p", {}, head, t("{name} chose {action}.", { name: who, action: actionText(d.action) })),
    h("ul", {}, line(t("Played:"), d.action), d.best !== d.action ? line(t("Best:"), d.best) : null),
  );
}

/** Each player's accuracy and marks. */
export function accuracyTable(a, seatLabel) {
  return h(
    "table",
    { class: "accuracy" },
    h("caption", {}, t("Accuracy")),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, t("Player")),
        h("th", { scope: "col" }, t("Accuracy")),
        Object.entries(MARKS).map(([m, sign]) => h("th", { scope: "col", title: markText(m) }, h("span", { "aria-hidden": "true" }, sign), h("span", { class: "sr-only" }, markText(m)))),
      ),
    ),
    h(
      "tbody",
      {},
      a.players.map((p) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, seatLabel(p.seat)),
          h("td", {}, p.accuracy === null ? "–" : `${Math.round(p.accuracy)}%`),
          Object.keys(MARKS).map((m) => h("td", {}, String(p.counts[m]))),
        ),
      ),
    ),
  );
}
