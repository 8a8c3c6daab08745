"""Play and Solve for a first game (issue 27), in Debian's Chromium against the live server on
127.0.0.1, following the issue's steps: a confirmation before anything discards a game in
progress (Cancel keeps the game and the address, Back brings a discarded game back); "Hide
evaluation" hides every result until the game ends; first-game defaults (a middle level,
the evaluation hidden, no triangle, no empty chart); Play on a 360 x 740 touch screen (the
board on screen after tapping Play, a 10-coin row on one line); every control of Play and
Solve at least 44 x 44 CSS px at 360 px; the chart's axes and the library's words of a
perfect game; past games kept in the browser, listed, resumed and deleted.

One phone page and one desktop page for the whole module (cheap: small rows)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, CONTROLS, play_state, settle, wait_js

from coinrow import Game
from coinrow.analysis import analyze

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason=f"Chromium is not installed at {CHROMIUM} (`make test` installs it; CI runs these)",
)

ROW = "8%2015%203%207%209%202%206%204"


def played(page: Any) -> list[str]:
    buttons = page.locator("#play-moves button[data-ply]:not([data-ply='0'])")
    return [buttons.nth(k).text_content().split()[1] for k in range(buttons.count())]


def take(page: Any, side: str, *, tap: bool = False) -> None:
    """Take the coin at one end (a coin button, as a person taps it); wait for the answer."""
    before = page.locator("#play-board .taken").count()
    coin = page.locator(f'#play-board button.end[data-move="{side}"]')
    coin.tap() if tap else coin.click()
    wait_js(page, f"document.querySelectorAll('#play-board .taken').length > {before}")
    play_state(page)


def fresh(page: Any, live_url: str, address: str) -> None:
    """A page with no saved games and no game: the address loaded from a blank page."""
    page.goto(live_url + "#home")
    page.evaluate("localStorage.clear()")
    page.goto("about:blank")
    page.goto(live_url + address)


def visible_words(page: Any, root: str) -> str:
    """Everything a person sees or hears inside ``root``: the visible text, and the titles
    and labels of visible elements (SVG titles included)."""
    return str(
        page.evaluate(
            """(root) => {
      const box = document.querySelector(root);
      const seen = (el) => el.getClientRects().length > 0
        && getComputedStyle(el).visibility !== "hidden";
      const words = [box.innerText];
      for (const el of box.querySelectorAll("*")) {
        if (el.tagName.toLowerCase() === "title") {
          if (el.parentElement && seen(el.parentElement)) words.push(el.textContent);
          continue;
        }
        if (!seen(el)) continue;
        for (const name of ["title", "aria-label", "aria-description"]) {
          if (el.getAttribute(name)) words.push(el.getAttribute(name));
        }
      }
      return words.join("\\n");
    }""",
            root,
        )
    )


# --- defect 4: the defaults suit a first game -----------------------------------------------


def test_defect_4_play_defaults_suit_a_first_game(desk: Any, live_url: str) -> None:
    page = desk
    fresh(page, live_url, "#")
    page.click("#view-home button[data-go='play']")
    assert play_state(page) == "your-turn"
    options = page.eval_on_selector_all("#play-strategy option", "os => os.map(o => o.text)")
    levels = options[:-1]  # the last is friends on this device
    chosen = page.eval_on_selector("#play-strategy", "s => s.selectedOptions[0].text")
    assert chosen == levels[(len(levels) - 1) // 2] and chosen != "Perfect"  # a middle level
    assert page.is_checked("#play-hide-eval")
    assert not page.locator("#play-triangle svg").is_visible()  # no solved triangle
    assert not page.locator("#play-chart-box").is_visible()  # no empty chart
    words = visible_words(page, "#view-play")
    assert "wins by" not in words and "best play from here" not in words
    while play_state(page) == "your-turn":
        take(page, "L")
    assert play_state(page) == "over"  # the game ended: now every result shows
    assert page.locator("#play-triangle svg").is_visible()
    assert page.locator("#play-chart svg").is_visible()
    assert page.locator("#play-scores .sub").first.is_visible()


# --- defect 3: "Hide evaluation" hides every result -----------------------------------------


def test_defect_3_hide_evaluation_hides_every_result(desk: Any, live_url: str) -> None:
    page = desk
    fresh(page, live_url, f"#play?coins={ROW}&opponent=optimal&seat=first&hide=0")
    assert play_state(page) == "your-turn"
    page.wait_for_selector("#play-triangle svg")
    assert "wins by" in visible_words(page, "#view-play")  # shown: the triangle's title
    page.check("#play-hide-eval")  # the steps: hide it, then a hint, then play on
    for move in ("", "R"):
        if move:
            take(page, move)
        page.click("#play-hint")
        wait_js(page, "document.querySelector('#play-hint-text').textContent.startsWith('Best:')")
        words = visible_words(page, "#view-play")
        for result in ("wins by", "finish with", "first player 3", "best play from", "margin"):
            assert result not in words, (move, result)
        assert not page.locator(".triangle-legend").first.is_visible()
    totals = Game([8, 15, 3, 7, 9, 2, 6, 4], "".join(played(page))).best_totals()
    for total in totals:  # no guaranteed total anywhere in the view's words
        assert f" {total}" not in page.text_content("#play-hint-text")
    # the pizza is its own board: its slices stay, their margins and the best slice go
    page.goto(live_url + "#play?coins=3%201%204%201%205%209&rules=circular&seat=0&hide=1")
    page.wait_for_selector("#play-ring g.slice.active")
    assert play_state(page) == "your-turn"
    words = visible_words(page, "#view-play")
    assert "slice 5: 9" in words
    assert "margin" not in words and "gets" not in words and "best first slice" not in words


# --- defect 2: a confirmation before anything discards a game in progress --------------------


def test_defect_2_changing_the_opponent_or_seat_mid_game_asks_first(
    desk: Any, live_url: str
) -> None:
    page = desk
    fresh(page, live_url, f"#play?coins={ROW}&opponent=greedy&seat=first")
    assert play_state(page) == "your-turn"
    take(page, "L")
    line = played(page)
    address = page.url
    page.reload()  # a reloaded game is still the game in progress
    wait_js(
        page,
        f"document.querySelectorAll('#play-moves button[data-ply]').length === {len(line) + 1}",
    )
    page.select_option("#play-strategy", "optimal")  # the step
    dialog = page.locator("#play-confirm")
    assert dialog.is_visible() and page.evaluate("document.querySelector('#play-confirm').open")
    assert page.evaluate("document.activeElement.closest('#play-confirm') !== null")
    page.keyboard.press("Tab")  # modal: focus stays inside
    assert page.evaluate("document.activeElement.closest('#play-confirm') !== null")
    from axe_playwright_python.sync_playwright import Axe

    findings = Axe().run(page).response["violations"]
    assert [(v["id"], v["impact"]) for v in findings if v["impact"] != "minor"] == []
    assert page.evaluate("document.activeElement.closest('#play-confirm') !== null")
    page.keyboard.press("Escape")  # Cancel: the game, the opponent and the address stay
    assert not dialog.is_visible()
    assert played(page) == line and page.input_value("#play-strategy") == "greedy"
    assert page.url == address
    page.select_option("#play-seat", "1")
    assert dialog.is_visible()
    page.click("#play-confirm-keep")
    assert played(page) == line and page.input_value("#play-seat") == "0"
    assert page.url == address
    page.select_option("#play-strategy", "optimal")
    page.click("#play-confirm-new")  # discard: a new game against Perfect
    wait_js(page, "document.querySelectorAll('#play-moves button[data-ply]').length === 0")
    assert "moves=" not in page.url and "opponent=optimal" in page.url
    page.go_back()  # the address kept its moves: Back brings the game back
    wait_js(
        page,
        f"document.querySelectorAll('#play-moves button[data-ply]').length === {len(line) + 1}",
    )
    assert played(page) == line and page.input_value("#play-strategy") == "greedy"


def test_defect_2_a_new_row_or_rules_mid_game_asks_first_on_a_phone(
    phone: Any, live_url: str
) -> None:
    page = phone
    fresh(page, live_url, f"#play?coins={ROW}&opponent=greedy&seat=first")
    assert play_state(page) == "your-turn"
    take(page, "R", tap=True)
    line, address = played(page), page.url
    page.fill("#coins", "1 2 3")
    page.tap("#go")
    page.wait_for_selector("#play-confirm[open]")
    keep = page.locator("#play-confirm-keep").bounding_box()
    assert keep["width"] >= 44 and keep["height"] >= 44
    page.tap("#play-confirm-keep")  # touch: keep the game, its row and its address
    assert page.input_value("#coins") == "8 15 3 7 9 2 6 4" and played(page) == line
    assert page.url == address
    page.select_option("#rules", "misere")
    page.wait_for_selector("#play-confirm[open]")
    page.tap("#play-confirm-keep")
    assert page.input_value("#rules") == "plain" and page.url == address
    page.tap("#tab-solve")  # another row chosen in Solve: back in Play, asked too
    page.fill("#coins", "1 2 3")
    page.tap("#go")
    page.wait_for_selector("#solve-result:not([hidden])")
    page.tap("#tab-play")
    page.wait_for_selector("#play-confirm[open]")
    page.tap("#play-confirm-keep")
    assert page.input_value("#coins") == "8 15 3 7 9 2 6 4" and played(page) == line
    wait_js(page, f"location.hash === {address.split('#')[1]!r}.replace(/^/, '#')")
    page.click("#play-new")  # New game asks too
    page.wait_for_selector("#play-confirm[open]")
    page.tap("#play-confirm-new")
    wait_js(page, "document.querySelectorAll('#play-moves button[data-ply]').length === 0")
    page.go_back()
    wait_js(
        page,
        f"document.querySelectorAll('#play-moves button[data-ply]').length === {len(line) + 1}",
    )


# --- defect 5: Play on a phone --------------------------------------------------------------


def test_defect_5_play_on_a_phone(phone: Any, live_url: str) -> None:
    page = phone
    fresh(page, live_url, "#")
    page.wait_for_selector("#view-home:not([hidden])")
    page.tap("#view-home button[data-go='play']")
    assert play_state(page) == "your-turn"
    settle(page)  # the scroll that brings the board on screen
    board = page.locator("#play-board").bounding_box()
    assert board["y"] >= 0 and board["y"] + board["height"] <= 740, board
    page.goto(live_url + "#play?coins=5%203%207%2010%202%208%206%201%209%204&seat=first")
    assert play_state(page) == "your-turn"
    coins = page.locator("#play-board button.coin")
    boxes = [coins.nth(k).bounding_box() for k in range(coins.count())]
    assert len(boxes) == 10
    assert len({round(box["y"]) for box in boxes}) == 1  # one line
    assert boxes[-1]["x"] + boxes[-1]["width"] <= 360  # the right end on screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    choices = page.locator("#play-choices button")
    assert choices.count() == 2
    left, right = choices.nth(0).bounding_box(), choices.nth(1).bounding_box()
    assert abs(left["y"] - right["y"]) < 1  # "Right" beside "Left", not under it


# --- defect 13: every control of Play and Solve at least 44 x 44 at 360 px ---------------------


def test_defect_13_every_play_and_solve_control_is_44_px(phone: Any, live_url: str) -> None:
    page = phone
    fresh(page, live_url, f"#play?coins={ROW}&opponent=greedy&seat=first&hide=0")
    counts: dict[str, int] = {}
    small: dict[str, list[dict[str, Any]]] = {}

    def measure(name: str) -> None:
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        # the board's coins that cannot be taken now are disabled: not targets (WCAG 2.5.8)
        found = [
            c
            for c in page.evaluate(CONTROLS)
            if not c["what"].startswith("button#.coin ") or " end" in c["what"]
        ]
        counts[name] = len(found)
        tiny = [c for c in found if c["width"] < 44 - 0.05 or c["height"] < 44 - 0.05]
        if tiny:
            small[name] = tiny

    assert play_state(page) == "your-turn"
    take(page, "L", tap=True)
    take(page, "L", tap=True)
    measure("play-mid-game")
    page.tap("#play-new")
    page.wait_for_selector("#play-confirm[open]")
    measure("play-confirm")
    page.tap("#play-confirm-keep")
    page.tap("#play-import-open")
    measure("play-import")
    while play_state(page) == "your-turn":
        take(page, "R", tap=True)
    page.wait_for_selector("#play-analysis:not([hidden])")
    measure("play-over")
    page.tap("#play-moves button[data-ply='2']")
    wait_js(page, "document.querySelector('#play-moves [aria-current]')?.dataset.ply === '2'")
    measure("play-review")
    page.goto(live_url + f"#solve?coins={ROW}")
    page.wait_for_selector("#solve-result:not([hidden])")
    measure("solve")
    page.goto(live_url + "#solve?coins=3%201%204%201%205%209&rules=circular")
    page.wait_for_selector("#solve-variant:not([hidden])")
    measure("solve-pizza")
    print("tap targets measured:", counts)
    assert all(count >= 10 for count in counts.values())
    assert small == {}


# --- defect 15: the chart's axes, plural words and a perfect game's words -----------------------


def test_defect_15_chart_axes_and_the_words_of_a_perfect_game(desk: Any, live_url: str) -> None:
    page = desk
    # You move second on an even row against Perfect and play only best moves: you lose,
    # and are told you played perfectly (the library's words).
    fresh(page, live_url, "#play?coins=8%2015%203%207&opponent=optimal&seat=second&hide=0")
    while play_state(page) == "your-turn":
        page.click("#play-hint")
        before = page.locator("#play-board .taken").count()
        page.locator("#play-board button.hinted").first.click()
        wait_js(page, f"document.querySelectorAll('#play-board .taken').length > {before}")
    assert play_state(page) == "over" and "Computer wins" in page.text_content("#play-status")
    line = "".join(played(page))
    summary = page.text_content("#play-summary")
    assert "You played perfectly" in summary
    assert summary == analyze([8, 15, 3, 7], line).second.sentence("You", you=True, lost=True)
    # the chart: values on both axes, the curve spread over the plot (no empty half)
    chart = page.locator("#play-chart svg")
    labels = page.eval_on_selector_all("#play-chart svg text", "ts => ts.map(t => t.textContent)")
    margins = [
        int(label.replace("\N{MINUS SIGN}", "-"))
        for label in labels
        if label.lstrip("\N{MINUS SIGN}").isdigit()
    ]
    assert 0 in margins and len(set(margins)) >= 3  # the margin axis and the move axis
    plot = chart.bounding_box()  # the points and the 0 line span the plot: no empty half
    marks = [page.locator("#play-chart line.axis").bounding_box()]
    marks += [box.bounding_box() for box in page.locator("#play-chart circle.point").all()]
    extent = max(m["y"] + m["height"] for m in marks) - min(m["y"] for m in marks)
    assert extent >= 0.6 * plot["height"], (extent, plot)
    # plural: a player who gave away exactly one point
    page.goto(live_url + "#play?coins=3%202%202%203%201%202&opponent=friend&moves=LLLRLL&hide=0")
    wait_js(page, "document.querySelector('#play-summary').textContent.startsWith('First player')")
    summary = page.text_content("#play-summary")
    assert "1 point given away" in summary and "1 points" not in summary


# --- saved games ----------------------------------------------------------------------------


def test_past_games_are_kept_listed_resumed_and_deleted(desk: Any, live_url: str) -> None:
    page = desk
    fresh(page, live_url, f"#play?coins={ROW}&opponent=greedy&seat=first")
    assert play_state(page) == "your-turn"
    take(page, "L")
    line = played(page)
    page.goto(live_url + "#play?coins=1%202%203%204&opponent=greedy&seat=first")
    wait_js(page, "document.querySelectorAll('#play-board button.coin').length === 4")
    assert play_state(page) == "your-turn"
    take(page, "R")
    spoilt = "[...JSON.parse(localStorage.getItem('coinrow.games')), {id: 5}, 'x', {id: 'y'}]"
    page.evaluate(f"localStorage.setItem('coinrow.games', JSON.stringify({spoilt}))")
    page.goto("about:blank")  # the browser closed and opened again
    page.goto(live_url + "#play?coins=5%206")
    assert play_state(page) == "your-turn"
    page.evaluate("document.querySelector('#play-saved-box').open = true")
    games = page.locator("#play-saved li")
    assert games.count() == 2
    assert "8 15 3 7 9 2 6 4" in games.nth(1).text_content()  # newest first
    games.nth(1).locator("button.resume").click()
    wait_js(
        page,
        f"document.querySelectorAll('#play-moves button[data-ply]').length === {len(line) + 1}",
    )
    assert played(page) == line and page.input_value("#coins") == "8 15 3 7 9 2 6 4"
    assert play_state(page) == "your-turn"
    take(page, "L")  # the resumed game goes on, kept in the same entry
    page.evaluate("document.querySelector('#play-saved-box').open = true")
    assert page.locator("#play-saved li").count() == 2
    first = page.locator("#play-saved li").first
    assert "8 15 3 7 9 2 6 4" in first.text_content()
    first.locator("button.delete").click()
    wait_js(page, "document.querySelectorAll('#play-saved li').length === 1")
    kept = page.evaluate("JSON.parse(localStorage.getItem('coinrow.games')).length")
    assert kept == 1
