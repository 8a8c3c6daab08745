"""``coinrow bench`` runs and prints its documented keys (never asserts a time)."""

from __future__ import annotations

import json

import pytest

from coinrow.benchmark import numpy_top_value, textbook_first_total
from coinrow.cli import main


def test_bench_quick_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--quick", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {
        "machine",
        "engines",
        "reduction_sizes",
        "reduction_vs_sum",
        "reduction_vs_textbook",
        "table",
        "large_table",
        "interrupted",
    }
    assert data["interrupted"] is False
    assert {row["engine"] for row in data["engines"]} == {"reduction", "table", "memo", "linear"}
    assert set(data["reduction_vs_sum"]) == {
        "n",
        "cores",
        "runs",
        "sum_seconds",
        "copy_seconds",
        "reduction_seconds",
        "one_core_seconds",
        "ratio",
        "copy_ratio",
        "one_core_ratio",
        "scaling",
        "median_sum_seconds",
        "median_reduction_seconds",
        "median_ratio",
    }
    assert [row["n"] for row in data["reduction_sizes"]] == [10**5]
    assert data["reduction_sizes"][-1] == data["reduction_vs_sum"]
    assert set(data["reduction_vs_textbook"]) >= {"textbook_seconds", "ratio", "python_ratio"}
    assert set(data["table"]) >= {"subgames_per_second", "ratio", "ratio_fresh"}
    assert data["large_table"]["n"] == 300


def test_bench_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "--sizes", "30", "--sum-size", "1000", "--textbook-size", "30"]
    assert main([*args, "--table-size", "40", "--large-table-size", "0", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "Ratios measured in this run" in out and "subgames/s" in out


def test_bench_bad_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--sizes", "ten"]) == 2
    assert "comma-separated" in capsys.readouterr().err


def test_baselines_compute_the_right_values() -> None:
    import numpy as np

    from coinrow import Table

    coins = [3, 2, 2, 3, 1, 2, 9, -4]
    assert textbook_first_total(coins) == Table(coins).value_of(0, 7)
    assert numpy_top_value(np.array(coins)) == Table(coins).value_of(0, 7)


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("--sum-size=-1", "--sum-size must be 2 to 200,000,000"),
        ("--table-size=0", "--table-size must be 2 to 30,893"),
        ("--textbook-size=1", "--textbook-size must be 2 to 5,000"),
        ("--large-table-size=-5", "--large-table-size must be 0 to 30,893"),
        ("--repeat=0", "--repeat must be 1 to 100"),
        ("--sizes=0", "--sizes must be 1 to 10,000,000"),
    ],
)
def test_bench_rejects_impossible_sizes(
    option: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", option]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
