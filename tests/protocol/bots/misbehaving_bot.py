"""A bot-protocol program that misbehaves on purpose (standard library only).

    python misbehaving_bot.py MODE [N]

It plays the first legal action for its first N decisions (default 0), then:
crash (exits with status 3), garbage (prints a line that is not JSON), silent (never
answers again, and stops reading), illegal (answers an action that is never legal
there), shape (valid JSON of the wrong shape), chatty (a debug line before each answer).
"""

import json
import sys
import time


def say(obj: object) -> None:
    sys.stdout.write((obj if isinstance(obj, str) else json.dumps(obj)) + "\n")
    sys.stdout.flush()


def main() -> None:
    mode = sys.argv[1]
    good = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    acts = 0
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] != "act":
            continue
        acts += 1
        legal = msg["legal"]
        if acts <= good:
            say({"action": legal[0]})
        elif mode == "crash":
            sys.exit(3)
        elif mode == "garbage":
            say("I think I will play the ace")
        elif mode == "silent":
            time.sleep(3600)
        elif mode == "illegal":
            # A card is never legal in the auction, nor a bid in the play.
            say({"action": "2c" if "pass" in legal or legal[0].startswith("bid") else "bid 4"})
        elif mode == "shape":
            say({"move": legal[0]})
        elif mode == "chatty":
            # One write: on a loaded machine two flushes let the host read the debug
            # line and ask again before the answer came (no stale line to drop: a flake).
            say("debug: thinking\n" + json.dumps({"action": legal[0]}))
        else:
            sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
