"""Typed parsers for sbatch option values, looked up by kind name in ``PARSERS``.

Each parser is ``parse(text, version) -> Parsed`` and never raises. The kind
names are the vocabulary of the option catalogue (one kind per value syntax).
Optional-argument kinds also accept ``text=None`` ("given without a value").
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Callable, Iterator, Mapping, Union

from slurmspec.kinds import ValueKind

from ._base import Parsed, ValueProblem

if TYPE_CHECKING:  # pragma: no cover - typing only: the modules load lazily (below)
    from .array import ArraySpec
    from .binding import Binding, Frequency, MemUpdate, SocketCoreThread, Switches
    from .constraint import Constraint
    from .counts import Count, Nice, NodeCount, Priority
    from .datetimes import DateTime
    from .dependency import DependencySpec
    from .distribution import Distribution
    from .enums import Choice, ExportSpec, Flags, MailTypes, UserEnv
    from .filename import FilenamePattern
    from .gres import GpuRequest, GresRequest, TresRequest
    from .memory import MemorySize
    from .signal import SignalSpec
    from .time import Duration
    from ._base import Unknown

    # What an option's setting holds: the parsed record of its kind, or the raw text when the kind is
    # "string" or the value did not parse (sbatch refuses it; a rule about it reads the text), True for
    # an option without an argument, ``Unknown`` for a job template's placeholder. Rules ask for the
    # record they need (``request.value_as("nodes", NodeCount)``), never probe attributes.
    Value = Union[
        Count, NodeCount, Nice, Priority, Duration, DateTime, MemorySize, FilenamePattern, GresRequest,
        GpuRequest, TresRequest, Constraint, ArraySpec, DependencySpec, SignalSpec, Distribution, Choice,
        Flags, MailTypes, ExportSpec, UserEnv, Binding, "tuple[Binding, ...]", Frequency, SocketCoreThread,
        Switches, MemUpdate, Unknown, str, bool,
    ]

Parser = Callable[..., Parsed]


def _string(text: str | None, version: object = None) -> Parsed:
    return Parsed(text)


# kind -> (module, function). Modules are imported on first use: each defines
# several attrs classes, and a typical script needs only a few kinds, so eager
# imports would dominate the start-up time of `slurmspec lint`.
_LOCATIONS: dict[ValueKind, tuple[str, str]] = {
    ValueKind.COUNT: ("counts", "parse_count"),
    ValueKind.COUNT0: ("counts", "parse_count0"),
    ValueKind.NODE_COUNT: ("counts", "parse_node_count"),
    ValueKind.DURATION: ("time", "parse_duration"),
    ValueKind.DELAY_BOOT: ("time", "parse_delay_boot"),
    ValueKind.DATETIME: ("datetimes", "parse_datetime"),
    ValueKind.MEMORY: ("memory", "parse_memory"),
    ValueKind.FILENAME: ("filename", "parse_filename"),
    ValueKind.GRES: ("gres", "parse_gres"),
    ValueKind.GPUS: ("gres", "parse_gpus"),
    ValueKind.TRES_PER_TASK: ("gres", "parse_tres_per_task"),
    ValueKind.CONSTRAINT: ("constraint", "parse_constraint"),
    ValueKind.ARRAY: ("array", "parse_array"),
    ValueKind.DEPENDENCY: ("dependency", "parse_dependency"),
    ValueKind.SIGNAL: ("signal", "parse_signal"),
    ValueKind.DISTRIBUTION: ("distribution", "parse_distribution"),
    ValueKind.MAIL_TYPE: ("enums", "parse_mail_type"),
    ValueKind.OPEN_MODE: ("enums", "parse_open_mode"),
    ValueKind.HINT: ("enums", "parse_hint"),
    ValueKind.PROFILE: ("enums", "parse_profile"),
    ValueKind.PROPAGATE: ("enums", "parse_propagate"),
    ValueKind.GRES_FLAGS: ("enums", "parse_gres_flags"),
    ValueKind.KILL_ON_INVALID_DEP: ("enums", "parse_kill_on_invalid_dep"),
    ValueKind.WAIT_ALL_NODES: ("enums", "parse_wait_all_nodes"),
    ValueKind.NO_KILL: ("enums", "parse_no_kill"),
    ValueKind.EXCLUSIVE: ("enums", "parse_exclusive"),
    ValueKind.GET_USER_ENV: ("enums", "parse_get_user_env"),
    ValueKind.REQUEUE: ("enums", "parse_requeue"),
    ValueKind.OOM_KILL_STEP: ("enums", "parse_oom_kill_step"),
    ValueKind.EXPORT: ("enums", "parse_export"),
    ValueKind.RESV_PORTS: ("enums", "parse_resv_ports"),
    ValueKind.GPU_BIND: ("binding", "parse_gpu_bind"),
    ValueKind.MEM_BIND: ("binding", "parse_mem_bind"),
    ValueKind.CPU_FREQ: ("binding", "parse_cpu_freq"),
    ValueKind.GPU_FREQ: ("binding", "parse_gpu_freq"),
    ValueKind.ACCTG_FREQ: ("binding", "parse_acctg_freq"),
    ValueKind.EXTRA_NODE_INFO: ("binding", "parse_extra_node_info"),
    ValueKind.SWITCHES: ("binding", "parse_switches"),
    ValueKind.SEGMENT: ("binding", "parse_segment"),
    ValueKind.MEM_UPDATE: ("binding", "parse_mem_update"),
    ValueKind.TRES_BIND: ("binding", "parse_tres_bind"),
    ValueKind.NICE: ("counts", "parse_nice"),
    ValueKind.PRIORITY: ("counts", "parse_priority"),
}


class _LazyParsers(Mapping[ValueKind, Parser]):
    """The kind -> parser registry, importing each parser module when first asked."""

    def __init__(self) -> None:
        self._loaded: dict[ValueKind, Parser] = {ValueKind.STRING: _string}

    def __getitem__(self, kind: ValueKind) -> Parser:
        parser = self._loaded.get(kind)
        if parser is None:
            module, function = _LOCATIONS[kind]  # KeyError for unknown kinds, as a dict
            parser = getattr(import_module(f"{__name__}.{module}"), function)
            self._loaded[kind] = parser
        return parser

    def __iter__(self) -> Iterator[ValueKind]:
        return iter((ValueKind.STRING, *_LOCATIONS))

    def __len__(self) -> int:
        return 1 + len(_LOCATIONS)


PARSERS: Mapping[ValueKind, Parser] = _LazyParsers()

# Kinds whose option may be given without a value (the parser accepts None).
OPTIONAL_ARGUMENT = frozenset({
    ValueKind.EXCLUSIVE, ValueKind.NO_KILL, ValueKind.GET_USER_ENV, ValueKind.NICE, ValueKind.PROPAGATE,
    ValueKind.REQUEUE, ValueKind.OOM_KILL_STEP, ValueKind.RESV_PORTS, ValueKind.STRING,
})

_DESCRIPTIONS: dict[ValueKind, str] = {
    ValueKind.STRING: "any text",
    ValueKind.COUNT: "a whole number greater than 0",
    ValueKind.COUNT0: "a whole number, 0 or more",
    ValueKind.NODE_COUNT: "`N` or `min-max` (optional `k`/`m` suffix); 23.02+ also lists like `1,4,8`",
    ValueKind.DURATION: "minutes, `M:S`, `H:M:S`, `D-H`, `D-H:M`, `D-H:M:S` or `UNLIMITED`",
    ValueKind.DELAY_BOOT: "a duration: minutes, `M:S`, `H:M:S` or `D-H[:M[:S]]`",
    ValueKind.DATETIME: "`HH:MM[:SS]`, `YYYY-MM-DD[THH:MM[:SS]]`, `MM/DD[/YY]`, `now+N<unit>`, "
                "`today`, `tomorrow`, `midnight`, `noon`, `fika`, `teatime` or `uts<epoch>`",
    ValueKind.MEMORY: "a whole number with an optional unit `K`, `M`, `G` or `T` (default megabytes)",
    ValueKind.FILENAME: "a path with optional `%` patterns (`%j`, `%A`, `%a`, `%x`, `%u`, ...) or `none`",
    ValueKind.GRES: "comma list of `name[:type][:count]`, or `none`",
    ValueKind.GPUS: "comma list of `[type:]count`",
    ValueKind.TRES_PER_TASK: "comma list of `type[/name]=count`, e.g. `cpu=4,gres/gpu=1`",
    ValueKind.CONSTRAINT: "features joined by `&`/`|`, with `name*count`, `[ ]` and `( )`",
    ValueKind.ARRAY: "comma list of `N`, `N-M` or `N-M:STEP`, optionally `%LIMIT`",
    ValueKind.DEPENDENCY: "`type:jobid[:jobid...]` items joined by `,` (all) or `?` (any)",
    ValueKind.SIGNAL: "`[R|B:]SIGNAL[@SECONDS]`",
    ValueKind.DISTRIBUTION: "`block|cyclic|arbitrary|plane=N[:block|cyclic|fcyclic[:...]][,pack|nopack]`",
    ValueKind.MAIL_TYPE: "comma list of NONE, BEGIN, END, FAIL, REQUEUE, ALL, INVALID_DEPEND, "
                 "STAGE_OUT, TIME_LIMIT, TIME_LIMIT_90/80/50, ARRAY_TASKS",
    ValueKind.OPEN_MODE: "`append` or `truncate`",
    ValueKind.HINT: "`compute_bound`, `memory_bound`, `multithread` or `nomultithread`",
    ValueKind.PROFILE: "`all`, `none` or a comma list of `energy`, `task`, `lustre`, `network`",
    ValueKind.PROPAGATE: "`ALL`, `NONE` or a comma list of AS, CORE, CPU, DATA, FSIZE, MEMLOCK, "
                 "NOFILE, NPROC, RSS, STACK",
    ValueKind.GRES_FLAGS: "`disable-binding` or `enforce-binding` (24.05+: comma list, also "
                  "`one-task-per-sharing`, `multiple-tasks-per-sharing`)",
    ValueKind.KILL_ON_INVALID_DEP: "`yes` or `no`",
    ValueKind.WAIT_ALL_NODES: "`0` or `1`",
    ValueKind.NO_KILL: "no value, `off`, `no` or `set`",
    ValueKind.EXCLUSIVE: "no value, `user`, `mcs`, `topo` (24.05+) or `allocation` (26.05+)",
    ValueKind.GET_USER_ENV: "no value (before 25.05 also `[seconds][S|L]`)",
    ValueKind.REQUEUE: "no value (25.11+ also `expedite`)",
    ValueKind.OOM_KILL_STEP: "no value, `0` or `1`",
    ValueKind.EXPORT: "`ALL`, `NONE`, `NIL` (23.02+) or `[ALL,]NAME[=value][,...]`",
    ValueKind.RESV_PORTS: "no value or a port count",
    ValueKind.GPU_BIND: "`[verbose,]closest|none|map_gpu:<list>|mask_gpu:<list>|per_task:<n>|single:<n>`",
    ValueKind.MEM_BIND: "`[quiet|verbose,]none|rank|local|map_mem:<list>|mask_mem:<list>|prefer|sort`",
    ValueKind.CPU_FREQ: "`p1[-p2[:governor]]` with kHz or `low|medium|high|highm1`, or a governor",
    ValueKind.GPU_FREQ: "`[memory=]value[,...][,verbose]` with MHz or `low|medium|high|highm1`",
    ValueKind.ACCTG_FREQ: "comma list of `<task|energy|network|filesystem>=<seconds>`",
    ValueKind.EXTRA_NODE_INFO: "`S[:C[:T]]`, each `N`, `min-max` or `*`",
    ValueKind.SWITCHES: "`count[@max-wait]` (wait as a duration)",
    ValueKind.SEGMENT: "a segment size (whole number)",
    ValueKind.MEM_UPDATE: "`MARGIN@DELAY` (percent @ duration)",
    ValueKind.TRES_BIND: "`gres/<name>:<binding>` items joined by `+`",
    ValueKind.NICE: "a whole number within ±2147483645 (negative needs privilege)",
    ValueKind.PRIORITY: "a whole number 0 or more, or `TOP`",
}


def describe(kind: ValueKind) -> str:
    """One-line human description of the syntax ``kind`` expects."""
    return _DESCRIPTIONS.get(kind, "a value")


__all__ = ["PARSERS", "OPTIONAL_ARGUMENT", "Parsed", "ValueProblem", "describe"]
