// Plain-words explanations for refused moves: the engine decides, the browser translates.

import { cardName, suitName } from "./cards.js";
import { h } from "./dom.js";
import { serverText, t, tn } from "./i18n.js";

/** A text with each rule id in it ("rule R4.3") made a link to that rule on /rules. */
export function withRuleLinks(text) {
  return String(text)
    .split(/\b(R[1-6]\.[1-9])\b/)
    .map((part, i) => (i % 2 ? h("a", { href: `/rules#${part}`, class: "rule-link" }, part) : part));
}

/**
 * Why the engine refuses a move, from a `{rule, key, args}` the server sent (the state's
 * `refusals`, an error's `refusal`): its key translated and filled, then the rule.
 */
export function refusalText(r) {
  const args = {};
  for (const [k, v] of Object.entries(r.args || {})) {
    args[k] = k === "suit" || k === "trump" ? suitName(v) : k === "card" ? cardName(v) : v;
  }
  return t("{reason} (rule {rule}).", { reason: serverText(r.key, args), rule: r.rule });
}

/** A server error code (docs/server.md) in plain words. */
export function serverError(code, extra = {}) {
  if (extra.refusal) return refusalText(extra.refusal);
  const text = knownError(code, extra);
  if (text) return text;
  if (/^R[1-6]\.[1-9]$/.test(code)) return t("That move breaks rule {rule}.", { rule: code });
  return unknownError(code);
}

const PLAIN_CODE = /^[a-z_]{1,40}$/;

/** A code this client has no words for: said generically, the code only where it is a
 *  plain word (a hostile or broken answer's text never reaches the page). */
function unknownError(code) {
  const shown = typeof code === "number" || PLAIN_CODE.test(code) ? code : "?";
  return t("Something went wrong ({code}).", { code: shown });
}

/** Why a name or a chat line breaks the text rule (`reason`: pitch.server.kernel.text.REASONS). */
function textRefused(what, extra) {
  const limit = Number.isInteger(extra.limit) ? extra.limit : null;
  const name = what === "name";
  switch (extra.reason) {
    case "empty":
      return name ? t("Please enter your name.") : t("The message is empty.");
    case "too_long":
      return name
        ? t("A name may be at most {n} characters long.", { n: limit ?? 32 })
        : t("A chat message may be at most {n} characters long.", { n: limit ?? 200 });
    case "invisible":
      return name
        ? t("A name may not hold invisible or text-direction characters.")
        : t("A chat message may not hold invisible or text-direction characters.");
    case "marks":
      return name ? t("A name may not stack so many accents on one letter.") : t("A chat message may not stack so many accents on one letter.");
    case "mixed_script":
      return t("A name may not mix two alphabets in one word (such as Latin and Cyrillic letters).");
    default:
      return name ? t("That name cannot be used; choose another.") : t("That chat message cannot be sent.");
  }
}

/** The words for an error code this client knows (a socket's or the HTTP API's), else null. */
function knownError(code, extra) {
  const seat = { n: (Number.isInteger(extra.seat) ? extra.seat : 0) + 1 };
  const notUnderstood = t("The server did not understand the request; reload the page and try again.");
  const known = {
    not_your_turn: t("It is not your turn."),
    stale: t("The game moved on before your move arrived; look again."),
    game_over: t("The game is over."),
    not_started: t("The game starts when every seat is taken."),
    bad_token: t("This seat's key is not valid any more. Take a seat again."),
    spectator: t("You are watching this table; take a seat to play."),
    rate_limited: t("Too many messages; slow down a little."),
    server_busy: t("The server is busy; try again."),
    no_table: t("There is no table at this address."),
    no_player: t("No player goes by that name."),
    too_many_tables: t("You have too many tables open. Close one; this one keeps trying to connect."),
    too_many_spectators: t("You are watching this table in too many windows. Close one; this one keeps trying to connect."),
    bad_action: t("That move is not understood."),
    // The HTTP API's codes (its error answers' `code`), where they differ from the above.
    no_seat: t("There is no such seat at this table."),
    seat_taken: t("Seat {n} is taken.", seat),
    seat_is_bot: t("Seat {n} is a bot's.", seat),
    name_taken: t("Someone at this table already goes by that name; choose another."),
    name_reserved: t("That name is kept for the bots; choose another."),
    seat_changed: t("Seat {n} changed meanwhile; try again.", seat),
    try_again: t("The table changed meanwhile; try again."),
    not_over: t("The game is not over yet."),
    not_quick: t("This table is not open to quick play."),
    no_open_seat: t("No seat is open at this table."),
    too_many_requests: t("Too many requests: wait a minute and try again."),
    too_many_open: t("You have too many unfinished tables from the last day (at most {n}): finish or leave some first, under My tables in the lobby.", { n: extra.limit ?? "?" }),
    server_full: t("The server is full; try again later."),
    bad_name: code === "bad_name" ? textRefused("name", extra) : null,
    bad_chat: code === "bad_chat" ? textRefused("chat", extra) : null,
    chat_off: t("This table does not take that kind of chat."),
    chat_full: t("This table's chat is full."),
    bad_rules: t("These table rules cannot be played; change them and try again."),
    no_human: t("A table needs at least one seat for a person."),
    rated_rules: t("A rated table plays the standard rules. Set the house rules back, or untick Rated for a casual table."),
    other_site: t("The request came from another site's page, so it was refused."),
    too_slow: t("The request took too long to arrive; try again."),
    hint_failed: t("No hint could be worked out in time; try again."),
    // Accounts (docs/server.md, "Accounts").
    name_in_use: t("Someone already has an account by that name, or one that looks like it; choose another."),
    bad_password: t("A password needs {min} to {max} characters.", { min: extra.min ?? 8, max: extra.max ?? 256 }),
    bad_login: t("The name or the password is wrong."),
    signed_out: t("You are not signed in, or your session has ended; sign in again."),
    too_many_attempts: Number.isInteger(extra.retry_after) && extra.retry_after > 120
      ? tn("Too many failed sign-ins; try again in {n} minute.", "Too many failed sign-ins; try again in {n} minutes.", Math.ceil(extra.retry_after / 60))
      : Number.isInteger(extra.retry_after)
      ? tn("Too many failed sign-ins; try again in {n} second.", "Too many failed sign-ins; try again in {n} seconds.", extra.retry_after)
      : t("Too many failed sign-ins; wait a while and try again."),
    bad_passkey: t("The passkey was not accepted; try again, or sign in with your name and password."),
    too_many_passkeys: t("An account may have at most {n} passkeys: remove one first.", { n: extra.limit ?? 10 }),
    passkey_known: t("This passkey is added already."),
    no_passkey: t("That passkey is gone already."),
    bad_record: t("This record breaks the rules, so it cannot be analysed."),
    record_too_long: t("This game is too long to analyse."),
    no_job: t("The analysis was lost (the server restarted); ask for it again."),
    // Friends and safety (docs/server.md, "Friends and safety").
    no_such_player: t("No player goes by that name."),
    blocked: t("You cannot do that: one of you has blocked the other."),
    self: t("You cannot do that with yourself."),
    not_friends: t("You can invite only your friends."),
    social_limit: t("You have reached the limit of {n}; remove some first.", { n: Number.isInteger(extra.limit) ? extra.limit : "?" }),
    no_invite: t("That invitation has expired or was withdrawn."),
    bad_text: code === "bad_text" ? textRefused("chat", extra) : null,
    // A request or message the server could not read: the client sent it, so a reload
    // (a newer client) is what may help. FastAPI's own 422 is `bad_request`.
    bad_request: notUnderstood,
    no_route: notUnderstood,
    not_json: notUnderstood,
    too_large: notUnderstood,
    bad_json: notUnderstood,
    bad_message: notUnderstood,
    unknown_type: notUnderstood,
    not_authenticated: notUnderstood,
    already_authenticated: notUnderstood,
  };
  return Object.hasOwn(known, code) ? known[code] : null;
}

/** A refused HTTP request (api.ApiError) in the reader's language: its `code` where this
 *  client knows it (by the status where the answer had no code), else a generic sentence
 *  with the status. The answer's `detail` (English, or FastAPI's list of fields) is never
 *  shown; a request that got no answer at all says so. */
export function apiError(e) {
  if (typeof e?.status !== "number") return t("The server could not be reached; try again.");
  const code = e.code || { 404: "no_table", 422: "bad_request", 429: "too_many_requests", 503: "server_busy" }[e.status];
  return (code && knownError(code, e.body || {})) || unknownError(PLAIN_CODE.test(code) ? code : e.status);
}
