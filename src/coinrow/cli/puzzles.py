"""``coinrow puzzles``: rows where the tempting move loses (the same puzzles as the page's)."""

from __future__ import annotations

import datetime
import sys

import typer

from ..puzzles import daily_puzzle, puzzles
from .common import app, fail, json_option, print_json


@app.command("puzzles")
def puzzles_command(
    count: int = typer.Option(5, "--count", "-c", help="How many puzzles (1 to 1,000)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first puzzle; the next ones follow."),
    daily: bool = typer.Option(False, "--daily", help="Only the daily puzzle (UTC date)."),
    date: str | None = typer.Option(
        None, "--date", metavar="YYYY-MM-DD", help="The daily puzzle of this day (with --daily)."
    ),
    as_json: bool = json_option("Print JSON: a list of puzzles."),
) -> None:
    """Puzzles: find the best first move where a tempting rule loses.

    Each puzzle is a row on which taking the larger end coin, or the richer group of odd or
    even places, loses at the first move. The rows come first; the answers (the tempting
    move, what it loses and the best move or moves) come after them all, once you press
    Enter when at a terminal.

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
    answers = []
    for found_puzzle in found:
        row, answer = found_puzzle.to_text().split("\n")
        typer.echo(f"# puzzle {found_puzzle.seed}: you move first; find the best move\n{row}\n")
        answers.append(f"# puzzle {found_puzzle.seed}: {answer}")
    if sys.stdin.isatty() and sys.stdout.isatty():
        typer.echo("Press Enter for the answers.", nl=False)
        if not sys.stdin.readline():
            return
    typer.echo("Answers\n" + "\n".join(answers))
