"""What a re-import keeps from the profile it replaces: what the site added that scontrol never prints.

``slurmspec cluster import -o hpc.toml`` over an existing ``hpc.toml`` (a
nightly cron job, say) keeps

- its ``[policy]`` table, as written (comments too), after the imported keys;
- ``gpu-memory`` of its ``[[shape]]``s: scontrol does not show a GPU's memory,
  so a site adds it by hand. A new shape takes it when every old shape its nodes
  were in agrees on it; a shape of nodes never seen before gets none (an A100
  may have 40 or 80 GB: slurmspec does not guess);
- ``default = true`` on a partition, when the import's output cannot say which
  partition is the default (24.11's JSON does not print ``Default=YES``).

Each is reported in a note. A ``[policy]`` that cannot be read is an error
naming the file and key: writing the profile without it would drop it silently.
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from slurmspec.cluster.hostlist import HostlistError, compress_hostlist, expand_hostlist
from slurmspec.cluster.profile import Profile, ProfileError
from slurmspec.cluster.toml_out import _string, _value
from slurmspec.cluster.units import parse_megabytes
from slurmspec.frozen import frozen

_HEADER = re.compile(r"^\s*\[\[?\s*(?P<key>[^\]]*?)\s*\]\]?\s*(#.*)?$")
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


@frozen
class Kept:
    profile: Profile  # the imported profile, with the GPUs' memory and the default partition carried over
    policy_text: str | None  # the existing [policy], as TOML to append to the written profile
    notes: tuple[str, ...]


def keep_site_additions(profile: Profile, existing: str, source: str, knows_default: bool) -> Kept:
    """Carry what ``existing`` (the text of the profile at ``source``) adds to what scontrol printed.

    ``knows_default``: the partition output says which partition is the default (text form, or
    JSON that lists the flag). Raises ``ProfileError`` when ``existing`` is not TOML or its
    ``[policy]`` cannot be read.
    """
    from slurmspec.toml_read import loads_toml

    try:
        document = loads_toml(existing)
    except ValueError as exc:
        raise ProfileError(f"{source}: cannot keep what the site added to the existing profile: invalid TOML:"
                           f" {exc}; nothing written (fix it, or delete it to import afresh)") from None
    notes: list[str] = []
    policy_text = None
    if "policy" in document:
        policy_text = _policy_text(document, existing, source, notes)
    shapes = _carry_gpu_memory(profile, document.get("shape"), source, notes)
    partitions = profile.partitions
    if not knows_default and not any(p.default for p in partitions):
        partitions = _carry_default(partitions, document.get("partition"), source, notes)
    plugin_options = profile.plugin_options
    old_options = document.get("plugin-options")
    if plugin_options is None and isinstance(old_options, list) and all(isinstance(o, str) for o in old_options):
        # no `sbatch --help` this time: the site's plugins are what the existing profile says
        plugin_options = tuple(old_options)
        notes.append(f"kept the plugin-options of the existing {source} (no --sbatch-help given)")
    return Kept(attrs.evolve(profile, shapes=shapes, partitions=partitions, plugin_options=plugin_options),
                policy_text, tuple(notes))


# -- [policy] ----------------------------------------------------------------------------------------


def _policy_text(document: dict, existing: str, source: str, notes: list[str]) -> str:
    from slurmspec.cluster.policy import parse_policy
    from slurmspec.toml_read import loads_toml

    policy = document["policy"]
    parse_policy(policy, source)  # raises: a policy that cannot be read must not vanish on re-import
    verbatim = _policy_lines(existing)
    try:
        same = verbatim is not None and loads_toml(verbatim).get("policy") == policy
    except ValueError:
        same = False
    if same:
        notes.append(f"kept the [policy] of the existing {source}, as written")
        return verbatim
    notes.append(f"kept the [policy] of the existing {source} (rewritten as tables: its comments are not kept)")
    return "\n".join(policy_tables(policy, "policy")) + "\n"


def _policy_lines(text: str) -> str | None:
    """The ``[policy...]`` tables of ``text`` as written, each with the comment block right above it."""
    sections: list[list[str]] = [[]]
    for line in text.splitlines():
        if _HEADER.match(line):
            lead: list[str] = []
            while sections[-1] and (not sections[-1][-1].strip() or sections[-1][-1].lstrip().startswith("#")):
                lead.insert(0, sections[-1].pop())
            sections.append([*lead, line])
        else:
            sections[-1].append(line)
    kept = [s for s in sections[1:] if _first_key(next(line for line in s if _HEADER.match(line))) == "policy"]
    if not kept:
        return None
    return "\n".join(line for section in kept for line in section).strip("\n") + "\n"


def _first_key(header: str) -> str:
    """The first part of a table header's dotted key: ``policy`` for ``[policy.gpu."*"]`` and ``["policy"]``."""
    key = _HEADER.match(header)["key"]
    if key[:1] in "\"'":
        end = key.find(key[0], 1)
        return key[1:end] if end > 0 else key
    return key.split(".", 1)[0].strip()


def policy_tables(table: dict, path: str) -> list[str]:
    """A valid ``[policy]`` as TOML tables; ``{ min = ..., max = ... }`` bounds stay inline."""
    inline = {k: v for k, v in table.items() if not isinstance(v, dict) or _is_bound(v)}
    nested = {k: v for k, v in table.items() if k not in inline}
    lines: list[str] = []
    if inline or not nested:
        lines.extend([f"[{path}]", *(f"{_key(k)} = {_inline(v)}" for k, v in inline.items()), ""])
    for key, value in nested.items():
        lines.extend(policy_tables(value, f"{path}.{_key(key)}"))
    return lines


def _is_bound(value: dict) -> bool:
    return bool(value) and set(value) <= {"min", "max"} and not any(isinstance(v, dict) for v in value.values())


def _inline(value: Any) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    return _value(value)


def _key(name: str) -> str:
    return name if _BARE_KEY.match(name) else _string(name)


# -- gpu-memory and default = true ---------------------------------------------------------------------


def _carry_gpu_memory(profile: Profile, old_shapes: Any, source: str, notes: list[str]):
    """The new shapes, with the ``gpu-memory`` of the old shapes their nodes were in."""
    memory_of: dict[str, int] = {}  # node -> the GPU memory its old shape recorded
    for index, table in enumerate(old_shapes if isinstance(old_shapes, list) else []):
        if not isinstance(table, dict) or "gpu-memory" not in table:
            continue
        try:
            nodes = expand_hostlist(table["nodes"])
            value = table["gpu-memory"]
            megabytes = value if isinstance(value, int) and value > 0 else parse_megabytes(str(value))
        except (HostlistError, ValueError, KeyError, TypeError, AttributeError):
            notes.append(f"`shape[{index}].gpu-memory` of the existing {source} is not kept: it cannot be read")
            continue
        memory_of.update((node, megabytes) for node in nodes if megabytes)
    if not memory_of:
        return profile.shapes
    shapes, used = [], set()
    for shape in profile.shapes:
        recorded = {memory_of[node] for node in shape.nodes if node in memory_of}
        used.update(node for node in shape.nodes if node in memory_of)
        if len(recorded) == 1 and shape.gpus():
            shape = attrs.evolve(shape, gpu_memory_mb=recorded.pop())
            notes.append(f"kept `gpu-memory = {shape.gpu_memory_mb}` (MB) for {compress_hostlist(shape.nodes)}")
        elif recorded:
            why = "they have no GPUs now" if not shape.gpus() else \
                f"their old shapes said {' and '.join(f'{m} MB' for m in sorted(recorded))}"
            notes.append(f"`gpu-memory` of {compress_hostlist(shape.nodes)} is not kept: {why}")
        shapes.append(shape)
    gone = sorted(set(memory_of) - used)
    if gone:
        notes.append(f"`gpu-memory` of {compress_hostlist(gone)} is not kept: those nodes are not in the import")
    return tuple(shapes)


def _carry_default(partitions, old_partitions: Any, source: str, notes: list[str]):
    marked = {t.get("name") for t in (old_partitions if isinstance(old_partitions, list) else [])
              if isinstance(t, dict) and t.get("default") is True}
    carried = tuple(attrs.evolve(p, default=True) if p.name in marked else p for p in partitions)
    for part in carried:
        if part.default:
            notes.append(f"kept `default = true` on partition {part.name} from the existing {source}: the partition"
                         " output does not say which partition is the default")
    return carried
