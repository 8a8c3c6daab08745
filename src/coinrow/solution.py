"""Solving a row: :func:`solve`, :class:`Solution` and :func:`best_moves`."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal, overload

from . import engines
from .engines import reduction
from .engines.dispatch import KERNEL_MIN_LENGTH, kernel_row
from .game import Game, TranscriptRow, split_by_player, taken_indices
from .numbers import (
    Value,
    exact_arithmetic,
    exact_row,
    format_value,
    halve,
    is_int_array,
    json_value,
    zero_like,
)

if TYPE_CHECKING:
    from .rules import Rules
    from .variants import VariantSolution

Outcome = Literal["first", "second", "tie"]


#: Keys of :meth:`Solution.to_dict` with one entry per coin.
PER_COIN_KEYS = ("coins", "line", "first_coins", "second_coins")


class Solution:
    """The solved game: totals, margin, outcome, the optimal first moves and one optimal line.

    Every value is an exact number of the row's type. ``coins`` is always a tuple; a row
    solved from a NumPy array keeps the array privately and builds the tuple (O(n), about 36
    bytes per coin) only when ``coins`` is first read, so huge rows stay compact. The line is
    kept as byte codes until it is first read. Solutions compare equal when their row,
    engine, margin, first moves and line are equal; they are hashable and immutable.

    >>> s = solve([3, 2, 2, 3, 1, 2])
    >>> s.first_total, s.second_total, s.margin, s.outcome, s.first_moves, s.line
    (8, 5, 3, 'first', 'L', 'LLRLLL')
    >>> s
    <Solution of 6 coins by reduction: first 8, second 5, first wins by 3>
    """

    __slots__ = ("__dict__", "_array", "_line", "_row", "engine", "first_moves", "margin", "n")

    engine: str
    first_moves: str
    margin: Value
    n: int
    _array: Any  # the int64 NumPy row of the compiled path, else None
    _row: tuple[Value, ...] | None
    _line: Any  # a str, or the kernel's uint8 array of ASCII codes

    def __init__(
        self, coins: Any, margin: Value, line: Any, first_moves: str, engine: str = "reduction"
    ) -> None:
        array = is_int_array(coins)
        values = {
            "_array": coins if array else None,
            "_row": None if array else tuple(coins),
            "_line": line,
            "margin": margin,
            "first_moves": first_moves,
            "engine": engine,
            "n": len(coins),
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Solution is immutable: cannot set {name!r}")

    @cached_property
    def coins(self) -> tuple[Value, ...]:
        """The row, as a tuple of exact values (O(1); O(n) on first read for an array row)."""
        return self._row if self._row is not None else tuple(self._array.tolist())

    def __len__(self) -> int:
        return self.n

    def __eq__(self, other: object) -> bool:
        """Same row, engine, margin, first moves and line (O(n); array rows stay arrays)."""
        if not isinstance(other, Solution):
            return NotImplemented
        return (self.engine, self.margin, self.first_moves, self.line) == (
            other.engine,
            other.margin,
            other.first_moves,
            other.line,
        ) and self._same_row(other)

    def _same_row(self, other: Solution) -> bool:
        if self.n != other.n:
            return False
        if self._array is not None and other._array is not None:
            import numpy as np

            return bool(np.array_equal(self._array, other._array))
        return self.coins == other.coins

    def __hash__(self) -> int:
        return hash((self.engine, self.margin, self.first_moves, self.line))

    @cached_property
    def line(self) -> str:
        """One optimal line of ``L``/``R`` moves covering every coin (O(n) on first read)."""
        line = self._line
        return line if isinstance(line, str) else str(line.data, "ascii")

    @cached_property
    def total(self) -> Value:
        """Sum of all coins (O(n))."""
        if self._array is not None:  # int64-safe: the sum cannot overflow
            return int(self._array.sum())
        with exact_arithmetic():
            return sum(self.coins, zero_like(list(self.coins[:1])))

    @cached_property
    def first_total(self) -> Value:
        """The most the first player can guarantee (O(n))."""
        with exact_arithmetic():
            return halve(self.total + self.margin)

    @cached_property
    def second_total(self) -> Value:
        """What the second player gets when both play optimally (O(n))."""
        with exact_arithmetic():
            return self.total - self.first_total

    @property
    def outcome(self) -> Outcome:
        """``"first"``, ``"second"`` or ``"tie"`` under optimal play (O(1))."""
        if self.margin > 0:
            return "first"
        return "second" if self.margin < 0 else "tie"

    @cached_property
    def _coins_taken(self) -> tuple[list[int], list[int]]:
        return split_by_player(taken_indices(self.n, self.line))

    @property
    def first_coins(self) -> list[int]:
        """0-based indices of the coins the first player takes along :attr:`line` (O(n))."""
        return self._coins_taken[0]

    @property
    def second_coins(self) -> list[int]:
        """0-based indices of the coins the second player takes along :attr:`line` (O(n))."""
        return self._coins_taken[1]

    def game(self) -> Game:
        """The optimal line as a :class:`~coinrow.game.Game` (O(n))."""
        return Game(self.coins, self.line)

    def transcript(self) -> list[TranscriptRow]:
        """The optimal line move by move, with running totals (O(n)).

        >>> [(r.player, r.move, r.coin) for r in solve([5, 3, 7, 10]).transcript()]
        [('first', 'R', 10), ('second', 'R', 7), ('first', 'L', 5), ('second', 'L', 3)]
        """
        return self.game().transcript()

    def to_dict(self, per_coin_limit: int | None = None) -> dict[str, Any]:
        """JSON-ready form: ints as numbers, other exact values as strings (O(n)); see
        :func:`~coinrow.numbers.json_value`.

        With ``per_coin_limit``, a row of more coins leaves out the per-coin keys
        (:data:`PER_COIN_KEYS`) and lists them under ``"omitted"``.

        >>> solve(["0.1", "0.2", "0.3"]).to_dict()["first_total"]
        '0.4'
        >>> solve([1, 2, 3]).to_dict(per_coin_limit=2)["omitted"]
        ['coins', 'line', 'first_coins', 'second_coins']
        """
        full = per_coin_limit is None or self.n <= per_coin_limit
        data: dict[str, Any] = {"n": self.n}
        if full:
            data["coins"] = (
                self._array.tolist()
                if self._array is not None
                else [json_value(coin) for coin in self.coins]
            )
        data.update(
            engine=self.engine,
            first_total=json_value(self.first_total),
            second_total=json_value(self.second_total),
            margin=json_value(self.margin),
            outcome=self.outcome,
        )
        if full:
            data["line"] = self.line
        data["first_moves"] = self.first_moves
        if full:
            data.update(first_coins=self.first_coins, second_coins=self.second_coins)
        else:
            data["omitted"] = list(PER_COIN_KEYS)
        return data

    def __repr__(self) -> str:
        head = f"<Solution of {self.n} coins by {self.engine}: "
        if self.outcome == "tie":
            return head + f"tie at {format_value(self.first_total)} each>"
        return head + (
            f"first {format_value(self.first_total)}, second {format_value(self.second_total)}, "
            f"{self.outcome} wins by {format_value(abs(self.margin))}>"
        )

    def _repr_svg_(self) -> str | None:
        """Jupyter: the triangle diagram with :attr:`line` highlighted; None over 40 coins."""
        from .svg import repr_svg

        return repr_svg(self.coins, highlight=self.line)

    def _repr_html_(self) -> str:
        """Jupyter: the diagram with :attr:`line` highlighted, or a note over 40 coins."""
        from .svg import repr_html

        return repr_html(self, self.coins, highlight=self.line)


@overload
def solve(
    coins: Sequence[object],
    engine: str = ...,
    *,
    max_seconds: float | None = ...,
    rules: None = None,
) -> Solution: ...


@overload
def solve(
    coins: Sequence[object],
    engine: str = ...,
    *,
    max_seconds: float | None = ...,
    rules: Rules | str,
) -> Solution | VariantSolution: ...


def solve(
    coins: Sequence[object],
    engine: str = "reduction",
    *,
    max_seconds: float | None = engines.MAX_SECONDS,
    rules: Rules | str | None = None,
) -> Solution | VariantSolution:
    """Solve a row exactly with the chosen engine (default: the O(n) reduction).

    ``rules`` (a :class:`~coinrow.rules.Rules` or its text, such as ``"misere"``) solves
    another game: anything but ``"plain"`` returns a
    :class:`~coinrow.variants.VariantSolution`, at the variant's cost (docs/variants.md).

    Complexity: O(n) for ``reduction``; O(n^2) for ``table``, ``memo`` and ``linear``
    (O(n) memory for ``linear``); O(2^n) for ``brute`` (n <= 20). Long int rows that are
    int64-safe (:func:`coinrow.engines.dispatch.kernel_row`) run in compiled kernels, with the same
    results; NumPy int arrays then stay arrays (about 25 bytes per coin at peak). Exact
    rows whose arithmetic is estimated over ``max_seconds`` (long Fractions with many
    denominators, Decimals with far-apart exponents) are refused up front with a
    :class:`~coinrow.errors.CostLimitError` (:func:`coinrow.engines.check_cost`); ``None``
    lifts the limit.

    >>> solve([8, 15, 3, 7]).first_total, solve([5, 3, 7, 10], engine="brute").first_total
    (22, 15)
    >>> solve([5, 3, 1, 4, 2], rules="stone-game-vii").margin
    6
    """
    if rules is not None:
        from .rules import coerce_rules

        chosen = coerce_rules(rules)
        if not chosen.is_plain:
            from .variants import solve_variant

            return solve_variant(coins, chosen, engine_name=engine, max_seconds=max_seconds)
    row = kernel_row(coins, KERNEL_MIN_LENGTH.get(engine), checked=engine != "reduction")
    if row is not None and engine == "reduction":
        solved = reduction.solve_int64(row)  # checks int64 safety in its second thread
        if solved is not None:
            return Solution(row, *solved, engine)
        coins, row = row.tolist(), None
    if row is None:
        return _solve_exact(coins, engine, max_seconds)
    result = engines.run(engine, row)
    return Solution(row, result.margin, result.line, result.first_moves, engine)


@exact_row
def _solve_exact(coins: Sequence[Value], engine: str, max_seconds: float | None) -> Solution:
    if engine in engines.ENGINES:
        what = f"solving {len(coins):,} coins with the {engine} engine"
        engines.check_cost(coins, engine, max_seconds=max_seconds, what=what)
    result = engines.run(engine, coins)
    return Solution(tuple(coins), result.margin, result.line, result.first_moves, engine)


@exact_row
def best_moves(coins: Sequence[Value], lo: int = 0, hi: int | None = None) -> str:
    """Optimal move(s) ``"L"``, ``"R"`` or ``"LR"`` in the subgame ``lo..hi`` (O(n)).

    >>> best_moves([3, 2, 2, 3, 1, 2]), best_moves([3, 2, 2, 3, 1, 2], 1, 5)
    ('L', 'LR')
    """
    return reduction.best_moves(coins, lo, hi)
