"""A setting's value read as the type its option parses to, or None.

``Setting.value`` holds the parsed value when the option's text parsed, else the
raw text (other rules report it). The views read it through these functions, so
each asks for the one type it can use and treats anything else (an invalid value,
a job template's placeholder) as "not known".

Each function imports its value class only for a setting that is there: the value
modules load on first use (``slurmspec.model.values.PARSERS``: eager imports would
dominate the start-up time of ``lint``), and a parsed value exists only once its
parser's module is loaded, so the import then costs a dictionary look-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from slurmspec.model.job.request import Setting

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.model.values.constraint import Constraint
    from slurmspec.model.values.counts import NodeCount
    from slurmspec.model.values.gres import GresItem, TresItem
    from slurmspec.model.values.time import Duration


def count(setting: Setting | None) -> int | None:
    """A whole-number option (``-n``, ``-c``, ``--ntasks-per-node``...); None if unset or not a number."""
    if setting is None:
        return None
    from slurmspec.model.values.counts import Count

    value = setting.value
    if isinstance(value, Count):
        value = value.value
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def node_count(setting: Setting | None) -> NodeCount | None:
    """``-N``: its minimum, maximum (0: none) and sizes."""
    if setting is None:
        return None
    from slurmspec.model.values.counts import NodeCount

    return setting.value if isinstance(setting.value, NodeCount) else None


def gres_items(setting: Setting | None) -> tuple[GresItem, ...] | None:
    """The items of ``--gres`` or a ``--gpus*`` option (``--gres=none``: no item); None if it did not parse."""
    if setting is None:
        return None
    from slurmspec.model.values.gres import GpuRequest, GresRequest

    value = setting.value
    if isinstance(value, GresRequest):
        return () if value.none else value.items
    if isinstance(value, GpuRequest):
        return value.items
    return None


def gres_parsed(setting: Setting | None) -> bool:
    """The value parsed as a GRES/GPU request (``--gres=none`` included)."""
    return gres_items(setting) is not None


def tres_items(setting: Setting | None) -> tuple[TresItem, ...] | None:
    """The items of ``--tres-per-task``; None if it did not parse."""
    if setting is None:
        return None
    from slurmspec.model.values.gres import TresRequest

    return setting.value.items if isinstance(setting.value, TresRequest) else None


def megabytes(setting: Setting | None) -> int | None:
    """A memory option in megabytes (``--mem=0``: 0)."""
    if setting is None:
        return None
    from slurmspec.model.values.memory import MemorySize

    return setting.value.megabytes if isinstance(setting.value, MemorySize) else None


def layout_levels(setting: Setting | None) -> tuple[tuple[int, int] | None, ...] | None:
    """``-B S[:C[:T]]``: each level as (min, max), None for ``*``; None if it did not parse."""
    if setting is None:
        return None
    from slurmspec.model.values.binding import SocketCoreThread

    return setting.value.levels if isinstance(setting.value, SocketCoreThread) else None


def distribution_levels(setting: Setting | None) -> tuple[str, ...] | None:
    """``-m``: its levels (node[, socket[, core]]); None if it did not parse."""
    if setting is None:
        return None
    from slurmspec.model.values.distribution import Distribution

    return setting.value.levels if isinstance(setting.value, Distribution) else None


def flags(setting: Setting | None) -> tuple[str, ...] | None:
    """A keyword-list option (``--hint``); None if it did not parse."""
    if setting is None:
        return None
    from slurmspec.model.values.enums import Flags

    return setting.value.values if isinstance(setting.value, Flags) else None


def choice(setting: Setting | None) -> str | None:
    """A one-keyword option (``--exclusive``: ``exclusive`` without a value, ``user``...)."""
    if setting is None:
        return None
    from slurmspec.model.values.enums import Choice

    return setting.value.value if isinstance(setting.value, Choice) else None


def duration(setting: Setting | None) -> Duration | None:
    """``--time`` and the other durations."""
    if setting is None:
        return None
    from slurmspec.model.values.time import Duration

    return setting.value if isinstance(setting.value, Duration) else None


def constraint(setting: Setting | None) -> Constraint | None:
    """``--constraint``, parsed."""
    if setting is None:
        return None
    from slurmspec.model.values.constraint import Constraint

    return setting.value if isinstance(setting.value, Constraint) else None
