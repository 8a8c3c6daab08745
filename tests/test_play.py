"""``coinrow play`` driven through standard input, and ``coinrow analyze`` on its records."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import oracle
import pytest
from helpers import run_cli

from coinrow import read_records
from coinrow.cli import main

run = run_cli  # the shared helper (tests/helpers.py)


def play(args: list[str], lines: str, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    return main(["play", *args])


def test_play_through_stdin_save_and_analyze(tmp_path: Path) -> None:
    """A whole game in a subprocess (no TTY): hint, undo, a bad command, then the moves."""
    saved = tmp_path / "game.txt"
    lines = "h\nr\nu\nl\nx\nR\nl\n"
    result = run("play", "3", "2", "2", "3", "1", "2", "--save", str(saved), stdin=lines)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Hint: best L (take 3); you can still guarantee 8 in total." in out
    assert "Undone: your last move and the reply." in out
    assert "Unknown command 'x'" in out
    assert "You win: 8 to 5." in out and "Analysis" in out
    assert "[3] 2 2 3 1 [2]" in out  # the ends are marked
    assert f"Record saved to {saved}." in out
    (record,) = read_records(saved).records
    assert record.moves == "LLRLLL" and record.players == "you vs optimal"
    assert record.coins == (3, 2, 2, 3, 1, 2) and record.date

    analysis = run("analyze", "--json", str(saved))
    assert analysis.returncode == 0, analysis.stderr
    (game,) = json.loads(analysis.stdout)["games"]
    assert game["headers"]["players"] == "you vs optimal" and game["summary"]["first"]["moves"] == 3
    moves = game["moves"]
    lo, hi = 0, 5
    taken = [0, 0]
    for step, (move, entry) in enumerate(zip(record.moves, moves, strict=True)):
        assert entry["move"] == move
        assert entry["best_moves"] == list(oracle.best_move_set(record.coins, lo, hi))
        assert entry["guaranteed_before"] == taken[step % 2] + oracle.value(record.coins, lo, hi)
        assert entry["loss"] == 0 and entry["label"] == "best"  # both sides played optimally
        taken[step % 2] += record.coins[lo] if move == "L" else record.coins[hi]
        lo, hi = (lo + 1, hi) if move == "L" else (lo, hi - 1)


def test_play_second_against_greedy_with_a_mistake(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "g.txt"
    # greedy takes the 8 first; the human then plays R (a mistake: L is best), then L.
    assert play(["8", "15", "3", "7", "--second", "-o", "greedy", "--save", str(saved)],
                "R\nL\n", monkeypatch) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "greedy takes 8 (L)." in out
    (record,) = read_records(saved).records
    assert record.players == "greedy vs you" and record.moves == "LRLL"
    assert main(["analyze", str(saved), "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)["games"][0]["moves"]
    assert [m["label"] for m in moves][1] != "best" and moves[1]["best_moves"] == ["L"]
    before = oracle.value([8, 15, 3, 7], 1, 3)
    after = 7 + oracle.total([8, 15, 3, 7], 1, 2) - oracle.value([8, 15, 3, 7], 1, 2)
    assert moves[1]["loss"] == before - after


def test_scripted_moves_never_name_a_file(tmp_path: Path) -> None:
    # Moves from a pipe: the third line is not read as the file to save the game in (it
    # used to be, and a file named L appeared); no prompt is printed either.
    result = run("play", "8", "15", "3", "7", stdin="L\nL\nL\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Save the record" not in result.stdout and "saved" not in result.stdout
    assert sorted(path.name for path in tmp_path.iterdir()) == []


def test_undo_after_the_computer_started(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert play(["1", "2", "3", "4", "5", "--second"], "u\nL\nu\nq\n", monkeypatch) == 0
    out = capsys.readouterr().out
    assert "Nothing to undo." in out  # the computer's opening move is not the player's
    assert "Undone" in out and "Game abandoned." in out


def test_end_of_input_quits_cleanly() -> None:
    result = run("play", "1", "2", "3", "4", stdin="L\n")
    assert result.returncode == 0 and "Game abandoned." in result.stdout
    assert result.stderr == ""


def test_random_row_is_seeded_and_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = []
    for _ in range(2):
        assert play(["--length", "4", "--seed", "3", "--json"], "L\nL\n\n", monkeypatch) == 0
        captured = capsys.readouterr()
        outputs.append(json.loads(captured.out))
        assert "Your move" in captured.err  # the board goes to stderr with --json
    assert outputs[0] == outputs[1]
    data = outputs[0]
    moves = data["analysis"]["moves"]
    assert len(data["record"]["coins"]) == 4 and len(moves) == 4
    assert {"move", "best_moves", "loss", "label"} <= set(moves[0])


def test_big_row_board_is_elided(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert play(["--length", "500", "--seed", "1"], "h\nq\n", monkeypatch) == 0
    out = capsys.readouterr().out
    assert "more)" in out and "you can still guarantee" in out


def test_analyze_text_output_and_several_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "two.txt"
    path.write_text("# players: Ann vs Ben\n3 2 2 3 1 2\nRLLLLL\n\n1 2 3\nLR\n")
    assert main(["analyze", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Game 1" in out and "Game 2" in out and "mistake" in out
    assert "Ann: 3 moves, accuracy 67%, total loss 1" in out
    assert main(["analyze", "--json", str(path)]) == 0
    both = json.loads(capsys.readouterr().out)["games"]
    assert [len(game["moves"]) for game in both] == [6, 2]
    assert both[0]["headers"] == {"players": "Ann vs Ben"} and both[1]["headers"] == {}
    assert main(["analyze", "--json", "--index", "2", str(path)]) == 0
    (one,) = json.loads(capsys.readouterr().out)["games"]  # one shape for one record too
    assert [m["move"] for m in one["moves"]] == ["L", "R"]


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["play", "1", "2", "--length", "3"], "", "not both"),
        (["play", "--length", "-2"], "", "--length must be 1 to 1,000 coins, got -2"),
        (["play", "--seed", "4"], "", "--seed needs --length"),
        (["play", "1", "2", "--values", "1-3"], "", "--values only applies"),
        (["play", "--length", "3", "--values", "9-1"], "", "empty value range"),
        (["play", "1", "2", "-o", "magic"], "", "unknown strategy 'magic'"),
        (["play", "-"], "", "give the coins as arguments"),
        (["play"], "", "no coins given"),
        (["play", "1", "x"], "", "coin 2 ('x')"),
        (["analyze", "/no/such/file"], "", "no such file"),
        (["analyze", "-"], "1 2\nLX\n", "line 2: move 2 is 'X'"),
        (["analyze", "-"], "1 2\nLLL\n\n1 y\n", "(1 more bad records)"),
        (["analyze", "-"], "# date: x\n", "no coins line"),
        (["analyze", "-"], "", "no game records found"),
        (["analyze", "--index", "3", "-"], "1 2\n", "--index 3 is out of range"),
    ],
)
def test_errors_exit_2_on_one_line(
    args: list[str],
    stdin: str,
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert message in err and "Traceback" not in err


def test_an_error_in_a_subprocess_is_one_line() -> None:
    result = run("analyze", "-", stdin="1 2\nLX\n\n3 1\nRL\n")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        "coinrow: error: -: line 2: move 2 is 'X'; moves are L (take the left coin) or R; "
        "use --skip-bad to analyse the good records\n"
    )
    alone = run("analyze", "-", stdin="1 2\nLX\n")  # no good record: no --skip-bad advice
    assert alone.returncode == 2
    assert alone.stderr == (
        "coinrow: error: -: line 2: move 2 is 'X'; moves are L (take the left coin) or R\n"
    )


def test_skip_bad_analyses_the_good_records() -> None:
    result = run("analyze", "--skip-bad", "--json", "-", stdin="1 2\nLX\n\n3 1\nRL\n")
    assert result.returncode == 0
    assert "warning" in result.stderr and "line 2" in result.stderr
    (game,) = json.loads(result.stdout)["games"]
    assert [m["move"] for m in game["moves"]] == ["R", "L"]
