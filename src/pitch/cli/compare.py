"""``pitch arena-compare RUN1.json RUN2.json [MORE1.json MORE2.json ...]``: arena runs
on the same deals, paired.

Two bots each measured against the same opponent (say, before and after a change,
both against ``heuristic``) on the same seeded deals: the deals are shared, so
the difference of their margins is measured deal by deal, with a far narrower
interval than the two runs' intervals suggest. More pairs of runs, each pair on
deals of its own seed, pool into one comparison: deals are independent clusters
whichever seed they came from.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated, Any

import typer

from pitch.arena.stats import (
    Interval,
    ratio_difference_interval,
    ratio_interval,
    two_sided_p,
    z_score,
)


def register(app: typer.Typer) -> None:
    app.command("arena-compare")(arena_compare)


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise typer.BadParameter(f"{path}: not a readable arena result ({e})") from None
    if not isinstance(data, dict) or not isinstance(data.get("per_deal"), list):
        raise typer.BadParameter(
            f"{path}: not the output of 'pitch arena --json' (no per_deal list)"
        )
    return data


MEASURES = {"points": "per hand", "games": "games won per game"}
"""What a comparison measures, and how its figures read."""


def _value(deal: dict[str, Any], measure: str) -> float:
    """One deal's A - B: points (summed over its hands) or games won."""
    if measure == "games":
        share_a, share_b = deal["win_share"]
        return float(share_a) - float(share_b)
    return float(deal["difference"])


def _names(run: dict[str, Any]) -> str:
    return " vs ".join(str(bot["bot"]) for bot in run["bots"])


def arena_compare(
    runs: Annotated[
        list[Path],
        typer.Argument(
            metavar="RUN.json",
            help="Outputs of 'pitch arena ... --json' in pairs: FIRST SECOND, both on the "
            "same rules and seed; more pairs (other seeds, the same bots) are pooled.",
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    measure: Annotated[
        str,
        typer.Option(
            help="points: A - B points per hand; games: A - B games won per game "
            "(+1: A won them all)."
        ),
    ] = "points",
) -> None:
    """Compare arena runs on the same deals: each side's A - B per hand (or games won
    per game), and the first's minus the second's with a 95% interval paired by deal,
    its z score and two-sided p-value."""
    if measure not in MEASURES:
        raise typer.BadParameter(f"--measure is 'points' or 'games', not {measure!r}")
    per = MEASURES[measure]
    if len(runs) < 2 or len(runs) % 2:
        raise typer.BadParameter("give the runs in pairs: FIRST SECOND [FIRST SECOND ...]")
    first: tuple[list[float], list[float]] = ([], [])
    second: tuple[list[float], list[float]] = ([], [])
    seeds: dict[int, int] = {}
    per_seed: dict[int, Interval] = {}
    names: list[str] = []
    rules: Any = None
    for path_a, path_b in zip(runs[0::2], runs[1::2], strict=True):
        a, b = _load(path_a), _load(path_b)
        for key in ("rules", "seed"):
            if a.get(key) != b.get(key):
                raise typer.BadParameter(
                    f"{path_a.name} and {path_b.name} differ in {key}: not the same deals"
                )
        pair_names = [_names(a), _names(b)]
        if not names:
            names, rules = pair_names, a["rules"]
        elif pair_names != names or a["rules"] != rules:
            raise typer.BadParameter(
                f"{path_a.name} and {path_b.name} pit other bots or rules than the first "
                "pair: only runs of the same match pool"
            )
        seed = int(a["seed"])
        if seed in seeds:
            raise typer.BadParameter(f"seed {seed} is given twice: its deals would count twice")
        da = {int(r["deal"]): r for r in a["per_deal"]}
        db = {int(r["deal"]): r for r in b["per_deal"]}
        common = sorted(set(da) & set(db))
        seeds[seed] = len(common)
        try:
            cols = [
                (
                    [_value(d[i], measure) for i in common],
                    [float(d[i]["games" if measure == "games" else "hands"]) for i in common],
                )
                for d in (da, db)
            ]
        except KeyError:
            raise typer.BadParameter(
                f"{path_a.name} or {path_b.name} was made before the arena recorded game "
                "wins per deal: run it again to compare games"
            ) from None
        per_seed[seed] = ratio_difference_interval(cols[0], cols[1])
        for side, (totals, hands) in zip((first, second), cols, strict=True):
            side[0].extend(totals)
            side[1].extend(hands)
    deals = len(first[0])
    if deals < 2:
        raise typer.BadParameter("the runs share fewer than 2 deals")
    iv = ratio_difference_interval(first, second)
    margins = [ratio_interval(*first), ratio_interval(*second)]
    # z and p, so that a reader can hold the result to a stricter bar than 95%
    # (several looks at growing data, several comparisons).
    z = z_score(iv)
    p = two_sided_p(z)
    if as_json:
        out = {
            "measure": measure,
            "deals": deals,
            "seeds": {str(s): n for s, n in seeds.items()},
            "by_seed": {str(s): one.to_dict() for s, one in per_seed.items()},
            "first": names[0],
            "second": names[1],
            "first_margin": margins[0].to_dict(),
            "second_margin": margins[1].to_dict(),
            **iv.to_dict(),
            # None where every deal differs alike (no spread): JSON has no NaN.
            "z": z if math.isfinite(z) else None,
            "p": p if math.isfinite(p) else None,
        }
        typer.echo(json.dumps(out))
        return
    by_seed = ", ".join(f"seed {s}: {n}" for s, n in seeds.items())
    typer.echo(f"{deals} deals in common ({by_seed})")
    typer.echo(f"first:  {names[0]}: A - B {per} {margins[0]}")
    typer.echo(f"second: {names[1]}: A - B {per} {margins[1]}")
    typer.echo(f"(A - B {per}, first) - (A - B {per}, second): {iv} (95%, paired by deal)")
    typer.echo(f"z = {z:+.2f}, two-sided p = {p:.3f}")
    if len(per_seed) > 1:
        for s, one in per_seed.items():
            typer.echo(f"  seed {s} alone ({seeds[s]} deals): {one}")
