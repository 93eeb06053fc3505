"""The compiler switch: numba's ``njit`` when it is installed and enabled, else a no-op.

Every kernel in :mod:`pitch.fastcore` is written once, in the subset of Python that
numba compiles, and runs unchanged as plain Python when numba is missing or disabled
(``NUMBA_DISABLE_JIT=1``, or ``PITCH_NO_JIT=1`` for this package only). Only four
bit primitives have two bodies: a CPU instruction when compiled, ``int`` methods in
Python. Arrays are numpy ``int64`` arrays when compiled and plain lists otherwise, so
the pure-Python path needs neither numpy nor numba.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

M64: Final = 0xFFFFFFFFFFFFFFFF
"""Keeps the PRNG's Python ints to 64 bits; a no-op on numba's ``uint64``."""


def _numba_enabled() -> bool:
    if os.environ.get("PITCH_NO_JIT", "") not in ("", "0"):
        return False
    try:
        import numba
    except ImportError:
        return False
    return not getattr(numba.config, "DISABLE_JIT", False)


COMPILED: Final = _numba_enabled()
"""True when the kernels run as numba machine code."""


def _drop_stale_caches(here: Path = Path(__file__).parent) -> None:
    """numba's disk cache is keyed on each kernel's own source file, not on the
    helpers it inlines from other files (a change to :mod:`pitch.fastcore.policy`
    would leave the rollout loops of :mod:`pitch.fastcore.loops` playing the old
    policy), the :mod:`pitch.fastcore.layout` slot numbers nor the learned models'
    weights (:mod:`pitch.fastcore.bidmodel`, :mod:`pitch.fastcore.playmodel`) it
    compiles in as constants. So the cache
    remembers the sources, layout and weights it was built for, and is dropped when
    they differ (best effort: another process may be writing it)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return  # the user's own cache folder: theirs to manage
    from pitch.fastcore import bidmodel, layout, playmodel

    key = repr(sorted((k, v) for k, v in vars(layout).items() if k.isupper() and type(v) is int))
    key += " bids " + bidmodel.fingerprint(bidmodel.WEIGHTS)  # compiled in as constants
    key += " cards " + bidmodel.fingerprint(playmodel.WEIGHTS)
    sources = hashlib.sha256()
    for path in sorted(here.glob("*.py")):
        sources.update(path.name.encode() + b"\0" + path.read_bytes())
    key += " sources " + sources.hexdigest()
    folder = here / "__pycache__"
    stamp = folder / "layout.stamp"
    try:
        if stamp.read_text(encoding="utf-8") == key:
            return
    except OSError:
        pass
    try:
        folder.mkdir(exist_ok=True)
        for old in [*folder.glob("*.nbi"), *folder.glob("*.nbc")]:
            old.unlink(missing_ok=True)
        stamp.write_text(key, encoding="utf-8")
    except OSError:
        pass  # a read-only install: numba then cannot cache there either


if COMPILED:
    _drop_stale_caches()
    import numpy as np
    from llvmlite import ir
    from numba import njit as _numba_njit
    from numba import types
    from numba.core.extending import intrinsic

    # No kernel allocates: arrays come in from Python. Without numba's runtime
    # (``_nrt=False``) they are borrowed, so no reference is counted on them; with
    # it, every inlined helper taking the position costs an atomic increment and
    # decrement per call, per action (about a tenth of a hand's time).
    _FLAGS: Final[dict[str, Any]] = {"cache": True, "_nrt": False}

    def njit(fn: F) -> F:
        """A kernel helper: compiled with numba and inlined into its callers, which
        spares a call per action."""
        return cast(F, _numba_njit(inline="always", **_FLAGS)(fn))

    def entry(fn: F) -> F:
        """An entry point (called from Python, or once per hand): compiled with
        numba, cached on disk next to the module, not inlined, and free of the GIL
        so that threads run batches on all cores."""
        return cast(F, _numba_njit(nogil=True, **_FLAGS)(fn))

    @intrinsic
    def _ctpop_llvm(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return types.int64(types.int64), codegen

    @intrinsic
    def _cttz_llvm(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

        return types.int64(types.int64), codegen

    @intrinsic
    def _ctlz_llvm(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

        return types.int64(types.int64), codegen

    _ctpop: Any = _ctpop_llvm
    _cttz: Any = _cttz_llvm
    _ctlz: Any = _ctlz_llvm

    @entry
    def popcount(x: int) -> int:
        """Number of set bits of a mask."""
        return int(_ctpop(np.int64(x)))

    @entry
    def lowest(x: int) -> int:
        """Index of the lowest set bit of a non-zero mask."""
        return int(_cttz(np.int64(x)))

    @entry
    def highest(x: int) -> int:
        """Index of the highest set bit of a non-zero mask."""
        return 63 - int(_ctlz(np.int64(x)))

    @entry
    def below(z: int, m: int) -> int:
        """``m * z / 2**64`` for a 64-bit random ``z``: a draw in ``0..m-1``."""
        return int(np.int64(((z >> np.uint64(32)) * np.uint64(m)) >> np.uint64(32)))

    def seed64(seed: int) -> Any:
        """A PRNG state from any Python int."""
        return np.uint64(seed & M64)

    def new_array(values: list[int]) -> Any:
        return np.array(values, dtype=np.int64)

    def new_floats(size: int) -> Any:
        return np.zeros(size, dtype=np.float64)

    def constant_floats(values: tuple[float, ...]) -> Any:
        """A table of floats a kernel reads as a compile-time constant (numba freezes
        a global array into the machine code)."""
        out = np.array(values, dtype=np.float64)
        out.flags.writeable = False
        return out

    def zeros(size: int) -> Any:
        """``size`` zeros; for big outputs, where a list of ints first would cost
        a fifth as much time as the hands themselves."""
        return np.zeros(size, dtype=np.int64)

else:

    def njit(fn: F) -> F:
        """Numba is absent or disabled: the kernel stays a Python function."""
        fn.py_func = fn  # type: ignore[attr-defined]  # same attribute as a numba dispatcher
        return fn

    entry = njit

    def popcount(x: int) -> int:
        """Number of set bits of a mask."""
        return x.bit_count()

    def lowest(x: int) -> int:
        """Index of the lowest set bit of a non-zero mask."""
        return (x & -x).bit_length() - 1

    def highest(x: int) -> int:
        """Index of the highest set bit of a non-zero mask."""
        return x.bit_length() - 1

    def below(z: int, m: int) -> int:
        """``m * z / 2**64`` for a 64-bit random ``z``: a draw in ``0..m-1``."""
        return ((z >> 32) * m) >> 32

    def seed64(seed: int) -> Any:
        """A PRNG state from any Python int."""
        return seed & M64

    def new_array(values: list[int]) -> Any:
        return list(values)

    def new_floats(size: int) -> Any:
        return [0.0] * size

    def constant_floats(values: tuple[float, ...]) -> Any:
        """A table of floats a kernel reads (a tuple: it is never written)."""
        return tuple(values)

    def zeros(size: int) -> Any:
        """``size`` zeros."""
        return [0] * size
