"""Fast paths on the O(n) reduction: the misère game and Stone Game VII are the plain game
on the negated row, move for move (docs/variants.md). Long int64-safe int rows run compiled,
their totals summed in int64 chunks that cannot overflow.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..numbers import Value, is_int_array
from ..rules import Misere, StoneGameVII
from . import reduction
from .dispatch import INT64_SAFE_LIMIT, KERNEL_MIN_LENGTH, kernel_row
from .interval import VariantResult, replay


def _exact(coins: Sequence[Value]) -> Sequence[Value]:
    """Python ints for a NumPy row (its int64 arithmetic could overflow), else the row."""
    return coins.tolist() if is_int_array(coins) else coins  # type: ignore[attr-defined]


def _negated(coins: Sequence[Value]) -> tuple[Value, str, str, Any]:
    """Margin, line and first moves of the plain game on the negated row, and the row as an
    int64 array when it ran compiled (else None) (O(n))."""
    row = kernel_row(coins, KERNEL_MIN_LENGTH["reduction"])
    if row is not None:
        solved = reduction.solve_int64(-row)
        if solved is not None:
            return solved[0], str(solved[1].data, "ascii"), solved[2], row
    plain = reduction.solve([-coin for coin in coins])
    return plain.margin, plain.line, plain.first_moves, None


def _array_totals(row: Any, line: str, points: bool) -> tuple[int, int]:
    """Both players' totals along a line of L/R moves over an int64-safe row, vectorised
    (O(n)); Stone Game VII's points are summed in chunks that cannot overflow int64."""
    import numpy as np

    n = len(row)
    left = np.frombuffer(line.encode("ascii"), np.uint8) == ord("L")
    taken = np.where(left, np.cumsum(left) - 1, n - np.cumsum(~left))
    values = row[taken]
    if points:
        values = int(row.sum()) - np.cumsum(values)  # |each| <= sum of |a| < 2^62
    return _exact_sum(values[0::2]), _exact_sum(values[1::2])


def _exact_sum(values: Any) -> int:
    """Sum of an int64 array whose entries are below 2^62 in size, as a Python int (O(n))."""
    if not len(values):
        return 0
    step = max(1, INT64_SAFE_LIMIT // (int(abs(values).max()) + 1))
    return sum(int(values[start : start + step].sum()) for start in range(0, len(values), step))


def misere_solve(coins: Sequence[Value]) -> VariantResult:
    """Misère by the reduction on negated values (O(n)): the plain game on -a is the
    misère game on a, move for move, so its line is optimal and its margin is minus the
    misère margin (docs/variants.md). Long int64-safe int rows run compiled.

    >>> misere_solve([1, 5, 2]).totals
    (6, 2)
    """
    if not len(coins):
        return VariantResult((0, 0), 0, (), ())
    margin, line, first, row = _negated(coins)
    totals = _array_totals(row, line, False) if row is not None else None
    if totals is None:
        totals = replay(coins, Misere(), line)
    return VariantResult(totals, margin, tuple(line), tuple(first))


def stone_game_vii_solve(coins: Sequence[Value]) -> VariantResult:
    """Stone Game VII by the reduction on negated values (O(n)): each move scores the coins
    left, so the first player's margin is the sum of the coins the second player takes, and
    both play the misère game (docs/variants.md). Long int64-safe int rows run compiled.

    >>> stone_game_vii_solve([7, 90, 5, 1, 100, 10, 10, 2]).objective
    122
    """
    if not len(coins):
        return VariantResult((0, 0), 0, (), ())
    _, line, first, row = _negated(coins)
    if row is not None:
        totals: tuple[Value, ...] = _array_totals(row, line, True)
    else:
        totals = replay(_exact(coins), StoneGameVII(), line)
    return VariantResult(totals, totals[0] - totals[1], tuple(line), tuple(first))
