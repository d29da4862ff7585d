"""The ``Rule`` record and the context a checker reports through.

A rule is a code, a kebab-case name, a default severity, a documentation text
with fixed headings, and a checker function. One checker may serve several
rules (as ruff's W291/W293 share one): the engine runs each checker once and
the checker says which code it reports.
"""

from __future__ import annotations

import inspect
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Iterator

import attrs

from slurmspec.lint.diagnostic import SEVERITIES, Diagnostic
from slurmspec.model.script import Script
from slurmspec.span import Span

# The family is part of the code: SB0xx parse, SB1xx reject, SB2xx traps,
# SB3xx launch, SB4xx cluster, SB9xx meta. "parse" and "reject" mean sbatch
# (or slurmctld at submission) refuses the script; the others mean it is
# accepted but will misbehave, or deserves advice.
FAMILIES = {"0": "parse", "1": "reject", "2": "traps", "3": "launch", "4": "cluster", "9": "meta"}
REFUSING_FAMILIES = frozenset({"parse", "reject"})

DOC_HEADINGS = ("What it does", "Why is this bad?", "Example", "Use instead", "Slurm versions", "References")

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.fix.edit import Fix

Checker = Callable[["Context"], None]


@attrs.frozen
class Rule:
    code: str
    name: str
    severity: str
    check: Checker = attrs.field(eq=False, repr=False)
    # The docstring as written; `doc` dedents it on first use (100+ rules are
    # imported on every run, and most runs never show a doc).
    raw_doc: str = attrs.field(repr=False, alias="doc")
    fixable: bool = False

    def __attrs_post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"{self.code}: unknown severity {self.severity!r}")
        if self.code[2] not in FAMILIES:
            raise ValueError(f"{self.code}: unknown family digit")

    @cached_property
    def doc(self) -> str:
        return inspect.cleandoc(self.raw_doc)

    @property
    def family(self) -> str:
        return FAMILIES[self.code[2]]

    @property
    def summary(self) -> str:
        for heading, body in doc_sections(self.doc):
            if heading == "What it does":
                return body.split("\n\n")[0].replace("\n", " ")
        return ""


class Context:
    """What a checker sees: the script, and ``report()`` for its findings."""

    def __init__(self, script: Script, rules_by_code: dict[str, Rule]) -> None:
        self.script = script
        self.version = script.version
        self._rules = rules_by_code
        self.found: list[Diagnostic] = []

    def report(
        self, code: str, span: Span, message: str, *,
        severity: str | None = None, notes: tuple[str, ...] = (), fix: "Fix | None" = None,
    ) -> None:
        rule = self._rules[code]
        self.found.append(
            Diagnostic(
                code=rule.code,
                name=rule.name,
                family=rule.family,
                severity=severity or rule.severity,
                message=message,
                span=span,
                path=self.script.path,
                notes=notes,
                fix=fix,
            )
        )


def doc_sections(doc: str) -> Iterator[tuple[str, str]]:
    """Split a rule doc into (heading, body) pairs by its ``## Heading`` lines."""
    heading, body = "", []
    for line in doc.splitlines():
        if line.startswith("## "):
            if heading:
                yield heading, "\n".join(body).strip()
            heading, body = line[3:].strip(), []
        else:
            body.append(line)
    if heading:
        yield heading, "\n".join(body).strip()
