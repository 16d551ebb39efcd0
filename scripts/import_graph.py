"""The import graph of tau-sim's modules: modules, floors, circles, upward and private imports.

Every ``import`` counts, function-local ones included; only those under ``if TYPE_CHECKING:``
are left out (they never run). A module's imports are resolved to the deepest module of the
project they name, so ``from tau_sim.simulator.core import events`` is an edge to
``simulator.core.events`` and ``from tau_sim.simulator.core import Event`` one to the package
``simulator.core`` (its ``__init__``).

Rules (``--check`` exits 1 when one is broken, naming each offending import):

- no circle among the modules;
- ``simulator`` imports none of the packages built on it (agents, users, domains, tui, tracer);
- inside ``simulator``, a layer imports only layers below it (``LAYERS``, bottom first);
- the packages built on ``simulator`` import it only through a sub-package's ``__init__``
  (``tau_sim.simulator.core``, never ``tau_sim.simulator.core.events``);
- no module over ``MAX_LINES`` lines;
- at most ``MAX_FLOORS`` floors and ``MAX_LOCAL_IMPORTS`` function-local imports of the
  project's own modules.

``python scripts/import_graph.py [--root DIR] [--check] [--json]`` prints the figures; ``--root``
reads another checkout (an old commit's, whose modules were imported without ``tau_sim.``).
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections.abc import Iterable
from pathlib import Path

PACKAGES = ("simulator", "agents", "users", "domains", "tui", "tracer")
LAYERS = ("core", "models", "world", "engine", "grid", "store", "run", "results", "gym", "cli")
"""The sub-packages of ``simulator``, bottom first: each may import only those before it."""
MAX_LINES = 600
MAX_FLOORS = 14
"""The longest chain of imports allowed (issue 34 measured 19). Each floor is a module that
cannot be read, tested or loaded without all those under it; a deep stack is usually a helper
living in a module of a higher layer than the code that needs it (move it down)."""
MAX_LOCAL_IMPORTS = 60
"""The most imports of the project's own modules made inside functions (issue 34 measured 113).
Some are deliberate: a CLI command imports its machinery when it runs (``tau-sim`` start-up, see
``tests/simulator/core/test_start_up.py``), a provider its SDK. The rest hide the structure from
the reader and from this graph's circle check until the function runs: import at module level,
or move what is shared into a module both sides may import."""
NAMESPACE = "tau_sim."


def modules(root: Path) -> dict[str, Path]:
    """Every module of the project under ``root``, by dotted name without ``tau_sim.``."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return skipped


def _named(node: ast.AST, package: str) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        parts = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*parts, base] if base else parts)
    return [f"{base}.{alias.name}" for alias in node.names]


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project's modules that module ``name`` (at ``path``) imports when it runs."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_nodes(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        for dotted in _named(node, package):
            target = _resolve(dotted.removeprefix(NAMESPACE), known)
            if target is not None and target != name:
                targets.add(target)
    return targets


def _resolve(dotted: str, known: dict[str, Path]) -> str | None:
    while dotted and dotted not in known:
        dotted = dotted.rpartition(".")[0]
    return dotted or None


def graph(root: Path) -> dict[str, set[str]]:
    """Each module's imports of the project's modules."""
    known = modules(root)
    return {name: imports(name, path, known) for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work: list[tuple[str, Iterable[str]]] = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(iter(children), None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
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
    return sorted(found)


def floors(edges: dict[str, set[str]]) -> int:
    """The number of floors: the longest chain of imports, circles counted as one floor."""
    member = {m: i for i, c in enumerate(circles(edges)) for m in c}
    key = {m: member.get(m, m) for m in edges}
    height: dict[object, int] = {}

    def floor(node: str) -> int:
        k = key[node]
        if k in height:
            return height[k]
        height[k] = 1
        group = [m for m in edges if key[m] == k]
        below = [floor(t) for m in group for t in edges[m] if key[t] != k]
        height[k] = 1 + max(below, default=0)
        return height[k]

    sys.setrecursionlimit(10_000)
    return max((floor(m) for m in edges), default=0)


def layer(module: str) -> int | None:
    """The layer of a ``simulator`` module (its place in ``LAYERS``), None for the package."""
    parts = module.split(".")
    if parts[0] != "simulator" or len(parts) < 2 or parts[1] not in LAYERS:
        return None
    return LAYERS.index(parts[1])


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Imports from ``simulator`` into a package built on it, or into a higher layer."""
    found = []
    for source, targets in sorted(edges.items()):
        if not source.startswith("simulator"):
            continue
        for target in sorted(targets):
            if not target.startswith("simulator"):
                found.append(f"{source} -> {target}")
                continue
            low, high = layer(source), layer(target)
            if low is not None and high is not None and high > low:
                found.append(f"{source} -> {target}")
    return found


def private(edges: dict[str, set[str]], known: Iterable[str]) -> list[str]:
    """Imports of a ``simulator`` module by a package built on it, past the sub-package API."""
    packages = {m for m in known if layer(m) is not None and m.count(".") == 1}
    found = []
    for source, targets in sorted(edges.items()):
        if source.startswith("simulator"):
            continue
        for target in sorted(targets):
            if target.startswith("simulator") and target not in packages | {"simulator"}:
                found.append(f"{source} -> {target}")
    return found


def long_modules(root: Path) -> list[str]:
    """Modules over ``MAX_LINES`` lines, with their length."""
    found = []
    for name, path in modules(root).items():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES:
            found.append(f"{name} ({lines} lines)")
    return found


def local_imports(root: Path) -> int:
    """Imports of the project's own modules made inside a function (they run on first call)."""
    known = modules(root)
    count = 0
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _type_checking_nodes(tree)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        inside = {
            id(node)
            for func in ast.walk(tree)
            if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef)
            for node in ast.walk(func)
        }  # a set: an import in a nested function counts once
        for node in ast.walk(tree):
            if id(node) not in inside or id(node) in skipped:
                continue
            targets = [_resolve(d.removeprefix(NAMESPACE), known) for d in _named(node, package)]
            count += any(t is not None for t in targets)
    return count


def figures(root: Path) -> dict[str, object]:
    """Everything the script reports, as one JSON-ready object."""
    edges = graph(root)
    return {
        "modules": len(edges),
        "simulator_modules": sum(1 for m in edges if m.startswith("simulator")),
        "floors": floors(edges),
        "local_imports": local_imports(root),
        "circles": circles(edges),
        "upward": upward(edges),
        "private": private(edges, edges),
        "long": long_modules(root),
    }


def over_limits(result: dict[str, object]) -> list[str]:
    """A line for each of ``floors`` and ``local_imports`` over its limit."""
    found = []
    for key, limit in (("floors", MAX_FLOORS), ("local_imports", MAX_LOCAL_IMPORTS)):
        value = result[key]
        assert isinstance(value, int)
        if value > limit:
            found.append(f"{key}: {value}, over the limit of {limit}")
    return found


def main(argv: list[str] | None = None) -> int:
    """Print the figures; with ``--check``, exit 1 if any rule is broken."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--check", action="store_true", help="exit 1 on a broken rule")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    result = figures(args.root)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"{result['modules']} modules ({result['simulator_modules']} in simulator), "
            f"{result['floors']} floors, {result['local_imports']} function-local imports of "
            "its own modules"
        )
        for title in ("circles", "upward", "private", "long"):
            entries = result[title]
            assert isinstance(entries, list)
            print(f"{title}: {len(entries)}")
            for entry in entries:
                print(f"  {' <-> '.join(entry) if isinstance(entry, list) else entry}")
    over = over_limits(result)
    for line in over:
        print(line)
    broken = any(result[k] for k in ("circles", "upward", "private", "long")) or bool(over)
    return 1 if args.check and broken else 0


if __name__ == "__main__":
    sys.exit(main())
