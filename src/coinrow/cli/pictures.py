"""``coinrow table``: the triangle of every subgame in the terminal, as SVG, HTML or JSON."""

from __future__ import annotations

import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import typer
from rich.console import Console

from ..diagram import check_length, check_view, table_data
from ..engines.table import cell_count
from ..errors import CoinrowError, TableTooLargeError
from ..numbers import Row, Value, exact_arithmetic
from ..rules import Rules
from ..svg import html_page, triangle, variant_triangle
from ..tables import Table
from ..text import columns, variant_columns
from ..text import triangle as text_triangle
from ..text import variant_triangle as text_variant_triangle
from .common import (
    CoinsArgument,
    FileOption,
    app,
    check_output_path,
    fail,
    json_option,
    print_json,
    read_coins,
    rules_option,
    size_text,
)

if TYPE_CHECKING:
    from ..diagram import View
    from ..engines.interval import IntervalTable

#: Longest row ``--json`` prints every cell of (500,500 cells).
JSON_LIMIT = 1000

#: Most bytes ``--json``, ``--svg`` or ``--html`` may write, estimated up front from the
#: size of the numbers.
MAX_OUTPUT_BYTES = 2**29

#: Bytes of one cell besides its numbers: JSON keys, moves and indentation; SVG shapes.
CELL_BYTES = {"json": 120, "svg": 400}

#: Widest text picture printed (ordinary rows of 40 coins need a few hundred columns).
MAX_TEXT_COLUMNS = 4000


@app.command("table")
def table_command(
    coins: CoinsArgument = None,
    file: FileOption = None,
    margin: bool = typer.Option(
        False, "--margin", help="Show the mover's margin instead of the mover's total."
    ),
    view: str | None = typer.Option(
        None,
        "--view",
        help="What each cell shows: total, margin or first (see docs/svg.md).",
        show_default="total; margin under --rules other than plain",
    ),
    highlight: str | None = typer.Option(
        None, "--highlight", help="Highlight a line of moves such as LRL, or 'best'."
    ),
    svg: Path | None = typer.Option(None, "--svg", help="Write the diagram as SVG to FILE."),
    html: Path | None = typer.Option(
        None, "--html", help="Write a standalone HTML page with the diagram to FILE."
    ),
    size: int | None = typer.Option(
        None, "--size", help="SVG width in pixels.", show_default="sized to the row"
    ),
    rules: str = rules_option(
        "The rules of the game: plain, misere, stone-game-vii, take:K, take:any or "
        "both-ends (the rules with a table of subgames; docs/variants.md). Under other rules "
        "than plain each cell shows the mover's margin in what the rules score (--view total: "
        "the coins the mover takes) and its optimal moves (L2, B); --highlight takes a line "
        "of the rules' moves such as 'L2 R1'.",
    ),
    as_json: bool = json_option(
        "Print JSON: coins, first_total, second_total, margin, and cells, a list "
        "of {i, j, value, margin, moves, player} (0-based i..j, value = the mover's best total). "
        f"At most {JSON_LIMIT} coins, and output estimated under {MAX_OUTPUT_BYTES // 2**20} MiB.",
    ),
) -> None:
    """Draw the triangle of every subgame (text, SVG or HTML).

    Each cell sits above its coins and shows the most
    the player to move can get, with arrows for the best moves (blue: first player to move,
    green: second). Pictures show at most 40 coins; the terminal picture must also fit the
    terminal's width (use --svg or --html for wide rows)."""
    if margin and view not in (None, "total", "margin"):
        fail("give either --margin or --view, not both")
    game_rules = Rules.parse(rules)
    if not game_rules.is_plain:
        outputs = [(path, kind) for path, kind in ((svg, "SVG"), (html, "HTML")) if path]
        for path, kind in outputs:
            check_output_path(path, f"--{kind.lower()}")
        if size is not None and size <= 0:
            fail(f"--size must be a positive number of pixels, not {size}")
        wanted = Picture("margin" if margin else view or "margin", highlight, outputs, size)
        table_rules(read_coins(coins, file), game_rules, as_json, wanted)
        return
    chosen = check_view("margin" if margin else view or "total")
    if size is not None and size <= 0:
        fail(f"--size must be a positive number of pixels, not {size}")
    files = [(path, kind) for path, kind in ((svg, "SVG"), (html, "HTML")) if path is not None]
    for path, kind in files:
        check_output_path(path, f"--{kind.lower()}")
    row = read_coins(coins, file)
    if as_json and not files:
        if len(row) > JSON_LIMIT:
            fail(f"--json prints every cell of at most {JSON_LIMIT} coins; this row has {len(row)}")
        _check_output_size(row, "--json")
        print_json(table_data(_table(row)))
        return
    check_length(len(row))
    for _, kind in files:
        _check_output_size(row, f"--{kind.lower()}")
    table = _table(row)
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


class Picture(NamedTuple):
    """What ``table --rules`` draws: the view, the line to highlight, the files, the size."""

    view: str
    highlight: str | None
    files: list[tuple[Path, str]]
    size: int | None


def table_rules(row: Row, rules: Rules, as_json: bool, picture: Picture) -> None:
    """``table --rules``: every subgame of a variant as JSON, the text triangle, or an SVG or
    HTML picture (:func:`coinrow.svg.variant_triangle`)."""
    if as_json and not picture.files:
        if len(row) > JSON_LIMIT:
            fail(f"--json prints every subgame of at most {JSON_LIMIT} coins")
        _check_output_size(row, "--json")
    else:
        check_length(len(row))
        for _, kind in picture.files:
            _check_output_size(row, f"--{kind.lower()}")
    try:
        table = Table(row, rules=rules)
    except TableTooLargeError as error:
        fail(str(error))
    data = table.to_dict()  # type: ignore[attr-defined]
    if as_json and not picture.files:
        print_json(data)
        return
    variants_table: IntervalTable = table  # type: ignore[assignment]
    try:
        if picture.files:
            drawn = variant_triangle(
                variants_table, picture.view, picture.highlight, size=picture.size
            )
            for path, kind in picture.files:
                title = f"coinrow: {len(row)} coins under {rules}"
                text = drawn if kind == "SVG" else html_page(drawn, title)
                try:
                    path.write_text(text, encoding="utf-8")
                except OSError as error:
                    fail(f"cannot write {path}: {error.strerror}")
            if as_json:
                print_json(data)
            else:
                for path, kind in picture.files:
                    typer.echo(f"wrote {kind} to {path}")
            return
        print_variant_triangle(variants_table, picture.view, picture.highlight)
    except CoinrowError as error:
        fail(str(error))


def print_variant_triangle(table: IntervalTable, view: str, line: str | None) -> None:
    """Print a variant's text triangle, refusing when a terminal is too narrow for it."""
    console = _console_for(variant_columns(table, view))
    console.print(text_variant_triangle(table, view, line), soft_wrap=True)


def _table(row: Row) -> Table:
    try:
        return Table(row)
    except TableTooLargeError as error:
        fail(f"{str(error).partition('; use')[0]}; use coinrow solve for the totals")


def _check_output_size(row: Row, option: str) -> None:
    """Refuse ``--json``, ``--svg`` or ``--html`` when the text written would exceed
    :data:`MAX_OUTPUT_BYTES`, estimated from the numbers' sizes (O(n)): every cell's value
    and margin is at most the sum of the coins' absolute values, and a picture's cells also
    list their coins in their tooltips (n^3 / 6 coins in all)."""
    n = len(row)
    with exact_arithmetic():
        bound = sum((abs(coin) for coin in row), 0 * row[0] if row else 0)
    digits = text_length(bound)
    if option == "--json":
        needed = cell_count(n) * (CELL_BYTES["json"] + 2 * digits) + n * digits
    else:
        coin_digits = max((text_length(coin) for coin in row), default=1)
        needed = cell_count(n) * (CELL_BYTES["svg"] + 3 * digits)
        needed += n**3 // 6 * (coin_digits + 2)
    if needed > MAX_OUTPUT_BYTES:
        fail(
            f"{option} would write about {size_text(needed)} ({cell_count(n):,} cells with "
            f"numbers of up to {digits:,} characters), over the {size_text(MAX_OUTPUT_BYTES)} "
            "limit; use coinrow solve --json for the totals"
        )


def text_length(value: Value) -> int:
    """Characters of the exact text of a value (:func:`coinrow.numbers.format_value`), to a
    few characters, without writing it (O(1); O(digits) for a Decimal).

    >>> text_length(10**5000), text_length(Decimal("1E+99999")), text_length(Fraction(1, 3))
    (5002, 100001, 5)
    """
    if isinstance(value, Fraction):
        return _int_length(value.numerator) + 1 + _int_length(value.denominator)
    if isinstance(value, Decimal):
        _, digits, exponent = value.as_tuple()
        if exponent >= 0:  # type: ignore[operator]
            return len(digits) + exponent + 1  # type: ignore[operator]
        return max(len(digits), -exponent + 1) + 2  # type: ignore[operator]
    return _int_length(value)


def _int_length(number: int) -> int:
    return number.bit_length() * 30103 // 100000 + 2  # log10(2) = 0.30103: digits and sign


def print_triangle(table: Table, view: View, line: str | None) -> None:
    """Print the text triangle, refusing when a terminal is too narrow for it."""
    needed = columns(table, view)
    if needed > MAX_TEXT_COLUMNS:
        fail(
            f"the triangle needs {needed:,} columns, over the {MAX_TEXT_COLUMNS:,} a text "
            "picture prints; use --svg FILE or --html FILE"
        )
    console = _console_for(needed)
    console.print(text_triangle(table, view=view, highlight=line), soft_wrap=True)


def _console_for(needed: int) -> Console:
    """The console a text triangle ``needed`` columns wide prints on: a terminal's width (the
    command stops when it is narrower), else at least ``needed`` columns."""
    terminal = sys.stdout.isatty()
    console = Console(width=None if terminal else max(needed, 100), highlight=False)
    if terminal and needed > console.width:
        fail(
            f"the triangle needs {needed} columns but the terminal has {console.width}; "
            "widen it, or use --svg FILE or --html FILE"
        )
    return console


def _page_title(table: Table) -> str:
    n = len(table)
    return f"coinrow: the triangle of {n} coin{'s' if n != 1 else ''}"
