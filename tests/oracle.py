"""The tests' own oracle: plain minimax over the game tree, independent of coinrow's solvers.

Nothing here imports coinrow's engines, tables or strategies: coins that are not already
int, Decimal or Fraction are parsed with :func:`coinrow.coerce_coins` (the input grammar is
not what these checks test), and everything after that is the recursion below. The margin of
a subgame (mover's total minus the other's) is the better of the two moves, each worth the
coin taken minus the opponent's margin in what is left; it is memoised per row, so a row costs
O(n^2) once. Decimal arithmetic runs in a context that traps any rounding.
"""

from __future__ import annotations

import decimal
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeAlias

# int, Decimal or Fraction; Any because a row never mixes Decimal with Fraction (see row()).
Number: TypeAlias = Any

# Exact Decimal arithmetic: any rounding or overflow raises instead of giving a wrong value.
EXACT = decimal.Context(
    prec=decimal.MAX_PREC,
    Emax=decimal.MAX_EMAX,
    Emin=decimal.MIN_EMIN,
    traps=[decimal.InvalidOperation, decimal.Inexact, decimal.Rounded, decimal.Overflow],
)


def row(coins: Sequence[object]) -> tuple[Number, ...]:
    """The coins as exact numbers: int/Decimal/Fraction rows as given, others parsed."""
    kinds = {type(coin) for coin in coins}
    if kinds <= {int, Fraction} or kinds <= {int, Decimal}:
        return tuple(coins)
    from coinrow import coerce_coins  # strings, floats, NumPy ints, Decimal mixed with Fraction

    return tuple(coerce_coins(coins))


class Solved:
    """Margins of the subgames of one row, filled on demand by recursion. The public methods
    enter :meth:`exact`; the ones starting with ``_`` expect to run inside it."""

    def __init__(self, coins: tuple[Number, ...]) -> None:
        self.coins = coins
        self.zero: Number = coins[0] * 0 if coins else 0
        self.margins: dict[tuple[int, int], Number] = {}
        self.decimal = any(isinstance(coin, Decimal) for coin in coins)

    @contextmanager
    def exact(self, depth: int) -> Iterator[None]:
        """Exact Decimal arithmetic, and room for a recursion ``depth`` frames deep."""
        limit = sys.getrecursionlimit()
        deep = depth + 200 > limit
        if deep:
            sys.setrecursionlimit(depth + 1000)
        try:
            with decimal.localcontext(EXACT) if self.decimal else nullcontext():
                yield
        finally:
            if deep:
                sys.setrecursionlimit(limit)

    def _margin(self, lo: int, hi: int) -> Number:
        if lo > hi:
            return self.zero
        known = self.margins.get((lo, hi))
        if known is None:
            take_left = self.coins[lo] - self._margin(lo + 1, hi)
            take_right = self.coins[hi] - self._margin(lo, hi - 1)
            known = self.margins[lo, hi] = max(take_left, take_right)
        return known

    def _best_moves(self, lo: int, hi: int) -> str:
        assert 0 <= lo <= hi < len(self.coins), ("not a subgame", lo, hi, len(self.coins))
        take_left = self.coins[lo] - self._margin(lo + 1, hi)
        take_right = self.coins[hi] - self._margin(lo, hi - 1)
        return "L" if take_left > take_right else "R" if take_right > take_left else "LR"

    def margin(self, lo: int, hi: int) -> Number:
        """Mover's total minus the other's in coins[lo..hi] under best play by both."""
        with self.exact(hi - lo + 1):
            return self._margin(lo, hi)

    def total(self, lo: int, hi: int) -> Number:
        """Sum of coins[lo..hi]."""
        with self.exact(0):
            return sum(self.coins[lo : hi + 1], self.zero)

    def value(self, lo: int, hi: int) -> Number:
        """The mover's best total: (sum + margin) / 2, which is exact."""
        with self.exact(hi - lo + 1):
            twice = sum(self.coins[lo : hi + 1], self.zero) + self._margin(lo, hi)
            if isinstance(twice, int):
                half, odd = divmod(twice, 2)
                assert not odd, (self.coins, lo, hi)
                return half
            return twice / 2

    def best_moves(self, lo: int, hi: int) -> str:
        """Optimal moves in coins[lo..hi]: ``"L"``, ``"R"`` or ``"LR"``."""
        with self.exact(hi - lo + 1):
            return self._best_moves(lo, hi)


@lru_cache(maxsize=64)
def _solved(key: tuple[str, ...], coins: tuple[Number, ...]) -> Solved:
    return Solved(coins)


def solved(coins: Sequence[object]) -> Solved:
    """The memo of one row, shared by the calls below (keyed by the coins' reprs, so that
    ``1``, ``Fraction(1)`` and ``Decimal('1.0')`` rows stay apart)."""
    exact = row(coins)
    return _solved(tuple(map(repr, exact)), exact)


def margin(coins: Sequence[object], lo: int = 0, hi: int | None = None) -> Number:
    """First player's margin (of the whole row, or of the subgame lo..hi; 0 when empty).

    >>> margin([3, 2, 2, 3, 1, 2]), margin([]), margin([8, 15, 3, 7], 1, 3)
    (3, 0, 11)
    """
    hi = len(coins) - 1 if hi is None else hi
    return solved(coins).margin(lo, hi)


def value(coins: Sequence[object], lo: int, hi: int) -> Number:
    """The most the mover in the subgame lo..hi can guarantee (0 when lo > hi).

    >>> value([1, 2, 4, 3], 0, 3), value([1, 2, 4, 3], 0, 2), value([1, 2], 1, 0)
    (5, 5, 0)
    """
    return solved(coins).value(lo, hi)


def total(coins: Sequence[object], lo: int, hi: int) -> Number:
    """Sum of the coins lo..hi (0 when lo > hi)."""
    return solved(coins).total(lo, hi)


def first_total(coins: Sequence[object]) -> Number:
    """The first player's total under optimal play (0 for no coins)."""
    return value(coins, 0, len(coins) - 1)


#: The plain game's sets of moves as the public API gives them: tuples of move texts.
MOVE_SETS: dict[str, tuple[str, ...]] = {"": (), "L": ("L",), "R": ("R",), "LR": ("L", "R")}


def best_move_set(coins: Sequence[object], lo: int = 0, hi: int | None = None) -> tuple[str, ...]:
    """:func:`best_moves` as the public API gives a set of moves: ``("L",)``, ``("R",)`` or
    ``("L", "R")`` (``()`` for no coins).

    >>> best_move_set([1, 2, 4, 3]), best_move_set([8, 15, 3, 7]), best_move_set([])
    (('L', 'R'), ('R',), ())
    """
    return MOVE_SETS[best_moves(coins, lo, hi) if coins else ""]


def best_moves(coins: Sequence[object], lo: int = 0, hi: int | None = None) -> str:
    """Optimal moves in the subgame lo..hi: ``"L"``, ``"R"`` or ``"LR"`` (a single coin:
    ``"LR"``); the whole row by default.

    >>> best_moves([1, 2, 4, 3]), best_moves([8, 15, 3, 7]), best_moves([8, 15, 3, 7], 0, 2)
    ('LR', 'R', 'LR')
    """
    hi = len(coins) - 1 if hi is None else hi
    return solved(coins).best_moves(lo, hi)


def assert_line_optimal(coins: Sequence[object], line: str) -> None:
    """``line`` covers the row and every move of it is optimal in its position."""
    assert len(line) == len(coins), (list(coins), line)
    memo, lo, hi = solved(coins), 0, len(coins) - 1
    with memo.exact(len(coins)):
        for step, move in enumerate(line):
            assert move in memo._best_moves(lo, hi), (list(coins), line, step)
            lo, hi = (lo + 1, hi) if move == "L" else (lo, hi - 1)


def worst_case_total(coins: Sequence[object], choose: Callable[[int, int], str]) -> Number:
    """What a strategy collects playing first against the optimal opponent that hurts it most:
    the opponent plays only optimal moves, trying every one where several are. ``choose(lo,
    hi)`` is the strategy's move (``"L"`` or ``"R"``) with coins lo..hi left.

    >>> worst_case_total([8, 15, 3, 7], lambda lo, hi: "L" if lo < 1 else "R")
    15
    """
    memo = solved(coins)
    exact, n = memo.coins, len(memo.coins)
    totals: dict[tuple[int, int], Number] = {}

    def collect(lo: int, hi: int) -> Number:
        if lo > hi:
            return memo.zero
        if (lo, hi) not in totals:
            if (n - (hi - lo + 1)) % 2 == 0:  # the strategy's turn
                move = choose(lo, hi)
                assert move in ("L", "R"), move
                coin, rest = (exact[lo], (lo + 1, hi)) if move == "L" else (exact[hi], (lo, hi - 1))
                totals[lo, hi] = coin + collect(*rest)
            else:
                moves = memo._best_moves(lo, hi)
                children = [(lo + 1, hi) if m == "L" else (lo, hi - 1) for m in moves]
                totals[lo, hi] = min(collect(*child) for child in children)
        return totals[lo, hi]

    with memo.exact(2 * n):
        return collect(0, n - 1)


def modules_loaded_after(code: str, modules: Sequence[str]) -> list[str]:
    """Which of ``modules`` a fresh interpreter has imported after running ``code``."""
    probe = f"import sys\n{code}\nprint(sorted(m for m in {list(modules)!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return eval(out.stdout)  # type: ignore[no-any-return]  # our own printed list
