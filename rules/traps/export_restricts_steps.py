"""SB250: `--export` other than `ALL` also restricts the environment of every `srun` step.

sbatch passes a non-`ALL` `--export` on to the job in `SLURM_EXPORT_ENV`, which
`srun` reads as its own `--export` (`man srun`, INPUT ENVIRONMENT VARIABLES);
`man sbatch` (`--export`) advises `export SLURM_EXPORT_ENV=ALL` in the script.
"""

from __future__ import annotations


from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.lazy_regex import lazy_compile
from slurmspec.model.views.request_facts import has_body
from slurmspec.rules.traps._header import show
from slurmspec.kinds import ExportMode, LaunchKind, Outcome, Severity
from slurmspec.model.values.enums import ExportSpec

_EXPORT_FIX = lazy_compile(r"\bSLURM_EXPORT_ENV\b")


@rule("SB250", "export-restricts-steps", Severity.WARNING, Outcome.WRONG)
def export_restricts_steps(ctx: Context) -> None:
    """
        ## What it does
        Finds `--export=NONE`, `--export=NIL` or an explicit variable list (without `ALL`) in a
        script whose body runs `srun` without `export SLURM_EXPORT_ENV=ALL` (or any other change
        to `SLURM_EXPORT_ENV`) before it and without `srun --export=...`. Reported once, at the
        first such `srun`.

        ## Why is this bad?
        sbatch hands the `--export` value to the job in `SLURM_EXPORT_ENV`, and every `srun`
        reads it: the steps start with the same restricted environment, without the `PATH`,
        modules or conda environment the script set up, so programs are not found or the wrong
        libraries load. `man sbatch` advises `export SLURM_EXPORT_ENV=ALL` in the script.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --export=NONE
        module load cuda
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --export=NONE
        module load cuda
        export SLURM_EXPORT_ENV=ALL
        srun ./app
        ```

        ## Slurm versions
        All; `--export=NIL` exists from 23.02.

        ## References
        - `man sbatch`, `--export`
        - `man srun`, INPUT ENVIRONMENT VARIABLES, `SLURM_EXPORT_ENV`
    """
    if not has_body(ctx):
        return
    setting = ctx.script.components[0].request.get("export") if ctx.script.components else None
    export = None if setting is None else setting.value_as(ExportSpec)
    if export is None or export.mode is ExportMode.ALL or (export.mode is ExportMode.LIST and export.include_all):
        return
    for launch in ctx.script.body.all_launches():
        if launch.kind != LaunchKind.SRUN or launch.under_srun:
            continue
        if launch.has("export") or any(a.name == "SLURM_EXPORT_ENV" for a in launch.env):
            continue
        if _EXPORT_FIX.search(ctx.script.source, ctx.script.header_end, launch.span.start):
            return  # the script sets or unsets SLURM_EXPORT_ENV before its steps
        ctx.report(
            "SB250", launch.command_span,
            f"`--export={setting.raw}` also applies to this `srun` (sbatch passes it on in"
            " `SLURM_EXPORT_ENV`): the step starts without the variables the script set,"
            " such as a changed `PATH` or loaded modules. Add `export SLURM_EXPORT_ENV=ALL`"
            " before the first `srun`",
            notes=(f"line {setting.directive.line}: `{show(setting.directive)}`",),
        )
        return
