"""Profiles as TOML text: a small writer for tables, arrays of tables, and scalar or string-list values.

``None`` values are left out (a missing key means unset or unlimited), so a
profile shows only what the cluster sets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from slurmspec.cluster.hostlist import compress_hostlist
from slurmspec.cluster.units import format_minutes

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.cluster.profile import Profile


class _Document:
    def __init__(self, comment: str) -> None:
        self._lines = [f"# {comment}", ""]

    def pair(self, key: str, value: Any) -> None:
        if value is not None:
            self._lines.append(f"{key} = {_value(value)}")

    def pairs(self, items: Iterable[tuple[str, Any]]) -> None:
        for key, value in items:
            self.pair(key, value)

    def table(self, name: str) -> None:
        self._lines.extend(("", f"[{name}]"))

    def array_table(self, name: str) -> None:
        self._lines.extend(("", f"[[{name}]]"))

    def text(self) -> str:
        return "\n".join(self._lines) + "\n"


def document(comment: str) -> _Document:
    return _Document(comment)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _string(text: str) -> str:
    """A TOML basic string: quote, backslash and control characters escaped."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 32 or ord(char) == 127:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def profile_toml(profile: "Profile") -> str:
    """``slurmspec.cluster.store.dump_profile``: the profile's TOML, keys in a fixed order, unset ones left out."""
    config = profile.config
    out = document(f"Cluster profile {profile.name!r} for slurmspec (`slurmspec lint --cluster FILE`); see docs/cluster.md.")
    out.pair("name", profile.name)
    out.pair("plugin-options", profile.plugin_options)
    out.table("config")
    out.pairs((
        ("slurm-version", config.slurm_version), ("cluster-name", config.cluster_name),
        ("enforce-part-limits", config.enforce_part_limits.value), ("max-array-size", config.max_array_size),
        ("max-job-count", config.max_job_count), ("preempt-type", config.preempt_type),
        ("preempt-mode", config.preempt_mode), ("def-mem-per-cpu", config.def_mem_per_cpu),
        ("def-mem-per-node", config.def_mem_per_node), ("max-mem-per-cpu", config.max_mem_per_cpu),
        ("max-mem-per-node", config.max_mem_per_node), ("select-type", config.select_type),
        ("select-type-parameters", config.select_type_parameters), ("gres-types", config.gres_types),
    ))
    for shape in profile.shapes:
        out.array_table("shape")
        out.pairs((
            ("nodes", compress_hostlist(shape.nodes)), ("cpus", shape.cpus), ("boards", shape.boards),
            ("sockets", shape.sockets), ("cores-per-socket", shape.cores_per_socket),
            ("threads-per-core", shape.threads_per_core), ("memory", shape.memory_mb),
            ("gres", tuple(str(g) for g in shape.gres)), ("features", shape.features),
            ("gpu-memory", shape.gpu_memory_mb),
        ))
    for part in profile.partitions:
        out.array_table("partition")
        out.pairs((
            ("name", part.name), ("nodes", compress_hostlist(part.nodes)), ("default", part.default),
            ("state", part.state), ("max-time", format_minutes(part.max_time)),
            ("default-time", None if part.default_time is None else format_minutes(part.default_time)),
            ("min-nodes", part.min_nodes), ("max-nodes", part.max_nodes),
            ("max-cpus-per-node", part.max_cpus_per_node), ("def-mem-per-cpu", part.def_mem_per_cpu),
            ("def-mem-per-node", part.def_mem_per_node), ("def-mem-per-gpu", part.def_mem_per_gpu),
            ("max-mem-per-cpu", part.max_mem_per_cpu), ("max-mem-per-node", part.max_mem_per_node),
            ("allow-accounts", part.allow_accounts), ("deny-accounts", part.deny_accounts),
            ("allow-groups", part.allow_groups), ("allow-qos", part.allow_qos), ("deny-qos", part.deny_qos),
            ("oversubscribe", part.oversubscribe), ("qos", part.qos), ("preempt-mode", part.preempt_mode),
        ))
    return out.text()
