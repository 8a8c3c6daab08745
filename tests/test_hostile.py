"""Hostile input: every case ends in exit status 2 and one ``coinrow: error:`` line (CLI) or a
CoinrowError subclass (library), quickly, or in the right answer.

CLI cases run ``python -m coinrow`` in a subprocess, as a user would; cases that need a
missing extra hide NumPy or Numba from a subprocess with ``sys.modules[name] = None``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from helpers import run_cli
from hypothesis import given
from hypothesis import strategies as st

import coinrow
from coinrow import io as coinrow_io
from coinrow.analysis import analyze
from coinrow.engines import estimated_seconds, estimated_solve_seconds, memo, subgame_seconds
from coinrow.engines import table as table_module
from coinrow.errors import (
    CoinrowError,
    IllegalMoveError,
    InputFileError,
    InvalidCoinError,
    TableTooLargeError,
)
from coinrow.numbers import MAX_DIGITS, parse_coins
from coinrow.record import parse_json_records

BIG = "7" * 5000  # over the interpreter's 4,300-digit limit on int <-> str conversions
BIG_PLUS_ONE = "7" * 4999 + "8"
TOO_BIG = "7" * (MAX_DIGITS + 1)


def run(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, stdin=stdin, timeout=timeout)


def run_without(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI in a subprocess where ``import module`` fails (an extra not installed)."""
    code = (
        f"import sys; sys.modules[{module!r}] = None\n"
        "from coinrow.cli import main\n"
        f"sys.exit(main({list(args)!r}))\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def assert_one_line_error(result: subprocess.CompletedProcess[str], message: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr[-2000:]
    assert lines[0].startswith("coinrow: error: ")
    assert message in lines[0], lines[0]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every hostile file, written once."""
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "big.txt").write_text(f"{BIG} 1 2\n")
    (folder / "big.json").write_text(f'{{"coins": [{BIG}, 1], "moves": "L"}}')
    (folder / "too_big.json").write_text(f'{{"coins": [{TOO_BIG}, 1]}}')
    (folder / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    np.save(folder / "floats.npy", np.array([0.5, 1.5]))
    np.save(folder / "square.npy", np.zeros((2, 2), dtype=np.int64))
    np.save(folder / "bools.npy", np.array([True, False]))
    (folder / "empty.txt").write_text(" \n,\n")
    (folder / "a_folder").mkdir()
    (folder / "bom.txt").write_bytes(b"\xef\xbb\xbf1 2 3\n")
    (folder / "ints.txt").write_text(" ".join(map(str, range(20_000))))
    (folder / "decimals.txt").write_text(" ".join(f"{i}.5" for i in range(20_000)))
    return folder


# --- the CLI: refusals ----------------------------------------------------------------------

HUGE_DECIMALS = ["1e99999"] * 1000
MIXED_EXPONENTS = ["1e99999", "1e-99999"] * 500

REFUSED = [
    # 1. more than 100,000 digits: in arguments, in files, in JSON records
    (["solve", TOO_BIG, "1"], "", "more than 100,000 digits"),
    (["solve", "-"], f"1 {TOO_BIG}", "more than 100,000 digits"),
    (["analyze", "{dir}/too_big.json"], "", "more than 100,000 digits"),
    (["play", "--length", "3", "--values", f"1-{TOO_BIG}"], "", "more than 100,000 digits"),
    (["compare", "greedy", "random", "--values", f"1-{BIG}"], "", "totals up to 1e+300 only"),
    # 2. arrays that are not rows
    (["solve", "--file", "{dir}/square.npy"], "", "expected a one-dimensional array"),
    (["solve", "--file", "{dir}/bools.npy"], "", "an array of booleans"),
    # 3. --plot into a folder that does not exist, before a tournament that would run for hours
    (
        ["compare", "optimal", "greedy", "--games", "1000000", "--plot", "/nonexistent/dir/x.png"],
        "",
        "the folder /nonexistent/dir does not exist",
    ),
    (["table", "1", "2", "--svg", "/nonexistent/x.svg"], "", "does not exist"),
    (["play", "1", "2", "--save", "/nonexistent/x.txt"], "", "does not exist"),
    # 4. huge Decimals: the output size, and the table's and memo's memory budget, up front
    (["table", "--json", *HUGE_DECIMALS], "", "--json would write about 93.4 GiB"),
    (["table", "1e99999", "1"], "", "columns, over the 4,000 a text picture prints"),
    (["solve", "--engine", "table", *MIXED_EXPONENTS], "", "over the 4.0 GiB budget"),
    (["solve", "--engine", "memo", *MIXED_EXPONENTS], "", "the memo of 1000 coins needs about"),
    # 5. absurd sizes, and runs of minutes
    (["play", "--length", "1000000000"], "", "--length must be 1 to 1,000 coins"),
    (
        ["compare", "optimal", "greedy", "--length", "1000000000"],
        "",
        "--length: the number of coins per row must be 1 to 100,000",
    ),
    (
        ["compare", "optimal", "greedy", "--games", "1000000000"],
        "",
        "--games: the number of rows must be 1 to",
    ),
    (["bench", "--sizes", "1000000000000"], "", "--sizes must be 1 to 10,000,000 coins each"),
    (["bench", "--textbook-size", "1000000"], "", "--textbook-size must be 2 to 5,000"),
    (
        ["solve", "--engine", "memo", "--file", "{dir}/ints.txt"],
        "",
        "--engine memo on 20,000 coins would take about 4 minutes (about 1.3 µs per subgame)",
    ),
    (["solve", "-e", "linear", "-f", "{dir}/decimals.txt"], "", "--engine linear on 20,000 coins"),
    (["solve", "-e", "table", "-f", "{dir}/decimals.txt"], "", "--engine table on 20,000 coins"),
    # 6. negative numbers are coins, never options
    (["solve", "-inf", "2"], "", "coin 1 ('-inf'): infinity is not a coin value"),
    (["solve", "1", "-nan"], "", "coin 2 ('-nan'): NaN is not a coin value"),
    (["solve", "--bogus", "1"], "", "No such option: --bogus"),
    # 7. empty rows, folders, devices
    (["solve", "-"], " \n", "no coins on standard input"),
    (["solve", "--file", "{dir}/empty.txt"], "", "no coins in {dir}/empty.txt"),
    (["table", "--file", "{dir}/empty.txt"], "", "no coins in"),
    (["solve", "--file", "{dir}/a_folder"], "", "a_folder is a directory"),
    (["solve", "--file", "/dev/stdin"], "", "no coins in /dev/stdin"),
    (["solve", "--file", "/dev/zero"], "", "/dev/zero: binary data, not text"),
    # 8. one grammar: a BOM is refused as by the exact parser
    (["solve", "--file", "{dir}/bom.txt"], "", "digits must be ASCII"),
    # 10. records: deeply nested JSON, a folder, a device
    (["analyze", "{dir}/deep.json"], "", "the JSON is nested too deeply to be records"),
    (["analyze", "{dir}/a_folder"], "", "a_folder is a directory"),
    (["analyze", "/dev/urandom"], "", "binary data, not text"),
]


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    REFUSED,
    ids=[" ".join(arg[:20] for arg in case[0][:5]) for case in REFUSED],
)
def test_refused_in_one_line(files: Path, args: list[str], stdin: str, message: str) -> None:
    result = run(*(arg.replace("{dir}", str(files)) for arg in args), stdin=stdin)
    assert_one_line_error(result, message.replace("{dir}", str(files)))


@pytest.mark.parametrize(
    ("module", "args", "message"),
    [
        ("numba", ["bench", "--quick"], "needs NumPy and Numba: install coinrow[fast]"),
        ("numpy", ["bench", "--quick"], "install coinrow[fast]"),
        ("numpy", ["solve", "--file", "{dir}/floats.npy"], "needs NumPy: install coinrow[fast]"),
    ],
)
def test_missing_extra_is_one_line(files: Path, module: str, args: list[str], message: str) -> None:
    result = run_without(module, *(arg.replace("{dir}", str(files)) for arg in args))
    assert_one_line_error(result, message)


# --- the CLI: right answers -----------------------------------------------------------------


def solve_json(*args: str, stdin: str = "") -> dict[str, object]:
    result = run("solve", "--json", *args, stdin=stdin)
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_ints_over_4300_digits_in_arguments_files_and_json(files: Path) -> None:
    data = solve_json(BIG, "1", "2")  # 5,000 digits: exact strings in JSON
    assert data["coins"] == [BIG, 1, 2]
    assert data["first_total"] == BIG_PLUS_ONE and data["second_total"] == 2
    assert solve_json("--file", str(files / "big.txt"))["coins"] == [BIG, 1, 2]
    text = run("solve", BIG, "1", "2")
    assert text.returncode == 0 and BIG_PLUS_ONE in "".join(text.stdout.split())
    analysed = run("analyze", "--json", str(files / "big.json"))
    assert analysed.returncode == 0, analysed.stderr
    (game,) = json.loads(analysed.stdout)["games"]
    assert game["coins"] == [BIG, 1] and game["moves"][0]["coin"] == BIG
    shown = run("analyze", str(files / "big.json"))
    assert shown.returncode == 0 and BIG in "".join(shown.stdout.split())


def test_float_npy_is_exact(files: Path) -> None:
    data = solve_json("--file", str(files / "floats.npy"))
    assert data["coins"] == ["0.5", "1.5"] and data["first_total"] == "1.5"


def test_huge_decimals_solve_quickly_by_the_table() -> None:
    data = solve_json("--engine", "table", *HUGE_DECIMALS)
    assert data["first_total"] == format(Decimal("5E+100001"), "f")
    assert data["margin"] == "0"


def test_negative_numbers_with_exponents_are_coins() -> None:
    data = solve_json("-1e5", "3")
    assert (data["first_total"], data["second_total"]) == ("3", "-100000")
    data = solve_json("3", "-2.5e1", "--engine", "memo")
    assert (data["coins"], data["margin"]) == (["3", "-25"], "28")
    table = run("table", "-1", "-2e0", "3", "--json")
    assert table.returncode == 0 and json.loads(table.stdout)["first_total"] == "1"
    play = run("play", "-3", "5", "-1", "--json", stdin="R\nL\n")
    assert play.returncode == 0, play.stderr
    assert json.loads(play.stdout)["record"]["coins"] == [-3, 5, -1]
    compare = run("compare", "optimal", "greedy", "--length", "3", "--games", "2", "--seed", "-5")
    # -5 is read as the seed's value (not an option), then refused as census and puzzles do
    assert compare.returncode == 2 and compare.stderr.strip().endswith("at least 0, got -5")
    refute = run("refute", "greedy", "-1", "2", "-3", "--json")
    assert refute.returncode == 0 and json.loads(refute.stdout)["searched"] == 1


def test_dev_stdin_as_a_file_reads_standard_input() -> None:
    assert solve_json("--file", "/dev/stdin", stdin="3 -2 7\n")["first_total"] == 5


def test_bench_quick_keeps_explicit_sizes() -> None:
    result = run("bench", "--quick", "--json", "--sizes", "30,40", "--large-table-size", "0")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert {row["n"] for row in data["engines"]} == {30, 40}
    assert data["large_table"] is None and data["reduction_vs_textbook"]["n"] == 60


# --- the library ----------------------------------------------------------------------------


def test_empty_row_is_a_game_worth_zero() -> None:
    solution = coinrow.solve([])
    assert (solution.first_total, solution.second_total, solution.line) == (0, 0, "")


def test_analyze_without_moves_text() -> None:
    with pytest.raises(IllegalMoveError):
        analyze([1, 2], None)  # type: ignore[arg-type]


def test_deeply_nested_json_is_one_error() -> None:
    read = parse_json_records("[" * 100_000 + "]" * 100_000)
    assert read.records == [] and "nested too deeply" in str(read.errors[0])


def test_memo_has_the_table_memory_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    coins = [3, 1, 4, 1, 5, 9, 2, 6]
    assert memo.solve(coins).margin == coinrow.solve(coins).margin
    monkeypatch.setattr(table_module, "MEMORY_BUDGET", 1000)  # 36 subgames of 40 bytes
    with pytest.raises(TableTooLargeError, match="the memo of 8 coins needs about"):
        coinrow.solve(coins, engine="memo")
    with pytest.raises(TableTooLargeError, match="a table of 8 coins"):
        coinrow.solve(coins, engine="table")


def test_cost_model() -> None:
    assert subgame_seconds("memo") == pytest.approx(1.2e-6)
    assert subgame_seconds("linear", compiled=True) == pytest.approx(0.35e-9)
    assert estimated_seconds("memo", 20_000) == pytest.approx(200_010_000 * 1.2e-6)
    assert estimated_seconds("brute", 20) == pytest.approx(2**20 * 0.4e-6)
    # big numbers cost more per subgame than small ones, Fractions more than ints
    small, big = (
        estimated_solve_seconds([1] * 100, "linear"),
        estimated_solve_seconds([10**50_000] * 100, "linear"),
    )
    assert big > 10 * small
    assert estimated_solve_seconds([Fraction(1, 3)] * 100, "table") > 10 * (
        estimated_solve_seconds([1] * 100, "table")
    )
    assert estimated_solve_seconds([], "memo") == 0
    with pytest.raises(CoinrowError):
        estimated_seconds("magic", 3)


# --- one text grammar, whatever the size ----------------------------------------------------

MALFORMED = [
    "\ufeff1 2 3",  # a byte-order mark
    '1 "2" 3',  # CSV quotes
    "1 1_000 3",  # a digit separator
    "1 \u0663 3",  # an Arabic-Indic digit
    "1 1-2 3",
    "1 --3 3",
    "1 +-3",
    "1 - 3",
    "7 2x",
    "1 2\x00",
]


def read_both_ways(data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    """The row (as a list) or the error message, through the exact parser and through the
    vectorised reader (threshold 0, and chunks of 5 bytes so runs cross chunk edges)."""
    results: list[object] = []
    for threshold, chunk in ((10**12, 1 << 24), (0, 5)):
        monkeypatch.setattr(coinrow_io, "FAST_TEXT_BYTES", threshold)
        monkeypatch.setattr(coinrow_io, "_CHUNK_BYTES", chunk)
        try:
            row = coinrow_io.read_text_bytes(data, "f")
        except CoinrowError as error:
            results.append(f"{type(error).__name__}: {error}")
        else:
            results.append([int(coin) if hasattr(coin, "dtype") else coin for coin in row])
    return results[0], results[1]


@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_text_gives_the_same_error_small_or_large(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    exact, fast = read_both_ways(text.encode(), monkeypatch)
    assert isinstance(exact, str) and exact == fast


def test_same_error_through_a_file_over_the_threshold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(coinrow_io, "FAST_TEXT_BYTES", 1000)
    for text in MALFORMED:
        tiny, large = tmp_path / "tiny.txt", tmp_path / "large.txt"
        tiny.write_bytes(text.encode())
        large.write_bytes(("1 " * 600 + text).encode())  # over the threshold
        with pytest.raises(CoinrowError) as small_error:
            coinrow_io.read_file(tiny)
        with pytest.raises(CoinrowError) as large_error:
            coinrow_io.read_file(large)
        assert type(small_error.value) is type(large_error.value)
        assert (
            str(small_error.value).split(": ", 1)[-1] == str(large_error.value).split(": ", 1)[-1]
        )


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ,;\n",
        "+5 -0 007",
        "1\t2\r\n3\f4\v5;6,7",
        f"{10**18 - 1} -{10**18 - 1}",  # 18 digits: the vectorised reader
        f"1 {10**18}",  # 19 digits: the exact parser
        "1 " + "0" * 30 + "5",
        "0.5 1/2",
    ],
)
def test_valid_text_gives_the_same_row(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    exact, fast = read_both_ways(text.encode(), monkeypatch)
    assert exact == fast == parse_coins(text)


@given(
    text=st.text(alphabet="0123456789+- ,;\n\t.x", max_size=60)
    | st.lists(st.integers(-(10**19), 10**19)).map(lambda coins: " ".join(map(str, coins))),
    chunk=st.integers(1, 9),
)
def test_the_vectorised_reader_agrees_with_the_exact_parser(text: str, chunk: int) -> None:
    data = text.encode()
    try:
        exact: object = parse_coins(text)
    except CoinrowError as error:
        exact = str(error)
    saved = coinrow_io.FAST_TEXT_BYTES, coinrow_io._CHUNK_BYTES
    coinrow_io.FAST_TEXT_BYTES, coinrow_io._CHUNK_BYTES = 0, chunk
    try:
        row = coinrow_io.read_text_bytes(data)
        fast: object = [int(coin) if hasattr(coin, "dtype") else coin for coin in row]
    except CoinrowError as error:
        fast = str(error)
    finally:
        coinrow_io.FAST_TEXT_BYTES, coinrow_io._CHUNK_BYTES = saved
    assert fast == exact


def test_large_valid_file_is_read_as_the_exact_parser_reads_it(tmp_path: Path) -> None:
    rng = random.Random(8)
    coins = [rng.randint(-(10**18) + 1, 10**18 - 1) for _ in range(200_000)]
    separators = [" ", "\n", ", ", ";", "\t", "  "]
    text = "".join(f"{coin}{rng.choice(separators)}" for coin in coins)
    path = tmp_path / "large.txt"
    path.write_text(text)
    assert path.stat().st_size > coinrow_io.FAST_TEXT_BYTES
    row = coinrow_io.read_file(path)
    assert isinstance(row, np.ndarray) and row.dtype == np.int64
    assert row.tolist() == parse_coins(text) == coins


def test_binary_and_missing_files(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="is a directory"):
        coinrow_io.read_file(tmp_path)
    with pytest.raises(InputFileError, match="no such file"):
        coinrow_io.read_file(tmp_path / "missing.npy")
    (tmp_path / "latin1.txt").write_bytes(b"1 \xe9")
    with pytest.raises(InputFileError, match="not UTF-8 text"):
        coinrow_io.read_file(tmp_path / "latin1.txt")
    with pytest.raises(InvalidCoinError):
        coinrow_io.read_text_bytes(f"1 {TOO_BIG}".encode())
