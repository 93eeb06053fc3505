// User preferences, kept in localStorage so they survive reloads.

const KEY = "pitch.settings";
const DEFAULTS = {
  lang: null, // null: follow the browser
  fourColour: false,
  speed: "normal", // off | fast | normal | slow
  sound: true,
  hints: true,
  name: "",
  walkthroughDone: false, // the first-game walkthrough was seen (walkthrough.js)
};

let current = { ...DEFAULTS, ...read() };
const listeners = new Set();

function read() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch {
    return {};
  }
}

export function get(name) {
  return current[name];
}

export function set(name, value) {
  current = { ...current, [name]: value };
  try {
    localStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    // Private mode: settings last for this page only.
  }
  for (const fn of listeners) fn(name, value);
}

export function onChange(fn) {
  listeners.add(fn);
}

/** Animation time in ms for a base duration, scaled by the speed setting. */
export function duration(ms) {
  const f = { off: 0, fast: 0.45, normal: 1, slow: 1.8 }[current.speed] ?? 1;
  return Math.round(ms * f);
}

/** Seat tokens: the only key to a claimed seat, kept per table. */
export function token(table) {
  try {
    return localStorage.getItem(`pitch.token.${table}`);
  } catch {
    return null;
  }
}

/** Where quick play seated this tab at `table` ("fresh", "between", "mid-hand": the
 *  server's answer), for the table's notice; kept for the tab, gone with it. */
export function joined(table) {
  try {
    return sessionStorage.getItem(`pitch.joined.${table}`);
  } catch {
    return null;
  }
}

export function saveJoined(table, how) {
  try {
    sessionStorage.setItem(`pitch.joined.${table}`, String(how));
  } catch {
    // Without storage the table says only what it knows (a game in progress).
  }
}

export function saveToken(table, seat, tok) {
  try {
    localStorage.setItem(`pitch.token.${table}`, tok);
    localStorage.setItem(`pitch.seat.${table}`, String(seat));
  } catch {
    // Without storage the seat lasts as long as the page.
  }
}
