"""Profiles as TOML files: ``load_profile`` checks every key, ``dump_profile`` writes a readable, diffable file.

Layout (``docs/cluster.md`` documents it, ``slurmspec/cluster/profile.schema.json``
is its JSON Schema)::

    name = "lab"
    [config]
    slurm-version = "22.05.8"
    enforce-part-limits = "ALL"
    [[shape]]
    nodes = "a100-[01-04]"
    cpus = 64 ...
    [[partition]]
    name = "a100"
    nodes = "a100-[01-04]"
    max-time = "2-00:00:00"
    [policy]                 # optional: slurmspec/cluster/policy.py reads it

Keys left out take slurm.conf's defaults (``EnforcePartLimits=NO``,
``MaxArraySize=1001`` …) or mean "unlimited". Memory is in MB (an integer, or a
string with a unit: ``"500G"``); times are Slurm time strings or minutes.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import attrs

from slurmspec.cluster.hostlist import HostlistError, expand_hostlist, sorted_hostnames
from slurmspec.cluster.profile import ClusterConfig, NodeShape, Partition, Profile, ProfileError
from slurmspec.cluster.release import target_release
from slurmspec.cluster.units import parse_gres, parse_megabytes, parse_minutes
from slurmspec.kinds import EnforcePartLimits

TOP_KEYS = ("name", "plugin-options", "config", "shape", "partition", "policy")
_PLUGIN_OPTION = re.compile(r"--[A-Za-z0-9][A-Za-z0-9_.-]*(=.*)?")


class _Table:
    """One TOML table being read: typed getters that fail with the file and the key's full name."""

    def __init__(self, source: str, where: str, table: Any, keys: tuple[str, ...]) -> None:
        self.source, self.where = source, where
        if not isinstance(table, dict):
            raise self.error("", "must be a table")
        self.table = table
        for key in table:
            if key not in keys:
                from slurmspec.hints import did_you_mean

                hint = did_you_mean(key.replace("_", "-"), keys, otherwise=f"; known keys: {', '.join(keys)}")
                raise ProfileError(f"{source}: unknown key `{self._name(key)}`{hint}")

    def _name(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where and key else (self.where or key)

    def error(self, key: str, message: str) -> ProfileError:
        return ProfileError(f"{self.source}: `{self._name(key)}` {message}")

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = None, *, required: bool = False) -> Any:
        if key not in self.table:
            if required:
                raise self.error(key, "is required")
            return default
        value = self.table[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
            names = names.replace("str", "a string").replace("int", "an integer").replace("bool", "true or false")
            raise self.error(key, f"must be {names.replace('list', 'a list')}, not {value!r}")
        return value

    def whole(self, key: str, default: Any = None, minimum: int = 0, *, required: bool = False) -> Any:
        value = self.get(key, int, default, required=required)
        if value is not None and value < minimum:
            raise self.error(key, f"must be at least {minimum}")
        return value

    def strings(self, key: str, default: Any = None) -> Any:
        value = self.get(key, list, default)
        if value is not None and not all(isinstance(item, str) for item in value):
            raise self.error(key, f"must be a list of strings, not {value!r}")
        return value

    def converted(self, key: str, convert: Callable[[str], Any], what: str) -> Any:
        value = self.get(key, (str, int))
        if isinstance(value, int):
            if value < 0:
                raise self.error(key, "must not be negative")
            return value
        if value is None:
            return None
        try:
            return convert(value)
        except ValueError:
            raise self.error(key, f"must be {what}, not {value!r}") from None

    def megabytes(self, key: str) -> int | None:
        return self.converted(key, parse_megabytes, 'a size in MB (an integer, or a string such as "500G")')

    def minutes(self, key: str) -> int | None:
        return self.converted(key, parse_minutes, 'minutes or a Slurm time such as "2-00:00:00" or "UNLIMITED"')

    def hostlist(self, key: str) -> tuple[str, ...]:
        text = self.get(key, str, required=True)
        try:
            return sorted_hostnames(expand_hostlist(text))
        except HostlistError as exc:
            raise self.error(key, str(exc)) from None


def load_profile(path: str | os.PathLike[str]) -> Profile:
    """Read and check a profile; raise ``ProfileError`` naming the file and key on any mistake."""
    from slurmspec.limits import read_utf8

    source = os.fspath(path)
    return loads_profile(read_utf8(source, ProfileError, "cannot read the cluster profile", "a cluster profile"), source)


def loads_profile(text: str, source: str = "<profile>") -> Profile:
    from slurmspec.toml_read import loads_toml

    try:
        document = loads_toml(text)
    except ValueError as exc:
        raise ProfileError(f"{source}: invalid TOML: {exc}") from None
    top = _Table(source, "", document, TOP_KEYS)
    name = top.get("name", str, os.path.splitext(os.path.basename(source))[0])
    config = _config(_Table(source, "config", top.get("config", dict, required=True), _CONFIG_KEYS))
    shapes = tuple(_shape(_Table(source, f"shape[{i}]", t, _SHAPE_KEYS)) for i, t in enumerate(_array(top, "shape")))
    every = tuple(node for shape in shapes for node in shape.nodes)
    seen: set[str] = set()
    for node in every:
        if node in seen:
            raise ProfileError(f"{source}: node {node} is in more than one [[shape]]")
        seen.add(node)
    partitions = tuple(
        _partition(_Table(source, f"partition[{i}]", t, _PARTITION_KEYS), every, seen)
        for i, t in enumerate(_array(top, "partition"))
    )
    names = [p.name for p in partitions]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise ProfileError(f"{source}: partition {twice} is described twice")
    plugin_options = top.strings("plugin-options")
    for text in plugin_options or ():
        if not _PLUGIN_OPTION.fullmatch(text):
            raise top.error("plugin-options", f'lists {text!r}: write each as `sbatch --help` shows it, "--name" or'
                            ' "--name=ARG"')
    profile = Profile(name=name, source=source, config=config, shapes=shapes, partitions=partitions,
                      plugin_options=plugin_options)
    if "policy" in document:
        from slurmspec.cluster.policy import check_policy, parse_policy

        policy = parse_policy(top.get("policy", dict), source)
        check_policy(policy, profile)  # a misspelt partition or GPU type would silently never apply
        profile = attrs.evolve(profile, policy=policy)
    return profile


def _array(top: _Table, key: str) -> list:
    tables = top.get(key, list, [])
    for index, table in enumerate(tables):
        if not isinstance(table, dict):
            raise top.error(f"{key}[{index}]", f"must be a table ([[{key}]])")
    return tables


_CONFIG_KEYS = (
    "slurm-version", "cluster-name", "enforce-part-limits", "max-array-size", "max-job-count",
    "preempt-type", "preempt-mode", "def-mem-per-cpu", "def-mem-per-node", "max-mem-per-cpu",
    "max-mem-per-node", "select-type", "select-type-parameters", "gres-types",
)


def _config(t: _Table) -> ClusterConfig:
    version = t.get("slurm-version", str, required=True)
    parts = version.split(".")
    if len(parts) < 2 or not all(p.isdigit() for p in parts):
        raise t.error("slurm-version", f'must be a Slurm version such as "22.05.8", not {version!r}')
    try:
        target_release(version)
    except ValueError as exc:
        raise t.error("slurm-version", f"names {exc}") from None
    enforce = t.get("enforce-part-limits", str, "NO")
    try:
        enforce_kind = EnforcePartLimits(enforce.upper())
    except ValueError:
        raise t.error("enforce-part-limits", f"must be NO, ANY or ALL, not {enforce!r}") from None
    return ClusterConfig(
        slurm_version=version,
        cluster_name=t.get("cluster-name", str, ""),
        enforce_part_limits=enforce_kind,
        max_array_size=t.whole("max-array-size", 1001),
        max_job_count=t.whole("max-job-count", 10000),
        preempt_type=t.get("preempt-type", str, "preempt/none"),
        preempt_mode=t.get("preempt-mode", str, "OFF"),
        def_mem_per_cpu=t.megabytes("def-mem-per-cpu"),
        def_mem_per_node=t.megabytes("def-mem-per-node"),
        max_mem_per_cpu=t.megabytes("max-mem-per-cpu"),
        max_mem_per_node=t.megabytes("max-mem-per-node"),
        select_type=t.get("select-type", str, "select/cons_tres"),
        select_type_parameters=t.strings("select-type-parameters", []),
        gres_types=t.strings("gres-types", []),
    )


_SHAPE_KEYS = (
    "nodes", "cpus", "boards", "sockets", "cores-per-socket", "threads-per-core", "memory", "gres", "features",
    "gpu-memory",
)


def _shape(t: _Table) -> NodeShape:
    gres = []
    for text in t.strings("gres", []):
        try:
            found = parse_gres(text)
        except ValueError as exc:
            raise t.error("gres", str(exc)) from None
        gres.extend(found)
    if "memory" not in t.table:
        raise t.error("memory", "is required (RealMemory - MemSpecLimit, in MB)")
    return NodeShape(
        nodes=t.hostlist("nodes"),
        cpus=t.whole("cpus", minimum=1, required=True),
        boards=t.whole("boards", 1, minimum=1),
        sockets=t.whole("sockets", 1, minimum=1),
        cores_per_socket=t.whole("cores-per-socket", 1, minimum=1),
        threads_per_core=t.whole("threads-per-core", 1, minimum=1),
        memory_mb=_required_size(t, "memory"),
        gres=tuple(gres),
        features=t.strings("features", []),
        gpu_memory_mb=t.megabytes("gpu-memory"),
    )


def _required_size(t: _Table, key: str) -> int:
    value = t.megabytes(key)
    if value is None:
        raise t.error(key, "must be a size, not unlimited")
    return value


_PARTITION_KEYS = (
    "name", "nodes", "default", "state", "max-time", "default-time", "min-nodes", "max-nodes",
    "max-cpus-per-node", "def-mem-per-cpu", "def-mem-per-node", "def-mem-per-gpu", "max-mem-per-cpu",
    "max-mem-per-node", "allow-accounts", "deny-accounts", "allow-groups", "allow-qos", "deny-qos",
    "oversubscribe", "qos", "preempt-mode",
)
STATES = ("UP", "DOWN", "DRAIN", "INACTIVE")


def _partition(t: _Table, every: tuple[str, ...], known: set[str]) -> Partition:
    name = t.get("name", str, required=True)
    if t.get("nodes", str, "").strip().upper() == "ALL":
        nodes = sorted_hostnames(every)
    else:
        nodes = t.hostlist("nodes") if "nodes" in t.table else ()
        stray = [node for node in nodes if node not in known]
        if stray:
            raise t.error("nodes", f"names node {stray[0]}, which no [[shape]] lists")
    state = t.get("state", str, "UP").upper()
    if state not in STATES:
        raise t.error("state", f"must be one of {', '.join(STATES)}, not {state!r}")
    lists = {key: t.strings(key) for key in ("allow-accounts", "deny-accounts", "allow-groups", "allow-qos", "deny-qos")}
    return Partition(
        name=name, nodes=nodes, default=t.get("default", bool, False), state=state,
        max_time=t.minutes("max-time"), default_time=t.minutes("default-time"),
        min_nodes=t.whole("min-nodes", 0), max_nodes=t.whole("max-nodes"),
        max_cpus_per_node=t.whole("max-cpus-per-node", minimum=1),
        def_mem_per_cpu=t.megabytes("def-mem-per-cpu"), def_mem_per_node=t.megabytes("def-mem-per-node"),
        def_mem_per_gpu=t.megabytes("def-mem-per-gpu"), max_mem_per_cpu=t.megabytes("max-mem-per-cpu"),
        max_mem_per_node=t.megabytes("max-mem-per-node"),
        allow_accounts=lists["allow-accounts"], deny_accounts=lists["deny-accounts"],
        allow_groups=lists["allow-groups"], allow_qos=lists["allow-qos"], deny_qos=lists["deny-qos"],
        oversubscribe=t.get("oversubscribe", str, "NO"), qos=t.get("qos", str), preempt_mode=t.get("preempt-mode", str),
    )


def dump_profile(profile: Profile) -> str:
    """The profile as TOML that ``load_profile`` reads back to an equal profile (its policy is not written)."""
    from slurmspec.cluster.toml_out import profile_toml

    return profile_toml(profile)
