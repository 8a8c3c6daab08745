"""Page budgets: how long the page takes to be ready and how many bytes it transfers, loaded
in Debian's Chromium (Playwright) from ``coinrow serve`` on a free loopback port. A report,
not a timed assertion.

    python benchmarks/page_web.py [--runs 5]

"Ready" is the moment the Solve view shows its result (every module loaded, ``/api/limits``,
``/api/strategies``, ``/api/levels`` and ``/api/solve`` answered), measured from the start
of navigation with the browser's own clock (``performance.now()``), on a cold cache (a new
browser context each run) and then on a warm one (a reload: static files revalidated by
ETag). Transfer is the sum of ``transferSize`` of the document and every resource (compressed
bytes on the wire, headers included). Budgets (issue 14): ready under 500 ms, transfer under
150 KB.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).parent))
from load_web import free_port, start_server

#: The Solve view's result shown (a selector: the page's security policy forbids the eval a
#: JavaScript condition would need).
READY = "#solve-result:not([hidden])"
MEASURE = """() => {
  const entries = [...performance.getEntriesByType('navigation'),
                   ...performance.getEntriesByType('resource')];
  return {ready: performance.now(), bytes: entries.reduce((s, e) => s + e.transferSize, 0),
          requests: entries.length};
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    port = free_port()
    server = start_server(port, 1)
    url = f"http://127.0.0.1:{port}/#solve?coins=3%202%202%203%201%202"
    cold: list[dict[str, float]] = []
    warm: list[dict[str, float]] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=args.chromium, args=["--no-sandbox", "--disable-gpu"]
            )
            for _ in range(args.runs):
                context = browser.new_context()
                page = context.new_page()
                page.goto(url)
                page.wait_for_selector(READY)
                cold.append(page.evaluate(MEASURE))
                page.reload()
                page.wait_for_selector(READY)
                warm.append(page.evaluate(MEASURE))
                context.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    for name, runs in (("cold cache", cold), ("warm cache", warm)):
        ready = statistics.median(run["ready"] for run in runs)
        bytes_ = statistics.median(run["bytes"] for run in runs)
        requests = statistics.median(run["requests"] for run in runs)
        print(
            f"{name}: ready {ready:.0f} ms (median of {len(runs)}; "
            f"{min(r['ready'] for r in runs):.0f} to {max(r['ready'] for r in runs):.0f}), "
            f"{bytes_ / 1000:.1f} KB transferred in {requests:.0f} requests"
        )


if __name__ == "__main__":
    main()
