"""Compiled census kernels of the variants (Numba): the pizza (``circular``) over int rows.

One pizza of n slices costs O(n^2): the plain interval DP over its doubled row gives the
margin D of every window of n - 1 consecutive slices, so the first player's margin is
max over the first slice s of a_s - D(opened row after s) (docs/variants.md). Each row then
updates the shard's running tally: the margin histogram, the rows whose total is not
positive (no share), the rows below 4/9, and the smallest share first total / total (exact:
compared by cross-multiplication, so every first total times every total must fit int64;
:func:`coinrow.census.variants.compiled_path` checks the family's bound first) with the
first rows reaching it.

Imported only when a census runs compiled (it imports NumPy and Numba).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..numba_cache import use_writable_cache

use_writable_cache()  # before Numba is imported

from numba import njit  # noqa: E402

#: Slots of the ``counts`` array the kernels fill.
ROWS, EXCLUDED, BELOW, REACHING, MIN_FIRST, MIN_TOTAL, FOUND = range(7)
COUNTS = 7


def work_arrays(n: int) -> tuple[Any, Any, Any]:
    """Scratch arrays of a pizza of n slices: the doubled row and two diagonals (O(n))."""
    return np.zeros(2 * n, np.int64), np.zeros(2 * n, np.int64), np.zeros(2 * n, np.int64)


@njit(cache=True)
def pizza_margin(doubled: Any, n: int, current: Any, following: Any) -> int:  # pragma: no cover
    """The first player's margin on the pizza whose doubled row is ``doubled`` (O(n^2)).

    >>> import numpy as np
    >>> row = np.array([1, 2, 3, 4, 1, 2, 3, 4], np.int64)
    >>> int(pizza_margin(row, 4, np.zeros(8, np.int64), np.zeros(8, np.int64)))
    2
    """
    if n == 1:
        return int(doubled[0])
    for i in range(2 * n):
        current[i] = doubled[i]
    for width in range(1, n - 1):  # windows of width + 1 slices
        for i in range(2 * n - width):
            left = doubled[i] - current[i + 1]
            right = doubled[i + width] - current[i]
            following[i] = left if left > right else right
        for i in range(2 * n - width):
            current[i] = following[i]
    best = doubled[0] - current[1]
    for start in range(1, n):
        margin = doubled[start] - current[start + 1]
        if margin > best:
            best = margin
    return int(best)


@njit(cache=True)
def _tally(
    doubled: Any,
    n: int,
    index: int,
    current: Any,
    following: Any,
    hist: Any,
    offset: int,
    counts: Any,
    examples: Any,
) -> None:  # pragma: no cover - compiled; checked against the oracle by the tests
    """Solve one pizza and add it to the running tally (O(n^2))."""
    total = 0
    for i in range(n):
        total += doubled[i]
    margin = pizza_margin(doubled, n, current, following)
    hist[margin + offset] += 1
    counts[ROWS] += 1
    if total <= 0:
        counts[EXCLUDED] += 1
        return
    first = (total + margin) // 2
    if 9 * first < 4 * total:
        counts[BELOW] += 1
    if counts[MIN_TOTAL] == 0 or first * counts[MIN_TOTAL] < counts[MIN_FIRST] * total:
        counts[MIN_FIRST] = first
        counts[MIN_TOTAL] = total
        counts[REACHING] = 0
        counts[FOUND] = 0
    if first * counts[MIN_TOTAL] == counts[MIN_FIRST] * total:
        counts[REACHING] += 1
        if counts[FOUND] < len(examples):
            examples[counts[FOUND]] = index
            counts[FOUND] += 1


@njit(cache=True)
def pizza_words(
    alphabet: Any,
    n: int,
    first: Any,
    count: int,
    hist: Any,
    offset: int,
    counts: Any,
    examples: Any,
) -> None:  # pragma: no cover - compiled; checked against the oracle by the tests
    """``count`` pizzas of n slices over ``alphabet`` in lexicographic order from the
    alphabet indices ``first`` (O(count * n^2)); ``examples`` gets offsets in the shard."""
    digits = first.copy()
    k = len(alphabet)
    doubled = np.zeros(2 * n, np.int64)
    current = np.zeros(2 * n, np.int64)
    following = np.zeros(2 * n, np.int64)
    for index in range(count):
        for i in range(n):
            doubled[i] = alphabet[digits[i]]
            doubled[i + n] = doubled[i]
        _tally(doubled, n, index, current, following, hist, offset, counts, examples)
        position = n - 1
        while position >= 0:
            digits[position] += 1
            if digits[position] < k:
                break
            digits[position] = 0
            position -= 1


@njit(cache=True)
def pizza_rows(
    rows: Any, hist: Any, offset: int, counts: Any, examples: Any
) -> None:  # pragma: no cover - compiled; checked against the oracle by the tests
    """Every row of a 2-D int64 array as a pizza (O(rows * n^2))."""
    count, n = rows.shape
    doubled = np.zeros(2 * n, np.int64)
    current = np.zeros(2 * n, np.int64)
    following = np.zeros(2 * n, np.int64)
    for index in range(count):
        for i in range(n):
            doubled[i] = rows[index, i]
            doubled[i + n] = rows[index, i]
        _tally(doubled, n, index, current, following, hist, offset, counts, examples)
