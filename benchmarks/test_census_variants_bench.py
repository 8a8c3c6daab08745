"""Census speed under other rules (run: ``pytest benchmarks/test_census_variants_bench.py
-n0``): rows per second of one core's CPU time for each variant through Python
(:func:`coinrow.variants.solve_variant` per row) and for the pizza compiled, at the row
lengths ``COINROW_BENCH_VARIANT_N`` (default 10) and 15; and the census of every pizza of 15
slices over {0, 1, 2} (14,348,907 rows), which finds the smallest share 4/9 (60 pizzas) and
no pizza below it. docs/census.md lists measured figures; the census's estimates
(:data:`coinrow.census.variants.PYTHON_RATES`, ``COMPILED_RATE``) come from them.
"""

from __future__ import annotations

import os
import time
from fractions import Fraction
from typing import Any

import pytest

from coinrow.census import Census, Words
from coinrow.census.shards import Job, run_shard

N = int(os.environ.get("COINROW_BENCH_VARIANT_N", "10"))

PYTHON = ["circular", "misere", "stone-game-vii", "take:2", "take:any", "both-ends",
          "reply:greedy"]  # fmt: skip


def rate(rules: str, family: Words, *, rows: int | None = None) -> float:
    """Rows per second of CPU time of one shard of ``rows`` rows (best of three)."""
    count = rows or family.rows
    job = Job(family, (), 3, False, count, rules=rules)
    shard = job.plan()[0]
    run_shard(Job(Words.of("0,1", 3), (), 3, False, 8, rules=rules), Job(
        Words.of("0,1", 3), (), 3, False, 8, rules=rules).plan()[0])  # fmt: skip
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        result = run_shard(job, shard)
        best = min(best, time.process_time() - started)
    assert result.rows == shard.count
    return shard.count / best


@pytest.mark.parametrize("rules", PYTHON)
@pytest.mark.parametrize("n", [N, 15])
def test_variant_rows_per_second(benchmark: Any, rules: str, n: int) -> None:
    family = Words.of("0,1,2", n)
    compiled = rules == "circular"
    figure = rate(rules, family, rows=min(family.rows, 1 << 18 if compiled else 4096))
    benchmark.extra_info["rows_per_second"] = figure
    benchmark.extra_info["compiled"] = compiled
    benchmark.pedantic(lambda: None, rounds=1, iterations=1)
    print(f"{rules} n={n} {'compiled' if compiled else 'Python'}: {figure:,.0f} rows/s")


def test_every_pizza_of_15_slices_over_0_1_2(benchmark: Any) -> None:
    family = Words.of("0,1,2", 15)

    def census() -> Any:
        return Census(family, rules="circular", examples=60).run(workers=0)

    result = benchmark.pedantic(census, rounds=1, iterations=1)
    variant = result.variant
    assert variant.share == Fraction(4, 9) and variant.reaching == 60
    assert variant.below_four_ninths == 0
    benchmark.extra_info["rows_per_second"] = result.rows_per_second
