"""The evaluation of a game move by move, for review charts: after every move, each player's
final total with best play from there on (their guarantee), and the margin.

    >>> [(e.ply, e.first, e.second) for e in evaluation([8, 15, 3, 7], "LLRL")]
    [(0, 22, 11), (1, 15, 18), (2, 15, 18), (3, 15, 18), (4, 15, 18)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .engines import MAX_SECONDS
from .game import Game
from .numbers import Value, coerce_coins, exact_arithmetic, json_fields
from .subgames import Subgames


@dataclass(frozen=True)
class Evaluation:
    """The position after ``ply`` moves: each player's final total with best play from here
    (taken so far plus what the coins left give them), and the margin first - second."""

    ply: int
    first: Value
    second: Value

    @property
    def margin(self) -> Value:
        """First - second (O(1))."""
        with exact_arithmetic():
            return self.first - self.second

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``ply``, ``first``, ``second``, ``margin`` (O(1))."""
        return json_fields(self, margin=self.margin)


def evaluation(
    coins: Sequence[object], moves: str, *, max_seconds: float | None = MAX_SECONDS
) -> list[Evaluation]:
    """The evaluation before the first move and after each of ``moves`` (O(n^2) for the table
    of subgames, then O(1) per move; O(n) per move for rows beyond the table's limit).

    Exact rows whose table is estimated over ``max_seconds`` are refused with a
    :class:`~coinrow.errors.CostLimitError` before any work (``None`` lifts the limit).

    >>> [str(e.margin) for e in evaluation(["0.5", "1", "0.25"], "RLL")]
    ['-0.25', '-0.25', '0.75', '0.75']
    """
    row = coerce_coins(coins)
    game = Game(row, moves)
    subgames = Subgames(row, max_seconds=max_seconds)
    replay = Game(row)
    points = []
    with exact_arithmetic():
        for ply in range(len(game.line) + 1):
            position = replay.position
            first, second = replay.totals
            value = subgames.value_of(position.lo, position.hi)
            rest = subgames.total_of(position.lo, position.hi) - value
            if position.turn == "first":
                points.append(Evaluation(ply, first + value, second + rest))
            else:
                points.append(Evaluation(ply, first + rest, second + value))
            if ply < len(game.line):
                replay.push(game.line[ply])
    return points
