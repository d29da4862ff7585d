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

from slurmspec.gates import TASKS_NOT_IMPLIED
from slurmspec.model.job.request import JobRequest
from slurmspec.model.views.hosts import count_hosts, listed_hosts
from slurmspec.model.views.run import LintRun
from slurmspec.model.views.sbatch_counts import (
    UNKNOWN, ClientGeometry, arbitrary_distribution, count_of, known, layout_product, node_range,
)
from slurmspec.model.views.sbatch_tasks_22_05 import geometry_22_05
from slurmspec.version import Version


def geometry(request: JobRequest, version: Version) -> ClientGeometry:
    """The node/task counts sbatch hands to the GRES check (None = unset)."""
    if version >= TASKS_NOT_IMPLIED:
        return geometry_since_23_02(request)
    return geometry_22_05(request, version)


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
        n_min, n_max = node_range(nodes)
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
        product = layout_product(request)
        if request.get("hint") is not None or product is UNKNOWN or (product is not None and n_min is UNKNOWN):
            num_tasks = UNKNOWN  # --hint sets threads/cores per core too: not followed
        elif product is not None:
            num_tasks, g.tasks_from_layout = max(n_min, 1) * product, True
    elif nodes_set and isinstance(ntasks, int) and known(n_min, n_max):
        n_max = ntasks if ntasks < n_max else n_max
        if ntasks < n_min:
            n_min = n_max = ntasks
    if arbitrary_distribution(request) and num_tasks is None:
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
