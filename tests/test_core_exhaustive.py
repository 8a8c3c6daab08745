"""Every row over a small alphabet, checked against the oracle: the peak reduction and the
Table on every subgame. Fast (well under a second) and exhaustive, so it is also the test
subset `make mutate` runs against engines/reduction.py and engines/table.py."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from itertools import product

import oracle
import pytest

from coinrow import SubgameError, Table, TableTooLargeError
from coinrow.engines import reduction, table
from coinrow.numbers import sum_bits

# Ties, negatives, zero and a peak-heavy mix; every row up to length 6 over four values.
ALPHABET = (0, 1, 3, -2)
ROWS = [row for n in range(7) for row in product(ALPHABET, repeat=n)]
SHORT_ROWS = [row for row in ROWS if len(row) <= 5]  # every subgame of these


def test_reduction_matches_the_oracle_on_every_small_row() -> None:
    for row in ROWS:
        best = oracle.margin(row)
        assert reduction.margin(row) == best, row
        result = reduction.solve(row)
        assert result.margin == best, row
        assert (result.first_moves, len(result.line)) == (
            oracle.best_moves(row) if row else "",
            len(row),
        ), row
        oracle.assert_line_optimal(row, result.line)
        assert reduction.optimal_line(row) == result.line, row
        values, counts = reduction.reduce_row(row)
        assert sum(counts) == len(row) and all(count % 2 for count in counts), row
        # A valley: no interior entry at least as large as both neighbours.
        assert not any(
            values[k - 1] <= values[k] >= values[k + 1] for k in range(1, len(values) - 1)
        ), row


def test_reduction_best_moves_of_every_subgame() -> None:
    for row in SHORT_ROWS:
        solved = oracle.Solved(row)
        for lo in range(len(row)):
            for hi in range(lo, len(row)):
                assert reduction.best_moves(row, lo, hi) == solved.best_moves(lo, hi)
    for lo, hi in ((-1, 0), (0, 3), (2, 1)):
        with pytest.raises(SubgameError, match=rf"subgame {lo}\.\.{hi} is not inside a row of 3"):
            reduction.best_moves([1, 2, 3], lo, hi)


def test_table_matches_the_oracle_on_every_subgame() -> None:
    for row in SHORT_ROWS:
        t, solved = Table(row), oracle.Solved(row)
        assert len(t) == len(row)
        for lo in range(len(row)):
            for hi in range(lo, len(row)):
                assert t.value_of(lo, hi) == solved.value(lo, hi), (row, lo, hi)
                assert t.margin_of(lo, hi) == solved.margin(lo, hi)
                assert t.total_of(lo, hi) == solved.total(lo, hi)
                assert t.moves_of(lo, hi) == oracle.MOVE_SETS[solved.best_moves(lo, hi)]
        # The line takes L on ties and is optimal.
        line = t.line
        oracle.assert_line_optimal(row, line)
        if row:
            assert line[0] == oracle.best_moves(row)[0]
            solved = table.solve(row)
            assert (solved.margin, solved.line, solved.first_moves) == (
                oracle.margin(row),
                line,
                oracle.best_moves(row),
            )
    assert table.solve([]) == (0, "", "")


def test_table_exact_types_and_repr() -> None:
    rows = ([Decimal("0.1"), Decimal("0.25"), Decimal("-1")], [Fraction(1, 3), Fraction(1, 2)])
    for row in rows:
        t = Table(row)
        assert t.value_of(0, len(row) - 1) == oracle.value(row, 0, len(row) - 1)
        assert type(t.value_of(0, 0)) is type(row[0])
    assert repr(Table([8, 15, 3, 7])) == "<Table of 4 coins: first 22, second 11>"
    assert repr(Table([])) == "<Table of 0 coins>"
    assert repr(Table(["0.5", "0.25"])) == "<Table of 2 coins: first 0.5, second 0.25>"


def test_table_memory_budget_and_estimates() -> None:
    assert table.cell_count(0) == 0 and table.cell_count(1) == 1 and table.cell_count(5) == 15
    per_cell = table.bytes_per_cell([1, 2, 3])
    need = table.cell_count(10) * per_cell
    Table(list(range(10)), memory_budget=need)  # exactly at the budget: allowed
    with pytest.raises(TableTooLargeError, match=r"a table of 10 coins needs about 0\.0 MiB"):
        Table(list(range(10)), memory_budget=need - 1)
    assert table.bytes_per_cell([]) == table.SLOT_BYTES
    assert table.bytes_per_cell([2**200]) > table.bytes_per_cell([1])
    assert table.bytes_per_cell([Fraction(1, 3)]) > table.bytes_per_cell([1])
    assert table.bytes_per_cell([Decimal("1e-40"), Decimal(1)]) > table.bytes_per_cell(
        [Decimal("0.1")]
    )
    assert table._size(2**30) == "1.0 GiB" and table._size(3 * 2**20) == "3.0 MiB"


def test_reduction_tie_rule_and_default_bounds() -> None:
    # On a valley the mover takes the left end when both ends are equal.
    assert reduction.optimal_line([2, 2]) == "LL" and reduction.solve([2, 2]).line == "LL"
    assert reduction.solve([5, 3, 7, 10]) == (5, "RRLL", "R")
    for row in SHORT_ROWS[1:]:
        assert reduction.best_moves(row) == oracle.best_moves(row), row
        assert reduction.best_moves(row, 1 if len(row) > 1 else 0) == oracle.best_moves(
            row, 1 if len(row) > 1 else 0
        )


def test_reduction_int64_arrays_take_the_same_path() -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("numba")
    for row in [row for row in SHORT_ROWS if 0 < len(row) <= 4]:
        array = np.array(row, dtype=np.int64)
        assert reduction.solve(array) == reduction.solve(row), row
        assert reduction.optimal_line(array) == reduction.optimal_line(row), row
        margin, codes, first = reduction.solve_int64(array)
        assert (margin, bytes(codes).decode(), first) == reduction.solve(row)
    empty = reduction.solve_int64(np.array([], dtype=np.int64))
    assert empty[0] == 0 and len(empty[1]) == 0 and empty[2] == ""
    assert reduction.solve(np.array([], dtype=np.int64)) == (0, "", "")
    # Not int64-safe: the exact Python path answers, with the same line.
    unsafe = [2**62, 1, 2**62, 3]
    assert reduction.solve_int64(np.array(unsafe, dtype=np.int64)) is None
    assert reduction.solve(np.array(unsafe, dtype=np.int64)) == reduction.solve(unsafe)
    assert reduction.optimal_line(np.array(unsafe, dtype=np.int64)) == reduction.optimal_line(
        unsafe
    )
    # Long enough for the second thread.
    long = np.random.default_rng(1).integers(-50, 50, reduction.THREAD_MIN_LENGTH + 7)
    assert reduction.solve(long) == reduction.solve(long.tolist())


def test_table_memory_estimates_are_pinned() -> None:
    import sys

    slot = table.SLOT_BYTES
    word = sys.getsizeof(0)
    # Fractions: the first coin, then numerator and denominator over the common denominator
    # (sum_bits: twice its bits plus the integer part's), in 30-bit digits.
    thirds = [Fraction(1, 3), Fraction(-1, 2)]
    assert sum_bits(thirds) == 2 * 3 + 2 + 1
    assert table.bytes_per_cell(thirds) == slot + sys.getsizeof(thirds[0]) + 2 * (word + 4)
    huge = [Fraction(2**70, 3)]
    assert sum_bits(huge) == 2 * 2 + (71 - 2 + 1 + 1) + 1
    assert table.bytes_per_cell(huge) == slot + sys.getsizeof(huge[0]) + 2 * (word + 8)
    # Decimals: one 8-byte word per 19 digits from the largest exponent down to the smallest.
    decimal_base = slot + sys.getsizeof(Decimal(0))
    assert table.bytes_per_cell([Decimal("1E+18"), Decimal(1)]) == decimal_base + 16  # 19 digits
    assert table.bytes_per_cell([Decimal("1E+16"), Decimal(1)]) == decimal_base + 8  # 18
    assert table.bytes_per_cell([Decimal("1E-40"), Decimal(5)]) == decimal_base + 24  # 42
    # Ints: the sum of absolute values bounds every cell.
    assert table.bytes_per_cell([2**100, -(2**100)]) == slot + sys.getsizeof(2**101)


def test_compiled_table_matches_the_reductions() -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("numba")
    from coinrow.engines.dispatch import KERNEL_MIN_LENGTH
    from coinrow.subgames import Subgames

    n = KERNEL_MIN_LENGTH["table"]
    rng = np.random.default_rng(3)
    row = rng.integers(-9, 10, n).tolist()
    compiled = Table(row)
    assert compiled._values is not None and compiled.coins == tuple(row)
    exact = Subgames(row, table_limit=0)
    picks = [(0, n - 1), (0, 0), (n - 1, n - 1), (5, 4), (n, n - 1)]
    picks += [tuple(sorted(map(int, rng.integers(0, n, 2)))) for _ in range(30)]
    for lo, hi in picks:
        assert compiled.value_of(lo, hi) == exact.value_of(lo, hi), (lo, hi)
        assert type(compiled.value_of(lo, hi)) is int
        assert compiled.moves_of(lo, hi) == exact.moves_of(lo, hi), (lo, hi)
        assert compiled.margin_of(lo, hi) == exact.margin_of(lo, hi)
    # A compiled table is budgeted at 9 bytes a subgame.
    need = table.cell_count(n) * table.KERNEL_BYTES_PER_CELL
    Table(row, memory_budget=need)
    with pytest.raises(TableTooLargeError, match=r"\(9 bytes for each of 500,500 subgames\)"):
        Table(row, memory_budget=need - 1)
    with pytest.raises(TableTooLargeError, match=r"; use solve\(\) for the value and line$"):
        Table(row, memory_budget=0)


def test_table_jupyter_forms_and_zero_types() -> None:
    from coinrow.svg import repr_html, repr_svg

    t = Table([8, 15, 3, 7])
    assert t._repr_svg_() == repr_svg(t) and t._repr_html_() == repr_html(t, t)
    assert "<svg" in (t._repr_svg_() or "")
    wide = Table(list(range(41)))
    assert wide._repr_svg_() is None and "&lt;Table of 41 coins" in wide._repr_html_()
    empty = Table([Decimal("0.5")])
    assert type(empty.value_of(1, 0)) is Decimal and type(empty.total_of(0, -1)) is Decimal
