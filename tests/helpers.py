"""Shared test helpers: run the real `coinrow` command in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


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
