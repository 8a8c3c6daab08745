"""One Play view for every rules, in Debian's Chromium (Playwright) against the live server
on 127.0.0.1: a game under ``take:2`` against the computer with hints, undo, redo, the review
(move list and evaluation chart) and a share link, each compared with the library (the best
moves of ``Position.best_moves``, the totals of ``Game``, the evaluation of
``coinrow.review.evaluation``); the pizza played on the library's ring; three players; two
people on one device; and stone-game-ii, which the Play view offers only once positions hold
it (the ``positions`` flag of ``/api/rules``).

And the page's JavaScript itself: no code that draws cells, triangles or rings (every picture
is the library's SVG) and no rule's name or description (they come from ``/api/rules``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, play_state, wait_js

from coinrow import Game, Position, Rules
from coinrow.review import evaluation
from coinrow.rules import RULES
from coinrow.web.pages import STATIC

CHROMIUM_READY = Path(CHROMIUM).exists() or bool(os.environ.get("CI"))
browser_only = pytest.mark.skipif(
    not CHROMIUM_READY,
    reason=f"Chromium is not installed at {CHROMIUM} (`make test` installs it; CI runs these)",
)
MINUS = "\N{MINUS SIGN}"


def shown(value: object) -> str:
    return str(value).replace("-", MINUS)


#: The default timeout of conftest's ``app_page`` in this module.
PAGE_TIMEOUT_MS = 15_000


def totals_on_page(page: Any) -> list[str]:
    cards = page.locator("#play-scores .score .points")
    return [cards.nth(k).text_content() for k in range(cards.count())]


def moves_on_page(page: Any) -> list[str]:
    buttons = page.locator("#play-moves button[data-ply]:not([data-ply='0'])")
    return [buttons.nth(k).text_content().split()[1] for k in range(buttons.count())]


@browser_only
def test_a_take_two_game_with_hints_undo_redo_review_and_link(app_page: Any, live_url: str) -> None:
    page, row, rules = app_page, [4, 9, 1, 7, 2, 8, 6, 3], "take:2"
    page.goto(live_url + "#play?coins=" + "%20".join(map(str, row)) + "&rules=take%3A2")
    assert play_state(page) == "your-turn"
    assert page.input_value("#rules") == "take" and page.input_value("#rules-param") == "2"
    labels = [b.get_attribute("data-move") for b in page.locator("#play-choices button").all()]
    assert labels == list(Position.start(row, rules=rules).legal_moves())
    while play_state(page) == "your-turn":  # follow the hints; the computer answers in the call
        played = moves_on_page(page)
        position = Game(row, played, rules=rules).position
        page.click("#play-hint")
        hint = page.locator("#play-hint-text")
        assert hint.get_attribute("data-moves") == " ".join(position.best_moves())
        best = Game(row, played, rules=rules).best_totals()
        assert page.text_content("#play-scores .score.first .best") == shown(best[0])
        page.locator("#play-choices button.hinted").first.click()
        wait_js(
            page,
            f"document.querySelectorAll('#play-moves button[data-ply]').length > {len(played) + 1}",
        )
    line = moves_on_page(page)
    final = Game(row, line, rules=rules)
    assert final.position.is_over and totals_on_page(page) == [shown(t) for t in final.totals]
    assert "Game over:" in page.text_content("#play-status")
    series = [shown(point.margin) for point in evaluation(row, line, rules=rules)]
    assert page.get_attribute("#play-chart svg", "aria-label").endswith(", ".join(series))
    assert page.locator("#play-chart circle.point").count() == len(line) + 1
    page.wait_for_selector("#play-analysis:not([hidden])")
    assert page.locator("#play-analysis-table tbody tr").count() == len(line)
    assert page.locator("#play-triangle svg g.cell").count() == len(row) * (len(row) + 1) // 2

    page.click("#play-undo")  # back before my last move; the line is kept for redo
    wait_js(page, f"document.querySelector('#play-moves [aria-current]').dataset.ply < {len(line)}")
    assert play_state(page) == "your-turn"
    ply = int(page.get_attribute("#play-moves [aria-current]", "data-ply"))
    assert totals_on_page(page) == [shown(t) for t in Game(row, line[:ply], rules=rules).totals]
    page.click("#play-redo")
    wait_js(page, f"document.querySelector('#play-moves [aria-current]').dataset.ply > {ply}")
    page.click("#play-moves button[data-ply='1']")  # the review: the position after move 1
    wait_js(page, "document.querySelector('#play-moves [aria-current]').dataset.ply === '1'")
    assert totals_on_page(page) == [shown(t) for t in Game(row, line[:1], rules=rules).totals]
    assert moves_on_page(page) == line  # stepping through never changes the game
    link = page.get_attribute("#play-link", "href")
    assert "rules=take%3A2" in link and "ply=1" in link
    page.goto(live_url + link)  # the share link: the same game at the same move
    page.reload()
    wait_js(page, "document.querySelector('#play-moves [aria-current]')?.dataset.ply === '1'")
    assert moves_on_page(page) == line
    assert totals_on_page(page) == [shown(t) for t in Game(row, line[:1], rules=rules).totals]


@browser_only
def test_each_move_is_one_api_call(app_page: Any, live_url: str) -> None:
    """A move, the computer's answer, the review, the evaluation and the picture come back in
    one ``POST /api/play`` (six calls a move before the single Play view); counted from the
    browser's own requests over three moves, under the plain game and take:2."""
    page, row = app_page, [4, 9, 1, 7, 2, 8, 6, 3, 5, 10, 2, 6, 1, 9]
    calls: list[str] = []
    page.on(
        "request",
        lambda request: (
            calls.append(f"{request.method} {request.url.split('/', 3)[3]}")
            if "/api/" in request.url
            else None
        ),
    )
    for rules in ("plain", "take%3A2"):
        address = "#play?coins=" + "%20".join(map(str, row)) + f"&rules={rules}"
        page.goto("about:blank")  # a new page load: no game of this page is discarded
        page.goto(live_url + address + "&opponent=greedy&seat=first")
        assert play_state(page) == "your-turn"
        for move in range(3):
            calls.clear()
            page.locator("#play-choices button").first.click()
            wait_js(
                page,
                "document.querySelectorAll('#play-moves button[data-ply]').length"
                f" > {2 * move + 2}",
            )
            assert play_state(page) == "your-turn"
            assert calls == ["POST api/play"], (rules, move, calls)


@browser_only
def test_the_pizza_on_the_librarys_ring_and_three_players(app_page: Any, live_url: str) -> None:
    page, row = app_page, [3, 1, 4, 1, 5, 9]
    page.goto(live_url + "#play?coins=" + "%20".join(map(str, row)) + "&rules=circular&seat=0")
    assert play_state(page) == "your-turn"
    slices = page.locator("#play-ring svg.coinrow-ring g.slice.active")
    assert slices.count() == len(row)  # the library's ring; every slice may be eaten first
    page.focus("#play-ring g.slice[data-slice='5']")
    page.keyboard.press("Enter")  # eat the 9 with the keyboard; the computer answers
    wait_js(page, "document.querySelectorAll('#play-ring g.slice.eaten').length === 2")
    line = moves_on_page(page)
    assert line[0] == "5" and len(line) == 2
    assert totals_on_page(page) == [str(t) for t in Game(row, line, rules="circular").totals]
    page.goto(live_url + "#play?coins=1%202%203%204%205%206%207&rules=players%3A3&seat=1&hide=0")
    wait_js(page, "document.querySelectorAll('#play-scores .score').length === 3")
    assert play_state(page) == "your-turn"
    assert len(moves_on_page(page)) == 1  # player 1, the computer, opened
    assert page.is_hidden("#play-chart-box")  # a margin needs two players
    assert "no table of subgames" in page.text_content("#play-picture-note")


@browser_only
def test_friends_and_a_rule_without_positions(app_page: Any, live_url: str) -> None:
    page = app_page
    page.goto(live_url + "#play?coins=8%2015%203%207&rules=misere&opponent=friend")
    assert play_state(page) == "your-turn"
    for move in range(4):
        page.keyboard.press("ArrowLeft")
        wait_js(
            page, f"document.querySelectorAll('#play-moves button[data-ply]').length > {move + 1}"
        )
        play_state(page)
    wait_js(page, "document.querySelector('#view-play').dataset.state === 'over'")
    assert moves_on_page(page) == ["L", "L", "L", "L"]  # every seat moved by hand
    hidden = page.eval_on_selector(
        "#rules option[value='stone-game-ii']", "o => [o.hidden, o.disabled]"
    )
    playable = Rules.parse("stone-game-ii").positions
    assert hidden == [not playable, not playable]  # offered in Play once positions hold it
    page.goto(live_url + "#play?coins=1%202%203&rules=stone-game-ii")
    expected = "your-turn" if playable else "unplayable"
    # the finished game's state shows until the new one is read: wait for the new game's
    wait_js(page, f"document.querySelector('#view-play').dataset.state === '{expected}'")
    assert play_state(page) == expected


# --- the page's JavaScript ------------------------------------------------------------------

#: Code that builds SVG elements (cells, wedges, rings): the library draws every picture.
DRAWING = re.compile(r"createElementNS|<(?:rect|path|g)\b|\bwedge\b|Math\.(?:cos|sin)\(")


def drawing_code(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if DRAWING.search(line)]


def rule_words(text: str) -> list[str]:
    """Quoted rule names and any rule's title or description in the JavaScript."""
    found = []
    for rule in RULES.values():
        words = (rule.name, rule.title, rule().describe(), rule().moves_help())
        for word in words:
            if re.search(r"[\"'`]" + re.escape(word) + r"(?::|[\"'`])", text) or (
                len(word) > 12 and word in text
            ):
                found.append(word)
    return found


def test_the_javascript_draws_nothing_and_names_no_rule() -> None:
    scripts = sorted((STATIC / "js").glob("*.js"))
    assert {path.name for path in scripts} >= {"play.js", "explore.js", "solve.js", "rules.js"}
    assert (
        not (STATIC / "js" / "ring.js").exists() and not (STATIC / "js" / "playrules.js").exists()
    )
    for path in scripts:
        text = path.read_text(encoding="utf-8")
        assert drawing_code(text) == [], path.name
        assert rule_words(text) == [], path.name


def test_the_checks_catch_a_planted_drawing_and_a_rule_name() -> None:
    # the defects each check guards against, planted: both must be caught
    assert drawing_code('const g = document.createElementNS(NS, "g");')
    assert drawing_code("group.append(node('path', { d: wedge(a, b) }));")
    assert rule_words('if (data.rules === "circular") return "the lowest slice first";')
    assert rule_words('const HELP = { "take": "Take 1 to K coins" };')
    assert rule_words(f"help = {RULES['misere'].description!r};")
