"""The evaluation of a game move by move, for review charts: after every move, each player's
final total with best play from there on (their guarantee), and the margin.

    >>> [(e.ply, e.first, e.second) for e in evaluation([8, 15, 3, 7], "LLRL")]
    [(0, 22, 11), (1, 15, 18), (2, 15, 18), (3, 15, 18), (4, 15, 18)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .engines import MAX_SECONDS, check_cost
from .game import Game
from .numbers import Row, Value, exact_arithmetic, json_fields
from .play_values import PlayValues
from .rules import Rules, coerce_rules
from .subgames import Subgames


@dataclass(frozen=True)
class Evaluation:
    """The position after ``ply`` moves: each player's final total with best play from here
    (taken so far plus what the coins left give them), and the margin first - second.
    Under other rules ``totals`` holds every player's (the first two are ``first`` and
    ``second``); it is empty in the plain game."""

    ply: int
    first: Value
    second: Value
    totals: tuple[Value, ...] = field(default=(), kw_only=True)

    @property
    def margin(self) -> Value:
        """First - second (O(1))."""
        with exact_arithmetic():
            return self.first - self.second

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``ply``, ``first``, ``second``, ``margin`` (O(1)); under other
        rules also ``totals``."""
        return json_fields(
            self,
            omit=() if self.totals else {"totals"},
            order=("ply", "first", "second", "margin"),
            margin=self.margin,
        )


def evaluation(
    coins: Sequence[object],
    moves: str | Sequence[str],
    *,
    max_seconds: float | None = MAX_SECONDS,
    rules: Rules | str | None = None,
    values: PlayValues | None = None,
) -> list[Evaluation]:
    """The evaluation before the first move and after each of ``moves`` (O(n^2) for the table
    of subgames, then O(1) per move; O(n) per move for rows beyond the table's limit).

    Exact rows whose table is estimated over ``max_seconds`` are refused with a
    :class:`~coinrow.errors.CostLimitError` before any work (``None`` lifts the limit).

    >>> [str(e.margin) for e in evaluation(["0.5", "1", "0.25"], "RLL")]
    ['-0.25', '-0.25', '0.75', '0.75']

    Under other ``rules`` every player's final totals with best play after each move come
    from :meth:`~coinrow.game.Game.best_totals` (``values``: the row's
    :class:`~coinrow.play_values.PlayValues`, built when not given; its cost per move).

    >>> [e.totals for e in evaluation([1, 2, 3, 4], "L2 R2", rules="take:2")]
    [(7, 3), (3, 7), (3, 7)]
    """
    chosen = coerce_rules(rules)
    if not chosen.is_plain:
        return _evaluation_under(coins, moves, chosen, values, max_seconds)
    if isinstance(moves, list | tuple) and all(isinstance(move, str) for move in moves):
        moves = "".join(moves)
    row = Row.of(coins)
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


def _evaluation_under(
    coins: Sequence[object],
    moves: str | Sequence[str],
    rules: Rules,
    values: PlayValues | None,
    max_seconds: float | None,
) -> list[Evaluation]:
    row = Row.of(coins)
    game = Game(row, moves, rules=rules)
    if rules.per_position:  # each position solves the coins left
        work = (len(game.moves) + 1) * len(row) ** 2 // 2 * rules.players
        what = f"evaluating {len(game.moves):,} moves on {len(row):,} coins under {rules}"
        check_cost(row, "table", max_seconds=max_seconds, what=what, items=work)
    queries = PlayValues(row, rules) if values is None else values
    replay = Game(row, rules=rules)
    points = []
    for ply in range(len(game.moves) + 1):
        totals = replay.best_totals(values=queries)
        points.append(Evaluation(ply, totals[0], totals[1], totals=totals))
        if ply < len(game.moves):
            replay.push(game.moves[ply])
    return points
