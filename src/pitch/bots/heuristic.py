"""``heuristic`` (club level): a rule-based player, and the rollout policy of search.

The policy is written once, in the kernel (:mod:`pitch.fastcore.policy`, compiled or
as plain Python); this bot asks it for its seat's move (:func:`view_action`). What
it does:

Bidding: estimate, for each suit, the points the hand takes as pitcher (High from
the top trump and how many higher ones may be out, Low from the bottom trump,
the Jack and its guards, Game from trump length and tens; a partner adds a
little) and bid the highest level the best estimate covers with a margin (a little
under the estimate at two-sided tables, a little over it at solo ones:
``BID_MARGIN_TWO_SIDES`` and ``BID_MARGIN_SOLO`` in :mod:`pitch.fastcore.policy`). The
margin shrinks when an opponent could go out by pitching (R6.2: only the
pitcher's side can win, so taking the auction denies it) or when pitching would
take us out; the forced dealer (R3.5) bids the minimum; the dealer steals (R3.6)
when the hand covers the high bid.

Play: the pitcher leads the top of its best suit (R4.1), leaders draw trump with
a master trump, lead a master ace on the pitching side, otherwise a low card
that gives nothing away; followers feed counters, the Jack and a low trump to a
partner who holds the trick safely, win a trick worth taking with the cheapest
safe winner (capturing Low/Jack/Game), and otherwise throw the card worth least.
"""

from __future__ import annotations

from typing import ClassVar

from pitch import fastcore
from pitch.bots.base import Bot
from pitch.bots.options import Opt
from pitch.engine import PlayerView
from pitch.fastcore.search import view_action

__all__ = ["HeuristicBot", "view_action"]


class HeuristicBot(Bot):
    """Rule-based bot (see the module docstring). Deterministic: it ignores its generator."""

    name: ClassVar[str] = "heuristic"
    level: ClassVar[str] = "club"
    # Declared empty, so that ``heuristic:x=1`` is refused naming the options (none).
    OPTIONS: ClassVar[dict[str, Opt]] = {}

    def act(self, view: PlayerView) -> int:
        return view_action(view)

    def warm_up(self) -> None:
        fastcore.warm_up()
