"""Top-down memoised recursion on the margin (the seeds' memoisation).

D(i, j) = max(a_i - D(i+1, j), a_j - D(i, j-1)), D(i, i) = a_i. The recursion runs on an
explicit stack, so no row is too long for Python's recursion limit.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import EngineResult, moves_from_margins

Memo = list[list[object]]


def _fill(coins: Sequence[object]) -> Memo:
    """memo[i][j - i] = D(i, j), computed on demand from the full game down."""
    n = len(coins)
    memo: Memo = [[None] * (n - i) for i in range(n)]
    stack = [(0, n - 1)]
    while stack:
        i, j = stack[-1]
        if memo[i][j - i] is not None:
            stack.pop()
            continue
        if i == j:
            memo[i][0] = coins[i]
            stack.pop()
            continue
        after_left, after_right = memo[i + 1][j - i - 1], memo[i][j - i - 1]
        if after_left is None:
            stack.append((i + 1, j))
        if after_right is None:
            stack.append((i, j - 1))
        if after_left is not None and after_right is not None:
            memo[i][j - i] = max(coins[i] - after_left, coins[j] - after_right)  # type: ignore[operator]
            stack.pop()
    return memo


def _moves(coins: Sequence[object], memo: Memo, i: int, j: int) -> str:
    if i == j:
        return "LR"
    left = coins[i] - memo[i + 1][j - i - 1]  # type: ignore[operator]
    right = coins[j] - memo[i][j - i - 1]  # type: ignore[operator]
    return moves_from_margins(left, right)


def solve(coins: Sequence[object]) -> EngineResult:
    """Solve by memoised recursion (O(n^2) time and memory), ``L`` on ties.

    >>> solve([3, 2, 2, 3, 1, 2])
    EngineResult(margin=3, line='LLRLLL', first_moves='L')
    """
    if not coins:
        return EngineResult(0, "", "")
    memo = _fill(coins)
    lo, hi, line = 0, len(coins) - 1, []
    while lo <= hi:
        move = _moves(coins, memo, lo, hi)[0]
        line.append(move)
        lo, hi = (lo + 1, hi) if move == "L" else (lo, hi - 1)
    first = _moves(coins, memo, 0, len(coins) - 1)
    return EngineResult(memo[0][len(coins) - 1], "".join(line), first)
