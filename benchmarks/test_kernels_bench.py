"""pytest-benchmark versions of the ``coinrow bench`` figures (run: ``pytest benchmarks -n0``).

Sizes are smaller than ``coinrow bench``'s defaults so a run takes seconds; set
``COINROW_BENCH_N`` to change the reduction's row length.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from coinrow.benchmark import numpy_top_value, random_row
from coinrow.engines import reduction
from coinrow.engines.kernels import fill_table
from coinrow.engines.table import cell_count

N = int(os.environ.get("COINROW_BENCH_N", "10000000"))
TABLE_N = 3000


@pytest.fixture(scope="module")
def row() -> Any:
    return random_row(N)


def test_numpy_sum(benchmark: Any, row: Any) -> None:
    benchmark(row.sum)


def test_array_copy(benchmark: Any, row: Any) -> None:
    benchmark(row.copy)


def test_reduction_kernel(benchmark: Any, row: Any) -> None:
    """Every usable core (the chunk-parallel reduction)."""
    reduction.solve_int64(row[:1000])
    benchmark(reduction.solve_int64, row)


def test_reduction_kernel_one_core(benchmark: Any, row: Any) -> None:
    reduction.solve_int64(row[:1000], threads=1)
    benchmark(reduction.solve_int64, row, threads=1)


def test_table_kernel(benchmark: Any) -> None:
    coins = random_row(TABLE_N)
    values = np.zeros(cell_count(TABLE_N), np.int64)
    codes = np.zeros(cell_count(TABLE_N), np.uint8)
    fill_table(coins, values, codes)
    benchmark(fill_table, coins, values, codes)


def test_numpy_top_value_sweep(benchmark: Any) -> None:
    benchmark(numpy_top_value, random_row(TABLE_N))
