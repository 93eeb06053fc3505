"""The Ray backend, on a real local Ray instance (small: one CPU, two deals): the arena's
Ray runner and self-play batches on Ray give what they give here."""

from __future__ import annotations

import pytest

from pitch.arena.match import ArenaConfig, run_local, summarize
from pitch.engine import Rules

ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'pitch[ray]')")


def test_ray_backend_matches_local() -> None:
    """Arena deals and self-play training batches give on Ray what they give here."""
    from pitch.arena.ray_runner import run_ray
    from pitch.training import playmodel, selfplay, winvalue

    cfg = ArenaConfig(
        bot_a="heuristic", bot_b="random", rules=Rules(partnerships=True), deals=2, seed=4
    )
    try:
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    except Exception as e:  # Ray gives its raylet a fixed 30 s to start
        if "timed out during startup" not in str(e):
            raise
        pytest.skip(f"Ray could not start its raylet on this overloaded machine: {e}")
    try:
        remote = summarize(cfg, run_ray(cfg, [0, 1], "local"))
        trained = winvalue.self_play(5, 4, selfplay.run_ray(winvalue.play_task, "local"))
        # The card model's self-play through the checkpointing runner the command uses.
        games = playmodel.self_play(
            2,
            4,
            ["solo3"],
            selfplay.resumable(
                selfplay.run_ray(selfplay.tagged(playmodel.play_task), "local"), None, "x"
            ),
            "heuristic",
        )
    finally:
        ray.shutdown()
    local = summarize(cfg, run_local(cfg, [0, 1]))
    assert remote.deals == 2
    assert remote.points_per_hand == local.points_per_hand
    assert remote.diff == local.diff
    assert trained == winvalue.self_play(5, 4, selfplay.run_threads(winvalue.play_task, 1))
    here = selfplay.resumable(
        selfplay.run_threads(selfplay.tagged(playmodel.play_task), 1), None, "x"
    )
    assert games == playmodel.self_play(2, 4, ["solo3"], here, "heuristic")
