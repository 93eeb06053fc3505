"""Options shared by several commands."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from pitch.engine import Rules, RulesError
from pitch.engine.rules import OPTIONS, parse_option

RuleOption = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        metavar="KEY=VALUE",
        help="A table option, applied after the preset (repeatable), e.g. min_bid=2. Keys: "
        + ", ".join(o.key for o in OPTIONS)
        + " (docs/rules.md).",
    ),
]
"""``--rule KEY=VALUE``, repeatable: any option of :data:`pitch.engine.rules.OPTIONS`."""


def rules_from_options(
    players: int,
    partnerships: bool,
    target: int,
    preset_name: str | None = None,
    rule: list[str] | None = None,
) -> Rules:
    """Build table rules from CLI flags (the preset, then ``--players`` and the others,
    then each ``--rule``), turning a bad combination into a usage error."""
    try:
        if preset_name:
            from pitch.engine import preset

            base = preset(preset_name)
            rules = base.with_options(
                players=players if players != 4 else base.players,
                partnerships=partnerships or base.partnerships,
                target=target if target != 7 else base.target,
            )
        else:
            rules = Rules(players=players, partnerships=partnerships, target=target)
        changes: dict[str, Any] = {}
        for text in rule or ():
            key, sep, value = text.partition("=")
            if not sep:
                raise RulesError(f"--rule takes KEY=VALUE, not {text!r}.")
            k, v = parse_option(key.strip(), value.strip())
            changes[k] = v
        return rules.with_options(**changes) if changes else rules
    except RulesError as e:
        raise typer.BadParameter(str(e)) from None
