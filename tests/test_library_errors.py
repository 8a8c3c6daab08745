"""Issue 24, item 8 (library parts): odd arrays, a NaN time limit and subgame ends that are
not whole numbers raise CoinrowError subclasses, never TypeError or a bare ValueError;
``compare --seed -1`` is refused like ``census`` and ``puzzles``."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from helpers import run_cli

from coinrow import Table as _Table
from coinrow import solve as _solve
from coinrow.errors import CoinrowError, InvalidOptionError, InvalidRowError, SubgameError
from coinrow.subgames import Subgames
from coinrow.tournament import tournament

#: Called as a user would, with what the type hints do not allow.
solve: Any = _solve
Table: Any = _Table
SubgamesAny: Any = Subgames

NAN, PAIR = math.nan, ["greedy", "optimal"]
MASKED = np.ma.masked_array([1, 2, 3] * 40, mask=[False, True, False] * 40)

CASES: list[tuple[str, Callable[[], Any], type[CoinrowError]]] = [
    ("0-d array", lambda: solve(np.array(5)), InvalidRowError),
    ("0-d array, memo", lambda: solve(np.array(5), engine="memo"), InvalidRowError),
    ("masked array", lambda: solve(MASKED[:3]), InvalidRowError),
    ("long masked array", lambda: solve(MASKED), InvalidRowError),
    ("masked array, Table", lambda: Table(MASKED), InvalidRowError),
    ("NaN limit", lambda: solve([1, 2, 3], max_seconds=NAN), InvalidOptionError),
    ("NaN limit, array", lambda: solve(np.arange(300), max_seconds=NAN), InvalidOptionError),
    ("NaN limit, rules", lambda: solve([1], rules="take:2", max_seconds=NAN), InvalidOptionError),
    ("NaN limit, Table", lambda: Table([1, 2, 3], max_seconds=math.nan), InvalidOptionError),
    ("zero limit", lambda: solve([1, 2, 3], max_seconds=0), InvalidOptionError),
    ("text limit", lambda: solve([1, 2, 3], max_seconds="5"), InvalidOptionError),
    ("text end", lambda: Table([1, 2, 3]).value_of("a", 0), SubgameError),
    ("float end", lambda: SubgamesAny([1, 2, 3]).value_of(0.0, 2), SubgameError),
    ("negative seed", lambda: tournament(PAIR, rows=2, n=3, seed=-1), InvalidOptionError),
]  # fmt: skip


@pytest.mark.parametrize(("name", "call", "error"), CASES, ids=[case[0] for case in CASES])
def test_bad_input_raises_a_coinrow_error(
    name: str, call: Callable[[], Any], error: type[CoinrowError]
) -> None:
    with pytest.raises(error):
        call()


def test_what_stays_accepted() -> None:
    assert solve(np.ma.masked_array([1, 2, 3], mask=[False, False, False])).first_total == 4
    assert solve([1, 2, 3], max_seconds=math.inf).first_total == 4  # infinity: no limit
    assert Table([1, 2, 3]).value_of(np.int64(0), 2) == Table([1, 2, 3]).value_of(0, 2)


def test_compare_refuses_a_negative_seed_in_one_line() -> None:
    done = run_cli("compare", "--seed", "-1", "greedy", "optimal")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "coinrow: error: --seed: the seed must be a whole number of at least 0, got -1"
    ]
