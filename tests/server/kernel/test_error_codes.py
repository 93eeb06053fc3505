"""HTTP error answers carry a ``code`` (``pitch.server.kernel.errors.HTTP_CODES``, docs/server.md
"HTTP error codes") that clients say in their own words; ``detail`` stays English."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from pitch.server.kernel.errors import HTTP_CODES
from tests.server.inprocess import app_client, in_process_settings

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
SERVER = Path(__file__).resolve().parents[3] / "src/pitch/server"
DOCS = Path(__file__).resolve().parents[3] / "docs/server.md"


def _refused(r: Any, status: int, code: str, **extra: Any) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["code"] == code and body["detail"], body
    for k, v in extra.items():
        assert body[k] == v, body


def test_each_refusal_names_its_code(tmp_path: Path) -> None:
    settings = in_process_settings(tmp_path, max_open_tables_per_client=2, reads_per_minute=12)
    with app_client(settings) as c:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        t = c.post("/api/tables", json={"rules": {"players": 2}, "seats": seats}).json()["id"]
        _refused(c.get("/api/tables/nosuchtable"), 404, "no_table")
        _refused(c.get("/api/nosuchroute"), 404, "no_route")
        _refused(c.put(f"/api/tables/{t}", json={}), 405, "no_route")
        _refused(c.post(f"/api/tables/{t}/seats/5", json={"name": "Ada"}), 404, "no_seat")
        _refused(
            c.post(f"/api/tables/{t}/seats/1", json={"name": "Ada"}), 409, "seat_is_bot", seat=1
        )
        assert c.post(f"/api/tables/{t}/seats/0", json={"name": "Ada"}).status_code == 200
        _refused(c.post(f"/api/tables/{t}/seats/0", json={"name": "Bo"}), 409, "seat_taken", seat=0)
        _refused(c.post(f"/api/tables/{t}/leave", json={"token": "x" * 43}), 403, "bad_token")
        _refused(c.get(f"/api/tables/{t}/record"), 409, "not_over")
        _refused(c.post(f"/api/tables/{t}/quickseat", json={"name": "Bo"}), 409, "not_quick")
        _refused(c.post("/api/tables", json={"rules": {"players": 9}}), 422, "bad_request")
        three = {"rules": {"players": 2}, "seats": [{"kind": "human"}] * 3}
        _refused(c.post("/api/tables", json=three), 422, "bad_rules")
        bots = [{"kind": "bot", "bot": "random"}] * 2
        _refused(
            c.post("/api/tables", json={"rules": {"players": 2}, "seats": bots}), 422, "no_human"
        )
        _refused(c.post("/api/tables", json={"options": {"bot_delay": "x"}}), 422, "bad_request")
        assert c.post("/api/tables", json={}).status_code == 201
        _refused(c.post("/api/tables", json={}), 429, "too_many_open", limit=2)
        other = c.post("/api/tables", content=b"{}", headers={"Origin": "https://evil.example"})
        _refused(other, 403, "other_site")
        form = c.post("/api/tables", content=b"a=1", headers={"Content-Type": "text/plain"})
        _refused(form, 415, "not_json")
        big = c.post(
            "/api/my/tables", content=b" " * 70_000, headers={"Content-Type": "application/json"}
        )
        _refused(big, 413, "too_large")
        for _ in range(12):  # the reads above spent some of the 12
            r = c.get(f"/api/tables/{t}/state")
        _refused(r, 429, "too_many_requests")


def test_two_players_at_a_table_cannot_share_a_name(tmp_path: Path) -> None:
    # The log and the chat say who did what by name: one name, one seat.
    with app_client(in_process_settings(tmp_path)) as c:
        t = c.post("/api/tables", json={"rules": {"players": 3}}).json()["id"]
        assert c.post(f"/api/tables/{t}/seats/0", json={"name": "Ada"}).status_code == 200
        for same in ("ada", "ＡＤＡ", " Ada "):  # case, width and spaces do not tell names apart
            _refused(c.post(f"/api/tables/{t}/seats/1", json={"name": same}), 409, "name_taken")
        token = c.post(f"/api/tables/{t}/seats/1", json={"name": "Adam"}).json()["token"]
        # A seat given up before the game starts frees its name too.
        assert c.post(f"/api/tables/{t}/leave", json={"token": token}).status_code == 200
        assert c.post(f"/api/tables/{t}/seats/2", json={"name": "adam"}).status_code == 200


def test_a_person_cannot_go_by_a_bots_name(tmp_path: Path) -> None:
    # The table, its log and its record name bot seats "Bot 2" (in the reader's
    # language): a person by that name would pass for a bot, and a bot for them.
    with app_client(in_process_settings(tmp_path)) as c:
        t = c.post("/api/tables", json={"rules": {"players": 3}}).json()["id"]
        for name in ("Bot 2", "bot3", "ＢＯＴ 4", "Бот 2", "Robot 12", "Bot 2 (for Ann)"):
            _refused(c.post(f"/api/tables/{t}/seats/0", json={"name": name}), 422, "name_reserved")
        quick = c.post("/api/quickplay", json={"rules": {"players": 2}}).json()["table"]
        _refused(
            c.post(f"/api/tables/{quick}/quickseat", json={"name": "Bot 1"}), 422, "name_reserved"
        )
        # Its human seat taken, the next quick seat is a bot's to take over: refused too.
        assert c.post(f"/api/tables/{quick}/quickseat", json={"name": "Al"}).status_code == 200
        _refused(
            c.post(f"/api/tables/{quick}/quickseat", json={"name": "Bot 2"}), 422, "name_reserved"
        )
        assert c.post(f"/api/tables/{quick}/quickseat", json={"name": "Bo"}).status_code == 200
        for fine in ("Botond", "Bot", "Ann (Bot 2)", "Robotnik 2"):
            assert c.post(f"/api/tables/{t}/seats/0", json={"name": fine}).status_code == 200
            t = c.post("/api/tables", json={"rules": {"players": 3}}).json()["id"]


def test_every_refusal_in_the_code_has_a_known_code() -> None:
    # ServiceError(status, detail, code): a code is a literal of HTTP_CODES, or the
    # status has a usual one (errors._BY_STATUS); the constructor asserts it too, but
    # only for the refusals a test happens to reach.
    from pitch.server.kernel.errors import _BY_STATUS

    seen = 0
    for path in SERVER.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "ServiceError"):
                continue
            seen += 1
            where = f"{path.name}:{node.lineno}"
            if len(node.args) >= 3:
                code = node.args[2]
                assert isinstance(code, ast.Constant) and code.value in HTTP_CODES, where
            else:
                status = node.args[0]
                assert isinstance(status, ast.Constant) and status.value in _BY_STATUS, where
    assert seen >= 25


def test_the_docs_list_every_code() -> None:
    text = DOCS.read_text()
    table = text[text.index("### HTTP error codes") :]
    rows = dict(re.findall(r"^\| `(\w+)` \| \d{3} \| (.+) \|$", table, re.M))
    assert rows == HTTP_CODES


def test_the_openapi_error_model_has_the_code(tmp_path: Path) -> None:
    with app_client(in_process_settings(tmp_path)) as c:
        problem = c.get("/openapi.json").json()["components"]["schemas"]["Problem"]
    assert {"detail", "code"} <= set(problem["required"])
