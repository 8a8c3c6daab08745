"""The position solver: values and optimal moves of any subgame ``lo..hi`` of one row.

:class:`Subgames` is what strategies and the analysis ask "what is this position worth, and
which moves are optimal?". It picks the cheapest exact method for the row's length: a full
:class:`~coinrow.Table` (O(n^2) once, then O(1) per query) for short rows and for int rows
the compiled kernel fills, two peak reductions per query (O(n), O(n) memory) for longer
rows. The caller owns the object (and its memory): nothing is cached behind its back.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate
from typing import Protocol, runtime_checkable

from .engines import MAX_SECONDS, check_cost, reduction
from .engines.dispatch import KERNEL_MIN_LENGTH, kernel_row
from .engines.table import Table, check_subgame
from .numbers import Row, Value, exact_arithmetic, halve, zero_like
from .rules import Moves, plain_moves

#: Rows up to this many coins are answered from a full :class:`~coinrow.Table` (O(n^2) once:
#: about 0.1 s and 5 MB at the limit; then O(1) per query); longer rows by reductions (O(n)
#: per query, O(n) memory).
TABLE_LIMIT = 512

#: Int rows the compiled table kernel can fill use a table up to this many coins (9 bytes a
#: subgame: about 290 MB and 0.05 s at the limit).
KERNEL_TABLE_LIMIT = 8000


@runtime_checkable
class SubgameQueries(Protocol):
    """The one query contract of :class:`~coinrow.Table` and :class:`Subgames`: the same
    names, the same answers and the same bounds (``0 <= lo <= hi + 1 <= n``; the empty
    subgame ``lo = hi + 1`` is worth zero and its moves are ``()``; anything else raises
    :class:`~coinrow.errors.SubgameError`).

    >>> isinstance(Table([1, 2]), SubgameQueries), isinstance(Subgames([1, 2]), SubgameQueries)
    (True, True)
    """

    coins: tuple[Value, ...]

    def __len__(self) -> int: ...
    def total_of(self, lo: int, hi: int) -> Value: ...
    def value_of(self, lo: int, hi: int) -> Value: ...
    def margin_of(self, lo: int, hi: int) -> Value: ...
    def moves_of(self, lo: int, hi: int) -> Moves: ...


class Subgames:
    """Values and optimal moves of every subgame ``lo..hi`` of one row.

    Rows of up to :data:`TABLE_LIMIT` coins, and int rows of up to :data:`KERNEL_TABLE_LIMIT`
    that the compiled kernel fills, build a :class:`~coinrow.Table` (O(n^2) once, then O(1)
    per query); longer rows answer each query with peak reductions (O(n) per query, O(n)
    memory), so rows of any length work. ``table_limit`` overrides the choice (0: never a
    table). Exact arithmetic estimated over ``max_seconds`` (the table, or one query) is
    refused up front (:func:`coinrow.engines.check_cost`; ``None``: no limit).

    >>> s = Subgames([3, 2, 2, 3, 1, 2])
    >>> s.value_of(0, 5), s.moves_of(0, 5), s.value_of(0, 4), s.value_of(3, 2)
    (8, ('L',), 6, 0)
    """

    def __init__(
        self,
        coins: Sequence[object],
        table_limit: int | None = None,
        *,
        max_seconds: float | None = MAX_SECONDS,
    ) -> None:
        self.coins: tuple[Value, ...] = Row.of(coins)
        self.zero: Value = zero_like(list(self.coins))
        wants_table = self._wants_table(table_limit)
        if not wants_table:  # the prefix sums, then a reduction of up to n coins a query
            what = f"a query on {len(self.coins):,} coins"
            check_cost(self.coins, "reduction", max_seconds=max_seconds, what=what)
        self.table: Table | None = (
            Table(self.coins, max_seconds=max_seconds) if wants_table else None
        )
        with exact_arithmetic():
            self._prefix: list[Value] = [self.zero, *accumulate(self.coins)]

    def _wants_table(self, table_limit: int | None) -> bool:
        return uses_table(self.coins, table_limit)

    def __len__(self) -> int:
        return len(self.coins)

    def __repr__(self) -> str:
        how = "table" if self.table is not None else "reductions"
        return f"<Subgames of {len(self.coins)} coins by {how}>"

    def total_of(self, lo: int, hi: int) -> Value:
        """Sum of coins ``lo..hi``; zero for the empty subgame ``lo = hi + 1`` (O(1))."""
        check_subgame(lo, hi, len(self.coins))
        with exact_arithmetic():
            return self._prefix[hi + 1] - self._prefix[lo]

    def value_of(self, lo: int, hi: int) -> Value:
        """Most the player to move in ``lo..hi`` can guarantee; zero for the empty subgame
        ``lo = hi + 1``.

        O(1) from the table, O(n) by reduction: ``(S + D) / 2`` with ``D`` the margin.
        """
        check_subgame(lo, hi, len(self.coins))
        if lo > hi:
            return self.zero
        if self.table is not None:
            return self.table.value_of(lo, hi)
        with exact_arithmetic():
            return halve(self.total_of(lo, hi) + reduction.margin(self.coins[lo : hi + 1]))

    def margin_of(self, lo: int, hi: int) -> Value:
        """The mover's total minus the other's in ``lo..hi`` under optimal play; zero for the
        empty subgame (O(1) table, O(n) else)."""
        check_subgame(lo, hi, len(self.coins))
        if self.table is not None:
            return self.table.margin_of(lo, hi)
        if lo > hi:
            return self.zero
        with exact_arithmetic():
            return reduction.margin(self.coins[lo : hi + 1])

    def moves_of(self, lo: int, hi: int) -> Moves:
        """Optimal moves in ``lo..hi``, a tuple of :class:`~coinrow.rules.Move`: ``("L",)``,
        ``("R",)`` or ``("L", "R")``; ``()`` for the empty subgame ``lo = hi + 1`` (no coin
        left) (O(1) table, O(n) else)."""
        check_subgame(lo, hi, len(self.coins))
        if lo > hi:
            return ()
        if self.table is not None:
            return self.table.moves_of(lo, hi)
        with exact_arithmetic():
            return plain_moves(reduction.best_moves(self.coins, lo, hi))

    def value_after(self, lo: int, hi: int, move: str) -> Value:
        """What the mover in ``lo..hi`` can still guarantee from the coins ``lo..hi`` after
        playing ``move``: the coin plus what the opponent leaves (O(1) table, O(n) else)."""
        if move == "L":
            coin, rest = self.coins[lo], (lo + 1, hi)
        else:
            coin, rest = self.coins[hi], (lo, hi - 1)
        with exact_arithmetic():
            return coin + self.total_of(*rest) - self.value_of(*rest)


def uses_table(coins: Sequence[Value], table_limit: int | None = None) -> bool:
    """Whether :class:`Subgames` of this validated row builds a table (O(1); O(n) for an int
    row beyond :data:`TABLE_LIMIT`): rows of up to ``table_limit`` coins (default
    :data:`TABLE_LIMIT`), and int rows of up to :data:`KERNEL_TABLE_LIMIT` the compiled kernel
    fills; longer rows answer each query by reductions.

    >>> uses_table([1] * 512), uses_table([1.5] * 513)
    (True, False)
    """
    n = len(coins)
    if table_limit is not None or n <= TABLE_LIMIT:
        return n <= (TABLE_LIMIT if table_limit is None else table_limit)
    compiled = kernel_row(coins, KERNEL_MIN_LENGTH["table"]) is not None
    return compiled and n <= KERNEL_TABLE_LIMIT
