"""The documentation site: one strict MkDocs build (as `make docs`), then every internal link
and anchor of the built HTML, a reference entry for every public name, nothing fetched from
outside the site; and the notebook tour executed in a fresh kernel."""

from __future__ import annotations

import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

import coinrow

ROOT = Path(__file__).resolve().parent.parent
pytest.importorskip("mkdocs")
pytest.importorskip("mkdocstrings_handlers.python")
pytest.importorskip("mkdocs_jupyter")


class _Page(HTMLParser):
    """The ids a page defines, the links it makes and the resources it loads."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.loads: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if "id" in found:
            self.ids.add(found["id"])
        if tag == "a" and "name" in found:
            self.ids.add(found["name"])
        if tag == "a" and "href" in found:
            self.links.append(found["href"])
        if tag in ("script", "img", "iframe", "source") and found.get("src"):
            self.loads.append(found["src"])
        if tag == "link" and found.get("href"):
            self.loads.append(found["href"])


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, _Page]:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    pages = {}
    for path in out.rglob("*.html"):
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        pages[path] = page
    return pages


def test_every_internal_link_and_anchor_resolves(site: dict[Path, _Page]) -> None:
    root = min(site, key=lambda path: len(path.parts)).parent  # the site folder
    broken = []
    for path, page in site.items():
        for href in page.links:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or href.startswith("mailto:"):
                continue
            base = root if parts.path.startswith("/") else path.parent  # 404.html: from the root
            target = (base / unquote(parts.path).lstrip("/")).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{path.name}: {href} (no file)")
            elif (
                parts.fragment
                and target.suffix == ".html"
                and unquote(parts.fragment) not in site[target].ids
            ):
                broken.append(f"{path.name}: {href} (no anchor)")
    assert not broken, "\n".join(broken)
    assert len(site) >= 30  # every guide, tutorial, the tour and the reference were built


def test_every_public_name_has_a_reference_entry(site: dict[Path, _Page]) -> None:
    reference = next(page for path, page in site.items() if path.name == "reference.html")
    missing = [name for name in coinrow.__all__ if f"coinrow.{name}" not in reference.ids]
    assert not missing


def test_the_site_loads_nothing_from_outside(site: dict[Path, _Page]) -> None:
    outside = [
        (path.name, url)
        for path, page in site.items()
        for url in page.loads
        if urlsplit(url).scheme not in ("", "data") or url.startswith("//")
    ]
    assert not outside


def test_the_notebook_tour_runs_and_its_stored_outputs_are_current() -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    stored = nbformat.read(ROOT / "docs" / "tour.ipynb", as_version=4)
    fresh = nbformat.read(ROOT / "docs" / "tour.ipynb", as_version=4)
    nbclient.NotebookClient(fresh, kernel_name="python3", timeout=120).execute()

    def plain(notebook: object) -> list[list[str]]:
        return [
            [out.get("data", {}).get("text/plain", "") for out in cell.get("outputs", [])]
            for cell in notebook.cells  # type: ignore[attr-defined]
            if cell.cell_type == "code"
        ]

    assert plain(fresh) == plain(stored), "run scripts/docs_pictures.py to refresh the tour"
    svgs = [
        out
        for cell in fresh.cells
        for out in cell.get("outputs", [])
        if "image/svg+xml" in out.get("data", {}) or "text/html" in out.get("data", {})
    ]
    assert len(svgs) >= 3  # the solution, the game and the margin triangle draw themselves
    assert not [
        out for cell in fresh.cells for out in cell.get("outputs", []) if out.output_type == "error"
    ]
