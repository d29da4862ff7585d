"""One ``Diagnostic`` type for every finding, whatever rule or family produced it."""

from __future__ import annotations

from typing import Any

import attrs

from slurmspec.frozen import as_tuple, frozen, to
from slurmspec.kinds import Family, Outcome, Severity
from slurmspec.span import Span

SEVERITIES = tuple(Severity)  # lowest first


def severity_rank(severity: str) -> int:
    return Severity(severity).rank


@frozen(kw_only=True)
class Diagnostic:
    code: str  # stable public code, e.g. "SB001"
    name: str  # kebab-case rule name, e.g. "unknown-option"
    family: Family = attrs.field(converter=to(Family))
    severity: Severity = attrs.field(converter=to(Severity))
    message: str
    span: Span
    # What happens to the job; None only for findings of other tools (ShellCheck).
    outcome: Outcome | None = attrs.field(default=None, converter=attrs.converters.optional(to(Outcome)))
    path: str | None = None
    fix: Any = None  # a slurmspec.fix.edit.Fix, or None when no fix is offered
    notes: tuple[str, ...] = attrs.field(default=(), converter=as_tuple)

    @property
    def sort_key(self) -> tuple:
        return (self.path or "", self.span.start, self.span.end, self.code)

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "code": self.code,
            "name": self.name,
            "family": self.family,
            "severity": self.severity,
            "outcome": self.outcome,
            "message": self.message,
            "line": self.span.line,
            "column": self.span.column,
            "end_line": self.span.end_line,
            "end_column": self.span.end_column,
            "fix": None if self.fix is None else self.fix.to_dict(),
            "notes": list(self.notes),
        }
