"""SB147: GPUs requested both with and without a type, which sbatch refuses.

sbatch's client-side GRES validation (``src/common/slurm_opt.c:slurm_opt_create_job_desc()``
→ ``src/common/gres.c:gres_job_state_validate()``) groups GPU requests by type
(``slurmspec/model/views/sbatch_gpus.py``); an untyped record with a count next to a
typed one is refused before any count is compared: "Invalid GRES
specification (with and without type identification)". Untyped
``--mem-per-gpu``/``--cpus-per-gpu`` alone merge into typed records and are
not counted here.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.sbatch_gpus import Record, gpu_records


@rule("SB147", "gpu-typed-and-untyped", Severity.ERROR, Outcome.REFUSED)
def gpu_typed_and_untyped(ctx: Context) -> None:
    """
        ## What it does
        Finds GPU counts requested with a type in one option and without a type in another, e.g.
        `--gpus=a100:8` with `--gpus-per-task=1`.

        ## Why is this bad?
        Slurm cannot tell whether the untyped GPUs are the typed ones or additional ones, and
        refuses the job: `Invalid GRES specification (with and without type identification)`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=8
        #SBATCH --gpus=a100:8
        #SBATCH --gpus-per-task=1
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=8
        #SBATCH --gpus=a100:8
        #SBATCH --gpus-per-task=a100:1
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--gpus`, `--gpus-per-node`, `--gpus-per-task`, `--gres`
        - `src/common/gres.c:gres_job_state_validate()` (`ESLURM_INVALID_GRES_TYPE`), called by sbatch from
          `src/common/slurm_opt.c:slurm_opt_create_job_desc()`
    """
    for component in ctx.script.components:
        records, complete = gpu_records(component.request)
        if not records or not complete:
            continue
        typed = [r for r in records if r.type is not None]
        untyped = [r for r in records if r.type is None]
        if typed and untyped:
            _report_mixed(ctx, untyped[0], typed[0])


def _report_mixed(ctx: Context, untyped: Record, typed: Record) -> None:
    a = next(iter(untyped.where.values()))
    b = next(iter(typed.where.values()))
    if a is b:
        return  # one option mixes them: SB115 reports the value
    later = max(a, b, key=lambda d: d.span.start)
    other = b if later is a else a
    ctx.report(
        "SB147", later.span,
        f"`{later.raw}` and `{other.raw}` (line {other.line}) ask for GPUs both with and"
        " without a type; sbatch refuses the job (\"Invalid GRES specification (with and without"
        " type identification)\"). Name the type in every GPU option, or in none",
    )
