"""Online games in Redis, shared by several server processes (``coinrow serve`` with Redis).

Each game's log is a stream ``coinrow:log:ID`` (event ``seq`` K is entry ``K+1-0``, so a
reader asks for the events it has not seen; never trimmed: the archive); its summary a
hash field of ``coinrow:games``, with the sorted sets ``coinrow:updated`` (every game)
and ``coinrow:live`` (games not over) for the lists, and ``coinrow:address:KEY`` (the live
games created from one address). An append is one Lua
script, so it is atomic: it checks the stream's length against the event's number, adds
the event, updates the summary and publishes the event on ``coinrow:events:ID``; every
process subscribes to ``coinrow:events:*`` and hands each event to its own sockets.
Redis persists as its configuration says (``appendonly yes`` with ``appendfsync always``
loses nothing when Redis itself dies; docs/web.md).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from ..errors import MissingExtraError
from .store import Announcer, Listener, address_key

_PREFIX = "coinrow:"

#: KEYS: log, games hash, updated zset, live zset, address set, channel.
#: ARGV: game id, seq, event JSON, summary JSON, updated time, over ("1"/"0").
_APPEND = """
if redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[2]) then return 0 end
redis.call('XADD', KEYS[1], (tonumber(ARGV[2]) + 1) .. '-0', 'e', ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[1])
if ARGV[6] == '1' then
  redis.call('ZREM', KEYS[4], ARGV[1])
  local owner = redis.call('HGET', KEYS[2] .. ':address', ARGV[1])
  if owner then redis.call('SREM', KEYS[5] .. owner, ARGV[1]) end
else
  redis.call('ZADD', KEYS[4], ARGV[5], ARGV[1])
end
redis.call('PUBLISH', KEYS[6], ARGV[3])
return 1
"""

#: KEYS: log, games hash, updated zset, live zset, address prefix.
#: ARGV: game id, event JSON, summary JSON, time, address key.
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('XADD', KEYS[1], '1-0', 'e', ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2] .. ':address', ARGV[1], ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[4], ARGV[1])
redis.call('SADD', KEYS[5] .. ARGV[5], ARGV[1])
return 1
"""


class RedisStore:
    """Online games in the Redis server at ``url`` (``redis://HOST:PORT/DB``), under the
    :class:`~coinrow.online.store.Store` protocol. Each append is one round trip (a Lua
    script: O(1) in Redis); subscribers of this process hear every game's events from one
    pattern subscription on a background thread.
    """

    def __init__(self, url: str) -> None:
        try:
            import redis
        except ImportError:
            raise MissingExtraError("a Redis store needs the redis package", "redis") from None
        self.where = f"Redis at {url} (a stream per game)"
        self.remote = True
        self._redis = redis.Redis.from_url(url, decode_responses=True, socket_timeout=10)
        self._redis.ping()  # fail at start, in one line, when Redis is not there
        self._append = self._redis.register_script(_APPEND)
        self._create = self._redis.register_script(_CREATE)
        self._announcer = Announcer()
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call, unused-ignore]
        self._pubsub.psubscribe(**{f"{_PREFIX}events:*": self._heard})
        self._thread = self._pubsub.run_in_thread(sleep_time=0.5, daemon=True)
        self._closed = threading.Event()

    def _heard(self, message: dict[str, Any]) -> None:
        game_id = str(message["channel"]).rpartition(":")[2]
        self._announcer.announce(game_id, json.loads(message["data"]))

    def _keys(self, game_id: str) -> list[str]:
        return [
            f"{_PREFIX}log:{game_id}",
            f"{_PREFIX}games",
            f"{_PREFIX}updated",
            f"{_PREFIX}live",
            f"{_PREFIX}address:",
            f"{_PREFIX}events:{game_id}",
        ]

    def create(self, event: dict[str, Any], summary: dict[str, Any], address: str) -> None:
        game_id = event["game"]
        created = self._create(
            keys=self._keys(game_id)[:5],
            args=[
                game_id,
                json.dumps(event),
                json.dumps(summary),
                event["at"],
                address_key(address),
            ],
        )
        if not created:
            raise ValueError(f"game {game_id} exists already")

    def append(self, game_id: str, event: dict[str, Any], summary: dict[str, Any]) -> bool:
        over = "1" if summary["status"] == "over" else "0"
        body = json.dumps(event)
        args = [game_id, event["seq"], body, json.dumps(summary), event["at"], over]
        return bool(self._append(keys=self._keys(game_id), args=args))

    def events(self, game_id: str, since: int = 0) -> list[dict[str, Any]]:
        # event seq K is the stream entry K+1-0: read from the first one asked for
        start = f"{max(0, since) + 1}-0"
        entries: Any = self._redis.xrange(f"{_PREFIX}log:{game_id}", min=start)
        return [json.loads(fields["e"]) for _, fields in entries or ()]

    def length(self, game_id: str) -> int:
        return int(self._redis.xlen(f"{_PREFIX}log:{game_id}"))

    def games(self, *, live: bool, limit: int) -> list[dict[str, Any]]:
        key = f"{_PREFIX}{'live' if live else 'updated'}"
        ids: Any = self._redis.zrevrange(key, 0, max(0, limit - 1))
        if not ids:
            return []
        summaries = self._redis.hmget(f"{_PREFIX}games", ids)
        return [json.loads(text) for text in summaries if text]

    def live_count(self, address: str | None = None) -> int:
        if address is None:
            return int(self._redis.zcard(f"{_PREFIX}live"))
        return int(self._redis.scard(f"{_PREFIX}address:{address_key(address)}"))

    def live_ids(self) -> list[str]:
        ids: Any = self._redis.zrange(f"{_PREFIX}live", 0, -1)
        return [str(game_id) for game_id in ids]

    def touch(self, game_id: str, seat: int, when: float) -> None:
        self._redis.hset(f"{_PREFIX}seen:{game_id}", str(seat), when)

    def touch_many(self, seats: list[tuple[str, int]], when: float) -> None:
        with self._redis.pipeline(transaction=False) as pipe:
            for game_id, seat in seats:
                pipe.hset(f"{_PREFIX}seen:{game_id}", str(seat), when)
            pipe.execute()

    def last_seen(self, game_id: str) -> dict[int, float]:
        seen = self._redis.hgetall(f"{_PREFIX}seen:{game_id}")
        return {int(seat): float(at) for seat, at in seen.items()}

    def subscribe(self, game_id: str, listener: Listener) -> Callable[[], None]:
        return self._announcer.subscribe(game_id, listener)

    def close(self) -> None:
        if self._closed.is_set():
            return
        self._closed.set()
        self._thread.stop()
        self._thread.join(timeout=2)
        self._pubsub.close()
        self._redis.close()
