"""``coinrow puzzles``: rows where the tempting move loses (the same puzzles as the page's)."""

from __future__ import annotations

import datetime

import typer

from ..puzzles import daily_puzzle, puzzles
from . import app, fail, json_option, print_json


@app.command("puzzles")
def puzzles_command(
    count: int = typer.Option(5, "--count", "-n", help="How many puzzles (1 to 1,000)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first puzzle; the next ones follow."),
    daily: bool = typer.Option(False, "--daily", help="Only the daily puzzle (UTC date)."),
    date: str | None = typer.Option(
        None, "--date", metavar="YYYY-MM-DD", help="The daily puzzle of this day (with --daily)."
    ),
    as_json: bool = json_option("Print JSON: a list of puzzles."),
) -> None:
    """Puzzles: find the best move where the larger end coin or the odd/even rule loses.

    Each puzzle prints its row, then the tempting move, what it loses and the best move(s).
    JSON keys: seed, coins, tempting, tempting_rule, tempting_move, best_moves, loss, grade,
    best_total.
    """
    if date is not None and not daily:
        fail("--date goes with --daily")
    if daily:
        day = None
        if date is not None:
            try:
                day = datetime.date.fromisoformat(date)
            except ValueError:
                fail(f"--date: {date!r} is not a date such as 2026-11-23")
        found = [daily_puzzle(day)]
    else:
        if not 1 <= count <= 1000:
            fail(f"--count must be 1 to 1,000, got {count}")
        if seed < 0:
            fail(f"--seed must be >= 0, got {seed}")
        found = puzzles(count, seed)
    if as_json:
        print_json([p.to_dict() for p in found])
        return
    for index, found_puzzle in enumerate(found):
        if index:
            typer.echo()
        typer.echo(f"# puzzle {found_puzzle.seed}: find the best move")
        typer.echo(found_puzzle.to_text())
