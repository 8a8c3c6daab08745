"""The variants on the web page in Debian's Chromium (Playwright) against a live server on
127.0.0.1: the rules selector in Solve and Explore, a misère solve, the triangle of take:2,
the pizza's ring read with the keyboard, the views that have no triangle, and axe (light and
dark, 360 px and desktop) on each. Screenshots go to ``$COINROW_SCREENSHOTS`` when set.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, check_views_with_axe, wait_js

from coinrow import Table, solve
from coinrow.engines.variants import circular_margins

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


@pytest.fixture
def app_page(page: Any) -> Any:
    """The page, failing the test on any JavaScript error."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_viewport_size({"width": 1000, "height": 900})
    page.set_default_timeout(10_000)
    yield page
    assert errors == []


def test_misere_solve_from_the_selector(app_page: Any, live_url: str, shots: Path) -> None:
    page = app_page
    row = [1, 5, 2, 8, 3]
    page.goto(live_url + "#solve?coins=" + "%20".join(map(str, row)))
    page.wait_for_selector("#solve-result:not([hidden])")
    page.select_option("#rules", "misere")
    assert "smallest total" in page.text_content("#rules-help")
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
    page.screenshot(path=str(shots / "web-variant-misere.png"), full_page=True)
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
    assert page.is_visible("#rules-k") and page.input_value("#rules-k") == "2"
    expected = solve(row, rules="take:2")
    assert page.text_content("#solve-v-line") == expected.line
    page.fill("#rules-k", "3")
    page.press("#rules-k", "Enter")
    three = solve(row, rules="take:3")
    wait_js(page, f"document.querySelector('#solve-v-line').textContent === {three.line!r}")
    page.fill("#rules-k", "0")  # out of range: one sentence, the answer shown stays
    page.press("#rules-k", "Enter")
    page.wait_for_selector("#error:not([hidden])")
    assert page.text_content("#error").startswith("K: type a whole number from 1 to 1,000,000")
    assert page.get_attribute("#rules-k", "aria-invalid") == "true"
    assert page.text_content("#solve-v-line") == three.line
    page.select_option("#rules", "players")
    page.select_option("#rules-tie", "spite")
    wait_js(page, "document.querySelectorAll('#solve-v-scores .score').length === 3")
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
    slices = page.locator("#solve-ring g.slice")
    slices.first.wait_for()
    assert slices.count() == len(row)
    expected = solve(row, rules="circular")
    margins = circular_margins(row)
    best = [k for k, m in enumerate(margins) if m == max(margins)]
    assert [int(s.get_attribute("data-slice")) for s in page.locator("g.slice.best").all()] == best
    assert expected.start in best
    for k in range(len(row)):
        assert slices.nth(k).locator("text.value").text_content() == str(row[k])
        margin = text(margins[k])
        assert slices.nth(k).locator("text.margin").text_content() in (margin, f"+{margin}")
    assert page.text_content("#solve-v-line") == expected.line
    page.focus("#solve-ring g.slice[data-slice='0']")  # the keyboard: Tab on, Enter reads
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.slice") == "1"
    page.keyboard.press("Enter")
    info = page.text_content("#solve-ring-info")
    assert info.startswith(f"Slice 2 of 8, value {row[1]}: eaten first, the first player ends")
    assert "selected" in (slices.nth(1).get_attribute("class") or "")
    page.screenshot(path=str(shots / "web-variant-pizza.png"), full_page=True)


def test_explore_take_two_and_no_triangle(app_page: Any, live_url: str, shots: Path) -> None:
    page = app_page
    row = [4, 9, 2, 7, 7, 1]
    page.goto(live_url + "#explore?coins=" + "%20".join(map(str, row)))
    page.locator("#explore-triangle g.cell").first.wait_for()
    page.select_option("#rules", "take")
    cells = page.locator("#explore-v-triangle g.vcell")
    cells.first.wait_for()
    assert page.is_hidden("#explore-plain")
    assert cells.count() == len(row) * (len(row) + 1) // 2
    table = Table(row, rules="take:2")
    top = page.locator('#explore-v-triangle g.vcell[data-i="0"][data-j="5"]')
    assert top.locator("text.margin").text_content() == text(table.margin_of(0, 5))
    assert top.locator("text.moves").text_content() == " ".join(table.moves_of(0, 5))
    cell = page.locator('#explore-v-triangle g.vcell[data-i="1"][data-j="4"]')
    cell.focus()
    page.keyboard.press("Enter")
    info = page.text_content("#explore-v-info")
    assert info.startswith("Selected: coins 2..5 (9 2 7 7): the mover's margin")
    assert f"best moves {' '.join(table.moves_of(1, 4))}" in info
    assert "cell=1%2C4" in page.url and "rules=take%3A2" in page.url
    page.screenshot(path=str(shots / "web-variant-explore-take2.png"), full_page=True)
    page.reload()  # the selected cell and the rules come back from the address
    page.wait_for_selector("#explore-v-triangle g.vcell.selected")
    page.select_option("#rules", "circular")
    wait_js(page, "document.querySelector('#explore-v-info').textContent.includes('ring')")
    assert page.locator("#explore-v-triangle g.vcell").count() == 0
    page.select_option("#rules", "players")
    wait_js(page, "document.querySelector('#explore-v-info').textContent.includes('vector')")


ROW = "coins=8%2015%203%207%209%202"
PAGES = {
    "solve-misere": (f"#solve?{ROW}&rules=misere", "#solve-variant:not([hidden])"),
    "solve-pizza": (f"#solve?{ROW}&rules=circular", "#solve-ring g.slice.best"),
    "solve-players": (f"#solve?{ROW}&rules=players%3A3", "#solve-v-scores .other"),
    "explore-take2": (f"#explore?{ROW}&rules=take%3A2&cell=1%2C3", "g.vcell.selected"),
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


def variant_state(page: Any) -> str:
    wait_js(
        page,
        "['your-turn', 'over'].includes(document.querySelector('#play-variant').dataset.state)",
    )
    return str(page.get_attribute("#play-variant", "data-state"))


def test_play_misere_to_the_end_against_the_computer(
    app_page: Any, live_url: str, shots: Path
) -> None:
    """A misère game: the person follows the hints and gets what best play guarantees."""
    page = app_page
    row = [5, 3, 7, 10, 2, 8, 6]
    page.goto(live_url + "#play?coins=" + "%20".join(map(str, row)))
    page.select_option("#rules", "misere")
    page.wait_for_selector("#play-variant:not([hidden])")
    assert page.is_hidden("#play-plain")
    guaranteed = solve(row, rules="misere").totals[0]
    assert variant_state(page) == "your-turn"
    assert page.text_content("#pv-status") == "Your move."
    while variant_state(page) == "your-turn":
        page.click("#pv-hint")
        assert page.text_content("#pv-hint-text").startswith("Best: take the")
        page.locator("#pv-moves button.hinted").first.click()
        page.wait_for_timeout(50)
    assert page.locator("#pv-board .coin.taken").count() == len(row)
    cards = page.locator("#pv-scores .score .points")
    assert cards.nth(0).text_content() == str(guaranteed)
    assert page.text_content("#pv-status").startswith("Game over:")
    assert "(the smallest total wins)" in page.text_content("#pv-status")
    assert page.locator("#pv-played li").count() == len(row)
    mine = [page.text_content(f"#pv-played li:nth-child({k})") for k in range(1, len(row) + 1, 2)]
    assert all(text.endswith("· best") for text in mine)  # the review: hints are best moves
    assert page.is_visible("#pv-review-note")
    assert "rules=misere" in page.url and "moves=" in page.url
    page.screenshot(path=str(shots / "web-variant-play-misere.png"), full_page=True)
    page.reload()  # the finished game comes back from the address
    assert variant_state(page) == "over"
    assert page.locator("#pv-board .coin.taken").count() == len(row)


def test_play_three_players_and_take_two(app_page: Any, live_url: str, shots: Path) -> None:
    page = app_page
    row = [1, 2, 3, 4, 5, 6, 7]
    page.goto(live_url + "#play?coins=" + "%20".join(map(str, row)) + "&rules=players%3A3")
    page.select_option("#pv-seat", "1")  # the second of three seats: the computer opens
    assert variant_state(page) == "your-turn"
    assert page.locator("#pv-played li").count() == 1  # player 1 (a computer) moved
    assert page.locator("#pv-scores .score").count() == 3
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowLeft")  # the keyboard takes the left coin
    assert variant_state(page) == "your-turn"
    assert page.locator("#pv-played li").count() == 4  # mine and the two computers'
    assert page.text_content("#pv-played li:nth-child(2)").startswith("You: L")
    page.keyboard.press("u")  # undo back to before my move
    wait_js(page, "document.querySelectorAll('#pv-played li').length === 1")
    while variant_state(page) == "your-turn":
        page.locator("#pv-moves button").last.click()
        page.wait_for_timeout(50)
    assert "Game over" in page.text_content("#pv-status")
    page.screenshot(path=str(shots / "web-variant-play-3.png"), full_page=True)
    page.select_option("#rules", "take")  # take:2: moves L1, L2, R1, R2
    page.wait_for_selector("#pv-moves button[data-move='L2']")
    page.select_option("#pv-seat", "0")
    assert variant_state(page) == "your-turn"
    labels = [b.get_attribute("data-move") for b in page.locator("#pv-moves button").all()]
    assert labels == ["L1", "L2", "R1", "R2"]
    page.click("#pv-moves button[data-move='L2']")
    assert variant_state(page) == "your-turn"
    assert page.locator("#pv-board .coin.taken").count() >= 3


def test_play_the_pizza_on_the_ring(app_page: Any, live_url: str, shots: Path) -> None:
    page = app_page
    row = [3, 1, 4, 1, 5, 9]
    page.goto(live_url + "#play?coins=" + "%20".join(map(str, row)) + "&rules=circular")
    assert variant_state(page) == "your-turn"
    slices = page.locator("#pv-ring g.slice.active")
    assert slices.count() == len(row)  # the first slice: any
    assert page.locator("#pv-moves button").count() == 0
    page.focus("#pv-ring g.slice[data-slice='5']")
    page.keyboard.press("Enter")  # eat the 9 with the keyboard
    assert variant_state(page) == "your-turn"
    assert "eaten first" in (page.get_attribute("#pv-ring g.slice[data-slice='5']", "class") or "")
    assert page.locator("#pv-ring g.slice.active").count() in (1, 2)  # the ends of the gap
    while variant_state(page) == "your-turn":
        page.locator("#pv-moves button").first.click()
        page.wait_for_timeout(50)
    assert page.locator("#pv-ring g.slice.eaten").count() == len(row)
    first = page.text_content("#pv-played li:nth-child(1)")  # the 9 first is not best here
    assert first.startswith("You: 5 (eat slice 6 (9))")
    assert "best" in first
    page.screenshot(path=str(shots / "web-variant-play-pizza.png"), full_page=True)
