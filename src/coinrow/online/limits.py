"""The bounds of online play, each a number (docs/web.md lists them), read from
``COINROW_ONLINE_*`` environment variables."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields

from ..errors import InvalidOptionError

#: Prefix of the environment variables that set :class:`OnlineLimits`.
ENV_PREFIX = "COINROW_ONLINE_"


@dataclass(frozen=True)
class OnlineLimits:
    """Every bound of online play (O(1) to make).

    >>> OnlineLimits().frame_bytes, OnlineLimits.from_env({"COINROW_ONLINE_FRAME_BYTES": "512"}).frame_bytes
    (2048, 512)
    """  # noqa: E501

    #: Games not over created from one address.
    games_per_address: int = 20
    #: Games not over on the server (in all processes sharing the store).
    games_total: int = 5000
    #: WebSockets open from one address, and in all (per process).
    sockets_per_address: int = 64
    sockets_total: int = 10000
    #: Spectators of one game (per process).
    spectators_per_game: int = 200
    #: Frames a socket may send per second (a token bucket: this rate, a burst of twice it).
    frames_per_second: int = 10
    #: Largest frame a client may send, in bytes.
    frame_bytes: int = 2048
    #: Frames refused for flooding after which the socket (only it) is closed.
    flood_close: int = 200
    #: A game with no event for this many seconds is closed as idle.
    idle_seconds: int = 3600
    #: A game none of whose players has been connected for this long is closed as abandoned.
    abandon_seconds: int = 600
    #: A seat whose player has been away this long is freed for anyone with the link.
    seat_absence_seconds: int = 180
    #: Seconds between the sweeps that check clocks (idle, abandoned and freed seats are
    #: checked every ten sweeps).
    sweep_seconds: float = 1.0
    #: Seconds between a SQLite store's looks for events other processes stored (a read of
    #: SQLite's data_version; the events are read only when it changed).
    poll_seconds: float = 0.05
    #: Seconds after which a quiet socket compares its game's log with what it sent (a
    #: safety net: events reach sockets by announcement, within a process or across them).
    catch_up_seconds: float = 5.0

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> OnlineLimits:
        """The limits with ``COINROW_ONLINE_<FIELD>`` overrides (O(fields)); a bad value is
        an :class:`~coinrow.errors.InvalidOptionError` naming the variable."""
        environ = os.environ if environ is None else environ
        values: dict[str, float | int] = {}
        for item in fields(cls):
            name = ENV_PREFIX + item.name.upper()
            text = environ.get(name)
            if text is None:
                continue
            kind = float if item.type in ("float", float) else int
            try:
                value = kind(text)
            except ValueError:
                raise InvalidOptionError(f"{name}={text!r} is not a number") from None
            if value <= 0:
                raise InvalidOptionError(f"{name} must be positive, not {text}")
            values[item.name] = value
        return cls(**values)  # type: ignore[arg-type]
