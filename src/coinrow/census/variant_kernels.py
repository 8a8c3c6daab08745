"""Compiled census kernels of the variants (Numba): the pizza (``circular``) and the
two-player interval variants (``misere``, ``stone-game-vii``, ``both-ends``, ``take:K``,
``take:any``) over int rows.

One pizza of n slices costs O(n^2): the plain interval DP over its doubled row gives the
margin D of every window of n - 1 consecutive slices, so the first player's margin is
max over the first slice s of a_s - D(opened row after s) (docs/variants.md). An interval
variant fills its table of objective margins O(i, j) = max over moves (score - O(child))
(engines/variants.py), O(n^2) per row (O(n^2 K) for take:K; take:any is O(n^3) here, fine
for census rows). Each row then updates the shard's running tally: the margin histogram, the
set of optimal first moves (a bit mask per row), the rows whose total is not positive (no
share), the rows below 4/9 (the pizza), and the worst share first total / total (exact:
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


#: Kind codes of the interval kernels.
MISERE, STONE_GAME_VII, BOTH_ENDS, TAKE = 1, 2, 3, 4


@njit(cache=True)
def _count(
    doubled: Any,
    n: int,
    margin: int,
    index: int,
    largest: bool,
    pizza: bool,
    shares: bool,
    hist: Any,
    offset: int,
    counts: Any,
    examples: Any,
) -> None:  # pragma: no cover - compiled; checked against the oracle by the tests
    """Add one row (its margin: first total minus second) to the running tally (O(n))."""
    total = 0
    for i in range(n):
        total += doubled[i]
    hist[margin + offset] += 1
    counts[ROWS] += 1
    if not shares:
        return
    if total <= 0:
        counts[EXCLUDED] += 1
        return
    first = (total + margin) // 2
    if pizza and 9 * first < 4 * total:
        counts[BELOW] += 1
    lower = first * counts[MIN_TOTAL] < counts[MIN_FIRST] * total
    higher = first * counts[MIN_TOTAL] > counts[MIN_FIRST] * total
    if counts[MIN_TOTAL] == 0 or (higher if largest else lower):
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
    margin = pizza_margin(doubled, n, current, following)
    _count(doubled, n, margin, index, False, True, True, hist, offset, counts, examples)


@njit(cache=True)
def interval_solve(
    row: Any, n: int, kind: int, take: int, table: Any, prefix: Any
) -> tuple[int, int]:  # pragma: no cover - compiled; checked against the oracle by the tests
    """(margin: first total minus second, bit mask of the optimal first moves) of one row
    under an interval variant (O(n^2), O(n^2 K) for take:K). The mask's bits follow the
    engines' tie order: L, R, B; for take, L1..Lm then R1..Rm, m = min(K, n).

    >>> import numpy as np
    >>> row = np.array([5, 3, 1, 4, 2], np.int64)
    >>> table, prefix = np.zeros((6, 6), np.int64), np.zeros(6, np.int64)
    >>> interval_solve(row, 5, STONE_GAME_VII, 1, table, prefix)
    (6, 2)
    """
    prefix[0] = 0
    for i in range(n):
        prefix[i + 1] = prefix[i] + row[i]
    # table[i, j + 1] = O(i..j); table[i, i] = 0 (the empty subgame)
    for i in range(n + 1):
        table[i, i] = 0
    top = 0
    mask = 0
    for width in range(n):
        for i in range(n - width):
            j = i + width
            best = -(1 << 62)
            bits = 0
            moves = 0
            if kind == TAKE:
                most = min(take, width + 1)
                for side in range(2):
                    for c in range(1, most + 1):
                        if side == 0:
                            value = prefix[i + c] - prefix[i] - table[i + c, j + 1]
                        else:
                            value = prefix[j + 1] - prefix[j + 1 - c] - table[i, j + 1 - c]
                        if value > best:
                            best, bits = value, 0
                        if value == best:
                            bits |= 1 << moves
                        moves += 1
            else:
                for side in range(3):
                    if side == 2 and (kind != BOTH_ENDS or i == j):
                        break
                    if side == 2:
                        value = row[i] + row[j] - table[i + 1, j]
                    elif kind == STONE_GAME_VII:
                        if side == 0:
                            value = prefix[j + 1] - prefix[i + 1] - table[i + 1, j + 1]
                        else:
                            value = prefix[j] - prefix[i] - table[i, j]
                    else:
                        coin = row[i] if side == 0 else row[j]
                        if kind == MISERE:
                            coin = -coin
                        value = coin - (table[i + 1, j + 1] if side == 0 else table[i, j])
                    if value > best:
                        best, bits = value, 0
                    if value == best:
                        bits |= 1 << side
            table[i, j + 1] = best
            if width == n - 1:
                top, mask = best, bits
    margin = -top if kind == MISERE else top
    return margin, mask


@njit(cache=True, inline="always")
def _next_word(digits: Any, n: int, k: int) -> None:  # pragma: no cover - compiled
    """Step the alphabet indices ``digits`` to the next row in lexicographic order (O(n))."""
    position = n - 1
    while position >= 0:
        digits[position] += 1
        if digits[position] < k:
            break
        digits[position] = 0
        position -= 1


@njit(cache=True)
def interval_census(
    alphabet: Any,
    first: Any,
    rows: Any,
    n: int,
    count: int,
    kind: int,
    take: int,
    hist: Any,
    offset: int,
    counts: Any,
    examples: Any,
    masks: Any,
) -> None:  # pragma: no cover - compiled; checked against the oracle by the tests
    """``count`` rows of n coins under an interval variant (O(count * n^2), times K for
    take:K): the rows of the 2-D int64 array ``rows`` when it has any, else the words over
    ``alphabet`` in lexicographic order from the alphabet indices ``first``; ``masks`` gets
    each row's optimal first moves."""
    words = rows.shape[0] == 0
    digits = first.copy()
    k = len(alphabet)
    row = np.zeros(n, np.int64)
    table = np.zeros((n + 1, n + 1), np.int64)
    prefix = np.zeros(n + 1, np.int64)
    shares = kind != STONE_GAME_VII
    largest = kind == MISERE
    for index in range(count):
        for i in range(n):
            row[i] = alphabet[digits[i]] if words else rows[index, i]
        margin, masks[index] = interval_solve(row, n, kind, take, table, prefix)
        _count(row, n, margin, index, largest, False, shares, hist, offset, counts, examples)
        if words:
            _next_word(digits, n, k)


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
        _next_word(digits, n, k)


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
