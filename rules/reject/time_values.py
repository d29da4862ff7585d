"""SB110–SB111: `--time`-like durations and `--begin`-like dates Slurm cannot parse.

sbatch reads durations with ``src/common/parse_time.c:time_str2secs()``
(via ``time_str2mins()``) and dates with ``parse_time()``, as each option is
set; a value they refuse stops sbatch with ``Invalid --time specification``
(``--begin``…). Reported by the shared value checker (``_option_values``).
"""

from __future__ import annotations

from slurmspec.kinds import Fixability, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.rules.reject._option_values import check_option_values


@rule("SB110", "invalid-duration", Severity.ERROR, Outcome.REFUSED, fix=Fixability.SOMETIMES)
def invalid_duration(ctx: Context) -> None:
    """
        ## What it does
        Finds `--time`, `--time-min` and `--delay-boot` values that are not Slurm durations.

        ## Why is this bad?
        Slurm reads only `M`, `M:S`, `H:M:S`, `D-H`, `D-H:M`, `D-H:M:S` and `UNLIMITED`/`INFINITE`
        (`time_str2mins()`); anything else, such as `1h`, `30m` or `1:2:3:4`, makes sbatch stop with
        `Invalid --time specification`.

        The fix (safe) writes a whole number with one unit the way Slurm reads it: hours
        `2h` → `2:00:00`, minutes `90m`/`90min` → `90`, days `3d` → `3-00:00:00`, and seconds
        that make whole minutes `120s` → `2` (`hr`, `hours`, `mins`, `days`, `sec`... and any
        letter case too). Nothing else is rewritten, because what was meant is not certain:
        fractions (`1.5h`), mixed forms (`2h30`, `1h30m`), seconds that are not whole minutes
        (a time limit counts minutes; which way to round is the user's call), and zero (`0h`:
        `--time=0` means *no* time limit).

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --time=2h
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=2:00:00
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
