"""Every engine against the exhaustive game tree, and the reduction exhaustively."""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import assert_line_optimal

import coinrow
from coinrow import ENGINES, Table, solve
from coinrow.engines import brute, reduction

FAST_ENGINES = [engine for engine in ENGINES if engine != "brute"]


@pytest.mark.parametrize("length", range(10))
def test_every_engine_matches_brute_on_all_small_rows(length: int) -> None:
    """Every row over {0,1,2} up to length 9 (29,524 rows in all)."""
    checked = 0
    for coins in itertools.product((0, 1, 2), repeat=length):
        oracle, table = brute.solve(coins), Table(coins)
        for engine in FAST_ENGINES:
            result = coinrow.engines.run(engine, coins)
            assert result.margin == oracle.margin, (coins, engine)
            assert result.first_moves == oracle.first_moves, (coins, engine)
            assert_line_optimal(coins, result.line, table)
        checked += 1
    assert checked == 3**length


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
def test_hypothesis_rows_match_brute(coins: list[int]) -> None:
    oracle = brute.solve(coins)
    for engine in FAST_ENGINES:
        solution = solve(coins, engine=engine)
        assert solution.margin == oracle.margin
        assert solution.first_moves == oracle.first_moves
        assert_line_optimal(coins, solution.line)


@given(st.lists(st.integers(min_value=-(10**30), max_value=10**30), min_size=1, max_size=60))
def test_reduction_on_longer_rows_matches_table(coins: list[int]) -> None:
    table = Table(coins)
    solution = solve(coins)
    assert solution.margin == table.margin_of(0, len(coins) - 1)
    assert solution.first_total == table.value_of(0, len(coins) - 1)
    assert_line_optimal(coins, solution.line, table)
    for engine in ("memo", "linear", "table"):
        assert solve(coins, engine=engine).margin == solution.margin


@given(st.lists(st.integers(min_value=0, max_value=9), min_size=1, max_size=30), st.data())
def test_best_moves_of_any_subgame_match_table(coins: list[int], data: st.DataObject) -> None:
    lo = data.draw(st.integers(0, len(coins) - 1))
    hi = data.draw(st.integers(lo, len(coins) - 1))
    assert coinrow.best_moves(coins, lo, hi) == Table(coins).moves_of(lo, hi)


@given(
    st.lists(st.fractions(min_value=-10, max_value=10, max_denominator=12), min_size=1, max_size=10)
)
def test_fraction_rows_match_brute(coins: list[Fraction]) -> None:
    oracle = brute.solve(coins)
    for engine in ENGINES:
        solution = solve(coins, engine=engine)
        assert solution.margin == oracle.margin
        assert isinstance(solution.first_total, Fraction)


@given(st.lists(st.decimals(min_value=-100, max_value=100, places=3), min_size=1, max_size=10))
def test_decimal_rows_match_brute(coins: list[Decimal]) -> None:
    oracle = brute.solve(coins)
    for engine in ENGINES:
        solution = solve(coins, engine=engine)
        assert solution.margin == oracle.margin
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
    assert solution.margin == brute.solve(coins).margin


@given(st.lists(st.integers(min_value=-20, max_value=20), max_size=80))
def test_reduction_invariants(coins: list[int]) -> None:
    reduction.check_reduced(coins, *reduction.reduce_row(coins))
