"""SB207: `$VAR`, `${VAR}`, `$(...)`, backticks or `~` in a `#SBATCH` value, which nothing expands.

sbatch splits directive lines itself (`src/sbatch/opt.c:get_argument()`),
without a shell: the value is taken literally. In `--output`/`--error`/
`--input` the job variables that have a file name pattern become that pattern
(a safe fix: the same file name); anything else gets a display-only fix that
says what to do.
"""

from __future__ import annotations


from slurmspec.fix.build import replace
from slurmspec.fix.edit import Fix
from slurmspec.kinds import Applicability, Fixability, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.lazy_regex import lazy_compile
from slurmspec.model.syntax.script import Directive, Script
from slurmspec.rules.traps._header import clip, shown

_EXPANSION = lazy_compile(
    r"\$\{[^}]*\}?|\$\([^)]*\)?|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9]|`[^`]*`?|(?:(?<=^)|(?<=[=:,]))~[A-Za-z0-9_]*(?=/|$|,|:)"
)
_PATH_OPTIONS = frozenset({"output", "error", "input", "chdir"})


@rule("SB207", "shell-expansion-in-directive", Severity.WARNING, Outcome.WRONG, fix=Fixability.ALWAYS)
def shell_expansion_in_directive(ctx: Context) -> None:
    """
        ## What it does
        Finds `$VAR`, `${VAR}`, `$(...)`, backticks and a leading `~` in `#SBATCH` values.

        ## Why is this bad?
        sbatch reads `#SBATCH` lines itself, without a shell, so nothing is expanded:
        `--output=$HOME/logs/%j.out` writes into a directory literally named `$HOME` under the
        submit directory (or fails when it does not exist), and `--account=$PROJECT` asks for an
        account called `$PROJECT`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --output=$HOME/logs/%j.out
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --output=logs/%j.out
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/sbatch/opt.c:get_argument()`: directive words are split by sbatch itself, with
          quotes and `\\` escapes but no shell expansion
        - Pass computed values on the command line instead: `sbatch --account="$PROJECT" job.sh`
    """
    for directive in ctx.script.directives:
        if not directive.ignored:
            _check_expansion(ctx, directive)


def _check_expansion(ctx: Context, directive: Directive) -> None:
    value = directive.value
    if not value or ("$" not in value and "`" not in value and "~" not in value):
        return
    match = _EXPANSION.search(value)
    if match is None:
        return
    token = match.group()
    if directive.option.long in _PATH_OPTIONS:
        effect = f"it names a directory literally called `{token}`"
        if directive.option.long != "chdir":
            effect += "; use a relative path or a `%` pattern such as `%u` or `%x` instead"
        else:
            effect += "; use an absolute path"
    else:
        effect = "the option gets the literal text; write the value out, or pass it on the sbatch command line"
    ctx.report(
        "SB207", ctx.script.span_in_value(directive, match.start(), match.end()),
        f"`{clip(token, 30)}` in `{shown(directive)}` is not expanded: sbatch reads `#SBATCH`"
        f" lines itself, without a shell, so {effect}",
        fix=expansion_to_pattern(ctx.script, directive, directive.option.long in ("output", "error", "input")),
    )


# Job variables in a file name and the `%` pattern sbatch expands to the same value
# (man sbatch, "filename pattern"); everything else has no pattern.
_PATTERNS = {
    "SLURM_JOB_ID": "%j", "SLURM_JOBID": "%j", "SLURM_ARRAY_JOB_ID": "%A", "SLURM_ARRAY_TASK_ID": "%a",
    "USER": "%u", "SLURM_JOB_USER": "%u", "SLURM_JOB_NAME": "%x",
}
_VARIABLE = lazy_compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


def expansion_to_pattern(script: Script, directive, path_option: bool) -> Fix:
    """In `--output`/`--error`/`--input`, job variables become `%` patterns (safe: the
    same file name sbatch would have got from a shell); anything else is display-only."""
    value, span = directive.value or "", directive.value_span
    raw = script.source[span.start:span.end] if span is not None else ""
    if path_option and span is not None and raw == value:
        matches = list(_VARIABLE.finditer(value))
        names = [m.group(1) or m.group(2) for m in matches]
        leftover = _VARIABLE.sub("", value)
        if matches and all(n in _PATTERNS for n in names) and "$" not in leftover and "`" not in leftover:
            edits = [replace(script, span.start + m.start(), span.start + m.end(), _PATTERNS[n])
                     for m, n in zip(matches, names)]
            return Fix(title="Use sbatch's own patterns (" + ", ".join(
                f"`{m.group()}` → `{_PATTERNS[n]}`" for m, n in zip(matches, names)) + ")", edits=edits)
    return Fix(title="Write the value out, or give the option on the sbatch command line where the shell"
                     " expands it: sbatch does not expand `#SBATCH` values", edits=(),
               applicability=Applicability.DISPLAY_ONLY)
