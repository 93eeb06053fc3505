"""Server settings: every number is checked (type, range, finite) before the server
starts, whether it came from ``PITCH_*`` or from code, and a bad one stops ``pitch
serve`` with a message naming it (before, a typo fell back to the default silently,
and ``inf`` or ``nan`` went through)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from typer.testing import CliRunner

import pitch.server
from pitch.cli.main import app
from pitch.server import Settings
from pitch.server.settings import LIMITS, SettingsError

runner = CliRunner()


def test_the_defaults_are_in_range(monkeypatch: pytest.MonkeyPatch) -> None:
    for _lo, _hi, env in LIMITS.values():
        if env:
            monkeypatch.delenv(env, raising=False)
    s = Settings()
    for name, (lo, hi, _env) in LIMITS.items():
        assert lo <= getattr(s, name) <= hi, name


def test_every_number_setting_has_a_range() -> None:
    numbers = {f.name for f in dataclasses.fields(Settings) if f.type in ("int", "float")}
    assert numbers == set(LIMITS)


@pytest.mark.parametrize(
    ("env", "text", "said"),
    [
        ("PITCH_LEASE_SECONDS", "inf", "PITCH_LEASE_SECONDS (lease_seconds) must be a number"),
        ("PITCH_WS_PING", "nan", "from 0.1 to 3,600, not nan"),
        ("PITCH_WS_RATE", "abc", "PITCH_WS_RATE must be a number, not 'abc'"),
        ("PITCH_WS_RATE", "0", "from 0.001 to 1,000,000, not 0.0"),
        ("PITCH_BOT_WORKERS", "2.5", "PITCH_BOT_WORKERS must be a whole number, not '2.5'"),
        ("PITCH_BOT_WORKERS", "100000", "from 1 to 64, not 100000"),
        ("PITCH_MAX_TABLES", "-1", "(max_live_tables) must be a whole number from 1"),
        ("PITCH_QUICK_BOT_DELAY", "1e9", "from 0 to 10,"),
    ],
)
def test_a_bad_environment_value_is_refused(
    monkeypatch: pytest.MonkeyPatch, env: str, text: str, said: str
) -> None:
    monkeypatch.setenv(env, text)
    with pytest.raises(SettingsError) as e:
        Settings()
    assert said in str(e.value)


@pytest.mark.parametrize(
    "change",
    [
        {"lease_seconds": float("inf")},
        {"lease_seconds": 0.5},
        {"bot_timeout": float("nan")},
        {"send_queue": 0},
        {"bot_workers": True},
        {"bot_workers": 2.0},
        {"max_spectators": "50"},
    ],
)
def test_a_bad_value_from_code_is_refused(change: dict[str, Any]) -> None:
    with pytest.raises(SettingsError):
        Settings(**change)
    with pytest.raises(SettingsError):  # a copy with one change is checked too
        dataclasses.replace(Settings(), **change)


def test_a_good_environment_value_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PITCH_LEASE_SECONDS", "2.5")
    monkeypatch.setenv("PITCH_BOT_WORKERS", "3")
    s = Settings()
    assert (s.lease_seconds, s.bot_workers) == (2.5, 3)


def _serve(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, list[Settings]]:
    """``pitch serve ARGS`` up to the app's creation (recorded, then stopped there)."""
    made: list[Settings] = []

    def create_app(settings: Settings) -> Any:
        made.append(settings)
        raise SystemExit(0)

    monkeypatch.setattr(pitch.server, "create_app", create_app)
    res = runner.invoke(app, ["serve", "--db", "sqlite:///:memory:", *args])
    assert "Traceback" not in res.output
    return res.exit_code, res.output, made


def test_serve_stops_on_a_bad_setting_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PITCH_LEASE_SECONDS", "inf")
    code, out, made = _serve(monkeypatch)
    assert code == 2 and made == []
    assert "pitch serve: PITCH_LEASE_SECONDS (lease_seconds) must be a number" in out


def test_serve_reads_the_bot_workers_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PITCH_BOT_WORKERS", "3")
    assert _serve(monkeypatch)[2][0].bot_workers == 3  # it used to be 2 whatever it said
    assert _serve(monkeypatch, "--bot-workers", "1")[2][0].bot_workers == 1  # the option wins
    code, out, made = _serve(monkeypatch, "--bot-workers", "65")
    assert code == 2 and made == [] and "--bot-workers" in out


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--delay", "inf"],
        ["play", "--delay", "nan"],
        ["cluster", "--lease-seconds", "inf"],
        ["cluster", "--bot-workers", "1000"],
        ["cluster", "--nginx-workers", "1000"],
        ["cluster", "--client-rate", "0"],
    ],
)
def test_commands_refuse_numbers_out_of_range(args: list[str]) -> None:
    """Each was taken before: ``--delay inf`` crashed the game at the first pause, and
    ``--lease-seconds inf`` started a cluster whose tables could never be adopted."""
    res = runner.invoke(app, args)
    assert res.exit_code == 2, res.output
    assert args[1] in res.output and "Traceback" not in res.output
