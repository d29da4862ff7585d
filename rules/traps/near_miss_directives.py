"""SB202: header comments that look like directives but are not (`#sbatch`, `#SBTACH`, `# SBATCH`).

sbatch reads a line as a directive only when it starts, at column 1 and in
upper case, with `#SBATCH` (`xstrncmp(line, "#SBATCH", 7)` in
`src/sbatch/opt.c:_opt_batch_script()`); every other spelling is a comment,
silently ignored. The fix writes `#SBATCH` at the start of the line when the
words would then read cleanly and set nothing another directive sets.

`# SBATCH` (a blank after the `#`) is also how many people switch a directive
off, so it is reported only where the script shows it is not its way of doing
that: every directive of the header is written so, or the script switches
other lines off with `##SBATCH`/`## SBATCH`. A misspelt prefix (`#SBTACH`,
`#SBSTCH`: one letter swapped, wrong, missing or extra) is nobody's way of
switching a line off, and is reported when the rest of the line reads as options.
"""

from __future__ import annotations

import re

from slurmspec.fix.build import make_fix, reads_cleanly, replace
from slurmspec.fix.edit import Fix
from slurmspec.kinds import Applicability, Fixability, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.syntax.script import LineKind, Script
from slurmspec.rules.traps._header import OPTION_WORD, clip


@rule("SB202", "near-miss-directive", Severity.WARNING, Outcome.WRONG, fix=Fixability.SOMETIMES)
def near_miss_directive(ctx: Context) -> None:
    """
        ## What it does
        Finds header comments that look like directives but are not: `#sbatch -N 2`,
        `#Sbatch ...`, an indented `  #SBATCH ...`, a misspelt prefix (`#SBTACH -c 4`,
        `#SBSTCH --partition=gpu`: one letter swapped, wrong, missing or extra), and
        `# SBATCH --time=10` where the script does not use that spelling to switch lines
        off (all its directives are written so, or it switches others off with `##SBATCH`).
        Deliberately disabled lines (`##SBATCH`, `# #SBATCH`, a `# SBATCH` among real
        `#SBATCH` lines) and usage notes such as `# sbatch job.sh` are not reported.

        ## Why is this bad?
        sbatch only reads a line that starts, at column 1 and in upper case, with `#SBATCH`.
        Everything else is a plain comment: the option is silently not applied.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBTACH --cpus-per-task=4
        #SBATCH --time=02:00:00
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --cpus-per-task=4
        #SBATCH --time=02:00:00
        srun ./app
        ```

        ## Slurm versions
        All (a misspelt prefix measured ignored on 22.05 and 24.11).

        ## References
        - `src/sbatch/opt.c:_opt_batch_script()` (`xstrncmp(line, "#SBATCH", 7)`)
    """
    script = ctx.script
    header = [line for line in script.lines if line.span.start < script.header_end]
    blank_is_meant = _blank_variant_is_meant(header)
    for line in header:
        if line.kind == LineKind.NEAR_MISS:
            _check_near_miss(ctx, line, blank_is_meant)
        elif line.kind == LineKind.COMMENT:
            _check_misspelt(ctx, line)


_DISABLED = re.compile(r"#[ \t]*#+[ \t]*SBATCH\b")
_BLANK_VARIANT = re.compile(r"#[ \t]+SBATCH[ \t]+-")


def _blank_variant_is_meant(header) -> bool:
    """Does the script write `# SBATCH` meaning a directive (not as its way of switching one off)?

    Yes when every directive of the header is written so (two or more, none
    `#SBATCH`), or when it switches other lines off another way (`##SBATCH`,
    `## SBATCH`, `# #SBATCH`): then a single `#` with a blank is not its off switch.
    Judged on ``../shared/corpus/real``: a lone `# SBATCH` among `#SBATCH` lines is
    a line switched off far more often than a slip.
    """
    real = sum(1 for line in header if line.kind == LineKind.DIRECTIVE)
    blank = sum(1 for line in header if _BLANK_VARIANT.match(line.text))
    disabled = any(_DISABLED.match(line.text) for line in header)
    return disabled or (real == 0 and blank >= 2)


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


def _check_near_miss(ctx: Context, line, blank_is_meant: bool) -> None:
    match = _NEAR_MISS.match(line.text)
    if match is None:
        return
    indent, hashes, word, rest = match.groups()
    if hashes.count("#") > 1:
        return  # "##SBATCH", "# #SBATCH": a directive disabled on purpose
    spaced = hashes != "#"
    if spaced and word == "SBATCH" and not blank_is_meant:
        return  # "# SBATCH -t 5" among real directives: how this script switches a line off
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


_MISSPELT = re.compile(r"#([A-Za-z]{5,7})(?=[ \t])(.*)", re.S)


def _check_misspelt(ctx: Context, line) -> None:
    """`#SBTACH -c 4`: a prefix one edit away from `SBATCH`, then words that read as options."""
    match = _MISSPELT.match(line.text)
    if match is None:
        return
    word, rest = match.groups()
    if word.upper() == "SBATCH" or not one_edit_apart(word.upper(), "SBATCH"):
        return
    if not rest.split() or not rest.split()[0].startswith("-") or not _only_options(rest.split()):
        return  # "#SBATCHES below", "#BATCH size 32": prose
    end = line.span.start + 1 + len(word)
    ctx.report(
        "SB202", ctx.script.span(line.span.start, end),
        f"`{clip(line.text.strip(), 50)}` is not a directive because `#{word}` is not `#SBATCH`;"
        " sbatch silently ignores the line, so the job runs without it. Write `#SBATCH`",
        fix=near_miss_to_directive(ctx.script, line, end, rest),
    )


def one_edit_apart(word: str, target: str) -> bool:
    """One letter wrong, missing, extra, or two neighbours swapped (optimal string alignment distance 1)."""
    if word == target or abs(len(word) - len(target)) > 1:
        return False
    if len(word) == len(target):
        diff = [i for i, (a, b) in enumerate(zip(word, target)) if a != b]
        if len(diff) == 1:
            return True
        return (len(diff) == 2 and diff[1] == diff[0] + 1
                and word[diff[0]] == target[diff[1]] and word[diff[1]] == target[diff[0]])
    short, long = (word, target) if len(word) < len(target) else (target, word)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def near_miss_to_directive(script: Script, line, prefix_end: int, rest: str) -> Fix | None:
    """Write `#SBATCH` at column 1 in place of `# SBATCH`, `#sbatch`, an indented one.

    Unsafe: the line may have been disabled on purpose (the rule already leaves
    `##SBATCH` alone), and it starts asking for what it says.
    """
    if not reads_cleanly(rest, script.version, script, (line.span.start, line.span.end)):
        return None
    return make_fix("Make it a directive: `#SBATCH` at the start of the line",
                    [replace(script, line.span.start, prefix_end, "#SBATCH")], Applicability.UNSAFE, reveals=True)
