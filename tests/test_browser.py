"""The ``coinrow table --html`` page in headless Chromium: cells present, visible, clickable,
and a screenshot of the picture (look at it: ``scripts/render_svg.py`` renders one too)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM

from coinrow import Table
from coinrow.cli import main
from coinrow.numbers import format_value

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason=f"Chromium is not installed at {CHROMIUM} (`make test` installs it on CI)",
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def html_page(tmp_path: Path, coins: list[str]) -> Path:
    page = tmp_path / "triangle.html"
    assert main(["table", "--html", str(page), "--highlight", "best", *coins]) == 0
    return page


def overflowing(page: Any) -> int:
    """How many numbers (in cells and coins) are wider than their box, as Chromium lays
    them out with its real fonts."""
    count: int = page.eval_on_selector_all(
        "g.cell, g.coin",
        "groups => groups.filter(g => { const t = g.querySelector('text').getBBox();"
        " const r = g.querySelector('rect').getBBox();"
        " return t.x < r.x || t.x + t.width > r.x + r.width; }).length",
    )
    return count


def test_four_coin_page(page: Any, tmp_path: Path) -> None:
    page.goto(html_page(tmp_path, ["1", "2", "4", "3"]).as_uri())
    cells = page.locator("g.cell")
    assert cells.count() == 10
    table = Table([1, 2, 4, 3])
    for index in range(10):
        cell = cells.nth(index)
        assert cell.is_visible()
        i, j = int(cell.get_attribute("data-i")), int(cell.get_attribute("data-j"))
        assert cell.get_attribute("data-value") == format_value(table.value_of(i, j))
    top = page.locator('g.cell[data-i="0"][data-j="3"]')
    assert top.locator("text.value").text_content() == "5"
    assert top.locator("g.arrow").count() == 2
    top.click()
    info = page.locator("#info").text_content()
    assert info.startswith("coins 1..4 (1 2 4 3): first player to move gets 5")
    assert "both moves are optimal" in info
    assert "selected" in (top.get_attribute("class") or "")
    page.locator('g.cell[data-i="0"][data-j="2"]').click()
    assert "take the right coin (4)" in page.locator("#info").text_content()
    shot = tmp_path / "four.png"
    page.locator("svg").screenshot(path=str(shot))
    assert shot.read_bytes()[:8] == PNG_MAGIC
    box = page.locator("svg").bounding_box()
    assert box["width"] == pytest.approx(480, abs=1)


def test_forty_coin_page_cells_do_not_overlap(page: Any, tmp_path: Path) -> None:
    coins = [str(100 + (7 * k) % 97) for k in range(40)]
    page.set_viewport_size({"width": 1600, "height": 1400})
    page.goto(html_page(tmp_path, coins).as_uri())
    assert page.locator("g.cell").count() == 820
    boxes = page.eval_on_selector_all(
        "g.cell rect",
        "rects => rects.map(r => { const b = r.getBoundingClientRect();"
        " return [b.left, b.top, b.right, b.bottom]; })",
    )
    by_row: dict[float, list[list[float]]] = {}
    for left, top, right, bottom in boxes:
        assert right - left > 25 and bottom - top > 12  # large enough to read
        by_row.setdefault(round(top), []).append([left, right])
    assert len(by_row) == 40
    for row in by_row.values():
        row.sort()
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(row))
    assert overflowing(page) == 0
    page.locator('g.cell[data-i="0"][data-j="39"]').click()
    assert page.locator("#info").text_content().startswith("coins 1..40")
    shot = tmp_path / "forty.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


def test_long_exact_numbers_fit_their_boxes(page: Any, tmp_path: Path) -> None:
    page.goto(html_page(tmp_path, ["1/3", "0.5", "-2", "12345678901234", "7/11"]).as_uri())
    assert page.locator("g.cell").count() == 15
    assert overflowing(page) == 0
    top = page.locator('g.cell[data-i="0"][data-j="4"]')
    assert top.locator("text.value").text_content() == top.get_attribute("data-value")
    page.locator("svg").screenshot(path=str(tmp_path / "long.png"))
