"""The O(n) peak-reduction engine (default). See ``docs/theory.md`` for the proof.

Scan the row left to right with a stack; whenever the three top entries x, y, z satisfy
y >= x and y >= z, replace them by x - y + z (the three groups joined). The reduced row has no
interior local maximum (a valley) and is played greedily: the mover takes the larger end
(left on equality). Expanding each taken entry into its group's coins, all from the side it
was taken, gives an optimal line for the original row.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from ..errors import InvalidOptionError, SubgameError
from ..numbers import Value, is_int_array, zero_like
from . import EngineResult, moves_from_margins
from .dispatch import INT64_SAFE_LIMIT, int64_safe

#: Rows at least this long are reduced by several threads, chunk by chunk (shorter ones take
#: under a millisecond on one core, about what starting the threads and their tasks costs).
THREAD_MIN_LENGTH = 1 << 19

#: Coins per chunk of the compiled reduction (its stack pages stay in the core's cache).
CHUNK_LENGTH = 1 << 16


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


def chunk_cuts(n: int) -> list[int]:
    """Where the compiled reduction cuts a row of n coins: every :data:`CHUNK_LENGTH` coins,
    and before the last coin (O(n / CHUNK_LENGTH)).

    The cuts depend on n only, never on the number of threads, so the line is the same on
    every machine. The last coin alone changes nothing (pushing a one-coin stack is pushing
    the coin) and gives the margin of ``coins[:-1]`` free: the stacks before it reduce to it.
    A row of at most ``CHUNK_LENGTH + 1`` coins is therefore reduced exactly as
    :func:`solve` does, with the same line.

    >>> chunk_cuts(1), chunk_cuts(5), chunk_cuts(2 * CHUNK_LENGTH + 10)[1:]
    ([0, 1], [0, 4, 5], [65536, 131072, 131081, 131082])
    """
    inner = range(CHUNK_LENGTH, n - 1, CHUNK_LENGTH)
    return sorted({0, *inner, max(n - 1, 0), n})


def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity where the system reports it) (O(1)).

    >>> usable_cores() >= 1
    True
    """
    import os

    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def solve_int64(coins: Any, *, threads: int | None = None) -> tuple[int, Any, str] | None:
    """Margin, line as a uint8 array of ASCII ``L``/``R`` codes, and optimal first moves of a
    C-contiguous int64 array by the compiled kernels, on ``threads`` threads (default: every
    usable core); None when the row is not int64-safe (O(n) work, about n / threads time).

    See :func:`solve_chunks`, with the cuts of :func:`chunk_cuts`.

    >>> import numpy as np
    >>> margin, codes, first = solve_int64(np.array([5, 3, 7, 10]))
    >>> margin, bytes(codes), sorted(first)
    (5, b'RRLL', ['R'])
    >>> solve_int64(np.array([2**62, 1])) is None
    True
    """
    n = len(coins)
    if 2 <= n <= CHUNK_LENGTH + 1:
        return _solve_whole(coins)
    return solve_chunks(coins, chunk_cuts(n), threads=threads)


def _solve_whole(coins: Any) -> tuple[int, Any, str] | None:
    """:func:`solve_chunks` with the cuts ``[0, n - 1, n]`` (n >= 2), in one kernel call."""
    from .kernels import reduce_whole

    best, line, take_left, take_right, lo, hi = reduce_whole(coins)
    if max(int(hi), -int(lo)) * len(coins) >= INT64_SAFE_LIMIT and not int64_safe(coins):
        return None
    first = "L" * (take_left == best) + "R" * (take_right == best)
    return int(best), line, first


def solve_chunks(
    coins: Any, cuts: Sequence[int], *, threads: int | None = None
) -> tuple[int, Any, str] | None:
    """:func:`solve_int64` with the row cut into chunks at ``cuts`` (ascending, from 0 to n;
    a cut before the last coin is added): margin, line codes, optimal first moves, or None
    when the row is not int64-safe (O(n) work).

    Each chunk is peak-reduced on its own, in parallel threads (the kernels release the
    GIL); the chunks' reduced stacks are concatenated and reduced again; greedy play on the
    resulting valley, each entry expanded into its group, is the line, written by every
    thread at once. The groups may differ from one scan's, but they are groups, and the
    line is optimal move by move (``docs/theory.md``, Theorem 6.5). The margin after taking
    the right coin first comes from the stacks before the last coin's; after taking the left
    one, from ``coins[1:]`` of the first chunk reduced again, followed by the other stacks.
    The scans also give the minimum and maximum for the int64 safety check. The kernels
    never read outside their arrays, so an unsafe row only wastes the work.

    >>> import numpy as np
    >>> margin, codes, first = solve_chunks(np.array([3, 2, 2, 3, 1, 2]), [0, 2, 3, 6])
    >>> margin, bytes(codes), first
    (3, b'LLRLLL', 'L')
    """
    import numpy as np

    from .kernels import combine_stacks, fill_line, reduce_chunks

    n = len(coins)
    if n <= 1:
        return (
            (int(coins[0]), np.frombuffer(b"L", np.uint8).copy(), "LR")
            if n
            else (0, np.empty(0, np.uint8), "")
        )
    cuts = sorted({*cuts, n - 1})
    if cuts[0] != 0 or cuts[-1] != n:
        raise InvalidOptionError(f"chunk cuts must ascend from 0 to {n}, got {cuts[0]}..{cuts[-1]}")
    if len(cuts) == 3:  # one chunk and the last coin: one call, no tables, no threads
        return _solve_whole(coins)
    threads = usable_cores() if threads is None else max(1, threads)
    if n < THREAD_MIN_LENGTH:
        threads = 1
    # Chunk 0 is coins[1:cuts[1]] (for the margin after taking the left coin), then the chunks.
    spans = [(1, cuts[1]), *itertools.pairwise(cuts)]
    table = np.empty((len(spans), 3), np.int64)
    floor = 0
    for index, (lo, hi) in enumerate(spans):
        table[index] = lo, hi, floor
        floor += 2 + hi - lo
    values = np.empty(floor, np.int64)  # touched only as far as the packed stacks reach
    starts = np.empty(floor, np.int32 if floor < 2**31 else np.int64)
    stack = np.empty((len(spans), 4), np.int64)
    line = np.empty(n, np.uint8)
    pool = None
    if threads == 1:
        reduce_chunks(coins, table, values, starts, stack, 0, len(spans))
    else:
        from concurrent.futures import ThreadPoolExecutor

        pool = ThreadPoolExecutor(threads)
        # Several tasks per thread, so a thread slowed by another process leaves its share.
        count = min(len(spans), 4 * threads)
        tasks = [len(spans) * k // count for k in range(count + 1)]
        list(
            pool.map(
                lambda k: reduce_chunks(
                    coins, table, values, starts, stack, tasks[k], tasks[k + 1]
                ),
                range(len(tasks) - 1),
            )
        )
    lo, hi = int(stack[:, 2].min()), int(stack[:, 3].max())
    if max(hi, -lo) * n >= INT64_SAFE_LIMIT and not int64_safe(coins):
        if pool is not None:
            pool.shutdown()
        return None
    begins, ends = stack[:, 0].copy(), stack[:, 1].copy()  # contiguous: one compiled combine
    after_left = np.empty(int((ends - begins).sum()) + 2, np.int64)
    order = np.r_[0, 2 : len(spans)]
    _, rest, _ = combine_stacks(
        values, starts, begins[order], ends[order], after_left, starts, False
    )
    del after_left
    size, best, before_last = combine_stacks(
        values, starts, begins[1:], ends[1:], values, starts, True
    )
    take_left, take_right = int(coins[0]) - rest, int(coins[n - 1]) - before_last
    if pool is None:
        fill_line(values, starts, size, n, line, 0, 0, n)
    else:
        bounds = [n * k // threads for k in range(threads + 1)]
        list(
            pool.map(
                lambda k: fill_line(values, starts, size, n, line, 0, bounds[k], bounds[k + 1]),
                range(threads),
            )
        )
        pool.shutdown()
    first = "".join(move for move, after in (("L", take_left), ("R", take_right)) if after == best)
    return int(best), line, first
