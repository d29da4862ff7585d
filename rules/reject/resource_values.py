"""SB112–SB115, SB121: resource amounts and features written in a form Slurm refuses.

Memory sizes (``src/common/proc_args.c:str_to_mbytes()``), counts
(``parse_int()``), node counts (``verify_node_count()``), GRES/TRES
specifications (``src/common/gres.c``) and feature expressions (checked by
slurmctld at submission). Each refused value stops the submission. Reported by
the shared value checker (``_option_values``).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.rules.reject._option_values import check_option_values


@rule("SB112", "invalid-memory", Severity.ERROR, Outcome.REFUSED)
def invalid_memory(ctx: Context) -> None:
    """
        ## What it does
        Finds `--mem`, `--mem-per-cpu`, `--mem-per-gpu` and `--tmp` values that are not Slurm
        memory sizes: decimals (`1.5G`), IEC suffixes (`16GiB`, `16Gi`), `P`, negative numbers.

        ## Why is this bad?
        Slurm accepts an integer with an optional `K`, `M`, `G` or `T` (and an optional `B`);
        anything else stops sbatch with `Invalid --mem specification`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --mem=16GiB
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --mem=16G
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--mem`
        - `src/common/proc_args.c:str_to_mbytes()`
    """
    ctx.shared(check_option_values)


@rule("SB113", "invalid-count", Severity.ERROR, Outcome.REFUSED)
def invalid_count(ctx: Context) -> None:
    """
        ## What it does
        Finds task, CPU and per-resource counts that are not positive integers: `--ntasks=0`,
        `--cpus-per-task=auto`, `-c 4.5`.

        ## Why is this bad?
        Slurm parses these with `parse_int()`: no trailing characters, greater than zero (zero is
        allowed only for `--core-spec`). sbatch stops with `Invalid numeric value`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=0
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=1
        srun ./app
        ```

        ## Slurm versions
        All; from 23.02 values above INT_MAX are also refused as "too large".

        ## References
        - `src/common/proc_args.c:parse_int()`
    """
    ctx.shared(check_option_values)


@rule("SB114", "invalid-node-count", Severity.ERROR, Outcome.REFUSED)
def invalid_node_count(ctx: Context) -> None:
    """
        ## What it does
        Finds `--nodes` values that are not a count or a `min-max` range (with optional `k`/`m`
        suffixes; size lists such as `1,4,8` from 23.02), or whose maximum is below the minimum.

        ## Why is this bad?
        sbatch stops with `"x" is not a valid node count` or `Maximum node count ... is less than
        minimum node count`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=4-2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2-4
        srun ./app
        ```

        ## Slurm versions
        All; size lists need 23.02 or newer.

        ## References
        - `src/common/proc_args.c:verify_node_count()`
    """
    ctx.shared(check_option_values)


@rule("SB115", "invalid-gres", Severity.ERROR, Outcome.REFUSED)
def invalid_gres(ctx: Context) -> None:
    """
        ## What it does
        Finds malformed `--gres`, `--gpus*` and `--tres-per-task` values, such as `gpu::1`,
        `gpu:` or a count that is not a number.

        ## Why is this bad?
        sbatch validates these on the client and stops with `Invalid generic resource (gres)
        specification` (or an invalid TRES message).

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --gres=gpu::2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --gres=gpu:2
        srun ./app
        ```

        ## Slurm versions
        All; `--tres-per-task` exists from 23.02.

        ## References
        - `src/common/gres.c:_get_next_gres()`
    """
    ctx.shared(check_option_values)


@rule("SB121", "invalid-constraint", Severity.ERROR, Outcome.REFUSED)
def invalid_constraint(ctx: Context) -> None:
    """
        ## What it does
        Finds malformed feature expressions in `--constraint`, `--prefer`, `--batch` and
        `--cluster-constraint`: unbalanced brackets, doubled operators, empty features. A
        comma between two features is read as `&` (`--constraint=a100,ib` asks for both) and
        is not reported; a doubled or leading comma is (`a100,,ib`, like `a100&&ib`).

        ## Why is this bad?
        slurmctld refuses the submission with `Invalid feature specification`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --constraint=[v100|a100
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --constraint=[v100|a100]
        srun ./app
        ```

        ## Slurm versions
        All. The comma read as `&` was checked with `sbatch --test-only` against slurmctld
        22.05.8.

        ## References
        - `man sbatch`, `--constraint`
        - `src/slurmctld/job_mgr.c:build_feature_list()`
    """
    ctx.shared(check_option_values)
