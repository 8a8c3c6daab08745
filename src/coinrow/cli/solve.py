"""``coinrow solve``: totals, margin, winner, the optimal line and who takes which coins."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table as RichTable

from ..engines import ENGINES
from ..engines.dispatch import compile_notice
from ..errors import TableTooLargeError
from ..numbers import format_value
from ..solution import Solution, solve
from . import (
    CoinsArgument,
    FileOption,
    app,
    check_engine_time,
    fail,
    print_json,
    read_row,
)

#: Longest row whose transcript is printed move by move.
TRANSCRIPT_LIMIT = 100

#: Longest row whose per-coin lists go into ``--json`` without ``--full``.
JSON_LIMIT = 10_000

#: Moves of the line shown in the text output of a longer row.
LINE_SHOWN = 200


@app.command("solve")
def solve_command(
    coins: CoinsArgument = None,
    file: FileOption = None,
    engine: str = typer.Option(
        "reduction",
        "--engine",
        "-e",
        help=f"One of: {', '.join(ENGINES)}. A run estimated to take over a minute (the O(n^2) "
        "engines on long rows) is refused up front.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the solution as JSON."),
    full: bool = typer.Option(
        False,
        "--full",
        help=f"With --json, keep the per-coin keys (coins, line, first_coins, second_coins) "
        f"for rows over {JSON_LIMIT:,} coins too.",
    ),
) -> None:
    """Solve a row: the most each player gets, who wins, and one optimal line.

    JSON keys: n, coins, engine, first_total, second_total, margin, outcome, line,
    first_moves, first_coins, second_coins. Over 10,000 coins the per-coin keys are left
    out unless --full, and "omitted" lists them.
    """
    if engine not in ENGINES:
        fail(f"unknown engine {engine!r}; choose one of: {', '.join(ENGINES)}")
    row = read_row(coins, file)
    check_engine_time(engine, row)
    notice = compile_notice(row, engine)
    if notice:
        typer.echo(notice, err=True)
    try:
        solution = solve(row, engine=engine)
    except TableTooLargeError as error:  # the table's or the memo's memory budget
        fail(f"--engine {engine}: {str(error).partition('; use')[0]}; use the default engine")
    if as_json:
        print_json(solution.to_dict(per_coin_limit=None if full else JSON_LIMIT))
    else:
        print_solution(solution, Console(highlight=False))


def print_solution(solution: Solution, console: Console) -> None:
    """Rich summary, transcript and coins taken."""
    n = len(solution.coins)
    first, second = format_value(solution.first_total), format_value(solution.second_total)
    verdict = {
        "first": f"the first player wins by {format_value(solution.margin)}",
        "second": f"the second player wins by {format_value(-solution.margin)}",
        "tie": "the game is a tie",
    }[solution.outcome]
    console.print(f"{n} coins: first player {first}, second player {second}; {verdict}.")
    best = " or ".join(sorted(solution.first_moves)) or "none"
    line = solution.line if n <= LINE_SHOWN else f"{solution.line[:LINE_SHOWN]}... ({n:,} moves)"
    console.print(f"Best first move: {best}.  Optimal line: {line or '(empty)'}")
    if n > TRANSCRIPT_LIMIT:
        console.print(f"(transcript omitted for more than {TRANSCRIPT_LIMIT} coins; use --json)")
        return
    table = RichTable(title="Optimal play")
    for header in ("#", "Coins left", "Player", "Move", "Takes", "First", "Second"):
        table.add_column(
            header, justify="right" if header in ("#", "Takes", "First", "Second") else "left"
        )
    for row in solution.transcript():
        table.add_row(
            str(row.step),
            str(row.before),
            row.player,
            row.move,
            format_value(row.coin),
            format_value(row.first_total),
            format_value(row.second_total),
        )
    console.print(table)
    for label, indices in (("First", solution.first_coins), ("Second", solution.second_coins)):
        taken = ", ".join(f"{format_value(solution.coins[i])} (#{i + 1})" for i in indices)
        console.print(f"{label} player takes: {taken or 'nothing'}")
