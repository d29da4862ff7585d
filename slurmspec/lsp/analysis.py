"""One lint of one document version, exactly as ``slurmspec lint`` would do it; runs on a worker thread.

Same pipeline (``slurmspec.lint.pipeline.lint_source``), same rules, severities,
suppressions and size limit as the CLI. ShellCheck's findings, when the configuration asks for them,
are gathered by the caller off the event loop (``slurmspec.lsp.shellcheck``)
and handed in as ``shellcheck_comments``, so that they pass through the same
suppression comments and selectors as on the command line.
"""

from __future__ import annotations

from typing import Sequence

import attrs

from slurmspec.frozen import frozen
from slurmspec.diagnostic import Diagnostic
from slurmspec.lint.shellcheck import ShellCheck, to_diagnostics
from slurmspec.lsp.documents import Snapshot
from slurmspec.lint.pipeline import LintSettings
from slurmspec.lsp.settings import ConfigSource
from slurmspec.model.syntax.script import Script


@frozen(eq=False)
class LintResult:
    snapshot: Snapshot
    script: Script | None  # None when the document is not a batch script or the configuration is broken
    diagnostics: tuple[Diagnostic, ...]
    settings: LintSettings
    with_shellcheck: bool = False


class _Gathered(ShellCheck):
    """ShellCheck whose comments were already gathered: the engine filters and suppresses them as usual."""

    def __init__(self, base: ShellCheck, comments: Sequence[dict]) -> None:
        super().__init__(base.select, base.ignore, base.severity, base.cwd)
        self.comments = tuple(comments)

    def run(self, script: Script) -> list[Diagnostic]:
        from slurmspec.lint.shellcheck import _override  # the CLI's severity rule for SC codes

        found = [d for d in to_diagnostics(script, self.comments) if self.wants(d.code)]
        return [attrs.evolve(d, severity=_override(d.code, self.severity) or d.severity) for d in found]


def lint_document(snapshot: Snapshot, configs: ConfigSource) -> LintResult:
    """Find the document's settings, then lint it (both can take a while: a worker thread's job)."""
    return lint_snapshot(snapshot, configs.settings_for(snapshot.path))


def lint_snapshot(
    snapshot: Snapshot, settings: LintSettings, shellcheck_comments: Sequence[dict] | None = None,
) -> LintResult:
    """The findings for one document version (none for a document that is not a batch script)."""
    if settings.error is not None or not snapshot.is_script:
        return LintResult(snapshot, None, (), settings)
    from slurmspec.lint.pipeline import lint_source

    checker = None
    if shellcheck_comments is not None:
        checker = _Gathered(settings.shellcheck_for(snapshot.path), shellcheck_comments)
    script, found = lint_source(snapshot.text, settings, snapshot.path, shellcheck=checker)
    return LintResult(snapshot, script, tuple(found), settings, with_shellcheck=checker is not None)
