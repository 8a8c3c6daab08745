"""``coinrow bench``: engine times and side-by-side ratios, measured in one run.

Every figure is the best of ``--repeat`` wall-clock runs (``time.perf_counter``) on random
int64 rows (seeded), after one warm-up call that loads the compiled kernels. See
``docs/kernels.md`` for what each ratio compares and the JSON keys.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

import typer
from rich.console import Console
from rich.table import Table as RichTable

from ..benchmark import (
    ENGINE_SIZES,
    LARGE_TABLE_SIZE,
    SUM_SIZE,
    TABLE_SIZE,
    TEXTBOOK_SIZE,
    engine_times,
    large_table,
    reduction_vs_sum,
    reduction_vs_textbook,
    table_vs_numpy,
)
from . import app, fail, print_json


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
