"""Move-by-move analysis of a game, like a chess engine annotating a game.

:func:`analyze` takes a row and the moves played and, for every move, reports the mover's
guaranteed total before and after it, the optimal move(s), the loss (how much the mover's
guaranteed total dropped) and a label (best, inaccuracy, mistake, blunder). The values come
from a :class:`~coinrow.subgames.Subgames` of the row.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Literal, cast

from .engines import MAX_SECONDS, check_cost
from .engines.variants import check_variant_seconds, declared_cost, position_solves_cost
from .errors import IllegalMoveError
from .game import Game, Position, seat_name
from .numbers import Row, Value, counted, exact_arithmetic, format_value, json_fields
from .play_values import PlayValues
from .rules import PLAIN, Moves, Rules, coerce_rules, moves_text, parse_moves
from .subgames import Subgames

Label = Literal["best", "inaccuracy", "mistake", "blunder"]
LABELS: tuple[Label, ...] = ("best", "inaccuracy", "mistake", "blunder")

#: A loss up to this fraction of the typical coin (mean absolute coin value) is an inaccuracy.
INACCURACY_LIMIT = Fraction(1, 4)
#: A loss up to this fraction of the typical coin is a mistake; beyond it, a blunder.
MISTAKE_LIMIT = Fraction(1)


@dataclass(frozen=True)
class MoveAnalysis:
    """One analysed move. Totals are whole-game totals of the mover: coins already taken plus
    what the mover can guarantee from the coins left.

    ``best_moves`` is every optimal move there, a tuple of :class:`~coinrow.rules.Move`
    in tie order (``()`` for none).

    Under other rules (docs/variants.md) ``coin`` is what the move scored (the coins it
    took together; Stone Game VII's points), ``player`` may be ``player K``, ``move`` and
    ``best_moves`` are the rules' moves, the totals are what the rules score (Stone
    Game VII's points) with everyone playing best from there, and ``loss`` is the drop in
    what the mover plays for: their total (``players:P``: their shortfall), its rise in the
    misère game, their points margin in Stone Game VII. ``totals`` then holds every
    player's running total (empty in the plain game)."""

    step: int
    player: str
    move: str
    coin: Value
    best_moves: Moves
    guaranteed_before: Value
    guaranteed_after: Value
    loss: Value
    label: Label
    first_total: Value
    second_total: Value
    totals: tuple[Value, ...] = field(default=(), kw_only=True)

    def texts(self) -> tuple[str, ...]:
        """The move as the texts of a table row, in the order of :data:`HTML_COLUMNS`; the best
        moves separated by spaces (O(1)).

        >>> analyze([8, 15, 3, 7], "L").moves[0].texts()
        ('1', 'first', 'L', '8', 'R', '22', '15', '7', 'blunder')
        >>> analyze([1, 2, 4, 3], "L").moves[0].texts()[4]
        'L R'
        """
        return (
            str(self.step),
            self.player,
            self.move,
            format_value(self.coin),
            moves_text(self.best_moves),
            format_value(self.guaranteed_before),
            format_value(self.guaranteed_after),
            format_value(self.loss),
            self.label,
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(1)); ``best_moves`` is a list of move texts (``["L", "R"]``;
        under other rules the rules' moves, and a ``totals`` list: every player's running
        total).

        >>> analyze([1, 2, 4, 3], "L").moves[0].to_dict()["best_moves"]
        ['L', 'R']
        """
        return json_fields(self, omit=() if self.totals else {"totals"})


@dataclass(frozen=True)
class PlayerSummary:
    """A player's moves in one game: how many, losses, labels, accuracy and totals."""

    player: str
    moves: int
    total_loss: Value
    labels: Mapping[str, int]
    guaranteed_start: Value
    final_total: Value

    def __post_init__(self) -> None:
        object.__setattr__(self, "labels", MappingProxyType(dict(self.labels)))

    def __hash__(self) -> int:
        fields = (self.player, self.moves, self.total_loss, self.guaranteed_start)
        return hash((*fields, self.final_total, tuple(self.labels.items())))

    @property
    def accuracy(self) -> float:
        """Percentage of this player's moves that were optimal (100.0 with no moves; O(1))."""
        return 100.0 if not self.moves else 100.0 * self.labels["best"] / self.moves

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(1))."""
        return json_fields(
            self, order=("player", "moves", "total_loss", "accuracy"), accuracy=self.accuracy
        )

    @property
    def perfect(self) -> bool:
        """True when the player moved and every move was a best move (O(1))."""
        return self.moves > 0 and self.labels["best"] == self.moves

    def sentence(self, name: str, *, you: bool = False, lost: bool = False) -> str:
        """This player's game in words, headed by ``name`` ("You", "Computer", "First
        player"), in the second person with ``you``: how many moves were best, what they gave
        away, the guarantee from the start and the total taken. A player whose every move
        was best is told they played perfectly, and with ``lost`` (the game ended without
        their win) that no play could have guaranteed them better (O(1)).

        >>> perfect = analyze([8, 15, 3, 7], "RLLL").second
        >>> print(perfect.sentence("You", you=True, lost=True))  # doctest: +NORMALIZE_WHITESPACE
        You: 2 of 2 moves best (100%), 0 points given away; best play from the start
        guaranteed you 11, and you took 11. You played perfectly: every move was a best move.
        The row favoured the other side: no play could have guaranteed you better than 11.
        >>> erring = analyze([8, 15, 3, 7], "LLRL").first
        >>> print(erring.sentence("Computer"))  # doctest: +NORMALIZE_WHITESPACE
        Computer: 1 of 2 moves best (50%), 7 points given away; best play from the start
        guaranteed them 22, and they took 15.
        """
        them, they = ("you", "you") if you else ("them", "they")
        words = (
            f"{name}: {self.labels['best']} of {counted(self.moves, 'move')} best "
            f"({self.accuracy:.0f}%), {counted(self.total_loss, 'point')} given away; best play "
            f"from the start guaranteed {them} {format_value(self.guaranteed_start)}, and "
            f"{they} took {format_value(self.final_total)}."
        )
        if self.perfect:
            words += f" {they.capitalize()} played perfectly: every move was a best move."
            if lost:
                words += (
                    " The row favoured the other side: no play could have guaranteed "
                    f"{them} better than {format_value(self.guaranteed_start)}."
                )
        return words


@dataclass(frozen=True)
class GameAnalysis:
    """The analysis of a game: one :class:`MoveAnalysis` per move and a summary per player.

    ``final_total`` of a summary is what the player has taken so far (the final total when
    every coin was taken). Under other ``rules``, ``others`` holds the summaries of the
    seats after the second (``players:P``) and ``over`` whether the game ended."""

    coins: tuple[Value, ...]
    line: str
    moves: tuple[MoveAnalysis, ...]
    first: PlayerSummary
    second: PlayerSummary
    rules: Rules = field(default=PLAIN, kw_only=True)
    others: tuple[PlayerSummary, ...] = field(default=(), kw_only=True)
    over: bool | None = field(default=None, kw_only=True)

    @property
    def finished(self) -> bool:
        """True when every coin was taken (O(1))."""
        if self.over is not None:
            return self.over
        return len(self.line) == len(self.coins)

    @property
    def summaries(self) -> tuple[PlayerSummary, ...]:
        """Every player's summary, first seat first (O(p))."""
        return (self.first, self.second, *self.others)

    def __repr__(self) -> str:
        return (
            f"<GameAnalysis of {len(self.moves)} moves on {len(self.coins)} coins: "
            f"first accuracy {self.first.accuracy:.0f}%, second {self.second.accuracy:.0f}%>"
        )

    def _repr_html_(self) -> str:
        """Jupyter: the move table (step, player, move, coin, best, before, after, loss,
        label) and each player's summary (O(n))."""
        head = "".join(f"<th>{name}</th>" for name in HTML_COLUMNS)
        rows = "".join(
            "<tr>" + "".join(f"<td>{html.escape(text)}</td>" for text in move.texts()) + "</tr>"
            for move in self.moves
        )
        summaries = "".join(
            f"<li>{summary.player}: {summary.moves} moves, accuracy {summary.accuracy:.0f}%, "
            f"total loss {html.escape(format_value(summary.total_loss))}</li>"
            for summary in self.summaries
        )
        return f'<table class="coinrow-analysis"><tr>{head}</tr>{rows}</table><ul>{summaries}</ul>'

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form of the whole analysis (O(n)): ``coins``, ``line``, ``finished``,
        ``moves``, ``summary`` (``first``, ``second``; under ``players:P`` also ``player 3``
        ...), and under other rules ``rules``."""
        extra = {} if self.rules is PLAIN else {"rules": str(self.rules)}
        return {
            **extra,
            **json_fields(
                self,
                omit={"moves", "first", "second", "rules", "others", "over"},
                finished=self.finished,
                moves=self.moves,
                summary={summary.player: summary for summary in self.summaries},
            ),
        }


#: Column headers of :meth:`GameAnalysis._repr_html_`.
HTML_COLUMNS = ("#", "Player", "Move", "Coin", "Best", "Before", "After", "Loss", "Label")


def typical_coin(coins: Sequence[Value]) -> Fraction:
    """Mean absolute coin value, the yardstick of the labels (O(n); zero for no coins).

    >>> typical_coin([3, 2, 2, 3, 1, 2])
    Fraction(13, 6)
    """
    if not coins:
        return Fraction(0)
    with exact_arithmetic():
        total = sum(abs(coin) for coin in coins)
    return Fraction(total) / len(coins)


def label_for(loss: Value, typical: Fraction, turns_result: bool = False) -> Label:
    """Label of a loss measured against the typical coin (O(1)).

    ``best`` for no loss; a move that ``turns_result`` (it throws away a guaranteed win or
    draw: the mover's guaranteed total falls from above half of all coins to half or less, or
    from half to less) is a ``blunder`` whatever its size; otherwise ``inaccuracy`` up to
    :data:`INACCURACY_LIMIT` of a typical coin, ``mistake`` up to :data:`MISTAKE_LIMIT`, and
    ``blunder`` beyond.

    >>> [label_for(loss, Fraction(4)) for loss in (0, 1, 4, 5)]
    ['best', 'inaccuracy', 'mistake', 'blunder']
    >>> label_for(1, Fraction(4), turns_result=True)
    'blunder'
    """
    if loss <= 0:
        return "best"
    if turns_result:
        return "blunder"
    ratio = Fraction(loss) / typical  # typical > 0 whenever a loss is possible
    if ratio <= INACCURACY_LIMIT:
        return "inaccuracy"
    return "mistake" if ratio <= MISTAKE_LIMIT else "blunder"


def _result(guaranteed: Value, grand_total: Value) -> int:
    """1, 0 or -1: the guaranteed total wins, draws or loses against the rest of the coins."""
    balance = guaranteed + guaranteed - grand_total
    return int(balance > 0) - int(balance < 0)


def analyze(
    coins: Sequence[object],
    moves: str | Sequence[str],
    subgames: Subgames | None = None,
    *,
    max_seconds: float | None = MAX_SECONDS,
    rules: Rules | str | None = None,
    values: PlayValues | None = None,
) -> GameAnalysis:
    """Analyse every move of a game (possibly unfinished) on a row.

    ``subgames``, when given, must be the :class:`~coinrow.subgames.Subgames` of the same row
    (a tournament passes the one it holds for the row); ``coins`` is then not read again.

    O(n^2) to build a table for rows up to :data:`~coinrow.subgames.TABLE_LIMIT` coins and
    O(1) per move; longer rows cost O(n) per move (peak reductions), O(n^2) in all with O(n)
    memory. Exact arithmetic estimated over ``max_seconds`` is refused up front
    (:func:`coinrow.engines.check_cost`; ``None``: no limit).

    >>> game = analyze([3, 2, 2, 3, 1, 2], "RLLLLL")
    >>> first = game.moves[0]
    >>> first.guaranteed_before, first.guaranteed_after, first.loss, first.label, first.best_moves
    (8, 7, 1, 'mistake', ('L',))
    >>> game.first.total_loss, game.first.accuracy
    (1, 66.66666666666667)

    Under other ``rules`` (docs/variants.md) the moves are the rules' texts and the values
    come from ``values``, the row's :class:`~coinrow.play_values.PlayValues` (built here
    when not given; pass it for ``reply:S`` with an opponent the engines do not know). Cost:
    building it plus one query before and after each move (see
    :meth:`~coinrow.game.Position.best_totals`); O(n^3) for ``reply`` and O(n^3 p) for
    ``players:p``, estimated and refused over ``max_seconds`` like the plain game.

    >>> misere = analyze([1, 5, 2], "LL", rules="misere")
    >>> [(m.move, m.best_moves, m.guaranteed_before, m.guaranteed_after, m.loss, m.label)
    ...  for m in misere.moves]
    [('L', ('L',), 6, 6, 0, 'best'), ('L', ('R',), 2, 5, 3, 'blunder')]
    """
    chosen = coerce_rules(rules)
    if not chosen.is_plain:
        if subgames is not None:
            raise IllegalMoveError("subgames are the plain game's: pass values under other rules")
        return _analyze_under(coins, moves, chosen, values, max_seconds)
    if isinstance(moves, list | tuple) and all(isinstance(move, str) for move in moves):
        moves = "".join(moves)
    sub = subgames if subgames is not None else Subgames(coins, max_seconds=max_seconds)
    row = sub.coins
    line = parse_moves(cast(str, moves))  # it refuses anything but text with one line
    if len(line) > len(row):
        raise IllegalMoveError(f"{len(line)} moves for a row of {len(row)} coins")
    if sub.table is None:  # four reductions a move, of the coins left
        queries = 4 * (len(row) * len(line) - len(line) ** 2 // 2)
        what = f"analysing {len(line):,} moves on {len(row):,} coins"
        check_cost(row, "reduction", max_seconds=max_seconds, what=what, items=queries)
    typical = typical_coin(row)
    grand_total = sub.total_of(0, len(row) - 1)
    results: list[MoveAnalysis] = []
    totals: tuple[Value, Value] = (sub.zero, sub.zero)
    for step in Game(row, line).transcript():
        mover = 0 if step.player == "first" else 1
        after_totals = (step.first_total, step.second_total)
        before = step.before.guaranteed(totals, subgames=sub)[mover]
        after = step.before.play(step.move).guaranteed(after_totals, subgames=sub)[mover]
        with exact_arithmetic():
            loss = before - after
        turns_result = _result(after, grand_total) < _result(before, grand_total)
        results.append(
            MoveAnalysis(
                step.step,
                step.player,
                step.move,
                step.coin,
                sub.moves_of(step.before.lo, step.before.hi),
                before,
                after,
                loss,
                label_for(loss, typical, turns_result),
                step.first_total,
                step.second_total,
            )
        )
        totals = after_totals
    start_first, start_second = Position.start(row).guaranteed(subgames=sub)
    return GameAnalysis(
        row,
        line,
        tuple(results),
        _summary("first", results, start_first, totals[0], sub.zero),
        _summary("second", results, start_second, totals[1], sub.zero),
    )


def _summary(
    player: str, moves: list[MoveAnalysis], start: Value, final: Value, zero: Value
) -> PlayerSummary:
    own = [move for move in moves if move.player == player]
    labels: dict[str, int] = {label: 0 for label in LABELS}
    for move in own:
        labels[move.label] += 1
    with exact_arithmetic():
        total_loss = sum((move.loss for move in own), zero)
    return PlayerSummary(player, len(own), total_loss, labels, start, final)


def analysis_seconds(
    coins: Sequence[Value],
    steps: int,
    rules: Rules,
    *,
    limit: float | None = None,
    opponent: object | None = None,
) -> float:
    """Estimated seconds of :func:`analyze` of ``steps`` moves on a validated row under
    ``reply`` or ``players`` (one solve of the coins left per position:
    :func:`coinrow.engines.variants.position_solves_cost`, with the moves of ``reply``'s
    ``opponent`` object at the price it declares); 0 under other rules, whose positions come
    from one table (O(steps + n)).

    >>> analysis_seconds([1] * 1000, 1000, Rules.parse("players:2")) > 10
    True
    """
    lengths = range(len(coins) - steps, len(coins) + 1)  # coins left at each position
    return position_solves_cost(
        coins,
        rules,
        lengths,
        limit=limit,
        opponent=opponent is not None,
        opponent_cost=declared_cost(opponent, coins) if opponent is not None else None,
    )


def _analyze_under(
    coins: Sequence[object],
    moves: str | Sequence[str],
    rules: Rules,
    values: PlayValues | None,
    max_seconds: float | None,
) -> GameAnalysis:
    """:func:`analyze` under other rules (see there)."""
    row = Row.of(coins)
    game = Game(row, moves, rules=rules)
    n, steps = len(row), len(game.moves)
    if rules.per_position:  # each position solves the coins left
        what = f"analysing {steps:,} moves on {n:,} coins under {rules}"
        opponent = values.opponent if values is not None else None
        seconds = analysis_seconds(row, steps, rules, limit=max_seconds, opponent=opponent)
        check_variant_seconds(seconds, max_seconds, what)
    queries = PlayValues(row, rules) if values is None else values
    typical = typical_coin(row)
    zero = queries.zero
    results: list[MoveAnalysis] = []
    start = game.start.best_totals(values=queries)
    so_far: tuple[Value, ...] = (zero,) * rules.players
    for step in game.transcript():
        position, seat = step.before, step.seat
        before_totals = position.best_totals(so_far, values=queries)
        after_totals = position.play(step.move).best_totals(step.totals, values=queries)
        so_far = step.totals
        with exact_arithmetic():
            loss = _aim(rules, before_totals, seat) - _aim(rules, after_totals, seat)
        turns = _standing(rules, after_totals, seat) < _standing(rules, before_totals, seat)
        results.append(
            MoveAnalysis(
                step.step,
                step.player,
                step.move,
                step.gain,
                position.best_moves(values=queries),
                before_totals[seat],
                after_totals[seat],
                loss,
                label_for(loss, typical, turns),
                step.totals[0],
                step.totals[1],
                totals=step.totals,
            )
        )
    final = game.totals
    summaries = [
        _summary(seat_name(seat, rules.players), results, start[seat], final[seat], zero)
        for seat in range(rules.players)
    ]
    return GameAnalysis(
        row,
        game.line,
        tuple(results),
        summaries[0],
        summaries[1],
        rules=rules,
        others=tuple(summaries[2:]),
        over=game.position.is_over,
    )


def _aim(rules: Rules, totals: Sequence[Value], seat: int) -> Value:
    """What the seat plays for, from everyone's final totals: their total (its negative in
    the misère game), or their points margin in Stone Game VII."""
    return rules.aim(totals, seat)


def _standing(rules: Rules, totals: Sequence[Value], seat: int) -> int:
    """1 if the seat wins alone with these final totals, 0 if it shares the win, else -1."""
    best = rules.best_of(totals)
    if totals[seat] != best:
        return -1
    return 1 if sum(1 for total in totals if total == best) == 1 else 0


#: The review's symbols of the labels, as chess annotates moves (best moves get none).
SYMBOLS: Mapping[Label, str] = MappingProxyType(
    {"best": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
)

#: How many moves of the best line a :class:`Lesson` shows (the best move and the answers).
LESSON_DEPTH = 4


@dataclass(frozen=True)
class LineMove:
    """One move of a line shown in a lesson: the mover's 0-based ``seat``, the ``move`` text,
    the 0-based ``indices`` of the coins it takes and their values, ``coins``."""

    seat: int
    move: str
    indices: tuple[int, ...]
    coins: tuple[Value, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(coins taken))."""
        return json_fields(self)


@dataclass(frozen=True)
class Lesson:
    """What a move that was not the best let happen, and what the best was.

    ``step`` is the 1-based move number, ``seat`` its mover, ``label`` and ``symbol`` its
    judgement (:data:`SYMBOLS`); ``replies`` are the other seats' best answers to the move
    played (until the mover is to move again), ``best_line`` the best move from the position
    before it and the best play after that (at most :data:`LESSON_DEPTH` moves), and
    ``words`` says it all in a sentence for people."""

    step: int
    seat: int
    move: str
    label: Label
    symbol: str
    replies: tuple[LineMove, ...]
    best_line: tuple[LineMove, ...]
    words: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(depth))."""
        return json_fields(self)


def seat_words(seat: int, players: int = 2, you: int | None = None) -> str:
    """A seat in a sentence about a game: ``you`` for the person's seat, ``the computer``
    for the other seat of two when a person plays, else ``the first player``, ``player 3``
    (O(1)).

    >>> seat_words(0), seat_words(1, you=0), seat_words(0, you=0), seat_words(2, 3, you=0)
    ('the first player', 'the computer', 'you', 'player 3')
    """
    if seat == you:
        return "you"
    if you is not None and players == 2:
        return "the computer"
    name = seat_name(seat, players)
    return name if players > 2 else f"the {name} player"


def _and(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _what(step: LineMove) -> str:
    """The coins a move takes as a noun: ``the 7``, ``the 4 and 9``, ``slice 3 (the 4)``."""
    values = _and([format_value(coin) for coin in step.coins])
    return f"slice {int(step.move) + 1} (the {values})" if step.move.isdigit() else f"the {values}"


def _verb(step: LineMove) -> str:
    """A move as a verb phrase: ``take the 7``, ``start with slice 3 (the 4)``."""
    return f"{'start with' if step.move.isdigit() else 'take'} {_what(step)}"


def _line_move(position: Position, move: str) -> LineMove:
    indices = position.indices_of(move)
    return LineMove(position.seat, move, indices, tuple(position.coins[k] for k in indices))


def _leaves(position: Position) -> str:
    """What a position leaves at the ends of the coins left, in words."""
    left = position.remaining_indices()
    if not left:
        return "which ends the game"
    ends = [format_value(position.coins[k]) for k in (left[0], left[-1])]
    return (
        f"which leaves only the {ends[0]}"
        if len(left) == 1
        else (f"which leaves {ends[0]} and {ends[1]} at the ends")
    )


def lessons_seconds(coins: Sequence[Value], steps: int, rules: Rules) -> float:
    """Estimated seconds of :func:`lessons` beyond the analysis, for ``steps`` moves on a
    validated row: at most :data:`LESSON_DEPTH` positions off the line per move, each no
    longer than the move's own, so :data:`LESSON_DEPTH` times :func:`analysis_seconds`
    (0 for the rules whose positions come from one table; O(steps + n)).

    >>> lessons_seconds([1, 2, 3], 3, PLAIN)
    0.0
    """
    return LESSON_DEPTH * analysis_seconds(coins, steps, rules)


def lessons(
    coins: Sequence[object],
    moves: str | Sequence[str],
    *,
    rules: Rules | str | None = None,
    you: int | None = None,
    values: PlayValues | None = None,
    max_seconds: float | None = MAX_SECONDS,
) -> tuple[Lesson, ...]:
    """A :class:`Lesson` for every move of a game that was not the best (its label is not
    ``best``), in the order played: what the move let the other seats take, what the best
    was, what it leaves and what it would have given the mover, in words (``you``: the
    person's 0-based seat, named "you", the other seat of two "the computer").

    Cost: :func:`analyze` plus, per lesson, at most :data:`LESSON_DEPTH` + players queries
    of ``values`` (O(1) each from a table; the rules' per-position solve under ``reply`` and
    ``players``, priced by :func:`lessons_seconds` and refused over ``max_seconds``).

    >>> print(lessons([8, 15, 3, 7], "LLRL", you=0)[0].words)  # doctest: +NORMALIZE_WHITESPACE
    Move 1, a blunder by you: taking the 8 let the computer take the 15; the best was the 7,
    which leaves 8 and 3 at the ends: you could finish with 22 instead of 15.
    >>> [(m.move, m.coins) for m in lessons([8, 15, 3, 7], "LLRL")[0].best_line]
    [('R', (7,)), ('L', (8,)), ('L', (15,)), ('L', (3,))]
    """
    chosen = coerce_rules(rules)
    row = Row.of(coins)
    if chosen.is_plain and not isinstance(moves, str):
        moves = "".join(moves)  # the plain game's line is one text
    game = Game(row, moves, rules=chosen)
    if chosen.per_position:
        what = f"explaining {len(game.moves):,} moves on {len(row):,} coins under {chosen}"
        check_variant_seconds(lessons_seconds(row, len(game.moves), chosen), max_seconds, what)
    queries = PlayValues(row, chosen) if values is None else values
    if chosen.is_plain:
        judged = analyze(row, game.line, max_seconds=max_seconds)
    else:
        judged = analyze(row, game.moves, rules=chosen, values=queries, max_seconds=max_seconds)
    found = []
    for step, judgement in zip(game.transcript(), judged.moves, strict=True):
        if judgement.label == "best":
            continue
        before, seat = step.before, step.seat
        after = before.play(step.move)
        replies: list[LineMove] = []
        position = after
        while not position.is_over and position.seat != seat and len(replies) < chosen.players:
            reply = position.best_moves(values=queries)[0]
            replies.append(_line_move(position, reply))
            position = position.play(reply)
        best_line: list[LineMove] = []
        position = before
        while not position.is_over and len(best_line) < LESSON_DEPTH:
            best = position.best_moves(values=queries)[0]
            best_line.append(_line_move(position, best))
            position = position.play(best)
        played = _line_move(before, step.move)
        found.append(
            Lesson(
                step.step,
                seat,
                step.move,
                judgement.label,
                SYMBOLS[judgement.label],
                tuple(replies),
                tuple(best_line),
                _lesson_words(
                    judgement, played, replies, before, queries, you=you, players=chosen.players
                ),
            )
        )
    return tuple(found)


def _lesson_words(
    judgement: MoveAnalysis,
    played: LineMove,
    replies: Sequence[LineMove],
    before: Position,
    values: PlayValues,
    *,
    you: int | None,
    players: int,
) -> str:
    """The sentence of a lesson (O(best moves))."""
    who = seat_words(played.seat, players, you)
    article = "an" if judgement.label[0] in "aeiou" else "a"
    text = f"Move {judgement.step}, {article} {judgement.label} by {who}: "
    text += "taking" if not played.move.isdigit() else "starting with"
    text += " " + _verb(played).partition(" with " if played.move.isdigit() else " ")[2]
    if replies:
        answers = [f"{seat_words(r.seat, players, you)} {_verb(r)}" for r in replies]
        text += f" let {_and(answers)}"
    best = [_line_move(before, move) for move in before.best_moves(values=values)[:3]]
    text += f"; the best was {' or '.join(_what(move) for move in best)}, "
    text += _leaves(before.play(best[0].move))
    if judgement.guaranteed_before != judgement.guaranteed_after:
        finish = format_value(judgement.guaranteed_before)
        instead = format_value(judgement.guaranteed_after)
        text += f": {who} could finish with {finish} instead of {instead}"
    return text + "."
