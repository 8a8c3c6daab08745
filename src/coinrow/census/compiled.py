"""Which strategies the census kernels run compiled, and their codes (pure Python), and
how long compiling them takes (:func:`coinrow.census.run.kernels_warm` says whether they are).

The built-in strategies greedy, parity, thibault, thibault3, lookahead[:DEPTH], cooperative
and optimal[:left|:right] have compiled versions in :mod:`coinrow.census.kernels`, checked
against :mod:`coinrow.strategies` on every position of small families by the tests. Every
other strategy (random ones, ``optimal:random``, user ``module:function`` strategies) runs
through Python: :func:`coinrow.counterexamples.strays` and
:func:`coinrow.counterexamples.worst_line`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..strategies import DEFAULT_LOOKAHEAD, get

#: Strategy codes shared with the kernels.
GREEDY, OPTIMAL_LEFT, OPTIMAL_RIGHT, THIBAULT, THIBAULT3, LOOKAHEAD, COOPERATIVE, PARITY = range(8)

_PLAIN = {
    "greedy": GREEDY,
    "thibault": THIBAULT,
    "thibault3": THIBAULT3,
    "cooperative": COOPERATIVE,
    "parity": PARITY,
}


@dataclass(frozen=True)
class CompiledStrategy:
    """A strategy the kernels play: its code and parameter (the lookahead depth)."""

    name: str
    code: int
    parameter: int = 0

    @property
    def slots(self) -> int:
        """Table slots it needs: parity keeps one per alternating group (O(1))."""
        return 2 if self.code == PARITY else 1


def compiled(name: str, longest: int) -> CompiledStrategy | None:
    """The compiled form of strategy ``name`` for rows of at most ``longest`` coins, or None
    when it runs through Python (O(1); imports a user module to check it exists).

    A lookahead at least as deep as the row sees the whole game, so deeper ones are the same
    strategy at depth ``longest``.

    >>> compiled("lookahead:40", 12), compiled("random", 12)
    (CompiledStrategy(name='lookahead:40', code=5, parameter=12), None)
    >>> compiled("optimal", 8).code == OPTIMAL_LEFT
    True
    """
    get(name, seed=0)  # unknown names and bad parameters fail here, as everywhere else
    base, _, parameter = name.strip().partition(":")
    if base in _PLAIN and not parameter:
        return CompiledStrategy(name.strip(), _PLAIN[base])
    if base == "optimal" and parameter in ("", "left"):
        return CompiledStrategy(name.strip(), OPTIMAL_LEFT)
    if base == "optimal" and parameter == "right":
        return CompiledStrategy(name.strip(), OPTIMAL_RIGHT)
    if base == "lookahead":
        depth = int(parameter) if parameter else DEFAULT_LOOKAHEAD
        return CompiledStrategy(name.strip(), LOOKAHEAD, min(depth, max(longest, 1)))
    return None


#: Seconds of one core a cold compile of one family kind's census walk takes at most
#: (measured on the 2-core machine at a load of 7-13, CPU time: a first census of words
#: with a strategy 15 s cold, imports included, 2 s warm; then about 5 s each for
#: compositions and random rows, which reuse the helpers; docs/census.md).
COMPILE_SECONDS = 12

#: The same for a census under other rules: one variant kernel, about 5 s cold (measured as
#: above).
VARIANT_COMPILE_SECONDS = 5
