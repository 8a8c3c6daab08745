"""``coinrow census``: every row of a family solved and counted, strategies checked, on this
machine or a Dask cluster (the library is :mod:`coinrow.census`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.markup import escape

from ..numbers import format_value
from ..rules import plain_moves
from ..strategies import names
from .common import (
    alphabet_text,
    app,
    check_output_path,
    fail,
    fitted_table,
    json_option,
    print_json,
    progress_bar,
    rules_option,
)

if TYPE_CHECKING:
    from ..census import Census, CensusResult, Family

#: The values of every-row families, and of random rows, when --values is not given.
WORD_VALUES, RANDOM_VALUES = "1,2", "1..9"

#: Most margins listed one per line in the summary (more are summarised).
LISTED_MARGINS = 25

#: Most recomputed shards or ignored manifest lines named one per line on stderr (the
#: JSON lists them all).
LISTED_REPAIRS = 20


@app.command("census")
def census_command(
    length: int | None = typer.Option(
        None, "--length", "-n", help="Rows of exactly this many coins (every row over --values)."
    ),
    max_length: int | None = typer.Option(
        None, "--max-length", "-m", help="Rows of 1 to this many coins (every row over --values)."
    ),
    compositions: int | None = typer.Option(
        None, "--compositions", help="Every composition of this total, in standard order."
    ),
    random_count: int | None = typer.Option(
        None, "--random", help="This many random rows of --length coins (--values, --seed)."
    ),
    values: str | None = typer.Option(
        None,
        "--values",
        help="Coin values: a list such as 1,2,5 or a range LO..HI (integers).",
        show_default=f"{WORD_VALUES}; {RANDOM_VALUES} with --random",
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the random rows."),
    strategy: list[str] | None = typer.Option(
        None,
        "--strategy",
        "-s",
        help="Check this strategy (repeatable): how often it gets the optimal total against "
        "the optimal opponent that hurts it most. Built-ins run compiled: "
        f"{', '.join(names())}; module:function runs through Python.",
    ),
    examples: int = typer.Option(
        3,
        "--examples",
        "-k",
        help="Counterexamples kept per strategy (0 to 10,000), first in family order; every "
        "one is counted.",
    ),
    out: Path | None = typer.Option(
        None, "--out", help="Write one Parquet file per shard and a manifest to this folder."
    ),
    rows: bool = typer.Option(
        False, "--rows", help="With --out: also write every row's result (small families)."
    ),
    resume: Path | None = typer.Option(
        None, "--resume", help="Continue the census recorded in this folder (same options)."
    ),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="Run on an existing Dask cluster (tcp://HOST:PORT)."
    ),
    workers: int | None = typer.Option(
        None,
        "--workers",
        help="Processes of the local Dask cluster; 0 runs in this process.",
        show_default="one per core; 0 for small censuses",
    ),
    connect_timeout: float = typer.Option(
        10.0, "--connect-timeout", help="Seconds to keep trying to reach --scheduler."
    ),
    shard_rows: int | None = typer.Option(
        None, "--shard-rows", help="Rows per shard.", show_default="sized to the family"
    ),
    plot: Path | None = typer.Option(
        None, "--plot", help="Draw the margin histogram (and optimality rates) to this image."
    ),
    rules: str = rules_option(
        "The rules of the game: plain, circular (the pizza: smallest first-player "
        "share, 4/9 checked), misere, stone-game-vii, take:K, take:any, both-ends, "
        "reply:STRATEGY. Strategies and --rows are for the plain game.",
    ),
    as_json: bool = json_option(
        "Print JSON: family, rows, outcomes {first, tie, second}, margin_histogram "
        '{"<margin>": rows}, first_moves {"L", "R", "L R"}, strategies {name: {optimal, '
        "optimal_rate, counterexamples, regret_total, mean_regret, worst_regret, examples}}, "
        "shards {total, computed, reused, recomputed, ignored_lines}, seconds, "
        "rows_per_second, out, rules, variant (null in the plain game; else first_moves, "
        "share {sense, value, float, rows, examples, excluded_rows}, four_ninths).",
    ),
) -> None:
    """Count a family of rows: outcomes, margins, strategies.

    Every row's outcome, margin and first moves, and how often each strategy plays optimally.

    Families: --length N (every row of N coins over --values), --max-length M (every row of
    1 to M coins), --compositions M (every composition of M), --random COUNT --length N (random
    rows, --values and --seed). Every row is solved exactly (compiled, sharing the work of
    rows with a common prefix); the shards run on a local Dask cluster, or on --scheduler."""
    if resume is not None and out is not None and resume != out:
        fail("--resume DIR continues the census in DIR; leave out --out or give the same folder")
    if plot is not None:
        from ..plot import FORMATS

        if plot.suffix.lower() not in FORMATS:
            fail(f"--plot {plot.name}: use one of the suffixes {', '.join(FORMATS)}")
        check_output_path(plot, "--plot")
    from ..census import Census

    family = _family(length, max_length, compositions, random_count, values, seed)
    census = Census(
        family,
        strategy or [],
        examples=examples,
        rows=rows,
        shard_rows=shard_rows,
        out=resume if resume is not None else out,
        resume=resume is not None,
        rules=rules,
    )
    _report_repairs(census)
    if scheduler is None:
        _compile_notice(census)
    described = f"{census.missing_count:,} of {census.shard_count:,} shards"
    with progress_bar(
        described, census.rows, as_json, completed=census.done_rows, unit="rows"
    ) as advance:
        result = census.run(
            scheduler=scheduler,
            workers=workers,
            progress=advance,
            timeout=connect_timeout,
        )
    if plot is not None:
        _plot(result, plot)
    if as_json:
        print_json(result.to_dict())
    else:
        _print(result, Console(highlight=False))


def _family(
    length: int | None,
    max_length: int | None,
    compositions: int | None,
    random_count: int | None,
    values: str | None,
    seed: int,
) -> Family:
    """The family the options describe (exactly one kind)."""
    from ..census import Compositions, RandomRows, Words, WordsUpTo

    kinds = [
        name
        for name, given in (
            ("--max-length", max_length is not None),
            ("--compositions", compositions is not None),
            ("--random", random_count is not None),
        )
        if given
    ]
    if len(kinds) > 1:
        fail(f"choose one family: {' or '.join(kinds)}")
    if not kinds and length is None:
        fail("no family given: use --length N, --max-length M, --compositions M or --random")
    if random_count is not None:
        if length is None:
            fail("--random COUNT needs --length N (the coins per row)")
        return RandomRows.of(
            random_count, length, RANDOM_VALUES if values is None else values, seed
        )
    if compositions is not None:
        if length is not None:
            fail("--compositions M takes every length; leave out --length")
        if values is not None:
            fail("--compositions M takes every positive value; leave out --values")
        return Compositions.of(compositions)
    if max_length is not None and length is not None:
        fail("give --length N (one length) or --max-length M (lengths 1 to M), not both")
    alphabet = alphabet_text(WORD_VALUES if values is None else values, "--values")
    if max_length is not None:
        return WordsUpTo.of(alphabet, max_length)
    return Words.of(alphabet, length or 0)


def _compile_notice(census: Census) -> None:
    """One line on stderr, beside the progress bar, when this machine's first census of the
    family's kind will compile the kernels (shown only where the bar is: a terminal)."""
    from ..census import COMPILE_SECONDS, VARIANT_COMPILE_SECONDS, kernels_warm

    console = Console(stderr=True, highlight=False)
    if not (console.is_terminal and census.missing_count):
        return
    job = census.job
    plain = job.plain
    if not (kernels_warm(job.family) if plain else kernels_warm(job.family, job.rules)):
        seconds = COMPILE_SECONDS if plain else VARIANT_COMPILE_SECONDS
        console.print(f"compiling the census kernels once, about {seconds} s")


def _report_repairs(census: Census) -> None:
    """On stderr, one line per recorded shard computed again and per manifest line not used
    (the first :data:`LISTED_REPAIRS` of each; the JSON lists them all)."""
    notes = [f"shard {item['shard']} is computed again: {item['reason']}"
             for item in census.recomputed]  # fmt: skip
    lines = [
        f"manifest line {item.line} is ignored: {item.reason}" if item.line else item.reason
        for item in census.ignored_lines
    ]
    for group, what in ((notes, "shards computed again"), (lines, "manifest lines ignored")):
        for note in group[:LISTED_REPAIRS]:
            sys.stderr.write(f"coinrow: note: {escape_line(note)}\n")
        if len(group) > LISTED_REPAIRS:
            sys.stderr.write(
                f"coinrow: note: {len(group) - LISTED_REPAIRS:,} more {what} (see --json)\n"
            )


def escape_line(text: str) -> str:
    """One line of plain text: control characters (from a damaged manifest) shown escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _print(result: CensusResult, console: Console) -> None:
    family = result.family
    console.print(
        f"[bold]Census of {escape(family.describe())}[/]: {result.rows:,} rows, "
        f"{result.shards} shard{'s' if result.shards != 1 else ''}"
        + (f" ({result.reused} resumed)" if result.reused else "")
        + (f" ({len(result.recomputed)} computed again)" if result.recomputed else "")
        + f", {result.seconds:.1f} s"
        + (f", {result.rows_per_second:,.0f} rows/s" if result.rows_computed else "")
        + "."
    )
    outcomes = result.outcomes
    console.print(
        "Optimal play: "
        + ", ".join(
            f"{label} {outcomes[key]:,} ({_share(outcomes[key], result.rows)})"
            for key, label in (
                ("first", "the first player wins"),
                ("tie", "ties"),
                ("second", "the second player wins"),
            )
        )
        + "."
    )
    moves = result.first_moves
    if result.variant is None:
        only_left, only_right, both = (moves[plain_moves(text)] for text in ("L", "R", "LR"))
        console.print(
            f"Optimal first moves: only L {only_left:,}, only R {only_right:,}, "
            f"both {both:,}"
            + (" (from R by reversal)." if result.first_moves_by == "reversal" else ".")
        )
    elif moves:
        listed = sorted(moves.items(), key=lambda item: -item[1])
        shown = ", ".join(f"{escape(' or '.join(name))}: {count:,}" for name, count in listed[:8])
        more = f", {len(listed) - 8} more sets (see --json)" if len(listed) > 8 else ""
        console.print(f"Optimal first moves (rows per set of moves): {shown}{more}.")
    if result.variant is not None:
        _print_variant(result, console)
    _print_histogram(result, console)
    if result.strategies:
        _print_strategies(result, console)
    if result.out is not None:
        console.print(f"Shards and manifest in {escape(str(result.out))}.")


def _print_variant(result: CensusResult, console: Console) -> None:
    """The share lines of a census under other rules (docs/census.md)."""
    data = result.to_dict()["variant"]
    share = data["share"]
    if share is not None and share["value"] is not None:
        console.print(
            f"Under {escape(result.rules)}, the {share['sense']} first-player share is "
            f"[bold]{share['value']}[/] ({share['float']:.4f}), reached by {share['rows']:,} "
            f"row{'s' if share['rows'] != 1 else ''}"
            + (
                f"; {share['excluded_rows']:,} row(s) with no positive total have no share"
                if share["excluded_rows"]
                else ""
            )
            + "."
        )
        for example in share["examples"]:
            coins = " ".join(map(str, example["coins"]))
            console.print(
                f"  #{example['index']}: [bold]{coins}[/]: first {example['first_total']} "
                f"of {example['total']}"
            )
    nine = data["four_ninths"]
    if nine is not None:
        verdict = (
            "does not apply (negative slices)"
            if not nine["applies"]
            else "holds"
            if nine["holds"]
            else "is VIOLATED"
        )
        console.print(f"The 4/9 bound {verdict}: {nine['rows_below']:,} rows below 4/9.")


def _share(count: int, total: int) -> str:
    return f"{count / total:.1%}" if total else "-"


def _print_histogram(result: CensusResult, console: Console) -> None:
    histogram = result.histogram
    table = fitted_table(
        ("Margin", "Rows", "Share"), title="Margins (first player's total minus the second's)"
    )
    margins = sorted(histogram)
    shown = margins if len(margins) <= LISTED_MARGINS else margins[:10] + margins[-10:]
    for position, margin in enumerate(shown):
        if len(shown) < len(margins) and position == 10:
            table.add_row("...", f"{len(margins) - 20} more", "")
        table.add_row(
            f"{margin:+d}", f"{histogram[margin]:,}", _share(histogram[margin], result.rows)
        )
    console.print(table)


def _print_strategies(result: CensusResult, console: Console) -> None:
    table = fitted_table(
        ("Strategy", "Optimal", "Rate", "Counter examples", "Mean regret", "Worst regret"),
        text=("Strategy",),
        title="Strategies (first, against the optimal opponent that hurts them most)",
    )
    for summary in result.strategies:
        table.add_row(
            escape(summary.name) + ("" if summary.compiled else " (Python)"),
            f"{summary.optimal:,}",
            f"{summary.optimal_rate:.2%}",
            f"{summary.counterexamples:,}",
            f"{summary.mean_regret:.4f}",
            str(summary.worst_regret),
        )
    console.print(table)
    for summary in result.strategies:
        for example in summary.examples:
            found = example.counterexample
            coins = " ".join(format_value(coin) for coin in found.coins)
            console.print(
                f"{escape(summary.name)} #{example.label}: [bold]{coins}[/]: gets "
                f"{format_value(found.strategy_total)}, the optimum is "
                f"{format_value(found.optimal_total)} (lines {found.strategy_line} and "
                f"{found.optimal_line})"
            )


def _plot(result: CensusResult, path: Path) -> None:
    from ..plot import census_chart

    rates = {summary.name: summary.optimal_rate for summary in result.strategies}
    census_chart(path, f"Census of {result.family.describe()}", result.histogram, rates or None)


__all__ = ["census_command"]
