"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013), for the puzzle
rating of a learner: each attempt is a game against the puzzle, a win when it was solved.

A rating is shown on the Glicko scale (1500 for a newcomer, a rating deviation ``rd`` of 350
that shrinks as results come in, and a ``volatility`` of 0.06); :func:`update` takes one
rating period's results and returns the new rating, following the paper's eight steps (the
volatility by the Illinois algorithm of its step 5). Ratings are statistics, not coin values:
they are floats.

    >>> new = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0),
    ...                                        (Rating(1700, 300), 0)])
    >>> round(new.rating, 2), round(new.rd, 2), round(new.volatility, 6)
    (1464.05, 151.52, 0.059996)

(The paper prints 1464.06: it rounds mu' to -0.2069 before scaling back.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .errors import InvalidOptionError

#: The Glicko-2 scale factor: ratings on the Glicko scale are 173.7178 times Glicko-2's mu.
SCALE = 173.7178
#: A newcomer's rating, deviation and volatility (Glickman's suggested defaults).
START_RATING, START_RD, START_VOLATILITY = 1500.0, 350.0, 0.06
#: The system constant tau: how fast the volatility may change (the paper's example: 0.5).
TAU = 0.5
#: The convergence tolerance of step 5 (the paper's epsilon).
EPSILON = 0.000001
#: Bounds a rating stays within (a deviation never grows beyond a newcomer's).
LOWEST_RD = 30.0


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: ``rating``, its deviation ``rd`` and the
    ``volatility``."""

    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY

    def __post_init__(self) -> None:
        numbers = (self.rating, self.rd, self.volatility)
        if not all(isinstance(x, int | float) and math.isfinite(x) for x in numbers):
            raise InvalidOptionError(f"a rating is three finite numbers, got {numbers!r}")
        if not 0 < self.rd <= START_RD or not 0 < self.volatility < 1:
            raise InvalidOptionError(
                f"a rating deviation is in (0, {START_RD:g}] and a volatility in (0, 1), "
                f"got {self.rd!r} and {self.volatility!r}"
            )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(1))."""
        return {"rating": self.rating, "rd": self.rd, "volatility": self.volatility}


def expected_score(player: Rating, opponent: Rating) -> float:
    """The player's expected score against the opponent, ``E(mu, mu_j, phi_j)`` of the paper
    (O(1)).

    >>> round(expected_score(Rating(1500, 200), Rating(1400, 30)), 3)
    0.639
    """
    mu, mu_j, phi_j = _mu(player), _mu(opponent), _phi(opponent)
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, results: Sequence[tuple[Rating, float]], *, tau: float = TAU) -> Rating:
    """The player's rating after one rating period of ``results`` (opponent, score: 1 a win,
    0.5 a draw, 0 a loss), by the eight steps of Glickman's paper (O(len(results)) and a
    bounded number of iterations in step 5). Without results only the deviation grows
    (step 6). The deviation is kept at least :data:`LOWEST_RD`, so a rating never freezes,
    and at most :data:`START_RD`.

    >>> update(Rating(1500, 200, 0.06), []).rd > 200
    True
    >>> update(Rating(), [(Rating(1500, 60), 1)]).rating > 1500
    True
    """
    if not 0 < tau <= 2:
        raise InvalidOptionError(f"tau is in (0, 2], got {tau!r}")
    for _, score in results:
        if score not in (0, 0.5, 1):
            raise InvalidOptionError(f"a score is 0, 0.5 or 1, got {score!r}")
    mu, phi, sigma = _mu(player), _phi(player), player.volatility
    if not results:
        phi_star = math.sqrt(phi**2 + sigma**2)
        return _rating(mu, phi_star, sigma)
    # step 3: the estimated variance v; step 4: the estimated improvement delta
    v_inverse = 0.0
    total = 0.0
    for opponent, score in results:
        g = _g(_phi(opponent))
        e = 1 / (1 + math.exp(-g * (mu - _mu(opponent))))
        v_inverse += g * g * e * (1 - e)
        total += g * (score - e)
    v = 1 / v_inverse
    delta = v * total
    # step 5: the new volatility, by the Illinois algorithm
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0 and k < 10_000:  # f grows without bound to the left
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(200):  # converges in a handful; bounded all the same
        if abs(big_b - big_a) <= EPSILON or f_b == f_a:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2)
    # steps 6-8: the new deviation and rating
    phi_star = math.sqrt(phi**2 + new_sigma**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * total
    return _rating(new_mu, new_phi, new_sigma)


def _mu(rating: Rating) -> float:
    return (rating.rating - START_RATING) / SCALE


def _phi(rating: Rating) -> float:
    return rating.rd / SCALE


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)


def _rating(mu: float, phi: float, sigma: float) -> Rating:
    rd = min(START_RD, max(LOWEST_RD, phi * SCALE))
    return Rating(mu * SCALE + START_RATING, rd, min(sigma, 0.999))
