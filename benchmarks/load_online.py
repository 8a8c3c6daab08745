"""Load test of online games: N live two-player games on ``coinrow serve`` (loopback only),
each with two WebSockets, players moving in turn for T seconds; prints move latency (a
move sent to the other player receiving it) p50/p99, frames and bytes per move, the
server's memory (resident set before the games, with them, and its peak), and lost or
duplicated moves checked against the store. A report, not a timed assertion.

    python benchmarks/load_online.py [--games 500] [--seconds 30] [--think 1.0] [--redis]
                                     [--two] [--no-board]

Each player waits ``--think`` seconds (default 1) before each of their moves, as people
do, so N games make about N moves a second; the tables start at random moments within
the first ``--think`` seconds (people do not all move at the same instant). Each socket
asks for the board's SVG with every state, as the game's page does (``--no-board``: not).
A game that ends (40 coins, 40 moves) is followed by a rematch on the same sockets' seats.
With ``--two``, two ``coinrow serve`` processes share one SQLite folder, each game's
two players on different ones. With ``--redis`` a ``redis-server`` is started on a free
loopback port, two ``coinrow serve --redis`` processes share it, and each game's two
players are on different processes. The server processes' CPU time per move is reported
too: on a shared machine the latencies depend on the load, the CPU time much less.
Bounded: at most 2,000 games and 120 seconds; every process started is ended.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

MOST_GAMES, MOST_SECONDS = 2000, 120.0
COINS = [((7 * i) % 23) + 1 for i in range(40)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(args: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:  # the child keeps its own descriptor
        return subprocess.Popen(
            args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env=env
        )


def end(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=15)


def wait_http(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/online/presets", timeout=2):
                return
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.1)
    raise SystemExit("the server did not start: " + log.read_text()[-2000:])


def memory_kib(pid: int) -> tuple[int, int]:
    """(resident, peak resident) of a process in KiB, from /proc."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        fields[name] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far, from /proc (its own threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


class Stats:
    def __init__(self) -> None:
        self.stop = float("inf")  # set when every table is seated
        self.start = 0.0
        self.seated = 0
        self.playing = 0  # tables still playing
        self.played = asyncio.Event()  # set when none is
        self.server_cpu = 0.0  # CPU seconds the server processes used while timed
        self.client_cpu = 0.0  # and this load generator
        self.latencies: list[float] = []
        self.when: list[float] = []  # seconds into the timed run of each latency
        self.frames_in = 0
        self.event_frames = 0
        self.bytes_in = 0
        self.moves = 0
        self.errors: list[str] = []
        self.acked: dict[str, list[tuple[int, str]]] = {}  # game: moves acknowledged
        # the load generator's own stalls while timed (a stall here would be counted as the
        # server's latency): its event loop's lateness, and its garbage collections
        self.client_lag: list[float] = []
        self.client_gc: list[float] = []


async def seat_socket(port: int, game: str, token: str, board: bool) -> ClientConnection:
    ws = await connect(f"ws://127.0.0.1:{port}/api/online/games/{game}/ws", open_timeout=30)
    await ws.send(json.dumps({"type": "hello", "token": token, "board": board}))
    while json.loads(await ws.recv())["type"] != "welcome":
        pass
    return ws


async def play_games(
    ports: tuple[int, int],
    stats: Stats,
    think: float,
    ready: asyncio.Event,
    *,
    board: bool,
    offset: float,
) -> None:
    """One table: games one after the other (rematches) until ``stop``."""
    loop = asyncio.get_running_loop()
    created = await loop.run_in_executor(
        None, post, ports[0], "/api/online/games", {"coins": COINS}
    )
    game = created["game"]
    joined = await loop.run_in_executor(None, post, ports[1], f"/api/online/games/{game}/join", {})
    tokens = [created["token"], joined["token"]]
    sockets = [
        await seat_socket(ports[0], game, tokens[0], board),
        await seat_socket(ports[1], game, tokens[1], board),
    ]
    stats.seated += 1
    stats.playing += 1
    await ready.wait()
    await asyncio.sleep(offset)  # the tables start at random moments
    try:
        while time.perf_counter() < stats.stop:
            stats.acked.setdefault(game, [])
            for number in range(len(COINS)):
                await asyncio.sleep(think)
                if time.perf_counter() >= stats.stop:
                    return  # no move is sent after the timed run
                seat = number % 2
                mover, other = sockets[seat], sockets[1 - seat]
                began = time.perf_counter()
                await mover.send(json.dumps({"type": "move", "number": number, "move": "L"}))
                acked = received = False
                while not received:  # the other player gets the move
                    text = await other.recv()
                    stats.frames_in += 1
                    frame = json.loads(text)
                    if frame["type"] == "event":
                        stats.event_frames += 1
                        stats.bytes_in += len(text)
                    if frame["type"] == "event" and frame["event"].get("number") == number:
                        stats.latencies.append(time.perf_counter() - began)
                        stats.when.append(began - stats.start)
                        received = True
                while not acked:  # the mover gets its ack and its own move
                    frame = json.loads(await mover.recv())
                    stats.frames_in += 1
                    if frame["type"] == "ack":
                        acked = True
                        stats.acked[game].append((number, "L"))
                    elif frame["type"] == "error":
                        stats.errors.append(f"{game}: {frame}")
                        return
                stats.moves += 1
            # the game is over: a rematch, seats swapped (the sockets swap too)
            await sockets[0].send(json.dumps({"type": "rematch"}))
            new_game = None
            while new_game is None:
                frame = json.loads(await sockets[0].recv())
                if frame["type"] == "event" and frame["event"]["type"] == "rematch":
                    new_game = frame["event"]["game"]
            for ws in sockets:
                await ws.close()
            game = new_game
            sockets = [
                await seat_socket(ports[1], game, tokens[1], board),  # the second player: seat 0
                await seat_socket(ports[0], game, tokens[0], board),
            ]
            tokens.reverse()
    except Exception as error:  # report, do not hide
        stats.errors.append(
            f"{game}: {type(error).__name__}: {error} at {time.perf_counter() - stats.stop:+.1f} s"
        )
    finally:
        # every table closes its sockets only once all have stopped playing: a thousand
        # sockets closing at once is work for the server, and the moves still in flight
        # at the stop would be timed through it
        stats.playing -= 1
        if not stats.playing:
            stats.played.set()
        await stats.played.wait()
        for ws in sockets:
            await ws.close()


def _timer(pauses: list[float]) -> Any:
    """A ``gc.callbacks`` entry appending each collection's pause (seconds) to ``pauses``."""
    began = [0.0]

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            pauses.append(time.perf_counter() - began[0])

    return timed


async def watch_lag(stats: Stats, every: float = 0.01) -> None:
    """How late the load generator's event loop wakes from a ``every`` s sleep, while timed."""
    while time.perf_counter() < stats.stop:
        asked = time.perf_counter()
        await asyncio.sleep(every)
        stats.client_lag.append(time.perf_counter() - asked - every)


async def run(
    ports: tuple[int, int],
    games: int,
    seconds: float,
    think: float,
    pids: list[int],
    *,
    board: bool,
) -> tuple[Stats, dict[str, int]]:
    stats = Stats()
    ready = asyncio.Event()
    before = sum(memory_kib(pid)[0] for pid in pids)
    chance = random.Random(1)
    tables = [
        asyncio.create_task(
            play_games(ports, stats, think, ready, board=board, offset=chance.uniform(0, think))
        )
        for _ in range(games)
    ]
    while stats.seated < games and not any(t.done() for t in tables):
        await asyncio.sleep(0.05)  # every table seated (seating is not timed)
    seated = sum(memory_kib(pid)[0] for pid in pids)
    # The load generator holds 2N sockets in one process: a full collection of its heap
    # (a quarter of a second at 500 games) would stall every table at once and be counted as
    # the server's latency. Its seating garbage is collected now, what is left frozen, and
    # no cyclic collection runs while timed (bounded: seconds of moves); its loop's own
    # lateness is measured and reported, so a stall of the client is seen, not hidden.
    gc.collect()
    gc.freeze()
    gc.disable()
    timer = _timer(stats.client_gc)
    gc.callbacks.append(timer)
    cpu = sum(cpu_seconds(pid) for pid in pids)
    stats.start = time.perf_counter()
    stats.stop = stats.start + seconds
    client_cpu = time.process_time()
    ready.set()
    lateness = asyncio.create_task(watch_lag(stats))
    try:
        await asyncio.gather(*tables)
    finally:
        await lateness
        gc.callbacks.remove(timer)
        gc.enable()
        gc.unfreeze()
    stats.server_cpu = sum(cpu_seconds(pid) for pid in pids) - cpu
    stats.client_cpu = time.process_time() - client_cpu
    memory = {
        "before_kib": before,
        "seated_kib": seated,
        "peak_kib": sum(memory_kib(pid)[1] for pid in pids),
    }
    return stats, memory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--redis", action="store_true")
    parser.add_argument("--no-board", dest="board", action="store_false")
    parser.add_argument("--two", action="store_true", help="two processes on one SQLite folder")
    args = parser.parse_args()
    if not 1 <= args.games <= MOST_GAMES or not 0 < args.seconds <= MOST_SECONDS:
        raise SystemExit(f"--games 1 to {MOST_GAMES}, --seconds up to {MOST_SECONDS:g}")
    folder = Path(tempfile.mkdtemp(prefix="coinrow-load-online-"))
    env = {
        **os.environ,
        "COINROW_ONLINE_GAMES_PER_ADDRESS": str(4 * args.games + 10),
        "COINROW_ONLINE_GAMES_TOTAL": str(4 * args.games + 10),
        "COINROW_ONLINE_SOCKETS_PER_ADDRESS": str(4 * args.games + 10),
    }
    processes: list[subprocess.Popen[bytes]] = []
    serve = [sys.executable, "-m", "coinrow", "serve", "--no-access-log"]
    try:
        if args.redis:
            redis_port = free_port()
            redis = start(
                ["redis-server", "--bind", "127.0.0.1", "--port", str(redis_port), "--save", "",
                 "--appendonly", "no", "--dir", str(folder)],
                folder / "redis.log",
                env,
            )  # fmt: skip
            processes.append(redis)
            time.sleep(0.5)
            store = ["--redis", f"redis://127.0.0.1:{redis_port}/0"]
            ports = (free_port(), free_port())
        else:
            store = ["--data-dir", str(folder / "games")]
            port = free_port()
            # --two: two processes on one SQLite folder (as --workers 2), each game's players
            # on different ones (the feed carries each move across)
            ports = (port, free_port()) if args.two else (port, port)
        servers = []
        for index, port in enumerate(sorted(set(ports))):
            log = folder / f"serve{index}.log"
            servers.append((start([*serve, "--port", str(port), *store], log, env), port, log))
        processes.extend(process for process, _, _ in servers)
        for process, port, log in servers:
            wait_http(port, process, log)
        pids = [process.pid for process, _, _ in servers]
        load = os.getloadavg()[0]
        stats, memory = asyncio.run(
            run(ports, args.games, args.seconds, args.think, pids, board=args.board)
        )
        load_after = os.getloadavg()[0]
    finally:
        for process in reversed(processes[1:] if args.redis else processes):
            end(process)
    lost, duplicated, games_checked = check_store(args, folder, stats, store)
    if args.redis:
        end(processes[0])
    many = len(stats.latencies) > 1
    cuts = statistics.quantiles(stats.latencies, n=100) if many else [0.0] * 99
    tail = statistics.quantiles(stats.latencies, n=1000)[998] if many else 0.0
    print(
        f"{args.games} games x 2 sockets, think {args.think:g} s, "
        f"{'--redis' if args.redis else 'SQLite'}, {2 if args.redis or args.two else 1} "
        "process(es), "
        f"{'with' if args.board else 'without'} the board, "
        f"{os.cpu_count()} CPUs (load average {load:.1f} before, {load_after:.1f} after)"
    )
    print(
        f"{stats.moves} moves in {args.seconds:g} s ({stats.moves / args.seconds:.0f}/s): "
        f"latency p50 {cuts[49] * 1000:.1f} ms, p99 {cuts[98] * 1000:.1f} ms "
        f"(p99.9 {tail * 1000:.0f} ms, most {max(stats.latencies, default=0) * 1000:.0f} ms); "
        f"{stats.bytes_in / max(1, stats.event_frames):.0f} bytes per event frame (before "
        f"compression); "
        f"errors {len(stats.errors)}"
    )
    cpu_ms = 1000 * stats.server_cpu / max(1, stats.moves)
    print(
        f"server CPU: {stats.server_cpu:.1f} s for {stats.moves} moves, {cpu_ms:.2f} ms a move "
        f"(a core would serve about {1000 / max(cpu_ms, 1e-9):.0f} moves a second); "
        f"the load generator used {stats.client_cpu:.1f} s"
    )
    if stats.client_lag:
        lag = statistics.quantiles(stats.client_lag, n=100)
        print(
            f"the load generator's own event loop: late p99 {lag[98] * 1000:.1f} ms, most "
            f"{max(stats.client_lag) * 1000:.0f} ms; {len(stats.client_gc)} garbage collections "
            f"while timed ({sum(stats.client_gc) * 1000:.0f} ms)"
        )
    if stats.latencies:
        slow = sorted(zip(stats.latencies, stats.when, strict=True), reverse=True)
        slow = slow[: max(1, len(slow) // 100)]
        seconds_hit = sorted({int(when) for _, when in slow})
        print(f"the slowest 1% of moves were sent in these seconds of the run: {seconds_hit}")
    per_game = (memory["seated_kib"] - memory["before_kib"]) / args.games
    print(
        f"server memory: {memory['before_kib'] / 1024:.0f} MiB before, "
        f"{memory['seated_kib'] / 1024:.0f} MiB with the games seated "
        f"({per_game:.0f} KiB a game with its 2 sockets), peak {memory['peak_kib'] / 1024:.0f} MiB"
    )
    print(
        f"checked against the store: {games_checked} games, {lost} moves lost, "
        f"{duplicated} duplicated"
    )
    for error in stats.errors[:5]:
        print("error:", error)
    shutil.rmtree(folder, ignore_errors=True)  # the store and the logs (kept if a run fails)


def check_store(
    args: argparse.Namespace, folder: Path, stats: Stats, store: list[str]
) -> tuple[int, int, int]:
    """Moves acknowledged to a client but not stored (lost), and stored more than once or
    not in order (duplicated)."""
    if args.redis:
        from coinrow.online.redis_store import RedisStore

        opened: Any = RedisStore(store[1])
    else:
        from coinrow.online import SqliteStore

        opened = SqliteStore(folder / "games")
    lost = duplicated = 0
    try:
        for game, acked in stats.acked.items():
            events = opened.events(game)
            stored = [(e["number"], e["move"]) for e in events if e["type"] == "move"]
            numbers = [number for number, _ in stored]
            duplicated += len(numbers) - len(set(numbers))
            duplicated += sum(1 for a, b in itertools.pairwise(numbers) if b != a + 1)
            lost += len(set(acked) - set(stored))
    finally:
        opened.close()
    return lost, duplicated, len(stats.acked)


if __name__ == "__main__":
    main()
