"""What moving late ``#SBATCH`` lines into the header would make sbatch do (SB201's advice and fix).

A line sbatch ignores after the first command can still be one it refuses once read: a misspelt option
(the parser says so), or an option that conflicts with the header (``--mem`` beside ``--mem-per-cpu``,
``--cpus-per-gpu`` beside ``-c``: "mutually exclusive"). SB201 must not advise a move that turns an
ignored line into a refused script, so the move is tried: the script with the lines moved is read
again and the client-side refusing rules run on it; a refusal it did not have is the move's.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from slurmspec.fix.apply import apply_edits
from slurmspec.check.context import Context
from slurmspec.model.syntax.script import DirectiveLine, Script

# Past this many late lines they are tried together only (each try re-reads the script).
_ONE_BY_ONE = 16


def refused_once_moved(ctx: Context, lines: Sequence[DirectiveLine], move) -> dict[int, str]:
    """id(line) -> the first refusal that moving it into the header (``move(script, lines)``, a Fix)
    would bring, for those of ``lines`` whose move brings one."""
    if not lines:
        return {}
    script = ctx.script
    before = Counter(key for key, _ in _refusals(ctx, script, script.source))
    together = _new(ctx, script, move(script, list(lines)), before)
    if together is None:
        return {}
    if len(lines) > _ONE_BY_ONE:
        return {id(line): together for line in lines}
    found = {}
    for line in lines:
        alone = _new(ctx, script, move(script, [line]), before)
        if alone is not None:
            found[id(line)] = alone
    return found


def _refusals(ctx: Context, script: Script, text: str) -> list[tuple[tuple[str, str], str]]:
    """((code, the text it points at), message) of each refusal in ``text`` read as a script: moving lines
    renumbers the rest, so a finding is known by its rule and its text."""
    from slurmspec.parser.script import parse_script

    again = parse_script(text, script.path, script.version)
    return [((d.code, again.source[d.span.start:d.span.end]), d.message) for d in ctx.refusals_in(again)]


def _new(ctx: Context, script: Script, fix, before: Counter) -> str | None:
    """The first refusal the fix's text has that ``before`` does not (more of), as "CODE: message"."""
    after = _refusals(ctx, script, apply_edits(script.source, fix.edits))
    seen: Counter = Counter()
    for key, message in after:
        seen[key] += 1
        if seen[key] > before[key]:
            return f"{key[0]}: {message}"
    return None
