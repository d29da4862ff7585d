"""Site plugin options: what the cluster profile says of an option a stock sbatch does not know.

A SPANK plugin adds its options to sbatch's getopt table (src/common/spank.c), so on the site
that installs it sbatch accepts them, with their values; everywhere else sbatch refuses them
("unrecognized option", stopping at the option itself). The profile's ``plugin-options``
(``cluster import`` reads them from the site's ``sbatch --help``) settles which it is.
"""

from __future__ import annotations

from slurmspec.kinds import IssueKind
from slurmspec.check.context import Context
from slurmspec.model.syntax.script import ParseIssue

UNKNOWN_KINDS = (IssueKind.UNKNOWN_OPTION, IssueKind.PLUGIN_OPTION)


def option_name(ctx: Context, issue: ParseIssue) -> str:
    """The option's name as written, without ``--`` (the issue spans ``--name``)."""
    return ctx.script.source[issue.span.start:issue.span.end].removeprefix("--")


def site_provides(ctx: Context, issue: ParseIssue) -> bool | None:
    """Whether the profile's site plugins provide the issue's option (None: no profile, or it does not say)."""
    if ctx.cluster is None or issue.kind not in UNKNOWN_KINDS:
        return None
    return ctx.cluster.plugin_option(option_name(ctx, issue))


def site_values(ctx: Context) -> frozenset[int]:
    """Start offsets of the words that are the value of a site plugin's option (``--foo bar`` where the
    profile lists ``--foo=ARG``): on that site they are the plugin's, not stray words. Once per script."""
    return ctx.shared(_site_values)


def _site_values(ctx: Context) -> frozenset[int]:
    starts: set[int] = set()
    if ctx.cluster is None or not ctx.cluster.plugin_options:
        return frozenset()
    for issue in ctx.script.issues:
        if issue.ignored or site_provides(ctx, issue) is not True:
            continue
        name = option_name(ctx, issue)
        if "=" in name or not ctx.cluster.plugin_takes_value(name):
            continue
        dline = ctx.script.directive_line_at(issue.span.start)
        if dline is None:
            continue
        following = [w for w in dline.words if w.span.start >= issue.span.end]
        if following:
            starts.add(following[0].span.start)
    return frozenset(starts)
