"""Brute-force game-tree searches of every variant (docs/variants.md), for the tests only.

Nothing here imports coinrow: each search walks the game tree of its variant straight from
the rules' wording, memoised per row on the position (so a row of n coins costs O(n^2)
positions, each looked at once). They return what the engines return: the first player's
objective margin (two players) or every player's total (N players), and the set of optimal
first moves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

Number = Any


def two_player(
    coins: Sequence[Number], kind: str, take: int | None = 1
) -> tuple[Number, dict[str, Number]]:
    """The mover's objective margin of the whole row and each first move's margin.

    kind: plain (own coins minus the other's), misere (the other's coins minus own), svii
    (points: the sum of the coins left after each own move, minus the other's), take (take 1
    to ``take`` coins, None: any, from one end), both (L, R or both ends).
    """
    row = tuple(coins)

    def moves(lo: int, hi: int) -> list[tuple[str, int, int, Number]]:
        """(text, new lo, new hi, the mover's score) of every move."""
        result = []
        count = hi - lo + 1
        if kind == "take":
            most = count if take is None else min(take, count)
            for c in range(1, most + 1):
                result.append((f"L{c}", lo + c, hi, sum(row[lo : lo + c])))
            for c in range(1, most + 1):
                result.append((f"R{c}", lo, hi - c, sum(row[hi - c + 1 : hi + 1])))
            return result
        result = [("L", lo + 1, hi, row[lo]), ("R", lo, hi - 1, row[hi])]
        if kind == "both" and count >= 2:
            result.append(("B", lo + 1, hi - 1, row[lo] + row[hi]))
        if kind == "misere":
            result = [(m, a, b, -s) for m, a, b, s in result]
        if kind == "svii":
            result = [(m, a, b, sum(row[a : b + 1])) for m, a, b, _ in result]
        return result

    @cache
    def best(lo: int, hi: int) -> Number:
        if lo > hi:
            return 0
        return max(score - best(a, b) for _, a, b, score in moves(lo, hi))

    if not row:
        return 0, {}
    firsts = {text: score - best(a, b) for text, a, b, score in moves(0, len(row) - 1)}
    best.cache_clear()
    return max(firsts.values()), firsts


def pizza(coins: Sequence[Number]) -> tuple[Number, dict[str, Number]]:
    """The pizza on its circle: the first player's margin and each first slice's margin.

    After the first slice the eaten slices form an arc; each move eats the slice clockwise
    after the arc or the one counter-clockwise before it. A state is the uneaten arc (its
    first slice clockwise and its length)."""
    n = len(coins)

    @cache
    def best(first: int, length: int) -> Number:
        if length == 0:
            return 0
        last = (first + length - 1) % n
        take_first = coins[first] - best((first + 1) % n, length - 1)
        take_last = coins[last] - best(first, length - 1)
        return max(take_first, take_last)

    if not n:
        return 0, {}
    firsts = {str(s): coins[s] - best((s + 1) % n, n - 1) for s in range(n)}
    return max(firsts.values()), firsts


def reply(
    coins: Sequence[Number], opponent: Callable[[Sequence[Number], int, int], str]
) -> tuple[Number, dict[str, Number]]:
    """The first player's largest total against a known second player, and each first move's."""
    row = tuple(coins)

    @cache
    def mine(lo: int, hi: int, first_to_move: bool) -> Number:
        if lo > hi:
            return 0
        if not first_to_move:
            move = opponent(row, lo, hi)
            return mine(lo + 1, hi, True) if move == "L" else mine(lo, hi - 1, True)
        return max(row[lo] + mine(lo + 1, hi, False), row[hi] + mine(lo, hi - 1, False))

    if not row:
        return 0, {}
    n = len(row)
    firsts = {"L": row[0] + mine(1, n - 1, False), "R": row[-1] + mine(0, n - 2, False)}
    return mine(0, n - 1, True), firsts


def greedy(row: Sequence[Number], lo: int, hi: int) -> str:
    """The greedy player of SPOJ TWENDS: the larger end, left on equality."""
    return "L" if row[lo] >= row[hi] else "R"


def players(coins: Sequence[Number], p: int, tie: str) -> tuple[Number, ...]:
    """Every player's total, seat 0 first, when each maximises their own total; a mover's
    ties go left, right, or (spite) to the move after which the best-off other player gets
    least, then left."""
    row = tuple(coins)

    @cache
    def totals(lo: int, hi: int, seat: int) -> tuple[Number, ...]:
        if lo > hi:
            return (0,) * p
        options = []
        for coin, a, b in ((row[lo], lo + 1, hi), (row[hi], lo, hi - 1)):
            after = list(totals(a, b, (seat + 1) % p))
            after[seat] += coin
            options.append(tuple(after))
        left, right = options
        if left[seat] != right[seat] or lo == hi:
            return left if left[seat] >= right[seat] else right
        if tie == "right":
            return right
        if tie == "spite":
            worst_left = max(v for k, v in enumerate(left) if k != seat)
            worst_right = max(v for k, v in enumerate(right) if k != seat)
            return right if worst_right < worst_left else left
        return left

    return totals(0, len(row) - 1, 0) if row else (0,) * p


def front(coins: Sequence[Number], k: int) -> tuple[Number, dict[str, Number]]:
    """Take 1 to ``k`` coins from the front of the row only; each wants the largest total
    (LeetCode 1406 with k = 3, LintCode 395 with k = 2). A state is how many coins are
    gone. Returns the mover's margin (own total minus the other's) of the whole row and
    each first move's margin, moves named ``L1`` to ``Lk``."""
    row = tuple(coins)

    @cache
    def best(gone: int) -> Number:
        if gone == len(row):
            return 0
        return max(
            sum(row[gone : gone + c]) - best(gone + c)
            for c in range(1, min(k, len(row) - gone) + 1)
        )

    if not row:
        return 0, {}
    firsts = {f"L{c}": sum(row[:c]) - best(c) for c in range(1, min(k, len(row)) + 1)}
    best.cache_clear()
    return max(firsts.values()), firsts


def stone_game_ii(piles: Sequence[Number]) -> tuple[Number, Number]:
    """LeetCode 1140 from its wording: players alternate, the first starts with M = 1; a
    player takes all the piles of the first X remaining piles, 1 <= X <= 2M, then
    M = max(M, X); the game ends when every pile is taken; each wants the most stones.
    Returns (first player's total, second player's total) with best play."""
    row = tuple(piles)

    @cache
    def best(gone: int, m: int) -> Number:
        """The mover's margin from here."""
        if gone == len(row):
            return 0
        return max(
            sum(row[gone : gone + x]) - best(gone + x, max(m, x))
            for x in range(1, min(2 * m, len(row) - gone) + 1)
        )

    margin = best(0, 1) if row else 0
    best.cache_clear()
    total = sum(row)
    return (total + margin) / 2, (total - margin) / 2


def stone_game_ii_positions(
    piles: Sequence[Number],
) -> Callable[[int, int], tuple[Number, dict[str, Number]]]:
    """LeetCode 1140 from any position of one row: a function of ``gone`` (piles already
    taken) and the mover's M, giving the mover's margin (own stones minus the other's from
    here on) with best play and each legal move's margin, moves named ``L1`` to ``L(2M)``
    (take the first X piles left). One memo per row, shared by every position asked."""
    row = tuple(piles)

    @cache
    def moves(gone: int, m: int) -> dict[str, Number]:
        return {
            f"L{x}": sum(row[gone : gone + x]) - best(gone + x, max(m, x))
            for x in range(1, min(2 * m, len(row) - gone) + 1)
        }

    def best(gone: int, m: int) -> Number:
        return max(moves(gone, m).values()) if gone < len(row) else 0

    def position(gone: int, m: int) -> tuple[Number, dict[str, Number]]:
        return best(gone, m), moves(gone, m)

    return position
