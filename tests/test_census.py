"""Census library: every count against an independent recount written only here.

The recount is the plain O(n^2) dynamic programme D(i, j) = max(a_i - D(i+1, j),
a_j - D(i, j-1)) for every row (vectorised over the rows of one length with NumPy, but
nothing shared with the census kernels), and strategies are checked against refute's Python
path (:func:`coinrow.refute.worst_line`) and, move by move, against coinrow.strategies.
Every row of every length over an alphabet is recounted by the same recurrence memoised
over the family itself (each row's two subrows without an end coin are rows of the family
one shorter), checked against the plain recount.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from oracle import modules_loaded_after

from coinrow import Position
from coinrow.census import (
    Census,
    Compositions,
    Job,
    RandomRows,
    Words,
    WordsUpTo,
    composition,
    run_shard,
)
from coinrow.census.families import RANDOM_BLOCK
from coinrow.errors import CensusStoreError, InvalidCoinError, InvalidOptionError
from coinrow.refute import check_row, worst_line
from coinrow.solution import solve
from coinrow.strategies import get

BUILT_INS = [
    "greedy", "parity", "thibault", "thibault3", "lookahead:0", "lookahead:1", "lookahead:2",
    "lookahead:3", "lookahead:5", "cooperative", "optimal", "optimal:right",
]  # fmt: skip


# --- the independent recount ------------------------------------------------------------


def recount(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Margins and first-move codes (1 L, 2 R, 3 both) of each row of a 2-D array, by the
    plain O(n^2) recurrence, one subgame width at a time."""
    count, n = rows.shape
    previous = rows.copy()  # width 1: D(i, i) = a_i
    before_last = previous
    for width in range(2, n + 1):
        before_last = previous
        previous = np.maximum(
            rows[:, : n - width + 1] - previous[:, 1:], rows[:, width - 1 :] - previous[:, :-1]
        )
    margins = previous[:, 0]
    if n == 1:
        return margins, np.full(count, 3)
    left = rows[:, 0] - before_last[:, 1] == margins
    right = rows[:, -1] - before_last[:, 0] == margins
    return margins, left * 1 + right * 2


def all_rows(alphabet: Sequence[int], n: int) -> np.ndarray:
    """Every row of n coins over the alphabet, in lexicographic order."""
    k = len(alphabet)
    index = np.arange(k**n)
    digits = (index[:, None] // k ** np.arange(n - 1, -1, -1)) % k
    return np.asarray(alphabet)[digits]


def recount_words(alphabet: Sequence[int], longest: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """:func:`recount` of ``all_rows(alphabet, n)`` for every n from 1 to ``longest``, with
    the recurrence memoised over those rows: the row numbered x (its coins are x's digits in
    base k, as in :func:`all_rows`) without its first coin is the row x mod k^(n-1) of
    length n - 1, and without its last coin the row x div k; so D of every row of length n
    is max(first coin - D(rest), last coin - D(front)) read from the length n - 1 margins,
    O(k^n) per length instead of O(n^2 k^n)."""
    k = len(alphabet)
    values = np.asarray(alphabet)
    margins = values.copy()  # rows of one coin: D = a
    out = [(margins, np.full(k, 3))]
    for n in range(2, longest + 1):
        index = np.arange(k**n)
        left = values[index // k ** (n - 1)] - margins[index % k ** (n - 1)]
        right = values[index % k] - margins[index // k]
        margins = np.maximum(left, right)
        out.append((margins, (left == margins) * 1 + (right == margins) * 2))
    return out


def expected(rows_by_length: Iterable[np.ndarray]) -> dict[str, Any]:
    """Histogram, outcomes and first moves of the rows, recounted."""
    return tally(recount(rows) for rows in rows_by_length)


def tally(recounted: Iterable[tuple[np.ndarray, np.ndarray]]) -> dict[str, Any]:
    """Histogram, outcomes and first moves from each length's margins and first-move codes."""
    histogram: dict[int, int] = {}
    moves = {("L",): 0, ("R",): 0, ("L", "R"): 0}  # rows per set of optimal first moves
    total = 0
    for margins, codes in recounted:
        total += len(margins)
        for margin, count in zip(*np.unique(margins, return_counts=True), strict=True):
            histogram[int(margin)] = histogram.get(int(margin), 0) + int(count)
        for code, name in ((1, ("L",)), (2, ("R",)), (3, ("L", "R"))):
            moves[name] += int((codes == code).sum())
    outcomes = {
        "first": sum(c for m, c in histogram.items() if m > 0),
        "tie": histogram.get(0, 0),
        "second": sum(c for m, c in histogram.items() if m < 0),
    }
    return {"rows": total, "histogram": histogram, "outcomes": outcomes, "first_moves": moves}


def composition_rows(total: int) -> list[tuple[int, ...]]:
    """Compositions of ``total`` in standard order, from the binary digits of k (here)."""
    out = []
    for k in range(1 << (total - 1), 1 << total):
        bits = bin(k)[2:]
        cuts = [i for i, bit in enumerate(bits) if bit == "1"] + [len(bits)]
        out.append(tuple(b - a for a, b in itertools.pairwise(cuts)))
    return out


def by_length(rows: Sequence[tuple[int, ...]]) -> list[np.ndarray]:
    lengths = sorted({len(row) for row in rows})
    return [np.array([row for row in rows if len(row) == n]) for n in lengths]


def summary(result: Any) -> dict[str, Any]:
    return {
        "rows": result.rows,
        "histogram": result.histogram,
        "outcomes": result.outcomes,
        "first_moves": result.first_moves,
    }


# --- counts ---------------------------------------------------------------------------------


@pytest.mark.parametrize("alphabet", [(1, 2), (1, 2, 3)])
def test_all_rows_up_to_length_12_match_the_recount(alphabet: tuple[int, ...]) -> None:
    result = Census(WordsUpTo.of(alphabet, 12)).run(workers=0)
    assert summary(result) == tally(recount_words(alphabet, 12))
    assert result.first_moves_by == "reversal"  # counted from R, as many only-L as only-R


@pytest.mark.parametrize("alphabet", [(1, 2, 3), (-7, 0, 5, 6)])
def test_the_memoised_recount_is_the_plain_one(alphabet: tuple[int, ...]) -> None:
    memoised = recount_words(alphabet, 7)
    for n, (margins, codes) in enumerate(memoised, start=1):
        plain_margins, plain_codes = recount(all_rows(alphabet, n))
        assert margins.tolist() == plain_margins.tolist(), n
        assert codes.tolist() == plain_codes.tolist(), n


@pytest.mark.parametrize("total", range(1, 13))
def test_compositions_match_the_recount(total: int) -> None:
    rows = composition_rows(total)
    result = Census(Compositions.of(total)).run(workers=0)
    assert summary(result) == expected(by_length(rows))
    family = Compositions.of(total)
    assert [family.row(i) for i in range(family.rows)] == rows
    assert family.label(0) == 1 << (total - 1)


def test_standard_order_of_compositions() -> None:
    assert composition(22) == (2, 1, 2)  # 10110 = 10|1|10
    assert Compositions.of(5).row(22 - 16) == (2, 1, 2)
    assert composition_rows(3) == [(3,), (2, 1), (1, 2), (1, 1, 1)]


def test_every_rows_result_matches_the_recount(tmp_path: Path) -> None:
    """--rows keeps each row's index, coins, first total, margin and first moves."""
    import pyarrow.parquet as pq

    family = Words.of("1,2,3", 9)
    Census(family, rows=True, out=tmp_path / "w", shard_rows=5000).run(workers=0)
    table = pq.read_table(sorted((tmp_path / "w").glob("rows-*.parquet")))
    rows = all_rows((1, 2, 3), 9)
    margins, codes = recount(rows)
    assert table.column("index").to_pylist() == list(range(len(rows)))
    assert table.column("row").to_pylist() == rows.tolist()
    assert table.column("margin").to_pylist() == margins.tolist()
    assert table.column("first_total").to_pylist() == ((rows.sum(1) + margins) // 2).tolist()
    names = {1: "L", 2: "R", 3: "L R"}  # a set of moves: its texts between spaces
    assert table.column("first_moves").to_pylist() == [names[c] for c in codes]
    comps = Compositions.of(10)
    Census(comps, rows=True, out=tmp_path / "c").run(workers=0)
    table = pq.read_table(sorted((tmp_path / "c").glob("rows-*.parquet")))
    rows_c = composition_rows(10)
    assert table.column("index").to_pylist() == list(range(512, 1024))  # k, standard order
    assert [tuple(r) for r in table.column("row").to_pylist()] == rows_c
    assert table.column("margin").to_pylist() == [solve(r).margin for r in rows_c]


def test_direct_first_moves_equal_the_reversal_count(tmp_path: Path) -> None:
    family = WordsUpTo.of("0,1,3", 6)
    fast = Census(family).run(workers=0)
    direct = Census(family, rows=True, out=tmp_path).run(workers=0)
    assert fast.first_moves_by == "reversal" and direct.first_moves_by == "rows"
    assert fast.first_moves == direct.first_moves
    assert summary(fast) == expected(all_rows((0, 1, 3), n) for n in range(1, 7))


def test_negative_values_and_a_sparse_histogram() -> None:
    family = Words.of([-7, 0, 5], 7)
    assert summary(Census(family).run(workers=0)) == expected([all_rows((-7, 0, 5), 7)])
    wide = Words.of([-(10**6), 3, 10**6], 8)  # margins too spread for a dense histogram
    assert summary(Census(wide).run(workers=0)) == expected([all_rows((-(10**6), 3, 10**6), 8)])


def test_random_rows_are_reproducible_and_counted_row_by_row() -> None:
    family = RandomRows.of(2 * RANDOM_BLOCK + 5, 13, "1..9", seed=1)
    one = Census(family, shard_rows=1).run(workers=0)
    again = Census(RandomRows.of(2 * RANDOM_BLOCK + 5, 13, "1..9", seed=1)).run(workers=0)
    assert summary(one) == summary(again) and one.first_moves_by == "rows"
    rows = np.concatenate([family.block(b) for b in range(3)])
    assert len(rows) == family.rows and rows.min() >= 1 and rows.max() <= 9
    assert summary(one) == expected([rows])
    other = Census(RandomRows.of(100, 13, "1..9", seed=2)).run(workers=0)
    assert (
        other.histogram != Census(RandomRows.of(100, 13, "1..9", seed=1)).run(workers=0).histogram
    )
    listed = RandomRows.of(50, 6, "1,2,5", seed=3)
    drawn = listed.block(0)
    assert set(np.unique(drawn)) <= {1, 2, 5}
    assert summary(Census(listed).run(workers=0)) == expected([drawn])


def test_shard_sizes_do_not_change_results() -> None:
    family = Words.of("1,2,3", 7)
    results = [
        Census(family, ["greedy", "parity"], examples=50, shard_rows=size).run(workers=0)
        for size in (1, 7, 100, 5000)
    ]
    dicts = [r.to_dict() for r in results]
    for data in dicts:
        data.pop("seconds"), data.pop("rows_per_second"), data.pop("shards")
    assert all(data == dicts[0] for data in dicts)


# --- strategies ----------------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def optimal_total(row: tuple[int, ...]) -> Any:
    """The first player's optimal total, solved once per row for every strategy checked on
    it (the families below hold at most 1,092 rows)."""
    return solve(row).first_total


def python_path(rows: Iterable[tuple[int, ...]], name: str) -> dict[str, Any]:
    """Refute's Python path: the strategy's worst total against the optimal opponent."""
    strategy = get(name, seed=0)
    optimal = regret = worst = 0
    bad = []
    for index, row in enumerate(rows):
        total, _ = worst_line(row, strategy)
        loss = optimal_total(tuple(row)) - total
        optimal += loss == 0
        regret += loss
        worst = max(worst, loss)
        if loss:
            bad.append(index)
    return {"optimal": optimal, "regret": regret, "worst": worst, "bad": bad}


@pytest.mark.parametrize(
    "family",
    [WordsUpTo.of("1,2,3", 6), WordsUpTo.of("1,2", 8), WordsUpTo.of("-1,0,3", 5),
     Compositions.of(9), Compositions.of(8)],
    ids=str,
)  # fmt: skip
def test_compiled_strategies_match_refutes_python_path(family: Any) -> None:
    result = Census(family, BUILT_INS, examples=10_000, shard_rows=97).run(workers=0)
    rows = [family.row(i) for i in range(family.rows)]
    for summary_ in result.strategies:
        assert summary_.compiled
        want = python_path(rows, summary_.name)
        assert summary_.optimal == want["optimal"], summary_.name
        assert summary_.regret_total == want["regret"], summary_.name
        assert summary_.worst_regret == want["worst"], summary_.name
        assert [e.index for e in summary_.examples] == want["bad"], summary_.name
        for example in summary_.examples[:5]:
            assert example.counterexample == check_row(rows[example.index], get(summary_.name))


def test_each_strategy_alone_counts_as_among_all() -> None:
    """A census of one strategy (its totals computed in the margins' loop) equals its part
    of the census of every strategy (where only the first one's are; that census is checked
    against refute's Python path above)."""
    family = WordsUpTo.of("1,2,3", 6)
    together = Census(family, BUILT_INS, examples=10_000).run(workers=0).strategies
    for name, among_all in zip(BUILT_INS, together, strict=True):
        alone = Census(family, [name], examples=10_000).run(workers=0).strategies[0]
        assert alone == among_all, name


def python_move(name: str, row: tuple[int, ...], lo: int, hi: int) -> int:
    return int(get(name, seed=0)(Position(row, lo, hi)) == "L")


@pytest.mark.parametrize("name", BUILT_INS)
def test_compiled_moves_equal_the_python_strategies_everywhere(name: str) -> None:
    """Same move at every position of every row of small families (two coins or more: with
    one coin both moves take it; parity at its own turns: its group depends on the whole
    row)."""
    from coinrow.census.compiled import PARITY, compiled
    from coinrow.census.kernels import strategy_moves

    rows = [r for n in range(1, 6) for r in itertools.product((1, 2, 3), repeat=n)]
    rows += [composition(k) for k in range(1, 1 << 8)]
    rows += [tuple(r) for r in np.random.default_rng(5).integers(-4, 9, size=(40, 9)).tolist()]
    spec = compiled(name, 9)
    assert spec is not None
    for row in rows:
        n = len(row)
        parameter = spec.parameter
        if spec.code == PARITY:
            parameter = 0 if sum(row[0::2]) >= sum(row[1::2]) else 1
        moves = strategy_moves(np.array(row, np.int64), spec.code, parameter)
        for lo in range(n):
            for hi in range(lo + 1, n):
                if spec.code == PARITY and (n - (hi - lo + 1)) % 2:
                    continue  # the opponent's turn: parity never plays there
                want = python_move(name, row, lo, hi)
                assert moves[lo, hi] == want, (name, row, lo, hi)


def test_lookahead_deeper_than_the_rows_is_the_same_strategy() -> None:
    family = WordsUpTo.of("1,2,3", 5)
    deep = Census(family, ["lookahead:50"]).run(workers=0).strategies[0]
    assert (
        deep.counterexamples == 0
        and python_path([family.row(i) for i in range(family.rows)], "lookahead:50")["optimal"]
        == family.rows
    )


def test_first_examples_in_family_order_across_shards() -> None:
    family = Words.of("1,2", 10)
    result = Census(family, ["greedy"], examples=5, shard_rows=16).run(workers=0)
    rows = [family.row(i) for i in range(family.rows)]
    want = python_path(rows, "greedy")["bad"][:5]
    assert [e.index for e in result.strategies[0].examples] == want
    assert [e.label for e in result.strategies[0].examples] == want


def test_a_census_rebuilds_only_the_examples_it_keeps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a folder, shards after the first counterexamples rebuild none through Python;
    with ``examples=`` a shard rebuilds fewer and counts the same."""
    from coinrow.census import shards

    rebuilt = []
    monkeypatch.setattr(shards, "check_row", lambda *a: rebuilt.append(a[0]) or check_row(*a))
    family = Words.of("1,2", 10)
    result = Census(family, ["greedy", "thibault3"], examples=2, shard_rows=16).run(workers=0)
    want = {name: python_path([family.row(i) for i in range(family.rows)], name)["bad"][:2]
            for name in ("greedy", "thibault3")}  # fmt: skip
    assert {s.name: [e.index for e in s.examples] for s in result.strategies} == want
    assert len(rebuilt) == 4
    job = Job(family, strategies=("greedy", "parity"), examples=3, shard_rows=1024)
    whole, capped = (run_shard(job, job.plan()[0], examples=cap) for cap in (None, [1, 0]))
    assert [len(t.examples) for t in whole.strategies] == [3, 3]
    assert [t.examples for t in capped.strategies] == [whole.strategies[0].examples[:1], []]
    for full, part in zip(whole.strategies, capped.strategies, strict=True):
        assert (full.optimal, full.regret_total, full.worst_regret) == (
            part.optimal, part.regret_total, part.worst_regret)  # fmt: skip
    with pytest.raises(InvalidOptionError, match="one count per strategy"):
        run_shard(job, job.plan()[0], examples=[1])


def test_user_strategies_run_through_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "census_rule_for_test.py").write_text(
        "from coinrow.strategies import greedy\n\n"
        "def mine(position):\n    return greedy(position)\n"
    )
    monkeypatch.chdir(tmp_path)
    family = WordsUpTo.of("1,2,3", 5)
    result = Census(family, ["greedy", "census_rule_for_test:mine"], examples=4).run(workers=0)
    compiled_, python = result.strategies
    assert compiled_.compiled and not python.compiled
    for key in ("optimal", "regret_total", "worst_regret"):
        assert getattr(compiled_, key) == getattr(python, key)
    assert [e.counterexample for e in compiled_.examples] == [
        e.counterexample for e in python.examples
    ]


# --- bad input, int64 limits, import weight --------------------------------------------------


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (lambda: Words.of("", 4), InvalidOptionError, "alphabet is empty"),
        (lambda: Words.of("1,2", 0), InvalidOptionError, "at least 1"),
        (lambda: Words.of("1,2", -3), InvalidOptionError, "at least 1"),
        (lambda: Words.of("1,x", 3), InvalidCoinError, "not a number"),
        (lambda: Words.of("1.5,2", 3), InvalidOptionError, "integer coin values"),
        (lambda: Compositions.of(0), InvalidOptionError, "at least 1"),
        (lambda: WordsUpTo.of("1", 0), InvalidOptionError, "at least 1"),
        (lambda: RandomRows.of(0, 4, "1..9"), InvalidOptionError, "at least 1"),
        (lambda: RandomRows.of(5, 4, "9..1"), InvalidOptionError, "empty value range"),
        (lambda: RandomRows.of(5, 4, "1,2.5"), InvalidOptionError, "integer coin values"),
        (lambda: Census(Words.of([2**61, 1], 4)), InvalidOptionError, "2\\*\\*62"),
        (lambda: Census(Words.of("1,2", 4), ["greedy", "greedy"]), InvalidOptionError, "twice"),
        (lambda: Census(Words.of("1,2", 4), examples=-1), InvalidOptionError, "0 to 10,000"),
        (lambda: Census(Words.of("1,2", 4), rows=True), InvalidOptionError, "output folder"),
        (lambda: Census(Words.of("1,2", 30), rows=True, out="x"), InvalidOptionError, "at most"),
        (lambda: Census(Words.of("1,2", 40), shard_rows=2), InvalidOptionError, "shards"),
    ],
)
def test_bad_input_raises_specific_errors(build: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        build()


def test_int64_safe_values_stay_exact() -> None:
    big = 2**62 // 8 - 1  # sum of |values| of every row below 2**62
    family = Words.of([-big, big - 3, 1], 7)
    assert summary(Census(family).run(workers=0)) == expected([all_rows((-big, 1, big - 3), 7)])


def test_importing_the_census_loads_no_heavy_module() -> None:
    heavy = ["numpy", "numba", "dask", "distributed", "pyarrow", "matplotlib"]
    assert modules_loaded_after("import coinrow, coinrow.census, coinrow.cli", heavy) == []


# --- the folder: shards, manifest, resume -------------------------------------------------


def manifest(folder: Path) -> list[dict[str, Any]]:
    """The manifest's lines, without a damaged one."""
    lines = (folder / "manifest.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.startswith('{"')]


def test_shards_and_manifest_and_resume(tmp_path: Path) -> None:
    folder = tmp_path / "census"
    family = Words.of("1,2", 12)
    first = Census(family, ["greedy"], out=folder, shard_rows=512).run(workers=0)
    lines = manifest(folder)
    assert lines[0]["format"] == "coinrow-census" and lines[0]["job"]["family"]["length"] == 12
    shards = [line for line in lines if "shard" in line]
    assert len(shards) == 8 and all(line["run"] == 1 for line in shards)
    assert all((folder / line["file"]).is_file() and len(line["sha256"]) == 64 for line in shards)
    # damage one shard and lose another's line: only those two are computed again
    (folder / shards[0]["file"]).write_bytes(b"not parquet")
    kept = [line for line in lines if line.get("shard") != shards[1]["shard"]]
    (folder / "manifest.jsonl").write_text("".join(json.dumps(x) + "\n" for x in kept) + "{bro")
    resumed_census = Census(family, ["greedy"], out=folder, shard_rows=512, resume=True)
    assert [s.key for s in resumed_census.missing()] == [shards[0]["shard"], shards[1]["shard"]]
    resumed = resumed_census.run(workers=0)
    assert resumed.computed == 2 and resumed.reused == 6
    for key in ("rows", "histogram", "first_moves"):
        assert getattr(resumed, key) == getattr(first, key)
    assert resumed.strategies[0] == first.strategies[0]
    runs = [line for line in manifest(folder) if "shard" in line and line["run"] == 2]
    assert {line["shard"] for line in runs} == {shards[0]["shard"], shards[1]["shard"]}


@pytest.mark.parametrize(
    ("other", "message"),
    [
        (lambda: Census(Words.of("1,2", 11), ["greedy"], out="F", resume=True, shard_rows=512),
         "holds a census of rows of length 12 over {1, 2}, not of rows of length 11"),
        (lambda: Census(Words.of("1,2", 12), ["parity"], out="F", resume=True, shard_rows=512),
         "strategies"),
        (lambda: Census(Words.of("1,2", 12), ["greedy"], out="F", shard_rows=512),
         "already holds a census"),
    ],
)  # fmt: skip
def test_resume_refuses_another_census(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       other: Any, message: str) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    Census(Words.of("1,2", 12), ["greedy"], out="F", shard_rows=512).run(workers=0)
    with pytest.raises(CensusStoreError, match=message.replace("{", "\\{").replace("}", "\\}")):
        other()


def test_resume_refuses_another_version_and_bad_folders(tmp_path: Path) -> None:
    folder = tmp_path / "F"
    Census(Words.of("1,2", 6), out=folder).run(workers=0)
    lines = (folder / "manifest.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    header["job"]["coinrow"] = "0.0.1"
    (folder / "manifest.jsonl").write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    with pytest.raises(CensusStoreError, match=r"written by coinrow 0\.0\.1"):
        Census(Words.of("1,2", 6), out=folder, resume=True)
    (tmp_path / "file").write_text("x")
    with pytest.raises(CensusStoreError, match="is a file"):
        Census(Words.of("1,2", 6), out=tmp_path / "file")
    with pytest.raises(CensusStoreError, match="no census to resume"):
        Census(Words.of("1,2", 6), out=tmp_path / "empty", resume=True)


# --- refute on the census machinery ----------------------------------------------------------


def searched(name: str, alphabet: list[int], length: int, limit: int, compiled: bool) -> Any:
    from coinrow.refute import Search

    search = Search(name, alphabet, length, limit)
    assert search.compiled
    search.compiled = compiled  # the Python path, for comparison
    steps = list(search.run(batch=100))
    return search.result, steps


@pytest.mark.parametrize("name", ["greedy", "thibault", "parity", "cooperative", "optimal"])
@pytest.mark.parametrize("limit", [0, 1, 7])
def test_refute_compiled_equals_its_python_path(name: str, limit: int) -> None:
    fast, fast_steps = searched(name, [1, 2, 4], 5, limit, True)
    slow, slow_steps = searched(name, [1, 2, 4], 5, limit, False)
    assert fast == slow and fast_steps == slow_steps


def test_kernels_warm_reads_the_cache_without_compiling(tmp_path: Path) -> None:
    """An empty Numba cache folder is cold for every family kind (and asking compiles
    nothing: it returns at once); after a census the walk is warm (see the doctest)."""
    import subprocess
    import sys

    code = (
        "from coinrow.census import Compositions, RandomRows, Words, kernels_warm\n"
        "families = [Words.of('1,2', 3), Compositions.of(3), RandomRows.of(2, 3, '1..3', 0)]\n"
        "print([kernels_warm(f) for f in families])\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.stdout.strip() == "[False, False, False]", result.stderr
    assert not list(tmp_path.rglob("*.nbc"))  # nothing compiled


def test_progress_is_called_with_the_rows_of_each_shard() -> None:
    """The long-work idiom: ``progress`` gets the rows finished since its last call."""
    seen: list[int] = []
    result = Census(Words.of("1,2", 6), shard_rows=16).run(workers=0, progress=seen.append)
    assert seen == [16, 16, 16, 16] and result.rows == 64
