"""Shared by the autofix tests: a linter callable for ``fix_text`` that records every call."""

from __future__ import annotations

import attrs

from slurmspec.fix.loop import FixOutcome, fix_text
from slurmspec.lint.engine import lint_script
from slurmspec.parser.script import decode, parse_script
from slurmspec.version import NEWEST, Version


@attrs.define
class RecordingLint:
    """``text -> (re-rendered text, diagnostics)`` as the CLI builds it, keeping a log of the calls."""

    version: Version = NEWEST
    calls: list = attrs.field(factory=list)  # (input text, rendered text, diagnostics)

    def __call__(self, text: str):
        script = parse_script(text, "<test>", self.version)
        found = lint_script(script)
        self.calls.append((text, script.to_text(), found))
        return script.to_text(), found


def fix(text: str | bytes, *, unsafe: bool = False, version: Version = NEWEST) -> FixOutcome:
    return fix_text(decode(text)[0], RecordingLint(version), unsafe=unsafe)


def describe(outcome: FixOutcome) -> str:
    """A readable account of one fix run, for assertion messages."""
    rows = [f"--- original ---\n{outcome.original!r}", f"--- fixed ---\n{outcome.text!r}",
            f"--- failure --- {outcome.failure}",
            "--- applied ---", *(f"    {a.code} {a.name}: {a.title}" for a in outcome.applied),
            "--- remaining ---",
            *(f"    {d.code} line {d.span.line} fix={None if d.fix is None else d.fix.applicability}: {d.message}"
              for d in outcome.diagnostics)]
    return "\n".join(rows)


