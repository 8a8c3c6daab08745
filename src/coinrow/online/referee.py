"""The referee of online games: creates rooms, seats players, checks and stores requests,
plays the computer's seats, closes games whose clock ran out or whose players left.

It holds each room it has read (:class:`~coinrow.online.room.Room`) and keeps it current
from the store's log; every change is a compare-and-append (:meth:`Store.append
<coinrow.online.store.Store.append>`), so several processes sharing one store referee the
same games without writing a move twice: a process that lost the race re-reads the log and
checks the request again.
"""

from __future__ import annotations

import functools
import secrets
import threading
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Concatenate, ParamSpec, TypeVar

from ..numbers import json_value
from ..rules import Rules
from .limits import OnlineLimits
from .room import Clock, OnlineError, Room, created_event, new_token, token_hash
from .store import Store

#: Attempts at a compare-and-append before a request is refused as busy.
ATTEMPTS = 8

#: Locks that the games' requests share (a game's is chosen by its id).
LOCK_STRIPES = 64

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _locked(
    method: Callable[Concatenate[Referee, _P], _R],
) -> Callable[Concatenate[Referee, _P], _R]:
    """Run a referee's method holding the lock of its game (its first argument, a game's
    id), or the referee's own lock for a method on no game yet (``create``): requests on
    one game go one at a time, requests on different games at once (the web app calls the
    referee from worker threads, so a store's round trip holds up only its own game)."""

    @functools.wraps(method)
    def run(self: Referee, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        first = args[0] if args else None
        with self.lock_of(first) if isinstance(first, str) else self._lock:
            return method(self, *args, **kwargs)

    return run  # type: ignore[return-value]  # mypy: wraps() with Concatenate


def new_game_id() -> str:
    """A game's id: 12 random hexadecimal digits (48 bits; O(1)).

    >>> len(new_game_id())
    12
    """
    return secrets.token_hex(6)


def summary(room: Room) -> dict[str, Any]:
    """A game's line in the lists of recent and live games (O(seats)).

    >>> from coinrow.online.room import created_event
    >>> summary(Room.from_events([created_event("g", [1, 2], at=0.0)]))["status"]
    'waiting'
    """
    return {
        "game": room.game_id,
        "rules": str(room.rules),
        "players": room.rules.players,
        "coins": len(room.coins),
        "status": room.status,
        "moves": room.number,
        "totals": [json_value(total) for total in room.game.totals],
        "result": room.result,
        "free_seats": room.free_seats(),
        "computer_seats": [i for i, seat in enumerate(room.seats) if seat.strategy],
        "created_at": room.created_at,
        "updated_at": room.updated_at,
    }


class Referee:
    """Online games kept in ``store`` under ``limits``; ``clock`` gives the time in seconds
    (every method's cost is O(events read) plus the store's).

    >>> import tempfile
    >>> from coinrow.online.store import SqliteStore
    >>> referee = Referee(SqliteStore(tempfile.mkdtemp()))
    >>> room, token = referee.create([4, 1, 9, 2], seats=[None, "optimal"], address="a")
    >>> seat = referee.room(room.game_id).seat_of(token)
    >>> events = referee.play(room.game_id, seat, {"type": "move", "number": 0, "move": "R"})
    >>> [(e["seat"], e["move"]) for e in events]  # the computer answers at once
    [(0, 'R'), (1, 'R')]
    """

    def __init__(
        self,
        store: Store,
        limits: OnlineLimits | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.limits = limits or OnlineLimits()
        self.clock = clock
        self._rooms: dict[str, Room] = {}
        self._sweeps = 0
        self._lock = threading.RLock()  # for requests on no game yet
        self._stripes = [threading.RLock() for _ in range(LOCK_STRIPES)]

    def lock_of(self, game_id: str) -> threading.RLock:
        """The lock of a game's requests: one of :data:`LOCK_STRIPES` locks, chosen by the
        game's id (bounded, whatever the number of games; O(len(game_id)))."""
        return self._stripes[zlib.crc32(game_id.encode("utf-8", "replace")) % LOCK_STRIPES]

    # --- rooms --------------------------------------------------------------------------
    @_locked
    def room(self, game_id: str, *, fresh: bool = False) -> Room:
        """The game's room, read from the store the first time (``fresh``: brought up to
        date with the store's log) (O(new events))."""
        room = self._rooms.get(game_id)
        if room is None:
            events = self.store.events(game_id) if _good_id(game_id) else []
            if not events:
                raise OnlineError("unknown", f"no game {game_id!r}")
            room = Room.from_events(events)
            if room.status != "over":
                self._rooms[game_id] = room  # finished games are read again when asked
            return room
        if fresh:
            for event in self.store.events(game_id, room.seq + 1):
                room.apply(event)
        return room

    @_locked
    def heard(self, game_id: str, event: dict[str, Any]) -> None:
        """Apply a stored event announced by the store (another process's, through Redis or
        the SQLite feed) to the room in memory when it is the room's next event, so the room
        is current without reading the log (O(1) a move); otherwise nothing (the room is
        read from the log when next needed fresh)."""
        room = self._rooms.get(game_id)
        if room is not None and event.get("seq") == room.seq + 1:
            room.apply(event)
            if room.status == "over":
                self._rooms.pop(game_id, None)

    @_locked
    def forget(self, game_id: str) -> None:
        """Drop a room from memory (it is read from the store when next needed; O(1))."""
        self._rooms.pop(game_id, None)

    def rooms_held(self) -> int:
        """Rooms held in memory (O(1))."""
        return len(self._rooms)

    def _commit(self, game_id: str, make: Callable[[Room], dict[str, Any]]) -> dict[str, Any]:
        """Store the event ``make`` builds from the current room, checking it again against a
        fresh room when another process wrote first (O(attempts))."""
        for _ in range(ATTEMPTS):
            room = self.room(game_id)
            try:
                event = make(room)
            except OnlineError:
                # refused on the room in memory: check again on the store's log, which
                # another process may have moved on
                room = self.room(game_id, fresh=True)
                event = make(room)
            room.apply(event)
            if self.store.append(game_id, event, summary(room)):
                if room.status == "over":
                    self._rooms.pop(game_id, None)
                return event
            self._rooms.pop(game_id, None)  # another process wrote first: read the log again
        raise OnlineError("busy", "the game is busy: try again")

    def _computer(self, game_id: str) -> list[dict[str, Any]]:
        """The computer's moves while a computer seat is to move (O(moves made))."""
        made: list[dict[str, Any]] = []
        while True:
            room = self.room(game_id)
            if room.mover is None or room.seats[room.mover].strategy is None:
                return made
            made.append(self._commit(game_id, lambda r: _computer_event(r, self.clock())))

    # --- what clients ask ---------------------------------------------------------------
    @_locked
    def create(
        self,
        coins: Sequence[object],
        *,
        rules: Rules | str | None = None,
        seats: Sequence[str | None] | None = None,
        clock: Clock | Mapping[str, int] | None = None,
        seat: int = 0,
        address: str,
        rematch_of: str | None = None,
    ) -> tuple[Room, str]:
        """A new game, with the creator in ``seat``: the room and the creator's secret token
        (only its hash is stored) (O(n) and the computer's first moves)."""
        if self.store.live_count(address) >= self.limits.games_per_address:
            raise OnlineError(
                "limit", f"at most {self.limits.games_per_address} live games from one address"
            )
        if self.store.live_count() >= self.limits.games_total:
            raise OnlineError("limit", f"the server holds {self.limits.games_total} live games")
        if isinstance(clock, Mapping):
            clock = Clock(**{key: clock[key] for key in ("minutes", "increment") if key in clock})
        game_id, now = new_game_id(), self.clock()
        first = created_event(
            game_id, coins, rules=rules, seats=seats, clock=clock, rematch_of=rematch_of, at=now
        )
        room = Room.from_events([first])
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in room.free_seats():
            raise OnlineError("seats", f"seat {seat!r} is not a free seat of this game")
        self.store.create(first, summary(room), address)
        token = new_token()
        self._commit(game_id, lambda r: _seated(r, seat, token_hash(token), now))
        self.store.touch(game_id, seat, now)
        self._computer(game_id)
        return self.room(game_id), token

    @_locked
    def join(self, game_id: str, *, seat: int | None = None) -> tuple[int, str]:
        """Take a free seat (the first, or ``seat``): the seat and its new secret token;
        ``full`` when none is free (O(seats))."""
        token, now = new_token(), self.clock()

        def take(room: Room) -> dict[str, Any]:
            if room.status == "over":
                raise OnlineError("over", "the game is over")
            free = room.free_seats()
            if not free:
                raise OnlineError("full", "every seat is taken: you can watch")
            chosen = free[0] if seat is None else seat
            if chosen not in free:
                raise OnlineError("full", f"seat {chosen} is taken")
            return _seated(room, chosen, token_hash(token), now)

        event = self._commit(game_id, take)
        self.store.touch(game_id, event["seat"], now)
        self._computer(game_id)
        return event["seat"], token

    @_locked
    def play(
        self, game_id: str, seat: int | None, request: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """Check and store a seat's request (a move, resign, draw, a preset message), then the
        computer's answers: the events stored (:meth:`Room.check
        <coinrow.online.room.Room.check>` says what is refused)."""
        if request.get("type") == "rematch":
            return [self.rematch(game_id, seat)]
        now = self.clock()
        event = self._commit(game_id, lambda room: room.check(seat, request, now))
        return [event, *self._computer(game_id)]

    @_locked
    def rematch(self, game_id: str, seat: int | None) -> dict[str, Any]:
        """A new game of the same row, rules and clock with every player moved one seat on
        (two players swap), each keeping their token; the old game's ``rematch`` event
        names it (O(n))."""
        old = self.room(game_id, fresh=True)
        if seat is None:
            raise OnlineError("spectator", "spectators only watch: take a seat to play")
        if old.status != "over":
            raise OnlineError("rematch", "a rematch follows a finished game")
        if old.rematch is not None:
            raise OnlineError("rematch", f"the rematch is game {old.rematch}")
        players = old.rules.players
        moved = [old.seats[(index - 1) % players] for index in range(players)]
        now = self.clock()
        first = created_event(
            new_game_id(),
            list(old.coins),
            rules=old.rules,
            seats=[s.strategy for s in moved],
            clock=old.clock,
            rematch_of=game_id,
            at=now,
        )
        new_id = first["game"]
        self.store.create(first, summary(Room.from_events([first])), "rematch")
        for index, held in enumerate(moved):
            if held.token_hash is not None:
                hashed = held.token_hash
                self._commit(new_id, lambda r, i=index, h=hashed: _seated(r, i, h, now))  # type: ignore[misc]
                self.store.touch(new_id, index, now)
        try:
            event = self._commit(game_id, lambda room: _rematch(room, new_id, now))
        except OnlineError:
            self._commit(new_id, lambda r: r._event("closed", now, reason="abandoned"))
            raise
        self._computer(new_id)
        return event

    @_locked
    def seen(self, game_id: str, seat: int) -> None:
        """Note that ``seat``'s player is connected now (O(1))."""
        self.store.touch(game_id, seat, self.clock())

    def seen_many(self, seats: list[tuple[str, int]]) -> None:
        """Note that each ``(game, seat)``'s player is connected now, in one write
        (O(seats))."""
        self.store.touch_many(seats, self.clock())

    def events(self, game_id: str, since: int = 0) -> list[dict[str, Any]]:
        """The game's events from ``since`` on, as stored, without token hashes (O(events))."""
        return [public(event) for event in self.store.events(game_id, since)]

    # --- the sweep ----------------------------------------------------------------------
    def sweep(self) -> list[dict[str, Any]]:
        """Close games whose mover's clock ran out (every call, rooms in memory); every tenth
        call also free seats whose player has been away, and close games abandoned or idle
        (every live game of the store): the events stored (O(live games))."""
        self._sweeps += 1
        stored: list[dict[str, Any]] = []
        now = self.clock()
        for game_id, room in list(self._rooms.items()):
            if room.clock is not None and room.flagged(now) is not None:
                with self.lock_of(game_id):
                    stored.extend(self._try(game_id, lambda r: _timeout(r, now)))
        if self._sweeps % 10:
            return stored
        for game_id in self.store.live_ids():
            with self.lock_of(game_id):  # game by game: requests go on meanwhile
                stored.extend(self._sweep_game(game_id, now))
        return stored

    def _sweep_game(self, game_id: str, now: float) -> list[dict[str, Any]]:
        """Close the game if abandoned or idle, else free the seats of players away."""
        stored: list[dict[str, Any]] = []
        try:
            room = self.room(game_id, fresh=True)
        except OnlineError:
            return stored
        seen = self.store.last_seen(game_id)
        people = [i for i, s in enumerate(room.seats) if s.strategy is None]
        latest = max([room.created_at, *(seen.get(i, 0.0) for i in people)])
        if now - latest > self.limits.abandon_seconds:
            return self._try(game_id, lambda r: _closed(r, "abandoned", now))
        if now - room.updated_at > self.limits.idle_seconds:
            return self._try(game_id, lambda r: _closed(r, "idle", now))
        for index in people:
            away = now - seen.get(index, room.created_at)
            if not room.seats[index].free and away > self.limits.seat_absence_seconds:
                stored.extend(self._try(game_id, lambda r, i=index: _freed(r, i, now)))  # type: ignore[misc]
        return stored

    def _try(self, game_id: str, make: Callable[[Room], dict[str, Any]]) -> list[dict[str, Any]]:
        try:
            return [self._commit(game_id, make)]
        except OnlineError:
            return []  # the game changed meanwhile (another process swept it first)


def _good_id(game_id: str) -> bool:
    return 1 <= len(game_id) <= 32 and all(c.isalnum() or c in "-_" for c in game_id)


def public(event: Mapping[str, Any]) -> dict[str, Any]:
    """An event as clients see it: without the seat's token hash (O(fields)).

    >>> public({"seq": 1, "type": "seated", "seat": 0, "token_hash": "ab"})
    {'seq': 1, 'type': 'seated', 'seat': 0}
    """
    return {key: value for key, value in event.items() if key != "token_hash"}


def _seated(room: Room, seat: int, hashed: str, at: float) -> dict[str, Any]:
    if not 0 <= seat < len(room.seats) or not room.seats[seat].free:
        raise OnlineError("full", f"seat {seat} is taken")
    return room._event("seated", at, seat=seat, token_hash=hashed)


def _computer_event(room: Room, at: float) -> dict[str, Any]:
    event = room.computer_move(at)
    if event is None:
        raise OnlineError("turn", "no computer seat is to move")
    return event


def _timeout(room: Room, at: float) -> dict[str, Any]:
    flagged = room.flagged(at)
    if flagged is None:
        raise OnlineError("timeout", "no clock ran out")
    return room._event("timeout", at, seat=flagged)


def _closed(room: Room, reason: str, at: float) -> dict[str, Any]:
    if room.status == "over":
        raise OnlineError("over", "the game is over")
    return room._event("closed", at, reason=reason)


def _freed(room: Room, seat: int, at: float) -> dict[str, Any]:
    if room.status == "over" or room.seats[seat].free:
        raise OnlineError("over", "nothing to free")
    return room._event("freed", at, seat=seat)


def _rematch(room: Room, new_id: str, at: float) -> dict[str, Any]:
    if room.rematch is not None:
        raise OnlineError("rematch", f"the rematch is game {room.rematch}")
    return room._event("rematch", at, game=new_id)
