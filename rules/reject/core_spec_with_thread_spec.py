"""SB126: `--core-spec` with `--thread-spec`, which sbatch refuses.

``src/common/slurm_opt.c:_validate_spec_cores_options()``: "-S/--core-spec and
--thred-spec options are mutually exclusive" (sic). Both write the job's one
``core_spec`` field, one counting cores and one threads.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.rules.reject._settings import clashes, where


@rule("SB126", "core-spec-with-thread-spec", Severity.ERROR, Outcome.REFUSED)
def core_spec_with_thread_spec(ctx: Context) -> None:
    """
        ## What it does
        Finds `--core-spec` (`-S`) and `--thread-spec` in the same component.

        ## Why is this bad?
        Both set the number of specialized resources reserved for system use, one in cores and
        one in threads; sbatch refuses the pair (`-S/--core-spec and --thred-spec options are
        mutually exclusive`).

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --core-spec=2
        #SBATCH --thread-spec=2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --core-spec=2
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--core-spec`, `--thread-spec`
        - `src/common/slurm_opt.c:_validate_spec_cores_options()`
    """
    # Checked against sbatch 22.05.8.
    for at, other in clashes(ctx, "core-spec", "thread-spec"):
        ctx.report(
            "SB126", at.span,
            f"`--{at.name}` cannot be combined with `--{other.name}` ({where(other)});"
            " sbatch refuses the job (\"-S/--core-spec and --thred-spec options are mutually"
            " exclusive\"). Reserve either cores or threads for the system, not both",
        )
