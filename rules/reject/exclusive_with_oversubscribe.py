"""SB131: `--exclusive` with `--oversubscribe`, which sbatch refuses from 23.02.

``src/common/slurm_opt.c:_validate_share_options()`` (23.02 and newer):
"--exclusive and --oversubscribe options are mutually exclusive". On 22.05
both write one ``shared`` field and the last one silently wins (SB213).
"""

from __future__ import annotations

from slurmspec.gates import SHARE_OPTIONS_EXCLUSIVE
from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.rules.reject._settings import clashes, where


@rule("SB131", "exclusive-with-oversubscribe", Severity.ERROR, Outcome.REFUSED)
def exclusive_with_oversubscribe(ctx: Context) -> None:
    """
        ## What it does
        Finds `--exclusive` and `--oversubscribe` (`-s`) in the same component, on Slurm 23.02
        and newer.

        ## Why is this bad?
        The job cannot both refuse and accept sharing its nodes. From 23.02 sbatch stops with
        `--exclusive and --oversubscribe options are mutually exclusive`; 22.05 silently used
        whichever came last.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --exclusive
        #SBATCH --oversubscribe
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --exclusive
        srun ./app
        ```

        ## Slurm versions
        23.02 and newer; on 22.05 the last of the two wins without a message.

        ## References
        - `man sbatch`, `--exclusive`, `--oversubscribe`
        - `src/common/slurm_opt.c:_validate_share_options()` (23.02)
    """
    if ctx.version < SHARE_OPTIONS_EXCLUSIVE:
        return
    for at, other in clashes(ctx, "exclusive", "oversubscribe"):
        ctx.report(
            "SB131", at.span,
            f"`--{at.name}` cannot be combined with `--{other.name}`"
            f" ({where(other)}) on Slurm 23.02 and newer; sbatch stops with"
            " \"--exclusive and --oversubscribe options are mutually exclusive\". Keep the one"
            " you mean (22.05 silently used the last one)",
        )
