"""A program started with everything it starts in turn, stopped as a whole.

The host side of ``ext:`` bots (:mod:`pitch.bots.external`) runs other people's
programs; one that starts helpers of its own must not leave them behind when it is
stopped or exits, nor keep the host waiting on a pipe a helper still holds open.
:class:`ProcessTree` starts a program (POSIX):

* in a session and process group of its own (``setsid``), so the group reaches all it
  starts that do not leave the group, whether the program is still running or not;
* with :data:`MARK` in its environment naming it, which its descendants inherit.

:meth:`ProcessTree.end` ends every process it finds: the group, and on Linux, from
``/proc``, the program's descendants (by parent, while the chain of parents lives),
the processes of any session one of them started with ``setsid``, every process whose
initial environment carries the mark (these are found after their parents exit), and
the descendants :meth:`ProcessTree.note` saw while the program ran. It sends SIGTERM,
allows ``grace`` seconds, then SIGKILL until none is left, and only then reaps the
program: its unreaped process keeps its pid, so its group and session ids cannot pass
to a stranger while they are signalled; a process seen in ``/proc`` is signalled
through a pidfd after checking its start time, so never another that took its pid.
:func:`end_all` does this for every program started here, a process's last act before
it dies, and misses none whose start it interrupts (it waits for the start to end).

Out of reach: elsewhere than Linux, a descendant that left the group; on Linux, one
that left the session and runs without the mark in its environment, once its parents
have exited (unless noted before); one running as another user or in another PID
namespace; whatever a program asks a service to start (``systemd-run``, ``docker
run``, ``at``). A process that keeps forking faster than it can be killed may outlast
the attempts (about five seconds of them). If the host itself is killed (SIGKILL),
nothing is stopped: a protocol bot ends when its input closes.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

MARK = "PITCH_EXT_BOT"
"""Environment variable naming the started program (``:``-separated marks when a
program is itself a host of such programs), inherited by what it starts."""

_HAS_PROC = os.path.exists("/proc/self/stat")
_POSIX = os.name == "posix"
_WAITID = _POSIX and hasattr(os, "waitid") and hasattr(os, "WNOWAIT")
_KILL_FOR = 5.0
"""Seconds of SIGKILL rounds at most, for processes that fork while being killed."""


class ProcessTree:
    """A program started in its own session, and all it starts; see the module doc."""

    def __init__(self, argv: Sequence[str], **popen: Any) -> None:
        """Start ``argv`` with :class:`subprocess.Popen` and the keyword arguments
        ``popen`` (not ``env`` nor ``start_new_session``)."""
        self.mark = secrets.token_hex(8)
        marks = os.environ.get(MARK)
        env = {**os.environ, MARK: f"{marks}:{self.mark}" if marks else self.mark}
        # Reentrant: a finalizer (ExternalBot.__del__) may run in a thread holding it.
        self._lock = threading.RLock()
        self._ended = False
        self._seen: dict[int, int] = {}
        """Descendants noted while it ran (:meth:`note`): pid -> start time."""
        with _starting():  # until registered, end_all would not know it runs
            self.popen: subprocess.Popen[str] = subprocess.Popen(
                list(argv), env=env, start_new_session=_POSIX, **popen
            )
            self.pid = self.popen.pid
            self._start = _start_time(self.pid)
            _TREES.add(self)

    @property
    def stdin(self) -> IO[str] | None:
        return self.popen.stdin

    @property
    def stdout(self) -> IO[str] | None:
        return self.popen.stdout

    def running(self) -> bool:
        """Whether the program's own process has not exited (without reaping it)."""
        if self.popen.returncode is not None:
            return False
        if not _WAITID:
            return self.popen.poll() is None
        try:
            return os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
        except ChildProcessError:
            return False  # reaped by end() in another thread

    def wait_exit(self) -> None:
        """Block until the program's own process has exited, leaving it unreaped (where
        the system allows: elsewhere it is reaped)."""
        if self.popen.returncode is not None:
            return
        if not _WAITID:
            self.popen.wait()
            return
        with contextlib.suppress(ChildProcessError):
            os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOWAIT)

    def note(self) -> None:
        """Remember the descendants found now, while the program runs, so that
        :meth:`end` finds them after their parents exit, even without the mark."""
        with self._lock:
            if not self._ended:
                self._seen.update(self._members(marks=False) or {})

    def end(self, grace: float) -> int | None:
        """Stop the program and everything found of what it started (SIGTERM, up to
        ``grace`` seconds, then SIGKILL), reap it and return its exit status (negative:
        the signal that ended it; None if it could not be reaped). Done once: a later
        call only returns the status."""
        with self._lock:
            if not self._ended:
                self._end(grace)
                self._ended = True
            return self.popen.returncode

    def _end(self, grace: float) -> None:
        found = self._members()
        if found is None or found:
            self._signal(signal.SIGTERM, found)
            deadline = time.monotonic() + grace
            while self._busy(found := self._members()) and time.monotonic() < deadline:
                time.sleep(0.02)
            deadline = time.monotonic() + _KILL_FOR
            while True:
                # The group too, even when nothing is seen: elsewhere /proc shows nothing.
                self._signal(_SIGKILL, found)
                time.sleep(0.01)
                if not self._busy(found := self._members()) or time.monotonic() > deadline:
                    break
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=5)

    def _busy(self, found: dict[int, int] | None) -> bool:
        return bool(found) if found is not None else self.running()

    def _signal(self, sig: int, members: dict[int, int] | None) -> None:
        if not _POSIX:
            if sig == signal.SIGTERM:
                self.popen.terminate()
            else:
                self.popen.kill()
            return
        # Unreaped, its pid, so its group's id, cannot be reused. Without waitid it is
        # reaped on exit: the group is signalled still, its id held by any member left.
        if self.popen.returncode is None or not _WAITID:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, sig)
        for pid, start in (members or {}).items():
            _kill(pid, start, sig)

    def _members(self, marks: bool = True) -> dict[int, int] | None:
        """The live processes of the tree (the program's own one included) and their
        start times, or None where /proc cannot tell; without ``marks`` those found only
        by their environment are left out (saving the reading)."""
        if not _HAS_PROC or self._start is None:
            return None
        table = _process_table()
        members = {
            pid
            for pid, start in {self.pid: self._start, **self._seen}.items()
            if pid in table and table[pid][2] and table[pid][3] == start
        }
        sessions = {self.pid}  # the program's session id is its pid (setsid)
        parents = {self.pid}
        needle = (MARK + "=").encode()
        for pid, (_, _, live, start) in table.items():
            # Descendants started after it: only theirs are worth reading.
            fresh = marks and live and start >= self._start and pid != self.pid
            if fresh and self.mark in _marks(pid, needle):
                members.add(pid)
        host_session = os.getsid(0)
        grown = True
        while grown:
            parents |= members
            # The sessions its descendants started (never the host's: a safeguard).
            sessions |= {table[p][1] for p in members} - {host_session}
            before = len(members)
            members |= {
                pid
                for pid, (ppid, sid, live, _) in table.items()
                if live and (ppid in parents or sid in sessions)
            }
            grown = len(members) > before
        members -= {1, os.getpid()}  # never: they do not descend from it
        return {pid: table[pid][3] for pid in members}


_SIGKILL: int = getattr(signal, "SIGKILL", signal.SIGTERM)
_TREES: weakref.WeakSet[ProcessTree] = weakref.WeakSet()


_STARTS: dict[int, int] = {}
"""Thread id -> programs that thread is starting (started perhaps, not yet in _TREES)."""
_AFTER_START: dict[int, list[Callable[[], None]]] = {}
"""Thread id -> end_all calls put off until that thread's start is registered."""


@contextlib.contextmanager
def _starting() -> Iterator[None]:
    me = threading.get_ident()
    _STARTS[me] = _STARTS.get(me, 0) + 1  # only this thread writes its own entry
    try:
        yield
    finally:
        if _STARTS[me] == 1:
            del _STARTS[me]
            for call in _AFTER_START.pop(me, []):
                call()
        else:
            _STARTS[me] -= 1


def end_all(grace: float, then: Callable[[], object] | None = None) -> None:
    """End every program started here that is not ended yet (see :meth:`ProcessTree.end`),
    then call ``then``, as a process that is about to die must: they run in sessions of
    their own, so the signal that ends it does not reach them.

    Called by a signal handler that interrupted this thread in the middle of starting a
    program (running perhaps, but not yet known here), it returns at once and all this
    happens as soon as that program is registered (or its start failed): so a handler
    that exits must do so in ``then``. Starts under way in other threads are waited for
    (a few seconds at most)."""
    me = threading.get_ident()
    if _STARTS.get(me):
        _AFTER_START.setdefault(me, []).append(lambda: end_all(grace, then))
        return
    deadline = time.monotonic() + _KILL_FOR
    while any(t != me for t in list(_STARTS)) and time.monotonic() < deadline:
        time.sleep(0.01)
    for tree in list(_TREES):
        tree.end(grace)
    if then is not None:
        then()


def _process_table() -> dict[int, tuple[int, int, bool, int]]:
    """pid -> (parent pid, session id, not a zombie, start time in clock ticks)."""
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        stat = _stat(int(name))
        if stat is not None:
            table[int(name)] = stat
    return table


def _stat(pid: int) -> tuple[int, int, bool, int] | None:
    text = _read(f"/proc/{pid}/stat")
    if text is None:
        return None  # exited meanwhile
    # The command name may hold anything, spaces and parentheses included: the fields
    # follow its last ")". They are: state ppid pgrp session ... starttime (the 20th).
    fields = text[text.rfind(b")") + 2 :].split()
    try:
        return int(fields[1]), int(fields[3]), fields[0] not in (b"Z", b"X"), int(fields[19])
    except (IndexError, ValueError):
        return None


def _kill(pid: int, start: int, sig: int) -> None:
    """Send ``sig`` to ``pid`` if it is still the process that started at ``start``
    (not another that got its pid since it was seen)."""
    try:
        fd = os.pidfd_open(pid)  # a handle that cannot pass to another process
    except ProcessLookupError:
        return
    except OSError:  # no pidfd (Linux before 5.3): a check just before the signal
        fd = -1
    try:
        stat = _stat(pid)
        if stat is None or stat[3] != start:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if fd >= 0:
                signal.pidfd_send_signal(fd, sig)
            else:
                os.kill(pid, sig)
    finally:
        if fd >= 0:
            os.close(fd)


def _start_time(pid: int) -> int | None:
    stat = _stat(pid) if _HAS_PROC else None
    return stat[3] if stat is not None else None


def _marks(pid: int, needle: bytes) -> list[str]:
    """The marks in the initial environment of ``pid`` (none if it cannot be read)."""
    env = _read(f"/proc/{pid}/environ")
    if env is None:
        return []  # another user's process, or gone
    for entry in env.split(b"\0"):
        if entry.startswith(needle):
            return entry[len(needle) :].decode("ascii", "replace").split(":")
    return []


def _read(path: str) -> bytes | None:
    """A /proc file's contents, or None if it cannot be read (plain system calls: the
    whole table is read each time, and Python's file objects would double its cost)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        chunks = []
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)
