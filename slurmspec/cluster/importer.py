"""Build a profile from ``scontrol show node``, ``show partition`` and ``show config`` output (text or ``--json``).

``import_profile`` takes the three texts (saved files, or what `run_scontrol`
printed), tells JSON from text by its first character, and groups nodes of
identical shape. Every problem is a ``ProfileError`` naming the file and line.
What the output cannot say (24.11's JSON has no ``Default=YES``; nodes a
partition lists that ``show node`` hid) comes back as notes for the user.
"""

from __future__ import annotations

import shutil
import subprocess
from typing import Any

import attrs

from slurmspec.cluster import importer_json as js
from slurmspec.cluster.hostlist import HostlistError, expand_hostlist, sorted_hostnames
from slurmspec.cluster.importer_text import Record, config_values, looks_like, records
from slurmspec.cluster.profile import ClusterConfig, NodeShape, Partition, Profile, ProfileError
from slurmspec.cluster.units import is_unset, names_list, parse_gres, parse_megabytes, parse_minutes
from slurmspec.kinds import EnforcePartLimits

NO_DEFAULT_NOTE = ("no partition is marked Default=YES: jobs without --partition are refused, unless the output"
                   " lost the flag (24.11's JSON does not print it; mark one `default = true`)")

# What each file holds, and the scontrol command that prints it (-a: hidden partitions too).
COMMANDS = {
    "nodes": ("--all", "--oneliner", "show", "node"),
    "partitions": ("--all", "--oneliner", "show", "partition"),
    "config": ("show", "config"),
}


def run_scontrol(what: str, scontrol: str | None = None) -> str:
    """The output of the ``scontrol`` command for ``what`` ("nodes", "partitions", "config")."""
    program = scontrol or shutil.which("scontrol")
    if program is None:
        raise ProfileError("scontrol is not on PATH: run this on a cluster's login node, or give "
                           "--nodes, --partitions and --config files saved there")
    argv = [program, *COMMANDS[what]]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
                              errors="replace")
    except (OSError, subprocess.SubprocessError) as exc:
        raise ProfileError(f"`{' '.join(argv)}` could not run: {exc}") from None
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise ProfileError(f"`{' '.join(argv)}` failed: {reason}")
    return done.stdout


def import_profile(
    nodes: tuple[str, str], partitions: tuple[str, str], config: tuple[str, str] | None, name: str | None = None,
    sbatch_help: str | None = None,
) -> tuple[Profile, list[str]]:
    """A profile from (text, source name) pairs; ``config`` may be None when the JSON says the release;
    ``sbatch_help``, the site's ``sbatch --help``, gives the plugins' options (None: not known)."""
    notes: list[str] = []
    facts, (release, cluster_name) = _nodes(*nodes)
    if config is not None:
        cluster_config = _config(*config)
    elif release is not None:
        cluster_config = ClusterConfig(slurm_version=release, cluster_name=cluster_name or "")
        notes.append(f"no --config: Slurm {release} (from the JSON), and slurm.conf's defaults for the rest"
                     " (EnforcePartLimits=NO, MaxArraySize=1001 …)")
    else:
        raise ProfileError("the Slurm version is unknown: give --config (saved `scontrol show config`)")
    shapes = _shapes(facts)
    known = {node for shape in shapes for node in shape.nodes}
    parts = _partitions(*partitions, known, notes)
    if not parts:
        raise ProfileError(f"{partitions[1]}: no partitions")
    if not any(p.default for p in parts):
        notes.append(NO_DEFAULT_NOTE)
    profile_name = name or cluster_config.cluster_name or "cluster"
    plugin_options = None
    if sbatch_help is not None:
        from slurmspec.cluster.importer_help import plugin_options_in_help

        plugin_options = plugin_options_in_help(sbatch_help)
    profile = Profile(name=profile_name, source="<import>", config=cluster_config, shapes=shapes, partitions=parts,
                      plugin_options=plugin_options)
    return profile, notes


def is_json(text: str) -> bool:
    """``scontrol --json`` output rather than text: which reader takes it."""
    return text.lstrip()[:1] in ("{", "[")


def _nodes(text: str, source: str) -> tuple[list[dict[str, Any]], tuple[str | None, str | None]]:
    """Each node's facts, and the (release, cluster name) the JSON form says it came from."""
    if is_json(text):
        found, meta = js.load_json(text, source, "nodes")
        facts, release = [js.node_facts(record, source) for record in found], js.json_release(meta)
    else:
        text_records = records(text, "NodeName", source)
        if not text_records:
            raise ProfileError(f"{source}: no `NodeName=` records: is this `scontrol show node` output?"
                               f"{looks_like(text)}")
        facts, release = [_node_facts(record) for record in text_records], (None, None)
    for fact in facts:
        _check_node_name(fact["name"], source)
    return facts, release


def _check_node_name(name: str, source: str) -> None:
    # The profile keeps nodes as host lists (`a100-[01-04]`): a name with a bracket, comma or blank
    # would be read back apart, and Slurm never prints one (NodeName is itself a host list).
    if not name or not name.isprintable() or any(ch in name for ch in "[], "):
        raise ProfileError(f"{source}: node `{name}`: not a node name (brackets, commas, blanks and control"
                           " characters cannot be in one)")


def _whole(record: Record, key: str, what: str, default: int | None = None) -> int:
    text = record.get(key)
    if text is None and default is not None:
        return default
    text = record.need(key, what)
    if not text.isdigit():
        raise record.error(key, f"{what}: `{key}={text}` is not a whole number")
    return int(text)


def _node_facts(record: Record) -> dict[str, Any]:
    name = record.fields["NodeName"]
    what = f"node {name}"
    cpu_key = "CPUEfctv" if "CPUEfctv" in record.fields else "CPUTot"  # CPUEfctv: without specialized CPUs
    memory = _whole(record, "RealMemory", what) - _whole(record, "MemSpecLimit", what, default=0)
    try:
        gres = parse_gres(record.get("Gres", ""))
    except ValueError as exc:
        raise record.error("Gres", f"{what}: {exc}") from None
    features = record.get("AvailableFeatures", record.get("Features", ""))
    return {
        "name": name, "cpus": _whole(record, cpu_key, what), "boards": _whole(record, "Boards", what, 1),
        "sockets": _whole(record, "Sockets", what, 1), "cores_per_socket": _whole(record, "CoresPerSocket", what, 1),
        "threads_per_core": _whole(record, "ThreadsPerCore", what, 1), "memory_mb": memory, "gres": gres,
        "features": names_list(features) or (),
    }


def _shapes(facts: list[dict[str, Any]]) -> tuple[NodeShape, ...]:
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for fact in facts:
        key = tuple((k, frozenset(v) if k == "features" else v) for k, v in fact.items() if k != "name")
        groups.setdefault(key, []).append(fact)
    shapes = []
    for members in groups.values():
        first = {k: v for k, v in members[0].items() if k != "name"}
        shapes.append(NodeShape(nodes=sorted_hostnames(m["name"] for m in members), **first))
    return tuple(sorted(shapes, key=lambda shape: shape.nodes[0]))


def _partitions(text: str, source: str, known: set[str], notes: list[str]) -> tuple[Partition, ...]:
    if is_json(text):
        found, _ = js.load_json(text, source, "partitions")
        pairs = [(*js.partition(record, source), f"{source}: partition {record['name']}") for record in found]
    else:
        text_records = records(text, "PartitionName", source)
        if not text_records and text.strip():
            raise ProfileError(f"{source}: no `PartitionName=` records: is this `scontrol show partition` output?"
                               f"{looks_like(text)}")
        pairs = [(*_partition(record), f"{source}:{record.lines.get('Nodes', record.line)}") for record in text_records]
    result = []
    for made, hostlist, where in pairs:
        try:
            listed = () if is_unset(hostlist) else expand_hostlist(hostlist)
        except HostlistError as exc:
            raise ProfileError(f"{where}: partition {made.name}: {exc}") from None
        hidden = [node for node in listed if node not in known]
        if hidden:
            notes.append(f"partition {made.name} lists {len(hidden)} node(s) that the node output does not show"
                         f" ({', '.join(hidden[:3])}{' …' if len(hidden) > 3 else ''}); left out")
        nodes = sorted_hostnames(node for node in listed if node in known)
        result.append(attrs.evolve(made, nodes=nodes))
    return tuple(result)


def _partition(record: Record) -> tuple[Partition, str]:
    name = record.fields["PartitionName"]
    what = f"partition {name}"

    def convert(key: str, parse, default=None):
        text = record.get(key)
        if text is None:
            return default
        try:
            return parse(text)
        except ValueError as exc:
            raise record.error(key, f"{what}: `{key}`: {exc}") from None

    def count(text: str) -> int | None:
        if is_unset(text):
            return None
        if not text.isdigit():
            raise ValueError(f"not a whole number: {text!r}")
        return int(text)

    def memory(text: str) -> int | None:
        found = parse_megabytes(text)
        return found or None  # 0 is printed as UNLIMITED; either way no limit

    job_defaults = dict(item.split("=", 1) for item in record.get("JobDefaults", "").split(",") if "=" in item)
    made = Partition(
        name=name, nodes=(), default=record.get("Default", "NO").upper() == "YES",
        state=record.get("State", "UP").upper(),
        max_time=convert("MaxTime", parse_minutes), default_time=convert("DefaultTime", parse_minutes),
        min_nodes=convert("MinNodes", count) or 0, max_nodes=convert("MaxNodes", count),
        max_cpus_per_node=convert("MaxCPUsPerNode", count),
        def_mem_per_cpu=convert("DefMemPerCPU", memory), def_mem_per_node=convert("DefMemPerNode", memory),
        def_mem_per_gpu=memory(job_defaults["DefMemPerGPU"]) if "DefMemPerGPU" in job_defaults else None,
        max_mem_per_cpu=convert("MaxMemPerCPU", memory), max_mem_per_node=convert("MaxMemPerNode", memory),
        allow_accounts=names_list(record.get("AllowAccounts", "ALL")),
        deny_accounts=names_list(record.get("DenyAccounts", "")),
        allow_groups=names_list(record.get("AllowGroups", "ALL")),
        allow_qos=names_list(record.get("AllowQos", "ALL")), deny_qos=names_list(record.get("DenyQos", "")),
        oversubscribe=record.get("OverSubscribe", "NO"),
        qos=None if is_unset(record.get("QoS", "N/A")) else record.get("QoS"),
        preempt_mode=None if is_unset(record.get("PreemptMode", "")) else record.get("PreemptMode"),
    )
    return made, record.get("Nodes", "")


def _config(text: str, source: str) -> ClusterConfig:
    if is_json(text):
        raise ProfileError(f"{source}: JSON, but `scontrol show config` has no JSON form: save its text output")
    values, lines = config_values(text, source)

    def fail(key: str, message: str) -> ProfileError:
        return ProfileError(f"{source}:{lines[key]}: `{key} = {values[key]}`: {message}")

    def whole(key: str, default: int) -> int:
        if key not in values or is_unset(values[key]):
            return default
        if not values[key].isdigit():
            raise fail(key, "not a whole number")
        return int(values[key])

    def memory(key: str) -> int | None:
        if key not in values:
            return None
        try:
            return parse_megabytes(values[key]) or None
        except ValueError as exc:
            raise fail(key, str(exc)) from None

    version = values["SLURM_VERSION"]
    parts = version.split(".")
    if len(parts) < 2 or not all(part.isdigit() for part in parts):
        raise fail("SLURM_VERSION", "not a Slurm version")
    enforce = values.get("EnforcePartLimits", "NO").upper()
    enforce = {"YES": "ANY"}.get(enforce, enforce)  # before 17.02 YES meant what ANY means now
    if enforce not in EnforcePartLimits.__members__:
        raise fail("EnforcePartLimits", "expected NO, ANY or ALL")

    def plain(key: str, default: str) -> str:
        value = values.get(key, "")
        return default if is_unset(value) else value

    return ClusterConfig(
        slurm_version=version, cluster_name=plain("ClusterName", ""),
        enforce_part_limits=EnforcePartLimits(enforce),
        max_array_size=whole("MaxArraySize", 1001), max_job_count=whole("MaxJobCount", 10000),
        preempt_type=plain("PreemptType", "preempt/none"), preempt_mode=plain("PreemptMode", "OFF"),
        def_mem_per_cpu=memory("DefMemPerCPU"), def_mem_per_node=memory("DefMemPerNode"),
        max_mem_per_cpu=memory("MaxMemPerCPU"), max_mem_per_node=memory("MaxMemPerNode"),
        select_type=plain("SelectType", "select/cons_tres"),
        select_type_parameters=names_list(values.get("SelectTypeParameters", "")) or (),
        gres_types=names_list(values.get("GresTypes", "")) or (),
    )
