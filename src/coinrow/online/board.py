"""The board of an online game as SVG: the coins in their row (the pizza's on a circle), each
taken coin in its taker's colour, the coins left white, and the ends a move may take from
marked. Pages show it as it is; they draw nothing themselves.

Every coin is a ``<g class="coin">`` with ``data-index`` (0-based), ``data-value`` and
``data-seat`` (the seat that took it, ``""`` while it is on the table).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from ..game import Game, seat_name
from ..numbers import format_value

#: One colour per seat (repeating past eight seats).
SEAT_COLORS = (
    "#1f5fbf",
    "#17803a",
    "#b4232a",
    "#7b3fa0",
    "#b8660b",
    "#0f7c86",
    "#6b6b6b",
    "#a0307a",
)

_PITCH, _RADIUS = 44.0, 19.0


def board_svg(game: Game, *, title: str = "") -> str:
    """The board of ``game`` as an SVG document (O(n)).

    >>> svg = board_svg(Game([3, 9, 1], "L"))
    >>> svg.count('class="coin"'), 'data-index="0" data-value="3" data-seat="0"' in svg
    (3, True)
    """
    coins = game.coins
    n = len(coins)
    players = game.rules.players
    taker: dict[int, int] = {}
    for seat, indices in enumerate(game.coins_taken):
        for index in indices:
            taker[index] = seat
    position = game.position
    ends: set[int] = set()
    if not position.is_over and not (game.rules.circle and position.first_slice is None):
        remaining = position.remaining_indices()
        ends = {remaining[0], remaining[-1]}
    circle = game.rules.circle
    if circle:
        radius = max(80.0, n * _PITCH / (2 * math.pi))
        width = height = 2 * radius + 2 * _PITCH
        centre = width / 2

        def place(index: int) -> tuple[float, float]:
            angle = 2 * math.pi * index / n - math.pi / 2
            return centre + radius * math.cos(angle), centre + radius * math.sin(angle)
    else:
        width, height = max(n * _PITCH + 20, 200.0), 2 * _PITCH + 30

        def place(index: int) -> tuple[float, float]:
            return 10 + _PITCH * (index + 0.5), _PITCH

    legend = 24.0
    root = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "class": "coinrow-board",
            "viewBox": f"0 0 {width:.0f} {height + legend:.0f}",
            "width": f"{width:.0f}",
            "height": f"{height + legend:.0f}",
            "role": "img",
            "aria-label": title or f"Board: {n} coins, {len(taker)} taken",
        },
    )
    ET.SubElement(root, "title").text = title or f"Board of {n} coins"
    ET.SubElement(root, "rect", {"width": "100%", "height": "100%", "fill": "#ffffff", "rx": "6"})
    for index, coin in enumerate(coins):
        x, y = place(index)
        held = taker.get(index)
        group = ET.SubElement(
            root,
            "g",
            {
                "class": "coin",
                "data-index": str(index),
                "data-value": format_value(coin),
                "data-seat": "" if held is None else str(held),
            },
        )
        color = SEAT_COLORS[held % len(SEAT_COLORS)] if held is not None else "#ffffff"
        stroke = "#e8590c" if index in ends else "#333333"
        ET.SubElement(
            group,
            "circle",
            {
                "cx": f"{x:.1f}",
                "cy": f"{y:.1f}",
                "r": f"{_RADIUS:.0f}",
                "fill": color,
                "stroke": stroke,
                "stroke-width": "3" if index in ends else "1",
                "opacity": "0.55" if held is not None else "1",
            },
        )
        label = ET.SubElement(
            group,
            "text",
            {
                "x": f"{x:.1f}",
                "y": f"{y + 5:.1f}",
                "text-anchor": "middle",
                "font-size": "14",
                "font-family": "sans-serif",
                "fill": "#ffffff" if held is not None else "#111111",
            },
        )
        label.text = format_value(coin)
        ET.SubElement(group, "title").text = f"coin {index + 1}: {format_value(coin)}" + (
            f", taken by {seat_name(seat, players)}" if seat is not None else ""
        )
    key = ET.SubElement(root, "g", {"class": "key"})
    for seat in range(players):
        x = 10 + seat * 110
        ET.SubElement(
            key,
            "rect",
            {
                "x": str(x),
                "y": f"{height:.0f}",
                "width": "14",
                "height": "14",
                "fill": SEAT_COLORS[seat % len(SEAT_COLORS)],
            },
        )
        text = ET.SubElement(
            key, "text", {"x": str(x + 18), "y": f"{height + 12:.0f}", "font-size": "12"}
        )
        text.text = seat_name(seat, players)
    return ET.tostring(root, encoding="unicode")
