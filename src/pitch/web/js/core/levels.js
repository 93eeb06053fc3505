// Bot levels, weakest to strongest, as the server lists them (GET /api/bots `levels`,
// from the bots' registry): the one list of levels. Only their names are translated here.

import * as api from "./api.js";
import { t } from "./i18n.js";

let list = [{ level: "beginner", spec: "random" }];
let loading = null;

/** Fetch the server's list once (later calls share it); on failure the fallback stays. */
export function loadLevels() {
  loading ??= api
    .bots()
    .then((b) => {
      const got = Array.isArray(b?.levels) ? b.levels.filter((l) => typeof l?.level === "string" && typeof l?.spec === "string") : [];
      if (got.length) list = got.map((l) => ({ level: l.level, spec: l.spec }));
    })
    .catch(() => {
      loading = null; // try again next time
    });
  return loading;
}

/** The levels, weakest to strongest: [{level, spec}]. */
export function levels() {
  return list;
}

function names() {
  return { beginner: t("Beginner"), club: t("Club player"), expert: t("Expert"), master: t("Master") };
}

/** A level's name in the player's language, for a level (`club`) or the bot spec a table
 * stores for it (`heuristic`); anything else shows as the server names it. */
export function levelName(x) {
  const lv = list.find((l) => l.level === x || l.spec === x);
  const id = lv ? lv.level : x;
  return Object.hasOwn(names(), id) ? names()[id] : id;
}
