"""Whole random games on every table: legal, replayable, verifiable."""

from __future__ import annotations

import json
import random
import sys

import pytest

from pitch.engine import Rules, dumps, game_record, verify_record
from tests.conftest import ALL_TABLES, play_random_game


@pytest.mark.parametrize("rules", ALL_TABLES, ids=str)
def test_random_games_verify(rules: Rules) -> None:
    rng = random.Random(rules.players)
    for _ in range(5):
        state = play_random_game(rules, rng, max_hands=60)
        rec = json.loads(dumps(game_record(state)))
        assert verify_record(rec) is None


def test_engine_imports_only_stdlib() -> None:
    import importlib
    import pkgutil

    import pitch.engine

    for mod in pkgutil.iter_modules(pitch.engine.__path__, "pitch.engine."):
        importlib.import_module(mod.name)
    for name, mod in list(sys.modules.items()):
        if name.startswith("pitch.engine"):
            for dep in vars(mod).values():
                top = getattr(dep, "__name__", "").split(".")[0]
                if hasattr(dep, "__spec__") and top:
                    assert top == "pitch" or top in sys.stdlib_module_names, (name, top)
