"""What every SB0xx rule does: report the parser's ``ParseIssue``s of one kind.

The parser (``slurmspec.parser``) records each place where sbatch's reading
of the ``#SBATCH`` words would stop, as glibc ``getopt_long`` and
``src/sbatch/opt.c:get_argument()`` do. Issues on lines sbatch never reads
(``issue.ignored``) are left to the traps family, which reports those lines.
"""

from __future__ import annotations

from typing import Iterator

from slurmspec.kinds import IssueKind
from slurmspec.check.context import Context
from slurmspec.model.syntax.script import ParseIssue


def issues_of(ctx: Context, kind: IssueKind) -> Iterator[ParseIssue]:
    """The script's parse issues of ``kind`` on lines sbatch reads, in source order."""
    for issue in ctx.script.issues:
        if issue.kind is kind and not issue.ignored:
            yield issue


def report_issues(ctx: Context, kind: IssueKind, code: str) -> None:
    """Report each issue of ``kind`` as a finding of ``code``, with the parser's message."""
    for issue in issues_of(ctx, kind):
        ctx.report(code, issue.span, issue.message)
