"""The board of an online game as SVG: the coins in their row (the pizza's on a circle), each
taken coin in its taker's colour, the coins left white, and the ends a move may take from
marked. Pages show it as it is; they draw nothing themselves.

Every coin is a ``<g class="coin">`` with ``data-index`` (0-based), ``data-value`` and
``data-seat`` (the seat that took it, ``""`` while it is on the table).
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

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
        height = 2 * radius + 2 * _PITCH
        width = max(height, 110.0 * players)  # wide enough for the key of every seat
        middle, centre = width / 2, height / 2

        def place(index: int) -> tuple[float, float]:
            angle = 2 * math.pi * index / n - math.pi / 2
            return middle + radius * math.cos(angle), centre + radius * math.sin(angle)
    else:
        # wide enough for the row and for the key of every seat
        width, height = max(n * _PITCH + 20, 200.0, 110.0 * players), 2 * _PITCH + 30

        def place(index: int) -> tuple[float, float]:
            return 10 + _PITCH * (index + 0.5), _PITCH

    legend = 24.0
    label = title or f"Board: {n} coins, {len(taker)} taken"
    # Written as text, not built as an ElementTree: a board is drawn for every move of every
    # game, and serialising a tree took five times as long. Only the title is free text.
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="coinrow-board" '
        f'viewBox="0 0 {width:.0f} {height + legend:.0f}" width="{width:.0f}" '
        f'height="{height + legend:.0f}" role="img" aria-label={quoteattr(label)}>'
        f"<title>{escape(title or f'Board of {n} coins')}</title>"
        '<rect width="100%" height="100%" fill="#ffffff" rx="6"/>'
        # what every coin shares is said once, on the group (SVG inherits it): a board goes
        # to every socket with every move
        f'<g class="coins" stroke="#333333" stroke-width="1" text-anchor="middle" '
        f'font-size="14" font-family="sans-serif">'
    ]
    for index, coin in enumerate(coins):
        x, y = place(index)
        held = taker.get(index)
        value = format_value(coin)
        end = ' stroke="#e8590c" stroke-width="3"' if index in ends else ""
        if held is None:
            look, ink, taken = 'fill="#ffffff"', "#111111", ""
        else:
            look = f'fill="{SEAT_COLORS[held % len(SEAT_COLORS)]}" opacity="0.55"'
            ink, taken = "#ffffff", f", taken by {seat_name(held, players)}"
        parts.append(
            f'<g class="coin" data-index="{index}" data-value="{value}" '
            f'data-seat="{"" if held is None else held}">'
            f'<circle cx="{x:g}" cy="{y:g}" r="{_RADIUS:.0f}" {look}{end}/>'
            f'<text x="{x:g}" y="{y + 5:g}" fill="{ink}" stroke="none">{value}</text>'
            f"<title>coin {index + 1}: {value}{taken}</title></g>"
        )
    parts.append("</g>")
    parts.append('<g class="key">')
    for seat in range(players):
        x = 10 + seat * 110
        parts.append(
            f'<rect x="{x}" y="{height:.0f}" width="14" height="14" '
            f'fill="{SEAT_COLORS[seat % len(SEAT_COLORS)]}"/>'
            f'<text x="{x + 18}" y="{height + 12:.0f}" font-size="12">'
            f"{seat_name(seat, players)}</text>"
        )
    parts.append("</g></svg>")
    return "".join(parts)
