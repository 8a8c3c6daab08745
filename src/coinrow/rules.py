"""The rules of the game as a value: :class:`Rules` and its text form (docs/variants.md).

A :class:`Rules` is immutable, hashable and validated when made; its text form reads back
with :meth:`Rules.parse` (``str(Rules.parse(text))`` is the canonical spelling of ``text``):

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
=====================  ==========================================================================
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .errors import RulesError

Kind = Literal[
    "plain", "circular", "misere", "stone-game-vii", "take", "both-ends", "reply", "players"
]

#: Every kind of rules, in the order docs/variants.md describes them.
KINDS: tuple[Kind, ...] = (
    "plain",
    "circular",
    "misere",
    "stone-game-vii",
    "take",
    "both-ends",
    "reply",
    "players",
)

#: Kinds written without a parameter.
BARE_KINDS = ("plain", "circular", "misere", "stone-game-vii", "both-ends")

#: How a player of ``players:P`` chooses among moves that give them the same total.
TIE_BREAKS = ("left", "right", "spite")

#: Most players of ``players:P`` (each subgame keeps a total per player).
MAX_PLAYERS = 64

#: Largest ``K`` of ``take:K`` (``take:any`` covers any more).
MAX_TAKE = 10**6

#: The text forms, for messages.
SYNTAX = (
    "plain, circular, misere, stone-game-vii, take:K, take:any, both-ends, reply:STRATEGY, "
    "players:P[:left|:right|:spite]"
)

_STRATEGY = re.compile(r"[A-Za-z_][\w.]*(:[\w.:-]+)?")


@dataclass(frozen=True)
class Rules:
    """The rules of one game of coins in a line (O(1) to make and compare).

    ``take`` is the most coins one move takes (None: any number), ``strategy`` the second
    player's strategy of ``reply``, ``players`` and ``tie_break`` the seats and tie rule of
    ``players``. Make them from text with :meth:`parse`; the constructor checks the fields.

    >>> Rules.parse("take:2"), str(Rules.parse("players:3")), Rules.parse("MISERE").kind
    (Rules.parse('take:2'), 'players:3:left', 'misere')
    >>> Rules.parse("take:0")
    Traceback (most recent call last):
    ...
    coinrow.errors.RulesError: rules 'take:0': K must be a whole number from 1 to 1000000, or any
    """

    kind: Kind = "plain"
    take: int | None = 1
    strategy: str | None = None
    players: int = 2
    tie_break: str = "left"

    def __post_init__(self) -> None:
        kind = self.kind
        if kind not in KINDS:
            raise RulesError(f"unknown rules {kind!r}; choose one of: {SYNTAX}")
        take = self.take
        if kind == "take":
            if take is not None and (
                isinstance(take, bool) or not isinstance(take, int) or not 1 <= take <= MAX_TAKE
            ):
                raise RulesError(f"take must be None or an int from 1 to {MAX_TAKE}, not {take!r}")
        elif take != 1:
            raise RulesError(f"rules {kind!r} take one coin a move (take={take!r})")
        if kind == "reply":
            if not isinstance(self.strategy, str) or not _STRATEGY.fullmatch(self.strategy):
                raise RulesError(f"reply needs a strategy name, not {self.strategy!r}")
            if re.match(r"(optimal:)?random\b", self.strategy):
                raise RulesError(
                    f"reply:{self.strategy}: the opponent must be deterministic, not random"
                )
        elif self.strategy is not None:
            raise RulesError(f"rules {kind!r} take no strategy ({self.strategy!r})")
        players = self.players
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(f"players must be an int, not {players!r}")
        if kind == "players":
            if not 2 <= players <= MAX_PLAYERS:
                raise RulesError(f"players must be from 2 to {MAX_PLAYERS}, not {players}")
            if self.tie_break not in TIE_BREAKS:
                raise RulesError(
                    f"unknown tie-break {self.tie_break!r}; choose one of: {', '.join(TIE_BREAKS)}"
                )
        elif players != 2 or self.tie_break != "left":
            raise RulesError(f"rules {kind!r} are for two players, ties left")

    @classmethod
    def parse(cls, text: object) -> Rules:
        """Rules from their text form, case and surrounding spaces ignored (O(len(text))).

        >>> Rules.parse("take:any").take is None, Rules.parse("reply:greedy").strategy
        (True, 'greedy')
        >>> Rules.parse("pizza")
        Traceback (most recent call last):
        ...
        coinrow.errors.RulesError: unknown rules 'pizza'; choose one of: plain, circular, misere, stone-game-vii, take:K, take:any, both-ends, reply:STRATEGY, players:P[:left|:right|:spite]
        """  # noqa: E501
        if isinstance(text, Rules):
            return text
        if not isinstance(text, str):
            raise RulesError(f"rules must be text such as 'misere', not {text!r}")
        spelled = text.strip()
        name, colon, parameter = spelled.partition(":")
        name = name.lower()
        if name in BARE_KINDS:
            if colon:
                raise RulesError(f"rules {spelled!r}: {name} takes no parameter")
            return cls(name)  # type: ignore[arg-type]
        if name == "take":
            return cls("take", take=_take(parameter.lower(), spelled))
        if name == "reply":
            if not _STRATEGY.fullmatch(parameter):
                raise RulesError(
                    f"rules {spelled!r}: give the opponent's strategy, as reply:greedy"
                )
            return cls("reply", strategy=parameter)
        if name == "players":
            count, _, tie = parameter.lower().partition(":")
            if not count.isdigit() or not 2 <= int(count) <= MAX_PLAYERS:
                raise RulesError(
                    f"rules {spelled!r}: P must be a whole number from 2 to {MAX_PLAYERS}"
                )
            tie = tie or "left"
            if tie not in TIE_BREAKS:
                raise RulesError(
                    f"rules {spelled!r}: the tie-break must be one of {', '.join(TIE_BREAKS)}"
                )
            return cls("players", players=int(count), tie_break=tie)
        raise RulesError(f"unknown rules {spelled!r}; choose one of: {SYNTAX}")

    def __str__(self) -> str:
        """The canonical text form (O(1))."""
        if self.kind == "take":
            return f"take:{'any' if self.take is None else self.take}"
        if self.kind == "reply":
            return f"reply:{self.strategy}"
        if self.kind == "players":
            return f"players:{self.players}:{self.tie_break}"
        return self.kind

    def __repr__(self) -> str:
        return f"Rules.parse({str(self)!r})"

    @property
    def is_plain(self) -> bool:
        """True for the ordinary game (O(1))."""
        return self.kind == "plain"

    @property
    def two_player(self) -> bool:
        """True unless the rules seat more than two players (O(1))."""
        return self.players == 2

    def winners(self, totals: Sequence[Any]) -> tuple[int, ...]:
        """0-based seats of the players whose totals win: the smallest in the misère game,
        else the largest (O(p)).

        >>> Rules.parse("misere").winners([6, 2]), Rules.parse("players:3").winners([4, 4, 1])
        ((1,), (0, 1))
        """
        best = (min if self.kind == "misere" else max)(totals)
        return tuple(seat for seat, total in enumerate(totals) if total == best)

    @property
    def single_coin_moves(self) -> bool:
        """True when every move is ``L`` or ``R`` and takes one coin (O(1))."""
        return self.kind not in ("take", "both-ends")


def _take(parameter: str, spelled: str) -> int | None:
    if parameter == "any":
        return None
    if parameter.isdigit() and 1 <= int(parameter) <= MAX_TAKE:
        return int(parameter)
    raise RulesError(f"rules {spelled!r}: K must be a whole number from 1 to {MAX_TAKE}, or any")


def coerce_rules(rules: object) -> Rules:
    """``None`` (the plain game), a :class:`Rules` or its text form, as :class:`Rules` (O(1)).

    >>> coerce_rules(None).is_plain, coerce_rules("both-ends")
    (True, Rules.parse('both-ends'))
    """
    return Rules() if rules is None else Rules.parse(rules)


PLAIN = Rules()
