"""Speed of every variant (docs/variants.md): pytest-benchmark, one round each.

    .venv/bin/python -m pytest benchmarks/test_variants_bench.py -n0 --benchmark-only

Sizes: 10^3 and 10^4 coins for every variant, the solve's time limit lifted explicitly
(``max_seconds=None``; the estimate of :func:`coinrow.engines.variants.variant_cost` is
printed beside each run); 10^7 for the O(n) ones (misère and Stone Game VII on the
compiled reduction). ``COINROW_VARIANT_SIZES`` (comma-separated) replaces
the quadratic variants' sizes, for a quick run (``1000``).
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from coinrow.benchmark import random_row
from coinrow.engines.variants import variant_cost
from coinrow.rules import Rules
from coinrow.variants import solve_variant

QUADRATIC = [
    "circular",
    "both-ends",
    "take:3",
    "take:100",
    "take:any",
    "reply:greedy",
    "players:3",
    "misere-dp",
]
LINEAR = ["misere", "stone-game-vii"]
SIZES = [int(size) for size in os.environ.get("COINROW_VARIANT_SIZES", "1000,10000").split(",")]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("rules", QUADRATIC)
def test_quadratic_variant(benchmark: Any, rules: str, n: int) -> None:
    engine = "table" if rules.endswith("-dp") else "reduction"  # misere-dp: the general DP
    rules = rules.removesuffix("-dp")
    row = random_row(n).tolist()
    if rules in ("circular", "reply:greedy"):
        solve_variant(row[:300], rules)  # load the compiled kernel first
    estimate, _ = variant_cost(row, Rules.parse(rules), fast=engine == "reduction")
    benchmark.extra_info["estimate_seconds"] = round(estimate, 3)
    benchmark.pedantic(
        solve_variant,
        args=(row, rules),
        kwargs={"engine_name": engine, "max_seconds": None},
        rounds=1,
        iterations=1,
    )


@pytest.mark.parametrize("n", [1000, 10_000, 10_000_000])
@pytest.mark.parametrize("rules", LINEAR)
def test_linear_variant(benchmark: Any, rules: str, n: int) -> None:
    from coinrow.engines import variants

    row = random_row(n)
    solve = variants.misere_solve if rules == "misere" else variants.stone_game_vii_solve
    solve(row[:100_001])  # compile once
    benchmark.pedantic(solve, args=(row if n >= 100_001 else row.tolist(),), rounds=3, iterations=1)
