"""``coinrow.Table``: the table of every subgame of a row, under any rules, with its picture.

The engines compute the tables (:class:`coinrow.engines.table.Table` for the plain game,
:class:`~coinrow.engines.interval.IntervalTable` under other two-player interval rules) and
draw nothing; the classes here are those tables as the game model hands them out, with their
Jupyter ``_repr_svg_``/``_repr_html_`` (python-chess style: :mod:`coinrow.svg` is loaded only
when a notebook shows the table), so that no engine imports a picture (docs/architecture.md).

>>> table = Table([1, 2, 4, 3])
>>> table.value_of(0, 3), table.moves_of(0, 3)
(5, ('L', 'R'))
>>> Table([1, 2, 3], rules="take:any").objective_of(0, 2)
6
"""

from __future__ import annotations

from collections.abc import Sequence

from .engines import MAX_SECONDS
from .engines import table as engine_tables
from .engines.costs import check_variant_seconds, size_text, variant_cost
from .engines.interval import IntervalTable
from .engines.table import MEMORY_BUDGET
from .errors import TableTooLargeError, UnsupportedRulesError
from .numbers import Row, exact_arithmetic
from .rules import Rules, coerce_rules


class Table(engine_tables.Table):
    """Values and optimal moves of every subgame ``i..j`` of a row (the engines'
    :class:`coinrow.engines.table.Table`: O(n^2) to build, O(1) a query), with its picture
    in Jupyter; ``rules`` other than the plain game's give the variant's table
    (:func:`variant_table`, the same queries).

    >>> Table([1, 2, 4, 3]).moves_of(1, 3), Table([5, 3, 1, 4, 2], rules="misere").move_of(0, 4)
    (('L', 'R'), 'R')
    """

    def __new__(
        cls,
        coins: Sequence[object] = (),
        memory_budget: int | None = None,
        *,
        max_seconds: float | None = MAX_SECONDS,
        rules: object = None,
    ) -> Table:
        """``rules`` other than the plain game's give the variant's table instead
        (:func:`variant_table`, the same queries). Every argument
        has a default so that copy and pickle can make an empty instance."""
        if rules is not None:
            chosen = coerce_rules(rules)
            if not chosen.is_plain:
                return variant_table(  # type: ignore[return-value]
                    coins, chosen, max_seconds=max_seconds, memory_budget=memory_budget
                )
        return super().__new__(cls)

    def __init__(
        self,
        coins: Sequence[object],
        memory_budget: int | None = None,
        *,
        max_seconds: float | None = MAX_SECONDS,
        rules: object = None,
    ) -> None:
        """The plain game's table (other rules were answered by :meth:`__new__`)."""
        super().__init__(coins, memory_budget, max_seconds=max_seconds)

    def _repr_svg_(self) -> str | None:
        """Jupyter: the triangle diagram (:mod:`coinrow.svg`); None over 40 coins."""
        from .svg import repr_svg

        return repr_svg(self)

    def _repr_html_(self) -> str:
        """Jupyter: the triangle diagram, or the text form and a note over 40 coins."""
        from .svg import repr_html

        return repr_html(self, self)


class VariantTable(IntervalTable):
    """``coinrow.Table(coins, rules=R)`` under two-player interval rules: the engines'
    :class:`~coinrow.engines.interval.IntervalTable` (the same queries and costs) with its
    picture in Jupyter.

    >>> VariantTable([5, 3, 1, 4, 2], Rules.parse("stone-game-vii")).objective_of(0, 4)
    6
    """

    def _repr_svg_(self) -> str | None:
        """Jupyter: the triangle with the optimal line highlighted
        (:func:`coinrow.svg.variant_triangle`); None over 40 coins (O(n^2))."""
        from .svg import repr_variant_svg

        return repr_variant_svg(self)


def variant_table(
    coins: Sequence[object],
    rules: Rules,
    *,
    max_seconds: float | None = MAX_SECONDS,
    memory_budget: int | None = None,
) -> VariantTable:
    """The table of every subgame of a two-player interval variant (O(n^2) time and memory;
    see :class:`~coinrow.engines.interval.IntervalTable`); other rules raise
    :class:`~coinrow.errors.UnsupportedRulesError`. ``coinrow.Table(coins, rules=...)`` calls
    it. A table estimated (:func:`~coinrow.engines.costs.variant_cost`) over ``max_seconds``
    is refused with
    :class:`~coinrow.errors.CostLimitError` (``None``: no limit), one over ``memory_budget``
    bytes (default :data:`coinrow.engines.table.MEMORY_BUDGET`) with
    :class:`~coinrow.errors.TableTooLargeError`, before any work.

    >>> variant_table([1, 2, 3], Rules.parse("take:any")).objective_of(0, 2)
    6
    """
    if not rules.interval:
        raise UnsupportedRulesError(
            f"{rules.label()} has no table of subgames (only two players "
            "alternating on an interval of the row have one)"
        )
    row = Row.of(coins)
    seconds, needed = variant_cost(row, rules, table=True, limit=max_seconds)
    budget = MEMORY_BUDGET if memory_budget is None else memory_budget
    what = f"a table of {len(row):,} coins under {rules}"
    if needed > budget:
        raise TableTooLargeError(
            f"{what} needs about {size_text(needed)} ({len(row) * (len(row) + 1) // 2:,} "
            f"subgames), over the {size_text(budget)} budget"
        )
    check_variant_seconds(seconds, max_seconds, what)
    with exact_arithmetic():
        return VariantTable(row, rules)
