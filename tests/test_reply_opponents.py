"""Issue 24, item 1: ``reply:S`` solves against S as a function of the position, so every
opponent that is not deterministic is refused, through the CLI, the census and the
library, and every deterministic one answers the same on every run."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run_cli

from coinrow import solve
from coinrow.errors import CoinrowError, UnsupportedRulesError
from coinrow.play_values import PlayValues
from coinrow.strategies import BUILTINS, get, is_deterministic, reply_opponent

ROW = [str(coin) for coin in (3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2)]

NOT_DETERMINISTIC = ["erring", "erring:50", "erring:50:7", "erring:1", "erring:99"]
DETERMINISTIC = [
    "optimal", "optimal:left", "optimal:right", "greedy", "parity", "lookahead", "lookahead:3",
    "cooperative", "thibault", "thibault3", "erring:0", "erring:100",
]  # fmt: skip


@pytest.mark.parametrize("name", NOT_DETERMINISTIC)
def test_cli_solve_refuses_an_opponent_that_is_not_deterministic(name: str) -> None:
    done = run_cli("solve", "--rules", f"reply:{name}", *ROW)
    assert done.returncode == 2, done.stdout
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "the opponent must be deterministic" in lines[0], done.stderr


def test_cli_solve_answers_the_same_on_every_run_for_each_accepted_opponent() -> None:
    for name in ("lookahead:3", "erring:0", "optimal:right"):
        command = ("solve", "--json", "--rules", f"reply:{name}", *ROW)
        answers = {run_cli(*command).stdout for _ in "ab"}
        assert len(answers) == 1 and '"margin"' in answers.pop()


def test_census_refuses_before_it_starts(tmp_path: Path) -> None:
    done = run_cli(
        "census", "--length", "6", "--alphabet", "0,1,2", "--rules", "reply:erring:30",
        "--out", str(tmp_path / "out"),
    )  # fmt: skip
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "deterministic" in done.stderr
    assert not (tmp_path / "out").exists()


def test_a_user_strategy_must_declare_itself_deterministic(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(
        "import random\n"
        "def steady(position):\n    return 'L'\nsteady.deterministic = True\n"
        "def shaky(position):\n    return random.choice('LR')\n"
    )
    steady = run_cli("solve", "--rules", "reply:mine:steady", "1", "2", "3", cwd=tmp_path)
    assert steady.returncode == 0, steady.stderr
    shaky = run_cli("solve", "--rules", "reply:mine:shaky", "1", "2", "3", cwd=tmp_path)
    assert shaky.returncode == 2 and "deterministic" in shaky.stderr


def test_every_builtin_declares_whether_it_is_deterministic() -> None:
    assert {name.partition(":")[0] for name in DETERMINISTIC + NOT_DETERMINISTIC} | {
        "random"
    } == set(BUILTINS)
    for name in DETERMINISTIC:
        assert is_deterministic(get(name, seed=1)), name
        assert (reply_opponent(f"reply:{name}") is None) == (name == "greedy")  # engines' own
    for name in [*NOT_DETERMINISTIC, "random:3", "optimal:random:3"]:
        assert not is_deterministic(get(name, seed=1)), name


@pytest.mark.parametrize("name", NOT_DETERMINISTIC)
def test_library_refuses_it_as_an_object_too(name: str) -> None:
    row = [int(coin) for coin in ROW[:8]]
    with pytest.raises(UnsupportedRulesError, match="deterministic"):
        solve(row, rules=f"reply:{name}", opponent=get(name, seed=1))
    with pytest.raises(CoinrowError, match="deterministic"):
        PlayValues(row, f"reply:{name}", opponent=get(name, seed=1))
    with pytest.raises(CoinrowError, match="deterministic"):
        solve(row, rules="reply:mine", opponent=lambda position: "L")  # undeclared
