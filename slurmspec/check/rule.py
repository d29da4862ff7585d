"""The ``Rule`` record and ``@rule``, the one way to declare one.

A rule is a function that looks at a script through a ``Context`` and reports
findings; the decorator adds its code, kebab-case name, default severity,
outcome and fix availability, and the function's docstring is its
documentation (fixed ``## `` headings, see ``DOC_HEADINGS``)::

    @rule("SB219", "abbreviated-option", Severity.INFO, Outcome.ADVICE, fix=Fixability.ALWAYS)
    def abbreviated_option(ctx: Context) -> None:
        \"\"\"## What it does ...\"\"\"
        ...

Rules that are best computed together (one pass over the GPU options decides
five refusals) each keep their own decorated function and doc, and call the
group's checker through ``ctx.shared(checker)``: it runs once per script, and
the engine keeps the findings of the rules that were selected.
"""

from __future__ import annotations

import inspect
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Iterator

import attrs

from slurmspec.frozen import frozen, to
from slurmspec.kinds import Family, Fixability, Outcome, Role, Severity

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.check.context import Context

DOC_HEADINGS = ("What it does", "Why is this bad?", "Example", "Use instead", "Slurm versions", "References")

# "parse" and "reject" mean sbatch (or slurmctld at submission) refuses the script.
REFUSING_FAMILIES = frozenset({Family.PARSE, Family.REJECT})

Checker = Callable[["Context"], None]


@frozen
class Rule:
    code: str
    name: str
    severity: Severity = attrs.field(converter=to(Severity))
    outcome: Outcome = attrs.field(converter=to(Outcome))
    check: Checker = attrs.field(eq=False, repr=False)
    # The docstring as written; `doc` dedents it on first use (100+ rules are
    # imported on every run, and most runs never show a doc).
    raw_doc: str = attrs.field(repr=False, alias="doc")
    fix: Fixability = attrs.field(default=Fixability.NONE, converter=to(Fixability))
    role: Role | None = None  # what the engine, suppressions or editors find this rule by

    def __attrs_post_init__(self) -> None:
        Family.of_code(self.code)  # KeyError: the third character names no family
        if not self.raw_doc:
            raise ValueError(f"{self.code}: a rule needs its documentation as the docstring")

    @cached_property
    def doc(self) -> str:
        return inspect.cleandoc(self.raw_doc)

    @property
    def family(self) -> Family:
        return Family.of_code(self.code)

    @property
    def fixable(self) -> bool:
        return self.fix is not Fixability.NONE

    @property
    def summary(self) -> str:
        for heading, body in doc_sections(self.doc):
            if heading == "What it does":
                return body.split("\n\n")[0].replace("\n", " ")
        return ""


def rule(
    code: str, name: str, severity: Severity, outcome: Outcome, *, fix: Fixability = Fixability.NONE,
    role: Role | None = None,
) -> Callable[[Checker], Rule]:
    """Declare the decorated function as rule ``code``; its docstring is the rule's documentation."""

    def declare(check: Checker) -> Rule:
        return Rule(code, name, severity, outcome, check, check.__doc__ or "", fix, role)

    return declare


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
