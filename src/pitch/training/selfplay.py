"""Where self-play tasks run (threads of this process, or Ray tasks on a cluster),
and the numpy the fits need.

The learned models (:mod:`pitch.training.winvalue`, :mod:`pitch.training.bidvalue`) cut their
self-play into tasks seeded from the run's seed and their place in the list, so the
result does not depend on how many workers play them, nor where; a runner yields each
task's answer in the order of the tasks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from pitch.engine.errors import PitchError
from pitch.training.ray_backend import ray_map

R = TypeVar("R")
Runner = Callable[[Sequence[tuple[Any, ...]]], Iterator[Any]]


def run_threads(
    task: Callable[..., R], workers: int
) -> Callable[[Sequence[tuple[Any, ...]]], Iterator[R]]:
    """``task(*args)`` for each task on ``workers`` threads (the kernels release the GIL)."""

    def run(items: Sequence[tuple[Any, ...]]) -> Iterator[R]:
        with ThreadPoolExecutor(max(1, workers)) as pool:
            yield from pool.map(lambda t: task(*t), items)

    return run


def run_ray(
    task: Callable[..., R], address: str
) -> Callable[[Sequence[tuple[Any, ...]]], Iterator[R]]:
    """``task(*args)`` for each task as a Ray task on the cluster at ``address`` (see
    :mod:`pitch.training.ray_backend`); raises ``RayUnavailable`` when Ray cannot start."""

    def run(items: Sequence[tuple[Any, ...]]) -> Iterator[R]:
        yield from ray_map(task, list(items), address)

    return run


def numpy() -> Any:
    """numpy, which the models' fits need (it comes with the compiled core)."""
    try:
        import numpy
    except ImportError:
        raise PitchError(
            "training needs numpy: pip install 'pitch[fast]' (numba and numpy)"
        ) from None
    return numpy
