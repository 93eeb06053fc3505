"""One list of bot levels (issue 17 item 9): the registry's, weakest to strongest, served
by ``GET /api/bots``; the web client names each of them in every language."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from pitch.bots.registry import ALIASES, level_of, levels, parse_bot_spec
from pitch.i18n import LANGUAGES
from tests.server.inprocess import TestClient, app_client, in_process_settings

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
ROOT = Path(__file__).resolve().parents[3]
STATIC = ROOT / "src/pitch/web"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(in_process_settings(tmp_path)) as c:
        yield c


def test_the_registry_lists_levels_weakest_to_strongest() -> None:
    assert [(lv.level, lv.spec) for lv in levels()] == [
        ("beginner", "random"),
        ("club", "heuristic"),
        ("expert", "ismcts:time=1.0"),
        ("master", "pimc:time=1.0"),
    ]
    for lv in levels():
        assert level_of(lv.level) == lv.level == level_of(lv.spec)
        assert str(parse_bot_spec(ALIASES[lv.level])) == lv.spec
    assert level_of("pimc:time=0.5") is None and level_of("nonsense") is None
    assert level_of(None) is None


def test_api_bots_serves_the_ordered_list(client: TestClient) -> None:
    b = client.get("/api/bots").json()
    assert b["levels"] == [{"level": lv.level, "spec": lv.spec} for lv in levels()]
    assert b["aliases"] == dict(ALIASES)
    assert "random" in b["bots"]


def test_a_table_stores_the_spec_the_list_names(client: TestClient) -> None:
    """A seat asked for as a level is stored as the level's spec, which the client
    matches to name it (``heuristic`` shows as "Club player")."""
    seats = [{"kind": "human"}, *({"kind": "bot", "bot": lv.level} for lv in levels())]
    r = client.post("/api/tables", json={"rules": {"players": 5}, "seats": seats})
    assert r.status_code == 201, r.text
    stored = [s["bot"] for s in r.json()["seats"][1:]]
    assert stored == [lv.spec for lv in levels()]


def test_the_web_client_names_every_level_in_every_language() -> None:
    js = (STATIC / "js/core/levels.js").read_text(encoding="utf-8")
    body = re.search(r"function names\(\) \{\s*return \{(.*?)\};", js, re.S)
    assert body, "levels.js names() not found"
    named = dict(re.findall(r'(\w+): t\("([^"]+)"\)', body.group(1)))
    assert set(named) == set(ALIASES), "every level the server lists needs a name"
    assert "strong:" not in js  # the level of an old list, never served
    for lang in (code for code in LANGUAGES if code != "en"):
        messages = json.loads((STATIC / f"i18n/{lang}.json").read_text(encoding="utf-8"))
        for level, msgid in named.items():
            text = messages["messages"].get(msgid)
            assert text and text != level, f"{lang}: level {level!r} ({msgid!r}) untranslated"
