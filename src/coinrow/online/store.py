"""Where online games live: the :class:`Store` protocol and its SQLite implementation.

A store keeps every game's log of events (:mod:`coinrow.online.room`) for good (the
archive), a summary row per game for the lists of recent and live games, when each seat was
last seen, and it announces each event to the subscribers of its game. ``append`` is a
compare-and-append: it writes event ``seq`` only if the log holds exactly ``seq`` events,
commits, and only then announces it, so two processes never write the same move twice and
nothing is announced that a crash could lose.

:class:`SqliteStore` is the standard library's ``sqlite3`` with a write-ahead log in a data
folder (one process, or several sharing the file, each announcing to its own
subscribers); :class:`~coinrow.online.redis_store.RedisStore` keeps the same data in Redis
(a stream per game as its log, pub/sub to reach every process).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

#: A subscriber: called with each event of its game after the event is stored (possibly on
#: another thread: the web layer hands it to its event loop).
Listener = Callable[[dict[str, Any]], None]

#: The SQLite file inside the data folder.
DATABASE = "games.sqlite3"

#: Seconds between a SQLite store's looks at the file for other processes' events.
POLL_SECONDS = 0.05

#: Rows of the feed (the order in which events were stored, by every process) kept; older
#: rows are deleted (a process that far behind catches up from the log instead).
FEED_KEPT = 100_000

#: Seconds between the write-ahead log's checkpoints (made by the watcher thread, not by a
#: move's commit, so no move waits for the bulk of the copy; see ``SqliteStore._checkpoint``).
CHECKPOINT_SECONDS = 1.0


def address_key(address: str) -> str:
    """What a store keeps of a client's address: a short hash, never the address (O(1)).

    >>> address_key("127.0.0.1")
    '12ca17b49af22894'
    """
    return hashlib.sha256(address.encode("utf-8", "replace")).hexdigest()[:16]


class Store(Protocol):
    """What the referee needs of a store (each method's cost is its implementation's)."""

    #: Where the games are, for people (``coinrow serve`` prints it).
    where: str
    #: Whether the store is reached over the network (its calls wait for round trips).
    remote: bool

    def create(self, event: dict[str, Any], summary: dict[str, Any], address: str) -> None:
        """Store a new game's ``created`` event and summary (its id must be new)."""

    def append(self, game_id: str, event: dict[str, Any], summary: dict[str, Any]) -> bool:
        """Store ``event`` if the log holds exactly ``event["seq"]`` events, update the
        summary, commit, then announce it; False (nothing written) otherwise."""

    def events(self, game_id: str, since: int = 0) -> list[dict[str, Any]]:
        """The game's events from ``seq`` ``since`` on, in order (empty: no such game)."""

    def length(self, game_id: str) -> int:
        """How many events the game's log holds (0: no such game)."""

    def games(self, *, live: bool, limit: int) -> list[dict[str, Any]]:
        """Summaries of the most recently updated games (``live``: not over), newest first."""

    def live_count(self, address: str | None = None) -> int:
        """Games not over, in all or created from ``address``."""

    def live_ids(self) -> list[str]:
        """Ids of every game not over (the sweeper's round)."""

    def touch(self, game_id: str, seat: int, when: float) -> None:
        """Note that ``seat``'s player was connected at ``when``."""

    def touch_many(self, seats: list[tuple[str, int]], when: float) -> None:
        """Note that each ``(game, seat)``'s player was connected at ``when`` (one write)."""

    def last_seen(self, game_id: str) -> dict[int, float]:
        """When each seat's player was last connected (seats never seen are absent)."""

    def subscribe(self, game_id: str, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with each new event of the game; returns the unsubscribe."""

    def close(self) -> None:
        """Release connections and threads."""


class Announcer:
    """The subscribers of each game in this process, called after each commit (O(subscribers
    of the game) an announcement)."""

    def __init__(self) -> None:
        self._listeners: dict[str, set[Listener]] = {}
        self._lock = threading.Lock()

    def subscribe(self, game_id: str, listener: Listener) -> Callable[[], None]:
        with self._lock:
            self._listeners.setdefault(game_id, set()).add(listener)

        def unsubscribe() -> None:
            with self._lock:
                listeners = self._listeners.get(game_id)
                if listeners is not None:
                    listeners.discard(listener)
                    if not listeners:
                        del self._listeners[game_id]

        return unsubscribe

    def listens(self, game_id: str) -> bool:
        """Whether the game has a subscriber in this process (O(1))."""
        return game_id in self._listeners

    def announce(self, game_id: str, event: dict[str, Any]) -> None:
        with self._lock:
            listeners = list(self._listeners.get(game_id, ()))
        for listener in listeners:
            try:
                listener(event)
            except Exception:  # one socket's failure (its loop closing) is its own
                continue

    def subscribed(self) -> int:
        """Listeners in all (O(games))."""
        with self._lock:
            return sum(len(listeners) for listeners in self._listeners.values())


_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    status TEXT NOT NULL,
    summary TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_status ON games (status, updated);
CREATE INDEX IF NOT EXISTS games_by_address ON games (address, status);
CREATE TABLE IF NOT EXISTS events (
    game TEXT NOT NULL,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS feed (
    n INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    seq INTEGER NOT NULL,
    origin TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seen (
    game TEXT NOT NULL,
    seat INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game, seat)
) WITHOUT ROWID;
"""


class SqliteStore:
    """Games in a SQLite database (write-ahead log) in the folder ``data_dir``, made if
    missing. Each append is one ``BEGIN IMMEDIATE`` transaction: the event's number is
    checked against the log and the event committed before it is announced (O(log games)
    an append). ``synchronous=NORMAL``: a commit survives the process being killed (the
    write-ahead log is on disk); ``durable=True`` (``synchronous=FULL``) also survives a
    power cut, at one fsync a move.

    Several processes may share the file (several server processes, or two servers on
    one data folder): each append also writes a row of the ``feed`` table, and the
    store's watcher thread looks every ``poll_seconds`` at SQLite's
    ``PRAGMA data_version`` (which changes when another connection commits: a read of
    shared memory, no query) and only then reads the feed's new rows, announcing other
    processes' events to this process's subscribers. The same thread checkpoints the
    write-ahead log every :data:`CHECKPOINT_SECONDS` (a move's commit never does).

    >>> import tempfile
    >>> store = SqliteStore(tempfile.mkdtemp())
    >>> store.create({"seq": 0, "type": "created", "game": "g", "at": 0.0}, {"status": "waiting"}, "a")
    >>> store.append("g", {"seq": 1, "type": "said", "at": 1.0}, {"status": "waiting"})
    True
    >>> store.append("g", {"seq": 1, "type": "said", "at": 1.0}, {"status": "waiting"})
    False
    >>> [e["seq"] for e in store.events("g")], store.live_count("a"), store.live_count("b")
    ([0, 1], 1, 0)
    >>> store.close()
    """  # noqa: E501

    def __init__(
        self, data_dir: str | Path, *, durable: bool = False, poll_seconds: float = POLL_SECONDS
    ) -> None:
        folder = Path(data_dir)
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / DATABASE
        self.where = f"{self.path} (SQLite, write-ahead log)"
        self.remote = False
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()
        self._announcer = Announcer()
        self._origin = secrets.token_hex(8)  # this store's rows of the feed
        self._appends = 0
        self.poll_seconds = poll_seconds
        self._closed = threading.Event()
        self._watcher: threading.Thread | None = None
        self._start_watcher()

    def _start_watcher(self) -> None:
        """The watcher thread (see the class's doc); the writer leaves checkpoints to it.
        Where the feed stands is read here, before any subscriber: every event stored after
        the store was opened is heard."""
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        reader = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        reader.execute("PRAGMA busy_timeout=5000")
        (version,) = reader.execute("PRAGMA data_version").fetchone()
        (fed,) = reader.execute("SELECT coalesce(max(n), 0) FROM feed").fetchone()
        self._watcher = threading.Thread(
            target=self._watch, args=(reader, fed, version), name="coinrow-sqlite", daemon=True
        )
        self._watcher.start()

    def _watch(self, reader: sqlite3.Connection, fed: int, version: int) -> None:
        checkpointed, appends = 0.0, self._appends
        try:
            while not self._closed.wait(self.poll_seconds):
                try:
                    (now,) = reader.execute("PRAGMA data_version").fetchone()
                    if now != version:
                        fed = self._deliver(reader, fed)
                        version = now  # after the delivery: a failed one is tried again
                    clock = time.monotonic()
                    if self._appends != appends and clock - checkpointed >= CHECKPOINT_SECONDS:
                        checkpointed, appends = clock, self._appends
                        self._checkpoint(reader)
                except Exception:  # a busy file or a listener's failure: the next look retries
                    if self._closed.is_set():
                        return
        finally:
            reader.close()

    def _checkpoint(self, reader: sqlite3.Connection) -> tuple[int, int, int]:
        """Copy the write-ahead log into the database so that the next append starts the log
        over: the bulk while this process's moves go on, then the frames written meanwhile
        with its writer held (a few frames: a tenth of a millisecond typically). Without the
        second step, under a steady stream of moves each checkpoint ended behind the last
        commit and the log never started over: it grew by about 3,000 pages (12 MiB) a
        second at 500 moves a second. Returns the second step's (busy, frames in the log,
        frames checkpointed) (O(frames written since the last checkpoint))."""
        reader.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        with self._lock:
            busy, log, done = reader.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(busy), int(log), int(done)

    def _deliver(self, reader: sqlite3.Connection, fed: int) -> int:
        """Announce the events other processes stored after feed row ``fed`` to this
        process's subscribers; the last row read (O(rows new))."""
        while True:
            rows = reader.execute(
                "SELECT n, game, seq, origin FROM feed WHERE n > ? ORDER BY n LIMIT 1000", (fed,)
            ).fetchall()
            for n, game_id, seq, origin in rows:
                fed = n
                if origin == self._origin or not self._announcer.listens(game_id):
                    continue
                found = reader.execute(
                    "SELECT body FROM events WHERE game = ? AND seq = ?", (game_id, seq)
                ).fetchone()
                if found is not None:
                    self._announcer.announce(game_id, json.loads(found[0]))
            if len(rows) < 1000:
                return fed

    def create(self, event: dict[str, Any], summary: dict[str, Any], address: str) -> None:
        game_id = event["game"]
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        game_id,
                        address_key(address),
                        event["at"],
                        event["at"],
                        summary["status"],
                        json.dumps(summary),
                    ),
                )
                self._db.execute(
                    "INSERT INTO events VALUES (?, 0, ?)", (game_id, json.dumps(event))
                )
                self._db.execute("COMMIT")
            except Exception:
                self._db.execute("ROLLBACK")
                raise

    def append(self, game_id: str, event: dict[str, Any], summary: dict[str, Any]) -> bool:
        seq = event["seq"]
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                (count,) = self._db.execute(
                    "SELECT count(*) FROM events WHERE game = ?", (game_id,)
                ).fetchone()
                if count != seq or count == 0:
                    self._db.execute("ROLLBACK")
                    return False
                self._db.execute(
                    "INSERT INTO events VALUES (?, ?, ?)", (game_id, seq, json.dumps(event))
                )
                self._db.execute(
                    "UPDATE games SET updated = ?, status = ?, summary = ? WHERE id = ?",
                    (event["at"], summary["status"], json.dumps(summary), game_id),
                )
                self._db.execute(
                    "INSERT INTO feed (game, seq, origin) VALUES (?, ?, ?)",
                    (game_id, seq, self._origin),
                )
                self._appends += 1
                if self._appends % 1000 == 0:
                    self._db.execute(
                        "DELETE FROM feed WHERE n <= (SELECT max(n) FROM feed) - ?", (FEED_KEPT,)
                    )
                self._db.execute("COMMIT")
            except Exception:
                self._db.execute("ROLLBACK")
                raise
        self._announcer.announce(game_id, event)  # committed first, then announced
        return True

    def events(self, game_id: str, since: int = 0) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT body FROM events WHERE game = ? AND seq >= ? ORDER BY seq",
                (game_id, max(0, since)),
            ).fetchall()
        return [json.loads(body) for (body,) in rows]

    def length(self, game_id: str) -> int:
        with self._lock:
            (count,) = self._db.execute(
                "SELECT count(*) FROM events WHERE game = ?", (game_id,)
            ).fetchone()
        return int(count)

    def games(self, *, live: bool, limit: int) -> list[dict[str, Any]]:
        where = "WHERE status != 'over'" if live else ""
        with self._lock:
            rows = self._db.execute(
                f"SELECT summary FROM games {where} ORDER BY updated DESC LIMIT ?", (limit,)
            ).fetchall()
        return [json.loads(summary) for (summary,) in rows]

    def live_count(self, address: str | None = None) -> int:
        with self._lock:
            if address is None:
                row = self._db.execute("SELECT count(*) FROM games WHERE status != 'over'")
            else:
                row = self._db.execute(
                    "SELECT count(*) FROM games WHERE address = ? AND status != 'over'",
                    (address_key(address),),
                )
            (count,) = row.fetchone()
        return int(count)

    def live_ids(self) -> list[str]:
        with self._lock:
            rows = self._db.execute("SELECT id FROM games WHERE status != 'over'").fetchall()
        return [game_id for (game_id,) in rows]

    def touch(self, game_id: str, seat: int, when: float) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO seen VALUES (?, ?, ?) ON CONFLICT (game, seat) DO UPDATE "
                "SET at = max(at, excluded.at)",
                (game_id, seat, when),
            )

    def touch_many(self, seats: list[tuple[str, int]], when: float) -> None:
        if not seats:
            return
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(
                    "INSERT INTO seen VALUES (?, ?, ?) ON CONFLICT (game, seat) DO UPDATE "
                    "SET at = max(at, excluded.at)",
                    [(game_id, seat, when) for game_id, seat in seats],
                )
                self._db.execute("COMMIT")
            except Exception:
                self._db.execute("ROLLBACK")
                raise

    def last_seen(self, game_id: str) -> dict[int, float]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seat, at FROM seen WHERE game = ?", (game_id,)
            ).fetchall()
        return {int(seat): float(at) for seat, at in rows}

    def subscribe(self, game_id: str, listener: Listener) -> Callable[[], None]:
        return self._announcer.subscribe(game_id, listener)

    def close(self) -> None:
        self._closed.set()
        if self._watcher is not None and self._watcher is not threading.current_thread():
            self._watcher.join(timeout=5)
        with self._lock:
            self._db.close()
