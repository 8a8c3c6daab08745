"""The general memoised search of two-player rules whose positions are not intervals
(``Rules.engine == "search-dp"``, such as Stone Game II): the rules give the start state and
each move of a state; the engine searches every reachable state once.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate
from typing import Any

from ..numbers import Value, zero_like
from ..rules import Rules
from .interval import VariantResult


def search_solve(coins: Sequence[Value], rules: Rules) -> VariantResult:
    """The general memoised search of two-player rules whose positions are not intervals
    (``Rules.engine == "search-dp"``): the rules give the start state and, for a state,
    each move with the coins it takes from the front and the next state
    (:meth:`~coinrow.rules.Rules.state_moves`); the mover maximises their total minus the
    other's. O(sum of moves over the reachable states) time and memory; an explicit stack,
    so no recursion limit.

    >>> class FrontOneOrTwo(Rules):  # a rule given by its states: coins gone from the front
    ...     engine, interval, positions, counted_moves, take = "search-dp", False, False, True, 2
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
    prefix = [zero, *accumulate(coins)]
    start = rules.start_state()
    best: dict[Any, tuple[Value, int]] = {}  # state -> (mover's margin, index of first best)
    stack = [start]
    while stack:
        state = stack[-1]
        if state in best:
            stack.pop()
            continue
        moves = rules.state_moves(state, n)
        missing = [child for _, _, child in moves if child not in best and not _over(child, n)]
        if missing:
            stack.extend(missing)
            continue
        stack.pop()
        gone = state[0]
        values = [
            prefix[gone + taken] - prefix[gone] - (zero if _over(child, n) else best[child][0])
            for _, taken, child in moves
        ]
        top = max(values)
        best[state] = (top, values.index(top))  # ties: the first move in the rules' order
    line: list[str] = []
    totals = [zero, zero]
    state, turn = start, 0
    while not _over(state, n):
        move, taken, child = rules.state_moves(state, n)[best[state][1]]
        line.append(move)
        totals[turn] += prefix[state[0] + taken] - prefix[state[0]]
        state, turn = child, 1 - turn
    top = best[start][0]
    firsts = tuple(
        move
        for move, taken, child in rules.state_moves(start, n)
        if prefix[taken] - (zero if _over(child, n) else best[child][0]) == top
    )
    return VariantResult(tuple(totals), top, tuple(line), firsts)


def _over(state: Any, n: int) -> bool:
    """A search state is over when every coin is gone (its first item counts them)."""
    return bool(state[0] >= n)
