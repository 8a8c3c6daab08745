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


def watch_csp(page: Any, sink: list[str]) -> None:
    """Collect in ``sink`` what the page's Content-Security-Policy refuses (Chromium reports
    each refusal on the console), so a test can assert the page passes its policy."""

    def seen(message: Any) -> None:
        if "Content Security Policy" in message.text:
            sink.append(message.text[:300])

    page.on("console", seen)


def check_views_with_axe(
    browser: Any,
    url: str,
    views: dict[str, tuple[str, str]],
    *,
    theme: str,
    width: int,
    folder: Path,
    settle_ms: int = 0,
    strict: Collection[str] = (),
) -> None:
    """Open each view (address, selector that says it is ready) at ``width`` px in ``theme``,
    run axe-core, keep a full-page screenshot in ``folder``, and assert no serious or critical
    violation (nor moderate, for the views in ``strict``), no horizontal scroll and no page
    error (the axe tests of the page and of the variants share it)."""
    from axe_playwright_python.sync_playwright import Axe

    context = browser.new_context(
        color_scheme=theme, viewport={"width": width, "height": 740 if width == 360 else 900}
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    refused: list[str] = []
    watch_csp(page, refused)
    page.set_default_timeout(10_000)
    axe = Axe()
    found = {}
    for view, (address, ready) in views.items():
        page.goto(url + address)
        page.wait_for_selector(ready)
        if settle_ms:
            page.wait_for_timeout(settle_ms)
        result = axe.run(page)
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
        page.screenshot(path=str(folder / f"web-{view}-{width}-{theme}.png"), full_page=True)
    context.close()
    assert found == {}
    assert refused == []
    assert errors == []
