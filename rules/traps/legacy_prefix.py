"""SB203: directives written with the old `#SLURM` prefix.

`src/sbatch/opt.c:_opt_batch_script()` still reads `#SLURM` lines as
directives, but prints an error on every submission asking for `#SBATCH`; the
job runs as written, so this is advice.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


@rule("SB203", "legacy-slurm-prefix", Severity.WARNING, Outcome.ADVICE)
def legacy_slurm_prefix(ctx: Context) -> None:
    """
        ## What it does
        Finds directives written with the old `#SLURM` prefix.

        ## Why is this bad?
        sbatch still honours them, but prints `error: Change from #SLURM to #SBATCH in your
        script and verify the options are valid in sbatch` on every submission, and other tools
        that read `#SBATCH` headers do not see them.

        ## Example
        ```sbatch
        #!/bin/bash
        #SLURM --time=10
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=10
        srun ./app
        ```

        ## Slurm versions
        All releases up to 26.05 honour `#SLURM` with this error message.

        ## References
        - `src/sbatch/opt.c:_opt_batch_script()`
    """
    for dline in ctx.script.directive_lines:
        if dline.in_header and dline.prefix == "#SLURM":
            start = dline.line.span.start
            ctx.report(
                "SB203", ctx.script.span(start, start + 6),
                "`#SLURM` is a legacy directive prefix: sbatch still reads the line but prints"
                " an error asking to change it; write `#SBATCH`",
            )
