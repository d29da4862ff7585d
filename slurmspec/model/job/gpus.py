"""GPUs in the job model: which GPUs a step holds on each node, and which of them each task sees.

Checked against real Slurm 22.05 (``tests/model/test_job_model_slurm.py``):

- ``srun`` reads the job's GPU options back from the environment sbatch exports
  (``SLURM_GPUS``, ``SLURM_GPUS_PER_NODE``, ``SLURM_GPUS_PER_TASK``,
  ``SLURM_NTASKS_PER_GPU``, ``SLURM_GPU_BIND``; from 23.11 ``SLURM_TRES_PER_TASK``
  and ``SLURM_TRES_BIND``), each replaced by the same option on the ``srun`` line.
  ``--gres`` is not exported. A step with no GPU option at all holds every GPU
  the job has on its nodes (``man srun``, ``--gres``).
- GPUs per node of a step: ``--gres=gpu:N`` (wins over ``--gpus-per-node``), then
  ``--gpus-per-node``, then ``--gpus-per-task`` × tasks per node, then ``--gpus`` on
  one node; ``srun --gpus=1`` under an exported ``--gpus-per-node=2`` still holds 2
  (up to 24.05; from 24.11 it holds 1: ``srun_gpu_options()``).
- Binding (``src/common/gres.c``, ``gres_g_task_set_env()``): ``--gpus-per-task=N``
  implies ``--gpu-bind=per_task:N``, ``--ntasks-per-gpu=N`` implies ``single:N``,
  an explicit ``--gpu-bind`` wins. With ``per_task:N`` and exactly N GPUs per task on
  the node, local task i sees GPUs ``i*N .. i*N+N-1``; ``single:N`` with N tasks per
  GPU: GPU ``i // N``; ``map_gpu:a,b``: GPU ``ids[i % len]``; no binding: every GPU
  of the step on the node; ``none``: unknown (Slurm sets no ``CUDA_VISIBLE_DEVICES``,
  so what shows depends on the node's device cgroup). A lone task on a node with a ``per_task`` or
  ``single`` binding sees every GPU of the step there (22.05: ``-n 1
  --gpus-per-node=2 --gpu-bind=per_task:1`` shows ``0,1``). Any other case is unknown.
"""

from __future__ import annotations

from typing import Any

import attrs

from slurmspec.body.model import Launch
from slurmspec.body.typed import as_int, gpu_count
from slurmspec.frozen import frozen
from slurmspec.gates import SRUN_GPUS_DROPS_GPUS_PER_NODE
from slurmspec.kinds import GpuBindKind
from slurmspec.model.job.types import GpuBind

# Options sbatch exports for srun to read back, and those srun understands on its line.
EXPORTED = ("gpus", "gpus-per-node", "gpus-per-task", "ntasks-per-gpu", "gpu-bind")
STEP_OPTIONS = EXPORTED + ("gres", "gpus-per-socket", "tres-per-task", "tres-bind")
# Options that set how many GPUs a step holds (a lone --gpu-bind only splits the job's).
COUNT_OPTIONS = ("gpus", "gpus-per-node", "gpus-per-task", "ntasks-per-gpu", "gres", "gpus-per-socket",
                 "tres-per-task")
# GPUs per node the tasks' devices are worked out for (a position each, per task): far past any node.
MAX_NODE_GPUS = 1024


@frozen
class GpuOptions:
    """GPU options in effect for a job or a step; ``None`` means "not given", ``UNKNOWN`` "not a literal"."""

    gpus: Any = None
    gpus_per_node: Any = None
    gpus_per_task: Any = None
    ntasks_per_gpu: Any = None
    gpu_bind: Any = None  # GpuBind
    gres: Any = None  # --gres=gpu:N (GPUs per node); srun lines only
    other: bool = False  # --gpus-per-socket and the like: nothing here is followed


UNKNOWN = object()


def _sum_items(value) -> Any:
    items = getattr(value, "items", None)
    if items is None:
        return UNKNOWN
    return sum(int(getattr(i, "count", 0)) for i in items if getattr(i, "name", "gpu") == "gpu")


def bind_of(kind: str | None, argument: str | None) -> GpuBind:
    """A ``--gpu-bind`` value (kind and argument as parsed) as a :class:`GpuBind`."""
    kind = (kind or "").lower()
    if kind in (GpuBindKind.PER_TASK, GpuBindKind.SINGLE):
        n = as_int(argument)
        return GpuBind(kind, n) if n else GpuBind(GpuBindKind.OTHER)
    if kind == GpuBindKind.MAP_GPU:
        ids = [as_int(x) for x in (argument or "").split(",")]
        return GpuBind(kind, ids=tuple(ids)) if ids and None not in ids else GpuBind(GpuBindKind.OTHER)
    if kind == GpuBindKind.NONE:
        return GpuBind(GpuBindKind.NONE)
    return GpuBind(GpuBindKind.OTHER)


def parse_bind_text(text: str | None) -> GpuBind:
    """``verbose,map_gpu:1,0`` as written on an srun line."""
    body = text or ""
    if body.startswith("verbose"):
        body = body[len("verbose"):].lstrip(",")
    kind, _, arg = body.partition(":")
    return bind_of(kind, arg or None)


def job_gpu_options(request) -> GpuOptions:
    """The GPU options of one component's request (typed values from the parser)."""
    def count(name):
        s = request.get(name)
        return None if s is None else _sum_items(s.value)

    gpt = count("gpus-per-task")
    tres = request.get("tres-per-task")
    if gpt is None and tres is not None:
        items = getattr(tres.value, "items", None)
        found = [i.count for i in items or () if i.kind == "gres" and i.name == "gpu"]
        gpt = (sum(found) or None) if items is not None else UNKNOWN
    ntpg = request.get("ntasks-per-gpu")
    ntpg_v = None if ntpg is None else getattr(ntpg.value, "value", UNKNOWN)
    bind = request.get("gpu-bind")
    bind_v = None
    if bind is not None:
        kind = getattr(bind.value, "kind", None)
        bind_v = bind_of(kind, getattr(bind.value, "argument", None)) if kind else GpuBind(GpuBindKind.OTHER)
    gres = request.get("gres")
    gres_v = None
    if gres is not None:
        gres_v = 0 if getattr(gres.value, "none", False) else _sum_items(gres.value)
    return GpuOptions(count("gpus"), count("gpus-per-node"), gpt, ntpg_v, bind_v, gres_v or None,
                      request.get("gpus-per-socket") is not None)


def srun_gpu_options(srun: Launch, inherited: GpuOptions, version=None) -> GpuOptions:
    """The job's exported GPU options with the srun line's own replacing them.

    From 24.11 an ``srun --gpus`` also drops the exported ``SLURM_GPUS_PER_NODE``
    (``src/srun/opt.c``; NEWS 24.11.0rc1): ``srun --gpus=1`` under ``--gpus-per-node=2``
    holds 1 GPU on 24.11.5, 2 on 22.05.8.
    """
    opts = attrs.evolve(inherited, gres=None, other=False)
    if version is not None and version >= SRUN_GPUS_DROPS_GPUS_PER_NODE and srun.has("gpus"):
        opts = attrs.evolve(opts, gpus_per_node=None)
    for opt in srun.options:
        value = opt.value
        if opt.name == "gpus":
            opts = attrs.evolve(opts, gpus=_count_text(value))
        elif opt.name == "gpus-per-node":
            opts = attrs.evolve(opts, gpus_per_node=_count_text(value))
        elif opt.name == "gpus-per-task":
            opts = attrs.evolve(opts, gpus_per_task=_count_text(value))
        elif opt.name == "ntasks-per-gpu":
            opts = attrs.evolve(opts, ntasks_per_gpu=as_int(value) or UNKNOWN)
        elif opt.name == "gpu-bind":
            opts = attrs.evolve(opts, gpu_bind=parse_bind_text(value))
        elif opt.name == "gres":
            opts = attrs.evolve(opts, gres=_gres_text(value))
        elif opt.name in ("gpus-per-socket", "tres-per-task", "tres-bind"):
            opts = attrs.evolve(opts, other=True)
    return opts


def _count_text(text: str | None) -> Any:
    n = gpu_count(text)
    return UNKNOWN if n is None else n


def _gres_text(text: str | None) -> Any:
    """GPUs per node in an srun ``--gres`` value (``gpu:2``, ``gpu:a100:2``, ``gpu``); 0 without gpu."""
    if text is None:
        return UNKNOWN
    total = 0
    for item in text.split(","):
        parts = item.split(":")
        if parts[0] != "gpu":
            continue
        n = as_int(parts[-1]) if len(parts) > 1 else 1
        if n is None:
            if len(parts) != 2:
                return UNKNOWN
            n = 1  # gpu:a100 = one GPU of that type
        total += n
    return total


def _known(*values) -> bool:
    return all(v is not None and v is not UNKNOWN for v in values)


def given(opts: GpuOptions) -> bool:
    return any(v is not None for v in (opts.gpus, opts.gpus_per_node, opts.gpus_per_task,
                                       opts.ntasks_per_gpu, opts.gres)) or opts.other


def step_gpus_per_node(opts: GpuOptions, srun_given: bool, job_gpn: int | None, nodes: int | None,
                       tasks_per_node: int | None) -> int | None:
    """GPUs a step holds on each node (see the module docstring for the order)."""
    if opts.other:
        return None
    if not srun_given:
        if opts.gpus_per_task is not None and opts.gpus_per_node is None:
            # An inherited --gpus-per-task: the step holds what its own tasks need.
            if _known(opts.gpus_per_task, tasks_per_node):
                return opts.gpus_per_task * tasks_per_node
            return None
        return job_gpn
    if opts.gres is not None:
        return opts.gres if _known(opts.gres) else None
    if opts.gpus_per_node is not None:
        return opts.gpus_per_node if _known(opts.gpus_per_node) else None
    if opts.gpus_per_task is not None:
        if _known(opts.gpus_per_task, tasks_per_node):
            return opts.gpus_per_task * tasks_per_node
        return None
    if opts.gpus is not None:
        return opts.gpus if _known(opts.gpus) and nodes == 1 else None
    return None  # --ntasks-per-gpu alone: the count follows the tasks


def step_gpus_total(opts: GpuOptions, srun_given: bool, gpn, nodes, tasks, comp, reshaped: bool) -> int | None:
    """GPUs a step holds in all: per node × nodes, else what the job or the srun line says in total."""
    if gpn is not None and nodes is not None:
        return gpn * nodes
    if opts.other:
        return None
    if opts.gres is not None or opts.gpus_per_node is not None:
        return None
    if opts.gpus_per_task is not None:
        return opts.gpus_per_task * tasks if _known(opts.gpus_per_task, tasks) else None
    if not srun_given:
        # Every GPU of the job on the step's nodes: all of them when it runs on all the job's nodes.
        return comp.gpus_total if not reshaped or (nodes is not None and nodes == comp.nodes) else None
    return opts.gpus if _known(opts.gpus) else None


def step_bind(opts: GpuOptions) -> GpuBind | None:
    """The binding in effect: an explicit --gpu-bind, else the one --gpus-per-task/--ntasks-per-gpu imply."""
    if opts.gpu_bind is not None:
        return opts.gpu_bind
    for count, kind in ((opts.gpus_per_task, GpuBindKind.PER_TASK), (opts.ntasks_per_gpu, GpuBindKind.SINGLE)):
        if count is not None:
            return GpuBind(kind, count) if _known(count) else GpuBind(GpuBindKind.OTHER)
    return None


def task_gpus(bind: GpuBind | None, local: int, tasks_per_node: int, gpn: int | None) -> tuple[int, ...] | None:
    """The GPUs (positions among the step's GPUs on the node) local task ``local`` sees."""
    if gpn is None or gpn > MAX_NODE_GPUS:
        return None  # past any real node: not a tuple of a billion positions per task
    every = tuple(range(gpn))
    if bind is None:
        return every
    if bind.kind is GpuBindKind.NONE:
        return None  # no CUDA_VISIBLE_DEVICES at all: what shows depends on the node's device cgroup
    if bind.kind in (GpuBindKind.PER_TASK, GpuBindKind.SINGLE) and tasks_per_node == 1:
        return every
    if bind.kind is GpuBindKind.PER_TASK and bind.count and tasks_per_node * bind.count == gpn:
        return tuple(range(local * bind.count, (local + 1) * bind.count))
    if bind.kind is GpuBindKind.SINGLE and bind.count and tasks_per_node == bind.count * gpn:
        return (local // bind.count,)
    if bind.kind is GpuBindKind.MAP_GPU and bind.ids:
        gpu = bind.ids[local % len(bind.ids)]
        return (gpu,) if gpu < gpn else None
    return None
