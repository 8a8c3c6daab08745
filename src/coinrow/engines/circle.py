"""The pizza (``circular``): the first slice with the best margin, then the plain game on
the row it opens (docs/variants.md). Every first slice is tried by one O(n) reduction each
(compiled for long int64-safe rows), or by the plain interval DP on the doubled row
(:func:`circular_margins`, O(n^2) for all starts together). The first move is the slice's
0-based index.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..numbers import Value, zero_like
from ..rules import Rules
from . import reduction
from .dispatch import PIZZA_KERNEL_MIN_LENGTH, kernel_row
from .interval import VariantResult, replay


def opened(coins: Sequence[Value], start: int) -> list[Value]:
    """The row the pizza leaves after its first slice ``start``: the next slice clockwise
    first (O(n)).

    >>> opened([1, 2, 3, 4], 1)
    [3, 4, 1]
    """
    return [*coins[start + 1 :], *coins[:start]]


def circular_margins(coins: Sequence[Value]) -> list[Value]:
    """The first player's margin for each first slice s, s - plain margin of the opened row,
    by the plain interval DP on the doubled row (O(n^2) for all starts together).

    >>> circular_margins([1, 2, 3, 4])
    [-2, 2, 0, 2]
    """
    n = len(coins)
    doubled = [*coins, *coins]
    zero = zero_like(list(coins[:1]))
    previous: list[Value] = []
    current: list[Value] = list(doubled)
    # windows of width w (w + 1 coins) starting at 0..2n-1-w, up to n - 1 coins
    for width in range(1, n - 1):
        previous = current
        current = [
            max(doubled[i] - previous[i + 1], doubled[i + width] - previous[i])
            for i in range(2 * n - width)
        ]
    if n == 1:
        return [coins[0]]
    return [coins[s] - (current[s + 1] if n > 1 else zero) for s in range(n)]


def circular_margins_fast(coins: Sequence[Value]) -> list[Value]:
    """The same margins by one O(n) reduction per first slice (O(n^2) in all, O(n) memory).

    >>> circular_margins_fast([1, 2, 3, 4])
    [-2, 2, 0, 2]
    """
    row = kernel_row(coins, PIZZA_KERNEL_MIN_LENGTH)
    if row is not None:  # int64-safe ints: the compiled reduction on each rotation
        import numpy as np

        from .kernels import reduce_whole

        rotated = np.empty_like(row)
        margins: list[Value] = []
        for start in range(len(row)):
            rotated[: len(row) - start] = row[start:]
            rotated[len(row) - start :] = row[:start]
            margins.append(int(reduce_whole(rotated)[2]))  # coin 0 minus the rest's margin
        return margins
    return [coins[s] - reduction.margin(opened(coins, s)) for s in range(len(coins))]


def circular_solve(coins: Sequence[Value], fast: bool = True) -> VariantResult:
    """The pizza: the first slice with the best margin, then optimal play on the opened row
    (O(n^2); the line by the reduction, O(n)). The first move is the slice's 0-based index.

    >>> circular_solve([1, 2, 3, 4])  # doctest: +NORMALIZE_WHITESPACE
    VariantResult(totals=(6, 4), objective=2, moves=('1', 'L', 'L', 'L'), first_moves=('1', '3'),
                  starts=(-2, 2, 0, 2))
    """
    if not coins:
        return VariantResult((0, 0), 0, (), (), ())
    margins = circular_margins_fast(coins) if fast else circular_margins(coins)
    best = max(margins)
    start = margins.index(best)
    rest = reduction.optimal_line(opened(coins, start))
    row = [coins[start], *opened(coins, start)]
    plain = Rules()
    totals = replay(row, plain, ("L", *rest))
    return VariantResult(
        totals,
        best,
        (str(start), *rest),
        tuple(str(s) for s, m in enumerate(margins) if m == best),
        tuple(margins),
    )
