"""The GPU requests of a component and the job geometry sbatch checks them against.

Private to the GPU rules of this folder (SB140-SB150). sbatch's client-side
GRES validation (``src/common/slurm_opt.c:slurm_opt_create_job_desc()`` →
``src/common/gres.c:gres_job_state_validate()`` → ``_test_gres_cnt()``) runs
before anything reaches the controller. The model below was written from its
messages and checked case by case against sbatch 22.05.8 with ``--test-only``:

* GPU requests are grouped by type: ``--gpus=v100:2`` and ``--gres=gpu:v100:4``
  meet in one record, untyped requests in another; each record holds a count
  per job (``--gpus``), per node (``--gpus-per-node``, then ``--gres=gpu``,
  which wins when both are given), per socket and per task. Inside one option
  the last item of a type wins (``--gpus=2,1`` is 1). Zero counts are dropped.
* The geometry each record is checked against: the node range (``-N``, raised
  to the ``--nodelist`` host count on 22.05, lowered to ``-n`` when that is
  smaller), the task count, ``--ntasks-per-node``, ``--sockets-per-node`` (or
  ``-B``) and ``--ntasks-per-socket``.
* The task count is ``-n``; on 22.05 sbatch also implies one (see
  `geometry()`): a fixed ``-N k`` gives k tasks (none with ``-c``), times
  ``--ntasks-per-node`` or times sockets × cores × threads when those are
  given (also with ``-c``); ``--ntasks-per-node`` or ``-B`` alone, and a node
  list with socket/core/thread counts, imply their product; ``-m arbitrary``
  gives one task per distinct listed host. A ``-N`` range implies nothing.

From 23.02 the client no longer derives the task count from ``-N`` and
``--ntasks-per-node`` (``TASKS_NOT_IMPLIED``); there, a count that would need
an implied one is ``UNKNOWN`` and the checks that need it are skipped rather
than guessed.

The geometry is derived once per script (``job_geometry()``, through
``ctx.shared``); each caller gets its own copy, because the GPU count checks
write the counts they derive into it, as Slurm does.
"""

from __future__ import annotations

import attrs

from slurmspec.gates import NODELIST_COUNT_LEFT_TO_CONTROLLER, TASKS_NOT_IMPLIED
from slurmspec.lint.context import Context
from slurmspec.rules.reject._settings import count_hosts

_FIELD_OF = {"gpus": "job", "gpus-per-node": "node", "gres": "node",
             "gpus-per-socket": "socket", "gpus-per-task": "task"}
_SHOWN = {"job": "--gpus", "node": "--gpus-per-node", "socket": "--gpus-per-socket",
          "task": "--gpus-per-task"}
UNKNOWN = object()  # a count Slurm derives in a way this model does not follow
_LAYOUT = ("threads-per-core", "ntasks-per-core", "cores-per-socket", "sockets-per-node")


@attrs.define
class Record:
    type: str | None
    job: int = 0
    node: int = 0
    socket: int = 0
    task: int = 0
    where: dict = attrs.field(factory=dict)  # field -> directive that set it

    def shown(self, field: str) -> str:
        directive = self.where.get(field)
        option = _SHOWN[field]
        if directive is not None and directive.option.long == "gres":
            option = "--gres=gpu"
        value = getattr(self, field)
        prefix = f"{self.type}:" if self.type else ""
        return f"`{option}={prefix}{value}`" if option != "--gres=gpu" else f"`--gres=gpu:{prefix}{value}`"


def gpu_items(setting) -> list:
    value = setting.value if setting is not None else None
    return [i for i in getattr(value, "items", ()) or () if getattr(i, "name", None) == "gpu"]


def gpu_records(request) -> tuple[list[Record], bool]:
    """Records by GPU type in Slurm's order, and whether every GPU value parsed."""
    records: dict[str | None, Record] = {}
    complete = True
    for name in ("gpus", "gpus-per-node", "gres", "gpus-per-socket", "gpus-per-task"):
        setting = request.get(name)
        if setting is None:
            continue
        if not hasattr(setting.value, "items"):
            complete = False  # an invalid value: other rules report it
            continue
        field = _FIELD_OF[name]
        for item in gpu_items(setting):
            if item.count <= 0:
                continue
            record = records.setdefault(item.type, Record(item.type))
            setattr(record, field, item.count)
            record.where[field] = setting.directive
    return list(records.values()), complete


def requests_gpu(request) -> bool:
    records, _ = gpu_records(request)
    if records:
        return True
    tres = request.get("tres-per-task")
    for item in getattr(getattr(tres, "value", None), "items", ()) or ():
        if item.kind == "gres" and item.name == "gpu" and item.count > 0:
            return True
    return False


def count_of(request, name: str):
    setting = request.get(name)
    if setting is None:
        return None
    value = getattr(setting.value, "value", None)
    return value if isinstance(value, int) else UNKNOWN


@attrs.define
class Geometry:
    min_nodes: object = None
    max_nodes: object = None
    num_tasks: object = None
    ntasks_per_node: object = None
    sockets_per_node: object = None
    ntasks_per_socket: object = None
    tasks_from_hosts: bool = False  # -m arbitrary: the task count is the host count
    # -B / --sockets/cores/threads-per-* with a fixed -N set the task count
    # outright on 22.05 (_opt_verify: nodes x S x C x T), as if -n were given.
    tasks_from_layout: bool = False


def geometry(request, version) -> Geometry:
    """The node/task counts sbatch hands to the GRES check (None = unset)."""
    g = Geometry()
    nodes = request.get("nodes")
    n_min = n_max = None
    if nodes is not None:
        n_min = getattr(nodes.value, "minimum", None)
        n_max = getattr(nodes.value, "maximum", None)
        if n_min == 0 and n_max == 0:
            nodes = n_min = n_max = None  # -N 0 counts as no -N (checked against 22.05.8)
        elif not isinstance(n_min, int) or not isinstance(n_max, int) or n_min <= 0:
            n_min = n_max = UNKNOWN
        elif n_max == 0:
            n_max = None
    nodelist = request.get("nodelist")
    listed = nodelist is not None or request.get("nodefile") is not None
    if listed:
        hosts = count_hosts(nodelist.raw) if nodelist is not None else None
        if hosts is None or n_min is UNKNOWN:
            n_min = n_max = UNKNOWN
        elif n_min is None:
            n_min = hosts
        elif version < NODELIST_COUNT_LEFT_TO_CONTROLLER:
            n_min = max(n_min, hosts)
    ntasks = count_of(request, "ntasks")
    if isinstance(ntasks, int) and isinstance(n_min, int) and ntasks < n_min:
        n_min = n_max = ntasks  # "can't run N processes on M nodes, setting nnodes to N"
    if isinstance(ntasks, int) and isinstance(n_max, int) and n_max > ntasks:
        n_max = ntasks
    g.min_nodes, g.max_nodes = n_min, n_max
    per_node = count_of(request, "ntasks-per-node")
    g.ntasks_per_node = per_node
    # The task count: -n; on 22.05 also implied by a fixed -N k (k tasks unless
    # -c is given, or k x --ntasks-per-node) or by --ntasks-per-node alone; a -N
    # range or a node list alone implies none (all checked against sbatch 22.05.8).
    # With -m arbitrary the task count is the number of distinct listed hosts.
    arbitrary = _arbitrary(request)
    zero_nodes = request.get("nodes") is not None and nodes is None
    if ntasks is not None:
        g.num_tasks = ntasks
    elif (arbitrary and version < TASKS_NOT_IMPLIED and isinstance(n_min, int) and n_max in (None, n_min)
          and per_node is None and isinstance(_layout_product(request), int)):
        # A layout count beats the host count (`-m arbitrary -w v100-01 -N 2
        # --threads-per-core=1 --ntasks-per-gpu=2` fails with "--gpus < -N" on
        # 22.05.8, without --threads-per-core it passes; `-m arbitrary
        # -w v100-[01-02] --sockets-per-node=2 --ntasks-per-gpu=2` passes: 4 tasks).
        g.num_tasks = n_min * _layout_product(request)
        g.tasks_from_layout = True
    elif arbitrary and version < TASKS_NOT_IMPLIED:
        # (with --ntasks-per-node the count is something else: not followed)
        hosts = count_hosts(nodelist.raw) if nodelist is not None and per_node is None else None
        g.num_tasks = hosts if hosts is not None else UNKNOWN
        g.tasks_from_hosts = hosts is not None
    elif request.get("extra-node-info") is not None and nodes is None and not listed:
        # -B S:C:T alone implies S x C x T tasks (a missing level counts 1:
        # `--gpus=2 --gpus-per-task=1 -B 1` is refused by 22.05.8)
        product = _layout_product(request)
        g.num_tasks = product if version < TASKS_NOT_IMPLIED and isinstance(product, int) else UNKNOWN
    elif (zero_nodes or (listed and nodes is None)) and any(
            request.get(n) is not None for n in ("extra-node-info", *_LAYOUT[:1], *_LAYOUT[2:])):
        # A node list with a socket/core/thread count (or -B S:C:T) implies hosts x S x C x T
        # tasks (`-w v100-01 --sockets-per-node=1 --gpus=2 --gpus-per-task=1` is
        # refused by 22.05.8, `-w v100-01 -B 2:1:1 --gpus-per-task=1` accepted: 2 tasks;
        # with --ntasks-per-core alone none is implied)
        product = _layout_product(request)
        g.num_tasks = UNKNOWN
        if (version < TASKS_NOT_IMPLIED and not zero_nodes and isinstance(n_min, int) and isinstance(product, int)
                and per_node is None):
            g.num_tasks = n_min * product
            g.tasks_from_layout = True  # `-w v100-[01-02] --sockets-per-node=1 --ntasks-per-gpu=2`: "--gpus < -N"
    elif version >= TASKS_NOT_IMPLIED:
        g.num_tasks = UNKNOWN if (nodes is not None or per_node is not None or arbitrary) else None
    elif nodes is not None:
        # "fixed" after the node list raised the minimum: `-w n[01-03] -N 2-3` is 3 nodes
        if not isinstance(n_min, int) or n_min != n_max:
            g.num_tasks = UNKNOWN if not isinstance(n_min, int) else None
        elif isinstance(per_node, int):
            g.num_tasks = n_min * per_node
        elif per_node is UNKNOWN:
            g.num_tasks = UNKNOWN
        elif _layout_product(request) is not None:
            # -N k with sockets/cores/threads implies k x S x C x T tasks, with or
            # without -c (`-N 1 --threads-per-core=2 --gpus=1 --gpus-per-task=1`
            # and `-B 2:1:1 -c 2 --gpus=1 --gpus-per-task=1` are refused)
            product = _layout_product(request)
            g.num_tasks = n_min * product if isinstance(product, int) else UNKNOWN
            g.tasks_from_layout = isinstance(product, int)
        elif request.get("cpus-per-task") is None:
            g.num_tasks = n_min  # with -c (and no --ntasks-per-node) none is implied
    elif per_node is not None:
        g.num_tasks = UNKNOWN if listed else per_node
    sockets = count_of(request, "sockets-per-node")
    if sockets is None and request.get("extra-node-info") is not None:
        sockets = UNKNOWN
    g.sockets_per_node = sockets
    g.ntasks_per_socket = count_of(request, "ntasks-per-socket")
    return g


def _layout_product(request):
    """Sockets x cores x threads asked for (-B and the per-level options), None if none.

    A missing level counts 1; UNKNOWN when a level is a range or set twice.
    """
    names = ("sockets-per-node", "cores-per-socket", "threads-per-core")
    b = request.get("extra-node-info")
    if b is None and not any(request.get(n) is not None for n in names):
        return None
    levels = list(getattr(getattr(b, "value", None), "levels", None) or ()) if b is not None else []
    if b is not None and not levels:
        return UNKNOWN
    levels += [None] * (3 - len(levels))
    product = 1
    for level, name in zip(levels, names):
        explicit = count_of(request, name)
        if explicit is not None and level is not None:
            # Both -B and the per-level option set the same field: the one set
            # last wins (`-B 2:1:1 --sockets-per-node=2 --gpus=1 --gpus-per-task=1`
            # implies 2 tasks and is refused by 22.05.8).
            if request.get(name).directive.span.start > b.directive.span.start:
                level = None
            else:
                explicit = None
        if explicit is not None:
            if not isinstance(explicit, int):
                return UNKNOWN
            product *= explicit
        elif level is not None:
            if not isinstance(level, tuple) or level[0] != level[1]:
                return UNKNOWN
            product *= level[0]
    return product


def _arbitrary(request) -> bool:
    dist = request.get("distribution")
    levels = getattr(getattr(dist, "value", None), "levels", None)
    if dist is not None and levels is None:
        return True  # invalid: other rules report it; assume the worst
    return bool(levels) and levels[0] == "arbitrary"


def known(*values) -> bool:
    return all(isinstance(v, int) for v in values)


def job_geometry(ctx: Context, index: int) -> Geometry:
    """Component ``index``'s geometry, derived once per script; a copy the caller may change."""
    derived = ctx.shared(_derived)
    if index not in derived:
        derived[index] = geometry(ctx.script.components[index].request, ctx.version)
    return attrs.evolve(derived[index])


def _derived(ctx: Context) -> dict[int, Geometry]:
    # Filled on first use per component: only components with a GPU request
    # or --ntasks-per-gpu are asked for.
    return {}
