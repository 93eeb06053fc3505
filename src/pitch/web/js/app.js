// Entry point: header with the language switch and settings, and a tiny router.
//   /           lobby (create a table)
//   /t/<id>     a table (invite links point here)
//   /rules      the rules (/rules#R4.3 shows one rule)
//   /account    my account (signed in; accounts are optional)
//   #replay     the replay viewer (works offline from a record file); #replay-<id> opens a game
//   /leaderboard#kind   the leaderboards;  /players/<name>   a player's profile

import * as account from "./core/account.js";
import { clear, h } from "./core/dom.js";
import { icon } from "./core/icons.js";
import * as i18n from "./core/i18n.js";
import { loadLevels } from "./core/levels.js";
import { walkthroughAgain } from "./table/walkthrough.js";
import { t } from "./core/i18n.js";
import * as settings from "./core/settings.js";
import * as sound from "./core/sound.js";

let page = null; // the module showing the current page

function route() {
  const m = location.pathname.match(/^\/t\/([^/]+)\/?$/); // a bad id: "Table not found"
  if (location.hash.startsWith("#replay")) return { name: "replay" };
  if (m) return { name: "table", id: m[1] };
  if (/^\/rules\/?$/.test(location.pathname)) return { name: "rules" };
  if (/^\/account\/?$/.test(location.pathname)) return { name: "account" };
  if (/^\/leaderboard\/?$/.test(location.pathname)) return { name: "leaderboard" };
  const p = location.pathname.match(/^\/players\/([^/]+)\/?$/);
  if (p) {
    try {
      return { name: "player", player: decodeURIComponent(p[1]) };
    } catch {
      return { name: "missing" }; // a malformed %-escape
    }
  }
  if (/^\/(index\.html)?$/.test(location.pathname)) return { name: "lobby" };
  return { name: "missing" };
}

async function show() {
  const main = document.getElementById("main");
  const r = route();
  page?.leave?.();
  clear(main);
  drawHeader(r);
  await loadLevels(); // bot level names, for every page that names a bot seat
  if (r.name === "replay") {
    page = await import("./replay/replay.js");
    page.showReplay(main, history.state?.records || null, { analyse: Boolean(history.state?.analyse) });
  } else if (r.name === "rules") {
    page = await import("./rules/rulespage.js");
    await page.showRules(main);
  } else if (r.name === "account") {
    page = await import("./account/accountpage.js");
    await page.showAccount(main);
  } else if (r.name === "leaderboard") {
    page = await import("./players/players.js");
    await page.showLeaderboard(main);
  } else if (r.name === "player") {
    page = await import("./players/players.js");
    await page.showProfile(main, r.player);
  } else if (r.name === "table") {
    page = await import("./table/table.js");
    await page.showTable(main, r.id);
  } else if (r.name === "missing") {
    page = null;
    document.title = t("Page not found");
    main.append(
      h("section", { class: "panel" }, h("h1", {}, t("Page not found")), h("p", {}, t("There is no page at this address.")), h("a", { href: "/", class: "button primary" }, t("Back to the lobby"))),
    );
  } else {
    page = await import("./lobby/lobby.js");
    await page.showLobby(main);
  }
}

function drawHeader(r) {
  const top = document.getElementById("top");
  clear(top);
  const langSelect = h(
    "select",
    {
      id: "lang",
      "aria-label": t("Language"),
      onchange: async (e) => {
        settings.set("lang", e.target.value);
        await i18n.load(e.target.value);
        document.title = t("Pitch");
        if (page?.redraw) {
          drawHeader(route());
          page.redraw();
        } else await show();
      },
    },
    i18n.LANGUAGES.map(([code, name]) =>
      h("option", { value: code, lang: code, selected: code === i18n.current() }, name),
    ),
  );
  top.append(
    h(
      "nav",
      { class: "topbar", "aria-label": t("Main") },
      h("a", { href: "/", class: "brand", "aria-current": r.name === "lobby" ? "page" : null }, "♠ ", h("span", { class: "link-text" }, t("Pitch"))),
      h("a", { href: "/#replay", id: "replays-link", "aria-current": r.name === "replay" ? "page" : null }, icon("play"), h("span", { class: "link-text" }, t("Replays"))),
      h("a", { href: "/leaderboard", id: "board-link", "aria-current": r.name === "leaderboard" ? "page" : null }, icon("trophy"), h("span", { class: "link-text" }, t("Leaderboard"))),
      h("a", { href: "/rules", id: "rules-link", "aria-current": r.name === "rules" ? "page" : null }, icon("book"), h("span", { class: "link-text" }, t("Rules"))),
      h("span", { class: "spacer" }),
      account.accountEntry(),
      // A phone's bar has no room for the longest name (Norsk bokmål): there the select
      // lies unseen over its language's code, and its list shows every name whole.
      h("label", { class: "lang-switch" }, h("span", { class: "sr-only" }, t("Language")), h("span", {}, icon("globe")), h("span", { class: "lang-code", "aria-hidden": "true" }, i18n.current().toUpperCase()), langSelect),
      h(
        "button",
        { type: "button", class: "icon-button", id: "settings-button", "aria-label": t("Settings"), title: t("Settings"), onclick: openSettings },
        "⚙",
      ),
    ),
  );
  document.title = t("Pitch");
  document.querySelector(".skip-link").textContent = t("Skip to content");
}

function openSettings() {
  const dlg = h("dialog", { class: "settings", "aria-label": t("Settings") });
  const check = (key, label) =>
    h(
      "label",
      { class: "check" },
      h("input", {
        type: "checkbox",
        name: key,
        checked: settings.get(key),
        onchange: (e) => settings.set(key, e.target.checked),
      }),
      " ",
      label,
    );
  const speeds = [
    ["off", t("No animation")],
    ["fast", t("Fast")],
    ["normal", t("Normal")],
    ["slow", t("Slow")],
  ];
  dlg.append(
    h("h2", {}, t("Settings")),
    check("fourColour", t("Four-colour deck (clubs green, diamonds blue)")),
    check("sound", t("Sound")),
    check("hints", t("Show the hint button")),
    walkthroughAgain(() => dlg.close()),
    h(
      "label",
      {},
      t("Animation speed"),
      " ",
      h(
        "select",
        { name: "speed", onchange: (e) => settings.set("speed", e.target.value) },
        speeds.map(([v, l]) => h("option", { value: v, selected: settings.get("speed") === v }, l)),
      ),
    ),
    // The table's keys (also on each control as aria-keyshortcuts), so they are found.
    h("p", { class: "muted small keys-help" }, t("Keys at the table: P pass, 1–4 bid, H hint, L last trick; ← → move between your cards, Enter plays one.")),
    h("p", { class: "muted small replay-keys-help" }, t("Keys in the replay: ← → a move, Page Up/Down a hand, Home/End; once analysed, N the next mistake, B the previous one.")),
    h(
      "form",
      { method: "dialog" },
      h("button", { class: "primary", type: "submit" }, t("Done")),
    ),
  );
  dlg.addEventListener("close", () => {
    dlg.remove();
    page?.redraw?.();
  });
  document.body.append(dlg);
  dlg.showModal();
}

document.addEventListener("keydown", (e) => {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
  if (page?.onKey?.(e)) e.preventDefault();
  else if (page?.replayKey?.(e)) e.preventDefault();
});

// A new #R4.3 on the rules page only moves to that rule (page.onHash); anything else redraws.
const moved = () => page?.onHash?.() || show();
window.addEventListener("popstate", moved);
window.addEventListener("hashchange", moved);
/** The app's own pages (see route()); any other link (the API, a download) is the browser's. */
const IN_APP = /^\/(?:t\/[a-z0-9]+\/?|rules|account|leaderboard|players\/[^/?#]+)?(?:#[\w.-]*)?$/;

document.addEventListener("click", (e) => {
  const a = e.target.closest?.("a[href]");
  // The skip link only moves focus: as a new #main address the router would draw the
  // page again (and a table would reconnect).
  if (a?.classList.contains("skip-link")) {
    e.preventDefault();
    document.getElementById("main").focus();
    return;
  }
  // Links to the app's pages go through the router instead of reloading.
  if (!a || a.target || a.hasAttribute("download") || !IN_APP.test(a.getAttribute("href"))) return;
  if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  history.pushState(null, "", a.getAttribute("href"));
  moved();
});

/** Navigate inside the app (used by the lobby and the end-of-game screen). */
export function navigate(path, state = null) {
  history.pushState(state, "", path);
  show();
}
window.pitchNavigate = navigate;

function applyLook() {
  document.documentElement.dataset.anim = settings.get("speed");
  document.documentElement.dataset.deck = settings.get("fourColour") ? "four" : "two";
}
settings.onChange((key) => {
  applyLook();
  if (key === "sound") sound.click();
});
applyLook();

await i18n.load(i18n.initialLanguage());
await account.refresh();
// Signed in or out: the top bar shows it, and a page that depends on it draws again.
account.onChange(() => {
  drawHeader(route());
  page?.accountChanged?.();
});
await show();
document.body.classList.add("ready");
