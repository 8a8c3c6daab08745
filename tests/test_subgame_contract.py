"""One query contract for Table and Subgames (SubgameQueries): the same cases, the same
answers and the same SubgameError on the table path, the reduction path and Table itself."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import oracle
import pytest

from coinrow import SubgameError, Table
from coinrow.subgames import SubgameQueries, Subgames

ROWS = ([3, 2, 2, 3, 1, 2], [8, 15, 3, 7], [-1, 0, 5], [Decimal("0.1"), Decimal("2.5")],
        [Fraction(1, 3), Fraction(-2, 7), Fraction(5, 2)], [4], [])  # fmt: skip
OUTSIDE = ((-1, 2), (2, 9), (0, -2), (3, 1), (-1, -2), (1, 7))


def paths(coins: list[object]) -> list[SubgameQueries]:
    return [Table(coins), Subgames(coins), Subgames(coins, table_limit=0)]


@pytest.mark.parametrize("coins", ROWS)
def test_same_answers_on_every_path(coins: list[object]) -> None:
    n, solved = len(coins), oracle.Solved(oracle.row(coins))
    for queries in paths(coins):
        assert isinstance(queries, SubgameQueries) and len(queries) == n
        for lo in range(n + 1):
            for hi in range(lo - 1, n):
                assert queries.total_of(lo, hi) == solved.total(lo, hi)
                assert queries.value_of(lo, hi) == solved.value(lo, hi)
                assert queries.margin_of(lo, hi) == solved.margin(lo, hi)
                expected = oracle.MOVE_SETS[solved.best_moves(lo, hi) if lo <= hi else ""]
                assert queries.moves_of(lo, hi) == expected, (type(queries), coins, lo, hi)


@pytest.mark.parametrize("coins", ROWS)
def test_same_bounds_errors_on_every_path(coins: list[object]) -> None:
    n = len(coins)
    for queries in paths(coins):
        for lo, hi in (*OUTSIDE, (n + 1, n), (0, n)):
            message = rf"^subgame {lo}\.\.{hi} is not inside a row of {n} coins$"
            for query in (queries.total_of, queries.value_of, queries.margin_of, queries.moves_of):
                with pytest.raises(SubgameError, match=message):
                    query(lo, hi)


def test_before_and_after() -> None:
    # Before: Subgames(row, table_limit=0).value_of(-1, 2) was -3 and .value_of(2, 9) an
    # IndexError; Table refused the empty subgame that Subgames answered.
    reductions = Subgames([3, 2, 2], table_limit=0)
    for lo, hi in ((-1, 2), (2, 9)):
        with pytest.raises(SubgameError):
            reductions.value_of(lo, hi)
    assert Table([1, 2, 4, 3]).value_of(2, 1) == 0 == reductions.margin_of(3, 2)
    assert reductions.margin_of(0, 2) == 3 == Table([3, 2, 2]).margin_of(0, 2)
