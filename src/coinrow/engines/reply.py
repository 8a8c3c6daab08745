"""The best reply to a known opponent (``reply:S``, SPOJ TWENDS against greedy): the first
player's best against a deterministic second player, by an O(n^2) DP over the subgames,
compiled for the greedy opponent on long int64-safe int rows (docs/variants.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..errors import UnsupportedRulesError
from ..numbers import Value, zero_like
from .dispatch import REPLY_KERNEL_MIN_LENGTH, kernel_row
from .interval import _SIDES, VariantResult, advance

#: An opponent of ``reply``: the move (``"L"`` or ``"R"``) it makes in subgame lo..hi.
Opponent = Callable[[int, int], str]


def greedy_opponent(coins: Sequence[Value]) -> Opponent:
    """The greedy opponent: the larger end, left on equality (O(1) a call).

    >>> greedy_opponent([3, 2, 10, 4])(1, 3)
    'R'
    """
    return lambda lo, hi: "L" if coins[lo] >= coins[hi] else "R"


#: Opponents the engines know without the strategies module.
OPPONENTS: dict[str, Callable[[Sequence[Value]], Opponent]] = {"greedy": greedy_opponent}


def reply_solve(coins: Sequence[Value], opponent: Opponent) -> VariantResult:
    """The first player's best against a deterministic second player (O(n^2) states, one
    ``opponent`` call per state with the second player to move).

    F(i, j) = max(a_i + G(i+1, j), a_j + G(i, j-1)) with the first player to move;
    G(i, j) = F(the subgame the opponent's move leaves). ``objective`` is the margin.

    >>> reply_solve([3, 2, 10, 4], greedy_opponent([3, 2, 10, 4])).objective
    7
    """
    n = len(coins)
    if not n:
        return VariantResult((0, 0), 0, (), ())
    zero = zero_like(list(coins[:1]))
    below: list[Value] = []  # the first player's totals from the subgames one coin shorter
    codes: list[bytearray] = []  # 0 = L, 1 = R: the first player's best, or the opponent's move
    for width in range(n):
        first_moves = (n - width - 1) % 2 == 0
        row_values: list[Value] = []
        row_codes = bytearray()
        for i in range(n - width):
            j = i + width
            after_left = below[i + 1] if width else zero
            after_right = below[i] if width else zero
            if first_moves:
                take_left, take_right = coins[i] + after_left, coins[j] + after_right
                if take_left >= take_right:
                    row_values.append(take_left)
                    row_codes.append(0)
                else:
                    row_values.append(take_right)
                    row_codes.append(1)
            else:
                move = opponent(i, j)
                if move not in ("L", "R"):
                    raise UnsupportedRulesError(f"the opponent played {move!r}, not L or R")
                row_values.append(after_left if move == "L" else after_right)
                row_codes.append(0 if move == "L" else 1)
        if width < n - 1:
            below = row_values
        codes.append(row_codes)
    moves, lo, hi = [], 0, n - 1
    while lo <= hi:
        side = codes[hi - lo][lo]
        moves.append(_SIDES[side])
        lo, hi = advance(lo, hi, side, 1)
    first = row_values[0]
    total = sum(coins, zero)
    after_left = below[1] if n > 1 else zero
    after_right = below[0] if n > 1 else zero
    options = {"L": coins[0] + after_left, "R": coins[n - 1] + after_right}
    best_first = tuple(move for move, value in options.items() if value == first)
    return VariantResult((first, total - first), first - (total - first), tuple(moves), best_first)


def reply_greedy_solve(coins: Sequence[Value]) -> VariantResult:
    """The best reply to the greedy opponent (SPOJ TWENDS): :func:`reply_solve` with
    :func:`greedy_opponent`, compiled for int64-safe int rows of
    :data:`REPLY_KERNEL_MIN_LENGTH` coins or more (the same results; O(n^2) time, n(n+1)/2
    bytes of move codes, O(n) values).

    >>> reply_greedy_solve([3, 2, 10, 4]).objective, reply_greedy_solve(list(range(100))).totals
    (7, (2500, 2450))
    """
    row = kernel_row(coins, REPLY_KERNEL_MIN_LENGTH)
    if row is None:
        return reply_solve(coins, greedy_opponent(coins))
    from .variant_kernels import reply_greedy

    first, after_left, after_right, codes = reply_greedy(row)
    n = len(row)
    moves, lo, hi = [], 0, n - 1
    while lo <= hi:
        width = hi - lo
        side = int(codes[width * n - width * (width - 1) // 2 + lo])
        moves.append(_SIDES[side])
        lo, hi = advance(lo, hi, side, 1)
    total = int(row.sum())
    options = {"L": int(row[0]) + after_left, "R": int(row[n - 1]) + after_right}
    best_first = tuple(move for move, value in options.items() if value == first)
    return VariantResult((first, total - first), 2 * first - total, tuple(moves), best_first)
