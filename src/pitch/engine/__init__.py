"""The rules engine: standard library only, exact and fast.

>>> import random
>>> from pitch.engine import GameState, Rules, parse_action
>>> s = GameState(Rules(players=4))
>>> s.deal_random(random.Random(7))
>>> s.apply(parse_action("pass"))
>>> s.current_player()
2
"""

from pitch.engine.actions import (
    BID_BASE,
    MAX_BID,
    NUM_ACTIONS,
    PASS,
    action_str,
    bid_action,
    bid_value,
    is_bid,
    is_card,
    parse_action,
)
from pitch.engine.cards import (
    FULL_DECK,
    NUM_CARDS,
    RANKS,
    SUIT_MASK,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    CardSet,
    card_str,
    cards_of,
    format_cards,
    game_points,
    iter_cards,
    make_card,
    parse_card,
)
from pitch.engine.errors import (
    ActionParseError,
    CardParseError,
    IllegalActionError,
    PitchError,
    RecordError,
    RulesError,
)
from pitch.engine.legality import refusal
from pitch.engine.records import (
    Problem,
    dumps,
    game_record,
    iter_records,
    read_records,
    replay_record,
    verify_record,
    write_records,
)
from pitch.engine.refusals import Refusal
from pitch.engine.resample import resample
from pitch.engine.rules import PRESETS, Rules, preset
from pitch.engine.scoring import HandResult, score_hand
from pitch.engine.state import (
    BID,
    CHANCE,
    DEAL,
    OVER,
    PLAY,
    TERMINAL,
    GameState,
    HandRecord,
    LegalActions,
    Trick,
    deal_order,
)
from pitch.engine.views import PlayerView

__all__ = [
    "BID",
    "BID_BASE",
    "CHANCE",
    "DEAL",
    "FULL_DECK",
    "MAX_BID",
    "NUM_ACTIONS",
    "NUM_CARDS",
    "OVER",
    "PASS",
    "PLAY",
    "PRESETS",
    "RANKS",
    "SUITS",
    "SUIT_MASK",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "TERMINAL",
    "ActionParseError",
    "CardParseError",
    "CardSet",
    "GameState",
    "HandRecord",
    "HandResult",
    "IllegalActionError",
    "LegalActions",
    "PitchError",
    "PlayerView",
    "Problem",
    "RecordError",
    "Refusal",
    "Rules",
    "RulesError",
    "Trick",
    "action_str",
    "bid_action",
    "bid_value",
    "card_str",
    "cards_of",
    "deal_order",
    "dumps",
    "format_cards",
    "game_points",
    "game_record",
    "is_bid",
    "is_card",
    "iter_cards",
    "iter_records",
    "make_card",
    "parse_action",
    "parse_card",
    "preset",
    "read_records",
    "refusal",
    "replay_record",
    "resample",
    "score_hand",
    "verify_record",
    "write_records",
]
