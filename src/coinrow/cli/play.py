"""``coinrow play`` (a game against a strategy, driven by lines on standard input) and
``coinrow analyze`` (move-by-move analysis of recorded games)."""

from __future__ import annotations

import datetime
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable
from rich.text import Text

from ..analysis import GameAnalysis, analyze
from ..game import Game
from ..io import read_bytes
from ..numbers import Value, format_value, random_row
from ..record import Record, RecordsRead, append_record, load_records
from ..strategies import get
from ..subgames import Subgames
from . import _stdin_bytes, app, check_output_path, fail, print_json, read_coins

#: Most coins the board shows; longer rows show both ends and elide the middle.
BOARD_WIDTH = 24

#: Most coins a game can have: a game is played move by move (and analysed at the end in
#: O(n) per move on long rows).
MAX_COINS = 1000

#: Most moves the analysis table prints; longer games print the summary only (use --json).
ANALYSIS_LIMIT = 200

HELP_LINE = "L or R: take the left or right coin · h: hint · u: undo · q: quit"


@app.command("play")
def play_command(
    coins: list[str] | None = typer.Argument(
        None, help=f"Coin values of the row to play (at most {MAX_COINS:,}; -3 is a coin)."
    ),
    random_n: int | None = typer.Option(
        None,
        "--random",
        metavar="N",
        help=f"Play a random row of N coins instead (1 to {MAX_COINS:,}).",
    ),
    seed: int | None = typer.Option(None, "--seed", help="Seed of --random (and of random play)."),
    values: str | None = typer.Option(
        None, "--values", help="Values of --random coins: a range 1-9 (default) or a list 1,2,5."
    ),
    opponent: str = typer.Option(
        "optimal", "--opponent", "-o", help="The computer's strategy (see `coinrow compare`)."
    ),
    first: bool = typer.Option(True, "--first/--second", help="You move first, or second."),
    save: Path | None = typer.Option(
        None,
        "--save",
        help="Append the finished game's record to this file (no prompt; its folder is checked "
        "before the game starts).",
    ),
    name: str = typer.Option("you", "--name", help="Your name in the saved record."),
    as_json: bool = typer.Option(
        False, "--json", help="Board on stderr; print the record and analysis as JSON."
    ),
) -> None:
    """Play a row against the computer.

    Moves are read line by line from standard input: L or R (any case) takes a coin, h gives a
    hint, u undoes your last move and the reply, q (or end of input) quits. At the end the
    game is analysed and may be saved."""
    if save is not None:
        check_output_path(save, "--save")
    row = _play_row(coins, random_n, seed, values)
    strategy = get(opponent, seed=seed)
    console = Console(file=sys.stderr if as_json else sys.stdout, highlight=False, soft_wrap=True)
    session = _Session(row, opponent, first, console)
    console.print(f"Coins in a line against [bold]{escape(opponent)}[/]. {HELP_LINE}")
    while not session.game.position.is_over:
        if session.humans_turn:
            if session.shown != len(session.game.moves):
                session.show_board()
            command = _ask(console, "Your move: ")
            if command is None or command.lower() in ("q", "quit"):
                console.print("Game abandoned.")
                return
            session.command(command)
        else:
            session.computer_move(strategy(session.game.position))
    players = (name, opponent) if first else (opponent, name)
    record = Record(
        row,
        session.game.line,
        {"players": f"{players[0]} vs {players[1]}", "date": _today()},
    )
    analysis = analyze(record.coins, record.moves, session.subgames)
    session.show_board()
    console.print(_verdict(session.game, first))
    if as_json:
        print_json({"record": record.to_dict(), "analysis": analysis.to_dict()})
    else:
        print_analysis(analysis, console, players)
    target = save
    if target is None:
        answer = _ask(console, "Save the record to a file (empty to skip): ")
        target = Path(answer) if answer else None
    if target is not None:
        try:
            append_record(target, record)
        except OSError as error:
            fail(f"cannot save the record to {target}: {error.strerror or error}")
        console.print(f"Record saved to {escape(str(target))}.")


def _play_row(
    coins: list[str] | None, random_n: int | None, seed: int | None, values: str | None
) -> list[Value]:
    if random_n is None:
        if seed is not None and not coins:
            fail("--seed needs --random N (or give the coins)")
        if values is not None:
            fail("--values only applies with --random N")
        if coins == ["-"]:
            fail("play reads your moves from standard input: give the coins as arguments")
        row = read_coins(coins, None)
    else:
        if coins:
            fail("give either coins or --random N, not both")
        if not 1 <= random_n <= MAX_COINS:
            fail(f"--random must be 1 to {MAX_COINS:,} coins, got {random_n:,}")
        row = random_row(random_n, values or "1-9", seed)
    if not row:
        fail("no coins to play")
    if len(row) > MAX_COINS:
        fail(f"a game has at most {MAX_COINS:,} coins; this row has {len(row):,}")
    return row


class _Session:
    """The game being played, the seats, and the board shown after every move."""

    def __init__(self, row: list[Value], opponent: str, human_first: bool, console: Console):
        self.game = Game(row)
        self.subgames = Subgames(row)
        self.opponent = opponent
        self.human_seat = 0 if human_first else 1
        self.console = console
        self.shown = -1  # number of moves when the board was last shown

    @property
    def humans_turn(self) -> bool:
        return len(self.game.moves) % 2 == self.human_seat

    def show_board(self) -> None:
        position, (first, second) = self.game.position, self.game.totals
        mine, theirs = (first, second) if self.human_seat == 0 else (second, first)
        self.console.print(_board(position.coins, position.lo, position.hi))
        self.console.print(
            f"You {format_value(mine)} · {escape(self.opponent)} {format_value(theirs)}"
        )
        self.shown = len(self.game.moves)

    def command(self, text: str) -> None:
        command = text.strip().lower()
        if command in ("l", "r"):
            coin = self.game.coins[self.game.position.coin_index(command.upper())]
            self.game.push(command.upper())
            self.console.print(f"You take {format_value(coin)} ({command.upper()}).")
        elif command in ("h", "hint"):
            self.hint()
        elif command in ("u", "undo"):
            self.undo()
        else:
            self.console.print(f"Unknown command {escape(text.strip())!r}. {HELP_LINE}")

    def hint(self) -> None:
        position = self.game.position
        best = self.subgames.moves_of(position.lo, position.hi)
        guaranteed = self.game.guaranteed(subgames=self.subgames)[self.human_seat]
        moves = " or ".join(
            f"{move} (take {format_value(self.game.coins[position.coin_index(move)])})"
            for move in best
        )
        self.console.print(
            f"Hint: best {moves}; you can still guarantee {format_value(guaranteed)} in total."
        )

    def undo(self) -> None:
        if len(self.game.moves) <= self.human_seat:
            self.console.print("Nothing to undo.")
            return
        while True:  # pop the replies, then the human's move
            human_move = (len(self.game.moves) - 1) % 2 == self.human_seat
            self.game.pop()
            if human_move:
                break
        self.console.print("Undone: your last move and the reply.")
        self.show_board()

    def computer_move(self, move: str) -> None:
        coin = self.game.coins[self.game.position.coin_index(move)]
        self.game.push(move)
        self.console.print(f"{escape(self.opponent)} takes {format_value(coin)} ({move}).")


def _board(coins: tuple[Value, ...], lo: int, hi: int) -> Text:
    """The coins left, the two ends marked; a long row is shown by its ends only."""
    if lo > hi:
        return Text("(no coins left)")
    indices = list(range(lo, hi + 1))
    if len(indices) > BOARD_WIDTH:
        half = BOARD_WIDTH // 2
        indices = [*indices[:half], -1, *indices[-half:]]
    text = Text("L ▸ ")
    for index in indices:
        if index == -1:
            text.append(f"… ({hi - lo + 1 - BOARD_WIDTH} more) ", style="dim")
        elif index in (lo, hi):
            text.append(f"[{format_value(coins[index])}] ", style="bold reverse")
        else:
            text.append(f"{format_value(coins[index])} ")
    text.append("◂ R")
    return text


def _ask(console: Console, prompt: str) -> str | None:
    """One line from standard input (None at end of input), after the prompt."""
    console.print(prompt, end="")
    console.file.flush()
    line = sys.stdin.readline()
    if not line:
        console.print()
        return None
    return line.strip()


def _today() -> str:
    return datetime.datetime.now(datetime.UTC).date().isoformat()


def _verdict(game: Game, human_first: bool) -> str:
    first, second = game.totals
    mine, theirs = (first, second) if human_first else (second, first)
    result = "You win" if mine > theirs else "You lose" if mine < theirs else "A tie"
    return f"{result}: {format_value(mine)} to {format_value(theirs)}."


def _player_names(record: Record) -> tuple[str, str]:
    first, separator, second = (record.players or "").partition(" vs ")
    return (first, second) if separator and first and second else ("first", "second")


def print_analysis(analysis: GameAnalysis, console: Console, names: tuple[str, str]) -> None:
    """Rich table of every move, then each player's summary."""
    if len(analysis.moves) <= ANALYSIS_LIMIT:
        table = RichTable(title="Analysis")
        for header in ("#", "Player", "Move", "Coin", "Best", "Before", "After", "Loss", "Label"):
            textual = header in ("Player", "Move", "Best", "Label")
            table.add_column(header, justify="left" if textual else "right")
        styles = {"best": "green", "inaccuracy": "yellow", "mistake": "red", "blunder": "bold red"}
        for move in analysis.moves:
            step, player, *middle, label = move.texts()
            name = escape(names[0 if player == "first" else 1])
            table.add_row(step, name, *middle, f"[{styles[label]}]{label}[/]")
        console.print(table)
    else:
        console.print(f"({len(analysis.moves)} moves: table omitted; use --json for every move)")
    for summary, player in ((analysis.first, names[0]), (analysis.second, names[1])):
        labels = ", ".join(f"{count} {label}" for label, count in summary.labels.items() if count)
        console.print(
            f"{escape(player)}: {summary.moves} moves, accuracy {summary.accuracy:.0f}%, "
            f"total loss {format_value(summary.total_loss)} ({labels or 'no moves'}); "
            f"guaranteed {format_value(summary.guaranteed_start)} at the start, "
            f"took {format_value(summary.final_total)}."
        )


@app.command("analyze")
def analyze_command(
    record_file: str = typer.Argument(
        ..., metavar="RECORD_FILE", help="File of game records (text or JSON), or '-' for stdin."
    ),
    index: int | None = typer.Option(
        None, "--index", "-i", help="Analyse only the K-th record of the file (1-based)."
    ),
    skip_bad: bool = typer.Option(
        False, "--skip-bad", help="Warn about malformed records and analyse the others."
    ),
    as_json: bool = typer.Option(
        False,
        "--json",
        help='Print JSON: {"games": [...]}, one object per record with headers, coins, line, '
        "finished, moves (step, player, move, coin, best_moves, guaranteed_before, "
        "guaranteed_after, loss, label, first_total, second_total) and summary (first, "
        "second: player, moves, total_loss, accuracy, labels, guaranteed_start, final_total).",
    ),
) -> None:
    """Analyse recorded games move by move.

    For each move: the mover's guaranteed total before and after it, the best move(s), the
    loss and a label (best, inaccuracy, mistake, blunder); then each player's summary."""
    read = _read(record_file)
    if read.errors and not read.records:
        first = read.errors[0]
        more = f" ({len(read.errors) - 1} more bad records)" if len(read.errors) > 1 else ""
        fail(f"{record_file}: {first}{more}")
    if read.errors and not skip_bad:
        first = read.errors[0]
        more = f" ({len(read.errors) - 1} more bad records)" if len(read.errors) > 1 else ""
        fail(f"{record_file}: {first}{more}; use --skip-bad to analyse the good records")
    for error in read.errors:
        sys.stderr.write(f"coinrow: warning: {record_file}: {error} (record skipped)\n")
    records = read.records
    if not records:
        fail(f"{record_file}: no game records found")
    if index is not None:
        if not 1 <= index <= len(records):
            fail(f"--index {index} is out of range: the file has {len(records)} records")
        records = [records[index - 1]]
    analyses = [analyze(record.coins, record.moves) for record in records]
    if as_json:
        games = [
            {"headers": dict(record.headers), **analysis.to_dict()}
            for record, analysis in zip(records, analyses, strict=True)
        ]
        print_json({"games": games})
        return
    console = Console(highlight=False)
    for number, (record, analysis) in enumerate(zip(records, analyses, strict=True), start=1):
        _print_record_header(console, record, number if len(records) > 1 else None)
        print_analysis(analysis, console, _player_names(record))


def _read(source: str) -> RecordsRead:
    data = _stdin_bytes() if source == "-" else read_bytes(source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        fail(f"{source}: not a text file of game records")
    return load_records(text)


def _print_record_header(console: Console, record: Record, number: int | None) -> None:
    details: list[Any] = [f"{key}: {value}" for key, value in record.headers.items()]
    title = f"Game {number}" if number is not None else "Game"
    coins = " ".join(format_value(coin) for coin in record.coins[:40])
    more = " …" if len(record.coins) > 40 else ""
    console.rule(escape(title + (" · " + " · ".join(details) if details else "")))
    console.print(f"Coins: {coins}{more}  Moves: {record.moves or '(none)'}")
