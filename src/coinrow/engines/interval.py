"""The general interval DP of every two-player interval variant (docs/variants.md).

A two-player DP works with the mover's *objective margin* O(i, j): the mover's score minus
the other's from subgame i..j on, where a move's score is what the rules make it (the coins
taken; minus them in the misère game; the coins left in Stone Game VII). O(i, j) = max over
moves (score - O(child)), O(empty) = 0. :class:`IntervalTable` holds it for every subgame;
:func:`interval_solve` keeps only what a solve needs. Here too is what every variant engine
returns (:class:`VariantResult`) and how a move changes an interval (:func:`advance`,
:func:`replay`).

Moves are texts: ``L`` and ``R`` take one end coin, ``B`` both ends, ``L3``/``R3`` three coins
from one side (every move of ``take:K`` names its count). Ties go to the first move in the
order L before R (before B), fewer coins before more.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Sequence
from itertools import accumulate
from typing import Any, NamedTuple

from ..errors import SubgameError, UnsupportedRulesError
from ..numbers import Value, exact_arithmetic, format_value, halve, json_value, zero_like
from ..rules import Moves, Rules, as_moves, join_moves

#: Side codes of a move: (side, count) -> text.
_SIDES = "LRB"


class VariantResult(NamedTuple):
    """What a variant engine returns.

    ``totals`` holds each player's total along ``moves`` (coins taken, or Stone Game VII's
    points), first player first; ``objective`` the first player's objective margin (None for
    more than two players); ``moves`` one optimal line, move by move; ``first_moves`` every
    optimal first move (for N players: every first move that gives the first player their
    best total); ``starts`` (the pizza only, else None) the first player's margin after
    each first slice, slice 0 first.
    """

    totals: tuple[Value, ...]
    objective: Value | None
    moves: tuple[str, ...]
    first_moves: tuple[str, ...]
    starts: tuple[Value, ...] | None = None


#: Largest K whose take:K tries its 2K moves per subgame along the diagonals (O(n^2 K),
#: cache-friendly); larger K slide window maxima (O(n^2), but two deques of scattered
#: Python objects per subgame: measured slower for K <= 3 at n = 3,000, faster from K = 8).
TAKE_MOVES_MAX_K = 3


class IntervalTable:
    """Objective margins and first optimal moves of every subgame of a two-player interval
    variant (``plain``, ``misere``, ``stone-game-vii``, ``take``, ``both-ends``).

    O(n^2) subgames, each O(1) (amortised): ``take:any`` keeps running extrema and
    ``take:K`` sliding-window maxima instead of trying its 2K moves. O(n^2) memory (a
    diagonal of values and one of move codes per width).

    >>> table = IntervalTable([5, 3, 1, 4, 2], Rules.parse("stone-game-vii"))
    >>> table.objective_of(0, 4), table.move_of(0, 4)
    (6, 'R')
    """

    def __init__(self, coins: Sequence[Value], rules: Rules, *, keep: bool = True) -> None:
        if not rules.interval:
            raise UnsupportedRulesError(f"rules {rules} are not a two-player interval game")
        self.coins = tuple(coins)
        self.rules = rules
        self.zero: Value = zero_like(list(coins[:1]))
        self.prefix: list[Value] = [self.zero, *accumulate(self.coins)]
        #: values[w][i] = O(i, i + w); codes[w][i] = 3 * count + side of its first best move.
        #: Without ``keep`` (a solve, not a table) a diagonal is dropped (None) once no move
        #: reaches it, except its two ends, kept in ``edges`` for the whole row's first moves:
        #: O(n * depth) values and 4 bytes of move code per subgame.
        self.values: list[list[Value] | None] = []
        self.codes: list[array[int]] = []
        self.edges: list[tuple[Value, Value]] = []
        self.keep = keep
        self.depth = 2 if "B" in rules.sides else 1
        #: Moves may take coins from the right end (rules whose moves are all from the
        #: front, such as take-from-the-front rules, have only left moves).
        self.right = "R" in rules.sides
        if rules.counted_moves:
            if rules.take is None or rules.take >= len(self.coins):  # the same game
                self._fill_take_any()
            elif rules.take <= TAKE_MOVES_MAX_K:
                self.depth = rules.take
                self._fill_take_moves()
            else:
                self._fill_take()
        else:
            self._fill_ends()

    def _moves(self, i: int, j: int) -> list[tuple[int, int, Value, int, int]]:
        """(side, count, score, child lo, child hi) of every move in subgame i..j, in tie order."""
        coins, prefix, rules = self.coins, self.prefix, self.rules
        if rules.counted_moves:
            most = j - i + 1 if self.rules.take is None else min(self.rules.take, j - i + 1)
            left = [(0, c, prefix[i + c] - prefix[i], i + c, j) for c in range(1, most + 1)]
            right = [
                (1, c, prefix[j + 1] - prefix[j + 1 - c], i, j - c) for c in range(1, most + 1)
            ]
            return left + right if self.right else left
        if rules.scores_left:
            return [
                (0, 1, prefix[j + 1] - prefix[i + 1], i + 1, j),
                (1, 1, prefix[j] - prefix[i], i, j - 1),
            ]
        sign = -1 if rules.lowest_wins else 1
        moves = [(0, 1, sign * coins[i], i + 1, j), (1, 1, sign * coins[j], i, j - 1)]
        if "B" in rules.sides and i < j:
            moves.append((2, 2, coins[i] + coins[j], i + 1, j - 1))
        return moves

    def _child(self, lo: int, hi: int) -> Value:
        if lo > hi:
            return self.zero
        values = self.values[hi - lo]
        if values is None:
            return self.edges[hi - lo][0 if lo == 0 else 1]
        return values[lo]

    def _store(self, width: int, values: list[Value], codes: array[int]) -> None:
        self.values.append(values)
        self.codes.append(codes)
        self.edges.append((values[0], values[-1]))
        if not self.keep and width > self.depth:
            self.values[width - self.depth - 1] = None

    def _fill_ends(self) -> None:
        """One diagonal at a time, each move's value as a list (the same recurrence as
        :meth:`_moves`, written out for speed): L, R, and B under ``both-ends``."""
        n, prefix, zero, rules = len(self.coins), self.prefix, self.zero, self.rules
        coins = [-coin for coin in self.coins] if rules.lowest_wins else list(self.coins)
        both_ends = "B" in rules.sides
        previous: list[Value] = []
        before: list[Value] = []
        for width in range(n):
            count = n - width
            if rules.scores_left:
                if width == 0:
                    left, right = [zero] * count, [zero] * count
                else:
                    left = [
                        prefix[i + width + 1] - prefix[i + 1] - previous[i + 1]
                        for i in range(count)
                    ]
                    right = [prefix[i + width] - prefix[i] - previous[i] for i in range(count)]
            elif width == 0:
                left, right = coins[:], coins[:]
            else:
                left = [coins[i] - previous[i + 1] for i in range(count)]
                right = [coins[i + width] - previous[i] for i in range(count)]
            values = list(map(max, left, right))  # max keeps the left value on ties
            codes = array("I", [3 if lv >= rv else 4 for lv, rv in zip(left, right, strict=True)])
            if both_ends and width:
                both = [
                    coins[i] + coins[i + width] - (before[i + 1] if width > 1 else zero)
                    for i in range(count)
                ]
                for i, value in enumerate(both):
                    if value > values[i]:
                        values[i], codes[i] = value, 8
            self._store(width, values, codes)
            before, previous = previous, values

    def _fill_take(self) -> None:
        """take:K in O(n^2) whatever K: sliding-window maxima along each column and row.

        Taking c coins from the left of i..j is worth P[i+c] - P[i] - O(i+c, j), so the best
        left move is max over m in i+1..min(i+K, j+1) of (P[m] - O(m, j)), minus P[i]: for a
        fixed j the window slides one step left per diagonal. A monotone deque per column j
        holds the candidates m with strictly decreasing values (a new m, smaller and so
        fewer coins, evicts every candidate it ties or beats; the front is the maximum and
        leaves the window first). The right side is the mirror image, one deque per row i
        over -P[m] - O(i, m-1), m in max(i, j+1-K)..j. O(1) amortised per subgame; O(n K)
        candidates at most in the deques.
        """
        n, prefix, zero = len(self.coins), self.prefix, self.zero
        most = self.rules.take or 1
        columns: list[deque[tuple[Value, int]]] = [deque() for _ in range(n)]
        rows: list[deque[tuple[Value, int]]] = [deque() for _ in range(n)]
        previous: list[Value] = []
        for width in range(n):
            values: list[Value] = []
            codes = array("I")
            for i in range(n - width):
                j = i + width
                column = columns[j]
                fresh = prefix[i + 1] - (previous[i + 1] if width else zero)
                while column and column[-1][0] <= fresh:
                    column.pop()
                column.append((fresh, i + 1))
                if column[0][1] > i + most:
                    column.popleft()
                row = rows[i]
                fresh = -prefix[j] - (previous[i] if width else zero)
                while row and row[-1][0] <= fresh:
                    row.pop()
                row.append((fresh, j))
                if row[0][1] < j + 1 - most:
                    row.popleft()
                left, m_left = column[0]
                right, m_right = row[0]
                take_left = left - prefix[i]
                take_right = prefix[j + 1] + right
                if not self.right or take_left >= take_right:
                    values.append(take_left)
                    codes.append(3 * (m_left - i))
                else:
                    values.append(take_right)
                    codes.append(3 * (j + 1 - m_right) + 1)
            previous = values
            self._store(width, values, codes)

    def _fill_take_moves(self) -> None:
        """take:K for small K, one list per move (L1..LK, then R1..RK: the tie order) and
        diagonal: O(n^2 K), but each list runs along a diagonal kept in memory order, which
        beats the deques' scattered objects for K up to :data:`TAKE_MOVES_MAX_K`."""
        n, prefix, zero = len(self.coins), self.prefix, self.zero
        most = self.rules.take or 1
        for width in range(n):
            count = n - width
            values: list[Value] = []
            codes = array("I")
            for side in (0, 1) if self.right else (0,):
                for taken in range(1, min(most, width + 1) + 1):
                    child = self.values[width - taken] if taken <= width else None
                    if side == 0:
                        scores = [
                            prefix[i + taken]
                            - prefix[i]
                            - (child[i + taken] if child is not None else zero)
                            for i in range(count)
                        ]
                    else:
                        scores = [
                            prefix[i + width + 1]
                            - prefix[i + width + 1 - taken]
                            - (child[i] if child is not None else zero)
                            for i in range(count)
                        ]
                    code = 3 * taken + side
                    if not values:
                        values, codes = scores, array("I", [code]) * count
                        continue
                    for i, value in enumerate(scores):
                        if value > values[i]:
                            values[i], codes[i] = value, code
            self._store(width, values, codes)

    def _fill_take_any(self) -> None:
        """O(n^2): left(i, j) = max over m in i+1..j+1 of P[m] - O(m, j) and right(i, j) = max
        over m in i..j of -P[m] - O(i, m - 1) follow their neighbours (running extrema)."""
        n, prefix = len(self.coins), self.prefix
        left_best: list[tuple[Value, int]] = []  # (extremum, m) on the previous diagonal
        right_best: list[tuple[Value, int]] = []
        for width in range(n):
            values: list[Value] = []
            codes = array("I")
            lefts: list[tuple[Value, int]] = []
            rights: list[tuple[Value, int]] = []
            previous = self.values[width - 1] if width else []
            assert previous is not None
            for i in range(n - width):
                j = i + width
                if width == 0:
                    left, right = (prefix[j + 1], j + 1), (-prefix[i], i)
                else:
                    fresh_left = prefix[i + 1] - previous[i + 1]
                    old_left = left_best[i + 1]
                    left = (fresh_left, i + 1) if fresh_left >= old_left[0] else old_left
                    fresh_right = -prefix[j] - previous[i]
                    old_right = right_best[i]
                    right = (fresh_right, j) if fresh_right >= old_right[0] else old_right
                lefts.append(left)
                rights.append(right)
                take_left = left[0] - prefix[i]
                take_right = prefix[j + 1] + right[0]
                if not self.right or take_left >= take_right:
                    values.append(take_left)
                    codes.append(3 * (left[1] - i))
                else:
                    values.append(take_right)
                    codes.append(3 * (j + 1 - right[1]) + 1)
            left_best, right_best = lefts, rights
            self._store(width, values, codes)

    def __len__(self) -> int:
        return len(self.coins)

    def _check(self, i: int, j: int) -> None:
        if not 0 <= i <= j < len(self.coins):
            raise SubgameError(f"subgame {i}..{j} is not inside a row of {len(self.coins)} coins")

    def objective_of(self, i: int, j: int) -> Value:
        """The mover's objective margin in subgame i..j (O(1))."""
        self._check(i, j)
        return self._child(i, j)

    def move_of(self, i: int, j: int) -> str:
        """The first optimal move in tie order in subgame i..j (O(1))."""
        self._check(i, j)
        code = self.codes[j - i][i]
        return self.rules.move(code % 3, code // 3)

    def optimal_moves_of(self, i: int, j: int) -> tuple[str, ...]:
        """Every optimal move in subgame i..j (O(moves))."""
        self._check(i, j)
        best = self._child(i, j)
        return tuple(
            self.rules.move(side, count)
            for side, count, score, lo, hi in self._moves(i, j)
            if score - self._child(lo, hi) == best
        )

    def moves_of(self, i: int, j: int) -> Moves:
        """Every optimal move in subgame i..j, in tie order, a tuple of
        :class:`~coinrow.rules.Move` (O(moves)).

        >>> IntervalTable([1, 2, 3], Rules.parse("take:any")).moves_of(0, 2)
        ('L3', 'R3')
        """
        return as_moves(self.optimal_moves_of(i, j))

    def margin_of(self, i: int, j: int) -> Value:
        """The mover's objective margin in subgame i..j, as :meth:`objective_of` (O(1))."""
        return self.objective_of(i, j)

    def total_of(self, i: int, j: int) -> Value:
        """Sum of coins i..j (O(1))."""
        self._check(i, j)
        return self.prefix[j + 1] - self.prefix[i]

    def value_of(self, i: int, j: int) -> Value:
        """The coins the mover takes in subgame i..j under optimal play (O(1)); Stone Game
        VII's points depend on the line, so its subgames have margins only.

        >>> IntervalTable([1, 5, 2], Rules.parse("misere")).value_of(0, 2)
        6
        """
        if self.rules.scores_left:
            raise UnsupportedRulesError(
                "Stone Game VII subgames have margins only (margin_of); points follow the line"
            )
        objective, total = self.objective_of(i, j), self.total_of(i, j)
        with exact_arithmetic():
            both = total - objective if self.rules.lowest_wins else total + objective
            return halve(both)

    def __repr__(self) -> str:
        n = len(self.coins)
        if not n:
            return f"<Table of 0 coins under {self.rules}>"
        return (
            f"<Table of {n} coins under {self.rules}: first player's margin "
            f"{format_value(self.objective_of(0, n - 1))}>"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(n^2)): ``rules``, ``coins``, ``margin`` (the first player's
        objective margin), ``line``, and ``cells``, widest subgame first, each with ``i``,
        ``j``, ``value`` (the coins the mover takes; null under Stone Game VII), ``margin``,
        ``moves`` and ``player`` (``first`` or ``second``, who moves there; null under
        ``take`` and ``both-ends``, where it depends on the line).

        >>> IntervalTable([1, 2, 3], Rules.parse("take:any")).to_dict()["cells"][0]
        {'i': 0, 'j': 2, 'value': 6, 'margin': 6, 'moves': ['L3', 'R3'], 'player': None}
        """
        n = len(self.coins)
        cells = []
        points = self.rules.scores_left
        for width in range(n - 1, -1, -1):
            for i in range(n - width):
                j = i + width
                cells.append(
                    {
                        "i": i,
                        "j": j,
                        "value": None if points else json_value(self.value_of(i, j)),
                        "margin": json_value(self._child(i, j)),
                        "moves": list(self.moves_of(i, j)),
                        # take and both-ends moves take several coins: whose turn it is
                        # depends on the line, so "player" is only given for one-coin moves
                        "player": ("first", "second")[(n - 1 - width) % 2]
                        if self.rules.single_coin_moves
                        else None,
                    }
                )
        return {
            "rules": str(self.rules),
            "coins": [json_value(coin) for coin in self.coins],
            "margin": json_value(self._child(0, n - 1)) if n else 0,
            "line": self.line if n else "",
            "cells": cells,
        }

    @property
    def line(self) -> str:
        """One optimal line, first best move at each step, as one text (O(n))."""
        return join_moves(self.optimal_line())

    def optimal_line(self) -> tuple[str, ...]:
        """One optimal line from the whole row, first best move at each step (O(n))."""
        moves, lo, hi = [], 0, len(self.coins) - 1
        while lo <= hi:
            code = self.codes[hi - lo][lo]
            side, count = code % 3, code // 3
            moves.append(self.rules.move(side, count))
            lo, hi = advance(lo, hi, side, count)
        return tuple(moves)


def advance(lo: int, hi: int, side: int, count: int) -> tuple[int, int]:
    """The subgame left after taking ``count`` coins from ``side`` of lo..hi (O(1))."""
    if side == 0:
        return lo + count, hi
    if side == 1:
        return lo, hi - count
    return lo + 1, hi - 1


def replay(
    coins: Sequence[Value], rules: Rules, moves: Sequence[str], start: int = 0
) -> tuple[Value, ...]:
    """Each player's total along a line of moves from subgame ``start``..n-1 (O(n)):
    coins taken, or Stone Game VII's points (the coins left after each move).

    >>> replay([5, 3, 1, 4, 2], Rules.parse("stone-game-vii"), "LRLRL")
    (15, 9)
    """
    zero = zero_like(list(coins[:1]))
    prefix = [zero, *accumulate(coins)]
    totals = [zero] * rules.players
    lo, hi = start, len(coins) - 1
    for turn, text in enumerate(moves):
        side, count = rules.side_count(text)
        new_lo, new_hi = advance(lo, hi, side, count)
        if rules.scores_left:
            gain = prefix[new_hi + 1] - prefix[new_lo] if new_lo <= new_hi else zero
        else:
            gain = (
                prefix[hi + 1]
                - prefix[lo]
                - (prefix[new_hi + 1] - prefix[new_lo] if new_lo <= new_hi else zero)
            )
        totals[turn % rules.players] += gain
        lo, hi = new_lo, new_hi
    return tuple(totals)


def interval_solve(coins: Sequence[Value], rules: Rules) -> VariantResult:
    """Solve a two-player interval variant by the general DP (see :class:`IntervalTable`).

    >>> interval_solve([4, -10, -20, 7], Rules.parse("take:any")).objective
    7
    """
    if not coins:
        return VariantResult((0, 0), 0, (), ())
    table = IntervalTable(coins, rules, keep=False)
    moves = table.optimal_line()
    return VariantResult(
        replay(coins, rules, moves),
        table.objective_of(0, len(coins) - 1),
        moves,
        table.optimal_moves_of(0, len(coins) - 1),
    )
