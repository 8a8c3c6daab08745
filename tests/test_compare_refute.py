"""Tournaments (``coinrow compare``) and counterexample search (``coinrow refute``)."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import oracle
import pytest
from helpers import run_cli

import coinrow
from coinrow import Position
from coinrow.cli import main
from coinrow.errors import InvalidOptionError, UnknownStrategyError
from coinrow.numbers import Value, ValueSpec
from coinrow.refute import (
    Search,
    check_row,
    refute,
    rows_up_to,
    search_cap,
    search_length,
    worst_line,
)
from coinrow.strategies import Strategy, get, play
from coinrow.tournament import Tournament, tournament

run = run_cli  # the shared helper (tests/helpers.py)


# --- tournaments ----------------------------------------------------------------------------


def test_tournament_is_reproducible_with_a_seed() -> None:
    names = ["optimal", "greedy", "random", "optimal:random", "thibault3"]
    first = tournament(names, rows=15, n=7, seed=11).to_dict()
    assert tournament(names, rows=15, n=7, seed=11).to_dict() == first
    assert tournament(names, rows=15, n=7, seed=12).to_dict() != first
    # a pair's results do not depend on the other strategies in the tournament
    alone = tournament(["greedy", "random"], rows=15, n=7, seed=11).pairs[0]
    together = next(p for p in tournament(names, rows=15, n=7, seed=11).pairs
                    if (p.strategy, p.opponent) == ("greedy", "random"))  # fmt: skip
    assert alone == together


def test_tournament_counts_and_regret() -> None:
    result = tournament(["optimal", "greedy", "cooperative"], rows=30, n=6, values="1,2,3,5")
    assert [(p.strategy, p.opponent) for p in result.pairs] == [
        ("optimal", "greedy"), ("optimal", "cooperative"), ("greedy", "cooperative")
    ]  # fmt: skip
    for pair in result.pairs:
        assert pair.games == 60 and pair.wins + pair.ties + pair.losses == 60
    optimal_row, greedy_row, cooperative_row = result.standings
    assert optimal_row.mean_regret == 0.0 and optimal_row.games == 120
    assert cooperative_row.mean_regret > greedy_row.mean_regret > 0
    # optimal never does worse than an optimal player would against the same opponent
    assert result.pairs[1].mean_margin > 0
    assert sum(s.margin_sum for s in result.standings) == 0


def test_tournament_margin_and_regret_by_hand() -> None:
    """One row, both seats, checked against play() and analyze() directly."""
    pair = tournament(["greedy", "optimal"], rows=1, n=6, seed=5).pairs[0]
    coins = ValueSpec.parse("1-9").row(6, random.Random(5))  # the tournament's first row
    greedy_first = play(coins, get("greedy"), get("optimal"))
    greedy_second = play(coins, get("optimal"), get("greedy"))
    (a, b), (c, d) = greedy_first.totals, greedy_second.totals
    assert pair.margin_sum == (a - b) + (d - c)
    regret = (
        coinrow.analyze(coins, greedy_first.line).first.total_loss
        + coinrow.analyze(coins, greedy_second.line).second.total_loss
    )
    assert pair.regret_sum == regret and pair.opponent_regret_sum == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["greedy"], "at least two strategies"),
        (["greedy", "greedy"], "given twice"),
        (["greedy", "magic"], "unknown strategy 'magic'"),
    ],
)
def test_tournament_errors(args: list[str], message: str) -> None:
    with pytest.raises(coinrow.CoinrowError, match=message):
        tournament(args)


def test_value_specs() -> None:
    assert ValueSpec.parse("-3..3").low == -3
    assert ValueSpec.parse("0.5, 1/2").choices[0] == ValueSpec.parse("1/2").choices[0]
    for bad in ("5-1", "", "a-b"):
        with pytest.raises(InvalidOptionError):
            ValueSpec.parse(bad)


def test_compare_cli_json_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["compare", "optimal", "greedy", "random", "--games", "10", "--length", "5",
            "--seed", "3", "--json"]  # fmt: skip
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert first["games_per_pair"] == 20 and len(first["pairs"]) == 3
    assert set(first["pairs"][0]) >= {"win_rate", "tie_rate", "loss_rate", "mean_margin",
                                      "mean_regret"}  # fmt: skip
    assert main(["compare", "optimal", "greedy", "--games", "5", "--length", "4"]) == 0
    out = capsys.readouterr().out
    assert "Standings" in out and "greedy" in out


def test_compare_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rates.png"
    assert main(["compare", "optimal", "greedy", "--games", "4", "--length", "4", "--plot",
                 str(path)]) == 0  # fmt: skip
    assert path.stat().st_size > 1000 and path.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["compare", "optimal"], "at least two strategies"),
        (["compare", "optimal", "magic"], "unknown strategy 'magic'"),
        (
            ["compare", "optimal", "greedy", "--length", "-3"],
            "--length: the number of coins per row must be 1 to 100,000, got -3",
        ),
        (
            ["compare", "optimal", "greedy", "--games", "0"],
            "--games: the number of rows must be 1 to 1,000,000, got 0",
        ),
        (["compare", "optimal", "greedy", "--values", "x"], "values 'x'"),
        (["compare", "optimal", "greedy", "--plot", "chart.gif"], "use one of the suffixes"),
        (["refute", "magic"], "unknown strategy 'magic'"),
        (["refute", "greedy", "--values", ""], "--values"),
        (["refute", "greedy", "--values", "1,x"], "--values"),
        (
            ["refute", "greedy", "--max-length", "0"],
            "--max-length: the longest row searched must be >= 1",
        ),
        (["refute", "greedy", "--examples", "-1"], "--examples: a search stops after 1 to 1,000"),
        (["refute", "greedy", "1", "2", "--values", "1,2"], "coins check one row; --values"),
        (["refute", "greedy", "--row", ","], "No such option: --row"),
    ],
)
def test_cli_errors(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert message in err and "Traceback" not in err


# --- counterexample search ------------------------------------------------------------------


def brute_worst(coins: Sequence[Value], strategy: Strategy) -> Value:
    """The strategy's total against the optimal opponent that hurts it most, by the oracle."""
    start = Position.start(coins)
    return oracle.worst_case_total(coins, lambda lo, hi: strategy(Position(start.coins, lo, hi)))


@pytest.mark.parametrize("name", ["greedy", "parity", "thibault", "thibault3", "lookahead:2"])
def test_worst_line_and_check_row_match_the_oracle(name: str) -> None:
    """Every row over {1,2,3} up to length 6 (1,092 rows) for each strategy."""
    strategy = get(name)
    for length in range(1, 7):
        for coins in itertools.product((1, 2, 3), repeat=length):
            total, line = worst_line(coins, strategy)
            assert total == brute_worst(coins, strategy), coins
            optimum = oracle.first_total(coins)
            found = check_row(coins, strategy)
            assert (found is None) == (total >= optimum), coins
            if found is not None:
                assert (found.strategy_total, found.optimal_total) == (total, optimum)
                assert found.strategy_line == line
                oracle.assert_line_optimal(coins, found.optimal_line)
            game = coinrow.Game(coins, line)
            assert game.totals[0] == total
            # the opponent's moves on the line are optimal
            for step, (position, move) in enumerate(game.iter_moves()):
                if step % 2:
                    assert move in oracle.best_moves(coins, position.lo, position.hi)
                else:
                    assert move == strategy(position)


@pytest.mark.parametrize(
    ("name", "coins", "got", "best"),
    [
        ("thibault", "2,1,2,3,3,3", 7, 8),
        ("thibault3", "2,1,2,5,5,3", 9, 10),
        ("parity", "3,2,2,3,1,2", 7, 8),
    ],
)
def test_refute_row_confirms_the_blog(
    name: str, coins: str, got: int, best: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["refute", name, *coins.split(","), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["strategy"] == name and data["searched"] == 1
    (example,) = data["counterexamples"]
    assert example["coins"] == [int(c) for c in coins.split(",")]
    assert (example["strategy_total"], example["optimal_total"]) == (got, best)
    assert len(example["strategy_line"]) == 6 and len(example["optimal_line"]) == 6
    assert main(["refute", name, *coins.split(",")]) == 0
    out = capsys.readouterr().out
    assert f"{name} gets {got} playing first; the optimum is {best} (loss {best - got})" in out
    assert main(["refute", "optimal", "--row", coins, "--json"]) == 0  # the old spelling
    assert json.loads(capsys.readouterr().out)["counterexamples"] == []


@pytest.mark.parametrize("name", ["greedy", "thibault", "thibault3"])
def test_refute_finds_counterexamples_within_length_6(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["refute", name, "--values", "1,2,3,5", "--max-length", "6", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (example,) = data["counterexamples"]
    coins = example["coins"]
    assert len(coins) <= 6 and set(coins) <= {1, 2, 3, 5}
    assert example["strategy_total"] < example["optimal_total"] == oracle.first_total(coins)
    assert brute_worst(coins, get(name)) == example["strategy_total"]
    # the smallest: no row before it (shorter, or lexicographically smaller) is a counterexample
    alphabet = (1, 2, 3, 5)
    earlier = [
        row for length in range(1, len(coins)) for row in itertools.product(alphabet, repeat=length)
    ]
    earlier += [row for row in itertools.product(alphabet, repeat=len(coins)) if list(row) < coins]
    assert data["searched"] == len(earlier) + 1
    assert all(check_row(row, get(name)) is None for row in earlier)


def test_refute_finds_nothing_for_optimal() -> None:
    for name in ("optimal", "optimal:right", "optimal:random", "lookahead:6"):
        result = refute(name, [1, 2, 3, 5], 6, limit=0)
        assert result.counterexamples == [] and result.searched == rows_up_to(4, 6) == 5460


def test_refute_limit_and_order(capsys: pytest.CaptureFixture[str]) -> None:
    result = refute("greedy", [1, 2, 3], 5, limit=0)
    keys = [(len(e.coins), e.coins) for e in result.counterexamples]
    assert keys == sorted(keys) and len(keys) > 3 and result.searched == rows_up_to(3, 5)
    assert main(["refute", "greedy", "--values", "3,2,1", "--max-length", "5", "--examples", "3",
                 "--json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert [e["coins"] for e in data["counterexamples"]] == [
        list(e.coins) for e in result.counterexamples[:3]
    ]
    assert main(["refute", "greedy", "--max-length", "3"]) == 0
    assert "no counterexamples" in capsys.readouterr().out


def test_search_cap() -> None:
    assert search_length(3, 12) == 12 and search_length(3, 13) == 12
    result = refute("optimal", [1, 2], 30, cap=100)
    assert result.max_length == 5 and result.capped and result.searched == rows_up_to(2, 5)
    assert result.to_dict()["capped"] is True
    capped = run("refute", "greedy", "--values", "1,2,3", "--max-length", "40", "--json")
    assert (
        capped.returncode == 0 and "note: --max-length 40: searching lengths up to" in capped.stderr
    )
    # the compiled path's cap follows from its measured speed, far above the Python path's
    assert json.loads(capped.stdout)["max_length"] == search_length(3, 40, search_cap(True)) > 12
    python = Search("random", [1, 2, 3], 40)
    assert not python.compiled and python.result.max_length == search_length(3, 40) == 12


def refute_with_user_rule(tmp_path: Path, module: str, source: str, function: str):  # type: ignore[no-untyped-def]
    """Run ``coinrow refute module:function 1 2`` with the module written in tmp_path."""
    (tmp_path / f"{module}.py").write_text(source)
    return subprocess.run(
        [sys.executable, "-m", "coinrow", "refute", f"{module}:{function}", "1", "2"],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip


def test_refute_user_strategy_returning_garbage(tmp_path: Path) -> None:
    result = refute_with_user_rule(
        tmp_path, "bad_rule_for_test", "def up(position):\n    return 'U'\n", "up"
    )
    assert result.returncode == 2 and "returned 'U'" in result.stderr


def test_unknown_strategy_lists_choices() -> None:
    with pytest.raises(UnknownStrategyError, match="thibault3"):
        get("nope")


def test_stopping_early_keeps_what_was_finished() -> None:
    """A caller that stops the steps (as the CLI does on Ctrl-C) keeps the results so far."""
    search = Search("optimal", [1, 2, 3], 9)
    assert next(search.run()) == 1000
    assert search.result.interrupted and search.result.searched == 1000
    assert search.result.to_dict()["interrupted"] is True
    found = Search("greedy", [1, 2, 3], 9, limit=0)
    next(found.run())
    examples = found.result.counterexamples
    assert examples and all(len(e.coins) <= 7 for e in examples)
    played = Tournament(["optimal", "greedy"], rows=50, n=5)
    assert next(played.play()) == 1  # the rows finished since the last yield
    result = played.result
    assert result.interrupted and result.rows_played == 1 and result.pairs[0].games == 2


def test_refute_user_strategy_that_raises(tmp_path: Path) -> None:
    result = refute_with_user_rule(
        tmp_path, "crashing_rule_for_test", "def crash(position):\n    return 1 / 0\n", "crash"
    )
    assert result.returncode == 2
    assert "crashing_rule_for_test:crash failed" in result.stderr
    assert "ZeroDivisionError" in result.stderr and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1


def test_tables_fit_80_columns_without_cutting_a_number(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Values up to 10^6 give margins such as +123456.78: every figure of the JSON shows in
    # full in the text at 80 columns (Rich used to cut them to "64.…"), no line is wider.
    monkeypatch.setenv("COLUMNS", "80")
    args = ["compare", "optimal", "greedy", "lookahead:3", "--games", "3", "--length", "7",
            "--values", "1..999999", "--seed", "5"]  # fmt: skip
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "…" not in out and max(map(len, out.splitlines())) <= 80
    for pair in data["pairs"]:
        assert f"{pair['mean_margin']:+.2f}" in out and f"{pair['mean_regret']:.2f}" in out
    assert main(["solve", "123456789012", "3", "987654321098", "5"]) == 0
    out = capsys.readouterr().out
    assert "…" not in out and max(map(len, out.splitlines())) <= 80
    table = out.split("Optimal play")[1].split("First player takes")[0]
    assert table.count("1111111110110") == 2 and table.count("987654321098") >= 2
