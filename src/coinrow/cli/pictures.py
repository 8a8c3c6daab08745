"""``coinrow table``: the triangle of every subgame in the terminal, as SVG, HTML or JSON."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console

from ..engines.table import Table
from . import COIN_ARGS, CoinsArgument, FileOption, app, fail, print_json, read_coins

if TYPE_CHECKING:  # coinrow.diagram is imported when the command runs, not at start-up
    from ..diagram import View

#: Longest row ``--json`` prints every cell of (500,500 cells).
JSON_LIMIT = 1000


@app.command("table", context_settings=COIN_ARGS)
def table_command(
    coins: CoinsArgument = None,
    file: FileOption = None,
    margin: bool = typer.Option(
        False, "--margin", help="Show the mover's margin instead of the mover's total."
    ),
    view: str = typer.Option(
        "total", "--view", help="What each cell shows: total, margin or first (see docs/svg.md)."
    ),
    highlight: str | None = typer.Option(
        None, "--highlight", help="Highlight a line of moves such as LRL, or 'best'."
    ),
    svg: Path | None = typer.Option(None, "--svg", help="Write the diagram as SVG to FILE."),
    html: Path | None = typer.Option(
        None, "--html", help="Write a standalone HTML page with the diagram to FILE."
    ),
    size: int | None = typer.Option(None, "--size", help="SVG width in pixels."),
    as_json: bool = typer.Option(
        False,
        "--json",
        help="Print JSON: coins, first_total, second_total, margin, and cells, a list "
        "of {i, j, value, margin, moves, player} (0-based i..j, value = the mover's best total).",
    ),
) -> None:
    """Draw the triangle of every subgame: each cell sits above its coins and shows the most
    the player to move can get, with arrows for the best moves (blue: first player to move,
    green: second). Pictures show at most 40 coins; the terminal picture must also fit the
    terminal's width (use --svg or --html for wide rows)."""
    if margin and view not in ("total", "margin"):
        fail("give either --margin or --view, not both")
    from ..diagram import check_length, check_view, table_data
    from ..svg import html_page, triangle

    chosen = check_view("margin" if margin else view)
    row = read_coins(coins, file)
    if size is not None and size <= 0:
        fail(f"--size must be a positive number of pixels, not {size}")
    files = [(path, kind) for path, kind in ((svg, "SVG"), (html, "HTML")) if path is not None]
    if as_json and not files:
        if len(row) > JSON_LIMIT:
            fail(f"--json prints every cell of at most {JSON_LIMIT} coins; this row has {len(row)}")
        print_json(table_data(Table(row)))
        return
    check_length(len(row))
    table = Table(row)
    line = table.line if highlight == "best" else highlight
    if files:
        picture = triangle(table, view=chosen, highlight=line, size=size)
        for path, kind in files:
            text = picture if kind == "SVG" else html_page(picture, _page_title(table))
            try:
                path.write_text(text, encoding="utf-8")
            except OSError as error:
                fail(f"cannot write {path}: {error.strerror}")
        if as_json:
            print_json(table_data(table))
        else:
            for path, kind in files:
                typer.echo(f"wrote {kind} to {path}")
        return
    print_triangle(table, chosen, line)


def print_triangle(table: Table, view: View, line: str | None) -> None:
    """Print the text triangle, refusing when a terminal is too narrow for it."""
    from ..text import columns
    from ..text import triangle as text_triangle

    needed = columns(table, view)
    terminal = sys.stdout.isatty()
    console = Console(width=None if terminal else max(needed, 100))
    if terminal and needed > console.width:
        fail(
            f"the triangle needs {needed} columns but the terminal has {console.width}; "
            "widen it, or use --svg FILE or --html FILE"
        )
    console.print(text_triangle(table, view=view, highlight=line), soft_wrap=True)


def _page_title(table: Table) -> str:
    n = len(table)
    return f"coinrow: the triangle of {n} coin{'s' if n != 1 else ''}"
