"""The SVG triangle: every cell against the tests' oracle, arrows, views, highlights, limits,
CLI, reprs."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import oracle
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinrow import Game, Position, Table, solve
from coinrow.cli import main
from coinrow.errors import (
    CoinrowError,
    IllegalMoveError,
    PictureError,
    RowTooLongError,
    SubgameError,
)
from coinrow.svg import (
    FIRST_COLOR,
    HIGHLIGHT_COLOR,
    SECOND_COLOR,
    SvgDiagram,
    html_page,
    triangle,
)

NS = "{http://www.w3.org/2000/svg}"

ROWS = [
    [1, 2, 4, 3],
    [3, 2, 2, 3, 1, 2],
    [1, 2, 2, 1, 2, 1, 1, 2],
    [-3, 5, -1, 0, -7],
    [Decimal("0.1"), Decimal("0.25"), Decimal("-0.3"), Decimal("1.5")],
    [Fraction(1, 3), Fraction(1, 2), Fraction(-2, 7), Fraction(5)],
    [10**30, 1, 10**29, 7],
    [42],
]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def svg_cells(root: ET.Element) -> dict[tuple[int, int], ET.Element]:
    found = {}
    for group in root.iter(f"{NS}g"):
        if group.get("class") == "cell":
            key = (int(group.attrib["data-i"]), int(group.attrib["data-j"]))
            assert key not in found
            found[key] = group
    return found


def player(n: int, i: int, j: int) -> str:
    return "first" if (n - (j - i + 1)) % 2 == 0 else "second"


def box(cell: ET.Element) -> tuple[float, float, float, float]:
    rect = cell.find(f"{NS}rect")
    assert rect is not None
    x, y = float(rect.attrib["x"]), float(rect.attrib["y"])
    return x, y, x + float(rect.attrib["width"]), y + float(rect.attrib["height"])


def arrow_tips(cell: ET.Element) -> dict[str, tuple[float, float, str]]:
    """Each optimal-move arrow of a cell: the tip of its head and its colour."""
    tips = {}
    for arrow in cell.findall(f"{NS}g"):
        if arrow.get("class") != "arrow":
            continue
        head = arrow.find(f"{NS}polygon")
        assert head is not None
        x, y = map(float, head.attrib["points"].split()[0].split(","))
        tips[arrow.attrib["data-move"]] = (x, y, head.attrib["fill"])
    return tips


def number(text: str) -> Fraction:
    """A cell's exact value ("8", "-0.35", "1/3")."""
    return Fraction(text)


def check_against_oracle(coins: list[object], view: str = "total") -> None:
    n = len(coins)
    root = parse(triangle(coins, view=view))  # type: ignore[arg-type]
    assert root.tag == f"{NS}svg"
    assert root.attrib["data-view"] == view
    found = svg_cells(root)
    assert set(found) == {(i, j) for i in range(n) for j in range(i, n)}
    for (i, j), cell in found.items():
        expected = oracle.value(coins, i, j) if view == "total" else oracle.margin(coins, i, j)
        assert number(cell.attrib["data-value"]) == expected
        moves = oracle.best_move_set(coins, i, j)
        assert tuple(cell.attrib["data-moves"].split(" ")) == moves  # texts between spaces
        assert cell.attrib["data-player"] == player(n, i, j)
        title = cell.find(f"{NS}title")
        assert title is not None and f"coins {i + 1}..{j + 1}" in (title.text or "")
        tips = arrow_tips(cell)
        if i == j:
            assert tips == {}
            continue
        assert set(tips) == set(moves)
        colour = FIRST_COLOR if player(n, i, j) == "first" else SECOND_COLOR
        left, _, right, bottom = box(cell)
        for move, (x, y, fill) in tips.items():
            assert fill == colour
            # Taking the left coin leads to i+1..j, the child below and to the right.
            child = found[(i + 1, j) if move == "L" else (i, j - 1)]
            c_left, c_top, c_right, _ = box(child)
            assert c_left < x < c_right
            assert bottom < c_top - 2 <= y <= c_top + 0.5
            assert (x > (left + right) / 2) == (move == "L")


@pytest.mark.parametrize("coins", ROWS, ids=lambda row: " ".join(map(str, row)))
@pytest.mark.parametrize("view", ["total", "margin"])
def test_every_cell_matches_the_oracle(coins: list[object], view: str) -> None:
    check_against_oracle(coins, view)


@given(st.lists(st.integers(-20, 20), min_size=1, max_size=9))
def test_every_cell_matches_the_oracle_random(coins: list[int]) -> None:
    check_against_oracle(coins)  # type: ignore[arg-type]


def test_seed_four_coin_example() -> None:
    found = svg_cells(parse(triangle([1, 2, 4, 3])))
    assert len(found) == 10
    top = found[(0, 3)]
    assert top.attrib["data-value"] == "5"
    assert top.attrib["data-moves"] == "L R"
    assert set(arrow_tips(top)) == {"L", "R"}  # both arrows drawn
    # After the 3 is taken Bob (green) should take the 4: one arrow, down and to the left.
    assert found[(0, 2)].attrib["data-player"] == "second"
    assert found[(0, 2)].attrib["data-moves"] == "R"
    assert arrow_tips(found[(0, 2)])["R"][2] == SECOND_COLOR


@pytest.mark.parametrize("coins", ROWS[:6])
def test_first_view_is_the_first_players_points(coins: list[object]) -> None:
    """The seed's table A: the first player's points from each subgame, checked against the
    oracle."""
    n = len(coins)
    found = svg_cells(parse(triangle(coins, view="first")))
    for (i, j), cell in found.items():
        mover_points = oracle.value(coins, i, j)
        total = oracle.total(coins, i, j)
        first_points = mover_points if player(n, i, j) == "first" else total - mover_points
        assert number(cell.attrib["data-value"]) == first_points


def test_seed_first_view_three_coins_left() -> None:
    """'from this position Alice will get 2 more points' (coins 1 2 4, Bob to move)."""
    found = svg_cells(parse(triangle([1, 2, 4, 3], view="first")))
    assert found[(0, 2)].attrib["data-value"] == "2"


def test_highlight_line_marks_path_and_moves() -> None:
    root = parse(triangle([1, 2, 4, 3], highlight="RRL"))
    found = svg_cells(root)
    lit = {key for key, cell in found.items() if cell.get("data-highlight") == "1"}
    assert lit == {(0, 3), (0, 2), (0, 1), (1, 1)}
    played = [g for g in root.iter(f"{NS}path") if g.get("class") == "played"]
    assert len(played) == 2  # RR were optimal: halos; L from 1 2 is a mistake
    mistakes = [g for g in root.iter(f"{NS}g") if g.get("class") == "played"]
    assert len(mistakes) == 1
    path = mistakes[0].find(f"{NS}path")
    assert path is not None
    assert path.attrib["stroke"] == HIGHLIGHT_COLOR and "stroke-dasharray" in path.attrib
    rect = found[(0, 3)].find(f"{NS}rect")
    assert rect is not None and rect.attrib["stroke"] == HIGHLIGHT_COLOR


def test_highlight_full_optimal_line_and_cells() -> None:
    table = Table([3, 2, 2, 3, 1, 2])
    found = svg_cells(parse(triangle(table, highlight=table.line)))
    assert sum(cell.get("data-highlight") == "1" for cell in found.values()) == 6
    found = svg_cells(parse(triangle(table, highlight={(1, 4), (2, 2)})))
    assert {k for k, c in found.items() if c.get("data-highlight")} == {(1, 4), (2, 2)}


def test_highlight_errors() -> None:
    with pytest.raises(SubgameError):
        triangle([1, 2], highlight={(1, 2)})
    with pytest.raises(IllegalMoveError):
        triangle([1, 2], highlight="LLL")
    with pytest.raises(IllegalMoveError):
        triangle([1, 2], highlight="LX")


def test_row_limits() -> None:
    found = svg_cells(parse(triangle(list(range(40)))))
    assert len(found) == 820
    with pytest.raises(RowTooLongError, match="at most 40 coins; this row has 41"):
        triangle(list(range(41)))
    assert issubclass(RowTooLongError, CoinrowError)
    assert issubclass(RowTooLongError, ValueError)
    empty = parse(triangle([]))
    assert svg_cells(empty) == {}
    assert "no coins" in "".join(empty.itertext())


def test_unknown_view_and_bad_size() -> None:
    with pytest.raises(PictureError, match="unknown view 'mean'"):
        triangle([1, 2], view="mean")  # type: ignore[arg-type]
    with pytest.raises(PictureError, match="size"):
        triangle([1, 2], size=0)


def test_size_fonts_and_long_values() -> None:
    root = parse(triangle([1, 2, 4, 3], size=960))
    assert root.attrib["width"] == "960"
    small = float(parse(triangle(list(range(40)))).attrib["width"])
    assert 1400 <= small <= 1500  # 36 px per coin
    big = 12345678901234567890
    # A short row widens its cells so that a long number is shown whole at a readable size.
    root = parse(triangle([big, 1]))
    cell = svg_cells(root)[(0, 1)]
    text = cell.find(f"{NS}text")
    assert text is not None and text.text == str(big) and float(text.attrib["font-size"]) >= 14
    left, _, right, _ = box(cell)
    assert right - left > 200
    # Forty coins keep their width: the number is cut, its exact value stays in data-value.
    cell = svg_cells(parse(triangle([big, *range(39)])))[(0, 0)]
    assert cell.attrib["data-value"] == str(big)
    text = cell.find(f"{NS}text")
    assert text is not None and text.text is not None and text.text.endswith("…")
    assert float(text.attrib["font-size"]) >= 7


def test_legend_names_the_colours_and_totals() -> None:
    text = " ".join(parse(triangle([8, 15, 3, 7])).itertext())
    assert "first player 22, second player 11: first player wins by 11" in text
    assert "first player to move" in text and "second player to move" in text
    assert "take the left coin" in text and "take the right coin" in text


def test_svg_diagram_is_a_str_for_jupyter() -> None:
    svg = triangle([1, 2])
    assert isinstance(svg, SvgDiagram) and isinstance(svg, str)
    assert svg._repr_svg_() == str(svg)
    page = html_page(svg, "a <title>")
    assert page.startswith("<!DOCTYPE html>") and str(svg) in page
    assert "a &lt;title&gt;" in page


def lit_cells(svg: str | None) -> set[tuple[int, int]]:
    assert svg is not None
    return {k for k, c in svg_cells(parse(svg)).items() if c.get("data-highlight") == "1"}


def test_jupyter_reprs() -> None:
    coins = [1, 2, 4, 3]
    solution = solve(coins)
    assert lit_cells(solution._repr_svg_()) == lit_cells(triangle(coins, highlight=solution.line))
    assert len(lit_cells(solution._repr_svg_())) == 4
    assert "<svg" in solution._repr_html_()
    table = Table(coins)
    assert lit_cells(table._repr_svg_()) == set()
    assert len(svg_cells(parse(table._repr_svg_() or ""))) == 10
    assert "<svg" in table._repr_html_()
    position = Position.start(coins).play("R")
    assert lit_cells(position._repr_svg_()) == {(0, 2)}
    assert "<svg" in position._repr_html_()
    assert lit_cells(Position.start([5]).play("L")._repr_svg_()) == set()
    game = Game(coins, "RL")
    assert lit_cells(game._repr_svg_()) == {(0, 3), (0, 2), (1, 2)}
    assert "<svg" in game._repr_html_()


def test_jupyter_reprs_of_long_rows_do_not_raise() -> None:
    coins = list(range(45))
    for shown in (solve(coins), Table(coins), Position.start(coins), Game(coins, "L")):
        assert shown._repr_svg_() is None
        html = shown._repr_html_()
        assert "at most 40 coins" in html and "<svg" not in html


def test_reprs_are_evaluable_or_bracketed_whatever_the_length() -> None:
    assert repr(solve([1, 2, 4, 3])) == "<Solution of 4 coins by reduction: tie at 5 each>"
    assert repr(Table([1, 2, 4, 3])) == "<Table of 4 coins: first 5, second 5>"
    assert repr(Position.start([1, 2, 4, 3]).play("L")) == "Position([1, 2, 4, 3], 1, 3)"
    assert repr(Position.start([1]).play("L")) == "Position([1], 1, 0)"
    from decimal import Decimal  # noqa: F401  (the evaluable reprs name it)
    from fractions import Fraction  # noqa: F401

    for game in (Game(list(range(100)), "LR"), Game(["0.5", "2"], "R"), Game(["1/3", 2], "")):
        assert repr(eval(repr(game))) == repr(game)  # the same form above 12 coins too
        again = eval(repr(game.position))
        assert again == game.position and hash(again) == hash(game.position)
    assert repr(Game([8, 15, 3, 7], "RL")) == "Game([8, 15, 3, 7], 'RL')"


def test_cli_writes_svg_matching_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t.svg"
    assert main(["table", "1", "2", "4", "3", "--svg", str(out)]) == 0
    assert f"wrote SVG to {out}" in capsys.readouterr().out
    found = svg_cells(ET.parse(out).getroot())
    assert len(found) == 10
    for (i, j), cell in found.items():
        assert number(cell.attrib["data-value"]) == oracle.value([1, 2, 4, 3], i, j)
        moves = oracle.best_move_set([1, 2, 4, 3], i, j)
        assert tuple(cell.attrib["data-moves"].split(" ")) == moves
    assert found[(0, 3)].attrib["data-value"] == "5"
    assert set(arrow_tips(found[(0, 3)])) == {"L", "R"}


def test_cli_margin_highlight_size_and_html(tmp_path: Path) -> None:
    svg, page = tmp_path / "m.svg", tmp_path / "m.html"
    args = ["table", "--margin", "--highlight", "best", "--size", "700", "--svg", str(svg)]
    assert main([*args, "--html", str(page), "-3", "5", "-1"]) == 0
    root = ET.parse(svg).getroot()
    assert root.attrib["data-view"] == "margin" and root.attrib["width"] == "700"
    found = svg_cells(root)
    assert {k: number(c.attrib["data-value"]) for k, c in found.items()} == {
        (i, j): oracle.margin([-3, 5, -1], i, j) for i in range(3) for j in range(i, 3)
    }
    assert sum(c.get("data-highlight") == "1" for c in found.values()) == 3
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and 'class="cell"' in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["table", *map(str, range(41))], "at most 40 coins; this row has 41"),
        (["table", "--svg", "x.svg", *map(str, range(41))], "at most 40 coins"),
        (["table", "--view", "mean", "1"], "unknown view 'mean'"),
        (["table", "--margin", "--view", "first", "1"], "either --margin or --view"),
        (["table", "--highlight", "LLL", "1", "2"], "the line has 3 moves"),
        (["table", "--size", "0", "--svg", "x.svg", "1"], "--size must be a positive"),
        (
            ["table", "--svg", "/no/such/dir/t.svg", "1"],
            "--svg /no/such/dir/t.svg: the folder /no/such/dir does not exist",
        ),
        (["table"], "no coins given"),
    ],
)
def test_cli_errors_are_one_line_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1


def contrast(ink: str, paper: str) -> float:
    """The WCAG contrast ratio of two #rrggbb colours."""

    def luminance(colour: str) -> float:
        channels = [int(colour[k : k + 2], 16) / 255 for k in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    dark, light = sorted((luminance(ink), luminance(paper)))
    return (light + 0.05) / (dark + 0.05)


def test_legend_words_are_readable_on_white_and_on_the_cells() -> None:
    """Issue 27: the downloadable SVG's second-player legend was #17803a, 4.34:1 on its cell
    fill (planted back: fails). Every coloured legend word: 4.5:1 on white and on either
    player's cell fill (small text, WCAG AA)."""
    from coinrow.rules import Rules
    from coinrow.svg import CELL_FILLS, variant_triangle
    from coinrow.tables import variant_table

    assert contrast("#17803a", CELL_FILLS["second"]) < 4.5  # the check can fail
    pictures = [
        triangle([8, 15, 3, 7]),
        variant_triangle(variant_table([4, 9, 1, 7], Rules.parse("misere"))),
    ]
    for picture in pictures:
        legend = parse(picture).find(f"{NS}g[@class='legend']")
        assert legend is not None
        inks = {text.get("fill") for text in legend.iter(f"{NS}text")} - {None}
        assert len(inks) >= 2  # each player's words in their colour
        for ink in inks:
            for paper in ("#ffffff", *CELL_FILLS.values()):
                assert contrast(str(ink), paper) >= 4.5, (ink, paper)


def test_on_demand_labels_and_reads_arrows_are_drawn_hidden() -> None:
    coins = [3, 1, 4, 1, 5]
    assert 'class="ij"' not in triangle(coins) and 'class="reads"' not in triangle(coins)
    root = parse(triangle(coins, on_demand=True))
    found = svg_cells(root)
    for (i, j), cell in found.items():
        labels = [t for t in cell.iter(f"{NS}text") if t.get("class") == "ij"]
        assert [t.text for t in labels] == [f"{i + 1},{j + 1}"]
        assert labels[0].get("visibility") == "hidden"
        reads = [g for g in cell.iter(f"{NS}g") if g.get("class") == "reads"]
        if i == j:
            assert reads == []
            continue
        assert len(reads) == 1 and reads[0].get("visibility") == "hidden"
        path = reads[0].find(f"{NS}path")
        assert path is not None
        numbers = [float(v) for v in re.findall(r"-?[\d.]+", path.attrib["d"])]
        # two shafts, each followed by its open head: the shafts' tips (x, y) are the 3rd and
        # 4th numbers of each quarter; each lands on the top of a cell this one reads
        tips = [(numbers[k + 2], numbers[k + 3]) for k in (0, len(numbers) // 2)]
        for (x, y), child in zip(tips, [(i + 1, j), (i, j - 1)], strict=True):
            left, top, right, _ = box(found[child])
            assert left < x < right and top - 2 <= y <= top + 0.5
    coin_labels = [
        t.text
        for g in root.iter(f"{NS}g")
        if g.get("class") == "coin"
        for t in g.iter(f"{NS}text")
        if t.get("class") == "ij"
    ]
    assert coin_labels == ["1", "2", "3", "4", "5"]
