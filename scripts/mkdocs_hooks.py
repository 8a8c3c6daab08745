"""MkDocs hooks for the documentation site (mkdocs.yml `hooks:`), run by every `make docs`.

- The version and licence in every page's footer come from the installed package
  (`coinrow.__version__` and its metadata), never from a second copy in mkdocs.yml.
- Maths is rendered at build time: `pymdownx.arithmatex` (generic mode) marks each `$...$` and
  `$$...$$`, and this hook turns the LaTeX into MathML with `latex2mathml`, which the browser
  draws with no script and nothing fetched. LaTeX that does not convert is a build warning, so
  a strict build fails on it.
- Interactive sessions (a `python` fence that starts with `>>>`) are highlighted as `pycon`, and
  every session's copy button copies only its code: the lines after `>>> ` and `... `, without
  the prompts, the output or a traceback (Material copies a block's `data-copy` text when it
  has one).
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
_CODE_BLOCK = re.compile(r'<div class="highlight">(?P<pre><pre>.*?</pre>)</div>', re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
# latex2mathml leaves a command it does not know as text: a backslash inside a MathML token.
_UNKNOWN_COMMAND = re.compile(r"<m[ion][^>]*>\\[A-Za-z]+</m[ion]>")
# latex2mathml sizes `\bigl|` but not `\bigl\lvert`: the same bar, spelled the way it knows.
_SIZED_BAR = re.compile(r"\\([bB]igg?[lr]?)\\[lr]vert\b")
# latex2mathml writes `\max` as an operator (spaced) but `\log` as a plain identifier, which runs
# into its neighbours ("nlogn"): spell the named functions as operators too.
_FUNCTION_NAME = re.compile(r"<mi>(log|ln|exp|lg)</mi>")


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
    return _FUNCTION_NAME.sub(r"<mo>\1</mo>", mathml)


def session_code(block_html: str) -> str | None:
    """The code of an interactive session (its `>>> ` and `... ` lines without the prompts), or
    None when the block is not a session."""
    lines = html.unescape(_TAG.sub("", block_html)).splitlines()
    if not lines or not lines[0].startswith(">>> "):
        return None
    return "\n".join(line[4:] for line in lines if line.startswith((">>> ", "... ")))


def with_copy_text(content: str) -> str:
    def mark(match: re.Match[str]) -> str:
        code = session_code(match["pre"])
        if code is None:
            return match.group(0)
        return f'<div class="highlight" data-copy="{html.escape(code)}">{match["pre"]}</div>'

    return _CODE_BLOCK.sub(mark, content)


def on_page_content(content: str, page: Any, **_: Any) -> str:
    content = with_copy_text(content)

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
