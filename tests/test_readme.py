"""The README's Python example runs as written."""

from __future__ import annotations

import doctest
from pathlib import Path


def test_readme_examples() -> None:
    text = (Path(__file__).parent.parent / "README.md").read_text()
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, "README", "README.md", 0)
    result = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS).run(test)
    assert result.failed == 0 and result.attempted > 0
