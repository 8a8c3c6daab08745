"""Puzzles in Debian's Chromium, as a learner uses them: the daily puzzle has one try (a
failure, a reload and the other coin do not make it solved), a puzzle of several moves with
the computer answering, the marks and the library's words on a wrong move, retry and "show
solution", themes, the history of attempts and a rating that follows the library's
Glicko-2. One browser page on a phone screen, reused."""

from __future__ import annotations

import datetime
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, wait_js

from coinrow.numbers import json_value
from coinrow.puzzles import PUZZLE_RD, daily_themed_puzzle, themed_puzzle
from coinrow.rating import Rating, update
from coinrow.rules import Rules

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason=f"Chromium is not installed at {CHROMIUM} (`make test` installs it; CI runs these)",
)


def coin(page: Any, index: int) -> Any:
    return page.locator("#puzzle-board button.coin").nth(index)


def ends(puzzle: Any, line: list[str]) -> tuple[int, int]:
    lo, hi = 0, len(puzzle.coins) - 1
    for move in line:
        lo, hi = (lo + 1, hi) if move == "L" else (lo, hi - 1)
    return lo, hi


def shown_rating(page: Any) -> int:
    return int(page.text_content("#puzzle-rating"))


def wait_rating(page: Any, rating: float) -> None:
    wait_js(page, f"document.querySelector('#puzzle-rating').textContent === '{round(rating)}'")


def test_the_daily_puzzle_has_one_try(phone: Any, live_url: str) -> None:
    page = phone
    page.goto(live_url + "#puzzles")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector('#view-puzzles[data-state="open"]')
    puzzle = daily_themed_puzzle(datetime.datetime.now(datetime.UTC).date())
    shown = page.locator("#puzzle-board button.coin").all_text_contents()
    assert shown == [str(json_value(c)) for c in puzzle.coins]
    step = puzzle.steps[0]
    wrong = "R" if step.best == "L" else "L"
    lo, hi = ends(puzzle, [])
    page.tap(f"#puzzle-board button[data-move='{wrong}']")
    page.wait_for_selector('#view-puzzles[data-state="failed"]')
    assert page.text_content("#puzzle-result").startswith("Not this time")
    assert page.text_content("#puzzle-why") == dict(step.why)[wrong]  # the library's words
    chosen, best = (hi, lo) if wrong == "R" else (lo, hi)
    assert "✗" in coin(page, chosen).text_content() and "✓" in coin(page, best).text_content()
    assert page.is_hidden("#puzzle-retry")  # no second try at the daily puzzle
    page.reload()  # and no second try after a reload either
    page.wait_for_selector('#view-puzzles[data-state="failed"]')
    assert page.locator("#puzzle-board button[data-move]").count() == 0
    assert "You have tried today's puzzle: not solved" in page.text_content("#puzzle-result")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("#view-puzzles", "data-state") == "failed"
    assert page.text_content("#puzzle-solved") == "0"
    assert page.text_content("#puzzle-streak") == "0 days"
    expected = update(Rating(), [(Rating(puzzle.rating, PUZZLE_RD), 0)])
    assert shown_rating(page) == round(expected.rating)
    if puzzle.rules == "plain":  # play the row against the computer
        page.tap("#puzzle-play")
        page.wait_for_selector("#view-play:not([hidden])")
        assert page.input_value("#coins") == " ".join(str(json_value(c)) for c in puzzle.coins)
    else:
        assert page.is_hidden("#puzzle-play")


def test_a_puzzle_of_several_moves_retry_solution_and_rating(phone: Any, live_url: str) -> None:
    page = phone
    page.goto(live_url + "#puzzles?puzzle=greedy-trap:4")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector('#view-puzzles[data-state="open"]')
    puzzle = themed_puzzle("greedy-trap", 4)
    assert page.text_content("#puzzle-title") == "Greedy trap 4"
    assert f"Rated {puzzle.rating}" in page.text_content("#puzzle-about")
    # the whole line: each best move, and the computer's answer in between
    played: list[str] = []
    for number, step in enumerate(puzzle.steps):
        wait_js(page, f"document.querySelector('#view-puzzles').dataset.step === '{number}'")
        page.wait_for_selector('#view-puzzles[data-state="open"]')
        page.tap(f"#puzzle-board button[data-move='{step.best}']")
        played.append(step.best)
        if step.reply:
            page.wait_for_selector('#view-puzzles[data-state="open"]')
            lo, hi = ends(puzzle, played)
            index = lo if step.reply == "L" else hi
            assert f"The computer took the {json_value(puzzle.coins[index])}" in page.text_content(
                "#puzzle-result"
            )
            played.append(step.reply)
    page.wait_for_selector('#view-puzzles[data-state="solved"]')
    result = page.text_content("#puzzle-result")
    assert result.startswith("Solved: you take")
    assert f"you finish with {json_value(puzzle.best_total)}" in result
    article = "an" if puzzle.grade[0] in "aeiou" else "a"
    assert f"loses {json_value(puzzle.loss)}, {article} {puzzle.grade}." in result
    won = update(Rating(), [(Rating(puzzle.rating, PUZZLE_RD), 1)])
    wait_rating(page, won.rating)
    assert page.text_content("#puzzle-solved") == "1"
    # another puzzle, missed: the tempting move, then retry (practice) and the solution
    page.select_option("#puzzle-theme", "variant-rules")
    page.tap("#puzzle-next")
    wait_js(page, "document.querySelector('#puzzle-title').textContent.startsWith('Variant')")
    page.wait_for_selector('#view-puzzles[data-state="open"]')
    seed = int(page.text_content("#puzzle-title").split()[-1])
    other = themed_puzzle("variant-rules", seed)
    assert other.to_dict()["rules_words"] == f"Misère: {Rules.parse('misere').describe()}"
    assert page.text_content("#puzzle-task").startswith(other.to_dict()["rules_words"])
    step = other.steps[0]
    wrong = "R" if step.best == "L" else "L"
    page.tap(f"#puzzle-board button[data-move='{wrong}']")
    page.wait_for_selector('#view-puzzles[data-state="failed"]')
    assert page.text_content("#puzzle-why") == dict(step.why)[wrong]
    lost = update(won, [(Rating(other.rating, PUZZLE_RD), 0)])
    wait_rating(page, lost.rating)
    page.tap("#puzzle-retry")
    page.wait_for_selector('#view-puzzles[data-state="open"]')
    assert page.locator("#puzzle-board button.taken").count() == 0
    page.tap("#puzzle-solution")
    result = page.text_content("#puzzle-result")
    assert result.startswith("The solution: you take")
    assert page.locator("#puzzle-board button.taken").count() == len(other.line)
    assert shown_rating(page) == round(lost.rating)  # practice does not count twice
    # the history of attempts, newest first
    page.click("#puzzle-history-box summary")
    items = page.locator("#puzzle-history li").all_text_contents()
    assert len(items) == 2
    assert f"Variant rules: misère {seed}: missed, rating {round(lost.rating)}" in items[0]
    assert f"Greedy trap 4: solved, rating {round(won.rating)}" in items[1]
    page.reload()  # kept in this browser
    page.wait_for_selector("#view-puzzles:not([hidden])")
    wait_rating(page, lost.rating)
