"""SB132: `--ntasks-per-core` above `--threads-per-core`, which sbatch refuses from 23.02.

``src/sbatch/opt.c:_opt_verify()`` (23.02 and newer): "--ntasks-per-core (%d)
can not be bigger than --threads-per-core (%d)".
"""

from __future__ import annotations

from slurmspec.gates import NTASKS_PER_CORE_CHECKED
from slurmspec.kinds import Outcome, Severity
from slurmspec.lint.context import Context
from slurmspec.lint.rule import rule
from slurmspec.rules.reject._settings import pairs, where


@rule("SB132", "ntasks-per-core-exceeds-threads", Severity.ERROR, Outcome.REFUSED)
def ntasks_per_core_exceeds_threads(ctx: Context) -> None:
    """
        ## What it does
        Finds `--ntasks-per-core` larger than `--threads-per-core`, on Slurm 23.02 and newer.

        ## Why is this bad?
        Each task needs at least one hardware thread of the core; sbatch refuses the request
        with `--ntasks-per-core (N) can not be bigger than --threads-per-core (M)`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --threads-per-core=1
        #SBATCH --ntasks-per-core=2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --threads-per-core=2
        #SBATCH --ntasks-per-core=2
        srun ./app
        ```

        ## Slurm versions
        23.02 and newer; 22.05 accepts the request.

        ## References
        - `man sbatch`, `--ntasks-per-core`, `--threads-per-core`
        - `src/sbatch/opt.c:_opt_verify()` (23.02)
    """
    if ctx.version < NTASKS_PER_CORE_CHECKED:
        return
    for _, per_core, threads in pairs(ctx, "ntasks-per-core", "threads-per-core"):
        a, b = _count(per_core), _count(threads)
        if a is None or b is None or a <= b:
            continue
        ctx.report(
            "SB132", per_core.directive.span,
            f"`--ntasks-per-core={per_core.raw}` is more than `--threads-per-core={threads.raw}`"
            f" ({where(threads.directive)}); on Slurm 23.02 and newer sbatch refuses the job"
            " (a core cannot run more tasks than the threads it may use). Lower"
            " `--ntasks-per-core` or raise `--threads-per-core`",
        )


def _count(setting) -> int | None:
    value = getattr(setting.value, "value", None) if setting is not None else None
    return value if isinstance(value, int) else None
