"""The web page in Debian's Chromium (Playwright), against a live server on 127.0.0.1: every
view, a whole game following the hints, the keyboard, and a 360-pixel phone screen.

Screenshots of each view go to ``$COINROW_SCREENSHOTS`` when set (look at them), else to a
temporary directory. The tests skip only when Chromium is missing outside CI.
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from conftest import CHROMIUM

from coinrow import Table, solve

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from coinrow.web import create_app

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason=f"Chromium is not installed at {CHROMIUM} (`make test` installs it; CI runs these)",
)

SEED_ROW = "3 2 2 3 1 2"
GAME_ROW = "5 3 7 10 2 8 6 1 9 4"
MINUS = "\N{MINUS SIGN}"  # the page writes formulas with real minus signs


@pytest.fixture(scope="module")
def live_url() -> Iterator[str]:
    """The app served by uvicorn in a thread, on a free loopback port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("COINROW_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def app_page(page: Any, live_url: str) -> Any:
    """The page, failing the test on any JavaScript error."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_viewport_size({"width": 1000, "height": 900})
    page.set_default_timeout(10_000)
    yield page
    assert errors == []


def enter(page: Any, coins: str) -> None:
    page.fill("#coins", coins)
    page.click("#go")


def test_solve_view_and_share_link(app_page: Any, live_url: str, shots: Path) -> None:
    page = app_page
    page.goto(live_url)
    enter(page, SEED_ROW)
    page.wait_for_selector("#solve-result:not([hidden])")
    assert page.text_content("#solve-first") == "8"
    assert page.text_content("#solve-second") == "5"
    assert page.text_content("#solve-verdict") == "The first player wins by 3."
    assert page.text_content("#solve-line") == "LLRLLL"
    chips = page.locator("#solve-coins li")
    assert chips.count() == 6
    assert [chips.nth(k).get_attribute("class") for k in range(6)] == [
        "first", "second", "second", "first", "second", "first"
    ]  # fmt: skip
    page.screenshot(path=str(shots / "web-solve.png"), full_page=True)
    link = page.get_attribute("#share-link", "href")
    assert link is not None and "coins=3%202%202%203%201%202" in link
    page.goto(live_url + "#solve?coins=0.1%2C0.2%2C0.3")  # a shared link opens the row
    page.reload()
    page.wait_for_function("document.querySelector('#solve-first').textContent === '0.4'")
    enter(page, "3 x 2")
    page.wait_for_selector("#error:not([hidden])")
    assert page.text_content("#error") == "coin 2 ('x'): not a number"


def test_explore_cells_match_the_table(app_page: Any, live_url: str, shots: Path) -> None:
    page = app_page
    row = [4, 9, 2, 7, 7, 1, 8, 3]
    page.goto(live_url + "#explore?coins=" + "%20".join(map(str, row)))
    cells = page.locator("#explore-triangle g.cell")
    cells.first.wait_for()
    assert cells.count() == len(row) * (len(row) + 1) // 2
    table = Table(row)
    page.click('#explore-triangle g.cell[data-i="2"][data-j="6"]')
    info = page.text_content("#explore-info")
    assert info.startswith(
        f"coins 3..7 (2 7 7 1 8): second player to move gets {table.value_of(2, 6)}"
    )
    assert 'class="cell selected"' in page.inner_html("#explore-triangle")
    page.check('input[name="explore-view"][value="first"]')
    page.wait_for_selector('#explore-triangle svg[data-view="first"]')
    page.check("#explore-best")
    page.wait_for_selector("#explore-triangle g.cell[data-highlight]")
    assert page.locator("#explore-triangle g.cell[data-highlight]").count() == len(row)
    assert page.locator("#explore-triangle g.cell.selected").count() == 1  # kept on redraw
    top = page.locator('#explore-triangle g.cell[data-i="0"][data-j="7"]')
    assert top.get_attribute("data-value") == str(solve(row).first_total)
    page.screenshot(path=str(shots / "web-explore.png"), full_page=True)


def play_state(page: Any) -> str:
    page.wait_for_function(
        "['your-turn', 'over'].includes(document.querySelector('#view-play').dataset.state)"
    )
    return str(page.get_attribute("#view-play", "data-state"))


@pytest.mark.parametrize(("seat", "coins"), [("first", GAME_ROW), ("second", "8 15 3 7 2")])
def test_play_a_whole_game_following_the_hints(
    app_page: Any, live_url: str, shots: Path, seat: str, coins: str
) -> None:
    page = app_page
    page.goto(live_url + "#play?coins=" + coins.replace(" ", "%20"))
    page.select_option("#play-seat", seat)
    solution = solve(coins.split())
    guaranteed = solution.first_total if seat == "first" else solution.second_total
    n = len(coins.split())
    while play_state(page) == "your-turn":
        current = page.locator("#play-triangle g.cell.current")
        current.wait_for()
        taken = page.locator("#play-board button.taken").count()
        assert page.text_content("#play-you-best") == str(guaranteed)
        page.click("#play-hint")
        hinted = page.locator("#play-board button.hinted")
        assert hinted.count() in (1, 2)
        assert page.text_content("#play-hint-text").startswith(("Best: take", "Both ends"))
        hinted.first.click()
        page.wait_for_function(f"document.querySelectorAll('#play-board .taken').length > {taken}")
    assert page.locator("#play-board button.taken").count() == n
    assert page.text_content("#play-you") == str(guaranteed)
    status = page.text_content("#play-status")
    assert status.startswith(f"Game over: you took {guaranteed}")
    page.wait_for_selector("#play-analysis:not([hidden])")
    rows = page.locator("#play-analysis-table tbody tr")
    assert rows.count() == n
    labels = [rows.nth(k).locator("td").nth(6).text_content() for k in range(n)]
    mine = labels[0 if seat == "first" else 1 :: 2]
    assert mine == ["best"] * len(mine)
    assert f"guaranteed you {guaranteed}, and you took {guaranteed}" in page.text_content(
        "#play-summary"
    )
    if seat == "first":
        page.screenshot(path=str(shots / "web-play.png"), full_page=True)


def test_play_with_the_keyboard(app_page: Any, live_url: str) -> None:
    page = app_page
    page.goto(live_url + "#play?coins=1%202%203%204%205%206")
    page.select_option("#play-strategy", "greedy")
    assert play_state(page) == "your-turn"
    page.locator("body").click(position={"x": 5, "y": 5})  # focus off the select
    page.keyboard.press("ArrowRight")  # takes the 6; greedy answers with the 5
    page.wait_for_function("document.querySelectorAll('#play-board .taken').length === 2")
    assert play_state(page) == "your-turn"
    assert page.get_attribute('#play-board button[data-index="5"]', "class") == "coin taken first"
    assert page.get_attribute('#play-board button[data-index="4"]', "class") == "coin taken second"
    page.keyboard.press("h")
    assert page.locator("#play-board button.hinted").count() >= 1
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelectorAll('#play-board .taken').length === 4")
    assert play_state(page) == "your-turn"
    page.keyboard.press("u")  # back to before the 1 was taken
    page.wait_for_function("document.querySelectorAll('#play-board .taken').length === 2")
    assert page.text_content("#play-you") == "6"


def test_learn_steps_to_the_end(app_page: Any, live_url: str, shots: Path) -> None:
    page = app_page
    row = [8, 15, 3, 7, 6, 2]
    page.goto(live_url + "#learn?coins=" + "%20".join(map(str, row)))
    page.locator("#learn-triangle g.cell").first.wait_for()
    assert page.locator("#learn-triangle g.cell.pending").count() == 20  # one filled of 21
    page.locator("body").click(position={"x": 5, "y": 5})
    for _ in range(6):
        page.keyboard.press("ArrowRight")  # step 7: the first two-coin subgame, 8 15
    assert page.text_content("#learn-counter") == "Step 7 of 21: the subgame of coins 1..2"
    assert page.locator("#learn-triangle g.cell.read").count() == 2
    formula = " ".join(page.text_content("#learn-formula").split())
    expected = "M(1,2) = max(a1 - M(2,2), a2 - M(1,1)) = max(8 - 15, 15 - 8)"
    assert expected.replace(" - ", f" {MINUS} ") in formula
    for _ in range(5):
        page.keyboard.press("ArrowRight")  # step 12: coins 1..3, all four F terms filled
    formula = " ".join(page.text_content("#learn-formula").split())
    assert "= max(8 + min(3, 15), 3 + min(15, 8)) = max(11, 11) = 11" in formula
    page.screenshot(path=str(shots / "web-learn.png"), full_page=True)
    page.click("#learn-end")
    last = page.locator('#learn-triangle g.cell[data-i="0"][data-j="5"]')
    assert "pending" not in (last.get_attribute("class") or "")
    assert "current" in (last.get_attribute("class") or "")
    value = str(solve(row).first_total)
    assert last.locator("text").text_content() == value
    assert page.text_content("#learn-counter").startswith("Step 21 of 21")
    assert re.search(rf"= {value}(?!\d)", page.text_content("#learn-formula") or "")
    page.select_option("#learn-speed", "60")
    page.click("#learn-start")
    page.click("#learn-play")  # plays to the end by itself
    page.wait_for_function("document.querySelector('#view-learn').dataset.step === '20'")
    assert page.text_content("#learn-play") == "▶ Play"

    page.check('input[name="learn-mode"][value="memo"]')
    page.click("#learn-end")
    tree = page.locator("#learn-tree li")
    assert tree.count() == 31 and page.locator("#learn-tree li.hit").count() == 10
    counter = page.text_content("#learn-counter")
    assert counter.startswith("Call 31 of 31 · cache hits 10 of 10 · subgames computed 21 of 21")
    assert f"2^6 {MINUS} 1 = 63 calls" in counter
    assert page.locator("#learn-triangle g.cell.pending").count() == 0
    assert tree.first.text_content() == f"M(1,6) = {solve(row).margin}"
    page.click("#learn-prev")
    assert page.locator("#learn-tree li.later").count() == 1
    page.screenshot(path=str(shots / "web-learn-memo.png"), full_page=True)


def test_phone_width_has_no_horizontal_scrolling(app_page: Any, live_url: str, shots: Path) -> None:
    page = app_page
    page.set_viewport_size({"width": 360, "height": 740})
    coins = "12 7 31 4 18 9 25 3 16 8 21 5"
    page.goto(live_url + "#solve?coins=" + coins.replace(" ", "%20"))
    ready = {
        "solve": "#solve-result:not([hidden])",
        "explore": "#explore-triangle svg",
        "play": '#view-play[data-state="your-turn"]',
        "learn": "#learn-triangle svg",
    }
    for view, selector in ready.items():
        page.click(f"#tab-{view}")
        page.wait_for_selector(selector)
        if view == "learn":
            page.click("#learn-end")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{view} is {width} px wide"
        page.screenshot(path=str(shots / f"web-{view}-360.png"), full_page=True)
