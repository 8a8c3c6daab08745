"""Regenerate every picture of the documentation site, drawn by coinrow itself, and the
executed notebook tour (its outputs are stored in docs/tour.ipynb for the site).

    .venv/bin/python scripts/docs_pictures.py

Writes docs/pictures/*.svg (triangles by coinrow.svg, a chart by `coinrow compare --plot`) and runs
docs/tour.ipynb in a fresh kernel (nbclient). The web page's screenshots (docs/web-*.png) are
written by the browser tests (tests/test_web_browser.py), which drive the real page.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient

from coinrow import solve
from coinrow.cli import main
from coinrow.svg import triangle

DOCS = Path(__file__).resolve().parent.parent / "docs"
PICTURES = DOCS / "pictures"
#: The tournament of docs/tutorials/test-a-theory.md (its chart is this command's --plot).
COMPARE = "compare optimal greedy parity thibault3 lookahead:3 --games 200"


def pictures() -> list[Path]:
    """The SVG pictures the pages show."""
    PICTURES.mkdir(exist_ok=True)
    written = []
    for name, svg in {
        "triangle.svg": triangle([8, 15, 3, 7]),
        "triangle-best.svg": triangle([3, 2, 2, 3, 1, 2], highlight=solve([3, 2, 2, 3, 1, 2]).line),
        "triangle-margin.svg": triangle([3, 2, 2, 3, 1, 2], view="margin"),
    }.items():
        (PICTURES / name).write_text(str(svg) + "\n")
        written.append(PICTURES / name)
    # The chart of docs/tutorials/test-a-theory.md, drawn by the very command the page shows.
    rates = PICTURES / "compare-rates.svg"
    assert main([*COMPARE.split(), "--plot", str(rates)]) == 0
    written.append(rates)
    return written


def execute_tour(path: Path = DOCS / "tour.ipynb") -> nbformat.NotebookNode:
    """Run the notebook tour top to bottom in a fresh kernel and store its outputs."""
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, kernel_name="python3", timeout=120, cwd=str(path.parent)).execute()
    nbformat.write(notebook, path)
    return notebook


if __name__ == "__main__":
    for written in pictures():
        print(written.relative_to(DOCS.parent))
    execute_tour()
    print("docs/tour.ipynb")
