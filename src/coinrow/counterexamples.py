"""Counterexamples to a strategy: the rows where it, playing first against the optimal
opponent that hurts it most, ends below the optimal first total.

:func:`check_row` checks one row (:func:`strays` as a quick filter, then :func:`worst_line`
for the report). Both the counterexample search (:mod:`coinrow.refute`) and the census's
strategies played through Python (:mod:`coinrow.census.shards`) use them: they live here,
below both, so neither imports the other for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .engines import reduction
from .errors import IllegalMoveError
from .game import MOVES, Position
from .numbers import Value, coerce_coins, exact_arithmetic, json_fields
from .strategies import Strategy
from .subgames import Subgames


@dataclass(frozen=True)
class Counterexample:
    """A row where the strategy, first against an optimal opponent, ends below the optimum."""

    coins: tuple[Value, ...]
    strategy_total: Value
    optimal_total: Value
    strategy_line: str
    optimal_line: str

    @property
    def loss(self) -> Value:
        """How much below the optimal first total the strategy ended (O(1))."""
        with exact_arithmetic():
            return self.optimal_total - self.strategy_total

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(n))."""
        order = ("coins", "strategy_total", "optimal_total", "loss")
        return json_fields(self, order=order, loss=self.loss)


def worst_line(
    coins: Sequence[object], strategy: Strategy, subgames: Subgames | None = None
) -> tuple[Value, str]:
    """The strategy's total and line, playing first, against the optimal opponent that hurts
    it most: the opponent only makes optimal moves, and where several are optimal every one
    is tried. O(r) strategy calls and table look-ups for the r reachable positions (at most
    O(n^2)); no recursion, so long rows work.

    >>> from coinrow.strategies import get
    >>> worst_line([3, 2, 2, 3, 1, 2], get("greedy"))
    (7, 'LLLLRL')
    """
    sub = subgames if subgames is not None else Subgames(coins)
    row, n = sub.coins, len(sub.coins)
    # best[(lo, hi)]: the strategy's total from the coins lo..hi, and the move made there.
    best: dict[tuple[int, int], tuple[Value, str]] = {}
    stack = [(0, n - 1)]
    with exact_arithmetic():
        while stack:
            lo, hi = stack[-1]
            if (lo, hi) in best:
                stack.pop()
                continue
            if lo > hi:
                best[lo, hi] = (sub.zero, "")
                stack.pop()
                continue
            strategy_turn = (n - (hi - lo + 1)) % 2 == 0
            moves = _strategy_move(strategy, row, lo, hi) if strategy_turn else sub.moves_of(lo, hi)
            children = [(lo + 1, hi) if move == "L" else (lo, hi - 1) for move in moves]
            missing = [child for child in children if child not in best]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            if strategy_turn:
                coin = row[lo] if moves == "L" else row[hi]
                best[lo, hi] = (coin + best[children[0]][0], moves)
            else:
                totals = [best[child][0] for child in children]
                choice = totals.index(min(totals))
                best[lo, hi] = (totals[choice], moves[choice])
    line, lo, hi = [], 0, n - 1
    while lo <= hi:
        move = best[lo, hi][1]
        line.append(move)
        lo, hi = (lo + 1, hi) if move == "L" else (lo, hi - 1)
    return best[0, n - 1][0], "".join(line)


def _strategy_move(strategy: Strategy, row: tuple[Value, ...], lo: int, hi: int) -> str:
    move = strategy(Position(row, lo, hi))
    if move not in MOVES:
        raise IllegalMoveError(f"the strategy returned {move!r}; a strategy returns 'L' or 'R'")
    return move


def strays(coins: Sequence[object], strategy: Strategy, subgames: Subgames | None = None) -> bool:
    """True when the strategy, first against some optimal opponent, makes a non-optimal move.

    Exactly when :func:`worst_line` ends below the optimal first total: optimal moves keep
    both players' guarantees, and after a losing move the optimal opponent holds the strategy
    below its new guarantee. A quick filter: each reachable position is visited once and the
    search stops at the first stray move (O(r) for the r reachable positions).

    >>> from coinrow.strategies import get
    >>> strays((3, 2, 2, 3, 1, 2), get("greedy")), strays((3, 2, 2, 3, 1, 2), get("optimal"))
    (True, False)
    """
    sub = subgames if subgames is not None else Subgames(coins)
    row, n = sub.coins, len(sub.coins)
    seen: set[tuple[int, int]] = set()
    stack = [(0, n - 1)]
    while stack:
        lo, hi = stack.pop()
        if lo > hi or (lo, hi) in seen:
            continue
        seen.add((lo, hi))
        moves = sub.moves_of(lo, hi)
        if (n - (hi - lo + 1)) % 2 == 0:  # the strategy's turn
            move = _strategy_move(strategy, row, lo, hi)
            if move not in moves:
                return True
            moves = move
        if "L" in moves:
            stack.append((lo + 1, hi))
        if "R" in moves:
            stack.append((lo, hi - 1))
    return False


def check_row(coins: Sequence[object], strategy: Strategy) -> Counterexample | None:
    """The counterexample this row gives, or None when the strategy gets the optimal first
    total against every optimal opponent (:func:`strays`, then :func:`worst_line` for the
    report).

    >>> from coinrow.strategies import get
    >>> check_row([2, 1, 2, 3, 3, 3], get("thibault")).strategy_total
    7
    >>> check_row([2, 1, 2, 3, 3, 3], get("optimal")) is None
    True
    """
    row = tuple(coerce_coins(coins))
    if not row:
        return None
    sub = Subgames(row)
    if not strays(row, strategy, sub):
        return None
    total, line = worst_line(row, strategy, sub)
    optimal_total = sub.value_of(0, len(row) - 1)
    if total >= optimal_total:
        return None
    with exact_arithmetic():
        optimal_line = sub.table.line if sub.table else reduction.optimal_line(row)
    return Counterexample(row, total, optimal_total, line, optimal_line)
