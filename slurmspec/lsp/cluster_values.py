"""Completion values a cluster profile knows: partitions, node features, GPU types and GRES names.

The profile (``slurmspec/cluster/``, the configuration's ``cluster``) lists
the site's partitions and its node shapes with their ``AvailableFeatures`` and
GRES, as ``scontrol show`` printed them. Which of them fits depends on where
the cursor is in the value: ``--gpus=a1`` wants a type (``a100:``), after
``--gres=gpu:`` a type of that GRES, ``--constraint=ib&`` another feature.
"""

from __future__ import annotations

from typing import Callable

from slurmspec.model.catalogue.options import OptionSpec

FEATURE_OPTIONS = ("constraint", "prefer", "batch")
GPU_OPTIONS = ("gpus", "gpus-per-node", "gpus-per-task", "gpus-per-socket")


def profile_values(profile) -> Callable[[OptionSpec, str], list[str]]:
    """``values(option, value typed so far)`` for one profile."""
    partitions = [partition.name for partition in profile.partitions]
    features = sorted({feature for shape in profile.shapes for feature in shape.features})
    gres_types: dict[str, set[str]] = {}
    for shape in profile.shapes:
        for gres in shape.gres:
            types = gres_types.setdefault(gres.name, set())
            if gres.type:
                types.add(gres.type)

    def values(spec: OptionSpec, typed: str) -> list[str]:
        name = spec.long
        item = typed.rsplit(",", 1)[-1].lstrip("\"'")
        if name == "partition":
            return partitions
        if name in FEATURE_OPTIONS:
            return features
        if name in GPU_OPTIONS:  # [type:]count: a type only before the item's colon
            return [] if ":" in item else [f"{t}:" for t in sorted(gres_types.get("gpu", ()))]
        if name == "gres":  # name[:type][:count]
            parts = item.split(":")
            if len(parts) == 1:
                return [f"{gres}:" for gres in sorted(gres_types)]
            if len(parts) == 2:
                return sorted(gres_types.get(parts[0], ()))
        return []

    return values
