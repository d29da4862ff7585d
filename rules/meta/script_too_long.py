"""SB905: a script with more lines or ``#SBATCH`` options than slurmspec analyses (reported, not
analysed), or more launch statements than it models (those past the limit are not checked)."""

from __future__ import annotations

from slurmspec.kinds import Outcome, Role, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.limits import MAX_LAUNCHES


@rule("SB905", "script-too-long", Severity.WARNING, Outcome.ADVICE, role=Role.SCRIPT_TOO_LONG)
def script_too_long(ctx: Context) -> None:
    """
    ## What it does
    Reports a script slurmspec does not analyse because it has more than 200,000 lines, or
    more than 100,000 options (200,000 words) on its `#SBATCH` lines, though it is within
    slurmctld's 4 MiB. Nothing else is checked in it: slurmspec counts the lines and options
    (which costs almost nothing), reports this finding on the first line and stops, so time
    and memory stay bounded whatever the input.

    Within those limits, the first 4,096 launch statements (`srun`, `mpirun`, `torchrun`,
    `python` ...) are modelled; this finding then names the first one after them, and the
    launch checks (GPUs, tasks, processes per launcher) do not look at it or the ones after.

    ## Why is this bad?
    None of the script was checked (or none of its launches past the 4,096th), so any mistake
    there goes unreported. sbatch takes it, but
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
    - `slurmspec/limits.py` (`MAX_SCRIPT_LINES`, `MAX_DIRECTIVE_OPTIONS`, `MAX_DIRECTIVE_WORDS`,
      `MAX_LAUNCHES`)
    - `benchmarks/bench_hostile.py`: time and memory of the largest scripts that are analysed
    """
    # A script past a limit is reported by slurmspec.lint.engine.too_large_finding and never parsed
    # whole; one within them may have more launches than are modelled (slurmspec.body.launch).
    cut = ctx.script.body.first_unmodelled
    if cut is not None:
        ctx.report("SB905", cut, f"more than {MAX_LAUNCHES:,} launch statements: this one and the ones after "
                   "it are not checked (the first ones are)")
