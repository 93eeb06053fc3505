// The leaderboards (/leaderboard#kind) and players' profiles (/players/NAME), from
// GET /api/leaderboard/{kind} and GET /api/players/{name} (docs/server.md). Names and
// every other server field become text nodes; the chart is SVG built with DOM calls.

import * as account from "../core/account.js";
import * as api from "../core/api.js";
import { ApiError } from "../core/api.js";
import { clear, h, s, toast } from "../core/dom.js";
import { current, t, tn } from "../core/i18n.js";
import { levelName } from "../core/levels.js";
import { apiError } from "../core/messages.js";
import * as social from "../core/social.js";

const KINDS = ["headsup", "solo", "partnership"];
let root = null;
let redrawNow = null; // the page's last drawing, for a language change
let onResize = null;
let unwatch = null; // the profile's hold on GET /api/social (a signed-in reader)

function kindName(kind) {
  return { headsup: t("Heads-up"), solo: t("Solo"), partnership: t("Partnership") }[kind] ?? kind;
}

const num = (n) => new Intl.NumberFormat(current()).format(n);
const day = (iso) => new Intl.DateTimeFormat(current(), { dateStyle: "medium" }).format(new Date(iso));

async function get(path) {
  const res = await fetch(path, { headers: { Accept: "application/json" } });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data ?? { detail: res.statusText });
  return data;
}

export const profileHref = (name) => `/players/${encodeURIComponent(name)}`;

export function leave() {
  unwatch?.();
  unwatch = null;
  if (onResize) window.removeEventListener("resize", onResize);
  onResize = null;
  root = null;
}

export function redraw() {
  redrawNow?.();
}

function failed(title, e) {
  clear(root);
  document.title = title;
  root.append(h("section", { class: "panel" }, h("h1", {}, title), h("p", { role: "alert" }, apiError(e))));
}

// ------------------------------------------------------------------ leaderboard

export async function showLeaderboard(main) {
  root = main;
  const kind = KINDS.includes(location.hash.slice(1)) ? location.hash.slice(1) : await myKind();
  let board;
  try {
    board = await get(`/api/leaderboard/${kind}`);
  } catch (e) {
    failed(t("Leaderboard"), e);
    return;
  }
  redrawNow = () => drawBoard(board);
  drawBoard(board);
}

/** With no kind in the address, a signed-in player's own: the kind of table they played
 *  most (a new player back from their first solo game finds themselves at once). Their
 *  ratings are asked again: a game may have ended since the page loaded. */
async function myKind() {
  if (!account.current()) return "headsup";
  const ratings = (await account.refresh())?.ratings ?? {};
  const games = (k) => (Number.isInteger(ratings[k]?.games) ? ratings[k].games : 0);
  return KINDS.reduce((a, k) => (games(k) > games(a) ? k : a), "headsup");
}

/** Where the signed-in player stands: their place, or while their rating of this kind
 *  is provisional (kept off the board) the rating itself and the games still to play. */
function myPlace(board) {
  const me = board.me;
  if (!me) return null;
  if (me.place !== null) return t("Your place: {place} (rating {rating}).", { place: num(me.place), rating: num(me.rating) });
  const left = board.provisional_games - me.games;
  if (me.rating === null || left <= 0) return t("Your rating joins the leaderboard after {n} rated games of this kind; you have played {games}.", { n: num(board.provisional_games), games: num(me.games) });
  return tn("Your rating: {rating}, provisional. It joins the leaderboard after {n} more rated game of this kind.", "Your rating: {rating}, provisional. It joins the leaderboard after {n} more rated games of this kind.", left, { rating: num(me.rating) });
}

function drawBoard(board) {
  if (!root) return;
  clear(root);
  document.title = `${t("Leaderboard")} · ${t("Pitch")}`;
  const tabs = h(
    "nav",
    { class: "board-tabs", "aria-label": t("Kind of table") },
    KINDS.map((k) => h("a", { href: `/leaderboard#${k}`, class: "button", "aria-current": k === board.kind ? "page" : null }, kindName(k))),
  );
  const row = (r) => {
    const who = r.bot
      ? h("span", {}, levelName(r.bot), " ", h("span", { class: "bot-badge" }, t("bot")))
      : r.name
        ? h("a", { href: profileHref(r.name) }, r.name)
        : h("span", {}, "—"); // an account the server could not name
    return h(
      "tr",
      { class: r.me ? "me" : null, dataset: { bot: r.bot ?? "" }, "aria-current": r.me ? "true" : null },
      h("td", { class: "num" }, num(r.place)),
      h("th", { scope: "row" }, who, r.me ? h("span", { class: "you" }, " ", t("(you)")) : null),
      h("td", { class: "num" }, num(r.rating)),
      h("td", { class: "num" }, r.games === null ? "—" : num(r.games)),
    );
  };
  const mine = myPlace(board);
  root.append(
    h(
      "section",
      { class: "panel leaderboard" },
      h("h1", {}, t("Leaderboard")),
      tabs,
      h("p", { class: "muted" }, t("Players with at least {n} rated games, and our bots at their fixed ratings.", { n: num(board.provisional_games) })),
      mine ? h("p", { class: "my-place" }, mine) : null,
      h(
        "div",
        { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("Leaderboard") },
        h(
          "table",
          { class: "board-table" },
          h("caption", { class: "sr-only" }, `${t("Leaderboard")}: ${kindName(board.kind)}`),
          h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "num" }, t("Rank")), h("th", { scope: "col" }, t("Player")), h("th", { scope: "col", class: "num" }, t("Rating")), h("th", { scope: "col", class: "num" }, t("Games")))),
          h("tbody", {}, board.rows.map(row)),
        ),
      ),
    ),
  );
}

// ------------------------------------------------------------------ profile

export async function showProfile(main, name) {
  root = main;
  let p;
  try {
    p = await get(`/api/players/${encodeURIComponent(name)}`);
  } catch (e) {
    failed(e instanceof ApiError && e.status === 404 ? t("No player by that name") : t("Player"), e);
    return;
  }
  redrawNow = () => drawProfile(p);
  let width = 0;
  onResize = () => {
    const w = root?.clientWidth ?? 0;
    if (Math.abs(w - width) > 24) (width = w), drawProfile(p);
  };
  window.addEventListener("resize", onResize);
  width = root.clientWidth;
  drawProfile(p);
  watchSocial(p.name);
}

/** Someone else's profile, read signed in: what we are to them, kept up to date. */
function watchSocial(name) {
  unwatch?.();
  unwatch = null;
  if (!account.current() || samePlayer(account.current().name, name)) return;
  unwatch = social.watch(() => {
    const box = root?.querySelector("#profile-actions");
    if (box) fillActions(box, name);
  });
}

/** Signed in or out on this page: the buttons come or go. */
export function accountChanged() {
  redrawNow?.();
  const name = root?.querySelector(".profile h1")?.textContent;
  if (name) watchSocial(name);
}

const samePlayer = (a, b) => a.normalize("NFKC").toLowerCase() === b.normalize("NFKC").toLowerCase();

/** Add friend (or where the request stands), Block / Unblock, Report: a signed-in
 *  reader on another player's profile only. */
function profileActions(name) {
  const me = account.current();
  if (!me || samePlayer(me.name, name)) return null;
  const box = h("div", { class: "profile-actions buttons start", id: "profile-actions" });
  fillActions(box, name);
  return box;
}

function fillActions(box, name) {
  clear(box);
  const known = social.current();
  if (!known) return; // until the first answer: no button that might say the wrong thing
  const { friend, blocked } = social.relation(name);
  const run = (label, id, fn, attrs = {}) => {
    const b = h(
      "button",
      {
        type: "button",
        id,
        ...attrs,
        onclick: async () => {
          b.disabled = true;
          try {
            const said = await fn();
            if (said === false) {
              b.disabled = false;
              return;
            }
          } catch (e) {
            toast(apiError(e), "error");
            b.disabled = false;
            return;
          }
          await social.reload();
          box.querySelector("button:not([disabled])")?.focus();
        },
      },
      label,
    );
    return b;
  };
  if (!blocked) {
    if (friend === "friends") {
      box.append(h("span", { class: "friend-state", id: "friend-state" }, "✓ ", t("Friends")), run(t("Remove friend"), "remove-friend", () => (confirm(t("Remove {name} from your friends?", { name })) ? api.removeFriend(name) : false)));
    } else if (friend === "outgoing") {
      box.append(h("span", { class: "friend-state", id: "friend-state" }, t("Request sent")), run(t("Cancel request"), "cancel-request", () => api.removeFriend(name)));
    } else if (friend === "incoming") {
      box.append(
        run(t("Accept friend request"), "accept-friend", async () => (await api.addFriend(name), toast(t("You and {name} are friends now.", { name }))), { class: "primary" }),
        run(t("Decline"), "decline-friend", () => api.removeFriend(name)),
      );
    } else {
      box.append(
        run(
          t("Add friend"),
          "befriend",
          async () => {
            const got = await api.addFriend(name);
            toast(got?.state === "friends" ? t("You and {name} are friends now.", { name }) : t("Friend request sent to {name}.", { name }));
          },
          { class: "primary" },
        ),
      );
    }
  }
  box.append(
    blocked
      ? run(t("Unblock"), "unblock", () => api.unblock(name))
      : run(t("Block"), "block", () =>
          confirm(t("Block {name}? You will not see their chat, they cannot invite you, quick play never seats you together, and you stop being friends.", { name })) ? api.block(name) : false,
        ),
    h("button", { type: "button", id: "report-player", onclick: (e) => social.openReport({ name, opener: e.currentTarget }) }, t("Report")),
  );
}

function outcomeText(g) {
  if (g.left) return t("Left (a loss)");
  // A solo game has one winner and several places: 2nd of 3 can raise a rating, and
  // "Lost" would read as false. One message per place: ordinals differ by language.
  if (g.kind === "solo" && Number.isInteger(g.place) && Number.isInteger(g.sides)) {
    const n = num(g.sides);
    const place = [t("1st of {n}", { n }), t("2nd of {n}", { n }), t("3rd of {n}", { n }), t("4th of {n}", { n }), t("5th of {n}", { n }), t("6th of {n}", { n }), t("7th of {n}", { n })][g.place - 1];
    if (place) return place;
  }
  return { win: t("Won"), loss: t("Lost"), draw: t("Drawn") }[g.outcome] ?? g.outcome;
}

function ratingText(r) {
  return r.provisional ? `${num(r.rating)}?` : num(r.rating);
}

function drawProfile(p) {
  if (!root) return;
  clear(root);
  document.title = `${p.name} · ${t("Pitch")}`;
  const kinds = KINDS.filter((k) => p.ratings[k]);
  // One column a kind of table, one row a figure: three kinds at most fit a phone.
  const figures = [
    [t("Rating"), (r) => ratingText(r)],
    [t("Games"), (r) => num(r.games)],
    [t("Wins"), (r) => num(r.wins)],
    [t("Games left"), (r) => num(r.left)],
    [t("Hands pitched"), (r) => num(r.pitched)],
    [t("Hands set back"), (r) => num(r.set_back)],
  ];
  const stats = kinds.length
    ? h(
        "div",
        { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("Ratings") },
        h(
          "table",
          { class: "board-table profile-stats" },
          h("caption", { class: "sr-only" }, t("Ratings")),
          h("thead", {}, h("tr", {}, h("td", {}), kinds.map((k) => h("th", { scope: "col", class: "num" }, kindName(k))))),
          h(
            "tbody",
            {},
            figures.map(([label, value]) => h("tr", {}, h("th", { scope: "row" }, label), kinds.map((k) => h("td", { class: "num" }, value(p.ratings[k]))))),
          ),
        ),
      )
    : h("p", { class: "empty" }, t("No rated games yet."));
  const unsure = kinds.some((k) => p.ratings[k].provisional)
    ? h("p", { class: "muted small" }, t("? Provisional: fewer than {n} rated games of this kind.", { n: num(p.provisional_games) }))
    : null;
  const recent = p.recent.length
    ? h(
        "ul",
        { class: "recent-games" },
        p.recent.map((g) =>
          h(
            "li",
            { dataset: { table: g.table } },
            h("span", {}, h("b", {}, outcomeText(g)), " · ", kindName(g.kind), " · ", day(g.at), " · ", `${num(g.before)} → ${num(g.after)}`),
            h("a", { href: `/#replay-${g.table}`, class: "button" }, t("Watch the replay")),
          ),
        ),
      )
    : h("p", { class: "empty" }, t("No rated games yet."));
  root.append(
    h(
      "section",
      { class: "panel profile" },
      h("h1", {}, p.name),
      h("p", { class: "muted" }, t("Member since {date}", { date: day(p.member_since) })),
      profileActions(p.name),
      h("h2", {}, t("Ratings")),
      stats,
      unsure,
    ),
    h("section", { class: "panel", "aria-labelledby": "chart-title" }, h("h2", { id: "chart-title" }, t("Rating history")), p.history.length ? chart(p.history) : h("p", { class: "empty" }, t("No rated games yet."))),
    h("section", { class: "panel", "aria-labelledby": "recent-title" }, h("h2", { id: "recent-title" }, t("Recent games")), recent),
  );
}

/** A round step that gives about `want` ticks between lo and hi. */
function niceStep(lo, hi, want) {
  const raw = Math.max(1, (hi - lo) / want);
  const mag = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * mag).find((st) => st >= raw);
}

/** The rating after each game, one line per kind, x the game's number (all kinds
 *  counted, oldest first), y the rating; every point focusable with its reading. Each
 *  line starts one step left of its kind's first game, at the rating before it: one
 *  game is a line from where the player started, not a lone dot. */
function chart(history) {
  const width = Math.max(280, Math.min(1100, (root?.clientWidth || 600) - 40));
  const height = width < 500 ? 220 : 280;
  const pad = { left: 48, right: 14, top: 12, bottom: 36 };
  const ys = history.flatMap((g) => [g.before, g.after]);
  const step = niceStep(Math.min(...ys), Math.max(...ys), 4);
  const lo = Math.floor((Math.min(...ys) - 1) / step) * step;
  const hi = Math.ceil((Math.max(...ys) + 1) / step) * step;
  const n = history.length;
  // Slot 0 is before the first game; game i (0-based) is at slot i + 1.
  const x = (i) => pad.left + ((i + 1) * (width - pad.left - pad.right)) / n;
  const y = (v) => pad.top + ((hi - v) * (height - pad.top - pad.bottom)) / (hi - lo);
  const readout = h("p", { class: "chart-readout muted", "aria-live": "polite" }, t("Select a point to read it: Tab to the chart, then the arrow keys."));
  const svg = s("svg", { class: "rating-chart", width, height, viewBox: `0 0 ${width} ${height}`, role: "group", "aria-label": t("Rating after each rated game") });
  for (let v = lo; v <= hi; v += step) {
    svg.append(s("line", { class: "grid", x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v) }), s("text", { class: "tick", x: pad.left - 6, y: y(v) + 4, "text-anchor": "end" }, num(v)));
  }
  const xStep = niceStep(1, n, width < 500 ? 3 : 6);
  for (let i = 0; i <= n; i += xStep) svg.append(s("text", { class: "tick", x: x(i - 1), y: height - pad.bottom + 16, "text-anchor": "middle" }, num(i)));
  svg.append(s("text", { class: "axis-label", x: (pad.left + width - pad.right) / 2, y: height - 4, "text-anchor": "middle" }, t("Rated games")));
  const legend = [];
  const dots = new Array(n); // in game order: the arrow keys walk them
  for (const kind of KINDS) {
    const pts = history.map((g, i) => [g, i]).filter(([g]) => g.kind === kind);
    if (!pts.length) continue;
    legend.push(h("li", { class: `kind-${kind}` }, h("span", { class: "swatch", "aria-hidden": "true" }), kindName(kind)));
    const [first, at] = pts[0];
    const line = [`${x(at - 1)},${y(first.before)}`, ...pts.map(([g, i]) => `${x(i)},${y(g.after)}`)];
    svg.append(s("polyline", { class: `line kind-${kind}`, points: line.join(" ") }));
    for (const [g, i] of pts) {
      const label = t("{kind}, game {n}, {date}: {outcome}, {before} → {after}", { kind: kindName(kind), n: num(i + 1), date: day(g.at), outcome: outcomeText(g), before: num(g.before), after: num(g.after) });
      const show = () => (readout.textContent = label);
      // One tab stop for the whole chart (the newest game); arrows, Home and End move.
      dots[i] = s("circle", { class: `point kind-${kind}`, cx: x(i), cy: y(g.after), r: 5, tabindex: i === n - 1 ? "0" : "-1", role: "img", "aria-label": label, onfocus: show, onmouseenter: show }, s("title", {}, label));
      svg.append(dots[i]);
    }
  }
  svg.addEventListener("keydown", (e) => {
    const at = dots.indexOf(document.activeElement);
    if (at < 0) return;
    const to = { ArrowLeft: at - 1, ArrowDown: at - 1, ArrowRight: at + 1, ArrowUp: at + 1, Home: 0, End: n - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    e.stopPropagation(); // not the page's keys
    const next = dots[Math.max(0, Math.min(n - 1, to))];
    dots[at].setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    next.focus();
  });
  return h("figure", { class: "chart" }, svg, h("ul", { class: "chart-legend" }, legend), readout);
}
