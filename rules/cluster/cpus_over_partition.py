"""SB415: a job asking more CPUs than its partitions have in all.

``src/slurmctld/job_mgr.c:_part_access_check()`` compares the job's minimum
CPU count (``--ntasks`` × ``--cpus-per-task``, or ``--nodes`` ×
``--ntasks-per-node`` × ``--cpus-per-task``) with the partition's
``TotalCPUs`` ("More processors requested than permitted",
``ESLURM_TOO_MANY_REQUESTED_CPUS``), a partition limit that
``EnforcePartLimits`` judges (``cluster.fit.where.limit_outcome``). Measured with held-off
submissions: under ``ALL`` both releases refuse ``-p debug -n 3`` on a 2-CPU
partition, and ``-p debug,cpu -n 3`` too; under ``NO`` 22.05.8 accepts it and
it pends, while 24.11.5 checks it with the nodes and refuses it ("Requested
node configuration is not available", gate ``PARTITION_SIZE_CHECKED_WITH_NODES``),
which SB406 reports.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


@rule("SB415", "cpus-over-partition", Severity.ERROR, Outcome.REFUSED)
def cpus_over_partition(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, finds a job whose tasks × CPUs per task exceed all the CPUs of its
    partitions.

    ## Why is this bad?
    With `EnforcePartLimits=ALL` (or `ANY`, when every listed partition is too small) the
    controller refuses the job: "More processors requested than permitted". With
    `EnforcePartLimits=NO`, Slurm 22.05 accepts it and it pends forever (24.11 refuses it: SB406).

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=debug
    #SBATCH --ntasks=512
    #SBATCH --time=00:10:00
    srun ./app
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=cpu
    #SBATCH --ntasks=512
    #SBATCH --time=00:10:00
    srun ./app
    ```

    ## Slurm versions
    All; the outcome follows the profile's `EnforcePartLimits` (and with `NO`, the release).
    Needs a cluster profile (`--cluster`); silent without one.

    ## References
    - `man sbatch`, `--ntasks`, `--cpus-per-task`; `man slurm.conf`, `EnforcePartLimits`
    - `src/slurmctld/job_mgr.c:_part_access_check()` (`ESLURM_TOO_MANY_REQUESTED_CPUS`)
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.fit.limits import size_is_limit
    from slurmspec.cluster.fit.need import minimum_cpus, need_of, total_cpus
    from slurmspec.cluster.fit.where import anchor, enforcement, limit_outcome, runnable
    profile = ctx.cluster
    for placement in runnable(ctx):
        if placement.down or not size_is_limit(ctx):
            continue  # a DOWN partition makes the counts inconsistent; from 24.11 under NO SB406 reports it
        need = need_of(placement.request, ctx.version)
        cpus = minimum_cpus(need)
        if cpus is None or need.nodelist_conflict:  # 24.11.5 accepts `-N 1 -w vm,a100-01,a100-02` on a 2-CPU partition
            continue

        def over(p) -> bool:
            return cpus > total_cpus(profile, p)

        outcome = limit_outcome(ctx, placement.usable, over)
        if outcome is None:
            continue
        why = enforcement(ctx, outcome)
        sizes = ", ".join(f"partition {p.name} has {total_cpus(profile, p)}" for p in placement.usable if over(p))
        span = anchor(placement, "ntasks", "ntasks-per-node", "cpus-per-task", "nodes")
        if span is not None:
            ctx.report("SB415", span, f"the job asks at least {cpus} CPUs; {sizes}; {why}"
                       " (\"More processors requested than permitted\")", outcome=outcome)
