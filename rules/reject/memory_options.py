"""SB125: more than one of `--mem`, `--mem-per-cpu` and `--mem-per-gpu`, which sbatch refuses.

``src/common/slurm_opt.c:_validate_memory_options()`` stops sbatch when more
than one of the three is set on the command line or in ``#SBATCH`` lines
(both count as "set by CLI"): "--mem, --mem-per-cpu, and --mem-per-gpu are
mutually exclusive."
"""

from __future__ import annotations

from slurmspec.fix import build
from slurmspec.fix.edit import Fix
from slurmspec.kinds import Applicability, Fixability, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.rules.reject._settings import first_occurrence, later, where

_MEMORY = ("mem", "mem-per-cpu", "mem-per-gpu")


@rule("SB125", "memory-options-exclusive", Severity.ERROR, Outcome.REFUSED, fix=Fixability.SOMETIMES)
def memory_options_exclusive(ctx: Context) -> None:
    """
        ## What it does
        Finds a component that sets more than one of `--mem`, `--mem-per-cpu` and
        `--mem-per-gpu`, counting every occurrence (also ones a later line overrides) and a
        `--mem` inherited from an earlier hetjob component.

        ## Why is this bad?
        The three options are different ways of asking for the same memory. sbatch does not let
        a later one replace an earlier one: it stops with `--mem, --mem-per-cpu, and
        --mem-per-gpu are mutually exclusive.` The same happens when the script sets one and the
        command line another.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --mem=16G
        #SBATCH --mem-per-cpu=4G
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --mem-per-cpu=4G
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--mem` ("The --mem, --mem-per-cpu and --mem-per-gpu options are mutually exclusive")
        - `src/common/slurm_opt.c:_validate_memory_options()`
    """
    # --mem is inherited by later hetjob components, so component 0's --mem
    # clashes with a later --mem-per-cpu (checked against sbatch 22.05.8).
    for component in ctx.script.components:
        request = component.request
        settings = [request.get(name) for name in _MEMORY]
        settings = [s for s in settings if s is not None]
        if len(settings) < 2 or all(s.inherited for s in settings):
            continue
        at = later(*settings)
        others = [s for s in settings if first_occurrence(s) is not at]
        listed = " and ".join(
            f"`--{s.name}` ({'inherited from an earlier hetjob component' if s.inherited else where(first_occurrence(s))})"
            for s in others
        )
        ctx.report(
            "SB125", at.span,
            f"`--{at.name}` cannot be combined with {listed}; sbatch stops with \"--mem,"
            " --mem-per-cpu, and --mem-per-gpu are mutually exclusive\". Keep only one of"
            " them (a repeated or overridden occurrence still counts)",
            fix=_keep_per_gpu_memory(ctx, request, settings),
        )


def _keep_per_gpu_memory(ctx: Context, request, settings) -> Fix | None:
    """`--mem` beside `--mem-per-gpu`: keep the per-GPU form, which scales with the GPUs asked for.

    Unsafe: the job's memory changes from a per-node figure to a per-GPU one.
    """
    names = {s.name for s in settings}
    if names != {"mem", "mem-per-gpu"} or request.get("mem").inherited:
        return None
    return build.drop_settings(ctx.script, [request.get("mem")],
                               "Remove `--mem` and keep `--mem-per-gpu`", Applicability.UNSAFE)
