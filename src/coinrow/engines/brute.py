"""Exhaustive game tree: every line of play searched, nothing shared between subtrees.

Every sequence of moves is played out and evaluated by minimax on the margin; nothing is
shared between subtrees, so the cost is O(2^n) and rows longer than :data:`MAX_COINS` are
refused.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import RowTooLongError
from ..numbers import Value
from . import EngineResult, moves_from_margins

#: Longest row the exhaustive search accepts (2^20 leaves take about a second).
MAX_COINS = 20


Option = tuple[Value, str]


def _options(coins: Sequence[Value], lo: int, hi: int) -> tuple[Option, Option]:
    """The mover's margin and best line after taking the left coin, and after the right."""
    margin_left, line_left = _search(coins, lo + 1, hi)
    margin_right, line_right = _search(coins, lo, hi - 1)
    return (coins[lo] - margin_left, "L" + line_left), (coins[hi] - margin_right, "R" + line_right)


def _search(coins: Sequence[Value], lo: int, hi: int) -> Option:
    """Best margin for the mover in coins[lo..hi] and a line reaching it (``L`` on ties)."""
    if lo > hi:
        return 0, ""
    left, right = _options(coins, lo, hi)
    return left if left[0] >= right[0] else right


def solve(coins: Sequence[Value]) -> EngineResult:
    """Solve by searching the whole game tree (O(2^n)); refuses n > 20.

    >>> solve([8, 15, 3, 7])
    EngineResult(margin=11, line='RLLL', first_moves='R')
    """
    n = len(coins)
    if n > MAX_COINS:
        raise RowTooLongError(
            f"the brute-force engine searches 2^n lines and refuses n > {MAX_COINS} "
            f"(got {n}); use the default engine"
        )
    if n == 0:
        return EngineResult(0, "", "")
    left, right = _options(coins, 0, n - 1)
    margin, line = left if left[0] >= right[0] else right
    return EngineResult(margin, line, moves_from_margins(left[0], right[0]))
