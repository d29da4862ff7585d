"""Does the emitted job fit the cluster at all? A direct check for ``emit --cluster``.

The cluster rules (SB4xx) judge the emitted script first (``cluster_fit.cluster_refusals``);
this check runs when they find nothing, so a spec the cluster cannot run is
refused even where no rule covers the case: a partition the profile does not
have, more nodes than the partition holds, or no node shape in the partition
with the GPUs (of the type), CPUs, memory and features one node of the job
needs. slurmctld answers such jobs "Invalid partition name specified", "Node
count specification invalid" or "Requested node configuration is not
available" (measured on 22.05.8 with ``--test-only``), or leaves them pending
with ``EnforcePartLimits=NO``; either way the job never runs.
"""

from __future__ import annotations

import difflib
from typing import Iterator

from slurmspec.spec.model import Spec


def _per_node(script):
    """(nodes, GPUs, GPU type, CPUs, memory MB) one node of the first component needs; None where unknown."""
    from slurmspec.model.job import job_model
    from slurmspec.model.values.gres import GpuRequest

    model = job_model(script).component(0)
    request = script.request
    gpu_type = None
    for name in ("gpus-per-node", "gpus-per-task", "gres"):
        value = request.value(name)
        for item in getattr(value, "items", ()) or ():
            if getattr(item, "name", "gpu") == "gpu" and item.type:
                gpu_type = item.type
        if isinstance(value, GpuRequest) and value.types:
            gpu_type = value.types[0]
    cpus = None
    if model is not None and model.cpus_per_node is not None:
        cpus = model.cpus_per_node
    elif model is not None and model.cpus_per_gpu and model.gpus_per_node:
        cpus = model.cpus_per_gpu * model.gpus_per_node
    memory = None
    mem = getattr(request.value("mem"), "megabytes", None)
    per_gpu = getattr(request.value("mem-per-gpu"), "megabytes", None)
    per_cpu = getattr(request.value("mem-per-cpu"), "megabytes", None)
    if mem:
        memory = mem
    elif per_gpu and model is not None and model.gpus_per_node:
        memory = per_gpu * model.gpus_per_node
    elif per_cpu and cpus:
        memory = per_cpu * cpus
    nodes = model.nodes if model is not None else None
    gpus = model.gpus_per_node if model is not None else None
    return nodes, gpus, gpu_type, cpus, memory


def _size(megabytes: int | None) -> str:
    if megabytes is None:
        return ""
    return f"{megabytes // 1024}G" if megabytes % 1024 == 0 else f"{megabytes}M"


def _key(spec: Spec, *keys: str) -> tuple:
    """The path of the first of ``keys`` the spec sets (the resources section when none is)."""
    found = next((k for k in keys if spec.get("resources", k) is not None), None)
    return ("resources", found) if found else ("resources",)


def _features(spec: Spec) -> tuple[str, ...]:
    value = spec.get("resources", "constraint")
    return value if isinstance(value, tuple) else ()  # a plain list: all required; an expression: not judged


def shape_problems(spec: Spec, script_text: str, profile) -> Iterator[tuple[tuple, str]]:
    """(spec key path, message) for each reason the cluster cannot run the job (at most one)."""
    from slurmspec.parser.script import parse_script

    name = spec.get("job", "partition")
    if name is not None and profile.partition(name) is None:
        known = [p.name for p in profile.partitions]
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
        hint = f"did you mean `{close[0]}`?" if close else f"it has {', '.join(f'`{k}`' for k in known)}"
        yield ("job", "partition"), (f"`job.partition`: cluster `{profile.name}` has no partition `{name}` ({hint});"
                                     f" slurmctld refuses the job (\"Invalid partition name specified\")")
        return
    partition = profile.partition(name) if name is not None else profile.default_partition()
    if partition is None:
        return
    where = f"partition `{partition.name}` of cluster `{profile.name}`"
    nodes, gpus, gpu_type, cpus, memory = _per_node(parse_script(script_text))
    if nodes is not None and nodes > len(partition.nodes):
        yield ("resources", "nodes"), (f"`resources.nodes`: {where} has {len(partition.nodes)}"
                                       f" node{'s' if len(partition.nodes) != 1 else ''}, not {nodes};"
                                       " slurmctld refuses the job (\"Node count specification invalid\")"
                                       " or it never starts")
        return
    shapes = profile.shapes_in(partition)
    checks = (
        (_key(spec, "gpus_per_node", "gpus_per_task", "gpu_type"), lambda s: not gpus or s.gpus(gpu_type) >= gpus,
         f"{gpus} GPU{'s' if gpus != 1 else ''}" + (f" of type `{gpu_type}`" if gpu_type else "") + " per node"),
        (_key(spec, "cpus_per_task", "cpus_per_gpu", "ntasks_per_node", "ntasks"),
         lambda s: cpus is None or cpus <= s.cpus, f"{cpus} CPUs per node"),
        (_key(spec, "mem", "mem_per_gpu", "mem_per_cpu"), lambda s: not memory or memory <= s.memory_mb,
         f"{_size(memory)} of memory per node"),
        (("resources", "constraint"), lambda s: set(_features(spec)) <= set(s.features),
         "the features " + ", ".join(f"`{f}`" for f in _features(spec))),
    )
    for path, fits, what in checks:
        if not any(fits(s) for s in shapes):
            yield path, (f"`{'.'.join(path)}`: no node of {where} has {what}; slurmctld refuses the job"
                         f" (\"Requested node configuration is not available\") or it never starts")
            return
        shapes = tuple(s for s in shapes if fits(s))
