"""Online games on real ``coinrow serve`` processes: hostile clients, a connection cut in the
middle of a move, the server killed with SIGKILL and restarted, and two processes sharing one
game through Redis (Debian's ``redis-server``, started here on loopback).

Every process started here is ended with its children (each runs in its own process group,
ended with SIGTERM, then SIGKILL). Games are six coins; the module takes about 15 s.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from coinrow.game import Game
from coinrow.online import Room, SqliteStore

COINS = [3, 9, 1, 2, 8, 5]
LINE = "RLLRRL"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Process:
    """A child process in its own process group, ended with its children."""

    def __init__(self, args: list[str], log: Path, env: dict[str, str] | None = None) -> None:
        self.log = log.open("ab")
        self.popen = subprocess.Popen(
            args,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, **(env or {})},
        )

    def kill(self) -> None:
        """SIGKILL to the whole group: nothing gets to clean up."""
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=10)
        self.log.close()

    def stop(self) -> None:
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait(timeout=10)
        else:  # the leader is gone: end any child it left
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGKILL)
        self.log.close()


class Server(Process):
    """``coinrow serve`` on a free loopback port, with its store's options."""

    def __init__(
        self, store: list[str], log: Path, env: dict[str, str] | None = None, *, wait: bool = True
    ) -> None:
        self.port = free_port()
        args = [sys.executable, "-m", "coinrow", "serve", "--port", str(self.port)]
        super().__init__([*args, "--no-access-log", *store], log, env)
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        if wait:
            self.wait()

    def wait(self) -> None:
        """Until the server answers (at most 30 s)."""
        log = self.log_path
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{self.base}/api/online/presets", timeout=2):
                    break
            except OSError:
                if self.popen.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise AssertionError(
                        f"coinrow serve did not start: {log.read_text()}"
                    ) from None
                time.sleep(0.05)

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def get(self, path: str) -> dict[str, Any]:
        with urllib.request.urlopen(self.base + path, timeout=10) as response:
            data: dict[str, Any] = json.loads(response.read())
            return data

    def game(self, **body: Any) -> tuple[str, str, str]:
        """A new two-seat game: its id, the creator's token (seat 0), the joiner's (seat 1)."""
        status, created = self.post("/api/online/games", {"coins": COINS, **body})
        assert status == 201, created
        status, joined = self.post(f"/api/online/games/{created['game']}/join", {})
        assert status == 200 and joined["seat"] == 1, joined
        return created["game"], created["token"], joined["token"]


class Client:
    """One WebSocket on one game, reading frames with a timeout."""

    def __init__(self, server: Server, game: str, token: str | None, since: int = 0) -> None:
        url = f"ws://127.0.0.1:{server.port}/api/online/games/{game}/ws"
        self.ws: ClientConnection = connect(url, open_timeout=10, close_timeout=2).__enter__()
        self.frames: list[dict[str, Any]] = []
        self.send({"type": "hello", "token": token, "since": since})
        self.welcome = self.until("welcome")
        self.seat = self.welcome["seat"]

    def send(self, frame: Any) -> None:
        self.ws.send(frame if isinstance(frame, str | bytes) else json.dumps(frame))

    def next(self, timeout: float = 10.0) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.frames.append(frame)
        return frame

    def until(self, kind: str, timeout: float = 10.0, **fields: Any) -> dict[str, Any]:
        """The next frame of type ``kind`` (with ``fields``); frames before it are kept."""
        deadline = time.monotonic() + timeout
        while True:
            frame = self.next(max(0.01, deadline - time.monotonic()))
            if frame["type"] == kind and all(frame.get(k) == v for k, v in fields.items()):
                return frame

    def error(self, frame: Any) -> dict[str, Any]:
        """Send a frame and return the error frame it gets (any other frame fails)."""
        self.send(frame)
        while True:
            answer = self.next()
            if answer["type"] == "event":
                continue  # another player's move may arrive meanwhile
            assert answer["type"] == "error", answer
            return answer

    def moves_seen(self) -> list[tuple[int, str]]:
        """(number, move) of every move event received, welcome included."""
        seen = [(e["number"], e["move"]) for e in self.welcome["events"] if e["type"] == "move"]
        for frame in self.frames:
            if frame["type"] == "event" and frame["event"]["type"] == "move":
                seen.append((frame["event"]["number"], frame["event"]["move"]))
        return seen

    def last_seq(self) -> int:
        seqs = [e["seq"] for e in self.welcome["events"]]
        seqs += [f["event"]["seq"] for f in self.frames if f["type"] == "event"]
        return max(seqs)

    def close(self) -> None:
        self.ws.close()


def play(mover: Client, other: Client, number: int) -> None:
    """The mover plays move ``number`` of :data:`LINE`; both see it."""
    mover.send({"type": "move", "number": number, "move": LINE[number]})
    mover.until("ack")
    for client in (mover, other):
        while (number, LINE[number]) not in client.moves_seen():
            client.next()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("online-serve")
    # a short header timer: a WebSocket must outlive it (test_a_quiet_socket_stays_open);
    # the quiet sockets' safety net far off: every event must arrive by announcement
    started = Server(["--data-dir", str(folder / "games")], folder / "serve.log", SHARED_ENV)
    yield started
    started.stop()


#: The module server's settings (and its second process's, sharing its folder).
SHARED_ENV = {"COINROW_WEB_HEADER_SECONDS": "1", "COINROW_ONLINE_CATCH_UP_SECONDS": "600"}


def test_serve_reports_its_store(server: Server) -> None:
    text = Path(server.log.name).read_text()
    assert "coinrow serve: online games are kept in" in text and "games.sqlite3" in text


def test_hostile_clients_are_refused_and_disturb_nobody(server: Server) -> None:
    game, token0, token1 = server.game()
    bystander, b0, b1 = server.game()
    first, second = Client(server, game, token0), Client(server, game, token1)
    calm0, calm1 = Client(server, bystander, b0), Client(server, bystander, b1)
    assert (first.seat, second.seat) == (0, 1)
    # out of turn, and a move for another seat (a seat is never named: it is the token's)
    assert second.error({"type": "move", "number": 0, "move": "L"})["code"] == "turn"
    forged_seat = {"type": "move", "number": 0, "move": "R", "seat": 0}
    assert second.error(forged_seat)["code"] == "malformed"
    play(first, second, 0)
    # replayed: the same move again, and an old number with another move
    assert first.error({"type": "move", "number": 0, "move": "R"})["code"] == "stale"
    assert second.error({"type": "move", "number": 0, "move": "L"})["code"] == "stale"
    # malformed and oversized frames
    for bad in ("not json", "[1, 2]", '{"type": 5}', '{"type": "jump"}', b"\x00\x01"):
        assert second.error(bad)["code"] == "malformed", bad
    assert second.error("x" * 5000)["code"] == "oversized"
    assert second.error({"type": "move", "number": 1, "move": "L" * 3000})["code"] == "oversized"
    # forged and missing tokens: watching only
    forged = Client(server, game, "A" * 43)
    assert forged.seat is None and forged.frames[0]["code"] == "token"
    assert forged.error({"type": "move", "number": 1, "move": "L"})["code"] == "spectator"
    watcher = Client(server, game, None)
    assert watcher.seat is None
    assert watcher.error({"type": "resign"})["code"] == "spectator"
    # joining a full game
    status, answer = server.post(f"/api/online/games/{game}/join", {})
    assert (status, answer["code"]) == (409, "full")
    # a flood past the rate limit: error frames, the socket stays open
    flooder = Client(server, game, None)
    for _ in range(60):
        flooder.send({"type": "ping"})
    codes = [flooder.next()["type"] for _ in range(60)]
    assert "pong" in codes and "error" in codes
    assert flooder.frames[-1]["type"] == "error" or any(
        f.get("code") == "flood" for f in flooder.frames
    )
    # nothing else was disturbed: the game goes on, the bystander game too, the watcher sees
    play(second, first, 1)
    play(calm0, calm1, 0)
    assert watcher.until("event")["event"]["move"] == LINE[1]
    state = server.get(f"/api/online/games/{game}?board=false")["state"]
    assert state["line"] == LINE[:2] and state["status"] == "playing"
    for client in (first, second, calm0, calm1, forged, watcher, flooder):
        client.close()


def handshake(server: Server, path: str, host: str, origin: str | None) -> int:
    """The HTTP status a WebSocket handshake gets with these ``Host`` and ``Origin``
    headers (written by hand: a client library fills them in itself)."""
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: {host}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
        *([f"Origin: {origin}"] if origin is not None else []),
    ]
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
        raw.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        status_line = raw.makefile("rb").readline().decode()
    return int(status_line.split()[1])


def test_socket_handshakes_are_host_and_origin_checked(server: Server) -> None:
    """A socket is checked as every request is: a forged ``Host`` (DNS rebinding) or a page
    of another site (its ``Origin``) is refused before the game is touched."""
    game, _, _ = server.game()
    path = f"/api/online/games/{game}/ws"
    here = f"127.0.0.1:{server.port}"
    for host, origin in [
        ("evil.example", None),
        (f"evil.example:{server.port}", f"http://evil.example:{server.port}"),
        (here, "http://evil.example"),
        (here, f"http://localhost:{server.port}"),  # an allowed host, but another site
        (here, "http://127.0.0.1:1"),  # another port of this machine
        (here, "null"),
    ]:
        assert handshake(server, path, host, origin) == 403, (host, origin)
    for host, origin in [
        (here, f"http://{here}"),
        (here, f"https://{here}"),  # behind a TLS proxy
        (f"localhost:{server.port}", f"http://localhost:{server.port}"),
        (here, None),  # not a browser
    ]:
        assert handshake(server, path, host, origin) == 101, (host, origin)


def test_a_quiet_socket_outlives_the_http_header_timer(server: Server) -> None:
    """The HTTP connection's timer for slow headers (1 s here) stops when it becomes a
    WebSocket: a player thinking longer is not cut off."""
    game, token0, _ = server.game()
    client = Client(server, game, token0)
    time.sleep(1.5)
    client.send({"type": "ping"})
    assert client.until("pong")["type"] == "pong"
    client.close()


def test_a_connection_cut_mid_move_resumes(server: Server) -> None:
    game, token0, token1 = server.game()
    first, second = Client(server, game, token0), Client(server, game, token1)
    play(first, second, 0)
    seen = second.last_seq()
    second.send({"type": "move", "number": 1, "move": LINE[1]})
    second.ws.close_socket()  # the phone drops: no closing handshake, no ack read
    # the first player gets the move; the second comes back, resumes and sends it again
    while (1, LINE[1]) not in first.moves_seen():
        first.next()
    back = Client(server, game, token1, since=seen + 1)
    assert back.seat == 1
    assert [(e["number"], e["move"]) for e in back.welcome["events"] if e["type"] == "move"] == [
        (1, LINE[1])
    ]
    again = back.error({"type": "move", "number": 1, "move": LINE[1]})
    assert (again["code"], again["played"]) == ("stale", LINE[1])  # counted once
    for number in range(2, len(LINE)):
        mover, other = (first, back) if number % 2 == 0 else (back, first)
        play(mover, other, number)
    state = server.get(f"/api/online/games/{game}?board=false")["state"]
    assert state["line"] == LINE and state["result"]["reason"] == "finished"
    assert [n for n, _ in first.moves_seen()] == list(range(len(LINE)))
    first.close()
    back.close()


def stored_moves(events: list[dict[str, Any]]) -> list[tuple[int, str]]:
    return [(e["number"], e["move"]) for e in events if e["type"] == "move"]


def test_sigkill_mid_game_loses_and_duplicates_no_move(tmp_path: Path) -> None:
    """Three games when the server is killed: one whose last move was acknowledged (stored),
    one with a move in flight (stored or not), one with no move yet. After the restart the
    players come back, resend what they had sent, and every game is played to its end."""
    folder = tmp_path / "games"
    server = Server(["--data-dir", str(folder)], tmp_path / "serve.log")
    try:
        games = {name: server.game() for name in ("acked", "in flight", "quiet")}
        clients = {}
        seen = {}
        for name in ("acked", "in flight"):
            game, token0, token1 = games[name]
            first, second = Client(server, game, token0), Client(server, game, token1)
            for number in range(3):
                mover, other = (first, second) if number % 2 == 0 else (second, first)
                play(mover, other, number)
            seen[name] = first.last_seq()
            clients[name] = (first, second)
        acked = clients["acked"][1]
        acked.send({"type": "move", "number": 3, "move": LINE[3]})
        acked.until("ack")  # stored: the first player may move next
        clients["in flight"][1].send({"type": "move", "number": 3, "move": LINE[3]})
        server.kill()  # at once, while that move may or may not be stored
        server = Server(["--data-dir", str(folder)], tmp_path / "serve.log")
        resent = {"type": "move", "number": 3, "move": LINE[3]}
        # the acknowledged game: the first player comes back and plays on before the second
        # player, back later, resends the move they were not sure of: it counts once
        game, token0, token1 = games["acked"]
        first = Client(server, game, token0, since=seen["acked"] + 1)
        assert (3, LINE[3]) in first.moves_seen()
        first.send({"type": "move", "number": 4, "move": LINE[4]})
        first.until("ack")
        second = Client(server, game, token1, since=seen["acked"] + 1)
        answer = second.error(resent)
        assert (answer["code"], answer["played"]) == ("stale", LINE[3])
        play(second, first, 5)
        # the game with a move in flight: resent, stored now or refused as already stored
        game, token0, token1 = games["in flight"]
        first = Client(server, game, token0, since=seen["in flight"] + 1)
        second = Client(server, game, token1, since=seen["in flight"] + 1)
        second.send(resent)
        answer = second.next()
        if answer["type"] == "error":
            assert (answer["code"], answer["played"]) == ("stale", LINE[3])
        for number in range(4, len(LINE)):
            mover, other = (first, second) if number % 2 == 0 else (second, first)
            play(mover, other, number)
        game, token0, token1 = games["quiet"]
        calm0, calm1 = Client(server, game, token0), Client(server, game, token1)
        for number in range(len(LINE)):
            mover, other = (calm0, calm1) if number % 2 == 0 else (calm1, calm0)
            play(mover, other, number)
        for client in (first, second, calm0, calm1):
            client.close()
    finally:
        server.stop()
    store = SqliteStore(folder)
    for game, _, _ in games.values():
        events = store.events(game)
        assert [e["seq"] for e in events] == list(range(len(events)))
        assert stored_moves(events) == list(enumerate(LINE))
        room = Room.from_events(events)
        assert room.result is not None and room.result["reason"] == "finished"
        assert room.game.totals == Game(COINS, LINE).totals
    store.close()


def test_two_processes_on_one_sqlite_folder_share_a_game_at_once(
    server: Server, tmp_path: Path
) -> None:
    """A second ``coinrow serve`` process on the module server's data folder (as
    ``--workers 2`` runs): each player's socket is on another process, and each move reaches
    the other player and a spectator through the store's feed, not the quiet socket's
    safety-net check (set to 10 minutes here, so a move that waited for it would time the
    client out)."""
    folder = Path(server.popen.args[server.popen.args.index("--data-dir") + 1])
    two = Server(["--data-dir", str(folder)], tmp_path / "two.log", SHARED_ENV)
    try:
        game, token0, token1 = server.game()
        first, second = Client(server, game, token0), Client(two, game, token1)
        watcher = Client(two, game, None)
        for number in range(len(LINE)):
            mover, other = (first, second) if number % 2 == 0 else (second, first)
            play(mover, other, number)
        while (len(LINE) - 1, LINE[-1]) not in watcher.moves_seen():
            watcher.next()
        assert watcher.moves_seen() == list(enumerate(LINE))
        for client in (first, second, watcher):
            client.close()
    finally:
        two.stop()
    store = SqliteStore(folder)
    events = store.events(game)
    store.close()
    assert [e["seq"] for e in events] == list(range(len(events)))
    assert stored_moves(events) == list(enumerate(LINE))


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    if shutil.which("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is missing: apt-get install -y redis-server")
        pytest.skip("redis-server is not installed (apt-get install -y redis-server)")
    port = free_port()
    redis = Process(
        [
            "redis-server",
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(tmp_path),
        ],
        tmp_path / "redis.log",
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
                probe.sendall(b"PING\r\n")
                if probe.recv(16).startswith(b"+PONG"):
                    break
        except OSError:
            pass
        assert time.monotonic() < deadline, "redis-server did not start"
        time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0"
    redis.stop()


def test_two_processes_share_a_game_through_redis(tmp_path: Path, redis_url: str) -> None:
    from coinrow.online.redis_store import RedisStore

    one = Server(["--redis", redis_url], tmp_path / "one.log", wait=False)
    two = Server(["--redis", redis_url], tmp_path / "two.log", wait=False)
    try:
        one.wait()
        two.wait()
        status, created = one.post("/api/online/games", {"coins": COINS})
        assert status == 201
        game, token0 = created["game"], created["token"]
        status, joined = two.post(f"/api/online/games/{game}/join", {})
        assert status == 200
        first = Client(one, game, token0)  # on process one
        second = Client(two, game, joined["token"])  # on process two
        watcher = Client(two, game, None)
        for number in range(3):
            mover, other = (first, second) if number % 2 == 0 else (second, first)
            play(mover, other, number)  # each sees the other's move across processes
        seen = first.last_seq()
        first.send({"type": "move", "number": 3, "move": LINE[3]})  # out of turn: refused
        assert first.until("error")["code"] == "turn"
        second.send({"type": "move", "number": 3, "move": LINE[3]})
        second.until("ack")
        one.kill()  # the first player's process dies
        first = Client(two, game, token0, since=seen + 1)  # and comes back on the other one
        assert (3, LINE[3]) in first.moves_seen()
        for number in range(4, len(LINE)):
            mover, other = (first, second) if number % 2 == 0 else (second, first)
            play(mover, other, number)
        while (len(LINE) - 1, LINE[-1]) not in watcher.moves_seen():
            watcher.next()
        assert [n for n, _ in watcher.moves_seen()] == list(range(len(LINE)))
        for client in (first, second, watcher):
            client.close()
    finally:
        one.stop()
        two.stop()
    store = RedisStore(redis_url)
    try:
        events = store.events(game)
        assert [e["seq"] for e in events] == list(range(len(events)))
        assert stored_moves(events) == list(enumerate(LINE))
        assert Room.from_events(events).result == {
            "reason": "finished",
            "winners": list(Game(COINS, LINE).position.rules.winners(Game(COINS, LINE).totals)),
        }
    finally:
        store.close()


def test_a_server_freezes_its_start_up_objects_and_lets_young_garbage_die_young() -> None:
    """A full collection pauses the event loop in proportion to every object it traverses
    (a quarter of a second at 500 live games): the app's start-up sets the collector so the
    objects made at start-up are never traversed again and young garbage dies young."""
    import gc
    import warnings

    with warnings.catch_warnings():  # starlette's TestClient warns about httpx on import
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from coinrow.web.app import GC_THRESHOLDS, create_app

    before = gc.get_threshold()
    app = create_app(workers=False)
    try:
        with TestClient(app, base_url="http://127.0.0.1"):
            frozen, threshold = gc.get_freeze_count(), gc.get_threshold()
            traversed = [gc.get_objects(generation) for generation in range(3)]
            routes_traversed = any(o is app.router for objects in traversed for o in objects)
            del traversed
        after = gc.get_freeze_count(), gc.get_threshold()
    finally:  # the rest of this test process keeps Python's settings, whatever happened
        gc.unfreeze()
        gc.set_threshold(*before)
    assert frozen > 0 and not routes_traversed
    assert threshold == GC_THRESHOLDS and threshold[0] > before[0]
    assert after == (0, before)  # and the app gives them back when it stops
