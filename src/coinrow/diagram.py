"""The cell model of the triangle diagram: which subgames are drawn, what each cell shows.

The value and move tables drawn as a triangle standing on the row: the coins lie along the
bottom and the cell of the subgame ``i..j`` sits at the apex of the coins ``i..j`` below it, so
the top cell is the whole row. Each cell shows a number for that subgame (``view``), the
optimal moves, and whose turn it is. The renderers (:mod:`coinrow.svg`, :mod:`coinrow.text`)
and the JSON form (:func:`table_data`) all draw from this model; every number comes from
:class:`coinrow.Table`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from .engines.interval import advance
from .engines.table import Table
from .errors import PictureError, RowTooLongError, SubgameError
from .numbers import Value, exact_arithmetic, format_value, json_value, zero_like
from .rules import Moves, Player, Rules, moves_text, parse_moves, taken_indices

if TYPE_CHECKING:
    from .engines.interval import IntervalTable

#: Longest row a picture shows (40 coins: 820 cells).
MAX_COINS = 40

View = Literal["total", "margin", "first"]
#: What a cell can show: the most the player to move gets (``total``, :meth:`Table.value_of`),
#: the mover's margin over the other player (``margin``, :meth:`Table.margin_of`), or the first
#: player's points from that subgame on (``first``, the seed's table ``A``).
VIEWS: tuple[View, ...] = ("total", "margin", "first")

Highlight = str | Iterable[tuple[int, int]] | None
"""A line of moves such as ``"LLR"`` (the cells it passes through and the moves it plays) or
a collection of ``(i, j)`` cells."""


class Cell(NamedTuple):
    """One subgame ``i..j`` as drawn: the number shown, the optimal moves (a tuple of
    :class:`~coinrow.rules.Move`, ``("L", "R")`` when both are), whose turn."""

    i: int
    j: int
    value: Value
    moves: Moves
    player: Player


class Marked(NamedTuple):
    """What to highlight: cells ``(i, j)`` and moves ``(i, j, move)`` played from them."""

    cells: frozenset[tuple[int, int]]
    moves: frozenset[tuple[int, int, str]]

    def played(self, i: int, j: int) -> list[str]:
        """The highlighted moves played from cell ``(i, j)``, sorted (O(len(moves))).

        >>> Marked(frozenset({(0, 2)}), frozenset({(0, 2, "L2")})).played(0, 2)
        ['L2']
        """
        return sorted(move for lo, hi, move in self.moves if (lo, hi) == (i, j))


def check_length(n: int) -> None:
    """Raise :class:`~coinrow.errors.RowTooLongError` when a picture of n coins would not be
    readable (O(1)).

    >>> check_length(41)
    Traceback (most recent call last):
    ...
    coinrow.errors.RowTooLongError: a picture shows at most 40 coins; this row has 41
    """
    if n > MAX_COINS:
        raise RowTooLongError(f"a picture shows at most {MAX_COINS} coins; this row has {n}")


def picture_table(coins: Sequence[object] | Table) -> Table:
    """The :class:`Table` to draw: ``coins`` itself when it is one, checked for length
    (O(n^2) to build).

    >>> len(picture_table([1, 2, 4, 3]))
    4
    """
    check_length(len(coins))
    return coins if isinstance(coins, Table) else Table(coins)


def check_view(view: str) -> View:
    """Validate a view name (O(1)).

    >>> check_view("margin")
    'margin'
    """
    if view not in VIEWS:
        raise PictureError(f"unknown view {view!r}; choose one of: {', '.join(VIEWS)}")
    return view


def mover(table: Table, i: int, j: int) -> Player:
    """Whose turn it is when coins ``i..j`` are left (O(1)).

    >>> mover(Table([1, 2, 4, 3]), 0, 2), mover(Table([1, 2, 4, 3]), 1, 2)
    ('second', 'first')
    """
    taken = i + len(table.coins) - 1 - j  # coins already taken, one a turn
    return "first" if taken % 2 == 0 else "second"


def cell_value(table: Table, i: int, j: int, view: View = "total") -> Value:
    """The number a cell shows in ``view`` (O(1)).

    >>> table = Table([1, 2, 4, 3])
    >>> [cell_value(table, 0, 2, view) for view in ("total", "margin", "first")]
    [5, 3, 2]
    """
    if view == "total":
        return table.value_of(i, j)
    if view == "margin":
        return table.margin_of(i, j)
    check_view(view)
    value = table.value_of(i, j)
    if mover(table, i, j) == "first":
        return value
    with exact_arithmetic():
        return table.total_of(i, j) - value


def cells(table: Table, view: View = "total") -> list[Cell]:
    """Every cell, widest subgame first, left to right (O(n^2)).

    >>> [(c.i, c.j, c.value, c.moves, c.player) for c in cells(Table([1, 2, 4, 3]))][:3]
    [(0, 3, 5, ('L', 'R'), 'first'), (0, 2, 5, ('R',), 'second'), (1, 3, 5, ('L', 'R'), 'second')]
    """
    check_view(view)
    n = len(table)
    return [
        Cell(i, i + width - 1, cell_value(table, i, i + width - 1, view),
             table.moves_of(i, i + width - 1), mover(table, i, i + width - 1))
        for width in range(n, 0, -1)
        for i in range(n - width + 1)
    ]  # fmt: skip


def resolve_highlight(table: Table, highlight: Highlight) -> Marked:
    """The cells and moves to highlight: a line marks every cell it passes through and every
    move it plays (it may be partial, and may contain mistakes); a collection marks cells
    (O(n) for a line, O(k) for k cells).

    >>> marked = resolve_highlight(Table([1, 2, 4, 3]), "RR")
    >>> sorted(marked.cells), sorted(marked.moves)
    ([(0, 1), (0, 2), (0, 3)], [(0, 2, 'R'), (0, 3, 'R')])
    """
    if highlight is None:
        return Marked(frozenset(), frozenset())
    n = len(table)
    if isinstance(highlight, str):
        line = parse_moves(highlight)
        taken_indices(n, line)  # a line longer than the row is refused with a clear message
        lo, hi, marked_cells, marked_moves = 0, n - 1, set(), set()
        for move in line:
            marked_cells.add((lo, hi))
            marked_moves.add((lo, hi, move))
            lo, hi = (lo + 1, hi) if move == "L" else (lo, hi - 1)
        if lo <= hi:
            marked_cells.add((lo, hi))
        return Marked(frozenset(marked_cells), frozenset(marked_moves))
    chosen = frozenset((int(i), int(j)) for i, j in highlight)
    for i, j in chosen:
        if not 0 <= i <= j < n:
            raise SubgameError(f"subgame {i}..{j} is not inside a row of {n} coins")
    return Marked(chosen, frozenset())


MOVE_WORDS = {"L": "take the left coin", "R": "take the right coin"}


def describe(table: Table, cell: Cell, view: View) -> str:
    """One sentence about a cell, used as its tooltip (O(j - i)).

    >>> table = Table([1, 2, 4, 3])
    >>> print(describe(table, cells(table)[1], "total"))  # doctest: +NORMALIZE_WHITESPACE
    coins 1..3 (1 2 4): second player to move gets 5 at best (margin 3);
    best move: take the right coin (4)
    """
    i, j = cell.i, cell.j
    shown = [format_value(coin) for coin in table.coins[i : j + 1]]
    row = " ".join(shown if len(shown) <= 8 else [*shown[:3], "…", *shown[-3:]])
    if i == j:
        best = "take the last coin"
    else:
        options = [f"{MOVE_WORDS[m]} ({format_value(table.coins[i if m == 'L' else j])})"
                   for m in cell.moves]  # fmt: skip
        best = (
            "both moves are optimal: " + " or ".join(options) if len(options) == 2 else options[0]
        )
    text = (
        f"coins {i + 1}..{j + 1} ({row}): {cell.player} player to move gets "
        f"{format_value(table.value_of(i, j))} at best "
        f"(margin {format_value(table.margin_of(i, j))})"
    )
    if view == "first":
        text += f"; the first player gets {format_value(cell.value)} of them"
    return f"{text}; best move{'s' if len(cell.moves) == 2 and i != j else ''}: {best}"


def summary(table: Table) -> str:
    """Totals and outcome of the whole row, one line (O(n)).

    >>> summary(Table([1, 2, 4, 3]))
    'first player 5, second player 5: a tie'
    """
    n = len(table)
    if n == 0:
        return "no coins"
    first = table.value_of(0, n - 1)
    with exact_arithmetic():
        second = table.total_of(0, n - 1) - first
    margin = table.margin_of(0, n - 1)
    verdict = (
        f"first player wins by {format_value(margin)}"
        if margin > 0
        else f"second player wins by {format_value(-margin)}"
        if margin < 0
        else "a tie"
    )
    return f"first player {format_value(first)}, second player {format_value(second)}: {verdict}"


def title(table: Table) -> str:
    """The picture's title: the coins (or their count when long), totals and outcome (O(n)).

    >>> title(Table([8, 15, 3, 7])), title(Table([]))
    ('8 15 3 7: first player 22, second player 11: first player wins by 11', 'no coins')
    """
    head = title_head(table)
    return f"{head}: {summary(table)}" if head else summary(table)


def title_head(table: Table) -> str:
    """The coins as text, or their count when that is longer than 40 characters (O(n))."""
    shown = " ".join(format_value(coin) for coin in table.coins)
    return shown if len(shown) <= 40 else f"{len(table)} coins"


#: The widest legend line drawn below the title, in characters (swatches included).


def table_data(table: Table) -> dict[str, Any]:
    """JSON-ready form: the row, the totals and every cell (``i``, ``j``, ``value``,
    ``margin``, ``moves``, ``player``), widest subgame first (O(n^2)).

    >>> data = table_data(Table([1, 2, 4, 3]))
    >>> data["first_total"], data["cells"][0]
    (5, {'i': 0, 'j': 3, 'value': 5, 'margin': 0, 'moves': ['L', 'R'], 'player': 'first'})
    """
    n, zero = len(table), zero_like(list(table.coins))
    first = table.value_of(0, n - 1) if n else zero
    with exact_arithmetic():
        second = table.total_of(0, n - 1) - first if n else zero
    return {
        "coins": [json_value(coin) for coin in table.coins],
        "first_total": json_value(first),
        "second_total": json_value(second),
        "margin": json_value(table.margin_of(0, n - 1) if n else zero),
        "cells": [
            {
                "i": cell.i,
                "j": cell.j,
                "value": json_value(cell.value),
                "margin": json_value(table.margin_of(cell.i, cell.j)),
                "moves": list(cell.moves),
                "player": cell.player,
            }
            for cell in cells(table)
        ],
    }


# --- the triangle of a variant (coinrow.Table(coins, rules=R), an IntervalTable) ----------


class VariantCell(NamedTuple):
    """One subgame ``i..j`` of a variant's table as drawn: the number shown (the mover's
    margin in what the rules score, or the coins the mover takes), every optimal move (a tuple
    of :class:`~coinrow.rules.Move`: ``("L2", "R1")``, ``("L", "R")``, ``("B",)``), and whose
    turn it is (None under ``take`` and ``both-ends``, where that depends on the line)."""

    i: int
    j: int
    value: Value
    moves: Moves
    player: Player | None


def variant_view(table: IntervalTable, view: str) -> View:
    """The view of a variant's triangle: ``margin`` (the mover's margin in what the rules
    score) or ``total`` (the coins the mover takes; not under Stone Game VII, whose points
    follow the line) (O(1)).

    >>> from coinrow import Table
    >>> variant_view(Table([1, 2], rules="stone-game-vii"), "total")
    Traceback (most recent call last):
    ...
    coinrow.errors.PictureError: rules stone-game-vii: cells show margins only (points follow the line)
    """  # noqa: E501
    if view not in ("total", "margin"):
        raise PictureError(f"rules {table.rules}: a cell shows its total or margin, not {view!r}")
    if view == "total" and table.rules.scores_left:
        raise PictureError(f"rules {table.rules}: cells show margins only (points follow the line)")
    return "total" if view == "total" else "margin"


def variant_cells(table: IntervalTable, view: str = "margin") -> list[VariantCell]:
    """Every cell of a variant's table, widest subgame first, left to right (O(n^2); the
    moves of each cell O(moves)).

    >>> from coinrow import Table
    >>> variant_cells(Table([1, 2, 3], rules="take:2"))[:2]
    [VariantCell(i=0, j=2, value=4, moves=('R2',), player=None), VariantCell(i=0, j=1, value=3, moves=('L2', 'R2'), player=None)]
    """  # noqa: E501
    chosen = variant_view(table, view)
    n = len(table)
    single = table.rules.single_coin_moves
    result = []
    for width in range(n, 0, -1):
        for i in range(n - width + 1):
            j = i + width - 1
            value = table.value_of(i, j) if chosen == "total" else table.margin_of(i, j)
            player: Player | None = ("first", "second")[(n - width) % 2] if single else None
            result.append(VariantCell(i, j, value, table.moves_of(i, j), player))
    return result


class VariantPicture(NamedTuple):
    """What a variant's triangle draws: the view, the highlighted line and every cell."""

    view: View
    marked: Marked
    cells: list[VariantCell]


def variant_picture(
    table: IntervalTable, view: str = "margin", highlight: str | None = None
) -> VariantPicture:
    """The checked view, the highlighted line and the cells of a variant's triangle, as both
    renderers draw them (O(n^2)); a bad view, a row over 40 coins or a bad line raises a
    :class:`~coinrow.errors.CoinrowError`.

    >>> from coinrow import Table
    >>> picture = variant_picture(Table([1, 2, 3], rules="take:2"), highlight="best")
    >>> picture.view, len(picture.cells), sorted(picture.marked.cells)
    ('margin', 6, [(0, 0), (0, 2)])
    """
    chosen = variant_view(table, view)
    check_length(len(table))
    return VariantPicture(chosen, variant_marked(table, highlight), variant_cells(table, chosen))


def variant_marked(table: IntervalTable, highlight: str | None) -> Marked:
    """The cells a line of the rules' moves (``L2 R1``, ``LRB``, ``best``: the table's own
    optimal line) passes through and the moves it plays from them (O(n)); a move the rules do
    not allow, or a line longer than the row, raises a
    :class:`~coinrow.errors.CoinrowError`.

    >>> from coinrow import Table
    >>> marked = variant_marked(Table([1, 2, 3, 4], rules="take:2"), "R2 L1")
    >>> sorted(marked.cells), sorted(marked.moves)
    ([(0, 1), (0, 3), (1, 1)], [(0, 1, 'L1'), (0, 3, 'R2')])
    """
    if highlight is None:
        return Marked(frozenset(), frozenset())
    moves = table.optimal_line() if highlight == "best" else split_moves(highlight)
    lo, hi = 0, len(table) - 1
    marked_cells, marked_moves = set(), set()
    for move in moves:
        if lo > hi:
            raise PictureError(f"the line {highlight!r} is longer than the game")
        side, count = table.rules.side_count(move)
        if count > hi - lo + 1 or (side == 2 and lo == hi):
            raise PictureError(f"move {move} of {highlight!r} takes more coins than are left")
        marked_cells.add((lo, hi))
        marked_moves.add((lo, hi, move))
        lo, hi = advance(lo, hi, side, count)
    if lo <= hi:
        marked_cells.add((lo, hi))
    return Marked(frozenset(marked_cells), frozenset(marked_moves))


def split_moves(text: str) -> list[str]:
    """The moves of a line's text: separated by spaces or commas (``L2 R1``), or one letter
    each when run together (``LRB``) (O(len)).

    >>> split_moves("L2 R1"), split_moves("LRB"), split_moves("l2,r")
    (['L2', 'R1'], ['L', 'R', 'B'], ['L2', 'R'])
    """
    parts = text.replace(",", " ").upper().split()
    if len(parts) == 1 and parts[0].isalpha():
        return list(parts[0])
    return parts


def variant_title(table: IntervalTable) -> str:
    """The picture's title: the coins (or their count), the rules and the first player's
    margin (O(n)).

    >>> from coinrow import Table
    >>> variant_title(Table([1, 2, 3, 4], rules="take:2"))
    "1 2 3 4 (Take 1 or 2 coins): the first player's margin 4, line R2 L2"
    """
    n = len(table)
    shown = " ".join(format_value(coin) for coin in table.coins)
    head = shown if len(shown) <= 40 else f"{n} coins"
    rules = table.rules
    if not n:
        return f"no coins ({rules.label()})"
    margin = format_value(table.margin_of(0, n - 1))
    return (
        f"{head} ({rules.label()}): the first player's {rules.margin_word} {margin}, "
        f"line {table.line}"
    )


#: What a variant's cell shows, per view.
VARIANT_VIEW_WORDS = {
    "margin": "the mover's margin in what the rules score",
    "total": "the largest total the mover can take",
}


def view_words(rules: Rules, view: str) -> str:
    """What a variant's cell shows in ``view``, in the rules' own words (O(1)).

    >>> from coinrow.rules import Rules
    >>> view_words(Rules.parse("misere"), "margin")
    "the mover's lead: the other player's total minus the mover's"
    """
    return rules.margin_view if view == "margin" else VARIANT_VIEW_WORDS[view]


def describe_variant(table: IntervalTable, cell: VariantCell) -> str:
    """One sentence about a variant's cell, its tooltip (O(j - i)).

    >>> from coinrow import Table
    >>> table = Table([1, 2, 3], rules="take:2")
    >>> describe_variant(table, variant_cells(table)[0])
    'coins 1..3 (1 2 3): the mover takes 5 at best, margin 4; best move: R2'
    """
    i, j = cell.i, cell.j
    shown = [format_value(coin) for coin in table.coins[i : j + 1]]
    row = " ".join(shown if len(shown) <= 8 else [*shown[:3], "…", *shown[-3:]])
    who = f"{cell.player} player to move" if cell.player else "the mover"
    margin = format_value(table.margin_of(i, j))
    word = table.rules.margin_word
    if table.rules.scores_left:
        gets = f"{who}: {word} {margin} in points"
    else:
        verb = "gets" if cell.player else "takes"
        gets = f"{who} {verb} {format_value(table.value_of(i, j))} at best, {word} {margin}"
    several = len(cell.moves) > 1
    best = moves_text(cell.moves)
    return f"coins {i + 1}..{j + 1} ({row}): {gets}; best move{'s' if several else ''}: {best}"
