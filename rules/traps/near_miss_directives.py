"""SB202: header comments that look like directives but are not (`# SBATCH`, `#sbatch`).

sbatch reads a line as a directive only when it starts, at column 1 and in
upper case, with `#SBATCH` (`xstrncmp(line, "#SBATCH", 7)` in
`src/sbatch/opt.c:_opt_batch_script()`); every other spelling is a comment,
silently ignored. The fix writes `#SBATCH` at the start of the line when the
words would then read cleanly and set nothing another directive sets.
"""

from __future__ import annotations

import re

from slurmspec.fix.build import make_fix, reads_cleanly, replace
from slurmspec.fix.edit import Fix
from slurmspec.kinds import Applicability, Fixability, Outcome, Severity
from slurmspec.lint.context import Context
from slurmspec.lint.rule import rule
from slurmspec.model.script import LineKind, Script
from slurmspec.rules.traps._header import OPTION_WORD, clip


@rule("SB202", "near-miss-directive", Severity.WARNING, Outcome.WRONG, fix=Fixability.SOMETIMES)
def near_miss_directive(ctx: Context) -> None:
    """
        ## What it does
        Finds header comments that look like directives but are not: `# SBATCH --time=10`,
        `#sbatch -N 2`, `#Sbatch ...`, or an indented `  #SBATCH ...`. Deliberately disabled
        lines (`##SBATCH`, `# #SBATCH`) and usage notes such as `# sbatch job.sh` are not
        reported.

        ## Why is this bad?
        sbatch only reads a line that starts, at column 1 and in upper case, with `#SBATCH`.
        Everything else is a plain comment: the option is silently not applied.

        ## Example
        ```sbatch
        #!/bin/bash
        # SBATCH --time=02:00:00
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=02:00:00
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/sbatch/opt.c:_opt_batch_script()` (`xstrncmp(line, "#SBATCH", 7)`)
    """
    script = ctx.script
    for line in script.lines:
        if line.kind == LineKind.NEAR_MISS and line.span.start < script.header_end:
            _check_near_miss(ctx, line)


def _only_options(words: list[str]) -> bool:
    """True when ``words`` read like directive options (no script names or prose)."""
    if not words or not OPTION_WORD.match(words[0]):
        return False
    expecting_value = False
    for word in words:
        if OPTION_WORD.match(word):
            expecting_value = "=" not in word and not (word[1] != "-" and len(word) > 2)
            continue
        if word.startswith("#"):
            return True  # a trailing comment
        if not expecting_value:
            return False
        expecting_value = False
    return True


_NEAR_MISS = re.compile(r"([ \t\v\f\r]*)(#[# \t\v\f\r]*?)(sbatch)(.*)", re.IGNORECASE | re.S)


def _check_near_miss(ctx: Context, line) -> None:
    match = _NEAR_MISS.match(line.text)
    if match is None:
        return
    indent, hashes, word, rest = match.groups()
    if hashes.count("#") > 1:
        return  # "##SBATCH", "# #SBATCH": a directive disabled on purpose
    spaced = hashes != "#"
    if rest[:1] not in ("", " ", "\t", "-"):
        return  # "#SBATCHED", "# sbatchrc": another word
    if not _only_options(rest.split()):
        return  # "# sbatch train.sh", "# SBATCH options:": a note, not a directive
    if word == "sbatch" and spaced:
        return  # "#   sbatch --gres=gpu:4 train.sbatch": a usage note, not a directive
    if indent:
        why = "it is indented (only `#SBATCH` at the very start of a line counts)"
    elif word != "SBATCH":
        why = f"`{word}` is not `SBATCH` (the prefix is case-sensitive)"
    else:
        why = "of the blank between `#` and `SBATCH`"
    start = line.span.start + len(indent)
    end = start + len(hashes) + len(word)
    ctx.report(
        "SB202", ctx.script.span(start, end),
        f"`{clip(line.text.strip(), 50)}` is not a directive because {why}; sbatch silently"
        " ignores the line. Write `#SBATCH` at column 1 (or `##SBATCH` to disable it on"
        " purpose)",
        fix=near_miss_to_directive(ctx.script, line, end, rest),
    )


def near_miss_to_directive(script: Script, line, prefix_end: int, rest: str) -> Fix | None:
    """Write `#SBATCH` at column 1 in place of `# SBATCH`, `#sbatch`, an indented one.

    Unsafe: the line may have been disabled on purpose (the rule already leaves
    `##SBATCH` alone), and it starts asking for what it says.
    """
    if not reads_cleanly(rest, script.version, script, (line.span.start, line.span.end)):
        return None
    return make_fix("Make it a directive: `#SBATCH` at the start of the line",
                    [replace(script, line.span.start, prefix_end, "#SBATCH")], Applicability.UNSAFE, reveals=True)
