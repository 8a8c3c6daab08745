"""Counterexamples to a strategy: the rows where it, playing first against the optimal
opponent that hurts it most, ends below the optimal first total.

:func:`check_row` checks one row (:func:`strays` as a quick filter, then :func:`worst_line`
for the report); under other rules :func:`worst_line_under` plays the opponents' optimal
moves through the game model. Both the counterexample search (:mod:`coinrow.refute`) and the
census's strategies played through Python (:mod:`coinrow.census.shards`) use them: they live
here, below both, so neither imports the other for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .engines import reduction
from .errors import IllegalMoveError
from .game import MOVES, Game, Position
from .numbers import Row, Value, exact_arithmetic, json_fields, zero_like
from .play_values import PlayValues
from .rules import PLAIN, Rules, coerce_rules, join_moves
from .strategies import Strategy, play_values
from .subgames import Subgames


@dataclass(frozen=True)
class Counterexample:
    """A row where the strategy, first against an optimal opponent, ends below the optimum.

    Under other ``rules`` the totals are what the rules score (Stone Game VII's points) and
    ``shortfall`` is what the strategy lost in what it plays for (:attr:`loss`): its total,
    its excess in the misère game, its points margin in Stone Game VII."""

    coins: tuple[Value, ...]
    strategy_total: Value
    optimal_total: Value
    strategy_line: str
    optimal_line: str
    rules: Rules = field(default=PLAIN, kw_only=True, repr=False)
    shortfall: Value | None = field(default=None, kw_only=True, repr=False)

    @property
    def loss(self) -> Value:
        """How much below the optimal first total the strategy ended (O(1))."""
        if self.shortfall is not None:
            return self.shortfall
        with exact_arithmetic():
            return self.optimal_total - self.strategy_total

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(n)); under other rules also ``rules``."""
        extra = {} if self.rules.is_plain else {"rules": str(self.rules)}
        order = ("coins", "strategy_total", "optimal_total", "loss")
        data = json_fields(self, omit={"rules", "shortfall"}, order=order, loss=self.loss)
        return {**extra, **data}


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
            moves: tuple[str, ...] = (
                (_strategy_move(strategy, row, lo, hi),) if strategy_turn else sub.moves_of(lo, hi)
            )
            children = [(lo + 1, hi) if move == "L" else (lo, hi - 1) for move in moves]
            missing = [child for child in children if child not in best]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            if strategy_turn:
                coin = row[lo] if moves[0] == "L" else row[hi]
                best[lo, hi] = (coin + best[children[0]][0], moves[0])
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
        moves: tuple[str, ...] = sub.moves_of(lo, hi)
        if (n - (hi - lo + 1)) % 2 == 0:  # the strategy's turn
            move = _strategy_move(strategy, row, lo, hi)
            if move not in moves:
                return True
            moves = (move,)
        if "L" in moves:
            stack.append((lo + 1, hi))
        if "R" in moves:
            stack.append((lo, hi - 1))
    return False


def check_row(
    coins: Sequence[object], strategy: Strategy, *, rules: Rules | str | None = None
) -> Counterexample | None:
    """The counterexample this row gives, or None when the strategy gets the optimal first
    total against every optimal opponent (:func:`strays`, then :func:`worst_line` for the
    report).

    >>> from coinrow.strategies import get
    >>> check_row([2, 1, 2, 3, 3, 3], get("thibault")).strategy_total
    7
    >>> check_row([2, 1, 2, 3, 3, 3], get("optimal")) is None
    True

    Under other ``rules`` (Python, by :func:`worst_line_under`): the strategy plays the
    first seat against opponents who make only optimal moves (every one tried; under
    ``reply:S`` the second seat is S, under ``players:P`` the other seats play best).

    >>> example = check_row([2, 1, 2, 2], get("greedy", rules="misere"), rules="misere")
    >>> example.strategy_total, example.optimal_total, example.loss, example.strategy_line
    (4, 3, 1, 'LLLL')
    """
    chosen = coerce_rules(rules)
    if not chosen.is_plain:
        return _check_row_under(coins, strategy, chosen)
    row = Row.of(coins)
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


def _aim(rules: Rules, totals: Sequence[Value]) -> Value:
    """What the first seat plays for, from everyone's totals."""
    return rules.aim(totals, 0)


def worst_line_under(
    coins: Sequence[object], strategy: Strategy, rules: Rules | str, values: PlayValues
) -> tuple[tuple[Value, ...], tuple[str, ...]]:
    """Every player's totals and the line when the strategy plays the first seat under the
    rules and the others make only optimal moves, the ones that hurt it most
    (:meth:`~coinrow.game.Position.best_moves`, every one tried). O(r) strategy calls and
    value queries for the r reachable positions; no recursion.

    >>> from coinrow.strategies import get, play_values
    >>> worst_line_under([1, 2, 3, 4], get("greedy", rules="take:2"), "take:2",
    ...                  play_values([1, 2, 3, 4], "take:2"))
    ((7, 3), ('R2', 'L2'))
    """
    chosen = coerce_rules(rules)
    start = Position.start(coins, rules=chosen)
    row = start.coins
    zero = zero_like(list(row[:1]))
    best: dict[Position, tuple[tuple[Value, ...], str, Position | None]] = {}
    stack = [start]
    with exact_arithmetic():
        while stack:
            position = stack[-1]
            if position in best:
                stack.pop()
                continue
            if position.is_over:
                best[position] = ((zero,) * chosen.players, "", None)
                stack.pop()
                continue
            if position.seat == 0:
                moves: tuple[str, ...] = (_legal(position, strategy(position)),)
            else:
                moves = position.best_moves(values=values)
            children = [position.play(move) for move in moves]
            missing = [child for child in children if child not in best]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            options = []
            for move, child in zip(moves, children, strict=True):
                gain = chosen.gain(
                    sum((row[index] for index in position.indices_of(move)), zero),
                    sum(child.remaining, zero),
                )
                totals = list(best[child][0])
                totals[position.seat] += gain
                options.append((tuple(totals), move, child))
            best[position] = min(options, key=lambda option: _aim(chosen, option[0]))
    line, here = [], best[start]
    while here[2] is not None:
        line.append(here[1])
        here = best[here[2]]
    return best[start][0], tuple(line)


def _legal(position: Position, move: str) -> str:
    try:
        return position.move_text(move)
    except IllegalMoveError as error:
        raise IllegalMoveError(f"the strategy returned an illegal move: {error}") from None


def _check_row_under(
    coins: Sequence[object], strategy: Strategy, rules: Rules
) -> Counterexample | None:
    row = Row.of(coins)
    if not row:
        return None
    values = play_values(row, rules)
    totals, line = worst_line_under(row, strategy, rules, values)
    optimal = Position.start(row, rules=rules).best_totals(values=values)
    with exact_arithmetic():
        shortfall = _aim(rules, optimal) - _aim(rules, totals)
    if shortfall <= 0:
        return None
    game = Game(row, rules=rules)
    while not game.position.is_over:
        game.push(game.best_moves(values=values)[0])
    return Counterexample(
        row,
        totals[0],
        optimal[0],
        join_moves(line),
        game.line,
        rules=rules,
        shortfall=shortfall,
    )
