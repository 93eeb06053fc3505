"""``pitch arena-compare RUN1.json RUN2.json``: two arena runs on the same deals, paired.

Two bots each measured against the same opponent (say, before and after a change,
both against ``heuristic``) on the same seeded deals: the deals are shared, so
the difference of their margins is measured deal by deal, with a far narrower
interval than the two runs' intervals suggest.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from pitch.bots.stats import ratio_difference_interval


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


def arena_compare(
    first: Annotated[Path, typer.Argument(help="Output of 'pitch arena ... --json'.")],
    second: Annotated[Path, typer.Argument(help="Another, same rules and seed.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Compare two arena runs on the same deals: each run's A - B per hand, and the
    first's minus the second's with a 95% interval paired by deal."""
    a, b = _load(first), _load(second)
    for key in ("rules", "seed"):
        if a.get(key) != b.get(key):
            raise typer.BadParameter(f"the runs differ in {key}: they are not the same deals")
    da = {int(r["deal"]): r for r in a["per_deal"]}
    db = {int(r["deal"]): r for r in b["per_deal"]}
    common = sorted(set(da) & set(db))
    if len(common) < 2:
        raise typer.BadParameter("the runs share fewer than 2 deals")
    iv = ratio_difference_interval(
        ([float(da[i]["difference"]) for i in common], [float(da[i]["hands"]) for i in common]),
        ([float(db[i]["difference"]) for i in common], [float(db[i]["hands"]) for i in common]),
    )
    names = [" vs ".join(str(bot["bot"]) for bot in run["bots"]) for run in (a, b)]
    if as_json:
        out = {"deals": len(common), "first": names[0], "second": names[1], **iv.to_dict()}
        typer.echo(json.dumps(out))
        return
    typer.echo(f"{len(common)} deals in common (seed {a['seed']})")
    typer.echo(f"first:  {names[0]}")
    typer.echo(f"second: {names[1]}")
    typer.echo(f"(A - B per hand, first) - (A - B per hand, second): {iv} (95%, paired by deal)")
