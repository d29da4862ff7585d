"""Run the registered rules over a parsed script and collect their diagnostics."""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable

from slurmspec.lint.diagnostic import Diagnostic
from slurmspec.lint.rule import Context, Rule
from slurmspec.model.script import Script


@lru_cache(maxsize=1)
def registry() -> dict[str, Rule]:
    from slurmspec.rules import ALL_RULES

    table: dict[str, Rule] = {}
    for rule in ALL_RULES:
        if rule.code in table:
            raise RuntimeError(f"duplicate rule code {rule.code}")
        table[rule.code] = rule
    return table


def select_rules(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> list[Rule]:
    """Rules whose code, code prefix or name is selected and not ignored."""
    select, ignore = tuple(select), tuple(ignore)

    def matches(rule: Rule, patterns: tuple[str, ...]) -> bool:
        return any(rule.code.startswith(p) or rule.name == p for p in patterns)

    return [
        rule for rule in registry().values()
        if (not select or matches(rule, select)) and not matches(rule, ignore)
    ]


def lint_script(script: Script, rules: Iterable[Rule] | None = None) -> list[Diagnostic]:
    """Every diagnostic the given rules (default: all) find in ``script``, in source order."""
    chosen = list(registry().values()) if rules is None else list(rules)
    wanted = {rule.code for rule in chosen}
    context = Context(script, registry())
    seen_checkers = set()
    for rule in chosen:
        if rule.check in seen_checkers:
            continue  # one checker serves several codes; run it once
        seen_checkers.add(rule.check)
        rule.check(context)
    found = [d for d in context.found if d.code in wanted]
    found.sort(key=lambda d: d.sort_key)
    return found
