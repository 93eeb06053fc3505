"""Bots: players that see only their seat's :class:`~pitch.engine.PlayerView`."""

from pitch.bots.base import Bot, pick_from_mask
from pitch.bots.random_bot import RandomBot
from pitch.bots.registry import BOTS, BotSpec, make_bot, parse_bot_spec
from pitch.bots.runner import GameOutcome, play_game

__all__ = [
    "BOTS",
    "Bot",
    "BotSpec",
    "GameOutcome",
    "RandomBot",
    "make_bot",
    "parse_bot_spec",
    "pick_from_mask",
    "play_game",
]
