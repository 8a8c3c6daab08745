"""The triangle diagram of every subgame, as semantic SVG (built with :mod:`xml.etree`).

The picture of :mod:`coinrow.diagram`'s cell model: each cell a box above its coins, with
arrows to the child cell(s) the optimal move(s) lead to (taking the left coin leaves
``i+1..j``, the child below and to the right; taking the right coin leaves ``i..j-1``, below
and to the left), coloured by whose turn it is in that subgame.

Every cell is a ``<g class="cell">`` carrying ``data-i``, ``data-j`` (0-based), ``data-value``
(the exact number shown), ``data-moves`` (every optimal move's text, separated by single spaces:
``L``, ``R`` or ``L R`` as :meth:`Table.moves_of` gives them; under other rules ``L2 R2``, ``B``;
never run together, so a page reads the set with ``split(" ")``) and ``data-player`` (``first``
or ``second``), so a web page can make the picture interactive.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple, cast

from .diagram import (
    MAX_COINS,
    Cell,
    Highlight,
    Marked,
    VariantCell,
    View,
    cells,
    check_length,
    check_view,
    describe,
    describe_variant,
    picture_table,
    resolve_highlight,
    summary,
    title,
    title_head,
    variant_picture,
    variant_title,
    view_words,
)
from .engines.table import Table
from .errors import PictureError
from .numbers import exact_arithmetic, format_value, halve
from .rules import moves_text

if TYPE_CHECKING:
    from .engines.interval import IntervalTable
    from .solution import Solution

#: Colours: the first player's turn, the second player's turn, the highlighted line.
FIRST_COLOR, SECOND_COLOR, HIGHLIGHT_COLOR = "#1f5fbf", "#17803a", "#e8590c"
PLAYER_COLORS = {"first": FIRST_COLOR, "second": SECOND_COLOR}
CELL_FILLS = {"first": "#e4eefc", "second": "#e1f3e5"}
#: The legend's words for each player: their colour, dark enough for 4.5:1 (WCAG AA for
#: small text) on white and on either cell fill (the second's green is 4.3:1 on its fill).
LEGEND_TEXT_COLORS = {"first": FIRST_COLOR, "second": "#11692f"}


class SvgDiagram(str):
    """An SVG document: a plain ``str`` that Jupyter displays as a picture."""

    def _repr_svg_(self) -> str:
        return str(self)


# Geometry, in user units: coin pitch (at least; wider for long numbers), cell box height,
# gap for the arrows, outer padding, coin height; a box is the pitch less BOX_SPACE wide.
PITCH, BOX_HEIGHT, GAP, PAD, COIN_HEIGHT, BOX_SPACE = 60.0, 30.0, 18.0, 12.0, 44.0, 6.0
ROW = BOX_HEIGHT + GAP
MIN_WIDTH = 480.0
#: Rows of long numbers get a wider pitch, up to this total width.
MAX_WIDTH = MAX_COINS * PITCH + 2 * PAD
#: Font sizes of the numbers: largest, wanted (the pitch widens for it), smallest.
LARGEST_FONT, WANTED_FONT, SMALLEST_FONT = 22.0, 16.0, 7.0
#: Width of one character as a fraction of the font size: digits, bold digits, prose, bold.
DIGIT_EM, BOLD_DIGIT_EM, TEXT_EM, BOLD_TEXT_EM = 0.64, 0.72, 0.55, 0.62
#: Legend text size on screen, in pixels, whatever the scale.
LEGEND_PX = 14.0


def fit_text(
    text: str, width: float, largest: float, smallest: float, em: float = DIGIT_EM
) -> tuple[str, float]:
    """Font size for ``text`` to fit ``width``; cut with an ellipsis below ``smallest`` (O(len)).

    >>> fit_text("5", 50, 22, 8), fit_text("123456789012", 50, 22, 8)
    (('5', 22), ('12345678…', 8))
    """
    size = min(largest, width / (em * max(len(text), 1)))
    if size >= smallest:
        return text, round(size, 2)
    keep = max(int(width / (em * smallest)) - 1, 1)
    return text[:keep] + "…", smallest


def pitch_for(texts: Iterable[str], n: int) -> float:
    """Horizontal units per coin: 60, or wider so the longest number fits at a font of 16,
    keeping the picture at most 40 coins' width (O(len(texts))).

    >>> pitch_for(["5", "12"], 4), pitch_for(["1234567890123456"], 4), pitch_for(["123456"], 40)
    (60.0, 173.84, 60.0)
    """
    wanted = DIGIT_EM * WANTED_FONT * max(map(len, texts), default=1) + 10
    return round(max(PITCH, min(wanted, (MAX_WIDTH - 2 * PAD) / max(n, 1))), 2)


def default_size(n: int, width: float) -> int:
    """Default width in pixels of a picture ``width`` units wide: 1 px per unit for rows of up
    to 18 coins, shrinking to 0.6 (36 px per coin of 60 units) at 31 coins and more (O(1)).

    >>> default_size(4, 480), default_size(40, 2424)
    (480, 1454)
    """
    per_coin = max(36.0, min(60.0, 1100.0 / max(n, 1)))
    return round(width * per_coin / PITCH)


def _fmt(number: float) -> str:
    return f"{number:.2f}".rstrip("0").rstrip(".")


def _element(parent: ET.Element, tag: str, **attributes: object) -> ET.Element:
    return ET.SubElement(
        parent,
        tag,
        {name.rstrip("_").replace("_", "-"): _attr(v) for name, v in attributes.items()},
    )


def _attr(value: object) -> str:
    return _fmt(value) if isinstance(value, float) else str(value)


Segment = tuple[float, float, float, float]


def _arrow(
    parent: ET.Element, segment: Segment, color: str, width: float, dashed: bool = False
) -> None:
    """A straight arrow from (x0, y0) with its head's tip at (x1, y1)."""
    x0, y0, x1, y1 = segment
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head, half = 3.2 * width + 3, 1.8 * width + 1.5
    bx, by = x1 - ux * head, y1 - uy * head
    shaft = {"stroke_dasharray": "4 3"} if dashed else {}
    _element(parent, "path", d=f"M{_fmt(x0)} {_fmt(y0)} L{_fmt(bx)} {_fmt(by)}", stroke=color,
             stroke_width=width, fill="none", stroke_linecap="round", **shaft)  # fmt: skip
    corners = [(x1, y1), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)]
    _element(parent, "polygon", points=" ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in corners),
             fill=color)  # fmt: skip


class _Layout(NamedTuple):
    n: int
    pitch: float  # units per coin
    left: float  # x of the left edge of coin 0's column
    top: float  # y of the top cell's box

    def center(self, i: int, j: int) -> float:
        return self.left + (i + j + 1) * self.pitch / 2

    def box_top(self, i: int, j: int) -> float:
        return self.top + (self.n - (j - i + 1)) * ROW

    def coin_top(self) -> float:
        return self.top + self.n * ROW

    @property
    def box_width(self) -> float:
        return self.pitch - BOX_SPACE


def _move_arrow(layout: _Layout, i: int, j: int, move: str) -> Segment:
    """Arrow from cell i..j to the child ``move`` leads to: L below-right, R below-left."""
    side = 1 if move == "L" else -1
    x, y = layout.center(i, j), layout.box_top(i, j) + BOX_HEIGHT
    return x + side * 0.1 * PITCH, y + 1, x + side * 0.36 * PITCH, y + GAP - 1  # any pitch


def _scale(size: int | None, default: float, width: float) -> float:
    """Pixels per unit of a picture ``width`` units wide drawn ``size`` (or ``default``) px."""
    scale = (size if size is not None else default) / width
    if scale <= 0:
        raise PictureError(f"size must be a positive number of pixels, not {size}")
    return scale


def _start(
    css_class: str, data: dict[str, str], width: float, words: tuple[str, str] | None = None
) -> tuple[ET.Element, ET.Element]:
    """The ``<svg>`` root with its ``data-*`` attributes (and, given ``words``, its title and
    description, as an image), and its white background: height and size come at the end."""
    accessible = {"role": "img"} if words else {}
    root = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "class": css_class,
            **data,
            "font-family": "DejaVu Sans, Verdana, Arial, sans-serif",
            **accessible,
        },
    )
    if words:
        heading, description = words
        _element(root, "title").text = heading
        _element(root, "desc").text = description
    # class "background": a page may paint it in its own theme (the file stays white)
    return root, _element(root, "rect", class_="background", x=0, y=0, width=width, fill="white")


def _set_height(
    root: ET.Element, background: ET.Element, width: float, height: float, scale: float
) -> None:
    """Size the picture once its height is known."""
    background.set("height", _fmt(height))
    root.set("viewBox", f"0 0 {_fmt(width)} {_fmt(height)}")
    root.set("width", _fmt(width * scale))
    root.set("height", _fmt(height * scale))


def _row_width(values: Iterable[object], coins: Sequence[object], n: int) -> tuple[float, float]:
    """The pitch that fits the cells' ``values`` and the coins, and the picture's width."""
    pitch = pitch_for([*map(format_value, values), *map(format_value, coins)], n)
    return pitch, max(MIN_WIDTH, n * pitch + 2 * PAD)


def _heading(
    root: ET.Element, heading: str, words: str, width: float, wanted: float
) -> tuple[ET.Element, float, float]:
    """The legend group with a bold heading and the picture's sentence, each fitting
    ``width``; returns the group, its font and the y of the sentence."""
    room = width - 2 * PAD
    font = min(wanted, room / (TEXT_EM * max(LEGEND_CHARACTERS, len(words))))
    legend = _element(root, "g", class_="legend", font_size=font, fill="#222")
    y = PAD + font
    head_font = min(font, room / (BOLD_TEXT_EM * len(heading)))
    _element(legend, "text", x=PAD, y=y, font_size=head_font, font_weight="bold").text = heading
    y += 1.45 * font
    _element(legend, "text", x=PAD, y=y).text = words
    return legend, font, y


def _key(legend: ET.Element, y: float, font: float, fill: str, words: str) -> None:
    """A swatch outlined in the highlight colour and its words (the highlighted line, the best
    first slice)."""
    _element(legend, "rect", x=PAD, y=y - 0.8 * font, width=font, height=font, fill=fill,
             stroke=HIGHLIGHT_COLOR, stroke_width=3)  # fmt: skip
    _element(legend, "text", x=PAD + 1.4 * font, y=y).text = words


def _player_keys(legend: ET.Element, y: float, font: float) -> None:
    """Each player's swatch and words, side by side."""
    x = PAD
    for player in ("first", "second"):
        words = f"{player} player to move"
        color = PLAYER_COLORS[player]
        _element(legend, "rect", x=x, y=y - 0.8 * font, width=font, height=font,
                 fill=CELL_FILLS[player], stroke=color, stroke_width=2)  # fmt: skip
        _element(
            legend, "text", x=x + 1.4 * font, y=y, fill=LEGEND_TEXT_COLORS[player]
        ).text = words
        x += (1.4 + TEXT_EM * (len(words) + 3)) * font


def _cell_box(
    root: ET.Element,
    layout: _Layout,
    cell: Cell | VariantCell,
    words: str,
    lit: bool,
    labels: bool = False,
) -> tuple[ET.Element, str]:
    """A cell's group (its ``data-*``, tooltip ``words``, box and number, and with ``labels``
    its hidden ``i,j``), coloured by whose turn it is (grey when that depends on the line);
    returns the group and the colour."""
    i, j = cell.i, cell.j
    color = PLAYER_COLORS[cell.player] if cell.player else NEUTRAL_COLOR
    attributes = {
        "class": "cell",
        "data-i": str(i),
        "data-j": str(j),
        "data-value": format_value(cell.value),
        "data-moves": moves_text(cell.moves),
        "data-player": cell.player or "",
    }
    if lit:
        attributes["data-highlight"] = "1"
    group = ET.SubElement(root, "g", attributes)
    _element(group, "title").text = words
    x, y, box = layout.center(i, j), layout.box_top(i, j), layout.box_width
    _element(group, "rect", x=x - box / 2, y=y, width=box, height=BOX_HEIGHT, rx=4,
             fill=CELL_FILLS[cell.player] if cell.player else NEUTRAL_FILL,
             stroke=HIGHLIGHT_COLOR if lit else color,
             stroke_width=3.5 if lit else 1.2)  # fmt: skip
    text, font = fit_text(format_value(cell.value), box - 6, LARGEST_FONT, SMALLEST_FONT)
    _element(group, "text", class_="value", x=x, y=y + BOX_HEIGHT / 2 + 0.35 * font,
             font_size=font, text_anchor="middle", fill="#111").text = text  # fmt: skip
    if labels:
        _ij_label(group, x - box / 2, y, box, f"{i + 1},{j + 1}")
    return group, color


#: The i/j labels (coin numbers from 1, as the cells' words say) and the arrows to the cells
#: a cell reads are drawn hidden; a page shows them on demand (CSS ``visibility``).
LABEL_FONT, READ_COLOR = 9.0, "#c2255c"


def _ij_label(group: ET.Element, left: float, top: float, box: float, text: str) -> None:
    """A cell's ``i,j`` in its top-left corner, hidden until a page shows it."""
    shown, font = fit_text(text, box / 2, LABEL_FONT, 5.0, DIGIT_EM)
    _element(group, "text", class_="ij", x=left + 2, y=top + font, font_size=font,
             fill="#333", visibility="hidden").text = shown  # fmt: skip


def _reads(group: ET.Element, layout: _Layout, i: int, j: int) -> None:
    """Dashed arrows from cell i..j to the two cells its value is computed from (i+1..j and
    i..j-1), hidden until a page shows them: one path of two shafts and open heads (a 40-coin
    triangle draws 780 of them)."""
    reads = _element(group, "g", class_="reads", visibility="hidden")
    parts = []
    for move in "LR":
        x0, y0, x1, y1 = _move_arrow(layout, i, j, move)
        side = 1 if move == "L" else -1
        parts.append(
            f"M{_fmt(x0)} {_fmt(y0)}L{_fmt(x1)} {_fmt(y1)}"
            f"M{_fmt(x1 - side * 6)} {_fmt(y1 - 1)}L{_fmt(x1)} {_fmt(y1)}L{_fmt(x1)} {_fmt(y1 - 6)}"
        )
    _element(reads, "path", d="".join(parts), stroke=READ_COLOR, stroke_width=2.5, fill="none",
             stroke_dasharray="4 3", stroke_linecap="round")  # fmt: skip


VIEW_WORDS = {
    "total": "Each cell: the most the player to move can get from the coins below it",
    "margin": "Each cell: the player to move's total minus the other's on the coins below it",
    "first": "Each cell: the first player's points from the coins below it, with best play",
}


def triangle(
    coins: Sequence[object] | Table,
    view: View = "total",
    highlight: Highlight = None,
    size: int | None = None,
    *,
    on_demand: bool = False,
) -> SvgDiagram:
    """The triangle diagram of every subgame of a row of at most 40 coins (O(n^2)).

    ``coins`` is a row or a :class:`Table`; ``highlight`` a line such as ``"LRL"`` or a set of
    ``(i, j)`` cells; ``size`` the width in pixels (default: 60 px per coin for short rows,
    down to 36 px per coin for 40 coins). ``on_demand`` also draws, hidden, each cell's
    ``i,j`` and coin's number (``text.ij``) and each cell's arrows to the two cells it reads
    (``g.reads``), for a page to show on demand (a classroom).

    >>> svg = triangle([1, 2, 4, 3])
    >>> svg.count('class="cell"'), 'data-i="0" data-j="3" data-value="5" data-moves="L R"' in svg
    (10, True)
    """
    view = check_view(view)
    table = picture_table(coins)
    marked = resolve_highlight(table, highlight)
    n = len(table)
    shown = cells(table, view)
    pitch, width = _row_width((c.value for c in shown), table.coins, n)
    scale = _scale(size, default_size(n, width), width)
    root, background = _start("coinrow-triangle", {"data-view": view, "data-coins": str(n)}, width)
    lines = _legend_lines(table, view, width, LEGEND_PX / scale)
    legend_bottom = _draw_legend(root, lines, bool(marked.cells))
    layout = _Layout(n, pitch, (width - n * pitch) / 2, legend_bottom + PAD)
    height = layout.coin_top() + COIN_HEIGHT + PAD if n else legend_bottom + PAD
    _set_height(root, background, width, height, scale)
    for cell in shown:
        _draw_cell(root, table, layout, cell, view, marked, on_demand)
    _draw_coins(root, table, layout, on_demand)
    return SvgDiagram(ET.tostring(root, encoding="unicode"))


#: Seconds to draw one cell of a triangle as SVG text: 46-65 us measured at 10 to 40 coins
#: (the plain and the variant triangles), rounded up.
DRAWING_SECONDS_PER_CELL = 8e-5

#: Seconds to draw one slice of the pizza's ring: 39-51 us measured at 10 to 40 slices.
DRAWING_SECONDS_PER_SLICE = 6e-5


def drawing_seconds(n: int, *, ring: bool = False) -> float:
    """Estimated seconds to draw the picture of ``n`` coins: the triangle's n(n+1)/2 cells,
    or the ring's ``n`` slices (O(1)). A server prices its answer with it before drawing,
    as the engines price a solve (a triangle of 40 coins costs tens of milliseconds).

    >>> drawing_seconds(40) > drawing_seconds(40, ring=True) > drawing_seconds(0) == 0
    True
    """
    if ring:
        return n * DRAWING_SECONDS_PER_SLICE
    return n * (n + 1) // 2 * DRAWING_SECONDS_PER_CELL


LEGEND_CHARACTERS = 50


def _legend_lines(table: Table, view: View, width: float, wanted: float) -> list[tuple[str, float]]:
    """The title (split in two when too long) and the view's sentence, each with a font that
    fits ``width``; then the font of the legend below them."""
    room = width - 2 * PAD
    font = min(wanted, room / (TEXT_EM * max(LEGEND_CHARACTERS, len(VIEW_WORDS[view]))))
    head = title_head(table)
    texts = [title(table)]
    if BOLD_TEXT_EM * len(texts[0]) * font > room and head:
        texts = [f"{head}:", summary(table)]
    lines = [(text, min(font, room / (BOLD_TEXT_EM * len(text)))) for text in texts]
    return [*lines, (VIEW_WORDS[view], font), ("", font)]


def _draw_legend(root: ET.Element, lines: list[tuple[str, float]], highlighted: bool) -> float:
    """Draw the title and legend; return the y of their bottom."""
    font = lines[-1][1]
    legend = _element(root, "g", class_="legend", font_size=font, fill="#222")
    y = PAD
    for index, (text, size) in enumerate(lines[:-1]):
        y += 1.45 * size if index else size
        bold = {"font_weight": "bold"} if index < len(lines) - 2 else {}
        _element(legend, "text", x=PAD, y=y, font_size=size, **bold).text = text
    step = 1.45 * font
    y += step
    _player_keys(legend, y, font)
    y += step
    _arrow(legend, (PAD, y - 0.75 * font, PAD + 0.9 * font, y + 0.1 * font), "#222", 1.6)
    _element(legend, "text", x=PAD + 1.4 * font, y=y).text = "take the left coin"
    x = PAD + (1.4 + TEXT_EM * 21) * font
    _arrow(legend, (x + 0.9 * font, y - 0.75 * font, x, y + 0.1 * font), "#222", 1.6)
    _element(legend, "text", x=x + 1.4 * font, y=y).text = "take the right coin"
    if highlighted:
        y += step
        _key(legend, y, font, "none", "highlighted cells and moves")
    return y + 0.4 * font


def _draw_cell(
    root: ET.Element,
    table: Table,
    layout: _Layout,
    cell: Cell,
    view: View,
    marked: Marked,
    on_demand: bool = False,
) -> None:
    i, j = cell.i, cell.j
    words = describe(table, cell, view)
    group, color = _cell_box(root, layout, cell, words, (i, j) in marked.cells, on_demand)
    if i == j:
        return
    if on_demand:
        _reads(group, layout, i, j)
    for move in "LR":
        if (i, j, move) in marked.moves:
            _draw_played(group, _move_arrow(layout, i, j, move), move in cell.moves)
        if move in cell.moves:
            arrow = _element(group, "g", class_="arrow", data_move=move)
            _arrow(arrow, _move_arrow(layout, i, j, move), color, 2.0)


def _draw_played(group: ET.Element, arrow: Segment, optimal: bool) -> None:
    """A move of the highlighted line: a halo under the optimal arrow, or a dashed arrow of
    its own for a mistake."""
    x0, y0, x1, y1 = arrow
    if optimal:
        _element(group, "path", class_="played", d=f"M{_fmt(x0)} {_fmt(y0)} L{_fmt(x1)} {_fmt(y1)}",
                 stroke=HIGHLIGHT_COLOR, stroke_width=8, stroke_opacity=0.45,
                 stroke_linecap="round", fill="none")  # fmt: skip
    else:
        played = _element(group, "g", class_="played")
        _arrow(played, arrow, HIGHLIGHT_COLOR, 2.0, dashed=True)


def _draw_coins(root: ET.Element, table: Table, layout: _Layout, labels: bool = False) -> None:
    """Each coin a gold disc, stretched into a pill when its number is long (with ``labels``,
    its number from 1 below it, hidden)."""
    top, radius = layout.coin_top(), COIN_HEIGHT / 2
    for index, coin in enumerate(table.coins):
        text = format_value(coin)
        group = _element(root, "g", class_="coin", data_index=index, data_value=text)
        _element(group, "title").text = f"coin {index + 1}: {text}"
        x = layout.center(index, index)
        wide = BOLD_DIGIT_EM * 20 * len(text) + 14
        width = max(COIN_HEIGHT, min(layout.pitch - 8, wide))
        _element(group, "rect", x=x - width / 2, y=top, width=width, height=COIN_HEIGHT,
                 rx=radius, fill="#f6d365", stroke="#a07a12", stroke_width=1.5)  # fmt: skip
        shown, font = fit_text(text, width - 10, 20, SMALLEST_FONT, BOLD_DIGIT_EM)
        _element(group, "text", x=x, y=top + radius + 0.35 * font, font_size=font,
                 text_anchor="middle", font_weight="bold", fill="#3d2c00").text = shown  # fmt: skip
        if labels:
            _element(group, "text", class_="ij", x=x, y=top + COIN_HEIGHT + LABEL_FONT + 2,
                     font_size=LABEL_FONT + 2, text_anchor="middle", fill="#333",
                     visibility="hidden").text = str(index + 1)  # fmt: skip


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: DejaVu Sans, Verdana, Arial, sans-serif; margin: 1.5em; color: #222; }}
#info {{ min-height: 3em; margin: 0.8em 0; }}
g.cell {{ cursor: pointer; }}
g.cell:hover rect, g.cell.selected rect {{ stroke-width: 4; }}
svg {{ max-width: 100%; height: auto; }}
</style>
</head>
<body>
<h1>{title}</h1>
<p id="info">Click a cell to see its subgame.</p>
{svg}
<script>
const info = document.getElementById("info");
for (const cell of document.querySelectorAll("g.cell")) {{
  cell.addEventListener("click", () => {{
    for (const other of document.querySelectorAll("g.cell.selected")) {{
      other.classList.remove("selected");
    }}
    cell.classList.add("selected");
    info.textContent = cell.querySelector("title").textContent;
  }});
}}
</script>
</body>
</html>
"""


def html_page(svg: str, title: str = "coinrow triangle") -> str:
    """A standalone HTML page showing ``svg``; clicking a cell describes it (O(len(svg))).

    >>> "<svg" in html_page(triangle([1, 2]))
    True
    """
    return PAGE.format(title=html.escape(title), svg=svg)


def repr_svg(coins: Sequence[object] | Table, highlight: Highlight = None) -> str | None:
    """The diagram for Jupyter's ``_repr_svg_``, or None over 40 coins so that IPython falls
    back to the text form (O(n^2)).

    >>> repr_svg(range(41)) is None
    True
    """
    if len(coins) > MAX_COINS:
        return None
    return str(triangle(coins, highlight=highlight))


def repr_html(shown: object, coins: Sequence[object] | Table, highlight: Highlight = None) -> str:
    """The diagram for Jupyter's ``_repr_html_``; over 40 coins, the text form and a short note
    (O(n^2)).

    >>> print(repr_html("<Table of 41 coins>", range(41)))
    <pre>&lt;Table of 41 coins&gt;</pre><p><em>No diagram: pictures show at most 40 coins.</em></p>
    """
    svg = repr_svg(coins, highlight)
    if svg is None:
        note = f"No diagram: pictures show at most {MAX_COINS} coins."
        return f"<pre>{html.escape(str(shown))}</pre><p><em>{note}</em></p>"
    return f'<div class="coinrow-diagram" style="overflow-x: auto">{svg}</div>'


# --- the triangle of a variant ------------------------------------------------------------

#: Cells of variants where whose turn it is depends on the line (``take``, ``both-ends``).
NEUTRAL_COLOR, NEUTRAL_FILL = "#444444", "#f0f0f0"
#: Height of the moves' label under a variant's cell, inside the gap.
MOVES_FONT = 11.0


def variant_triangle(
    table: IntervalTable,
    view: str = "margin",
    highlight: str | None = None,
    size: int | None = None,
    *,
    on_demand: bool = False,
) -> SvgDiagram:
    """The triangle of every subgame of a variant's table (``coinrow.Table(coins,
    rules=R)``, at most 40 coins) (O(n^2)): each cell shows the mover's margin in what the
    rules score (``view="total"``: the coins the mover takes) and, under it, every optimal
    move (``L2 R1``, ``B``); coloured by whose turn it is where the rules fix it (one-coin
    moves), grey otherwise. ``highlight`` is a line of the rules' moves or ``"best"``.
    ``on_demand`` also draws each cell's ``i,j`` and coin's number, hidden (``text.ij``).

    Every cell is a ``<g class="cell">`` with ``data-i``, ``data-j``, ``data-value``,
    ``data-moves`` and ``data-player`` (empty when it depends on the line).

    >>> from coinrow import Table
    >>> svg = variant_triangle(Table([1, 2, 3, 4], rules="take:2"), highlight="best")
    >>> svg.count('class="cell"'), 'data-i="0" data-j="3" data-value="4" data-moves="R2"' in svg
    (10, True)
    """
    chosen, marked, shown = variant_picture(table, view, highlight)
    n = len(table)
    pitch, width = _row_width((c.value for c in shown), table.coins, n)
    scale = _scale(size, default_size(n, width), width)
    heading = variant_title(table)
    words = f"Each cell: {view_words(table.rules, chosen)}; below it, every optimal move"
    data = {"data-view": chosen, "data-rules": str(table.rules), "data-coins": str(n)}
    root, background = _start("coinrow-triangle", data, width, (heading, (
        f"{words} (L2: take two coins from the left, B: both ends). The coins lie along the "
        "bottom; each cell stands above the coins of its subgame."
    )))  # fmt: skip
    legend, font, y = _heading(root, heading, words, width, LEGEND_PX / scale)
    rules = table.rules
    notes = [f"Moves: {rules.moves_help()}"]
    if not rules.single_coin_moves:
        notes.append("Grey cells: whose turn it is depends on the moves played")
    for note in notes:  # the moves' notation and the colours, in the rules' own words
        y += 1.45 * font
        fitted = min(font, (width - 2 * PAD) / (TEXT_EM * len(note)))
        _element(legend, "text", x=PAD, y=y, font_size=fitted).text = note
    if rules.single_coin_moves:
        y += 1.45 * font
        _player_keys(legend, y, font)
    if marked.cells:
        y += 1.45 * font
        _key(legend, y, font, "none", "highlighted cells and moves")
    layout = _Layout(n, pitch, (width - n * pitch) / 2, y + 0.4 * font + PAD)
    height = layout.coin_top() + COIN_HEIGHT + PAD if n else y + PAD
    _set_height(root, background, width, height, scale)
    for cell in shown:
        i, j = cell.i, cell.j
        tip = describe_variant(table, cell)
        group, color = _cell_box(root, layout, cell, tip, (i, j) in marked.cells, on_demand)
        x, top = layout.center(i, j), layout.box_top(i, j)
        played = marked.played(i, j)
        mistake = played and played[0] not in cell.moves
        shown_moves = moves_text(cell.moves)
        label = f"{shown_moves} ({played[0]}?)" if mistake else shown_moves
        moves, moves_font = fit_text(label, pitch - 2, MOVES_FONT, 6.0, TEXT_EM)
        _element(group, "text", class_="moves", x=x, y=top + BOX_HEIGHT + GAP * 0.72,
                 font_size=moves_font, text_anchor="middle",
                 fill=HIGHLIGHT_COLOR if played else color,
                 font_weight="bold" if played else "normal").text = moves  # fmt: skip
    _draw_coins(root, table, layout, on_demand)  # type: ignore[arg-type]
    return SvgDiagram(ET.tostring(root, encoding="unicode"))


# --- the pizza as a ring ------------------------------------------------------------------

#: Radius of the ring, in user units; the margins are written just outside it.
RING_RADIUS = 150.0
PIZZA_FILL, PIZZA_STROKE, BEST_FILL = "#f6d365", "#a07a12", "#fbe3a1"


def ring(solution: Solution, size: int | None = None) -> SvgDiagram:
    """The pizza of a solution under ``circular`` rules as a ring of at most 40 slices
    (O(n)): each slice a wedge with its value, clockwise from slice 0 at the top; outside it
    the first player's margin when the game starts with that slice (``solution.starts``),
    and the optimal first slices outlined in orange. ``size`` is the width in pixels.

    Every slice is a ``<g class="slice">`` with ``data-slice`` (0-based), ``data-value``,
    ``data-margin`` and ``data-best`` (``1`` for an optimal first slice).

    >>> from coinrow import solve
    >>> svg = ring(solve([1, 2, 3, 4], rules="circular"))
    >>> svg.count('class="slice"'), 'data-slice="1" data-value="2" data-margin="2"' in svg
    (4, True)
    """
    import math

    if solution.starts is None:
        raise PictureError(f"rules {solution.rules}: only the pizza (circular) is drawn as a ring")
    n = solution.n
    check_length(n)
    best = {int(move) for move in solution.first_moves}
    margin = solution.margin
    heading = (
        f"Pizza of {n} slice{'s' if n != 1 else ''}: best first slice "
        f"{' or '.join(str(s) for s in sorted(best)) or 'none'}, "
        f"the first player's margin {format_value(margin if margin is not None else 0)}"
    )
    words = "Each slice: its value; outside: the first player's margin when it is eaten first"
    width = 2 * (RING_RADIUS + 70)
    scale = _scale(size, 480, width)
    data = {"data-rules": str(solution.rules), "data-coins": str(n)}
    root, background = _start("coinrow-ring", data, width, (heading, (
        f"{words}. Slices are numbered clockwise from 0 at the top; after the first slice "
        "each player eats a slice next to the eaten part. Optimal first slices are outlined."
    )))  # fmt: skip
    legend, font, y = _heading(root, heading, words, width, LEGEND_PX / scale)
    y += 1.45 * font
    _key(legend, y, font, BEST_FILL, "optimal first slice")
    cx, cy = width / 2, y + PAD + RING_RADIUS + 40
    height = cy + RING_RADIUS + 40 + PAD
    _set_height(root, background, width, height, scale)
    total = sum(solution.coins, 0 * solution.coins[0]) if n else 0

    def point(angle: float, radius: float) -> tuple[float, float]:
        return cx + radius * math.sin(angle), cy - radius * math.cos(angle)

    step = 2 * math.pi / max(n, 1)
    label_room = min(2 * math.pi * 0.62 * RING_RADIUS / max(n, 1), 0.7 * RING_RADIUS) - 4
    ordered = sorted(range(n), key=lambda s: s in best)  # outlines drawn last, on top
    for s in ordered:
        value, start_margin = solution.coins[s], solution.starts[s]
        with exact_arithmetic():
            first_total = halve(total + start_margin)
        chosen = s in best
        group = _element(root, "g", class_="slice", data_slice=s, data_value=format_value(value),
                         data_margin=format_value(start_margin), data_best=int(chosen))  # fmt: skip
        _element(group, "title").text = (
            f"slice {s}: {format_value(value)}; eaten first, the first player gets "
            f"{format_value(first_total)} (margin {format_value(start_margin)})"
            + ("; an optimal first slice" if chosen else "")
        )
        stroke = {"stroke": HIGHLIGHT_COLOR if chosen else PIZZA_STROKE,
                  "stroke_width": 4 if chosen else 1.5}  # fmt: skip
        fill = BEST_FILL if chosen else PIZZA_FILL
        if n == 1:
            _element(group, "circle", cx=cx, cy=cy, r=RING_RADIUS, fill=fill, **stroke)
        else:
            x0, y0 = point(s * step, RING_RADIUS)
            x1, y1 = point((s + 1) * step, RING_RADIUS)
            large = 1 if step > math.pi else 0
            arc = f"A{_fmt(RING_RADIUS)} {_fmt(RING_RADIUS)} 0 {large} 1 {_fmt(x1)} {_fmt(y1)}"
            wedge = f"M{_fmt(cx)} {_fmt(cy)} L{_fmt(x0)} {_fmt(y0)} {arc} Z"
            _element(group, "path", fill=fill, stroke_linejoin="round", d=wedge, **stroke)
        middle = (s + 0.5) * step if n > 1 else 0.0
        tx, ty = point(middle, 0.62 * RING_RADIUS if n > 1 else 0)
        text, size_ = fit_text(format_value(value), label_room, 20, SMALLEST_FONT, BOLD_DIGIT_EM)
        _element(group, "text", x=tx, y=ty + 0.35 * size_, font_size=size_, text_anchor="middle",
                 font_weight="bold", fill="#3d2c00").text = text  # fmt: skip
        mx, my = point(middle, RING_RADIUS + 24)
        shown = format_value(start_margin)
        text, size_ = fit_text(shown, 58, 14, SMALLEST_FONT, DIGIT_EM)
        _element(group, "text", class_="margin", x=mx, y=my + 0.35 * size_, font_size=size_,
                 text_anchor="middle", fill=HIGHLIGHT_COLOR if chosen else "#222",
                 font_weight="bold" if chosen else "normal").text = text  # fmt: skip
        ix, iy = point(middle, RING_RADIUS * 0.9 if n > 1 else 0.5 * RING_RADIUS)
        # every slice's number, from 0 as in the moves' notation and the slices' words
        index_font = 12 if n <= 16 else 9 if n <= 28 else 7
        _element(group, "text", class_="index", x=ix, y=iy + 0.35 * index_font,
                 font_size=index_font, text_anchor="middle",
                 fill="#5c4500").text = str(s)  # fmt: skip
    return SvgDiagram(ET.tostring(root, encoding="unicode"))


def repr_variant_svg(shown: IntervalTable | Solution) -> str | None:
    """Jupyter's ``_repr_svg_`` of a variant's table (its triangle) or of a pizza's solution
    (its ring); None over 40 coins or for other solutions, so IPython shows the text form
    (O(n^2) for a table, O(n) for a ring).

    >>> from coinrow import solve
    >>> repr_variant_svg(solve([1, 2, 3], rules="misere")) is None
    True
    """
    if len(shown) > MAX_COINS:
        return None
    if hasattr(shown, "optimal_line"):  # a table of subgames: its triangle
        return str(variant_triangle(cast("IntervalTable", shown), highlight="best"))
    return str(ring(shown)) if getattr(shown, "starts", None) is not None else None
