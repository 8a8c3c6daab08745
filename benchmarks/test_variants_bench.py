"""Speed of every variant (docs/variants.md): pytest-benchmark, one round each.

    .venv/bin/python -m pytest benchmarks/test_variants_bench.py -n0 --benchmark-only

Sizes: 10^3 and 10^4 coins for every variant (a size over the solve's limit, players:3 at
10^4, runs at the largest allowed size instead); 10^7 for the O(n) ones (misère and Stone
Game VII on the compiled reduction). ``COINROW_VARIANT_SIZES`` (comma-separated) replaces
the quadratic variants' sizes, for a quick run (``1000``).
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from coinrow.benchmark import random_row
from coinrow.rules import Rules
from coinrow.variants import MAX_VARIANT_WORK, solve_variant, variant_work

QUADRATIC = ["circular", "both-ends", "take:3", "take:any", "reply:greedy", "players:3"]
LINEAR = ["misere", "stone-game-vii"]
SIZES = [int(size) for size in os.environ.get("COINROW_VARIANT_SIZES", "1000,10000").split(",")]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("rules", QUADRATIC)
def test_quadratic_variant(benchmark: Any, rules: str, n: int) -> None:
    if variant_work(n, Rules.parse(rules)) > MAX_VARIANT_WORK:
        n = int(
            (2 * MAX_VARIANT_WORK / variant_work(1, Rules.parse(rules))) ** 0.5
        )  # the largest run
    row = random_row(n).tolist()
    if rules == "circular":
        solve_variant(row[:300], rules)  # load the compiled reduction first
    benchmark.pedantic(solve_variant, args=(row, rules), rounds=1, iterations=1)


@pytest.mark.parametrize("n", [1000, 10_000, 10_000_000])
@pytest.mark.parametrize("rules", LINEAR)
def test_linear_variant(benchmark: Any, rules: str, n: int) -> None:
    from coinrow.engines import variants

    row = random_row(n)
    solve = variants.misere_solve if rules == "misere" else variants.stone_game_vii_solve
    solve(row[:100_001])  # compile once
    benchmark.pedantic(solve, args=(row if n >= 100_001 else row.tolist(),), rounds=3, iterations=1)
