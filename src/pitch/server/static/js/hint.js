// Hints offline: what a careful player would do here, when the server cannot be asked
// (table.js asks the server's hint bot first). A quick heuristic in the browser (it sees
// only the player's own view), not the server's search bots.

import { gameValue, parseCard, SUITS } from "./cards.js";
import { t } from "./i18n.js";
import { sideOf, trickWinner } from "./rules.js";

const rankOf = (c) => parseCard(c).rank;
const suitOf = (c) => SUITS[parseCard(c).suit];

/** Expected points from a suit as trump (R5.1-R5.4), roughly. */
function suitStrength(hand, s) {
  const cards = hand.filter((c) => suitOf(c) === s).map(rankOf);
  if (!cards.length) return 0;
  const top = Math.max(...cards);
  const low = Math.min(...cards);
  let p = top === 12 ? 1 : top === 11 ? 0.65 : top === 10 ? 0.4 : 0.15;
  p += low <= 1 ? 0.75 : low <= 3 ? 0.45 : 0.15;
  if (cards.includes(9)) p += cards.length >= 3 || top >= 11 ? 0.75 : 0.45;
  p += 0.15 * (cards.length - 1);
  p += hand.some((c) => rankOf(c) === 8 || rankOf(c) === 12) ? 0.3 : 0;
  return p;
}

/** {action, text} for the seat's turn, given the state message's game part. */
export function hint(game, rules, me) {
  const legal = game.legal || [];
  if (!legal.length) return null;
  const hand = game.hand || [];
  if (game.phase === "bid") {
    let best = null;
    let bestP = 0;
    for (const s of SUITS) {
      const p = suitStrength(hand, s);
      if (p > bestP) [best, bestP] = [s, p];
    }
    const want = Math.min(4, Math.floor(bestP + 0.15));
    for (let b = want; b >= 1; b--) {
      if (legal.includes(`bid ${b}`)) return { action: `bid ${b}`, suit: best, text: t("Your best suit is worth this bid.") };
    }
    if (legal.includes("pass")) return { action: "pass", text: t("No suit is strong enough to bid.") };
    const b = legal.find((a) => a.startsWith("bid"));
    return { action: b, suit: best, text: t("Bid as little as you may: the dealer must bid when everyone passes.") };
  }
  const cards = legal.filter((a) => !a.startsWith("bid") && a !== "pass");
  const trump = game.trump;
  const trick = game.trick?.cards || [];
  if (!trick.length) {
    if (!trump) {
      // Pitcher's opening lead: it names trump (R4.1). Lead the best suit's top card.
      let best = SUITS[0];
      let bestP = -1;
      for (const s of SUITS) {
        const p = suitStrength(hand, s);
        if (p > bestP) [best, bestP] = [s, p];
      }
      const top = cards.filter((c) => suitOf(c) === best).sort((a, b) => rankOf(b) - rankOf(a))[0];
      return { action: top, text: t("Lead your strongest suit: its first card makes trump.") };
    }
    const trumps = cards.filter((c) => suitOf(c) === trump).sort((a, b) => rankOf(b) - rankOf(a));
    if (trumps.length && rankOf(trumps[0]) >= 11)
      return { action: trumps[0], text: t("Lead a high trump to draw the others out.") };
    const plain = cards.filter((c) => suitOf(c) !== trump).sort((a, b) => rankOf(a) - rankOf(b));
    return { action: (plain[0] || cards[cards.length - 1]), text: t("Lead a low card and keep your trumps.") };
  }
  const winnerNow = trickWinner(trick, trump);
  const partnerWinning = rules.partnerships && sideOf(rules, winnerNow) === sideOf(rules, me) && winnerNow !== me;
  const points = trick.reduce((n, x) => n + gameValue(x.card), 0);
  const wins = cards.filter((c) => trickWinner([...trick, { seat: me, card: c }], trump) === me);
  const cheap = (list) => [...list].sort((a, b) => value(a, trump) - value(b, trump));
  if (partnerWinning) {
    const give = [...cards].sort((a, b) => gameValue(b) - gameValue(a));
    return { action: give[0], text: t("Your partner is winning this trick: give them points.") };
  }
  const valuable = trick.some((x) => suitOf(x.card) === trump) || points >= 3;
  if (wins.length && (valuable || !cards.some((c) => !wins.includes(c)))) {
    return { action: cheap(wins)[0], text: t("Take the trick with your cheapest winning card.") };
  }
  const losers = cards.filter((c) => !wins.includes(c));
  return { action: cheap(losers.length ? losers : cards)[0], text: t("You cannot win this cheaply: throw your least useful card.") };
}

function value(c, trump) {
  return (suitOf(c) === trump ? 50 : 0) + gameValue(c) * 3 + rankOf(c);
}
