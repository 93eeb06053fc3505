from __future__ import annotations

import math

import pytest

from pitch.arena.stats import ratio_interval, wilson_interval, z_value


def test_z() -> None:
    assert z_value(0.95) == pytest.approx(1.959964, abs=1e-6)


def test_ratio_interval_known_values() -> None:
    # Equal cluster sizes: the ratio interval is the t-free mean interval,
    # mean 2.5, sample sd sqrt(5/3), se = sd / 2.
    r = ratio_interval([1, 2, 3, 4], [1, 1, 1, 1])
    se = math.sqrt(5 / 3) / 2
    assert r.estimate == pytest.approx(2.5)
    assert r.low == pytest.approx(2.5 - 1.959964 * se, abs=1e-5)
    assert r.high == pytest.approx(2.5 + 1.959964 * se, abs=1e-5)


def test_ratio_interval_weights_by_cluster_size() -> None:
    # 10 points over 5 hands and 0 over 5: 1 point per hand, not the mean of 2 and 0.
    r = ratio_interval([10, 0], [5, 5])
    assert r.estimate == 1.0
    r = ratio_interval([10, 0], [5, 15])
    assert r.estimate == 0.5


def test_ratio_interval_degenerate() -> None:
    assert math.isnan(ratio_interval([], []).estimate)
    one = ratio_interval([3], [2])
    assert one.estimate == 1.5 and one.low == -math.inf
    with pytest.raises(ValueError):
        ratio_interval([1], [1, 2])


def test_wilson_known_values() -> None:
    # Reference values (Wilson 1927; e.g. statsmodels proportion_confint method="wilson").
    w = wilson_interval(8, 10)
    assert (round(w.low, 4), round(w.high, 4)) == (0.4902, 0.9433)
    w = wilson_interval(0, 20)
    assert w.low == 0.0 and round(w.high, 4) == 0.1611
    w = wilson_interval(20, 20)
    assert w.high == 1.0 and round(w.low, 4) == 0.8389
