"""The quick mode of scripts/check_theory.py (the machine checks of docs/theory.md, Section 8)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "check_theory.py"


def _load(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """A fresh copy of the script as a module, so one test's patching never leaks into another.

    Its dataclasses look their module up in ``sys.modules`` while the class is built, so it is
    registered there for the duration of the test.
    """
    spec = importlib.util.spec_from_file_location("check_theory", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "check_theory", module)
    spec.loader.exec_module(module)
    return module


def test_quick_mode_passes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _load(monkeypatch).main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "FAIL" not in out
    assert out.rstrip().splitlines()[-1].startswith("all checks passed")


def test_a_wrong_reduction_is_caught(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A strict merge test (Remark 5.8) in place of coinrow's margin must fail the checks."""
    script = _load(monkeypatch)
    script.margin = lambda row: script.greedy_margin(
        [group.value for group in script.reduce_groups(row, strict=True)]
    )
    assert script.main(["--quick"]) == 1
    out = capsys.readouterr().out
    assert "FAIL coinrow margin = recurrence" in out
    assert "(0, 0, 2, 2, 2, 1)" in out
