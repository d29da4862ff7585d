"""SB148, SB149: `--ntasks-per-gpu` beside options it excludes, or with nothing to count from.

One pass over ``--ntasks-per-gpu``/``--ntasks-per-tres`` (they set the same
field) reports both. ``src/common/slurm_opt.c:_validate_ntasks_per_gpu()``
stops sbatch when they come with ``--gpus-per-task``, ``--gpus-per-socket`` or
``--ntasks-per-node``, or disagree with each other (SB148, checked against
sbatch 22.05.8). Then the client-side GRES validation
(``src/common/gres.c:gres_job_state_validate()``) needs a GPU count or a task
count to derive the other from: without a GPU count it generates one from
``-n`` (which must divide evenly, SB148, and cover the nodes, SB144), and with
neither it refuses the job (SB149).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.values.counts import NodeCount
from slurmspec.model.views.sbatch_counts import known
from slurmspec.model.views.sbatch_gpus import gpu_records, requests_gpu
from slurmspec.model.views.sbatch_tasks import client_geometry
from slurmspec.rules.reject._settings import first_occurrence


@rule("SB148", "ntasks-per-gpu-conflict", Severity.ERROR, Outcome.REFUSED)
def ntasks_per_gpu_conflict(ctx: Context) -> None:
    """
        ## What it does
        Finds `--ntasks-per-gpu` (or `--ntasks-per-tres`) together with `--gpus-per-task`,
        `--gpus-per-socket` or `--ntasks-per-node`, with a different `--ntasks-per-tres`, or, when
        no GPU count is given, with a `--ntasks` that is not a multiple of it.

        ## Why is this bad?
        These options tie tasks to GPUs in incompatible ways; sbatch stops with e.g.
        `--ntasks-per-node is mutually exclusive with --ntasks-per-gpu and SLURM_NTASKS_PER_GPU`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --gpus=4
        #SBATCH --ntasks-per-gpu=2
        #SBATCH --ntasks-per-node=8
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --gpus=4
        #SBATCH --ntasks-per-gpu=2
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--ntasks-per-gpu`
        - `src/common/slurm_opt.c:_validate_ntasks_per_gpu()`; without a GPU count,
          `src/common/gres.c:gres_job_state_validate()` ("-n/--ntasks has to be a multiple of --ntasks-per-gpu")
    """
    ctx.shared(_check_ntasks_per_gpu)


@rule("SB149", "ntasks-per-gpu-without-counts", Severity.ERROR, Outcome.REFUSED)
def ntasks_per_gpu_without_counts(ctx: Context) -> None:
    """
        ## What it does
        Finds `--ntasks-per-gpu` (or `--ntasks-per-tres`) in a job with neither a GPU count nor a
        task count to derive the other from.

        ## Why is this bad?
        Slurm computes GPUs from tasks or tasks from GPUs; with neither it refuses the job:
        `--ntasks-per-tres needs either a GRES GPU specification or a node/ntask specification`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks-per-gpu=2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --gpus=4
        #SBATCH --ntasks-per-gpu=2
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--ntasks-per-gpu`
        - `src/common/gres.c:gres_job_state_validate()`
    """
    ctx.shared(_check_ntasks_per_gpu)


def _check_ntasks_per_gpu(ctx: Context) -> None:
    # slurm_opt.c:_validate_ntasks_per_gpu() (fatal, checked against sbatch
    # 22.05.8), then the GRES check: --ntasks-per-gpu/--ntasks-per-tres needs a
    # GPU count or a task count ("--ntasks-per-tres needs either a GRES GPU
    # specification or a node/ntask specification").
    for index, component in enumerate(ctx.script.components):
        request = component.request
        npg = request.get("ntasks-per-gpu")
        npt = request.get("ntasks-per-tres")
        if (npg is not None or npt is not None) and _ntasks_per_gpu_clash(ctx, request, npg, npt):
            continue
        setting = npg if npg is not None else npt
        if setting is None or setting.count() is None:
            continue
        if not gpu_records(request)[1] or requests_gpu(request):
            continue
        per, ntasks = setting.count(), request.count("ntasks")
        g = client_geometry(ctx, index)
        explicit = g.tasks_from_hosts or g.tasks_from_layout or ntasks is not None
        if per > 0 and explicit and known(g.num_tasks, g.min_nodes):
            # The GPUs are generated as a job total, tasks / per, which then has to
            # cover the nodes (`-N 2 -n 2 --ntasks-per-gpu=2` and `-m arbitrary
            # -w n[01-02] --ntasks-per-gpu=2` fail with "--gpus < -N" on 22.05.8;
            # a count implied by -N is not checked:
            # `-N 2 --ntasks-per-gpu=2` is accepted).
            gpus = g.num_tasks // per
            if 0 < gpus < g.min_nodes:
                # SB144 (documented in gpu_counts.py) is reported here, so only when
                # SB148 or SB149 runs too (as before the port; see the report).
                ctx.report(
                    "SB144", setting.directive.span,
                    f"`--{setting.name}={per}` with {g.num_tasks} tasks makes {gpus} GPU"
                    f"{'s' if gpus != 1 else ''} in total, fewer than the {g.min_nodes} nodes of the"
                    " job; sbatch refuses it (\"--gpus < -N\"). Give `--gpus-per-node` or more tasks",
                )
                continue
        if ntasks is not None:
            # Without a GPU count the GPUs come from -n, which must divide evenly
            # (`--ntasks-per-gpu=2 -n 3` fails on 22.05.8; an implied count is not checked).
            # With -n below it the generated GPU count is 0 and sbatch only logs
            # "Failed to add generated GRES gres:gpu:0" (`-n 1 --ntasks-per-gpu=2` is accepted).
            if per and ntasks >= per and ntasks % per:
                ctx.report(
                    "SB148", request.get("ntasks").directive.span,
                    f"`--ntasks={ntasks}` is not a multiple of `--{setting.name}={per}`, and no GPU"
                    " count is given to work from; sbatch refuses the job (\"-n/--ntasks has to"
                    " be a multiple of --ntasks-per-gpu\"). Make the task count a multiple, or"
                    " give `--gpus`",
                )
            continue
        if g.num_tasks is not None or _nodes_known(request):
            continue
        ctx.report(
            "SB149", setting.directive.span,
            f"`--{setting.name}={setting.raw}` needs a GPU count or a task count to work from, and"
            " the job has neither; sbatch refuses it (\"--ntasks-per-tres needs either a GRES GPU"
            " specification or a node/ntask specification\"). Add `--gpus` or `--ntasks`",
        )


def _nodes_known(request) -> bool:
    # A fixed node count is enough for --ntasks-per-gpu even when -c keeps it
    # from implying tasks: sbatch 22.05.8 accepts `-N 1 -c 1` next to
    # --ntasks-per-gpu=1, but refuses a range such as `-N 1-2`, `-N 0`, and a
    # node list without -m arbitrary.
    nodes = request.get("nodes")
    if nodes is None:
        return False
    value = nodes.value_as(NodeCount)
    if value is None:
        return True  # invalid: other rules report it
    return 0 < value.minimum == value.maximum


def _ntasks_per_gpu_clash(ctx: Context, request, npg, npt) -> bool:
    # --ntasks-per-tres sets the same field, so it clashes the same way
    # (`--gpus-per-task=1 -N 1 --ntasks-per-tres=1` fails on 22.05.8).
    mine = npg if npg is not None else npt
    for other in ("gpus-per-task", "gpus-per-socket", "ntasks-per-node"):
        setting = request.get(other)
        if setting is None:
            continue
        later = max(first_occurrence(mine), first_occurrence(setting), key=lambda d: d.span.start)
        ctx.report(
            "SB148", later.span,
            f"`--{mine.name}` cannot be combined with `--{other}`; sbatch stops with"
            f" \"--{other} is mutually exclusive with --ntasks-per-gpu\". Use one way of"
            " tying tasks to GPUs",
        )
        return True
    a, b = request.count("ntasks-per-gpu"), request.count("ntasks-per-tres")
    if a is not None and b is not None and a != b:
        later = max(npg.directive, npt.directive, key=lambda d: d.span.start)
        ctx.report(
            "SB148", later.span,
            f"`--ntasks-per-gpu={a}` and `--ntasks-per-tres={b}` disagree; sbatch stops with"
            " \"Inconsistent values set to --ntasks-per-gpu and --ntasks-per-tres\". Give only"
            " `--ntasks-per-gpu`",
        )
        return True
    return False
