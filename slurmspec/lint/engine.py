"""Run the registered rules over a parsed script and collect their diagnostics.

Order of work for one script: run each selected rule (a rule that raises
becomes an SB900 internal-error finding naming it; the others still run), keep
the codes that were asked for, apply suppression comments (adding the meta
findings about them, SB901-SB903), then apply severity overrides.
"""

from __future__ import annotations

from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Iterable, Mapping

import attrs

from slurmspec.collector import collector_paused
from slurmspec.kinds import Outcome, Role
from slurmspec.check.context import LOCAL, Context, FileSystem
from slurmspec.diagnostic import Diagnostic
from slurmspec.check.rule import Rule
from slurmspec.model.syntax.script import Script

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.cluster.policy import Policy
    from slurmspec.limits import Beyond
    from slurmspec.cluster.profile import Profile
    from slurmspec.lint.shellcheck import ShellCheck



@lru_cache(maxsize=1)
def registry() -> dict[str, Rule]:
    """Every rule, by code, from the modules ``slurmspec.rules`` lists; checked as it is built."""
    from slurmspec.rules import MODULES

    table: dict[str, Rule] = {}
    names: set[str] = set()
    for module in MODULES:
        for rule in rules_of(module):
            if rule.code in table:
                raise RuntimeError(f"duplicate rule code {rule.code} ({module.__name__})")
            if rule.name in names:
                raise RuntimeError(f"duplicate rule name {rule.name} ({module.__name__})")
            folder = module.__name__.split(".")[2]
            if folder != rule.family.value:
                raise RuntimeError(f"{rule.code} is a {rule.family} rule but lives in rules/{folder}/")
            table[rule.code] = rule
            names.add(rule.name)
    return dict(sorted(table.items()))


@lru_cache(maxsize=None)
def code_of(role: Role) -> str:
    """The code of the rule that plays ``role`` (every role has exactly one, checked here)."""
    found = [rule.code for rule in registry().values() if rule.role is role]
    if len(found) != 1:
        raise RuntimeError(f"{len(found)} rules play the role {role.value!r}: {found}")
    return found[0]


def rules_of(module: ModuleType) -> list[Rule]:
    """The rules a module declares (not ones it imports), in the order it declares them."""
    return [value for value in vars(module).values()
            if isinstance(value, Rule) and value.check.__module__ == module.__name__]


ALL = "ALL"
DEFAULT_GROUP = "default"
# An outcome names the group of rules with that outcome: `extend-select = ["advice"]`.
OUTCOME_GROUPS = {outcome.value: outcome for outcome in Outcome}


@lru_cache(maxsize=1)
def default_codes() -> frozenset[str]:
    """The codes a run without ``select`` reports (rules/selection.py says how they were chosen)."""
    from slurmspec.rules.selection import DEFAULT

    return DEFAULT & registry().keys()


def selector_matches(rule: Rule, selector: str) -> bool:
    """A selector is ``ALL``, ``default`` (the default selection), an outcome (``advice``: every rule
    with that outcome), a code, a code prefix (``SB2``, ``SB20``) or a rule name."""
    upper, lower = selector.upper(), selector.lower()
    if lower == DEFAULT_GROUP:
        return rule.code in default_codes()
    if lower in OUTCOME_GROUPS:
        return rule.outcome is OUTCOME_GROUPS[lower]
    return upper == ALL or rule.code.startswith(upper) or rule.name == lower


def known_selector(selector: str) -> bool:
    return bool(selector) and any(selector_matches(rule, selector) for rule in registry().values())


def select_rules(
    select: Iterable[str] = (), ignore: Iterable[str] = (), extend_select: Iterable[str] = (),
) -> list[Rule]:
    """Rules that are selected (without ``select``: the default selection) or extend-selected, and not ignored.

    An explicit ``select`` means exactly what it names, default or opt-in alike; ``extend_select``
    adds to it, or to the default selection."""
    select, ignore, extend = tuple(select), tuple(ignore), tuple(extend_select)
    default = default_codes()

    def matches(rule: Rule, patterns: tuple[str, ...]) -> bool:
        return any(selector_matches(rule, p) for p in patterns)

    def chosen(rule: Rule) -> bool:
        return matches(rule, select) if select else rule.code in default

    return [
        rule for rule in registry().values()
        if (chosen(rule) or matches(rule, extend)) and not matches(rule, ignore)
    ]


def is_default(rule: Rule) -> bool:
    """Whether a run without ``select`` reports ``rule`` (else it is opt-in)."""
    return rule.code in default_codes()


@collector_paused
def lint_script(
    script: Script,
    rules: Iterable[Rule] | None = None,
    *,
    severity: Mapping[str, str] | None = None,
    suppress: bool = True,
    fs: FileSystem = LOCAL,
    shellcheck: "ShellCheck | None" = None,
    cluster: "Profile | None" = None,
    policy: "Policy | None" = None,
) -> list[Diagnostic]:
    """Every diagnostic the given rules (default: all) find in ``script``, in source order.

    ``severity`` maps rule codes to the severity to report them at (overrides
    from the configuration). ``suppress=False`` ignores suppression comments
    (and reports no meta findings about them). ``fs`` is the machine the rules
    may look at (folders that exist, the working folder). ``cluster`` is the
    cluster profile the cluster rules check against (they do nothing without one);
    ``policy`` a site policy from the configuration, checked besides the profile's.

    O(n) in the script for each rule: a rule reads the model once, or asks questions that
    are indexed per script (``ctx.shared``, ``per_script``); tests/test_linear_work.py
    measures it. The engine adds the suppressions (O(findings + comments)) and one sort.
    """
    table = registry()
    chosen = list(table.values()) if rules is None else list(rules)
    wanted = frozenset(rule.code for rule in chosen)
    context = Context(script, table, fs, cluster, policy)
    crashed: dict[int, tuple[Exception, list[str]]] = {}
    for rule in chosen:
        before = len(context.found)
        try:
            rule.check(context)
        except Exception as exc:  # noqa: BLE001 - one broken rule must not take the run down
            del context.found[before:]
            crashed.setdefault(id(exc), (exc, []))[1].append(rule.code)
    found = [d for d in context.found if d.code in wanted]
    for exc, codes in crashed.values():
        found.append(_internal_error(context, exc, codes))
    if shellcheck is not None:
        found.extend(shellcheck.run(script))
        wanted = _WithShellCheck(wanted, shellcheck)
    invoked: list[Diagnostic] = []
    if script.invocation is not None:  # findings in the sbatch environment or command line
        from slurmspec.lint.invocation_findings import split_by_origin

        found, invoked = split_by_origin(script, found)
    if suppress:
        from slurmspec.lint import suppress as suppression

        def report(code, span, message):
            context.report(code, span, message)
            return context.found.pop()

        found = suppression.apply(script, found, table, wanted, report)
    found.extend(invoked)
    if severity:
        found = [
            attrs.evolve(d, severity=severity[d.code]) if d.code in severity else d for d in found
        ]
    found.sort(key=lambda d: d.sort_key)
    if script.invocation is not None:  # sorted by offset first: the script, its environment, its command line
        from slurmspec.lint.invocation_findings import settle

        found = settle(script, found)
    return found


class _WithShellCheck(frozenset):
    """The selected rule codes, and every SCxxxx code the ShellCheck run selects."""

    def __new__(cls, codes: frozenset, shellcheck: "ShellCheck"):
        self = super().__new__(cls, codes)
        self.shellcheck = shellcheck
        return self

    def __contains__(self, code: object) -> bool:
        return super().__contains__(code) or (isinstance(code, str) and self.shellcheck.wants(code))


def too_large_finding(head: Script, rules: Iterable[Rule] | None = None,
                      beyond: "Beyond | None" = None) -> list[Diagnostic]:
    """The one finding for a script past a limit (``beyond``; None: over slurmctld's size), of which
    only ``head`` was parsed: SB106 past 4 MiB, SB905 past what slurmspec analyses (if selected)."""
    table = registry()
    too_large = beyond is None or beyond.what == "bytes"
    code = code_of(Role.FILE_TOO_LARGE if too_large else Role.SCRIPT_TOO_LONG)
    if rules is not None and code not in {rule.code for rule in rules}:
        return []
    from slurmspec.limits import MAX_SCRIPT_BYTES

    first = head.lines[0].span if head.lines else head.span(0, 0)
    context = Context(head, table)
    if too_large:
        message = (f"the script is larger than {MAX_SCRIPT_BYTES // (1024 * 1024)} MiB, the most slurmctld accepts"
                   " unless the site raised `max_script_size`; the job is refused (\"Pathname of a file, directory"
                   " or other parameter too long\"). slurmspec read no further: move data the job needs into a"
                   " file it reads")
    else:
        what = {"lines": "lines", "options": "options on its `#SBATCH` lines",
                "words": "words on its `#SBATCH` lines"}[beyond.what]
        counted = f"{beyond.count:,}" if beyond.what == "lines" else f"more than {beyond.limit:,}"
        message = (f"the script has {counted} {what}, more than the {beyond.limit:,} slurmspec analyses, so"
                   " nothing in it was checked; sbatch takes it, but write the repetition as a loop, a job array"
                   " (`--array`) or a list of inputs in a file the script reads")
    context.report(code, first, message)
    return context.found


def _internal_error(context: Context, exc: Exception, codes: list[str]) -> Diagnostic:
    """SB900: a rule raised; say which, and what, so the user can report it."""
    import traceback

    where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    at = f" at {where.filename.rsplit('/rules/', 1)[-1]}:{where.lineno}" if where else ""
    names = ", ".join(codes)
    context.report(
        code_of(Role.INTERNAL_ERROR), context.script.span(0, 0),
        f"rule {names} failed on this script ({type(exc).__name__}: {exc}{at}); its findings are missing."
        " This is a bug in slurmspec: please report it with the script",
    )
    return context.found.pop()


def suggest_rule(text: str) -> str | None:
    """The rule code or name closest to a mistyped ``text``, or None."""
    from slurmspec.hints import closest

    table = registry()
    if text[:2].lower() == "sb":
        # Letters typed for digits (SB11O, SB2l0) are the commonest slip.
        probe = "SB" + text[2:].upper().translate(str.maketrans("OILS", "0115"))
        if probe in table:
            return probe
        close = closest(probe, table)
    else:
        close = closest(text.lower().replace("_", "-"), (r.name for r in table.values()))
    return close[0] if close else None
