"""A setting's value read as the type its option parses to, or None.

``Setting.value`` holds the parsed value when the option's text parsed, else the
raw text (other rules report it). The views read it through these functions, so
each asks for the one type it can use and treats anything else (an invalid value,
a job template's placeholder) as "not known".
"""

from __future__ import annotations

from slurmspec.model.request import Setting
from slurmspec.model.values.binding import SocketCoreThread
from slurmspec.model.values.constraint import Constraint
from slurmspec.model.values.counts import Count, NodeCount
from slurmspec.model.values.distribution import Distribution
from slurmspec.model.values.enums import Choice, Flags
from slurmspec.model.values.gres import GpuRequest, GresItem, GresRequest, TresItem, TresRequest
from slurmspec.model.values.memory import MemorySize
from slurmspec.model.values.time import Duration


def count(setting: Setting | None) -> int | None:
    """A whole-number option (``-n``, ``-c``, ``--ntasks-per-node``...); None if unset or not a number."""
    if setting is None:
        return None
    value = setting.value
    if isinstance(value, Count):
        value = value.value
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def node_count(setting: Setting | None) -> NodeCount | None:
    """``-N``: its minimum, maximum (0: none) and sizes."""
    value = None if setting is None else setting.value
    return value if isinstance(value, NodeCount) else None


def gres_items(setting: Setting | None) -> tuple[GresItem, ...] | None:
    """The items of ``--gres`` or a ``--gpus*`` option (``--gres=none``: no item); None if it did not parse."""
    value = None if setting is None else setting.value
    if isinstance(value, GresRequest):
        return () if value.none else value.items
    if isinstance(value, GpuRequest):
        return value.items
    return None


def gres_parsed(setting: Setting | None) -> bool:
    """The value parsed as a GRES/GPU request (``--gres=none`` included)."""
    value = None if setting is None else setting.value
    return isinstance(value, (GresRequest, GpuRequest))


def tres_items(setting: Setting | None) -> tuple[TresItem, ...] | None:
    """The items of ``--tres-per-task``; None if it did not parse."""
    value = None if setting is None else setting.value
    return value.items if isinstance(value, TresRequest) else None


def megabytes(setting: Setting | None) -> int | None:
    """A memory option in megabytes (``--mem=0``: 0)."""
    value = None if setting is None else setting.value
    return value.megabytes if isinstance(value, MemorySize) else None


def layout_levels(setting: Setting | None) -> tuple[tuple[int, int] | None, ...] | None:
    """``-B S[:C[:T]]``: each level as (min, max), None for ``*``; None if it did not parse."""
    value = None if setting is None else setting.value
    return value.levels if isinstance(value, SocketCoreThread) else None


def distribution_levels(setting: Setting | None) -> tuple[str, ...] | None:
    """``-m``: its levels (node[, socket[, core]]); None if it did not parse."""
    value = None if setting is None else setting.value
    return value.levels if isinstance(value, Distribution) else None


def flags(setting: Setting | None) -> tuple[str, ...] | None:
    """A keyword-list option (``--hint``); None if it did not parse."""
    value = None if setting is None else setting.value
    return value.values if isinstance(value, Flags) else None


def choice(setting: Setting | None) -> str | None:
    """A one-keyword option (``--exclusive``: ``exclusive`` without a value, ``user``...)."""
    value = None if setting is None else setting.value
    return value.value if isinstance(value, Choice) else None


def duration(setting: Setting | None) -> Duration | None:
    """``--time`` and the other durations."""
    value = None if setting is None else setting.value
    return value if isinstance(value, Duration) else None


def text(setting: Setting | None) -> str | None:
    """A plain-text option (``--partition``, ``--account``...)."""
    value = None if setting is None else setting.value
    return value if isinstance(value, str) else None


def constraint(setting: Setting | None) -> Constraint | None:
    """``--constraint``, parsed."""
    value = None if setting is None else setting.value
    return value if isinstance(value, Constraint) else None
