"""The web page in Debian's Chromium (Playwright), against a live server on 127.0.0.1: every
view, a whole game following the hints, the keyboard, and a 360-pixel phone screen.

Screenshots of each view are taken when ``$COINROW_SCREENSHOTS`` says where to keep them (look
at them). The tests skip only when Chromium is missing outside CI.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, keep_screenshot, wait_js

from coinrow import Table, solve

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason=f"Chromium is not installed at {CHROMIUM} (`make test` installs it; CI runs these)",
)

SEED_ROW = "3 2 2 3 1 2"
GAME_ROW = "5 3 7 10 2 8 6 1 9 4"
MINUS = "\N{MINUS SIGN}"  # the page writes formulas with real minus signs


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("COINROW_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def enter(page: Any, coins: str) -> None:
    page.fill("#coins", coins)
    page.click("#go")


def test_solve_view_and_share_link(app_page: Any, live_url: str, shots: Path) -> None:
    page = app_page
    page.goto(live_url + "#solve")
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
    keep_screenshot(page, shots, "web-solve.png")
    link = page.get_attribute("#share-link", "href")
    assert link is not None and "coins=3%202%202%203%201%202" in link
    page.goto(live_url + "#solve?coins=0.1%2C0.2%2C0.3")  # a shared link opens the row
    page.reload()
    wait_js(page, "document.querySelector('#solve-first').textContent === '0.4'")
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
        f"Selected: coins 3..7 (2 7 7 1 8): second player to move gets {table.value_of(2, 6)}"
    )
    assert page.locator("#explore-triangle g.cell.selected").count() == 1
    page.check('input[name="explore-view"][value="first"]')
    page.wait_for_selector('#explore-triangle svg[data-view="first"]')
    page.check("#explore-best")
    page.wait_for_selector("#explore-triangle g.cell[data-highlight]")
    assert page.locator("#explore-triangle g.cell[data-highlight]").count() == len(row)
    assert page.locator("#explore-triangle g.cell.selected").count() == 1  # kept on redraw
    top = page.locator('#explore-triangle g.cell[data-i="0"][data-j="7"]')
    assert top.get_attribute("data-value") == str(solve(row).first_total)
    keep_screenshot(page, shots, "web-explore.png")


#: The seats' values in the Play view's seat selector.
SEATS = {"first": "0", "second": "1"}


def card(seat: str, part: str = "") -> str:
    """The selector of a seat's score card (or a ``part`` of it) in Play."""
    return f"#play-scores .score[data-seat='{SEATS[seat]}'] {part}".strip()


def play_state(page: Any) -> str:
    wait_js(
        page, "['your-turn', 'over'].includes(document.querySelector('#view-play').dataset.state)"
    )
    return str(page.get_attribute("#view-play", "data-state"))


@pytest.mark.parametrize(("seat", "coins"), [("first", GAME_ROW), ("second", "8 15 3 7 2")])
def test_play_a_whole_game_following_the_hints(
    app_page: Any, live_url: str, shots: Path, seat: str, coins: str
) -> None:
    page = app_page
    # Perfect, with the evaluation shown (a first game's defaults are a middle level, hidden)
    address = f"#play?coins={coins.replace(' ', '%20')}&opponent=optimal&hide=0&seat={SEATS[seat]}"
    page.goto(live_url + address)
    solution = solve(coins.split())
    guaranteed = solution.first_total if seat == "first" else solution.second_total
    n = len(coins.split())
    while play_state(page) == "your-turn":
        current = page.locator("#play-triangle g.cell.current")
        current.wait_for()
        taken = page.locator("#play-board button.taken").count()
        assert page.text_content(card(seat, ".best")) == str(guaranteed)
        page.click("#play-hint")
        hinted = page.locator("#play-board button.hinted")
        assert hinted.count() in (1, 2)
        assert page.text_content("#play-hint-text").startswith("Best: take the")
        hinted.first.click()
        wait_js(page, f"document.querySelectorAll('#play-board .taken').length > {taken}")
    assert page.locator("#play-board button.taken").count() == n
    assert page.text_content(card(seat, ".points")) == str(guaranteed)
    status = page.text_content("#play-status")
    assert "Game over:" in status and f"you {guaranteed}" in status
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
        keep_screenshot(page, shots, "web-play.png")


def test_play_with_the_keyboard(app_page: Any, live_url: str) -> None:
    page = app_page
    page.goto(live_url + "#play?coins=1%202%203%204%205%206")
    page.select_option("#play-strategy", "greedy")
    assert play_state(page) == "your-turn"
    page.locator("body").click(position={"x": 5, "y": 5})  # focus off the select
    page.keyboard.press("ArrowRight")  # takes the 6; greedy answers with the 5
    wait_js(page, "document.querySelectorAll('#play-board .taken').length === 2")
    assert play_state(page) == "your-turn"
    assert page.get_attribute('#play-board button[data-index="5"]', "class") == "coin taken first"
    assert (
        page.get_attribute('#play-board button[data-index="4"]', "class")
        == "coin taken second last"
    )
    page.keyboard.press("h")
    assert page.locator("#play-board button.hinted").count() >= 1
    page.keyboard.press("ArrowLeft")
    wait_js(page, "document.querySelectorAll('#play-board .taken').length === 4")
    assert play_state(page) == "your-turn"
    page.keyboard.press("u")  # back to before the 1 was taken
    wait_js(page, "document.querySelectorAll('#play-board .taken').length === 2")
    assert page.text_content(card("first", ".points")) == "6"


def test_learn_steps_to_the_end(app_page: Any, live_url: str, shots: Path) -> None:
    page = app_page
    row = [8, 15, 3, 7, 6, 2]
    page.goto(live_url + "#learn?coins=" + "%20".join(map(str, row)))
    page.locator("#learn-triangle g.cell").first.wait_for()
    assert page.locator("#learn-triangle g.cell.pending").count() == 20  # one filled of 21
    page.locator("body").click(position={"x": 5, "y": 5})
    for _ in range(6):
        page.keyboard.press("ArrowRight")  # step 7: the first two-coin subgame, 8 15
    assert page.input_value("#learn-step") == "7"
    assert page.text_content("#learn-counter") == "of 21: the subgame of coins 1..2"
    assert page.locator("#learn-triangle g.cell.read").count() == 2
    formula = " ".join(page.text_content("#learn-formula").split())
    expected = "M(1,2) = max(a1 - M(2,2), a2 - M(1,1)) = max(8 - 15, 15 - 8)"
    assert expected.replace(" - ", f" {MINUS} ") in formula
    for _ in range(5):
        page.keyboard.press("ArrowRight")  # step 12: coins 1..3, all four F terms filled
    formula = " ".join(page.text_content("#learn-formula").split())
    assert "= max(8 + min(3, 15), 3 + min(15, 8)) = max(11, 11) = 11" in formula
    keep_screenshot(page, shots, "web-learn.png")
    page.click("#learn-end")
    last = page.locator('#learn-triangle g.cell[data-i="0"][data-j="5"]')
    assert "pending" not in (last.get_attribute("class") or "")
    assert "current" in (last.get_attribute("class") or "")
    value = str(solve(row).first_total)
    assert last.locator("text.value").text_content() == value
    assert page.text_content("#learn-counter").startswith("of 21")
    assert re.search(rf"= {value}(?!\d)", page.text_content("#learn-formula") or "")
    page.select_option("#learn-speed", "60")
    page.click("#learn-start")
    page.click("#learn-play")  # plays to the end by itself
    wait_js(page, "document.querySelector('#view-learn').dataset.step === '20'")
    assert page.text_content("#learn-play") == "▶ Play"

    page.check('input[name="learn-mode"][value="memo"]')
    page.click("#learn-end")
    tree = page.locator("#learn-tree li")
    assert tree.count() == 31 and page.locator("#learn-tree li.hit").count() == 10
    counter = page.text_content("#learn-counter")
    assert counter.startswith("of 31 · cache hits 10 of 10 · subgames computed 21 of 21")
    assert f"2^6 {MINUS} 1 = 63 calls" in counter
    assert page.locator("#learn-triangle g.cell.pending").count() == 0
    assert tree.first.text_content() == f"M(1,6) = {solve(row).margin}"
    page.click("#learn-prev")
    assert page.locator("#learn-tree li.later").count() == 1
    keep_screenshot(page, shots, "web-learn-memo.png")


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
        keep_screenshot(page, shots, f"web-{view}-360.png")


# --- issue 14: the defects, each reproduced by its steps ----------------------------------------


def phone(page: Any) -> None:
    page.set_viewport_size({"width": 360, "height": 740})


def wait_taken(page: Any, count: int) -> None:
    wait_js(page, f"document.querySelectorAll('#play-board .taken').length === {count}")


def colour(page: Any, selector: str, prop: str = "color") -> str:
    return str(page.eval_on_selector(selector, f"e => getComputedStyle(e).{prop}"))


def test_defects_1_7_8_12_moving_second_colours_last_move_and_labels(
    app_page: Any, live_url: str
) -> None:
    page = app_page
    phone(page)
    row = "8 15 3 7 9 2 6 4"
    page.goto(live_url + "#play?coins=" + row.replace(" ", "%20") + "&opponent=greedy&seat=second")
    assert play_state(page) == "your-turn"
    # 8: the computer's move is said and marked; the score cards are above the board, on screen.
    assert "Computer took the left coin (8)" in page.text_content("#play-status")
    assert page.locator("#play-board button.last").text_content() == "8"
    cards = page.locator(card("second")).bounding_box()
    board = page.locator("#play-board").bounding_box()
    assert cards["y"] + cards["height"] <= 740 and cards["y"] < board["y"]
    while play_state(page) == "your-turn":
        taken = page.locator("#play-board .taken").count()
        page.keyboard.press("ArrowRight")
        wait_js(page, f"document.querySelectorAll('#play-board .taken').length > {taken}")
    # 1: the You card wears the colour of your coins (second player's green), not blue.
    assert page.get_attribute(card("second"), "class").startswith("score second")
    assert page.text_content(card("second", ".who")).startswith("You")
    mine = page.locator("#play-board button.taken.second").first
    assert colour(page, card("second")) == str(mine.evaluate("e => getComputedStyle(e).color"))
    assert colour(page, card("first")) == colour(page, "#play-board button.taken.first")
    # 7: the end-of-game table fits 360 px (nothing hidden behind a scroll bar).
    page.wait_for_selector("#play-analysis:not([hidden])")
    wrap = page.eval_on_selector(
        "#play-analysis .table-wrap", "e => [e.scrollWidth, e.clientWidth]"
    )
    assert wrap[0] <= wrap[1]
    # 12: the labels are explained beside the table.
    assert "blunder" in page.text_content("#play-labels")
    assert page.locator("#play-labels").is_visible()


def test_defect_2_keys_work_wherever_focus_is(app_page: Any, live_url: str) -> None:
    page = app_page
    page.goto(live_url + "#play?coins=1%202%203%204%205%206")
    page.select_option("#play-strategy", "greedy")  # focus stays on the select
    assert play_state(page) == "your-turn"
    page.focus("#play-strategy")
    page.keyboard.press("ArrowRight")
    wait_taken(page, 2)
    assert page.input_value("#play-strategy") == "greedy"  # no new game, a coin taken
    page.goto(live_url + "#learn?coins=8%2015%203%207")
    page.locator("#learn-triangle g.cell").first.wait_for()
    page.click('input[name="learn-mode"][value="memo"]')
    page.keyboard.press("ArrowRight")
    assert page.is_checked('input[name="learn-mode"][value="memo"]')
    assert page.get_attribute("#view-learn", "data-step") == "1"


def test_defects_3_4_6_learn_follows_the_cell_and_big_triangles_open_on_top(
    app_page: Any, live_url: str
) -> None:
    page = app_page
    phone(page)
    coins = "%20".join(str(k % 9 + 1) for k in range(40))
    page.goto(live_url + f"#learn?coins={coins}")
    page.locator("#learn-triangle g.cell").first.wait_for()
    for keys in (["ArrowRight"] * 5, ["End"], ["Home"] + ["ArrowRight"] * 40):
        for key in keys:
            page.keyboard.press(key)
        cell = page.locator("#learn-triangle g.cell.current").bounding_box()
        next_button = page.locator("#learn-next").bounding_box()
        assert cell["x"] >= 0 and cell["x"] + cell["width"] <= 360, cell
        assert cell["y"] >= 0 and cell["y"] + cell["height"] <= 740, cell
        assert next_button["y"] >= 0 and next_button["y"] + next_button["height"] <= 740
    page.goto(live_url + f"#explore?coins={coins}")
    page.locator("#explore-triangle g.cell").first.wait_for()
    top = page.locator('#explore-triangle g.cell[data-i="0"][data-j="39"]').bounding_box()
    assert top["x"] >= 0 and top["x"] + top["width"] <= 360  # the top cell is on screen
    legend = page.locator(".triangle-legend")
    assert legend.first.is_visible()
    box = legend.first.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360  # not cut
    sizes = page.eval_on_selector_all(
        ".triangle-legend, .triangle-legend *",
        "es => es.map(e => parseFloat(getComputedStyle(e).fontSize))",
    )
    assert min(sizes) >= 12  # 7.5 px before
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360


def test_defect_5_selected_cell_differs_from_the_optimal_line(app_page: Any, live_url: str) -> None:
    page = app_page
    page.goto(live_url + "#explore?coins=3%202%202%203%201%202&best=1")
    page.wait_for_selector("#explore-triangle g.cell[data-highlight]")
    page.click('#explore-triangle g.cell[data-i="0"][data-j="5"]')  # on the line too
    page.wait_for_selector("#explore-triangle g.cell.selected")
    selected = page.eval_on_selector(
        "#explore-triangle g.cell.selected rect",
        "e => [getComputedStyle(e).stroke, getComputedStyle(e).fill]",
    )
    lit = page.eval_on_selector(
        "#explore-triangle g.cell[data-highlight]:not(.selected) rect",
        "e => [getComputedStyle(e).stroke, getComputedStyle(e).fill]",
    )
    assert selected[0] != lit[0] and selected[1] != lit[1]


def test_defects_9_10_11_history_long_rows_and_numbers(app_page: Any, live_url: str) -> None:
    page = app_page
    page.goto(live_url + "#solve")
    enter(page, "0.1 1/3 5")
    page.wait_for_selector("#solve-result:not([hidden])")
    # the first page's own answer may still be showing: wait for this row's
    wait_js(page, "document.querySelector('#solve-coins li')?.textContent.startsWith('0.1')")
    assert page.text_content("#solve-first") == "5.1"  # not 51/10
    assert page.locator("#solve-coins li").first.text_content().startswith("0.1")
    enter(page, f"{MINUS}2 3 1")  # the minus sign the page prints is read back
    wait_js(page, f"document.querySelector('#solve-first').textContent === '{MINUS}1'")
    page.click("#tab-explore")
    page.wait_for_selector("#explore-triangle svg")
    drawn = page.text_content("#explore-triangle")
    assert f"{MINUS}2" in drawn and "-2" not in drawn
    page.click("#tab-play")
    page.wait_for_selector('#view-play[data-state="your-turn"]')
    page.go_back()  # 9: Back returns to Explore, then to the first row in Solve
    page.wait_for_selector("#view-explore:not([hidden])")
    page.go_back()
    page.go_back()
    wait_js(page, "document.querySelector('#solve-first').textContent === '5.1'")
    assert page.input_value("#coins") == "0.1 1/3 5"
    page.go_forward()
    wait_js(page, "document.querySelector('#coins').value.includes('3 1')")
    long_row = " ".join(["123456789"] * 1000)  # 10: a link that cannot work is not offered
    enter(page, long_row)
    page.wait_for_selector("#solve-result:not([hidden])")
    assert not page.locator("#share-link").is_visible()
    assert "too long for a link" in page.text_content("#share-done")


def test_defects_14_15_16_bad_input_sizes_and_long_rows(app_page: Any, live_url: str) -> None:
    page = app_page
    page.goto(live_url + "#learn?coins=3%20x%202")
    page.wait_for_selector("#error:not([hidden])")
    assert page.get_attribute("#coins", "aria-invalid") == "true"
    assert page.is_disabled("#learn-next") and page.is_disabled("#learn-play")
    assert "Nothing to step through" in page.text_content("#learn-triangle")
    coins = "%20".join(["1"] * 41)
    page.goto(live_url + f"#explore?coins={coins}")
    page.wait_for_selector("#explore-triangle .missing")
    assert "at most 40" in page.text_content("#explore-triangle")
    page.click("#explore-triangle .missing a >> nth=0")
    page.wait_for_selector("#solve-result:not([hidden])")
    page.click("summary")  # 14: the random row's count, checked on the page
    page.fill("#random-n", "0")
    page.click("#random-go")
    assert page.text_content("#error") == "Coins: type a whole number from 1 to 10,000."
    assert page.get_attribute("#random-n", "max") == "10000"
    # 16: Learn's buttons and the share link are 2.5 rem (40 px) high.
    page.goto(live_url + "#learn?coins=8%2015%203%207")
    page.locator("#learn-triangle g.cell").first.wait_for()
    for selector in ("#learn-next", "button.load >> nth=0"):
        assert page.locator(selector).bounding_box()["height"] >= 40
    page.goto(live_url + "#solve?coins=1%202")
    page.wait_for_selector("#solve-result:not([hidden])")
    assert page.locator("#share-link").bounding_box()["height"] >= 40
    phone(page)  # 16: 200 coins on a phone keep the two ends close
    page.goto(live_url + "#play?coins=" + "%20".join(str(k % 9 + 1) for k in range(200)))
    assert play_state(page) == "your-turn"
    left = page.locator('#play-board button.end[data-move="L"]').bounding_box()
    right = page.locator('#play-board button.end[data-move="R"]').bounding_box()
    assert abs(right["y"] - left["y"]) + abs(right["x"] - left["x"]) < 400
    assert "more coins" in page.text_content("#play-board")


def test_defect_16_docs_work_offline(app_page: Any, live_url: str) -> None:
    page = app_page
    outside: list[str] = []

    def only_loopback(route: Any) -> None:
        if route.request.url.startswith(live_url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_loopback)
    page.goto(live_url + "docs")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "coinrow" in page.text_content(".swagger-ui .info .title")
    assert outside == []


# --- issue 14: the new features, used as a person would ------------------------------------------


def test_review_move_list_redo_chart_and_link(app_page: Any, live_url: str) -> None:
    page = app_page
    page.goto(live_url + "#play?coins=8%2015%203%207&opponent=greedy&seat=second")
    assert play_state(page) == "your-turn"
    page.keyboard.press("ArrowLeft")  # take the 15 after greedy's 8 (best)
    wait_taken(page, 3)
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#play-analysis:not([hidden])")
    moves = page.locator("#play-moves button[data-ply]")
    assert moves.count() == 5  # Start and 4 moves
    assert page.locator("#play-chart circle.point").count() == 5
    moves.nth(1).click()  # back to after move 1
    wait_taken(page, 1)
    assert page.get_attribute("#play-moves button[data-ply='1']", "aria-current") == "step"
    assert page.locator("#play-board button.last").text_content() == "8"
    page.click("#play-redo")  # your move and the reply, as undo takes them back
    wait_taken(page, 3)
    page.click("#play-undo")
    wait_taken(page, 1)
    link = page.get_attribute("#play-link", "href")
    assert "moves=LLRL" in link and "ply=1" in link and "opponent=greedy" in link
    page.goto(live_url + "#solve")
    page.goto(live_url + link)  # a link restores the game, its place and the opponent
    page.reload()
    wait_taken(page, 1)
    assert page.input_value("#play-strategy") == "greedy"
    assert page.input_value("#play-seat") == SEATS["second"]
    page.locator("#play-chart circle.point").nth(4).click()
    wait_taken(page, 4)
    assert "Game over" in page.text_content("#play-status")


def test_hide_evaluation_levels_and_two_players(app_page: Any, live_url: str) -> None:
    page = app_page
    page.goto(live_url + "#play?coins=3%202%202%203%201%202")
    wait_js(page, "document.querySelectorAll('#play-strategy option').length > 6")
    options = page.eval_on_selector_all("#play-strategy option", "os => os.map(o => o.text)")
    assert options[:6] == ["Beginner", "Casual", "Club", "Strong", "Expert", "Perfect"]
    page.select_option("#play-strategy", "greedy")
    assert "Measured in the plain game: loses" in page.text_content("#play-about")
    page.check("#play-hide-eval")
    assert not page.locator(card("first", ".best")).is_visible()
    assert not page.locator("#play-triangle").is_visible()
    page.select_option("#play-strategy", "friend")  # two players on one device
    assert play_state(page) == "your-turn"
    assert "First player's turn" in page.text_content("#play-status")
    for move in "LLRLLL":
        taken = page.locator("#play-board .taken").count()
        page.keyboard.press("ArrowLeft" if move == "L" else "ArrowRight")
        wait_taken(page, taken + 1)
    page.wait_for_selector("#play-analysis:not([hidden])")
    summary = page.text_content("#play-summary")
    assert summary.startswith("First player:") and "Second player:" in summary
    assert page.locator(card("first", ".best")).is_visible()  # shown once the game is over
    assert page.text_content(card("first", ".points")) == "8"
    assert page.text_content(card("second", ".points")) == "5"


def test_record_export_and_import(app_page: Any, live_url: str) -> None:
    page = app_page
    page.goto(live_url + "#play?coins=8%2015%203%207&opponent=friend&moves=LLR")
    wait_taken(page, 3)
    with page.expect_download() as download:
        page.click("#play-export")
    text = Path(download.value.path()).read_text()
    assert text.endswith("8 15 3 7\nLLR\n") and "# date:" in text
    page.goto(live_url + "#solve?coins=1")
    page.goto(live_url + "#play?coins=1")
    assert play_state(page) == "your-turn"
    page.click("#play-import-open")
    page.fill("#play-import-text", "# players: Ann vs Bob\n3 2 2 3 1 2\nLLRLLL\n")
    page.click("#play-import-go")  # a record opens on the analysis board, at its start
    wait_js(page, "document.querySelector('#coins').value === '3 2 2 3 1 2'")
    wait_js(page, "document.querySelector('#view-analysis').dataset.state === 'ready'")
    assert page.locator("#an-moves button[data-line='0']").count() == 7


def test_learn_slider_code_links_and_greedy_row(app_page: Any, live_url: str) -> None:
    page = app_page
    page.goto(live_url + "#learn?coins=8%2015%203%207&method=memo&step=5")
    wait_js(page, "document.querySelector('#view-learn').dataset.step === '4'")
    assert page.is_checked('input[name="learn-mode"][value="memo"]')
    assert page.locator("#learn-code span.now").count() >= 1
    page.check('input[name="learn-mode"][value="fill"]')
    page.fill("#learn-slider", "7")
    wait_js(page, "document.querySelector('#view-learn').dataset.step === '6'")
    assert page.text_content("#learn-code span.now").strip().startswith("else: F(i, j)")
    wait_js(page, "location.hash.includes('method=fill') && location.hash.includes('step=7')")
    page.reload()
    wait_js(page, "document.querySelector('#view-learn').dataset.step === '6'")
    page.click('button.load[data-strategy="greedy"]')  # greedy losing, on the analysis board
    page.wait_for_selector("#view-analysis:not([hidden])")
    wait_js(page, "document.querySelector('#view-analysis').dataset.state === 'ready'")
    assert page.input_value("#coins") == "8 15 3 7"
    assert page.locator("#an-moves button[data-line='0']").count() == 5  # Start and LLRL
    page.keyboard.press("ArrowRight")  # step through: greedy's 8 is the first move
    wait_js(page, "document.querySelector('#an-moves [aria-current]').dataset.ply === '1'")
    assert "The first player: take the left coin (8)" in page.text_content("#an-status")
    first = page.text_content("#an-moves button[data-line='0'][data-ply='1']")
    assert first.endswith("??")  # a blunder


def test_explore_link_and_downloads(app_page: Any, live_url: str) -> None:
    page = app_page
    page.goto(live_url + "#explore?coins=3%202%202%203%201%202&show=margin&cell=1%2C4")
    page.wait_for_selector('#explore-triangle svg[data-view="margin"]')
    page.wait_for_selector('#explore-triangle g.cell.selected[data-i="1"][data-j="4"]')
    with page.expect_download() as svg:
        page.click("#explore-svg")
    assert Path(svg.value.path()).read_text().startswith("<svg")
    with page.expect_download() as png:
        page.click("#explore-png")
    assert Path(png.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_shortcut_overlay_dark_theme_and_reduced_motion(browser: Any, live_url: str) -> None:
    context = browser.new_context(color_scheme="dark", reduced_motion="reduce")
    page = context.new_page()
    page.goto(live_url)
    page.wait_for_selector("#view-home:not([hidden])")  # the first screen
    background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    assert background == "rgb(21, 21, 21)"
    page.keyboard.press("?")
    assert page.locator("#keys-overlay").is_visible()
    assert page.evaluate("document.activeElement.id") == "keys-close"
    page.keyboard.press("Escape")
    assert page.locator("#keys-overlay").is_hidden()
    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    context.close()


def contrast(foreground: str, background: str) -> float:
    """WCAG contrast ratio of two computed CSS colours ``rgb(r, g, b)``."""

    def luminance(css: str) -> float:
        channels = [int(x) / 255 for x in re.findall(r"\d+", css)[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_defect_13_contrast_of_hints_labels_and_cards(
    browser: Any, live_url: str, theme: str
) -> None:
    context = browser.new_context(color_scheme=theme)
    page = context.new_page()
    page.goto(live_url + "#play?coins=3%202%202%203%201%202&opponent=friend&moves=RRLLLL&ply=4")
    page.wait_for_selector("#play-analysis:not([hidden])")
    page.keyboard.press("h")
    wait_js(page, "document.querySelector('#play-hint-text').textContent !== ''")
    page_bg = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    # Every label colour as the table would draw it, and the hint, on the page.
    for label in ("best", "inaccuracy", "mistake", "blunder"):
        page.eval_on_selector(
            "#play-analysis-table tbody td:last-child", f"e => e.className = '{label}'"
        )
        ink = colour(page, "#play-analysis-table tbody td:last-child")
        assert contrast(ink, page_bg) >= 4.5, (label, ink, page_bg)
    assert contrast(colour(page, "#play-hint-text"), page_bg) >= 4.5
    assert contrast(colour(page, ".help"), page_bg) >= 4.5
    for seat in SEATS:
        ink, bg = colour(page, card(seat)), colour(page, card(seat), "backgroundColor")
        assert contrast(ink, bg) >= 4.5, (seat, ink, bg)
    context.close()


# --- issue 24: crafted links fall back with a notice; the page passes its own CSP -------------


@pytest.mark.parametrize(
    ("address", "bad", "ready"),
    [
        ("#learn?coins=3%202%202%203%201%202&step=abc", "step=abc", "#learn-triangle svg"),
        ('#explore?coins=3%202%202%203%201%202&show="]', 'show="]', "#explore-triangle svg"),
        (
            "#explore?coins=3%202%202%203%201%202&show=margin&cell=a,b",
            "cell=a,b",
            "#explore-triangle svg",
        ),
        ("#play?coins=3%202%202%203%201%202&seat=x'&ply=-1", "seat=x'", "#play-board button"),
        (
            "#solve?coins=3%202%202%203%201%202&rules=take:abc",
            "rules=take:abc",
            "#solve-result:not([hidden])",
        ),
        ("#puzzles?puzzle=1e9", "puzzle=1e9", "#view-puzzles:not([hidden])"),
        ("#nowhere?coins=1%202", "view", "#view-home:not([hidden])"),
    ],
)
def test_crafted_links_fall_back_with_a_notice(
    app_page: Any, live_url: str, address: str, bad: str, ready: str
) -> None:
    page = app_page  # fails on any page error or refusal of the CSP
    page.goto(live_url + address)
    page.wait_for_selector("#link-notice:not([hidden])")
    notice = page.text_content("#link-notice")
    assert bad.split("=")[0] in notice and "the default is used" in notice
    page.wait_for_selector(ready)


def test_crafted_links_keep_their_defaults(app_page: Any, live_url: str) -> None:
    page = app_page
    page.goto(live_url + '#explore?coins=3%202%202%203%201%202&show="]&best=1')
    page.wait_for_selector("#explore-triangle svg")
    assert page.is_checked('input[name="explore-view"][value="total"]')  # the default view
    assert page.is_checked("#explore-best")  # the good parameter is kept
    page.goto(live_url + "#learn?coins=3%202%202%203%201%202&step=abc&method=memo")
    memo = 'document.querySelector(\'input[name="learn-mode"][value="memo"]\')?.checked'
    wait_js(page, f"{memo} && document.querySelector('#learn-slider')?.value === '1'")
    assert page.is_checked('input[name="learn-mode"][value="memo"]')  # the good one is kept
    page.goto(live_url + "#learn?coins=3%202%202%203%201%202&step=3")  # a good link: no notice
    wait_js(page, "document.querySelector('#learn-slider')?.value === '3'")
    assert page.is_hidden("#link-notice")
