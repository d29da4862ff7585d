"""Typed parsers for sbatch option values, looked up by kind name in ``PARSERS``.

Each parser is ``parse(text, version) -> Parsed`` and never raises. The kind
names are the vocabulary of the option catalogue (one kind per value syntax).
Optional-argument kinds also accept ``text=None`` ("given without a value").
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Callable, Iterator, Mapping, Union

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
_LOCATIONS: dict[str, tuple[str, str]] = {
    "count": ("counts", "parse_count"),
    "count0": ("counts", "parse_count0"),
    "node-count": ("counts", "parse_node_count"),
    "duration": ("time", "parse_duration"),
    "delay-boot": ("time", "parse_delay_boot"),
    "datetime": ("datetimes", "parse_datetime"),
    "memory": ("memory", "parse_memory"),
    "filename": ("filename", "parse_filename"),
    "gres": ("gres", "parse_gres"),
    "gpus": ("gres", "parse_gpus"),
    "tres-per-task": ("gres", "parse_tres_per_task"),
    "constraint": ("constraint", "parse_constraint"),
    "array": ("array", "parse_array"),
    "dependency": ("dependency", "parse_dependency"),
    "signal": ("signal", "parse_signal"),
    "distribution": ("distribution", "parse_distribution"),
    "mail-type": ("enums", "parse_mail_type"),
    "open-mode": ("enums", "parse_open_mode"),
    "hint": ("enums", "parse_hint"),
    "profile": ("enums", "parse_profile"),
    "propagate": ("enums", "parse_propagate"),
    "gres-flags": ("enums", "parse_gres_flags"),
    "kill-on-invalid-dep": ("enums", "parse_kill_on_invalid_dep"),
    "wait-all-nodes": ("enums", "parse_wait_all_nodes"),
    "no-kill": ("enums", "parse_no_kill"),
    "exclusive": ("enums", "parse_exclusive"),
    "get-user-env": ("enums", "parse_get_user_env"),
    "requeue": ("enums", "parse_requeue"),
    "oom-kill-step": ("enums", "parse_oom_kill_step"),
    "export": ("enums", "parse_export"),
    "resv-ports": ("enums", "parse_resv_ports"),
    "gpu-bind": ("binding", "parse_gpu_bind"),
    "mem-bind": ("binding", "parse_mem_bind"),
    "cpu-freq": ("binding", "parse_cpu_freq"),
    "gpu-freq": ("binding", "parse_gpu_freq"),
    "acctg-freq": ("binding", "parse_acctg_freq"),
    "extra-node-info": ("binding", "parse_extra_node_info"),
    "switches": ("binding", "parse_switches"),
    "segment": ("binding", "parse_segment"),
    "mem-update": ("binding", "parse_mem_update"),
    "tres-bind": ("binding", "parse_tres_bind"),
    "nice": ("counts", "parse_nice"),
    "priority": ("counts", "parse_priority"),
}


class _LazyParsers(Mapping[str, Parser]):
    """The kind -> parser registry, importing each parser module when first asked."""

    def __init__(self) -> None:
        self._loaded: dict[str, Parser] = {"string": _string}

    def __getitem__(self, kind: str) -> Parser:
        parser = self._loaded.get(kind)
        if parser is None:
            module, function = _LOCATIONS[kind]  # KeyError for unknown kinds, as a dict
            parser = getattr(import_module(f"{__name__}.{module}"), function)
            self._loaded[kind] = parser
        return parser

    def __iter__(self) -> Iterator[str]:
        return iter(("string", *_LOCATIONS))

    def __len__(self) -> int:
        return 1 + len(_LOCATIONS)


PARSERS: Mapping[str, Parser] = _LazyParsers()

# Kinds whose option may be given without a value (the parser accepts None).
OPTIONAL_ARGUMENT = frozenset({"exclusive", "no-kill", "get-user-env", "nice", "propagate",
                               "requeue", "oom-kill-step", "resv-ports", "string"})

_DESCRIPTIONS = {
    "string": "any text",
    "count": "a whole number greater than 0",
    "count0": "a whole number, 0 or more",
    "node-count": "`N` or `min-max` (optional `k`/`m` suffix); 23.02+ also lists like `1,4,8`",
    "duration": "minutes, `M:S`, `H:M:S`, `D-H`, `D-H:M`, `D-H:M:S` or `UNLIMITED`",
    "delay-boot": "a duration: minutes, `M:S`, `H:M:S` or `D-H[:M[:S]]`",
    "datetime": "`HH:MM[:SS]`, `YYYY-MM-DD[THH:MM[:SS]]`, `MM/DD[/YY]`, `now+N<unit>`, "
                "`today`, `tomorrow`, `midnight`, `noon`, `fika`, `teatime` or `uts<epoch>`",
    "memory": "a whole number with an optional unit `K`, `M`, `G` or `T` (default megabytes)",
    "filename": "a path with optional `%` patterns (`%j`, `%A`, `%a`, `%x`, `%u`, ...) or `none`",
    "gres": "comma list of `name[:type][:count]`, or `none`",
    "gpus": "comma list of `[type:]count`",
    "tres-per-task": "comma list of `type[/name]=count`, e.g. `cpu=4,gres/gpu=1`",
    "constraint": "features joined by `&`/`|`, with `name*count`, `[ ]` and `( )`",
    "array": "comma list of `N`, `N-M` or `N-M:STEP`, optionally `%LIMIT`",
    "dependency": "`type:jobid[:jobid...]` items joined by `,` (all) or `?` (any)",
    "signal": "`[R|B:]SIGNAL[@SECONDS]`",
    "distribution": "`block|cyclic|arbitrary|plane=N[:block|cyclic|fcyclic[:...]][,pack|nopack]`",
    "mail-type": "comma list of NONE, BEGIN, END, FAIL, REQUEUE, ALL, INVALID_DEPEND, "
                 "STAGE_OUT, TIME_LIMIT, TIME_LIMIT_90/80/50, ARRAY_TASKS",
    "open-mode": "`append` or `truncate`",
    "hint": "`compute_bound`, `memory_bound`, `multithread` or `nomultithread`",
    "profile": "`all`, `none` or a comma list of `energy`, `task`, `lustre`, `network`",
    "propagate": "`ALL`, `NONE` or a comma list of AS, CORE, CPU, DATA, FSIZE, MEMLOCK, "
                 "NOFILE, NPROC, RSS, STACK",
    "gres-flags": "`disable-binding` or `enforce-binding` (24.05+: comma list, also "
                  "`one-task-per-sharing`, `multiple-tasks-per-sharing`)",
    "kill-on-invalid-dep": "`yes` or `no`",
    "wait-all-nodes": "`0` or `1`",
    "no-kill": "no value, `off`, `no` or `set`",
    "exclusive": "no value, `user`, `mcs`, `topo` (24.05+) or `allocation` (26.05+)",
    "get-user-env": "no value (before 25.05 also `[seconds][S|L]`)",
    "requeue": "no value (25.11+ also `expedite`)",
    "oom-kill-step": "no value, `0` or `1`",
    "export": "`ALL`, `NONE`, `NIL` (23.02+) or `[ALL,]NAME[=value][,...]`",
    "resv-ports": "no value or a port count",
    "gpu-bind": "`[verbose,]closest|none|map_gpu:<list>|mask_gpu:<list>|per_task:<n>|single:<n>`",
    "mem-bind": "`[quiet|verbose,]none|rank|local|map_mem:<list>|mask_mem:<list>|prefer|sort`",
    "cpu-freq": "`p1[-p2[:governor]]` with kHz or `low|medium|high|highm1`, or a governor",
    "gpu-freq": "`[memory=]value[,...][,verbose]` with MHz or `low|medium|high|highm1`",
    "acctg-freq": "comma list of `<task|energy|network|filesystem>=<seconds>`",
    "extra-node-info": "`S[:C[:T]]`, each `N`, `min-max` or `*`",
    "switches": "`count[@max-wait]` (wait as a duration)",
    "segment": "a segment size (whole number)",
    "mem-update": "`MARGIN@DELAY` (percent @ duration)",
    "tres-bind": "`gres/<name>:<binding>` items joined by `+`",
    "nice": "a whole number within ±2147483645 (negative needs privilege)",
    "priority": "a whole number 0 or more, or `TOP`",
}


def describe(kind: str) -> str:
    """One-line human description of the syntax ``kind`` expects."""
    return _DESCRIPTIONS.get(kind, "a value")


__all__ = ["PARSERS", "OPTIONAL_ARGUMENT", "Parsed", "ValueProblem", "describe"]
