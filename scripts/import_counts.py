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
  matplotlib, FastAPI, Uvicorn, Dask, pyarrow...).
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

        def visit(node: ast.AST, lazy: bool, module: str = module) -> Iterator[Edge]:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                    yield from (e for c in child.orelse for e in visit_one(c, lazy, module))
                    continue
                yield from visit_one(child, lazy, module)

        def visit_one(child: ast.AST, lazy: bool, module: str) -> Iterator[Edge]:
            if isinstance(child, ast.Import):
                for alias in child.names:
                    top, _, rest = alias.name.partition(".")
                    target = rest if top == "coinrow" else f"external:{top}"
                    yield Edge(module, target, lazy, child.lineno)
            elif isinstance(child, ast.ImportFrom):
                if child.level == 0 and (child.module or "").split(".")[0] != "coinrow":
                    top = (child.module or "").split(".")[0]
                    yield Edge(module, f"external:{top}", lazy, child.lineno)
                else:
                    if child.level == 0:
                        base = (child.module or "").partition(".")[2]
                    else:
                        up = own_package[: len(own_package) - (child.level - 1)]
                        base = ".".join([*up, *((child.module or "").split(".") if child.module else [])])
                    targets = []
                    for alias in child.names:
                        candidate = f"{base}.{alias.name}" if base else alias.name
                        targets.append(candidate if is_module(candidate) else base)
                    for target in dict.fromkeys(targets):
                        yield Edge(module, target, lazy, child.lineno)
            inner = lazy or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            yield from visit(child, inner, module)

        yield from visit(ast.parse(path.read_text(encoding="utf-8")), False)


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
    lazy = [edge for edge in internal if edge.lazy]
    deferring = [edge for edge in lazy if loads_optional(edge.target)]
    print(f"function-local imports of coinrow modules: {len(lazy)}")
    print(f"  deferring an optional package: {len(deferring)}")
    print(f"  not deferring one: {len(lazy) - len(deferring)}")
    if args.list:
        for edge in lazy:
            mark = "optional" if edge in deferring else "-"
            print(f"    {edge.importer or 'coinrow'}:{edge.line} -> {edge.target or 'coinrow'} [{mark}]")


if __name__ == "__main__":
    main()
