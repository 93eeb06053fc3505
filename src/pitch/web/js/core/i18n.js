// Translations: msgid -> text catalogs built from gettext .po files
// (scripts/build_web_i18n.py writes web/i18n/<lang>.json, and languages.json from
// pitch.i18n, the one list of languages).

import * as settings from "./settings.js";

async function fetchLanguages() {
  const res = await fetch(new URL("../../i18n/languages.json", import.meta.url));
  if (!res.ok) throw new Error("no list of languages");
  return (await res.json()).languages;
}

/** [[code, name], ...]: every language with a catalog, in the order the site lists them. */
export const LANGUAGES = await fetchLanguages();
const CODES = LANGUAGES.map(([c]) => c);

let lang = "en";
let catalog = {};
/** msgids asked for but missing from the catalog (the tests read this). */
export const missing = new Set();

/** The first supported language in the browser's list ("nb-NO" -> nb, "no" -> nb). */
export function browserLanguage(list = navigator.languages || [navigator.language]) {
  for (const tag of list || []) {
    const base = String(tag).toLowerCase().split("-")[0];
    const code = base === "no" || base === "nn" ? "nb" : base;
    if (CODES.includes(code)) return code;
  }
  return "en";
}

export function current() {
  return lang;
}

export async function load(code) {
  const want = CODES.includes(code) ? code : "en";
  const res = await fetch(new URL(`../../i18n/${want}.json`, import.meta.url));
  if (!res.ok) throw new Error(`no catalog for ${want}`);
  catalog = (await res.json()).messages;
  lang = want;
  missing.clear();
  document.documentElement.lang = want;
  return want;
}

function fill(text, params) {
  return params ? text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m)) : text;
}

/** Translate msgid and fill {placeholders} from params. */
export function t(msgid, params) {
  let text = catalog[msgid];
  if (typeof text !== "string" || !text) {
    missing.add(msgid);
    text = msgid;
  }
  return fill(text, params);
}

/** Translate a message about a count n ({n} in it): the form the page's language uses
 *  for n (its plural category, Intl.PluralRules; the catalog keys them so), English's
 *  `one` or `other` when the catalog lacks it. */
export function tn(one, other, n, params) {
  const forms = catalog[one];
  let text;
  if (forms && typeof forms === "object") {
    text = forms[new Intl.PluralRules(lang).select(n)] ?? forms.other;
  } else {
    missing.add(one);
  }
  return fill(text || (n === 1 ? one : other), { n, ...params });
}

/** Translate a message key the server sent (hint explanations): the catalogs hold
 *  them too (scripts/build_web_i18n.py SERVER_KEYS), so a missing one is caught there. */
export function serverText(msgid, params) {
  return t(msgid, params);
}

/** Does the catalog hold this msgid (a key a server sent is worded only where it does)? */
export function hasMessage(msgid) {
  return typeof catalog[msgid] === "string" && catalog[msgid] !== "";
}

/** Initial language: the saved choice, else the browser's. */
export function initialLanguage() {
  return settings.get("lang") || browserLanguage();
}

// The test reads window.pitchI18n to check every page for missing strings.
window.pitchI18n = { missing, current };
