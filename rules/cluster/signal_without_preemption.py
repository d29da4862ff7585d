"""SB413: `--signal=R:...` on a cluster without preemption.

The ``R`` flag asks for the signal only when the job is preempted; a
controller with ``PreemptType=preempt/none`` refuses such a job from 24.11:
"Preemption is required but is disabled on this system" (``src/slurmctld/job_mgr.c``,
``ESLURM_PREEMPTION_REQUIRED``; measured: 24.11.5 refuses ``--signal=R:USR1@60``
and ``RB:``, 22.05.8 accepts them, gate ``SIGNAL_R_NEEDS_PREEMPTION``).
"""

from __future__ import annotations

from slurmspec.gates import SIGNAL_R_NEEDS_PREEMPTION
from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.values.signal import SignalSpec


@rule("SB413", "signal-without-preemption", Severity.ERROR, Outcome.REFUSED)
def signal_without_preemption(ctx: Context) -> None:
    """
    ## What it does
    With a cluster profile, finds `--signal=R:...` (send the signal only on preemption) on a
    cluster whose `PreemptType` is `preempt/none`.

    ## Why is this bad?
    Slurm 24.11 refuses the job: "Preemption is required but is disabled on this system". On
    older releases the signal is simply never sent: the job is never preempted, and a time-limit
    warning (`--signal=B:USR1@300`) was probably meant.

    ## Example
    ```sbatch 24.11
    #!/bin/bash
    #SBATCH --signal=R:USR1@300
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Use instead
    ```sbatch 24.11
    #!/bin/bash
    #SBATCH --signal=B:USR1@300
    #SBATCH --time=01:00:00
    srun ./app
    ```

    ## Slurm versions
    Refused from 24.11 (22.05 accepts it; the releases in between were not checked). Needs a
    cluster profile (`--cluster`); silent without one.

    ## References
    - `man sbatch`, `--signal`; `man slurm.conf`, `PreemptType`
    - `src/slurmctld/job_mgr.c` (`ESLURM_PREEMPTION_REQUIRED`)
    """
    if ctx.cluster is None or ctx.version < SIGNAL_R_NEEDS_PREEMPTION:
        return
    if ctx.cluster.config.preempt_type.lower() not in ("preempt/none", "", "none"):
        return
    seen = set()
    for component in ctx.script.components:
        setting = component.request.get("signal")
        signal = None if setting is None else setting.value_as(SignalSpec)
        if signal is None or "R" not in signal.flags or id(setting.directive) in seen:
            continue
        seen.add(id(setting.directive))
        ctx.report(
            "SB413", setting.directive.span,
            f"`--signal={setting.raw}` signals only on preemption (`R`), and this cluster has none"
            f" (PreemptType={ctx.cluster.config.preempt_type}); the controller refuses the job (\"Preemption is"
            " required but is disabled on this system\"). Drop `R` for a warning before the time limit",
        )
