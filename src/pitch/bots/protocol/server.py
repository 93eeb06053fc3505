"""Bot side: the read-act-answer loop of a protocol bot (``pitch bot LEVEL``).

It reads one JSON object per line, keeps a :class:`ViewTracker` per game, and answers
each ``act`` with ``{"action": ...}`` chosen by an in-process :class:`~pitch.bots.Bot`.
A message it cannot use gets one clear line on stderr and is skipped; it never stops
answering. Once a game is out of step with the host (a message that contradicts the
rules), it answers that game's remaining ``act`` messages with a random legal action
from the host's list, and starts afresh at the next ``game``.

The bot is warmed up (:meth:`~pitch.bots.Bot.warm_up`) before the first message is
read, so that no decision pays for loading it; a host that sends ``hello`` is answered
``{"ready": true}`` to say so. Each decision stops by the ``time`` of its ``act``
(counted from when the message was read) less :data:`ANSWER_RESERVE`, and by the bot's
own time cap counted from the same moment.
"""

from __future__ import annotations

import json
import math
import time
import traceback
from typing import Any, TextIO

from pitch.bots.base import Bot
from pitch.bots.protocol.tracker import ProtocolError, ViewTracker
from pitch.engine import action_str

EVENT_TYPES = frozenset({"deal", "bid", "play", "trick", "hand"})
ANSWER_RESERVE = 0.1
"""Seconds of an ``act``'s time kept to answer: what follows the search (reading its
figures, writing the line) and a moment of a busy machine's scheduling."""
_OUT_OF_STEP = "out of step with the host: answering at random until the next game"


class _Session:
    def __init__(self, bot: Bot, out: TextIO, err: TextIO) -> None:
        self.bot = bot
        self.out = out
        self.err = err
        self.tracker: ViewTracker | None = None
        self.in_step = False
        """Whether the current game is followed without contradiction."""
        self.problems = 0

    def complain(self, lineno: int, text: str) -> None:
        self.problems += 1
        self.err.write(f"pitch bot: line {lineno}: {text}\n")
        self.err.flush()

    def answer(self, action: str | None) -> None:
        self.out.write(json.dumps({"action": action}) + "\n")
        self.out.flush()

    def handle(self, lineno: int, msg: dict[str, Any], since: float | None = None) -> None:
        """Follow or answer one message, read at ``since`` (``time.perf_counter()``)."""
        kind = msg.get("type")
        if kind == "act":
            self.act(lineno, msg, since)
        elif kind == "hello":
            # Read only after the warm-up (see serve): the host may count the time of
            # every decision from now on.
            self.out.write(json.dumps({"ready": True}) + "\n")
            self.out.flush()
        elif kind == "game":
            self.tracker = None
            self.tracker = ViewTracker.from_message(msg)
            self.in_step = True
        elif kind == "end":
            tracker, self.tracker = self.tracker, None
            if tracker is not None and self.in_step and tracker.state is not None:
                self.bot.game_over(tracker.view())
        elif kind not in EVENT_TYPES:
            # Skipped, not fatal: a newer host may send more kinds of message.
            raise ProtocolError(f"unknown message type {kind!r}, skipped")
        elif self.tracker is None:
            raise ProtocolError(f"{kind!r} message outside a game (no 'game' message yet)")
        elif self.in_step:
            try:
                self.tracker.apply(msg)
            except ProtocolError as e:
                self.in_step = False
                raise ProtocolError(f"{e}; {_OUT_OF_STEP}") from None

    def act(self, lineno: int, msg: dict[str, Any], since: float | None = None) -> None:
        since = time.perf_counter() if since is None else since
        limit = msg.get("time")
        by = None
        if isinstance(limit, int | float) and not isinstance(limit, bool) and math.isfinite(limit):
            by = since + max(0.0, limit) - ANSWER_RESERVE
        legal = msg.get("legal")
        if not (isinstance(legal, list) and legal and all(isinstance(x, str) for x in legal)):
            self.answer(None)
            raise ProtocolError("'act' message: 'legal' must be a non-empty list of actions")
        if self.tracker is not None and self.in_step:
            try:
                view = self.tracker.view(legal)
                action = self.bot.decide(view, since=since, by=by).action
                if view.legal >> action & 1:
                    self.answer(action_str(action))
                    return
                self.complain(lineno, f"the bot chose an illegal action {action!r}")
            except ProtocolError as e:
                self.in_step = False
                self.complain(lineno, f"{e}; {_OUT_OF_STEP}")
            except Exception:
                self.complain(lineno, "the bot failed:\n" + traceback.format_exc().rstrip())
        elif self.tracker is None:
            self.complain(lineno, "'act' outside a game; answering at random")
        self.answer(self.bot.rng.choice(legal))


def serve(bot: Bot, inp: TextIO, out: TextIO, err: TextIO) -> int:
    """Play ``bot`` over the protocol until ``inp`` ends, once it is warmed up. Returns
    how many messages could not be used (each reported on ``err``)."""
    # Before the host's first message, never inside a decision: a fresh process beside
    # two busy ones took 1.8 s of a 1 s decision loading the compiled search.
    bot.warm_up()
    session = _Session(bot, out, err)
    for lineno, line in enumerate(iter(inp.readline, ""), 1):
        since = time.perf_counter()
        text = line.strip()
        if not text:
            continue
        try:
            msg = json.loads(text)
        except json.JSONDecodeError as e:
            session.complain(lineno, f"not JSON ({e.msg}): {text[:80]!r}")
            continue
        if not isinstance(msg, dict):
            session.complain(lineno, f"expected a JSON object, got {text[:80]!r}")
            continue
        try:
            session.handle(lineno, msg, since)
        except ProtocolError as e:
            session.complain(lineno, str(e))
    return session.problems
