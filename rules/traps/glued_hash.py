"""SB206: an unquoted `#` glued to a word of a directive, which cuts the line short.

`src/sbatch/opt.c:get_argument()` ends a directive line at the first unquoted,
unescaped `#`, even inside a word: `--job-name=run#1 --time=5` names the job
`run` and never reads `--time`. A `#` after a blank is an ordinary comment. The
fix escapes the `#` (`\\#`, which `get_argument()` takes literally) when the
rest of the line then reads cleanly.
"""

from __future__ import annotations

from slurmspec.fix.build import insert, make_fix, reads_cleanly
from slurmspec.fix.edit import Fix
from slurmspec.kinds import Applicability, Fixability, Outcome, Severity, ValueKind
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.syntax.script import DirectiveLine, Script
from slurmspec.rules.traps._header import OPTION_WORD, SPACE, clip, shown


@rule("SB206", "hash-truncates-directive", Severity.WARNING, Outcome.WRONG, fix=Fixability.SOMETIMES)
def hash_truncates_directive(ctx: Context) -> None:
    r"""
        ## What it does
        Finds an unquoted `#` glued to a word of a directive, as in
        `#SBATCH --job-name=run#1 --time=5`, where it cuts the line short.

        ## Why is this bad?
        sbatch treats every unquoted `#` as the start of a comment, even inside a word: the job
        name becomes `run` and `--time=5` is never read. A `#` after a blank (`--time=5 # ten
        minutes`) is an ordinary comment and is not reported.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --job-name=run#1 --time=5
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --job-name="run#1" --time=5
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/sbatch/opt.c:get_argument()` (an unquoted `#` ends the line's words)
    """
    for dline in ctx.script.directive_lines:
        if dline.in_header:
            _check_glued_hash(ctx, dline)


_VALUE_KINDS_WITH_HASH = frozenset({
    ValueKind.STRING, ValueKind.FILENAME, ValueKind.CONSTRAINT, ValueKind.DEPENDENCY, ValueKind.EXPORT,
})


def _check_glued_hash(ctx: Context, dline: DirectiveLine) -> None:
    comment = dline.comment
    if comment is None:
        return
    source = ctx.script.source
    at = comment.start
    line_start = dline.line.span.start + len(dline.prefix)
    if at <= line_start or source[at - 1] in SPACE:
        return  # " # a comment": fine
    dropped = source[at + 1:comment.end].strip()
    if not dropped:
        return
    owner = next((d for d in ctx.script.directives if d.span.end == at and not d.ignored), None)
    has_options = any(OPTION_WORD.match(word) for word in dropped.split())
    glued_value = (
        owner is not None and owner.value is not None
        and (owner.option.kind or ValueKind.STRING) in _VALUE_KINDS_WITH_HASH
        and source[at + 1:at + 2] not in SPACE
    )
    if not (has_options or glued_value):
        return  # "--time=5#ten minutes": just a comment without the blank
    what = f"`{shown(owner)}`" if owner is not None else "the directive"
    lost = f"`{clip(source[at:comment.end], 40)}`"
    if has_options:
        consequence = f"sbatch reads {what} and ignores {lost}, so those options are never set"
    else:
        consequence = f"sbatch reads {what} and drops {lost}"
    ctx.report(
        "SB206", ctx.script.span(at, comment.end),
        f"an unquoted `#` starts a comment even in the middle of a word: {consequence};"
        " quote the value or escape the `#` as `\\#`",
        fix=escape_hash(ctx.script, at, dline.line),
    )


def escape_hash(script: Script, at: int, line) -> Fix | None:
    """`\\#` keeps the `#` and what follows as part of the directive (sbatch's
    get_argument() takes a backslash-escaped character literally). Unsafe: the words
    after it start to count."""
    start = line.span.start + len("#SBATCH")
    escaped = script.source[start:at] + "\\" + script.source[at:line.span.end]
    if not reads_cleanly(escaped, script.version, script, (line.span.start, line.span.end)):
        return None
    return make_fix("Escape the `#` as `\\#` so the rest of the line is read", [insert(script, at, "\\")],
                    Applicability.UNSAFE, reveals=True)
