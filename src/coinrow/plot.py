"""Charts with matplotlib for tournaments and censuses: grouped bars and histograms.

Charts are drawn on a :class:`matplotlib.figure.Figure` directly, never through
``matplotlib.pyplot``: drawing neither imports pyplot nor changes the caller's backend (a
notebook's inline plots keep working), and the figure is freed like any other object.
matplotlib is imported inside the functions only, so importing :mod:`coinrow` or this module
never loads it; without it, drawing raises :class:`~coinrow.errors.MissingExtraError`
("install coinrow[plot]").

Two ways to use each chart:

* :func:`grouped_bar_chart` and :func:`histogram` write a file and return its path. The file
  type follows the suffix of ``path``: ``.png`` (120 dpi), ``.svg`` or ``.pdf``. SVG and PDF
  output carry no date and SVG ids use a fixed salt, so the same data gives the same bytes.
* :func:`grouped_bar_figure` and :func:`histogram_figure` return the ``Figure`` without
  writing anything: show it in a notebook (the last expression of a cell, once the inline
  backend is active, e.g. after ``%matplotlib inline``), change it, or write it with
  :func:`save_figure`.

Values are plotted as floats: a chart is a picture, not a result.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import MissingExtraError, PictureError

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: File suffixes the charts can be written as.
FORMATS = (".png", ".svg", ".pdf")


def _check_path(path: str | Path) -> Path:
    target = Path(path)
    if target.suffix.lower() not in FORMATS:
        raise PictureError(
            f"cannot write a chart as {target.name!r}; use one of: {', '.join(FORMATS)}"
        )
    return target


def _new_figure(title: str, width: float = 8.0, height: float = 4.5) -> tuple[Figure, Axes]:
    try:
        # The package first: an unimportable matplotlib fails here even if a submodule is
        # still cached in sys.modules.
        import matplotlib  # noqa: F401
        from matplotlib.figure import Figure
    except ImportError as error:
        raise MissingExtraError("drawing a chart needs matplotlib", "plot") from error
    figure = Figure(figsize=(width, height), layout="constrained")
    axes = figure.add_subplot()
    axes.set_title(title)
    return figure, axes


def _label(axes: Axes, ylabel: str, xlabel: str | None = None) -> None:
    """Name the axes and draw the horizontal grid every chart has."""
    if xlabel is not None:
        axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.grid(axis="y", alpha=0.3)


def _write(path: str | Path, draw: Callable[[], Figure]) -> Path:
    """Check the suffix of ``path``, then draw the figure and write it there."""
    target = _check_path(path)  # a bad name fails before any drawing
    return save_figure(draw(), target)


def save_figure(figure: Figure, path: str | Path) -> Path:
    """Write ``figure`` to ``path`` (``.png`` at 120 dpi, ``.svg`` or ``.pdf``, by suffix)
    with no date and fixed SVG ids, so the same figure gives the same bytes; returns the path
    (the cost is matplotlib's rendering). The caller's matplotlib settings are left as found.

    >>> import tempfile, pathlib
    >>> figure = histogram_figure("Margins", [0, 1, 1], "margin")
    >>> save_figure(figure, pathlib.Path(tempfile.mkdtemp()) / "m.pdf").suffix
    '.pdf'
    """
    target = _check_path(path)
    import matplotlib

    metadata: dict[str, Any] = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(
        target.suffix.lower().lstrip("."), {}
    )
    # SVG ids derive from a random salt unless it is fixed; rc_context restores it after.
    with matplotlib.rc_context({"svg.hashsalt": "coinrow"}):
        figure.savefig(target, dpi=120, metadata=metadata or None)
    return target


def _check_series(categories: Sequence[str], series: dict[str, list[float]]) -> None:
    for name, values in series.items():
        if len(values) != len(categories):
            raise PictureError(
                f"series {name!r} has {len(values)} values for {len(categories)} categories"
            )


def grouped_bar_figure(
    title: str,
    categories: list[str],
    series: dict[str, list[float]],
    ylabel: str,
) -> Figure:
    """The figure :func:`grouped_bar_chart` writes: bars grouped by category, one colour per
    series, with a legend and a zero line (O(c * s) for c categories and s series, plus
    matplotlib's fixed cost).

    >>> figure = grouped_bar_figure("Wins", ["greedy", "parity"], {"vs table": [3, 5]}, "wins")
    >>> [axes.get_title() for axes in figure.axes]
    ['Wins']
    """
    _check_series(categories, series)
    width = max(6.0, 1.2 + 0.5 * len(categories) * max(len(series), 1))
    figure, axes = _new_figure(title, width=width)
    bar = 0.8 / max(len(series), 1)
    for index, (name, values) in enumerate(series.items()):
        offsets = [k - 0.4 + bar * (index + 0.5) for k in range(len(categories))]
        axes.bar(offsets, [float(value) for value in values], bar, label=name)
    axes.set_xticks(range(len(categories)), categories, rotation=30 if len(categories) > 6 else 0)
    _label(axes, ylabel)
    axes.axhline(0, color="#444", linewidth=0.8)
    if series:
        axes.legend()
    return figure


def grouped_bar_chart(
    path: str | Path,
    title: str,
    categories: list[str],
    series: dict[str, list[float]],
    ylabel: str,
) -> Path:
    """Bars grouped by category, one colour per series, with a legend; returns the path
    written (O(c * s) for c categories and s series, plus matplotlib's fixed cost).

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "wins.svg"
    >>> grouped_bar_chart(out, "Wins", ["greedy", "parity"], {"vs table": [3, 5]}, "wins").name
    'wins.svg'
    """
    return _write(path, lambda: grouped_bar_figure(title, categories, series, ylabel))


def histogram_figure(
    title: str,
    values: Sequence[Any],
    xlabel: str,
    bins: int | Sequence[float] | None = None,
) -> Figure:
    """The figure :func:`histogram` writes: counts of ``values`` on the y axis; whole numbers
    spanning at most 60 values get one bar each, otherwise ``bins`` (default: matplotlib's
    ``"auto"``) (O(len(values)), plus matplotlib's fixed cost).

    >>> figure = histogram_figure("Margins", [0, 1, 1, 2, 5], "margin")
    >>> len(figure.axes[0].patches)  # one bar per whole number from 0 to 5
    6
    """
    numbers = [float(value) for value in values]
    figure, axes = _new_figure(title)
    chosen: Any = bins if bins is not None else integer_bins(numbers) or "auto"
    if numbers:
        axes.hist(numbers, bins=chosen, color="#1f5fbf", edgecolor="white")
    _label(axes, "count", xlabel)
    return figure


def histogram(
    path: str | Path,
    title: str,
    values: Sequence[Any],
    xlabel: str,
    bins: int | Sequence[float] | None = None,
) -> Path:
    """Histogram of ``values`` (counts on the y axis); whole numbers spanning at most 60
    values get one bar each, otherwise ``bins`` (default: matplotlib's ``"auto"``); returns
    the path written (O(len(values)), plus matplotlib's fixed cost).

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "margins.png"
    >>> histogram(out, "Margins", [0, 1, 1, 2, 5], "margin").suffix
    '.png'
    """
    return _write(path, lambda: histogram_figure(title, values, xlabel, bins))


def integer_bins(numbers: Sequence[float], widest: int = 60) -> list[float] | None:
    """Bin edges giving each whole number its own bar, or None when the values are not all
    whole or span more than ``widest`` numbers (O(len(numbers))).

    >>> integer_bins([1.0, 3.0])
    [0.5, 1.5, 2.5, 3.5]
    >>> integer_bins([0.5]) is None
    True
    """
    if not numbers or any(not number.is_integer() for number in numbers):
        return None
    low, high = int(min(numbers)), int(max(numbers))
    if high - low + 1 > widest:
        return None
    return [edge - 0.5 for edge in range(low, high + 2)]


def census_figure(
    title: str, counts: Mapping[int, int], rates: Mapping[str, float] | None = None
) -> Figure:
    """The figure :func:`census_chart` writes: a census's margin histogram from its counts
    (rows per margin, one bar per margin), and, when ``rates`` is given, a second panel with
    each strategy's share of rows where it gets the optimal total (O(margins + strategies),
    plus matplotlib's fixed cost).

    >>> figure = census_figure("Rows of length 4", {0: 6, 1: 8, 2: 2}, {"greedy": 0.9375})
    >>> len(figure.axes), [float(y) for y in figure.axes[1].get_ylim()]
    (2, [0.0, 1.0])
    """
    figure, left = _new_figure("", width=10.0 if rates else 8.0)
    figure.suptitle(title)
    if rates:
        figure.clear()
        left, right = figure.subplots(1, 2, width_ratios=[3, 1 + 0.4 * len(rates)])
    margins = sorted(counts)
    left.bar(margins, [float(counts[m]) for m in margins], width=0.9, color="#1f5fbf")
    _label(left, "rows", "margin (first player's total minus the second's)")
    if rates:
        names = list(rates)
        right.bar(range(len(names)), [float(rates[name]) for name in names], color="#2a9d4b")
        right.set_xticks(range(len(names)), names, rotation=30 if len(names) > 3 else 0)
        right.set_ylim(0, 1)
        _label(right, "share of rows with the optimal total")
    return figure


def census_chart(
    path: str | Path,
    title: str,
    counts: Mapping[int, int],
    rates: Mapping[str, float] | None = None,
) -> Path:
    """Write :func:`census_figure` to ``path`` (``.png``, ``.svg`` or ``.pdf``) and return the
    path (O(margins + strategies), plus matplotlib's fixed cost).

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "census.svg"
    >>> census_chart(out, "Rows of length 4", {0: 6, 1: 8, 2: 2}, {"greedy": 0.9375}).name
    'census.svg'
    """
    return _write(path, lambda: census_figure(title, counts, rates))
