"""The arena's deals as Ray tasks on a cluster (``pitch arena --ray``): the same
:func:`~pitch.arena.match.play_deal` as the local workers, so the same seed gives the
same results wherever the deals are played. Bots are created inside each task,
never shipped."""

from __future__ import annotations

from collections.abc import Iterator

from pitch.arena.match import ArenaConfig, DealResult, play_deal
from pitch.training.ray_backend import RayUnavailable, connect, ray_map

__all__ = ["RayUnavailable", "run_ray"]


def run_ray(cfg: ArenaConfig, indices: list[int], address: str) -> Iterator[DealResult]:
    """Deals as Ray tasks, yielded as they finish (the config is put in the object
    store once); raises :class:`RayUnavailable` when Ray cannot start."""
    ray = connect(address)
    cfg_ref = ray.put(cfg)
    return ray_map(play_deal, [(cfg_ref, i) for i in indices], address)
