"""The rules of the game as objects: :class:`Rules`, one subclass per rule, and :class:`Move`.

As in python-chess, where one ``Board`` plays every variant and a variant is a subclass, the
plain game is :class:`Rules` itself and every other rule is a subclass registered by name in
:data:`RULES`. A rule carries everything that is said about it once: its text form (parse and
canonical spelling), its moves (their text forms and plain words), what a move scores, the
objective and who wins, a name and a sentence for people, and the class attributes the
engines, the model and the studies read to choose what to run (``interval``, ``fast_path``,
``circle``...). Nothing outside this module compares a rule's name.

A :class:`Rules` value is immutable, hashable and validated when made; its text form reads
back with :meth:`Rules.parse` (``str(Rules.parse(text))`` is the canonical spelling):

=====================  ==========================================================================
``plain``              take the leftmost or rightmost coin; each wants the largest total (default)
``circular``           Peter Winkler's pizza: the first slice is any coin of the circle, then an
                       end of the row the eaten slices leave
``misere``             take an end coin; each wants the smallest total
``stone-game-vii``     take an end coin and score the sum of the coins that remain (LeetCode 1690)
``take:K``             take 1 to K coins from one end (``take:any``: any number; UVa 10891)
``both-ends``          take the left coin, the right coin, or both
``reply:STRATEGY``     the first player's best against a known, deterministic second player
                       (``reply:greedy`` is SPOJ TWENDS)
``players:P[:TIE]``    P players in turn, each maximising their own total; TIE breaks a mover's
                       ties: ``left`` (default), ``right`` or ``spite`` (the move that leaves the
                       best-off other player the least, then left)
``front:K``            take 1 to K coins from the front of the row only (LeetCode 1406 "Stone
                       Game III" is ``front:3``; LintCode 395 "Coins in a Line II" ``front:2``)
``stone-game-ii``      take all the coins of the first X piles, 1 <= X <= 2M, then M = max(M, X),
                       M starting at 1 (LeetCode 1140; a position is the piles gone and M)
=====================  ==========================================================================

Adding a rule is a subclass with ``name`` and its class attributes, and one line
``@register`` (docs/architecture.md, "Adding a rule").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Literal, TypeVar

from .errors import IllegalMoveError, RulesError, UnsupportedRulesError

#: How a player of ``players:P`` chooses among moves that give them the same total.
TIE_BREAKS = ("left", "right", "spite")

#: Most players of ``players:P`` (each subgame keeps a total per player).
MAX_PLAYERS = 64

#: Largest ``K`` of ``take:K`` (``take:any`` covers any more).
MAX_TAKE = 10**6

#: Longest parameter text (a strategy's name and its own parameters).
MAX_PARAMETER_LENGTH = 64

_STRATEGY = re.compile(r"[A-Za-z_][\w.]*(:[\w.:-]+)?", re.ASCII)

#: Sides of a move's text: left, right, both ends.
SIDES = "LRB"

_SIDE_WORDS = {"L": "left", "R": "right"}


class Move(str):
    """One move in its text form: ``L``/``R`` (one end coin), ``B`` (both ends), ``L2``/``R3``
    (that many coins from one side, under rules whose moves name their count), or a 0-based
    slice number (the pizza's first move). A move *is* its text (a ``str``; its repr is the
    text's), so a set of moves is a tuple of moves and ``"L" in moves`` reads as it says.
    Make one with :meth:`Rules.parse_move`, which checks it against the rules (O(len(text))).

    >>> m = Rules.parse("take:3").parse_move("r2")
    >>> m, m.side, m.taken, Move("4").slice
    ('R2', 'R', 2, 4)
    """

    __slots__ = ()

    @property
    def side(self) -> str | None:
        """``"L"``, ``"R"``, ``"B"``, or None for a slice (O(1))."""
        return self[0] if self[:1] in ("L", "R", "B") else None

    @property
    def taken(self) -> int:
        """Coins the move takes: its number for ``L2``, 2 for ``B``, 1 otherwise (O(len))."""
        if self[:1] == "B":
            return 2
        return int(self[1:]) if self[:1] in ("L", "R") and len(self) > 1 else 1

    @property
    def slice(self) -> int | None:
        """The slice number of a pizza's first move, else None (O(len))."""
        return int(self) if self.isdigit() else None


#: A set of moves (every optimal move of a position, in tie order) or a line of moves.
Moves = tuple[Move, ...]

#: The plain game's two moves.
LEFT, RIGHT = Move("L"), Move("R")

#: The plain engines' text of a set of moves (``""``, ``"L"``, ``"R"``, ``"LR"``) as a tuple.
_PLAIN_SETS: dict[str, Moves] = {"": (), "L": (LEFT,), "R": (RIGHT,), "LR": (LEFT, RIGHT)}


def plain_moves(text: str) -> Moves:
    """The set of moves an engine of the plain game writes as ``"L"``, ``"R"``, ``"LR"`` or
    ``""``, as a tuple of :class:`Move` (O(1); the tuples are shared, never rebuilt).

    >>> plain_moves("LR"), plain_moves("")
    (('L', 'R'), ())
    """
    return _PLAIN_SETS[text]


#: Shared values of the one-letter moves (a long line holds references, not copies).
_SHARED: dict[str, Move] = {"L": LEFT, "R": RIGHT, "B": Move("B")}


def as_moves(moves: Sequence[str]) -> Moves:
    """A sequence of move texts as a tuple of :class:`Move` (O(len)).

    >>> as_moves(["L2", "R1"])
    ('L2', 'R1')
    """
    shared = _SHARED
    return tuple(shared.get(move) or Move(move) for move in moves)


def moves_text(moves: Sequence[str]) -> str:
    """The text form of a SET of moves: the move texts separated by single spaces, in tie
    order (``"L R"``, ``"L2"``, ``"1 10"``), as the SVG's ``data-moves`` attribute and the
    census's keys hold it; never run together, so ``"L R"`` and a slice ``"10"`` stay apart
    (O(len)). Read it back with ``tuple(text.split())``.

    >>> moves_text(("L", "R")), moves_text(("1", "10")), moves_text(())
    ('L R', '1 10', '')
    """
    return " ".join(moves)


R = TypeVar("R", bound="type[Rules]")

#: Every rule by name, in the order docs/variants.md describes them.
RULES: dict[str, type[Rules]] = {}


def register(cls: R) -> R:
    """Class decorator: add a rule to :data:`RULES` under its ``name`` (O(1))."""
    RULES[cls.name] = cls
    return cls


def ascii_number(text: str, *, low: int, high: int, spelled: str, what: str) -> int:
    """A whole number written in ASCII digits, ``low`` to ``high`` (O(len(str(high)))): no
    Unicode digits (``²``, ``①``), no signs, and no text longer than ``high`` needs, so a
    parameter never reaches Python's integer-conversion limit.

    >>> ascii_number("12", low=1, high=64, spelled="players:12", what="P")
    12
    >>> ascii_number("²", low=1, high=64, spelled="players:²", what="P")
    Traceback (most recent call last):
    ...
    coinrow.errors.RulesError: rules 'players:²': P must be a whole number from 1 to 64
    """
    digits = len(str(high))
    if (
        text.isascii()
        and text.isdigit()
        and len(text.lstrip("0") or "0") <= digits
        and len(text) <= digits + 8
    ):
        number = int(text)
        if low <= number <= high:
            return number
    raise RulesError(f"rules {spelled!r}: {what} must be a whole number from {low} to {high}")


class Rules:
    """The rules of one game of coins in a line: the plain game itself, and the base of every
    other rule (O(1) to make and compare). Make rules from text with :meth:`parse`.

    >>> Rules.parse("take:2"), str(Rules.parse("players:3")), Rules.parse("MISERE").name
    (Rules.parse('take:2'), 'players:3:left', 'misere')
    >>> Rules() == Rules.parse("plain"), Rules().is_plain
    (True, True)
    >>> Rules.parse("take:0")
    Traceback (most recent call last):
    ...
    coinrow.errors.RulesError: rules 'take:0': K must be a whole number from 1 to 1000000, or any
    """

    #: The rule's name: the registry key and its text form's first word.
    name: ClassVar[str] = "plain"
    #: A short name for people.
    title: ClassVar[str] = "Plain"
    #: One sentence for people: the moves and the objective.
    description: ClassVar[str] = (
        "Take the leftmost or the rightmost coin; the larger total of coins wins."
    )
    #: The text form for help and messages (``take:K``).
    syntax: ClassVar[str] = "plain"
    #: A regular expression of the canonical text forms (without anchors), for schemas
    #: such as the web API's.
    pattern: ClassVar[str] = "plain"
    #: The text forms a server accepts when they differ from :attr:`pattern` (``reply``: only
    #: the opponent the engines know, whose cost is known), else None.
    served: ClassVar[str | None] = None
    #: Where the rule comes from (a published problem), for people; "" when none.
    source: ClassVar[str] = "GeeksforGeeks 'Optimal Strategy for a Game', LeetCode 486"

    # --- what the engines, the model and the studies read (python-chess style) ------------
    #: The exact engine family that solves the rules (``coinrow.engines.variants``):
    #: ``interval-dp`` (the interval DP), ``circle-dp``, ``reply-dp`` or ``players-dp``.
    engine: ClassVar[str] = "interval-dp"
    #: Subgames are intervals ``lo..hi`` of the row, two players alternating: the interval DP
    #: (and a table of subgames) applies.
    interval: ClassVar[bool] = True
    #: An O(n) path on the reduction exists (the ``reduction`` engine takes it).
    fast_path: ClassVar[bool] = True
    #: The coins lie on a circle: the first move picks a slice, then the row it opens is played.
    circle: ClassVar[bool] = False
    #: The sides a move may take coins from (``B``: both ends at once).
    sides: ClassVar[str] = "LR"
    #: Moves name their count (``L2``): several coins may be taken from one side.
    counted_moves: ClassVar[bool] = False
    #: A move scores the sum of the coins left after it (Stone Game VII), not the coins taken.
    scores_left: ClassVar[bool] = False
    #: Each player wants the smallest total (the misère game).
    lowest_wins: ClassVar[bool] = False
    #: The second player's moves are given (a strategy): only the first player chooses.
    known_opponent: ClassVar[bool] = False
    #: Every position must be solved on its own (no table of every subgame answers it).
    per_position: ClassVar[bool] = False
    #: Every position is the plain game's (``reply``: only the first seat chooses, by the
    #: plain game's moves), so the plain game's strategies play it.
    plain_positions: ClassVar[bool] = True
    #: A :class:`~coinrow.game.Position` (an interval, the moves played, the pizza's first
    #: slice, a rule's state) holds every position of the rules, so they can be played and
    #: analysed.
    positions: ClassVar[bool] = True
    #: A position keeps a state of the rules besides its coins (:meth:`start_state`,
    #: :meth:`state_moves`; the coins left are those after the state's first item), solved
    #: by the general search (``engine = "search-dp"``).
    stateful: ClassVar[bool] = False
    #: A census of every row of a family can count it (``census/``: two players).
    census: ClassVar[bool] = True
    #: What a player's score is called: coins taken (a total) or points.
    score_word: ClassVar[str] = "total"
    #: What the first player's margin in what the rules score is called in sentences
    #: ("the first player's margin 3"), and the label of that number on a page, with how it
    #: is taken, so every view says the same number the same way.
    margin_word: ClassVar[str] = "margin"
    margin_label: ClassVar[str] = "Margin (first \u2212 second)"
    #: What a cell of a variant's triangle shows in its margin view.
    margin_view: ClassVar[str] = "the mover's margin in what the rules score"

    # --- parameters (the subclasses that have them override these) ------------------------
    #: Most coins one move takes from one side (None: any number).
    take: int | None = 1
    #: The known second player's strategy (``reply``), else None.
    strategy: str | None = None
    #: Seats at the table.
    players: int = 2
    #: How a mover chooses among moves worth the same to them (``players``).
    tie_break: str = "left"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"rules are immutable: cannot set {name!r}")

    def _set(self, **fields: object) -> None:
        for key, value in fields.items():
            object.__setattr__(self, key, value)

    # --- text form ------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: object) -> Rules:
        """Rules from their text form, case and surrounding spaces ignored (O(len(text))).

        >>> Rules.parse("take:any").take is None, Rules.parse("reply:greedy").strategy
        (True, 'greedy')
        >>> Rules.parse("pizza")
        Traceback (most recent call last):
        ...
        coinrow.errors.RulesError: unknown rules 'pizza'; choose one of: plain, circular, misere, stone-game-vii, take:K, take:any, both-ends, reply:STRATEGY, players:P[:left|:right|:spite], front:K, stone-game-ii
        """  # noqa: E501
        if isinstance(text, Rules):
            return text
        if not isinstance(text, str):
            raise RulesError(f"rules must be text such as 'misere', not {text!r}")
        if len(text) > 2 * MAX_PARAMETER_LENGTH:
            raise RulesError(f"rules text of {len(text):,} characters is too long")
        spelled = text.strip()
        name, colon, parameter = spelled.partition(":")
        rule = RULES.get(name.lower())
        if rule is None:
            raise RulesError(f"unknown rules {spelled!r}; choose one of: {syntax()}")
        if len(parameter) > MAX_PARAMETER_LENGTH:
            raise RulesError(f"rules {spelled!r}: the parameter is too long")
        return rule._from_parameter(parameter if colon else None, spelled)

    @classmethod
    def _from_parameter(cls, parameter: str | None, spelled: str) -> Rules:
        """The rules from the text after ``name:`` (None: no colon)."""
        if parameter is not None:
            raise RulesError(f"rules {spelled!r}: {cls.name} takes no parameter")
        return PLAIN if cls is Rules else cls()

    def _parameters(self) -> tuple[object, ...]:
        """What tells two rules of one class apart (O(1))."""
        return ()

    def __str__(self) -> str:
        """The canonical text form (O(1))."""
        return self.name

    def __repr__(self) -> str:
        return f"Rules.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rules):
            return NotImplemented
        return type(self) is type(other) and self._parameters() == other._parameters()

    def __hash__(self) -> int:
        return hash((self.name, self._parameters()))

    def __reduce__(self) -> tuple[Callable[[str], Rules], tuple[str]]:
        return (Rules.parse, (str(self),))

    def to_dict(self) -> dict[str, Any]:
        """The rules for people and pages: text, name, title, description, move words
        (O(1)).

        >>> Rules.parse("take:2").to_dict()["moves"]
        'L1 or L2 takes 1 or 2 coins from the left; R1 or R2 from the right'
        """
        return {
            "rules": str(self),
            "name": self.name,
            "title": self.title,
            "description": self.describe(),
            "moves": self.moves_help(),
            "source": self.source,
            "players": self.players,
            "two_player": self.two_player,
            "interval": self.interval,
            "circle": self.circle,
            "score_word": self.score_word,
            "label": self.label(),
            "margin_word": self.margin_word,
            "margin_label": self.margin_label,
            "lowest_wins": self.lowest_wins,
            "positions": self.positions,
        }

    def describe(self) -> str:
        """One sentence for people, with the rule's parameters (O(1))."""
        return self.description

    def label(self) -> str:
        """The rules' short name for people, with their parameters; what a sentence says
        instead of the text form (O(1)).

        >>> Rules.parse("players:3").label(), Rules.parse("take:2").label()
        ('3 players, ties to the left coin', 'Take 1 or 2 coins')
        """
        return self.title

    # --- properties -------------------------------------------------------------------------
    @property
    def kind(self) -> str:
        """The rule's name (O(1)); kept for reading, never for comparisons outside this
        module."""
        return self.name

    @property
    def is_plain(self) -> bool:
        """True for the ordinary game (O(1))."""
        return type(self) is Rules

    @property
    def two_player(self) -> bool:
        """True unless the rules seat more than two players (O(1))."""
        return self.players == 2

    @property
    def single_coin_moves(self) -> bool:
        """True when every move is ``L`` or ``R`` and takes one coin (O(1))."""
        return self.sides == "LR" and not self.counted_moves

    @property
    def most_per_move(self) -> int | None:
        """Most coins one move takes (None: any number) (O(1))."""
        return 2 if "B" in self.sides else self.take

    # --- the objective ----------------------------------------------------------------------
    def winners(self, totals: Sequence[Any]) -> tuple[int, ...]:
        """0-based seats of the players whose totals win: the smallest in the misère game,
        else the largest (O(p)).

        >>> Rules.parse("misere").winners([6, 2]), Rules.parse("players:3").winners([4, 4, 1])
        ((1,), (0, 1))
        """
        best = self.best_of(totals)
        return tuple(seat for seat, total in enumerate(totals) if total == best)

    def best_of(self, values: Sequence[Any]) -> Any:
        """The value a player of these rules prefers: the smallest when the lowest total
        wins, else the largest (O(len(values))).

        >>> Rules.parse("misere").best_of([3, 1]), Rules().best_of([3, 1])
        (1, 3)
        """
        return (min if self.lowest_wins else max)(values)

    def objective_margin(self, mine: Any, other: Any) -> Any:
        """What a two-player mover maximises: own total minus the other's (the other's minus
        own when the lowest total wins) (O(1)).

        >>> Rules.parse("misere").objective_margin(2, 5)
        3
        """
        return other - mine if self.lowest_wins else mine - other

    def aim(self, totals: Sequence[Any], seat: int) -> Any:
        """What ``seat`` plays for, from everyone's final totals (O(1)): their total, its
        negative when the lowest total wins, or their points margin when a move scores the
        coins left (Stone Game VII).

        >>> Rules.parse("misere").aim([3, 5], 0), Rules.parse("stone-game-vii").aim([3, 5], 1)
        (-3, 2)
        """
        if self.scores_left:
            return totals[seat] - totals[1 - seat]
        return -totals[seat] if self.lowest_wins else totals[seat]

    def gain(self, taken: Any, left: Any) -> Any:
        """What a move adds to the mover's total (O(1)): the coins ``taken``, or the coins
        ``left`` after it when a move scores the coins left (Stone Game VII).

        >>> Rules().gain(4, 10), Rules.parse("stone-game-vii").gain(4, 10)
        (4, 10)
        """
        return left if self.scores_left else taken

    def greedy_score(self, taken: Any, left: Any) -> Any:
        """How good a move looks to a greedy player who only sees this move (O(1)): what it
        gains, negated when the lowest total wins.

        >>> Rules.parse("misere").greedy_score(4, 10)
        -4
        """
        gained = self.gain(taken, left)
        return -gained if self.lowest_wins else gained

    # --- states of rules whose positions are not intervals (``engine = "search-dp"``) -----
    def start_state(self) -> tuple[int, ...]:
        """The start of a game whose positions are not intervals: a tuple whose first item
        counts the coins gone from the front (O(1))."""
        raise UnsupportedRulesError(f"rules {self} are solved on intervals, not states")

    def state_moves(self, state: tuple[int, ...], n: int) -> tuple[tuple[Move, int, Any], ...]:
        """Every move of ``state`` in a row of ``n`` coins, in tie order: the move, the coins
        it takes from the front, and the next state (O(moves))."""
        raise UnsupportedRulesError(f"rules {self} are solved on intervals, not states")

    def state_problem(self, state: object, n: int) -> str | None:
        """Why ``state`` is no state of a row of ``n`` coins under the rules, or None when it
        is one (O(len(state))): a tuple of ints whose first item, the coins gone from the
        front, lies in 0..n."""
        if not isinstance(state, tuple) or not all(
            isinstance(item, int) and not isinstance(item, bool) for item in state
        ):
            return f"a state of {self} is a tuple of ints, not {state!r}"
        if not state or not 0 <= state[0] <= n:
            return f"the state's first item counts the coins gone: 0 to {n}, not {state!r}"
        return None

    # --- moves ------------------------------------------------------------------------------
    def move(self, side: int, count: int = 1) -> Move:
        """The move taking ``count`` coins from ``side`` (0 left, 1 right, 2 both) (O(1)).

        >>> Rules.parse("take:3").move(1, 2), Rules.parse("both-ends").move(2, 2)
        ('R2', 'B')
        """
        letter = SIDES[side]
        return Move(f"{letter}{count}" if self.counted_moves else letter)

    def parse_move(self, text: object) -> Move:
        """A move's text checked against the rules' notation (not a position's legality),
        case folded (O(len(text))); an unknown move raises
        :class:`~coinrow.errors.UnsupportedRulesError`.

        >>> Rules.parse("take:any").parse_move("r12"), Rules.parse("misere").parse_move("L")
        ('R12', 'L')
        """
        if isinstance(text, str) and len(text) <= 16:
            side, count = self._side_count(text.strip().upper())
            if side >= 0:
                return self.move(side, count)
        raise UnsupportedRulesError(f"{text!r} is not a move of the rules {self}")

    def side_count(self, move: str) -> tuple[int, int]:
        """(side, count) of a move's text, side 0 = left, 1 = right, 2 = both (O(len)).

        >>> Rules.parse("take:any").side_count("R12"), Rules.parse("misere").side_count("L")
        ((1, 12), (0, 1))
        """
        side, count = self._side_count(move.upper() if isinstance(move, str) else "")
        if side < 0:
            raise UnsupportedRulesError(f"{move!r} is not a move of the rules {self}")
        return side, count

    def _side_count(self, text: str) -> tuple[int, int]:
        """(side, count), or (-1, 0) when the text is no move of these rules."""
        letter, rest = text[:1], text[1:]
        if not letter or letter not in self.sides:
            return -1, 0
        side = SIDES.index(letter)
        if side == 2:
            return (2, 2) if not rest else (-1, 0)
        if not self.counted_moves:
            return (side, 1) if not rest else (-1, 0)
        if rest.isascii() and rest.isdigit() and len(rest) <= 9 and int(rest) >= 1:
            count = int(rest)
            if self.take is None or count <= self.take:
                return side, count
        return -1, 0

    def legal_moves(self, lo: int, hi: int) -> Moves:
        """Every move of subgame ``lo..hi`` (not over), in the engines' tie order: left
        before right (before both ends), fewer coins before more (O(moves)).

        >>> Rules.parse("take:2").legal_moves(0, 3), Rules.parse("both-ends").legal_moves(0, 1)
        (('L1', 'L2', 'R1', 'R2'), ('L', 'R', 'B'))
        """
        left = hi - lo + 1
        most = left if self.take is None else min(self.take, left)
        moves = [
            self.move(side, count)
            for side, letter in enumerate("LR")
            if letter in self.sides
            for count in range(1, (most if self.counted_moves else 1) + 1)
        ]
        if "B" in self.sides and lo < hi:
            moves.append(self.move(2, 2))
        return tuple(moves)

    def moves_help(self) -> str:
        """The moves in plain words, for help texts and pages (O(1))."""
        return "L takes the left coin, R the right one"

    def move_words(self, move: str) -> str:
        """A move in plain words (O(len)).

        >>> Rules().move_words("L"), Rules.parse("take:3").move_words("R2")
        ('take the left coin', 'take 2 coins from the right')
        """
        side, count = self.side_count(move)
        if side == 2:
            return "take both end coins"
        where = _SIDE_WORDS[SIDES[side]]
        if self.counted_moves:
            return f"take {count} coin{'s' if count != 1 else ''} from the {where}"
        return f"take the {where} coin"

    def join(self, moves: Sequence[str]) -> str:
        """One text for a line of moves (O(len)): one-letter moves run together (``LRL``),
        longer ones are separated by spaces (``L2 R1``), and the pizza's first slice stands
        apart (``3 LRL``).

        >>> Rules().join(["L", "R"]), Rules.parse("take:2").join(["L2", "R1"])
        ('LR', 'L2 R1')
        """
        return join_moves(moves)

    def split(self, text: str) -> Moves:
        """A line's text back into moves, each checked against the notation (O(len)).

        >>> Rules.parse("take:2").split("L2 R1"), Rules().split("l r, L")
        (('L2', 'R1'), ('L', 'R', 'L'))
        """
        cleaned = text.replace(",", " ").upper()
        if self.counted_moves:
            words = re.findall(r"[A-Z]\d*|\S", cleaned)
        else:
            words = [c for c in cleaned if not c.isspace()]
        return tuple(self.parse_move(word) for word in words)


def join_moves(moves: Sequence[str]) -> str:
    """One text for a line or a set of moves (O(len)), see :meth:`Rules.join`.

    >>> join_moves(["L", "R"]), join_moves(["L2", "R1"]), join_moves(["3", "L", "R"])
    ('LR', 'L2 R1', '3 LR')
    """
    if all(len(move) == 1 and move.isalpha() for move in moves):
        return "".join(moves)
    if moves[0].isdigit() and all(len(move) == 1 and move.isalpha() for move in moves[1:]):
        return f"{moves[0]} {''.join(moves[1:])}".rstrip()
    return " ".join(moves)


# --- the plain game's lines as text ----------------------------------------------------------

#: The two seats of a two-player game.
Player = Literal["first", "second"]


def parse_moves(text: str) -> str:
    """Validate a line of moves; spaces and commas are ignored, case is folded (O(len)).

    >>> parse_moves("l r, L")
    'LRL'
    >>> parse_moves("LXR")
    Traceback (most recent call last):
    ...
    coinrow.errors.IllegalMoveError: move 2 is 'X'; moves are L (take the left coin) or R
    """
    if not isinstance(text, str):
        raise IllegalMoveError(f"moves must be text such as 'LRL', not {type(text).__name__}")
    line = "".join(text.split()).replace(",", "").upper()
    for index, move in enumerate(line):
        if move not in ("L", "R"):
            raise IllegalMoveError(
                f"move {index + 1} is {move!r}; moves are L (take the left coin) or R"
            )
    return line


def taken_indices(n: int, line: str) -> list[int]:
    """Index of the coin each move of ``line`` takes from a row of ``n`` coins (O(len)).

    >>> taken_indices(4, "RLLL")
    [3, 0, 1, 2]
    """
    lo, hi, indices = 0, n - 1, []
    for move in line:
        if lo > hi:
            raise IllegalMoveError(f"the line has {len(line)} moves for a row of {n} coins")
        if move == "L":
            indices.append(lo)
            lo += 1
        elif move == "R":
            indices.append(hi)
            hi -= 1
        else:
            raise IllegalMoveError(f"{move!r} is not a move; moves are L or R")
    return indices


def split_by_player(indices: list[int]) -> tuple[list[int], list[int]]:
    """Split the coins taken in order into the first player's and the second's (O(n)).

    >>> split_by_player([3, 0, 1, 2])
    ([3, 1], [0, 2])
    """
    return indices[0::2], indices[1::2]


register(Rules)


@register
class Circular(Rules):
    """Peter Winkler's pizza: the coins lie on a circle; the first move takes any slice,
    then each move takes an end of the arc the eaten slices leave."""

    name = "circular"
    title = "Pizza (circular)"
    description = (
        "The coins lie on a circle (Peter Winkler's pizza): the first move takes any slice, "
        "then each move takes a slice next to the eaten ones; the larger total wins."
    )
    syntax = "circular"
    pattern = "circular"
    source = "Peter Winkler's pizza problem"
    engine = "circle-dp"
    plain_positions = False
    interval = False
    circle = True

    def moves_help(self) -> str:
        return "first a slice number (0-based), then L or R: the slice at either end of the gap"

    def move_words(self, move: str) -> str:
        if move.isdigit():
            return f"start with slice {int(move)}"  # from 0, as the notation and the ring
        return super().move_words(move)

    def parse_move(self, text: object) -> Move:
        if isinstance(text, str) and text.strip().isascii() and text.strip().isdigit():
            spelled = text.strip()
            if len(spelled) <= 12:
                return Move(str(int(spelled)))
        return super().parse_move(text)

    def split(self, text: str) -> Moves:
        head, _, rest = text.strip().partition(" ")
        if head.isascii() and head.isdigit():
            return (self.parse_move(head), *super().split(rest))
        return super().split(text)


@register
class Misere(Rules):
    """Take an end coin; each player wants the smallest total."""

    name = "misere"
    title = "Misère"
    description = "Take the leftmost or the rightmost coin; the smaller total wins."
    syntax = "misere"
    pattern = "misere"
    source = "the misère form of the greedy coins game"
    plain_positions = False
    lowest_wins = True
    margin_word = "lead"
    margin_label = "Lead (second \u2212 first: the smaller total wins)"
    margin_view = "the mover's lead: the other player's total minus the mover's"


@register
class StoneGameVII(Rules):
    """LeetCode 1690: take an end coin and score the sum of the coins that remain."""

    name = "stone-game-vii"
    title = "Stone Game VII"
    description = (
        "Take the leftmost or the rightmost coin and score the sum of the coins left; "
        "the larger score wins."
    )
    syntax = "stone-game-vii"
    pattern = "stone-game-vii"
    source = "LeetCode 1690 'Stone Game VII'"
    plain_positions = False
    scores_left = True
    score_word = "points"


@register
class Take(Rules):
    """Take 1 to K coins from one end (``take:any``: any number; UVa 10891)."""

    name = "take"
    title = "Take up to K"
    syntax = "take:K"
    pattern = r"take:(?:any|1000000|[1-9][0-9]{0,5})"
    source = "UVa 10891 'Game of Sum' (take:any)"
    fast_path = False
    plain_positions = False
    counted_moves = True

    def __init__(self, take: int | None = 2) -> None:
        if take is not None and (
            isinstance(take, bool) or not isinstance(take, int) or not 1 <= take <= MAX_TAKE
        ):
            raise RulesError(f"take must be None or an int from 1 to {MAX_TAKE}, not {take!r}")
        self._set(take=take)

    @classmethod
    def _from_parameter(cls, parameter: str | None, spelled: str) -> Rules:
        if parameter is not None and parameter.lower() == "any":
            return cls(None)
        message = f"rules {spelled!r}: K must be a whole number from 1 to {MAX_TAKE}, or any"
        try:
            count = ascii_number(parameter or "", low=1, high=MAX_TAKE, spelled=spelled, what="K")
        except RulesError:
            raise RulesError(message) from None
        return cls(count)

    def _parameters(self) -> tuple[object, ...]:
        return (self.take,)

    def __str__(self) -> str:
        return f"take:{'any' if self.take is None else self.take}"

    def describe(self) -> str:
        most = "any number of" if self.take is None else f"1 to {self.take}"
        return f"Take {most} coins from one end of the row; the larger total wins."

    def label(self) -> str:
        if self.take is None:
            return "Take any number of coins"
        if self.take == 1:
            return "Take 1 coin"
        return f"Take 1 {'or' if self.take == 2 else 'to'} {self.take} coins"

    def moves_help(self) -> str:
        if self.take is None:
            return "L3 takes 3 coins from the left, R3 from the right (any count from 1)"
        shown = range(1, min(self.take, 3) + 1)
        more = " ..." if self.take > 3 else ""
        lefts = " or ".join(f"L{c}" for c in shown) + more
        rights = " or ".join(f"R{c}" for c in shown) + more
        counts = " or ".join(str(c) for c in shown) + more
        return f"{lefts} takes {counts} coins from the left; {rights} from the right"


@register
class BothEnds(Rules):
    """Take the left coin, the right coin, or both."""

    name = "both-ends"
    title = "Both ends"
    description = "Take the leftmost coin, the rightmost coin, or both; the larger total wins."
    syntax = "both-ends"
    pattern = "both-ends"
    source = ""
    fast_path = False
    plain_positions = False
    sides = "LRB"

    def moves_help(self) -> str:
        return "L takes the left coin, R the right one, B both end coins"


@register
class Reply(Rules):
    """The first player's best against a known, deterministic second player."""

    name = "reply"
    title = "Reply to a known opponent"
    syntax = "reply:STRATEGY"
    pattern = r"reply:[A-Za-z_][A-Za-z0-9_.]{0,40}(?::[A-Za-z0-9_.:-]{1,20})?"
    served = "reply:greedy"
    source = "SPOJ TWENDS (reply:greedy)"
    engine = "reply-dp"
    interval = False
    fast_path = False
    known_opponent = True
    per_position = True

    def __init__(self, strategy: str = "greedy") -> None:
        if (
            not isinstance(strategy, str)
            or len(strategy) > MAX_PARAMETER_LENGTH
            or not _STRATEGY.fullmatch(strategy)
        ):
            raise RulesError(f"reply needs a strategy name, not {strategy!r}")
        if re.match(r"(optimal:)?random\b", strategy):
            raise RulesError(f"reply:{strategy}: the opponent must be deterministic, not random")
        self._set(strategy=strategy)

    @classmethod
    def _from_parameter(cls, parameter: str | None, spelled: str) -> Rules:
        if parameter is None or not _STRATEGY.fullmatch(parameter):
            raise RulesError(f"rules {spelled!r}: give the opponent's strategy, as reply:greedy")
        return cls(parameter)

    def _parameters(self) -> tuple[object, ...]:
        return (self.strategy,)

    def __str__(self) -> str:
        return f"reply:{self.strategy}"

    def label(self) -> str:
        return f"Reply to a {self.strategy} opponent"

    def describe(self) -> str:
        return (
            f"The first player's best against a second player who always plays "
            f"{self.strategy}; take the leftmost or the rightmost coin."
        )


@register
class Players(Rules):
    """P players in turn, each maximising their own total."""

    name = "players"
    title = "N players"
    syntax = "players:P[:left|:right|:spite]"
    pattern = r"players:(?:[2-9]|[1-5][0-9]|6[0-4])(?::(?:left|right|spite))?"
    source = ""
    engine = "players-dp"
    interval = False
    fast_path = False
    plain_positions = False
    census = False
    per_position = True

    def __init__(self, players: int = 3, tie_break: str = "left") -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(f"players must be an int, not {players!r}")
        if not 2 <= players <= MAX_PLAYERS:
            raise RulesError(f"players must be from 2 to {MAX_PLAYERS}, not {players}")
        if tie_break not in TIE_BREAKS:
            raise RulesError(
                f"unknown tie-break {tie_break!r}; choose one of: {', '.join(TIE_BREAKS)}"
            )
        self._set(players=players, tie_break=tie_break)

    @classmethod
    def _from_parameter(cls, parameter: str | None, spelled: str) -> Rules:
        count, _, tie = (parameter or "").lower().partition(":")
        number = ascii_number(count, low=2, high=MAX_PLAYERS, spelled=spelled, what="P")
        tie = tie or "left"
        if tie not in TIE_BREAKS:
            raise RulesError(
                f"rules {spelled!r}: the tie-break must be one of {', '.join(TIE_BREAKS)}"
            )
        return cls(number, tie)

    def _parameters(self) -> tuple[object, ...]:
        return (self.players, self.tie_break)

    def __str__(self) -> str:
        return f"players:{self.players}:{self.tie_break}"

    def label(self) -> str:
        ties = {
            "left": "to the left coin",
            "right": "to the right coin",
            "spite": "to the move that leaves the leader the least",
        }
        return f"{self.players} players, ties {ties[self.tie_break]}"

    def describe(self) -> str:
        ties = {
            "left": "the left coin",
            "right": "the right coin",
            "spite": "the move that leaves the best-off other player the least (spite)",
        }[self.tie_break]
        return (
            f"{self.players} players in turn take the leftmost or the rightmost coin, each "
            f"wanting the largest total of their own; between equal moves a player takes "
            f"{ties}."
        )


@register
class Front(Rules):
    """Take 1 to K coins from the front of the row only (LeetCode 1406 "Stone Game III" with
    K = 3, LintCode 395 "Coins in a Line II" with K = 2)."""

    name = "front"
    title = "Take from the front"
    syntax = "front:K"
    pattern = r"front:(?:1000000|[1-9][0-9]{0,5})"
    source = "LeetCode 1406 'Stone Game III' (front:3), LintCode 395 'Coins in a Line II' (front:2)"
    fast_path = False
    plain_positions = False
    counted_moves = True
    sides = "L"

    def __init__(self, take: int = 3) -> None:
        if isinstance(take, bool) or not isinstance(take, int) or not 1 <= take <= MAX_TAKE:
            raise RulesError(f"front takes an int K from 1 to {MAX_TAKE}, not {take!r}")
        self._set(take=take)

    @classmethod
    def _from_parameter(cls, parameter: str | None, spelled: str) -> Rules:
        count = ascii_number(parameter or "", low=1, high=MAX_TAKE, spelled=spelled, what="K")
        return cls(count)

    def _parameters(self) -> tuple[object, ...]:
        return (self.take,)

    def __str__(self) -> str:
        return f"front:{self.take}"

    def describe(self) -> str:
        return f"Take 1 to {self.take} coins from the front of the row; the larger total wins."

    def label(self) -> str:
        return f"Take 1 to {self.take} coins from the front"

    def moves_help(self) -> str:
        return f"L1 to L{self.take} take that many coins from the front (the left end)"

    def move_words(self, move: str) -> str:
        _, count = self.side_count(move)
        return f"take {count} coin{'s' if count != 1 else ''} from the front"


@register
class StoneGameII(Rules):
    """LeetCode 1140 "Stone Game II": take all the coins of the first X piles, 1 <= X <= 2M,
    then M = max(M, X), M starting at 1 (a position is the piles gone and M, not an
    interval)."""

    name = "stone-game-ii"
    title = "Stone Game II"
    description = (
        "Take all the coins of the first X piles left, X from 1 to 2M, then M becomes the "
        "larger of M and X (M starts at 1); the larger total wins."
    )
    syntax = "stone-game-ii"
    pattern = "stone-game-ii"
    source = "LeetCode 1140 'Stone Game II'"
    engine = "search-dp"
    interval = False
    fast_path = False
    plain_positions = False
    stateful = True
    counted_moves = True
    sides = "L"
    take = None

    def moves_help(self) -> str:
        return "L1 to L(2M) take the first 1 to 2M piles; M starts at 1 and grows to X"

    def move_words(self, move: str) -> str:
        _, count = self.side_count(move)
        return f"take the first {count} pile{'s' if count != 1 else ''}"

    def start_state(self) -> tuple[int, ...]:
        """No pile gone, M = 1."""
        return (0, 1)

    def state_problem(self, state: object, n: int) -> str | None:
        """(piles gone, M) with 1 <= M <= the piles gone (M is the most piles one move took).

        >>> StoneGameII().state_problem((2, 3), 5)
        'M = 3 cannot follow 2 piles gone (1 <= M <= max(1, piles gone))'
        """
        problem = super().state_problem(state, n)
        if problem is not None or not isinstance(state, tuple):
            return problem
        if len(state) != 2:
            return f"a state of {self} is (piles gone, M), not {state!r}"
        gone, m = state
        if not 1 <= m <= max(1, gone):
            return f"M = {m} cannot follow {gone} piles gone (1 <= M <= max(1, piles gone))"
        return None

    def state_moves(self, state: tuple[int, ...], n: int) -> tuple[tuple[Move, int, Any], ...]:
        gone, m = state
        return tuple(
            (self.move(0, x), x, (gone + x, max(m, x))) for x in range(1, min(2 * m, n - gone) + 1)
        )


def syntax() -> str:
    """Every rule's text form, for messages (O(rules)).

    >>> syntax().split(", ")[:3]
    ['plain', 'circular', 'misere']
    """
    return rules_syntax()


def rules_pattern(*, interval: bool = False, served: bool = False, played: bool = False) -> str:
    """An anchored regular expression of every rule's text forms (only the rules with a
    table of subgames when ``interval``, whose positions a game holds when ``played``; what a
    server accepts when ``served``), built from the registry (O(rules)).

    >>> import re
    >>> bool(re.fullmatch(rules_pattern(), "take:3")), bool(re.fullmatch(rules_pattern(interval=True), "circular"))
    (True, False)
    """  # noqa: E501
    forms = (
        (rule.served or rule.pattern) if served else rule.pattern
        for rule in RULES.values()
        if (rule.interval or not interval) and (rule.positions or not played)
    )
    return f"^(?:{'|'.join(forms)})$"


def rules_syntax(*, interval: bool = False, served: bool = False, played: bool = False) -> str:
    """Every rule's text form for people, as :func:`rules_pattern` selects them (O(rules)).

    >>> rules_syntax(interval=True)
    'plain, misere, stone-game-vii, take:K, take:any, both-ends, front:K'
    """
    forms = []
    for rule in RULES.values():
        if (interval and not rule.interval) or (played and not rule.positions):
            continue
        forms.append(rule.served if served and rule.served else rule.syntax)
        if rule is Take:
            forms.append("take:any")
    return ", ".join(forms)


def coerce_rules(rules: object) -> Rules:
    """``None`` (the plain game), a :class:`Rules` or its text form, as :class:`Rules` (O(1)).

    >>> coerce_rules(None).is_plain, coerce_rules("both-ends")
    (True, Rules.parse('both-ends'))
    """
    return PLAIN if rules is None else Rules.parse(rules)


PLAIN = Rules()
