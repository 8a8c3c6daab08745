"""The boundary between `coinrow check` and the solver it runs: every test runs a real child
solver (a file written here) that attacks one part of the boundary: answers that are not
plain data, processes left behind, limits, batch grading, spreadsheet formulas. Every test
counts the processes it could leave behind, before and after."""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import coinrow
from coinrow.checking import check
from coinrow.cli import main

QUICK: dict[str, Any] = {
    "budget": 2.0,
    "time_limit": 0.5,
    "max_length": 3,
    "complexity": False,
    "max_n": 100,
}

CORRECT = """
def maxCoins(coins):
    n = len(coins)
    best = [[0] * (n + 1) for _ in range(n + 1)]
    prefix = [0]
    for coin in coins:
        prefix.append(prefix[-1] + coin)
    for length in range(1, n + 1):
        for i in range(n - length + 1):
            j = i + length
            total = prefix[j] - prefix[i]
            best[i][j] = total - min(best[i + 1][j], best[i][j - 1])
    return best[0][n]
"""


def processes_with(token: str) -> list[int]:
    """Processes whose command line holds ``token``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if token.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def children_of(pid: int) -> set[int]:
    """Every living descendant of a process (from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_bytes().rpartition(b")")[2].split()
            except OSError:
                continue
            if fields[0] not in (b"Z", b"X"):
                parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


@pytest.fixture(autouse=True)
def no_process_left() -> Iterator[None]:
    """No test here leaves a process of its own behind."""
    before = children_of(os.getpid())
    yield
    deadline = time.monotonic() + 5
    while children_of(os.getpid()) - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert children_of(os.getpid()) - before == set()


def solver(folder: Path, source: str, name: str = "solver.py") -> str:
    path = folder / name
    path.write_text(textwrap.dedent(source))
    return str(path)


# ---------------------------------------------------------------------------------------
# 1. Answers are plain data, compared as plain values


def test_an_answer_with_reduce_never_runs_in_the_checker(tmp_path: Path) -> None:
    marker = tmp_path / "ran-in-the-parent"
    path = solver(
        tmp_path,
        f"""
        class Sneaky:
            def __reduce__(self):
                return (open, ({str(marker)!r}, "w"))

        def maxCoins(coins):
            return Sneaky()
        """,
    )
    result = check(path, **QUICK)
    assert not marker.exists()
    assert result.failure is not None and result.failure.kind == "wrong_type"
    assert result.failure.got_text == "a Sneaky (cannot be shown)"


def test_a_subclass_of_int_is_judged_by_its_value(tmp_path: Path) -> None:
    path = solver(
        tmp_path,
        CORRECT.replace("def maxCoins", "class Money(int):\n    pass\n\n\ndef maxCoins").replace(
            "return best[0][n]", "return Money(best[0][n])"
        ),
    )
    result = check(path, **QUICK)
    assert result.passed, result.text()


def test_a_liar_whose_eq_is_always_true_fails() -> None:
    class Liar(int):
        def __eq__(self, other: object) -> bool:
            return True

        def __ne__(self, other: object) -> bool:
            return False

        __hash__ = int.__hash__

    result = check(lambda coins: Liar(0), **QUICK)
    assert result.failure is not None and result.failure.kind == "wrong"
    assert result.failure.coins == (1,) and result.failure.got == 0


def test_an_eq_that_raises_or_loops_is_never_called(tmp_path: Path) -> None:
    path = solver(
        tmp_path,
        """
        class Raises(int):
            def __eq__(self, other):
                raise RuntimeError("compared")
            __hash__ = int.__hash__

        class Loops(int):
            def __eq__(self, other):
                while True:
                    pass
            __hash__ = int.__hash__

        def raising(coins):
            return Raises(1)

        def looping(coins):
            return Loops(1)
        """,
    )
    for name in ("raising", "looping"):
        start = time.monotonic()
        result = check(f"{path}:{name}", **QUICK)
        assert time.monotonic() - start < 30
        assert result.failure is not None and result.failure.kind == "wrong"


def test_huge_answers_are_refused_cheaply(tmp_path: Path) -> None:
    path = solver(
        tmp_path,
        """
        from decimal import Decimal

        def huge_int(coins):
            return 10 ** 1_000_000

        def huge_decimal(coins):
            return Decimal("1e999999999")
        """,
    )
    for name, why in (("huge_int", "an int of"), ("huge_decimal", "a Decimal with exponent")):
        start = time.monotonic()
        result = check(f"{path}:{name}", **QUICK)
        assert time.monotonic() - start < 30
        failure = result.failure
        assert failure is not None and failure.kind == "wrong_type"
        assert failure.got.why.startswith(why)


# ---------------------------------------------------------------------------------------
# 2. No process left behind


def test_processes_a_solver_starts_are_ended_with_it(tmp_path: Path) -> None:
    token = f"0.{uuid.uuid4().int % 10**12:012d}"
    path = solver(
        tmp_path,
        f"""
        import subprocess

        def maxCoins(coins):
            subprocess.Popen(["sleep", "300", "{token}"])
            return sum(coins)
        """,
    )
    assert processes_with(token) == []
    result = check(path, **QUICK)
    assert not result.passed
    time.sleep(0.2)
    assert processes_with(token) == []


def test_the_child_dies_with_its_parent(tmp_path: Path) -> None:
    token = f"coinrow-parent-{uuid.uuid4().hex}"
    started = tmp_path / "started"
    path = solver(
        tmp_path,
        f"""
        import pathlib, time

        def maxCoins(coins):
            pathlib.Path({str(started)!r}).write_text("x")
            time.sleep(300)
        """,
    )
    script = f"import coinrow; coinrow.check({path!r}, budget=600, time_limit=600)"
    parent = subprocess.Popen([sys.executable, "-c", script, token])
    try:
        deadline = time.monotonic() + 60
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert started.exists()
        assert len(processes_with(token)) == 2  # the checker and its child
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 10
        while processes_with(token) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert processes_with(token) == []
    finally:
        parent.kill()
        parent.wait()


# ---------------------------------------------------------------------------------------
# 3. Limits from the first byte to the last


def test_the_memory_limit_holds_while_the_file_loads(tmp_path: Path) -> None:
    path = solver(
        tmp_path,
        """
        table = bytearray(400 << 20)

        def maxCoins(coins):
            return 0
        """,
    )
    with pytest.raises(coinrow.CheckTargetError, match="raised MemoryError"):
        check(path, memory_limit=64 << 20, **QUICK)


def test_the_budget_holds_inside_a_chunk_of_rows(tmp_path: Path) -> None:
    path = solver(
        tmp_path,
        CORRECT.replace(
            "    n = len(coins)\n",
            "    n = len(coins)\n    import time\n    end = time.process_time() + 0.1\n"
            "    while time.process_time() < end:\n        pass\n",
        ),
    )
    start = time.monotonic()
    result = check(path, budget=2, time_limit=1, max_length=4, complexity=False, max_n=100)
    assert time.monotonic() - start < 40  # 340 rows at 0.1 s each would take 34 s of CPU
    exhaustive = result.stage("exhaustive")
    assert exhaustive.status == "stopped" and exhaustive.cut
    assert exhaustive.rows < 340
    assert result.passed and not result.complete
    assert result.verdict.startswith("PASSED what ran (not covered: exhaustive: the budget")


def test_time_limits_are_on_cpu_time(tmp_path: Path) -> None:
    path = solver(
        tmp_path,
        CORRECT.replace(
            "    n = len(coins)\n",
            "    n = len(coins)\n    import time\n    if coins == [5, 3, 7, 10]:\n"
            "        time.sleep(0.4)\n",
        ),
    )
    result = check(path, budget=2, time_limit=0.2, max_length=3, complexity=False, max_n=30)
    assert result.passed, result.text()  # sleeping is not computing


# ---------------------------------------------------------------------------------------
# 4 and 5. Batch grading never loses a batch; no formulas in grade sheets


def _batch(folder: Path, rubric: Path, out: Path) -> int:
    return main(
        [
            "check",
            str(folder),
            "--rubric",
            str(rubric),
            "--out",
            str(out),
            "--budget",
            "1",
            "--time-limit",
            "0.5",
            "--max-length",
            "3",
            "--max-n",
            "30",
            "--no-complexity",
        ]
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[item]]\ncheck = "correct"\nmarks = nan\n', "marks must be a number from 0 to"),
        ('[[item]]\ncheck = "correct"\nmarks = inf\n', "marks must be a number from 0 to"),
        ('[[item]]\ncheck = "correct"\nmarks = 1e308\n', "marks must be a number from 0 to"),
        ("x = " + "[" * 3000 + "]" * 3000 + "\n", "nested too deeply"),
        (
            '[[item]]\nname = "a"\ncheck = "correct"\nmarks = 1\n'
            '[[item]]\nname = "a"\ncheck = "edge"\nmarks = 1\n',
            "used twice",
        ),
    ],
)
def test_a_bad_rubric_stops_before_grading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    (tmp_path / "subs").mkdir()
    solver(tmp_path / "subs", CORRECT)
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(text)
    assert _batch(tmp_path / "subs", rubric, tmp_path / "out") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert not (tmp_path / "out").exists()


def test_an_unwritable_out_stops_before_grading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "subs").mkdir()
    solver(tmp_path / "subs", "import pathlib\npathlib.Path('graded').write_text('x')\n" + CORRECT)
    rubric = tmp_path / "rubric.toml"
    rubric.write_text('[[item]]\ncheck = "correct"\nmarks = 1\n')
    (tmp_path / "a-file").write_text("")
    assert _batch(tmp_path / "subs", rubric, tmp_path / "a-file" / "out") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write there" in err
    assert not Path("graded").exists()  # nothing was graded


def test_a_full_disk_keeps_the_old_grades(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "subs").mkdir()
    solver(tmp_path / "subs", CORRECT)
    rubric = tmp_path / "rubric.toml"
    rubric.write_text('[[item]]\ncheck = "correct"\nmarks = 1\n')
    out = tmp_path / "out"
    assert _batch(tmp_path / "subs", rubric, out) == 0
    before = (out / "grades.csv").read_text()
    import coinrow.checking.grading as grading

    real_fsync = os.fsync

    def full(fd: int) -> None:
        if os.fstat(fd).st_size > 0:
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(grading.os, "fsync", full)  # type: ignore[attr-defined]
    capsys.readouterr()
    assert _batch(tmp_path / "subs", rubric, out) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[:-1] == ["graded solver: 1 / 1"]
    assert err[-1].endswith("grades.csv: No space left on device")
    assert (out / "grades.csv").read_text() == before
    assert [p.name for p in out.iterdir() if p.name.startswith(".coinrow-")] == []


def test_every_submission_gets_a_distinct_escaped_name_and_no_formula(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    names = ["lab1:smith", "a b", "a_b", "+SUM(1+1)", "-2+3", "@SUM(A1)", "=HYPERLINK(1)", "x"]
    for name in names:
        solver(subs, CORRECT, f"{name}.py")
    (subs / "x").mkdir()
    solver(subs / "x", CORRECT, "solution.py")
    rubric = tmp_path / "rubric.toml"
    rubric.write_text('[[item]]\ncheck = "correct"\nmarks = 1\n')
    out = tmp_path / "out"
    assert _batch(subs, rubric, out) == 0
    with (out / "grades.csv").open(newline="") as grades:
        rows = list(csv.DictReader(grades))
    students = [row["student"] for row in rows]
    assert len(set(students)) == len(students) == 9
    assert set(students) == {
        "'+SUM(1+1)", "'-2+3", "'=HYPERLINK(1)", "'@SUM(A1)", "a b", "a_b", "lab1:smith",
        "x.py", "x/",
    }  # fmt: skip
    assert all(row["status"] == "passed" and row["total"] == "1" for row in rows)
    pages = sorted(p.name for p in out.glob("*.html"))
    assert len(pages) == 9
    for row in rows:
        for cell in row.values():
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
