"""The tree keeps its shape: small modules, layers that import downward only (imports inside functions
included), no import cycle, rules in their family's folder, codes only there."""

from __future__ import annotations

import ast
import functools
import re
import tokenize
from pathlib import Path

import pytest

from slurmspec.lint.engine import registry

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"slurmspec": ROOT / "slurmspec", "slurmspec.rules": ROOT / "rules", "slurmspec.grammar": ROOT / "grammar"}
MAX_LINES = 400
# One worker runs them all: three tests read the package imports of every module (1.6 CPU s to
# parse, once per process that asks).
pytestmark = pytest.mark.xdist_group("architecture")


def _modules() -> dict[str, Path]:
    found = {}
    for prefix, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            if prefix == "slurmspec" and parts[0] in ("rules", "grammar"):
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((prefix, *parts))] = path
    return found


MODULES = _modules()


def test_no_module_is_over_400_lines():
    long = {name: n for name, path in MODULES.items() if (n := len(path.read_text().splitlines())) > MAX_LINES}
    assert long == {}


def _import_time_imports(name: str, path: Path) -> set[str]:
    """Modules ``name`` imports when it is imported: top-level statements, not functions or TYPE_CHECKING."""
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()

    def visit(statements):
        for node in statements:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.orelse)
                continue
            if isinstance(node, (ast.If, ast.Try)):
                visit(node.body)
                visit(getattr(node, "orelse", []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)
                visit(getattr(node, "finalbody", []))
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in node.names)

    visit(tree.body)
    return {m for m in found if m in MODULES and m != name}


def test_no_import_cycle():
    graph = {name: _import_time_imports(name, path) for name, path in MODULES.items()}
    # A package imports its parent packages first; those edges are not cycles of ours.
    for name, targets in graph.items():
        graph[name] = {t for t in targets if not name.startswith(t + ".")}
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def walk(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                walk(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            walk(node)
    assert cycles == []


# The packages (a package is the first two dotted parts: ``slurmspec.lint``, ``slurmspec.kinds``), lowest
# layer first. A package imports from its own layer or below, never above, at import time or inside a
# function alike; an import inside a function is only ever a lazy load of a LOWER layer, kept out of
# start-up (``slurmspec lint`` loads what it needs when it needs it: tests/test_cli_startup.py).
LAYERS: tuple[frozenset[str], ...] = tuple(frozenset(f"slurmspec.{name}" for name in layer.split()) for layer in (
    # records and helpers every layer uses; they import only one another
    "frozen code_cache private_cache kinds version span gates hints printable lazy_regex collector toml_read"
    " safe_write limits diagnostic grammar",
    "body",  # the shell in the script's body
    "model",  # the script's syntax, the option catalogue, values, the job model
    "parser",  # text -> model.Script
    "invocation fix cluster",  # sbatch's command line and environment; fixes and edits; cluster profiles
    "check",  # what a rule is written with: @rule, Context
    "rules",  # every rule (slurmspec.rules is rules/)
    "lint",  # the engine that runs the rules, and the one pipeline (lint_source)
    "report",  # output formats, rule docs
    "settings",  # configuration files, the target release, resolve_settings
    "spec",  # TOML job specs: load, check, and the text of each piece (spec/writer/)
    "emit",  # the whole script written from a spec, its fit to a cluster, and a script read back into a spec
    "audit",  # judging a cluster's past jobs
    "lsp",  # the language server
    "cli",
    "__main__",
)) + (frozenset({"slurmspec"}),)  # slurmspec/__init__.py: ``parse()``, the library's entry point


def _package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def _every_import(name: str, path: Path) -> list[tuple[str, int, bool]]:
    """(module imported, line, inside a function) for every import of ``name`` that runs, at import
    time or when a function runs; imports under ``if TYPE_CHECKING:`` never run and do not count."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for statement in child.orelse:
                    visit_one(statement, in_function)
                continue
            visit_one(child, in_function)

    def visit_one(node: ast.AST, in_function: bool) -> None:
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno, in_function) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found.append((base, node.lineno, in_function))
            found.extend((f"{base}.{alias.name}", node.lineno, in_function) for alias in node.names)
        else:
            visit(node, in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(ast.parse(path.read_text()), False)
    return [(target, line, inside) for target, line, inside in found if target in MODULES and target != name]


@functools.cache  # parsed when the first test asks, not at collection in every worker
def _package_imports() -> list[tuple[str, str, str, bool]]:
    """(importing package, imported package, ``module:line``, inside a function) across packages.

    Importing a parent package (``slurmspec`` itself, for ``__version__``) is not an edge: it was
    imported before any of its modules."""
    edges = []
    for name, path in MODULES.items():
        for target, line, inside in _every_import(name, path):
            source, imported = _package(name), _package(target)
            if source != imported and not name.startswith(imported + "."):
                edges.append((source, imported, f"{name}:{line}", inside))
    return edges



def _layer(package: str) -> int:
    return next(index for index, layer in enumerate(LAYERS) if package in layer)


def test_every_package_has_a_layer():
    packages = {_package(name) for name in MODULES}
    assert packages == set().union(*LAYERS)


def test_packages_import_downward_only_inside_functions_too():
    upward = [(where, imported) for source, imported, where, _ in _package_imports()
              if _layer(imported) > _layer(source)]
    assert upward == []


def test_an_import_inside_a_function_loads_a_lower_layer():
    """Lazy loading is for start-up speed: of a lower layer, never a way around the layer order."""
    sideways = [(where, imported) for source, imported, where, inside in _package_imports()
                if inside and _layer(imported) >= _layer(source)]
    assert sideways == []


def test_no_package_cycle_counting_imports_inside_functions():
    graph: dict[str, set[str]] = {}
    for source, imported, _, _ in _package_imports():
        graph.setdefault(source, set()).add(imported)
    done: set[str] = set()
    cycles = []

    def walk(node: str, path: list[str]) -> None:
        if node in path:
            cycles.append(path[path.index(node):] + [node])
            return
        if node in done:
            return
        for nxt in sorted(graph.get(node, ())):
            walk(nxt, path + [node])
        done.add(node)

    for node in sorted(graph):
        walk(node, [])
    assert cycles == []


def test_every_rule_lives_in_its_family_folder_and_is_declared_by_its_module():
    for code, rule in registry().items():
        module = rule.check.__module__
        assert module.startswith(f"slurmspec.rules.{rule.family.value}."), (code, module)


_CODE_LITERAL = re.compile(r"""^[rbuRBU]*(['"])SB\d{3}\1$""")


def _code_literals(path: Path) -> list[str]:
    """The string literals of ``path`` that are exactly a rule code (``"SB460"``), as ``line: text``."""
    found = []
    with path.open("rb") as source:
        for token in tokenize.tokenize(source.readline):
            if token.type == tokenize.STRING and _CODE_LITERAL.match(token.string):
                found.append(f"{path.relative_to(ROOT)}:{token.start[0]}: {token.string}")
    return found


def test_rule_codes_are_written_in_rules_only():
    """Outside rules/ (and tests/), a rule is found by its role (``engine.code_of(Role.X)``), never by a
    code spelt out: a code is declared once, where its rule is."""
    outside = [path for name, path in MODULES.items() if not name.startswith("slurmspec.rules")]
    assert [hit for path in outside for hit in _code_literals(path)] == []
