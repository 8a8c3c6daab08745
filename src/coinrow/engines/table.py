"""Bottom-up interval DP (the textbook tabulation), and :class:`Table` of every subgame.

V(i, j) = S(i, j) - min(V(i+1, j), V(i, j-1)), V(i, i) = a_i, filled diagonal by diagonal.
Exact rows keep lists of values and derive moves from them (taking the left coin is optimal
when V(i+1, j) <= V(i, j-1)). Long int64-safe rows are filled by a compiled kernel into one
contiguous diagonal-major int64 array of values plus one uint8 array of move codes (L=1, R=2,
LR=3): 9 bytes per subgame, so n = 20,000 (2 x 10^8 subgames) takes 1.8 GB.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate
from typing import Any

from ..errors import SubgameError, TableTooLargeError
from ..numbers import Row, Value, exact_arithmetic, format_value, zero_like
from ..rules import Moves, plain_moves
from . import MAX_SECONDS, EngineResult, check_cost, moves_from_margins
from .costs import SLOT_BYTES as SLOT_BYTES  # re-exported: the table's bytes
from .costs import bytes_per_cell as bytes_per_cell
from .dispatch import KERNEL_MIN_LENGTH, kernel_row

#: Bytes the full table may use before :class:`Table` refuses the row.
MEMORY_BUDGET: int = 4 * 2**30

#: Bytes per subgame of the compiled table: an int64 value and a uint8 move code.
KERNEL_BYTES_PER_CELL: int = 9

_MOVE_TEXT = ("", "L", "R", "LR")  # indexed by the kernel's move codes


def check_subgame(lo: int, hi: int, n: int) -> None:
    """The one bounds rule of every subgame query (:class:`Table` and
    :class:`~coinrow.subgames.Subgames`): ``0 <= lo <= hi + 1 <= n``, where ``lo = hi + 1``
    is the empty subgame (no coin left: worth zero, no move). Anything else raises
    :class:`~coinrow.errors.SubgameError` (O(1)).

    >>> check_subgame(3, 2, 3)
    >>> check_subgame(3, 1, 3)
    Traceback (most recent call last):
    ...
    coinrow.errors.SubgameError: subgame 3..1 is not inside a row of 3 coins
    """
    if not (_whole(lo) and _whole(hi)):
        raise SubgameError(f"a subgame's ends are whole numbers, not {lo!r:.20} and {hi!r:.20}")
    if not 0 <= lo <= hi + 1 <= n:
        raise SubgameError(f"subgame {lo}..{hi} is not inside a row of {n} coins")


def _whole(end: object) -> bool:
    """An int or an integer scalar (NumPy's), not a bool, a float or text."""
    return not isinstance(end, bool) and hasattr(type(end), "__index__")


def cell_count(n: int) -> int:
    """Number of subgames i..j of a row of n coins (O(1)).

    >>> cell_count(4)
    10
    """
    return n * (n + 1) // 2


class Table:
    """Values and optimal moves of every subgame ``i..j`` of a row.

    Building costs O(n^2) time and memory; every query is O(1). A row whose table would
    need more than ``memory_budget`` bytes, or whose exact arithmetic is estimated over
    ``max_seconds`` (:func:`coinrow.engines.check_cost`; ``None``: no limit), is refused.

    The engines' table draws nothing; ``coinrow.Table`` (:class:`coinrow.tables.Table`) is
    this table with its Jupyter picture and the ``rules=`` of every variant.

    >>> table = Table([1, 2, 4, 3])
    >>> table.value_of(0, 3), table.margin_of(0, 3), table.moves_of(0, 3), table.moves_of(1, 3)
    (5, 0, ('L', 'R'), ('L', 'R'))
    """

    def __init__(
        self,
        coins: Sequence[object],
        memory_budget: int | None = None,
        *,
        max_seconds: float | None = MAX_SECONDS,
    ) -> None:
        row = kernel_row(coins, KERNEL_MIN_LENGTH["table"])
        self.coins: tuple[Value, ...] = Row.of(coins if row is None else row)
        n = len(self.coins)
        budget = MEMORY_BUDGET if memory_budget is None else memory_budget
        cap = budget // max(cell_count(n), 1) + 1
        per_cell = bytes_per_cell(self.coins, cap) if row is None else KERNEL_BYTES_PER_CELL
        needed = cell_count(n) * per_cell
        if needed > budget:
            raise TableTooLargeError(
                f"a table of {n} coins needs about {_size(needed)} ({per_cell} bytes for each "
                f"of {cell_count(n):,} subgames), over the {_size(budget)} budget; "
                "use solve() for the value and line"
            )
        if row is None:
            what = f"a table of {n:,} coins"
            check_cost(self.coins, "table", max_seconds=max_seconds, what=what)
        zero = zero_like(list(self.coins))
        self._values: Any = None  # the compiled table's arrays, when the kernel filled it
        self._codes: Any = None
        with exact_arithmetic():
            self._prefix: list[Value] = [zero, *accumulate(self.coins)]
            self._diagonals = self._fill() if row is None else []
        if row is not None:
            from .kernels import table_arrays

            self._values, self._codes = table_arrays(row)

    def _offset(self, i: int, j: int) -> int:
        """Index of subgame i..j in the diagonal-major arrays."""
        width, n = j - i, len(self.coins)
        return width * n - width * (width - 1) // 2 + i

    def _fill(self) -> list[list[Value]]:
        coins, prefix = self.coins, self._prefix
        diagonals = [list(coins)]
        previous = diagonals[0]
        for width in range(1, len(coins)):
            current = [
                prefix[i + width + 1] - prefix[i] - min(previous[i + 1], previous[i])
                for i in range(len(coins) - width)
            ]
            diagonals.append(current)
            previous = current
        return diagonals

    def __len__(self) -> int:
        return len(self.coins)

    def total_of(self, i: int, j: int) -> Value:
        """Sum of coins i..j; zero for the empty subgame ``i = j + 1`` (O(1))."""
        check_subgame(i, j, len(self.coins))
        with exact_arithmetic():
            return self._prefix[j + 1] - self._prefix[i]

    def value_of(self, i: int, j: int) -> Value:
        """Most the player to move in subgame i..j can guarantee; zero for the empty subgame
        ``i = j + 1`` (O(1))."""
        check_subgame(i, j, len(self.coins))
        if i > j:
            return self._prefix[0]
        if self._values is not None:
            return int(self._values[self._offset(i, j)])
        return self._diagonals[j - i][i]

    def margin_of(self, i: int, j: int) -> Value:
        """Mover's total minus the other's in subgame i..j under optimal play; zero for the
        empty subgame (O(1))."""
        value = self.value_of(i, j)
        with exact_arithmetic():
            return value + value - self.total_of(i, j)

    def moves_of(self, i: int, j: int) -> Moves:
        """Optimal moves in subgame i..j, a tuple of :class:`~coinrow.rules.Move`: ``("L",)``,
        ``("R",)`` or ``("L", "R")``; ``()`` for the empty subgame ``i = j + 1`` (no coin
        left) (O(1)).

        >>> Table([8, 15, 3, 7]).moves_of(0, 3), Table([8, 15, 3, 7]).moves_of(2, 2)
        (('R',), ('L', 'R'))
        """
        return plain_moves(self._moves_text(i, j))

    def _moves_text(self, i: int, j: int) -> str:
        """The engines' text of :meth:`moves_of`: ``"L"``, ``"R"``, ``"LR"`` or ``""``."""
        check_subgame(i, j, len(self.coins))
        return self._moves_inside(i, j)

    def _moves_inside(self, i: int, j: int) -> str:
        """:meth:`_moves_text` of a subgame known to be inside the row (no check: the walks
        of this class make only such subgames)."""
        if i > j:
            return ""
        if i == j:
            return "LR"
        if self._codes is not None:
            return _MOVE_TEXT[self._codes[self._offset(i, j)]]
        # The mover gets S(i, j) minus what the opponent then gets, so the smaller child wins.
        after_left, after_right = self._diagonals[j - i - 1][i + 1], self._diagonals[j - i - 1][i]
        return moves_from_margins(after_right, after_left)

    @property
    def line(self) -> str:
        """The optimal line taking ``L`` whenever both moves are optimal (O(n))."""
        lo, hi, moves = 0, len(self.coins) - 1, []
        while lo <= hi:
            move = self._moves_inside(lo, hi)[0]
            moves.append(move)
            lo, hi = (lo + 1, hi) if move == "L" else (lo, hi - 1)
        return "".join(moves)

    def __repr__(self) -> str:
        n = len(self.coins)
        if not n:
            return "<Table of 0 coins>"
        first = self.value_of(0, n - 1)
        with exact_arithmetic():
            second = self.total_of(0, n - 1) - first
        return f"<Table of {n} coins: first {format_value(first)}, second {format_value(second)}>"


def solve(coins: Sequence[Value]) -> EngineResult:
    """Solve by filling the whole table (O(n^2) time and memory).

    >>> solve([8, 15, 3, 7])
    EngineResult(margin=11, line='RLLL', first_moves='R')
    """
    if len(coins) == 0:
        return EngineResult(0, "", "")
    table = Table(coins)
    return EngineResult(
        table.margin_of(0, len(coins) - 1), table.line, table._moves_text(0, len(coins) - 1)
    )


def _size(count: int) -> str:
    """Bytes as GiB or MiB for messages."""
    return f"{count / 2**30:.1f} GiB" if count >= 2**30 else f"{count / 2**20:.1f} MiB"
