"""Compiled (Numba) kernels of the variants (docs/variants.md): the best reply to the greedy
opponent (SPOJ TWENDS) on int64-safe int rows.

Imported only on the large-row path (:func:`coinrow.engines.variants.reply_greedy_solve`
decides with :func:`coinrow.engines.dispatch.kernel_row`), like :mod:`coinrow.engines.kernels`.
The row must be int64-safe (the sum of absolute values below 2**62), which bounds every
total the DP holds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..numba_cache import use_writable_cache

use_writable_cache()  # before Numba is imported: a read-only install still caches
from numba import njit  # noqa: E402

Array = Any  # numpy.ndarray


@njit(cache=True, nogil=True)
def _reply_greedy(coins: Array, codes: Array) -> tuple[int, int, int]:
    """Fill ``codes`` (diagonal-major, one byte per subgame: 0 = L, 1 = R, the first
    player's best move or greedy's) and return the first player's total from the whole row
    and after each first move (left, right)."""
    n = coins.shape[0]
    below = np.zeros(n + 1, np.int64)  # first player's totals, subgames one coin shorter
    current = np.zeros(n + 1, np.int64)
    offset = 0
    after_left, after_right = 0, 0
    for width in range(n):
        first_moves = (n - width - 1) % 2 == 0
        if width == n - 1 and n > 1:
            after_left, after_right = below[1], below[0]
        for i in range(n - width):
            j = i + width
            left_child = below[i + 1] if width else 0
            right_child = below[i] if width else 0
            if first_moves:
                take_left = coins[i] + left_child
                take_right = coins[j] + right_child
                if take_left >= take_right:
                    current[i] = take_left
                    codes[offset + i] = 0
                else:
                    current[i] = take_right
                    codes[offset + i] = 1
            elif coins[i] >= coins[j]:
                current[i] = left_child
                codes[offset + i] = 0
            else:
                current[i] = right_child
                codes[offset + i] = 1
        offset += n - width
        below, current = current, below
    return below[0], after_left, after_right


def reply_greedy(row: Array) -> tuple[int, int, int, Array]:
    """The first player's total against greedy from the whole row and after each first move
    (left, right), and the move codes of every subgame, diagonal-major (O(n^2) time, n(n+1)/2
    bytes).

    >>> total, left, right, codes = reply_greedy(np.array([3, 2, 10, 4], np.int64))
    >>> total, left, right, int(codes[-1])
    (13, 10, 3, 0)
    """
    n = row.shape[0]
    codes = np.empty(n * (n + 1) // 2, np.uint8)
    total, left, right = _reply_greedy(row, codes)
    return int(total), int(left), int(right), codes
