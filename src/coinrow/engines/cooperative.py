"""The cooperative ("manipulable opponent") total: the most the first player can collect if
the opponent can be made to pick any way.

F(i, j) = max(a_i + G(i+1, j), a_j + G(i, j-1)) on the first player's turns and
G(i, j) = max(F(i+1, j), F(i, j-1)) on the opponent's, swept diagonal by diagonal keeping
only the previous one: O(n^2) time, O(n) memory.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..numbers import KERNEL_MIN_LENGTH, Value, is_int_array, kernel_row, zero_like


def cooperative_total(coins: Sequence[Value]) -> Value:
    """Most the first player can collect with a cooperating opponent (O(n^2) time, O(n) memory).

    Long int64-safe rows (see :func:`coinrow.numbers.kernel_row`) run the same sweep in a
    compiled kernel (the total is at most the sum of the positive coins).

    >>> cooperative_total([3, 2, 2, 3, 1, 2]), cooperative_total([1, 100, 1])
    (8, 101)
    """
    row = coins if is_int_array(coins) else kernel_row(coins, KERNEL_MIN_LENGTH["cooperative"])
    if row is not None:
        from .kernels import cooperative

        return int(cooperative(row))
    n = len(coins)
    zero = zero_like(list(coins))
    # best[i] is the first player's best collection from the subgame i..i+width-1.
    best = [zero] * (n + 1)
    for width in range(1, n + 1):
        first_moves = (n - width) % 2 == 0
        best = [
            max(coins[i] + best[i + 1], coins[i + width - 1] + best[i])
            if first_moves
            else max(best[i + 1], best[i])
            for i in range(n - width + 1)
        ]
    return best[0]
