"""SB905: a script with more lines or ``#SBATCH`` options than slurmspec analyses; reported, not analysed."""

from __future__ import annotations

from slurmspec.kinds import Outcome, Role, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


@rule("SB905", "script-too-long", Severity.WARNING, Outcome.ADVICE, role=Role.SCRIPT_TOO_LONG)
def script_too_long(ctx: Context) -> None:
    """
    ## What it does
    Reports a script slurmspec does not analyse because it has more than 200,000 lines, or
    more than 100,000 options (200,000 words) on its `#SBATCH` lines, though it is within
    slurmctld's 4 MiB. Nothing else is checked in it: slurmspec counts the lines and options
    (which costs almost nothing), reports this finding on the first line and stops, so time
    and memory stay bounded whatever the input.

    ## Why is this bad?
    None of the script was checked, so any mistake in it goes unreported. sbatch takes it, but
    a batch script this long is generated, and the repetition is better written as a loop, a
    job array (`--array`), or a list of inputs in a file the script reads: shorter to submit,
    to read back in `scontrol show job`, and for slurmspec to check.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --time=10
    srun ./step 1
    srun ./step 2
    # ... and so on, past 200,000 lines
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --time=10
    for step in $(seq 1 200000); do
        srun ./step "$step"
    done
    ```

    ## Slurm versions
    All.

    ## References
    - `slurmspec/limits.py` (`MAX_SCRIPT_LINES`, `MAX_DIRECTIVE_OPTIONS`, `MAX_DIRECTIVE_WORDS`)
    - `benchmarks/bench_hostile.py`: time and memory of the largest scripts that are analysed
    """
    # Reported by slurmspec.lint.engine.too_large_finding when the input is past a limit: such a
    # script is never parsed whole, so there is nothing to look at here.
