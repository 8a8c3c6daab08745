"""The error tree drawn in docs/errors.md and in errors.py's docstring is the real hierarchy."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import coinrow
from coinrow import errors

ROOT = Path(__file__).resolve().parent.parent
BRANCH = re.compile(r"^(?P<indent>[ │]*)(?:[├└]── )?(?P<name>[A-Z]\w+)")


def parents_in(tree: str) -> dict[str, str]:
    """Each class drawn in a tree, mapped to the class it hangs from."""
    parents: dict[str, str] = {}
    stack: list[tuple[int, str]] = []
    for line in tree.strip("\n").splitlines():
        match = BRANCH.match(line.strip("\n"))
        assert match, line
        depth = len(match["indent"]) // 4 + (1 if "──" in line else 0)
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if stack:
            parents[match["name"]] = stack[-1][1]
        stack.append((depth, match["name"]))
    return parents


def actual_parents() -> dict[str, str]:
    classes = [
        cls
        for _, cls in inspect.getmembers(errors, inspect.isclass)
        if cls.__module__ == errors.__name__
    ]
    return {cls.__name__: cls.__bases__[0].__name__ for cls in classes}


def trees() -> dict[str, str]:
    page = (ROOT / "docs" / "errors.md").read_text()
    drawn = page.split("```\n", 2)[1].split("```")[0]
    docstring = (errors.__doc__ or "").split("::\n", 1)[1]
    return {
        "docs/errors.md": drawn,
        "errors.py": "\n".join(line[4:] for line in docstring.splitlines()),
    }


@pytest.mark.parametrize("where", ["docs/errors.md", "errors.py"])
def test_the_drawn_tree_is_the_real_hierarchy(where: str) -> None:
    assert parents_in(trees()[where]) == actual_parents()


def test_every_error_class_is_exported() -> None:
    assert set(actual_parents()) <= set(coinrow.__all__)


def test_a_bad_parameter_is_not_an_unknown_strategy() -> None:
    # Before: StrategyParameterError subclassed UnknownStrategyError, so `except
    # UnknownStrategyError` (offer the list of names) also caught "lookahead:x".
    from coinrow.strategies import get

    with pytest.raises(coinrow.StrategyParameterError) as info:
        get("lookahead:x")
    assert not isinstance(info.value, coinrow.UnknownStrategyError)
    assert isinstance(info.value, coinrow.CoinrowError)


def test_the_command_line_names_a_bad_parameter_in_one_line() -> None:
    from helpers import run_cli

    result = run_cli("compare", "lookahead:x", "optimal", "--games", "2")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "lookahead" in result.stderr
