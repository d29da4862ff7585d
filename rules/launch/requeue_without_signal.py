"""SB342: `--requeue` on a long job without `--signal`.

`man sbatch`, `--signal`: "When a job is within sig_time seconds of its end time,
send it the signal sig_num." Without it a preempted or requeued job gets no
warning before it is killed.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.values.time import Duration


@rule("SB342", "requeue-without-signal", Severity.INFO, Outcome.ADVICE)
def requeue_without_signal(ctx: Context) -> None:
    """
    ## What it does
    Finds `--requeue` on a job longer than one hour (or unlimited) without `--signal`.

    ## Why is this bad?
    A requeue-able job is expected to be preempted or restarted. Without `--signal` Slurm
    gives no warning before killing it, so it cannot save a checkpoint and every requeue
    restarts from the last periodic checkpoint. submitit adds `--signal=USR2@90` and
    Nextflow `--signal B:USR2@30` for this reason.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --requeue
    #SBATCH --time=12:00:00
    #SBATCH --gres=gpu:1
    srun python train.py --resume
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --requeue
    #SBATCH --time=12:00:00
    #SBATCH --gres=gpu:1
    #SBATCH --signal=B:USR1@300
    trap 'touch checkpoint.request' USR1
    srun python train.py --resume &
    wait
    ```

    ## Slurm versions
    All.

    ## References
    - `man sbatch`, `--signal`, `--requeue`
    - submitit (`--signal=USR2@90`) and Nextflow (`--signal B:USR2@30`) add a signal for this reason
    """
    request = ctx.script.components[0].request
    requeue = request.get("requeue")
    if requeue is None or request.has("signal"):
        return
    no = request.get("no-requeue")
    if no is not None and no.directive.span.start > requeue.directive.span.start:
        return
    time = request.get("time")
    limit = None if time is None else time.value_as(Duration)
    if limit is None or not (limit.unlimited or (limit.minutes is not None and limit.minutes > 60)):
        return
    ctx.report(
        "SB342", requeue.directive.span,
        f"a requeue-able job of `--time={time.raw}` has no `--signal`: when it is preempted or hits"
        " its limit it is killed without warning and restarts from its last checkpoint; add"
        " `#SBATCH --signal=B:USR1@300` and save a checkpoint in a `trap` handler",
    )
