"""The JSON shapes of the web API as Pydantic models, for validation and the OpenAPI schema.

Request models are built per app by :func:`request_models`, because their limits (most coins,
longest line of moves) are settings. Coins are declared loosely (``Any`` with a hand-written
JSON schema) and checked by :func:`coinrow.web.inputs.read_row` with the library's own parser,
so a bad coin gets the library's message naming its position. Response models only document
the responses (the endpoints return the library's ``to_dict()`` documents as they are); the
tests check that every response matches them.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    WithJsonSchema,
)

from ..diagram import VIEWS
from ..rating import LOWEST_RD, START_RD
from ..rules import PLAIN, rules_pattern, rules_syntax

#: An exact value in a response: an int as a JSON number, a Decimal or Fraction as an exact
#: string ("0.4", "1/3").
Exact = Annotated[
    int | str,
    Field(description='An exact value: ints as JSON numbers, Decimals and Fractions as exact '
          'strings such as "0.4" or "1/3".'),
]  # fmt: skip

Move = Literal["L", "R"]
Player = Literal["first", "second"]

#: Longest coin given as a string, in characters (longer ones are refused before parsing).
COIN_CHARS = 1000


# The coin grammar of coinrow.numbers as JSON Schema patterns, so that the schema says which
# strings the API reads: ASCII digits; p/q with a nonzero q; decimals with an exponent.
_BLANK = r"[ \t\n\r\f\v]"
_SEPARATOR = r"[ \t\n\r\f\v,;]"
_TOKEN = (
    r"(?:[+-]?[0-9]+/[0-9]*[1-9][0-9]*"
    r"|[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?)"
)
_INTEGER = r"[+-]?[0-9]+"
#: A built-in strategy's name, with its parameter if any.
STRATEGY_PATTERN = (
    rf"^{_BLANK}*(?:optimal(?::(?:left|right|random(?::{_INTEGER})?))?|greedy|parity"
    rf"|lookahead(?::{_BLANK}*\+?[0-9]+{_BLANK}*)?|random(?::{_BLANK}*{_INTEGER}{_BLANK}*)?"
    rf"|cooperative|thibault|thibault3){_BLANK}*$"
)
#: Random values: a range A-B (or A..B) of integers, or a list of coins.
VALUES_PATTERN = (
    rf"^(?:[ \t]*{_INTEGER}[ \t]*(?:-|\.\.)[ \t]*{_INTEGER}[ \t]*"
    rf"|{_SEPARATOR}*{_TOKEN}(?:{_SEPARATOR}+{_TOKEN})*{_SEPARATOR}*)$"
)
#: Rules of the game the API solves (coinrow.rules, canonical lowercase spellings, from the
#: registry): ``reply`` with the one opponent the engines know, ``players:P`` for P from 2
#: to 64.
RULES_PATTERN = rules_pattern(served=True)
#: Rules whose games the API plays (a position holds them: ``/api/play``).
PLAY_RULES_PATTERN = rules_pattern(served=True, played=True)
#: Rules whose subgames are intervals of the row with two players (``/api/table``).
TABLE_RULES_PATTERN = rules_pattern(interval=True, served=True)
#: A line of moves under any rules: L, R, B, L2, R10, and the pizza's first slice (digits).
#: Moves are written together or one space apart ("L2R1", "L2 R1"), never with a space at
#: either end (so a line has one spelling of its emptiness: "").
VARIANT_LINE_PATTERN = r"^(?:(?:[LR][0-9]*|B|[0-9]+)(?: ?(?:[LR][0-9]*|B|[0-9]+))*)?$"
#: One coin as a string.
COIN_PATTERN = f"^{_BLANK}*{_TOKEN}{_BLANK}*$"
#: A row as one string of coins.
ROW_PATTERN = f"^{_SEPARATOR}*{_TOKEN}(?:{_SEPARATOR}+{_TOKEN})*{_SEPARATOR}*$"


def coins_schema(max_items: int) -> dict[str, Any]:
    """JSON schema of a row: an array of numbers or strings, or one text of coins (O(1))."""
    return {
        "anyOf": [
            {
                "type": "array",
                "items": {
                    "anyOf": [
                        {"type": "number"},
                        {"type": "string", "maxLength": COIN_CHARS, "pattern": COIN_PATTERN},
                    ]
                },
                "minItems": 1,
                "maxItems": max_items,
            },
            {"type": "string", "minLength": 1, "pattern": ROW_PATTERN},
        ],
        "title": "Coins",
        "description": (
            f"The row, 1 to {max_items:,} coins: a JSON array of numbers or strings "
            '(3, "0.10", "1/3"), or one string of coins separated by spaces, commas or '
            'semicolons ("3 2 2 3 1 2"). Integers stay integers; decimals are exact (JSON '
            "numbers are read as exact decimals, never as floats); p/q is a fraction."
        ),
    }  # fmt: skip


def coins_field(max_items: int) -> Any:
    """The annotated type of a ``coins`` field taking at most ``max_items`` coins (O(1))."""
    return Annotated[Any, WithJsonSchema(coins_schema(max_items))]


def moves_field(max_moves: int) -> Any:
    """The annotated type of a ``moves`` field: a line of ``L``/``R`` (O(1))."""
    return Annotated[
        StrictStr,
        Field(
            max_length=max_moves,
            pattern="^[LR]*$",
            description="The moves played so far, in order: L takes the left coin, R the right.",
        ),
    ]


def rules_field(pattern: str, kinds: str) -> Any:
    """A ``rules`` field: the text form of :class:`coinrow.Rules`, default the plain game's
    (O(1))."""
    return Field(
        str(PLAIN),
        max_length=40,
        pattern=pattern,
        description=f"The rules of the game (docs/variants.md), in lowercase: {kinds}.",
    )


RULES_KINDS = rules_syntax(served=True)
PLAY_RULES_KINDS = rules_syntax(served=True, played=True)
TABLE_RULES_KINDS = (
    f"{rules_syntax(interval=True, served=True)} (the rules whose subgames are intervals of "
    "the row)"
)


def _integral(value: Any) -> Any:
    """A JSON number with a zero fraction (``100.0``, read as a Decimal) is an integer, as
    JSON Schema says; other values are left to the strict int check."""
    if not isinstance(value, Decimal) or not value.is_finite() or abs(value.adjusted()) >= 20:
        return value
    return int(value) if value == value.to_integral_value() else value


Seed = Annotated[
    StrictInt | None,
    Field(ge=0, le=2**32 - 1, description="Seed of the random strategies (optional)."),
    BeforeValidator(_integral),
]


def line_field(play_coins: int, description: str) -> Any:
    """A ``moves`` field holding a line under any rules as one text, at most 8 characters a
    coin of ``play_coins`` (O(1))."""
    return Field(
        "", max_length=8 * play_coins, pattern=VARIANT_LINE_PATTERN, description=description
    )


def ply_type(play_coins: int, description: str) -> Any:
    """The annotated type of a ``ply`` field: how many moves of the line to show (O(1))."""
    return Annotated[
        StrictInt | None,
        Field(ge=0, le=8 * play_coins, description=description),
        BeforeValidator(_integral),
    ]


def seat_type(description: str) -> Any:
    """The annotated type of a ``seat`` field: a 0-based seat of the rules, or null (O(1))."""
    return Annotated[
        StrictInt | None, Field(ge=0, le=63, description=description), BeforeValidator(_integral)
    ]


class Strict(BaseModel):
    """A request body: unknown keys are refused."""

    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True)
class RequestModels:
    """The request body models of one app."""

    solve: type[Strict]
    table: type[Strict]
    steps: type[Strict]
    move: type[Strict]
    analyze: type[Strict]
    play: type[Strict]


def request_models(
    solve_coins: int, table_coins: int, steps_coins: int, play_coins: int, analyze_coins: int
) -> RequestModels:
    """Request models for the given limits (O(1))."""

    class SolveRequest(Strict):
        coins: coins_field(solve_coins)  # type: ignore[valid-type]
        full: StrictBool = Field(
            False,
            description="Keep the per-coin keys for rows over 10,000 coins too (as --full).",
        )
        rules: StrictStr = rules_field(RULES_PATTERN, RULES_KINDS)

    class TableRequest(Strict):
        coins: coins_field(table_coins)  # type: ignore[valid-type]
        view: StrictStr = Field(
            "total",
            json_schema_extra={"enum": list(VIEWS)},
            description="What each cell of the SVG shows: the mover's best total, the mover's "
            "margin, or the first player's points.",
        )
        highlight: StrictStr | None = Field(
            None,
            max_length=table_coins + 10,
            json_schema_extra={"pattern": "^(?:best|[LR]*)$"},
            description='Cells and moves to highlight: "best" (the optimal line) or a line of '
            "moves such as LRL (the cells it passes through, ending at the current subgame).",
        )
        rules: StrictStr = rules_field(TABLE_RULES_PATTERN, TABLE_RULES_KINDS)

    class StepsRequest(Strict):
        coins: coins_field(steps_coins)  # type: ignore[valid-type]

    class MoveRequest(Strict):
        coins: coins_field(play_coins)  # type: ignore[valid-type]
        moves: moves_field(play_coins) = ""  # type: ignore[valid-type]
        strategy: StrictStr = Field(
            "optimal",
            max_length=100,
            json_schema_extra={"pattern": STRATEGY_PATTERN},
            description="The computer's strategy: a built-in name from /api/strategies, "
            "with its parameter if any (lookahead:3, optimal:right, random:7).",
        )
        seed: Seed = None

    class AnalyzeRequest(Strict):
        coins: coins_field(analyze_coins)  # type: ignore[valid-type]
        moves: moves_field(analyze_coins)  # type: ignore[valid-type]

    class PlayRequest(Strict):
        coins: coins_field(play_coins)  # type: ignore[valid-type]
        moves: StrictStr = line_field(
            play_coins,
            'The moves played so far as one line: "LRL"; under take:K "L2 R1"; '
            'under both-ends "LBR"; the pizza\'s first slice (0-based) first, "3 LRL".',
        )
        rules: StrictStr = rules_field(PLAY_RULES_PATTERN, PLAY_RULES_KINDS)
        ply: ply_type(  # type: ignore[valid-type]
            play_coins, "Show the game after this many of its moves (a review); default: all."
        ) = None
        seat: seat_type(  # type: ignore[valid-type]
            "The person's 0-based seat: the computer answers for every other seat when the "
            "game is shown at its end; null (default): people at every seat."
        ) = None
        picture: StrictBool = Field(
            True,
            description="Send the library's picture of the position (svg); false saves its "
            "drawing (O(n^2)) when it is not shown.",
        )
        opponent: StrictStr = Field(
            "optimal",
            max_length=100,
            json_schema_extra={"pattern": STRATEGY_PATTERN},
            description="The computer's strategy (a level's strategy from /api/levels: optimal, "
            "greedy, random, and in the plain game every built-in of /api/strategies).",
        )
        seed: Seed = None

    return RequestModels(
        SolveRequest, TableRequest, StepsRequest, MoveRequest, AnalyzeRequest, PlayRequest
    )


class ErrorResponse(BaseModel):
    """Every error: one sentence a person can read."""

    detail: str


class MoveInfoData(BaseModel):
    """One move for people: its text, its plain words (:meth:`coinrow.Rules.move_words`), and
    the coins it takes (0-based indices in the row, and their values)."""

    move: str
    words: str
    indices: list[int]
    coins: list[Exact]


class RulesData(BaseModel):
    """One rules for people and pages (:meth:`coinrow.Rules.to_dict`)."""

    rules: str = Field(description="The canonical text form.")
    name: str
    title: str
    description: str
    moves: str = Field(description="The moves' notation in plain words.")
    source: str
    players: int
    two_player: bool
    interval: bool
    circle: bool
    score_word: str
    label: str = Field(description="The rules' short name for people, with their parameters.")
    margin_word: str = Field(description='What sentences call the margin ("margin", "lead").')
    margin_label: str = Field(description="The margin's label on a page, with how it is taken.")
    lowest_wins: bool
    positions: bool = Field(
        description="A game under these rules can be played and reviewed position by position "
        "(/api/play takes them); false: they can be solved only."
    )
    syntax: str = Field(description="The text form with its parameters named (take:K).")
    pattern: str = Field(
        description="A regular expression (no anchors) of the text forms this server takes."
    )


class RulesResponse(BaseModel):
    """Every rule coinrow plays (each with its default parameters), or the rules asked for."""

    rules: list[RulesData]


class SolveResponse(BaseModel):
    """What ``coinrow solve --json`` prints (``Solution.to_dict()``) under every rules. Over
    10,000 coins (without ``full``) the per-coin keys are left out and listed under
    ``omitted``."""

    rules: str = Field(description="The rules, in their canonical text form.")
    n: int
    coins: list[Exact] | None = None
    engine: str
    totals: list[Exact] = Field(description="Every player's total along the line, first first.")
    first_total: Exact
    second_total: Exact
    margin: Exact | None = Field(description="First minus second; null for over two players.")
    objective: Exact | None = Field(
        description="The first player's margin in what the rules make them maximise."
    )
    outcome: str = Field(
        pattern="^(?:first|second|tie|player [0-9]+)$",
        description='"first", "second", "tie", or with more than two players "player K".',
    )
    winners: list[int] = Field(description="0-based seats of the winners.")
    line: str | None = Field(None, description='One optimal line: "LRL", "L2 R1", "1 LLL" (pizza).')
    moves: list[str] | None = None
    first_moves: list[str] = Field(
        description='Every optimal first move, a list of move texts: ["L", "R"], ["L2"], '
        '["L", "R", "B"], the pizza\'s first slices ["1", "10"] (0-based).'
    )
    first_move_info: list[MoveInfoData] | None = Field(
        None, description="The web page's addition: each optimal first move in plain words."
    )
    start: int | None = Field(description="The pizza's first slice (0-based), else null.")
    starts: list[Exact] | None = Field(
        None,
        description="The pizza only: for each first slice (0-based), the first player's "
        "margin (first minus second) with best play after it.",
    )
    svg: str | None = Field(
        None,
        description="The pizza's ring (coinrow.svg.ring) for rows of up to table_coins slices.",
    )
    tie_break: Literal["left", "right", "spite"] | None = Field(
        description="The tie-break of players:P, else null."
    )
    first_coins: list[int] | None = None
    second_coins: list[int] | None = None
    omitted: list[str] | None = None


class CellData(BaseModel):
    """One subgame ``i..j`` (0-based): the mover's best total, margin, best moves, mover."""

    i: int
    j: int
    value: Exact
    margin: Exact
    moves: list[Move] = Field(description='Every optimal move: ["L"], ["R"] or ["L", "R"].')
    player: Player


class TableResponse(BaseModel):
    """What ``coinrow table --json`` prints, plus the SVG triangle."""

    coins: list[Exact]
    first_total: Exact
    second_total: Exact
    margin: Exact
    cells: list[CellData]
    svg: str


class VariantCellData(BaseModel):
    """One subgame ``i..j`` of a variant: what the rules make meaningful."""

    i: int
    j: int
    value: Exact | None = Field(
        description="The coins the mover takes with best play; null under stone-game-vii."
    )
    margin: Exact = Field(description="The mover's margin in what the rules make them maximise.")
    moves: list[str] = Field(
        description='Every optimal move, a list of move texts: ["L"], ["L", "R"], ["L2", "R1"], '
        '["B"].'
    )
    player: Player | None = Field(
        description="Who moves there; null under take and both-ends (it depends on the line)."
    )


class VariantTableResponse(BaseModel):
    """What ``coinrow table --rules R --json`` prints, and the library's SVG triangle."""

    rules: str
    coins: list[Exact]
    margin: Exact
    line: str
    cells: list[VariantCellData]
    svg: str = Field(description="The triangle (coinrow.svg.variant_triangle), highlighted.")


class LegalMoveData(BaseModel):
    """A legal move and the coins it takes (0-based indices in the row)."""

    move: str
    indices: list[int]
    words: str = Field(description="The move in plain words (coinrow.Rules.move_words).")


class PlayedMoveData(BaseModel):
    """A move played: who played it, the coins it took, what it scored, the totals after it."""

    seat: int = Field(description="The mover's 0-based seat.")
    player: str = Field(description='"first", "second", or "player K" with more players.')
    move: str
    words: str = Field(description="The move in plain words (coinrow.Rules.move_words).")
    indices: list[int]
    gain: Exact
    totals: list[Exact]


class ReviewedMoveData(BaseModel):
    """One move of a finished game judged under its rules (``coinrow.analysis.analyze``)."""

    step: int
    player: str
    move: str
    coin: Exact | None = None
    best_moves: list[str] = Field(description="Every optimal move there, a list of move texts.")
    guaranteed_before: Exact | None = None
    guaranteed_after: Exact | None = None
    loss: Exact = Field(description="What the move cost its player, in what the rules score.")
    label: Literal["best", "inaccuracy", "mistake", "blunder"]
    totals: list[Exact] | None = None


class PlayPointData(BaseModel):
    """The evaluation after ``ply`` moves: every player's final total with best play."""

    ply: int
    totals: list[Exact]
    margin: Exact | None = Field(description="First minus second (two players), else null.")


class PlayResponse(BaseModel):
    """A game under any rules after ``moves``: whose turn, the legal moves and the coins each
    takes, the optimal moves and everyone's final totals with best play from here."""

    rules: str
    coins: list[Exact]
    players: int
    moves: list[str]
    line: str
    finished: bool
    seat: int | None = Field(description="The mover's 0-based seat; null when the game is over.")
    legal: list[LegalMoveData] = Field(description="Every legal move, in the engines' order.")
    best_moves: list[str] = Field(description="Every optimal move here.")
    move: str | None = Field(
        description="Perfect play's move here (the first optimal move, the tie-break's under "
        "players:P): the computer's move; null when the game is over."
    )
    totals: list[Exact] = Field(description="Every player's total so far, first seat first.")
    best_totals: list[Exact] = Field(
        description="Every player's final total when everyone plays optimally from here."
    )
    played: list[PlayedMoveData]
    remaining: list[int] = Field(description="The coins left (0-based; the pizza's clockwise).")
    first_slice: int | None = Field(description="The pizza's first slice once eaten, else null.")
    winners: list[int] | None = Field(
        description="Once the game is over, the 0-based seats of the winners (the smallest "
        "total in the misère game, else the largest); null before."
    )
    review: list[ReviewedMoveData] = Field(
        description="Every move of the line judged under the rules (the analysis's moves: "
        "best moves, loss, label)."
    )
    summary: dict[str, Any] = Field(
        description="Each player's moves: losses, labels, accuracy, totals (the analysis's)."
    )
    summary_words: list[str] = Field(
        description="Each player's game in words, first seat first "
        "(coinrow.analysis.PlayerSummary.sentence): 'You' and 'Computer' with a seat, else "
        "each seat's name; a player whose every move was best is told they played perfectly."
    )
    ply: int = Field(description="The moves shown: the position is after this many moves.")
    over: bool = Field(description="Every coin is taken at the end of the line.")
    replies: list[str] = Field(description="The moves the computer added to the line.")
    cell: list[int] | None = Field(
        description="The position's cell [lo, hi] in the triangle of subgames, if it has one."
    )
    evaluation: list[PlayPointData] = Field(
        description="Before the first move and after every move of the line: every player's "
        "final total with best play from there, and the margin (two players)."
    )
    svg: str | None = Field(
        description="The library's picture of the position (coinrow.svg): the triangle of "
        "subgames with the moves played highlighted, or the pizza's ring; null without one."
    )
    picture_note: str = Field(description="Why there is no picture; empty when there is one.")


class MoveResponse(BaseModel):
    """The position after ``moves``: whose turn, the strategy's move, the best moves, and the
    totals (taken so far, and guaranteed with best play from here on)."""

    coins: list[Exact] = Field(description="The row, as the server read it.")
    lo: int = Field(description="First coin left (0-based); lo > hi when the game is over.")
    hi: int = Field(description="Last coin left (0-based).")
    finished: bool
    turn: Player | None = Field(description="Who moves now; null when the game is over.")
    move: Move | None = Field(description="The strategy's move here; null when over.")
    best_moves: list[Move] = Field(
        description='Every optimal move here: ["L"], ["R"], ["L", "R"], or [] once the game is '
        "over."
    )
    value: Exact = Field(description="The most the player to move can get from the coins left.")
    first_total: Exact = Field(description="What the first player has taken so far.")
    second_total: Exact = Field(description="What the second player has taken so far.")
    first_guaranteed: Exact = Field(description="The first player's final total with best play")
    second_guaranteed: Exact = Field(description="The second player's, with best play.")
    leader: Literal["first", "second", "tie"] = Field(
        description="Who has taken more so far (the winner once the game is over)."
    )


class MoveAnalysisData(BaseModel):
    """One analysed move."""

    step: int
    player: Player
    move: Move
    coin: Exact
    best_moves: list[Move] = Field(description="Every optimal move there, a list of move texts.")
    guaranteed_before: Exact
    guaranteed_after: Exact
    loss: Exact
    label: Literal["best", "inaccuracy", "mistake", "blunder"]
    first_total: Exact
    second_total: Exact


class PlayerSummaryData(BaseModel):
    """One player's moves: losses, labels, accuracy and totals."""

    player: Player
    moves: int
    total_loss: Exact
    accuracy: float
    labels: dict[str, int]
    guaranteed_start: Exact
    final_total: Exact


class SummaryData(BaseModel):
    first: PlayerSummaryData
    second: PlayerSummaryData


class AnalyzeResponse(BaseModel):
    """The analysis of one game, as each game of ``coinrow analyze --json``."""

    coins: list[Exact]
    line: str
    finished: bool
    moves: list[MoveAnalysisData]
    summary: SummaryData


class FillStepData(BaseModel):
    """One cell of the bottom-up fill, with both forms of the recurrence filled in."""

    step: int
    i: int
    j: int
    left_coin: Exact
    right_coin: Exact
    reads: list[list[int]]
    after_left: Exact
    after_right: Exact
    take_left: Exact
    take_right: Exact
    margin: Exact
    inner_reads: list[list[int] | None]
    inner: list[Exact]
    left_value: Exact
    right_value: Exact
    value: Exact
    total: Exact
    moves: list[Move] = Field(description='The optimal moves: ["L"], ["R"] or ["L", "R"].')
    rest_left: Exact = Field(description="F(i+1, j): the opponent's best after the left coin.")
    rest_right: Exact = Field(description="F(i, j-1): the opponent's best after the right coin.")
    sum_value: Exact = Field(description="The sum form: total - min(rest_left, rest_right).")


class MemoCallData(BaseModel):
    """One call of the memoised recursion."""

    index: int
    i: int
    j: int
    parent: int | None
    depth: int
    hit: bool
    last: int
    margin: Exact
    value: Exact


class MemoData(BaseModel):
    """The memoised recursion's calls and counts (``plain``: the plain recursion's calls)."""

    count: int
    hits: int
    computed: int
    plain: int
    calls: list[MemoCallData]


class StepsResponse(BaseModel):
    """The bottom-up fill order and the memoised recursion's call order."""

    coins: list[Exact]
    fill: list[FillStepData]
    memo: MemoData


class RandomResponse(BaseModel):
    """A random row."""

    n: int
    values: str
    seed: int | None
    coins: list[Exact]


class StrategyData(BaseModel):
    """A built-in strategy: its name, parameter syntax and what it does."""

    name: str
    syntax: str
    description: str


class StrategiesResponse(BaseModel):
    """The built-in strategies (user strategies are never loaded by the web app)."""

    strategies: list[StrategyData]


class LimitsResponse(BaseModel):
    """The server's limits."""

    solve_coins: int
    table_coins: int
    steps_coins: int
    play_coins: int
    analyze_coins: int
    random_coins: int
    coin_digits: int
    body_bytes: int
    response_bytes: int
    body_seconds: int
    request_seconds: int
    request_memory: int
    processes: int
    queue: int
    bodies_bytes: int = Field(description="Request bodies one server process holds at once.")
    header_seconds: int = Field(description="Seconds a client has to send its headers.")
    connections: int = Field(description="Connections one server process keeps open.")


# ---------------------------------------------------------------------------------------------
# The page's game-site endpoints: review, records, levels, puzzles.


@dataclass(frozen=True)
class PageRequestModels:
    """The request body models of the review and record endpoints."""

    review: type[Strict]
    record: type[Strict]
    record_read: type[Strict]
    duel: type[Strict]


#: Longest record text /api/record/read reads, in characters.
RECORD_CHARS = 200_000


def page_request_models(analyze_coins: int) -> PageRequestModels:
    """Request models of the review and record endpoints for the given limit (O(1))."""

    class ReviewRequest(Strict):
        coins: coins_field(analyze_coins)  # type: ignore[valid-type]
        moves: moves_field(analyze_coins)  # type: ignore[valid-type]

    class RecordRequest(Strict):
        coins: coins_field(analyze_coins)  # type: ignore[valid-type]
        moves: StrictStr = Field(
            "",
            max_length=8 * analyze_coins,
            pattern=VARIANT_LINE_PATTERN,
            description="The moves played, as one line of the rules' moves (LRL, L2 R1).",
        )
        players: StrictStr | None = Field(
            None, max_length=200, description='The "players" header, e.g. "you vs Casual".'
        )
        rules: StrictStr = rules_field(PLAY_RULES_PATTERN, PLAY_RULES_KINDS)

    class RecordReadRequest(Strict):
        text: StrictStr = Field(
            max_length=RECORD_CHARS,
            description="A record in coinrow's text format (or JSON); the first one is read.",
        )

    class DuelRequest(Strict):
        coins: coins_field(analyze_coins)  # type: ignore[valid-type]
        first: StrictStr = Field(
            max_length=100,
            json_schema_extra={"pattern": STRATEGY_PATTERN},
            description="The first player's strategy (a built-in name, as /api/move's).",
        )
        second: StrictStr = Field(
            max_length=100,
            json_schema_extra={"pattern": STRATEGY_PATTERN},
            description="The second player's strategy.",
        )
        seed: Seed = None

    return PageRequestModels(ReviewRequest, RecordRequest, RecordReadRequest, DuelRequest)


class EvaluationData(BaseModel):
    """The position after ``ply`` moves: each player's final total with best play from there."""

    ply: int
    first: Exact
    second: Exact
    margin: Exact


class ReviewResponse(BaseModel):
    """A game's analysis and its evaluation after every move (for the review chart)."""

    analysis: AnalyzeResponse
    series: list[EvaluationData]


class RecordResponse(BaseModel):
    """A game as a record in coinrow's text format."""

    text: str


class RecordReadResponse(BaseModel):
    """The first record of a text: its row (as text and as values), moves and headers."""

    coins: list[Exact]
    coins_text: str
    moves: str
    headers: dict[str, str]
    records: int = Field(description="How many records the text held (the first is returned).")
    rules: str = Field(description="The game's rules (its rules header; plain without one).")


class LevelData(BaseModel):
    """An opponent level: plain name, strategy, description and measured strength."""

    key: str
    name: str
    strategy: str
    description: str
    loss: str = Field(description="Mean points lost per game against perfect play (2 decimals).")
    games: int = Field(description="Games the strength was measured on.")


class LevelsResponse(BaseModel):
    """The opponent levels, weakest first."""

    levels: list[LevelData]


class PuzzleResponse(BaseModel):
    """A puzzle: a row where the tempting move loses."""

    seed: int
    coins: list[Exact]
    tempting: str
    tempting_rule: str
    tempting_move: Move
    best_moves: list[Move] = Field(description="Every optimal first move, a list of move texts.")
    loss: Exact
    grade: Literal["inaccuracy", "mistake", "blunder"]
    best_total: Exact


class DuelResponse(BaseModel):
    """A whole game between two built-in strategies."""

    line: str
    first_total: Exact
    second_total: Exact


# --- the analysis board (/api/analysis) -----------------------------------------------------


def board_request_model(play_coins: int) -> type[Strict]:
    """The request body of ``/api/analysis`` for the given limit (O(1))."""

    class AnalysisRequest(Strict):
        coins: coins_field(play_coins)  # type: ignore[valid-type]
        moves: StrictStr = line_field(
            play_coins,
            "The line shown on the board (the game, or a variation) as one line: "
            '"LRL"; under take:K "L2 R1"; the pizza\'s first slice (0-based) first, "3 LRL".',
        )
        rules: StrictStr = rules_field(PLAY_RULES_PATTERN, PLAY_RULES_KINDS)
        ply: ply_type(  # type: ignore[valid-type]
            play_coins, "Show the line after this many of its moves; default: all."
        ) = None
        seat: seat_type(  # type: ignore[valid-type]
            "The person's 0-based seat, named \"you\" in the lessons' words; null (default): "
            "every seat is named by its place."
        ) = None
        picture: StrictBool = Field(True, description="Send the library's picture (svg).")

    return AnalysisRequest


class LineMoveData(BaseModel):
    """One move of a lesson's line: the mover's seat, the move, the coins it takes."""

    seat: int
    move: str
    indices: list[int]
    coins: list[Exact]


class LessonData(BaseModel):
    """A move that was not the best, explained (``coinrow.analysis.lessons``)."""

    step: int = Field(description="The 1-based move number.")
    seat: int
    move: str
    label: Literal["inaccuracy", "mistake", "blunder"]
    symbol: str = Field(description="?! (inaccuracy), ? (mistake) or ?? (blunder).")
    replies: list[LineMoveData] = Field(description="The other seats' best answers to it.")
    best_line: list[LineMoveData] = Field(
        description="The best move from the position before it and the best play after."
    )
    words: str = Field(description="The lesson in a sentence, from the library.")


class AnalysisResponse(PlayResponse):
    """A line on the analysis board after ``ply`` of its moves (as ``/api/play`` without the
    computer's answer), with a lesson for every move of the line that was not the best."""

    lessons: list[LessonData]
    symbols: dict[str, str] = Field(description="Each label's symbol (coinrow.analysis.SYMBOLS).")
    names: list[str] = Field(
        description="Each seat in words (you, the computer, the first player)."
    )


# --- puzzles of several moves and the puzzle rating (/api/puzzles/...) -------------------

ThemeName = Literal["greedy-trap", "parity-trap", "endgame", "variant-rules"]


def _no_bool(value: Any) -> Any:
    """JSON true/false is no number (Pydantic would read it as 1/0)."""
    if isinstance(value, bool):
        raise ValueError("a number, not true or false")
    return value


class ThemeData(BaseModel):
    """A kind of puzzle."""

    name: ThemeName
    title: str
    about: str
    tempting: str
    rules: str
    coins: int
    moves: int


class ThemesResponse(BaseModel):
    """The puzzle themes, in the order the daily puzzle takes them."""

    themes: list[ThemeData]


class PuzzleStepData(BaseModel):
    """A move the solver must find (the only best one) and the computer's answer."""

    ply: int = Field(description="Moves played before this one.")
    best: str
    tempting: str = Field(description="The tempting strategy's move here.")
    reply: str | None = Field(description="The computer's answer; null after the last move.")
    why: dict[str, str] = Field(description="For every other legal move, why it is worse.")


class LinePuzzleResponse(BaseModel):
    """A puzzle of several moves (``coinrow.puzzles.themed_puzzle``)."""

    id: str
    theme: ThemeName
    seed: int
    rules: str
    coins: list[Exact]
    tempting: str
    steps: list[PuzzleStepData]
    loss: Exact
    grade: Literal["inaccuracy", "mistake", "blunder"]
    best_total: Exact
    rating: int
    theme_title: str
    theme_about: str
    tempting_rule: str
    plain: bool = Field(description="Whether the puzzle is under the plain game's rules.")
    rules_words: str = Field(description="The rules in words (empty for the plain game).")
    line: list[str]
    explanation: str = Field(description="Why the tempting move loses, in words.")


class RateRequest(BaseModel):
    """A learner's rating and the result of one attempt at a puzzle of a given rating."""

    model_config = ConfigDict(extra="forbid")

    rating: Annotated[
        float,
        Field(ge=0, le=4000, description="The learner's rating (Glicko scale)."),
        BeforeValidator(_no_bool),
    ] = 1500.0
    rd: Annotated[
        float,
        Field(ge=LOWEST_RD, le=START_RD, description="Its rating deviation."),
        BeforeValidator(_no_bool),
    ] = START_RD
    volatility: Annotated[
        float, Field(ge=0.001, le=0.5, description="Its volatility."), BeforeValidator(_no_bool)
    ] = 0.06
    puzzle: Annotated[
        int, Field(ge=0, le=4000, description="The puzzle's rating."), BeforeValidator(_no_bool)
    ]
    solved: StrictBool


class RateResponse(BaseModel):
    """The learner's new rating after the attempt (Glicko-2, one rating period)."""

    rating: float
    rd: float
    volatility: float
    change: float
