"""Run the registered rules over a parsed script and collect their diagnostics.

Order of work for one script: run each selected checker once, keep the codes
that were asked for, apply suppression comments (adding the meta findings
about them, SB901-SB903), then apply severity overrides.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Mapping

import attrs

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


def selector_matches(rule: Rule, selector: str) -> bool:
    """A selector is a code, a code prefix (``SB2``, ``SB20``) or a rule name."""
    return rule.code.startswith(selector.upper()) or rule.name == selector.lower()


def known_selector(selector: str) -> bool:
    return bool(selector) and any(selector_matches(rule, selector) for rule in registry().values())


def select_rules(
    select: Iterable[str] = (), ignore: Iterable[str] = (), extend_select: Iterable[str] = (),
) -> list[Rule]:
    """Rules whose code, code prefix or name is selected (or extend-selected) and not ignored."""
    select, ignore, extend = tuple(select), tuple(ignore), tuple(extend_select)

    def matches(rule: Rule, patterns: tuple[str, ...]) -> bool:
        return any(selector_matches(rule, p) for p in patterns)

    return [
        rule for rule in registry().values()
        if (not select or matches(rule, select) or matches(rule, extend)) and not matches(rule, ignore)
    ]


def lint_script(
    script: Script,
    rules: Iterable[Rule] | None = None,
    *,
    severity: Mapping[str, str] | None = None,
    suppress: bool = True,
) -> list[Diagnostic]:
    """Every diagnostic the given rules (default: all) find in ``script``, in source order.

    ``severity`` maps rule codes to the severity to report them at (overrides
    from the configuration). ``suppress=False`` ignores suppression comments
    (and reports no meta findings about them).
    """
    table = registry()
    chosen = list(table.values()) if rules is None else list(rules)
    wanted = frozenset(rule.code for rule in chosen)
    context = Context(script, table)
    seen_checkers = set()
    for rule in chosen:
        if rule.check in seen_checkers:
            continue  # one checker serves several codes; run it once
        seen_checkers.add(rule.check)
        rule.check(context)
    found = [d for d in context.found if d.code in wanted]
    if suppress:
        from slurmspec.lint import suppress as suppression

        def report(code, span, message):
            context.report(code, span, message)
            return context.found.pop()

        found = suppression.apply(script, found, table, wanted, report)
    if severity:
        found = [
            attrs.evolve(d, severity=severity[d.code]) if d.code in severity else d for d in found
        ]
    found.sort(key=lambda d: d.sort_key)
    return found


def suggest_rule(text: str) -> str | None:
    """The rule code or name closest to a mistyped ``text``, or None."""
    from difflib import get_close_matches

    table = registry()
    if text[:2].lower() == "sb":
        # Letters typed for digits (SB11O, SB2l0) are the commonest slip.
        probe = "SB" + text[2:].upper().translate(str.maketrans("OILS", "0115"))
        if probe in table:
            return probe
        close = get_close_matches(probe, list(table), n=1, cutoff=0.6)
    else:
        close = get_close_matches(text.lower().replace("_", "-"), [r.name for r in table.values()], n=1, cutoff=0.6)
    return close[0] if close else None
