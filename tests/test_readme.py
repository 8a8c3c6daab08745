"""The README as written: its Python examples run, its Quick start is two commands and the line
after them runs coinrow in a clean copy of the tree, and its links hold on a package page."""

from __future__ import annotations

import doctest
import re
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

from helpers import CLEAN_ENV, ROOT, clean_copy

README = (ROOT / "README.md").read_text()
REPOSITORY = "https://github.com/coinrow/coinrow"
#: Where a link to a file of the repository points on a package page, and where an image.
FILE_LINK = f"{REPOSITORY}/blob/main/"
IMAGE_LINK = "https://raw.githubusercontent.com/coinrow/coinrow/main/"


def test_readme_examples() -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(README, {}, "README", "README.md", 0)
    result = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS).run(test)
    assert result.failed == 0 and result.attempted > 0


def _quick_start() -> tuple[list[str], list[str]]:
    """The commands of the Quick start's first code block, and the lines of the next one."""
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.DOTALL)
    commands = [line.split("#")[0].strip() for line in blocks[0].splitlines()]
    return [command for command in commands if command], blocks[1].splitlines()


def test_quick_start_is_two_commands_then_how_to_run_coinrow() -> None:
    commands, after = _quick_start()
    assert commands == ["make demo", "make test"]
    assert after == [".venv/bin/coinrow solve 3 2 2 3 1 2"]
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert ". .venv/bin/activate" in section and 'pip install ".[all]"' in section
    assert "pip install coinrow" not in README and 'pip install "coinrow[' not in README


def test_links_are_absolute_and_name_files_that_exist() -> None:
    # On a package page a relative link or image breaks: every one is absolute, and those
    # into the repository name a file this tree holds.
    targets = re.findall(r"(!?)\[[^\]]*\]\(([^)\s]+)\)", README)
    assert len(targets) > 10
    for image, target in targets:
        assert target.startswith("https://"), target
        prefix = IMAGE_LINK if image else FILE_LINK
        if target.startswith((FILE_LINK, IMAGE_LINK)):
            assert target.startswith(prefix), target
            assert (ROOT / target.removeprefix(prefix).partition("#")[0]).is_file(), target
        else:
            assert target.startswith(REPOSITORY), target  # the repository's release page...


def test_make_demo_then_the_readme_line_runs_coinrow(tmp_path: Path) -> None:
    """On a clean copy of the tree, ``make demo`` (its recipe as written: the venv's pip,
    ``pip install -e ".[all,dev]"`` of the copy, the demo and the census warm-up), then the
    README's next line. To spare a download of every dependency, the copy's venv is made
    first and sees this session's installed packages through a .pth line; coinrow itself
    is installed from the copy by the Makefile, and must run from there."""
    copy = clean_copy(tmp_path / "clone")
    venv = copy / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = Path(sysconfig.get_paths(vars={"base": str(venv), "platbase": str(venv)})["purelib"])
    (site / "zz_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    demo = subprocess.run(
        ["make", "demo"], cwd=copy, env=CLEAN_ENV, capture_output=True, text=True, timeout=600
    )
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
    assert "first player 8, second player 5" in demo.stdout
    (_, after) = _quick_start()
    solved = subprocess.run(
        shlex.split(after[0]), cwd=copy, env=CLEAN_ENV, capture_output=True, text=True, timeout=120
    )
    assert solved.returncode == 0, solved.stderr
    assert solved.stdout.startswith("6 coins: first player 8, second player 5;")
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import coinrow; print(coinrow.__file__)"],
        cwd=tmp_path, env=CLEAN_ENV, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert Path(where.stdout.strip()).is_relative_to(copy / "src"), where.stdout + where.stderr
