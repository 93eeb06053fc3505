"""``ext:COMMAND ARGS``: any program that speaks the bot protocol, as a :class:`Bot`.

The host half of ``docs/bot-protocol.md``. The process is started on the first
decision (or by :meth:`ExternalBot.warm_up`) and kept for later games. Before each
decision the bot is sent the events since its last message (derived from the view, see
:mod:`pitch.bots.protocol.events`), then ``act``; it has ``time`` seconds plus ``grace``
to answer (a fresh process also gets ``startup`` seconds to start, unless it has said
it is ready).

A decision the program does not make properly is forfeited: the host plays a random
legal action (from this bot's own ``rng``), records a :class:`Forfeit` in
:attr:`ExternalBot.forfeits` and logs a warning. Nothing it does stalls the host:

* garbage, a malformed or an illegal answer forfeits that decision only;
* silence past the limit, or an exit, forfeits it too, and the process is stopped;
  at the next decision a fresh one is started and told the game so far (a ``game``
  message, then every event), at most ``restarts`` times per game, after which the
  rest of the game is forfeited. The next game starts a fresh process again.

The program runs in a session of its own (:class:`~pitch.bots.process_tree.ProcessTree`):
whenever it is stopped, or exits, what it started is stopped with it, and its exit ends
the wait for its answer even if a child still holds its stdout open.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import queue
import random
import shlex
import subprocess
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any, ClassVar

from pitch.bots.base import Bot, pick_from_mask
from pitch.bots.process_tree import ProcessTree
from pitch.bots.protocol.events import Event, GameEvents, act_message, end_message
from pitch.engine import ActionParseError, PlayerView, action_str, parse_action

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Forfeit:
    """A decision the program did not make; ``fallback`` was played instead."""

    game: int
    """Games this bot had started before (0 for its first)."""
    hand: int
    """0-based hand of the game."""
    reason: str
    fallback: str


STOP_GRACE = 0.5
"""Seconds a program and what it started have to end after SIGTERM, before SIGKILL."""


class _Process:
    """A running bot program (a :class:`ProcessTree`: it and all it starts): a writer
    thread feeds its stdin, a reader thread collects its stdout lines and a watcher
    notices its exit, so the host never blocks on a pipe."""

    def __init__(self, argv: Sequence[str], stderr: IO[str] | None) -> None:
        self.tree = ProcessTree(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        """Its output lines; None once its output is over (see :meth:`_watch`)."""
        self.exited = threading.Event()
        """Its own process has exited (what it started may still run)."""
        self._eof = threading.Event()
        self._outbox: queue.Queue[str | None] = queue.Queue()
        self.answered = False
        self.hello = False
        """It was sent ``hello``, and its ``{"ready": true}`` is awaited."""
        self.ready = threading.Event()
        """It answered ``hello``: it is warmed up."""
        for target in (self._read, self._write, self._watch):
            threading.Thread(target=target, daemon=True).start()

    def _read(self) -> None:
        out = self.tree.stdout
        assert out is not None
        try:
            for line in out:
                if self.hello and not self.ready.is_set() and _is_ready(line):
                    self.ready.set()  # the answer to hello, not to an act
                    continue
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self._eof.set()
        self.lines.put(None)  # end of output: the program exited or closed stdout

    def _write(self) -> None:
        inp = self.tree.stdin
        assert inp is not None
        try:
            while (text := self._outbox.get()) is not None:
                inp.write(text)
                inp.flush()
            inp.close()
        except (OSError, ValueError):
            pass  # the program is gone; the reader sees the end of its output

    def _watch(self) -> None:
        """On the program's exit, stop what it left running, and end its output even
        if something out of reach still holds its stdout open: the host waits for the
        program, not for its pipe."""
        self.tree.wait_exit()
        self.exited.set()
        self.tree.end(STOP_GRACE)
        # Lines it wrote before exiting come first, as the pipe normally ends now.
        self._eof.wait(timeout=1.0)
        self.lines.put(None)

    def send(self, messages: Sequence[Event]) -> None:
        if messages:
            self._outbox.put("".join(json.dumps(m, separators=(",", ":")) + "\n" for m in messages))

    def gone(self) -> str:
        """Why its output ended: an exit status, or stopped if it lingers."""
        if self.exited.wait(timeout=1.0):
            return f"the program exited (status {self.tree.end(STOP_GRACE)})"
        self.kill()
        return "the program closed its output; it was stopped"

    def alive(self) -> bool:
        return not self.exited.is_set() and self.tree.running()

    def close(self, wait: float) -> None:
        """Close its input (a protocol bot then exits), wait a little, then stop it and
        all it started."""
        self.tree.note()  # while it runs: its descendants can be traced from it
        self._outbox.put(None)
        self.exited.wait(timeout=wait)
        self.kill()

    def kill(self) -> None:
        """Stop it and all it started: SIGTERM, :data:`STOP_GRACE`, then SIGKILL."""
        self.tree.end(STOP_GRACE)


_LIVE: weakref.WeakSet[ExternalBot] = weakref.WeakSet()


@atexit.register
def _kill_all() -> None:
    for bot in list(_LIVE):
        bot.close(wait=0.2)


class ExternalBot(Bot):
    """A bot played by another program over the bot protocol.

    ``command`` is the command line (a string, split like a shell does, or a list).
    ``time`` is the seconds per decision sent in each ``act`` (default: the
    ``PITCH_EXT_TIME`` environment variable, else 1); ``grace`` the extra
    seconds allowed before the decision is forfeited; ``startup`` extra seconds for a
    freshly started program's first answer; ``restarts`` how many times per game a
    program that crashed or went silent is started again; ``names`` the player names
    sent in the ``game`` message; ``stderr`` where the program's stderr goes (default:
    this process's stderr)."""

    name: ClassVar[str] = "ext"
    level: ClassVar[str] = "external"

    def __init__(
        self,
        *,
        rng: random.Random | None = None,
        command: str | Sequence[str],
        time: float | None = None,
        grace: float = 0.5,
        startup: float = 10.0,
        restarts: int = 2,
        names: Sequence[str] | None = None,
        stderr: IO[str] | None = None,
    ) -> None:
        super().__init__(rng=rng)
        if time is None:
            time = default_time()
        try:
            argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        except ValueError as e:
            raise ValueError(f"ext: bad command line {command!r}: {e}") from None
        if not argv:
            raise ValueError("ext: the command line is empty")
        for label, value in (("time", time), ("grace", grace), ("startup", startup)):
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise ValueError(f"ext: {label} must be a number of seconds >= 0, not {value!r}")
        if isinstance(restarts, bool) or not isinstance(restarts, int) or restarts < 0:
            raise ValueError(f"ext: restarts must be a whole number >= 0, not {restarts!r}")
        self.argv = argv
        self.time = float(time)
        self.grace = float(grace)
        self.startup = float(startup)
        self.restarts = restarts
        self.names = list(names) if names is not None else None
        self.stderr = stderr
        self.forfeits: list[Forfeit] = []
        self.decisions = 0
        """Decisions asked of this bot (forfeited ones included)."""
        self.games = 0
        self._proc: _Process | None = None
        self._game: GameEvents | None = None
        self._sent = 0
        """Events of the current game the running process has been sent."""
        self._failures = 0
        """Processes that crashed, went silent or would not start, this game."""
        _LIVE.add(self)

    def describe(self) -> str:
        return "ext:" + shlex.join(self.argv)

    # ------------------------------------------------------------------ game

    def _follow(self, view: PlayerView) -> list[Event]:
        """The game's events up to ``view``, starting a new game when it is one."""
        if self._game is not None and not self._game.continues(view):
            self._end_game(None)  # a new game began without game_over for the last
        if self._game is None:
            self._game = GameEvents(view, self.names)
            self._sent = 0
            self._failures = 0
        return self._game.update(view)

    def _end_game(self, winner: int | None) -> None:
        if self._proc is not None and self._sent:
            self._proc.send([end_message(winner)])
        self._game = None
        self._sent = 0
        self.games += 1

    def warm_up(self) -> None:
        """Start the program now (if it is not running) and wait, up to ``startup``
        seconds, until it says it is ready (``hello``, answered ``{"ready": true}``
        once it has loaded what it needs): its first decision is then held to ``time``
        plus ``grace`` alone. A program that does not know ``hello`` ignores it; this
        then waits the whole ``startup`` and its first decision keeps the allowance."""
        proc, _ = self._running()
        if proc is None or proc.answered or proc.hello:
            return
        proc.hello = True
        proc.send([{"type": "hello"}])
        proc.ready.wait(self.startup)

    @property
    def ready(self) -> bool:
        """The running program has said it is ready (see :meth:`warm_up`)."""
        return self._proc is not None and self._proc.ready.is_set()

    def act(self, view: PlayerView) -> int:
        events = self._follow(view)
        self.decisions += 1
        proc, why = self._running()
        if proc is None:
            return self._forfeit(view, why)
        stale = _drain(proc)  # lines nobody asked for must not answer this act
        if stale:
            log.warning("%s: ignored %d unrequested output line(s)", self.describe(), stale)
        proc.send([*events[self._sent :], act_message(view, self.time)])
        self._sent = len(events)
        fresh = not (proc.answered or proc.ready.is_set())
        limit = self.time + self.grace + (self.startup if fresh else 0.0)
        try:
            line = proc.lines.get(timeout=limit)
        except queue.Empty:
            proc.kill()
            return self._forfeit(view, f"no answer within {limit:g} s; the program was stopped")
        if line is None:
            return self._forfeit(view, proc.gone())
        proc.answered = True
        action, problem = _parse_answer(line, view.legal)
        if action is None:
            return self._forfeit(view, problem)
        return action

    def _running(self) -> tuple[_Process | None, str]:
        """The live process, started (and told the game so far) if need be."""
        p = self._proc
        if p is not None:
            if p.alive():
                return p, ""
            p.kill()
            self._proc = None
            self._failures += 1
        if self._failures > self.restarts:
            return None, (
                f"the program failed {self._failures} times this game; "
                "not started again before the next game"
            )
        self._sent = 0
        try:
            self._proc = _Process(self.argv, self.stderr)
        except OSError as e:
            self._failures += 1
            return None, f"cannot start {self.argv[0]!r}: {e.strerror or e}"
        return self._proc, ""

    def _forfeit(self, view: PlayerView, reason: str) -> int:
        action = pick_from_mask(view.legal, self.rng)
        hand = len(view.history)
        f = Forfeit(self.games, hand, reason, action_str(action))
        self.forfeits.append(f)
        log.warning(
            "%s (seat %d, game %d, hand %d) forfeits a decision: %s; played %s at random",
            self.describe(),
            view.seat,
            f.game,
            hand,
            reason,
            f.fallback,
        )
        return action

    def game_over(self, view: PlayerView) -> None:
        events = self._follow(view)
        if self._proc is not None and self._proc.alive() and self._sent:
            self._proc.send(events[self._sent :])
            self._sent = len(events)
        self._end_game(view.winner)

    # ------------------------------------------------------------- clean-up

    def close(self, wait: float = 1.0) -> None:
        """Close the program's input and stop it (killed if it has not exited within
        ``wait`` seconds)."""
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.close(wait)

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        # At interpreter shutdown anything may be gone already.
        with contextlib.suppress(Exception):
            self.close(wait=0.2)


def _drain(proc: _Process) -> int:
    n = 0
    while True:
        try:
            line = proc.lines.get_nowait()
        except queue.Empty:
            return n
        if line is None:  # keep the end-of-output mark for the answer wait
            proc.lines.put(None)
            return n
        n += 1


def _is_ready(line: str) -> bool:
    """``line`` is a bot's ``{"ready": true}``."""
    if len(line) > 100 or "ready" not in line:
        return False
    try:
        msg = json.loads(line)
    except json.JSONDecodeError:
        return False
    return isinstance(msg, dict) and msg.get("ready") is True


def _parse_answer(line: str, legal: int) -> tuple[int | None, str]:
    text = line.strip()
    shown = text if len(text) <= 80 else text[:77] + "..."
    try:
        msg: Any = json.loads(text)
    except json.JSONDecodeError:
        return None, f"the answer is not JSON: {shown!r}"
    if not isinstance(msg, dict) or not isinstance(msg.get("action"), str):
        return None, f'the answer is not {{"action": TEXT}}: {shown!r}'
    try:
        action = parse_action(msg["action"])
    except ActionParseError as e:
        return None, f"the answer is not an action: {e}"
    if not legal >> action & 1:
        return None, f"the answer {msg['action']!r} is not legal here"
    return action, ""


def default_time() -> float:
    """Seconds per decision when ``ext:`` is given no ``time``: ``PITCH_EXT_TIME`` or 1."""
    try:
        return float(os.environ.get("PITCH_EXT_TIME", "1.0"))
    except ValueError:
        return 1.0
