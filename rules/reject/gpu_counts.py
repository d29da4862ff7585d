"""SB141–SB145: GPU counts that contradict each other or the job's node and task counts.

sbatch's client-side GRES validation (``src/common/slurm_opt.c:slurm_opt_create_job_desc()``
→ ``src/common/gres.c:gres_job_state_validate()`` → ``_test_gres_cnt()``)
checks each GPU record of a component in turn against the job's geometry
(``slurmspec/model/views/sbatch_tasks.py``) and stops at the first that fails, printing a specific
error and then "Invalid generic resource (gres) specification". One pass
decides all five codes; counts implied by one check feed the next, as in
Slurm. Records mixing typed and untyped GPUs are refused before any count is
checked (SB147, ``gpu_typed_and_untyped.py``).
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.syntax.script import Directive
from slurmspec.model.views.sbatch_counts import UNKNOWN, ClientGeometry, known
from slurmspec.model.views.sbatch_gpus import Record, gpu_records
from slurmspec.model.views.sbatch_tasks import client_geometry


@rule("SB141", "gpus-per-task-without-tasks", Severity.ERROR, Outcome.REFUSED)
def gpus_per_task_without_tasks(ctx: Context) -> None:
    """
        ## What it does
        Finds `--gpus-per-task` in a job that has no task count: no `--ntasks`, no `--gpus`, and (on
        22.05) no fixed `--nodes`/`--ntasks-per-node` that would imply one. A node range such as
        `-N 1-2` implies nothing.

        ## Why is this bad?
        Slurm multiplies `--gpus-per-task` by the number of tasks; without one sbatch refuses the
        job: `--gpus-per-task used without either --gpus or -n/--ntasks is not allowed`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --gpus-per-task=1
        #SBATCH --cpus-per-task=8
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=4
        #SBATCH --gpus-per-task=1
        #SBATCH --cpus-per-task=8
        srun ./app
        ```

        ## Slurm versions
        All. On 22.05 a fixed `-N k` (times `--ntasks-per-node`) or `--ntasks-per-node` alone
        implies the task count; newer releases leave that to the controller, so only `--ntasks` is
        certain.

        ## References
        - `man sbatch`, `--gpus`, `--gpus-per-node`, `--gpus-per-task`, `--gres`
        - `src/common/gres.c:gres_job_state_validate()` → `_test_gres_cnt()`, called by sbatch from
          `src/common/slurm_opt.c:slurm_opt_create_job_desc()`
    """
    ctx.shared(_check_gpu_counts)


@rule("SB142", "gpus-per-node-inconsistent", Severity.ERROR, Outcome.REFUSED)
def gpus_per_node_inconsistent(ctx: Context) -> None:
    """
        ## What it does
        Finds `--gpus` that is not a multiple of the per-node GPU count (`--gpus-per-node` or
        `--gres=gpu`), a per-node count above `--gpus`, or a total whose node count (`--gpus` ÷
        per-node) falls outside `--nodes`.

        ## Why is this bad?
        Slurm derives the node count from the two and refuses counts that do not divide or that
        contradict `--nodes`: `--gpus is not multiple of --gres=gpu/--gpus-per-node`, `Failed to
        ensure --gpus >= --gres=gpu/--gpus-per-node >= --gpus-per-socket`, or `required nodes ...
        doesn't fall between min_nodes and max_nodes`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --gpus=6
        #SBATCH --gpus-per-node=4
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --gpus-per-node=4
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--gpus`, `--gpus-per-node`, `--gpus-per-task`, `--gres`
        - `src/common/gres.c:gres_job_state_validate()` → `_test_gres_cnt()`, called by sbatch from
          `src/common/slurm_opt.c:slurm_opt_create_job_desc()`
    """
    ctx.shared(_check_gpu_counts)


@rule("SB143", "gpus-per-task-inconsistent", Severity.ERROR, Outcome.REFUSED)
def gpus_per_task_inconsistent(ctx: Context) -> None:
    """
        ## What it does
        Finds a `--gpus-per-task` that does not fit the other counts: more than `--gpus` or the
        per-node count, not a divisor of them, or a task count (`--gpus` ÷ `--gpus-per-task`) or
        tasks per node that differ from `--ntasks`/`--ntasks-per-node`.

        ## Why is this bad?
        Slurm derives tasks from the GPU counts and refuses the job when they disagree, e.g. `Based
        on --gpus and --gpus-per-task number of requested tasks differ from -n/--ntasks` or
        `--gres=gpu/--gpus-per-node not multiple of --gpus-per-task`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=2
        #SBATCH --gpus=4
        #SBATCH --gpus-per-task=1
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=4
        #SBATCH --gpus-per-task=1
        srun ./app
        ```

        ## Slurm versions
        All. On 22.05 a fixed `--nodes` also implies the task count it is compared with.

        ## References
        - `man sbatch`, `--gpus`, `--gpus-per-node`, `--gpus-per-task`, `--gres`
        - `src/common/gres.c:gres_job_state_validate()` → `_test_gres_cnt()`, called by sbatch from
          `src/common/slurm_opt.c:slurm_opt_create_job_desc()`
    """
    ctx.shared(_check_gpu_counts)


@rule("SB144", "gpus-fewer-than-nodes", Severity.ERROR, Outcome.REFUSED)
def gpus_fewer_than_nodes(ctx: Context) -> None:
    """
        ## What it does
        Finds a `--gpus` total smaller than the minimum node count (`--nodes`, or on 22.05 the hosts
        of `--nodelist`).

        ## Why is this bad?
        Every node of the job must get at least one of the GPUs; sbatch refuses the job with `Failed
        to validate job spec, --gpus < -N`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=4
        #SBATCH --gpus=2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=4
        #SBATCH --gpus-per-node=1
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--gpus`, `--gpus-per-node`, `--gpus-per-task`, `--gres`
        - `src/common/gres.c:gres_job_state_validate()` → `_test_gres_cnt()`, called by sbatch from
          `src/common/slurm_opt.c:slurm_opt_create_job_desc()`
    """
    ctx.shared(_check_gpu_counts)


@rule("SB145", "gpus-per-socket-inconsistent", Severity.ERROR, Outcome.REFUSED)
def gpus_per_socket_inconsistent(ctx: Context) -> None:
    """
        ## What it does
        Finds `--gpus-per-socket` without `--sockets-per-node` (or `-B`), or one that does not
        divide the per-node count, exceeds `--gpus`/the per-node count, or disagrees with
        `--sockets-per-node`, `--gpus-per-task` or `--ntasks-per-socket`.

        ## Why is this bad?
        Slurm needs the socket count to turn a per-socket request into a per-node one, and refuses
        counts that contradict each other (`--gpus-per-socket option requires --sockets-per-node
        specification`, `--gres=gpu/--gpus-per-node not multiple of --gpus-per-socket`, ...).

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --gpus-per-socket=2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --sockets-per-node=2
        #SBATCH --gpus-per-socket=2
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--gpus`, `--gpus-per-node`, `--gpus-per-task`, `--gres`
        - `src/common/gres.c:gres_job_state_validate()` → `_test_gres_cnt()`, called by sbatch from
          `src/common/slurm_opt.c:slurm_opt_create_job_desc()`
    """
    ctx.shared(_check_gpu_counts)


_AGREES, _GIVE_UP = object(), object()


def _settle(g: ClientGeometry, field: str, derived: int) -> object:
    """Record a count one GPU option pair implies, as Slurm's GRES validation does.

    Unknown so far: it becomes ``derived`` (``_AGREES``). Unknowable: ``_GIVE_UP``.
    Otherwise ``_AGREES`` when it matches, else the conflicting known value.
    """
    known = getattr(g, field)
    if known is None:
        setattr(g, field, derived)
        return _AGREES
    if known is UNKNOWN:
        return _GIVE_UP
    return _AGREES if known == derived else known


def _test_record(r: Record, g: ClientGeometry) -> tuple[str, str, Directive] | None:
    """(code, message, where) for the first inconsistency of one GPU record, else None.

    Mirrors the order of sbatch's checks; counts it derives are written back to ``g``.
    """
    at = lambda *fields: max((r.where[f] for f in fields), key=lambda d: d.span.start)  # noqa: E731
    if r.job:
        for field, value in (("node", r.node), ("task", r.task), ("socket", r.socket)):
            if value and value > r.job:
                code = {"node": "SB142", "task": "SB143", "socket": "SB145"}[field]
                return code, (f"{r.shown(field)} is more than {r.shown('job')} in total"), at("job", field)
    if r.node:
        for field, value in (("task", r.task), ("socket", r.socket)):
            if value and value > r.node:
                code = "SB143" if field == "task" else "SB145"
                return code, f"{r.shown(field)} is more than {r.shown('node')}", at("node", field)
    if r.socket and g.sockets_per_node is None:
        return "SB145", (f"{r.shown('socket')} needs `--sockets-per-node`"
                         " (\"--gpus-per-socket option requires --sockets-per-node specification\")"), at("socket")
    if r.job and r.node:
        if r.job % r.node:
            return "SB142", f"{r.shown('job')} is not a multiple of {r.shown('node')}", at("job", "node")
        need = r.job // r.node
        if g.min_nodes is UNKNOWN or g.max_nodes is UNKNOWN:
            return None
        if (g.min_nodes is not None and need < g.min_nodes) or (g.max_nodes is not None and need > g.max_nodes):
            span = f"{g.min_nodes}" if g.min_nodes == g.max_nodes else f"{g.min_nodes}-{g.max_nodes or ''}"
            return "SB142", (f"{r.shown('job')} with {r.shown('node')} needs exactly {need}"
                             f" node{'s' if need != 1 else ''}, but the job asks for {span}"), at("job", "node")
        g.min_nodes = g.max_nodes = need
    if r.node and r.socket:
        if r.node % r.socket:
            return "SB145", f"{r.shown('node')} is not a multiple of {r.shown('socket')}", at("node", "socket")
        sockets = r.node // r.socket
        settled = _settle(g, "sockets_per_node", sockets)
        if settled is _GIVE_UP:
            return None
        if settled is not _AGREES:
            return "SB145", (f"{r.shown('node')} with {r.shown('socket')} means {sockets}"
                             f" socket{'s' if sockets != 1 else ''} per node, not"
                             f" `--sockets-per-node={settled}`"), at("node", "socket")
    if r.job and r.task:
        if r.job % r.task:
            return "SB143", f"{r.shown('job')} is not a multiple of {r.shown('task')}", at("job", "task")
        tasks = r.job // r.task
        settled = _settle(g, "num_tasks", tasks)
        if settled is _GIVE_UP:
            return None
        if settled is not _AGREES:
            return "SB143", (f"{r.shown('job')} with {r.shown('task')} makes {tasks}"
                             f" task{'s' if tasks != 1 else ''}, but the job has {settled}"
                             " (\"number of requested tasks differ from -n/--ntasks\")"), at("job", "task")
    elif r.task and g.num_tasks is None:
        return "SB141", "", at("task")
    if r.node and r.task:
        if r.node % r.task:
            return "SB143", f"{r.shown('node')} is not a multiple of {r.shown('task')}", at("node", "task")
        per_node = r.node // r.task
        settled = _settle(g, "ntasks_per_node", per_node)
        if settled is _GIVE_UP:
            return None
        if settled is not _AGREES:
            return "SB143", (f"{r.shown('node')} with {r.shown('task')} makes {per_node}"
                             f" task{'s' if per_node != 1 else ''} per node, not"
                             f" `--ntasks-per-node={settled}`"), at("node", "task")
    if r.socket and r.task:
        if r.socket % r.task:
            return "SB145", f"{r.shown('socket')} is not a multiple of {r.shown('task')}", at("socket", "task")
        per_socket = r.socket // r.task
        settled = _settle(g, "ntasks_per_socket", per_socket)
        if settled is _GIVE_UP:
            return None
        if settled is not _AGREES:
            return "SB145", (f"{r.shown('socket')} with {r.shown('task')} makes {per_socket}"
                             f" task{'s' if per_socket != 1 else ''} per socket, not"
                             f" `--ntasks-per-socket={settled}`"), at("socket", "task")
    if (not r.job and r.task and g.tasks_from_hosts and known(g.num_tasks, g.min_nodes)
            and g.num_tasks * r.task < g.min_nodes):
        # With -m arbitrary, --gpus-per-task becomes a job total (tasks x per task):
        # `-m arbitrary -w n[01-02] --gpus-per-task=1 -N 3` fails with "--gpus < -N".
        return "SB144", (f"{r.shown('task')} for the {g.num_tasks} listed host(s) of the arbitrary"
                         f" distribution is fewer GPUs than the {g.min_nodes} nodes the job asks for"
                         " (\"--gpus < -N\")"), at("task")
    if r.job and known(g.min_nodes) and r.job < g.min_nodes:
        return "SB144", (f"{r.shown('job')} is fewer GPUs than the {g.min_nodes} nodes the job"
                         " asks for; every node needs at least one (\"--gpus < -N\")"), at("job")
    return None


_TAIL = {
    "SB142": "Make the total a multiple of the per-node count that fits the node count, or give only one of them",
    "SB143": "Make the counts agree (tasks × `--gpus-per-task` GPUs), or give only `--gpus-per-task` and `--ntasks`",
    "SB144": "Ask for at least one GPU per node, or use `--gpus-per-node`",
    "SB145": "Make the per-socket count divide the per-node count and give `--sockets-per-node`",
}


def _check_gpu_counts(ctx: Context) -> None:
    for index, component in enumerate(ctx.script.components):
        request = component.request
        records, complete = gpu_records(request)
        if not records or not complete:
            continue
        typed = [r for r in records if r.type is not None]
        untyped = [r for r in records if r.type is None]
        if typed and untyped:
            continue  # refused for mixing them first: SB147 (gpu_typed_and_untyped.py)
        if len(typed) > 1 and request.get("cpus-per-gpu") is not None:
            # Two GPU types with --cpus-per-gpu: sbatch 22.05.8 printed the
            # per-record error (`--gpus-per-task=v100:1 --gres=gpu:a100:4
            # --cpus-per-gpu=1`: "--gpus-per-task used without ...") yet went on
            # to the controller; without --cpus-per-gpu the error is fatal.
            continue
        g = client_geometry(ctx, index)
        for record in records:
            found = _test_record(record, g)
            if found is None:
                continue
            code, message, where = found
            if code == "SB141":
                ctx.report(
                    "SB141", where.span,
                    f"{record.shown('task')} needs a task count, but the job has neither `--ntasks`"
                    " nor `--gpus`; sbatch refuses it (\"--gpus-per-task used without either"
                    " --gpus or -n/--ntasks is not allowed\"). Add `--ntasks` (or a fixed"
                    " `--nodes` with `--ntasks-per-node`)",
                )
            else:
                ctx.report(code, where.span, f"{message}; sbatch refuses the job. {_TAIL[code]}")
            break  # sbatch stops at the first record that fails
