"""The variants on the web page in Debian's Chromium (Playwright) against a live server on
127.0.0.1: the rules selector (built from /api/rules) in Solve and Explore, a misère solve,
the library's triangle of take:2, the library's pizza ring read with the keyboard, the views
that have no triangle, and axe (light and dark, 360 px and desktop) on each; games under the
rules are played in tests/test_web_play.py. Screenshots go to ``$COINROW_SCREENSHOTS`` when set.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, check_views_with_axe, keep_screenshot, wait_js

from coinrow import Rules, Table, solve
from coinrow.engines.variants import circular_margins
from coinrow.rules import RULES

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason=f"Chromium is not installed at {CHROMIUM} (`make test` installs it; CI runs these)",
)

MINUS = "\N{MINUS SIGN}"


def text(value: object) -> str:
    return str(value).replace("-", MINUS)


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("COINROW_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_misere_solve_from_the_selector(app_page: Any, live_url: str, shots: Path) -> None:
    page = app_page
    row = [1, 5, 2, 8, 3]
    page.goto(live_url + "#solve?coins=" + "%20".join(map(str, row)))
    page.wait_for_selector("#solve-result:not([hidden])")
    titles = page.eval_on_selector_all("#rules option", "os => os.map(o => o.text)")
    assert titles == [rule.title for rule in RULES.values()]  # the selector is the registry's
    page.select_option("#rules", "misere")
    assert page.text_content("#rules-help").startswith(Rules.parse("misere").describe())
    page.wait_for_selector("#solve-variant:not([hidden])")
    assert page.is_hidden("#solve-result")
    expected = solve(row, rules="misere")
    cards = page.locator("#solve-v-scores .score .points")
    assert [cards.nth(k).text_content() for k in range(2)] == [str(t) for t in expected.totals]
    assert page.text_content("#solve-v-line") == expected.line
    by = abs(expected.totals[0] - expected.totals[1])
    assert page.text_content("#solve-v-verdict") == (
        f"The {expected.outcome} player wins, taking {by} less."
    )
    assert "rules=misere" in page.url  # the rules are kept in the address
    keep_screenshot(page, shots, "web-variant-misere.png")
    page.reload()  # ... so a reload (or a shared link) opens the same view
    page.wait_for_selector("#solve-variant:not([hidden])")
    assert page.input_value("#rules") == "misere"
    page.select_option("#rules", "plain")  # and back to the plain game
    page.wait_for_selector("#solve-result:not([hidden])")
    assert page.is_hidden("#solve-variant")
    assert "rules=" not in page.url


def test_take_two_and_players_in_solve(app_page: Any, live_url: str) -> None:
    page = app_page
    row = [1, 2, 3, 4, 5]
    page.goto(live_url + "#solve?coins=1%202%203%204%205&rules=take%3A2")
    page.wait_for_selector("#solve-variant:not([hidden])")
    assert page.is_visible("#rules-param") and page.input_value("#rules-param") == "2"
    assert page.text_content("#rules-param-name") == "K"  # from the rule's syntax, take:K
    expected = solve(row, rules="take:2")
    assert page.text_content("#solve-v-line") == expected.line
    page.fill("#rules-param", "3")
    page.press("#rules-param", "Enter")
    three = solve(row, rules="take:3")
    wait_js(page, f"document.querySelector('#solve-v-line').textContent === {three.line!r}")
    page.fill("#rules-param", "0")  # out of range: the library's sentence
    page.press("#rules-param", "Enter")
    page.wait_for_selector("#error:not([hidden])")
    assert page.text_content("#error") == (
        "rules 'take:0': K must be a whole number from 1 to 1000000, or any"
    )
    page.select_option("#rules", "players")
    page.fill("#rules-param", "3:spite")
    page.press("#rules-param", "Enter")
    wait_js(page, "document.querySelectorAll('#solve-v-scores .score').length === 3")
    wait_js(page, "location.href.includes('spite')")
    spite = solve(row, rules="players:3:spite")
    cards = page.locator("#solve-v-scores .score .points")
    assert [cards.nth(k).text_content() for k in range(3)] == [str(t) for t in spite.totals]
    assert page.text_content("#solve-v-verdict") == "Player 1 wins with 7."
    assert page.is_hidden("#solve-v-margin")
    assert "rules=players%3A3%3Aspite" in page.url


def test_pizza_ring_with_the_keyboard(app_page: Any, live_url: str, shots: Path) -> None:
    page = app_page
    row = [3, 1, 4, 1, 5, 9, 2, 6]
    page.goto(live_url + "#solve?coins=" + "%20".join(map(str, row)) + "&rules=circular")
    slices = page.locator("#solve-ring svg.coinrow-ring g.slice")  # the library's ring
    slices.first.wait_for()
    assert slices.count() == len(row)
    expected = solve(row, rules="circular")
    margins = circular_margins(row)
    best = [k for k, m in enumerate(margins) if m == max(margins)]
    ringed = sorted(int(s.get_attribute("data-slice")) for s in page.locator("g.slice.best").all())
    assert ringed == best
    assert expected.start in best
    for k in range(len(row)):
        group = page.locator(f"#solve-ring g.slice[data-slice='{k}']")
        assert group.get_attribute("data-value") == str(row[k])
        assert group.locator("text.margin").text_content() == text(margins[k])
    assert page.text_content("#solve-v-line") == expected.line
    page.focus("#solve-ring g.slice[data-slice='0']")  # the keyboard: Tab on, Enter reads
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.dataset.slice")
    page.keyboard.press("Enter")
    info = page.text_content("#solve-ring-info")
    assert info.startswith(f"slice {focused}: {row[int(focused)]}; eaten first, the first player")
    selected = page.locator(f"#solve-ring g.slice[data-slice='{focused}']")
    assert "selected" in (selected.get_attribute("class") or "")
    keep_screenshot(page, shots, "web-variant-pizza.png")


def test_explore_take_two_and_no_triangle(app_page: Any, live_url: str, shots: Path) -> None:
    page = app_page
    row = [4, 9, 2, 7, 7, 1]
    page.goto(live_url + "#explore?coins=" + "%20".join(map(str, row)))
    page.locator("#explore-triangle g.cell").first.wait_for()
    page.select_option("#rules", "take")
    page.wait_for_selector('#explore-triangle svg[data-rules="take:2"]')  # the library's
    cells = page.locator("#explore-triangle g.cell")
    assert page.is_hidden("#explore-views")
    assert cells.count() == len(row) * (len(row) + 1) // 2
    table = Table(row, rules="take:2")
    top = page.locator('#explore-triangle g.cell[data-i="0"][data-j="5"]')
    assert top.get_attribute("data-moves") == " ".join(table.moves_of(0, 5))
    cell = page.locator('#explore-triangle g.cell[data-i="1"][data-j="4"]')
    cell.focus()
    page.keyboard.press("Enter")
    info = page.text_content("#explore-info")
    assert info.startswith("Selected: ")
    assert f"{' '.join(table.moves_of(1, 4))}" in info
    assert "cell=1%2C4" in page.url and "rules=take%3A2" in page.url
    keep_screenshot(page, shots, "web-variant-explore-take2.png")
    page.reload()  # the selected cell and the rules come back from the address
    page.wait_for_selector("#explore-triangle g.cell.selected")
    page.select_option("#rules", "circular")
    wait_js(page, "document.querySelector('#explore-info').textContent.includes('no triangle')")
    assert page.locator("#explore-triangle g.cell").count() == 0
    page.select_option("#rules", "players")
    wait_js(page, "document.querySelector('#explore-info').textContent.startsWith('N players')")


ROW = "coins=8%2015%203%207%209%202"
PAGES = {
    "solve-misere": (f"#solve?{ROW}&rules=misere", "#solve-variant:not([hidden])"),
    "solve-pizza": (f"#solve?{ROW}&rules=circular", "#solve-ring g.slice.best"),
    "solve-players": (f"#solve?{ROW}&rules=players%3A3", "#solve-v-scores .other"),
    "explore-take2": (f"#explore?{ROW}&rules=take%3A2&cell=1%2C3", "g.cell.selected"),
    "play-take2": (f"#play?{ROW}&rules=take%3A2&seat=0&moves=L2", '[data-state="your-turn"]'),
    "play-pizza": (f"#play?{ROW}&rules=circular&seat=0&moves=3%20L", '[data-state="your-turn"]'),
    "play-players": (f"#play?{ROW}&rules=players%3A3&seat=1", '[data-state="your-turn"]'),
    "play-review": (f"#play?{ROW}&rules=misere&seat=0&moves=LLLLLL", '[data-state="over"]'),
}


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("width", [360, 1280])
def test_variant_views_pass_axe(
    browser: Any, live_url: str, theme: str, width: int, shots: Path
) -> None:
    check_views_with_axe(browser, live_url, PAGES, theme=theme, width=width, folder=shots)
