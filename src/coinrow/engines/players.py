"""N players in turn (``players:p``), each maximising their own total, ties broken by the
rules' tie-break (docs/variants.md): an O(n^2 p) DP over the subgames.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..numbers import Value, zero_like
from .interval import _SIDES, VariantResult, advance


def players_solve(coins: Sequence[Value], players: int, tie_break: str) -> VariantResult:
    """N players in turn, each maximising their own total (O(n^2 p) time, O(n p) values kept
    plus O(n^2) move codes).

    V(i, j) lists the totals from subgame i..j of the mover and the players after them; a
    move to child C gives the mover a + C[p-1] and the player k seats later C[k-1]. Ties in
    the mover's total go by ``tie_break``: ``left``, ``right``, or ``spite`` (the move that
    leaves the best-off other player the least, then left).

    >>> players_solve([1, 2, 3, 4, 5], 3, "left").totals
    (7, 5, 3)
    """
    n = len(coins)
    zero = zero_like(list(coins[:1]))
    if not n:
        return VariantResult((zero,) * players, None if players > 2 else zero, (), ())
    empty = (zero,) * players
    previous: list[tuple[Value, ...]] = []
    codes: list[bytearray] = []
    for width in range(n):
        current: list[tuple[Value, ...]] = []
        row_codes = bytearray()
        for i in range(n - width):
            j = i + width
            left_child = previous[i + 1] if width else empty
            right_child = previous[i] if width else empty
            left = (coins[i] + left_child[-1], *left_child[:-1])
            right = (coins[j] + right_child[-1], *right_child[:-1])
            if width == 0 or left[0] > right[0]:
                choice = 0
            elif right[0] > left[0] or tie_break == "right":
                choice = 1
            elif tie_break == "spite":
                choice = 1 if max(right[1:]) < max(left[1:]) else 0
            else:
                choice = 0
            current.append(right if choice else left)
            row_codes.append(choice)
        previous = current
        codes.append(row_codes)
    totals = previous[0]
    moves, lo, hi = [], 0, n - 1
    while lo <= hi:
        side = codes[hi - lo][lo]
        moves.append(_SIDES[side])
        lo, hi = advance(lo, hi, side, 1)
    first = ("L", "R") if n == 1 else _players_first(coins, codes, players, zero)
    objective = totals[0] - totals[1] if players == 2 else None
    return VariantResult(tuple(totals), objective, tuple(moves), first)


def _players_first(
    coins: Sequence[Value], codes: list[bytearray], players: int, zero: Value
) -> tuple[str, ...]:
    """First moves giving the first player their best total (O(n p): two replays)."""
    n = len(coins)
    result = {}
    for side, (lo, hi) in enumerate(((1, n - 1), (0, n - 2))):
        taken = coins[0] if side == 0 else coins[n - 1]
        own, turn = taken, 1
        while lo <= hi:
            code = codes[hi - lo][lo]
            if turn % players == 0:
                own += coins[lo] if code == 0 else coins[hi]
            lo, hi = advance(lo, hi, code, 1)
            turn += 1
        result[_SIDES[side]] = own
    best = max(result.values())
    return tuple(move for move, value in result.items() if value == best)
