"""Programs that read the coins from standard input and print the answer (CSES, AtCoder).

A Python program runs inside the checker's child process, once per row, with fresh globals,
its standard input and output in memory (``sys.stdin.buffer`` works): as cheap as a call,
under the same CPU and memory limits. A C or C++ file is compiled once with the system's
``gcc`` or ``g++ -O2`` (in the parent, before the check); it, or any command given, then runs
as **one process per row**, started by the child (so it is in the child's process group and
ended with it), its CPU time read from the kernel's accounting of the child's children.
"""

from __future__ import annotations

import contextlib
import io
import math
import re
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import CheckTargetError

#: Compilers by file suffix, and their flags.
COMPILERS = {
    ".c": ("gcc", ["-O2", "-std=c11"]),
    ".cpp": ("g++", ["-O2", "-std=c++17"]),
    ".cc": ("g++", ["-O2", "-std=c++17"]),
    ".cxx": ("g++", ["-O2", "-std=c++17"]),
}

#: Seconds a compilation may take.
COMPILE_SECONDS = 120.0

#: Longest output read from a program (bytes).
MAX_OUTPUT = 1 << 16

_NUMBER = re.compile(rb"-?[0-9]{1,4000}")
_ERROR_LINE = re.compile(r"^([A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt))\b:?(.*)$")


class ProgramTimeout(BaseException):
    """A program ran over its CPU-time limit (raised in the child, like the CPU timer)."""


class ProgramFailed(Exception):
    """A program ended badly; the class's name says how (set per case)."""


def _failed(name: str, message: str) -> ProgramFailed:
    kind: type[ProgramFailed] = type(name, (ProgramFailed,), {})
    return kind(message)


def compile_program(source: Path, folder: Path) -> Path:
    """Compile a C or C++ file into ``folder`` with the system's compiler (O(compile));
    raises :class:`CheckTargetError` in one line when there is no compiler or it fails."""
    compiler, flags = COMPILERS[source.suffix]
    found = shutil.which(compiler)
    if found is None:
        raise CheckTargetError(
            f"{source}: no {compiler} on this machine: install it, or build the program "
            "yourself and give its command"
        )
    binary = folder / "solution"
    try:
        done = subprocess.run(
            [found, *flags, "-o", str(binary), str(source)],
            capture_output=True,
            text=True,
            timeout=COMPILE_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise CheckTargetError(f"{source}: {compiler} took over {COMPILE_SECONDS:g} s") from None
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if "error" in line]
        first = (lines or done.stderr.splitlines() or ["(no message)"])[0]
        raise CheckTargetError(f"{source}: {compiler} failed: {first[:200]}")
    return binary


def parse_output(data: bytes, answer: str) -> Any:
    """What a program printed, as an answer: an int, True or False (for ``wins`` answers:
    ``true``, ``false``, ``yes``, ``no``, 1 or 0), else the text itself (O(size)).

    >>> parse_output(b"42\\n", "total"), parse_output(b"True\\n", "wins")
    (42, True)
    """
    text = data.strip()
    if answer in ("wins", "wins-or-ties"):
        word = text.lower()
        if word in (b"true", b"yes", b"1"):
            return True
        if word in (b"false", b"no", b"0"):
            return False
    if _NUMBER.fullmatch(text):
        return int(text)
    return text[:200].decode("utf-8", "replace")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class PythonProgram:
    """A Python program run in this process on one row at a time (fresh globals)."""

    def __init__(self, path: Path, input_text: Callable[[list[Any]], str], answer: str) -> None:
        try:
            self.code = compile(path.read_bytes(), str(path), "exec")
        except SyntaxError as error:
            raise CheckTargetError(
                f"{path}: syntax error at line {error.lineno}: {error.msg}"
            ) from None
        except (OSError, ValueError, RecursionError, MemoryError) as error:
            raise CheckTargetError(f"{path}: cannot be read ({type(error).__name__})") from None
        self.path = path
        self.input_text = input_text
        self.answer = answer
        self.limit = math.inf

    def __call__(self, coins: list[Any]) -> Any:
        stdin = io.TextIOWrapper(io.BytesIO(self.input_text(coins).encode()), encoding="utf-8")
        output = io.BytesIO()
        stdout = io.TextIOWrapper(output, encoding="utf-8", write_through=True)
        saved = sys.stdin, sys.argv
        sys.stdin, sys.argv = stdin, [str(self.path)]
        try:
            with contextlib.redirect_stdout(stdout):  # the program's output, captured
                exec(self.code, {"__name__": "__main__", "__file__": str(self.path)})
        except SystemExit as end:
            if end.code not in (None, 0):
                raise _failed("SystemExit", f"exit status {end.code}") from None
        finally:
            sys.stdin, sys.argv = saved
            stdout.flush()
        return parse_output(output.getvalue()[:MAX_OUTPUT], self.answer)


class CommandProgram:
    """A command run as one process per row (its stdin the row, its stdout the answer)."""

    def __init__(
        self, command: list[str], input_text: Callable[[list[Any]], str], answer: str
    ) -> None:
        self.command = command
        self.input_text = input_text
        self.answer = answer
        self.limit = 2.0

    def __call__(self, coins: list[Any]) -> Any:
        before = _children_cpu()
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )  # no preexec_fn: started by vfork, cheap from a large process
        except OSError as error:
            raise _failed("OSError", f"cannot start {self.command[0]}: {error}") from None
        seconds = math.ceil(self.limit) + 1
        with contextlib.suppress(OSError, ValueError):  # the kernel's backstop on its CPU
            resource.prlimit(process.pid, resource.RLIMIT_CPU, (seconds, seconds + 1))
        try:
            out, err = process.communicate(
                self.input_text(coins).encode(), timeout=4 * self.limit + 2
            )
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise ProgramTimeout from None
        if _children_cpu() - before > self.limit:
            raise ProgramTimeout
        code = process.returncode
        if code < 0:
            import signal

            known = {int(s): s.name for s in signal.Signals}
            name = known.get(-code, f"signal {-code}")
            if name == "SIGXCPU":
                raise ProgramTimeout
            raise _failed(name, f"killed by {name}")
        if code != 0:
            last = err.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
            match = _ERROR_LINE.match(last[0])
            if match:
                raise _failed(match[1].rpartition(".")[2], match[3].strip()[:200])
            raise _failed("NonZeroExit", f"exit status {code}: {last[0][:200]}")
        return parse_output(out[:MAX_OUTPUT], self.answer)


def cpu_of_children() -> float:
    """CPU seconds used by the finished children of this process (O(1))."""
    return _children_cpu()
