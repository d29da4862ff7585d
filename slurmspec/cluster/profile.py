"""What slurmspec knows about one cluster: its node shapes, partitions and the configuration facts that change verdicts.

A profile is written by ``slurmspec cluster import`` from ``scontrol show``
output (``slurmspec/cluster/importer*.py``) or by hand, and read by
``slurmspec/cluster/store.py``. Rules reach it as ``ctx.cluster``. Units are
Slurm's: memory in MB (``RealMemory``), times in minutes (``MaxTime``);
``None`` means unlimited or not set.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

import attrs

from slurmspec.frozen import as_tuple, frozen
from slurmspec.cluster.errors import ProfileError  # noqa: F401 - the contract names it here too
from slurmspec.cluster.release import target_release
from slurmspec.kinds import EnforcePartLimits

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.version import Version


def _names(value: Any) -> tuple[str, ...]:
    return tuple(value)


def _optional_names(value: Any) -> tuple[str, ...] | None:
    return None if value is None else tuple(value)


def split_plugin_option(text: str) -> tuple[str, bool]:
    """``--uenv=<file>`` -> ("uenv", True); ``--no-foo`` -> ("no-foo", False): `sbatch --help` prints a
    plugin option's argument after ``=`` when it takes one (src/common/spank.c, ``_spank_opt_print``)."""
    name, equals, _arg = text.removeprefix("--").partition("=")
    return name, bool(equals)


@frozen
class Gres:
    """One generic resource of a node: ``gpu:a100:8`` is ``Gres("gpu", "a100", 8)``."""

    name: str
    type: str | None
    count: int

    def __str__(self) -> str:
        return ":".join(part for part in (self.name, self.type, str(self.count)) if part is not None)


@frozen
class NodeShape:
    """Nodes that look alike to the scheduler: same usable CPUs, topology, memory, GRES and features."""

    nodes: tuple[str, ...] = attrs.field(converter=_names)
    cpus: int  # CPUEfctv where scontrol prints it (CPUs minus specialized cores), else CPUTot
    boards: int
    sockets: int
    cores_per_socket: int
    threads_per_core: int
    memory_mb: int  # RealMemory - MemSpecLimit: what jobs can be given
    gres: tuple[Gres, ...] = attrs.field(default=(), converter=as_tuple)
    features: tuple[str, ...] = attrs.field(default=(), converter=_names)  # AvailableFeatures
    gpu_memory_mb: int | None = None  # never in scontrol output; a site may add it to the profile

    def gpus(self, type: str | None = None) -> int:
        """GPUs per node (of ``type`` only, when given)."""
        return sum(g.count for g in self.gres if g.name == "gpu" and (type is None or g.type == type))

    def gres_count(self, name: str, type: str | None = None) -> int:
        return sum(g.count for g in self.gres if g.name == name and (type is None or g.type == type))


@frozen
class Partition:
    """One partition as ``scontrol show partition`` describes it (times in minutes, memory in MB)."""

    name: str
    nodes: tuple[str, ...] = attrs.field(converter=_names)
    default: bool = False
    state: str = "UP"  # UP, DOWN, DRAIN or INACTIVE
    max_time: int | None = None
    default_time: int | None = None
    min_nodes: int = 0
    max_nodes: int | None = None
    max_cpus_per_node: int | None = None
    def_mem_per_cpu: int | None = None
    def_mem_per_node: int | None = None
    def_mem_per_gpu: int | None = None
    max_mem_per_cpu: int | None = None
    max_mem_per_node: int | None = None
    allow_accounts: tuple[str, ...] | None = attrs.field(default=None, converter=_optional_names)  # None: ALL
    deny_accounts: tuple[str, ...] | None = attrs.field(default=None, converter=_optional_names)
    allow_groups: tuple[str, ...] | None = attrs.field(default=None, converter=_optional_names)
    allow_qos: tuple[str, ...] | None = attrs.field(default=None, converter=_optional_names)
    deny_qos: tuple[str, ...] | None = attrs.field(default=None, converter=_optional_names)
    oversubscribe: str = "NO"
    qos: str | None = None
    preempt_mode: str | None = None


@frozen
class ClusterConfig:
    """The ``scontrol show config`` facts that change verdicts; defaults are slurm.conf's own."""

    slurm_version: str  # as scontrol prints it, e.g. "22.05.8"
    cluster_name: str = ""
    enforce_part_limits: EnforcePartLimits = EnforcePartLimits.NO
    max_array_size: int = 1001
    max_job_count: int = 10000
    preempt_type: str = "preempt/none"
    preempt_mode: str = "OFF"
    def_mem_per_cpu: int | None = None
    def_mem_per_node: int | None = None
    max_mem_per_cpu: int | None = None
    max_mem_per_node: int | None = None
    select_type: str = "select/cons_tres"
    select_type_parameters: tuple[str, ...] = attrs.field(default=(), converter=_names)
    gres_types: tuple[str, ...] = attrs.field(default=(), converter=_names)


@frozen
class Profile:
    """One cluster: configuration, node shapes and partitions (and the site's policy, if any)."""

    name: str
    source: str  # the file it came from
    config: ClusterConfig
    shapes: tuple[NodeShape, ...] = attrs.field(converter=as_tuple)
    partitions: tuple[Partition, ...] = attrs.field(converter=as_tuple)
    policy: Any = None  # slurmspec.cluster.policy.Policy, or None
    # The options the site's SPANK plugins add to sbatch, as `sbatch --help` lists them under "Options
    # provided by plugins:" (`--uenv=<file>`, `--no-foo`); None: the profile does not say.
    plugin_options: tuple[str, ...] | None = attrs.field(default=None, converter=_optional_names)

    def plugin_option(self, name: str) -> bool | None:
        """Whether the site's plugins provide ``--name`` (True/False), or None when the profile does not say."""
        if self.plugin_options is None:
            return None
        return name in self._plugin_takes_value

    def plugin_takes_value(self, name: str) -> bool:
        """The site's plugin option ``--name`` takes a value (`--name=ARG` in `sbatch --help`)."""
        return self._plugin_takes_value.get(name, False)

    @cached_property
    def _plugin_takes_value(self) -> dict[str, bool]:
        return {split_plugin_option(text)[0]: split_plugin_option(text)[1] for text in self.plugin_options or ()}

    def partition(self, name: str) -> Partition | None:
        return self._partitions_by_name.get(name)

    def default_partition(self) -> Partition | None:
        """The partition a job without ``--partition`` goes to (``Default=YES``), or None."""
        return next((p for p in self.partitions if p.default), None)

    def shape_of(self, node: str) -> NodeShape | None:
        return self._shape_by_node.get(node)

    def shapes_in(self, partition: Partition) -> tuple[NodeShape, ...]:
        """The shapes of the partition's nodes, in profile order."""
        members = set(partition.nodes)
        return tuple(shape for shape in self.shapes if members.intersection(shape.nodes))

    @property
    def nodes(self) -> tuple[str, ...]:
        """Every node name of the cluster, in profile order."""
        return tuple(node for shape in self.shapes for node in shape.nodes)

    @property
    def version(self) -> "Version":
        """The release to target for this cluster: its Slurm's (major, minor), e.g. (22, 5).

        A release slurmspec does not list (newer than the newest) is targeted as
        the newest release at or below it; the store refuses one older than the oldest.
        """
        return target_release(self.config.slurm_version)

    @cached_property
    def _partitions_by_name(self) -> dict[str, Partition]:
        return {p.name: p for p in self.partitions}

    @cached_property
    def _shape_by_node(self) -> dict[str, NodeShape]:
        return {node: shape for shape in self.shapes for node in shape.nodes}

