"""Solving a row: :func:`solve`, :class:`Solution` and :func:`best_moves`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from . import engines
from .engines import reduction
from .engines.dispatch import KERNEL_MIN_LENGTH, kernel_row
from .game import Game, TranscriptRow, split_by_player, taken_indices
from .numbers import (
    Value,
    exact_arithmetic,
    exact_row,
    halve,
    is_int_array,
    json_value,
    zero_like,
)

Outcome = Literal["first", "second", "tie"]

#: Keys of :meth:`Solution.to_dict` with one entry per coin.
PER_COIN_KEYS = ("coins", "line", "first_coins", "second_coins")


@dataclass(frozen=True, init=False, eq=False)
class Solution:
    """The solved game: totals, margin, outcome and one optimal line.

    ``coins`` is a tuple, or for rows solved by a compiled kernel the int64 NumPy array
    (never copied into Python ints); ``line`` may be given as a uint8 array of ASCII
    ``L``/``R`` codes and is then turned into a str only when first read.

    >>> s = solve([3, 2, 2, 3, 1, 2])
    >>> s.first_total, s.second_total, s.margin, s.outcome, sorted(s.first_moves)
    (8, 5, 3, 'first', ['L'])
    """

    coins: Sequence[Value] = field(repr=False)
    margin: Value
    _line: Any = field(repr=False)
    first_moves: frozenset[str]
    engine: str

    def __init__(
        self,
        coins: Sequence[Value],
        margin: Value,
        line: Any,
        first_moves: frozenset[str],
        engine: str = "reduction",
    ) -> None:
        for name, value in zip(
            ("coins", "margin", "_line", "first_moves", "engine"),
            (coins, margin, line, first_moves, engine),
            strict=True,
        ):
            object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        """Same row, engine, margin, first moves and line (O(n); works for array rows)."""
        if not isinstance(other, Solution):
            return NotImplemented
        return (self.engine, self.margin, self.first_moves, self.line) == (
            other.engine,
            other.margin,
            other.first_moves,
            other.line,
        ) and _same_row(self.coins, other.coins)

    def __hash__(self) -> int:
        return hash((self.engine, self.margin, self.first_moves, self.line))

    @cached_property
    def line(self) -> str:
        """One optimal line of ``L``/``R`` moves covering every coin (O(n) on first read)."""
        line = self._line
        return line if isinstance(line, str) else str(line.data, "ascii")

    @cached_property
    def total(self) -> Value:
        """Sum of all coins (O(n))."""
        if is_int_array(self.coins):  # int64-safe: the sum cannot overflow
            return int(self.coins.sum())  # type: ignore[attr-defined]
        with exact_arithmetic():
            return sum(self.coins, zero_like(list(self.coins)))

    @cached_property
    def first_total(self) -> Value:
        """The most the first player can guarantee (O(n))."""
        with exact_arithmetic():
            return halve(self.total + self.margin)

    @cached_property
    def second_total(self) -> Value:
        """What the second player gets when both play optimally (O(n))."""
        with exact_arithmetic():
            return self.total - self.first_total

    @property
    def outcome(self) -> Outcome:
        """``"first"``, ``"second"`` or ``"tie"`` under optimal play (O(1))."""
        if self.margin > 0:
            return "first"
        return "second" if self.margin < 0 else "tie"

    @cached_property
    def _coins_taken(self) -> tuple[list[int], list[int]]:
        return split_by_player(taken_indices(len(self.coins), self.line))

    @property
    def first_coins(self) -> list[int]:
        """0-based indices of the coins the first player takes along :attr:`line` (O(n))."""
        return self._coins_taken[0]

    @property
    def second_coins(self) -> list[int]:
        """0-based indices of the coins the second player takes along :attr:`line` (O(n))."""
        return self._coins_taken[1]

    def game(self) -> Game:
        """The optimal line as a :class:`~coinrow.game.Game` (O(n))."""
        return Game(self.coins, self.line)

    def transcript(self) -> list[TranscriptRow]:
        """The optimal line move by move, with running totals (O(n)).

        >>> [(r.player, r.move, r.coin) for r in solve([5, 3, 7, 10]).transcript()]
        [('first', 'R', 10), ('second', 'R', 7), ('first', 'L', 5), ('second', 'L', 3)]
        """
        return self.game().transcript()

    def to_dict(self, per_coin_limit: int | None = None) -> dict[str, Any]:
        """JSON-ready form: ints as numbers, other exact values as strings (O(n)).

        With ``per_coin_limit``, a row of more coins leaves out the per-coin keys
        (:data:`PER_COIN_KEYS`) and lists them under ``"omitted"``.

        >>> solve(["0.1", "0.2", "0.3"]).to_dict()["first_total"]
        '0.4'
        >>> solve([1, 2, 3]).to_dict(per_coin_limit=2)["omitted"]
        ['coins', 'line', 'first_coins', 'second_coins']
        """
        full = per_coin_limit is None or len(self.coins) <= per_coin_limit
        data: dict[str, Any] = {"n": len(self.coins)}
        if full:
            data["coins"] = (
                self.coins.tolist()  # type: ignore[attr-defined]
                if is_int_array(self.coins)
                else [json_value(coin) for coin in self.coins]
            )
        data.update(
            engine=self.engine,
            first_total=json_value(self.first_total),
            second_total=json_value(self.second_total),
            margin=json_value(self.margin),
            outcome=self.outcome,
        )
        if full:
            data["line"] = self.line
        data["first_moves"] = sorted(self.first_moves)
        if full:
            data.update(first_coins=self.first_coins, second_coins=self.second_coins)
        else:
            data["omitted"] = list(PER_COIN_KEYS)
        return data

    def __repr__(self) -> str:
        return (
            f"<Solution of {len(self.coins)} coins: first {self.first_total}, "
            f"second {self.second_total}, {self.outcome} wins by {abs(self.margin)}>"
            if self.outcome != "tie"
            else f"<Solution of {len(self.coins)} coins: tie at {self.first_total} each>"
        )

    def _repr_svg_(self) -> str | None:
        """Jupyter: the triangle diagram with :attr:`line` highlighted; None over 40 coins."""
        from .svg import repr_svg

        return repr_svg(self.coins, highlight=self.line)

    def _repr_html_(self) -> str:
        """Jupyter: the diagram with :attr:`line` highlighted, or a note over 40 coins."""
        from .svg import repr_html

        return repr_html(self, self.coins, highlight=self.line)


def _same_row(first: Sequence[Value], second: Sequence[Value]) -> bool:
    """Equal rows, whether tuples or NumPy arrays (an array's ``==`` is elementwise)."""
    if len(first) != len(second):
        return False
    if is_int_array(first) or is_int_array(second):
        import numpy as np

        return bool(np.array_equal(first, second))
    return tuple(first) == tuple(second)


def solve(coins: Sequence[object], engine: str = "reduction") -> Solution:
    """Solve a row exactly with the chosen engine (default: the O(n) reduction).

    Complexity: O(n) for ``reduction``; O(n^2) for ``table``, ``memo`` and ``linear``
    (O(n) memory for ``linear``); O(2^n) for ``brute`` (n <= 20). Long int rows that are
    int64-safe (:func:`coinrow.engines.dispatch.kernel_row`) run in compiled kernels, with the same
    results; NumPy int arrays then stay arrays (about 25 bytes per coin at peak).

    >>> solve([8, 15, 3, 7]).first_total, solve([5, 3, 7, 10], engine="brute").first_total
    (22, 15)
    """
    row = kernel_row(coins, KERNEL_MIN_LENGTH.get(engine), checked=engine != "reduction")
    if row is not None and engine == "reduction":
        solved = reduction.solve_int64(row)  # checks int64 safety in its second thread
        if solved is not None:
            return Solution(row, *solved, engine)
        coins, row = row.tolist(), None
    if row is None:
        return _solve_exact(coins, engine)
    result = engines.run(engine, row)
    return Solution(row, result.margin, result.line, result.first_moves, engine)


@exact_row
def _solve_exact(coins: Sequence[Value], engine: str) -> Solution:
    result = engines.run(engine, coins)
    return Solution(tuple(coins), result.margin, result.line, result.first_moves, engine)


@exact_row
def best_moves(coins: Sequence[Value], lo: int = 0, hi: int | None = None) -> str:
    """Optimal move(s) ``"L"``, ``"R"`` or ``"LR"`` in the subgame ``lo..hi`` (O(n)).

    >>> best_moves([3, 2, 2, 3, 1, 2]), best_moves([3, 2, 2, 3, 1, 2], 1, 5)
    ('L', 'LR')
    """
    return reduction.best_moves(coins, lo, hi)
