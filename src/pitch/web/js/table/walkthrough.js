// The first-game walkthrough: six short steps over a live table (the hand, the auction,
// trump, following suit, the four points, going out), each pointing at the part of the
// table it explains. Shown once, the first time a player sits at a table in play;
// settings "walkthroughDone" remembers it, and walkthroughAgain() offers it again.
//
// A turn timer (quick-play tables have one) is never run down by the walkthrough: it is
// open only while no clock runs against the player. When their timed move comes, it
// steps aside (focus to the move) and opens again at the same step once the move is
// made. Why not stop the clock, or give a newcomer more time: the timer is the whole
// table's (three strangers wait on it), so one player holding it would be a lever
// anyone could pull by clearing their storage; reading between one's own moves costs
// nobody anything.

import { append, clear, h } from "../core/dom.js";
import { t, tn } from "../core/i18n.js";
import * as settings from "../core/settings.js";

// Each step: what it points at (the first of these on the page; none: the dialog only).
const STEPS = [
  { at: ["#hand"], title: () => t("Your hand"), text: () => t("These are your six cards. When it is your turn, the cards you may play stand out: click one, or drag it to the middle, to play it.") },
  { at: ["#actions:has(.bid-button)", "#auction", "#status"], title: () => t("The auction"), text: () => t("Everyone bids once, starting left of the dealer and ending with the dealer: pass, or 1 to 4, the number of points you expect to win this hand. The highest bidder becomes the pitcher.") },
  { at: ["#facts .trump-mark", "#board .middle", "#board"], title: () => t("The first card makes trump"), text: () => t("The pitcher leads the first card, and its suit is trump for the whole hand.") },
  { at: ["#board .middle", "#board"], title: () => t("Follow suit or trump"), text: () => t("If you hold the suit that was led, play that suit or a trump; if you do not, play any card. The highest trump wins the trick; with no trump in it, the highest card of the suit led.") },
  { at: [".hand-summary", "#scores"], title: () => t("Four points a hand"), text: () => t("High: the highest trump in play. Low: the lowest trump in play. Jack: the jack of trump. Game: the most card points in the tricks you won (ten 10, ace 4, king 3, queen 2, jack 1). The pitcher's side must win as many points as it bid, or the bid is taken off its score.") },
  { at: ["#scores"], title: () => t("Going out"), text: (rules) => (rules?.must_make_bid_to_win ? tn("The target is {n} point. A side wins when it has {n} or more at the end of a hand it pitched and made its bid; the others may pass {n} and play on.", "The target is {n} points. A side wins when it has {n} or more at the end of a hand it pitched and made its bid; the others may pass {n} and play on.", rules.target) : tn("The target is {n} point. A side wins when it has {n} or more at the end of a hand it pitched; the others may pass {n} and play on.", "The target is {n} points. A side wins when it has {n} or more at the end of a hand it pitched; the others may pass {n} and play on.", rules?.target ?? 7)) },
];

let tour = null; // {dlg, step, root, table, back}: the walkthrough on screen
let resumeAt = 0; // the step it stood aside at for the player's timed move

/** Hook for table.js after each draw: start the walkthrough for a seated player the
 * first time, or point the open one at the newly drawn table. */
export function walkthrough(root, table) {
  if (tour) {
    tour.root = root;
    tour.table = table;
    if (myClock(root)) return standAside();
    point();
    return;
  }
  if (table.seat === null || table.seat === undefined || settings.get("walkthroughDone")) return;
  // Not while the player's own turn runs on the clock: reading it would cost them the
  // move (the stand-in plays at the deadline). It opens at the next draw that is not.
  if (myClock(root)) return;
  start(root, table);
}

/** The player's timed move has come: the walkthrough closes for it, unfinished, and
 *  opens again at this step after the move. */
function standAside() {
  resumeAt = tour.step;
  tour.aside = true;
  tour.dlg.close();
}

/** The table's countdown of the player's own move, when one is running (table.js). */
function myClock(root) {
  return root.querySelector("#turn-clock.mine:not([hidden])");
}

/** The "Show the walkthrough again" button (settings dialog, rules page). */
export function walkthroughAgain(then) {
  return h(
    "button",
    {
      type: "button",
      id: "walkthrough-again",
      onclick: () => {
        settings.set("walkthroughDone", false);
        then?.();
      },
    },
    t("Show the walkthrough again"),
  );
}

function start(root, table) {
  const dlg = h("dialog", { class: "walkthrough", id: "walkthrough", "aria-labelledby": "walkthrough-title", "aria-describedby": "walkthrough-text" });
  tour = { dlg, step: resumeAt, root, table, back: document.activeElement, scroll: scrollY, aside: false };
  dlg.addEventListener("close", finish);
  dlg.addEventListener("keydown", (e) => {
    if (e.key === "Tab") return keepFocus(e);
    if (e.target.closest("button, a") && (e.key === "Enter" || e.key === " ")) return;
    if (e.key === "ArrowRight") go(1);
    else if (e.key === "ArrowLeft") go(-1);
    else return;
    e.preventDefault();
  });
  // Leaving the table (the browser's Back) takes the walkthrough away with it.
  addEventListener("popstate", closeTour);
  addEventListener("resize", point);
  document.body.append(dlg);
  dlg.showModal(); // Esc closes it (the browser's "cancel"); focus stays inside
  render();
}

function go(d) {
  const next = tour.step + d;
  if (next < 0) return;
  if (next >= STEPS.length) return tour.dlg.close();
  tour.step = next;
  render();
}

function render() {
  const { dlg, step } = tour;
  const s = STEPS[step];
  const last = step === STEPS.length - 1;
  const next = h("button", { type: "button", class: "primary", id: "walkthrough-next", onclick: () => go(1) }, last ? t("Done") : t("Next"));
  append(clear(dlg), [
    h("p", { class: "walkthrough-step", id: "walkthrough-step" }, t("Step {n} of {total}", { n: step + 1, total: STEPS.length })),
    h("h2", { id: "walkthrough-title" }, s.title()),
    h("p", { id: "walkthrough-text" }, s.text(tour.table.msg?.rules)),
    last ? h("p", {}, h("a", { href: "/rules", id: "walkthrough-rules", onclick: () => dlg.close() }, t("Read the full rules"))) : null,
    h(
      "div",
      { class: "walkthrough-buttons" },
      h("button", { type: "button", id: "walkthrough-close", onclick: () => dlg.close() }, t("Close")),
      h("span", { class: "spacer" }),
      h("button", { type: "button", id: "walkthrough-back", disabled: step === 0, onclick: () => go(-1) }, t("Back")),
      next,
    ),
  ]);
  point();
  next.focus();
}

/** Mark the element this step explains and place the box next to it. */
function point() {
  if (!tour) return;
  for (const el of document.querySelectorAll(".walkthrough-target")) el.classList.remove("walkthrough-target");
  const { dlg, root } = tour;
  const target = STEPS[tour.step].at.map((sel) => root.querySelector(sel)).find(Boolean);
  dlg.classList.toggle("pointing", Boolean(target));
  if (!target) return;
  target.classList.add("walkthrough-target");
  target.scrollIntoView({ block: "nearest" });
  // Beside the target: below it if the box fits there, else above, else at the bottom.
  const r = target.getBoundingClientRect();
  const box = dlg.getBoundingClientRect();
  const gap = 12;
  let top = r.bottom + gap;
  if (top + box.height > innerHeight) top = r.top - gap - box.height;
  if (top < gap) top = innerHeight - box.height - gap;
  const left = Math.min(Math.max(gap, r.left + r.width / 2 - box.width / 2), innerWidth - box.width - gap);
  dlg.style.top = `${Math.max(gap, Math.round(top))}px`;
  dlg.style.left = `${Math.max(gap, Math.round(left))}px`;
}

/** Tab and Shift+Tab go round the walkthrough's own controls, never out to the browser. */
function keepFocus(e) {
  const all = [...tour.dlg.querySelectorAll("a[href], button:not(:disabled)")];
  const at = all.indexOf(document.activeElement);
  const next = e.shiftKey ? (at <= 0 ? all.length - 1 : at - 1) : (at + 1) % all.length;
  e.preventDefault();
  all[next]?.focus();
}

function closeTour() {
  tour?.dlg.close();
}

function finish() {
  removeEventListener("popstate", closeTour);
  removeEventListener("resize", point);
  for (const el of document.querySelectorAll(".walkthrough-target")) el.classList.remove("walkthrough-target");
  const { dlg, back, scroll, aside, root, table } = tour;
  tour = null;
  dlg.remove();
  if (!aside) {
    resumeAt = 0;
    settings.set("walkthroughDone", true);
  }
  // Focus to the player's move when it is theirs (the first bid button in the auction,
  // a playable card in play), else back to where they were; that element may have been
  // redrawn meanwhile. The steps scrolled the page to what they explain (on a phone,
  // down to the scores): back to where it was, so the status line and the buttons are
  // in view again.
  const g = table.msg?.game;
  const move = g && g.turn === table.seat ? root.querySelector(g.phase === "bid" ? "#actions .bid-button" : "#hand .card.legal") : null;
  const again = move || (back?.isConnected && back !== document.body ? back : document.getElementById("hand")?.querySelector("button") || document.getElementById("main"));
  again?.focus?.({ preventScroll: true });
  scrollTo(0, scroll);
}
