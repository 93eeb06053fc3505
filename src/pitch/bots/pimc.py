"""``pimc`` (master level): Perfect Information Monte Carlo (determinization).

For each sample, deal the cards this seat cannot see (consistently with the
cards played, the voids shown and the auction, see
:mod:`pitch.fastcore.determinize`), then score every legal action by playing the
rest of the hand with the rollout policy (``rollout=learned``, the default: the
heuristic's bids and, on the tables it was trained for, the learned card model's cards
(:mod:`pitch.fastcore.playmodel`, fitted to this bot's own choices), the heuristic's
elsewhere; ``rollout=heuristic``, the heuristic alone, as before issue 48; or
``rollout=random``). Every seat is played that way, deterministically, so each action is
compared on the same deals. Choose the action with the best mean. The search
runs in the kernel (:mod:`pitch.fastcore.pimc`, machine code with numba, the same
source as Python without); this class only sets it up and reads its answer.

The value of a hand for a seat is half its points (:func:`pitch.fastcore.pimc.hand_value`:
its side's score change minus the mean change of the other sides, R5.6/R5.7, plus a
bonus for going out, R6.2, and a penalty for letting another side out) and half the
learned chance that its side wins the game from the scores the hand leaves
(:func:`pitch.fastcore.value.win_value`, in points; ``win_weight`` sets the share, 0
for points only), so that it plays for the game: outbids a side about to go out,
takes a risk when behind, and not when ahead.

Bids are searched the same way (the rest of the auction and the play follow the
rollout policy), with three guards against the over-bidding a plain search
shows: the going-out bonus is smaller (``bid_bonus``), so "maybe out" does not
outweigh "probably set back"; the heuristic's bid is the default, and a search
bid replaces it only when its mean gain over that bid, on the same deals
(common random numbers), clears ``bid_margin`` points by about 1.6 standard
errors (:data:`BID_MARGIN`; less heads-up and in solo 3, :data:`BID_MARGINS`); and bids get
``bid_factor`` times the samples of a card play (within the same ``time`` cap), since
there is one bid per hand and it matters most.

Budget: ``samples`` determinizations per decision and/or ``time`` seconds
(whichever ends first; at least one sample is always taken).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, ClassVar

from pitch import fastcore
from pitch.bots import winvalue
from pitch.bots.base import Bot, deadline
from pitch.bots.explain import Advice, Evidence
from pitch.bots.options import SECONDS, Opt
from pitch.engine import PlayerView
from pitch.engine.rules import TABLE_KINDS, Rules
from pitch.engine.state import BID
from pitch.fastcore.search import PimcSearch, Samples, Sliced, drain, view_action

ROLLOUTS = ("heuristic", "random", "learned")
"""The rollout policies a search may finish its hands with (:func:`fastcore.policy_mask`;
``learned``: the heuristic's bids and the learned card model's cards,
:mod:`pitch.fastcore.playmodel`)."""

WIN_BONUS = 6.0
"""Points a game win is worth, against the points of one hand."""

BID_BONUS = 2.0
"""The going-out bonus used when searching bids (see the module docstring)."""

WIN_WEIGHT = 0.5
"""How much of a hand's worth is the learned chance of winning the game (the rest is its
points): ``docs/results/win-value/`` (more games won than with 0 on every table tried)."""

SAMPLES = 1000
"""Default samples per decision (see docs/bots.md for why)."""

TRIES = 24
"""Deals drawn per determinization to match the auction."""

BID_Z = 1.64
"""Standard errors a search bid's gain over the heuristic's bid must clear."""

BID_MARGIN = 0.2
"""Points (beyond :data:`BID_Z` standard errors) a search bid's gain over the heuristic's
bid must clear before it replaces it, chosen on the partnership game."""

BID_MARGINS: dict[tuple[int, bool], float] = {
    TABLE_KINDS["heads-up"]: -0.2,
    TABLE_KINDS["solo3"]: 0.1,
}
"""Tables whose default margin is not :data:`BID_MARGIN`, each measured better on fresh
deals (more games, points level; ``docs/results/headsup-tuning/``): heads-up -0.2 (C5
for 0, then C7 for -0.2), solo 3 0.1 (C6)."""


def bid_margin(rules: Rules) -> float:
    """The default ``bid_margin`` at ``rules``' table (:data:`BID_MARGINS`)."""
    return BID_MARGINS.get((rules.players, rules.partnerships), BID_MARGIN)


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Each legal action's sampled payoffs from one seat's view (:meth:`PimcBot.evaluate`):
    ``samples`` lists, per action of ``actions``, the value of each sampled deal (the
    same deals for every action) and, with detail, its points and chances."""

    actions: tuple[int, ...]
    samples: Samples

    @property
    def deals(self) -> int:
        return len(self.samples.values[0]) if self.actions else 0

    def chance(self, i: int, side: int) -> float:
        """``side``'s mean chance of winning the game after action ``actions[i]``."""
        return self.samples.chances[i][side] / self.deals

    def points(self, i: int) -> float:
        """The seat's side's mean score change in the hand after action ``actions[i]``."""
        return self.samples.points[i] / self.deals


class PimcBot(Bot):
    """Determinization search (see the module docstring)."""

    name: ClassVar[str] = "pimc"
    level: ClassVar[str] = "master"
    OPTIONS: ClassVar[dict[str, Opt]] = {
        "samples": Opt(int, 1, 1_000_000),
        "time": SECONDS,
        "rollout": Opt(str, choices=ROLLOUTS),
        "tries": Opt(int, 1, 1000),
        "bid_bonus": Opt(float, 0.0, 100.0),
        # a huge margin: never leave the heuristic's bid; left unset (None): the table's value
        "bid_margin": Opt(float, -1e6, 1e6, none=True),
        "bid_factor": Opt(int, 1, 100),
        "win_weight": Opt(float, 0.0, 1.0),
    }

    def __init__(
        self,
        *,
        rng: random.Random | None = None,
        samples: int = SAMPLES,
        time: float | None = 1.0,
        rollout: str = "learned",
        tries: int = TRIES,
        bid_bonus: float = BID_BONUS,
        bid_margin: float | None = None,
        bid_factor: int = 3,
        win_weight: float = WIN_WEIGHT,
    ) -> None:
        super().__init__(rng=rng)
        o = self.checked(locals())
        policy = fastcore.policy_mask(o["rollout"])
        weight = o["win_weight"]
        self.game = weight > 0  # its values count the chance of winning (hints say so)
        if weight > 0:
            model = winvalue.shipped()
            self.kernel = PimcSearch(policy, model.table, weight * model.scale, 1.0 - weight)
        else:
            self.kernel = PimcSearch(policy)
        self.samples = o["samples"]
        self.time = o["time"]
        self.tries = o["tries"]
        self.bid_bonus = o["bid_bonus"]
        self.bid_margin = o["bid_margin"]
        self.bid_factor = o["bid_factor"]

    @classmethod
    def table_defaults(cls, rules: Rules) -> dict[str, Any]:
        return {"bid_margin": bid_margin(rules)}

    def act(self, view: PlayerView) -> int:
        return self.decide(view).action

    def advise(self, view: PlayerView) -> Advice:
        return self.decide(view)

    def warm_up(self) -> None:
        fastcore.warm_up()

    def decide(
        self, view: PlayerView, *, since: float | None = None, by: float | None = None
    ) -> Advice:
        return drain(self.sliced(view, since=since, by=by))

    def sliced(
        self, view: PlayerView, *, since: float | None = None, by: float | None = None
    ) -> Sliced[Advice]:
        legal = list(view.legal_actions())
        if len(legal) == 1:
            return Advice(legal[0])
        evaluation = yield from self.evaluate_sliced(view, since=since, by=by, detail=False)
        values = evaluation.samples.values
        if view.phase == BID:
            action = self._bid(view, legal, values)
        else:
            totals = [sum(v) for v in values]
            action = legal[max(range(len(legal)), key=lambda i: (totals[i], -legal[i]))]
        return Advice(action, _evidence(legal, values, action, self.game))

    def evaluate(
        self,
        view: PlayerView,
        *,
        since: float | None = None,
        by: float | None = None,
        detail: bool = True,
    ) -> Evaluation:
        """What each legal action of ``view``'s seat is worth, from that view alone: the
        one evaluation behind this bot's moves, its hints and the analysis of a game
        (:mod:`pitch.bots.analysis`). Bids get ``bid_factor`` times the samples and the
        smaller going-out bonus; ``detail`` also reads each deal's points and chances.
        The same deals for every action, so differences between actions are paired."""
        return drain(self.evaluate_sliced(view, since=since, by=by, detail=detail))

    def evaluate_sliced(
        self,
        view: PlayerView,
        *,
        since: float | None = None,
        by: float | None = None,
        detail: bool = True,
    ) -> Sliced[Evaluation]:
        """:meth:`evaluate` in slices (``fastcore.search.Sliced``): the server's bot
        workers run several decisions at once this way."""
        legal = tuple(view.legal_actions())
        stop = deadline(self.time, since, by)
        bid = view.phase == BID
        samples = self.samples * self.bid_factor if bid else self.samples
        bonus = self.bid_bonus if bid else WIN_BONUS
        got = yield from self.kernel.sliced(
            view, legal, samples, bonus, self.rng, tries=self.tries, deadline=stop, detail=detail
        )
        return Evaluation(legal, got)

    def _bid(self, view: PlayerView, legal: list[int], values: list[list[float]]) -> int:
        """The heuristic's bid, unless a search bid is clearly better on the same deals."""
        margin = bid_margin(view.rules) if self.bid_margin is None else self.bid_margin
        anchor = view_action(view)
        base = values[legal.index(anchor)]
        n = len(base)
        best, best_gain = anchor, 0.0
        for a, vals in zip(legal, values, strict=True):
            if a == anchor or n < 2:
                continue
            diffs = [x - y for x, y in zip(vals, base, strict=True)]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            lower = mean - BID_Z * math.sqrt(var / n)
            if lower > margin and mean > best_gain:
                best, best_gain = a, mean
        return best


def _evidence(
    legal: list[int], values: list[list[float]], action: int, game: bool
) -> Evidence | None:
    """How much ``action`` beat the best other action, on the deals the search tried."""
    n = len(values[0]) if values else 0
    if n == 0 or len(legal) < 2:
        return None
    mean = {a: sum(v) / n for a, v in zip(legal, values, strict=True)}
    alt = max((a for a in legal if a != action), key=lambda a: (mean[a], -a))
    return Evidence(deals=n, gain=mean[action] - mean[alt], alt=alt, game=game)
