"""Shared test helpers: run the real `coinrow` command in a fresh interpreter."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest


def run_cli(
    *args: str,
    stdin: str | None = None,
    timeout: float = 120,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``python -m coinrow ARGS`` as a user runs it: its exit status, stdout and stderr as
    text, ``stdin`` as its input, in ``cwd`` with ``env``, stopped after ``timeout``
    seconds. The one CLI-running helper of the tests."""
    return subprocess.run(
        [sys.executable, "-m", "coinrow", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env=env,
    )


ROOT = Path(__file__).resolve().parent.parent


def tracked_files() -> list[str]:
    """The files a clean clone of this tree holds: git's tracked files and the new files it
    does not ignore (so a change not yet committed is tested too), by path relative to the
    repository; O(files)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
        timeout=60,
    )
    names = [name for name in listed.stdout.decode().split("\0") if name]
    return [name for name in names if (ROOT / name).is_file()]  # deleted, not yet committed


def clean_copy(destination: Path) -> Path:
    """Copy :func:`tracked_files` to ``destination`` (created), keeping their times, and
    return it: what a clean clone would hold, without .venv, caches or build files."""
    for name in tracked_files():
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    return destination


def shared_once(base: Path, name: str, build: Callable[[Path], None]) -> Path:
    """The folder ``base/name``, filled once by ``build(folder)`` for every xdist worker of a
    test session (a file lock: the first worker builds, the others wait; a failed build is
    started again by the next). ``base`` is the session's temporary folder."""
    home = base / name
    with (base / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # everything about home happens under the lock
        done = base / f"{name}.done"
        if not done.exists():
            shutil.rmtree(home, ignore_errors=True)
            home.mkdir()
            build(home)
            done.touch()
    return home


def session_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder shared by every xdist worker of this session."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


#: The environment of every release command: no PYTHON* variables (neither this tree's src
#: nor the user's site-packages may leak in).
CLEAN_ENV = {
    **{name: value for name, value in os.environ.items() if not name.startswith("PYTHON")},
    "PYTHONNOUSERSITE": "1",
}


@dataclass(frozen=True)
class Release:
    """What ``make dist`` built from a clean copy of the tree, and what it printed."""

    wheel: Path
    sdist: Path
    log: str


def built_release(tmp_path_factory: pytest.TempPathFactory) -> Release:
    """Run ``make dist`` once per test session on a :func:`clean_copy` of the tree, with this
    interpreter's environment as the Makefile's ``BIN`` (its venv is already set up, so
    ``DIST_NEEDS=`` skips the install step): an isolated ``python -m build`` and
    ``twine check --strict``, as a maintainer runs it."""

    def build(home: Path) -> None:
        source = clean_copy(home / "source")
        made = subprocess.run(
            ["make", "dist", "DIST_NEEDS=", f"BIN={Path(sys.executable).parent}"],
            cwd=source,
            env=CLEAN_ENV,
            capture_output=True,
            text=True,
            timeout=600,
        )
        (home / "make-dist.log").write_text(made.stdout + made.stderr)
        assert made.returncode == 0, made.stdout[-3000:] + made.stderr[-3000:]

    home = shared_once(session_base(tmp_path_factory), "release", build)
    dist = home / "source" / "dist"
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    return Release(wheel, sdist, (home / "make-dist.log").read_text())
