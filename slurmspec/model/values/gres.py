"""Parse generic-resource requests: --gres, --gpus* (``[type:]count``) and --tres-per-task.

--gres follows ``src/common/gres.c:_get_next_gres()`` as observed with sbatch
22.05.8: a comma list of ``name[[:type]:count]``; empty items are skipped; a
last field that is not a count is taken as a *type* with count 1 (so
``gpu:1.5`` is type ``1.5``); ``gpu:`` and ``gpu::1`` fail; count suffixes
k/m/g/t/p multiply by powers of 1024; count 0 is dropped. The --gpus family
prefixes each item with ``gpu:`` and reuses the same parser
(``slurm_opt.c:arg_set_gpus()`` → ``xfmt_tres()``).
"""

from __future__ import annotations

import re

import attrs

from slurmspec.frozen import as_tuple, frozen
from slurmspec.gates import EMPTY_GRES_ITEMS_PASSED, TRES_PER_TASK_GRES_COLON_FORM_DROPPED
from slurmspec.version import NEWEST, Version

from ._base import Parsed
from ._common import problem, tick

_COUNT = re.compile(r"[ \t]*\+?(\d+)([kKmMgGtTpP]?)")
_NAME = re.compile(r"[A-Za-z0-9_]+")
_SCALE = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4, "p": 1024**5}
_KNOWN = ("gpu", "mps", "shard", "nic", "mic")
# slurm_opt.c:_validate_tres_per_task() (23.02+) refuses these TRES types.
_BAD_TRES = ("mem", "energy", "node", "billing", "fs", "vmem", "pages", "bb")
_PER_TASK_TRES = ("cpu", "gres", "license")  # the other TRES types


@frozen
class GresItem:
    name: str
    type: str | None
    count: int


@frozen
class GresRequest:
    items: tuple[GresItem, ...] = attrs.field(converter=as_tuple)
    none: bool = False


@frozen
class GpuRequest:
    items: tuple[GresItem, ...] = attrs.field(converter=as_tuple)

    @property
    def total(self) -> int:
        return sum(item.count for item in self.items)

    @property
    def types(self) -> tuple[str, ...]:
        return tuple(item.type for item in self.items if item.type)


@frozen
class TresItem:
    kind: str  # cpu, gres, license, ...
    name: str | None  # gpu, ansys, ...
    type: str | None  # a100 in gres/gpu:a100
    count: int


@frozen
class TresRequest:
    items: tuple[TresItem, ...] = attrs.field(converter=as_tuple)


def _count(text: str) -> int | None:
    m = _COUNT.fullmatch(text)
    if not m:
        return None
    return int(m.group(1)) * _SCALE[m.group(2).lower()]


def _items(text: str, offset: int, what: str, problems: list):
    """Yield (GresItem, start, end) for one comma list; record problems."""
    pos = 0
    for piece in text.split(","):
        start, end = offset + pos, offset + pos + len(piece)
        pos += len(piece) + 1
        if not piece:
            continue  # strtok_r() skips empty items
        yield piece, start, end


def _parse_gres_item(piece: str, start: int, end: int, full: str, problems: list,
                     gpus: bool) -> GresItem | None:
    body = piece[5:] if piece.startswith("gres:") else piece
    fields = body.split(":")
    name = fields[0]
    shown = piece if not gpus else piece.partition(":")[2] or piece
    if not _NAME.fullmatch(name):
        problems.append(problem(full, f"{tick(name or piece)} is not a GRES name", start, end))
        return None
    if len(fields) > 3:
        problems.append(problem(full, f"{tick(shown)} has too many `:` fields; "
                                "use `name[:type][:count]`" if not gpus else
                                f"{tick(shown)} has too many `:` fields; use `[type:]count`",
                                start, end))
        return None
    if any(f == "" for f in fields[1:]):
        problems.append(problem(full, f"{tick(shown)} has an empty type or count", start, end))
        return None
    gtype, count = None, 1
    if len(fields) == 3:
        gtype = fields[1]
        count = _count(fields[2])
        if count is None:
            problems.append(problem(full, f"{tick(fields[2])} is not a count (a whole number "
                                    "with an optional k/m/g/t/p suffix)", start, end))
            return None
    elif len(fields) == 2:
        count = _count(fields[1])
        if count is None:
            gtype, count = fields[1], 1
            if not re.fullmatch(r"[A-Za-z_][\w.-]*", gtype):
                # sbatch takes it as a type name with count 1, but no GPU type can be
                # called that, so slurmctld answers "Invalid Trackable RESource (TRES)
                # specification" (checked against slurmctld 22.05.8 with 1.5 and 2x).
                problems.append(problem(full, f"{tick(gtype)} is not a whole count; sbatch reads "
                                        "it as a type name, which no cluster has, and the "
                                        "controller refuses the job", start, end))
                return None
    if name.lower() in _KNOWN and name not in _KNOWN:
        problems.append(problem(full, f"GRES names are case-sensitive: {tick(name)} must be "
                                f"written `{name.lower()}`", start, end))
        return None
    if gpus and name == "gpu" and gtype == "gpu":
        problems.append(problem(full, f"{tick(shown)} asks for GPUs of type `gpu`; these options "
                                "already mean GPUs, write just the count", start, end,
                                rejected=False))
    if count == 0:
        problems.append(problem(full, f"{tick(shown)} requests zero and is dropped", start, end,
                                rejected=False))
    return GresItem(name, gtype, count)


def _check_mixed(items: list[GresItem], text: str, problems: list) -> None:
    # gres.c: typed and untyped requests for the same name cannot be mixed:
    # "Invalid GRES specification (with and without type identification)".
    for name in {i.name for i in items}:
        typed = {i.type is not None for i in items if i.name == name and i.count}
        if typed == {True, False}:
            problems.append(problem(text, f"`{name}` is requested both with and without a "
                                    "type; Slurm refuses mixing them"))


def parse_gres(text: str, version: object = None) -> Parsed:
    if text.lower() == "none":
        return Parsed(GresRequest((), True))
    if text.lower() in ("help", "list"):
        return Parsed(None, (problem(text, f"{tick(text)} makes sbatch print the GRES list and "
                                     "exit without submitting"),))
    problems: list = []
    items = []
    for piece, start, end in _items(text, 0, "--gres", problems):
        item = _parse_gres_item(piece, start, end, text, problems, gpus=False)
        if item is not None:
            items.append(item)
    _check_mixed(items, text, problems)
    refused = not isinstance(version, tuple) or version < EMPTY_GRES_ITEMS_PASSED
    if not items and not problems:
        # slurmctld 22.05.8 refuses an empty --gres ("Invalid Trackable RESource (TRES)
        # specification"); 24.11.5 accepts it; an empty --gpus is accepted by both.
        problems.append(problem(text, "empty --gres value" + ("; the controller refuses the job" if refused
                                                               else " requests nothing"), rejected=refused))
    elif refused and "" in text.split(",") and not problems:
        # ... and so an empty item (`gpu:1,`, `,gpu:1`) on 22.05.8; 24.11.5 accepts it.
        problems.append(problem(text, "empty item in the --gres list; the controller refuses the job"))
    value = GresRequest(items) if not any(p.rejected for p in problems) else None
    return Parsed(value, tuple(problems))


def parse_gpus(text: str, version: object = None) -> Parsed:
    """--gpus, --gpus-per-node, --gpus-per-socket, --gpus-per-task: ``[type:]count[,...]``."""
    problems: list = []
    items = []
    for piece, start, end in _items(text, 0, "--gpus", problems):
        item = _parse_gres_item("gpu:" + piece, start, end, text, problems, gpus=True)
        if item is not None:
            items.append(item)
    _check_mixed(items, text, problems)
    if not items and not problems:
        problems.append(problem(text, "empty GPU request asks for nothing", rejected=False))
    value = GpuRequest(items) if not any(p.rejected for p in problems) else None
    return Parsed(value, tuple(problems))


def parse_tres_per_task(text: str, version: Version = NEWEST) -> Parsed:
    """--tres-per-task (23.02+): ``type[/name[:subtype]]=count[,...]``."""
    problems: list = []
    items = []
    pos = 0
    for piece in text.split(","):
        start, end = pos, pos + len(piece)
        pos = end + 1
        if not piece:
            continue
        key, eq, count_text = piece.partition("=")
        if not eq and version < TRES_PER_TASK_GRES_COLON_FORM_DROPPED:
            # The count may also follow a colon: `gres/gpu:v100:2`, `cpu:2`, and `gres:` is read
            # as `gres/` (slurm_opt.c:_validate_tres_per_task() -> slurm_format_tres_string();
            # slurm_protocol_defs.c:slurm_get_next_tres(); sbatch 24.11.5 accepts all three).
            if key.lower().startswith("gres:"):
                key = "gres/" + key[5:]
            head, colon, last = key.rpartition(":")
            key, count_text = (head, last) if colon and _count(last) is not None else (key, "1")
            eq = "=" if key.lower().startswith("gres/") or colon else ""
        kind, slash, rest = key.partition("/")
        if not eq:
            problems.append(problem(text, f"{tick(piece)} is not `type[/name]=count`", start, end))
            continue
        kind_low = kind.lower()
        if kind_low in _BAD_TRES:
            problems.append(problem(text, f"`{kind}` cannot be requested per task with "
                                    "--tres-per-task", start, end))
            continue
        if kind_low not in _PER_TASK_TRES:
            # slurmctld: assoc_mgr_valid_tres_cnt() knows no such TRES type ("Invalid Trackable
            # RESource (TRES) specification" from 24.11.5 for `gpu=1`).
            problems.append(problem(text, f"`{kind}` is not a TRES type; use `cpu`, `gres/<name>`"
                                    f" or `license/<name>`{' (`gres/gpu`)' if kind_low in _KNOWN else ''}",
                                    start, end))
            continue
        if not _NAME.fullmatch(kind) or (slash and not rest):
            problems.append(problem(text, f"{tick(key)} is not a TRES name", start, end))
            continue
        name, _, gtype = rest.partition(":")
        count = _count(count_text)
        if count is None:
            problems.append(problem(text, f"{tick(count_text)} is not a count", start, end))
            continue
        if kind_low == "cpu" and count == 0:
            problems.append(problem(text, "`cpu=0` is not a valid CPU count", start, end))
            continue
        items.append(TresItem(kind_low, name or None, gtype or None, count))
    if not items and not problems:
        problems.append(problem(text, "empty --tres-per-task requests nothing", rejected=False))
    value = TresRequest(items) if not any(p.rejected for p in problems) else None
    return Parsed(value, tuple(problems))
