"""Opponent levels for players: plain names (Beginner … Perfect), each a built-in strategy,
with its strength measured by play: the points it loses per game against perfect play.

    >>> [level.name for level in LEVELS]
    ['Beginner', 'Casual', 'Club', 'Strong', 'Expert', 'Perfect']
    >>> strength("optimal", games=4)
    Fraction(0, 1)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from .numbers import random_row
from .rules import Rules, coerce_rules
from .solution import solve
from .strategies import RULES_AWARE, Optimal, get, plain_words, play


@dataclass(frozen=True)
class Level:
    """An opponent level: its key, plain name and built-in strategy."""

    key: str
    name: str
    strategy: str

    @property
    def description(self) -> str:
        """What the strategy does, in plain words (O(1))."""
        return plain_words(self.strategy)[1]


#: The levels, weakest first (checked by the tests with :func:`strength`).
LEVELS: tuple[Level, ...] = (
    Level("beginner", "Beginner", "random"),
    Level("casual", "Casual", "greedy"),
    Level("club", "Club", "lookahead:2"),
    Level("strong", "Strong", "erring:3"),
    Level("expert", "Expert", "lookahead:4"),
    Level("perfect", "Perfect", "optimal"),
)


def levels_for(rules: Rules | str | None = None) -> tuple[Level, ...]:
    """The levels that play under the rules, weakest first (O(levels)): every level in the
    plain game; under other rules the levels whose strategy plays them (Beginner: random,
    Casual: greedy, the move that scores most now, and Perfect: optimal; see
    :data:`~coinrow.strategies.RULES_AWARE`).

    >>> [level.key for level in levels_for("take:2")]
    ['beginner', 'casual', 'perfect']
    """
    chosen = coerce_rules(rules)
    if chosen.is_plain:
        return LEVELS
    return tuple(level for level in LEVELS if level.strategy.partition(":")[0] in RULES_AWARE)


#: The sample :func:`strength` plays on by default: rows of this many coins of these values.
SAMPLE_COINS, SAMPLE_VALUES, SAMPLE_SEED = 10, "1-9", 2026


def strength(
    strategy: str,
    *,
    games: int = 100,
    coins: int = SAMPLE_COINS,
    values: str = SAMPLE_VALUES,
    seed: int = SAMPLE_SEED,
) -> Fraction:
    """Mean points the strategy loses per game against perfect play: on ``games`` random rows
    (seeded), half moving first and half second, each game's loss is the optimal total of its
    seat minus what it took. O(games x (n^2 + n x the strategy's cost per move)).

    >>> strength("greedy", games=2, seed=1)
    Fraction(1, 2)
    """
    rng = random.Random(seed)
    lost = Fraction(0)
    for game in range(games):
        row = random_row(coins, values, rng.randrange(2**32))
        player = get(strategy, seed=rng.randrange(2**32), allow_user=False)
        solution = solve(row)
        if game % 2 == 0:
            lost += Fraction(solution.first_total - play(row, player, Optimal()).totals[0])
        else:
            lost += Fraction(solution.second_total - play(row, Optimal(), player).totals[1])
    return lost / games if games else Fraction(0)


def level_table(*, games: int = 100) -> list[dict[str, Any]]:
    """Every level with its plain description and measured ``loss`` (points per game against
    perfect play, rounded to 2 decimals) as JSON-ready dicts (O(levels x strength)).

    >>> level_table(games=2)[-1]
    {'key': 'perfect', 'name': 'Perfect', 'strategy': 'optimal', 'description': 'always a move that ends with the most possible', 'loss': '0.00', 'games': 2}
    """  # noqa: E501
    table = []
    for level in LEVELS:
        loss = strength(level.strategy, games=games)
        rounded = Decimal(loss.numerator) / Decimal(loss.denominator)
        table.append(
            {
                "key": level.key,
                "name": level.name,
                "strategy": level.strategy,
                "description": level.description,
                # a figure shown to two places ("0.00"), not an exact value: fixed-point text
                "loss": format(rounded.quantize(Decimal("0.01")), "f"),
                "games": games,
            }
        )
    return table
