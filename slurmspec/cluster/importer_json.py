"""``scontrol --json show node|partition`` (Slurm's data_parser output, 23.02 and later) as node facts and partitions.

Field names are data_parser's (v0.0.39 … v0.0.42): a node's ``effective_cpus``
(CPUs minus specialized ones, absent before 23.02: then ``cpus``),
``real_memory`` and ``specialized_memory`` (MemSpecLimit), ``gres`` as the
text form; a partition's ``maximums.time`` etc. as ``{"set", "infinite",
"number"}`` objects (minutes, MB). ``scontrol --json show config`` prints the
text form (24.11), so configuration is always read as text.

Every field read is checked for its JSON type before it is used (``text``,
``number``): a saved file may be hand-edited or another tool's, and a list
where data_parser prints a string is a ``ProfileError`` naming the field,
never a traceback.
"""

from __future__ import annotations

import json
import math
from typing import Any

from slurmspec.cluster.profile import Partition, ProfileError
from slurmspec.cluster.units import names_list, parse_gres


def load_json(text: str, source: str, key: str) -> tuple[list[dict], dict]:
    """The records under ``key`` ("nodes", "partitions") and the ``meta`` table; errors name the file."""
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise ProfileError(f"{source}: invalid JSON: {exc}") from None
    except RecursionError:  # json parses nested arrays and objects by recursion
        raise ProfileError(f"{source}: invalid JSON: nested too deeply") from None
    if not isinstance(document, dict) or not isinstance(document.get(key), list):
        other = next((k for k in ("nodes", "partitions") if isinstance(document, dict) and k in document), None)
        hint = f" (it has `{other}`: is it the other file?)" if other else ""
        raise ProfileError(f"{source}: JSON without a `{key}` list: is this `scontrol --json show {key[:-1]}` output?{hint}")
    errors = document.get("errors") or []
    if not isinstance(errors, list):
        raise ProfileError(f"{source}: `errors` is not a list: {_brief(errors)}")
    if errors:
        first = errors[0] if isinstance(errors[0], dict) else {"description": str(errors[0])}
        raise ProfileError(f"{source}: scontrol reported an error: {first.get('description') or first}")
    records = document[key]
    for index, record in enumerate(records):
        if not isinstance(record, dict) or not isinstance(record.get("name"), str):
            raise ProfileError(f"{source}: `{key}[{index}]` is not a {key[:-1]} record with a name")
    meta = document.get("meta") if isinstance(document.get("meta"), dict) else {}
    return records, meta


def json_release(meta: dict) -> tuple[str | None, str | None]:
    """The Slurm release (``meta.slurm.release``, e.g. "24.11.5") and cluster name the JSON came from, if it says."""
    slurm = meta.get("slurm") if isinstance(meta.get("slurm"), dict) else {}
    cluster = slurm.get("cluster") if isinstance(slurm.get("cluster"), str) else None
    release = slurm.get("release")
    if isinstance(release, str) and release:
        return release, cluster
    version = slurm.get("version")
    if isinstance(version, dict) and {"major", "minor"} <= set(version):
        return ".".join(str(version[k]) for k in ("major", "minor", "micro") if k in version), cluster
    return None, cluster


def number(value: Any, where: str) -> int | None:
    """An integer, or data_parser's ``{"set": …, "infinite": …, "number": …}``: None when unset or infinite."""
    if isinstance(value, dict):
        if value.get("infinite") or not value.get("set", True):
            return None
        value = value.get("number")
    # JSON numbers only (not true/false), and finite: Python's json reads NaN and Infinity too.
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"`{where}` is not a number: {_brief(value)}")
    return int(value)


def text(value: Any, where: str) -> str:
    """A field data_parser prints as a string; absent or null is empty."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(f"`{where}` is not a string: {_brief(value)}")
    return value


def _brief(value: Any, limit: int = 40) -> str:
    """What ``value`` is: a list or object by its kind (it may hold a whole document, nested
    deeper than printing it could go), anything else as JSON, cut short."""
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "an object"
    shown = json.dumps(value, ensure_ascii=False)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _path(record: dict, dotted: str) -> Any:
    value: Any = record
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def node_facts(record: dict, source: str) -> dict[str, Any]:
    """One node's shape fields (as ``NodeShape`` takes them, without ``nodes``) and its name."""
    name = record["name"]
    where = f"{source}: node {name}"
    try:
        cpus = number(record.get("effective_cpus") or record.get("cpus"), "cpus")
        memory = number(record.get("real_memory"), "real_memory")
        spec = number(record.get("specialized_memory") or 0, "specialized_memory") or 0
        fields = {
            "name": name, "cpus": cpus, "boards": number(record.get("boards", 1), "boards"),
            "sockets": number(record.get("sockets", 1), "sockets"),
            "cores_per_socket": number(record.get("cores", 1), "cores"),
            "threads_per_core": number(record.get("threads", 1), "threads"),
            "memory_mb": None if memory is None else memory - spec,
            "gres": parse_gres(text(record.get("gres"), "gres")),
            "features": _names(record.get("features")),
        }
    except ValueError as exc:
        raise ProfileError(f"{where}: {exc}") from None
    missing = [key for key in ("cpus", "memory_mb") if fields[key] is None]
    if missing:
        raise ProfileError(f"{where}: no {'cpus' if 'cpus' in missing else 'real_memory'}")
    return fields


def _names(value: Any) -> tuple[str, ...]:
    if isinstance(value, list):
        return tuple(str(item) for item in value if str(item))
    if isinstance(value, str):
        return names_list(value) or ()
    return ()


def partition(record: dict, source: str) -> tuple[Partition, str]:
    """One partition, and its node list as a host list (expanded by the caller)."""
    name = record["name"]
    where = f"{source}: partition {name}"

    def value(dotted: str) -> int | None:
        found = _path(record, dotted)
        if found is None:
            return None
        result = number(found, dotted)
        return result or None if dotted.startswith(("defaults.partition_memory", "maximums.partition_memory")) else result

    try:
        job = text(_path(record, "defaults.job"), "defaults.job")
        job_defaults = dict(item.split("=", 1) for item in job.split(",") if "=" in item)
        def_mem_per_gpu = job_defaults.get("DefMemPerGPU")
        state = _path(record, "partition.state") or ["UP"]
        state = text(state[0] if isinstance(state, list) else state, "partition.state")
        made = Partition(
            name=name, nodes=(), default=_is_default(record), state=state.upper(),
            max_time=value("maximums.time"), default_time=value("defaults.time"),
            min_nodes=value("minimums.nodes") or 0, max_nodes=value("maximums.nodes"),
            max_cpus_per_node=value("maximums.cpus_per_node"),
            def_mem_per_cpu=value("defaults.partition_memory_per_cpu"),
            def_mem_per_node=value("defaults.partition_memory_per_node"),
            def_mem_per_gpu=int(def_mem_per_gpu) if def_mem_per_gpu else None,
            max_mem_per_cpu=value("maximums.partition_memory_per_cpu"),
            max_mem_per_node=value("maximums.partition_memory_per_node"),
            allow_accounts=_restriction(_path(record, "accounts.allowed")),
            deny_accounts=_restriction(_path(record, "accounts.deny")),
            allow_groups=_restriction(_path(record, "groups.allowed")),
            allow_qos=_restriction(_path(record, "qos.allowed")),
            deny_qos=_restriction(_path(record, "qos.deny")),
            oversubscribe=_oversubscribe(_path(record, "maximums.oversubscribe")),
            qos=text(_path(record, "qos.assigned"), "qos.assigned") or None,
        )
        nodes = text(_path(record, "nodes.configured"), "nodes.configured")
    except ValueError as exc:
        raise ProfileError(f"{where}: {exc}") from None
    return made, nodes


def _restriction(value: Any) -> tuple[str, ...] | None:
    return names_list(value) if isinstance(value, str) else None


def _is_default(record: dict) -> bool:
    """data_parser lists ``DEFAULT`` among a partition's flags where it prints them (not in 24.11's v0.0.42)."""
    for flags in (record.get("flags"), _path(record, "partition.type"), _path(record, "partition.flags")):
        if isinstance(flags, list) and any(str(flag).upper() == "DEFAULT" for flag in flags):
            return True
    return False


def has_default_flags(record: dict) -> bool:
    return any(isinstance(f, list) for f in (record.get("flags"), _path(record, "partition.flags")))


def _oversubscribe(value: Any) -> str:
    """``{"jobs": 4, "flags": ["force"]}`` -> "FORCE:4", as ``scontrol show partition`` spells it."""
    if not isinstance(value, dict):
        return "NO"
    flags = value.get("flags") or []
    flags = {str(flag).upper() for flag in (flags if isinstance(flags, list) else [flags])}
    jobs = value.get("jobs", 1)
    if "EXCLUSIVE" in flags:
        return "EXCLUSIVE"
    if "FORCE" in flags:
        return f"FORCE:{jobs}"
    if isinstance(jobs, int) and jobs > 1:
        return f"YES:{jobs}"
    return "NO"
