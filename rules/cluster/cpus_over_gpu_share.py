"""SB450: CPUs per GPU far above the node's share, on nodes the job shares.

A node's CPUs are its GPUs' to share: with 96 CPUs and 8 GPUs, a job that
takes 48 CPUs and 1 GPU leaves 48 CPUs for the other 7 GPUs, so jobs asking
the usual share cannot start there and GPUs sit idle (``man slurm.conf``,
``DefCpuPerGPU``, ``MaxCPUsPerGPU``: sites cap this for the same reason).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule

# Report only above this many times the node's CPUs per GPU: a little more than the share is common and harmless.
FACTOR = 2


@rule("SB450", "cpus-over-gpu-share", Severity.WARNING, Outcome.WRONG)
def cpus_over_gpu_share(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, compares the CPUs per node a GPU job asks for with the node's CPUs
    per GPU (its CPUs over its GPUs), and reports more than twice that share on every node the
    job could run on, when the job shares its nodes (no `--exclusive`, not all of a node's GPUs).

    ## Why is this bad?
    Other jobs need CPUs to use the node's other GPUs. A job that takes 48 of 96 CPUs for one
    of 8 GPUs leaves 48 CPUs for 7 GPUs: jobs asking the usual 12 CPUs per GPU fit only 4 times,
    and 3 GPUs stay idle while the queue waits. The job is also charged for the CPUs at sites
    that bill by the largest share.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --gres=gpu:1
    #SBATCH --cpus-per-task=24
    #SBATCH --time=04:00:00
    python train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --gres=gpu:1
    #SBATCH --cpus-per-task=4
    #SBATCH --time=04:00:00
    python train.py
    ```

    ## Slurm versions
    All. Needs a cluster profile (`--cluster`); silent without one.

    ## References
    - `man slurm.conf`, `DefCpuPerGPU` and `MaxCPUsPerGPU` (partition)
    - `man sbatch`, `--cpus-per-gpu`, `--exclusive`
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.fit.waste import asks, candidates, cpu_setting, names, plural, shared_nodes
    for ask in asks(ctx):
        if not ask.gpus or ask.cpus is None or not shared_nodes(ctx, ask):
            continue
        shapes = candidates(ctx, ask)
        if not shapes:
            continue
        # The most generous node the job could land on: if it is fine there, say nothing.
        best = max(shapes, key=lambda s: (s.cpus / s.gpus() if s.gpus() else float("inf")))
        if any(ask.gpus >= s.gpus() or ask.cpus * s.gpus() <= FACTOR * ask.gpus * s.cpus for s in shapes):
            continue
        total = best.gpus()
        share = best.cpus // total
        held = min(ask.cpus * total // best.cpus, total)  # GPUs' worth of CPUs the job holds
        setting = cpu_setting(ask.request)
        ctx.report(
            "SB450", setting.directive.span,
            f"{ask.cpus_source} gives {plural(ask.cpus, 'CPU')} per node for {plural(ask.gpus, 'GPU')}; nodes"
            f" {names([best])} have {best.cpus} CPUs for {total} GPUs ({share} per GPU), so the job holds the"
            f" CPUs of {held} GPUs and leaves {plural(held - ask.gpus, 'GPU')} idle for other jobs: ask for"
            f" about {share * ask.gpus} CPUs (`--cpus-per-gpu={share}`), or for more GPUs if the job uses them",
        )
