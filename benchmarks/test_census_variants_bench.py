"""Census speed under other rules (run: ``pytest benchmarks/test_census_variants_bench.py
-n0``): rows per second of one core's CPU time for each variant through Python
(:func:`coinrow.variants.solve_variant` per row) and for the pizza compiled, at the row
lengths ``COINROW_BENCH_VARIANT_N`` (default 10) and 15; and the census of every pizza of 15
slices over {0, 1, 2} (14,348,907 rows), which finds the smallest share 4/9 (60 pizzas) and
no pizza below it. docs/census.md lists measured figures; the census's estimates
(:data:`coinrow.census.variants.ROW_COSTS`) come from them.
"""

from __future__ import annotations

import os
import time
from fractions import Fraction
from typing import Any

import pytest

from coinrow.census import Census, Words
from coinrow.census.shards import Job, run_shard
from coinrow.census.variants import _python_shard, compiled_path
from coinrow.rules import Rules

N = int(os.environ.get("COINROW_BENCH_VARIANT_N", "10"))

RULES = ["circular", "misere", "stone-game-vii", "take:2", "take:any", "both-ends",
         "reply:greedy"]  # fmt: skip


def compiled_rate(rules: str, family: Words, rows: int) -> float:
    """Rows per second of CPU time of one compiled shard of ``rows`` rows (best of three)."""
    job = Job(family, (), 3, False, rows, rules=rules)
    shard = job.plan()[0]
    warm = Job(Words.of("0,1", 3), (), 3, False, 8, rules=rules)
    run_shard(warm, warm.plan()[0])  # load the compiled kernels first
    return shard.count / min(_cpu(run_shard, job, shard) for _ in range(3))


def python_rate(rules: str, family: Words, rows: int) -> float:
    """Rows per second of CPU time through Python (solve_variant per row), best of three."""
    shard = next(iter(family.shards(rows)))
    chosen = Rules.parse(rules)
    return shard.count / min(_cpu(_python_shard, family, shard, chosen, 3) for _ in range(3))


def _cpu(function: Any, *args: Any) -> float:
    started = time.process_time()
    function(*args)
    return time.process_time() - started


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("n", [N, 15])
def test_variant_rows_per_second(benchmark: Any, rules: str, n: int) -> None:
    family = Words.of("0,1,2", n)
    python = python_rate(rules, family, 2048)
    benchmark.extra_info["python_rows_per_second"] = python
    line = f"{rules} n={n}: Python {python:,.0f} rows/s"
    if compiled_path(family, Rules.parse(rules)):
        compiled = compiled_rate(rules, family, 1 << 17)
        benchmark.extra_info["compiled_rows_per_second"] = compiled
        line += f", compiled {compiled:,.0f} rows/s"
    benchmark.pedantic(lambda: None, rounds=1, iterations=1)
    print(line)


def test_every_pizza_of_15_slices_over_0_1_2(benchmark: Any) -> None:
    family = Words.of("0,1,2", 15)

    def census() -> Any:
        return Census(family, rules="circular", examples=60).run(workers=0)

    result = benchmark.pedantic(census, rounds=1, iterations=1)
    variant = result.variant
    assert variant.share == Fraction(4, 9) and variant.reaching == 60
    assert variant.below_four_ninths == 0
    benchmark.extra_info["rows_per_second"] = result.rows_per_second
