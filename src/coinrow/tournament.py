"""Tournaments: every pair of strategies on the same random rows, in both seat orders.

:func:`tournament` reports win/tie/loss rates, mean margins and mean regret (the points a
strategy's own moves gave away, from :func:`~coinrow.analysis.analyze`). :class:`Tournament`
plays the same tournament one row at a time, so a caller can show progress and stop at any
row boundary with the results so far.
"""

from __future__ import annotations

import itertools
import random
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .analysis import analyze
from .errors import InvalidOptionError, UnsupportedRulesError, concerning
from .numbers import Value, ValueSpec, exact_arithmetic, json_fields
from .play_values import PlayValues
from .rules import PLAIN, Rules, coerce_rules
from .strategies import Optimal, distinct, get, play, play_values
from .subgames import Subgames

Progress = Callable[[int], None]


@dataclass
class PairResult:
    """Games between ``strategy`` and ``opponent`` (both seat orders), seen from ``strategy``.

    Sums are exact; the means and rates are floats for reporting."""

    strategy: str
    opponent: str
    games: int = 0
    wins: int = 0
    ties: int = 0
    losses: int = 0
    margin_sum: Value = 0
    regret_sum: Value = 0
    opponent_regret_sum: Value = 0

    def _mean(self, total: Value) -> float:
        return float(Fraction(total) / self.games) if self.games else 0.0

    @property
    def mean_margin(self) -> float:
        """Mean of (strategy's total - opponent's total) (O(1))."""
        return self._mean(self.margin_sum)

    @property
    def mean_regret(self) -> float:
        """Mean points the strategy's own moves gave away against optimal play (O(1))."""
        return self._mean(self.regret_sum)

    @property
    def opponent_mean_regret(self) -> float:
        """Mean points the opponent's own moves gave away (O(1))."""
        return self._mean(self.opponent_regret_sum)

    def rate(self, count: int) -> float:
        """``count`` as a share of the games (O(1))."""
        return count / self.games if self.games else 0.0

    def add(self, margin: Value, regret: Value, opponent_regret: Value) -> None:
        """Count one game (O(1))."""
        self.games += 1
        if margin > 0:
            self.wins += 1
        elif margin < 0:
            self.losses += 1
        else:
            self.ties += 1
        with exact_arithmetic():
            self.margin_sum += margin
            self.regret_sum += regret
            self.opponent_regret_sum += opponent_regret

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(1)); ``opponent`` is absent from a standings row."""
        sums = {"margin_sum", "regret_sum", "opponent_regret_sum"}
        data = json_fields(
            self,
            omit=sums if self.opponent else {*sums, "opponent"},
            win_rate=self.rate(self.wins),
            tie_rate=self.rate(self.ties),
            loss_rate=self.rate(self.losses),
            mean_margin=self.mean_margin,
            mean_regret=self.mean_regret,
        )
        if self.opponent:
            data["opponent_mean_regret"] = self.opponent_mean_regret
        return data


@dataclass
class TournamentResult:
    """Every pair's results so far; each strategy's standing is derived from them."""

    strategies: list[str]
    rows: int
    n: int
    values: str
    seed: int
    pairs: list[PairResult]
    rows_played: int = 0
    rules: Rules = PLAIN

    @property
    def interrupted(self) -> bool:
        """True when fewer rows were played than asked for (O(1))."""
        return self.rows_played < self.rows

    @property
    def standings(self) -> list[PairResult]:
        """Each strategy's results over all its games (O(pairs))."""
        return _standings(self.strategies, self.pairs)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(pairs)); under other rules also ``rules``."""
        extra = {} if self.rules.is_plain else {"rules": str(self.rules)}
        return {
            **extra,
            **json_fields(
                self,
                omit={"rows", "rows_played", "rules"},
                order=(
                    "strategies",
                    "games_per_pair",
                    "rows",
                    "n",
                    "values",
                    "seed",
                    "interrupted",
                ),
                rows=self.rows_played,
                games_per_pair=2 * self.rows_played,
                interrupted=self.interrupted,
                standings=self.standings,
            ),
        }


def _stable_seed(*parts: object) -> int:
    """A seed from text, the same in every process (unlike ``hash``)."""
    return zlib.crc32(":".join(map(str, parts)).encode())


#: Most random rows and most coins per row a tournament accepts.
MAX_ROWS = 1_000_000
MAX_COINS = 100_000


class Tournament:
    """A tournament played one row at a time: :meth:`play` yields the rows finished since its
    last yield (1, after each row; the number a ``progress`` callback gets, docs/architecture.md
    "Long work"), and :attr:`result` always holds the results of the rows played so far.

    Every pair meets on the same rows. Each (pair, seat order) gets fresh strategy objects
    seeded from ``seed`` and the names, so results are reproducible and do not depend on which
    other strategies take part. Regret is the total loss of a player's own moves
    (:func:`~coinrow.analysis.analyze`).

    >>> t = Tournament(["optimal", "greedy"], rows=3, n=4, seed=1)
    >>> list(t.play()), t.result.rows_played
    ([1, 1, 1], 3)

    Under other two-player ``rules`` (keyword-only; not ``reply:S``, whose second seat is
    fixed, nor ``players:P``) the strategies must play them
    (:data:`~coinrow.strategies.RULES_AWARE`); a game's margin is the first player's in what
    the rules make them maximise (the misère game: the other's total minus their own) and
    regret is the analysis's loss under the rules.

    >>> t = Tournament(["optimal", "greedy"], rows=4, n=5, seed=1, rules="take:2")
    >>> _ = list(t.play()); pair = t.result.pairs[0]
    >>> pair.wins, pair.ties, pair.losses, pair.mean_regret, pair.opponent_mean_regret
    (5, 0, 3, 0.0, 0.75)
    """

    def __init__(
        self,
        names: Sequence[str],
        rows: int = 100,
        n: int = 10,
        values: str = "1-9",
        seed: int = 0,
        *,
        rules: Rules | str | None = None,
    ) -> None:
        chosen = coerce_rules(rules)
        if chosen.known_opponent or not chosen.two_player:
            raise UnsupportedRulesError(
                f"rules {chosen} do not apply to a tournament of pairs in both seat orders "
                "(the second seat of reply is fixed; players seats more than two)"
            )
        names = [name.strip() for name in names]
        if len(names) < 2:
            raise InvalidOptionError(
                "a tournament needs at least two strategies", parameter="names"
            )
        names = list(distinct(names, parameter="names"))
        if not 1 <= rows <= MAX_ROWS:
            raise InvalidOptionError(
                f"the number of rows must be 1 to {MAX_ROWS:,}, got {rows:,}", parameter="rows"
            )
        if not 1 <= n <= MAX_COINS:
            raise InvalidOptionError(
                f"the number of coins per row must be 1 to {MAX_COINS:,}, got {n:,}",
                parameter="n",
            )
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise InvalidOptionError(  # as the census and puzzles: seeds are whole numbers >= 0
                f"the seed must be a whole number of at least 0, got {seed!r:.40}",
                parameter="seed",
            )
        with concerning("values"):
            self.spec = ValueSpec.parse(values)
        for name in names:
            get(name, seed=0, rules=chosen)  # fail early on unknown names and rules
        pairs = [PairResult(a, b) for a, b in itertools.combinations(names, 2)]
        self.result = TournamentResult(names, rows, n, values, seed, pairs, rules=chosen)

    def play(self) -> Iterator[int]:
        """Play the remaining rows, yielding 1 (the rows finished) once each row's games are
        counted (per row: pairs x 2 games of O(n) strategy calls, plus an O(n) analysis each after
        one O(n^2) table for rows up to 512 coins, int rows up to 8000)."""
        result = self.result
        rng = random.Random(result.seed)
        for _ in range(result.rows_played):  # resume: redraw the rows already played
            self.spec.row(result.n, rng)
        while result.rows_played < result.rows:
            row_index = result.rows_played
            coins = tuple(self.spec.row(result.n, rng))
            plain = result.rules.is_plain
            subgames = Subgames(coins) if plain else None
            values = None if plain else play_values(coins, result.rules)
            outcomes = [
                _meet(coins, pair, result.seed, row_index, subgames=subgames, values=values)
                for pair in result.pairs
            ]
            for pair, games in zip(result.pairs, outcomes, strict=True):
                for game in games:
                    pair.add(*game)
            result.rows_played += 1
            yield 1


def tournament(
    names: Sequence[str],
    rows: int = 100,
    n: int = 10,
    values: str = "1-9",
    seed: int = 0,
    progress: Progress | None = None,
    *,
    rules: Rules | str | None = None,
) -> TournamentResult:
    """Play every pair of the named strategies on ``rows`` random rows of ``n`` coins, each
    row in both seat orders (so ``2 * rows`` games per pair); see :class:`Tournament`.
    ``progress`` is called with 1 after each row.

    Complexity: rows x pairs x 2 games, each O(n) strategy calls plus an O(n) analysis after
    one O(n^2) table per row (n <= 512, int rows n <= 8000; longer rows: O(n) per move,
    O(n^2) per game).

    >>> result = tournament(["optimal", "greedy"], rows=20, n=6, seed=1)
    >>> pair = result.pairs[0]
    >>> pair.games, pair.wins, pair.ties, pair.losses, pair.mean_regret, pair.opponent_mean_regret
    (40, 19, 4, 17, 0.0, 0.125)
    """
    played = Tournament(names, rows, n, values, seed, rules=rules)
    for finished in played.play():
        if progress is not None:
            progress(finished)
    return played.result


def _meet(
    coins: tuple[Value, ...],
    pair: PairResult,
    seed: int,
    row_index: int,
    *,
    subgames: Subgames | None = None,
    values: PlayValues | None = None,
) -> list[tuple[Value, Value, Value]]:
    """Both seat orders of one pair on one row: (margin, regret, opponent regret) for
    ``pair.strategy``. Optimal players share the row's ``subgames`` in the plain game, or its
    ``values`` under other two-player rules: there the margin is in what the rules make the
    players maximise and regret comes from the analysis under them."""
    rules = PLAIN if values is None else values.rules
    games = []
    for seat, (first, second) in enumerate(
        ((pair.strategy, pair.opponent), (pair.opponent, pair.strategy))
    ):
        players = [
            get(
                name,
                seed=_stable_seed(seed, row_index, pair.strategy, pair.opponent, seat, k),
                rules=rules,
            )
            for k, name in enumerate((first, second))
        ]
        for player in players:
            if isinstance(player, Optimal) and values is not None:
                player.attach_values(values)
            elif isinstance(player, Optimal) and subgames is not None:
                player.attach(subgames)
        game = play(coins, *players, rules=rules)
        analysis = analyze(coins, game.moves, subgames, rules=rules, values=values)
        first_total, second_total = game.totals
        with exact_arithmetic():
            margin = rules.objective_margin(first_total, second_total)
        regrets = (analysis.first.total_loss, analysis.second.total_loss)
        if seat == 0:
            games.append((margin, regrets[0], regrets[1]))
        else:
            games.append((-margin, regrets[1], regrets[0]))
    return games


def _standings(names: Sequence[str], pairs: Sequence[PairResult]) -> list[PairResult]:
    """Each strategy's results over all its games."""
    standings = []
    for name in names:
        total = PairResult(name, "")
        for pair in pairs:
            if name not in (pair.strategy, pair.opponent):
                continue
            own = pair.strategy == name
            total.games += pair.games
            total.wins += pair.wins if own else pair.losses
            total.losses += pair.losses if own else pair.wins
            total.ties += pair.ties
            with exact_arithmetic():
                total.margin_sum += pair.margin_sum if own else -pair.margin_sum
                total.regret_sum += pair.regret_sum if own else pair.opponent_regret_sum
                total.opponent_regret_sum += pair.opponent_regret_sum if own else pair.regret_sum
        standings.append(total)
    return standings
