"""Every command's ``--help`` at 80 columns reads well: paragraphs are wrapped as paragraphs
(no fragment line: a line that ends well short of the width while its paragraph goes on),
the command list gives one line per command, no flag shows a type such as ``<bool>``, and
defaults sit in the ``[default: ...]`` slot rather than in prose."""

from __future__ import annotations

import io
import itertools
import re
import sys
import textwrap

import pytest
import typer

from coinrow.cli import RENAMED, RENAMED_UNTIL, app, main

COMMAND = typer.main.get_command(app)
NAMES = sorted(COMMAND.commands)  # type: ignore[attr-defined]
WIDTH = 80
#: The lines of a cell that start a new item rather than continue the paragraph above.
ITEM_STARTS = ("[default:", "[required]", "[env var:")


def help_text(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main([*args, "--help"]) == 0
    return capsys.readouterr().out


def fragments(text: str) -> list[str]:
    """Lines after which the next line's first word would still have fitted: a greedy
    wrapping of one paragraph never leaves one (O(len(text)))."""
    found = []
    lines = text.splitlines()
    for line, after in itertools.pairwise(lines):
        if line.startswith("│") and after.startswith("│"):  # inside a panel: the help column
            words = after.strip("│ ").split()
            if line.strip("│ ").startswith(ITEM_STARTS):
                continue  # the line above is the previous row's default
            if after[2] != " " or not words or words[0].startswith(ITEM_STARTS):
                continue  # a new row (its name at the left), or the default after the help
            start = after.index(words[0])
            if line[start - 1] != " " or not line[start:].strip("│ "):
                continue  # the line above ends in another column, or is blank there
            end = len(line.rstrip("│ ").rstrip())
            room = len(line) - 2  # the border and its padding
        elif line.strip() and after.strip() and not line.startswith(("╭", "╰", "│")):
            words = after.split()
            end, room = len(line.rstrip()), WIDTH - 1
        else:
            continue
        if end + 1 + len(words[0]) <= room:
            found.append(f"{line.rstrip()!r} then {words[0]!r}")
    return found


@pytest.fixture(autouse=True)
def _eighty_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    monkeypatch.delenv("TERMINAL_WIDTH", raising=False)


def test_fragments_are_found() -> None:
    # The detector itself, on a paragraph wrapped greedily and on the same cut early (as
    # a docstring's own line break cuts it), in the text and in a panel's help column.
    paragraph = "Families: --length N (all rows of N coins), --max-length M " * 3
    wrapped = textwrap.wrap(paragraph, WIDTH - 2)
    assert fragments("".join(f" {line}\n" for line in wrapped)) == []
    words = paragraph.split()
    cut = [" ".join(words[:4]), *textwrap.wrap(" ".join(words[4:]), WIDTH - 2)]
    assert len(fragments("".join(f" {line}\n" for line in cut))) == 1
    cell = [f"│ --max-length  -m  <int>  {'Longest row searched,':<49} │"]
    cell.append(f"│ {'':23}  {'up to 12.':<49} │")
    assert len(fragments("\n".join(cell))) == 1
    full = "Longest row searched by the exhaustive pass, all"
    cell[0] = f"│ --max-length  -m  <int>  {full:<49} │"
    assert fragments("\n".join(cell)) == []


@pytest.mark.parametrize("name", ["", *NAMES])
def test_help_wraps_paragraphs_and_shows_no_bool(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    text = help_text(capsys, *([name] if name else []))
    assert all(len(line) <= WIDTH for line in text.splitlines())
    assert "<bool>" not in text
    assert fragments(text) == []


def test_the_command_list_has_one_line_each(capsys: pytest.CaptureFixture[str]) -> None:
    panel = help_text(capsys).split("Commands ─", 1)[1]
    rows = [line for line in panel.splitlines() if line.startswith("│")]
    assert [row.split()[1] for row in rows] == NAMES  # every row names a command


def test_defaults_are_shown_not_written_in_prose() -> None:
    for name in NAMES:
        command = COMMAND.commands[name]  # type: ignore[attr-defined]
        for param in command.params:
            prose = re.search(r"\(default\b|\bdefault[: ]|; default", param.help or "")
            assert prose is None, f"{name} {param.opts}: {param.help}"


def test_old_spellings_are_hidden_from_help(capsys: pytest.CaptureFixture[str]) -> None:
    for name, renames in RENAMED.items():
        text = help_text(capsys, name)
        for old, new in renames.items():
            assert re.search(rf"(?<![\w-]){re.escape(old)}(?![\w-])", text) is None, (name, old)
            assert new in text


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (["compare", "greedy", "optimal", "--games", "2", "--n", "3", "--json"],
         ["compare", "greedy", "optimal", "--games", "2", "--length", "3", "--json"]),
        (["refute", "greedy", "--alphabet", "1,2", "--limit", "2", "-m", "5", "--json"],
         ["refute", "greedy", "--values", "1,2", "--examples", "2", "-m", "5", "--json"]),
        (["refute", "greedy", "-a", "1,2", "-m", "4", "--json"],
         ["refute", "greedy", "--values", "1..2", "-m", "4", "--json"]),
        (["refute", "thibault", "--row", "2,1,2,3,3,3", "--json"],
         ["refute", "thibault", "2", "1", "2", "3", "3", "3", "--json"]),
        (["refute", "greedy", "--row=-1,2,-3", "--json"],
         ["refute", "greedy", "-1", "2", "-3", "--json"]),
        (["puzzles", "-n", "2", "--json"], ["puzzles", "--count", "2", "--json"]),
        (["play", "--random", "3", "--seed", "1", "--json"],
         ["play", "-n", "3", "--seed", "1", "--json"]),
    ],
)  # fmt: skip
def test_old_spellings_still_work_for_one_release(
    old: list[str], new: list[str], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    outputs = []
    for args in (old, new):
        monkeypatch.setattr(sys, "stdin", io.StringIO("L\nL\nL\n"))
        assert main(args) == 0
        outputs.append(capsys.readouterr())
    assert outputs[0].out == outputs[1].out
    assert outputs[1].err.count("coinrow: note:") == 0
    assert f"the old spelling goes in {RENAMED_UNTIL}" in outputs[0].err
