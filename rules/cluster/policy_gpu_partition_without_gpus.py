"""SB465: a job without GPUs in a partition the site's policy keeps for GPU jobs.

Sites keep GPU nodes for GPU work and refuse CPU-only jobs there in their
submit plugin; the policy marks such partitions (``needs-gpus = true`` in
``[policy.partition.NAME]``), or all partitions whose nodes all have GPUs
(``gpu-partitions-need-gpus = true``, which needs the cluster profile).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.job.model import job_model_of
from slurmspec.rules.cluster._policy import consequence, first_line, partition_of, policies, verdict


def _all_gpu_nodes(ctx: Context, name: str) -> bool:
    profile = ctx.cluster
    partition = profile.partition(name) if profile is not None else None
    shapes = profile.shapes_in(partition) if partition is not None else ()
    return bool(shapes) and all(shape.gpus() for shape in shapes)


@rule("SB465", "policy-gpu-partition-without-gpus", Severity.ERROR, Outcome.REFUSED)
def policy_gpu_partition_without_gpus(ctx: Context) -> None:
    """
    ## What it does
    With a site policy that keeps partitions for GPU jobs (`needs-gpus`, or
    `gpu-partitions-need-gpus` with a cluster profile), finds a job in such a partition that
    asks for no GPU.

    ## Why is this bad?
    The site's submit plugin refuses it: a CPU-only job on a GPU node keeps the node's GPUs
    from the jobs that need them. Ask for the GPUs the job uses, or use a CPU partition.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=gpu
    #SBATCH --ntasks=4
    #SBATCH --account=project42
    #SBATCH --time=04:00:00
    srun ./simulate
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=cpu
    #SBATCH --ntasks=4
    #SBATCH --account=project42
    #SBATCH --time=04:00:00
    srun ./simulate
    ```

    ## Slurm versions
    All. Needs a site policy; silent without one (docs/policy.md). The example's policy:
    `[policy.partition.gpu] needs-gpus = true`.

    ## References
    - `man slurm.conf`, `JobSubmitPlugins`
    - docs/policy.md
    """
    found = policies(ctx)
    if not found or not ctx.script.directives or not ctx.script.lines:
        return
    model = ctx.shared(job_model_of)
    for component, shape in zip(ctx.script.components, model.components):
        if shape.gpus_per_node != 0:  # GPUs asked for, or not certain that none are
            continue
        request = component.request
        partition = partition_of(ctx, request)
        if partition is None:
            continue
        for policy in found:
            scope = policy.partition_scope(partition)
            if scope is not None and scope.needs_gpus:
                key = f"{scope.key}.needs-gpus"
            elif policy.gpu_partitions_need_gpus and _all_gpu_nodes(ctx, partition):
                key = f"{policy.everywhere.key}.gpu-partitions-need-gpus"
            else:
                continue
            setting = request.get("partition")
            ctx.report(
                "SB465", setting.directive.span if setting is not None else first_line(ctx),
                f"the job asks for no GPU, but partition `{partition}` is for GPU jobs ({policy.where(key)});"
                f" {consequence(policy)}: ask for the GPUs it uses (`--gres=gpu:MODEL:N`), or use a CPU partition",
                **verdict(policy),
            )
