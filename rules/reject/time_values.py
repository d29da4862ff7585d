"""SB110–SB111: `--time`-like durations and `--begin`-like dates Slurm cannot parse.

sbatch reads durations with ``src/common/parse_time.c:time_str2secs()``
(via ``time_str2mins()``) and dates with ``parse_time()``, as each option is
set; a value they refuse stops sbatch with ``Invalid --time specification``
(``--begin``…). Reported by the shared value checker (``_option_values``).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.lint.context import Context
from slurmspec.lint.rule import rule
from slurmspec.rules.reject._option_values import check_option_values


@rule("SB110", "invalid-duration", Severity.ERROR, Outcome.REFUSED)
def invalid_duration(ctx: Context) -> None:
    """
        ## What it does
        Finds `--time`, `--time-min` and `--delay-boot` values that are not Slurm durations.

        ## Why is this bad?
        Slurm reads only `M`, `M:S`, `H:M:S`, `D-H`, `D-H:M`, `D-H:M:S` and `UNLIMITED`/`INFINITE`
        (`time_str2mins()`); anything else, such as `1h`, `30m` or `1:2:3:4`, makes sbatch stop with
        `Invalid --time specification`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --time=2h
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=02:00:00
        srun ./app
        ```

        ## Slurm versions
        All (the grammar is unchanged from 22.05 to 26.05).

        ## References
        - `man sbatch`, `--time`
        - `src/common/parse_time.c:time_str2secs()`
    """
    ctx.shared(check_option_values)


@rule("SB111", "invalid-datetime", Severity.ERROR, Outcome.REFUSED)
def invalid_datetime(ctx: Context) -> None:
    """
        ## What it does
        Finds `--begin` and `--deadline` values that Slurm's date parser refuses, such as
        `now+5min` (units must be spelled out) or `4pm` (needs `HH:MM`).

        ## Why is this bad?
        sbatch stops with `Invalid --begin specification` and the job is not submitted.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --begin=now+5min
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --begin=now+5minutes
        srun ./app
        ```

        ## Slurm versions
        All; the `elevenses` keyword exists from 24.05.

        ## References
        - `man sbatch`, `--begin`
        - `src/common/parse_time.c:parse_time()`
    """
    ctx.shared(check_option_values)
