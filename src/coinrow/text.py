"""The triangle diagram of every subgame in a terminal: Unicode text styled with Rich.

The same picture as :mod:`coinrow.svg` (and the same cell model): the coins along the bottom,
each subgame's cell centred above its coins, ``↙`` (take the right coin) and ``↘`` (take the
left coin) under a cell for its optimal moves, in blue on the first player's turn and green on
the second's. Highlighted cells are shown reversed, highlighted moves in orange (``⇣`` marks a
played move that is not optimal).

Every cell is ``width`` characters wide, where ``width`` fits the longest number, so the
triangle needs ``n * width`` columns: :func:`columns` says how many before drawing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text

from .diagram import (
    Highlight,
    View,
    cells,
    check_view,
    picture_table,
    resolve_highlight,
    title,
    variant_cells,
    variant_picture,
    variant_title,
    view_words,
)
from .engines.table import Table
from .errors import PictureError
from .numbers import format_value
from .rules import join_moves

if TYPE_CHECKING:
    from .engines.interval import IntervalTable
    from .solution import Solution

PLAYER_STYLES = {"first": "bold blue", "second": "bold green"}
HIGHLIGHT_STYLE = "bold dark_orange"
ARROWS = {"L": "↘", "R": "↙"}
MISTAKE_ARROWS = {"L": "⇘", "R": "⇙"}


def cell_width(table: Table, view: View = "total") -> int:
    """Characters per cell: the longest number plus a space each side, made even (O(n^2)).

    >>> cell_width(Table([1, 2, 4, 3])), cell_width(Table([100, -3]), "margin")
    (4, 6)
    """
    texts = [format_value(cell.value) for cell in cells(table, view)]
    texts += [format_value(coin) for coin in table.coins]
    longest = max(map(len, texts), default=1) + 2
    return max(4, longest + longest % 2)


def columns(coins: Sequence[object] | Table, view: View = "total") -> int:
    """Terminal columns the triangle needs (O(n^2)).

    >>> columns([1, 2, 4, 3])
    16
    """
    table = picture_table(coins)
    return len(table) * cell_width(table, check_view(view))


class _Canvas:
    """A grid of characters with a Rich style each."""

    def __init__(self, rows: int, width: int) -> None:
        self.chars = [[" "] * width for _ in range(rows)]
        self.styles: list[list[str]] = [[""] * width for _ in range(rows)]

    def put(self, row: int, column: int, text: str, style: str = "") -> None:
        for offset, char in enumerate(text):
            self.chars[row][column + offset] = char
            self.styles[row][column + offset] = style

    def lines(self) -> list[Text]:
        result = []
        for chars, styles in zip(self.chars, self.styles, strict=True):
            line = Text()
            for char, style in zip(chars, styles, strict=True):
                line.append(char, style=style or None)
            line.rstrip()
            result.append(line)
        return result


def triangle(
    coins: Sequence[object] | Table, view: View = "total", highlight: Highlight = None
) -> Text:
    """The triangle of a row of at most 40 coins as styled text, with a title and a legend
    (O(n^2)). ``str()`` of the result is the plain text.

    >>> print(triangle([1, 2, 4, 3]))
    1 2 4 3: first player 5, second player 5: a tie
    cells: the most the player to move can get; ↘ take the left coin, ↙ take the right coin
    blue: first player to move, green: second player to move
           5
           ↙↘
         5   5
         ↙   ↙↘
       2   4   4
       ↙   ↙    ↘
     1   2   4   3
    ----------------
     1   2   4   3
    """
    view = check_view(view)
    table = picture_table(coins)
    marked = resolve_highlight(table, highlight)
    n, width = len(table), cell_width(table, view)
    canvas = _Canvas(2 * n + 1, n * width)
    for cell in cells(table, view):
        size = cell.j - cell.i + 1
        row = 2 * (n - size)
        left = (size - 1) * width // 2 + cell.i * width
        text = format_value(cell.value)
        style = PLAYER_STYLES[cell.player]
        if (cell.i, cell.j) in marked.cells:
            style += " reverse"
        canvas.put(row, left + (width - len(text)) // 2, text, style)
        if size == 1:
            continue
        spread = max(0, width // 4 - 1)
        middle = left + width // 2
        for move, column in (("R", middle - 1 - spread), ("L", middle + spread)):
            played = (cell.i, cell.j, move) in marked.moves
            if move in cell.moves:
                canvas.put(row + 1, column, ARROWS[move], HIGHLIGHT_STYLE if played else style)
            elif played:
                canvas.put(row + 1, column, MISTAKE_ARROWS[move], HIGHLIGHT_STYLE)
    canvas.put(2 * n - 1, 0, "-" * (n * width))
    for index, coin in enumerate(table.coins):
        text = format_value(coin)
        canvas.put(2 * n, index * width + (width - len(text)) // 2, text, "bold")
    legend = [
        Text(title(table), style="bold"),
        Text(f"cells: {VIEW_WORDS[view]}; " + MOVE_LEGEND),
        _players_legend(),
    ]
    if marked.cells:
        legend.append(Text("reversed cells and orange arrows: the highlighted line",
                           style=HIGHLIGHT_STYLE))  # fmt: skip
    body = canvas.lines() if n else []
    return Text("\n").join([*legend, *body])


VIEW_WORDS = {
    "total": "the most the player to move can get",
    "margin": "the player to move's total minus the other's",
    "first": "the first player's points from these coins",
}
MOVE_LEGEND = "↘ take the left coin, ↙ take the right coin"


def _players_legend() -> Text:
    """The legend line of the players' colours."""
    players = Text()
    players.append("blue: first player to move", style=PLAYER_STYLES["first"])
    players.append(", ")
    players.append("green: second player to move", style=PLAYER_STYLES["second"])
    return players


# --- variants -------------------------------------------------------------------------------


def variant_triangle(
    table: IntervalTable, view: str = "margin", highlight: str | None = None
) -> Text:
    """The triangle of a variant's table (``coinrow.Table(coins, rules=R)``, at most 40
    coins) as styled text (O(n^2)): each cell's number (the mover's margin in what the rules
    score, or with ``view="total"`` the coins the mover takes) with its optimal moves under
    it; blue/green by whose turn it is where the rules fix it. ``highlight``: a line of the
    rules' moves or ``"best"``, shown reversed and orange.

    >>> from coinrow import Table
    >>> print(variant_triangle(Table([1, 2, 3], rules="both-ends")))
    1 2 3 (Both ends): the first player's margin 2, line BL
    cells: the mover's margin in what the rules score; under each, every optimal move
         2
         B
       3   5
       B   B
     1   2   3
     LR  LR  LR
    ------------
     1   2   3
    """
    chosen, marked, shown = variant_picture(table, view, highlight)
    n = len(table)
    width = variant_cell_width(table, chosen)
    lines_per_cell = 1 + max((len(_move_lines(c.moves, width)) for c in shown), default=0)
    canvas = _Canvas(lines_per_cell * n + 2, n * width)
    for cell in shown:
        size = cell.j - cell.i + 1
        row = lines_per_cell * (n - size)
        left = (size - 1) * width // 2 + cell.i * width
        style = PLAYER_STYLES[cell.player] if cell.player else "bold"
        if (cell.i, cell.j) in marked.cells:
            style += " reverse"
        text = format_value(cell.value)
        canvas.put(row, left + (width - len(text)) // 2, text, style)
        played = set(marked.played(cell.i, cell.j))
        optimal = set(cell.moves)
        moves_style = HIGHLIGHT_STYLE if played & optimal else style.replace(" reverse", "")
        for offset, part in enumerate(_move_lines(cell.moves, width), start=1):
            canvas.put(row + offset, left + (width - len(part)) // 2, part, moves_style)
    canvas.put(lines_per_cell * n, 0, "-" * (n * width))
    for index, coin in enumerate(table.coins):
        text = format_value(coin)
        canvas.put(lines_per_cell * n + 1, index * width + (width - len(text)) // 2, text, "bold")
    legend = [
        Text(variant_title(table), style="bold"),
        Text(f"cells: {view_words(table.rules, chosen)}; under each, every optimal move"),
    ]
    if table.rules.single_coin_moves:
        legend.append(_players_legend())
    if marked.cells:
        legend.append(Text("reversed cells: the highlighted line", style=HIGHLIGHT_STYLE))
    return Text("\n").join([*legend, *(canvas.lines() if n else [])])


def _move_lines(moves: Sequence[str], width: int) -> list[str]:
    """A cell's moves wrapped to its width: one-letter moves run together (``LR``, as a line
    writes them, to fit narrow cells), longer ones space-separated."""
    lines: list[str] = []
    for part in join_moves(moves).split() if moves else ():
        if lines and len(lines[-1]) + 1 + len(part) <= width:
            lines[-1] += " " + part
        else:
            lines.append(part)
    return lines or [""]


def variant_cell_width(table: IntervalTable, view: str = "margin") -> int:
    """Characters per cell of a variant's triangle: the longest number, or move, plus one
    (O(n^2)).

    >>> from coinrow import Table
    >>> variant_cell_width(Table([1, 2, 3], rules="take:2"))
    4
    """
    shown = variant_cells(table, view)
    texts = [format_value(cell.value) for cell in shown]
    texts += [format_value(coin) for coin in table.coins]
    texts += [move for cell in shown for move in cell.moves]
    return max(4, max(map(len, texts), default=1) + 2)


def variant_columns(table: IntervalTable, view: str = "margin") -> int:
    """Terminal columns a variant's triangle needs (O(n^2))."""
    return len(table) * variant_cell_width(table, view)


def ring(solution: Solution) -> Text:
    """The pizza of a solution under ``circular`` rules in compact text (O(n)): each slice
    (clockwise from 0), its value and the first player's margin when it is eaten first,
    the optimal first slices starred, in columns of at most 20 slices.

    >>> from coinrow import solve
    >>> print(ring(solve([1, 2, 3, 4], rules="circular")))
    pizza of 4 slices, clockwise: best first slice 1 or 3 (*), the first player's margin 2
    slice    0  1*  2  3*
    value    1   2  3   4
    margin  -2   2  0   2
    """
    if solution.starts is None:
        raise PictureError(f"rules {solution.rules}: only the pizza (circular) is drawn as a ring")
    best = {int(move) for move in solution.first_moves}
    n = solution.n
    margin = solution.margin if solution.margin is not None else 0
    head = (
        f"pizza of {n} slice{'s' if n != 1 else ''}, clockwise: best first slice "
        f"{' or '.join(str(s) for s in sorted(best)) or 'none'} (*), "
        f"the first player's margin {format_value(margin)}"
    )
    lines = [Text(head, style="bold")]
    for start in range(0, n, 20):
        chunk = range(start, min(start + 20, n))
        columns = [
            (
                f"{s}*" if s in best else str(s),
                format_value(solution.coins[s]),
                format_value(solution.starts[s]),
            )
            for s in chunk
        ]
        widths = [max(map(len, column)) for column in columns]
        for index, label in enumerate(("slice ", "value ", "margin")):
            line = Text(label)
            for (texts, width), s in zip(zip(columns, widths, strict=True), chunk, strict=True):
                cell = texts[index]
                line.append("  " + cell.rjust(width), style=HIGHLIGHT_STYLE if s in best else None)
            line.rstrip()
            lines.append(line)
    return Text("\n").join(lines)
