"""The node and task counts the sbatch client checks a component's GPU requests against, per release.

sbatch validates GPU counts (``sbatch_gpus``) against the job's geometry before
anything reaches the controller; the model was written from its messages and
checked case by case against sbatch 22.05.8 and 24.11.5 with ``--test-only``:

* the node range (``-N``, raised to the ``--nodelist`` host count on 22.05,
  lowered to ``-n`` when that is smaller), the task count, ``--ntasks-per-node``,
  ``--sockets-per-node`` (or ``-B``) and ``--ntasks-per-socket``;
* the task count is ``-n``; on 22.05 sbatch also implies one (``geometry()``): a
  fixed ``-N k`` gives k tasks (none with ``-c``), times ``--ntasks-per-node`` or
  times sockets × cores × threads when those are given (also with ``-c``);
  ``--ntasks-per-node`` or ``-B`` alone, and a node list with socket/core/thread
  counts, imply their product; ``-m arbitrary`` gives one task per distinct listed
  host. A ``-N`` range implies nothing.

From 23.02 the client no longer derives the task count from ``-N`` and
``--ntasks-per-node`` (``TASKS_NOT_IMPLIED``; ``geometry_since_23_02()``); a
count that would need an implied one is ``UNKNOWN`` there, and the checks that
need it are skipped rather than guessed.

``client_geometry(ctx, index)`` derives it once per script; each caller gets its
own copy, because the GPU count checks write the counts they derive into it, as
Slurm does.
"""

from __future__ import annotations

import attrs

from slurmspec.frozen import define
from slurmspec.gates import NODELIST_COUNT_LEFT_TO_CONTROLLER, TASKS_NOT_IMPLIED
from slurmspec.model.request import JobRequest, Setting
from slurmspec.model.views.hosts import count_hosts, listed_hosts
from slurmspec.model.views.run import LintRun
from slurmspec.model.views.values import count, distribution_levels, layout_levels, node_count
from slurmspec.version import Version

UNKNOWN = object()  # a count Slurm derives in a way this model does not follow
_LAYOUT = ("threads-per-core", "ntasks-per-core", "cores-per-socket", "sockets-per-node")


def count_of(request: JobRequest, name: str):
    """A whole-number option: None when not given, UNKNOWN when not a literal number."""
    setting = request.get(name)
    if setting is None:
        return None
    value = count(setting)
    return value if value is not None else UNKNOWN


def _node_range(setting: Setting) -> tuple[int | None, int | None]:
    value = node_count(setting)
    return (None, None) if value is None else (value.minimum, value.maximum)


@define
class ClientGeometry:
    """The counts sbatch checks GPU requests against: None unset, UNKNOWN derived in a way not followed."""

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


def geometry(request: JobRequest, version: Version) -> ClientGeometry:
    """The node/task counts sbatch hands to the GRES check (None = unset)."""
    if version >= TASKS_NOT_IMPLIED:
        return geometry_since_23_02(request)
    g = ClientGeometry()
    nodes = request.get("nodes")
    n_min = n_max = None
    if nodes is not None:
        n_min, n_max = _node_range(nodes)
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


def geometry_since_23_02(request: JobRequest) -> ClientGeometry:
    """The geometry from 23.02 on, step by step as sbatch 24.11.5 computes it.

    ``src/sbatch/opt.c:_opt_verify()``: a node list without ``-N`` sets the node
    minimum to its distinct host count (no maximum); a fixed or open node count
    (or ``-B``) without ``-n`` and without ``--ntasks-per-node`` implies
    nodes x sockets x cores x threads tasks when a layout level is given; ``-n``
    caps the node range; ``-m arbitrary`` takes the task count from the listed
    hosts. ``src/common/slurm_opt.c:slurm_opt_create_job_desc()`` then passes the
    node range (``-n`` with ``--ntasks-per-node`` gives a minimum), and
    ``src/interfaces/gres.c:gres_job_state_validate()`` implies the task count of
    a per-task GPU request or ``--ntasks-per-gpu`` from a *fixed* node count
    (nodes x ``--ntasks-per-gpu``, x ``--ntasks-per-node``, or nodes unless ``-c``
    is given). Checked against sbatch 24.11.5: ``-N 2 --gpus-per-task=1`` and
    ``-w n[01-03] -N 3`` pass; ``-N 1-2``, ``-w n[01-02]``, ``-N 2 -c 2`` and
    ``--ntasks-per-node=2`` alone are refused ("used without either --gpus or -n").
    """
    g = ClientGeometry()
    nodes, nodelist = request.get("nodes"), request.get("nodelist")
    nodes_set, n_min, n_max = nodes is not None, 1, 0  # opt defaults: min 1, max 0 = none
    if nodes is not None:
        n_min, n_max = _node_range(nodes)
        if not isinstance(n_min, int) or not isinstance(n_max, int):
            n_min = n_max = UNKNOWN
    if nodelist is not None or request.get("nodefile") is not None:
        hosts = count_hosts(nodelist.raw) if nodelist is not None else None
        if not nodes_set:
            nodes_set, n_min = True, hosts if hosts is not None else UNKNOWN
    ntasks, per_node = count_of(request, "ntasks"), count_of(request, "ntasks-per-node")
    num_tasks = ntasks
    if ((nodes_set or request.get("extra-node-info") is not None) and ntasks is None and per_node is None
            and (n_max == 0 or n_min == n_max)):
        product = _layout_product(request)
        if request.get("hint") is not None or product is UNKNOWN or (product is not None and n_min is UNKNOWN):
            num_tasks = UNKNOWN  # --hint sets threads/cores per core too: not followed
        elif product is not None:
            num_tasks, g.tasks_from_layout = max(n_min, 1) * product, True
    elif nodes_set and isinstance(ntasks, int) and known(n_min, n_max):
        n_max = ntasks if ntasks < n_max else n_max
        if ntasks < n_min:
            n_min = n_max = ntasks
    if _arbitrary(request) and num_tasks is None:
        hosts = listed_hosts(None if nodelist is None else nodelist.raw)
        num_tasks, g.tasks_from_hosts = (hosts, True) if hosts is not None else (UNKNOWN, False)
    if nodes_set:
        g.min_nodes, g.max_nodes = n_min, (n_max or None) if n_max is not UNKNOWN else UNKNOWN
    elif num_tasks == 0:
        g.min_nodes = 0
    elif isinstance(num_tasks, int) and isinstance(per_node, int) and per_node > 0:
        g.min_nodes = -(-num_tasks // per_node)
    per_tres = count_of(request, "ntasks-per-tres")
    per_tres = count_of(request, "ntasks-per-gpu") if per_tres is None else per_tres
    per_task = request.get("gpus-per-task") is not None or request.get("tres-per-task") is not None
    if (per_task or per_tres is not None) and num_tasks is None and g.min_nodes is not None:
        if g.min_nodes is UNKNOWN or g.max_nodes is UNKNOWN or UNKNOWN in (per_tres, per_node):
            num_tasks = UNKNOWN
        elif g.min_nodes == g.max_nodes:  # implied by a fixed node count only
            if per_tres is not None:
                num_tasks = g.min_nodes * per_tres
            elif per_node is not None:
                num_tasks = g.min_nodes * per_node
            elif request.get("cpus-per-task") is None:
                num_tasks = g.min_nodes
    g.num_tasks, g.ntasks_per_node = num_tasks, per_node
    sockets = count_of(request, "sockets-per-node")
    g.sockets_per_node = UNKNOWN if sockets is None and request.get("extra-node-info") is not None else sockets
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
    levels = list(layout_levels(b) or ()) if b is not None else []
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
    levels = distribution_levels(dist)
    if dist is not None and levels is None:
        return True  # invalid: other rules report it; assume the worst
    return bool(levels) and levels[0] == "arbitrary"


def known(*values) -> bool:
    return all(isinstance(v, int) for v in values)




def client_geometry(ctx: LintRun, index: int) -> ClientGeometry:
    """Component ``index``'s geometry, derived once per script; a copy the caller may change."""
    derived = ctx.shared(_derived)
    if index not in derived:
        derived[index] = geometry(ctx.script.components[index].request, ctx.version)
    return attrs.evolve(derived[index])


def _derived(ctx: LintRun) -> dict[int, ClientGeometry]:
    # Filled on first use per component: only components with a GPU request
    # or --ntasks-per-gpu are asked for.
    return {}
