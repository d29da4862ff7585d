"""Typed resource keys that sbatch (or slurmctld at submission) refuses together.

Each value is already checked on its own by the script parser's value parser;
these are the combinations, reported on one of the keys involved (the later in
the field table, so the message points at a line of the spec), in the spec's
own vocabulary.
They mirror rules the linter applies to every script (SB125, SB140, SB141,
SB143, SB146, SB216), which ``slurmspec emit`` runs again on what it writes;
here they only judge what the typed keys decide on their own. When a raw
``[sbatch].options`` word could change the outcome (``--gpus``, ``--gres``,
``-B``, a node list...), the GPU and task checks step aside and leave the
script to the rules.

References: ``src/common/slurm_opt.c:_validate_memory_options()`` (the memory
options exclude each other), ``src/common/gres.c:gres_job_state_validate()`` →
``_test_gres_cnt()`` (GPU counts, checked by sbatch before submission),
``man sbatch`` ``--ntasks-per-node`` ("treated as a maximum count of tasks per
node" with ``--ntasks``: more tasks than fit are refused by slurmctld,
"Requested node configuration is not available").
"""

from __future__ import annotations

from typing import Any, Iterator

from slurmspec.gates import CPUS_PER_GPU_NEEDS_GPU, TASKS_NOT_IMPLIED
from slurmspec.spec.model import Spec
from slurmspec.spec.raw import split_raw
from slurmspec.version import NEWEST, Version

# One request for memory: sbatch stops with "--mem, --mem-per-cpu, and
# --mem-per-gpu are mutually exclusive" when two are given (any release).
MEMORY_KEYS = ("mem", "mem_per_cpu", "mem_per_gpu")
_MEMORY_MEANING = {"mem": "per node", "mem_per_cpu": "per CPU", "mem_per_gpu": "per GPU"}
# --cpus-per-task and --cpus-per-gpu both set the CPUs of a task.
CPU_KEYS = ("cpus_per_task", "cpus_per_gpu")
EXCLUSIVE_GROUPS = (MEMORY_KEYS, CPU_KEYS)

# Raw options that also request GPUs or change the task count sbatch derives:
# with any of them, the GPU and task-count checks below leave the job to the rules.
_GPU_OR_TASK_OPTIONS = frozenset({
    "gpus", "gres", "gpus-per-socket", "tres-per-task", "tres-per-job", "tres-per-node", "tres-per-socket",
    "ntasks-per-gpu", "ntasks-per-tres", "extra-node-info", "sockets-per-node", "cores-per-socket",
    "threads-per-core", "ntasks-per-core", "ntasks-per-socket", "nodelist", "nodefile", "distribution",
    "ntasks",
})


def raw_names(words) -> set[str]:
    """Canonical names of raw ``--name[=value]`` words (aliases resolved)."""
    from slurmspec.model.catalogue.options import lookup

    names = set()
    for word in words:
        name = split_raw(word)[0]
        option = lookup(name)
        names.add(option.long if option is not None else name)
    return names


def check_requests(spec: Spec, version: Version | None = None) -> Iterator[tuple[tuple, str]]:
    version = version or NEWEST
    res = spec.section("resources")
    if res is None:
        return
    raw = raw_names(spec.get("sbatch", "options", ()))
    values, typed = res.as_dict(), res.typed
    yield from _exclusive(values, raw)
    if not raw & _GPU_OR_TASK_OPTIONS:
        yield from _gpus_per_task(values, typed, version)
        yield from _per_gpu_without_gpu(values, version)
    yield from _tasks_fit(values, typed)


def _key(key: str) -> str:
    return f"`resources.{key}`"


def _exclusive(values: dict[str, Any], raw: set[str]) -> Iterator[tuple[tuple, str]]:
    for group in EXCLUSIVE_GROUPS:
        present = [k for k in group if k in values]
        raw_present = [k for k in group if k.replace("_", "-") in raw and k not in values]
        if len(present) + len(raw_present) < 2 or not present:
            continue
        if group is MEMORY_KEYS:
            others = [_key(k) for k in present[:-1]] + [f"`--{k.replace('_', '-')}` in `sbatch.options`"
                                                        for k in raw_present]
            where = present[-1]
            yield ("resources", where), (
                f"{_key(where)} cannot be combined with {' and '.join(others)}: sbatch refuses two memory"
                " requests (\"--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive\"). Keep one: "
                + ", ".join(f"`{k}` is memory {_MEMORY_MEANING[k]}" for k in MEMORY_KEYS if k in values
                            or k.replace("_", "-") in raw))
        else:
            other = _key(present[0]) if len(present) == 2 else f"`--{raw_present[0].replace('_', '-')}`"
            where = present[-1]
            yield ("resources", where), (
                f"{_key(where)} cannot be combined with {other}: both set the CPUs of a task and sbatch"
                " refuses the pair (\"--cpus-per-gpu is mutually exclusive with --cpus-per-task\"). Keep"
                " `cpus_per_task` (CPUs per task) or `cpus_per_gpu` (CPUs per GPU)")


def _gpus_per_task(values: dict[str, Any], typed: dict[str, Any], version: Version) -> Iterator[tuple[tuple, str]]:
    """`gpus_per_task` against `gpus_per_node` and the task count, in the order sbatch checks them."""
    gpt, gpn = values.get("gpus_per_task"), values.get("gpus_per_node")
    if gpt is None:
        return
    if gpn is not None and gpt > gpn:
        yield ("resources", "gpus_per_task"), (
            f"`resources.gpus_per_task = {gpt}` is more than `resources.gpus_per_node = {gpn}`: a task's GPUs"
            " must all be on its node, so sbatch refuses the job. Lower `gpus_per_task` or raise"
            " `gpus_per_node`")
        return
    if "ntasks" not in values and _no_task_count(values, typed, version):
        yield ("resources", "gpus_per_task"), (
            "`resources.gpus_per_task` needs a task count: sbatch multiplies it by the number of tasks and"
            " refuses the job without one (\"--gpus-per-task used without either --gpus or -n/--ntasks is not"
            " allowed\"). Set `resources.ntasks`" + (" (a node range implies no task count)"
                                                      if "nodes" in values else ""))
        return
    if gpn is None:
        return
    if gpn % gpt:
        yield ("resources", "gpus_per_task"), (
            f"`resources.gpus_per_node = {gpn}` is not a multiple of `resources.gpus_per_task = {gpt}`, so"
            " sbatch refuses the job (\"--gres=gpu/--gpus-per-node not multiple of --gpus-per-task\"). Make"
            " `gpus_per_node` a multiple of `gpus_per_task`")
        return
    per_node = values.get("ntasks_per_node")
    if per_node is not None and per_node != gpn // gpt:
        yield ("resources", "ntasks_per_node"), (
            f"`resources.ntasks_per_node = {per_node}` contradicts the GPUs: {gpn} GPUs per node at {gpt} per"
            f" task make {gpn // gpt} task{'s' if gpn // gpt != 1 else ''} per node, and sbatch refuses the"
            f" job (\"requested number of tasks per node differ from --ntasks-per-node\"). Set"
            f" `ntasks_per_node = {gpn // gpt}`, or drop `gpus_per_task`")


def _no_task_count(values: dict[str, Any], typed: dict[str, Any], version: Version) -> bool:
    """True when sbatch certainly derives no task count (``ntasks`` unset).

    Every release: neither ``nodes`` nor ``ntasks_per_node``. Before 23.02 sbatch
    also implies one from a fixed ``nodes`` (times ``ntasks_per_node``; none with
    ``cpus_per_task``) or ``ntasks_per_node`` alone, never from a node range; from
    23.02 that is left to the controller, so only the first case is certain.
    """
    nodes, per_node = typed.get("nodes"), values.get("ntasks_per_node")
    if nodes is None:
        return per_node is None
    if version >= TASKS_NOT_IMPLIED:
        return False
    minimum, maximum = getattr(nodes, "minimum", None), getattr(nodes, "maximum", None)
    if not isinstance(minimum, int) or getattr(nodes, "sizes", ()):
        return False
    if maximum != minimum:
        return True  # a range (or no maximum) implies nothing
    return per_node is None and "cpus_per_task" in values


def _per_gpu_without_gpu(values: dict[str, Any], version: Version) -> Iterator[tuple[tuple, str]]:
    if "gpus_per_node" in values or "gpus_per_task" in values:
        return
    keys = ["mem_per_gpu"] + (["cpus_per_gpu"] if version >= CPUS_PER_GPU_NEEDS_GPU else [])
    for key in keys:
        if key in values:
            instead = "mem_per_cpu" if key == "mem_per_gpu" else "cpus_per_task"
            yield ("resources", key), (
                f"{_key(key)} is an amount per GPU, but the job requests no GPU, so sbatch refuses it (\"did not"
                f" request any GPU\"). Request GPUs (`resources.gpus_per_node` or `resources.gpus_per_task`), or"
                f" use `{instead}`")


def _tasks_fit(values: dict[str, Any], typed: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    """More tasks than `ntasks_per_node` allows on the largest node count (SB216)."""
    ntasks, per_node, nodes = values.get("ntasks"), values.get("ntasks_per_node"), typed.get("nodes")
    if ntasks is None or per_node is None or nodes is None:
        return
    minimum, maximum = getattr(nodes, "minimum", None), getattr(nodes, "maximum", None)
    if getattr(nodes, "sizes", ()) or not isinstance(minimum, int) or not isinstance(maximum, int) or not maximum:
        return
    if minimum > ntasks or ntasks <= per_node * maximum:
        return
    nodes_needed = -(-ntasks // per_node)
    yield ("resources", "ntasks"), (
        f"`resources.ntasks = {ntasks}` does not fit: `ntasks_per_node = {per_node}` on at most {maximum}"
        f" node{'s' if maximum != 1 else ''} holds {per_node * maximum} tasks, and slurmctld refuses the job"
        f" (\"Requested node configuration is not available\"). Set `nodes = {nodes_needed}`, raise"
        f" `ntasks_per_node` to {-(-ntasks // maximum)}, or lower `ntasks` to {per_node * maximum}")
