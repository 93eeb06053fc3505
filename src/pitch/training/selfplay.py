"""Where self-play tasks run (threads of this process, or Ray tasks on a cluster),
and the numpy the fits need.

The learned models (:mod:`pitch.training.winvalue`, :mod:`pitch.training.bidvalue`,
:mod:`pitch.training.playmodel`) cut their self-play into tasks seeded from the run's seed
and their place in the list, so the result does not depend on how many workers play them,
nor where, nor whether the run was stopped and resumed (:func:`resumable`: each task's
answer is kept in a checkpoint file as it arrives, and a task found there is not played
again). Each trainer reads the answers in a way that does not depend on their order.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
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


def tagged(task: Callable[..., R]) -> Callable[..., tuple[tuple[Any, ...], R]]:
    """``task`` answering ``(its arguments, its answer)``, so that a runner's answers,
    which come as they finish, can be kept against their task (:func:`resumable`).
    A plain function (not a partial), so that Ray can run it."""

    def run(*args: Any) -> tuple[tuple[Any, ...], R]:
        return args, task(*args)

    return run


CHECKPOINT_KEY = "pitch-checkpoint"
"""The first line of a checkpoint file names the model it is for."""


def _key(task: Sequence[Any]) -> str:
    return json.dumps(list(task))


def _checkpoint(path: Path, kind: str) -> dict[str, Any]:
    """The answers kept in ``path`` by task; a new file starts with its header. A last
    line cut short (the run was killed while writing it) is dropped from the file."""
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
    except (OSError, UnicodeDecodeError) as e:
        raise PitchError(f"cannot read the checkpoint {path}: {e}") from None
    lines = text.split("\n")[:-1]  # a last line with no newline was torn by a kill
    header_line = json.dumps({CHECKPOINT_KEY: kind}) + "\n"
    if not lines and header_line.startswith(text):  # new, or killed writing its header
        path.write_text(header_line, encoding="utf-8")
        return {}
    try:
        header = json.loads(lines[0]) if lines else None
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get(CHECKPOINT_KEY) != kind:
        raise PitchError(f"{path} is not a checkpoint of {kind} self-play")
    kept: dict[str, Any] = {}
    for n, line in enumerate(lines[1:], 2):
        if not line:
            continue
        try:
            entry = json.loads(line)
            kept[_key(entry["task"])] = entry["answer"]
        except (ValueError, KeyError, TypeError):
            raise PitchError(f"{path}: line {n} is not a task and its answer") from None
    if not text.endswith("\n"):
        with path.open("r+", encoding="utf-8") as f:
            f.truncate(len("\n".join(lines).encode()) + 1)
    return kept


def resumable(
    run: Callable[[Sequence[tuple[Any, ...]]], Iterator[tuple[tuple[Any, ...], Any]]],
    path: Path | None,
    kind: str,
    progress: Callable[[int, int], None] | None = None,
) -> Callable[[Sequence[tuple[Any, ...]]], Iterator[Any]]:
    """A runner of :func:`tagged` tasks that keeps each answer in the checkpoint file
    ``path`` (JSON Lines; none: kept nowhere) as it arrives and takes the answers it
    finds there instead of playing their tasks again, so a stopped run goes on where it
    stopped with the same result. Every answer goes through JSON, kept or not, so a
    resumed run sees exactly what a whole one does. ``progress(done, total)`` after each
    task."""

    def go(items: Sequence[tuple[Any, ...]]) -> Iterator[Any]:
        kept = _checkpoint(path, kind) if path is not None else {}
        todo = [t for t in items if _key(t) not in kept]
        done = len(items) - len(todo)
        if progress is not None:
            progress(done, len(items))
        for t in items:
            if _key(t) in kept:
                yield kept[_key(t)]
        out = path.open("a", encoding="utf-8") if path is not None else None
        try:
            for task, answer in run(todo):
                line = json.dumps({"task": list(task), "answer": answer})
                if out is not None:
                    out.write(line + "\n")
                    out.flush()
                done += 1
                if progress is not None:
                    progress(done, len(items))
                yield json.loads(line)["answer"]
        finally:
            if out is not None:
                out.close()

    return go


def numpy() -> Any:
    """numpy, which the models' fits need (it comes with the compiled core)."""
    try:
        import numpy
    except ImportError:
        raise PitchError(
            "training needs numpy: pip install 'pitch[fast]' (numba and numpy)"
        ) from None
    return numpy
