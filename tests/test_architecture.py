"""The tree keeps its shape: small modules, no import cycle, rules in their family's folder, codes only there."""

from __future__ import annotations

import ast
import re
import tokenize
from pathlib import Path

from slurmspec.lint.engine import registry

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"slurmspec": ROOT / "slurmspec", "slurmspec.rules": ROOT / "rules", "slurmspec.grammar": ROOT / "grammar"}
MAX_LINES = 400


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
