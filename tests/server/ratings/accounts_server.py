"""``python -m tests.server.ratings.accounts_server serve ...``: ``pitch serve`` with a
seat-to-account map, as the accounts room will hand the ratings room one: seat ``i``
of every table is account ``100 + i``.

With ``PITCH_TEST_KILL_AT_RATING`` naming a file that does not exist yet, the first
time the ratings room asks (a rated game has just ended, its last card stored, and
its rating not yet written) the file is made and the process kills itself with
SIGKILL: the crash between the last card and the rating write, at that exact point.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pitch.server.wiring as wiring
from pitch.cli.main import main

ACCOUNT_BASE = 100


def _accounts(table_id: str) -> dict[int, int]:
    marker = os.environ.get("PITCH_TEST_KILL_AT_RATING")
    if marker and not Path(marker).exists():
        Path(marker).write_text(table_id)
        os.kill(os.getpid(), signal.SIGKILL)
    return {i: ACCOUNT_BASE + i for i in range(7)}


if __name__ == "__main__":
    wiring.seat_accounts = _accounts
    main()
