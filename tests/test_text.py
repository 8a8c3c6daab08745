"""The terminal triangle (Rich) and ``coinrow table`` in the terminal and as JSON."""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from fractions import Fraction

import oracle
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text

from coinrow import Table
from coinrow.cli import main
from coinrow.errors import RowTooLongError
from coinrow.text import ARROWS, columns, triangle

LEGEND_LINES = 3

FOUR_COINS = """\
1 2 4 3: first player 5, second player 5: a tie
cells: the most the player to move can get; ↘ take the left coin, ↙ take the right coin
blue: first player to move, green: second player to move
       5
       ↙↘
     5   5
     ↙   ↙↘
   2   4   4
   ↙   ↙    ↘
 1   2   4   3
----------------
 1   2   4   3
"""


def render(text: Text, width: int = 200) -> str:
    console = Console(record=True, width=width, force_terminal=True, color_system="truecolor")
    console.print(text, soft_wrap=True)
    return console.export_text()


def test_four_coins_exact_text() -> None:
    assert render(triangle([1, 2, 4, 3])) == FOUR_COINS


def style_at(line: Text, column: int) -> str:
    return str(line.get_style_at_offset(Console(), column))


def test_colours_follow_whose_turn() -> None:
    lines = triangle([1, 2, 4, 3]).split("\n")[LEGEND_LINES:]
    top, arrows, second = lines[0], lines[1], lines[2]
    assert "blue" in style_at(top, top.plain.index("5"))
    assert "blue" in style_at(arrows, arrows.plain.index("↙"))
    assert "green" in style_at(second, second.plain.index("5"))
    legend = triangle([1, 2]).split("\n")[2]
    assert "blue" in style_at(legend, legend.plain.index("blue"))
    assert "green" in style_at(legend, legend.plain.index("green"))


def check_rows_against_oracle(coins: list[object], view: str = "total") -> None:
    """Each row of cells lists the values of one width, left to right, and the arrow row under
    it has one arrow per optimal move of those cells (drawn from a list and from a Table)."""
    for drawn in (coins, Table(coins)):
        check_rows(coins, triangle(drawn, view=view).plain, view)  # type: ignore[arg-type]


def check_rows(coins: list[object], text: str, view: str) -> None:
    n = len(coins)
    lines = text.split("\n")[LEGEND_LINES:]
    assert len(lines) == 2 * n + 1
    for width in range(n, 0, -1):
        row = 2 * (n - width)
        expected = []
        moves = ""
        for i in range(n - width + 1):
            j = i + width - 1
            value = oracle.value(coins, i, j) if view == "total" else oracle.margin(coins, i, j)
            expected.append(value)
            moves += oracle.best_moves(coins, i, j) if width > 1 else ""
        assert [Fraction(cell) for cell in lines[row].split()] == expected
        if width > 1:
            arrows = lines[row + 1]
            assert arrows.count(ARROWS["L"]) == moves.count("L")
            assert arrows.count(ARROWS["R"]) == moves.count("R")
    assert [Fraction(cell) for cell in lines[-1].split()] == list(oracle.row(coins))


ROWS = [
    [3, 2, 2, 3, 1, 2],
    [-3, 5, -1, 0, -7],
    [Decimal("0.1"), Decimal("0.25"), Decimal("-0.3")],
    [Fraction(1, 3), Fraction(1, 2), Fraction(-2, 7), Fraction(5)],
    [7],
]


@pytest.mark.parametrize("coins", ROWS, ids=lambda row: " ".join(map(str, row)))
@pytest.mark.parametrize("view", ["total", "margin"])
def test_rows_match_the_oracle(coins: list[object], view: str) -> None:
    check_rows_against_oracle(coins, view)


@given(st.lists(st.integers(-99, 99), min_size=1, max_size=10))
def test_rows_match_the_oracle_random(coins: list[int]) -> None:
    check_rows_against_oracle(coins)  # type: ignore[arg-type]


def test_highlight_reverses_cells_and_marks_mistakes() -> None:
    lines = triangle([1, 2, 4, 3], highlight="RRL").split("\n")
    assert "highlighted line" in lines[LEGEND_LINES].plain
    body = lines[LEGEND_LINES + 1 :]
    assert "reverse" in style_at(body[0], body[0].plain.index("5"))
    assert "reverse" not in style_at(body[2], body[2].plain.rindex("5"))
    assert "⇘" in body[5].plain  # L from 1 2 is a mistake


def test_width_and_limits() -> None:
    assert columns([1, 2, 4, 3]) == 16
    assert columns([100, -3], "margin") == 12
    assert columns(list(range(1, 41))) == 40 * 6  # values up to 420: cells of 6 columns
    with pytest.raises(RowTooLongError):
        triangle(list(range(41)))
    assert triangle([]).plain.startswith("no coins\n")


def test_cli_prints_triangle(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "1", "2", "4", "3"]) == 0
    assert capsys.readouterr().out == FOUR_COINS


def test_cli_margin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "--margin", "1", "2", "4", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "minus the other's" in lines[1]
    assert lines[LEGEND_LINES].split() == ["0"]


def test_cli_refuses_a_narrow_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("COLUMNS", "30")
    assert main(["table", *map(str, range(100, 112))]) == 2
    err = capsys.readouterr().err
    assert "needs 72 columns but the terminal has 30" in err and err.count("\n") == 1


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "--json", "1", "2", "4", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["coins"] == [1, 2, 4, 3]
    assert (data["first_total"], data["second_total"], data["margin"]) == (5, 5, 0)
    assert len(data["cells"]) == 10
    for cell in data["cells"]:
        i, j = cell["i"], cell["j"]
        assert cell["value"] == oracle.value([1, 2, 4, 3], i, j)
        assert cell["margin"] == oracle.margin([1, 2, 4, 3], i, j)
        assert cell["moves"] == list(oracle.best_move_set([1, 2, 4, 3], i, j))
        assert cell["player"] == ("first" if (4 - (j - i + 1)) % 2 == 0 else "second")


def test_cli_json_exact_values_and_long_rows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "--json", "0.1", "1/3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["first_total"] == "1/3" and data["second_total"] == "1/10"
    assert main(["table", "--json", *map(str, range(60))]) == 0  # JSON is not a picture
    assert len(json.loads(capsys.readouterr().out)["cells"]) == 60 * 61 // 2
    assert main(["table", "--json", *map(str, range(1001))]) == 2
    assert "at most 1000 coins" in capsys.readouterr().err


def test_cli_first_view(capsys: pytest.CaptureFixture[str]) -> None:
    """The seed's table: in the cell of 1 2 4 (Bob to move) Alice gets 2 more points."""
    assert main(["table", "--view", "first", "1", "2", "4", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[LEGEND_LINES].split() == ["5"]
    assert lines[LEGEND_LINES + 2].split() == ["2", "4"]
