"""The online referee in the library (no server): numbered moves, seats and tokens, the
clock, draws, resign, rematch, computer seats, the sweep, and the SQLite store's
compare-and-append. Each game is a few coins; the whole module runs in well under a second.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from coinrow.game import Game
from coinrow.online import OnlineError, OnlineLimits, Referee, Room, SqliteStore
from coinrow.online.board import board_svg


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def referee(tmp_path: Path, clock: Clock) -> Iterator[Referee]:
    store = SqliteStore(tmp_path)
    yield Referee(store, OnlineLimits(), clock=clock)
    store.close()  # and its watcher thread


def move(number: int, text: str) -> dict[str, Any]:
    return {"type": "move", "number": number, "move": text}


def refused(code: str, call: Any, *args: Any, **kwargs: Any) -> OnlineError:
    with pytest.raises(OnlineError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value
    return caught.value


def test_a_whole_game_is_refereed_and_stored_once(referee: Referee, tmp_path: Path) -> None:
    coins = [3, 9, 1, 2, 8, 5]
    room, token0 = referee.create(coins, address="a")
    game = room.game_id
    refused("waiting", referee.play, game, 0, move(0, "L"))
    seat1, token1 = referee.join(game)
    assert seat1 == 1 and token0 != token1
    assert referee.room(game).seat_of(token1) == 1 and referee.room(game).seat_of("x" * 43) is None
    refused("full", referee.join, game)
    line = "RLLRRL"
    for number, text in enumerate(line):
        seat = number % 2
        refused("turn", referee.play, game, 1 - seat, move(number, text))
        refused("ahead", referee.play, game, seat, move(number + 1, text))
        referee.play(game, seat, move(number, text.lower()))
        stale = refused("stale", referee.play, game, seat, move(number, text))
        assert stale.details["played"] == text  # a move sent twice counts once
    final = referee.room(game)
    assert final.result == {
        "reason": "finished",
        "winners": list(Game(coins, line).position.rules.winners(Game(coins, line).totals)),
    }
    # the store holds each move once, in order, and no token
    events = SqliteStore(tmp_path).events(game)
    assert [e["number"] for e in events if e["type"] == "move"] == list(range(6))
    assert token0 not in str(events) and token1 not in str(events)
    assert Room.from_events(events).game.line == line


def test_illegal_and_malformed_moves_are_refused(referee: Referee) -> None:
    room, _ = referee.create([1, 2, 3], rules="take:2", seats=[None, "greedy"], address="a")
    game = room.game_id
    refused("illegal", referee.play, game, 0, move(0, "R3"))
    refused("illegal", referee.play, game, 0, move(0, "B"))
    refused("malformed", referee.play, game, 0, {"type": "move", "number": "0", "move": "L1"})
    refused("malformed", referee.play, game, 0, {"type": "move", "number": True, "move": "L1"})
    refused("spectator", referee.play, game, None, move(0, "L1"))
    events = referee.play(game, 0, move(0, "L2"))
    assert [e["seat"] for e in events] == [0, 1]  # the computer answered
    assert referee.room(game).status == "over"


def test_players_four_with_computer_seats_and_the_board(referee: Referee) -> None:
    coins = [5, 1, 4, 7, 2, 8, 3, 6]
    room, _ = referee.create(
        coins, rules="players:4", seats=[None, "optimal", None, "greedy"], address="a"
    )
    game = room.game_id
    seat, _ = referee.join(game)
    assert seat == 2
    number = 0
    while referee.room(game).status == "playing":
        current = referee.room(game)
        events = referee.play(game, current.mover, move(current.number, "L"))
        assert all(e["type"] == "move" for e in events)
        number += 1
    final = referee.room(game)
    assert final.status == "over" and len(final.game.moves) == len(coins)
    svg = board_svg(final.game)
    assert svg.count('class="coin"') == len(coins) and 'data-seat=""' not in svg
    # the key names all four seats inside the picture (each entry: a swatch and a name)
    board = ET.fromstring(svg)
    keys = [r for r in board.iter("{http://www.w3.org/2000/svg}rect") if r.get("x")]
    assert len(keys) == 4 and all(
        float(r.get("x", 0)) + 90 <= float(board.get("width", 0)) for r in keys
    )


def test_the_board_names_who_took_each_coin() -> None:
    """Each coin's title (what a screen reader says) names its taker, and only a coin taken."""
    game = Game([3, 9, 1, 2], "RL")  # the first player took the 2, the second the 3
    board = ET.fromstring(board_svg(game, title="Plain: <a & b>"))
    namespace = "{http://www.w3.org/2000/svg}"
    assert board.findtext(f"{namespace}title") == "Plain: <a & b>"
    coins = [g for g in board.iter(f"{namespace}g") if g.get("class") == "coin"]
    titles = [coin.findtext(f"{namespace}title") for coin in coins]
    assert titles == [
        "coin 1: 3, taken by second",
        "coin 2: 9",
        "coin 3: 1",
        "coin 4: 2, taken by first",
    ]


def test_clock_runs_out(referee: Referee, clock: Clock) -> None:
    room, _ = referee.create([1, 2, 3, 4], clock={"minutes": 1, "increment": 2}, address="a")
    game = room.game_id
    referee.join(game)
    clock.now += 30
    referee.play(game, 0, move(0, "L"))
    assert referee.room(game).clock_left(clock.now) == [32.0, 60.0]
    clock.now += 59
    assert referee.sweep() == []  # the second player has a second left
    clock.now += 2
    refused("timeout", referee.play, game, 1, move(1, "L"))
    events = referee.sweep()
    assert [(e["type"], e["seat"]) for e in events] == [("timeout", 1)]
    assert referee.room(game).result == {"reason": "timeout", "winners": [0]}


def test_draw_offer_accept_decline_and_resign(referee: Referee) -> None:
    room, _ = referee.create([1, 2, 3, 4], address="a")
    game = room.game_id
    referee.join(game)
    referee.play(game, 0, {"type": "draw", "action": "offer"})
    refused("draw", referee.play, game, 0, {"type": "draw", "action": "accept"})
    referee.play(game, 1, {"type": "draw", "action": "decline"})
    referee.play(game, 1, {"type": "draw", "action": "offer"})
    referee.play(game, 0, move(0, "L"))  # a move withdraws the offer
    refused("draw", referee.play, game, 0, {"type": "draw", "action": "accept"})
    referee.play(game, 1, {"type": "resign"})
    assert referee.room(game).result == {"reason": "resigned", "winners": [0]}
    refused("over", referee.play, game, 0, move(1, "L"))
    room3, _ = referee.create([1, 2, 3], rules="players:3", address="a")
    referee.join(room3.game_id)
    referee.join(room3.game_id)
    refused("draw", referee.play, room3.game_id, 0, {"type": "draw", "action": "offer"})


def test_draw_agreed(referee: Referee) -> None:
    room, _ = referee.create([1, 2, 3, 4], address="a")
    referee.join(room.game_id)
    referee.play(room.game_id, 0, {"type": "draw", "action": "offer"})
    referee.play(room.game_id, 1, {"type": "draw", "action": "accept"})
    assert referee.room(room.game_id).result == {"reason": "drawn", "winners": [0, 1]}


def test_rematch_swaps_seats_and_keeps_tokens(referee: Referee) -> None:
    room, token0 = referee.create([1, 2], address="a")
    game = room.game_id
    _, token1 = referee.join(game)
    refused("rematch", referee.play, game, 0, {"type": "rematch"})
    referee.play(game, 0, move(0, "R"))
    referee.play(game, 1, move(1, "L"))
    event = referee.play(game, 1, {"type": "rematch"})[0]
    refused("rematch", referee.play, game, 0, {"type": "rematch"})
    new = referee.room(event["game"])
    assert new.rematch_of == game and new.status == "playing"
    assert (new.seat_of(token0), new.seat_of(token1)) == (1, 0)


def test_presets_only_and_bounded(referee: Referee) -> None:
    room, _ = referee.create([1, 2], address="a")
    game = room.game_id
    referee.play(game, 0, {"type": "say", "message": 2})
    refused("malformed", referee.play, game, 0, {"type": "say", "message": "hi"})
    refused("malformed", referee.play, game, 0, {"type": "say", "message": 99})
    for _ in range(29):
        referee.play(game, 0, {"type": "say", "message": 0})
    refused("limit", referee.play, game, 0, {"type": "say", "message": 0})


def test_games_per_address_and_in_all(tmp_path: Path, clock: Clock) -> None:
    referee = Referee(
        SqliteStore(tmp_path), OnlineLimits(games_per_address=2, games_total=3), clock=clock
    )
    referee.create([1, 2], address="a")
    referee.create([1, 2], address="a")
    refused("limit", referee.create, [1, 2], address="a")
    referee.create([1, 2], address="b")
    refused("limit", referee.create, [1, 2], address="c")


def test_seats_freed_then_games_abandoned_and_idle(tmp_path: Path, clock: Clock) -> None:
    limits = OnlineLimits(seat_absence_seconds=100, abandon_seconds=300, idle_seconds=1000)
    referee = Referee(SqliteStore(tmp_path), limits, clock=clock)
    room, _ = referee.create([1, 2, 3, 4], address="a")
    game = room.game_id
    _, token1 = referee.join(game)
    idle, _ = referee.create([1, 2], address="b")
    referee.join(idle.game_id)

    def sweep() -> list[tuple[str, Any]]:
        found = []
        for _ in range(10):  # the slow checks run every tenth sweep
            found += [(e["type"], e.get("seat", e.get("reason"))) for e in referee.sweep()]
        return found

    clock.now += 50
    referee.seen(game, 0)
    referee.seen(idle.game_id, 0)
    assert sweep() == []
    clock.now += 60  # seat 1 of the first game away 110 s
    assert sweep() == [("freed", 1), ("freed", 1)]
    assert referee.room(game).seat_of(token1) is None
    assert referee.join(game)[0] == 1  # someone else takes it
    for _ in range(9):
        clock.now += 100
        referee.seen(idle.game_id, 0)
        sweep()
    assert referee.room(game).result == {"reason": "abandoned", "winners": []}
    assert referee.room(idle.game_id).status != "over"
    clock.now += 200
    referee.seen(idle.game_id, 0)
    sweep()
    assert referee.room(idle.game_id).result == {"reason": "idle", "winners": []}


def test_two_referees_on_one_store_never_write_a_move_twice(tmp_path: Path, clock: Clock) -> None:
    first = Referee(SqliteStore(tmp_path), clock=clock)
    second = Referee(SqliteStore(tmp_path), clock=clock)
    room, _ = first.create([1, 2, 3, 4], address="a")
    game = room.game_id
    second.join(game)  # first's room in memory is now behind the store
    first.play(game, 0, move(0, "L"))  # checked again on the store's log, then stored
    refused("stale", second.play, game, 0, move(0, "R"))
    refused("turn", first.play, game, 0, move(1, "L"))
    second.play(game, 1, move(1, "R"))
    assert [e["move"] for e in first.events(game) if e["type"] == "move"] == ["L", "R"]


def test_a_store_hears_the_events_another_process_stored(tmp_path: Path) -> None:
    """Two stores on one folder stand for two processes: each subscriber hears the other's
    events (through the feed, when SQLite's data_version moves) and its own store's events
    once (announced by the append, never again by the feed)."""
    import queue

    from coinrow.online.room import created_event

    one = SqliteStore(tmp_path, poll_seconds=0.01)
    two = SqliteStore(tmp_path, poll_seconds=0.01)
    heard: queue.Queue[dict[str, Any]] = queue.Queue()
    try:
        one.create(created_event("g", [1, 2, 3], at=0.0), {"status": "waiting"}, "a")
        two.subscribe("g", heard.put)
        assert one.append("g", {"seq": 1, "type": "said", "at": 1.0}, {"status": "waiting"})
        assert heard.get(timeout=5)["seq"] == 1
        assert two.append("g", {"seq": 2, "type": "said", "at": 2.0}, {"status": "waiting"})
        assert one.append("g", {"seq": 3, "type": "said", "at": 3.0}, {"status": "waiting"})
        assert [heard.get(timeout=5)["seq"] for _ in range(2)] == [2, 3]
        two.append("g", {"seq": 4, "type": "said", "at": 4.0}, {"status": "waiting"})
        assert heard.get(timeout=5)["seq"] == 4
        one.append("g", {"seq": 5, "type": "said", "at": 5.0}, {"status": "waiting"})
        assert heard.get(timeout=5)["seq"] == 5  # after the feed's rows of seq 4: not again
        assert heard.empty()
    finally:
        one.close()
        two.close()


def test_a_failing_subscriber_disturbs_neither_the_move_nor_the_others(tmp_path: Path) -> None:
    """A socket whose event loop is closing fails when it is handed an event: the move is
    stored and acknowledged all the same, and every other subscriber hears it."""
    from coinrow.online.room import created_event

    store = SqliteStore(tmp_path)
    heard: list[int] = []

    def closing(event: dict[str, Any]) -> None:
        raise RuntimeError("Event loop is closed")

    try:
        store.create(created_event("g", [1, 2, 3], at=0.0), {"status": "waiting"}, "a")
        store.subscribe("g", closing)
        store.subscribe("g", lambda event: heard.append(event["seq"]))
        assert store.append("g", {"seq": 1, "type": "said", "at": 1.0}, {"status": "waiting"})
        assert heard == [1] and store.length("g") == 2
    finally:
        store.close()


def test_a_checkpoint_lets_the_write_ahead_log_start_over_under_a_stream_of_moves(
    tmp_path: Path,
) -> None:
    """Moves committed while a checkpoint copies the log must not keep the log from starting
    over: otherwise, under a steady stream of moves, it grows for good (12 MiB a second at
    500 moves a second). Here moves are committed beyond a reader's snapshot while the
    bulk is copied, so the copy stops short of the last commit, as under load."""
    import sqlite3

    from coinrow.online.room import created_event

    store = SqliteStore(tmp_path, poll_seconds=3600.0)  # its watcher never checkpoints here
    seq = 0

    def said() -> None:
        nonlocal seq
        seq += 1
        assert store.append("g", {"seq": seq, "type": "said", "at": 1.0}, {"status": "waiting"})

    class MovesDuringTheBulk:
        """The checkpoint's connection: its first copy runs while moves are committed."""

        def __init__(self, connection: sqlite3.Connection) -> None:
            self.connection, self.copies = connection, 0

        def execute(self, sql: str) -> sqlite3.Cursor:
            self.copies += 1
            if self.copies > 1:
                return self.connection.execute(sql)
            snapshot = sqlite3.connect(store.path, isolation_level=None)
            snapshot.execute("BEGIN")
            snapshot.execute("SELECT count(*) FROM events").fetchone()
            for _ in range(5):
                said()
            cursor = self.connection.execute(sql)  # copies up to the snapshot only
            snapshot.execute("COMMIT")
            snapshot.close()
            return cursor

    wal = Path(f"{store.path}-wal")
    try:
        store.create(created_event("g", [1, 2, 3], at=0.0), {"status": "waiting"}, "a")
        for _ in range(50):
            said()
        during = MovesDuringTheBulk(sqlite3.connect(store.path, isolation_level=None))
        store._checkpoint(during)  # type: ignore[arg-type]  # a stand-in for the connection
        during.connection.close()
        size = wal.stat().st_size
        said()  # the log starts over: this move's pages are written over the old ones
        assert wal.stat().st_size == size
    finally:
        store.close()
