"""SB247: `$SLURM_PROCID`, `$SLURM_LOCALID`, `$SLURM_NODEID` expanded by the batch script itself.

These are per-task variables (`src/common/env.c:setup_env()`, set for each
task a step launches). The batch script is the single task of the batch step,
so there they are `0`; a reference expanded by the batch shell, even on an
`srun` line, gives every task that `0`. References the batch shell does not
expand (single quotes, an escaped `$X`, quoted here-documents) come from the body index.
"""

from __future__ import annotations


from slurmspec.body.index import body_index
from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.lazy_regex import lazy_compile
from slurmspec.model.views.request_facts import assigned, has_body, may_span

_RANK_VARS = frozenset({"SLURM_PROCID", "SLURM_LOCALID", "SLURM_NODEID"})
_STEP_AWARE = lazy_compile(r"SLURM_STEP_?ID|srun\b[^\n]*(\$0\b|\$\{?BASH_SOURCE)")


@rule("SB247", "rank-variable-in-batch-script", Severity.WARNING, Outcome.WRONG)
def rank_variable_in_batch_script(ctx: Context) -> None:
    """
        ## What it does
        Finds `$SLURM_PROCID`, `$SLURM_LOCALID` and `$SLURM_NODEID` expanded by the batch script
        itself, including on an `srun` command line, where the batch shell expands them before
        `srun` starts the tasks. References in single quotes, escaped as `\\$SLURM_PROCID`, or in a
        quoted here-document are expanded later, inside the step, and are fine. Scripts that also
        run themselves as a step (they mention `SLURM_STEP_ID`, or `srun` runs `$0`) are skipped,
        and so are jobs where the value 0 is right: `SLURM_NODEID` on one node, the others in a
        job of one task.
        In `echo`/`printf` the finding is `info`, once per variable.

        ## Why is this bad?
        The batch script runs as one task: these variables are `0` there. `--node_rank=$SLURM_NODEID`
        on `srun torchrun ...` gives every node rank 0, and the rendezvous hangs or trains twice.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=1
        srun torchrun --nnodes=2 --node_rank=$SLURM_NODEID train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=1
        srun bash -c 'torchrun --nnodes=2 --node_rank=$SLURM_NODEID train.py'
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, OUTPUT ENVIRONMENT VARIABLES; `man srun`, `SLURM_PROCID`
        - `src/common/env.c:setup_env()`, which sets them for each task of a step
    """
    if not has_body(ctx):
        return
    if _STEP_AWARE.search(ctx.script.source[ctx.script.header_end:]):
        return  # the script also runs as a step (or checks whether it does)
    body = ctx.shared(body_index)
    multi_node, multi_task = may_span(ctx)
    printed = set()
    for ref in body.refs:
        if ref.name not in _RANK_VARS or ref.deferred or assigned(ctx, ref.name):
            continue
        if not (multi_node if ref.name == "SLURM_NODEID" else multi_task):
            continue  # one node (one task): 0 is the right value
        span = ctx.script.span(ref.start, ref.end)
        if body.first_word_at(ref.start) in ("echo", "printf"):
            if ref.name in printed:
                continue  # one note per variable for log lines
            printed.add(ref.name)
            ctx.report(
                "SB247", span,
                f"`${ref.name}` is always `0` in the batch script, which runs as a single task;"
                " this prints the rank of the batch step, not of the tasks `srun` starts",
                severity=Severity.INFO, outcome=Outcome.ADVICE,
            )
            continue
        ctx.report(
            "SB247", span,
            f"`${ref.name}` is expanded by the batch script, where it is always `0` (the batch"
            " script is a single task): every process gets the same value. Expand it inside the"
            f" step: `srun bash -c '... ${ref.name} ...'` (or `\\${ref.name}` inside double quotes)",
        )
