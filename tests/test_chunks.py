"""The chunk-parallel reduction (``solve_chunks``, ``solve_int64`` on several threads) against
the oracle on every cut of small rows, and against the single-chunk reduction on large ones."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import oracle
import pytest
from oracle import assert_line_optimal

from coinrow.engines import reduction
from coinrow.engines.reduction import chunk_cuts, solve_chunks, solve_int64
from coinrow.errors import InvalidOptionError


def every_cut(n: int) -> list[list[int]]:
    """Every way to cut a row of n coins into chunks."""
    return [
        [0, *(cut for cut, keep in zip(range(1, n), mask, strict=True) if keep), n]
        for mask in itertools.product((False, True), repeat=max(n - 1, 0))
    ]


@pytest.mark.parametrize("alphabet", [(0, 1, 2), (-1, 0, 2)])
def test_every_cut_of_every_small_row(alphabet: tuple[int, ...]) -> None:
    """Margin, optimal first moves and every move of the line, on every row of up to 6 coins
    over the alphabet (many ties), cut in every possible way."""
    checked = 0
    for n in range(1, 7):
        for coins in itertools.product(alphabet, repeat=n):
            row = np.array(coins, np.int64)
            best, moves = oracle.margin(coins), oracle.best_moves(coins)
            for cuts in every_cut(n):
                margin, codes, first = solve_chunks(row, cuts, threads=1)  # type: ignore[misc]
                assert (margin, first) == (best, moves), (coins, cuts)
                assert_line_optimal(coins, bytes(codes).decode())
                checked += 1
    assert checked == sum(len(alphabet) ** n * 2 ** (n - 1) for n in range(1, 7))


def random_cuts(rng: np.random.Generator, n: int, pieces: int) -> list[int]:
    return sorted({0, n, *rng.integers(0, n + 1, pieces).tolist()})


def test_random_rows_random_cuts_several_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows of up to 60 coins, random cuts, 1 to 4 threads: the oracle's margin and first
    moves, every move of the line optimal, and the line independent of the thread count."""
    monkeypatch.setattr(reduction, "THREAD_MIN_LENGTH", 2)
    rng = np.random.default_rng(18)
    for _ in range(300):
        coins = rng.integers(-4, 5, rng.integers(1, 61))
        cuts = random_cuts(rng, coins.size, int(rng.integers(0, 8)))
        solved = [solve_chunks(coins, cuts, threads=threads) for threads in (1, 2, 4)]
        margin, codes, first = solved[0]  # type: ignore[misc]
        assert (margin, first) == (oracle.margin(coins.tolist()), oracle.best_moves(coins.tolist()))
        assert_line_optimal(coins.tolist(), bytes(codes).decode())
        assert all(bytes(other[1]) == bytes(codes) for other in solved)  # type: ignore[index]


def line_margin(coins: Any, codes: Any) -> int:
    """The first player's margin when the row is played along the line (O(n), vectorised)."""
    left = codes == ord("L")
    taken_left = np.cumsum(left) - 1
    taken_right = coins.size - np.cumsum(~left)
    taken = coins[np.where(left, taken_left, taken_right)]
    return int(taken[0::2].sum() - taken[1::2].sum())


def spot_check(coins: Any, codes: Any, steps: list[int]) -> None:
    """The line's move at each of these steps is optimal: two reductions of what is left."""
    left = np.concatenate([[0], np.cumsum(codes == ord("L"))])
    for step in steps:
        lo, hi = int(left[step]), coins.size - 1 - (step - int(left[step]))
        if lo == hi:
            continue
        take_left = int(coins[lo]) - solve_int64(coins[lo + 1 : hi + 1])[0]  # type: ignore[index]
        take_right = int(coins[hi]) - solve_int64(coins[lo:hi])[0]  # type: ignore[index]
        move = chr(codes[step])
        assert (take_left if move == "L" else take_right) == max(take_left, take_right), step


@pytest.mark.parametrize("n", [1_000, 200_000, 10_000_000])
def test_large_rows_against_one_chunk(n: int) -> None:
    """Random chunk counts and threads against the row reduced as one chunk: the same margin
    and first moves; the line reaches the margin and its moves are optimal where sampled."""
    rng = np.random.default_rng(n)
    coins = rng.integers(-(10**9), 10**9, n)
    whole = solve_chunks(coins, [0, n], threads=1)
    assert whole is not None
    counts = [int(rng.integers(2, 200))] if n > 10**6 else [1, int(rng.integers(2, 9)), 150]
    for pieces in counts:
        cuts = random_cuts(rng, n, pieces)
        margin, codes, first = solve_chunks(coins, cuts, threads=2)  # type: ignore[misc]
        assert (margin, first) == whole[::2]
        assert line_margin(coins, codes) == margin
    margin, codes, first = solve_int64(coins)  # type: ignore[misc]
    assert (margin, first) == whole[::2] and line_margin(coins, codes) == margin
    if n <= 200_000:
        spot_check(coins, codes, [*sorted(rng.integers(0, n, 12).tolist()), 0, n - 2])


def test_sorted_rows_and_cut_errors() -> None:
    """The worst case for the stacks (nothing merges) and the cut checks."""
    ascending = np.arange(300_000, dtype=np.int64)
    margin, codes, first = solve_int64(ascending, threads=2)  # type: ignore[misc]
    assert (margin, first) == (150_000, "R") and line_margin(ascending, codes) == margin
    assert chunk_cuts(0) == [0] and chunk_cuts(3) == [0, 2, 3]
    with pytest.raises(InvalidOptionError, match="from 0 to 5"):
        solve_chunks(np.arange(5), [1, 5])
