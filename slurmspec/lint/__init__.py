"""Linting: rules, the engine that runs them, and the diagnostics they produce."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.lint.diagnostic import Diagnostic
    from slurmspec.version import Version


def lint_text(source: str | bytes, path: str | None = None, version: "Version | None" = None) -> list["Diagnostic"]:
    """Parse and lint one script with every rule; never raises on content."""
    from slurmspec.lint.engine import lint_script
    from slurmspec.parser.script import parse_script
    from slurmspec.version import NEWEST

    return lint_script(parse_script(source, path, version or NEWEST))


def refuses(diagnostics: list["Diagnostic"]) -> bool:
    """True when the findings say sbatch (or slurmctld at submission) refuses the script."""
    from slurmspec.kinds import Severity
    from slurmspec.lint.rule import REFUSING_FAMILIES

    return any(d.severity is Severity.ERROR and d.family in REFUSING_FAMILIES for d in diagnostics)
