"""``coinrow bench``: engine times and side-by-side ratios, measured in one run.

Every figure is the best of ``--repeat`` wall-clock runs (``time.perf_counter``) on random
int64 rows (seeded), after one warm-up call that loads the compiled kernels. See
``docs/kernels.md`` for what each ratio compares and the JSON keys.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

import typer
from rich.console import Console
from rich.table import Table as RichTable

from ..benchmark import (
    ENGINE_SECONDS,
    ENGINE_SIZES,
    LARGE_TABLE_SIZE,
    MAX_ENGINE_SIZE,
    MAX_REPEAT,
    MAX_SUM_SIZE,
    MAX_TEXTBOOK_SIZE,
    SUM_SIZE,
    TABLE_SIZE,
    TEXTBOOK_SIZE,
    engine_times,
    large_table,
    machine_info,
    max_table_size,
    reduction_sizes,
    reduction_vs_sum,
    reduction_vs_textbook,
    table_vs_numpy,
)
from .common import app, fail, json_option, print_json

#: What --quick sets, for every option not given explicitly.
QUICK = {
    "sizes": "50,200",
    "sum_size": 10**5,
    "textbook_size": 60,
    "table_size": 200,
    "large_table_size": 300,
    "repeat": 1,
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
    if not sizes:
        fail("--sizes needs at least one row length")
    if not all(1 <= size <= MAX_ENGINE_SIZE for size in sizes):
        fail(f"--sizes must be 1 to {MAX_ENGINE_SIZE:,} coins each, got {text}")
    return sizes


@app.command("bench")
def bench_command(
    ctx: typer.Context,
    sizes: str = typer.Option(
        ENGINE_SIZES,
        "--sizes",
        help=f"Comma-separated row lengths for the per-engine times (up to {MAX_ENGINE_SIZE:,}; "
        f"an engine estimated to take over {ENGINE_SECONDS:.0f} s at a size is left out there).",
    ),
    sum_size: int = typer.Option(
        SUM_SIZE,
        "--sum-size",
        help=f"Row length for the reduction vs numpy.sum ratio (2 to {MAX_SUM_SIZE:,}).",
    ),
    textbook_size: int = typer.Option(
        TEXTBOOK_SIZE,
        "--textbook-size",
        help="Row length for the reduction vs the pure-Python textbook DP (2 to "
        f"{MAX_TEXTBOOK_SIZE:,}: O(n^2) time and memory, about 15 s and 0.6 GB at the top).",
    ),
    table_size: int = typer.Option(
        TABLE_SIZE,
        "--table-size",
        help="Row length for the table kernel vs the NumPy sweep (2 up to the table's memory "
        "budget).",
    ),
    large_table_size: int = typer.Option(
        LARGE_TABLE_SIZE,
        "--large-table-size",
        help="Row length of one big Table (0: skip; at most the table's memory budget).",
    ),
    repeat: int = typer.Option(
        3, "--repeat", help=f"Runs per figure (1 to {MAX_REPEAT}); the best counts."
    ),
    quick: bool = typer.Option(
        False,
        "--quick",
        help="Tiny sizes and one run (seconds in all: checks the command, not speed) for every "
        "option not given explicitly; explicit --sizes, --repeat... are kept.",
    ),
    as_json: bool = json_option("Print the results as JSON."),
) -> None:
    """Time every engine and print the ratios that matter.

    Measured side by side.

    Needs the fast extra (NumPy and Numba). Every size is checked before anything runs.

    JSON keys: machine {cpus, numpy, numba}; engines [{n, engine, path, seconds}] (engines
    estimated over the time limit at a size are left out); reduction_sizes [{n, cores, runs,
    sum_seconds, copy_seconds, reduction_seconds, one_core_seconds, ratio, copy_ratio,
    one_core_ratio, scaling, median_sum_seconds, median_reduction_seconds, median_ratio}] at
    10^6, 10^7 and --sum-size; reduction_vs_sum (the --sum-size entry);
    reduction_vs_textbook {n, textbook_seconds, reduction_seconds, ratio,
    python_reduction_seconds, python_ratio}; table {n, subgames, numpy_sweep_seconds,
    kernel_seconds, allocation_seconds, fresh_seconds, subgames_per_second, ratio,
    ratio_fresh}; large_table {n, subgames, seconds, bytes, top_value} (null when skipped);
    interrupted.
    """
    machine = machine_info()  # fails first without the fast extra
    given: dict[str, Any] = {
        "sizes": sizes,
        "sum_size": sum_size,
        "textbook_size": textbook_size,
        "table_size": table_size,
        "large_table_size": large_table_size,
        "repeat": repeat,
    }
    if quick:  # tiny values for the options left at their defaults
        for name, value in QUICK.items():
            source = ctx.get_parameter_source(name)
            if source is None or source.name == "DEFAULT":
                given[name] = value
    engine_sizes = _sizes(given["sizes"])
    table_limit = max_table_size()
    checks = [
        ("sum_size", 2, MAX_SUM_SIZE, "an int64 array and the solver's 25 bytes a coin"),
        ("textbook_size", 2, MAX_TEXTBOOK_SIZE, "the textbook DP is O(n^2) pure Python"),
        ("table_size", 2, table_limit, "the table's memory budget"),
        ("large_table_size", 0, table_limit, "the table's memory budget"),
        ("repeat", 1, MAX_REPEAT, "runs per figure"),
    ]
    for name, low, high, why in checks:
        value = given[name]
        if not low <= value <= high:
            option = "--" + name.replace("_", "-")
            fail(f"{option} must be {low:,} to {high:,} ({why}), got {value:,}")
    repeat = given["repeat"]
    results: dict[str, Any] = {"machine": machine}
    steps: list[tuple[str, Callable[[], Any]]] = [
        ("engines", lambda: engine_times(engine_sizes, repeat)),
        (
            "reduction_sizes",
            lambda: [reduction_vs_sum(n, repeat) for n in reduction_sizes(given["sum_size"])],
        ),
        ("reduction_vs_textbook", lambda: reduction_vs_textbook(given["textbook_size"], repeat)),
        ("table", lambda: table_vs_numpy(given["table_size"], repeat)),
        (
            "large_table",
            lambda: large_table(given["large_table_size"]) if given["large_table_size"] else None,
        ),
    ]
    results["interrupted"] = False
    results["reduction_vs_sum"] = None
    with _progress(len(steps), as_json) as advance:
        try:
            for key, measure in steps:
                advance(f"measuring {key}")
                results[key] = measure()
                if key == "reduction_sizes":
                    results["reduction_vs_sum"] = results[key][-1]
        except KeyboardInterrupt:  # keep and print what was measured
            results["interrupted"] = True
    if as_json:
        print_json(results)
    else:
        print_bench(results, Console(highlight=False))
    if results["interrupted"]:
        raise typer.Exit(130)


#: The sentence printed after the tables for each measurement that has one.
NOTES: dict[str, Callable[[dict[str, Any]], str]] = {
    "reduction_vs_textbook": lambda data: (
        f"Pure-Python reduction: {data['python_reduction_seconds']:.6f} s, "
        f"{data['python_ratio']:,.0f} x faster than the textbook DP."
    ),
    "table": lambda data: (
        f"Table kernel: {data['subgames_per_second']:,.0f} subgames/s. First touch of "
        f"fresh arrays for its {data['subgames']:,} subgames: "
        f"{data['allocation_seconds']:.6f} s alone; allocation and fill together as "
        f"Table does it: {data['fresh_seconds']:.6f} s (ratio {data['ratio_fresh']:.2f})."
    ),
    "large_table": lambda data: (
        f"Table of {data['n']:,} coins ({data['subgames']:,} subgames, "
        f"{data['bytes'] / 2**30:.2f} GiB): {data['seconds']:.2f} s."
    ),
}


def print_bench(results: dict[str, Any], console: Console) -> None:
    """Rich tables of the results (whatever was measured)."""
    if "engines" in results:
        engines = RichTable(title="coinrow.solve time per engine")
        for header in ("n", "engine", "path", "seconds"):
            engines.add_column(header, justify="right" if header in ("n", "seconds") else "left")
        for row in results["engines"]:
            engines.add_row(f"{row['n']:,}", row["engine"], row["path"], f"{row['seconds']:.6f}")
        console.print(engines)
    if results.get("reduction_sizes"):
        sizes = RichTable(title="solve() beside numpy.sum and a.copy(), same run (best)")
        for header in ("n", "sum s", "copy s", "solve s", "1 core s", "/sum", "/copy", "speed-up"):
            sizes.add_column(header, justify="right")
        for data in results["reduction_sizes"]:
            seconds = ("sum_seconds", "copy_seconds", "reduction_seconds", "one_core_seconds")
            sizes.add_row(
                f"{data['n']:.0e}",
                *(f"{data[key]:.4f}" for key in seconds),
                f"{data['ratio']:.1f}",
                f"{data['copy_ratio']:.2f}",
                f"{data['scaling']:.2f}/{data['cores']}",
            )
        console.print(sizes)
        console.print(
            "speed-up: one core's time over all cores' (of the cores given); medians of "
            "solve/sum: "
            + ", ".join(f"{d['median_ratio']:.1f}" for d in results["reduction_sizes"])
        )
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
    for key, note in NOTES.items():
        if results.get(key):
            console.print(note(results[key]))
    if results.get("interrupted"):
        console.print("Interrupted: the figures above are the ones measured so far.")
