"""Can one node of a given shape, in a given partition, hold what a job asks of each node?

``per_node(need, shape, partition, config, tasks)`` answers with a ``Check``:
``FITS``, ``NO`` (with the shortfall, for the message) or ``UNKNOWN`` (the
answer depends on something the profile or the model does not know). Every
number is a lower and an upper bound; a node is refused only when even the
lower bound does not fit.

Facts measured with held-off submissions on Slurm 22.05.8 and 24.11.5
(tests/cluster/layouts.py) and read in ``src/slurmctld/job_mgr.c`` /
``src/plugins/select/cons_tres``:

- a node has ``CPUEfctv`` usable CPUs, at most the partition's
  ``MaxCPUsPerNode`` (``-p a100 -c 33`` with MaxCPUsPerNode=32 is refused);
  with ``--hint=nomultithread`` or ``--threads-per-core=1`` only one thread of
  each core counts, and ``--threads-per-core=2`` refuses nodes with one thread
  per core; ``--sockets-per-node``/``--cores-per-socket``/``-B`` need at least
  that many;
- each node needs ``--cpus-per-task`` × ``--ntasks-per-node`` CPUs, at least
  ``--mincpus``, and ``--cpus-per-gpu`` × its GPUs;
- memory per node is ``--mem`` (0: all of it), ``--mem-per-gpu`` × GPUs or
  ``--mem-per-cpu`` × the CPUs allocated, and must be at most ``RealMemory`` −
  ``MemSpecLimit``; on a hyper-threaded node the allocated CPUs may be rounded
  up to whole cores (22.05 does, 24.11 only sometimes, gate
  ``MEM_PER_CPU_WHOLE_CORES_UNCERTAIN``), so from 23.02 that case is a band;
- a ``--mem-per-cpu`` (or ``--mem`` per CPU) over ``MaxMemPerCPU`` does not
  refuse the job: the controller raises its CPUs per task until the memory per
  CPU fits (``--mem-per-cpu=4000 -c 25`` with MaxMemPerCPU=2000 asks 50 CPUs),
  and refuses it when no node has that many ("Requested node configuration is
  not available", at submission; ``--test-only`` misses it).
"""

from __future__ import annotations

from enum import Enum

import attrs


class Verdict(Enum):
    FITS = "fits"
    NO = "no"
    UNKNOWN = "unknown"


@attrs.frozen
class Check:
    verdict: Verdict
    what: str = ""  # the dimension that does not fit: "cpus", "memory", "gpus:<type>", "gres:<name>", "layout"
    asked: str = ""  # "70 CPUs", "300000 MB of memory" ...
    option: str = ""  # the option name the shortfall comes from, for the report's position

    @property
    def fits(self) -> bool:
        return self.verdict is Verdict.FITS


FITS = Check(Verdict.FITS)
UNKNOWN = Check(Verdict.UNKNOWN)


def usable_cpus(need, shape, partition) -> int:
    """CPUs of one node of ``shape`` the job can use in ``partition`` (threads and MaxCPUsPerNode)."""
    threads = shape.threads_per_core
    if need.threads is not None:
        threads = min(threads, need.threads)
    cpus = min(shape.cpus, shape.sockets * shape.cores_per_socket * threads)
    if partition.max_cpus_per_node is not None:
        cpus = min(cpus, partition.max_cpus_per_node)
    return cpus


def _asked_by(need, option: str) -> str:
    """The option a layout minimum comes from: its own, else ``-B`` (``--extra-node-info``)."""
    return option if option in need.settings or "extra-node-info" not in need.settings else "extra-node-info"


def layout_cpus(need) -> int | None:
    """The CPUs a one-node job (``-N 1``) with a layout asks on its node: sockets × cores × threads asked
    (1 for a level not asked) × ``--cpus-per-task``. Measured with held-off submissions on 22.05.8 and
    24.11.5: ``-p gpu -N 1 -c 5 --cores-per-socket=16`` (80 CPUs) is refused on 64-CPU nodes, ``-c 4``
    accepted; ``-p a100 -N 1 -c 3 --cores-per-socket=16`` (48) over MaxCPUsPerNode=32 refused. Without
    ``-N 1``, or with ``--ntasks-per-node``, ``-n`` or ``--exclusive``, the count differs (``-p a100 -c 5
    -B 2:8`` is refused, with ``-n 1`` accepted): None there."""
    if need.nodes_from != "nodes" or need.nodes_min != 1 or need.nodes_max != 1:
        return None
    if need.tasks_per_node is not None or need.ntasks is not None or need.exclusive:
        return None
    if need.sockets is None and need.cores is None and need.threads_min is None:
        return None
    return (need.sockets or 1) * (need.cores or 1) * (need.threads_min or 1) * need.cpus_per_task


def layout_check(need, shape) -> Check:
    """Sockets, cores per socket and threads per core the job requires of a node."""
    if need.threads_min is not None and shape.threads_per_core < need.threads_min:
        return Check(Verdict.NO, "layout", f"{need.threads_min} threads per core", _asked_by(need, "threads-per-core"))
    if need.sockets is not None and shape.sockets < need.sockets:
        return Check(Verdict.NO, "layout", f"{need.sockets} sockets", _asked_by(need, "sockets-per-node"))
    if need.cores is not None and shape.cores_per_socket < need.cores:
        return Check(Verdict.NO, "layout", f"{need.cores} cores per socket", _asked_by(need, "cores-per-socket"))
    if need.ntasks_per_core is not None and shape.threads_per_core > 1:
        return UNKNOWN  # how tasks share a core's threads is not modelled
    return FITS


def gres_check(need, shape, extra_gpus: int = 0, gpu_type: str | None = None) -> Check:
    """The per-node GRES (``--gres``, ``--gpus-per-node``) plus ``extra_gpus`` of ``gpu_type``."""
    wanted: dict[tuple[str, str | None], int] = {}
    for ask in need.node_gres:
        key = (ask.name, ask.type)
        wanted[key] = wanted.get(key, 0) + ask.count
    if extra_gpus:
        wanted[("gpu", gpu_type)] = wanted.get(("gpu", gpu_type), 0) + extra_gpus
    for (name, gtype), count in wanted.items():
        if shape.gres_count(name, gtype) < count:
            label = f"{name}:{gtype}" if gtype else name
            option = "gpus-per-node" if name == "gpu" and "gpus-per-node" in need.settings else "gres"
            what = f"{count} {gtype + ' ' if gtype else ''}GPU{'s' if count != 1 else ''}" if name == "gpu" \
                else f"{count} `{label}`"
            return Check(Verdict.NO, f"gres:{label}", what, option)
    return FITS


def node_gpus(need, extra_gpus: int = 0) -> int:
    """GPUs the job holds on one node (every type)."""
    return sum(a.count for a in need.node_gres if a.name == "gpu") + extra_gpus


def per_node(need, shape, partition, config, tasks: int, extra_gpus: int = 0,
             gpu_type: str | None = None) -> Check:
    """Does one node of ``shape`` hold ``tasks`` tasks of the job (and ``extra_gpus`` more GPUs)?"""
    check = layout_check(need, shape)
    if not check.fits:
        return check
    check = gres_check(need, shape, extra_gpus, gpu_type)
    if not check.fits:
        return check
    usable = usable_cpus(need, shape, partition)
    gpus = node_gpus(need, extra_gpus)
    cpus = need.cpus_per_task * tasks
    option = "cpus-per-task" if need.cpus_per_task > 1 else "ntasks-per-node"
    asked = layout_cpus(need)
    if asked is not None and asked > cpus:
        cpus, option = asked, _asked_by(need, "cores-per-socket" if need.cores else "sockets-per-node"
                                        if need.sockets else "threads-per-core")
    if need.cpus_per_gpu is not None and gpus:
        if need.cpus_per_gpu * gpus > cpus:
            cpus, option = need.cpus_per_gpu * gpus, "cpus-per-gpu"
    if need.mincpus is not None:
        # --mincpus is compared with the node's own CPUs, not MaxCPUsPerNode: `-p a100 --mincpus=64` on 64-CPU
        # nodes with MaxCPUsPerNode=32 is accepted by 22.05.8, `-c 33` is refused
        whole = usable_cpus(need, shape, attrs.evolve(partition, max_cpus_per_node=None))
        if need.mincpus > whole:
            return Check(Verdict.NO, "cpus", f"{need.mincpus} CPUs", "mincpus")
    if need.mem == 0 and _max_mem_per_cpu(partition, config):
        # all of the node's memory, at most MaxMemPerCPU per CPU: 24.11.5 refuses `-p lowmem -n 3 -c 3 --mem=0`
        # ("CPU count per node can not be satisfied") on 48-CPU nodes of 192000 MB with MaxMemPerCPU=2000
        if -(-shape.memory_mb // _max_mem_per_cpu(partition, config)) > usable:
            return UNKNOWN
    cpus_lo, cpus_hi, raised = _cpus_for_memory(need, partition, config, cpus, tasks)
    if need.mincpus is not None and need.mincpus > cpus_hi:
        cpus_hi = need.mincpus  # more CPUs allocated: more memory per CPU, counted in the memory check
        if need.mincpus > usable:
            return UNKNOWN  # above MaxCPUsPerNode: how many CPUs the job then gets is not modelled
    if cpus_lo > usable:
        return Check(Verdict.NO, "cpus", f"{cpus_lo} CPUs", raised or option)
    if cpus_hi > usable:
        return UNKNOWN
    return _memory_check(need, shape, cpus_lo, cpus_hi, gpus, tasks, raised)


def _max_mem_per_cpu(partition, config) -> int | None:
    return partition.max_mem_per_cpu if partition.max_mem_per_cpu is not None else config.max_mem_per_cpu


def _cpus_for_memory(need, partition, config, cpus: int, tasks: int) -> tuple[int, int, str]:
    """The CPUs per node once MaxMemPerCPU has raised them: lower and upper bound, and the option that raised them."""
    limit = _max_mem_per_cpu(partition, config)
    if not limit:
        return cpus, cpus, ""
    if need.mem_per_cpu is not None and need.mem_per_cpu > limit:
        per_task = need.cpus_per_task * need.mem_per_cpu
        lo = max(cpus, tasks * -(-per_task // limit))
        hi = max(cpus, tasks * -(-need.mem_per_cpu // limit) * need.cpus_per_task)
        return lo, max(lo, hi), "mem-per-cpu"
    if need.mem and need.mem > limit * cpus:
        lo = -(-need.mem // limit)
        return lo, lo + max(tasks, 1) - 1, "mem"
    return cpus, cpus, ""


def _memory_check(need, shape, cpus_lo: int, cpus_hi: int, gpus: int, tasks: int, raised: str) -> Check:
    threads = shape.threads_per_core if need.threads is None else min(need.threads, shape.threads_per_core)
    rounded = -(-cpus_hi // threads) * threads  # whole cores on a hyper-threaded node
    if need.mem is not None:
        low = high = need.mem
        option = "mem"
    elif need.mem_per_gpu is not None:
        low = high = need.mem_per_gpu * gpus
        option = "mem-per-gpu"
    elif need.mem_per_cpu is not None:
        if need.exclusive:
            return UNKNOWN  # the job gets every CPU of the node, and memory per each
        if raised == "mem-per-cpu":
            # MaxMemPerCPU spread the memory over more CPUs; per task it is still -c × --mem-per-cpu
            low = high = need.mem_per_cpu * need.cpus_per_task * max(tasks, 1)
        elif need.whole_cores and (tasks == 1 or need.cpus_per_task == 1):
            low = high = need.mem_per_cpu * rounded  # 22.05 charges the whole cores
        else:
            low, high = need.mem_per_cpu * cpus_lo, need.mem_per_cpu * rounded
        option = "mem-per-cpu"
    else:
        return FITS  # defaults (DefMemPerCPU ...) are the site's, sized to fit its nodes
    if low == 0:
        return FITS
    if low > shape.memory_mb:
        return Check(Verdict.NO, "memory", f"{low} MB of memory", option)
    if high > shape.memory_mb:
        return UNKNOWN
    return FITS
