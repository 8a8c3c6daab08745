"""The analysis board (issue 27), in Debian's Chromium against the live server on 127.0.0.1,
used as a person would, each answer compared with the library (``coinrow.analysis``); and
``/api/analysis`` itself through the TestClient.

Defect 1 of the issue, each of its three paths followed: the "why not" row of Learn stepped
with → (the line LLRL stays, forward stays possible), a finished game in Play stepped from
Start with → (the game stays whole), an imported record stepped back with ← from move 4
(moves 5-10 stay)."""

from __future__ import annotations

import os
import random
import warnings
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, wait_js

with warnings.catch_warnings():  # starlette's TestClient warns about httpx on import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from coinrow import Game
from coinrow.analysis import analyze, lessons
from coinrow.web import create_app

browser_only = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason=f"Chromium is not installed at {CHROMIUM} (`make test` installs it; CI runs these)",
)
MINUS = "\N{MINUS SIGN}"


# --- /api/analysis ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url="http://127.0.0.1")


@pytest.mark.parametrize(
    ("rules", "row"),
    [
        ("plain", [8, 15, 3, 7, 9, 2]),
        ("take:2", [4, 9, 1, 7, 2, 8]),
        ("circular", [4, 9, 1, 7, 2]),
        ("players:3", [4, 9, 1, 7, 2, 8]),
        ("misere", [4, 9, 1, 7, 2]),
        ("reply:greedy", [4, 9, 1, 7, 2, 8]),
        ("stone-game-ii", [2, 7, 9, 4, 4]),
        ("stone-game-vii", [5, 3, 1, 4, 2]),
    ],
)
def test_the_board_answers_as_the_library(client: TestClient, rules: str, row: list[int]) -> None:
    chooser = random.Random(3)
    game = Game(row, rules=rules)
    while not game.position.is_over:
        game.push(chooser.choice(game.position.legal_moves()))
    moves = list(game.moves)
    body = {"coins": row, "rules": rules, "moves": " ".join(moves), "ply": 2, "seat": 0}
    data = client.post("/api/analysis", json=body).json()
    assert data["moves"] == moves and data["ply"] == 2 and data["replies"] == []
    line = "".join(moves) if rules == "plain" else moves
    shown = Game(row, line[:2], rules=rules).position
    assert [legal["move"] for legal in data["legal"]] == list(shown.legal_moves())
    judged = analyze(row, line, rules=rules)
    assert data["review"] == [move.to_dict() for move in judged.moves]
    assert data["lessons"] == [
        lesson.to_dict() for lesson in lessons(row, moves, rules=rules, you=0)
    ]
    assert data["names"][0] == "you"
    assert data["symbols"] == {"best": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def test_the_board_refuses_what_it_cannot_show(client: TestClient) -> None:
    too_far = client.post("/api/analysis", json={"coins": [1, 2], "moves": "L", "ply": 2})
    assert too_far.status_code == 422 and "beyond" in too_far.json()["detail"]
    seat = client.post("/api/analysis", json={"coins": [1, 2], "seat": 2})
    assert seat.status_code == 422 and "seat" in seat.json()["detail"]
    illegal = client.post("/api/analysis", json={"coins": [1, 2], "moves": "LLL"})
    assert illegal.status_code == 422


# --- the page ---------------------------------------------------------------------------------


#: The default timeout of conftest's ``app_page`` in this module.
PAGE_TIMEOUT_MS = 15_000


def ready(page: Any, ply: int | None = None, state: str = "ready") -> None:
    """Wait for the board's answer (at ``ply`` of the line shown, when given; ``state``:
    ``puzzle`` while learning from mistakes)."""
    done = f"document.querySelector('#view-analysis').dataset.state === '{state}'"
    wait_js(page, done)
    if ply is not None:
        current = "document.querySelector('#an-moves [aria-current]')?.dataset.ply"
        wait_js(page, f"{current} === '{ply}'")
        wait_js(page, done)


def main_line(page: Any) -> list[str]:
    buttons = page.locator("#an-moves > li > button[data-line='0']:not([data-ply='0'])")
    return [buttons.nth(k).text_content().split()[1] for k in range(buttons.count())]


def play_moves(page: Any) -> list[str]:
    buttons = page.locator("#play-moves button[data-ply]:not([data-ply='0'])")
    return [buttons.nth(k).text_content().split()[1] for k in range(buttons.count())]


@browser_only
def test_defect_1_why_not_row_steps_without_playing(app_page: Any, live_url: str) -> None:
    page = app_page
    page.goto(live_url + "#learn")
    page.click("button.load[data-coins='8 15 3 7']")  # "step through it with →"
    ready(page, 0)
    line = main_line(page)
    assert "".join(line) == "LLRL"
    page.keyboard.press("ArrowRight")
    ready(page, 1)
    page.keyboard.press("ArrowRight")
    ready(page, 2)
    assert main_line(page) == line  # the recorded line stays LLRL
    assert page.is_enabled("#an-next")  # and forward stays possible (Redo on the old review)
    assert page.locator("#an-moves .an-variation").count() == 0
    # the review summary at a glance: the library's accuracy and counts, ?? in the move list
    summary = analyze([8, 15, 3, 7], "LLRL").summaries
    rows = page.locator("#an-summary tbody tr")
    for seat, side in enumerate(summary):
        cells = rows.nth(seat).locator("td").all_text_contents()
        labels = side.labels
        assert cells == [
            f"{round(side.accuracy)}%",
            *(str(labels[k]) for k in ("inaccuracy", "mistake", "blunder")),
        ]
    assert page.text_content("#an-moves button[data-line='0'][data-ply='1']").endswith("??")
    # after the blunder: the library's words and best line, then that line on the board
    page.keyboard.press("ArrowLeft")
    ready(page, 1)
    (lesson,) = lessons([8, 15, 3, 7], "LLRL")
    assert page.text_content("#an-lesson-text") == lesson.words
    assert page.get_attribute("#an-best-line", "data-moves") == " ".join(
        move.move for move in lesson.best_line
    )
    page.locator("#an-best-line button").first.click()
    wait_js(page, "document.querySelector('#an-moves [aria-current]')?.dataset.line === '1'")
    ready(page)
    taken = page.locator("#an-board button.coin.last").text_content()
    assert taken == "7"  # the best move, on the board, as a variation beside the game
    assert main_line(page) == line


@browser_only
def test_defect_1_a_finished_game_stays_whole(app_page: Any, live_url: str) -> None:
    page = app_page
    row, line = [3, 9, 1, 2, 7, 5], "LRLRLR"
    coins = "%20".join(map(str, row))
    page.goto(live_url + f"#play?coins={coins}&opponent=optimal&seat=0&moves=LR&hide=1")
    wait_js(page, "document.querySelector('#view-play').dataset.state === 'your-turn'")
    assert page.is_hidden("#play-analyse")  # no board while Play hides the evaluation
    page.goto(
        live_url + f"#play?coins={'%20'.join(map(str, row))}&opponent=optimal&seat=0&moves={line}"
    )
    wait_js(page, "document.querySelector('#view-play').dataset.state === 'over'")
    page.click("#play-moves button[data-ply='0']")  # Start in the move list
    wait_js(page, "document.querySelector('#play-moves [aria-current]')?.dataset.ply === '0'")
    for ply in (1, 2, 3):
        idle = "['your-turn', 'over', 'review']"
        wait_js(page, f"{idle}.includes(document.querySelector('#view-play').dataset.state)")
        page.keyboard.press("ArrowRight")
        wait_js(
            page, f"document.querySelector('#play-moves [aria-current]')?.dataset.ply === '{ply}'"
        )
    assert play_moves(page) == list(line)  # the game stays whole
    # and the game opens on the analysis board at the move shown
    page.click("#play-analyse")
    ready(page, 3)
    assert "".join(main_line(page)) == line
    assert "seat=0" in page.url and "opponent=optimal" in page.url
    page.click("#an-retry")  # a Play game from this position
    wait_js(page, "document.querySelector('#view-play').dataset.state === 'your-turn'")
    moves = play_moves(page)
    assert moves[:3] == list(line[:3]) and len(moves) == 4  # the computer answered move 4
    assert Game(row, "".join(moves)).position.turn == "first"


@browser_only
def test_defect_1_an_imported_record_keeps_its_moves(app_page: Any, live_url: str) -> None:
    page = app_page
    row, line = [5, 1, 8, 2, 6, 4, 9, 3, 7, 2], "LRRLLRLRRL"
    page.goto(live_url + "#play?coins=1%202")
    page.click("#play-import-open")
    page.fill("#play-import-text", " ".join(map(str, row)) + "\n" + line + "\n")
    page.click("#play-import-go")
    ready(page, 0)
    page.click("#an-moves button[data-line='0'][data-ply='4']")  # click move 4
    ready(page, 4)
    page.keyboard.press("ArrowLeft")
    ready(page, 3)
    assert "".join(main_line(page)) == line  # moves 5-10 are kept


@browser_only
def test_variations_beside_the_game_and_learning_from_mistakes(
    app_page: Any, live_url: str
) -> None:
    page = app_page
    row, line = [8, 15, 3, 7, 9, 2], "LLRRLR"
    page.goto(live_url + f"#analysis?coins={'%20'.join(map(str, row))}&moves={line}&ply=2&seat=0")
    ready(page, 2)
    legal = Game(row, line[:2]).position
    other = "L" if line[2] == "R" else "R"
    page.focus(f"#an-choices button[data-move='{other}']")  # another move: a variation
    page.keyboard.press("Enter")  # from the keyboard
    wait_js(page, "document.querySelector('#an-moves [aria-current]')?.dataset.line === '1'")
    ready(page)
    focused = "document.activeElement.closest('#an-board, #an-choices')?.id"
    assert page.evaluate(focused) in ("an-board", "an-choices")  # the focus stays on the board
    assert "".join(main_line(page)) == line
    assert "vars=2%3A" + other in page.url and "var=1" in page.url
    page.keyboard.press("ArrowLeft")  # steps on the variation's line, never changes a line
    ready(page, 2)
    page.click("#an-moves button[data-line='0'][data-ply='2']")  # back on the main line
    wait_js(page, "!location.hash.includes('var=1')")
    page.reload()  # the address holds the main line and the variation
    ready(page, 2)
    assert page.locator("#an-moves .an-variation button[data-ply]").count() == 1
    coin = row[legal.coin_index(other)]  # its coin and label come with its own review
    first = "document.querySelector('.an-variation button[data-ply]').textContent"
    wait_js(page, f"{first}.startsWith('3. {other} {coin}')")
    page.click("#an-moves .an-variation button[data-ply='3']")  # select it
    ready(page, 3)
    assert page.get_attribute("#an-moves [aria-current]", "data-line") == "1"
    assert page.locator("#an-board button.coin.last").text_content() == str(
        row[legal.coin_index(other)]
    )
    page.focus("#an-moves button[data-delete='1']")  # delete it, from the keyboard
    page.keyboard.press("Enter")
    ready(page, 2)
    assert page.evaluate("document.activeElement.id") == "an-moves"
    assert page.locator("#an-moves .an-variation").count() == 0
    assert "".join(main_line(page)) == line and "vars=" not in page.url
    # Learn from your mistakes: each of the person's (seat 0) moves that was not the best
    mine = [lesson for lesson in lessons(row, line, you=0) if lesson.seat == 0]
    assert mine
    page.click("#an-learn")
    for lesson in mine:
        ready(page, lesson.step - 1, "puzzle")
        best = Game(row, line[: lesson.step - 1]).best_moves()
        wrong = [
            m for m in Game(row, line[: lesson.step - 1]).position.legal_moves() if m not in best
        ]
        if wrong:
            page.click(f"#an-choices button[data-move='{wrong[0]}']")
            assert "not the best" in page.text_content("#an-puzzle-result")
            assert "".join(main_line(page)) == line  # a wrong answer plays nothing
        page.click(f"#an-choices button[data-move='{best[0]}']")
        assert page.text_content("#an-puzzle-result").endswith(
            lesson.words + (" That was the last one." if lesson is mine[-1] else "")
        )
        if lesson is not mine[-1]:
            page.click("#an-puzzle-next")
    page.click("#an-puzzle-stop")
    assert page.is_hidden("#an-puzzle")


@browser_only
def test_the_board_under_other_rules_keyboard_and_touch(browser: Any, live_url: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(15_000)
    for rules, row, moves in [
        ("take:2", [4, 9, 1, 7, 2, 8], ["L2", "L1", "R1", "R2"]),
        ("circular", [4, 9, 1, 7, 2], ["1", "L", "R", "L", "R"]),
        ("players:3", [4, 9, 1, 7, 2, 8], ["L", "R", "L", "R", "L", "R"]),
    ]:
        text = "%20".join(moves)
        page.goto(
            live_url
            + f"#analysis?coins={'%20'.join(map(str, row))}&rules={rules.replace(':', '%3A')}"
            f"&moves={text}&ply=0&seat=0"
        )
        ready(page, 0)
        page.keyboard.press("ArrowRight")
        ready(page, 1)
        page.keyboard.press("End")
        ready(page, len(moves))
        page.keyboard.press("ArrowLeft")
        ready(page, len(moves) - 1)
        assert main_line(page) == moves
        expected = lessons(row, moves, rules=rules, you=0)
        if expected:
            page.tap(f"#an-moves button[data-line='0'][data-ply='{expected[0].step}']")
            ready(page, expected[0].step)
            assert page.text_content("#an-lesson-text") == expected[0].words
        small = page.evaluate(
            """() => [...document.querySelectorAll('#view-analysis button, #view-analysis a')]
            .filter((e) => e.offsetParent).map((e) => e.getBoundingClientRect())
            .filter((r) => r.width < 44 || r.height < 44).length"""
        )
        assert small == 0  # every control at least 44 x 44 px at 360 px
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()
    assert errors == []
