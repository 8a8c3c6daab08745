"""Checks shared by the tests: is every move of a line optimal?"""

from __future__ import annotations

from collections.abc import Sequence

from coinrow import Table
from coinrow.numbers import Value


def assert_line_optimal(coins: Sequence[Value], line: str, table: Table | None = None) -> None:
    """Every move of ``line`` is one of the optimal moves of its position."""
    table = table or Table(coins)
    assert len(line) == len(coins)
    lo, hi = 0, len(coins) - 1
    for step, move in enumerate(line):
        assert move in table.moves(lo, hi), (list(coins), line, step)
        lo, hi = (lo + 1, hi) if move == "L" else (lo, hi - 1)
