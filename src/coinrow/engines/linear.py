"""O(n)-memory diagonal sweep of the margin recurrence, keeping only the previous diagonal.

The sweep gives the margin and, from its last two entries, the optimal first moves. A line
needs more than one diagonal, so the optimal line comes from the O(n) reduction.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..numbers import Value, is_int_array
from . import EngineResult, moves_from_margins
from .dispatch import KERNEL_MIN_LENGTH, kernel_row
from .reduction import optimal_line


def solve(coins: Sequence[Value]) -> EngineResult:
    """Solve with O(n^2) time and O(n) memory.

    Long int64-safe rows (see :func:`coinrow.engines.dispatch.kernel_row`) run the same sweep in a
    compiled kernel.

    >>> solve([5, 3, 7, 10])
    EngineResult(margin=5, line='RRLL', first_moves='R')
    """
    n = len(coins)
    if n == 0:
        return EngineResult(0, "", "")
    if n == 1:
        return EngineResult(coins[0], "L", "LR")
    row = coins if is_int_array(coins) else kernel_row(coins, KERNEL_MIN_LENGTH["linear"])
    if row is not None:
        from .kernels import linear

        take_left, take_right = map(int, linear(row))
        first = moves_from_margins(take_left, take_right)
        return EngineResult(max(take_left, take_right), optimal_line(row), first)
    previous = list(coins)  # D(i, i + width) for width 0
    for width in range(1, n - 1):
        previous = [
            max(coins[i] - previous[i + 1], coins[i + width] - previous[i])
            for i in range(n - width)
        ]
    # previous now holds D(0, n-2) and D(1, n-1).
    take_left, take_right = coins[0] - previous[1], coins[n - 1] - previous[0]
    first = moves_from_margins(take_left, take_right)
    return EngineResult(max(take_left, take_right), optimal_line(coins), first)
