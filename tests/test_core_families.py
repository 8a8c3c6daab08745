"""Focused tests of census/families.py: each family's order against an independent
enumeration, every cut into shards giving the same rows, and the limits. Also the mutation
subset of scripts/mutate.py."""

from __future__ import annotations

from itertools import product

import pytest

from coinrow import InvalidOptionError
from coinrow.census.families import (
    Compositions,
    Family,
    RandomRows,
    Words,
    WordsUpTo,
    family_from_dict,
)


def compositions(total: int) -> set[tuple[int, ...]]:
    if total == 0:
        return {()}
    return {(first, *rest) for first in range(1, total + 1) for rest in compositions(total - first)}


def walk(family: Family, shard_rows: int) -> list[tuple[int, ...]]:
    shards = list(family.shards(shard_rows))
    ends = [shard.start + shard.count for shard in shards]
    assert [shard.start for shard in shards] == [0, *ends[:-1]] and ends[-1] == family.rows
    assert all(shard.count > 0 for shard in shards)
    return [row for shard in shards for row in family.rows_of(shard)]


def test_words_in_order() -> None:
    family = Words.of("3,1,2,1", 3)
    expected = list(product((1, 2, 3), repeat=3))
    assert family.rows == 27 and family.max_length == 3 and family.max_abs == 3
    assert [family.row(i) for i in range(27)] == expected
    for shard_rows in (1, 2, 5, 27, 100):
        assert walk(family, shard_rows) == expected
    assert family.margin_bound == 9 and family.closed_under_reversal
    assert Words.of("-4,1", 2).max_abs == 4


def test_words_up_to_in_order() -> None:
    family = WordsUpTo.of("1,2", 3)
    expected = [row for n in (1, 2, 3) for row in product((1, 2), repeat=n)]
    assert family.rows == 14 and family.max_length == 3 and family.max_abs == 2
    assert [family.row(i) for i in range(14)] == expected
    for shard_rows in (1, 3, 4, 14):
        assert walk(family, shard_rows) == expected


def test_compositions_in_order() -> None:
    for total in range(1, 8):
        family = Compositions.of(total)
        rows = [family.row(i) for i in range(family.rows)]
        assert family.rows == 2 ** (total - 1) and set(rows) == compositions(total)
        assert len(set(rows)) == len(rows) and family.max_length == total
        for shard_rows in (1, 3, 8):
            assert walk(family, shard_rows) == rows
    family = Compositions.of(5)
    assert family.row(6) == (2, 1, 2) and family.label(6) == 22


def test_random_rows_are_reproducible_in_every_cut() -> None:
    family = RandomRows.of(10, 4, "1..9", seed=1)
    rows = [family.row(i) for i in range(10)]
    assert all(len(row) == 4 and set(row) <= set(range(1, 10)) for row in rows)
    assert len(set(rows)) > 1 and family.max_abs == 9
    for shard_rows in (1, 3, 10):
        assert walk(family, shard_rows) == rows
    assert RandomRows.of(10, 4, "1..9", seed=2).row(0) != rows[0] or rows[1:] != [
        RandomRows.of(10, 4, "1..9", seed=2).row(i) for i in range(1, 10)
    ]


def test_limits() -> None:
    cases = [
        (lambda: Words.of("1,2", 0), "the row length must be at least 1, got 0"),
        (lambda: WordsUpTo.of("1,2", 0), "the longest row must be at least 1 coin, got 0"),
        (lambda: Compositions.of(0), "compositions need a total of at least 1, got 0"),
        (lambda: Words.of("", 3), "the alphabet is empty: give values such as 1,2"),
        (lambda: Words.of("1,0.5", 3), "the census needs integer coin values, got 0.5"),
    ]
    for call, message in cases:
        with pytest.raises(InvalidOptionError) as info:
            call()
        assert str(info.value) == message
    with pytest.raises(InvalidOptionError, match=r"int64 kernels"):
        Words.of([2**61, 1], 4).check_int64()
    Words.of([2**40, 1], 4).check_int64()


FAMILIES = [
    (Words.of("2,1", 3), {"kind": "words", "alphabet": [1, 2], "length": 3},
     "rows of length 3 over {1, 2}"),
    (WordsUpTo.of("1,2", 3), {"kind": "words_up_to", "alphabet": [1, 2], "max_length": 3},
     "rows of length 1 to 3 over {1, 2}"),
    (Compositions.of(5), {"kind": "compositions", "total": 5}, "compositions of 5"),
    (RandomRows.of(10, 4, "1..9", seed=1),
     {"kind": "random", "count": 10, "length": 4, "values": "1..9", "seed": 1, "block": 65536},
     "10 random rows of length 4, values 1..9, seed 1"),
]  # fmt: skip


@pytest.mark.parametrize(("family", "data", "text"), FAMILIES)
def test_descriptions_and_round_trips(family: Family, data: dict[str, object], text: str) -> None:
    assert family.to_dict() == data and family.describe() == text
    assert family_from_dict(family.to_dict()) == family


def test_shard_starts_and_unknown_kinds() -> None:
    cut = [(s.start, s.count, s.length, s.first) for s in Words.of("2,1", 3).shards(3)]
    assert cut == [(0, 3, 3, (0, 0, 0)), (3, 3, 3, (0, 1, 1)), (6, 2, 3, (1, 1, 0))]
    cut = [(s.start, s.count, s.length, s.first) for s in WordsUpTo.of("1,2", 3).shards(3)]
    assert cut[:4] == [(0, 2, 1, (0,)), (2, 3, 2, (0, 0)), (5, 1, 2, (1, 1)), (6, 3, 3, (0, 0, 0))]
    cut = [(s.start, s.count, s.length, s.first) for s in Compositions.of(5).shards(3)]
    assert cut[:4] == [(0, 3, 5, (0, 0, 0, 0)), (3, 3, 5, (0, 0, 1, 1)), (6, 3, 5, (0, 1, 1, 0)),
                       (9, 3, 5, (1, 0, 0, 1))]  # fmt: skip
    with pytest.raises(InvalidOptionError, match=r"^unknown family kind 'nope'$"):
        family_from_dict({"kind": "nope"})


def test_random_blocks() -> None:
    pytest.importorskip("numpy")
    family = RandomRows.of(7, 3, "1,2,5", seed=4)
    block = family.block(0)
    assert block.shape == (7, 3) and str(block.dtype) == "int64"
    assert [tuple(map(int, row)) for row in block] == [family.row(i) for i in range(7)]
    assert family.row(0) == (5, 5, 5) and set(block.ravel().tolist()) <= {1, 2, 5}
    wide = RandomRows.of(200, 5, "1..3", seed=9)
    assert set(wide.block(0).ravel().tolist()) == {1, 2, 3}  # both ends are drawn
    assert RandomRows.of(10, 4, "1..9", seed=1).row(0) == (5, 5, 7, 9)
    assert RandomRows.of(10, 4, "1..9", seed=2).row(0) != (5, 5, 7, 9)


def test_boundaries_found_by_mutation() -> None:
    assert Words.of("1,2", 1).rows == 2 and WordsUpTo.of("1,2", 1).rows == 2
    assert RandomRows.of(1, 1, "1..9").rows == 1 and RandomRows.of(1, 1, "1..9").seed == 0
    for call, message in (
        (
            lambda: RandomRows.of(0, 3, "1..9"),
            "the number of random rows must be at least 1, got 0",
        ),
        (lambda: RandomRows.of(3, 0, "1..9"), "the row length must be at least 1, got 0"),
    ):
        with pytest.raises(InvalidOptionError) as info:
            call()
        assert str(info.value) == message
    with pytest.raises(InvalidOptionError, match=r"^the census needs integer coin values, got"):
        RandomRows.of(3, 3, "0.5,1")
    too_many = r"[\d,]+ shards of 1 row, more than the 4,194,304 a census plans; give larger"
    for family in (Words.of("1,2", 23), Compositions.of(24)):
        with pytest.raises(InvalidOptionError, match=too_many):
            family.shards(1)
    assert [s.key for s in Compositions.of(3).shards(2)] == ["c3-0", "c3-1"]


def test_random_rows_across_blocks() -> None:
    pytest.importorskip("numpy")
    from coinrow.census.families import RANDOM_BLOCK

    family = RandomRows.of(RANDOM_BLOCK + 5, 2, "1,2", seed=3)
    shards = family.shards(10)
    assert [(s.key, s.start, s.count, s.length) for s in shards] == [
        ("r-0", 0, RANDOM_BLOCK, 2),
        ("r-1", RANDOM_BLOCK, 5, 2),
    ]
    last = family.block(1)
    assert last.shape == (5, 2) and family.row(RANDOM_BLOCK + 4) == tuple(map(int, last[4]))
    assert set(family.block(0).ravel().tolist()) == {1, 2}  # the first choice is drawn too
