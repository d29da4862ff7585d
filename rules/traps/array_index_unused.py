"""SB252: an array job whose tasks never read their index.

Every task of `--array=1-12` runs the same script; what tells them apart is
`SLURM_ARRAY_TASK_ID` (and `%a` in `--output`/`--error`): `man sbatch`, `--array`,
OUTPUT ENVIRONMENT VARIABLES. A script that reads neither runs the same work
twelve times, each run writing the same files.

Silent wherever the tasks may still differ: the script mentions `SLURM_ARRAY`
anywhere (a comment saying the program reads it counts), a `%a` pattern, a
per-job value that can seed or name a run (`SLURM_JOB_ID`, `RANDOM`, `$$`), a
sourced file that is not an environment set-up, `exec`, an array of one index
or one the script cannot show literally.
"""

from __future__ import annotations


from slurmspec.body.shell_facts import ShellFacts, shell_facts
from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.lazy_regex import lazy_compile
from slurmspec.model.values.array import ArraySpec

# Anything by which the tasks of an array may differ (or say they do).
# Case matters: `%A` is the array's own job id, the same in every task.
_PER_TASK = lazy_compile(r"SLURM_ARRAY|%a|SLURM_JOB_?ID|\bRANDOM\b|\$\$|\bSLURM_TASK_PID\b|\buuid|%[0-9]*a\b")


def _facts(ctx: Context) -> ShellFacts:
    return shell_facts(ctx.script.source, ctx.script.body.heads)


@rule("SB252", "array-index-unused", Severity.WARNING, Outcome.WRONG)
def array_index_unused(ctx: Context) -> None:
    """
        ## What it does
        Finds an array job (`--array` with more than one index) whose script reads neither
        `$SLURM_ARRAY_TASK_ID` nor a `%a` file pattern, nor anything else that differs
        between its tasks (`$SLURM_JOB_ID`, `$RANDOM`).

        ## Why is this bad?
        Every task of the array runs the same script with the same arguments: twelve
        identical runs that overwrite each other's results, for twelve times the queue time.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --array=1-12
        #SBATCH --time=1:00:00
        srun python fit.py --config config.yaml --out result.csv
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --array=1-12
        #SBATCH --time=1:00:00
        srun python fit.py --config "config-${SLURM_ARRAY_TASK_ID}.yaml" --out "result-${SLURM_ARRAY_TASK_ID}.csv"
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--array` and OUTPUT ENVIRONMENT VARIABLES (`SLURM_ARRAY_TASK_ID`)
        - `man sbatch`, filename pattern `%a`
    """
    script = ctx.script
    if len(script.components) != 1:
        return  # arrays and hetjobs do not mix (SB1xx)
    setting = script.components[0].request.get("array")
    array = None if setting is None else setting.value_as(ArraySpec)
    if array is None or array.count < 2:
        return  # no array, one index, or one the script cannot show literally
    count = array.count
    if _PER_TASK.search(script.source):
        return
    facts = ctx.shared(_facts)
    if facts.replaced or facts.sources_unknown or not script.body.launches and not _has_commands(ctx):
        return
    ctx.report(
        "SB252", setting.directive.span,
        f"`--array={setting.raw}` runs {count} tasks, but the script never reads"
        " `$SLURM_ARRAY_TASK_ID` (nor `%a` in a file name): every task does the same work and"
        " writes the same files. Use the index to pick each task's input and output",
    )


def _has_commands(ctx: Context) -> bool:
    heads = ctx.script.body.heads
    return heads is not None and any(name for name in heads.names)
