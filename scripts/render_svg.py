"""Render the triangle diagram of a row to SVG and PNG with headless Chromium, to look at.

    .venv/bin/python scripts/render_svg.py OUT.png 1 2 4 3 [--view margin] [--highlight best]

Writes OUT.svg next to OUT.png. Needs Debian's Chromium at /usr/bin/chromium (or CHROMIUM).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from playwright.sync_api import sync_playwright

from coinrow import Table, parse_coins
from coinrow.svg import VIEWS, triangle

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip


def render_png(svg: str, png: Path) -> None:
    """Screenshot the SVG at its own size with headless Chromium."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page()
        page.set_content(f"<html><body style='margin:0'>{svg}</body></html>")
        page.locator("svg").screenshot(path=str(png))
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("png", type=Path)
    parser.add_argument("coins", nargs="+")
    parser.add_argument("--view", choices=VIEWS, default="total")
    parser.add_argument("--highlight", help="a line of moves, or 'best' for the optimal line")
    args = parser.parse_args()
    table = Table(parse_coins(" ".join(args.coins)))
    highlight = table.line if args.highlight == "best" else args.highlight
    svg = triangle(table, view=args.view, highlight=highlight)
    args.png.with_suffix(".svg").write_text(svg)
    render_png(svg, args.png)
    print(f"wrote {args.png} and {args.png.with_suffix('.svg')}")


if __name__ == "__main__":
    main()
