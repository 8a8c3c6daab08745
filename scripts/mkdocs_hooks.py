"""MkDocs hooks for the documentation site (mkdocs.yml `hooks:`), run by every `make docs`.

- The version and licence in every page's footer come from the installed package
  (`coinrow.__version__` and its metadata), never from a second copy in mkdocs.yml.
- Maths is rendered at build time: `pymdownx.arithmatex` (generic mode) marks each `$...$` and
  `$$...$$`, and this hook turns the LaTeX into MathML with `latex2mathml`, which the browser
  draws with no script and nothing fetched. LaTeX that does not convert is a build warning, so
  a strict build fails on it.
- Interactive sessions (a `python` fence that starts with `>>>`) are highlighted as `pycon`, so
  the prompts and the output get their own classes and the copy button can leave them out
  (docs/assets/copy-code.css).
"""

from __future__ import annotations

import html
import logging
import re
from importlib.metadata import PackageNotFoundError, metadata
from typing import Any

import latex2mathml.converter

import coinrow

log = logging.getLogger("mkdocs.hooks.coinrow")

_MATH = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">(?P<body>.*?)</(?P=tag)>',
    re.DOTALL,
)
_INLINE = re.compile(r"^\\\((?P<tex>.*)\\\)$", re.DOTALL)
_BLOCK = re.compile(r"^\\\[(?P<tex>.*)\\\]$", re.DOTALL)
_SESSION_FENCE = re.compile(r"^(?P<indent>[ \t]*)```python[ \t]*\n(?=[ \t]*>>> )", re.MULTILINE)
# latex2mathml leaves a command it does not know as text: a backslash inside a MathML token.
_UNKNOWN_COMMAND = re.compile(r"<m[ion][^>]*>\\[A-Za-z]+</m[ion]>")
# latex2mathml sizes `\bigl|` but not `\bigl\lvert`: the same bar, spelled the way it knows.
_SIZED_BAR = re.compile(r"\\([bB]igg?[lr]?)\\[lr]vert\b")


def licence_name() -> str:
    """The licence named in the package metadata (pyproject.toml's `license`)."""
    try:
        meta = metadata("coinrow")
    except PackageNotFoundError:  # pragma: no cover - the site is built from an install
        return "MIT"
    return meta.get("License-Expression") or meta.get("License") or "MIT"


def on_config(config: Any) -> Any:
    version = coinrow.__version__
    config["extra"]["version"] = version
    config["copyright"] = (
        f"coinrow {version} · {licence_name()} licence · "
        "every example on these pages is run by the test suite"
    )
    return config


def on_page_markdown(markdown: str, **_: Any) -> str:
    return _SESSION_FENCE.sub(lambda m: f"{m['indent']}```pycon\n", markdown)


def to_mathml(tex: str, *, display: str) -> str:
    """One LaTeX formula as MathML; raises ValueError when it does not convert cleanly."""
    try:
        mathml = latex2mathml.converter.convert(_SIZED_BAR.sub(r"\\\1|", tex), display=display)
    except Exception as error:  # latex2mathml raises its own exception types
        raise ValueError(f"{type(error).__name__}: {error}") from error
    unknown = _UNKNOWN_COMMAND.search(mathml)
    if unknown:
        raise ValueError(f"unknown command {unknown.group(0)}")
    return mathml


def on_page_content(content: str, page: Any, **_: Any) -> str:
    def render(match: re.Match[str]) -> str:
        body = html.unescape(match["body"].strip())
        form = (_BLOCK if match["tag"] == "div" else _INLINE).fullmatch(body)
        if form is None:
            log.warning("%s: unexpected maths markup %r", page.file.src_uri, body[:60])
            return match.group(0)
        display = "block" if match["tag"] == "div" else "inline"
        try:
            mathml = to_mathml(form["tex"].strip(), display=display)
        except ValueError as error:
            log.warning("%s: maths %r did not convert (%s)", page.file.src_uri, body[:60], error)
            return match.group(0)
        if display == "block":
            return f'<div class="arithmatex">{mathml}</div>'
        return f'<span class="arithmatex">{mathml}</span>'

    return _MATH.sub(render, content)
