"""SB312: `--ntasks` without `--ntasks-per-node` in a Lightning job.

Slurm sets `SLURM_NTASKS_PER_NODE` only when `--ntasks-per-node` is given (`man
sbatch`, OUTPUT ENVIRONMENT VARIABLES); Lightning's `SLURMEnvironment` refuses
to start without it when `SLURM_NTASKS` is above 1.
"""

from __future__ import annotations

import re

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.views.launch_steps import python_steps


@rule("SB312", "lightning-ntasks-without-per-node", Severity.WARNING, Outcome.FAILS)
def lightning_ntasks_without_per_node(ctx: Context) -> None:
    """
    ## What it does
    In a script that mentions Lightning (`lightning`/`pytorch_lightning` anywhere in the
    text: a program name, an argument, an environment or a comment), finds a `python` run
    with a task count above 1 from `--ntasks` (on `#SBATCH` or `srun`) and no
    `--ntasks-per-node`. Scripts that never mention Lightning are not checked: for plain
    DDP, `--ntasks` alone works.

    ## Why is this bad?
    Lightning's `SLURMEnvironment` raises at start-up when `SLURM_NTASKS > 1` and
    `SLURM_NTASKS_PER_NODE` is unset: "You set `--ntasks=N` in your SLURM bash script, but
    this variable is not supported. HINT: Use `--ntasks-per-node=N` instead." The job
    fails after waiting in the queue.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --ntasks=4
    #SBATCH --gres=gpu:4
    #SBATCH --time=04:00:00
    srun python train_lightning.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=1
    #SBATCH --ntasks-per-node=4
    #SBATCH --gres=gpu:4
    #SBATCH --time=04:00:00
    srun python train_lightning.py
    ```

    ## Slurm versions
    All.

    ## References
    - Lightning `lightning/fabric/plugins/environments/slurm.py` (`_validate_srun_variables`)
    - `man sbatch`, OUTPUT ENVIRONMENT VARIABLES (`SLURM_NTASKS_PER_NODE` is set only with
      `--ntasks-per-node`)
    """
    work = python_steps(ctx)
    if not work or re.search(r"lightning", ctx.script.source, re.IGNORECASE) is None:
        return
    for launch, srun, geom in work:
        _lightning(ctx, srun, geom)


def _lightning(ctx: Context, srun, geom) -> None:
    if geom.per_node_given:
        return
    request = ctx.script.components[0].request
    srun_n = None
    if srun is not None:
        if srun.has("ntasks-per-node") or srun.has("tasks-per-node"):
            return
        opt = srun.option("ntasks")
        if opt is not None:
            srun_n = srun.ntasks
            if srun_n is None or srun_n < 2:
                return
            span, text = opt.span, f"`srun {opt.raw} {opt.value}`"
    if request.has("ntasks-per-node"):
        return
    if srun_n is None:
        setting = request.get("ntasks")
        n = None if setting is None else setting.count()
        if n is None or n < 2:
            return
        span, text = setting.directive.span, f"`--ntasks={setting.raw}`"
        srun_n = n
    ctx.report(
        "SB312", span,
        f"{text} without `--ntasks-per-node`: Lightning's SLURM environment refuses to start"
        f" (\"You set `--ntasks={srun_n}` ... not supported\"); use `--ntasks-per-node` with `--nodes`",
    )
