"""``scontrol show node|partition`` (one line per record with ``-o``, or indented blocks) and ``show config`` text.

A record is ``Key=value`` pairs separated by spaces, but some values are free
text with spaces and ``=`` in them (``OS=Linux 6.1.0 #1 SMP …``,
``Reason=down for now [root@2026-01-01T00:00:00]``). So a record splits at a
space before ``Word=``, except inside a free-text value, which only a key
scontrol is known to print ends (src/scontrol/info_node.c, slurm_print_node_info_msg
in src/api/node_info.c of 22.05 and 24.11). Unknown keys (a newer release's)
are kept and ignored.

Output cut short (a full disk, a copy that stopped, a terminal's scrollback)
must not import: a last line ending at ``RealMemory=10`` would make a 10 MB
node. scontrol ends every line it prints with a line break, and prints some
keys for every record, in the same order; a text that ends mid-line, or whose
last record stops before keys that scontrol always prints and every other
record has, is refused.
"""

from __future__ import annotations

import bisect
import re
from typing import Iterator

from slurmspec.cluster.profile import ProfileError

NODE_KEYS = frozenset("""
NodeName Arch CoresPerSocket CPUAlloc CPUEfctv CPUTot CPULoad AvailableFeatures ActiveFeatures Features Gres
GresDrain GresUsed NodeAddr NodeHostName Port Version OS RealMemory AllocMem FreeMem Sockets Boards CoreSpecCount
CPUSpecList MemSpecLimit State ThreadsPerCore TmpDisk Weight Owner MCS_label Partitions BootTime SlurmdStartTime
LastBusyTime ResumeAfterTime CfgTRES AllocTRES CapWatts CurrentWatts AveWatts ExtSensorsJoules ExtSensorsWatts
ExtSensorsTemp Reason Comment Extra InstanceId InstanceType NextState Reservation RestrictedCoresPerGPU
LowestJoules ConsumedJoules Power CpuBind Topology
""".split())
# Values that may hold spaces and "Word=": they end only at a key from NODE_KEYS.
FREE_TEXT = frozenset({"OS", "Reason", "Comment", "Extra", "InstanceId", "InstanceType", "Topology"})

# Keys scontrol prints for every record, whatever its state (22.05 to 24.11: slurm_sprint_node_table()
# in src/api/node_info.c, slurm_sprint_partition_info() in src/api/partition_info.c); the keys printed
# only when set (Reason, OS, MemSpecLimit, DefMemPerCPU or DefMemPerNode...) are not among them.
ALWAYS_PRINTED = {
    "NodeName": frozenset("""
        CoresPerSocket CPUAlloc CPUTot CPULoad AvailableFeatures ActiveFeatures Gres NodeAddr NodeHostName
        RealMemory AllocMem FreeMem Sockets Boards State ThreadsPerCore TmpDisk Weight Owner MCS_label BootTime
        SlurmdStartTime LastBusyTime CfgTRES AllocTRES CurrentWatts AveWatts
    """.split()),
    "PartitionName": frozenset("""
        AllowGroups AllowAccounts AllowQos AllocNodes Default QoS DefaultTime DisableRootJobs ExclusiveUser
        GraceTime Hidden MaxNodes MaxTime MinNodes LLN MaxCPUsPerNode Nodes PriorityJobFactor PriorityTier
        RootOnly ReqResv OverSubscribe OverTimeLimit PreemptMode State TotalCPUs TotalNodes
        SelectTypeParameters JobDefaults
    """.split()),
}
_COMMAND = {"NodeName": "show node", "PartitionName": "show partition"}

_KEY = re.compile(r"(?:^|(?<=\s))([A-Za-z_][A-Za-z0-9_]*)=")
_CONFIG_LINE = re.compile(r"^([A-Za-z_][A-Za-z0-9_/()]*)\s*=\s?(.*)$")


class Record:
    """One ``NodeName=…``/``PartitionName=…`` record: its values by key, and the line each key is on."""

    def __init__(self, source: str, fields: dict[str, str], lines: dict[str, int]) -> None:
        self.source = source
        self.fields = fields
        self.lines = lines

    @property
    def line(self) -> int:
        return min(self.lines.values())

    def error(self, key: str | None, message: str) -> ProfileError:
        line = self.lines.get(key, self.line) if key else self.line
        return ProfileError(f"{self.source}:{line}: {message}")

    def get(self, key: str, default: str | None = None) -> str | None:
        return self.fields.get(key, default)

    def need(self, key: str, what: str) -> str:
        if key not in self.fields:
            raise self.error(None, f"{what}: no `{key}=`; is this complete `scontrol show` output?")
        return self.fields[key]


def records(text: str, first_key: str, source: str) -> list[Record]:
    """Every record of ``scontrol show node|partition`` output, one-line (``-o``) or multi-line;
    ``ProfileError`` when the output was cut short."""
    found = []
    for block in _blocks(text, first_key, source):
        found.append(_record(block, first_key, source))
    if found:
        _check_complete(text, found, first_key, source)
    return found


def _check_complete(text: str, found: list[Record], first_key: str, source: str) -> None:
    last = found[-1]
    what = f"{'node' if first_key == 'NodeName' else 'partition'} {last.fields[first_key]}"
    again = f"save the whole `scontrol {_COMMAND.get(first_key, 'show')}` output and import again"
    if not text.endswith("\n"):
        key = next(reversed(last.fields))
        raise last.error(key, f"the output ends in the middle of a line, at {_clip(f'{key}={last.fields[key]}')!r}"
                              f" ({what}): it was cut short; {again}")
    if len(found) < 2:
        return
    # Cut at a line break (multi-line records): the keys after the cut are missing, and only those.
    # A hand-made or edited record may lack others; it still has keys printed after them.
    expected = ALWAYS_PRINTED.get(first_key, frozenset()).intersection(*(r.fields.keys() for r in found[:-1]))
    missing = expected - last.fields.keys()
    order = {key: n for n, key in enumerate(found[-2].fields)}
    reached = max((order[key] for key in last.fields if key in order), default=-1)
    if missing and all(order[key] > reached for key in missing):
        first = min(missing, key=order.__getitem__)
        raise last.error(None, f"{what} stops before `{first}=`, which scontrol prints for every record and the"
                               f" others have: the output was cut short; {again}")


def _blocks(text: str, first_key: str, source: str) -> Iterator[list[tuple[int, str]]]:
    block: list[tuple[int, str]] = []
    start = f"{first_key}="
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith(start):
            if block:
                yield block
            block = [(number, stripped)]
        elif block and line[:1].isspace():
            block.append((number, stripped))
        elif block and _KEY.match(stripped):  # a wrapped line without indentation
            block.append((number, stripped))
        else:
            command = _COMMAND.get(first_key, "show")
            raise ProfileError(
                f"{source}:{number}: expected a `{start}` record, found {_clip(stripped)!r}:"
                f" is this `scontrol {command}` output?{_looks_like(stripped)}"
            )
    if block:
        yield block


def _record(block: list[tuple[int, str]], first_key: str, source: str) -> Record:
    text, offsets, numbers = "", [], []
    for number, line in block:
        if text:
            text += " "
        offsets.append(len(text))
        numbers.append(number)
        text += line
    fields: dict[str, str] = {}
    lines: dict[str, int] = {}
    current: str | None = None
    value_start = 0
    for match in _KEY.finditer(text):
        key = match.group(1)
        if current in FREE_TEXT and key not in NODE_KEYS:
            continue  # "Reason=disk full at=/scratch" stays one value
        if current is not None:
            fields.setdefault(current, text[value_start:match.start()].strip())
        current, value_start = key, match.end()
        lines.setdefault(key, numbers[bisect.bisect_right(offsets, match.start()) - 1])
    if current is not None:
        fields.setdefault(current, text[value_start:].strip())
    if first_key not in fields:  # pragma: no cover - _blocks starts every block with it
        raise ProfileError(f"{source}:{block[0][0]}: no `{first_key}=`")
    return Record(source, fields, lines)


def config_values(text: str, source: str) -> tuple[dict[str, str], dict[str, int]]:
    """``scontrol show config``: ``Key = value`` lines (the first of each key), and their line numbers."""
    values: dict[str, str] = {}
    lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = _CONFIG_LINE.match(line.strip())
        if match and match.group(1) not in values:
            values[match.group(1)] = match.group(2).strip()
            lines[match.group(1)] = number
    if values and not text.endswith("\n"):  # as for records: `MaxArraySize = 10` may be 1001 cut short
        raise ProfileError(f"{source}: the output ends in the middle of a line: it was cut short;"
                           " save the whole `scontrol show config` output and import again")
    if "SLURM_VERSION" not in values:
        raise ProfileError(
            f"{source}: no `SLURM_VERSION = …` line: is this `scontrol show config` output?"
            + _looks_like(text)
        )
    return values, lines


def _looks_like(text: str) -> str:
    head = text.lstrip()[:200]
    for start, command in (("NodeName=", "show node"), ("PartitionName=", "show partition")):
        if head.startswith(start):
            return f" (it looks like `scontrol {command}` output)"
    return ""


def looks_like(text: str) -> str:
    return _looks_like(text)


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
