"""Step-by-step traces of the two dynamic programmes the tutorials teach, for a learner to
replay cell by cell (the web page's Learn view draws them).

:func:`fill_steps` is the bottom-up fill of the table, diagonal by diagonal (one coin, then
two, ...), each step with both ways of writing the recurrence and the numbers it reads:

* the margin form: ``M(i, j) = max(a_i - M(i+1, j), a_j - M(i, j-1))``, ``M(i, i) = a_i``,
  where ``M`` is the mover's total minus the other player's (each candidate is the coin taken
  minus the margin of the rest, which the opponent then moves in);
* the tutorials' four-way max-min form of the mover's total ``F``:
  ``F(i, j) = max(a_i + min(F(i+2, j), F(i+1, j-1)), a_j + min(F(i+1, j-1), F(i, j-2)))``,
  with ``F`` of an empty row 0;
* the sum form of the same total, which reads the same two cells as the margin form:
  ``F(i, j) = S(i, j) - min(F(i+1, j), F(i, j-1))`` (the mover gets all the coins but what
  the opponent then gets; ``S`` is the coins' sum), the form the Learn view's pseudocode runs.

Both are computed independently here (each step is that recurrence, evaluated), so the trace
shows what a learner would write down. :func:`memo_calls` is the memoised recursion on the
margin form: every call in the order it is made, with the calls answered from the cache
(which a plain recursion would expand again), against the plain recursion's
:func:`plain_calls` = 2^n - 1 calls. Values are exact (ints, Decimals or Fractions).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from .engines import MAX_SECONDS, check_cost
from .numbers import Row, Value, exact_arithmetic, halve, json_fields, zero_like
from .rules import Moves, plain_moves

Cell = tuple[int, int]


#: The keys of :meth:`FillStep.to_dict`, in their documented order.
FILL_STEP_KEYS = ("step", "i", "j", "left_coin", "right_coin", "reads", "after_left",
                  "after_right", "take_left", "take_right", "margin", "inner_reads", "inner",
                  "left_value", "right_value", "value", "total", "moves", "rest_left",
                  "rest_right", "sum_value")  # fmt: skip


@dataclass(frozen=True)
class FillStep:
    """One cell ``i..j`` of the bottom-up fill, with everything the recurrence reads.

    ``after_left`` and ``after_right`` are the margins of what each move leaves to the
    opponent, ``M(i+1, j)`` and ``M(i, j-1)`` (zero for a single coin); ``inner`` holds
    ``F(i+2, j)``, ``F(i+1, j-1)`` and ``F(i, j-2)`` (zero for an empty row); ``rest_left``
    and ``rest_right`` are the opponent's best totals on what each move leaves, ``F(i+1, j)``
    and ``F(i, j-1)`` (zero for a single coin), the cells of :attr:`reads` in totals.
    """

    step: int
    i: int
    j: int
    left_coin: Value
    right_coin: Value
    after_left: Value
    after_right: Value
    inner: tuple[Value, Value, Value]
    margin: Value
    value: Value
    total: Value
    rest_left: Value
    rest_right: Value

    @property
    def reads(self) -> tuple[Cell, ...]:
        """The two cells the margin form reads: ``(i+1, j)`` and ``(i, j-1)``; none for a
        single coin (O(1))."""
        return () if self.i == self.j else ((self.i + 1, self.j), (self.i, self.j - 1))

    @property
    def inner_reads(self) -> tuple[Cell | None, Cell | None, Cell | None]:
        """The cells of :attr:`inner`, None where the row is empty (O(1))."""
        i, j = self.i, self.j
        return tuple(  # type: ignore[return-value]
            (lo, hi) if lo <= hi else None for lo, hi in ((i + 2, j), (i + 1, j - 1), (i, j - 2))
        )

    @property
    def take_left(self) -> Value:
        """Margin-form candidate of taking the left coin: ``a_i - M(i+1, j)`` (O(1))."""
        with exact_arithmetic():
            return self.left_coin - self.after_left

    @property
    def take_right(self) -> Value:
        """Margin-form candidate of taking the right coin: ``a_j - M(i, j-1)`` (O(1))."""
        with exact_arithmetic():
            return self.right_coin - self.after_right

    @property
    def left_value(self) -> Value:
        """Max-min candidate of taking the left coin: ``a_i + min(F(i+2, j), F(i+1, j-1))``."""
        with exact_arithmetic():
            return self.left_coin + min(self.inner[0], self.inner[1])

    @property
    def right_value(self) -> Value:
        """Max-min candidate of taking the right coin: ``a_j + min(F(i+1, j-1), F(i, j-2))``."""
        with exact_arithmetic():
            return self.right_coin + min(self.inner[1], self.inner[2])

    @property
    def sum_value(self) -> Value:
        """Sum-form value: ``S(i, j) - min(F(i+1, j), F(i, j-1))``, the coins' sum less the
        opponent's best on what the better move leaves (O(1)); equals :attr:`value`."""
        with exact_arithmetic():
            return self.total - min(self.rest_left, self.rest_right)

    @property
    def moves(self) -> Moves:
        """The optimal moves, a tuple of :class:`~coinrow.rules.Move`: ``("L",)``, ``("R",)``
        or ``("L", "R")`` (both for a single coin; O(1))."""
        left, right = self.take_left, self.take_right
        return plain_moves("LR" if left == right else "L" if left > right else "R")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(1)): ints as numbers, other values as exact strings; ``reads``
        and ``inner_reads`` as ``[i, j]`` pairs (``null`` for an empty row)."""
        return json_fields(
            self,
            order=FILL_STEP_KEYS,
            reads=self.reads,
            take_left=self.take_left,
            take_right=self.take_right,
            inner_reads=self.inner_reads,
            left_value=self.left_value,
            right_value=self.right_value,
            moves=self.moves,
            sum_value=self.sum_value,
        )


def fill_steps(
    coins: Sequence[object], *, max_seconds: float | None = MAX_SECONDS
) -> list[FillStep]:
    """The bottom-up fill of every subgame, one coin wide first, left to right within a width
    (O(n^2) time and memory; n(n+1)/2 steps). Work estimated over ``max_seconds`` is
    refused up front (:func:`coinrow.engines.check_cost`).

    >>> steps = fill_steps([8, 15, 3, 7])
    >>> [(s.i, s.j) for s in steps][:5]
    [(0, 0), (1, 1), (2, 2), (3, 3), (0, 1)]
    >>> last = steps[-1]
    >>> last.value, last.margin, last.moves, last.take_left, last.take_right
    (22, 11, ('R',), -3, 11)
    >>> last.inner, last.left_value, last.right_value
    ((7, 15, 15), 15, 22)
    >>> last.total, last.rest_left, last.rest_right, last.sum_value
    (33, 18, 11, 22)
    >>> fill_steps(["0.1", "0.2"])[-1].value
    Decimal('0.2')
    """
    row = Row.of(coins)
    n = len(row)
    check_cost(row, "table", max_seconds=max_seconds, what=_steps_of(n), items=3 * n * n)
    zero = zero_like(row)
    steps: list[FillStep] = []
    margins: dict[Cell, Value] = {}
    values: dict[Cell, Value] = {}
    with exact_arithmetic():
        prefix = [zero, *accumulate(row)]

        def value_of(lo: int, hi: int) -> Value:
            return values[lo, hi] if lo <= hi else zero

        for width in range(1, n + 1):
            for i in range(n - width + 1):
                j = i + width - 1
                after_left = margins[i + 1, j] if i < j else zero
                after_right = margins[i, j - 1] if i < j else zero
                margin = max(row[i] - after_left, row[j] - after_right)
                inner = (value_of(i + 2, j), value_of(i + 1, j - 1), value_of(i, j - 2))
                value = max(row[i] + min(inner[0], inner[1]), row[j] + min(inner[1], inner[2]))
                margins[i, j], values[i, j] = margin, value
                total = prefix[j + 1] - prefix[i]
                rest_left = values[i + 1, j] if i < j else zero
                rest_right = values[i, j - 1] if i < j else zero
                step = FillStep(len(steps) + 1, i, j, row[i], row[j], after_left, after_right,
                                inner, margin, value, total, rest_left, rest_right)  # fmt: skip
                steps.append(step)
    return steps


@dataclass(frozen=True)
class MemoCall:
    """One call ``M(i, j)`` of the memoised recursion.

    ``index`` is its place in call order (0-based), ``parent`` the index of the call that
    made it (None for the first), ``hit`` whether the cache already held the answer (the call
    is then not expanded), and ``last`` the index of the last call made before this one
    returned (its own index for a cache hit or a single coin), so its value is known once the
    trace has reached ``last``. ``value`` is the mover's total ``(S + M) / 2``.
    """

    index: int
    i: int
    j: int
    parent: int | None
    depth: int
    hit: bool
    last: int
    margin: Value
    value: Value

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(1))."""
        return json_fields(self)


@dataclass(frozen=True)
class MemoTrace:
    """Every call of the memoised recursion of a row, in call order."""

    n: int
    calls: tuple[MemoCall, ...]

    @property
    def hits(self) -> int:
        """Calls answered from the cache (O(calls))."""
        return sum(call.hit for call in self.calls)

    @property
    def computed(self) -> int:
        """Calls that computed their subgame: one per subgame, n(n+1)/2 (O(calls))."""
        return len(self.calls) - self.hits

    @property
    def plain(self) -> int:
        """Calls the plain recursion (no cache) makes on the same row (O(1))."""
        return plain_calls(self.n)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``calls`` (list of :meth:`MemoCall.to_dict`), ``count``,
        ``hits``, ``computed`` and ``plain`` (O(calls))."""
        return json_fields(
            self,
            omit={"n", "calls"},
            count=len(self.calls),
            hits=self.hits,
            computed=self.computed,
            plain=self.plain,
            calls=self.calls,
        )


def plain_calls(n: int) -> int:
    """Calls the plain recursion ``M(i, j) = max(a_i - M(i+1, j), a_j - M(i, j-1))`` makes on
    n coins: ``T(1) = 1``, ``T(n) = 1 + 2 T(n-1)``, so 2^n - 1 (O(1)).

    >>> [plain_calls(n) for n in range(5)]
    [0, 1, 3, 7, 15]
    """
    return (1 << n) - 1 if n > 0 else 0


def memo_calls(coins: Sequence[object], *, max_seconds: float | None = MAX_SECONDS) -> MemoTrace:
    """Trace the memoised recursion on the margin form, left child (take the left coin)
    first; every call first looks in the cache (O(n^2) time and memory: 1 + 2 x (n(n+1)/2 - n)
    calls for n coins, against the plain recursion's 2^n - 1).

    Runs on an explicit stack, so long rows do not hit Python's recursion limit. Work
    estimated over ``max_seconds`` is refused up front (:func:`coinrow.engines.check_cost`).

    >>> trace = memo_calls([8, 15, 3, 7])
    >>> len(trace.calls), trace.hits, trace.computed, trace.plain
    (13, 3, 10, 15)
    >>> [(c.i, c.j, c.hit) for c in trace.calls][:6]
    [(0, 3, False), (1, 3, False), (2, 3, False), (3, 3, False), (2, 2, False), (1, 2, False)]
    >>> trace.calls[0].margin, trace.calls[0].value, trace.calls[0].last
    (11, 22, 12)
    """
    row = Row.of(coins)
    n = len(row)
    if n == 0:
        return MemoTrace(0, ())
    check_cost(row, "memo", max_seconds=max_seconds, what=_steps_of(n), items=3 * n * n)
    zero = zero_like(row)
    cache: dict[Cell, Value] = {}
    started: list[tuple[int, int, int | None, int, bool]] = []  # i, j, parent, depth, hit
    margin_of: dict[int, Value] = {}
    last_of: dict[int, int] = {}
    stack: list[list[int]] = []  # frames of calls being computed: [index, i, j, stage]

    def call(i: int, j: int, parent: int | None, depth: int) -> None:
        index = len(started)
        hit = (i, j) in cache
        started.append((i, j, parent, depth, hit))
        if hit or i == j:
            if not hit:
                cache[i, j] = row[i]
            margin_of[index], last_of[index] = cache[i, j], index
        else:
            stack.append([index, i, j, 0])

    with exact_arithmetic():
        prefix = [zero, *accumulate(row)]
        call(0, n - 1, None, 0)
        while stack:
            frame = stack[-1]
            index, i, j, stage = frame
            depth = started[index][3] + 1
            frame[3] += 1
            if stage == 0:
                call(i + 1, j, index, depth)
            elif stage == 1:
                call(i, j - 1, index, depth)
            else:
                stack.pop()
                margin = max(row[i] - cache[i + 1, j], row[j] - cache[i, j - 1])
                cache[i, j] = margin
                margin_of[index], last_of[index] = margin, len(started) - 1
        calls = []
        for index, (i, j, parent, depth, hit) in enumerate(started):
            margin = margin_of[index]
            value = halve(prefix[j + 1] - prefix[i] + margin)
            calls.append(MemoCall(index, i, j, parent, depth, hit, last_of[index], margin, value))
    return MemoTrace(n, tuple(calls))


def _steps_of(n: int) -> str:
    return f"the steps of {n:,} coins"
