"""Strategies: functions from a :class:`~coinrow.game.Position` to a move ``"L"`` or ``"R"``.

Any callable ``strategy(position) -> "L" | "R"`` is a strategy; :func:`play` pits two of them
against each other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .engines import reduction
from .errors import StrategyUnavailableError
from .game import Game, Move, Position
from .numbers import Value, exact_arithmetic, exact_row, zero_like

Strategy = Callable[[Position], Move]


def optimal(position: Position) -> Move:
    """An optimal move, left when both are optimal (O(n): two reductions).

    >>> optimal(Position.start([8, 15, 3, 7]))
    'R'
    """
    with exact_arithmetic():
        moves = reduction.best_moves(position.coins, position.lo, position.hi)
    return "L" if "L" in moves else "R"


def greedy(position: Position) -> Move:
    """Take the larger end coin, left on equality (O(1)).

    >>> greedy(Position.start([8, 15, 3, 7]))
    'L'
    """
    return "L" if position.coins[position.lo] >= position.coins[position.hi] else "R"


def _parity_sums(coins: Sequence[Value]) -> tuple[Value, Value]:
    zero = zero_like(list(coins))
    with exact_arithmetic():
        return sum(coins[0::2], zero), sum(coins[1::2], zero)


def parity(position: Position) -> Move:
    """The odd/even-position strategy (O(n)).

    For an even row the player keeps every coin of the group (even or odd indices of the
    starting row) with the larger sum, even group on equality: with an even number of coins
    left the two ends lie in different groups, so the end of the chosen group is always
    available. When the position does not allow it (an odd row, or an odd number of coins
    left on this player's turn) it falls back to :func:`greedy`.

    >>> parity(Position.start([3, 2, 2, 3, 1, 2]))
    'R'
    """
    n = len(position.coins)
    remaining = position.hi - position.lo + 1
    if n % 2 or remaining % 2:
        return greedy(position)
    even, odd = _parity_sums(position.coins)
    group = 0 if even >= odd else 1
    return "L" if position.lo % 2 == group else "R"


def play(coins: Sequence[object], first: Strategy, second: Strategy) -> Game:
    """Play a whole game between two strategies (O(n) calls of the strategies).

    >>> play([8, 15, 3, 7], greedy, optimal).line
    'LLRL'
    """
    game = Game(coins)
    while not game.position.is_over:
        mover = first if game.position.turn == "first" else second
        game.push(mover(game.position))
    return game


@exact_row
def greedy_total(coins: Sequence[Value]) -> Value:
    """What the first player gets by greedy (larger end) play against an optimal opponent
    (O(n^2): the opponent's moves come from two reductions each).

    >>> greedy_total([8, 15, 3, 7])
    15
    """
    return play(coins, greedy, optimal).totals()[0]


@exact_row
def parity_total(coins: Sequence[Value]) -> Value:
    """What the first player surely gets by the odd/even-position strategy (O(n)).

    Only for an even number of coins: the first player takes every coin of the group with the
    larger sum whatever the opponent does. For an odd row the strategy is not available.

    >>> parity_total([3, 2, 2, 3, 1, 2])
    7
    """
    if len(coins) % 2:
        raise StrategyUnavailableError(
            f"the odd/even-position strategy needs an even number of coins (got {len(coins)}): "
            "with an odd row the opponent can always take from either group, so it does not "
            "even guarantee a draw"
        )
    return max(_parity_sums(coins))
