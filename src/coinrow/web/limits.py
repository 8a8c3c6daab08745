"""What one request may ask for and cost: :class:`Limits` (set by ``COINROW_WEB_*``
environment variables) and the time budget of the request being answered
(:func:`request_seconds`, set by :class:`~coinrow.web.guard.RequestGuard`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, fields

from ..errors import CostLimitError, InvalidOptionError

#: Longest row whose per-coin keys ``/api/solve`` includes without ``full`` (as the CLI).
PER_COIN_LIMIT = 10_000

#: Prefix of the environment variables that set :class:`Limits` (``COINROW_WEB_SOLVE_COINS``).
ENV_PREFIX = "COINROW_WEB_"


@dataclass(frozen=True)
class Limits:
    """What one request may ask for. Each can be set by an environment variable named
    ``COINROW_WEB_`` + the field in capitals (so ``uvicorn --workers N`` workers see it).

    ``analyze_coins`` is lower than the others because analysing a long row of Decimals or
    Fractions costs O(n^2) exact operations (about 3.5 s at 2,000 coins); int rows use a
    compiled table and are fast.

    What one request may cost: ``response_bytes`` (its answer), ``body_seconds`` (for its
    body to arrive), ``request_seconds`` and ``request_memory`` (its work, in a worker
    process); ``processes`` worker processes per server process, with ``queue`` requests
    waiting at most (more get 503). ``bodies_bytes``: the request bodies one server process
    holds at once (default: four times ``body_bytes``; :class:`~coinrow.web.guard.BodyBudget`;
    a body that does not fit gets 503 unread); ``header_seconds``: the time a client has to
    send its headers, ``connections`` the most connections a server process keeps open (both
    under ``coinrow serve``, by :class:`~coinrow.web.guard.BoundedHTTP`).
    """

    solve_coins: int = 1_000_000
    table_coins: int = 40
    steps_coins: int = 40
    play_coins: int = 1_000
    analyze_coins: int = 2_000
    random_coins: int = 10_000
    coin_digits: int = 1_000
    body_bytes: int = 16 * 2**20
    response_bytes: int = 64 * 2**20
    body_seconds: int = 10
    request_seconds: int = 10
    request_memory: int = 512 * 2**20
    processes: int = 1
    queue: int = 8
    bodies_bytes: int = 0  # 0: four times body_bytes (64 MiB)
    header_seconds: int = 10
    connections: int = 1000

    def __post_init__(self) -> None:
        if self.bodies_bytes == 0:
            object.__setattr__(self, "bodies_bytes", 4 * self.body_bytes)
        if self.bodies_bytes * 3 // 4 < self.body_bytes:
            raise InvalidOptionError(
                f"{ENV_PREFIX}BODIES_BYTES ({self.bodies_bytes:,}) must be at least 4/3 of "
                f"{ENV_PREFIX}BODY_BYTES ({self.body_bytes:,}): large bodies take three "
                "quarters of it"
            )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Limits:
        """Defaults overridden by ``COINROW_WEB_*`` variables (O(1)).

        >>> Limits.from_env({"COINROW_WEB_TABLE_COINS": "20"}).table_coins
        20
        """
        environ = os.environ if environ is None else environ
        values: dict[str, int] = {}
        for field in fields(cls):
            text = environ.get(ENV_PREFIX + field.name.upper())
            if text is None:
                continue
            try:
                values[field.name] = int(text)
            except ValueError:
                raise InvalidOptionError(
                    f"{ENV_PREFIX}{field.name.upper()} must be a whole number, not {text!r}"
                ) from None
            if values[field.name] < 1:
                raise InvalidOptionError(f"{ENV_PREFIX}{field.name.upper()} must be at least 1")
        return cls(**values)


#: Work the library estimates at no more than this is answered inline, in the server
#: process; costlier work goes to a worker process (measured: a small solve is about 0.1 ms).
INLINE_SECONDS = 0.02

#: Bodies up to this size are answered inline when their work is cheap; larger ones always
#: go to a worker process (reading their JSON alone would hold the event loop).
INLINE_BODY = 64 * 2**10

#: Estimated seconds of work the current request may do (set by :class:`RequestGuard`):
#: :data:`INLINE_SECONDS` inline, ``Limits.request_seconds`` in a worker process.
REQUEST_SECONDS: ContextVar[float] = ContextVar("coinrow_request_seconds", default=10.0)
INLINE: ContextVar[bool] = ContextVar("coinrow_inline", default=False)

#: Header of an inline answer asking :class:`RequestGuard` to run the request in a worker
#: process instead (never sent to a client).
TO_WORKER = b"x-coinrow-to-worker"


def request_seconds() -> float:
    """The estimated seconds of work the current request may do: pass it as the library's
    ``max_seconds`` (O(1))."""
    return REQUEST_SECONDS.get()


def check_seconds(seconds: float, what: str) -> None:
    """Refuse work of an endpoint's own estimate (``seconds``) over :func:`request_seconds`
    with a :class:`~coinrow.errors.CostLimitError`, as the library refuses its own (O(1))."""
    limit = request_seconds()
    if seconds > limit:
        raise CostLimitError(
            f"{what} would take about {seconds:.2g} seconds, over the limit of {limit:g} seconds",
            seconds,
            limit,
        )
