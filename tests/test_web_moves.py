"""The page shows the library's best moves under every rules family, in Debian's Chromium
(Playwright) against the live server on 127.0.0.1: one page load per family, then the Solve
view's best first moves (their text and ``data-moves``; the pizza's ringed slices), Explore's
top cell where the rules have a triangle, and the Play view's hint, each compared with
``coinrow.solve(...).first_moves`` and the library's words for those moves
(``Rules.move_words`` and the coins each move takes). A set of moves is a list on the page:
a move of several characters (``L2``, the pizza's slice ``10``) is never split.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, wait_js

from coinrow import Position, Rules, Table, solve

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason=f"Chromium is not installed at {CHROMIUM} (`make test` installs it; CI runs these)",
)

#: One row per rules family; the first two are the rows issue 23 reported wrong on the page
#: (take:2 showed "take the left coin; take the right coin" for the single best move L2, the
#: pizza ringed slices 1 and 0 for slice 10).
FAMILIES = [
    ("take:2", [4, 9, 1, 7, 2, 8, 6, 3]),
    ("circular", [1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 9, 1]),
    ("plain", [1, 2, 4, 3]),
    ("misere", [1, 1, 1]),
    ("stone-game-vii", [5, 3, 1, 4, 2]),
    ("both-ends", [0, 0, 0]),
    ("reply:greedy", [8, 15, 3, 7, 9, 2]),
    ("players:3", [1, 2, 3, 4, 5]),
]

#: What the issue's two rows must show.
REPORTED = {"take:2": ("L2",), "circular": ("10",)}


def words(rules: Rules, row: list[int], moves: tuple[str, ...]) -> list[str]:
    """The library's words for each move, with the coins it takes, as the page writes them."""
    start = Position.start(row, rules=rules)
    return [
        f"{rules.move_words(move)} ({' '.join(str(row[i]) for i in start.indices_of(move))})"
        for move in moves
    ]


def address(view: str, rules: str, row: list[int], extra: str = "") -> str:
    coins = "%20".join(map(str, row))
    spelled = "" if rules == "plain" else "&rules=" + rules.replace(":", "%3A")
    return f"#{view}?coins={coins}{spelled}{extra}"


#: The default timeout of conftest's ``app_page`` in this module.
PAGE_TIMEOUT_MS = 15_000


@pytest.mark.parametrize(("text", "row"), FAMILIES, ids=[text for text, _ in FAMILIES])
def test_best_moves_on_the_page_are_the_librarys(
    app_page: Any, live_url: str, text: str, row: list[int]
) -> None:
    page, rules = app_page, Rules.parse(text)
    expected = solve(row, rules=text).first_moves
    if text in REPORTED:
        assert expected == REPORTED[text]
    said = words(rules, row, expected)

    # Solve: the words and data-moves of every best first move (one page load).
    page.goto(live_url + address("solve", text, row))
    if rules.is_plain:
        best = page.locator("#solve-best")
        page.wait_for_selector("#solve-result:not([hidden])")
        shown = f"either: {' or '.join(said)}" if len(said) == 2 else said[0]
    else:
        best = page.locator("#solve-v-best")
        page.wait_for_selector("#solve-variant:not([hidden])")
        shown = f"any of: {'; '.join(said)}" if len(said) > 1 else said[0]
    assert best.text_content() == shown
    assert best.get_attribute("data-moves") == " ".join(expected)
    if rules.circle:  # the ring outlines exactly the best first slices
        page.wait_for_selector("#solve-ring g.slice.best")
        ringed = page.locator("#solve-ring g.slice.best")
        slices = [ringed.nth(k).get_attribute("data-slice") for k in range(ringed.count())]
        assert tuple(slices) == expected

    # Explore: the whole row's cell shows the table's optimal moves (rules with a triangle),
    # in the library's own picture (data-moves of its cells).
    n = len(row)
    if rules.interval:
        page.evaluate("hash => { location.hash = hash; }", address("explore", text, row))
        moves = " ".join(Table(row, rules=text).moves_of(0, n - 1))
        page.wait_for_selector(
            f'#explore-triangle svg[data-rules="{rules}"]'
            if not rules.is_plain
            else "#explore-triangle svg"
        )
        top = page.locator(f'#explore-triangle g.cell[data-i="0"][data-j="{n - 1}"]')
        top.wait_for()
        assert top.get_attribute("data-moves") == moves

    # Play: the hint at the start (the first seat to move) names the library's best moves.
    best_here = Position.start(row, rules=text).best_moves()
    assert best_here == expected
    page.evaluate("hash => { location.hash = hash; }", address("play", text, row, "&seat=0"))
    page.wait_for_selector('#view-play[data-state="your-turn"]')
    page.click("#play-hint")
    hint = page.locator("#play-hint-text")
    wait_js(page, "document.querySelector('#play-hint-text').textContent !== ''")
    assert hint.text_content().startswith(f"Best: {', or '.join(said)}.")
    assert hint.get_attribute("data-moves") == " ".join(best_here)
