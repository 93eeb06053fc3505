"""Bot seats chosen over the network: no external programs, no bot that cannot be made,
no decision that may cost more than its bound (issue 16, item 1)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pydantic import ValidationError

from pitch.engine import GameState, Rules
from pitch.server.botplay.workers import choose
from pitch.server.kernel.schemas import CreateTable, check_bot_spec
from tests.server.inprocess import app_client, in_process_settings


@pytest.mark.parametrize(
    "spec", ["ext:touch {mark}", "EXT[time=1]:touch {mark}", " ext : touch {mark}"]
)
def test_an_external_program_is_never_seated_from_a_request(spec: str, tmp_path: Path) -> None:
    # ext:COMMAND runs COMMAND: from a web request that would be a command run on
    # the server by anyone. Refused at the request, and by the worker as well.
    mark = tmp_path / "ran"
    text = spec.format(mark=mark)
    with pytest.raises(ValueError, match="would run a command on the server"):
        check_bot_spec(text)
    with pytest.raises(ValidationError, match="would run a command on the server"):
        CreateTable(seats=[{"kind": "human"}, {"kind": "bot", "bot": text}])
    with pytest.raises(ValidationError, match="would run a command on the server"):
        CreateTable(options={"substitute": text})
    state = GameState(Rules())
    state.deal_random(random.Random(1))
    with pytest.raises(ValueError, match="the server runs only the bots it offers"):
        choose(text, state.view(state.current_player()), 1)
    assert not mark.exists()


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("pimc:samples=abc", "samples must be a whole number"),
        ("pimc:samples=0", "samples must be a whole number from 1 to 5000"),
        ("heuristic:nonsense=1", "bot 'heuristic' has no option 'nonsense'"),
        ("nosuchbot", "unknown bot"),
        # The denial of service of issue 16: searches that never end, or eat memory.
        ("pimc:time=1000000,samples=1000000000", "time must be a number above 0 to 2"),
        ("pimc:samples=1000000000", "samples must be a whole number from 1 to 5000"),
        ("pimc:time=inf", "time must be a number above 0 to 2, not inf"),
        ("pimc:time=nan", "time must be a number above 0 to 2, not nan"),
        ("pimc:time=0", "time must be a number above 0 to 2"),
        ("ismcts:time=1e308,iterations=99999999999", "time must be a number above 0 to 2"),
        ("ismcts:iterations=99999999999", "iterations must be a whole number from 1 to 500000"),
        ("ismcts:c=nan", "c must be a number from 0 to 10, not nan"),
        ("pimc:bid_factor=9", r"bot 'pimc' has no option 'bid_factor' \(its options: samples"),
        ("pimc:tries=1000", "has no option 'tries'"),
        ("pimc:win_weight=nan", "has no option 'win_weight'"),  # the server's, not a client's
        ("master:time=3", "time must be a number above 0 to 2"),
    ],
)
def test_a_bot_that_cannot_be_made_is_refused_at_once(spec: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        check_bot_spec(spec)


def test_good_specs_are_normalised() -> None:
    assert check_bot_spec("master") == "pimc:time=1.0"
    assert check_bot_spec("expert:time=2") == "ismcts:time=2"
    assert check_bot_spec("ismcts:iterations=50") == "ismcts:iterations=50"
    assert check_bot_spec("pimc:samples=12,time=0.4") == "pimc:samples=12,time=0.4"


def test_the_api_answers_422_and_runs_nothing(tmp_path: Path) -> None:
    mark = tmp_path / "ran"
    seats = [{"kind": "human"}, {"kind": "bot", "bot": f"ext:touch {mark}"}]
    with app_client(in_process_settings(tmp_path)) as client:
        r = client.post("/api/tables", json={"seats": seats})
        assert r.status_code == 422
        assert "would run a command on the server" in r.text
        r = client.post(
            "/api/tables", json={"seats": [{}, {"kind": "bot", "bot": "pimc:time=nan"}]}
        )
        assert r.status_code == 422 and "time must be a number above 0 to 2, not nan" in r.text
        r = client.post("/api/tables", json={"options": {"substitute": f"ext:touch {mark}"}})
        assert r.status_code == 422
        r = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"bot": "x"}]})
        assert r.status_code == 422
    assert not mark.exists()
