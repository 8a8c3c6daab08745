"""``coinrow.check``: judge anyone's solver for the coins game (see docs/check.md).

:func:`check` runs a solver in a child process through the stages of
:mod:`coinrow.checking.core`; :mod:`coinrow.checking.grading` grades a folder of
submissions with a rubric; :mod:`coinrow.checking.isolation` holds the child process (a
guard against mistakes, not a sandbox).
"""

from __future__ import annotations

from .core import (
    ANSWERS,
    SEEDS,
    STAGES,
    CheckResult,
    Diagnosis,
    Failure,
    Options,
    StageResult,
    check,
    expected_answer,
)
from .growth import Growth
from .loading import SOLVER_NAMES, Target, parse_target

__all__ = [
    "ANSWERS",
    "SEEDS",
    "SOLVER_NAMES",
    "STAGES",
    "CheckResult",
    "Diagnosis",
    "Failure",
    "Growth",
    "Options",
    "StageResult",
    "Target",
    "check",
    "expected_answer",
    "parse_target",
]
