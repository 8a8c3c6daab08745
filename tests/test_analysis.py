"""Move-by-move analysis against the tests' oracle (tests/oracle.py), short and long rows."""

from __future__ import annotations

import itertools
import random
from decimal import Decimal
from fractions import Fraction

import oracle
import pytest
from hypothesis import given
from hypothesis import strategies as st

import coinrow
from coinrow import IllegalMoveError
from coinrow.analysis import analyze, label_for, typical_coin
from coinrow.subgames import Subgames

lines = st.text(alphabet="LR", max_size=12)


def test_seed_example_opening_right_loses_one() -> None:
    game = coinrow.analyze([3, 2, 2, 3, 1, 2], "RLLLLL")
    first = game.moves[0]
    assert (first.guaranteed_before, first.guaranteed_after, first.loss) == (8, 7, 1)
    assert first.best_moves == ("L",) and first.player == "first" and first.coin == 2
    assert first.label == "mistake"  # 1 of a typical coin of 13/6
    assert [move.label for move in game.moves[1:]] == ["best"] * 5
    assert game.first.total_loss == 1 and game.second.total_loss == 0
    assert game.first.labels == {"best": 2, "inaccuracy": 0, "mistake": 1, "blunder": 0}
    assert game.first.accuracy == pytest.approx(200 / 3)
    assert game.second.accuracy == 100.0
    assert game.finished and game.first.final_total == 7


def check_against_oracle(
    coins: tuple[int, ...], line: str, subgames: Subgames | None = None, steps: int | None = None
) -> None:
    """The first ``steps`` moves (all by default) of the analysis of ``line``."""
    game = analyze(coins, line, subgames)
    assert len(game.moves) == len(line)
    lo, hi, taken = 0, len(coins) - 1, [0, 0]
    for step, move in enumerate(line[:steps]):
        entry, mover = game.moves[step], step % 2
        best = oracle.best_move_set(coins, lo, hi)
        assert entry.guaranteed_before == taken[mover] + oracle.value(coins, lo, hi)
        assert entry.best_moves == best
        assert (entry.loss == 0) == (move in best)
        assert entry.loss >= 0 and (entry.label == "best") == (entry.loss == 0)
        taken[mover] += coins[lo] if move == "L" else coins[hi]
        lo, hi = (lo + 1, hi) if move == "L" else (lo, hi - 1)
        rest = oracle.total(coins, lo, hi) - oracle.value(coins, lo, hi)
        assert entry.guaranteed_after == taken[mover] + rest
        assert entry.loss == entry.guaranteed_before - entry.guaranteed_after
        assert (entry.first_total, entry.second_total) == tuple(taken)


@pytest.mark.parametrize("length", range(1, 6))
def test_every_line_of_small_rows(length: int) -> None:
    """Every line of every row over {0,1,3} up to length 5 (9,330 games, 44,790 moves)."""
    for coins in itertools.product((0, 1, 3), repeat=length):
        for line in itertools.product("LR", repeat=length):
            check_against_oracle(coins, "".join(line))


@given(st.lists(st.integers(-20, 20), min_size=1, max_size=14), lines)
def test_random_games_and_unfinished_ones(coins: list[int], line: str) -> None:
    check_against_oracle(tuple(coins), line[: len(coins)])


@given(st.lists(st.integers(-9, 9), min_size=1, max_size=12), lines)
def test_totals_follow_the_losses(coins: list[int], line: str) -> None:
    """A finished game's first total is the start guarantee minus its own losses plus the
    opponent's: each loss moves points from the mover's guarantee to the other's."""
    line = (line + "L" * len(coins))[: len(coins)]
    game = analyze(coins, line)
    first, second = game.first, game.second
    assert first.final_total == first.guaranteed_start - first.total_loss + second.total_loss
    assert second.final_total == second.guaranteed_start - second.total_loss + first.total_loss
    assert first.guaranteed_start == oracle.first_total(coins)


@given(st.lists(st.integers(-9, 9), min_size=1, max_size=14), lines)
def test_table_and_reduction_paths_match_the_oracle(coins: list[int], line: str) -> None:
    line = line[: len(coins)]
    for subgames in (Subgames(coins), Subgames(coins, table_limit=0)):
        check_against_oracle(tuple(coins), line, subgames)


def test_long_row_beyond_the_table_limit() -> None:
    rng = random.Random(7)
    coins = [rng.randint(1, 9) for _ in range(600)]
    line = "".join(rng.choice("LR") for _ in range(600))
    assert Subgames(coins).table is None  # the reduction path
    check_against_oracle(tuple(coins), line, steps=60)
    game = analyze(coins, line)
    assert game.first.final_total + game.second.final_total == sum(coins)


def test_exact_decimal_and_fraction_rows() -> None:
    game = analyze(["0.4", "0.1", "0.2"], "RLL")
    assert game.moves[0].guaranteed_before == Decimal("0.5")
    assert game.moves[0].loss == Decimal("0.2") and game.moves[0].best_moves == ("L",)
    thirds = analyze([Fraction(2, 3), Fraction(1, 3), Fraction(1, 6)], "R")
    assert thirds.moves[0].guaranteed_before == Fraction(5, 6)
    assert thirds.moves[0].loss == Fraction(1, 3)
    assert not thirds.finished and thirds.to_dict()["moves"][0]["loss"] == "1/3"


def test_labels_and_thresholds() -> None:
    assert typical_coin([-2, 2, 5]) == 3 and typical_coin([]) == 0
    typical = Fraction(4)
    assert [label_for(loss, typical) for loss in (0, 1, 2, 4, 5)] == [
        "best", "inaccuracy", "mistake", "mistake", "blunder"
    ]  # fmt: skip
    big = analyze([1, 1, 100, 1], "R")  # leaves the 100 to the opponent: a blunder
    assert big.moves[0].label == "blunder"


def test_json_form() -> None:
    data = analyze([3, 2, 2, 3, 1, 2], "RL").to_dict()
    assert data["line"] == "RL" and not data["finished"]
    first = data["moves"][0]
    assert first["best_moves"] == ["L"] and first["loss"] == 1 and first["label"] == "mistake"
    assert analyze([1, 2, 4, 3], "L").moves[0].to_dict()["best_moves"] == ["L", "R"]
    assert data["summary"]["first"]["total_loss"] == 1


def test_errors() -> None:
    with pytest.raises(IllegalMoveError, match="3 moves for a row of 2"):
        analyze([1, 2], "LLL")
    with pytest.raises(IllegalMoveError):
        analyze([1, 2], "LX")
    empty = analyze([], "")
    assert empty.moves == () and empty.first.accuracy == 100.0


def test_a_move_that_throws_the_win_away_is_a_blunder() -> None:
    """Greedy's 8 on 8 15 3 7 loses 7 points (less than the typical coin, 33/4) but turns a
    guaranteed 22 of 33 into 15: a blunder, not a mistake."""
    first = analyze([8, 15, 3, 7], "LLRL").moves[0]
    assert (first.guaranteed_before, first.guaranteed_after, first.loss) == (22, 15, 7)
    assert first.label == "blunder"
    assert analyze([3, 2, 2, 3, 1, 2], "R").moves[0].label == "mistake"  # 8 to 7 of 13: still a win
