"""The 1.0 API contract: types that never depend on size, one move-set representation,
self-validating value types, hashable results, exported errors, caller-owned tables."""

from __future__ import annotations

import gc
import json
import weakref
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import coinrow
from coinrow import Game, Position, Record, Table, analyze, diagram, errors, solve
from coinrow.engines import dispatch
from coinrow.rules import Move as MoveValue
from coinrow.steps import fill_steps
from coinrow.strategies import Optimal, get, play, play_values
from coinrow.subgames import Subgames
from coinrow.svg import variant_triangle


def test_solution_coins_are_a_tuple_whatever_the_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(dispatch.KERNEL_MIN_LENGTH, "reduction", 10)
    array = np.arange(40, dtype=np.int64) % 7
    compiled, exact = solve(array), solve(array.tolist()[:9])
    assert compiled._array is not None and exact._array is None  # both paths taken
    for solution in (compiled, exact):
        # a tuple (the exact path keeps its validated numbers.Row, a tuple) of Python ints
        assert isinstance(solution.coins, tuple) and all(type(c) is int for c in solution.coins)
        assert list(solution.coins) == array.tolist()[: solution.n]
        assert isinstance(solution.first_moves, tuple) and isinstance(solution.line, str)
        assert len(solution) == solution.n == len(solution.coins)
    assert compiled == solve(array.tolist()) and hash(compiled) == hash(solve(array.tolist()))


def is_move_set(moves: object, expected: tuple[str, ...]) -> bool:
    """A set of moves as the API gives it: a tuple of Move values equal to ``expected``."""
    return (
        type(moves) is tuple
        and moves == expected
        and all(type(move) is MoveValue for move in moves)
    )


def test_one_representation_of_a_set_of_moves() -> None:
    coins = [1, 2, 4, 3]  # both first moves are optimal
    table = Table(coins)
    both = ("L", "R")
    assert is_move_set(solve(coins).first_moves, both)
    assert is_move_set(table.moves_of(0, 3), both)
    assert is_move_set(coinrow.best_moves(coins), both)
    assert is_move_set(analyze(coins, "L").moves[0].best_moves, both)
    assert is_move_set(Subgames(coins, table_limit=0).moves_of(0, 3), both)
    assert is_move_set(Position.start(coins).best_moves(), both)
    assert is_move_set(Game(coins).best_moves(), both)
    assert is_move_set(diagram.cells(table)[0].moves, both)
    assert is_move_set(fill_steps(coins)[-1].moves, both)
    assert is_move_set(solve([]).first_moves, ())
    assert is_move_set(Subgames(coins).moves_of(1, 0), ())
    assert "L" in solve(coins).first_moves and "LR" not in solve(coins).first_moves
    assert solve(coins).to_dict()["first_moves"] == ["L", "R"]
    assert analyze(coins, "L").to_dict()["moves"][0]["best_moves"] == ["L", "R"]
    assert table.line == "LLLL" and Game(coins, "LR").totals == (1, 3)
    assert solve(coins).moves == ("L", "L", "L", "L")


@pytest.mark.parametrize(
    ("rules", "coins", "expected"),
    [
        ("take:2", [4, 9, 1, 7, 2, 8, 6, 3], ("L2",)),  # one move of two characters
        ("circular", [1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 9, 1], ("10",)),  # slice 10, not 1 and 0
        ("circular", [1, 2, 3, 4], ("1", "3")),
        ("both-ends", [0, 0, 0], ("L", "R", "B")),
        ("misere", [1, 1, 1], ("L", "R")),
    ],
)
def test_a_set_of_moves_under_other_rules(
    rules: str, coins: list[int], expected: tuple[str, ...]
) -> None:
    solution = solve(coins, rules=rules)
    assert is_move_set(solution.first_moves, expected)
    assert solution.to_dict()["first_moves"] == list(expected)
    assert is_move_set(Position.start(coins, rules=rules).best_moves(), expected)
    values = play_values(coins, rules)
    assert is_move_set(values.moves_of(Position.start(coins, rules=rules)), expected)
    assert all(type(move) is MoveValue for move in solution.moves)
    if not rules.startswith("circular"):
        table = Table(coins, rules=rules)
        assert is_move_set(table.moves_of(0, len(coins) - 1), expected)
        assert table.to_dict()["cells"][0]["moves"] == list(expected)
        assert is_move_set(diagram.variant_cells(table)[0].moves, expected)
        svg = str(variant_triangle(table))
        assert f'data-i="0" data-j="{len(coins) - 1}"' in svg
        assert f'data-moves="{" ".join(expected)}"' in svg


def test_position_and_game_enforce_their_rules() -> None:
    for lo, hi in ((-1, 2), (0, 4), (3, 1), (2, 0)):
        with pytest.raises(errors.SubgameError):
            Position((1, 2, 3, 4), lo, hi)
    assert Position((1, 2), 2, 1).is_over and Position((), 0, -1).is_over
    with pytest.raises(errors.InvalidCoinError):
        Position(("x",), 0, 0)
    for moves in ("l", "LX", "LRL"):
        with pytest.raises(errors.IllegalMoveError):
            Game([1, 2], moves)
    with pytest.raises(errors.IllegalMoveError):
        Game([1, 2], None)  # type: ignore[arg-type]


def test_records_are_immutable_all_the_way_down() -> None:
    record = Record([3, 2], "L", {"players": "A vs B"})
    before = hash(record)
    with pytest.raises(TypeError):
        record.headers["players"] = "C vs D"  # type: ignore[index]
    with pytest.raises(AttributeError):
        record.moves = "LR"  # type: ignore[misc]
    assert hash(record) == before and record == Record([3, 2], "l", {"players": " A vs B "})
    assert eval(repr(record)) == record
    assert Record([]).coins == () and Record([]).finished
    from coinrow.record import parse_records

    empty = Record([], "", {"date": "today"})
    assert empty.to_text() == "# date: today\n-\n"
    assert parse_records(empty.to_text() + "\n" + empty.to_text()).records == [empty, empty]


def test_results_that_look_like_values_are_hashable() -> None:
    values: list[Any] = [
        solve([3, 2, 2, 3, 1, 2]),
        analyze([3, 2, 2, 3, 1, 2], "RLLLLL"),
        analyze([3, 2, 2, 3, 1, 2], "RLLLLL").moves[0],
        Position.start([1, 2]),
        Record([1, 2]),
    ]
    for value in values:
        assert hash(value) == hash(value)
    with pytest.raises(AttributeError):
        values[0].margin = 0


def test_subgames_and_strategies_edge_cases() -> None:
    from coinrow.subgames import Subgames

    for limit in (0, None):  # the reduction path and the table path
        assert Subgames([1, 2], table_limit=limit).moves_of(1, 0) == ()
    with pytest.raises(errors.UnknownStrategyError, match="choose one of: optimal"):
        get("os:system", allow_user=False)  # a server never imports code its clients name


def test_every_error_class_is_exported_under_coinrow_error() -> None:
    classes = [
        getattr(errors, name)
        for name in dir(errors)
        if isinstance(getattr(errors, name), type) and issubclass(getattr(errors, name), Exception)
    ]
    assert len(classes) >= 15
    for cls in classes:
        assert issubclass(cls, coinrow.CoinrowError) and issubclass(cls, ValueError)
        assert getattr(coinrow, cls.__name__) is cls and cls.__name__ in coinrow.__all__


def test_optimal_owns_its_table_and_frees_it() -> None:
    player = get("optimal")
    assert isinstance(player, Optimal) and player is not get("optimal")
    game = play([8, 15, 3, 7], player, get("greedy"))
    assert game.totals == (22, 11)
    assert player.subgames is not None and player.subgames.coins == (8, 15, 3, 7)
    table = weakref.ref(player.subgames)
    del player, game
    gc.collect()
    assert table() is None  # nothing else holds the table


def test_table_memory_budget_is_honest_for_every_number_type() -> None:
    assert Table([1, 2, 3], memory_budget=6 * 40).value_of(0, 2) == 4
    with pytest.raises(errors.TableTooLargeError, match="40 bytes"):
        Table([1, 2, 3], memory_budget=6 * 39)
    with pytest.raises(errors.TableTooLargeError, match="1000 coins"):
        Table([Decimal("1e99999")] * 999 + [Decimal("1e-5")])  # 100,004-digit sums
    fractions = [Fraction(1, k) for k in range(1, 30)]
    assert Table(fractions).value_of(0, 28) == solve(fractions).first_total


def test_huge_ints_print_and_serialise_exactly() -> None:
    big = 10**5000
    solution = solve([big, 1])
    assert solution.first_total == big
    assert repr(solution).startswith("<Solution of 2 coins by reduction: first 1000")
    data = json.loads(json.dumps(solution.to_dict()))
    assert data["first_total"] == "1" + "0" * 5000 and data["second_total"] == 1
    assert eval(repr(Game([big, 1], "L"))).totals == (big, 0)
    with pytest.raises(errors.InvalidCoinError, match="100,000 digits"):
        solve(["9" * 100_001])  # text beyond the limit is refused before it is converted
    assert solve([10**100_001, 1]).first_total == 10**100_001  # Python ints are taken as is


@pytest.mark.parametrize(
    ("row", "error"),
    [
        (b"12", errors.InvalidRowError),
        ({1, 2}, errors.InvalidRowError),
        ({1: 2}, errors.InvalidRowError),
        (np.arange(4).reshape(2, 2), errors.InvalidRowError),
        (None, errors.InvalidRowError),
        ([[1, 2]], errors.InvalidCoinError),
        (["1_000"], errors.InvalidCoinError),
        (["\u0661\u0662"], errors.InvalidCoinError),
        (["-inf"], errors.InvalidCoinError),
        ([np.bool_(True)], errors.InvalidCoinError),
    ],
)
def test_rows_that_are_not_rows_are_refused(row: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        solve(row)  # type: ignore[arg-type]


def test_numpy_floats_are_exact_by_their_shortest_text() -> None:
    assert solve(np.array([0.5, 1.5])).first_total == Decimal("1.5")
    assert solve([np.float64(0.1), 1]).coins == (Decimal("0.1"), Decimal(1))


def test_analysis_has_an_html_repr() -> None:
    html = analyze([3, 2, 2, 3, 1, 2], "RLLLLL")._repr_html_()
    assert html.count("<tr>") == 7 and "mistake" in html and "accuracy 67%" in html
    with pytest.raises(errors.IllegalMoveError):
        analyze([1, 2], None)  # type: ignore[arg-type]
