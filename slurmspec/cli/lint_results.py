"""What ``slurmspec lint`` keeps of its results while they stream into the report: what the exit code needs.

The report is written file by file (``slurmspec/report``); the exit code
depends on every finding, so it is decided as they go by, and nothing else of
them is kept here.
"""

from __future__ import annotations

from typing import Iterable, Iterator


class Verdict:
    """Whether any finding reaches its file's failure level, whether a rule failed, and the errors."""

    def __init__(self) -> None:
        self.failing = self.internal_error = False
        self.errors: list[str] = []

    def follow(self, results: Iterable[tuple]) -> Iterator[tuple]:
        """``(script or excerpt, findings)`` for the report, from ``(source, findings, fail_on, problem)``."""
        from slurmspec.diagnostic import severity_rank
        from slurmspec.kinds import Role
        from slurmspec.lint.engine import code_of

        internal_error = code_of(Role.INTERNAL_ERROR)
        for source, found, fail_on, problem in results:
            if problem is not None:
                self.errors.append(problem)
                continue
            if found:
                threshold = severity_rank(fail_on)
                self.internal_error = self.internal_error or any(d.code == internal_error for d in found)
                self.failing = self.failing or any(severity_rank(d.severity) >= threshold for d in found)
            yield source, found


class _NeverRaised(Exception):
    """Stands in for ShellCheckError when no file runs ShellCheck."""


def shellcheck_error(settings: Iterable) -> type[Exception]:
    """``ShellCheckError`` when any of ``settings`` runs ShellCheck; else an exception nothing raises,
    so the plain lint path does not import the ShellCheck bridge (and ``subprocess``) to catch it."""
    if not any(s is not None and s.shellcheck for s in settings):
        return _NeverRaised
    from slurmspec.lint.shellcheck import ShellCheckError

    return ShellCheckError
