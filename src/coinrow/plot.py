"""Charts with matplotlib for tournaments and censuses: grouped bars and histograms.

matplotlib is imported inside each function (with the non-interactive ``Agg`` backend), so
importing :mod:`coinrow` or this module never loads it. The file type follows the suffix of
``path``: ``.png``, ``.svg`` or ``.pdf``. SVG and PDF output carry no date, so the same data
gives the same file. Values are plotted as floats: a chart is a picture, not a result.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .errors import PictureError

#: File suffixes the charts can be written as.
FORMATS = (".png", ".svg", ".pdf")


def _check_path(path: str | Path) -> Path:
    target = Path(path)
    if target.suffix.lower() not in FORMATS:
        raise PictureError(
            f"cannot write a chart as {target.name!r}; use one of: {', '.join(FORMATS)}"
        )
    return target


def _figure(title: str, width: float = 8.0, height: float = 4.5) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(width, height), layout="constrained")
    axes.set_title(title)
    return figure, axes


def _save(figure: Any, path: Path) -> Path:
    import matplotlib.pyplot as plt

    metadata: dict[str, Any] = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(
        path.suffix.lower().lstrip("."), {}
    )
    try:
        with _fixed_hash_salt():
            figure.savefig(path, dpi=120, metadata=metadata or None)
    finally:
        plt.close(figure)
    return path


class _fixed_hash_salt:
    """SVG ids derive from a random salt unless it is fixed: fix it for repeatable files."""

    def __enter__(self) -> None:
        import matplotlib

        self.saved = matplotlib.rcParams["svg.hashsalt"]
        matplotlib.rcParams["svg.hashsalt"] = "coinrow"

    def __exit__(self, *exc: object) -> None:
        import matplotlib

        matplotlib.rcParams["svg.hashsalt"] = self.saved


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
    target = _check_path(path)
    for name, values in series.items():
        if len(values) != len(categories):
            raise PictureError(
                f"series {name!r} has {len(values)} values for {len(categories)} categories"
            )
    figure, axes = _figure(title, width=max(6.0, 1.2 + 0.5 * len(categories) * max(len(series), 1)))
    count = max(len(series), 1)
    bar = 0.8 / count
    for index, (name, values) in enumerate(series.items()):
        offsets = [k - 0.4 + bar * (index + 0.5) for k in range(len(categories))]
        axes.bar(offsets, [float(value) for value in values], bar, label=name)
    axes.set_xticks(range(len(categories)), categories, rotation=30 if len(categories) > 6 else 0)
    axes.set_ylabel(ylabel)
    axes.axhline(0, color="#444", linewidth=0.8)
    if series:
        axes.legend()
    axes.grid(axis="y", alpha=0.3)
    return _save(figure, target)


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
    target = _check_path(path)
    numbers = [float(value) for value in values]
    figure, axes = _figure(title)
    chosen: Any = bins if bins is not None else integer_bins(numbers) or "auto"
    if numbers:
        axes.hist(numbers, bins=chosen, color="#1f5fbf", edgecolor="white")
    axes.set_xlabel(xlabel)
    axes.set_ylabel("count")
    axes.grid(axis="y", alpha=0.3)
    return _save(figure, target)


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
