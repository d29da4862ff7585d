"""The node and task counts sbatch 22.05 (and 23.02 before ``TASKS_NOT_IMPLIED``) hands to its GPU checks.

See ``sbatch_tasks.py`` for the facts; each branch below cites the sbatch 22.05.8
run it was checked against with ``--test-only``.
"""

from __future__ import annotations

from slurmspec.gates import NODELIST_COUNT_LEFT_TO_CONTROLLER, TASKS_NOT_IMPLIED
from slurmspec.model.job.request import JobRequest
from slurmspec.model.views.hosts import count_hosts
from slurmspec.model.views.sbatch_counts import (
    LAYOUT, UNKNOWN, ClientGeometry, arbitrary_distribution, count_of, layout_product, node_range,
)
from slurmspec.version import Version


def geometry_22_05(request: JobRequest, version: Version) -> ClientGeometry:
    """The node/task counts sbatch hands to the GRES check (None = unset), before ``TASKS_NOT_IMPLIED``."""
    g = ClientGeometry()
    nodes, n_min, n_max = _node_range(request, version)
    g.min_nodes, g.max_nodes = n_min, n_max
    g.ntasks_per_node = count_of(request, "ntasks-per-node")
    _task_count(g, request, version, nodes)
    sockets = count_of(request, "sockets-per-node")
    if sockets is None and request.get("extra-node-info") is not None:
        sockets = UNKNOWN
    g.sockets_per_node = sockets
    g.ntasks_per_socket = count_of(request, "ntasks-per-socket")
    return g


def _node_range(request: JobRequest, version: Version) -> tuple:
    """(the --nodes value, or None when it counts as unset; the minimum and maximum node counts)."""
    nodes = request.get("nodes")
    n_min = n_max = None
    if nodes is not None:
        n_min, n_max = node_range(nodes)
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
    return nodes, n_min, n_max


def _task_count(g: ClientGeometry, request: JobRequest, version: Version, nodes) -> None:
    """Set ``g.num_tasks`` (and where it came from) from the node counts already in ``g``."""
    n_min, n_max, per_node = g.min_nodes, g.max_nodes, g.ntasks_per_node
    ntasks = count_of(request, "ntasks")
    nodelist = request.get("nodelist")
    listed = nodelist is not None or request.get("nodefile") is not None
    # The task count: -n; on 22.05 also implied by a fixed -N k (k tasks unless
    # -c is given, or k x --ntasks-per-node) or by --ntasks-per-node alone; a -N
    # range or a node list alone implies none (all checked against sbatch 22.05.8).
    # With -m arbitrary the task count is the number of distinct listed hosts.
    arbitrary = arbitrary_distribution(request)
    zero_nodes = request.get("nodes") is not None and nodes is None
    if ntasks is not None:
        g.num_tasks = ntasks
    elif (arbitrary and version < TASKS_NOT_IMPLIED and isinstance(n_min, int) and n_max in (None, n_min)
          and per_node is None and isinstance(layout_product(request), int)):
        # A layout count beats the host count (`-m arbitrary -w v100-01 -N 2
        # --threads-per-core=1 --ntasks-per-gpu=2` fails with "--gpus < -N" on
        # 22.05.8, without --threads-per-core it passes; `-m arbitrary
        # -w v100-[01-02] --sockets-per-node=2 --ntasks-per-gpu=2` passes: 4 tasks).
        g.num_tasks = n_min * layout_product(request)
        g.tasks_from_layout = True
    elif arbitrary and version < TASKS_NOT_IMPLIED:
        # (with --ntasks-per-node the count is something else: not followed)
        hosts = count_hosts(nodelist.raw) if nodelist is not None and per_node is None else None
        g.num_tasks = hosts if hosts is not None else UNKNOWN
        g.tasks_from_hosts = hosts is not None
    elif request.get("extra-node-info") is not None and nodes is None and not listed:
        # -B S:C:T alone implies S x C x T tasks (a missing level counts 1:
        # `--gpus=2 --gpus-per-task=1 -B 1` is refused by 22.05.8)
        product = layout_product(request)
        g.num_tasks = product if version < TASKS_NOT_IMPLIED and isinstance(product, int) else UNKNOWN
    elif (zero_nodes or (listed and nodes is None)) and any(
            request.get(n) is not None for n in ("extra-node-info", *LAYOUT[:1], *LAYOUT[2:])):
        # A node list with a socket/core/thread count (or -B S:C:T) implies hosts x S x C x T
        # tasks (`-w v100-01 --sockets-per-node=1 --gpus=2 --gpus-per-task=1` is
        # refused by 22.05.8, `-w v100-01 -B 2:1:1 --gpus-per-task=1` accepted: 2 tasks;
        # with --ntasks-per-core alone none is implied)
        product = layout_product(request)
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
        elif layout_product(request) is not None:
            # -N k with sockets/cores/threads implies k x S x C x T tasks, with or
            # without -c (`-N 1 --threads-per-core=2 --gpus=1 --gpus-per-task=1`
            # and `-B 2:1:1 -c 2 --gpus=1 --gpus-per-task=1` are refused)
            product = layout_product(request)
            g.num_tasks = n_min * product if isinstance(product, int) else UNKNOWN
            g.tasks_from_layout = isinstance(product, int)
        elif request.get("cpus-per-task") is None:
            g.num_tasks = n_min  # with -c (and no --ntasks-per-node) none is implied
    elif per_node is not None:
        g.num_tasks = UNKNOWN if listed else per_node
