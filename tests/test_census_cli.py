"""``coinrow census``: the forms of the issue, JSON, files, and bad input (exit 2, one line)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run_cli
from test_census import all_rows, by_length, composition_rows, expected

from coinrow.cli import main


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli("census", *args, cwd=cwd)


def census_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    assert main(["census", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_words_json_has_the_promised_keys(capsys: pytest.CaptureFixture[str]) -> None:
    data = census_json(capsys, "--length", "10", "--values", "1,2", "--strategy", "greedy")
    want = expected([all_rows((1, 2), 10)])
    assert data["family"]["kind"] == "words" and data["family"]["length"] == 10
    assert data["rows"] == 1024 == want["rows"]
    assert data["outcomes"] == want["outcomes"]
    assert data["margin_histogram"] == {str(m): c for m, c in sorted(want["histogram"].items())}
    assert data["first_moves"] == {" ".join(k): v for k, v in want["first_moves"].items()}
    greedy = data["strategies"]["greedy"]
    assert greedy["optimal"] + greedy["counterexamples"] == 1024
    assert len(greedy["examples"]) == 3 and greedy["examples"][0]["loss"] >= 1
    assert set(greedy["examples"][0]) >= {"index", "coins", "strategy_line", "optimal_line"}


def test_compositions_and_random_forms(capsys: pytest.CaptureFixture[str]) -> None:
    data = census_json(capsys, "--compositions", "11")
    want = expected(by_length(composition_rows(11)))
    assert data["rows"] == 1024 and data["outcomes"] == want["outcomes"]
    args = ("--random", "500", "--length", "30", "--values", "1..9", "--seed", "1")
    one = census_json(capsys, *args)
    assert one["rows"] == 500 and one["first_moves_by"] == "rows"
    assert (
        census_json(capsys, *args, "--workers", "0")["margin_histogram"] == one["margin_histogram"]
    )
    assert census_json(capsys, *args[:-1], "2")["margin_histogram"] != one["margin_histogram"]


def test_summary_plot_and_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run("--max-length", "9", "--values", "1,2,3", "-s", "thibault3", "-s", "parity",
                 "--out", str(out), "--rows", "--plot", str(tmp_path / "c.png"))  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # no progress bar when stderr is not a terminal
    text = " ".join(result.stdout.split())
    assert "Census of rows of length 1 to 9 over {1, 2, 3}: 29,523 rows" in text
    assert "thibault3" in text and "parity" in text and "Margins" in text
    assert (tmp_path / "c.png").stat().st_size > 1000
    lines = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    shards = [line for line in lines if "shard" in line]
    assert shards and all("rows_file" in line for line in shards)
    import pyarrow.parquet as pq

    rows = pq.read_table(sorted(out.glob("rows-*.parquet"))).to_pylist()
    assert len(rows) == 29_523 and rows[4] == {
        "index": 4, "row": [1, 2], "first_total": 2, "margin": 1, "first_moves": "R"
    }  # fmt: skip


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--length", "5", "--values", ""], "--values: the alphabet is empty"),
        (["--length", "0"], "--length: the row length must be at least 1, got 0"),
        (["--length", "-4"], "--length: the row length must be at least 1, got -4"),
        (["--max-length", "0"], "--max-length: the longest row must be at least 1"),
        (["--length", "5", "--values", "1,two"], "--values: coin 2 ('two'): not a number"),
        (["--length", "5", "--values", "1,2.5"], "integer coin values"),
        (["--compositions", "0"], "--compositions: compositions need a total of at least 1, got 0"),
        (["--random", "10"], "--random COUNT needs --length N"),
        (["--random", "10", "--length", "4", "--values", "x"], "--values"),
        (["--length", "4", "--compositions", "4"], "leave out --length"),
        ([], "no family given"),
        (["--length", "4", "-s", "nope"], "unknown strategy 'nope'"),
        (["--length", "4", "--rows"], "--rows: keeping every row's result needs an output folder"),
        (["--length", "30", "--rows", "--out", "x"], "at most 16,777,216 rows"),
        (
            ["--length", "4", "--examples", "-1"],
            "--examples: the number of examples kept must be 0 to 10,000, got -1",
        ),
        (["--length", "4", "--plot", "x.gif"], "--plot x.gif"),
        (["--length", "4", "--values", "4611686018427387904"], "2**62"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["census", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err, err


def test_unreachable_scheduler_and_output_file(tmp_path: Path) -> None:
    (tmp_path / "a_file").write_text("x")
    for args, message in (
        (["--scheduler", "tcp://127.0.0.1:9", "--connect-timeout", "0.5"],
         "cannot reach the Dask scheduler at tcp://127.0.0.1:9"),
        (["--out", str(tmp_path / "a_file")], "is a file, not a folder"),
    ):  # fmt: skip
        result = run("--length", "6", *args)
        assert result.returncode == 2, result.stderr
        assert result.stderr.count("\n") == 1 and message in result.stderr
        assert result.stdout == ""


def test_without_the_census_extra(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['distributed'] = None\n"
        "from coinrow.cli import main\nsys.exit(main(['census', '--length', '4']))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "coinrow[census]" in result.stderr


def test_the_cli_says_when_it_compiles(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import rich.console

    import coinrow.census
    from coinrow.census import Census, Words
    from coinrow.cli.census import _compile_notice

    census = Census(Words.of("1,2", 4))
    monkeypatch.setattr(rich.console.Console, "is_terminal", property(lambda self: True))
    monkeypatch.setattr(coinrow.census, "kernels_warm", lambda family: False)
    _compile_notice(census)
    err = capsys.readouterr().err
    assert err == f"compiling the census kernels once, about {coinrow.census.COMPILE_SECONDS} s\n"
    monkeypatch.setattr(coinrow.census, "kernels_warm", lambda family: True)
    _compile_notice(census)
    assert capsys.readouterr().err == ""
