"""The counts the sbatch client reads from a component's options, shared by its geometry per release.

``count_of`` reads a whole-number option, ``node_range`` the ``-N`` range,
``layout_product`` sockets × cores × threads and ``arbitrary_distribution`` a ``-m arbitrary``
distribution; ``UNKNOWN`` is a count sbatch derives in a way this model does not
follow, and ``ClientGeometry`` the counts the GPU checks compare
(``sbatch_tasks.py`` fills it).
"""

from __future__ import annotations

from slurmspec.frozen import define
from slurmspec.model.job.request import JobRequest, Setting
from slurmspec.model.views.values import count, distribution_levels, layout_levels, node_count

UNKNOWN = object()  # a count Slurm derives in a way this model does not follow
LAYOUT = ("threads-per-core", "ntasks-per-core", "cores-per-socket", "sockets-per-node")


def count_of(request: JobRequest, name: str):
    """A whole-number option: None when not given, UNKNOWN when not a literal number."""
    setting = request.get(name)
    if setting is None:
        return None
    value = count(setting)
    return value if value is not None else UNKNOWN


def node_range(setting: Setting) -> tuple[int | None, int | None]:
    """``-N`` as (minimum, maximum; 0 for none), (None, None) when it did not parse."""
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


def layout_product(request):
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


def arbitrary_distribution(request) -> bool:
    dist = request.get("distribution")
    levels = distribution_levels(dist)
    if dist is not None and levels is None:
        return True  # invalid: other rules report it; assume the worst
    return bool(levels) and levels[0] == "arbitrary"


def known(*values) -> bool:
    """Every count is a number (not None, not UNKNOWN)."""
    return all(isinstance(v, int) for v in values)
