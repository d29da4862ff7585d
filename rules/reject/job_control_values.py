"""SB116–SB120, SB122: job-control values (arrays, dependencies, signals, vocabularies) Slurm refuses.

sbatch checks ``--signal``, ``--distribution``, ``--mail-type`` and the
fixed-vocabulary options with their ``src/common/proc_args.c`` parsers as each
option is set (``get_signal_opts()``, ``verify_dist_type()``,
``parse_mail_type()``...); ``--array`` and ``--dependency`` pass through sbatch
unchecked and slurmctld refuses them at submission. Reported by the shared
value checker (``_option_values``).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.rules.reject._option_values import check_option_values


@rule("SB116", "invalid-array", Severity.ERROR, Outcome.REFUSED)
def invalid_array(ctx: Context) -> None:
    """
        ## What it does
        Finds `--array` values that slurmctld refuses: negative or descending ranges, a zero step,
        indices at or above the default `MaxArraySize` (1001), text that is not a range list.

        ## Why is this bad?
        sbatch passes the string through unchecked, and the controller answers `Invalid job array
        specification` at submission.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --array=10-1
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --array=1-10
        srun ./app
        ```

        ## Slurm versions
        All. A site may raise `MaxArraySize` (up to 4000001): without a cluster profile the check
        assumes the default 1001; with one, SB412 judges the index against the site's own value and
        SB116 reports only what no site accepts.

        ## References
        - `man sbatch`, `--array`
        - `src/slurmctld/job_mgr.c:_valid_array_inx()`
    """
    ctx.shared(check_option_values)


@rule("SB117", "invalid-dependency", Severity.ERROR, Outcome.REFUSED)
def invalid_dependency(ctx: Context) -> None:
    """
        ## What it does
        Finds `--dependency` values that are not `type:jobid[:jobid...]` lists with a known type
        (`after`, `afterany`, `afterok`, `afternotok`, `aftercorr`, `afterburstbuffer`,
        `singleton`) and numeric job ids.

        ## Why is this bad?
        slurmctld refuses the submission with `Job dependency problem`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --dependency=afterok:$PREV
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        srun ./app
        ```
        and submit with `sbatch --dependency=afterok:$PREV job.sbatch`, where the shell expands it.

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--dependency`
    """
    ctx.shared(check_option_values)


@rule("SB118", "invalid-signal", Severity.ERROR, Outcome.REFUSED)
def invalid_signal(ctx: Context) -> None:
    """
        ## What it does
        Finds `--signal` values that are not `[{R|B}:]<sig_num|sig_name>[@sig_time]` with a known
        signal name and a time between 0 and 65535 seconds.

        ## Why is this bad?
        sbatch stops with `Invalid --signal specification`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --signal=B:USR1@abc
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --signal=B:USR1@120
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/common/proc_args.c:get_signal_opts()`
    """
    ctx.shared(check_option_values)


@rule("SB119", "invalid-distribution", Severity.ERROR, Outcome.REFUSED)
def invalid_distribution(ctx: Context) -> None:
    """
        ## What it does
        Finds `--distribution` values outside `{*|block|cyclic|arbitrary|plane=N}[:...][,Pack|NoPack]`.

        ## Why is this bad?
        sbatch stops with `Invalid --distribution specification`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --distribution=round-robin
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --distribution=cyclic
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/common/proc_args.c:verify_dist_type()`
    """
    ctx.shared(check_option_values)


@rule("SB120", "invalid-mail-type", Severity.ERROR, Outcome.REFUSED)
def invalid_mail_type(ctx: Context) -> None:
    """
        ## What it does
        Finds `--mail-type` lists in which no type is valid.

        ## Why is this bad?
        sbatch stops with `Invalid --mail-type specification`. (A list with at least one valid type
        is accepted and the unknown ones are silently dropped; the traps family reports that.)

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --mail-type=START
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --mail-type=BEGIN
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/common/proc_args.c:parse_mail_type()`
    """
    ctx.shared(check_option_values)


@rule("SB122", "invalid-option-value", Severity.ERROR, Outcome.REFUSED)
def invalid_option_value(ctx: Context) -> None:
    """
        ## What it does
        Finds values that the option's own parser refuses, for options with a fixed vocabulary or
        syntax: `--hint`, `--exclusive`, `--open-mode`, `--gpu-bind`, `--mem-bind`, `--cpu-freq`,
        `--gres-flags`, `--profile`, `--propagate`, `--kill-on-invalid-dep`, `--wait-all-nodes`,
        `--export`, `-B`, `--switches` and others.

        ## Why is this bad?
        sbatch stops with that option's `Invalid ... specification` message.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --hint=nomultithreading
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --hint=nomultithread
        srun ./app
        ```

        ## Slurm versions
        All; several vocabularies grow with the release (`--exclusive=topo` 24.05, `--gres-flags`
        lists 24.05).

        ## References
        - `man sbatch`
    """
    ctx.shared(check_option_values)
