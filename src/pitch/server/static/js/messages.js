// Plain-words explanations for refused moves, from our own check or the server's code.

import { suitName } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** A text with each rule id in it ("rule R4.3") made a link to that rule on /rules. */
export function withRuleLinks(text) {
  return String(text)
    .split(/\b(R[1-6]\.[1-9])\b/)
    .map((part, i) => (i % 2 ? h("a", { href: `/rules#${part}`, class: "rule-link" }, part) : part));
}

/** Why a bid is refused (R3), given the state message's game part. */
export function bidRefusal(game, rules, me, bid) {
  const high = game.high_bid || 0;
  const dealer = game.dealer === me;
  const othersPassed = game.bids.every((b) => b.bid === 0);
  if (bid === 0 && dealer && othersPassed)
    return t("Everyone else passed, so the dealer must bid at least 2 (rule R3.5).");
  if (bid !== 0 && bid < (rules.min_bid || 1))
    return t("The lowest bid at this table is {n}.", { n: rules.min_bid });
  if (bid !== 0 && dealer && othersPassed && bid < 2)
    return t("Everyone else passed, so the dealer must bid at least 2 (rule R3.5).");
  if (bid !== 0 && bid === high && dealer && !rules.dealer_may_steal)
    return t("At this table the dealer may not steal the bid: bid more than {n} or pass.", { n: high });
  if (bid !== 0 && bid <= high && !(dealer && bid === high))
    return t("You must bid more than {n}, or pass (rule R3.3).", { n: high });
  return t("That bid is not allowed now.");
}

/** Why a card is refused (R4.3), from rules.playRefusal's answer. */
export function playRefusalText(r) {
  if (r.key === "trump-led") return t("Trump was led: you must play a trump (rule R4.3).");
  return t("You must follow suit ({suit}) or play a trump (rule R4.3).", { suit: suitName(r.suit) });
}

/** A server error code (docs/server.md) in plain words. */
export function serverError(code, extra = {}) {
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
    bad_action: t("That move is not understood."),
  };
  if (known[code]) return known[code];
  if (/^R\d/.test(code)) return t("That move breaks rule {rule}.", { rule: code });
  return t("Something went wrong ({code}).", { code: extra.code || code });
}
