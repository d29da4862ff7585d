"""SB233, SB237, SB239: `%` patterns in `--output`/`--error` that expand otherwise than meant for the batch step.

The batch script's files belong to the batch step: one task on the first node
of the job (`src/slurmd/common/fname.c:_create_batch_fname()`). So `%t` and `%n`
are always `0` and `%N` is the first node's name; outside an array `%a` is
`NO_VAL` (`4294967294`); and in an array every task expands the name itself,
so a name without a per-task pattern is shared by all tasks. One checker
reads the patterns' tokens and reports the three codes.
"""

from __future__ import annotations

import re

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.request_facts import file_settings, may_span
from slurmspec.model.values.filename import FilenamePattern

_PER_TASK_ARRAY = frozenset("ajJb")  # specs that differ between array tasks
_ARRAY_VARS = re.compile(r"SLURM_ARRAY_(TASK|JOB)_ID")


@rule("SB233", "array-index-without-array", Severity.WARNING, Outcome.WRONG)
def array_index_without_array(ctx: Context) -> None:
    """
        ## What it does
        Finds `%a` (array task id) and `%b` (task id modulo 10) in `--output` or `--error` of a
        job that is not an array job. A script whose body reads `SLURM_ARRAY_TASK_ID` or
        `SLURM_ARRAY_JOB_ID` is taken to be submitted with `sbatch --array=...` and is not reported.

        ## Why is this bad?
        Outside an array the task id is `NO_VAL`, so `%a` expands to `4294967294`. (`%A` is fine:
        for a plain job it is the job id.) If you submit the script with `sbatch --array=...`
        on the command line, move `--array` into the script so it documents itself.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --output=train-%a.out
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --output=train-%j.out
        srun ./app
        ```

        ## Slurm versions
        All; `%b` exists from 24.11.

        ## References
        - `man sbatch`, filename pattern
        - `src/slurmd/common/fname.c`
    """
    ctx.shared(_check)


@rule("SB237", "task-pattern-in-batch-output", Severity.WARNING, Outcome.WRONG)
def task_pattern_in_batch_output(ctx: Context) -> None:
    """
        ## What it does
        Finds `%t` (task id) and `%n` (node id) in `--output`/`--error` of the batch script, and
        `%N` (host name) as `info` in a job that may span several nodes.

        ## Why is this bad?
        These files belong to the batch step, a single task on the first node: `%t` and `%n` are
        always `0` and `%N` is the first node's name. Output of every `srun` task still goes to
        that one file. For one file per task, give the pattern to the step:
        `srun --output=task-%t.out ...`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=8
        #SBATCH --output=rank-%t.out
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=8
        #SBATCH --output=job-%j.out
        srun --output=rank-%t.out ./app
        ```

        ## Slurm versions
        All; 26.05 documents `%N` as the first node of the step.

        ## References
        - `man sbatch`, filename pattern
    """
    ctx.shared(_check)


@rule("SB239", "array-tasks-share-output", Severity.WARNING, Outcome.WRONG)
def array_tasks_share_output(ctx: Context) -> None:
    """
        ## What it does
        Finds a job array with more than one task whose `--output` or `--error` name has no
        pattern that differs between tasks (`%a`, `%j`, `%J` or `%b`).

        ## Why is this bad?
        Every task opens the same file; with the default `--open-mode=truncate` each task wipes
        the log of the previous one, and tasks running at the same time interleave their lines.
        `%A` alone is the same for all tasks.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --array=1-20
        #SBATCH --output=sweep-%A.out
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --array=1-20
        #SBATCH --output=sweep-%A_%a.out
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--array` and filename pattern
    """
    ctx.shared(_check)


def _array_count(component) -> int | None:
    from slurmspec.model.values.array import ArraySpec

    array = component.request.value_as("array", ArraySpec)
    return None if array is None else array.count


def _check(ctx: Context) -> None:
    for component, setting in file_settings(ctx):
        directive = setting.directive
        pattern = directive.value_as(FilenamePattern)
        if pattern is None or setting.name == "input" or pattern.is_none or pattern.escaped:
            continue
        _check_tokens(ctx, component, setting, pattern)


def _check_tokens(ctx: Context, component, setting, pattern) -> None:
    directive = setting.directive
    option = "--" + setting.name
    array = component.request.has("array")
    # A body that reads SLURM_ARRAY_TASK_ID is meant for `sbatch --array=...` on the command line.
    array_on_cli = not array and bool(_ARRAY_VARS.search(ctx.script.source, ctx.script.header_end))
    for token in pattern.tokens:
        if not token.known:
            continue
        span = ctx.script.span_in_value(directive, token.start, token.end)
        piece = pattern.text[token.start:token.end]
        if token.spec in ("a", "b") and not array and not array_on_cli:
            ctx.report(
                "SB233", span,
                f"`{piece}` in `{option}` is the array task id, but this is not an array job: it"
                " expands to `4294967294`. Use `%j` for the job id, or add `--array`",
            )
        elif token.spec in ("t", "n"):
            what = "task id" if token.spec == "t" else "node id"
            ctx.report(
                "SB237", span,
                f"`{piece}` ({what}) in `{option}` is always `0`: the file belongs to the batch"
                " step, which is one task on the first node; per-task files need"
                f" `srun {option}=...` on the step",
            )
        elif token.spec == "N" and may_span(ctx)[0]:
            ctx.report(
                "SB237", span,
                f"`{piece}` in `{option}` is the host name of the first node only: the batch"
                " step runs there, so one file is written, not one per node",
                severity=Severity.INFO, outcome=Outcome.ADVICE,
            )
    count = _array_count(component)
    if array and (count is None or count > 1) and setting.name in ("output", "error"):
        if not any(t.known and t.spec in _PER_TASK_ARRAY for t in pattern.tokens):
            ctx.report(
                "SB239", directive.value_span or directive.span,
                f"every task of this job array writes to the same `{option}` file `{pattern.text}`,"
                " so the tasks overwrite each other's logs. Add `%a` (task id) or `%A_%a`",
            )
