"""Which solver to check and how to call it: targets, the names searched, the names
LeetCode's judge provides, and the signatures understood.

Everything here that runs the submission's code (:func:`load`) runs in the child process
(:mod:`coinrow.checking.isolation`); the parent only parses targets.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import CheckTargetError
from .profiles import PROFILES
from .programs import CommandProgram, PythonProgram

#: Names solver functions have on the usual sites (GeeksforGeeks, LeetCode 486/877, EDPC L,
#: CSES 1097, the tutorials), tried in this order when no function is named.
SOLVER_NAMES = (
    "optimalStrategyOfGame",
    "optimal_strategy_of_game",
    "maximumAmount",
    "maximum_amount",
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
    "removalGame",
    "removal_game",
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

#: Parameter names that mean "the number of coins" (``(coins, n)`` or ``(n, coins)``).
LENGTH_NAMES = ("n", "size", "length", "len_", "num", "count", "k", "m")


def _provided_names() -> dict[str, Any]:
    """The names LeetCode's Python judge binds before a solution runs (the modules and the
    ``typing`` names, ``lru_cache``, ``cache`` and a few more the sites' code uses)."""
    import bisect
    import collections
    import functools
    import heapq
    import itertools
    import math
    import typing

    names: dict[str, Any] = {
        name: getattr(typing, name) for name in typing.__all__ if hasattr(typing, name)
    }
    for module in (collections, functools, itertools, heapq, bisect, math, typing):
        names[module.__name__] = module
    names.update(
        lru_cache=functools.lru_cache,
        cache=functools.cache,
        reduce=functools.reduce,
        deque=collections.deque,
        defaultdict=collections.defaultdict,
        Counter=collections.Counter,
        accumulate=itertools.accumulate,
        inf=math.inf,
    )
    return names


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
    program: str = ""
    command: tuple[str, ...] = ()
    answer: str = "total"


def parse_target(text: str) -> Target:
    """``FILE.py[:FUNCTION]``, ``module:function`` or ``module`` as a :class:`Target` (O(1)).
    A missing file is refused here, before any process starts; an existing file whose
    name holds a colon (``lab1:smith.py``) is that file.

    >>> target = parse_target("json:loads")
    >>> target.module, target.name
    ('json', 'loads')
    """
    if os.path.exists(text):
        path = Path(text)
        return Target(label=text, path=submission_file(path) if path.is_dir() else path)
    head, sep, tail = text.rpartition(":")
    spec, name = (head, tail) if sep and tail and "/" not in tail else (text, None)
    if spec.endswith((".py", ".c", ".cpp", ".cc", ".cxx")) or "/" in spec or os.sep in spec:
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
    """The source file of a submission folder: ``solution.py``, ``main.py``, ``solver.py``,
    or its only ``.py`` file (else its only C or C++ file) (O(files)).

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
        compiled = sorted(
            p for p in folder.iterdir() if p.is_file() and p.suffix in (".c", ".cpp", ".cc")
        )
        if len(compiled) == 1:
            return compiled[0]
        raise CheckTargetError(f"{folder}: no Python file in the folder")
    raise CheckTargetError(
        f"{folder}: {len(files)} Python files and none called solution.py or main.py"
    )


@dataclass(frozen=True)
class Loaded:
    """What the child found: the function's name; whether it was picked by its name among
    :data:`SOLVER_NAMES`; how it is called (``"coins"``, ``"coins, n"`` or ``"n, coins"``);
    the other functions that qualified (``others``); the names the file used that coinrow
    provided as LeetCode's judge does (``provided``)."""

    function: str
    picked: bool
    call: str = "coins"
    others: tuple[str, ...] = ()
    provided: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """Plain form for the pipe (O(1))."""
        return {
            "function": self.function,
            "picked": self.picked,
            "call": self.call,
            "others": list(self.others),
            "provided": list(self.provided),
        }


def load(target: Target) -> tuple[Callable[[list[Any]], Any], Loaded, str | None]:
    """In the child: the solver as a one-argument callable, what was found, and its source
    file (O(the file's top-level code))."""
    if target.program:
        text = PROFILES["cses-1097"].input_text  # every program profile reads n, then the row
        program: Callable[[list[Any]], Any]
        if target.program == "python":
            assert target.path is not None
            program = PythonProgram(target.path, text, target.answer)
            source: str | None = str(target.path)
        else:
            program = CommandProgram(list(target.command), text, target.answer)
            source = None
        return program, Loaded(target.label, False, "stdin"), source
    if target.function is not None:
        func = target.function
        name = getattr(func, "__qualname__", getattr(func, "__name__", repr(func)))
        return _adapt(func, name, Loaded(name, False))
    provided: tuple[str, ...] = ()
    if target.path is not None:
        module, provided = _load_file(target.path)
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
        return _adapt(named, target.name, Loaded(target.name, False, provided=provided))
    found: list[tuple[str, Callable[..., Any]]] = []
    for name in SOLVER_NAMES:
        for full in (name, f"Solution.{name}"):
            function = _lookup(module, full)
            if function is not None and all(function is not f for _, f in found):
                found.append((full, function))
    usable: list[tuple[str, Callable[..., Any]]] = []
    refusal: CheckTargetError | None = None
    for name, function in found:
        try:
            _arrangement(_parameters(function, name), name)
        except CheckTargetError as error:
            refusal = refusal or error
            continue
        usable.append((name, function))
    if not usable:
        if refusal is not None:
            raise refusal
        shown = ", ".join(SOLVER_NAMES[:6])
        raise CheckTargetError(
            f"{where}: no solver function found (looked for {shown}, ... and a Solution "
            "class); name it as FILE.py:FUNCTION"
        )
    name, function = usable[0]
    others = tuple(other for other, _ in usable[1:])
    return _adapt(function, name, Loaded(name, True, others=others, provided=provided))


def _load_file(path: Path) -> tuple[Any, tuple[str, ...]]:
    try:
        source = path.read_bytes()
    except OSError as error:
        raise CheckTargetError(f"{path}: {error.strerror or error}") from None
    try:
        code = compile(source, str(path), "exec")
        tree = ast.parse(source)
    except SyntaxError as error:
        raise CheckTargetError(
            f"{path}: syntax error at line {error.lineno}: {error.msg}"
        ) from None
    except (ValueError, RecursionError, MemoryError) as error:  # null bytes, nesting
        raise CheckTargetError(f"{path}: not Python source ({type(error).__name__})") from None
    sys.path.insert(0, str(path.parent.resolve()))
    names = _provided_names()
    module = type(sys)("coinrow_submission")
    module.__file__ = str(path)
    module.__dict__.update(names)
    sys.modules["coinrow_submission"] = module
    try:
        exec(code, module.__dict__)
    except (Exception, SystemExit) as error:
        hint = ""
        if isinstance(error, EOFError) or "input" in str(error).lower():
            hint = " (it reads standard input: check it as a program, with a problem profile)"
        raise CheckTargetError(
            f"{path}: running its top-level code raised {type(error).__name__}: "
            f"{_short(error)}{hint}"
        ) from None
    return module, _used_provided(tree, names)


def _short(error: BaseException) -> str:
    try:
        text = str(error)
    except Exception:  # a broken __str__
        return "(no message)"
    return text if len(text) <= 200 else text[:197] + "..."


def _used_provided(tree: ast.Module, names: dict[str, Any]) -> tuple[str, ...]:
    """The provided names the file reads without binding them itself (O(size of the file))."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).partition(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
    read = {
        node.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    }
    return tuple(sorted((read - bound) & set(names)))


def _lookup(module: Any, name: str) -> Callable[..., Any] | None:
    owner: Any = module
    for part in name.split("."):
        owner = getattr(owner, part, None)
        if owner is None:
            return None
    return owner if callable(owner) else None


def _parameters(func: Callable[..., Any], name: str) -> list[inspect.Parameter]:
    if inspect.isclass(func):
        raise CheckTargetError(f"{name} is a class; name one of its methods (Class.method)")
    try:
        params = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        return []
    qual = getattr(func, "__qualname__", "")
    method = "." in name and "." in qual and "<locals>" not in qual
    if method and params and params[0].name in ("self", "cls"):
        params = params[1:]
    return params


def _adapt(
    func: Callable[..., Any], name: str, loaded: Loaded
) -> tuple[Callable[[list[Any]], Any], Loaded, str | None]:
    """A method of a class is called on a fresh instance per call (LeetCode's way)."""
    owner_name, _, method = name.rpartition(".")
    call: Callable[..., Any] = func
    qual = getattr(func, "__qualname__", "")
    params = _parameters(func, name)
    arrangement = _arrangement(params, name) if params else "coins"
    if owner_name and "." in qual and "<locals>" not in qual and inspect.isfunction(func):
        cls = getattr(sys.modules.get(func.__module__), qual.split(".")[0], None)
        if cls is None:
            cls = _lookup(sys.modules.get("coinrow_submission"), owner_name)
        if inspect.isclass(cls):
            owner = cls

            def call(*args: Any) -> Any:
                return getattr(owner(), method)(*args)

    loaded = Loaded(loaded.function, loaded.picked, arrangement, loaded.others, loaded.provided)
    return _arranged(call, arrangement), loaded, _source(func)


def _arranged(call: Callable[..., Any], arrangement: str) -> Callable[[list[Any]], Any]:
    if arrangement == "coins, n":
        return lambda coins: call(coins, len(coins))
    if arrangement == "n, coins":
        return lambda coins: call(len(coins), coins)
    return lambda coins: call(coins)


def _source(func: Callable[..., Any]) -> str | None:
    code = getattr(inspect.unwrap(func), "__code__", None)
    return code.co_filename if code is not None else None


def _is_length(param: inspect.Parameter) -> bool:
    annotation = param.annotation
    if annotation is int or annotation == "int":
        return True
    return param.name.lower() in LENGTH_NAMES


def _arrangement(params: list[inspect.Parameter], name: str) -> str:
    """``"coins"``, ``"coins, n"`` or ``"n, coins"``; raises for any other signature: two
    required parameters are told apart by their names and annotations (an ``int`` named like
    ``n`` or ``N`` gets the length)."""
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    required = [p for p in params if p.kind in positional and p.default is p.empty]
    required_kw = [
        p for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is p.empty
    ]
    varargs = any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params)
    optional = [p for p in params if p.kind in positional and p.default is not p.empty]
    if not required_kw:
        if len(required) == 1 or (not required and (varargs or optional)):
            return "coins"
        if len(required) == 2:
            first, second = (_is_length(p) for p in required)
            if second and not first:
                return "coins, n"
            if first and not second:
                return "n, coins"
    shown = ", ".join(p.name for p in params)
    raise CheckTargetError(
        f"{name}({shown}) does not take one argument, the list of coins "
        "(or coins and n, or n and coins)"
    )
