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

from rich.text import Text

from .diagram import Highlight, View, cells, check_view, picture_table, resolve_highlight, title
from .engines.table import Table
from .numbers import format_value

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
    legend = [Text(title(table), style="bold"), Text(f"cells: {VIEW_WORDS[view]}; " + MOVE_LEGEND)]
    players = Text()
    players.append("blue: first player to move", style=PLAYER_STYLES["first"])
    players.append(", ")
    players.append("green: second player to move", style=PLAYER_STYLES["second"])
    legend.append(players)
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
