"""Top-down memoised recursion on the margin (the seeds' memoisation).

D(i, j) = max(a_i - D(i+1, j), a_j - D(i, j-1)), D(i, i) = a_i. The recursion runs on an
explicit stack, so no row is too long for Python's recursion limit. The memo holds every
subgame, like :class:`~coinrow.engines.table.Table`, and has the same memory budget.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import TableTooLargeError
from . import EngineResult, moves_from_margins, table

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


def check_budget(coins: Sequence[object]) -> None:
    """Refuse a row whose memo would exceed :data:`coinrow.engines.table.MEMORY_BUDGET`, by
    the pure-Python table's estimate of bytes per subgame (O(n)); raises
    :class:`~coinrow.errors.TableTooLargeError`.

    >>> check_budget([1] * 1000)
    >>> check_budget([1] * 20_000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    coinrow.errors.TableTooLargeError: the memo of 20000 coins needs about 7.5 GiB ...
    """
    n = len(coins)
    per_cell = table.bytes_per_cell(coins)
    needed, budget = table.cell_count(n) * per_cell, table.MEMORY_BUDGET
    if needed > budget:
        raise TableTooLargeError(
            f"the memo of {n} coins needs about {_size(needed)} ({per_cell} bytes for each "
            f"of {table.cell_count(n):,} subgames), over the {_size(budget)} budget; "
            "use the reduction engine"
        )


def _size(count: int) -> str:
    return f"{count / 2**30:.1f} GiB" if count >= 2**30 else f"{count / 2**20:.1f} MiB"


def solve(coins: Sequence[object]) -> EngineResult:
    """Solve by memoised recursion (O(n^2) time and memory), ``L`` on ties; refuses rows over
    the memory budget (:func:`check_budget`).

    >>> solve([3, 2, 2, 3, 1, 2])
    EngineResult(margin=3, line='LLRLLL', first_moves='L')
    """
    if not coins:
        return EngineResult(0, "", "")
    check_budget(coins)
    memo = _fill(coins)
    lo, hi, line = 0, len(coins) - 1, []
    while lo <= hi:
        move = _moves(coins, memo, lo, hi)[0]
        line.append(move)
        lo, hi = (lo + 1, hi) if move == "L" else (lo, hi - 1)
    first = _moves(coins, memo, 0, len(coins) - 1)
    return EngineResult(memo[0][len(coins) - 1], "".join(line), first)
