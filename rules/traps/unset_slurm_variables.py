"""SB249: Slurm variables the body reads that Slurm does not set for this request.

sbatch exports the `SLURM_*` variables of request options only when the option
is given (`src/common/env.c:set_env_from_opts()`), and from 23.11 no longer
exports `SLURM_GPUS_PER_TASK`/`SLURM_GPU_BIND` (they became `SLURM_TRES_PER_TASK`
and `SLURM_TRES_BIND`).
"""

from __future__ import annotations



from slurmspec.body.index import body_index
from slurmspec.frozen import frozen
from slurmspec.gates import CPUS_PER_TASK_FROM_TRES, TRES_PER_TASK_ENV
from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.lazy_regex import lazy_compile
from slurmspec.model.views.request_facts import assigned, gpu_request, has_body
from slurmspec.model.values.gres import GpuRequest
from slurmspec.version import Version


@frozen
class _Var:
    set_by: tuple[str, ...]  # options whose presence sets it
    hint: str
    until: Version | None = None  # not exported from this release


_UNSET = {
    "SLURM_GPUS_PER_NODE": _Var(("gpus-per-node",), "use `$SLURM_GPUS_ON_NODE`, which every GPU job has"),
    "SLURM_CPUS_PER_TASK": _Var(("cpus-per-task",), "request `--cpus-per-task`, or write `${SLURM_CPUS_PER_TASK:-1}`"),
    "SLURM_NTASKS_PER_NODE": _Var(("ntasks-per-node",), "request `--ntasks-per-node`"),
    "SLURM_GPUS": _Var(("gpus",), "request `--gpus`, or use `$SLURM_GPUS_ON_NODE`"),
    "SLURM_CPUS_PER_GPU": _Var(("cpus-per-gpu",), "request `--cpus-per-gpu`"),
    "SLURM_MEM_PER_GPU": _Var(("mem-per-gpu",), "request `--mem-per-gpu`"),
    "SLURM_NTASKS_PER_GPU": _Var(("ntasks-per-gpu",), "request `--ntasks-per-gpu`"),
    "SLURM_GPUS_PER_TASK": _Var(("gpus-per-task",), "read `SLURM_TRES_PER_TASK`", until=TRES_PER_TASK_ENV),
    "SLURM_GPU_BIND": _Var(("gpu-bind",), "read `SLURM_TRES_BIND`", until=TRES_PER_TASK_ENV),
}
_TESTED = lazy_compile(r"-[zn]\s+\"?\$\{?(\w+)|\$\{(\w+):?[-+=?]")


@rule("SB249", "unset-slurm-variable", Severity.WARNING, Outcome.WRONG)
def unset_slurm_variable(ctx: Context) -> None:
    """
        ## What it does
        Finds Slurm variables that the script reads but that Slurm does not set for this request:
        `SLURM_GPUS_PER_NODE` without `--gpus-per-node` (`--gres=gpu:N` does not set it; with a
        GPU type it holds `a100:4`, not a number), `SLURM_CPUS_PER_TASK` without
        `--cpus-per-task`, `SLURM_NTASKS_PER_NODE`, `SLURM_GPUS`, `SLURM_CPUS_PER_GPU`,
        `SLURM_MEM_PER_GPU` and `SLURM_NTASKS_PER_GPU` without their options,
        and `SLURM_GPUS_PER_TASK`/`SLURM_GPU_BIND` from 23.11 (no longer exported). A
        variable that is only printed (`echo`, `printf`) gets `info`. (`SLURM_NTASKS` is SB321's; the array variables
        are left alone, since the array usually comes from `sbatch --array=...`.)
        References with a default (`${SLURM_CPUS_PER_TASK:-1}`), variables the script sets or
        tests with `-z`/`-n`, and hetjobs are skipped.

        ## Why is this bad?
        The variable is empty: `--nproc_per_node=$SLURM_GPUS_PER_NODE` becomes
        `--nproc_per_node=` and the launcher fails, or arithmetic silently uses 0.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --gres=gpu:4
        torchrun --nproc_per_node=$SLURM_GPUS_PER_NODE train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --gres=gpu:4
        torchrun --nproc_per_node=$SLURM_GPUS_ON_NODE train.py
        ```

        ## Slurm versions
        `SLURM_GPUS_PER_TASK` and `SLURM_GPU_BIND` are exported only up to 23.02.

        ## References
        - `man sbatch`, OUTPUT ENVIRONMENT VARIABLES
        - `src/common/env.c:set_env_from_opts()` (23.11: no `SLURM_GPUS_PER_TASK`, `SLURM_GPU_BIND`)
    """
    if not has_body(ctx) or len(ctx.script.components) > 1:
        return  # hetjob variables carry _HET_GROUP_<n> suffixes
    body = ctx.shared(body_index)
    request = ctx.script.request
    tested = {a or b for a, b in _TESTED.findall(ctx.script.source[ctx.script.header_end:])}
    reported = set()
    for ref in body.refs:
        var = _UNSET.get(ref.name)
        if var is None or ref.default or ref.name in tested or ref.name in reported:
            continue
        if assigned(ctx, ref.name):
            continue
        span = ctx.script.span(ref.start, ref.end)
        given = [name for name in var.set_by if request.has(name)]
        if ref.name == "SLURM_CPUS_PER_TASK" and not given and ctx.version >= CPUS_PER_TASK_FROM_TRES:
            tres = request.get("tres-per-task")
            if tres is not None and "cpu" in str(tres.raw):
                given = ["tres-per-task"]
        if var.until is not None and ctx.version >= var.until:
            reported.add(ref.name)
            ctx.report(
                "SB249", span,
                f"`${ref.name}` is no longer set from Slurm {var.until[0]}.{var.until[1]:02d}"
                f" (it is empty here); {var.hint}",
            )
            continue
        if not given:
            reported.add(ref.name)
            option = "--" + var.set_by[0]
            why = f"Slurm sets it only with `{option}`, which this script does not use"
            if ref.name == "SLURM_GPUS_PER_NODE":
                gpus = gpu_request(ctx)
                if gpus is not None:
                    why = f"`{gpus}` does not set it, only `--gpus-per-node` does"
            printed = body.first_word_at(ref.start) in ("echo", "printf")
            ctx.report(
                "SB249", span,
                f"`${ref.name}` is empty in this job: {why}; {var.hint}",
                severity=Severity.INFO if printed else None, outcome=Outcome.ADVICE if printed else None,
            )
            continue
        per_node = request.value_as("gpus-per-node", GpuRequest)
        if ref.name == "SLURM_GPUS_PER_NODE" and per_node is not None and per_node.types:
            reported.add(ref.name)
            ctx.report(
                "SB249", span,
                f"`$SLURM_GPUS_PER_NODE` holds the option text `{request.get('gpus-per-node').raw}`,"
                " not a number, because the request names a GPU type; use `$SLURM_GPUS_ON_NODE`",
            )
