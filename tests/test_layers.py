"""The layers of docs/architecture.md hold in the real imports.

Every module of src/coinrow is parsed (never imported) and each import of another coinrow
module is checked against the layer map below: a module may import its own layer and the
layers under it, never one above. Pictures stand beside the game model and the studies:
they may import the engines and the layers below (the model only under ``TYPE_CHECKING``:
they reach it by duck typing), and the rest of the library loads them only inside the
model's Jupyter hooks (``_repr_svg_``/``_repr_html_``, python-chess style). The engines
import no picture at all. The shells (cli/, web/, the demo) sit on top and nothing in the
library imports them.

There is no import cycle among coinrow's modules, nor among its parts (a subpackage
counting as one), function-local imports included (only ``if TYPE_CHECKING:`` imports are
left out), and a function-local import of a coinrow module is allowed only where it defers
an optional dependency: the target loads an extra's package at module level, or is one of
the parts that exist for an extra (census/, chunked.py, plot.py, web/: the table of extras
in docs/architecture.md); besides those, only the Jupyter hooks and the facade's
``__getattr__`` (``coinrow.check`` loaded on first use) import inside a function.
``import coinrow`` loads nothing outside the standard library (checked in a fresh
interpreter). A new module must be given a layer here and in docs/architecture.md.
"""

from __future__ import annotations

import ast
import functools
import graphlib
import itertools
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "src" / "coinrow"

#: Layer ranks, bottom first (docs/architecture.md draws the same picture).
BASE, ENGINES, MODEL, STUDIES, PICTURES, FACADE, SHELLS = range(7)

#: Every module (dotted, relative to coinrow) or subpackage (a name ending in "/") and its
#: layer. Subpackages cover all their modules.
LAYERS: dict[str, int] = {
    "errors": BASE,
    "numbers": BASE,
    "numba_cache": BASE,
    "rules": BASE,
    "rating": BASE,
    "variants": MODEL,
    "engines/": ENGINES,
    "game": MODEL,
    "tables": MODEL,
    "play_values": MODEL,
    "solution": MODEL,
    "subgames": MODEL,
    "record": MODEL,
    "io": MODEL,
    "strategies": STUDIES,
    "analysis": STUDIES,
    "tournament": STUDIES,
    "refute": STUDIES,
    "counterexamples": STUDIES,
    "benchmark": STUDIES,
    "steps": STUDIES,
    "review": STUDIES,
    "levels": STUDIES,
    "puzzles": STUDIES,
    "census/": STUDIES,
    "checking/": STUDIES,
    "testing": STUDIES,
    "chunked": STUDIES,
    "online/": STUDIES,
    "diagram": PICTURES,
    "svg": PICTURES,
    "text": PICTURES,
    "plot": PICTURES,
    "__init__": FACADE,
    "cli/": SHELLS,
    "web/": SHELLS,
    "demo": SHELLS,
    "__main__": SHELLS,
}

#: Pictures stand beside the model and the studies, not above them.
BESIDE = {PICTURES: MODEL}

#: Optional dependencies (the extras fast, plot, web, census).
OPTIONAL = {
    "numpy", "numba", "matplotlib", "pyarrow", "fastapi", "fastapi_offline", "uvicorn",
    "starlette", "pydantic", "dask", "distributed", "redis",
}  # fmt: skip

#: The parts of coinrow that exist for an extra ("loaded by" in docs/architecture.md's table
#: of extras): the rest of the library and the CLI load them when used, not at start-up.
EXTRA_PARTS = {"census", "chunked", "plot", "web"}

#: User-interface frameworks: the shells' business.
UI = {"typer", "rich"}

#: The one library module allowed a UI framework at module level: the terminal picture is a
#: ``rich.text.Text`` (Rich is a core dependency; the library itself never prints it).
UI_ALLOWED = {"text": {"rich"}}

FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]+")


@dataclass(frozen=True)
class Import:
    """One import statement's target: a coinrow module or a top-level third-party name."""

    importer: str
    target: str
    internal: bool
    lazy: bool  # inside a function: runs only when called
    type_only: bool  # under ``if TYPE_CHECKING:``
    line: int
    function: str = ""  # the innermost function the import runs in ("" at module level)

    def where(self) -> str:
        inside = f" in {self.function}()" if self.function else ""
        return f"{self.importer or 'coinrow'} (line {self.line}{inside})"


def module_name(path: Path) -> str:
    """``engines/table.py`` -> ``engines.table``; ``cli/__init__.py`` -> ``cli``; the
    package's own ``__init__.py`` -> ``""``."""
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> int:
    """The layer of a module, from its own entry or its subpackage's."""
    if module == "":
        return LAYERS["__init__"]
    if module in LAYERS:
        return LAYERS[module]
    top = module.split(".")[0] + "/"
    if top in LAYERS:
        return LAYERS[top]
    raise KeyError(module)


def _resolve(importer: str, path: Path, level: int, name: str | None) -> str:
    """The coinrow module a relative import names (``''`` is the package itself)."""
    package = importer.split(".") if path.name == "__init__.py" and importer else []
    if path.name != "__init__.py":
        package = importer.split(".")[:-1]
    base = package[: len(package) - (level - 1)] if level > 1 else package
    return ".".join([*base, *(name.split(".") if name else [])])


def _is_module(dotted: str) -> bool:
    target = PACKAGE.joinpath(*dotted.split(".")) if dotted else PACKAGE
    return target.with_suffix(".py").is_file() or (target / "__init__.py").is_file()


def imports(module: str, path: Path) -> Iterator[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def visit(node: ast.AST, function: str, type_only: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else ""
            guarded = type_only or (
                isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test)
            )
            lazy = bool(function)
            if isinstance(child, ast.ImportFrom):
                yield from _from_targets(module, path, child, function, type_only)
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    top = alias.name.split(".")[0]
                    internal = top == "coinrow"
                    target = alias.name.partition(".")[2] if internal else top
                    yield Import(module, target, internal, lazy, type_only, child.lineno, function)
            yield from visit(child, inner or function, guarded)

    yield from visit(tree, "", False)


def _from_targets(
    module: str, path: Path, node: ast.ImportFrom, function: str, type_only: bool
) -> Iterator[Import]:
    lazy, line = bool(function), node.lineno
    if node.level == 0:
        name = node.module or ""
        if name.split(".")[0] != "coinrow":
            yield Import(module, name.split(".")[0], False, lazy, type_only, line, function)
            return
        base = name.partition(".")[2]
    else:
        base = _resolve(module, path, node.level, node.module)
    for alias in node.names:  # `from . import engines` names a module, `from . import x` a name
        candidate = f"{base}.{alias.name}" if base else alias.name
        target = candidate if _is_module(candidate) else base
        yield Import(module, target, True, lazy, type_only, line, function)


@functools.cache
def _parsed_imports() -> tuple[Import, ...]:
    """Every import statement of the package, parsed once per test session."""
    return tuple(found for module, path in modules().items() for found in imports(module, path))


def all_imports() -> list[Import]:
    return list(_parsed_imports())


def is_library(module: str) -> bool:
    return layer_of(module) < FACADE


def test_every_module_has_a_layer() -> None:
    unplaced = []
    for module in modules():
        try:
            layer_of(module)
        except KeyError:
            unplaced.append(module)
    assert unplaced == [], f"give these a layer in LAYERS and docs/architecture.md: {unplaced}"


#: Subpackages the drawing lists file by file; the others (web/, census/) by their name.
DRAWN_FILE_BY_FILE = ("engines", "cli")


def test_the_architecture_page_names_every_module() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for module in modules():
        package, _, name = module.rpartition(".")
        shown = name if not package or package in DRAWN_FILE_BY_FILE else package.split(".")[0]
        if shown:
            assert re.search(rf"\b{re.escape(shown)}(\.py|/)", page), module


#: The Jupyter hooks of the model's result objects: the one place outside the pictures and
#: the shells that may load a picture (inside the hook, when a notebook shows the object).
REPR_HOOKS = {"_repr_svg_", "_repr_html_"}


def _allowed(found: Import) -> bool:
    """May ``found.importer`` import the coinrow module ``found.target``?"""
    own, other = layer_of(found.importer), layer_of(found.target)
    if other == PICTURES and own != PICTURES:
        return own == SHELLS or _is_repr_hook(found)  # pictures are loaded only when drawn
    if own == PICTURES:
        return other <= BESIDE[PICTURES] or other == PICTURES
    if own == SHELLS:
        return True
    return other <= own


def _is_repr_hook(found: Import) -> bool:
    """A picture loaded inside a Jupyter hook of the game model."""
    return layer_of(found.importer) == MODEL and found.lazy and found.function in REPR_HOOKS


def test_no_module_imports_a_higher_layer() -> None:
    wrong = [
        f"{found.where()} imports {found.target or 'coinrow'}"
        for found in all_imports()
        if found.internal and not _allowed(found)
    ]
    assert wrong == []


def test_the_engines_import_no_picture() -> None:
    """Not even lazily or for type checking: an engine draws nothing and knows no drawing."""
    wrong = [
        f"{found.where()} imports {found.target}"
        for found in all_imports()
        if found.internal
        and found.importer.split(".")[0] == "engines"
        and layer_of(found.target) == PICTURES
    ]
    assert wrong == []


def test_pictures_load_only_through_the_models_repr_hooks() -> None:
    """Outside the pictures and the shells, a picture module is imported only inside a
    model object's ``_repr_svg_``/``_repr_html_`` (so ``import coinrow`` and a solve never
    load one); the pictures reach the model by duck typing, importing it only for type
    checking."""
    wrong = [
        f"{found.where()} imports {found.target}" + (" at module level" if not found.lazy else "")
        for found in all_imports()
        if found.internal
        and not found.type_only
        and layer_of(found.target) == PICTURES
        and layer_of(found.importer) not in (PICTURES, SHELLS)
        and not _is_repr_hook(found)
    ]
    wrong += [
        f"{found.where()} imports {found.target} at run time (only under TYPE_CHECKING)"
        for found in all_imports()
        if found.internal
        and not found.type_only
        and layer_of(found.importer) == PICTURES
        and layer_of(found.target) in (MODEL, STUDIES)
    ]
    assert wrong == []


def _part(module: str) -> str:
    """A module's unit for import cycles between parts: its subpackage (``census``) or
    itself."""
    top = module.split(".")[0]
    return top if f"{top}/" in LAYERS else module


def import_graph(
    found: Iterable[Import], unit: Callable[[str], str] = lambda module: module
) -> dict[str, dict[str, Import]]:
    """Who imports whom at run time (lazy imports included, ``TYPE_CHECKING`` ones not),
    by ``unit``, with one import statement per edge to name it. The package a module sits
    in is left out: Python loads it first anyway, and its own imports are edges of their
    own."""
    graph: dict[str, dict[str, Import]] = {}
    for edge in found:
        if not edge.internal or edge.type_only:
            continue
        source, target = unit(edge.importer), unit(edge.target)
        if source != target:
            graph.setdefault(source, {}).setdefault(target, edge)
    return graph


def cycle_of(graph: dict[str, dict[str, Import]]) -> str | None:
    """One import cycle of the graph, each step with the line that makes it; None if none."""
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as error:
        nodes = list(reversed(error.args[1]))  # graphlib lists the cycle against the edges
        steps = []
        for source, target in itertools.pairwise(nodes):
            edge = graph[source][target]
            lazy = ", function-local" if edge.lazy else ""
            steps.append(f"{source or 'coinrow'} -> {target or 'coinrow'} [{edge.where()}{lazy}]")
        return "; ".join(steps)
    return None


def test_no_import_cycle_among_the_modules() -> None:
    """No chain of imports leads from a coinrow module back to itself, counting the imports
    made inside functions (which closed two circles once: nine files around the model
    through the pictures' Jupyter hooks, six in census/)."""
    cycle = cycle_of(import_graph(all_imports()))
    assert cycle is None, f"import cycle: {cycle}"


def test_no_import_cycle_among_the_parts() -> None:
    """The same with each subpackage as one part: census/ never imports refute.py (which
    imports the census), engines/ nothing above them."""
    cycle = cycle_of(import_graph(all_imports(), _part))
    assert cycle is None, f"import cycle between parts: {cycle}"


def test_the_census_is_free_of_circles() -> None:
    """The census's own modules import one another in one direction (families, compiled,
    the kernels, variants, shards, store, run)."""
    census = [edge for edge in all_imports() if edge.importer.split(".")[0] == "census"]
    cycle = cycle_of(import_graph(census))
    assert cycle is None, f"import cycle in census/: {cycle}"


def defers_an_optional_package(module: str) -> bool:
    """Whether importing ``module`` loads an optional third-party package."""
    loaded = _module_level_closure(module)
    return any(name.removeprefix("external:") in OPTIONAL for name in loaded)


def may_be_local(found: Import) -> bool:
    """Whether this function-local import of a coinrow module defers an optional dependency
    (its target loads an extra's package at module level, or is an extra's part), is a
    Jupyter hook of the model, or is the facade's ``__getattr__``."""
    return (
        defers_an_optional_package(found.target)
        or found.target.split(".")[0] in EXTRA_PARTS
        or _is_repr_hook(found)
        or (found.importer == "" and found.function == "__getattr__")
    )


def test_function_local_imports_only_defer_optional_dependencies() -> None:
    """An import of a coinrow module inside a function is allowed only where it defers an
    optional dependency (NumPy, Numba, Dask, pyarrow, FastAPI, matplotlib, or the census,
    chunked, plot and web parts built on them), in a Jupyter hook of the model, or in the
    facade's ``__getattr__``; anything else belongs at the top of the module."""
    wrong = [
        f"{found.where()} imports {found.target or 'coinrow'}"
        for found in all_imports()
        if found.internal and found.lazy and not found.type_only and not may_be_local(found)
    ]
    assert wrong == []


def loaded_by(code: str) -> list[str]:
    """The top-level names of the modules a fresh interpreter loads running ``code``, that
    it had not loaded before (whatever its start-up imported is left out)."""
    probe = (
        "import json, sys\n"
        "before = set(sys.modules)\n"
        f"{code}\n"
        "print(json.dumps(sorted({name.split('.')[0] for name in set(sys.modules) - before})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    return list(json.loads(out.stdout))


def test_import_coinrow_loads_only_the_standard_library() -> None:
    """``import coinrow`` loads coinrow and the standard library, nothing else (not Typer
    or Rich either: they are the shells')."""
    loaded = loaded_by("import coinrow")
    assert "coinrow" in loaded
    foreign = [name for name in loaded if name not in sys.stdlib_module_names and name != "coinrow"]
    assert foreign == [], f"import coinrow loads {foreign}"


def test_the_library_never_imports_a_shell() -> None:
    wrong = [
        f"{found.importer} (line {found.line}) imports {found.target}"
        for found in all_imports()
        if found.internal and is_library(found.importer) and layer_of(found.target) == SHELLS
    ]
    assert wrong == []


def test_only_the_shells_import_typer_or_rich_at_module_level() -> None:
    wrong = [
        f"{found.importer} (line {found.line}) imports {found.target}"
        for found in all_imports()
        if not found.internal
        and found.target in UI
        and not found.lazy
        and layer_of(found.importer) != SHELLS
        and found.target not in UI_ALLOWED.get(found.importer, set())
    ]
    assert wrong == []


def _module_level_closure(start: str) -> set[str]:
    """Every coinrow module and third-party name loaded by importing ``start``."""
    graph: dict[str, list[Import]] = {}
    for found in all_imports():
        graph.setdefault(found.importer, []).append(found)
    seen, todo = set(), [start]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        parts = module.split(".")
        todo.extend(".".join(parts[:k]) for k in range(1, len(parts)))  # parent packages
        for found in graph.get(module, []):
            if found.lazy or found.type_only:
                continue
            if found.internal:
                todo.append(found.target)
            else:
                seen.add(f"external:{found.target}")
    return seen


@pytest.mark.parametrize("start", ["", "cli"])
def test_optional_dependencies_load_lazily(start: str) -> None:
    """``import coinrow`` and the CLI's start-up never load an extra's package."""
    loaded = _module_level_closure(start)
    assert sorted(name for name in loaded if name.removeprefix("external:") in OPTIONAL) == []


def _library_trees() -> Iterator[tuple[str, ast.Module]]:
    for module, path in modules().items():
        if is_library(module):
            yield module, ast.parse(path.read_text(encoding="utf-8"))


def test_the_library_never_prints() -> None:
    wrong = []
    for module, tree in _library_trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "print":
                wrong.append(f"{module} line {node.lineno}: print()")
            stream = ast.unparse(node) if isinstance(node, ast.Attribute) else ""
            if stream in ("sys.stdout", "sys.stderr"):
                wrong.append(f"{module} line {node.lineno}: {stream}")
    assert wrong == []


def test_the_library_never_catches_keyboard_interrupt() -> None:
    wrong = []
    for module, tree in _library_trees():
        for node in ast.walk(tree):
            if not isinstance(node, ast.ExceptHandler):
                continue
            caught = "" if node.type is None else ast.unparse(node.type)
            if node.type is None or re.search(r"\b(KeyboardInterrupt|BaseException)\b", caught):
                wrong.append(f"{module} line {node.lineno}: except {caught or '(bare)'}")
    assert wrong == []


def test_the_library_never_names_a_cli_flag() -> None:
    wrong = []
    for module, tree in _library_trees():
        for node in ast.walk(tree):
            text = node.value if isinstance(node, ast.Constant) else None
            flag = FLAG.search(text) if isinstance(text, str) else None
            if flag:
                wrong.append(f"{module} line {node.lineno}: {flag[0]}")
    assert wrong == []


def test_the_checks_catch_violations() -> None:
    """The rules reject what they are meant to reject (the checks are not vacuous)."""

    def check(importer: str, target: str, lazy: bool = False, function: str = "") -> bool:
        return _allowed(Import(importer, target, True, lazy, False, 1, function))

    assert not check("numbers", "engines")
    assert not check("numbers", "engines.table", lazy=True, function="f")
    assert not check("engines.table", "game")
    assert not check("game", "strategies")
    assert not check("strategies", "cli")
    assert not check("svg", "strategies")
    assert not check("analysis", "svg")
    assert not check("analysis", "svg", lazy=True, function="_repr_html_")
    assert not check("engines.table", "svg", lazy=True, function="_repr_svg_")
    assert not check("game", "svg")
    assert not check("game", "svg", lazy=True, function="best_moves")
    assert check("game", "svg", lazy=True, function="_repr_svg_")
    assert check("cli.solve", "solution") and check("solution", "engines.reduction")
    assert check("cli.solve", "svg") and check("svg", "engines.table")
    assert FLAG.search("use --json") and not FLAG.search("a -- b, x--y, 1--2")

    a_b = Import("a", "b", True, False, False, 3)
    b_a = Import("b", "a", True, True, False, 7, "f")
    assert cycle_of({"a": {"b": a_b}}) is None
    cycle = cycle_of({"a": {"b": a_b}, "b": {"a": b_a}}) or ""
    assert "a -> b [a (line 3)]" in cycle and "b -> a [b (line 7 in f()), function-local]" in cycle
    assert defers_an_optional_package("engines.kernels")
    assert not defers_an_optional_package("engines.table")
