"""The O(n) peak-reduction engine (default). See ``docs/theory.md`` for the proof.

Scan the row left to right with a stack; whenever the three top entries x, y, z satisfy
y >= x and y >= z, replace them by x - y + z (the three groups joined). The reduced row has no
interior local maximum (a valley) and is played greedily: the mover takes the larger end
(left on equality). Expanding each taken entry into its group's coins, all from the side it
was taken, gives an optimal line for the original row.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import SubgameError
from ..numbers import Value, is_int_array, zero_like
from . import EngineResult, moves_from_margins
from .dispatch import INT64_SAFE_LIMIT, int64_safe

#: Rows at least this long solve the other first move's reduction in a second thread.
THREAD_MIN_LENGTH = 1 << 16


def _scan(coins: Sequence[Value]) -> tuple[list[Value], list[int], list[Value]]:
    """Peak-reduce a row; also return the valley of the row without its last coin.

    The scan is online, so the stack just before the last coin is pushed is the reduced form
    of ``coins[:-1]``: its copy gives the margin after the first player takes the right end.
    """
    values: list[Value] = []
    counts: list[int] = []
    push_value, push_count, pop_value, pop_count = (
        values.append,
        counts.append,
        values.pop,
        counts.pop,
    )
    before_last: list[Value] = []
    for chunk_index, chunk in enumerate((coins[:-1], coins[-1:])):
        if chunk_index:
            before_last = values[:]
        for coin in chunk:
            push_value(coin)
            push_count(1)
            while len(values) >= 3:
                peak = values[-2]
                if peak < values[-3] or peak < values[-1]:
                    break
                right = pop_value()
                pop_value()
                values[-1] = values[-1] - peak + right
                joined = pop_count() + pop_count()
                counts[-1] += joined
    return values, counts, before_last


def reduce_row(coins: Sequence[Value]) -> tuple[list[Value], list[int]]:
    """Peak-reduce a row: the valley's entries and their groups' coin counts (O(n)).

    >>> reduce_row([3, 2, 2, 3, 1, 2])
    ([3, 2, 0, 2], [1, 1, 3, 1])
    """
    values, counts, _ = _scan(coins)
    return values, counts


def _greedy_order(values: Sequence[Value]) -> list[tuple[int, bool]]:
    """Indices of valley entries in greedy play order, with True when taken from the left."""
    order = []
    lo, hi = 0, len(values) - 1
    while lo <= hi:
        if values[lo] >= values[hi]:
            order.append((lo, True))
            lo += 1
        else:
            order.append((hi, False))
            hi -= 1
    return order


def _valley_margin(values: Sequence[Value], zero: Value) -> Value:
    """Margin of greedy play on a valley: alternating sum in greedy order."""
    total = zero
    for turn, (index, _) in enumerate(_greedy_order(values)):
        total = total - values[index] if turn % 2 else total + values[index]
    return total


def margin(coins: Sequence[Value]) -> Value:
    """First player's margin (own total minus the other's) under optimal play (O(n)).

    >>> margin([3, 2, 2, 3, 1, 2]), margin([]), margin([-1, 5])
    (3, 0, 6)
    """
    return _valley_margin(reduce_row(coins)[0], zero_like(list(coins[:1])))


def _expand(values: Sequence[Value], counts: Sequence[int]) -> str:
    """The line of greedy play on a valley, each entry expanded into its group's coins."""
    return "".join(
        ("L" if from_left else "R") * counts[index] for index, from_left in _greedy_order(values)
    )


def optimal_line(coins: Sequence[Value]) -> str:
    """One optimal line of ``L``/``R`` moves covering every coin (O(n)).

    >>> optimal_line([3, 2, 2, 3, 1, 2])
    'LLRLLL'
    """
    if is_int_array(coins) and len(coins) and int64_safe(coins):
        return str(solve_int64(coins)[1].data, "ascii")  # type: ignore[index]
    return _expand(*reduce_row(coins))


def best_moves(coins: Sequence[Value], lo: int = 0, hi: int | None = None) -> str:
    """Optimal move(s) ``"L"``, ``"R"`` or ``"LR"`` in the subgame ``coins[lo..hi]`` (O(n)).

    Two reductions: compare coin lo minus the margin of lo+1..hi with coin hi minus the margin
    of lo..hi-1. A single coin gives ``"LR"`` (both ends are that coin).

    >>> best_moves([1, 2, 4, 3]), best_moves([8, 15, 3, 7]), best_moves([8, 15, 3, 7], 0, 2)
    ('LR', 'R', 'LR')
    """
    n = len(coins)
    if hi is None:
        hi = n - 1
    if not 0 <= lo <= hi < n:
        raise SubgameError(f"subgame {lo}..{hi} is not inside a row of {n} coins")
    take_left = coins[lo] - margin(coins[lo + 1 : hi + 1])
    take_right = coins[hi] - margin(coins[lo:hi])
    return moves_from_margins(take_left, take_right)


def solve(coins: Sequence[Value]) -> EngineResult:
    """Margin, optimal line and optimal first moves (O(n): one scan, at most one more).

    The line's first move is optimal; the other first move is checked with the margin of the
    row without the coin it takes (free from the scan for ``R``, one more scan for ``L``).

    A C-contiguous int64 NumPy array (already checked by
    :func:`coinrow.engines.dispatch.kernel_row`) runs in the compiled kernel instead: see
    :func:`solve_int64`.

    >>> solve([5, 3, 7, 10])
    EngineResult(margin=5, line='RRLL', first_moves='R')
    """
    if is_int_array(coins):
        solved = solve_int64(coins)
        if solved is not None:
            return EngineResult(solved[0], str(solved[1].data, "ascii"), solved[2])
        coins = coins.tolist()  # type: ignore[attr-defined]  # not int64-safe: solve exactly
    if not coins:
        return EngineResult(0, "", "")
    values, counts, before_last = _scan(coins)
    zero = zero_like(list(coins[:1]))
    best = _valley_margin(values, zero)
    line = _expand(values, counts)
    if line[0] == "L":
        other = coins[-1] - _valley_margin(before_last, zero)
    else:
        other = coins[0] - margin(coins[1:])
    first = "LR" if other == best else line[0]
    return EngineResult(best, line, first)


def solve_int64(coins: Any) -> tuple[int, Any, str] | None:
    """Margin, line as a uint8 array of ASCII ``L``/``R`` codes, and optimal first moves of a
    C-contiguous int64 array by the compiled kernels; None when the row is not int64-safe
    (O(n)).

    The same algorithm as :func:`solve`, so the same line. A second reduction (of
    ``coins[1:]``, for the other first move) and the safety check's minimum and maximum run
    in a second thread while the first builds the line (the kernels release the GIL). The
    kernels never read outside their arrays, so an unsafe row only wastes the work: its
    results are dropped before anyone sees them.

    >>> import numpy as np
    >>> margin, codes, first = solve_int64(np.array([5, 3, 7, 10]))
    >>> margin, bytes(codes), sorted(first)
    (5, b'RRLL', ['R'])
    >>> solve_int64(np.array([2**62, 1])) is None
    True
    """
    import threading

    import numpy as np

    from .kernels import reduction_left, reduction_line

    n = len(coins)
    if n == 0:
        return 0, np.empty(0, np.uint8), ""
    results: list[tuple[int, int, int]] = []
    helper = threading.Thread(target=lambda: results.append(reduction_left(coins)))
    threaded = n >= THREAD_MIN_LENGTH
    if threaded:
        helper.start()
    starts = np.empty(n + 2, np.int32 if n < 2**31 - 2 else np.int64)  # group start indices
    best, codes, take_right = reduction_line(coins, starts)
    del starts
    if threaded:
        helper.join()
    take_left, lo, hi = results[0] if threaded else reduction_left(coins)
    if max(int(hi), -int(lo)) * n >= INT64_SAFE_LIMIT and not int64_safe(coins):
        return None
    first = "".join(move for move, after in (("L", take_left), ("R", take_right)) if after == best)
    return int(best), codes, first
