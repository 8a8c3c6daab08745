"""Census speed (run: ``pytest benchmarks/test_census_bench.py -n0``): rows per second of one
core for the plain scan (outcomes, histogram, first moves) and with one compiled strategy,
of every core through a local Dask cluster once it has started (with the share of cores x
the one-core figure it reaches), and the seconds a census waits for the kernels cold (an
empty Numba cache) and warm. Each test records its figures in the benchmark's extra info;
docs/census.md lists measured figures.

``COINROW_BENCH_CENSUS_N`` sets the plain scan's row length (default 24, 16.8 M rows; the
strategies run at N - 2, Dask at N + 4).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from coinrow.census import Census, Words
from coinrow.census.shards import Job, run_shard

N = int(os.environ.get("COINROW_BENCH_CENSUS_N", "24"))


def one_shard(family: Words, strategies: tuple[str, ...] = ()) -> tuple[Job, Any]:
    job = Job(family, strategies=strategies, shard_rows=family.rows)
    warm = Job(Words.of("1,2", 4), strategies=strategies, shard_rows=16)
    run_shard(warm, warm.plan()[0])  # load the compiled kernels first
    return job, job.plan()[0]


def plain_rate() -> float:
    """Rows per second of one core, plain scan at length N (best of three)."""
    family = Words.of("1,2", N)
    job, shard = one_shard(family)
    best = min(_timed(run_shard, job, shard) for _ in range(3))
    return family.rows / best


def _timed(function: Any, *args: Any) -> float:
    started = time.perf_counter()
    function(*args)
    return time.perf_counter() - started


def test_plain_scan_one_core(benchmark: Any) -> None:
    family = Words.of("1,2", N)
    job, shard = one_shard(family)
    result = benchmark.pedantic(run_shard, (job, shard), rounds=3, iterations=1)
    assert result.rows == family.rows
    benchmark.extra_info["rows_per_second"] = family.rows / benchmark.stats.stats.min


@pytest.mark.parametrize("strategy", ["greedy", "thibault3", "lookahead:2"])
def test_one_strategy_one_core(benchmark: Any, strategy: str) -> None:
    family = Words.of("1,2", N - 2)
    job, shard = one_shard(family, (strategy,))
    benchmark.pedantic(run_shard, (job, shard), rounds=2, iterations=1)
    benchmark.extra_info["rows_per_second"] = family.rows / benchmark.stats.stats.min


def test_every_core_through_dask(benchmark: Any) -> None:
    """A local cluster of one worker per core, started (and warmed) before the clock."""
    from distributed import LocalCluster

    cores = os.cpu_count() or 1
    family = Words.of("1,2", N + 4)
    one_core = plain_rate()
    with LocalCluster(n_workers=cores, threads_per_worker=1, host="127.0.0.1",
                      dashboard_address=None) as cluster:  # fmt: skip
        address = cluster.scheduler_address
        Census(Words.of("1,2", 16), shard_rows=1 << 12).run(scheduler=address)

        def census() -> Any:
            return Census(family, shard_rows=1 << 24).run(scheduler=address)

        result = benchmark.pedantic(census, rounds=1, iterations=1)
    assert result.rows == family.rows
    rate = family.rows / benchmark.stats.stats.min
    benchmark.extra_info["cores"] = cores
    benchmark.extra_info["rows_per_second"] = rate
    benchmark.extra_info["one_core_rows_per_second"] = one_core
    benchmark.extra_info["share_of_cores_x_one_core"] = rate / (cores * one_core)


def test_compile_cold_and_warm(benchmark: Any, tmp_path: Path) -> None:
    """Seconds of a fresh process's first tiny census of each family kind with an empty
    Numba cache (cold: compiles) and again with that cache (warm: loads), Python's start
    and the imports included."""
    code = "from coinrow.census import warm_up\nwarm_up()\n"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}

    def once() -> float:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env=env)
        return time.perf_counter() - started

    cold = once()
    benchmark.pedantic(once, rounds=2, iterations=1)
    benchmark.extra_info["cold_seconds"] = cold
    benchmark.extra_info["warm_seconds"] = benchmark.stats.stats.min
