"""scripts/bench_compare.py's bookkeeping: the figures it reads from ``coinrow bench --json``
and which way each one is better (the runs themselves are measurements, not tests)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bench_compare.py"


def load_script() -> Any:
    spec = importlib.util.spec_from_file_location("bench_compare", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_flatten_names_engine_rows_and_sizes() -> None:
    script = load_script()
    bench = {
        "machine": {"cpus": 2},
        "engines": [{"n": 50, "engine": "table", "path": "python", "seconds": 0.5}],
        "reduction_sizes": [{"n": 1000, "ratio": 9.0, "scaling": 1.9}],
        "reduction_vs_sum": {"n": 1000, "ratio": 9.0},
        "interrupted": False,
    }
    assert script.flatten(bench) == {
        "engines.50|table|python.n": 50.0,
        "engines.50|table|python.seconds": 0.5,
        "reduction_sizes.1000.n": 1000.0,
        "reduction_sizes.1000.ratio": 9.0,
        "reduction_sizes.1000.scaling": 1.9,
    }


def test_best_keeps_the_lowest_time_and_the_highest_rate() -> None:
    script = load_script()
    rounds = [
        {"bench.table.kernel_seconds": 2.0, "census_plain_rows_per_cpu_second": 5.0},
        {"bench.table.kernel_seconds": 1.0, "census_plain_rows_per_cpu_second": 4.0},
    ]
    assert script.best(rounds) == {
        "bench.table.kernel_seconds": 1.0,
        "census_plain_rows_per_cpu_second": 5.0,
    }
    assert script.higher_is_better("bench.table.ratio")
    assert not script.higher_is_better("bench.reduction_sizes.1000.ratio")
