"""Pictures of the variants: the triangle of every interval variant (SVG, text, Jupyter,
``coinrow table --rules R``) and the pizza as a ring (SVG, text, Jupyter, ``coinrow solve
--rules circular --svg``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from coinrow import PictureError, RowTooLongError, Table, UnsupportedRulesError, solve
from coinrow.cli import main
from coinrow.rules import Rules
from coinrow.svg import ring, variant_triangle
from coinrow.text import ring as text_ring
from coinrow.text import variant_triangle as text_triangle

SVG = "{http://www.w3.org/2000/svg}"
INTERVAL_RULES = ["misere", "stone-game-vii", "take:2", "take:any", "both-ends"]
ROW = [3, 1, 4, 1, 5, 9, 2]


def cells_of(svg: str) -> dict[tuple[int, int], dict[str, str]]:
    root = ET.fromstring(svg)
    return {
        (int(g.get("data-i", "")), int(g.get("data-j", ""))): dict(g.attrib)
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "cell"
    }


@pytest.mark.parametrize("rules", INTERVAL_RULES)
def test_variant_triangle_cells_carry_the_tables_numbers(rules: str) -> None:
    table = Table(ROW, rules=rules)
    svg = variant_triangle(table, highlight="best")  # type: ignore[arg-type]
    root = ET.fromstring(svg)
    assert root.find(f"{SVG}title") is not None and root.find(f"{SVG}desc") is not None
    cells = cells_of(svg)
    n = len(ROW)
    assert len(cells) == n * (n + 1) // 2
    for (i, j), cell in cells.items():
        assert cell["data-value"] == str(table.margin_of(i, j))
        assert cell["data-moves"] == " ".join(table.moves_of(i, j))  # the texts between spaces
        single = rules in ("misere", "stone-game-vii")
        assert (cell["data-player"] != "") == single
    lit = {key for key, cell in cells.items() if cell.get("data-highlight")}
    assert (0, n - 1) in lit and len(lit) == len(table.optimal_line())  # type: ignore[attr-defined]
    text = str(text_triangle(table, highlight="best"))  # type: ignore[arg-type]
    said = Rules.parse(rules)  # the rules in their people words, never the text form
    assert text.startswith(f"3 1 4 1 5 9 2 ({said.label()}): the first player's {said.margin_word}")


def test_variant_triangle_views_and_errors() -> None:
    table = Table([1, 2, 3, 4], rules="take:2")
    totals = cells_of(variant_triangle(table, view="total"))  # type: ignore[arg-type]
    assert totals[(0, 3)]["data-value"] == "7"
    with pytest.raises(PictureError, match="margins only"):
        variant_triangle(Table([1, 2], rules="stone-game-vii"), view="total")  # type: ignore[arg-type]
    with pytest.raises(UnsupportedRulesError, match="'L3' is not a move"):
        variant_triangle(table, highlight="L3")  # type: ignore[arg-type]
    with pytest.raises(RowTooLongError):
        variant_triangle(Table([1] * 41, rules="misere"))  # type: ignore[arg-type]
    marked = cells_of(variant_triangle(table, highlight="L1 R2"))  # type: ignore[arg-type]
    assert {key for key, cell in marked.items() if cell.get("data-highlight")} == {
        (0, 3),
        (1, 3),
        (1, 1),
    }


def test_the_pizza_ring() -> None:
    coins = [3, 1, 4, 1, 5, 9, 2, 6]
    solution = solve(coins, rules="circular")
    assert solution.starts is not None
    root = ET.fromstring(ring(solution))
    assert root.find(f"{SVG}title") is not None and root.find(f"{SVG}desc") is not None
    slices = [g for g in root.iter(f"{SVG}g") if g.get("class") == "slice"]
    assert sorted(int(g.get("data-slice", "")) for g in slices) == list(range(len(coins)))
    for g in slices:
        s = int(g.get("data-slice", ""))
        assert g.get("data-value") == str(coins[s])
        assert g.get("data-margin") == str(solution.starts[s])
        assert (g.get("data-best") == "1") == (str(s) in solution.first_moves)
    text = str(text_ring(solution))
    assert "best first slice" in text and f"{solution.start}*" in text
    assert solution._repr_svg_() == str(ring(solution))
    assert solve([1, 2, 3], rules="misere")._repr_svg_() is None
    with pytest.raises(PictureError, match="only the pizza"):
        ring(solve([1, 2, 3], rules="misere"))
    with pytest.raises(RowTooLongError):
        ring(solve([1] * 41, rules="circular"))
    one = ET.fromstring(ring(solve([5], rules="circular")))
    assert len([g for g in one.iter(f"{SVG}g") if g.get("class") == "slice"]) == 1


def test_jupyter_shows_a_variant_table_as_its_triangle() -> None:
    svg = Table([1, 2, 3], rules="both-ends")._repr_svg_()
    assert svg is not None and svg.startswith("<svg") and 'data-rules="both-ends"' in svg
    assert Table([1] * 41, rules="misere")._repr_svg_() is None


def test_cli_pictures_of_the_variants(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg, html = tmp_path / "t.svg", tmp_path / "t.html"
    args = ["table", "--rules", "take:2", "--svg", str(svg), "--html", str(html)]
    assert main([*args, "--highlight", "best", "1", "2", "3", "4"]) == 0
    assert len(cells_of(svg.read_text())) == 10 and "<svg" in html.read_text()
    assert main(["table", "--rules", "take:2", "--highlight", "L1 R2", "1", "2", "3", "4"]) == 0
    assert "reversed cells: the highlighted line" in capsys.readouterr().out
    pizza = tmp_path / "ring.svg"
    assert main(["solve", "--rules", "circular", "--svg", str(pizza), "1", "2", "3", "4"]) == 0
    out = capsys.readouterr().out
    assert f"wrote SVG to {pizza}" in out and "margin  -2   2  0   2" in out
    assert 'class="coinrow-ring"' in pizza.read_text()
    for bad, message in (
        (["table", "--rules", "stone-game-vii", "--view", "total", "1", "2"], "margins only"),
        (["table", "--rules", "take:2", "--highlight", "L3", "1", "2", "3"], "'L3' is not a move"),
        (["solve", "--rules", "misere", "--svg", str(pizza), "1", "2"], "--svg draws the pizza"),
        (["solve", "--rules", "circular", "--svg", str(pizza), *["1"] * 41], "at most 40 slices"),
    ):
        assert main(bad) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, err
