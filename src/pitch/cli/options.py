"""Options shared by several commands."""

from __future__ import annotations

import typer

from pitch.engine import Rules, RulesError


def rules_from_options(
    players: int, partnerships: bool, target: int, preset_name: str | None = None
) -> Rules:
    """Build table rules from CLI flags, turning a bad combination into a usage error."""
    try:
        if preset_name:
            from pitch.engine import preset

            base = preset(preset_name)
            return base.with_options(
                players=players if players != 4 else base.players,
                partnerships=partnerships or base.partnerships,
                target=target if target != 7 else base.target,
            )
        return Rules(players=players, partnerships=partnerships, target=target)
    except RulesError as e:
        raise typer.BadParameter(str(e)) from None
