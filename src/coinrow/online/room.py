"""A game room as a log of events: who sits where, the numbered moves, the clock, the end.

A room is never edited: it is the fold of its events (:meth:`Room.apply`), so every server
process that reads the same log holds the same room, and a process that restarts rebuilds
it from the store. :meth:`Room.check` is the referee: it turns a player's request into the
next event or refuses it with an :class:`OnlineError` whose ``code`` says why, and never
changes the room itself. Moves are checked by the library's :class:`~coinrow.game.Game`.

An event is plain JSON data ``{"seq": K, "type": ..., "at": SECONDS, ...}``; ``seq`` is its
place in the log (0 is ``created``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import CoinrowError
from ..game import Game, seat_name
from ..numbers import Row, Value, json_value
from ..record import Record
from ..rules import Rules, coerce_rules
from ..strategies import BUILTINS, get

#: The preset messages players may send (no free text): index -> words.
PRESETS: tuple[str, ...] = (
    "Hello!",
    "Good luck!",
    "Well played.",
    "Thanks!",
    "Oops.",
    "Nice move!",
    "One moment, please.",
    "Good game!",
)

#: Most coins of an online game (the board stays readable on a phone).
MAX_COINS = 40

#: Most messages one seat may send in one game, and most draw offers (the log stays short).
MAX_MESSAGES_PER_SEAT = 30
MAX_DRAW_OFFERS_PER_SEAT = 3

#: Longest clock: minutes per player, and seconds added per move.
MAX_CLOCK_MINUTES = 180
MAX_CLOCK_INCREMENT = 180

#: How a game ended (``result["reason"]``).
REASONS = ("finished", "resigned", "timeout", "drawn", "idle", "abandoned")


class OnlineError(CoinrowError):
    """A request the referee refuses; ``code`` names the reason for programs (``turn``,
    ``stale``, ``seat``, ``full``, ``over``, ...).

    >>> OnlineError("turn", "it is the second player's turn").code
    'turn'
    """

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.details = details


def new_token() -> str:
    """A secret seat token: 32 random bytes, URL-safe text (O(1)).

    >>> len(new_token()) >= 43
    True
    """
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """The hash stored in place of a seat's token (SHA-256, hex; O(len(token))).

    >>> token_hash("abc")[:12]
    'ba7816bf8f01'
    """
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def online_rules(rules: Rules | str | None) -> Rules:
    """The rules, if a room can referee them: rules whose positions a game holds and whose
    every seat chooses its moves (not ``reply``, whose second player is a fixed strategy,
    nor ``stone-game-ii``) (O(1)).

    >>> str(online_rules("players:4")), str(online_rules(None))
    ('players:4:left', 'plain')
    >>> online_rules("reply:greedy")
    Traceback (most recent call last):
    ...
    coinrow.online.room.OnlineError: online games need rules every seat plays (not reply:greedy)
    """
    chosen = coerce_rules(rules)
    if not chosen.positions or chosen.known_opponent:
        raise OnlineError("rules", f"online games need rules every seat plays (not {chosen})")
    return chosen


@dataclass(frozen=True)
class Clock:
    """A clock: ``minutes`` per player and ``increment`` seconds added after each move.

    >>> Clock(3, 2).to_dict()
    {'minutes': 3, 'increment': 2}
    """

    minutes: int
    increment: int = 0

    def __post_init__(self) -> None:
        for name, most, least in (
            ("minutes", MAX_CLOCK_MINUTES, 1),
            ("increment", MAX_CLOCK_INCREMENT, 0),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
                raise OnlineError(
                    "clock", f"clock {name} must be a whole number from {least} to {most}"
                )

    def to_dict(self) -> dict[str, int]:
        return {"minutes": self.minutes, "increment": self.increment}


@dataclass
class Seat:
    """One seat: a person (``strategy`` None) or the computer playing ``strategy``."""

    strategy: str | None = None
    token_hash: str | None = None
    resigned: bool = False

    @property
    def free(self) -> bool:
        return self.strategy is None and self.token_hash is None


@dataclass
class Room:
    """The state of one online game, the fold of its events (see the module's doc).

    >>> room = Room.from_events([created_event("g1", [3, 9, 1, 2], at=0.0)])
    >>> room.status, room.free_seats(), room.seq
    ('waiting', [0, 1], 0)
    """

    game_id: str
    rules: Rules
    coins: tuple[Value, ...]
    seats: list[Seat]
    clock: Clock | None
    created_at: float
    rematch_of: str | None = None
    game: Game = field(init=False)
    seq: int = -1
    started_at: float | None = None
    updated_at: float = 0.0
    last_move_at: float | None = None
    remaining: list[float] = field(default_factory=list)
    draw_offer: set[int] = field(default_factory=set)
    draw_offers: list[int] = field(default_factory=list)
    messages: list[int] = field(default_factory=list)
    said: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    rematch: str | None = None

    def __post_init__(self) -> None:
        self.game = Game(self.coins, rules=self.rules)
        players = self.rules.players
        self.remaining = [60.0 * self.clock.minutes if self.clock else 0.0] * players
        self.draw_offers = [0] * players
        self.messages = [0] * players

    # --- reading the log --------------------------------------------------------------------
    @classmethod
    def from_events(cls, events: Sequence[Mapping[str, Any]]) -> Room:
        """The room of a whole log (O(events)); the first event must be ``created``."""
        if not events or events[0].get("type") != "created":
            raise OnlineError("log", "a game's log starts with its created event")
        first = events[0]
        clock = first.get("clock")
        room = cls(
            game_id=str(first["game"]),
            rules=online_rules(first["rules"]),
            coins=Row.of(first["coins"]),
            seats=[Seat(strategy=s) for s in first["seats"]],
            clock=Clock(**clock) if clock else None,
            created_at=float(first["at"]),
            rematch_of=first.get("rematch_of"),
        )
        room.seq = 0
        room.updated_at = room.created_at
        room._maybe_start(room.created_at)
        for event in events[1:]:
            room.apply(event)
        return room

    def apply(self, event: Mapping[str, Any]) -> None:
        """Fold one event into the room (O(1); a move O(coins taken)). Events must come in
        order: ``seq`` one more than the room's."""
        if event.get("seq") != self.seq + 1:
            raise OnlineError("log", f"event {event.get('seq')} follows event {self.seq}")
        kind, at = event["type"], float(event["at"])
        seat = int(event.get("seat", -1))
        if kind == "seated":
            self.seats[seat].token_hash = event["token_hash"]
            self._maybe_start(at)
        elif kind == "freed":
            self.seats[seat].token_hash = None
        elif kind == "move":
            self._run_clock(seat, at)
            self.game.push(event["move"])
            self.draw_offer.clear()
            self.last_move_at = at
            if self.game.position.is_over:
                self._end("finished", self.rules.winners(self.game.totals))
        elif kind == "resigned":
            self.seats[seat].resigned = True
            self._end("resigned", self._leaders(exclude=seat))
        elif kind == "timeout":
            self._end("timeout", self._leaders(exclude=seat))
        elif kind == "draw-offered":
            self.draw_offer.add(seat)
            self.draw_offers[seat] += 1
        elif kind == "draw-declined":
            self.draw_offer.clear()
        elif kind == "drawn":
            self._end("drawn", tuple(range(self.rules.players)))
        elif kind == "said":
            self.messages[seat] += 1
            self.said.append({"seat": seat, "message": event["message"], "at": at})
        elif kind == "closed":
            self._end(event["reason"], ())
        elif kind == "rematch":
            self.rematch = event["game"]
        else:
            raise OnlineError("log", f"unknown event {kind!r}")
        self.seq = event["seq"]
        self.updated_at = at

    def _maybe_start(self, at: float) -> None:
        if self.started_at is None and not self.free_seats():
            self.started_at = at

    def _run_clock(self, seat: int, at: float) -> None:
        if self.clock is None:
            return
        since = self.last_move_at if self.last_move_at is not None else self.started_at
        self.remaining[seat] -= max(0.0, at - (since or at))
        self.remaining[seat] += self.clock.increment

    def _leaders(self, *, exclude: int) -> tuple[int, ...]:
        """The seats other than ``exclude`` with the best total so far (the other seat of
        two players)."""
        others = [s for s in range(self.rules.players) if s != exclude]
        totals = self.game.totals
        best = self.rules.best_of([totals[s] for s in others])
        return tuple(s for s in others if totals[s] == best)

    def _end(self, reason: str, winners: Sequence[int]) -> None:
        self.result = {"reason": reason, "winners": list(winners)}

    # --- reading the state ------------------------------------------------------------------
    @property
    def status(self) -> str:
        """``waiting`` (a seat is free before the first move), ``playing`` or ``over``."""
        if self.result is not None:
            return "over"
        if self.started_at is None:
            return "waiting"
        return "playing"

    @property
    def number(self) -> int:
        """The number the next move must carry: the moves played so far (O(1))."""
        return len(self.game.moves)

    @property
    def mover(self) -> int | None:
        """The seat to move, None when the game is not being played (O(1))."""
        if self.status != "playing":
            return None
        return self.game.position.seat

    def free_seats(self) -> list[int]:
        """Seats nobody holds (O(seats))."""
        return [index for index, seat in enumerate(self.seats) if seat.free]

    def seat_of(self, token: str | None) -> int | None:
        """The seat whose token is ``token``, compared in constant time (O(seats))."""
        if not isinstance(token, str) or not token or len(token) > 128:
            return None
        hashed = token_hash(token)
        found = None
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, hashed):
                found = index
        return found

    def clock_left(self, now: float) -> list[float] | None:
        """Seconds left on each player's clock at ``now`` (None without a clock; O(seats))."""
        if self.clock is None:
            return None
        left = list(self.remaining)
        mover = self.mover
        if mover is not None:
            since = self.last_move_at if self.last_move_at is not None else self.started_at
            left[mover] -= max(0.0, now - (since or now))
        return [max(0.0, value) for value in left]

    def flagged(self, now: float) -> int | None:
        """The mover, if their clock ran out by ``now`` (O(seats))."""
        left = self.clock_left(now)
        mover = self.mover
        if left is None or mover is None:
            return None
        return mover if left[mover] <= 0.0 else None

    def to_dict(self, now: float) -> dict[str, Any]:
        """The room for pages and clients: no token and no token hash (O(moves))."""
        players = self.rules.players
        return {
            "game": self.game_id,
            "rules": str(self.rules),
            "rules_title": self.rules.title,
            "coins": [json_value(coin) for coin in self.coins],
            "players": players,
            "seats": [
                {
                    "seat": index,
                    "name": seat_name(index, players),
                    "computer": seat.strategy,
                    "taken": not seat.free,
                }
                for index, seat in enumerate(self.seats)
            ],
            "seq": self.seq,
            "status": self.status,
            "moves": list(self.game.moves),
            "line": self.game.line,
            "number": self.number,
            "mover": self.mover,
            "legal": [
                {"move": move, "words": self.rules.move_words(move)}
                for move in (self.game.position.legal_moves() if self.mover is not None else ())
            ],
            "totals": [json_value(total) for total in self.game.totals],
            "clock": self.clock.to_dict() if self.clock else None,
            "clock_left": self.clock_left(now),
            "draw_offer": sorted(self.draw_offer),
            "draws_allowed": self.draws_allowed,
            "said": list(self.said),
            "result": self.result,
            "rematch": self.rematch,
            "rematch_of": self.rematch_of,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }

    @property
    def draws_allowed(self) -> bool:
        """Two players may agree a draw (with more seats, a draw would need every other
        player's say, which presets do not carry)."""
        return self.rules.players == 2

    # --- the referee ------------------------------------------------------------------------
    def check(self, seat: int | None, request: Mapping[str, Any], at: float) -> dict[str, Any]:
        """The event a player's ``request`` makes, or :class:`OnlineError` (O(legal moves)).
        ``seat`` None is a spectator. Requests: ``{"type": "move", "number": N, "move":
        "L"}``, ``resign``, ``draw`` with ``"action": "offer"|"accept"|"decline"``, ``say``
        with ``"message": INDEX`` (:data:`PRESETS`). The room is not changed.

        >>> room = Room.from_events([created_event("g", [1, 5, 2], seats=[None, "greedy"],
        ...                                        at=0.0)])
        >>> room.apply(seated_event(room, 0, "h", at=1.0))
        >>> room.check(0, {"type": "move", "number": 0, "move": "r"}, at=2.0)["move"]
        'R'
        >>> room.check(0, {"type": "move", "number": 1, "move": "L"}, at=2.0)
        Traceback (most recent call last):
        ...
        coinrow.online.room.OnlineError: move number 1 is ahead: the next move is number 0
        """
        kind = request.get("type")
        if seat is None:
            raise OnlineError("spectator", "spectators only watch: take a seat to play")
        if kind == "move":  # a move sent again after the game ended is still stale
            return self._check_move(seat, request, at)
        if self.status == "over":
            raise OnlineError("over", "the game is over")
        if kind == "say":
            message = request.get("message")
            if isinstance(message, bool) or not isinstance(message, int):
                raise OnlineError("malformed", "say needs a message number")
            if not 0 <= message < len(PRESETS):
                raise OnlineError("malformed", f"message must be 0 to {len(PRESETS) - 1}")
            if self.messages[seat] >= MAX_MESSAGES_PER_SEAT:
                raise OnlineError("limit", f"at most {MAX_MESSAGES_PER_SEAT} messages a game")
            return self._event("said", at, seat=seat, message=message)
        if self.status != "playing":
            raise OnlineError("waiting", "the game has not started: a seat is free")
        if kind == "resign":
            return self._event("resigned", at, seat=seat)
        if kind == "draw":
            return self._check_draw(seat, request.get("action"), at)
        raise OnlineError("malformed", f"unknown request type {kind!r}")

    def _check_move(self, seat: int, request: Mapping[str, Any], at: float) -> dict[str, Any]:
        number, move = request.get("number"), request.get("move")
        if isinstance(number, bool) or not isinstance(number, int):
            raise OnlineError("malformed", "a move needs its number (the moves played before it)")
        if not isinstance(move, str) or len(move) > 16:
            raise OnlineError("malformed", "a move needs its text, such as 'L'")
        if number < self.number:
            played = self.game.moves[number] if number >= 0 else None
            raise OnlineError(
                "stale",
                f"move number {number} was already played: the next move is number {self.number}",
                played=played,
            )
        if number > self.number:
            raise OnlineError(
                "ahead", f"move number {number} is ahead: the next move is number {self.number}"
            )
        if self.status == "over":
            raise OnlineError("over", "the game is over")
        if self.status != "playing":
            raise OnlineError("waiting", "the game has not started: a seat is free")
        mover = self.game.position.seat
        if seat != mover:
            raise OnlineError("turn", f"it is {seat_words(mover, self.rules.players)}'s turn")
        if self.flagged(at) is not None:
            raise OnlineError("timeout", "your clock has run out")
        try:
            text = self.game.position.move_text(move.strip().upper())
            self.game.position.play(text)
        except CoinrowError as error:
            raise OnlineError("illegal", str(error)) from None
        return self._event("move", at, seat=seat, number=number, move=text)

    def _check_draw(self, seat: int, action: object, at: float) -> dict[str, Any]:
        if not self.draws_allowed:
            raise OnlineError("draw", f"draws are agreed by two players, not {self.rules}")
        if action == "offer":
            if seat in self.draw_offer:
                raise OnlineError("draw", "you have offered a draw already")
            if self.draw_offer:
                return self._event("drawn", at)
            if self.draw_offers[seat] >= MAX_DRAW_OFFERS_PER_SEAT:
                raise OnlineError("limit", f"at most {MAX_DRAW_OFFERS_PER_SEAT} draw offers")
            return self._event("draw-offered", at, seat=seat)
        if action in ("accept", "decline"):
            if not self.draw_offer or seat in self.draw_offer:
                raise OnlineError("draw", "no draw offer from the other player to answer")
            return self._event("drawn" if action == "accept" else "draw-declined", at, seat=seat)
        raise OnlineError("malformed", "draw needs action offer, accept or decline")

    def _event(self, kind: str, at: float, **fields: Any) -> dict[str, Any]:
        return {"seq": self.seq + 1, "type": kind, "at": at, **fields}

    def computer_move(self, at: float) -> dict[str, Any] | None:
        """The event of the computer's move at ``at`` when a computer seat is to move, else None
        (O(the strategy's move); the optimal strategy's table is O(n^2) of at most
        :data:`MAX_COINS` coins)."""
        mover = self.mover
        if mover is None or self.seats[mover].strategy is None:
            return None

        name = self.seats[mover].strategy or "optimal"
        strategy = get(name, seed=self.number, allow_user=False, rules=self.rules)
        move = str(strategy(self.game.position))
        return self._event("move", at, seat=mover, number=self.number, move=move)

    def record_text(self) -> str:
        """The game in coinrow's record format (:class:`~coinrow.record.Record`; O(moves))."""

        headers = {"game": self.game_id, "result": self._result_words()}
        rules = None if self.rules.is_plain else self.rules
        return Record(list(self.coins), self.game.line, headers, rules=rules).to_text()

    def _result_words(self) -> str:
        if self.result is None:
            return "in progress"
        winners = ", ".join(seat_name(s, self.rules.players) for s in self.result["winners"])
        return f"{self.result['reason']}: {winners or 'no winner'}"


def seat_words(seat: int, players: int) -> str:
    """A seat for sentences: ``the first player``, ``player 3`` (O(1)).

    >>> seat_words(1, 2), seat_words(2, 4)
    ('the second player', 'player 3')
    """
    return f"the {seat_name(seat)} player" if players == 2 else seat_name(seat, players)


def created_event(
    game_id: str,
    coins: Sequence[object],
    *,
    rules: Rules | str | None = None,
    seats: Sequence[str | None] | None = None,
    clock: Clock | None = None,
    rematch_of: str | None = None,
    at: float,
) -> dict[str, Any]:
    """The first event of a game, checked: rules a room referees (:func:`online_rules`), 2
    to :data:`MAX_COINS` coins, one entry per seat (None: a person; else a built-in
    strategy's name that plays the rules) (O(n)).

    >>> created_event("g", [1, 2], seats=[None, "greedy"], at=0.0)["seats"]
    [None, 'greedy']
    >>> created_event("g", [1], at=0.0)
    Traceback (most recent call last):
    ...
    coinrow.online.room.OnlineError: an online game has 2 to 40 coins, not 1
    """
    chosen = online_rules(rules)
    row = Row.of(coins)
    if not 2 <= len(row) <= MAX_COINS:
        raise OnlineError("coins", f"an online game has 2 to {MAX_COINS} coins, not {len(row)}")
    players = chosen.players
    seats = list(seats) if seats is not None else [None] * players
    if len(seats) != players:
        raise OnlineError("seats", f"the rules {chosen} seat {players} players, not {len(seats)}")
    if all(seat is not None for seat in seats):
        raise OnlineError("seats", "at least one seat must be a person's")

    for seat in seats:
        if seat is not None:
            if not isinstance(seat, str) or seat.partition(":")[0] not in BUILTINS:
                raise OnlineError("seats", f"a computer seat plays a built-in strategy: {seat!r}")
            try:
                get(seat, seed=0, allow_user=False, rules=chosen)
            except CoinrowError as error:
                raise OnlineError("seats", str(error)) from None
    return {
        "seq": 0,
        "type": "created",
        "at": at,
        "game": game_id,
        "rules": str(chosen),
        "coins": [json_value(coin) for coin in row],
        "seats": seats,
        "clock": clock.to_dict() if clock else None,
        "rematch_of": rematch_of,
    }


def seated_event(room: Room, seat: int, token: str, *, at: float) -> dict[str, Any]:
    """The event giving a free seat to the holder of ``token`` (its hash is stored) (O(1))."""
    if not 0 <= seat < len(room.seats) or not room.seats[seat].free:
        raise OnlineError("full", "that seat is taken")
    return room._event("seated", at, seat=seat, token_hash=token_hash(token))
