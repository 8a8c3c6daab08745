"""docs/cli.md's table of every flag of every command is the app's own: one name per idea,
and each short option means one thing in every command."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import typer

from coinrow.cli import RENAMED, RENAMED_UNTIL, app

DOC = Path(__file__).resolve().parent.parent / "docs" / "cli.md"
BEGIN, END = "<!-- flags table: begin -->", "<!-- flags table: end -->"


def flag_table() -> str:
    """The Markdown table of every option: its short form, what it takes, its commands."""
    group = typer.main.get_command(app)
    rows: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for name, command in sorted(group.commands.items()):  # type: ignore[attr-defined]
        for param in command.params:
            if param.param_type_name != "option":
                continue
            longs = [opt for opt in [*param.opts, *param.secondary_opts] if opt.startswith("--")]
            shorts = [opt for opt in param.opts if not opt.startswith("--")]
            shown_type = param.display_type_rich(typer.Context(command)) or ""
            takes = "" if param.is_flag else shown_type.strip("<>")
            rows["/".join(longs), ", ".join(shorts), takes].append(name)
    lines = ["| option | short | takes | commands |", "|---|---|---|---|"]
    for (long, short, takes), names in sorted(rows.items()):
        shown = f"`{short}`" if short else ""
        lines.append(f"| `{long}` | {shown} | {takes} | {', '.join(names)} |")
    lines += [
        "",
        f"Old spellings, read until {RENAMED_UNTIL} (hidden from `--help`, with a note):",
        "",
    ]
    for command, renames in sorted(RENAMED.items()):
        for old, new in sorted(renames.items()):
            lines.append(f"- `coinrow {command} {old}`: now `{new}`")
    lines.append(
        "- `coinrow refute --row A,B,C`: now the coins as arguments, `refute STRATEGY A B C`"
    )
    return "\n".join(lines)


def test_docs_table_is_the_apps() -> None:
    text = DOC.read_text()
    assert BEGIN in text and END in text
    written = text.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    assert written == flag_table()  # to regenerate: print(flag_table()) from this module


def test_each_short_option_means_one_thing() -> None:
    group = typer.main.get_command(app)
    meaning: dict[str, set[str]] = defaultdict(set)
    for command in group.commands.values():  # type: ignore[attr-defined]
        for param in command.params:
            if param.param_type_name == "option":
                longs = [opt for opt in param.opts if opt.startswith("--")]
                for short in (opt for opt in param.opts if not opt.startswith("--")):
                    meaning[short].update(longs)
    assert {short: longs for short, longs in meaning.items() if len(longs) > 1} == {}
