"""Solving a row: :func:`solve`, :class:`Solution` and :func:`best_moves`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from . import engines
from .engines import reduction
from .game import Game, TranscriptRow, split_by_player, taken_indices
from .numbers import Value, exact_arithmetic, exact_row, halve, json_value, zero_like

Outcome = Literal["first", "second", "tie"]


@dataclass(frozen=True)
class Solution:
    """The solved game: totals, margin, outcome and one optimal line.

    >>> s = solve([3, 2, 2, 3, 1, 2])
    >>> s.first_total, s.second_total, s.margin, s.outcome, sorted(s.first_moves)
    (8, 5, 3, 'first', ['L'])
    """

    coins: tuple[Value, ...] = field(repr=False)
    margin: Value
    line: str
    first_moves: frozenset[str]
    engine: str = "reduction"

    @cached_property
    def total(self) -> Value:
        """Sum of all coins (O(n))."""
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

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ints as numbers, other exact values as strings (O(n)).

        >>> solve(["0.1", "0.2", "0.3"]).to_dict()["first_total"]
        '0.4'
        """
        return {
            "coins": [json_value(coin) for coin in self.coins],
            "engine": self.engine,
            "first_total": json_value(self.first_total),
            "second_total": json_value(self.second_total),
            "margin": json_value(self.margin),
            "outcome": self.outcome,
            "line": self.line,
            "first_moves": sorted(self.first_moves),
            "first_coins": self.first_coins,
            "second_coins": self.second_coins,
        }

    def __repr__(self) -> str:
        return (
            f"<Solution of {len(self.coins)} coins: first {self.first_total}, "
            f"second {self.second_total}, {self.outcome} wins by {abs(self.margin)}>"
            if self.outcome != "tie"
            else f"<Solution of {len(self.coins)} coins: tie at {self.first_total} each>"
        )


@exact_row
def solve(coins: Sequence[Value], engine: str = "reduction") -> Solution:
    """Solve a row exactly with the chosen engine (default: the O(n) reduction).

    Complexity: O(n) for ``reduction``; O(n^2) for ``table``, ``memo`` and ``linear``
    (O(n) memory for ``linear``); O(2^n) for ``brute`` (n <= 20).

    >>> solve([8, 15, 3, 7]).first_total, solve([5, 3, 7, 10], engine="brute").first_total
    (22, 15)
    """
    result = engines.run(engine, coins)
    return Solution(tuple(coins), result.margin, result.line, result.first_moves, engine)


@exact_row
def best_moves(coins: Sequence[Value], lo: int = 0, hi: int | None = None) -> str:
    """Optimal move(s) ``"L"``, ``"R"`` or ``"LR"`` in the subgame ``lo..hi`` (O(n)).

    >>> best_moves([3, 2, 2, 3, 1, 2]), best_moves([3, 2, 2, 3, 1, 2], 1, 5)
    ('L', 'LR')
    """
    return reduction.best_moves(coins, lo, hi)
