"""Opponent levels (measured strength), the evaluation series of a review, and puzzles."""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest
from oracle import first_total

from coinrow import solve
from coinrow.analysis import analyze
from coinrow.errors import CoinrowError
from coinrow.levels import LEVELS, level_table, strength
from coinrow.review import evaluation
from coinrow.strategies import get


def test_levels_are_ordered_by_measured_strength() -> None:
    losses = [strength(level.strategy, games=60) for level in LEVELS]
    assert losses == sorted(losses, reverse=True), losses
    assert losses[-1] == 0 and losses[0] > 1
    table = level_table(games=10)
    assert [row["name"] for row in table] == [level.name for level in LEVELS]
    assert all("thibault" not in row["name"] for row in table)


def test_strength_is_the_mean_loss_against_perfect_play() -> None:
    # One game, greedy first on a row where it loses 7: 8 15 3 7 (greedy 15, best 22).
    assert strength("greedy", games=0) == 0
    loss = strength("greedy", games=2, coins=4, values="1-9", seed=5)
    assert isinstance(loss, Fraction) and loss >= 0


@pytest.mark.parametrize(
    ("coins", "moves"),
    [([8, 15, 3, 7], "LLRL"), ([3, 2, 2, 3, 1, 2], "RRLLRL"), (["0.1", "1/3", 5], "LR")],
)
def test_evaluation_matches_the_oracle_and_the_analysis(coins: list[object], moves: str) -> None:
    series = evaluation(coins, moves)
    assert len(series) == len(moves) + 1
    start = solve(coins)
    assert (series[0].first, series[0].second) == (start.first_total, start.second_total)
    assert series[0].first == first_total([Fraction(str(c)) for c in coins])
    analysis = analyze(coins, moves)
    for point, move in zip(series[1:], analysis.moves, strict=True):
        mover = point.first if move.player == "first" else point.second
        assert mover == move.guaranteed_after
    assert series[1].to_dict()["ply"] == 1


def test_evaluation_refuses_bad_moves() -> None:
    with pytest.raises(CoinrowError):
        evaluation([1, 2], "LLL")
    assert get("optimal")  # the strategies stay importable beside the levels


def test_day_is_a_date() -> None:
    assert datetime.date(2026, 11, 23).isoformat() == "2026-11-23"


def test_puzzles_are_refutations_at_the_first_move() -> None:
    from oracle import best_move_set

    from coinrow.puzzles import TEMPTING, daily_puzzle, daily_seed, puzzle, puzzles

    found = puzzles(12, seed=100)
    assert {p.tempting for p in found} <= set(TEMPTING)
    for p in found:
        coins = list(p.coins)
        best = best_move_set(coins)
        assert p.tempting_move not in best and p.best_moves == best
        first = get(p.tempting)
        assert first.__call__  # the same strategy the refute search used
        assert p.loss > 0 and p.grade in ("inaccuracy", "mistake", "blunder")
        assert p.best_total == first_total(coins)
    day = datetime.date(2026, 11, 23)
    assert daily_puzzle(day) == puzzle(daily_seed(day)) == puzzle(20261123)
    assert daily_puzzle(day).to_dict()["seed"] == 20261123
    assert "best:" in daily_puzzle(day).to_text()


def test_puzzles_command(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from coinrow.cli import main
    from coinrow.puzzles import puzzle, puzzles

    assert main(["puzzles", "--count", "2", "--seed", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [p.to_dict() for p in puzzles(2, 3)]
    assert main(["puzzles", "--daily", "--date", "2026-11-23"]) == 0
    row, answer = puzzle(20261123).to_text().split("\n")
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[:2] == ["# puzzle 20261123: you move first; find the best move", row]
    assert answer not in "\n".join(lines[:3]) and f"# puzzle 20261123: {answer}" in lines
    assert lines.index("Answers") > 1  # the answers come after every puzzle, not under it
    assert main(["puzzles", "--count", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    asked = [k for k, line in enumerate(lines) if line.endswith("find the best move")]
    assert len(asked) == 3 and max(asked) < lines.index("Answers")
    assert main(["puzzles", "--daily", "--date", "23/11/2026"]) == 2
    assert "not a date" in capsys.readouterr().err
    assert main(["puzzles", "--count", "0"]) == 2
