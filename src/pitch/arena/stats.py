"""Interval estimates for the arena: ratio means over clustered samples, Wilson.

Points per hand are a ratio: points summed over a deal's games divided by the
hands they took. Deals are independent; the hands inside one deal are not
(duplicate games share their shuffles). So the arena treats each deal as one
cluster and uses the ratio estimator with its linearized (delta-method)
variance, the textbook estimator for cluster samples (Cochran, *Sampling
Techniques*, 6.9):

    R = sum(x) / sum(n),   var(R) = sum((x - R n)^2) / (m (m - 1) nbar^2)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist


def z_value(confidence: float = 0.95) -> float:
    """Two-sided normal quantile: 1.959963... for 0.95."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float | None]:
        # JSON has no infinities: an interval that one deal cannot bound is null.
        return {
            "estimate": self.estimate,
            "low": self.low if math.isfinite(self.low) else None,
            "high": self.high if math.isfinite(self.high) else None,
        }

    def __str__(self) -> str:
        if not (math.isfinite(self.low) and math.isfinite(self.high)):
            return f"{self.estimate:+.3f} (no interval from fewer than 2 deals)"
        return f"{self.estimate:+.3f} [{self.low:+.3f}, {self.high:+.3f}]"


def z_score(iv: Interval, confidence: float = 0.95) -> float:
    """The estimate over its standard error, read back from a normal interval made at
    ``confidence`` (how many standard errors the estimate lies from zero).

    >>> round(z_score(Interval(1.0, 1.0 - 1.959964, 1.0 + 1.959964)), 4)
    1.0
    """
    se = (iv.high - iv.low) / (2 * z_value(confidence))
    if not se > 0:
        return math.nan
    return iv.estimate / se


def two_sided_p(z: float) -> float:
    """Two-sided normal p-value of a z score: 0.05 at 1.96.

    >>> round(two_sided_p(1.959964), 4)
    0.05
    """
    return math.erfc(abs(z) / math.sqrt(2))


def ratio_interval(
    totals: Sequence[float], sizes: Sequence[float], confidence: float = 0.95
) -> Interval:
    """Ratio ``sum(totals) / sum(sizes)`` with a cluster-robust normal interval.

    >>> ratio_interval([2, 4], [1, 2])
    Interval(estimate=2.0, low=2.0, high=2.0)
    >>> r = ratio_interval([1, -1, 3, 1], [1, 1, 1, 1])
    >>> round(r.estimate, 3), round(r.low, 3), round(r.high, 3)
    (1.0, -0.6, 2.6)
    """
    if len(totals) != len(sizes):
        raise ValueError("totals and sizes must have the same length")
    m = len(totals)
    n_sum = float(sum(sizes))
    if m == 0 or n_sum <= 0:
        return Interval(math.nan, math.nan, math.nan)
    r = sum(totals) / n_sum
    if m < 2:
        return Interval(r, -math.inf, math.inf)
    nbar = n_sum / m
    ss = sum((x - r * n) ** 2 for x, n in zip(totals, sizes, strict=True))
    se = math.sqrt(ss / (m * (m - 1))) / nbar
    z = z_value(confidence)
    return Interval(r, r - z * se, r + z * se)


def ratio_difference_interval(
    first: tuple[Sequence[float], Sequence[float]],
    second: tuple[Sequence[float], Sequence[float]],
    confidence: float = 0.95,
) -> Interval:
    """``R1 - R2`` for two ratios (``(totals, sizes)`` each) measured on the same
    clusters (element ``i`` of both is cluster ``i``), with the paired linearized
    variance: two runs of the arena on the same deals, compared deal by deal.

    >>> r = ratio_difference_interval(([1, 2, 3], [1, 1, 1]), ([0, 1, 2], [1, 1, 1]))
    >>> round(r.estimate, 3), round(r.low, 3), round(r.high, 3)
    (1.0, 1.0, 1.0)
    """
    (t1, n1), (t2, n2) = first, second
    m = len(t1)
    if not (len(n1) == len(t2) == len(n2) == m):
        raise ValueError("both runs need the same clusters")
    s1, s2 = float(sum(n1)), float(sum(n2))
    if m == 0 or s1 <= 0 or s2 <= 0:
        return Interval(math.nan, math.nan, math.nan)
    r1, r2 = sum(t1) / s1, sum(t2) / s2
    if m < 2:
        return Interval(r1 - r2, -math.inf, math.inf)
    b1, b2 = s1 / m, s2 / m
    z = [
        (x1 - r1 * k1) / b1 - (x2 - r2 * k2) / b2
        for x1, k1, x2, k2 in zip(t1, n1, t2, n2, strict=True)
    ]
    se = math.sqrt(sum(v * v for v in z) / (m * (m - 1)))
    q = z_value(confidence)
    return Interval(r1 - r2, r1 - r2 - q * se, r1 - r2 + q * se)


def wilson_interval(successes: float, trials: float, confidence: float = 0.95) -> Interval:
    """Wilson score interval for a proportion (good near 0 and 1, unlike Wald).

    >>> w = wilson_interval(50, 100)
    >>> round(w.low, 4), round(w.high, 4)
    (0.4038, 0.5962)
    >>> wilson_interval(0, 0).estimate != wilson_interval(0, 0).estimate  # nan
    True
    """
    if trials <= 0:
        return Interval(math.nan, math.nan, math.nan)
    z = z_value(confidence)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return Interval(p, low, high)
