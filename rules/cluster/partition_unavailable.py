"""SB402: every partition the job names is closed (INACTIVE or DRAIN) or down.

``src/slurmctld/job_mgr.c:_valid_job_part()`` drops partitions that take no
new jobs (``State=INACTIVE`` or ``DRAIN``) from the job's list and refuses the
job when none is left: "Required partition not available (inactive or drain)"
(``ESLURM_PARTITION_NOT_AVAIL``). A ``State=DOWN`` partition accepts jobs,
which pend (reason ``PartitionDown``) until it is up again. Measured on Slurm
22.05.8 and 24.11.5: ``-p inactive`` and ``-p drain`` are refused,
``-p cpu,inactive`` runs in cpu, ``-p down`` is accepted and pends.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


@rule("SB402", "partition-unavailable", Severity.ERROR, Outcome.REFUSED)
def partition_unavailable(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, finds a job whose partitions are all closed to new jobs (`INACTIVE` or
    `DRAIN` in the profile), or all `DOWN`.

    ## Why is this bad?
    The controller refuses a job whose every partition is inactive or draining ("Required partition
    not available (inactive or drain)"), and leaves a job in a down partition pending until an
    administrator brings it back up.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=old
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --partition=cpu
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Slurm versions
    All. Needs a cluster profile (`--cluster`); silent without one. The profile shows the
    partitions' state when it was imported: re-import it when they change.

    ## References
    - `man sbatch`, `--partition`; `man slurm.conf`, `State` of a partition
    - `src/slurmctld/job_mgr.c:_valid_job_part()` (`ESLURM_PARTITION_NOT_AVAIL`)
    """
    if ctx.cluster is None:
        return
    from slurmspec.cluster.fit.where import anchor, placements
    for placement in placements(ctx):
        if placement.unknown:
            continue  # SB401 says why it is refused
        span = anchor(placement)
        if span is None:
            continue
        if placement.closed and not placement.usable:
            states = ", ".join(f"{p.name} is {p.state.upper()}" for p in placement.closed)
            ctx.report(
                "SB402", span,
                f"no partition of the job takes new jobs ({states}); the controller refuses it"
                " (\"Required partition not available (inactive or drain)\")",
            )
        elif placement.usable and all(p.state.upper() == "DOWN" for p in placement.usable):
            names = ", ".join(p.name for p in placement.usable)
            ctx.report(
                "SB402", span,
                f"partition{'s' if len(placement.usable) > 1 else ''} {names} {'are' if len(placement.usable) > 1 else 'is'}"
                " DOWN in the profile: the job is accepted and pends (PartitionDown) until it is up again",
                severity=Severity.WARNING, outcome=Outcome.PENDS,
            )
