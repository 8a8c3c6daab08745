"""The first screen and the page's controls in Debian's Chromium: a landing that offers Play,
Learn and Solve a row (and gives no answer away), a light/dark switch beside the system's
setting that is kept across reloads, and tap targets of at least 44 x 44 CSS px at 360 px on
the landing, Learn (both methods, the quiz on) and Puzzles (open and answered). One page per
screen, reused."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, CONTROLS, wait_js

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason=f"Chromium is not installed at {CHROMIUM} (`make test` installs it; CI runs these)",
)


def test_the_first_screen_invites_and_gives_nothing_away(phone: Any, live_url: str) -> None:
    page = phone
    page.goto(live_url)
    page.wait_for_selector("#view-home:not([hidden])")
    choices = page.locator("#view-home .choices li")
    assert [choices.nth(k).locator("button").text_content() for k in range(3)] == [
        "Play",
        "Learn",
        "Solve a row",
    ]
    for k in range(3):  # one sentence each
        sentence = choices.nth(k).locator("p").text_content().strip()
        assert sentence.endswith(".") and sentence.count(". ") == 0
    assert page.is_hidden("#solve-result") and page.is_hidden("#view-play")
    assert "wins by" not in page.inner_text("body")  # no answer on the first screen
    top = page.locator("#view-home .choices button").first.bounding_box()
    assert top["y"] + top["height"] <= 740  # the choices are on the first screen
    page.tap("#view-home button[data-go='learn']")
    page.wait_for_selector("#learn-triangle svg")
    assert "#learn" in page.url
    page.go_back()
    page.wait_for_selector("#view-home:not([hidden])")
    page.tap("#view-home button[data-go='solve']")
    page.wait_for_selector("#solve-result:not([hidden])")


def test_the_theme_switch_beside_the_system_setting(browser: Any, live_url: str) -> None:
    context = browser.new_context(color_scheme="dark", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    background = "getComputedStyle(document.documentElement).backgroundColor"
    page.goto(live_url)
    page.wait_for_selector("#view-home:not([hidden])")
    assert page.input_value("#theme") == "system"
    assert page.evaluate(background) == "rgb(21, 21, 21)"  # the system's dark
    page.select_option("#theme", "light")
    assert page.evaluate(background) == "rgb(255, 255, 255)"
    page.reload()  # kept in this browser
    page.wait_for_selector("#view-home:not([hidden])")
    assert page.input_value("#theme") == "light"
    assert page.evaluate(background) == "rgb(255, 255, 255)"
    page.select_option("#theme", "dark")
    page.emulate_media(color_scheme="light")  # the switch wins over a light system too
    assert page.evaluate(background) == "rgb(21, 21, 21)"
    page.select_option("#theme", "system")
    assert page.evaluate(background) == "rgb(255, 255, 255)"
    page.reload()
    page.wait_for_selector("#view-home:not([hidden])")
    assert page.input_value("#theme") == "system"
    context.close()


def small_targets(page: Any) -> list[dict[str, Any]]:
    return [c for c in page.evaluate(CONTROLS) if c["width"] < 44 - 0.05 or c["height"] < 44 - 0.05]


def test_tap_targets_are_44_px_at_360(phone: Any, live_url: str) -> None:
    page = phone
    found: dict[str, list[dict[str, Any]]] = {}
    counts: dict[str, int] = {}
    row = "8%2015%203%207%209%202%206%204"
    states = [
        ("home", "#", "#view-home:not([hidden])", None),
        ("learn", f"#learn?coins={row}&step=12", "#learn-code span.now", None),
        ("learn-quiz", f"#learn?coins={row}&method=memo&step=9", "#learn-tree li.current",
         "#learn-quiz"),
        ("puzzles", "#puzzles?puzzle=greedy-trap:4", '#view-puzzles[data-state="open"]', None),
        ("puzzles-answered", "#puzzles?puzzle=greedy-trap:5", '#view-puzzles[data-state="open"]',
         "#puzzle-solution"),
    ]  # fmt: skip
    for name, address, ready, tap in states:
        page.goto(live_url + address)
        page.wait_for_selector(ready)
        if tap:
            page.tap(tap)
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        counts[name] = len(page.evaluate(CONTROLS))
        small = small_targets(page)
        if small:
            found[name] = small
    print("tap targets measured:", counts)
    assert all(count >= 5 for count in counts.values())
    assert found == {}
    wait_js(page, "true")
