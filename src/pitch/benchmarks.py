"""Speed measurements behind ``pitch bench``: what they print is what they measured."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pitch.engine import DEAL, OVER, GameState, Rules

if TYPE_CHECKING:
    from pitch.fastcore.search import Sliced


def checked_hands(rules: Rules, hands: int, seed: int) -> float:
    """Random full hands per second through the checked public API: ``deal_random``,
    then ``legal_mask()`` and the checked ``apply()`` for every bid and card."""
    rng = random.Random(seed)
    rand = rng.random
    state = GameState(rules)
    t0 = time.perf_counter()
    for _ in range(hands):
        if state.phase == OVER:
            state = GameState(rules)
        state.deal_random(rng)
        apply = state.apply
        legal_mask = state.legal_mask
        while True:
            phase = state.phase
            if phase in (DEAL, OVER):
                break
            # A uniform choice among the legal actions: the k-th lowest set bit.
            mask = legal_mask()
            k = int(rand() * mask.bit_count())
            while k:
                mask &= mask - 1
                k -= 1
            apply((mask & -mask).bit_length() - 1)
    return hands / (time.perf_counter() - t0)


def fast_hands(rules: Rules, hands: int, seed: int) -> float:
    """Random full hands per second one ``GameState`` at a time: deal, then
    :func:`pitch.fastcore.random_playout` of the whole hand (packing the state
    each call; machine code with numba, the same kernel as Python without)."""
    from pitch import fastcore

    rng = random.Random(seed)
    state = GameState(rules)
    t0 = time.perf_counter()
    for i in range(hands):
        s = state.copy()
        s.deal_random(rng)
        fastcore.random_playout(s, seed + i)
    return hands / (time.perf_counter() - t0)


def run(rules: Rules, hands: int, seed: int, repeat: int = 3) -> dict[str, Any]:
    """Best of ``repeat`` runs of each measure, on this process's one core."""
    from pitch import fastcore

    # First, so that fast_hands (a kernel too) does not time the compiler.
    compile_seconds = fastcore.warm_up()
    checked = max(checked_hands(rules, hands, seed + i) for i in range(repeat))
    fast = max(fast_hands(rules, hands, seed + i) for i in range(repeat))
    return {
        "players": rules.players,
        "partnerships": rules.partnerships,
        "hands": hands,
        "repeat": repeat,
        "checked_hands_per_s": round(checked, 1),
        "fast_hands_per_s": round(fast, 1),
        **run_compiled(rules, hands, seed, repeat, compile_seconds),
    }


# ----------------------------------------------------------- compiled core (fastcore)


def compiled_hands(
    rules: Rules,
    hands: int,
    seed: int,
    workers: int = 1,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Random full hands per second in :mod:`pitch.fastcore`: one call deals, bids,
    plays and scores all ``hands``, on ``workers`` threads (cores). With
    ``clock=time.process_time`` (one worker) it is hands per second of this
    process's own CPU, which other load on a shared machine does not lower."""
    from pitch import fastcore

    t0 = clock()
    fastcore.simulate_hands(rules, hands, seed, workers=workers)
    return hands / (clock() - t0)


def compiled_playouts(
    rules: Rules, playouts: int, seed: int, per_call: int = 100, policy: str = "random"
) -> float:
    """Playouts per second the way a search bot asks for them: pack a dealt
    ``GameState`` and run ``per_call`` playouts under ``policy`` from it per call."""
    from pitch import fastcore

    rng = random.Random(seed)
    calls = max(1, playouts // per_call)
    t0 = time.perf_counter()
    for i in range(calls):
        s = GameState(rules)
        s.deal_random(rng)
        fastcore.playout_many(s, seed + i, per_call, policy)
    return calls * per_call / (time.perf_counter() - t0)


def run_compiled(
    rules: Rules, hands: int, seed: int, repeat: int = 3, compile_seconds: float | None = None
) -> dict[str, Any]:
    """The compiled core's measures; ``compile_seconds`` is the first use in this
    process (compiling, or loading numba's on-disk cache): measured here unless the
    caller measured it already."""
    import os

    from pitch import fastcore

    if compile_seconds is None:
        compile_seconds = fastcore.warm_up()
    if not fastcore.COMPILED:
        return {"compiled": False, "compile_seconds": round(compile_seconds, 3)}
    workers = os.cpu_count() or 1
    big = hands * 10  # the compiled core is fast: measure long enough to see it
    single = max(compiled_hands(rules, big, seed + i) for i in range(repeat))
    cpu = max(compiled_hands(rules, big, seed + i, clock=time.process_time) for i in range(repeat))
    batched = max(compiled_hands(rules, big * workers, seed + i, workers) for i in range(repeat))
    playouts = max(compiled_playouts(rules, big, seed + i) for i in range(repeat))
    heuristic = max(
        compiled_playouts(rules, big, seed + i, policy="heuristic") for i in range(repeat)
    )
    learned = max(compiled_playouts(rules, big, seed + i, policy="learned") for i in range(repeat))
    search = {
        f"{bot}_rollouts_per_s": round(search_rollouts(rules, bot, 0.25, seed), 1)
        for bot in ("pimc", "ismcts")
    }
    return {
        "compiled": True,
        "compile_seconds": round(compile_seconds, 3),
        "workers": workers,
        "compiled_hands_per_s": round(single, 1),
        "compiled_hands_per_cpu_s": round(cpu, 1),
        "compiled_batched_hands_per_s": round(batched, 1),
        "compiled_playouts_per_s": round(playouts, 1),
        "compiled_heuristic_playouts_per_s": round(heuristic, 1),
        "compiled_learned_playouts_per_s": round(learned, 1),
        **search,
    }


def search_rollouts(rules: Rules, bot: str, seconds: float, seed: int) -> float:
    """Rollouts per second inside a search bot (``pimc`` or ``ismcts``, default
    options: heuristic rollouts), over decisions of ``seconds`` each from random
    positions. ``pimc`` counts the payoffs its search returns (one per rollout),
    ``ismcts`` its iterations (one rollout each)."""
    from pitch.bots.ismcts import IsmctsBot
    from pitch.bots.pimc import Evaluation, PimcBot

    rng = random.Random(seed)
    count = [0]
    b: PimcBot | IsmctsBot
    if bot == "pimc":
        p = PimcBot(rng=random.Random(seed), time=seconds)
        search = p.evaluate_sliced

        def counted_search(*args: Any, **kwargs: Any) -> Sliced[Evaluation]:
            got = yield from search(*args, **kwargs)
            count[0] += sum(len(v) for v in got.samples.values)
            return got

        p.evaluate_sliced = counted_search  # type: ignore[method-assign]
        b = p
    else:
        b = IsmctsBot(rng=random.Random(seed), time=seconds)
    elapsed = 0.0
    for _ in range(4):
        s = GameState(rules)
        s.deal_random(rng)
        for step in range(40):
            if s.phase in (DEAL, OVER) or (step >= 6 and len(s.legal_actions()) > 1):
                break
            s.apply(rng.choice(list(s.legal_actions())))
        if s.phase in (DEAL, OVER):
            continue
        t0 = time.perf_counter()
        b.act(s.view(s.current_player()))
        elapsed += time.perf_counter() - t0
        if isinstance(b, IsmctsBot):
            count[0] += b.last_iterations
    return count[0] / elapsed if elapsed else 0.0
