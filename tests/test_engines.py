"""Every engine, Table and Subgames against the tests' own oracle (plain minimax in
tests/oracle.py, not an engine), and the reduction exhaustively."""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction

import numpy as np
import oracle
import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import assert_line_optimal

import coinrow
from coinrow import ENGINES, Table, solve
from coinrow.engines import reduction
from coinrow.numbers import Value
from coinrow.subgames import Subgames


def rows_over(alphabet: tuple[int, ...], length: int, first: int | None) -> list[tuple[int, ...]]:
    """Every row of ``length`` coins from ``alphabet``; only those starting with ``first``
    unless it is None (to split the longest lengths between test workers)."""
    rows = itertools.product(alphabet, repeat=length)
    return [coins for coins in rows if first is None or coins[0] == first]


SMALL_SLICES = [(length, None) for length in range(9)] + [(9, first) for first in range(3)]


@pytest.mark.parametrize(("length", "first"), SMALL_SLICES)
def test_every_engine_matches_the_oracle_on_all_small_rows(length: int, first: int | None) -> None:
    """Every row over {0,1,2} up to length 9 (29,524 rows), every engine including brute."""
    rows = rows_over((0, 1, 2), length, first)
    for coins in rows:
        margin, first_moves = oracle.margin(coins), oracle.best_moves(coins) if coins else ""
        for engine in ENGINES:
            result = coinrow.engines.run(engine, coins)
            assert result.margin == margin, (coins, engine)
            assert result.first_moves == first_moves, (coins, engine)
            assert_line_optimal(coins, result.line)
    assert len(rows) == (3**length if first is None else 3 ** (length - 1))


def check_position_solvers(coins: list[Value]) -> None:
    """Every subgame of a full Table and of both Subgames paths (table and reductions)."""
    n, memo = len(coins), oracle.solved(coins)
    value = {(lo, hi): memo.value(lo, hi) for lo in range(n + 1) for hi in range(lo - 1, n)}
    total = {(lo, hi): memo.total(lo, hi) for lo in range(n + 1) for hi in range(lo - 1, n)}
    table = Table(coins)
    by_table, by_reduction = Subgames(coins), Subgames(coins, table_limit=0)
    assert by_table.table is not None and by_reduction.table is None
    for lo in range(n):
        for hi in range(lo, n):
            here, moves = (lo, hi), oracle.MOVE_SETS[memo.best_moves(lo, hi)]
            assert table.value_of(lo, hi) == value[here], (coins, here)
            assert table.margin_of(lo, hi) == memo.margin(lo, hi), (coins, here)
            assert table.total_of(lo, hi) == total[here], (coins, here)
            assert table.moves_of(lo, hi) == moves, (coins, here)
            after = {
                "L": coins[lo] + total[lo + 1, hi] - value[lo + 1, hi],
                "R": coins[hi] + total[lo, hi - 1] - value[lo, hi - 1],
            }
            for sub in (by_table, by_reduction):
                assert sub.value_of(lo, hi) == value[here], (coins, here)
                assert sub.moves_of(lo, hi) == moves, (coins, here)
                assert sub.total_of(lo, hi) == total[here], (coins, here)
                for move in "LR":
                    assert sub.value_after(lo, hi, move) == after[move], (coins, here, move)
    assert by_reduction.value_of(n, n - 1) == 0  # an empty subgame
    assert_line_optimal(coins, table.line)


@pytest.mark.parametrize("length", range(1, 6))
def test_table_and_subgames_match_the_oracle_on_every_subgame(length: int) -> None:
    """Every subgame of every row over {0,1,2} up to length 5 (363 rows, 4,647 subgames)."""
    for coins in itertools.product((0, 1, 2), repeat=length):
        check_position_solvers(list(coins))


exact_values = st.one_of(
    st.lists(st.integers(-(10**20), 10**20), min_size=1, max_size=12),
    st.lists(st.decimals(-100, 100, places=2), min_size=1, max_size=12),
    st.lists(st.fractions(-10, 10, max_denominator=9), min_size=1, max_size=12),
)


@given(exact_values)
def test_table_and_subgames_match_the_oracle_on_exact_rows(coins: list[Value]) -> None:
    check_position_solvers(coins)


def _margin_tables(rows: np.ndarray) -> np.ndarray:
    """D[i, j] for every row at once (vectorised margin recurrence), shape (n, n, rows)."""
    count, n = rows.shape
    margins = np.zeros((n + 1, n + 1, count), dtype=np.int16)
    for i in range(n):
        margins[i, i] = rows[:, i]
    for width in range(1, n):
        for i in range(n - width):
            j = i + width
            margins[i, j] = np.maximum(
                rows[:, i] - margins[i + 1, j], rows[:, j] - margins[i, j - 1]
            )
    return margins


# Rows of length 9 and 10 are split by their first coin so the test workers share them.
SLICES = [(length, None) for length in range(1, 9)] + [(n, a) for n in (9, 10) for a in range(4)]


@pytest.mark.parametrize(("length", "first"), SLICES)
def test_reduction_exhaustively_over_0123(length: int, first: int | None) -> None:
    """Every row over {0,1,2,3} of length up to 10: margin, and every move of the line optimal."""
    rows = np.array(
        [
            row
            for row in itertools.product(range(4), repeat=length)
            if first is None or row[0] == first
        ],
        dtype=np.int16,
    )
    margins = _margin_tables(rows)
    for r, row in enumerate(rows.tolist()):
        if r % 997 == 0:  # the vectorised recurrence itself, against the oracle
            assert margins[0, length - 1, r] == oracle.margin(row), row
        assert reduction.margin(row) == margins[0, length - 1, r], row
        lo, hi = 0, length - 1
        for move in reduction.optimal_line(row):
            # An empty subgame reads as 0: those cells are never filled (index -1 is n).
            if move == "L":
                after = row[lo] - margins[lo + 1, hi, r]
            else:
                after = row[hi] - margins[lo, hi - 1, r]
            assert after == margins[lo, hi, r], (row, lo, hi)
            lo, hi = (lo + 1, hi) if move == "L" else (lo, hi - 1)


values = st.integers(min_value=-50, max_value=50)


@given(st.lists(values, max_size=14))
def test_hypothesis_rows_match_the_oracle(coins: list[int]) -> None:
    for engine in ENGINES:
        solution = solve(coins, engine=engine)
        assert solution.margin == oracle.margin(coins)
        assert solution.first_moves == oracle.best_move_set(coins)
        assert solution.first_total == oracle.first_total(coins)
        assert_line_optimal(coins, solution.line)


@given(st.lists(st.integers(min_value=-(10**30), max_value=10**30), min_size=1, max_size=60))
def test_fast_engines_on_longer_rows_match_the_oracle(coins: list[int]) -> None:
    for engine in ("reduction", "memo", "linear", "table"):
        solution = solve(coins, engine=engine)
        assert solution.margin == oracle.margin(coins), engine
        assert solution.first_total == oracle.first_total(coins), engine
        assert solution.first_moves == oracle.best_move_set(coins), engine
        assert_line_optimal(coins, solution.line)


@given(st.lists(st.integers(min_value=0, max_value=9), min_size=1, max_size=30), st.data())
def test_best_moves_of_any_subgame_match_the_oracle(coins: list[int], data: st.DataObject) -> None:
    lo = data.draw(st.integers(0, len(coins) - 1))
    hi = data.draw(st.integers(lo, len(coins) - 1))
    assert coinrow.best_moves(coins, lo, hi) == oracle.best_move_set(coins, lo, hi)
    assert coinrow.best_moves(coins) == oracle.best_move_set(coins)


@given(
    st.lists(st.fractions(min_value=-10, max_value=10, max_denominator=12), min_size=1, max_size=10)
)
def test_fraction_rows_match_the_oracle(coins: list[Fraction]) -> None:
    for engine in ENGINES:
        solution = solve(coins, engine=engine)
        assert solution.margin == oracle.margin(coins)
        assert solution.first_total == oracle.first_total(coins)
        assert solution.first_moves == oracle.best_move_set(coins)
        assert_line_optimal(coins, solution.line)
        assert isinstance(solution.first_total, Fraction)


@given(st.lists(st.decimals(min_value=-100, max_value=100, places=3), min_size=1, max_size=10))
def test_decimal_rows_match_the_oracle(coins: list[Decimal]) -> None:
    for engine in ENGINES:
        solution = solve(coins, engine=engine)
        assert solution.margin == oracle.margin(coins)
        assert solution.first_total == oracle.first_total(coins)
        assert solution.first_moves == oracle.best_move_set(coins)
        assert_line_optimal(coins, solution.line)
        assert solution.first_total + solution.second_total == sum(coins)


def test_memo_has_no_recursion_limit() -> None:
    """The memo engine uses an explicit stack: a row far deeper than the recursion limit."""
    import sys

    coins = [(7 * k) % 11 for k in range(3 * sys.getrecursionlimit() // 2)]
    assert solve(coins, engine="memo").margin == solve(coins).margin


def test_brute_refuses_long_rows() -> None:
    with pytest.raises(coinrow.RowTooLongError, match="refuses n > 20"):
        solve(list(range(21)), engine="brute")


def test_unknown_engine() -> None:
    with pytest.raises(coinrow.UnknownEngineError, match="choose one of"):
        solve([1, 2], engine="magic")


def test_huge_ints_stay_exact() -> None:
    coins = [10**40 + 1, 3, 10**40, 7]
    solution = solve(coins)
    assert solution.first_total + solution.second_total == sum(coins)
    assert solution.margin == oracle.margin(coins)
    assert solution.first_total == oracle.first_total(coins)


def check_reduced(coins: list[int], values: list[Value], counts: list[int]) -> None:
    """The structure of a peak reduction: the groups cover the row, each has an odd number of
    coins (a merge joins three odd groups), each entry is the alternating sum of its group's
    coins, and no interior entry is a peak (the reduced row is a valley)."""
    assert len(values) == len(counts) and sum(counts) == len(coins), "groups must cover the row"
    start = 0
    for value, count in zip(values, counts, strict=True):
        assert count % 2 == 1, "every group has an odd number of coins"
        group = coins[start : start + count]
        assert value == sum(group[0::2]) - sum(group[1::2]), "entry = alternating group sum"
        start += count
    for k in range(1, len(values) - 1):
        assert not (values[k] >= values[k - 1] and values[k] >= values[k + 1]), "interior peak"


@given(st.lists(st.integers(min_value=-20, max_value=20), max_size=80))
def test_reduction_invariants(coins: list[int]) -> None:
    check_reduced(coins, *reduction.reduce_row(coins))


def test_reduction_invariants_catch_a_wrong_reduction() -> None:
    check_reduced([3, 2, 2, 3, 1, 2], *reduction.reduce_row([3, 2, 2, 3, 1, 2]))
    assert reduction.reduce_row([3, 2, 2, 3, 1, 2]) == ([3, 2, 0, 2], [1, 1, 3, 1])
    for values, counts in (([3, 2, 0, 2], [1, 1, 2, 2]), ([3, 2, 1, 2], [1, 1, 3, 1]),
                           ([3, 2, 2, 3, 1, 2], [1] * 6), ([3, 2, 0], [1, 1, 3])):  # fmt: skip
        with pytest.raises(AssertionError):
            check_reduced([3, 2, 2, 3, 1, 2], values, counts)
