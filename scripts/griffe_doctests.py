"""A Griffe extension for the documentation site (mkdocs.yml loads it): docstrings are written
for ``help()`` and doctest, so their ``>>>`` examples become fenced ``pycon`` code blocks and
their Sphinx roles (``:class:`~coinrow.Table```) become inline code, before Markdown sees them.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|func|meth|data|attr|mod|exc):`~?([\w.]+)`")


def fence_doctests(text: str) -> str:
    """Wrap each run of ``>>>`` lines and their output (up to the next blank line) in a
    ``pycon`` fence, at the run's own indentation."""
    out: list[str] = []
    in_block = False
    for line in text.splitlines():
        starts = line.lstrip().startswith(">>>")
        if starts and not in_block:
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            in_block = True
        elif in_block and not line.strip():
            out.append(f"{indent}```")
            in_block = False
        out.append(line)
    if in_block:
        out.append(f"{indent}```")
    return "\n".join(out)


def plain_roles(text: str) -> str:
    """``:class:`~coinrow.game.Game``` -> ```Game```.

    >>> plain_roles(":class:`~coinrow.game.Game` and :func:`coinrow.solve`")
    '`Game` and `coinrow.solve`'
    """
    return ROLE.sub(lambda m: f"`{m.group(1)}`" if "~" not in m.group(0) else
                    f"`{m.group(1).rsplit('.', 1)[-1]}`", text)  # fmt: skip


class DoctestFences(griffe.Extension):
    """Rewrite every docstring once the object tree is loaded."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(plain_roles(obj.docstring.value))
