"""SB320: `srun` in a job with `--cpus-per-task` on the releases where it does not inherit it.

`man sbatch` (22.05), `--cpus-per-task`: "Beginning with 22.05, srun will not
inherit the --cpus-per-task value requested by salloc or sbatch. It must be
requested again with the call to srun or set with the SRUN_CPUS_PER_TASK
environment variable"; 23.11 reads `SLURM_CPUS_PER_TASK` again (gate
``SRUN_INHERITS_CPUS``).
"""

from __future__ import annotations


from slurmspec.body.programs import TRIVIAL_COMMANDS
from slurmspec.body.variable_launch import variable_sruns
from slurmspec.body.wrappers import basename
from slurmspec.gates import SRUN_INHERITS_CPUS
from slurmspec.kinds import LaunchKind, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.lazy_regex import lazy_compile
from slurmspec.model.views.launch_steps import step_geometry
from slurmspec.version import format_version


@rule("SB320", "srun-cpus-per-task-not-inherited", Severity.WARNING, Outcome.WRONG)
def srun_cpus_per_task_not_inherited(ctx: Context) -> None:
    """
    ## What it does
    On Slurm 22.05 and 23.02, finds an `srun` line in a job with `--cpus-per-task` above 1
    that neither passes `-c`/`--cpus-per-task` itself nor follows an
    `export SRUN_CPUS_PER_TASK=...`, also when `srun` is run through a variable whose value
    is certain (`RUN="srun --mpi=pmix"` then `$RUN ./app`). Steps that only inspect or move
    files (`srun hostname`, `srun nvidia-smi`) use one CPU anyway and are left alone.

    ## Why is this bad?
    In these releases `srun` stopped reading `SLURM_CPUS_PER_TASK`: the step's tasks get one
    CPU each, so threaded programs (OpenMP, data loaders) run on a single core. 23.11
    restored the inheritance.

    ## Example
    ```sbatch 22.05
    #!/bin/bash
    #SBATCH --ntasks=4
    #SBATCH --cpus-per-task=8
    #SBATCH --time=01:00:00
    srun ./solver
    ```

    ## Use instead
    ```sbatch 22.05
    #!/bin/bash
    #SBATCH --ntasks=4
    #SBATCH --cpus-per-task=8
    #SBATCH --time=01:00:00
    export SRUN_CPUS_PER_TASK=$SLURM_CPUS_PER_TASK
    srun ./solver
    ```

    ## Slurm versions
    22.05 and 23.02 only (the Example triggers only with `--slurm-version 22.05` or
    `23.02`).

    ## References
    - `man sbatch` (22.05), `--cpus-per-task` ("Beginning with 22.05, srun will not inherit
      the --cpus-per-task value requested by salloc or sbatch")
    - Slurm 22.05 `RELEASE_NOTES` ("srun will no longer read in SLURM_CPUS_PER_TASK"); 23.11
      reads it again
    - reframe-hpc/reframe#2655; snakemake-executor-plugin-slurm#41
    """
    if ctx.version >= SRUN_INHERITS_CPUS:
        return
    script = ctx.script
    # Where the first assignment is: an srun after it reads the variable (one comparison per srun).
    first_set = min((a.span.start for a in script.body.exports if a.name == "SRUN_CPUS_PER_TASK"), default=None)
    for launch in script.body.all_launches():
        if launch.kind != LaunchKind.SRUN or launch.has("cpus-per-task"):
            continue
        if any(a.name == "SRUN_CPUS_PER_TASK" for a in launch.env):
            continue
        if first_set is not None and first_set < launch.span.start:
            continue
        if basename(launch.program or "") in TRIVIAL_COMMANDS:
            continue  # `srun hostname`: one thread whatever it gets
        if step_geometry(ctx, launch) is None:
            continue  # several hetjob components, or one given by a variable
        comp = 0
        het = launch.value("het-group")
        if het is not None and het.isdigit() and int(het) < len(script.components):
            comp = int(het)
        setting = script.components[comp].request.get("cpus-per-task")
        cpt = None if setting is None else setting.count()
        if cpt is None or cpt < 2:
            continue
        ctx.report(
            "SB320", launch.command_span,
            f"on Slurm {format_version(ctx.version)} `srun` does not inherit `--cpus-per-task={setting.raw}`"
            f" from the job: each task gets 1 CPU. Add `-c {setting.raw}` (or `-c \"$SLURM_CPUS_PER_TASK\"`)"
            f" to this line, or `export SRUN_CPUS_PER_TASK=$SLURM_CPUS_PER_TASK` before it",
        )
    _through_variables(ctx, first_set)


_CPU_WORD = lazy_compile(r"(?:^|\s)(?:-c|--cpus-per-task|--cpus-per|--cpus-p|--cpus|--cpu)(?:[=\s\d]|$)")


def _through_variables(ctx: Context, first_set: int | None) -> None:
    """`RUN="srun --mpi=pmix"; $RUN ./app`: the same srun, where the variable's value is certain."""
    script = ctx.script
    if len(script.components) != 1:
        return
    setting = script.components[0].request.get("cpus-per-task")
    component = ctx.job.component(0)
    if setting is None or component is None or not component.cpus_per_task or component.cpus_per_task < 2:
        return
    for hidden in variable_sruns(script.source, script.body, script.span):
        if first_set is not None and first_set < hidden.span.start:
            continue
        options, program = _srun_options(hidden.rest.split())
        if _CPU_WORD.search(" ".join((*hidden.words, *options))) or basename(program) in TRIVIAL_COMMANDS:
            continue
        ctx.report(
            "SB320", hidden.span,
            f"`${hidden.name}` runs `{' '.join(hidden.words)}` (line {hidden.assignment.span.line}), and on Slurm"
            f" {format_version(ctx.version)} `srun` does not inherit `--cpus-per-task={setting.raw}` from the"
            f" job: each task gets 1 CPU. Add `-c {setting.raw}` to `{hidden.name}`, or"
            " `export SRUN_CPUS_PER_TASK=$SLURM_CPUS_PER_TASK` before this line",
        )


def _srun_options(words: list[str]) -> tuple[list[str], str]:
    """The srun options that lead ``words`` (an option's separate value counted with it), and the program."""
    options: list[str] = []
    takes_value = False
    for word in words:
        if word.startswith("-"):
            options.append(word)
            takes_value = "=" not in word
        elif takes_value:
            options.append(word)
            takes_value = False
        else:
            return options, word
    return options, ""
