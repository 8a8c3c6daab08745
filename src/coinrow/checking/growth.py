"""Fitting how a solver's time grows with n, and naming the class.

Times are the child's CPU time per call (not wall time, so other processes on a busy
machine do not count), the least of several batches of calls (a batch lasts at least 5 ms,
so the timer's resolution does not matter; the least drops the batches slowed by the
scheduler, caches or a frequency change), with garbage collection off while timing.

The fit: least squares of log t on log n over the largest sizes measured (where the
constant cost of a call no longer dominates), with a 95 % band from Student's t. A slope
of about 1 is told apart from n log n by a second fit, of log(t / n) on log log n (about
1 for n log n, about 0 for n). A jump of more than 2^5 for one doubling at small n switches
to sizes n, n + 2, n + 4, ... and a fit of log t on n: exponential time, about b^n.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: Student's t quantile (97.5 %) by degrees of freedom (2-sided 95 % band).
T_975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306}

#: The growth classes, from slowest to fastest growing.
GROWTHS = ("O(1)", "O(n)", "O(n log n)", "O(n^2)", "O(n^3)", "O(n^4) or worse", "exponential")


@dataclass(frozen=True)
class Fit:
    """A least-squares line ``y = intercept + slope * x`` with a 95 % band on the slope."""

    slope: float
    intercept: float
    low: float
    high: float


def fit_line(xs: Sequence[float], ys: Sequence[float]) -> Fit:
    """Least squares with a 95 % band on the slope (O(k) for k points).

    >>> f = fit_line([0, 1, 2, 3], [1, 3, 5, 7])
    >>> round(f.slope, 6), round(f.low, 6), round(f.high, 6)
    (2.0, 2.0, 2.0)
    """
    k = len(xs)
    mean_x, mean_y = sum(xs) / k, sum(ys) / k
    sxx = sum((x - mean_x) ** 2 for x in xs)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / sxx
    intercept = mean_y - slope * mean_x
    if k < 3:
        return Fit(slope, intercept, -math.inf, math.inf)
    residual = sum((y - intercept - slope * x) ** 2 for x, y in zip(xs, ys, strict=True))
    error = math.sqrt(residual / (k - 2) / sxx)
    half = T_975.get(k - 2, 2.0) * error
    return Fit(slope, intercept, slope - half, slope + half)


@dataclass
class Growth:
    """The measured growth: the class's name, the fitted slope and its band (the exponent of
    n, or for ``"exponential"`` the base b of b^n), the points ``(n, seconds)``, and the
    call counts ``(n, calls)`` when counted."""

    growth: str
    slope: float
    low: float
    high: float
    points: list[tuple[int, float]] = field(default_factory=list)
    note: str = ""
    calls: list[tuple[int, int]] = field(default_factory=list)
    calls_note: str = ""
    recursive: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(points))."""
        return {
            "growth": self.growth,
            "slope": _round(self.slope),
            "low": _round(self.low),
            "high": _round(self.high),
            "points": [[n, seconds] for n, seconds in self.points],
            "note": self.note,
            "calls": [[n, calls] for n, calls in self.calls],
            "calls_note": self.calls_note,
            "recursive": self.recursive,
        }

    def text(self) -> str:
        """One line: ``O(n^2): time ~ n^2.03 (95 % band 1.95 to 2.11)`` (O(1))."""
        if self.growth == "exponential" and not math.isfinite(self.slope):
            return "exponential (too few sizes within the budget to fit its base)"
        if self.growth == "exponential":
            return (
                f"exponential: time ~ {self.slope:.2f}^n "
                f"(95 % band {self.low:.2f} to {self.high:.2f})"
            )
        if self.growth in ("unknown", "not measured"):
            return f"{self.growth}: {self.note}"
        return (
            f"{self.growth}: time ~ n^{self.slope:.2f} "
            f"(95 % band {self.low:.2f} to {self.high:.2f})"
        )


def _round(value: float) -> float | None:
    return round(value, 3) if math.isfinite(value) else None


def name_power(points: Sequence[tuple[int, float]]) -> Growth:
    """Fit log t on log n over the points and name the class (O(k)).

    >>> name_power([(n, 1e-6 * n * n) for n in (64, 128, 256, 512, 1024)]).growth
    'O(n^2)'
    >>> import math
    >>> name_power([(n, 1e-6 * n * math.log(n)) for n in (2**k for k in range(8, 14))]).growth
    'O(n log n)'
    >>> name_power([(n, 1e-6 * n) for n in (2**k for k in range(8, 14))]).growth
    'O(n)'
    """
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    fit = fit_line(xs, ys)
    slope = fit.slope
    if slope < 0.5:
        name = "O(1)"
    elif slope < 1.45:
        loglog = fit_line([math.log(x) for x in xs], [y - x for x, y in zip(xs, ys, strict=True)])
        name = "O(n log n)" if loglog.slope > 0.6 else "O(n)"
    elif slope < 2.5:
        name = "O(n^2)"
    elif slope < 3.5:
        name = "O(n^3)"
    else:
        name = "O(n^4) or worse"
    return Growth(name, slope, fit.low, fit.high, list(points))


def name_exponential(points: Sequence[tuple[int, float]]) -> Growth:
    """Fit log t on n: time ~ b^n (O(k)).

    >>> name_exponential([(n, 1e-7 * 2**n) for n in range(8, 20, 2)]).slope
    2.0
    """
    fit = fit_line([n for n, _ in points], [math.log(t) for _, t in points])
    base = round(math.exp(fit.slope), 6)
    return Growth("exponential", base, math.exp(fit.low), math.exp(fit.high), list(points))


def calls_note(calls: Sequence[tuple[int, int]], recursive: bool) -> str:
    """Words for call counts at growing n (O(k)).

    >>> calls_note([(8, 200), (10, 800), (12, 3200)], True)
    'about 2.00^n calls: memoisation missing'
    >>> calls_note([(8, 36), (16, 136), (32, 528)], True)
    'about n^2.0 calls (recursive, memoised)'
    >>> calls_note([(8, 1), (16, 1)], False)
    'no recursion (1 call per solve at n = 16)'
    """
    if not recursive:
        n, count = calls[-1]
        return f"no recursion ({count:,} call{'s' * (count != 1)} per solve at n = {n:,})"
    (n1, c1), (n2, c2) = calls[-2], calls[-1]
    per_coin = (c2 / max(c1, 1)) ** (1 / (n2 - n1))
    if n2 - n1 <= 4 and per_coin > 1.4:
        return f"about {per_coin:.2f}^n calls: memoisation missing"
    exponent = math.log(max(c2, 1) / max(c1, 1)) / math.log(n2 / n1)
    if exponent > 4:
        return f"calls grow faster than n^4 (n^{exponent:.1f}): memoisation missing?"
    return f"about n^{exponent:.1f} calls (recursive, memoised)"
