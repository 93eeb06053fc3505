"""Run work as Ray tasks: self-play batches (:mod:`pitch.training.selfplay`) and arena
deals (:mod:`pitch.arena.ray_runner`, the same deals as the local arena, remote).

``address`` is a cluster address (``ray://host:10001`` or ``host:6379``),
``auto`` (the cluster this machine belongs to), or ``local`` (start a Ray
instance here). When Ray is already initialized in this process it is used as
is. Ray itself is imported only
when work is sent, so that importing this module costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")


class RayUnavailable(RuntimeError):
    """Ray is not installed or the cluster could not be reached."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailable(
            "Ray is not installed: pip install 'pitch[ray]' (or pip install 'ray>=2.9,<3')"
        ) from None
    return ray


def connect(address: str) -> Any:
    """Ray, connected to ``address`` (raises :class:`RayUnavailable`)."""
    ray = _ray()
    if not ray.is_initialized():
        try:
            if address == "local":
                ray.init(include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
        except Exception as e:  # Ray raises several unrelated types for a bad address
            raise RayUnavailable(f"could not connect to Ray at {address!r}: {e}") from None
    return ray


def ray_map(fn: Callable[..., T], items: list[tuple[Any, ...]], address: str) -> Iterator[T]:
    """``fn(*item)`` for every item as Ray tasks, yielded as they finish. Connects
    before returning, so a bad address fails here (as :class:`RayUnavailable`)
    rather than mid-iteration."""
    ray = connect(address)
    remote = ray.remote(fn)
    pending = [remote.remote(*item) for item in items]
    return _drain(ray, pending)


def _drain(ray: Any, pending: list[Any]) -> Iterator[Any]:
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            yield ray.get(ref)
