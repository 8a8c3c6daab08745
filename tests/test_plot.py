"""matplotlib charts; that nothing loads matplotlib unless a chart is drawn; that drawing
neither imports pyplot nor touches the caller's backend; the message without matplotlib."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest

from coinrow.cli import main
from coinrow.errors import MissingExtraError, PictureError
from coinrow.plot import (
    grouped_bar_chart,
    grouped_bar_figure,
    histogram,
    histogram_figure,
    integer_bins,
    save_figure,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
CATEGORIES = ["greedy", "parity", "table"]
SERIES = {"vs greedy": [3.0, 5.0, 9.0], "vs table": [-1.0, 2.0, 0.0]}


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == PNG_MAGIC
    return int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")


def run_python(code: str) -> list[str]:
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_grouped_bar_chart_png_and_svg(tmp_path: Path) -> None:
    png = grouped_bar_chart(tmp_path / "wins.png", "Wins", CATEGORIES, SERIES, "wins")
    assert png == tmp_path / "wins.png"
    width, height = png_size(png)
    assert width > 400 and height > 300
    svg = grouped_bar_chart(str(tmp_path / "wins.svg"), "Wins", CATEGORIES, SERIES, "wins")
    root = ET.parse(svg).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    # Six bars: one per category and series.
    patches = [
        g
        for g in root.iter("{http://www.w3.org/2000/svg}g")
        if g.get("id", "").startswith("patch_")
    ]
    assert len(patches) >= 6


def test_same_data_writes_the_same_bytes(tmp_path: Path) -> None:
    for suffix in (".svg", ".pdf"):
        first = grouped_bar_chart(tmp_path / f"a{suffix}", "Wins", CATEGORIES, SERIES, "wins")
        second = grouped_bar_chart(tmp_path / f"b{suffix}", "Wins", CATEGORIES, SERIES, "wins")
        assert first.read_bytes() == second.read_bytes()  # no date, fixed SVG ids
        first = histogram(tmp_path / f"h{suffix}", "Margins", [0, 1, 1, 4], "margin")
        second = histogram(tmp_path / f"i{suffix}", "Margins", [0, 1, 1, 4], "margin")
        assert first.read_bytes() == second.read_bytes()
    assert b"<dc:date>" not in (tmp_path / "a.svg").read_bytes()
    assert b"CreationDate" not in (tmp_path / "a.pdf").read_bytes()


def test_figures_can_be_kept_and_saved_later(tmp_path: Path) -> None:
    figure = grouped_bar_figure("Wins", CATEGORIES, SERIES, "wins")
    (axes,) = figure.axes
    assert axes.get_title() == "Wins"
    assert axes.get_ylabel() == "wins"
    assert [label.get_text() for label in axes.get_xticklabels()] == CATEGORIES
    assert [patch.get_height() for patch in axes.patches] == [3.0, 5.0, 9.0, -1.0, 2.0, 0.0]
    saved = save_figure(figure, tmp_path / "wins.svg")
    written = grouped_bar_chart(tmp_path / "same.svg", "Wins", CATEGORIES, SERIES, "wins")
    assert saved.read_bytes() == written.read_bytes()
    counts = histogram_figure("Margins", [0, 1, 1, 3], "margin").axes[0].patches
    assert [patch.get_height() for patch in counts] == [1.0, 2.0, 0.0, 1.0]
    with pytest.raises(PictureError, match="use one of"):
        save_figure(figure, tmp_path / "wins.gif")


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
    assert run_python(code) == ["False"]


def test_drawing_never_imports_pyplot(tmp_path: Path) -> None:
    code = (
        "import sys, matplotlib\n"
        "from coinrow.plot import grouped_bar_chart, histogram, histogram_figure\n"
        f"for suffix in ('.png', '.svg', '.pdf'):\n"
        f"    grouped_bar_chart({str(tmp_path)!r} + '/w' + suffix, 'W', ['a'], {{'s': [1]}}, 'y')\n"
        f"    histogram({str(tmp_path)!r} + '/h' + suffix, 'H', [1, 2, 2], 'x')\n"
        "histogram_figure('H', [1], 'x')\n"
        "print('matplotlib.pyplot' in sys.modules, matplotlib.rcParams['svg.hashsalt'])"
    )
    assert run_python(code) == ["False", "None"]
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "h.pdf", "h.png", "h.svg", "w.pdf", "w.png", "w.svg",
    ]  # fmt: skip


def test_drawing_keeps_the_callers_backend_and_settings(tmp_path: Path) -> None:
    # As in a notebook: the caller chose a backend (here "svg", not Agg), set its own SVG
    # salt and uses pyplot; our charts must change none of it nor join pyplot's figures.
    code = (
        "import matplotlib\n"
        "matplotlib.use('svg')\n"
        "matplotlib.rcParams['svg.hashsalt'] = 'mine'\n"
        "import matplotlib.pyplot as plt\n"
        "from coinrow.plot import grouped_bar_chart, histogram_figure\n"
        f"grouped_bar_chart({str(tmp_path / 'w.png')!r}, 'W', ['a'], {{'s': [1]}}, 'y')\n"
        f"grouped_bar_chart({str(tmp_path / 'w.svg')!r}, 'W', ['a'], {{'s': [1]}}, 'y')\n"
        "histogram_figure('H', [1], 'x')\n"
        "print(matplotlib.get_backend(), matplotlib.rcParams['svg.hashsalt'], plt.get_fignums())"
    )
    assert run_python(code) == ["svg", "mine", "[]"]
    assert png_size(tmp_path / "w.png")[0] > 300


def test_without_matplotlib_drawing_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    message = "drawing a chart needs matplotlib: install coinrow[plot]"
    with pytest.raises(MissingExtraError) as caught:
        grouped_bar_chart(tmp_path / "x.png", "t", ["p"], {"a": [1.0]}, "y")
    assert str(caught.value) == message
    assert caught.value.extra == "plot"
    with pytest.raises(MissingExtraError, match=r"install coinrow\[plot\]"):
        histogram_figure("t", [1], "x")
    # The suffix is still checked first, and nothing is written.
    with pytest.raises(PictureError):
        histogram(tmp_path / "x.jpg", "t", [1], "x")
    assert list(tmp_path.iterdir()) == []


def test_cli_without_matplotlib_fails_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    argv = ["compare", "optimal", "greedy", "--games", "2", "--length", "4"]
    assert main([*argv, "--plot", str(tmp_path / "x.png")]) == 2
    error = capsys.readouterr().err
    assert error.splitlines() == [
        "coinrow: error: drawing a chart needs matplotlib: install coinrow[plot]"
    ]
    assert not (tmp_path / "x.png").exists()
