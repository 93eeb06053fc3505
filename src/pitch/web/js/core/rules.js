// Seating for pages without a live server state (a replayed record): which seats form
// each side (R1.2, R1.4). Every rule of play is the engine's, sent by the server.

export function numSides(rules) {
  return rules.partnerships ? 2 : rules.players;
}

/** Side of a seat (R1.2, R1.4): seats 0+2 and 1+3 in the partnership game. */
export function sideOf(rules, seat) {
  return rules.partnerships ? seat % 2 : seat;
}

export function seatsOfSide(rules, side) {
  const out = [];
  for (let s = 0; s < rules.players; s++) if (sideOf(rules, s) === side) out.push(s);
  return out;
}
