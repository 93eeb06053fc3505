"""The compiled kernels' disk cache is dropped when any kernel source changes.

numba keys a cached kernel on its own file only, so a change to a helper it inlines
from another file (the heuristic policy inlined into the rollout loops) would leave
the old machine code running; ``_drop_stale_caches`` keys the whole folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pitch.fastcore import _jit


def _cached(folder: Path) -> set[str]:
    return {p.name for p in (folder / "__pycache__").glob("*.nb[ic]")}


def _compile(folder: Path) -> None:
    """Stand in for numba writing its cache files."""
    (folder / "__pycache__" / "loops.run-1.py311.nbi").write_bytes(b"index")
    (folder / "__pycache__" / "loops.run-1.py311.1.nbc").write_bytes(b"code")


def test_cache_kept_while_sources_are_unchanged_and_dropped_when_one_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    (tmp_path / "loops.py").write_text("from policy import choose\n")
    (tmp_path / "policy.py").write_text("MARGIN = 0.1\n")
    _jit._drop_stale_caches(tmp_path)  # first run: writes the stamp
    _compile(tmp_path)
    _jit._drop_stale_caches(tmp_path)
    assert _cached(tmp_path) == {"loops.run-1.py311.nbi", "loops.run-1.py311.1.nbc"}
    # The kernel's own file is unchanged; only the helper it inlines is.
    (tmp_path / "policy.py").write_text("MARGIN = -0.2\n")
    _jit._drop_stale_caches(tmp_path)
    assert _cached(tmp_path) == set()
    _compile(tmp_path)
    _jit._drop_stale_caches(tmp_path)
    assert len(_cached(tmp_path)) == 2


def test_a_users_own_cache_folder_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    (tmp_path / "policy.py").write_text("MARGIN = 0.1\n")
    _jit._drop_stale_caches(tmp_path)
    _compile(tmp_path)
    (tmp_path / "policy.py").write_text("MARGIN = -0.2\n")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere"))
    _jit._drop_stale_caches(tmp_path)
    assert len(_cached(tmp_path)) == 2
