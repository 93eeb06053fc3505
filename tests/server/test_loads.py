"""What a server process loads: the bots it plays, never the code that trains them,
the arena, or Ray (issue 45). import-linter holds the imports the code writes; this
holds what a started server really has in ``sys.modules``, lazy imports included."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

START = """
import json, sys, warnings

def loaded():
    return sorted(
        m for m in sys.modules
        if m == "ray" or m.startswith(("ray.", "pitch.training", "pitch.arena"))
    )

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient
from pitch.bots import make_bot
from pitch.server import Settings, create_app

settings = Settings(db_url=sys.argv[1], bot_workers=1)
with TestClient(create_app(settings)) as client:
    assert client.get("/api/health").status_code == 200
    make_bot("master")  # the level that reads the learned model, as a bot worker makes it
app = loaded()
import pitch.cli.main  # what `python -m pitch serve` imports before it serves
print(json.dumps({"app": app, "command": loaded()}))
"""


def test_a_started_server_loads_no_training_no_arena_and_no_ray(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", START, f"sqlite:///{tmp_path / 'app.db'}"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert loaded["app"] == [], loaded
    # The command line registers `pitch arena` (whose matches it imports) but trains
    # nothing and starts no Ray until a command asks.
    assert not [m for m in loaded["command"] if not m.startswith("pitch.arena")], loaded


def test_the_rooms_it_must_not_load_are_there() -> None:
    # The names above are real modules: a rename would make the check pass vacuously.
    for name in ("pitch.training.selfplay", "pitch.training.ray_backend", "pitch.arena.match"):
        assert importlib.util.find_spec(name) is not None, name
