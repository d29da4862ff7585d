"""Rules read typed facts instead of probing values (issue 22).

A setting's value is a parsed record or raw text (``Setting.value_as``, ``JobRequest.count``), so a
rule has no reason to ask a value what it has: at most ten ``getattr`` calls in ``rules/`` (reflection
over a record's fields, not value probing), no ``hasattr``, and no ``isinstance(..., int)``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import slurmspec.rules

RULES = Path(slurmspec.rules.__file__).resolve().parent
# Helpers that another part of issue 22 moves into views of the job model (slurmspec/model/): they leave
# rules/ with that move, and with them this exception.


def _calls(name: str) -> dict[str, list[ast.Call]]:
    found: dict[str, list[ast.Call]] = {}
    for path in sorted(RULES.rglob("*.py")):
        relative = path.relative_to(RULES).as_posix()
        calls = [node for node in ast.walk(ast.parse(path.read_text()))
                 if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name]
        if calls:
            found[relative] = calls
    return found


def test_rules_call_getattr_at_most_ten_times():
    found = {path: len(calls) for path, calls in _calls("getattr").items()}
    assert sum(found.values()) <= 10, found


def test_rules_do_not_probe_values_with_hasattr():
    assert _calls("hasattr") == {}


def test_rules_do_not_test_values_for_int():
    def names_int(node: ast.expr) -> bool:
        return any(isinstance(n, ast.Name) and n.id == "int" for n in ast.walk(node))

    probing = {path: [call.lineno for call in calls if len(call.args) == 2 and names_int(call.args[1])]
               for path, calls in _calls("isinstance").items()}
    assert {path: lines for path, lines in probing.items() if lines} == {}


def test_rules_compare_kinds_as_enum_members():
    """A ``.kind``/``.mode`` is a member of an enum in slurmspec/kinds.py, never compared with a spelt string."""
    spelt: dict[str, list[int]] = {}
    for path in sorted(RULES.rglob("*.py")):
        relative = path.relative_to(RULES).as_posix()
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute)
                    and node.left.attr in ("kind", "mode")):
                continue
            literals = [n for c in node.comparators for n in ast.walk(c)
                        if isinstance(n, ast.Constant) and isinstance(n.value, str)]
            if literals:
                spelt.setdefault(relative, []).append(node.lineno)
    assert spelt == {}
