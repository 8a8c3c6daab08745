"""A gallery of real-style solvers, written here (none copied from anywhere), one per
convention people paste: a LeetCode class using `List` unimported, a bare `lru_cache`,
GeeksforGeeks' `maximumAmount(arr)`, an `(n, arr)` function, CSES and EDPC programs reading
standard input in Python and in C++, a memoised recursion that fails only past 1,985 coins,
one that changes its input but answers right. Each gets the right verdict, row, diagnosis
and growth class; each check's wall and CPU time is printed (`pytest -s`) for the record.

Then the batch grader grades the gallery twice, once with both cores busy (two spinning
processes started here): the grade sheets are identical."""

from __future__ import annotations

import csv
import multiprocessing
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from oracle import first_total as brute_first_total

import coinrow
from coinrow.checking import CheckResult, check
from coinrow.cli import main

GALLERY = Path(__file__).parent / "check_gallery"
QUICK: dict[str, Any] = {"budget": 4.0, "max_length": 4, "complexity": False}


def timed(target: str, **settings: Any) -> CheckResult:
    start = time.monotonic()
    result = check(str(GALLERY / target), **{**QUICK, **settings})
    print(f"\n{target}: {time.monotonic() - start:.2f} s wall, {result.cpu_seconds:.2f} s CPU")
    return result


def test_a_leetcode_class_using_list_and_cache_unimported() -> None:
    result = timed("leetcode_list.py", problem="leetcode-486")
    assert result.passed and result.complete, result.text()
    assert result.provided == ("List", "cache")
    assert "provided as LeetCode's judge does: List, cache" in result.text()
    assert (result.function, result.answer) == ("Solution.PredictTheWinner", "wins-or-ties")
    assert result.judge_says == "LeetCode 486: accepted (up to n = 20)"
    assert result.stage("random").largest_n == 20


def test_a_memo_with_a_bare_lru_cache() -> None:
    result = timed("bare_lru_cache.py", depth_n=300, max_n=300, complexity=True, budget=6)
    assert result.passed, result.text()
    assert result.provided == ("lru_cache",)
    assert result.growth is not None and result.growth.growth == "O(n^2)", result.growth
    deep = timed("bare_lru_cache.py")  # without limits on n: too deep from about 500 coins
    assert deep.failure is not None and deep.failure.error == "RecursionError"
    assert deep.failure.stage == "depth" and 256 < len(deep.failure.coins) < 512


def test_geeksforgeeks_maximum_amount() -> None:
    result = timed("gfg_maximum_amount.py", problem="gfg", budget=6)
    assert result.passed, result.text()
    assert (result.function, result.picked, result.call) == (
        "Solution.maximumAmount",
        True,
        "coins",
    )
    assert result.judge_says == "GeeksforGeeks: accepted (up to n = 1,000)"
    assert result.stage("edge").rows == 4  # only rows GeeksforGeeks could give: n even, 1..10^6


def test_a_function_taking_n_first() -> None:
    result = timed("n_first.py", answer="margin", max_n=1000, complexity=True, budget=3)
    assert result.passed, result.text()
    assert (result.function, result.call) == ("solve", "n, coins")
    assert "called as (n, coins)" in result.text()
    assert result.growth is not None and result.growth.growth == "O(n^2)", result.growth


def test_a_memoised_recursion_failing_only_past_1985_coins() -> None:
    result = timed("deep_memo.py")
    failure = result.failure
    assert failure is not None and (failure.stage, failure.error) == ("depth", "RecursionError")
    # about 1,985 from the command line; the frames of the caller (pytest) count too
    assert failure.found_n == 2048 and 1900 < len(failure.coins) < 2000
    assert result.stage("depth").rows == 7  # 16 to 1,024 passed (1,024 slowly: passed over)
    assert [d.code for d in result.diagnosis] == ["recursion"]
    assert result.diagnosis[0].text == f"recursion depth exceeded at n = {len(failure.coins):,}"
    assert failure.origin == "shrunk from a failing row of 2,048 coins (depth stage)"


def test_a_solver_that_changes_its_input_but_answers_right() -> None:
    result = timed("mutates_right.py")
    failure = result.failure
    assert failure is not None and (failure.kind, failure.coins) == ("mutated", (0, 1))
    assert failure.right and failure.got == 1 == failure.expected
    assert failure.got_text == "1 (right), but it changes its input"
    assert [d.code for d in result.diagnosis] == ["mutates_input"]
    assert "expected 1, got 1 (right), but it changes its input" in result.summary()


def test_a_cses_program_in_python() -> None:
    result = timed("cses_program.py", problem="cses-1097")
    assert result.passed and result.call == "stdin", result.text()
    assert result.answer_from == "from the problem cses-1097"
    assert result.judge_says == "CSES 1097: time limit exceeded at n = 5,000 (1 s)"


def test_an_edpc_program_in_python() -> None:
    result = timed("edpc_program.py", problem="edpc-l")
    failure = result.failure
    assert failure is not None and failure.coins == (1, 1)  # first over 1, 2, 3
    assert (failure.expected, failure.got) == (0, 1)
    assert [d.code for d in result.diagnosis] == ["total_not_margin"]
    assert result.judge_says == "AtCoder EDPC L: wrong answer (smallest failing row: 2 coins)"


def test_a_cses_program_in_cpp() -> None:
    result = timed("cses_program.cpp", problem="cses-1097", budget=8)
    assert result.passed, result.text()
    assert result.judge_says == "CSES 1097: accepted (up to n = 5,000)", result.text()
    assert result.stage("edge").rows == 14  # coins within -10^9..10^9: no 2^64 + 1


def test_an_edpc_program_in_cpp_that_overflows() -> None:
    result = timed("edpc_program.cpp", problem="edpc-l", budget=8)
    failure = result.failure
    assert failure is not None and failure.kind == "wrong", result.text()
    assert sum(failure.coins) >= 2**31 and all(1 <= c <= 10**9 for c in failure.coins)
    assert failure.expected == coinrow.solve(list(failure.coins)).margin
    assert [d.code for d in result.diagnosis] == ["overflow"]
    assert result.judge_says is not None and "wrong answer" in result.judge_says


def test_a_compiled_file_needs_a_problem_and_a_compiler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "a.cpp"
    source.write_text("int main() { return 0; }\n")
    with pytest.raises(coinrow.CheckTargetError, match="a program needs a problem"):
        check(str(source))
    monkeypatch.setenv("PATH", str(tmp_path))  # no g++ here
    with pytest.raises(coinrow.CheckTargetError, match=r"no g\+\+ on this machine"):
        check(str(source), problem="cses-1097")


def test_cmd_runs_a_program_already_built(capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    command = f"{sys.executable} {GALLERY / 'edpc_program.py'}"
    code = main(
        [
            *("check", "--problem", "edpc-l", "--cmd", command),
            *("--budget", "4", "--max-length", "2", "--no-complexity"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 1
    assert "Smallest failing row (the first failing row of every row over 1, 2, 3): [1, 1]" in out
    assert "Judge: AtCoder EDPC L: wrong answer" in out
    assert "\x1b[" not in out  # no colour codes off a terminal


def test_several_candidates_are_named_with_how_to_choose(tmp_path: Path) -> None:
    path = tmp_path / "two.py"
    path.write_text(
        (GALLERY / "bottom_up.py").read_text()
        + "\n\ndef solve(coins):\n    return maxCoins(coins)\n"
    )
    result = check(str(path), **QUICK, max_n=100)
    assert (result.function, result.others) == ("maxCoins", ("solve",))
    assert f"also found solve: name one as {path}:NAME" in result.text()
    chosen = check(f"{path}:solve", **QUICK, max_n=100)
    assert (chosen.function, chosen.picked) == ("solve", False)


def test_a_program_that_reads_input_as_a_function_gets_a_hint() -> None:
    with pytest.raises(coinrow.CheckTargetError, match="it reads standard input"):
        check(str(GALLERY / "edpc_program.py"))


def test_the_oracle_agrees_on_the_gallery_rows() -> None:
    assert brute_first_total([1, 1]) == 1 and coinrow.solve([1, 1]).margin == 0


# ---------------------------------------------------------------------------------------
# The batch, on a quiet and on a busy machine


def _spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


@pytest.fixture
def busy() -> Iterator[None]:
    """Both cores busy: two spinning processes, ended after the test."""
    context = multiprocessing.get_context("fork")
    spinners = [context.Process(target=_spin, args=(120,)) for _ in range(2)]
    for spinner in spinners:
        spinner.start()
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.join()


GRADED = [
    "leetcode_list.py",
    "bare_lru_cache.py",
    "gfg_maximum_amount.py",
    "mutates_right.py",
    "memoised.py",
    "bottom_up.py",
    "greedy.py",
    "plain_recursion.py",
]


def _grade(tmp_path: Path, name: str) -> list[dict[str, str]]:
    folder = tmp_path / "submissions"
    if not folder.exists():
        folder.mkdir()
        for file in GRADED:
            shutil.copy(GALLERY / file, folder / file)
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(
        'title = "gallery"\n'
        '[functions]\n"gfg_maximum_amount" = "Solution.maximumAmount"\n'
        '[[item]]\nname = "correct"\ncheck = "correct"\nmarks = 4\n'
        '[[item]]\nname = "memoised (calls counted)"\ncheck = "memoised_calls"\nmarks = 3\n'
        '[[item]]\nname = "bottom-up"\ncheck = "bottom_up"\nmarks = 3\n'
        '[[item]]\nname = "keeps its input"\ncheck = "no_mutation"\nmarks = 1\n'
    )
    out = tmp_path / name
    args = ["check", str(folder), "--rubric", str(rubric), "--out", str(out)]
    settings = ["--budget", "3", "--max-length", "4", "--max-n", "300", "--no-complexity"]
    assert main([*args, *settings]) == 0
    return list(csv.DictReader((out / "grades.csv").read_text().splitlines()))


def test_grades_do_not_depend_on_load(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    start = time.monotonic()
    quiet = _grade(tmp_path, "quiet")
    middle = time.monotonic()
    request.getfixturevalue("busy")
    loaded = _grade(tmp_path, "loaded")
    print(f"\nbatch: {middle - start:.1f} s quiet, {time.monotonic() - middle:.1f} s loaded")
    assert quiet == loaded
    marks = {row["student"]: row["total"] for row in quiet}
    assert marks == {
        "bare_lru_cache": "8",  # right up to n = 300, memoised, keeps its input
        "bottom_up": "8",
        "gfg_maximum_amount": "8",
        "greedy": "1",  # wrong, but keeps its input
        "leetcode_list": "8",
        "memoised": "8",
        "mutates_right": "0",
        "plain_recursion": "5",  # right, but exponentially many calls
    }
    reasons = {row["student"]: row["memoised (calls counted): why"] for row in quiet}
    assert reasons["plain_recursion"].endswith("memoisation missing")
    assert reasons["bottom_up"].startswith("no recursion")


def test_diagnoses_of_the_convention_and_the_winner() -> None:
    def winner(coins: list[int]) -> int:
        solved = coinrow.solve(coins)
        return max(solved.first_total, solved.second_total)

    def margin(coins: list[int]) -> int:
        return coinrow.solve(coins).margin

    def wins(coins: list[int]) -> bool:
        return coinrow.solve(coins).margin > 0

    settings = {**QUICK, "max_n": 100, "budget": 2.0}
    assert "winner_total" in [d.code for d in check(winner, **settings).diagnosis]
    asked_bool = check(margin, answer="wins-or-ties", **settings)
    assert asked_bool.diagnosis[0].code == "margin_not_bool"  # (0 is False too)
    asked_total = check(wins, answer="total", **settings)
    assert [d.code for d in asked_total.diagnosis] == ["wrong_type", "convention"]
    assert asked_total.diagnosis[1].text == (
        "answers True or False as the wins convention does: check it with that answer"
    )
