"""Learn in Debian's Chromium: a whole step on screen at every step, on a phone and a desktop.

For both methods (the bottom-up table and the memoised recursion), at 8 and at 40 coins, on a
phone (360 x 740, touch) and a desktop (1280 x 800), the test steps through every step with
the page's own Next button and counts the steps at which the current cell, the cells it reads,
the recurrence with its numbers and the highlighted pseudocode line are all inside the window
(and inside any box that clips them). It also checks that the page computes what the library
computes: the current cell, the cells read, the cell's value and the recurrence's result, in
the quantity the pseudocode assigns (F, totals, for the table; M, margins, for the recursion).

The speed control, the step field and the "predict this cell" quiz are used as a learner would.
One browser for the module; one page per screen, reused.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, DESKTOP, PHONE, wait_js

from coinrow.numbers import json_value
from coinrow.steps import fill_steps, memo_calls

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason=f"Chromium is not installed at {CHROMIUM} (`make test` installs it; CI runs these)",
)

ROW_8 = [8, 15, 3, 7, 9, 2, 6, 4]
ROW_40 = [(k * 7) % 11 + 1 for k in range(40)]
MINUS = "\N{MINUS SIGN}"
SCREENS = {"phone": PHONE, "desktop": DESKTOP}

#: One evaluate per walk: from the step shown, press Next until the last step; at each step
#: record what is visible and what the page says, as the library will be compared with it.
WALK = """(count) => {
  const viewW = window.innerWidth, viewH = window.innerHeight;
  const known = new Map();
  const clippers = (el) => {
    // the boxes that clip an element; the same for every cell, formula line and code line
    const kind = el.closest("#learn-triangle, #learn-formula, #learn-code") || el.parentElement;
    if (known.has(kind)) return known.get(kind);
    const out = [];
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflowX !== "visible" || style.overflowY !== "visible") out.push(p);
    }
    known.set(kind, out);
    return out;
  };
  const inside = (el) => {
    if (!el) return false;
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return false;
    if (r.top < -0.5 || r.left < -0.5) return false;
    if (r.bottom > viewH + 0.5 || r.right > viewW + 0.5) return false;
    for (const box of clippers(el)) {
      const b = box.getBoundingClientRect();
      const top = b.top + box.clientTop, left = b.left + box.clientLeft;
      if (r.top < top - 0.5 || r.left < left - 0.5 || r.bottom > top + box.clientHeight + 0.5
          || r.right > left + box.clientWidth + 0.5) return false;
    }
    return true;
  };
  const rows = [];
  for (let k = 0; k < count; k++) {
    if (k > 0) document.getElementById("learn-next").click();
    const current = [...document.querySelectorAll("#learn-triangle g.cell.current")];
    const reads = [...document.querySelectorAll("#learn-triangle g.cell.read")];
    const math = document.querySelector("#learn-formula .math");
    const lines = [...document.querySelectorAll("#learn-code span.now")];
    rows.push({
      step: Number(document.getElementById("view-learn").dataset.step),
      current: current.map((c) => [Number(c.dataset.i), Number(c.dataset.j), c.dataset.value]),
      reads: reads.map((c) => [Number(c.dataset.i), Number(c.dataset.j)]),
      math: math ? math.textContent.replace(/\\s+/g, " ").trim() : "",
      code: lines.map((l) => l.textContent),
      seen: {
        cell: current.length === 1 && inside(current[0]),
        reads: reads.every(inside),
        math: inside(math),
        code: lines.length > 0 && lines.every(inside),
      },
    });
  }
  return rows;
}"""


def expected(method: str, row: list[int]) -> list[dict[str, Any]]:
    """What the library says of each step: the cell, the cells it reads, its value, in the
    quantity of the method's pseudocode (F for the table, M for the recursion)."""
    if method == "fill":
        return [
            {
                "cell": (s.i, s.j),
                "reads": sorted([list(c) for c in s.reads]),
                "value": str(json_value(s.value)),
            }
            for s in fill_steps(row)
        ]
    calls = memo_calls(row).calls
    return [
        {
            "cell": (c.i, c.j),
            "reads": [] if c.hit or c.i == c.j else sorted([[c.i + 1, c.j], [c.i, c.j - 1]]),
            "value": str(json_value(c.margin)),
        }
        for c in calls
    ]


@pytest.fixture(scope="module")
def pages(phone: Any, desk: Any) -> dict[str, Any]:
    return {"phone": phone, "desktop": desk}


def open_learn(page: Any, url: str, row: list[int], method: str, screen: str) -> None:
    page.goto(url + "#learn?coins=" + "%20".join(map(str, row)))
    page.locator("#learn-triangle g.cell").first.wait_for()
    radio = f'input[name="learn-mode"][value="{method}"]'
    if screen == "phone":
        page.tap(radio)
    else:
        page.click(radio)
    wait_js(page, f"document.querySelector('{radio}').checked")
    wait_js(page, "document.querySelector('#view-learn').dataset.step === '0'")


VISIBILITY: dict[str, str] = {}


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("coins", [8, 40])
@pytest.mark.parametrize("method", ["fill", "memo"])
def test_every_step_is_whole_on_screen(
    pages: dict[str, Any], live_url: str, screen: str, coins: int, method: str
) -> None:
    page = pages[screen]
    row = ROW_8 if coins == 8 else ROW_40
    open_learn(page, live_url, row, method, screen)
    want = expected(method, row)
    # the first Next as a person presses it; then the page's own button, step after step
    if screen == "phone":
        page.tap("#learn-next")
    else:
        page.click("#learn-next")
    if screen == "phone":
        page.tap("#learn-start")
    else:
        page.click("#learn-start")
    rows = page.evaluate(WALK, len(want))
    letter = "F" if method == "fill" else "M"
    whole = 0
    on_screen = sum(all(seen["seen"].values()) for seen in rows)  # geometry alone
    wrong: list[str] = []
    for k, (seen, lib) in enumerate(zip(rows, want, strict=True)):
        assert seen["step"] == k
        cell = seen["current"]
        if [tuple(c[:2]) for c in cell] != [lib["cell"]] or sorted(seen["reads"]) != lib["reads"]:
            wrong.append(f"step {k + 1}: cells {cell} reads {seen['reads']} != {lib}")
            continue
        value = lib["value"].replace("-", MINUS)
        # the cell shows, the recurrence computes and the pseudocode assigns one quantity
        if cell[0][2] != lib["value"] or not seen["math"].endswith(f"= {value}"):
            wrong.append(f"step {k + 1}: cell {cell[0][2]}, recurrence {seen['math']!r} != {value}")
            continue
        if not seen["math"].split("(")[0].strip().endswith(letter) or not any(
            f"{letter}(i" in line or "value" in line or "return" in line for line in seen["code"]
        ):
            wrong.append(f"step {k + 1}: {seen['math']!r} / {seen['code']} not in {letter}")
            continue
        if all(seen["seen"].values()):
            whole += 1
        elif len(wrong) < 5:
            wrong.append(f"step {k + 1} not whole on screen: {seen['seen']}")
    VISIBILITY[f"{method} {coins} {screen}"] = f"{whole}/{len(want)}"
    print(
        f"Learn visibility, {method}, {coins} coins, {screen}: {whole}/{len(want)} steps "
        f"whole and right ({on_screen} on screen)"
    )
    assert wrong[:5] == [] and whole == len(want), f"{whole}/{len(want)}"


def test_speed_jump_and_quiz(pages: dict[str, Any], live_url: str) -> None:
    page = pages["phone"]
    open_learn(page, live_url, ROW_8, "fill", "phone")
    steps = fill_steps(ROW_8)
    # jump to a step by typing its number
    page.fill("#learn-step", "20")
    page.keyboard.press("Enter")
    wait_js(page, "document.querySelector('#view-learn').dataset.step === '19'")
    step = steps[19]
    assert page.text_content("#learn-counter").startswith(
        f"of {len(steps)}: the subgame of coins {step.i + 1}..{step.j + 1}"
    )
    wait_js(page, "location.hash.includes('step=20')")  # the address follows
    # the speed: very fast plays to the end by itself
    page.select_option("#learn-speed", "60")
    page.tap("#learn-play")
    wait_js(page, f"document.querySelector('#view-learn').dataset.step === '{len(steps) - 1}'")
    assert page.text_content("#learn-play") == "▶ Play"
    # predict each cell: the value is hidden until the learner types it
    page.tap("#learn-quiz")
    page.fill("#learn-step", "9")
    page.keyboard.press("Enter")
    wait_js(page, "document.querySelector('#view-learn').dataset.step === '8'")
    step = steps[8]
    cell = page.locator("#learn-triangle g.cell.current")
    assert not cell.locator("text").first.is_visible()  # the number is hidden
    assert page.text_content("#learn-formula .math").strip().endswith("= ?")
    assert page.is_disabled("#learn-play")
    wrong = int(step.value) + 1
    page.fill("#learn-guess", str(wrong))
    page.tap("#learn-check")
    assert page.text_content("#learn-verdict").startswith(f"Not {wrong}")
    assert not cell.locator("text").first.is_visible()
    page.fill("#learn-guess", str(step.value))
    page.keyboard.press("Enter")
    wait_js(page, "document.querySelector('#learn-verdict').textContent.startsWith('Right')")
    assert cell.locator("text").first.is_visible()
    assert cell.locator("text").first.text_content() == str(step.value)
    assert page.text_content("#learn-formula .math").strip().endswith(f"= {step.value}")
    assert page.text_content("#learn-verdict").endswith("Right first time: 0 of 1.")
    page.tap("#learn-next")  # the next cell is asked in turn
    assert page.text_content("#learn-formula .math").strip().endswith("= ?")
    page.fill("#learn-guess", str(steps[9].value))
    page.tap("#learn-check")
    assert page.text_content("#learn-verdict").endswith("Right first time: 1 of 2.")
    # the recursion: a call whose answer returns its caller too gives nothing away
    calls = memo_calls(ROW_8).calls
    k = next(
        c.index
        for c in calls
        if c.i == c.j and any(p.last == c.index and p.index != c.index for p in calls if not p.hit)
    )
    parent = next(p for p in calls if p.last == k and p.index != k and not p.hit)
    page.tap('input[name="learn-mode"][value="memo"]')
    page.fill("#learn-step", str(k + 1))
    page.keyboard.press("Enter")
    wait_js(page, f"document.querySelector('#view-learn').dataset.step === '{k}'")
    name = f"M({parent.i + 1},{parent.j + 1})"
    assert "Returning now" not in page.text_content("#learn-formula")
    assert page.locator("#learn-tree li").nth(parent.index).text_content() == f"{name} = …"
    page.tap("#learn-reveal")
    assert f"Returning now: {name} = {parent.margin}" in page.text_content("#learn-formula")
    assert page.locator("#learn-tree li").nth(parent.index).text_content() == (
        f"{name} = {parent.margin}"
    )
    page.tap("#learn-quiz")  # off again
    assert page.is_hidden("#learn-quiz-box")
