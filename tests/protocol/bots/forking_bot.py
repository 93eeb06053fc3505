"""A bot-protocol program that leaves a child behind (standard library only).

    python forking_bot.py PIDS KIND [CRASH]

On start it starts a child that sleeps for ten minutes, then plays the first legal
action of every ``act``. KIND is how the child gets away:

* session: the child calls ``setsid`` (its own session and process group, as a daemon
  does) and lets go of the bot's stdin and stdout;
* holder: the child stays in the bot's process group and inherits its stdout, holding
  it open after the bot exits;
* hidden: as session, and the child also runs with an empty environment.

Both pids are written, as empty files named by the pid, into the folder PIDS. With
CRASH, the bot exits with status 3 at its CRASH-th ``act``, leaving the child running.
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

CHILD_SECONDS = 600


def start_child(kind: str) -> int:
    sleeper = [sys.executable, "-c", f"import time; time.sleep({CHILD_SECONDS})"]
    if kind == "holder":
        return subprocess.Popen(sleeper, stdin=subprocess.DEVNULL).pid
    pid = os.fork()
    if pid:
        return pid
    os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    if kind == "hidden":
        os.execve(sys.executable, sleeper, {})
    time.sleep(CHILD_SECONDS)
    os._exit(0)


def main() -> None:
    pids, kind = Path(sys.argv[1]), sys.argv[2]
    crash = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    child = start_child(kind)
    for pid in (os.getpid(), child):
        (pids / str(pid)).touch()
    acts = 0
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] != "act":
            continue
        acts += 1
        if acts == crash:
            sys.exit(3)
        sys.stdout.write(json.dumps({"action": msg["legal"][0]}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
