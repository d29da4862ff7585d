"""What the site-policy rules (SB460–SB465) share: the policies in effect and the job's partition.

A policy comes from the cluster profile's ``[policy]`` table (``ctx.cluster.policy``)
or from the configuration's (``ctx.policy``); both apply when both are given,
each finding naming the table and file its rule comes from
(``slurmspec/cluster/policy.py``). A policy the site enforces (the default)
is reported as a refusal; ``enforced = false`` (published guidelines) as a
warning.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context


def policies(ctx: Context) -> tuple:
    found = []
    profile = ctx.cluster
    if profile is not None and profile.policy is not None:
        found.append(profile.policy)
    own = ctx.policy
    if own is not None and own not in found:
        found.append(own)
    return tuple(found)


def partition_of(ctx: Context, request) -> str | None:
    """The one partition the job goes to: its ``--partition``, else the profile's default; None for a list."""
    setting = request.get("partition")
    if setting is not None:
        name = setting.value_as(str)
        return name if name and "," not in name else None
    profile = ctx.cluster
    default = profile.default_partition() if profile is not None else None
    return default.name if default is not None else None


def verdict(policy) -> dict:
    """``severity``/``outcome`` for a finding of ``policy``: a refusal when enforced, else a warning."""
    if policy.enforced:
        return {}
    return {"severity": Severity.WARNING, "outcome": Outcome.ADVICE}


def shown(setting) -> str:
    from slurmspec.rules.traps._header import shown as as_written

    return f"`{as_written(setting.directive)}`"


def first_line(ctx: Context):
    """The span findings about something missing point at: the script's first line."""
    script = ctx.script
    line = script.lines[0]
    return script.span(line.span.start, line.span.start + len(line.text))


def consequence(policy) -> str:
    return "the site refuses jobs that break it" if policy.enforced else "the site asks jobs to follow it"
