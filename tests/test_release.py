"""The release files: ``make dist`` (run here on a clean copy of the tree, exactly its recipe)
builds a wheel and an sdist that ``twine check --strict`` passes, with the version written in
one place, complete metadata, and the files a release promises. The wheel is installed into
a bare environment and run by tests/test_bare_install.py.
"""

from __future__ import annotations

import re
import tarfile
import zipfile
from email.message import Message
from email.parser import Parser

import pytest
from helpers import ROOT, Release, built_release, tracked_files

import coinrow


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Release:
    return built_release(tmp_path_factory)


def test_make_dist_builds_both_and_twine_passes_them(release: Release) -> None:
    version = coinrow.__version__
    assert release.wheel.name == f"coinrow-{version}-py3-none-any.whl"
    assert release.sdist.name == f"coinrow-{version}.tar.gz"
    log = re.sub(r"\x1b\[[0-9;]*m", "", release.log)  # twine's colours
    for built in (release.wheel, release.sdist):
        assert f"Checking dist/{built.name}: PASSED" in log


def _metadata(release: Release) -> Message:
    with zipfile.ZipFile(release.wheel) as wheel:
        text = wheel.read(f"coinrow-{coinrow.__version__}.dist-info/METADATA").decode()
    return Parser().parsestr(text)


def test_the_wheel_carries_the_one_version_and_full_metadata(release: Release) -> None:
    metadata = _metadata(release)
    assert metadata["Version"] == coinrow.__version__
    assert metadata["License-Expression"] == "MIT"
    assert metadata["Requires-Python"] == ">=3.11"
    assert metadata["Author"] == "The coinrow authors"
    assert "coins in a line" in metadata["Keywords"]
    urls = dict(line.split(", ", 1) for line in metadata.get_all("Project-URL"))
    assert set(urls) >= {"Homepage", "Documentation", "Source", "Issues", "Changelog"}
    classifiers = metadata.get_all("Classifier")
    assert "Typing :: Typed" in classifiers and len(classifiers) >= 10
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert metadata.get_payload().strip() == (ROOT / "README.md").read_text().strip()


def test_the_version_is_written_in_one_place() -> None:
    # Anywhere else in the package or its build files the version is read, never written.
    version = re.escape(coinrow.__version__)
    written = [
        name
        for name in tracked_files()
        if name.startswith("src/") or name in ("pyproject.toml", "Makefile", "CITATION.cff")
        if re.search(rf"\b{version}\b", (ROOT / name).read_text(errors="replace"))
    ]
    assert written == ["src/coinrow/__init__.py"]


def test_the_sdist_holds_docs_examples_and_tests(release: Release) -> None:
    with tarfile.open(release.sdist) as sdist:
        names = {name.partition("/")[2] for name in sdist.getnames()}
    wanted = {
        "docs/theory.md", "docs/cli.md", "docs/tutorials/teach.md", "examples/rubric.toml",
        "tests/test_readme.py", "CHANGELOG.md", "CONTRIBUTING.md", "CITATION.cff", "LICENSE",
        "Makefile", "src/coinrow/py.typed", "src/coinrow/web/static/index.html",
    }  # fmt: skip
    assert wanted <= names, wanted - names
    assert not [name for name in names if "__pycache__" in name or name.endswith(".pyc")]
