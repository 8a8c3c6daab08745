"""``coinrow play`` (a game against a strategy, driven by lines on standard input) and
``coinrow analyze`` (move-by-move analysis of recorded games)."""

from __future__ import annotations

import datetime
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from ..analysis import GameAnalysis, analyze
from ..errors import IllegalMoveError
from ..game import Game, Position
from ..io import read_bytes
from ..numbers import Value, format_value, random_row
from ..record import Record, RecordsRead, append_record, load_records
from ..rules import Rules, syntax
from ..strategies import Strategy, get, play_values
from ..subgames import Subgames
from .common import (
    _stdin_bytes,
    app,
    check_output_path,
    fail,
    fitted_table,
    json_option,
    print_json,
    read_coins,
    rules_option,
)

#: Most coins the board shows; longer rows show both ends and elide the middle.
BOARD_WIDTH = 24

#: Most coins a game can have: a game is played move by move (and analysed at the end in
#: O(n) per move on long rows).
MAX_COINS = 1000

#: Most moves the analysis table prints; longer games print the summary only (use --json).
ANALYSIS_LIMIT = 200

HELP_LINE = "L or R: take the left or right coin · h: hint · u: undo · q: quit"

#: Most coins of a game under reply:S or players:P, whose hints and analysis solve the coins
#: left at every position (O(n^2 p) each, O(n^3 p) for the analysis).
MAX_SOLVING_COINS = 100

#: The --rules option of play and analyze.
RULES_HELP = f"The rules of the game: {syntax()} (docs/variants.md)."


def help_line(rules: Rules) -> str:
    """The moves and commands of a game under the rules, in one line."""
    if rules.single_coin_moves and not rules.circle:
        return HELP_LINE
    return f"{rules.moves_help()} · h: hint · u: undo · q: quit"


#: The values of a random row's coins when --values is not given.
RANDOM_VALUES = "1..9"


@app.command("play")
def play_command(
    coins: list[str] | None = typer.Argument(
        None,
        metavar="COINS",
        help=f"Coin values of the row to play (at most {MAX_COINS:,}; -3 is a coin).",
        show_default=False,
    ),
    random_n: int | None = typer.Option(
        None,
        "--length",
        "-n",
        help=f"Play a random row of this many coins instead (1 to {MAX_COINS:,}).",
    ),
    seed: int | None = typer.Option(
        None,
        "--seed",
        help="Seed of the random row (and of random play).",
        show_default="fresh each game",
    ),
    values: str | None = typer.Option(
        None,
        "--values",
        help="Values of the random row's coins: a range LO..HI or a list 1,2,5.",
        show_default=RANDOM_VALUES,
    ),
    opponent: str | None = typer.Option(
        None,
        "--opponent",
        "-o",
        help="The computer's strategy (see `coinrow compare`; under other rules optimal, "
        "greedy or random; under reply:S it is S).",
        show_default="optimal",
    ),
    first: bool = typer.Option(True, "--first/--second", help="You move first, or second."),
    rules_text: str = rules_option(RULES_HELP),
    save: Path | None = typer.Option(
        None,
        "--save",
        help="Append the finished game's record to this file (its folder is checked before the "
        "game starts). Without it, a game played at a terminal asks for a file name at the "
        "end; moves read from a pipe or a file are never taken for one.",
    ),
    name: str = typer.Option("you", "--name", help="Your name in the saved record."),
    as_json: bool = json_option("Board on stderr; print the record and analysis as JSON."),
) -> None:
    """Play a row against the computer.

    Moves are read line by line from standard input: L or R (any case) takes a coin, h gives a
    hint, u undoes your last move and the reply, q (or end of input) quits. At the end the
    game is analysed, and saved with --save FILE (or, at a terminal, to the file you name)."""
    if save is not None:
        check_output_path(save, "--save")
    rules = Rules.parse(rules_text)
    opponent = _opponent_name(rules, opponent, first)
    row = _play_row(coins, random_n, seed, values)
    if rules.per_position and len(row) > MAX_SOLVING_COINS:
        fail(
            f"a game under {rules} has at most {MAX_SOLVING_COINS} coins (its hints and "
            f"analysis solve the coins left at every move); this row has {len(row):,}"
        )
    human_seat = 0 if first else 1
    strategies: dict[int, Strategy] = {
        seat: get(opponent, seed=None if seed is None else seed + seat, rules=rules)
        for seat in range(rules.players)
        if seat != human_seat
    }
    console = Console(file=sys.stderr if as_json else sys.stdout, highlight=False, soft_wrap=True)
    session = _Session(row, opponent, first, console, rules)
    where = "" if rules.is_plain else f" under {rules}"
    console.print(f"Coins in a line{where} against [bold]{escape(opponent)}[/]. {help_line(rules)}")
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
            position = session.game.position
            session.computer_move(strategies[position.seat](position))
    players = session.names(name)
    record = Record(
        row,
        session.game.line,
        {"players": " vs ".join(players), "date": _today()},
        rules=rules,
    )
    if rules.is_plain:
        analysis = analyze(record.coins, record.moves, session.subgames)
    else:
        analysis = analyze(row, session.game.moves, rules=rules, values=session.values)
    session.show_board()
    console.print(_verdict(session.game, human_seat))
    if as_json:
        print_json({"record": record.to_dict(), "analysis": analysis.to_dict()})
    else:
        print_analysis(analysis, console, players)
    target = save
    if target is None and sys.stdin.isatty():  # scripted moves never name a file
        answer = _ask(console, "Save the record to a file (empty to skip): ")
        target = Path(answer) if answer else None
    if target is not None:
        try:
            append_record(target, record)
        except OSError as error:
            fail(f"cannot save the record to {target}: {error.strerror or error}")
        console.print(f"Record saved to {escape(str(target))}.")


def _opponent_name(rules: Rules, opponent: str | None, human_first: bool) -> str:
    """The computer's strategy: ``--opponent`` (optimal by default), S under ``reply:S``."""
    if not rules.known_opponent:
        return opponent or "optimal"
    if not human_first:
        fail(f"under {rules} you play first: the second seat is {rules.strategy}")
    if opponent is not None and opponent != rules.strategy:
        fail(f"under {rules} the opponent is {rules.strategy}, not --opponent {opponent}")
    return rules.strategy or ""


def _play_row(
    coins: list[str] | None, random_n: int | None, seed: int | None, values: str | None
) -> Sequence[Value]:
    if random_n is None:
        if seed is not None and not coins:
            fail("--seed needs --length N (or give the coins)")
        if values is not None:
            fail("--values only applies to a random row (--length N)")
        if coins == ["-"]:
            fail("play reads your moves from standard input: give the coins as arguments")
        row: Sequence[Value] = read_coins(coins, None)
    else:
        if coins:
            fail("give either coins or --length N (a random row), not both")
        if not 1 <= random_n <= MAX_COINS:
            fail(f"--length must be 1 to {MAX_COINS:,} coins, got {random_n:,}")
        row = random_row(random_n, values or RANDOM_VALUES, seed)
    if not row:
        fail("no coins to play")
    if len(row) > MAX_COINS:
        fail(f"a game has at most {MAX_COINS:,} coins; this row has {len(row):,}")
    return row


class _Session:
    """The game being played, the seats, and the board shown after every move."""

    def __init__(
        self,
        row: Sequence[Value],
        opponent: str,
        human_first: bool,
        console: Console,
        rules: Rules | None = None,
    ):
        self.rules = rules or Rules()
        self.game = Game(row, rules=self.rules)
        self.plain = self.rules.is_plain
        self.subgames = Subgames(row) if self.plain else None
        self.values = None if self.plain else play_values(row, self.rules)
        self.opponent = opponent
        self.human_seat = 0 if human_first else 1
        self.console = console
        self.shown = -1  # number of moves when the board was last shown

    @property
    def humans_turn(self) -> bool:
        return self.game.position.seat == self.human_seat

    def names(self, name: str) -> list[str]:
        """Every seat's name, the human's ``name`` at their seat."""
        players = self.rules.players
        if players == 2:
            return [name, self.opponent] if self.human_seat == 0 else [self.opponent, name]
        return [
            name if seat == self.human_seat else f"{self.opponent} {seat + 1}"
            for seat in range(players)
        ]

    def show_board(self) -> None:
        position, totals = self.game.position, self.game.totals
        self.console.print(_position_board(position))
        if position.state is not None and not position.is_over:  # the state limits the moves
            self.console.print(f"Moves now: {' '.join(position.legal_moves())}")
        scores = " · ".join(
            f"{escape(who)} {format_value(total)}"
            for who, total in zip(self.names("You"), totals, strict=True)
        )
        self.console.print(scores)
        self.shown = len(self.game.moves)

    def command(self, text: str) -> None:
        command = text.strip().lower()
        if not self.plain and command not in ("h", "hint", "u", "undo"):
            self.variant_move(text.strip())
        elif command in ("l", "r"):
            coin = self.game.coins[self.game.position.coin_index(command.upper())]
            self.game.push(command.upper())
            self.console.print(f"You take {format_value(coin)} ({command.upper()}).")
        elif command in ("h", "hint"):
            self.hint()
        elif command in ("u", "undo"):
            self.undo()
        else:
            self.console.print(f"Unknown command {escape(text.strip())!r}. {HELP_LINE}")

    def variant_move(self, text: str) -> None:
        position = self.game.position
        try:
            move = position.move_text(text)
        except IllegalMoveError as error:
            self.console.print(f"{escape(str(error))}. {help_line(self.rules)}")
            return
        coins = _coins_text(position, move)
        self.game.push(move)
        self.console.print(f"You take {coins} ({move}).")

    def hint(self) -> None:
        if not self.plain:
            assert self.values is not None
            options = self.game.best_moves(values=self.values)
            total = self.game.best_totals(values=self.values)[self.human_seat]
            here = self.game.position
            text = " or ".join(f"{move} (take {_coins_text(here, move)})" for move in options)
            what = "points" if self.rules.scores_left else "in total"
            self.console.print(
                f"Hint: best {text}; with best play from here you end with "
                f"{format_value(total)} {what}."
            )
            return
        assert self.subgames is not None
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
        if not any(position.seat == self.human_seat for position, _ in self.game.iter_moves()):
            self.console.print("Nothing to undo.")
            return
        while True:  # pop the replies, then the human's move
            self.game.pop()
            if self.game.position.seat == self.human_seat:
                break
        self.console.print("Undone: your last move and the reply.")
        self.show_board()

    def computer_move(self, move: str) -> None:
        position = self.game.position
        coins = _coins_text(position, move)
        self.game.push(move)
        who = self.names("You")[position.seat]
        self.console.print(f"{escape(who)} takes {coins} ({move}).")


def _coins_text(position: Position, move: str) -> str:
    """The coins a move takes, as text: ``3`` or ``3 + 1``."""
    return " + ".join(format_value(position.coins[i]) for i in position.indices_of(move))


def _position_board(position: Position) -> Text:
    """The board of any rules: the row with its ends marked; the pizza's slices by number
    before its first slice."""
    if position.rules.circle and position.first_slice is None:
        text = Text("Pizza (slice: value) ")
        for index, coin in enumerate(position.coins[: 2 * BOARD_WIDTH]):
            text.append(f"{index}:{format_value(coin)} ")
        if len(position.coins) > 2 * BOARD_WIDTH:
            text.append(f"… ({len(position.coins) - 2 * BOARD_WIDTH} more)", style="dim")
        return text
    return _board(position.row, position.lo, position.hi)


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


def _verdict(game: Game, human_seat: int) -> str:
    totals = game.totals
    winners = game.rules.winners(totals)
    if human_seat not in winners:
        result = "You lose"
    else:
        result = "You win" if len(winners) == 1 else "A tie"
    mine = totals[human_seat]
    others = [format_value(total) for seat, total in enumerate(totals) if seat != human_seat]
    return f"{result}: {format_value(mine)} to {', '.join(others)}."


def _player_names(record: Record) -> tuple[str, str]:
    first, separator, second = (record.players or "").partition(" vs ")
    return (first, second) if separator and first and second else ("first", "second")


def print_analysis(analysis: GameAnalysis, console: Console, names: Sequence[str]) -> None:
    """Rich table of every move, then each player's summary (``names``: one per seat)."""
    seats = {summary.player: k for k, summary in enumerate(analysis.summaries)}
    if len(analysis.moves) <= ANALYSIS_LIMIT:
        table = fitted_table(
            ("#", "Player", "Move", "Coin", "Best", "Before", "After", "Loss", "Label"),
            text=("Player", "Move", "Best", "Label"),
            title="Analysis",
            box=box.HEAVY_HEAD,
            collapse_padding=False,
            pad_edge=True,
        )
        styles = {"best": "green", "inaccuracy": "yellow", "mistake": "red", "blunder": "bold red"}
        for move in analysis.moves:
            step, player, *middle, label = move.texts()
            name = escape(names[seats[player]] if seats[player] < len(names) else player)
            table.add_row(step, name, *middle, f"[{styles[label]}]{label}[/]")
        console.print(table)
    else:
        console.print(f"({len(analysis.moves)} moves: table omitted; use --json for every move)")
    for summary, player in zip(analysis.summaries, names, strict=False):
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
    as_json: bool = json_option(
        'Print JSON: {"games": [...]}, one object per record with headers, coins, line, '
        "finished, moves (step, player, move, coin, best_moves, guaranteed_before, "
        "guaranteed_after, loss, label, first_total, second_total) and summary (first, "
        "second: player, moves, total_loss, accuracy, labels, guaranteed_start, final_total). "
        "Under other rules also rules, every move's totals, and a summary per seat.",
    ),
    rules_text: str | None = rules_option(
        "The rules of records without a '# rules:' header: " + RULES_HELP.partition(": ")[2],
        default=None,
        shown="plain",
    ),
) -> None:
    """Analyse recorded games move by move.

    For each move: the mover's guaranteed total before and after it, the best move(s), the
    loss and a label (best, inaccuracy, mistake, blunder); then each player's summary."""
    rules = None if rules_text is None else Rules.parse(rules_text)
    read = _read(record_file, rules)
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
    analyses = [_analyze_record(record) for record in records]
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


def _analyze_record(record: Record) -> GameAnalysis:
    """The analysis of a record under its rules (the reply opponent built by name)."""
    rules = record.rules
    if rules.is_plain:
        return analyze(record.coins, record.moves)
    if rules.per_position and len(record.coins) > MAX_SOLVING_COINS:
        fail(
            f"a game under {rules} is analysed up to {MAX_SOLVING_COINS} coins (it solves "
            f"the coins left at every move); this record has {len(record.coins):,}"
        )
    moves = record.game().moves
    return analyze(record.coins, moves, rules=rules, values=play_values(record.coins, rules))


def _read(source: str, rules: Rules | None = None) -> RecordsRead:
    data = _stdin_bytes() if source == "-" else read_bytes(source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        fail(f"{source}: not a text file of game records")
    return load_records(text, rules=rules)


def _print_record_header(console: Console, record: Record, number: int | None) -> None:
    details: list[Any] = [f"{key}: {value}" for key, value in record.headers.items()]
    title = f"Game {number}" if number is not None else "Game"
    coins = " ".join(format_value(coin) for coin in record.coins[:40])
    more = " …" if len(record.coins) > 40 else ""
    console.rule(escape(title + (" · " + " · ".join(details) if details else "")))
    console.print(f"Coins: {coins}{more}  Moves: {record.moves or '(none)'}")
