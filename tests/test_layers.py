"""The layers of docs/architecture.md hold in the real imports.

Every module of src/coinrow is parsed (never imported) and each import of another coinrow
module is checked against the layer map below: a module may import its own layer and the
layers under it, never one above. Pictures stand beside the game model and the studies:
they may import the model, and the rest of the library may load them only lazily (inside a
function, as the Jupyter reprs do). The shells (cli/, web/, the demo) sit on top and nothing
in the library imports them. A new module must be given a layer here and in
docs/architecture.md.
"""

from __future__ import annotations

import ast
import graphlib
import re
from collections.abc import Iterator
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
    "numpy", "numba", "matplotlib", "pyarrow", "fastapi", "uvicorn", "starlette", "pydantic",
    "dask", "distributed",
}  # fmt: skip

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

    def visit(node: ast.AST, lazy: bool, type_only: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            inner_lazy = lazy or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            guarded = type_only or (
                isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test)
            )
            if isinstance(child, ast.ImportFrom):
                yield from _from_targets(module, path, child, lazy, type_only)
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    top = alias.name.split(".")[0]
                    internal = top == "coinrow"
                    target = alias.name.partition(".")[2] if internal else top
                    yield Import(module, target, internal, lazy, type_only, child.lineno)
            yield from visit(child, inner_lazy, guarded)

    yield from visit(tree, False, False)


def _from_targets(
    module: str, path: Path, node: ast.ImportFrom, lazy: bool, type_only: bool
) -> Iterator[Import]:
    if node.level == 0:
        name = node.module or ""
        if name.split(".")[0] != "coinrow":
            yield Import(module, name.split(".")[0], False, lazy, type_only, node.lineno)
            return
        base = name.partition(".")[2]
    else:
        base = _resolve(module, path, node.level, node.module)
    for alias in node.names:  # `from . import engines` names a module, `from . import x` a name
        candidate = f"{base}.{alias.name}" if base else alias.name
        target = candidate if _is_module(candidate) else base
        yield Import(module, target, True, lazy, type_only, node.lineno)


def all_imports() -> list[Import]:
    return [found for module, path in modules().items() for found in imports(module, path)]


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


def _allowed(found: Import) -> bool:
    """May ``found.importer`` import the coinrow module ``found.target``?"""
    own, other = layer_of(found.importer), layer_of(found.target)
    if other == PICTURES and own != PICTURES:
        return own >= FACADE or found.lazy  # pictures are loaded only when drawn
    if own == PICTURES:
        return other <= BESIDE[PICTURES] or other == PICTURES
    if own == SHELLS:
        return True
    return other <= own


def test_no_module_imports_a_higher_layer() -> None:
    wrong = [
        f"{found.importer} (line {found.line}) imports {found.target or 'coinrow'}"
        for found in all_imports()
        if found.internal and not _allowed(found)
    ]
    assert wrong == []


def _part(module: str) -> str:
    """A module's unit for import cycles: its subpackage (``census``) or itself."""
    top = module.split(".")[0]
    return top if f"{top}/" in LAYERS else module


def test_no_import_cycle_among_the_studies() -> None:
    """The studies' modules and subpackages import one another without a cycle, lazy imports
    included (the census once imported refute.py, which imported the census back)."""
    graph: dict[str, set[str]] = {}
    for found in all_imports():
        if not found.internal or found.type_only or not found.target:
            continue
        if STUDIES == layer_of(found.importer) == layer_of(found.target):
            source, target = _part(found.importer), _part(found.target)
            if source != target:
                graph.setdefault(source, set()).add(target)
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as error:
        pytest.fail(f"import cycle: {' -> '.join(error.args[1])}")


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

    def check(importer: str, target: str, lazy: bool = False) -> bool:
        return _allowed(Import(importer, target, True, lazy, False, 1))

    assert not check("numbers", "engines")
    assert not check("numbers", "engines.table", lazy=True)
    assert not check("engines.table", "game")
    assert not check("game", "strategies")
    assert not check("strategies", "cli")
    assert not check("svg", "strategies")
    assert not check("analysis", "svg")
    assert check("analysis", "svg", lazy=True)
    assert check("engines.table", "svg", lazy=True)
    assert check("cli.solve", "solution") and check("solution", "engines.reduction")
    assert FLAG.search("use --json") and not FLAG.search("a -- b, x--y, 1--2")
