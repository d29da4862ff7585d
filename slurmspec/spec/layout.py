"""The task layout each launch kind needs, judged on the job model of the script ``slurmspec emit`` writes.

The loader emits the spec's header, ``[env]`` exports and launch block (what
``slurmspec emit`` writes, minus the workflow pieces), parses that text for the
target Slurm release and takes the job model (``slurmspec/model/job/model.py``, the
one model the rules use, checked against a real Slurm) of the launch step: its
nodes, tasks per node, the processes the launcher starts and the GPUs each task
sees. The needs follow from how each launcher starts its workers (docs/spec.md):

- ``torchrun`` and ``accelerate`` spawn one worker per GPU themselves, so Slurm
  must start exactly one task per node, and each task must start as many
  workers as it sees GPUs;
- ``srun`` (DDP without torchrun), Horovod, DeepSpeed and Lightning expect Slurm
  to start one task per GPU (as many processes as the job has GPUs), and each
  of them picks GPU ``cuda:<local rank>`` (``LOCAL_RANK``/``SLURM_LOCALID``,
  ``hvd.local_rank()``), so every task must see the GPU of its local rank:
  ``gpus_per_task`` binds each task to its own GPUs (``--gpus-per-task=N``
  implies ``--gpu-bind=per_task:N``, ``man srun``), which then all are
  ``cuda:0``.. inside the task (rule SB314 is the lint side of this).

A number the model does not know (a node range, an uneven split) is not judged.
"""

from __future__ import annotations

import functools
from typing import Iterator

from slurmspec.spec.model import Spec
from slurmspec.version import NEWEST, Version

PER_NODE_KINDS = ("torchrun", "accelerate")
PER_GPU_KINDS = ("srun", "horovod", "lightning", "deepspeed")


def check_layout(spec: Spec, version: Version | None = None) -> Iterator[tuple[tuple, str]]:
    launch = spec.section("launch")
    if launch is None or launch.get("kind") not in PER_NODE_KINDS + PER_GPU_KINDS:
        return
    kind = launch.get("kind")
    if kind in PER_NODE_KINDS and launch.get("procs_per_node") is None \
            and spec.get("resources", "gpus_per_node") is None:
        return  # geometry.py asks for the workers per node: the launch block cannot be written
    step = launch_step(spec, version or NEWEST)
    if step is None:
        return
    if kind in PER_NODE_KINDS:
        yield from _per_node(spec, kind, step)
    else:
        yield from _per_gpu(spec, kind, step)


def launch_step(spec: Spec, version: Version = NEWEST):
    """The job model's step of the spec's launch block (None when it is not known)."""
    from slurmspec.spec.writer.header import header_lines
    from slurmspec.spec.writer.launch import launch_command
    from slurmspec.spec.writer.workflow import env_block

    head = "\n".join([*header_lines(spec), *env_block(spec)[0]]) + "\n"
    return _step(head, launch_command(spec, version) + "\n", tuple(version))


@functools.lru_cache(maxsize=128)
def _step(head: str, command: str, version: Version):
    from slurmspec.model.job.model import job_model
    from slurmspec.parser.script import parse_script

    script = parse_script(head + command, None, version)
    steps = [s for s in job_model(script).steps if s.launch.statement_span.start >= len(head)]
    if not steps or steps[-1].component is None:
        return None
    return steps[-1]


def _key(spec: Spec, *keys: str) -> tuple:
    """The path of the first of ``keys`` the spec sets in [resources] (else the table)."""
    return next((("resources", k) for k in keys if spec.get("resources", k) is not None), ("resources",))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}{'es' if word.endswith('s') else 's'}"


# Who picks GPU `cuda:<local rank>` in each kind's launch block (docs/spec.md).
_PICKER = {"srun": "the program, handed `LOCAL_RANK` (= `SLURM_LOCALID`),",
           "deepspeed": "DeepSpeed, handed `LOCAL_RANK` (= `SLURM_LOCALID`),",
           "horovod": "Horovod (`hvd.local_rank()`)", "lightning": "Lightning"}


def _drop_ntasks(spec: Spec) -> str:
    return " and drop `resources.ntasks`" if spec.get("resources", "ntasks") is not None else ""


def _gpus(step) -> tuple[int | None, int | None]:
    """(GPUs of the step in total, per node); (None, None) for a job without GPUs or unknown."""
    if not step.gpus_per_node and not step.gpus_total:
        return None, None
    return step.gpus_total, step.gpus_per_node


def _per_node(spec: Spec, kind: str, step) -> Iterator[tuple[tuple, str]]:
    per_node = step.tasks_per_node
    uneven = per_node is None and None not in (step.tasks, step.nodes) and step.tasks != step.nodes
    if (per_node is not None and per_node != 1) or uneven:
        shown = _plural(per_node, "task") + " per node" if per_node is not None else \
            f"{_plural(step.tasks, 'task')} on {_plural(step.nodes, 'node')}"
        yield _key(spec, "ntasks_per_node", "ntasks"), (
            f"{kind} starts its own workers, so Slurm must start one task per node: set"
            f" `resources.ntasks_per_node = 1`{_drop_ntasks(spec)} (this layout starts {shown}, and each"
            f" would start its own set of workers)")
        return
    total, gpn = _gpus(step)
    if total is None and gpn is None:
        return
    launch = spec.section("launch")
    procs = launch.get("procs_per_node")
    # accelerate's --num_processes is shell arithmetic the model does not evaluate: per task it is
    # what the launch block passes (procs_per_node, else gpus_per_node).
    # (When the model does not see torchrun inside the task's `bash -c` script, it is not judged.)
    if kind == "torchrun":
        per_task = step.processes_per_task if step.spawner is not None else None
    else:
        per_task = procs or spec.get("resources", "gpus_per_node")
    seen = step.gpus_per_task
    if per_task is None or seen is None or per_task == seen:
        return
    gpn_key = spec.get("resources", "gpus_per_node")
    if procs is not None and gpn_key is not None:
        yield ("launch", "procs_per_node"), (f"`procs_per_node` ({procs}) differs from `gpus_per_node`"
                                             f" ({gpn_key}): one worker per GPU")
        return
    fix = f"set `launch.procs_per_node = {seen}`" if procs is not None else \
        f"ask for the GPUs with `resources.gpus_per_node = {seen}`"
    yield (("launch", "procs_per_node") if procs is not None else _key(spec, "gpus_per_task")), (
        f"{kind} starts {_plural(per_task, 'worker')} in each task, but each task sees"
        f" {_plural(seen, 'GPU')}: one worker per GPU, so {fix}")


def _per_gpu(spec: Spec, kind: str, step) -> Iterator[tuple[tuple, str]]:
    total, gpn = _gpus(step)
    if total is None and gpn is None:
        return
    procs, gpt = step.processes, spec.get("resources", "gpus_per_task")
    if procs is not None and total is not None:
        mismatch, count = procs != total, f"{_plural(procs, 'process')} for {_plural(total, 'GPU')}"
    elif step.processes_per_node is not None and gpn is not None:
        mismatch = step.processes_per_node != gpn
        count = f"{_plural(step.processes_per_node, 'process')} per node for {_plural(gpn, 'GPU')} per node"
    else:
        mismatch, count = False, ""
    if mismatch and gpt is not None and gpt != 1:
        yield ("resources", "gpus_per_task"), (
            f"{kind} runs one task per GPU: `gpus_per_task` must be 1 (this layout starts {count})")
        return
    if mismatch:
        where = gpn or spec.get("resources", "gpus_per_node")
        hint = (f"`resources.ntasks_per_node = {where}` (= the GPUs per node)" if where else
                "`resources.ntasks_per_node` to the GPUs per node") + _drop_ntasks(spec)
        yield _key(spec, "ntasks_per_node", "ntasks"), (
            f"{kind} runs one task per GPU, but this layout starts {count}, so GPUs stay idle or"
            f" processes share one: set {hint}")
        return
    yield from _local_rank(spec, kind, step)


def _local_rank(spec: Spec, kind: str, step) -> Iterator[tuple[tuple, str]]:
    """A task whose local rank is not among the GPUs it sees: ``cuda:<local rank>`` does not exist there."""
    blind = next((t for t in step.task_list or () if t.gpus and t.local_rank >= len(t.gpus)), None)
    if blind is None:
        return
    seen, per_node, gpt = len(blind.gpus), step.tasks_per_node, spec.get("resources", "gpus_per_task")
    devices = "`cuda:0`" if seen == 1 else f"`cuda:0`..`cuda:{seen - 1}`"
    cause = f"`resources.gpus_per_task = {gpt}`" if gpt is not None else "the GPU binding in `sbatch.options`"
    yield (_key(spec, "gpus_per_task") if gpt is not None else ("sbatch", "options")), (
        f"{cause} with {per_node} tasks per"
        f" node gives each task only its own {'GPU' if seen == 1 else _plural(seen, 'GPU')}, which it knows"
        f" as {devices}; in a `{kind}` launch {_PICKER[kind]} picks GPU `cuda:<local rank>`, so local rank"
        f" {blind.local_rank} fails (`invalid device ordinal`)."
        + (f" Ask for the GPUs per node instead: `resources.gpus_per_node = {per_node * seen}` with"
           f" `resources.ntasks_per_node = {per_node}`, without `gpus_per_task`" if gpt is not None else
           " Drop the binding, so every task sees all the GPUs of its node"))
