"""Engines of the variants (docs/variants.md), one name for all of them: every engine lives in
its own module and is re-exported here, so a caller picks an engine by name from one place.

- :mod:`~coinrow.engines.interval`: one exact interval DP for every two-player interval
  variant (:class:`IntervalTable`, :func:`interval_solve`), what every variant engine returns
  (:class:`VariantResult`) and how a move changes an interval (:func:`advance`,
  :func:`replay`);
- :mod:`~coinrow.engines.circle`: the pizza, by one reduction per first slice or on the
  doubled row;
- :mod:`~coinrow.engines.negated`: the misère game and Stone Game VII, fast paths on the
  O(n) reduction;
- :mod:`~coinrow.engines.reply`: the best reply to a known opponent;
- :mod:`~coinrow.engines.players`: N players;
- :mod:`~coinrow.engines.search`: the general memoised search of rules whose positions are
  not intervals;
- :mod:`~coinrow.engines.costs`: what each of them costs (:func:`variant_cost`), with the
  plain engines' estimates.

Every engine expects a validated row (a :class:`coinrow.numbers.Row`) and runs inside
:func:`coinrow.numbers.exact_arithmetic`. The table of a variant as the model hands it out,
with its picture, is ``coinrow.Table(coins, rules=...)`` (:mod:`coinrow.tables`).
"""

from __future__ import annotations

from . import reduction
from .circle import circular_margins, circular_margins_fast, circular_solve, opened
from .costs import (
    CACHE_COINS,
    DEQUE_ENTRY_BYTES,
    OPPONENT_MOVE_SECONDS,
    POSITION_SOLVE_SECONDS,
    SOLVE_CODE_BYTES,
    TABLE_CODE_BYTES,
    VARIANT_SUBGAME_SECONDS,
    MoveCost,
    check_variant_bytes,
    check_variant_seconds,
    declared_cost,
    number_factor,
    position_solves_cost,
    reply_calls_seconds,
    size_text,
    variant_cost,
)
from .dispatch import PIZZA_KERNEL_MIN_LENGTH, REPLY_KERNEL_MIN_LENGTH
from .interval import (
    TAKE_MOVES_MAX_K,
    IntervalTable,
    VariantResult,
    advance,
    interval_solve,
    replay,
)
from .negated import misere_solve, stone_game_vii_solve
from .players import players_solve
from .reply import OPPONENTS, Opponent, greedy_opponent, reply_greedy_solve, reply_solve
from .search import SearchValues, search_solve, search_values

__all__ = [
    "CACHE_COINS",
    "DEQUE_ENTRY_BYTES",
    "OPPONENTS",
    "OPPONENT_MOVE_SECONDS",
    "PIZZA_KERNEL_MIN_LENGTH",
    "POSITION_SOLVE_SECONDS",
    "REPLY_KERNEL_MIN_LENGTH",
    "SOLVE_CODE_BYTES",
    "TABLE_CODE_BYTES",
    "TAKE_MOVES_MAX_K",
    "VARIANT_SUBGAME_SECONDS",
    "IntervalTable",
    "MoveCost",
    "Opponent",
    "SearchValues",
    "VariantResult",
    "advance",
    "check_variant_bytes",
    "check_variant_seconds",
    "circular_margins",
    "circular_margins_fast",
    "circular_solve",
    "declared_cost",
    "greedy_opponent",
    "interval_solve",
    "misere_solve",
    "number_factor",
    "opened",
    "players_solve",
    "position_solves_cost",
    "reduction",
    "replay",
    "reply_calls_seconds",
    "reply_greedy_solve",
    "reply_solve",
    "search_solve",
    "search_values",
    "size_text",
    "stone_game_vii_solve",
    "variant_cost",
]
