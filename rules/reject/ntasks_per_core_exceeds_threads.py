"""SB132: `--ntasks-per-core` above `--threads-per-core`, which sbatch refuses from 23.02.

``src/sbatch/opt.c:_opt_verify()`` (23.02 and newer): "--ntasks-per-core (%d)
can not be bigger than --threads-per-core (%d)".
"""

from __future__ import annotations

from slurmspec.gates import NTASKS_PER_CORE_CHECKED
from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.values.binding import SocketCoreThread
from slurmspec.rules.reject._settings import where


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
    for component in ctx.script.components:
        request = component.request
        per_core = request.get("ntasks-per-core")
        threads, shown, directive = _threads(request)
        a = request.count("ntasks-per-core")
        if a is None or threads is None or a <= threads or (per_core.inherited and directive.inherited):
            continue
        ctx.report(
            "SB132", per_core.directive.span,
            f"`--ntasks-per-core={per_core.raw}` is more than {shown}"
            f" ({where(directive)}); on Slurm 23.02 and newer sbatch refuses the job"
            " (a core cannot run more tasks than the threads it may use). Lower"
            " `--ntasks-per-core` or raise `--threads-per-core`",
        )


def _threads(request):
    """(threads per core, how it was asked, its directive): `--threads-per-core` or `-B`'s third level,
    whichever sbatch reads last (both set the same field: `--threads-per-core=2 ... -B 2:1:1
    --ntasks-per-core=2` is refused by sbatch 24.11.5 with "bigger than --threads-per-core (1)")."""
    found = []
    threads = request.get("threads-per-core")
    count = request.count("threads-per-core")
    if count is not None:
        found.append((count, f"`--threads-per-core={threads.raw}`", threads.directive))
    b = request.get("extra-node-info")
    b_levels = request.value_as("extra-node-info", SocketCoreThread)
    levels = () if b_levels is None else b_levels.levels
    if len(levels) == 3 and levels[2] is not None and levels[2][0] == levels[2][1]:
        found.append((levels[2][0], f"the threads of `-B {b.raw}`", b.directive))
    if not found:
        return None, None, None
    return max(found, key=lambda f: f[2].span.start)

