from __future__ import annotations

import json
from statistics import NormalDist

import pytest
from typer.testing import CliRunner

from pitch.arena.match import ArenaConfig, play_deal, rotations, run_local, summarize
from pitch.cli.main import app
from pitch.engine import Rules, iter_records, verify_record

PARTNERS = Rules(partnerships=True)


@pytest.mark.parametrize("spec", ["heuristic", "random"])
@pytest.mark.parametrize("rules", [PARTNERS, Rules(players=3), Rules(players=2)])
def test_identical_bots_tie_exactly(spec: str, rules: Rules) -> None:
    # Seat generators depend on (deal, seat) only, so identical bots mirror each other.
    cfg = ArenaConfig(bot_a=spec, bot_b=spec, rules=rules, deals=4, seed=7, max_hands=60)
    s = summarize(cfg, run_local(cfg, list(range(cfg.deals))))
    assert s.diff.estimate == 0.0 and s.diff.low == 0.0 and s.diff.high == 0.0
    # Games too, in the solo game as well: B's wins are shared out over its seats.
    assert s.win_diff.estimate == 0.0 and s.tally[0].win_share == s.tally[1].win_share
    if rules.players == 2 or rules.partnerships:
        assert s.tally[0].games_won == s.tally[1].games_won
        assert s.tally[0].auctions_won == s.tally[1].auctions_won


def test_rotations_share_shuffles_and_swap_teams() -> None:
    cfg = ArenaConfig(
        bot_a="heuristic", bot_b="random", rules=PARTNERS, deals=1, seed=3, records=True
    )
    r = play_deal(cfg, 0)
    recs = [json.loads(line) for line in r.records]
    assert [rec["bots"] for rec in recs] == [
        ["heuristic", "random", "heuristic", "random"],
        ["random", "heuristic", "random", "heuristic"],
    ]
    # Same first shuffle and first dealer in both rotations.
    assert recs[0]["hands"][0]["deal"] == recs[1]["hands"][0]["deal"]
    assert recs[0]["hands"][0]["dealer"] == recs[1]["hands"][0]["dealer"]
    for rec in recs:
        assert verify_record(rec) is None


def test_tallies_match_the_records() -> None:
    cfg = ArenaConfig(
        bot_a="heuristic", bot_b="random", rules=Rules(players=3), deals=2, seed=1, records=True
    )
    results = [play_deal(cfg, i) for i in range(2)]
    s = summarize(cfg, results)
    hands = a_points = 0
    for r in results:
        for line, who in zip(r.records, rotations(cfg.rules), strict=True):
            rec = json.loads(line)
            a_seat = who.index(0)
            prev = 0
            for h in rec["hands"]:
                hands += 1
                a_points += h["scores"][a_seat] - prev
                prev = h["scores"][a_seat]
    assert s.tally[0].hands == hands
    assert s.points_per_hand[0] == pytest.approx(a_points / hands)


def test_pool_gives_the_same_results_as_one_process() -> None:
    cfg = ArenaConfig(bot_a="heuristic", bot_b="random", rules=PARTNERS, deals=4, seed=2)
    one = summarize(cfg, run_local(cfg, list(range(4)), workers=1))
    two = summarize(cfg, run_local(cfg, list(range(4)), workers=2))
    assert one.to_dict() == two.to_dict() or (
        # seconds per decision differ; everything else must not
        [b["points_per_hand"] for b in one.to_dict()["bots"]]
        == [b["points_per_hand"] for b in two.to_dict()["bots"]]
        and one.diff == two.diff
    )


def test_cli_json_and_records(tmp_path: object) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "games.jsonl"
    res = CliRunner().invoke(
        app,
        [
            "arena",
            "club",
            "beginner",
            "--partnerships",
            "--deals",
            "3",
            "--workers",
            "1",
            "--json",
            "--out",
            str(out),
        ],
    )
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["games"] == 6
    a, b = summary["bots"]
    assert a["bot"] == "club" and a["games_won"] + b["games_won"] + summary["unfinished_games"] == 6
    assert a["frozen"] == "heuristic"  # every option spelt out (it has none)
    d = summary["paired_difference"]
    assert d["low"] <= d["estimate"] <= d["high"]
    assert d["estimate"] == pytest.approx(a["points_per_hand"] - b["points_per_hand"])
    recs = list(iter_records(out.read_text()))
    assert len(recs) == 6


def test_cli_bad_bot_is_a_usage_error() -> None:
    res = CliRunner().invoke(app, ["arena", "heuristic", "nosuchbot", "--deals", "1"])
    assert res.exit_code == 2
    assert "unknown bot" in res.output
    res = CliRunner().invoke(
        app, ["arena", "pimc:samples=0", "random", "--deals", "1", "--workers", "1"]
    )
    assert res.exit_code == 2
    assert "samples" in res.output


def test_stopping_a_pooled_match_early_returns() -> None:
    # An interrupted match (Ctrl-C in the CLI) closes the iterator: the deals not
    # started are cancelled and the workers stopped instead of waited for.
    cfg = ArenaConfig(bot_a="heuristic", bot_b="random", rules=PARTNERS, deals=40, seed=5)
    it = run_local(cfg, list(range(40)), workers=2)
    first = next(it)
    it.close()
    assert 0 <= first.index < 40


def test_arena_compare_pairs_two_runs_by_deal(tmp_path: object) -> None:
    from pathlib import Path

    runs = []
    for i, a in enumerate(("club", "beginner")):
        res = CliRunner().invoke(
            app,
            ["arena", a, "beginner", "--players", "3", "--deals", "4", "--workers", "1", "--json"],
        )
        assert res.exit_code == 0, res.output
        path = Path(str(tmp_path)) / f"run{i}.json"
        path.write_text(res.stdout)
        runs.append(json.loads(res.stdout))
    assert [len(r["per_deal"]) for r in runs] == [4, 4]
    hands = sum(d["hands"] for d in runs[0]["per_deal"])
    assert sum(d["difference"] for d in runs[0]["per_deal"]) / hands == pytest.approx(
        runs[0]["paired_difference"]["estimate"]
    )
    files = [str(Path(str(tmp_path)) / f"run{i}.json") for i in (0, 1)]
    res = CliRunner().invoke(app, ["arena-compare", *files, "--json"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)
    assert got["deals"] == 4
    # beginner against itself ties exactly, so the difference is run 1's margin
    assert runs[1]["paired_difference"]["estimate"] == 0
    assert got["estimate"] == pytest.approx(runs[0]["paired_difference"]["estimate"])
    assert got["low"] <= got["estimate"] <= got["high"]
    # A run against itself differs by nothing on every deal: no z, and still valid JSON.
    same = CliRunner().invoke(app, ["arena-compare", files[0], files[0], "--json"])
    assert json.loads(same.stdout)["z"] is None and "NaN" not in same.stdout
    # Runs on other deals are refused, and so is a file that is not a run.
    other = CliRunner().invoke(
        app, ["arena", "club", "beginner", "--players", "3", "--deals", "2", "--seed", "9",
              "--workers", "1", "--json"],
    )  # fmt: skip
    (Path(str(tmp_path)) / "other.json").write_text(other.stdout)
    res = CliRunner().invoke(
        app, ["arena-compare", files[0], str(Path(str(tmp_path)) / "other.json")]
    )
    assert res.exit_code == 2 and "seed" in _flat(res.output)
    (Path(str(tmp_path)) / "bad.json").write_text("{")
    res = CliRunner().invoke(
        app, ["arena-compare", files[0], str(Path(str(tmp_path)) / "bad.json")]
    )
    assert res.exit_code == 2 and "not a readable arena result" in _flat(res.output)


def test_arena_compare_pools_pairs_of_runs_on_other_seeds(tmp_path: object) -> None:
    from pathlib import Path

    from pitch.arena.stats import ratio_difference_interval, ratio_interval

    files: list[str] = []
    runs = []
    for seed in (3, 4):
        for a in ("club", "beginner"):
            res = CliRunner().invoke(
                app, ["arena", a, "beginner", "--players", "2", "--deals", "3", "--seed",
                      str(seed), "--workers", "1", "--json"],
            )  # fmt: skip
            assert res.exit_code == 0, res.output
            path = Path(str(tmp_path)) / f"{a}{seed}.json"
            path.write_text(res.stdout)
            files.append(str(path))
            runs.append(json.loads(res.stdout))
    res = CliRunner().invoke(app, ["arena-compare", *files, "--json"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)
    assert got["deals"] == 6 and got["seeds"] == {"3": 3, "4": 3}

    def cols(rs: list[dict[str, object]]) -> tuple[list[float], list[float]]:
        deals = [d for r in rs for d in r["per_deal"]]  # type: ignore[attr-defined]
        return [d["difference"] for d in deals], [d["hands"] for d in deals]

    first, second = cols([runs[0], runs[2]]), cols([runs[1], runs[3]])
    want = ratio_difference_interval(first, second)
    assert got["estimate"] == pytest.approx(want.estimate)
    assert got["low"] == pytest.approx(want.low) and got["high"] == pytest.approx(want.high)
    assert got["first_margin"]["estimate"] == pytest.approx(ratio_interval(*first).estimate)
    # z is the estimate over the standard error behind the interval; p is its normal tail.
    se = (want.high - want.low) / (2 * 1.959963984540054)
    assert got["z"] == pytest.approx(want.estimate / se)
    tail = NormalDist().cdf(-abs(want.estimate / se))
    assert got["p"] == pytest.approx(2 * tail)
    text = CliRunner().invoke(app, ["arena-compare", *files]).output
    assert "6 deals in common (seed 3: 3, seed 4: 3)" in text
    assert f"z = {got['z']:+.2f}, two-sided p = {got['p']:.3f}" in text
    # Each seed's own paired difference is reported too.
    for k, seed in enumerate((3, 4)):
        alone = ratio_difference_interval(cols([runs[2 * k]]), cols([runs[2 * k + 1]]))
        assert got["by_seed"][str(seed)]["estimate"] == pytest.approx(alone.estimate)
        assert got["by_seed"][str(seed)]["high"] == pytest.approx(alone.high)
        assert f"seed {seed} alone (3 deals): {alone}" in text
    # A seed given twice, an odd number of runs, or a pair of another match is refused.
    res = CliRunner().invoke(app, ["arena-compare", *files[:2], *files[:2]])
    assert res.exit_code == 2 and "given twice" in _flat(res.output)
    res = CliRunner().invoke(app, ["arena-compare", *files[:3]])
    assert res.exit_code == 2 and "in pairs" in _flat(res.output)
    res = CliRunner().invoke(app, ["arena-compare", *files[:2], files[3], files[2]])
    assert res.exit_code == 2 and "other bots" in _flat(res.output)


def _flat(text: str) -> str:
    """An error box's text on one line."""
    return " ".join(text.replace("\u2502", " ").split())


def test_one_deal_has_no_interval_and_the_json_stays_json() -> None:
    # One deal is one cluster: no spread to bound the difference with. The summary
    # says so, and --json writes null rather than Infinity, which is not JSON.
    args = ["arena", "heuristic", "random", "--deals", "1", "--workers", "1"]
    res = CliRunner().invoke(app, [*args, "--json"])
    assert res.exit_code == 0, res.output

    def no_constants(name: str) -> None:
        raise AssertionError(f"not JSON: {name}")

    d = json.loads(res.stdout, parse_constant=no_constants)["paired_difference"]
    assert d["low"] is None and d["high"] is None and isinstance(d["estimate"], float)
    text = CliRunner().invoke(app, args)
    assert "(no interval from fewer than 2 deals)" in text.stdout


def test_game_wins_per_deal_pair_runs_by_games(tmp_path: object) -> None:
    """Game wins are a paired measure too: per deal, the games A and B won; the
    summary's per-game difference is their total over the games, within [-1, 1]; and
    arena-compare --measure games pairs two runs by them."""
    from pathlib import Path

    cfg = ArenaConfig(bot_a="heuristic", bot_b="random", rules=PARTNERS, deals=6, seed=4)
    s = summarize(cfg, run_local(cfg, list(range(cfg.deals))))
    d = s.to_dict()
    won = [deal["won"] for deal in d["per_deal"]]
    games = sum(deal["games"] for deal in d["per_deal"])
    assert games == s.tally[0].games == 12
    assert [sum(w[0] for w in won), sum(w[1] for w in won)] == [
        s.tally[0].games_won,
        s.tally[1].games_won,
    ]
    # Partnerships: each holds one side, so a share is a game won.
    assert [deal["win_share"] for deal in d["per_deal"]] == [[float(a), float(b)] for a, b in won]
    want = (s.tally[0].games_won - s.tally[1].games_won) / games
    assert d["paired_game_difference"]["estimate"] == pytest.approx(want) and want > 0
    assert -1.0 <= s.win_diff.low <= s.win_diff.estimate <= s.win_diff.high <= 1.0
    files = []
    for i, a in enumerate(("club", "beginner")):
        res = CliRunner().invoke(
            app, ["arena", a, "beginner", "--partnerships", "--deals", "4", "--workers", "1",
                  "--json"],
        )  # fmt: skip
        assert res.exit_code == 0, res.output
        path = Path(str(tmp_path)) / f"run{i}.json"
        path.write_text(res.stdout)
        files.append(str(path))
    runs = [json.loads(Path(f).read_text()) for f in files]
    res = CliRunner().invoke(app, ["arena-compare", *files, "--measure", "games", "--json"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)
    assert got["measure"] == "games" and got["deals"] == 4
    # beginner against itself wins as many games as it loses on every deal.
    assert runs[1]["paired_game_difference"]["estimate"] == 0
    assert got["estimate"] == pytest.approx(runs[0]["paired_game_difference"]["estimate"])
    text = CliRunner().invoke(app, ["arena-compare", *files, "--measure", "games"]).output
    assert "games won per game" in text
    bad = CliRunner().invoke(app, ["arena-compare", *files, "--measure", "wins"])
    assert bad.exit_code == 2 and "'points' or 'games'" in _flat(bad.output)
    # A run written before game wins were recorded per deal cannot be compared by games.
    old = runs[0] | {"per_deal": [{k: v for k, v in r.items() if k != "win_share"} for r in
                                  runs[0]["per_deal"]]}  # fmt: skip
    Path(files[0]).write_text(json.dumps(old))
    res = CliRunner().invoke(app, ["arena-compare", *files, "--measure", "games"])
    assert res.exit_code == 2 and "run it again" in _flat(res.output)
