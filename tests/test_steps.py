"""coinrow.steps against plain recursions written here: the bottom-up fill's values, both
recurrence forms and its order; the memoised recursion's call order, cache hits and counts."""

from __future__ import annotations

import sys
from decimal import Decimal
from fractions import Fraction
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from coinrow import Table
from coinrow.steps import fill_steps, memo_calls, plain_calls

rows = st.lists(st.integers(-20, 20), min_size=1, max_size=9)


def plain_value(coins: tuple[Any, ...], i: int, j: int) -> Any:
    """The tutorials' four-way max-min recursion, no memo (exponential, fine for n <= 9)."""
    if i > j:
        return 0
    return max(
        coins[i] + min(plain_value(coins, i + 2, j), plain_value(coins, i + 1, j - 1)),
        coins[j] + min(plain_value(coins, i + 1, j - 1), plain_value(coins, i, j - 2)),
    )


def plain_margin(coins: tuple[Any, ...], i: int, j: int) -> Any:
    if i == j:
        return coins[i]
    return max(coins[i] - plain_margin(coins, i + 1, j), coins[j] - plain_margin(coins, i, j - 1))


@given(rows)
def test_fill_matches_plain_recursions_and_table(coins: list[int]) -> None:
    row = tuple(coins)
    steps = fill_steps(row)
    n = len(row)
    assert len(steps) == n * (n + 1) // 2
    table = Table(row)
    done: set[tuple[int, int]] = set()
    for number, step in enumerate(steps, start=1):
        i, j = step.i, step.j
        assert step.step == number
        assert all(cell in done for cell in step.reads)  # reads only cells already filled
        assert all(cell in done for cell in step.inner_reads if cell is not None)
        done.add((i, j))
        assert step.value == plain_value(row, i, j) == table.value_of(i, j)
        assert step.margin == plain_margin(row, i, j) == table.margin_of(i, j)
        assert step.margin == max(step.take_left, step.take_right)
        assert step.value == max(step.left_value, step.right_value)
        assert step.value == step.sum_value  # the sum form reads the margin form's two cells
        rests = [plain_value(row, lo, hi) if i < j else 0 for lo, hi in ((i + 1, j), (i, j - 1))]
        assert [step.rest_left, step.rest_right] == rests
        assert 2 * step.value - step.total == step.margin
        assert step.total == sum(row[i : j + 1])
        assert step.moves == table.moves_of(i, j)
    widths = [step.j - step.i for step in steps]
    assert widths == sorted(widths)  # one coin wide first, then two...


def test_fill_reads_and_seed_example() -> None:
    step = fill_steps([3, 2, 2, 3, 1, 2])[-1]
    assert (step.i, step.j, step.value, step.margin, step.moves) == (0, 5, 8, 3, ("L",))
    assert step.reads == ((1, 5), (0, 4))
    assert step.inner_reads == ((2, 5), (1, 4), (0, 3))
    single = fill_steps([5])[0]
    assert single.reads == () and single.inner_reads == (None, None, None)
    assert (single.take_left, single.take_right, single.moves) == (5, 5, ("L", "R"))
    data = step.to_dict()
    assert data["reads"] == [[1, 5], [0, 4]] and data["value"] == 8
    assert data["inner_reads"] == [[2, 5], [1, 4], [0, 3]]


def test_exact_values() -> None:
    step = fill_steps(["0.1", "0.2", "0.3"])[-1]
    assert step.value == Decimal("0.4") and step.to_dict()["value"] == "0.4"
    third = fill_steps(["1/3", "1/6"])[-1]
    assert third.value == Fraction(1, 3) and third.to_dict()["margin"] == "1/6"
    assert memo_calls(["1/3", "1/6"]).to_dict()["calls"][0]["value"] == "1/3"


def recorded_memo(coins: tuple[Any, ...]) -> list[tuple[int, int, bool]]:
    """The memoised recursion written recursively, recording (i, j, hit) per call."""
    calls: list[tuple[int, int, bool]] = []
    memo: dict[tuple[int, int], Any] = {}

    def m(i: int, j: int) -> Any:
        calls.append((i, j, (i, j) in memo))
        if (i, j) not in memo:
            memo[i, j] = coins[i] if i == j else max(coins[i] - m(i + 1, j), coins[j] - m(i, j - 1))
        return memo[i, j]

    m(0, len(coins) - 1)
    return calls


@given(rows)
def test_memo_trace_matches_a_recursive_memo(coins: list[int]) -> None:
    row = tuple(coins)
    trace = memo_calls(row)
    assert [(c.i, c.j, c.hit) for c in trace.calls] == recorded_memo(row)
    n = len(row)
    assert trace.computed == n * (n + 1) // 2
    assert len(trace.calls) == 1 + 2 * (n * (n + 1) // 2 - n)
    for call in trace.calls:
        assert call.margin == plain_margin(row, call.i, call.j)
        assert call.value == plain_value(row, call.i, call.j)
        if call.parent is None:
            assert call.index == 0 and call.depth == 0
        else:
            parent = trace.calls[call.parent]
            assert call.depth == parent.depth + 1
            assert (call.i, call.j) in ((parent.i + 1, parent.j), (parent.i, parent.j - 1))
            assert parent.index < call.index <= call.last <= parent.last
        if call.hit or call.i == call.j:
            assert call.last == call.index
    assert trace.calls[0].last == len(trace.calls) - 1


def test_plain_recursion_count() -> None:
    for n in range(1, 9):
        count = 0

        def plain(i: int, j: int) -> None:
            nonlocal count
            count += 1
            if i < j:
                plain(i + 1, j)
                plain(i, j - 1)

        plain(0, n - 1)
        assert count == plain_calls(n) == memo_calls(range(n)).plain
    trace = memo_calls(range(40))
    assert (len(trace.calls), trace.hits, trace.plain) == (1561, 741, 2**40 - 1)
    assert memo_calls([]).to_dict() == {
        "count": 0, "hits": 0, "computed": 0, "plain": 0, "calls": []
    }  # fmt: skip


def test_deep_rows_need_no_recursion() -> None:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(100)
    try:
        trace = memo_calls([1] * 150)  # calls nest 150 deep, beyond the lowered limit
    finally:
        sys.setrecursionlimit(limit)
    assert trace.calls[0].value == 75 and max(c.depth for c in trace.calls) == 149
