"""The ``coinrow solve`` command: output, JSON, input sources and errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from helpers import run_cli

from coinrow.cli import main

run = run_cli  # the shared helper (tests/helpers.py)


def test_solve_json_seed_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--json", "3", "2", "2", "3", "1", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["first_total"] == 8
    assert data["second_total"] == 5
    assert data["margin"] == 3
    assert data["outcome"] == "first"


def test_solve_prints_totals_transcript_and_coins(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "8", "15", "3", "7"]) == 0
    out = capsys.readouterr().out
    assert "first player 22, second player 11" in out
    assert "Optimal play" in out
    assert "First player takes: 7, 15 (positions 3, 1)" in out


def test_coin_positions_are_the_same_in_text_and_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # One numbering: the positions the text names are the JSON's first_coins/second_coins.
    assert main(["solve", "--json", "8", "15", "3", "7"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(["solve", "8", "15", "3", "7"]) == 0
    out = capsys.readouterr().out
    for seat in ("first", "second"):
        listed = ", ".join(map(str, data[f"{seat}_coins"]))
        assert f"{seat.capitalize()} player takes: " in out
        assert f"(positions {listed})" in out
    assert "#" not in out.split("Optimal play")[1].split("First player takes")[1]
    assert "Positions count from 0" in out


def test_one_number_is_printed_one_way(capsys: pytest.CaptureFixture[str]) -> None:
    # 1 + 0.5 - 0.5 is Decimal("1.0"); the coin 1 is printed "1": so is the total, everywhere.
    outputs = []
    for args in (["solve"], ["solve", "--json"], ["table"], ["table", "--json"]):
        assert main([*args, "1", "0.5"]) == 0
        outputs.append(capsys.readouterr().out)
    text, data, triangle, cells = outputs
    assert "first player 1, second player 0.5; the first player wins by 0.5." in text
    assert json.loads(data)["first_total"] == "1" and json.loads(cells)["first_total"] == "1"
    assert triangle.splitlines()[3].strip() == "1"  # the apex: the whole row's value
    assert not any("1.0" in output for output in outputs)


@pytest.mark.parametrize("engine", ["table", "memo", "linear", "brute"])
def test_engines_from_cli(engine: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--json", "--engine", engine, "5", "3", "7", "10"]) == 0
    assert json.loads(capsys.readouterr().out)["first_total"] == 15


def test_negative_coins_as_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--json", "-3", "5", "-1"]) == 0
    assert json.loads(capsys.readouterr().out)["first_total"] == -4  # an end, then the other


def test_stdin_and_decimal() -> None:
    result = run("solve", "--json", "-", stdin="0.1 0.2\n0.3\n")
    assert result.returncode == 0
    assert json.loads(result.stdout)["first_total"] == "0.4"


def test_text_and_npy_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "coins.txt"
    text.write_text("8, 15\n3, 7\n")
    assert main(["solve", "--json", "--file", str(text)]) == 0
    assert json.loads(capsys.readouterr().out)["first_total"] == 22
    array = tmp_path / "coins.npy"
    np.save(array, np.array([3, 2, 2, 3, 1, 2], dtype=np.int64))
    assert main(["solve", "--json", "-f", str(array)]) == 0
    assert json.loads(capsys.readouterr().out)["first_total"] == 8


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "1", "x"], "coin 2 ('x'): not a number"),
        (["solve", "nan"], "NaN"),
        (["solve"], "no coins given"),
        (["solve", "--engine", "magic", "1"], "unknown engine 'magic'"),
        (["solve", "--engine", "brute", *map(str, range(21))], "refuses n > 20"),
        (["solve", "--file", "/no/such/file"], "no such file"),
        (["solve", "--bogus", "1"], "No such option: --bogus"),
        (["nosuchcommand"], "No such command"),
    ],
)
def test_errors_are_one_line_exit_2(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_file_and_arguments_conflict(tmp_path: Path) -> None:
    path = tmp_path / "c.txt"
    path.write_text("1 2")
    result = run("solve", "--file", str(path), "3")
    assert result.returncode == 2 and "not both" in result.stderr


def test_help_and_version() -> None:
    assert "solve" in run("--help").stdout
    version = run("--version")
    assert version.returncode == 0 and version.stdout.startswith("coinrow ")
