"""Play a friend online: the REST endpoints and the WebSocket of :mod:`coinrow.online`.

A thin shell: the referee (:class:`~coinrow.online.Referee`) checks and stores everything;
this module reads requests and frames, bounds what each socket may cost, and passes events
on. The store is chosen from the environment the first time a game is asked for:
``COINROW_ONLINE_REDIS`` (a Redis URL: several processes share games) or else SQLite in
``COINROW_ONLINE_DATA`` (default :func:`default_data_dir`); ``coinrow serve --data-dir``
and ``--redis`` set them.

Frames are JSON objects with a ``type``. A client first sends ``hello`` (``token``: its
seat's secret, or none to watch; ``since``: the first event it has not seen; ``board``:
send the board's SVG with each state), then ``move`` (``number``, ``move``), ``resign``,
``draw`` (``action``), ``say`` (``message``: a preset's number), ``rematch`` or ``ping``.
The server sends ``welcome`` (the seat, the state and the events since ``since``),
``event`` (each stored event with the state after it), ``ack``, ``pong`` and ``error``
(``code`` and ``detail``) for every frame it refuses; a refused frame never closes the
socket, except a flood past :attr:`~coinrow.online.OnlineLimits.flood_close` refusals.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import segno
from annotated_types import Interval
from fastapi import APIRouter, Query, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ..analysis import analyze
from ..online import PRESETS, OnlineError, OnlineLimits, Referee, public
from ..online.board import board_svg
from ..online.redis_store import RedisStore
from ..online.store import SqliteStore, Store
from ..rules import RULES
from .models import ErrorResponse

_T = TypeVar("_T")

#: The environment variables ``coinrow serve`` sets for every server process.
DATA_VARIABLE = "COINROW_ONLINE_DATA"
REDIS_VARIABLE = "COINROW_ONLINE_REDIS"

#: Seconds a socket has to send its ``hello``.
HELLO_SECONDS = 10.0

#: Seconds between the notes that the seats with a socket are connected (one write for all).
SEEN_SECONDS = 20.0

#: Most events a socket may have waiting to be sent before it is closed as too slow.
QUEUE_EVENTS = 256

STATIC = Path(__file__).parent / "static"

#: The keys each frame type may hold (a seat is never one: it follows from the token).
FRAME_KEYS: dict[str, frozenset[str]] = {
    "hello": frozenset({"type", "token", "since", "board"}),
    "move": frozenset({"type", "number", "move"}),
    "resign": frozenset({"type"}),
    "draw": frozenset({"type", "action"}),
    "say": frozenset({"type", "message"}),
    "rematch": frozenset({"type"}),
    "ping": frozenset({"type"}),
}

#: HTTP status of each refusal code (others: 422).
STATUS = {
    "unknown": 404,
    "full": 409,
    "over": 409,
    "playing": 409,
    "rematch": 409,
    "limit": 429,
    "busy": 503,
}

#: The error answers of the online routes, for the API's schema.
ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorResponse, "description": "Malformed request"},
    404: {"model": ErrorResponse, "description": "No such game"},
    409: {"model": ErrorResponse, "description": "Every seat is taken, or the game is over"},
    422: {"model": ErrorResponse, "description": "Invalid input (the detail says why)"},
    429: {"model": ErrorResponse, "description": "Too many live games from this address"},
    503: {"model": ErrorResponse, "description": "The game is busy: try again"},
}

#: The rules an online game may be played under, as the schema states them.
ONLINE_RULES = (
    "^(?:"
    + "|".join(
        rule.pattern for rule in RULES.values() if rule.positions and not rule.known_opponent
    )
    + ")$"
)

#: The strategies of computer seats (every one plays every rule).
COMPUTER_STRATEGIES = ("optimal", "greedy", "random")


def invite_qr(link: str) -> str:
    """The QR code of an invite link as an SVG image (black on white at any theme, so every
    camera reads it; error correction M, four modules of quiet zone): O(len(link)^2) in
    the worst case, a few milliseconds for a game's link.

    >>> svg = invite_qr("https://example.org/game/0123456789ab")
    >>> svg.startswith("<svg") and "<title>QR code of the invite link</title>" in svg
    True
    """
    code = segno.make(link, error="m", boost_error=False)
    svg: str = code.svg_inline(
        scale=4, border=4, dark="#000", light="#fff", title="QR code of the invite link"
    )
    return svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)


def default_data_dir() -> Path:
    """Where games are kept without ``COINROW_ONLINE_DATA``: ``$XDG_DATA_HOME/coinrow``
    (``~/.local/share/coinrow``) (O(1))."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "coinrow"


def open_store(
    environ: dict[str, str] | None = None, *, limits: OnlineLimits | None = None
) -> Store:
    """The store the environment names (see the module's doc) (O(1) plus connecting)."""
    environ = dict(os.environ) if environ is None else environ
    url = environ.get(REDIS_VARIABLE)
    if url:
        return RedisStore(url)
    poll = (limits or OnlineLimits()).poll_seconds
    return SqliteStore(environ.get(DATA_VARIABLE) or default_data_dir(), poll_seconds=poll)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ClockBody(_Strict):
    minutes: Whole = Field(ge=1, le=180, description="Minutes on each player's clock.")
    increment: Whole = Field(0, ge=0, le=180, description="Seconds added after each move.")


def _integral(value: Any) -> Any:
    """A JSON number with a zero fraction (``100.0``) is an integer, as JSON Schema says;
    other values (booleans, strings, fractions) are left to the strict int check."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


Whole = Annotated[int, BeforeValidator(_integral)]
Coin = Annotated[int, Interval(ge=-(10**15), le=10**15), BeforeValidator(_integral)]
SeatNumber = Annotated[int, Interval(ge=0, le=63), BeforeValidator(_integral)]
Computer = Literal["optimal", "greedy", "random"]


class CreateBody(_Strict):
    coins: list[Coin] = Field(min_length=2, max_length=40, description="The row, 2 to 40 coins.")
    rules: str = Field(
        "plain",
        max_length=64,
        pattern=ONLINE_RULES,
        description="The rules' text form (players:4); rules every seat plays.",
    )
    seats: list[Computer | None] | None = Field(
        None,
        max_length=64,
        description="One entry per seat (as many as the rules seat): null for a person, else "
        "the strategy of a computer seat. Default: every seat a person.",
    )
    clock: ClockBody | None = Field(None, description="A clock; none by default.")
    seat: Whole = Field(0, ge=0, le=63, description="The creator's seat (0-based).")


class JoinBody(_Strict):
    seat: SeatNumber | None = Field(None, description="A seat to take (default: first free).")


class Online:
    """The online games of one app: the referee (made on first use), the sockets of this
    process, and the sweep task (started with the first socket)."""

    def __init__(self, limits: OnlineLimits | None = None) -> None:
        self.limits = limits or OnlineLimits.from_env()
        self._referee: Referee | None = None
        self.sockets: dict[str, int] = {}  # by address
        self.spectators: dict[str, int] = {}  # by game
        self.seated: dict[tuple[str, int], int] = {}  # (game, seat): sockets
        #: Seats whose player came or left since the last sweep: noted as seen before the
        #: sweep looks for absent players (one write for all; a thousand players leaving or
        #: coming back at once is not a thousand writes on the event loop).
        self.to_note: set[tuple[str, int]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        #: The last event frame of each game (and board choice), sent to every socket of
        #: the game instead of being built for each.
        self._frames: dict[tuple[str, bool], tuple[int, str]] = {}

    def event_frame(self, game_id: str, event: dict[str, Any], *, board: bool) -> str:
        """The frame announcing ``event`` with the state after it, built once for all the
        sockets of the game in this process (O(moves) the first time, O(1) after)."""
        key = (game_id, board)
        kept = self._frames.get(key)
        if kept is not None and kept[0] == event["seq"]:
            return kept[1]
        frame = {
            "type": "event",
            "event": public(event),
            "state": self.state(game_id, board=board, event=event),
        }
        text = json.dumps(frame, separators=(",", ":"))
        if len(self._frames) >= 2 * self.limits.sockets_total:
            self._frames.clear()  # bounded: at most two frames a socket
        self._frames[key] = (event["seq"], text)
        return text

    @property
    def referee(self) -> Referee:
        if self._referee is None:
            self._referee = Referee(open_store(limits=self.limits), self.limits)
        return self._referee

    async def run(self, work: Callable[..., _T], /, *args: Any, **kwargs: Any) -> _T:
        """Do a piece of the referee's work: in a worker thread when the store is reached
        over the network (Redis: a round trip must not hold up the event loop), else here
        (SQLite's commit takes a fraction of a millisecond, less than a thread's hand-over,
        which on a busy machine waits for the scheduler twice)."""
        if self.referee.store.remote:
            return await asyncio.to_thread(work, *args, **kwargs)
        return work(*args, **kwargs)

    def start_sweeper(self) -> None:
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        """Sweep and note the connected seats in a worker thread: the event loop goes on
        sending moves meanwhile (the referee takes its lock game by game)."""
        last_seen = 0.0
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            try:
                seats, self.to_note = self.to_note, set()
                if time.monotonic() - last_seen > SEEN_SECONDS:
                    last_seen = time.monotonic()
                    seats |= set(self.seated)
                if seats:
                    await asyncio.to_thread(self.referee.seen_many, sorted(seats))
                await asyncio.to_thread(self.referee.sweep)
            except Exception:  # a failed sweep must not end the next ones
                await asyncio.sleep(self.limits.sweep_seconds)

    def state(
        self, game_id: str, *, board: bool, event: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The game's state for clients: after ``event`` (the room in memory brought to it
        by the event itself when it is the next one, else from the store's log), or as the
        store has it now (O(events read))."""
        if event is None:
            room = self.referee.room(game_id, fresh=True)
        else:
            self.referee.heard(game_id, event)
            room = self.referee.room(game_id)
            if room.seq < event["seq"]:
                room = self.referee.room(game_id, fresh=True)
        data = room.to_dict(self.referee.clock())
        if board:
            data["board"] = board_svg(room.game, title=f"{room.rules.title}: {room.game_id}")
        return data


def refusal(error: OnlineError) -> JSONResponse:
    """A refusal as the API's 4xx JSON error, with its ``code`` (O(1))."""
    return JSONResponse(
        {"detail": str(error), "code": error.code}, status_code=STATUS.get(error.code, 422)
    )


def error_frame(code: str, detail: str, **details: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "detail": detail, **details}


def router(limits: OnlineLimits | None = None) -> APIRouter:
    """The online games' routes: ``/api/online/...``, the socket and the page ``/game/ID``
    (O(1))."""
    online = Online(limits)
    api = APIRouter(tags=["online"])
    api.state = online  # type: ignore[attr-defined]  # tests and the benchmark read it
    page = (STATIC / "game.html").read_text(encoding="utf-8")

    def address_of(request: Request | WebSocket) -> str:
        return request.client.host if request.client else "unknown"

    @api.post(
        "/api/online/games", summary="Create an online game", status_code=201, responses=ERRORS
    )
    def create_game(body: CreateBody, request: Request) -> JSONResponse:
        """A new game under any rules whose seats all play (``players:P`` seats P), with
        computer seats and a clock if asked. Answers the creator's seat and secret ``token``
        (keep it: it is the only proof of the seat) and the ``invite`` link to share, which
        holds no token. O(n) and the computer's first moves."""
        clock = body.clock.model_dump() if body.clock else None
        try:
            room, token = online.referee.create(
                body.coins,
                rules=body.rules,
                seats=body.seats,
                clock=clock,
                seat=body.seat,
                address=address_of(request),
            )
        except OnlineError as error:
            return refusal(error)
        state = room.to_dict(online.referee.clock())
        return JSONResponse(
            {
                "game": room.game_id,
                "seat": body.seat,
                "token": token,
                "invite": f"/game/{room.game_id}",
                "invite_qr": f"/api/online/games/{room.game_id}/invite.svg",
                "socket": f"/api/online/games/{room.game_id}/ws",
                "state": state,
            },
            status_code=201,
        )

    @api.post("/api/online/games/{game_id}/join", summary="Take a free seat", responses=ERRORS)
    def join_game(game_id: str, body: JoinBody) -> JSONResponse:
        """Take the first free seat (or ``seat``): its number and its secret ``token``;
        409 when every seat is taken (open the socket without a token to watch). O(seats)."""
        try:
            seat, token = online.referee.join(game_id, seat=body.seat)
        except OnlineError as error:
            return refusal(error)
        return JSONResponse({"game": game_id, "seat": seat, "token": token})

    @api.get("/api/online/recent", summary="Recent and live games", responses=ERRORS)
    def list_games(
        live: bool = Query(False, description="Only games not over."),
        limit: int = Query(20, ge=1, le=100, description="How many, newest first."),
    ) -> JSONResponse:
        """The most recently updated games (``live``: only those not over), newest first.
        O(limit)."""
        return JSONResponse({"games": online.referee.store.games(live=live, limit=limit)})

    @api.get("/api/online/presets", summary="The preset messages")
    def presets() -> JSONResponse:
        """The messages players may send, by number (no free text). O(1)."""
        return JSONResponse({"messages": list(PRESETS)})

    @api.get(
        "/api/online/games/{game_id}", summary="A game's state and its events", responses=ERRORS
    )
    def game_state(
        game_id: str, board: bool = Query(True, description="Include the board's SVG.")
    ) -> JSONResponse:
        """The game as its players see it (never a token) and its log of events: the
        permanent address of every game. O(events)."""
        try:
            state = online.state(game_id, board=board)
        except OnlineError as error:
            return refusal(error)
        return JSONResponse({"state": state, "events": online.referee.events(game_id)})

    @api.get(
        "/api/online/games/{game_id}/record", summary="A game's record (text)", responses=ERRORS
    )
    def game_record(game_id: str) -> Any:
        """The game in coinrow's record format, for download. O(moves)."""
        try:
            room = online.referee.room(game_id, fresh=True)
        except OnlineError as error:
            return refusal(error)
        return PlainTextResponse(
            room.record_text(),
            headers={"content-disposition": f'attachment; filename="coinrow-{game_id}.txt"'},
        )

    @api.get(
        "/api/online/games/{game_id}/review", summary="A finished game's review", responses=ERRORS
    )
    def game_review(game_id: str) -> JSONResponse:
        """The analysis of every move of a finished game and each player's accuracy
        (``coinrow.analyze``); refused while the game is played, so nobody is helped during
        it. O(n^2) (times P) for at most 40 coins."""
        try:
            room = online.referee.room(game_id, fresh=True)
        except OnlineError as error:
            return refusal(error)
        if room.status != "over":
            return refusal(OnlineError("playing", "the review opens when the game is over"))
        analysis = analyze(room.coins, room.game.moves, rules=room.rules).to_dict()
        return JSONResponse({"game": game_id, "result": room.result, "analysis": analysis})

    @api.get(
        "/api/online/games/{game_id}/invite.svg",
        summary="The invite link's QR code",
        responses={
            **ERRORS,
            200: {"content": {"image/svg+xml": {}}, "description": "The QR code (SVG)"},
        },
    )
    def invite_svg(game_id: str, request: Request) -> Response:
        """The QR code of the game's public link (``/game/ID`` on the host the request was
        sent to, which the host check allows): a phone's camera opens the game. It holds
        no seat token. O(1) plus the code's drawing."""
        try:
            online.referee.room(game_id)
        except OnlineError as error:
            return refusal(error)
        link = f"{request.base_url}game/{game_id}"
        return Response(
            invite_qr(link),
            media_type="image/svg+xml",
            headers={"cache-control": "public, max-age=3600"},
        )

    @api.get("/game/{game_id}", include_in_schema=False)
    def game_page(game_id: str) -> HTMLResponse:
        return HTMLResponse(page)

    @api.websocket("/api/online/games/{game_id}/ws")
    async def game_socket(socket: WebSocket, game_id: str) -> None:
        await Connection(online, socket, game_id, address_of(socket)).run()

    return api


class Connection:
    """One client's socket on one game (see the module's doc for the frames)."""

    def __init__(self, online: Online, socket: WebSocket, game_id: str, address: str) -> None:
        self.online, self.socket, self.game_id, self.address = online, socket, game_id, address
        self.limits = online.limits
        self.referee = online.referee
        self.seat: int | None = None
        self.board = False
        self.sent = -1  # the last event seq sent
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.tokens = float(2 * self.limits.frames_per_second)
        self.refill = time.monotonic()
        self.floods = 0
        self.spectating = False

    async def run(self) -> None:
        online = self.online
        await self.socket.accept()
        if (
            online.sockets.get(self.address, 0) >= self.limits.sockets_per_address
            or sum(online.sockets.values()) >= self.limits.sockets_total
        ):
            await self._refuse_and_close("limit", "too many sockets open", 1013)
            return
        online.sockets[self.address] = online.sockets.get(self.address, 0) + 1
        online.start_sweeper()
        unsubscribe: Callable[[], None] | None = None
        try:
            if not await self._hello():
                return
            loop = asyncio.get_running_loop()

            def hand_over(event: dict[str, Any]) -> None:  # from the store's thread
                loop.call_soon_threadsafe(self._heard, event)

            unsubscribe = self.referee.store.subscribe(self.game_id, hand_over)
            await self._catch_up()  # events stored between the welcome and the subscription
            writer = asyncio.create_task(self._write())
            try:
                await self._read()
            finally:
                writer.cancel()
        except WebSocketDisconnect:
            pass
        finally:
            if unsubscribe is not None:
                unsubscribe()
            self._leave()

    def _leave(self) -> None:
        online = self.online
        online.sockets[self.address] -= 1
        if not online.sockets[self.address]:
            del online.sockets[self.address]
        if self.spectating:
            online.spectators[self.game_id] -= 1
            if not online.spectators[self.game_id]:
                del online.spectators[self.game_id]
        if self.seat is not None:
            key = (self.game_id, self.seat)
            online.seated[key] -= 1
            if not online.seated[key]:
                del online.seated[key]
                online.to_note.add(key)  # noted as seen at the next sweep

    async def _refuse_and_close(self, code: str, detail: str, close: int) -> None:
        await self._send(error_frame(code, detail))
        await self.socket.close(close)

    async def _send(self, frame: dict[str, Any]) -> None:
        if self.socket.client_state == WebSocketState.CONNECTED:
            await self.socket.send_text(json.dumps(frame, separators=(",", ":")))

    async def _frame(self, timeout: float | None) -> dict[str, Any] | None:
        """The next good frame, sending an error frame for each bad one; None at timeout."""
        while True:
            try:
                message = await asyncio.wait_for(self.socket.receive(), timeout)
            except TimeoutError:
                return None
            if message["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(message.get("code", 1000))
            text = message.get("text")
            size = (
                len(text.encode("utf-8")) if text is not None else len(message.get("bytes") or b"")
            )
            if not self._take_token():
                self.floods += 1
                if self.floods >= self.limits.flood_close:
                    await self._refuse_and_close("flood", "too many frames: closed", 1008)
                    raise WebSocketDisconnect(1008)
                await self._send(
                    error_frame(
                        "flood", f"more than {self.limits.frames_per_second} frames a second"
                    )
                )
                continue
            if size > self.limits.frame_bytes:
                await self._send(
                    error_frame("oversized", f"a frame is at most {self.limits.frame_bytes} bytes")
                )
                continue
            if text is None:
                await self._send(error_frame("malformed", "frames are JSON text, not binary"))
                continue
            try:
                frame = json.loads(text)
            except ValueError:
                await self._send(error_frame("malformed", "a frame is a JSON object"))
                continue
            if not isinstance(frame, dict) or frame.get("type") not in FRAME_KEYS:
                kinds = ", ".join(FRAME_KEYS)
                await self._send(
                    error_frame("malformed", f"a frame is a JSON object of type {kinds}")
                )
                continue
            extra = set(frame) - FRAME_KEYS[frame["type"]]
            if extra:
                await self._send(
                    error_frame(
                        "malformed", f"unknown keys in a {frame['type']} frame: {sorted(extra)}"
                    )
                )
                continue
            return frame

    def _take_token(self) -> bool:
        now = time.monotonic()
        rate = self.limits.frames_per_second
        self.tokens = min(2.0 * rate, self.tokens + (now - self.refill) * rate)
        self.refill = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    async def _hello(self) -> bool:
        deadline = time.monotonic() + HELLO_SECONDS
        while True:
            frame = await self._frame(max(0.01, deadline - time.monotonic()))
            if frame is None:
                await self._refuse_and_close("hello", "no hello within 10 seconds", 1008)
                return False
            if frame["type"] == "hello":
                break
            await self._send(error_frame("hello", "say hello first (with your token, if any)"))
        try:
            room = await self.online.run(self.referee.room, self.game_id, fresh=True)
        except OnlineError as error:
            await self._refuse_and_close(error.code, str(error), 4404)
            return False
        token, since = frame.get("token"), frame.get("since", 0)
        self.board = frame.get("board") is True
        if token is not None:
            self.seat = room.seat_of(token)
            if self.seat is None:
                await self._send(error_frame("token", "that token holds no seat: you watch"))
        if self.seat is None:
            watching = self.online.spectators.get(self.game_id, 0)
            if watching >= self.limits.spectators_per_game:
                await self._refuse_and_close("limit", "too many spectators", 1013)
                return False
            self.online.spectators[self.game_id] = watching + 1
            self.spectating = True
        else:
            key = (self.game_id, self.seat)
            self.online.seated[key] = self.online.seated.get(key, 0) + 1
            self.online.to_note.add(key)  # noted as seen at the next sweep
        if isinstance(since, bool) or not isinstance(since, int) or since < 0:
            since = 0
        events = await self.online.run(self.referee.events, self.game_id, since)
        self.sent = events[-1]["seq"] if events else since - 1
        await self._send(
            {
                "type": "welcome",
                "game": self.game_id,
                "seat": self.seat,
                "presets": list(PRESETS),
                "events": events,
                "state": await self.online.run(self.online.state, self.game_id, board=self.board),
            }
        )
        return True

    def _heard(self, event: dict[str, Any]) -> None:
        self.queue.put_nowait(event)

    async def _catch_up(self) -> None:
        """Send every stored event after the last one sent (O(events missed))."""
        missed = await self.online.run(self.referee.events, self.game_id, self.sent + 1)
        for event in missed:
            await self._send_event(event)

    async def _send_event(self, event: dict[str, Any]) -> None:
        if event["seq"] <= self.sent:
            return  # sent already (from the log, or announced twice)
        self.sent = event["seq"]
        text = self.online.event_frame(self.game_id, event, board=self.board)
        if self.socket.client_state == WebSocketState.CONNECTED:
            await self.socket.send_text(text)

    async def _write(self) -> None:
        while True:
            try:
                event = await asyncio.wait_for(self.queue.get(), self.limits.catch_up_seconds)
            except TimeoutError:
                stored = await self.online.run(self.referee.store.length, self.game_id)
                if stored - 1 > self.sent:
                    await self._catch_up()  # an announcement was missed
                continue
            if self.queue.qsize() > QUEUE_EVENTS:
                await self.socket.close(1013)
                return
            if event["seq"] > self.sent + 1:
                await self._catch_up()  # a gap: read the log
            else:
                await self._send_event(event)

    async def _read(self) -> None:
        while True:
            frame = await self._frame(None)
            if frame is None:
                continue
            kind = frame["type"]
            if kind == "ping":
                await self._send({"type": "pong"})
                continue
            if kind == "hello":
                await self._send(error_frame("malformed", "hello was said already"))
                continue
            if self.seat is None:
                await self._send(
                    error_frame("spectator", "spectators only watch: take a seat to play")
                )
                continue
            try:
                # with a store across the network, in a worker thread: its round trip holds
                # up only this game (the referee locks game by game), never the event loop
                events = await self.online.run(self.referee.play, self.game_id, self.seat, frame)
            except OnlineError as error:
                await self._send(error_frame(error.code, str(error), **error.details))
                continue
            await self._send({"type": "ack", "seq": events[0]["seq"]})
