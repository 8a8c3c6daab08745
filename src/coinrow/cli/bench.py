"""``coinrow bench``: engine times and side-by-side ratios, measured in one run.

Every figure is the best of ``--repeat`` wall-clock runs (``time.perf_counter``) on random
int64 rows (seeded), after one warm-up call that loads the compiled kernels. See
``docs/kernels.md`` for what each ratio compares and the JSON keys.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import typer
from rich.console import Console
from rich.table import Table as RichTable

from ..engines import ENGINES
from . import app, fail, print_json

#: Default sizes: each finishes the whole run in about a minute on a 2-core machine.
ENGINE_SIZES = "1000,3000"
SUM_SIZE = 10**8
TEXTBOOK_SIZE = 3000
TABLE_SIZE = 6000
LARGE_TABLE_SIZE = 20_000

Timer = Callable[[], object]


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
    """Each engine's ``coinrow.solve`` time at each size, with the path it took."""
    from ..numbers import KERNEL_MIN_LENGTH, kernel_row
    from ..solution import solve

    rows = []
    for n in sizes:
        coins = random_row(n, seed=n).tolist()  # Python ints, as most users pass them
        for engine in ENGINES:
            if engine == "brute" and n > 20:
                continue
            kernel = kernel_row(coins, KERNEL_MIN_LENGTH.get(engine)) is not None
            if kernel:
                solve(coins, engine=engine)  # warm-up: loads the kernels
            seconds = best_time(functools.partial(solve, coins, engine), repeat)
            path = "kernel" if kernel else "python"
            rows.append({"n": n, "engine": engine, "path": path, "seconds": seconds})
    return rows


def reduction_vs_sum(n: int, repeat: int) -> dict[str, Any]:
    """``coinrow.solve`` (value and line, the line kept as its byte codes) against
    ``numpy.sum`` over the same int64 array."""
    from ..solution import solve

    coins = random_row(n)
    solve(coins[: min(n, 1 << 17)])
    sum_seconds = best_time(lambda: coins.sum(), repeat)
    solve_seconds = best_time(lambda: solve(coins).margin, repeat)
    return {
        "n": n,
        "sum_seconds": sum_seconds,
        "reduction_seconds": solve_seconds,
        "ratio": solve_seconds / sum_seconds,
    }


def reduction_vs_textbook(n: int, repeat: int) -> dict[str, Any]:
    """The reduction (compiled, and pure Python) against the textbook pure-Python DP."""
    from ..engines import reduction

    array = random_row(n)
    coins = array.tolist()
    reduction.solve_int64(array)
    textbook_seconds = best_time(lambda: textbook_first_total(coins), 1)
    kernel_seconds = best_time(lambda: reduction.solve_int64(array), max(repeat, 5))
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

    from ..engines.kernels import fill_table, table_arrays
    from ..engines.table import cell_count

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
    from ..engines.table import KERNEL_BYTES_PER_CELL, Table, cell_count

    coins = random_row(n)
    start = time.perf_counter()
    table = Table(coins)
    seconds = time.perf_counter() - start
    top = table.value(0, n - 1)
    return {
        "n": n,
        "subgames": cell_count(n),
        "seconds": seconds,
        "bytes": cell_count(n) * KERNEL_BYTES_PER_CELL,
        "top_value": top,
    }


@contextlib.contextmanager
def _progress(total: int, hidden: bool) -> Iterator[Callable[[str], None]]:
    """A Rich progress bar on stderr; yields ``advance(description)``."""
    if hidden or not sys.stderr.isatty():
        yield lambda description: None
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("bench", total=total)
        yield lambda description: bar.update(task, advance=1, description=description)


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        fail(f"--sizes must be comma-separated integers, got {text!r}")
    if any(size < 1 for size in sizes):
        fail("--sizes must be positive")
    return sizes


@app.command("bench")
def bench_command(
    sizes: str = typer.Option(
        ENGINE_SIZES, "--sizes", help="Comma-separated row lengths for the per-engine times."
    ),
    sum_size: int = typer.Option(
        SUM_SIZE, "--sum-size", min=2, help="Row length for the reduction vs numpy.sum ratio."
    ),
    textbook_size: int = typer.Option(
        TEXTBOOK_SIZE, "--textbook-size", min=2, help="Row length for the reduction vs textbook DP."
    ),
    table_size: int = typer.Option(
        TABLE_SIZE,
        "--table-size",
        min=2,
        help="Row length for the table kernel vs the NumPy sweep.",
    ),
    large_table_size: int = typer.Option(
        LARGE_TABLE_SIZE, "--large-table-size", min=0, help="Row length of one big Table (0: skip)."
    ),
    repeat: int = typer.Option(3, "--repeat", min=1, help="Runs per figure; the best counts."),
    quick: bool = typer.Option(
        False, "--quick", help="Tiny sizes (seconds in all): checks the command, not speed."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the results as JSON."),
) -> None:
    """Time every engine and print the ratios that matter, measured side by side.

    JSON keys: machine {cpus, numpy, numba}; engines [{n, engine, path, seconds}];
    reduction_vs_sum {n, sum_seconds, reduction_seconds, ratio};
    reduction_vs_textbook {n, textbook_seconds, reduction_seconds, ratio,
    python_reduction_seconds, python_ratio}; table {n, subgames, numpy_sweep_seconds,
    kernel_seconds, allocation_seconds, fresh_seconds, subgames_per_second, ratio,
    ratio_fresh};
    large_table {n, subgames, seconds, bytes, top_value} (null when skipped); interrupted.
    """
    import numba
    import numpy

    engine_sizes = _sizes(sizes)
    if quick:
        engine_sizes, sum_size, textbook_size, table_size = [50, 200], 10**5, 60, 200
        large_table_size, repeat = min(large_table_size, 300), 1
    results: dict[str, Any] = {
        "machine": {"cpus": os.cpu_count(), "numpy": numpy.__version__, "numba": numba.__version__}
    }
    steps: list[tuple[str, Callable[[], Any]]] = [
        ("engines", lambda: engine_times(engine_sizes, repeat)),
        ("reduction_vs_sum", lambda: reduction_vs_sum(sum_size, repeat)),
        ("reduction_vs_textbook", lambda: reduction_vs_textbook(textbook_size, repeat)),
        ("table", lambda: table_vs_numpy(table_size, repeat)),
        ("large_table", lambda: large_table(large_table_size) if large_table_size else None),
    ]
    results["interrupted"] = False
    with _progress(len(steps), as_json) as advance:
        try:
            for key, measure in steps:
                advance(f"measuring {key}")
                results[key] = measure()
        except KeyboardInterrupt:  # keep and print what was measured
            results["interrupted"] = True
    if as_json:
        print_json(results)
    else:
        print_bench(results, Console())
    if results["interrupted"]:
        raise typer.Exit(130)


def print_bench(results: dict[str, Any], console: Console) -> None:
    """Rich tables of the results (whatever was measured)."""
    if "engines" in results:
        engines = RichTable(title="coinrow.solve time per engine")
        for header in ("n", "engine", "path", "seconds"):
            engines.add_column(header, justify="right" if header in ("n", "seconds") else "left")
        for row in results["engines"]:
            engines.add_row(f"{row['n']:,}", row["engine"], row["path"], f"{row['seconds']:.6f}")
        console.print(engines)
    ratios = RichTable(title="Ratios measured in this run")
    for header in ("comparison", "n", "coinrow", "baseline", "ratio"):
        ratios.add_column(header, justify="left" if header == "comparison" else "right")
    rows = [
        ("reduction_vs_sum", "solve / numpy.sum", "reduction_seconds", "sum_seconds"),
        (
            "reduction_vs_textbook",
            "textbook DP / reduction",
            "reduction_seconds",
            "textbook_seconds",
        ),
        ("table", "NumPy top-value sweep / table kernel", "kernel_seconds", "numpy_sweep_seconds"),
    ]
    for key, label, ours, theirs in rows:
        if results.get(key):
            data = results[key]
            ratios.add_row(
                label,
                f"{data['n']:,}",
                f"{data[ours]:.6f} s",
                f"{data[theirs]:.6f} s",
                f"{data['ratio']:,.2f}",
            )
    console.print(ratios)
    if results.get("reduction_vs_textbook"):
        data = results["reduction_vs_textbook"]
        console.print(
            f"Pure-Python reduction: {data['python_reduction_seconds']:.6f} s, "
            f"{data['python_ratio']:,.0f} x faster than the textbook DP."
        )
    if results.get("table"):
        data = results["table"]
        console.print(
            f"Table kernel: {data['subgames_per_second']:,.0f} subgames/s. First touch of "
            f"fresh arrays for its {data['subgames']:,} subgames: "
            f"{data['allocation_seconds']:.6f} s alone; allocation and fill together as "
            f"Table does it: {data['fresh_seconds']:.6f} s (ratio {data['ratio_fresh']:.2f})."
        )
    if results.get("large_table"):
        data = results["large_table"]
        console.print(
            f"Table of {data['n']:,} coins ({data['subgames']:,} subgames, "
            f"{data['bytes'] / 2**30:.2f} GiB): {data['seconds']:.2f} s."
        )
    if results.get("interrupted"):
        console.print("Interrupted: the figures above are the ones measured so far.")
