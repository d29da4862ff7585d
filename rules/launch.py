"""SB3xx: the body's launch commands against what the job asks Slurm for.

The numbers come from ``rules/_geometry.py`` (nodes, tasks, tasks per node and
GPUs per node of the job, or of one ``srun`` step); a rule only compares numbers
that are literal on both sides, never values hidden in variables. Launches come
from the body model (``script.body``): ``srun``, ``mpirun``, ``torchrun`` (also
``python -m torch.distributed.run|launch``), ``horovodrun``, ``accelerate
launch``, ``deepspeed`` and ``python``, nested through ``srun ... torchrun``,
``bash -c`` and containers.

Shared conventions: a script that sets ``CUDA_VISIBLE_DEVICES`` (or the ROCm
equivalents) itself chose its devices, so the GPU-count rules stay silent;
launches inside a loop or sent to the background are usually one of several
concurrent steps sharing the allocation, so the "GPUs idle" rules skip them.
"""

from __future__ import annotations

import re

from slurmspec.body.wrappers import basename
from slurmspec.rules._legacy import Context, Rule
from slurmspec.rules._geometry import Geometry, script_geometry, step_geometry, launch_steps
from slurmspec.rules import _fixes

_DEVICE_VARS = frozenset({"CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
                          "ZE_AFFINITY_MASK", "GPU_DEVICE_ORDINAL"})
_SPAWNING = frozenset({"torchrun", "accelerate", "deepspeed", "horovodrun", "mpirun"})
_LOOPS = frozenset({"for", "while", "until"})
# python -m modules that are tools, not the job's work.
_TOOL_MODULES = frozenset({"pip", "venv", "ensurepip", "site", "http.server", "json.tool", "pip3",
                           "virtualenv", "ipykernel", "jupyter", "notebook", "nvitop", "gpustat",
                           "compileall", "pdb", "cProfile", "timeit", "wandb", "tensorboard"})
# Arguments or programs that hand a GPU/process count to the program, or name a
# framework that starts its own workers: the program may use every GPU itself.
_GPU_HINT = re.compile(
    r"gpu|device|nproc|world.?size|parallel|distributed|ddp|fsdp|strategy|accelerat|launcher|"
    r"tp.?size|tensor|pipeline|num.?proc|n.?procs|vllm|sglang|\bray\b|deepspeed|megatron|horovod|"
    r"spawn|multi.?process|jax|\bcuda\b|num.?workers.?per|lightning|hydra/launcher",
    re.IGNORECASE,
)


# Words in the body that show the work is multi-GPU aware: frameworks that start their own
# workers or drive every visible GPU from one process, and variables telling the program
# how many GPUs it has.
_SCRIPT_HINT = re.compile(
    r"torch\.distributed|distributeddataparallel|dataparallel|deepspeed|megatron|accelerate|horovod|"
    r"vllm|sglang|\bjax|\bray\b|nccl|world.?size|nproc|mp\.spawn|tensor.?parallel|\btp.?size|"
    r"\bn_?gpus?\b|num.?gpus?|gpu.?count|gpus.?per|gpus.?on.?node|slurm_gpus|visible_devices|"
    r"--devices|strategy|lightning|tensorflow|keras|\bfsdp|disbatch|dask|parsl|submitit|snakemake|nextflow",
    re.IGNORECASE,
)
# Commands that only inspect or move files: an srun of one of them does not use the GPUs.
_TRIVIAL = frozenset({"hostname", "nvidia-smi", "echo", "mkdir", "cp", "rm", "tar", "rsync", "ls", "date",
                      "env", "cat", "true", "sleep", "printenv", "pwd", "uname", "df", "du", "touch", "which"})
_RUNS_SCRIPT = re.compile(r"^\s*(?:(?:time|exec|bash|sh|zsh)\s+)*(?:\./|/|~/|\$\{?\w+\}?/)?[\w./${}-]*\.sh\b")


# -- shared helpers ---------------------------------------------------------


def _sets_devices(script) -> bool:
    if any(a.name in _DEVICE_VARS for a in script.body.exports):
        return True
    return any(a.name in _DEVICE_VARS for launch in script.body.all_launches() for a in launch.env)


def _assigns(script, *names: str) -> bool:
    return any(a.name in names for a in script.body.exports) or any(
        a.name in names for launch in script.body.all_launches() for a in launch.env
    )


def _repeated(launch) -> bool:
    """In a loop or in the background: probably one of several concurrent steps."""
    return launch.backgrounded or bool(_LOOPS.intersection(launch.context))


def _is_work(launch) -> bool:
    """A ``python`` launch that runs a script or module (not ``-c``, pip, venv...)."""
    if launch.kind != "python" or not launch.program:
        return False
    program = launch.program
    if launch.has("module"):
        return program.split(".")[0] not in _TOOL_MODULES and program not in _TOOL_MODULES
    return program.endswith(".py") or "/" in program or program.startswith("$")


def _hinted(launch) -> bool:
    return any(_GPU_HINT.search(word) for word in (launch.program or "", *launch.args))


def _name(launch) -> str:
    """How a launcher is called in messages: `torchrun`, `python -m torch.distributed.launch`."""
    if launch.entry:
        return f"python -m {launch.entry}"
    if launch.kind == "accelerate":
        return "accelerate launch"
    return basename(launch.command) or launch.kind


def _program(launch) -> str:
    cmd = basename(launch.command)
    if launch.kind == "python" and launch.program:
        return f"{cmd} -m {launch.program}" if launch.has("module") else f"{cmd} {launch.program}"
    return cmd


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _idle(n: int, what: str = "") -> str:
    """``3 GPUs stay idle`` / ``1 GPU stays idle`` / ``1 of them stays idle``."""
    noun = what or ("GPU" if n == 1 else "GPUs")
    return f"{n} {noun} {'stays' if n == 1 else 'stay'} idle"


def _option_span(launch, *names: str):
    for opt in reversed(launch.options):
        if opt.name in names:
            return opt.span
    return launch.command_span


def _job_nodes_min(script, component: int = 0) -> int | None:
    try:
        setting = script.components[component].request.get("nodes")
    except (IndexError, AttributeError):
        return None
    value = None if setting is None else getattr(setting.value, "minimum", None)
    return value if isinstance(value, int) else None


def _nodes_note(geom: Geometry) -> tuple[str, ...]:
    return (f"the node count comes from {geom.node_source}",) if geom.node_source else ()


def _gpu_note(geom: Geometry) -> tuple[str, ...]:
    return (f"the GPUs per node come from {geom.gpu_source}",) if geom.gpu_source else ()


def _task_note(geom: Geometry) -> tuple[str, ...]:
    return (f"the tasks come from {geom.task_source}",) if geom.task_source else ()


# -- SB301-SB306: torchrun, accelerate launch, deepspeed ----------------------


def check_distributed(ctx: Context) -> None:
    script = ctx.script
    devices = _sets_devices(script)
    for launch, srun in launch_steps(script):
        if launch.kind not in ("torchrun", "accelerate", "deepspeed"):
            continue
        if any(k in ("mpirun", "horovodrun") for k in launch.outer):
            continue
        geom = step_geometry(script, srun)
        if geom is None:
            continue
        name = _name(launch)
        if srun is not None:
            _tasks_per_node(ctx, launch, srun, geom, name)
        single_node = srun is None and launch.kind != "deepspeed" and not launch.outer and _bare_multinode(
            ctx, launch, name)
        if single_node:
            continue
        _nodes(ctx, launch, srun, geom, name)
        if not devices and not _assigns(script, "PET_NPROC_PER_NODE"):
            _gpus(ctx, launch, geom, name)
        if launch.kind == "torchrun":
            _rendezvous(ctx, launch, srun, geom, name)
        _node_rank(ctx, launch, srun, geom, name)


def _tasks_per_node(ctx, launch, srun, geom: Geometry, name: str) -> None:
    tpn = geom.tasks_per_node
    per = launch.nproc_per_node if launch.kind == "torchrun" else (
        launch.num_gpus if launch.kind == "deepspeed" else None)
    if tpn is not None and tpn > 1:
        total = f"; with `{launch.option('nproc-per-node').raw}={per}` that is {tpn * per} processes per node" \
            if per and launch.option("nproc-per-node") is not None else ""
        ctx.report(
            "SB301", _option_span(srun, "ntasks-per-node", "tasks-per-node", "ntasks"),
            f"`srun` starts {tpn} tasks per node and each runs its own `{name}`, which starts its own"
            f" workers{total}; start one task per node (`srun --ntasks-per-node=1 {name} ...`)",
            notes=_task_note(geom),
            fix=_fixes.set_tasks_per_node(ctx.script, srun, 1, f"one `{name}` per node"),
        )
    elif tpn is None and geom.tasks is not None and geom.nodes is not None and geom.tasks > geom.nodes:
        ctx.report(
            "SB301", _option_span(srun, "ntasks-per-node", "tasks-per-node", "ntasks"),
            f"`srun` starts {geom.tasks} tasks on {_plural(geom.nodes, 'node')}, so some nodes run several"
            f" copies of `{name}`, each starting its own workers; start one task per node"
            f" (`srun --ntasks-per-node=1 {name} ...`)",
            notes=_task_note(geom),
            fix=_fixes.set_tasks_per_node(ctx.script, srun, 1, f"one `{name}` per node"),
        )


def _bare_multinode(ctx, launch, name: str) -> bool:
    nodes = _job_nodes_min(ctx.script)
    if nodes is None or nodes < 2:
        return False
    ctx.report(
        "SB302", launch.command_span,
        f"`{name}` runs in the batch script itself, which executes on the first node only; the"
        f" {'other node' if nodes == 2 else f'other {nodes - 1} nodes'} of the job"
        f" {'stays' if nodes == 2 else 'stay'} idle. Start it on every node with"
        f" `srun --ntasks-per-node=1 {name} ...`",
    )
    return True


def _nodes(ctx, launch, srun, geom: Geometry, name: str) -> None:
    nodes = geom.nodes
    if nodes is None:
        return
    if launch.kind == "torchrun":
        opt = launch.option("nnodes")
        if launch.standalone:
            lo = hi = 1
            what = "`--standalone`"
        elif opt is None:
            if srun is None or nodes < 2 or _assigns(ctx.script, "PET_NNODES"):
                return
            ctx.report(
                "SB303", launch.command_span,
                f"`{name}` without `--nnodes` trains on one node, and `srun` starts it on"
                f" {nodes} nodes: each node runs a separate single-node training. Pass"
                f" `--nnodes={nodes}` (or `$SLURM_JOB_NUM_NODES`) and a rendezvous endpoint",
                notes=_nodes_note(geom),
            )
            return
        else:
            if launch.nnodes_range is None:
                return
            lo, hi = launch.nnodes_range
            what = f"`{opt.raw}={opt.value}`"
        span = opt.span if opt is not None else _option_span(launch, "standalone")
    elif launch.kind == "accelerate":
        if launch.num_machines is None:
            return
        lo = hi = launch.num_machines
        opt = launch.option("num-machines")
        what, span = f"`{opt.raw}={opt.value}`", opt.span
    else:  # deepspeed: --num_nodes caps the hosts of the hostfile it uses
        if launch.num_nodes is None:
            return
        lo = hi = launch.num_nodes
        opt = launch.option("num-nodes")
        what, span = f"`{opt.raw}={opt.value}`", opt.span
        if srun is None and lo <= nodes:
            return
    if lo <= nodes <= hi:
        return
    where = "the job has" if srun is None else "`srun` starts it on"
    if nodes < lo:
        effect = "it waits for nodes that never join until the time limit"
    else:
        effect = ("each node runs a separate training" if hi == 1
                  else "the extra nodes fail to join or train separately")
    ctx.report(
        "SB303", span,
        f"{what} does not match the {_plural(nodes, 'node')} {where}: {effect}; make them agree"
        f" (e.g. `$SLURM_JOB_NUM_NODES`)",
        notes=_nodes_note(geom),
    )


def _gpus(ctx, launch, geom: Geometry, name: str) -> None:
    gpn = geom.gpus_per_node
    if not gpn:
        return
    if launch.kind == "torchrun":
        opt = launch.option("nproc-per-node")
        if opt is None:
            if gpn < 2:
                return
            ctx.report(
                "SB304", launch.command_span,
                f"`{name}` without `--nproc_per_node` starts 1 worker per node, but the job has"
                f" {gpn} GPUs per node: {_idle(gpn - 1, 'of them')}. Pass `--nproc_per_node={gpn}`",
                notes=_gpu_note(geom),
            )
            return
        count, per = launch.nproc_per_node, "per node"
        have = gpn
    elif launch.kind == "deepspeed":
        opt = launch.option("num-gpus")
        count, per, have = launch.num_gpus, "per node", gpn
    else:
        opt = launch.option("num-processes")
        count, per = launch.num_processes, "in total"
        have = geom.gpus_total
    if opt is None or count is None or have is None or count == have:
        return
    if count < have:
        effect = f"{have - count} of the {have} GPUs{' per node' if per == 'per node' else ''} stay idle"
    else:
        effect = f"{count - have} workers {per} have no GPU of their own (CUDA `invalid device ordinal`)"
    ctx.report(
        "SB304", opt.span,
        f"`{opt.raw}={opt.value}` starts {count} workers {per}, but the job has {have} GPUs {per}:"
        f" {effect}. Make them equal",
        notes=_gpu_note(geom),
    )


def _rendezvous(ctx, launch, srun, geom: Geometry, name: str) -> None:
    if launch.standalone or launch.has("rdzv-endpoint") or launch.has("master-addr"):
        return
    if _assigns(ctx.script, "PET_RDZV_ENDPOINT", "PET_MASTER_ADDR"):
        return
    rng = launch.nnodes_range
    opt = launch.option("nnodes")
    multi = (rng is not None and rng[1] > 1) or (
        opt is not None and rng is None and geom.nodes is not None and geom.nodes > 1 and srun is not None)
    if not multi or opt is None:
        return
    ctx.report(
        "SB305", opt.span,
        f"`{name}` runs on several nodes but has no `--rdzv_endpoint` (or `--master_addr`): every"
        f" node looks for the rendezvous on its own localhost and waits forever. Pass"
        f" `--rdzv_backend=c10d --rdzv_endpoint=$head_node:29500` with the first host of"
        f" `scontrol show hostnames \"$SLURM_JOB_NODELIST\"`",
    )


def _node_rank(ctx, launch, srun, geom: Geometry, name: str) -> None:
    if srun is None or geom.nodes is None or geom.nodes < 2:
        return
    if launch.kind == "accelerate":
        opt, value = launch.option("machine-rank"), launch.machine_rank
    else:
        opt, value = launch.option("node-rank"), launch.node_rank
        backend = (launch.rdzv_backend or "static").lower()
        if launch.kind == "torchrun" and backend != "static":
            return  # c10d/etcd rendezvous assign ranks and ignore --node_rank
    if opt is None or value is None:
        return
    ctx.report(
        "SB306", opt.span,
        f"`{opt.raw}={opt.value}` is the same on all {geom.nodes} nodes `srun` starts, so every node"
        f" claims rank {value} and the rendezvous never completes; use `$SLURM_NODEID` (escaped or"
        f" inside `bash -c '...'` so each task expands its own) or a c10d rendezvous",
    )


# -- SB310-SB312: python started by srun (DDP, Lightning, ...) ---------------


def check_python_tasks(ctx: Context) -> None:
    script = ctx.script
    if _sets_devices(script):
        return
    launches = list(launch_steps(script))
    spawning = any(l.kind in _SPAWNING for l, _ in launches)
    lightning = re.search(r"lightning", script.source, re.IGNORECASE) is not None
    idle_reported = _other_work(script, launches)
    for launch, srun in launches:
        if not _is_work(launch) or launch.outer not in ((), ("srun",)):
            continue
        geom = step_geometry(script, srun)
        if geom is None:
            continue
        if lightning:
            _lightning(ctx, launch, srun, geom)
        gpn, tpn = geom.gpus_per_node, geom.tasks_per_node
        if gpn is None or gpn == 0 or _repeated(launch) or (srun is not None and _repeated(srun)):
            continue
        if tpn == 1 or srun is None:
            if gpn >= 2 and not spawning and not idle_reported and not _hinted(launch):
                idle_reported = True
                where = srun if srun is not None else launch
                fix = (f"start one task per GPU (`#SBATCH --ntasks-per-node={gpn}` and `srun`)"
                       f" or use `torchrun --nproc_per_node={gpn}`")
                ctx.report(
                    "SB310", where.span if where.span.end_line == where.span.line else where.command_span,
                    f"the job has {gpn} GPUs per node but `{_program(launch)}` runs as a single process"
                    f" per node: unless the program starts one process per GPU itself, {_idle(gpn - 1)}; {fix}",
                    notes=_gpu_note(geom) + _task_note(geom),
                    fix=_fixes.set_tasks_per_node(script, srun, gpn, "one task per GPU") if srun is not None else None,
                )
            continue
        if srun is None:
            continue
        if tpn is not None and tpn != gpn:
            _mismatch(ctx, srun, launch, geom, tpn, gpn, "per node")
        elif tpn is None and geom.tasks and geom.gpus_total and geom.tasks > 1 and geom.tasks != geom.gpus_total:
            _mismatch(ctx, srun, launch, geom, geom.tasks, geom.gpus_total, "in total")


def _other_work(script, launches) -> bool:
    """True when something besides plain ``python`` may use the GPUs, so SB310 keeps quiet."""
    if _SCRIPT_HINT.search(script.source, script.header_end):
        return True
    for launch, srun in launches:
        if launch.kind == "srun" and launch.inner is None:
            if basename(launch.program or "") not in _TRIVIAL:
                return True
    for line in script.lines:
        if line.kind == "command" and line.span.start >= script.header_end and _RUNS_SCRIPT.match(line.text):
            return True
    return False


def _mismatch(ctx, srun, launch, geom, tasks: int, gpus: int, per: str) -> None:
    if tasks < gpus:
        effect = f"{_idle(gpus - tasks)} {per}"
    else:
        effect = (f"several processes share each GPU (NCCL refuses two ranks on one GPU with"
                  f" `Duplicate GPU detected`)")
    ctx.report(
        "SB311", _option_span(srun, "ntasks-per-node", "tasks-per-node", "ntasks"),
        f"`srun {_program(launch)}` starts {tasks} tasks {per} for {gpus} GPUs {per}: {effect}."
        f" DDP, Horovod, DeepSpeed and Lightning under `srun` expect one task per GPU"
        f" (`--ntasks-per-node` = GPUs per node)",
        notes=_task_note(geom) + _gpu_note(geom),
        fix=_fixes.set_tasks_per_node(ctx.script, srun, gpus, "one task per GPU") if per == "per node" else None,
    )


def _lightning(ctx, launch, srun, geom: Geometry) -> None:
    if geom.per_node_given:
        return
    request = ctx.script.components[0].request
    srun_n = None
    if srun is not None:
        if srun.has("ntasks-per-node") or srun.has("tasks-per-node"):
            return
        opt = srun.option("ntasks")
        if opt is not None:
            srun_n = srun.ntasks
            if srun_n is None or srun_n < 2:
                return
            span, text = opt.span, f"`srun {opt.raw} {opt.value}`"
    if request.has("ntasks-per-node"):
        return
    if srun_n is None:
        setting = request.get("ntasks")
        n = getattr(setting.value, "value", None) if setting is not None else None
        if not isinstance(n, int) or n < 2:
            return
        span, text = setting.directive.span, f"`--ntasks={setting.raw}`"
        srun_n = n
    ctx.report(
        "SB312", span,
        f"{text} without `--ntasks-per-node`: Lightning's SLURM environment refuses to start"
        f" (\"You set `--ntasks={srun_n}` ... not supported\"); use `--ntasks-per-node` with `--nodes`",
    )


# -- SB313: mpirun / horovodrun process counts ------------------------------


def check_mpi(ctx: Context) -> None:
    script = ctx.script
    geom = script_geometry(script)
    mpi = [l for l in script.body.launches if l.kind in ("mpirun", "horovodrun")]
    nps = {l.np for l in mpi}
    devices = _sets_devices(script)
    for launch in mpi:
        tasks = geom.tasks if geom.tasks_explicit else None
        np = launch.np
        name = basename(launch.command)
        opt = launch.option("np") or launch.option("num-proc")
        if np is not None and tasks is not None and np > tasks:
            ctx.report(
                "SB313", opt.span,
                f"`{name} {opt.raw} {np}` starts more processes than the {tasks} tasks the job asks"
                f" for: MPI refuses (`not enough slots`) or oversubscribes the CPUs. Request"
                f" `--ntasks={np}` or drop `{opt.raw}` so {name} uses the tasks Slurm gives",
                notes=_task_note(geom),
            )
            continue
        ppn_opt = next((o for o in reversed(launch.options) if o.name in ("ppn", "npernode", "map-by")), None)
        if launch.ppn is not None and geom.per_node_given and geom.tasks_per_node is not None \
                and launch.ppn > geom.tasks_per_node and ppn_opt is not None:
            ctx.report(
                "SB313", ppn_opt.span,
                f"`{ppn_opt.raw} {ppn_opt.value}` puts {launch.ppn} processes on each node, but the job"
                f" asks for `--ntasks-per-node={geom.tasks_per_node}`: MPI refuses or oversubscribes",
            )
            continue
        if _repeated(launch):
            continue
        gpus = geom.gpus_total
        if np is None:
            # Without -np MPI starts one process per Slurm task.
            python = launch.inner is not None and launch.inner.kind == "python"
            if tasks is not None and gpus and not devices and tasks < gpus and python \
                    and launch.kind == "mpirun" and launch.ppn is None:
                ctx.report(
                    "SB313", launch.command_span,
                    f"`{name}` starts one process per Slurm task, {tasks} here, for the job's {gpus}"
                    f" GPUs: {_idle(gpus - tasks)}. Ask for one task per GPU"
                    f" (`--ntasks-per-node` = GPUs per node)",
                    notes=_task_note(geom) + _gpu_note(geom),
                )
            continue
        if gpus and not devices and np < gpus:
            ctx.report(
                "SB313", opt.span,
                f"`{name} {opt.raw} {np}` starts {np} processes for the job's {gpus} GPUs:"
                f" {_idle(gpus - np)}. Horovod and MPI-based training expect one process per GPU",
                notes=_gpu_note(geom),
            )
        elif not gpus and tasks is not None and np < tasks and len(mpi) == 1 and len(nps) == 1:
            ctx.report(
                "SB313", opt.span,
                f"`{name} {opt.raw} {np}` uses {np} of the {tasks} tasks the job asks for; the rest"
                f" of the allocation stays idle. Request `--ntasks={np}` or drop `{opt.raw}`",
                severity="info", notes=_task_note(geom),
            )


# -- SB320: srun and --cpus-per-task on 22.05/23.02 --------------------------


def check_srun_cpus(ctx: Context) -> None:
    if not (22, 5) <= ctx.version < (23, 11):
        return
    script = ctx.script
    exported = [a for a in script.body.exports if a.name == "SRUN_CPUS_PER_TASK"]
    for launch in script.body.all_launches():
        if launch.kind != "srun" or launch.has("cpus-per-task"):
            continue
        if any(a.name == "SRUN_CPUS_PER_TASK" for a in launch.env):
            continue
        if any(a.span.start < launch.span.start for a in exported):
            continue
        geom = step_geometry(script, launch)
        if geom is None:
            continue
        comp = 0
        het = launch.value("het-group")
        if het is not None and het.isdigit() and int(het) < len(script.components):
            comp = int(het)
        setting = script.components[comp].request.get("cpus-per-task")
        cpt = getattr(setting.value, "value", None) if setting is not None else None
        if not isinstance(cpt, int) or cpt < 2:
            continue
        version = f"{ctx.version[0]}.{ctx.version[1]:02d}"
        ctx.report(
            "SB320", launch.command_span,
            f"on Slurm {version} `srun` does not inherit `--cpus-per-task={setting.raw}` from the job:"
            f" each task gets 1 CPU. Add `-c {setting.raw}` (or `-c \"$SLURM_CPUS_PER_TASK\"`) to this"
            f" line, or `export SRUN_CPUS_PER_TASK=$SLURM_CPUS_PER_TASK` before it",
        )


# -- SB321: SLURM_NTASKS when the job sets no task count ---------------------------

_REF = re.compile(r"(?<!\\)\$(?:\{(SLURM_[A-Z_]+)(\}|[^}A-Z_])|(SLURM_[A-Z_]+)\b)")
_TASK_OPTIONS = ("ntasks", "ntasks-per-node", "extra-node-info", "sockets-per-node", "cores-per-socket",
                 "threads-per-core", "ntasks-per-gpu", "ntasks-per-socket", "ntasks-per-core")


def _unset_reason(name: str, request, version) -> tuple[str, str] | None:
    """(why it is unset, what to do) for a variable the request leaves unset, else None."""
    has = request.has
    if name in ("SLURM_NTASKS", "SLURM_NPROCS"):
        if any(has(o) for o in _TASK_OPTIONS) or (has("gpus-per-task") and has("gpus")):
            return None
        return ("is only set when the job asks for a task count (`-n`/`--ntasks-per-node`)",
                "add `#SBATCH --ntasks=N` or use `$SLURM_JOB_NUM_NODES`")
    return None


def _single_quoted(text: str) -> list[tuple[int, int]]:
    """Ranges of ``text`` inside single quotes (outside double quotes), and comments."""
    out, i, n, dq = [], 0, len(text), False
    while i < n:
        c = text[i]
        if c == "\\" and not dq:
            i += 2
            continue
        if c == "\\" and dq:
            i += 2
            continue
        if c == '"':
            dq = not dq
        elif c == "'" and not dq:
            j = text.find("'", i + 1)
            j = n if j == -1 else j
            out.append((i, j))
            i = j + 1
            continue
        elif c == "#" and not dq and (i == 0 or text[i - 1] in " \t;"):
            nl = text.find("\n", i)
            nl = n if nl == -1 else nl
            out.append((i, nl))
            i = nl
            continue
        i += 1
    return out


def check_unset_variables(ctx: Context) -> None:
    script = ctx.script
    if len(script.components) != 1 or not script.directives:
        return
    request = script.components[0].request
    seen: set[str] = set()
    for line in script.lines:
        if line.kind != "command" or line.span.start < script.header_end or "SLURM_" not in line.text:
            continue
        text = line.text
        masked = _single_quoted(text)
        for m in _REF.finditer(text):
            name = m.group(1) or m.group(3)
            if name in seen or any(a <= m.start() < b for a, b in masked):
                continue
            if m.group(2) is not None and m.group(2) != "}":
                continue  # ${VAR:-default} and friends
            reason = _unset_reason(name, request, ctx.version)
            if reason is None or _assigns(script, name):
                continue
            if re.search(r"(?:\[\[?|\btest)\s+(?:!\s+)?-[zn]\s+\"?\$\{?" + name, text):
                continue  # the script tests whether it is set
            seen.add(name)
            why, fix = reason
            start = line.span.start + m.start()
            ctx.report(
                "SB321", script.span(start, start + len(m.group(0)) - (0 if m.group(1) else 0)),
                f"`${name}` {why}, so here it expands to an empty string; {fix}",
            )


# -- SB340-SB342: advice -----------------------------------------------------


def check_cpus_per_gpu(ctx: Context) -> None:
    script = ctx.script
    request = script.components[0].request
    if request.has("exclusive"):
        return
    geom = script_geometry(script)
    gpn = geom.gpus_per_node
    if not gpn:
        return
    if geom.cpus_per_gpu is not None:
        setting = request.get("cpus-per-gpu")
        per = geom.cpus_per_gpu
        what = f"`--cpus-per-gpu={setting.raw}`"
    elif geom.cpus_per_task is not None and geom.tasks_per_node is not None:
        setting = request.get("cpus-per-task")
        if setting is None:
            return
        cpus = geom.cpus_per_task * geom.tasks_per_node
        per = cpus / gpn
        what = f"{_plural(cpus, 'CPU')} per node (`--cpus-per-task={setting.raw}`) for {_plural(gpn, 'GPU')}"
    else:
        return
    if per >= 4:
        return
    shown = f"{per:.2g}" if isinstance(per, float) else str(per)
    unit = "CPU" if per == 1 else "CPUs"
    ctx.report(
        "SB340", setting.directive.span,
        f"{what} gives {shown} {unit} per GPU: data loading usually starves the GPUs below about 4;"
        f" ask for more CPUs (e.g. `--cpus-per-gpu=8`) if the data pipeline runs on the CPU",
        notes=_gpu_note(geom),
    )


def check_time(ctx: Context) -> None:
    script = ctx.script
    if not script.directives or not script.lines:
        return
    if any(d.option.long == "time" and not d.ignored for d in script.directives):
        return
    first = next((d for d in script.directives if not d.ignored), None)
    if first is None:
        return
    line = script.lines[0]
    ctx.report(
        "SB341", script.span(line.span.start, line.span.start + len(line.text)),
        "no `--time`: the job gets the partition's default time limit (often the maximum), which"
        " delays its start in backfill and may be shorter than the run; add `#SBATCH --time=HH:MM:SS`",
    )


def check_requeue_signal(ctx: Context) -> None:
    request = ctx.script.components[0].request
    requeue = request.get("requeue")
    if requeue is None or request.has("signal"):
        return
    no = request.get("no-requeue")
    if no is not None and no.directive.span.start > requeue.directive.span.start:
        return
    time = request.get("time")
    limit = None if time is None else time.value
    minutes = getattr(limit, "minutes", None)
    if not (getattr(limit, "unlimited", False) or (isinstance(minutes, int) and minutes > 60)):
        return
    ctx.report(
        "SB342", requeue.directive.span,
        f"a requeue-able job of `--time={time.raw}` has no `--signal`: when it is preempted or hits"
        " its limit it is killed without warning and restarts from its last checkpoint; add"
        " `#SBATCH --signal=B:USR1@300` and save a checkpoint in a `trap` handler",
    )


RULES = (
    Rule("SB301", "launcher-several-tasks-per-node", "warning", check_distributed, fixable=True, doc="""
        ## What it does
        Finds `srun torchrun` (also `python -m torch.distributed.run|launch`, `accelerate
        launch`, `deepspeed`) where the `srun` step starts more than one task per node.

        ## Why is this bad?
        These launchers start one worker per GPU themselves. `srun` starts one copy of the
        launcher per task, so with `--ntasks-per-node=8` each node runs 8 launchers × 8 workers:
        64 processes fight over 8 GPUs, ports clash and the rendezvous fails or trains 8 times.
        The launcher needs exactly one task per node.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=8
        #SBATCH --gpus-per-node=8
        #SBATCH --time=04:00:00
        head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
        srun torchrun --nnodes=2 --nproc_per_node=8 \\
            --rdzv_backend=c10d --rdzv_endpoint="$head:29500" train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=1
        #SBATCH --gpus-per-node=8
        #SBATCH --time=04:00:00
        head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
        srun torchrun --nnodes=2 --nproc_per_node=8 \\
            --rdzv_backend=c10d --rdzv_endpoint="$head:29500" train.py
        ```

        ## Slurm versions
        All.

        ## References
        - prior-art.md §2.11–2.12 (itwinai#360: "ntasks-per-node should always be 1 for torchrun")
        - PyTorch `ddp-tutorial-series/slurm/sbatch_run.sh`
    """),
    Rule("SB302", "launcher-on-first-node-only", "warning", check_distributed, """
        ## What it does
        Finds `torchrun` (or `python -m torch.distributed.run|launch`, `accelerate launch`)
        run directly in the batch script of a job with two or more nodes.

        ## Why is this bad?
        The batch script runs on the first node of the allocation only. A launcher started there
        uses that node's GPUs; the other nodes stay idle (and a multi-node rendezvous waits for
        them until the time limit). `srun` starts it on every node.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --gpus-per-node=4
        #SBATCH --time=02:00:00
        torchrun --nproc_per_node=4 train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=1
        #SBATCH --gpus-per-node=4
        #SBATCH --time=02:00:00
        head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
        srun torchrun --nnodes=2 --nproc_per_node=4 \\
            --rdzv_backend=c10d --rdzv_endpoint="$head:29500" train.py
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch` ("the batch script is executed on the first node")
        - slurm-semantics.md §8 (rank variables are 0 outside `srun`)
    """),
    Rule("SB303", "launcher-nodes-mismatch", "warning", check_distributed, """
        ## What it does
        Compares the node count a launcher expects (`torchrun --nnodes`, `--standalone`,
        `accelerate launch --num_machines`, `deepspeed --num_nodes`) with the nodes the job or
        the `srun` step actually has. `srun torchrun` without `--nnodes` on several nodes is
        reported too (torchrun then defaults to one node).

        ## Why is this bad?
        With fewer nodes than `--nnodes` the rendezvous waits for nodes that never come until
        the time limit; with more, each node (or group) trains separately, overwriting the same
        checkpoints.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=4
        #SBATCH --ntasks-per-node=1
        #SBATCH --gpus-per-node=8
        #SBATCH --time=08:00:00
        head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
        srun torchrun --nnodes=2 --nproc_per_node=8 \\
            --rdzv_backend=c10d --rdzv_endpoint="$head:29500" train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=4
        #SBATCH --ntasks-per-node=1
        #SBATCH --gpus-per-node=8
        #SBATCH --time=08:00:00
        head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
        srun torchrun --nnodes="$SLURM_JOB_NUM_NODES" --nproc_per_node=8 \\
            --rdzv_backend=c10d --rdzv_endpoint="$head:29500" train.py
        ```

        ## Slurm versions
        All.

        ## References
        - `torchrun --help` (`--nnodes MIN[:MAX]`, `--standalone`)
        - Lightning `SLURMEnvironment` checks `SLURM_NNODES` against `num_nodes` (prior-art.md §2.11)
    """),
    Rule("SB304", "launcher-gpus-mismatch", "warning", check_distributed, """
        ## What it does
        Compares the workers a launcher starts with the GPUs the job has:
        `torchrun --nproc_per_node` (default 1) and `deepspeed --num_gpus` against GPUs per node,
        `accelerate launch --num_processes` against GPUs in total. GPUs per node come from
        `--gpus-per-node`, `--gres=gpu:N`, `--gpus` on one node or `--gpus-per-task` × tasks
        per node, on the `#SBATCH` lines or the `srun` line.

        ## Why is this bad?
        Fewer workers than GPUs leaves GPUs idle but billed; more workers than GPUs makes the
        extra ranks fail with `invalid device ordinal` or share a GPU.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=1
        #SBATCH --gres=gpu:8
        #SBATCH --time=02:00:00
        torchrun --standalone --nproc_per_node=4 train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=1
        #SBATCH --gres=gpu:8
        #SBATCH --time=02:00:00
        torchrun --standalone --nproc_per_node=8 train.py
        ```

        ## Slurm versions
        All.

        ## References
        - `torchrun --help` (`--nproc_per_node`, default 1)
        - prior-art.md §2.12 (Emmi-AI/noether#195 keeps tasks per node and GPUs per node in sync)
    """),
    Rule("SB305", "torchrun-no-rendezvous-endpoint", "warning", check_distributed, """
        ## What it does
        Finds a multi-node `torchrun` (`--nnodes` above 1) without `--rdzv_endpoint` or
        `--master_addr` (or their `PET_*` variables).

        ## Why is this bad?
        Without an endpoint torchrun uses `127.0.0.1`: every node looks for the rendezvous on
        itself, nobody meets, and the job hangs until its time limit.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=1
        #SBATCH --gpus-per-node=4
        #SBATCH --time=02:00:00
        srun torchrun --nnodes=2 --nproc_per_node=4 train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=1
        #SBATCH --gpus-per-node=4
        #SBATCH --time=02:00:00
        head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
        srun torchrun --nnodes=2 --nproc_per_node=4 --rdzv_id="$SLURM_JOB_ID" \\
            --rdzv_backend=c10d --rdzv_endpoint="$head:29500" train.py
        ```

        ## Slurm versions
        All.

        ## References
        - `torchrun --help` (`--master_addr` defaults to `127.0.0.1`)
        - PyTorch `ddp-tutorial-series/slurm/sbatch_run.sh`
    """),
    Rule("SB306", "launcher-fixed-node-rank", "warning", check_distributed, """
        ## What it does
        Finds a literal `--node_rank` (`torchrun` with the static rendezvous, `deepspeed`) or
        `--machine_rank` (`accelerate launch`) on a launcher that `srun` starts on several nodes.

        ## Why is this bad?
        `srun` runs the same command line on every node, so every node claims the same rank;
        the static rendezvous never completes. Let each task read its own `$SLURM_NODEID`, or
        use the c10d rendezvous, which assigns ranks itself.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=1
        #SBATCH --gpus-per-node=4
        #SBATCH --time=02:00:00
        head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
        srun torchrun --nnodes=2 --nproc_per_node=4 --node_rank=0 \\
            --master_addr="$head" --master_port=29500 train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=1
        #SBATCH --gpus-per-node=4
        #SBATCH --time=02:00:00
        head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
        srun bash -c "torchrun --nnodes=2 --nproc_per_node=4 --node_rank=\\$SLURM_NODEID \\
            --master_addr=$head --master_port=29500 train.py"
        ```

        ## Slurm versions
        All.

        ## References
        - slurm-semantics.md §8 (rank variables are per task, only inside `srun`)
    """),
    Rule("SB310", "gpus-idle-single-process", "error", check_python_tasks, fixable=True, doc="""
        ## What it does
        Finds a job with two or more GPUs per node whose work is a single `python` process per
        node (`python train.py` or `srun python train.py` with one task per node) and that has no
        launcher starting per-GPU processes (`torchrun`, `accelerate`, `deepspeed`, `horovodrun`,
        `mpirun`). It stays silent when the program's arguments mention GPUs, devices or a
        distributed strategy (the program may spawn its own workers), when the script sets
        `CUDA_VISIBLE_DEVICES`, and for launches in loops or in the background.

        ## Why is this bad?
        One process drives one GPU unless the program itself spawns workers or uses
        `DataParallel`; the other GPUs are allocated, billed and idle, and they block other
        users. This is the most common GPU waste on shared clusters.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=1
        #SBATCH --ntasks=1
        #SBATCH --gres=gpu:8
        #SBATCH --time=04:00:00
        srun python train.py --epochs 10
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=1
        #SBATCH --ntasks-per-node=8
        #SBATCH --gres=gpu:8
        #SBATCH --time=04:00:00
        srun python train.py --epochs 10
        ```

        ## Slurm versions
        All.

        ## References
        - prior-art.md §2.12 (itwinai#360: one task per GPU when not using torchrun)
    """),
    Rule("SB311", "srun-tasks-gpus-mismatch", "warning", check_python_tasks, fixable=True, doc="""
        ## What it does
        For `srun python ...` with several tasks per node on a GPU job (the DDP, Horovod,
        DeepSpeed and Lightning style, where Slurm starts one process per GPU), compares the
        tasks per node with the GPUs per node (or, for an uneven `-n`/`-N` split, the totals).

        ## Why is this bad?
        Fewer tasks than GPUs leaves GPUs idle; more tasks than GPUs puts several ranks on one
        GPU, which NCCL refuses (`Duplicate GPU detected`) and which runs out of GPU memory.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=4
        #SBATCH --gpus-per-node=8
        #SBATCH --time=04:00:00
        srun python train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=8
        #SBATCH --gpus-per-node=8
        #SBATCH --time=04:00:00
        srun python train.py
        ```

        ## Slurm versions
        All.

        ## References
        - prior-art.md §2.11 (Lightning: "`devices=4` ... `--ntasks-per-node=1` does not match")
        - horovod/horovod#1038
    """),
    Rule("SB312", "lightning-ntasks-without-per-node", "warning", check_python_tasks, """
        ## What it does
        In a script that mentions Lightning (`lightning`/`pytorch_lightning` anywhere in the
        text: a program name, an argument, an environment or a comment), finds a `python` run
        with a task count above 1 from `--ntasks` (on `#SBATCH` or `srun`) and no
        `--ntasks-per-node`. Scripts that never mention Lightning are not checked: for plain
        DDP, `--ntasks` alone works.

        ## Why is this bad?
        Lightning's `SLURMEnvironment` raises at start-up when `SLURM_NTASKS > 1` and
        `SLURM_NTASKS_PER_NODE` is unset: "You set `--ntasks=N` in your SLURM bash script, but
        this variable is not supported. HINT: Use `--ntasks-per-node=N` instead." The job
        fails after waiting in the queue.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=4
        #SBATCH --gres=gpu:4
        #SBATCH --time=04:00:00
        srun python train_lightning.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=1
        #SBATCH --ntasks-per-node=4
        #SBATCH --gres=gpu:4
        #SBATCH --time=04:00:00
        srun python train_lightning.py
        ```

        ## Slurm versions
        All.

        ## References
        - Lightning `lightning/fabric/plugins/environments/slurm.py` (`_validate_srun_variables`)
        - slurm-semantics.md §8
    """),
    Rule("SB313", "mpi-process-count-mismatch", "warning", check_mpi, """
        ## What it does
        Compares `mpirun -np`/`mpiexec -n`/`horovodrun -np` (and `-npernode`/`--map-by ppr:N:node`)
        with the tasks the job asks for: more processes than tasks, fewer processes than GPUs,
        and (as `info`, for a CPU job with one MPI launch) fewer processes than tasks.

        ## Why is this bad?
        Inside a job MPI takes its slots from Slurm's tasks. More processes than tasks fails
        with `not enough slots` or oversubscribes cores; fewer leaves GPUs or cores allocated
        and idle. Without `-np`, MPI uses exactly the tasks Slurm gives.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=1
        #SBATCH --ntasks=8
        #SBATCH --gres=gpu:8
        #SBATCH --time=02:00:00
        horovodrun -np 4 python train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=1
        #SBATCH --ntasks=8
        #SBATCH --gres=gpu:8
        #SBATCH --time=02:00:00
        horovodrun -np 8 python train.py
        ```

        ## Slurm versions
        All.

        ## References
        - Open MPI `mpirun(1)` ("not enough slots available")
        - horovod/horovod#1038; prior-art.md §2.12
    """),
)
RULES = RULES + (
    Rule("SB321", "slurm-ntasks-unset", "warning", check_unset_variables, """
        ## What it does
        Finds `$SLURM_NTASKS` or `$SLURM_NPROCS` expanded by the batch script when the job
        asks for no task count: no `-n`, `--ntasks-per-node`, `-B`/`--sockets-per-node`/
        `--cores-per-socket`/`--threads-per-core`, `--ntasks-per-gpu`/`-socket`/`-core`, or
        `--gpus` with `--gpus-per-task`. References with a default (`${SLURM_NTASKS:-1}`),
        inside single quotes (they expand in the step, where Slurm sets them), tested with
        `-z`/`-n`, or assigned by the script are skipped, as are hetjobs. The other `SLURM_*`
        variables that depend on an option are checked by SB249 (unset-slurm-variable).

        ## Why is this bad?
        Slurm exports `SLURM_NTASKS` only when a task count was given or derived; for a plain
        `-N 2 --gres=gpu:4` job it is unset. `srun -n $SLURM_NTASKS` then loses its argument
        (srun reads the next word as the task count), and `mpirun -np $SLURM_NTASKS` fails.
        A `-n` given on the `sbatch` command line would set it; the script cannot rely on that.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --time=01:00:00
        mpirun -np $SLURM_NTASKS ./solver
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=32
        #SBATCH --time=01:00:00
        mpirun -np $SLURM_NTASKS ./solver
        ```

        ## Slurm versions
        All.

        ## References
        - slurm-semantics.md §8 (`SLURM_NTASKS` is set only when a task count was given or
          derived) and check 36
    """),
    Rule("SB340", "few-cpus-per-gpu", "info", check_cpus_per_gpu, """
        ## What it does
        Computes CPUs per GPU from `--cpus-per-gpu`, or `--cpus-per-task` × tasks per node over
        GPUs per node, and reports fewer than 4. Jobs with `--exclusive` (all CPUs) and jobs
        that do not set the CPU count (the cluster's `DefCpuPerGPU` may apply) are skipped.

        ## Why is this bad?
        Data loading, augmentation and host-side work run on the CPU; with one or two cores
        per GPU the GPUs wait for input. Most GPU clusters recommend 4–16 cores per GPU.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=1
        #SBATCH --cpus-per-task=2
        #SBATCH --gres=gpu:4
        #SBATCH --time=04:00:00
        python train.py --devices 4
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=1
        #SBATCH --cpus-per-task=32
        #SBATCH --gres=gpu:4
        #SBATCH --time=04:00:00
        python train.py --devices 4
        ```

        ## Slurm versions
        All. A check of host memory against twice the GPU memory needs the GPU model's memory,
        which only a cluster profile knows; it belongs to the cluster family (SB4xx).

        ## References
        - slurm-semantics.md §4 (`--cpus-per-gpu`)
    """),
    Rule("SB341", "missing-time-limit", "info", check_time, """
        ## What it does
        Finds a script with `#SBATCH` directives but no `--time`.

        ## Why is this bad?
        The job gets the partition's `DefaultTime` (often equal to `MaxTime`). The scheduler
        cannot backfill it into gaps, so it starts later, and a default shorter than the run
        kills it. An explicit, realistic limit starts sooner.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=4
        #SBATCH --mem=16G
        srun ./solver
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=4
        #SBATCH --mem=16G
        #SBATCH --time=02:00:00
        srun ./solver
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--time`; Slurm's backfill scheduling documentation
    """),
    Rule("SB342", "requeue-without-signal", "info", check_requeue_signal, """
        ## What it does
        Finds `--requeue` on a job longer than one hour (or unlimited) without `--signal`.

        ## Why is this bad?
        A requeue-able job is expected to be preempted or restarted. Without `--signal` Slurm
        gives no warning before killing it, so it cannot save a checkpoint and every requeue
        restarts from the last periodic checkpoint. submitit adds `--signal=USR2@90` and
        Nextflow `--signal B:USR2@30` for this reason.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --requeue
        #SBATCH --time=12:00:00
        #SBATCH --gres=gpu:1
        srun python train.py --resume
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --requeue
        #SBATCH --time=12:00:00
        #SBATCH --gres=gpu:1
        #SBATCH --signal=B:USR1@300
        trap 'touch checkpoint.request' USR1
        srun python train.py --resume &
        wait
        ```

        ## Slurm versions
        All.

        ## References
        - prior-art.md §2.2 (submitit) and §2.9 (Nextflow)
        - `man sbatch`, `--signal`
    """),
    Rule("SB320", "srun-cpus-per-task-not-inherited", "warning", check_srun_cpus, """
        ## What it does
        On Slurm 22.05 and 23.02, finds an `srun` line in a job with `--cpus-per-task` above 1
        that neither passes `-c`/`--cpus-per-task` itself nor follows an
        `export SRUN_CPUS_PER_TASK=...`.

        ## Why is this bad?
        In these releases `srun` stopped reading `SLURM_CPUS_PER_TASK`: the step's tasks get one
        CPU each, so threaded programs (OpenMP, data loaders) run on a single core. 23.11
        restored the inheritance.

        ## Example
        ```sbatch 22.05
        #!/bin/bash
        #SBATCH --ntasks=4
        #SBATCH --cpus-per-task=8
        #SBATCH --time=01:00:00
        srun ./solver
        ```

        ## Use instead
        ```sbatch 22.05
        #!/bin/bash
        #SBATCH --ntasks=4
        #SBATCH --cpus-per-task=8
        #SBATCH --time=01:00:00
        export SRUN_CPUS_PER_TASK=$SLURM_CPUS_PER_TASK
        srun ./solver
        ```

        ## Slurm versions
        22.05 and 23.02 only (the Example triggers only with `--slurm-version 22.05` or
        `23.02`).

        ## References
        - slurm-semantics.md §7 (srun inheriting `-c`)
        - reframe-hpc/reframe#2655; snakemake-executor-plugin-slurm#41
    """),
)
