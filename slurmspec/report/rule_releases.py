"""Which Slurm releases each rule applies to, for ``docs/rules.md``.

A rule applies to a release when its own documented Example triggers it with
that release as the target (``--slurm-version``): the Example is the case the
rule exists for, and the rules read every version difference through the named
gates of ``slurmspec/gates.py``, so this is measured, never restated by hand.
Rules whose Example needs more than the script -- a cluster profile or site
policy (SB4xx), a file over the size limit (SB106), slurmspec's own comments
(SB9xx) -- apply to every release once that is given; the table says so.
"""

from __future__ import annotations

import re

from slurmspec.kinds import Family
from slurmspec.check.rule import Rule, doc_sections
from slurmspec.version import SUPPORTED, Version, parse_version

_BLOCK = re.compile(r"```sbatch[^\n]*\n(.*?)```", re.S)


def applies_to(rule: Rule) -> tuple[Version, ...]:
    """The supported releases on which one of the rule's Example scripts triggers it."""
    from slurmspec.lint import lint_text

    examples = [body for heading, text in doc_sections(rule.doc) if heading == "Example"
                for body in _BLOCK.findall(text)]
    examples = [e.replace("\\r", "\r").replace("\\x00", "\x00") for e in examples]
    found = []
    for release in SUPPORTED:
        version = parse_version(release)
        if any(rule.code in {d.code for d in lint_text(text, version=version)} for text in examples):
            found.append(version)
    return tuple(found)


def releases_text(rule: Rule) -> str:
    """``all``, ``23.02+``, ``22.05–23.02``, ``26.05``; or why the Example alone cannot show it."""
    versions = applies_to(rule)
    if not versions:
        if rule.family is Family.CLUSTER:
            return "all (needs a cluster profile)"
        return "all"
    names = [f"{v[0]:02d}.{v[1]:02d}" for v in versions]
    indexes = [SUPPORTED.index(n) for n in names]
    runs: list[list[int]] = []
    for i in indexes:
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    if runs == [list(range(len(SUPPORTED)))]:
        return "all"
    parts = []
    for run in runs:
        first, last = SUPPORTED[run[0]], SUPPORTED[run[-1]]
        if len(run) == 1:
            parts.append(first)
        elif run[-1] == len(SUPPORTED) - 1:
            parts.append(f"{first}+")
        else:
            parts.append(f"{first}–{last}")
    return ", ".join(parts)
