"""The public API on the seeds' worked examples, exact numbers and bad input."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction

import pytest
from oracle import assert_line_optimal, modules_loaded_after

import coinrow
from coinrow import ENGINES, Game, Table, solve


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("coins", "first_total"),
    [
        ([5, 3, 7, 10], 15),
        ([8, 15, 3, 7], 22),
        ([3, 2, 2, 3, 1, 2], 8),
        ([1, 2, 4, 3], 5),
        ([1, 2, 1, 2, 1], 3),
        ([3, 5, 2, 3, 1], 6),
    ],
)
def test_seed_examples(coins: list[int], first_total: int, engine: str) -> None:
    solution = solve(coins, engine=engine)
    assert solution.first_total == first_total
    assert solution.first_total + solution.second_total == sum(coins)
    assert_line_optimal(coins, solution.line)


def test_solution_fields_for_3_2_2_3_1_2() -> None:
    solution = solve([3, 2, 2, 3, 1, 2])
    assert (solution.first_total, solution.second_total, solution.margin) == (8, 5, 3)
    assert solution.outcome == "first"
    assert solution.first_moves == ("L",)
    assert sorted(solution.first_coins + solution.second_coins) == list(range(6))
    assert sum(solution.coins[i] for i in solution.first_coins) == 8
    rows = solution.transcript()
    assert [row.player for row in rows] == ["first", "second"] * 3
    assert (rows[-1].first_total, rows[-1].second_total) == (8, 5)
    assert rows[0].before.remaining == (3, 2, 2, 3, 1, 2)


def test_both_first_moves_and_tie() -> None:
    solution = solve([1, 2, 4, 3])
    assert solution.first_moves == ("L", "R")
    assert solution.outcome == "tie"
    assert solve([1, 1]).outcome == "tie"
    assert solve([1, 5, 1]).outcome == "second"


def test_to_dict_is_json_ready() -> None:
    data = solve([3, 2, 2, 3, 1, 2]).to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["first_total"] == 8 and data["second_total"] == 5
    assert data["margin"] == 3 and data["outcome"] == "first"
    assert data["first_moves"] == ["L"]
    assert len(data["line"]) == 6


def test_decimal_is_exact() -> None:
    solution = solve(["0.1", "0.2", "0.3"])
    assert solution.first_total == Decimal("0.4")
    assert solution.to_dict()["first_total"] == "0.4"
    assert solution.to_dict()["second_total"] == "0.2"
    big = [Decimal("1" * 60 + ".1"), Decimal("0.2"), Decimal("3")]
    assert solve(big).first_total + solve(big).second_total == sum(big, Decimal(0))


def test_fractions_and_mixed_types() -> None:
    solution = solve([Fraction(1, 3), Fraction(1, 6), 1])
    assert solution.first_total == Fraction(7, 6)
    assert solution.to_dict()["first_total"] == "7/6"
    mixed = solve([Fraction(1, 3), Decimal("0.5"), 2])
    assert isinstance(mixed.first_total, Fraction)
    assert isinstance(solve([1, 2, 3]).first_total, int)


def test_floats_become_their_decimal_text() -> None:
    assert solve([0.1, 0.2, 0.3]).first_total == Decimal("0.4")


def test_empty_and_single() -> None:
    empty = solve([])
    assert (empty.first_total, empty.second_total, empty.line, empty.outcome) == (0, 0, "", "tie")
    assert empty.first_moves == ()
    single = solve([-4])
    assert (single.first_total, single.second_total, single.outcome) == (-4, 0, "second")


def test_negative_and_zero_values() -> None:
    solution = solve([-1, -5, -2, 0])
    assert solution.first_total + solution.second_total == -8
    assert_line_optimal([-1, -5, -2, 0], solution.line)


@pytest.mark.parametrize(
    ("bad", "position", "reason"),
    [
        ([1, "x", 3], 1, "not a number"),
        ([1, 2, float("nan")], 2, "NaN"),
        ([Decimal("Infinity")], 0, "infinity"),
        (["-inf"], 0, "infinity"),
        ([True, 2], 0, "booleans"),
        ([1, None], 1, "not a number"),
        (["1/0"], 0, "zero denominator"),
    ],
)
def test_bad_coins_are_rejected(bad: list[object], position: int, reason: str) -> None:
    with pytest.raises(coinrow.InvalidCoinError, match=reason) as info:
        solve(bad)
    assert info.value.position == position
    assert isinstance(info.value, ValueError)


def test_table_queries_and_budget() -> None:
    table = Table([1, 2, 4, 3])
    assert table.value_of(0, 3) == 5 and table.moves_of(0, 3) == ("L", "R")
    assert table.value_of(0, 2) == 5 and table.moves_of(0, 2) == ("R",)
    assert table.value_of(0, 1) == 2 and table.moves_of(0, 1) == ("R",)
    assert table.margin_of(1, 3) == 1
    with pytest.raises(coinrow.SubgameError):
        table.value_of(2, 0)
    with pytest.raises(coinrow.TableTooLargeError, match=r"use solve\(\)"):
        Table(list(range(100)), memory_budget=1000)


def test_best_moves_errors() -> None:
    with pytest.raises(coinrow.SubgameError):
        coinrow.best_moves([1, 2, 3], 2, 5)


def test_greedy_parity_cooperative_seed_values() -> None:
    assert coinrow.greedy_total([8, 15, 3, 7]) == 15
    assert coinrow.parity_total([3, 2, 2, 3, 1, 2]) == 7
    assert coinrow.cooperative_total([3, 2, 2, 3, 1, 2]) == 8
    assert coinrow.cooperative_total([1, 100, 1]) == 101
    with pytest.raises(coinrow.StrategyUnavailableError, match="even number"):
        coinrow.parity_total([1, 2, 3])


def test_cooperative_total_matches_enumeration() -> None:
    import itertools

    for coins in itertools.product((0, 1, 3), repeat=6):
        best = max(
            Game(coins, "".join(line)).totals[0] for line in itertools.product("LR", repeat=6)
        )
        assert coinrow.cooperative_total(coins) == best


def test_parity_strategy_gets_parity_total_against_optimal() -> None:
    from coinrow.strategies import Optimal, parity, play

    for coins in ([3, 2, 2, 3, 1, 2], [1, 100, 2, 3], [5, 5, 5, 5]):
        assert play(coins, parity, Optimal()).totals[0] == coinrow.parity_total(coins)


def test_game_undo_and_errors() -> None:
    game = Game([1, 2, 3])
    game.push("L")
    game.push("R")
    assert game.totals == (1, 3)
    assert game.pop() == "R"
    with pytest.raises(coinrow.IllegalMoveError):
        Game([1], "LL")
    with pytest.raises(coinrow.IllegalMoveError):
        Game([1, 2], "X")


#: Optional packages (extras) and the CLI's Typer and Rich: the library's pure-Python paths
#: must import none of them.
HEAVY = ("numpy", "numba", "matplotlib", "pyarrow", "fastapi", "dask", "typer", "rich")


@pytest.mark.parametrize(
    "code",
    [
        "import coinrow",
        "import coinrow; coinrow.solve(list(range(10))).to_dict()",
        "import coinrow; t = coinrow.Table([1, 2, 4, 3]); t.value_of(0, 3); t.line",
        "import coinrow; coinrow.analyze([1, 2, 4, 3], 'LRLR')._repr_html_()",
        "import coinrow; s = coinrow.solve([3, 1, 2]); s.transcript; s._repr_svg_()",
        "import coinrow, coinrow.svg; coinrow.svg.triangle([1, 2, 4, 3])",
        "import coinrow; coinrow.Game([1, 2, 4, 3], 'LR').totals; coinrow.best_moves([1, 2])",
        "import coinrow; coinrow.parse_records('1 2 4 3\\nLRLR\\n'); coinrow.greedy_total([1, 2])",
        "import coinrow.plot, coinrow.io, coinrow.engines.dispatch, coinrow.errors",
    ],
)
def test_pure_python_paths_import_no_extra(code: str) -> None:
    assert modules_loaded_after(code, HEAVY) == []


def test_the_text_triangle_needs_only_rich() -> None:
    # It returns a rich.text.Text, so Rich (a core dependency) is loaded, and nothing else.
    code = "import coinrow.text; str(coinrow.text.triangle([1, 2, 4, 3]))"
    assert modules_loaded_after(code, HEAVY) == ["rich"]


@pytest.mark.parametrize("row", [5, None, 3.5])
def test_a_row_must_be_a_sequence(row: object) -> None:
    with pytest.raises(coinrow.InvalidRowError, match="sequence of numbers"):
        solve(row)  # type: ignore[arg-type]


def test_absurd_decimal_exponents_are_refused() -> None:
    with pytest.raises(coinrow.InvalidCoinError, match="exponent"):
        solve(["1e999999999", 1])
    assert solve(["1E+5", "1e-7"]).first_total == Decimal("100000")
