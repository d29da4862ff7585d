"""SB211: `--exclusive` with no memory option, so the job still gets the default memory.

`--exclusive` reserves whole nodes, but the memory limit stays the site
default (`DefMemPerCPU`/`DefMemPerNode`, `man slurm.conf`) unless a memory
option asks for more; `--mem=0` asks for all of each node's memory
(`man sbatch`, `--mem`).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.values.enums import Choice
from slurmspec.rules.traps._header import option_span, own


@rule("SB211", "exclusive-without-all-memory", Severity.INFO, Outcome.ADVICE)
def exclusive_without_all_memory(ctx: Context) -> None:
    """
        ## What it does
        Finds `--exclusive` with no memory option.

        ## Why is this bad?
        `--exclusive` reserves whole nodes, but the job's memory limit is still the site default
        (`DefMemPerCPU` or `DefMemPerNode`), not the node's memory. Jobs that expect the whole
        node's memory are killed for running out of it.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --exclusive
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --exclusive
        #SBATCH --mem=0
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--mem` (NOTE: `--mem=0` requests all memory) and `--exclusive`
    """
    for component in ctx.script.components:
        request = component.request
        exclusive = own(request, "exclusive")
        mode = None if exclusive is None else exclusive.value_as(Choice)
        if mode is None or mode.value != "exclusive":
            continue
        if any(request.has(name) for name in ("mem", "mem-per-cpu", "mem-per-gpu")):
            continue
        ctx.report(
            "SB211", option_span(ctx.script, exclusive.directive),
            "`--exclusive` gives the job whole nodes but not all of their memory: without a"
            " memory option it still gets the site default (DefMemPerCPU/DefMemPerNode); add"
            " `--mem=0` to use all memory of each node",
        )
