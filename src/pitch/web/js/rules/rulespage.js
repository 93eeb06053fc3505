// The rules page (/rules): the rules as the engine plays them, one rule per id of
// RULES.md (R1.1 ... R6.2), the table options and worked examples. The long texts are
// data, web/rulebook/<lang>.json, one file per language of i18n.LANGUAGES; every
// text becomes a text node (rule ids in it become links to that rule).

import { clear, h, toast } from "../core/dom.js";
import * as i18n from "../core/i18n.js";
import { t } from "../core/i18n.js";
import { withRuleLinks } from "../core/messages.js";
import { walkthroughAgain } from "../table/walkthrough.js";

const books = new Map(); // language -> the parsed rulebook
let root = null;
let drawn = 0; // which draw is current: a slow load for an old language must not win

export async function showRules(main) {
  root = main;
  await draw();
}

export function redraw() {
  draw();
}

export function leave() {
  root = null;
}

/** The address moved to another rule of this page (#R4.3): show it, no redraw. */
export function onHash() {
  if (!root || !/^\/rules\/?$/.test(location.pathname)) return false;
  showTarget();
  return true;
}

async function book(lang) {
  if (!books.has(lang)) {
    const res = await fetch(new URL(`../../rulebook/${lang}.json`, import.meta.url));
    if (!res.ok) throw new Error(`no rulebook for ${lang}`);
    books.set(lang, await res.json());
  }
  return books.get(lang);
}

async function draw() {
  const mine = ++drawn;
  const lang = i18n.current();
  let data;
  try {
    data = await book(lang);
  } catch {
    data = await book("en"); // the English text is better than none
  }
  if (mine !== drawn || !root) return;
  clear(root).append(rulebook(data));
  document.title = `${data.title} · ${t("Pitch")}`;
  showTarget();
}

function rulebook(data) {
  const parts = [...data.sections, data.houseRules, data.examples];
  return h(
    "article",
    { class: "rulebook", id: "rulebook", lang: data.language },
    h("h1", {}, data.title),
    h("p", { class: "rules-intro" }, withRuleLinks(data.intro)),
    h(
      "nav",
      { class: "rules-toc", "aria-label": t("Contents") },
      h("ol", {}, parts.map((p) => h("li", {}, h("a", { href: `/rules#${p.id}` }, p.id.startsWith("R") ? `${p.id} ` : null, p.title)))),
    ),
    h("p", { class: "rules-actions" }, walkthroughAgain(() => toast(t("The walkthrough will show when you next sit at a table.")))),
    data.sections.map(section),
    houseRules(data.houseRules),
    examples(data.examples),
  );
}

function section(s) {
  return h(
    "section",
    { class: "rule-section", id: s.id, tabindex: "-1", "aria-labelledby": `${s.id}-title` },
    h("h2", { id: `${s.id}-title` }, h("span", { class: "rule-id" }, s.id), " ", s.title),
    h(
      "ol",
      { class: "rule-list" },
      s.rules.map((r) =>
        h(
          "li",
          { class: "rule", id: r.id, tabindex: "-1" },
          h("a", { class: "rule-id", href: `/rules#${r.id}` }, r.id),
          " ",
          r.name ? [h("strong", {}, r.name), ": "] : null,
          withRuleLinks(r.text),
        ),
      ),
    ),
  );
}

function houseRules(part) {
  return h(
    "section",
    { class: "rule-section house-rules", id: part.id, tabindex: "-1" },
    h("h2", {}, part.title),
    h("p", {}, withRuleLinks(part.intro)),
    h(
      "dl",
      { class: "options" },
      part.options.map((o) => [
        h("dt", { id: `option-${o.option}` }, h("span", {}, o.name), " ", h("a", { class: "rule-link", href: `/rules#${o.rule}` }, o.rule)),
        h("dd", {}, withRuleLinks(o.text)),
      ]),
    ),
  );
}

function examples(part) {
  return h(
    "section",
    { class: "rule-section examples", id: part.id, tabindex: "-1" },
    h("h2", {}, part.title),
    h("p", {}, withRuleLinks(part.intro)),
    h(
      "ol",
      { class: "example-list" },
      part.items.map((x) =>
        h("li", {}, h("p", { class: "case" }, withRuleLinks(x.case)), h("p", { class: "result" }, withRuleLinks(x.result)), h("p", { class: "cites" }, x.rules.map((r, i) => [i ? ", " : null, h("a", { class: "rule-link", href: `/rules#${r}` }, r)]))),
      ),
    ),
  );
}

/** Scroll to the rule the address names (#R4.3) and mark it; reading starts there. */
function showTarget() {
  for (const el of root.querySelectorAll(".is-target")) el.classList.remove("is-target");
  let id = "";
  try {
    id = decodeURIComponent(location.hash.slice(1));
  } catch {
    // A malformed address (#%E0%A4%A) names no rule.
  }
  const el = id && document.getElementById(id);
  if (!el || !root.contains(el)) return;
  el.classList.add("is-target");
  el.focus({ preventScroll: true });
  el.scrollIntoView({ block: "start" });
}
