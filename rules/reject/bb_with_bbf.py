"""SB127: `--bb` with `--bbf`, which sbatch refuses.

``src/sbatch/opt.c:_opt_verify()``: "Cannot specify both --burst-buffer and --bbf".
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.rules.reject._settings import clashes, where


@rule("SB127", "bb-with-bbf", Severity.ERROR, Outcome.REFUSED)
def bb_with_bbf(ctx: Context) -> None:
    """
        ## What it does
        Finds `--bb` and `--bbf` in the same component.

        ## Why is this bad?
        A burst buffer is described either inline or in a file, not both; sbatch stops with
        `Cannot specify both --burst-buffer and --bbf`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --bb="capacity=100G"
        #SBATCH --bbf=buffers.conf
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --bbf=buffers.conf
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--bb`, `--bbf`
        - `src/sbatch/opt.c:_opt_verify()`
    """
    # Checked against sbatch 22.05.8.
    for at, other in clashes(ctx, "bb", "bbf"):
        ctx.report(
            "SB127", at.span,
            f"`--{at.name}` cannot be combined with `--{other.name}` ({where(other)});"
            " sbatch stops with \"Cannot specify both --burst-buffer and --bbf\". Put the"
            " burst buffer directives either inline (`--bb`) or in one file (`--bbf`)",
        )
