"""A self-play run kept in a checkpoint file goes on where it stopped, to the same
answers, and a file that is not its checkpoint is refused and left as it was."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from pitch.engine.errors import PitchError
from pitch.training import selfplay

played: list[tuple[int, int]] = []
lock = threading.Lock()


def square(index: int, seed: int) -> dict[str, int]:
    with lock:
        played.append((index, seed))
    return {"index": index, "value": index * index + seed}


def runner(path: Path | None, kind: str = "test") -> selfplay.Runner:
    return selfplay.resumable(
        selfplay.run_threads(selfplay.tagged(square), 2), path, kind, lambda *d: progress.append(d)
    )


progress: list[tuple[int, int]] = []
TASKS = [(i, 7) for i in range(6)]


def test_a_stopped_run_goes_on_where_it_stopped(tmp_path: Path) -> None:
    whole = sorted(runner(None)(TASKS), key=lambda a: a["index"])
    assert whole == [{"index": i, "value": i * i + 7} for i in range(6)]
    path = tmp_path / "ck.jsonl"
    played.clear()
    first = runner(path)(TASKS)
    kept = [next(first), next(first)]  # stopped after two answers
    first.close()
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {selfplay.CHECKPOINT_KEY: "test"}
    assert len(lines) == 3
    played.clear()
    progress.clear()
    again = sorted(runner(path)(TASKS), key=lambda a: a["index"])
    assert again == whole
    assert len(played) == 4 and not {(a["index"], 7) for a in kept} & set(played)
    assert progress[0] == (2, 6) and progress[-1] == (6, 6)
    played.clear()
    assert sorted(runner(path)(TASKS), key=lambda a: a["index"]) == whole
    assert played == []  # all kept: nothing played again


def test_a_line_torn_by_a_kill_is_dropped_and_played_again(tmp_path: Path) -> None:
    path = tmp_path / "ck.jsonl"
    list(runner(path)(TASKS[:3]))
    text = path.read_text()
    path.write_text(text[:-9])  # the last answer cut short
    played.clear()
    answers = sorted(runner(path)(TASKS[:3]), key=lambda a: a["index"])
    assert [a["index"] for a in answers] == [0, 1, 2] and len(played) == 1
    assert path.read_text().count("\n") == 4 and path.read_text().endswith("\n")


@pytest.mark.parametrize(
    "text",
    ["hello", "hello\n", '{"pitch-checkpoint": "other"}\n', '{"pitch-checkpoint": "test"}\nnope\n'],
)
def test_a_file_that_is_not_this_checkpoint_is_refused_as_it_was(tmp_path: Path, text: str) -> None:
    path = tmp_path / "ck.jsonl"
    path.write_text(text)
    with pytest.raises(PitchError, match=r"not a checkpoint of test|is not a task"):
        list(runner(path)(TASKS))
    assert path.read_text() == text


def test_answers_come_through_json_kept_or_not(tmp_path: Path) -> None:
    path = tmp_path / "ck.jsonl"
    tasks = [(1, 2)]
    fresh = list(
        selfplay.resumable(
            selfplay.run_threads(selfplay.tagged(lambda a, b: (a, b)), 1), path, "t"
        )(tasks)
    )
    kept = list(
        selfplay.resumable(
            selfplay.run_threads(selfplay.tagged(lambda a, b: (a, b)), 1), path, "t"
        )(tasks)
    )
    assert fresh == kept == [[1, 2]]  # a tuple comes back a list either way
