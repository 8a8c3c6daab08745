"""A row is validated once, where it enters (the library's public functions, the CLI, the
web), as a :class:`coinrow.numbers.Row` carrying its number kind, int64 safety and size;
every layer below trusts it. The validation is counted through the public paths: one per
row given as a list, none for a ``Row``."""

from __future__ import annotations

import pickle
import warnings
from collections.abc import Callable, Iterator
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

import coinrow
import coinrow.numbers as numbers
from coinrow import Game, Position, Table, analyze, solve
from coinrow.cli import main
from coinrow.engines.dispatch import int64_safe
from coinrow.errors import InvalidCoinError, InvalidRowError
from coinrow.numbers import INT64_SAFE_LIMIT, Row


def test_a_row_carries_its_kind_size_and_int64_safety() -> None:
    row = Row.of([3, 1, 2])
    assert (row.kind, row.size, row.int64_safe) == ("int", 3, True)
    assert row == (3, 1, 2) and hash(row) == hash((3, 1, 2)) and repr(row) == "(3, 1, 2)"
    assert Row.of(row) is row
    assert Row.of("0.1 0.2").kind == "decimal" and Row.of([1, "1/3"]).kind == "fraction"
    assert Row.of([1, "1/3"]) == (Fraction(1), Fraction(1, 3))
    assert Row.of([Decimal("0.5"), 2]) == (Decimal("0.5"), Decimal(2))
    assert Row.of([]).int64_safe and not Row.of(["0.5"]).int64_safe
    # int64 safety as the kernels need it: the absolute values sum below 2**62
    edge = INT64_SAFE_LIMIT // 2
    assert Row.of([edge, -(edge - 1)]).int64_safe and not Row.of([edge, -edge]).int64_safe
    for coins in ([edge, -(edge - 1)], [edge, -edge], [2**70], [-1, 5]):
        assert Row.of(coins).int64_safe == int64_safe(list(coins))
    copy = pickle.loads(pickle.dumps(Row.of(["0.5", 1])))
    assert isinstance(copy, Row) and copy.kind == "decimal" and copy == (Decimal("0.5"), 1)
    for bad, error in (
        ([True], InvalidCoinError),
        ({1, 2}, InvalidRowError),
        ([1.0, "x"], InvalidCoinError),
    ):
        with pytest.raises(error):
            Row.of(bad)


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts every validation of a row (the one function that validates one)."""
    seen: list[int] = []
    validate: Callable[[Any], Any] = numbers._validated

    def counted(items: Any) -> Any:
        seen.append(1)
        return validate(items)

    monkeypatch.setattr(numbers, "_validated", counted)
    yield seen


CALLS: dict[str, Callable[[Any], object]] = {
    "solve": lambda coins: solve(coins),
    "solve misere": lambda coins: solve(coins, rules="misere", engine="table"),
    "solve take:2": lambda coins: solve(coins, rules="take:2"),
    "solve stone-game-ii": lambda coins: solve(coins, rules="stone-game-ii"),
    "Game take:2": lambda coins: Game(coins, "L1 R2", rules="take:2").best_moves(),
    "Game plain": lambda coins: Game(coins, "LR").guaranteed(),
    "Position circular": lambda coins: Position.start(coins, rules="circular").best_totals(),
    "Table take:2": lambda coins: Table(coins, rules="take:2").value_of(0, 3),
    "analyze": lambda coins: analyze(coins, "LRLR"),
    "analyze stone-game-ii": lambda coins: analyze(coins, ["L1", "L2"], rules="stone-game-ii"),
    "analyze players:3": lambda coins: analyze(coins, "LRL", rules="players:3"),
    "record": lambda coins: coinrow.Record(coins, "L2 R1", rules="take:2").game().totals,
}


@pytest.mark.parametrize("name", list(CALLS))
def test_the_library_validates_a_row_once(name: str, validations: list[int]) -> None:
    coins = [4, 9, 1, 7, 2, 8]
    CALLS[name](coins)
    assert len(validations) == 1, f"{name}: the row was validated {len(validations)} times"
    validations.clear()
    CALLS[name](Row.of(coins))
    assert len(validations) == 1  # Row.of itself: the call trusted the Row it was given


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "--json", "4", "9", "1", "7"],
        ["solve", "--json", "--rules", "take:2", "4", "9", "1", "7"],
        ["table", "--json", "--rules", "misere", "4", "9", "1", "7"],
    ],
    ids=" ".join,
)
def test_the_cli_validates_a_row_once(
    argv: list[str], validations: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 0
    capsys.readouterr()
    assert len(validations) == 1


def test_the_web_validates_a_row_once(validations: list[int]) -> None:
    with warnings.catch_warnings():  # starlette's TestClient warns about httpx on import
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from coinrow.web import create_app

    client = TestClient(create_app(), base_url="http://127.0.0.1")
    validations.clear()
    for path, body in [
        ("/api/solve", {"coins": [4, 9, 1, 7], "rules": "take:2"}),
        ("/api/play", {"coins": [4, 9, 1, 7], "rules": "stone-game-ii", "moves": "L1"}),
    ]:
        answer = client.post(path, json=body)
        assert answer.status_code == 200, answer.text
        assert len(validations) == 1, path
        validations.clear()
