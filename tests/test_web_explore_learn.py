"""Explore, Learn, the Go button, the keyboard and the rules' words in Debian's Chromium (issue
27, defects 7 and 9 to 15 and Explore's classroom): each test follows a defect's steps and
measures what a person sees (contrast, outlines, boxes inside the window, the focused
element, the words on the page). One page per window size and theme, reused."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, CONTROLS, PHONE, close_page, open_page, settle, wait_js

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason=f"Chromium is not installed at {CHROMIUM} (`make test` installs it; CI runs these)",
)

ROW12 = "1%202%203%204%205%206%207%208%209%201%202%203"
ROW8 = "3%202%202%203%201%202%205%204"


def luminance(colour: str) -> float:
    """WCAG's relative luminance of a CSS colour as getComputedStyle gives it (rgb()/rgba())."""
    red, green, blue = (float(v) / 255 for v in re.findall(r"[\d.]+", colour)[:3])

    def linear(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def contrast(one: str, two: str) -> float:
    """WCAG's contrast ratio of two opaque colours."""
    assert re.match(r"rgba?\(", one) and re.match(r"rgba?\(", two), (one, two)
    light, dark = sorted((luminance(one), luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


# --- defect 7: Learn's memoised recursion on a desktop --------------------------------------


def test_learn_memo_on_a_desktop_keeps_the_triangle_wide_and_the_calls_whole(
    desk: Any, live_url: str
) -> None:
    page = desk
    forty = "%20".join(str(k % 9 + 1) for k in range(40))
    for row, step in ((ROW8, 40), (forty, 60), (forty, 400)):
        page.goto(f"{live_url}#learn?coins={row}&method=memo&step={step}")
        page.wait_for_selector("#learn-tree li.current")
        settle(page)
        seen = page.evaluate("""() => {
          const stage = document.querySelector('#learn-stage').getBoundingClientRect();
          const triangle = document.querySelector('#learn-triangle').getBoundingClientRect();
          const legend = document.querySelector('#learn-legend').getBoundingClientRect();
          const tree = document.querySelector('#learn-tree');
          const box = tree.getBoundingClientRect();
          const lines = [...tree.children].filter((li) => getComputedStyle(li).display !== 'none');
          const cut = lines.filter((li) => li.scrollWidth > li.clientWidth + 1
            || li.getBoundingClientRect().right > box.right + 0.5).map((li) => li.textContent);
          return { stage: stage.width, triangle: triangle.width, besideLegend:
                   legend.top < triangle.bottom && legend.left >= triangle.right - 1,
                   cut, lines: lines.length, scrolls: tree.scrollWidth > tree.clientWidth + 1 };
        }""")
        assert seen["lines"] > 5
        assert seen["triangle"] >= 0.6 * seen["stage"], seen  # not a 250 px column
        assert not seen["besideLegend"]
        assert seen["cut"] == [] and not seen["scrolls"], seen  # no "M(12" cut off


# --- defect 9: the Go button, a refused row -------------------------------------------------


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_go_is_readable_on_hover_and_after_a_tap(browser: Any, live_url: str, theme: str) -> None:
    page = open_page(browser, **PHONE, color_scheme=theme)
    try:
        page.goto(f"{live_url}#solve?coins=3%202%202")
        page.wait_for_selector("#solve-result:not([hidden])")
        colours = "(el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]"
        page.hover("#go")
        ink, paper = page.eval_on_selector("#go", colours)
        assert contrast(ink, paper) >= 4.5, (ink, paper)
        page.tap("#go")  # a phone keeps :hover after a tap
        settle(page)
        ink, paper = page.eval_on_selector("#go", colours)
        assert contrast(ink, paper) >= 4.5, (ink, paper)
        # a refused row: marked on the field itself, the message tied to it
        page.fill("#coins", "3 x 2")
        page.tap("#go")
        page.wait_for_selector("#error:not([hidden])")
        field = page.evaluate("""() => {
          const input = document.querySelector('#coins');
          const style = getComputedStyle(input);
          const ids = (input.getAttribute('aria-describedby') || '').split(' ');
          const paper = getComputedStyle(document.documentElement).backgroundColor;
          const said = ids.map((id) => document.getElementById(id))
            .filter((el) => el && !el.hidden).map((el) => el.textContent).join(' ');
          return { invalid: input.getAttribute('aria-invalid'), border: style.borderTopColor,
                   width: parseFloat(style.borderTopWidth), page: paper, said };
        }""")
        assert field["invalid"] == "true"
        assert field["width"] >= 2
        assert contrast(field["border"], field["page"]) >= 3, field
        assert "not a number" in field["said"]
    finally:
        close_page(page)


# --- defect 10: focus on the pizza's slices -------------------------------------------------


def test_a_focused_pizza_slice_shows_its_focus_whatever_marks_it(desk: Any, live_url: str) -> None:
    page = desk
    page.goto(f"{live_url}#solve?coins=3%202%209%205%204%201&rules=circular")
    page.wait_for_selector("#solve-ring g.slice.active")
    page.click("#solve-ring g.slice[data-slice='1']")  # selected
    for slice_ in range(6):  # active everywhere; selected, best and plain slices among them
        page.focus(f"#solve-ring g.slice[data-slice='{slice_}']")
        stroke, width, fill = page.evaluate("""() => {
          const path = document.activeElement.querySelector('path');
          const style = getComputedStyle(path);
          return [style.stroke, parseFloat(style.strokeWidth), style.fill];
        }""")
        assert width >= 4, (slice_, width)
        assert contrast(stroke, fill) >= 3, (slice_, stroke, fill)
    page.goto(f"{live_url}#play?coins=3%202%209%205%204%201&rules=circular&hide=1")
    page.wait_for_selector("#play-ring g.slice.active")
    page.focus("#play-ring g.slice.active")
    width = page.evaluate(
        "parseFloat(getComputedStyle(document.activeElement.querySelector('path')).strokeWidth)"
    )
    assert width >= 4  # the hidden evaluation's thin strokes do not hide the focus


# --- defect 11: the shortcuts dialog; the triangle as one Tab stop --------------------------


def test_the_shortcuts_dialog_is_modal_and_gives_focus_back(desk: Any, live_url: str) -> None:
    page = desk
    page.goto(f"{live_url}#explore?coins={ROW12}")
    page.wait_for_selector("#explore-triangle g.cell")
    page.focus("#explore-best")
    page.keyboard.press("?")
    page.wait_for_selector("#keys-overlay[open]")
    assert page.evaluate("document.activeElement.id") == "keys-close"
    for _ in range(4):  # Tab stays inside the dialog
        page.keyboard.press("Tab")
        inside = page.evaluate(
            "document.activeElement === document.body"
            " || Boolean(document.activeElement.closest('#keys-overlay'))"
        )
        assert inside
    page.keyboard.press("Escape")
    page.wait_for_selector("#keys-overlay:not([open])", state="attached")
    assert page.evaluate("document.activeElement.id") == "explore-best"


def test_the_triangle_is_one_tab_stop_with_arrow_keys(desk: Any, live_url: str) -> None:
    page = desk
    page.goto(f"{live_url}#explore?coins={ROW12}")
    page.wait_for_selector("#explore-triangle g.cell")
    stops = page.evaluate("document.querySelectorAll('#explore-triangle [tabindex=\"0\"]').length")
    assert stops == 1
    page.focus("#explore-best")
    page.keyboard.press("Tab")
    where = "() => { const c = document.activeElement; return [c.dataset.i, c.dataset.j]; }"
    assert page.evaluate(where) == ["0", "11"]  # the whole row first
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label.startswith("coins 1..12")  # focus announces the cell
    page.keyboard.press("ArrowDown")
    assert page.evaluate(where) == ["0", "10"]
    page.keyboard.press("ArrowRight")
    assert page.evaluate(where) == ["1", "11"]
    page.keyboard.press("ArrowUp")
    assert page.evaluate(where) == ["0", "11"]
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    assert "coins 1..11" in page.text_content("#explore-info")
    page.keyboard.press("Tab")  # one Tab leaves the triangle
    assert page.evaluate("document.activeElement.id") == "explore-svg"
    page.keyboard.press("Shift+Tab")  # and comes back to the cell last on
    assert page.evaluate(where) == ["0", "10"]


# --- defect 12: the rules the page explains -------------------------------------------------

RAW_RULES = re.compile(
    r"players:\d|take:(?:\d|any)|reply:\w|front:\d|stone-game-vii|stone-game-ii|both-ends"
    r"|\bunder (?:circular|misere|plain)\b|most coins wins|the most coins"
)


def visible_words(page: Any) -> str:
    return page.evaluate("""() => document.querySelector('main').innerText + ' '
      + [...document.querySelectorAll('main .view:not([hidden]) svg title')]
        .map((t) => t.textContent).join(' ')""")


def test_the_rules_are_said_in_peoples_words(desk: Any, live_url: str) -> None:
    page = desk
    row = "8%2015%203%207%206%202"
    # misère: Solve and Explore give the same number the same name
    page.goto(f"{live_url}#solve?coins={row}&rules=misere")
    wait_js(page, "document.querySelector('#solve-v-verdict').textContent.includes('less')")
    label = page.text_content("#solve-v-margin-label")
    value = page.text_content("#solve-v-margin")
    page.goto(f"{live_url}#explore?coins={row}&rules=misere")
    page.wait_for_selector('#explore-triangle svg[data-rules="misere"]')
    legend = page.text_content(".triangle-legend")
    assert label.startswith("Lead"), label
    assert f"the first player's lead {value}" in legend, (value, legend)
    # a variant's triangle explains its moves and colours
    page.goto(f"{live_url}#explore?coins={row}&rules=take%3A2")
    page.wait_for_selector('#explore-triangle svg[data-rules="take:2"]')
    legend = page.text_content(".triangle-legend")
    assert "Moves: L1 or L2" in legend and "Grey cells" in legend
    # no raw rule names in what the views say
    # an interval variant, a rule of several players and one of a known opponent
    for rules in ("take%3A2", "players%3A3%3Aspite", "reply%3Agreedy"):
        for view in ("solve", "explore", "play"):
            page.goto(f"{live_url}#{view}?coins={row}&rules={rules}")
            page.wait_for_selector(f"#view-{view}:not([hidden])")
            settle(page)  # late answers (a triangle, a note) land
            words = visible_words(page)
            assert RAW_RULES.findall(words) == [], (rules, view, RAW_RULES.findall(words))
    page.goto(f"{live_url}#solve?coins={row}&rules=players%3A3%3Aspite")
    wait_js(page, "document.querySelector('#solve-v-about').textContent.includes('3 players')")
    assert "leaves the best-off other player the least" in page.text_content("#solve-v-about")
    # the pizza: the line, the words and the ring number slices the same way (from 0)
    page.goto(f"{live_url}#solve?coins=3%202%209%205%204%201&rules=circular")
    wait_js(page, "!document.querySelector('#solve-ring-box').hidden")
    first = page.text_content("#solve-v-line").split()[0]
    best = page.text_content("#solve-v-best")
    info = page.text_content("#solve-ring-info")
    assert f"start with slice {first} " in best and f"slice {first} (" in info, (first, best, info)
    drawn = page.evaluate("""() => [...document.querySelectorAll('#solve-ring g.slice')]
      .map((g) => [g.dataset.slice, g.querySelector('text.index').textContent])""")
    assert drawn and all(slice_ == number for slice_, number in drawn)


# --- defect 14 and the classroom --------------------------------------------------------------


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (1920, 1080)])
def test_the_classroom_fits_the_triangle_in_the_window(
    browser: Any, live_url: str, width: int, height: int
) -> None:
    page = open_page(browser, viewport={"width": width, "height": height}, color_scheme="dark")
    try:
        page.goto(f"{live_url}#explore?coins={ROW12}")
        page.wait_for_selector("#explore-triangle g.cell")
        # the library's picture in the dark theme: no white card
        background = page.evaluate(
            "getComputedStyle(document.querySelector('#explore-triangle rect.background')).fill"
        )
        assert contrast(background, "rgb(255, 255, 255)") > 10, background
        page.click("#explore-tools summary")  # the classroom's tools, folded by default
        page.check("#explore-classroom")
        settle(page)
        box = """() => {
          const picture = document.querySelector('#explore-triangle');
          const rects = [...picture.querySelectorAll('g.cell > rect, g.coin > rect')]
            .map((r) => r.getBoundingClientRect());
          const bar = document.querySelector('#explore-class').getBoundingClientRect();
          const value = picture.querySelector('g.cell text.value').getBoundingClientRect();
          return { top: Math.min(...rects.map((r) => r.top)),
                   bottom: Math.max(...rects.map((r) => r.bottom)), cell: rects[0].width,
                   bar: bar.bottom, digits: value.height, height: innerHeight };
        }"""
        seen = page.evaluate(box)
        assert seen["bar"] <= seen["top"] and seen["bottom"] <= seen["height"], seen  # it fits
        assert seen["digits"] >= 14, seen  # numbers a class can read
        assert "classroom=1" in page.url  # a link opens the classroom
        page.click("#explore-zoom-in")
        zoomed = page.evaluate(box)
        assert zoomed["cell"] >= 1.2 * seen["cell"]
        page.click("#explore-zoom-out")
        # i/j labels and a cell's arrows to the cells it reads, on demand
        hidden = "(el) => getComputedStyle(el).visibility"
        assert page.eval_on_selector("#explore-triangle text.ij", hidden) == "hidden"
        page.check("#explore-ij")
        assert page.eval_on_selector("#explore-triangle text.ij", hidden) == "visible"
        cell = "#explore-triangle g.cell[data-i='2'][data-j='5']"
        assert page.text_content(f"{cell} text.ij") == "3,6"
        page.check("#explore-reads")
        page.click(cell)
        reads = "#explore-triangle g.cell.selected g.reads"
        assert page.eval_on_selector(reads, hidden) == "visible"
        read = page.evaluate(
            "[...document.querySelectorAll('#explore-triangle g.cell.read')]"
            ".map((c) => c.dataset.i + ',' + c.dataset.j).sort()"
        )
        assert read == ["2,4", "3,5"]
        # the projector's colours: black on white
        page.check("#explore-projector")
        fill = "(el) => getComputedStyle(el).fill"
        ink = page.eval_on_selector("#explore-triangle text.value", fill)
        paper = page.eval_on_selector("#explore-triangle rect.background", fill)
        assert contrast(ink, paper) >= 15, (ink, paper)
        # fullscreen: the view alone, still fitted
        page.click("#explore-full")
        wait_js(page, "(document.fullscreenElement || {}).id === 'explore-all'")
        settle(page)
        full = page.evaluate(box)
        assert full["bar"] <= full["top"] and full["bottom"] <= full["height"], full
        assert full["cell"] >= 0.9 * seen["cell"], full
        page.click("#explore-full")
        wait_js(page, "!document.fullscreenElement")
    finally:
        close_page(page)


# --- defect 13: tap targets on Explore and Learn at 360 px ----------------------------------


def test_explore_and_learn_controls_are_44_px_on_a_phone(browser: Any, live_url: str) -> None:
    page = open_page(browser, **PHONE)
    try:
        small = []
        for address, ready in (
            (f"#explore?coins={ROW12}&best=1", "#explore-triangle g.cell"),
            (f"#explore?coins={ROW12}&classroom=1", "#explore-all.classroom g.cell"),
            (f"#learn?coins={ROW8}&method=fill&step=5", "#learn-code span.now"),
            (f"#learn?coins={ROW8}&method=memo&step=5", "#learn-tree li.current"),
        ):
            page.goto(live_url + address)
            page.wait_for_selector(ready)
            settle(page)
            for control in page.evaluate(CONTROLS):
                if control["width"] < 44 or control["height"] < 44:
                    small.append((address.split("?")[0], control))
        assert small == []
    finally:
        close_page(page)


# --- defect 15: non-text contrast of Learn's cells and the chart's axis -----------------------


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_learns_empty_and_cache_hit_cells_keep_3_to_1(
    browser: Any, live_url: str, theme: str
) -> None:
    page = open_page(browser, viewport={"width": 1280, "height": 800}, color_scheme=theme)
    try:
        page.goto(f"{live_url}#learn?coins={ROW8}&method=memo&step=30")
        page.wait_for_selector("#learn-triangle g.cell.pending")
        wait_js(page, "document.querySelector('#learn-triangle g.cell.hit')", timeout=5)
        colours = page.evaluate("""() => {
          const style = (sel) => getComputedStyle(document.querySelector(sel));
          const back = style('#learn-triangle rect.background').fill;
          const pending = style('#learn-triangle g.cell.pending > rect');
          const hit = style('#learn-triangle g.cell.hit > rect');
          return { back, pendingEdge: pending.stroke, hitEdge: hit.stroke, hitFill: hit.fill };
        }""")
        assert contrast(colours["pendingEdge"], colours["back"]) >= 3, colours
        assert contrast(colours["hitEdge"], colours["back"]) >= 3, colours
        assert contrast(colours["hitEdge"], colours["hitFill"]) >= 3, colours
        finished = "coins=8%2015%203%207%209%202%206%204&opponent=greedy&seat=second&moves=LLRRLRLL"
        page.goto(f"{live_url}#play?{finished}&ply=5")
        page.wait_for_selector("#play-chart svg")  # (a flat axis line has no height to "see")
        axis, back = page.evaluate("""() => [
          getComputedStyle(document.querySelector('#play-chart .axis')).stroke,
          getComputedStyle(document.documentElement).backgroundColor]""")
        assert contrast(axis, back) >= 3, (axis, back)
    finally:
        close_page(page)
