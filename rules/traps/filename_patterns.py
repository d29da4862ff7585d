"""SB234–SB236, SB238, SB240: `--output`/`--error`/`--input` names that Slurm reads otherwise than meant.

sbatch stores the file name verbatim; slurmstepd expands its `%` patterns on
the compute node (`src/slurmd/common/fname.c:fname_create()`; in 26.05
`src/common/print_fields.c:expand_stdio_fields()`): unknown letters stay
literal, any backslash turns off all expansion (`remove_path_slashes()`), a
name made only of digits is a task number (`fname_single_task_io()`), widths
above 10 are capped (`MAX_WIDTH`), and an empty value falls back to the
default. The typed ``FilenamePattern`` value lists these as accepted
(``rejected=False``) problems; one checker sorts them into the five codes.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.request_facts import file_settings
from slurmspec.model.values.filename import FilenamePattern


@rule("SB234", "unknown-filename-pattern", Severity.WARNING, Outcome.WRONG)
def unknown_filename_pattern(ctx: Context) -> None:
    """
        ## What it does
        Finds `%` sequences in `--output`, `--error` and `--input` that Slurm does not expand:
        unknown letters (`%q`), a `%` at the end, and letters that are newer than the target
        Slurm version (`%b` before 24.11, `%r`/`%S` before 25.11).

        ## Why is this bad?
        Unknown sequences are copied literally, so the file is called `run-%q.out`, and every
        job writes to the same file. Write `%%` for a literal percent sign.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --output=run-%i.out
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --output=run-%j.out
        srun ./app
        ```

        ## Slurm versions
        All; the set of letters grows in 24.11 (`%b`) and 25.11 (`%r`, `%S`).

        ## References
        - `man sbatch`, filename pattern
    """
    ctx.shared(_check)


@rule("SB235", "backslash-in-filename", Severity.WARNING, Outcome.WRONG)
def backslash_in_filename(ctx: Context) -> None:
    """
        ## What it does
        Finds a backslash in an `--output`, `--error` or `--input` name that also uses `%`
        patterns.

        ## Why is this bad?
        Any backslash turns off all `%` expansion for the whole name (`remove_path_slashes()`):
        the file is called `job-%j.out` literally and the backslash is dropped.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --output=logs\\\\job-%j.out
        srun ./app
        ```

        (sbatch's directive reader turns `\\\\` into one backslash; a single `\\` escapes
        the next character and disappears.)

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --output=logs/job-%j.out
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, filename pattern ("If the filename contains a backslash ...")
    """
    ctx.shared(_check)


@rule("SB236", "numeric-filename", Severity.WARNING, Outcome.WRONG)
def numeric_filename(ctx: Context) -> None:
    """
        ## What it does
        Finds `--output`, `--error` or `--input` values made only of digits.

        ## Why is this bad?
        A number is read as a task id ("single task" I/O, `fname_single_task_io()`): only that
        task's output is kept. The batch script is task 0, so any other number sends its output
        to `/dev/null`, and no file of that name is ever written.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --output=2024
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --output=2024.out
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/slurmd/common/fname.c:fname_single_task_io()`
    """
    ctx.shared(_check)


@rule("SB238", "filename-pattern-padding", Severity.INFO, Outcome.ADVICE)
def filename_pattern_padding(ctx: Context) -> None:
    """
        ## What it does
        Finds padding in a `%` pattern that does not do what it says: a width above 10, which
        Slurm caps at 10, or a width on a non-numeric pattern (`%5x`, `%3u`), which is ignored.

        ## Why is this bad?
        The file name differs from the one you expect to find.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --output=job-%12j.out
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --output=job-%10j.out
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/slurmd/common/fname.c` (`MAX_WIDTH`)
    """
    ctx.shared(_check)


@rule("SB240", "empty-filename", Severity.WARNING, Outcome.WRONG)
def empty_filename(ctx: Context) -> None:
    """
        ## What it does
        Finds an empty `--output`, `--error` or `--input` value (`--output=`).

        ## Why is this bad?
        sbatch accepts it and falls back to the default, `slurm-%j.out` in the submit directory,
        which is rarely what an explicit line meant; often a variable was meant to be there.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --output=
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --output=job-%j.out
        srun ./app
        ```

        ## Slurm versions
        All (checked against sbatch 22.05.8).

        ## References
        - `src/common/slurm_opt.c:arg_set_output()`
    """
    ctx.shared(_check)


def _classify(text: str, pattern: FilenamePattern | None, problem) -> str | None:
    """The rule code of one accepted-but-suspicious filename problem."""
    start, end = problem.start, problem.end
    if text == "":
        return "SB240"
    if "\\" in text and text[start:end] == "\\":
        return "SB235"
    if text.isascii() and text.isdigit():
        return "SB236"
    for token in pattern.tokens if pattern is not None else ():
        if token.start == start and token.end == end:
            if not token.known:
                return "SB234"
            return "SB238"
    if text[start:start + 1] == "%":
        return "SB234"  # a lone `%` at the end
    return None


def _capital(message: str) -> str:
    return message[:1].upper() + message[1:] if message[:1].isalpha() else message


def _check(ctx: Context) -> None:
    for _component, setting in file_settings(ctx):
        directive = setting.directive
        if directive.typed is None:
            continue
        pattern = directive.value_as(FilenamePattern)
        text = directive.value if directive.value is not None else ""
        option = "--" + setting.name
        for problem in directive.typed.problems:
            if problem.rejected:
                continue
            code = _classify(text, pattern, problem)
            if code is None:
                continue
            span = ctx.script.span_in_value(directive, problem.start, problem.end)
            if code == "SB240":
                ctx.report(code, directive.span,
                           f"`{option}` is empty; sbatch ignores it and the job writes to the default"
                           " `slurm-%j.out`. Give a file name or remove the line")
            elif code == "SB235":
                ctx.report(code, span,
                           f"a backslash in `{option}` turns off every `%` pattern in the name: the"
                           " `%` sequences are written literally (the backslash itself is dropped)."
                           " Remove the backslash")
            elif code == "SB236":
                target = "`/dev/null`" if text.strip("0") else "task 0 only"
                ctx.report(code, span,
                           f"`{option}={text}` is read as a task number, not a file name: the batch"
                           f" script's {'input comes from' if setting.name == 'input' else 'output goes to'}"
                           f" {target}. Use a name such as `{text}.out`")
            else:  # SB234, SB238: the typed value's own message
                ctx.report(code, span, _capital(problem.message))
