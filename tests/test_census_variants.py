"""Censuses under other rules (``Census(..., rules=R)``, ``coinrow census --rules R``):
every count against the brute-force game-tree searches of tests/variants_oracle.py, the
pizza's 4/9 bound and its tight example, resume with rules, and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import variants_oracle as oracle

from coinrow import solve
from coinrow.census import Census, Compositions, Family, RandomRows, Words, WordsUpTo
from coinrow.census.variants import VariantTally, rows_per_second
from coinrow.cli import main
from coinrow.errors import CensusStoreError, InvalidOptionError, RulesError, UnsupportedRulesError
from coinrow.rules import Rules

#: A pizza of 15 slices where the first player gets exactly 4/9, found by the census of
#: every pizza of 15 slices over {0, 1, 2} (60 pizzas reach 4/9; none of fewer slices over
#: {0, 1, 2} does, and none goes below).
TIGHT_PIZZA = (0, 0, 1, 0, 1, 0, 0, 1, 0, 2, 0, 0, 2, 0, 2)

KINDS = {
    "take:3": ("take", 3),
    "misere": ("misere", 1),
    "stone-game-vii": ("svii", 1),
    "take:2": ("take", 2),
    "take:any": ("take", None),
    "both-ends": ("both", 1),
}


def expected_row(coins: Sequence[int], rules: str) -> tuple[int, tuple[str, ...], int | None]:
    """(margin: first total minus second, optimal first moves as the census names them,
    first total or None for Stone Game VII's points), by the oracle."""
    total = sum(coins)
    if rules == "circular":
        margin, _ = oracle.pizza(coins)
        return margin, (), (total + margin) // 2
    if rules == "reply:greedy":
        first, firsts = oracle.reply(coins, oracle.greedy)
        best = [move for move, value in firsts.items() if value == first]
        return 2 * first - total, tuple(best), first
    kind, take = KINDS[rules]
    objective, firsts = oracle.two_player(coins, kind, take)
    best = [move for move, value in firsts.items() if value == objective]
    moves = tuple(best)
    margin = -objective if kind == "misere" else objective
    return margin, moves, None if kind == "svii" else (total + margin) // 2


def expected(family: Family, rules: str, keep: int = 3) -> dict[str, Any]:
    """Histogram, outcomes, first moves, worst share (with its rows) and rows below 4/9 of
    every row of the family, by the oracle."""
    histogram: dict[int, int] = {}
    moves: dict[tuple[str, ...], int] = {}
    shares: list[tuple[Fraction, int, tuple[int, ...]]] = []
    excluded = below = 0
    for index in range(family.rows):
        row = family.row(index)
        margin, first_moves, first = expected_row(row, rules)
        histogram[margin] = histogram.get(margin, 0) + 1
        if rules != "circular":
            moves[first_moves] = moves.get(first_moves, 0) + 1
        if first is None:
            continue
        if sum(row) <= 0:
            excluded += 1
            continue
        share = Fraction(first, sum(row))
        below += share < Fraction(4, 9)
        shares.append((share, family.label(index), row))
    sign = -1 if rules == "misere" else 1
    worst = (max if rules == "misere" else min)(s for s, _, _ in shares) if shares else None
    reaching = [(label, list(row)) for s, label, row in shares if s == worst]
    return {
        "histogram": dict(sorted(histogram.items())),
        "outcomes": {
            "first": sum(c for m, c in histogram.items() if sign * m > 0),
            "tie": histogram.get(0, 0),
            "second": sum(c for m, c in histogram.items() if sign * m < 0),
        },
        "first_moves": dict(sorted(moves.items())),
        "share": None if worst is None else str(worst),
        "reaching": len(reaching),
        "examples": reaching[:keep],
        "excluded": excluded,
        "below": below,
    }


def check(result: Any, want: dict[str, Any], rules: str) -> None:
    assert result.histogram == want["histogram"]
    assert result.outcomes == want["outcomes"]
    assert result.first_moves == want["first_moves"]
    variant = result.to_dict()["variant"]
    assert variant["rules"] == rules
    share = variant["share"]
    if rules == "stone-game-vii":
        assert share is None
        return
    assert share["value"] == want["share"]
    assert share["rows"] == want["reaching"]
    assert share["excluded_rows"] == want["excluded"]
    got = [(example["index"], example["coins"]) for example in share["examples"]]
    assert got == want["examples"]
    for example in share["examples"]:
        assert Fraction(example["first_total"], example["total"]) == Fraction(share["value"])
    if rules == "circular":
        assert variant["four_ninths"]["rows_below"] == want["below"]


@pytest.mark.parametrize("rules", ["misere", "stone-game-vii", "take:2", "take:any",
                                   "both-ends", "reply:greedy", "circular"])  # fmt: skip
@pytest.mark.parametrize(
    "family", [Words.of("0,1,2", 5), Words.of("-1,0,2", 4), Compositions.of(7)], ids=str
)
def test_every_variant_matches_the_oracle(rules: str, family: Family) -> None:
    result = Census(family, rules=rules, shard_rows=40).run(workers=0)
    assert result.rules == rules and result.rows == family.rows
    assert result.variant is not None
    assert result.variant.compiled == (isinstance(family, Words) and rules != "reply:greedy")
    check(result, expected(family, rules), rules)


@pytest.mark.parametrize("rules", ["circular", "misere", "stone-game-vii", "take:3",
                                   "take:any", "both-ends"])  # fmt: skip
def test_compiled_kernels_on_words_and_random_rows_match_the_oracle(rules: str) -> None:
    for family in (Words.of("0,1,2,3", 5), WordsUpTo.of("0,1", 8), Words.of("-1,0,2", 5),
                   RandomRows.of(200, 8, "-2..5", 3)):  # fmt: skip
        result = Census(family, rules=rules, shard_rows=300, examples=5).run(workers=0)
        assert result.variant is not None and result.variant.compiled
        check(result, expected(family, rules, keep=5), rules)


def test_the_python_pizza_on_compositions() -> None:
    python = Census(Compositions.of(8), rules="circular").run(workers=0)
    assert python.variant is not None and not python.variant.compiled


def test_the_tight_pizza_gives_exactly_four_ninths() -> None:
    solution = solve(TIGHT_PIZZA, rules="circular")
    assert Fraction(solution.first_total, sum(TIGHT_PIZZA)) == Fraction(4, 9)
    assert solution.totals == (4, 5)
    margin, firsts = oracle.pizza(TIGHT_PIZZA)
    assert Fraction((sum(TIGHT_PIZZA) + margin) // 2, sum(TIGHT_PIZZA)) == Fraction(4, 9)
    assert solution.first_moves == tuple(s for s, m in firsts.items() if m == margin)
    # its rotations and its mirror image too
    for turned in (TIGHT_PIZZA[5:] + TIGHT_PIZZA[:5], TIGHT_PIZZA[::-1]):
        assert solve(turned, rules="circular").first_total == 4


def test_pizza_census_never_goes_below_four_ninths_and_names_its_minimum() -> None:
    family = Words.of("0,1,2", 8)
    result = Census(family, rules="circular", examples=4).run(workers=0)
    want = expected(family, "circular", keep=4)
    check(result, want, "circular")
    four_ninths = result.to_dict()["variant"]["four_ninths"]
    assert four_ninths == {"applies": True, "rows_below": 0, "holds": True}
    assert want["share"] == "1/2" and want["below"] == 0
    negative = Census(Words.of("-1,0,2", 4), rules="circular").run(workers=0)
    assert negative.to_dict()["variant"]["four_ninths"]["applies"] is False


def test_shards_merge_to_the_same_tally() -> None:
    family = Words.of("0,1,2", 6)
    one = Census(family, rules="take:2", shard_rows=729).run(workers=0)
    many = Census(family, rules="take:2", shard_rows=50).run(workers=0)
    assert one.to_dict()["variant"] == many.to_dict()["variant"]
    assert one.histogram == many.histogram
    tally = one.variant
    assert tally is not None and VariantTally.from_json(tally.to_json()) == tally


def test_resume_with_rules(tmp_path: Path) -> None:
    folder = tmp_path / "pizza"
    family = Words.of("0,1,2", 7)
    first = Census(family, rules="circular", out=folder, shard_rows=200).run(workers=0)
    lines = [json.loads(line) for line in (folder / "manifest.jsonl").read_text().splitlines()]
    assert lines[0]["job"]["rules"] == "circular"
    shards = [line for line in lines if "shard" in line]
    (folder / shards[2]["file"]).write_bytes(b"damaged")
    resumed = Census(family, rules="circular", out=folder, shard_rows=200, resume=True)
    assert [shard.key for shard in resumed.missing()] == [shards[2]["shard"]]
    again = resumed.run(workers=0)
    assert again.computed == 1 and again.to_dict()["variant"] == first.to_dict()["variant"]
    assert again.histogram == first.histogram
    with pytest.raises(CensusStoreError, match="rules"):
        Census(family, rules="misere", out=folder, shard_rows=200, resume=True)
    with pytest.raises(CensusStoreError, match="rules"):
        Census(family, out=folder, shard_rows=200, resume=True)


def test_a_shard_of_another_rules_is_computed_again(tmp_path: Path) -> None:
    family = Words.of("0,1,2", 5)
    pizza, misere = tmp_path / "pizza", tmp_path / "misere"
    Census(family, rules="circular", out=pizza, shard_rows=100).run(workers=0)
    Census(family, rules="misere", out=misere, shard_rows=100).run(workers=0)
    name = "shard-w5-0.parquet"
    (pizza / name).write_bytes((misere / name).read_bytes())
    manifest = (pizza / "manifest.jsonl").read_text()
    lines = [json.loads(line) for line in manifest.splitlines()]
    for line in lines:
        if line.get("file") == name:
            import hashlib

            line["sha256"] = hashlib.sha256((pizza / name).read_bytes()).hexdigest()
            line["size"] = (pizza / name).stat().st_size
    (pizza / "manifest.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    with Census(family, rules="circular", out=pizza, shard_rows=100, resume=True) as resumed:
        recomputed = resumed.recomputed
    assert recomputed == [{"shard": "w5-0", "reason": f"its file {name} belongs to another census"}]


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (lambda: Census(Words.of("1,2", 4), rules="players:3"), UnsupportedRulesError,
         "two-player games only"),
        (lambda: Census(Words.of("1,2", 4), ["greedy"], rules="circular"),
         UnsupportedRulesError, "strategies in the plain game only"),
        (lambda: Census(Words.of("1,2", 4), rules="misere", rows=True, out="x"),
         UnsupportedRulesError, "every row's result in the plain game only"),
        (lambda: Census(Words.of("1,2", 4), rules="pizza"), RulesError, "unknown rules"),
        (lambda: Census(Words.of("1,2,3", 24), rules="reply:greedy"), InvalidOptionError,
         "through Python"),
    ],
)  # fmt: skip
def test_rules_a_census_cannot_take(build: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        build()


def test_the_estimate_follows_the_path() -> None:
    compiled = rows_per_second(Words.of("0,1,2", 15), Rules.parse("circular"))
    python = rows_per_second(Compositions.of(15), Rules.parse("circular"))
    assert compiled > 100 * python
    family = Words.of("0,1,2", 12)
    census = Census(family, rules="circular")
    rate = rows_per_second(family, Rules.parse("circular"))
    assert census.estimated_seconds() == pytest.approx(3**12 / rate)


# --- the command line ----------------------------------------------------------------------


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["census", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_cli_pizza_json_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = cli(
        capsys, "--rules", "circular", "--length", "6", "--values", "0,1,2,3", "--json"
    )
    assert status == 0, err
    data = json.loads(out)
    want = expected(Words.of("0,1,2,3", 6), "circular")
    assert data["rules"] == "circular" and data["outcomes"] == want["outcomes"]
    assert data["variant"]["share"]["value"] == "1/2" == want["share"]
    assert data["variant"]["four_ninths"]["holds"] is True
    status, out, err = cli(capsys, "--rules", "circular", "--length", "5", "--values", "0,1,2")
    assert status == 0, err
    assert "smallest first-player share is 1/2" in out
    assert "The 4/9 bound holds: 0 rows below 4/9." in out
    status, out, _ = cli(capsys, "--rules", "take:2", "--length", "4", "--values", "0,1,2")
    assert status == 0 and "Optimal first moves (rows per set of moves)" in out
    plain = json.loads(cli(capsys, "--length", "4", "--json")[1])
    assert plain["rules"] == "plain" and plain["variant"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--rules", "pizza"), "unknown rules 'pizza'"),
        (("--rules", "take:0"), "rules 'take:0'"),
        (("--rules", "players:3"), "players:3:left: the census counts two-player games only"),
        (("--rules", "circular", "-s", "greedy"), "rules circular: the census checks"),
        (("--rules", "reply:greedy", "--values", "1,2,3", "--length", "24"), "through Python"),
    ],
)
def test_cli_bad_rules_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    status, out, err = cli(capsys, "--length", "4", *args)
    assert status == 2 and not out
    assert err.count("\n") == 1 and message in err and err.startswith("coinrow: error: ")


def test_cli_in_a_process_exits_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "coinrow", "census", "--rules", "pizza", "--length", "4"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1


def test_kernels_warm_knows_the_variant_paths(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import rich.console

    from coinrow.census import kernels_warm
    from coinrow.cli.census import _compile_notice

    Census(Words.of("0,1", 3), rules="both-ends").run(workers=0)  # loads or compiles it
    assert kernels_warm(Words.of("0,1,2", 9), "both-ends")
    assert kernels_warm(Compositions.of(9), "misere")  # through Python: nothing to compile
    assert kernels_warm(Words.of("0,1,2", 9), "reply:greedy")
    monkeypatch.setattr(rich.console.Console, "is_terminal", property(lambda self: True))
    _compile_notice(Census(Words.of("0,1", 3), rules="both-ends"))
    assert capsys.readouterr().err == ""
    # on a terminal the progress bar runs too, and the result is the same
    status, out, _ = cli(capsys, "--rules", "both-ends", "--length", "5")
    assert status == 0 and ": 32 rows, 1 shard" in out
