"""matplotlib charts, and that nothing loads matplotlib unless a chart is drawn."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest

from coinrow.errors import PictureError
from coinrow.plot import grouped_bar_chart, histogram, integer_bins

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == PNG_MAGIC
    return int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")


def test_grouped_bar_chart_png_and_svg(tmp_path: Path) -> None:
    categories = ["greedy", "parity", "table"]
    series = {"vs greedy": [3.0, 5.0, 9.0], "vs table": [-1.0, 2.0, 0.0]}
    png = grouped_bar_chart(tmp_path / "wins.png", "Wins", categories, series, "wins")
    assert png == tmp_path / "wins.png"
    width, height = png_size(png)
    assert width > 400 and height > 300
    svg = grouped_bar_chart(str(tmp_path / "wins.svg"), "Wins", categories, series, "wins")
    root = ET.parse(svg).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    # Six bars: one per category and series.
    patches = [
        g
        for g in root.iter("{http://www.w3.org/2000/svg}g")
        if g.get("id", "").startswith("patch_")
    ]
    assert len(patches) >= 6
    again = grouped_bar_chart(tmp_path / "again.svg", "Wins", categories, series, "wins")
    assert again.read_bytes() == svg.read_bytes()  # no date, fixed ids: repeatable


def test_grouped_bar_chart_checks_its_input(tmp_path: Path) -> None:
    with pytest.raises(PictureError, match="series 'a' has 1 values for 2 categories"):
        grouped_bar_chart(tmp_path / "x.png", "t", ["p", "q"], {"a": [1.0]}, "y")
    with pytest.raises(PictureError, match=r"use one of: \.png, \.svg, \.pdf"):
        grouped_bar_chart(tmp_path / "x.jpg", "t", ["p"], {"a": [1.0]}, "y")
    assert not (tmp_path / "x.png").exists()


def test_histogram_exact_values_and_bins(tmp_path: Path) -> None:
    out = histogram(tmp_path / "m.png", "Margins", [0, 1, Fraction(1, 2), 5], "margin")
    assert png_size(out)[0] > 300
    assert histogram(tmp_path / "e.svg", "Empty", [], "margin").exists()
    assert integer_bins([0.0, 2.0, 2.0]) == [-0.5, 0.5, 1.5, 2.5]
    assert integer_bins([0.0, 100.0]) is None
    with pytest.raises(PictureError):
        histogram(tmp_path / "m.txt", "Margins", [1], "margin")


def test_matplotlib_is_imported_only_for_charts() -> None:
    code = (
        "import sys, coinrow, coinrow.svg, coinrow.plot\n"
        "coinrow.solve([1, 2, 4, 3])._repr_svg_(); coinrow.svg.triangle([1, 2])\n"
        "print('matplotlib' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr
