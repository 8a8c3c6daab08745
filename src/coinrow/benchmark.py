"""Speed measurements behind ``coinrow bench`` and ``benchmarks/``: engine times and the
side-by-side ratios that matter, each the best of several wall-clock runs on seeded random
int64 rows. Needs the ``fast`` extra (NumPy, Numba): :func:`machine_info` checks it first.
See ``docs/kernels.md``.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable
from typing import Any

from .engines import ENGINES, estimated_seconds, reduction
from .engines.dispatch import KERNEL_MIN_LENGTH, kernel_row, kernels_available
from .engines.reduction import solve_int64, usable_cores
from .engines.table import KERNEL_BYTES_PER_CELL, MEMORY_BUDGET, Table, cell_count
from .errors import MissingExtraError
from .solution import solve

#: Default sizes: each finishes the whole run in about a minute on a 2-core machine.
ENGINE_SIZES = "1000,3000"
SUM_SIZE = 10**8
TEXTBOOK_SIZE = 3000
TABLE_SIZE = 6000
LARGE_TABLE_SIZE = 20_000

#: Largest sizes measured: each keeps a run within minutes and a few GB of memory.
MAX_ENGINE_SIZE = 10**7  # a list of 10^7 Python ints, as users pass them: 0.4 GB
MAX_SUM_SIZE = 2 * 10**8  # an int64 array of 1.6 GB, and the solver's 25 bytes a coin
MAX_TEXTBOOK_SIZE = 5000  # the pure-Python n x n DP: 15 s and 0.6 GB (10,000: 1 min, 2.4 GB)
MAX_REPEAT = 100

#: An engine whose estimated time at a size is over this is left out of the engine times
#: (as ``brute`` is over 20 coins).
ENGINE_SECONDS = 30.0

Timer = Callable[[], object]


def machine_info() -> dict[str, Any]:
    """CPU count and the NumPy and Numba versions (O(1)), without importing them. Raises
    :class:`~coinrow.errors.MissingExtraError` when they are not installed: every
    measurement times the compiled kernels."""
    if not kernels_available():
        raise MissingExtraError("timing the compiled kernels needs NumPy and Numba", "fast")
    from importlib.metadata import PackageNotFoundError, version  # 10 ms: not at CLI start-up

    info: dict[str, Any] = {"cpus": os.cpu_count()}
    for name in ("numpy", "numba"):
        try:
            info[name] = version(name)
        except PackageNotFoundError:  # importable but not installed as a distribution
            info[name] = "unknown"
    return info


def max_table_size() -> int:
    """Longest row whose compiled table (9 bytes a subgame) fits the
    :data:`~coinrow.engines.table.MEMORY_BUDGET` (O(1)).

    >>> max_table_size()
    30893
    """
    n = int((2 * MEMORY_BUDGET / KERNEL_BYTES_PER_CELL) ** 0.5)
    while cell_count(n + 1) * KERNEL_BYTES_PER_CELL <= MEMORY_BUDGET:
        n += 1
    while cell_count(n) * KERNEL_BYTES_PER_CELL > MEMORY_BUDGET:
        n -= 1
    return n


#: A run longer than this is not repeated.
LONG_RUN_SECONDS = 1.0


def best_time(run: Timer, repeat: int) -> float:
    """The fastest of ``repeat`` wall-clock runs of ``run``; a run over
    :data:`LONG_RUN_SECONDS` is not repeated (O(repeat) runs)."""
    best = float("inf")
    for _ in range(max(repeat, 1)):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
        if best > LONG_RUN_SECONDS:
            break
    return best


def random_row(n: int, seed: int = 1) -> Any:
    """n random int64 coins in [-10^9, 10^9] (int64-safe for n < 4.6 x 10^9)."""
    import numpy as np

    return np.random.default_rng(seed).integers(-(10**9), 10**9, n, dtype=np.int64)


def textbook_first_total(coins: list[int]) -> int:
    """The textbook O(n^2) DP in pure Python (the seeds' approach): the most the first player
    can guarantee, from a full n x n table of ``max(a_i + min(...), a_j + min(...))``."""
    n = len(coins)
    best = [[0] * n for _ in range(n)]
    for gap in range(n):
        for i in range(n - gap):
            j = i + gap
            skip_two = best[i + 2][j] if i + 2 <= j else 0
            both_ends = best[i + 1][j - 1] if i + 1 <= j - 1 else 0
            skip_two_right = best[i][j - 2] if i <= j - 2 else 0
            best[i][j] = max(
                coins[i] + min(skip_two, both_ends), coins[j] + min(both_ends, skip_two_right)
            )
    return best[0][n - 1]


def numpy_top_value(coins: Any) -> int:
    """The table's top value V(0, n-1) by a NumPy diagonal sweep that keeps nothing else:
    the vectorised baseline for the table kernel (O(n^2) time, O(n) memory)."""
    import numpy as np

    n = len(coins)
    prefix = np.concatenate(([0], np.cumsum(coins)))
    previous = coins.copy()
    for width in range(1, n):
        totals = prefix[width + 1 :] - prefix[: n - width]
        previous = totals - np.minimum(previous[1:], previous[:-1])
    return int(previous[0])


def engine_times(sizes: list[int], repeat: int) -> list[dict[str, Any]]:
    """Each engine's ``coinrow.solve`` time at each size, with the path it took. Engines
    estimated to take over :data:`ENGINE_SECONDS` at a size, or whose table would exceed the
    memory budget, are left out at that size, as ``brute`` is over 20 coins."""
    rows = []
    for n in sizes:
        coins = random_row(n, seed=n).tolist()  # Python ints, as most users pass them
        for engine in ENGINES:
            kernel = kernel_row(coins, KERNEL_MIN_LENGTH.get(engine)) is not None
            if not _fits(engine, n, kernel):
                continue
            if kernel:
                solve(coins, engine=engine)  # warm-up: loads the kernels
            seconds = best_time(functools.partial(solve, coins, engine), repeat)
            path = "kernel" if kernel else "python"
            rows.append({"n": n, "engine": engine, "path": path, "seconds": seconds})
    return rows


def _fits(engine: str, n: int, kernel: bool) -> bool:
    if engine == "brute":
        return n <= 20
    if engine == "table" and kernel and n > max_table_size():
        return False
    return estimated_seconds(engine, n, kernel) <= ENGINE_SECONDS


def reduction_vs_sum(n: int, repeat: int) -> dict[str, Any]:
    """``coinrow.solve`` (margin, line kept as its byte codes, first moves) on every core and
    the compiled reduction on one core, side by side with ``numpy.sum`` and ``a.copy()`` of
    the same int64 array: the four are timed in turn in each of ``repeat`` rounds, so a
    busy machine slows them alike. Minimum and median of each (O(repeat n)).
    """
    import statistics

    coins = random_row(n)
    solve(coins[: min(n, 1 << 17)])
    solve_int64(coins[: min(n, 1 << 17)], threads=1)
    runs: dict[str, Timer] = {
        "sum": coins.sum,
        "copy": coins.copy,
        "reduction": lambda: solve(coins).margin,
        "one_core": lambda: solve_int64(coins, threads=1),
    }
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(max(repeat, 1)):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    best = {name: min(values) for name, values in times.items()}
    median = {name: statistics.median(values) for name, values in times.items()}
    return {
        "n": n,
        "cores": usable_cores(),
        "runs": max(repeat, 1),
        "sum_seconds": best["sum"],
        "copy_seconds": best["copy"],
        "reduction_seconds": best["reduction"],
        "one_core_seconds": best["one_core"],
        "ratio": best["reduction"] / best["sum"],
        "copy_ratio": best["reduction"] / best["copy"],
        "one_core_ratio": best["one_core"] / best["sum"],
        "scaling": best["one_core"] / best["reduction"],
        "median_sum_seconds": median["sum"],
        "median_reduction_seconds": median["reduction"],
        "median_ratio": median["reduction"] / median["sum"],
    }


def reduction_sizes(sum_size: int) -> list[int]:
    """The row lengths of the reduction's side-by-side figures: 10^6 and 10^7 below
    ``sum_size``, and ``sum_size`` (O(1)).

    >>> reduction_sizes(10**8), reduction_sizes(1000)
    ([1000000, 10000000, 100000000], [1000])
    """
    return [size for size in (10**6, 10**7) if size < sum_size] + [sum_size]


#: Different rows the compiled reduction is timed on in turn by :func:`reduction_vs_textbook`.
FRESH_ROWS = 32


def reduction_vs_textbook(n: int, repeat: int) -> dict[str, Any]:
    """The reduction (compiled, and pure Python) against the textbook pure-Python DP.

    The compiled reduction is timed per row over :data:`FRESH_ROWS` different rows in turn:
    a short row solved again and again is learnt by the branch predictor (the kernel of
    November 2026 took 1.6 ns per coin on one row of 20,000 coins repeated, 7.2 on new
    rows), which no user's row is.
    """
    array = random_row(n)
    coins = array.tolist()
    rows = [array, *(random_row(n, seed=seed) for seed in range(2, FRESH_ROWS + 1))]
    reduction.solve_int64(array)
    textbook_seconds = best_time(lambda: textbook_first_total(coins), 1)
    kernel_seconds = best_time(
        lambda: [reduction.solve_int64(row) for row in rows], max(repeat, 5)
    ) / len(rows)
    python_seconds = best_time(lambda: reduction.solve(coins), repeat)
    return {
        "n": n,
        "textbook_seconds": textbook_seconds,
        "reduction_seconds": kernel_seconds,
        "ratio": textbook_seconds / kernel_seconds,
        "python_reduction_seconds": python_seconds,
        "python_ratio": textbook_seconds / python_seconds,
    }


def table_vs_numpy(n: int, repeat: int) -> dict[str, Any]:
    """The table kernel (values and moves of every subgame kept) against the NumPy sweep
    that computes the top value only. The kernel is timed on arrays already touched once;
    allocation (the first touch of fresh pages) is timed alone, and the fill into fresh
    arrays as ``Table`` does it (pages mapped by a second thread during the fill)."""
    import numpy as np

    from .engines.kernels import fill_table, table_arrays

    coins = random_row(n)
    cells = cell_count(n)
    values, codes = np.zeros(cells, np.int64), np.zeros(cells, np.uint8)
    fill_table(coins[:2], values, codes)
    numpy_seconds = best_time(lambda: numpy_top_value(coins), repeat)
    kernel_seconds = best_time(functools.partial(fill_table, coins, values, codes), repeat)
    del values, codes

    def allocate() -> None:
        np.zeros(cells, np.int64)[::512] = 1  # one write per 4 KiB page: the first touch
        np.zeros(cells, np.uint8)[::4096] = 1

    allocation_seconds = best_time(allocate, repeat)
    fresh_seconds = best_time(functools.partial(table_arrays, coins), repeat)
    return {
        "n": n,
        "subgames": cells,
        "numpy_sweep_seconds": numpy_seconds,
        "kernel_seconds": kernel_seconds,
        "allocation_seconds": allocation_seconds,
        "fresh_seconds": fresh_seconds,
        "subgames_per_second": cells / kernel_seconds,
        "ratio": numpy_seconds / kernel_seconds,
        "ratio_fresh": numpy_seconds / fresh_seconds,
    }


def large_table(n: int) -> dict[str, Any]:
    """Build ``coinrow.Table`` for n coins once: time and bytes of the compact storage."""
    coins = random_row(n)
    start = time.perf_counter()
    table = Table(coins)
    seconds = time.perf_counter() - start
    top = table.value_of(0, n - 1)
    return {
        "n": n,
        "subgames": cell_count(n),
        "seconds": seconds,
        "bytes": cell_count(n) * KERNEL_BYTES_PER_CELL,
        "top_value": top,
    }
