"""Game records: round trips (text and JSON), the forgiving reader, the writer."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinrow import Record, RecordError, parse_records, read_records
from coinrow.record import append_record, load_records, parse_json_records

int_rows = st.lists(st.integers(-(10**30), 10**30), min_size=1, max_size=12)
decimal_rows = st.lists(
    st.decimals(allow_nan=False, allow_infinity=False, min_value=-(10**6), max_value=10**6,
                places=4),
    min_size=1, max_size=12,
)  # fmt: skip
fraction_rows = st.lists(
    st.fractions(min_value=-100, max_value=100, max_denominator=50), min_size=1, max_size=12
)
header_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=20
).map(str.strip)
headers = st.dictionaries(
    header_text.filter(lambda key: key != "" and ":" not in key and not key.startswith("#")),
    header_text,
    max_size=4,
)


@st.composite
def records(draw: st.DrawFn) -> Record:
    coins = draw(st.one_of(int_rows, decimal_rows, fraction_rows))
    moves = draw(st.text(alphabet="LR", max_size=len(coins)))
    return Record(coins, moves, draw(headers))


def same(a: Record, b: Record) -> None:
    assert a == b
    assert a.coins == b.coins and a.moves == b.moves and a.headers == b.headers


@given(records())
def test_text_round_trip(record: Record) -> None:
    text = record.to_text()
    read = parse_records(text)
    assert read.errors == []
    (again,) = read.records
    same(again, record)
    assert again.to_text() == text  # the text form is canonical


@given(st.lists(records(), min_size=1, max_size=5))
def test_many_records_round_trip(many: list[Record]) -> None:
    read = parse_records("\n".join(record.to_text() for record in many))
    assert read.errors == [] and len(read.records) == len(many)
    for again, record in zip(read.records, many, strict=True):
        same(again, record)


@given(st.lists(records(), min_size=1, max_size=3))
def test_json_round_trip(many: list[Record]) -> None:
    text = json.dumps([record.to_dict() for record in many])
    read = load_records(text)
    assert read.errors == []
    for again, record in zip(read.records, many, strict=True):
        same(again, record)
        same(Record.from_dict(record.to_dict()), record)


def test_exact_values_survive() -> None:
    record = Record(["0.1", "1E+2", "0.30"], "LR", {"date": "2026-11-22"})
    assert record.coins == (Decimal("0.1"), Decimal("100"), Decimal("0.30"))
    assert record.to_text() == "# date: 2026-11-22\n0.1 100 0.30\nLR\n"
    (again,) = parse_records(record.to_text()).records
    assert again.coins[2] == Decimal("0.30") and str(again.coins[2]) == "0.30"
    thirds = Record([Fraction(1, 3), 2])
    assert parse_records(thirds.to_text()).records[0].coins == (Fraction(1, 3), Fraction(2))
    assert thirds.to_dict()["coins"] == ["1/3", "2"]


def test_format_details() -> None:
    text = """# players: Alice vs Bob
# date: 2026-11-22
# a plain comment
3, 2, 2, 3, 1, 2
l l r l l l
"""
    (record,) = parse_records(text).records
    assert record.players == "Alice vs Bob" and record.date == "2026-11-22"
    assert record.moves == "LLRLLL" and record.finished
    assert record.headers == {"players": "Alice vs Bob", "date": "2026-11-22"}
    assert record.game().totals == (8, 5)
    no_moves = parse_records("\n\n5 6 7\n\n\n").records
    assert [(r.coins, r.moves, r.finished) for r in no_moves] == [((5, 6, 7), "", False)]


def test_forgiving_reader_reports_lines_and_keeps_good_records() -> None:
    text = "\n".join(
        [
            "1 2 3",  # 1: good
            "LRL",
            "",
            "1 x 3",  # 4: bad coin
            "LRL",
            "",
            "1 2",  # 7
            "LLL",  # 8: too many moves
            "",
            "# players: a vs b",  # 10: no coins line
            "",
            "4 5",  # 12
            "LR",
            "RL",  # 14: a third line
            "",
            "# date: x",  # 16
            "# date: y",  # 17: duplicate header
            "1",
            "",
            "7 8",  # 20
            "LQ",  # 21: bad move
            "",
            "9 9",  # 23: good
        ]
    )
    read = parse_records(text)
    assert [r.coins for r in read.records] == [(1, 2, 3), (9, 9)]
    assert [error.line for error in read.errors] == [4, 8, 10, 14, 17, 21]
    messages = [error.message for error in read.errors]
    assert "not a number" in messages[0]
    assert "3 moves for a row of 2 coins" in messages[1]
    assert "no coins line" in messages[2]
    assert "unexpected third line" in messages[3]
    assert "appears twice" in messages[4]
    assert "'Q'" in messages[5]
    assert str(read.errors[0]).startswith("line 4: ")


def test_record_validation() -> None:
    empty = Record([])  # the empty row is a valid game worth 0
    assert empty.finished and empty.game().totals == (0, 0) and Record.from_dict(empty.to_dict())
    with pytest.raises(RecordError, match="2 moves for a row of 1"):
        Record([1], "LR")
    with pytest.raises(RecordError, match="contain no ':'"):
        Record([1], "", {"a:b": "c"})
    with pytest.raises(RecordError, match="one line"):
        Record([1], "", {"a": "b\nc"})
    assert Record([1], "", {" key ": " value "}).headers == {"key": "value"}
    assert len({Record([1], "L", {"a": "b"}), Record(["1"], "l", {"a": "b"})}) == 1


def test_json_errors() -> None:
    read = parse_json_records('[{"coins": [1, 2]}, {"coins": "x"}, 3, {"coins": [1], "extra": 1}]')
    assert len(read.records) == 1
    assert [error.message for error in read.errors] == [
        "record 2: a record needs 'coins', a list of values",
        "record 3: a record must be a JSON object, got int",
        "record 4: unknown record keys: extra",
    ]
    broken = parse_json_records("[{")
    assert broken.records == [] and "not valid JSON" in broken.errors[0].message
    bad_coin = parse_json_records('{"coins": [1, "nan"]}')
    assert "NaN" in bad_coin.errors[0].message


def test_files(tmp_path: Path) -> None:
    path = tmp_path / "games.txt"
    append_record(path, Record([1, 2], "RL", {"players": "a vs b"}))
    append_record(path, Record([3], "L"))
    assert path.read_text() == "# players: a vs b\n1 2\nRL\n\n3\nL\n"
    read = read_records(path)
    assert [r.coins for r in read.records] == [(1, 2), (3,)] and read.errors == []
    path.write_text("5 5")  # no final newline: still a separate record after appending
    append_record(path, Record([6]))
    assert [r.coins for r in read_records(path).records] == [(5, 5), (6,)]
    json_path = tmp_path / "games.json"
    json_path.write_text(json.dumps(Record([1], "L").to_dict()))
    assert read_records(json_path).records == [Record([1], "L")]
    missing = read_records(tmp_path / "nope.txt")
    assert missing.records == [] and "no such file" in missing.errors[0].message
