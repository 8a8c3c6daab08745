"""Shared test helpers."""

from __future__ import annotations

import os
import socket
import threading
import time
import warnings
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

#: Solvers that test_check.py checks in a child process: never imported by pytest.
collect_ignore = ["check_gallery"]

settings.register_profile(
    "ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


# Browser tests drive Debian's Chromium through pytest-playwright (never `playwright install`).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session", autouse=True)
def online_games_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Online games that in-process apps create go to a folder of the session, never to the
    user's data folder."""
    folder = tmp_path_factory.mktemp("online-games")
    os.environ.setdefault("COINROW_ONLINE_DATA", str(folder))
    return folder


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_FLAGS}


@pytest.fixture(scope="session")
def live_url() -> Iterator[str]:
    """The web app served by uvicorn in a thread, on a free loopback port (one per session)."""
    import uvicorn

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from coinrow.web import create_app
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


def keep_screenshot(page: Any, folder: Path, name: str) -> None:
    """A screenshot of the whole page, for people to look at: taken only when
    ``$COINROW_SCREENSHOTS`` says where to keep it (no test reads it; about 0.15 s each)."""
    if os.environ.get("COINROW_SCREENSHOTS"):
        page.screenshot(path=str(folder / name), full_page=True)


def wait_js(page: Any, expression: str, *, timeout: float = 10.0) -> None:
    """Wait until a JavaScript ``expression`` is true on the page (at most ``timeout``
    seconds). The page polls it itself, every 10 ms, inside one call through the browser's
    debugging protocol (one round trip, not one per poll): Playwright's
    ``wait_for_function`` builds a function from the text, an eval the page's
    Content-Security-Policy refuses. A navigation during the wait starts it again on the new
    document."""
    poll = (
        "async (ms) => { const end = performance.now() + ms;"
        f" while (!({expression})) {{"
        " if (performance.now() > end) return false;"
        " await new Promise((done) => setTimeout(done, 10)); }"
        " return true; }"
    )
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        try:
            if page.evaluate(poll, max(left, 0) * 1000):
                return
        except Exception as error:  # the document went away mid-wait: ask the new one
            if "context was destroyed" not in str(error) or left <= 0:
                raise
            continue
        if time.monotonic() >= deadline:
            raise AssertionError(f"not true after {timeout:g} s: {expression}")


def play_state(page: Any) -> str:
    """Play's state once it has one a person can act on or read (``your-turn``, ``over``,
    ``review``, ``unplayable`` or ``error``: ``#view-play``'s ``data-state``)."""
    wait_js(
        page,
        "['your-turn', 'over', 'review', 'unplayable', 'error']"
        ".includes(document.querySelector('#view-play').dataset.state)",
    )
    return str(page.get_attribute("#view-play", "data-state"))


def track_requests(page: Any) -> None:
    """Count the page's requests started and those still open, for :func:`settle`."""
    seen = {"started": 0, "open": 0}

    def started(_: Any) -> None:
        seen["started"] += 1
        seen["open"] += 1

    def ended(_: Any) -> None:
        seen["open"] -= 1

    page.on("request", started)
    page.on("requestfinished", ended)
    page.on("requestfailed", ended)
    page.requests_seen = seen


#: Resolves after two frames: what the page does on an answer (and in the frame after, where
#: it lays out and fits its pictures) is drawn by then.
TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def settle(page: Any, *, timeout: float = 10.0) -> None:
    """Wait until the page has no request open and started none during two frames: every
    late answer (a triangle, a note, a picture) has landed and been drawn. The page must
    have been opened with :func:`track_requests` (as :func:`open_page` does)."""
    seen = page.requests_seen
    deadline = time.monotonic() + timeout
    while True:
        before = seen["started"]
        page.evaluate(TWO_FRAMES)
        if seen["open"] == 0 and seen["started"] == before:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"requests still open after {timeout:g} s: {seen}")


def watch_csp(page: Any, sink: list[str]) -> None:
    """Collect in ``sink`` what the page's Content-Security-Policy refuses (Chromium reports
    each refusal on the console), so a test can assert the page passes its policy."""

    def seen(message: Any) -> None:
        if "Content Security Policy" in message.text:
            sink.append(message.text[:300])

    page.on("console", seen)


def open_page(browser: Any, *, timeout_ms: int = 10_000, **options: Any) -> Any:
    """A page in a new browser context (``options``: viewport, color_scheme, has_touch...),
    its requests tracked (:func:`track_requests`), and what :func:`close_page` asserts when
    it closes it: no JavaScript error and nothing the Content-Security-Policy refused."""
    context = browser.new_context(**options)
    page = context.new_page()
    page.set_default_timeout(timeout_ms)
    errors: list[str] = []
    refused: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    watch_csp(page, refused)
    track_requests(page)
    page.problems = (errors, refused)
    return page


def close_page(page: Any) -> None:
    """Close :func:`open_page`'s page and context; assert the page had no error and no
    refusal."""
    errors, refused = page.problems
    page.context.close()
    assert errors == []
    assert refused == []


#: Every control a person can tap: what the test measures (a check box or radio button is
#: measured by its label, which takes the tap; links inside running text are exempt, as
#: WCAG 2.5.8 allows; the table's cells may be smaller, as the view offers zoom).
CONTROLS = """() => {
  const out = [];
  const seen = (el) => el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== "hidden";
  const sel = "button, select, input, textarea, summary, a[href], [role=tab], [tabindex='0']";
  for (const el of document.querySelectorAll(sel)) {
    if (!seen(el) || el.closest("svg") || el.closest("#keys-overlay")) continue;
    const button = el.matches(".button-link, .home-link");
    if (el.matches("a[href]") && !button && el.closest("p, li")) continue;
    if (el.matches("[tabindex='0']") && !el.matches("button, a, input, select, summary")) continue;
    const target = el.matches("input[type=checkbox], input[type=radio]") ? el.closest("label") : el;
    const r = target.getBoundingClientRect();
    const text = (el.textContent || el.value || "").trim().slice(0, 20);
    out.push({ what: `${el.tagName.toLowerCase()}#${el.id || ""}.${el.className || ""} ${text}`,
               width: Math.round(r.width * 10) / 10, height: Math.round(r.height * 10) / 10 });
  }
  return out;
}"""


#: The screens the browser tests use: a phone (360 x 740, touch) and a desktop window.
PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 740},
    "has_touch": True,
    "is_mobile": True,
}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}


@pytest.fixture(scope="module")
def phone(browser: Any) -> Iterator[Any]:
    """One phone page (:data:`PHONE`) for the module's tests, closed (and checked) after."""
    page = open_page(browser, **PHONE)
    yield page
    close_page(page)


@pytest.fixture(scope="module")
def desk(browser: Any) -> Iterator[Any]:
    """One desktop page (:data:`DESKTOP`) for the module's tests, closed (and checked) after."""
    page = open_page(browser, **DESKTOP)
    yield page
    close_page(page)


@pytest.fixture(scope="module")
def app_tab(browser: Any) -> Iterator[Any]:
    """The one page behind :func:`app_page` for the module's tests (a new context and page
    per test cost a quarter of a second each)."""
    page = open_page(browser)
    page.devtools = page.context.new_cdp_session(page)  # clears the site's storage
    yield page
    close_page(page)


@pytest.fixture
def app_page(app_tab: Any, live_url: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """The page at 1000 x 900, as a new context would give it: a blank page with no storage
    of the site (nor cookies, routes or leftover problems), the module's ``PAGE_TIMEOUT_MS``
    (default 10 s); the test fails on any JavaScript error or Content-Security-Policy
    refusal."""
    page = app_tab
    # the last test's document unloaded (committed is enough); the next goto loads anew
    page.goto("about:blank", wait_until="commit")
    origin = {"origin": live_url.rstrip("/"), "storageTypes": "all"}
    page.devtools.send("Storage.clearDataForOrigin", origin)  # localStorage, cookies...
    page.set_viewport_size({"width": 1000, "height": 900})
    page.set_default_timeout(getattr(request.module, "PAGE_TIMEOUT_MS", 10_000))
    errors, refused = page.problems
    errors.clear()
    refused.clear()
    yield page
    page.unroute_all(behavior="ignoreErrors")
    seen = (list(errors), list(refused))
    errors.clear()
    refused.clear()
    assert seen[0] == []
    assert seen[1] == []


def run_axe(page: Any) -> Any:
    """axe-core's result on the page (axe-playwright-python's ``Axe().run``), its 570 kB
    script injected only when this document does not hold it yet: the views reached by a
    change of the address's #fragment share one document."""
    from axe_playwright_python.sync_playwright import Axe

    held = page.evaluate("typeof window.axe?.run === 'function'")
    return (Axe(axe_script="undefined") if held else Axe()).run(page)


def check_views_with_axe(
    browser: Any,
    url: str,
    views: dict[str, tuple[str, str]],
    *,
    theme: str,
    width: int,
    folder: Path,
    strict: Collection[str] = (),
) -> None:
    """Open each view (address, selector that says it is ready) at ``width`` px in ``theme``,
    let its late answers land (:func:`settle`), run axe-core, keep a full-page screenshot in
    ``folder``, and assert no serious or critical violation (nor moderate, for the views in
    ``strict``), no horizontal scroll and no page error (the axe tests of the page, of the
    variants and of the online game page share it)."""
    page = open_page(
        browser,
        color_scheme=theme,
        viewport={"width": width, "height": 740 if width == 360 else 900},
    )
    found = {}
    for view, (address, ready) in views.items():
        page.goto(url + address)
        page.wait_for_selector(ready)
        settle(page)
        result = run_axe(page)
        bad = [
            (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
            for v in result.response["violations"]
            if v["impact"] in ("serious", "critical")
            or (view in strict and v["impact"] == "moderate")
        ]
        if bad:
            found[view] = bad
        assert page.evaluate("document.documentElement.scrollWidth") <= width, view
        page.evaluate("window.scrollTo(0, 0)")
        keep_screenshot(page, folder, f"web-{view}-{width}-{theme}.png")
    close_page(page)
    assert found == {}
