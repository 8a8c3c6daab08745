"""axe-core (axe-playwright-python, whose axe.min.js ships in the package) on every view of the
page, light and dark, at 360 and 1280 pixels: no serious or critical violation (contrast
included). With ``$COINROW_SCREENSHOTS`` set, each view is also kept there as a screenshot
(the pictures in docs/ come from it).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, check_views_with_axe

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason=f"Chromium is not installed at {CHROMIUM} (`make test` installs it; CI runs these)",
)

ROW = "8%2015%203%207%209%202%206%204"
#: Each view in a state that shows most of it, and what says it is ready.
VIEWS = {
    "home": ("#", "#view-home:not([hidden])"),
    "solve": (f"#solve?coins={ROW}", "#solve-result:not([hidden])"),
    "explore": (f"#explore?coins={ROW}&show=total&best=1&cell=2%2C6", "g.cell.selected"),
    "explore-classroom": (
        f"#explore?coins={ROW}&show=total&cell=2%2C6&classroom=1",
        "#explore-all.classroom g.cell.selected",
    ),
    "play": (
        f"#play?coins={ROW}&opponent=greedy&seat=second&moves=LLRRLRLL&ply=5",
        "#play-chart svg",
    ),
    "analysis": (  # after a mistake (its lesson showing), with a variation beside the game
        f"#analysis?coins={ROW}&moves=LLRRLRLL&vars=1%3AR%20L&ply=1&seat=1&opponent=greedy",
        '#view-analysis[data-state="ready"] #an-lesson:not([hidden])',
    ),
    # a first game in progress: the defaults (evaluation hidden), moves played
    "play-first": (f"#play?coins={ROW}&seat=first&moves=LL", '[data-state="your-turn"]'),
    "learn": (f"#learn?coins={ROW}&method=fill&step=12", "#learn-code span.now"),
    "puzzles": ("#puzzles?puzzle=7", '#view-puzzles[data-state="open"]'),
}


#: Views with no moderate finding either (the rest: serious and critical only, for now).
STRICT = (
    "home",
    "analysis",
    "learn",
    "puzzles",
    "solve",
    "play",
    "play-first",
    "explore",
    "explore-classroom",
)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("width", [360, 1280])
def test_every_view_passes_axe(
    browser: Any, live_url: str, theme: str, width: int, tmp_path: Path
) -> None:
    folder = Path(os.environ.get("COINROW_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    check_views_with_axe(
        browser,
        live_url,
        VIEWS,
        theme=theme,
        width=width,
        folder=folder,
        strict=STRICT,
    )
