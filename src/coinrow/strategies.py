"""Strategies: functions from a :class:`~coinrow.game.Position` to a move ``"L"`` or ``"R"``.

Under other rules (docs/variants.md) a strategy gets a position under those rules and
returns one of its :meth:`~coinrow.game.Position.legal_moves`; the built-ins
:class:`Optimal`, :func:`greedy` and :class:`RandomStrategy` play every rules
(:data:`RULES_AWARE`), the others the plain game only and raise
:class:`~coinrow.errors.UnsupportedRulesError` naming both (as :func:`get` does with
``rules=``); the positions of ``reply:S`` are the plain game's, so every strategy plays
them.

Any callable ``strategy(position) -> "L" | "R"`` is a strategy; :func:`play` pits two of them
against each other. The built-ins are listed in :data:`BUILTINS` and built by name with
:func:`get` (``"greedy"``, ``"lookahead:3"``, ``"random:42"``, ``"optimal:right"``, or a user
function ``"module:function"``).
"""

from __future__ import annotations

import functools
import importlib
import os
import random as _random
import re
import sys
from collections.abc import Callable, Iterable, Sequence

from .engines import MAX_SECONDS, check_cost, estimated_solve_seconds
from .engines.dispatch import KERNEL_MIN_LENGTH, kernel_row
from .engines.variants import OPPONENT_MOVE_SECONDS, OPPONENTS, MoveCost, number_factor
from .errors import (
    InvalidOptionError,
    StrategyFailedError,
    StrategyParameterError,
    StrategyUnavailableError,
    UnknownStrategyError,
    UnsupportedRulesError,
)
from .game import MOVES, Game, Move, Position
from .numbers import Value, exact_arithmetic, exact_row, is_int_array, zero_like
from .play_values import PlayValues, check_opponent
from .rules import PLAIN, Rules, coerce_rules
from .subgames import Subgames, uses_table

Strategy = Callable[[Position], str]

#: The built-ins that play under every rules; the others play the plain game only.
RULES_AWARE = ("optimal", "greedy", "random")


def _plain_only(position: Position, name: str) -> None:
    """Refuse a position under other rules for a strategy of the plain game (O(1)); the
    positions of ``reply:S`` are the plain game's (S is any strategy), so they pass."""
    if not position.rules.plain_positions:
        raise UnsupportedRulesError(
            f"strategy {name!r} plays the plain game only, not the rules {position.rules} "
            f"(under other rules: {', '.join(RULES_AWARE)})"
        )


def is_deterministic(strategy: object) -> bool:
    """True when the strategy declares that its move is a function of the position alone,
    the same on every call (a ``deterministic`` attribute that is True) (O(1)).

    Every built-in declares it: ``optimal`` (ties left or right), ``greedy``, ``parity``,
    ``lookahead``, ``cooperative``, ``thibault``, ``thibault3``, and ``erring`` that never
    or always slips (0 or 100 percent) are deterministic; ``random``, ``optimal:random``
    and ``erring`` that slips sometimes are not, seeded or not (a seeded generator's moves
    depend on the order it is asked in, not on the position). A user strategy that does
    not declare ``deterministic = True`` counts as not deterministic.

    >>> is_deterministic(greedy), is_deterministic(get("random:7")), is_deterministic(get("erring:0"))
    (True, False, True)
    """  # noqa: E501
    return getattr(strategy, "deterministic", False) is True


def reply_opponent(rules: Rules | str | None, *, allow_user: bool = False) -> Strategy | None:
    """The second player of ``reply:S`` built by name, checked to be deterministic (see
    :func:`is_deterministic`); None for other rules and for the opponents the engines know
    (``greedy``) (O(1) for built-ins; imports a user module when ``allow_user``). Raises
    :class:`~coinrow.errors.UnsupportedRulesError` for an opponent that is not
    deterministic, naming the ones a ``reply`` accepts.

    >>> reply_opponent("reply:lookahead:2").__name__, reply_opponent("reply:greedy")
    ('lookahead(2)', None)
    >>> reply_opponent("reply:erring:50")
    Traceback (most recent call last):
    ...
    coinrow.errors.UnsupportedRulesError: rules reply:erring:50: the opponent must be deterministic (the engines ask it once per position, so an opponent whose move can vary gives no exact answer), and erring:50 is not; reply accepts optimal[:left|:right], greedy, parity, lookahead[:DEPTH], cooperative, thibault, thibault3, erring:0, erring:100, or a user strategy declaring deterministic = True
    """  # noqa: E501
    chosen = coerce_rules(rules)
    if not chosen.known_opponent or chosen.strategy in OPPONENTS:
        return None
    opponent = get(chosen.strategy or "", seed=0, allow_user=allow_user)
    check_opponent(opponent, chosen)
    return opponent


def play_values(coins: Sequence[object], rules: Rules | str | None) -> PlayValues:
    """The :class:`~coinrow.play_values.PlayValues` of a row under the rules, with the
    opponent of ``reply:S`` built by name when the engines do not know it
    (:func:`reply_opponent`) (O(n^2) for the interval variants' table, else O(1)).

    >>> play_values([3, 2, 10, 4], "reply:lookahead:2").rules
    Rules.parse('reply:lookahead:2')
    """
    chosen = coerce_rules(rules)
    return PlayValues(coins, chosen, opponent=reply_opponent(chosen))


class Optimal:
    """Perfect play: an optimal move, with ties (both moves optimal) broken ``"left"``,
    ``"right"`` or at ``"random"`` from a seeded generator (which advances only on ties).

    The strategy owns the :class:`~coinrow.subgames.Subgames` of the row it is playing (like
    a chess engine object owns its process): built on its first move in a row, kept while the
    positions come from that row, and freed with the strategy. O(1) per move after an O(n^2)
    table for rows up to :data:`~coinrow.subgames.TABLE_LIMIT` coins (and int rows the
    compiled kernel fills); O(n) per move (two reductions) for longer rows.

    >>> Optimal()(Position.start([8, 15, 3, 7]))
    'R'
    >>> Optimal()(Position.start([1, 2, 4, 3])), Optimal("right")(Position.start([1, 2, 4, 3]))
    ('L', 'R')

    Under other rules it plays :meth:`~coinrow.game.Position.best_moves` (the first of
    them, the last for ``right``, or one at random) from the row's
    :func:`play_values`, kept like the table:

    >>> Optimal()(Position.start([1, 2, 3, 4], rules="take:2"))
    'R2'
    """

    def __init__(self, ties: str = "left", seed: int | None = None) -> None:
        if ties not in TIE_RULES:
            raise StrategyParameterError(
                f"optimal breaks ties {', '.join(TIE_RULES)}, got {ties!r}"
            )
        self.ties = ties
        self.rng = _random.Random(seed)
        self.subgames: Subgames | None = None
        self._row: tuple[Value, ...] | None = None
        self.values: PlayValues | None = None
        self._values_row: tuple[Value, ...] | None = None

    @property
    def deterministic(self) -> bool:
        """True unless ties are broken at random (:func:`is_deterministic`)."""
        return self.ties != "random"

    def move_cost(self, coins: Sequence[Value]) -> MoveCost:
        """What its moves cost in a game on this row (:func:`move_cost`)."""
        return move_cost("optimal", coins)

    def attach(self, subgames: Subgames) -> None:
        """Use ``subgames`` (the caller's, already built) for positions of its row (O(1))."""
        self.subgames, self._row = subgames, subgames.coins

    def subgames_for(self, coins: tuple[Value, ...]) -> Subgames:
        """The row's :class:`~coinrow.subgames.Subgames`, built on the first move in a new row
        (O(1) while the positions share the row's tuple, as in one game)."""
        if coins is not self._row or self.subgames is None:
            if self.subgames is None or self.subgames.coins != coins:
                self.subgames = Subgames(coins)
            self._row = coins
        return self.subgames

    def values_for(self, position: Position) -> PlayValues:
        """The :class:`~coinrow.play_values.PlayValues` of the position's row and rules,
        built on the first move in a new row (O(1) while the row and rules stay)."""
        values = self.values
        if (
            values is None
            or values.rules != position.rules
            or (position.coins is not self._values_row and values.coins != position.coins)
        ):
            values = self.values = play_values(position.coins, position.rules)
        self._values_row = position.coins
        return values

    def attach_values(self, values: PlayValues) -> None:
        """Use ``values`` (the caller's, already built) for positions of its row and rules
        (O(1))."""
        self.values, self._values_row = values, values.coins

    def __call__(self, position: Position) -> str:
        if position.rules is not PLAIN:
            best = position.best_moves(values=self.values_for(position))
            if self.ties == "random" and len(best) > 1:
                return self.rng.choice(best)
            return best[-1] if self.ties == "right" else best[0]
        moves = self.subgames_for(position.coins).moves_of(position.lo, position.hi)
        if len(moves) == 1:
            return moves[0]
        if self.ties == "random":
            return self.rng.choice(MOVES)
        return "L" if self.ties == "left" else "R"

    def __repr__(self) -> str:
        return f"Optimal({self.ties!r})"


#: How :class:`Optimal` breaks ties.
TIE_RULES = ("left", "right", "random")


def greedy(position: Position) -> str:
    """Take the larger end coin, left on equality (O(1)).

    Under other rules: the legal move that scores the most now (the coins it takes; the
    fewest in the misère game; Stone Game VII's points, the coins it leaves; the largest
    first slice of the pizza), the first in the engines' order on equality (O(moves x coins
    a move takes)).

    >>> greedy(Position.start([8, 15, 3, 7]))
    'L'
    >>> greedy(Position.start([1, 2, 3, 4], rules="take:any")), greedy(Position.start([5, 1, 2], rules="misere"))
    ('L4', 'R')
    """  # noqa: E501
    if position.rules is not PLAIN:
        return _greedy_under_rules(position)
    return "L" if position.coins[position.lo] >= position.coins[position.hi] else "R"


def _greedy_under_rules(position: Position) -> str:
    coins, rules = position.coins, position.rules
    zero = zero_like(list(coins[:1]))
    left = sum(position.remaining, zero)
    best_move, best_score = "", zero
    with exact_arithmetic():
        for move in position.legal_moves():
            taken = sum((coins[index] for index in position.indices_of(move)), zero)
            score = rules.greedy_score(taken, left - taken)
            if not best_move or score > best_score:
                best_move, best_score = move, score
    return best_move


def _parity_sums(coins: Sequence[Value]) -> tuple[Value, Value]:
    zero = zero_like(coins)  # O(1): the first coin tells the family
    with exact_arithmetic():
        return sum(coins[0::2], zero), sum(coins[1::2], zero)


def parity(position: Position) -> str:
    """The odd/even-position strategy (O(n)).

    For an even row the player keeps every coin of the group (even or odd indices of the
    starting row) with the larger sum, even group on equality: with an even number of coins
    left the two ends lie in different groups, so the end of the chosen group is always
    available. When the position does not allow it (an odd row, or an odd number of coins
    left on this player's turn) it falls back to :func:`greedy`.

    >>> parity(Position.start([3, 2, 2, 3, 1, 2]))
    'R'
    """
    _plain_only(position, "parity")
    n = len(position.coins)
    remaining = position.hi - position.lo + 1
    if n % 2 or remaining % 2:
        return greedy(position)
    even, odd = _parity_sums(position.coins)
    group = 0 if even >= odd else 1
    return "L" if position.lo % 2 == group else "R"


def lookahead(depth: int) -> Strategy:
    """Depth-limited minimax on the margin: the move that maximises (coins the mover takes)
    minus (coins the opponent takes) over the next ``depth`` moves, both sides playing that
    way; what lies beyond the horizon counts 0. Left on ties.

    ``lookahead(0)`` always takes the left coin, ``lookahead(1)`` is :func:`greedy`, and a
    depth of at least the coins left is optimal. O(min(depth, m)^2) per move with m coins left
    (the subgames within the horizon are shared, not re-searched).

    >>> [lookahead(k)(Position.start([2, 9, 1, 1])) for k in (0, 1, 2, 4)]
    ['L', 'L', 'R', 'R']
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise StrategyParameterError(f"lookahead depth must be an integer >= 0, got {depth!r}")

    def strategy(position: Position) -> Move:
        if position.rules is not PLAIN:
            _plain_only(position, f"lookahead:{depth}")
        coins, lo, hi = position.coins, position.lo, position.hi
        horizon = min(depth, hi - lo + 1)
        if horizon == 0:
            return "L"
        zero = zero_like(list(coins[lo : lo + 1]))
        # layer[a]: best margin for the mover in the subgame lo+a..hi-(t-a), t moves deep.
        layer = [zero] * (horizon + 1)
        with exact_arithmetic():
            for t in range(horizon - 1, 0, -1):
                layer = [
                    max(coins[lo + a] - layer[a + 1], coins[hi - t + a] - layer[a])
                    for a in range(t + 1)
                ]
            return "L" if coins[lo] - layer[1] >= coins[hi] - layer[0] else "R"

    strategy.__name__ = strategy.__qualname__ = f"lookahead({depth})"
    vars(strategy)["deterministic"] = True
    vars(strategy)["move_cost"] = functools.partial(move_cost, f"lookahead:{depth}")
    return strategy


class RandomStrategy:
    """A uniformly random legal move from a seeded generator (O(1)).

    >>> s = RandomStrategy(seed=42)
    >>> "".join(s(Position.start([1, 2, 3])) for _ in range(6))
    'LLRLLL'

    Under other rules: one of :meth:`~coinrow.game.Position.legal_moves` (O(moves)).
    """

    #: Its moves vary, seeded or not (:func:`is_deterministic`).
    deterministic = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = _random.Random(seed)

    def move_cost(self, coins: Sequence[Value]) -> MoveCost:
        """What its moves cost in a game on this row (:func:`move_cost`)."""
        return move_cost("random", coins)

    def __call__(self, position: Position) -> str:
        if position.rules is not PLAIN:
            return self.rng.choice(position.legal_moves())
        return self.rng.choice(MOVES)


class Erring:
    """Perfect play that slips: with probability ``chance`` it takes the other end instead of
    an optimal one (from a seeded generator), so its strength can be set (O(1) per move after
    the O(n^2) table of :class:`Optimal`).

    >>> Erring(0.0)(Position.start([8, 15, 3, 7])), Erring(1.0)(Position.start([8, 15, 3, 7]))
    ('R', 'L')
    """

    def __init__(self, chance: float, seed: int | None = None) -> None:
        if not 0.0 <= chance <= 1.0:
            raise StrategyParameterError(f"the chance of a slip is 0 to 1, got {chance}")
        self.chance = chance
        self.rng = _random.Random(seed)
        self.optimal = Optimal()
        self.__name__ = f"erring({chance:g})"
        #: Only a slip that never or always happens is a function of the position.
        self.deterministic = chance in (0.0, 1.0)

    def move_cost(self, coins: Sequence[Value]) -> MoveCost:
        """What its moves cost in a game on this row (:func:`move_cost`)."""
        return move_cost("erring", coins)

    def __call__(self, position: Position) -> str:
        _plain_only(position, self.__name__)
        best = self.optimal(position)
        if position.lo < position.hi and self.rng.random() < self.chance:
            return "R" if best == "L" else "L"
        return best


#: Measured seconds per subgame of one cooperative sweep on small ints, 2-core machine:
#: through Python, and in the compiled kernel (int64-safe int rows of
#: :data:`~coinrow.engines.dispatch.KERNEL_MIN_LENGTH` coins or more).
SWEEP_SECONDS = {"python": 1.6e-7, "compiled": 0.22e-9}

#: Measured seconds of the parts of a strategy's move on small ints (CPU time, 2-core
#: machine): ``move``, a move decided in O(1), its position built (greedy, random);
#: ``table-move``, optimal's or erring's move read from the row's table; ``rule``, an exact
#: comparison of sums (parity's groups, thibault's rules 2 and 3); ``coin``, a coin summed
#: (parity's groups of the row, thibault's of the coins left); ``lookahead``, its fixed work,
#: and ``lookahead-cell``, a subgame of its layers; ``cooperative``, the fixed work of its two
#: sweeps (each subgame at :data:`SWEEP_SECONDS`); ``play``, what :func:`play` adds a move.
MOVE_SECONDS = {
    "move": OPPONENT_MOVE_SECONDS,
    "table-move": 1.9e-6,
    "rule": 1.2e-6,
    "coin": 4e-9,
    "lookahead": 4e-6,
    "lookahead-cell": 0.2e-6,
    "cooperative": 24e-6,
    "play": 1.0e-6,
}


def move_cost(name: str, coins: Sequence[Value], *, limit: float | None = None) -> MoveCost:
    """What the moves of the built-in strategy ``name`` cost in a game on the validated row
    ``coins`` (O(n) to build: the numbers' size; O(1) a move), a
    :class:`~coinrow.engines.variants.MoveCost`: with m coins left ``cooperative`` sweeps
    them twice (O(m^2); compiled from 1,000 int64-safe ints), ``lookahead:D`` fills about
    min(D, m)^2 / 2 subgames, ``parity`` sums the row (O(n), with an even number of coins left
    of an even row), ``thibault`` and ``thibault3`` the coins left (O(m), with an even number
    left); ``optimal`` and ``erring`` build the row's table once (O(n^2)) and then move in O(1),
    or by peak reductions of the coins left (O(m)) on rows too long for a table; ``greedy``
    and ``random`` move in O(1). Every built-in carries it as its ``move_cost(coins)``, which
    ``reply`` asks of its opponent.

    >>> cost = move_cost("cooperative", [1] * 500)
    >>> cost.move(500) > 100 * cost.move(20) > 0, cost.once
    (True, 0.0)
    """
    n = len(coins)
    base, _, parameter = name.strip().partition(":")
    factor = number_factor(coins, limit)
    call, per_coin = MOVE_SECONDS["move"], MOVE_SECONDS["coin"] * factor
    if base == "cooperative":
        threshold = KERNEL_MIN_LENGTH["cooperative"] or 0  # short rows: no NumPy looked at
        compiled = n > threshold and kernel_row(list(coins), threshold) is not None

        def sweeps(m: int) -> float:  # two sweeps of m - 1 coins: m (m - 1) subgames
            rate = SWEEP_SECONDS["compiled" if compiled and m - 1 >= threshold else "python"]
            return MOVE_SECONDS["cooperative"] + m * (m - 1) * rate * (1 if compiled else factor)

        return MoveCost(0.0, sweeps)
    if base == "lookahead":
        depth = int(parameter) if parameter.isdigit() else DEFAULT_LOOKAHEAD
        cell = MOVE_SECONDS["lookahead-cell"] * factor

        def layers(m: int) -> float:
            horizon = min(depth, m)
            return MOVE_SECONDS["lookahead"] + horizon * (horizon + 1) // 2 * cell

        return MoveCost(0.0, layers)
    rule = MOVE_SECONDS["rule"]
    if base == "parity":
        groups = rule + n * per_coin  # with an even number of coins left of an even row
        return MoveCost(0.0, lambda m: call + (groups if n % 2 == m % 2 == 0 else 0.0))
    if base in ("thibault", "thibault3"):
        local_loss = rule if base == "thibault3" else 0.0
        return MoveCost(0.0, lambda m: call + local_loss + (rule + m * per_coin) * (m % 2 == 0))
    if base in ("optimal", "erring") and n:
        read = MOVE_SECONDS["table-move"]
        if uses_table(coins):
            return MoveCost(estimated_solve_seconds(coins, "table", limit=limit), lambda m: read)
        reduction = estimated_solve_seconds(coins, "reduction", limit=limit) / n
        return MoveCost(0.0, lambda m: read + m * reduction)
    return MoveCost(0.0, lambda m: call)


def move_seconds(name: str, coins: Sequence[Value]) -> float:
    """Estimated seconds of one move of the built-in strategy ``name`` on a validated row of
    the coins left (O(n): see :func:`move_cost`; ``optimal``'s table is the game's, see
    :func:`game_seconds`). The web asks this before a move.

    >>> move_seconds("cooperative", [1] * 500) > 1000 * move_seconds("greedy", [1] * 500) > 0
    True
    """
    return move_cost(name, coins).move(len(coins))


def game_seconds(coins: Sequence[Value], first: str, second: str) -> float:
    """Estimated seconds of :func:`play` between the built-ins ``first`` and ``second`` on
    a validated row (O(n)): each seat's moves by :func:`move_cost` at the lengths it moves
    at, once its table for ``optimal`` and ``erring``, and what :func:`play` adds a move.
    The web asks this before a duel.

    >>> game_seconds([1] * 300, "cooperative", "optimal") > game_seconds([1] * 300, "greedy", "optimal")
    True
    """  # noqa: E501
    n = len(coins)
    seconds = n * MOVE_SECONDS["play"]
    for seat, name in enumerate((first, second)):
        cost = move_cost(name, coins)
        seconds += cost.once + sum(cost.move(m) for m in range(n - seat, 0, -2))
    return seconds


def _cooperative_sweep(coins: Sequence[Value]) -> Value:
    """F(i, j) = max(a_i + G(i+1, j), a_j + G(i, j-1)) on the first player's turns and
    G(i, j) = max(F(i+1, j), F(i, j-1)) on the other's, one diagonal kept (O(n^2), O(n))."""
    row = coins if is_int_array(coins) else kernel_row(coins, KERNEL_MIN_LENGTH["cooperative"])
    if row is not None:
        from .engines.kernels import cooperative as compiled

        return int(compiled(row))
    n = len(coins)
    check_cost(
        coins, "linear", max_seconds=MAX_SECONDS, what=f"the cooperative sweep of {n:,} coins"
    )
    zero = zero_like(list(coins))
    # best[i] is the first player's best collection from the subgame i..i+width-1.
    best = [zero] * (n + 1)
    for width in range(1, n + 1):
        first_moves = (n - width) % 2 == 0
        best = [
            max(coins[i] + best[i + 1], coins[i + width - 1] + best[i])
            if first_moves
            else max(best[i + 1], best[i])
            for i in range(n - width + 1)
        ]
    return best[0]


@exact_row
def cooperative_total(coins: Sequence[Value]) -> Value:
    """Most the first player can collect with a cooperating opponent, one who can be made to
    pick any way (O(n^2) time, O(n) memory; long int64-safe rows run the same sweep in a
    compiled kernel).

    >>> cooperative_total([3, 2, 2, 3, 1, 2]), cooperative_total([1, 100, 1])
    (8, 101)
    """
    return _cooperative_sweep(coins)


def cooperative(position: Position) -> Move:
    """The manipulable ("dumb") opponent of the seeds: hands the other player the most.

    It moves to the subgame in which the player to move next can collect the most when both
    players play for that player (:func:`~coinrow.cooperative_total` of the coins left), left on
    ties. So the other player, answering with its best response, collects exactly the
    cooperative total: ``cooperative_total(coins)`` when ``cooperative`` plays second. O(m^2)
    per move with m coins left.

    >>> cooperative(Position.start([1, 100, 1]).play("L"))
    'R'
    """
    _plain_only(position, "cooperative")
    coins, lo, hi = position.coins, position.lo, position.hi
    with exact_arithmetic():
        after_left = _cooperative_sweep(coins[lo + 1 : hi + 1])
        after_right = _cooperative_sweep(coins[lo:hi])
    return "L" if after_left >= after_right else "R"


def _larger_end_rule(position: Position) -> Move | None:
    """Thibault's rule 1: the larger end, when the ends differ and it beats its neighbour."""
    coins, lo, hi = position.coins, position.lo, position.hi
    if lo == hi:
        return "L"
    left, right = coins[lo], coins[hi]
    if left > right and left > coins[lo + 1]:
        return "L"
    if right > left and right > coins[hi - 1]:
        return "R"
    return None


def _group_rule(position: Position) -> Move | None:
    """Thibault's rule 2: the end of the alternating group (of the coins left) with the larger
    total. Only with an even number of coins left: an odd number puts both ends in one group."""
    coins, lo, hi = position.coins, position.lo, position.hi
    if (hi - lo + 1) % 2:
        return None
    zero = zero_like(list(coins[lo : lo + 1]))
    with exact_arithmetic():
        left_group = sum(coins[lo : hi + 1 : 2], zero)
        right_group = sum(coins[lo + 1 : hi + 1 : 2], zero)
    if left_group == right_group:
        return None
    return "L" if left_group > right_group else "R"


def _local_loss_rule(position: Position) -> Move | None:
    """Thibault's rule 3: maximise the coin taken minus the larger end left to the opponent."""
    coins, lo, hi = position.coins, position.lo, position.hi
    with exact_arithmetic():
        left = coins[lo] - max(coins[lo + 1], coins[hi])
        right = coins[hi] - max(coins[lo], coins[hi - 1])
    if left == right:
        return None
    return "L" if left > right else "R"


def thibault(position: Position) -> Move:
    """Thibault Vroonhove's conjectured rules from the greedy-coins blog (O(m), m coins left).

    1. If the end coins differ and the larger is also larger than its neighbour, take it.
    2. Otherwise, with an even number of coins left, split them into alternating positions
       (the groups of the left and of the right end) and take the end of the group with the
       larger total.
    3. Otherwise take the left coin.

    It is not optimal: on ``2 1 2 3 3 3`` it takes the 2 and ties 7-7, where the 3 wins 8-6.

    >>> thibault(Position.start([2, 1, 2, 3, 3, 3])), thibault(Position.start([1, 5, 2, 4]))
    ('L', 'R')
    """
    _plain_only(position, "thibault")
    return _larger_end_rule(position) or _group_rule(position) or "L"


def thibault3(position: Position) -> Move:
    """:func:`thibault` with a third rule before the fallback: take the end that maximises the
    coin taken minus the larger of the two ends it leaves to the opponent (O(m)).

    Not optimal either: on ``2 1 2 5 5 3`` it takes the 2 (2 - 3 > 3 - 5) and ties 9-9, where
    the 3 wins 10-8.

    >>> thibault3(Position.start([2, 1, 2, 5, 5, 3]))
    'L'
    """
    _plain_only(position, "thibault3")
    return _larger_end_rule(position) or _group_rule(position) or _local_loss_rule(position) or "L"


def play(
    coins: Sequence[object],
    first: Strategy,
    second: Strategy,
    *others: Strategy,
    rules: Rules | str | None = None,
) -> Game:
    """Play a whole game between two strategies (O(n) calls of the strategies); under
    ``players:P`` give one strategy per seat.

    >>> play([8, 15, 3, 7], greedy, Optimal()).line
    'LLRL'
    >>> play([1, 2, 3, 4, 5], greedy, RandomStrategy(1), Optimal(), rules="players:3").totals
    (8, 3, 4)
    """
    chosen = coerce_rules(rules)
    seats = (first, second, *others)
    if len(seats) != chosen.players:
        raise UnsupportedRulesError(
            f"rules {chosen} seat {chosen.players} players; {len(seats)} strategies given"
        )
    game = Game(coins, rules=chosen)
    if chosen.is_plain:
        while not game.position.is_over:
            mover = first if game.position.turn == "first" else second
            game.push(mover(game.position))
        return game
    while not game.position.is_over:
        game.push(seats[game.position.seat](game.position))
    return game


def answer(game: Game, strategy: Strategy, *, seat: int | None) -> tuple[str, ...]:
    """Play ``strategy`` on ``game`` (in place) for every seat but ``seat`` while one of them
    is to move, and return the moves it played: a computer's answer to a person at ``seat``
    (``None``: people sit at every seat, so nothing is played). O(moves played x the
    strategy's cost per move).

    >>> game = Game([8, 15, 3, 7], "R")
    >>> answer(game, Optimal(), seat=0), game.line
    (('L',), 'RL')
    >>> game = Game([1, 2, 3, 4, 5], rules="players:3")
    >>> answer(game, greedy, seat=2), game.position.seat
    (('R', 'R'), 2)
    """
    played: list[str] = []
    if seat is None:
        return ()
    while not game.position.is_over and game.position.seat != seat:
        move = strategy(game.position)
        game.push(move)
        played.append(game.moves[-1])
    return tuple(played)


@exact_row
def greedy_total(coins: Sequence[Value]) -> Value:
    """What the first player gets by greedy (larger end) play against an optimal opponent
    (O(n^2): the opponent's moves come from one table).

    >>> greedy_total([8, 15, 3, 7])
    15
    """
    return play(coins, greedy, Optimal()).totals[0]


@exact_row
def parity_total(coins: Sequence[Value]) -> Value:
    """What the first player surely gets by the odd/even-position strategy (O(n)).

    Only for an even number of coins: the first player takes every coin of the group with the
    larger sum whatever the opponent does. For an odd row the strategy is not available.

    >>> parity_total([3, 2, 2, 3, 1, 2])
    7
    """
    if len(coins) % 2:
        raise StrategyUnavailableError(
            f"the odd/even-position strategy needs an even number of coins (got {len(coins)}): "
            "with an odd row the opponent can always take from either group, so it does not "
            "even guarantee a draw"
        )
    return max(_parity_sums(coins))


for _function in (greedy, parity, cooperative, thibault, thibault3):
    vars(_function)["deterministic"] = True  # a function of the position (is_deterministic)
    vars(_function)["move_cost"] = functools.partial(move_cost, _function.__name__)

#: Built-in strategies by name: the parameter syntax and a one-line description.
BUILTINS: dict[str, tuple[str, str]] = {
    "optimal": (
        "optimal[:left|:right|:random[:SEED]]",
        "perfect play; ties broken left (default), right or at random",
    ),
    "greedy": ("greedy", "take the larger end coin (left on equality)"),
    "parity": ("parity", "odd/even positions of the starting row; greedy when unavailable"),
    "lookahead": ("lookahead[:DEPTH]", "minimax on the margin DEPTH moves deep (default 2)"),
    "random": ("random[:SEED]", "a uniformly random move"),
    "cooperative": ("cooperative", "hands the opponent the most (the manipulable opponent)"),
    "thibault": ("thibault", "larger end if above its neighbour, else richer alternate group"),
    "thibault3": ("thibault3", "thibault plus the local-loss rule before the fallback"),
    "erring": ("erring[:PERCENT[:SEED]]", "perfect play that slips PERCENT% of the time (10)"),
}

#: Every built-in in plain words, for players: a name a person can read and one line.
PLAIN_WORDS: dict[str, tuple[str, str]] = {
    "optimal": ("Perfect", "always a move that ends with the most possible"),
    "greedy": ("Bigger coin", "always takes the larger of the two end coins"),
    "parity": ("Odd or even", "takes every coin in the odd places, or every one in the even "
               "places, whichever adds up to more"),
    "lookahead": ("Looks ahead", "thinks a few moves ahead and takes what looks best from there"),
    "random": ("Coin toss", "takes either end at random"),
    "cooperative": ("Generous", "plays to hand its opponent as much as possible"),
    "thibault": ("Neighbour rule", "takes the larger end when it beats the coin next to it, else "
                 "the richer of the odd and even places"),
    "thibault3": ("Neighbour rule plus", "the neighbour rule, then the end that leaves the "
                  "opponent the smaller end coin"),
    "erring": ("Slips now and then", "plays perfectly but sometimes takes the wrong end"),
}  # fmt: skip

#: Default chance, in percent, that ``erring`` takes the wrong end.
DEFAULT_ERRING = 10


def plain_words(name: str) -> tuple[str, str]:
    """A strategy's plain-words name and one-line description, parameter included (O(1)).

    >>> plain_words("lookahead:3")
    ('Looks ahead (3 moves)', 'thinks a few moves ahead and takes what looks best from there')
    >>> plain_words("erring:25")[0]
    'Slips now and then (25%)'
    """
    base, _, parameter = name.strip().partition(":")
    if base not in PLAIN_WORDS:
        raise UnknownStrategyError(
            f"unknown strategy {name!r}; choose one of: {', '.join(names())}"
        )
    title, line = PLAIN_WORDS[base]
    if base == "lookahead":
        title += f" ({parameter or DEFAULT_LOOKAHEAD} moves)"
    elif base == "erring":
        title += f" ({parameter.partition(':')[0] or DEFAULT_ERRING}%)"
    return title, line


#: Default depth of ``lookahead`` when the name gives none.
DEFAULT_LOOKAHEAD = 2

_PLAIN: dict[str, Strategy] = {
    "greedy": greedy,
    "parity": parity,
    "cooperative": cooperative,
    "thibault": thibault,
    "thibault3": thibault3,
}


def distinct(strategies: Iterable[str], *, parameter: str) -> tuple[str, ...]:
    """The strategy names, stripped, each given once: a name given twice is refused with an
    :class:`~coinrow.errors.InvalidOptionError` about ``parameter`` (O(k log k)).

    >>> distinct([" greedy", "optimal"], parameter="names")
    ('greedy', 'optimal')
    """
    stripped = tuple(name.strip() for name in strategies)
    repeated = sorted({name for name in stripped if stripped.count(name) > 1})
    if repeated:
        raise InvalidOptionError(
            f"strategy given twice: {', '.join(repeated)}", parameter=parameter
        )
    return stripped


def names() -> list[str]:
    """The built-in strategy names with their parameter syntax (O(1)).

    >>> names()[:3]
    ['optimal[:left|:right|:random[:SEED]]', 'greedy', 'parity']
    """
    return [syntax for syntax, _ in BUILTINS.values()]


def _choices() -> str:
    return ", ".join(names()) + ", or module:function"


def _integer(text: str, what: str, name: str) -> int:
    if not re.fullmatch(r"[+-]?[0-9]+", text.strip(" \t\n\r\f\v")):  # ASCII, as coins
        raise StrategyParameterError(f"{name}: {what} must be an integer, got {text!r}")
    return int(text)


def get(
    name: str,
    seed: int | None = None,
    *,
    allow_user: bool = True,
    rules: Rules | str | None = None,
) -> Strategy:
    """The strategy called ``name`` (O(1) for built-ins; imports the module otherwise).

    Parameters follow a colon: ``lookahead:3``, ``random:42``, ``optimal:right``,
    ``optimal:random:7``. ``seed`` seeds the random strategies whose name gives no seed
    (``None``: fresh entropy). Any other ``module:function`` imports a user strategy (the
    current directory is searched too) unless ``allow_user`` is false (a server must never
    import code named by its clients). Unknown names raise
    :class:`~coinrow.errors.UnknownStrategyError` listing the choices. With ``rules`` other
    than the plain game's, a built-in that does not play them (see :data:`RULES_AWARE`)
    raises :class:`~coinrow.errors.UnsupportedRulesError` naming both.

    >>> get("greedy") is greedy, get("lookahead:3").__name__
    (True, 'lookahead(3)')
    >>> get("magic")
    Traceback (most recent call last):
    ...
    coinrow.errors.UnknownStrategyError: unknown strategy 'magic'; choose one of: optimal[:left|:right|:random[:SEED]], greedy, parity, lookahead[:DEPTH], random[:SEED], cooperative, thibault, thibault3, erring[:PERCENT[:SEED]], or module:function
    """  # noqa: E501
    base, _, parameter = name.strip().partition(":")
    chosen = coerce_rules(rules)
    if not chosen.plain_positions and base in BUILTINS and base not in RULES_AWARE:
        raise UnsupportedRulesError(
            f"strategy {name!r} plays the plain game only, not the rules {chosen} "
            f"(under other rules: {', '.join(RULES_AWARE)})"
        )
    if base in _PLAIN:
        if parameter:
            raise StrategyParameterError(f"strategy {base!r} takes no parameter ({name!r})")
        return _PLAIN[base]
    if base == "optimal":
        return _optimal_by_ties(parameter, seed, name)
    if base == "lookahead":
        depth = _integer(parameter, "the depth", name) if parameter else DEFAULT_LOOKAHEAD
        return lookahead(depth)
    if base == "random":
        return RandomStrategy(_integer(parameter, "the seed", name) if parameter else seed)
    if base == "erring":
        percent_text, _, erring_seed = parameter.partition(":")
        percent = _integer(percent_text, "the percent", name) if percent_text else DEFAULT_ERRING
        if not 0 <= percent <= 100:
            raise StrategyParameterError(f"{name!r}: the percent is 0 to 100, got {percent}")
        return Erring(
            percent / 100, _integer(erring_seed, "the seed", name) if erring_seed else seed
        )
    if parameter and base and allow_user:
        return _import_strategy(base, parameter)
    choices = _choices() if allow_user else ", ".join(names())
    raise UnknownStrategyError(f"unknown strategy {name!r}; choose one of: {choices}")


def _optimal_by_ties(parameter: str, seed: int | None, name: str) -> Strategy:
    ties, _, ties_seed = parameter.partition(":")
    ties = ties or "left"
    if ties not in TIE_RULES or (ties_seed and ties != "random"):
        raise StrategyParameterError(
            f"{name!r}: optimal breaks ties left, right or random[:SEED], got {parameter!r}"
        )
    return Optimal(ties, _integer(ties_seed, "the seed", name) if ties_seed else seed)


def _import_strategy(module_name: str, attribute: str) -> Strategy:
    """Import ``module:function``, looking in the current directory too."""
    added = os.getcwd() not in sys.path
    if added:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # the user's module may fail in any way while importing
        raise UnknownStrategyError(
            f"cannot import strategy module {module_name!r} ({type(error).__name__}: {error}); "
            f"built-in strategies: {_choices()}"
        ) from None
    finally:
        if added:
            sys.path.remove(os.getcwd())
    strategy = getattr(module, attribute, None)
    if not callable(strategy):
        raise UnknownStrategyError(
            f"module {module_name!r} has no callable {attribute!r} to use as a strategy"
        )
    return _guarded(strategy, f"{module_name}:{attribute}")


def _guarded(strategy: Callable[[Position], object], name: str) -> Strategy:
    """A user strategy whose failures become :class:`StrategyFailedError` (a clear error
    instead of a traceback from someone else's code)."""

    @functools.wraps(strategy)
    def call(position: Position) -> Move:
        try:
            return strategy(position)  # type: ignore[return-value]
        except Exception as error:
            raise StrategyFailedError(
                f"strategy {name} failed at {position!r}: {type(error).__name__}: {error}"
            ) from error

    return call
