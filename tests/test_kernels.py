"""Compiled kernels against the tests' oracle and the exact pure-Python paths, the int64
safety rule, dispatch, large inputs from the CLI. Kernels are forced on small rows by lowering
the thresholds."""

from __future__ import annotations

import itertools
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import oracle
import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import assert_line_optimal, modules_loaded_after

import coinrow
from coinrow.cli import main
from coinrow.engines import dispatch, linear, reduction
from coinrow.engines.dispatch import INT64_SAFE_LIMIT, int64_safe, kernel_row
from coinrow.engines.table import KERNEL_BYTES_PER_CELL, Table, cell_count

ALL_KERNELS = {"reduction": 1, "table": 1, "linear": 1, "cooperative": 1}


@pytest.fixture
def kernels_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """Send every int row, however short, to the kernels."""
    for engine, length in ALL_KERNELS.items():
        monkeypatch.setitem(dispatch.KERNEL_MIN_LENGTH, engine, length)
    monkeypatch.setattr(reduction, "THREAD_MIN_LENGTH", 8)  # the two-thread path too


def random_rows(seed: int, count: int, max_length: int, bound: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    return [
        rng.integers(-bound, bound + 1, rng.integers(0, max_length + 1)).tolist()
        for _ in range(count)
    ]


@pytest.mark.parametrize("bound", [2, 9, 10**9])
def test_reduction_kernel_equals_python(bound: int) -> None:
    """Same margin, same line, same first moves (small bounds give many ties); the margin,
    first moves and line of the compiled kernel against the oracle too."""
    for coins in [*random_rows(bound, 400, 40, bound), [], [5], [1, 1], [-3, -3, -3]]:
        exact = reduction.solve(coins)
        compiled = reduction.solve(np.array(coins, dtype=np.int64))
        assert compiled == exact, coins
        assert type(compiled.margin) is int
        assert compiled.margin == oracle.margin(coins), coins
        assert compiled.first_moves == (oracle.best_moves(coins) if coins else ""), coins
        assert_line_optimal(coins, compiled.line)


def test_reduction_kernel_on_a_long_row_both_threads() -> None:
    """Past one chunk the compiled line may group coins differently (tests/test_chunks.py
    checks it); margin and first moves are the exact path's, and a one-chunk row's line too."""
    coins = np.random.default_rng(5).integers(-(10**12), 10**12, 200_000)
    compiled, exact = reduction.solve(coins), reduction.solve(coins.tolist())
    assert compiled[::2] == exact[::2]
    one_chunk = coins[: reduction.CHUNK_LENGTH + 1]
    assert reduction.solve(one_chunk) == reduction.solve(one_chunk.tolist())
    ascending = np.arange(150_000, dtype=np.int64)  # the stack grows to n entries
    assert reduction.solve(ascending) == reduction.solve(ascending.tolist())


def kernel_stacks(
    coins: list[int], spans: list[tuple[int, int]]
) -> list[tuple[tuple[list[int], list[int]], tuple[int, int]]]:
    """The compiled reduction of each span of a row as a chunk of its own (one call of
    ``reduce_chunks``, so the fold skipping carries over from chunk to chunk): per span, its
    stack as entries and their groups' sizes, and the (minimum, maximum) it reports."""
    from coinrow.engines.kernels import reduce_chunks

    row = np.array(coins, np.int64)
    table = np.array([(lo, hi, 0) for lo, hi in spans], np.int64)
    values, starts = np.empty(row.size + 2, np.int64), np.empty(row.size + 2, np.int32)
    stack = np.empty((len(spans), 4), np.int64)
    reduce_chunks(row, table, values, starts, stack, 0, len(spans))
    result = []
    for k, (_, hi) in enumerate(spans):
        begin, end = int(stack[k, 0]), int(stack[k, 1])
        groups = np.diff([*starts[begin:end].tolist(), hi]).tolist()
        result.append(((values[begin:end].tolist(), groups), (int(stack[k, 2]), int(stack[k, 3]))))
    return result


def kernel_stack(coins: list[int]) -> tuple[list[int], list[int]]:
    """The compiled reduction's stack of a row as one chunk: entries and their groups' sizes."""
    return kernel_stacks(coins, [(0, len(coins))])[0][0]


def test_folded_stacks_equal_the_scans_stacks() -> None:
    """The compiled reduction folds peaks in passes before its stack (docs/kernels.md); the
    stack still comes out entry for entry the Python scan's, values and groups, on every row
    of up to 10 coins over {0, 1, 2} (one pass; many ties) and on random rows of up to 3,000
    coins (several passes), so the line does not depend on the folds."""
    rows: list[list[int]] = [
        list(coins) for n in range(1, 11) for coins in itertools.product((0, 1, 2), repeat=n)
    ]
    rng = np.random.default_rng(7)
    for bound in (1, 3, 10**9):
        rows += [rng.integers(-bound, bound + 1, rng.integers(3, 3001)).tolist() for _ in range(60)]
    rows += [list(range(300)), list(range(300, 0, -1)), [2, 5] * 150, [4] * 300]
    for coins in rows:
        assert kernel_stack(coins) == reduction.reduce_row(coins), coins


def test_chunks_pushed_without_folds_give_the_same_stacks() -> None:
    """After a chunk that folding did not pay for (sorted or constant), the next chunks are
    pushed without folds until one is tried again (FOLD_SKIP_BLOCKS); every chunk's stack is
    still the Python scan's of that chunk, through stretches that switch back and forth; and
    a span of several fold blocks (a chunk file on Dask) gives the scan's stack too."""
    from coinrow.engines.kernels import FOLD_BLOCK, FOLD_SKIP_BLOCKS

    rng = np.random.default_rng(11)
    size = 300  # coins per chunk: several fold passes on random chunks
    stretches = [
        np.full(12 * size, 4),
        rng.integers(-5, 6, 9 * size),
        np.arange(10 * size),
        rng.integers(0, 2, 3 * size),
        np.arange(4 * size, 0, -1),
        rng.integers(-(10**9), 10**9, 5 * size),
    ]
    coins = np.concatenate(stretches).astype(np.int64)
    spans = [(lo, min(lo + size, coins.size)) for lo in range(0, coins.size, size)]
    assert len(spans) > 3 * FOLD_SKIP_BLOCKS
    stacks = kernel_stacks(coins.tolist(), spans)
    for k, (lo, hi) in enumerate(spans):
        chunk = coins[lo:hi].tolist()
        assert stacks[k] == (reduction.reduce_row(chunk), (min(chunk), max(chunk))), k
    long = np.concatenate([np.repeat(coins, 8), rng.integers(-9, 10, 2 * FOLD_BLOCK + 5)])
    assert long.size > 3 * FOLD_BLOCK
    assert kernel_stack(long.tolist()) == reduction.reduce_row(long.tolist())


@given(st.lists(st.integers(-(2**40), 2**40), max_size=30))
def test_every_kernel_matches_the_exact_engines(coins: list[int]) -> None:
    row = np.array(coins, dtype=np.int64)
    assert reduction.solve(row) == reduction.solve(coins)
    assert linear.solve(row) == linear.solve(coins)
    for compiled in (reduction.solve(row), linear.solve(row)):
        assert compiled.margin == oracle.margin(coins)
        assert_line_optimal(coins, compiled.line)
    assert coinrow.cooperative_total(row) == coinrow.cooperative_total(coins)


def test_table_kernel_matches_the_oracle(kernels_everywhere: None) -> None:
    """Every subgame of 60 random rows of up to 25 coins; the line as the Python table's."""
    for coins in random_rows(3, 60, 25, 4):
        compiled = Table(coins)
        dispatch.KERNEL_MIN_LENGTH["table"] = 10**9
        exact = Table(coins)
        dispatch.KERNEL_MIN_LENGTH["table"] = 1
        assert (compiled._values is not None or not coins) and exact._values is None
        n = len(coins)
        for i in range(n):
            for j in range(i, n):
                assert compiled.value_of(i, j) == oracle.value(coins, i, j)
                assert compiled.moves_of(i, j) == oracle.best_move_set(coins, i, j)
                assert compiled.margin_of(i, j) == oracle.margin(coins, i, j)
        assert compiled.line == exact.line  # both take L on ties
        assert_line_optimal(coins, compiled.line)


def test_solve_dispatch_and_results(kernels_everywhere: None) -> None:
    coins = [3, 2, 2, 3, 1, 2]
    for engine in ("reduction", "table", "linear"):
        solution = coinrow.solve(coins, engine=engine)
        assert solution._array is not None or engine != "reduction", engine  # the kernel path
        assert (solution.first_total, solution.second_total, solution.line) == (
            8,
            5,
            "LLRLLL",
        )
        assert solution.to_dict()["coins"] == coins
    memo = coinrow.solve(coins, engine="memo")  # no kernel: exact path
    assert isinstance(memo.coins, tuple)
    assert coinrow.cooperative_total(coins) == 8


def test_exact_types_and_huge_ints_stay_exact(kernels_everywhere: None) -> None:
    for coins in (
        [Decimal("0.5"), 1, 2],
        [Fraction(1, 3), 1],
        [10**30, 1, 2],
        [True, 1],
        ["1", "2"],
    ):
        assert kernel_row(coins, 1) is None
    assert coinrow.solve([10**30, 1, 2]).first_total == 10**30 + 1
    assert coinrow.solve([Decimal("0.5"), 1, 2]).first_total == Decimal("2.5")


def test_int64_safety_rule() -> None:
    half = INT64_SAFE_LIMIT // 2
    assert int64_safe([half, -(half - 1)])  # sum of |a| = limit - 1
    assert not int64_safe([half, -half])  # sum of |a| = limit
    assert not int64_safe([INT64_SAFE_LIMIT])
    assert int64_safe([])
    # The exact (chunked) check: max|a| * n over the limit, but the sum under it.
    row = np.zeros(1000, dtype=np.int64)
    row[0] = INT64_SAFE_LIMIT - 1000
    assert int64_safe(row) and int64_safe(row.tolist())
    row[1:] = 2
    assert not int64_safe(row) and not int64_safe(row.tolist())
    row[0] = -(2**63)  # |a| itself overflows int64
    assert not int64_safe(row)


def test_rows_near_the_limit_switch_to_the_exact_path(kernels_everywhere: None) -> None:
    big = INT64_SAFE_LIMIT // 4
    for coins in ([big, 3 * big, -1, 5], [big, -big, big, -big - 7], [2**63 - 1, -(2**63), 4]):
        assert kernel_row(coins, 1) is None
        array = np.array(coins, dtype=np.int64)
        assert kernel_row(array, 1) is None
        assert reduction.solve_int64(array) is None  # the optimistic kernel declines
        for source in (coins, array):
            solution = coinrow.solve(source)
            assert solution.margin == oracle.margin(coins)
            assert solution.first_total == oracle.first_total(coins)
            assert solution.first_total + solution.second_total == sum(coins)
            assert solution.first_moves == oracle.best_move_set(coins)
    safe = [big, big, -big + 3]  # sum of |a| = 3/4 of the limit
    assert kernel_row(safe, 1) is not None
    solution = coinrow.solve(safe)
    assert solution._array is not None  # the kernel path
    assert (solution.margin, solution.first_total) == (oracle.margin(safe), 3)


def test_kernel_row_arrays() -> None:
    int64 = np.arange(10, dtype=np.int64)
    assert np.shares_memory(kernel_row(int64, 1), int64)  # no copy
    assert kernel_row(np.arange(10, dtype=np.int32), 1).dtype == np.int64
    readonly = np.arange(10, dtype=np.int64)
    readonly.flags.writeable = False
    assert kernel_row(readonly, 1).flags.writeable
    assert kernel_row(np.array([2**63], dtype=np.uint64), 1) is None
    assert kernel_row(np.arange(10.0), 1) is None
    assert kernel_row(np.arange(10).reshape(2, 5), 1) is None
    assert kernel_row(np.arange(10), 11) is None and kernel_row(np.arange(10), None) is None


def test_numpy_arrays_are_not_copied_into_python_ints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(dispatch.KERNEL_MIN_LENGTH, "reduction", 50)
    coins = np.random.default_rng(2).integers(-100, 100, 60)
    solution = coinrow.solve(coins)
    assert solution._array is coins and "coins" not in vars(solution)  # no tuple built yet
    assert not isinstance(solution._line, str)  # kept as byte codes until read
    assert solution.line == reduction.solve(coins.tolist()).line
    assert solution.total == int(coins.sum())


def test_table_budget_for_compiled_tables(kernels_everywhere: None) -> None:
    coins = list(range(300))
    needed = cell_count(300) * KERNEL_BYTES_PER_CELL
    assert Table(coins, memory_budget=needed).value_of(0, 299) == oracle.first_total(coins)
    with pytest.raises(coinrow.TableTooLargeError, match="MiB budget"):
        Table(coins, memory_budget=needed - 1)


def test_small_solves_do_not_import_numba() -> None:
    code = (
        "import coinrow; coinrow.solve(list(range(5000)));"
        "coinrow.solve(list(range(300)), engine='table')"
    )
    assert modules_loaded_after(code, ["numba"]) == []


def test_cli_npy_and_fast_text_reader(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    kernels_everywhere: None,
) -> None:
    from coinrow import cli
    from coinrow import io as coinrow_io
    from coinrow.cli import solve as solve_cli

    monkeypatch.setattr(coinrow_io, "FAST_TEXT_BYTES", 0)
    monkeypatch.setattr(solve_cli, "JSON_LIMIT", 4)
    coins = [3, 2, 2, 3, 1, 2]
    array = tmp_path / "coins.npy"
    np.save(array, np.array(coins, dtype=np.int64))
    assert isinstance(cli.read_row(None, array), np.ndarray)
    text = tmp_path / "coins.csv"
    text.write_text("3, 2;2\n3\t1 2\n")
    assert cli.read_row(None, text).tolist() == coins
    for path in (array, text):
        assert main(["solve", "--json", "--file", str(path)]) == 0
        data = json.loads(capsys.readouterr().out)
        assert (data["n"], data["first_total"], data["margin"]) == (6, 8, 3)
        assert data["omitted"] == ["coins", "line", "moves", "first_coins", "second_coins"]
        assert "coins" not in data
        assert main(["solve", "--json", "--full", "--file", str(path)]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["coins"] == coins and data["line"] == "LLRLLL" and "omitted" not in data
    text.write_text("0.1 0.2 0.3")  # not integers: the exact reader
    assert main(["solve", "--json", "--file", str(text)]) == 0
    assert json.loads(capsys.readouterr().out)["first_total"] == "0.4"
    text.write_text(f"1 {2**70} 3")  # beyond int64: exact ints
    assert main(["solve", "--json", "--file", str(text)]) == 0
    assert json.loads(capsys.readouterr().out)["second_total"] == 2**70


def test_solutions_compare_equal_for_arrays_and_lists() -> None:
    coins = [5, 1, 9, 2, 7, 3] * 5
    as_list = coinrow.solve(coins)
    saved = dispatch.KERNEL_MIN_LENGTH["reduction"]
    dispatch.KERNEL_MIN_LENGTH["reduction"] = 1
    try:
        as_array = coinrow.solve(np.array(coins, dtype=np.int64))
    finally:
        dispatch.KERNEL_MIN_LENGTH["reduction"] = saved
    assert as_array == as_list and hash(as_array) == hash(as_list)
    assert as_array != coinrow.solve([*coins[:-1], 4])


def test_compile_notice_from_the_cli_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], kernels_everywhere: None
) -> None:
    """A cold cache gets one line on stderr from `coinrow solve`; a warm one, none; the
    library only returns the sentence."""
    from coinrow.engines import kernels
    from coinrow.engines.dispatch import compile_notice

    # A row past one chunk runs the engine's kernels (a shorter one only reduce_whole), so
    # they are compiled in this process: warm, whatever ran before on this worker.
    reduction.solve(np.arange(reduction.CHUNK_LENGTH + 2, dtype=np.int64))
    assert kernels.cache_is_warm("reduction") and compile_notice(list(range(10))) is None
    assert compile_notice([1, 2, 3], "brute") is None  # no kernel
    assert main(["solve", "--json", "1", "2", "3"]) == 0
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(kernels, "cache_is_warm", lambda engine: False)
    notice = compile_notice(list(range(10)))
    assert notice is not None and notice.startswith("compiling the solver kernels once, about")
    assert main(["solve", "--json", "1", "2", "3"]) == 0
    captured = capsys.readouterr()
    assert captured.err == notice + "\n" and json.loads(captured.out)["margin"] == 2


def test_a_fresh_cache_is_cold(tmp_path: Path) -> None:
    """In a process whose Numba cache folder is empty the reduction is cold; here, warm."""
    import os
    import subprocess
    import sys

    code = "from coinrow.engines import kernels; print(kernels.cache_is_warm('reduction'))"
    reduction.solve(np.arange(10**5 + 7, dtype=np.int64))  # compiled and saved to the cache
    for env, warm in (({"NUMBA_CACHE_DIR": str(tmp_path)}, "False"), ({}, "True")):
        result = subprocess.run(
            [sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True
        )
        assert result.stdout.strip() == warm
