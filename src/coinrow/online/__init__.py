"""Online games between people (and computer seats): rooms kept as logs of events, a
referee that checks every request with the library, and stores that keep every game
(SQLite by default, Redis for several server processes). No web code: ``coinrow.web.online``
serves it over HTTP and WebSockets."""

from __future__ import annotations

from .limits import OnlineLimits
from .referee import Referee, public, summary
from .room import PRESETS, Clock, OnlineError, Room, online_rules, token_hash
from .store import SqliteStore, Store

__all__ = [
    "PRESETS",
    "Clock",
    "OnlineError",
    "OnlineLimits",
    "Referee",
    "Room",
    "SqliteStore",
    "Store",
    "online_rules",
    "public",
    "summary",
    "token_hash",
]
