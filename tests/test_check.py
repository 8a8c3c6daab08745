"""coinrow check: a gallery of solvers (tests/check_gallery/) passes or fails as it should,
with the smallest counterexample (computed here independently, in family order, with the
brute-force oracle) and the diagnosis; the growth classes; the batch grader; bad input.

Small budgets keep the file fast: each check gets a few seconds at most."""

from __future__ import annotations

import csv
import importlib.util
import itertools
import json
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from oracle import first_total as brute_first_total

import coinrow
from coinrow.checking import SEEDS, check
from coinrow.checking.grading import parse_rubric, read_rubric
from coinrow.cli import main
from coinrow.testing import assert_solver

GALLERY = Path(__file__).parent / "check_gallery"
ROOT = Path(__file__).parent.parent
QUICK: dict[str, Any] = {"budget": 2.0, "time_limit": 0.5, "max_length": 5, "complexity": False}


def load(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"gallery_{name}", GALLERY / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def first_failing(solve: Any, max_length: int = 5) -> tuple[int, ...]:
    """The first row over 0..3 in family order where ``solve`` differs from the oracle."""
    for length in range(1, max_length + 1):
        for row in itertools.product(range(4), repeat=length):
            try:
                if solve(list(row)) != brute_first_total(list(row)):
                    return row
            except Exception:
                return row
    raise AssertionError("no failing row")


def test_the_seed_examples_are_what_the_seeds_say() -> None:
    totals = [coinrow.solve(list(seed.coins)).first_total for seed in SEEDS]
    assert totals == [15, 22, 8, 5, 7]
    assert [brute_first_total(list(seed.coins)) for seed in SEEDS] == totals


@pytest.mark.parametrize(
    ("name", "function"),
    [
        ("memoised", "optimalStrategyOfGame"),
        ("bottom_up", "maxCoins"),
        ("linear_memory", "solve"),
        ("linear", "solve"),
        ("n_log_n", "solve"),
        ("plain_recursion", "maxCoins"),
    ],
)
def test_correct_solvers_pass(name: str, function: str) -> None:
    result = check(str(GALLERY / f"{name}.py"), **QUICK)
    assert result.passed, result.text()
    assert (result.function, result.picked, result.answer) == (function, True, "total")
    assert [s.status for s in result.stages[:3]] == ["passed"] * 3
    assert result.stage("exhaustive").rows == sum(4**k for k in range(1, 6))
    assert result.diagnosis == []


def test_a_leetcode_solution_class_with_its_convention() -> None:
    result = check(str(GALLERY / "leetcode.py"), **QUICK)
    assert result.passed, result.text()
    assert result.function == "Solution.PredictTheWinner"
    assert (result.answer, result.answer_from) == ("wins-or-ties", "from the name PredictTheWinner")
    wrong = check(str(GALLERY / "leetcode.py"), answer="wins", **QUICK)
    assert not wrong.passed
    assert wrong.failure is not None and wrong.failure.coins == (0,)
    assert [d.code for d in wrong.diagnosis] == ["tie_as_win"]


@pytest.mark.parametrize(
    ("name", "codes"),
    [
        ("greedy", ["greedy"]),
        ("parity", ["parity"]),
        ("off_by_one", ["without_last"]),
        ("margin", ["margin_not_total"]),
    ],
)
def test_wrong_answers_are_shrunk_and_diagnosed(name: str, codes: list[str]) -> None:
    module = load(name)
    function = getattr(module, "maxCoins", None) or module.optimalStrategyOfGame
    solve = (lambda row: function(row, len(row))) if name == "greedy" else function
    result = check(str(GALLERY / f"{name}.py"), **QUICK)
    assert not result.passed
    failure = result.failure
    assert failure is not None and failure.kind == "wrong"
    assert failure.coins == first_failing(solve)
    assert failure.expected == brute_first_total(list(failure.coins))
    assert failure.got == solve(list(failure.coins))
    assert failure.optimal_line == coinrow.solve(list(failure.coins)).line
    assert [d.code for d in result.diagnosis] == codes


def test_even_only_fails_on_odd_lengths() -> None:
    result = check(str(GALLERY / "even_only.py"), **QUICK)
    assert result.failure is not None
    assert (result.failure.stage, result.failure.kind, result.failure.coins) == (
        "edge",
        "raised",
        (0,),
    )
    assert result.failure.error == "ValueError"
    assert [d.code for d in result.diagnosis] == ["raises", "odd_lengths"]
    assert result.diagnosis[1].text == "fails only on odd lengths"


def test_mutating_raising_and_hanging_solvers() -> None:
    mutates = check(str(GALLERY / "mutates.py"), **QUICK)
    assert mutates.failure is not None and (mutates.failure.kind, mutates.failure.coins) == (
        "mutated",
        (0,),
    )
    assert mutates.diagnosis[0].text == "changes its input (the list of coins)"
    raises = check(str(GALLERY / "raises.py"), **QUICK)
    assert raises.failure is not None and raises.failure.coins == (0,)
    assert raises.failure.error == "ZeroDivisionError"
    assert raises.diagnosis[0].text == "raises ZeroDivisionError on 1 coin"
    start = time.monotonic()
    hangs = check(str(GALLERY / "hangs.py"), **QUICK)
    assert time.monotonic() - start < 10
    assert hangs.failure is not None and (hangs.failure.kind, hangs.failure.coins) == (
        "timeout",
        (0,),
    )
    assert hangs.diagnosis[0].text == "does not return within 0.5 s on 1 coin"


def test_floats_lose_precision_on_large_ints() -> None:
    result = check(str(GALLERY / "floats.py"), **QUICK)
    assert result.failure is not None
    assert result.failure.stage == "edge"
    assert result.failure.coins == (2**53 + 1,)
    assert result.failure.got == float(2**53)
    assert result.diagnosis[0].code == "float"


def test_negative_coins_crashes_none_and_memory() -> None:
    negative = check(str(GALLERY / "non_negative.py"), **QUICK)
    assert negative.failure is not None and negative.failure.coins == (-1,)
    assert [d.code for d in negative.diagnosis] == ["negative_coins"]
    assert negative.diagnosis[0].text.startswith("assumes non-negative coins")
    crash = check(str(GALLERY / "crashes.py"), **QUICK)
    assert crash.failure is not None and crash.failure.kind == "crash"
    assert crash.failure.coins == (0, 0, 0, 0)  # the first row of 4 coins
    assert crash.failure.got_text == "the process died (killed by SIGKILL)"
    none = check(str(GALLERY / "returns_none.py"), **QUICK)
    assert none.diagnosis[0].text == "returns None, not a number"
    settings = {**QUICK, "memory_limit": 64 << 20, "time_limit": 3.0}
    memory = check(str(GALLERY / "memory_hog.py"), **settings)
    assert memory.failure is not None and memory.failure.kind == "memory"
    assert memory.diagnosis[0].text == "runs out of memory (64 MiB) on 1 coin"


def test_recursion_depth_is_a_finding_with_its_length() -> None:
    settings = {**QUICK, "budget": 8.0, "time_limit": 1.0, "max_length": 3, "max_n": 1000}
    result = check(str(GALLERY / "memo_no_limit.py"), **settings)
    failure = result.failure
    assert failure is not None and (failure.stage, failure.error) == ("depth", "RecursionError")
    assert failure.found_n == 512 and 256 < len(failure.coins) < 512
    assert set(failure.coins) == {0}
    assert [d.text for d in result.diagnosis] == [
        f"recursion depth exceeded at n = {len(failure.coins):,}"
    ]
    assert f"({len(failure.coins):,} coins): expected 0, got raised RecursionError" in (
        result.summary()
    )
    assert result.summary().endswith(f"(recursion depth exceeded at n = {len(failure.coins):,})")


def test_a_live_function_and_assert_solver() -> None:
    def total(coins: list[int]) -> int:
        return coinrow.solve(coins).first_total

    assert assert_solver(total, budget=1, max_length=4, exact=True).passed

    def margin(coins: list[int]) -> int:
        return coinrow.solve(coins).margin

    with pytest.raises(
        AssertionError, match=r"margin failed on \[1, 1\]: expected 1, got 0 \(returns the margin"
    ):
        assert_solver(margin, budget=2, max_length=4)
    assert assert_solver(margin, answer="margin", budget=1, max_length=4).passed
    floor = check(str(GALLERY / "linear_memory.py"), **{**QUICK, "exact": True})
    assert floor.failure is not None and floor.failure.stage == "edge"
    assert floor.failure.coins == (Decimal("0.3"),)  # its // 2 floors 0.3 + 0.3 to 0


def test_a_module_function_target() -> None:
    result = check("oracle:first_total", **QUICK)  # tests/ is on the path of the child too
    assert result.passed and (result.function, result.picked) == ("first_total", False)


def test_json_keys_and_html() -> None:
    result = check(str(GALLERY / "greedy.py"), **QUICK)
    data = json.loads(json.dumps(result.to_dict()))
    assert list(data) == [
        "target", "function", "picked", "answer", "answer_from", "passed", "stages", "failure",
        "diagnosis", "growth", "recursive", "sizes", "seconds", "cpu_seconds", "complete",
        "verdict", "call", "others", "provided", "problem", "judge_says", "calls_note",
    ]  # fmt: skip
    assert data["failure"]["coins"] == [0, 0, 2, 1]
    assert "<svg" in result._repr_html_()


@pytest.mark.alone  # the fit reads CPU time: a neighbour on the sibling core bends it
@pytest.mark.parametrize(
    ("name", "growth"),
    [
        ("plain_recursion", "exponential"),
        ("bottom_up", "O(n^2)"),
        ("linear", "O(n)"),
        ("n_log_n", "O(n log n)"),
    ],
)
def test_growth_is_named(name: str, growth: str) -> None:
    # A second check only when the first names another growth: on a shared host a burst of
    # slowness at the largest sizes has bent the O(n) fit to n log n (slope 1.14) twice in
    # CI; a program that really grows otherwise is named so both times.
    for _ in range(2):
        result = check(
            str(GALLERY / f"{name}.py"), budget=3, time_limit=1, max_length=3, max_n=1000
        )
        assert result.passed
        if result.growth is not None and result.growth.growth == growth:
            break
    assert result.growth is not None and result.growth.growth == growth, result.growth


def test_count_calls_tells_memoised_from_plain_recursion() -> None:
    options = {"budget": 2, "time_limit": 1, "max_length": 3, "max_n": 100, "count_calls": True}
    options["complexity"] = False  # the calls alone
    plain = check(str(GALLERY / "plain_recursion.py"), **options)
    memo = check(str(GALLERY / "memoised.py"), **options)
    assert plain.growth and plain.growth.calls_note.endswith("memoisation missing")
    assert memo.growth and "memoised" in memo.growth.calls_note
    assert (plain.recursive, memo.recursive) == (True, True)


# ---------------------------------------------------------------------------------------
# Batch grading


BATCH = [
    ("memoised", "passed", 6, 0),
    ("bottom_up", "passed", 0, 6),
    ("linear_memory", "passed", 0, 6),
    ("linear", "passed", 0, 6),
    ("greedy", "failed", 0, 0),
    ("parity", "failed", 0, 0),
    ("off_by_one", "failed", 0, 0),
    ("margin", "failed", 0, 0),
    ("even_only", "failed", 0, 0),
    ("mutates", "failed", 0, 0),
    ("raises", "failed", 0, 0),
    ("hangs", "failed", 0, 0),
    ("floats", "failed", 0, 0),
    ("plain_recursion", "passed", 0, 0),  # exponential calls: not memoised
    ("n_log_n", "passed", 6, 0),  # its merge sort recurses, with polynomially many calls
]


def test_batch_grades_twenty_submissions(tmp_path: Path) -> None:
    folder = tmp_path / "submissions"
    folder.mkdir()
    for number, (name, _, _, _) in enumerate(BATCH):
        (folder / f"s{number:02}_{name}.py").write_text((GALLERY / f"{name}.py").read_text())
    (folder / "s15_folder").mkdir()
    (folder / "s15_folder" / "solution.py").write_text((GALLERY / "linear.py").read_text())
    (folder / "s16_syntax.py").write_text("def solve(coins:\n")
    (folder / "s17_nothing.py").write_text("x = 1\n")
    (folder / "s18_signature.py").write_text("def solve(a, b, c):\n    return 0\n")
    (folder / "s19_empty_folder").mkdir()
    rubric = tmp_path / "rubric.toml"
    rubric.write_text((ROOT / "examples" / "rubric.toml").read_text())
    out = tmp_path / "grades"
    start = time.monotonic()
    code = main(
        [
            "check",
            str(folder),
            "--rubric",
            str(rubric),
            "--out",
            str(out),
            "--budget",
            "1.5",
            "--time-limit",
            "0.5",
            "--max-length",
            "4",
            "--max-n",
            "300",
            "--no-complexity",
        ]
    )
    seconds = time.monotonic() - start
    assert code == 0
    assert seconds < 60  # stated in docs/check.md: 20 submissions at --budget 1.5 in under a minute
    with (out / "grades.csv").open(newline="") as grades:
        rows = list(csv.DictReader(grades))
    assert len(rows) == 20
    names = [
        "Implementation - Memoization (recursive, calls grow polynomially)",
        "Implementation - Bottom-up (correct, no recursion)",
    ]
    for number, (name, status, memo, bottom) in enumerate(BATCH):
        row = rows[number]
        assert row["student"] == f"s{number:02}_{name}"
        assert row["status"] == status, row
        assert (row[names[0]], row[names[1]]) == (str(memo), str(bottom)), row
        assert row["total"] == str(memo + bottom)
        assert row["out_of"] == "12"
        assert row["error"] == ""
    assert (
        rows[4]["failing_row"] == "0 0 2 1"
        and rows[4]["diagnosis"] == "takes the larger end (greedy)"
    )
    assert rows[12]["failing_row"] == str(2**53 + 1)
    assert rows[15]["status"] == "passed" and rows[15]["total"] == "6"
    errors = {row["student"]: row["error"] for row in rows[16:]}
    assert errors == {
        "s16_syntax": f"{folder}/s16_syntax.py: syntax error at line 1: '(' was never closed",
        "s17_nothing": f"{folder}/s17_nothing.py: no solver function found (looked for "
        "optimalStrategyOfGame, optimal_strategy_of_game, maximumAmount, maximum_amount, "
        "optimalStrategy, optimal_strategy, ... and a Solution class); name it as "
        'FILE.py:FUNCTION (or in the rubric: [functions] "s17_nothing" = "NAME")',
        "s18_signature": "solve(a, b, c) does not take one argument, the list of coins "
        "(or coins and n, or n and coins)",
        "s19_empty_folder": f"{folder}/s19_empty_folder: no Python file in the folder",
    }
    assert all(row["status"] == "error" and row["total"] == "0" for row in rows[16:])
    report = json.loads((out / "report.json").read_text())
    assert [s["student"] for s in report["students"]] == [row["student"] for row in rows]
    assert report["out_of"] == 12 and report["students"][4]["result"]["failure"]["coins"] == [
        0,
        0,
        2,
        1,
    ]
    page = (out / "s04_greedy.html").read_text()
    assert "<svg" in page and "takes the larger end (greedy)" in page


# ---------------------------------------------------------------------------------------
# Bad input: exit 2 and one line


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: str(d / "missing.py"), "missing.py: no such file"),
        (lambda d: _write(d / "bad.py", "def f(:\n"), "bad.py: syntax error at line 1"),
        (lambda d: _write(d / "none.py", "x = 1\n"), "no solver function found"),
        (
            lambda d: _write(d / "sig.py", "def solve(a, b, c): pass\n"),
            "does not take one argument",
        ),
        (
            lambda d: _write(d / "named.py", "def solve(a): pass\n") + ":other",
            "no function 'other'",
        ),
    ],
)
def test_bad_targets_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, message: str
) -> None:
    assert main(["check", make(tmp_path), "--budget", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_a_rubric_with_an_unknown_check_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rubric = _write(tmp_path / "r.toml", '[[item]]\nname = "speed"\ncheck = "fast"\nmarks = 2\n')
    assert main(["check", str(tmp_path), "--rubric", rubric, "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown check 'fast'" in err
    with pytest.raises(coinrow.RubricError, match="unknown answer"):
        parse_rubric({"answer": "score", "item": [{"check": "correct", "marks": 1}]})
    assert read_rubric(ROOT / "examples" / "rubric.toml").total == 12


def test_exit_status_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "--budget",
        "2",
        "--time-limit",
        "0.5",
        "--max-length",
        "4",
        "--no-complexity",
        "--json",
    ]
    assert main(["check", str(GALLERY / "linear.py"), *args]) == 0
    assert json.loads(capsys.readouterr().out)["passed"] is True
    assert main(["check", f"{GALLERY / 'greedy.py'}:optimalStrategyOfGame", *args]) == 1
    data = json.loads(capsys.readouterr().out)
    assert (data["passed"], data["picked"], data["failure"]["coins"]) == (
        False,
        False,
        [0, 0, 2, 1],
    )


def _write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)
