"""Brute-force game-tree searches of every variant (docs/variants.md), for the tests only.

Nothing here imports coinrow: each search walks the game tree of its variant straight from
the rules' wording, memoised on the position (a row of n coins has O(n^2) positions, each
looked at once). They return what the engines return: the first player's
objective margin (two players) or every player's total (N players), and the set of optimal
first moves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

Number = Any


class TwoPlayer:
    """The game tree of one two-player variant, searched from the rules' wording.

    A position is the tuple of coins left: the mover's objective margin there depends on
    nothing else, so one search shares its positions between every row it is asked about
    (every contiguous sub-row of a row is itself a position, which is what makes an
    exhaustive enumeration of rows cheap). Positions are looked up by the coins' values, so
    ``(1, 2)`` and ``(Fraction(1), 2)`` are the same position, as they are the same game.

    kind: plain (own coins minus the other's), misere (the other's coins minus own), svii
    (points: the sum of the coins left after each own move, minus the other's), take (take 1
    to ``take`` coins, None: any, from one end), front (take 1 to ``take`` coins from the
    front only), both (L, R or both ends).
    """

    def __init__(self, kind: str, take: int | None = 1) -> None:
        assert kind in ("plain", "misere", "svii", "take", "front", "both"), kind
        self.kind, self.take = kind, take
        self.margins: dict[tuple[Number, ...], Number] = {(): 0}

    def moves(self, row: tuple[Number, ...]) -> list[tuple[str, tuple[Number, ...], Number]]:
        """(text, the coins left, the mover's score) of every move from ``row``."""
        kind = self.kind
        if kind in ("take", "front"):
            most = len(row) if self.take is None else min(self.take, len(row))
            lefts = [(f"L{c}", row[c:], sum(row[:c])) for c in range(1, most + 1)]
            if kind == "front":
                return lefts
            rights = [(f"R{c}", row[:-c], sum(row[-c:])) for c in range(1, most + 1)]
            return lefts + rights
        result = [("L", row[1:], row[0]), ("R", row[:-1], row[-1])]
        if kind == "both" and len(row) >= 2:
            result.append(("B", row[1:-1], row[0] + row[-1]))
        if kind == "misere":
            return [(text, left, -score) for text, left, score in result]
        if kind == "svii":
            return [(text, left, sum(left)) for text, left, _ in result]
        return result

    def margin(self, row: tuple[Number, ...]) -> Number:
        """The mover's objective margin with best play by both from ``row``."""
        known = self.margins.get(row)
        if known is None:
            known = self.margins[row] = max(
                score - self.margin(left) for _, left, score in self.moves(row)
            )
        return known

    def __call__(self, coins: Sequence[Number]) -> tuple[Number, dict[str, Number]]:
        """The mover's objective margin of the whole row and each first move's margin."""
        row = tuple(coins)
        if not row:
            return 0, {}
        firsts = {text: score - self.margin(left) for text, left, score in self.moves(row)}
        return max(firsts.values()), firsts


def two_player(
    coins: Sequence[Number], kind: str, take: int | None = 1
) -> tuple[Number, dict[str, Number]]:
    """The mover's objective margin of the whole row and each first move's margin, by a
    search of its own (:class:`TwoPlayer` shares one between rows)."""
    return TwoPlayer(kind, take)(coins)


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


class Players:
    """Every player's total when each of ``p`` players maximises their own total; a mover's
    ties go left, right, or (spite) to the move after which the best-off other player gets
    least, then left.

    A position is the tuple of coins left; its totals are read from the mover's seat (index
    0 the mover, 1 the next to move, ...), which is all they depend on, so one search shares
    its positions between every row it is asked about."""

    def __init__(self, p: int, tie: str) -> None:
        assert tie in ("left", "right", "spite"), tie
        self.p, self.tie = p, tie
        self.known: dict[tuple[Number, ...], tuple[Number, ...]] = {(): (0,) * p}

    def totals(self, row: tuple[Number, ...]) -> tuple[Number, ...]:
        """Each player's total from ``row`` on, the mover first."""
        known = self.known.get(row)
        if known is not None:
            return known
        options = []
        for coin, left in ((row[0], row[1:]), (row[-1], row[:-1])):
            after = self.totals(left)  # read from the next mover: the mover is its last seat
            mine = [after[-1] + coin, *after[:-1]]
            options.append(tuple(mine))
        take_left, take_right = options
        if take_left[0] != take_right[0] or len(row) == 1:
            chosen = take_left if take_left[0] >= take_right[0] else take_right
        else:  # a tie for the mover: left, right, or the spiteful one (then left)
            spite = max(take_right[1:]) < max(take_left[1:])
            goes_right = self.tie == "right" or (self.tie == "spite" and spite)
            chosen = take_right if goes_right else take_left
        self.known[row] = chosen
        return chosen

    def __call__(self, coins: Sequence[Number]) -> tuple[Number, ...]:
        """Every player's total, seat 0 (the first to move) first."""
        return self.totals(tuple(coins))


def players(coins: Sequence[Number], p: int, tie: str) -> tuple[Number, ...]:
    """Every player's total, seat 0 first, by a search of its own (:class:`Players` shares
    one between rows)."""
    return Players(p, tie)(coins)


def front(coins: Sequence[Number], k: int) -> tuple[Number, dict[str, Number]]:
    """Take 1 to ``k`` coins from the front of the row only; each wants the largest total
    (LeetCode 1406 with k = 3, LintCode 395 with k = 2): the mover's margin of the whole row
    and each first move's margin, moves ``L1`` to ``Lk``, by a search of its own
    (``TwoPlayer("front", k)`` shares one between rows)."""
    return TwoPlayer("front", k)(coins)


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
