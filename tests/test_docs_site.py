"""The documentation site, built once exactly as a user gets it: `make docs` (its own recipe, no
--quiet) in a clean copy of the tracked files, failing on any warning. Then every `<a href>`,
`<img src>` and loaded resource of the built HTML, the maths (MathML, no raw LaTeX), the footer's
version, a reference entry for every public name and every tutorial import, nothing fetched
from outside the site; search and the copy buttons in Chromium over file://; and the notebook
tour executed in a fresh kernel."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import unquote, urlsplit

import pytest
from conftest import CHROMIUM
from helpers import session_base, shared_once

import coinrow

ROOT = Path(__file__).resolve().parent.parent
pytest.importorskip("mkdocs")
pytest.importorskip("mkdocstrings_handlers.python")
pytest.importorskip("mkdocs_jupyter")

#: The API reference's pages, and the tutorials whose imports each need an entry there.
REFERENCE = "reference.html"
TUTORIALS = sorted((ROOT / "docs" / "tutorials").glob("*.md"))
IMPORT = re.compile(r"^\s*(?:>>>|\.\.\.)\s+from\s+(coinrow(?:\.\w+)*)\s+import\s+([\w, ]+)$", re.M)


class _Page(HTMLParser):
    """The ids a page defines, the links it makes, the images it shows, the resources it
    loads and its visible text outside code."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.images: list[str] = []
        self.loads: list[str] = []
        self.maths = 0
        self.copy_texts: list[str] = []
        self.sessions = 0
        self.text: list[str] = []
        self._code = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if "id" in found:
            self.ids.add(found["id"])
        if tag == "a" and "name" in found:
            self.ids.add(found["name"])
        if tag == "a" and "href" in found:
            self.links.append(found["href"])
        if tag == "img":
            self.images.append(found.get("src", ""))
        if tag in ("script", "img", "iframe", "source", "video", "audio") and found.get("src"):
            self.loads.append(found["src"])
        if tag == "link" and found.get("href"):
            self.loads.append(found["href"])
        if tag == "math":
            self.maths += 1
        if tag == "div" and "data-copy" in found:
            self.copy_texts.append(found["data-copy"])
        if tag == "span" and found.get("class") == "gp":
            self.sessions += 1  # a prompt: every session has at least one
        if tag in ("code", "pre", "script", "style"):
            self._code += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("code", "pre", "script", "style"):
            self._code -= 1

    def handle_data(self, data: str) -> None:
        if not self._code:
            self.text.append(data)


class Build(NamedTuple):
    returncode: int
    output: str
    site: Path
    pages: dict[Path, _Page]


def clean_copy(destination: Path) -> Path:
    """The tracked files of the checkout (as they are in the working tree), nothing else: no
    virtual environment, no built site, no caches, no untracked file."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z"],
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the working tree is left out
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return destination


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """`make docs` in a clean copy: the Makefile's own recipe, with this test's environment
    (VENV) standing in for the copy's missing one, which make is told not to rebuild (-o).
    Built once per test session, for every xdist worker (the browser test's parametrization
    lets pytest run this module's tests in two groups, which built the site twice)."""
    if shutil.which("make") is None or not (ROOT / ".git").exists():
        pytest.fail("the docs test needs make and a git checkout (CI has both)")

    def build(home: Path) -> None:
        copy = clean_copy(home / "clean-copy")
        venv = Path(sys.prefix)
        made = subprocess.run(
            ["make", "-C", str(copy), "docs", f"VENV={venv}", "-o", str(venv / ".installed")],
            capture_output=True,
            text=True,
            timeout=300,
        )
        (home / "make-docs.log").write_text(made.stdout + made.stderr)
        (home / "make-docs.status").write_text(str(made.returncode))

    home = shared_once(session_base(tmp_path_factory), "docs-site", build)
    returncode = int((home / "make-docs.status").read_text())
    output = (home / "make-docs.log").read_text()
    site = home / "clean-copy" / "site"
    pages = {}
    for path in site.rglob("*.html"):
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        pages[path] = page
    return Build(returncode, output, site, pages)


@pytest.fixture(scope="session")
def site(built: Build) -> dict[Path, _Page]:
    assert built.returncode == 0, built.output
    return built.pages


def test_make_docs_builds_a_clean_copy_without_a_warning(built: Build) -> None:
    assert "mkdocs build --strict" in built.output  # make printed its recipe: the real target
    assert "--quiet" not in built.output
    assert built.returncode == 0, built.output
    warnings = [line for line in built.output.splitlines() if re.match(r"\s*(WARNING|ERROR)", line)]
    assert warnings == []
    assert len(built.pages) >= 30  # every guide, tutorial, the tour and the reference were built


def broken_targets(site: dict[Path, _Page], root: Path) -> list[str]:
    """Every `<a href>` and `<img src>` inside the site that names no file (or no anchor)."""
    broken = []
    for path, page in site.items():
        for kind, urls in (("a href", page.links), ("img src", page.images)):
            for url in urls:
                parts = urlsplit(url)
                if parts.scheme in ("http", "https", "mailto") or parts.netloc:
                    continue
                if parts.scheme == "data" and kind == "img src":
                    continue
                if parts.scheme or (kind == "img src" and not parts.path):
                    broken.append(f"{path.relative_to(root)}: {kind}={url!r} (not a file)")
                    continue
                base = root if parts.path.startswith("/") else path.parent  # 404.html
                target = (base / unquote(parts.path).lstrip("/")).resolve() if parts.path else path
                if target.is_dir():
                    target = target / "index.html"
                if not target.is_file():
                    broken.append(f"{path.relative_to(root)}: {kind}={url!r} (no file)")
                elif (
                    parts.fragment
                    and target.suffix == ".html"
                    and unquote(parts.fragment) not in site[target].ids
                ):
                    broken.append(f"{path.relative_to(root)}: {kind}={url!r} (no anchor)")
    return broken


def test_every_link_image_and_anchor_resolves(built: Build, site: dict[Path, _Page]) -> None:
    assert sum(len(page.images) for page in site.values()) >= 5  # the images were read
    broken = broken_targets(site, built.site)
    assert not broken, "\n".join(broken)


def test_the_site_loads_nothing_from_outside(built: Build, site: dict[Path, _Page]) -> None:
    outside, missing = [], []
    for path, page in site.items():
        for url in page.loads:
            parts = urlsplit(url)
            if parts.scheme not in ("", "data") or url.startswith("//"):
                outside.append((path.name, url))
            elif not parts.scheme:
                base = built.site if parts.path.startswith("/") else path.parent  # 404.html
                if not (base / unquote(parts.path).lstrip("/")).resolve().is_file():
                    missing.append((path.name, url))
    assert not outside
    assert not missing


def test_maths_is_mathml_made_at_build_time(site: dict[Path, _Page]) -> None:
    theory = next(page for path, page in site.items() if path.name == "theory.html")
    assert theory.maths >= 300  # the theory page's formulas, inline and displayed
    prose = "".join(theory.text)
    assert "$" not in prose and "\\(" not in prose and "\\[" not in prose, "raw LaTeX left"
    assert not re.search(r"\\[A-Za-z]+", prose), "a LaTeX command was left as text"


def test_every_page_names_the_version_and_the_licence(site: dict[Path, _Page]) -> None:
    footer = f"coinrow {coinrow.__version__} · MIT licence"
    unnamed = [path.name for path, page in site.items() if footer not in "".join(page.text)]
    assert unnamed == []


def test_every_session_copies_its_code_without_prompts_or_output(
    site: dict[Path, _Page],
) -> None:
    texts = [text for page in site.values() for text in page.copy_texts]
    prompts = sum(page.sessions for page in site.values())
    assert len(texts) >= 150 and prompts > len(texts)  # the sessions of guides and reference
    assert [text for text in texts if ">>>" in text or "Traceback" in text or not text] == []
    pages_with_prompts_but_no_copy_text = [
        path.name for path, page in site.items() if page.sessions and not page.copy_texts
    ]
    assert pages_with_prompts_but_no_copy_text == []


#: The words a reader must be able to look up, each linked to the glossary from another page.
GLOSSARY_TERMS = (
    "margin",
    "subgame",
    "triangle",
    "line",
    "peak",
    "valley",
    "peak-reduction",
    "regret",
    "guaranteed-total",
    "rules",
    "thibault",
    "strategies",
    "edpc-l",
)


def test_the_glossary_terms_are_linked_from_where_they_are_used(site: dict[Path, _Page]) -> None:
    glossary = next(page for path, page in site.items() if path.name == "glossary.html")
    assert [term for term in GLOSSARY_TERMS if term not in glossary.ids] == []
    linked = {
        urlsplit(href).fragment
        for path, page in site.items()
        if path.name != "glossary.html"
        for href in page.links
        if urlsplit(href).path.endswith("glossary.html")
    }
    assert [term for term in GLOSSARY_TERMS if term not in linked] == []


def tutorial_imports() -> list[str]:
    """`module.name` for every `from coinrow... import name` in a tutorial's examples."""
    names = []
    for tutorial in TUTORIALS:
        for module, imported in IMPORT.findall(tutorial.read_text(encoding="utf-8")):
            names += [f"{module}.{name.strip()}" for name in imported.split(",")]
    return names


def test_every_public_name_and_tutorial_import_has_a_reference_entry(
    site: dict[Path, _Page],
) -> None:
    entries = set().union(*(page.ids for path, page in site.items() if path.name == REFERENCE))
    wanted = [f"coinrow.{name}" for name in coinrow.__all__] + tutorial_imports()
    assert len(wanted) > len(coinrow.__all__) + 10  # the tutorials' imports were found
    assert "coinrow.strategies.get" in wanted and "coinrow.steps.fill_steps" in wanted
    missing = sorted({name for name in wanted if name not in entries})
    assert missing == []


#: The project's internal words that mean nothing to a reader: examples are named by their public
#: source (GeeksforGeeks, LeetCode 486...), never by the project's history.
INTERNAL_WORDS = re.compile(
    r"\bseed(?:'s|s')|\bthe seeds\b|\bseed (?:documents?|examples?|notebook|tutorials?|row|table)\b"
    r"|\bissues? #?\d+\b",
    re.IGNORECASE,
)
#: Pages being rewritten on other branches (`coinrow check`'s stage named "seeds", the CLI
#: guide); they join this check when those land.
ELSEWHERE = {"check.md", "cli.md"}


def test_the_pages_speak_to_users_not_in_project_history() -> None:
    pages = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "docs" / "tour.ipynb"]
    assert len(pages) >= 30
    found = [
        f"{page.relative_to(ROOT)}:{number}: {line.strip()}"
        for page in pages
        if page.name not in ELSEWHERE
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        if INTERNAL_WORDS.search(line)
    ]
    assert found == []


# Search over file:// and the copy buttons, in Debian's Chromium (skipped only where it is
# missing; `make test` installs it on CI).
COPY_BUTTON = "button.md-code__button[data-md-type=copy]"
needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason=f"Chromium is not installed at {CHROMIUM}"
)


@needs_chromium
def test_search_works_from_disk_and_copy_buttons_copy_only_code(
    built: Build, site: dict[Path, _Page], browser: Any
) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15_000)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto((built.site / "index.html").as_uri())
    page.fill("input.md-search__input", "peak reduction")
    page.wait_for_selector(".md-search-result__item")
    assert "matching document" in page.inner_text(".md-search-result__meta")
    titles = page.locator(".md-search-result__item h1").all_inner_texts()
    assert any("Theory" in title for title in titles), titles

    # What a copy button puts on the clipboard (ClipboardJS copies through a hidden text box).
    def copied(address: Path, block: Any) -> str:
        page.goto(address.as_uri())
        page.wait_for_selector(COPY_BUTTON)
        page.evaluate(
            "() => { window.copied = []; document.addEventListener('copy', () => {"
            " const box = document.activeElement;"
            " window.copied.push(box && 'value' in box"
            " ? box.value.slice(box.selectionStart, box.selectionEnd)"
            " : document.getSelection().toString()); }, true); }"
        )
        block(page).locator(COPY_BUTTON).click(force=True)
        page.wait_for_function("window.copied.length > 0")
        text: str = page.evaluate("window.copied[0]")
        return text

    learn = copied(
        built.site / "tutorials" / "learn.html", lambda page: page.locator("div.highlight").first
    )
    assert learn == (
        "import coinrow\ns = coinrow.solve([8, 15, 3, 7])\ns.first_total, s.second_total, s.line"
    )
    get = copied(
        built.site / "reference.html",
        lambda page: page.locator("div.highlight", has_text='get("magic")').first,
    )
    assert get == 'get("greedy") is greedy, get("lookahead:3").__name__\nget("magic")'
    assert [url for url in requests if not url.startswith(("file:", "data:"))] == []
    assert errors == []
    context.close()


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
