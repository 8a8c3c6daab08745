"""Count coinrow's import circles and function-local imports, reproducibly.

    .venv/bin/python scripts/import_counts.py [SRC] [--list]

SRC is the package folder (default src/coinrow of this checkout); to count another commit,
check it out in a worktree and pass its src/coinrow. The modules are parsed, never imported.

- An *import circle* is a strongly connected component of more than one module in the graph
  "module A imports module B", counting imports made inside functions and leaving out only
  those under ``if TYPE_CHECKING:``. A package's ``__init__`` is a module like any other.
- A *function-local import* is one import statement of a coinrow module inside a function
  (``from coinrow.svg import a, b`` counts once). It *defers an optional package* when the
  module it imports loads, at module level, one of the extras' packages (NumPy, Numba,
  matplotlib, FastAPI, Uvicorn, Dask, pyarrow...); it *loads an extra's part* when it
  imports a module that exists for an extra (census/, chunked.py, plot.py, web/: the
  "loaded by" column of docs/architecture.md's table of extras); it is a *Jupyter hook* when
  it sits in a ``_repr_svg_``/``_repr_html_``; the facade's ``__getattr__`` (PEP 562) loads
  ``coinrow.check`` on first use. Anything else is counted as *other*.
"""

from __future__ import annotations

import argparse
import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

#: The extras' packages (pyproject.toml: fast, plot, web, census).
OPTIONAL = {
    "numpy", "numba", "matplotlib", "pyarrow", "fastapi", "fastapi_offline", "uvicorn",
    "starlette", "pydantic", "dask", "distributed",
}  # fmt: skip


@dataclass(frozen=True)
class Edge:
    importer: str
    target: str  # a coinrow module ("" is the package) or "external:<top-level name>"
    lazy: bool
    line: int
    function: str = ""


def module_name(package: Path, path: Path) -> str:
    parts = list(path.relative_to(package).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def edges(package: Path) -> Iterator[Edge]:
    def is_module(dotted: str) -> bool:
        target = package.joinpath(*dotted.split(".")) if dotted else package
        return target.with_suffix(".py").is_file() or (target / "__init__.py").is_file()

    for path in sorted(package.rglob("*.py")):
        module = module_name(package, path)
        own_package = module.split(".") if path.name == "__init__.py" and module else []
        if path.name != "__init__.py":
            own_package = module.split(".")[:-1]

        def visit(
            node: ast.AST, lazy: str, module: str = module, own_package: list[str] = own_package
        ) -> Iterator[Edge]:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                    yield from (
                        e for c in child.orelse for e in visit_one(c, lazy, module, own_package)
                    )
                    continue
                yield from visit_one(child, lazy, module, own_package)

        def visit_one(
            child: ast.AST, lazy: str, module: str, own_package: list[str]
        ) -> Iterator[Edge]:
            if isinstance(child, ast.Import):
                for alias in child.names:
                    top, _, rest = alias.name.partition(".")
                    target = rest if top == "coinrow" else f"external:{top}"
                    yield Edge(module, target, bool(lazy), child.lineno, lazy)
            elif isinstance(child, ast.ImportFrom):
                if child.level == 0 and (child.module or "").split(".")[0] != "coinrow":
                    top = (child.module or "").split(".")[0]
                    yield Edge(module, f"external:{top}", bool(lazy), child.lineno, lazy)
                else:
                    if child.level == 0:
                        base = (child.module or "").partition(".")[2]
                    else:
                        up = own_package[: len(own_package) - (child.level - 1)]
                        base = ".".join(
                            [*up, *((child.module or "").split(".") if child.module else [])]
                        )
                    targets = []
                    for alias in child.names:
                        candidate = f"{base}.{alias.name}" if base else alias.name
                        targets.append(candidate if is_module(candidate) else base)
                    for target in dict.fromkeys(targets):
                        yield Edge(module, target, bool(lazy), child.lineno, lazy)
            inner = lazy
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = child.name
            elif isinstance(child, ast.Lambda):
                inner = lazy or "<lambda>"
            yield from visit(child, inner, module, own_package)

        yield from visit(ast.parse(path.read_text(encoding="utf-8")), "")


#: The modules that exist for an extra (docs/architecture.md, "Optional dependencies").
EXTRA_PARTS = ("census", "chunked", "plot", "web")


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("src", nargs="?", default=Path(__file__).parent.parent / "src" / "coinrow")
    parser.add_argument("--list", action="store_true", help="list every function-local import")
    args = parser.parse_args()
    package = Path(args.src)
    found = list(edges(package))
    internal = [edge for edge in found if not edge.target.startswith("external:")]
    graph: dict[str, set[str]] = {}
    for edge in internal:
        if edge.importer != edge.target:
            graph.setdefault(edge.importer, set()).add(edge.target)

    eager: dict[str, list[Edge]] = {}
    for edge in found:
        if not edge.lazy:
            eager.setdefault(edge.importer, []).append(edge)

    def loads_optional(module: str) -> bool:
        seen, todo = set(), [module]
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            parts = current.split(".")
            todo.extend(".".join(parts[:k]) for k in range(0, len(parts)))  # parent packages
            for edge in eager.get(current, []):
                if edge.target.startswith("external:"):
                    if edge.target.removeprefix("external:") in OPTIONAL:
                        return True
                else:
                    todo.append(edge.target)
        return False

    components = circles(graph)
    print(f"import circles: {len(components)}")
    for component in components:
        print(f"  {len(component)} modules: {', '.join(name or 'coinrow' for name in component)}")

    def kind(edge: Edge) -> str:
        if loads_optional(edge.target):
            return "defers an optional package"
        if edge.target.split(".")[0] in EXTRA_PARTS:
            return "loads an extra's part"
        if edge.function in ("_repr_svg_", "_repr_html_"):
            return "a Jupyter hook"
        if edge.importer == "" and edge.function == "__getattr__":
            return "the facade's __getattr__"
        return "other"

    lazy = [edge for edge in internal if edge.lazy]
    print(f"function-local imports of coinrow modules: {len(lazy)}")
    kinds = [kind(edge) for edge in lazy]
    for name in dict.fromkeys(
        ["defers an optional package", "loads an extra's part", "a Jupyter hook",
         "the facade's __getattr__", "other"]
    ):  # fmt: skip
        print(f"  {name}: {kinds.count(name)}")
    if args.list:
        for edge, name in zip(lazy, kinds, strict=True):
            where = f"{edge.importer or 'coinrow'}:{edge.line} in {edge.function}()"
            print(f"    {where} -> {edge.target or 'coinrow'} [{name}]")


if __name__ == "__main__":
    main()
