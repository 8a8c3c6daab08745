"""Running someone's solver in a child process, with CPU-time and memory limits.

The child is forked from the caller (so a function defined in a notebook or a test works as
well as a file). Before it loads anything it starts its own session (so it and every
process it starts form one process group, all ended together), asks the kernel to kill it
when its parent dies (``PR_SET_PDEATHSIG``, and it checks its parent is still the one that
forked it), caps its address space (``RLIMIT_AS``) and arms a CPU-time timer: limits hold
from the first byte of the submission's file. It then answers requests over a pipe: call
the solver on rows, time it, count its calls.

What comes back is plain data (:mod:`coinrow.checking.plain`): JSON bytes, decoded and
checked field by field, never unpickled. An exception, a hang, a crash, running out of
memory or a changed input comes back as an :class:`Outcome`, never as an exception of ours;
after a hang or a crash the child (and its whole process group) is killed and replaced.

Time limits are on **CPU time**: a timer on the child's CPU time (``ITIMER_PROF``) ends a
call, and the parent, reading the child's CPU time from ``/proc``, kills a child that goes
more than a second past the limit (its timer blocked or swallowed). A child that uses no
CPU (it sleeps or waits) is killed after a generous wall-clock backstop.

This is a guard against mistakes, **not a sandbox**: the code runs with the caller's rights
and can read, write or delete anything the caller can, open the network, or start a process
in a new session of its own (which then outlives the check). POSIX only (``fork``).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import TYPE_CHECKING, Any

from ..errors import CheckTargetError
from .loading import Loaded, Target, load
from .plain import BadMessage, decode, encode, number_field, text_field
from .programs import CommandProgram, ProgramTimeout, PythonProgram, cpu_of_children

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

#: CPU seconds the child may take to load the solver (its file's top-level code).
LOAD_SECONDS = 10.0

#: CPU seconds the parent allows past a call's limit before it kills the child.
GRACE_SECONDS = 1.0

#: A child that has used little CPU is killed after this many times its CPU limit in wall
#: time, plus :data:`WALL_EXTRA` seconds (it sleeps or waits: it would never end).
WALL_FACTOR = 4.0
WALL_EXTRA = 5.0

#: The child sends its outcomes at least this often (seconds) while working through rows.
FLUSH_SECONDS = 0.05

#: Largest message from the child (bytes): anything longer ends the child as a crash.
MAX_MESSAGE = 1 << 25

#: Outcome kinds.
KINDS = ("ok", "raised", "timeout", "crash", "memory")


@dataclass(frozen=True)
class Outcome:
    """One call's result. ``kind`` is ``"ok"`` (``value`` returned, as a plain value),
    ``"raised"`` (``error`` names the exception, ``message`` its text), ``"timeout"``,
    ``"crash"`` (the process died or broke the protocol: ``message`` says how) or
    ``"memory"`` (``MemoryError``). ``mutated``: the list of coins passed in was changed.
    ``seconds``: the call's CPU time in the child."""

    kind: str
    value: Any = None
    error: str = ""
    message: str = ""
    mutated: bool = False
    seconds: float = 0.0


class _CallTimeout(BaseException):
    """Raised in the child by the CPU timer; a BaseException so ``except Exception`` in
    the solver does not swallow it."""


def _on_timer(signum: int, frame: FrameType | None) -> None:
    raise _CallTimeout


# ---------------------------------------------------------------------------------------
# The child


def _die_with_parent(parent: int) -> None:
    """Ask the kernel for SIGKILL when the parent dies (Linux); exit now if it already did."""
    with contextlib.suppress(OSError, AttributeError, TypeError):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(1)


def _limit_memory(memory: int) -> None:
    try:
        import resource

        with open("/proc/self/statm") as statm:
            current = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = current + memory
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (OSError, ValueError, ImportError):  # not Linux: no memory limit
        pass


def _quiet() -> None:
    """The solver's prints go nowhere and it reads nothing (fds 0, 1, 2 are /dev/null)."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def _send(conn: Connection, message: dict[str, Any]) -> None:
    message["cpu"] = time.process_time() + cpu_of_children()  # with a program's processes
    conn.send_bytes(json.dumps(message, separators=(",", ":")).encode())


@contextlib.contextmanager
def _cpu_timer(seconds: float) -> Iterator[None]:
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def _child(conn: Connection, target: Target, memory: int, parent: int) -> None:
    import gc

    with contextlib.suppress(OSError):
        os.setsid()  # its own session and process group: ended as a whole
    _die_with_parent(parent)
    gc.freeze()  # the objects inherited from the parent: never traversed (nor copied) by gc
    _quiet()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    signal.signal(signal.SIGPROF, _on_timer)
    _limit_memory(memory)  # before the file is read: limits hold from its first byte
    try:
        with _cpu_timer(LOAD_SECONDS):
            solver, loaded, source = load(target)
    except CheckTargetError as error:
        _send(conn, {"error": str(error)})
        return
    except _CallTimeout:
        _send(conn, {"error": f"{target.label}: loading it took over {LOAD_SECONDS:g} s of CPU"})
        return
    except MemoryError:
        _send(conn, {"error": f"{target.label}: loading it ran out of memory"})
        return
    _send(conn, {"ready": loaded.to_json()})
    while True:
        try:
            request = conn.recv()  # from the parent: trusted
        except (EOFError, OSError):
            return
        if request[0] == "rows":
            _serve_rows(conn, solver, request[1], request[2], request[3])
        elif request[0] == "time":
            _send(conn, {"outcome": _time(solver, request[1], request[2], request[3])})
        elif request[0] == "calls":
            got = _count_calls(solver, request[1], source, request[2])
            _send(conn, {"calls": got} if isinstance(got, list) else {"outcome": got})
        else:
            return


def _outcome(kind: str, **fields: Any) -> dict[str, Any]:
    return {"kind": kind, **fields}


def _call(solver: Callable[[list[Any]], Any], row: Sequence[Any], limit: float) -> dict[str, Any]:
    """One call, as plain data. The CPU timer covers the call, the conversion of its answer
    and the check of its input: every cost the solver can cause. ``seconds`` is the main
    thread's CPU time (the process clock turns coarse while a CPU timer is armed)."""
    given = list(row)
    if isinstance(solver, (PythonProgram, CommandProgram)):
        solver.limit = limit
    start = time.thread_time() + cpu_of_children()
    try:
        with _cpu_timer(limit):
            try:
                value = solver(given)
            except (Exception, SystemExit) as error:
                if isinstance(error, MemoryError):
                    return _outcome("memory", error="MemoryError")
                name = type.__dict__["__name__"].__get__(type(error))
                return _outcome("raised", error=str(name)[:80], message=_text(error))
            seconds = time.thread_time() + cpu_of_children() - start
            answer = encode(value)
            mutated = _changed(given, row)
    except (_CallTimeout, ProgramTimeout):
        return _outcome("timeout", seconds=time.thread_time() + cpu_of_children() - start)
    except MemoryError:
        return _outcome("memory", error="MemoryError")
    return _outcome("ok", value=answer, mutated=mutated, seconds=seconds)


def _changed(given: list[Any], row: Sequence[Any]) -> bool:
    """Whether the solver changed the list it was given; compares only values of the row's
    own (coinrow's) types, never through the solver's objects."""
    if len(given) != len(row):
        return True
    return any(type(a) is not type(b) or a != b for a, b in zip(given, row, strict=True))


def _text(error: BaseException) -> str:
    try:
        text = str(error)
    except Exception:  # a broken __str__
        return "(no message)"
    return str.__str__(text)[:300] if isinstance(text, str) else "(no message)"


def _serve_rows(
    conn: Connection,
    solver: Callable[[list[Any]], Any],
    rows: list[Any],
    limit: float,
    cpu_budget: float | None,
) -> None:
    """Outcomes for rows in order, flushed every few milliseconds; stops after the first not
    ``ok`` or when ``cpu_budget`` CPU seconds are spent (the last message says ``end``)."""
    batch: list[dict[str, Any]] = []
    flushed = time.monotonic()
    start = time.process_time()
    for row in rows:
        if cpu_budget is not None and time.process_time() - start > cpu_budget:
            _send(conn, {"outcomes": batch, "end": True})
            return
        outcome = _call(solver, row, limit)
        batch.append(outcome)
        if outcome["kind"] != "ok":
            _send(conn, {"outcomes": batch, "end": True})
            return
        if time.monotonic() - flushed > FLUSH_SECONDS:
            _send(conn, {"outcomes": batch})
            batch, flushed = [], time.monotonic()
    if batch:  # (all rows answered: the parent knows it is the end)
        _send(conn, {"outcomes": batch, "end": True})


def _time(
    solver: Callable[[list[Any]], Any], row: list[Any], limit: float, repeats: int
) -> dict[str, Any]:
    """The least CPU time per call over ``repeats`` batches of calls, each batch at least
    a few milliseconds long (calls repeated), garbage collection off while timing."""
    import gc

    first = _call(solver, row, limit)
    if first["kind"] != "ok":
        return first
    per_batch = max(1, min(1000, int(0.005 / max(first["seconds"], 1e-7))))
    best = first["seconds"]
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        try:
            start = time.thread_time() + cpu_of_children()
            for _ in range(per_batch):
                outcome = _call(solver, row, limit)
                if outcome["kind"] != "ok":
                    return outcome
            best = min(best, (time.thread_time() + cpu_of_children() - start) / per_batch)
        finally:
            gc.enable()
    return _outcome("ok", value=encode(None), seconds=best)


def _count_calls(
    solver: Callable[[list[Any]], Any], row: list[Any], source: str | None, limit: float
) -> dict[str, Any] | list[int]:
    """Python calls of functions from the solver's own file, and the most activations of one
    of them at once (2 or more: it recurses)."""
    calls = 0
    active: dict[Any, int] = {}
    deepest = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal calls, deepest
        code = frame.f_code
        if code.co_filename != source:
            return
        if event == "call":
            calls += 1
            active[code] = depth = active.get(code, 0) + 1
            deepest = max(deepest, depth)
        elif event == "return":
            active[code] = active.get(code, 1) - 1

    sys.setprofile(profile)
    try:
        outcome = _call(solver, row, limit)
    finally:
        sys.setprofile(None)
    if outcome["kind"] != "ok":
        return outcome
    return [calls, deepest]


# ---------------------------------------------------------------------------------------
# The parent


def outcome_of(data: Any) -> Outcome:
    """An :class:`Outcome` from the child's plain data, every field checked; raises
    :class:`~coinrow.checking.plain.BadMessage` (O(size))."""
    if not isinstance(data, dict) or data.get("kind") not in KINDS:
        raise BadMessage("not an outcome")
    unknown = set(data) - {"kind", "value", "error", "message", "mutated", "seconds"}
    if unknown:
        raise BadMessage("unknown fields")
    mutated = data.get("mutated", False)
    if not isinstance(mutated, bool):
        raise BadMessage("bad mutated flag")
    value = decode(data["value"]) if data["kind"] == "ok" else None
    return Outcome(
        data["kind"],
        value,
        text_field(data.get("error", ""), 80),
        text_field(data.get("message", "")),
        mutated,
        number_field(data.get("seconds", 0.0)),
    )


def _process_state(pid: int) -> tuple[float | None, bool]:
    """CPU seconds (user and system) a process has used, from /proc (None elsewhere), and
    whether it has ended (a zombie, not reaped yet)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rpartition(b")")[2].split()
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return cpu, fields[0] in (b"Z", b"X")
    except (OSError, ValueError, IndexError):
        return None, False


class Runner:
    """A child process holding the solver; replaced after a hang or a crash.

    ``run(rows)`` calls the solver on rows in order and returns the outcomes up to and
    including the first that is not ``"ok"`` (fewer when its CPU budget ended it). Use as a
    context manager (the child and its process group are ended on exit). ``cpu`` is the CPU
    time the children have used so far.
    """

    def __init__(self, target: Target, *, time_limit: float, memory_limit: int) -> None:
        self.target = target
        self.time_limit = time_limit
        self.memory_limit = memory_limit
        self.loaded: Loaded | None = None
        self.restarts = 0
        self._process: Any = None
        self._conn: Connection | None = None
        self._cpu_done = 0.0  # CPU of children already ended
        self._cpu_now = 0.0  # CPU of the current child, as last reported

    @property
    def cpu(self) -> float:
        """CPU seconds used by the solver's processes so far (O(1))."""
        return self._cpu_done + self._cpu_now

    def __enter__(self) -> Runner:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> Loaded:
        """Fork the child and load the solver; raises :class:`CheckTargetError` when it
        cannot be loaded."""
        if not hasattr(os, "fork"):
            raise CheckTargetError("checking a solver needs fork() (Linux or macOS)")
        import multiprocessing  # here: it costs start-up time of every coinrow import

        context = multiprocessing.get_context("fork")
        parent, child = context.Pipe()
        process = context.Process(
            target=_child, args=(child, self.target, self.memory_limit, os.getpid())
        )
        process.start()
        child.close()
        self._process, self._conn = process, parent
        loaded = None
        try:
            loaded = self._loaded()
        finally:
            if loaded is None:  # it could not be loaded, or Ctrl-C: end it
                self._stop()
        return loaded

    def _loaded(self) -> Loaded:
        message = self._receive(LOAD_SECONDS)
        if isinstance(message, Outcome):
            self._stop()
            if message.kind == "timeout":
                raise CheckTargetError(
                    f"{self.target.label}: loading it did not finish ({message.message})"
                )
            raise CheckTargetError(f"{self.target.label}: {message.message} while loading it")
        if "error" in message:
            self.close()
            raise CheckTargetError(text_field(message["error"], 1000))
        self.loaded = _loaded_of(message.get("ready"))
        return self.loaded

    def close(self) -> None:
        """End the child and its process group (O(1))."""
        self._stop()

    def _stop(self, dying: bool = False) -> str:
        """Kill the child's whole process group, reap the child, say how it ended;
        ``dying``: its pipe closed, so it is ending: wait a moment to see how."""
        process, self._process = self._process, None
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if process is None:
            return "stopped"
        used, _ = _process_state(process.pid)
        if used is not None:
            self._cpu_now = max(self._cpu_now, used)
        self._cpu_done += self._cpu_now
        self._cpu_now = 0.0
        ended = False
        flags = os.WEXITED | os.WNOHANG | os.WNOWAIT
        for _ in range(200 if dying else 1):
            with contextlib.suppress(OSError):  # has it ended? (looked at, not reaped)
                ended = os.waitid(os.P_PID, process.pid, flags) is not None
            if ended:
                break
            time.sleep(0.01)
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)  # the child is not reaped yet: its id holds
        with contextlib.suppress(OSError):
            process.kill()  # itself, should it have no group of its own
        process.join()
        code = process.exitcode
        if not ended:
            return "stopped"
        if code is not None and code < 0:
            with contextlib.suppress(ValueError):
                return f"killed by {signal.Signals(-code).name}"
        return f"exit status {code}"

    def _restart(self) -> None:
        self._stop()
        self.restarts += 1
        self.start()

    def _receive(self, cpu_limit: float) -> Any:
        """The child's next message (a checked dict), or an :class:`Outcome` for a hang,
        a crash or a message outside the protocol (the child is then ended)."""
        assert self._conn is not None and self._process is not None
        pid = self._process.pid
        start_cpu, _ = _process_state(pid)
        start = time.monotonic()
        while not self._conn.poll(0.1):
            used, ended = _process_state(pid)
            if ended and not self._conn.poll(0):  # died; a process it started holds the pipe
                return Outcome("crash", message=f"the process died ({self._stop(True)})")
            wall = time.monotonic() - start
            if used is not None and start_cpu is not None:
                if used - start_cpu > cpu_limit + GRACE_SECONDS:
                    return self._ended("timeout", f"over {cpu_limit:g} s of CPU")
            elif wall > cpu_limit + GRACE_SECONDS:  # no /proc: wall clock only
                return self._ended("timeout", f"over {cpu_limit:g} s")
            if wall > WALL_FACTOR * cpu_limit + WALL_EXTRA:
                return self._ended("timeout", f"no answer after {wall:.0f} s (it waits or sleeps)")
        try:
            data = self._conn.recv_bytes(MAX_MESSAGE)
        except (EOFError, OSError):
            return Outcome("crash", message=f"the process died ({self._stop(True)})")
        try:
            message = json.loads(data)
            if not isinstance(message, dict):
                raise BadMessage("not an object")
            self._cpu_now = number_field(message.get("cpu", 0.0))
        except (ValueError, RecursionError) as error:
            return self._ended("crash", f"the process sent something else than answers ({error})")
        return message

    def _ended(self, kind: str, message: str) -> Outcome:
        self._stop()
        return Outcome(kind, message=message)

    def _replace(self) -> None:
        if self._process is None:
            self.restarts += 1
            self.start()

    def run(
        self,
        rows: Sequence[Sequence[Any]],
        *,
        limit: float | None = None,
        cpu_budget: float | None = None,
    ) -> list[Outcome]:
        """Outcomes of the solver on ``rows``, stopping after the first one not ``"ok"``,
        or early (fewer outcomes, all ``ok``) once ``cpu_budget`` CPU seconds are spent
        (O(calls); each call limited to ``limit`` or the time limit, in CPU seconds)."""
        limit = self.time_limit if limit is None else limit
        outcomes: list[Outcome] = []
        spent = self.cpu
        for chunk in _chunks(rows, 512):
            budget = None if cpu_budget is None else cpu_budget - (self.cpu - spent)
            if budget is not None and budget <= 0:
                return outcomes
            got = self._run_chunk(chunk, limit, budget)
            outcomes.extend(got)
            if len(got) < len(chunk) or (got and got[-1].kind != "ok"):
                return outcomes
        return outcomes

    def _run_chunk(
        self, chunk: Sequence[Sequence[Any]], limit: float, budget: float | None
    ) -> list[Outcome]:
        self._replace()
        assert self._conn is not None
        self._conn.send(("rows", [list(row) for row in chunk], limit, budget))
        outcomes: list[Outcome] = []
        while True:
            got = self._receive(limit + FLUSH_SECONDS)
            if isinstance(got, Outcome):  # hang, crash or garbage: which row? one at a time
                if len(chunk) - len(outcomes) == 1:
                    return [*outcomes, got]
                for row in chunk[len(outcomes) :]:
                    single = self._run_chunk([row], limit, None)
                    outcomes.extend(single)
                    if single[-1].kind != "ok":
                        break
                return outcomes
            try:
                batch = got.get("outcomes")
                if not isinstance(batch, list) or len(outcomes) + len(batch) > len(chunk):
                    raise BadMessage("not a list of outcomes")
                outcomes.extend(outcome_of(item) for item in batch)
            except BadMessage as error:
                ended = self._ended("crash", f"the process sent something else ({error})")
                return [*outcomes, ended]
            if got.get("end") or len(outcomes) == len(chunk):
                return outcomes

    def time_call(self, row: Sequence[Any], repeats: int = 3) -> Outcome:
        """The solver's least CPU seconds per call on ``row`` (in ``Outcome.seconds``)."""
        got: Outcome = self._ask(("time", list(row), self.time_limit, repeats), repeats + 2.0)
        return got

    def count_calls(self, row: Sequence[Any]) -> Outcome | tuple[int, int]:
        """Calls of the solver's own functions on ``row`` and the deepest recursion."""
        got: Outcome | tuple[int, int] = self._ask(
            ("calls", list(row), self.time_limit * 4), 1.0, calls=True
        )
        return got

    def _ask(self, request: tuple[Any, ...], factor: float, calls: bool = False) -> Any:
        self._replace()
        assert self._conn is not None
        self._conn.send(request)
        got = self._receive(request[2] * factor + GRACE_SECONDS)
        if isinstance(got, Outcome):
            return got
        try:
            if calls and "calls" in got:
                pair = got["calls"]
                if (
                    isinstance(pair, list)
                    and len(pair) == 2
                    and all(type(x) is int and x >= 0 for x in pair)
                ):
                    return pair[0], pair[1]
                raise BadMessage("bad call count")
            return outcome_of(got.get("outcome"))
        except BadMessage as error:
            return self._ended("crash", f"the process sent something else ({error})")


def _loaded_of(data: Any) -> Loaded:
    if not isinstance(data, dict):
        raise CheckTargetError("the solver's process did not say what it loaded")
    try:
        names = [text_field(x, 200) for x in data.get("others", [])][:20]
        provided = [text_field(x, 40) for x in data.get("provided", [])][:100]
        call = data.get("call")
        if call not in ("coins", "coins, n", "n, coins", "stdin") or not isinstance(
            data.get("picked"), bool
        ):
            raise BadMessage("bad call")
        return Loaded(
            text_field(data.get("function"), 200),
            data["picked"],
            call,
            tuple(names),
            tuple(provided),
        )
    except (BadMessage, TypeError) as error:
        raise CheckTargetError(f"the solver's process sent a bad description ({error})") from None


def _chunks(rows: Sequence[Sequence[Any]], size: int) -> Iterator[Sequence[Sequence[Any]]]:
    iterator = iter(rows)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk
