"""Running someone's solver in a child process, with a time limit per call and a memory limit.

The child is forked from the caller (so a function defined in a notebook or a test works as
well as a file), loads the solver there (a file's top-level code runs only in the child),
and answers requests over a pipe: call the solver on rows, time it, count its calls. An
exception, a hang, a crash, running out of memory or a changed input comes back as an
:class:`Outcome`, never as an exception of ours; after a hang or a crash the child is
replaced. This is a guard against mistakes, **not a sandbox**: the code runs with the
caller's rights and can read, write or delete anything the caller can.

Limits: each call has a wall-clock limit (a timer signal in the child, and the parent kills a
child that does not answer a little after it); the child's address space is capped at its
size after the fork plus the memory limit (``RLIMIT_AS``, Linux), so a runaway table raises
``MemoryError`` in the child. POSIX only (``fork``).
"""

from __future__ import annotations

import contextlib
import importlib.util
import inspect
import itertools
import os
import pickle
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from ..errors import CheckTargetError

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

#: Names solver functions have on the usual sites (GeeksforGeeks, LeetCode 486/877, EDPC L,
#: the seed tutorials), tried in this order when no function is named.
SOLVER_NAMES = (
    "optimalStrategyOfGame",
    "optimal_strategy_of_game",
    "optimalStrategy",
    "optimal_strategy",
    "maxCoins",
    "max_coins",
    "maxMoney",
    "max_money",
    "coinsInALine",
    "coins_in_a_line",
    "firstPlayerTotal",
    "first_player_total",
    "PredictTheWinner",
    "predictTheWinner",
    "predict_the_winner",
    "stoneGame",
    "stone_game",
    "solve",
    "solver",
    "solution",
)

#: The answer convention a site's name implies (used when no answer is given).
ANSWER_OF_NAME = {
    "PredictTheWinner": "wins-or-ties",
    "predictTheWinner": "wins-or-ties",
    "predict_the_winner": "wins-or-ties",
    "stoneGame": "wins",
    "stone_game": "wins",
}

#: Seconds the child may take to load the solver (its file's top-level code).
LOAD_SECONDS = 10.0

#: Seconds the parent waits past a call's limit before it kills the child.
GRACE_SECONDS = 1.0

#: The child sends its outcomes at least this often (seconds) while working through rows.
FLUSH_SECONDS = 0.05

#: Largest pickled answer passed back (bytes): a bigger one is replaced by its type name.
MAX_ANSWER_BYTES = 1 << 24


@dataclass(frozen=True)
class Target:
    """Which solver to check: a file (``path``, with an optional ``name``), an importable
    ``module`` (with an optional ``name``), or a live ``function``. ``name`` may be
    ``"Solution.stoneGame"``."""

    label: str
    path: Path | None = None
    module: str | None = None
    name: str | None = None
    function: Callable[..., Any] | None = None


def parse_target(text: str) -> Target:
    """``FILE.py[:FUNCTION]``, ``module:function`` or ``module`` as a :class:`Target` (O(1)).
    A missing file is refused here, before any process starts.

    >>> parse_target("json:loads")
    Target(label='json:loads', path=None, module='json', name='loads', function=None)
    """
    head, sep, tail = text.rpartition(":")
    spec, name = (head, tail) if sep and tail and "/" not in tail else (text, None)
    if spec.endswith(".py") or "/" in spec or os.sep in spec:
        path = Path(spec)
        if not path.exists():
            raise CheckTargetError(f"{spec}: no such file")
        if path.is_dir():
            path = submission_file(path)
        return Target(label=text, path=path, name=name or None)
    if not spec.replace(".", "").replace("_", "").isalnum():
        raise CheckTargetError(f"{text!r} is neither a .py file nor a module:function")
    return Target(label=text, module=spec, name=name or None)


def submission_file(folder: Path) -> Path:
    """The Python file of a submission folder: ``solution.py``, ``main.py``, or its only
    ``.py`` file (O(files)).

    >>> submission_file(Path("/")) # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    coinrow.errors.CheckTargetError: /: no Python file in the folder
    """
    files = sorted(p for p in folder.glob("*.py") if p.is_file())
    for preferred in ("solution.py", "main.py", "solver.py"):
        if folder / preferred in files:
            return folder / preferred
    if len(files) == 1:
        return files[0]
    if not files:
        raise CheckTargetError(f"{folder}: no Python file in the folder")
    raise CheckTargetError(
        f"{folder}: {len(files)} Python files and none called solution.py or main.py"
    )


@dataclass(frozen=True)
class Loaded:
    """What the child found: the function's name, whether it was picked by its name among
    :data:`SOLVER_NAMES`, and whether it also takes ``n`` (GeeksforGeeks' ``(arr, n)``)."""

    function: str
    picked: bool
    takes_n: bool


@dataclass(frozen=True)
class Outcome:
    """One call's result. ``kind`` is ``"ok"`` (``value`` returned), ``"raised"``
    (``error`` names the exception, ``message`` its text), ``"timeout"``, ``"crash"`` (the
    process died: ``message`` says how) or ``"memory"`` (``MemoryError``). ``mutated``: the
    list of coins passed in was changed. ``seconds``: the call's CPU time in the child."""

    kind: str
    value: Any = None
    error: str = ""
    message: str = ""
    mutated: bool = False
    seconds: float = 0.0


class _CallTimeout(BaseException):
    """Raised in the child by the call's timer; a BaseException so ``except Exception`` in
    the solver does not swallow it."""


def _on_timer(signum: int, frame: FrameType | None) -> None:
    raise _CallTimeout


# ---------------------------------------------------------------------------------------
# The child


def _load(target: Target) -> tuple[Callable[[list[Any]], Any], Loaded, str | None]:
    """The solver as a one-argument callable, what was found, and its source file."""
    if target.function is not None:
        func = target.function
        name = getattr(func, "__qualname__", getattr(func, "__name__", repr(func)))
        return _adapt(func, name, picked=False)
    if target.path is not None:
        module = _load_file(target.path)
    else:
        assert target.module is not None
        try:
            module = importlib.import_module(target.module)
        except ImportError as error:
            raise CheckTargetError(f"cannot import {target.module}: {error}") from None
        except Exception as error:  # the module's own code failed
            raise CheckTargetError(
                f"importing {target.module} raised {type(error).__name__}: {error}"
            ) from None
    where = str(target.path) if target.path is not None else target.module
    if target.name:
        named = _lookup(module, target.name)
        if named is None:
            raise CheckTargetError(f"{where}: no function {target.name!r}")
        return _adapt(named, target.name, picked=False)
    for name in SOLVER_NAMES:
        found = _lookup(module, name)
        if found is None:
            found = _lookup(module, f"Solution.{name}")
            name = f"Solution.{name}"
        if found is not None:
            return _adapt(found, name, picked=True)
    shown = ", ".join(SOLVER_NAMES[:6])
    raise CheckTargetError(
        f"{where}: no solver function found (looked for {shown}, ... and a Solution class); "
        "name it as FILE.py:FUNCTION"
    )


def _load_file(path: Path) -> Any:
    try:
        source = path.read_bytes()
    except OSError as error:
        raise CheckTargetError(f"{path}: {error.strerror or error}") from None
    try:
        compile(source, str(path), "exec")
    except SyntaxError as error:
        raise CheckTargetError(
            f"{path}: syntax error at line {error.lineno}: {error.msg}"
        ) from None
    except ValueError as error:  # null bytes
        raise CheckTargetError(f"{path}: not Python source ({error})") from None
    sys.path.insert(0, str(path.parent.resolve()))
    spec = importlib.util.spec_from_file_location("coinrow_submission", path)
    if spec is None or spec.loader is None:
        raise CheckTargetError(f"{path}: cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules["coinrow_submission"] = module
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as error:
        raise CheckTargetError(
            f"{path}: running its top-level code raised {type(error).__name__}: {error}"
        ) from None
    return module


def _lookup(module: Any, name: str) -> Callable[..., Any] | None:
    owner: Any = module
    for part in name.split("."):
        owner = getattr(owner, part, None)
        if owner is None:
            return None
    return owner if callable(owner) else None


def _adapt(
    func: Callable[..., Any], name: str, picked: bool
) -> tuple[Callable[[list[Any]], Any], Loaded, str | None]:
    """A method of a class is called on a fresh instance per call (LeetCode's way)."""
    owner_name, _, method = name.rpartition(".")
    call: Callable[..., Any] = func
    qual = getattr(func, "__qualname__", "")
    if owner_name and "." in qual and "<locals>" not in qual and inspect.isfunction(func):
        cls = getattr(sys.modules.get(func.__module__), qual.split(".")[0], None)
        if inspect.isclass(cls):

            def call(*args: Any) -> Any:
                return getattr(cls(), method)(*args)

            func = getattr(cls, method)
            params = list(inspect.signature(func).parameters.values())[1:]
            takes_n = _check_signature(params, name)
            return _with_n(call, takes_n), Loaded(name, picked, takes_n), _source(func)
    if inspect.isclass(func):
        raise CheckTargetError(f"{name} is a class; name one of its methods (Class.method)")
    try:
        params = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        params = []
    takes_n = _check_signature(params, name) if params else False
    return _with_n(call, takes_n), Loaded(name, picked, takes_n), _source(func)


def _with_n(call: Callable[..., Any], takes_n: bool) -> Callable[[list[Any]], Any]:
    if takes_n:
        return lambda coins: call(coins, len(coins))
    return lambda coins: call(coins)


def _source(func: Callable[..., Any]) -> str | None:
    code = getattr(inspect.unwrap(func), "__code__", None)
    return code.co_filename if code is not None else None


def _check_signature(params: list[inspect.Parameter], name: str) -> bool:
    """True when the solver takes ``(coins, n)``; raises unless it takes ``(coins)``."""
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    required = [p for p in params if p.kind in positional and p.default is p.empty]
    required_kw = [
        p for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is p.empty
    ]
    varargs = any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params)
    optional = [p for p in params if p.kind in positional and p.default is not p.empty]
    if not required_kw:
        if len(required) == 1 or (not required and (varargs or optional)):
            return False
        if len(required) == 2 and required[1].name.lower() in ("n", "size", "length", "len_"):
            return True
    shown = ", ".join(p.name for p in params)
    raise CheckTargetError(
        f"{name}({shown}) does not take one argument, the list of coins (or coins and n)"
    )


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
    """The solver's prints go nowhere (file descriptors 1 and 2 point at /dev/null)."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)


def _child(conn: Connection, target: Target, memory: int) -> None:
    import gc

    gc.freeze()  # the objects inherited from the parent: never traversed (nor copied) by gc
    _quiet()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    signal.signal(signal.SIGALRM, _on_timer)
    try:
        solver, loaded, source = _load(target)
    except CheckTargetError as error:
        conn.send(("error", str(error)))
        return
    _limit_memory(memory)
    conn.send(("ready", loaded))
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        if request[0] == "rows":
            _serve_rows(conn, solver, request[1], request[2])
        elif request[0] == "time":
            conn.send(_time(solver, request[1], request[2], request[3]))
        elif request[0] == "calls":
            conn.send(_count_calls(solver, request[1], source, request[2]))
        else:
            return


def _call(solver: Callable[[list[Any]], Any], row: Sequence[Any], limit: float) -> Outcome:
    given = list(row)
    start = time.process_time()
    try:
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            value = solver(given)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _CallTimeout:
        return Outcome("timeout", seconds=time.process_time() - start)
    except MemoryError:
        return Outcome("memory", error="MemoryError")
    except (Exception, SystemExit) as error:
        message = _text(error)
        return Outcome("raised", error=type(error).__name__, message=message)
    seconds = time.process_time() - start
    mutated = len(given) != len(row) or any(
        a is not b and a != b for a, b in zip(given, row, strict=True)
    )
    return Outcome("ok", _portable(value), mutated=mutated, seconds=seconds)


def _text(error: BaseException) -> str:
    try:
        return str(error)[:300]
    except Exception:  # a broken __str__
        return "(no message)"


def _portable(value: Any) -> Any:
    """The answer as it can cross the pipe: itself, a NumPy scalar's Python value, or a
    stand-in naming its type."""
    item = getattr(value, "item", None)
    if callable(item) and type(value).__module__ == "numpy":
        with contextlib.suppress(Exception):
            value = item()
    try:
        if len(pickle.dumps(value)) <= MAX_ANSWER_BYTES:
            return value
    except Exception:  # an object that cannot be pickled
        pass
    return Unsendable(type(value).__name__)


@dataclass(frozen=True)
class Unsendable:
    """An answer that could not be passed back from the child (its type's name)."""

    type_name: str


def _serve_rows(
    conn: Connection, solver: Callable[[list[Any]], Any], rows: list[Any], limit: float
) -> None:
    batch: list[Outcome] = []
    flushed = time.monotonic()
    for row in rows:
        outcome = _call(solver, row, limit)
        batch.append(outcome)
        if outcome.kind != "ok" or time.monotonic() - flushed > FLUSH_SECONDS:
            conn.send(batch)
            batch, flushed = [], time.monotonic()
            if outcome.kind != "ok":
                return
    if batch:
        conn.send(batch)


def _time(
    solver: Callable[[list[Any]], Any], row: list[Any], limit: float, repeats: int
) -> Outcome:
    """The least CPU time per call over ``repeats`` batches of calls, each batch at least
    a few milliseconds long (calls repeated), garbage collection off while timing."""
    import gc

    first = _call(solver, row, limit)
    if first.kind != "ok":
        return first
    per_batch = max(1, min(1000, int(0.005 / max(first.seconds, 1e-7))))
    best = first.seconds
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            for _ in range(per_batch):
                outcome = _call(solver, row, limit)
                if outcome.kind != "ok":
                    return outcome
            best = min(best, (time.process_time() - start) / per_batch)
        finally:
            gc.enable()
    return Outcome("ok", None, seconds=best)


def _count_calls(
    solver: Callable[[list[Any]], Any], row: list[Any], source: str | None, limit: float
) -> Outcome | tuple[int, int]:
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
    if outcome.kind != "ok":
        return outcome
    return calls, deepest


# ---------------------------------------------------------------------------------------
# The parent


class Runner:
    """A child process holding the solver; replaced after a hang or a crash.

    ``run(rows)`` calls the solver on rows in order and returns the outcomes up to and
    including the first that is not ``"ok"``. Use as a context manager (the child is
    stopped on exit). ``wall`` is the wall time spent waiting on the child so far.
    """

    def __init__(self, target: Target, *, time_limit: float, memory_limit: int) -> None:
        self.target = target
        self.time_limit = time_limit
        self.memory_limit = memory_limit
        self.loaded: Loaded | None = None
        self.restarts = 0
        self._process: Any = None
        self._conn: Connection | None = None

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
            target=_child, args=(child, self.target, self.memory_limit), daemon=True
        )
        process.start()
        child.close()
        self._process, self._conn = process, parent
        if not parent.poll(LOAD_SECONDS):
            self.close()
            raise CheckTargetError(
                f"{self.target.label}: loading it did not finish within {LOAD_SECONDS:.0f} s"
            )
        try:
            message = parent.recv()
        except (EOFError, OSError):
            code = self._stop()
            raise CheckTargetError(
                f"{self.target.label}: the process died while loading it ({code})"
            ) from None
        if message[0] == "error":
            self.close()
            raise CheckTargetError(message[1])
        loaded: Loaded = message[1]
        self.loaded = loaded
        return loaded

    def close(self) -> None:
        """Stop the child (O(1))."""
        if self._conn is not None:
            with contextlib.suppress(OSError):
                self._conn.send(("stop",))
        self._stop()

    def _stop(self) -> str:
        process, self._process = self._process, None
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if process is None:
            return "stopped"
        process.join(0.2)
        if process.is_alive():
            process.kill()
            process.join()
        code = process.exitcode
        if code is not None and code < 0:
            with contextlib.suppress(ValueError):
                return f"killed by {signal.Signals(-code).name}"
        return f"exit status {code}"

    def _restart(self) -> None:
        self._stop()
        self.restarts += 1
        self.start()

    def _receive(self, seconds: float) -> Any:
        """The child's next message, or an Outcome for a hang or a crash (the child is then
        replaced)."""
        assert self._conn is not None
        if not self._conn.poll(seconds):
            self._restart()
            return Outcome("timeout")
        try:
            return self._conn.recv()
        except (EOFError, OSError):
            how = self._stop()
            self.restarts += 1
            self.start()
            return Outcome("crash", message=f"the process died ({how})")

    def run(self, rows: Sequence[Sequence[Any]]) -> list[Outcome]:
        """Outcomes of the solver on ``rows``, stopping after the first one not ``"ok"``
        (O(calls); each call limited to ``time_limit`` seconds)."""
        outcomes: list[Outcome] = []
        for chunk in _chunks(rows, 512):
            assert self._conn is not None
            self._conn.send(("rows", [list(row) for row in chunk], self.time_limit))
            received = 0
            while received < len(chunk):
                got = self._receive(self.time_limit + GRACE_SECONDS + FLUSH_SECONDS)
                if isinstance(got, Outcome):  # hang or crash: which row? one at a time
                    if len(chunk) - received == 1:
                        outcomes.append(got)
                        return outcomes
                    for row in chunk[received:]:
                        single = self.run([row])
                        outcomes.extend(single)
                        if single[-1].kind != "ok":
                            return outcomes
                    return outcomes
                outcomes.extend(got)
                received += len(got)
                if got and got[-1].kind != "ok":
                    return outcomes
        return outcomes

    def time_call(self, row: Sequence[Any], repeats: int = 3) -> Outcome:
        """The solver's least CPU seconds per call on ``row`` (in ``Outcome.seconds``)."""
        assert self._conn is not None
        self._conn.send(("time", list(row), self.time_limit, repeats))
        budget = (self.time_limit + GRACE_SECONDS) * (repeats + 2) + 5
        got: Outcome = self._receive(budget)
        return got

    def count_calls(self, row: Sequence[Any]) -> Outcome | tuple[int, int]:
        """Calls of the solver's own functions on ``row`` and the deepest recursion."""
        assert self._conn is not None
        self._conn.send(("calls", list(row), self.time_limit * 4))
        got: Outcome | tuple[int, int] = self._receive(self.time_limit * 4 + GRACE_SECONDS)
        return got


def _chunks(rows: Sequence[Sequence[Any]], size: int) -> Iterator[Sequence[Sequence[Any]]]:
    iterator = iter(rows)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk
