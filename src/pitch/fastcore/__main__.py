"""``python -m pitch.fastcore``: compile the kernels now (or load them from the cache).

``scripts/setup.sh`` runs it after installing, so that the first bot move of a game
does not wait for the compiler; it prints how long it took.
"""

from __future__ import annotations

from pitch import fastcore


def main() -> None:
    if not fastcore.COMPILED:
        print("pitch.fastcore: numba is not installed or is disabled; kernels run as Python")
        return
    took = fastcore.warm_up()
    print(f"pitch.fastcore: kernels compiled or loaded from the cache in {took:.1f} s")


if __name__ == "__main__":
    main()
