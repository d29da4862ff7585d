"""SB106: a script larger than slurmctld accepts; reported from the first lines, never analysed."""

from __future__ import annotations

from slurmspec.kinds import Outcome, Role, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


@rule("SB106", "script-too-large", Severity.ERROR, Outcome.REFUSED, role=Role.FILE_TOO_LARGE)
def script_too_large(ctx: Context) -> None:
    """
    ## What it does
    Finds batch scripts larger than 4 MiB, the most slurmctld accepts unless the site raised
    `max_script_size`. Such a file is not analysed further: slurmspec reads one byte past the
    limit and reports this finding on its first line, so time and memory stay bounded.

    ## Why is this bad?
    slurmctld refuses the submission ("Pathname of a file, directory or other parameter too
    long"), and a file that large is rarely a script at all: a log, a data file or a binary
    given to `sbatch` by mistake. Data a job needs belongs in a file the script reads.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --time=10
    # (followed by more than 4 MiB of here-document data)
    srun ./app
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --time=10
    srun ./app --input "$SLURM_SUBMIT_DIR/data.txt"
    ```

    ## Slurm versions
    All. The limit is the site's `SchedulerParameters=max_script_size` (default 4 MiB, at most
    512 MB); from 23.02 sbatch itself also refuses files over 512 MB.

    ## References
    - `man slurm.conf`, `SchedulerParameters`, `max_script_size=#`
    - `src/slurmctld/job_mgr.c:_test_job_desc_fields()` (22.05.8)
    """
    # Reported by slurmspec.lint.engine.script_too_large when the input is over the limit:
    # an oversized script is never parsed whole, so there is nothing to look at here.
