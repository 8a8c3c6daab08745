"""The general memoised search of two-player rules whose positions are not intervals
(``Rules.engine == "search-dp"``, such as Stone Game II): the rules give the start state and
each move of a state; the engine searches every reachable state once, from whichever state is
asked (:class:`SearchValues`, which the model's positions share).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate
from typing import Any

from ..errors import UnsupportedRulesError
from ..numbers import Value, exact_arithmetic, zero_like
from ..rules import Move, Moves, Rules, as_moves
from . import MAX_SECONDS
from .costs import check_variant_bytes, check_variant_seconds, variant_cost
from .interval import VariantResult
from .table import MEMORY_BUDGET


def search_solve(coins: Sequence[Value], rules: Rules) -> VariantResult:
    """The general memoised search of two-player rules whose positions are not intervals
    (``Rules.engine == "search-dp"``): the rules give the start state and, for a state,
    each move with the coins it takes from the front and the next state
    (:meth:`~coinrow.rules.Rules.state_moves`); the mover maximises their total minus the
    other's. O(sum of moves over the reachable states) time and memory (a
    :class:`SearchValues` from the start); an explicit stack, so no recursion limit.

    >>> class FrontOneOrTwo(Rules):  # a rule given by its states: coins gone from the front
    ...     engine, interval, counted_moves, take = "search-dp", False, True, 2
    ...     def start_state(self): return (0,)
    ...     def state_moves(self, state, n):
    ...         return tuple((self.move(0, c), c, (state[0] + c,)) for c in (1, 2) if state[0] + c <= n)
    >>> result = search_solve([1, 2, 3, 7], FrontOneOrTwo())
    >>> result.totals, result.moves, result.first_moves
    ((8, 5), ('L1', 'L2', 'L1'), ('L1',))
    """  # noqa: E501
    n = len(coins)
    zero = zero_like(list(coins[:1]))
    if not n:
        return VariantResult((zero, zero), zero, (), ())
    values = SearchValues(coins, rules)
    start = rules.start_state()
    line, totals = values.line_of(start)
    return VariantResult(totals, values.margin_of(start), line, values.best_moves_of(start))


def search_values(
    coins: Sequence[Value],
    rules: Rules,
    *,
    max_seconds: float | None = MAX_SECONDS,
    memory_budget: int | None = None,
) -> SearchValues:
    """The :class:`SearchValues` of a validated row under rules whose positions keep a state,
    refused before any work when the whole search is estimated (:func:`variant_cost`) over
    ``max_seconds`` (:class:`~coinrow.errors.CostLimitError`; ``None``: no limit) or over
    ``memory_budget`` bytes (:class:`~coinrow.errors.RowTooLongError`; default
    :data:`coinrow.engines.table.MEMORY_BUDGET`) (O(n) to check).

    >>> search_values([1] * 2000, Rules.parse("stone-game-ii"), max_seconds=10)
    Traceback (most recent call last):
    ...
    coinrow.errors.CostLimitError: the positions of 2,000 coins under stone-game-ii would take about 15 minutes, over the limit of 10 seconds
    """  # noqa: E501
    if not rules.stateful:
        raise UnsupportedRulesError(f"rules {rules} keep no state besides an interval")
    seconds, needed = variant_cost(coins, rules, limit=max_seconds)
    what = f"the positions of {len(coins):,} coins under {rules}"
    check_variant_bytes(needed, MEMORY_BUDGET if memory_budget is None else memory_budget, what)
    check_variant_seconds(seconds, max_seconds, what)
    return SearchValues(coins, rules)


class SearchValues:
    """The mover's best margin and optimal moves from any state of two-player rules whose
    positions are not intervals (``Rules.engine == "search-dp"``), for one validated row:
    the memoised search of :func:`search_solve`, filled lazily from each state asked
    (every state reachable from it, once; O(moves of those states) time and memory in all).

    >>> values = SearchValues([2, 7, 9, 4, 4], Rules.parse("stone-game-ii"))
    >>> values.margin_of((0, 1)), values.best_moves_of((0, 1)), values.line_of((3, 2))
    (-6, ('L1',), (('L2',), (8, 0)))
    """

    def __init__(self, coins: Sequence[Value], rules: Rules) -> None:
        self.coins, self.rules, self.n = coins, rules, len(coins)
        self.zero: Value = zero_like(list(coins[:1]))
        self.prefix: list[Value] = [self.zero, *accumulate(coins)]
        self._best: dict[Any, tuple[Value, int]] = {}  # state -> (margin, index of first best)

    def _gain(self, state: Any, taken: int) -> Value:
        return self.prefix[state[0] + taken] - self.prefix[state[0]]

    def _after(self, child: Any) -> Value:
        """The margin of the player who moves at ``child`` (zero when it is over)."""
        return self.zero if _over(child, self.n) else self._best[child][0]

    def _fill(self, start: Any) -> None:
        """Solve every state reachable from ``start`` not solved yet: a depth-first walk with
        one frame per state on the current line (the states form a DAG: the coins gone only
        grow), so each state is expanded once and the stack holds at most n frames."""
        n, best, rules, prefix = self.n, self._best, self.rules, self.prefix
        if start in best:
            return
        frames: list[tuple[Any, tuple[tuple[Move, int, Any], ...], int]] = [
            (start, rules.state_moves(start, n), 0)
        ]
        while frames:
            state, moves, index = frames[-1]
            while index < len(moves) and (moves[index][2] in best or _over(moves[index][2], n)):
                index += 1
            if index < len(moves):
                frames[-1] = (state, moves, index)
                child = moves[index][2]
                frames.append((child, rules.state_moves(child, n), 0))
                continue
            frames.pop()
            gone, zero = state[0], self.zero
            values = [
                prefix[gone + taken]
                - prefix[gone]
                - (zero if child[0] >= n else best[child][0])  # over: every coin gone
                for _, taken, child in moves
            ]
            top = max(values)
            best[state] = (top, values.index(top))  # ties: the first move in the rules' order

    def margin_of(self, state: Any) -> Value:
        """The mover's total minus the other's from ``state`` on, with best play (O(1) once
        filled)."""
        if _over(state, self.n):
            return self.zero
        with exact_arithmetic():
            self._fill(state)
        return self._best[state][0]

    def best_moves_of(self, state: Any) -> Moves:
        """Every optimal move of ``state``, in the rules' order (O(moves))."""
        if _over(state, self.n):
            return ()
        top = self.margin_of(state)
        with exact_arithmetic():
            return as_moves(
                [
                    move
                    for move, taken, child in self.rules.state_moves(state, self.n)
                    if self._gain(state, taken) - self._after(child) == top
                ]
            )

    def line_of(self, state: Any) -> tuple[tuple[str, ...], tuple[Value, Value]]:
        """One optimal line from ``state`` (the first best move each time) and what the
        mover and the other take along it (O(n) after the fill)."""
        self.margin_of(state)
        line: list[str] = []
        totals = [self.zero, self.zero]
        turn = 0
        with exact_arithmetic():
            while not _over(state, self.n):
                move, taken, child = self.rules.state_moves(state, self.n)[self._best[state][1]]
                line.append(move)
                totals[turn] += self._gain(state, taken)
                state, turn = child, 1 - turn
        return tuple(line), (totals[0], totals[1])


def _over(state: Any, n: int) -> bool:
    """A search state is over when every coin is gone (its first item counts them)."""
    return bool(state[0] >= n)
