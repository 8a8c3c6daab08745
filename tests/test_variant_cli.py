"""``coinrow play --rules`` and ``coinrow analyze --rules`` (docs/variants.md, "Playing under
other rules"): scripted games, --json, records with the rules, and exit 2 with one line."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
import variants_oracle as oracle
from helpers import run_cli

from coinrow import read_records
from coinrow.cli import main


def play(args: list[str], lines: str, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    return main(["play", *args])


def test_play_misere_in_a_subprocess_with_json(tmp_path: Path) -> None:
    """The done-when case: hint, a bad move, undo, then the game; JSON on stdout."""
    saved = tmp_path / "misere.txt"
    lines = "h\nB\nR\nu\nL\nL\n"
    args = ["play", "--rules", "misere", "1", "5", "2", "4", "--json", "--save", str(saved)]
    result = run_cli(*args, stdin=lines)
    assert result.returncode == 0, result.stderr
    board = result.stderr
    assert "under misere" in board and "Hint: best L (take 1)" in board
    assert "'B' is not a move of the rules misere; legal: L R" in board and "Undone" in board
    data = json.loads(result.stdout)
    record, analysis = data["record"], data["analysis"]
    assert record["headers"]["rules"] == "misere" and analysis["rules"] == "misere"
    # both play optimally after the undo: no loss, and the oracle's margin
    assert [m["loss"] for m in analysis["moves"]] == [0, 0, 0, 0]
    first, second = analysis["moves"][-1]["totals"]
    assert second - first == oracle.two_player([1, 5, 2, 4], "misere")[0]
    (saved_record,) = read_records(saved).records
    assert saved_record.rules.kind == "misere" and saved_record.moves == record["moves"]
    again = run_cli("analyze", "--json", str(saved))
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["games"][0]["moves"] == analysis["moves"]


def test_play_take_moves_and_hints(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "take.txt"
    args = ["--rules", "take:2", "1", "2", "3", "4", "--save", str(saved)]
    assert play(args, "h\nl\nr2\n", monkeypatch) == 0
    out = capsys.readouterr().out
    assert "Hint: best R2 (take 4 + 3)" in out and "with best play from here you end with 7" in out
    assert "'l' is not a move of the rules take:2; legal: L1 L2 R1 R2" in out
    assert "You take 4 + 3 (R2)." in out and "optimal takes 1 + 2 (L2)." in out
    (record,) = read_records(saved).records
    assert record.rules.take == 2 and record.moves == "R2 L2" and record.finished


def test_play_n_players_and_the_pizza(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--rules", "players:3", "-o", "greedy", "1", "2", "3", "4", "5", "6", "--json"]
    assert play(args, "R\nR\n", monkeypatch) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["record"]["headers"]["players"] == "you vs greedy 2 vs greedy 3"
    assert set(data["analysis"]["summary"]) == {"player 1", "player 2", "player 3"}
    args = ["--rules", "circular", "4", "1", "2", "3", "5", "--json"]
    assert play(args, "9\n0\nL\nL\n", monkeypatch) == 0
    captured = capsys.readouterr()
    assert "'9' is not a first slice" in captured.err
    data = json.loads(captured.out)
    assert data["record"]["moves"].startswith("0 ")
    assert data["analysis"]["moves"][0]["best_moves"] == ["4"]


def test_play_best_reply_seats(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--rules", "reply:greedy", "3", "2", "10", "4", "--json"]
    assert play(args, "L\nL\n", monkeypatch) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["record"]["headers"]["players"] == "you vs greedy"
    assert data["analysis"]["moves"][1]["move"] == "R"  # greedy takes the 4


BAD = [
    (["play", "--rules", "pizza", "1", "2"], "unknown rules 'pizza'"),
    (["play", "--rules", "take:x", "1", "2"], "rules 'take:x': K must be"),
    (
        ["play", "--rules", "misere", "-o", "lookahead:3", "1", "2"],
        "'lookahead:3' plays the plain game only, not the rules misere",
    ),
    (["play", "--rules", "reply:greedy", "--second", "1", "2"], "you play first"),
    (["play", "--rules", "reply:greedy", "-o", "optimal", "1", "2"], "the opponent is greedy"),
    (["play", "--rules", "players:3", "--length", "101"], "at most 100 coins"),
    (["analyze", "--rules", "both_ends", "-"], "unknown rules 'both_ends'"),
]


@pytest.mark.parametrize(("args", "message"), BAD)
def test_bad_rules_exit_2_with_one_line(
    args: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


def test_analyze_reads_records_with_and_without_the_rules_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.txt"
    path.write_text("1 2 3 4 5\nL2 R1 R2\n\n# rules: both-ends\n1 2 3\nBL\n")
    assert main(["analyze", str(path)]) == 2  # L2 is not a plain move
    assert "line 2" in capsys.readouterr().err
    assert main(["analyze", "--rules", "take:2", "--json", str(path)]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    assert [game["rules"] for game in games] == ["take:2", "both-ends"]
    assert games[0]["moves"][0]["coin"] == 3 and games[0]["moves"][0]["best_moves"] == ["R2"]
    assert games[1]["finished"] and games[1]["moves"][0]["totals"] == [4, 0]


def test_compare_and_refute_with_rules(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["compare", "optimal", "greedy", "--rules", "take:2", "--games", "3", "-n", "5"]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"] == "take:2" and data["standings"][0]["mean_regret"] == 0.0
    assert main(["compare", "optimal", "thibault", "--rules", "misere"]) == 2
    assert "'thibault' plays the plain game only" in capsys.readouterr().err
    assert main(["compare", "optimal", "greedy", "--rules", "players:3"]) == 2
    assert main(["refute", "greedy", "--rules", "misere", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"] == "misere" and data["counterexamples"][0]["coins"] == [2, 1, 2, 2]
